/* SPDX-License-Identifier: GPL-2.0-only */
/* What mutex.c, rwsem.c and locking.c share (kernel/locking/ internals). */
#ifndef SCHEDLAB_KERNEL_LOCKING_INTERNAL_H
#define SCHEDLAB_KERNEL_LOCKING_INTERNAL_H

#include "kernel/locking.h"
#include "kernel/sched.h"
#include "kernel/trace.h"

/* arm @p's CPU step at @t (not before now): it looks at the lock again */
void lock_notify(struct task_struct *p, u64 t);
void lock_notify_spinners(struct list_head *osq, struct list_head *wspin);
void lock_spin_begin(struct lock_waiter *w);
void lock_spin_end(struct lock_waiter *w, struct lock_class_stat *stat);
bool osq_active(struct list_head *osq, struct lock_waiter *w);
bool osq_prev_preempted(struct list_head *osq, struct lock_waiter *w);
void osq_join(struct list_head *osq, struct cache_line *lock_line, struct lock_waiter *w);
void osq_leave(struct list_head *osq, struct cache_line *lock_line, struct lock_waiter *w);
struct task_struct *lock_waiter_owner(const struct lock_waiter *w);
void wake_q_add(struct lock_waiter **head, struct lock_waiter *w);
void wake_up_q(struct lock_waiter *head);
void lock_sleep(struct lock_waiter *w);
void lock_woken(struct lock_waiter *w, struct lock_class_stat *stat);
void lock_acquired(struct lock_waiter *w, struct lock_class_stat *stat);
void lock_contended(struct lock_waiter *w, struct lock_class_stat *stat);
/* trace_contention_begin(lock, @flags) */
void lock_trace_begin(struct lock_waiter *w, struct lock_class_stat *stat, unsigned int flags);
/* a new lock's statistics: its name, type and simulated address */
void lock_stat_init(struct lock_class_stat *stat, const char *name, const char *type);
void mutex_spin_cancel(struct lock_waiter *w);
void rwsem_spin_cancel(struct lock_waiter *w);

/*
 * owner_on_cpu(): the owner runs (a task being switched out still counts
 * until it is) on a vCPU the host has not preempted: spinning on an owner
 * that makes no progress only burns the spinner's time
 */
static inline bool owner_on_cpu(const struct task_struct *owner)
{
	return owner->on_cpu && !vcpu_is_preempted(task_cpu(owner));
}

#endif
