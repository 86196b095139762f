/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tasklist_lock's write sections (kernel/fork.c, kernel/exit.c): every
 * fork, exit and reap of every workload takes the one machine-wide rwlock
 * and writes the lines of the task lists under it.
 */
#ifndef SCHEDLAB_KERNEL_TASKLIST_H
#define SCHEDLAB_KERNEL_TASKLIST_H

#include "sim/machine.h"

struct task_struct;

/* tasklist_lock and its lists' shared lines, as at boot (sched_init()) */
void tasklist_reset(void);

/* copy_process(): link @p onto the task list under the lock */
void tasklist_fork(struct task_struct *p, bool thread);

/*
 * exit_notify(): the section runs from tasklist_exit_notify_lock() to
 * tasklist_exit_notify_unlock(); the caller wakes the parent between them,
 * as __wake_up_parent() does with the lock held.
 */
void tasklist_exit_notify_lock(struct task_struct *p);
void tasklist_exit_notify_unlock(void);

/* release_task(): unlink @p from the lists under the lock */
void tasklist_release(struct task_struct *p);

#endif
