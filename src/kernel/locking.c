// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the sleeping locks share: the spinning state of a task, the
 * notifications that end a stretch of spinning (the owner released the
 * lock or left its CPU, the osq moved on), the osq (kernel/locking/
 * osq_lock.c) as a FIFO of spinners whose head spins on the owner, and the
 * wake_q that wakes waiters after the wait_lock is dropped.
 */
#include "kernel/locking_internal.h"
#include "kernel/rtmutex.h"

#include <stdlib.h>
#include <string.h>

unsigned int nr_lock_spinners;
struct list_head all_mutexes = LIST_HEAD_INIT(all_mutexes);
struct list_head all_rwsems = LIST_HEAD_INIT(all_rwsems);
struct list_head all_spin_classes = LIST_HEAD_INIT(all_spin_classes);
/* every lock_waiter spinning now (the switch-out hook walks it) */
static struct list_head spinning = LIST_HEAD_INIT(spinning);
/* locks initialised so far (lock_stat_init()) */
static u64 next_lock_addr;

void lock_waiter_init(struct lock_waiter *w, struct task_struct *p)
{
	memset(w, 0, sizeof(*w));
	w->task = p;
	INIT_LIST_HEAD(&w->list);
	INIT_LIST_HEAD(&w->osq);
	INIT_LIST_HEAD(&w->spinning);
	INIT_LIST_HEAD(&w->pi_list);
	cache_line_init(&w->node, 1);
}

void locking_reset(void)
{
	INIT_LIST_HEAD(&all_mutexes);
	INIT_LIST_HEAD(&all_rwsems);
	INIT_LIST_HEAD(&all_rtmutexes);
	INIT_LIST_HEAD(&all_spin_classes);
	INIT_LIST_HEAD(&spinning);
	nr_lock_spinners = 0;
	next_lock_addr = 0;
}

void lock_notify(struct task_struct *p, u64 t)
{
	struct rq *rq = cpu_rq(task_cpu(p));

	if (t < machine.now)
		t = machine.now;
	if (ev_queued(&rq->step_ev) && rq->step_ev.time <= t)
		return;
	sim_schedule(&rq->step_ev, t);
}

void lock_spin_begin(struct lock_waiter *w)
{
	struct task_struct *p = w->task;

	if (p->lock_spinning)
		return;
	w->spin_since = cpu_now();
	list_add_tail(&w->spinning, &spinning);
	nr_lock_spinners++;
	p->lock_spinning = true;
	p->lock_waiter = w;
}

void lock_spin_end(struct lock_waiter *w, struct lock_class_stat *stat)
{
	struct task_struct *p = w->task;

	if (!p->lock_spinning)
		return;
	stat->spin_ns += cpu_now() - w->spin_since;
	/* a reader-spin time limit still armed as the CPU's step goes with the spin */
	if (w->rspin_until) {
		struct rq *rq = cpu_rq(task_cpu(p));

		if (ev_queued(&rq->step_ev) && rq->step_ev.time == w->rspin_until)
			sim_cancel(&rq->step_ev);
		w->rspin_until = 0;
	}
	list_del_init(&w->spinning);
	nr_lock_spinners--;
	p->lock_spinning = false;
	p->lock_waiter = NULL;
}

/* the osq head spins on the owner; without the osq every spinner does */
bool osq_active(struct list_head *osq, struct lock_waiter *w)
{
	return !sched_feat(MUTEX_OSQ) || list_first_entry(osq, struct lock_waiter, osq) == w;
}

/*
 * osq_lock()'s wait for its node's turn gives up when the predecessor's
 * vCPU is preempted (vcpu_is_preempted(node_cpu(node->prev))): the lock
 * would not pass through a vCPU that does not run. Only a node behind
 * another can wait on one; with MUTEX_OSQ off no spinner waits in a queue.
 */
bool osq_prev_preempted(struct list_head *osq, struct lock_waiter *w)
{
	if (!sched_feat(MUTEX_OSQ) || w->osq.prev == osq)
		return false;
	return vcpu_is_preempted(task_cpu(list_entry(w->osq.prev, struct lock_waiter, osq)->task));
}

/*
 * osq_lock(): xchg of the osq tail (in the lock's line), then the node
 * linked behind the old tail (the predecessor's node line is written).
 */
void osq_join(struct list_head *osq, struct cache_line *lock_line, struct lock_waiter *w)
{
	if (sched_feat(MUTEX_OSQ)) {
		charge(machine.cost->lock_atomic);
		cl_write(lock_line);
		cl_write(&w->node);
		if (!list_empty(osq))
			cl_write(&list_entry(osq->prev, struct lock_waiter, osq)->node);
	}
	list_add_tail(&w->osq, osq);
}

/*
 * osq_unlock() or the unqueue of a cancelled node: the head hands the osq
 * to the next node by writing its node line (the next spinner reads it
 * there), which then spins on the owner.
 */
void osq_leave(struct list_head *osq, struct cache_line *lock_line, struct lock_waiter *w)
{
	bool head = list_first_entry(osq, struct lock_waiter, osq) == w;

	list_del_init(&w->osq);
	if (!sched_feat(MUTEX_OSQ))
		return;
	charge(machine.cost->lock_atomic);
	if (list_empty(osq)) {
		cl_write(lock_line);
		return;
	}
	if (head) {
		struct lock_waiter *next = list_first_entry(osq, struct lock_waiter, osq);

		cl_write(&next->node);
		lock_notify(next->task, cpu_now());
	}
}

/* the owner changed or released the lock: the spinners that watch it look again */
void lock_notify_spinners(struct list_head *osq, struct list_head *wspin)
{
	struct lock_waiter *w;
	u64 t = cpu_now();

	list_for_each_entry(w, osq, osq)
	{
		lock_notify(w->task, t);
		if (sched_feat(MUTEX_OSQ))
			break;
	}
	list_for_each_entry(w, wspin, osq) lock_notify(w->task, t);
}

void lock_owner_switched_out(struct task_struct *prev)
{
	struct lock_waiter *w;
	u64 t = cpu_now();

	list_for_each_entry(w, &spinning, spinning) if (lock_waiter_owner(w) == prev)
		lock_notify(w->task, t);
}

/* the osq @w waits in, NULL when it spins outside one (a mutex's first waiter) */
static struct list_head *lock_waiter_osq(struct lock_waiter *w)
{
	if (w->phase != LW_OSQ)
		return NULL;
	if (w->kind == LK_MUTEX)
		return &((struct mutex *)w->lock)->osq;
	if (w->kind == LK_RWSEM_WRITE)
		return &((struct rw_semaphore *)w->lock)->osq;
	return NULL;
}

void lock_vcpu_preempted(unsigned int cpu)
{
	struct lock_waiter *w;
	u64 t = cpu_now();

	list_for_each_entry(w, &spinning, spinning) {
		struct task_struct *owner = lock_waiter_owner(w);
		struct list_head *osq = lock_waiter_osq(w);

		if ((owner && owner->on_cpu && task_cpu(owner) == cpu) ||
		    (osq && osq_prev_preempted(osq, w)))
			lock_notify(w->task, t);
	}
}

struct task_struct *lock_waiter_owner(const struct lock_waiter *w)
{
	if (w->kind == LK_MUTEX)
		return ((const struct mutex *)w->lock)->owner;
	if (w->kind == LK_RTMUTEX)
		return ((const struct rt_mutex *)w->lock)->owner;
	return ((const struct rw_semaphore *)w->lock)->owner;
}

void lock_spin_cancel(struct task_struct *p)
{
	struct lock_waiter *w = p->lock_waiter;

	if (w->kind == LK_MUTEX)
		mutex_spin_cancel(w);
	else if (w->kind == LK_RTMUTEX)
		rtmutex_spin_cancel(w);
	else
		rwsem_spin_cancel(w);
}

void wake_q_add(struct lock_waiter **head, struct lock_waiter *w)
{
	if (w->wake_queued)
		return;
	w->wake_queued = true;
	w->wake_next = *head;
	*head = w;
}

/* wake_up_q(): in the order they were added */
void wake_up_q(struct lock_waiter *head)
{
	struct lock_waiter *rev = NULL, *w, *next;

	for (w = head; w; w = next) {
		next = w->wake_next;
		w->wake_next = rev;
		rev = w;
	}
	for (w = rev; w; w = next) {
		next = w->wake_next;
		w->wake_next = NULL;
		w->wake_queued = false;
		wake_up_process(w->task);
	}
}

/* the waiter sleeps on the wait list (after the caller dropped the wait_lock) */
void lock_sleep(struct lock_waiter *w)
{
	w->phase = LW_WAIT;
	w->sleep_since = cpu_now();
	w->task->__state = w->sleep_state ? w->sleep_state : TASK_UNINTERRUPTIBLE;
	schedule();
}

/* back from sleep: the time off CPU */
void lock_woken(struct lock_waiter *w, struct lock_class_stat *stat)
{
	if (w->sleep_since) {
		stat->sleep_ns += cpu_now() - w->sleep_since;
		w->sleep_since = 0;
	}
}

void lock_acquired(struct lock_waiter *w, struct lock_class_stat *stat)
{
	stat->acquisitions++;
	if (w->begin) {
		u64 wait = cpu_now() - w->begin;

		stat->wait_ns += wait;
		if (wait > stat->max_wait_ns)
			stat->max_wait_ns = wait;
	}
	if (w->traced) {
		trace_sched(__trace_contention(TRACE_CONTENTION_END, stat->addr, 0));
		w->traced = false;
	}
	w->phase = LW_IDLE;
	w->begin = 0;
}

void lock_contended(struct lock_waiter *w, struct lock_class_stat *stat)
{
	stat->contended++;
	/* 0 is "not contended": a contention at time 0 counts from 1 ns */
	w->begin = cpu_now() ? cpu_now() : 1;
}

void lock_trace_begin(struct lock_waiter *w, struct lock_class_stat *stat, unsigned int flags)
{
	w->traced = true;
	trace_sched(__trace_contention(TRACE_CONTENTION_BEGIN, stat->addr, (int)flags));
}

/*
 * Simulated kernel addresses for the tracepoints: the locks sit 64 bytes
 * apart in the direct map, in the order they were initialised.
 */
#define LOCK_ADDR_BASE 0xffff888100000000ULL

void lock_stat_init(struct lock_class_stat *stat, const char *name, const char *type)
{
	memset(stat, 0, sizeof(*stat));
	stat->name = name;
	stat->type = type;
	stat->addr = LOCK_ADDR_BASE + 64 * next_lock_addr++;
}

void spin_lock_class_init(struct spin_lock_class *c, const char *name, const char *type,
			  unsigned int flags)
{
	lock_stat_init(&c->stat, name, type);
	c->flags = flags;
	list_add_tail(&c->node, &all_spin_classes);
}

void spin_lock_class_account(struct spin_lock_class *c, u64 wait)
{
	struct lock_class_stat *st = &c->stat;

	st->acquisitions++;
	if (!wait)
		return;
	st->contended++;
	st->spin_ns += wait;
	st->wait_ns += wait;
	if (wait > st->max_wait_ns)
		st->max_wait_ns = wait;
	trace_sched(__trace_contention(TRACE_CONTENTION_END, st->addr, 0));
}

void spin_lock_counted(struct sim_lock *l, struct spin_lock_class *c)
{
	u64 spun = l->spin_ns;

	if (l->free_at > cpu_now())
		trace_sched(
			__trace_contention(TRACE_CONTENTION_BEGIN, c->stat.addr, (int)c->flags));
	sim_lock_acquire(l);
	spin_lock_class_account(c, l->spin_ns - spun);
}

static void __attribute__((noreturn)) lock_bug(const char *name, const char *what)
{
	fprintf(stderr, "schedlab: check: lock %s: %s\n", name, what);
	abort();
}

/* the waiters of a wait list are in order of arrival and each is waiting on it */
static void check_wait_list(const char *name, struct list_head *wl, const void *lock)
{
	struct lock_waiter *w;

	list_for_each_entry(w, wl, list)
	{
		if (w->lock != lock)
			lock_bug(name, "a waiter on its wait list waits for another lock");
		if (w->phase != LW_WAIT && w->phase != LW_WAITER_SPIN)
			lock_bug(name, "a waiter on its wait list is not waiting");
	}
}

static const char *lock_waiter_name(const struct lock_waiter *w)
{
	if (w->kind == LK_MUTEX)
		return ((const struct mutex *)w->lock)->stat.name;
	if (w->kind == LK_RTMUTEX)
		return ((const struct rt_mutex *)w->lock)->stat.name;
	return ((const struct rw_semaphore *)w->lock)->stat.name;
}

void locking_check_invariants(void)
{
	struct lock_waiter *w;
	struct mutex *m;
	struct rw_semaphore *s;

	list_for_each_entry(w, &spinning, spinning)
	{
		struct task_struct *p = w->task;

		if (!p->lock_spinning || p->lock_waiter != w || cpu_rq(task_cpu(p))->curr != p)
			lock_bug(lock_waiter_name(w), "a spinner is not the running task of its CPU");
	}
	list_for_each_entry(m, &all_mutexes, node)
	{
		const char *n = m->stat.name;

		check_wait_list(n, &m->wait_list, m);
		if (!list_empty(&m->wait_list) != !!(m->flags & MUTEX_FLAG_WAITERS))
			lock_bug(n, "MUTEX_FLAG_WAITERS disagrees with the wait list");
		if ((m->flags & (MUTEX_FLAG_HANDOFF | MUTEX_FLAG_PICKUP)) && !m->owner)
			lock_bug(n, "handoff flags on an unlocked mutex");
		if (m->owner && m->owner->__state == TASK_DEAD)
			lock_bug(n, "owned by a task that exited");
		/*
		 * no lost wakeup: an unlocked mutex with waiters has its first
		 * waiter runnable (woken by the unlock) or spinning
		 */
		if (!m->owner && !list_empty(&m->wait_list)) {
			struct lock_waiter *f =
				list_first_entry(&m->wait_list, struct lock_waiter, list);

			if (f->task->__state == TASK_UNINTERRUPTIBLE)
				lock_bug(
					n,
					"unlocked with its first waiter asleep and nobody to wake it");
		}
	}
	rtmutex_check_invariants();
	list_for_each_entry(s, &all_rwsems, node)
	{
		const char *n = s->stat.name;

		check_wait_list(n, &s->wait_list, s);
		if (!list_empty(&s->wait_list) != s->waiters)
			lock_bug(n, "RWSEM_FLAG_WAITERS disagrees with the wait list");
		if (s->writer_locked && s->readers)
			lock_bug(n, "held by a writer and readers at once");
		if (s->writer_locked && (!s->owner || s->reader_owned))
			lock_bug(n, "writer-locked without a writer owner");
		if (!s->writer_locked && !s->readers && !list_empty(&s->wait_list)) {
			struct lock_waiter *f =
				list_first_entry(&s->wait_list, struct lock_waiter, list);

			if (f->task->__state == TASK_UNINTERRUPTIBLE)
				lock_bug(
					n,
					"unlocked with its first waiter asleep and nobody to wake it");
		}
	}
}
