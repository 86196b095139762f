// SPDX-License-Identifier: GPL-2.0-only
/* The run pool's bookkeeping: how many runs a comparison may plan, how a run's end maps to the exit status. */
#include "test_util.h"

#include "cli/runpool.h"

#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>

static void test_run_count(void **state)
{
	const size_t ok[] = { 2, 3, 8, 5 };
	const size_t at_limit[] = { 10, 10000 };
	const size_t over[] = { 10, 10001 };
	/* issue 10: 65,537 machines x 8 variants x 8192 runs wrapped an int */
	const size_t wraps_int[] = { 65537, 1, 8, 8192 };
	const size_t wraps_size[] = { SIZE_MAX / 2, 3 };
	size_t total;

	(void)state;
	assert_int_equal(run_pool_count(ok, 4, &total), 0);
	assert_int_equal(total, 240);
	assert_int_equal(run_pool_count(at_limit, 2, &total), 0);
	assert_int_equal(total, RUN_POOL_MAX_RUNS);
	assert_int_equal(run_pool_count(over, 2, &total), -1);
	assert_int_equal(total, 100010);
	assert_int_equal(run_pool_count(wraps_int, 4, &total), -1);
	assert_int_equal(total, 4295032832ULL);
	assert_int_equal(run_pool_count(wraps_size, 2, &total), -1);
	assert_int_equal(total, SIZE_MAX);
	assert_int_equal(run_pool_count(ok, 0, &total), 0);
	assert_int_equal(total, 1);
}

/* issue 10: the checker's 3 came back as 1 with -j 2 */
static void test_exit_status(void **state)
{
	char what[128];

	(void)state;
	what[0] = '\0';
	assert_int_equal(run_pool_exit_status(W_EXITCODE(0, 0), what, sizeof(what)), 0);
	assert_string_equal(what, "");
	assert_int_equal(run_pool_exit_status(W_EXITCODE(EXIT_CHECK_FAILED, 0), what,
					      sizeof(what)),
			 3);
	assert_string_equal(what, "failed the invariant check (--check)");
	assert_int_equal(run_pool_exit_status(W_EXITCODE(1, 0), what, sizeof(what)), 1);
	assert_string_equal(what, "failed (exit status 1)");
	assert_int_equal(run_pool_exit_status(W_EXITCODE(2, 0), what, sizeof(what)), 1);
	assert_string_equal(what, "failed (exit status 2)");
	assert_int_equal(run_pool_exit_status(W_EXITCODE(0, SIGSEGV), what, sizeof(what)), 1);
	assert_non_null(strstr(what, "died of signal 11"));
	assert_int_equal(run_pool_exit_status(W_EXITCODE(0, SIGKILL), what, sizeof(what)), 1);
	assert_non_null(strstr(what, "died of signal 9"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_count),
		cmocka_unit_test(test_exit_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
