/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shape of a simulated machine: CPUs, SMT siblings, clusters, LLCs,
 * packages, NUMA nodes with a distance matrix, per-CPU capacity and
 * frequency, idle states, and the machine's cost model.
 */
#ifndef SCHEDLAB_TOPO_TOPOLOGY_H
#define SCHEDLAB_TOPO_TOPOLOGY_H

#include "sim/cost.h"
#include "topo/cpumask.h"
#include <stdio.h>

#define SCHED_CAPACITY_SCALE 1024
#define TOPO_MAX_IDLE_STATES 8
#define TOPO_MAX_OPPS 32
/* include/linux/energy_model.h EM_MAX_POWER: the largest power an EM state may have (64 W, in uW) */
#define EM_MAX_POWER_UW 64000000u

struct idle_state {
	char name[16];
	u64 exit_latency_ns;
	u64 target_residency_ns;
	/*
	 * The idle task keeps TIF_POLLING_NRFLAG set in this state: a remote
	 * CPU wakes it by setting need_resched, without an IPI. True for the
	 * polling loops (POLL, snooze) and for x86 MWAIT states, whose
	 * monitor watches the thread flags; false for WFI, CEDE, I/O-port
	 * C-states.
	 */
	bool polls;
	/*
	 * The core's clocks stop in this state (core C3 or deeper): a core
	 * whose threads are all in such a state is not an active core to the
	 * package's power control unit, whose turbo limit (cpu_topo.turbo)
	 * counts the cores in C0 or C1 (docs/cpufreq.md, "Turbo by active
	 * cores").
	 */
	bool deep;
	/*
	 * The core writes its private caches back and powers them off in
	 * this state (Intel core C6, and core C3 on the generations whose
	 * datasheets say so; AMD CC6): a core all of whose CPUs under its
	 * private cache are in such a state comes back with it empty
	 * (docs/wakelist-and-idle.md). No preset sets it yet.
	 */
	bool flushes_cache;
};

/* MSR_TURBO_RATIO_LIMIT holds 8 ratios: 8 groups on Skylake-SP and later */
#define TOPO_MAX_TURBO_GROUPS 8

/*
 * The most a core may run at by the number of active cores of its kind in
 * its package (MSR_TURBO_RATIO_LIMIT, with MSR_TURBO_RATIO_LIMIT1's group
 * sizes): group i holds up to upto[i] active cores and grants khz[i].
 */
struct turbo_table {
	unsigned int nr;				/* 0: no limit by active cores */
	unsigned int upto[TOPO_MAX_TURBO_GROUPS];	/* ascending */
	unsigned int khz[TOPO_MAX_TURBO_GROUPS];	/* not ascending, each an OPP */
};

/*
 * The frequency @tt grants with @active cores active: its first group that
 * holds them, or its last (0 for an empty table)
 */
static inline unsigned int turbo_table_khz(const struct turbo_table *tt, unsigned int active)
{
	unsigned int i = 0;

	while (i + 1 < tt->nr && active > tt->upto[i])
		i++;
	return tt->khz[i];
}

/*
 * Which CPUs share one clock: the cpufreq driver's policy->cpus. The
 * hardware changes the frequency of all of them at once.
 */
enum cpufreq_span {
	CPUFREQ_SPAN_CPU,	/* one policy per CPU (intel_pstate, acpi-cpufreq with HW_ALL _PSD) */
	CPUFREQ_SPAN_CORE,	/* the SMT threads of a core share its clock */
	CPUFREQ_SPAN_CLUSTER,	/* per cluster (arm64 DT platforms) */
	CPUFREQ_SPAN_PACKAGE,	/* per socket */
	CPUFREQ_SPAN_NONE,	/* no cpufreq driver (PowerVM LPARs): the one nominal frequency */
};

/*
 * Whether the driver switches from the scheduler's context
 * (policy->fast_switch_possible): as the driver decides in v6.18
 * (cpufreq_driver_fast_switch_possible()), or as the machine file says,
 * where that depends on the firmware (cppc_cpufreq: where the
 * desired-performance register lives; acpi-cpufreq: _PSD's coordination).
 */
enum cpufreq_fast_switch {
	CPUFREQ_FAST_SWITCH_DRIVER,	/* the driver's rule (no fast_switch line) */
	CPUFREQ_FAST_SWITCH_YES,
	CPUFREQ_FAST_SWITCH_NO,
};

/*
 * The cpufreq governors (CONFIG_CPU_FREQ_DEFAULT_GOV_* names the one a
 * kernel starts): here, below the kernel, because a machine names its
 * platform's default (docs/machines.md, "Frequency").
 */
enum cpufreq_governor_id {
	CPUFREQ_GOV_PERFORMANCE,	/* policy->max (the fixed-speed machines) */
	CPUFREQ_GOV_POWERSAVE,		/* policy->min */
	CPUFREQ_GOV_USERSPACE,		/* scaling_setspeed: a fixed frequency */
	CPUFREQ_GOV_SCHEDUTIL,
	CPUFREQ_GOV_ONDEMAND,		/* drivers/cpufreq/cpufreq_ondemand.c */
	CPUFREQ_GOV_CONSERVATIVE,	/* drivers/cpufreq/cpufreq_conservative.c */
	NR_CPUFREQ_GOVERNORS,
};

extern const char *const cpufreq_governor_names[NR_CPUFREQ_GOVERNORS];

/* the governor named by the @len characters at @name, or -1 */
int cpufreq_governor_lookup(const char *name, size_t len);

/* The platform's cpufreq driver, as far as the scheduler sees it. */
struct cpufreq_desc {
	enum cpufreq_span span;
	char driver[32];		/* scaling_driver: "acpi-cpufreq", "cppc_cpufreq", ... */
	/* policy->cpuinfo.transition_latency: the CPU runs at the old speed this long */
	u64 transition_latency_ns;
	/* policy->transition_delay_us the driver sets (0: derived from the latency) */
	unsigned int transition_delay_us;
	enum cpufreq_fast_switch fast_switch;
	/*
	 * the governor the platform's kernel starts (its
	 * CONFIG_CPU_FREQ_DEFAULT_GOV_*), which --cpufreq overrides
	 */
	enum cpufreq_governor_id governor;
	char source[320];		/* where span, latency and delay come from */
};

/*
 * SD_ASYM_PACKING: the topology levels whose domains carry it, as an
 * architecture's topology table sets it (x86 ITMT: CLS, MC and PKG;
 * powerpc shared LPARs on big cores: CACHE, which is MC here, and PKG),
 * and the CPUs' arch_asym_cpu_priority() (docs/balancing.md, "Asym packing").
 */
enum asym_level {
	ASYM_LV_SMT,
	ASYM_LV_CLS,
	ASYM_LV_MC,
	ASYM_LV_PKG,
	NR_ASYM_LV,
};

extern const char *const asym_level_names[NR_ASYM_LV];

struct asym_packing_desc {
	unsigned int levels;		/* 1 << enum asym_level for each level that has the flag */
	/* x86 ITMT: the flag is there while sched_itmt_enabled is 1 (its default) */
	bool itmt;
	/* cpus[].asym_prio holds the priorities; false: the kernel's __weak default, -cpu */
	bool have_prio;
	char source[320];
};

/*
 * The energy model of one CPU type (a machine file's [class.K]
 * em_power_uw and idle_power_uw.N, docs/energy.md): what one CPU draws
 * busy at each of its OPPs, and idle in each idle state at each OPP.
 */
struct topo_em {
	unsigned int nr_perf_states;			/* == the class's nr_opps */
	unsigned int power_uw[TOPO_MAX_OPPS];		/* busy, per OPP (the kernel EM's power) */
	unsigned int idle_given;			/* bit N: idle_power_uw.N was given */
	unsigned int idle_uw[TOPO_MAX_IDLE_STATES][TOPO_MAX_OPPS];
};

/*
 * A machine that is a KVM guest (a machine file's [guest], docs/guests.md):
 * its idle states are the guest's (HLT, or haltpoll's poll and halt) and
 * the hypervisor's costs are in the cost model's guest_* parameters.
 */
enum guest_cpuidle {
	GUEST_IDLE_HLT,		/* no cpuidle driver: default_idle_call(), HLT */
	GUEST_IDLE_HALTPOLL,	/* cpuidle-haltpoll with the haltpoll governor */
};

/*
 * The host's halt-polling settings a guest machine carries: KVM's module
 * parameters halt_poll_ns_grow, _grow_start and _shrink, and whether the
 * host offers KVM_FEATURE_POLL_CONTROL (MSR_KVM_POLL_CONTROL: a guest that
 * runs cpuidle-haltpoll turns the host's polling off with it).
 */
enum guest_host_param {
	GUEST_HOST_POLL_GROW,
	GUEST_HOST_POLL_GROW_START,
	GUEST_HOST_POLL_SHRINK,
	GUEST_HOST_POLL_CONTROL,
	/*
	 * the cost model's guest_halt_flush_ns, as a [guest] key: a halt
	 * this long comes back with the vCPU's private cache empty (the
	 * host's pCPU in a C-state that flushes it); not given: the cost
	 * model's (0, never, unless [costs], --costs or --cost set it)
	 */
	GUEST_HALT_FLUSH,
	/*
	 * posted interrupts (Intel APICv, AMD AVIC): a running vCPU takes an
	 * IPI without leaving the guest; without them the host kicks it out
	 * to inject it (the cost model's guest_ipi_recv_exit)
	 */
	GUEST_POSTED_INTR,
	NR_GUEST_HOST_PARAMS,
};

struct guest_desc {
	bool kvm;
	enum guest_cpuidle cpuidle;
	bool ipi_virtualization;	/* IPIv/AVIC: an IPI is sent without a VM exit */
	/*
	 * Steal time: the host deschedules each busy vCPU for this share of
	 * its time (parts per million), one stretch per period of about
	 * steal_period_ns (src/sim/steal.c); 0: never.
	 */
	u32 steal_ppm;
	u64 steal_period_ns;
	/* the haltpoll governor's guest_halt_poll_ns, when given (else its default) */
	bool halt_poll_given;
	u64 halt_poll_ns;
	/*
	 * The host's KVM halt polling (virt/kvm/kvm_main.c), enum
	 * guest_host_param: bit N of host_given says host[N] was given, else
	 * it is KVM's default (guest_host_param()). Its cap, halt_poll_ns, is
	 * the cost model's guest_host_poll_ns.
	 */
	u32 host_given;
	u32 host[NR_GUEST_HOST_PARAMS];
	char source[320];
};

/* their [guest] keys, KVM's defaults and their sources (machine_guest.c) */
struct guest_host_param_desc {
	const char *key;
	u32 def;
	bool yes_no; /* yes / no, else a number of 0 .. UINT_MAX */
};
extern const struct guest_host_param_desc guest_host_params[NR_GUEST_HOST_PARAMS];

/* host parameter @i of @g: as given, else KVM's default */
static inline u32 guest_host_param(const struct guest_desc *g, enum guest_host_param i)
{
	return g->host_given & (1u << i) ? g->host[i] : guest_host_params[i].def;
}

/* guest_halt_poll_ns's default (drivers/cpuidle/governors/haltpoll.c, v6.18) */
#define GUEST_HALT_POLL_NS_DEFAULT 200000

/* the haltpoll governor's longest poll, and the longest halt that grows it */
static inline u64 guest_halt_poll_ns(const struct guest_desc *g)
{
	return g->halt_poll_given ? g->halt_poll_ns : GUEST_HALT_POLL_NS_DEFAULT;
}

/*
 * What a machine was before it was made a guest (guest_apply()), so that
 * --guest can replace its [guest] section or remove it (--guest none):
 * its own idle states ([idle.K]; none if a guest file gave none) and the
 * hypervisor costs its [costs] gave.
 */
struct guest_base {
	bool saved;
	unsigned int nr_idle_states;
	struct idle_state idle_states[TOPO_MAX_IDLE_STATES];
	u64 ipi_exit, ipi_recv_exit, timer_exit, wakeup_polled, wakeup, host_poll_ns, halt_flush_ns;
};

struct cpu_topo {
	unsigned int thread;	/* SMT thread index within its core */
	unsigned int core;	/* machine-wide core index */
	unsigned int cluster;	/* machine-wide cluster index (== LLC-local group of cores) */
	unsigned int llc;	/* machine-wide LLC index */
	unsigned int package;	/* physical package (socket) */
	unsigned int node;	/* NUMA node */
	unsigned long capacity;	/* arch_scale_cpu_capacity(): 1024 for the biggest CPUs */
	/*
	 * What the hardware does at its maximum frequency, in the same units:
	 * user work runs at speed/1024. The capacity the kernel is told, unless
	 * it is told otherwise: hybrid x86 with SMT on gives every CPU 1024
	 * (intel_pstate sets capacities only without SMT) while its E-cores do
	 * less (0 before topology_finish(): equal to capacity).
	 */
	unsigned long speed;
	unsigned int max_freq_khz;
	unsigned int nr_opps;	/* available frequencies, ascending; last == max_freq_khz */
	unsigned int opp_khz[TOPO_MAX_OPPS];
	struct turbo_table turbo;	/* its class's turbo_cores/turbo_khz; nr 0: none */
	int asym_prio;		/* arch_asym_cpu_priority(), when asym_packing.have_prio */
	unsigned int em;	/* 1 + its index in topology.em; 0: no energy model */
};

/* Which CPUs share one cache of the footprint model (src/sim/cache.c). */
enum cache_span {
	CACHE_SPAN_DEFAULT,	/* the core for the private cache, the LLC for the shared one */
	CACHE_SPAN_CORE,	/* the SMT siblings of a core */
	CACHE_SPAN_LLC,		/* the scheduler's LLC (sd_llc) */
	CACHE_SPAN_PACKAGE,	/* the whole package (a cache Linux does not see as the LLC) */
	CACHE_SPAN_CLUSTER,	/* the scheduler's cluster (an L2 shared by a cluster of cores) */
	NR_CACHE_SPANS,
};

struct topology {
	char name[64];
	char description[256];
	char approximations[512];	/* what about this preset is approximate, for `machines -v` */

	unsigned int nr_cpus;
	unsigned int nr_cores, nr_clusters, nr_llcs, nr_packages, nr_nodes;
	struct cpu_topo *cpus;		/* [nr_cpus] */

	struct cpumask **core_mask;	/* [nr_cores]: SMT siblings of each core */
	struct cpumask **cluster_mask;	/* [nr_clusters] */
	struct cpumask **llc_mask;	/* [nr_llcs] */
	struct cpumask **package_mask;	/* [nr_packages] */
	struct cpumask **node_mask;	/* [nr_nodes] */
	struct cpumask *all;

	int *node_distance;		/* [nr_nodes * nr_nodes], SLIT values, 10 = local */
	/*
	 * The kernel's node_reclaim_distance: NUMA levels farther than this
	 * lose SD_BALANCE_EXEC/FORK and SD_WAKE_AFFINE. 0 means the generic
	 * RECLAIM_DISTANCE (30); AMD Zen sets 32.
	 */
	int node_reclaim_distance;

	bool has_smt;			/* some core has more than one thread */
	bool has_clusters;		/* a cluster level distinct from core and LLC exists */
	bool asym_capacity;		/* CPUs differ in capacity */
	unsigned int smt_width;		/* most threads in one core */

	/* what the private (L2) and shared (L3, SLC) caches of the footprint model span */
	enum cache_span cache_l2_span, cache_llc_span;

	unsigned int hz;		/* default CONFIG_HZ for this machine */
	bool hz_from_kernel; /* -m host: hz read from the running kernel's config */
	/*
	 * The kernel's preemption model, [machine] preempt: "none",
	 * "voluntary", "full" or "lazy"; empty when the machine does not say
	 * (the simulated kernel's default, voluntary, unless --preempt). -m
	 * host reads the running kernel's (host_kernel.c) and says where from
	 * in kernel_source.
	 */
	char preempt[12];
	char kernel_source[512];
	struct cpufreq_desc cpufreq;
	struct asym_packing_desc asym_packing;
	struct guest_desc guest;
	struct guest_base guest_base;
	unsigned int nr_idle_states;
	struct idle_state idle_states[TOPO_MAX_IDLE_STATES];

	/* energy models of the CPU types (cpu_topo.em); nr_em 0: none */
	unsigned int nr_em;
	struct topo_em *em;
	char em_source[512];		/* [energy] source: where the figures come from */

	struct cost_model cost;
};

/*
 * arch_asym_cpu_priority() of @cpu: the machine's ([asym_packing] priority),
 * else the kernel's __weak default, lower-numbered CPUs first.
 */
static inline int topology_asym_prio(const struct topology *t, unsigned int cpu)
{
	return t->asym_packing.have_prio ? t->cpus[cpu].asym_prio : -(int)cpu;
}

/*
 * A preset: its machine file, data/machines/NAME.machine, compiled in
 * (scripts/embed-machines.sh), and that file's description for the listing.
 */
struct machine_preset {
	const char *name;
	const char *description;
	const char *text;
};

extern const struct machine_preset machine_presets[];
extern const unsigned int nr_machine_presets;

/* Build preset @p from its machine file; NULL with a message (a bug in the file). */
struct topology *topology_load_preset(const struct machine_preset *p, char *err, size_t errlen);

/*
 * Build the named machine: a preset name, "host" for this machine's sysfs,
 * "synthetic:...", a machine file (a name with a '/' or ending in
 * .machine), or hwloc XML ("hwloc:FILE" or a name ending in .xml). Sets up
 * cpumasks for its CPU count. Returns NULL with a message
 * naming what is wrong in @err for an unknown name or an impossible shape.
 */
struct topology *topology_load(const char *name, char *err, size_t errlen);
void topology_free(struct topology *t);

/*
 * "cpufreq: DRIVER, a policy per SPAN; default governor G": what topo and
 * machines -v show of the machine's cpufreq
 */
void topology_format_cpufreq(const struct topology *t, char *buf, size_t len);
/* `schedlab topo`: packages, nodes, LLCs, clusters, cores, CPUs as a tree. */
void topology_print_tree(const struct topology *t, FILE *out);

/* @cpu's energy model, or NULL */
static inline const struct topo_em *topology_cpu_em(const struct topology *t, unsigned int cpu)
{
	unsigned int k = t->cpus[cpu].em;

	return k ? &t->em[k - 1] : NULL;
}

static inline const struct cpumask *topology_sibling_cpumask(const struct topology *t,
							     unsigned int cpu)
{
	return t->core_mask[t->cpus[cpu].core];
}

static inline const struct cpumask *topology_cluster_cpumask(const struct topology *t,
							     unsigned int cpu)
{
	return t->cluster_mask[t->cpus[cpu].cluster];
}

static inline const struct cpumask *topology_llc_cpumask(const struct topology *t,
							 unsigned int cpu)
{
	return t->llc_mask[t->cpus[cpu].llc];
}

static inline const struct cpumask *topology_core_cpumask(const struct topology *t,
							  unsigned int cpu)
{
	return t->package_mask[t->cpus[cpu].package];
}

static inline const struct cpumask *topology_node_cpumask(const struct topology *t,
							  unsigned int cpu)
{
	return t->node_mask[t->cpus[cpu].node];
}

/*
 * The CPUs that share @cpu's cache of @span: the footprint model's private
 * cache (@shared false: by default the core) or its shared one (@shared
 * true: by default the LLC)
 */
static inline const struct cpumask *topology_cache_span_cpumask(const struct topology *t,
								enum cache_span span,
								unsigned int cpu, bool shared)
{
	switch (span) {
	case CACHE_SPAN_CORE:
		return topology_sibling_cpumask(t, cpu);
	case CACHE_SPAN_LLC:
		return topology_llc_cpumask(t, cpu);
	case CACHE_SPAN_PACKAGE:
		return topology_core_cpumask(t, cpu);
	case CACHE_SPAN_CLUSTER:
		return topology_cluster_cpumask(t, cpu);
	default:
		return shared ? topology_llc_cpumask(t, cpu) : topology_sibling_cpumask(t, cpu);
	}
}

/* How far apart two CPUs are (for cache-line and IPI costs). */
/* inline: every cache-line transfer asks it */
static inline enum cpu_dist topology_cpu_dist(const struct topology *t, unsigned int a,
					       unsigned int b)
{
	const struct cpu_topo *ca = &t->cpus[a], *cb = &t->cpus[b];

	if (a == b)
		return DIST_SELF;
	if (ca->core == cb->core)
		return DIST_SMT;
	if (t->has_clusters && ca->cluster == cb->cluster)
		return DIST_CLUSTER;
	if (ca->llc == cb->llc)
		return DIST_LLC;
	if (ca->package == cb->package && ca->node == cb->node)
		return DIST_PACKAGE;
	return DIST_NUMA;
}

/*
 * For topology builders (the presets, the sysfs reader, importers). A
 * builder calls topology_alloc_cpus(), fills every cpus[] id (dense,
 * machine-wide), capacity and frequencies, and hz, idle states and cost;
 * it may set node_distance (then nr_nodes must be the matrix size).
 * topology_finish() then calls cpumask_setup(nr_cpus), derives the counts,
 * masks and flags, validates the shape, and returns 0, or -1 with a message
 * naming the first thing that is wrong.
 */
int topology_alloc_cpus(struct topology *t, unsigned int nr, char *err, size_t errlen);
int topology_finish(struct topology *t, char *err, size_t errlen);

/*
 * A machine from a string in hwloc's synthetic syntax (a subset: pack, numa,
 * l3, core and pu levels; docs/machines.md), as -m 'synthetic:pack:4 l3:16
 * core:8 pu:2' names it. @desc is the whole name, "synthetic:" included.
 * NULL with a one-line message in @err if the string is malformed or the
 * machine impossible.
 */
struct topology *topology_load_synthetic(const char *desc, char *err, size_t errlen);

/* The shape of a regular machine, outermost level first (all >= 1). */
struct regular_shape {
	unsigned int packages;
	unsigned int nodes_per_package;
	unsigned int llcs_per_node;
	unsigned int cores_per_llc;
	unsigned int threads_per_core;
};

/*
 * Fill @t (named already) with a regular machine of that shape: CPUs numbered as hwloc numbers a synthetic
 * topology's PUs (the threads of a core consecutive), the synthetic CPU
 * class and idle states, default costs, SLIT 10 local, 12 between nodes of
 * one package, 20 between packages. 0, or -1 with a message.
 */
int topology_build_regular(struct topology *t, const struct regular_shape *shape, char *err,
			   size_t errlen);

/*
 * Build a machine from a sysfs tree. @root is the directory that holds
 * devices/system/cpu (and devices/system/node): "/sys" for this host, or a
 * copy of it. Missing files fall back to one package, one LLC, one node;
 * every fallback is noted in t->approximations.
 */
struct topology *topology_load_sysfs(const char *root, char *err, size_t errlen);

/*
 * -m sysfs:DIR: a machine from a copy of /sys/devices/system taken
 * elsewhere. DIR is that copy (DIR/cpu, DIR/node: what `cp -r
 * /sys/devices/system DIR` makes), or a copy of /sys (DIR/devices/system),
 * or a directory a tar of sys/devices/system was unpacked in
 * (DIR/sys/devices/system). Read as the host's /sys is, but strictly: a
 * malformed file, lists that disagree (a CPU in two packages) or a node
 * distance matrix that is not a SLIT is an error naming the file, not a
 * flattened machine. Missing files fall back as for the host.
 */
struct topology *topology_load_sysfs_dir(const char *dir, char *err, size_t errlen);

/*
 * schedlab topo --export-sysfs DIR: write @t as the sysfs files the reader
 * reads (DIR/cpu/..., DIR/node/...). DIR must not exist or be empty; it is
 * created. 0, or -1 with a message.
 */
int topology_export_sysfs(const struct topology *t, const char *dir, char *err, size_t errlen);

/*
 * schedlab topo --export-hwloc FILE: write @t to @out as hwloc 2.x XML (the
 * objects checked by loading them with libhwloc, the file written by it).
 * 0, or -1 with a message.
 */
int topology_export_hwloc(const struct topology *t, FILE *out, char *err, size_t errlen);

#endif
