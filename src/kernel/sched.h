/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduler's data structures and entry points, in the kernel's terms:
 * task_struct, sched_entity, cfs_rq, rq; __schedule(), try_to_wake_up(),
 * sched_tick(), the fair class (EEVDF) and the idle class.
 *
 * Everything runs in the simulated machine's context: code executing "on a
 * CPU" is code running while machine.this_cpu is that CPU, and the costs it
 * charges advance that CPU's cursor (see sim/machine.h).
 */
#ifndef SCHEDLAB_KERNEL_SCHED_H
#define SCHEDLAB_KERNEL_SCHED_H

#include "kernel/cpufreq.h"
#include "kernel/cpuidle_gov.h"
#include "kernel/domains.h"
#include "kernel/features.h"
#include "kernel/list.h"
#include "kernel/pelt.h"
#include "kernel/rbtree.h"
#include "sim/cache.h"
#include "sim/cpu.h"
#include "sim/machine.h"
#include "sim/steal.h"

/* ---- constants (kernel/sched/sched.h, include/linux/sched/prio.h) ---- */

#define MAX_NICE 19
#define MIN_NICE -20
#define NICE_WIDTH 40
#define MAX_RT_PRIO 100
#define DEFAULT_PRIO (MAX_RT_PRIO + NICE_WIDTH / 2)
#define NICE_TO_PRIO(nice) ((nice) + DEFAULT_PRIO)
/*
 * init_task's timer_slack_ns (include/linux/init_task.h: 50 us), which
 * every task inherits unless it sets its own (prctl(PR_SET_TIMERSLACK)) or
 * becomes RT or DL (__setscheduler_params() zeroes it)
 */
#define TIMER_SLACK_DEFAULT_NS 50000ULL
#define PRIO_TO_NICE(prio) ((prio)-DEFAULT_PRIO)
#define MAX_PRIO (MAX_RT_PRIO + NICE_WIDTH)

/* scheduling policies (include/uapi/linux/sched.h) */
#define SCHED_NORMAL 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_BATCH 3
#define SCHED_IDLE 5
#define SCHED_DEADLINE 6
/* a SCHED_DEADLINE task's prio (MAX_DL_PRIO - 1): above every RT level */
#define DL_TASK_PRIO (-1)

/* SCHED_IDLE's load weight, below nice 19's 15, and its 2^32 / 3 (sched.h) */
#define WEIGHT_IDLEPRIO 3
#define WMULT_IDLEPRIO 1431655765

/* the RR quantum: RR_TIMESLICE = 100 * HZ / 1000 jiffies (include/linux/sched/rt.h) */
#define RR_TIMESLICE_MS 100

/* 64-bit kernels keep load weights with 10 extra bits of resolution. */
#define SCHED_FIXEDPOINT_SHIFT 10
#define NICE_0_LOAD_SHIFT (SCHED_FIXEDPOINT_SHIFT + SCHED_FIXEDPOINT_SHIFT)
#define scale_load(w) ((unsigned long)(w) << SCHED_FIXEDPOINT_SHIFT)
#define scale_load_down(w)                                                       \
	({                                                                       \
		unsigned long __w = (w);                                         \
		if (__w)                                                         \
			__w = max(2UL, __w >> SCHED_FIXEDPOINT_SHIFT);           \
		__w;                                                             \
	})
#define NICE_0_LOAD (1UL << NICE_0_LOAD_SHIFT)
#define WMULT_CONST (~0U)
#define WMULT_SHIFT 32

extern const int sched_prio_to_weight[40];
extern const u32 sched_prio_to_wmult[40];

/* task states (include/linux/sched.h) */
#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_DEAD 0x0080
#define TASK_WAKING 0x0200
#define TASK_NEW 0x0800
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

/* p->on_rq */
#define TASK_ON_RQ_QUEUED 1
#define TASK_ON_RQ_MIGRATING 2

/* wake flags */
#define WF_EXEC 0x02
#define WF_FORK 0x04
#define WF_TTWU 0x08
#define WF_SYNC 0x10
#define WF_MIGRATED 0x20
#define WF_ON_CPU 0x40		/* v5.8-v5.19: the wakee was still on its CPU */
#define WF_RQ_SELECTED 0x80	/* the class's select_task_rq() chose the CPU */

/* enqueue/dequeue flags */
#define DEQUEUE_SLEEP 0x0001
#define DEQUEUE_SAVE 0x0002
#define DEQUEUE_MOVE 0x0004
#define DEQUEUE_NOCLOCK 0x0008
#define DEQUEUE_SPECIAL 0x0010	/* never delay: the task will not be woken */
#define DEQUEUE_MIGRATING 0x0100
#define DEQUEUE_DELAYED 0x0200
#define ENQUEUE_WAKEUP 0x0001
#define ENQUEUE_RESTORE 0x0002
#define ENQUEUE_HEAD 0x0010		/* RT: to the head of its priority list */
#define ENQUEUE_MOVE 0x0004
#define ENQUEUE_NOCLOCK 0x0008
#define ENQUEUE_INITIAL 0x0080
#define ENQUEUE_MIGRATED 0x0040
#define ENQUEUE_MIGRATING 0x0100
#define ENQUEUE_DELAYED 0x0200

/* __schedule() modes */
#define SM_IDLE (-1)
#define SM_NONE 0
#define SM_PREEMPT 1
#define SM_RTLOCK_WAIT 2

/* ---- tunables (sysctl_sched_*) ---- */

/* sysctl_sched_tunable_scaling: how the base slice grows with the CPU count */
enum sched_tunable_scaling {
	SCHED_TUNABLESCALING_NONE,	/* factor 1 */
	SCHED_TUNABLESCALING_LOG,	/* factor 1 + ilog2(min(nr_cpus, 8)): the default */
	SCHED_TUNABLESCALING_LINEAR,	/* factor min(nr_cpus, 8) */
	SCHED_TUNABLESCALING_END,
};

struct sched_tunables {
	/*
	 * sysctl_sched_base_slice: the effective slice, factor x normalized,
	 * set by update_sysctl() at sched_init() (2.8 ms with 8+ CPUs) unless
	 * a base_slice_ns write set it directly
	 */
	u64 base_slice_ns;
	u64 normalized_base_slice_ns;	/* normalized_sysctl_sched_base_slice: 700 us */
	unsigned int tunable_scaling;	/* enum sched_tunable_scaling */
	bool base_slice_written;	/* --sysctl base_slice_ns=N was given */
	unsigned int latency_warn_ms;	/* sysctl_resched_latency_warn_ms: 100 */
	unsigned int latency_warn_once;	/* sysctl_resched_latency_warn_once: 1 */
	u64 migration_cost_ns;		/* sysctl_sched_migration_cost: 500 us */
	unsigned int nr_migrate;	/* sysctl_sched_nr_migrate: 32 */
	u64 sched_idle_balance_limit_ns;	/* NEWIDLE_RATE_LIMIT: minimum average gap between idle balances */
	/* the fair server's reservation: debugfs fair_server/cpuN/runtime and period */
	u64 fair_server_runtime_ns;	/* 50 ms */
	u64 fair_server_period_ns;	/* 1 s */
	unsigned int hz;		/* CONFIG_HZ */
	int preempt;			/* PREEMPT_* model */
	/* schedutil's rate_limit_us (every policy's); unless written, the driver's delay */
	unsigned int schedutil_rate_limit_us;
	bool schedutil_rate_limit_written;
	/*
	 * x86 ITMT (arch/x86/kernel/itmt.c, debugfs x86/sched_itmt_enabled):
	 * 1 gives the levels the machine's [asym_packing] names SD_ASYM_PACKING,
	 * 0 takes it away; only on a machine whose file says itmt = yes.
	 */
	unsigned int sched_itmt_enabled;
	bool sched_itmt_written;
	/* sysctl_sched_energy_aware (kernel.sched_energy_aware): 1, EAS when possible */
	unsigned int energy_aware;
	/*
	 * IRQ time accounting (CONFIG_IRQ_TIME_ACCOUNTING and
	 * sched_clock_irqtime): 1, interrupt and softirq time is taken out of
	 * clock_task into avg_irq; a boot-time choice (docs/pelt.md)
	 */
	unsigned int irqtime;
	/*
	 * The ondemand and conservative governors' tunables
	 * (cpufreq/ondemand/NAME, cpufreq/conservative/NAME): their defaults
	 * depend on the governor and the machine, so each is read only when
	 * written (sched_sysctl_written(); docs/cpufreq.md).
	 */
	unsigned int sampling_rate;		/* us */
	unsigned int up_threshold;		/* % */
	unsigned int sampling_down_factor;
	unsigned int ignore_nice_load;
	unsigned int io_is_busy;
	unsigned int powersave_bias;		/* permille, ondemand */
	unsigned int freq_step;			/* % of policy->max, conservative */
	unsigned int down_threshold;		/* %, conservative */
	/* every policy's scaling_min_freq and scaling_max_freq (kHz), when written */
	unsigned int scaling_min_freq;
	unsigned int scaling_max_freq;
	/* which entries of sysctl.c's table a --sysctl wrote (bit = table index) */
	u64 written;
};

/* preemption models (CONFIG_PREEMPT_NONE/VOLUNTARY, full, PREEMPT_LAZY) */
enum preempt_model {
	PREEMPT_NONE_MODEL,
	PREEMPT_VOLUNTARY_MODEL,
	PREEMPT_FULL_MODEL,
	PREEMPT_LAZY_MODEL,
};

extern const char *const preempt_model_names[4];

extern struct sched_tunables sysctl_sched;

/* sysctl.c: back to the v6.18 defaults; set one "NAME=VALUE" (0 or -1 + message) */
void sched_sysctl_reset(void);
int sched_sysctl_set(const char *assignment, char *err, size_t errlen);
/* whether --sysctl wrote the tunable at @offset (offsetof(struct sched_tunables, NAME)) */
bool sched_sysctl_written(size_t offset);
#define sysctl_written(field) sched_sysctl_written(offsetof(struct sched_tunables, field))
/* update_sysctl() at sched_init_granularity(): scale the base slice for @nr_cpus */
void sched_init_granularity(unsigned int nr_cpus);

#define TICK_NSEC (NSEC_PER_SEC / sysctl_sched.hz)

/* core.c update_avg(): a running average takes 1/8 of each new sample */
#define SCHED_UPDATE_AVG_DIV 8

/* ---- the fair class ---- */

struct load_weight {
	unsigned long weight;
	u32 inv_weight;
};

struct sched_entity {
	struct load_weight load;
	struct rb_node run_node;
	u64 deadline;
	u64 min_vruntime;		/* augmented: min vruntime of the subtree */
	u64 min_slice;			/* augmented: min slice of the subtree */

	unsigned char on_rq;
	unsigned char sched_delayed;
	unsigned char rel_deadline;
	unsigned char custom_slice;

	u64 exec_start;
	u64 sum_exec_runtime;
	u64 prev_sum_exec_runtime;
	u64 vruntime;
	s64 vlag;
	u64 vprot;			/* RUN_TO_PARITY: protected until vruntime reaches this */
	u64 slice;

	struct sched_avg avg;
	struct list_head group_node;	/* on rq->cfs_tasks while queued */
};

struct cfs_rq {
	struct load_weight load;	/* sum of queued entities' weights */
	unsigned int nr_queued;		/* entities queued, incl. curr and delayed ones */
	unsigned int h_nr_queued;	/* tasks queued (flat hierarchy: == nr_queued) */
	unsigned int h_nr_runnable;	/* queued tasks that are not delayed */
	unsigned int h_nr_idle;		/* queued SCHED_IDLE tasks (v6.18's name) */

	s64 avg_vruntime;		/* sum of (v_i - min_vruntime) * w_i over the tree */
	u64 avg_load;			/* sum of w_i (scale_load_down) over the tree */
	u64 min_vruntime;

	struct rb_root_cached tasks_timeline;
	struct sched_entity *curr;
	struct sched_entity *next;

	struct sched_avg avg;		/* PELT of the whole runqueue */
	struct {
		unsigned long load_avg;
		unsigned long util_avg;
		unsigned long runnable_avg;
		int nr;
	} removed;			/* averages of tasks that left, applied at next update */
};

/* ---- the RT class (rt.c) ---- */

/* a task's place in its rt_rq (struct sched_rt_entity) */
struct sched_rt_entity {
	struct list_head run_list;	/* on rt_rq->active.queue[prio] while queued */
	unsigned int time_slice;	/* SCHED_RR: ticks left of the quantum */
	unsigned short on_rq;
	unsigned short on_list;
};

#define RT_BITMAP_LONGS ((MAX_RT_PRIO + 1 + 63) / 64)

/* the 100 priority lists and their bitmap (struct rt_prio_array) */
struct rt_prio_array {
	u64 bitmap[RT_BITMAP_LONGS];	/* bit MAX_RT_PRIO set: the delimiter */
	struct list_head queue[MAX_RT_PRIO];
};

struct rt_rq {
	struct rt_prio_array active;
	unsigned int rt_nr_running;
	unsigned int rr_nr_running;
	/*
	 * plist pushable_tasks: queued RT tasks that are not running and may
	 * migrate, by prio, first come first within a prio (a task put back
	 * after running goes to the tail of its prio)
	 */
	struct list_head pushable_tasks;
	unsigned int rt_nr_pushable;	/* its length */
	struct {
		int curr;		/* highest queued RT prio, MAX_RT_PRIO - 1: none */
		int next;		/* highest pushable RT prio, MAX_RT_PRIO - 1: none */
	} highest_prio;
	bool overloaded;		/* has pushable tasks: set in the root domain's rto_mask */
	bool rt_queued;
	/* schedlab's counts: tasks push_rt_task() moved away, pull_rt_task() took */
	u64 nr_pushed;
	u64 nr_pulled;
};

/* ---- the deadline class: only the per-CPU fair server (deadline.c) ---- */

/* a reservation's bandwidth, runtime / period in BW_SHIFT fixed point (sched.h) */
#define BW_SHIFT 20
#define BW_UNIT (1 << BW_SHIFT)
/* dl_entity_overflow() compares in units of 2^DL_SCALE ns (~1 us) (sched.h) */
#define DL_SCALE 10
/* sched.h: the fixed point of dl_rq.bw_ratio */
#define RATIO_SHIFT 8
/* the CBS replenishment of a DL entity (sched.h's ENQUEUE_REPLENISH) */
#define ENQUEUE_REPLENISH 0x0020

/*
 * A SCHED_DEADLINE entity (struct sched_dl_entity, the fields a dl_server
 * and a special task use). The only DL tasks are schedutil's sugov:N
 * kthreads (SCHED_FLAG_SUGOV: never throttled); the DL entity of each rq
 * is its fair server, a deferred (dl_defer) reservation of dl_runtime
 * every dl_period for the fair class, as v6.12+ keeps fair tasks from
 * starving under RT load. Its states, as deadline.c's: throttled with the
 * defer timer armed at the zero-laxity point (dl_defer_armed), throttled
 * waiting for the next period's replenishment, or queued on the rq's dl_rq,
 * where it is picked above the RT class and runs fair tasks
 * (dl_defer_running once the timer found them starved).
 */
struct sched_dl_entity {
	struct rq *rq;			/* dl_se->rq: the runqueue it serves */
	u64 dl_runtime;			/* maximum runtime each instance */
	u64 dl_deadline;		/* relative deadline (the period: implicit) */
	u64 dl_period;
	u64 dl_bw;			/* dl_runtime / dl_period, BW_SHIFT fixed point */
	u64 dl_density;			/* dl_runtime / dl_deadline */
	s64 runtime;			/* what is left of this instance's runtime */
	u64 deadline;			/* this instance's absolute deadline */
	bool dl_throttled;		/* out of runtime, or deferred: not queued */
	bool dl_server;
	bool dl_server_active;		/* dl_server_start() ... dl_server_stop() */
	bool dl_defer;			/* deferred server: runs at zero laxity only */
	bool dl_defer_armed;		/* the timer is the zero-laxity (defer) timer */
	bool dl_defer_running;		/* fair tasks were starved: runs once queued */
	bool on_dl_rq;			/* in the dl_rq's tree (!RB_EMPTY_NODE(&rb_node)) */
	bool dl_yielded;		/* sched_yield(): the rest of this instance given up */
	bool on_pushable;		/* on rq->dl.pushable_tasks (pushable_dl_tasks) */
	/*
	 * blocked before its 0-lag time: its dl_bw stays in running_bw until
	 * inactive_timer fires there (task_non_contending())
	 */
	bool dl_non_contending;
	struct list_head pushable_node;	/* its place there, by deadline */
	u64 flags;			/* SCHED_FLAG_SUGOV: a special entity (dl_entity_is_special()) */
	struct list_head run_node;	/* a DL task's place on dl_rq.tasks */
	struct hrtimer dl_timer;	/* replenishment or zero-laxity timer */
	struct hrtimer inactive_timer;	/* at the 0-lag time: inactive_task_timer() */
	u64 dl_timer_expires;		/* its expiry, for hrtimer_forward_now() */
	/* schedlab's counts, for tests and the record of a run */
	u64 nr_zero_laxity;		/* dl_server_timer() found the fair class starved */
	u64 nr_server_picks;		/* fair tasks picked through the DL class */
	u64 nr_throttled;		/* times its runtime ran out while it was queued */
	u64 nr_replenished;		/* dl_task_timer() replenishments of a DL task */
};

/* the rq's DL runqueue: the fair server and DL tasks (struct dl_rq, in part) */
struct dl_rq {
	unsigned int dl_nr_running;	/* the queued server and tasks */
	/*
	 * The queued DL tasks (the kernel's rb-tree by deadline): at most one
	 * schedutil kthread per CPU here, so a list scanned for the earliest.
	 */
	struct list_head tasks;
	struct {
		u64 curr;		/* earliest queued deadline, 0: none */
		u64 next;		/* earliest pushable task's deadline */
	} earliest_dl;
	/*
	 * The queued DL tasks that may run elsewhere and are not running
	 * (the kernel's pushable_dl_tasks_root), by deadline; the rq is
	 * overloaded while it has one (set in the root domain's dlo_mask).
	 */
	struct list_head pushable_tasks;
	bool overloaded;
	/*
	 * running_bw: the bandwidth of the DL entities active on this CPU
	 * (runnable, throttled or not, or blocked before their 0-lag time:
	 * GRUB's active utilization), which schedutil adds (cpu_bw_dl());
	 * this_bw: of all the DL entities that belong to this CPU, active
	 * or not (running_bw <= this_bw)
	 */
	u64 running_bw;
	u64 this_bw;
	/*
	 * GRUB (SCHED_FLAG_RECLAIM): max_bw, the most a CPU's DL entities
	 * may use (Umax, the root domain's limit per CPU); extra_bw, this
	 * CPU's part of what admission has not given out here (Uextra is
	 * dl_rq_extra_bw(): this plus the root domain's extra_bw_all);
	 * bw_ratio, 1 / Umax in RATIO_SHIFT fixed point
	 * (init_dl_rq_bw_ratio())
	 */
	u64 max_bw;
	u64 extra_bw;
	u64 bw_ratio;
	/* schedlab's counts: tasks push_dl_task() moved away, pull_dl_task() took */
	u64 nr_pushed;
	u64 nr_pulled;
};

/* sched_setattr()'s attributes (include/uapi/linux/sched/types.h, in part) */
struct sched_attr {
	u32 sched_policy;
	u64 sched_flags;		/* SCHED_FLAG_* */
	s32 sched_nice;			/* SCHED_NORMAL, SCHED_BATCH */
	u32 sched_priority;		/* SCHED_FIFO, SCHED_RR: 1..99; 0 for the others */
	/* utilization clamps, with SCHED_FLAG_UTIL_CLAMP_MIN/MAX; -1: back to the default */
	u32 sched_util_min;
	u32 sched_util_max;
	/* SCHED_DEADLINE: the reservation in ns (period 0: the deadline) */
	u64 sched_runtime;
	u64 sched_deadline;
	u64 sched_period;
};

/* include/uapi/linux/sched.h: sched_setattr()'s flags */
#define SCHED_FLAG_RESET_ON_FORK	0x01
#define SCHED_FLAG_RECLAIM		0x02
#define SCHED_FLAG_KEEP_POLICY		0x08
/* schedutil's kthread: a DL entity without bandwidth or throttling (sched.h) */
#define SCHED_FLAG_SUGOV		0x10000000
#define SCHED_FLAG_KEEP_PARAMS		0x10
#define SCHED_FLAG_UTIL_CLAMP_MIN	0x20
#define SCHED_FLAG_UTIL_CLAMP_MAX	0x40
#define SCHED_FLAG_KEEP_ALL		(SCHED_FLAG_KEEP_POLICY | SCHED_FLAG_KEEP_PARAMS)
/* the flags a DL entity keeps (sched.h's SCHED_DL_FLAGS, without DL_OVERRUN) */
#define SCHED_DL_FLAGS			(SCHED_FLAG_RECLAIM | SCHED_FLAG_SUGOV)
#define SCHED_FLAG_UTIL_CLAMP		(SCHED_FLAG_UTIL_CLAMP_MIN | SCHED_FLAG_UTIL_CLAMP_MAX)

/* ---- utilization clamping (kernel/sched/core.c, CONFIG_UCLAMP_TASK) ---- */

enum uclamp_id {
	UCLAMP_MIN = 0,
	UCLAMP_MAX,
	UCLAMP_CNT,
};

/* CONFIG_UCLAMP_BUCKETS_COUNT's default: 5 buckets of ~20% each */
#define UCLAMP_BUCKETS 5
#define UCLAMP_BUCKET_DELTA ((SCHED_CAPACITY_SCALE + UCLAMP_BUCKETS / 2) / UCLAMP_BUCKETS)
/* the rq's max clamp is kept from its last task while it is idle */
#define UCLAMP_FLAG_IDLE 0x01

/* struct uclamp_se: a task's requested or effective clamp */
struct uclamp_se {
	unsigned int value;
	unsigned int bucket_id;
	bool active;		/* counted in its rq's bucket */
	bool user_defined;	/* set by sched_setattr() */
};

/* struct uclamp_bucket / uclamp_rq: the clamps of a runqueue's runnable tasks */
struct uclamp_bucket {
	unsigned long value;	/* the largest clamp of its tasks */
	unsigned long tasks;
};

struct uclamp_rq {
	unsigned int value;	/* max-aggregated over the runnable tasks */
	struct uclamp_bucket bucket[UCLAMP_BUCKETS];
};

/* the sched_uclamp_used static key: some task asked for a clamp */
extern bool sched_uclamp_used;
static inline bool uclamp_is_used(void)
{
	return __builtin_expect(sched_uclamp_used, 0);
}

/* ---- tasks ---- */

struct futex_mm;
struct child_order;
struct task_struct;
struct lock_waiter;
struct wait_queue_head;

/*
 * What a task does when it runs: called at a step boundary on the task's
 * CPU with the task current. It performs one operation (a syscall, the
 * start of user work, an exit), charging its kernel time. Implemented by the
 * workload layer (src/work).
 */
struct task_exec {
	void (*step)(struct task_struct *p);
	/*
	 * Optional, for tasks that are released (task_struct.reap): is the
	 * exited task's program state done with (no timer, no queued call
	 * holds it)? And free it, just before the task_struct is freed.
	 */
	bool (*releasable)(const struct task_struct *p);
	void (*release)(struct task_struct *p);
};

struct wait_queue_entry {
	struct task_struct *task;
	bool exclusive;
	struct list_head entry;
};

struct sched_task_stats {
	u64 run_delay;			/* time spent runnable but waiting (schedstat) */
	u64 pcount;			/* times run on a CPU */
	u64 last_queued;		/* when it last became runnable, 0 if running/sleeping */
	bool queued_by_wakeup;		/* last_queued is a wakeup (not a preemption) */
	u64 max_delay;
	u64 max_delay_at;
	u64 nr_wakeups;
	u64 nr_migrations;
	u64 nr_switches;
	u64 nr_involuntary;
};

/*
 * What released tasks leave behind. The kernel adds a reaped child's times
 * to its parent's (wait() -> signal->cutime, cstime: what times() reports
 * as tms_cutime, tms_cstime); here a released task adds its own counters
 * and what it carried to its parent's, so a task's own counters plus these
 * account for every task that ever ran under it (docs/reliability.md,
 * "Memory").
 */
struct task_cumul {
	u64 nr_tasks;			/* tasks released into it */
	u64 sum_exec_runtime;
	u64 utime;
	u64 nr_switches;
	u64 nr_switched;		/* of those tasks, how many switched at least once */
	u64 nr_migrations;
	u64 run_delay;
	u64 pcount;
};

/*
 * `perf sched latency`'s per-comm row of the released tasks with that comm
 * that ran (report/latency_print.c merges it with the live ones).
 */
struct released_comm {
	char comm[16];
	int pid;			/* the lowest of their pids */
	unsigned int merged;
	u64 runtime;			/* sum_exec_runtime */
	u64 switches;			/* pcount */
	u64 total_delay;		/* run_delay */
	u64 max_delay, max_delay_at;
	int max_delay_pid;		/* the lowest pid with that max_delay */
};

/*
 * A task's scheduling lines: thread_info flags (TIF_NEED_RESCHED), __state,
 * on_cpu, on_rq, cpu and wake_entry sit together at the top of task_struct;
 * pi_lock elsewhere; the sched_entity, and its PELT average on a line of
 * its own.
 */
struct task_lines {
	struct cache_line state;
	struct cache_line pi;
	struct cache_line se;
	struct cache_line avg;
	struct cache_line tasks;	/* its tasks/sibling nodes, children and signal heads */
};

struct task_struct {
	/*
	 * What a step of the running task reads (cpu_continue()) first, in
	 * one host cache line (the simulator's order, not the kernel's; the
	 * kernel's cache lines are cl): see struct rq.
	 */
	const struct task_exec *exec;
	void *exec_data;
	u64 work_left;			/* ns of user work at full speed still to do */
	unsigned int __state;
	int on_rq;			/* 0, TASK_ON_RQ_QUEUED or TASK_ON_RQ_MIGRATING */
	int on_cpu;			/* 1 from context switch in until finish of switch out */
	unsigned int cpu;		/* task_cpu() */
	bool in_user_work;
	/* that work is the kernel's, preemptible (task_run_sys()): system time, not user */
	bool work_sys;
	/*
	 * io_schedule(): blocked waiting for I/O, so its wakeup asks schedutil
	 * for the iowait boost. No modelled workload blocks in I/O today.
	 */
	bool in_iowait;
	/* smp_call_function_single(wait=1) in progress: the CPU spins */
	bool csd_spinning;
	/* spinning on a sleeping lock's owner or in its osq (kernel/locking.h) */
	bool lock_spinning;
	bool is_idle;			/* the per-CPU idle task */
	u64 utime;			/* time spent in user work (the rest of runtime is system time) */

	struct task_lines cl;
	struct list_head tasklist;	/* on init_task.tasks: forked, not yet released (tasklist.c) */
	/* a process's children in fork order, as wait() finds them; its node there */
	struct list_head children, sibling;
	/* its children by fork index, for wait()'s pass (kernel/tasklist.c); its own index */
	struct child_order *child_order;
	unsigned int child_idx;
	/* its exit_mm() section was charged on its own (work/mm_thread.c) */
	bool exit_mm_locked;
	/* the pages its process maps (get_mm_rss()), which its exit tears down; 0 for a thread */
	u32 mm_rss;
	int pid;
	char comm[16];
	u64 on_cpu_until;		/* when the CPU switching it out is done with it */
	struct lock_waiter *lock_waiter;	/* the lock operation it spins in, if lock_spinning */
	unsigned int wake_cpu;
	struct cache_footprint cache;	/* working set and where it last ran (sim/cache.h) */
	int static_prio;
	int normal_prio;
	int prio;			/* 0..99 RT (99 - rt_priority), 100..139 nice */
	unsigned int policy;		/* SCHED_NORMAL, SCHED_FIFO, ... */
	unsigned int rt_priority;	/* 1..99 for SCHED_FIFO/RR, else 0 */
	/*
	 * how late its hrtimer sleeps may fire (nanosleep, clock_nanosleep,
	 * futex and select timeouts), and the value a fair policy restores
	 */
	u64 timer_slack_ns;
	u64 default_timer_slack_ns;
	/* SCHED_FLAG_RESET_ON_FORK: its children start SCHED_NORMAL (sched_fork()) */
	bool sched_reset_on_fork;
	struct sched_rt_entity rt;
	struct list_head pushable_tasks;	/* on rq->rt.pushable_tasks (plist_node) */
	bool is_stopper;		/* the per-CPU stopper kthread */
	bool sched_task_hot;		/* migrated although cache hot (schedstat) */
	bool kthread;
	/*
	 * per-task perf counters on it (perf stat's, inherited by what it
	 * forks): perf_event_task_sched_out()/_in() switch them at each
	 * context switch
	 */
	unsigned char perf_events;
	int mm;				/* address space id: threads of a process share it */
	int tgid;
	struct sched_entity se;
	struct sched_dl_entity dl;	/* SCHED_DEADLINE tasks (deadline.c) */
	struct cpumask *cpus_mask;	/* allowed CPUs; cpumask_of() for idle, stopper: read-only */
	unsigned int nr_cpus_allowed;
	/* the largest CPU capacity in cpus_mask (set_task_max_allowed_capacity()) */
	unsigned long max_allowed_capacity;


	/* the wakelist: queued on a CPU's call-single queue */
	struct task_struct *wake_entry_next;
	bool sched_remote_wakeup;

	/* wakeup CPU selection (select_task_rq_fair) */
	unsigned int wakee_flips;
	unsigned long wakee_flip_decay_ts;	/* jiffies */
	/*
	 * Compared by pid (0: none; no fair task has pid 0), never
	 * dereferenced: a released task's memory may hold a new task, which
	 * must not count as the same wakee.
	 */
	struct task_struct *last_wakee;
	int last_wakee_pid;
	int recent_used_cpu;			/* -1: none */

	/* hierarchy */
	struct task_struct *parent;
	unsigned int nr_children_alive;
	unsigned int nr_children_exited;	/* exited and not yet reaped */
	struct wait_queue_head *child_wait;	/* parent waits here for children */

	/*
	 * Released (its task_struct freed, its counters added to its
	 * parent's cumul) once it has exited, been switched out and its
	 * children are released: set by whoever forks it when nothing keeps
	 * a pointer to it (see sched_release_dead()). A task without a
	 * parent, and a kernel thread, is never released.
	 */
	bool reap;
	bool reap_waiting;			/* exited; released with its last child */
	unsigned int nr_children_unreleased;
	struct list_head dying;			/* sched_world.dying */
	struct task_cumul cumul;

	struct wait_queue_entry wq_entry;
	struct sched_task_stats stats;
	u64 start_time;
	u64 exit_time;
	u64 woken_at;			/* for the checker: became runnable at */
	struct list_head tasks;		/* all tasks */
	/* utilization clamps: requested (sched_setattr()) and in effect while queued */
	struct uclamp_se uclamp_req[UCLAMP_CNT];
	struct uclamp_se uclamp[UCLAMP_CNT];
	/* its process's futex state (kernel/futex.h), or NULL; cold: at the end */
	struct futex_mm *futex_mm;
	/*
	 * Priority inheritance (kernel/rtmutex.h): the top waiters of the
	 * rt_mutexes it owns, by priority (pi_waiters), the rt_mutex it is
	 * blocked on (pi_blocked_on's lock) and the task whose priority it
	 * runs at (pi_top_task, NULL: its own, normal_prio)
	 */
	struct list_head pi_waiters;
	struct lock_waiter *pi_blocked_on;
	struct task_struct *pi_top_task;
};

/* ---- runqueues ---- */

/*
 * The cache lines of a runqueue that other CPUs read or write, as v6.18's
 * struct rq lays them out: the first line holds __lock with nr_running and
 * the nohz fields (that line is rq->lock.line here); the next one
 * ttwu_pending and nr_switches; curr and idle share a line with
 * clock_update_flags and clock, which every lock pin and clock update
 * writes; clock_task and clock_pelt have their own (____cacheline_aligned);
 * the cfs_rq's tree/load and its PELT average are apart; the call-single
 * queue is a per-CPU llist.
 */
struct rq_lines {
	struct cache_line nr;		/* ttwu_pending, nr_switches, nohz_flags */
	struct cache_line curr;		/* curr, idle, clock_update_flags, clock */
	struct cache_line clock;	/* clock_task, clock_pelt, clock_idle */
	struct cache_line cfs;		/* cfs_rq: tree, load, avg_vruntime, nr_queued */
	struct cache_line cfs_avg;	/* cfs_rq->avg (PELT) */
	struct cache_line idle;		/* idle_stamp, avg_idle */
	struct cache_line wakelist;	/* call_single_queue llist head */
	/*
	 * Per-CPU state an enqueue or dequeue also writes outside struct rq:
	 * PSI's psi_group_cpu (psi_task_change(), the root group's) and the
	 * cpufreq hook's per-CPU data (cpufreq_update_util()).
	 */
	struct cache_line psi;
	struct cache_line cpufreq;
	/* rt_rq: the priority bitmap and list heads, rt_nr_running, highest_prio */
	struct cache_line rt;
};

struct rq {
	/*
	 * What every step of the CPU reads first (cpu_continue()) comes
	 * first, and the RT and deadline parts, which a fair workload does
	 * not touch, last: the host's cache misses on these structures are
	 * much of a step's time on a many-CPU machine (docs/performance.md).
	 * The order is the simulator's; the kernel's cache lines are cl.
	 * The first host line holds what idle_cpu() reads of another CPU.
	 */
	unsigned int cpu;
	unsigned int nr_running;	/* tasks enqueued in any class (not the idle task) */
	bool ttwu_pending;		/* wakelist entries queued (the wakelist) */
	struct task_struct *curr;
	struct task_struct *idle;
	int active_mm;			/* address space loaded on this CPU */

	/* need_resched: TIF_NEED_RESCHED of rq->curr; the lazy form of PREEMPT_LAZY */
	bool need_resched;
	bool need_resched_lazy;
	/* TIF_POLLING_NRFLAG of the idle task: set need_resched instead of an IPI */
	bool polling;
	/* running interrupt handlers or softirqs (handle_pending_irqs()): !in_task() */
	bool in_interrupt;
	struct {
		bool active;
		unsigned int flags;
		unsigned int n;			/* CPUs visited so far */
		unsigned long now, next_balance;	/* jiffies */
		bool update_next_balance, has_blocked_load;
	} ilb;
	/* the events popped most: one host line of their own (aligned) */
	struct sim_event step_ev __attribute__((aligned(64)));	/* next step: end of a kernel path or user work */
	struct sim_event tick_ev;	/* the periodic tick */

	struct sim_lock lock;
	struct rq_lines cl;
	u64 nr_switches;
	u64 clock;
	u64 clock_task;
	u64 clock_pelt;
	u64 clock_idle;			/* clock_pelt sync point while idle */

	struct cfs_rq cfs;
	bool rt_push_pending;		/* queue_balance_callback(push_rt_tasks) */
	bool dl_push_pending;		/* queue_balance_callback(push_dl_tasks) */
	/* the idle state the CPU is in (-1 when not idle) and the governor's history */
	int idle_state;
	/* cpuidle's stateK/disable for this CPU, bit K (--idle-states) */
	unsigned int idle_state_disable;
	u64 idle_since;
	/* need_resched set through TIF_POLLING_NRFLAG before idle_since: the state is not entered */
	bool woken_before_entry;
	/*
	 * a KVM guest's halted vCPU woken by the interrupts now pending: it
	 * was out of the guest, so they take no guest_ipi_recv_exit
	 */
	bool halt_woken;
	u64 idle_duration_avg;
	/*
	 * a KVM guest's haltpoll governor (docs/guests.md): the adaptive poll
	 * limit (dev->poll_limit_ns), the last state and whether the last poll
	 * ran out (dev->poll_time_limit)
	 */
	u64 poll_limit_ns;
	int last_state_idx;
	bool poll_time_limit;
	/* the host's halt-poll window of this vCPU (vcpu->halt_poll_ns, sim/halt_poll.h) */
	u64 host_halt_poll_ns;
	/* the menu or teo governor's device and per-CPU data (cpuidle_gov.h) */
	struct cpuidle_device cpuidle_dev;
	union {
		struct menu_device menu;
		struct teo_cpu teo;
	} cpuidle_gov;
	/*
	 * v3.x's rq->cpu_load[0], this_cpu_load(), for the menu governor's
	 * MENU_LOAD_MULT (cpu_load.c): the CFS load at its last update, in
	 * v3.x's unscaled weight units, and the jiffy of that update
	 * (last_load_update_tick). v6.18 has neither.
	 */
	unsigned long cpu_load0;
	unsigned long last_load_update_tick;
	/* tasks that blocked in io_schedule() on this CPU (nr_iowait_cpu()) */
	unsigned int nr_iowait;
	/* the call-single queue: wakelist tasks and function calls */
	struct task_struct *wake_list;
	struct task_struct **wake_list_tail;
	struct call_single_data *csd_list;
	struct call_single_data **csd_list_tail;
	/* wakeup path statistics */
	u64 nr_ttwu_queued;		/* wakeups this CPU queued on a wakelist */
	u64 nr_ttwu_direct;		/* wakeups this CPU activated under the target's rq lock */
	u64 ttwu_on_cpu_spin_ns;	/* spun waking a task still on its CPU (p->on_cpu) */
	u64 nr_wake_without_ipi;	/* wakes of this CPU that found it polling */
	u64 ipi_resched_sent;
	u64 ipi_call_sent;
	u64 nr_idle_fast;		/* schedule_idle() that took the SM_IDLE fast path */
	u64 nr_idle_full_pick;		/* schedule_idle() that ran the full pick with nothing queued */
	u64 idle_state_usage[TOPO_MAX_IDLE_STATES];
	u64 idle_state_time[TOPO_MAX_IDLE_STATES];
	/* kcpustat CPUTIME_NICE: user time of tasks at nice > 0 (ondemand's ignore_nice_load) */
	u64 kcpustat_nice;

	/* idle and wakeup statistics */
	u64 idle_stamp;
	u64 avg_idle;
	u64 max_idle_balance_cost;

	/* load balancing */
	struct list_head cfs_tasks;	/* queued fair tasks, most recently run first */
	unsigned long cpu_capacity;	/* capacity left for fair tasks */
	unsigned long next_balance;	/* jiffies */
	bool idle_balance;		/* idle at the last tick: balance as CPU_IDLE */
	bool balance_softirq;		/* SCHED_SOFTIRQ raised */
	unsigned long misfit_task_load;
	/* uclamp: the runnable tasks' clamps (rq->uclamp, rq->uclamp_flags) */
	struct uclamp_rq uclamp[UCLAMP_CNT];
	unsigned int uclamp_flags;
	int active_balance;		/* the stopper is queued to push a task */
	/* the stopper is queued to move this task to migrate_dest (sched_setaffinity()) */
	struct task_struct *migrate_task;
	unsigned int migrate_dest;
	unsigned int push_cpu;
	struct task_struct *stop;	/* the stopper kthread */
	/* nohz idle balancing */
	bool nohz_tick_stopped;
	unsigned int nohz_flags;	/* NOHZ_*_KICK pending on this CPU */
	struct sim_event csd_ev;	/* call-function IPI in flight (nohz kick) */
	/*
	 * A nohz idle balance in progress on this CPU. The kernel's loop runs
	 * while the other CPUs go on (a stopper it kicked may finish before the
	 * loop reaches the next idle CPU), so the loop yields after each CPU it
	 * balanced and resumes at this CPU's next step.
	 */
	/* NEWIDLE_RATE_LIMIT: the RFC's average interval between idle balances */
	u64 last_idle_balance;
	u64 avg_idle_balance_interval;
	bool idle_balance_seen;

	/* events of this CPU */
	struct sim_event ipi_ev;	/* reschedule IPI in flight */
	bool tick_stopped;		/* nohz: tick stopped while idle */
	u64 next_tick;			/* the tick timer's next expiry, when re-armed */

	/* schedstat counters (version 17 names) */
	struct rt_rq rt;
	struct sched_avg avg_rt;	/* PELT of the time RT tasks ran (rq->avg_rt) */
	struct sched_avg avg_dl;	/* PELT of the time DL tasks ran (rq->avg_dl) */
	/*
	 * PELT of the time the CPU did not give tasks (rq->avg_irq): here the
	 * steal time of a guest's vCPU, which update_rq_clock_task() takes
	 * out of clock_task (docs/guests.md, "Steal time")
	 */
	struct sched_avg avg_irq;
	u64 prev_steal_time_rq;		/* the steal clock clock_task has seen */
	/*
	 * IRQ time accounting: the CPU's hard and soft interrupt time so far
	 * (the kernel's per-CPU cpu_irqtime and its cpustat IRQ and SOFTIRQ
	 * columns; their sum is irq_time_read()), and the part of it
	 * clock_task has left out (rq->prev_irq_time)
	 */
	u64 hardirq_time;
	u64 softirq_time;
	u64 prev_irq_time;
	struct dl_rq dl;
	struct sched_dl_entity fair_server;

	struct {
		u64 yld_count;
		u64 sched_count;
		u64 sched_goidle;
		u64 ttwu_count;
		u64 ttwu_local;
		u64 rq_cpu_time;
		u64 run_delay;
		u64 pcount;
	} stat;
	u64 nr_ticks;
	/* lib/cpumask.c's per-CPU distribute_cpu_mask_prev: the last pick (0 at boot) */
	int distribute_cpu_mask_prev;
	/* LATENCY_WARN: when the tick first saw need_resched pending, ticks since */
	u64 last_seen_need_resched_ns;
	int ticks_without_resched;
	u64 ipi_sent;			/* IPIs sent by this CPU */
	u64 ipi_received;
	u64 nr_migrations_in;
} __attribute__((aligned(64)));

extern struct rq *runqueues;

static inline struct rq *cpu_rq(unsigned int cpu)
{
	return &runqueues[cpu];
}

static inline struct rq *this_rq(void)
{
	return &runqueues[machine.this_cpu];
}

static inline unsigned int smp_processor_id(void)
{
	return machine.this_cpu;
}

static inline unsigned int task_cpu(const struct task_struct *p)
{
	return p->cpu;
}

/*
 * vcpu_is_preempted() (include/linux/sched.h; x86 KVM:
 * __kvm_vcpu_is_preempted(), the steal-time area's KVM_VCPU_PREEMPTED):
 * the host has @cpu's vCPU off its pCPU while it wants to run. Always
 * false on bare metal and in a guest without steal (sim_steal_preempted()).
 * The flag's line is written by the host only as it puts and loads the
 * vCPU, so a reader's cost is in the caller's visit of the CPU.
 */
static inline bool vcpu_is_preempted(unsigned int cpu)
{
	return unlikely(sim_steal_enabled()) && sim_steal_preempted(cpu, cpu_now());
}

static inline struct rq *task_rq(const struct task_struct *p)
{
	return cpu_rq(p->cpu);
}

static inline struct task_struct *task_of(struct sched_entity *se)
{
	return container_of(se, struct task_struct, se);
}

static inline struct rq *rq_of(struct cfs_rq *cfs_rq)
{
	return container_of(cfs_rq, struct rq, cfs);
}

static inline unsigned int cpu_of(const struct rq *rq)
{
	return rq->cpu;
}

static inline struct cfs_rq *cfs_rq_of(struct sched_entity *se)
{
	return &task_rq(task_of(se))->cfs;
}

static inline bool is_idle_task(const struct task_struct *p)
{
	return p->is_idle;
}

static inline int task_on_rq_queued(const struct task_struct *p)
{
	return p->on_rq == TASK_ON_RQ_QUEUED;
}

static inline unsigned long arch_scale_cpu_capacity(unsigned int cpu)
{
	return machine.cpus[cpu].capacity;
}

/*
 * The current frequency against the reference, at most the scale: x86's
 * APERF/MPERF ratio over arch_max_freq_ratio, which with a turbo table is
 * the 4-core turbo frequency, so a core above it (fewer cores active) is
 * clipped to 1024 (arch/x86/kernel/cpu/aperfmperf.c). Approximation: the
 * kernel averages APERF/MPERF over the last tick (arch_scale_freq_tick());
 * this reads the frequency now.
 */
static inline unsigned long arch_scale_freq_capacity(unsigned int cpu)
{
	const struct sim_cpu *c = &machine.cpus[cpu];
	unsigned long scale =
		(unsigned long)c->freq_khz * SCHED_CAPACITY_SCALE / c->freq_inv_ref_khz;

	return scale < SCHED_CAPACITY_SCALE ? scale : SCHED_CAPACITY_SCALE;
}

/* The world of tasks. */
struct sched_world {
	struct list_head tasks;			/* every task not released */
	struct list_head dying;			/* exited tasks to release */
	u64 nr_released;
	struct released_comm *released_comms;
	unsigned int nr_released_comms, cap_released_comms;
	int next_pid;
	unsigned int nr_tasks_alive;
	u64 nr_forks;
	u64 nr_exits;
	/* FNV-1a over (pid, from, to) of every migration: compares decision sequences */
	u64 migration_digest;
	/* LATENCY_WARN: cpu_resched_latency()'s warned_once, the last report's time */
	bool resched_latency_warned;
	u64 resched_latency_last_warn;
	u64 nr_resched_latency_warnings;
	/*
	 * perf stat's per-task counters, opened on the command it starts: the
	 * next task started without a parent (not a kthread) takes them
	 */
	unsigned char perf_stat_counters;
};

extern struct sched_world sched_world;

/* ---- core.c ---- */

/*
 * Set up runqueues and idle tasks for the machine already in `machine`,
 * with every clock (machine.now, each CPU's cursor, each rq's clocks) at
 * @start: the one place the start-up time is set, so a unit test's machine
 * starts as consistently as a run's.
 */
void sched_init(u64 start);
/*
 * Where in a tick period a run with @seed starts: on real machines it is
 * arbitrary, and it changes every later decision, so the seed decides it.
 * Call once sysctl_sched.hz is set. Unit tests start at 0 instead, to
 * predict clocks exactly.
 */
u64 sched_tick_phase(u64 seed);
void sched_exit(void);

void update_rq_clock(struct rq *rq);
void resched_curr(struct rq *rq);
void resched_curr_lazy(struct rq *rq);
void wakeup_preempt(struct rq *rq, struct task_struct *p, int wake_flags);
void activate_task(struct rq *rq, struct task_struct *p, int flags);
void deactivate_task(struct rq *rq, struct task_struct *p, int flags);
void set_task_cpu(struct task_struct *p, unsigned int new_cpu);
int try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags);
int wake_up_process(struct task_struct *p);
void __schedule(int sched_mode);
/* The running task blocks in state @state (set before) and the CPU switches. */
void schedule(void);
/* The scheduler tick on @rq's CPU (the tick event calls it; tests may too). */
void sched_tick(struct rq *rq);

/*
 * v3.x's updates of rq->cpu_load[0] (cpu_load.c): scheduler_tick()'s
 * update_cpu_load_active(), tick_nohz_idle_exit()'s update_cpu_load_nohz()
 * when the tick was stopped, nohz_idle_balance()'s update_idle_cpu_load()
 * of each idle CPU it balances for
 */
void update_cpu_load_active(struct rq *rq);
void update_cpu_load_nohz(struct rq *rq);
void update_idle_cpu_load(struct rq *rq);

/*
 * Create a task (process or thread of @parent) and make it runnable:
 * sched_fork() + wake_up_new_task(). @parent may be NULL for the first task,
 * which starts on @cpu_hint. Charges fork cost to the running CPU.
 */
struct task_struct *sched_fork_task(struct task_struct *parent, bool thread, const char *comm,
				    const struct task_exec *exec, void *exec_data, int cpu_hint);
/* The same for a kernel thread bound to @bind_cpu (kthread_create_on_cpu()). */
struct task_struct *sched_fork_task_on(struct task_struct *parent, bool thread, const char *comm,
				       const struct task_exec *exec, void *exec_data, int cpu_hint,
				       int bind_cpu);
/*
 * kthread_create_on_cpu(): a SCHED_NORMAL kernel thread bound to @cpu that
 * sleeps (TASK_INTERRUPTIBLE, never queued) until a wake_up_process(), as
 * a per-CPU kthread of a booted machine waits for its first work; its
 * PELT averages start at zero and attach at that first enqueue.
 */
struct task_struct *kthread_create_on_cpu(const char *comm, const struct task_exec *exec,
					  void *exec_data, unsigned int cpu);
/*
 * A workload's first task, allowed on the CPUs of @allowed only (NULL: all),
 * as if the command that started it had called sched_setaffinity() before
 * exec (taskset). CPUs the machine lacks are dropped; at least one must
 * remain. It starts on @cpu_hint if allowed, else on the first allowed CPU;
 * its children inherit the mask.
 */
struct task_struct *sched_fork_task_allowed(const char *comm, const struct task_exec *exec,
					    void *exec_data, unsigned int cpu_hint,
					    const struct cpumask *allowed);
/* The running task exits; it never runs again. */
void do_exit(void);
/*
 * Free the exited tasks marked reap that nothing refers to any more: off
 * the CPU and the runqueue, on no wait queue, their children released and
 * their program done with them. Each one's counters go to its parent's
 * cumul, and, if it ran, to its comm's released_comm. Called at each CPU
 * step, where no task pointer is held across the call.
 */
void sched_release_dead(void);
void set_user_nice(struct task_struct *p, long nice);
/*
 * sched_yield() by the running task (do_sched_yield()): the class's
 * yield_task() (RT: to the tail of its list; fair: an eligible task
 * forfeits the rest of its slice), then schedule() with the task still
 * runnable.
 */
void do_sched_yield(void);
/*
 * sched_setaffinity() of the running task on itself: its mask becomes
 * @mask (less the CPUs the machine lacks; at least one must remain). If
 * its CPU is not in it, the stopper preempts it and moves it to the
 * allowed CPU cpumask_any_and_distribute() picks (migration_cpu_stop()),
 * and this CPU schedules. 0, or -EBUSY for a SCHED_DEADLINE task and a
 * mask that does not cover its root domain (dl_task_check_affinity()).
 */
int sched_setaffinity_current(const struct cpumask *mask);

/* Start @ns of user work (at full capacity and frequency) for current. */
void task_run_user(u64 ns);

/*
 * Start @ns of kernel work that can be preempted as user work can (a run
 * of page faults with user code between them), accounted as system time.
 */
void task_run_sys(u64 ns);

/* Current task of the running CPU. */
static inline struct task_struct *get_current(void)
{
	return this_rq()->curr;
}
#define current get_current()

/* in_task(): the running CPU is in task context, not in an interrupt handler */
static inline bool in_task(void)
{
	return !this_rq()->in_interrupt;
}

/*
 * cpumask_any_and_distribute() / cpumask_any_distribute() (lib/cpumask.c):
 * a CPU of @a & @b (of @m), the next after the one this CPU picked last
 * time, wrapping round, so that repeated picks spread over the mask (the
 * first pick skips CPU 0); nr_cpu_ids if there is none.
 */
unsigned int cpumask_any_and_distribute(const struct cpumask *a, const struct cpumask *b);
unsigned int cpumask_any_distribute(const struct cpumask *m);

/* Begin the simulation: start ticks on busy CPUs. */
void sched_start(void);

/* ---- fair.c ---- */

void init_cfs_rq(struct cfs_rq *cfs_rq);
void init_entity(struct sched_entity *se);
void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags);
/* returns false if the task stayed queued as a delayed entity */
bool dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags);
struct task_struct *pick_next_task_fair(struct rq *rq, struct task_struct *prev);
void put_prev_task_fair(struct rq *rq, struct task_struct *prev);
void set_next_task_fair(struct rq *rq, struct task_struct *p, bool first);
void check_preempt_wakeup_fair(struct rq *rq, struct task_struct *p, int wake_flags);
void task_tick_fair(struct rq *rq, struct task_struct *curr);
void yield_task_fair(struct rq *rq);
void task_fork_fair(struct task_struct *p);
void migrate_task_rq_fair(struct task_struct *p, unsigned int new_cpu);
void migrate_task_rq_dl(struct task_struct *p, unsigned int new_cpu);
s64 dl_scaled_delta_exec(const struct rq *rq, const struct sched_dl_entity *dl_se, s64 delta_exec);
void sched_release_later(struct task_struct *p);
/* sched_fork() would fail @parent's fork or clone with EAGAIN: a DL task without reset-on-fork */
bool sched_fork_fails(const struct task_struct *parent);
void post_init_entity_util_avg(struct task_struct *p);
void update_curr_fair(struct rq *rq);
void update_blocked_averages(unsigned int cpu);
void set_load_weight(struct task_struct *p);
u64 avg_vruntime(struct cfs_rq *cfs_rq);
int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se);
struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq);
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq);
u64 __calc_delta(u64 delta_exec, unsigned long weight, struct load_weight *lw);
u64 calc_delta_fair(u64 delta, struct sched_entity *se);
unsigned long cpu_util_cfs(unsigned int cpu);

/* ---- idle.c ---- */

/* The idle task's loop body: enter idle on this CPU. */
void do_idle(void);
/* The CPU leaves idle at the current cursor (interrupt or need_resched). */
void idle_exit(struct rq *rq);
/* A polling CPU polled for its limit: let the governor choose again. */
void idle_reselect(struct rq *rq);
/* the menu and teo governors' per-CPU data, reset (their enable callbacks) */
void cpuidle_gov_init(struct rq *rq);
/* the governor decides at each idle entry whether the tick stops (menu, teo) */
bool cpuidle_gov_decides_tick(void);
/*
 * From @rq's CPU's cursor to its next timer event without the tick
 * (CPUIDLE_KTIME_MAX: no hrtimer armed), and in @delta_next to the next
 * one with it, as menu and teo see them (idle.c).
 */
s64 tick_nohz_get_sleep_length(struct rq *rq, s64 *delta_next);
/* the idle class's pick after @prev (set_next_task_idle() if it was not idle) */
struct task_struct *pick_next_task_idle(struct rq *rq, struct task_struct *prev);
void put_prev_task_idle(struct rq *rq, struct task_struct *prev);

/* ---- wait.c ---- */

/* the lock and the list head share one line, as in wait_queue_head_t */
struct wait_queue_head {
	struct sim_lock lock;
	struct list_head head;
	/*
	 * The last wake walk that woke someone, [walk_start, walk_end): its
	 * woken entries stay on the list until it drops the lock
	 * (autoremove_wake_function() removes an entry only after
	 * try_to_wake_up() returns), so a CPU that looks in that window
	 * still sees a sleeper.
	 */
	u64 walk_start, walk_end;
};

void init_waitqueue_head(struct wait_queue_head *wq);
/* Put current on @wq (exclusive waiters are woken one at a time) and set its state. */
void prepare_to_wait(struct wait_queue_head *wq, bool exclusive, unsigned int state);
void finish_wait(struct wait_queue_head *wq);
/* Wake all non-exclusive waiters and up to @nr_exclusive exclusive ones. */
int __wake_up(struct wait_queue_head *wq, unsigned int state, int nr_exclusive, int wake_flags);
static inline bool waitqueue_active(const struct wait_queue_head *wq)
{
	return !list_empty(&wq->head);
}

/*
 * Another CPU's runqueue state as idle_cpu() reads it: rq->curr's line,
 * and for an idle CPU nr_running (the lock's line) and ttwu_pending too.
 */
static inline void read_rq_state(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	cl_read(&rq->cl.curr);
	if (rq->curr == rq->idle) {
		cl_read(&rq->lock.line);
		cl_read(&rq->cl.nr);
	}
}

/*
 * ... and what the balancer's statistics read besides: nr_running, the
 * cfs_rq's h_nr_runnable and its load, runnable and utilisation averages.
 */
static inline void read_rq_load(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	read_rq_state(cpu);
	cl_read(&rq->lock.line);
	cl_read(&rq->cl.cfs);
	cl_read(&rq->cl.cfs_avg);
}

/*
 * Take @rq's lock: its line, then rq_pin_lock() writes clock_update_flags
 * on curr's line.
 */
static inline void rq_lock(struct rq *rq)
{
	sim_lock_acquire(&rq->lock);
	cl_write(&rq->cl.curr);
}

static inline void rq_unlock(struct rq *rq)
{
	sim_lock_release(&rq->lock);
}

/* The lines an enqueue or dequeue of @p on @rq writes. */
void enqueue_lines(struct rq *rq, struct task_struct *p);

/* wq_has_sleeper(): waitqueue_active() that reads the head's line */
bool wq_has_sleeper(struct wait_queue_head *wq);

/* ---- the CPU step machine (core.c) ---- */

/* IRQ kinds pending on a CPU (rq->pending_irqs bits) */
#define IRQ_TICK 0x1
#define IRQ_RESCHED 0x2
#define IRQ_TIMER 0x4
#define IRQ_CALL_FUNC 0x8
/* ---- the kernel side of the CPU step machine (core.c; the hardware is sim/cpu.c) ---- */

/* nohz kick flags (rq->nohz_flags) */
#define NOHZ_BALANCE_KICK 0x1
#define NOHZ_STATS_KICK 0x2
#define NOHZ_NEXT_KICK 0x4
#define NOHZ_KICK_MASK (NOHZ_BALANCE_KICK | NOHZ_STATS_KICK | NOHZ_NEXT_KICK)

/* jiffies: the running CPU's time in ticks */
static inline unsigned long jiffies_now(void)
{
	return (unsigned long)(cpu_now() / TICK_NSEC);
}
#define jiffies jiffies_now()
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)

static inline unsigned long msecs_to_jiffies(unsigned long ms)
{
	return (unsigned long)DIV_ROUND_UP((u64)ms * NSEC_PER_MSEC, TICK_NSEC);
}

/* Arm the CPU's next step at its cursor (the end of the current kernel path). */
void cpu_step_at_cursor(struct rq *rq);

/* Accounting: called at the end of a run. */
void sched_account_end(void);

/* ---- select.c: choosing a CPU on wakeup, fork and exec ---- */

/*
 * select_task_rq_fair(): the CPU @p should run on. @wake_flags has WF_TTWU
 * (wakeup), WF_FORK or WF_EXEC, and maybe WF_SYNC. Runs on the waker's CPU
 * (smp_processor_id(); current is the waker) and charges its scans.
 */
unsigned int select_task_rq_fair(struct task_struct *p, unsigned int prev_cpu, int wake_flags);
/* A CPU became idle (pick_next_task_idle): maybe its core is idle now. */
void update_idle_core(struct rq *rq);
/* SIS_UTIL: from a balance pass over the LLC's parent, how many CPUs to scan. */
void update_idle_cpu_scan(struct sched_domain *sd, unsigned int dst_cpu, unsigned long sum_util);

/* ---- balance.c: sched_balance_rq() and its parts ---- */

bool idle_cpu(unsigned int cpu);
void balance_masks_free(void);

/* the CPU lost more than imbalance_pct of its capacity to other work */
static inline bool check_cpu_capacity(struct rq *rq, struct sched_domain *sd)
{
	return rq->cpu_capacity * sd->imbalance_pct < arch_scale_cpu_capacity(cpu_of(rq)) * 100;
}
int sched_balance_rq(unsigned int this_cpu, struct rq *this_rq, struct sched_domain *sd,
		     enum cpu_idle_type idle, int *continue_balancing);
/* the stopper's work on a CPU whose running task another CPU wants */
void active_load_balance_cpu_stop(struct rq *busiest_rq);
unsigned long cpu_util_cfs_boost(unsigned int cpu);
void update_misfit_status(struct task_struct *p, struct rq *rq);

/* ---- uclamp (uclamp.c) ---- */

static inline unsigned long uclamp_rq_get(const struct rq *rq, enum uclamp_id clamp_id)
{
	return rq->uclamp[clamp_id].value;
}

/* uclamp_rq_is_idle(): no runnable task; the max clamp is the last one's */
static inline bool uclamp_rq_is_idle(const struct rq *rq)
{
	return rq->uclamp_flags & UCLAMP_FLAG_IDLE;
}

/* init_uclamp_rq(): no clamps (min 0, max 1024), idle */
void init_uclamp_rq(struct rq *rq);
/* the task's clamps at creation (init_task and sched_fork(): 0..1024, RT min 1024) */
void uclamp_task_init(struct task_struct *p);
/* uclamp_eff_value(): @p's clamp, as in effect when queued */
unsigned long uclamp_eff_value(const struct task_struct *p, enum uclamp_id clamp_id);
/* uclamp_rq_inc() / uclamp_rq_dec(): around the class's enqueue / dequeue */
void __uclamp_rq_inc(struct rq *rq, struct task_struct *p, int flags);
void __uclamp_rq_dec(struct rq *rq, struct task_struct *p);
static inline void uclamp_rq_inc(struct rq *rq, struct task_struct *p, int flags)
{
	if (uclamp_is_used())
		__uclamp_rq_inc(rq, p, flags);
}

static inline void uclamp_rq_dec(struct rq *rq, struct task_struct *p)
{
	if (uclamp_is_used())
		__uclamp_rq_dec(rq, p);
}

/* uclamp_rq_util_with(): @util clamped by @rq's clamps, max-aggregated with @p's */
unsigned long uclamp_rq_util_with(struct rq *rq, unsigned long util, struct task_struct *p);
/* uclamp_validate(): 0 or -EINVAL; a clamp request turns sched_uclamp_used on */
int uclamp_validate(const struct task_struct *p, const struct sched_attr *attr);
/* __setscheduler_uclamp(): the requests of @attr, or the defaults back */
void __setscheduler_uclamp(struct task_struct *p, const struct sched_attr *attr);

/* ---- balance_periodic.c: tick, softirq, nohz, newidle ---- */

void sched_balance_trigger(struct rq *rq);
void sched_balance_softirq(struct rq *rq);
/* Go on with a yielded nohz idle balance; true if it yielded again. */
bool nohz_idle_balance_resume(struct rq *rq);
void nohz_csd_func(struct rq *rq);
void nohz_balance_enter_idle(struct rq *rq);
int sched_balance_newidle(struct rq *this_rq);
void sched_balance_init(void);
void sched_balance_exit(void);

/* ---- smp.c: the call-single queue, IPIs, smp_call_function_single() ---- */

struct call_single_data {
	void (*func)(void *info);
	void *info;
	struct call_single_data *next;
	bool wait;			/* the caller spins until done */
	bool done;			/* !done: locked, queued or running (CSD_FLAG_LOCK) */
	bool lock_waiter;		/* the caller spins in csd_lock() to reuse it */
	bool irq_work;			/* CSD_TYPE_IRQ_WORK: the csd of a struct irq_work */
	unsigned int src_cpu;
};

/*
 * A hard irq_work (include/linux/irq_work.h) queued on another CPU: it
 * goes on that CPU's call-single queue and runs in its call-function
 * interrupt, as irq_work_queue_on() sends it (__smp_call_single_queue());
 * on this CPU, in its own interrupt (the self-IPI of
 * arch_irq_work_raise()). It is free to be queued again as soon as it
 * starts to run.
 */
struct irq_work {
	struct call_single_data csd;
	bool pending;			/* IRQ_WORK_PENDING: queued, not yet started */
	void (*func)(struct irq_work *work);
};

/* irq_work_queue_on(): false if it is already pending */
bool irq_work_queue_on(struct irq_work *work, unsigned int cpu);

/*
 * The root domain's RT push-IPI state (struct root_domain's rto_push_work,
 * rto_lock, rto_loop, rto_loop_next, rto_loop_start, rto_cpu).
 */
struct rto_push {
	struct irq_work work;		/* rto_push_work */
	struct sim_lock lock;		/* rto_lock */
	int cpu;			/* rto_cpu: the CPU the IPI is at, -1 when none */
	int loop, loop_next;		/* rto_loop, rto_loop_next */
	bool loop_start;		/* rto_loop_start */
	u64 nr_ipis;			/* schedlab's count: rto_push_work IPIs sent */
};

struct rto_push *rto_push_alloc(void);
void rto_push_free(struct rto_push *r);

/* Queue @p on @cpu's wakelist and IPI it (or set need_resched if it polls). */
void __ttwu_queue_wakelist(struct task_struct *p, unsigned int cpu, int wake_flags);
/*
 * Run @csd->func on @cpu. With csd->wait the calling task spins (its CPU
 * stays busy) until the target has run it: the caller's exec step sees
 * csd->done when it is next called.
 */
void smp_call_function_single_async(unsigned int cpu, struct call_single_data *csd);
/* The target side: run the queued wakeups and calls (IPI handler or idle exit). */
void flush_smp_call_function_queue(struct rq *rq);
bool call_single_queue_empty(struct rq *rq);
/* resched_curr()'s IPI, or the polling shortcut; counts both. */
void send_reschedule(unsigned int cpu);
/* A polling idle CPU notices need_resched (set by @from at its cursor). */
void wake_polling_cpu(unsigned int cpu);
void sched_ttwu_pending(struct rq *rq);
void ttwu_do_activate(struct rq *rq, struct task_struct *p, int wake_flags);
/*
 * A wakeup ends @rq's idle period (rq->idle_stamp set): fold its length
 * into rq->avg_idle, newidle balance's estimate of the next one, and clear
 * the stamp.
 */
void update_rq_avg_idle(struct rq *rq);

/* ---- policies and classes (rt.c, fair.c, core.c) ---- */

static inline bool rt_prio(int prio)
{
	return prio < MAX_RT_PRIO;
}

static inline bool rt_policy(unsigned int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

/* rt_or_dl_task_policy()'s test */
static inline bool rt_or_dl_policy(unsigned int policy)
{
	return rt_policy(policy) || policy == SCHED_DEADLINE;
}

static inline bool fair_policy(unsigned int policy)
{
	return policy == SCHED_NORMAL || policy == SCHED_BATCH || policy == SCHED_IDLE;
}

static inline bool normal_policy(unsigned int policy)
{
	return policy == SCHED_NORMAL;
}

static inline bool task_has_idle_policy(const struct task_struct *p)
{
	return p->policy == SCHED_IDLE;
}

static inline bool task_has_rt_policy(const struct task_struct *p)
{
	return rt_policy(p->policy);
}

static inline bool dl_policy(unsigned int policy)
{
	return policy == SCHED_DEADLINE;
}

static inline bool task_has_dl_policy(const struct task_struct *p)
{
	return dl_policy(p->policy);
}

/* the task is in the RT class (p->sched_class == &rt_sched_class) */
static inline bool rt_task(const struct task_struct *p)
{
	return rt_prio(p->prio) && p->prio > DL_TASK_PRIO;
}

/* the task is in the DL class (dl_task(): a SCHED_DEADLINE task's prio) */
static inline bool dl_task(const struct task_struct *p)
{
	return p->prio <= DL_TASK_PRIO;
}

/* dl_entity_is_special(): schedutil's kthread, no bandwidth, never throttled */
static inline bool dl_entity_is_special(const struct sched_dl_entity *dl_se)
{
	return dl_se->flags & SCHED_FLAG_SUGOV;
}

static inline bool on_rt_rq(const struct sched_rt_entity *rt_se)
{
	return rt_se->on_rq;
}

/* on its rq's pushable plist */
static inline bool task_pushable_queued(const struct task_struct *p)
{
	return !list_empty(&p->pushable_tasks);
}

/* sched_rr_timeslice in jiffies of the simulated HZ */
static inline unsigned int sched_rr_timeslice(void)
{
	unsigned int ts = RR_TIMESLICE_MS * sysctl_sched.hz / 1000;

	return ts ? ts : 1;
}

/* the rq runs only SCHED_IDLE tasks (fair.c sched_idle_rq()) */
static inline bool sched_idle_rq(const struct rq *rq)
{
	return rq->nr_running && rq->nr_running == rq->cfs.h_nr_idle;
}

static inline bool sched_idle_cpu(unsigned int cpu)
{
	return sched_idle_rq(cpu_rq(cpu));
}

/* cpupri levels (cpupri.h); cpupri_set() takes an rq prio, MAX_RT_PRIO for CPUPRI_HIGHER */
#define CPUPRI_INVALID -1
#define CPUPRI_NORMAL 0
#define CPUPRI_HIGHER 100
/* cpupri_set(): @rq's CPU at the level of @newpri (its RT highest, or MAX_RT_PRIO) */
void cpupri_set(struct rq *rq, int newpri);
/* the CPU's cpupri level */
static inline int cpupri_of_cpu(unsigned int cpu)
{
	return cpu_rd(cpu)->cpupri[cpu];
}

/* GRUB's Uextra on @rq's CPU: its dl_rq's own part and the span's (root_domain.extra_bw_all) */
static inline u64 dl_rq_extra_bw(const struct rq *rq)
{
	return rq->dl.extra_bw + cpu_rd(cpu_of(rq))->extra_bw_all;
}

void init_rt_rq(struct rt_rq *rt_rq);
void enqueue_task_rt(struct rq *rq, struct task_struct *p, int flags);
void dequeue_task_rt(struct rq *rq, struct task_struct *p, int flags);
struct task_struct *pick_task_rt(struct rq *rq);
void put_prev_task_rt(struct rq *rq, struct task_struct *p);
void set_next_task_rt(struct rq *rq, struct task_struct *p, bool first);
void wakeup_preempt_rt(struct rq *rq, struct task_struct *p, int wake_flags);
void task_tick_rt(struct rq *rq, struct task_struct *p);
void task_woken_rt(struct rq *rq, struct task_struct *p);
void update_curr_rt(struct rq *rq);
void yield_task_rt(struct rq *rq);
/* update_rt_rq_load_avg(): rq->avg_rt up to @now, @running an RT task or not */
int update_rt_rq_load_avg(u64 now, struct rq *rq, int running);
/* cpu_util_rt(): the CPU's RT utilization */
static inline unsigned long cpu_util_rt(const struct rq *rq)
{
	return rq->avg_rt.util_avg;
}
/* update_dl_rq_load_avg(): rq->avg_dl up to @now, @running a DL task or not */
int update_dl_rq_load_avg(u64 now, struct rq *rq, int running);
/* cpu_util_dl(): the CPU's DL utilization */
static inline unsigned long cpu_util_dl(const struct rq *rq)
{
	return rq->avg_dl.util_avg;
}
/* cpu_bw_dl(): the bandwidth of the CPU's active DL tasks, in capacity units */
static inline unsigned long cpu_bw_dl(const struct rq *rq)
{
	return (unsigned long)((rq->dl.running_bw * SCHED_CAPACITY_SCALE) >> BW_SHIFT);
}
/* cpu_util_irq(): the CPU's IRQ and steal utilization */
static inline unsigned long cpu_util_irq(const struct rq *rq)
{
	return rq->avg_irq.util_avg;
}

/* update_irq_load_avg(): rq->avg_irq after @running ns of irq time and steal (0: decay only) */
int update_irq_load_avg(struct rq *rq, u64 running);

/* scale_rt_capacity(): the capacity left for fair tasks after RT pressure */
unsigned long scale_rt_capacity(unsigned int cpu);
unsigned int select_task_rq_rt(struct task_struct *p, unsigned int cpu, int wake_flags);
/* find_lowest_rq(): a CPU of lower priority @p could run on, -1 if none */
int find_lowest_rq(struct task_struct *p);
/* balance_rt(): @prev left the RT class or blocked; pull if the rq dropped below it */
void balance_rt(struct rq *rq, struct task_struct *prev);
void pull_rt_task(struct rq *this_rq);
void push_rt_tasks(struct rq *rq);
/* the class of @p changed to or from RT, or its RT prio changed (@oldprio) */
void switched_from_rt(struct rq *rq, struct task_struct *p);
void switched_to_rt(struct rq *rq, struct task_struct *p);
void prio_changed_rt(struct rq *rq, struct task_struct *p, int oldprio);

/* the fair class on a policy change (fair.c) */
void switched_from_fair(struct rq *rq, struct task_struct *p);
void switched_to_fair(struct rq *rq, struct task_struct *p);
void prio_changed_fair(struct rq *rq, struct task_struct *p, int oldprio);

/* the fair server (deadline.c; fair.c's fair_server_init() and pick) */
void fair_server_init(struct rq *rq);
/* sched_init_dl_servers(): every CPU's server gets its runtime and period, deferred */
void sched_init_dl_servers(void);
void dl_server_start(struct sched_dl_entity *dl_se);
void dl_server_stop(struct sched_dl_entity *dl_se);
/* dl_server_update(): fair runtime charged to the server (update_curr_dl_se()) */
void dl_server_update(struct sched_dl_entity *dl_se, s64 delta_exec);
/* the idle time since @p (the idle task, or curr of an empty rq) last accounted */
void dl_server_update_idle_time(struct rq *rq, struct task_struct *p);
static inline bool dl_server_active(const struct sched_dl_entity *dl_se)
{
	return dl_se->dl_server_active;
}
/* the DL class has something to pick (sched_dl_runnable()): the queued server or a task */
static inline bool sched_dl_runnable(const struct rq *rq)
{
	return rq->dl.dl_nr_running > 0;
}

/*
 * The DL class's task side (deadline.c), as far as a special DL task
 * (schedutil's sugov:N kthread) needs it: CBS instances on wakeup, the
 * earliest deadline picked, no bandwidth, no throttling, no push/pull.
 */
/* update_curr_common() (core.c): a DL or RT curr's run time accounted; the delta */
s64 update_curr_common(struct rq *rq);
void enqueue_task_dl(struct rq *rq, struct task_struct *p, int flags);
void dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags);
/* __pick_task_dl(): the queued DL task with the earliest deadline, NULL if the server's is */
struct task_struct *pick_task_dl(struct rq *rq);
void set_next_task_dl(struct rq *rq, struct task_struct *p, bool first);
void put_prev_task_dl(struct rq *rq, struct task_struct *p);
void task_tick_dl(struct rq *rq, struct task_struct *p);
void wakeup_preempt_dl(struct rq *rq, struct task_struct *p, int wake_flags);
unsigned int select_task_rq_dl(struct task_struct *p, unsigned int cpu, int wake_flags);
/*
 * sched_dl_overflow(): admission of @p's switch to (or within) @policy
 * with @attr's reservation against the root domain's DL bandwidth; 0 and
 * the bandwidth taken, or -1 (sched_setattr()'s -EBUSY).
 */
int sched_dl_overflow(struct task_struct *p, unsigned int policy, const struct sched_attr *attr);
/* __checkparam_dl(): runtime <= deadline <= period, within sched_deadline_period_min/max */
bool __checkparam_dl(const struct sched_attr *attr);
/*
 * admission control works per root domain, so a DL task's affinity must
 * cover its root domain's CPUs: sched_setattr() refuses SCHED_DEADLINE to a
 * task whose @mask does not (-EPERM), and sched_setaffinity() refuses such
 * a @mask to a DL task (dl_task_check_affinity(): -EBUSY)
 */
bool dl_affinity_covers_root_domain(const struct cpumask *mask);
/* a task not yet DL asking for @attr's reservation would get -EBUSY (sched_dl_overflow()) */
bool sched_dl_new_overflows(const struct sched_attr *attr);
/* class changes (check_class_changed()): a task enters or leaves SCHED_DEADLINE */
void switched_to_dl(struct rq *rq, struct task_struct *p);
void switched_from_dl(struct rq *rq, struct task_struct *p);
/* yield_task_dl(): curr gives up the rest of its instance until its next period */
void yield_task_dl(struct rq *rq);
/* task_dead_dl(): a dead DL task's bandwidth back to the root domain, its timer off */
void task_dead_dl(struct task_struct *p);
/* task_woken_dl(): a DL wakee that did not preempt may push (push_dl_tasks()) */
void task_woken_dl(struct rq *rq, struct task_struct *p);
/* balance_dl(): @prev (DL) left the dl_rq: pull an earlier DL task here */
void balance_dl(struct rq *rq, struct task_struct *prev);
/* push_dl_tasks(): set_next_task_dl()'s balance callback (deadline_queue_push_tasks()) */
void push_dl_tasks(struct rq *rq);
/*
 * find_lowest_rq()'s and find_later_rq()'s choice among the CPUs of @mask
 * (rt.c): @task_cpu (cache hot), else this CPU or one of the lowest
 * SD_WAKE_AFFINE domain's of @task_cpu, else any; -1 if @mask is empty
 */
int find_closest_cpu(const struct cpumask *mask, unsigned int task_cpu);
/* move_queued_task_locked(): both rqs locked, @p queued and not running (rt.c) */
void move_queued_task_locked(struct rq *src_rq, struct rq *dst_rq, struct task_struct *p);
/* a push's end: @p moved to @dst_rq (locked by the caller), which reschedules and is unlocked */
void push_task_locked(struct rq *src_rq, struct rq *dst_rq, struct task_struct *p);
/* __setparam_dl(): @p's reservation (runtime, deadline, period in ns) and flags */
void setparam_dl(struct task_struct *p, u64 runtime, u64 deadline, u64 period, u64 flags);
/*
 * kthread_create() + sched_setattr_nocheck(SCHED_DEADLINE) at boot (core.c):
 * a kernel thread allowed on @allowed (copied), starting on @cpu, asleep
 * in its loop (TASK_INTERRUPTIBLE) until woken.
 */
struct task_struct *sched_create_dl_kthread(const char *comm, unsigned int cpu,
					    const struct cpumask *allowed,
					    const struct task_exec *exec, void *exec_data,
					    u64 runtime, u64 deadline, u64 period, u64 flags);
/*
 * debug.c sched_fair_server_write(): a write of @cpu's
 * /sys/kernel/debug/sched/fair_server/cpuN/runtime (@period false) or
 * period file. 0, -EINVAL (runtime above the period, a period outside
 * fair_server_period_min..max) or -EBUSY (beyond the DL bandwidth limit).
 */
int sched_fair_server_write(unsigned int cpu, bool period, u64 value);
/* the checks of that write for @runtime and @period; 0, -EINVAL or -EBUSY */
int fair_server_params_check(u64 runtime, u64 period);
/* fair.c: the fair class's pick for the server (pick_task_fair()), NULL if none */
struct task_struct *pick_task_fair(struct rq *rq);
/* put_prev_set_next_task() for fair @p picked after @prev (not idle, not RT) */
void put_prev_set_next_task_fair(struct rq *rq, struct task_struct *prev, struct task_struct *p);

/*
 * sched_setattr_nocheck() / sched_setscheduler_nocheck() (syscalls.c __sched_setscheduler()):
 * change @p's policy, RT priority and nice. Works on a running, queued or
 * sleeping task: it is dequeued and put, its class changed, then queued and
 * set as next again, and preemption checked. 0, or -EINVAL for a bad
 * policy or priority (RT 1..99, others 0; nice is clamped to -20..19).
 */
int sched_setattr_nocheck(struct task_struct *p, const struct sched_attr *attr);
/*
 * sched_setattr() as the syscall makes it (__sched_setscheduler() with
 * user set): also -EPERM for SCHED_DEADLINE when @p's affinity does not
 * cover the root domain. The workloads' own calls go through it.
 */
int sched_setattr(struct task_struct *p, const struct sched_attr *attr);
int sched_setscheduler_nocheck(struct task_struct *p, int policy, int sched_priority);
/* the attributes a task is forked with: the workload's first task (chrt/nice) */
struct task_struct *sched_fork_task_attr(const char *comm, const struct task_exec *exec,
					 void *exec_data, unsigned int cpu_hint,
					 const struct cpumask *allowed, const struct sched_attr *attr);
/*
 * sched_fork_task_on() with the child's own CPU affinity and policy, both
 * in place before wake_up_new_task() places it, as a new thread that calls
 * sched_setaffinity() and sched_setattr() on itself before its first
 * instruction would be. @allowed NULL: the parent's mask (else CPUs the
 * machine lacks are dropped; at least one must remain); @attr NULL: the
 * parent's policy.
 */
struct task_struct *sched_fork_task_on_attr(struct task_struct *parent, bool thread,
					    const char *comm, const struct task_exec *exec,
					    void *exec_data, int cpu_hint, int bind_cpu,
					    const struct cpumask *allowed,
					    const struct sched_attr *attr);

/* ---- check.c ---- */

/* Run the invariant checker after each event; aborts with a message on a violation. */
void sched_check_invariants(struct sim_event *ev);
void sched_check_final(void);

#endif
