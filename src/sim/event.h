/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event queue: a 4-ary min-heap ordered by (time, sequence number).
 *
 * Events are intrusive (embedded in the CPU, task or timer that owns them)
 * and remember their heap slot, so a pending event can be moved or removed
 * in O(log n) without lazy tombstones. The slot array keeps (time, seq)
 * next to the pointer so sifting never dereferences events.
 */
#ifndef SCHEDLAB_SIM_EVENT_H
#define SCHEDLAB_SIM_EVENT_H

#include "sim/types.h"

struct sim_event;
typedef void (*sim_event_fn)(struct sim_event *ev);

struct sim_event {
	u64 time;
	u32 heap_idx;		/* 1-based slot while queued, 0 when not queued */
	u32 arg;		/* free for the owner (e.g. an IRQ kind) */
	sim_event_fn fn;
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

struct event_queue {
	struct heap_slot *slot;
	u32 nr;
	u32 nr_background;	/* queued events with ev->background */
	u32 cap;
	u64 next_seq;
};

void eq_init(struct event_queue *q);
void eq_destroy(struct event_queue *q);

static inline bool ev_queued(const struct sim_event *ev)
{
	return ev->heap_idx != 0;
}

static inline void ev_init(struct sim_event *ev, sim_event_fn fn, u32 arg)
{
	ev->time = 0;
	ev->heap_idx = 0;
	ev->arg = arg;
	ev->fn = fn;
	ev->background = false;
}

/* Queue @ev at @time; if it is already queued, move it (it gets a new sequence number). */
void eq_schedule(struct event_queue *q, struct sim_event *ev, u64 time);
void eq_cancel(struct event_queue *q, struct sim_event *ev);
/* Remove and return the earliest event, or NULL when empty. */
struct sim_event *eq_pop(struct event_queue *q);

static inline u64 eq_peek_time(const struct event_queue *q)
{
	return q->nr ? q->slot[0].time : UINT64_MAX;
}

#endif
