/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Futex hash buckets as Linux v6.18 has them (kernel/futex/core.c,
 * waitwake.c; docs/locking.md, "Futex hash buckets"): a global hash of
 * one table per NUMA node, a process's private hash once it creates a
 * thread (futex_hash_allocate_default()) or asks for one
 * (prctl(PR_FUTEX_HASH)), the key -> bucket function (jhash2), and each
 * bucket's spinlock, a sim_lock whose line is the bucket's, so that
 * FUTEX_WAIT and FUTEX_WAKE on one bucket contend and move its line
 * between CPUs at the machine's cost. Waiters queue on their bucket's
 * chain in priority order (the kernel's plist); a wake takes the bucket
 * lock, unqueues the matching waiters and wakes them after dropping it
 * (wake_q); a requeue (kernel/futex/requeue.c) moves waiters of one futex
 * to another's bucket under both bucket locks.
 *
 * The user-space side (the futex word, its simulated address) is
 * src/work's struct futex; this file knows a futex by its key.
 */
#ifndef SCHEDLAB_KERNEL_FUTEX_H
#define SCHEDLAB_KERNEL_FUTEX_H

#include "kernel/list.h"
#include "kernel/rtmutex.h"
#include "sim/machine.h"

struct task_struct;

/* union futex_key, as its "both" view: the words jhash2() hashes, then the offset */
struct futex_key {
	u64 ptr; /* the mm (private and shared anonymous), the inode sequence (shared file) */
	u64 word; /* the page's user address, or its page offset in the file */
	u32 offset; /* the word's offset in its page, FUT_OFF_* in its low bits */
};

/* key->offset flags (kernel/futex/futex.h): shared keys never use a private hash */
#define FUT_OFF_INODE 1
#define FUT_OFF_MMSHARED 2

/* the sizes of kernel/futex/core.c */
#define FUTEX_HASH_PRIVATE_MIN 16 /* futex_hash_allocate_default()'s floor */
#define FUTEX_HASH_GLOBAL_MIN 4 /* futex_init()'s floor per node */
#define FUTEX_HASH_PER_CPU 256 /* futex_init(): buckets per possible CPU */
#define FUTEX_HASH_PER_THREAD 4 /* futex_hash_allocate_default(): per thread */

struct futex_hash_bucket {
	struct sim_lock lock; /* hb->lock; its line holds waiters and chain too */
	unsigned int waiters; /* futex_hb_waiters_pending() */
	struct list_head chain; /* futex_q by priority, FIFO within one */
	bool ready; /* initialised (the global tables are, lazily) */
};

/* A waiter (the kernel's struct futex_q on the waiting task's stack). */
struct futex_q {
	struct list_head list;
	struct task_struct *task;
	struct futex_key key;
	int prio; /* min(normal_prio, MAX_RT_PRIO) */
	struct futex_hash_bucket *hb; /* queued on it; NULL once unqueued (lock_ptr) */
	struct futex_pi_state *pi_state; /* FUTEX_LOCK_PI: the rt_mutex it blocks on */
	/*
	 * FUTEX_WAIT_REQUEUE_PI: its rt_mutex waiter (NULL in a plain wait),
	 * the PI futex it may be requeued to, and what the requeue did
	 */
	struct lock_waiter *rt_waiter;
	struct futex_key requeue_pi_key;
	int requeue_state;
};

/* futex_q.requeue_state (the kernel's Q_REQUEUE_PI_*, without the races' states) */
enum {
	Q_REQUEUE_PI_NONE, /* still waiting on the first futex */
	Q_REQUEUE_PI_DONE, /* blocked on the PI futex's rt_mutex */
	Q_REQUEUE_PI_LOCKED, /* the requeue took the PI futex for it and woke it */
};

/* ---- PI futexes (kernel/futex/pi.c; futex_pi.c) ---- */

/* the user word of a PI futex: the owner's TID and two flags (uapi/linux/futex.h) */
#define FUTEX_WAITERS 0x80000000U
#define FUTEX_OWNER_DIED 0x40000000U
#define FUTEX_TID_MASK 0x3fffffffU

/*
 * struct futex_pi_state: the rt_mutex of a PI futex with waiters, owned
 * by the task the word names; referenced by each futex_q queued on it.
 */
struct futex_pi_state {
	struct rt_mutex pi_mutex;
	struct task_struct *owner;
	int refcount;
	struct futex_key key;
	struct list_head node; /* every pi_state of the run */
};

/* the futex word as the kernel reaches it: its value and its cache line */
struct futex_uword {
	u32 *val;
	struct cache_line *line;
};

/*
 * A process's futex state: mm->futex_phash and get_nr_threads(). slots
 * 0 with custom: PR_FUTEX_HASH_SET_SLOTS 0, the global hash for good.
 */
struct futex_mm {
	int mm;
	unsigned int nr_threads;
	unsigned int slots; /* private hash buckets, 0: none (the global hash) */
	bool custom; /* set by prctl: not resized by thread creation */
	struct futex_hash_bucket *queues;
	struct list_head node; /* every futex_mm of the run */
};

/* jhash2() (Bob Jenkins' lookup3 hashword()) of @len words with @initval */
u32 futex_jhash2(const u32 *k, unsigned int len, u32 initval);

/* futex_init(): the global table's buckets per node on @cpus CPUs and @nodes nodes */
unsigned int futex_global_hash_size(unsigned int cpus, unsigned int nodes);
/*
 * futex_hash_allocate_default()'s size for a process with @threads
 * threads (the creator's count, before the new one) on @cpus online CPUs
 * and @nodes nodes.
 */
unsigned int futex_default_private_size(unsigned int threads, unsigned int cpus,
					unsigned int nodes);

/*
 * The key of the futex at user address @uaddr for task @p: private (@shared
 * false: FUTEX_PRIVATE_FLAG, the page address in @p's mm), or shared
 * (without the flag): keyed as a page of a shared mapping (FUT_OFF_INODE:
 * one inode, the page's offset), the same in every process and never in
 * a private hash.
 */
void get_futex_key(struct futex_key *key, u64 uaddr, const struct task_struct *p, bool shared);
/* futex_hash(): @key's bucket for task @p, with the tables set up on demand */
struct futex_hash_bucket *futex_hash(const struct futex_key *key, const struct task_struct *p);

/*
 * FUTEX_WAIT's locked part on the running CPU: take @key's bucket lock (the
 * waiters count is raised first, on the same line); then the caller
 * compares the value and either futex_q_unlock()s (EWOULDBLOCK) or
 * futex_queue()s and schedules.
 */
struct futex_hash_bucket *futex_q_lock(struct futex_q *q, const struct futex_key *key,
				       struct task_struct *p);
void futex_q_unlock(struct futex_hash_bucket *hb);
/* queue @q on @hb by priority and drop the bucket lock */
void futex_queue(struct futex_q *q, struct futex_hash_bucket *hb);
/* __futex_queue(): the same, keeping the bucket lock */
void futex_queue_locked(struct futex_q *q, struct futex_hash_bucket *hb);
/*
 * Take @q off its bucket under the bucket lock if it is still queued (a
 * signal ended the wait); false if a waker had unqueued it already.
 */
bool futex_unqueue(struct futex_q *q);
/* FUTEX_WAKE: wake up to @nr_wake waiters of @key; the number woken */
int futex_wake(const struct futex_key *key, const struct task_struct *p, int nr_wake);
/*
 * FUTEX_CMP_REQUEUE (@cmpval the expected value of the word @uval1) or
 * FUTEX_REQUEUE (@cmpval NULL) by @p, as kernel/futex/requeue.c's
 * futex_requeue() without PI: both buckets locked in address order
 * (double_lock_hb()), the value compared under them (-EAGAIN), then up to
 * @nr_wake waiters of @key1 unqueued for waking and up to @nr_requeue of
 * the rest moved to @key2's bucket without waking; the wakes after the
 * unlock (wake_q). The number woken plus requeued, or -EINVAL / -EAGAIN.
 */
int futex_requeue(const struct futex_key *key1, const struct futex_key *key2,
		  const struct task_struct *p, int nr_wake, int nr_requeue, const u32 *uval1,
		  const u32 *cmpval);

/*
 * FUTEX_LOCK_PI (@trylock false) or FUTEX_TRYLOCK_PI of the word @u (key
 * @key) by @p (current), as a step with @q and @w (the futex_q and
 * rt_mutex_waiter on @p's stack): true once done, with *@res 0 (locked),
 * -EWOULDBLOCK (trylock: held), -EDEADLK (@p holds it, or the PI chain
 * from it is a cycle), -EINVAL (the word
 * and the waiters' pi_state disagree) or -ESRCH (no task has the word's
 * TID); false while @p spins or sleeps on the pi_state's rt_mutex.
 */
bool futex_lock_pi_step(struct futex_q *q, struct lock_waiter *w, const struct futex_key *key,
			struct futex_uword *u, struct task_struct *p, bool trylock, int *res);
/*
 * FUTEX_UNLOCK_PI by @p: 0, or -EPERM (@p does not own it) or -EINVAL;
 * the futex goes to its top waiter, or the word to 0 when nobody waits.
 */
int futex_unlock_pi(const struct futex_key *key, struct futex_uword *u, struct task_struct *p);
/* the run's pi_states are freed (futex_exit()) */
void futex_pi_exit(void);
/*
 * --check: a referenced pi_state has an owner, which its rt_mutex has too
 * unless the unlock just handed it over (the new owner not yet running);
 * each futex_q on it waits on its rt_mutex or is its owner
 */
void futex_pi_check_invariants(void);

/* what futex_requeue() and futex_requeue_pi() share (kernel/futex/requeue.c) */
void double_lock_hb(struct futex_hash_bucket *hb1, struct futex_hash_bucket *hb2);
void double_unlock_hb(struct futex_hash_bucket *hb1, struct futex_hash_bucket *hb2);
/* @q moves to @hb2's chain with @key2 (requeue_futex()) */
void requeue_futex(struct futex_q *q, struct futex_hash_bucket *hb1, struct futex_hash_bucket *hb2,
		   const struct futex_key *key2);

/*
 * FUTEX_CMP_REQUEUE_PI by @p: with the first futex's word @uval1 still
 * @cmpval, its top waiter (a FUTEX_WAIT_REQUEUE_PI to @key2) gets the PI
 * futex @u2 if it is free and is woken holding it; up to @nr_requeue more
 * are moved onto the PI futex's rt_mutex as its waiters (boosting its
 * owner), to be woken by its unlocks. The number woken plus requeued, or
 * -EINVAL / -EAGAIN.
 */
int futex_requeue_pi(const struct futex_key *key1, const struct futex_key *key2,
		     struct task_struct *p, int nr_requeue, const u32 *uval1, u32 cmpval,
		     struct futex_uword *u2);
/*
 * FUTEX_WAIT_REQUEUE_PI after its wakeup, as a step: the requeue took the
 * PI futex for it (its word and pi_state fixed up if need be), or it waits
 * on the rt_mutex (futex_lock_pi_step()'s wait). True once done, *@res 0.
 */
bool futex_wait_requeue_pi_step(struct futex_q *q, struct lock_waiter *w,
				const struct futex_key *key2, struct futex_uword *u2,
				struct task_struct *p, int *res);

/*
 * copy_process() of a thread of @parent (CLONE_THREAD | CLONE_VM): its
 * process's private hash is allocated or grown first, then the thread
 * is counted. futex_thread_exit(): a thread of a process with futex state
 * is gone.
 */
void futex_thread_fork(struct task_struct *parent, struct task_struct *child);
void futex_thread_exit(struct task_struct *p);

/*
 * prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_SET_SLOTS, @slots) by @p: 0 or
 * -EINVAL (1 or not a power of two). 0 slots: the global hash, for good.
 */
int futex_hash_set_slots(struct task_struct *p, unsigned int slots);
/* PR_FUTEX_HASH_GET_SLOTS: the private hash's buckets, 0 with the global hash */
unsigned int futex_hash_get_slots(const struct task_struct *p);

/* Start of a run (the previous run's tables are gone) and its end. */
void futex_reset(void);
void futex_exit(void);

#endif
