// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct rw_semaphore as Linux v6.18 has it (kernel/locking/rwsem.c):
 *
 *  - readers add RWSEM_READER_BIAS and own the lock unless the count has
 *    a writer, waiters or handoff (RWSEM_READ_FAILED_MASK); a reader that
 *    fails may still steal a lock no writer holds, unless other readers
 *    hold it already (then it queues, so a stream of readers cannot
 *    starve a waiting writer);
 *  - a writer takes an unlocked count with a cmpxchg; in the slowpath it
 *    spins in the osq while a writer owner runs (RWSEM_SPIN_ON_OWNER;
 *    v6.18 has no reader spinning: 617f3ef95177 removed it in v5.11);
 *  - waiters queue in arrival order; a release wakes the first waiter if
 *    it is a writer, else grants the lock to every queued reader (up to
 *    MAX_READERS_WAKEUP) whether writers are queued between them or not
 *    (RWSEM_WAKE_ALL_READERS), through a wake_q after wait_lock is
 *    dropped;
 *  - a waiter that has waited RWSEM_WAIT_TIMEOUT sets RWSEM_FLAG_HANDOFF
 *    (RWSEM_HANDOFF): nobody but the first waiter takes the lock then, and
 *    a writer that set it spins on a running owner.
 *
 *  - a writer spins on a reader-owned lock too, for at most
 *    rwsem_rspin_threshold() (10-25 us by the number of readers); when
 *    that passes the lock is RWSEM_NONSPINNABLE until a writer takes it
 *    or a release wakes the waiters.
 *
 * Not modelled: downgrade_write, killable and interruptible waits,
 * PREEMPT_RT.
 */
#include "kernel/locking_internal.h"

#include <string.h>

/* RWSEM_WAIT_TIMEOUT: DIV_ROUND_UP(HZ, 250) jiffies before a waiter may set handoff */
#define RWSEM_WAIT_TIMEOUT DIV_ROUND_UP(sysctl_sched.hz, 250)
/* MAX_READERS_WAKEUP: readers granted the lock per wakeup call */
#define MAX_READERS_WAKEUP 0x100

#define LINE(sem) (&(sem)->wait_lock.line)

enum rwsem_wake_type {
	RWSEM_WAKE_ANY, /* whatever is at the head of the wait list */
	RWSEM_WAKE_READERS, /* readers only */
	RWSEM_WAKE_READ_OWNED, /* readers; the waker holds a read lock */
};

static inline bool spin_need_resched(void)
{
	return cpu_rq(smp_processor_id())->need_resched;
}

void init_rwsem(struct rw_semaphore *sem, const char *name)
{
	memset(sem, 0, sizeof(*sem));
	sim_lock_init(&sem->wait_lock);
	INIT_LIST_HEAD(&sem->wait_list);
	INIT_LIST_HEAD(&sem->osq);
	INIT_LIST_HEAD(&sem->wspin);
	lock_stat_init(&sem->stat, name, "rwsem");
	list_add_tail(&sem->node, &all_rwsems);
}

static void atomic_op(struct rw_semaphore *sem)
{
	charge(machine.cost->lock_atomic);
	cl_write(LINE(sem));
}

static void set_reader_owned(struct rw_semaphore *sem, struct task_struct *p)
{
	sem->owner = p;
	sem->reader_owned = true;
}

static struct lock_waiter *first_waiter(struct rw_semaphore *sem)
{
	return list_first_entry(&sem->wait_list, struct lock_waiter, list);
}

/* rwsem_del_waiter(), under wait_lock */
static void del_waiter(struct rw_semaphore *sem, struct lock_waiter *w)
{
	list_del_init(&w->list);
	if (list_empty(&sem->wait_list)) {
		sem->waiters = false;
		sem->handoff = false;
	}
}

static bool acquired(struct rw_semaphore *sem, struct lock_waiter *w)
{
	lock_acquired(w, &sem->stat);
	return true;
}

/*
 * rwsem_mark_wake(), under wait_lock: wake the first waiter if it is a
 * writer (RWSEM_WAKE_ANY), or grant the lock to the queued readers.
 */
static void rwsem_mark_wake(struct rw_semaphore *sem, enum rwsem_wake_type type,
			    struct lock_waiter **wake_q)
{
	struct lock_waiter *w = first_waiter(sem), *n;
	unsigned int woken = 0;

	if (w->kind == LK_RWSEM_WRITE) {
		if (type != RWSEM_WAKE_ANY)
			return;
		/*
		 * Before writer lock stealing (ce6711f3d196, v3.9) the waker
		 * granted a free lock to the writer it woke: nobody could take
		 * it between the release and that writer's running.
		 */
		if (!sched_feat(RWSEM_WRITER_STEAL) && !sem->writer_locked && !sem->readers) {
			sem->writer_locked = true;
			sem->owner = w->task;
			sem->reader_owned = false;
			sem->nonspinnable = false;
			del_waiter(sem, w);
			w->granted = true;
			atomic_op(sem);
		}
		wake_q_add(wake_q, w);
		return;
	}
	if (type != RWSEM_WAKE_READ_OWNED) {
		/* a writer stole the lock meanwhile */
		atomic_op(sem);
		if (sem->writer_locked) {
			if (sched_feat(RWSEM_HANDOFF) && !sem->handoff &&
			    time_after(jiffies, w->timeout))
				sem->handoff = true;
			return;
		}
		set_reader_owned(sem, w->task);
	}
	list_for_each_entry_safe(w, n, &sem->wait_list, list)
	{
		if (w->kind == LK_RWSEM_WRITE) {
			if (!sched_feat(RWSEM_WAKE_ALL_READERS))
				break;
			continue;
		}
		list_del_init(&w->list);
		w->granted = true;
		wake_q_add(wake_q, w);
		if (++woken >= MAX_READERS_WAKEUP)
			break;
	}
	sem->readers += woken;
	if (list_empty(&sem->wait_list))
		sem->waiters = false;
	if (woken)
		sem->handoff = false;
	atomic_op(sem);
}

/* rwsem_wake(): a release with waiters */
static void rwsem_wake(struct rw_semaphore *sem)
{
	struct lock_waiter *wake_q = NULL;

	sim_lock_acquire(&sem->wait_lock);
	if (!list_empty(&sem->wait_list))
		rwsem_mark_wake(sem, RWSEM_WAKE_ANY, &wake_q);
	sim_lock_release(&sem->wait_lock);
	wake_up_q(wake_q);
}

/* rwsem_cond_wake_waiter(), under wait_lock: nobody holds the lock, wake */
static void rwsem_cond_wake_waiter(struct rw_semaphore *sem, struct lock_waiter **wake_q)
{
	if (sem->writer_locked)
		return;
	if (!sem->readers)
		sem->nonspinnable = false; /* clear_nonspinnable() */
	rwsem_mark_wake(sem, sem->readers ? RWSEM_WAKE_READERS : RWSEM_WAKE_ANY, wake_q);
}

static void reader_sleep(struct rw_semaphore *sem, struct lock_waiter *w)
{
	(void)sem;
	lock_sleep(w);
}

/* rwsem_down_read_slowpath(): our bias is in the count already */
static bool down_read_slowpath(struct rw_semaphore *sem, struct lock_waiter *w)
{
	struct lock_waiter *wake_q = NULL;

	/* readers own it (others than us): queue behind any writer */
	if (!(sem->reader_owned && sem->readers && !sem->writer_locked) && !sem->writer_locked &&
	    !sem->handoff) {
		/* reader optimistic lock stealing */
		sem->readers++;
		set_reader_owned(sem, current);
		if (sem->waiters) {
			sim_lock_acquire(&sem->wait_lock);
			if (!list_empty(&sem->wait_list))
				rwsem_mark_wake(sem, RWSEM_WAKE_READ_OWNED, &wake_q);
			sim_lock_release(&sem->wait_lock);
			wake_up_q(wake_q);
		}
		return acquired(sem, w);
	}
	w->timeout = jiffies + RWSEM_WAIT_TIMEOUT;
	w->granted = false;
	lock_trace_begin(w, &sem->stat, LCB_F_READ);
	sim_lock_acquire(&sem->wait_lock);
	charge(machine.cost->lock_slowpath);
	if (list_empty(&sem->wait_list) && !sem->writer_locked && !sem->handoff) {
		/* the writer left meanwhile: our bias stands */
		sim_lock_release(&sem->wait_lock);
		sem->readers++;
		set_reader_owned(sem, current);
		return acquired(sem, w);
	}
	list_add_tail(&w->list, &sem->wait_list);
	w->phase = LW_WAIT;
	sem->waiters = true;
	atomic_op(sem);
	/* no writer holds it: wake the front (rwsem_cond_wake_waiter()) */
	rwsem_cond_wake_waiter(sem, &wake_q);
	sim_lock_release(&sem->wait_lock);
	wake_up_q(wake_q);
	if (w->granted) {
		w->granted = false;
		return acquired(sem, w);
	}
	reader_sleep(sem, w);
	return false;
}

bool down_read_step(struct rw_semaphore *sem, struct lock_waiter *w)
{
	switch (w->phase) {
	case LW_IDLE:
		w->lock = sem;
		w->kind = LK_RWSEM_READ;
		atomic_op(sem);
		if (!sem->writer_locked && !sem->waiters && !sem->handoff) {
			sem->readers++;
			set_reader_owned(sem, current);
			return acquired(sem, w);
		}
		lock_contended(w, &sem->stat);
		return down_read_slowpath(sem, w);
	case LW_WAIT:
		lock_woken(w, &sem->stat);
		if (w->granted) {
			w->granted = false;
			return acquired(sem, w);
		}
		/* not granted yet (a preemption, not its wakeup): sleep on */
		reader_sleep(sem, w);
		return false;
	default:
		return false;
	}
}

void up_read(struct rw_semaphore *sem)
{
	atomic_op(sem);
	sem->readers--;
	if (!sem->readers && !sem->writer_locked) {
		lock_notify_spinners(&sem->osq, &sem->wspin);
		if (sem->waiters) {
			sem->nonspinnable = false; /* clear_nonspinnable() */
			rwsem_wake(sem);
		}
	}
}

/* rwsem_can_spin_on_owner(): a running writer owner, or readers unless nonspinnable */
static bool rwsem_can_spin_on_owner(struct rw_semaphore *sem)
{
	if (!sched_feat(RWSEM_SPIN_ON_OWNER) || spin_need_resched() || sem->nonspinnable)
		return false;
	return !sem->writer_locked || owner_on_cpu(sem->owner);
}

static bool writer_keeps_spinning(struct rw_semaphore *sem)
{
	if (spin_need_resched())
		return false;
	/* OWNER_NULL with a handoff pending: spin until the first waiter has it */
	if (!sem->writer_locked && !sem->readers)
		return true;
	return sem->writer_locked && owner_on_cpu(sem->owner);
}

/*
 * rwsem_rspin_threshold(): a writer spins on a reader-owned lock for
 * (20 + readers) / 2 us, readers counted up to 30 (10 to 25 us)
 */
static u64 rwsem_rspin_threshold(struct rw_semaphore *sem)
{
	u64 readers = min(sem->readers, 30u);

	return cpu_now() + (20 + readers) * NSEC_PER_USEC / 2;
}

/*
 * rwsem_optimistic_spin()'s OWNER_READER case, for the osq head: true to
 * spin on. The limit is set when the owner turns from a writer (or none)
 * to readers, and when it passes the lock is marked nonspinnable; the
 * spinner's step is armed at the limit so that it looks again then.
 */
static bool spin_on_readers(struct rw_semaphore *sem, struct lock_waiter *w)
{
	if (spin_need_resched())
		return false;
	if (!w->rspin_until) {
		if (sem->nonspinnable)
			return false;
		w->rspin_until = rwsem_rspin_threshold(sem);
	} else if (cpu_now() >= w->rspin_until) {
		sem->nonspinnable = true;
		return false;
	}
	lock_notify(w->task, w->rspin_until);
	return true;
}

/* the owner is now a writer or nobody: a later reader owner starts a new limit */
static void rspin_reset(struct lock_waiter *w)
{
	struct rq *rq = cpu_rq(task_cpu(w->task));

	if (!w->rspin_until)
		return;
	if (ev_queued(&rq->step_ev) && rq->step_ev.time == w->rspin_until)
		sim_cancel(&rq->step_ev);
	w->rspin_until = 0;
}

/* rwsem_try_write_lock_unqueued(): a spinner may steal past the waiters */
static bool try_write_lock_unqueued(struct rw_semaphore *sem)
{
	cl_read(LINE(sem));
	if (sem->writer_locked || sem->readers || sem->handoff)
		return false;
	sem->writer_locked = true;
	sem->owner = current;
	sem->reader_owned = false;
	sem->nonspinnable = false;
	atomic_op(sem);
	return true;
}

/*
 * rwsem_try_write_lock(), under wait_lock: take the lock as a queued
 * writer, or set handoff once the first waiter has waited long enough.
 */
static bool try_write_lock(struct rw_semaphore *sem, struct lock_waiter *w)
{
	struct lock_waiter *first = first_waiter(sem);

	cl_read(LINE(sem));
	if (sem->handoff && w != first)
		return false;
	/* without stealing only the first waiter may take it (the waker grants it) */
	if (!sched_feat(RWSEM_WRITER_STEAL) && w != first)
		return false;
	if (sem->writer_locked || sem->readers) {
		if (sem->handoff || !sched_feat(RWSEM_HANDOFF) ||
		    (!rt_task(current) && !time_after(jiffies, w->timeout)))
			return false;
		sem->handoff = true;
		first->handoff_set = true;
		atomic_op(sem);
		return false;
	}
	sem->writer_locked = true;
	sem->handoff = false;
	del_waiter(sem, w);
	sem->owner = current;
	sem->reader_owned = false;
	sem->nonspinnable = false;
	w->handoff_set = false;
	atomic_op(sem);
	return true;
}

/* the wait loop of rwsem_down_write_slowpath(), with wait_lock held */
static bool writer_wait_loop(struct rw_semaphore *sem, struct lock_waiter *w)
{
	if (try_write_lock(sem, w)) {
		sim_lock_release(&sem->wait_lock);
		return acquired(sem, w);
	}
	sim_lock_release(&sem->wait_lock);
	w->phase = LW_WAIT;
	/* without RWSEM_SPIN_ON_OWNER, rwsem_spin_on_owner() is OWNER_NONSPINNABLE: sleep */
	if (w->handoff_set && sched_feat(RWSEM_SPIN_ON_OWNER) && writer_keeps_spinning(sem) &&
	    sem->writer_locked) {
		w->phase = LW_WAITER_SPIN;
		list_add_tail(&w->osq, &sem->wspin);
		lock_spin_begin(w);
		return false;
	}
	lock_sleep(w);
	return false;
}

/* queue on the wait list */
static bool down_write_queue(struct rw_semaphore *sem, struct lock_waiter *w)
{
	struct lock_waiter *wake_q = NULL;

	w->timeout = jiffies + RWSEM_WAIT_TIMEOUT;
	w->handoff_set = false;
	w->granted = false;
	lock_trace_begin(w, &sem->stat, LCB_F_WRITE);
	sim_lock_acquire(&sem->wait_lock);
	charge(machine.cost->lock_slowpath);
	list_add_tail(&w->list, &sem->wait_list);
	w->phase = LW_WAIT;
	if (first_waiter(sem) != w) {
		rwsem_cond_wake_waiter(sem, &wake_q);
		if (wake_q) {
			sim_lock_release(&sem->wait_lock);
			wake_up_q(wake_q);
			sim_lock_acquire(&sem->wait_lock);
		}
	} else {
		sem->waiters = true;
		atomic_op(sem);
	}
	return writer_wait_loop(sem, w);
}

/* rwsem_optimistic_spin(): the osq, its head on a running writer owner */
static bool rwsem_osq_step(struct rw_semaphore *sem, struct lock_waiter *w)
{
	if (!osq_active(&sem->osq, w)) {
		/* a node behind a preempted vCPU's leaves the osq: osq_lock() fails */
		if (!osq_prev_preempted(&sem->osq, w))
			return false;
	} else {
		if (try_write_lock_unqueued(sem)) {
			lock_spin_end(w, &sem->stat);
			osq_leave(&sem->osq, LINE(sem), w);
			return acquired(sem, w);
		}
		if (!sem->writer_locked && sem->readers) {
			if (spin_on_readers(sem, w))
				return false;
		} else {
			rspin_reset(w);
			if (writer_keeps_spinning(sem))
				return false;
		}
	}
	lock_spin_end(w, &sem->stat);
	osq_leave(&sem->osq, LINE(sem), w);
	return down_write_queue(sem, w);
}

bool down_write_step(struct rw_semaphore *sem, struct lock_waiter *w)
{
	switch (w->phase) {
	case LW_IDLE:
		w->lock = sem;
		w->kind = LK_RWSEM_WRITE;
		/* cmpxchg RWSEM_UNLOCKED_VALUE -> RWSEM_WRITER_LOCKED */
		atomic_op(sem);
		if (!sem->writer_locked && !sem->readers && !sem->waiters && !sem->handoff) {
			sem->writer_locked = true;
			sem->owner = current;
			sem->reader_owned = false;
			sem->nonspinnable = false;
			return acquired(sem, w);
		}
		lock_contended(w, &sem->stat);
		if (rwsem_can_spin_on_owner(sem)) {
			osq_join(&sem->osq, LINE(sem), w);
			w->phase = LW_OSQ;
			lock_spin_begin(w);
			return rwsem_osq_step(sem, w);
		}
		return down_write_queue(sem, w);
	case LW_OSQ:
		return rwsem_osq_step(sem, w);
	case LW_SPIN_FAILED:
		return down_write_queue(sem, w);
	case LW_WAIT:
		lock_woken(w, &sem->stat);
		if (w->granted) {
			/* NO_RWSEM_WRITER_STEAL: the waker made it ours */
			w->granted = false;
			return acquired(sem, w);
		}
		sim_lock_acquire(&sem->wait_lock);
		return writer_wait_loop(sem, w);
	case LW_WAITER_SPIN:
		/* rwsem_spin_on_owner() after setting handoff */
		if (sem->writer_locked && writer_keeps_spinning(sem))
			return false;
		lock_spin_end(w, &sem->stat);
		list_del_init(&w->osq);
		if (!sem->writer_locked && !sem->readers) {
			/* OWNER_NULL: trylock_again */
			sim_lock_acquire(&sem->wait_lock);
			return writer_wait_loop(sem, w);
		}
		w->phase = LW_WAIT;
		lock_sleep(w);
		return false;
	}
	return false;
}

void rwsem_spin_cancel(struct lock_waiter *w)
{
	struct rw_semaphore *sem = w->lock;

	lock_spin_end(w, &sem->stat);
	if (w->phase == LW_OSQ) {
		osq_leave(&sem->osq, LINE(sem), w);
		w->phase = LW_SPIN_FAILED;
	} else {
		list_del_init(&w->osq);
		w->phase = LW_WAIT;
	}
}

void up_write(struct rw_semaphore *sem)
{
	atomic_op(sem);
	sem->writer_locked = false;
	sem->owner = NULL;
	sem->reader_owned = false;
	lock_notify_spinners(&sem->osq, &sem->wspin);
	if (sem->waiters)
		rwsem_wake(sem);
}
