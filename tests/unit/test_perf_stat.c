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

/* -e's names: perf's aliases, the tracepoints, the unsupported ones, and what perf refuses */
static void test_events(void **state)
{
	struct perf_stat_event ev;

	(void)state;
	assert_int_equal(perf_stat_event_lookup("cs,x", 2, &ev), 0);
	assert_int_equal(ev.id, PERF_EV_CONTEXT_SWITCHES);
	assert_string_equal(ev.name, "cs");
	assert_int_equal(perf_stat_event_lookup("sched:sched_switch", 18, &ev), 0);
	assert_int_equal(ev.id, PERF_EV_SCHED_SWITCH);
	assert_int_equal(perf_stat_event_lookup("page-faults", 11, &ev), 0);
	assert_int_equal(ev.id, PERF_EV_NOT_SUPPORTED);
	assert_int_equal(perf_stat_event_lookup("sched:sched_switc", 17, &ev), -1);
	assert_int_equal(perf_stat_event_lookup("bogus", 5, &ev), -1);
}

static void test_cpus(void **state)
{
	char err[128];
	bool *c;

	(void)state;
	c = perf_stat_parse_cpus("0,2-3", 4, err, sizeof(err));
	assert_non_null(c);
	assert_true(c[0] && !c[1] && c[2] && c[3]);
	free(c);
	assert_null(perf_stat_parse_cpus("4", 4, err, sizeof(err)));
	assert_non_null(strstr(err, "CPU 4 is not on this machine (CPUs 0-3)"));
	assert_null(perf_stat_parse_cpus("1-", 4, err, sizeof(err)));
	assert_null(perf_stat_parse_cpus("3-1", 4, err, sizeof(err)));
	assert_null(perf_stat_parse_cpus("", 4, err, sizeof(err)));
	assert_null(perf_stat_parse_cpus("1,", 4, err, sizeof(err)));
}

/* -x,: perf's CSV fields, a rate per second of the list's clock, <not supported> */
static void test_print_csv(void **state)
{
	struct perf_stat_config c = { .nr_events = 3, .csv_sep = "," };
	struct perf_stat_run r = { .elapsed_ns = 4000000, .task_clock_ns = 2000000 };
	struct perf_stat_summary s;
	char *out;

	(void)state;
	perf_stat_event_lookup("cs", 2, &c.events[0]);
	perf_stat_event_lookup("task-clock", 10, &c.events[1]);
	perf_stat_event_lookup("cycles", 6, &c.events[2]);
	r.val[0] = 3000;
	r.val[1] = 2000000;
	r.run_ns = 2000000;
	perf_stat_summary_init(&s, 1, false, false);
	s.config = &c;
	perf_stat_summary_add(&s, 0, &r);
	out = print(&s);
	assert_string_equal(out, "3000,,cs,2000000,100.00,1.500,M/sec\n"
				 "2.00,msec,task-clock,2000000,100.00,0.500,CPUs utilized\n"
				 "<not supported>,,cycles,0,100.00,,\n");
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
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_print_csv),
	};

	/* perf stat prints in the environment's locale: these are C's */
	setenv("LC_ALL", "C", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
