// SPDX-License-Identifier: GPL-2.0-only
/*
 * -m hwloc:FILE.xml: a machine from hwloc's XML (lstopo --of xml), read
 * with libhwloc rather than by hand, so every XML version hwloc writes is
 * read as hwloc reads it. The mapping (docs/machines.md, "hwloc XML"):
 *
 *   PU        a CPU, numbered by its os_index (must be 0..N-1)
 *   Core      the SMT level (a PU without a Core is a core of its own)
 *   L2Cache   the cluster (equal to the core where the L2 is private)
 *   L3Cache   the LLC (the package where there is no L3)
 *   Package   the package
 *   NUMANode  the node holding the PU in its cpuset; distances from the
 *             first NUMA distance matrix, if any
 *   cpukinds  LinuxCapacity (scaled so the biggest is 1024) and
 *             FrequencyMaxMHz, where the XML has them
 *
 * What hwloc does not describe (idle states, the other frequencies, costs)
 * is the synthetic machines', and the approximations say so.
 */
#include "topo/machine_file.h"

#include "sim/alloc.h"

#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

enum { HW_PACK, HW_NODE, HW_LLC, HW_CLUSTER, HW_CORE, NR_HW };

struct hw_import {
	hwloc_topology_t topo;
	const char *path;
	unsigned int nr;
	hwloc_obj_t *pu; /* [nr], by os_index */
	hwloc_obj_t *obj[NR_HW]; /* [nr]: each PU's object at each level, NULL if none */
	unsigned int nr_ids[NR_HW];
};

static const struct idle_state hwloc_idle[] = {
	{ "POLL", 0, 0, true, false, false },
	{ "C1", 2 * NSEC_PER_USEC, 2 * NSEC_PER_USEC, true, false, false },
};

static hwloc_obj_t ancestor(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_obj_t pu)
{
	return hwloc_get_ancestor_obj_by_type(topo, type, pu);
}

/* The NUMA node whose cpuset holds @pu (hwloc attaches nodes as memory children). */
static hwloc_obj_t node_of(hwloc_topology_t topo, hwloc_obj_t pu)
{
	hwloc_obj_t n = NULL;

	while ((n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, n)))
		if (n->cpuset && hwloc_bitmap_isset(n->cpuset, pu->os_index))
			return n;
	return NULL;
}

static int collect_pus(struct hw_import *h, char *err, size_t errlen)
{
	int nr = hwloc_get_nbobjs_by_type(h->topo, HWLOC_OBJ_PU);
	hwloc_obj_t pu = NULL;

	if (nr < 1 || nr > NR_CPUS) {
		snprintf(err, errlen, "%s: %d PUs; schedlab simulates 1 to %d CPUs", h->path, nr,
			 NR_CPUS);
		return -1;
	}
	h->nr = (unsigned int)nr;
	h->pu = xcalloc(h->nr, sizeof(*h->pu));
	while ((pu = hwloc_get_next_obj_by_type(h->topo, HWLOC_OBJ_PU, pu))) {
		if (pu->os_index >= h->nr || h->pu[pu->os_index]) {
			snprintf(
				err, errlen,
				"%s: PU os_index %u: the %u PUs must be numbered 0 to %u, each once",
				h->path, pu->os_index, h->nr, h->nr - 1);
			return -1;
		}
		h->pu[pu->os_index] = pu;
	}
	return 0;
}

/* Each PU's object at each level; a level some PUs lack and others have is refused. */
static int collect_levels(struct hw_import *h, char *err, size_t errlen)
{
	static const char *const what[NR_HW] = { "Package", "NUMANode", "L3Cache", "L2Cache",
						 "Core" };
	static const hwloc_obj_type_t types[NR_HW] = { HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE,
						       HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE,
						       HWLOC_OBJ_CORE };

	for (int l = 0; l < NR_HW; l++) {
		unsigned int have = 0;

		h->obj[l] = xcalloc(h->nr, sizeof(hwloc_obj_t));
		for (unsigned int cpu = 0; cpu < h->nr; cpu++) {
			hwloc_obj_t o = l == HW_NODE ? node_of(h->topo, h->pu[cpu]) :
						       ancestor(h->topo, types[l], h->pu[cpu]);

			h->obj[l][cpu] = o;
			have += o != NULL;
		}
		if (have && have != h->nr) {
			snprintf(
				err, errlen,
				"%s: some PUs are under a %s and others are not; schedlab needs every CPU at every level",
				h->path, what[l]);
			return -1;
		}
	}
	return 0;
}

/*
 * Dense ids in order of each object's first CPU, as the presets number
 * theirs; a level without objects falls back to @fallback's ids (or one id).
 */
static void assign_ids(struct hw_import *h, struct topology *t, int l, int fallback)
{
	hwloc_obj_t *seen = xcalloc(h->nr, sizeof(*seen));
	unsigned int n = 0;

	for (unsigned int cpu = 0; cpu < h->nr; cpu++) {
		struct cpu_topo *c = &t->cpus[cpu];
		unsigned int *id = l == HW_PACK	   ? &c->package :
				   l == HW_NODE	   ? &c->node :
				   l == HW_LLC	   ? &c->llc :
				   l == HW_CLUSTER ? &c->cluster :
						     &c->core;
		hwloc_obj_t o = h->obj[l][cpu];
		unsigned int k;

		if (!o) {
			if (fallback < 0)
				*id = l == HW_CORE ? cpu : 0;
			else
				*id = fallback == HW_PACK ? c->package : c->core;
			continue;
		}
		for (k = 0; k < n && seen[k] != o; k++)
			;
		if (k == n)
			seen[n++] = o;
		*id = k;
	}
	h->nr_ids[l] = n;
	free(seen);
}

/* NUMA distances: the first matrix hwloc has for NUMA nodes, restricted to those with CPUs. */
static int import_distances(struct hw_import *h, struct topology *t, char *err, size_t errlen)
{
	struct hwloc_distances_s *d = NULL;
	unsigned int nr = 1, nodes = h->nr_ids[HW_NODE];
	int *idx;

	if (!nodes || hwloc_distances_get_by_type(h->topo, HWLOC_OBJ_NUMANODE, &nr, &d, 0, 0) ||
	    !nr)
		return 0;
	idx = xmalloc(nodes * sizeof(*idx));
	for (unsigned int a = 0; a < nodes; a++)
		idx[a] = -1;
	for (unsigned int i = 0; i < d->nbobjs; i++)
		for (unsigned int cpu = 0; cpu < h->nr; cpu++)
			if (h->obj[HW_NODE][cpu] == d->objs[i])
				idx[t->cpus[cpu].node] = (int)i;
	for (unsigned int a = 0; a < nodes; a++) {
		if (idx[a] < 0) {
			snprintf(err, errlen, "%s: the NUMA distance matrix leaves out node %u",
				 h->path, a);
			free(idx);
			hwloc_distances_release(h->topo, d);
			return -1;
		}
	}
	t->nr_nodes = nodes;
	t->node_distance = xcalloc((size_t)nodes * nodes, sizeof(int));
	for (unsigned int a = 0; a < nodes; a++) {
		for (unsigned int b = 0; b < nodes; b++) {
			hwloc_uint64_t v = d->values[(size_t)idx[a] * d->nbobjs + (size_t)idx[b]];

			/* topology_finish() names a value that is not a SLIT */
			t->node_distance[a * nodes + b] = v > 1000 ? 1000 : (int)v;
		}
	}
	free(idx);
	hwloc_distances_release(h->topo, d);
	return 0;
}

/* Capacities and maximum frequencies from the CPU kinds, where hwloc has them. */
static void import_cpukinds(struct hw_import *h, struct topology *t, char *note, size_t len)
{
	int nr = hwloc_cpukinds_get_nr(h->topo, 0);
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	unsigned long max_cap = 0;
	bool cap = false;

	for (int k = 0; k < nr; k++) {
		struct hwloc_info_s *infos;
		unsigned int nr_infos, cpu;
		unsigned long c = 0, mhz = 0;
		int eff;

		if (hwloc_cpukinds_get_info(h->topo, (unsigned int)k, set, &eff, &nr_infos, &infos,
					    0))
			continue;
		for (unsigned int i = 0; i < nr_infos; i++) {
			if (!strcmp(infos[i].name, "LinuxCapacity"))
				c = strtoul(infos[i].value, NULL, 10);
			if (!strcmp(infos[i].name, "FrequencyMaxMHz"))
				mhz = strtoul(infos[i].value, NULL, 10);
		}
		hwloc_bitmap_foreach_begin(cpu, set)
		{
			if (cpu < h->nr) {
				if (c) {
					t->cpus[cpu].capacity = c;
					cap = true;
				}
				if (mhz && mhz < 100000) {
					t->cpus[cpu].nr_opps = 1;
					t->cpus[cpu].opp_khz[0] = (unsigned int)mhz * 1000;
					t->cpus[cpu].max_freq_khz = (unsigned int)mhz * 1000;
				}
			}
		}
		hwloc_bitmap_foreach_end();
	}
	hwloc_bitmap_free(set);
	for (unsigned int cpu = 0; cap && cpu < h->nr; cpu++)
		if (t->cpus[cpu].capacity > max_cap)
			max_cap = t->cpus[cpu].capacity;
	/* as arch_topology normalises cpu_capacity: the biggest CPU is 1024 */
	for (unsigned int cpu = 0; cap && cpu < h->nr; cpu++)
		t->cpus[cpu].capacity =
			(t->cpus[cpu].capacity * SCHED_CAPACITY_SCALE + max_cap / 2) / max_cap;
	if (!cap)
		snprintf(note, len, "%s", "no cpukind capacities: 1024 everywhere; ");
}

static struct topology *build(struct hw_import *h, char *err, size_t errlen)
{
	struct topology *t = xcalloc(1, sizeof(*t));
	char note[64] = "";

	snprintf(t->name, sizeof(t->name), "hwloc:%s", h->path);
	t->hz = 250;
	cost_model_default(&t->cost);
	if (topology_alloc_cpus(t, h->nr, err, errlen))
		goto fail;
	assign_ids(h, t, HW_PACK, -1);
	assign_ids(h, t, HW_NODE, -1);
	assign_ids(h, t, HW_CORE, -1);
	/* no L3: the package is the LLC; no L2: the core is the cluster */
	assign_ids(h, t, HW_LLC, HW_PACK);
	assign_ids(h, t, HW_CLUSTER, HW_CORE);
	for (unsigned int cpu = 0; cpu < h->nr; cpu++) {
		struct cpu_topo *c = &t->cpus[cpu];

		/* the synthetic CPU class: 1.0 to 2.0 GHz in 100 MHz steps */
		c->capacity = SCHED_CAPACITY_SCALE;
		c->nr_opps = 0;
		for (unsigned int f = 1000000; f <= 2000000; f += 100000)
			c->opp_khz[c->nr_opps++] = f;
		c->max_freq_khz = 2000000;
	}
	import_cpukinds(h, t, note, sizeof(note));
	if (import_distances(h, t, err, errlen))
		goto fail;
	t->nr_idle_states = ARRAY_SIZE(hwloc_idle);
	memcpy(t->idle_states, hwloc_idle, sizeof(hwloc_idle));
	snprintf(t->cpufreq.driver, sizeof(t->cpufreq.driver), "%s", "hwloc");
	snprintf(t->description, sizeof(t->description), "Imported from hwloc XML %.200s, %u CPUs",
		 h->path, h->nr);
	snprintf(t->approximations, sizeof(t->approximations),
		 "imported from hwloc XML: %sfrequencies (unless cpukinds give a maximum), idle "
		 "states POLL and C1 and costs are the synthetic machines'; %s",
		 note, h->nr_ids[HW_LLC] ? "the LLC is the L3" : "no L3: the LLC is the package");
	if (topology_finish(t, err, errlen))
		goto fail;
	return t;
fail:
	topology_free(t);
	return NULL;
}

struct topology *topology_load_hwloc(const char *path, char *err, size_t errlen)
{
	struct hw_import h = { .path = path };
	struct topology *t = NULL;
	FILE *f = fopen(path, "r");

	/* hwloc's own message for a missing file is a generic failure */
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	fclose(f);
	if (hwloc_topology_init(&h.topo)) {
		snprintf(err, errlen, "%s: hwloc_topology_init failed", path);
		return NULL;
	}
	if (hwloc_topology_set_xml(h.topo, path) || hwloc_topology_load(h.topo)) {
		snprintf(err, errlen, "%s: hwloc cannot read it as topology XML (lstopo --of xml)",
			 path);
		goto out;
	}
	if (!collect_pus(&h, err, errlen) && !collect_levels(&h, err, errlen))
		t = build(&h, err, errlen);
out:
	free(h.pu);
	for (int l = 0; l < NR_HW; l++)
		free(h.obj[l]);
	hwloc_topology_destroy(h.topo);
	return t;
}
