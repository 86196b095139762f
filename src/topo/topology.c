// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machine topology: loading a machine by name, deriving the masks and flags
 * from per-CPU ids, validating the shape, and printing it as a tree.
 *
 * Builders (presets.c, sysfs.c) only fill per-CPU ids and properties;
 * topology_finish() is the one place that turns those into masks, so every
 * machine, whatever its source, is checked by the same rules.
 */
#include "topo/topology.h"

#include "topo/machine_file.h"
#include "topo/host_kernel.h"
#include "topo/machine_guest.h"

#include "sim/alloc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NO_ID UINT_MAX

int topology_alloc_cpus(struct topology *t, unsigned int nr, char *err, size_t errlen)
{
	if (nr < 1 || nr > NR_CPUS) {
		snprintf(err, errlen, "machine '%s': %u CPUs; schedlab simulates 1 to %u CPUs",
			 t->name, nr, NR_CPUS);
		return -1;
	}
	free(t->cpus);
	t->cpus = xcalloc(nr, sizeof(*t->cpus));
	t->nr_cpus = nr;
	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		struct cpu_topo *c = &t->cpus[cpu];

		c->core = c->cluster = c->llc = c->package = c->node = NO_ID;
	}
	return 0;
}

static void free_masks(struct cpumask **masks, unsigned int nr)
{
	if (!masks)
		return;
	for (unsigned int i = 0; i < nr; i++)
		free_cpumask(masks[i]);
	free(masks);
}

void topology_free(struct topology *t)
{
	if (!t)
		return;
	free_masks(t->core_mask, t->nr_cores);
	free_masks(t->cluster_mask, t->nr_clusters);
	free_masks(t->llc_mask, t->nr_llcs);
	free_masks(t->package_mask, t->nr_packages);
	free_masks(t->node_mask, t->nr_nodes);
	free_cpumask(t->all);
	free(t->node_distance);
	free(t->em);
	free(t->cpus);
	free(t);
}

/* The levels of the hierarchy, innermost first, for generic checks. */
enum level { L_CORE, L_CLUSTER, L_LLC, L_PACKAGE, L_NODE, NR_LEVELS };

static const char *const level_names[NR_LEVELS] = { "core", "cluster", "LLC", "package", "node" };

const char *const cpufreq_governor_names[NR_CPUFREQ_GOVERNORS] = {
	[CPUFREQ_GOV_PERFORMANCE] = "performance",
	[CPUFREQ_GOV_POWERSAVE] = "powersave",
	[CPUFREQ_GOV_USERSPACE] = "userspace",
	[CPUFREQ_GOV_SCHEDUTIL] = "schedutil",
	[CPUFREQ_GOV_ONDEMAND] = "ondemand",
	[CPUFREQ_GOV_CONSERVATIVE] = "conservative",
};

int cpufreq_governor_lookup(const char *name, size_t len)
{
	for (int g = 0; g < NR_CPUFREQ_GOVERNORS; g++)
		if (strlen(cpufreq_governor_names[g]) == len &&
		    !strncmp(cpufreq_governor_names[g], name, len))
			return g;
	return -1;
}

static unsigned int *level_id(struct cpu_topo *c, enum level l)
{
	switch (l) {
	case L_CORE:
		return &c->core;
	case L_CLUSTER:
		return &c->cluster;
	case L_LLC:
		return &c->llc;
	case L_PACKAGE:
		return &c->package;
	default:
		return &c->node;
	}
}

static unsigned int level_get(const struct topology *t, unsigned int cpu, enum level l)
{
	return *level_id(&t->cpus[cpu], l);
}

/*
 * Every CPU has an id at level @l, and the ids are dense (0..n-1, each used).
 * Returns n, or 0 with a message.
 */
static unsigned int count_ids(const struct topology *t, enum level l, char *err, size_t errlen)
{
	unsigned int max = 0;
	unsigned char *used;

	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		unsigned int id = level_get(t, cpu, l);

		if (id == NO_ID) {
			snprintf(err, errlen, "machine '%s': CPU %u has no %s id", t->name, cpu,
				 level_names[l]);
			return 0;
		}
		if (id >= t->nr_cpus) {
			snprintf(err, errlen,
				 "machine '%s': CPU %u has %s id %u, but there are only %u CPUs",
				 t->name, cpu, level_names[l], id, t->nr_cpus);
			return 0;
		}
		if (id > max)
			max = id;
	}
	used = xcalloc(max + 1, 1);
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++)
		used[level_get(t, cpu, l)] = 1;
	for (unsigned int id = 0; id <= max; id++) {
		if (!used[id]) {
			snprintf(
				err, errlen,
				"machine '%s': %s ids are not dense: no CPU is in %s %u (ids go up to %u)",
				t->name, level_names[l], level_names[l], id, max);
			free(used);
			return 0;
		}
	}
	free(used);
	return max + 1;
}

/*
 * Every group at level @inner lies inside one group at level @outer.
 * Returns 0, or -1 with a message naming the group and two of its CPUs.
 */
static int check_inside(const struct topology *t, enum level inner, unsigned int nr_inner,
			enum level outer, char *err, size_t errlen)
{
	unsigned int *first = xcalloc(nr_inner, sizeof(*first));

	for (unsigned int i = 0; i < nr_inner; i++)
		first[i] = NO_ID;
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		unsigned int g = level_get(t, cpu, inner);
		unsigned int f = first[g];

		if (f == NO_ID) {
			first[g] = cpu;
			continue;
		}
		if (level_get(t, f, outer) != level_get(t, cpu, outer)) {
			snprintf(err, errlen,
				 "machine '%s': %s %u spans %ss %u and %u (CPUs %u and %u)",
				 t->name, level_names[inner], g, level_names[outer],
				 level_get(t, f, outer), level_get(t, cpu, outer), f, cpu);
			free(first);
			return -1;
		}
	}
	free(first);
	return 0;
}

static bool all_inside(const struct topology *t, enum level inner, unsigned int nr_inner,
		       enum level outer)
{
	char dummy[8];

	return check_inside(t, inner, nr_inner, outer, dummy, sizeof(dummy)) == 0;
}

static struct cpumask **build_masks(const struct topology *t, enum level l, unsigned int nr)
{
	struct cpumask **masks = xcalloc(nr, sizeof(*masks));

	for (unsigned int i = 0; i < nr; i++)
		masks[i] = alloc_cpumask();
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++)
		cpumask_set_cpu(cpu, masks[level_get(t, cpu, l)]);
	return masks;
}

static int check_cpu_props(struct topology *t, char *err, size_t errlen)
{
	unsigned long max_cap = 0;

	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct cpu_topo *c = &t->cpus[cpu];

		if (c->capacity < 1 || c->capacity > SCHED_CAPACITY_SCALE) {
			snprintf(err, errlen,
				 "machine '%s': CPU %u has capacity %lu (must be 1..%d)", t->name,
				 cpu, c->capacity, SCHED_CAPACITY_SCALE);
			return -1;
		}
		if (c->capacity > max_cap)
			max_cap = c->capacity;
		if (!c->max_freq_khz) {
			snprintf(err, errlen, "machine '%s': CPU %u has no maximum frequency",
				 t->name, cpu);
			return -1;
		}
		if (!c->nr_opps) {
			c->nr_opps = 1;
			c->opp_khz[0] = c->max_freq_khz;
		}
		if (c->nr_opps > TOPO_MAX_OPPS) {
			snprintf(err, errlen,
				 "machine '%s': CPU %u has %u frequencies (at most %d)", t->name,
				 cpu, c->nr_opps, TOPO_MAX_OPPS);
			return -1;
		}
		for (unsigned int i = 1; i < c->nr_opps; i++) {
			if (c->opp_khz[i] <= c->opp_khz[i - 1]) {
				snprintf(
					err, errlen,
					"machine '%s': CPU %u frequencies are not ascending (%u kHz then %u kHz)",
					t->name, cpu, c->opp_khz[i - 1], c->opp_khz[i]);
				return -1;
			}
		}
		if (c->opp_khz[0] == 0 || c->opp_khz[c->nr_opps - 1] != c->max_freq_khz) {
			snprintf(
				err, errlen,
				"machine '%s': CPU %u highest frequency %u kHz is not its maximum %u kHz",
				t->name, cpu, c->opp_khz[c->nr_opps - 1], c->max_freq_khz);
			return -1;
		}
	}
	if (max_cap != SCHED_CAPACITY_SCALE) {
		snprintf(
			err, errlen,
			"machine '%s': the biggest CPU has capacity %lu; capacities are scaled so that it is %d",
			t->name, max_cap, SCHED_CAPACITY_SCALE);
		return -1;
	}
	return 0;
}

static int check_distances(struct topology *t, unsigned int nr_nodes, char *err, size_t errlen)
{
	if (!t->node_distance) {
		/* no SLIT: the ACPI default, 10 local and 20 remote */
		t->node_distance = xcalloc((size_t)nr_nodes * nr_nodes, sizeof(int));
		for (unsigned int a = 0; a < nr_nodes; a++)
			for (unsigned int b = 0; b < nr_nodes; b++)
				t->node_distance[a * nr_nodes + b] = a == b ? 10 : 20;
		return 0;
	}
	if (t->nr_nodes != nr_nodes) {
		snprintf(err, errlen,
			 "machine '%s': the node distance matrix is %ux%u but CPUs are in %u nodes",
			 t->name, t->nr_nodes, t->nr_nodes, nr_nodes);
		return -1;
	}
	for (unsigned int a = 0; a < nr_nodes; a++) {
		for (unsigned int b = 0; b < nr_nodes; b++) {
			int d = t->node_distance[a * nr_nodes + b];

			if (a == b && d != 10) {
				snprintf(
					err, errlen,
					"machine '%s': distance from node %u to itself is %d (must be 10)",
					t->name, a, d);
				return -1;
			}
			if (a != b && d <= 10) {
				snprintf(
					err, errlen,
					"machine '%s': distance from node %u to node %u is %d (must be > 10)",
					t->name, a, b, d);
				return -1;
			}
			if (d != t->node_distance[b * nr_nodes + a]) {
				snprintf(
					err, errlen,
					"machine '%s': node distances are not symmetric (%u->%u is %d, %u->%u is %d)",
					t->name, a, b, d, b, a, t->node_distance[b * nr_nodes + a]);
				return -1;
			}
		}
	}
	return 0;
}

static int check_machine_props(const struct topology *t, char *err, size_t errlen)
{
	if (t->hz < 1 || t->hz > 10000) {
		snprintf(err, errlen, "machine '%s': HZ %u (must be 1..10000)", t->name, t->hz);
		return -1;
	}
	if (t->nr_idle_states > TOPO_MAX_IDLE_STATES) {
		snprintf(err, errlen, "machine '%s': %u idle states (at most %d)", t->name,
			 t->nr_idle_states, TOPO_MAX_IDLE_STATES);
		return -1;
	}
	for (unsigned int i = 0; i < t->nr_idle_states; i++) {
		if (!t->idle_states[i].name[0]) {
			snprintf(err, errlen, "machine '%s': idle state %u has no name", t->name,
				 i);
			return -1;
		}
		if (i &&
		    t->idle_states[i].exit_latency_ns < t->idle_states[i - 1].exit_latency_ns) {
			snprintf(err, errlen,
				 "machine '%s': idle state %s is shallower than %s before it",
				 t->name, t->idle_states[i].name, t->idle_states[i - 1].name);
			return -1;
		}
	}
	return 0;
}

int topology_finish(struct topology *t, char *err, size_t errlen)
{
	unsigned int nr[NR_LEVELS];

	if (t->nr_cpus < 1 || t->nr_cpus > NR_CPUS || !t->cpus) {
		snprintf(err, errlen, "machine '%s': %u CPUs; schedlab simulates 1 to %u CPUs",
			 t->name, t->nr_cpus, NR_CPUS);
		return -1;
	}
	for (int l = 0; l < NR_LEVELS; l++) {
		nr[l] = count_ids(t, (enum level)l, err, errlen);
		if (!nr[l])
			return -1;
	}
	/* core inside cluster inside LLC, each inside one package and one node */
	for (int in = L_CORE; in <= L_LLC; in++)
		for (int out = in + 1; out < NR_LEVELS; out++)
			if (check_inside(t, (enum level)in, nr[in], (enum level)out, err, errlen))
				return -1;
	if (!all_inside(t, L_NODE, nr[L_NODE], L_PACKAGE) &&
	    !all_inside(t, L_PACKAGE, nr[L_PACKAGE], L_NODE)) {
		char e1[256];

		check_inside(t, L_NODE, nr[L_NODE], L_PACKAGE, e1, sizeof(e1));
		snprintf(
			err, errlen,
			"%s, and some package also spans several nodes: nodes and packages must nest one way",
			e1);
		return -1;
	}
	if (check_cpu_props(t, err, errlen) || check_machine_props(t, err, errlen) ||
	    check_distances(t, nr[L_NODE], err, errlen))
		return -1;

	/* the machine is sane: size the masks for it and build them */
	cpumask_setup(t->nr_cpus);
	t->nr_cores = nr[L_CORE];
	t->nr_clusters = nr[L_CLUSTER];
	t->nr_llcs = nr[L_LLC];
	t->nr_packages = nr[L_PACKAGE];
	t->nr_nodes = nr[L_NODE];
	t->core_mask = build_masks(t, L_CORE, t->nr_cores);
	t->cluster_mask = build_masks(t, L_CLUSTER, t->nr_clusters);
	t->llc_mask = build_masks(t, L_LLC, t->nr_llcs);
	t->package_mask = build_masks(t, L_PACKAGE, t->nr_packages);
	t->node_mask = build_masks(t, L_NODE, t->nr_nodes);
	t->all = alloc_cpumask();
	cpumask_setall(t->all);

	/* SMT thread index: rank within the core, by CPU number */
	t->smt_width = 0;
	for (unsigned int core = 0; core < t->nr_cores; core++) {
		unsigned int cpu, thread = 0;

		for_each_cpu(cpu, t->core_mask[core])
			t->cpus[cpu].thread = thread++;
		if (thread > t->smt_width)
			t->smt_width = thread;
	}
	t->has_smt = t->smt_width > 1;

	t->has_clusters = false;
	for (unsigned int cl = 0; cl < t->nr_clusters; cl++) {
		const struct cpumask *m = t->cluster_mask[cl];
		unsigned int first = cpumask_first(m);

		if (!cpumask_equal(m, t->core_mask[t->cpus[first].core]) &&
		    !cpumask_equal(m, t->llc_mask[t->cpus[first].llc]))
			t->has_clusters = true;
	}

	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++)
		if (!t->cpus[cpu].speed)
			t->cpus[cpu].speed = t->cpus[cpu].capacity;
	t->asym_capacity = false;
	for (unsigned int cpu = 1; cpu < t->nr_cpus; cpu++)
		if (t->cpus[cpu].capacity != t->cpus[0].capacity)
			t->asym_capacity = true;
	return 0;
}

struct topology *topology_load(const char *name, char *err, size_t errlen)
{
	const struct machine_preset *p = NULL;

	if (name && !strcmp(name, "host")) {
		struct topology *t = topology_load_sysfs("/sys", err, errlen);

		if (t) {
			topology_detect_host_guest(t, "/sys");
			topology_detect_host_kernel(t);
		}
		return t;
	}
	if (name && !strncmp(name, "synthetic:", strlen("synthetic:")))
		return topology_load_synthetic(name, err, errlen);
	if (name && !strncmp(name, "sysfs:", strlen("sysfs:")))
		return topology_load_sysfs_dir(name + strlen("sysfs:"), err, errlen);
	if (name && !strncmp(name, "hwloc:", strlen("hwloc:")))
		return topology_load_hwloc(name + strlen("hwloc:"), err, errlen);
	if (name && strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".xml"))
		return topology_load_hwloc(name, err, errlen);
	if (name && machine_name_is_path(name))
		return topology_load_machine_file(name, err, errlen);
	for (unsigned int i = 0; name && i < nr_machine_presets; i++)
		if (!strcmp(machine_presets[i].name, name))
			p = &machine_presets[i];
	if (!p) {
		snprintf(err, errlen, "unknown machine '%s' (see 'schedlab machines')",
			 name ? name : "");
		return NULL;
	}

	return topology_load_preset(p, err, errlen);
}

/* ---- printing ---- */

static void print_list(FILE *out, const struct cpumask *m)
{
	char buf[256];
	int n = cpumask_print_list(buf, sizeof(buf), m);

	if ((size_t)n < sizeof(buf)) {
		fputs(buf, out);
	} else {
		char *big = xcalloc((size_t)n + 1, 1);

		cpumask_print_list(big, (size_t)n + 1, m);
		fputs(big, out);
		free(big);
	}
}

static void print_mhz(FILE *out, unsigned int khz)
{
	if (khz % 1000)
		fprintf(out, "%u.%03u", khz / 1000, khz % 1000);
	else
		fprintf(out, "%u", khz / 1000);
}

static void print_us(FILE *out, u64 ns)
{
	if (ns % 1000)
		fprintf(out, "%llu.%03llu", (unsigned long long)(ns / 1000),
			(unsigned long long)(ns % 1000));
	else
		fprintf(out, "%llu", (unsigned long long)(ns / 1000));
}

static void print_core(const struct topology *t, FILE *out, unsigned int core, int indent)
{
	const struct cpumask *m = t->core_mask[core];

	fprintf(out, "%*sCore %u: CPUs ", indent, "", core);
	print_list(out, m);
	fprintf(out, "  capacity %lu\n", t->cpus[cpumask_first(m)].capacity);
}

static void print_llc(const struct topology *t, FILE *out, unsigned int llc, int indent)
{
	const struct cpumask *m = t->llc_mask[llc];

	fprintf(out, "%*sLLC %u: CPUs ", indent, "", llc);
	print_list(out, m);
	fputc('\n', out);
	if (t->has_clusters) {
		for (unsigned int cl = 0; cl < t->nr_clusters; cl++) {
			const struct cpumask *cm = t->cluster_mask[cl];

			if (t->cpus[cpumask_first(cm)].llc != llc)
				continue;
			fprintf(out, "%*sCluster %u: CPUs ", indent + 2, "", cl);
			print_list(out, cm);
			fputc('\n', out);
			for (unsigned int core = 0; core < t->nr_cores; core++)
				if (t->cpus[cpumask_first(t->core_mask[core])].cluster == cl)
					print_core(t, out, core, indent + 4);
		}
		return;
	}
	for (unsigned int core = 0; core < t->nr_cores; core++)
		if (t->cpus[cpumask_first(t->core_mask[core])].llc == llc)
			print_core(t, out, core, indent + 2);
}

/* LLCs of @pkg that are in @node (or in any node when @node is NO_ID). */
static void print_llcs(const struct topology *t, FILE *out, unsigned int pkg, unsigned int node,
		       int indent)
{
	for (unsigned int llc = 0; llc < t->nr_llcs; llc++) {
		const struct cpu_topo *c = &t->cpus[cpumask_first(t->llc_mask[llc])];

		if (c->package == pkg && (node == NO_ID || c->node == node))
			print_llc(t, out, llc, indent);
	}
}

static bool same_class(const struct cpu_topo *a, const struct cpu_topo *b)
{
	return a->capacity == b->capacity && a->speed == b->speed &&
	       a->max_freq_khz == b->max_freq_khz && a->nr_opps == b->nr_opps &&
	       !memcmp(a->opp_khz, b->opp_khz, a->nr_opps * sizeof(a->opp_khz[0])) &&
	       !memcmp(&a->turbo, &b->turbo, sizeof(a->turbo));
}

/* a class's turbo limit by active cores in its package, group by group */
static void print_turbo(const struct turbo_table *tt, FILE *out)
{
	unsigned int from = 1;

	if (!tt->nr)
		return;
	fprintf(out, "      turbo by active cores in the package (cores: MHz):");
	for (unsigned int i = 0; i < tt->nr; i++) {
		if (from == tt->upto[i])
			fprintf(out, "%s %u: ", i ? "," : "", from);
		else
			fprintf(out, "%s %u-%u: ", i ? "," : "", from, tt->upto[i]);
		print_mhz(out, tt->khz[i]);
		from = tt->upto[i] + 1;
	}
	fputc('\n', out);
}

static void print_classes(const struct topology *t, FILE *out)
{
	struct cpumask *done = alloc_cpumask(), *cls = alloc_cpumask();

	fprintf(out, "  CPU classes:\n");
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct cpu_topo *c = &t->cpus[cpu];

		if (cpumask_test_cpu(cpu, done))
			continue;
		cpumask_clear(cls);
		for (unsigned int o = cpu; o < t->nr_cpus; o++)
			if (same_class(c, &t->cpus[o]))
				cpumask_set_cpu(o, cls);
		cpumask_or(done, done, cls);
		fprintf(out, "    CPUs ");
		print_list(out, cls);
		fprintf(out, ": capacity %lu, ", c->capacity);
		if (c->speed != c->capacity)
			fprintf(out, "speed %lu, ", c->speed);
		if (c->nr_opps > 1) {
			print_mhz(out, c->opp_khz[0]);
			fputc('-', out);
		}
		print_mhz(out, c->max_freq_khz);
		fprintf(out, " MHz, %u frequenc%s:", c->nr_opps, c->nr_opps == 1 ? "y" : "ies");
		for (unsigned int i = 0; i < c->nr_opps; i++) {
			fputc(' ', out);
			print_mhz(out, c->opp_khz[i]);
		}
		fputc('\n', out);
		print_turbo(&c->turbo, out);
	}
	free_cpumask(done);
	free_cpumask(cls);
}

void topology_format_cpufreq(const struct topology *t, char *buf, size_t len)
{
	const struct cpufreq_desc *d = &t->cpufreq;

	if (d->span == CPUFREQ_SPAN_NONE)
		snprintf(buf, len,
			 "cpufreq: no driver (%s); governor performance (the one frequency)",
			 d->driver[0] ? d->driver : "none");
	else
		snprintf(buf, len, "cpufreq: %s, a policy per %s; default governor %s",
			 d->driver[0] ? d->driver : "unnamed driver",
			 mf_cpufreq_span_names[d->span], cpufreq_governor_names[d->governor]);
}

/* SD_ASYM_PACKING's levels and the CPUs' priorities, in runs of one value */
static void print_asym_packing(const struct topology *t, FILE *out)
{
	const struct asym_packing_desc *d = &t->asym_packing;
	struct cpumask *run = alloc_cpumask();
	unsigned int cpu = 0;

	if (!d->levels)
		goto out;
	fprintf(out, "  Asym packing%s on", d->itmt ? " (ITMT)" : "");
	for (int i = 0; i < NR_ASYM_LV; i++)
		if (d->levels & (1u << i))
			fprintf(out, " %s", asym_level_names[i]);
	fprintf(out, "; priorities:");
	while (cpu < t->nr_cpus) {
		unsigned int end = cpu;

		while (end + 1 < t->nr_cpus &&
		       topology_asym_prio(t, end + 1) == topology_asym_prio(t, cpu))
			end++;
		cpumask_clear(run);
		for (unsigned int i = cpu; i <= end; i++)
			cpumask_set_cpu(i, run);
		fprintf(out, "%s CPUs ", cpu ? "," : "");
		print_list(out, run);
		fprintf(out, " %d", topology_asym_prio(t, cpu));
		cpu = end + 1;
	}
	fputc('\n', out);
out:
	free_cpumask(run);
}

void topology_print_tree(const struct topology *t, FILE *out)
{
	char line[128];

	fprintf(out, "Machine: %s (%u CPUs) - %s\n", t->name, t->nr_cpus, t->description);
	fprintf(out, "  %u package%s, %u node%s, %u LLC%s, ", t->nr_packages,
		t->nr_packages == 1 ? "" : "s", t->nr_nodes, t->nr_nodes == 1 ? "" : "s",
		t->nr_llcs, t->nr_llcs == 1 ? "" : "s");
	/*
	 * without a cluster level each core or LLC counts as its own cluster:
	 * "2 clusters ... clusters no" read as a contradiction
	 */
	if (t->has_clusters)
		fprintf(out, "%u cluster%s, ", t->nr_clusters, t->nr_clusters == 1 ? "" : "s");
	fprintf(out, "%u core%s; SMT %u; cluster level %s; asymmetric capacity %s; HZ %u\n",
		t->nr_cores, t->nr_cores == 1 ? "" : "s", t->smt_width,
		t->has_clusters ? "yes" : "no", t->asym_capacity ? "yes" : "no", t->hz);

	for (unsigned int pkg = 0; pkg < t->nr_packages; pkg++) {
		const struct cpumask *pm = t->package_mask[pkg];
		unsigned int first_node = t->cpus[cpumask_first(pm)].node;
		bool multi_node = false;
		unsigned int cpu;

		for_each_cpu(cpu, pm)
			if (t->cpus[cpu].node != first_node)
				multi_node = true;
		fprintf(out, "  Package %u (", pkg);
		if (!multi_node) {
			fprintf(out, "node %u): CPUs ", first_node);
			print_list(out, pm);
			fputc('\n', out);
			print_llcs(t, out, pkg, NO_ID, 4);
			continue;
		}
		fprintf(out, "several nodes): CPUs ");
		print_list(out, pm);
		fputc('\n', out);
		for (unsigned int node = 0; node < t->nr_nodes; node++) {
			const struct cpumask *nm = t->node_mask[node];

			if (t->cpus[cpumask_first(nm)].package != pkg)
				continue;
			fprintf(out, "    Node %u: CPUs ", node);
			print_list(out, nm);
			fputc('\n', out);
			print_llcs(t, out, pkg, node, 6);
		}
	}

	print_classes(t, out);
	topology_format_cpufreq(t, line, sizeof(line));
	fprintf(out, "  %s\n", line);
	print_asym_packing(t, out);
	if (t->guest.kvm) {
		fprintf(out, "  Guest: KVM, %s; IPIs %s",
			t->guest.cpuidle == GUEST_IDLE_HALTPOLL ? "cpuidle-haltpoll (poll, then halt)"
								  : "no cpuidle driver (HLT)",
			t->guest.ipi_virtualization ? "virtualized, no exit" : "sent through a VM exit");
		if (t->guest.steal_ppm) {
			char steal[64];

			/* "PCT:PERIOD_US": the percentage, then the period */
			guest_format_steal(&t->guest, steal, sizeof(steal));
			steal[strcspn(steal, ":")] = '\0';
			fprintf(out, "; steal %s%% of a busy vCPU, every %llu us", steal,
				(unsigned long long)(t->guest.steal_period_ns / NSEC_PER_USEC));
		}
		if (t->guest.halt_poll_given)
			fprintf(out, "; guest_halt_poll_ns %llu",
				(unsigned long long)t->guest.halt_poll_ns);
		guest_print_host_params(out, &t->guest, "; %s %s");
		fprintf(out, " (docs/guests.md)\n");
	}

	fprintf(out, "  Idle states (exit latency/target residency, us):");
	if (!t->nr_idle_states)
		fprintf(out, " none");
	for (unsigned int i = 0; i < t->nr_idle_states; i++) {
		const struct idle_state *s = &t->idle_states[i];

		fprintf(out, "%s %s ", i ? "," : "", s->name);
		print_us(out, s->exit_latency_ns);
		fputc('/', out);
		print_us(out, s->target_residency_ns);
	}
	for (unsigned int i = 0, n = 0; i < t->nr_idle_states; i++)
		if (t->idle_states[i].deep)
			fprintf(out, "%s %s", n++ ? "," : "; core inactive for turbo in",
				t->idle_states[i].name);
	fputc('\n', out);

	if (t->nr_nodes > 1) {
		fprintf(out, "  Node distances:\n    node");
		for (unsigned int b = 0; b < t->nr_nodes; b++)
			fprintf(out, " %3u", b);
		fputc('\n', out);
		for (unsigned int a = 0; a < t->nr_nodes; a++) {
			fprintf(out, "    %3u:", a);
			for (unsigned int b = 0; b < t->nr_nodes; b++)
				fprintf(out, " %3d", t->node_distance[a * t->nr_nodes + b]);
			fputc('\n', out);
		}
	}
	if (t->preempt[0] || t->kernel_source[0]) {
		fprintf(out, "  Kernel:");
		if (t->preempt[0])
			fprintf(out, " preempt %s", t->preempt);
		if (t->kernel_source[0])
			fprintf(out, " (%s)", t->kernel_source);
		fputc('\n', out);
	}
	if (t->approximations[0])
		fprintf(out, "  Approximations: %s\n", t->approximations);
}
