// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building the sched-domain hierarchy of a machine, the way Linux v6.18's
 * kernel/sched/topology.c does at boot (sched_init_numa() followed by
 * build_sched_domains()), re-implemented from its documented behaviour:
 *
 *  1. The topology levels, bottom-up: SMT (the core's threads), CLS (the
 *     cluster), MC (the LLC), PKG (the node, as cpu_node_mask()), NODE
 *     (the node again: the NUMA identity level) and one NUMA level per
 *     further distinct node distance, spanning the nodes within it.
 *  2. For every CPU, one domain per level from the bottom until a domain
 *     spans the whole machine, with sd_init()'s defaults and the flags
 *     that turn topology into behaviour.
 *  3. Groups: on ordinary levels the child domains' spans, shared by all
 *     CPUs of the domain; on NUMA levels per-CPU overlapping groups, each
 *     with a balance mask of the CPUs that reach that group.
 *  4. The NUMA imbalance allowance (imb_numa_nr), the groups' initial
 *     capacities, then, per CPU, degenerate domains removed and the
 *     per-CPU shortcuts (sd_llc, sd_numa, ...) set.
 *
 * The kernel allocates a domain, group and group capacity per CPU and
 * level up front and frees the unused ones; here they are allocated when
 * first used and all freed together by free_sched_domains().
 *
 * Memory is linear in CPUs x levels. The kernel's structures are too, but
 * each carries an nr_cpus-wide mask, so its masks grow as n^2: a span per
 * CPU and level, and per CPU a mask for every overlapping NUMA group (at
 * 8192 CPUs, 50 MB of spans and 150 MB of NUMA group masks). Here a mask
 * is made once per distinct span of a level and shared, read-only, by
 * every domain, group and group capacity with that span, the way the
 * kernel shares one sched_group among the CPUs of a span; single-CPU
 * groups use cpumask_of(). The balance mask of identical overlapping
 * groups is worked out once, not once per CPU (quadratic time).
 */
#include "kernel/domains.h"
#include "kernel/sched.h"
#include "sim/alloc.h"

#include <stdlib.h>
#include <string.h>

#define NR_DISTANCE_VALUES 256		/* 1 << DISTANCE_BITS */

/* ---- the exported state ---- */

#define __SD_FLAG_DEBUG(_name, mflags) [__##_name] = { .meta_flags = (mflags), .name = #_name },
const struct sd_flag_debug sd_flag_debug[__SD_FLAG_CNT] = { SD_FLAG_LIST(__SD_FLAG_DEBUG) };
#undef __SD_FLAG_DEBUG

struct sched_domain **sched_domains_rq_sd;
struct sched_domain **sd_llc;
int *sd_llc_size;
int *sd_llc_id;
int *sd_share_id;
struct sched_domain_shared **sd_llc_shared;
struct sched_domain **sd_numa;
struct sched_domain **sd_asym_packing;
struct sched_domain **sd_asym_cpucapacity;
bool sched_asym_cpucapacity;
bool sched_cluster_active;
int sched_domain_level_max;
int sched_domains_numa_levels;
int *sched_domains_numa_distance;
int sched_max_numa_distance;
struct cpumask ***sched_domains_numa_masks;
enum numa_topology_type sched_numa_topology_type;

/* ---- build-time state ---- */

/*
 * Per topology level and CPU: the domain built for that CPU, and the
 * shared state, group and group capacity "owned" by that CPU (indexed by
 * the first CPU of what they stand for, as the kernel does).
 */
struct sd_data {
	struct sched_domain **sd;
	struct sched_domain_shared **sds;
	struct sched_group **sg;
	struct sched_group_capacity **sgc;
	/*
	 * schedlab: per CPU, a key of its domain's span at this level: equal
	 * keys at one level mean equal spans, so the balance masks need no
	 * cpumask comparisons (which made large machines slow to build).
	 */
	unsigned int *key;
	/* per key: the one shared span of the domains with that key */
	struct cpumask **span;
	/*
	 * NUMA levels, per key of the child level: the capacity (and balance
	 * mask) of the overlapping groups that stand for that child span.
	 */
	struct sched_group_capacity **overlap_sgc;
};

struct sd_topology_level;
typedef const struct cpumask *(*sd_mask_fn)(const struct sd_topology_level *tl, unsigned int cpu);

struct sd_topology_level {
	sd_mask_fn mask;
	int sd_flags;			/* topology flags: SD_SHARE_CPUCAPACITY, ... */
	int numa_level;
	const char *name;
	struct sd_data data;
};

/* One distinct CPU capacity and its CPUs (the kernel's asym_cap_list). */
struct asym_cap_data {
	unsigned long capacity;
	struct cpumask *span;
};

static struct {
	const struct topology *t;
	unsigned int nr_cpus;
	unsigned int nr_nodes;
	struct cpumask *cpu_map;
	struct sd_topology_level *tl;
	int nr_tl;
	int node_reclaim_distance;
	struct sched_domain **base;	/* d.sd: each CPU's bottom domain as built */
	struct cpumask *tmpmask, *tmpmask2;
	const struct cpumask **cls_mask; /* per CPU: the CLS level's span */
	struct cpumask *core_leaders;	/* the first CPU of every core */
	unsigned int **numa_key;	/* [numa level][node]: first node with the same mask */
	unsigned long *cpu_capacity;	/* rq->cpu_capacity as the build sets it */
	struct asym_cap_data *asym_caps; /* descending capacity; empty if symmetric */
	unsigned int nr_asym_caps;
	struct sched_group **overlap_sg; /* groups built per CPU on NUMA levels */
	size_t nr_overlap_sg, cap_overlap_sg;
	struct cpumask **masks;		/* every mask the build made (shared, read-only after) */
	size_t nr_masks, cap_masks;
	struct root_domain rd;
	bool built;
} sdt;

/*
 * for_each_cpu_wrap() skipping the CPUs in @covered: the CPUs of @mask from
 * @start up, then from 0 up to @start, that are not (yet) in @covered when
 * reached. The kernel visits every CPU and skips covered ones; same order.
 */
#define for_each_uncovered_cpu_wrap(cpu, mask, covered, start)                              \
	for (unsigned int __pass = 0; __pass < 2; __pass++)                                 \
		for ((cpu) = cpumask_next_andnot_from((mask), (covered), __pass ? 0 : (start)); \
		     (cpu) < (__pass ? (start) : nr_cpu_ids);                               \
		     (cpu) = cpumask_next_andnot_from((mask), (covered), (cpu) + 1))

int sd_flags_snprint(char *buf, size_t len, int flags)
{
	int n = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < __SD_FLAG_CNT; i++) {
		size_t room;

		if (!(flags & (1 << i)))
			continue;
		room = (size_t)n < len ? len - (size_t)n : 0;
		n += snprintf(room ? buf + n : NULL, room, "%s%s", n ? "|" : "",
			      sd_flag_debug[i].name);
	}
	if (!n) {
		if (len)
			snprintf(buf, len, "0");
		n = 1;
	}
	return n;
}

/* ---- the topology levels (the kernel's default_topology + NUMA) ---- */

static const struct cpumask *tl_smt_mask(const struct sd_topology_level *tl, unsigned int cpu)
{
	(void)tl;
	return topology_sibling_cpumask(sdt.t, cpu);
}

static const struct cpumask *tl_cls_mask(const struct sd_topology_level *tl, unsigned int cpu)
{
	(void)tl;
	return sdt.cls_mask[cpu];
}

static const struct cpumask *tl_mc_mask(const struct sd_topology_level *tl, unsigned int cpu)
{
	(void)tl;
	return topology_llc_cpumask(sdt.t, cpu);
}

/* v6.18's PKG level spans cpu_node_mask(): the CPU's node */
static const struct cpumask *tl_pkg_mask(const struct sd_topology_level *tl, unsigned int cpu)
{
	(void)tl;
	return topology_node_cpumask(sdt.t, cpu);
}

static const struct cpumask *sd_numa_mask(const struct sd_topology_level *tl, unsigned int cpu)
{
	return sched_domains_numa_masks[tl->numa_level][sdt.t->cpus[cpu].node];
}

/*
 * arm64's cpu_clustergroup_mask(): the cluster, unless it is as wide as
 * the LLC, in which case the SMT siblings (so the CLS level collapses
 * into SMT instead of taking MC's place).
 */
static void setup_cls_masks(void)
{
	const struct topology *t = sdt.t;

	sdt.cls_mask = xcalloc(sdt.nr_cpus, sizeof(*sdt.cls_mask));
	for (unsigned int cpu = 0; cpu < sdt.nr_cpus; cpu++) {
		const struct cpumask *cls = topology_cluster_cpumask(t, cpu);

		if (cpumask_subset(topology_llc_cpumask(t, cpu), cls))
			cls = topology_sibling_cpumask(t, cpu);
		sdt.cls_mask[cpu] = cls;
	}
	sdt.core_leaders = alloc_cpumask();
	for (unsigned int core = 0; core < t->nr_cores; core++)
		cpumask_set_cpu(cpumask_first(t->core_mask[core]), sdt.core_leaders);
}

static int node_distance(unsigned int a, unsigned int b)
{
	return sdt.t->node_distance[a * sdt.t->nr_nodes + b];
}

/*
 * sched_init_numa(): the distinct node distances, ascending, and per
 * distance and node the CPUs of every node at most that far.
 */
static int sched_init_numa(char *err, size_t errlen)
{
	const struct topology *t = sdt.t;
	unsigned int nr_nodes = t->nr_nodes;
	bool seen[NR_DISTANCE_VALUES] = { false };
	int nr_levels = 0;

	for (unsigned int i = 0; i < nr_nodes; i++) {
		for (unsigned int j = 0; j < nr_nodes; j++) {
			int d = node_distance(i, j);

			if (d < LOCAL_DISTANCE || d >= NR_DISTANCE_VALUES) {
				snprintf(err, errlen,
					 "machine '%s': node distance %d between nodes %u and %u "
					 "is outside %d..%d",
					 t->name, d, i, j, LOCAL_DISTANCE, NR_DISTANCE_VALUES - 1);
				return -1;
			}
			seen[d] = true;
		}
	}
	for (int d = 0; d < NR_DISTANCE_VALUES; d++)
		nr_levels += seen[d];

	sched_domains_numa_distance = xcalloc((size_t)nr_levels, sizeof(int));
	for (int d = 0, i = 0; d < NR_DISTANCE_VALUES; d++)
		if (seen[d])
			sched_domains_numa_distance[i++] = d;

	sched_domains_numa_masks = xcalloc((size_t)nr_levels, sizeof(*sched_domains_numa_masks));
	for (int i = 0; i < nr_levels; i++) {
		sched_domains_numa_masks[i] = xcalloc(nr_nodes, sizeof(struct cpumask *));
		for (unsigned int j = 0; j < nr_nodes; j++) {
			struct cpumask *mask = alloc_cpumask();

			for (unsigned int k = 0; k < nr_nodes; k++)
				if (node_distance(j, k) <= sched_domains_numa_distance[i])
					cpumask_or(mask, mask, t->node_mask[k]);
			sched_domains_numa_masks[i][j] = mask;
		}
	}
	/* equal masks of one level share the key of the first such node */
	sdt.numa_key = xcalloc((size_t)nr_levels, sizeof(*sdt.numa_key));
	for (int i = 0; i < nr_levels; i++) {
		sdt.numa_key[i] = xcalloc(nr_nodes, sizeof(unsigned int));
		for (unsigned int j = 0; j < nr_nodes; j++) {
			unsigned int k = 0;

			while (k < j && !cpumask_equal(sched_domains_numa_masks[i][k],
						       sched_domains_numa_masks[i][j]))
				k++;
			sdt.numa_key[i][j] = k;
		}
	}
	sched_domains_numa_levels = nr_levels;
	sched_max_numa_distance = sched_domains_numa_distance[nr_levels - 1];
	return 0;
}

/* init_numa_topology_type(): how far nodes are reached (NUMA balancing uses it) */
static void init_numa_topology_type(void)
{
	unsigned int nr_nodes = sdt.t->nr_nodes;
	int n = sched_max_numa_distance;

	sched_numa_topology_type = NUMA_DIRECT;
	if (sched_domains_numa_levels <= 2)
		return;
	for (unsigned int a = 0; a < nr_nodes; a++) {
		for (unsigned int b = 0; b < nr_nodes; b++) {
			/* two nodes furthest apart: is there a node between them? */
			if (node_distance(a, b) < n)
				continue;
			for (unsigned int c = 0; c < nr_nodes; c++) {
				if (node_distance(a, c) < n && node_distance(b, c) < n) {
					sched_numa_topology_type = NUMA_GLUELESS_MESH;
					return;
				}
			}
			sched_numa_topology_type = NUMA_BACKPLANE;
			return;
		}
	}
}

static void free_numa(void)
{
	if (sdt.numa_key)
		for (int i = 0; i < sched_domains_numa_levels; i++)
			free(sdt.numa_key[i]);
	free(sdt.numa_key);
	if (sched_domains_numa_masks) {
		for (int i = 0; i < sched_domains_numa_levels; i++) {
			for (unsigned int j = 0; j < sdt.nr_nodes; j++)
				free_cpumask(sched_domains_numa_masks[i][j]);
			free(sched_domains_numa_masks[i]);
		}
	}
	free(sched_domains_numa_masks);
	free(sched_domains_numa_distance);
	sched_domains_numa_masks = NULL;
	sched_domains_numa_distance = NULL;
	sched_domains_numa_levels = 0;
	sched_max_numa_distance = 0;
}

static void add_level(sd_mask_fn mask, int flags, const char *name, int numa_level)
{
	struct sd_topology_level *tl = &sdt.tl[sdt.nr_tl++];

	tl->mask = mask;
	tl->sd_flags = flags;
	tl->name = name;
	tl->numa_level = numa_level;
	tl->data.sd = xcalloc(sdt.nr_cpus, sizeof(*tl->data.sd));
	tl->data.sds = xcalloc(sdt.nr_cpus, sizeof(*tl->data.sds));
	tl->data.sg = xcalloc(sdt.nr_cpus, sizeof(*tl->data.sg));
	tl->data.sgc = xcalloc(sdt.nr_cpus, sizeof(*tl->data.sgc));
	tl->data.key = xcalloc(sdt.nr_cpus, sizeof(*tl->data.key));
	/* keys are CPU numbers, or node numbers on NUMA-distance levels: < nr_cpus */
	tl->data.span = xcalloc(sdt.nr_cpus, sizeof(*tl->data.span));
	if (flags & SD_NUMA)
		tl->data.overlap_sgc = xcalloc(sdt.nr_cpus, sizeof(*tl->data.overlap_sgc));
}

/*
 * SD_ASYM_PACKING where the architecture's table puts it: the machine's
 * [asym_packing] levels (x86_sched_itmt_flags(): while sched_itmt_enabled).
 */
static int asym_flag(enum asym_level lv)
{
	const struct asym_packing_desc *d = &sdt.t->asym_packing;

	if (!(d->levels & (1u << lv)) || (d->itmt && !sysctl_sched.sched_itmt_enabled))
		return 0;
	return SD_ASYM_PACKING;
}

/*
 * The kernel's default_topology[] (x86's and arm64's tables have the same
 * levels), with the NUMA levels sched_init_numa() appends. SMT is left out
 * when no core has two threads (as x86 does) and CLS when no cluster sits
 * between core and LLC; either would collapse anyway.
 */
static void setup_levels(void)
{
	const struct topology *t = sdt.t;

	sdt.tl = xcalloc(4 + (size_t)sched_domains_numa_levels, sizeof(*sdt.tl));
	if (t->has_smt)
		add_level(tl_smt_mask, SD_SHARE_CPUCAPACITY | SD_SHARE_LLC | asym_flag(ASYM_LV_SMT),
			  "SMT", 0);
	if (t->has_clusters)
		add_level(tl_cls_mask, SD_CLUSTER | SD_SHARE_LLC | asym_flag(ASYM_LV_CLS), "CLS", 0);
	add_level(tl_mc_mask, SD_SHARE_LLC | asym_flag(ASYM_LV_MC), "MC", 0);
	add_level(tl_pkg_mask, asym_flag(ASYM_LV_PKG), "PKG", 0);
	/* the NUMA identity distance: the node itself */
	add_level(sd_numa_mask, 0, "NODE", 0);
	for (int j = 1; j < sched_domains_numa_levels; j++)
		add_level(sd_numa_mask, SD_NUMA, "NUMA", j);
}

/* ---- capacity asymmetry (asym_cpu_capacity_scan/classify) ---- */

static void asym_cpu_capacity_scan(void)
{
	const struct topology *t = sdt.t;

	sdt.asym_caps = xcalloc(sdt.nr_cpus, sizeof(*sdt.asym_caps));
	sdt.nr_asym_caps = 0;
	for (unsigned int cpu = 0; cpu < sdt.nr_cpus; cpu++) {
		unsigned long cap = t->cpus[cpu].capacity;
		unsigned int i;

		for (i = 0; i < sdt.nr_asym_caps; i++)
			if (sdt.asym_caps[i].capacity <= cap)
				break;
		if (i == sdt.nr_asym_caps || sdt.asym_caps[i].capacity != cap) {
			memmove(&sdt.asym_caps[i + 1], &sdt.asym_caps[i],
				(sdt.nr_asym_caps - i) * sizeof(sdt.asym_caps[0]));
			sdt.asym_caps[i].capacity = cap;
			sdt.asym_caps[i].span = alloc_cpumask();
			sdt.nr_asym_caps++;
		}
		cpumask_set_cpu(cpu, sdt.asym_caps[i].span);
	}
	/* one capacity: the machine is symmetric and keeps no list */
	if (sdt.nr_asym_caps == 1) {
		free_cpumask(sdt.asym_caps[0].span);
		sdt.nr_asym_caps = 0;
	}
}

/*
 * SD_ASYM_CPUCAPACITY if @span holds CPUs of two or more capacities,
 * plus SD_ASYM_CPUCAPACITY_FULL if it holds every capacity there is.
 */
static int asym_cpu_capacity_classify(const struct cpumask *span)
{
	int count = 0, miss = 0;

	for (unsigned int i = 0; i < sdt.nr_asym_caps; i++) {
		if (cpumask_intersects(span, sdt.asym_caps[i].span))
			count++;
		else if (cpumask_intersects(sdt.cpu_map, sdt.asym_caps[i].span))
			miss++;
	}
	if (count < 2)
		return 0;
	if (miss)
		return SD_ASYM_CPUCAPACITY;
	return SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL;
}

/* ---- domains ---- */

/* A mask for the domains' shared use; free_sched_domains() frees them all. */
static struct cpumask *sd_alloc_mask(void)
{
	if (sdt.nr_masks == sdt.cap_masks) {
		sdt.cap_masks = sdt.cap_masks ? 2 * sdt.cap_masks : 64;
		sdt.masks = xreallocarray(sdt.masks, sdt.cap_masks, sizeof(*sdt.masks));
	}
	return sdt.masks[sdt.nr_masks++] = alloc_cpumask();
}

static struct sched_domain_shared *sdd_sds(struct sd_data *sdd, unsigned int cpu)
{
	if (!sdd->sds[cpu]) {
		sdd->sds[cpu] = xcalloc(1, sizeof(struct sched_domain_shared));
		cache_line_init(&sdd->sds[cpu]->line, 1);
	}
	return sdd->sds[cpu];
}

static struct sched_group *sdd_sg(struct sd_data *sdd, unsigned int cpu)
{
	struct sched_group *sg = sdd->sg[cpu];

	if (!sg) {
		sg = xcalloc(1, sizeof(*sg));
		sg->next = sg;
		sdd->sg[cpu] = sg;
	}
	return sg;
}

static struct sched_group_capacity *sdd_sgc(struct sd_data *sdd, unsigned int cpu)
{
	struct sched_group_capacity *sgc = sdd->sgc[cpu];

	if (!sgc) {
		sgc = xcalloc(1, sizeof(*sgc));
		sgc->id = (int)cpu;
		sdd->sgc[cpu] = sgc;
	}
	return sgc;
}

static struct sd_topology_level *sd_tl(const struct sched_domain *sd)
{
	/* every CPU builds the levels consecutively from the first */
	return &sdt.tl[sd->level];
}

/* sd_init(): a domain of level @tl for @cpu above @child, with the defaults */
static struct sched_domain *sd_init(struct sd_topology_level *tl, struct sched_domain *child,
				    unsigned int cpu)
{
	const struct cpumask *tl_mask = tl->mask(tl, cpu);
	unsigned int sd_weight = cpumask_weight(tl_mask);
	struct sched_domain *sd = xcalloc(1, sizeof(*sd));
	unsigned int sd_id, key;

	tl->data.sd[cpu] = sd;
	sd->min_interval = sd_weight;
	sd->max_interval = 2 * sd_weight;
	sd->busy_factor = 16;
	sd->imbalance_pct = 117;
	sd->cache_nice_tries = 0;
	sd->flags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE |
		    SD_PREFER_SIBLING | tl->sd_flags;
	/*
	 * The kernel stamps jiffies at boot. A simulation starts on a machine
	 * that has been up and idle for a while, where nothing kicked a
	 * balance: every level is due at once (last balanced an hour ago).
	 */
	sd->last_balance = (unsigned long)-(3600L * 1000);
	sd->balance_interval = sd_weight;
	sd->max_newidle_lb_cost = 0;
	sd->last_decay_max_lb_cost = 0;
	/*
	 * v6.19 sd_init() starts the newidle statistics at a 50% success
	 * ratio (33cf66d88306, "sched/fair: Proportional newidle balance")
	 */
	sd->newidle_call = 512;
	sd->newidle_success = 256;
	sd->newidle_ratio = 512;
	sd->child = child;
	sd->name = tl->name;

	/*
	 * NUMA-distance levels: spans of nodes with equal masks are equal.
	 * Other levels partition the CPUs (topology_span_sane() checks that
	 * before any group is built), so the first CPU names the span.
	 */
	sd_id = cpumask_first_and(sdt.cpu_map, tl_mask);
	key = tl->mask == sd_numa_mask ? sdt.numa_key[tl->numa_level][sdt.t->cpus[cpu].node] :
					 sd_id;
	tl->data.key[cpu] = key;
	sd->span = tl->data.span[key];
	/*
	 * A span not holding @cpu means the level does not partition the CPUs:
	 * give the domain a span of its own, and topology_span_sane() refuses
	 * the machine once every domain is built, as before the sharing.
	 */
	if (!sd->span || !cpumask_test_cpu(cpu, sd->span)) {
		struct cpumask *span = sd_alloc_mask();

		cpumask_and(span, sdt.cpu_map, tl_mask);
		if (!tl->data.span[key])
			tl->data.span[key] = span;
		sd->span = span;
	}

	sd->flags |= asym_cpu_capacity_classify(sd->span);

	/* topology into behaviour: don't spread across CPUs of different capacity */
	if ((sd->flags & SD_ASYM_CPUCAPACITY) && sd->child)
		sd->child->flags &= ~SD_PREFER_SIBLING;

	if (sd->flags & SD_SHARE_CPUCAPACITY) {
		sd->imbalance_pct = 110;
	} else if (sd->flags & SD_SHARE_LLC) {
		sd->imbalance_pct = 117;
		sd->cache_nice_tries = 1;
	} else if (sd->flags & SD_NUMA) {
		sd->cache_nice_tries = 2;
		sd->flags &= ~SD_PREFER_SIBLING;
		sd->flags |= SD_SERIALIZE;
		if (sched_domains_numa_distance[tl->numa_level] > sdt.node_reclaim_distance)
			sd->flags &= ~(SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE);
	} else {
		sd->cache_nice_tries = 1;
	}

	/* every cache-sharing level gets the LLC's shared state */
	if (sd->flags & SD_SHARE_LLC) {
		sd->shared = sdd_sds(&tl->data, sd_id);
		sd->shared->ref++;
		sd->shared->nr_busy_cpus = (int)sd_weight;
		/*
		 * The kernel starts at 0 and learns the value at the LLC's
		 * first periodic balance; a simulation starts on a machine
		 * that has been up and idle, whose LLC may be scanned whole.
		 */
		sd->shared->nr_idle_scan = (int)sd_weight;
	}
	return sd;
}

static int build_sched_domain(struct sd_topology_level *tl, struct sched_domain *child,
			      unsigned int cpu, struct sched_domain **out, char *err, size_t errlen)
{
	struct sched_domain *sd = sd_init(tl, child, cpu);

	*out = sd;
	if (!child)
		return 0;
	sd->level = child->level + 1;
	if (sd->level > sched_domain_level_max)
		sched_domain_level_max = sd->level;
	child->parent = sd;
	if (!cpumask_subset(child->span, sd->span)) {
		/* the kernel complains "arch topology borken" and widens @sd */
		snprintf(err, errlen,
			 "machine '%s': CPU %u: the %s domain is not a subset of the %s domain",
			 sdt.t->name, cpu, child->name, sd->name);
		return -1;
	}
	return 0;
}

/*
 * topology_span_sane(): on a non-NUMA level two CPUs' spans are either
 * equal or disjoint, or the shared groups would be linked inconsistently.
 */
static int topology_span_sane(char *err, size_t errlen)
{
	struct cpumask *covered = sdt.tmpmask, *id_seen = sdt.tmpmask2;

	for (int l = 0; l < sdt.nr_tl; l++) {
		struct sd_topology_level *tl = &sdt.tl[l];
		unsigned int cpu;

		if (tl->sd_flags & SD_NUMA)
			continue;
		cpumask_clear(covered);
		cpumask_clear(id_seen);
		for_each_cpu(cpu, sdt.cpu_map) {
			const struct cpumask *m = tl->mask(tl, cpu);
			unsigned int id = cpumask_first(m);

			if (cpumask_test_cpu(id, id_seen)) {
				if (cpumask_equal(tl->mask(tl, id), m))
					continue;
			} else if (!cpumask_intersects(m, covered)) {
				cpumask_or(covered, covered, m);
				cpumask_set_cpu(id, id_seen);
				continue;
			}
			snprintf(err, errlen,
				 "machine '%s': the %s spans of CPU %u and CPU %u overlap "
				 "partially",
				 sdt.t->name, tl->name, cpu, id);
			return -1;
		}
	}
	return 0;
}

/* ---- groups of ordinary levels (build_sched_groups) ---- */

/*
 * The group of @cpu's domain at this level that stands for @cpu's child
 * domain: one per child span, shared by every CPU whose domain covers it.
 */
static struct sched_group *get_group(unsigned int cpu, struct sd_data *sdd)
{
	struct sched_domain *sd = sdd->sd[cpu];
	struct sched_domain *child = sd->child;
	struct sched_group *sg;
	bool already_visited;

	if (child)
		cpu = cpumask_first(child->span);
	sg = sdd_sg(sdd, cpu);
	sg->sgc = sdd_sgc(sdd, cpu);
	already_visited = ++sg->ref > 1;
	sg->sgc->ref++;
	if (already_visited)
		return sg;

	/* the span is the child's (or the CPU's); so is the balance mask */
	if (child) {
		sg->cpumask = child->span;
		sg->flags = child->flags;
	} else {
		sg->cpumask = cpumask_of(cpu);
	}
	sg->sgc->cpumask = sg->cpumask;
	sg->sgc->capacity = SCHED_CAPACITY_SCALE * cpumask_weight(sg->cpumask);
	sg->sgc->min_capacity = SCHED_CAPACITY_SCALE;
	sg->sgc->max_capacity = SCHED_CAPACITY_SCALE;
	return sg;
}

/*
 * The circular list of @sd's groups, starting with the one holding @cpu
 * and going round the span from @cpu: each CPU's list is the same cycle.
 */
static void build_sched_groups(struct sched_domain *sd, unsigned int cpu)
{
	struct sd_data *sdd = &sd_tl(sd)->data;
	struct cpumask *covered = sdt.tmpmask;
	struct sched_group *first = NULL, *last = NULL;
	unsigned int i;

	cpumask_clear(covered);
	for_each_uncovered_cpu_wrap(i, sd->span, covered, cpu) {
		struct sched_group *sg;

		sg = get_group(i, sdd);
		cpumask_or(covered, covered, sg->cpumask);
		if (!first)
			first = sg;
		if (last)
			last->next = sg;
		last = sg;
	}
	last->next = first;
	sd->groups = first;
}

/* ---- overlapping groups of NUMA levels (build_overlap_sched_groups) ---- */

/*
 * The balance mask of a group built from @sd's child: the CPUs of the group
 * whose own domain at @sd's level has exactly the group as its child, i.e.
 * the CPUs that would arrive at this group when they balance.
 */
static void build_balance_mask(struct sched_domain *sd, unsigned int owner,
			       const struct sched_group *sg, struct cpumask *mask)
{
	struct sd_data *sdd = &sd_tl(sd)->data;
	const unsigned int *child_keys;
	unsigned int i, key;

	cpumask_clear(mask);
	if (!sd->child)
		return;
	/*
	 * sg is @sd's child's span. A CPU whose domain at @sd's level exists
	 * has a child too (every CPU builds its levels from the bottom): it
	 * arrives here if that child's span, one level down, is sg's.
	 */
	child_keys = sdt.tl[sd->level - 1].data.key;
	key = child_keys[owner];
	for_each_cpu(i, sg->cpumask) {
		/* unbuilt: asymmetric topologies end some CPUs' trees early */
		if (!sdd->sd[i])
			continue;
		if (child_keys[i] != key)
			continue;
		cpumask_set_cpu(i, mask);
	}
}

static struct sched_group *build_group_from_child_sched_domain(struct sched_domain *sd)
{
	struct sched_group *sg = xcalloc(1, sizeof(*sg));

	/* the kernel copies the span into the group; the span is shared here */
	if (sd->child) {
		sg->cpumask = sd->child->span;
		sg->flags = sd->child->flags;
	} else {
		sg->cpumask = sd->span;
	}
	sg->ref = 1;
	if (sdt.nr_overlap_sg == sdt.cap_overlap_sg) {
		sdt.cap_overlap_sg = sdt.cap_overlap_sg ? 2 * sdt.cap_overlap_sg : 64;
		sdt.overlap_sg =
			xreallocarray(sdt.overlap_sg, sdt.cap_overlap_sg, sizeof(*sdt.overlap_sg));
	}
	sdt.overlap_sg[sdt.nr_overlap_sg++] = sg;
	return sg;
}

/*
 * The group's capacity is shared with every identical group: it belongs to
 * the first CPU of the balance mask, at the level of @sd.
 */
static void init_overlap_sched_group(struct sched_domain *sd, unsigned int owner,
				     struct sched_group *sg)
{
	struct sd_data *sdd = &sd_tl(sd)->data;
	struct sched_group_capacity **known = NULL;
	struct cpumask *mask = sdt.tmpmask2;
	unsigned int cpu;

	/*
	 * Every CPU builds its own copy of a group, but the balance mask
	 * (and so the capacity) depends only on the level and the child span
	 * the group stands for: work it out for the first copy only. The
	 * kernel walks the group's span for each copy, O(n^2) at boot.
	 */
	if (sd->child && sdd->overlap_sgc) {
		known = &sdd->overlap_sgc[sdt.tl[sd->level - 1].data.key[owner]];
		if (*known) {
			sg->sgc = *known;
			goto found;
		}
	}
	build_balance_mask(sd, owner, sg, mask);
	cpu = cpumask_first(mask);
	if (cpu >= nr_cpu_ids)		/* the kernel warns; cannot happen on sane tables */
		cpu = cpumask_first(sg->cpumask);
	sg->sgc = sdd_sgc(sdd, cpu);
	if (known)
		*known = sg->sgc;
	if (!sg->sgc->cpumask) {
		struct cpumask *balance = sd_alloc_mask();

		cpumask_copy(balance, mask);
		sg->sgc->cpumask = balance;
	}
found:
	++sg->sgc->ref;
	/* until the first update_group_capacity(): never a division by zero */
	sg->sgc->capacity = SCHED_CAPACITY_SCALE * cpumask_weight(sg->cpumask);
	sg->sgc->min_capacity = SCHED_CAPACITY_SCALE;
	sg->sgc->max_capacity = SCHED_CAPACITY_SCALE;
}

/*
 * On NUMA diameters of 3 and more a sibling's child can reach outside @sd:
 * go down to the sibling's descendant whose child fits, skipping domains
 * that will collapse (same span as their child).
 */
static struct sched_domain *find_descended_sibling(struct sched_domain *sd,
						   struct sched_domain *sibling)
{
	while (sibling->child && !cpumask_subset(sibling->child->span, sd->span))
		sibling = sibling->child;
	while (sibling->child && cpumask_equal(sibling->child->span, sibling->span))
		sibling = sibling->child;
	return sibling;
}

/*
 * Groups of a NUMA level, per CPU: going round the span from @cpu, each
 * CPU not yet covered contributes its own child domain at this level as a
 * group. Groups may overlap; only enough are built to cover the span.
 */
static void build_overlap_sched_groups(struct sched_domain *sd, unsigned int cpu)
{
	struct sd_data *sdd = &sd_tl(sd)->data;
	struct cpumask *covered = sdt.tmpmask;
	struct sched_group *first = NULL, *last = NULL;
	unsigned int i;

	cpumask_clear(covered);
	for_each_uncovered_cpu_wrap(i, sd->span, covered, cpu) {
		struct sched_domain *sibling;
		struct sched_group *sg;

		sibling = sdd->sd[i];
		/* asymmetric topologies: @i's tree may already have ended */
		if (!sibling || !cpumask_test_cpu(i, sibling->span))
			continue;
		if (sibling->child && !cpumask_subset(sibling->child->span, sd->span))
			sibling = find_descended_sibling(sd, sibling);

		sg = build_group_from_child_sched_domain(sibling);
		cpumask_or(covered, covered, sg->cpumask);
		/* @sibling is @i's domain, at this level or (descended) below */
		init_overlap_sched_group(sibling, i, sg);

		if (!first)
			first = sg;
		if (last)
			last->next = sg;
		last = sg;
		last->next = first;
	}
	sd->groups = first;
}

/* ---- NUMA imbalance allowance ---- */

/*
 * imb_numa_nr: on the first level above the LLC, 1/8 of the span for one
 * LLC per node, else the number of LLCs (at least 1); above, that times
 * how many first-NUMA-domain spans the domain holds.
 */
static void set_imb_numa_nr(unsigned int cpu)
{
	unsigned int imb = 0, imb_span = 1;

	for (struct sched_domain *sd = sdt.base[cpu]; sd; sd = sd->parent) {
		struct sched_domain *child = sd->child;

		if (!(sd->flags & SD_SHARE_LLC) && child && (child->flags & SD_SHARE_LLC)) {
			struct sched_domain *top_p;
			unsigned int nr_llcs = sd->span_weight / child->span_weight;

			imb = nr_llcs == 1 ? sd->span_weight >> 3 : nr_llcs;
			imb = max(1U, imb);
			sd->imb_numa_nr = imb;

			for (top_p = sd->parent; top_p && !(top_p->flags & SD_NUMA);
			     top_p = top_p->parent)
				;
			imb_span = top_p ? top_p->span_weight : sd->span_weight;
		} else {
			unsigned int factor = max(1U, sd->span_weight / imb_span);

			sd->imb_numa_nr = imb * factor;
		}
	}
}

/* ---- group capacities (init_sched_groups_capacity) ---- */

/*
 * update_group_capacity() as it runs at build time, on the local group of
 * the CPU that balances for it: no RT/DL/IRQ pressure yet, so a CPU's
 * capacity is arch_scale_cpu_capacity(); a group's is the sum of its child
 * groups' (NUMA children: of rq->cpu_capacity over the span, which is the
 * boot value 1024 for CPUs not yet visited, as in the kernel).
 */
static void update_group_capacity_init(struct sched_domain *sd, unsigned int cpu)
{
	struct sched_domain *child = sd->child;
	struct sched_group *group, *sdg = sd->groups;
	unsigned long capacity = 0, min_capacity = ~0UL, max_capacity = 0;
	unsigned long interval, max_interval;
	unsigned int i;

	max_interval = (sysctl_sched.hz ? sysctl_sched.hz : sdt.t->hz) * sdt.nr_cpus / 10;
	interval = clamp(msecs_to_jiffies(sd->balance_interval), 1UL, max(1UL, max_interval));
	sdg->sgc->next_update = interval;	/* jiffies at boot are 0 */

	if (!child) {
		capacity = sdt.t->cpus[cpu].capacity;
		if (!capacity)
			capacity = 1;
		sdt.cpu_capacity[cpu] = capacity;
		sdg->sgc->capacity = capacity;
		sdg->sgc->min_capacity = capacity;
		sdg->sgc->max_capacity = capacity;
		return;
	}

	if (child->flags & SD_NUMA) {
		for_each_cpu(i, sdg->cpumask) {
			unsigned long cap = sdt.cpu_capacity[i];

			capacity += cap;
			min_capacity = min(cap, min_capacity);
			max_capacity = max(cap, max_capacity);
		}
	} else {
		group = child->groups;
		do {
			struct sched_group_capacity *sgc = group->sgc;

			capacity += sgc->capacity;
			min_capacity = min(sgc->min_capacity, min_capacity);
			max_capacity = max(sgc->max_capacity, max_capacity);
			group = group->next;
		} while (group != child->groups);
	}
	sdg->sgc->capacity = capacity;
	sdg->sgc->min_capacity = min_capacity;
	sdg->sgc->max_capacity = max_capacity;
}

static void init_sched_groups_capacity(unsigned int cpu, struct sched_domain *sd)
{
	struct sched_group *sg = sd->groups;

	do {
		sg->group_weight = cpumask_weight(sg->cpumask);
		/*
		 * Cores: the kernel walks the span dropping each CPU's SMT
		 * siblings. A group is one CPU or a domain's span, which is
		 * made of whole cores, so counting first threads is the same.
		 */
		sg->cores = sg->group_weight == 1 ? 1 :
			cpumask_weight_and(sg->cpumask, sdt.core_leaders);
		/* the group's most preferred CPU, the first of the highest priority */
		if (sd->flags & SD_ASYM_PACKING) {
			int max_cpu = -1;
			unsigned int i;

			for_each_cpu(i, sg->cpumask)
				if (max_cpu < 0 || topology_asym_prio(sdt.t, i) >
							   topology_asym_prio(sdt.t, (unsigned int)max_cpu))
					max_cpu = (int)i;
			sg->asym_prefer_cpu = max_cpu;
		}
		sg = sg->next;
	} while (sg != sd->groups);

	if (cpu != group_balance_cpu(sg))
		return;
	update_group_capacity_init(sd, cpu);
}

/* ---- attaching: degenerate domains, per-CPU shortcuts ---- */

/* A domain that does nothing: one CPU, or one group and no group-free flag. */
static bool sd_degenerate(const struct sched_domain *sd)
{
	if (cpumask_weight(sd->span) == 1)
		return true;
	/* these flags need at least two groups */
	if ((sd->flags & SD_DEGENERATE_GROUPS_MASK) && sd->groups != sd->groups->next)
		return false;
	/* these don't use groups */
	if (sd->flags & SD_WAKE_AFFINE)
		return false;
	return true;
}

/* @parent adds nothing to @sd: degenerate itself, or same span and no new flag. */
static bool sd_parent_degenerate(const struct sched_domain *sd, const struct sched_domain *parent)
{
	int cflags = sd->flags, pflags = parent->flags;

	if (sd_degenerate(parent))
		return true;
	if (!cpumask_equal(sd->span, parent->span))
		return false;
	/* flags needing groups don't count in a parent with one group */
	if (parent->groups == parent->groups->next)
		pflags &= ~SD_DEGENERATE_GROUPS_MASK;
	if (~cflags & pflags)
		return false;
	return true;
}

struct sched_domain *highest_flag_domain(unsigned int cpu, int flag)
{
	struct sched_domain *sd, *hsd = NULL;

	for_each_domain(cpu, sd) {
		if (sd->flags & flag) {
			hsd = sd;
			continue;
		}
		/* a flag shared from the bottom up is not found further up */
		if (flag & SD_SHARED_CHILD_MASK)
			break;
	}
	return hsd;
}

struct sched_domain *lowest_flag_domain(unsigned int cpu, int flag)
{
	struct sched_domain *sd;

	for_each_domain(cpu, sd)
		if (sd->flags & flag)
			break;
	return sd;
}

static void update_top_cache_domain(unsigned int cpu)
{
	struct sched_domain_shared *sds = NULL;
	struct sched_domain *sd;
	int id = (int)cpu, size = 1;

	sd = highest_flag_domain(cpu, SD_SHARE_LLC);
	if (sd) {
		id = (int)cpumask_first(sd->span);
		size = (int)cpumask_weight(sd->span);
		sds = sd->shared;
	}
	sd_llc[cpu] = sd;
	sd_llc_size[cpu] = size;
	sd_llc_id[cpu] = id;
	sd_llc_shared[cpu] = sds;

	/* the cluster's first CPU on cluster machines, else the LLC's */
	sd = lowest_flag_domain(cpu, SD_CLUSTER);
	if (sd)
		id = (int)cpumask_first(sd->span);
	sd_share_id[cpu] = id;

	sd_numa[cpu] = lowest_flag_domain(cpu, SD_NUMA);
	sd_asym_packing[cpu] = highest_flag_domain(cpu, SD_ASYM_PACKING);
	sd_asym_cpucapacity[cpu] = lowest_flag_domain(cpu, SD_ASYM_CPUCAPACITY_FULL);
}

/*
 * cpu_attach_domain(): drop parents that add nothing (passing
 * SD_PREFER_SIBLING down), then the base domain if it is degenerate, and
 * make what is left the CPU's domain tree. Dropped domains stay allocated
 * until free_sched_domains(), unlinked.
 */
static void cpu_attach_domain(struct sched_domain *sd, unsigned int cpu)
{
	struct sched_domain *tmp;

	for (tmp = sd; tmp;) {
		struct sched_domain *parent = tmp->parent;

		if (!parent)
			break;
		if (sd_parent_degenerate(tmp, parent)) {
			tmp->parent = parent->parent;
			if (parent->parent) {
				parent->parent->child = tmp;
				/* groups hold their child's flags: only the first is updated */
				parent->parent->groups->flags = tmp->flags;
			}
			/* same span: the property transfers */
			if (parent->flags & SD_PREFER_SIBLING)
				tmp->flags |= SD_PREFER_SIBLING;
		} else {
			tmp = tmp->parent;
		}
	}

	if (sd && sd_degenerate(sd)) {
		sd = sd->parent;
		if (sd) {
			/*
			 * The groups held the dropped child's flags. The kernel's
			 * loop clears only the first group (it never advances);
			 * every group is some CPU's first, so all end up clear.
			 */
			sd->groups->flags = 0;
			sd->child = NULL;
		}
	}
	sched_domains_rq_sd[cpu] = sd;
	update_top_cache_domain(cpu);
}

/* ---- build and free ---- */

static void alloc_percpu_state(void)
{
	unsigned int n = sdt.nr_cpus;

	sched_domains_rq_sd = xcalloc(n, sizeof(*sched_domains_rq_sd));
	sd_llc = xcalloc(n, sizeof(*sd_llc));
	sd_llc_size = xcalloc(n, sizeof(*sd_llc_size));
	sd_llc_id = xcalloc(n, sizeof(*sd_llc_id));
	sd_share_id = xcalloc(n, sizeof(*sd_share_id));
	sd_llc_shared = xcalloc(n, sizeof(*sd_llc_shared));
	sd_numa = xcalloc(n, sizeof(*sd_numa));
	sd_asym_packing = xcalloc(n, sizeof(*sd_asym_packing));
	sd_asym_cpucapacity = xcalloc(n, sizeof(*sd_asym_cpucapacity));
	sdt.base = xcalloc(n, sizeof(*sdt.base));
	sdt.cpu_capacity = xcalloc(n, sizeof(*sdt.cpu_capacity));
	for (unsigned int cpu = 0; cpu < n; cpu++)
		sdt.cpu_capacity[cpu] = SCHED_CAPACITY_SCALE;	/* sched_init() */
}

static void init_root_domain(void)
{
	struct root_domain *rd = &sdt.rd;

	rd->span = alloc_cpumask();
	rd->online = alloc_cpumask();
	cpumask_copy(rd->span, sdt.cpu_map);
	cpumask_copy(rd->online, sdt.cpu_map);
	rd->overloaded = false;
	rd->overutilized = false;
	rd->max_cpu_capacity = 0;
	for (unsigned int cpu = 0; cpu < sdt.nr_cpus; cpu++)
		rd->max_cpu_capacity = max(rd->max_cpu_capacity, sdt.t->cpus[cpu].capacity);
	rd->rto_mask = alloc_cpumask();
	rd->dlo_mask = alloc_cpumask();
	rd->dlo_count = 0;
	rd->cpudl = cpudl_alloc(sdt.nr_cpus);
	rd->rto_push = rto_push_alloc();
	rd->rto_count = 0;
	/* cpupri_init() and rq_online_rt(): every CPU at CPUPRI_NORMAL (0) */
	rd->cpupri = xcalloc(sdt.nr_cpus, sizeof(*rd->cpupri));
}

int build_sched_domains(const struct topology *t, char *err, size_t errlen)
{
	unsigned int i;
	bool has_asym = false, has_cluster = false;

	free_sched_domains();
	if (t->nr_cpus != nr_cpu_ids) {
		snprintf(err, errlen, "machine '%s': cpumasks are set up for %u CPUs, not %u",
			 t->name, nr_cpu_ids, t->nr_cpus);
		return -1;
	}
	sdt.t = t;
	sdt.nr_cpus = t->nr_cpus;
	sdt.nr_nodes = t->nr_nodes;
	sdt.node_reclaim_distance =
		t->node_reclaim_distance ? t->node_reclaim_distance : RECLAIM_DISTANCE;
	sdt.cpu_map = alloc_cpumask();
	cpumask_copy(sdt.cpu_map, t->all);
	sdt.tmpmask = alloc_cpumask();
	sdt.tmpmask2 = alloc_cpumask();
	sched_domain_level_max = 0;
	sdt.built = true;	/* from here on, free_sched_domains() cleans up */

	if (sched_init_numa(err, errlen))
		goto fail;
	init_numa_topology_type();
	setup_cls_masks();
	setup_levels();
	asym_cpu_capacity_scan();
	alloc_percpu_state();
	init_root_domain();

	/* the domains of every CPU, bottom-up until one spans the machine */
	for_each_cpu(i, sdt.cpu_map) {
		struct sched_domain *sd = NULL;

		for (int l = 0; l < sdt.nr_tl; l++) {
			if (build_sched_domain(&sdt.tl[l], sd, i, &sd, err, errlen))
				goto fail;
			has_asym |= sd->flags & SD_ASYM_CPUCAPACITY;
			if (l == 0)
				sdt.base[i] = sd;
			if (cpumask_equal(sdt.cpu_map, sd->span))
				break;
		}
	}

	if (topology_span_sane(err, errlen))
		goto fail;

	/* the groups of every domain */
	for_each_cpu(i, sdt.cpu_map) {
		for (struct sched_domain *sd = sdt.base[i]; sd; sd = sd->parent) {
			sd->span_weight = cpumask_weight(sd->span);
			if (sd->flags & SD_NUMA)
				build_overlap_sched_groups(sd, i);
			else
				build_sched_groups(sd, i);
		}
	}

	for_each_cpu(i, sdt.cpu_map)
		set_imb_numa_nr(i);

	/* capacities: from the last CPU down, so child groups are done first */
	for (i = sdt.nr_cpus; i-- > 0;) {
		if (!cpumask_test_cpu(i, sdt.cpu_map))
			continue;
		for (struct sched_domain *sd = sdt.base[i]; sd; sd = sd->parent)
			init_sched_groups_capacity(i, sd);
	}

	for_each_cpu(i, sdt.cpu_map) {
		cpu_attach_domain(sdt.base[i], i);
		if (lowest_flag_domain(i, SD_CLUSTER))
			has_cluster = true;
	}
	sched_asym_cpucapacity = has_asym;
	sched_cluster_active = has_cluster;
	return 0;

fail:
	free_sched_domains();
	return -1;
}


void free_sched_domains(void)
{
	if (!sdt.built)
		return;
	for (int l = 0; l < sdt.nr_tl; l++) {
		struct sd_data *sdd = &sdt.tl[l].data;

		/* the masks they point to are in sdt.masks */
		for (unsigned int cpu = 0; cpu < sdt.nr_cpus; cpu++) {
			free(sdd->sd[cpu]);
			free(sdd->sds[cpu]);
			free(sdd->sg[cpu]);
			free(sdd->sgc[cpu]);
		}
		free(sdd->sd);
		free(sdd->sds);
		free(sdd->sg);
		free(sdd->sgc);
		free(sdd->key);
		free(sdd->span);
		free(sdd->overlap_sgc);
	}
	free(sdt.tl);
	for (size_t k = 0; k < sdt.nr_overlap_sg; k++)
		free(sdt.overlap_sg[k]);
	free(sdt.overlap_sg);
	for (size_t k = 0; k < sdt.nr_masks; k++)
		free_cpumask(sdt.masks[k]);
	free(sdt.masks);
	free(sdt.cls_mask);
	free_cpumask(sdt.core_leaders);
	for (unsigned int k = 0; k < sdt.nr_asym_caps; k++)
		free_cpumask(sdt.asym_caps[k].span);
	free(sdt.asym_caps);
	free_numa();
	free_cpumask(sdt.rd.span);
	free_cpumask(sdt.rd.online);
	free(sdt.rd.cpupri);
	free_cpumask(sdt.rd.rto_mask);
	sdt.rd.rto_mask = NULL;
	free_cpumask(sdt.rd.dlo_mask);
	sdt.rd.dlo_mask = NULL;
	cpudl_free(sdt.rd.cpudl);
	sdt.rd.cpudl = NULL;
	rto_push_free(sdt.rd.rto_push);
	sdt.rd.rto_push = NULL;
	sdt.rd.cpupri = NULL;
	free_cpumask(sdt.cpu_map);
	free_cpumask(sdt.tmpmask);
	free_cpumask(sdt.tmpmask2);
	free(sdt.base);
	free(sdt.cpu_capacity);

	free(sched_domains_rq_sd);
	free(sd_llc);
	free(sd_llc_size);
	free(sd_llc_id);
	free(sd_share_id);
	free(sd_llc_shared);
	free(sd_numa);
	free(sd_asym_packing);
	free(sd_asym_cpucapacity);
	sched_domains_rq_sd = NULL;
	sd_llc = NULL;
	sd_llc_size = NULL;
	sd_llc_id = NULL;
	sd_share_id = NULL;
	sd_llc_shared = NULL;
	sd_numa = NULL;
	sd_asym_packing = NULL;
	sd_asym_cpucapacity = NULL;
	sched_asym_cpucapacity = false;
	sched_cluster_active = false;
	sched_domain_level_max = 0;
	memset(&sdt, 0, sizeof(sdt));
}

const struct topology *sched_domains_topology(void)
{
	return sdt.built ? sdt.t : NULL;
}

struct root_domain *cpu_rd(unsigned int cpu)
{
	(void)cpu;
	return sdt.built ? &sdt.rd : NULL;
}

bool cpus_share_cache(unsigned int this_cpu, unsigned int that_cpu)
{
	if (this_cpu == that_cpu)
		return true;
	return sd_llc_id && sd_llc_id[this_cpu] == sd_llc_id[that_cpu];
}

bool cpus_share_resources(unsigned int this_cpu, unsigned int that_cpu)
{
	if (this_cpu == that_cpu)
		return true;
	return sd_share_id && sd_share_id[this_cpu] == sd_share_id[that_cpu];
}
