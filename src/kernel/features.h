/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scheduler features, as in /sys/kernel/debug/sched/features.
 *
 * One X-macro table, below. Kernel code tests a feature with
 * sched_feat(NAME). Every entry of Linux v6.18's kernel/sched/features.h is
 * here with its default, followed by toggles for older or proposed
 * behaviours (defaulting to what v6.18 does).
 */
#ifndef SCHEDLAB_KERNEL_FEATURES_H
#define SCHEDLAB_KERNEL_FEATURES_H

#include "sim/types.h"
#include <stdio.h>
#include <string.h>

/*
 * F(NAME, default, source, missing, "help")
 *
 * source:  "v6.18" for an entry of v6.18's kernel/sched/features.h; for a
 *          historical or proposed behaviour that schedlab adds as a toggle
 *          so one binary runs before and after a patch, the commit (or
 *          posting) the toggle stands for. The default of a toggle is what
 *          v6.18 does.
 * missing: NULL when schedlab implements the feature; otherwise the
 *          subsystem the model lacks. Such a feature is listed by
 *          `schedlab features` but --features rejects it (exit 2), so no
 *          setting is ever a silent no-op.
 */
#define SCHED_FEATURES(F)                                                                            \
	/* v6.18 kernel/sched/features.h, in its order */                                            \
	F(PLACE_LAG, true, "v6.18", NULL,                                                            \
	  "preserve lag across sleep and wakeup (EEVDF placement)")                                  \
	F(PLACE_DEADLINE_INITIAL, true, "v6.18", NULL,                                               \
	  "new tasks start with half a slice of deadline")                                           \
	F(PLACE_REL_DEADLINE, true, "v6.18", NULL,                                                   \
	  "keep the relative deadline when a task migrates")                                         \
	F(RUN_TO_PARITY, true, "v6.18", NULL,                                                        \
	  "protect curr from wakeup preemption until its slice ends")                                \
	F(PREEMPT_SHORT, true, "v6.18", NULL,                                                        \
	  "a wakee with a shorter slice may cancel RUN_TO_PARITY")                                   \
	F(NEXT_BUDDY, false, "v6.18", NULL,                                                          \
	  "a woken task that did not preempt becomes cfs_rq->next")                                  \
	F(PICK_BUDDY, true, "v6.18", NULL, "pick cfs_rq->next first while it is eligible")           \
	F(CACHE_HOT_BUDDY, true, "v6.18", NULL,                                                      \
	  "the next buddy counts as cache hot for the balancer")                                     \
	F(DELAY_DEQUEUE, true, "v6.18", NULL,                                                        \
	  "keep ineligible sleepers queued until picked or woken")                                   \
	F(DELAY_ZERO, true, "v6.18", NULL, "clip positive lag to 0 when a delayed task leaves")      \
	F(WAKEUP_PREEMPTION, true, "v6.18", NULL, "allow wakeup-time preemption of curr")            \
	F(HRTICK, false, "v6.18", "the high-resolution scheduler tick (hrtick)",                     \
	  "end a slice with an hrtimer instead of the next tick")                                    \
	F(HRTICK_DL, false, "v6.18", "the hrtick (DL runtime is enforced at the tick)",              \
	  "hrtick for SCHED_DEADLINE runtime enforcement")                                           \
	F(NONTASK_CAPACITY, true, "v6.18", NULL, "lower CPU capacity by time spent outside tasks")   \
	F(TTWU_QUEUE, true, "v6.18", NULL, "queue remote wakeups on the target CPU's wakelist")      \
	F(SIS_UTIL, true, "v6.18", NULL,                                                             \
	  "select_idle_cpu: scan fewer CPUs as LLC utilisation rises")                               \
	F(WARN_DOUBLE_CLOCK, false, "v6.18", "rq-lock pinning (rq_pin_lock, RQCF_UPDATED)",          \
	  "warn when the rq clock is updated twice in one rq-lock section")                          \
	F(RT_PUSH_IPI, true, "v6.18", NULL,                                                          \
	  "a CPU dropping its RT priority asks overloaded CPUs to push, by IPI")                     \
	F(RT_RUNTIME_SHARE, false, "v6.18", "RT throttling (RT group scheduling)",                   \
	  "borrow RT runtime from other CPUs")                                                       \
	F(LB_MIN, false, "v6.18", NULL,                                                              \
	  "the balancer skips tasks with load below 16 until it has failed")                         \
	F(ATTACH_AGE_LOAD, true, "v6.18", "task-group moves and scheduling-class switches",          \
	  "age a task's PELT load when it is attached to another cfs_rq")                            \
	F(WA_IDLE, true, "v6.18", NULL, "wake_affine: prefer an idle waker or previous CPU")         \
	F(WA_WEIGHT, true, "v6.18", NULL, "wake_affine: compare effective loads")                    \
	F(WA_BIAS, true, "v6.18", NULL, "wake_affine: bias the load comparison by imbalance_pct")    \
	F(UTIL_EST, true, "v6.18", NULL, "use estimated utilisation (util_est)")                     \
	F(LATENCY_WARN, false, "v6.18", NULL,                                                        \
	  "warn when need_resched stays set past resched_latency_warn_ms")                           \
	/* historical and proposed behaviours, as toggles for the studies */                         \
	F(SWB_IDLE_CORE, true, "b1bfeab9b002 (v6.6)", NULL,                                          \
	  "should_we_balance: prefer an idle CPU on an idle core")                                   \
	F(SWB_SMT_SKIP, true, "f8858d96061f (v6.6)", NULL,                                           \
	  "should_we_balance: skip the SMT siblings of a busy core")                                 \
	F(UTIL_RUNNABLE_BOOST, true, "7d0583cf9ec7 (v6.5)", NULL,                                    \
	  "busiest-rq search and schedutil use max(util, runnable)")                                 \
	F(NEWIDLE_COST, true, "9bd721c55c8a (v3.13)", NULL,                                          \
	  "limit newidle balance by its measured cost")                                              \
	F(NEWIDLE_MIGRATION_COST_BAILOUT, false, "v3.13-v5.15, removed by c5b0a7eefc70", NULL,       \
	  "skip newidle balance when avg_idle < migration_cost")                                     \
	F(NEWIDLE_OVERLOAD_CHECK, true, "v3.17 (Tim Chen)", NULL,                                    \
	  "skip newidle balance while no CPU of the root domain has two tasks")                      \
	F(NEWIDLE_RATE_LIMIT, false, "2013 RFC (Jason Low), not merged", NULL,                       \
	  "skip newidle balance while it runs more often than a limit")                              \
	F(NI_RANDOM, false, "v6.19", NULL, "skip newidle domains in proportion to their success")    \
	F(WAKEUP_PREEMPT_EEVDF, false, "e837456fdca8 (v6.19)", NULL,                                 \
	  "v6.19: forks never preempt, an ineligible waker is rescheduled, NEXT_BUDDY by deadline")  \
	F(AVG_IDLE_AVG_FIRST, true, "abfafa54db9a (v3.13)", NULL,                                    \
	  "avg_idle averages a long idle period in before the cap")                                  \
	F(TTWU_QUEUE_IDLE, true, "f3dd3f674555 (v6.0)", NULL,                                        \
	  "same-LLC wakeups to an empty rq use the wakelist")                                        \
	F(TTWU_QUEUE_ON_CPU, true, "2ebb17717550, c6e7bd7afaeb (v5.8)", NULL,                        \
	  "a wakee still switching out is queued on its CPU, not spun on")                           \
	F(TTWU_QUEUE_ON_CPU_LE1, false, "2ebb17717550 (v5.8)", NULL,                                 \
	  "with NO_TTWU_QUEUE_IDLE: on_cpu wakee queues if nr_running <= 1")                         \
	F(SM_IDLE, true, "3dcac251b066 (v6.12)", NULL,                                               \
	  "schedule_idle() with nothing queued skips the pick")                                      \
	/* sleeping locks (kernel/locking.h, docs/locking.md) */                                     \
	F(MUTEX_SPIN_ON_OWNER, true, "0d66bf6d3514 (v2.6.30)", NULL,                                 \
	  "mutex: spin while the owner runs on a CPU instead of sleeping")                           \
	F(MUTEX_OSQ, true, "0dc8c730c98a (v3.10)", NULL,                                             \
	  "mutex/rwsem spinners queue in the osq (MCS); only its head spins on the owner")           \
	F(MUTEX_HANDOFF, true, "9d659ae14b54 (v4.10)", NULL,                                         \
	  "mutex: the first waiter sets HANDOFF and the unlock hands it the lock")                   \
	F(RWSEM_SPIN_ON_OWNER, true, "4fc828e24cd9 (v3.16)", NULL,                                   \
	  "rwsem: a writer spins on a running writer owner, or on readers for 10-25 us")             \
	F(RWSEM_HANDOFF, true, "4f23dbc1e657 (v5.3)", NULL,                                          \
	  "rwsem: a waiter past RWSEM_WAIT_TIMEOUT sets HANDOFF; only it may take the lock")         \
	F(RWSEM_WAKE_ALL_READERS, true, "d3681e269fff (v5.3)", NULL,                                 \
	  "rwsem: wake every queued reader, not only those before the first writer")                 \
	F(RWSEM_WRITER_STEAL, true, "ce6711f3d196 (v3.9)", NULL,                                     \
	  "rwsem: a writer may take a free lock past the waiters (off: granted to the first)")       \
	F(ANON_VMA_RWSEM, true, "5a505085f043 (v3.8)", NULL,                                         \
	  "an anon_vma's lock is an rwsem (off: anon_vma->mutex, a mutex)")                          \
	F(I_MMAP_RWSEM, true, "c8c06efa8b55 (v3.19)", NULL,                                          \
	  "a file's i_mmap tree is guarded by an rwsem (off: i_mmap_mutex, a mutex)")                \
	F(I_RWSEM, true, "9902af79c01a (v4.7)", NULL,                                                \
	  "an inode's lock is i_rwsem, an rwsem (off: i_mutex, a mutex)")                            \
	/* the menu cpuidle governor's performance multiplier (docs/wakelist-and-idle.md) */         \
	F(MENU_LOAD_MULT, false, "v2.6.32-v4.2 (69d25870f20c)", NULL,                                \
	  "menu: exit latency x (1 + 2 x this CPU's cpu_load[0] in tenths) must fit the prediction") \
	F(MENU_IOWAIT_MULT, false, "v2.6.32-v6.11 (69d25870f20c)", NULL,                             \
	  "menu: the multiplier adds 10 per task waiting for I/O on this CPU")                       \
	F(CPU_LOAD_RUNNABLE_AVG, true, "v3.11 (Alex Shi)", NULL,                                     \
	  "cpu_load[0] is the runnable load average (off: the load weight, v3.7-v3.10)")

enum sched_feat_id {
#define SF_ENUM(name, def, source, missing, help) __SCHED_FEAT_##name,
	SCHED_FEATURES(SF_ENUM)
#undef SF_ENUM
		__SCHED_FEAT_NR,
};

struct sched_feat_info {
	const char *name;
	bool def;
	const char *source; /* "v6.18", or the commit a toggle stands for */
	const char *missing; /* NULL, or the subsystem schedlab lacks */
	const char *help;
};

/* an entry of v6.18's features.h (as opposed to a historical toggle) */
static inline bool sched_feat_is_kernel(const struct sched_feat_info *f)
{
	return !strcmp(f->source, "v6.18");
}

extern const struct sched_feat_info sched_feat_info[__SCHED_FEAT_NR];
extern bool sysctl_sched_features[__SCHED_FEAT_NR];

#define sched_feat(x) (sysctl_sched_features[__SCHED_FEAT_##x])

/* Reset every feature to its default. */
void sched_feat_reset(void);

/*
 * Apply "A,NO_B,C" like writes to /sys/kernel/debug/sched/features.
 * Returns 0, or -1 with "unknown scheduler feature 'X'" in @err, or, for a
 * v6.18 feature whose subsystem the model lacks, a message naming it.
 */
int sched_feat_apply(const char *list, char *err, size_t errlen);

/*
 * Whether @list would apply (0, or -1 with the message in @err), leaving
 * every feature at its default: a command's list checked before its runs.
 */
int sched_feat_check(const char *list, char *err, size_t errlen);

/*
 * The effective set of the features schedlab implements, kernel order, as
 * "A NO_B C" (the debugfs file's form).
 */
void sched_feat_print(FILE *out, const char *sep);

#endif
