// SPDX-License-Identifier: GPL-2.0-only
/*
 * -m host: the running kernel's preemption model and CONFIG_HZ, so that the
 * simulated kernel is built as this one is (docs/machines.md, "host and
 * sysfs:DIR").
 *
 * The preemption model, in the order the kernel decides it:
 *   1. debugfs sched/preempt (PREEMPT_DYNAMIC kernels: the mode in force,
 *      in parentheses: "none (voluntary) full lazy"); root only, and not
 *      mounted in most containers;
 *   2. preempt= on the kernel command line (PREEMPT_DYNAMIC: the boot-time
 *      choice, sched_dynamic_mode());
 *   3. the kernel's configuration, /boot/config-RELEASE or /proc/config.gz
 *      (CONFIG_IKCONFIG_PROC): the CONFIG_PREEMPT_{NONE,VOLUNTARY,LAZY}=y or
 *      CONFIG_PREEMPT=y choice, which is also PREEMPT_DYNAMIC's default;
 *      CONFIG_PREEMPT_RT=y is taken as full (RT is not modelled);
 *   4. uname -v: "PREEMPT_RT" or "PREEMPT" without "_DYNAMIC" mean full;
 *      otherwise none and voluntary cannot be told apart and nothing is set.
 * CONFIG_HZ comes from the configuration only (the kernel exports it
 * nowhere else); without one the machine keeps 250.
 *
 * The kernel's BTF (/sys/kernel/btf/vmlinux) names its types, enum values
 * and struct members: where it names scheduler pieces v6.18 lacks (v6.19's
 * wakeup preemption, sched features v6.18's features.h does not have: a
 * stable backport's or a vendor's), that is said, since the simulated
 * kernel is v6.18's and the two can then disagree.
 */
#include "topo/host_kernel.h"
#include "topo/host_file.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

static const char *const preempt_names[] = { "none", "voluntary", "full", "lazy" };

bool host_preempt_name_valid(const char *name)
{
	for (unsigned int i = 0; i < sizeof(preempt_names) / sizeof(preempt_names[0]); i++)
		if (!strcmp(name, preempt_names[i]))
			return true;
	return false;
}

/* debugfs sched/preempt: the word in parentheses */
static bool debugfs_mode(const char *line, char *mode, size_t size)
{
	const char *open = strchr(line, '('), *close;
	size_t len;

	if (!open)
		return false;
	close = strchr(open, ')');
	if (!close)
		return false;
	len = (size_t)(close - open - 1);
	if (!len || len >= size)
		return false;
	memcpy(mode, open + 1, len);
	mode[len] = '\0';
	return host_preempt_name_valid(mode);
}

/* preempt=MODE on the command line; the last one counts, as early_param's */
static bool cmdline_mode(const char *line, char *mode, size_t size)
{
	bool found = false;

	for (const char *p = line; (p = strstr(p, "preempt=")); p++) {
		size_t len;

		if (p != line && p[-1] != ' ')
			continue;
		p += strlen("preempt=");
		len = strcspn(p, " \t");
		if (!len || len >= size)
			continue;
		memcpy(mode, p, len);
		mode[len] = '\0';
		found = host_preempt_name_valid(mode);
		if (!found)
			break;
	}
	return found;
}

struct kconfig {
	const char *mode; /* from the CONFIG_PREEMPT* choice, or NULL */
	const char *choice; /* the symbol it came from */
	bool dynamic; /* CONFIG_PREEMPT_DYNAMIC=y */
	unsigned int hz; /* CONFIG_HZ, 0 if not there */
};

static void kconfig_line(struct kconfig *k, const char *l)
{
	static const struct {
		const char *sym;
		const char *mode;
	} choices[] = {
		{ "CONFIG_PREEMPT_NONE=y", "none" }, { "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT=y", "full" },	     { "CONFIG_PREEMPT_LAZY=y", "lazy" },
		{ "CONFIG_PREEMPT_RT=y", "full" },
	};
	unsigned int hz;

	for (unsigned int i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		size_t n = strlen(choices[i].sym);

		if (!strncmp(l, choices[i].sym, n) && (l[n] == '\n' || !l[n])) {
			/* PREEMPT_RT selects PREEMPTION but is its own choice: it wins */
			if (!k->mode || !strcmp(choices[i].sym, "CONFIG_PREEMPT_RT=y")) {
				k->mode = choices[i].mode;
				k->choice = choices[i].sym;
			}
			return;
		}
	}
	if (!strncmp(l, "CONFIG_PREEMPT_DYNAMIC=y", strlen("CONFIG_PREEMPT_DYNAMIC=y")))
		k->dynamic = true;
	else if (sscanf(l, "CONFIG_HZ=%u", &hz) == 1 && hz >= 1 && hz <= 10000)
		k->hz = hz;
}

static bool kconfig_text(const char *path, struct kconfig *k)
{
	char l[256];
	FILE *f;

	if (!path)
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(l, sizeof(l), f))
		kconfig_line(k, l);
	fclose(f);
	return true;
}

static bool kconfig_gz(const char *path, struct kconfig *k)
{
	char l[256];
	gzFile f;

	if (!path)
		return false;
	f = gzopen(path, "rb");
	if (!f)
		return false;
	while (gzgets(f, l, sizeof(l)))
		kconfig_line(k, l);
	gzclose(f);
	return true;
}

static void set_preempt(struct topology *t, const char *mode)
{
	snprintf(t->preempt, sizeof(t->preempt), "%s", mode);
}

/* appends to t->kernel_source, "; " between entries */
static void __attribute__((format(printf, 2, 3)))
add_source(struct topology *t, const char *fmt, ...)
{
	size_t len = strlen(t->kernel_source);
	va_list ap;

	if (len && len + 2 < sizeof(t->kernel_source)) {
		strcat(t->kernel_source, "; ");
		len += 2;
	}
	if (len >= sizeof(t->kernel_source))
		return;
	va_start(ap, fmt);
	vsnprintf(t->kernel_source + len, sizeof(t->kernel_source) - len, fmt, ap);
	va_end(ap);
}

static void host_kernel_btf(struct topology *t, const char *path);

void host_kernel_read(struct topology *t, const struct host_kernel_files *f)
{
	struct kconfig k = { 0 };
	const char *config = NULL;
	char line[4096], mode[sizeof(t->preempt)];

	if (kconfig_text(f->config, &k))
		config = f->config;
	else if (kconfig_gz(f->config_gz, &k))
		config = f->config_gz;

	if (host_read_line(f->debugfs_preempt, line, sizeof(line)) &&
	    debugfs_mode(line, mode, sizeof(mode))) {
		set_preempt(t, mode);
		add_source(t, "from %s", f->debugfs_preempt);
	} else if ((!config || k.dynamic) && host_read_line(f->cmdline, line, sizeof(line)) &&
		   cmdline_mode(line, mode, sizeof(mode))) {
		set_preempt(t, mode);
		add_source(t, "from preempt= in %s", f->cmdline);
	} else if (config && k.mode) {
		set_preempt(t, k.mode);
		if (k.dynamic)
			add_source(
				t,
				"%s in %s, PREEMPT_DYNAMIC's default: no preempt= on the command line, debugfs sched/preempt not readable",
				k.choice, config);
		else
			add_source(t, "%s in %s", k.choice, config);
	} else if (f->uname_version && strstr(f->uname_version, "PREEMPT_RT")) {
		set_preempt(t, "full");
		add_source(t, "uname -v '%s': PREEMPT_RT, taken as full", f->uname_version);
	} else if (f->uname_version && strstr(f->uname_version, "PREEMPT ") &&
		   !strstr(f->uname_version, "PREEMPT_DYNAMIC")) {
		set_preempt(t, "full");
		add_source(t, "uname -v '%s'", f->uname_version);
	} else {
		add_source(
			t,
			"preemption model not found: no debugfs sched/preempt, preempt= or kernel config");
	}
	t->hz_from_kernel = k.hz;
	if (k.hz) {
		t->hz = k.hz;
		add_source(t, "HZ %u: CONFIG_HZ in %s", k.hz, config);
	} else {
		add_source(t, "CONFIG_HZ not found (no kernel config): HZ %u assumed", t->hz);
	}
	host_kernel_btf(t, f->btf);
}

/*
 * The scheduler features of v6.18's kernel/sched/features.h, the kernel
 * schedlab's baseline re-implements (DESIGN.md).
 */
static const char *const v618_features[] = {
	"PLACE_LAG",	      "PLACE_DEADLINE_INITIAL",
	"PLACE_REL_DEADLINE", "RUN_TO_PARITY",
	"PREEMPT_SHORT",      "NEXT_BUDDY",
	"PICK_BUDDY",	      "CACHE_HOT_BUDDY",
	"DELAY_DEQUEUE",      "DELAY_ZERO",
	"WAKEUP_PREEMPTION",  "HRTICK",
	"HRTICK_DL",	      "NONTASK_CAPACITY",
	"TTWU_QUEUE",	      "SIS_UTIL",
	"WARN_DOUBLE_CLOCK",  "RT_PUSH_IPI",
	"RT_RUNTIME_SHARE",   "LB_MIN",
	"ATTACH_AGE_LOAD",    "WA_IDLE",
	"WA_WEIGHT",	      "WA_BIAS",
	"UTIL_EST",	      "LATENCY_WARN",
};

/*
 * Names in a kernel's BTF that v6.18's scheduler does not have, and what
 * they are: the wakeup preemption of v6.19's "sched/fair: Reimplement
 * NEXT_BUDDY to align with EEVDF goals", and v6.19's renamed EEVDF sums
 * (with its zero_vruntime and max_slice changes, in 6.18.y stable too).
 */
static const struct {
	const char *name, *what;
} btf_markers[] = {
	{ "PREEMPT_WAKEUP_PICK",
	  "enum preempt_wakeup_action (v6.19's wakeup preemption: --features WAKEUP_PREEMPT_EEVDF)" },
	{ "sum_w_vruntime", "cfs_rq.sum_w_vruntime (v6.19's EEVDF accounting)" },
};

#define BTF_MAGIC 0xeB9F
#define BTF_MAX_SIZE (256u << 20)

/* the string section of a BTF file, or NULL (not there, not BTF) */
static char *btf_strings(const char *path, size_t *len)
{
	unsigned char hdr[24];
	unsigned int hdr_len, str_off, str_len;
	char *str = NULL;
	FILE *f;

	if (!path)
		return NULL;
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    (unsigned int)(hdr[0] | hdr[1] << 8) != BTF_MAGIC)
		goto out;
	/* struct btf_header: magic, version, flags, hdr_len, type_off, type_len, str_off, str_len */
	hdr_len = (unsigned int)hdr[4] | (unsigned int)hdr[5] << 8 | (unsigned int)hdr[6] << 16 |
		  (unsigned int)hdr[7] << 24;
	str_off = (unsigned int)hdr[16] | (unsigned int)hdr[17] << 8 | (unsigned int)hdr[18] << 16 |
		  (unsigned int)hdr[19] << 24;
	str_len = (unsigned int)hdr[20] | (unsigned int)hdr[21] << 8 | (unsigned int)hdr[22] << 16 |
		  (unsigned int)hdr[23] << 24;
	if (hdr_len < sizeof(hdr) || str_len == 0 || str_len > BTF_MAX_SIZE ||
	    str_off > BTF_MAX_SIZE || fseek(f, (long)hdr_len + (long)str_off, SEEK_SET))
		goto out;
	str = malloc((size_t)str_len + 1);
	if (!str)
		goto out;
	if (fread(str, 1, str_len, f) != str_len) {
		free(str);
		str = NULL;
		goto out;
	}
	str[str_len] = '\0';
	*len = str_len;
out:
	fclose(f);
	return str;
}

static bool v618_feature(const char *name)
{
	for (unsigned int i = 0; i < sizeof(v618_features) / sizeof(v618_features[0]); i++)
		if (!strcmp(name, v618_features[i]))
			return true;
	return false;
}

/*
 * What the kernel's BTF shows of a scheduler other than v6.18's: the
 * markers above and every sched feature (enum __SCHED_FEAT_*) v6.18 has
 * not. Appended to t->kernel_source, with a note in t->approximations.
 */
static void host_kernel_btf(struct topology *t, const char *path)
{
	char other[256] = "", feats[256] = "";
	size_t len = 0, n;
	char *str = btf_strings(path, &len);

	if (!str)
		return;
	for (size_t i = 0; i < len; i += strlen(str + i) + 1) {
		const char *name = str + i;

		for (unsigned int m = 0; m < sizeof(btf_markers) / sizeof(btf_markers[0]); m++) {
			if (strcmp(name, btf_markers[m].name) || strstr(other, btf_markers[m].what))
				continue;
			n = strlen(other);
			snprintf(other + n, sizeof(other) - n, "%s%s", n ? ", " : "",
				 btf_markers[m].what);
		}
		if (!strncmp(name, "__SCHED_FEAT_", strlen("__SCHED_FEAT_"))) {
			name += strlen("__SCHED_FEAT_");
			if (!strcmp(name, "NR") || v618_feature(name))
				continue;
			n = strlen(feats);
			snprintf(feats + n, sizeof(feats) - n, "%s%s", n ? " " : "", name);
		}
	}
	free(str);
	if (!other[0] && !feats[0])
		return;
	add_source(t, "its BTF has a scheduler other than v6.18's: %s%s%s%s", other,
		   other[0] && feats[0] ? "; " : "", feats[0] ? "sched features v6.18 lacks: " : "",
		   feats);
	n = strlen(t->approximations);
	snprintf(t->approximations + n, sizeof(t->approximations) - n, "%s%s", n ? "; " : "",
		 "the running kernel's scheduler is not v6.18's, which is simulated (Kernel line)");
}

void topology_detect_host_kernel(struct topology *t)
{
	struct utsname u;
	char config[sizeof(u.release) + 16];
	char version[sizeof(u.version)] = "";
	struct host_kernel_files f = {
		.debugfs_preempt = "/sys/kernel/debug/sched/preempt",
		.cmdline = "/proc/cmdline",
		.config_gz = "/proc/config.gz",
		.btf = "/sys/kernel/btf/vmlinux",
	};

	if (!uname(&u)) {
		snprintf(config, sizeof(config), "/boot/config-%s", u.release);
		f.config = config;
		snprintf(version, sizeof(version), "%s", u.version);
		f.uname_version = version;
	}
	host_kernel_read(t, &f);
}
