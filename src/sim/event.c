// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event queue (see event.h): a winner tree over the slot events and a
 * 4-ary heap for the rest, both keyed by (time, seq). Keys are unique, so
 * any correct priority queue pops events in the same order: which
 * structure holds an event never changes a run.
 */
#include "sim/event.h"

#include "sim/alloc.h"

#include <stdio.h>
#include <stdlib.h>

#define HEAP_D 4

/*
 * The heap's first slot while it is empty: a key above every event's, so
 * a pop compares the heap's top with the tree's without testing for an
 * empty heap (the tree's empty key is not below it either).
 */
static const struct heap_slot heap_none = { .time = UINT64_MAX, .seq = UINT64_MAX };

static void grow_leaves(struct event_queue *q, u32 leaf);

void eq_init(struct event_queue *q)
{
	q->nr = 0;
	q->nr_heap = 0;
	q->nr_background = 0;
	q->cap = 256;
	q->next_seq = 0;
	q->slot = xreallocarray(NULL, q->cap, sizeof(*q->slot));
	q->slot[0] = heap_none;
	q->nr_leaves = 0;
	q->win = NULL;
	q->key_time = NULL;
	q->key_seq = NULL;
	q->slot_key = NULL;
	q->slot_ev = NULL;
	q->dirty = EQ_NO_LEAF;
	/* a tree of two empty leaves from the start: a pop never tests for none */
	grow_leaves(q, 0);
}

void eq_destroy(struct event_queue *q)
{
	for (u32 i = 0; i < q->nr_heap; i++)
		q->slot[i].ev->pos = 0;
	for (u32 i = 0; i < q->nr_leaves * EQ_LEAF_EVENTS; i++)
		if (q->slot_ev[i])
			q->slot_ev[i]->pos = 0;
	free(q->slot);
	free(q->win);
	free(q->key_time);
	free(q->key_seq);
	free(q->slot_key);
	free(q->slot_ev);
	q->slot = NULL;
	q->win = NULL;
	q->key_time = NULL;
	q->key_seq = NULL;
	q->slot_key = NULL;
	q->slot_ev = NULL;
	q->nr = q->nr_heap = q->cap = q->nr_background = q->nr_leaves = 0;
	q->dirty = EQ_NO_LEAF;
}

static inline eq_key mkkey(u64 time, u64 seq)
{
	return (eq_key)time << 64 | seq;
}

/* ---- the slot tree ---- */

static inline void leaf_key_set(struct event_queue *q, u32 leaf, eq_key k)
{
	q->key_time[leaf] = (u64)(k >> 64);
	q->key_seq[leaf] = (u64)k;
}

/* Leaf @leaf's key changed: recompute the winners on its path to the root. */
static inline void climb(struct event_queue *q, u32 leaf)
{
	/* a 64-bit node index: no zero extension at each use */
	u64 n = q->nr_leaves + leaf;
	u32 w = leaf;
	eq_key k = eq_leaf_key(q, leaf);

	while (n > 1) {
		u32 s = q->win[n ^ 1];
		eq_key ks = eq_leaf_key(q, s);

		if (ks < k) {
			w = s;
			k = ks;
		}
		n >>= 1;
		q->win[n] = w;
	}
}

/*
 * The climb left for later (see event.h). Out of line: the callers' common
 * paths (a schedule of the leaf already pending, a pop after a peek) then
 * need no registers saved for it.
 */
static void __attribute__((noinline)) climb_dirty(struct event_queue *q)
{
	climb(q, q->dirty);
	q->dirty = EQ_NO_LEAF;
}

static inline void flush_dirty(struct event_queue *q)
{
	if (q->dirty != EQ_NO_LEAF)
		climb_dirty(q);
}

/* a leaf holds two slots, its CPU's step and tick: slot i's partner is i ^ 1 */
_Static_assert(EQ_LEAF_EVENTS == 2, "leaf_key() and eq_pop() pair slots by i ^ 1");

static inline eq_key min_key(eq_key a, eq_key b)
{
	return b < a ? b : a;
}

/* widen the tree (a power of two, at least 2 leaves) to hold leaf @leaf */
static void grow_leaves(struct event_queue *q, u32 leaf)
{
	u32 n = q->nr_leaves ? q->nr_leaves : 2, old = q->nr_leaves;

	while (n <= leaf)
		n *= 2;
	flush_dirty(q);
	q->key_time = xreallocarray(q->key_time, n, sizeof(*q->key_time));
	q->key_seq = xreallocarray(q->key_seq, n, sizeof(*q->key_seq));
	q->slot_key = xreallocarray(q->slot_key, (size_t)n * EQ_LEAF_EVENTS, sizeof(*q->slot_key));
	q->slot_ev = xreallocarray(q->slot_ev, (size_t)n * EQ_LEAF_EVENTS, sizeof(*q->slot_ev));
	for (u32 i = old; i < n; i++)
		leaf_key_set(q, i, EQ_KEY_NONE);
	for (u32 i = old * EQ_LEAF_EVENTS; i < n * EQ_LEAF_EVENTS; i++) {
		q->slot_key[i] = EQ_KEY_NONE;
		q->slot_ev[i] = NULL;
	}
	free(q->win);
	q->win = xreallocarray(NULL, 2 * n, sizeof(*q->win));
	q->nr_leaves = n;
	for (u32 i = 0; i < n; i++)
		q->win[n + i] = i;
	for (u32 i = n - 1; i >= 1; i--) {
		u32 l = q->win[2 * i], r = q->win[2 * i + 1];

		q->win[i] = eq_leaf_key(q, r) < eq_leaf_key(q, l) ? r : l;
	}
}

void eq_bind_slot(struct event_queue *q, struct sim_event *ev, u32 leaf, u32 sub)
{
	if (ev_queued(ev) || sub >= EQ_LEAF_EVENTS) {
		fprintf(stderr,
			"schedlab: BUG: an event is given a slot while queued, or slot %u\n", sub);
		abort();
	}
	if (leaf >= q->nr_leaves)
		grow_leaves(q, leaf);
	q->slot_ev[leaf * EQ_LEAF_EVENTS + sub] = ev;
	ev->slot = leaf * EQ_LEAF_EVENTS + sub + 1;
}

/* slot @i's key is @k now: its leaf's key follows */
static inline void slot_store(struct event_queue *q, u32 i, eq_key k)
{
	q->slot_key[i] = k;
	leaf_key_set(q, i / EQ_LEAF_EVENTS, min_key(k, q->slot_key[i ^ 1]));
}

/* slot_set() of a leaf other than the pending one: that one climbs first */
static void __attribute__((noinline)) slot_set_other(struct event_queue *q, u32 i, eq_key k)
{
	flush_dirty(q);
	q->dirty = i / EQ_LEAF_EVENTS;
	slot_store(q, i, k);
}

/*
 * Slot @i's key is @k now; its leaf's climb waits (event.h). The usual
 * case, the leaf already pending, is a few stores and no call.
 */
static inline void slot_set(struct event_queue *q, u32 i, eq_key k)
{
	if (unlikely(q->dirty != i / EQ_LEAF_EVENTS))
		slot_set_other(q, i, k);
	else
		slot_store(q, i, k);
}

static void slot_schedule(struct event_queue *q, struct sim_event *ev, u64 time, u64 seq)
{
	if (!ev->pos) {
		ev->pos = ev->slot;
		q->nr++;
		q->nr_background += ev->background;
	}
	slot_set(q, ev->slot - 1, mkkey(time, seq));
}

static void slot_cancel(struct event_queue *q, struct sim_event *ev)
{
	ev->pos = 0;
	q->nr--;
	q->nr_background -= ev->background;
	slot_set(q, ev->slot - 1, EQ_KEY_NONE);
}

/* the earliest slot event's key (EQ_KEY_NONE: none), with the tree up to date */
static inline eq_key slot_min(struct event_queue *q)
{
	flush_dirty(q);
	return eq_leaf_key(q, q->win[1]);
}

/* ---- the heap ---- */

static inline bool slot_before(const struct heap_slot *a, const struct heap_slot *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void place(struct event_queue *q, u32 i, struct heap_slot s)
{
	q->slot[i] = s;
	s.ev->pos = i + 1;
}

static void sift_up(struct event_queue *q, u32 i, struct heap_slot s)
{
	while (i > 0) {
		u32 parent = (i - 1) / HEAP_D;
		if (!slot_before(&s, &q->slot[parent]))
			break;
		place(q, i, q->slot[parent]);
		i = parent;
	}
	place(q, i, s);
}

static void sift_down(struct event_queue *q, u32 i, struct heap_slot s)
{
	for (;;) {
		u32 first = i * HEAP_D + 1;
		if (first >= q->nr_heap)
			break;
		u32 last = first + HEAP_D;
		if (last > q->nr_heap)
			last = q->nr_heap;
		u32 best = first;
		for (u32 c = first + 1; c < last; c++)
			if (slot_before(&q->slot[c], &q->slot[best]))
				best = c;
		if (!slot_before(&q->slot[best], &s))
			break;
		place(q, i, q->slot[best]);
		i = best;
	}
	place(q, i, s);
}

static void remove_at(struct event_queue *q, u32 i)
{
	struct sim_event *ev = q->slot[i].ev;

	ev->pos = 0;
	q->nr_background -= ev->background;
	q->nr--;
	q->nr_heap--;
	if (i == q->nr_heap) {
		if (!i)
			q->slot[0] = heap_none;
		return;
	}
	struct heap_slot last = q->slot[q->nr_heap];
	if (i > 0 && slot_before(&last, &q->slot[(i - 1) / HEAP_D]))
		sift_up(q, i, last);
	else
		sift_down(q, i, last);
}

/*
 * A queued event is moved in place (its slot sifted up or down with the
 * new key) rather than removed and inserted again. Keys (time, seq) are
 * unique, so the order events come out in is the same either way.
 */
static void __attribute__((noinline))
heap_schedule(struct event_queue *q, struct sim_event *ev, u64 time, u64 seq)
{
	struct heap_slot s = { .time = time, .seq = seq, .ev = ev };

	if (ev->pos) {
		u32 i = ev->pos - 1;

		if (i > 0 && slot_before(&s, &q->slot[(i - 1) / HEAP_D]))
			sift_up(q, i, s);
		else
			sift_down(q, i, s);
		return;
	}
	if (q->nr_heap == q->cap) {
		q->cap *= 2;
		q->slot = xreallocarray(q->slot, q->cap, sizeof(*q->slot));
	}
	q->nr++;
	q->nr_heap++;
	q->nr_background += ev->background;
	sift_up(q, q->nr_heap - 1, s);
}

/* ---- the queue ---- */

void eq_schedule(struct event_queue *q, struct sim_event *ev, u64 time)
{
	u64 seq = q->next_seq++;

	ev->time = time;
	if (ev->slot)
		slot_schedule(q, ev, time, seq);
	else
		heap_schedule(q, ev, time, seq);
}

void eq_cancel(struct event_queue *q, struct sim_event *ev)
{
	if (!ev->pos)
		return;
	if (ev->slot)
		slot_cancel(q, ev);
	else
		remove_at(q, ev->pos - 1);
}

u64 eq_peek_time(struct event_queue *q)
{
	eq_key k = slot_min(q);

	if (q->nr_heap && mkkey(q->slot[0].time, q->slot[0].seq) < k)
		return q->slot[0].time;
	return k == EQ_KEY_NONE ? UINT64_MAX : (u64)(k >> 64);
}

u32 eq_count_background(const struct event_queue *q)
{
	u32 n = 0;

	for (u32 i = 0; i < q->nr_heap; i++)
		n += q->slot[i].ev->background;
	for (u32 i = 0; i < q->nr_leaves * EQ_LEAF_EVENTS; i++)
		if (q->slot_key[i] != EQ_KEY_NONE)
			n += q->slot_ev[i]->background;
	return n;
}

/*
 * A slot event popped leaves its slot empty and its leaf's climb for later:
 * the event that ran usually moves its own CPU's step, and that schedule's
 * climb then does both at once.
 */
struct sim_event *eq_pop_until(struct event_queue *q, u64 limit)
{
	eq_key k = slot_min(q);
	struct sim_event *ev;

	/* an empty heap's top is heap_none, never below k */
	if (mkkey(q->slot[0].time, q->slot[0].seq) < k) {
		if (q->slot[0].time > limit)
			return NULL;
		ev = q->slot[0].ev;
		remove_at(q, 0);
		return ev;
	}
	/* an empty tree's key has the largest time: one compare when below @limit */
	if (unlikely((u64)(k >> 64) >= limit) && ((u64)(k >> 64) > limit || k == EQ_KEY_NONE))
		return NULL;
	u32 leaf = q->win[1], i = leaf * EQ_LEAF_EVENTS;

	/*
	 * the leaf's key is one of its two slots'; sequence numbers are
	 * unique, so the low halves tell which
	 */
	if ((u64)q->slot_key[i] != (u64)k)
		i++;
	ev = q->slot_ev[i];
	q->slot_key[i] = EQ_KEY_NONE;
	leaf_key_set(q, leaf, q->slot_key[i ^ 1]);
	q->dirty = leaf;
	ev->pos = 0;
	q->nr--;
	q->nr_background -= ev->background;
	return ev;
}
