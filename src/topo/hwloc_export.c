// SPDX-License-Identifier: GPL-2.0-only
/*
 * `schedlab topo -m X --export-hwloc FILE.xml`: a machine as hwloc 2.x XML,
 * the mapping hwloc_import.c reads turned around:
 *
 *   Package   each package (os_index: the package id)
 *   Group     a NUMA node that is smaller than its package, or that holds
 *             several packages: the object its NUMANode hangs from
 *   NUMANode  each node, a memory child of the object with its CPUs
 *   L3Cache   the scheduler's LLC (size: the footprint model's shared cache)
 *   L2Cache   the cluster (size: the footprint model's private cache)
 *   Core, PU  the cores and CPUs (PU os_index: the CPU number)
 *   distances the SLIT, as hwloc's NUMALatency matrix
 *   cpukinds  one kind per (capacity, maximum frequency), LinuxCapacity and
 *             FrequencyMaxMHz, ranked by capacity
 *
 * The objects are written as XML, loaded with libhwloc (which checks them),
 * the distances and kinds added through libhwloc's API, and the file is
 * what hwloc_topology_export_xmlbuffer() writes: lstopo reads it as any
 * other. No Die objects: schedlab has no die level.
 */
#include "topo/topology.h"

#include "sim/alloc.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

struct xml_out {
	const struct topology *t;
	FILE *f;
	hwloc_bitmap_t set;
	unsigned int gp;
};

static void cpuset_of(struct xml_out *o, const struct cpumask *m)
{
	unsigned int cpu;

	hwloc_bitmap_zero(o->set);
	for_each_cpu(cpu, m)
		hwloc_bitmap_set(o->set, cpu);
}

/* The attributes every object has: its CPUs and the nodes they are in. */
static void open_obj(struct xml_out *o, int depth, const char *type, const struct cpumask *m,
		     const char *extra)
{
	const struct topology *t = o->t;
	hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
	char *cs, *ns;
	unsigned int cpu;

	cpuset_of(o, m);
	for_each_cpu(cpu, m)
		hwloc_bitmap_set(nodes, t->cpus[cpu].node);
	hwloc_bitmap_asprintf(&cs, o->set);
	hwloc_bitmap_asprintf(&ns, nodes);
	fprintf(o->f,
		"%*s<object type=\"%s\"%s cpuset=\"%s\" complete_cpuset=\"%s\" nodeset=\"%s\" complete_nodeset=\"%s\" gp_index=\"%u\"",
		depth * 2, "", type, extra, cs, cs, ns, ns, ++o->gp);
	free(cs);
	free(ns);
	hwloc_bitmap_free(nodes);
}

static void put_numa(struct xml_out *o, int depth, unsigned int node)
{
	char extra[32];

	snprintf(extra, sizeof(extra), " os_index=\"%u\"", node);
	open_obj(o, depth, "NUMANode", o->t->node_mask[node], extra);
	fputs("/>\n", o->f);
}

static void put_cache(struct xml_out *o, int depth, int level, u64 kb, const struct cpumask *m)
{
	open_obj(o, depth, level == 3 ? "L3Cache" : "L2Cache", m, "");
	fprintf(o->f,
		" cache_size=\"%llu\" depth=\"%d\" cache_linesize=\"64\" cache_associativity=\"0\" cache_type=\"0\">\n",
		(unsigned long long)kb * 1024, level);
}

static void put_core(struct xml_out *o, int depth, unsigned int core)
{
	const struct cpumask *m = o->t->core_mask[core];
	struct cpumask *one = alloc_cpumask();
	char extra[32];
	unsigned int cpu;

	snprintf(extra, sizeof(extra), " os_index=\"%u\"", core);
	open_obj(o, depth, "Core", m, extra);
	fputs(">\n", o->f);
	for_each_cpu(cpu, m) {
		cpumask_clear(one);
		cpumask_set_cpu(cpu, one);
		snprintf(extra, sizeof(extra), " os_index=\"%u\"", cpu);
		open_obj(o, depth + 1, "PU", one, extra);
		fputs("/>\n", o->f);
	}
	fprintf(o->f, "%*s</object>\n", depth * 2, "");
	free_cpumask(one);
}

static unsigned int first_cpu(const struct cpumask *m)
{
	return cpumask_first(m);
}

/* The LLCs whose first CPU is in @m, each with its clusters, cores and CPUs. */
static void put_llcs(struct xml_out *o, int depth, const struct cpumask *m)
{
	const struct topology *t = o->t;

	for (unsigned int llc = 0; llc < t->nr_llcs; llc++) {
		const struct cpumask *lm = t->llc_mask[llc];

		if (!cpumask_test_cpu(first_cpu(lm), m))
			continue;
		put_cache(o, depth, 3, t->cost.cache_llc_kb, lm);
		for (unsigned int cl = 0; cl < t->nr_clusters; cl++) {
			const struct cpumask *cm = t->cluster_mask[cl];

			if (t->cpus[first_cpu(cm)].llc != llc)
				continue;
			put_cache(o, depth + 1, 2, t->cost.cache_l2_kb, cm);
			for (unsigned int core = 0; core < t->nr_cores; core++)
				if (t->cpus[first_cpu(t->core_mask[core])].cluster == cl)
					put_core(o, depth + 2, core);
			fprintf(o->f, "%*s</object>\n", (depth + 1) * 2, "");
		}
		fprintf(o->f, "%*s</object>\n", depth * 2, "");
	}
}

static void put_group(struct xml_out *o, int depth, const struct cpumask *m)
{
	open_obj(o, depth, "Group", m, "");
	fputs(">\n", o->f);
}

/* A package, with the nodes inside it (as Groups) or the one node that is the package. */
static void put_package(struct xml_out *o, int depth, unsigned int pkg)
{
	const struct topology *t = o->t;
	const struct cpumask *pm = t->package_mask[pkg];
	unsigned int node0 = t->cpus[first_cpu(pm)].node;
	char extra[32];

	snprintf(extra, sizeof(extra), " os_index=\"%u\"", pkg);
	open_obj(o, depth, "Package", pm, extra);
	fputs(">\n", o->f);
	if (cpumask_equal(pm, t->node_mask[node0])) {
		put_numa(o, depth + 1, node0);
		put_llcs(o, depth + 1, pm);
	} else if (cpumask_subset(pm, t->node_mask[node0])) {
		/* the node holds this package and more: its NUMANode is above */
		put_llcs(o, depth + 1, pm);
	} else {
		for (unsigned int n = 0; n < t->nr_nodes; n++) {
			const struct cpumask *nm = t->node_mask[n];

			if (t->cpus[first_cpu(nm)].package != pkg)
				continue;
			put_group(o, depth + 1, nm);
			put_numa(o, depth + 2, n);
			put_llcs(o, depth + 2, nm);
			fprintf(o->f, "%*s</object>\n", (depth + 1) * 2, "");
		}
	}
	fprintf(o->f, "%*s</object>\n", depth * 2, "");
}

static void put_packages(struct xml_out *o, int depth, const struct cpumask *m)
{
	for (unsigned int pkg = 0; pkg < o->t->nr_packages; pkg++)
		if (cpumask_test_cpu(first_cpu(o->t->package_mask[pkg]), m))
			put_package(o, depth, pkg);
}

static void put_objects(struct xml_out *o)
{
	const struct topology *t = o->t;
	const struct cpumask *n0 = t->node_mask[0];
	/* nodes hold whole packages (the usual case) or nest inside them */
	bool nodes_above = cpumask_subset(t->package_mask[t->cpus[first_cpu(n0)].package], n0) &&
			   !cpumask_equal(t->package_mask[t->cpus[first_cpu(n0)].package], n0);
	char *cs, *ns;
	hwloc_bitmap_t nodes = hwloc_bitmap_alloc();

	cpuset_of(o, t->all);
	hwloc_bitmap_set_range(nodes, 0, (int)t->nr_nodes - 1);
	hwloc_bitmap_asprintf(&cs, o->set);
	hwloc_bitmap_asprintf(&ns, nodes);
	fprintf(o->f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
		"<topology version=\"2.0\">\n"
		"  <object type=\"Machine\" os_index=\"0\" cpuset=\"%s\" complete_cpuset=\"%s\" allowed_cpuset=\"%s\" nodeset=\"%s\" complete_nodeset=\"%s\" allowed_nodeset=\"%s\" gp_index=\"%u\">\n",
		cs, cs, cs, ns, ns, ns, ++o->gp);
	free(cs);
	free(ns);
	hwloc_bitmap_free(nodes);
	if (nodes_above && t->nr_nodes == 1) {
		put_numa(o, 2, 0);
		put_packages(o, 2, t->all);
	} else if (nodes_above) {
		for (unsigned int n = 0; n < t->nr_nodes; n++) {
			put_group(o, 2, t->node_mask[n]);
			put_numa(o, 3, n);
			put_packages(o, 3, t->node_mask[n]);
			fputs("    </object>\n", o->f);
		}
	} else {
		put_packages(o, 2, t->all);
	}
	fputs("  </object>\n</topology>\n", o->f);
}

static int add_distances(hwloc_topology_t topo, const struct topology *t)
{
	unsigned int nr = t->nr_nodes;
	hwloc_obj_t *objs;
	hwloc_uint64_t *values;
	hwloc_distances_add_handle_t h;
	int ret = -1;

	if (nr < 2)
		return 0; /* hwloc wants at least 2 objects */
	objs = xcalloc(nr, sizeof(*objs));
	values = xcalloc((size_t)nr * nr, sizeof(*values));
	for (unsigned int n = 0; n < nr; n++) {
		objs[n] = hwloc_get_numanode_obj_by_os_index(topo, n);
		if (!objs[n])
			goto out;
	}
	for (size_t i = 0; i < (size_t)nr * nr; i++)
		values[i] = (hwloc_uint64_t)t->node_distance[i];
	h = hwloc_distances_add_create(
		topo, "NUMALatency",
		HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0);
	if (h && !hwloc_distances_add_values(topo, h, nr, objs, values, 0) &&
	    !hwloc_distances_add_commit(topo, h, 0))
		ret = 0;
out:
	free(objs);
	free(values);
	return ret;
}

/* One kind per distinct (capacity, maximum frequency), ranked from the smallest. */
static int add_cpukinds(hwloc_topology_t topo, const struct topology *t)
{
	unsigned long *key = xcalloc(t->nr_cpus, sizeof(*key));
	unsigned int nr = 0;
	int ret = 0;

	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		unsigned long k = t->cpus[cpu].capacity << 24 | t->cpus[cpu].max_freq_khz / 1000;
		unsigned int i;

		for (i = 0; i < nr && key[i] != k; i++)
			;
		if (i == nr)
			key[nr++] = k;
	}
	for (unsigned int i = 1; i < nr; i++)
		for (unsigned int j = i; j && key[j] < key[j - 1]; j--) {
			unsigned long tmp = key[j];

			key[j] = key[j - 1];
			key[j - 1] = tmp;
		}
	for (unsigned int i = 0; i < nr && !ret; i++) {
		hwloc_bitmap_t set = hwloc_bitmap_alloc();
		char cap[24], mhz[24];
		struct hwloc_info_s infos[2] = { { (char *)"FrequencyMaxMHz", mhz },
						 { (char *)"LinuxCapacity", cap } };

		snprintf(cap, sizeof(cap), "%lu", key[i] >> 24);
		snprintf(mhz, sizeof(mhz), "%lu", key[i] & 0xffffff);
		for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++)
			if ((t->cpus[cpu].capacity << 24 | t->cpus[cpu].max_freq_khz / 1000) ==
			    key[i])
				hwloc_bitmap_set(set, cpu);
		ret = hwloc_cpukinds_register(topo, set, (int)i, 2, infos, 0);
		hwloc_bitmap_free(set);
	}
	free(key);
	return ret;
}

int topology_export_hwloc(const struct topology *t, FILE *out, char *err, size_t errlen)
{
	struct xml_out o = { .t = t, .set = hwloc_bitmap_alloc() };
	hwloc_topology_t topo = NULL;
	char *text = NULL, *xml = NULL;
	size_t len = 0;
	int xlen = 0, ret = -1;

	o.f = open_memstream(&text, &len);
	if (!o.f) {
		snprintf(err, errlen, "--export-hwloc: out of memory");
		goto out;
	}
	put_objects(&o);
	fclose(o.f);
	if (hwloc_topology_init(&topo)) {
		topo = NULL;
		snprintf(err, errlen, "--export-hwloc: hwloc_topology_init failed");
		goto out;
	}
	/* keep the Groups that carry the NUMA nodes of a node smaller than its package */
	hwloc_topology_set_type_filter(topo, HWLOC_OBJ_GROUP, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (hwloc_topology_set_xmlbuffer(topo, text, (int)len + 1) || hwloc_topology_load(topo) ||
	    add_distances(topo, t) || add_cpukinds(topo, t) ||
	    hwloc_topology_export_xmlbuffer(topo, &xml, &xlen, 0)) {
		/* what the exporter wrote, libhwloc refused: a bug here */
		snprintf(err, errlen, "--export-hwloc: libhwloc refused the topology of '%s'",
			 t->name);
		goto out;
	}
	fwrite(xml, 1, strlen(xml), out);
	ret = 0;
out:
	if (xml)
		hwloc_free_xmlbuffer(topo, xml);
	if (topo)
		hwloc_topology_destroy(topo);
	hwloc_bitmap_free(o.set);
	free(text);
	return ret;
}
