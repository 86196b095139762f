// SPDX-License-Identifier: GPL-2.0-only
/*
 * reaim (work/bench_reaim.c): workfiles as driver.c reads them, runloop()'s
 * share of jobs per test, its jobs/min, per-child and JTI arithmetic, and
 * the job models run on small machines.
 */
#include "test_util.h"

#include "cli/session.h"
#include "work/bench.h"
#include "work/reaim.h"
#include "work/work.h"

#include <stdlib.h>
#include <unistd.h>

static unsigned int hits_of(const struct reaim_workfile *wf, const char *name)
{
	const struct reaim_job *j = reaim_job_find(name);

	assert_non_null(j);
	return wf->hits[j - reaim_jobs];
}

static void test_workfile_good(void **state)
{
	struct reaim_workfile wf;
	char err[256];

	(void)state;
	assert_int_equal(
		reaim_workfile_parse(
			"w",
			"# a comment\n20  add_int\n10 fork_test\n\nFILESIZE: 10K\nPOOLSIZE: 1M\n30 add_int\n",
			&wf, err, sizeof(err)),
		0);
	/* check_name(): the last weight of a repeated test; the total counts both */
	assert_int_equal(hits_of(&wf, "add_int"), 30);
	assert_int_equal(hits_of(&wf, "fork_test"), 10);
	assert_int_equal(hits_of(&wf, "sieve"), 0);
	assert_int_equal(wf.total_hits, 60);
	assert_int_equal(wf.filesize_kb, 10);
	assert_int_equal(wf.poolsize_kb, 1024);
	assert_true(wf.has_filesize && wf.has_poolsize);
	reaim_workfile_free(&wf);
}

static void expect_error(const char *text, const char *msg)
{
	struct reaim_workfile wf;
	char err[256];

	assert_int_equal(reaim_workfile_parse("mix.wf", text, &wf, err, sizeof(err)), -1);
	if (!strstr(err, msg))
		fail_msg("'%s' not in '%s'", msg, err);
	assert_null(wf.hits);
}

static void test_workfile_errors(void **state)
{
	(void)state;
	expect_error("10 add_int\n10 frobnicate\n",
		     "mix.wf:2: Test 'frobnicate' has not been registered.");
	expect_error("x add_int\n", "mix.wf:1: bad weight 'x'");
	expect_error("0 add_int\n", "mix.wf:1: bad weight '0'");
	expect_error("-3 add_int\n", "mix.wf:1: bad weight '-3'");
	expect_error("10 add_int\n10\n", "mix.wf:2: '10' is neither");
	expect_error("FILESIZE: 10G\n10 add_int\n", "mix.wf:1: bad size");
	expect_error("# nothing\n", "mix.wf: no tests");
}

/* @n lines of "@w @test", then @tail */
static char *repeat_lines(unsigned int n, const char *line, const char *tail)
{
	size_t len = strlen(line), tl = strlen(tail);
	char *t = malloc(n * len + tl + 1), *p = t;

	assert_non_null(t);
	for (unsigned int i = 0; i < n; i++, p += len)
		memcpy(p, line, len);
	memcpy(p, tail, tl + 1);
	return t;
}

/*
 * driver.c's total_hits is an int, and schedlab's was an unsigned int: 4295
 * lines of weight 1000000 wrapped it to 32704 (each user ran 3057 jobs
 * instead of 1), one add_int of 967296 more wrapped it to 0 and the job
 * split divided by zero (issue 18). Now a total above INT_MAX is refused.
 */
static void test_workfile_total_limit(void **state)
{
	struct reaim_workfile wf;
	unsigned int *load = calloc(reaim_nr_jobs, sizeof(*load));
	char err[256], *t;

	(void)state;
	/* 2147 x 1000000 + 483647: exactly INT_MAX, the most re-aim's int holds */
	t = repeat_lines(2147, "1000000 add_double\n", "483647 add_int\nFILESIZE: 10K\n");
	assert_int_equal(reaim_workfile_parse("w", t, &wf, err, sizeof(err)), 0);
	assert_true(wf.total_hits == 2147483647u);
	/* 1000000 / INT_MAX x 1 job, and 483647 / INT_MAX: at least one each */
	assert_int_equal(reaim_job_loads(&wf, 1, load), 2);
	reaim_workfile_free(&wf);
	free(t);
	/* one more: refused at the line that goes past it */
	t = repeat_lines(2147, "1000000 add_double\n", "483648 add_int\n");
	expect_error(t, "mix.wf:2148: the weights add up to 2147483648, more than 2147483647");
	free(t);
	t = repeat_lines(4295, "1000000 add_double\n", "");
	expect_error(t, "mix.wf:2148: the weights add up to 2148000000, more than 2147483647");
	free(t);
	t = repeat_lines(4295, "1000000 add_double\n", "967296 add_int\n");
	expect_error(t, "mix.wf:2148: the weights add up to");
	free(t);
	expect_error("1000001 add_int\n", "mix.wf:1: bad weight '1000001'");
	/* sizes: at most 1048576 K or M */
	expect_error("1 add_int\nPOOLSIZE: 1048577M\n", "mix.wf:2: bad size");
	assert_int_equal(reaim_workfile_parse("w", "1 add_int\nPOOLSIZE: 1048576M\n", &wf, err,
					      sizeof(err)),
			 0);
	assert_int_equal(wf.poolsize_kb, 1u << 30);
	reaim_workfile_free(&wf);
	free(load);
}

/* the adaptive step never leaves int: (int) of a larger double is undefined */
static void test_adaptive_incr_bounded(void **state)
{
	(void)state;
	/* two loops of the same time: the step doubles */
	assert_int_equal(reaim_adaptive_incr(1e12, 10, 1.0, 1.0, 100000, 9), 200000);
	assert_int_equal(reaim_adaptive_incr(1e12, 10, 1.0, 1.0, 2147483647, 9), 2147483647);
	assert_int_equal(reaim_adaptive_incr(1e12, 10, 1.0, 1.0, 1500000000, 9), 2147483647);
}

/* every standard workfile shipped in data/reaim/ parses, and names only known tests */
static void test_standard_workfiles(void **state)
{
	unsigned int n = 0;

	(void)state;
	for (int i = 0; i < reaim_nr_embedded_files; i++) {
		struct reaim_workfile wf;
		char err[256];

		if (strncmp(reaim_embedded_files[i].name, "workfile.", 9))
			continue;
		if (reaim_workfile_parse(reaim_embedded_files[i].name, reaim_embedded_files[i].text,
					 &wf, err, sizeof(err)))
			fail_msg("%s", err);
		assert_true(wf.total_hits > 0);
		reaim_workfile_free(&wf);
		n++;
	}
	assert_true(n >= 15);
	assert_non_null(reaim_embedded_file("workfile.short"));
	assert_non_null(reaim_embedded_file("reaim.config"));
}

/* runloop(): hits / total x jobs, rounded half up, and at least one */
static void test_job_loads(void **state)
{
	struct reaim_workfile wf;
	unsigned int *load = calloc(reaim_nr_jobs, sizeof(*load));
	char err[256];

	(void)state;
	assert_int_equal(reaim_workfile_parse("w", "30 add_int\n10 sieve\n", &wf, err, sizeof(err)),
			 0);
	assert_int_equal(reaim_job_loads(&wf, 100, load), 100);
	assert_int_equal(load[reaim_job_find("add_int") - reaim_jobs], 75);
	assert_int_equal(load[reaim_job_find("sieve") - reaim_jobs], 25);
	reaim_workfile_free(&wf);

	assert_int_equal(
		reaim_workfile_parse("w", "1 add_int\n1000 sieve\n", &wf, err, sizeof(err)), 0);
	/* 0.0999 -> 1 (at least one), 99.9 -> 100 */
	assert_int_equal(reaim_job_loads(&wf, 100, load), 101);
	reaim_workfile_free(&wf);

	/* workfile.short: 17 tests of weight 20, 100 jobs: 5.88 -> 6 each */
	assert_int_equal(reaim_workfile_parse("w", reaim_embedded_file("workfile.short"), &wf, err,
					      sizeof(err)),
			 0);
	assert_int_equal(reaim_job_loads(&wf, 100, load), 102);
	reaim_workfile_free(&wf);
	free(load);
}

/* runloop()'s arithmetic */
static void test_jpm_formula(void **state)
{
	struct reaim_row r;
	const double same[4] = { 60, 60, 60, 60 }, spread[2] = { 1, 3 }, one[1] = { 5 };

	(void)state;
	/* 4 users x 100 jobs in 60 s: 400 jobs a minute, 100 per child */
	reaim_row_compute(&r, 4, 100, 60.0, same, 4);
	assert_int_equal(r.forked, 4);
	assert_float_equal(r.jpm, 400.0, 1e-9);
	assert_float_equal(r.jpm_child, 100.0, 1e-9);
	assert_float_equal(r.std_dev, 0, 1e-9);
	assert_int_equal(r.jti, 100);
	/* times 1 and 3: std dev 1 (population), cov 0.5, JTI 50 */
	reaim_row_compute(&r, 2, 102, 3.0, spread, 2);
	assert_float_equal(r.jpm, 102.0 / 3.0 * 60.0 * 2, 1e-9);
	assert_float_equal(r.std_dev, 1.0, 1e-9);
	assert_float_equal(r.std_dev_pct, 50.0, 1e-9);
	assert_int_equal(r.jti, 50);
	/* one child: JTI 100 by definition */
	reaim_row_compute(&r, 1, 10, 5.0, one, 1);
	assert_int_equal(r.jti, 100);
	assert_float_equal(r.jpm, 120.0, 1e-9);
	/* the adaptive timer leaves the increment alone for the first nine loops */
	assert_int_equal(reaim_adaptive_incr(5000, 10, 1, 1, 3, 8), 3);
	/* then, near crossover (jpm within 10% of the users), half the distance */
	assert_int_equal(reaim_adaptive_incr(105, 100, 1, 1, 3, 9), 2);
}

struct run {
	double jpm;
	u64 forks;
	unsigned int rows;
	unsigned int users[64]; /* each row's Num Forked */
	unsigned int nr_notes;
	u64 progress_done, progress_total;
};

static struct run run_reaim(const char *machine, const char *args)
{
	char buf[512], err[256];
	char *argv[32];
	int argc = 0;
	struct session_config cfg = { .machine = machine, .seed = 1 };
	struct session s;
	struct run r;

	snprintf(buf, sizeof(buf), "reaim %s", args);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	cfg.argc = argc;
	cfg.argv = argv;
	if (session_start(&s, &cfg, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(session_run(&s, true));
	memset(&r, 0, sizeof(r));
	r.rows = s.bench->reaim->nr_rows;
	r.jpm = s.bench->reaim->rows[r.rows - 1].jpm;
	r.forks = sched_world.nr_forks;
	for (unsigned int i = 0; i < r.rows && i < 64; i++)
		r.users[i] = s.bench->reaim->rows[i].forked;
	r.nr_notes = s.bench->reaim->nr_notes;
	r.progress_done = s.bench->progress_done;
	r.progress_total = s.bench->progress_total;
	session_end(&s);
	return r;
}

static char tmpdir[64];

static const char *write_wf(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* a compute-only mix: jobs/min grows with the CPUs until the users fill them */
static void test_compute_scales_with_cpus(void **state)
{
	char args[256];
	const char *wf = write_wf("compute.wf", "10 add_int\n10 sieve\n");
	struct run one, four, eight;

	(void)state;
	snprintf(args, sizeof(args), "-s 4 -e 4 -j 10 -f %s", wf);
	one = run_reaim("smp1", args);
	four = run_reaim("smp4", args);
	assert_true(four.jpm > 3.6 * one.jpm && four.jpm < 4.4 * one.jpm);
	/* 8 users on 4 CPUs: no more jobs a minute than 4 */
	snprintf(args, sizeof(args), "-s 8 -e 8 -j 10 -f %s", wf);
	eight = run_reaim("smp4", args);
	assert_true(eight.jpm > 0.9 * four.jpm && eight.jpm < 1.1 * four.jpm);
	/* -s 2 -e 6 -i 2: three rows */
	snprintf(args, sizeof(args), "-s 2 -e 6 -i 2 -j 10 -f %s", wf);
	assert_int_equal(run_reaim("smp4", args).rows, 3);
}

/* fork_test forks 100 children a job and waits for each */
static void test_fork_test_forks(void **state)
{
	char args[256];
	const char *wf = write_wf("fork.wf", "10 fork_test\n");
	struct run r;

	(void)state;
	snprintf(args, sizeof(args), "-s 2 -e 2 -j 3 -f %s", wf);
	r = run_reaim("smp4", args);
	/* the driver itself, its 2 users, and each user's 3 jobs x 100 forks */
	assert_int_equal(r.forks, 1 + 2 + 2 * 3 * 100);
}

/*
 * Memory follows what is alive, not what has existed (issue 18: each user
 * and child ever forked kept its task_struct, work_task and channels, 6.5 KB
 * a user). After a ramp, every exited user and child is freed, and counted
 * all the same: the driver's cumul holds them.
 */
static void test_exited_tasks_freed(void **state)
{
	char args[512], wf[128], err[256];
	char *argv[32];
	int argc = 0;
	struct session_config cfg = { .machine = "smp4", .seed = 1 };
	struct session s;
	struct task_struct *p, *driver = NULL;
	size_t nr_tasks = 0, nr_work, nr_channels;

	(void)state;
	/* forks, execs, system() with its grandchild, sleep 5, pipes, sockets, shm, sync */
	snprintf(wf, sizeof(wf), "%s",
		 write_wf("all.wf", "10 fork_test\n10 exec_test\n10 shell_rtns_1\n10 shell_rtns_2\n"
				    "10 disk_rd\n10 pipe_cpy\n10 tcp_test\n10 shared_memory\n"
				    "10 add_int\nFILESIZE: 10K\nPOOLSIZE: 100K\n"));
	snprintf(args, sizeof(args), "reaim -s 1 -e 8 -j 18 -t -f %s", wf);
	for (char *t = strtok(args, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	cfg.argc = argc;
	cfg.argv = argv;
	if (session_start(&s, &cfg, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(session_run(&s, true));
	assert_int_equal(s.bench->reaim->nr_rows, 8);
	list_for_each_entry(p, &sched_world.tasks, tasks) {
		nr_tasks++;
		if (!is_idle_task(p) && !p->is_stopper)
			driver = p;
	}
	/* the idle and stopper tasks of 4 CPUs, and the driver */
	assert_int_equal(nr_tasks, 2 * 4 + 1);
	assert_non_null(driver);
	assert_null(driver->parent);
	/* 36 users, each with 18 jobs: 2 x 100 forks, 2 x 5 execs, ... */
	assert_true(sched_world.nr_forks > 36 * 200);
	assert_true(sched_world.nr_released == sched_world.nr_forks - 1);
	assert_true(driver->cumul.nr_tasks == sched_world.nr_forks - 1);
	work_live_counts(&nr_work, &nr_channels);
	assert_int_equal(nr_work, 1);
	assert_int_equal(nr_channels, 0);
	session_end(&s);
}

static void expect_users(const char *args, const unsigned int *want, unsigned int n)
{
	struct run r = run_reaim("smp4", args);

	if (r.rows != n)
		fail_msg("reaim %s: %u rows, want %u", args, r.rows, n);
	for (unsigned int i = 0; i < n; i++)
		if (r.users[i] != want[i])
			fail_msg("reaim %s: row %u has %u users, want %u", args, i, r.users[i],
				 want[i]);
	/* no stop line: -e ended it */
	assert_int_equal(r.nr_notes, 0);
	/* the progress fraction reaches 1 exactly at the end, adaptive steps or not */
	assert_int_equal(r.progress_done, n);
	assert_int_equal(r.progress_total, n);
}

/*
 * multiuser()'s for (runnum = min; runnum <= max;) { ...; runnum += incr; }:
 * a count past -e ends the run whatever the step (issue 18: a step past
 * -e never ended, and grew until out of memory)
 */
static void test_loop_ends_past_end_users(void **state)
{
	char args[512], wf[128], conf[128];
	static const unsigned int one[] = { 1 }, three[] = { 2, 5, 8 }, cfg[] = { 1, 6 },
				  to10[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 },
				  twice[] = { 1, 6, 1, 6 };

	(void)state;
	snprintf(wf, sizeof(wf), "%s", write_wf("loop.wf", "10 jmp_test\nFILESIZE: 10K\n"));
	snprintf(conf, sizeof(conf), "%s",
		 write_wf("loop.config", "STARTUSERS 1\nENDUSERS 10\nINCREMENT 5\n"));
	snprintf(args, sizeof(args), "-s 1 -e 3 -i 5 -t -j 1 -f %s", wf);
	expect_users(args, one, 1);
	snprintf(args, sizeof(args), "-s 2 -e 9 -i 3 -t -j 1 -f %s", wf);
	expect_users(args, three, 3);
	snprintf(args, sizeof(args), "-s 1 -e 100000 -i 100000 -t -j 1 -f %s", wf);
	expect_users(args, one, 1);
	/* the config file's counts, the adaptive timer on (it waits nine loops) */
	snprintf(args, sizeof(args), "-c %s -j 1 -f %s", conf, wf);
	expect_users(args, cfg, 2);
	snprintf(args, sizeof(args), "-c %s -j 1 -r 2 -f %s", conf, wf);
	expect_users(args, twice, 4);
	/*
	 * the adaptive timer changes the step from the tenth loop on (each
	 * loop's time is within THRESHOLD_MIN of the last). Where it first
	 * steps by more than one and how big the later steps are depend on
	 * the model's timings (the driver's sleeps' timer slack moved the
	 * first from 10 -> 12 to 11 -> 13), so the run to 40 gives them, and
	 * a run to a count between two of its steps must be that run cut
	 * there: each loop is the same whatever -e is. Up to 10 the step is 1.
	 */
	{
		struct run full = run_reaim("smp4", "-s 1 -e 40");
		unsigned int k = 0;
		char e[64];

		while (k + 1 < full.rows && full.users[k + 1] - full.users[k] <= 1)
			k++;
		/* steps of one to the tenth loop, then one of more, as re-aim's timer makes */
		assert_true(k + 1 < full.rows);
		assert_true(full.users[k] >= 10);
		for (unsigned int i = 0; i < 10; i++)
			assert_int_equal(full.users[i], to10[i]);
		for (unsigned int j = k; j + 1 < full.rows; j++) {
			if (full.users[j + 1] - full.users[j] < 2)
				continue;
			snprintf(e, sizeof(e), "-s 1 -e %u", full.users[j] + 1);
			expect_users(e, full.users, j + 1);
		}
	}
}

/* a bare standard name missing here is the compiled-in copy, as from re-aim's data directory */
static void test_bare_names_are_compiled_in(void **state)
{
	char *argv[] = { "reaim", "-f", "workfile.compute", "-c", "reaim.config", NULL };
	char err[512];
	struct bench *b;

	(void)state;
	assert_int_equal(access("workfile.compute", F_OK), -1);
	b = bench_parse(5, argv, err, sizeof(err));
	if (!b)
		fail_msg("%s", err);
	assert_int_equal(b->reaim->filesize_kb, 10);
	assert_int_equal(b->reaim->poolsize_kb, 1024);
	bench_free(b);
}

static void test_parse_errors(void **state)
{
	static const struct {
		const char *cmd, *msg;
	} cases[] = {
		{ "reaim -u 200", "reaim has no -u; for N users give -s N -e N" },
		{ "reaim -s 0", "-s needs an integer in 1..100000" },
		{ "reaim -s 5 -e 2", "Cannot run backwards" },
		{ "reaim -x -g", "Cannot run both crossover and maxjobs" },
		{ "reaim -f /nonexistent/workfile.x",
		  "cannot read workfile '/nonexistent/workfile.x'" },
		/* a path with a directory is that file: no compiled-in copy (issue 18) */
		{ "reaim -f /nonexistent/dir/workfile.short",
		  "cannot read workfile '/nonexistent/dir/workfile.short': No such file or directory" },
		{ "reaim -f ./workfile.compute",
		  "cannot read workfile './workfile.compute': No such file or directory" },
		{ "reaim -c /nonexistent/reaim.config",
		  "cannot read config file '/nonexistent/reaim.config': No such file or directory" },
		{ "reaim -o", "-o is not modelled" },
		{ "reaim extra", "bad options: extra" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[128], err[512], *argv[8];
		int argc = 0;

		snprintf(buf, sizeof(buf), "%s", cases[i].cmd);
		for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
			argv[argc++] = t;
		argv[argc] = NULL;
		assert_null(bench_parse(argc, argv, err, sizeof(err)));
		if (!strstr(err, cases[i].msg))
			fail_msg("%s: '%s' not in '%s'", cases[i].cmd, cases[i].msg, err);
	}
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/schedlab-reaim.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/compute.wf", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/fork.wf", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/all.wf", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/loop.wf", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/loop.config", tmpdir);
	unlink(path);
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workfile_good),
		cmocka_unit_test(test_workfile_errors),
		cmocka_unit_test(test_workfile_total_limit),
		cmocka_unit_test(test_adaptive_incr_bounded),
		cmocka_unit_test(test_standard_workfiles),
		cmocka_unit_test(test_job_loads),
		cmocka_unit_test(test_jpm_formula),
		cmocka_unit_test(test_compute_scales_with_cpus),
		cmocka_unit_test(test_fork_test_forks),
		cmocka_unit_test(test_loop_ends_past_end_users),
		cmocka_unit_test(test_exited_tasks_freed),
		cmocka_unit_test(test_bare_names_are_compiled_in),
		cmocka_unit_test(test_parse_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
