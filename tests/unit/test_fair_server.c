// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fair server (src/kernel/deadline.c) against v6.18's deadline.c: the
 * share a sleeping fair task and a fair hog get under a FIFO hog, the
 * period restart when fair tasks use the runtime in the background, idle
 * time charged to the server, where the server stops, and the debugfs
 * write's checks.
 */
#include "test_sched_helpers.h"

#include <errno.h>

static const struct sched_attr fifo50 = { .sched_policy = SCHED_FIFO, .sched_priority = 50 };

/* ---- a periodic task: run @run_ns from each release, releases @period_ns apart ---- */

#define MAX_RELEASES 512

struct periodic {
	u64 period_ns, run_ns;
	u64 next;			/* the next release */
	bool running;
	unsigned int n;			/* jobs started */
	u64 start[MAX_RELEASES];	/* when each job first ran */
	u64 release[MAX_RELEASES];
};

static void periodic_next(struct work_task *w, struct op_desc *op)
{
	struct periodic *pt = w->state;

	memset(op, 0, sizeof(*op));
	if (!pt->running) {
		/* a job: it starts now, released at pt->next */
		if (pt->n < MAX_RELEASES) {
			pt->release[pt->n] = pt->next;
			pt->start[pt->n] = cpu_now();
		}
		pt->n++;
		pt->running = true;
		op->kind = OP_RUN;
		op->ns = pt->run_ns;
		return;
	}
	/* the next release after now (an overrun skips the releases it missed) */
	pt->running = false;
	do
		pt->next += pt->period_ns;
	while (pt->next <= cpu_now());
	op->kind = OP_SLEEP_UNTIL;
	op->ns = pt->next;
}

static const struct program periodic_prog = { .next = periodic_next };

/* sleep @sleep_ms, then run for ever */
static void late_hog_next(struct work_task *w, struct op_desc *op)
{
	bool *slept = w->state;

	memset(op, 0, sizeof(*op));
	op->kind = *slept ? OP_RUN : OP_SLEEP;
	op->ns = *slept ? NSEC_PER_MSEC : 300 * NSEC_PER_MSEC;
	*slept = true;
}

static const struct program late_hog_prog = { .next = late_hog_next };

/*
 * A fair task that runs 1 ms every 10 ms beside a FIFO hog on its CPU, for
 * 3 s. v6.18: dl_server_start() arms the zero-laxity timer (update_dl_entity()
 * defers it); dl_server_timer() at deadline - runtime (950 ms) finds the
 * fair class starved, sets dl_defer_running and queues the server with a
 * new period (replenish_dl_entity(), dl_entity_overflow()); from then on
 * each wakeup queues the server at once (dl_server_start() ->
 * update_dl_entity() keeps the instance while dl_defer_running), so the
 * task runs each period as released, until the 50 ms are used
 * (update_curr_dl_se() throttles it to the next period, 1950 ms, where
 * dl_server_timer() replenishes and queues it again at once). The server
 * stops only when a pick finds no fair task (__pick_task_dl()), keeping
 * dl_defer_running and its runtime.
 */
static void test_sleeper_share_under_fifo_hog(void **state)
{
	static const unsigned int hzs[] = { 250, 1000 };

	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		struct periodic pt = { .period_ns = 10 * NSEC_PER_MSEC, .run_ns = NSEC_PER_MSEC };
		struct sched_dl_entity *dl_se;
		struct task_struct *rt, *fair;
		unsigned int prompt = 0, in_first_window = 0;

		tl_setup("smp1", TL_ZERO_COST, hzs[h], NULL);
		dl_se = &cpu_rq(0)->fair_server;
		rt = tl_start_prog("fifo-hog", &tl_busy_prog, NULL, &fifo50, 0);
		fair = tl_start_prog("sleeper", &periodic_prog, &pt, NULL, 0);
		/* the first job waits for the zero-laxity point */
		tl_run_until(945 * NSEC_PER_MSEC, true);
		assert_int_equal(pt.n, 0);
		assert_true(dl_server_active(dl_se) && dl_se->dl_throttled &&
			    dl_se->dl_defer_armed);
		assert_false(dl_se->dl_defer_running);
		/* its first job ran at 950 ms; asleep now, the server stopped at the pick */
		tl_run_until(955 * NSEC_PER_MSEC, true);
		assert_int_equal(pt.n, 1);
		assert_true(pt.start[0] >= 950 * NSEC_PER_MSEC &&
			    pt.start[0] < 950 * NSEC_PER_MSEC + 100 * NSEC_PER_USEC);
		assert_int_equal(dl_se->nr_zero_laxity, 1);
		assert_false(dl_server_active(dl_se));
		assert_true(dl_se->dl_defer_running);
		assert_true(dl_se->runtime > (s64)(48 * NSEC_PER_MSEC));
		tl_run_until(3 * NSEC_PER_SEC, true);
		tl_account_now();
		/* ~105 ms: 50 jobs from 950 ms, 50 from 1950 ms, 5 from 2950 ms */
		assert_true(tl_runtime(fair) >= 100 * NSEC_PER_MSEC &&
			    tl_runtime(fair) <= 110 * NSEC_PER_MSEC);
		assert_true(tl_runtime(rt) >= 2885 * NSEC_PER_MSEC);
		/* one starvation episode was enough: the server then ran at each wakeup */
		assert_int_equal(dl_se->nr_zero_laxity, 1);
		for (unsigned int i = 1; i < pt.n && i < MAX_RELEASES; i++) {
			u64 t = pt.start[i];

			if (t > 950 * NSEC_PER_MSEC && t < 1450 * NSEC_PER_MSEC) {
				in_first_window++;
				/* released and run at once: the wakeup preempted the FIFO hog */
				if (t - pt.release[i] < 100 * NSEC_PER_USEC)
					prompt++;
			}
			/* throttled between its 50 ms and the next period */
			assert_false(t > 1460 * NSEC_PER_MSEC && t < 1950 * NSEC_PER_MSEC);
		}
		assert_true(in_first_window >= 48);
		assert_int_equal(prompt, in_first_window);
		tl_teardown();
	}
}

/*
 * A fair hog under a FIFO hog: 50 ms of each period, from the zero-laxity
 * point on (950 ms), then at each period start, since dl_defer_running
 * stays set while the server is throttled (update_curr_dl_se()) and
 * replenished (replenish_dl_entity()). Without the server (runtime 0,
 * dl_server_update() charges nothing and dl_server_timer() does nothing)
 * the FIFO hog takes everything.
 */
static void test_fair_hog_share_under_fifo_hog(void **state)
{
	struct task_struct *rt, *fair;
	struct sched_dl_entity *dl_se;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 250, NULL);
	dl_se = &cpu_rq(0)->fair_server;
	rt = tl_start_prog("rt-hog", &tl_busy_prog, NULL, &fifo50, 0);
	fair = tl_start_prog("fair-hog", &tl_busy_prog, NULL, NULL, 0);
	tl_run_until(945 * NSEC_PER_MSEC, true);
	assert_int_equal(tl_runtime(fair), 0);
	tl_run_until(1100 * NSEC_PER_MSEC, true);
	tl_account_now();
	/* 950 ms to its runtime's end, seen at the next tick (HZ 250: within 4 ms) */
	assert_true(tl_runtime(fair) >= 50 * NSEC_PER_MSEC &&
		    tl_runtime(fair) <= 54 * NSEC_PER_MSEC);
	assert_true(dl_se->dl_throttled && !dl_se->dl_defer_armed && dl_se->dl_defer_running);
	tl_run_until(3 * NSEC_PER_SEC, true);
	tl_account_now();
	assert_true(tl_runtime(fair) >= 145 * NSEC_PER_MSEC &&
		    tl_runtime(fair) <= 155 * NSEC_PER_MSEC);
	assert_true(tl_runtime(rt) >= 2845 * NSEC_PER_MSEC);
	assert_int_equal(dl_se->nr_zero_laxity, 1);
	tl_teardown();

	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	assert_int_equal(sched_fair_server_write(0, false, 0), 0);
	rt = tl_start_prog("rt-hog", &tl_busy_prog, NULL, &fifo50, 0);
	fair = tl_start_prog("fair-hog", &tl_busy_prog, NULL, NULL, 0);
	tl_run_until(2500 * NSEC_PER_MSEC, true);
	tl_account_now();
	assert_int_equal(tl_runtime(fair), 0);
	assert_int_equal(cpu_rq(0)->fair_server.nr_zero_laxity, 0);
	tl_teardown();
}

/*
 * A fair hog runs alone; a FIFO hog starts at 300 ms. While it ran alone,
 * each time it used the runtime in the background the period started
 * again from then (update_curr_dl_se(): replenish_dl_new_period() and the
 * timer re-armed), so at 300 ms the server's deadline is about 1300 ms and
 * the fair hog runs again at its zero-laxity point, about 1250 ms: not
 * after the period that began at 0 has ended (the old deadline, then a
 * whole period more).
 */
static void test_background_use_restarts_period(void **state)
{
	static const unsigned int hzs[] = { 250, 1000 };

	(void)state;
	for (size_t h = 0; h < ARRAY_SIZE(hzs); h++) {
		struct task_struct *fair;
		struct sched_dl_entity *dl_se;
		bool slept = false;
		u64 at_300;

		tl_setup("smp1", TL_ZERO_COST, hzs[h], NULL);
		dl_se = &cpu_rq(0)->fair_server;
		fair = tl_start_prog("fair-hog", &tl_busy_prog, NULL, NULL, 0);
		tl_start_prog("late-fifo", &late_hog_prog, &slept, &fifo50, 0);
		tl_run_until(310 * NSEC_PER_MSEC, true);
		tl_account_now();
		at_300 = tl_runtime(fair);
		assert_true(at_300 >= 299 * NSEC_PER_MSEC && at_300 <= 301 * NSEC_PER_MSEC);
		/* the period restarted when the runtime ran out, last at ~300 ms */
		assert_true(dl_se->deadline >= 1250 * NSEC_PER_MSEC &&
			    dl_se->deadline <= 1305 * NSEC_PER_MSEC);
		assert_true(dl_se->dl_throttled && dl_se->dl_defer_armed);
		tl_run_until(1240 * NSEC_PER_MSEC, true);
		tl_account_now();
		assert_int_equal(tl_runtime(fair), at_300);
		tl_run_until(1320 * NSEC_PER_MSEC, true);
		tl_account_now();
		assert_true(tl_runtime(fair) >= at_300 + 45 * NSEC_PER_MSEC);
		assert_int_equal(dl_se->nr_zero_laxity, 1);
		tl_teardown();
	}
}

/*
 * Idle time counts against a deferred server's runtime
 * (dl_server_update_idle_time(), from enqueue_task_fair() on an empty rq
 * and from put_prev_task_idle()), and running out that way ends
 * dl_defer_running. A fair task that blocks on a CPU with only fair work
 * does not stop the server: the fast path of __pick_next_task() never
 * looks at the DL class.
 */
static void test_idle_time_counts(void **state)
{
	struct sched_dl_entity *dl_se;
	struct task_struct *p, *q, *r;
	struct rq *rq;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	rq = tl_cpu(0);
	dl_se = &rq->fair_server;
	/* sched_init_dl_servers(): a first instance of 50 ms to 1 s, deferred */
	assert_int_equal(dl_se->runtime, 50 * NSEC_PER_MSEC);
	assert_int_equal(dl_se->deadline, NSEC_PER_SEC);
	assert_true(dl_se->dl_defer && dl_se->dl_throttled && !dl_server_active(dl_se));
	/* 20 ms idle, then a fair task: 30 ms left, the zero-laxity point at 970 ms */
	tl_advance(20 * NSEC_PER_MSEC);
	p = tl_fork("a", 0);
	assert_true(dl_server_active(dl_se));
	assert_int_equal(dl_se->runtime, 30 * NSEC_PER_MSEC);
	assert_true(dl_se->dl_defer_armed && hrtimer_is_queued(&dl_se->dl_timer));
	assert_int_equal(dl_se->dl_timer.ev.time, 970 * NSEC_PER_MSEC);
	assert_ptr_equal(tl_schedule(), p);
	/* 5 ms of it, then it blocks: the server stays active */
	tl_advance(5 * NSEC_PER_MSEC);
	assert_int_equal(dl_se->runtime, 25 * NSEC_PER_MSEC);
	assert_true(is_idle_task(tl_block_current()));
	assert_true(dl_server_active(dl_se));
	tl_check();
	/* 10 ms idle, charged when a fair task arrives on the empty rq */
	tl_advance(10 * NSEC_PER_MSEC);
	q = tl_fork("b", 0);
	assert_int_equal(dl_se->runtime, 15 * NSEC_PER_MSEC);
	assert_ptr_equal(tl_schedule(), q);
	assert_int_equal(dl_se->runtime, 15 * NSEC_PER_MSEC);
	assert_true(is_idle_task(tl_block_current()));
	/* 8 ms idle, then an RT task: charged when the idle task is put */
	tl_advance(8 * NSEC_PER_MSEC);
	r = sched_fork_task_attr("rt", &tl_noop_exec, NULL, 0, NULL, &fifo50);
	assert_int_equal(dl_se->runtime, 15 * NSEC_PER_MSEC);
	assert_ptr_equal(tl_schedule(), r);
	assert_int_equal(dl_se->runtime, 7 * NSEC_PER_MSEC);
	/* RT time is not the fair class's: not charged */
	tl_advance(3 * NSEC_PER_MSEC);
	assert_true(is_idle_task(tl_block_current()));
	assert_int_equal(dl_se->runtime, 7 * NSEC_PER_MSEC);
	/* idle past the runtime: 0 left, and no longer handling starvation */
	dl_se->dl_defer_running = true;
	tl_advance(40 * NSEC_PER_MSEC);
	p->__state = TASK_INTERRUPTIBLE;
	assert_int_equal(try_to_wake_up(p, TASK_NORMAL, 0), 1);
	assert_int_equal(dl_se->runtime, 0);
	assert_false(dl_se->dl_defer_running);
	tl_check();
	tl_teardown();
}

/*
 * debug.c sched_fair_server_write(): runtime above the period and periods
 * outside 100 us .. 2^22 us are refused (-EINVAL), bandwidth above the
 * DL limit (95%) is -EBUSY; an accepted write restarts the server with a
 * fresh instance (dl_server_apply_params()). The --sysctl tunables check
 * the same against each other, in the order given.
 */
static void test_fair_server_write_checks(void **state)
{
	struct sched_dl_entity *dl_se;
	char err[256];

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	dl_se = &cpu_rq(1)->fair_server;
	assert_int_equal(sched_fair_server_write(1, false, NSEC_PER_SEC + 1), -EINVAL);
	assert_int_equal(sched_fair_server_write(1, true, 40 * NSEC_PER_MSEC), -EINVAL);
	assert_int_equal(sched_fair_server_write(1, true, 99 * NSEC_PER_USEC), -EINVAL);
	assert_int_equal(sched_fair_server_write(1, true, (1ULL << 22) * NSEC_PER_USEC + 1),
			 -EINVAL);
	assert_int_equal(sched_fair_server_write(1, false, 960 * NSEC_PER_MSEC), -EBUSY);
	assert_int_equal(dl_se->dl_runtime, 50 * NSEC_PER_MSEC);
	assert_int_equal(sched_fair_server_write(1, false, 950 * NSEC_PER_MSEC), 0);
	assert_int_equal(sched_fair_server_write(1, true, (1ULL << 22) * NSEC_PER_USEC), 0);
	assert_int_equal(dl_se->dl_runtime, 950 * NSEC_PER_MSEC);
	assert_int_equal(dl_se->dl_period, (1ULL << 22) * NSEC_PER_USEC);
	assert_int_equal(dl_se->runtime, 0);
	assert_int_equal(dl_se->deadline, 0);
	assert_int_equal(cpu_rq(0)->fair_server.dl_runtime, 50 * NSEC_PER_MSEC);
	tl_teardown();

	sched_sysctl_reset();
	assert_int_equal(sched_sysctl_set("fair_server_runtime_ns=1000000001", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "fair_server_period_ns"));
	assert_int_equal(sched_sysctl_set("fair_server_period_ns=40000000", err, sizeof(err)), -1);
	assert_int_equal(sched_sysctl_set("fair_server_period_ns=99999", err, sizeof(err)), -1);
	assert_int_equal(sched_sysctl_set("fair_server_runtime_ns=960000000", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "EBUSY"));
	/* in order: the runtime first, then the period may come down to it */
	assert_int_equal(sched_sysctl_set("fair_server_runtime_ns=5000000", err, sizeof(err)), 0);
	assert_int_equal(sched_sysctl_set("fair_server_period_ns=40000000", err, sizeof(err)), 0);
	assert_int_equal(sched_sysctl_set("fair_server_runtime_ns=0", err, sizeof(err)), 0);
	sched_sysctl_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeper_share_under_fifo_hog),
		cmocka_unit_test(test_fair_hog_share_under_fifo_hog),
		cmocka_unit_test(test_background_use_restarts_period),
		cmocka_unit_test(test_idle_time_counts),
		cmocka_unit_test(test_fair_server_write_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
