/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PELT: per-entity load tracking (kernel/sched/pelt.c, Linux v6.18).
 *
 * Pure functions on struct sched_avg: nothing here knows about runqueues,
 * tasks or CPUs. The scheduler core passes in what the kernel would read
 * from them (on_rq, weight, h_nr_runnable, cfs_rq->curr, CPU capacity).
 * See docs/pelt.md for the fixed-point representation and what the unit
 * tests check.
 *
 * Time is in nanoseconds of the (scaled) PELT clock; internally the kernel's
 * 1024 ns unit is used and a period is 1024 units (~1 ms).
 */
#ifndef SCHEDLAB_KERNEL_PELT_H
#define SCHEDLAB_KERNEL_PELT_H

#include "sim/types.h"

#define SCHED_CAPACITY_SHIFT 10
#ifndef SCHED_CAPACITY_SCALE
#define SCHED_CAPACITY_SCALE 1024 /* same text as topo/topology.h */
#endif

/* y^LOAD_AVG_PERIOD == 1/2; the sum 1024 * \Sum y^n converges to LOAD_AVG_MAX */
#define LOAD_AVG_PERIOD 32
/* ___update_load_sum() advances in steps of 1024 ns (delta >>= 10) */
#define PELT_CLOCK_STEP_NS 1024
#define LOAD_AVG_MAX 47742
#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024)

/* util_est: flag bit "no PELT update since the last util_est update" */
#define UTIL_AVG_UNCHANGED 0x80000000u
#define UTIL_EST_WEIGHT_SHIFT 2 /* new samples weigh w = 1/4 */
#define UTIL_EST_MARGIN (SCHED_CAPACITY_SCALE / 100)

struct sched_avg {
	u64 last_update_time; /* ns, a multiple of 1024; 0 = not attached */
	u64 load_sum; /* \Sum load * contrib            (unweighted for tasks) */
	u64 runnable_sum; /* \Sum runnable * contrib << 10 */
	u32 util_sum; /* \Sum running * contrib << 10 */
	u32 period_contrib; /* units (1024 ns) already spent in the current period */
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
	unsigned int util_est; /* ewma | UTIL_AVG_UNCHANGED (tasks); enqueued sum (cfs_rq) */
};

/* The 32 fixed-point constants (2^32 - 1) * y^k, k = 0..31 (see pelt.c). */
extern const u32 runnable_avg_yN_inv[LOAD_AVG_PERIOD];

/* ---- core ---------------------------------------------------------------- */

/* val * y^n: shift by n/32, multiply by table[n%32] >> 32; 0 when n > 32*63. */
u64 decay_load(u64 val, u64 n);

/* d1 * y^p + 1024 * \Sum_{k=1}^{p-1} y^k + d3, for p >= 1 periods crossed. */
u32 __accumulate_pelt_segments(u64 periods, u32 d1, u32 d3);

/*
 * Advance the sums to @now (ns). Returns 1 when at least one period boundary
 * was crossed (the averages must then be recomputed), 0 otherwise. Time
 * going backwards resets last_update_time to @now. running and runnable are
 * forced to 0 when load is 0.
 */
int ___update_load_sum(u64 now, struct sched_avg *sa, unsigned long load, unsigned long runnable,
		       int running);

/* *_avg = *_sum / divider; load_avg is additionally multiplied by @load. */
void ___update_load_avg(struct sched_avg *sa, unsigned long load);

static inline u32 get_pelt_divider(const struct sched_avg *avg)
{
	return PELT_MIN_DIVIDER + avg->period_contrib;
}

/* All sums at 0: nothing left to decay. */
static inline bool pelt_avg_is_decayed(const struct sched_avg *sa)
{
	return !sa->load_sum && !sa->util_sum && !sa->runnable_sum;
}

/* ---- entity and cfs_rq forms ----------------------------------------------- */

/*
 * A PELT update of this entity's sums has happened: clear UTIL_AVG_UNCHANGED
 * so the next util_est_update_on_dequeue() takes a sample.
 */
static inline void cfs_se_util_change(struct sched_avg *avg)
{
	avg->util_est &= ~UTIL_AVG_UNCHANGED;
}

/*
 * __update_load_avg_se() for a task: sums see load = !!on_rq,
 * runnable = !!on_rq, running = (cfs_rq->curr == se); the averages are then
 * weighted by @weight (se_weight(), i.e. scale_load_down(se->load.weight):
 * 1024 for nice 0). Clears UTIL_AVG_UNCHANGED when the averages changed.
 */
int pelt_update_se(u64 now, struct sched_avg *sa, unsigned long weight, int on_rq, int running);

/*
 * The same for a group entity: runnable is the group cfs_rq's h_nr_runnable
 * (se_runnable()) instead of !!on_rq.
 */
int pelt_update_group_se(u64 now, struct sched_avg *sa, unsigned long weight, int on_rq,
			 unsigned int runnable, int running);

/* __update_load_avg_blocked_se(): decay a dequeued entity's averages. */
int pelt_update_blocked_se(u64 now, struct sched_avg *sa, unsigned long weight);

/*
 * __update_load_avg_cfs_rq(): sums see load = scale_load_down(load.weight),
 * runnable = h_nr_runnable, running = (curr != NULL); averages use load 1.
 */
int pelt_update_cfs(u64 now, struct sched_avg *sa, unsigned long load_weight,
		    unsigned int h_nr_runnable, int has_curr);

/* update_rt_rq_load_avg() / update_dl_rq_load_avg(): load = runnable = running. */
int pelt_update_running(u64 now, struct sched_avg *sa, int running);

/* ---- frequency / capacity invariance of the PELT clock --------------------- */

static inline u64 cap_scale(u64 v, unsigned long s)
{
	return (v * s) >> SCHED_CAPACITY_SHIFT;
}

/*
 * update_rq_clock_pelt(): how far the PELT clock advances while the CPU is
 * busy for @delta_ns: scaled by CPU capacity, then by frequency (both out of
 * 1024), in two truncating shifts. (An idle CPU instead syncs its PELT clock
 * to clock_task; that is the scheduler core's job.)
 */
u64 pelt_scale_time(u64 delta_ns, unsigned long cpu_capacity, unsigned long freq_scale);

/*
 * update_idle_rq_clock_pelt(): a CPU whose summed util_sum (cfs + rt + dl,
 * added in u32 like the kernel) reached this bound had no idle time to give
 * back; the difference clock_task - clock_pelt is then lost idle time.
 */
static inline bool pelt_util_sum_saturated(u32 util_sum)
{
	return util_sum >= ((u32)PELT_MIN_DIVIDER << SCHED_CAPACITY_SHIFT) - LOAD_AVG_MAX;
}

/* ---- util_est ---------------------------------------------------------------- */

static inline unsigned long _task_util_est(const struct sched_avg *sa)
{
	return sa->util_est & ~UTIL_AVG_UNCHANGED;
}

static inline unsigned long task_util_est(const struct sched_avg *sa)
{
	return max(sa->util_avg, _task_util_est(sa));
}

/*
 * util_est_update() at dequeue, v6.18 rules, on the task's averages already
 * updated to the dequeue time:
 *   - nothing unless @task_sleep, nothing if UTIL_AVG_UNCHANGED is set;
 *   - dequeued = util_avg; ewma <= dequeued: ewma = dequeued (jump up);
 *   - ewma - dequeued < UTIL_EST_MARGIN: keep ewma;
 *   - dequeued + UTIL_EST_MARGIN < runnable_avg (the task did not get all the
 *     CPU it wanted): keep ewma;
 *   - else ewma = (4 * ewma - (ewma - dequeued)) / 4;
 *   - store ewma | UTIL_AVG_UNCHANGED.
 * @legacy_capacity_skip restores an older rule (commit 10a35e6812aa "sched/pelt:
 * Skip updating util_est when utilization is higher than CPU's capacity",
 * removed in 2025 by "sched/fair: Allow decaying util_est when util_avg > CPU
 * capa"; absent from v6.18): after the margin test, return without any store
 * when dequeued > @cpu_capacity. @cpu_capacity is only read for that rule.
 */
void util_est_update_on_dequeue(struct sched_avg *sa, bool task_sleep, unsigned long cpu_capacity,
				bool legacy_capacity_skip);

/* util_est_enqueue()/util_est_dequeue(): the cfs_rq's sum of _task_util_est(). */
void util_est_cfs_enqueue(struct sched_avg *cfs, const struct sched_avg *task);
void util_est_cfs_dequeue(struct sched_avg *cfs, const struct sched_avg *task);

/* ---- new tasks, attach, detach ------------------------------------------------ */

/*
 * init_entity_runnable_average() + post_init_entity_util_avg() for a fair
 * task of weight @weight (se_weight) about to join a cfs_rq whose averages are
 * @cfs_util_avg / @cfs_load_avg on a CPU of @cpu_capacity:
 *   all zero; load_avg = weight;
 *   cap = (capacity - cfs_util) / 2 (signed);
 *   if cap > 0: util_avg = cfs_util ? min(cfs_util * weight / (cfs_load + 1), cap) : cap;
 *   runnable_avg = util_avg.
 * last_update_time stays 0: the first enqueue must pelt_attach() it.
 */
void pelt_init_new_task(struct sched_avg *sa, unsigned long weight, unsigned long cfs_util_avg,
			unsigned long cfs_load_avg, unsigned long cpu_capacity);

/*
 * attach_entity_load_avg(): align @se to @cfs's clock and period position,
 * rebuild its sums from its averages with @cfs's divider, add it to @cfs.
 * @cfs must already be updated to now.
 */
void pelt_attach(struct sched_avg *cfs, struct sched_avg *se, unsigned long se_weight);

/*
 * detach_entity_load_avg(): subtract @se from @cfs, never below 0, and keep
 * each *_sum >= *_avg * PELT_MIN_DIVIDER (compared in u32, as the kernel's
 * max_t(u32, ...) does). @se_weight is needed for load_sum (dequeue_load_avg()).
 */
void pelt_detach(struct sched_avg *cfs, const struct sched_avg *se, unsigned long se_weight);

/*
 * The removed-load part of update_cfs_rq_load_avg(): subtract averages of
 * entities that left without the cfs_rq lock (migrated away, exited); their
 * sums are estimated as avg * divider. Returns the removed runnable_avg *
 * divider >> 10 that the kernel propagates to the parent group (ignore it
 * without group scheduling).
 */
long pelt_cfs_remove(struct sched_avg *cfs, unsigned long load_avg, unsigned long util_avg,
		     unsigned long runnable_avg);

#endif
