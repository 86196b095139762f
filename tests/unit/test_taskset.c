// SPDX-License-Identifier: GPL-2.0-only
/*
 * The taskset prefix (work/taskset.c): util-linux's list and mask syntax,
 * the command after it, the check against the machine, and tasks that stay
 * on the allowed CPUs while the load balancer would spread them.
 */
#include "test_sched_helpers.h"

#include "sim/alloc.h"
#include "work/bench.h"

static struct cpumask *wide(void)
{
	return xcalloc(1, sizeof(struct cpumask));
}

/* @m's CPUs below @limit as a list, for comparisons */
static const char *cpus_of(const struct cpumask *m, unsigned int limit)
{
	static char buf[256];
	size_t pos = 0;

	buf[0] = '\0';
	for (unsigned int cpu = 0; cpu < limit; cpu++)
		if (cpumask_test_cpu(cpu, m))
			pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, "%s%u", pos ? "," : "",
						cpu);
	return buf;
}

static void expect_list(const char *s, const char *want)
{
	struct cpumask *m = wide();

	if (taskset_parse_list(s, m))
		fail_msg("list '%s' rejected", s);
	if (strcmp(cpus_of(m, NR_CPUS), want))
		fail_msg("list '%s': got '%s', want '%s'", s, cpus_of(m, NR_CPUS), want);
	free(m);
}

static void expect_mask(const char *s, const char *want)
{
	struct cpumask *m = wide();

	if (taskset_parse_mask(s, m))
		fail_msg("mask '%s' rejected", s);
	if (strcmp(cpus_of(m, NR_CPUS), want))
		fail_msg("mask '%s': got '%s', want '%s'", s, cpus_of(m, NR_CPUS), want);
	free(m);
}

static void test_list_syntax(void **state)
{
	static const char *const bad[] = {
		"", ",", "0,", ",0", "1,,2", "a", "0x1", "-1", "1-", "1-2:", "1-2:0", "3-1",
		"1:2", " 0", "0 ", "0-3 ", "+1", "1-2:3:4", "1-2-3",
		"4294967296", "0-4294967296", "0-8:99999999999",
	};
	struct cpumask *m = wide();

	(void)state;
	expect_list("0", "0");
	expect_list("3", "3");
	expect_list("0,2-5", "0,2,3,4,5");
	expect_list("0-7:2", "0,2,4,6");
	expect_list("1-10:3", "1,4,7,10");
	expect_list("0-31:2,1", "0,1,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30");
	/* duplicates and overlaps are a set */
	expect_list("0,0,1-2,2,1", "0,1,2");
	expect_list("5-5", "5");
	expect_list("007", "7");
	/* CPUs from NR_CPUS up are dropped, as taskset drops those beyond its set */
	expect_list("8190-9000", "8190,8191");
	expect_list("4294967295", "");
	expect_list("0-4294967295:1073741824", "0");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!taskset_parse_list(bad[i], m))
			fail_msg("list '%s' accepted", bad[i]);
	free(m);
}

static void test_mask_syntax(void **state)
{
	static const char *const bad[] = { "", "0x", "0X3", "zz", "3g", ",3", "3,", "f,,f", "-1",
					   " 3", "0x-3" };
	struct cpumask *m = wide();
	char *huge;

	(void)state;
	expect_mask("1", "0");
	expect_mask("0x3", "0,1");
	expect_mask("3", "0,1");
	expect_mask("03", "0,1");
	expect_mask("A", "1,3");
	expect_mask("0xf0", "4,5,6,7");
	expect_mask("0", "");
	expect_mask("0x0", "");
	expect_mask("1,00000001", "0,32");
	expect_mask("0x55555555", "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!taskset_parse_mask(bad[i], m))
			fail_msg("mask '%s' accepted", bad[i]);
	/* bit 8192 and up: dropped */
	huge = xmalloc(NR_CPUS / 4 + 2);
	huge[0] = '3';
	memset(huge + 1, '0', NR_CPUS / 4);
	huge[NR_CPUS / 4 + 1] = '\0';
	assert_int_equal(taskset_parse_mask(huge, m), 0);
	assert_string_equal(cpus_of(m, NR_CPUS), "");
	huge[0] = '1';
	huge[1] = '8';
	assert_int_equal(taskset_parse_mask(huge, m), 0);
	assert_string_equal(cpus_of(m, NR_CPUS), "8191");
	free(huge);
	free(m);
}

static struct bench *parse(const char *cmdline, char *err, size_t errlen)
{
	static char buf[256];
	static char *argv[32];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", cmdline);
	for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	err[0] = '\0';
	return bench_parse(argc, argv, err, errlen);
}

static void expect_error(const char *cmdline, const char *want)
{
	char err[512];
	struct bench *b = parse(cmdline, err, sizeof(err));

	if (b)
		fail_msg("'%s' accepted", cmdline);
	if (!strstr(err, want))
		fail_msg("'%s': '%s' does not contain '%s'", cmdline, err, want);
}

static void test_command(void **state)
{
	char err[512];
	struct bench *b;

	(void)state;
	b = parse("taskset -c 0 perf bench sched pipe -l 5", err, sizeof(err));
	assert_non_null(b);
	assert_int_equal(b->kind, BENCH_PERF_PIPE);
	assert_int_equal(b->loops, 5);
	assert_true(b->taskset_list);
	assert_string_equal(b->taskset_arg, "0");
	bench_free(b);
	b = parse("taskset --all-tasks --cpu-list 1-3 hackbench -g 1 -T", err, sizeof(err));
	assert_non_null(b);
	assert_int_equal(b->kind, BENCH_HACKBENCH);
	assert_true(b->threads);
	assert_string_equal(cpus_of(b->taskset_given, NR_CPUS), "1,2,3");
	bench_free(b);
	b = parse("taskset -ac 0x3 stress-ng --cpu 2 --timeout 1", err, sizeof(err));
	assert_null(b); /* -c: '0x3' is not a list */
	b = parse("taskset 0x3 stress-ng --cpu 2 --timeout 1", err, sizeof(err));
	assert_non_null(b);
	assert_false(b->taskset_list);
	assert_string_equal(cpus_of(b->taskset_given, NR_CPUS), "0,1");
	bench_free(b);
	/* no taskset: nothing set */
	b = parse("hackbench -g 1", err, sizeof(err));
	assert_non_null(b);
	assert_null(b->taskset_arg);
	bench_free(b);

	expect_error("taskset", "taskset: no mask and no command");
	expect_error("taskset -c", "taskset: no CPU list and no command");
	expect_error("taskset -c 0", "taskset: no command after the CPU list '0'");
	expect_error("taskset 3", "taskset: no command after the mask '3'");
	expect_error("taskset -p 3 1234", "taskset: -p (an existing pid) is not modelled");
	expect_error("taskset -h", "taskset: -h prints the tool's usage and runs no benchmark");
	expect_error("taskset -x 3 hackbench", "taskset: invalid option '-x'");
	expect_error("taskset --bogus 3 hackbench", "taskset: unrecognized option '--bogus'");
	expect_error("taskset -c 0-x hackbench", "taskset: failed to parse CPU list: '0-x'");
	expect_error("taskset zz hackbench", "taskset: failed to parse CPU mask: 'zz'");
	expect_error("taskset 3 taskset 1 hackbench", "taskset inside taskset");
	expect_error("taskset -c 0 nosuchbench", "unknown benchmark 'nosuchbench'");
	expect_error("taskset -c 0 hackbench -g 0", "hackbench: --groups");
}

static void expect_machine(const char *cmdline, const char *cpus, const char *err_want)
{
	char err[512];
	struct bench *b = parse(cmdline, err, sizeof(err));
	int rc;

	assert_non_null(b);
	rc = bench_check_machine(b, "smp2", err, sizeof(err));
	if (cpus) {
		if (rc)
			fail_msg("'%s' on smp2: %s", cmdline, err);
		assert_string_equal(b->taskset_str, cpus);
	} else {
		assert_int_equal(rc, -1);
		if (!strstr(err, err_want))
			fail_msg("'%s': '%s' does not contain '%s'", cmdline, err, err_want);
	}
	bench_free(b);
}

static void test_machine(void **state)
{
	(void)state;
	cpumask_setup(2);
	expect_machine("taskset -c 0 hackbench", "0", NULL);
	expect_machine("taskset -c 0-1 hackbench", "0-1", NULL);
	expect_machine("taskset 0xff hackbench", "0-1", NULL);
	/* sched_setaffinity() keeps the CPUs that exist */
	expect_machine("taskset -c 1,5 hackbench", "1", NULL);
	expect_machine("taskset -c 5 hackbench", NULL,
		       "taskset: CPU list '5': CPU 5 does not exist on smp2 (CPUs 0-1)");
	expect_machine("taskset -c 2-6:2 hackbench", NULL,
		       "CPUs 2,4,6 do not exist on smp2 (CPUs 0-1)");
	expect_machine("taskset 0x30 hackbench", NULL,
		       "taskset: mask '0x30': CPUs 4-5 do not exist on smp2");
	expect_machine("taskset 0 hackbench", NULL, "taskset: mask '0' selects no CPU");
	expect_machine("taskset -c 9000 hackbench", NULL, "CPUs from NR_CPUS (8192) up do not exist on smp2");
	cpumask_setup(NR_CPUS);
}

/* ---- the kernel side ---- */

struct spawner {
	unsigned int nr, spawned;
};

/* fork @nr busy children, then wait for them (forever) */
static void spawner_next(struct work_task *w, struct op_desc *op)
{
	struct spawner *s = w->state;

	memset(op, 0, sizeof(*op));
	if (s->spawned < s->nr) {
		s->spawned++;
		op->kind = OP_SPAWN;
		op->spawn.prog = &tl_busy_prog;
		op->spawn.comm = "hog";
		return;
	}
	op->kind = OP_WAIT_CHILDREN;
}

static const struct program spawner_prog = { .next = spawner_next };

/* the first task starts on the first allowed CPU; forks copy the mask */
static void test_first_task_and_forks(void **state)
{
	struct cpumask *allowed;
	struct task_struct *p, *c;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	allowed = alloc_cpumask();
	cpumask_set_cpu(1, allowed);
	cpumask_set_cpu(3, allowed);
	p = sched_fork_task_allowed("parent", &tl_noop_exec, NULL, 0, allowed);
	assert_int_equal(task_cpu(p), 1);
	assert_int_equal(p->nr_cpus_allowed, 2);
	assert_true(cpumask_equal(p->cpus_mask, allowed));
	/* a hint that is allowed is kept */
	c = sched_fork_task_allowed("other", &tl_noop_exec, NULL, 3, allowed);
	assert_int_equal(task_cpu(c), 3);
	for (int i = 0; i < 6; i++) {
		tl_cpu(task_cpu(p));
		c = sched_fork_task(p, false, "child", &tl_noop_exec, NULL, -1);
		assert_true(cpumask_equal(c->cpus_mask, allowed));
		assert_int_equal(c->nr_cpus_allowed, 2);
		assert_true(task_cpu(c) == 1 || task_cpu(c) == 3);
	}
	tl_check();
	free_cpumask(allowed);
	tl_teardown();
}

/*
 * Six CPU hogs allowed on CPUs 1-2 of smp4: wakeups, fork placement and the
 * balancer (periodic, newidle, nohz, active) see CPUs 0 and 3 idle and
 * never put a hog there (the invariant checker runs after every event).
 */
static void test_balancing_keeps_the_mask(void **state)
{
	struct spawner s = { .nr = 6 };
	struct cpumask *allowed;
	struct task_struct *p;

	(void)state;
	tl_setup("smp4", TL_REAL_COST, 0, NULL);
	allowed = alloc_cpumask();
	cpumask_set_cpu(1, allowed);
	cpumask_set_cpu(2, allowed);
	work_start_allowed("spawner", &spawner_prog, &s, 0, allowed);
	tl_run_until(200 * NSEC_PER_MSEC, true);
	assert_int_equal(s.spawned, 6);
	assert_int_equal(cpu_rq(0)->nr_switches, 0);
	assert_int_equal(cpu_rq(3)->nr_switches, 0);
	assert_true(cpu_rq(1)->nr_switches > 0);
	assert_true(cpu_rq(2)->nr_switches > 0);
	list_for_each_entry(p, &sched_world.tasks, tasks)
		if (!strcmp(p->comm, "hog"))
			assert_true(task_cpu(p) == 1 || task_cpu(p) == 2);
	free_cpumask(allowed);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_syntax),
		cmocka_unit_test(test_mask_syntax),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_first_task_and_forks),
		cmocka_unit_test(test_balancing_keeps_the_mask),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
