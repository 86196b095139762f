// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a machine from a sysfs tree: this host's /sys, or a copy of
 * /sys/devices/system/{cpu,node} taken on another machine.
 *
 * What the kernel would build its domains from is reconstructed from:
 *   cpuN/topology/{core_cpus_list|thread_siblings_list}     SMT siblings
 *   cpuN/topology/cluster_cpus_list                           cluster
 *   cpuN/topology/{package_cpus_list|core_siblings_list|physical_package_id}
 *   cpuN/cache/indexK/{level,type,shared_cpu_list}            LLC: the highest
 *                                                             unified level
 *   cpu0/cache/indexK/size (of the first online CPU)          the footprint model's
 *                                                             cache_l2_kb, cache_llc_kb,
 *                                                             cache_l1_kb (its L1d)
 *   cpu0/cache/indexK/shared_cpu_list of its L2               cache_l2_span
 *   cpuN/cpu_capacity, cpuN/cpufreq/cpuinfo_*, cpuN/cpuidle/stateK/{name,desc,latency,residency}
 *   cpu0/cpufreq/{scaling_driver,related_cpus,cpuinfo_transition_latency}
 *   node/online, node/nodeN/{cpulist,distance}
 * The LLC is then narrowed to the package and node and, like the arm64
 * cpu_coregroup_mask(), widened to the cluster when it is smaller (a machine
 * without a CPU-side shared cache, such as Ampere Altra).
 *
 * Anything missing (containers often hide parts of sysfs) falls back to one
 * package, one LLC and one node, and the fallback is recorded in
 * t->approximations. CPUs are renumbered densely if some are offline.
 */
#include "topo/topology.h"

#include "sim/alloc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NONE (-1)
/*
 * The kernel writes capacities of at most SCHED_CAPACITY_SCALE; other trees
 * are rescaled. This bound keeps cap x SCHED_CAPACITY_SCALE in 64 bits.
 */
#define SYSFS_MAX_CAPACITY (1UL << 32)
#define SYSFS_MAX_CAPACITY_STR "4294967296"

struct reader {
	const char *root;
	/* the devices/system directory: ROOT/devices/system, or -m sysfs:DIR's copy of it */
	char sys[200];
	/*
	 * -m sysfs:DIR: a tree someone copied or wrote is held to what a kernel
	 * writes: a malformed list, lists that disagree, distances that are not
	 * a SLIT are errors naming the file. The host's /sys is read leniently
	 * (flattened, with the reason noted) so that `-m host` always runs.
	 */
	bool strict;
	struct topology *t;
	char err[512];
	/* raw (sysfs) CPU numbers of the online CPUs, ascending */
	unsigned int *raw;
	unsigned int nr;
	int *dense; /* [NR_CPUS]: raw CPU -> dense index, or NONE */
	struct cpumask *online; /* raw numbering */
	/* the first file that is there but does not hold what it should */
	char bad[640];
};

static void note(struct topology *t, const char *fmt, ...)
{
	size_t len = strlen(t->approximations);
	va_list ap;

	if (len + 3 >= sizeof(t->approximations))
		return;
	if (len) {
		strcat(t->approximations, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(t->approximations + len, sizeof(t->approximations) - len, fmt, ap);
	va_end(ap);
}

/* Reads ROOT/devices/system/<path> into buf (trimmed); 0, or -1 if absent. */
static int read_sys(const struct reader *r, char *buf, size_t len, const char *fmt, ...)
{
	char rel[256], path[512];
	va_list ap;
	FILE *f;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", r->sys, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

/* Records the first malformed file; the load fails with it once read_tree() is done. */
static void bad_file(struct reader *r, const char *rel, const char *val, const char *want)
{
	if (!r->bad[0])
		snprintf(r->bad, sizeof(r->bad), "%s/%s: '%.40s' is not %s", r->sys, rel, val,
			 want);
}

/*
 * A file holding one decimal number, as the kernel writes it (%u, %lu):
 * digits only. 0 with *v set; -1 if the file is absent; -1 and the file
 * recorded as bad (a sign, other characters, out of range) otherwise, so
 * that "-5" is an error and not 2^64 - 5.
 */
static int read_ulong(struct reader *r, unsigned long *v, const char *fmt, ...)
{
	char rel[256], buf[64], *end;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (read_sys(r, buf, sizeof(buf), "%s", rel))
		return -1;
	errno = 0;
	*v = strtoul(buf, &end, 10);
	if (buf[0] < '0' || buf[0] > '9' || *end || errno) {
		bad_file(r, rel, buf, "a non-negative decimal integer");
		return -1;
	}
	return 0;
}

/*
 * Reads a CPU list file into @m (raw numbering) restricted to online CPUs.
 * 0 on success; -1 if the file is absent or malformed.
 */
static int read_list(struct reader *r, struct cpumask *m, const char *fmt, ...)
{
	char rel[256], buf[8192], err[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (read_sys(r, buf, sizeof(buf), "%s", rel))
		return -1;
	if (cpulist_parse(buf, m, err, sizeof(err))) {
		/* a kernel writes valid lists: anything else is no list to fall back from */
		bad_file(r, rel, buf, "a CPU list such as 0-3,8-11");
		return -1;
	}
	cpumask_and(m, m, r->online);
	return 0;
}

static int find_online(struct reader *r)
{
	char buf[8192], err[160];

	if (read_sys(r, buf, sizeof(buf), "cpu/online") &&
	    read_sys(r, buf, sizeof(buf), "cpu/possible")) {
		/* no list: look for cpuN directories */
		char path[512];
		DIR *d;
		struct dirent *de;

		snprintf(path, sizeof(path), "%s/cpu", r->sys);
		d = opendir(path);
		if (d) {
			while ((de = readdir(d))) {
				char *end;
				unsigned long n;

				if (strncmp(de->d_name, "cpu", 3) || de->d_name[3] < '0' ||
				    de->d_name[3] > '9')
					continue;
				n = strtoul(de->d_name + 3, &end, 10);
				if (!*end && n < NR_CPUS)
					cpumask_set_cpu((unsigned int)n, r->online);
			}
			closedir(d);
		}
		if (cpumask_empty(r->online) && !strcmp(r->root, "/sys")) {
			long n = sysconf(_SC_NPROCESSORS_ONLN);

			if (n < 1)
				n = 1;
			if (n > NR_CPUS)
				n = NR_CPUS;
			for (long i = 0; i < n; i++)
				cpumask_set_cpu((unsigned int)i, r->online);
			note(r->t, "no CPU list in sysfs: %ld CPUs from sysconf()", n);
		}
		if (cpumask_empty(r->online)) {
			snprintf(r->err, sizeof(r->err), "%s/cpu: no CPUs found", r->sys);
			return -1;
		}
	} else if (cpulist_parse(buf, r->online, err, sizeof(err))) {
		snprintf(r->err, sizeof(r->err), "%s/cpu/online: %s", r->sys, err);
		return -1;
	} else if (cpumask_empty(r->online)) {
		/* an empty file (or a directory): nothing below works on zero CPUs */
		snprintf(r->err, sizeof(r->err), "%s/cpu/online: no CPU listed", r->sys);
		return -1;
	}
	r->nr = cpumask_weight(r->online);
	r->raw = xcalloc(r->nr, sizeof(*r->raw));
	r->dense = xmalloc(NR_CPUS * sizeof(*r->dense));
	for (unsigned int i = 0; i < NR_CPUS; i++)
		r->dense[i] = NONE;
	{
		unsigned int cpu, i = 0;

		for_each_cpu(cpu, r->online) {
			r->raw[i] = cpu;
			r->dense[cpu] = (int)i++;
		}
	}
	if (r->raw[r->nr - 1] != r->nr - 1)
		note(r->t, "online CPUs are not 0-%u: renumbered densely", r->nr - 1);
	return 0;
}

/* Level representatives, in raw numbering: the lowest online CPU of each CPU's group. */
struct reps {
	unsigned int *core, *cluster, *llc, *package, *node;
};

static unsigned int first_or_self(const struct cpumask *m, unsigned int self)
{
	unsigned int f = cpumask_first(m);

	return f < nr_cpu_ids && cpumask_test_cpu(self, m) ? f : self;
}

/* The highest-level unified cache that cpu @raw reports; -1 if none. */
static int llc_index(struct reader *r, unsigned int raw)
{
	int best = -1;
	unsigned long best_level = 0;

	for (int k = 0; k < 16; k++) {
		unsigned long level;
		char type[32];

		if (read_ulong(r, &level, "cpu/cpu%u/cache/index%d/level", raw, k))
			continue;
		if (read_sys(r, type, sizeof(type), "cpu/cpu%u/cache/index%d/type", raw, k))
			continue;
		if (strcmp(type, "Unified"))
			continue;
		if (level > best_level) {
			best_level = level;
			best = k;
		}
	}
	return best;
}

/* cache index @k of CPU @raw's size ("1024K", as cacheinfo writes it) into cost parameter @name */
static void read_cache_kb(struct reader *r, unsigned int raw, int k, const char *name)
{
	char rel[96], buf[64], assign[96], err[160];
	size_t n;

	snprintf(rel, sizeof(rel), "cpu/cpu%u/cache/index%d/size", raw, k);
	if (read_sys(r, buf, sizeof(buf), "%s", rel))
		return;
	n = strlen(buf);
	/* the parameter's own check gives the range: digits, then K */
	snprintf(assign, sizeof(assign), "%s=%.*s", name, n ? (int)n - 1 : 0, buf);
	if (!n || buf[n - 1] != 'K' || buf[0] < '1' || buf[0] > '9' ||
	    cost_model_set(&r->t->cost, assign, err, sizeof(err)))
		bad_file(r, rel, buf, "a cache size in KiB such as 1024K (1K..1048576K)");
}

/* CPU @raw's cache of @level and @kind ("Unified", "Data")'s index; -1 if none */
static int cache_index(struct reader *r, unsigned int raw, unsigned long want, const char *kind)
{
	for (int k = 0; k < 16; k++) {
		unsigned long level;
		char type[32];

		if (!read_ulong(r, &level, "cpu/cpu%u/cache/index%d/level", raw, k) &&
		    level == want &&
		    !read_sys(r, type, sizeof(type), "cpu/cpu%u/cache/index%d/type", raw, k) &&
		    !strcmp(type, kind))
			return k;
	}
	return -1;
}

/* CPU @raw's level-2 unified cache's index; -1 if none */
static int l2_index(struct reader *r, unsigned int raw)
{
	return cache_index(r, raw, 2, "Unified");
}

/*
 * The footprint model's capacities (docs/cost-model.md, "Cache
 * footprints") from CPU @raw's caches: the private cache is its level-2
 * unified cache, the shared one its LLC (llc_index()). The first online
 * CPU's stand for all (a hybrid's other cores have others); a size that is
 * absent keeps the default's, but the L1's (below).
 */
static void read_cache_sizes(struct reader *r, unsigned int raw)
{
	int llc = llc_index(r, raw), l2 = l2_index(r, raw), l1 = cache_index(r, raw, 1, "Data");

	if (l2 >= 0)
		read_cache_kb(r, raw, l2, "cache_l2_kb");
	if (llc >= 0)
		read_cache_kb(r, raw, llc, "cache_llc_kb");
	/*
	 * The L1 in front of it, when the private cache is a level-2 one; a
	 * machine that lists its L2 and no L1d has none in the model (what
	 * --export-sysfs writes for cache_l1_kb = 0), not the default's
	 */
	if (l2 >= 0 && l1 >= 0)
		read_cache_kb(r, raw, l1, "cache_l1_kb");
	else if (l2 >= 0)
		r->t->cost.cache_l1_kb = 0;
}

/* logical CPU @i's id at the level a cache span names */
static unsigned int span_level_id(const struct topology *t, enum cache_span span, unsigned int i)
{
	const struct cpu_topo *c = &t->cpus[i];

	switch (span) {
	case CACHE_SPAN_CLUSTER:
		return c->cluster;
	case CACHE_SPAN_LLC:
		return c->llc;
	case CACHE_SPAN_PACKAGE:
		return c->package;
	default:
		return c->core;
	}
}

/*
 * Which CPUs share the footprint model's private cache (cache_l2_span),
 * from the first online CPU's level-2 shared_cpu_list: the level it is
 * exactly, the core first (the default), then the LLC, the cluster and
 * the package (the LLC before the cluster, which can be the same CPUs);
 * a list that is no level is taken as the narrowest that holds it, and
 * noted. The first CPU's stands for all, as its sizes do. The shared
 * cache is the scheduler's LLC, read above; a cache wider than what Linux
 * reports (a system-level cache, llc_span = package) is not in sysfs.
 */
static void read_l2_span(struct reader *r)
{
	/* narrowest first, as levels nest: core, cluster, LLC, package */
	static const enum cache_span nest[] = { CACHE_SPAN_DEFAULT, CACHE_SPAN_CLUSTER,
						CACHE_SPAN_LLC, CACHE_SPAN_PACKAGE };
	static const char *const names[] = { "core", "cluster", "LLC", "package" };
	/* exact matches, in nest[]'s indices: core, LLC, cluster, package */
	static const int exact_order[] = { 0, 2, 1, 3 };
	struct topology *t = r->t;
	bool holds[4], exact[4];
	struct cpumask *m;
	int k = l2_index(r, r->raw[0]);

	if (k < 0)
		return;
	m = alloc_cpumask();
	if (read_list(r, m, "cpu/cpu%u/cache/index%d/shared_cpu_list", r->raw[0], k))
		goto out;
	for (int o = 0; o < 4; o++) {
		holds[o] = exact[o] = true;
		for (unsigned int i = 0; i < r->nr; i++) {
			bool in = span_level_id(t, nest[o], i) == span_level_id(t, nest[o], 0);
			bool shares = cpumask_test_cpu(r->raw[i], m);

			holds[o] &= in || !shares;
			exact[o] &= in == shares;
		}
	}
	for (int e = 0; e < 4; e++) {
		if (exact[exact_order[e]]) {
			t->cache_l2_span = nest[exact_order[e]];
			goto out;
		}
	}
	for (int o = 0; o < 4; o++) {
		if (holds[o]) {
			t->cache_l2_span = nest[o];
			note(t,
			     "the L2's shared_cpu_list is no level of the topology: taken as the %s",
			     names[o]);
			break;
		}
	}
out:
	free_cpumask(m);
}

/* A SLIT as the kernel takes it from ACPI: 10 on the diagonal, above 10 elsewhere, symmetric. */
static void check_slit(struct reader *r, const unsigned int *node_raw, unsigned int nr)
{
	const int *d = r->t->node_distance;

	if (r->bad[0])
		return;
	for (unsigned int a = 0; a < nr; a++) {
		for (unsigned int b = 0; b < nr; b++) {
			int v = d[a * nr + b], w = d[b * nr + a];

			if ((a == b && v != 10) || (a != b && v <= 10)) {
				snprintf(
					r->bad, sizeof(r->bad),
					"%s/node/node%u/distance: distance %d to node %u (must be %s)",
					r->sys, node_raw[a], v, node_raw[b],
					a == b ? "10 to itself" : "above 10 to another node");
				return;
			}
			if (v != w) {
				snprintf(
					r->bad, sizeof(r->bad),
					"%s/node/node%u/distance: distance %d to node %u, but node%u/distance has %d back: distances are not symmetric",
					r->sys, node_raw[a], v, node_raw[b], node_raw[b], w);
				return;
			}
		}
	}
}

static int read_nodes(struct reader *r, unsigned int *node_of, unsigned int *nr_nodes_out)
{
	struct topology *t = r->t;
	struct cpumask *nodes_online = alloc_cpumask(), *m = alloc_cpumask();
	char buf[4096], err[128];
	unsigned int node, nr_online_nodes, nr_nodes = 0;
	int node_dense[1024];
	unsigned int node_raw[1024];
	bool missing = false;

	for (unsigned int i = 0; i < r->nr; i++)
		node_of[i] = NONE;
	if (read_sys(r, buf, sizeof(buf), "node/online") ||
	    cpulist_parse(buf, nodes_online, err, sizeof(err))) {
		if (!read_sys(r, buf, sizeof(buf), "node/online"))
			bad_file(r, "node/online", buf, "a node list such as 0-1");
		note(t, "no NUMA information: one node");
		goto one_node;
	}
	nr_online_nodes = cpumask_weight(nodes_online);
	for (unsigned int i = 0; i < 1024; i++)
		node_dense[i] = NONE;
	for_each_cpu(node, nodes_online) {
		if (node >= 1024)
			break;
		if (read_list(r, m, "node/node%u/cpulist", node)) {
			missing = true;
			continue;
		}
		if (cpumask_empty(m))
			continue; /* memory-only node */
		node_dense[node] = (int)nr_nodes;
		node_raw[nr_nodes++] = node;
		{
			unsigned int cpu;

			for_each_cpu(cpu, m) {
				unsigned int *n = &node_of[r->dense[cpu]];

				if (*n == (unsigned int)NONE)
					*n = nr_nodes - 1;
				else if (r->strict && !r->bad[0])
					snprintf(
						r->bad, sizeof(r->bad),
						"%s/node/node%u/cpulist: CPU %u is in node%u's cpulist too: a CPU in two nodes",
						r->sys, node, cpu, node_raw[*n]);
			}
		}
	}
	if (!nr_nodes) {
		note(t, "no node lists CPUs: one node");
		goto one_node;
	}
	if (missing)
		note(t, "some node cpulist files are missing");
	missing = false;
	for (unsigned int i = 0; i < r->nr; i++) {
		if (node_of[i] == (unsigned int)NONE) {
			node_of[i] = 0;
			missing = true;
		}
	}
	if (missing)
		note(t, "CPUs in no node's cpulist were put in the first node");

	/* distances between the nodes that have CPUs */
	t->node_distance = calloc((size_t)nr_nodes * nr_nodes, sizeof(int));
	if (!t->node_distance)
		goto one_node;
	t->nr_nodes = nr_nodes;
	for (unsigned int a = 0; a < nr_nodes; a++) {
		char *p = buf, *end;
		unsigned int col = 0, b;

		if (read_sys(r, buf, sizeof(buf), "node/node%u/distance", node_raw[a])) {
			free(t->node_distance);
			t->node_distance = NULL; /* topology_finish() uses 10/20 */
			note(t, "no node distances: 10 local, 20 remote");
			break;
		}
		for_each_cpu(b, nodes_online) {
			long d = strtol(p, &end, 10);

			if (end == p)
				break;
			p = end;
			if (b < 1024 && node_dense[b] != NONE)
				t->node_distance[a * nr_nodes + (unsigned int)node_dense[b]] =
					d < 0 || d > 1000 ? 1000 : (int)d;
			col++;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (col != nr_online_nodes || *p) {
			char rel[64], want[96];

			snprintf(rel, sizeof(rel), "node/node%u/distance", node_raw[a]);
			snprintf(want, sizeof(want), "%u distance%s, one per online node",
				 nr_online_nodes, nr_online_nodes == 1 ? "" : "s");
			bad_file(r, rel, buf, want);
		}
		if (col != nr_online_nodes) {
			free(t->node_distance);
			t->node_distance = NULL;
			note(t, "malformed node distances: 10 local, 20 remote");
			break;
		}
	}
	if (r->strict && t->node_distance)
		check_slit(r, node_raw, nr_nodes);
	*nr_nodes_out = nr_nodes;
	free_cpumask(nodes_online);
	free_cpumask(m);
	return 0;

one_node:
	for (unsigned int i = 0; i < r->nr; i++)
		node_of[i] = 0;
	*nr_nodes_out = 1;
	free_cpumask(nodes_online);
	free_cpumask(m);
	return 0;
}

/* Turns representatives into dense ids, numbered by lowest CPU. */
static void assign_ids(const struct reader *r, const unsigned int *rep, int *map,
		       unsigned int (*get)(struct cpu_topo *c, unsigned int v, bool set))
{
	unsigned int next = 0;

	for (unsigned int i = 0; i < NR_CPUS; i++)
		map[i] = NONE;
	for (unsigned int i = 0; i < r->nr; i++) {
		unsigned int rp = rep[i];

		if (map[rp] == NONE)
			map[rp] = (int)next++;
		get(&r->t->cpus[i], (unsigned int)map[rp], true);
	}
}

#define SETTER(field)                                                                 \
	static unsigned int set_##field(struct cpu_topo *c, unsigned int v, bool set) \
	{                                                                             \
		if (set)                                                              \
			c->field = v;                                                 \
		return c->field;                                                      \
	}
SETTER(core)
SETTER(cluster)
SETTER(llc)
SETTER(package)

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static void read_freq(struct reader *r, unsigned int i, bool *no_freq)
{
	struct cpu_topo *c = &r->t->cpus[i];
	unsigned int raw = r->raw[i];
	unsigned long max = 0, min = 0;
	char buf[1024];
	unsigned int f[256], n = 0;

	if (read_ulong(r, &max, "cpu/cpu%u/cpufreq/cpuinfo_max_freq", raw) || !max ||
	    max > 100000000UL) {
		*no_freq = true;
		c->max_freq_khz = 2000000;
		c->nr_opps = 1;
		c->opp_khz[0] = c->max_freq_khz;
		return;
	}
	c->max_freq_khz = (unsigned int)max;
	if (!read_sys(r, buf, sizeof(buf), "cpu/cpu%u/cpufreq/scaling_available_frequencies",
		      raw)) {
		char *p = buf, *end;

		while (n < ARRAY_SIZE(f)) {
			unsigned long v = strtoul(p, &end, 10);

			if (end == p)
				break;
			p = end;
			if (v && v < max)
				f[n++] = (unsigned int)v;
		}
	} else if (!read_ulong(r, &min, "cpu/cpu%u/cpufreq/cpuinfo_min_freq", raw) && min &&
		   min < max) {
		/* a continuous range (intel_pstate, CPPC): 8 evenly spaced steps */
		for (unsigned int k = 0; k < 7; k++)
			f[n++] = (unsigned int)(min + (max - min) * k / 7);
	}
	f[n++] = (unsigned int)max;
	qsort(f, n, sizeof(f[0]), cmp_uint);
	/* drop duplicates */
	{
		unsigned int u = 0;

		for (unsigned int k = 0; k < n; k++)
			if (!u || f[k] != f[u - 1])
				f[u++] = f[k];
		n = u;
	}
	/* keep at most TOPO_MAX_OPPS, evenly spread, always the maximum */
	if (n > TOPO_MAX_OPPS) {
		for (unsigned int k = 0; k < TOPO_MAX_OPPS; k++)
			c->opp_khz[k] = f[(size_t)k * (n - 1) / (TOPO_MAX_OPPS - 1)];
		c->nr_opps = TOPO_MAX_OPPS;
	} else {
		memcpy(c->opp_khz, f, n * sizeof(f[0]));
		c->nr_opps = n;
	}
}

/*
 * CPU 0's scaling_governor as the machine's default governor. intel_pstate
 * and amd-pstate-epp in active mode have no governor: their "performance"
 * and "powersave" are policies the hardware (HWP, CPPC) applies on its own,
 * which is not modelled, so their powersave runs as performance, as the
 * presets do (docs/machines.md, "Frequency"); userspace's setspeed and
 * governors v6.18 does not have are not read either.
 */
static void read_governor(struct reader *r, const struct cpufreq_desc *d, unsigned int raw0)
{
	char name[64];
	int g;

	if (read_sys(r, name, sizeof(name), "cpu/cpu%u/cpufreq/scaling_governor", raw0))
		return;
	g = cpufreq_governor_lookup(name, strlen(name));
	if (g < 0 || g == CPUFREQ_GOV_USERSPACE) {
		note(r->t, "scaling_governor %.40s is not modelled as a default: performance",
		     name);
		return;
	}
	if (g == CPUFREQ_GOV_POWERSAVE &&
	    (!strcmp(d->driver, "intel_pstate") || !strcmp(d->driver, "amd-pstate-epp"))) {
		note(r->t,
		     "%s's own powersave (the hardware picks the frequency) runs as performance",
		     d->driver);
		return;
	}
	r->t->cpufreq.governor = (enum cpufreq_governor_id)g;
}

/*
 * The cpufreq driver as the scheduler sees it, from CPU 0's policy: its
 * name, what one policy spans (related_cpus: a CPU, its core, cluster or
 * package) and the transition latency in ns (CPUFREQ_ETERNAL, which drivers
 * write when they do not know, and anything above a second: not read).
 */
static void read_policy(struct reader *r)
{
	struct topology *t = r->t;
	struct cpufreq_desc *d = &t->cpufreq;
	struct cpumask *rel = alloc_cpumask();
	unsigned int raw0 = r->raw[0], n = 0, cpu;
	unsigned int same[4] = { 0 }; /* CPUs sharing CPU 0's core, cluster, package */
	bool in[4] = { true, true, true, true };
	unsigned long lat;
	char name[64];

	if (!read_sys(r, name, sizeof(name), "cpu/cpu%u/cpufreq/scaling_driver", raw0) &&
	    strcmp(name, "schedlab")) /* what --export-sysfs writes for an unnamed driver */
		snprintf(d->driver, sizeof(d->driver), "%.31s", name);
	if (!read_ulong(r, &lat, "cpu/cpu%u/cpufreq/cpuinfo_transition_latency", raw0) &&
	    lat <= NSEC_PER_SEC)
		d->transition_latency_ns = lat;
	read_governor(r, d, raw0);
	if (read_list(r, rel, "cpu/cpu%u/cpufreq/related_cpus", raw0)) {
		free_cpumask(rel);
		return;
	}
	cpumask_set_cpu(raw0, rel);
	for (unsigned int i = 0; i < r->nr; i++) {
		const struct cpu_topo *c = &t->cpus[i], *c0 = &t->cpus[0];
		bool mine[4] = { i == 0, c->core == c0->core, c->cluster == c0->cluster,
				 c->package == c0->package };

		for (int k = 0; k < 4; k++)
			same[k] += mine[k];
		for (int k = 0; k < 4; k++)
			if (cpumask_test_cpu(r->raw[i], rel) && !mine[k])
				in[k] = false;
	}
	for_each_cpu(cpu, rel)
		n++;
	if (in[0] && n == same[0])
		d->span = CPUFREQ_SPAN_CPU;
	else if (in[1] && n == same[1])
		d->span = CPUFREQ_SPAN_CORE;
	else if (in[2] && n == same[2])
		d->span = CPUFREQ_SPAN_CLUSTER;
	else if (in[3] && n == same[3])
		d->span = CPUFREQ_SPAN_PACKAGE;
	else
		note(t,
		     "cpu%u's cpufreq related_cpus is not its core, cluster or package: one policy per CPU",
		     raw0);
	free_cpumask(rel);
}

/*
 * Whether the idle task keeps polling in state @k (struct idle_state): the
 * kernel's poll_idle state (POLL, desc "CPUIDLE CORE POLL IDLE"), POWER's
 * snooze, and x86 MWAIT states, whose desc intel_idle and acpi_idle write as
 * "MWAIT 0x.." and "ACPI FFH MWAIT 0x..", unlike "ACPI HLT" or "ACPI IOPORT".
 */
static bool state_polls(struct reader *r, unsigned int raw, int k, const char *name)
{
	char desc[128];

	if (!strcmp(name, "POLL") || !strcmp(name, "snooze"))
		return true;
	if (read_sys(r, desc, sizeof(desc), "cpu/cpu%u/cpuidle/state%d/desc", raw, k))
		return false;
	return strstr(desc, "MWAIT") || strstr(desc, "POLL IDLE");
}

static void read_idle(struct reader *r)
{
	struct topology *t = r->t;
	unsigned int raw = r->raw[0];

	t->nr_idle_states = 0;
	for (int k = 0; k < 16 && t->nr_idle_states < TOPO_MAX_IDLE_STATES; k++) {
		struct idle_state *s = &t->idle_states[t->nr_idle_states];
		unsigned long lat, res;
		char name[64];

		if (read_sys(r, name, sizeof(name), "cpu/cpu%u/cpuidle/state%d/name", raw, k))
			break;
		if (read_ulong(r, &lat, "cpu/cpu%u/cpuidle/state%d/latency", raw, k) ||
		    read_ulong(r, &res, "cpu/cpu%u/cpuidle/state%d/residency", raw, k))
			continue;
		if (!name[0])
			snprintf(name, sizeof(name), "state%d", k);
		memcpy(s->name, name, sizeof(s->name) - 1);
		s->name[sizeof(s->name) - 1] = '\0';
		s->exit_latency_ns = (u64)lat * NSEC_PER_USEC;
		s->target_residency_ns = (u64)res * NSEC_PER_USEC;
		s->polls = state_polls(r, raw, k, s->name);
		t->nr_idle_states++;
	}
	/* keep them ordered by exit latency, as topology_finish() expects */
	for (unsigned int i = 1; i < t->nr_idle_states; i++) {
		for (unsigned int j = i;
		     j && t->idle_states[j].exit_latency_ns < t->idle_states[j - 1].exit_latency_ns;
		     j--) {
			struct idle_state tmp = t->idle_states[j];

			t->idle_states[j] = t->idle_states[j - 1];
			t->idle_states[j - 1] = tmp;
		}
	}
	if (!t->nr_idle_states) {
		snprintf(t->idle_states[0].name, sizeof(t->idle_states[0].name), "idle");
		t->idle_states[0].exit_latency_ns = 2 * NSEC_PER_USEC;
		t->idle_states[0].target_residency_ns = 2 * NSEC_PER_USEC;
		t->nr_idle_states = 1;
		note(t, "no cpuidle states: one 2 us idle state");
	}
}

enum { LV_CORE, LV_CLUSTER, LV_LLC, LV_PKG, NR_LV };

static const char *const lv_name[NR_LV] = { "core", "cluster", "LLC", "package" };

/* The file CPU @raw's list at level @lv came from, for messages. */
static void lv_file(struct reader *r, unsigned int raw, int lv, char *rel, size_t len)
{
	static const char *const files[NR_LV][2] = {
		{ "topology/core_cpus_list", "topology/thread_siblings_list" },
		{ "topology/cluster_cpus_list", NULL },
		{ NULL, NULL },
		{ "topology/package_cpus_list", "topology/core_siblings_list" },
	};
	char buf[16];

	if (lv == LV_LLC) {
		snprintf(rel, len, "cpu/cpu%u/cache/index%d/shared_cpu_list", raw,
			 llc_index(r, raw));
		return;
	}
	snprintf(rel, len, "cpu/cpu%u/%s", raw, files[lv][0]);
	if (files[lv][1] && read_sys(r, buf, sizeof(buf), "%s", rel))
		snprintf(rel, len, "cpu/cpu%u/%s", raw, files[lv][1]);
}

/*
 * A real kernel writes lists that agree (cpuA lists B exactly when cpuB
 * lists A); a tree put together by hand may not. Each CPU joins the group of
 * the first CPU of its own list (@rep), so a disagreement silently drops a
 * claimed member. For the host's /sys (only the SMT lists have ever been
 * seen to disagree) say so in the approximations, naming the first pair;
 * for -m sysfs:DIR it is an error naming the file: a CPU in two packages.
 */
static void check_level(struct reader *r, int lv, const unsigned int *rep, struct cpumask **of)
{
	/*
	 * The lists agree exactly when every CPU a list names has the same
	 * first CPU, and the list is as long as the group with that first CPU:
	 * O(sum of list lengths), not a mask comparison per pair.
	 */
	unsigned int *size = xcalloc(NR_CPUS, sizeof(*size));

	for (unsigned int i = 0; i < r->nr; i++)
		size[rep[i]]++;
	for (unsigned int i = 0; i < r->nr; i++) {
		unsigned int j, other = i;

		for_each_cpu(j, of[i]) {
			if (r->dense[j] != NONE && rep[r->dense[j]] != rep[i]) {
				other = (unsigned int)r->dense[j];
				break;
			}
		}
		if (other == i && cpumask_weight(of[i]) == size[rep[i]])
			continue;
		if (other == i) {
			/* a CPU of the group does not list this one: find it */
			for (unsigned int k = 0; k < r->nr; k++)
				if (rep[k] == rep[i] && !cpumask_test_cpu(r->raw[k], of[i]))
					other = k;
		}
		{
			char a[64], b[64], rel[96];

			cpumask_print_list(a, sizeof(a), of[i]);
			cpumask_print_list(b, sizeof(b), of[other]);
			if (r->strict && !r->bad[0]) {
				lv_file(r, r->raw[i], lv, rel, sizeof(rel));
				snprintf(r->bad, sizeof(r->bad),
					 "%s/%s: %s, but cpu%u's %s is %s: a CPU in two %ss",
					 r->sys, rel, a, r->raw[other], lv_name[lv], b,
					 lv == LV_PKG ? "package" : lv_name[lv]);
			} else if (!r->strict && lv == LV_CORE) {
				note(r->t,
				     "SMT sibling lists disagree (cpu%u: %s, cpu%u: %s): each CPU joins the core of the first CPU of its own list",
				     r->raw[i], a, r->raw[other], b);
			}
		}
		break;
	}
	free(size);
}

static void keep_list(struct cpumask **of, unsigned int i, const struct cpumask *m)
{
	if (!of)
		return;
	of[i] = alloc_cpumask();
	cpumask_copy(of[i], m);
}

/* The CPUs of one package have one physical_package_id, and two packages two. */
static void check_pkg_ids(struct reader *r, const unsigned int *rep, const unsigned long *pkg_id,
			  bool have_pkg_id)
{
	for (unsigned int i = 0; have_pkg_id && !r->bad[0] && i < r->nr; i++) {
		for (unsigned int j = 0; j < i; j++) {
			bool same_pkg = rep[j] == rep[i], same_id = pkg_id[j] == pkg_id[i];

			if (same_pkg == same_id)
				continue;
			snprintf(
				r->bad, sizeof(r->bad),
				"%s/cpu/cpu%u/topology/physical_package_id: %lu, but cpu%u (%s package) has %lu: a CPU in two packages",
				r->sys, r->raw[i], pkg_id[i], r->raw[j],
				same_pkg ? "in the same" : "in another", pkg_id[j]);
			return;
		}
	}
}

static int read_tree(struct reader *r)
{
	struct topology *t = r->t;
	struct cpumask *core = alloc_cpumask(), *cluster = alloc_cpumask();
	struct cpumask *pkg = alloc_cpumask(), *llc = alloc_cpumask();
	struct cpumask **node_masks = NULL;
	unsigned int *rep = xcalloc((size_t)r->nr * 4, sizeof(*rep));
	unsigned int *node_of = xcalloc(r->nr, sizeof(*node_of));
	int *map = xmalloc(NR_CPUS * sizeof(*map));
	unsigned long *pkg_id = xcalloc(r->nr, sizeof(*pkg_id));
	unsigned int nr_nodes = 1;
	bool no_core = false, no_pkg = false, no_llc = false, no_freq = false;
	bool have_pkg_id = true;
	unsigned long max_cap = 0;
	/*
	 * each CPU's lists as read, to check that they agree: the SMT lists
	 * always, all levels for -m sysfs:DIR
	 */
	struct cpumask **of[NR_LV] = { NULL };
	int ret = -1;

	for (int lv = 0; lv < NR_LV; lv++)
		if (lv == LV_CORE || r->strict)
			of[lv] = xcalloc(r->nr, sizeof(*of[lv]));
	if (topology_alloc_cpus(t, r->nr, r->err, sizeof(r->err)))
		goto out;
	read_nodes(r, node_of, &nr_nodes);
	node_masks = xcalloc(nr_nodes, sizeof(*node_masks));
	for (unsigned int n = 0; n < nr_nodes; n++)
		node_masks[n] = alloc_cpumask();
	for (unsigned int i = 0; i < r->nr; i++)
		cpumask_set_cpu(r->raw[i], node_masks[node_of[i]]);
	for (unsigned int i = 0; i < r->nr; i++) {
		char id[64];

		/* arm64 kernels before v5.x write -1: no package id */
		if (!read_sys(r, id, sizeof(id), "cpu/cpu%u/topology/physical_package_id",
			      r->raw[i]) &&
		    !strcmp(id, "-1"))
			have_pkg_id = false;
		else if (read_ulong(r, &pkg_id[i], "cpu/cpu%u/topology/physical_package_id",
				    r->raw[i]))
			have_pkg_id = false;
	}

	for (unsigned int i = 0; i < r->nr; i++) {
		unsigned int raw = r->raw[i];
		unsigned long cap;
		int idx;

		/* SMT siblings */
		if (read_list(r, core, "cpu/cpu%u/topology/core_cpus_list", raw) &&
		    read_list(r, core, "cpu/cpu%u/topology/thread_siblings_list", raw)) {
			no_core = true;
			cpumask_clear(core);
		}
		cpumask_set_cpu(raw, core);
		keep_list(of[LV_CORE], i, core);

		/* package, narrowed to the node when a node is smaller */
		if (read_list(r, pkg, "cpu/cpu%u/topology/package_cpus_list", raw) &&
		    read_list(r, pkg, "cpu/cpu%u/topology/core_siblings_list", raw)) {
			cpumask_clear(pkg);
			for (unsigned int j = 0; j < r->nr; j++)
				if (!have_pkg_id || pkg_id[j] == pkg_id[i])
					cpumask_set_cpu(r->raw[j], pkg);
			if (!have_pkg_id)
				no_pkg = true;
		}
		cpumask_set_cpu(raw, pkg);
		cpumask_or(pkg, pkg, core);

		/* cluster: inside the package, containing the core */
		if (read_list(r, cluster, "cpu/cpu%u/topology/cluster_cpus_list", raw))
			cpumask_copy(cluster, core);
		cpumask_or(cluster, cluster, core);
		cpumask_and(cluster, cluster, pkg);

		/* LLC: highest unified cache, within package and node, at least the cluster */
		idx = llc_index(r, raw);
		if (idx < 0 ||
		    read_list(r, llc, "cpu/cpu%u/cache/index%d/shared_cpu_list", raw, idx)) {
			no_llc = true;
			cpumask_copy(llc, pkg);
		}
		cpumask_and(llc, llc, pkg);
		cpumask_and(llc, llc, node_masks[node_of[i]]);
		cpumask_set_cpu(raw, llc);
		if (cpumask_subset(llc, cluster))
			cpumask_copy(llc, cluster);
		cpumask_or(llc, llc, cluster);

		keep_list(of[LV_PKG], i, pkg);
		keep_list(of[LV_CLUSTER], i, cluster);
		keep_list(of[LV_LLC], i, llc);
		rep[i] = first_or_self(core, raw);
		rep[r->nr + i] = first_or_self(cluster, raw);
		rep[2 * r->nr + i] = first_or_self(llc, raw);
		rep[3 * r->nr + i] = first_or_self(pkg, raw);

		if (read_ulong(r, &cap, "cpu/cpu%u/cpu_capacity", raw)) {
			cap = SCHED_CAPACITY_SCALE;
		} else if (!cap || cap > SYSFS_MAX_CAPACITY) {
			char v[32], rel[64];

			snprintf(v, sizeof(v), "%lu", cap);
			snprintf(rel, sizeof(rel), "cpu/cpu%u/cpu_capacity", raw);
			bad_file(r, rel, v, "a capacity (1.." SYSFS_MAX_CAPACITY_STR ")");
			cap = SCHED_CAPACITY_SCALE;
		}
		t->cpus[i].capacity = cap;
		if (cap > max_cap)
			max_cap = cap;
		read_freq(r, i, &no_freq);
		t->cpus[i].node = node_of[i];
	}

	if (r->strict) {
		check_level(r, LV_PKG, rep + 3 * r->nr, of[LV_PKG]);
		check_pkg_ids(r, rep + 3 * r->nr, pkg_id, have_pkg_id);
	}
	check_level(r, LV_CORE, rep, of[LV_CORE]);
	if (r->strict) {
		check_level(r, LV_CLUSTER, rep + r->nr, of[LV_CLUSTER]);
		check_level(r, LV_LLC, rep + 2 * r->nr, of[LV_LLC]);
	}
	assign_ids(r, rep, map, set_core);
	assign_ids(r, rep + r->nr, map, set_cluster);
	assign_ids(r, rep + 2 * r->nr, map, set_llc);
	assign_ids(r, rep + 3 * r->nr, map, set_package);

	if (max_cap != SCHED_CAPACITY_SCALE) {
		for (unsigned int i = 0; i < r->nr; i++) {
			unsigned long c = t->cpus[i].capacity * SCHED_CAPACITY_SCALE / max_cap;

			t->cpus[i].capacity = c ? c : 1;
		}
		note(t, "cpu_capacity rescaled so that the biggest CPU is %d",
		     SCHED_CAPACITY_SCALE);
	}
	if (no_core)
		note(t, "no SMT sibling lists: one CPU per core");
	if (no_pkg)
		note(t, "no package information: one package");
	if (no_llc)
		note(t, "no cache information: one LLC per package");
	read_cache_sizes(r, r->raw[0]);
	read_l2_span(r);
	if (no_freq)
		note(t, "no cpufreq: a nominal 2 GHz");
	read_idle(r);
	if (!no_freq)
		read_policy(r);
	ret = 0;
out:
	if (node_masks)
		for (unsigned int n = 0; n < nr_nodes; n++)
			free_cpumask(node_masks[n]);
	free(node_masks);
	free_cpumask(core);
	free_cpumask(cluster);
	free_cpumask(pkg);
	free_cpumask(llc);
	for (int lv = 0; lv < NR_LV; lv++) {
		for (unsigned int i = 0; of[lv] && i < r->nr; i++)
			if (of[lv][i])
				free_cpumask(of[lv][i]);
		free(of[lv]);
	}
	free(rep);
	free(node_of);
	free(map);
	free(pkg_id);
	return ret;
}

/* When the tree is inconsistent, keep the CPUs and their properties but flatten the shape. */
static int flatten(struct topology *t, const char *why, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < t->nr_cpus; i++) {
		t->cpus[i].core = t->cpus[i].cluster = i;
		t->cpus[i].llc = t->cpus[i].package = t->cpus[i].node = 0;
	}
	free(t->node_distance);
	t->node_distance = NULL;
	t->nr_nodes = 0;
	note(t, "sysfs shape rejected (%s): flattened to one package, LLC and node", why);
	return topology_finish(t, err, errlen);
}

static struct topology *load(struct reader *r, char *err, size_t errlen)
{
	struct topology *t = xcalloc(1, sizeof(*t));
	char why[256];

	r->t = t;
	snprintf(t->name, sizeof(t->name), "%s", strcmp(r->root, "/sys") ? "sysfs" : "host");
	t->hz = 250;
	cost_model_default(&t->cost);

	/* parse raw CPU numbers at full width; topology_finish() narrows it */
	cpumask_setup(NR_CPUS);
	r->online = alloc_cpumask();
	if (find_online(r) || read_tree(r)) {
		snprintf(err, errlen, "%s", r->err);
		goto fail;
	}
	if (r->bad[0]) {
		snprintf(err, errlen, "%s", r->bad);
		goto fail;
	}
	snprintf(t->description, sizeof(t->description), "%u CPUs read from %.200s", r->nr, r->sys);
	free_cpumask(r->online);
	r->online = NULL;
	if (topology_finish(t, why, sizeof(why))) {
		if (r->strict) {
			snprintf(err, errlen, "%s: %s", r->root, why);
			goto fail;
		}
		if (flatten(t, why, err, errlen))
			goto fail;
	}
	free(r->raw);
	free(r->dense);
	return t;
fail:
	free_cpumask(r->online);
	free(r->raw);
	free(r->dense);
	/* masks (if any) were sized by a previous setup: drop them before freeing */
	topology_free(t);
	return NULL;
}

struct topology *topology_load_sysfs(const char *root, char *err, size_t errlen)
{
	struct reader r = { .root = root };

	snprintf(r.sys, sizeof(r.sys), "%s/devices/system", root);
	return load(&r, err, errlen);
}

static bool is_dir(const char *fmt, const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), fmt, dir);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

struct topology *topology_load_sysfs_dir(const char *dir, char *err, size_t errlen)
{
	/* what `cp -r /sys/devices/system DIR` gives, a copy of /sys, a tar of sys/devices/system */
	static const char *const layouts[] = { "%s", "%s/devices/system", "%s/sys/devices/system" };
	struct reader r = { .root = dir, .strict = true };
	struct topology *t;
	struct stat st;

	if (!dir[0]) {
		snprintf(err, errlen, "sysfs: needs a directory (-m sysfs:DIR)");
		return NULL;
	}
	if (strlen(dir) > 150) {
		snprintf(err, errlen, "sysfs:%.40s...: the path is longer than 150 characters",
			 dir);
		return NULL;
	}
	if (stat(dir, &st)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen,
			 "%s: not a directory (-m sysfs:DIR takes a copy of /sys/devices/system)",
			 dir);
		return NULL;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(layouts) && !r.sys[0]; i++) {
		char cpu[PATH_MAX + 8];

		snprintf(cpu, sizeof(cpu), "%s/cpu", layouts[i]);
		if (is_dir(cpu, dir))
			snprintf(r.sys, sizeof(r.sys), layouts[i], dir);
	}
	if (!r.sys[0]) {
		snprintf(
			err, errlen,
			"%s: no cpu directory (want a copy of /sys/devices/system, DIR/cpu and DIR/node, or of /sys, DIR/devices/system/cpu)",
			dir);
		return NULL;
	}
	t = load(&r, err, errlen);
	if (t)
		snprintf(t->name, sizeof(t->name), "sysfs:%.57s", dir);
	return t;
}
