// SPDX-License-Identifier: GPL-2.0-only
/*
 * tasklist_lock: the machine-wide rwlock (kernel/fork.c's
 * __cacheline_aligned DEFINE_RWLOCK) that every fork, exit and reap takes
 * for writing, as v6.18 does:
 *
 *  - copy_process(): write_lock_irq() around linking the child, a process
 *    onto init_task.tasks and its parent's children, a thread onto its
 *    group's thread list, attach_pid() and the counters nr_threads and
 *    total_forks;
 *  - exit_notify(): forget_original_parent(), do_notify_parent() and the
 *    parent's wakeup (__wake_up_parent()) with the lock held;
 *  - release_task(): __exit_signal() and __unhash_process(), list_del_rcu()
 *    of the task from init_task.tasks (its neighbours' nodes) and the
 *    counters again.
 *
 * It is modelled as a spinning lock (struct sim_lock): a writer that finds
 * it held spins until it is free, on its CPU. What the section costs is its
 * compute (the tasklist_* cost parameters, part of fork and exit) and the
 * lines it writes, each where the cache-line model says the line is: the
 * lock word, the list head, the tail task's node, the parent's, the
 * neighbours', the counters. A thread goes on its group's thread list, not
 * on init_task.tasks: its sections write its parent's lines. Readers
 * (do_wait()'s read_lock()) are not modelled; release_task() runs on the
 * exiting task's CPU, where `exit` charges the reaping (docs/locking.md).
 */
#include "kernel/tasklist.h"

#include "kernel/locking.h"
#include "kernel/sched.h"
#include "kernel/trace.h"

static struct {
	/*
	 * init_task.tasks: the tasks forked and not yet released, in fork
	 * order (p->tasklist). The simulator's own sched_world.tasks also
	 * keeps exited tasks until their statistics are collected, so the
	 * neighbours a fork or release writes are this list's.
	 */
	struct list_head tasks;
	struct sim_lock lock;		/* tasklist_lock: a line of its own */
	struct spin_lock_class class;	/* its lock_stat: perf lock's "rwlock" */
	struct cache_line head;		/* init_task.tasks: the head's prev pointer */
	struct cache_line counters;	/* nr_threads, total_forks */
} tasklist;

void tasklist_reset(void)
{
	INIT_LIST_HEAD(&tasklist.tasks);
	sim_lock_init_in_path(&tasklist.lock);
	spin_lock_class_init(&tasklist.class, "tasklist_lock", "rwlock", LCB_F_SPIN | LCB_F_WRITE);
	cache_line_init(&tasklist.head, 1);
	cache_line_init(&tasklist.counters, 1);
}

/* the node of the list entry @n: a task's, or the head's */
static struct cache_line *tasks_node_line(struct list_head *n)
{
	if (n == &tasklist.tasks)
		return &tasklist.head;
	return &list_entry(n, struct task_struct, tasklist)->cl.tasks;
}

static void write_lock_tasklist(void)
{
	spin_lock_counted(&tasklist.lock, &tasklist.class);
}

static void write_unlock_tasklist(void)
{
	sim_lock_release(&tasklist.lock);
}

void tasklist_fork(struct task_struct *p, bool thread)
{
	write_lock_tasklist();
	charge(machine.cost->tasklist_fork);
	cl_write(&p->parent->cl.tasks);
	if (!thread) {
		/* list_add_tail_rcu(&p->tasks, &init_task.tasks): the old tail's node and the head */
		cl_write(tasks_node_line(tasklist.tasks.prev));
		cl_write(&tasklist.head);
		list_add_tail(&p->tasklist, &tasklist.tasks);
	}
	cl_write(&tasklist.counters);
	write_unlock_tasklist();
}

void tasklist_exit_notify_lock(struct task_struct *p)
{
	write_lock_tasklist();
	charge(machine.cost->tasklist_exit);
	if (p->parent)
		cl_write(&p->parent->cl.tasks);
}

void tasklist_exit_notify_unlock(void)
{
	write_unlock_tasklist();
}

void tasklist_release(struct task_struct *p)
{
	write_lock_tasklist();
	charge(machine.cost->tasklist_release);
	if (!list_empty(&p->tasklist)) {
		cl_write(tasks_node_line(p->tasklist.prev));
		cl_write(tasks_node_line(p->tasklist.next));
		list_del_init(&p->tasklist);
	}
	if (p->parent)
		cl_write(&p->parent->cl.tasks);
	cl_write(&tasklist.counters);
	write_unlock_tasklist();
}
