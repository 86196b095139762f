// SPDX-License-Identifier: GPL-2.0-only
/*
 * UnixBench context1 and Run (byte-unixbench 6.0.0): combinePassResults()
 * drops the int(n/3) passes of lowest COUNT (not lowest rate) and takes the
 * geometric mean of count / time over the rest; the index is
 * score / baseline * 10. context1 itself: the parent's alarm ends the run,
 * the child sees end of file and reports too.
 */
#include "test_util.h"

#include "cli/session.h"
#include "work/bench.h"

#include <math.h>

#define EPS 1e-9

/* 3 passes: the one of lowest count is dropped, sqrt(100 * 200) is left */
static void test_drop_worst_third_geomean(void **state)
{
	const struct ub_pass p[] = { { 1000, 10.0 }, { 2000, 10.0 }, { 500, 10.0 } };
	double score, time_s;

	(void)state;
	assert_int_equal(unixbench_combine(p, 3, &score, &time_s), 2);
	assert_true(fabs(score - 141.42135623730950) < EPS);
	assert_true(fabs(time_s - 10.0) < EPS);
}

/* the sort is by count: 900 in 5 s (180 lps) goes, 1000 in 20 s (50 lps) stays */
static void test_dropped_by_count_not_rate(void **state)
{
	const struct ub_pass p[] = { { 1000, 20.0 }, { 900, 5.0 }, { 2000, 10.0 } };
	double score, time_s;

	(void)state;
	assert_int_equal(unixbench_combine(p, 3, &score, &time_s), 2);
	/* sqrt(50 * 200) */
	assert_true(fabs(score - 100.0) < EPS);
	assert_true(fabs(time_s - 15.0) < EPS);
}

/* int(2/3) = 0 dropped; int(6/3) = 2; one pass is its own score */
static void test_how_many_dropped(void **state)
{
	const struct ub_pass two[] = { { 400, 2.0 }, { 100, 2.0 } };
	const struct ub_pass six[] = { { 10, 1 }, { 60, 1 }, { 20, 1 },
				       { 50, 1 }, { 30, 1 }, { 40, 1 } };
	const struct ub_pass one[] = { { 123, 1.0 } };
	double score, time_s;

	(void)state;
	assert_int_equal(unixbench_combine(two, 2, &score, &time_s), 2);
	/* sqrt(200 * 50) */
	assert_true(fabs(score - 100.0) < EPS);
	assert_int_equal(unixbench_combine(six, 6, &score, &time_s), 4);
	/* 10 and 20 dropped: (30 * 40 * 50 * 60)^(1/4) */
	assert_true(fabs(score - pow(30.0 * 40 * 50 * 60, 0.25)) < 1e-6);
	assert_int_equal(unixbench_combine(one, 1, &score, &time_s), 1);
	assert_true(fabs(score - 123.0) < EPS);
}

/* index = result / baseline * 10; context1's baseline is 4000 lps */
static void test_index(void **state)
{
	(void)state;
	assert_true(fabs(unixbench_index(4000.0, UB_CONTEXT1_BASELINE) - 10.0) < EPS);
	assert_true(fabs(unixbench_index(209740.4, UB_CONTEXT1_BASELINE) - 524.351) < EPS);
}

/* context1 1 on smp2: two COUNT lines within one of each other, a 1 s run */
static void test_context1_run(void **state)
{
	char err[256], a0[] = "context1", a1[] = "1";
	char *argv[] = { a0, a1, NULL };
	struct session_config cfg = { .machine = "smp2", .seed = 1, .argc = 2, .argv = argv };
	struct session s;
	struct bench *b;

	(void)state;
	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, true));
	b = s.bench;
	assert_int_equal(b->ub_nr_count, 2);
	assert_true(b->ub_count[0] > 10000);
	assert_true(b->ub_count[1] == b->ub_count[0] || b->ub_count[1] == b->ub_count[0] + 1);
	/* the alarm after 1 s, then the two exits */
	assert_true(b->stop_ns - b->start_ns >= NSEC_PER_SEC);
	assert_true(b->stop_ns - b->start_ns < NSEC_PER_SEC + NSEC_PER_MSEC);
	session_end(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_worst_third_geomean),
		cmocka_unit_test(test_dropped_by_count_not_rate),
		cmocka_unit_test(test_how_many_dropped),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_context1_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
