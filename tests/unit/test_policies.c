// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduling policies: SCHED_IDLE and SCHED_BATCH in the fair class, the RT
 * class (SCHED_FIFO, SCHED_RR: preemption, RR rotation, push, pull,
 * affinity), sched_setattr_nocheck() on running and queued tasks, RT
 * pressure on fair placement, the chrt and nice prefixes, and the invariant
 * checker under a random mix of policies. The fair server's tests are in
 * test_fair_server.c.
 */
#include "test_sched_helpers.h"

#include "work/bench.h"

#include <errno.h>

static const struct sched_attr fifo50 = { .sched_policy = SCHED_FIFO, .sched_priority = 50 };

static struct task_struct *fork_attr(const char *comm, unsigned int cpu,
				     const struct sched_attr *attr, const struct cpumask *allowed)
{
	tl_cpu(cpu);
	return sched_fork_task_attr(comm, &tl_noop_exec, NULL, cpu, allowed, attr);
}

/* ---- SCHED_IDLE, SCHED_BATCH ---- */

static void test_idle_weight_and_sched_idle_cpu(void **state)
{
	struct task_struct *p, *q;
	struct rq *rq;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	/* v6.18's WEIGHT_IDLEPRIO and WMULT_IDLEPRIO = 2^32 / 3 */
	assert_int_equal(WEIGHT_IDLEPRIO, 3);
	assert_int_equal(WMULT_IDLEPRIO, (u32)((1ULL << 32) / 3));
	rq = tl_cpu(0);
	assert_false(sched_idle_cpu(0));
	p = tl_fork("idler", 0);
	assert_int_equal(sched_setscheduler_nocheck(p, SCHED_IDLE, 0), 0);
	assert_int_equal(p->se.load.weight, scale_load(WEIGHT_IDLEPRIO));
	assert_int_equal(p->se.load.inv_weight, WMULT_IDLEPRIO);
	assert_int_equal(rq->cfs.h_nr_idle, 1);
	assert_int_equal(rq->cfs.load.weight, scale_load(WEIGHT_IDLEPRIO));
	/* only SCHED_IDLE tasks: sched_idle_cpu() */
	assert_true(sched_idle_cpu(0));
	assert_false(sched_idle_cpu(1));
	/* nice does not change an idle task's weight */
	set_user_nice(p, -10);
	assert_int_equal(p->se.load.weight, scale_load(WEIGHT_IDLEPRIO));
	q = tl_fork("normal", 0);
	assert_false(sched_idle_cpu(0));
	tl_check();
	/* back to SCHED_NORMAL: nice -10's weight */
	assert_int_equal(sched_setscheduler_nocheck(p, SCHED_NORMAL, 0), 0);
	assert_int_equal(p->se.load.weight, scale_load(sched_prio_to_weight[10]));
	assert_int_equal(rq->cfs.h_nr_idle, 0);
	(void)q;
	tl_check();
	tl_teardown();
}

/*
 * A CPU running only a SCHED_IDLE task counts as idle for wakeups: a task
 * whose CPU 0 is busy is woken onto CPU 1, which runs a SCHED_IDLE hog
 * (select_idle_sibling()'s available_idle_cpu() || sched_idle_cpu()).
 */
static void test_sched_idle_cpu_takes_wakeups(void **state)
{
	static const struct sched_attr idle = { .sched_policy = SCHED_IDLE };
	struct task_struct *idler, *w;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	w = tl_fork_running("w", 0);
	tl_block_current();
	assert_int_equal(task_cpu(w), 0);
	idler = fork_attr("idler", 1, &idle, NULL);
	tl_cpu(1);
	__schedule(SM_NONE);
	assert_ptr_equal(cpu_rq(1)->curr, idler);
	tl_fork_running("parent", 0);
	assert_false(sched_idle_cpu(0));
	assert_true(sched_idle_cpu(1));
	tl_cpu(0);
	try_to_wake_up(w, TASK_NORMAL, 0);
	assert_int_equal(task_cpu(w), 1);
	/* and it preempts the SCHED_IDLE curr there */
	assert_true(cpu_rq(1)->need_resched);
	tl_check();
	tl_teardown();
}

/*
 * The balancer's SCHED_IDLE rules: task_hot() never keeps a SCHED_IDLE
 * task for its cache, so one that ran just now moves where a normal task
 * that ran as recently is refused as cache hot; and a dequeue that leaves
 * only SCHED_IDLE tasks on an rq sets its next_balance to now
 * (dequeue_entities(): "balance early to pull high priority tasks").
 */
static void test_sched_idle_balance_rules(void **state)
{
	static const struct sched_attr idle = { .sched_policy = SCHED_IDLE };

	(void)state;
	for (int v = 0; v < 2; v++) {
		bool is_idle = v == 0;
		struct task_struct *q;
		struct sched_domain *sd;
		int cont;

		tl_setup("smp4", TL_ZERO_COST, 0, NULL);
		tl_fork_running("run", 0);
		q = fork_attr("queued", 0, is_idle ? &idle : NULL, NULL);
		/* q ran 100 us ago: well within migration_cost (500 us) */
		tl_cpu(0);
		tl_advance(100 * NSEC_PER_USEC);
		q->se.exec_start = cpu_rq(0)->clock_task - 100 * NSEC_PER_USEC;
		sd = tl_sd(1, "MC");
		assert_int_equal(tl_balance(1, sd, CPU_IDLE, &cont), is_idle ? 1 : 0);
		assert_int_equal(task_cpu(q), is_idle ? 1 : 0);
		tl_check();
		tl_teardown();
	}

	/* (without DELAY_DEQUEUE: the sleeper leaves at once, not when next picked) */
	tl_setup("smp2", TL_ZERO_COST, 0, "NO_DELAY_DEQUEUE");
	tl_fork_running("normal", 0);
	fork_attr("idler", 0, &idle, NULL);
	tl_cpu(0);
	tl_advance(10 * TICK_NSEC);
	cpu_rq(0)->next_balance = jiffies + 100;
	assert_false(sched_idle_rq(cpu_rq(0)));
	tl_block_current();
	assert_true(sched_idle_rq(cpu_rq(0)));
	assert_int_equal(cpu_rq(0)->next_balance, jiffies);
	tl_check();
	tl_teardown();
}

/* wakeup_preempt() of a queued wakee @p on CPU 0 with need_resched cleared first */
static bool preempts(struct task_struct *p)
{
	struct rq *rq = tl_cpu(0);

	rq->need_resched = false;
	wakeup_preempt(rq, p, WF_TTWU);
	return rq->need_resched || rq->need_resched_lazy;
}

static void test_batch_and_idle_wakeup_preemption(void **state)
{
	struct task_struct *curr, *w;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, "NO_NEXT_BUDDY");
	curr = tl_fork_running("curr", 0);
	tl_advance(20 * NSEC_PER_MSEC);
	w = tl_fork("wakee", 0);
	/* a SCHED_NORMAL wakee with an earlier deadline preempts */
	assert_true(preempts(w));
	/* SCHED_BATCH and SCHED_IDLE wakees do not */
	assert_int_equal(sched_setscheduler_nocheck(w, SCHED_BATCH, 0), 0);
	assert_false(preempts(w));
	assert_int_equal(sched_setscheduler_nocheck(w, SCHED_IDLE, 0), 0);
	assert_false(preempts(w));
	/* a SCHED_IDLE curr is preempted by any non-idle wakee, even a batch one */
	assert_int_equal(sched_setscheduler_nocheck(curr, SCHED_IDLE, 0), 0);
	assert_int_equal(sched_setscheduler_nocheck(w, SCHED_BATCH, 0), 0);
	/* ... the batch rule comes after the idle rule, so it preempts */
	assert_true(preempts(w));
	tl_check();
	tl_teardown();
}

/* ---- RT: preemption, FIFO, RR ---- */

/* sleep @sleep_ms, run @run_ms, exit */
struct burst {
	u64 sleep_ms, run_ms;
	int step;
	u64 woke_at;	/* when it first ran after the sleep */
};

static void nop_call(struct work_task *w, void *arg)
{
	(void)w;
	(void)arg;
}

static void burst_next(struct work_task *w, struct op_desc *op)
{
	struct burst *b = w->state;

	memset(op, 0, sizeof(*op));
	switch (b->step++) {
	case 0:
		op->kind = b->sleep_ms ? OP_SLEEP : OP_CALL;
		op->ns = b->sleep_ms * NSEC_PER_MSEC;
		op->call = nop_call;
		break;
	case 1:
		b->woke_at = cpu_now();
		op->kind = OP_RUN;
		op->ns = b->run_ms * NSEC_PER_MSEC;
		break;
	default:
		op->kind = OP_EXIT;
		break;
	}
}

static const struct program burst_prog = { .next = burst_next };

static struct task_struct *start_burst(const char *comm, struct burst *b,
				       const struct sched_attr *attr, unsigned int cpu)
{
	struct task_struct *p;

	work_set_sched_attr(attr);
	p = work_start(comm, &burst_prog, b, cpu);
	work_set_sched_attr(NULL);
	return p;
}

static struct task_struct *start_hog(const char *comm, const struct sched_attr *attr,
				     unsigned int cpu)
{
	struct task_struct *p;

	work_set_sched_attr(attr);
	p = work_start(comm, &tl_busy_prog, NULL, cpu);
	work_set_sched_attr(NULL);
	return p;
}

/* a FIFO wakee preempts a fair hog at once and runs until it blocks (exits) */
static void test_fifo_preempts_fair_and_runs_to_completion(void **state)
{
	struct burst b = { .sleep_ms = 10, .run_ms = 30 };
	struct task_struct *hog, *rt;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	hog = start_hog("hog", NULL, 0);
	rt = start_burst("fifo", &b, &fifo50, 0);
	tl_run_until(45 * NSEC_PER_MSEC, true);
	tl_account_now();
	assert_int_equal(rt->prio, MAX_RT_PRIO - 1 - 50);
	/* woken at 10 ms, it ran at once (within a tick's worth of slack: none needed) */
	assert_true(b.woke_at >= 10 * NSEC_PER_MSEC && b.woke_at < 10 * NSEC_PER_MSEC + 100000);
	assert_true(rt->__state == TASK_DEAD);
	assert_true(tl_runtime(rt) >= 30 * NSEC_PER_MSEC);
	/* the hog ran 0-10 ms and 40-45 ms only: ticks on the way never preempted the RT task */
	assert_true(tl_runtime(hog) >= 14 * NSEC_PER_MSEC && tl_runtime(hog) <= 16 * NSEC_PER_MSEC);
	tl_teardown();
}

/* two FIFO hogs of one priority: no rotation; two RR hogs: every 100 ms */
static void test_fifo_does_not_rotate_rr_does(void **state)
{
	static const struct sched_attr rr = { .sched_policy = SCHED_RR, .sched_priority = 10 };
	static const struct sched_attr fifo = { .sched_policy = SCHED_FIFO, .sched_priority = 10 };
	struct task_struct *a, *b;
	u64 sw0;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 250, NULL);
	assert_int_equal(sched_rr_timeslice(), 25);
	a = start_hog("fifo-a", &fifo, 0);
	b = start_hog("fifo-b", &fifo, 0);
	tl_run_until(500 * NSEC_PER_MSEC, true);
	tl_account_now();
	assert_true(tl_runtime(a) >= 499 * NSEC_PER_MSEC);
	assert_int_equal(tl_runtime(b), 0);
	tl_teardown();

	tl_setup("smp1", TL_ZERO_COST, 250, NULL);
	a = start_hog("rr-a", &rr, 0);
	b = start_hog("rr-b", &rr, 0);
	sw0 = cpu_rq(0)->nr_switches;
	tl_run_until(1000 * NSEC_PER_MSEC, true);
	tl_account_now();
	/* 100 ms quanta: 10 of them, 5 each, a tick's worth of slack */
	assert_true(tl_runtime(a) >= 480 * NSEC_PER_MSEC && tl_runtime(a) <= 520 * NSEC_PER_MSEC);
	assert_true(tl_runtime(b) >= 480 * NSEC_PER_MSEC && tl_runtime(b) <= 520 * NSEC_PER_MSEC);
	assert_true(cpu_rq(0)->nr_switches - sw0 >= 9 && cpu_rq(0)->nr_switches - sw0 <= 12);
	tl_teardown();

	/* HZ 1000: RR_TIMESLICE is 100 jiffies */
	tl_setup("smp1", TL_ZERO_COST, 1000, NULL);
	assert_int_equal(sched_rr_timeslice(), 100);
	tl_teardown();
}

/* a higher-priority wakee preempts a FIFO curr; a lower one waits */
static void test_rt_priority_preemption(void **state)
{
	static const struct sched_attr low = { .sched_policy = SCHED_FIFO, .sched_priority = 10 };
	static const struct sched_attr high = { .sched_policy = SCHED_FIFO, .sched_priority = 20 };
	struct burst bh = { .sleep_ms = 10, .run_ms = 20 }, bl = { .sleep_ms = 10, .run_ms = 20 };
	struct task_struct *hog, *p;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	hog = start_hog("low-hog", &low, 0);
	p = start_burst("high", &bh, &high, 0);
	tl_run_until(35 * NSEC_PER_MSEC, true);
	tl_account_now();
	assert_true(bh.woke_at < 10 * NSEC_PER_MSEC + 100000);
	assert_true(tl_runtime(hog) >= 14 * NSEC_PER_MSEC && tl_runtime(hog) <= 16 * NSEC_PER_MSEC);
	assert_true(p->__state == TASK_DEAD);
	tl_teardown();

	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	hog = start_hog("high-hog", &high, 0);
	p = start_burst("low", &bl, &low, 0);
	tl_run_until(100 * NSEC_PER_MSEC, true);
	tl_account_now();
	assert_int_equal(bl.woke_at, 0);
	assert_true(tl_runtime(hog) >= 99 * NSEC_PER_MSEC);
	assert_true(task_on_rq_queued(p));
	tl_teardown();
}

/* run 1 ms, sched_yield(), forever */
static void yielder_next(struct work_task *w, struct op_desc *op)
{
	bool *ran = w->state;

	memset(op, 0, sizeof(*op));
	op->kind = *ran ? OP_YIELD : OP_RUN;
	op->ns = NSEC_PER_MSEC;
	*ran = !*ran;
}

static const struct program yielder_prog = { .next = yielder_next };

/* two FIFO tasks of one priority that yield take turns; a fair yielder too */
static void test_yield(void **state)
{
	static const struct sched_attr fifo = { .sched_policy = SCHED_FIFO, .sched_priority = 10 };
	bool ran[2] = { false, false };
	struct task_struct *a, *b;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	work_set_sched_attr(&fifo);
	a = work_start("y-a", &yielder_prog, &ran[0], 0);
	b = work_start("y-b", &yielder_prog, &ran[1], 0);
	work_set_sched_attr(NULL);
	tl_run_until(100 * NSEC_PER_MSEC, true);
	tl_account_now();
	assert_true(tl_runtime(a) >= 49 * NSEC_PER_MSEC && tl_runtime(a) <= 51 * NSEC_PER_MSEC);
	assert_true(tl_runtime(b) >= 49 * NSEC_PER_MSEC && tl_runtime(b) <= 51 * NSEC_PER_MSEC);
	assert_true(cpu_rq(0)->stat.yld_count >= 98);
	assert_true(cpu_rq(0)->nr_switches >= 98);
	tl_teardown();

	/* fair: a yielder beside a hog still runs, but gives way each time */
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	ran[0] = false;
	a = work_start("y-fair", &yielder_prog, &ran[0], 0);
	b = start_hog("hog", NULL, 0);
	tl_run_until(200 * NSEC_PER_MSEC, true);
	tl_account_now();
	assert_true(tl_runtime(a) > 0);
	assert_true(tl_runtime(b) > tl_runtime(a));
	tl_teardown();
}

/* ---- push and pull ---- */

static void test_push_to_idle_cpu_and_affinity(void **state)
{
	struct task_struct *a, *b, *c;
	struct cpumask *only0;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	a = fork_attr("a", 0, &fifo50, NULL);
	tl_cpu(0);
	__schedule(SM_NONE);
	assert_ptr_equal(cpu_rq(0)->curr, a);
	/* a second RT task that may migrate: pushed to the idle CPU 1 at its wakeup */
	b = fork_attr("b", 0, &fifo50, NULL);
	assert_int_equal(task_cpu(b), 1);
	assert_int_equal(cpu_rq(1)->rt.rt_nr_running, 1);
	assert_int_equal(cpu_rq(0)->rt.rt_nr_running, 1);
	assert_true(cpu_rq(1)->need_resched);
	tl_check();
	tl_cpu(1);
	__schedule(SM_PREEMPT);
	assert_ptr_equal(cpu_rq(1)->curr, b);
	tl_check();
	tl_teardown();

	/*
	 * One pinned to CPU 0 of the same priority: it cannot go elsewhere
	 * and the running one can, so it preempts (check_preempt_equal_prio())
	 * and the running one, now pushable, is pushed after the switch.
	 */
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	only0 = alloc_cpumask();
	cpumask_set_cpu(0, only0);
	a = fork_attr("a", 0, &fifo50, NULL);
	tl_cpu(0);
	__schedule(SM_NONE);
	c = fork_attr("pinned", 0, &fifo50, only0);
	assert_false(task_pushable_queued(c));
	assert_true(cpu_rq(0)->need_resched);
	tl_check();
	assert_ptr_equal(tl_schedule(), c);
	assert_int_equal(task_cpu(a), 1);
	assert_int_equal(task_cpu(c), 0);
	tl_check();
	/* a third: nowhere lower to go (both CPUs at prio 49), so it waits here */
	b = fork_attr("b", 0, &fifo50, NULL);
	assert_int_equal(task_cpu(b), 0);
	assert_true(task_pushable_queued(b));
	assert_true(cpu_rq(0)->rt.overloaded);
	tl_check();
	free_cpumask(only0);
	tl_teardown();
}

/*
 * A CPU whose RT task blocks, leaving only fair work, gets a waiting RT
 * task (balance_rt() -> pull_rt_task()): with NO_RT_PUSH_IPI it pulls it
 * at once; with RT_PUSH_IPI (the default) it runs its fair task and sends
 * the overloaded CPU the push irq_work (tell_cpu_to_push()), whose
 * push_rt_task() moves the task over and reschedules it.
 */
static void test_pull_when_cpu_drops_to_fair(void **state)
{
	static const struct sched_attr f40 = { .sched_policy = SCHED_FIFO, .sched_priority = 40 };
	static const struct sched_attr f60 = { .sched_policy = SCHED_FIFO, .sched_priority = 60 };
	static const char *const modes[] = { "NO_RT_PUSH_IPI", "RT_PUSH_IPI" };
	struct task_struct *a, *b, *d, *pinned, *fair;
	struct cpumask *only0;

	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		bool ipi = m == 1;

		tl_setup("smp2", TL_ZERO_COST, 0, modes[m]);
		only0 = alloc_cpumask();
		cpumask_set_cpu(0, only0);
		d = fork_attr("d60", 1, &f60, NULL);
		tl_cpu(1);
		__schedule(SM_NONE);
		assert_ptr_equal(cpu_rq(1)->curr, d);
		fair = tl_fork("fair", 1);
		a = fork_attr("a50", 0, &fifo50, NULL);
		tl_cpu(0);
		__schedule(SM_NONE);
		assert_ptr_equal(cpu_rq(0)->curr, a);
		/* a pinned RT task of higher priority than b: never pulled */
		pinned = fork_attr("pinned45", 0,
				   &(struct sched_attr){ .sched_policy = SCHED_FIFO,
							 .sched_priority = 45 },
				   only0);
		/* b (prio 40) has nowhere lower to go: CPU 1 runs prio 60 */
		b = fork_attr("b40", 0, &f40, NULL);
		assert_int_equal(task_cpu(b), 0);
		assert_true(cpu_rq(0)->rt.overloaded);
		assert_int_equal(cpu_rd(0)->rto_count, 1);
		tl_check();
		/* d blocks: CPU 1 would drop to fair, so it gets b */
		tl_cpu(1);
		tl_block_current();
		if (ipi) {
			/* the fair task runs meanwhile; CPU 0 has the push work */
			assert_ptr_equal(cpu_rq(1)->curr, fair);
			assert_int_equal(task_cpu(b), 0);
			assert_non_null(cpu_rq(0)->csd_list);
			tl_check();
			tl_deliver_ipis();
			assert_true(cpu_rq(1)->need_resched);
			tl_cpu(1);
			tl_schedule();
		}
		assert_ptr_equal(cpu_rq(1)->curr, b);
		assert_int_equal(task_cpu(b), 1);
		assert_int_equal(task_cpu(pinned), 0);
		assert_false(cpu_rq(0)->rt.overloaded);
		assert_int_equal(cpu_rd(0)->rto_count, 0);
		tl_check();
		free_cpumask(only0);
		tl_teardown();
	}
}

/* ---- sched_setattr on running and queued tasks ---- */

static void test_setscheduler_running_and_queued(void **state)
{
	struct task_struct *a, *b, *c;
	struct rq *rq;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	a = tl_fork_running("a", 0);
	b = tl_fork("b", 0);
	rq = tl_cpu(0);
	rq->need_resched = false;
	/* bad arguments */
	assert_int_equal(sched_setscheduler_nocheck(b, SCHED_FIFO, 0), -EINVAL);
	assert_int_equal(sched_setscheduler_nocheck(b, SCHED_FIFO, 100), -EINVAL);
	assert_int_equal(sched_setscheduler_nocheck(b, SCHED_NORMAL, 1), -EINVAL);
	assert_int_equal(sched_setscheduler_nocheck(b, 4, 0), -EINVAL);
	assert_int_equal(rq->cfs.h_nr_queued, 2);
	/* a queued fair task becomes RT: off the cfs_rq, on the rt_rq, preempts */
	assert_int_equal(sched_setscheduler_nocheck(b, SCHED_FIFO, 10), 0);
	assert_int_equal(rq->cfs.h_nr_queued, 1);
	assert_int_equal(rq->rt.rt_nr_running, 1);
	assert_int_equal(rq->nr_running, 2);
	assert_true(rq->need_resched);
	tl_check();
	assert_ptr_equal(tl_schedule(), b);
	tl_check();
	/* the running RT task lowers itself below another RT task: it switches */
	c = fork_attr("c", 0, &(struct sched_attr){ .sched_policy = SCHED_FIFO, .sched_priority = 5 },
		      NULL);
	assert_ptr_equal(rq->curr, b);
	rq->need_resched = false;
	assert_int_equal(sched_setscheduler_nocheck(b, SCHED_RR, 2), 0);
	assert_true(rq->need_resched);
	tl_check();
	assert_ptr_equal(tl_schedule(), c);
	/* a queued RT task goes back to fair; the running one too */
	assert_int_equal(sched_setscheduler_nocheck(b, SCHED_NORMAL, 0), 0);
	assert_int_equal(rq->rt.rt_nr_running, 1);
	assert_int_equal(rq->cfs.h_nr_queued, 2);
	tl_check();
	rq->need_resched = false;
	assert_int_equal(sched_setscheduler_nocheck(c, SCHED_BATCH, 0), 0);
	assert_true(rq->need_resched);
	assert_int_equal(rq->rt.rt_nr_running, 0);
	assert_int_equal(rq->cfs.h_nr_queued, 3);
	tl_check();
	tl_schedule();
	assert_false(rt_task(rq->curr));
	tl_check();
	(void)a;
	tl_teardown();
}

/* a program that turns itself into SCHED_FIFO 30, then runs */
static void self_rt_next(struct work_task *w, struct op_desc *op)
{
	int *step = w->state;

	memset(op, 0, sizeof(*op));
	switch ((*step)++) {
	case 0:
		op->kind = OP_SCHED_SETATTR;
		op->attr = (struct sched_attr){ .sched_policy = SCHED_FIFO, .sched_priority = 30 };
		break;
	case 1:
		assert_int_equal(w->result, 0);
		op->kind = OP_RUN;
		op->ns = 5 * NSEC_PER_MSEC;
		break;
	default:
		op->kind = OP_EXIT;
	}
}

static const struct program self_rt_prog = { .next = self_rt_next };

/* a parent forking an RT child (spawn.set_attr), then waiting */
static void rt_parent_next(struct work_task *w, struct op_desc *op)
{
	int *step = w->state;

	memset(op, 0, sizeof(*op));
	switch ((*step)++) {
	case 0:
		op->kind = OP_SPAWN;
		op->spawn.prog = &self_rt_prog;
		op->spawn.state = step + 1;
		op->spawn.comm = "child";
		op->spawn.set_attr = true;
		op->spawn.attr = (struct sched_attr){ .sched_policy = SCHED_RR,
						      .sched_priority = 7 };
		break;
	case 1:
		op->kind = OP_WAIT_CHILDREN;
		break;
	default:
		op->kind = OP_EXIT;
	}
}

static const struct program rt_parent_prog = { .next = rt_parent_next };

static struct task_struct *seen_child;
static int seen_child_prio = -1;

static void watch_child(struct sim_event *ev)
{
	struct task_struct *p;

	(void)ev;
	list_for_each_entry(p, &sched_world.tasks, tasks)
		if (!strcmp(p->comm, "child") && p->__state != TASK_DEAD) {
			seen_child = p;
			if (seen_child_prio < 0 || p->prio < seen_child_prio)
				seen_child_prio = p->prio;
		}
}

static void test_spawn_attr_and_op_setattr(void **state)
{
	int steps[2] = { 0, 0 };
	struct task_struct *parent;

	(void)state;
	tl_setup("smp2", TL_REAL_COST, 0, NULL);
	parent = work_start("parent", &rt_parent_prog, steps, 0);
	seen_child = NULL;
	seen_child_prio = -1;
	tl.hook = watch_child;
	tl_run_until(50 * NSEC_PER_MSEC, true);
	assert_non_null(seen_child);
	/* RR 7 at fork (prio 92), then FIFO 30 of its own (prio 69) */
	assert_int_equal(seen_child_prio, MAX_RT_PRIO - 1 - 30);
	assert_int_equal(seen_child->policy, SCHED_FIFO);
	assert_true(seen_child->__state == TASK_DEAD);
	assert_int_equal(parent->policy, SCHED_NORMAL);
	tl_teardown();
}

/*
 * RT pressure: a fair hog sharing CPU 0 with a pinned FIFO hog while
 * another fair hog runs on CPU 1 is moved to CPU 1 once CPU 0's RT
 * average takes its capacity (scale_rt_capacity()), instead of living on
 * the fair server's 5%.
 */
static void test_rt_pressure_moves_fair_tasks(void **state)
{
	struct task_struct *rt, *a, *b;
	struct cpumask *only0;

	(void)state;
	tl_setup("smp2", TL_REAL_COST, 0, NULL);
	only0 = alloc_cpumask();
	cpumask_set_cpu(0, only0);
	work_set_sched_attr(&fifo50);
	rt = work_start_allowed("rt-hog", &tl_busy_prog, NULL, 0, only0);
	work_set_sched_attr(NULL);
	a = start_hog("fair-a", NULL, 0);
	b = start_hog("fair-b", NULL, 1);
	tl_run_until(2 * NSEC_PER_SEC, true);
	tl_account_now();
	assert_true(cpu_rq(0)->avg_rt.util_avg > 900);
	assert_true(cpu_rq(0)->cpu_capacity < 100);
	assert_int_equal(cpu_rq(1)->cpu_capacity, SCHED_CAPACITY_SCALE);
	/* a left CPU 0 and shares CPU 1 with b */
	assert_int_equal(task_cpu(a), 1);
	assert_true(tl_runtime(a) > 500 * NSEC_PER_MSEC);
	assert_true(tl_runtime(b) > 500 * NSEC_PER_MSEC);
	assert_true(tl_runtime(rt) > 1900 * NSEC_PER_MSEC);
	free_cpumask(only0);
	tl_teardown();
}

/* ---- a random mix under --check ---- */

struct mixer {
	u64 rng;
	int left;
};

/* the children's states: a pool the test owns (a program's state is not freed) */
static struct mixer mix_pool[4096];
static unsigned int mix_pool_used;

static u64 mix_rand(struct mixer *m)
{
	m->rng = m->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return m->rng >> 33;
}

static void mix_next(struct work_task *w, struct op_desc *op)
{
	struct mixer *m = w->state;
	u64 r = mix_rand(m);

	memset(op, 0, sizeof(*op));
	if (m->left-- <= 0) {
		op->kind = OP_EXIT;
		return;
	}
	switch (r % 8) {
	case 0:
	case 1:
	case 2:
		op->kind = OP_RUN;
		op->ns = (mix_rand(m) % 3000 + 50) * NSEC_PER_USEC;
		break;
	case 3:
	case 4:
		op->kind = OP_SLEEP;
		op->ns = (mix_rand(m) % 2000 + 10) * NSEC_PER_USEC;
		break;
	case 5: {
		static const u32 policies[] = { SCHED_NORMAL, SCHED_FIFO, SCHED_RR, SCHED_BATCH,
						SCHED_IDLE };
		u32 pol = policies[mix_rand(m) % 5];

		op->kind = OP_SCHED_SETATTR;
		op->attr.sched_policy = pol;
		op->attr.sched_priority = rt_policy(pol) ? (u32)(mix_rand(m) % 99 + 1) : 0;
		op->attr.sched_nice = (s32)(mix_rand(m) % 40) - 20;
		break;
	}
	case 6:
		if (m->left > 20 && mix_pool_used < ARRAY_SIZE(mix_pool)) {
			struct mixer *cm = &mix_pool[mix_pool_used++];

			cm->rng = mix_rand(m);
			cm->left = 20;
			op->kind = OP_SPAWN;
			op->spawn.prog = w->prog;
			op->spawn.state = cm;
			op->spawn.comm = "mixchild";
			break;
		}
		/* fall through */
	default:
		op->kind = OP_RUN;
		op->ns = 200 * NSEC_PER_USEC;
		break;
	}
}

static const struct program mix_prog = { .next = mix_next };

/*
 * Twelve tasks switching among every policy at random, forking, sleeping
 * and running, some pinned, under the invariant checker after every event,
 * with RT_PUSH_IPI (the default: RT tasks move by push only, asked for by
 * tell_cpu_to_push()'s IPIs) and without it (pull_rt_task() takes them
 * too), for 1.5 s: both push RT tasks, only the second pulls.
 */
static void test_random_mix_under_check(void **state)
{
	static const struct sched_attr start[] = {
		{ .sched_policy = SCHED_NORMAL },
		{ .sched_policy = SCHED_FIFO, .sched_priority = 20 },
		{ .sched_policy = SCHED_RR, .sched_priority = 20 },
		{ .sched_policy = SCHED_BATCH, .sched_nice = 5 },
		{ .sched_policy = SCHED_IDLE },
		{ .sched_policy = SCHED_FIFO, .sched_priority = 80 },
	};
	static const char *const modes[] = { "RT_PUSH_IPI", "NO_RT_PUSH_IPI" };
	struct mixer m[12];
	struct cpumask *pin;

	(void)state;
	for (size_t mode = 0; mode < ARRAY_SIZE(modes); mode++) {
		u64 pushed = 0, pulled = 0;

		tl_setup("smt2-2s-16", TL_REAL_COST, 0, modes[mode]);
		mix_pool_used = 0;
		pin = alloc_cpumask();
		cpumask_set_cpu(2, pin);
		cpumask_set_cpu(5, pin);
		for (int i = 0; i < 12; i++) {
			struct task_struct *p;

			m[i] = (struct mixer){ .rng = 0x9e3779b97f4a7c15ULL * (u64)(i + 1),
					       .left = 400 };
			work_set_sched_attr(&start[i % 6]);
			if (i % 4 == 3)
				p = work_start_allowed("mixpin", &mix_prog, &m[i],
						       (unsigned int)i % 16, pin);
			else
				p = work_start("mix", &mix_prog, &m[i], (unsigned int)i % 16);
			(void)p;
		}
		work_set_sched_attr(NULL);
		/* the checker runs after every event: lists, bitmap, counts, affinity */
		tl_run_until(1500 * NSEC_PER_MSEC, true);
		/* it did fork, and RT tasks did move between CPUs */
		assert_true(mix_pool_used > 20);
		assert_true(sched_world.nr_forks > 20);
		for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
			pushed += cpu_rq(cpu)->rt.nr_pushed;
			pulled += cpu_rq(cpu)->rt.nr_pulled;
		}
		assert_true(pushed > 0);
		if (mode == 0) {
			/* a CPU dropping to fair asks by IPI: nobody pulls */
			assert_int_equal(pulled, 0);
			assert_true(cpu_rd(0)->rto_push->nr_ipis > 0);
		} else {
			assert_true(pulled > 0);
			assert_int_equal(cpu_rd(0)->rto_push->nr_ipis, 0);
		}
		free_cpumask(pin);
		tl_teardown();
	}
}

/* ---- the chrt and nice prefixes ---- */

static void expect_attr(const char *cmd, u32 policy, u32 prio, s32 nice)
{
	char *argv[32], buf[256], err[256];
	struct sched_attr attr;
	struct bench *b;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", cmd);
	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
		argv[argc++] = t;
	b = bench_parse(argc, argv, err, sizeof(err));
	if (!b)
		fail_msg("'%s': %s", cmd, err);
	assert_true(bench_sched_attr(b, &attr));
	if (attr.sched_policy != policy || attr.sched_priority != prio || attr.sched_nice != nice)
		fail_msg("'%s': policy %u prio %u nice %d, want %u %u %d", cmd, attr.sched_policy,
			 attr.sched_priority, attr.sched_nice, policy, prio, nice);
	bench_free(b);
}

static void expect_refused(const char *cmd, const char *want)
{
	char *argv[32], buf[256], err[256] = "";
	struct bench *b;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", cmd);
	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
		argv[argc++] = t;
	b = bench_parse(argc, argv, err, sizeof(err));
	if (b)
		fail_msg("'%s' accepted", cmd);
	if (!strstr(err, want))
		fail_msg("'%s': '%s' lacks '%s'", cmd, err, want);
}

static void test_chrt_and_nice_prefixes(void **state)
{
	(void)state;
	expect_attr("chrt -f 50 perf bench sched pipe", SCHED_FIFO, 50, 0);
	expect_attr("chrt 10 perf bench sched pipe", SCHED_RR, 10, 0);
	expect_attr("chrt --rr 99 hackbench", SCHED_RR, 99, 0);
	expect_attr("chrt -b 0 hackbench", SCHED_BATCH, 0, 0);
	expect_attr("chrt -i 0 hackbench", SCHED_IDLE, 0, 0);
	expect_attr("chrt -o 0 hackbench", SCHED_NORMAL, 0, 0);
	expect_attr("nice hackbench", SCHED_NORMAL, 0, 10);
	expect_attr("nice -n 5 hackbench", SCHED_NORMAL, 0, 5);
	expect_attr("nice -n -25 hackbench", SCHED_NORMAL, 0, -20);
	expect_attr("nice --adjustment=30 hackbench", SCHED_NORMAL, 0, 19);
	expect_attr("nice -7 hackbench", SCHED_NORMAL, 0, 7);
	expect_attr("nice --7 hackbench", SCHED_NORMAL, 0, -7);
	/* nested: the outermost first; chrt keeps the nice, nice adds up */
	expect_attr("nice -n 5 chrt -b 0 nice -n 3 hackbench", SCHED_BATCH, 0, 8);
	expect_attr("chrt -f 20 taskset -c 0 nice hackbench", SCHED_FIFO, 20, 10);
	expect_attr("taskset -c 0 chrt -f 50 perf bench sched pipe", SCHED_FIFO, 50, 0);
	expect_attr("chrt -f 20 chrt -r 30 hackbench", SCHED_RR, 30, 0);
	expect_refused("chrt -f 0 hackbench", "unsupported priority value for the policy: 0");
	expect_refused("chrt -f 100 hackbench", "unsupported priority value for the policy: 100");
	expect_refused("chrt -o 1 hackbench", "unsupported priority value for the policy: 1");
	expect_refused("chrt -f x hackbench", "chrt: invalid priority argument: 'x'");
	expect_refused("chrt -f 50", "too few arguments");
	expect_refused("chrt -d 0 hackbench", "no period or deadline (-P or -D) was given");
	expect_refused("chrt -d -T 2000 -D 1000 -P 5000000 0 hackbench",
		       "the runtime is longer than the deadline");
	expect_refused("chrt -d -T 2000 -D 9000000 -P 5000000 0 hackbench",
		       "the deadline is longer than the period");
	expect_refused("chrt -d -T 2000 -P 50000 0 hackbench", "the period is outside 100 us");
	expect_refused("chrt -d -T 1000 -P 5000000 0 hackbench", "the runtime is below 1024 ns");
	expect_refused("chrt -r -D 1000 1 hackbench",
		       "chrt: --sched-{deadline,period} options are supported for SCHED_DEADLINE only");
	expect_refused("chrt -d -P 1x 0 hackbench", "chrt: invalid period argument: '1x'");
	expect_refused("nice -n x hackbench", "nice: invalid adjustment 'x'");
	expect_refused("nice -n 5", "nice: no command");
	expect_refused("chrt -f 50 nosuchbench", "unknown benchmark 'nosuchbench'");
	expect_refused("taskset -c 0 chrt -f 50 taskset -c 1 hackbench", "taskset inside taskset");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_weight_and_sched_idle_cpu),
		cmocka_unit_test(test_sched_idle_cpu_takes_wakeups),
		cmocka_unit_test(test_sched_idle_balance_rules),
		cmocka_unit_test(test_batch_and_idle_wakeup_preemption),
		cmocka_unit_test(test_fifo_preempts_fair_and_runs_to_completion),
		cmocka_unit_test(test_fifo_does_not_rotate_rr_does),
		cmocka_unit_test(test_rt_priority_preemption),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_push_to_idle_cpu_and_affinity),
		cmocka_unit_test(test_pull_when_cpu_drops_to_fair),
		cmocka_unit_test(test_setscheduler_running_and_queued),
		cmocka_unit_test(test_spawn_attr_and_op_setattr),
		cmocka_unit_test(test_rt_pressure_moves_fair_tasks),
		cmocka_unit_test(test_random_mix_under_check),
		cmocka_unit_test(test_chrt_and_nice_prefixes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
