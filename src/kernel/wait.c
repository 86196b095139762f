// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wait queues: a task waits for a condition (pipe data, buffer space,
 * a futex, a child's exit) and whoever makes it true wakes it.
 * Waiters are removed when woken (autoremove_wake_function semantics), so an
 * exclusive wakeup is never absorbed by a waiter that is already awake.
 *
 * The queue's spinlock is held for the whole wake walk, try_to_wake_up()
 * of every woken waiter included, so a waker that wants the same queue
 * (another sender, the sleeper re-queueing itself) spins meanwhile.
 */
#include "kernel/sched.h"

void init_waitqueue_head(struct wait_queue_head *wq)
{
	sim_lock_init_in_path(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

bool wq_has_sleeper(struct wait_queue_head *wq)
{
	u64 now;

	cl_read(&wq->lock.line);
	if (waitqueue_active(wq))
		return true;
	/* a walk in progress at our now: its woken entries are still queued */
	now = cpu_now();
	return wq->walk_start <= now && now < wq->walk_end;
}

void prepare_to_wait(struct wait_queue_head *wq, bool exclusive, unsigned int state)
{
	struct task_struct *p = current;

	sim_lock_acquire(&wq->lock);
	if (list_empty(&p->wq_entry.entry)) {
		p->wq_entry.exclusive = exclusive;
		/* exclusive waiters queue at the tail, as prepare_to_wait_exclusive() */
		if (exclusive)
			list_add_tail(&p->wq_entry.entry, &wq->head);
		else
			list_add(&p->wq_entry.entry, &wq->head);
	}
	p->__state = state;
	sim_lock_release(&wq->lock);
}

void finish_wait(struct wait_queue_head *wq)
{
	struct task_struct *p = current;

	p->__state = TASK_RUNNING;
	/* list_empty_careful(): only a task still queued takes the lock */
	if (!list_empty(&p->wq_entry.entry)) {
		sim_lock_acquire(&wq->lock);
		list_del_init(&p->wq_entry.entry);
		sim_lock_release(&wq->lock);
	}
}

int __wake_up(struct wait_queue_head *wq, unsigned int state, int nr_exclusive, int wake_flags)
{
	struct wait_queue_entry *e, *n;
	int woken = 0;
	u64 start;

	sim_lock_acquire(&wq->lock);
	start = cpu_now();
	list_for_each_entry_safe(e, n, &wq->head, entry)
	{
		bool exclusive = e->exclusive;
		int ret;

		charge(machine.cost->wake_walk);
		ret = try_to_wake_up(e->task, state, wake_flags);

		if (ret) {
			list_del_init(&e->entry);
			woken++;
		}
		if (ret && exclusive && !--nr_exclusive)
			break;
	}
	sim_lock_release(&wq->lock);
	if (woken) {
		wq->walk_start = start;
		wq->walk_end = cpu_now();
	}
	return woken;
}
