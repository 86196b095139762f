// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng --cpu: how --cpu-ops and --timeout bound the workers, as
 * stress-ng 0.22.00 (and Debian 12's 0.15.06) does it. The --cpu-ops budget
 * is shared, each of N workers getting ceil(M / N) bogo ops; at 100% load the
 * budget and the alarm are checked after every bogo op; below it only the
 * alarm is checked inside a busy slice, the budget at the end of a
 * slice-and-sleep cycle, and a sleep is cut short by the alarm or by the
 * handler's re-armed alarm(1) a second later.
 */
#include "test_util.h"

#include "cli/session.h"

#include <stdlib.h>

struct stress_result {
	u64 bogo_ops;
	u64 worker_max_ops;
	unsigned int nr_workers;
	u64 real_ns;		/* the workers' mean run time */
	u64 run_ns;		/* the parent's: fork to the last reap */
};

static struct stress_result run_stress(const char *machine, const char *args)
{
	char buf[256], err[256];
	char *argv[32];
	int argc = 0;
	struct session_config cfg = { .machine = machine, .seed = 1 };
	struct stress_result r;
	struct session s;

	snprintf(buf, sizeof(buf), "stress-ng %s", args);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	cfg.argc = argc;
	cfg.argv = argv;
	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, true));
	r.bogo_ops = s.bench->bogo_ops;
	r.worker_max_ops = s.bench->worker_max_ops;
	r.nr_workers = s.bench->nr_workers;
	r.real_ns = s.bench->real_ns;
	r.run_ns = s.bench->stop_ns - s.bench->start_ns;
	session_end(&s);
	return r;
}

/* stress_parallel_setup(): ceil(M / N) each, so the total is N * ceil(M / N). */
static void test_ops_budget_is_shared_rounding_up(void **state)
{
	struct stress_result r;

	(void)state;
	r = run_stress("smp4", "--cpu 4 --cpu-ops 10");
	assert_int_equal(r.worker_max_ops, 3);
	assert_int_equal(r.bogo_ops, 12);

	r = run_stress("smp4", "--cpu 3 --cpu-ops 10");
	assert_int_equal(r.worker_max_ops, 4);
	assert_int_equal(r.bogo_ops, 12);

	r = run_stress("smp4", "--cpu 4 --cpu-ops 8");
	assert_int_equal(r.bogo_ops, 8);

	/* fewer ops than workers: each still gets one */
	r = run_stress("smp4", "--cpu 4 --cpu-ops 1");
	assert_int_equal(r.worker_max_ops, 1);
	assert_int_equal(r.bogo_ops, 4);

	/* --cpu 0 is one worker per CPU, and shares among them */
	r = run_stress("smp2", "--cpu 0 --cpu-ops 5");
	assert_int_equal(r.nr_workers, 2);
	assert_int_equal(r.bogo_ops, 6);

	/* the budget ends the run long before the default day-long timeout */
	assert_true(r.run_ns < NSEC_PER_SEC);
}

/*
 * Below 100% load the budget is checked only when a slice and its sleep are
 * over: 25 ops each, but a worker finishes its slice first.
 */
static void test_ops_budget_below_full_load_ends_slices(void **state)
{
	struct stress_result r;

	(void)state;
	/* default slice: 64 ops > 25 */
	r = run_stress("smp4", "--cpu 4 -l 50 --cpu-ops 100");
	assert_int_equal(r.worker_max_ops, 25);
	assert_int_equal(r.bogo_ops, 4 * 64);
	/* 10-op slices: 3 of them reach 25 */
	r = run_stress("smp4", "--cpu 4 -l 50 --cpu-load-slice -10 --cpu-ops 100");
	assert_int_equal(r.bogo_ops, 4 * 30);
	/* and the last slice's sleep is slept: about as long again as the work */
	assert_true(r.real_ns > 2 * 30 * STRESS_CPU_BOGO_OP_NS * 99 / 100);
}

/* At 100% load a worker stops within one bogo op of its alarm. */
static void test_timeout_ends_within_one_op(void **state)
{
	struct stress_result r;

	(void)state;
	/* one worker per CPU: a bogo op takes its own time */
	r = run_stress("smp4", "--cpu 4 -t 1");
	assert_true(r.real_ns >= NSEC_PER_SEC);
	assert_true(r.real_ns < NSEC_PER_SEC + STRESS_CPU_BOGO_OP_NS + NSEC_PER_MSEC);
	/* the op that crosses the alarm counts: ceil(1 s / op) each */
	assert_true(r.bogo_ops <= 4 * DIV_ROUND_UP(NSEC_PER_SEC, STRESS_CPU_BOGO_OP_NS));
	assert_true(r.bogo_ops >= 4 * (NSEC_PER_SEC / STRESS_CPU_BOGO_OP_NS));
	/* a budget that outlasts the timeout does not stretch it */
	r = run_stress("smp4", "--cpu 4 -t 1 --cpu-ops 100000");
	assert_true(r.real_ns < NSEC_PER_SEC + STRESS_CPU_BOGO_OP_NS + NSEC_PER_MSEC);
}

/*
 * Below 100% load: an alarm during the sleep ends it at once; an alarm during
 * a busy slice ends the slice after the op, and the sleep that follows lasts
 * until the handler's re-armed alarm(1) a second later.
 */
static void test_timeout_below_full_load(void **state)
{
	struct stress_result r;

	(void)state;
	/* 64 ops (0.75 s) busy, then 0.75 s asleep: the alarm at 1 s wakes it */
	r = run_stress("smp1", "--cpu 1 -l 50 -t 1");
	assert_true(r.real_ns >= NSEC_PER_SEC);
	assert_true(r.real_ns < NSEC_PER_SEC + NSEC_PER_MSEC);
	assert_int_equal(r.bogo_ops, 64);

	/* 100 ops (1.17 s) busy: the alarm at 1 s falls in the slice */
	r = run_stress("smp1", "--cpu 1 -l 50 --cpu-load-slice -100 -t 1");
	assert_int_equal(r.bogo_ops, DIV_ROUND_UP(NSEC_PER_SEC, STRESS_CPU_BOGO_OP_NS));
	assert_true(r.real_ns >= 2 * NSEC_PER_SEC);
	assert_true(r.real_ns < 2 * NSEC_PER_SEC + NSEC_PER_MSEC);

	/* -l 0 sleeps the timeout and does no ops */
	r = run_stress("smp1", "--cpu 1 -l 0 -t 1 --cpu-ops 5");
	assert_int_equal(r.bogo_ops, 0);
	assert_true(r.real_ns >= NSEC_PER_SEC && r.real_ns < NSEC_PER_SEC + NSEC_PER_MSEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops_budget_is_shared_rounding_up),
		cmocka_unit_test(test_ops_budget_below_full_load_ends_slices),
		cmocka_unit_test(test_timeout_ends_within_one_op),
		cmocka_unit_test(test_timeout_below_full_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
