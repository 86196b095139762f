// SPDX-License-Identifier: GPL-2.0-only
/*
 * A machine from a machine file (docs/machines.md, "Machine files"). The
 * sections fill a struct topology the way a preset's builder does, and
 * topology_finish() then checks the shape as it checks every preset's, so
 * a file cannot describe a machine a preset could not.
 *
 * Every value is checked where it is read, with the file and line; what
 * only the whole file shows (a CPU without a class, a missing distance
 * row) is reported with the line of the section or key it concerns.
 */
#include "topo/machine_file.h"

#include "topo/machine_asym.h"
#include "topo/machine_guest.h"

#include "sim/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MF_MAX_CLASSES 64
/* MAX_NUMNODES of a CONFIG_NODES_SHIFT=10 kernel; a SLIT beyond is no real machine */
#define MF_MAX_NODES 1024

#define NR_LV MF_NR_LEVELS
#define NR_NUMB MF_NR_NUMBERINGS
#define lv_names mf_level_names
#define numbering_names mf_numbering_names
#define span_names mf_cpufreq_span_names
#define cache_span_names mf_cache_span_names

const char *const mf_level_names[MF_NR_LEVELS] = { "pack", "numa", "l3", "cluster", "core", "pu" };
const char *const mf_numbering_names[MF_NR_NUMBERINGS] = { "consecutive", "x86", "fused" };
/* [machine] preempt: the kernel's preemption models, as --preempt names them */
static const char *const preempt_names[] = { "none", "voluntary", "full", "lazy" };
/* in enum cpufreq_span's and enum cache_span's order */
const char *const mf_cpufreq_span_names[5] = { "cpu", "core", "cluster", "package", "none" };
const char *const mf_cache_span_names[NR_CACHE_SPANS] = { "default", "core", "llc", "package",
							  "cluster" };

struct mf_class {
	unsigned int line; /* of its [class.K] header; 0: not given */
	unsigned long capacity;
	unsigned long speed; /* 0: not given, the capacity */
	unsigned int nr_opps;
	unsigned int opps[TOPO_MAX_OPPS];
	char *cpus; /* its cpulist, resolved once the CPU count is known */
	unsigned int cpus_line;
	/* the energy model: em_power_uw, idle_power_uw.N (one figure per OPP) */
	unsigned int nr_power, power_line;
	unsigned int power[TOPO_MAX_OPPS];
	unsigned int idle_given; /* bit N: idle_power_uw.N */
	unsigned int idle_nr[TOPO_MAX_IDLE_STATES], idle_pw_line[TOPO_MAX_IDLE_STATES];
	unsigned int idle_pw[TOPO_MAX_IDLE_STATES][TOPO_MAX_OPPS];
	/* turbo by active cores: turbo_cores and turbo_khz, checked together (check_turbo()) */
	unsigned int nr_turbo_cores, nr_turbo_khz, turbo_line;
	unsigned int turbo_cores[TOPO_MAX_TURBO_GROUPS], turbo_khz[TOPO_MAX_TURBO_GROUPS];
};

struct mf_state {
	struct topology *t;
	const char *file;
	unsigned int sec_line; /* line of the current section's header */
	int sec_index; /* K of [class.K] / [idle.K] */

	bool seen_name, seen_hz, seen_preempt, seen_shape, seen_numbering, seen_nr_cpus;
	unsigned int shape[NR_LV];
	int numbering;
	unsigned int nr_cpus; /* from shape or nr_cpus */
	unsigned int topo_line;
	unsigned int (*ids)[NR_LV - 1]; /* explicit cpu.N lines: pack numa llc cluster core */
	unsigned char *cpu_seen;

	unsigned int nr_nodes; /* distance matrix size, from the first row */
	int *dist;
	unsigned char *row_seen;
	unsigned int dist_line;
	bool seen_reclaim;

	struct mf_class classes[MF_MAX_CLASSES];
	bool idle_given[TOPO_MAX_IDLE_STATES];
	unsigned int idle_line[TOPO_MAX_IDLE_STATES];
	unsigned int idle_fields[TOPO_MAX_IDLE_STATES]; /* bitmask of keys read */
	unsigned int cpufreq_fields, machine_text, cache_fields;
	unsigned int governor_line; /* [cpufreq] governor's line */
	struct mf_asym asym;
	struct mf_guest guest;
	bool energy_source_seen;
	unsigned int energy_line; /* of the [energy] header */
};

/* ---- values ---- */

/* A decimal number: digits only, at most @max. */
static int parse_u64(const char *key, const char *v, unsigned long long min, unsigned long long max,
		     unsigned long long *out, char *err, size_t errlen)
{
	unsigned long long x = 0;

	if (!isdigit((unsigned char)*v))
		goto bad;
	for (const char *p = v; *p; p++) {
		if (!isdigit((unsigned char)*p))
			goto bad;
		/* max is far below 2^64 / 10, so x * 10 + 9 cannot wrap before this stops it */
		x = x * 10 + (unsigned long long)(*p - '0');
		if (x > max)
			goto range;
	}
	if (x < min)
		goto range;
	*out = x;
	return 0;
bad:
	snprintf(err, errlen, "%s: '%.40s' is not a decimal number", key, v);
	return -1;
range:
	snprintf(err, errlen, "%s: %.40s is out of range (%llu..%llu)", key, v, min, max);
	return -1;
}

static int parse_uint(const char *key, const char *v, unsigned long long min,
		      unsigned long long max, unsigned int *out, char *err, size_t errlen)
{
	unsigned long long x;

	if (parse_u64(key, v, min, max, &x, err, errlen))
		return -1;
	*out = (unsigned int)x;
	return 0;
}

/*
 * A list of numbers separated by blanks, at most @cap of them. Returns how
 * many, or -1 with a message.
 */
static int parse_list(const char *key, const char *v, unsigned long long min,
		      unsigned long long max, unsigned long long *out, int cap, char *err,
		      size_t errlen)
{
	char word[32];
	int n = 0;

	while (*v) {
		size_t len = strcspn(v, " \t");

		if (n == cap) {
			snprintf(err, errlen, "%s: more than %d values", key, cap);
			return -1;
		}
		if (len >= sizeof(word)) {
			snprintf(err, errlen, "%s: '%.20s...' is not a decimal number", key, v);
			return -1;
		}
		memcpy(word, v, len);
		word[len] = '\0';
		if (parse_u64(key, word, min, max, &out[n++], err, errlen))
			return -1;
		v += len;
		while (*v == ' ' || *v == '\t')
			v++;
	}
	return n;
}

static int parse_enum(const char *key, const char *v, const char *const *names, int n, int *out,
		      char *err, size_t errlen)
{
	int len = 0;

	for (int i = 0; i < n; i++) {
		if (!strcmp(v, names[i])) {
			*out = i;
			return 0;
		}
	}
	len = snprintf(err, errlen, "%s: '%.40s' is not one of", key, v);
	for (int i = 0; i < n && len > 0 && (size_t)len < errlen; i++)
		len += snprintf(err + len, errlen - (size_t)len, " %s", names[i]);
	return -1;
}

/*
 * A text key (description, approximations, source): a repeated key appends
 * with one space, so that a long text can be written on several lines.
 */
static int set_text(const char *key, char *dst, size_t size, const char *v, bool repeat, char *err,
		    size_t errlen)
{
	size_t have = repeat ? strlen(dst) : 0;

	if (have + (have ? 1 : 0) + strlen(v) >= size) {
		snprintf(err, errlen, "%s: longer than %zu characters", key, size - 1);
		return -1;
	}
	if (have)
		dst[have++] = ' ';
	strcpy(dst + have, v);
	return 0;
}

static int once(bool *seen, const char *key, char *err, size_t errlen)
{
	if (*seen) {
		snprintf(err, errlen, "%s given twice", key);
		return -1;
	}
	*seen = true;
	return 0;
}

/* The same for keys tracked in a bitmask. */
static int once_bit(unsigned int *fields, unsigned int bit, const char *key, char *err,
		    size_t errlen)
{
	bool seen = *fields & (1u << bit);

	if (once(&seen, key, err, errlen))
		return -1;
	*fields |= 1u << bit;
	return 0;
}

static int unknown_key(const struct mf_line *l, const char *known, char *err, size_t errlen)
{
	snprintf(err, errlen, "unknown key '%.40s' in [%s] (known: %s)", l->key, l->section, known);
	return -1;
}

/* ---- [machine] ---- */

static int machine_line(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	struct topology *t = s->t;
	const char *k = l->key;

	if (!strcmp(k, "name")) {
		if (once(&s->seen_name, k, err, errlen))
			return -1;
		for (const char *p = l->value; *p; p++) {
			if (!isprint((unsigned char)*p)) {
				snprintf(err, errlen, "name: '%.40s' has a control character",
					 l->value);
				return -1;
			}
		}
		return set_text(k, t->name, sizeof(t->name), l->value, false, err, errlen);
	}
	if (!strcmp(k, "description")) {
		bool rep = s->machine_text & 1;

		s->machine_text |= 1;
		return set_text(k, t->description, sizeof(t->description), l->value, rep, err,
				errlen);
	}
	if (!strcmp(k, "approximations")) {
		bool rep = s->machine_text & 2;

		s->machine_text |= 2;
		return set_text(k, t->approximations, sizeof(t->approximations), l->value, rep, err,
				errlen);
	}
	if (!strcmp(k, "hz"))
		return once(&s->seen_hz, k, err, errlen) ||
		       parse_uint(k, l->value, 1, 10000, &t->hz, err, errlen);
	if (!strcmp(k, "kernel_source")) {
		bool rep = s->machine_text & 4;

		s->machine_text |= 4;
		return set_text(k, t->kernel_source, sizeof(t->kernel_source), l->value, rep, err,
				errlen);
	}
	if (!strcmp(k, "preempt")) {
		int m;

		if (once(&s->seen_preempt, k, err, errlen) ||
		    parse_enum(k, l->value, preempt_names, 4, &m, err, errlen))
			return -1;
		snprintf(t->preempt, sizeof(t->preempt), "%s", preempt_names[m]);
		return 0;
	}
	return unknown_key(l, "name, description, approximations, hz, preempt, kernel_source", err, errlen);
}

/* ---- [topology] ---- */

/* shape = pack:P numa:N l3:L cluster:C core:K pu:T, outermost first, each optional */
static int parse_shape(struct mf_state *s, const char *v, char *err, size_t errlen)
{
	unsigned long long cpus = 1;
	int last = -1;

	for (int i = 0; i < NR_LV; i++)
		s->shape[i] = 1;
	while (*v) {
		size_t len = strcspn(v, " \t"), nlen = strcspn(v, ":");
		unsigned long long count;
		char word[24];
		int lv = -1;

		if (nlen >= len || len >= sizeof(word)) {
			snprintf(err, errlen, "shape: '%.*s' is not TYPE:COUNT",
				 (int)(len > 40 ? 40 : len), v);
			return -1;
		}
		for (int i = 0; i < NR_LV; i++)
			if (strlen(lv_names[i]) == nlen && !strncmp(v, lv_names[i], nlen))
				lv = i;
		if (lv < 0) {
			snprintf(err, errlen,
				 "shape: unknown level '%.*s' (pack, numa, l3, cluster, core, pu)",
				 (int)(nlen > 40 ? 40 : nlen), v);
			return -1;
		}
		if (lv <= last) {
			snprintf(err, errlen,
				 "shape: '%s' after '%s': the levels go outermost first, each once",
				 lv_names[lv], lv_names[last]);
			return -1;
		}
		last = lv;
		memcpy(word, v + nlen + 1, len - nlen - 1);
		word[len - nlen - 1] = '\0';
		if (parse_u64(lv_names[lv], word, 1, NR_CPUS, &count, err, errlen))
			return -1;
		s->shape[lv] = (unsigned int)count;
		v += len;
		while (*v == ' ' || *v == '\t')
			v++;
	}
	if (last < 0) {
		snprintf(err, errlen, "shape: no levels");
		return -1;
	}
	for (int i = 0; i < NR_LV && cpus <= NR_CPUS; i++)
		cpus *= s->shape[i];
	if (cpus > NR_CPUS) {
		snprintf(err, errlen, "shape: more than %d CPUs, the most schedlab simulates",
			 NR_CPUS);
		return -1;
	}
	s->nr_cpus = (unsigned int)cpus;
	return 0;
}

static void alloc_explicit(struct mf_state *s)
{
	s->ids = xcalloc(s->nr_cpus, sizeof(*s->ids));
	s->cpu_seen = xcalloc(s->nr_cpus, 1);
}

/* cpu.N = PACKAGE NODE LLC CLUSTER CORE (machine-wide ids) */
static int cpu_line(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	unsigned long long v[NR_LV];
	unsigned int cpu;
	int n;

	if (!s->seen_nr_cpus) {
		snprintf(err, errlen, "%s before nr_cpus (give nr_cpus = N first)", l->key);
		return -1;
	}
	if (parse_uint("cpu", l->key + 4, 0, s->nr_cpus - 1, &cpu, err, errlen))
		return -1;
	if (s->cpu_seen[cpu]) {
		snprintf(err, errlen, "%s given twice", l->key);
		return -1;
	}
	n = parse_list(l->key, l->value, 0, NR_CPUS - 1, v, NR_LV, err, errlen);
	if (n < 0)
		return -1;
	if (n != NR_LV - 1) {
		snprintf(err, errlen, "%s: %d ids; expected 5: PACKAGE NODE LLC CLUSTER CORE",
			 l->key, n);
		return -1;
	}
	for (int i = 0; i < NR_LV - 1; i++)
		s->ids[cpu][i] = (unsigned int)v[i];
	s->cpu_seen[cpu] = 1;
	return 0;
}

static int topology_line(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	const char *k = l->key;

	if (!strcmp(k, "shape") || !strcmp(k, "nr_cpus")) {
		if (s->seen_shape || s->seen_nr_cpus) {
			snprintf(err, errlen,
				 "%s: the CPUs are already given (shape or nr_cpus, once)", k);
			return -1;
		}
		s->topo_line = l->lineno;
		if (!strcmp(k, "shape")) {
			s->seen_shape = true;
			return parse_shape(s, l->value, err, errlen);
		}
		s->seen_nr_cpus = true;
		if (parse_uint(k, l->value, 1, NR_CPUS, &s->nr_cpus, err, errlen))
			return -1;
		alloc_explicit(s);
		return 0;
	}
	if (!strcmp(k, "numbering"))
		return once(&s->seen_numbering, k, err, errlen) ||
		       parse_enum(k, l->value, numbering_names, NR_NUMB, &s->numbering, err,
				  errlen);
	if (!strncmp(k, "cpu.", 4))
		return cpu_line(s, l, err, errlen);
	return unknown_key(l, "shape, numbering, nr_cpus, cpu.N", err, errlen);
}

/* ---- [numa] ---- */

static int numa_line(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	unsigned long long v[MF_MAX_NODES];
	unsigned int row;
	int n;

	if (!strcmp(l->key, "reclaim_distance")) {
		unsigned int d;

		if (once(&s->seen_reclaim, l->key, err, errlen) ||
		    parse_uint(l->key, l->value, 11, 254, &d, err, errlen))
			return -1;
		s->t->node_reclaim_distance = (int)d;
		return 0;
	}
	if (strncmp(l->key, "distance.", 9))
		return unknown_key(l, "distance.N, reclaim_distance", err, errlen);
	n = parse_list(l->key, l->value, 10, 254, v, MF_MAX_NODES, err, errlen);
	if (n < 0)
		return -1;
	if (!s->dist) {
		s->nr_nodes = (unsigned int)n;
		s->dist = xcalloc((size_t)n * (size_t)n, sizeof(int));
		s->row_seen = xcalloc((size_t)n, 1);
		s->dist_line = l->lineno;
	}
	if (parse_uint("distance row", l->key + 9, 0, s->nr_nodes - 1, &row, err, errlen))
		return -1;
	if ((unsigned int)n != s->nr_nodes) {
		snprintf(err, errlen, "%s has %d distances, the first row %u", l->key, n,
			 s->nr_nodes);
		return -1;
	}
	if (s->row_seen[row]) {
		snprintf(err, errlen, "%s given twice", l->key);
		return -1;
	}
	s->row_seen[row] = 1;
	for (int i = 0; i < n; i++)
		s->dist[(size_t)row * s->nr_nodes + (size_t)i] = (int)v[i];
	return 0;
}

/* ---- [caches] ---- */

static int caches_line(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	int v;

	if (!strcmp(l->key, "l2_span")) {
		if (once_bit(&s->cache_fields, 0, l->key, err, errlen) ||
		    parse_enum(l->key, l->value, cache_span_names, NR_CACHE_SPANS, &v, err, errlen))
			return -1;
		s->t->cache_l2_span = (enum cache_span)v;
		return 0;
	}
	if (!strcmp(l->key, "llc_span")) {
		if (once_bit(&s->cache_fields, 1, l->key, err, errlen) ||
		    parse_enum(l->key, l->value, cache_span_names, NR_CACHE_SPANS, &v, err, errlen))
			return -1;
		s->t->cache_llc_span = (enum cache_span)v;
		return 0;
	}
	return unknown_key(l,
			   "l2_span, llc_span (the sizes are [costs] cache_l1_kb, cache_l2_kb, "
			   "cache_llc_kb)",
			   err, errlen);
}

/* ---- [class.K] ---- */

static int class_opps(struct mf_class *c, const struct mf_line *l, char *err, size_t errlen)
{
	unsigned long long v[TOPO_MAX_OPPS];
	int n;

	if (c->nr_opps) {
		snprintf(err, errlen,
			 "%s: the frequencies are already given (opps_khz or ladder_khz, once)",
			 l->key);
		return -1;
	}
	if (!strcmp(l->key, "opps_khz")) {
		n = parse_list(l->key, l->value, 1, 100000000, v, TOPO_MAX_OPPS, err, errlen);
		if (n < 0)
			return -1;
		for (int i = 1; i < n; i++) {
			if (v[i] <= v[i - 1]) {
				snprintf(err, errlen, "opps_khz: %llu after %llu: not ascending",
					 v[i], v[i - 1]);
				return -1;
			}
		}
	} else {
		unsigned long long lad[3];

		/* MIN STEP MAX: MIN, MIN+STEP, ... below MAX, then MAX (intel_pstate-like) */
		n = parse_list(l->key, l->value, 1, 100000000, lad, 3, err, errlen);
		if (n < 0)
			return -1;
		if (n != 3 || lad[0] > lad[2]) {
			snprintf(err, errlen, "ladder_khz: expected MIN STEP MAX with MIN <= MAX");
			return -1;
		}
		n = 0;
		for (unsigned long long f = lad[0]; f < lad[2]; f += lad[1]) {
			if (n == TOPO_MAX_OPPS - 1) {
				snprintf(err, errlen, "ladder_khz: more than %d frequencies",
					 TOPO_MAX_OPPS);
				return -1;
			}
			v[n++] = f;
		}
		v[n++] = lad[2];
	}
	for (int i = 0; i < n; i++)
		c->opps[i] = (unsigned int)v[i];
	c->nr_opps = (unsigned int)n;
	return 0;
}

/*
 * em_power_uw = P0 P1 ...: the busy power of one CPU at each OPP, in uW
 * (the kernel EM's em_perf_state.power); idle_power_uw.N = ...: its power
 * in idle state N at each OPP. Counted against the OPPs once the whole
 * file is read (fill_energy()).
 */
static int class_power(struct mf_class *c, const struct mf_line *l, char *err, size_t errlen)
{
	unsigned long long v[TOPO_MAX_OPPS];
	unsigned int *dst, *nr;
	bool busy = !strcmp(l->key, "em_power_uw");
	unsigned int k = 0;
	int n;

	if (busy) {
		if (c->power_line) {
			snprintf(err, errlen, "em_power_uw given twice");
			return -1;
		}
		c->power_line = l->lineno;
		dst = c->power;
		nr = &c->nr_power;
	} else {
		if (parse_uint(l->key, l->key + 14, 0, TOPO_MAX_IDLE_STATES - 1, &k, err, errlen))
			return -1;
		if (c->idle_given & (1u << k)) {
			snprintf(err, errlen, "%s given twice", l->key);
			return -1;
		}
		c->idle_given |= 1u << k;
		c->idle_pw_line[k] = l->lineno;
		dst = c->idle_pw[k];
		nr = &c->idle_nr[k];
	}
	/* the kernel refuses a busy power of 0 (em_create_perf_table()); idle may be 0 */
	n = parse_list(l->key, l->value, busy ? 1 : 0, EM_MAX_POWER_UW, v, TOPO_MAX_OPPS, err,
		       errlen);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		dst[i] = (unsigned int)v[i];
	*nr = (unsigned int)n;
	return 0;
}

/*
 * turbo_cores = N1 N2 ...: group i holds up to Ni active cores (ascending);
 * turbo_khz = F1 F2 ...: what group i grants. Checked against each other
 * and the OPPs once the class is complete (check_turbo()).
 */
static int class_turbo(struct mf_class *c, const struct mf_line *l, char *err, size_t errlen)
{
	unsigned long long v[TOPO_MAX_TURBO_GROUPS];
	bool cores = !strcmp(l->key, "turbo_cores");
	unsigned int *nr = cores ? &c->nr_turbo_cores : &c->nr_turbo_khz;
	unsigned int *dst = cores ? c->turbo_cores : c->turbo_khz;
	int n;

	if (*nr) {
		snprintf(err, errlen, "%s given twice", l->key);
		return -1;
	}
	n = parse_list(l->key, l->value, 1, cores ? NR_CPUS : 100000000, v, TOPO_MAX_TURBO_GROUPS,
		       err, errlen);
	if (n < 0)
		return -1;
	if (!n) {
		snprintf(err, errlen, "%s: no values", l->key);
		return -1;
	}
	for (int i = 1; i < n; i++) {
		if (cores ? v[i] <= v[i - 1] : v[i] > v[i - 1]) {
			snprintf(err, errlen, "%s: %llu after %llu: %s", l->key, v[i], v[i - 1],
				 cores ? "the core counts must ascend" :
					 "a group with more active cores cannot grant more");
			return -1;
		}
	}
	for (int i = 0; i < n; i++)
		dst[i] = (unsigned int)v[i];
	*nr = (unsigned int)n;
	c->turbo_line = l->lineno;
	return 0;
}

static int class_line(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	struct mf_class *c = &s->classes[s->sec_index];

	if (!strcmp(l->key, "capacity")) {
		unsigned long long v;

		if (c->capacity) {
			snprintf(err, errlen, "capacity given twice");
			return -1;
		}
		if (parse_u64(l->key, l->value, 1, SCHED_CAPACITY_SCALE, &v, err, errlen))
			return -1;
		c->capacity = (unsigned long)v;
		return 0;
	}
	if (!strcmp(l->key, "speed")) {
		unsigned long long v;

		if (c->speed) {
			snprintf(err, errlen, "speed given twice");
			return -1;
		}
		if (parse_u64(l->key, l->value, 1, SCHED_CAPACITY_SCALE, &v, err, errlen))
			return -1;
		c->speed = (unsigned long)v;
		return 0;
	}
	if (!strcmp(l->key, "opps_khz") || !strcmp(l->key, "ladder_khz"))
		return class_opps(c, l, err, errlen);
	if (!strcmp(l->key, "em_power_uw") || !strncmp(l->key, "idle_power_uw.", 14))
		return class_power(c, l, err, errlen);
	if (!strcmp(l->key, "turbo_cores") || !strcmp(l->key, "turbo_khz"))
		return class_turbo(c, l, err, errlen);
	if (!strcmp(l->key, "cpus")) {
		if (c->cpus) {
			snprintf(err, errlen, "cpus given twice");
			return -1;
		}
		c->cpus = xstrdup(l->value);
		c->cpus_line = l->lineno;
		return 0;
	}
	return unknown_key(l,
			   "capacity, speed, opps_khz, ladder_khz, cpus, em_power_uw, "
			   "idle_power_uw.N, turbo_cores, turbo_khz",
			   err, errlen);
}

/* ---- [idle.K] ---- */

static int idle_line(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	static const char *const keys[] = {
		"name", "exit_latency_ns", "target_residency_ns", "polls", "deep", "flushes_cache"
	};
	struct idle_state *st = &s->t->idle_states[s->sec_index];
	unsigned int *fields = &s->idle_fields[s->sec_index];
	unsigned long long v;
	int b = -1;

	for (int i = 0; i < 6; i++)
		if (!strcmp(l->key, keys[i]))
			b = i;
	if (b < 0)
		return unknown_key(
			l, "name, exit_latency_ns, target_residency_ns, polls, deep, flushes_cache",
			err, errlen);
	if (once_bit(fields, (unsigned int)b, l->key, err, errlen))
		return -1;
	switch (b) {
	case 0:
		return set_text(l->key, st->name, sizeof(st->name), l->value, false, err, errlen);
	case 1:
	case 2:
		/* an hour: far beyond any cpuidle state, and no sum of them can wrap */
		if (parse_u64(l->key, l->value, 0, 3600ULL * NSEC_PER_SEC, &v, err, errlen))
			return -1;
		*(b == 1 ? &st->exit_latency_ns : &st->target_residency_ns) = v;
		return 0;
	default: {
		static const char *const yn[] = { "no", "yes" };
		int p;

		if (parse_enum(l->key, l->value, yn, 2, &p, err, errlen))
			return -1;
		if (b == 3)
			st->polls = p;
		else if (b == 4)
			st->deep = p;
		else
			st->flushes_cache = p;
		return 0;
	}
	}
}

/* ---- [cpufreq] ---- */

static int cpufreq_line(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	static const char *const keys[] = { "driver",		   "span",   "transition_latency_ns",
					    "transition_delay_us", "source", "fast_switch",
					    "governor" };
	struct cpufreq_desc *d = &s->t->cpufreq;
	unsigned long long v;
	int b = -1, e;

	for (int i = 0; i < 7; i++)
		if (!strcmp(l->key, keys[i]))
			b = i;
	if (b < 0)
		return unknown_key(
			l,
			"driver, span, transition_latency_ns, transition_delay_us, source, fast_switch, governor",
			err, errlen);
	if (b == 4) {
		bool rep = s->cpufreq_fields & (1u << 4);

		s->cpufreq_fields |= 1u << 4;
		return set_text(l->key, d->source, sizeof(d->source), l->value, rep, err, errlen);
	}
	if (once_bit(&s->cpufreq_fields, (unsigned int)b, l->key, err, errlen))
		return -1;
	switch (b) {
	case 0:
		return set_text(l->key, d->driver, sizeof(d->driver), l->value, false, err, errlen);
	case 1:
		if (parse_enum(l->key, l->value, span_names, 5, &e, err, errlen))
			return -1;
		d->span = (enum cpufreq_span)e;
		return 0;
	case 2:
		/* a second: slower than any driver's transition */
		if (parse_u64(l->key, l->value, 0, NSEC_PER_SEC, &v, err, errlen))
			return -1;
		d->transition_latency_ns = v;
		return 0;
	case 5: {
		/* fast_switch = yes|no: the driver's policy->fast_switch_possible on this firmware */
		static const char *const yn[] = { "no", "yes" };

		if (parse_enum(l->key, l->value, yn, 2, &e, err, errlen))
			return -1;
		d->fast_switch = e ? CPUFREQ_FAST_SWITCH_YES : CPUFREQ_FAST_SWITCH_NO;
		return 0;
	}
	case 6:
		/* the platform's default governor; whether the driver runs it: fill_governor() */
		e = cpufreq_governor_lookup(l->value, strlen(l->value));
		/* userspace holds what user space wrote: no platform boots with it */
		if (e < 0 || e == CPUFREQ_GOV_USERSPACE) {
			snprintf(
				err, errlen,
				"%s: '%.40s' is not a default governor (performance, powersave, schedutil, ondemand or conservative)",
				l->key, l->value);
			return -1;
		}
		d->governor = (enum cpufreq_governor_id)e;
		s->governor_line = l->lineno;
		return 0;
	default:
		if (parse_u64(l->key, l->value, 0, 1000000, &v, err, errlen))
			return -1;
		d->transition_delay_us = (unsigned int)v;
		return 0;
	}
}

/* ---- sections ---- */

/* [class.K] / [idle.K]: K below @max; a second header for the same K is an error. */
static int indexed_section(const char *sec, const char *prefix, int max, int *index, char *err,
			   size_t errlen)
{
	unsigned int k;

	if (parse_uint(prefix, sec + strlen(prefix), 0, (unsigned long long)max - 1, &k, err,
		       errlen))
		return -1;
	*index = (int)k;
	return 0;
}

static int section_header(struct mf_state *s, const struct mf_line *l, char *err, size_t errlen)
{
	const char *sec = l->section;

	s->sec_line = l->lineno;
	if (!strncmp(sec, "class.", 6)) {
		if (indexed_section(sec, "class.", MF_MAX_CLASSES, &s->sec_index, err, errlen))
			return -1;
		if (s->classes[s->sec_index].line)
			goto twice;
		s->classes[s->sec_index].line = l->lineno;
		return 0;
	}
	if (!strncmp(sec, "idle.", 5)) {
		if (indexed_section(sec, "idle.", TOPO_MAX_IDLE_STATES, &s->sec_index, err, errlen))
			return -1;
		if (s->idle_given[s->sec_index])
			goto twice;
		s->idle_given[s->sec_index] = true;
		s->idle_line[s->sec_index] = l->lineno;
		return 0;
	}
	if (!strcmp(sec, "asym_packing")) {
		if (s->asym.line)
			goto twice;
		s->asym.line = l->lineno;
		return 0;
	}
	if (!strcmp(sec, "energy")) {
		s->energy_line = l->lineno;
		return 0;
	}
	if (!strcmp(sec, "guest")) {
		if (s->guest.line)
			goto twice;
		s->guest.line = l->lineno;
		return 0;
	}
	if (!strcmp(sec, "machine") || !strcmp(sec, "topology") || !strcmp(sec, "numa") ||
	    !strcmp(sec, "caches") || !strcmp(sec, "cpufreq") || !strcmp(sec, "costs"))
		return 0;
	snprintf(
		err, errlen,
		"unknown section [%.40s] (machine, topology, numa, caches, class.K, idle.K, cpufreq, energy, asym_packing, guest, costs)",
		sec);
	return -1;
twice:
	snprintf(err, errlen, "[%s] given twice", sec);
	return -1;
}

static int machine_file_line(void *arg, const struct mf_line *l, char *err, size_t errlen)
{
	struct mf_state *s = arg;
	const char *sec = l->section;

	if (!l->key)
		return section_header(s, l, err, errlen);
	if (!strcmp(sec, "machine"))
		return machine_line(s, l, err, errlen);
	if (!strcmp(sec, "topology"))
		return topology_line(s, l, err, errlen);
	if (!strcmp(sec, "numa"))
		return numa_line(s, l, err, errlen);
	if (!strcmp(sec, "caches"))
		return caches_line(s, l, err, errlen);
	if (!strcmp(sec, "cpufreq"))
		return cpufreq_line(s, l, err, errlen);
	if (!strcmp(sec, "costs"))
		return mf_cost_line(&s->t->cost, l->key, l->value, err, errlen);
	if (!strcmp(sec, "asym_packing"))
		return mf_asym_line(&s->asym, &s->t->asym_packing, l, err, errlen);
	if (!strcmp(sec, "guest"))
		return mf_guest_line(&s->guest, &s->t->guest, l, err, errlen);
	if (!strcmp(sec, "energy")) {
		bool rep = s->energy_source_seen;

		if (strcmp(l->key, "source"))
			return unknown_key(l, "source", err, errlen);
		s->energy_source_seen = true;
		return set_text(l->key, s->t->em_source, sizeof(s->t->em_source), l->value, rep,
				err, errlen);
	}
	if (!strncmp(sec, "class.", 6))
		return class_line(s, l, err, errlen);
	return idle_line(s, l, err, errlen);
}

/* ---- the whole file ---- */

/* The CPU number Linux gives thread @th of core @k of a cluster whose first core is @g0. */
static unsigned int cpu_number(int numbering, unsigned int threads, unsigned int nr_cores,
			       unsigned int g0, unsigned int ncores, unsigned int k,
			       unsigned int th)
{
	switch (numbering) {
	case NUMB_X86:
		return th * nr_cores + g0 + k;
	case NUMB_FUSED:
		return g0 * threads + th * ncores + k;
	default:
		return (g0 + k) * threads + th;
	}
}

void mf_regular_ids(const unsigned int n[MF_NR_LEVELS], int numbering, struct cpu_topo *cpus)
{
	unsigned int nr_clusters = n[LV_PACK] * n[LV_NUMA] * n[LV_LLC] * n[LV_CLUSTER];
	unsigned int nr_cores = nr_clusters * n[LV_CORE];

	for (unsigned int cl = 0; cl < nr_clusters; cl++) {
		unsigned int llc = cl / n[LV_CLUSTER], node = llc / n[LV_LLC];
		unsigned int g0 = cl * n[LV_CORE];

		for (unsigned int k = 0; k < n[LV_CORE]; k++) {
			for (unsigned int th = 0; th < n[LV_PU]; th++) {
				struct cpu_topo *c = &cpus[cpu_number(numbering, n[LV_PU], nr_cores,
								      g0, n[LV_CORE], k, th)];

				c->core = g0 + k;
				c->cluster = cl;
				c->llc = llc;
				c->node = node;
				c->package = node / n[LV_NUMA];
			}
		}
	}
}

static int fill_cpus(struct mf_state *s, char *err, size_t errlen)
{
	struct topology *t = s->t;

	if (!s->seen_shape && !s->seen_nr_cpus) {
		snprintf(err, errlen,
			 "%s: no CPUs: [topology] needs shape = ... or nr_cpus and cpu.N", s->file);
		return -1;
	}
	if (s->seen_numbering && !s->seen_shape) {
		snprintf(err, errlen,
			 "%s:%u: numbering goes with shape; cpu.N lines are numbered already",
			 s->file, s->topo_line);
		return -1;
	}
	if (topology_alloc_cpus(t, s->nr_cpus, err, errlen))
		return -1;
	if (s->seen_shape) {
		mf_regular_ids(s->shape, s->numbering, t->cpus);
		return 0;
	}
	for (unsigned int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct cpu_topo *c = &t->cpus[cpu];

		if (!s->cpu_seen[cpu]) {
			snprintf(err, errlen, "%s:%u: nr_cpus is %u but cpu.%u is not given",
				 s->file, s->topo_line, s->nr_cpus, cpu);
			return -1;
		}
		c->package = s->ids[cpu][0];
		c->node = s->ids[cpu][1];
		c->llc = s->ids[cpu][2];
		c->cluster = s->ids[cpu][3];
		c->core = s->ids[cpu][4];
	}
	return 0;
}

/*
 * A class's turbo table: both lists or neither, as many core counts as
 * frequencies, each frequency one of the class's OPPs (the governor's
 * request and the granted limit are both OPPs, and the residency counts
 * by OPP).
 */
static int check_turbo(const struct mf_state *s, const struct mf_class *c, unsigned int k,
		       char *err, size_t errlen)
{
	if (c->nr_turbo_cores != c->nr_turbo_khz) {
		snprintf(err, errlen,
			 "%s:%u: [class.%u] turbo_cores has %u values and turbo_khz %u: one "
			 "frequency per group of active cores",
			 s->file, c->turbo_line, k, c->nr_turbo_cores, c->nr_turbo_khz);
		return -1;
	}
	for (unsigned int i = 0; i < c->nr_turbo_khz; i++) {
		bool found = false;

		for (unsigned int j = 0; j < c->nr_opps; j++)
			found |= c->opps[j] == c->turbo_khz[i];
		if (!found) {
			snprintf(err, errlen,
				 "%s:%u: [class.%u] turbo_khz: %u is not one of the class's "
				 "frequencies (opps_khz or ladder_khz)",
				 s->file, c->turbo_line, k, c->turbo_khz[i]);
			return -1;
		}
	}
	return 0;
}

/* Give each CPU its class: the one whose cpus list holds it, or the only class. */
static int fill_classes(struct mf_state *s, char *err, size_t errlen)
{
	struct topology *t = s->t;
	unsigned int nr = 0;
	unsigned char *owner;
	struct cpumask *m;
	int ret = -1;

	while (nr < MF_MAX_CLASSES && s->classes[nr].line)
		nr++;
	for (unsigned int k = nr; k < MF_MAX_CLASSES; k++) {
		if (s->classes[k].line) {
			snprintf(err, errlen,
				 "%s:%u: [class.%u] without [class.%u]: classes go 0, 1, ...",
				 s->file, s->classes[k].line, k, nr);
			return -1;
		}
	}
	if (!nr) {
		snprintf(err, errlen,
			 "%s: no [class.0]: every CPU needs a capacity and frequencies", s->file);
		return -1;
	}
	for (unsigned int k = 0; k < nr; k++) {
		const struct mf_class *c = &s->classes[k];

		if (!c->capacity || !c->nr_opps) {
			snprintf(err, errlen,
				 "%s:%u: [class.%u] needs capacity and opps_khz (or ladder_khz)",
				 s->file, c->line, k);
			return -1;
		}
		if (nr > 1 && !c->cpus) {
			snprintf(
				err, errlen,
				"%s:%u: [class.%u] needs cpus = LIST when there are several classes",
				s->file, c->line, k);
			return -1;
		}
		if (check_turbo(s, c, k, err, errlen))
			return -1;
	}

	/* the masks are sized by the machine being read, as topology_finish() will size them */
	cpumask_setup(t->nr_cpus);
	m = alloc_cpumask();
	owner = xcalloc(t->nr_cpus, 1);
	for (unsigned int k = 0; k < nr; k++) {
		const struct mf_class *c = &s->classes[k];
		char msg[256];
		unsigned int cpu;

		if (!c->cpus) {
			cpumask_setall(m);
		} else if (cpulist_parse(c->cpus, m, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s:%u: cpus: %s", s->file, c->cpus_line, msg);
			goto out;
		}
		for_each_cpu(cpu, m) {
			struct cpu_topo *ct = &t->cpus[cpu];

			if (owner[cpu]) {
				snprintf(err, errlen,
					 "%s:%u: CPU %u is in [class.%u] and [class.%u]", s->file,
					 c->cpus_line, cpu, owner[cpu] - 1, k);
				goto out;
			}
			owner[cpu] = (unsigned char)(k + 1);
			ct->capacity = c->capacity;
			ct->speed = c->speed;
			ct->nr_opps = c->nr_opps;
			memcpy(ct->opp_khz, c->opps, c->nr_opps * sizeof(c->opps[0]));
			ct->max_freq_khz = c->opps[c->nr_opps - 1];
			ct->em = c->power_line ? k + 1 : 0;
			ct->turbo.nr = c->nr_turbo_cores;
			memcpy(ct->turbo.upto, c->turbo_cores, sizeof(ct->turbo.upto));
			memcpy(ct->turbo.khz, c->turbo_khz, sizeof(ct->turbo.khz));
		}
	}
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (!owner[cpu]) {
			snprintf(err, errlen, "%s: CPU %u is in no [class.K] cpus list", s->file,
				 cpu);
			goto out;
		}
	}
	ret = 0;
out:
	free(owner);
	free_cpumask(m);
	return ret;
}

static int fill_idle(struct mf_state *s, char *err, size_t errlen)
{
	unsigned int nr = 0;

	while (nr < TOPO_MAX_IDLE_STATES && s->idle_given[nr])
		nr++;
	for (unsigned int k = nr; k < TOPO_MAX_IDLE_STATES; k++) {
		if (s->idle_given[k]) {
			snprintf(err, errlen,
				 "%s:%u: [idle.%u] without [idle.%u]: states go 0, 1, ...", s->file,
				 s->idle_line[k], k, nr);
			return -1;
		}
	}
	if (!nr) {
		snprintf(err, errlen, "%s: no [idle.0]: a CPU needs at least one idle state",
			 s->file);
		return -1;
	}
	for (unsigned int k = 0; k < nr; k++) {
		/* deep (bit 4) is optional */
		if ((s->idle_fields[k] & 0xf) != 0xf) {
			snprintf(
				err, errlen,
				"%s:%u: [idle.%u] needs name, exit_latency_ns, target_residency_ns and polls",
				s->file, s->idle_line[k], k);
			return -1;
		}
	}
	s->t->nr_idle_states = nr;
	return 0;
}

/*
 * The energy model: every class has one or none has; each list has one
 * figure per OPP of its class, idle figures only for the machine's idle
 * states. Each class with a model becomes one topology.em.
 */
static int fill_energy(struct mf_state *s, char *err, size_t errlen)
{
	struct topology *t = s->t;
	unsigned int nr = 0, with = 0;

	while (nr < MF_MAX_CLASSES && s->classes[nr].line)
		nr++;
	for (unsigned int k = 0; k < nr; k++) {
		const struct mf_class *c = &s->classes[k];

		if (c->power_line)
			with++;
		else if (c->idle_given) {
			snprintf(err, errlen, "%s:%u: [class.%u] has idle power but no em_power_uw",
				 s->file, c->line, k);
			return -1;
		}
	}
	if (with && with != nr) {
		for (unsigned int k = 0; k < nr; k++) {
			if (!s->classes[k].power_line) {
				snprintf(
					err, errlen,
					"%s:%u: [class.%u] has no em_power_uw: an energy model covers every class or none",
					s->file, s->classes[k].line, k);
				return -1;
			}
		}
	}
	if (!with) {
		if (s->energy_line) {
			snprintf(err, errlen, "%s:%u: [energy] without em_power_uw in the classes",
				 s->file, s->energy_line);
			return -1;
		}
		return 0;
	}
	t->em = xcalloc(nr, sizeof(*t->em));
	t->nr_em = nr;
	for (unsigned int k = 0; k < nr; k++) {
		const struct mf_class *c = &s->classes[k];
		struct topo_em *em = &t->em[k];

		if (c->nr_power != c->nr_opps) {
			snprintf(err, errlen, "%s:%u: em_power_uw: %u figures for %u OPPs", s->file,
				 c->power_line, c->nr_power, c->nr_opps);
			return -1;
		}
		em->nr_perf_states = c->nr_opps;
		memcpy(em->power_uw, c->power, sizeof(em->power_uw));
		for (unsigned int i = 0; i < TOPO_MAX_IDLE_STATES; i++) {
			if (!(c->idle_given & (1u << i)))
				continue;
			if (i >= t->nr_idle_states) {
				snprintf(err, errlen,
					 "%s:%u: idle_power_uw.%u: there is no [idle.%u]", s->file,
					 c->idle_pw_line[i], i, i);
				return -1;
			}
			if (c->idle_nr[i] != c->nr_opps) {
				snprintf(err, errlen,
					 "%s:%u: idle_power_uw.%u: %u figures for %u OPPs", s->file,
					 c->idle_pw_line[i], i, c->idle_nr[i], c->nr_opps);
				return -1;
			}
			memcpy(em->idle_uw[i], c->idle_pw[i], sizeof(em->idle_uw[i]));
		}
		em->idle_given = c->idle_given;
	}
	return 0;
}

static int fill_rest(struct mf_state *s, char *err, size_t errlen)
{
	struct topology *t = s->t;

	if (!s->seen_name) {
		snprintf(err, errlen, "%s: [machine] has no name", s->file);
		return -1;
	}
	if (s->dist) {
		for (unsigned int r = 0; r < s->nr_nodes; r++) {
			if (!s->row_seen[r]) {
				snprintf(err, errlen, "%s:%u: distance.%u is missing (%u nodes)",
					 s->file, s->dist_line, r, s->nr_nodes);
				return -1;
			}
		}
		t->nr_nodes = s->nr_nodes;
		t->node_distance = s->dist;
		s->dist = NULL;
	}
	return 0;
}

/*
 * A default governor other than performance needs a driver that changes
 * the clock: a machine without cpufreq (span = none) runs only its one
 * frequency, as --cpufreq is refused there (cpufreq_check()).
 */
static int fill_governor(struct mf_state *s, char *err, size_t errlen)
{
	const struct cpufreq_desc *d = &s->t->cpufreq;

	if (d->governor != CPUFREQ_GOV_PERFORMANCE && d->span == CPUFREQ_SPAN_NONE) {
		snprintf(
			err, errlen,
			"%s:%u: governor: %s, but the machine has no cpufreq driver (span = none): only performance (its one frequency) applies",
			s->file, s->governor_line, cpufreq_governor_names[d->governor]);
		return -1;
	}
	return 0;
}

static void state_free(struct mf_state *s)
{
	free(s->ids);
	free(s->cpu_seen);
	free(s->dist);
	free(s->row_seen);
	for (int k = 0; k < MF_MAX_CLASSES; k++)
		free(s->classes[k].cpus);
	mf_asym_free(&s->asym);
}

struct topology *topology_parse_machine(const char *text, const char *file, char *err,
					size_t errlen)
{
	struct mf_state *s = xcalloc(1, sizeof(*s));
	struct topology *t = xcalloc(1, sizeof(*t));
	char msg[512];

	s->t = t;
	s->file = file;
	t->hz = 250;
	cost_model_default(&t->cost);
	if (mf_lex(text, file, machine_file_line, s, err, errlen) || fill_cpus(s, err, errlen) ||
	    fill_classes(s, err, errlen) ||
	    /*
	     * a guest's idle states are the guest's, whatever [idle.K] says;
	     * its own, if it gives them, are kept for --guest none
	     */
	    ((!s->guest.line || s->idle_given[0]) && fill_idle(s, err, errlen)) ||
	    (s->guest.line && mf_guest_finish(&s->guest, t, file, err, errlen)) ||
	    fill_energy(s, err, errlen) || fill_rest(s, err, errlen) ||
	    fill_governor(s, err, errlen) || mf_asym_finish(&s->asym, t, file, err, errlen))
		goto fail;
	if (topology_finish(t, msg, sizeof(msg))) {
		snprintf(err, errlen, "%s: %s", file, msg);
		goto fail;
	}
	state_free(s);
	free(s);
	return t;
fail:
	state_free(s);
	free(s);
	topology_free(t);
	return NULL;
}

bool machine_name_is_path(const char *name)
{
	size_t n = strlen(name), ext = strlen(".machine");

	return strchr(name, '/') || (n > ext && !strcmp(name + n - ext, ".machine"));
}

struct topology *topology_load_machine_file(const char *path, char *err, size_t errlen)
{
	char *text = mf_read_file(path, err, errlen);
	struct topology *t;
	size_t len;

	if (!text) {
		len = strlen(err);
		/* "-m vax-11/780" meant as a preset name: say why it was taken for a file */
		if (access(path, F_OK) && len < errlen)
			snprintf(err + len, errlen - len,
				 " (an -m value with a '/' or ending in .machine is a machine file)");
		return NULL;
	}
	t = topology_parse_machine(text, path, err, errlen);
	free(text);
	return t;
}
