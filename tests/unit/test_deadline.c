// SPDX-License-Identifier: GPL-2.0-only
/*
 * SCHED_DEADLINE tasks (src/kernel/deadline.c) against v6.18's deadline.c
 * and syscalls.c: admission control against the root domain's bandwidth,
 * the EDF pick, throttling at the end of the runtime and the replenishment
 * at the next period, sched_yield() giving up the rest of an instance;
 * cpudl's heap and free CPUs, a push to a free CPU; avg_dl of a periodic
 * task.
 */
#include "test_sched_helpers.h"

#include <errno.h>
#include <limits.h>

static struct sched_attr dl_attr(u64 runtime, u64 deadline, u64 period)
{
	return (struct sched_attr){ .sched_policy = SCHED_DEADLINE,
				    .sched_runtime = runtime,
				    .sched_deadline = deadline,
				    .sched_period = period };
}

/* run @run_ns, then sched_yield(), for ever; counts the jobs started */
struct yielder {
	u64 run_ns;
	bool yielded;
	unsigned int jobs;
};

static void yielder_next(struct work_task *w, struct op_desc *op)
{
	struct yielder *y = w->state;

	memset(op, 0, sizeof(*op));
	if (y->yielded) {
		y->jobs++;
		op->kind = OP_RUN;
		op->ns = y->run_ns;
	} else {
		op->kind = OP_YIELD;
	}
	y->yielded = !y->yielded;
}

static const struct program yielder_prog = { .next = yielder_next };

/* busy for ever, recording when it first ran, plus 1 ns (0: not yet) */
static void first_run_next(struct work_task *w, struct op_desc *op)
{
	u64 *first = w->state;

	if (!*first)
		*first = cpu_now() + 1;
	tl_busy_next(w, op);
}

static const struct program first_run_prog = { .next = first_run_next };

/*
 * On smp2 the limit is 2 x 950000/1000000 of BW_UNIT, of which the two fair
 * servers hold 2 x 50/1000: 1.8 CPUs are left. Six reservations of 3 ms
 * every 10 ms (0.3 each) fit exactly, a seventh is -EBUSY
 * (sched_dl_overflow()); one leaving the class gives its share back, and
 * sched_setattr() refuses what __checkparam_dl() does with -EINVAL.
 */
static void test_admission(void **state)
{
	struct sched_attr a = dl_attr(3 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct sched_attr normal = { .sched_policy = SCHED_NORMAL };
	struct task_struct *t[7];
	struct root_domain *rd;
	u64 servers;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 1000, NULL);
	rd = cpu_rd(0);
	servers = rd->dl_bw.total_bw;
	assert_int_equal(servers, 2 * ((50ULL << BW_SHIFT) / 1000));
	for (int i = 0; i < 7; i++)
		t[i] = tl_fork("dl", 0);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(sched_setattr_nocheck(t[i], &a), 0);
		assert_true(dl_task(t[i]));
	}
	assert_int_equal(rd->dl_bw.total_bw, servers + 6 * t[0]->dl.dl_bw);
	assert_int_equal(sched_setattr_nocheck(t[6], &a), -EBUSY);
	assert_false(dl_task(t[6]));
	/* the same parameters again: nothing to admit */
	assert_int_equal(sched_setattr_nocheck(t[0], &a), 0);
	/*
	 * one leaves the class: its bandwidth goes back at its 0-lag time,
	 * which (with all its runtime left) is now: the inactive timer fires
	 * at once, and then the seventh fits
	 */
	assert_int_equal(sched_setattr_nocheck(t[5], &normal), 0);
	assert_false(dl_task(t[5]));
	assert_int_equal(rd->dl_bw.total_bw, servers + 6 * t[0]->dl.dl_bw);
	assert_int_equal(sched_setattr_nocheck(t[6], &a), -EBUSY);
	{
		struct hrtimer *it = &t[5]->dl.inactive_timer;

		assert_true(hrtimer_pending(it));
		assert_int_equal(it->ev.time, cpu_now());
		/* its expiry, by hand: these tasks never run, so no event loop here */
		hrtimer_try_to_cancel(it);
		it->function(it);
	}
	assert_int_equal(rd->dl_bw.total_bw, servers + 5 * t[0]->dl.dl_bw);
	assert_int_equal(t[5]->dl.dl_bw, 0);
	assert_int_equal(sched_setattr_nocheck(t[6], &a), 0);
	/* runtime > deadline, deadline > period, a period below 100 us, runtime < 1024 ns */
	a = dl_attr(4 * NSEC_PER_MSEC, 3 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	assert_int_equal(sched_setattr_nocheck(t[5], &a), -EINVAL);
	a = dl_attr(NSEC_PER_MSEC, 20 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	assert_int_equal(sched_setattr_nocheck(t[5], &a), -EINVAL);
	a = dl_attr(10 * NSEC_PER_USEC, 50 * NSEC_PER_USEC, 0);
	assert_int_equal(sched_setattr_nocheck(t[5], &a), -EINVAL);
	a = dl_attr(1000, 10 * NSEC_PER_MSEC, 0);
	assert_int_equal(sched_setattr_nocheck(t[5], &a), -EINVAL);
	tl_teardown();
}

/*
 * Three busy DL tasks started together on one CPU with relative deadlines
 * of 30, 10 and 20 ms (1 ms of runtime each, period 100 ms): the earliest
 * absolute deadline runs first, then the next, then the last; each is
 * throttled after its 1 ms (at the tick), so none runs twice before all
 * three ran once.
 */
static void test_edf_pick_order(void **state)
{
	static const u64 rel_ms[3] = { 30, 10, 20 };
	u64 first[3] = { 0 };
	struct task_struct *t[3];

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 1000, NULL);
	for (int i = 0; i < 3; i++) {
		struct sched_attr a = dl_attr(NSEC_PER_MSEC, rel_ms[i] * NSEC_PER_MSEC,
					      100 * NSEC_PER_MSEC);

		t[i] = tl_start_prog("dl", &first_run_prog, &first[i], &a, 0);
		assert_true(dl_task(t[i]));
	}
	tl_run_until(10 * NSEC_PER_MSEC, true);
	for (int i = 0; i < 3; i++)
		assert_true(first[i] != 0);
	assert_true(first[1] < first[2]);
	assert_true(first[2] < first[0]);
	/* throttled after its runtime: the next started within a tick of the previous */
	assert_true(first[2] - first[1] <= 2 * NSEC_PER_MSEC);
	for (int i = 0; i < 3; i++)
		assert_true(t[i]->dl.nr_throttled >= 1);
	tl_teardown();
}

/*
 * A busy DL task of 2 ms every 10 ms beside a busy fair task on one CPU:
 * it runs until the tick finds its runtime used (update_curr_dl_se()),
 * then it is throttled (off the dl_rq, out of nr_running) and the fair
 * task runs until dl_task_timer() replenishes it at the next period. Over
 * 200 ms it gets its 20% (plus at most a tick's overrun per period, which
 * the next instance pays back), the fair task the rest.
 */
static void test_throttle_and_replenish(void **state)
{
	struct sched_attr a = dl_attr(2 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct task_struct *dl, *fair;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 1000, NULL);
	dl = tl_start_prog("dl", &tl_busy_prog, NULL, &a, 0);
	fair = tl_start_prog("fair", &tl_busy_prog, NULL, NULL, 0);
	tl_run_until(5 * NSEC_PER_MSEC, true);
	/* mid-period: throttled, the fair task runs */
	assert_true(dl->dl.dl_throttled);
	assert_false(dl->dl.on_dl_rq);
	assert_true(task_on_rq_queued(dl));
	assert_ptr_equal(cpu_rq(0)->curr, fair);
	assert_int_equal(cpu_rq(0)->nr_running, 1);
	/* the next period: replenished and queued, it preempts the fair task */
	tl_run_until(11 * NSEC_PER_MSEC, true);
	assert_ptr_equal(cpu_rq(0)->curr, dl);
	assert_false(dl->dl.dl_throttled);
	assert_true(dl->dl.nr_replenished >= 1);
	tl_run_until(200 * NSEC_PER_MSEC + NSEC_PER_USEC, true);
	assert_true(dl->dl.nr_replenished >= 19);
	assert_true(tl_runtime(dl) >= 38 * NSEC_PER_MSEC && tl_runtime(dl) <= 43 * NSEC_PER_MSEC);
	assert_true(tl_runtime(fair) >= 150 * NSEC_PER_MSEC);
	tl_teardown();
}

/*
 * A DL task with 5 ms every 10 ms that runs 1 ms and yields: sched_yield()
 * gives the rest of the instance up (yield_task_dl(): throttled with
 * dl_yielded), so it runs once per period, 1 ms each, not 5 ms.
 */
static void test_yield_gives_up_the_instance(void **state)
{
	struct sched_attr a = dl_attr(5 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct yielder y = { .run_ns = NSEC_PER_MSEC, .yielded = true };
	struct task_struct *dl, *fair;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 1000, NULL);
	dl = tl_start_prog("dl", &yielder_prog, &y, &a, 0);
	fair = tl_start_prog("fair", &tl_busy_prog, NULL, NULL, 0);
	tl_run_until(100 * NSEC_PER_MSEC + NSEC_PER_USEC, true);
	/* one job per period: 10 or 11 */
	assert_true(y.jobs >= 10 && y.jobs <= 11);
	assert_true(tl_runtime(dl) <= 11 * NSEC_PER_MSEC);
	assert_true(tl_runtime(fair) >= 85 * NSEC_PER_MSEC);
	tl_teardown();
}

/*
 * cpudl: the heap's top is the CPU whose earliest deadline is the latest;
 * a CPU without a DL entity is free. cpudl_find() gives the free CPUs the
 * task may use, else the top if the task's deadline is earlier than its.
 */
static void test_cpudl(void **state)
{
	struct cpumask *later = alloc_cpumask();
	struct cpudl *cp;
	struct task_struct *p;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 1000, NULL);
	p = tl_fork("dl", 0);
	cp = cpudl_alloc(4);
	assert_int_equal(cpudl_maximum(cp), -1);
	cpudl_set(cp, 0, 300);
	cpudl_set(cp, 1, 500);
	cpudl_set(cp, 2, 100);
	assert_int_equal(cpudl_maximum(cp), 1);
	/* CPU 3 is free: any task allowed there goes there */
	p->dl.deadline = 1000;
	assert_true(cpudl_find(cp, p, later));
	assert_int_equal(cpumask_weight(later), 1);
	assert_true(cpumask_test_cpu(3, later));
	cpudl_set(cp, 3, 200);
	/* none free: the latest (CPU 1, 500) if earlier than it, else none */
	p->dl.deadline = 400;
	assert_true(cpudl_find(cp, p, later));
	assert_int_equal(cpumask_weight(later), 1);
	assert_true(cpumask_test_cpu(1, later));
	p->dl.deadline = 600;
	assert_false(cpudl_find(cp, p, later));
	/* CPU 1's deadline moves earlier: CPU 0 is on top; CPU 1 leaves: free */
	cpudl_set(cp, 1, 50);
	assert_int_equal(cpudl_maximum(cp), 0);
	cpudl_clear(cp, 0);
	assert_int_equal(cpudl_maximum(cp), 3);
	assert_true(cpumask_test_cpu(0, cp->free_cpus));
	assert_false(cpumask_test_cpu(3, cp->free_cpus));
	cpudl_free(cp);
	free_cpumask(later);
	tl_teardown();
}

/*
 * Two busy DL tasks forked on CPU 0 of smp2 (a fork does not look for a
 * later CPU): the second is queued behind the first, pushable, and CPU 0
 * overloaded. The balance callback of set_next_task_dl() pushes it to
 * CPU 1, free of DL (find_later_rq()), where it runs at once.
 */
static void test_push_to_free_cpu(void **state)
{
	struct sched_attr a = dl_attr(2 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct task_struct *t0, *t1;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 1000, NULL);
	t0 = tl_start_prog("dl0", &tl_busy_prog, NULL, &a, 0);
	t1 = tl_start_prog("dl1", &tl_busy_prog, NULL, &a, 0);
	assert_int_equal(task_cpu(t0), 0);
	assert_int_equal(task_cpu(t1), 0);
	tl_run_until(NSEC_PER_MSEC, true);
	assert_int_not_equal(task_cpu(t0), task_cpu(t1));
	assert_int_equal(cpu_rq(0)->dl.nr_pushed, 1);
	assert_ptr_equal(cpu_rq(0)->curr, task_cpu(t0) == 0 ? t0 : t1);
	assert_ptr_equal(cpu_rq(1)->curr, task_cpu(t0) == 1 ? t0 : t1);
	assert_int_equal(cpu_rd(0)->dlo_count, 0);
	/* each then gets its 2 ms every 10 ms on its own CPU */
	tl_run_until(100 * NSEC_PER_MSEC + NSEC_PER_USEC, true);
	assert_true(tl_runtime(t0) >= 18 * NSEC_PER_MSEC && tl_runtime(t0) <= 22 * NSEC_PER_MSEC);
	assert_true(tl_runtime(t1) >= 18 * NSEC_PER_MSEC && tl_runtime(t1) <= 22 * NSEC_PER_MSEC);
	tl_teardown();
}

/* run @run_ns from each release, releases @period_ns apart */
struct periodic {
	u64 period_ns, run_ns, next;
	bool running;
};

static void periodic_next(struct work_task *w, struct op_desc *op)
{
	struct periodic *pt = w->state;

	memset(op, 0, sizeof(*op));
	if (!pt->running) {
		pt->running = true;
		op->kind = OP_RUN;
		op->ns = pt->run_ns;
		return;
	}
	pt->running = false;
	pt->next += pt->period_ns;
	op->kind = OP_SLEEP_UNTIL;
	op->ns = pt->next;
}

static const struct program periodic_prog = { .next = periodic_next };

/*
 * avg_dl of a DL task that runs 2.5 ms every 10 ms (25%). PELT (y^32 =
 * 1/2 per ms) of such a square wave swings between 1024 (1 - y^2.5) /
 * (1 - y^10) = 277 at the end of each run and 277 y^7.5 = 235 at the next
 * release; after 400 ms it stays within those bounds (a few units of
 * slack for the 1024 ns PELT steps), around 256. schedutil sees it
 * (cpu_util_dl() in effective_cpu_util()), and so does the fair class's
 * capacity (scale_rt_capacity()).
 */
static void test_avg_dl_of_a_quarter(void **state)
{
	struct sched_attr a = dl_attr(3 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct periodic pt = { .period_ns = 10 * NSEC_PER_MSEC, .run_ns = 2500 * NSEC_PER_USEC };
	unsigned long lo = ULONG_MAX, hi = 0;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 1000, NULL);
	tl_start_prog("dl", &periodic_prog, &pt, &a, 0);
	tl_run_until(400 * NSEC_PER_MSEC, true);
	for (u64 t = 400; t < 500; t++) {
		struct rq *rq = cpu_rq(0);
		unsigned long u;

		tl_run_until(t * NSEC_PER_MSEC + 500 * NSEC_PER_USEC, true);
		sim_set_this_cpu(0);
		update_rq_clock(rq);
		update_dl_rq_load_avg(rq->clock_pelt, rq, dl_task(rq->curr));
		u = cpu_util_dl(rq);
		lo = min(lo, u);
		hi = max(hi, u);
	}
	assert_true(lo >= 230 && lo <= 245);
	assert_true(hi >= 265 && hi <= 282);
	assert_true(scale_rt_capacity(0) <= 1024 - lo);
	tl_teardown();
}

/* steps of run (ns > 0) or sleep until (ns < 0, absolute) */
struct script {
	const s64 *steps;
	unsigned int n, i;
};

static void script_next(struct work_task *w, struct op_desc *op)
{
	struct script *sc = w->state;

	memset(op, 0, sizeof(*op));
	if (sc->i >= sc->n) {
		op->kind = OP_SLEEP;
		op->ns = 1000 * NSEC_PER_SEC;
		return;
	}
	if (sc->steps[sc->i] > 0) {
		op->kind = OP_RUN;
		op->ns = (u64)sc->steps[sc->i];
	} else {
		op->kind = OP_SLEEP_UNTIL;
		op->ns = (u64)-sc->steps[sc->i];
	}
	sc->i++;
}

static const struct program script_prog = { .next = script_next };

/* the DL tasks' part of the rq's running_bw (the fair server's taken off) */
static u64 tasks_running_bw(const struct rq *rq)
{
	const struct sched_dl_entity *srv = &rq->fair_server;
	bool srv_active = srv->dl_server_active || srv->dl_non_contending;

	return rq->dl.running_bw - (srv_active ? srv->dl_bw : 0);
}

/*
 * The 0-lag time (task_non_contending()): a DL task of 2 ms every 10 ms
 * (u = 0.2), released at 0 with deadline 10 ms, runs 1 ms and blocks with
 * 1 ms left: its 0-lag time is 10 - 1 * 10 / 2 = 5 ms. Until then its
 * bandwidth stays in running_bw (active non contending), after it is gone.
 * Woken at 7 ms, 1 ms of runtime over the 3 ms to the deadline exceeds
 * 0.2: a new instance, deadline 17 ms, 2 ms. It runs 1 ms and blocks at
 * 8 ms (0-lag 17 - 5 = 12 ms), wakes at 10 ms before it: the timer is
 * cancelled, running_bw never dropped, and the instance is kept (1 ms
 * over 7 ms is below 0.2). Blocked again at once, it leaves at 12 ms.
 */
/* a sleep's wakeup may come this much after its time (its timer slack and more) */
#define SLACK_NS (10 * NSEC_PER_USEC)

static void test_running_bw_zero_lag(void **state)
{
	static const s64 steps[] = {
		1 * NSEC_PER_MSEC, -7 * NSEC_PER_MSEC, 1 * NSEC_PER_MSEC, -10 * NSEC_PER_MSEC,
	};
	struct sched_attr a = dl_attr(2 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct script sc = { .steps = steps, .n = 4 };
	struct task_struct *p;
	struct rq *rq;
	u64 bw, d;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 1000, NULL);
	rq = cpu_rq(0);
	p = tl_start_prog("dl", &script_prog, &sc, &a, 0);
	bw = p->dl.dl_bw;
	assert_int_equal(bw, (2ULL << BW_SHIFT) / 10);
	tl_run_until(500 * NSEC_PER_USEC, true);
	assert_int_equal(p->dl.deadline, 10 * NSEC_PER_MSEC);
	assert_int_equal(tasks_running_bw(rq), bw);
	/* blocked at 1 ms, 1 ms left: active non contending until 5 ms */
	tl_run_until(4999 * NSEC_PER_USEC, true);
	assert_false(task_on_rq_queued(p));
	assert_int_equal(p->dl.runtime, NSEC_PER_MSEC);
	assert_true(p->dl.dl_non_contending);
	assert_int_equal(tasks_running_bw(rq), bw);
	assert_int_equal(rq->dl.this_bw - rq->fair_server.dl_bw, bw);
	tl_run_until(5001 * NSEC_PER_USEC, true);
	assert_false(p->dl.dl_non_contending);
	assert_int_equal(tasks_running_bw(rq), 0);
	/* inactive, it still belongs to the rq */
	assert_int_equal(rq->dl.this_bw - rq->fair_server.dl_bw, bw);
	/*
	 * woken at 7 ms (the sleep's timer slack later): active again, a new
	 * instance of 2 ms with the deadline 10 ms after the wakeup
	 */
	tl_run_until(7500 * NSEC_PER_USEC, true);
	assert_int_equal(tasks_running_bw(rq), bw);
	d = p->dl.deadline;
	assert_true(d >= 17 * NSEC_PER_MSEC && d <= 17 * NSEC_PER_MSEC + SLACK_NS);
	/* blocked 1 ms later with 1 ms left, woken at 10 ms before its 0-lag time (12 ms) */
	tl_run_until(9500 * NSEC_PER_USEC, true);
	assert_false(task_on_rq_queued(p));
	assert_int_equal(p->dl.runtime, NSEC_PER_MSEC);
	assert_true(p->dl.dl_non_contending);
	assert_int_equal(p->dl.inactive_timer.ev.time, d - 5 * NSEC_PER_MSEC);
	assert_int_equal(tasks_running_bw(rq), bw);
	tl_run_until(10 * NSEC_PER_MSEC + SLACK_NS + NSEC_PER_USEC, true);
	/* the wakeup kept the instance; blocked again at once: 0-lag d - 5 ms again */
	assert_int_equal(p->dl.deadline, d);
	assert_true(p->dl.dl_non_contending);
	assert_int_equal(tasks_running_bw(rq), bw);
	tl_run_until(d - 5 * NSEC_PER_MSEC - 1, true);
	assert_true(p->dl.dl_non_contending);
	assert_int_equal(tasks_running_bw(rq), bw);
	tl_run_until(d - 5 * NSEC_PER_MSEC, true);
	assert_false(p->dl.dl_non_contending);
	assert_int_equal(tasks_running_bw(rq), 0);
	tl_teardown();
}

/*
 * GRUB (grub_reclaim()) by hand, on smp1 with the defaults: Umax = max_bw
 * = 0.95 << 20 = 996147, bw_ratio = (1 / 0.95) << 8 = 269. A reclaiming
 * task with u = 0.2 (209715) admitted beside the fair server (52428)
 * leaves extra_bw = 996147 - 52428 - 209715 = 734004; this_bw = 262143.
 *  - the task alone active: Uinact = 52428, Uinact + Uextra = 786432 is
 *    not above Umax - u = 786432, so u_act = Umax - Uinact - Uextra =
 *    209715; scaled, 209715 * 269 >> 8 = 220364, and 1 ms of running
 *    costs 10^6 * 220364 >> 20 = 210155 ns of runtime;
 *  - the server active too: Uinact = 0, u_act = 996147 - 734004 =
 *    262143, 262143 * 269 >> 8 = 275454: 1 ms costs 262693 ns.
 * A task without the flag is charged 1 ms for 1 ms (capacity and
 * frequency 1024).
 */
static void test_grub_reclaim_by_hand(void **state)
{
	struct sched_attr a = dl_attr(2 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct rq *rq;
	struct task_struct *p;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 1000, NULL);
	rq = cpu_rq(0);
	assert_int_equal(rq->dl.max_bw, 996147);
	assert_int_equal(rq->dl.bw_ratio, 269);
	assert_int_equal(dl_rq_extra_bw(rq), 996147 - 52428);
	a.sched_flags = SCHED_FLAG_RECLAIM;
	p = tl_fork("grub", 0);
	assert_int_equal(sched_setattr_nocheck(p, &a), 0);
	assert_true(p->dl.flags & SCHED_FLAG_RECLAIM);
	assert_int_equal(dl_rq_extra_bw(rq), 734004);
	assert_int_equal(rq->dl.this_bw, 262143);
	/*
	 * queued by the setattr: active; the server too while it is started
	 * (it was for the task while the task was fair)
	 */
	assert_int_equal(rq->dl.running_bw,
			 209715 + (rq->fair_server.dl_server_active ? 52428 : 0));
	rq->dl.running_bw = 209715;
	assert_int_equal(dl_scaled_delta_exec(rq, &p->dl, NSEC_PER_MSEC), 210155);
	rq->dl.running_bw = 209715 + 52428;
	assert_int_equal(dl_scaled_delta_exec(rq, &p->dl, NSEC_PER_MSEC), 262693);
	p->dl.flags = 0;
	assert_int_equal(dl_scaled_delta_exec(rq, &p->dl, NSEC_PER_MSEC), NSEC_PER_MSEC);
	tl_teardown();
}

/*
 * Uextra on a 4-CPU root domain: each fair server's 52428 is given out
 * by the whole span, a quarter (13107) from every CPU, so each CPU keeps
 * 996147 - 4 x 13107 = 943719; a DL task of u = 0.2 (209715) takes
 * 209715 / 4 = 52428 more from each (891291), and leaving SCHED_DEADLINE
 * gives it back at the 0-lag time. The shared part is kept once (root_domain.extra_bw_all);
 * every CPU must see it.
 */
static void test_extra_bw_shared_by_span(void **state)
{
	struct sched_attr a = dl_attr(2 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct sched_attr normal = { .sched_policy = SCHED_NORMAL };
	struct task_struct *p;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 1000, NULL);
	for (unsigned int cpu = 0; cpu < 4; cpu++)
		assert_int_equal(dl_rq_extra_bw(cpu_rq(cpu)), 943719);
	p = tl_fork("dl", 0);
	assert_int_equal(sched_setattr_nocheck(p, &a), 0);
	for (unsigned int cpu = 0; cpu < 4; cpu++)
		assert_int_equal(dl_rq_extra_bw(cpu_rq(cpu)), 891291);
	/* it leaves the class: the share comes back at its 0-lag time (its inactive timer) */
	assert_int_equal(sched_setattr_nocheck(p, &normal), 0);
	assert_int_equal(dl_rq_extra_bw(cpu_rq(3)), 891291);
	assert_true(hrtimer_pending(&p->dl.inactive_timer));
	hrtimer_try_to_cancel(&p->dl.inactive_timer);
	p->dl.inactive_timer.function(&p->dl.inactive_timer);
	for (unsigned int cpu = 0; cpu < 4; cpu++)
		assert_int_equal(dl_rq_extra_bw(cpu_rq(cpu)), 943719);
	tl_teardown();
}

/*
 * GRUB in a run: a busy reclaiming task of 2 ms every 10 ms alone on a
 * CPU runs ~9.5 ms of every 10 (2 ms of runtime at 210155 ns per ms), up
 * to Umax; without the flag it gets its 2 ms (test_throttle_and_replenish).
 */
static void test_grub_reclaims_the_idle_cpu(void **state)
{
	struct sched_attr a = dl_attr(2 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct task_struct *p;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 1000, NULL);
	a.sched_flags = SCHED_FLAG_RECLAIM;
	p = tl_start_prog("grub", &tl_busy_prog, NULL, &a, 0);
	tl_run_until(200 * NSEC_PER_MSEC, true);
	/* 20 periods of ~9.5 ms (the overrun to the tick included) */
	assert_true(tl_runtime(p) >= 185 * NSEC_PER_MSEC && tl_runtime(p) <= 196 * NSEC_PER_MSEC);
	assert_true(p->dl.nr_throttled >= 19);
	tl_teardown();
}

/* forks one busy child, then stays busy */
static void spawner_next(struct work_task *w, struct op_desc *op)
{
	bool *spawned = w->state;

	if (*spawned) {
		tl_busy_next(w, op);
		return;
	}
	*spawned = true;
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = &tl_busy_prog;
	op->spawn.comm = "child";
}

static const struct program spawner_prog = { .next = spawner_next };

static void count_fork_failure(void *ctx, bool thread)
{
	unsigned int *n = ctx;

	assert_false(thread);
	++*n;
}

/*
 * sched_fork(): a SCHED_DEADLINE task cannot fork (EAGAIN) unless it set
 * SCHED_FLAG_RESET_ON_FORK, and then its child starts SCHED_NORMAL at
 * nice 0, without the flag. A workload's fork is refused before any
 * child exists, and the group's handler (the tool's failure) is called.
 */
static void test_fork_eagain_and_reset_on_fork(void **state)
{
	struct sched_attr a = dl_attr(NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct task_struct *p, *c;
	unsigned int failures = 0;
	bool spawned = false;
	u64 forks;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 1000, NULL);
	p = tl_fork("dl", 0);
	assert_false(sched_fork_fails(p));
	assert_int_equal(sched_setattr_nocheck(p, &a), 0);
	assert_true(sched_fork_fails(p));
	a.sched_flags = SCHED_FLAG_RESET_ON_FORK;
	assert_int_equal(sched_setattr_nocheck(p, &a), 0);
	assert_true(p->sched_reset_on_fork);
	assert_false(sched_fork_fails(p));
	c = sched_fork_task(p, false, "child", &tl_noop_exec, NULL, 1);
	assert_int_equal(c->policy, SCHED_NORMAL);
	assert_false(dl_task(c));
	assert_int_equal(c->static_prio, NICE_TO_PRIO(0));
	assert_false(c->sched_reset_on_fork);
	/* the parent keeps its policy and the flag */
	assert_true(dl_task(p));
	assert_true(p->sched_reset_on_fork);
	tl_teardown();

	/* a workload's DL task without the flag: its fork fails, no child */
	tl_setup("smp2", TL_ZERO_COST, 1000, NULL);
	a.sched_flags = 0;
	work_set_fork_failed(count_fork_failure, &failures);
	p = tl_start_prog("dl", &spawner_prog, &spawned, &a, 0);
	forks = sched_world.nr_forks;
	tl_run_until(2 * NSEC_PER_MSEC, true);
	assert_true(spawned);
	assert_int_equal(failures, 1);
	assert_int_equal(sched_world.nr_forks, forks);
	assert_int_equal(p->nr_children_alive, 0);
	work_set_fork_failed(NULL, NULL);
	tl_teardown();
}

/* sched_setaffinity() to CPU 1 alone, then its result in *state, then busy */
struct pinner {
	bool asked;
	s64 result;
	struct cpumask *cpu1;
};

static void pinner_next(struct work_task *w, struct op_desc *op)
{
	struct pinner *pn = w->state;

	if (pn->asked) {
		pn->result = (s64)w->result;
		tl_busy_next(w, op);
		return;
	}
	pn->asked = true;
	*op = (struct op_desc){ .kind = OP_SETAFFINITY, .cpus = pn->cpu1 };
}

static const struct program pinner_prog = { .next = pinner_next };

/*
 * Admission control is per root domain, so a DL task must be allowed on
 * all of its CPUs (syscalls.c): sched_setattr() refuses SCHED_DEADLINE to
 * a pinned task with -EPERM (after -EINVAL for a bad reservation, and not
 * on the kernel's own nocheck path), taking no bandwidth; a DL task's
 * sched_setaffinity() to fewer CPUs is -EBUSY (dl_task_check_affinity())
 * and leaves its mask as it was.
 */
static void test_dl_affinity_covers_root_domain(void **state)
{
	struct sched_attr a = dl_attr(NSEC_PER_MSEC, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct sched_attr bad = dl_attr(4 * NSEC_PER_MSEC, 3 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	struct pinner pn = { 0 };
	struct task_struct *p;
	u64 total;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 1000, NULL);
	total = cpu_rd(0)->dl_bw.total_bw;
	p = tl_fork("pinned", 0);
	cpumask_clear(p->cpus_mask);
	cpumask_set_cpu(0, p->cpus_mask);
	p->nr_cpus_allowed = 1;
	assert_int_equal(sched_setattr(p, &bad), -EINVAL);
	assert_int_equal(sched_setattr(p, &a), -EPERM);
	assert_false(dl_task(p));
	assert_int_equal(cpu_rd(0)->dl_bw.total_bw, total);
	/* both CPUs allowed again: admitted */
	cpumask_set_cpu(1, p->cpus_mask);
	p->nr_cpus_allowed = 2;
	assert_int_equal(sched_setattr(p, &a), 0);
	assert_true(dl_task(p));
	tl_teardown();

	/* a DL workload task asking for CPU 1 alone */
	tl_setup("smp2", TL_ZERO_COST, 1000, NULL);
	pn.cpu1 = alloc_cpumask();
	cpumask_set_cpu(1, pn.cpu1);
	p = tl_start_prog("dl", &pinner_prog, &pn, &a, 0);
	tl_run_until(2 * NSEC_PER_MSEC, true);
	assert_true(pn.asked);
	assert_int_equal(pn.result, -EBUSY);
	assert_int_equal(cpumask_weight(p->cpus_mask), 2);
	assert_int_equal(p->nr_cpus_allowed, 2);
	free_cpumask(pn.cpu1);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_admission),
		cmocka_unit_test(test_edf_pick_order),
		cmocka_unit_test(test_throttle_and_replenish),
		cmocka_unit_test(test_yield_gives_up_the_instance),
		cmocka_unit_test(test_cpudl),
		cmocka_unit_test(test_push_to_free_cpu),
		cmocka_unit_test(test_avg_dl_of_a_quarter),
		cmocka_unit_test(test_running_bw_zero_lag),
		cmocka_unit_test(test_grub_reclaim_by_hand),
		cmocka_unit_test(test_extra_bw_shared_by_span),
		cmocka_unit_test(test_grub_reclaims_the_idle_cpu),
		cmocka_unit_test(test_fork_eagain_and_reset_on_fork),
		cmocka_unit_test(test_dl_affinity_covers_root_domain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
