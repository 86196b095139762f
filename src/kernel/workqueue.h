/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A minimal per-CPU workqueue (kernel/workqueue.c's system_wq on a bound
 * pool): schedule_work_on() queues a work item on a CPU's pool, whose
 * worker "kworker/N:1" (a SCHED_NORMAL kthread bound to N) runs the items
 * in order as a task, so their run time delays and is delayed by others as
 * in the kernel. One worker per CPU: no concurrency management, rescuers
 * or unbound pools (nothing here sleeps in a work item).
 */
#ifndef SCHEDLAB_KERNEL_WORKQUEUE_H
#define SCHEDLAB_KERNEL_WORKQUEUE_H

#include "kernel/list.h"

#include <stdbool.h>

struct task_struct;
struct work_struct;

typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	work_func_t func;
	struct list_head entry; /* on its pool's worklist while pending */
	bool pending; /* WORK_STRUCT_PENDING */
};

/* INIT_WORK() */
void init_work(struct work_struct *work, work_func_t func);
/*
 * schedule_work_on(): queue @work on @cpu's pool and wake its worker;
 * false if it is pending already
 */
bool schedule_work_on(unsigned int cpu, struct work_struct *work);
/* cancel_work(): take a pending @work off its pool (the run's end) */
void cancel_work(struct work_struct *work);

/* the per-CPU pools and their workers, created asleep (at cpufreq_init()) */
void workqueue_init(void);
void workqueue_exit(void);
/* @cpu's worker, NULL without workqueue_init() */
struct task_struct *kworker_of(unsigned int cpu);

#endif
