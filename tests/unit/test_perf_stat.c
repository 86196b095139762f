// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat's arithmetic and lines (report/perf_stat.c): the running mean
 * and standard error of tools/perf/util/stat.c, get_precision(), the
 * thousands separators of "%'18.0f", and the summary as perf prints it.
 */
#include "test_util.h"

#include "report/perf_stat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_stats(void **state)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct perf_stats s = { 0 };

	(void)state;
	assert_float_equal(perf_stats_stddev(&s), 0, 0);
	for (int i = 0; i < 8; i++)
		perf_stats_update(&s, x[i]);
	assert_float_equal(s.mean, 5.0, 1e-12);
	/* sample variance 32 / 7, of the mean / 8 */
	assert_float_equal(perf_stats_stddev(&s), sqrt(32.0 / 7 / 8), 1e-12);
	assert_float_equal(perf_stats_rel(1.0, 4.0), 25.0, 1e-12);
	assert_float_equal(perf_stats_rel(1.0, 0.0), 0.0, 0);
	s = (struct perf_stats){ 0 };
	perf_stats_update(&s, 3);
	assert_float_equal(perf_stats_stddev(&s), 0, 0);
}

static void test_precision(void **state)
{
	(void)state;
	assert_int_equal(perf_stat_precision(2.5), 0);
	assert_int_equal(perf_stat_precision(1.0), 0);	/* not above 1: ceil(-log10(1)) */
	assert_int_equal(perf_stat_precision(0.5), 1);
	assert_int_equal(perf_stat_precision(0.0201), 2);
	assert_int_equal(perf_stat_precision(0.00000357), 6);
	assert_int_equal(perf_stat_precision(0), 0);
}

/* in the C locale, as a test process runs, perf groups no digits */
static void test_group(void **state)
{
	char buf[64];

	(void)state;
	perf_stat_group(buf, sizeof(buf), 0, 0);
	assert_string_equal(buf, "0");
	perf_stat_group(buf, sizeof(buf), 999, 0);
	assert_string_equal(buf, "999");
	perf_stat_group(buf, sizeof(buf), 63991, 0);
	assert_string_equal(buf, "63991");
	perf_stat_group(buf, sizeof(buf), 1234567.5, 0);
	assert_string_equal(buf, "1234568");
	perf_stat_group(buf, sizeof(buf), 6715.4249, 2);
	assert_string_equal(buf, "6715.42");
}

static char *print(const struct perf_stat_summary *s)
{
	char *argv[] = { "hackbench", "-g", "1" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	perf_stat_print(f, s, 3, argv);
	fclose(f);
	return buf;
}

static void test_print_repeat(void **state)
{
	const struct perf_stat_run r[3] = {
		{ .elapsed_ns = 100000000, .task_clock_ns = 300000000, .context_switches = 1000,
		  .cpu_migrations = 10 },
		{ .elapsed_ns = 110000000, .task_clock_ns = 300000000, .context_switches = 2000,
		  .cpu_migrations = 20 },
		{ .elapsed_ns = 120000000, .task_clock_ns = 300000000, .context_switches = 3000,
		  .cpu_migrations = 30 },
	};
	struct perf_stat_summary s;
	char *out;

	(void)state;
	perf_stat_summary_init(&s, 3, false, false);
	for (int i = 0; i < 3; i++)
		perf_stat_summary_add(&s, i, &r[i]);
	out = print(&s);
	/*
	 * elapsed 0.11 s, sd of the mean 0.01 / sqrt(3) = 0.005774 s:
	 * precision 3 + 2; task-clock the same each run: no noise column
	 */
	assert_string_equal(out,
		"\n Performance counter stats for 'hackbench -g 1' (3 runs):\n\n"
		"            300.00 msec task-clock                       #    2.727 CPUs utilized             \n"
		"              2000      context-switches                 #    6.667 K/sec                       ( +- 28.87% )\n"
		"                20      cpu-migrations                   #   66.667 /sec                        ( +- 28.87% )\n"
		"   <not supported>      page-faults                                                           \n"
		"\n"
		"           0.11000 +- 0.00577 seconds time elapsed  ( +-  5.25% )\n\n");
	free(out);
	perf_stat_summary_free(&s);

	/*
	 * --null: no counters and no blank line before the elapsed one;
	 * --table: 1 + |(int)(100 (run - avg) / run) / 5| marks, in floating
	 * point as perf computes it (-9.99..% for the first run: 2 marks)
	 */
	perf_stat_summary_init(&s, 3, true, true);
	for (int i = 0; i < 3; i++)
		perf_stat_summary_add(&s, i, &r[i]);
	out = print(&s);
	assert_string_equal(out,
		"\n Performance counter stats for 'hackbench -g 1' (3 runs):\n\n"
		"           # Table of individual measurements:\n"
		"           0.10000 (-0.01000) ##\n"
		"           0.11000 (+0.00000) #\n"
		"           0.12000 (+0.01000) ##\n"
		"\n           # Final result:\n"
		"           0.11000 +- 0.00577 seconds time elapsed  ( +-  5.25% )\n\n");
	free(out);
	perf_stat_summary_free(&s);
}

static void test_print_single(void **state)
{
	const struct perf_stat_run r = {
		.elapsed_ns = 123456789, .task_clock_ns = 2000000, .context_switches = 4,
		.cpu_migrations = 0, .utime_ns = 1500999, .stime_ns = 499001,
	};
	struct perf_stat_summary s;
	char *out;

	(void)state;
	perf_stat_summary_init(&s, 1, true, false);
	perf_stat_summary_add(&s, 0, &r);
	out = print(&s);
	/* one run: no "(N runs)", the rusage lines in microseconds */
	assert_string_equal(out,
		"\n Performance counter stats for 'hackbench -g 1':\n\n"
		"       0.123456789 seconds time elapsed\n\n"
		"       0.001500000 seconds user\n"
		"       0.000499000 seconds sys\n\n\n");
	free(out);
	perf_stat_summary_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_precision),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_print_repeat),
		cmocka_unit_test(test_print_single),
	};

	/* perf stat prints in the environment's locale: these are C's */
	setenv("LC_ALL", "C", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
