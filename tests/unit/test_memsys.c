// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory system as kernel paths meet it (issue 11 items 1, 2, 5): a
 * remote enqueue pays for the target's runqueue lines where the wakelist
 * pays for three; the target pulls them back; a wait queue's woken entry
 * stays visible until the wake walk drops its lock, and a waker that looks
 * meanwhile spins on it; a polling idle CPU goes straight into
 * schedule_idle(), an interrupted one pays the idle loop's way out, and the
 * way in is paid before the CPU sleeps.
 *
 * smt2-2s-16: CPUs 0-3,8-11 share one LLC (package 0), 4-7,12-15 the other.
 */
#include "test_sched_helpers.h"

/* a task blocked (off every runqueue) whose last CPU is @cpu and may only run there */
static struct task_struct *blocked_on(unsigned int cpu)
{
	struct task_struct *p = tl_fork_running("sleeper", cpu);

	sim_set_this_cpu(cpu);
	tl_advance(100000);
	tl_block_current();
	cpumask_clear(p->cpus_mask);
	cpumask_set_cpu(cpu, p->cpus_mask);
	p->nr_cpus_allowed = 1;
	p->on_cpu_until = 0;
	return p;
}

/* the time try_to_wake_up() of @p takes on @waker, in line transfers and all */
static u64 wake_cost(const char *features, u64 *transfers)
{
	struct task_struct *p;
	u64 t0, x0;

	tl_setup("smt2-2s-16", TL_REAL_COST, 0, features);
	p = blocked_on(2);
	tl_cpu(0);
	tl_advance(1000000);
	t0 = cpu_now();
	x0 = coherence_stats.transfers;
	assert_int_equal(try_to_wake_up(p, TASK_NORMAL, 0), 1);
	*transfers = coherence_stats.transfers - x0;
	t0 = cpu_now() - t0;
	tl_teardown();
	return t0;
}

/*
 * Waking a task whose runqueue is idle in the same LLC: the direct path
 * takes the target's rq lock and writes its clock, cfs_rq, PELT, PSI and
 * cpufreq lines and the task's entity lines, all last written by the
 * target; the wakelist writes the call-single queue head, ttwu_pending and
 * the idle task's flags. Each transfer costs cacheline.llc here.
 */
static void test_remote_enqueue_pays_the_targets_lines(void **state)
{
	u64 direct_x, queued_x, direct, queued;

	(void)state;
	direct = wake_cost("NO_TTWU_QUEUE", &direct_x);
	queued = wake_cost(NULL, &queued_x);
	assert_true(direct_x >= 9);
	assert_true(queued_x <= 6);
	assert_true(direct_x >= queued_x + 5);
	assert_true(direct > queued);
}

/* the target pulls back, in sched_ttwu_pending() and the switch, what it owns */
static void test_target_pulls_its_lines_back(void **state)
{
	struct task_struct *p;
	struct rq *rq;
	u64 x0;

	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, "NO_TTWU_QUEUE");
	p = blocked_on(2);
	tl_cpu(0);
	tl_advance(1000000);
	assert_int_equal(try_to_wake_up(p, TASK_NORMAL, 0), 1);
	rq = tl_cpu(2);
	sim_cpu(2)->t = sim_cpu(0)->t + 10000;
	x0 = coherence_stats.transfers;
	assert_ptr_equal(tl_schedule(), p);
	/* its lock, clock, cfs_rq, the curr line and the entity come back */
	assert_true(coherence_stats.transfers - x0 >= 4);
	/* and a second pass over them is local */
	x0 = coherence_stats.transfers;
	rq->curr->__state = TASK_RUNNING;
	tl_advance(1000);
	assert_int_equal(coherence_stats.transfers - x0, 0);
	tl_teardown();
}

/*
 * __wake_up() holds the queue's lock across the walk; a CPU that checks
 * for sleepers during the walk still sees the woken entry and spins on
 * the lock until the walk is done; after it, the queue is empty.
 */
static void test_woken_entry_visible_until_the_walk_ends(void **state)
{
	struct wait_queue_head wq;
	struct task_struct *p;
	u64 start, end;

	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, NULL);
	init_waitqueue_head(&wq);
	p = tl_fork_running("sleeper", 2);
	tl_cpu(2);
	prepare_to_wait(&wq, false, TASK_INTERRUPTIBLE);
	__schedule(SM_NONE);
	assert_int_equal(p->on_rq, 0);
	p->on_cpu_until = 0;

	tl_cpu(0);
	sim_cpu(0)->t = 5 * NSEC_PER_MSEC;
	assert_true(wq_has_sleeper(&wq));
	assert_int_equal(__wake_up(&wq, TASK_INTERRUPTIBLE, 1, 0), 1);
	start = wq.walk_start;
	end = wq.walk_end;
	assert_true(start >= 5 * NSEC_PER_MSEC && end > start + machine.cost->ttwu);
	assert_false(waitqueue_active(&wq));

	/* CPU 1 looks in the middle of the walk: a sleeper, and it waits */
	tl_cpu(1);
	sim_cpu(1)->t = start + (end - start) / 2;
	assert_true(wq_has_sleeper(&wq));
	assert_int_equal(__wake_up(&wq, TASK_INTERRUPTIBLE, 1, 0), 0);
	assert_true(cpu_now() >= end);
	assert_int_equal(wq.lock.contended, 1);

	/* CPU 3 looks after it: nobody, no lock taken */
	tl_cpu(3);
	sim_cpu(3)->t = end + 1000;
	assert_false(wq_has_sleeper(&wq));
	/* and one that looked before the walk began (its CPU ran behind) neither */
	sim_cpu(3)->t = start - 1;
	assert_false(wq_has_sleeper(&wq));
	tl_teardown();
}

/* a CPU going idle pays idle_enter before it sleeps */
static void test_idle_entry_paid_before_sleeping(void **state)
{
	struct rq *rq;
	u64 t0, lat;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	tl.cost.idle_enter = 700;
	tl.cost.idle_exit = 300;
	rq = tl_cpu(5);
	sim_cpu(5)->t = 1000000;
	t0 = cpu_now();
	do_idle();
	assert_int_equal(cpu_now() - t0, 700);
	assert_int_equal(rq->idle_since, t0 + 700);
	assert_int_equal(sim_cpu(5)->act, ACT_IDLE);

	/* woken by an interrupt: the state's exit latency, then the way out */
	sim_cpu(5)->t = t0 + 50000;
	assert_true(rq->idle_state >= 0);
	lat = machine.topo->idle_states[rq->idle_state].exit_latency_ns;
	rq->polling = false;
	idle_exit(rq);
	assert_int_equal(cpu_now(), t0 + 50000 + lat + 300);

	/* a polling loop that sees need_resched goes straight on */
	do_idle();
	sim_cpu(5)->t += 10000;
	t0 = cpu_now();
	lat = machine.topo->idle_states[rq->idle_state].exit_latency_ns;
	rq->polling = true;
	rq->need_resched = true;
	idle_exit(rq);
	assert_int_equal(cpu_now(), t0 + lat);
	rq->need_resched = false;
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remote_enqueue_pays_the_targets_lines),
		cmocka_unit_test(test_target_pulls_its_lines_back),
		cmocka_unit_test(test_woken_entry_visible_until_the_walk_ends),
		cmocka_unit_test(test_idle_entry_paid_before_sleeping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
