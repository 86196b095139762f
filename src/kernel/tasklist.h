/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tasklist_lock (kernel/fork.c, kernel/exit.c): every fork, exit and reap
 * of every workload takes the one machine-wide rwlock for writing and
 * writes the lines of the task lists under it; every wait for a child
 * takes it for reading while it looks at the children.
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

/* do_exit() of @p: a zombie on its parent's children until a wait reaps it */
void tasklist_child_exited(struct task_struct *p);
/* @p is freed: its children's order */
void tasklist_task_free(struct task_struct *p);

/*
 * One pass of do_wait() by @parent under read_lock(&tasklist_lock): over
 * its children in fork order up to the first that has exited (wait(),
 * @pid NULL), or over the child @pid alone (waitpid()). Returns the zombie
 * it reaps, now off @parent's children, or NULL: nothing to reap yet.
 */
struct task_struct *tasklist_wait(struct task_struct *parent, struct task_struct *pid);

#endif
