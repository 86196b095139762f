// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machines named in hwloc's synthetic topology syntax: -m 'synthetic:pack:4
 * l3:16 core:8 pu:2', as `lstopo -i "pack:4 l3:16 core:8 pu:2"` reads it.
 * Each item is TYPE:COUNT, the number of such objects under each object of
 * the level before, outermost first.
 *
 * The subset here is what the scheduler's domains are built from: packages,
 * NUMA nodes inside a package, LLCs (l3), cores and PUs (SMT threads), in
 * that order, each at most once and each optional (a missing level has one
 * object per parent). hwloc's other types (l2, l1, group, misc), its
 * attributes in parentheses and NUMA nodes above packages are refused with
 * a message, never read approximately. The machine itself is built by
 * topology_build_regular(), below; docs/machines.md.
 */
#include "topo/machine_file.h"
#include "topo/topology.h"

#include "sim/alloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SYNTHETIC_PREFIX "synthetic:"

enum syn_level { SYN_PACK, SYN_NUMA, SYN_L3, SYN_CORE, SYN_PU, NR_SYN_LEVELS };

/* hwloc's names for the levels this subset knows (case does not matter) */
static const struct {
	const char *name;
	enum syn_level level;
} syn_types[] = {
	{ "pack", SYN_PACK }, { "package", SYN_PACK }, { "socket", SYN_PACK },
	{ "numa", SYN_NUMA }, { "node", SYN_NUMA },    { "numanode", SYN_NUMA },
	{ "l3", SYN_L3 },     { "l3cache", SYN_L3 },   { "core", SYN_CORE },
	{ "pu", SYN_PU },
};

static const char *const syn_names[NR_SYN_LEVELS] = { "pack", "numa", "l3", "core", "pu" };

static int syn_type(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(syn_types); i++)
		if (strlen(syn_types[i].name) == len && !strncasecmp(s, syn_types[i].name, len))
			return (int)syn_types[i].level;
	return -1;
}

/* ---- the regular machine: everything but the shape is fixed ---- */

/* a polling state and one shallow state, as the smp* presets have */
static const struct idle_state simple_idle[] = {
	{ "POLL", 0, 0, true, false, false },
	{ "C1", 2 * NSEC_PER_USEC, 2 * NSEC_PER_USEC, true, false, false },
};

/* one policy per CPU, a fast-switching driver with no stated latency */
static const struct cpufreq_desc synthetic_cpufreq = {
	.span = CPUFREQ_SPAN_CPU,
	.driver = "synthetic",
	.transition_latency_ns = 0,
	.source = "synthetic: one policy per CPU; no transition latency, so rate_limit_us is "
		  "cpufreq's 1 ms default (cpufreq_policy_transition_delay_us())",
};

int topology_build_regular(struct topology *t, const struct regular_shape *shape, char *err,
			   size_t errlen)
{
	/* each LLC's cores are its clusters, one core each: no CLS level */
	const unsigned int counts[MF_NR_LEVELS] = {
		shape->packages,
		shape->nodes_per_package,
		shape->llcs_per_node,
		shape->cores_per_llc,
		1,
		shape->threads_per_core,
	};
	unsigned int nodes = shape->packages * shape->nodes_per_package;
	unsigned int nr =
		nodes * shape->llcs_per_node * shape->cores_per_llc * shape->threads_per_core;

	if (topology_alloc_cpus(t, nr, err, errlen))
		return -1;
	mf_regular_ids(counts, NUMB_CONSECUTIVE, t->cpus);
	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		struct cpu_topo *c = &t->cpus[cpu];

		/* the synthetic CPU class: 1.0 to 2.0 GHz in 100 MHz steps */
		c->capacity = SCHED_CAPACITY_SCALE;
		c->nr_opps = 0;
		for (unsigned int f = 1000000; f <= 2000000; f += 100000)
			c->opp_khz[c->nr_opps++] = f;
		c->max_freq_khz = 2000000;
	}
	/* hwloc's string has no distances: SNC-like inside a package, ACPI's default beyond */
	t->nr_nodes = nodes;
	t->node_distance = xcalloc((size_t)nodes * nodes, sizeof(int));
	for (unsigned int a = 0; a < nodes; a++)
		for (unsigned int b = 0; b < nodes; b++)
			t->node_distance[a * nodes + b] =
				a == b							     ? 10 :
				a / shape->nodes_per_package == b / shape->nodes_per_package ? 12 :
											       20;
	t->hz = 250;
	t->cpufreq = synthetic_cpufreq;
	t->nr_idle_states = ARRAY_SIZE(simple_idle);
	memcpy(t->idle_states, simple_idle, sizeof(simple_idle));
	cost_model_default(&t->cost);
	snprintf(t->approximations, sizeof(t->approximations), "%s",
		 "generated machine (hwloc's synthetic syntax), not a real part: "
		 "the synthetic CPU class, POLL and C1 idle states, SLIT 10 local, "
		 "12 inside a package, 20 between packages, default costs");
	return 0;
}

/* The description as typed, made printable, for one-line messages. */
static void printable(char *buf, size_t len, const char *desc)
{
	size_t n = 0;

	for (; *desc && n + 1 < len; desc++)
		buf[n++] = isprint((unsigned char)*desc) ? *desc : '?';
	buf[n] = '\0';
}

/* Parse the items after "synthetic:" into @count (one per level, 1 if absent). */
static int syn_parse(const char *p, const char *shown, unsigned int count[NR_SYN_LEVELS], char *err,
		     size_t errlen)
{
	int last = -1;

	for (int l = 0; l < NR_SYN_LEVELS; l++)
		count[l] = 1;
	for (;;) {
		const char *item, *colon, *digits;
		unsigned long v = 0;
		int type;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		item = p;
		while (*p && *p != ':' && *p != ' ' && *p != '\t')
			p++;
		if (*p != ':') {
			snprintf(
				err, errlen,
				"machine '%s': expected TYPE:COUNT (pack, numa, l3, core, pu), got '%.*s'",
				shown, (int)(p - item), item);
			return -1;
		}
		colon = p;
		type = syn_type(item, (size_t)(colon - item));
		if (type < 0) {
			snprintf(
				err, errlen,
				"machine '%s': unknown level '%.*s' (this subset of hwloc's synthetic syntax has pack, numa, l3, core, pu)",
				shown, (int)(colon - item), item);
			return -1;
		}
		if (type <= last) {
			snprintf(
				err, errlen,
				"machine '%s': '%s' after '%s': the levels go outermost first, each once (pack, numa, l3, core, pu)",
				shown, syn_names[type], syn_names[last]);
			return -1;
		}
		last = type;
		p = colon + 1;
		if (!isdigit((unsigned char)*p)) {
			snprintf(err, errlen, "machine '%s': %s: '%.*s' is not a count", shown,
				 syn_names[type], (int)strcspn(p, " \t"), p);
			return -1;
		}
		digits = p;
		while (isdigit((unsigned char)*p)) {
			/* stop growing past the bound; the digits are still consumed */
			if (v <= NR_CPUS)
				v = v * 10 + (unsigned long)(*p - '0');
			p++;
		}
		if (v > NR_CPUS || v == 0) {
			snprintf(err, errlen, "machine '%s': %s: count %.*s is not in 1..%d", shown,
				 syn_names[type], (int)(p - digits), digits, NR_CPUS);
			return -1;
		}
		if (*p && *p != ' ' && *p != '\t') {
			snprintf(
				err, errlen,
				"machine '%s': %s:%lu: unexpected '%c' (attributes in parentheses and other extensions are not read)",
				shown, syn_names[type], v, isprint((unsigned char)*p) ? *p : '?');
			return -1;
		}
		count[type] = (unsigned int)v;
	}
	if (last < 0) {
		snprintf(err, errlen,
			 "machine '%s': no levels (e.g. 'synthetic:pack:2 core:8 pu:2')", shown);
		return -1;
	}
	return 0;
}

struct topology *topology_load_synthetic(const char *desc, char *err, size_t errlen)
{
	unsigned int c[NR_SYN_LEVELS];
	struct regular_shape shape;
	unsigned long long cpus = 1;
	struct topology *t;
	char shown[96];

	printable(shown, sizeof(shown), desc);
	if (strncmp(desc, SYNTHETIC_PREFIX, strlen(SYNTHETIC_PREFIX))) {
		snprintf(err, errlen, "machine '%s': not a 'synthetic:' description", shown);
		return NULL;
	}
	if (syn_parse(desc + strlen(SYNTHETIC_PREFIX), shown, c, err, errlen))
		return NULL;
	/* each count is at most NR_CPUS: stop before the product can wrap */
	for (int l = 0; l < NR_SYN_LEVELS && cpus <= NR_CPUS; l++)
		cpus *= c[l];
	if (cpus > NR_CPUS) {
		snprintf(
			err, errlen,
			"machine '%s': %u x %u x %u x %u x %u is more than %d CPUs, the most schedlab simulates",
			shown, c[SYN_PACK], c[SYN_NUMA], c[SYN_L3], c[SYN_CORE], c[SYN_PU],
			NR_CPUS);
		return NULL;
	}

	t = xcalloc(1, sizeof(*t));
	/* the canonical form, every level given: at most 55 characters */
	snprintf(t->name, sizeof(t->name), SYNTHETIC_PREFIX "pack:%u numa:%u l3:%u core:%u pu:%u",
		 c[SYN_PACK], c[SYN_NUMA], c[SYN_L3], c[SYN_CORE], c[SYN_PU]);
	snprintf(t->description, sizeof(t->description),
		 "Generated (hwloc synthetic syntax, not a real part): %u package%s x %u node%s x "
		 "%u LLC%s x %u core%s x %u thread%s, %llu CPU%s",
		 c[SYN_PACK], c[SYN_PACK] == 1 ? "" : "s", c[SYN_NUMA], c[SYN_NUMA] == 1 ? "" : "s",
		 c[SYN_L3], c[SYN_L3] == 1 ? "" : "s", c[SYN_CORE], c[SYN_CORE] == 1 ? "" : "s",
		 c[SYN_PU], c[SYN_PU] == 1 ? "" : "s", cpus, cpus == 1 ? "" : "s");
	t->hz = 250;
	cost_model_default(&t->cost);
	shape = (struct regular_shape){
		.packages = c[SYN_PACK],
		.nodes_per_package = c[SYN_NUMA],
		.llcs_per_node = c[SYN_L3],
		.cores_per_llc = c[SYN_CORE],
		.threads_per_core = c[SYN_PU],
	};
	if (topology_build_regular(t, &shape, err, errlen) || topology_finish(t, err, errlen)) {
		topology_free(t);
		return NULL;
	}
	return t;
}
