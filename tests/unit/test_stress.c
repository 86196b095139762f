// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng: how --cpu-ops and --timeout bound the cpu workers, as
 * stress-ng 0.22.00 (and Debian 12's 0.15.06) does it. The --cpu-ops budget
 * is shared, each of N workers getting ceil(M / N) bogo ops; at 100% load the
 * budget and the alarm are checked after every bogo op; below it only the
 * alarm is checked inside a busy slice, the budget at the end of a
 * slice-and-sleep cycle, and a sleep is cut short by the alarm or by the
 * handler's re-armed alarm(1) a second later.
 */
#include "test_util.h"

#include "cli/session.h"
#include "work/stress.h"

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

/* a stress-ng run held open for inspection: call session_end() after */
static struct stress_conf *start_stress(struct session *s, const char *machine, const char *args)
{
	static char buf[256];
	char err[256];
	static char *argv[32];
	int argc = 0;
	struct session_config cfg = { .machine = machine, .seed = 1 };

	snprintf(buf, sizeof(buf), "stress-ng %s", args);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	cfg.argc = argc;
	cfg.argv = argv;
	if (session_start(s, &cfg, err, sizeof(err)))
		fail_msg("stress-ng %s: %s", args, err);
	assert_true(session_run(s, true));
	return s->bench->stress;
}

/* --switch-ops: exactly the budget, one write a bogo op; a reader each */
static void test_switch_budget(void **state)
{
	struct session s;
	struct stress_conf *c;

	(void)state;
	c = start_stress(&s, "smp4", "--switch 2 --switch-ops 100");
	assert_int_equal(c->s[0].bogo_ops, 100);
	for (unsigned int i = 0; i < 2; i++) {
		const struct stress_instance *in = &c->s[0].inst[i];

		assert_int_equal(in->counter, 50);
		assert_int_equal(in->nr_children, 1);
		/* each write is a switch to the reader and back */
		assert_true(in->task->stats.nr_switches + in->children[0]->stats.nr_switches >= 50);
		/* nanosecs per switch: the instance's time over its writes */
		assert_true(in->metric > 100 && in->metric < 1e6);
	}
	session_end(&s);
}

/* two yielders per CPU over the instances, instance 0 taking the remainder */
static void test_yield_default_yielders(void **state)
{
	struct session s;
	struct stress_conf *c;

	(void)state;
	c = start_stress(&s, "smp4", "--yield 3 --timeout 1");
	assert_int_equal(c->s[0].inst[0].nr_children, 4);
	assert_int_equal(c->s[0].inst[1].nr_children, 2);
	assert_int_equal(c->s[0].inst[2].nr_children, 2);
	/* the counts come in at the end; the time between the clock reads per call */
	assert_true(c->s[0].bogo_ops > 1000);
	assert_true(c->s[0].metric > 0);
	/* the instances stop at their alarm: 1 s, and the yielders with them */
	assert_true(c->s[0].real_ns >= NSEC_PER_SEC && c->s[0].real_ns < NSEC_PER_SEC + NSEC_PER_MSEC);
	session_end(&s);
}

/* the pipe: a write a bogo op, its bytes over its time the metric */
static void test_pipe_budget_and_rate(void **state)
{
	struct session s;
	struct stress_conf *c;
	const struct stress_instance *in;

	(void)state;
	c = start_stress(&s, "smp4", "--pipe 1 --pipe-data-size 512 --pipe-ops 1000");
	in = &c->s[0].inst[0];
	/* the writer stops at the budget; the parent notices at its next second */
	assert_int_equal(in->counter, 1000);
	assert_int_equal(in->nr_children, 2);
	assert_true(in->finish_ns - in->start_ns >= NSEC_PER_SEC);
	assert_true(in->metric > 0);
	session_end(&s);
}

/* --sched: every instance runs under the policy; FIFO/RR default to 49 */
static void test_sched_policy(void **state)
{
	struct session s;
	struct stress_conf *c;

	(void)state;
	c = start_stress(&s, "smp4", "--cpu 2 --switch 1 --sched rr --timeout 1");
	for (unsigned int k = 0; k < c->nr; k++) {
		for (unsigned int i = 0; i < c->s[k].nr; i++) {
			const struct task_struct *p = c->s[k].inst[i].task;

			assert_int_equal(p->policy, SCHED_RR);
			/* MAX_RT_PRIO - 1 - rt_priority */
			assert_int_equal(p->prio, 100 - 1 - 49);
		}
	}
	/* the switch instance's reader inherited it */
	assert_int_equal(c->s[1].inst[0].children[0]->policy, SCHED_RR);
	session_end(&s);
}

/* affinity: each move is to the next CPU, so the processes migrate */
static void test_affinity_moves(void **state)
{
	struct session s;
	struct stress_conf *c;
	const struct stress_instance *in;
	u64 migrations;

	(void)state;
	c = start_stress(&s, "smp4", "--affinity 1 --affinity-procs 3 --affinity-ops 300");
	in = &c->s[0].inst[0];
	assert_true(in->counter >= 300 && in->counter < 303);
	assert_int_equal(in->nr_children, 2);
	migrations = in->task->stats.nr_migrations;
	for (unsigned int j = 0; j < in->nr_children; j++)
		migrations += in->children[j]->stats.nr_migrations;
	assert_true(migrations >= in->counter - 3);
	session_end(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops_budget_is_shared_rounding_up),
		cmocka_unit_test(test_ops_budget_below_full_load_ends_slices),
		cmocka_unit_test(test_timeout_ends_within_one_op),
		cmocka_unit_test(test_timeout_below_full_load),
		cmocka_unit_test(test_switch_budget),
		cmocka_unit_test(test_yield_default_yielders),
		cmocka_unit_test(test_pipe_budget_and_rate),
		cmocka_unit_test(test_sched_policy),
		cmocka_unit_test(test_affinity_moves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
