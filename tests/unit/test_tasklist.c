// SPDX-License-Identifier: GPL-2.0-only
/*
 * tasklist_lock (kernel/tasklist.c): fork and exit take it for writing and
 * count in its lock_stat class; two forks at one instant on two CPUs
 * serialise, the second spinning for the first's whole section, lines and
 * all; a release writes its neighbours' nodes on the task list, which
 * holds processes only, in fork order. Its read side (do_wait()) is a
 * queued rwlock's: a reader waits for a writer in it, a writer for the
 * readers, and a reader that comes while a writer waits waits for that
 * writer although other readers hold the lock.
 */
#include "test_util.h"
#include "test_sched_helpers.h"

#include "kernel/locking.h"
#include "kernel/tasklist.h"

static const struct lock_class_stat *tasklist_side(const char *type)
{
	struct spin_lock_class *c;

	list_for_each_entry(c, &all_spin_classes, node)
		if (!strcmp(c->stat.name, "tasklist_lock") && !strcmp(c->stat.type, type))
			return &c->stat;
	fail_msg("no tasklist_lock class %s", type);
	return NULL;
}

static const struct lock_class_stat *tasklist_class(void)
{
	return tasklist_side("rwlock:W");
}

static const struct lock_class_stat *tasklist_readers(void)
{
	return tasklist_side("rwlock:R");
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

/* the CPUs' cursors at @t, as if they were in the same instant */
static void cursors3_at(u64 t)
{
	for (unsigned int cpu = 0; cpu < 3; cpu++) {
		tl_cpu(cpu);
		assert_true(this_sim_cpu()->t <= t);
		charge(t - this_sim_cpu()->t);
	}
	tl_cpu(0);
}

/* a parent with @n live children: a wait() pass over them reads n children */
static struct task_struct *parent_of(unsigned int n)
{
	struct task_struct *parent = tl_fork("parent", 0);

	for (unsigned int i = 0; i < n; i++)
		fork_on(0, parent, false);
	return parent;
}

#define T0 1000000ULL

static void test_reader_waits_for_writer(void **state)
{
	struct task_struct *parent;
	u64 wrote;

	(void)state;
	tl_setup("smp4", true, 0, NULL);
	tl.cost.tasklist_fork = 1000;
	tl.cost.tasklist_wait_child = 100;
	parent = parent_of(2);
	cursors3_at(T0);
	fork_on(0, parent, false); /* the write section: T0 .. T0 + 1000 */
	wrote = cpu_now();
	assert_int_equal(wrote, T0 + 1000);
	tl_cpu(1);
	/* the wait() pass finds no zombie among 3 live children */
	assert_null(tasklist_wait(parent, NULL));
	assert_int_equal(tasklist_readers()->acquisitions, 1);
	assert_int_equal(tasklist_readers()->contended, 1);
	assert_int_equal(tasklist_readers()->spin_ns, 1000);
	assert_int_equal(cpu_now(), wrote + 3 * 100);
	tl_teardown();
}

static void test_writer_waits_for_readers(void **state)
{
	struct task_struct *parent, *other;

	(void)state;
	tl_setup("smp4", true, 0, NULL);
	tl.cost.tasklist_wait_child = 100;
	tl.cost.tasklist_fork = 1000;
	parent = parent_of(10);
	other = tl_fork("other", 2);
	cursors3_at(T0);
	/* two readers at once share it: neither waits */
	tasklist_wait(parent, NULL);
	assert_int_equal(cpu_now(), T0 + 10 * 100);
	tl_cpu(1);
	tasklist_wait(parent, NULL);
	assert_int_equal(cpu_now(), T0 + 10 * 100);
	assert_int_equal(tasklist_readers()->contended, 0);
	/* a writer waits for both */
	tl_cpu(2);
	fork_on(2, other, false);
	assert_int_equal(tasklist_class()->contended, 1);
	assert_int_equal(tasklist_class()->spin_ns, 10 * 100);
	assert_int_equal(cpu_now(), T0 + 10 * 100 + 1000);
	tl_teardown();
}

static void test_readers_queue_behind_waiting_writer(void **state)
{
	struct task_struct *parent, *small, *other;

	(void)state;
	tl_setup("smp4", true, 0, NULL);
	tl.cost.tasklist_wait_child = 100;
	tl.cost.tasklist_fork = 1000;
	parent = parent_of(10);
	small = parent_of(1);
	other = tl_fork("other", 2);
	cursors3_at(T0);
	/* CPU 0 reads T0 .. T0 + 1000 */
	tasklist_wait(parent, NULL);
	/* CPU 2's writer comes at T0 + 10 and waits for it: T0 + 1000 .. T0 + 2000 */
	tl_cpu(2);
	charge(10);
	fork_on(2, other, false);
	assert_int_equal(cpu_now(), T0 + 2000);
	/*
	 * CPU 1's reader comes at T0 + 20, the lock read-held: it does not
	 * join the reader in it but waits behind the writer (qrwlock's
	 * fairness), then reads its one child
	 */
	tl_cpu(1);
	charge(20);
	tasklist_wait(small, NULL);
	assert_int_equal(tasklist_readers()->contended, 1);
	assert_int_equal(tasklist_readers()->spin_ns, 2000 - 20);
	assert_int_equal(cpu_now(), T0 + 2000 + 100);
	tl_teardown();
}

/* wait() reaps the first zombie in fork order; waitpid() looks at its child alone */
static void test_wait_scan(void **state)
{
	struct task_struct *parent, *a, *b, *c;

	(void)state;
	tl_setup("smp4", true, 0, NULL);
	tl.cost.tasklist_wait_child = 100;
	parent = tl_fork("parent", 0);
	a = fork_on(0, parent, false);
	b = fork_on(0, parent, false);
	c = fork_on(0, parent, false);
	b->__state = TASK_DEAD;
	c->__state = TASK_DEAD;
	tasklist_child_exited(b);
	tasklist_child_exited(c);
	charge(T0 - cpu_now());
	assert_ptr_equal(tasklist_wait(parent, NULL), b);
	assert_int_equal(cpu_now(), T0 + 2 * 100);
	assert_true(list_empty(&b->sibling));
	assert_null(tasklist_wait(parent, a));
	assert_int_equal(cpu_now(), T0 + 3 * 100);
	assert_ptr_equal(tasklist_wait(parent, c), c);
	assert_int_equal(tasklist_readers()->acquisitions, 3);
	/* reaped: only a is left to wait for */
	assert_ptr_equal(parent->children.next, &a->sibling);
	assert_ptr_equal(a->sibling.next, &parent->children);
	a->__state = TASK_DEAD;
	b->__state = c->__state = TASK_RUNNING;
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forks_serialise),
		cmocka_unit_test(test_fork_and_exit_sections),
		cmocka_unit_test(test_reader_waits_for_writer),
		cmocka_unit_test(test_writer_waits_for_readers),
		cmocka_unit_test(test_readers_queue_behind_waiting_writer),
		cmocka_unit_test(test_wait_scan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
