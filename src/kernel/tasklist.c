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
 *    counters again;
 *
 * and that do_wait() (kernel/exit.c) takes for reading around its pass
 * over the waiter's children: wait()/wait4(-1) visits them in fork order
 * until the first zombie (do_wait_thread()), waitpid(pid) only its child
 * (do_wait_pid()).
 *
 * It is a queued rwlock (kernel/locking/qrwlock.c): readers share it; a
 * writer waits for the readers in it and for the writer before it; a
 * reader that finds a writer holding it or waiting for it waits until
 * that writer is done (queued_read_lock_slowpath(): only a reader in
 * interrupt context may pass a waiting writer, and no modelled reader is
 * one); the waiters go through the lock's wait_lock, first come first. The
 * model keeps the lock as the time it is free for each side: a writer
 * spins until the last writer and every reader before it have released it,
 * a reader until the last writer has (a writer that came before it, held
 * or waiting, is in its way), in the order the simulator runs the paths,
 * as struct sim_lock orders its takers. The spin is kernel time on the
 * taker's CPU. What a section costs is its compute (the tasklist_* cost
 * parameters, part of fork and exit, and tasklist_wait_child per child a
 * wait visits) and the lines it touches, each where the cache-line model
 * says the line is: the lock word (every reader's atomic writes it too),
 * the list head, the tail task's node, the parent's, the neighbours', the
 * counters, each child the wait visits. A thread goes on its group's
 * thread list, not on init_task.tasks: its sections write its parent's
 * lines. release_task() runs on the exiting task's CPU, where `exit`
 * charges the reaping (docs/locking.md).
 */
#include "kernel/tasklist.h"

#include "kernel/locking.h"
#include "kernel/sched.h"
#include "kernel/trace.h"

#include "sim/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	/*
	 * init_task.tasks: the tasks forked and not yet released, in fork
	 * order (p->tasklist). The simulator's own sched_world.tasks also
	 * keeps exited tasks until their statistics are collected, so the
	 * neighbours a fork or release writes are this list's.
	 */
	struct list_head tasks;
	struct cache_line line;		/* tasklist_lock: a line of its own */
	u64 write_free_at;		/* the last writer's release; UINT64_MAX while held */
	u64 read_free_at;		/* the latest release by a reader */
	unsigned int readers;		/* in it now (a section is one path: 0 or 1) */
	/* its lock_stat, by side as perf lock's rwlock:W and rwlock:R */
	struct spin_lock_class wclass, rclass;
	struct cache_line head;		/* init_task.tasks: the head's prev pointer */
	struct cache_line counters;	/* nr_threads, total_forks */
} tasklist;

void tasklist_reset(void)
{
	INIT_LIST_HEAD(&tasklist.tasks);
	cache_line_init(&tasklist.line, 1);
	tasklist.write_free_at = tasklist.read_free_at = 0;
	tasklist.readers = 0;
	spin_lock_class_init(&tasklist.wclass, "tasklist_lock", "rwlock:W",
			     LCB_F_SPIN | LCB_F_WRITE);
	spin_lock_class_init(&tasklist.rclass, "tasklist_lock", "rwlock:R",
			     LCB_F_SPIN | LCB_F_READ);
	cache_line_init(&tasklist.head, 1);
	cache_line_init(&tasklist.counters, 1);
}

static void __attribute__((noreturn)) tasklist_bug(const char *what)
{
	fprintf(stderr, "schedlab: BUG: CPU%u takes tasklist_lock %s\n", smp_processor_id(), what);
	abort();
}

/*
 * Spin on this CPU until @free_at, then the lock word's atomic: the
 * acquisition counted in @c, a contention if it had to spin.
 */
static void tasklist_acquire(struct spin_lock_class *c, u64 free_at)
{
	u64 wait = 0;

	if (free_at > cpu_now()) {
		trace_sched(__trace_contention(TRACE_CONTENTION_BEGIN, c->stat.addr,
					       (int)c->flags));
		wait = free_at - cpu_now();
		charge_stall(wait);
	}
	cl_write(&tasklist.line);
	spin_lock_class_account(c, wait);
}

static void write_lock_tasklist(void)
{
	if (tasklist.write_free_at == UINT64_MAX || tasklist.readers)
		tasklist_bug("for writing while it is held");
	/* queued_write_lock_slowpath(): the writer before it, then every reader in it */
	tasklist_acquire(&tasklist.wclass, max(tasklist.write_free_at, tasklist.read_free_at));
	tasklist.write_free_at = UINT64_MAX;
}

static void write_unlock_tasklist(void)
{
	tasklist.write_free_at = cpu_now();
}

static void read_lock_tasklist(void)
{
	if (tasklist.write_free_at == UINT64_MAX)
		tasklist_bug("for reading while it is held for writing");
	/* the reader's atomic add; queued_read_lock_slowpath(): behind the writer before it */
	charge(machine.cost->lock_atomic);
	tasklist_acquire(&tasklist.rclass, tasklist.write_free_at);
	tasklist.readers++;
}

static void read_unlock_tasklist(void)
{
	/* the reader's atomic sub on the lock word */
	charge(machine.cost->lock_atomic);
	cl_write(&tasklist.line);
	tasklist.readers--;
	tasklist.read_free_at = max(tasklist.read_free_at, cpu_now());
}

/* the node of the list entry @n: a task's, or the head's */
static struct cache_line *tasks_node_line(struct list_head *n)
{
	if (n == &tasklist.tasks)
		return &tasklist.head;
	return &list_entry(n, struct task_struct, tasklist)->cl.tasks;
}

/*
 * A parent's children in fork order, as two Fenwick trees over their fork
 * index: those still on its children list and those of them that have
 * exited. A wait() pass visits the children up to the first zombie; the
 * trees give that zombie and its place in O(log n), so that a parent of
 * 100,000 children (reaim -x) is not walked child by child at every pass.
 */
struct child_order {
	u32 *listed, *zombie; /* 1-based */
	struct task_struct **child; /* by index */
	unsigned int size, next; /* capacity (a power of two), indices used */
};

static void bit_add(u32 *t, unsigned int size, unsigned int i, int v)
{
	for (; i <= size; i += i & -i)
		t[i] += (u32)v;
}

static u32 bit_sum(const u32 *t, unsigned int i)
{
	u32 s = 0;

	for (; i; i -= i & -i)
		s += t[i];
	return s;
}

/* the smallest index whose prefix sum reaches 1: the first set one */
static unsigned int bit_first(const u32 *t, unsigned int size)
{
	unsigned int pos = 0;

	for (unsigned int step = size; step; step >>= 1)
		if (pos + step <= size && !t[pos + step])
			pos += step;
	return pos + 1;
}

/* double a tree: the new top node covers the old ones, the others start empty */
static u32 *bit_grow(u32 *t, unsigned int size, unsigned int nsize)
{
	u32 *n = xcalloc(nsize + 1, sizeof(*n));

	if (t) {
		memcpy(n, t, (size + 1) * sizeof(*n));
		n[nsize] = bit_sum(t, size);
		free(t);
	}
	return n;
}

static void child_order_add(struct task_struct *parent, struct task_struct *p)
{
	struct child_order *o = parent->child_order;

	if (!o)
		o = parent->child_order = xcalloc(1, sizeof(*o));
	if (o->next == o->size) {
		unsigned int nsize = o->size ? 2 * o->size : 16;

		o->listed = bit_grow(o->listed, o->size, nsize);
		o->zombie = bit_grow(o->zombie, o->size, nsize);
		o->child = xreallocarray(o->child, nsize + 1, sizeof(*o->child));
		o->size = nsize;
	}
	p->child_idx = ++o->next;
	o->child[p->child_idx] = p;
	bit_add(o->listed, o->size, p->child_idx, 1);
}

void tasklist_child_exited(struct task_struct *p)
{
	if (!list_empty(&p->sibling))
		bit_add(p->parent->child_order->zombie, p->parent->child_order->size, p->child_idx,
			1);
}

void tasklist_task_free(struct task_struct *p)
{
	struct child_order *o = p->child_order;

	if (!o)
		return;
	free(o->listed);
	free(o->zombie);
	free(o->child);
	free(o);
	p->child_order = NULL;
}

void tasklist_fork(struct task_struct *p, bool thread)
{
	write_lock_tasklist();
	charge(machine.cost->tasklist_fork);
	cl_write(&p->parent->cl.tasks);
	if (!thread) {
		/* list_add_tail(&p->sibling, &p->real_parent->children) */
		list_add_tail(&p->sibling, &p->parent->children);
		child_order_add(p->parent, p);
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

struct task_struct *tasklist_wait(struct task_struct *parent, struct task_struct *pid)
{
	struct child_order *o = parent->child_order;
	struct task_struct *found = NULL;

	read_lock_tasklist();
	if (pid) {
		/* do_wait_pid(): wait_consider_task() of that child alone */
		charge(machine.cost->tasklist_wait_child);
		cl_read(&pid->cl.tasks);
		if (pid->__state == TASK_DEAD)
			found = pid;
	} else if (o) {
		/*
		 * do_wait_thread(): the children in fork order up to the first
		 * zombie, or all of them. The live ones passed over are their
		 * compute: their lines stay in this CPU's cache from its last
		 * pass (their exit writes them, and makes them the zombie)
		 */
		unsigned int z = bit_sum(o->zombie, o->size) ? bit_first(o->zombie, o->size) : 0;
		u32 visits = z ? bit_sum(o->listed, z) : bit_sum(o->listed, o->size);

		charge(visits * machine.cost->tasklist_wait_child);
		if (z) {
			found = o->child[z];
			cl_read(&found->cl.tasks);
		}
	}
	read_unlock_tasklist();
	/* wait_task_zombie(): reaped, off the parent's children (release_task() is exit's) */
	if (found) {
		list_del_init(&found->sibling);
		bit_add(o->listed, o->size, found->child_idx, -1);
		bit_add(o->zombie, o->size, found->child_idx, -1);
		o->child[found->child_idx] = NULL;
		/* a task to be freed once reaped (sched_release_dead()) can go now */
		if (found->reap && !found->kthread && list_empty(&found->dying))
			list_add_tail(&found->dying, &sched_world.dying);
	}
	return found;
}
