/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scheduling domains and groups, in the kernel's terms
 * (include/linux/sched/topology.h, include/linux/sched/sd_flags.h and the
 * sched-domain parts of kernel/sched/sched.h and topology.c, Linux v6.18).
 *
 * build_sched_domains() turns a machine's topology into the per-CPU domain
 * hierarchy the kernel would build on it: SMT, CLS, MC, PKG, then NODE and
 * one NUMA level per further distinct node distance; groups (overlapping
 * ones with balance masks on NUMA levels); degenerate levels removed; the
 * per-CPU shortcuts (sd_llc, sd_numa, ...) and the root domain set.
 * docs/domains.md describes what is built and how it compares.
 *
 * Everything here is build-time: nothing is O(nr_cpus) per event except
 * what the kernel itself does when it walks a domain's span.
 */
#ifndef SCHEDLAB_KERNEL_DOMAINS_H
#define SCHEDLAB_KERNEL_DOMAINS_H

#include "sim/coherence.h"
#include "topo/topology.h"

#include <stddef.h>

struct rto_push;

/* ---- idle types of a balancing pass (include/linux/sched/idle.h) ---- */

enum cpu_idle_type {
	CPU_IDLE,
	CPU_NOT_IDLE,
	CPU_NEWLY_IDLE,
	CPU_MAX_IDLE_TYPES
};

/* ---- SD_ flags (include/linux/sched/sd_flags.h, v6.18 order) ---- */

/* metaflags, see sd_flag_debug[] */
#define SDF_SHARED_CHILD 0x1	/* set from the base domain up: all children have it */
#define SDF_SHARED_PARENT 0x2	/* set from the top down: all parents have it */
#define SDF_NEEDS_GROUPS 0x4	/* meaningless in a domain with a single group */

/*
 * The flag list, bottom bit first. v6.18 has no SD_OVERLAP (the kernel
 * builds overlapping groups for every SD_NUMA level, and tests SD_NUMA).
 */
#define SD_FLAG_LIST(F)								\
	F(SD_BALANCE_NEWIDLE, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)		\
	F(SD_BALANCE_EXEC, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)		\
	F(SD_BALANCE_FORK, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)		\
	F(SD_BALANCE_WAKE, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)		\
	F(SD_WAKE_AFFINE, SDF_SHARED_CHILD)					\
	F(SD_ASYM_CPUCAPACITY, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)		\
	F(SD_ASYM_CPUCAPACITY_FULL, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)	\
	F(SD_SHARE_CPUCAPACITY, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)		\
	F(SD_CLUSTER, SDF_NEEDS_GROUPS)						\
	F(SD_SHARE_LLC, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)			\
	F(SD_SERIALIZE, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)			\
	F(SD_ASYM_PACKING, SDF_NEEDS_GROUPS)					\
	F(SD_PREFER_SIBLING, SDF_NEEDS_GROUPS)					\
	F(SD_NUMA, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)

#define __SD_FLAG_INDEX(name, mflags) __##name,
enum { SD_FLAG_LIST(__SD_FLAG_INDEX) __SD_FLAG_CNT };
#undef __SD_FLAG_INDEX

#define __SD_FLAG_BIT(name, mflags) name = 1 << __##name,
enum { SD_FLAG_LIST(__SD_FLAG_BIT) };
#undef __SD_FLAG_BIT

struct sd_flag_debug {
	unsigned int meta_flags;
	const char *name;
};

/* Indexed by bit number: sd_flag_debug[__SD_NUMA].name is "SD_NUMA". */
extern const struct sd_flag_debug sd_flag_debug[__SD_FLAG_CNT];

/* Flags that mean nothing in a domain with a single group. */
#define __SD_FLAG_NEEDS_GROUPS(name, mflags) (((mflags)&SDF_NEEDS_GROUPS) ? name : 0) |
enum { SD_DEGENERATE_GROUPS_MASK = SD_FLAG_LIST(__SD_FLAG_NEEDS_GROUPS) 0 };
#undef __SD_FLAG_NEEDS_GROUPS

/* Flags that, where set, are set in every child domain too. */
#define __SD_FLAG_SHARED_CHILD(name, mflags) (((mflags)&SDF_SHARED_CHILD) ? name : 0) |
enum { SD_SHARED_CHILD_MASK = SD_FLAG_LIST(__SD_FLAG_SHARED_CHILD) 0 };
#undef __SD_FLAG_SHARED_CHILD

/*
 * Write "SD_A|SD_B|..." for @flags into @buf (at most @len bytes, always
 * terminated); "0" for none. Returns the length needed, like snprintf.
 */
int sd_flags_snprint(char *buf, size_t len, int flags);

/* ---- the structures ---- */

/* One per LLC (per SD_SHARE_LLC level and first CPU): shared by its CPUs. */
struct sched_domain_shared {
	struct cache_line line;		/* has_idle_cores, nr_idle_scan, nr_busy_cpus */
	int ref;
	int nr_busy_cpus;		/* CPUs of the LLC not in nohz idle */
	int has_idle_cores;
	int nr_idle_scan;		/* SIS_UTIL: CPUs select_idle_cpu() may scan */
};

/*
 * Shared by all identical groups (every CPU's view of one group): the
 * capacity the balancer computes and the group's balance mask.
 */
struct sched_group_capacity {
	int ref;
	unsigned long capacity;		/* sum of the group's CPU capacities */
	unsigned long min_capacity;	/* smallest CPU capacity in the group */
	unsigned long max_capacity;	/* largest CPU capacity in the group */
	unsigned long next_update;	/* jiffies: update_group_capacity() due */
	int imbalance;			/* a child balance failed on pinned tasks */
	int id;				/* the CPU it was allocated for (debug output) */
	/*
	 * The balance mask: the CPUs of the group that reach this group from
	 * their own domain tree. Equal to the span except for overlapping
	 * (NUMA) groups; see build_balance_mask() in domains.c. Read-only
	 * and shared: the group's own span where the two are equal.
	 */
	const struct cpumask *cpumask;
};

struct sched_group {
	struct sched_group *next;	/* circular: the domain's groups */
	int ref;
	unsigned int group_weight;	/* CPUs in the span */
	unsigned int cores;		/* cores (SMT sibling sets) in the span */
	struct sched_group_capacity *sgc;
	int asym_prefer_cpu;		/* SD_ASYM_PACKING: highest priority CPU */
	int flags;			/* the flags of the child domain it stands for */
	/*
	 * The span: read-only and shared, the child domain's span (or
	 * cpumask_of() the CPU at the bottom level) that the group stands
	 * for, never a copy of its own.
	 */
	const struct cpumask *cpumask;
};

static inline const struct cpumask *sched_group_span(const struct sched_group *sg)
{
	return sg->cpumask;
}

/* The kernel's group_balance_mask(): sg->sgc->cpumask. */
static inline const struct cpumask *group_balance_mask(const struct sched_group *sg)
{
	return sg->sgc->cpumask;
}

/* The CPU that balances on behalf of the group: the first of its balance mask. */
static inline unsigned int group_balance_cpu(const struct sched_group *sg)
{
	return cpumask_first(group_balance_mask(sg));
}

struct sched_domain {
	struct sched_domain *parent;	/* NULL at the top */
	struct sched_domain *child;	/* NULL at the bottom */
	struct sched_group *groups;	/* circular list; the first contains this CPU */
	unsigned long min_interval;	/* ms: span weight */
	unsigned long max_interval;	/* ms: twice the span weight */
	unsigned int busy_factor;	/* balance busy CPUs this many times less often */
	unsigned int imbalance_pct;	/* no balance until over this watermark */
	unsigned int cache_nice_tries;	/* leave cache-hot tasks for this many failures */
	unsigned int imb_numa_nr;	/* runnable tasks allowed as NUMA imbalance */

	int nohz_idle;			/* this CPU counted as idle in shared->nr_busy_cpus */
	int flags;			/* SD_* */
	int level;			/* index of the topology level it was built from */

	/* runtime */
	unsigned long last_balance;	/* jiffies */
	unsigned int balance_interval;	/* ms; starts at the span weight */
	unsigned int nr_balance_failed;

	/* sched_balance_newidle() */
	u64 max_newidle_lb_cost;
	unsigned long last_decay_max_lb_cost;	/* jiffies */

	/*
	 * v6.19 proportional newidle balance (NI_RANDOM): newidle calls and
	 * successes counted per domain, and the success ratio out of 1024.
	 */
	unsigned int newidle_call;
	unsigned int newidle_success;
	unsigned int newidle_ratio;
	u64 newidle_stamp;

	/* schedstats: sched_balance_rq() per idle type */
	unsigned int lb_count[CPU_MAX_IDLE_TYPES];
	unsigned int lb_failed[CPU_MAX_IDLE_TYPES];
	unsigned int lb_balanced[CPU_MAX_IDLE_TYPES];
	unsigned int lb_imbalance_load[CPU_MAX_IDLE_TYPES];
	unsigned int lb_imbalance_util[CPU_MAX_IDLE_TYPES];
	unsigned int lb_imbalance_task[CPU_MAX_IDLE_TYPES];
	unsigned int lb_imbalance_misfit[CPU_MAX_IDLE_TYPES];
	unsigned int lb_gained[CPU_MAX_IDLE_TYPES];
	unsigned int lb_hot_gained[CPU_MAX_IDLE_TYPES];
	unsigned int lb_nobusyg[CPU_MAX_IDLE_TYPES];
	unsigned int lb_nobusyq[CPU_MAX_IDLE_TYPES];

	/* active balancing */
	unsigned int alb_count;
	unsigned int alb_failed;
	unsigned int alb_pushed;

	/* SD_BALANCE_EXEC */
	unsigned int sbe_count;
	unsigned int sbe_balanced;
	unsigned int sbe_pushed;

	/* SD_BALANCE_FORK */
	unsigned int sbf_count;
	unsigned int sbf_balanced;
	unsigned int sbf_pushed;

	/* try_to_wake_up() */
	unsigned int ttwu_wake_remote;
	unsigned int ttwu_move_affine;
	unsigned int ttwu_move_balance;

	const char *name;		/* "SMT", "CLS", "MC", "PKG", "NODE", "NUMA" */
	struct sched_domain_shared *shared;	/* SD_SHARE_LLC levels only */

	unsigned int span_weight;
	/*
	 * Read-only and shared by every CPU whose domain at this level has
	 * the same span (one mask per distinct span and level), so that the
	 * masks do not multiply by the CPUs: the kernel gives each domain a
	 * span of its own, n^2 bits per level.
	 */
	const struct cpumask *span;
};

static inline const struct cpumask *sched_domain_span(const struct sched_domain *sd)
{
	return sd->span;
}

/* ---- the root domain (one: schedlab has no cpusets) ---- */

struct root_domain {
	struct cpumask *span;
	struct cpumask *online;
	/* pullable load somewhere: a CPU with more than one task, or a misfit */
	bool overloaded;
	/* a CPU is over the utilization tipping point */
	bool overutilized;
	/* rto_mask, rto_count: the CPUs with pushable RT tasks (rt_rq->overloaded) */
	struct cpumask *rto_mask;
	unsigned int rto_count;
	/* the RT_PUSH_IPI loop's state (rt.c) */
	struct rto_push *rto_push;
	/*
	 * cpupri's cpu_to_pri: each CPU's priority level for RT placement
	 * (CPUPRI_NORMAL 0, RT 1..99, CPUPRI_HIGHER 100 while a DL entity is
	 * queued), as the enqueue and dequeue events set it (cpupri_set()).
	 */
	int *cpupri;
	/*
	 * The largest CPU capacity in the span. Older kernels kept it here
	 * (v6.18 does not); set at build time for convenience.
	 */
	unsigned long max_cpu_capacity;
	/*
	 * struct dl_bw: the DL admission limit per CPU of capacity 1024
	 * (bw: sched_rt_runtime / sched_rt_period) and the bandwidth given
	 * out, the fair servers' and the DL tasks' (total_bw), BW_SHIFT
	 * fixed point (deadline.c).
	 */
	struct {
		u64 bw;
		u64 total_bw;
	} dl_bw;
	/*
	 * What __dl_update() added to every CPU of the span's extra_bw, kept
	 * once: the kernel walks the span at each __dl_add()/__dl_sub(), and
	 * sched_init_dl_servers() does that for every CPU, O(CPUs^2) (67 M
	 * adds at 8192 CPUs) for a sum every CPU shares. A CPU's Uextra is
	 * its dl_rq's extra_bw plus this (dl_rq_extra_bw()), the same u64
	 * value the kernel's per-CPU adds reach (modular adds commute).
	 */
	u64 extra_bw_all;
	/* dlo_mask, dlo_count: the CPUs with pushable DL tasks (dl_rq->overloaded) */
	struct cpumask *dlo_mask;
	unsigned int dlo_count;
	/* cpudl: each CPU's earliest DL deadline, a max-heap, and the free CPUs */
	struct cpudl *cpudl;
};

/* a CPU enters (@set) or leaves an overload mask and its count (rto_mask, dlo_mask) */
static inline void rd_overload_set(struct cpumask *mask, unsigned int *count, unsigned int cpu,
				   bool set)
{
	if (set) {
		cpumask_set_cpu(cpu, mask);
		(*count)++;
	} else {
		(*count)--;
		cpumask_clear_cpu(cpu, mask);
	}
}

/* ---- cpudl (cpudeadline.c) ---- */

struct cpudl_item {
	u64 dl;
	unsigned int cpu;
};

struct cpudl {
	unsigned int size;		/* CPUs in the heap: those with a DL entity queued */
	struct cpudl_item *elements;	/* the heap: the latest earliest-deadline on top */
	int *idx;			/* each CPU's place in it, -1: not there */
	struct cpumask *free_cpus;	/* no DL entity queued */
};

struct cpudl *cpudl_alloc(unsigned int nr_cpus);
void cpudl_free(struct cpudl *cp);
/* cpudl_set(): @cpu's earliest deadline is @dl; cpudl_clear(): it has none (free) */
void cpudl_set(struct cpudl *cp, unsigned int cpu, u64 dl);
void cpudl_clear(struct cpudl *cp, unsigned int cpu);
/* the CPU on top of the heap, -1 if empty */
int cpudl_maximum(const struct cpudl *cp);
struct task_struct;
bool cpudl_find(const struct cpudl *cp, const struct task_struct *p, struct cpumask *later_mask);

/* ---- per-CPU state (the kernel's rq->sd and per-CPU variables) ---- */

/* rq->sd of each CPU: the lowest domain left after degenerate levels went */
extern struct sched_domain **sched_domains_rq_sd;

extern struct sched_domain **sd_llc;		/* highest SD_SHARE_LLC domain */
extern int *sd_llc_size;			/* its span weight (1 without one) */
extern int *sd_llc_id;				/* its first CPU (the CPU without one) */
extern int *sd_share_id;			/* first CPU of the cluster, else sd_llc_id */
extern struct sched_domain_shared **sd_llc_shared;
extern struct sched_domain **sd_numa;		/* lowest SD_NUMA domain */
extern struct sched_domain **sd_asym_packing;	/* highest SD_ASYM_PACKING domain */
extern struct sched_domain **sd_asym_cpucapacity; /* lowest SD_ASYM_CPUCAPACITY_FULL */

/* static keys */
extern bool sched_asym_cpucapacity;	/* some domain has SD_ASYM_CPUCAPACITY */
extern bool sched_cluster_active;	/* some CPU has a CLS domain */

/* deepest sd->level built */
extern int sched_domain_level_max;

/* NUMA levels (sched_init_numa): distinct node distances, ascending */
extern int sched_domains_numa_levels;
extern int *sched_domains_numa_distance;
extern int sched_max_numa_distance;
/* [level][node]: CPUs of the nodes within sched_domains_numa_distance[level] */
extern struct cpumask ***sched_domains_numa_masks;

enum numa_topology_type {
	NUMA_DIRECT,		/* every node one hop from every other */
	NUMA_GLUELESS_MESH,	/* far nodes reached through intermediate nodes */
	NUMA_BACKPLANE,		/* far nodes reached through a backplane */
};
extern enum numa_topology_type sched_numa_topology_type;

/* per_cpu(sd_llc_size, cpu) and friends read like the kernel */
#ifndef per_cpu
#define per_cpu(var, cpu) ((var)[(cpu)])
#endif

static inline struct sched_domain *cpu_sd(unsigned int cpu)
{
	return sched_domains_rq_sd ? sched_domains_rq_sd[cpu] : NULL;
}

#define for_each_domain(cpu, __sd) for ((__sd) = cpu_sd(cpu); (__sd); (__sd) = (__sd)->parent)

/* The root domain CPU @cpu is attached to (rq->rd); NULL before a build. */
struct root_domain *cpu_rd(unsigned int cpu);

/* Highest domain of @cpu with @flag (stopping early for SDF_SHARED_CHILD flags). */
struct sched_domain *highest_flag_domain(unsigned int cpu, int flag);
/* Lowest domain of @cpu with @flag, or NULL. */
struct sched_domain *lowest_flag_domain(unsigned int cpu, int flag);

/* Same LLC (sd_llc_id), same cluster or LLC (sd_share_id). */
/* include/linux/topology.h: a node's distance to itself; beyond this, no fork/exec/wake balancing */
#define LOCAL_DISTANCE 10
#define RECLAIM_DISTANCE 30

bool cpus_share_cache(unsigned int this_cpu, unsigned int that_cpu);
bool cpus_share_resources(unsigned int this_cpu, unsigned int that_cpu);

static inline bool sched_asym_cpucap_active(void)
{
	return sched_asym_cpucapacity;
}

/*
 * Build the domains, groups, per-CPU shortcuts and root domain of machine
 * @t (whose cpumasks are set up, i.e. after topology_load()). Capacities
 * come from t->cpus[].capacity, so this needs no simulated machine. Frees
 * domains built before. Returns 0, or -1 with a message in @err if the
 * topology cannot be turned into domains (overlapping non-NUMA levels, a
 * node distance outside 10..255).
 */
int build_sched_domains(const struct topology *t, char *err, size_t errlen);

/* Free everything build_sched_domains() made; cpu_sd() is NULL after. */
void free_sched_domains(void);

/* The machine the domains were built for, or NULL. */
const struct topology *sched_domains_topology(void);

#endif
