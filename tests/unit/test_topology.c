// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machine topologies: every preset's shape as Linux shows it on that
 * machine, the validation of impossible shapes, the tree printout, and the
 * sysfs reader (on fake trees and on this host).
 */
#include "test_util.h"

#include "topo/topology.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char *list_of(const struct cpumask *m)
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

/* ---- every preset, as Linux shows that machine ---- */

struct expect {
	const char *name;
	unsigned int nr_cpus;
	/* CPU 0's masks */
	const char *smt, *cluster, *llc, *package, *node;
	bool has_smt, has_clusters, asym;
	unsigned int smt_width, nr_llcs, nr_packages, nr_nodes;
};

static const struct expect expects[] = {
	{ "smp1", 1, "0", "0", "0", "0", "0", false, false, false, 1, 1, 1, 1 },
	{ "smp2", 2, "0", "0", "0-1", "0-1", "0-1", false, false, false, 1, 1, 1, 1 },
	{ "smp4", 4, "0", "0", "0-3", "0-3", "0-3", false, false, false, 1, 1, 1, 1 },
	{ "smp8", 8, "0", "0", "0-7", "0-7", "0-7", false, false, false, 1, 1, 1, 1 },
	{ "smt2-2s-16", 16, "0,8", "0,8", "0-3,8-11", "0-3,8-11", "0-3,8-11", true, false, false, 2,
	  2, 2, 2 },
	{ "power10-96", 96, "0,2,4,6", "0-7", "0-7", "0-95", "0-95", true, false, false, 4, 12, 1,
	  1 },
	{ "xeon-8269cy-2s", 104, "0,52", "0,52", "0-25,52-77", "0-25,52-77", "0-25,52-77", true,
	  false, false, 2, 2, 2, 2 },
	{ "altra-80", 80, "0", "0-1", "0-1", "0-79", "0-79", false, false, false, 1, 40, 1, 1 },
	{ "altra-2s-160", 160, "0", "0-1", "0-1", "0-79", "0-79", false, false, false, 1, 80, 2,
	  2 },
	{ "icelake-2s-128", 128, "0,64", "0,64", "0-31,64-95", "0-31,64-95", "0-31,64-95", true,
	  false, false, 2, 2, 2, 2 },
	{ "epyc-milan-2s-256", 256, "0,128", "0,128", "0-7,128-135", "0-63,128-191", "0-63,128-191",
	  true, false, false, 2, 16, 2, 2 },
	{ "westmere-ex-8s-160", 160, "0,80", "0,80", "0-9,80-89", "0-9,80-89", "0-9,80-89", true,
	  false, false, 2, 8, 8, 8 },
	{ "westmere-ex-8s-80-noht", 80, "0", "0", "0-9", "0-9", "0-9", false, false, false, 1, 8, 8,
	  8 },
	{ "pixel6", 8, "0", "0-3", "0-7", "0-7", "0-7", false, true, true, 1, 1, 1, 1 },
	{ "alderlake-i9-12900k", 24, "0-1", "0-1", "0-23", "0-23", "0-23", true, true, false, 2, 1,
	  1, 1 },
	{ "arm64-2x4", 8, "0", "0-3", "0-3", "0-7", "0-7", false, false, false, 1, 2, 1, 1 },
};

static void test_preset_list(void **state)
{
	(void)state;
	assert_int_equal(nr_machine_presets, ARRAY_SIZE(expects));
	for (unsigned int i = 0; i < nr_machine_presets; i++) {
		/* listed in the documented order, each with a one-line description */
		assert_string_equal(machine_presets[i].name, expects[i].name);
		assert_non_null(machine_presets[i].description);
		assert_true(strlen(machine_presets[i].description) > 10);
		assert_null(strchr(machine_presets[i].description, '\n'));
	}
}

static void test_preset_shapes(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(expects); i++) {
		const struct expect *e = &expects[i];
		struct topology *t = load(e->name);

		print_message("  %s\n", e->name);
		assert_string_equal(t->name, e->name);
		assert_int_equal(t->nr_cpus, e->nr_cpus);
		assert_int_equal(nr_cpu_ids, e->nr_cpus);
		assert_string_equal(list_of(topology_sibling_cpumask(t, 0)), e->smt);
		assert_string_equal(list_of(topology_cluster_cpumask(t, 0)), e->cluster);
		assert_string_equal(list_of(topology_llc_cpumask(t, 0)), e->llc);
		assert_string_equal(list_of(topology_core_cpumask(t, 0)), e->package);
		assert_string_equal(list_of(topology_node_cpumask(t, 0)), e->node);
		assert_int_equal(t->has_smt, e->has_smt);
		assert_int_equal(t->has_clusters, e->has_clusters);
		assert_int_equal(t->asym_capacity, e->asym);
		assert_int_equal(t->smt_width, e->smt_width);
		assert_int_equal(t->nr_llcs, e->nr_llcs);
		assert_int_equal(t->nr_packages, e->nr_packages);
		assert_int_equal(t->nr_nodes, e->nr_nodes);
		if (e->nr_cpus > 1) {
			char all[32];

			snprintf(all, sizeof(all), "0-%u", e->nr_cpus - 1);
			assert_string_equal(list_of(t->all), all);
		}
		assert_int_equal(cpumask_weight(t->all), e->nr_cpus);
		topology_free(t);
	}
}

/* Each level's masks partition the CPUs, and every CPU's ids agree with its masks. */
static void check_partition(const struct topology *t, struct cpumask **masks, unsigned int nr,
			    unsigned int (*id)(const struct cpu_topo *c))
{
	unsigned int total = 0, cpu;

	for (unsigned int g = 0; g < nr; g++) {
		assert_false(cpumask_empty(masks[g]));
		total += cpumask_weight(masks[g]);
		for_each_cpu(cpu, masks[g])
			assert_int_equal(id(&t->cpus[cpu]), g);
	}
	assert_int_equal(total, t->nr_cpus);
}

static unsigned int id_core(const struct cpu_topo *c)
{
	return c->core;
}

static unsigned int id_cluster(const struct cpu_topo *c)
{
	return c->cluster;
}

static unsigned int id_llc(const struct cpu_topo *c)
{
	return c->llc;
}

static unsigned int id_package(const struct cpu_topo *c)
{
	return c->package;
}

static unsigned int id_node(const struct cpu_topo *c)
{
	return c->node;
}

static void test_preset_invariants(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < nr_machine_presets; i++) {
		struct topology *t = load(machine_presets[i].name);

		check_partition(t, t->core_mask, t->nr_cores, id_core);
		check_partition(t, t->cluster_mask, t->nr_clusters, id_cluster);
		check_partition(t, t->llc_mask, t->nr_llcs, id_llc);
		check_partition(t, t->package_mask, t->nr_packages, id_package);
		check_partition(t, t->node_mask, t->nr_nodes, id_node);
		for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
			const struct cpu_topo *c = &t->cpus[cpu];

			assert_true(cpumask_subset(topology_sibling_cpumask(t, cpu),
						   topology_cluster_cpumask(t, cpu)));
			assert_true(cpumask_subset(topology_cluster_cpumask(t, cpu),
						   topology_llc_cpumask(t, cpu)));
			assert_true(cpumask_subset(topology_llc_cpumask(t, cpu),
						   topology_core_cpumask(t, cpu)));
			assert_true(cpumask_subset(topology_llc_cpumask(t, cpu),
						   topology_node_cpumask(t, cpu)));
			assert_true(c->thread < t->smt_width);
			assert_true(c->capacity >= 1 && c->capacity <= SCHED_CAPACITY_SCALE);
			assert_true(c->nr_opps >= 1 && c->nr_opps <= TOPO_MAX_OPPS);
			assert_int_equal(c->opp_khz[c->nr_opps - 1], c->max_freq_khz);
			assert_int_equal(topology_cpu_dist(t, cpu, cpu), DIST_SELF);
			if (cpu)
				assert_int_equal(topology_cpu_dist(t, 0, cpu),
						 topology_cpu_dist(t, cpu, 0));
		}
		for (unsigned int a = 0; a < t->nr_nodes; a++)
			assert_int_equal(t->node_distance[a * t->nr_nodes + a], 10);
		assert_int_equal(t->hz, 250);
		assert_true(t->nr_idle_states >= 1);
		assert_true(strlen(t->approximations) > 0);
		assert_true(strlen(t->approximations) < sizeof(t->approximations) - 1);
		assert_int_equal(t->cost.ipi_latency[DIST_SELF], 0);
		topology_free(t);
	}
}

static void test_numbering(void **state)
{
	struct topology *t;

	(void)state;
	/* x86: first threads of every core of every package, then the second threads */
	t = load("xeon-8269cy-2s");
	assert_string_equal(list_of(topology_sibling_cpumask(t, 25)), "25,77");
	assert_string_equal(list_of(topology_sibling_cpumask(t, 26)), "26,78");
	assert_string_equal(list_of(topology_core_cpumask(t, 103)), "26-51,78-103");
	assert_int_equal(t->cpus[52].thread, 1);
	assert_int_equal(t->cpus[52].core, t->cpus[0].core);
	topology_free(t);

	t = load("epyc-milan-2s-256");
	assert_string_equal(list_of(topology_llc_cpumask(t, 8)), "8-15,136-143");
	assert_string_equal(list_of(topology_llc_cpumask(t, 255)), "120-127,248-255");
	assert_string_equal(list_of(topology_sibling_cpumask(t, 64)), "64,192");
	topology_free(t);

	t = load("westmere-ex-8s-160");
	assert_string_equal(list_of(topology_node_cpumask(t, 159)), "70-79,150-159");
	assert_int_equal(t->node_distance[0 * 8 + 1], 12);
	assert_int_equal(t->node_distance[0 * 8 + 2], 17);
	assert_int_equal(t->node_distance[0 * 8 + 7], 19);
	assert_int_equal(t->node_distance[6 * 8 + 4], 17);
	topology_free(t);

	/* POWER10 big cores: the two SMT4 halves interleave their threads */
	t = load("power10-96");
	assert_string_equal(list_of(topology_sibling_cpumask(t, 1)), "1,3,5,7");
	assert_string_equal(list_of(topology_sibling_cpumask(t, 95)), "89,91,93,95");
	assert_string_equal(list_of(topology_llc_cpumask(t, 95)), "88-95");
	topology_free(t);

	t = load("pixel6");
	assert_string_equal(list_of(topology_cluster_cpumask(t, 5)), "4-5");
	assert_string_equal(list_of(topology_cluster_cpumask(t, 7)), "6-7");
	assert_int_equal(t->cpus[0].capacity, 160);
	assert_int_equal(t->cpus[4].capacity, 498);
	assert_int_equal(t->cpus[7].capacity, 1024);
	assert_int_equal(t->cpus[0].max_freq_khz, 1803000);
	assert_int_equal(t->cpus[5].max_freq_khz, 2253000);
	assert_int_equal(t->cpus[6].max_freq_khz, 2802000);
	assert_int_equal(t->cpus[6].nr_opps, 17);
	topology_free(t);
}

static void test_distances(void **state)
{
	struct topology *t;

	(void)state;
	t = load("xeon-8269cy-2s");
	assert_int_equal(topology_cpu_dist(t, 0, 0), DIST_SELF);
	assert_int_equal(topology_cpu_dist(t, 0, 52), DIST_SMT);
	assert_int_equal(topology_cpu_dist(t, 0, 1), DIST_LLC);
	assert_int_equal(topology_cpu_dist(t, 0, 53), DIST_LLC);
	assert_int_equal(topology_cpu_dist(t, 0, 26), DIST_NUMA);
	assert_int_equal(topology_cpu_dist(t, 52, 103), DIST_NUMA);
	assert_int_equal(t->node_distance[1], 21);
	topology_free(t);

	t = load("epyc-milan-2s-256");
	assert_int_equal(topology_cpu_dist(t, 0, 128), DIST_SMT);
	assert_int_equal(topology_cpu_dist(t, 0, 7), DIST_LLC);
	assert_int_equal(topology_cpu_dist(t, 0, 8), DIST_PACKAGE);
	assert_int_equal(topology_cpu_dist(t, 0, 191), DIST_PACKAGE);
	assert_int_equal(topology_cpu_dist(t, 0, 64), DIST_NUMA);
	assert_int_equal(t->node_distance[1], 32);
	topology_free(t);

	t = load("power10-96");
	assert_int_equal(topology_cpu_dist(t, 0, 2), DIST_SMT);
	assert_int_equal(topology_cpu_dist(t, 0, 1), DIST_LLC);
	assert_int_equal(topology_cpu_dist(t, 0, 8), DIST_PACKAGE);
	topology_free(t);

	t = load("altra-2s-160");
	assert_int_equal(topology_cpu_dist(t, 0, 1), DIST_LLC);
	assert_int_equal(topology_cpu_dist(t, 0, 2), DIST_PACKAGE);
	assert_int_equal(topology_cpu_dist(t, 0, 80), DIST_NUMA);
	topology_free(t);

	t = load("pixel6");
	assert_int_equal(topology_cpu_dist(t, 0, 3), DIST_CLUSTER);
	assert_int_equal(topology_cpu_dist(t, 6, 7), DIST_CLUSTER);
	assert_int_equal(topology_cpu_dist(t, 0, 4), DIST_LLC);
	assert_int_equal(topology_cpu_dist(t, 5, 7), DIST_LLC);
	topology_free(t);

	t = load("smp1");
	assert_int_equal(topology_cpu_dist(t, 0, 0), DIST_SELF);
	topology_free(t);
}

static void test_unknown_machine(void **state)
{
	char err[256] = "";

	(void)state;
	assert_null(topology_load("vax-11", err, sizeof(err)));
	assert_string_equal(err, "unknown machine 'vax-11' (see 'schedlab machines')");
	/* a '/' makes it a machine file's path */
	assert_null(topology_load("vax-11/780", err, sizeof(err)));
	assert_string_equal(
		err,
		"vax-11/780: No such file or directory (an -m value with a '/' or ending in .machine is a machine file)");
	assert_null(topology_load("", err, sizeof(err)));
	assert_string_equal(err, "unknown machine '' (see 'schedlab machines')");
	assert_null(topology_load("XEON-8269CY-2S", err, sizeof(err)));
}

static char *print_to_string(const struct topology *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	topology_print_tree(t, f);
	fclose(f);
	return buf;
}

static void expect_in(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("missing from the tree:\n%s\n---- tree ----\n%s", needle, text);
}

static void test_print_tree(void **state)
{
	struct topology *t;
	char *s, *again;

	(void)state;
	t = load("xeon-8269cy-2s");
	s = print_to_string(t);
	expect_in(s, "Machine: xeon-8269cy-2s (104 CPUs) - 2 x Intel Xeon Platinum 8269CY");
	expect_in(s, "  Package 0 (node 0): CPUs 0-25,52-77\n"
		     "    LLC 0: CPUs 0-25,52-77\n"
		     "      Core 0: CPUs 0,52  capacity 1024\n"
		     "      Core 1: CPUs 1,53  capacity 1024\n");
	expect_in(s, "      Core 51: CPUs 51,103  capacity 1024\n");
	expect_in(s, "    CPUs 0-103: capacity 1024, 1000-3800 MHz, 29 frequencies:");
	expect_in(s, "POLL 0/0, C1 2/2, C1E 10/20, C6 133/600\n");
	expect_in(s, "  Node distances:\n    node   0   1\n      0:  10  21\n      1:  21  10\n");
	/* deterministic */
	again = print_to_string(t);
	assert_string_equal(s, again);
	free(again);
	free(s);
	topology_free(t);

	t = load("pixel6");
	s = print_to_string(t);
	expect_in(s, "    LLC 0: CPUs 0-7\n"
		     "      Cluster 0: CPUs 0-3\n"
		     "        Core 0: CPUs 0  capacity 160\n");
	expect_in(s, "      Cluster 2: CPUs 6-7\n        Core 6: CPUs 6  capacity 1024\n");
	expect_in(s, "    CPUs 0-3: capacity 160, 300-1803 MHz, 11 frequencies:");
	expect_in(s, "WFI 1/1, c2 340/2500\n");
	assert_null(strstr(s, "Node distances"));
	free(s);
	topology_free(t);

	t = load("smp1");
	s = print_to_string(t);
	expect_in(
		s,
		"  Package 0 (node 0): CPUs 0\n    LLC 0: CPUs 0\n      Core 0: CPUs 0  capacity 1024\n");
	assert_null(strstr(s, "Cluster"));
	free(s);
	topology_free(t);
}

/* ---- validation of impossible shapes ---- */

static struct topology *manual(unsigned int nr)
{
	char err[256];
	struct topology *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	snprintf(t->name, sizeof(t->name), "test");
	assert_int_equal(topology_alloc_cpus(t, nr, err, sizeof(err)), 0);
	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		struct cpu_topo *c = &t->cpus[cpu];

		c->core = c->cluster = cpu;
		c->llc = c->package = c->node = 0;
		c->capacity = 1024;
		c->max_freq_khz = 2000000;
	}
	t->hz = 250;
	return t;
}

static void expect_finish_error(struct topology *t, const char *needle)
{
	char err[512] = "";

	assert_int_equal(topology_finish(t, err, sizeof(err)), -1);
	if (!strstr(err, needle))
		fail_msg("message '%s' does not mention '%s'", err, needle);
	topology_free(t);
}

static void test_validation(void **state)
{
	char err[512];
	struct topology *t;

	(void)state;
	t = manual(4);
	assert_int_equal(topology_finish(t, err, sizeof(err)), 0);
	assert_int_equal(t->nr_cores, 4);
	assert_false(t->has_smt);
	topology_free(t);

	t = calloc(1, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "test");
	assert_int_equal(topology_alloc_cpus(t, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1 to 8192 CPUs"));
	assert_int_equal(topology_alloc_cpus(t, NR_CPUS + 1, err, sizeof(err)), -1);
	topology_free(t);

	t = manual(2);
	t->cpus[1].llc = UINT_MAX;
	expect_finish_error(t, "CPU 1 has no LLC id");

	t = manual(3);
	t->cpus[2].core = 5;
	expect_finish_error(t, "has core id 5, but there are only 3 CPUs");

	t = manual(4);
	t->cpus[3].core = 3;
	t->cpus[2].core = 3;
	expect_finish_error(t, "core ids are not dense: no CPU is in core 2");

	t = manual(2);
	t->cpus[1].core = 0;
	t->cpus[1].cluster = 0;
	t->cpus[1].llc = 1;
	expect_finish_error(t, "core 0 spans LLCs 0 and 1 (CPUs 0 and 1)");

	t = manual(2);
	t->cpus[1].cluster = 0;
	t->cpus[1].node = 1;
	expect_finish_error(t, "cluster 0 spans nodes 0 and 1");

	/* node 0 spans packages 0-1 while package 1 spans nodes 0-1 */
	t = manual(4);
	t->cpus[1].package = 1;
	t->cpus[2].package = 1;
	t->cpus[3].package = 1;
	t->cpus[2].node = 1;
	t->cpus[3].node = 1;
	t->cpus[1].llc = t->cpus[2].llc = t->cpus[3].llc = 1;
	t->cpus[2].llc = t->cpus[3].llc = 2;
	expect_finish_error(t, "nodes and packages must nest one way");

	t = manual(2);
	t->cpus[0].capacity = 512;
	t->cpus[1].capacity = 512;
	expect_finish_error(t, "the biggest CPU has capacity 512");

	t = manual(2);
	t->cpus[1].capacity = 0;
	expect_finish_error(t, "CPU 1 has capacity 0");

	t = manual(2);
	t->cpus[1].nr_opps = 2;
	t->cpus[1].opp_khz[0] = 2000000;
	t->cpus[1].opp_khz[1] = 1000000;
	expect_finish_error(t, "not ascending");

	t = manual(2);
	t->hz = 0;
	expect_finish_error(t, "HZ 0");

	/* node distances: symmetric, 10 on the diagonal, more than 10 elsewhere */
	t = manual(2);
	t->cpus[1].node = 1;
	t->cpus[1].package = 1;
	t->cpus[1].llc = 1;
	t->nr_nodes = 2;
	t->node_distance = calloc(4, sizeof(int));
	t->node_distance[0] = 10;
	t->node_distance[1] = 20;
	t->node_distance[2] = 21;
	t->node_distance[3] = 10;
	expect_finish_error(t, "not symmetric");

	t = manual(2);
	t->cpus[1].node = 1;
	t->cpus[1].package = 1;
	t->cpus[1].llc = 1;
	t->nr_nodes = 2;
	t->node_distance = calloc(4, sizeof(int));
	t->node_distance[0] = 10;
	t->node_distance[1] = 10;
	t->node_distance[2] = 10;
	t->node_distance[3] = 10;
	expect_finish_error(t, "must be > 10");

	t = manual(2);
	t->nr_nodes = 1;
	t->node_distance = calloc(1, sizeof(int));
	t->node_distance[0] = 11;
	expect_finish_error(t, "to itself is 11");

	t = manual(2);
	t->nr_nodes = 3;
	t->node_distance = calloc(9, sizeof(int));
	expect_finish_error(t, "matrix is 3x3 but CPUs are in 1 nodes");
}

/* ---- sysfs trees ---- */

static void put(const char *root, const char *rel, const char *text)
{
	char path[1024], dir[1024], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", dir, strerror(errno));
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void putf(const char *root, const char *text, const char *fmt, unsigned int a, int b)
{
	char rel[256];

	snprintf(rel, sizeof(rel), fmt, a, b);
	put(root, rel, text);
}

static char *make_root(void)
{
	static char tmpl[64];

	snprintf(tmpl, sizeof(tmpl), "/tmp/schedlab-sysfs-XXXXXX");
	assert_non_null(mkdtemp(tmpl));
	return tmpl;
}

static void remove_root(const char *root)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static struct topology *load_sysfs(const char *root)
{
	char err[512];
	struct topology *t = topology_load_sysfs(root, err, sizeof(err));

	if (!t)
		fail_msg("reading %s: %s", root, err);
	return t;
}

/* 2 packages x 2 cores x 2 threads, numbered like x86, two nodes. */
static void test_sysfs_x86_like(void **state)
{
	const char *root = make_root();
	struct topology *t;

	(void)state;
	put(root, "cpu/online", "0-7");
	for (unsigned int cpu = 0; cpu < 8; cpu++) {
		unsigned int core = cpu % 4, pkg = core / 2;
		char sib[32], pk[32];

		snprintf(sib, sizeof(sib), "%u,%u", core, core + 4);
		snprintf(pk, sizeof(pk), "%u-%u,%u-%u", pkg * 2, pkg * 2 + 1, pkg * 2 + 4,
			 pkg * 2 + 5);
		putf(root, sib, "cpu/cpu%u/topology/core_cpus_list", cpu, 0);
		putf(root, sib, "cpu/cpu%u/topology/cluster_cpus_list", cpu, 0);
		putf(root, pk, "cpu/cpu%u/topology/package_cpus_list", cpu, 0);
		putf(root, "1", "cpu/cpu%u/cache/index%d/level", cpu, 0);
		putf(root, "Data", "cpu/cpu%u/cache/index%d/type", cpu, 0);
		putf(root, sib, "cpu/cpu%u/cache/index%d/shared_cpu_list", cpu, 0);
		putf(root, "2", "cpu/cpu%u/cache/index%d/level", cpu, 2);
		putf(root, "Unified", "cpu/cpu%u/cache/index%d/type", cpu, 2);
		putf(root, sib, "cpu/cpu%u/cache/index%d/shared_cpu_list", cpu, 2);
		putf(root, "3", "cpu/cpu%u/cache/index%d/level", cpu, 3);
		putf(root, "Unified", "cpu/cpu%u/cache/index%d/type", cpu, 3);
		putf(root, pk, "cpu/cpu%u/cache/index%d/shared_cpu_list", cpu, 3);
		putf(root, "48K", "cpu/cpu%u/cache/index%d/size", cpu, 0);
		putf(root, "1280K", "cpu/cpu%u/cache/index%d/size", cpu, 2);
		putf(root, "49152K", "cpu/cpu%u/cache/index%d/size", cpu, 3);
		putf(root, "3000000", "cpu/cpu%u/cpufreq/cpuinfo_max_freq", cpu, 0);
		putf(root, "1000000", "cpu/cpu%u/cpufreq/cpuinfo_min_freq", cpu, 0);
		putf(root, "POLL", "cpu/cpu%u/cpuidle/state%d/name", cpu, 0);
		putf(root, "0", "cpu/cpu%u/cpuidle/state%d/latency", cpu, 0);
		putf(root, "0", "cpu/cpu%u/cpuidle/state%d/residency", cpu, 0);
		putf(root, "C6", "cpu/cpu%u/cpuidle/state%d/name", cpu, 1);
		putf(root, "133", "cpu/cpu%u/cpuidle/state%d/latency", cpu, 1);
		putf(root, "600", "cpu/cpu%u/cpuidle/state%d/residency", cpu, 1);
	}
	put(root, "node/online", "0-1");
	put(root, "node/node0/cpulist", "0-1,4-5");
	put(root, "node/node1/cpulist", "2-3,6-7");
	put(root, "node/node0/distance", "10 21");
	put(root, "node/node1/distance", "21 10");

	t = load_sysfs(root);
	assert_string_equal(t->name, "sysfs");
	assert_int_equal(t->nr_cpus, 8);
	assert_string_equal(list_of(topology_sibling_cpumask(t, 0)), "0,4");
	assert_string_equal(list_of(topology_cluster_cpumask(t, 0)), "0,4");
	assert_string_equal(list_of(topology_llc_cpumask(t, 0)), "0-1,4-5");
	assert_string_equal(list_of(topology_core_cpumask(t, 7)), "2-3,6-7");
	assert_string_equal(list_of(topology_node_cpumask(t, 7)), "2-3,6-7");
	assert_int_equal(t->nr_nodes, 2);
	assert_int_equal(t->node_distance[1], 21);
	assert_true(t->has_smt);
	assert_false(t->has_clusters);
	assert_int_equal(t->cpus[0].max_freq_khz, 3000000);
	assert_int_equal(t->cpus[0].nr_opps, 8);
	assert_int_equal(t->cpus[0].opp_khz[0], 1000000);
	assert_int_equal(t->nr_idle_states, 2);
	assert_string_equal(t->idle_states[1].name, "C6");
	assert_int_equal(t->idle_states[1].exit_latency_ns, 133000);
	assert_int_equal(t->idle_states[1].target_residency_ns, 600000);
	assert_int_equal(topology_cpu_dist(t, 0, 2), DIST_NUMA);
	/* the footprint model's caches: the L2 private, the L3 shared; the L1d is neither */
	assert_int_equal(t->cost.cache_l2_kb, 1280);
	assert_int_equal(t->cost.cache_llc_kb, 49152);
	assert_string_equal(t->approximations, "");
	topology_free(t);
	remove_root(root);
}

/*
 * Like Ampere Altra: clusters of two cores, only private caches, capacities
 * given unnormalised. The LLC becomes the cluster (cpu_coregroup_mask).
 */
static void test_sysfs_cluster_without_shared_cache(void **state)
{
	const char *root = make_root();
	struct topology *t;

	(void)state;
	put(root, "cpu/online", "0-3");
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		char self[8], pair[8];

		snprintf(self, sizeof(self), "%u", cpu);
		snprintf(pair, sizeof(pair), "%u-%u", cpu & ~1U, (cpu & ~1U) + 1);
		putf(root, self, "cpu/cpu%u/topology/thread_siblings_list", cpu, 0);
		putf(root, pair, "cpu/cpu%u/topology/cluster_cpus_list", cpu, 0);
		putf(root, "0-3", "cpu/cpu%u/topology/package_cpus_list", cpu, 0);
		putf(root, "2", "cpu/cpu%u/cache/index%d/level", cpu, 2);
		putf(root, "Unified", "cpu/cpu%u/cache/index%d/type", cpu, 2);
		putf(root, self, "cpu/cpu%u/cache/index%d/shared_cpu_list", cpu, 2);
		/* the first CPU's sizes stand for all */
		putf(root, cpu ? "512K" : "1024K", "cpu/cpu%u/cache/index%d/size", cpu, 2);
		putf(root, cpu < 2 ? "512" : "256", "cpu/cpu%u/cpu_capacity", cpu, 0);
	}
	t = load_sysfs(root);
	assert_string_equal(list_of(topology_sibling_cpumask(t, 0)), "0");
	assert_string_equal(list_of(topology_cluster_cpumask(t, 3)), "2-3");
	assert_string_equal(list_of(topology_llc_cpumask(t, 3)), "2-3");
	assert_false(t->has_clusters);
	assert_int_equal(t->nr_llcs, 2);
	assert_int_equal(t->cpus[0].capacity, 1024);
	assert_int_equal(t->cpus[3].capacity, 512);
	assert_true(t->asym_capacity);
	/* no cache beyond the private one: it is the shared one too */
	assert_int_equal(t->cost.cache_l2_kb, 1024);
	assert_int_equal(t->cost.cache_llc_kb, 1024);
	assert_non_null(strstr(t->approximations, "rescaled"));
	assert_non_null(strstr(t->approximations, "no NUMA information"));
	topology_free(t);
	remove_root(root);
}

/*
 * One package of 8 cores in clusters of 2, an L3 shared by each half of
 * the package (a subset of it, as on a chiplet), and an L2 shared as
 * @l2 says ("pair": the cluster; else the list itself, for every CPU).
 */
static struct topology *load_shared_caches(const char *l2)
{
	const char *root = make_root();
	struct topology *t;

	put(root, "cpu/online", "0-7");
	for (unsigned int cpu = 0; cpu < 8; cpu++) {
		char self[8], pair[8], half[8];

		snprintf(self, sizeof(self), "%u", cpu);
		snprintf(pair, sizeof(pair), "%u-%u", cpu & ~1U, (cpu & ~1U) + 1);
		snprintf(half, sizeof(half), "%u-%u", cpu & ~3U, (cpu & ~3U) + 3);
		putf(root, self, "cpu/cpu%u/topology/core_cpus_list", cpu, 0);
		putf(root, pair, "cpu/cpu%u/topology/cluster_cpus_list", cpu, 0);
		putf(root, "0-7", "cpu/cpu%u/topology/package_cpus_list", cpu, 0);
		putf(root, "2", "cpu/cpu%u/cache/index%d/level", cpu, 2);
		putf(root, "Unified", "cpu/cpu%u/cache/index%d/type", cpu, 2);
		putf(root, strcmp(l2, "pair") ? l2 : pair,
		     "cpu/cpu%u/cache/index%d/shared_cpu_list", cpu, 2);
		putf(root, "3", "cpu/cpu%u/cache/index%d/level", cpu, 3);
		putf(root, "Unified", "cpu/cpu%u/cache/index%d/type", cpu, 3);
		putf(root, half, "cpu/cpu%u/cache/index%d/shared_cpu_list", cpu, 3);
	}
	t = load_sysfs(root);
	remove_root(root);
	return t;
}

/* the L2 span read when every CPU's L2 list says @l2; @noted: as an approximation */
static void expect_l2_span(const char *l2, enum cache_span span, bool noted)
{
	struct topology *t = load_shared_caches(l2);

	assert_int_equal(t->cache_l2_span, span);
	assert_int_equal(strstr(t->approximations, "the L2's shared_cpu_list is no level of the "
						   "topology: taken as the LLC") != NULL,
			 noted);
	topology_free(t);
}

/*
 * Which CPUs share each cache level: the LLC from the highest level's
 * shared_cpu_list (a subset of the package: two LLCs), the footprint
 * model's L2 span from the first CPU's level-2 list: the level it is
 * exactly, else the narrowest that holds it, noted.
 */
static void test_sysfs_shared_caches(void **state)
{
	struct topology *t;

	(void)state;
	t = load_shared_caches("pair");
	assert_int_equal(t->nr_llcs, 2);
	assert_string_equal(list_of(topology_llc_cpumask(t, 0)), "0-3");
	assert_string_equal(list_of(topology_llc_cpumask(t, 5)), "4-7");
	assert_string_equal(list_of(topology_cluster_cpumask(t, 5)), "4-5");
	assert_true(t->has_clusters);
	assert_int_equal(t->cache_l2_span, CACHE_SPAN_CLUSTER);
	assert_null(strstr(t->approximations, "shared_cpu_list"));
	topology_free(t);

	/* each core its own L2: the default span; as wide as the LLC, the LLC; wider, the package */
	expect_l2_span("0", CACHE_SPAN_DEFAULT, false);
	expect_l2_span("0-3", CACHE_SPAN_LLC, false);
	expect_l2_span("0-7", CACHE_SPAN_PACKAGE, false);
	/* three CPUs are no level: the LLC holds them, and that is noted */
	expect_l2_span("0-2", CACHE_SPAN_LLC, true);
}

/* Only a CPU list, with holes: everything else falls back, and says so. */
static void test_sysfs_minimal(void **state)
{
	const char *root = make_root();
	struct topology *t;

	(void)state;
	put(root, "cpu/online", "0-1,4-5");
	t = load_sysfs(root);
	assert_int_equal(t->nr_cpus, 4);
	assert_int_equal(t->nr_packages, 1);
	assert_int_equal(t->nr_llcs, 1);
	assert_int_equal(t->nr_nodes, 1);
	assert_int_equal(t->nr_cores, 4);
	{
		struct cost_model def;

		/* no cache sizes: the defaults' stay */
		cost_model_default(&def);
		assert_int_equal(t->cost.cache_l2_kb, def.cache_l2_kb);
		assert_int_equal(t->cost.cache_llc_kb, def.cache_llc_kb);
	}
	assert_non_null(strstr(t->approximations, "renumbered"));
	assert_non_null(strstr(t->approximations, "no cache information"));
	assert_non_null(strstr(t->approximations, "no cpufreq"));
	assert_non_null(strstr(t->approximations, "no cpuidle"));
	topology_free(t);
	remove_root(root);
}

/*
 * An online list that names no CPU (an empty file; found by fuzz_sysfs, as
 * cpu/online being a directory) is an error, not a machine of zero CPUs.
 */
static void test_sysfs_empty_online(void **state)
{
	const char *root = make_root();
	char err[256];

	(void)state;
	put(root, "cpu/online", "");
	put(root, "cpu/cpu0/topology/core_cpus_list", "0");
	assert_null(topology_load_sysfs(root, err, sizeof(err)));
	assert_non_null(strstr(err, "cpu/online: no CPU"));
	remove_root(root);
}

/* A cluster that spans two nodes cannot be simulated: the shape is flattened. */
static void test_sysfs_inconsistent(void **state)
{
	const char *root = make_root();
	char err[256];
	struct topology *t;

	(void)state;
	put(root, "cpu/online", "0-1");
	put(root, "cpu/cpu0/topology/cluster_cpus_list", "0-1");
	put(root, "cpu/cpu1/topology/cluster_cpus_list", "0-1");
	put(root, "node/online", "0-1");
	put(root, "node/node0/cpulist", "0");
	put(root, "node/node1/cpulist", "1");
	put(root, "node/node0/distance", "10 20");
	put(root, "node/node1/distance", "20 10");
	t = load_sysfs(root);
	assert_int_equal(t->nr_cpus, 2);
	assert_int_equal(t->nr_nodes, 1);
	assert_non_null(strstr(t->approximations, "flattened"));
	topology_free(t);
	remove_root(root);

	assert_null(topology_load_sysfs("/nonexistent-schedlab-root", err, sizeof(err)));
	assert_non_null(strstr(err, "no CPUs found"));
}

/*
 * A file that is there but malformed is an error naming it, never a silent
 * default: a negative capacity once read as 2^64 - 5 and was reported as "the
 * biggest CPU has capacity 1" (issue 18).
 */
static void test_sysfs_bad_values(void **state)
{
	static const struct {
		const char *file, *val, *want;
	} bad[] = {
		{ "cpu/cpu1/cpu_capacity", "-5", "cpu1/cpu_capacity: '-5' is not a non-negative" },
		{ "cpu/cpu1/cpu_capacity", "0", "cpu1/cpu_capacity: '0' is not a capacity" },
		{ "cpu/cpu1/cpu_capacity", "99999999999", "'99999999999' is not a capacity" },
		{ "cpu/cpu1/cpu_capacity", "512x", "'512x' is not a non-negative" },
		{ "cpu/cpu0/cpuidle/state0/latency", "+3", "state0/latency: '+3' is not" },
		/* a list that does not parse is no list to fall back from, on the host too */
		{ "cpu/cpu1/topology/core_cpus_list", "1,x", "core_cpus_list: '1,x' is not a CPU list" },
		{ "node/online", "0-", "node/online: '0-' is not a node list" },
		/* cacheinfo writes KiB with a K; anything else, or past 1 GiB, is no size */
		{ "cpu/cpu0/cache/index2/size", "2M", "index2/size: '2M' is not a cache size" },
		{ "cpu/cpu0/cache/index2/size", "1024", "'1024' is not a cache size" },
		{ "cpu/cpu0/cache/index2/size", "0K", "'0K' is not a cache size" },
		{ "cpu/cpu0/cache/index2/size", "-1K", "'-1K' is not a cache size" },
		{ "cpu/cpu0/cache/index2/size", "1048577K", "'1048577K' is not a cache size" },
	};

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
		const char *root = make_root();
		char err[512];

		put(root, "cpu/online", "0-1");
		put(root, "cpu/cpu0/cpu_capacity", "1024");
		put(root, "cpu/cpu0/cpuidle/state0/name", "C1");
		put(root, "cpu/cpu0/cpuidle/state0/latency", "1");
		put(root, "cpu/cpu0/cpuidle/state0/residency", "1");
		put(root, "cpu/cpu0/cache/index2/level", "2");
		put(root, "cpu/cpu0/cache/index2/type", "Unified");
		put(root, bad[k].file, bad[k].val);
		assert_null(topology_load_sysfs(root, err, sizeof(err)));
		if (!strstr(err, bad[k].want))
			fail_msg("%s = %s: got '%s'", bad[k].file, bad[k].val, err);
		remove_root(root);
	}
}

/* physical_package_id -1 (older arm64 kernels) means no id, as if absent. */
static void test_sysfs_package_id_minus_one(void **state)
{
	const char *root = make_root();
	struct topology *t;

	(void)state;
	put(root, "cpu/online", "0-1");
	put(root, "cpu/cpu0/topology/physical_package_id", "-1");
	put(root, "cpu/cpu1/topology/physical_package_id", "-1");
	t = load_sysfs(root);
	assert_int_equal(t->nr_packages, 1);
	assert_non_null(strstr(t->approximations, "no package information"));
	topology_free(t);
	remove_root(root);
}

/* Sibling lists that disagree are used as each CPU gives them, with a note. */
static void test_sysfs_siblings_disagree(void **state)
{
	const char *root = make_root();
	struct topology *t;

	(void)state;
	put(root, "cpu/online", "0-3");
	put(root, "cpu/cpu0/topology/core_cpus_list", "0-1");
	put(root, "cpu/cpu1/topology/core_cpus_list", "1");
	put(root, "cpu/cpu2/topology/core_cpus_list", "2-3");
	put(root, "cpu/cpu3/topology/core_cpus_list", "2-3");
	t = load_sysfs(root);
	assert_string_equal(list_of(topology_sibling_cpumask(t, 0)), "0");
	assert_string_equal(list_of(topology_sibling_cpumask(t, 1)), "1");
	assert_string_equal(list_of(topology_sibling_cpumask(t, 2)), "2-3");
	assert_non_null(strstr(t->approximations,
			       "SMT sibling lists disagree (cpu0: 0-1, cpu1: 1)"));
	topology_free(t);
	remove_root(root);

	/* lists that agree say nothing */
	root = make_root();
	put(root, "cpu/online", "0-3");
	put(root, "cpu/cpu0/topology/core_cpus_list", "0-1");
	put(root, "cpu/cpu1/topology/core_cpus_list", "0-1");
	put(root, "cpu/cpu2/topology/core_cpus_list", "2-3");
	put(root, "cpu/cpu3/topology/core_cpus_list", "2-3");
	t = load_sysfs(root);
	assert_null(strstr(t->approximations, "disagree"));
	topology_free(t);
	remove_root(root);
}

static void test_host(void **state)
{
	char err[512];
	struct topology *t;
	char *s;

	(void)state;
	t = topology_load("host", err, sizeof(err));
	if (!t)
		fail_msg("host: %s", err);
	assert_string_equal(t->name, "host");
	assert_true(t->nr_cpus >= 1);
	assert_int_equal(cpumask_weight(t->all), t->nr_cpus);
	s = print_to_string(t);
	expect_in(s, "Machine: host (");
	free(s);
	topology_free(t);
}

/* ---- generated machines: hwloc's synthetic syntax ---- */

static void expect_synthetic_error(const char *desc, const char *needle)
{
	char err[512] = "";
	struct topology *t = topology_load(desc, err, sizeof(err));

	if (t)
		fail_msg("'%s' loaded as %s", desc, t->name);
	if (!strstr(err, needle))
		fail_msg("'%s': message '%s' does not mention '%s'", desc, err, needle);
	assert_null(strchr(err, '\n'));
}

static void test_synthetic(void **state)
{
	struct topology *t;

	(void)state;
	/* the 1024-CPU machine of bench/speed.sh: hwloc numbers PUs depth first */
	t = load("synthetic:pack:4 l3:16 core:8 pu:2");
	assert_string_equal(t->name, "synthetic:pack:4 numa:1 l3:16 core:8 pu:2");
	assert_int_equal(t->nr_cpus, 1024);
	assert_int_equal(t->nr_packages, 4);
	assert_int_equal(t->nr_nodes, 4);
	assert_int_equal(t->nr_llcs, 64);
	assert_int_equal(t->nr_cores, 512);
	assert_int_equal(t->smt_width, 2);
	assert_false(t->has_clusters);
	assert_string_equal(list_of(topology_sibling_cpumask(t, 0)), "0-1");
	assert_string_equal(list_of(topology_llc_cpumask(t, 17)), "16-31");
	assert_string_equal(list_of(topology_core_cpumask(t, 1023)), "768-1023");
	assert_int_equal(t->node_distance[0 * 4 + 1], 20);
	topology_free(t);

	/* two nodes per package: 12 between them, 20 to other packages */
	t = load("synthetic:PACK:2 Node:2 core:3");
	assert_string_equal(t->name, "synthetic:pack:2 numa:2 l3:1 core:3 pu:1");
	assert_int_equal(t->nr_cpus, 12);
	assert_false(t->has_smt);
	assert_string_equal(list_of(topology_node_cpumask(t, 3)), "3-5");
	assert_string_equal(list_of(topology_core_cpumask(t, 3)), "0-5");
	assert_int_equal(t->node_distance[0 * 4 + 1], 12);
	assert_int_equal(t->node_distance[1 * 4 + 2], 20);
	assert_int_equal(t->node_distance[3 * 4 + 3], 10);
	topology_free(t);

	/* one level only, tabs and spaces around the items */
	t = load("synthetic:\tcore:4  ");
	assert_int_equal(t->nr_cpus, 4);
	assert_int_equal(t->nr_nodes, 1);
	topology_free(t);

	/* the widest machine there is */
	t = load("synthetic:pack:16 numa:2 l3:8 core:16 pu:2");
	assert_int_equal(t->nr_cpus, NR_CPUS);
	assert_int_equal(t->nr_nodes, 32);
	topology_free(t);

	expect_synthetic_error("synthetic:", "no levels");
	expect_synthetic_error("synthetic:   ", "no levels");
	expect_synthetic_error("synthetic:l2:2", "unknown level 'l2'");
	expect_synthetic_error("synthetic:group:2 core:2", "unknown level 'group'");
	expect_synthetic_error("synthetic:core:2 pack:2", "'pack' after 'core'");
	expect_synthetic_error("synthetic:numa:2 pack:2", "'pack' after 'numa'");
	expect_synthetic_error("synthetic:pu:2 pu:2", "'pu' after 'pu'");
	expect_synthetic_error("synthetic:core", "expected TYPE:COUNT");
	expect_synthetic_error("synthetic::2", "unknown level ''");
	expect_synthetic_error("synthetic:core:", "'' is not a count");
	expect_synthetic_error("synthetic:core:-1", "'-1' is not a count");
	expect_synthetic_error("synthetic:core:0", "count 0 is not in 1..8192");
	expect_synthetic_error("synthetic:core:8193", "count 8193 is not in 1..8192");
	expect_synthetic_error("synthetic:core:18446744073709551617", "count 18446744073709551617");
	expect_synthetic_error("synthetic:core:2x", "unexpected 'x'");
	expect_synthetic_error("synthetic:pu:2(indexes=0,1)", "unexpected '('");
	expect_synthetic_error("synthetic:core:2\npu:2", "unexpected '?'");
	expect_synthetic_error("synthetic:pack:8192 numa:8192 l3:8192 core:8192 pu:8192",
			       "8192 x 8192 x 8192 x 8192 x 8192 is more than 8192 CPUs");
	expect_synthetic_error("synthetic:pack:2 core:4096 pu:2", "is more than 8192 CPUs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preset_list),
		cmocka_unit_test(test_preset_shapes),
		cmocka_unit_test(test_preset_invariants),
		cmocka_unit_test(test_numbering),
		cmocka_unit_test(test_distances),
		cmocka_unit_test(test_unknown_machine),
		cmocka_unit_test(test_print_tree),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_sysfs_x86_like),
		cmocka_unit_test(test_sysfs_cluster_without_shared_cache),
		cmocka_unit_test(test_sysfs_shared_caches),
		cmocka_unit_test(test_sysfs_minimal),
		cmocka_unit_test(test_sysfs_inconsistent),
		cmocka_unit_test(test_sysfs_bad_values),
		cmocka_unit_test(test_sysfs_package_id_minus_one),
		cmocka_unit_test(test_sysfs_siblings_disagree),
		cmocka_unit_test(test_sysfs_empty_online),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_synthetic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
