// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/kernel/pelt.c.
 *
 * Expected values come from three places, never from pelt.c itself:
 *  - double-precision maths (the decay table, LOAD_AVG_MAX, rough checks);
 *  - a bit-exact reference model written below (ref_*), coded separately:
 *    its own table (computed with pow()), 128-bit multiply, its own loop;
 *  - literal numbers, with the fixed-point arithmetic spelled out in comments
 *    (cross-checked with an independent Python big-integer model when the
 *    tests were written).
 *
 * One PELT period is 1024 units of 1024 ns = 1048576 ns ("1 ms" below).
 */
#include "test_util.h"

#include <math.h>

#include "kernel/pelt.h"

#define PERIOD_NS (1024ULL * 1024ULL)

/* ------------------------------------------------------------------------- */
/* Reference model                                                            */
/* ------------------------------------------------------------------------- */

static u32 ref_y[32];

static void ref_init_table(void)
{
	/* Documentation/scheduler/sched-pelt.c: x = ((1UL << 32) - 1) * pow(y, i) */
	double y = pow(0.5, 1.0 / 32.0);

	for (int k = 0; k < 32; k++)
		ref_y[k] = (u32)(4294967295.0 * pow(y, k));
}

static u64 ref_decay(u64 v, u64 n)
{
	if (n > 32 * 63)
		return 0;
	v >>= n / 32;
	return (u64)(((unsigned __int128)v * ref_y[n % 32]) >> 32);
}

struct ref_avg {
	u64 lut, load_sum, runnable_sum;
	u32 util_sum, pc;
	unsigned long load_avg, runnable_avg, util_avg;
};

/* One update as spec section 6 describes it; returns 1 if averages recomputed. */
static int ref_update(struct ref_avg *r, u64 now, unsigned long load, unsigned long runnable,
		      int running, unsigned long avg_weight)
{
	s64 d = (s64)(now - r->lut);
	u64 units, pos, p;
	u32 contrib;

	if (d < 0) {
		r->lut = now;
		return 0;
	}
	units = (u64)d / 1024;
	if (units == 0)
		return 0;
	r->lut += units * 1024;
	if (load == 0) {
		runnable = 0;
		running = 0;
	}

	pos = r->pc + units; /* units since the start of the period last seen */
	p = pos / 1024; /* period boundaries crossed */
	if (p == 0) {
		contrib = (u32)units;
		r->pc = (u32)pos;
	} else {
		/* d1: rest of the old period, p-1 full periods, d3: start of this one */
		u32 d1 = 1024 - r->pc, d3 = (u32)(pos % 1024);
		u32 full = LOAD_AVG_MAX - (u32)ref_decay(LOAD_AVG_MAX, p) - 1024;

		r->load_sum = ref_decay(r->load_sum, p);
		r->runnable_sum = ref_decay(r->runnable_sum, p);
		r->util_sum = (u32)ref_decay(r->util_sum, p);
		contrib = (u32)ref_decay(d1, p) + full + d3;
		r->pc = d3;
	}

	r->load_sum += (u64)load * contrib;
	r->runnable_sum += ((u64)runnable * contrib) * 1024;
	if (running)
		r->util_sum += contrib * 1024u;

	if (p == 0)
		return 0;
	{
		u32 div = LOAD_AVG_MAX - 1024 + r->pc;

		r->load_avg = (unsigned long)(avg_weight * r->load_sum / div);
		r->runnable_avg = (unsigned long)(r->runnable_sum / div);
		r->util_avg = r->util_sum / div;
	}
	return 1;
}

static void assert_same(const struct ref_avg *r, const struct sched_avg *sa)
{
	assert_int_equal(sa->last_update_time, r->lut);
	assert_int_equal(sa->load_sum, r->load_sum);
	assert_int_equal(sa->runnable_sum, r->runnable_sum);
	assert_int_equal(sa->util_sum, r->util_sum);
	assert_int_equal(sa->period_contrib, r->pc);
	assert_int_equal(sa->load_avg, r->load_avg);
	assert_int_equal(sa->runnable_avg, r->runnable_avg);
	assert_int_equal(sa->util_avg, r->util_avg);
}

/* ------------------------------------------------------------------------- */
/* Constants and decay                                                        */
/* ------------------------------------------------------------------------- */

static void test_table_constants(void **state)
{
	double y = pow(0.5, 1.0 / 32.0);

	(void)state;
	ref_init_table();
	for (int k = 0; k < 32; k++) {
		double exact = 4294967295.0 * pow(y, k); /* (2^32 - 1) * y^k */

		/* the kernel truncates (2^32 - 1) y^k */
		assert_int_equal(runnable_avg_yN_inv[k], (u32)floor(exact));
		/* so each entry is within 1 of 2^32 y^k, and never above it */
		assert_true((double)runnable_avg_yN_inv[k] <= 4294967296.0 * pow(y, k));
		assert_true((double)runnable_avg_yN_inv[k] > 4294967296.0 * pow(y, k) - 2.0);
		if (k)
			assert_true(runnable_avg_yN_inv[k] < runnable_avg_yN_inv[k - 1]);
	}
	assert_int_equal(runnable_avg_yN_inv[0], 0xffffffffu);
	assert_int_equal(runnable_avg_yN_inv[1], 0xfa83b2dau);
	assert_int_equal(runnable_avg_yN_inv[16], 0xb504f333u); /* (2^32-1)/sqrt(2) */
	assert_int_equal(runnable_avg_yN_inv[31], 0x82cd8698u);
}

static void test_load_avg_max(void **state)
{
	/* sched-pelt.c: iterate max = max*y + 1024 in fixed point until it stops moving */
	u64 max = 0, last = 0;
	int n;

	(void)state;
	for (n = 0;; n++) {
		max = ((max * runnable_avg_yN_inv[1]) >> 32) + 1024;
		if (max == last)
			break;
		last = max;
	}
	assert_int_equal(max, LOAD_AVG_MAX);
	assert_int_equal(LOAD_AVG_MAX, 47742);
	assert_int_equal(PELT_MIN_DIVIDER, 46718);
	assert_true(n >= 340 && n <= 350); /* the kernel's LOAD_AVG_MAX_N is 345 */
	/* 1024 / (1 - y) = 47788.5: the fixed-point sum ends a little lower */
	assert_true(fabs(1024.0 / (1.0 - pow(0.5, 1.0 / 32)) - LOAD_AVG_MAX) < 50.0);
}

static void test_decay_load_values(void **state)
{
	(void)state;
	/*
	 * decay_load(1024, 32): 1024 >> 1 = 512, then 512 * 0xffffffff >> 32
	 * = (512 * 2^32 - 512) >> 32 = 511. Table entry 0 is 2^32 - 1, so the
	 * kernel's halving loses one unit: 511, not 512.
	 */
	assert_int_equal(decay_load(1024, 32), 511);
	/* decay_load(x, 0) = x * (2^32 - 1) >> 32 = x - 1 for 0 < x <= 2^32 */
	assert_int_equal(decay_load(1000, 0), 999);
	assert_int_equal(decay_load(1, 0), 0);
	assert_int_equal(decay_load(0, 5), 0);
	/* after 32 * 63 periods everything is gone; 32*63 itself shifts by 63 */
	assert_int_equal(decay_load(~0ULL, 32 * 63 + 1), 0);
	assert_int_equal(decay_load(47742, 32 * 63 + 1), 0);
	assert_int_equal(decay_load(~0ULL, 32 * 63), 0); /* (2^64-1)>>63 = 1; 1*T0>>32 = 0 */
	assert_int_equal(decay_load(~0ULL, 32 * 62), 2); /* 3 * (2^32-1) >> 32 = 2 */
	/* decay_load(1024, 1) = 1024 * 0xfa83b2da >> 32 = 4202935002 >> 22 = 1002.06 -> 1002 */
	assert_int_equal(decay_load(1024, 1), 1002);
	/*
	 * LOAD_AVG_MAX * y: 47742 * 4202935002 = 200656522865484; >> 32 -> 46718.02
	 * -> 46718 = LOAD_AVG_MAX - 1024: the identity the divider relies on.
	 */
	assert_int_equal(decay_load(LOAD_AVG_MAX, 1), LOAD_AVG_MAX - 1024);
	/* 2^20 * 0xb504f333 >> 32 = 3037000499 >> 12 = 741455.2 -> 741455 (2^20/sqrt 2) */
	assert_int_equal(decay_load(1 << 20, 16), 741455);
	/*
	 * decay_load(1000000, 100): 100 = 3*32 + 4: 1000000 >> 3 = 125000;
	 * 125000 * 0xeac0c6e6 (3938502374) = 492312796750000; >> 32 -> 114625.7 -> 114625
	 */
	assert_int_equal(decay_load(1000000, 100), 114625);
	/* 64-bit values: 2^40 * m >> 32 = m << 8 (no 128-bit overflow) */
	assert_int_equal(decay_load(1ULL << 40, 1), (u64)0xfa83b2da << 8);
	assert_int_equal(decay_load(~0ULL, 0), ref_decay(~0ULL, 0));
	for (u64 n = 0; n < 2100; n += 7)
		assert_int_equal(decay_load(0x123456789abcdefULL, n),
				 ref_decay(0x123456789abcdefULL, n));
	/* monotone in n */
	for (u64 n = 1; n < 200; n++)
		assert_true(decay_load(47742, n) <= decay_load(47742, n - 1));
}

static void test_accumulate_segments(void **state)
{
	(void)state;
	/* p = 1: c1 = 1024 y = 1002, c2 = 47742 - 46718 - 1024 = 0, c3 = 0 */
	assert_int_equal(__accumulate_pelt_segments(1, 1024, 0), 1002);
	/* d1 = 584: 584 y = 571.5 -> 571; + d3 588 = 1159 */
	assert_int_equal(__accumulate_pelt_segments(1, 584, 588), 1159);
	/*
	 * p = 2: c1 = 1024 y^2 = 980; c2 = 47742 - 47742 y^2 - 1024
	 * = 47742 - 45717 - 1024 = 1001 (1024 y, rounded the other way); c3 = 0
	 */
	assert_int_equal(decay_load(1024, 2), 980);
	assert_int_equal(decay_load(LOAD_AVG_MAX, 2), 45717);
	assert_int_equal(__accumulate_pelt_segments(2, 1024, 0), 1981);
	/* many periods: c1 vanishes, c2 tends to LOAD_AVG_MAX - 1024 */
	assert_int_equal(__accumulate_pelt_segments(5000, 1024, 0), LOAD_AVG_MAX - 1024);
	assert_int_equal(__accumulate_pelt_segments(5000, 1024, 1023), LOAD_AVG_MAX - 1);
}

/* ------------------------------------------------------------------------- */
/* Running task                                                               */
/* ------------------------------------------------------------------------- */

/*
 * Independent recurrence for a task running from t = 0 and updated at every
 * period boundary: each update crosses exactly one period with
 * period_contrib 0, so d1 = 1024, d3 = 0 and
 *   contrib = 1024 y (=1002) + [LOAD_AVG_MAX - LOAD_AVG_MAX y - 1024 (=0)] = 1002
 *   util_sum_n = decay(util_sum_{n-1}, 1) + (1002 << 10)
 *   util_avg_n = util_sum_n / (LOAD_AVG_MAX - 1024 + 0)
 */
static void recur_running(int n, u32 *util_sum, unsigned long *util_avg, u64 *load_sum)
{
	u64 us = 0, ls = 0;
	u64 contrib = ref_decay(1024, 1);

	for (int i = 0; i < n; i++) {
		us = ref_decay(us, 1) + (contrib << 10);
		ls = ref_decay(ls, 1) + contrib;
	}
	*util_sum = (u32)us;
	*util_avg = (unsigned long)(us / (LOAD_AVG_MAX - 1024));
	*load_sum = ls;
}

static void run_periodic(struct sched_avg *sa, int n, unsigned long weight)
{
	memset(sa, 0, sizeof(*sa));
	for (int i = 1; i <= n; i++)
		assert_int_equal(pelt_update_se((u64)i * PERIOD_NS, sa, weight, 1, 1), 1);
}

static void test_running_periodic(void **state)
{
	static const int ns[] = { 1, 2, 10, 32, 100, 345, 1000 };
	struct sched_avg sa;

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(ns); i++) {
		u32 us;
		unsigned long ua;
		u64 ls;

		recur_running(ns[i], &us, &ua, &ls);
		run_periodic(&sa, ns[i], 1024);
		assert_int_equal(sa.util_sum, us);
		assert_int_equal(sa.util_avg, ua);
		assert_int_equal(sa.load_sum, ls);
		assert_int_equal(sa.runnable_sum, (u64)us);
		assert_int_equal(sa.period_contrib, 0);
		assert_int_equal(sa.last_update_time, (u64)ns[i] * PERIOD_NS);
		/* close to 1024 (1 - y^n): fixed point loses at most a few units */
		assert_true(fabs((double)sa.util_avg - 1024.0 * (1.0 - pow(0.5, ns[i] / 32.0))) <
			    3.0);
	}

	/* literals: 1 ms: 1002 << 10 = 1026048; / 46718 = 21.96 -> 21 */
	run_periodic(&sa, 1, 1024);
	assert_int_equal(sa.util_sum, 1026048);
	assert_int_equal(sa.util_avg, 21);
	/* 2 ms: decay(1026048, 1) = 1004061; + 1026048 = 2030109; / 46718 = 43.45 -> 43 */
	run_periodic(&sa, 2, 1024);
	assert_int_equal(sa.util_sum, 2030109);
	assert_int_equal(sa.util_avg, 43);
	run_periodic(&sa, 10, 1024);
	assert_int_equal(sa.util_avg, 199);
	/* 32 ms: half-life: 23941816 / 46718 = 512.47 -> 512 */
	run_periodic(&sa, 32, 1024);
	assert_int_equal(sa.util_sum, 23941816);
	assert_int_equal(sa.util_avg, 512);
	run_periodic(&sa, 100, 1024);
	assert_int_equal(sa.util_sum, 42394947);
	assert_int_equal(sa.util_avg, 907);
	/*
	 * 345 ms: saturated. util_sum 47856424 > 1024 * 46718 = 47839232, so
	 * util_avg = 1024 (1024.37); but the unshifted load_sum 46714 gives
	 * load_avg = 1024 * 46714 / 46718 = 1023.9 -> 1023.
	 */
	run_periodic(&sa, 345, 1024);
	assert_int_equal(sa.util_sum, 47856424);
	assert_int_equal(sa.util_avg, 1024);
	assert_int_equal(sa.runnable_avg, 1024);
	assert_int_equal(sa.load_sum, 46714);
	assert_int_equal(sa.load_avg, 1023);
	run_periodic(&sa, 1000, 1024);
	assert_int_equal(sa.util_sum, 47883609);
	assert_int_equal(sa.util_avg, 1024);
	assert_int_equal(sa.load_sum, 46715);
	assert_int_equal(sa.load_avg, 1023);
}

static void test_running_single_update(void **state)
{
	/* the same runs with one update at the end: closed form, other rounding */
	static const struct {
		int n;
		u32 util_sum;
		unsigned long util_avg;
	} want[] = {
		{ 1, 1026048, 21 }, /* contrib = 1002 */
		{ 2, 2028544, 43 }, /* contrib = 980 + 1001 = 1981 (vs 1982 periodically) */
		{ 10, 9316352, 199 },
		{ 32, 23919616, 512 }, /* contrib = 1024 y^32 (511) + 22848 = 23359 */
		{ 100, 42356736, 906 }, /* periodic gives 907 */
		{ 345, 47812608, 1023 }, /* periodic gives 1024 */
		{ 1000, 47839232, 1024 }, /* contrib = 46718 = PELT_MIN_DIVIDER exactly */
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++) {
		struct sched_avg sa = { 0 };
		struct ref_avg r = { 0 };

		assert_int_equal(pelt_update_se((u64)want[i].n * PERIOD_NS, &sa, 1024, 1, 1), 1);
		ref_update(&r, (u64)want[i].n * PERIOD_NS, 1, 1, 1, 1024);
		assert_same(&r, &sa);
		assert_int_equal(sa.util_sum, want[i].util_sum);
		assert_int_equal(sa.util_avg, want[i].util_avg);
		assert_int_equal(sa.util_sum, __accumulate_pelt_segments((u64)want[i].n, 1024, 0)
						      << 10);
	}
}

static void test_decay_after_sleep(void **state)
{
	struct sched_avg sa, sb;

	(void)state;
	run_periodic(&sa, 100, 1024);
	assert_int_equal(sa.util_sum, 42394947);
	assert_int_equal(sa.util_avg, 907);
	sb = sa;

	/* dequeued: no contribution; 32 periods later the sums have halved */
	assert_int_equal(pelt_update_se(132 * PERIOD_NS, &sa, 1024, 0, 0), 1);
	/*
	 * decay(42394947, 32) = (42394947 >> 1) * 0xffffffff >> 32
	 *                     = 21197473 - 1 = 21197472
	 * util_avg = 21197472 / 46718 = 453.73 -> 453  (907 / 2 = 453.5)
	 */
	assert_int_equal(sa.util_sum, 21197472);
	assert_int_equal(sa.util_avg, 453);
	assert_int_equal(sa.runnable_avg, 453);
	/* load_sum 41381 -> (20690 * 0xffffffff) >> 32 = 20689; 1024*20689/46718 = 453 */
	assert_int_equal(sa.load_sum, 20689);
	assert_int_equal(sa.load_avg, 453);
	assert_int_equal(sa.period_contrib, 0);

	/* the blocked-entity form gives the same answer */
	assert_int_equal(pelt_update_blocked_se(132 * PERIOD_NS, &sb, 1024), 1);
	assert_memory_equal(&sa, &sb, sizeof(sa));

	/* another 32 * 63 periods and more: nothing left */
	assert_int_equal(pelt_update_blocked_se((132 + 2100) * PERIOD_NS, &sb, 1024), 1);
	assert_true(pelt_avg_is_decayed(&sb));
	assert_int_equal(sb.util_avg, 0);
	assert_int_equal(sb.load_avg, 0);
}

static void test_runnable_vs_util_cfs(void **state)
{
	struct sched_avg cfs = { 0 };

	(void)state;
	/* cfs_rq: two nice-0 tasks queued (weight 2048), both runnable, one running */
	for (int i = 1; i <= 100; i++)
		assert_int_equal(pelt_update_cfs((u64)i * PERIOD_NS, &cfs, 2048, 2, 1), 1);
	/*
	 * util_sum follows the single-task recurrence: 42394947 -> 907.
	 * runnable_sum adds 2 * 1002 << 10 per period: 84789914 (not 2 * 42394947
	 * = 84789894: decay of the doubled sum rounds differently), / 46718 =
	 * 1814.93 -> 1814 = 2 * 907.
	 * load_sum adds 2048 * 1002 per period: decays to the same ratio: 1814.
	 */
	assert_int_equal(cfs.util_sum, 42394947);
	assert_int_equal(cfs.util_avg, 907);
	assert_int_equal(cfs.runnable_sum, 84789914);
	assert_int_equal(cfs.runnable_avg, 1814);
	assert_int_equal(cfs.load_avg, 1814);
	for (int i = 101; i <= 1000; i++)
		pelt_update_cfs((u64)i * PERIOD_NS, &cfs, 2048, 2, 1);
	/* saturated: util 1024, runnable 95767264 / 46718 = 2049.9 -> 2049 */
	assert_int_equal(cfs.util_avg, 1024);
	assert_int_equal(cfs.runnable_avg, 2049);
	assert_int_equal(cfs.load_avg, 2049);

	/* has_curr with load 0 (curr already dequeued): running forced to 0 */
	{
		struct sched_avg e = { 0 };

		pelt_update_cfs(10 * PERIOD_NS, &e, 0, 1, 1);
		assert_int_equal(e.util_sum, 0);
		assert_int_equal(e.runnable_sum, 0);
		assert_int_equal(e.load_sum, 0);
		assert_int_equal(___update_load_sum(20 * PERIOD_NS, &e, 0, 3, 1), 1);
		assert_int_equal(e.util_sum, 0);
		assert_int_equal(e.runnable_sum, 0);
	}
}

static void test_load_avg_nice(void **state)
{
	struct sched_avg n0, n5, ref;

	(void)state;
	/* nice 0 = weight 1024, nice 5 = weight 335; load_sum is unweighted for tasks */
	run_periodic(&n0, 100, 1024);
	run_periodic(&n5, 100, 335);
	assert_int_equal(n0.load_sum, 41381);
	assert_int_equal(n5.load_sum, 41381);
	/* 1024 * 41381 / 46718 = 907.0 -> 907;  335 * 41381 / 46718 = 296.7 -> 296 */
	assert_int_equal(n0.load_avg, 907);
	assert_int_equal(n5.load_avg, 296);
	/* util does not depend on weight */
	assert_int_equal(n5.util_avg, n0.util_avg);

	run_periodic(&n0, 1000, 1024);
	run_periodic(&n5, 1000, 335);
	/* 1024 * 46715 / 46718 = 1023.9 -> 1023;  335 * 46715 / 46718 = 334.98 -> 334 */
	assert_int_equal(n0.load_avg, 1023);
	assert_int_equal(n5.load_avg, 334);

	/* a queued but waiting task: load and runnable grow, util does not */
	memset(&ref, 0, sizeof(ref));
	for (int i = 1; i <= 100; i++)
		pelt_update_se((u64)i * PERIOD_NS, &ref, 335, 1, 0);
	assert_int_equal(ref.util_avg, 0);
	assert_int_equal(ref.runnable_avg, 907);
	assert_int_equal(ref.load_avg, 296);
}

/* ------------------------------------------------------------------------- */
/* Partial periods                                                            */
/* ------------------------------------------------------------------------- */

static void test_partial_periods(void **state)
{
	struct sched_avg sa = { 0 };
	struct ref_avg r = { 0 };

	(void)state;
	/*
	 * t = 1.5 ms = 1500000 ns: 1500000 >> 10 = 1464 units (1464 * 1024 =
	 * 1499136; the 864 ns left over wait for the next update).
	 * period_contrib 0 + 1464: p = 1, d1 = 1024, d3 = 440.
	 * contrib = 1024 y (1002) + 0 + 440 = 1442.
	 * util_sum = 1442 << 10 = 1476608; divider = 46718 + 440 = 47158;
	 * util_avg = 1476608 / 47158 = 31.3 -> 31; load_avg = 1024*1442/47158 -> 31.
	 */
	assert_int_equal(pelt_update_se(1500000, &sa, 1024, 1, 1), 1);
	ref_update(&r, 1500000, 1, 1, 1, 1024);
	assert_same(&r, &sa);
	assert_int_equal(sa.last_update_time, 1499136);
	assert_int_equal(sa.period_contrib, 440);
	assert_int_equal(sa.util_sum, 1476608);
	assert_int_equal(sa.load_sum, 1442);
	assert_int_equal(sa.util_avg, 31);
	assert_int_equal(sa.load_avg, 31);

	/*
	 * t = 2.7 ms: 2700000 - 1499136 = 1200864 ns -> 1172 units (lut 2699264).
	 * 440 + 1172 = 1612: p = 1, d1 = 1024 - 440 = 584, d3 = 588.
	 * old sum: decay(1476608, 1) = 1444967.
	 * contrib = 584 y (571) + 0 + 588 = 1159; util_sum = 1444967 + 1159*1024
	 * = 2631783; divider 46718 + 588 = 47306; util_avg = 55.6 -> 55.
	 */
	assert_int_equal(pelt_update_se(2700000, &sa, 1024, 1, 1), 1);
	ref_update(&r, 2700000, 1, 1, 1, 1024);
	assert_same(&r, &sa);
	assert_int_equal(sa.last_update_time, 2699264);
	assert_int_equal(sa.period_contrib, 588);
	assert_int_equal(sa.util_sum, 2631783);
	assert_int_equal(sa.util_avg, 55);

	/*
	 * t = 2.9 ms: 200736 ns -> 196 units; 588 + 196 = 784 < 1024: no boundary,
	 * the sums grow by 196 (util by 196 << 10) but the averages stay.
	 */
	assert_int_equal(pelt_update_se(2900000, &sa, 1024, 1, 1), 0);
	ref_update(&r, 2900000, 1, 1, 1, 1024);
	assert_same(&r, &sa);
	assert_int_equal(sa.util_sum, 2631783 + (196 << 10));
	assert_int_equal(sa.period_contrib, 784);
	assert_int_equal(sa.util_avg, 55);

	/*
	 * last_update_time is 2699264 + 196 * 1024 = 2899968: the 32 ns after it
	 * plus 990 more make less than one unit, so nothing at all happens...
	 */
	assert_int_equal(sa.last_update_time, 2899968);
	assert_int_equal(pelt_update_se(2899968 + 1023, &sa, 1024, 1, 1), 0);
	assert_int_equal(sa.last_update_time, 2899968);
	assert_int_equal(sa.util_sum, 2631783 + (196 << 10));
	/* ...while 1024 ns make one unit: util_sum + (1 << 10) */
	assert_int_equal(pelt_update_se(2899968 + 1024, &sa, 1024, 1, 1), 0);
	assert_int_equal(sa.last_update_time, 2899968 + 1024);
	assert_int_equal(sa.util_sum, 2631783 + (197 << 10));
	assert_int_equal(sa.period_contrib, 785);

	/* time going backwards: last_update_time follows, nothing accrues */
	assert_int_equal(pelt_update_se(2000000, &sa, 1024, 1, 1), 0);
	assert_int_equal(sa.last_update_time, 2000000);
	assert_int_equal(sa.util_sum, 2631783 + (197 << 10));
	ref_update(&r, 2899968 + 1023, 1, 1, 1, 1024);
	ref_update(&r, 2899968 + 1024, 1, 1, 1, 1024);
	ref_update(&r, 2000000, 1, 1, 1, 1024);
	assert_same(&r, &sa);

	/* 3.0, 5.25, 7.999 ms with the task waiting then asleep */
	assert_int_equal(pelt_update_se(3000000, &sa, 1024, 1, 0),
			 ref_update(&r, 3000000, 1, 1, 0, 1024));
	assert_same(&r, &sa);
	assert_int_equal(pelt_update_se(5250000, &sa, 1024, 0, 0),
			 ref_update(&r, 5250000, 0, 0, 0, 1024));
	assert_same(&r, &sa);
	assert_int_equal(pelt_update_se(7999000, &sa, 1024, 1, 1),
			 ref_update(&r, 7999000, 1, 1, 1, 1024));
	assert_same(&r, &sa);
}

static u64 lcg_state = 0x5eed5eed1234ULL;

static u32 lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(lcg_state >> 33);
}

static void test_random_against_reference(void **state)
{
	struct sched_avg se = { 0 }, cfs = { 0 };
	struct ref_avg rse = { 0 }, rcfs = { 0 };
	u64 now = 0;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		u32 what = lcg() % 100;
		int on_rq = (lcg() % 3) != 0;
		int running = on_rq && (lcg() % 2);
		unsigned long weight = (lcg() % 2) ? 1024 : 88761;
		unsigned int nr = lcg() % 5;
		int a, b;

		if (what < 60)
			now += lcg() % 3000000; /* up to ~3 periods */
		else if (what < 90)
			now += lcg() % 5000; /* sub-period, sub-unit */
		else if (what < 98)
			now += (u64)(lcg() % 3000) * 1000000; /* long sleeps, past 63*32 */
		else if (now > 10000)
			now -= lcg() % 10000; /* clock goes backwards */

		a = pelt_update_se(now, &se, weight, on_rq, running);
		b = ref_update(&rse, now, on_rq ? 1 : 0, on_rq ? 1 : 0, running, weight);
		assert_int_equal(a, b);
		assert_same(&rse, &se);

		a = pelt_update_cfs(now, &cfs, nr * 1024, nr, nr && running);
		b = ref_update(&rcfs, now, nr * 1024, nr, nr && running, 1);
		assert_int_equal(a, b);
		assert_same(&rcfs, &cfs);

		/* invariants */
		assert_true(se.util_avg <= 1024 + 1);
		assert_true(se.period_contrib < 1024);
	}
}

/* ------------------------------------------------------------------------- */
/* util_est                                                                   */
/* ------------------------------------------------------------------------- */

static void set_task(struct sched_avg *sa, unsigned long util, unsigned long runnable,
		     unsigned int ewma)
{
	memset(sa, 0, sizeof(*sa));
	sa->util_avg = util;
	sa->runnable_avg = runnable;
	sa->util_est = ewma; /* flag clear: PELT moved since the last sample */
}

static void test_util_est(void **state)
{
	struct sched_avg sa;
	static const unsigned int steps[] = { 325, 268, 226, 194, 170, 152 };

	(void)state;
	assert_int_equal(UTIL_EST_MARGIN, 10);

	/* jump up at once */
	set_task(&sa, 300, 300, 100);
	util_est_update_on_dequeue(&sa, true, 1024, false);
	assert_int_equal(sa.util_est, 300 | UTIL_AVG_UNCHANGED);
	assert_int_equal(_task_util_est(&sa), 300);
	assert_int_equal(task_util_est(&sa), 300);

	/* flag set (no PELT update since): untouched */
	sa.util_avg = 900;
	util_est_update_on_dequeue(&sa, true, 1024, false);
	assert_int_equal(sa.util_est, 300 | UTIL_AVG_UNCHANGED);
	assert_int_equal(task_util_est(&sa), 900); /* max(util_avg, ewma) */

	/* not a sleep (migration): untouched */
	set_task(&sa, 900, 900, 300);
	util_est_update_on_dequeue(&sa, false, 1024, false);
	assert_int_equal(sa.util_est, 300);

	/*
	 * slow decay with w = 1/4, dequeued = 100 each time:
	 * 400: (1600 - 300) >> 2 = 325;  325: (1300 - 225) >> 2 = 268 (268.75);
	 * 268: (1072 - 168) >> 2 = 226;  226: (904 - 126) >> 2 = 194 (194.5);
	 * 194: (776 - 94) >> 2 = 170 (170.5);  170: (680 - 70) >> 2 = 152 (152.5)
	 */
	set_task(&sa, 100, 100, 400);
	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		util_est_update_on_dequeue(&sa, true, 1024, false);
		assert_int_equal(sa.util_est, steps[i] | UTIL_AVG_UNCHANGED);
		/* a second dequeue without PELT progress changes nothing */
		util_est_update_on_dequeue(&sa, true, 1024, false);
		assert_int_equal(sa.util_est, steps[i] | UTIL_AVG_UNCHANGED);
		/* the next period boundary clears the flag */
		cfs_se_util_change(&sa);
		assert_int_equal(sa.util_est, steps[i]);
	}

	/* margin: within 1% (diff 5 < 10) keep; diff 10 decays: (1600 - 10) >> 2 = 397 */
	set_task(&sa, 395, 395, 400);
	util_est_update_on_dequeue(&sa, true, 1024, false);
	assert_int_equal(sa.util_est, 400 | UTIL_AVG_UNCHANGED);
	set_task(&sa, 391, 391, 400);
	util_est_update_on_dequeue(&sa, true, 1024, false);
	assert_int_equal(sa.util_est, 400 | UTIL_AVG_UNCHANGED);
	set_task(&sa, 390, 390, 400);
	util_est_update_on_dequeue(&sa, true, 1024, false);
	assert_int_equal(sa.util_est, 397 | UTIL_AVG_UNCHANGED);

	/* waited for the CPU (100 + 10 < 200 runnable): keep the estimate */
	set_task(&sa, 100, 200, 400);
	util_est_update_on_dequeue(&sa, true, 1024, false);
	assert_int_equal(sa.util_est, 400 | UTIL_AVG_UNCHANGED);
	set_task(&sa, 100, 110, 400); /* 110 is not < 110: decay */
	util_est_update_on_dequeue(&sa, true, 1024, false);
	assert_int_equal(sa.util_est, 325 | UTIL_AVG_UNCHANGED);

	/* v6.18: util above the CPU's capacity still decays: (3200 - 200) >> 2 = 750 */
	set_task(&sa, 600, 600, 800);
	util_est_update_on_dequeue(&sa, true, 512, false);
	assert_int_equal(sa.util_est, 750 | UTIL_AVG_UNCHANGED);
	/* the older rule: return, flag stays clear */
	set_task(&sa, 600, 600, 800);
	util_est_update_on_dequeue(&sa, true, 512, true);
	assert_int_equal(sa.util_est, 800);
	set_task(&sa, 500, 500, 800); /* 500 <= 512: decays: (3200 - 300) >> 2 = 725 */
	util_est_update_on_dequeue(&sa, true, 512, true);
	assert_int_equal(sa.util_est, 725 | UTIL_AVG_UNCHANGED);

	/* a PELT update through pelt_update_se() clears the flag only at a boundary */
	memset(&sa, 0, sizeof(sa));
	sa.util_est = 725 | UTIL_AVG_UNCHANGED;
	pelt_update_se(500000, &sa, 1024, 1, 1);
	assert_int_equal(sa.util_est, 725 | UTIL_AVG_UNCHANGED);
	pelt_update_se(PERIOD_NS, &sa, 1024, 1, 1);
	assert_int_equal(sa.util_est, 725);

	/* the cfs_rq sum of enqueued estimates */
	{
		struct sched_avg cfs = { 0 }, t1, t2;

		set_task(&t1, 0, 0, 300 | UTIL_AVG_UNCHANGED);
		set_task(&t2, 0, 0, 125);
		util_est_cfs_enqueue(&cfs, &t1);
		util_est_cfs_enqueue(&cfs, &t2);
		assert_int_equal(cfs.util_est, 425);
		util_est_cfs_dequeue(&cfs, &t1);
		assert_int_equal(cfs.util_est, 125);
		t2.util_est = 200; /* grew while queued: clamp at 0 */
		util_est_cfs_dequeue(&cfs, &t2);
		assert_int_equal(cfs.util_est, 0);
	}
}

/* ------------------------------------------------------------------------- */
/* New tasks, attach, detach                                                   */
/* ------------------------------------------------------------------------- */

static void test_new_task_init(void **state)
{
	/* the kernel comment's series on a 1024-capacity CPU */
	static const unsigned long task_util[] = { 512, 256, 128, 64, 32, 16, 8 };
	static const unsigned long cfs_util[] = { 512, 768, 896, 960, 992, 1008, 1016 };
	struct sched_avg cfs = { 0 }, t;

	(void)state;
	cfs.last_update_time = 10 * PERIOD_NS;
	for (unsigned int i = 0; i < ARRAY_SIZE(task_util); i++) {
		/*
		 * e.g. task 2: 512 * 1024 / (1024 + 1) = 511, cap (1024 - 512) / 2 = 256;
		 * task 3: 768 * 1024 / 2049 = 383, cap 128.
		 */
		pelt_init_new_task(&t, 1024, cfs.util_avg, cfs.load_avg, 1024);
		assert_int_equal(t.util_avg, task_util[i]);
		assert_int_equal(t.runnable_avg, task_util[i]);
		assert_int_equal(t.load_avg, 1024);
		assert_int_equal(t.last_update_time, 0);
		assert_int_equal(t.util_est, 0);
		pelt_attach(&cfs, &t, 1024);
		assert_int_equal(cfs.util_avg, cfs_util[i]);
		assert_int_equal(cfs.load_avg, 1024 * (i + 1));
	}

	/* extrapolation below the cap: 100 * 1024 / 2049 = 49 (cap 462) */
	pelt_init_new_task(&t, 1024, 100, 2048, 1024);
	assert_int_equal(t.util_avg, 49);
	/* nice 5: 100 * 335 / 2049 = 16; load_avg starts at the weight */
	pelt_init_new_task(&t, 335, 100, 2048, 1024);
	assert_int_equal(t.util_avg, 16);
	assert_int_equal(t.load_avg, 335);
	/* small CPU: cap (446 - 0) / 2 = 223 */
	pelt_init_new_task(&t, 1024, 0, 0, 446);
	assert_int_equal(t.util_avg, 223);
	/* full CPU: cap 0, and over-full: cap negative -> util 0 */
	pelt_init_new_task(&t, 1024, 1024, 1024, 1024);
	assert_int_equal(t.util_avg, 0);
	pelt_init_new_task(&t, 1024, 1100, 1024, 1024);
	assert_int_equal(t.util_avg, 0);
	assert_int_equal(t.runnable_avg, 0);
	/* (1024 - 1023) / 2 = 0 */
	pelt_init_new_task(&t, 1024, 1023, 1024, 1024);
	assert_int_equal(t.util_avg, 0);
}

static void test_attach_detach(void **state)
{
	struct sched_avg cfs = { 0 }, se = { 0 }, cfs0;

	(void)state;
	cfs.last_update_time = 7 * PERIOD_NS + 100 * 1024;
	cfs.period_contrib = 100;
	cfs.util_avg = 200;
	cfs.util_sum = 200 * 46818;
	cfs.runnable_avg = 300;
	cfs.runnable_sum = 300 * 46818;
	cfs.load_avg = 2048;
	cfs.load_sum = 2048ULL * 46818;
	cfs0 = cfs;

	se.util_avg = 512;
	se.runnable_avg = 600;
	se.load_avg = 1024;
	pelt_attach(&cfs, &se, 1024);
	/* divider 46718 + 100 = 46818 */
	assert_int_equal(se.last_update_time, cfs.last_update_time);
	assert_int_equal(se.period_contrib, 100);
	assert_int_equal(se.util_sum, 512 * 46818); /* 23970816 */
	assert_int_equal(se.runnable_sum, 600 * 46818);
	assert_int_equal(se.load_sum, 46818); /* 1024 * 46818 / 1024 */
	assert_int_equal(cfs.util_avg, 712);
	assert_int_equal(cfs.util_sum, 712 * 46818);
	assert_int_equal(cfs.runnable_avg, 900);
	assert_int_equal(cfs.load_avg, 3072);
	assert_int_equal(cfs.load_sum, 3072ULL * 46818);

	/* detach restores the cfs_rq exactly here */
	pelt_detach(&cfs, &se, 1024);
	assert_memory_equal(&cfs, &cfs0, sizeof(cfs));

	/* load_sum of an entity with tiny load_avg: at least 1 */
	{
		struct sched_avg c2 = { 0 }, s2 = { 0 };

		s2.load_avg = 0;
		pelt_attach(&c2, &s2, 1024);
		assert_int_equal(s2.load_sum, 1);
		assert_int_equal(c2.load_sum, 1024);
	}

	/*
	 * Clamps: cfs util 300, util_sum 300 * 46718 + 5; the entity (util 100)
	 * carries 100 * 46718 + 50. 14015405 - 4671850 = 9343555 <
	 * 200 * 46718 = 9343600: raised to 9343600.
	 */
	memset(&cfs, 0, sizeof(cfs));
	memset(&se, 0, sizeof(se));
	cfs.util_avg = 300;
	cfs.util_sum = 300 * 46718 + 5;
	se.util_avg = 100;
	se.util_sum = 100 * 46718 + 50;
	pelt_detach(&cfs, &se, 1024);
	assert_int_equal(cfs.util_avg, 200);
	assert_int_equal(cfs.util_sum, 200 * 46718);
	/* sub_positive: never below zero */
	se.util_avg = 500;
	se.util_sum = 500 * 46718;
	se.runnable_avg = 7;
	se.runnable_sum = 7 * 46718;
	se.load_avg = 99;
	se.load_sum = 99999;
	pelt_detach(&cfs, &se, 1024);
	assert_int_equal(cfs.util_avg, 0);
	assert_int_equal(cfs.util_sum, 0);
	assert_int_equal(cfs.runnable_avg, 0);
	assert_int_equal(cfs.runnable_sum, 0);
	assert_int_equal(cfs.load_avg, 0);
	assert_int_equal(cfs.load_sum, 0);

	/* removed load (migrated away without the lock): sums estimated as avg * divider */
	memset(&cfs, 0, sizeof(cfs));
	cfs.period_contrib = 0;
	cfs.util_avg = 400;
	cfs.util_sum = 400 * 46718 + 3;
	cfs.runnable_avg = 400;
	cfs.runnable_sum = 400 * 46718;
	cfs.load_avg = 2048;
	cfs.load_sum = 2048ULL * 46718;
	/* propagated: -(100 * 46718) >> 10 = -4562.3 -> -4563 (arithmetic shift floors) */
	assert_int_equal(pelt_cfs_remove(&cfs, 1024, 100, 100), -4563);
	assert_int_equal(cfs.util_avg, 300);
	assert_int_equal(cfs.util_sum, 300 * 46718 + 3);
	assert_int_equal(cfs.runnable_avg, 300);
	assert_int_equal(cfs.runnable_sum, 300 * 46718);
	assert_int_equal(cfs.load_avg, 1024);
	assert_int_equal(cfs.load_sum, 1024ULL * 46718);
}

/* ------------------------------------------------------------------------- */
/* Invariance                                                                 */
/* ------------------------------------------------------------------------- */

static void test_scale_time(void **state)
{
	(void)state;
	assert_int_equal(cap_scale(1000, 512), 500);
	assert_int_equal(pelt_scale_time(4000000, 512, 512), 1000000); /* delta / 4 */
	assert_int_equal(pelt_scale_time(PERIOD_NS, 512, 512), PERIOD_NS / 4);
	assert_int_equal(pelt_scale_time(4000000, 1024, 1024), 4000000);
	/* two truncating shifts: 1000003 * 512 >> 10 = 500001 (.5), then 250000 (.5) */
	assert_int_equal(pelt_scale_time(1000003, 512, 512), 250000);
	/*
	 * capacity first, then frequency (the order changes the rounding):
	 * 1002 * 446 >> 10 = 436 (436.4), 436 * 700 >> 10 = 298 (298.05);
	 * frequency first would give 1002 * 700 >> 10 = 684, 684 * 446 >> 10 = 297.
	 */
	assert_int_equal(pelt_scale_time(1002, 446, 700), 298);
	assert_int_equal(pelt_scale_time(1002, 700, 446), 297);
	/*
	 * 64 ms busy on a half-capacity CPU advance the PELT clock by 32 periods:
	 * the task then looks like one that ran 32 ms at full capacity (512,
	 * give or take the rounding of 64 half-period updates).
	 */
	{
		struct sched_avg a = { 0 };
		struct ref_avg r = { 0 };
		u64 clock = 0;

		for (int i = 1; i <= 64; i++) {
			clock += pelt_scale_time(PERIOD_NS, 512, 1024);
			pelt_update_se(clock, &a, 1024, 1, 1);
			ref_update(&r, clock, 1, 1, 1, 1024);
		}
		assert_int_equal(clock, 32 * PERIOD_NS);
		assert_same(&r, &a);
		assert_true(a.util_avg >= 510 && a.util_avg <= 514);
	}
	/* idle-time-lost bound: (46718 << 10) - 47742 */
	assert_false(pelt_util_sum_saturated(47791489));
	assert_true(pelt_util_sum_saturated(47791490));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_constants),
		cmocka_unit_test(test_load_avg_max),
		cmocka_unit_test(test_decay_load_values),
		cmocka_unit_test(test_accumulate_segments),
		cmocka_unit_test(test_running_periodic),
		cmocka_unit_test(test_running_single_update),
		cmocka_unit_test(test_decay_after_sleep),
		cmocka_unit_test(test_runnable_vs_util_cfs),
		cmocka_unit_test(test_load_avg_nice),
		cmocka_unit_test(test_partial_periods),
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_util_est),
		cmocka_unit_test(test_new_task_init),
		cmocka_unit_test(test_attach_detach),
		cmocka_unit_test(test_scale_time),
	};

	ref_init_table();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
