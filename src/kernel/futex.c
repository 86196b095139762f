// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex hash buckets of Linux v6.18 (kernel/futex/core.c, waitwake.c),
 * written from their behaviour: docs/locking.md, "Futex hash buckets".
 */
#include "kernel/futex.h"

#include "kernel/sched.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdlib.h>

/* x86-64's page: get_futex_key() splits an address into page and offset */
#define FUTEX_PAGE_SIZE 4096UL
/*
 * A process's mm_struct address, as the private and shared-anonymous keys
 * hold it: synthetic (the simulation has no kernel heap), a direct-map
 * address one slab object of the mm_struct cache apart per process. Only
 * its bits reach jhash2(), which spreads any distinct values alike.
 */
#define FUTEX_MM_BASE 0xffff888100000000ULL
#define FUTEX_MM_STRIDE 2048ULL
/* the shared mapping's inode sequence number (get_inode_sequence_number()): the first */
#define FUTEX_SHARED_ISEQ 1ULL

static struct futex_hash_bucket **futex_queues; /* [nr_nodes][hashsize], on demand */
static unsigned int futex_hashsize, futex_hashshift, futex_nr_nodes;
static struct list_head futex_mms = LIST_HEAD_INIT(futex_mms);

/* ---- jhash2: lookup3's hashword() (Bob Jenkins, public domain, 2006) ---- */

#define JHASH_INITVAL 0xdeadbeefU

static inline u32 rol32(u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

static inline void jhash_mix(u32 *a, u32 *b, u32 *c)
{
	*a -= *c, *a ^= rol32(*c, 4), *c += *b;
	*b -= *a, *b ^= rol32(*a, 6), *a += *c;
	*c -= *b, *c ^= rol32(*b, 8), *b += *a;
	*a -= *c, *a ^= rol32(*c, 16), *c += *b;
	*b -= *a, *b ^= rol32(*a, 19), *a += *c;
	*c -= *b, *c ^= rol32(*b, 4), *b += *a;
}

static inline void jhash_final(u32 *a, u32 *b, u32 *c)
{
	*c ^= *b, *c -= rol32(*b, 14);
	*a ^= *c, *a -= rol32(*c, 11);
	*b ^= *a, *b -= rol32(*a, 25);
	*c ^= *b, *c -= rol32(*b, 16);
	*a ^= *c, *a -= rol32(*c, 4);
	*b ^= *a, *b -= rol32(*a, 14);
	*c ^= *b, *c -= rol32(*b, 24);
}

u32 futex_jhash2(const u32 *k, unsigned int len, u32 initval)
{
	u32 a, b, c;

	a = b = c = JHASH_INITVAL + (len << 2) + initval;
	for (; len > 3; len -= 3, k += 3) {
		a += k[0];
		b += k[1];
		c += k[2];
		jhash_mix(&a, &b, &c);
	}
	switch (len) {
	case 3:
		c += k[2];
		/* fall through */
	case 2:
		b += k[1];
		/* fall through */
	case 1:
		a += k[0];
		jhash_final(&a, &b, &c);
		break;
	default:
		break;
	}
	return c;
}

/* ---- sizes ---- */

static unsigned int roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : (unsigned int)(1UL << (64 - __builtin_clzl(n - 1)));
}

unsigned int futex_global_hash_size(unsigned int cpus, unsigned int nodes)
{
	unsigned long n = (unsigned long)FUTEX_HASH_PER_CPU * cpus / (nodes ? nodes : 1);

	return roundup_pow_of_two(max(n, (unsigned long)FUTEX_HASH_GLOBAL_MIN));
}

unsigned int futex_default_private_size(unsigned int threads, unsigned int cpus, unsigned int nodes)
{
	unsigned int b =
		roundup_pow_of_two((unsigned long)FUTEX_HASH_PER_THREAD * min(threads, cpus));

	return clamp(b, (unsigned int)FUTEX_HASH_PRIVATE_MIN, futex_global_hash_size(cpus, nodes));
}

/* ---- the tables ---- */

static void hb_init(struct futex_hash_bucket *hb)
{
	sim_lock_init_in_path(&hb->lock);
	INIT_LIST_HEAD(&hb->chain);
	hb->waiters = 0;
	hb->ready = true;
}

static void futex_global_setup(void)
{
	const struct topology *t = machine.topo;

	futex_nr_nodes = t->nr_nodes ? t->nr_nodes : 1;
	futex_hashsize = futex_global_hash_size(machine.nr_cpus, futex_nr_nodes);
	futex_hashshift = (unsigned int)__builtin_ctz(futex_hashsize);
	futex_queues = xcalloc(futex_nr_nodes, sizeof(*futex_queues));
	/* calloc'd and each bucket set up at its first use: big tables cost no time */
	for (unsigned int n = 0; n < futex_nr_nodes; n++)
		futex_queues[n] = xcalloc(futex_hashsize, sizeof(**futex_queues));
}

static u64 futex_mm_ptr(int mm)
{
	return FUTEX_MM_BASE + (u64)(unsigned int)mm * FUTEX_MM_STRIDE;
}

void get_futex_key(struct futex_key *key, u64 uaddr, const struct task_struct *p, bool shared)
{
	key->offset = (u32)(uaddr % FUTEX_PAGE_SIZE);
	if (shared) {
		/* the shared view: i_seq, then the page's index in the mapping */
		key->ptr = FUTEX_SHARED_ISEQ;
		key->word = uaddr / FUTEX_PAGE_SIZE;
		key->offset |= FUT_OFF_INODE;
		return;
	}
	key->word = uaddr - key->offset;
	key->ptr = futex_mm_ptr(p->mm);
}

static bool futex_key_is_private(const struct futex_key *key)
{
	return !(key->offset & (FUT_OFF_INODE | FUT_OFF_MMSHARED));
}

static bool futex_match(const struct futex_key *a, const struct futex_key *b)
{
	return a->ptr == b->ptr && a->word == b->word && a->offset == b->offset;
}

/* the words of @v as the kernel's u32 view of a little-endian u64 */
static void put_words(u32 *k, u64 v)
{
	k[0] = (u32)v;
	k[1] = (u32)(v >> 32);
}

static struct futex_hash_bucket *hb_ready(struct futex_hash_bucket *hb)
{
	if (unlikely(!hb->ready))
		hb_init(hb);
	return hb;
}

static struct futex_hash_bucket *__futex_hash(const struct futex_key *key,
					      const struct futex_mm *fm)
{
	u32 k[4], hash;
	unsigned int node;

	/* __futex_hash_private(): the page address alone, in the process's table */
	if (futex_key_is_private(key) && fm && fm->slots) {
		put_words(k, key->word);
		hash = futex_jhash2(k, 2, key->offset);
		return hb_ready(&fm->queues[hash & (fm->slots - 1)]);
	}
	if (unlikely(!futex_queues))
		futex_global_setup();
	put_words(k, key->ptr);
	put_words(k + 2, key->word);
	hash = futex_jhash2(k, 4, key->offset);
	/* no FUTEX2_NUMA node: the hash's unused bits pick the node */
	node = (hash >> futex_hashshift) % futex_nr_nodes;
	return hb_ready(&futex_queues[node][hash & (futex_hashsize - 1)]);
}

struct futex_hash_bucket *futex_hash(const struct futex_key *key, const struct task_struct *p)
{
	return __futex_hash(key, p->futex_mm);
}

/* ---- waiting and waking ---- */

struct futex_hash_bucket *futex_q_lock(struct futex_q *q, const struct futex_key *key,
				       struct task_struct *p)
{
	struct futex_hash_bucket *hb = futex_hash(key, p);

	q->key = *key;
	q->task = p;
	q->rt_waiter = NULL;
	/* futex_hb_waiters_inc() before the lock: a waker then takes the lock */
	hb->waiters++;
	sim_lock_acquire(&hb->lock);
	return hb;
}

void futex_q_unlock(struct futex_hash_bucket *hb)
{
	sim_lock_release(&hb->lock);
	hb->waiters--;
}

/* plist_add(): after every waiter of the same or a higher priority */
static void futex_chain_add(struct futex_q *q, struct futex_hash_bucket *hb)
{
	struct futex_q *pos;

	q->hb = hb;
	if (list_empty(&hb->chain) ||
	    list_entry(hb->chain.prev, struct futex_q, list)->prio <= q->prio) {
		list_add_tail(&q->list, &hb->chain);
	} else {
		list_for_each_entry(pos, &hb->chain, list)
		{
			if (pos->prio > q->prio)
				break;
		}
		list_add_tail(&q->list, &pos->list);
	}
}

void futex_queue_locked(struct futex_q *q, struct futex_hash_bucket *hb)
{
	q->prio = min(q->task->normal_prio, MAX_RT_PRIO);
	futex_chain_add(q, hb);
}

void futex_queue(struct futex_q *q, struct futex_hash_bucket *hb)
{
	futex_queue_locked(q, hb);
	sim_lock_release(&hb->lock);
}

bool futex_unqueue(struct futex_q *q)
{
	struct futex_hash_bucket *hb = q->hb;

	if (!hb)
		return false;
	sim_lock_acquire(&hb->lock);
	list_del_init(&q->list);
	hb->waiters--;
	q->hb = NULL;
	sim_lock_release(&hb->lock);
	return true;
}

/* futex_wake_mark(): unqueued under the bucket lock, onto the wake_q */
static void futex_wake_mark(struct list_head *wake_q, struct futex_q *q)
{
	list_del_init(&q->list);
	list_add_tail(&q->list, wake_q);
	q->hb->waiters--;
	q->hb = NULL;
}

/* wake_up_q(): after the bucket locks are dropped */
static void wake_up_q(struct list_head *wake_q)
{
	struct futex_q *q, *n;

	list_for_each_entry_safe(q, n, wake_q, list)
	{
		list_del_init(&q->list);
		try_to_wake_up(q->task, TASK_NORMAL, 0);
	}
}

int futex_wake(const struct futex_key *key, const struct task_struct *p, int nr_wake)
{
	struct futex_hash_bucket *hb = futex_hash(key, p);
	struct futex_q *q, *n;
	struct list_head wake_q = LIST_HEAD_INIT(wake_q);
	int ret = 0;

	/* futex_hb_waiters_pending(): a read of the bucket's line, no lock */
	cl_read(&hb->lock.line);
	if (!hb->waiters)
		return 0;
	sim_lock_acquire(&hb->lock);
	list_for_each_entry_safe(q, n, &hb->chain, list)
	{
		charge(machine.cost->wake_walk);
		if (!futex_match(&q->key, key))
			continue;
		/* a PI waiter is no FUTEX_WAKE's to wake */
		if (unlikely(q->pi_state || q->rt_waiter)) {
			ret = -EINVAL;
			break;
		}
		futex_wake_mark(&wake_q, q);
		if (++ret >= nr_wake)
			break;
	}
	sim_lock_release(&hb->lock);
	wake_up_q(&wake_q);
	return ret;
}

/* ---- requeueing ---- */

/* double_lock_hb(): the bucket at the lower address first, once if they are one */
void double_lock_hb(struct futex_hash_bucket *hb1, struct futex_hash_bucket *hb2)
{
	if (hb1 > hb2) {
		struct futex_hash_bucket *t = hb1;

		hb1 = hb2;
		hb2 = t;
	}
	sim_lock_acquire(&hb1->lock);
	if (hb1 != hb2)
		sim_lock_acquire(&hb2->lock);
}

void double_unlock_hb(struct futex_hash_bucket *hb1, struct futex_hash_bucket *hb2)
{
	sim_lock_release(&hb1->lock);
	if (hb1 != hb2)
		sim_lock_release(&hb2->lock);
}

/*
 * requeue_futex(): @q moves to @hb2's chain (by priority) unless both keys
 * hash to one bucket; its key becomes @key2 either way, so that a wake of
 * the second futex finds it and a signal unqueues it from the bucket it is on.
 */
void requeue_futex(struct futex_q *q, struct futex_hash_bucket *hb1, struct futex_hash_bucket *hb2,
		   const struct futex_key *key2)
{
	if (hb1 != hb2) {
		list_del_init(&q->list);
		hb1->waiters--;
		hb2->waiters++;
		futex_chain_add(q, hb2);
	}
	q->key = *key2;
}

int futex_requeue(const struct futex_key *key1, const struct futex_key *key2,
		  const struct task_struct *p, int nr_wake, int nr_requeue, const u32 *uval1,
		  const u32 *cmpval)
{
	struct futex_hash_bucket *hb1, *hb2;
	struct futex_q *q, *n;
	struct list_head wake_q = LIST_HEAD_INIT(wake_q);
	int task_count = 0, ret = 0;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	hb1 = futex_hash(key1, p);
	hb2 = futex_hash(key2, p);
	/* futex_hb_waiters_inc(hb2) before the locks, a waiter-to-be's signal to wakers */
	hb2->waiters++;
	double_lock_hb(hb1, hb2);
	/* futex_get_value_locked(): the value under both locks */
	if (cmpval && *uval1 != *cmpval) {
		ret = -EAGAIN;
		goto out_unlock;
	}
	list_for_each_entry_safe(q, n, &hb1->chain, list)
	{
		if (task_count - nr_wake >= nr_requeue)
			break;
		charge(machine.cost->wake_walk);
		if (!futex_match(&q->key, key1))
			continue;
		/* FUTEX_WAIT_REQUEUE_PI's waiters take FUTEX_CMP_REQUEUE_PI only */
		if (unlikely(q->pi_state || q->rt_waiter)) {
			ret = -EINVAL;
			break;
		}
		if (++task_count <= nr_wake)
			futex_wake_mark(&wake_q, q);
		else
			requeue_futex(q, hb1, hb2, key2);
	}
out_unlock:
	hb2->waiters--;
	double_unlock_hb(hb1, hb2);
	wake_up_q(&wake_q);
	return ret ? ret : task_count;
}

/* ---- private hashes ---- */

static struct futex_mm *futex_mm_get(struct task_struct *p)
{
	struct futex_mm *fm = p->futex_mm;

	if (!fm) {
		fm = xcalloc(1, sizeof(*fm));
		fm->mm = p->mm;
		fm->nr_threads = 1;
		list_add_tail(&fm->node, &futex_mms);
		p->futex_mm = fm;
	}
	return fm;
}

/*
 * futex_hash_allocate() and the pivot: the new table replaces the old at
 * once and the queued waiters move to their new buckets in the old table's
 * order (futex_rehash_private()). Its cost is not charged (docs/locking.md).
 */
static void futex_hash_allocate(struct futex_mm *fm, unsigned int slots, bool custom)
{
	struct futex_hash_bucket *old = fm->queues;
	unsigned int old_slots = fm->slots;
	struct futex_q *q, *n;

	fm->queues = slots ? xcalloc(slots, sizeof(*fm->queues)) : NULL;
	fm->slots = slots;
	fm->custom = custom;
	for (unsigned int i = 0; i < old_slots; i++) {
		if (!old[i].ready)
			continue;
		list_for_each_entry_safe(q, n, &old[i].chain, list)
		{
			struct futex_hash_bucket *hb;

			list_del_init(&q->list);
			hb = __futex_hash(&q->key, fm);
			hb->waiters++;
			futex_chain_add(q, hb);
		}
	}
	free(old);
}

void futex_thread_fork(struct task_struct *parent, struct task_struct *child)
{
	struct futex_mm *fm = futex_mm_get(parent);

	/* futex_hash_allocate_default(): grown, never shrunk, unless custom */
	if (!fm->custom) {
		unsigned int want = futex_default_private_size(
			fm->nr_threads, machine.nr_cpus,
			machine.topo->nr_nodes ? machine.topo->nr_nodes : 1);

		if (fm->slots < want)
			futex_hash_allocate(fm, want, false);
	}
	fm->nr_threads++;
	child->futex_mm = fm;
}

void futex_thread_exit(struct task_struct *p)
{
	if (p->futex_mm && p->futex_mm->nr_threads)
		p->futex_mm->nr_threads--;
}

int futex_hash_set_slots(struct task_struct *p, unsigned int slots)
{
	struct futex_mm *fm;

	if (slots == 1 || (slots & (slots - 1)))
		return -EINVAL;
	fm = futex_mm_get(p);
	/* once the global hash was chosen there is no way back */
	if (fm->custom && !fm->slots)
		return -EBUSY;
	futex_hash_allocate(fm, slots, true);
	return 0;
}

unsigned int futex_hash_get_slots(const struct task_struct *p)
{
	return p->futex_mm ? p->futex_mm->slots : 0;
}

/* ---- runs ---- */

void futex_exit(void)
{
	futex_pi_exit();
	struct futex_mm *fm, *n;

	list_for_each_entry_safe(fm, n, &futex_mms, node)
	{
		free(fm->queues);
		free(fm);
	}
	INIT_LIST_HEAD(&futex_mms);
	for (unsigned int i = 0; futex_queues && i < futex_nr_nodes; i++)
		free(futex_queues[i]);
	free(futex_queues);
	futex_queues = NULL;
	futex_hashsize = futex_hashshift = futex_nr_nodes = 0;
}

void futex_reset(void)
{
	futex_exit();
}
