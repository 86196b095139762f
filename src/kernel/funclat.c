// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/funclat.h"

#include "sim/alloc.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

struct funclat funclat[NR_FUNCLAT];
struct funclat_opts funclat_opts = { .until_ns = UINT64_MAX, .unit_ns = 1, .unit = "nsecs" };
bool funclat_probe_overhead;

const char *const funclat_names[NR_FUNCLAT] = {
#define FL_NAME(name) #name,
	FUNCLAT_FUNCS(FL_NAME)
#undef FL_NAME
};

/*
 * The intervals with calls, in time order: k[i] is the i-th's index,
 * sum[i * width + slot[id]] its figures for each enabled function (width
 * of them). Calls reach funclat_record() in the order their CPUs' cursors
 * run, not quite in time order, so one can land in an interval before the
 * last.
 */
static struct {
	u64 *k;
	struct funclat_sum *sum;
	size_t nr, cap;
	unsigned int width;
	unsigned int slot[NR_FUNCLAT];
} iv;

/* what a function not traced has in every interval */
static const struct funclat_sum no_calls;

void funclat_reset(void)
{
	free(iv.k);
	free(iv.sum);
	memset(&iv, 0, sizeof(iv));
	memset(funclat, 0, sizeof(funclat));
	memset(&funclat_opts, 0, sizeof(funclat_opts));
	funclat_opts.until_ns = UINT64_MAX;
	funclat_opts.unit_ns = 1;
	funclat_opts.unit = "nsecs";
	funclat_probe_overhead = false;
}

/* bcc's glob: '*' matches any run of characters, nothing else is special */
static bool glob_match(const char *pat, size_t plen, const char *name)
{
	if (!plen)
		return !*name;
	if (*pat == '*')
		return glob_match(pat + 1, plen - 1, name) ||
		       (*name && glob_match(pat, plen, name + 1));
	return *name == *pat && glob_match(pat + 1, plen - 1, name + 1);
}

static int traceable_list(char *err, size_t errlen, int n)
{
	for (int i = 0; i < NR_FUNCLAT && n > 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - (size_t)n, " %s", funclat_names[i]);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ")");
	return -1;
}

/* -r: a POSIX extended regular expression, matched from the start as re.match() */
static int enable_regexp(const char *pattern, char *err, size_t errlen)
{
	char anchored[160];
	regex_t re;
	int rc;

	snprintf(anchored, sizeof(anchored), "^(%s)", pattern);
	rc = regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char msg[96];

		regerror(rc, &re, msg, sizeof(msg));
		snprintf(err, errlen, "--funclatency: bad regular expression '%s': %s", pattern,
			 msg);
		return -1;
	}
	for (int i = 0; i < NR_FUNCLAT; i++)
		if (!regexec(&re, funclat_names[i], 0, NULL, 0))
			funclat[i].enabled = true;
	regfree(&re);
	return 0;
}

/* a name, a '*' glob, or a comma-separated list of them */
static int enable_globs(const char *list, char *err, size_t errlen)
{
	const char *s = list;
	size_t total = strlen(list);

	/* an empty item ("a,", "a,,b", ",a") is an error, as for --features */
	if (list[0] == ',' || list[total - 1] == ',' || strstr(list, ",,")) {
		snprintf(err, errlen, "--funclatency: empty function name in '%s'", list);
		return -1;
	}
	while (*s) {
		size_t len = strcspn(s, ",");
		bool found = false;

		for (int i = 0; i < NR_FUNCLAT; i++)
			if (glob_match(s, len, funclat_names[i]))
				funclat[i].enabled = found = true;
		if (!found)
			return traceable_list(err, errlen,
					      snprintf(err, errlen,
						       "--funclatency: unknown function '%.*s' (traceable:",
						       (int)len, s));
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

/*
 * -i/-d SECONDS: bcc takes whole seconds; fractions too, as simulated runs
 * are short, down to a millisecond (each interval with calls keeps a
 * histogram per function until the run ends)
 */
static int parse_secs(const char *opt, const char *arg, u64 *ns, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = arg ? strtod(arg, &end) : 0;
	if (!arg || !*arg || *end || errno || !(v > 0) || v > 1e6 || arg[0] < '0' ||
	    arg[0] > '9') {
		snprintf(err, errlen, "--funclatency: %s needs a number of seconds above 0, got '%s'",
			 opt, arg ? arg : "");
		return -1;
	}
	*ns = (u64)(v * 1e9 + 0.5);
	if (*ns < NSEC_PER_MSEC) {
		snprintf(err, errlen, "--funclatency: %s: at least 0.001 seconds, got '%s'", opt,
			 arg);
		return -1;
	}
	return 0;
}

/* one option letter; @arg its value (-i, -d), *used set if it took it */
static int short_opt(char c, const char *arg, bool *used, char *err, size_t errlen)
{
	struct funclat_opts *o = &funclat_opts;

	switch (c) {
	case 'u':
		o->unit_ns = 1000;
		o->unit = "usecs";
		return 0;
	case 'm':
		o->unit_ns = 1000000;
		o->unit = "msecs";
		return 0;
	case 'F':
		o->per_function = true;
		return 0;
	case 'T':
		o->timestamp = true;
		return 0;
	case 'r':
		o->regexp = true;
		return 0;
	case 'i':
		*used = true;
		return parse_secs("-i", arg, &o->interval_ns, err, errlen);
	case 'd':
		*used = true;
		return parse_secs("-d", arg, &o->duration_ns, err, errlen);
	case 'p':
	case 'l':
	case 'v':
		snprintf(err, errlen,
			 "--funclatency: -%c is not modelled (options: -u -m -F -T -r -i SECS -d SECS)",
			 c);
		return -1;
	}
	snprintf(err, errlen,
		 "--funclatency: unknown option '-%c' (options: -u -m -F -T -r -i SECS -d SECS)", c);
	return -1;
}

static const struct {
	const char *name;
	char c;
} long_opts[] = {
	{ "interval", 'i' },	 { "duration", 'd' },	   { "timestamp", 'T' },
	{ "microseconds", 'u' }, { "milliseconds", 'm' },  { "function", 'F' },
	{ "regexp", 'r' },	 { "pid", 'p' },	   { "level", 'l' },
	{ "verbose", 'v' },
};

#define MAX_WORDS 32

int funclat_enable(const char *spec, char *err, size_t errlen)
{
	char buf[512], *words[MAX_WORDS], *save = NULL;
	const char *pattern = NULL;
	int nw = 0, rc;

	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "--funclatency: command line too long (%zu characters)",
			 strlen(spec));
		return -1;
	}
	strcpy(buf, spec);
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (nw == MAX_WORDS) {
			snprintf(err, errlen, "--funclatency: too many words in '%s'", spec);
			return -1;
		}
		words[nw++] = w;
	}
	for (int i = 0; i < nw; i++) {
		char *w = words[i], *next = i + 1 < nw ? words[i + 1] : NULL;
		bool used = false;

		if (w[0] != '-' || !w[1]) {
			if (pattern) {
				snprintf(err, errlen,
					 "--funclatency: one pattern only, got '%s' and '%s'", pattern, w);
				return -1;
			}
			pattern = w;
			continue;
		}
		if (w[1] == '-') {
			char *eq = strchr(w, '=');
			size_t len = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
			char c = 0;

			for (size_t j = 0; j < sizeof(long_opts) / sizeof(long_opts[0]); j++)
				if (strlen(long_opts[j].name) == len &&
				    !strncmp(long_opts[j].name, w + 2, len))
					c = long_opts[j].c;
			if (!c) {
				snprintf(err, errlen,
					 "--funclatency: unknown option '%s' (options: -u -m -F -T -r -i SECS -d SECS)",
					 w);
				return -1;
			}
			if (short_opt(c, eq ? eq + 1 : next, &used, err, errlen))
				return -1;
			if (used && !eq)
				i++;
			continue;
		}
		for (char *c = w + 1; *c; c++) {
			/* -mTi 5, -i5: a value option takes the rest of the word or the next */
			if (short_opt(*c, c[1] ? c + 1 : next, &used, err, errlen))
				return -1;
			if (used) {
				if (!c[1])
					i++;
				break;
			}
		}
	}
	if (!pattern) {
		snprintf(err, errlen, "--funclatency: no function pattern in '%s'", spec);
		return -1;
	}
	snprintf(funclat_opts.pattern, sizeof(funclat_opts.pattern), "%s", pattern);
	rc = funclat_opts.regexp ? enable_regexp(pattern, err, errlen) :
				   enable_globs(pattern, err, errlen);
	if (rc)
		return rc;
	for (int i = 0; i < NR_FUNCLAT; i++)
		if (funclat[i].enabled)
			iv.slot[i] = funclat_opts.matched++;
	iv.width = funclat_opts.matched;
	if (!funclat_opts.matched) {
		snprintf(err, errlen, "--funclatency: 0 functions matched by \"%s\" (traceable:",
			 pattern);
		return traceable_list(err, errlen, (int)strlen(err));
	}
	/* as bcc: -d alone is also the interval; it exits at the first interval end past -d */
	if (funclat_opts.duration_ns && !funclat_opts.interval_ns)
		funclat_opts.interval_ns = funclat_opts.duration_ns;
	if (funclat_opts.duration_ns) {
		u64 n = (funclat_opts.duration_ns + funclat_opts.interval_ns - 1) /
			funclat_opts.interval_ns;

		funclat_opts.until_ns = n * funclat_opts.interval_ns;
	}
	return 0;
}

/* bcc's bpf_log2l(): 0 and 1 share bucket 1, [2^(k-1), 2^k) is bucket k */
unsigned int funclat_log2l(u64 v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 1;
}

const struct funclat_sum *funclat_interval(size_t i, enum funclat_id id, u64 *k)
{
	if (i >= iv.nr)
		return NULL;
	*k = iv.k[i];
	return funclat[id].enabled ? &iv.sum[i * iv.width + iv.slot[id]] : &no_calls;
}

/* the figures of interval @k, made if it had none */
static struct funclat_sum *interval_sum(u64 k)
{
	size_t i = iv.nr;

	while (i && iv.k[i - 1] > k)
		i--;
	if (i && iv.k[i - 1] == k)
		return &iv.sum[(i - 1) * iv.width];
	if (iv.nr == iv.cap) {
		size_t cap = iv.cap ? 2 * iv.cap : 64;

		iv.k = xrealloc(iv.k, cap * sizeof(*iv.k));
		iv.sum = xrealloc(iv.sum, cap * iv.width * sizeof(*iv.sum));
		iv.cap = cap;
	}
	memmove(&iv.k[i + 1], &iv.k[i], (iv.nr - i) * sizeof(*iv.k));
	memmove(&iv.sum[(i + 1) * iv.width], &iv.sum[i * iv.width],
		(iv.nr - i) * iv.width * sizeof(*iv.sum));
	iv.k[i] = k;
	memset(&iv.sum[i * iv.width], 0, iv.width * sizeof(*iv.sum));
	iv.nr++;
	return &iv.sum[i * iv.width];
}

static void add(u64 *calls, u64 *total, u64 *hist, u64 ns)
{
	(*calls)++;
	*total += ns;
	hist[funclat_log2l(ns / funclat_opts.unit_ns)]++;
}

/*
 * The function returns into the kretprobe trampoline: the dispatch and the
 * return program up to its bpf_ktime_get_ns() (start.lookup()) are inside
 * bcc's interval, the rest (start.delete(), the avg and histogram
 * increments, leaving the trampoline) after it.
 */
void funclat_record(enum funclat_id id, u64 ns)
{
	struct funclat *f = &funclat[id];
	bool timed = funclat_opts.interval_ns || funclat_opts.until_ns != UINT64_MAX;
	u64 now = timed ? cpu_now() : 0;
	struct funclat_sum *s = NULL;
	u64 probe = 0;

	/* -d: funclatency has detached */
	if (now >= funclat_opts.until_ns)
		return;
	if (funclat_probe_overhead) {
		const struct cost_model *c = machine.cost;

		charge(c->probe_return + c->bpf_map_op);
		charge(2 * c->bpf_map_op);
		probe = funclat_probe_in_interval(c);
	}
	add(&f->calls, &f->total_ns, f->hist, ns);
	f->probe_ns += probe;
	if (funclat_opts.interval_ns) {
		s = interval_sum(now / funclat_opts.interval_ns) + iv.slot[id];
		add(&s->calls, &s->total_ns, s->hist, ns);
		s->probe_ns += probe;
	}
}

/*
 * The kprobe fires at the first instruction: its dispatch, the kretprobe's
 * return-address hijack and the entry program up to bpf_ktime_get_ns() come
 * before bcc's start timestamp; start.update() comes after it. Both run
 * before the function's body, whose time the raw figure is.
 */
void funclat_probe_entry(void)
{
	const struct cost_model *c = machine.cost;

	if (funclat_opts.until_ns != UINT64_MAX && cpu_now() >= funclat_opts.until_ns)
		return;
	charge(c->probe_entry + c->bpf_map_op);
}

