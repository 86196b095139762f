// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct rt_mutex with priority inheritance, written from the behaviour of
 * Linux v6.18's kernel/locking/rtmutex.c (kernel/rtmutex.h,
 * docs/locking.md). The kernel's rb-trees (the lock's waiters, the owner's
 * pi_waiters) are sorted lists here: the same order (priority, then
 * arrival), the top in front. schedlab has no SCHED_DEADLINE tasks, so
 * the deadline key of rt_waiter_node_less() never decides.
 */
#include "kernel/rtmutex.h"

#include "kernel/locking_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE(lock) (&(lock)->wait_lock.line)

struct list_head all_rtmutexes = LIST_HEAD_INIT(all_rtmutexes);

void rt_mutex_init(struct rt_mutex *lock, const char *name)
{
	memset(lock, 0, sizeof(*lock));
	sim_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->waiters);
	INIT_LIST_HEAD(&lock->wspin);
	lock_stat_init(&lock->stat, name, "rtmutex");
	list_add_tail(&lock->node, &all_rtmutexes);
}

/* ---- the two trees ---- */

/* __waiter_prio(): RT priorities order the waiters, every other task is DEFAULT_PRIO */
static int waiter_prio(const struct task_struct *p)
{
	return rt_prio(p->prio) ? p->prio : DEFAULT_PRIO;
}

struct lock_waiter *rt_mutex_top_waiter(struct rt_mutex *lock)
{
	return list_empty(&lock->waiters) ?
		       NULL :
		       list_first_entry(&lock->waiters, struct lock_waiter, list);
}

/* rb_add_cached() with a less() that is false on equal keys: behind its equals */
static void sorted_add(struct list_head *new, struct list_head *head, int prio, size_t prio_offset,
		       size_t node_offset)
{
	struct list_head *pos;

	for (pos = head->next; pos != head; pos = pos->next) {
		const char *w = (const char *)pos - node_offset;

		if (*(const int *)(w + prio_offset) > prio)
			break;
	}
	list_add_tail(new, pos);
}

/* rt_mutex_enqueue(), by waiter->prio */
static void rt_mutex_enqueue(struct rt_mutex *lock, struct lock_waiter *w)
{
	sorted_add(&w->list, &lock->waiters, w->prio, offsetof(struct lock_waiter, prio),
		   offsetof(struct lock_waiter, list));
}

static void rt_mutex_dequeue(struct lock_waiter *w)
{
	list_del_init(&w->list);
}

/* rt_mutex_enqueue_pi(), by the pi copy of the priority */
static void rt_mutex_enqueue_pi(struct task_struct *p, struct lock_waiter *w)
{
	sorted_add(&w->pi_list, &p->pi_waiters, w->pi_prio, offsetof(struct lock_waiter, pi_prio),
		   offsetof(struct lock_waiter, pi_list));
}

static void rt_mutex_dequeue_pi(struct lock_waiter *w)
{
	list_del_init(&w->pi_list);
}

static struct lock_waiter *task_top_pi_waiter(const struct task_struct *p)
{
	return list_empty(&p->pi_waiters) ?
		       NULL :
		       list_first_entry(&p->pi_waiters, struct lock_waiter, pi_list);
}

struct task_struct *rt_mutex_get_top_task(const struct task_struct *p)
{
	struct lock_waiter *top = task_top_pi_waiter(p);

	return top ? top->task : NULL;
}

int rt_effective_prio(const struct task_struct *p, int prio)
{
	return __rt_effective_prio(rt_mutex_get_top_task(p), prio);
}

/* rt_mutex_adjust_prio(): @p runs at its top pi waiter's priority, or its own */
static void rt_mutex_adjust_prio(struct task_struct *p)
{
	rt_mutex_setprio(p, rt_mutex_get_top_task(p));
}

static struct rt_mutex *task_blocked_on_lock(const struct task_struct *p)
{
	return p->pi_blocked_on ? p->pi_blocked_on->lock : NULL;
}

/* the spinning top waiter looks again: the owner or the top waiter changed */
static void rt_notify_spinners(struct rt_mutex *lock)
{
	struct lock_waiter *w;
	u64 t = cpu_now();

	list_for_each_entry(w, &lock->wspin, osq) lock_notify(w->task, t);
}

/* ---- taking the lock ---- */

/* mark_rt_mutex_waiters(): an atomic OR of RT_MUTEX_HAS_WAITERS into the owner field */
static void mark_rt_mutex_waiters(struct rt_mutex *lock)
{
	charge(machine.cost->lock_atomic);
	cl_write(LINE(lock));
	lock->has_waiters = true;
}

/* fixup_rt_mutex_waiters(): the bit goes once nobody waits */
static void fixup_rt_mutex_waiters(struct rt_mutex *lock)
{
	if (lock->has_waiters && list_empty(&lock->waiters)) {
		lock->has_waiters = false;
		cl_write(LINE(lock));
	}
}

/* rt_mutex_steal(): only a strictly higher priority takes it before the top waiter */
static bool rt_mutex_steal(int prio, const struct lock_waiter *top)
{
	return prio < top->prio;
}

/*
 * try_to_take_rt_mutex(), wait_lock held: @task (with its queued waiter
 * @w, or NULL) takes a lock without an owner if it is the top waiter or
 * may steal it; the lock's top waiter then boosts it.
 */
static bool try_to_take_rt_mutex(struct rt_mutex *lock, struct task_struct *task,
				 struct lock_waiter *w)
{
	mark_rt_mutex_waiters(lock);
	if (lock->owner)
		return false;
	if (w) {
		struct lock_waiter *top = rt_mutex_top_waiter(lock);

		if (w != top && !rt_mutex_steal(w->prio, top))
			return false;
		rt_mutex_dequeue(w);
	} else if (!list_empty(&lock->waiters)) {
		if (!rt_mutex_steal(waiter_prio(task), rt_mutex_top_waiter(lock)))
			return false;
	} else {
		goto takeit;
	}
	cl_write(&task->cl.pi);
	task->pi_blocked_on = NULL;
	if (!list_empty(&lock->waiters)) {
		struct lock_waiter *top = rt_mutex_top_waiter(lock);

		top->pi_prio = top->prio;
		rt_mutex_enqueue_pi(task, top);
	}
takeit:
	/* rt_mutex_set_owner(): the bit stays until fixup_rt_mutex_waiters() */
	lock->owner = task;
	charge(machine.cost->lock_atomic);
	cl_write(LINE(lock));
	if (w)
		rt_notify_spinners(lock);
	return true;
}

/*
 * rt_mutex_adjust_prio_chain(): @task, the owner of @orig_lock, is
 * blocked on @next_lock; requeue its waiter there by its new priority, and
 * if that changed the lock's top waiter, requeue in the owner's pi_waiters
 * and adjust the owner's priority; go on with that owner while it is
 * blocked and the top waiter changed. With @detect
 * (RT_MUTEX_FULL_CHAINWALK, the PI futexes') the walk goes on to the end
 * of the chain even where nothing changes, to find a cycle. -EDEADLK past
 * MAX_LOCK_DEPTH locks or on a cycle back to @orig_lock or @top_task.
 */
static int rt_mutex_adjust_prio_chain(struct task_struct *task, bool detect,
				      struct rt_mutex *orig_lock, struct rt_mutex *next_lock,
				      struct lock_waiter *orig_waiter, struct task_struct *top_task)
{
	struct lock_waiter *waiter, *top_waiter = orig_waiter, *prerequeue;
	struct rt_mutex *lock;
	bool requeue = true;
	int depth = 0;

again:
	if (++depth > MAX_LOCK_DEPTH)
		return -EDEADLK;
	/* one step's work in both trees, under task->pi_lock */
	charge(machine.cost->lock_slowpath);
	cl_write(&task->cl.pi);
	waiter = task->pi_blocked_on;
	if (!waiter)
		return 0;
	/* the original lock was released meanwhile, or the task moved on */
	if (orig_waiter && orig_lock && !orig_lock->owner)
		return 0;
	if (next_lock != waiter->lock)
		return 0;
	if (top_waiter) {
		if (list_empty(&task->pi_waiters))
			return 0;
		if (top_waiter != task_top_pi_waiter(task)) {
			if (!detect)
				return 0;
			requeue = false;
		}
	}
	if (waiter->prio == waiter_prio(task)) {
		if (!detect)
			return 0;
		requeue = false;
	}
	lock = waiter->lock;
	sim_lock_acquire(&lock->wait_lock);
	if (lock == orig_lock || lock->owner == top_task) {
		sim_lock_release(&lock->wait_lock);
		return -EDEADLK;
	}
	if (!requeue) {
		/* deadlock detection only: on to the next owner, changing nothing */
		task = lock->owner;
		next_lock = task ? task_blocked_on_lock(task) : NULL;
		top_waiter = rt_mutex_top_waiter(lock);
		sim_lock_release(&lock->wait_lock);
		if (!next_lock)
			return 0;
		goto again;
	}
	prerequeue = rt_mutex_top_waiter(lock);
	rt_mutex_dequeue(waiter);
	waiter->prio = waiter_prio(task);
	rt_mutex_enqueue(lock, waiter);
	if (!lock->owner) {
		/* released meanwhile: a new top waiter must try to take it */
		struct lock_waiter *top = rt_mutex_top_waiter(lock);

		if (prerequeue != top)
			wake_up_process(top->task);
		sim_lock_release(&lock->wait_lock);
		return 0;
	}
	task = lock->owner;
	cl_write(&task->cl.pi);
	if (waiter == rt_mutex_top_waiter(lock)) {
		/* the waiter became (or stayed) the top one: it boosts the owner */
		rt_mutex_dequeue_pi(prerequeue);
		waiter->pi_prio = waiter->prio;
		rt_mutex_enqueue_pi(task, waiter);
		rt_mutex_adjust_prio(task);
	} else if (prerequeue == waiter) {
		/* it was the top waiter and is no more: the next one boosts instead */
		rt_mutex_dequeue_pi(waiter);
		waiter = rt_mutex_top_waiter(lock);
		waiter->pi_prio = waiter->prio;
		rt_mutex_enqueue_pi(task, waiter);
		rt_mutex_adjust_prio(task);
	}
	rt_notify_spinners(lock);
	next_lock = task_blocked_on_lock(task);
	top_waiter = rt_mutex_top_waiter(lock);
	sim_lock_release(&lock->wait_lock);
	if (!next_lock || (!detect && waiter != top_waiter))
		return 0;
	goto again;
}

/*
 * task_blocks_on_rt_mutex(), wait_lock held: @w is queued by @task's
 * priority; if it is the top waiter now it replaces the old one in the
 * owner's pi_waiters and the owner is boosted, and a blocked owner takes
 * the boost down its chain (the wait_lock dropped meanwhile).
 */
static int task_blocks_on_rt_mutex(struct rt_mutex *lock, struct lock_waiter *w,
				   struct task_struct *task, bool detect)
{
	struct task_struct *owner = lock->owner;
	struct lock_waiter *top_waiter = w;
	struct rt_mutex *next_lock;
	int res;

	if (owner == task)
		return -EDEADLK;
	charge(machine.cost->lock_slowpath);
	cl_write(&task->cl.pi);
	w->task = task;
	w->lock = lock;
	w->kind = LK_RTMUTEX;
	w->prio = w->pi_prio = waiter_prio(task);
	if (!list_empty(&lock->waiters))
		top_waiter = rt_mutex_top_waiter(lock);
	rt_mutex_enqueue(lock, w);
	task->pi_blocked_on = w;
	if (!owner)
		return 0;
	cl_write(&owner->cl.pi);
	if (w == rt_mutex_top_waiter(lock)) {
		if (top_waiter != w)
			rt_mutex_dequeue_pi(top_waiter);
		rt_mutex_enqueue_pi(owner, w);
		rt_mutex_adjust_prio(owner);
		/* a spinning top waiter that is no more the top one goes to sleep */
		rt_notify_spinners(lock);
	} else if (!detect) {
		return 0;
	}
	next_lock = task_blocked_on_lock(owner);
	if (!next_lock)
		return 0;
	sim_lock_release(&lock->wait_lock);
	res = rt_mutex_adjust_prio_chain(owner, detect, lock, next_lock, w, task);
	sim_lock_acquire(&lock->wait_lock);
	return res;
}

/* rtmutex_spin_on_owner() goes on: the same owner runs, we are top, no need_resched */
static bool rt_keep_spinning(struct rt_mutex *lock, struct lock_waiter *w)
{
	struct task_struct *owner = lock->owner;

	return owner && owner == w->spin_owner && owner_on_cpu(owner) &&
	       !cpu_rq(smp_processor_id())->need_resched && rt_mutex_top_waiter(lock) == w;
}

static bool rt_acquired(struct rt_mutex *lock, struct lock_waiter *w)
{
	fixup_rt_mutex_waiters(lock);
	sim_lock_release(&lock->wait_lock);
	lock_acquired(w, &lock->stat);
	return true;
}

/*
 * One pass of rt_mutex_slowlock_block()'s loop, wait_lock held: take the
 * lock, or spin on a running owner as the top waiter
 * (rtmutex_spin_on_owner(), without the osq), or sleep until the unlock
 * wakes us.
 */
static bool rt_mutex_slowlock_block(struct rt_mutex *lock, struct lock_waiter *w)
{
	struct task_struct *owner;

	if (try_to_take_rt_mutex(lock, w->task, w))
		return rt_acquired(lock, w);
	owner = rt_mutex_top_waiter(lock) == w ? lock->owner : NULL;
	sim_lock_release(&lock->wait_lock);
	w->spin_owner = owner;
	if (owner && rt_keep_spinning(lock, w)) {
		w->phase = LW_WAITER_SPIN;
		list_add_tail(&w->osq, &lock->wspin);
		lock_spin_begin(w);
		return false;
	}
	lock_sleep(w);
	return false;
}

/* the step of a queued waiter: woken, preempted back, or its spin looks again */
static bool rt_mutex_wait_step(struct rt_mutex *lock, struct lock_waiter *w)
{
	if (w->phase == LW_WAITER_SPIN) {
		if (rt_keep_spinning(lock, w))
			return false;
		lock_spin_end(w, &lock->stat);
		list_del_init(&w->osq);
		w->phase = LW_WAIT;
	} else {
		lock_woken(w, &lock->stat);
	}
	sim_lock_acquire(&lock->wait_lock);
	return rt_mutex_slowlock_block(lock, w);
}

void rtmutex_spin_cancel(struct lock_waiter *w)
{
	struct rt_mutex *lock = w->lock;

	lock_spin_end(w, &lock->stat);
	list_del_init(&w->osq);
	w->phase = LW_WAIT;
}

/* the start of rt_mutex_slowlock() and the proxy lock: contention counted once */
static void rt_contended(struct rt_mutex *lock, struct lock_waiter *w)
{
	lock_contended(w, &lock->stat);
	lock_trace_begin(w, &lock->stat, LCB_F_RT);
}

bool rt_mutex_lock_step(struct rt_mutex *lock, struct lock_waiter *w)
{
	int ret;

	if (w->phase != LW_IDLE)
		return rt_mutex_wait_step(lock, w);
	w->lock = lock;
	w->kind = LK_RTMUTEX;
	w->sleep_state = TASK_UNINTERRUPTIBLE;
	/* rt_mutex_cmpxchg_acquire(): NULL -> current, failing with RT_MUTEX_HAS_WAITERS */
	charge(machine.cost->lock_atomic);
	cl_write(LINE(lock));
	if (!lock->owner && !lock->has_waiters) {
		lock->owner = current;
		lock_acquired(w, &lock->stat);
		return true;
	}
	/* rt_mutex_slowlock() */
	rt_contended(lock, w);
	sim_lock_acquire(&lock->wait_lock);
	if (try_to_take_rt_mutex(lock, current, NULL))
		return rt_acquired(lock, w);
	ret = task_blocks_on_rt_mutex(lock, w, current, false);
	if (ret) {
		/* a deadlock: schedlab's workloads have none; the waiter goes */
		fprintf(stderr, "schedlab: BUG: rt_mutex %s: deadlock (%d)\n", lock->stat.name,
			ret);
		abort();
	}
	w->phase = LW_WAIT;
	return rt_mutex_slowlock_block(lock, w);
}

bool rt_mutex_trylock(struct rt_mutex *lock)
{
	charge(machine.cost->lock_atomic);
	cl_write(LINE(lock));
	if (!lock->owner && !lock->has_waiters) {
		lock->owner = current;
		lock->stat.acquisitions++;
		return true;
	}
	/* rt_mutex_slowtrylock(): no owner, and the waiters let us steal */
	return !lock->owner && rt_mutex_futex_trylock(lock);
}

/*
 * mark_wakeup_next_waiter(), wait_lock held: the top waiter leaves
 * current's pi_waiters, current is deboosted (before the wakeup, as
 * rt_mutex_postunlock() wakes only after), the lock is released with
 * RT_MUTEX_HAS_WAITERS kept (no fast path can take it) and the top waiter
 * is woken to take it itself.
 */
static void mark_wakeup_next_waiter(struct rt_mutex *lock, struct lock_waiter **wake_q)
{
	struct lock_waiter *w = rt_mutex_top_waiter(lock);

	cl_write(&current->cl.pi);
	rt_mutex_dequeue_pi(w);
	rt_mutex_adjust_prio(current);
	lock->owner = NULL;
	charge(machine.cost->lock_atomic);
	cl_write(LINE(lock));
	rt_notify_spinners(lock);
	if (w->phase != LW_WAITER_SPIN)
		wake_q_add(wake_q, w);
}

bool __rt_mutex_futex_unlock(struct rt_mutex *lock, struct lock_waiter **wake_q)
{
	if (list_empty(&lock->waiters)) {
		lock->owner = NULL;
		lock->has_waiters = false;
		cl_write(LINE(lock));
		return false;
	}
	mark_wakeup_next_waiter(lock, wake_q);
	return true;
}

void rt_mutex_unlock(struct rt_mutex *lock)
{
	struct lock_waiter *wake_q = NULL;

	/* rt_mutex_cmpxchg_release(): current -> NULL unless RT_MUTEX_HAS_WAITERS */
	charge(machine.cost->lock_atomic);
	cl_write(LINE(lock));
	if (!lock->has_waiters) {
		lock->owner = NULL;
		return;
	}
	/* rt_mutex_slowunlock() */
	sim_lock_acquire(&lock->wait_lock);
	__rt_mutex_futex_unlock(lock, &wake_q);
	sim_lock_release(&lock->wait_lock);
	wake_up_q(wake_q);
}

/* ---- the proxy interface of the PI futexes ---- */

void rt_mutex_init_proxy_locked(struct rt_mutex *lock, struct task_struct *owner)
{
	lock->owner = owner;
	lock->has_waiters = false;
}

void rt_mutex_proxy_unlock(struct rt_mutex *lock)
{
	lock->owner = NULL;
	lock->has_waiters = !list_empty(&lock->waiters);
}

int __rt_mutex_start_proxy_lock(struct rt_mutex *lock, struct lock_waiter *w,
				struct task_struct *task)
{
	int ret;

	w->lock = lock;
	w->kind = LK_RTMUTEX;
	w->sleep_state = TASK_INTERRUPTIBLE;
	if (try_to_take_rt_mutex(lock, task, NULL)) {
		fixup_rt_mutex_waiters(lock);
		lock->stat.acquisitions++;
		return 1;
	}
	rt_contended(lock, w);
	w->phase = LW_WAIT;
	ret = task_blocks_on_rt_mutex(lock, w, task, true);
	/* the owner let go while the chain was walked: no deadlock after all */
	if (ret && !lock->owner)
		ret = 0;
	return ret;
}

/*
 * remove_waiter(), wait_lock held: @w leaves the lock; if it was the top
 * waiter the owner's boost is recomputed and passed down its chain.
 */
static void remove_waiter(struct rt_mutex *lock, struct lock_waiter *w)
{
	bool is_top = rt_mutex_top_waiter(lock) == w;
	struct task_struct *owner = lock->owner;
	struct rt_mutex *next_lock;

	cl_write(&w->task->cl.pi);
	rt_mutex_dequeue(w);
	w->task->pi_blocked_on = NULL;
	if (!owner || !is_top)
		return;
	cl_write(&owner->cl.pi);
	rt_mutex_dequeue_pi(w);
	if (!list_empty(&lock->waiters)) {
		struct lock_waiter *top = rt_mutex_top_waiter(lock);

		top->pi_prio = top->prio;
		rt_mutex_enqueue_pi(owner, top);
	}
	rt_mutex_adjust_prio(owner);
	next_lock = task_blocked_on_lock(owner);
	if (!next_lock)
		return;
	sim_lock_release(&lock->wait_lock);
	rt_mutex_adjust_prio_chain(owner, false, lock, next_lock, NULL, w->task);
	sim_lock_acquire(&lock->wait_lock);
}

bool rt_mutex_cleanup_proxy_lock(struct rt_mutex *lock, struct lock_waiter *w)
{
	bool cleaned = true;

	sim_lock_acquire(&lock->wait_lock);
	/* it may have become the owner meanwhile: then the lock is taken after all */
	if (try_to_take_rt_mutex(lock, w->task, w)) {
		cleaned = false;
		lock->stat.acquisitions++;
	} else {
		remove_waiter(lock, w);
	}
	fixup_rt_mutex_waiters(lock);
	sim_lock_release(&lock->wait_lock);
	if (w->traced)
		trace_sched(__trace_contention(TRACE_CONTENTION_END, lock->stat.addr,
					       cleaned ? -EDEADLK : 0));
	w->traced = false;
	w->phase = LW_IDLE;
	w->begin = 0;
	return cleaned;
}

/* the first pass and every later one are the same: the wait_lock, then a try */
bool rt_mutex_wait_proxy_step(struct rt_mutex *lock, struct lock_waiter *w)
{
	return rt_mutex_wait_step(lock, w);
}

bool rt_mutex_futex_trylock(struct rt_mutex *lock)
{
	bool taken;

	sim_lock_acquire(&lock->wait_lock);
	taken = try_to_take_rt_mutex(lock, current, NULL);
	fixup_rt_mutex_waiters(lock);
	sim_lock_release(&lock->wait_lock);
	if (taken)
		lock->stat.acquisitions++;
	return taken;
}

/* ---- priority changes of blocked tasks ---- */

void rt_mutex_adjust_pi(struct task_struct *p)
{
	struct lock_waiter *w = p->pi_blocked_on;
	struct rt_mutex *next_lock;

	if (!w || w->prio == waiter_prio(p))
		return;
	next_lock = w->lock;
	rt_mutex_adjust_prio_chain(p, false, NULL, next_lock, NULL, p);
}

/* ---- --check ---- */

static void __attribute__((noreturn)) rt_bug(const struct rt_mutex *lock, const char *what)
{
	fprintf(stderr, "schedlab: check: rt_mutex %s: %s\n", lock->stat.name, what);
	abort();
}

void rtmutex_check_invariants(void)
{
	struct rt_mutex *lock;
	struct lock_waiter *w;

	list_for_each_entry(lock, &all_rtmutexes, node)
	{
		int prev = -1;

		if (!list_empty(&lock->waiters) && !lock->has_waiters)
			rt_bug(lock, "waiters without RT_MUTEX_HAS_WAITERS");
		if (lock->owner && lock->owner->__state == TASK_DEAD)
			rt_bug(lock, "owned by a task that exited");
		list_for_each_entry(w, &lock->waiters, list)
		{
			if (w->lock != lock || w->task->pi_blocked_on != w)
				rt_bug(lock, "a waiter is not blocked on it");
			if (w->prio < prev)
				rt_bug(lock, "waiters out of priority order");
			prev = w->prio;
		}
		w = rt_mutex_top_waiter(lock);
		if (!w)
			continue;
		/* the owner is boosted by the top waiter, at least to its priority */
		if (lock->owner) {
			if (list_empty(&w->pi_list))
				rt_bug(lock, "its top waiter is not in the owner's pi_waiters");
			if (lock->owner->prio > w->prio && rt_prio(w->prio))
				rt_bug(lock, "its owner runs below its top waiter's priority");
		} else if ((w->task->__state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)) &&
			   !w->wake_queued) {
			/* no lost wakeup: released with the top waiter asleep */
			rt_bug(lock, "unlocked with its top waiter asleep and nobody to wake it");
		}
	}
}
