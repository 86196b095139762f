// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab validate on recorded outputs: perf stat -x, CSV and the
 * benchmarks' own lines parsed, real runs against the simulated one in the
 * table, skipped rows named with their package.
 */
#include "test_util.h"

#include "calib/validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* perf stat -e context-switches,cpu-migrations,task-clock -x, -o F -- perf bench sched pipe -l 1000 */
static const char real_pipe[] = "# Running 'sched/pipe' benchmark:\n"
				"# Executed 1000 pipe operations between two processes\n"
				"\n"
				"     Total time: 0.007 [sec]\n"
				"\n"
				"       7.870000 usecs/op\n"
				"         127064 ops/sec\n"
				"# started on Sun Dec  6 00:27:13 2026\n"
				"\n"
				"2003,,context-switches,13509641,100.00,148.264,K/sec\n"
				"0,,cpu-migrations,13509641,100.00,0.000,/sec\n"
				"13.51,msec,task-clock,13509641,100.00,0.282,CPUs utilized\n";

/* schedlab run -m host -- perf stat -e ... -x, perf bench sched pipe -l 1000 */
static const char sim_pipe[] = "# Running 'sched/pipe' benchmark:\n"
			       "# Executed 1000 pipe operations between two processes\n"
			       "\n"
			       "     Total time: 0.010 [sec]\n"
			       "\n"
			       "      10.246000 usecs/op\n"
			       "          97599 ops/sec\n"
			       "1999,,context-switches,5970581,100.00,334.808,K/sec\n"
			       "0,,cpu-migrations,5970581,100.00,0.000,/sec\n"
			       "5.97,msec,task-clock,5970581,100.00,0.581,CPUs utilized\n";

/* rt-tests hackbench, and a counter perf could not count */
static const char real_hackbench[] =
	"Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)\n"
	"Each sender will pass 200 messages of 100 bytes\n"
	"Time: 0.125\n"
	"7863,,context-switches,226137994,100.00,34.771,K/sec\n"
	"<not supported>,,cpu-migrations,0,100.00,,\n"
	"226.14,msec,task-clock,226137994,100.00,0.777,CPUs utilized\n";

static void test_parse(void **state)
{
	struct validate_sample s;

	(void)state;
	assert_int_equal(validate_parse(real_pipe, 0.5, &s), 0);
	assert_true(fabs(s.time_s - 0.007) < 1e-9);
	assert_true(s.cs == 2003 && s.migr == 0);
	assert_true(fabs(s.task_ms - 13.51) < 1e-9);
	assert_int_equal(validate_parse(real_hackbench, NAN, &s), 0);
	assert_true(fabs(s.time_s - 0.125) < 1e-9);
	assert_true(isnan(s.migr));
	/* no time printed: the wall time */
	assert_int_equal(validate_parse("12,,context-switches,1,100.00,,\n", 1.5, &s), 0);
	assert_true(s.time_s == 1.5 && s.cs == 12);
	assert_int_equal(validate_parse("nothing here\n", NAN, &s), -1);
	/* stress-ng's summary line */
	assert_int_equal(
		validate_parse("stress-ng: info:  [12] successful run completed in 1.02 secs\n",
			       NAN, &s),
		0);
	assert_true(fabs(s.time_s - 1.02) < 1e-9);
	/* stress-ng --metrics-brief: the stressor's real time wins over the rounded summary */
	assert_int_equal(
		validate_parse(
			"stress-ng: metrc: [28752] stressor       bogo ops real time  usr time\n"
			"stress-ng: metrc: [28752] switch           100000      1.07      0.03\n"
			"stress-ng: metrc: [28752] miscellaneous metrics:\n"
			"stress-ng: metrc: [28752] switch   10628.64 nanosecs per context switch\n"
			"stress-ng: info:  [28752] successful run completed in 1s\n",
			NAN, &s),
		0);
	assert_true(fabs(s.time_s - 1.07) < 1e-9);
}

static const char want_table[] =
	"benchmark                                                        real s, median [min, max] sim s, median [min, max]   ratio    cs real    cs sim  mig real mig sim    task ms       sim\n"
	"taskset -c 0 perf bench sched pipe -l 1000                       0.007 [0.006, 0.009]      0.011 [0.010, 0.012]        1.57       2003      2000        0       0       13.5       6.0\n"
	"hackbench -g 1 -l 200                                            0.125 [0.125, 0.125]      -                              -       7863         -        -       -      226.1         -\n"
	"                                                                   (simulated: exit status 2: schedlab: bad)\n"
	"stress-ng --switch 1                                             skipped: stress-ng not installed (Debian package stress-ng)\n"
	"ratio: simulated median / real median of the benchmark's own time; cs: context\n"
	"switches, mig: CPU migrations, task ms: task-clock (perf stat -e context-switches,cpu-migrations,task-clock):\n"
	"medians of the real runs and of the simulated runs (seeds 1, 2, ...)\n"
	/* the target: a row that failed to simulate or was skipped counts in neither */
	"target (docs/calibration.md), simulated / real medians:\n"
	"  pinned time within +-20%: 0 of 1 rows; missed:\n"
	"    taskset -c 0 perf bench sched pipe -l 1000                       1.57\n"
	"  unpinned time within +-35%: 0 of 0 rows\n"
	"  context switches within +-30%: 1 of 1 rows\n";

static void test_table(void **state)
{
	static const struct validate_row rows[] = {
		{ "taskset -c 0 perf bench sched pipe -l 1000", NULL, true },
		{ "hackbench -g 1 -l 200", "hackbench", false },
		{ "stress-ng --switch 1", "stress-ng", false },
	};
	struct validate_result res[3] = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	/* three real runs of the pipe row: 0.007, 0.006, 0.009 s */
	validate_parse(real_pipe, NAN, &res[0].real[0]);
	res[0].real[1] = res[0].real[0];
	res[0].real[1].time_s = 0.006;
	res[0].real[2] = res[0].real[0];
	res[0].real[2].time_s = 0.009;
	res[0].nr_real = 3;
	/* two simulated seeds: 0.010 and 0.012 s; the ratio is of the medians */
	assert_int_equal(validate_parse(sim_pipe, NAN, &res[0].sim[0]), 0);
	res[0].sim[1] = res[0].sim[0];
	res[0].sim[1].time_s = 0.012;
	res[0].sim[1].cs = 2001;
	res[0].nr_sim = 2;
	res[0].sim_ok = true;
	validate_parse(real_hackbench, NAN, &res[1].real[0]);
	res[1].nr_real = 1;
	snprintf(res[1].why, sizeof(res[1].why), "exit status 2: schedlab: bad");
	res[2].skipped = true;
	snprintf(res[2].why, sizeof(res[2].why), "stress-ng not installed (Debian package %s)",
		 validate_package("stress-ng"));
	f = open_memstream(&text, &len);
	validate_print_table(f, rows, res, 3);
	fclose(f);
	if (strcmp(text, want_table))
		fail_msg("got\n%s\nwant\n%s", text, want_table);
	free(text);
	/* and the JSON of the same */
	f = open_memstream(&text, &len);
	assert_int_equal(validate_write_json(f, rows, res, 3, "host.costs", "WAKEUP_PREEMPT_EEVDF"), 0);
	assert_non_null(strstr(text, "\"features\": \"WAKEUP_PREEMPT_EEVDF\""));
	fclose(f);
	assert_non_null(strstr(text, "\"ratio\": 1.57142"));
	assert_non_null(strstr(text, "\"sim_median_s\": 0.011"));
	assert_non_null(strstr(text, "\"skipped\": \"stress-ng not installed"));
	assert_non_null(strstr(text, "\"sim\": null"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
