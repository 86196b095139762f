/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event queue, ordered by (time, sequence number): every schedule takes
 * the next sequence number, so events at the same time come out in the
 * order they were scheduled, whatever structure holds them.
 *
 * Two structures share the order. Most events are a CPU's step or tick,
 * popped and then moved forward by the same CPU; each of those has a slot
 * of its own (eq_bind_slot()), one of EQ_LEAF_EVENTS under its CPU's leaf
 * of a winner tree. A leaf's key is the earliest of its slots', so moving
 * one costs a compare of the leaf's few slots and one climb of log2(leaves)
 * compares with no data moved. The climb waits until the tree is read (the
 * next peek or pop) or another leaf changes, so the usual run of changes
 * to one CPU's events (a tick popped, the step it interrupts cancelled,
 * the tick re-armed, the step queued again) climbs once. Every other event
 * (IPIs, timers) goes into a 4-ary min-heap. A pop takes the earlier of the
 * tree's winner and the heap's top.
 *
 * Events are intrusive (embedded in the CPU, task or timer that owns them)
 * and remember where they are, so a pending event can be moved or removed
 * in O(log n) without lazy tombstones. The heap keeps (time, seq) next to
 * the pointer so sifting never dereferences events.
 */
#ifndef SCHEDLAB_SIM_EVENT_H
#define SCHEDLAB_SIM_EVENT_H

#include "sim/types.h"

struct sim_event;
typedef void (*sim_event_fn)(struct sim_event *ev);

struct sim_event {
	u64 time;
	u32 pos;		/* while queued: heap index + 1, or slot + 1; 0 when not queued */
	u32 arg;		/* free for the owner (e.g. an IRQ kind) */
	sim_event_fn fn;
	u32 slot;		/* its own slot + 1 (eq_bind_slot()), 0: it goes in the heap */
	/*
	 * A background event (a kernel housekeeping timer) happens when its
	 * time comes like any other, but does not keep a run going: a queue
	 * that holds only background events is a finished simulation.
	 */
	bool background;
};

struct heap_slot {
	u64 time;
	u64 seq;
	struct sim_event *ev;
};

/* (time << 64 | seq): one compare orders two slot events */
typedef unsigned __int128 eq_key;

struct event_queue {
	/* the heap: events without a slot; slot[0] of an empty heap is a key above every event's */
	struct heap_slot *slot;
	u32 nr_heap;
	u32 cap;
	/*
	 * The winner tree over the leaves: nr_leaves is a power of two, 2
	 * or more from eq_init() on (0 after eq_destroy()), so that a pop
	 * never tests for an empty tree; node n's children are 2n and
	 * 2n + 1, leaf i is node
	 * nr_leaves + i, and win[n] is the leaf with the smallest key under
	 * node n (win[nr_leaves + i] == i). Leaf i holds slots
	 * i * EQ_LEAF_EVENTS to i * EQ_LEAF_EVENTS + EQ_LEAF_EVENTS - 1; its
	 * key is the smallest of their slot_key. An empty slot's or leaf's
	 * key is EQ_KEY_NONE. The leaves' keys are kept as two arrays, the
	 * times (key_time, the high half) and the sequence numbers (key_seq),
	 * so that the climb finds a leaf's key by its index alone: an x86
	 * address scales an index by 8 at most, and a 16-byte key's took a
	 * shift, an add and a copy at every level (eq_leaf_key()).
	 */
	u32 nr_leaves;
	u32 *win;
	u64 *key_time;
	u64 *key_seq;
	eq_key *slot_key;
	struct sim_event **slot_ev;
	u32 dirty;		/* a leaf changed and not yet climbed, or EQ_NO_LEAF */
	u32 nr;			/* queued events, heap and slots */
	u32 nr_background;	/* queued events with ev->background */
	u64 next_seq;
};

#define EQ_KEY_NONE (~(eq_key)0)
/* slots per leaf: a CPU's step and tick (a power of two) */
#define EQ_LEAF_EVENTS 2
#define EQ_NO_LEAF UINT32_MAX

/* leaf @leaf's key, from its two halves */
static inline eq_key eq_leaf_key(const struct event_queue *q, u32 leaf)
{
	return (eq_key)q->key_time[leaf] << 64 | q->key_seq[leaf];
}

void eq_init(struct event_queue *q);
void eq_destroy(struct event_queue *q);

static inline bool ev_queued(const struct sim_event *ev)
{
	return ev->pos != 0;
}

static inline void ev_init(struct sim_event *ev, sim_event_fn fn, u32 arg)
{
	ev->time = 0;
	ev->pos = 0;
	ev->arg = arg;
	ev->fn = fn;
	ev->slot = 0;
	ev->background = false;
}

/*
 * Give @ev (not queued) slot @sub (< EQ_LEAF_EVENTS) of leaf @leaf: an
 * event that is moved often, such as a CPU's step or tick, with the
 * CPU's number as the leaf. One event per slot; leaves are numbered
 * densely from 0 (the tree is as wide as the largest).
 */
void eq_bind_slot(struct event_queue *q, struct sim_event *ev, u32 leaf, u32 sub);

/* Queue @ev at @time; if it is already queued, move it (it gets a new sequence number). */
void eq_schedule(struct event_queue *q, struct sim_event *ev, u64 time);
void eq_cancel(struct event_queue *q, struct sim_event *ev);
/*
 * Remove and return the earliest event if its time is @limit or earlier;
 * NULL when there is none (empty, or the earliest is later). One look at
 * the queue where eq_peek_time() and eq_pop() would take two.
 */
struct sim_event *eq_pop_until(struct event_queue *q, u64 limit);

/* Remove and return the earliest event, or NULL when empty. */
static inline struct sim_event *eq_pop(struct event_queue *q)
{
	return eq_pop_until(q, UINT64_MAX);
}
/* The time of the earliest event, UINT64_MAX when empty. */
u64 eq_peek_time(struct event_queue *q);
/*
 * The queued events marked background, counted one by one (O(queued
 * events + leaves)): what nr_background must equal, for --check.
 */
u32 eq_count_background(const struct event_queue *q);

/*
 * Mark @ev as background (it does not keep a finished run going) or not,
 * where it stands in the queue: its place among events of the same time
 * is kept, as a new sequence number would not keep it. Every change of a
 * queued event's flag goes through here, or nr_background goes wrong.
 */
static inline void eq_set_background(struct event_queue *q, struct sim_event *ev, bool bg)
{
	if (ev_queued(ev))
		q->nr_background = q->nr_background - ev->background + bg;
	ev->background = bg;
}

#endif
