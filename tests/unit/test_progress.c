// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_progress(), what the progress line shows: the furthest of a count
 * of units (messages, round trips, IPIs, bogo ops, passes), the simulated
 * time against a timeout, and a known length of simulated time (UnixBench
 * context1 and Run's passes, which a count of passes alone left at 0%
 * for a whole pass).
 */
#include "test_util.h"

#include "work/bench.h"

#include <math.h>

#define EPS 1e-9

static void test_count(void **state)
{
	struct bench b = { .progress_total = 200, .progress_done = 50 };

	(void)state;
	assert_true(fabs(bench_progress(&b, 0) - 0.25) < EPS);
	b.progress_total = 0;
	/* nothing known: no percentage */
	assert_true(bench_progress(&b, 0) < 0);
}

/* ipistorm: numipi from each thread ends it long before its 30 s timeout */
static void test_count_or_timeout(void **state)
{
	struct bench b = { .progress_total = 1000, .progress_done = 600, .timeout_ns = 30 * NSEC_PER_SEC,
			   .started = true, .start_ns = NSEC_PER_SEC };

	(void)state;
	assert_true(fabs(bench_progress(&b, 2 * NSEC_PER_SEC) - 0.6) < EPS);
	/* stress-ng --cpu-ops with --timeout: whichever is further */
	b.progress_done = 10;
	assert_true(fabs(bench_progress(&b, 16 * NSEC_PER_SEC) - 0.5) < EPS);
	assert_true(fabs(bench_progress(&b, 100 * NSEC_PER_SEC) - 1.0) < EPS);
}

/* unixbench context1 -i 1 -c 2: one pass of 13 s counted as one unit */
static void test_span(void **state)
{
	struct bench b = { .progress_total = 1, .progress_done = 0, .started = true,
			   .start_ns = 0, .progress_span_ns = 13 * NSEC_PER_SEC };

	(void)state;
	assert_true(fabs(bench_progress(&b, 6500 * NSEC_PER_MSEC) - 0.5) < EPS);
	/* a length of time cannot say the run is done; the count can */
	assert_true(fabs(bench_progress(&b, 14 * NSEC_PER_SEC) - 0.99) < EPS);
	b.progress_done = 1;
	assert_true(fabs(bench_progress(&b, 14 * NSEC_PER_SEC) - 1.0) < EPS);
	/* not started: the time measures wait */
	b.progress_done = 0;
	b.started = false;
	assert_true(fabs(bench_progress(&b, 6500 * NSEC_PER_MSEC)) < EPS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_count_or_timeout),
		cmocka_unit_test(test_span),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
