// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct mutex as Linux v6.18 has it (kernel/locking/mutex.c):
 *
 *  - fast path: a cmpxchg of the owner field from 0 to current, in the
 *    lock's line; it fails while any flag is set;
 *  - mutex_optimistic_spin(): a contender whose owner runs on a CPU spins
 *    instead of sleeping (MUTEX_SPIN_ON_OWNER), queued in the osq so that
 *    only its head spins on the owner (MUTEX_OSQ); it stops when the owner
 *    leaves its CPU or need_resched is set on its own;
 *  - the wait list under wait_lock; MUTEX_FLAG_WAITERS sends the unlock to
 *    its slow path, which wakes the first waiter through a wake_q after
 *    dropping wait_lock;
 *  - handoff (MUTEX_HANDOFF): a woken first waiter that fails to take the
 *    lock sets MUTEX_FLAG_HANDOFF; the next unlock then gives the lock to
 *    it (owner = waiter, MUTEX_FLAG_PICKUP) instead of releasing it to
 *    spinners, and the first waiter spins on the owner while it runs.
 *
 * Written from the behaviour of v6.18; ww_mutex, lockdep, signals
 * (mutex_lock_interruptible) and PREEMPT_RT's rtmutex-based mutex are not
 * modelled (docs/locking.md).
 */
#include "kernel/locking_internal.h"

#include <string.h>

#define LINE(lock) (&(lock)->wait_lock.line)

static inline bool spin_need_resched(void)
{
	return cpu_rq(smp_processor_id())->need_resched;
}

void mutex_init(struct mutex *lock, const char *name)
{
	memset(lock, 0, sizeof(*lock));
	sim_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
	INIT_LIST_HEAD(&lock->osq);
	INIT_LIST_HEAD(&lock->wspin);
	lock_stat_init(&lock->stat, name, "mutex");
	list_add_tail(&lock->node, &all_mutexes);
}

/*
 * __mutex_trylock_common(): take a free lock, or one handed to us
 * (MUTEX_FLAG_PICKUP); with @handoff (the first waiter), set
 * MUTEX_FLAG_HANDOFF on a held one.
 */
static bool __mutex_trylock_common(struct mutex *lock, bool handoff)
{
	struct task_struct *curr = current;

	cl_read(LINE(lock));
	if (lock->owner) {
		if (lock->flags & MUTEX_FLAG_PICKUP) {
			if (lock->owner != curr)
				return false;
			lock->flags &= ~MUTEX_FLAG_PICKUP;
		} else {
			if (!handoff || !sched_feat(MUTEX_HANDOFF) ||
			    (lock->flags & MUTEX_FLAG_HANDOFF))
				return false;
			lock->flags |= MUTEX_FLAG_HANDOFF;
			charge(machine.cost->lock_atomic);
			cl_write(LINE(lock));
			return false;
		}
	} else {
		lock->owner = curr;
	}
	charge(machine.cost->lock_atomic);
	cl_write(LINE(lock));
	return true;
}

static bool __mutex_trylock(struct mutex *lock)
{
	return __mutex_trylock_common(lock, false);
}

bool mutex_trylock(struct mutex *lock)
{
	if (!__mutex_trylock(lock))
		return false;
	lock->stat.acquisitions++;
	return true;
}

/* mutex_can_spin_on_owner() */
static bool mutex_can_spin_on_owner(struct mutex *lock)
{
	struct task_struct *owner;

	if (!sched_feat(MUTEX_SPIN_ON_OWNER) || spin_need_resched())
		return false;
	owner = __mutex_owner(lock);
	return owner ? owner_on_cpu(owner) : true;
}

/* mutex_spin_on_owner() goes on: the owner runs and nothing asks us to stop */
static bool keep_spinning(struct mutex *lock)
{
	struct task_struct *owner = __mutex_owner(lock);

	return owner && owner_on_cpu(owner) && !spin_need_resched();
}

static bool acquired(struct mutex *lock, struct lock_waiter *w)
{
	lock_acquired(w, &lock->stat);
	return true;
}

/* __mutex_remove_waiter() once the waiter owns the lock, under wait_lock */
static void remove_waiter(struct mutex *lock, struct lock_waiter *w)
{
	list_del_init(&w->list);
	if (list_empty(&lock->wait_list)) {
		lock->flags &= ~(MUTEX_FLAG_WAITERS | MUTEX_FLAG_HANDOFF);
		charge(machine.cost->lock_atomic);
		cl_write(LINE(lock));
	}
}

static bool waiter_acquired(struct mutex *lock, struct lock_waiter *w)
{
	sim_lock_acquire(&lock->wait_lock);
	remove_waiter(lock, w);
	sim_lock_release(&lock->wait_lock);
	return acquired(lock, w);
}

/* with wait_lock held and @w queued: a last trylock, else drop wait_lock and sleep */
static bool trylock_or_sleep(struct mutex *lock, struct lock_waiter *w)
{
	if (__mutex_trylock(lock)) {
		remove_waiter(lock, w);
		sim_lock_release(&lock->wait_lock);
		return acquired(lock, w);
	}
	sim_lock_release(&lock->wait_lock);
	lock_sleep(w);
	return false;
}

/* the wait loop's top: a last trylock under wait_lock, then sleep */
static bool wait_and_sleep(struct mutex *lock, struct lock_waiter *w)
{
	sim_lock_acquire(&lock->wait_lock);
	return trylock_or_sleep(lock, w);
}

/* __mutex_lock_common() after the optimistic spin: queue on the wait list */
static bool mutex_slowpath(struct mutex *lock, struct lock_waiter *w)
{
	sim_lock_acquire(&lock->wait_lock);
	charge(machine.cost->lock_slowpath);
	if (__mutex_trylock(lock)) {
		sim_lock_release(&lock->wait_lock);
		return acquired(lock, w);
	}
	list_add_tail(&w->list, &lock->wait_list);
	w->phase = LW_WAIT;
	lock_trace_begin(w, &lock->stat, LCB_F_MUTEX);
	if (list_first_entry(&lock->wait_list, struct lock_waiter, list) == w) {
		lock->flags |= MUTEX_FLAG_WAITERS;
		charge(machine.cost->lock_atomic);
		cl_write(LINE(lock));
	}
	return trylock_or_sleep(lock, w);
}

/* mutex_optimistic_spin() without a waiter: in the osq, its head on the owner */
static bool mutex_osq_step(struct mutex *lock, struct lock_waiter *w)
{
	if (!osq_active(&lock->osq, w)) {
		/* a node behind a preempted vCPU's leaves the osq: osq_lock() fails */
		if (!osq_prev_preempted(&lock->osq, w))
			return false;
	} else {
		if (__mutex_trylock(lock)) {
			lock_spin_end(w, &lock->stat);
			osq_leave(&lock->osq, LINE(lock), w);
			return acquired(lock, w);
		}
		if (keep_spinning(lock))
			return false;
	}
	lock_spin_end(w, &lock->stat);
	osq_leave(&lock->osq, LINE(lock), w);
	return mutex_slowpath(lock, w);
}

/* woken on the wait list (or back after a preemption) */
static bool mutex_wait_step(struct mutex *lock, struct lock_waiter *w)
{
	bool first = list_first_entry(&lock->wait_list, struct lock_waiter, list) == w;

	if (__mutex_trylock_common(lock, first))
		return waiter_acquired(lock, w);
	/* the woken first waiter spins too (the v4.10 handoff series) */
	if (first && sched_feat(MUTEX_SPIN_ON_OWNER) && sched_feat(MUTEX_HANDOFF) &&
	    keep_spinning(lock)) {
		w->phase = LW_WAITER_SPIN;
		list_add_tail(&w->osq, &lock->wspin);
		lock_spin_begin(w);
		return false;
	}
	return wait_and_sleep(lock, w);
}

/* mutex_optimistic_spin() with a waiter: the first waiter on the owner */
static bool mutex_wspin_step(struct mutex *lock, struct lock_waiter *w)
{
	if (__mutex_trylock(lock)) {
		lock_spin_end(w, &lock->stat);
		list_del_init(&w->osq);
		return waiter_acquired(lock, w);
	}
	if (keep_spinning(lock))
		return false;
	lock_spin_end(w, &lock->stat);
	list_del_init(&w->osq);
	w->phase = LW_WAIT;
	return wait_and_sleep(lock, w);
}

bool mutex_lock_step(struct mutex *lock, struct lock_waiter *w)
{
	switch (w->phase) {
	case LW_IDLE:
		w->lock = lock;
		w->kind = LK_MUTEX;
		/* __mutex_trylock_fast() */
		charge(machine.cost->lock_atomic);
		cl_write(LINE(lock));
		if (!lock->owner && !lock->flags) {
			lock->owner = current;
			return acquired(lock, w);
		}
		lock_contended(w, &lock->stat);
		lock_trace_begin(w, &lock->stat, LCB_F_SPIN | LCB_F_MUTEX);
		if (__mutex_trylock(lock))
			return acquired(lock, w);
		if (mutex_can_spin_on_owner(lock)) {
			osq_join(&lock->osq, LINE(lock), w);
			w->phase = LW_OSQ;
			lock_spin_begin(w);
			return mutex_osq_step(lock, w);
		}
		return mutex_slowpath(lock, w);
	case LW_OSQ:
		return mutex_osq_step(lock, w);
	case LW_SPIN_FAILED:
		return mutex_slowpath(lock, w);
	case LW_WAIT:
		lock_woken(w, &lock->stat);
		return mutex_wait_step(lock, w);
	case LW_WAITER_SPIN:
		return mutex_wspin_step(lock, w);
	}
	return false;
}

void mutex_spin_cancel(struct lock_waiter *w)
{
	struct mutex *lock = w->lock;

	lock_spin_end(w, &lock->stat);
	if (w->phase == LW_OSQ) {
		osq_leave(&lock->osq, LINE(lock), w);
		w->phase = LW_SPIN_FAILED;
	} else {
		list_del_init(&w->osq);
		w->phase = LW_WAIT;
	}
}

void mutex_unlock(struct mutex *lock)
{
	struct lock_waiter *wake_q = NULL;
	bool handoff;

	/* __mutex_unlock_fast(): cmpxchg current -> 0, fails while a flag is set */
	charge(machine.cost->lock_atomic);
	cl_write(LINE(lock));
	if (!lock->flags) {
		lock->owner = NULL;
		lock_notify_spinners(&lock->osq, &lock->wspin);
		return;
	}
	/* __mutex_unlock_slowpath() */
	handoff = lock->flags & MUTEX_FLAG_HANDOFF;
	if (!handoff) {
		lock->owner = NULL;
		lock_notify_spinners(&lock->osq, &lock->wspin);
		if (!(lock->flags & MUTEX_FLAG_WAITERS))
			return;
	}
	sim_lock_acquire(&lock->wait_lock);
	if (!list_empty(&lock->wait_list)) {
		struct lock_waiter *next =
			list_first_entry(&lock->wait_list, struct lock_waiter, list);

		wake_q_add(&wake_q, next);
		if (handoff) {
			/* __mutex_handoff() */
			lock->owner = next->task;
			lock->flags = (lock->flags & MUTEX_FLAG_WAITERS) | MUTEX_FLAG_PICKUP;
			charge(machine.cost->lock_atomic);
			cl_write(LINE(lock));
			lock->stat.handoffs++;
			lock_notify_spinners(&lock->osq, &lock->wspin);
		}
	}
	sim_lock_release(&lock->wait_lock);
	wake_up_q(wake_q);
}
