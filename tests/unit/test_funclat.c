// SPDX-License-Identifier: GPL-2.0-only
/*
 * --funclatency: bcc's log2 buckets, its histogram layout, the avg line,
 * and funclatency's command line (-u, -m, -F, -T, -r, -i, -d).
 */
#include "test_util.h"

#include "kernel/funclat.h"
#include "report/funclat_print.h"

#include <stdlib.h>

static void test_buckets(void **state)
{
	(void)state;
	funclat_reset();
	assert_int_equal(funclat_enable("__schedule", NULL, 0), 0);
	funclat_record(FL___schedule, 0);	/* bucket 1: 0 -> 1 */
	funclat_record(FL___schedule, 1);	/* bucket 1 */
	funclat_record(FL___schedule, 2);	/* bucket 2: 2 -> 3 */
	funclat_record(FL___schedule, 511);	/* bucket 9: 256 -> 511 */
	funclat_record(FL___schedule, 512);	/* bucket 10 */
	assert_int_equal(funclat[FL___schedule].hist[1], 2);
	assert_int_equal(funclat[FL___schedule].hist[2], 1);
	assert_int_equal(funclat[FL___schedule].hist[9], 1);
	assert_int_equal(funclat[FL___schedule].hist[10], 1);
	assert_int_equal(funclat[FL___schedule].calls, 5);
	assert_int_equal(funclat[FL___schedule].total_ns, 1026);
	assert_false(funclat[FL_try_to_wake_up].enabled);
}

static void test_print_layout(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static const char want[] =
		"Tracing 1 functions for \"try_to_wake_up\"... Hit Ctrl-C to end.\n"
		"\n"
		"     nsecs               : count     distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 1        |*************                           |\n"
		"         4 -> 7          : 3        |****************************************|\n"
		"\navg = 4 nsecs, total: 17 nsecs, count: 4\n\n"
		"Detaching...\n";

	(void)state;
	funclat_reset();
	assert_int_equal(funclat_enable("try_to_wake_up", NULL, 0), 0);
	funclat_record(FL_try_to_wake_up, 2);
	funclat_record(FL_try_to_wake_up, 5);
	funclat_record(FL_try_to_wake_up, 5);
	funclat_record(FL_try_to_wake_up, 5);
	funclat_print(f);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

static void test_unknown_function(void **state)
{
	char err[256];

	(void)state;
	funclat_reset();
	assert_int_equal(funclat_enable("__schedule,nosuch", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown function 'nosuch'"));
}

/* -u: bcc divides each time by 1000 before bpf_log2l(), and the sum only for the avg line */
static void test_usecs_and_per_function(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	static const char want[] =
		"Tracing 2 functions for \"sched_balance_r*,__schedule\"... Hit Ctrl-C to end.\n"
		"\n"
		"\nFunction = __schedule\n"
		"     usecs               : count     distribution\n"
		"         0 -> 1          : 1        |****************************************|\n"
		"\nFunction = sched_balance_rq\n"
		"     usecs               : count     distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 1        |****************************************|\n"
		"\navg = 2 usecs, total: 4 usecs, count: 2\n\n"
		"Detaching...\n";

	(void)state;
	funclat_reset();
	assert_int_equal(funclat_enable("-u -F sched_balance_r*,__schedule", NULL, 0), 0);
	assert_int_equal(funclat_opts.matched, 2);
	assert_true(funclat[FL_sched_balance_rq].enabled);
	funclat_record(FL___schedule, 1999);		/* 1 usec: bucket 1 */
	funclat_record(FL_sched_balance_rq, 2999);	/* 2 usecs: bucket 2 */
	assert_int_equal(funclat[FL___schedule].hist[1], 1);
	assert_int_equal(funclat[FL_sched_balance_rq].hist[2], 1);
	f = open_memstream(&buf, &len);
	funclat_print(f);
	fclose(f);
	/* avg = 4998 / 1000 / 2 = 2 (truncated), total 4998 / 1000 = 4 */
	assert_string_equal(buf, want);
	free(buf);
}

/* bpf_log2l() at the edges: bucket k holds [2^(k-1), 2^k), 0 and 1 in bucket 1 */
static void test_log2l(void **state)
{
	(void)state;
	assert_int_equal(funclat_log2l(0), 1);
	assert_int_equal(funclat_log2l(1), 1);
	assert_int_equal(funclat_log2l(2), 2);
	assert_int_equal(funclat_log2l(3), 2);
	assert_int_equal(funclat_log2l(4), 3);
	assert_int_equal(funclat_log2l(1023), 10);
	assert_int_equal(funclat_log2l(1024), 11);
	assert_int_equal(funclat_log2l(1ULL << 32), 33);
	assert_int_equal(funclat_log2l(UINT64_MAX), 64);
}

/* above bucket 32 the layout widens to 20-digit columns and 20 stars */
static void test_wide_layout(void **state)
{
	u64 hist[FUNCLAT_BUCKETS] = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	hist[33] = 2;
	funclat_print_log2_hist(f, hist, "nsecs");
	fclose(f);
	assert_non_null(strstr(buf, "               nsecs                         : count     distribution\n"));
	assert_non_null(strstr(buf, "\n          4294967296 -> 8589934591           : 2        |********************|\n"));
	free(buf);
}

/* funclatency's options: combined letters, values attached or apart, long forms */
static void test_options(void **state)
{
	char err[256];

	(void)state;
	funclat_reset();
	assert_int_equal(funclat_enable("-mTi 5 sched_tick", err, sizeof(err)), 0);
	assert_int_equal(funclat_opts.unit_ns, 1000000);
	assert_string_equal(funclat_opts.unit, "msecs");
	assert_true(funclat_opts.timestamp);
	assert_int_equal(funclat_opts.interval_ns, 5000000000ULL);
	assert_int_equal(funclat_opts.until_ns, UINT64_MAX);
	funclat_reset();
	/* -d 5 with -i 2: bcc sleeps 2, 4, 6 and exits after the third */
	assert_int_equal(funclat_enable("--interval=2 -d5 -r sched_balance_(rq|newidle)", err,
					sizeof(err)), 0);
	assert_int_equal(funclat_opts.until_ns, 6000000000ULL);
	assert_int_equal(funclat_opts.matched, 2);
	assert_true(funclat_opts.regexp);
	funclat_reset();
	/* -d alone is also the interval */
	assert_int_equal(funclat_enable("-d 0.5 __schedule", err, sizeof(err)), 0);
	assert_int_equal(funclat_opts.interval_ns, 500000000ULL);
	assert_int_equal(funclat_opts.until_ns, 500000000ULL);
	funclat_reset();
	assert_int_equal(funclat_enable("-l 2 __schedule", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "-l is not modelled"));
	funclat_reset();
	assert_int_equal(funclat_enable("-i -1 __schedule", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "-i needs a number of seconds above 0"));
	funclat_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_print_layout),
		cmocka_unit_test(test_unknown_function),
		cmocka_unit_test(test_usecs_and_per_function),
		cmocka_unit_test(test_log2l),
		cmocka_unit_test(test_wide_layout),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
