// SPDX-License-Identifier: GPL-2.0-only
/*
 * The wakeup path below CPU selection: ttwu_queue_cond() in each feature
 * setting (TTWU_QUEUE, TTWU_QUEUE_IDLE, TTWU_QUEUE_ON_CPU_LE1), the waker
 * spinning on a wakee still switching out (NO_TTWU_QUEUE_ON_CPU), the
 * call-single queue's one IPI per batch, set_nr_if_polling() instead of an
 * IPI, the SM_IDLE fast path and PREEMPT_LAZY.
 *
 * smt2-2s-16: CPUs 0-3,8-11 share one LLC (package 0), 4-7,12-15 the other.
 */
#include "test_sched_helpers.h"

#include "cli/session.h"

/* a task blocked (off every runqueue) whose last CPU is @cpu and may only run there */
static struct task_struct *blocked_on(unsigned int cpu)
{
	struct task_struct *p = tl_fork_running("sleeper", cpu);

	sim_set_this_cpu(cpu);
	tl_block_current();
	assert_int_equal(p->on_rq, 0);
	cpumask_clear(p->cpus_mask);
	cpumask_set_cpu(cpu, p->cpus_mask);
	p->nr_cpus_allowed = 1;
	p->on_cpu_until = 0;	/* its CPU is done switching away */
	return p;
}

struct wake_result {
	bool queued;
	u64 ipis;
	u64 no_ipi;
};

/* wake @p from @waker_cpu; report whether the wakelist took it and what was sent */
static struct wake_result wake_from(unsigned int waker_cpu, struct task_struct *p)
{
	unsigned int target = task_cpu(p);
	struct rq *w = tl_cpu(waker_cpu);
	u64 q0 = w->nr_ttwu_queued, i0 = w->ipi_sent, n0 = cpu_rq(target)->nr_wake_without_ipi;
	struct wake_result r;

	sim_set_this_cpu(waker_cpu);
	assert_int_equal(try_to_wake_up(p, TASK_NORMAL, 0), 1);
	r.queued = w->nr_ttwu_queued > q0;
	r.ipis = w->ipi_sent - i0;
	r.no_ipi = cpu_rq(target)->nr_wake_without_ipi - n0;
	/* a queued wakee is on the target's list until the target flushes it */
	assert_int_equal(r.queued, cpu_rq(target)->wake_list == p);
	assert_int_equal(r.queued, cpu_rq(target)->ttwu_pending);
	assert_int_equal(!r.queued, task_on_rq_queued(p));
	return r;
}

static void test_cross_llc_always_queues(void **state)
{
	struct wake_result r;

	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, "NO_TTWU_QUEUE_IDLE");
	r = wake_from(0, blocked_on(4));
	assert_true(r.queued);
	/* the target is idle, not polling: a call-function IPI */
	assert_int_equal(r.ipis, 1);
	assert_int_equal(tl_cpu(0)->ipi_call_sent, 1);
	tl_teardown();
}

static void test_same_cpu_is_direct(void **state)
{
	struct task_struct *p;
	struct wake_result r;

	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, NULL);
	p = blocked_on(1);
	tl_fork_running("waker", 1);
	r = wake_from(1, p);
	assert_false(r.queued);
	assert_int_equal(r.ipis, 0);
	tl_teardown();
}

/* same LLC, the target runqueue empty: only TTWU_QUEUE_IDLE queues */
static void same_llc_idle(const char *features, bool want_queued)
{
	struct wake_result r;

	tl_setup("smt2-2s-16", TL_REAL_COST, 0, features);
	r = wake_from(0, blocked_on(2));
	assert_int_equal(r.queued, want_queued);
	if (!want_queued) {
		/* direct: the waker enqueued it and kicked the idle CPU with a reschedule IPI */
		assert_int_equal(tl_cpu(0)->nr_ttwu_direct, 1);
		assert_int_equal(tl_cpu(0)->ipi_resched_sent, 1);
	}
	tl_teardown();
}

static void test_same_llc_idle_target(void **state)
{
	(void)state;
	same_llc_idle(NULL, true);					/* v6.0+ */
	same_llc_idle("NO_TTWU_QUEUE_IDLE", false);			/* 28156108fecb alone */
	same_llc_idle("NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1", false);	/* v5.8 */
	same_llc_idle("NO_TTWU_QUEUE", false);
}

/* same LLC, the target already runs a task: direct in every setting */
static void test_same_llc_busy_target(void **state)
{
	static const char *const settings[] = { NULL, "NO_TTWU_QUEUE_IDLE",
						"NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1" };

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(settings); i++) {
		struct task_struct *p;

		tl_setup("smt2-2s-16", TL_REAL_COST, 0, settings[i]);
		p = blocked_on(2);
		tl_fork_running("busy", 2);
		assert_false(wake_from(0, p).queued);
		tl_teardown();
	}
}

/*
 * The wakee is still on its CPU (mid-switch): before f3dd3f674555 that was
 * the only same-LLC case that queued, with nr_running == 0 (28156108fecb)
 * or <= 1 (v5.8).
 */
static bool on_cpu_wake(const char *features, unsigned int target_tasks)
{
	struct task_struct *p;
	bool queued;

	tl_setup("smt2-2s-16", TL_REAL_COST, 0, features);
	p = blocked_on(2);
	for (unsigned int i = 0; i < target_tasks; i++) {
		if (i == 0)
			tl_fork_running("other", 2);
		else
			tl_fork("other", 2);
	}
	p->on_cpu_until = sim_cpu(0)->t + 1000;	/* CPU2 still switching away from it */
	queued = wake_from(0, p).queued;
	tl_teardown();
	return queued;
}

static void test_on_cpu_wakee(void **state)
{
	(void)state;
	assert_true(on_cpu_wake("NO_TTWU_QUEUE_IDLE", 0));
	assert_false(on_cpu_wake("NO_TTWU_QUEUE_IDLE", 1));
	assert_true(on_cpu_wake("NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1", 1));
	assert_false(on_cpu_wake("NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1", 2));
	/* v6.0+: nr_running decides, on_cpu or not */
	assert_true(on_cpu_wake(NULL, 0));
	assert_false(on_cpu_wake(NULL, 1));
}

/*
 * Before v5.8 (NO_TTWU_QUEUE_ON_CPU) a wakee still on its CPU was never
 * queued there: the waker spun until that CPU had switched it out (here
 * 50 us later, as after a newidle balance), then woke it as any other, so
 * the wakelist takes it only after the spin, and (without v6.0's
 * TTWU_QUEUE_IDLE, as then) only across LLCs (CPU 4).
 * The default queues it at once either way.
 */
static void test_on_cpu_wakee_spun_on_before_v5_8(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		bool spin = v < 2, cross_llc = v & 1;
		unsigned int waker = cross_llc ? 4 : 0;
		struct task_struct *p;
		struct wake_result r;
		u64 until;

		tl_setup("smt2-2s-16", TL_REAL_COST, 0,
			 spin ? "NO_TTWU_QUEUE_ON_CPU,NO_TTWU_QUEUE_IDLE" : NULL);
		p = blocked_on(2);
		until = sim_cpu(waker)->t + 50 * NSEC_PER_USEC;
		p->on_cpu_until = until;
		r = wake_from(waker, p);
		assert_int_equal(r.queued, !spin || cross_llc);
		if (spin)
			assert_true(sim_cpu(waker)->t >= until);
		else
			assert_true(sim_cpu(waker)->t < until);
		/*
		 * the spin, what is left of the 50 us after the waker's own
		 * work, is counted on its CPU (the JSON's ttwu_on_cpu_spin_ns)
		 */
		assert_true(tl_cpu(waker)->ttwu_on_cpu_spin_ns <= 50 * NSEC_PER_USEC);
		assert_int_equal(tl_cpu(waker)->ttwu_on_cpu_spin_ns > 40 * NSEC_PER_USEC, spin);
		tl_teardown();
	}
}

/* two wakeups queued on one CPU: one IPI, the second finds the queue non-empty */
static void test_one_ipi_per_batch(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, NULL);
	a = blocked_on(4);
	b = blocked_on(4);
	assert_int_equal(wake_from(0, a).ipis, 1);
	sim_set_this_cpu(0);
	assert_int_equal(try_to_wake_up(b, TASK_NORMAL, 0), 1);
	assert_int_equal(tl_cpu(0)->ipi_sent, 1);
	assert_int_equal(tl_cpu(0)->nr_ttwu_queued, 2);
	/* the target flushes both under its own lock, then ttwu_pending clears */
	sim_set_this_cpu(4);
	flush_smp_call_function_queue(tl_cpu(4));
	assert_true(task_on_rq_queued(a) && task_on_rq_queued(b));
	assert_false(tl_cpu(4)->ttwu_pending);
	assert_int_equal(tl_cpu(4)->nr_running, 2);
	tl_teardown();
}

/* a polling idle target: need_resched instead of an IPI */
static void test_polling_target_gets_no_ipi(void **state)
{
	struct task_struct *p;
	struct wake_result r;

	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, NULL);
	p = blocked_on(4);
	tl_cpu(4)->polling = true;
	r = wake_from(0, p);
	assert_true(r.queued);
	assert_int_equal(r.ipis, 0);
	assert_int_equal(r.no_ipi, 1);
	assert_true(tl_cpu(4)->need_resched);
	/* and the polling CPU is woken through its flags: its step is queued */
	assert_true(ev_queued(&tl_cpu(4)->step_ev));
	tl_teardown();
}

/* end to end: pipe ping-pong between two CPUs of one LLC sends almost no IPIs */
static void test_polling_idle_end_to_end(void **state)
{
	char err[256];
	char *argv[] = { "perf", "bench", "sched", "pipe", "-l", "2000", NULL };
	struct session_config cfg = { .machine = "smt2-2s-16", .seed = 1, .argc = 6, .argv = argv };
	struct session s;
	u64 ipis = 0, no_ipi = 0;

	(void)state;
	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, true));
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		ipis += cpu_rq(cpu)->ipi_sent;
		no_ipi += cpu_rq(cpu)->nr_wake_without_ipi;
	}
	/* thousands of cross-CPU wakeups, handled by polling (POLL/MWAIT) CPUs */
	assert_true(no_ipi > 1000);
	assert_true(ipis < 20);
	session_end(&s);
}

/* SM_IDLE: an IPI storm on an idle CPU never runs the full pick path */
static u64 storm_full_picks(const char *features, u64 *elapsed_us, u64 *fast_out)
{
	char err[256];
	char *argv[] = { "ipistorm", "numipi=2000", "single=1", "offset=8", "cpulist=0", "wait=1",
			 NULL };
	struct session_config cfg = { .machine = "smt2-2s-16", .features = features, .seed = 1,
				      .argc = 6, .argv = argv };
	struct session s;
	u64 full = 0, fast = 0;

	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, true));
	full = cpu_rq(8)->nr_idle_full_pick;
	fast = cpu_rq(8)->nr_idle_fast;
	printf("  %s: CPU8 fast %llu full %llu, %llu us\n", features ? features : "SM_IDLE",
	       (unsigned long long)fast, (unsigned long long)full,
	       (unsigned long long)bench_elapsed_us(s.bench));
	*elapsed_us = bench_elapsed_us(s.bench);
	*fast_out = fast;
	assert_int_equal(s.bench->bogo_ops, 2000);
	session_end(&s);
	return full;
}

static void test_sm_idle(void **state)
{
	u64 with, without, fast;

	(void)state;
	/* with SM_IDLE: every wake of CPU8 (but the last) takes the fast path, none the full pick */
	assert_int_equal(storm_full_picks(NULL, &with, &fast), 0);
	assert_true(fast >= 1999);
	/* without: each IPI costs CPU8 a full pick */
	assert_true(storm_full_picks("NO_SM_IDLE", &without, &fast) >= 1999);
	assert_int_equal(fast, 0);
	assert_true(with < without);
}

/* PREEMPT_LAZY: a remote wakeup preemption waits for the target's tick */
static void test_preempt_lazy_no_ipi(void **state)
{
	struct task_struct *curr, *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, "NO_RUN_TO_PARITY");
	sysctl_sched.preempt = PREEMPT_LAZY_MODEL;
	curr = tl_fork_running("hog", 2);
	(void)curr;
	/* cpu_rq(), not tl_cpu(): the latter switches this CPU */
	sim_set_this_cpu(0);
	resched_curr_lazy(cpu_rq(2));
	assert_true(cpu_rq(2)->need_resched_lazy);
	assert_false(cpu_rq(2)->need_resched);
	assert_int_equal(cpu_rq(0)->ipi_sent, 0);
	/* the other models set the real flag, and a remote CPU gets an IPI */
	sysctl_sched.preempt = PREEMPT_VOLUNTARY_MODEL;
	p = tl_fork_running("hog2", 3);
	(void)p;
	sim_set_this_cpu(0);
	resched_curr_lazy(cpu_rq(3));
	assert_true(cpu_rq(3)->need_resched);
	assert_int_equal(cpu_rq(0)->ipi_sent, 1);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cross_llc_always_queues),
		cmocka_unit_test(test_same_cpu_is_direct),
		cmocka_unit_test(test_same_llc_idle_target),
		cmocka_unit_test(test_same_llc_busy_target),
		cmocka_unit_test(test_on_cpu_wakee),
		cmocka_unit_test(test_on_cpu_wakee_spun_on_before_v5_8),
		cmocka_unit_test(test_one_ipi_per_batch),
		cmocka_unit_test(test_polling_target_gets_no_ipi),
		cmocka_unit_test(test_polling_idle_end_to_end),
		cmocka_unit_test(test_sm_idle),
		cmocka_unit_test(test_preempt_lazy_no_ipi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
