// SPDX-License-Identifier: GPL-2.0-only
/*
 * PELT: per-entity load tracking, re-implemented from the behaviour of
 * Linux v6.18 kernel/sched/pelt.c (and the PELT parts of fair.c).
 * Integer arithmetic only. See pelt.h for the API and docs/pelt.md.
 */
#include "kernel/pelt.h"

#include <string.h>

/*
 * runnable_avg_yN_inv[k] = floor((2^32 - 1) * y^k), y = 0.5^(1/32), k = 0..31.
 *
 * These are mathematical constants, the ones the kernel generates with
 * Documentation/scheduler/sched-pelt.c. They were produced here by the
 * one-line program
 *
 *	for (k = 0; k < 32; k++)
 *		printf("0x%08x\n", (u32)(((1UL << 32) - 1) * pow(pow(0.5, 1.0 / 32), k)));
 *
 * and tests/unit/test_pelt.c recomputes every entry with double precision.
 * Note entry 0 is 2^32 - 1, not 2^32: decay_load(x, 0) == x - 1 for
 * 0 < x <= 2^32, and decay_load(1024, 32) == 511.
 */
const u32 runnable_avg_yN_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6, 0xe0ccdeeb,
	0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85, 0xc5672a10, 0xc12c4cc9,
	0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581, 0xad583ee9, 0xa9a15ab4, 0xa5fed6a9,
	0xa2704302, 0x9ef5325f, 0x9b8d39b9, 0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a,
	0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

/* floor(a * mul / 2^32) without a 128-bit type: split a into 32-bit halves. */
static u64 mul_u64_u32_shr32(u64 a, u32 mul)
{
	u64 hi = a >> 32, lo = a & 0xffffffffULL;

	return hi * mul + ((lo * mul) >> 32);
}

u64 decay_load(u64 val, u64 n)
{
	unsigned int idx;

	if (unlikely(n > LOAD_AVG_PERIOD * 63))
		return 0;

	idx = (unsigned int)n;
	/* y^n = (1/2)^(n/32) * y^(n%32) */
	if (idx >= LOAD_AVG_PERIOD) {
		val >>= idx / LOAD_AVG_PERIOD;
		idx %= LOAD_AVG_PERIOD;
	}
	return mul_u64_u32_shr32(val, runnable_avg_yN_inv[idx]);
}

u32 __accumulate_pelt_segments(u64 periods, u32 d1, u32 d3)
{
	/* d1 closes the old period and has aged p periods */
	u32 c1 = (u32)decay_load(d1, periods);
	/*
	 * The p-1 full periods in between:
	 *   1024 \Sum_{k=1}^{p-1} y^k = 1024 (\Sum_{k>=0} y^k - \Sum_{k>=p} y^k - 1)
	 *                             = LOAD_AVG_MAX - LOAD_AVG_MAX y^p - 1024
	 */
	u32 c2 = LOAD_AVG_MAX - (u32)decay_load(LOAD_AVG_MAX, periods) - 1024;

	/* d3, the part of the current period, is not decayed (y^0) */
	return c1 + c2 + d3;
}

/*
 * Add @delta units (1024 ns) to the sums. Returns the number of period
 * boundaries crossed. Caller guarantees runnable == running == 0 if !load.
 */
static u64 accumulate_sum(u64 delta, struct sched_avg *sa, unsigned long load,
			  unsigned long runnable, int running)
{
	u32 contrib = (u32)delta; /* used as is only when no boundary is crossed */
	u64 periods;

	delta += sa->period_contrib;
	periods = delta / 1024;

	if (periods) {
		/* step 1: age what was accumulated so far */
		sa->load_sum = decay_load(sa->load_sum, periods);
		sa->runnable_sum = decay_load(sa->runnable_sum, periods);
		sa->util_sum = (u32)decay_load(sa->util_sum, periods);

		/* step 2: this update's own contribution, d1 + d2 + d3 */
		delta %= 1024;
		if (load)
			contrib = __accumulate_pelt_segments(periods, 1024 - sa->period_contrib,
							     (u32)delta);
	}
	sa->period_contrib = (u32)delta;

	if (load)
		sa->load_sum += load * contrib;
	if (runnable)
		sa->runnable_sum += runnable * contrib << SCHED_CAPACITY_SHIFT;
	if (running)
		sa->util_sum += contrib << SCHED_CAPACITY_SHIFT;

	return periods;
}

int ___update_load_sum(u64 now, struct sched_avg *sa, unsigned long load, unsigned long runnable,
		       int running)
{
	u64 delta = now - sa->last_update_time;

	/* the clock went backwards: resynchronise, account nothing */
	if ((s64)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}

	/* 1024 ns units; the sub-unit remainder stays for the next update */
	delta >>= 10;
	if (!delta)
		return 0;
	sa->last_update_time += delta << 10;

	/*
	 * running implies runnable implies load; an entity can still be
	 * cfs_rq->curr after its dequeue (load 0), so enforce it here.
	 */
	if (!load)
		runnable = running = 0;

	return accumulate_sum(delta, sa, load, runnable, running) ? 1 : 0;
}

void ___update_load_avg(struct sched_avg *sa, unsigned long load)
{
	/*
	 * The largest possible sum at this point of the period is
	 * LOAD_AVG_MAX * y + period_contrib = LOAD_AVG_MAX - 1024 + period_contrib.
	 */
	u32 divider = get_pelt_divider(sa);

	sa->load_avg = (unsigned long)(load * sa->load_sum / divider);
	sa->runnable_avg = (unsigned long)(sa->runnable_sum / divider);
	sa->util_avg = sa->util_sum / divider;
}

int pelt_update_se(u64 now, struct sched_avg *sa, unsigned long weight, int on_rq, int running)
{
	return pelt_update_group_se(now, sa, weight, on_rq, on_rq ? 1 : 0, running);
}

int pelt_update_group_se(u64 now, struct sched_avg *sa, unsigned long weight, int on_rq,
			 unsigned int runnable, int running)
{
	if (!___update_load_sum(now, sa, on_rq ? 1 : 0, runnable, running))
		return 0;
	___update_load_avg(sa, weight);
	cfs_se_util_change(sa);
	return 1;
}

int pelt_update_blocked_se(u64 now, struct sched_avg *sa, unsigned long weight)
{
	if (!___update_load_sum(now, sa, 0, 0, 0))
		return 0;
	___update_load_avg(sa, weight);
	return 1;
}

int pelt_update_cfs(u64 now, struct sched_avg *sa, unsigned long load_weight,
		    unsigned int h_nr_runnable, int has_curr)
{
	if (!___update_load_sum(now, sa, load_weight, h_nr_runnable, has_curr ? 1 : 0))
		return 0;
	___update_load_avg(sa, 1);
	return 1;
}

int pelt_update_running(u64 now, struct sched_avg *sa, int running)
{
	unsigned long r = running ? 1 : 0;

	if (!___update_load_sum(now, sa, r, r, (int)r))
		return 0;
	___update_load_avg(sa, 1);
	return 1;
}

u64 pelt_scale_time(u64 delta_ns, unsigned long cpu_capacity, unsigned long freq_scale)
{
	delta_ns = cap_scale(delta_ns, cpu_capacity);
	return cap_scale(delta_ns, freq_scale);
}

void util_est_update_on_dequeue(struct sched_avg *sa, bool task_sleep, unsigned long cpu_capacity,
				bool legacy_capacity_skip)
{
	unsigned int ewma, dequeued, last_ewma_diff;

	/* a migration or a save/restore is not the end of an activation */
	if (!task_sleep)
		return;

	ewma = sa->util_est;
	/* no PELT update since the last sample: nothing new to learn */
	if (ewma & UTIL_AVG_UNCHANGED)
		return;

	dequeued = (unsigned int)sa->util_avg;

	/* the EWMA only smooths decreases: follow increases at once */
	if (ewma <= dequeued) {
		ewma = dequeued;
		goto done;
	}

	/* within ~1% of the current estimate: keep it */
	last_ewma_diff = ewma - dequeued;
	if (last_ewma_diff < UTIL_EST_MARGIN)
		goto done;

	if (legacy_capacity_skip && dequeued > cpu_capacity)
		return;

	/* the task waited for the CPU: its util_avg under-reports it */
	if ((unsigned long)dequeued + UTIL_EST_MARGIN < sa->runnable_avg)
		goto done;

	/*
	 * ewma' = w * dequeued + (1 - w) * ewma, w = 1/4
	 *       = (ewma / w - (ewma - dequeued)) * w
	 */
	ewma <<= UTIL_EST_WEIGHT_SHIFT;
	ewma -= last_ewma_diff;
	ewma >>= UTIL_EST_WEIGHT_SHIFT;
done:
	sa->util_est = ewma | UTIL_AVG_UNCHANGED;
}

void util_est_cfs_enqueue(struct sched_avg *cfs, const struct sched_avg *task)
{
	cfs->util_est += (unsigned int)_task_util_est(task);
}

void util_est_cfs_dequeue(struct sched_avg *cfs, const struct sched_avg *task)
{
	unsigned int v = (unsigned int)_task_util_est(task);

	cfs->util_est -= min(cfs->util_est, v);
}

void pelt_init_new_task(struct sched_avg *sa, unsigned long weight, unsigned long cfs_util_avg,
			unsigned long cfs_load_avg, unsigned long cpu_capacity)
{
	/* cap the n-th new task at (capacity - util) / 2: 512, 256, 128, ... */
	long cap = (long)(cpu_capacity - cfs_util_avg) / 2;

	memset(sa, 0, sizeof(*sa));
	/* full load until real history exists */
	sa->load_avg = weight;

	if (cap > 0) {
		if (cfs_util_avg) {
			sa->util_avg = cfs_util_avg * weight / (cfs_load_avg + 1);
			if (sa->util_avg > (unsigned long)cap)
				sa->util_avg = (unsigned long)cap;
		} else {
			sa->util_avg = (unsigned long)cap;
		}
	}
	sa->runnable_avg = sa->util_avg;
}

/* *p -= v, but 0 instead of wrapping below 0 */
#define sub_positive(p, v)                           \
	do {                                         \
		__typeof__(*(p)) _val = (v);         \
		__typeof__(*(p)) _var = *(p);        \
		__typeof__(*(p)) _res = _var - _val; \
		*(p) = _res > _var ? 0 : _res;       \
	} while (0)

/*
 * Rounding can leave an entity's sum one above its share of the cfs_rq's;
 * keep sum >= avg * PELT_MIN_DIVIDER, the least the sum can be for that avg
 * whatever period_contrib becomes. Both sides are compared as u32 (the
 * kernel's max_t(u32, ...)), truncating sums above 2^32 exactly as it does.
 */
static u32 pelt_sum_floor(u64 sum, unsigned long avg)
{
	return max((u32)sum, (u32)(avg * PELT_MIN_DIVIDER));
}

void pelt_attach(struct sched_avg *cfs, struct sched_avg *se, unsigned long se_weight)
{
	/* entity and cfs_rq share the clock, so share the period position too */
	u32 divider = get_pelt_divider(cfs);

	se->last_update_time = cfs->last_update_time;
	se->period_contrib = cfs->period_contrib;

	/* rebuild the sums for the new divider (slightly truncating) */
	se->util_sum = (u32)(se->util_avg * divider);
	se->runnable_sum = (u64)se->runnable_avg * divider;
	se->load_sum = (u64)se->load_avg * divider;
	if (se_weight && se_weight < se->load_sum)
		se->load_sum /= se_weight;
	else
		se->load_sum = 1;

	cfs->load_avg += se->load_avg;
	cfs->load_sum += se_weight * se->load_sum;
	cfs->util_avg += se->util_avg;
	cfs->util_sum += se->util_sum;
	cfs->runnable_avg += se->runnable_avg;
	cfs->runnable_sum += se->runnable_sum;
}

void pelt_detach(struct sched_avg *cfs, const struct sched_avg *se, unsigned long se_weight)
{
	sub_positive(&cfs->load_avg, se->load_avg);
	sub_positive(&cfs->load_sum, se_weight * se->load_sum);
	cfs->load_sum = pelt_sum_floor(cfs->load_sum, cfs->load_avg);

	sub_positive(&cfs->util_avg, se->util_avg);
	sub_positive(&cfs->util_sum, se->util_sum);
	cfs->util_sum = pelt_sum_floor(cfs->util_sum, cfs->util_avg);

	sub_positive(&cfs->runnable_avg, se->runnable_avg);
	sub_positive(&cfs->runnable_sum, se->runnable_sum);
	cfs->runnable_sum = pelt_sum_floor(cfs->runnable_sum, cfs->runnable_avg);
}

long pelt_cfs_remove(struct sched_avg *cfs, unsigned long load_avg, unsigned long util_avg,
		     unsigned long runnable_avg)
{
	u32 divider = get_pelt_divider(cfs);

	sub_positive(&cfs->load_avg, load_avg);
	sub_positive(&cfs->load_sum, (u64)load_avg * divider);
	cfs->load_sum = pelt_sum_floor(cfs->load_sum, cfs->load_avg);

	sub_positive(&cfs->util_avg, util_avg);
	sub_positive(&cfs->util_sum, (u32)(util_avg * divider));
	cfs->util_sum = pelt_sum_floor(cfs->util_sum, cfs->util_avg);

	sub_positive(&cfs->runnable_avg, runnable_avg);
	sub_positive(&cfs->runnable_sum, (u64)runnable_avg * divider);
	cfs->runnable_sum = pelt_sum_floor(cfs->runnable_sum, cfs->runnable_avg);

	return -(long)(runnable_avg * divider) >> SCHED_CAPACITY_SHIFT;
}
