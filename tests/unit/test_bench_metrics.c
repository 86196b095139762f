// SPDX-License-Identifier: GPL-2.0-only
/* bench_metric_names() lists what bench_finish() reports, for every benchmark. */
#include "test_util.h"

#include "work/bench.h"

#include <string.h>

static void check_names(const char *cmdline)
{
	char buf[256], *argv[16], err[256];
	const char *const *names;
	struct bench *b;
	int argc = 0, n = 0;

	snprintf(buf, sizeof(buf), "%s", cmdline);
	for (char *w = strtok(buf, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	b = bench_parse(argc, argv, err, sizeof(err));
	assert_non_null(b);
	/* only the names matter here: finish it as if it had run */
	b->stopped = true;
	b->nr_workers = 1;
	assert_true(bench_finish(b));
	names = bench_metric_names(b);
	for (; names[n]; n++) {
		assert_true(n < b->nr_metrics);
		assert_string_equal(names[n], b->metrics[n].name);
	}
	assert_int_equal(n, b->nr_metrics);
	bench_free(b);
}

static void test_names_match_finish(void **state)
{
	(void)state;
	check_names("hackbench -g 1 -l 5");
	check_names("perf bench sched messaging -t -g 1 -l 5");
	check_names("perf bench sched pipe -l 5");
	check_names("perf bench -r 2 futex wake -t 3");
	check_names("jankbench -t list_view -f 5");
	check_names("stress-ng --cpu 2 --timeout 1");
	check_names("ipistorm numipi=10");
	check_names("context1 1");
	check_names("unixbench context1 -i 2 -c 2");
	check_names("schbench-2016 -m 1 -t 2 -r 1");
	check_names("schbench -m 1 -t 2 -r 1");
	check_names("schbench -m 1 -t 2 -r 1 -p 4096");
	check_names("reaim -s 1 -e 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_match_finish),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
