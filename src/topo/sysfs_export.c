// SPDX-License-Identifier: GPL-2.0-only
/*
 * `schedlab topo -m X --export-sysfs DIR`: a machine written as the sysfs
 * files the reader (sysfs.c) reads, in the layout `cp -r
 * /sys/devices/system DIR` gives (DIR/cpu/..., DIR/node/...), each in the
 * kernel's format: lists as %*pbl prints them ("0-3,8-11"), masks as %*pb
 * (32-bit hex words, most significant first, nr_cpu_ids bits wide).
 *
 * What sysfs carries is the shape, capacities, frequencies, idle-state
 * latencies and the SLIT. What it does not (costs, HZ, whether an idle
 * state polls, reclaim distance, the footprint model's cache spans beyond
 * L2 and LLC) is lost; docs/machines.md lists it.
 */
#include "topo/topology.h"

#include "sim/alloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct sysfs_out {
	const struct topology *t;
	const char *dir;
	char *err;
	size_t errlen;
	int failed;
	char *buf; /* a list or mask of every CPU fits */
	size_t buflen;
	char last_dir[1024]; /* the directory of the last file written */
};

/* mkdir -p for the directories of DIR/@rel (not the last component) */
static int make_parents(struct sysfs_out *o, const char *path)
{
	char tmp[1024];
	size_t dirlen = (size_t)(strrchr(path, '/') - path);

	/* files come directory by directory: only a new one needs mkdir() calls */
	if (dirlen == strlen(o->last_dir) && !strncmp(path, o->last_dir, dirlen))
		return 0;
	snprintf(o->last_dir, sizeof(o->last_dir), "%.*s", (int)dirlen, path);
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + strlen(o->dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST) {
			snprintf(o->err, o->errlen, "%s: %s", tmp, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	return 0;
}

/* Writes DIR/@rel with the formatted text and a newline, as the kernel ends every file. */
static void put(struct sysfs_out *o, const char *rel, const char *fmt, ...)
{
	char path[1024];
	va_list ap;
	FILE *f;

	if (o->failed)
		return;
	snprintf(path, sizeof(path), "%s/%s", o->dir, rel);
	if (make_parents(o, path)) {
		o->failed = 1;
		return;
	}
	f = fopen(path, "w");
	if (!f) {
		snprintf(o->err, o->errlen, "%s: %s", path, strerror(errno));
		o->failed = 1;
		return;
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	if (fclose(f)) {
		snprintf(o->err, o->errlen, "%s: %s", path, strerror(errno));
		o->failed = 1;
	}
}

static const char *list(struct sysfs_out *o, const struct cpumask *m)
{
	cpumask_print_list(o->buf, o->buflen, m);
	return o->buf;
}

/*
 * %*pb of a cpumask: bitmap_print_to_pagebuf(false, ...) over nr_cpu_ids
 * bits: the top word holds what is left over (nr % 32 bits, as few hex
 * digits as that needs), every word below it 8 digits, commas between.
 */
static const char *mask(struct sysfs_out *o, const struct cpumask *m)
{
	unsigned int nr = o->t->nr_cpus, chunk = nr % 32 ? nr % 32 : 32;
	char *p = o->buf;

	for (int base = (int)((nr + 31) / 32 - 1) * 32; base >= 0; base -= 32) {
		unsigned long val = 0;

		for (unsigned int b = 0; b < chunk; b++)
			if (cpumask_test_cpu((unsigned int)base + b, m))
				val |= 1UL << b;
		p += sprintf(p, "%s%0*lx", p == o->buf ? "" : ",", (int)((chunk + 3) / 4), val);
		chunk = 32;
	}
	return o->buf;
}

static void put_topology(struct sysfs_out *o, unsigned int cpu)
{
	const struct topology *t = o->t;
	const struct cpu_topo *c = &t->cpus[cpu];
	unsigned int core_id = 0;
	char rel[128];

	/* core_id counts the cores of the package, as x86 and arm64 number them */
	for (unsigned int k = 0; k < c->core; k++)
		if (t->cpus[cpumask_first(t->core_mask[k])].package == c->package)
			core_id++;
#define TOPO(file, fmt, val)                                                 \
	do {                                                                 \
		snprintf(rel, sizeof(rel), "cpu/cpu%u/topology/" file, cpu); \
		put(o, rel, fmt, val);                                       \
	} while (0)
	TOPO("core_cpus_list", "%s", list(o, topology_sibling_cpumask(t, cpu)));
	TOPO("core_cpus", "%s", mask(o, topology_sibling_cpumask(t, cpu)));
	TOPO("thread_siblings_list", "%s", list(o, topology_sibling_cpumask(t, cpu)));
	TOPO("thread_siblings", "%s", mask(o, topology_sibling_cpumask(t, cpu)));
	TOPO("cluster_cpus_list", "%s", list(o, topology_cluster_cpumask(t, cpu)));
	TOPO("cluster_cpus", "%s", mask(o, topology_cluster_cpumask(t, cpu)));
	TOPO("package_cpus_list", "%s", list(o, topology_core_cpumask(t, cpu)));
	TOPO("package_cpus", "%s", mask(o, topology_core_cpumask(t, cpu)));
	TOPO("core_siblings_list", "%s", list(o, topology_core_cpumask(t, cpu)));
	TOPO("core_siblings", "%s", mask(o, topology_core_cpumask(t, cpu)));
	TOPO("physical_package_id", "%u", c->package);
	TOPO("core_id", "%u", core_id);
	TOPO("cluster_id", "%u", c->cluster);
#undef TOPO
}

/*
 * The footprint model's caches (src/sim/cache.c) as index0 (L2) and
 * index1 (L3), and index2 (the L1d, level 1 "Data", over the L2's CPUs)
 * when the machine sets cache_l1_kb; the L3 spans the scheduler's LLC,
 * which is what the reader takes the LLC from (the highest unified level).
 * The reader finds each by level and type, not by index.
 */
static void put_caches(struct sysfs_out *o, unsigned int cpu)
{
	const struct topology *t = o->t;
	const struct {
		unsigned int level;
		u64 kb;
		const struct cpumask *m;
	} caches[] = {
		{ 2, t->cost.cache_l2_kb, topology_cache_span_cpumask(t, t->cache_l2_span, cpu, false) },
		{ 3, t->cost.cache_llc_kb, topology_llc_cpumask(t, cpu) },
		{ 1, t->cost.cache_l1_kb, topology_cache_span_cpumask(t, t->cache_l2_span, cpu, false) },
	};
	char rel[128];

	for (unsigned int k = 0; k < ARRAY_SIZE(caches); k++) {
		if (caches[k].level == 1 && !caches[k].kb)
			continue;
#define CACHE(file, fmt, val)                                                        \
	do {                                                                         \
		snprintf(rel, sizeof(rel), "cpu/cpu%u/cache/index%u/" file, cpu, k); \
		put(o, rel, fmt, val);                                               \
	} while (0)
		CACHE("level", "%u", caches[k].level);
		CACHE("type", "%s", caches[k].level == 1 ? "Data" : "Unified");
		CACHE("size", "%lluK", (unsigned long long)caches[k].kb);
		CACHE("coherency_line_size", "%d", 64);
		CACHE("shared_cpu_list", "%s", list(o, caches[k].m));
		CACHE("shared_cpu_map", "%s", mask(o, caches[k].m));
#undef CACHE
	}
}

static const struct cpumask *policy_mask(const struct topology *t, unsigned int cpu,
					 struct cpumask *one)
{
	switch (t->cpufreq.span) {
	case CPUFREQ_SPAN_CORE:
		return topology_sibling_cpumask(t, cpu);
	case CPUFREQ_SPAN_CLUSTER:
		return topology_cluster_cpumask(t, cpu);
	case CPUFREQ_SPAN_PACKAGE:
		return topology_core_cpumask(t, cpu);
	default:
		cpumask_clear(one);
		cpumask_set_cpu(cpu, one);
		return one;
	}
}

/*
 * cpufreq, where the machine has a driver: written into cpuN/cpufreq/ (on a
 * real system a link to ../cpufreq/policyM, which a copy may resolve). The
 * frequency list is scaling_available_frequencies even for drivers that do
 * not have that file (intel_pstate, cppc_cpufreq), since the machine's OPPs
 * are a list; scaling_governor is the machine's default governor.
 */
static void put_cpufreq(struct sysfs_out *o, unsigned int cpu, struct cpumask *one)
{
	const struct topology *t = o->t;
	const struct cpu_topo *c = &t->cpus[cpu];
	char rel[128], *freqs;
	size_t len = (size_t)c->nr_opps * 12 + 1, n = 0;

	if (t->cpufreq.span == CPUFREQ_SPAN_NONE)
		return;
	freqs = xcalloc(len, 1);
	for (unsigned int k = 0; k < c->nr_opps; k++)
		n += (size_t)snprintf(freqs + n, len - n, "%u ", c->opp_khz[k]);
#define FREQ(file, fmt, val)                                                \
	do {                                                                \
		snprintf(rel, sizeof(rel), "cpu/cpu%u/cpufreq/" file, cpu); \
		put(o, rel, fmt, val);                                      \
	} while (0)
	FREQ("cpuinfo_min_freq", "%u", c->opp_khz[0]);
	FREQ("cpuinfo_max_freq", "%u", c->max_freq_khz);
	FREQ("scaling_min_freq", "%u", c->opp_khz[0]);
	FREQ("scaling_max_freq", "%u", c->max_freq_khz);
	FREQ("scaling_available_frequencies", "%s", freqs);
	FREQ("cpuinfo_transition_latency", "%llu",
	     (unsigned long long)t->cpufreq.transition_latency_ns);
	FREQ("related_cpus", "%s", list(o, policy_mask(t, cpu, one)));
	FREQ("affected_cpus", "%s", list(o, policy_mask(t, cpu, one)));
	FREQ("scaling_driver", "%s", t->cpufreq.driver[0] ? t->cpufreq.driver : "schedlab");
	FREQ("scaling_governor", "%s", cpufreq_governor_names[t->cpufreq.governor]);
#undef FREQ
	free(freqs);
}

/*
 * A state's desc, which is where sysfs says whether it polls: the kernel's
 * for POLL, an MWAIT hint as intel_idle writes it for the other polling
 * states (x86 MWAIT states poll), the name for the rest.
 */
static const char *idle_desc(const struct idle_state *s)
{
	if (!strcmp(s->name, "POLL"))
		return "CPUIDLE CORE POLL IDLE";
	if (s->polls && strcmp(s->name, "snooze"))
		return "MWAIT 0x00";
	return s->name;
}

/* cpuidle: the kernel's files are in microseconds, so sub-microsecond figures round down. */
static void put_cpuidle(struct sysfs_out *o, unsigned int cpu)
{
	const struct topology *t = o->t;
	char rel[128];

	for (unsigned int k = 0; k < t->nr_idle_states; k++) {
		const struct idle_state *s = &t->idle_states[k];

#define IDLE(file, fmt, val)                                                           \
	do {                                                                           \
		snprintf(rel, sizeof(rel), "cpu/cpu%u/cpuidle/state%u/" file, cpu, k); \
		put(o, rel, fmt, val);                                                 \
	} while (0)
		IDLE("name", "%s", s->name);
		IDLE("desc", "%s", idle_desc(s));
		IDLE("latency", "%llu", (unsigned long long)(s->exit_latency_ns / NSEC_PER_USEC));
		IDLE("residency", "%llu",
		     (unsigned long long)(s->target_residency_ns / NSEC_PER_USEC));
		IDLE("disable", "%d", 0);
#undef IDLE
	}
}

static void put_nodes(struct sysfs_out *o)
{
	const struct topology *t = o->t;
	unsigned int nr = t->nr_nodes;
	char rel[64], *row = xcalloc((size_t)nr * 12 + 1, 1);

	put(o, "node/online", nr > 1 ? "0-%u" : "%u", nr - 1);
	put(o, "node/possible", nr > 1 ? "0-%u" : "%u", nr - 1);
	put(o, "node/has_cpu", nr > 1 ? "0-%u" : "%u", nr - 1);
	for (unsigned int a = 0; a < nr; a++) {
		size_t n = 0;

		for (unsigned int b = 0; b < nr; b++)
			n += (size_t)snprintf(row + n, (size_t)nr * 12 + 1 - n, "%s%d",
					      b ? " " : "", t->node_distance[a * nr + b]);
		snprintf(rel, sizeof(rel), "node/node%u/cpulist", a);
		put(o, rel, "%s", list(o, t->node_mask[a]));
		snprintf(rel, sizeof(rel), "node/node%u/cpumap", a);
		put(o, rel, "%s", mask(o, t->node_mask[a]));
		snprintf(rel, sizeof(rel), "node/node%u/distance", a);
		put(o, rel, "%s", row);
	}
	free(row);
}

/* DIR is created, or must be an empty directory: an export never mixes with older files. */
static int prepare_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (!mkdir(dir, 0755))
		return 0;
	if (errno != EEXIST || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--export-sysfs: cannot create directory '%s': %s", dir,
			 errno == EEXIST ? "exists and is not a directory" : strerror(errno));
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "--export-sysfs: cannot read directory '%s': %s", dir,
			 strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			closedir(d);
			snprintf(
				err, errlen,
				"--export-sysfs: '%s' is not empty (give a new or empty directory)",
				dir);
			return -1;
		}
	}
	closedir(d);
	return 0;
}

int topology_export_sysfs(const struct topology *t, const char *dir, char *err, size_t errlen)
{
	struct sysfs_out o = { .t = t, .dir = dir, .err = err, .errlen = errlen };
	struct cpumask *one = alloc_cpumask();
	unsigned int nr = t->nr_cpus;

	if (strlen(dir) > 512) {
		snprintf(err, errlen, "--export-sysfs: the directory name is too long");
		free_cpumask(one);
		return -1;
	}
	if (prepare_dir(dir, err, errlen)) {
		free_cpumask(one);
		return -1;
	}
	/* a list of every other CPU is the longest: about 6 bytes a CPU */
	o.buflen = (size_t)nr * 8 + 64;
	o.buf = xcalloc(o.buflen, 1);
	put(&o, "cpu/online", nr > 1 ? "0-%u" : "%u", nr - 1);
	put(&o, "cpu/possible", nr > 1 ? "0-%u" : "%u", nr - 1);
	put(&o, "cpu/present", nr > 1 ? "0-%u" : "%u", nr - 1);
	for (unsigned int cpu = 0; cpu < nr && !o.failed; cpu++) {
		char rel[64];

		put_topology(&o, cpu);
		put_caches(&o, cpu);
		if (t->asym_capacity) {
			snprintf(rel, sizeof(rel), "cpu/cpu%u/cpu_capacity", cpu);
			put(&o, rel, "%lu", t->cpus[cpu].capacity);
		}
		put_cpufreq(&o, cpu, one);
		put_cpuidle(&o, cpu);
	}
	put_nodes(&o);
	free(o.buf);
	free_cpumask(one);
	return o.failed ? -1 : 0;
}
