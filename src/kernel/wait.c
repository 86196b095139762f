// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wait queues: a task waits for a condition (pipe data, buffer space,
 * a futex, a child's exit) and whoever makes it true wakes it.
 * Waiters are removed when woken (autoremove_wake_function semantics), so an
 * exclusive wakeup is never absorbed by a waiter that is already awake.
 */
#include "kernel/sched.h"

void init_waitqueue_head(struct wait_queue_head *wq)
{
	INIT_LIST_HEAD(&wq->head);
}

void prepare_to_wait(struct wait_queue_head *wq, bool exclusive, unsigned int state)
{
	struct task_struct *p = current;

	if (list_empty(&p->wq_entry.entry)) {
		p->wq_entry.exclusive = exclusive;
		/* exclusive waiters queue at the tail, as prepare_to_wait_exclusive() */
		if (exclusive)
			list_add_tail(&p->wq_entry.entry, &wq->head);
		else
			list_add(&p->wq_entry.entry, &wq->head);
	}
	p->__state = state;
}

void finish_wait(struct wait_queue_head *wq)
{
	struct task_struct *p = current;

	(void)wq;
	p->__state = TASK_RUNNING;
	if (!list_empty(&p->wq_entry.entry))
		list_del_init(&p->wq_entry.entry);
}

int __wake_up(struct wait_queue_head *wq, unsigned int state, int nr_exclusive, int wake_flags)
{
	struct wait_queue_entry *e, *n;
	int woken = 0;

	list_for_each_entry_safe(e, n, &wq->head, entry) {
		bool exclusive = e->exclusive;
		int ret = try_to_wake_up(e->task, state, wake_flags);

		if (ret) {
			list_del_init(&e->entry);
			woken++;
		}
		if (ret && exclusive && !--nr_exclusive)
			break;
	}
	return woken;
}
