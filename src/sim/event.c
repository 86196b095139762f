// SPDX-License-Identifier: GPL-2.0-only
#include "sim/event.h"

#include "sim/alloc.h"

#include <stdio.h>
#include <stdlib.h>

#define HEAP_D 4

void eq_init(struct event_queue *q)
{
	q->nr = 0;
	q->nr_background = 0;
	q->cap = 256;
	q->next_seq = 0;
	q->slot = xreallocarray(NULL, q->cap, sizeof(*q->slot));
}

void eq_destroy(struct event_queue *q)
{
	for (u32 i = 0; i < q->nr; i++)
		q->slot[i].ev->heap_idx = 0;
	free(q->slot);
	q->slot = NULL;
	q->nr = q->cap = q->nr_background = 0;
}

static inline bool slot_before(const struct heap_slot *a, const struct heap_slot *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void place(struct event_queue *q, u32 i, struct heap_slot s)
{
	q->slot[i] = s;
	s.ev->heap_idx = i + 1;
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
		if (first >= q->nr)
			break;
		u32 last = first + HEAP_D;
		if (last > q->nr)
			last = q->nr;
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

	ev->heap_idx = 0;
	q->nr_background -= ev->background;
	q->nr--;
	if (i == q->nr)
		return;
	struct heap_slot last = q->slot[q->nr];
	if (i > 0 && slot_before(&last, &q->slot[(i - 1) / HEAP_D]))
		sift_up(q, i, last);
	else
		sift_down(q, i, last);
}

/*
 * A queued event is moved in place (its slot sifted up or down with the
 * new key) rather than removed and inserted again: a CPU's step event is
 * rescheduled at almost every step. Keys (time, seq) are unique, so the
 * order events come out in is the same either way.
 */
void eq_schedule(struct event_queue *q, struct sim_event *ev, u64 time)
{
	struct heap_slot s = { .time = time, .seq = q->next_seq++, .ev = ev };

	ev->time = time;
	if (ev->heap_idx) {
		u32 i = ev->heap_idx - 1;

		if (i > 0 && slot_before(&s, &q->slot[(i - 1) / HEAP_D]))
			sift_up(q, i, s);
		else
			sift_down(q, i, s);
		return;
	}
	if (q->nr == q->cap) {
		q->cap *= 2;
		q->slot = xreallocarray(q->slot, q->cap, sizeof(*q->slot));
	}
	q->nr++;
	q->nr_background += ev->background;
	sift_up(q, q->nr - 1, s);
}

void eq_cancel(struct event_queue *q, struct sim_event *ev)
{
	if (ev->heap_idx)
		remove_at(q, ev->heap_idx - 1);
}

struct sim_event *eq_pop(struct event_queue *q)
{
	if (!q->nr)
		return NULL;
	struct sim_event *ev = q->slot[0].ev;
	remove_at(q, 0);
	return ev;
}
