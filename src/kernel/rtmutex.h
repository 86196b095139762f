/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct rt_mutex with priority inheritance, as Linux v6.18 has it
 * (kernel/locking/rtmutex.c, rtmutex_api.c, rtmutex_common.h;
 * docs/locking.md, "rt_mutex and priority inheritance"):
 *
 *  - the waiters ordered by priority, FIFO within one; a task that is not
 *    RT waits at DEFAULT_PRIO whatever its nice (__waiter_prio());
 *  - the owner's pi_waiters: the top waiter of each rt_mutex it owns; the
 *    owner runs at the priority of the highest of them if that is above
 *    its own (rt_mutex_setprio(), kernel/sched/core.c), so a boosted fair
 *    task runs in the RT class until the unlock deboosts it;
 *  - the PI chain walk (rt_mutex_adjust_prio_chain()): a boost goes on to
 *    the owner of the lock the owner is blocked on, up to max_lock_depth
 *    locks;
 *  - the top waiter spins while the owner runs on a CPU
 *    (rtmutex_spin_on_owner(), no osq), else sleeps; the unlock wakes the
 *    top waiter, which takes the lock itself (a higher-priority task may
 *    steal it first: rt_mutex_steal()).
 *
 * The lock is a step function like mutex_lock_step() (kernel/locking.h):
 * the caller owns the struct lock_waiter, which holds the kernel's struct
 * rt_mutex_waiter (its priority copies and its node in the owner's
 * pi_waiters). The owner field, RT_MUTEX_HAS_WAITERS, wait_lock and the
 * waiter tree's root share one cache line (struct rt_mutex_base is 32
 * bytes on x86-64): the line of wait_lock, a sim_lock. A task's pi_lock
 * and pi_waiters are its pi line (task_struct.cl.pi).
 */
#ifndef SCHEDLAB_KERNEL_RTMUTEX_H
#define SCHEDLAB_KERNEL_RTMUTEX_H

#include "kernel/locking.h"
#include "kernel/sched.h"

/* kernel/locking/rtmutex_api.c: the PI chain walk gives up beyond this many locks */
#define MAX_LOCK_DEPTH 1024

struct rt_mutex {
	struct task_struct *owner; /* the owner field's task part */
	bool has_waiters; /* RT_MUTEX_HAS_WAITERS, the owner field's bit 0 */
	struct sim_lock wait_lock; /* its line is the whole struct's */
	struct list_head waiters; /* lock_waiter.list by rt_prio, FIFO within one */
	struct list_head wspin; /* the top waiter while it spins on the owner */
	struct lock_class_stat stat;
	struct list_head node; /* every initialised rt_mutex (--check, --lock-stat) */
};

extern struct list_head all_rtmutexes;

void rt_mutex_init(struct rt_mutex *lock, const char *name);
/* rt_mutex_lock() (TASK_UNINTERRUPTIBLE) as a step: true once @lock is taken by @w->task */
bool rt_mutex_lock_step(struct rt_mutex *lock, struct lock_waiter *w);
bool rt_mutex_trylock(struct rt_mutex *lock);
void rt_mutex_unlock(struct rt_mutex *lock);

/* the top waiter of @lock, NULL without waiters */
struct lock_waiter *rt_mutex_top_waiter(struct rt_mutex *lock);

/* ---- what the PI futexes use (rtmutex_common.h's proxy interface) ---- */

/* rt_mutex_init_proxy_locked(): @lock (initialised) is owned by @owner */
void rt_mutex_init_proxy_locked(struct rt_mutex *lock, struct task_struct *owner);
/* rt_mutex_proxy_unlock(): the lock forgets its owner (the pi_state is gone) */
void rt_mutex_proxy_unlock(struct rt_mutex *lock);
/*
 * __rt_mutex_start_proxy_lock() for @task (current), wait_lock held: 1 if
 * it took the lock, 0 if @w is queued (and the owner boosted), -EDEADLK
 * if the full chain walk found a cycle (@w still queued: clean it up)
 */
int __rt_mutex_start_proxy_lock(struct rt_mutex *lock, struct lock_waiter *w,
				struct task_struct *task);
/*
 * rt_mutex_cleanup_proxy_lock() after a failed start (-EDEADLK): @w leaves
 * the lock (true), unless it has become the owner (false: it holds it)
 */
bool rt_mutex_cleanup_proxy_lock(struct rt_mutex *lock, struct lock_waiter *w);
/* rt_mutex_wait_proxy_lock() as a step (TASK_INTERRUPTIBLE): true once taken */
bool rt_mutex_wait_proxy_step(struct rt_mutex *lock, struct lock_waiter *w);
/* rt_mutex_futex_trylock(): no fast path, the wait_lock and try_to_take_rt_mutex() */
bool rt_mutex_futex_trylock(struct rt_mutex *lock);
/*
 * __rt_mutex_futex_unlock(), wait_lock held: the top waiter is marked for
 * the wakeup (onto *@wake_q; the unlocker is deboosted first), or the lock
 * is released when nobody waits (false).
 */
bool __rt_mutex_futex_unlock(struct rt_mutex *lock, struct lock_waiter **wake_q);

/* ---- the scheduler's side ---- */

/* rt_mutex_get_top_task(): the task of @p's top pi waiter, or NULL */
struct task_struct *rt_mutex_get_top_task(const struct task_struct *p);
/* rt_effective_prio(): @prio, or the top pi waiter's if that is higher */
int rt_effective_prio(const struct task_struct *p, int prio);
/* rt_mutex_adjust_pi(): @p, blocked on an rt_mutex, changed its priority */
void rt_mutex_adjust_pi(struct task_struct *p);
/* kernel/sched/core.c: @p runs at @pi_task's priority if higher, else its own */
void rt_mutex_setprio(struct task_struct *p, struct task_struct *pi_task);

/* __rt_effective_prio() */
static inline int __rt_effective_prio(const struct task_struct *pi_task, int prio)
{
	return pi_task && pi_task->prio < prio ? pi_task->prio : prio;
}

/* need_resched ended @w's spin (lock_spin_cancel()) */
void rtmutex_spin_cancel(struct lock_waiter *w);
/* --check: every rt_mutex's invariants; abort on a violation */
void rtmutex_check_invariants(void);

#endif
