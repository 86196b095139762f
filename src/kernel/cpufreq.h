/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpufreq: policies (the CPUs that share a clock), the driver's fast
 * switch onto the simulated hardware, and the governors performance,
 * powersave, userspace and schedutil (kernel/sched/cpufreq_schedutil.c),
 * with schedutil's hook called from the scheduler as cpufreq_update_util();
 * ondemand and conservative (cpufreq_governor.c) hook in the same way.
 */
#ifndef SCHEDLAB_KERNEL_CPUFREQ_H
#define SCHEDLAB_KERNEL_CPUFREQ_H

#include "sim/event.h"
#include "sim/types.h"
#include "topo/topology.h"

#include <stdbool.h>
#include <stddef.h>

struct rq;

/* enum cpufreq_governor_id and its names: topo/topology.h */

/* the governor a run asks for (--cpufreq) */
struct cpufreq_setup {
	enum cpufreq_governor_id governor;
	unsigned int setspeed_khz;	/* userspace's scaling_setspeed */
	bool given;			/* --cpufreq was on the command line */
};

struct sugov_worker;

/* struct sugov_policy: schedutil's per-policy state */
struct sugov_policy {
	u64 last_freq_update_time;
	s64 freq_update_delay_ns;	/* rate_limit_us, in ns */
	unsigned int next_freq;
	unsigned int cached_raw_freq;
	bool limits_changed;
	bool need_freq_update;
	/* the slow path (no fast switch): a request on its way to sugov:N */
	bool work_in_progress;
	struct sugov_worker *worker;	/* its irq_work and kthread (NULL: fast switch) */
};

/* struct sugov_cpu: schedutil's per-CPU state */
struct sugov_cpu {
	struct cpufreq_policy *policy;
	unsigned int cpu;
	u64 last_update;
	unsigned long util;		/* the performance asked for, capacity units */
	unsigned long bw_min;
	unsigned long saved_idle_calls;	/* sugov_hold_freq() */
	/* the iowait boost (capacity scale) and whether a wakeup raised it since applied */
	unsigned int iowait_boost;
	bool iowait_boost_pending;
};

struct cpufreq_policy {
	unsigned int cpu;		/* the policy's first CPU (policy->cpu) */
	unsigned int *cpus;		/* policy->cpus */
	unsigned int nr_cpus;
	unsigned int min, max, cur;	/* kHz: scaling_min/max_freq, the current request */
	const unsigned int *freq_table;	/* ascending, the CPUs' OPPs */
	unsigned int nr_freqs;
	u64 transition_latency_ns;	/* cpuinfo.transition_latency */
	unsigned int transition_delay_us;
	bool fast_switch_enabled;
	bool dvfs_possible_from_any_cpu;
	/* the hardware's transition in flight (the old speed until it ends) */
	struct sim_event transition;
	unsigned int hw_target;
	/* cpufreq_driver_resolve_freq()'s cache */
	unsigned int cached_target_freq;
	int cached_resolved_idx;
	struct sugov_policy sg;
	u64 nr_requests;		/* frequency requests that reached the driver */
	/*
	 * CPUFREQ_INEFFICIENT_FREQ per OPP, set by the energy model
	 * (cpufreq_table_set_inefficient()); schedutil's CPUFREQ_RELATION_LE
	 * skips them while efficiencies_available.
	 */
	bool efficiencies_available;
	bool inefficient[TOPO_MAX_OPPS];
	void *governor_data;		/* ondemand/conservative: its struct policy_dbs_info */
	/* cppc_cpufreq without fast switch: the package's PCC channel, else NULL */
	struct pcc_channel *pcc;
};

/*
 * A PCC subspace that CPPC requests go through (cppc_acpi.c's pcc_data[]):
 * one per package (Ampere's PCCT has one CPPC doorbell per socket). Its
 * pcc_lock's write side is held from the doorbell to the command's
 * completion, and the next command waits the minimum request turnaround.
 */
struct pcc_channel {
	u64 busy_until;			/* the command in flight completes */
	u64 doorbell_at;		/* its doorbell */
	u64 batch;			/* the release its batch was woken by (0: none) */
	u64 last_cmd_cmpl_time;		/* when the last command completed */
	bool used;			/* a command was sent */
	u64 nr_cmds;
	u64 nr_waits;			/* requests that found a command in flight */
	u64 nr_joined;			/* requests carried by another CPU's command */
};

/* the table relations (include/linux/cpufreq.h) */
#define CPUFREQ_RELATION_L 0		/* lowest frequency at or above target */
#define CPUFREQ_RELATION_H 1		/* highest frequency below or at target */
#define CPUFREQ_RELATION_C 2		/* closest frequency to target */
#define CPUFREQ_RELATION_E (1U << 2)	/* an efficient frequency if possible */
#define CPUFREQ_RELATION_LE (CPUFREQ_RELATION_L | CPUFREQ_RELATION_E)
#define CPUFREQ_RELATION_HE (CPUFREQ_RELATION_H | CPUFREQ_RELATION_E)
#define CPUFREQ_RELATION_CE (CPUFREQ_RELATION_C | CPUFREQ_RELATION_E)

/* ---- cpufreq_table.c ---- */

/*
 * __resolve_freq(): @target_freq clamped to @min..@max and resolved to the
 * table by @relation (remembered as the policy's cached target and index)
 */
unsigned int __resolve_freq(struct cpufreq_policy *policy, unsigned int target_freq,
			    unsigned int min, unsigned int max, unsigned int relation);
/* cpufreq_frequency_table_target(): the table index for @target_freq within @min..@max */
int cpufreq_frequency_table_target(struct cpufreq_policy *policy, unsigned int target_freq,
				   unsigned int min, unsigned int max, unsigned int relation);
/*
 * __cpufreq_driver_target(): resolve @target_freq within the policy's
 * limits by @relation and, if it is not the current one, ask the driver
 */
int __cpufreq_driver_target(struct cpufreq_policy *policy, unsigned int target_freq,
			    unsigned int relation);
/*
 * cpufreq_set_policy()'s limits: scaling_min_freq @min and
 * scaling_max_freq @max (kHz) verified against the hardware and the
 * table, then resolved so that neither is overshot
 */
void cpufreq_set_limits(struct cpufreq_policy *policy, unsigned int min, unsigned int max);
/*
 * --sysctl scaling_min_freq / scaling_max_freq against @topo: within the
 * machine's range, min <= max, a machine with cpufreq; 0 or -1 + message
 */
int cpufreq_limits_check(const struct topology *topo, char *err, size_t errlen);

/* cpufreq.c: the driver's request (cpufreq_driver_fast_switch()) */
unsigned int cpufreq_driver_fast_switch(struct cpufreq_policy *policy, unsigned int target_freq);
/* cpufreq.c: the driver's ->target() of a resolved @freq (__cpufreq_driver_target()'s) */
void cpufreq_driver_target(struct cpufreq_policy *policy, unsigned int freq);
/* cpufreq_this_cpu_can_update(): the running CPU may change @policy's frequency */
bool cpufreq_this_cpu_can_update(const struct cpufreq_policy *policy);

/* --cpufreq GOVERNOR[:KHZ]: 0, or -1 with one line in @err */
int cpufreq_parse(const char *arg, struct cpufreq_setup *out, char *err, size_t errlen);
/* whether @topo's platform can run @setup (a machine without cpufreq runs only performance) */
int cpufreq_check(const struct cpufreq_setup *setup, const struct topology *topo, char *err,
		  size_t errlen);
/*
 * The governor the next sched_init() starts (set by the session like
 * sysctl_sched; back to performance at sched_exit()).
 */
extern struct cpufreq_setup cpufreq_boot_setup;
/* at sched_init(): policies for machine.topo under @setup (NULL: performance) */
void cpufreq_init(const struct cpufreq_setup *setup);
void cpufreq_exit(void);

extern bool cpufreq_hooks_active;	/* schedutil's update_util hooks are installed */
void cpufreq_update_util_hook(struct rq *rq, unsigned int flags);

/*
 * cpufreq_update_util() (kernel/sched/sched.h): the scheduler tells the
 * governor that @rq's utilisation may have changed. rq->cl.cpufreq is
 * the hook's per-CPU data, written by enqueue and dequeue whether or not a
 * governor listens.
 */
static inline void cpufreq_update_util(struct rq *rq, unsigned int flags)
{
	if (__builtin_expect(cpufreq_hooks_active, 0))
		cpufreq_update_util_hook(rq, flags);
}

/* a task waking from io_schedule() (enqueue_task_fair(): p->in_iowait) */
#define SCHED_CPUFREQ_IOWAIT (1U << 0)

/* idle entries per CPU (tick_nohz_get_idle_calls_cpu()) */
void cpufreq_idle_enter(unsigned int cpu);

/* ---- exposed for the unit tests ---- */

/* cpufreq_table_set_inefficient(): OPP @idx of @policy is inefficient */
void cpufreq_table_set_inefficient(struct cpufreq_policy *policy, unsigned int idx);
/*
 * effective_cpu_util() (without DL tasks, not modelled): the fair plus RT
 * utilisation scaled by what avg_irq (a guest's steal) leaves, plus
 * avg_irq, at most the CPU's capacity; *@min and *@max the performance
 * bounds (avg_irq and uclamp's, and the capacity while an RT task is
 * runnable without uclamp). @min and @max may be NULL.
 */
unsigned long effective_cpu_util(unsigned int cpu, unsigned long util_cfs, unsigned long *min,
				 unsigned long *max);
/* sugov_effective_cpu_perf(): the 1.25 headroom, then no more than max, at least min */
unsigned long sugov_effective_cpu_perf(unsigned long actual, unsigned long min,
				       unsigned long max);
/*
 * cpufreq_driver_resolve_freq(): clamp, then the lowest OPP at or above
 * (CPUFREQ_RELATION_LE: an OPP the energy model marked inefficient is
 * skipped for the next efficient one)
 */
unsigned int cpufreq_driver_resolve_freq(struct cpufreq_policy *policy, unsigned int target_freq);
/* get_next_freq(): @util (with headroom) of @max capacity as a frequency of the table */
unsigned int get_next_freq(struct cpufreq_policy *policy, unsigned long util, unsigned long max);
/* map_util_perf(): 1.25x headroom */
static inline unsigned long map_util_perf(unsigned long util)
{
	return util + (util >> 2);
}
/* map_util_freq(): @util of @cap as a share of @freq */
static inline unsigned long map_util_freq(unsigned long util, unsigned long freq,
					  unsigned long cap)
{
	return freq * util / cap;
}
/* sugov_should_update_freq() */
bool sugov_should_update_freq(struct cpufreq_policy *policy, u64 time);
/* cpufreq_policy_transition_delay_us() */
unsigned int cpufreq_policy_transition_delay_us(const struct cpufreq_policy *policy);

/*
 * policy->fast_switch_possible: the machine's fast_switch line, else the
 * v6.18 driver's rule for a policy of @nr_cpus CPUs
 */
bool cpufreq_fast_switch_possible(const struct cpufreq_desc *d, unsigned int nr_cpus);
/* schedutil's per-CPU state */
const struct sugov_cpu *sugov_cpu_of(unsigned int cpu);
/* schedutil's sugov:N kthread of @policy (NULL with fast switch or another governor) */
struct task_struct *sugov_thread(const struct cpufreq_policy *policy);
/* the times its sugov_work() ran */
u64 sugov_nr_work(const struct cpufreq_policy *policy);

/* the policies, for reports and tests */
extern struct cpufreq_policy *cpufreq_policies;
extern unsigned int nr_cpufreq_policies;
struct cpufreq_policy *cpufreq_cpu_get(unsigned int cpu);
const struct cpufreq_setup *cpufreq_current_setup(void);
/*
 * The run's clock is a governor's: one was asked for (--cpufreq) or the
 * machine's default is not performance. The JSON's cpufreq part, the
 * frequency plot and the energy figures are reported then.
 */
bool cpufreq_governed(void);

#endif
