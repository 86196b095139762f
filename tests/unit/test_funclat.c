// SPDX-License-Identifier: GPL-2.0-only
/* --funclatency: bcc's log2 buckets, its histogram layout, and the avg line. */
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
		"\nFunction = try_to_wake_up\n"
		"     nsecs               : count     distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 1        |*************                           |\n"
		"         4 -> 7          : 3        |****************************************|\n"
		"\navg = 4 nsecs, total: 17 nsecs, count: 4\n";

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_print_layout),
		cmocka_unit_test(test_unknown_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
