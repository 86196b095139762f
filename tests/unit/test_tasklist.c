// SPDX-License-Identifier: GPL-2.0-only
/*
 * tasklist_lock (kernel/tasklist.c): fork and exit take it for writing and
 * count in its lock_stat class; two forks at one instant on two CPUs
 * serialise, the second spinning for the first's whole section, lines and
 * all; a release writes its neighbours' nodes on the task list, which
 * holds processes only, in fork order.
 */
#include "test_util.h"
#include "test_sched_helpers.h"

#include "kernel/locking.h"
#include "kernel/tasklist.h"

static const struct lock_class_stat *tasklist_class(void)
{
	struct spin_lock_class *c;

	list_for_each_entry(c, &all_spin_classes, node)
		if (!strcmp(c->stat.name, "tasklist_lock"))
			return &c->stat;
	fail_msg("no tasklist_lock class");
	return NULL;
}

/* both CPUs' cursors at @t, as if two CPUs were in the same instant */
static void cursors_at(u64 t)
{
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		tl_cpu(cpu);
		assert_true(this_sim_cpu()->t <= t);
		charge(t - this_sim_cpu()->t);
	}
}

static struct task_struct *fork_on(unsigned int cpu, struct task_struct *parent, bool thread)
{
	tl_cpu(cpu);
	return sched_fork_task(parent, thread, "child", &tl_noop_exec, NULL, (int)cpu);
}

static void two_forks_at_once(bool line_costs, u64 *spin, u64 *contended, u64 *hold)
{
	struct task_struct *parent;

	tl_setup("smp4", false, 0, NULL);
	if (!line_costs)
		tl_no_line_costs();
	parent = tl_fork("parent", 0);
	assert_int_equal(tasklist_class()->acquisitions, 0); /* no parent: no copy_process() */
	cursors_at(1000000);
	fork_on(0, parent, false);
	fork_on(1, parent, false);
	assert_int_equal(tasklist_class()->acquisitions, 2);
	*spin = tasklist_class()->spin_ns;
	*contended = tasklist_class()->contended;
	*hold = tl.cost.tasklist_fork;
	tl_teardown();
}

static void test_forks_serialise(void **state)
{
	u64 spin, contended, hold;

	(void)state;
	/* no line costs: CPU 1 arrives as CPU 0 enters and waits out its compute */
	two_forks_at_once(false, &spin, &contended, &hold);
	assert_int_equal(contended, 1);
	assert_true(hold > 0);
	assert_int_equal(spin, hold);
	/* with them, the first section also moved the lock, the head and the counters */
	two_forks_at_once(true, &spin, &contended, &hold);
	assert_int_equal(contended, 1);
	assert_true(spin > hold);
}

static void test_fork_and_exit_sections(void **state)
{
	struct task_struct *parent, *a, *b, *c, *t;
	const struct lock_class_stat *st;

	(void)state;
	tl_setup("smp4", false, 0, NULL);
	parent = tl_fork("parent", 0);
	a = fork_on(0, parent, false);
	b = fork_on(0, parent, false);
	c = fork_on(0, parent, false);
	t = fork_on(0, parent, true);
	st = tasklist_class();
	assert_int_equal(st->acquisitions, 4);
	assert_int_equal(st->contended, 0);
	/* processes go on the task list in fork order; the thread does not */
	assert_ptr_equal(a->tasklist.next, &b->tasklist);
	assert_ptr_equal(b->tasklist.next, &c->tasklist);
	assert_true(list_empty(&t->tasklist));
	/* b released on CPU 2: a's and c's nodes are written there, b leaves the list */
	tl_cpu(2);
	tasklist_release(b);
	assert_int_equal(a->cl.tasks.owner, 2);
	assert_int_equal(c->cl.tasks.owner, 2);
	assert_int_equal(parent->cl.tasks.owner, 2);
	assert_ptr_equal(a->tasklist.next, &c->tasklist);
	assert_true(list_empty(&b->tasklist));
	assert_int_equal(st->acquisitions, 5);
	/* exit_notify()'s section, as do_exit() brackets the parent's wakeup */
	tasklist_exit_notify_lock(c);
	tasklist_exit_notify_unlock();
	assert_int_equal(st->acquisitions, 6);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forks_serialise),
		cmocka_unit_test(test_fork_and_exit_sections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
