/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleeping locks: struct mutex (kernel/locking/mutex.c) and struct
 * rw_semaphore (kernel/locking/rwsem.c) of Linux v6.18, with optimistic
 * spinning on an osq (kernel/locking/osq_lock.c), the wait list, handoff
 * and wake_q wakeups after the wait_lock is dropped (docs/locking.md).
 *
 * The simulator runs a kernel path at an event instant, so a lock
 * operation is a step function the task calls again each time its CPU
 * steps: mutex_lock_step() returns true once the lock is taken, false
 * while the task spins (its CPU stays busy in the kernel with no step of
 * its own: the release, the owner's switch-out or its turn in the osq
 * arms one) or sleeps on the wait list (its waker makes it runnable and
 * it calls again). The caller owns the struct lock_waiter, as the kernel's
 * waiter lives on the locking task's stack.
 *
 * The lock word, owner, wait_lock and wait list share one cache line (the
 * structs are 32 and 40 bytes on x86-64 without debug options): the
 * line of wait_lock, a raw spinlock modelled as a sim_lock.
 */
#ifndef SCHEDLAB_KERNEL_LOCKING_H
#define SCHEDLAB_KERNEL_LOCKING_H

#include "kernel/list.h"
#include "sim/machine.h"

struct task_struct;

/* per-lock contention statistics (lock_stat / perf lock contention) */
struct lock_class_stat {
	const char *name;
	u64 acquisitions;
	u64 contended; /* acquisitions that did not take the fast path */
	u64 spin_ns; /* optimistic spinning, CPU time */
	u64 sleep_ns; /* on the wait list, off CPU */
	u64 handoffs; /* ownership handed to the first waiter */
	u64 wait_ns; /* contention_begin to the acquisition, summed */
	u64 max_wait_ns;
	u64 addr; /* its simulated kernel address (the tracepoints' lock) */
	const char *type; /* "mutex" or "rwsem", as perf lock contention names them */
};

enum lock_waiter_phase {
	LW_IDLE, /* not in a lock operation */
	LW_OSQ, /* spinning in the osq (its head spins on the owner) */
	LW_SPIN_FAILED, /* left the spin for need_resched: slowpath next */
	LW_WAIT, /* on the wait list, asleep or just woken */
	LW_WAITER_SPIN, /* first waiter spinning on the owner (no osq) */
};

enum lock_kind {
	LK_MUTEX,
	LK_RWSEM_READ,
	LK_RWSEM_WRITE,
	LK_RTMUTEX,
};

/* the kernel's on-stack mutex_waiter / rwsem_waiter, with the task's osq node */
struct lock_waiter {
	struct task_struct *task;
	void *lock; /* the struct mutex or rw_semaphore */
	enum lock_kind kind;
	enum lock_waiter_phase phase;
	struct list_head list; /* on the lock's wait list */
	struct list_head osq; /* on the lock's osq, or its spinners without one */
	struct list_head spinning; /* on the global list of spinning tasks */
	struct cache_line node; /* the MCS node the predecessor writes */
	bool granted; /* rwsem reader: the waker gave it the lock */
	bool handoff_set; /* rwsem writer: set RWSEM_FLAG_HANDOFF */
	u64 timeout; /* rwsem: jiffies after which it may set handoff */
	u64 begin; /* contention_begin time, 0: not contended */
	u64 spin_since; /* this stretch of spinning began */
	u64 rspin_until; /* rwsem writer on a reader-owned lock: the spin's time limit, 0: none */
	u64 sleep_since; /* went to sleep on the wait list */
	bool traced; /* contention_begin was emitted for this acquisition */
	struct lock_waiter *wake_next; /* wake_q link */
	bool wake_queued;
	/* rt_mutex (struct rt_mutex_waiter): its sort keys in the lock's and the owner's trees */
	int prio; /* tree.prio: __waiter_prio() */
	int pi_prio; /* pi_tree.prio: a copy made under the owner's pi_lock */
	struct list_head pi_list; /* on the owner's pi_waiters while the lock's top waiter */
	struct task_struct *spin_owner; /* the owner it spins on */
	unsigned int sleep_state; /* TASK_UNINTERRUPTIBLE (rt_mutex_lock), TASK_INTERRUPTIBLE (futex) */
};

void lock_waiter_init(struct lock_waiter *w, struct task_struct *p);

/* ---- struct mutex ---- */

#define MUTEX_FLAG_WAITERS 0x01
#define MUTEX_FLAG_HANDOFF 0x02
#define MUTEX_FLAG_PICKUP 0x04

struct mutex {
	struct task_struct *owner; /* the owner field, task part */
	unsigned int flags; /* its low bits: MUTEX_FLAG_* */
	struct sim_lock wait_lock; /* its line is the whole struct's */
	struct list_head wait_list;
	struct list_head osq; /* spinners, queue order */
	struct list_head wspin; /* the first waiter when it spins on the owner */
	struct lock_class_stat stat;
	struct list_head node; /* every initialised mutex (--check, --lock-stat) */
};

void mutex_init(struct mutex *lock, const char *name);
/* mutex_lock() as a step: true once @lock is taken by @w->task (current). */
bool mutex_lock_step(struct mutex *lock, struct lock_waiter *w);
bool mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
/* the mutex's owner task, NULL when unlocked */
static inline struct task_struct *__mutex_owner(const struct mutex *lock)
{
	return lock->owner;
}

/* mutex_is_locked(): an owner */
static inline bool mutex_is_locked(const struct mutex *lock)
{
	return __mutex_owner(lock) != NULL;
}

/* ---- struct rw_semaphore ---- */

struct rw_semaphore {
	/* the count field */
	bool writer_locked; /* RWSEM_WRITER_LOCKED */
	bool waiters; /* RWSEM_FLAG_WAITERS */
	bool handoff; /* RWSEM_FLAG_HANDOFF */
	unsigned int readers; /* count >> RWSEM_READER_SHIFT */
	/* the owner field: the writer, or the last reader with RWSEM_READER_OWNED */
	struct task_struct *owner;
	bool reader_owned;
	bool nonspinnable; /* RWSEM_NONSPINNABLE: a spin on its readers timed out */
	struct sim_lock wait_lock;
	struct list_head wait_list;
	struct list_head osq;
	struct list_head wspin;
	struct lock_class_stat stat;
	struct list_head node;
};

void init_rwsem(struct rw_semaphore *sem, const char *name);
bool down_read_step(struct rw_semaphore *sem, struct lock_waiter *w);
bool down_write_step(struct rw_semaphore *sem, struct lock_waiter *w);
void up_read(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);

/*
 * rwsem_is_locked(): the count is not RWSEM_UNLOCKED_VALUE, which the
 * waiters' flag (the waiting bias before v4.x) makes true as well
 */
static inline bool rwsem_is_locked(const struct rw_semaphore *sem)
{
	return sem->writer_locked || sem->readers || sem->waiters;
}

/* ---- hooks for the scheduler core ---- */

/* tasks spinning on a sleeping lock now (the switch-out hook tests it) */
extern unsigned int nr_lock_spinners;

/*
 * @prev is switched out: a task spinning on a lock @prev owns sees
 * owner->on_cpu drop and stops spinning.
 */
void lock_owner_switched_out(struct task_struct *prev);

/*
 * The host preempted vCPU @cpu (a steal stretch begins): a task spinning
 * on a lock owned by the task @cpu runs, or queued in an osq behind a
 * spinner there, sees vcpu_is_preempted() and stops.
 */
void lock_vcpu_preempted(unsigned int cpu);

/*
 * need_resched is set on the CPU where @p spins: it leaves the osq and
 * will take the slowpath when it runs again (mutex_optimistic_spin()'s fail
 * path schedules with TASK_RUNNING before the slowpath).
 */
void lock_spin_cancel(struct task_struct *p);

/* Every mutex and rw_semaphore initialised in this run, for stats and --check. */
extern struct list_head all_mutexes, all_rwsems;

/*
 * A class of spinning locks (raw spinlocks and rwlocks, which the model
 * takes with sim_lock_acquire()): one lock_stat entry for every lock of
 * the class, as lockdep counts a class (tasklist_lock is the one of its
 * class). On all_spin_classes from spin_lock_class_init() to the end of
 * the run.
 */
struct spin_lock_class {
	struct lock_class_stat stat;
	unsigned int flags;	/* contention_begin's: LCB_F_SPIN, | LCB_F_WRITE for a writer */
	struct list_head node;
};

extern struct list_head all_spin_classes;

void spin_lock_class_init(struct spin_lock_class *c, const char *name, const char *type,
			  unsigned int flags);
/*
 * sim_lock_acquire() of @l, a lock of class @c: counted, and a spin on a
 * held lock is a contention with its contention_begin and _end events.
 */
void spin_lock_counted(struct sim_lock *l, struct spin_lock_class *c);
/*
 * An acquisition of a lock of class @c after spinning @wait ns (0: it was
 * free), for locks the model takes by other means (tasklist_lock's
 * readers and writers): counted, and a contention's contention_end.
 */
void spin_lock_class_account(struct spin_lock_class *c, u64 wait);
/* Forget them (end of a run: their memory goes with the workload). */
void locking_reset(void);
/* --check: the invariants of every lock; abort with a message on a violation. */
void locking_check_invariants(void);

#endif
