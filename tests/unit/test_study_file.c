// SPDX-License-Identifier: GPL-2.0-only
/* Study files: the directives, the errors with their line numbers, and the packaged studies. */
#include "test_util.h"

#include "cli/study_file.h"

#include <string.h>

static const char good[] = "# a comment\n"
			   "name demo\n"
			   "title A demo (abc123)\n"
			   "\n"
			   "variant before NO_SM_IDLE\n"
			   "variant after -\n"
			   "machine smp2 smp4\n"
			   "machine smt2-2s-16\n"
			   "workload hackbench -g 1 -l 10\n"
			   "workload  perf bench sched pipe -l 100  \n"
			   "quick-machine smp2\n"
			   "metric time_s sched.ipi_sent\n"
			   "runs 7\n"
			   "option funclatency should_we_balance\n"
			   "note first\n"
			   "note second";

static void test_parse_good(void **state)
{
	struct study_def d;
	char err[256];

	(void)state;
	assert_int_equal(study_parse("demo.study", good, &d, err, sizeof(err)), 0);
	assert_string_equal(d.name, "demo");
	assert_string_equal(d.title, "A demo (abc123)");
	assert_int_equal(d.nr_variants, 2);
	assert_string_equal(d.variant_name[0], "before");
	assert_string_equal(d.variant_features[0], "NO_SM_IDLE");
	assert_string_equal(d.variant_features[1], ""); /* '-': the defaults */
	assert_int_equal(d.top.machines.n, 3);
	assert_string_equal(d.top.machines.v[2], "smt2-2s-16");
	assert_int_equal(d.top.workloads.n, 2);
	assert_string_equal(d.top.workloads.v[1], "perf bench sched pipe -l 100");
	assert_int_equal(d.top.quick_machines.n, 1);
	assert_int_equal(d.top.quick_workloads.n, 0);
	assert_int_equal(d.metrics.n, 2);
	assert_string_equal(d.metrics.v[1], "sched.ipi_sent");
	assert_int_equal(d.runs, 7);
	assert_string_equal(d.top.opt_names.v[0], "funclatency");
	assert_string_equal(d.top.opt_values.v[0], "should_we_balance");
	assert_int_equal(d.notes.n, 2);
	assert_string_equal(d.notes.v[1], "second");
	assert_false(d.top.perf_stat_runner);
	study_free(&d);
}

static void expect_error(const char *text, const char *msg)
{
	struct study_def d;
	char err[256];

	assert_int_equal(study_parse("x.study", text, &d, err, sizeof(err)), -1);
	if (!strstr(err, msg))
		fail_msg("error '%s' lacks '%s'", err, msg);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("name a\nbogus 1\n", "x.study:2: unknown directive 'bogus'");
	expect_error("name a\nname b\n", "x.study:2: 'name' given twice");
	expect_error("variant onlyname\n", "x.study:1: 'variant' needs a name and a feature list");
	expect_error("variant a -\nvariant a X\n", "x.study:2: variant 'a' given twice");
	expect_error("runs 1\n", "x.study:1: 'runs' needs an integer from 2");
	expect_error("runs many\n", "'runs' needs an integer");
	expect_error("option trace x\n", "x.study:1: unknown option 'trace'");
	expect_error("option hz\n", "option 'hz' needs a value");
	expect_error("metric\n", "x.study:1: 'metric' needs a value");
	expect_error("runner perf\n", "x.study:1: unknown runner 'perf' (perf-stat)");
	expect_error("runner\n", "x.study:1: 'runner' needs a value");
	expect_error("runner perf-stat\nrunner perf-stat\n", "x.study:2: 'runner' given twice");
	expect_error("name a\ntitle t\nvariant a -\n",
		     "x.study: the study has no two 'variant' lines");
	expect_error("name a\ntitle t\nvariant a -\nvariant b X\nworkload w\nmetric m\n",
		     "the study has no 'machine'");
	/* 'case' groups */
	expect_error("case\n", "x.study:1: 'case' needs a machine");
	expect_error("machine smp2\ncase smp4\n",
		     "x.study:2: 'case' in a study with machine, workload, quick-machine or quick-workload lines outside 'case' groups");
	expect_error("quick-workload w\n\ncase smp4\n", "x.study:3: 'case' in a study with machine");
	expect_error("case smp2\nworkload w\nmachine smp4\n",
		     "x.study:3: 'machine' inside the 'case' group of line 1: name a group's machines on its 'case' line");
	expect_error("case smp2\nrunner perf-stat\nrunner perf-stat\n", "x.study:3: 'runner' given twice");
	expect_error("case smp2\noption cpufreq\n", "x.study:2: option 'cpufreq' needs a value");
	expect_error("name a\ntitle t\nvariant a -\nvariant b X\nmetric m\ncase smp2\nworkload w\n\ncase smp4\noption hz 100\n",
		     "x.study:9: the 'case' group has no 'workload' line");
}

/* 'case' groups: their own machines, workloads, quick forms, options and runner */
static void test_case_groups(void **state)
{
	static const char text[] = "name g\n"
				   "title G\n"
				   "variant a -\n"
				   "variant b NO_SM_IDLE\n"
				   "option hz 1000\n"
				   "case smp2 smp4\n"
				   "\toption cpufreq schedutil\n"
				   "\tworkload hackbench -g 1 -l 10\n"
				   "\tquick-machine smp2\n"
				   "\trunner perf-stat\n"
				   "metric time_s\n"
				   "case pixel6\n"
				   "\tworkload jankbench\n"
				   "\tworkload jankbench -f 60\n"
				   "\tquick-workload jankbench -t list_view\n";
	const struct study_group *groups;
	struct study_def d;
	char err[256];
	int n;

	(void)state;
	assert_int_equal(study_parse("g.study", text, &d, err, sizeof(err)), 0);
	groups = study_groups(&d, &n);
	assert_int_equal(n, 2);
	/* the study-wide option stays study-wide; the group's are its own */
	assert_int_equal(d.top.opt_names.n, 1);
	assert_string_equal(d.top.opt_names.v[0], "hz");
	assert_int_equal(groups[0].line, 6);
	assert_int_equal(groups[0].machines.n, 2);
	assert_string_equal(groups[0].machines.v[1], "smp4");
	assert_string_equal(groups[0].opt_names.v[0], "cpufreq");
	assert_string_equal(groups[0].opt_values.v[0], "schedutil");
	assert_true(groups[0].perf_stat_runner);
	assert_int_equal(groups[0].quick_machines.n, 1);
	/* 'metric' between groups is study-wide */
	assert_int_equal(d.metrics.n, 1);
	assert_int_equal(groups[1].workloads.n, 2);
	assert_int_equal(groups[1].opt_names.n, 0);
	assert_false(groups[1].perf_stat_runner);
	assert_string_equal(groups[1].quick_workloads.v[0], "jankbench -t list_view");
	study_free(&d);

	/* without 'case' lines, the study-wide lines are the one group */
	assert_int_equal(study_parse("demo.study", good, &d, err, sizeof(err)), 0);
	assert_ptr_equal(study_groups(&d, &n), &d.top);
	assert_int_equal(n, 1);
	study_free(&d);
}

static void test_runner(void **state)
{
	struct study_def d;
	char text[1024], err[256];

	(void)state;
	snprintf(text, sizeof(text), "%s\nrunner perf-stat\n", good);
	assert_int_equal(study_parse("demo.study", text, &d, err, sizeof(err)), 0);
	assert_true(d.top.perf_stat_runner);
	study_free(&d);
}

static void test_split_words(void **state)
{
	struct strlist w;

	(void)state;
	split_words("  hackbench\t-g 1  ", &w);
	assert_int_equal(w.n, 3);
	assert_string_equal(w.v[0], "hackbench");
	assert_string_equal(w.v[2], "1");
	assert_null(w.v[3]); /* an argv */
	strlist_free(&w);
}

static void test_packaged_studies_parse(void **state)
{
	(void)state;
	assert_true(nr_embedded_studies >= 4);
	for (int i = 0; i < nr_embedded_studies; i++) {
		const struct study_group *groups;
		struct study_def d;
		char err[256];
		int nr_groups;

		if (study_parse(embedded_studies[i].path, embedded_studies[i].text, &d, err,
				sizeof(err)))
			fail_msg("%s", err);
		/* the file name is the study's name, and every group has a quick form */
		assert_string_equal(d.name, embedded_studies[i].name);
		groups = study_groups(&d, &nr_groups);
		for (int g = 0; g < nr_groups; g++)
			assert_true(groups[g].quick_machines.n > 0 || groups[g].quick_workloads.n > 0);
		study_free(&d);
	}
}

/* idle-balance: five variants, both Westmere-EX machines, 1/2/4/8 sockets by taskset */
static void test_idle_balance_study(void **state)
{
	const char *text = NULL;
	struct study_def d;
	char err[256];
	int sockets[4] = { 0 };

	(void)state;
	for (int i = 0; i < nr_embedded_studies; i++)
		if (!strcmp(embedded_studies[i].name, "idle-balance"))
			text = embedded_studies[i].text;
	assert_non_null(text);
	if (study_parse("idle-balance.study", text, &d, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(d.nr_variants, 5);
	assert_string_equal(d.variant_name[0], "v3.10");
	/*
	 * the 2013 kernels' newidle settings (no overload check before v3.17,
	 * v3.10's avg_idle), with their locks, menu multiplier (v3.10's) and
	 * wakeups (the waker spins on an on-CPU wakee; no same-LLC wakelist)
	 */
	assert_string_equal(d.variant_features[1],
			    "NO_NEWIDLE_COST,NEWIDLE_MIGRATION_COST_BAILOUT,NEWIDLE_RATE_LIMIT,"
			    "NO_AVG_IDLE_AVG_FIRST,NO_RWSEM_SPIN_ON_OWNER,NO_I_MMAP_RWSEM,NO_I_RWSEM,"
			    "NO_MUTEX_HANDOFF,NO_RWSEM_HANDOFF,NO_RWSEM_WAKE_ALL_READERS,MENU_LOAD_MULT,"
			    "MENU_IOWAIT_MULT,NO_CPU_LOAD_RUNNABLE_AVG,NO_NEWIDLE_OVERLOAD_CHECK,"
			    "NO_TTWU_QUEUE_ON_CPU,NO_TTWU_QUEUE_IDLE");
	assert_string_equal(d.variant_features[3], "");
	assert_string_equal(d.variant_features[4], "NI_RANDOM");
	assert_int_equal(d.top.machines.n, 2);
	assert_string_equal(d.top.machines.v[0], "westmere-ex-8s-160");
	assert_string_equal(d.top.machines.v[1], "westmere-ex-8s-80-noht");
	for (int i = 0; i < d.top.workloads.n; i++) {
		const char *w = d.top.workloads.v[i];

		assert_non_null(strstr(w, "reaim -s 1100 -e 2000"));
		if (!strncmp(w, "taskset -c 0-9,80-89 ", 21))
			sockets[0]++;
		else if (!strncmp(w, "taskset -c 0-19,80-99 ", 22))
			sockets[1]++;
		else if (!strncmp(w, "taskset -c 0-39,80-119 ", 23))
			sockets[2]++;
		else if (!strncmp(w, "reaim ", 6))
			sockets[3]++;
		else
			fail_msg("unexpected workload '%s'", w);
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(sockets[i], 3);
	assert_string_equal(d.metrics.v[0], "mean_jobs_per_min");
	study_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_runner),
		cmocka_unit_test(test_case_groups),
		cmocka_unit_test(test_split_words),
		cmocka_unit_test(test_packaged_studies_parse),
		cmocka_unit_test(test_idle_balance_study),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
