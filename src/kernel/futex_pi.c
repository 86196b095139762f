// SPDX-License-Identifier: GPL-2.0-only
/*
 * PI futexes of Linux v6.18 (kernel/futex/pi.c), written from their
 * behaviour (docs/locking.md, "PI futexes"): the user word holds the
 * owner's TID, with FUTEX_WAITERS once somebody blocks; the first
 * contender attaches a pi_state to the futex, whose rt_mutex is owned by
 * the TID's task (rt_mutex_init_proxy_locked()), queues its futex_q on the
 * bucket and blocks on that rt_mutex, boosting the owner; FUTEX_UNLOCK_PI
 * hands the futex to the rt_mutex's top waiter (its TID in the word) and
 * wakes it, or clears the word when nobody waits.
 */
#include "kernel/futex.h"

#include "kernel/locking_internal.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* every pi_state of the run, kept past its last reference for its rt_mutex's statistics */
static struct list_head futex_pi_states = LIST_HEAD_INIT(futex_pi_states);

/* the word's change under the bucket lock (futex_cmpxchg_value_locked()) */
static void futex_word_update(struct futex_uword *u, u32 newval)
{
	charge(machine.cost->lock_atomic);
	cl_write(u->line);
	*u->val = newval;
}

static bool futex_key_eq(const struct futex_key *a, const struct futex_key *b)
{
	return a->ptr == b->ptr && a->word == b->word && a->offset == b->offset;
}

/* futex_top_waiter(): the first futex_q of @key on @hb */
static struct futex_q *futex_top_waiter(struct futex_hash_bucket *hb, const struct futex_key *key)
{
	struct futex_q *q;

	list_for_each_entry(q, &hb->chain, list)
	{
		charge(machine.cost->wake_walk);
		if (futex_key_eq(&q->key, key))
			return q;
	}
	return NULL;
}

/* find_get_task_by_vpid() */
static struct task_struct *futex_find_task(int pid)
{
	struct task_struct *p;

	list_for_each_entry(p, &sched_world.tasks,
			    tasks) if (p->pid == pid && p->__state != TASK_DEAD) return p;
	return NULL;
}

/*
 * alloc_pi_state() and __attach_to_pi_owner(): a pi_state for @key whose
 * rt_mutex @owner holds. A key's earlier pi_state is reused, so that one
 * futex's rt_mutex statistics add up over the run.
 */
static struct futex_pi_state *attach_to_pi_owner(const struct futex_key *key,
						 struct task_struct *owner)
{
	struct futex_pi_state *ps;

	list_for_each_entry(ps, &futex_pi_states,
			    node) if (!ps->refcount && futex_key_eq(&ps->key, key)) goto found;
	ps = xcalloc(1, sizeof(*ps));
	rt_mutex_init(&ps->pi_mutex, "futex_lock_pi");
	ps->key = *key;
	list_add_tail(&ps->node, &futex_pi_states);
found:
	cl_write(&owner->cl.pi);
	rt_mutex_init_proxy_locked(&ps->pi_mutex, owner);
	ps->owner = owner;
	ps->refcount = 1;
	return ps;
}

/* put_pi_state(): the last reference lets the rt_mutex forget its owner */
static void put_pi_state(struct futex_pi_state *ps)
{
	if (--ps->refcount)
		return;
	rt_mutex_proxy_unlock(&ps->pi_mutex);
	ps->owner = NULL;
}

/*
 * futex_lock_pi_atomic(), bucket lock held: 1 if @p took the futex (the
 * word was 0; with @set_waiters, FUTEX_WAITERS too and *@ps a new
 * pi_state that @p owns, for the waiters a requeue is about to add), 0
 * with *@ps the pi_state to block on (FUTEX_WAITERS set), or -EDEADLK (it
 * is @p's already), -EINVAL (the word's TID is not the pi_state's owner),
 * -ESRCH (no such task).
 */
static int futex_lock_pi_atomic(struct futex_uword *u, struct futex_hash_bucket *hb,
				const struct futex_key *key, struct futex_pi_state **ps,
				struct task_struct *p, bool set_waiters)
{
	u32 uval = *u->val;
	int pid = (int)(uval & FUTEX_TID_MASK);
	struct futex_q *top;
	struct task_struct *owner;

	cl_read(u->line);
	if (pid == p->pid)
		return -EDEADLK;
	top = futex_top_waiter(hb, key);
	if (top) {
		/* attach_to_pi_state(): the word must name the pi_state's owner */
		if (!top->pi_state || !top->pi_state->owner || top->pi_state->owner->pid != pid)
			return -EINVAL;
		top->pi_state->refcount++;
		*ps = top->pi_state;
		return 0;
	}
	if (!pid) {
		futex_word_update(u, (u32)p->pid | (uval & FUTEX_OWNER_DIED) |
					     (set_waiters ? FUTEX_WAITERS : 0));
		if (set_waiters)
			*ps = attach_to_pi_owner(key, p);
		return 1;
	}
	futex_word_update(u, uval | FUTEX_WAITERS);
	owner = futex_find_task(pid);
	if (!owner)
		return -ESRCH;
	*ps = attach_to_pi_owner(key, owner);
	return 0;
}

/*
 * fixup_pi_owner() of a task that holds the rt_mutex: if the futex was
 * not handed to it (it stole the rt_mutex from the woken top waiter), the
 * word and the pi_state name it now (fixup_pi_state_owner()).
 */
static void fixup_pi_owner(struct futex_uword *u, struct futex_q *q, struct task_struct *p)
{
	struct futex_pi_state *ps = q->pi_state;

	if (ps->owner == p)
		return;
	cl_write(&p->cl.pi);
	ps->owner = p;
	futex_word_update(u, (u32)p->pid | FUTEX_WAITERS | (*u->val & FUTEX_OWNER_DIED));
}

/* futex_unqueue_pi() and the bucket unlock at the end of FUTEX_LOCK_PI */
static void futex_lock_pi_done(struct futex_q *q)
{
	struct futex_hash_bucket *hb = q->hb;

	list_del_init(&q->list);
	q->hb = NULL;
	put_pi_state(q->pi_state);
	q->pi_state = NULL;
	futex_q_unlock(hb);
}

/* the rt_mutex is ours (or the trylock failed): the word fixed up, the futex_q gone */
static int futex_lock_pi_finish(struct futex_uword *u, struct futex_q *q, struct task_struct *p,
				bool locked)
{
	/* futex_q_lockptr_lock(): the bucket lock again */
	sim_lock_acquire(&q->hb->lock);
	if (locked)
		fixup_pi_owner(u, q, p);
	futex_lock_pi_done(q);
	return locked ? 0 : -EWOULDBLOCK;
}

bool futex_lock_pi_step(struct futex_q *q, struct lock_waiter *w, const struct futex_key *key,
			struct futex_uword *u, struct task_struct *p, bool trylock, int *res)
{
	struct futex_hash_bucket *hb;
	struct rt_mutex *lock;
	int ret;

	if (q->pi_state) {
		/* rt_mutex_wait_proxy_lock() goes on */
		if (!rt_mutex_wait_proxy_step(&q->pi_state->pi_mutex, w))
			return false;
		*res = futex_lock_pi_finish(u, q, p, true);
		return true;
	}
	hb = futex_q_lock(q, key, p);
	ret = futex_lock_pi_atomic(u, hb, key, &q->pi_state, p, false);
	if (ret) {
		futex_q_unlock(hb);
		q->pi_state = NULL;
		*res = ret == 1 ? 0 : ret;
		return true;
	}
	/* __futex_queue(): the waiters count raised by futex_q_lock() stays */
	futex_queue_locked(q, hb);
	lock = &q->pi_state->pi_mutex;
	if (trylock) {
		/* FUTEX_TRYLOCK_PI: rt_mutex_futex_trylock(), never blocks */
		bool locked = rt_mutex_futex_trylock(lock);

		if (locked)
			fixup_pi_owner(u, q, p);
		futex_lock_pi_done(q);
		*res = locked ? 0 : -EWOULDBLOCK;
		return true;
	}
	/* the rt_mutex's wait_lock is taken before the bucket lock is dropped */
	sim_lock_acquire(&lock->wait_lock);
	sim_lock_release(&hb->lock);
	ret = __rt_mutex_start_proxy_lock(lock, w, p);
	sim_lock_release(&lock->wait_lock);
	if (unlikely(ret < 0)) {
		/* a cycle of PI futexes: -EDEADLK, unless the lock became ours meanwhile */
		bool locked = !rt_mutex_cleanup_proxy_lock(lock, w);

		futex_lock_pi_finish(u, q, p, locked);
		*res = locked ? 0 : ret;
		return true;
	}
	if (ret) {
		*res = futex_lock_pi_finish(u, q, p, true);
		return true;
	}
	if (!rt_mutex_wait_proxy_step(lock, w))
		return false;
	*res = futex_lock_pi_finish(u, q, p, true);
	return true;
}

/*
 * wake_futex_pi(): the futex goes to the rt_mutex's top waiter (its TID
 * and FUTEX_WAITERS in the word, the pi_state's owner), current is
 * deboosted, and the waiter is woken to take the rt_mutex.
 */
static void wake_futex_pi(struct futex_uword *u, struct futex_pi_state *ps, struct lock_waiter *top)
{
	struct task_struct *new_owner = top->task;
	struct lock_waiter *wake_q = NULL;

	futex_word_update(u, FUTEX_WAITERS | (u32)new_owner->pid);
	/* pi_state_update_owner(): both tasks' pi_state lists */
	cl_write(&ps->owner->cl.pi);
	cl_write(&new_owner->cl.pi);
	ps->owner = new_owner;
	/* the futex is the waiter's before it runs: --lock-stat's handoffs */
	ps->pi_mutex.stat.handoffs++;
	__rt_mutex_futex_unlock(&ps->pi_mutex, &wake_q);
	sim_lock_release(&ps->pi_mutex.wait_lock);
	/* rt_mutex_postunlock() */
	wake_up_q(wake_q);
}

int futex_unlock_pi(const struct futex_key *key, struct futex_uword *u, struct task_struct *p)
{
	struct futex_hash_bucket *hb;
	struct futex_q *top;

	cl_read(u->line);
	if ((int)(*u->val & FUTEX_TID_MASK) != p->pid)
		return -EPERM;
	hb = futex_hash(key, p);
	sim_lock_acquire(&hb->lock);
	top = futex_top_waiter(hb, key);
	if (top) {
		struct futex_pi_state *ps = top->pi_state;
		struct lock_waiter *rt_waiter;

		if (!ps || ps->owner != p) {
			sim_lock_release(&hb->lock);
			return -EINVAL;
		}
		sim_lock_acquire(&ps->pi_mutex.wait_lock);
		rt_waiter = rt_mutex_top_waiter(&ps->pi_mutex);
		if (rt_waiter) {
			sim_lock_release(&hb->lock);
			wake_futex_pi(u, ps, rt_waiter);
			return 0;
		}
		/*
		 * a futex_q without an rt_mutex waiter (it has the rt_mutex
		 * and is about to unqueue): cannot be seen here, as schedlab
		 * runs a locker's end in one step; fall through to the release
		 */
		sim_lock_release(&ps->pi_mutex.wait_lock);
	}
	/* nobody waits: the kernel releases the futex (the word to 0) */
	futex_word_update(u, 0);
	sim_lock_release(&hb->lock);
	return 0;
}

static void __attribute__((noreturn)) pi_bug(const struct futex_pi_state *ps, const char *what)
{
	fprintf(stderr, "schedlab: check: pi_state of futex %#llx: %s\n",
		(unsigned long long)(ps->key.word + (ps->key.offset & ~3U)), what);
	abort();
}

void futex_pi_check_invariants(void)
{
	struct futex_pi_state *ps;

	list_for_each_entry(ps, &futex_pi_states, node)
	{
		const struct task_struct *rt_owner = ps->pi_mutex.owner;

		if (!ps->refcount) {
			if (rt_owner || !list_empty(&ps->pi_mutex.waiters))
				pi_bug(ps,
				       "an unreferenced pi_state's rt_mutex is owned or waited on");
			continue;
		}
		if (!ps->owner)
			pi_bug(ps, "referenced without an owner");
		if (rt_owner && rt_owner != ps->owner)
			pi_bug(ps, "its rt_mutex's owner is not the futex's owner");
		if (!rt_owner && list_empty(&ps->pi_mutex.waiters))
			pi_bug(ps, "handed over with nobody to take its rt_mutex");
	}
}

/* ---- requeue to a PI futex (kernel/futex/requeue.c) ---- */

/* __futex_unqueue() under the bucket lock */
static void futex_unqueue_locked(struct futex_q *q)
{
	list_del_init(&q->list);
	q->hb->waiters--;
	q->hb = NULL;
}

/*
 * requeue_pi_wake_futex(): @q's task holds the PI futex @key2 now (the
 * requeue took it for it): off the first bucket, woken, never queued on
 * the second
 */
static void requeue_pi_wake_futex(struct futex_q *q, const struct futex_key *key2)
{
	q->key = *key2;
	futex_unqueue_locked(q);
	q->rt_waiter = NULL;
	q->requeue_state = Q_REQUEUE_PI_LOCKED;
	wake_up_process(q->task);
}

/*
 * futex_proxy_trylock_atomic(): the first futex's top waiter takes the PI
 * futex if it is free (1, and it is woken), else 0 with *@ps the pi_state
 * its waiters will block on; -EINVAL if that waiter is no
 * FUTEX_WAIT_REQUEUE_PI to @key2.
 */
static int futex_proxy_trylock_atomic(struct futex_uword *u2, struct futex_hash_bucket *hb1,
				      struct futex_hash_bucket *hb2, const struct futex_key *key1,
				      const struct futex_key *key2, struct futex_pi_state **ps,
				      bool set_waiters)
{
	struct futex_q *top = futex_top_waiter(hb1, key1);
	int ret;

	if (!top)
		return 0;
	if (!top->rt_waiter || top->pi_state || !futex_key_eq(&top->requeue_pi_key, key2))
		return -EINVAL;
	ret = futex_lock_pi_atomic(u2, hb2, key2, ps, top->task, set_waiters);
	if (ret == 1)
		requeue_pi_wake_futex(top, key2);
	return ret;
}

int futex_requeue_pi(const struct futex_key *key1, const struct futex_key *key2,
		     struct task_struct *p, int nr_requeue, const u32 *uval1, u32 cmpval,
		     struct futex_uword *u2)
{
	struct futex_hash_bucket *hb1, *hb2;
	struct futex_pi_state *ps = NULL;
	struct futex_q *q, *n;
	int task_count = 0, ret;

	/* nr_wake is 1: the top waiter, if it gets the lock */
	if (nr_requeue < 0 || futex_key_eq(key1, key2))
		return -EINVAL;
	hb1 = futex_hash(key1, p);
	hb2 = futex_hash(key2, p);
	hb2->waiters++;
	double_lock_hb(hb1, hb2);
	if (*uval1 != cmpval) {
		ret = -EAGAIN;
		goto out_unlock;
	}
	/* FUTEX_WAITERS is forced when waiters are to be requeued behind the top one */
	ret = futex_proxy_trylock_atomic(u2, hb1, hb2, key1, key2, &ps, nr_requeue > 0);
	if (ret < 0)
		goto out_unlock;
	task_count = ret;
	ret = 0;
	list_for_each_entry_safe(q, n, &hb1->chain, list)
	{
		int r;

		if (task_count - 1 >= nr_requeue)
			break;
		charge(machine.cost->wake_walk);
		if (!futex_key_eq(&q->key, key1))
			continue;
		if (!q->rt_waiter || q->pi_state || !futex_key_eq(&q->requeue_pi_key, key2)) {
			ret = -EINVAL;
			break;
		}
		/* the waiter blocks on the rt_mutex on its own behalf (rt_mutex_start_proxy_lock()) */
		ps->refcount++;
		q->pi_state = ps;
		sim_lock_acquire(&ps->pi_mutex.wait_lock);
		r = __rt_mutex_start_proxy_lock(&ps->pi_mutex, q->rt_waiter, q->task);
		sim_lock_release(&ps->pi_mutex.wait_lock);
		if (r == 1) {
			/* the lock was free: taken for it, woken to fix the word up */
			requeue_pi_wake_futex(q, key2);
			task_count++;
		} else if (!r) {
			requeue_futex(q, hb1, hb2, key2);
			q->requeue_state = Q_REQUEUE_PI_DONE;
			/* asleep since its FUTEX_WAIT_REQUEUE_PI: its rt_mutex sleep begins now */
			q->rt_waiter->sleep_since = cpu_now();
			task_count++;
		} else {
			/* a cycle: this waiter stays on the first futex */
			rt_mutex_cleanup_proxy_lock(&ps->pi_mutex, q->rt_waiter);
			q->pi_state = NULL;
			put_pi_state(ps);
			ret = r;
			break;
		}
	}
	if (ps)
		put_pi_state(ps);
out_unlock:
	hb2->waiters--;
	double_unlock_hb(hb1, hb2);
	return ret ? ret : task_count;
}

bool futex_wait_requeue_pi_step(struct futex_q *q, struct lock_waiter *w,
				const struct futex_key *key2, struct futex_uword *u2,
				struct task_struct *p, int *res)
{
	struct futex_pi_state *ps = q->pi_state;

	if (q->requeue_state == Q_REQUEUE_PI_DONE)
		return futex_lock_pi_step(q, w, key2, u2, p, false, res);
	/* Q_REQUEUE_PI_LOCKED: a pi_state the requeue referenced for it is dropped */
	if (ps) {
		struct futex_hash_bucket *hb = futex_hash(key2, p);

		sim_lock_acquire(&hb->lock);
		cl_read(u2->line);
		if (ps->owner != p)
			fixup_pi_owner(u2, q, p);
		put_pi_state(ps);
		q->pi_state = NULL;
		sim_lock_release(&hb->lock);
	}
	*res = 0;
	return true;
}

void futex_pi_exit(void)
{
	struct futex_pi_state *ps, *n;

	list_for_each_entry_safe(ps, n, &futex_pi_states, node) free(ps);
	INIT_LIST_HEAD(&futex_pi_states);
}
