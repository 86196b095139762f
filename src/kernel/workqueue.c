// SPDX-License-Identifier: GPL-2.0-only
/*
 * A minimal per-CPU workqueue after kernel/workqueue.c: each CPU has one
 * bound worker_pool with one worker, "kworker/N:1", a SCHED_NORMAL kthread
 * at nice 0 (a normal-priority pool's worker). schedule_work_on() puts the
 * item on the pool's worklist and wakes the worker (kick_pool()); the
 * worker's worker_thread() runs the items one per step, in order, and
 * sleeps when the list is empty. The items' own paths charge their cost
 * parameters; the pool's bookkeeping (process_one_work()) is counted in
 * them, as the only user (the dbs governors) documents.
 */
#include "kernel/workqueue.h"

#include "kernel/sched.h"
#include "sim/alloc.h"

#include <stdio.h>
#include <stdlib.h>

struct worker_pool {
	struct list_head worklist;
	struct task_struct *worker;
};

static struct worker_pool *pools; /* [nr_cpus], NULL until workqueue_init() */

void init_work(struct work_struct *work, work_func_t func)
{
	work->func = func;
	INIT_LIST_HEAD(&work->entry);
	work->pending = false;
}

/* worker_thread(): one item per step, then schedule() with nothing left */
static void worker_thread(struct task_struct *p)
{
	struct worker_pool *pool = p->exec_data;
	struct work_struct *work;

	if (list_empty(&pool->worklist)) {
		p->__state = TASK_INTERRUPTIBLE;
		schedule();
		return;
	}
	work = list_first_entry(&pool->worklist, struct work_struct, entry);
	/* process_one_work(): off the list and no longer pending, then run */
	list_del_init(&work->entry);
	work->pending = false;
	work->func(work);
}

static const struct task_exec worker_exec = { .step = worker_thread };

bool schedule_work_on(unsigned int cpu, struct work_struct *work)
{
	struct worker_pool *pool = &pools[cpu];

	if (work->pending)
		return false;
	work->pending = true;
	list_add_tail(&work->entry, &pool->worklist);
	/* kick_pool(): a sleeping worker is woken; a running one finds it */
	wake_up_process(pool->worker);
	return true;
}

void cancel_work(struct work_struct *work)
{
	if (!work->pending)
		return;
	list_del_init(&work->entry);
	work->pending = false;
}

void workqueue_init(void)
{
	pools = xcalloc(machine.nr_cpus, sizeof(*pools));
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		char comm[32];

		INIT_LIST_HEAD(&pools[cpu].worklist);
		snprintf(comm, sizeof(comm), "kworker/%u:1", cpu);
		pools[cpu].worker = kthread_create_on_cpu(comm, &worker_exec, &pools[cpu], cpu);
	}
}

void workqueue_exit(void)
{
	/* the workers are tasks: sched_exit() frees them */
	free(pools);
	pools = NULL;
}

struct task_struct *kworker_of(unsigned int cpu)
{
	return pools ? pools[cpu].worker : NULL;
}
