// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sched domains (src/kernel/domains.c): for every preset the chain of
 * levels of the first and the last CPU with spans, groups and flags as
 * Linux v6.18 builds them on that machine (worked out in the comments and
 * in docs/domains.md), structural invariants for every CPU of every
 * preset, degenerate levels, and NUMA levels on constructed distance
 * tables where groups overlap (the kernel's own examples in topology.c).
 */
#include "test_util.h"

#include "kernel/domains.h"
#include "topo/topology.h"

#include <stdlib.h>

static const char *list_of(const struct cpumask *m)
{
	static char buf[8][1024];
	static unsigned int next;
	char *b = buf[next++ % 8];

	cpumask_print_list(b, sizeof(buf[0]), m);
	return b;
}

static struct topology *load(const char *name)
{
	char err[512];
	struct topology *t = topology_load(name, err, sizeof(err));

	if (!t)
		fail_msg("loading '%s': %s", name, err);
	return t;
}

static void build(const struct topology *t)
{
	char err[512] = "";

	if (build_sched_domains(t, err, sizeof(err)))
		fail_msg("building domains of '%s': %s", t->name, err);
}

static struct sched_domain *domain_at(unsigned int cpu, int index)
{
	struct sched_domain *sd;

	for_each_domain(cpu, sd)
		if (index-- == 0)
			return sd;
	return NULL;
}

static int nr_domains(unsigned int cpu)
{
	struct sched_domain *sd;
	int n = 0;

	for_each_domain(cpu, sd)
		n++;
	return n;
}

static int nr_groups(const struct sched_domain *sd)
{
	const struct sched_group *sg = sd->groups;
	int n = 0;

	do {
		n++;
		sg = sg->next;
	} while (sg != sd->groups);
	return n;
}

/* The group spans in list order, "a|b|c", at most @max of them. */
static const char *group_spans(const struct sched_domain *sd, int max)
{
	static char buf[4096];
	const struct sched_group *sg = sd->groups;
	size_t n = 0;

	buf[0] = '\0';
	do {
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? "|" : "",
				      list_of(sched_group_span(sg)));
		sg = sg->next;
	} while (sg != sd->groups && --max > 0 && n < sizeof(buf));
	return buf;
}

/* ---- every preset: CPU 0 and the last CPU ---- */

struct level_expect {
	const char *name;
	const char *span;
	int nr_groups;
	const char *groups;	/* the first groups' spans, in list order */
	int flags;		/* flags that must be set */
	int no_flags;		/* flags that must be clear */
};

#define LLC_FLAGS (SD_SHARE_LLC | SD_BALANCE_NEWIDLE | SD_WAKE_AFFINE)
#define SMT_FLAGS (SD_SHARE_CPUCAPACITY | LLC_FLAGS | SD_PREFER_SIBLING)
#define NOT_SMT (SD_NUMA | SD_SERIALIZE | SD_ASYM_CPUCAPACITY | SD_CLUSTER)
#define NOT_MC (NOT_SMT | SD_SHARE_CPUCAPACITY)
#define MC_FLAGS (LLC_FLAGS | SD_PREFER_SIBLING)
#define PKG_FLAGS (SD_BALANCE_NEWIDLE | SD_WAKE_AFFINE | SD_PREFER_SIBLING)
#define NOT_LLC (SD_SHARE_LLC | SD_SHARE_CPUCAPACITY | SD_NUMA | SD_SERIALIZE)
#define NUMA_FLAGS (SD_NUMA | SD_SERIALIZE | SD_BALANCE_NEWIDLE | SD_WAKE_AFFINE)
#define NOT_NUMA (SD_SHARE_LLC | SD_SHARE_CPUCAPACITY | SD_PREFER_SIBLING)

struct chain_expect {
	const char *machine;
	unsigned int cpu;
	int llc_size, llc_id;
	int nr_levels;
	struct level_expect l[6];
};

/*
 * x86 numbering: thread 1 of core c is CPU c + nr_cores. The SMT level
 * groups single CPUs, MC groups the cores of the LLC, PKG the LLCs of the
 * node, NUMA the nodes within each distance. PKG collapses into MC where
 * the LLC is the whole node; NODE always collapses into PKG.
 */
static const struct chain_expect chains[] = {
	{ "smp1", 0, 1, 0, 0, { { 0 } } },
	{ "smp2", 0, 2, 0, 1, { { "MC", "0-1", 2, "0|1", MC_FLAGS, NOT_LLC & ~SD_SHARE_LLC } } },
	{ "smp2", 1, 2, 0, 1, { { "MC", "0-1", 2, "1|0", MC_FLAGS, 0 } } },
	{ "smp4", 0, 4, 0, 1, { { "MC", "0-3", 4, "0|1|2|3", MC_FLAGS, SD_SHARE_CPUCAPACITY } } },
	{ "smp4", 3, 4, 0, 1, { { "MC", "0-3", 4, "3|0|1|2", MC_FLAGS, SD_SHARE_CPUCAPACITY } } },
	{ "smt2-2s-16", 0, 8, 0, 3,
	  { { "SMT", "0,8", 2, "0|8", SMT_FLAGS, NOT_SMT },
	    { "MC", "0-3,8-11", 4, "0,8|1,9|2,10|3,11", MC_FLAGS, NOT_MC },
	    { "NUMA", "0-15", 2, "0-3,8-11|4-7,12-15", NUMA_FLAGS, NOT_NUMA } } },
	{ "smt2-2s-16", 15, 8, 4, 3,
	  { { "SMT", "7,15", 2, "15|7", SMT_FLAGS, NOT_SMT },
	    { "MC", "4-7,12-15", 4, "7,15|4,12|5,13|6,14", MC_FLAGS, NOT_MC },
	    { "NUMA", "0-15", 2, "4-7,12-15|0-3,8-11", NUMA_FLAGS, NOT_NUMA } } },
	/* SMT4 halves interleave inside each SMT8 big core; the LLC is the big core */
	{ "power10-96", 0, 8, 0, 3,
	  { { "SMT", "0,2,4,6", 4, "0|2|4|6", SMT_FLAGS, NOT_SMT },
	    { "MC", "0-7", 2, "0,2,4,6|1,3,5,7", MC_FLAGS, NOT_MC },
	    { "PKG", "0-95", 12, "0-7|8-15|16-23", PKG_FLAGS, NOT_LLC } } },
	{ "power10-96", 95, 8, 88, 3,
	  { { "SMT", "89,91,93,95", 4, "95|89|91|93", SMT_FLAGS, NOT_SMT },
	    { "MC", "88-95", 2, "89,91,93,95|88,90,92,94", MC_FLAGS, NOT_MC },
	    { "PKG", "0-95", 12, "88-95|0-7|8-15", PKG_FLAGS, NOT_LLC } } },
	{ "xeon-8269cy-2s", 0, 52, 0, 3,
	  { { "SMT", "0,52", 2, "0|52", SMT_FLAGS, NOT_SMT },
	    { "MC", "0-25,52-77", 26, "0,52|1,53|2,54", MC_FLAGS, NOT_MC },
	    { "NUMA", "0-103", 2, "0-25,52-77|26-51,78-103", NUMA_FLAGS, NOT_NUMA } } },
	{ "xeon-8269cy-2s", 103, 52, 26, 3,
	  { { "SMT", "51,103", 2, "103|51", SMT_FLAGS, NOT_SMT },
	    { "MC", "26-51,78-103", 26, "51,103|26,78|27,79", MC_FLAGS, NOT_MC },
	    { "NUMA", "0-103", 2, "26-51,78-103|0-25,52-77", NUMA_FLAGS, NOT_NUMA } } },
	/* sd_llc is the 2-core cluster: MC (2) and PKG (80) */
	{ "altra-80", 0, 2, 0, 2,
	  { { "MC", "0-1", 2, "0|1", MC_FLAGS, NOT_MC },
	    { "PKG", "0-79", 40, "0-1|2-3|4-5", PKG_FLAGS, NOT_LLC } } },
	{ "altra-80", 79, 2, 78, 2,
	  { { "MC", "78-79", 2, "79|78", MC_FLAGS, NOT_MC },
	    { "PKG", "0-79", 40, "78-79|0-1|2-3", PKG_FLAGS, NOT_LLC } } },
	/* "sched domains = {MC, DIE, NUMA}" (the runnable-boost cover letter) */
	{ "altra-2s-160", 0, 2, 0, 3,
	  { { "MC", "0-1", 2, "0|1", MC_FLAGS, NOT_MC },
	    { "PKG", "0-79", 40, "0-1|2-3", PKG_FLAGS, NOT_LLC },
	    { "NUMA", "0-159", 2, "0-79|80-159", NUMA_FLAGS, NOT_NUMA } } },
	{ "altra-2s-160", 159, 2, 158, 3,
	  { { "MC", "158-159", 2, "159|158", MC_FLAGS, NOT_MC },
	    { "PKG", "80-159", 40, "158-159|80-81", PKG_FLAGS, NOT_LLC },
	    { "NUMA", "0-159", 2, "80-159|0-79", NUMA_FLAGS, NOT_NUMA } } },
	{ "icelake-2s-128", 0, 64, 0, 3,
	  { { "SMT", "0,64", 2, "0|64", SMT_FLAGS, NOT_SMT },
	    { "MC", "0-31,64-95", 32, "0,64|1,65", MC_FLAGS, NOT_MC },
	    { "NUMA", "0-127", 2, "0-31,64-95|32-63,96-127", NUMA_FLAGS, NOT_NUMA } } },
	{ "icelake-2s-128", 127, 64, 32, 3,
	  { { "SMT", "63,127", 2, "127|63", SMT_FLAGS, NOT_SMT },
	    { "MC", "32-63,96-127", 32, "63,127|32,96", MC_FLAGS, NOT_MC },
	    { "NUMA", "0-127", 2, "32-63,96-127|0-31,64-95", NUMA_FLAGS, NOT_NUMA } } },
	/* one CCX (8 cores) per LLC, 8 per socket; distance 32 keeps wake_affine on Zen */
	{ "epyc-milan-2s-256", 0, 16, 0, 4,
	  { { "SMT", "0,128", 2, "0|128", SMT_FLAGS, NOT_SMT },
	    { "MC", "0-7,128-135", 8, "0,128|1,129", MC_FLAGS, NOT_MC },
	    { "PKG", "0-63,128-191", 8, "0-7,128-135|8-15,136-143", PKG_FLAGS, NOT_LLC },
	    { "NUMA", "0-255", 2, "0-63,128-191|64-127,192-255",
	      NUMA_FLAGS | SD_BALANCE_FORK | SD_BALANCE_EXEC, NOT_NUMA } } },
	{ "epyc-milan-2s-256", 255, 16, 120, 4,
	  { { "SMT", "127,255", 2, "255|127", SMT_FLAGS, NOT_SMT },
	    { "MC", "120-127,248-255", 8, "127,255|120,248", MC_FLAGS, NOT_MC },
	    { "PKG", "64-127,192-255", 8, "120-127,248-255|64-71,192-199", PKG_FLAGS, NOT_LLC },
	    { "NUMA", "0-255", 2, "64-127,192-255|0-63,128-191", NUMA_FLAGS, NOT_NUMA } } },
	/* SLIT distances 12 (socket pair), 17 (quad), 19 (all): three NUMA levels */
	{ "westmere-ex-8s-160", 0, 20, 0, 5,
	  { { "SMT", "0,80", 2, "0|80", SMT_FLAGS, NOT_SMT },
	    { "MC", "0-9,80-89", 10, "0,80|1,81", MC_FLAGS, NOT_MC },
	    { "NUMA", "0-19,80-99", 2, "0-9,80-89|10-19,90-99", NUMA_FLAGS, NOT_NUMA },
	    { "NUMA", "0-39,80-119", 2, "0-19,80-99|20-39,100-119", NUMA_FLAGS, NOT_NUMA },
	    { "NUMA", "0-159", 2, "0-39,80-119|40-79,120-159", NUMA_FLAGS, NOT_NUMA } } },
	{ "westmere-ex-8s-160", 159, 20, 70, 5,
	  { { "SMT", "79,159", 2, "159|79", SMT_FLAGS, NOT_SMT },
	    { "MC", "70-79,150-159", 10, "79,159|70,150", MC_FLAGS, NOT_MC },
	    { "NUMA", "60-79,140-159", 2, "70-79,150-159|60-69,140-149", NUMA_FLAGS, NOT_NUMA },
	    { "NUMA", "40-79,120-159", 2, "60-79,140-159|40-59,120-139", NUMA_FLAGS, NOT_NUMA },
	    { "NUMA", "0-159", 2, "40-79,120-159|0-39,80-119", NUMA_FLAGS, NOT_NUMA } } },
	{ "westmere-ex-8s-80-noht", 0, 10, 0, 4,
	  { { "MC", "0-9", 10, "0|1|2", MC_FLAGS, NOT_MC },
	    { "NUMA", "0-19", 2, "0-9|10-19", NUMA_FLAGS, NOT_NUMA },
	    { "NUMA", "0-39", 2, "0-19|20-39", NUMA_FLAGS, NOT_NUMA },
	    { "NUMA", "0-79", 2, "0-39|40-79", NUMA_FLAGS, NOT_NUMA } } },
	{ "westmere-ex-8s-80-noht", 79, 10, 70, 4,
	  { { "MC", "70-79", 10, "79|70|71", MC_FLAGS, NOT_MC },
	    { "NUMA", "60-79", 2, "70-79|60-69", NUMA_FLAGS, NOT_NUMA },
	    { "NUMA", "40-79", 2, "60-79|40-59", NUMA_FLAGS, NOT_NUMA },
	    { "NUMA", "0-79", 2, "40-79|0-39", NUMA_FLAGS, NOT_NUMA } } },
	/*
	 * Three capacities (160, 498, 1024) all inside the MC level: MC gets
	 * SD_ASYM_CPUCAPACITY(_FULL) and CLS loses SD_PREFER_SIBLING.
	 */
	{ "pixel6", 0, 8, 0, 2,
	  { { "CLS", "0-3", 4, "0|1|2|3", SD_CLUSTER | LLC_FLAGS,
	      SD_PREFER_SIBLING | SD_ASYM_CPUCAPACITY | SD_SHARE_CPUCAPACITY },
	    { "MC", "0-7", 3, "0-3|4-5|6-7",
	      MC_FLAGS | SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL,
	      SD_CLUSTER | SD_SHARE_CPUCAPACITY | SD_NUMA | SD_SERIALIZE } } },
	{ "pixel6", 7, 8, 0, 2,
	  { { "CLS", "6-7", 2, "7|6", SD_CLUSTER | LLC_FLAGS, SD_PREFER_SIBLING },
	    { "MC", "0-7", 3, "6-7|0-3|4-5", MC_FLAGS | SD_ASYM_CPUCAPACITY_FULL, SD_CLUSTER } } },
	/*
	 * "an 8 CPUs system, SDs = {MC, DIE}": MC is each 4-CPU LLC, PKG
	 * (v6.9+'s name for DIE) the two of them; no SMT, no CLS (cluster = LLC).
	 */
	{ "arm64-2x4", 0, 4, 0, 2,
	  { { "MC", "0-3", 4, "0|1|2|3", MC_FLAGS, NOT_MC },
	    { "PKG", "0-7", 2, "0-3|4-7", PKG_FLAGS, NOT_LLC } } },
	{ "arm64-2x4", 7, 4, 4, 2,
	  { { "MC", "4-7", 4, "7|4|5|6", MC_FLAGS, NOT_MC },
	    { "PKG", "0-7", 2, "4-7|0-3", PKG_FLAGS, NOT_LLC } } },
};

static void check_chain(const struct chain_expect *e)
{
	struct topology *t = load(e->machine);
	unsigned int cpu = e->cpu;

	build(t);
	if (nr_domains(cpu) != e->nr_levels)
		fail_msg("%s CPU%u: %d domains, want %d", e->machine, cpu, nr_domains(cpu),
			 e->nr_levels);
	for (int i = 0; i < e->nr_levels; i++) {
		const struct level_expect *l = &e->l[i];
		struct sched_domain *sd = domain_at(cpu, i);
		const char *groups = group_spans(sd, 100000);

		if (strcmp(sd->name, l->name) || strcmp(list_of(sd->span), l->span))
			fail_msg("%s CPU%u domain-%d: %s %s, want %s %s", e->machine, cpu, i,
				 sd->name, list_of(sd->span), l->name, l->span);
		if (nr_groups(sd) != l->nr_groups)
			fail_msg("%s CPU%u domain-%d: %d groups, want %d", e->machine, cpu, i,
				 nr_groups(sd), l->nr_groups);
		if (strncmp(groups, l->groups, strlen(l->groups)) ||
		    (groups[strlen(l->groups)] && groups[strlen(l->groups)] != '|'))
			fail_msg("%s CPU%u domain-%d groups %s, want %s...", e->machine, cpu, i,
				 groups, l->groups);
		if ((sd->flags & l->flags) != l->flags || (sd->flags & l->no_flags))
			fail_msg("%s CPU%u domain-%d flags %#x: want %#x set and %#x clear",
				 e->machine, cpu, i, sd->flags, l->flags, l->no_flags);
	}
	assert_int_equal(per_cpu(sd_llc_size, cpu), e->llc_size);
	assert_int_equal(per_cpu(sd_llc_id, cpu), e->llc_id);
	free_sched_domains();
	topology_free(t);
}

static void test_preset_chains(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(chains); i++)
		check_chain(&chains[i]);
}

/* ---- invariants on every CPU of every preset ---- */

static unsigned long span_capacity(const struct topology *t, const struct cpumask *m)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_cpu(cpu, m)
		sum += t->cpus[cpu].capacity;
	return sum;
}

static void check_cpu_invariants(const struct topology *t, unsigned int cpu,
				 struct cpumask *covered)
{
	struct sched_domain *sd;
	int index = 0;

	for_each_domain(cpu, sd) {
		const struct sched_group *sg = sd->groups;
		bool numa = sd->flags & SD_NUMA;

		assert_true(cpumask_test_cpu(cpu, sd->span));
		assert_int_equal(sd->span_weight, cpumask_weight(sd->span));
		assert_int_equal(sd->min_interval, sd->span_weight);
		assert_int_equal(sd->max_interval, 2 * sd->span_weight);
		assert_int_equal(sd->balance_interval, sd->span_weight);
		assert_int_equal(sd->busy_factor, 16);
		/* sd_init(): 110 on SMT, 117 everywhere else in v6.18 */
		assert_int_equal(sd->imbalance_pct, (sd->flags & SD_SHARE_CPUCAPACITY) ? 110 : 117);
		assert_int_equal(sd->cache_nice_tries, (sd->flags & SD_SHARE_CPUCAPACITY) ? 0 :
						       numa				   ? 2 :
											     1);
		/* degenerate levels are gone: strictly growing spans, several groups */
		if (sd->parent)
			assert_true(cpumask_weight(sd->parent->span) > sd->span_weight);
		if (sd->child)
			assert_true(cpumask_subset(sd->child->span, sd->span));
		assert_true(sd->span_weight > 1);
		assert_true(sg->next != sg);
		/* flags by level */
		assert_int_equal(!!(sd->flags & SD_SHARE_CPUCAPACITY), !strcmp(sd->name, "SMT"));
		assert_int_equal(!!(sd->flags & SD_CLUSTER), !strcmp(sd->name, "CLS"));
		assert_int_equal(!!(sd->flags & SD_NUMA), !strcmp(sd->name, "NUMA"));
		assert_int_equal(!!(sd->flags & SD_SERIALIZE), numa);
		if (numa)
			assert_false(sd->flags & SD_PREFER_SIBLING);
		assert_false(sd->flags & SD_BALANCE_WAKE);
		/* ITMT's levels on an ITMT machine (ITMT leaves SMT out), else none */
		assert_int_equal(!!(sd->flags & SD_ASYM_PACKING),
				 t->asym_packing.itmt && strcmp(sd->name, "SMT") &&
					 strcmp(sd->name, "NUMA") && strcmp(sd->name, "NODE"));
		assert_int_equal(!!(sd->flags & SD_ASYM_CPUCAPACITY),
				 t->asym_capacity && !strcmp(sd->name, "MC"));
		assert_int_equal(!!(sd->shared), !!(sd->flags & SD_SHARE_LLC));

		/* groups: the first is the child (or this CPU), they cover the span */
		if (sd->child)
			assert_true(cpumask_equal(sched_group_span(sg), sd->child->span));
		else
			assert_true(cpumask_test_cpu(cpu, sched_group_span(sg)));
		cpumask_clear(covered);
		do {
			const struct cpumask *span = sched_group_span(sg);

			assert_true(cpumask_subset(span, sd->span));
			if (!numa)
				assert_false(cpumask_intersects(span, covered));
			cpumask_or(covered, covered, span);
			assert_int_equal(sg->group_weight, cpumask_weight(span));
			assert_true(cpumask_subset(group_balance_mask(sg), span));
			assert_false(cpumask_empty(group_balance_mask(sg)));
			if (!numa)
				assert_true(cpumask_equal(group_balance_mask(sg), span));
			assert_int_equal(sg->sgc->capacity, span_capacity(t, span));
			sg = sg->next;
		} while (sg != sd->groups);
		assert_true(cpumask_equal(covered, sd->span));
		index++;
	}

	/* the per-CPU shortcuts */
	sd = per_cpu(sd_llc, cpu);
	if (sd) {
		assert_int_equal(per_cpu(sd_llc_size, cpu), cpumask_weight(sd->span));
		assert_int_equal(per_cpu(sd_llc_id, cpu), cpumask_first(sd->span));
		assert_ptr_equal(per_cpu(sd_llc_shared, cpu), sd->shared);
		assert_true(cpumask_equal(sd->span, topology_llc_cpumask(t, cpu)));
		assert_true(sd->parent == NULL || !(sd->parent->flags & SD_SHARE_LLC));
	} else {
		assert_int_equal(per_cpu(sd_llc_size, cpu), 1);
		assert_int_equal(per_cpu(sd_llc_id, cpu), cpu);
	}
	sd = per_cpu(sd_numa, cpu);
	assert_int_equal(sd != NULL, t->nr_nodes > 1);
	if (sd)
		assert_true(sd->flags & SD_NUMA);
	assert_int_equal(per_cpu(sd_asym_cpucapacity, cpu) != NULL, t->asym_capacity);
	/* the highest asym-packing domain: MC on ITMT machines (PKG degenerates on one package) */
	sd = per_cpu(sd_asym_packing, cpu);
	assert_int_equal(sd != NULL, t->asym_packing.itmt);
	if (sd)
		assert_true(sd->flags & SD_ASYM_PACKING);
}

static void test_preset_invariants(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < nr_machine_presets; i++) {
		struct topology *t = load(machine_presets[i].name);
		struct cpumask *covered;

		build(t);
		covered = alloc_cpumask();
		for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++)
			check_cpu_invariants(t, cpu, covered);
		assert_true(cpumask_equal(cpu_rd(0)->span, t->all));
		assert_int_equal(cpu_rd(0)->max_cpu_capacity, SCHED_CAPACITY_SCALE);
		assert_int_equal(sched_asym_cpucap_active(), t->asym_capacity);
		assert_int_equal(sched_cluster_active, t->has_clusters);
		free_cpumask(covered);
		free_sched_domains();
		assert_null(cpu_sd(0));
		topology_free(t);
	}
}

/*
 * The speed benchmark's generated machines (docs/machines.md): every CPU of
 * the 1024-CPU one, and on the 8192-CPU one a CPU in 61 and the last (all
 * 8192 take seconds: the top level's groups span every CPU).
 */
static void test_synthetic_invariants(void **state)
{
	static const struct {
		const char *machine;
		unsigned int stride;
	} m[] = {
		{ "synthetic:pack:4 l3:16 core:8 pu:2", 1 },
		{ "synthetic:pack:16 numa:2 l3:8 core:16 pu:2", 61 },
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(m); i++) {
		struct topology *t = load(m[i].machine);
		struct cpumask *covered;

		build(t);
		covered = alloc_cpumask();
		for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu += m[i].stride)
			check_cpu_invariants(t, cpu, covered);
		check_cpu_invariants(t, t->nr_cpus - 1, covered);
		assert_true(cpumask_equal(cpu_rd(0)->span, t->all));
		free_cpumask(covered);
		free_sched_domains();
		topology_free(t);
	}
}

/* pointers seen, for counting distinct masks (open addressing) */
struct ptr_set {
	const void **slot;
	size_t cap, n;
};

static void ptr_set_add(struct ptr_set *s, const void *p)
{
	size_t h = ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ULL % s->cap;

	while (s->slot[h] && s->slot[h] != p)
		h = (h + 1) % s->cap;
	if (!s->slot[h]) {
		s->slot[h] = p;
		s->n++;
	}
	assert_true(s->n < s->cap / 2);
}

/*
 * Masks are shared, the way the kernel shares groups: one span per level and
 * distinct span, cpumask_of() for single CPUs, one balance mask per distinct
 * overlapping group. So the masks are fewer than the CPUs, whatever the
 * levels, instead of one per CPU per level and per NUMA group.
 */
static void test_mask_sharing(void **state)
{
	struct topology *t = load("synthetic:pack:16 numa:2 l3:8 core:16 pu:2");
	struct ptr_set set = { 0 };
	struct sched_group *g0, *g1;

	(void)state;
	build(t);
	/* spans: the same mask for every CPU whose domain has that span */
	assert_ptr_equal(domain_at(0, 0)->span, domain_at(1, 0)->span);
	assert_ptr_not_equal(domain_at(0, 0)->span, domain_at(2, 0)->span);
	assert_ptr_equal(domain_at(0, 1)->span, domain_at(31, 1)->span);
	assert_ptr_equal(domain_at(0, 4)->span, domain_at(8191, 4)->span);
	assert_string_equal(list_of(domain_at(0, 3)->span), "0-511");
	assert_ptr_equal(domain_at(0, 3)->span, domain_at(511, 3)->span);
	/* groups of ordinary levels: shared objects, their masks the child spans */
	assert_ptr_equal(sched_group_span(domain_at(0, 0)->groups), cpumask_of(0));
	assert_ptr_equal(sched_group_span(domain_at(0, 0)->groups->next), cpumask_of(1));
	assert_ptr_equal(sched_group_span(domain_at(0, 1)->groups->next), domain_at(2, 0)->span);
	assert_ptr_equal(group_balance_mask(domain_at(0, 1)->groups->next),
			 domain_at(2, 0)->span);
	assert_ptr_equal(domain_at(0, 1)->groups->next, domain_at(3, 1)->groups);
	/* NUMA groups: one per CPU, sharing the span, capacity and balance mask */
	g0 = domain_at(0, 4)->groups->next;
	g1 = domain_at(1, 4)->groups->next;
	assert_ptr_not_equal(g0, g1);
	assert_string_equal(list_of(sched_group_span(g0)), "512-1023");
	assert_ptr_equal(sched_group_span(g0), sched_group_span(g1));
	assert_ptr_equal(sched_group_span(g0), domain_at(512, 3)->span);
	assert_ptr_equal(g0->sgc, g1->sgc);
	assert_ptr_equal(group_balance_mask(g0), group_balance_mask(g1));
	assert_int_equal(g0->sgc->id, 512);

	/* every mask any domain, group or capacity points to */
	set.cap = 1 << 17;
	set.slot = calloc(set.cap, sizeof(*set.slot));
	assert_non_null(set.slot);
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct sched_domain *sd;

		for_each_domain(cpu, sd) {
			const struct sched_group *sg = sd->groups;

			ptr_set_add(&set, sd->span);
			do {
				const struct cpumask *span = sched_group_span(sg);
				const struct cpumask *bal = group_balance_mask(sg);

				/* cpumask_of() is a static table, not a mask per CPU */
				if (span != cpumask_of(cpumask_first(span)))
					ptr_set_add(&set, span);
				if (bal != cpumask_of(cpumask_first(bal)))
					ptr_set_add(&set, bal);
				sg = sg->next;
			} while (sg != sd->groups);
		}
	}
	/*
	 * Spans of 4096 cores, 256 LLCs, 32 nodes (twice: PKG's, and NODE's,
	 * which the first NUMA level's groups were built from before NODE
	 * collapsed into PKG), 16 packages and the machine; the balance masks
	 * of the two NUMA levels' 32 + 16 groups. Not one per CPU and level.
	 */
	assert_int_equal(set.n, 4096 + 256 + 2 * 32 + 16 + 1 + 32 + 16);
	free(set.slot);
	free_sched_domains();
	topology_free(t);
}

/* ---- degenerate levels ---- */

static void test_degenerate(void **state)
{
	struct topology *t;

	(void)state;
	/* one CPU: every level spans one CPU and goes */
	t = load("smp1");
	build(t);
	assert_null(cpu_sd(0));
	assert_null(per_cpu(sd_llc, 0));
	assert_int_equal(per_cpu(sd_llc_size, 0), 1);
	assert_int_equal(per_cpu(sd_llc_id, 0), 0);
	assert_true(cpus_share_cache(0, 0));
	free_sched_domains();
	topology_free(t);

	/* smp4: PKG has the MC span and nothing MC lacks; MC is all that is left */
	t = load("smp4");
	build(t);
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		assert_int_equal(nr_domains(cpu), 1);
		assert_string_equal(cpu_sd(cpu)->name, "MC");
		assert_null(cpu_sd(cpu)->child);
		assert_null(cpu_sd(cpu)->parent);
		/* the groups of the dropped child level lose its flags */
		assert_int_equal(cpu_sd(cpu)->groups->flags, 0);
		assert_ptr_equal(per_cpu(sd_llc, cpu), cpu_sd(cpu));
	}
	assert_true(cpus_share_cache(0, 3));
	assert_true(cpus_share_resources(0, 3));
	free_sched_domains();
	topology_free(t);

	/*
	 * xeon: PKG (= node = LLC) and NODE collapse into MC, so NUMA's child
	 * is MC; the collapsed level's flags reach NUMA's first group.
	 */
	t = load("xeon-8269cy-2s");
	build(t);
	{
		struct sched_domain *mc = domain_at(0, 1), *numa = domain_at(0, 2);

		assert_ptr_equal(numa->child, mc);
		assert_ptr_equal(mc->parent, numa);
		assert_int_equal(numa->groups->flags, mc->flags);
		assert_int_equal(mc->level, 1);
		/* built levels: SMT 0, MC 1, PKG 2, NODE 3, NUMA 4 */
		assert_int_equal(numa->level, 4);
		assert_int_equal(sched_domains_numa_levels, 2);
		assert_false(cpus_share_cache(0, 26));
		assert_true(cpus_share_cache(0, 77));
		assert_int_equal(per_cpu(sd_share_id, 0), 0);
		assert_int_equal(per_cpu(sd_share_id, 103), 26);
	}
	free_sched_domains();
	topology_free(t);
}

/* ---- group sharing and the circular lists ---- */

static void test_group_sharing(void **state)
{
	struct topology *t = load("smt2-2s-16");
	struct sched_group *sg;

	(void)state;
	build(t);
	/* ordinary levels: one group object per child span, for every CPU */
	sg = domain_at(0, 1)->groups->next;	/* {1,9} seen from CPU 0 */
	assert_string_equal(list_of(sched_group_span(sg)), "1,9");
	assert_ptr_equal(domain_at(1, 1)->groups, sg);
	assert_ptr_equal(domain_at(9, 1)->groups, sg);
	assert_ptr_equal(domain_at(11, 1)->groups->next, domain_at(0, 1)->groups);
	assert_int_equal(sg->sgc->id, 1);
	assert_int_equal(sg->cores, 1);
	assert_int_equal(domain_at(0, 2)->groups->cores, 4);
	assert_int_equal(domain_at(0, 1)->groups->flags, domain_at(0, 0)->flags);
	/* NUMA levels: each CPU has its own groups, sharing the capacity */
	assert_ptr_not_equal(domain_at(0, 2)->groups, domain_at(1, 2)->groups);
	assert_ptr_equal(domain_at(0, 2)->groups->sgc, domain_at(1, 2)->groups->sgc);
	assert_int_equal(domain_at(0, 2)->groups->sgc->id, 0);
	assert_int_equal(domain_at(0, 2)->groups->next->sgc->id, 4);
	/* the shared LLC state */
	assert_ptr_equal(per_cpu(sd_llc_shared, 0), per_cpu(sd_llc_shared, 11));
	assert_ptr_not_equal(per_cpu(sd_llc_shared, 0), per_cpu(sd_llc_shared, 4));
	assert_int_equal(per_cpu(sd_llc_shared, 0)->nr_busy_cpus, 8);
	/* imb_numa_nr: 1/8 of the 8-CPU node on the first level above the LLC */
	assert_int_equal(domain_at(0, 2)->imb_numa_nr, 1);
	free_sched_domains();
	topology_free(t);
}

/* ---- NUMA levels from distance tables ---- */

/* @nodes nodes of two CPUs each (node n = CPUs 2n, 2n+1, one LLC per node). */
static struct topology *numa_machine(unsigned int nodes, const int *slit)
{
	char err[512] = "";
	struct topology *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	snprintf(t->name, sizeof(t->name), "numa-test");
	assert_int_equal(topology_alloc_cpus(t, 2 * nodes, err, sizeof(err)), 0);
	for (unsigned int cpu = 0; cpu < 2 * nodes; cpu++) {
		struct cpu_topo *c = &t->cpus[cpu];

		c->core = c->cluster = cpu;
		c->llc = c->package = c->node = cpu / 2;
		c->capacity = 1024;
		c->max_freq_khz = 2000000;
		c->nr_opps = 1;
		c->opp_khz[0] = 2000000;
	}
	t->hz = 250;
	t->nr_nodes = nodes;
	t->node_distance = calloc((size_t)nodes * nodes, sizeof(int));
	memcpy(t->node_distance, slit, (size_t)nodes * nodes * sizeof(int));
	if (topology_finish(t, err, sizeof(err)))
		fail_msg("numa test machine: %s", err);
	return t;
}

static const char *group_desc(const struct sched_domain *sd)
{
	static char buf[1024];
	const struct sched_group *sg = sd->groups;
	size_t n = 0;

	do {
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s{%s", n ? " " : "",
				      list_of(sched_group_span(sg)));
		if (!cpumask_equal(group_balance_mask(sg), sched_group_span(sg)))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " mask=%s",
					      list_of(group_balance_mask(sg)));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "}");
		sg = sg->next;
	} while (sg != sd->groups);
	return buf;
}

/*
 * The 4-node ring of the kernel's topology.c comment:
 *
 *   0 - 1
 *   |   |     NUMA-2 of node 0: groups {0-1,3} and {1-3}
 *   3 - 2
 *
 * The two NUMA-2 groups overlap (nodes 1 and 3 in both); their balance
 * masks are the nodes that actually arrive at each group (0 and 2).
 */
static void test_numa_ring_overlap(void **state)
{
	static const int ring[16] = {
		10, 20, 30, 20, 20, 10, 20, 30, 30, 20, 10, 20, 20, 30, 20, 10,
	};
	struct topology *t = numa_machine(4, ring);
	struct sched_domain *sd;

	(void)state;
	build(t);
	assert_int_equal(sched_domains_numa_levels, 3);
	assert_int_equal(sched_max_numa_distance, 30);
	assert_int_equal(sched_numa_topology_type, NUMA_GLUELESS_MESH);

	/* MC (the node), NUMA-1 (three nodes), NUMA-2 (all) */
	assert_int_equal(nr_domains(0), 3);
	sd = domain_at(0, 1);
	assert_string_equal(list_of(sd->span), "0-3,6-7");
	assert_string_equal(group_desc(sd), "{0-1} {2-3} {6-7}");
	sd = domain_at(0, 2);
	assert_string_equal(sd->name, "NUMA");
	assert_string_equal(list_of(sd->span), "0-7");
	assert_string_equal(group_desc(sd), "{0-3,6-7 mask=0-1} {2-7 mask=4-5}");
	assert_true(cpumask_intersects(sched_group_span(sd->groups),
				       sched_group_span(sd->groups->next)));
	assert_false(cpumask_intersects(group_balance_mask(sd->groups),
					group_balance_mask(sd->groups->next)));
	assert_int_equal(sd->groups->sgc->capacity, 6 * 1024);
	assert_int_equal(group_balance_cpu(sd->groups->next), 4);
	/* node 1's view */
	sd = domain_at(2, 2);
	assert_string_equal(group_desc(sd), "{0-5 mask=2-3} {0-1,4-7 mask=6-7}");
	/* the group of node 2 seen from node 0 shares node 2's own capacity */
	assert_ptr_equal(domain_at(0, 2)->groups->next->sgc, domain_at(4, 2)->groups->sgc);
	free_sched_domains();
	topology_free(t);
}

/*
 * The chain 0 - 1 - 2 - 3 (diameter 3): nodes 1 and 2 reach everything in
 * two NUMA levels, nodes 0 and 3 need three, and node 0's NUMA-2 group for
 * node 2 comes from node 2's NUMA-1 child (find_descended_sibling()), not
 * from node 2's NUMA-2 child {1-3} that would reach outside the domain.
 */
static void test_numa_chain_descend(void **state)
{
	static const int chain[16] = {
		10, 20, 30, 40, 20, 10, 20, 30, 30, 20, 10, 20, 40, 30, 20, 10,
	};
	struct topology *t = numa_machine(4, chain);

	(void)state;
	build(t);
	assert_int_equal(sched_domains_numa_levels, 4);
	assert_int_equal(nr_domains(0), 4);
	assert_int_equal(nr_domains(2), 3);
	assert_int_equal(nr_domains(4), 3);
	assert_int_equal(nr_domains(7), 4);
	assert_string_equal(group_desc(domain_at(0, 1)), "{0-1} {2-3}");
	assert_string_equal(list_of(domain_at(0, 2)->span), "0-5");
	/* nodes 0 and 1 both have 0-3 as a group, but only node 0 arrives at it */
	assert_string_equal(group_desc(domain_at(0, 2)), "{0-3 mask=0-1} {4-5}");
	assert_string_equal(group_desc(domain_at(0, 3)), "{0-5 mask=0-1} {2-7 mask=6-7}");
	assert_string_equal(group_desc(domain_at(2, 2)), "{0-5 mask=2-3} {4-7 mask=6-7}");
	for (unsigned int cpu = 0; cpu < 8; cpu++) {
		struct sched_domain *sd;

		for_each_domain(cpu, sd) {
			const struct sched_group *sg = sd->groups;

			do {
				assert_true(cpumask_subset(sched_group_span(sg), sd->span));
				sg = sg->next;
			} while (sg != sd->groups);
		}
	}
	free_sched_domains();
	topology_free(t);
}

/*
 * westmere-ex-8s-160's SLIT is hierarchical (pairs at 12, quads at 17, all
 * at 19): every NUMA level's groups are the child spans of two disjoint
 * halves, so no group overlaps and every balance mask is the span.
 */
static void test_westmere_numa(void **state)
{
	struct topology *t = load("westmere-ex-8s-160");

	(void)state;
	build(t);
	assert_int_equal(sched_domains_numa_levels, 4);
	assert_int_equal(sched_domains_numa_distance[0], 10);
	assert_int_equal(sched_domains_numa_distance[1], 12);
	assert_int_equal(sched_domains_numa_distance[2], 17);
	assert_int_equal(sched_domains_numa_distance[3], 19);
	/* no node between the two quads: the far half is reached over a backplane */
	assert_int_equal(sched_numa_topology_type, NUMA_BACKPLANE);
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct sched_domain *sd = per_cpu(sd_numa, cpu);
		unsigned int levels = 0;

		for (; sd; sd = sd->parent) {
			const struct sched_group *sg = sd->groups;

			levels++;
			assert_int_equal(nr_groups(sd), 2);
			assert_false(cpumask_intersects(sched_group_span(sg),
							sched_group_span(sg->next)));
			do {
				assert_true(cpumask_equal(group_balance_mask(sg),
							  sched_group_span(sg)));
				sg = sg->next;
			} while (sg != sd->groups);
		}
		assert_int_equal(levels, 3);
	}
	/* imb_numa_nr: 20 >> 3 = 2 per LLC, scaled by spans of the first NUMA level */
	assert_int_equal(domain_at(0, 2)->imb_numa_nr, 2);
	assert_int_equal(domain_at(0, 3)->imb_numa_nr, 4);
	assert_int_equal(domain_at(0, 4)->imb_numa_nr, 8);
	free_sched_domains();
	topology_free(t);
}

/* node_reclaim_distance: beyond it a NUMA level loses exec/fork balancing and wake_affine */
static void test_reclaim_distance(void **state)
{
	struct topology *t = load("epyc-milan-2s-256");
	const int dropped = SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE;

	(void)state;
	assert_int_equal(t->node_reclaim_distance, 32);
	build(t);
	assert_int_equal(per_cpu(sd_numa, 0)->flags & dropped, dropped);
	t->node_reclaim_distance = 0;	/* the generic 30 */
	build(t);
	assert_int_equal(per_cpu(sd_numa, 0)->flags & dropped, 0);
	assert_true(per_cpu(sd_numa, 0)->flags & SD_BALANCE_NEWIDLE);
	free_sched_domains();
	topology_free(t);
}

/* ---- flags printing, bad tables ---- */

static void test_flag_names(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(sd_flag_debug[__SD_NUMA].name, "SD_NUMA");
	assert_int_equal(SD_BALANCE_NEWIDLE, 1);
	assert_int_equal(SD_NUMA, 1 << 13);
	assert_int_equal(sd_flags_snprint(buf, sizeof(buf), SD_SHARE_LLC | SD_NUMA),
			 (int)strlen("SD_SHARE_LLC|SD_NUMA"));
	assert_string_equal(buf, "SD_SHARE_LLC|SD_NUMA");
	sd_flags_snprint(buf, sizeof(buf), 0);
	assert_string_equal(buf, "0");
	sd_flags_snprint(buf, 8, SD_SHARE_LLC);
	assert_string_equal(buf, "SD_SHAR");
	assert_true(SD_DEGENERATE_GROUPS_MASK & SD_NUMA);
	assert_false(SD_DEGENERATE_GROUPS_MASK & SD_WAKE_AFFINE);
	assert_true(SD_SHARED_CHILD_MASK & SD_SHARE_LLC);
	assert_false(SD_SHARED_CHILD_MASK & SD_NUMA);
}

static void test_bad_distance(void **state)
{
	static const int far[4] = { 10, 300, 300, 10 };
	char err[512] = "";
	struct topology *t = numa_machine(2, far);

	(void)state;
	assert_int_equal(build_sched_domains(t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "distance 300"));
	assert_null(cpu_sd(0));
	free_sched_domains();
	topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preset_chains),
		cmocka_unit_test(test_preset_invariants),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_group_sharing),
		cmocka_unit_test(test_synthetic_invariants),
		cmocka_unit_test(test_mask_sharing),
		cmocka_unit_test(test_numa_ring_overlap),
		cmocka_unit_test(test_numa_chain_descend),
		cmocka_unit_test(test_westmere_numa),
		cmocka_unit_test(test_reclaim_distance),
		cmocka_unit_test(test_flag_names),
		cmocka_unit_test(test_bad_distance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
