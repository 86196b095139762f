// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machine presets. Each is a short spec for one generic builder: how many
 * packages, nodes, LLCs, clusters, cores and threads, how Linux numbers the
 * CPUs on that machine, the CPU classes (capacity and frequencies), node
 * distances, idle states, and the cost-model overrides with their reasons.
 *
 * Sources, and what is approximate, are in docs/machines.md; keep the two
 * in step.
 *
 * How the levels map to what the kernel builds (see docs/machines.md):
 *   core    = the SMT level's span (cpu_smt_mask)
 *   cluster = cluster_cpus (CLS); equal to the core or to the LLC when the
 *             machine has no distinct cluster level
 *   llc     = the span of the domain with SD_SHARE_LLC, i.e. what the
 *             kernel's sd_llc covers (cpu_coregroup_mask on x86/arm64,
 *             the CACHE level on POWER)
 */
#include "topo/topology.h"

#include "sim/alloc.h"

#include <stdlib.h>
#include <string.h>

#define US(x) ((u64)(x)*NSEC_PER_USEC)
#define MHZ(x) ((x)*1000U)

struct cpu_class {
	unsigned long capacity;
	/* either an explicit ascending list of frequencies in kHz ... */
	const unsigned int *opps;
	unsigned int nr_opps;
	/* ... or a ladder from min to max in steps (intel_pstate-like) */
	unsigned int min_khz, step_khz, max_khz;
};

enum numbering {
	/* the threads of a core are consecutive: 0,1 | 2,3 (POWER, arm64) */
	NUM_CONSECUTIVE,
	/*
	 * x86: the first thread of every core of every package, then the
	 * second threads: with 2 x 26 cores, CPU 0's sibling is CPU 52
	 */
	NUM_X86,
	/*
	 * POWER9/10 big cores: a cluster (big core) is numbered
	 * consecutively, and its cores (SMT4 halves) interleave their
	 * threads: 0,2,4,6 and 1,3,5,7
	 */
	NUM_FUSED,
};

struct preset_spec {
	unsigned int packages;
	unsigned int nodes_per_package;
	unsigned int llcs_per_node;
	unsigned int clusters_per_llc;
	unsigned int cores_per_cluster;
	unsigned int threads_per_core;
	/* optional, per cluster of an LLC: core counts and CPU classes */
	const unsigned int *cluster_cores;
	const unsigned int *cluster_class;
	enum numbering numbering;
	const struct cpu_class *classes;
	int dist_same_package; /* between two nodes of one package */
	int dist_remote; /* between nodes of different packages */
	const int *slit; /* the whole matrix, instead of the two above */
	int node_reclaim_distance; /* 0: the generic 30 */
	const struct idle_state *idle;
	unsigned int nr_idle;
	void (*cost)(struct cost_model *c);
	/* what the footprint model's private and shared caches span (0: core, LLC) */
	enum cache_span l2_span, llc_span;
	const char *approximations;
	const struct cpufreq_desc *cpufreq;	/* NULL: synthetic_cpufreq */
};

static const struct cpufreq_desc synthetic_cpufreq;

static unsigned int cluster_cores(const struct preset_spec *s, unsigned int cl)
{
	return s->cluster_cores ? s->cluster_cores[cl] : s->cores_per_cluster;
}

static void set_class(struct cpu_topo *c, const struct cpu_class *k)
{
	if (k->opps) {
		c->nr_opps = k->nr_opps;
		memcpy(c->opp_khz, k->opps, k->nr_opps * sizeof(k->opps[0]));
		c->max_freq_khz = k->opps[k->nr_opps - 1];
	} else {
		unsigned int n = 0;

		for (unsigned int f = k->min_khz; f < k->max_khz && n < TOPO_MAX_OPPS - 1;
		     f += k->step_khz)
			c->opp_khz[n++] = f;
		c->opp_khz[n++] = k->max_khz;
		c->nr_opps = n;
		c->max_freq_khz = k->max_khz;
	}
	c->capacity = k->capacity;
}

/* The CPU number Linux gives thread @th of core @k of a cluster whose first core is @g0. */
static unsigned int cpu_number(const struct preset_spec *s, unsigned int nr_cores, unsigned int g0,
			       unsigned int ncores, unsigned int k, unsigned int th)
{
	switch (s->numbering) {
	case NUM_X86:
		return th * nr_cores + g0 + k;
	case NUM_FUSED:
		return g0 * s->threads_per_core + th * ncores + k;
	default:
		return (g0 + k) * s->threads_per_core + th;
	}
}

static int build_from_spec(struct topology *t, const struct preset_spec *s, char *err,
			   size_t errlen)
{
	unsigned int nodes = s->packages * s->nodes_per_package;
	unsigned int nr_clusters = nodes * s->llcs_per_node * s->clusters_per_llc;
	unsigned int cores_per_llc = 0, nr_cores, g = 0;

	for (unsigned int i = 0; i < s->clusters_per_llc; i++)
		cores_per_llc += cluster_cores(s, i);
	nr_cores = nodes * s->llcs_per_node * cores_per_llc;
	if (topology_alloc_cpus(t, nr_cores * s->threads_per_core, err, errlen))
		return -1;

	/* clusters in order: the LLC, node and package follow from the index */
	for (unsigned int cl = 0; cl < nr_clusters; cl++) {
		unsigned int c = cl % s->clusters_per_llc;
		unsigned int llc = cl / s->clusters_per_llc;
		unsigned int node = llc / s->llcs_per_node;
		unsigned int ncores = cluster_cores(s, c);
		const struct cpu_class *k = &s->classes[s->cluster_class ? s->cluster_class[c] : 0];

		for (unsigned int i = 0; i < ncores; i++) {
			for (unsigned int th = 0; th < s->threads_per_core; th++) {
				struct cpu_topo *ct =
					&t->cpus[cpu_number(s, nr_cores, g, ncores, i, th)];

				ct->core = g + i;
				ct->cluster = cl;
				ct->llc = llc;
				ct->node = node;
				ct->package = node / s->nodes_per_package;
				set_class(ct, k);
			}
		}
		g += ncores;
	}

	t->nr_nodes = nodes;
	t->node_distance = xcalloc((size_t)nodes * nodes, sizeof(int));
	for (unsigned int a = 0; a < nodes; a++) {
		for (unsigned int b = 0; b < nodes; b++) {
			int d;

			if (s->slit)
				d = s->slit[a * nodes + b];
			else if (a == b)
				d = 10;
			else if (a / s->nodes_per_package == b / s->nodes_per_package)
				d = s->dist_same_package;
			else
				d = s->dist_remote;
			t->node_distance[a * nodes + b] = d;
		}
	}

	t->node_reclaim_distance = s->node_reclaim_distance;
	t->cache_l2_span = s->l2_span;
	t->cache_llc_span = s->llc_span;
	t->hz = 250;
	t->cpufreq = *(s->cpufreq ? s->cpufreq : &synthetic_cpufreq);
	t->nr_idle_states = s->nr_idle;
	memcpy(t->idle_states, s->idle, s->nr_idle * sizeof(s->idle[0]));
	cost_model_default(&t->cost);
	if (s->cost)
		s->cost(&t->cost);
	snprintf(t->approximations, sizeof(t->approximations), "%s",
		 s->approximations ? s->approximations : "");
	return 0;
}

/* ---- idle states, as the cpuidle driver of each platform registers them ---- */

/* synthetic machines: a polling state and one shallow state */
static const struct idle_state simple_idle[] = {
	{ "POLL", 0, 0, true },
	{ "C1", US(2), US(2), true },
};

/*
 * intel_idle skx_cstates (Skylake-SP, Cascade Lake), plus the POLL state.
 * MWAIT keeps the polling flag (mwait_idle_with_hints() monitors it).
 */
static const struct idle_state skx_idle[] = {
	{ "POLL", 0, 0, true },
	{ "C1", US(2), US(2), true },
	{ "C1E", US(10), US(20), true },
	{ "C6", US(133), US(600), true },
};

/* intel_idle icx_cstates (Ice Lake-SP) */
static const struct idle_state icx_idle[] = {
	{ "POLL", 0, 0, true },
	{ "C1", US(1), US(1), true },
	{ "C1E", US(4), US(4), true },
	{ "C6", US(170), US(600), true },
};

/* intel_idle nehalem_cstates, used for Westmere-EX (idle_cpu_nhx) */
static const struct idle_state nhm_idle[] = {
	{ "POLL", 0, 0, true },	  { "C1", US(3), US(6), true },     { "C1E", US(10), US(20), true },
	{ "C3", US(20), US(80), true }, { "C6", US(200), US(800), true },
};

/*
 * acpi_idle on EPYC 7003: _CST C1 (MWAIT, 1 us) and C2 (I/O port, 400 us);
 * acpi_idle's target residency is twice the latency; C1 enters through
 * MWAIT (polling), C2 through an I/O port read (not). C2's 400 us is the
 * value firmware commonly reports (approximate).
 */
static const struct idle_state epyc_idle[] = {
	{ "POLL", 0, 0, true },
	{ "C1", US(1), US(2), true },
	{ "C2", US(400), US(800), false },
};

/* cpuidle-pseries shared_states: snooze (polling) and Shared Cede */
static const struct idle_state pseries_shared_idle[] = {
	{ "snooze", 0, 0, true },
	{ "Shared Cede", US(10), US(100), false },
};

/* Ampere Altra ACPI LPI: WFI and a core power-down state (approximate values) */
static const struct idle_state altra_idle[] = {
	{ "WFI", US(1), US(1), false },
	{ "cpu-off", US(100), US(1000), false },
};

/*
 * GS101 (gs101.dtsi): WFI, and "c2" (CPU power-down through PSCI). cpuidle's
 * exit latency is entry + exit latency. The DT gives c2 per cluster type
 * (A55 70+160 us / 2000 us, A76 150+190 us / 2500 us, X1 235+220 us /
 * 3500 us); idle states are machine-wide here, so this uses the A76 values.
 */
static const struct idle_state gs101_idle[] = {
	{ "WFI", US(1), US(1), false },
	{ "c2", US(340), US(2500), false },
};

/*
 * WFI only: the one state every arm64 CPU has (cpu_do_idle(), the default
 * idle without a cpuidle driver). Deeper states come from a board's DT or
 * ACPI tables, and the board of arm64-2x4 is not named.
 */
static const struct idle_state wfi_idle[] = {
	{ "WFI", US(1), US(1), false },
};

/* ---- CPU classes ---- */

static const struct cpu_class synthetic_class[] = {
	{ .capacity = 1024, .min_khz = MHZ(1000), .step_khz = MHZ(100), .max_khz = MHZ(2000) },
};

/* Xeon Platinum 8269CY: 1.0 GHz minimum, 2.5 GHz base, 3.8 GHz max turbo */
static const struct cpu_class clx_8269cy_class[] = {
	{ .capacity = 1024, .min_khz = MHZ(1000), .step_khz = MHZ(100), .max_khz = MHZ(3800) },
};

/* Xeon Platinum 8358: 0.8 GHz minimum, 2.6 GHz base, 3.4 GHz max turbo */
static const struct cpu_class icx_8358_class[] = {
	{ .capacity = 1024, .min_khz = MHZ(800), .step_khz = MHZ(100), .max_khz = MHZ(3400) },
};

/* EPYC 7763: acpi-cpufreq P-states 1.5/2.0/2.45 GHz, boost to 3.5 GHz */
static const unsigned int epyc_7763_opps[] = { MHZ(1500), MHZ(2000), MHZ(2450), MHZ(3500) };
static const struct cpu_class epyc_7763_class[] = {
	{ .capacity = 1024, .opps = epyc_7763_opps, .nr_opps = ARRAY_SIZE(epyc_7763_opps) },
};

/* Xeon E7-4870: acpi-cpufreq P-states in 133 MHz steps, 1.07 to 2.4 GHz */
static const unsigned int wsm_ex_opps[] = {
	1067000, 1200000, 1333000, 1467000, 1600000, 1733000,
	1867000, 2000000, 2133000, 2267000, 2400000,
};
static const struct cpu_class wsm_ex_class[] = {
	{ .capacity = 1024, .opps = wsm_ex_opps, .nr_opps = ARRAY_SIZE(wsm_ex_opps) },
};

/* POWER10 under PowerVM: no cpufreq in the LPAR; one nominal frequency */
static const unsigned int power10_opps[] = { MHZ(4000) };
static const struct cpu_class power10_class[] = {
	{ .capacity = 1024, .opps = power10_opps, .nr_opps = ARRAY_SIZE(power10_opps) },
};

/* Altra Q80-30: CPPC, 1.0 to 3.0 GHz (modelled as 500 MHz steps) */
static const struct cpu_class altra_class[] = {
	{ .capacity = 1024, .min_khz = MHZ(1000), .step_khz = MHZ(500), .max_khz = MHZ(3000) },
};

/*
 * GS101 OPP tables from gs101.dtsi. Capacities are what arch_topology
 * computes from capacity-dmips-mhz (250, 620, 1024) times the maximum
 * frequency in MHz, normalised so that the X1 is 1024:
 * A55 250*1803 -> 160, A76 620*2253 -> 498, X1 1024*2802 -> 1024.
 */
static const unsigned int gs101_a55_opps[] = {
	300000,	 574000,  738000,  930000,  1098000, 1197000,
	1328000, 1401000, 1598000, 1704000, 1803000,
};
static const unsigned int gs101_a76_opps[] = {
	400000,	 553000,  696000,  799000,  910000,  1024000, 1197000,
	1328000, 1491000, 1663000, 1836000, 1999000, 2130000, 2253000,
};
static const unsigned int gs101_x1_opps[] = {
	500000,	 851000,  984000,  1106000, 1277000, 1426000, 1582000, 1745000, 1826000,
	2048000, 2188000, 2252000, 2401000, 2507000, 2630000, 2704000, 2802000,
};
static const struct cpu_class gs101_classes[] = {
	{ .capacity = 160, .opps = gs101_a55_opps, .nr_opps = ARRAY_SIZE(gs101_a55_opps) },
	{ .capacity = 498, .opps = gs101_a76_opps, .nr_opps = ARRAY_SIZE(gs101_a76_opps) },
	{ .capacity = 1024, .opps = gs101_x1_opps, .nr_opps = ARRAY_SIZE(gs101_x1_opps) },
};

/*
 * arm64-2x4: the frequency is not known; one nominal step. Without cpufreq
 * every CPU runs at its maximum, so only the capacity matters.
 */
static const unsigned int arm64_2x4_opps[] = { MHZ(2000) };
static const struct cpu_class arm64_2x4_class[] = {
	{ .capacity = 1024, .opps = arm64_2x4_opps, .nr_opps = ARRAY_SIZE(arm64_2x4_opps) },
};

/* ---- cost-model overrides (reasons also in docs/machines.md) ---- */

/*
 * Intel Hyper-Threading: two busy threads of a core together do ~1.25x the
 * work of one (Intel's "up to 30%" more throughput; AnandTech measured
 * 10-20% in many applications), so each runs at 625 permille. The default
 * (cost.c) already is this; Cascade Lake, Ice Lake and Westmere say so.
 */
static void cost_intel_ht(struct cost_model *c)
{
	c->smt_speed[1] = 625;
}

static void cost_cascadelake(struct cost_model *c)
{
	cost_intel_ht(c);
}

static void cost_icelake(struct cost_model *c)
{
	/* idle exit latencies come from the idle states (icx_idle) */
	/*
	 * Xeon Platinum 8358: 1.25 MB L2 per core, 48 MB L3 per socket
	 * (Intel ARK; Intel support article 000027820: 1.25 MB MLC and
	 * 1.5 MB LLC per core on 3rd Gen Xeon Scalable)
	 */
	c->cache_l2_kb = 1280;
	c->cache_llc_kb = 49152;
	cost_intel_ht(c);
}

static void cost_epyc_milan(struct cost_model *c)
{
	/*
	 * Zen 3 core-to-core cache-line transfer: ~25 ns inside a CCX (one
	 * L3), ~100 ns between CCXs of a socket (through the I/O die),
	 * ~200 ns between sockets; the default assumes a mesh LLC (40 ns)
	 * and has no cross-CCX step.
	 */
	c->cacheline[DIST_LLC] = 25;
	c->cacheline[DIST_PACKAGE] = 100;
	c->cacheline[DIST_NUMA] = 200;
	/*
	 * EPYC 7763: 512 KB L2 per core, 32 MB L3 per 8-core CCX (AMD
	 * product page: 256 MB L3 per socket, 8 CCDs). A line from another
	 * CCX's L3 goes through the I/O die, as the cross-CCX cache-line
	 * figure above; from the other socket likewise.
	 */
	c->cache_l2_kb = 512;
	c->cache_llc_kb = 32768;
	/*
	 * Zen 3 SMT2: ~1.25x core throughput with both threads busy
	 * (AnandTech, "Investigating Performance of Multi-Threading on Zen 3
	 * and AMD Ryzen 5000", 2020: SMT on vs off; docs/cost-model.md).
	 */
	c->smt_speed[1] = 625;
}

static void cost_westmere_ex(struct cost_model *c)
{
	/*
	 * Remote nodes are reached through QPI and, beyond the socket pair,
	 * through node controllers (SLIT up to 19): cache lines and IPIs
	 * going off-node cost more than on a 2-socket glueless box.
	 */
	c->cacheline[DIST_NUMA] = 250;
	c->ipi_latency[DIST_NUMA] = 2500;
	/*
	 * Xeon E7-4870: 256 KB L2 per core, 30 MB L3 per socket (Intel ARK).
	 * A line from another socket's cache crosses the same links as the
	 * cache-line transfer above.
	 */
	c->cache_l2_kb = 256;
	c->cache_llc_kb = 30720;
	cost_intel_ht(c);
}

static void cost_power10(struct cost_model *c)
{
	/*
	 * pseries sends IPIs to CPUs of the same (big) core as msgsndp
	 * doorbells, which stay inside the core; here that is DIST_SMT and
	 * DIST_LLC (the LLC is the big core). IPIs to other cores go
	 * through the XIVE controller and the hypervisor (H_IPI): dearer to
	 * send and slower to arrive.
	 */
	c->ipi_latency[DIST_SMT] = 200;
	c->ipi_latency[DIST_LLC] = 250;
	c->ipi_latency[DIST_PACKAGE] = 1500;
	c->ipi_send = 400;
	/*
	 * --probe-overhead (estimate, docs/cost-model.md): the x86 figures
	 * (40 ns entry, 53 ns return, from BPF selftests' bench trig-kprobe and
	 * trig-kretprobe) scaled by the ppc64 / x86_64 ratios of the kprobe
	 * overhead table in Documentation/trace/kprobes.rst (POWER5 1656 MHz
	 * vs Opteron 246: kprobe 0.77 / 0.49 us = 1.57; return part
	 * (kr - k) 0.68 / 0.33 us = 2.06): the return lands on a trap
	 * (a kprobe on the rethook trampoline), x86's and arm64's do not.
	 * Measure: bench -a trig-kprobe, trig-kretprobe on the machine.
	 */
	c->probe_entry = 63;
	c->probe_return = 109;
	/*
	 * POWER10: 2 MB L2 per SMT8 core and a local 8 MB region of the
	 * chip's L3 (victim cache, up to 120 MB per chip) per core (IBM,
	 * Hot Chips 32, 2020; Power10 technical overview, "On-chip L3
	 * cache"). Both span the SMT8 (big) core, which is the LLC here
	 * (power10_96_spec: l2_span = llc_span = CACHE_SPAN_LLC). Another
	 * core's L3 region is cacheline.package away (the default estimate).
	 */
	c->cache_l2_kb = 2048;
	c->cache_llc_kb = 8192;
	/*
	 * SMT within an SMT4 half (the Linux core here): IBM claims +60% for
	 * SMT2 on POWER8 (a thread keeps ~80% of its speed; AnandTech,
	 * "Assessing IBM's POWER8, Part 1", 2016), so 800 permille; 3 and 4
	 * busy threads are estimates (1.9x and 2.1x the half's lone-thread
	 * throughput; docs/cost-model.md says how to measure them).
	 */
	c->smt_speed[1] = 800;
	c->smt_speed[2] = 630;
	c->smt_speed[3] = 525;
}

/*
 * --probe-overhead on arm64: a kprobe is a BRK exception plus a step of the
 * displaced instruction out of line; ebpf_exporter's benchmark (Apple M1,
 * Linux 6.5-rc1 in QEMU) measured an empty kprobe BPF program at 137 ns
 * per getpid() (253.8 - 117.3 ns). The return goes through an assembly
 * trampoline with no exception, as on x86: the default's 53 ns
 * (estimate; measure with bench -a trig-kretprobe minus trig-kprobe).
 */
static void cost_arm64_probes(struct cost_model *c)
{
	c->probe_entry = 137;
}

static void cost_altra(struct cost_model *c)
{
	/*
	 * The LLC here is the 2-core cluster (all Linux sees); the two cores
	 * share no cache, so a line moves through the mesh either way.
	 */
	c->cacheline[DIST_LLC] = 80;
	c->cacheline[DIST_PACKAGE] = 100;
	/*
	 * Neoverse N1: 1 MB private L2 per core; the 32 MB SLC is shared by
	 * the whole socket even though Linux does not see it (Ampere Altra
	 * product brief). The footprint model's shared cache is therefore
	 * the package (altra specs: llc_span = CACHE_SPAN_PACKAGE): a task
	 * moved to another cluster of the socket finds its data there.
	 */
	c->cache_l2_kb = 1024;
	c->cache_llc_kb = 32768;
	cost_arm64_probes(c);
}

static void cost_altra_2s(struct cost_model *c)
{
	cost_altra(c);
	/* the second socket is reached over CCIX: several hundred ns */
	c->cacheline[DIST_NUMA] = 700;
	c->ipi_latency[DIST_NUMA] = 3000;
}

static void cost_arm64_phone(struct cost_model *c)
{
	/* idle exit latencies come from the idle states (gs101_idle) */
	/*
	 * GS101: private L2 of 128 KB (A55), 256 KB (A76), 1 MB (X1), one
	 * 4 MB DSU L3 for all eight cores (the LLC), and an 8 MB system
	 * cache not modelled. One private size for every core: the A76's.
	 */
	c->cache_l2_kb = 256;
	c->cache_llc_kb = 4096;
	cost_arm64_probes(c);
}

/*
 * ---- cpufreq: which CPUs share a clock, and how long a change takes ----
 *
 * cpufreq_policy_transition_delay_us() turns the latency into schedutil's
 * default rate_limit_us (1.5x, or 1 ms when the driver reports none) unless
 * the driver sets transition_delay_us itself, as intel_pstate does.
 */

/* synthetic machines: one policy per CPU, a fast-switching driver with no stated latency */
static const struct cpufreq_desc synthetic_cpufreq = {
	.span = CPUFREQ_SPAN_CPU,
	.driver = "synthetic",
	.transition_latency_ns = 0,
	.source = "synthetic: one policy per CPU; no transition latency, so rate_limit_us is "
		  "cpufreq's 1 ms default (cpufreq_policy_transition_delay_us())",
};

/*
 * intel_pstate in passive mode (intel_cpufreq, what a generic governor
 * runs on): one policy per CPU, INTEL_CPUFREQ_TRANSITION_LATENCY 20000 ns
 * and, with HWP, transition_delay_us = INTEL_CPUFREQ_TRANSITION_DELAY_HWP
 * (5000) (drivers/cpufreq/intel_pstate.c, v6.18).
 */
static const struct cpufreq_desc intel_pstate_cpufreq = {
	.span = CPUFREQ_SPAN_CPU,
	.driver = "intel_cpufreq",
	.transition_latency_ns = 20000,
	.transition_delay_us = 5000,
	.source = "intel_pstate.c: per-CPU policies, INTEL_CPUFREQ_TRANSITION_LATENCY 20 us, "
		  "INTEL_CPUFREQ_TRANSITION_DELAY_HWP 5000 us (passive mode with HWP)",
};

/*
 * acpi-cpufreq on EPYC: a core's two threads share its clock (_PSD over
 * the SMT pair); the latency is _PSS's TransitionLatency, which AMD
 * firmware commonly gives as 10 us (estimate, not read from this part).
 */
static const struct cpufreq_desc epyc_cpufreq = {
	.span = CPUFREQ_SPAN_CORE,
	.driver = "acpi-cpufreq",
	.transition_latency_ns = 10000,
	.source = "acpi-cpufreq: policy->cpus from _PSD, per core (the SMT pair shares the "
		  "core clock); _PSS TransitionLatency 10 us (estimate)",
};

/*
 * acpi-cpufreq on Westmere-EX: all cores of a package share one
 * voltage/frequency plane; _PSD SW_ANY gives one policy per package;
 * _PSS TransitionLatency 10 us, Intel's usual figure (estimate).
 */
static const struct cpufreq_desc wsm_ex_cpufreq = {
	.span = CPUFREQ_SPAN_PACKAGE,
	.driver = "acpi-cpufreq",
	.transition_latency_ns = 10000,
	.source = "acpi-cpufreq: one frequency plane per Westmere-EX package (_PSD SW_ANY), "
		  "_PSS TransitionLatency 10 us (Intel's usual figure; estimate)",
};

/*
 * cppc_cpufreq on Altra: each core its own performance domain (_PSD);
 * the desired-performance register is reached through PCC, whose nominal
 * latency sets the transition latency. The figure is an estimate.
 */
static const struct cpufreq_desc altra_cpufreq = {
	.span = CPUFREQ_SPAN_CPU,
	.driver = "cppc_cpufreq",
	.transition_latency_ns = 100000,
	.source = "cppc_cpufreq: per-core _PSD domains; transition latency 100 us for a PCC "
		  "doorbell round trip (estimate, cppc_get_transition_latency() on the part not read)",
};

/* PowerVM: the LPAR has no cpufreq driver (the hypervisor owns the clock) */
static const struct cpufreq_desc powervm_cpufreq = {
	.span = CPUFREQ_SPAN_NONE,
	.driver = "none",
	.source = "PowerVM LPARs have no cpufreq driver (powernv-cpufreq is for bare metal "
		  "OPAL only); the frequency is the hypervisor's",
};

/*
 * GS101: one policy per cluster (the DT's cpufreq domains, A55 x4, A76 x2,
 * X1 x2); Android's exynos-acme driver with fast switch. The 500 us
 * latency is an estimate.
 */
static const struct cpufreq_desc gs101_cpufreq = {
	.span = CPUFREQ_SPAN_CLUSTER,
	.driver = "exynos-acme",
	.transition_latency_ns = 500000,
	.source = "gs101.dtsi: one cpufreq domain per cluster; transition latency 500 us "
		  "(estimate for an ACPM-mediated DVFS change)",
};

/* ---- the machines ---- */

static const struct preset_spec smp1_spec = {
	.packages = 1,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 1,
	.cores_per_cluster = 1,
	.threads_per_core = 1,
	.numbering = NUM_CONSECUTIVE,
	.classes = synthetic_class,
	.idle = simple_idle,
	.nr_idle = ARRAY_SIZE(simple_idle),
	.approximations = "synthetic machine",
};

static const struct preset_spec smp2_spec = {
	.packages = 1,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 2,
	.cores_per_cluster = 1,
	.threads_per_core = 1,
	.numbering = NUM_CONSECUTIVE,
	.classes = synthetic_class,
	.idle = simple_idle,
	.nr_idle = ARRAY_SIZE(simple_idle),
	.approximations = "synthetic machine",
};

static const struct preset_spec smp4_spec = {
	.packages = 1,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 4,
	.cores_per_cluster = 1,
	.threads_per_core = 1,
	.numbering = NUM_CONSECUTIVE,
	.classes = synthetic_class,
	.idle = simple_idle,
	.nr_idle = ARRAY_SIZE(simple_idle),
	.approximations = "synthetic machine",
};

static const struct preset_spec smp8_spec = {
	.packages = 1,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 8,
	.cores_per_cluster = 1,
	.threads_per_core = 1,
	.numbering = NUM_CONSECUTIVE,
	.classes = synthetic_class,
	.idle = simple_idle,
	.nr_idle = ARRAY_SIZE(simple_idle),
	.approximations = "synthetic machine",
};

static const struct preset_spec smt2_2s_16_spec = {
	.packages = 2,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 4,
	.cores_per_cluster = 1,
	.threads_per_core = 2,
	.numbering = NUM_X86,
	.classes = synthetic_class,
	.dist_remote = 21,
	.idle = skx_idle,
	.nr_idle = ARRAY_SIZE(skx_idle),
	.approximations = "synthetic machine; idle states and costs of a Skylake-SP-class server",
};

static const struct preset_spec power10_96_spec = {
	.packages = 1,
	.nodes_per_package = 1,
	.llcs_per_node = 12,
	.clusters_per_llc = 1,
	.cores_per_cluster = 2,
	.threads_per_core = 4,
	.numbering = NUM_FUSED,
	.classes = power10_class,
	.idle = pseries_shared_idle,
	.nr_idle = ARRAY_SIZE(pseries_shared_idle),
	.cost = cost_power10,
	.l2_span = CACHE_SPAN_LLC,
	.llc_span = CACHE_SPAN_LLC,
	.approximations =
		"shared-processor LPAR: the kernel's CACHE level (SD_SHARE_LLC) spans the big core "
		"(8 CPUs), so the LLC here is the big core and the cluster equals it (no CLS level); "
		"a dedicated LPAR has L2 per SMT4 half and an MC coregroup level instead; "
		"one nominal 4.0 GHz (no cpufreq under PowerVM); IPI costs estimated; "
		"SD_ASYM_PACKING of shared LPARs is not described here",
	.cpufreq = &powervm_cpufreq,
};

static const struct preset_spec xeon_8269cy_2s_spec = {
	.packages = 2,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 26,
	.cores_per_cluster = 1,
	.threads_per_core = 2,
	.numbering = NUM_X86,
	.classes = clx_8269cy_class,
	.dist_remote = 21,
	.idle = skx_idle,
	.nr_idle = ARRAY_SIZE(skx_idle),
	.cost = cost_cascadelake,
	.approximations = "frequencies as a 100 MHz ladder from 1.0 to 3.8 GHz (intel_pstate); "
			  "turbo limits by active core count are not modelled",
	.cpufreq = &intel_pstate_cpufreq,
};

static const struct preset_spec altra_80_spec = {
	.packages = 1,
	.nodes_per_package = 1,
	.llcs_per_node = 40,
	.clusters_per_llc = 1,
	.cores_per_cluster = 2,
	.threads_per_core = 1,
	.numbering = NUM_CONSECUTIVE,
	.classes = altra_class,
	.idle = altra_idle,
	.nr_idle = ARRAY_SIZE(altra_idle),
	.cost = cost_altra,
	.llc_span = CACHE_SPAN_PACKAGE,
	.approximations =
		"firmware describes 2-core clusters and no CPU-side shared cache, so the kernel's MC "
		"level (sd_llc) is the 2-core cluster and the 32 MB SLC is invisible to it; the LLC here "
		"is that cluster; idle state latencies, CPPC frequency steps and mesh costs estimated",
	.cpufreq = &altra_cpufreq,
};

static const struct preset_spec altra_2s_160_spec = {
	.packages = 2,
	.nodes_per_package = 1,
	.llcs_per_node = 40,
	.clusters_per_llc = 1,
	.cores_per_cluster = 2,
	.threads_per_core = 1,
	.numbering = NUM_CONSECUTIVE,
	.classes = altra_class,
	.dist_remote = 20,
	.idle = altra_idle,
	.nr_idle = ARRAY_SIZE(altra_idle),
	.cost = cost_altra_2s,
	.llc_span = CACHE_SPAN_PACKAGE,
	.approximations =
		"as altra-80 per socket (sd_llc = 2-core cluster, giving domains MC, PKG, NUMA); "
		"node distance 20 and the CCIX cross-socket costs are estimates",
	.cpufreq = &altra_cpufreq,
};

static const struct preset_spec icelake_2s_128_spec = {
	.packages = 2,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 32,
	.cores_per_cluster = 1,
	.threads_per_core = 2,
	.numbering = NUM_X86,
	.classes = icx_8358_class,
	.dist_remote = 20,
	.idle = icx_idle,
	.nr_idle = ARRAY_SIZE(icx_idle),
	.cost = cost_icelake,
	.approximations = "SNC off; node distance 20 is the usual 2-socket Ice Lake SLIT; "
			  "frequencies as a 100 MHz ladder from 0.8 to 3.4 GHz",
	.cpufreq = &intel_pstate_cpufreq,
};

static const struct preset_spec epyc_milan_2s_256_spec = {
	.packages = 2,
	.nodes_per_package = 1,
	.llcs_per_node = 8,
	.clusters_per_llc = 8,
	.cores_per_cluster = 1,
	.threads_per_core = 2,
	.numbering = NUM_X86,
	.classes = epyc_7763_class,
	.dist_remote = 32,
	/* init_amd_zen_common(): so that the 2-socket distance 32 keeps wake_affine */
	.node_reclaim_distance = 32,
	.idle = epyc_idle,
	.nr_idle = ARRAY_SIZE(epyc_idle),
	.cost = cost_epyc_milan,
	.approximations = "NPS1; C2 latency and the boost frequency as one 3.5 GHz step are "
			  "approximate; cache-line costs from published core-to-core latencies",
	.cpufreq = &epyc_cpufreq,
};

/* SLIT of an 8-socket Xeon E7-4870 box (numactl --hardware, LKML 2019-10-08) */
static const int wsm_ex_8s_slit[64] = {
	10, 12, 17, 17, 19, 19, 19, 19, 12, 10, 17, 17, 19, 19, 19, 19, 17, 17, 10, 12, 19, 19,
	19, 19, 17, 17, 12, 10, 19, 19, 19, 19, 19, 19, 19, 19, 10, 12, 17, 17, 19, 19, 19, 19,
	12, 10, 17, 17, 19, 19, 19, 19, 17, 17, 10, 12, 19, 19, 19, 19, 17, 17, 12, 10,
};

static const struct preset_spec westmere_ex_8s_160_spec = {
	.packages = 8,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 10,
	.cores_per_cluster = 1,
	.threads_per_core = 2,
	.numbering = NUM_X86,
	.classes = wsm_ex_class,
	.slit = wsm_ex_8s_slit,
	.idle = nhm_idle,
	.nr_idle = ARRAY_SIZE(nhm_idle),
	.cost = cost_westmere_ex,
	.approximations = "turbo (to 2.8 GHz) not modelled; one NUMA cost step for three SLIT "
			  "distances (12, 17, 19)",
	.cpufreq = &wsm_ex_cpufreq,
};

static const struct preset_spec westmere_ex_8s_80_noht_spec = {
	.packages = 8,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 10,
	.cores_per_cluster = 1,
	.threads_per_core = 1,
	.numbering = NUM_X86,
	.classes = wsm_ex_class,
	.slit = wsm_ex_8s_slit,
	.idle = nhm_idle,
	.nr_idle = ARRAY_SIZE(nhm_idle),
	.cost = cost_westmere_ex,
	.approximations = "westmere-ex-8s-160 with Hyper-Threading off; turbo not modelled; one "
			  "NUMA cost step for three SLIT distances",
	.cpufreq = &wsm_ex_cpufreq,
};

static const unsigned int gs101_cluster_cores[] = { 4, 2, 2 };
static const unsigned int gs101_cluster_class[] = { 0, 1, 2 };

static const struct preset_spec pixel6_spec = {
	.packages = 1,
	.nodes_per_package = 1,
	.llcs_per_node = 1,
	.clusters_per_llc = 3,
	.cluster_cores = gs101_cluster_cores,
	.cluster_class = gs101_cluster_class,
	.threads_per_core = 1,
	.numbering = NUM_CONSECUTIVE,
	.classes = gs101_classes,
	.idle = gs101_idle,
	.nr_idle = ARRAY_SIZE(gs101_idle),
	.cost = cost_arm64_phone,
	.approximations = "idle states are machine-wide (the A76 c2 values stand for all three "
			  "clusters); kernel-path costs are the x86 server defaults, not measured "
			  "on the phone",
	.cpufreq = &gs101_cpufreq,
};

/*
 * The 8-CPU machine of the runnable-boost discussion: "an 8 CPUs system,
 * SDs = {MC, DIE}" (Dietmar Eggemann, LKML 2023-05-03), and nothing more.
 * Two LLCs of 4 CPUs in one package is the shape that gives exactly those
 * two levels (MC = the LLC, DIE/PKG = the package); arm64, equal
 * capacities, WFI-only idle and the default costs are assumptions.
 */
static const struct preset_spec arm64_2x4_spec = {
	.packages = 1,
	.nodes_per_package = 1,
	.llcs_per_node = 2,
	.clusters_per_llc = 1,
	.cores_per_cluster = 4,
	.threads_per_core = 1,
	.numbering = NUM_CONSECUTIVE,
	.classes = arm64_2x4_class,
	.idle = wfi_idle,
	.nr_idle = ARRAY_SIZE(wfi_idle),
	.approximations =
		"the source gives only \"an 8 CPUs system, SDs = {MC, DIE}\": arm64, the split into "
		"two 4-CPU clusters each with its own LLC, equal capacities, one nominal 2.0 GHz, "
		"WFI as the only idle state and the default (x86 server) costs are assumptions",
};

int topology_build_regular(struct topology *t, const struct regular_shape *shape, char *err,
			   size_t errlen)
{
	const struct preset_spec spec = {
		.packages = shape->packages,
		.nodes_per_package = shape->nodes_per_package,
		.llcs_per_node = shape->llcs_per_node,
		.clusters_per_llc = shape->cores_per_llc,
		.cores_per_cluster = 1,
		.threads_per_core = shape->threads_per_core,
		.numbering = NUM_CONSECUTIVE,
		.classes = synthetic_class,
		/* hwloc's string has no distances: SNC-like inside a package, ACPI's default beyond */
		.dist_same_package = 12,
		.dist_remote = 20,
		.idle = simple_idle,
		.nr_idle = ARRAY_SIZE(simple_idle),
		.approximations = "generated machine (hwloc's synthetic syntax), not a real part: "
				  "the synthetic CPU class, POLL and C1 idle states, SLIT 10 local, "
				  "12 inside a package, 20 between packages, default costs",
	};

	return build_from_spec(t, &spec, err, errlen);
}

#define PRESET_BUILDER(fn, spec)                                    \
	static int fn(struct topology *t, char *err, size_t errlen) \
	{                                                           \
		return build_from_spec(t, &spec, err, errlen);      \
	}

PRESET_BUILDER(build_smp1, smp1_spec)
PRESET_BUILDER(build_smp2, smp2_spec)
PRESET_BUILDER(build_smp4, smp4_spec)
PRESET_BUILDER(build_smp8, smp8_spec)
PRESET_BUILDER(build_smt2_2s_16, smt2_2s_16_spec)
PRESET_BUILDER(build_power10_96, power10_96_spec)
PRESET_BUILDER(build_xeon_8269cy_2s, xeon_8269cy_2s_spec)
PRESET_BUILDER(build_altra_80, altra_80_spec)
PRESET_BUILDER(build_altra_2s_160, altra_2s_160_spec)
PRESET_BUILDER(build_icelake_2s_128, icelake_2s_128_spec)
PRESET_BUILDER(build_epyc_milan_2s_256, epyc_milan_2s_256_spec)
PRESET_BUILDER(build_westmere_ex_8s_160, westmere_ex_8s_160_spec)
PRESET_BUILDER(build_westmere_ex_8s_80_noht, westmere_ex_8s_80_noht_spec)
PRESET_BUILDER(build_pixel6, pixel6_spec)
PRESET_BUILDER(build_arm64_2x4, arm64_2x4_spec)

const struct machine_preset machine_presets[] = {
	{ "smp1", "Synthetic uniprocessor, 1 CPU", build_smp1 },
	{ "smp2", "Synthetic SMP, 2 CPUs, one package, one LLC, no SMT", build_smp2 },
	{ "smp4", "Synthetic SMP, 4 CPUs, one package, one LLC, no SMT", build_smp4 },
	{ "smp8", "Synthetic SMP, 8 CPUs, one package, one LLC, no SMT", build_smp8 },
	{ "smt2-2s-16",
	  "Synthetic 2 sockets x 4 cores x 2 threads, one LLC per socket, 2 NUMA nodes, 16 CPUs",
	  build_smt2_2s_16 },
	{ "power10-96",
	  "IBM POWER10 shared-processor LPAR, 12 SMT8 cores (24 SMT4 halves), 96 CPUs",
	  build_power10_96 },
	{ "xeon-8269cy-2s",
	  "2 x Intel Xeon Platinum 8269CY, 26 cores x 2 threads per socket, 104 CPUs",
	  build_xeon_8269cy_2s },
	{ "altra-80", "Ampere Altra Q80-30, 80 Neoverse-N1 cores, no SMT, 80 CPUs",
	  build_altra_80 },
	{ "altra-2s-160",
	  "2 x Ampere Altra Q80-30, 80 Neoverse-N1 cores per socket, no SMT, 160 CPUs",
	  build_altra_2s_160 },
	{ "icelake-2s-128",
	  "2 x Intel Xeon Platinum 8358 (Ice Lake-SP), 32 cores x 2 threads per socket, 128 CPUs",
	  build_icelake_2s_128 },
	{ "epyc-milan-2s-256",
	  "2 x AMD EPYC 7763 (Milan), 64 cores x 2 threads and 8 CCXs per socket, 256 CPUs",
	  build_epyc_milan_2s_256 },
	{ "westmere-ex-8s-160",
	  "8 x Intel Xeon E7-4870 (Westmere-EX), 10 cores x 2 threads per socket, 160 CPUs",
	  build_westmere_ex_8s_160 },
	{ "westmere-ex-8s-80-noht",
	  "8 x Intel Xeon E7-4870 (Westmere-EX), 10 cores per socket, Hyper-Threading off, 80 CPUs",
	  build_westmere_ex_8s_80_noht },
	{ "pixel6",
	  "Google Tensor GS101 (Pixel 6), 4 x Cortex-A55 + 2 x Cortex-A76 + 2 x Cortex-X1, 8 CPUs",
	  build_pixel6 },
	{ "arm64-2x4",
	  "The 8-CPU {MC, DIE} box of the runnable-boost thread (LKML 2023-05-03), 2 x 4-CPU "
	  "clusters, LLC per cluster, 8 CPUs",
	  build_arm64_2x4 },
};

const unsigned int nr_machine_presets = ARRAY_SIZE(machine_presets);
