// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the simulation engine (src/sim): the event queue, the PRNG
 * streams, CPU locks, sim_run() and the cost model.
 */
#include "test_util.h"

#include <stdlib.h>

#include "sim/machine.h"

/* ------------------------------------------------------------------------- */
/* event queue                                                                */
/* ------------------------------------------------------------------------- */

static void nop_event(struct sim_event *ev)
{
	(void)ev;
}

/* Heap shape and back pointers: every heap slot's event points back at it. */
static void check_heap(const struct event_queue *q)
{
	for (u32 i = 0; i < q->nr_heap; i++) {
		const struct heap_slot *s = &q->slot[i];

		assert_int_equal(s->ev->slot, 0);
		assert_int_equal(s->ev->pos, i + 1);
		assert_int_equal(s->ev->time, s->time);
		if (i) {
			const struct heap_slot *p = &q->slot[(i - 1) / 4];

			/* parent never after child in (time, seq) */
			assert_true(p->time < s->time || (p->time == s->time && p->seq < s->seq));
		}
	}
}

/* The slot tree: each node's winner is the smaller of its children's. */
static void check_tree(struct event_queue *q)
{
	/* a pop leaves one climb pending: what a peek would do first */
	eq_peek_time(q);
	for (u32 n = 1; n < q->nr_leaves; n++) {
		u32 l = q->win[2 * n], r = q->win[2 * n + 1];

		/* (two empty leaves tie: either may stand for both) */
		assert_true(q->win[n] == l || q->win[n] == r);
		assert_true(eq_leaf_key(q, q->win[n]) == (eq_leaf_key(q, r) < eq_leaf_key(q, l) ?
								  eq_leaf_key(q, r) :
								  eq_leaf_key(q, l)));
	}
	/* a leaf's key is the earlier of its two slots' */
	for (u32 leaf = 0; leaf < q->nr_leaves; leaf++) {
		eq_key a = q->slot_key[2 * leaf], b = q->slot_key[2 * leaf + 1];

		assert_true(eq_leaf_key(q, leaf) == (b < a ? b : a));
	}
	for (u32 i = 0; i < q->nr_leaves * EQ_LEAF_EVENTS; i++) {
		struct sim_event *ev = q->slot_ev[i];

		if (!ev) {
			assert_true(q->slot_key[i] == EQ_KEY_NONE);
			continue;
		}
		assert_int_equal(ev->slot, i + 1);
		assert_int_equal(ev_queued(ev), q->slot_key[i] != EQ_KEY_NONE);
		if (ev_queued(ev))
			assert_int_equal((u64)(q->slot_key[i] >> 64), ev->time);
	}
}

/* the sequence number @ev was queued with */
static u64 queued_seq(const struct event_queue *q, const struct sim_event *ev)
{
	if (ev->slot)
		return (u64)q->slot_key[ev->slot - 1];
	assert_ptr_equal(q->slot[ev->pos - 1].ev, ev);
	return q->slot[ev->pos - 1].seq;
}

#define NR_EV 900

struct ref_ev {
	bool queued;
	u64 time;
	u64 seq;
};

/*
 * 100000 random schedule / move / cancel / pop operations against a
 * reference: a flat array searched for the minimum (time, sequence). Pop
 * order must be exactly the reference's; a move takes a new sequence number
 * (so it goes after events already queued at the same time); the events'
 * positions and ev_queued() follow every operation. Times come from a small
 * range so that ties are common, and the mix alternates between growing and
 * shrinking phases so the heap outgrows its initial 256 slots. A third of
 * the events have slots of their own (the slot tree, mostly two to a leaf), the rest go in the
 * heap, so the two structures' order is checked against each other.
 */
static void test_event_queue_random(void **state)
{
	static struct sim_event ev[NR_EV];
	static struct ref_ev ref[NR_EV];
	struct event_queue q;
	struct prng r;
	u64 seq = 0;
	u32 nr = 0, max_nr = 0;
	int pops = 0, moves = 0, cancels = 0;

	(void)state;
	eq_init(&q);
	prng_init(&r, 12345, 99);
	for (int i = 0; i < NR_EV; i++) {
		ev_init(&ev[i], nop_event, (u32)i);
		/*
		 * slots bound out of order, with gaps: the tree grows twice;
		 * most leaves get both their slots, some one
		 */
		if (i % 3 == 0) {
			u32 j = (u32)((NR_EV - 1 - i) / 2);

			eq_bind_slot(&q, &ev[i], j / EQ_LEAF_EVENTS, j % EQ_LEAF_EVENTS);
		}
		ref[i] = (struct ref_ev){ 0 };
	}
	assert_null(eq_pop(&q));
	assert_int_equal(eq_peek_time(&q), UINT64_MAX);

	for (int op = 0; op < 100000; op++) {
		/* 5000-op phases: schedule-heavy, then pop-heavy */
		bool grow = (op / 5000) % 2 == 0;
		u64 dice = prng_below(&r, 100);
		int i = (int)prng_below(&r, NR_EV);

		if (dice < (grow ? 60u : 25u)) {
			u64 t = 1000 + prng_below(&r, 200);

			moves += ref[i].queued;
			eq_schedule(&q, &ev[i], t);
			if (!ref[i].queued)
				nr++;
			ref[i] = (struct ref_ev){ true, t, seq++ };
		} else if (dice < (grow ? 75u : 45u)) {
			cancels += ref[i].queued;
			eq_cancel(&q, &ev[i]);
			if (ref[i].queued)
				nr--;
			ref[i].queued = false;
		} else {
			int best = -1;
			struct sim_event *got;

			for (int k = 0; k < NR_EV; k++) {
				if (!ref[k].queued)
					continue;
				if (best < 0 || ref[k].time < ref[best].time ||
				    (ref[k].time == ref[best].time && ref[k].seq < ref[best].seq))
					best = k;
			}
			assert_int_equal(eq_peek_time(&q), best < 0 ? UINT64_MAX : ref[best].time);
			got = eq_pop(&q);
			if (best < 0) {
				assert_null(got);
			} else {
				assert_ptr_equal(got, &ev[best]);
				assert_int_equal(got->time, ref[best].time);
				assert_false(ev_queued(got));
				ref[best].queued = false;
				nr--;
				pops++;
			}
		}
		assert_int_equal(q.nr, nr);
		assert_int_equal(ev_queued(&ev[i]), ref[i].queued);
		if (ref[i].queued)
			assert_int_equal(queued_seq(&q, &ev[i]), ref[i].seq);
		max_nr = max(max_nr, nr);
		if (op % 997 == 0) {
			check_heap(&q);
			check_tree(&q);
			for (int k = 0; k < NR_EV; k++) {
				assert_int_equal(ev_queued(&ev[k]), ref[k].queued);
				if (ref[k].queued)
					assert_int_equal(queued_seq(&q, &ev[k]), ref[k].seq);
			}
		}
	}
	/* the sequence counter counts every schedule, moves included */
	assert_int_equal(q.next_seq, seq);
	assert_true(max_nr > 256 && q.cap > 256 && q.nr_leaves == 256);
	assert_true(pops > 20000 && moves > 5000 && cancels > 2000);

	/* drain: (time, seq) order */
	{
		u64 last_t = 0, last_seq = 0;
		struct sim_event *e;

		while ((e = eq_pop(&q))) {
			struct ref_ev *re = &ref[e - ev];

			assert_true(re->queued);
			assert_true(re->time > last_t ||
				    (re->time == last_t && re->seq > last_seq));
			last_t = re->time;
			last_seq = re->seq;
			re->queued = false;
			nr--;
		}
		assert_int_equal(nr, 0);
	}
	eq_destroy(&q);
}

/*
 * eq_pop_until() pops only what is due by its limit, from the heap and from
 * the slots alike, and leaves a later event queued where it was.
 */
static void test_event_queue_pop_until(void **state)
{
	struct sim_event heap_ev, slot_ev;
	struct event_queue q;

	(void)state;
	eq_init(&q);
	ev_init(&heap_ev, nop_event, 0);
	ev_init(&slot_ev, nop_event, 1);
	eq_bind_slot(&q, &slot_ev, 3, 0);
	assert_null(eq_pop_until(&q, UINT64_MAX));
	eq_schedule(&q, &heap_ev, 10);
	eq_schedule(&q, &slot_ev, 20);
	assert_null(eq_pop_until(&q, 9));
	assert_true(ev_queued(&heap_ev));
	assert_ptr_equal(eq_pop_until(&q, 10), &heap_ev);
	assert_false(ev_queued(&heap_ev));
	assert_null(eq_pop_until(&q, 19));
	assert_true(ev_queued(&slot_ev));
	assert_int_equal(eq_peek_time(&q), 20);
	assert_ptr_equal(eq_pop_until(&q, 20), &slot_ev);
	assert_null(eq_pop_until(&q, UINT64_MAX));
	eq_destroy(&q);
}

/*
 * A pop finds which of the winning leaf's two slots holds its key by the
 * sequence number: with a CPU's step and tick at the same time, the one
 * queued first (here the tick, slot 1) comes out first. An empty queue,
 * with no slot bound yet, pops nothing.
 */
static void test_event_queue_leaf_pair(void **state)
{
	struct sim_event step, tick, other;
	struct event_queue q;

	(void)state;
	eq_init(&q);
	assert_null(eq_pop(&q));
	assert_int_equal(eq_peek_time(&q), UINT64_MAX);
	ev_init(&step, nop_event, 0);
	ev_init(&tick, nop_event, 1);
	ev_init(&other, nop_event, 2);
	eq_bind_slot(&q, &step, 0, 0);
	eq_bind_slot(&q, &tick, 0, 1);
	eq_bind_slot(&q, &other, 1, 0);
	eq_schedule(&q, &other, 60);
	eq_schedule(&q, &tick, 50);
	eq_schedule(&q, &step, 50);
	assert_ptr_equal(eq_pop(&q), &tick);
	assert_true(ev_queued(&step));
	assert_ptr_equal(eq_pop(&q), &step);
	/* and the other way round */
	eq_schedule(&q, &step, 70);
	eq_schedule(&q, &tick, 70);
	assert_ptr_equal(eq_pop(&q), &other);
	assert_ptr_equal(eq_pop(&q), &step);
	assert_ptr_equal(eq_pop(&q), &tick);
	assert_null(eq_pop(&q));
	assert_int_equal(q.nr, 0);
	eq_destroy(&q);
}

/*
 * The background count follows a queued event's flag changed in place,
 * whether the event is in the heap or in a slot, and matches a recount at
 * every step: a run ends when only background events are left, so a count
 * one off either way ends it early or never (a tick re-armed while queued
 * once left it at -1, and the run went on to --max-time).
 */
static void test_event_queue_background(void **state)
{
	struct sim_event tick, step, timer;
	struct event_queue q;

	(void)state;
	eq_init(&q);
	ev_init(&tick, nop_event, 0);
	ev_init(&step, nop_event, 1);
	ev_init(&timer, nop_event, 2);
	eq_bind_slot(&q, &step, 0, 0);
	eq_bind_slot(&q, &tick, 0, 1);
	eq_schedule(&q, &tick, 100);
	eq_schedule(&q, &step, 200);
	eq_schedule(&q, &timer, 300);
	assert_int_equal(q.nr_background, 0);
	/* queued, slot and heap: the flag set in place counts at once */
	eq_set_background(&q, &tick, true);
	eq_set_background(&q, &timer, true);
	assert_int_equal(q.nr_background, 2);
	assert_int_equal(eq_count_background(&q), 2);
	/* set twice, counted once; moved, still counted */
	eq_set_background(&q, &tick, true);
	eq_schedule(&q, &tick, 150);
	assert_int_equal(q.nr_background, 2);
	eq_set_background(&q, &timer, false);
	assert_int_equal(q.nr_background, 1);
	assert_int_equal(eq_count_background(&q), 1);
	/* popped: no longer counted, and a flag set while out counts on queueing */
	assert_ptr_equal(eq_pop(&q), &tick);
	assert_int_equal(q.nr_background, 0);
	eq_set_background(&q, &tick, false);
	eq_set_background(&q, &tick, true);
	assert_int_equal(q.nr_background, 0);
	eq_schedule(&q, &tick, 400);
	assert_int_equal(q.nr_background, 1);
	assert_int_equal(eq_count_background(&q), 1);
	eq_cancel(&q, &tick);
	assert_int_equal(q.nr_background, 0);
	assert_ptr_equal(eq_pop(&q), &step);
	assert_ptr_equal(eq_pop(&q), &timer);
	assert_int_equal(q.nr, 0);
	assert_int_equal(q.nr_background, 0);
	assert_int_equal(eq_count_background(&q), 0);
	eq_destroy(&q);
}

/* Equal times pop in insertion order; a move re-inserts at the back. */
static void test_event_queue_ties(void **state)
{
	struct sim_event e[4];
	struct event_queue q;

	(void)state;
	eq_init(&q);
	for (int i = 0; i < 4; i++) {
		ev_init(&e[i], nop_event, (u32)i);
		eq_schedule(&q, &e[i], 5);
	}
	/* move e[0] to the same time: now last */
	eq_schedule(&q, &e[0], 5);
	/* move e[3] earlier: first */
	eq_schedule(&q, &e[3], 4);
	assert_int_equal(eq_peek_time(&q), 4);
	assert_ptr_equal(eq_pop(&q), &e[3]);
	assert_ptr_equal(eq_pop(&q), &e[1]);
	/* cancel the middle one; cancelling twice is harmless */
	eq_cancel(&q, &e[2]);
	eq_cancel(&q, &e[2]);
	assert_false(ev_queued(&e[2]));
	assert_ptr_equal(eq_pop(&q), &e[0]);
	assert_null(eq_pop(&q));

	/* eq_destroy() leaves the events it held unqueued */
	eq_schedule(&q, &e[1], 9);
	eq_schedule(&q, &e[2], 8);
	eq_destroy(&q);
	assert_false(ev_queued(&e[1]));
	assert_false(ev_queued(&e[2]));
}

/*
 * Slot events and heap events at the same time pop in the order they were
 * scheduled, across the two structures; a popped slot event moved again at
 * once (a CPU's next step) takes its place by its new sequence number.
 */
static void test_event_queue_slot_ties(void **state)
{
	struct sim_event e[6];
	struct event_queue q;

	(void)state;
	eq_init(&q);
	for (int i = 0; i < 6; i++)
		ev_init(&e[i], nop_event, (u32)i);
	/*
	 * e[0], e[2], e[4] have slots under leaves 5, 0, 2 (e[4] the second
	 * of its leaf's two); e[1], e[3], e[5] are heap events
	 */
	eq_bind_slot(&q, &e[0], 5, 0);
	eq_bind_slot(&q, &e[2], 0, 0);
	eq_bind_slot(&q, &e[4], 2, 1);
	assert_int_equal(q.nr_leaves, 8);
	for (int i = 0; i < 6; i++)
		eq_schedule(&q, &e[i], 7);
	assert_ptr_equal(eq_pop(&q), &e[0]);
	eq_schedule(&q, &e[0], 7);
	assert_ptr_equal(eq_pop(&q), &e[1]);
	assert_ptr_equal(eq_pop(&q), &e[2]);
	/* cancelled before its turn, then queued again: last */
	eq_cancel(&q, &e[4]);
	assert_false(ev_queued(&e[4]));
	assert_int_equal(q.nr, 3);
	eq_schedule(&q, &e[4], 7);
	assert_ptr_equal(eq_pop(&q), &e[3]);
	assert_ptr_equal(eq_pop(&q), &e[5]);
	assert_ptr_equal(eq_pop(&q), &e[0]);
	assert_int_equal(eq_peek_time(&q), 7);
	assert_ptr_equal(eq_pop(&q), &e[4]);
	assert_null(eq_pop(&q));
	assert_int_equal(eq_peek_time(&q), UINT64_MAX);
	/* eq_destroy() leaves slot events unqueued too */
	eq_schedule(&q, &e[2], 9);
	eq_destroy(&q);
	assert_false(ev_queued(&e[2]));
}

/* ------------------------------------------------------------------------- */
/* PRNG                                                                       */
/* ------------------------------------------------------------------------- */

/*
 * The published algorithms, written out again: splitmix64 seeding and
 * xoshiro256** (Blackman & Vigna), seeded from seed ^ stream * 0xd1342543de82ef95.
 */
static u64 ref_splitmix(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u64 ref_rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static u64 ref_xoshiro(u64 s[4])
{
	u64 result = ref_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ref_rotl(s[3], 45);
	return result;
}

static void test_prng_reference(void **state)
{
	static const u64 seeds[] = { 0, 1, 42, 0xdeadbeefULL, UINT64_MAX };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		for (u64 stream = 0; stream < 6; stream++) {
			struct prng r;
			u64 s[4], x = seeds[i] ^ (stream * 0xd1342543de82ef95ULL);

			for (int k = 0; k < 4; k++)
				s[k] = ref_splitmix(&x);
			prng_init(&r, seeds[i], stream);
			for (int n = 0; n < 1000; n++)
				assert_int_equal(prng_next(&r), ref_xoshiro(s));
		}
	}
}

static void test_prng_streams(void **state)
{
	struct prng a, b, a2, b2;
	u64 seq_b[1000];
	int same = 0;

	(void)state;
	/* same (seed, stream): same sequence */
	prng_init(&a, 7, PRNG_STREAM_WORKLOAD);
	prng_init(&a2, 7, PRNG_STREAM_WORKLOAD);
	for (int i = 0; i < 10000; i++)
		assert_int_equal(prng_next(&a), prng_next(&a2));

	/* different streams, and different seeds, differ (all but by chance) */
	prng_init(&a, 7, PRNG_STREAM_WORKLOAD);
	prng_init(&b, 7, PRNG_STREAM_PLACEMENT);
	prng_init(&a2, 8, PRNG_STREAM_WORKLOAD);
	for (int i = 0; i < 1000; i++) {
		u64 x = prng_next(&a), y = prng_next(&b), z = prng_next(&a2);

		same += (x == y) + (x == z);
	}
	assert_int_equal(same, 0);
	/* stream 0 is not the raw seed's stream of another id */
	prng_init(&a, 7, 0);
	prng_init(&b, 7, 1);
	assert_int_not_equal(prng_next(&a), prng_next(&b));

	/* draws on stream A do not change stream B's sequence */
	prng_init(&b, 99, PRNG_STREAM_KERNEL);
	for (int i = 0; i < 1000; i++)
		seq_b[i] = prng_next(&b);
	prng_init(&a, 99, PRNG_STREAM_JITTER);
	prng_init(&b2, 99, PRNG_STREAM_KERNEL);
	for (int i = 0; i < 1000; i++) {
		for (int k = 0; k < i % 5; k++)
			prng_next(&a);
		prng_below(&a, 1000 + (u64)i);
		assert_int_equal(prng_next(&b2), seq_b[i]);
	}
}

static void test_prng_below(void **state)
{
	static const u64 ns[] = { 1, 2, 3, 7, 10, 1000, 1ULL << 32, (1ULL << 63) + 1, UINT64_MAX };
	u64 bucket[10] = { 0 };
	const int draws = 100000;
	double chi2 = 0, expect = draws / 10.0;
	struct prng r;

	(void)state;
	prng_init(&r, 2024, PRNG_STREAM_WORKLOAD);
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++)
		for (int k = 0; k < 20000; k++)
			assert_true(prng_below(&r, ns[i]) < ns[i]);

	for (int k = 0; k < draws; k++)
		bucket[prng_below(&r, 10)]++;
	for (int b = 0; b < 10; b++)
		chi2 += ((double)bucket[b] - expect) * ((double)bucket[b] - expect) / expect;
	/* 9 degrees of freedom: P(chi2 > 27.88) = 0.001 */
	if (chi2 > 27.88)
		fail_msg("prng_below(10): chi-square %f over 10 buckets", chi2);

	/*
	 * A range that is not a power of two, near 2^64: n = 2^63 + 2^62. With a
	 * plain modulo the values below 2^62 would have two preimages each and
	 * come up half the time instead of a third.
	 */
	{
		u64 low = 0;

		for (int k = 0; k < 20000; k++)
			low += prng_below(&r, (1ULL << 63) + (1ULL << 62)) < (1ULL << 62);
		/* expected a third: 6667 +- ~67 (sd) */
		assert_true(low > 6300 && low < 7030);
	}
	/* n = 1 always 0 */
	for (int k = 0; k < 100; k++)
		assert_int_equal(prng_below(&r, 1), 0);
}

/* ------------------------------------------------------------------------- */
/* CPU locks and sim_run                                                      */
/* ------------------------------------------------------------------------- */

static struct topology *load_topo(const char *name)
{
	char err[256];
	struct topology *t = topology_load(name, err, sizeof(err));

	if (!t)
		fail_msg("topology_load(%s): %s", name, err);
	return t;
}

/* A cost model whose numbers say where a charge came from. */
static void lock_costs(struct cost_model *c)
{
	cost_model_default(c);
	c->rq_lock = 20;
	c->mem_latency = 0; /* a never-held lock comes from memory: not this test's subject */
	for (int d = 0; d < NR_DIST; d++)
		c->cacheline[d] = 1000 + 100 * (u64)d;
}

static void test_sim_lock(void **state)
{
	struct topology *t = load_topo("smp2");
	struct cost_model cost;
	struct sim_lock l;
	u64 line;

	(void)state;
	lock_costs(&cost);
	machine_init(t, &cost, 1);
	assert_int_equal(machine.nr_cpus, 2);
	assert_ptr_equal(machine.cost, &cost);
	line = cost.cacheline[cpu_dist(0, 1)];
	assert_int_not_equal(cpu_dist(0, 1), DIST_SELF);
	assert_int_equal(cpu_dist(0, 1), topology_cpu_dist(t, 0, 1));

	sim_lock_init(&l);
	assert_int_equal(l.line.owner, -1);

	/* CPU0 takes the free lock at 100: lock cost only, no spin, no line transfer */
	sim_set_this_cpu(0);
	sim_cpu(0)->t = 100;
	sim_lock_acquire(&l);
	assert_int_equal(sim_cpu(0)->t, 120);
	assert_int_equal(l.line.owner, 0);
	assert_int_equal(l.free_at, UINT64_MAX);
	assert_int_equal(l.contended, 0);
	/* holds it until 5000 */
	sim_cpu(0)->t = 5000;
	sim_lock_release(&l);
	assert_int_equal(l.free_at, 5000);

	/* CPU1 wants it at 1000: spins until 5000, then lock + line from CPU0 */
	sim_set_this_cpu(1);
	sim_cpu(1)->t = 1000;
	sim_lock_acquire(&l);
	assert_int_equal(l.contended, 1);
	assert_int_equal(l.spin_ns, 4000);
	assert_int_equal(sim_cpu(1)->t, 5000 + 20 + line);
	assert_int_equal(l.line.owner, 1);
	sim_lock_release(&l);
	assert_int_equal(l.free_at, 5000 + 20 + line);

	/* CPU1 again, later: no spin, and the line is already here */
	sim_cpu(1)->t = 20000;
	sim_lock_acquire(&l);
	assert_int_equal(sim_cpu(1)->t, 20020);
	assert_int_equal(l.contended, 1);
	sim_lock_release(&l);

	/* CPU0 exactly at free_at: no spin, but the line comes from CPU1 */
	sim_set_this_cpu(0);
	sim_cpu(0)->t = 20020;
	sim_lock_acquire(&l);
	assert_int_equal(l.contended, 1);
	assert_int_equal(l.spin_ns, 4000);
	assert_int_equal(sim_cpu(0)->t, 20020 + 20 + line);
	sim_lock_release(&l);

	/* the other CPU's cursor never moved for it */
	assert_int_equal(sim_cpu(1)->t, 20020);
	machine_destroy();
	topology_free(t);

	/*
	 * The line transfer is priced by the distance between the last holder
	 * and the taker: on a 2-socket SMT machine, an SMT sibling and a CPU on
	 * the other socket pay different amounts.
	 */
	t = load_topo("smt2-2s-16");
	machine_init(t, &cost, 1);
	for (int want = DIST_SMT; want <= DIST_NUMA; want++) {
		int other = -1;

		for (unsigned int cpu = 1; cpu < machine.nr_cpus && other < 0; cpu++)
			if (cpu_dist(0, cpu) == (enum cpu_dist)want)
				other = (int)cpu;
		if (other < 0) {
			assert_true(want != DIST_SMT && want != DIST_NUMA);
			continue;
		}
		sim_lock_init(&l);
		sim_set_this_cpu(0);
		sim_cpu(0)->t = 0;
		sim_lock_acquire(&l);
		sim_lock_release(&l);
		sim_set_this_cpu((unsigned int)other);
		sim_cpu(other)->t = 1000;
		sim_lock_acquire(&l);
		assert_int_equal(sim_cpu(other)->t, 1000 + 20 + cost.cacheline[want]);
		sim_lock_release(&l);
	}
	machine_destroy();
	topology_free(t);
}

struct rec_event {
	struct sim_event ev;
	u64 resched_to; /* if non-zero, re-queue itself once at this time */
};

static int order[64], nr_order, nr_after;

static void rec_fn(struct sim_event *ev)
{
	struct rec_event *r = container_of(ev, struct rec_event, ev);

	assert_int_equal(machine.now, ev->time);
	order[nr_order++] = (int)ev->arg;
	if (r->resched_to) {
		sim_schedule(ev, r->resched_to);
		r->resched_to = 0;
	}
	if (ev->arg == 99)
		machine.stop = true;
}

static void rec_after(struct sim_event *ev)
{
	(void)ev;
	nr_after++;
}

static void test_sim_run(void **state)
{
	struct topology *t = load_topo("smp1");
	struct rec_event e[5];
	u64 n;

	(void)state;
	machine_init(t, NULL, 1);
	assert_ptr_equal(machine.cost, &t->cost);
	assert_int_equal(machine.stop_at, UINT64_MAX);
	nr_order = nr_after = 0;
	for (int i = 0; i < 5; i++) {
		ev_init(&e[i].ev, rec_fn, (u32)i);
		e[i].resched_to = 0;
	}
	sim_schedule(&e[0].ev, 30);
	sim_schedule(&e[1].ev, 10);
	sim_schedule(&e[2].ev, 20);
	sim_schedule(&e[3].ev, 10); /* tie with e[1]: after it */
	e[1].resched_to = 25; /* e[1] comes back between e[2] and e[0] */
	sim_schedule(&e[4].ev, 100);
	machine.stop_at = 30; /* events at 30 still run, 100 does not */
	n = sim_run(rec_after);
	assert_int_equal(n, 5);
	assert_int_equal(nr_after, 5);
	assert_int_equal(machine.nr_events, 5);
	assert_int_equal(nr_order, 5);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 3);
	assert_int_equal(order[2], 2);
	assert_int_equal(order[3], 1);
	assert_int_equal(order[4], 0);
	assert_int_equal(machine.now, 30);
	assert_true(ev_queued(&e[4].ev));

	/* machine.stop ends the run after the event that set it */
	ev_init(&e[0].ev, rec_fn, 99);
	sim_schedule(&e[0].ev, 50);
	machine.stop_at = UINT64_MAX;
	n = sim_run(NULL);
	assert_int_equal(n, 1);
	assert_int_equal(machine.now, 50);
	assert_true(ev_queued(&e[4].ev));
	machine.stop = false;
	assert_int_equal(sim_run(NULL), 1);
	assert_int_equal(machine.now, 100);
	assert_int_equal(machine.nr_events, 7);
	assert_int_equal(sim_run(NULL), 0);

	/*
	 * Background events (housekeeping timers) run while others are
	 * queued, and a queue of background events alone is a finished run.
	 */
	for (int i = 0; i < 3; i++)
		ev_init(&e[i].ev, rec_fn, (u32)(10 + i));
	e[0].ev.background = e[2].ev.background = true;
	sim_schedule(&e[0].ev, 150);
	sim_schedule(&e[1].ev, 200);
	sim_schedule(&e[2].ev, 300);
	assert_int_equal(machine.eq.nr_background, 2);
	nr_order = 0;
	assert_int_equal(sim_run(NULL), 2);
	assert_int_equal(order[0], 10);
	assert_int_equal(order[1], 11);
	assert_int_equal(machine.now, 200);
	assert_true(ev_queued(&e[2].ev));
	assert_int_equal(machine.eq.nr_background, 1);
	sim_cancel(&e[2].ev);
	assert_int_equal(machine.eq.nr_background, 0);
	assert_int_equal(machine.eq.nr, 0);

	/*
	 * machine.max_events counts the events of every run: a run stops
	 * when the total reaches it (sim_run() turns it into this run's
	 * budget), and one that starts at or past it runs none.
	 */
	for (int i = 0; i < 4; i++) {
		ev_init(&e[i].ev, rec_fn, (u32)(20 + i));
		e[i].resched_to = 0;
		sim_schedule(&e[i].ev, 400 + (u64)i);
	}
	assert_int_equal(machine.nr_events, 9);
	machine.max_events = 11;
	machine.limit_hit = SIM_LIMIT_NONE;
	assert_int_equal(sim_run(NULL), 2);
	assert_int_equal(machine.limit_hit, SIM_LIMIT_EVENTS);
	assert_int_equal(machine.nr_events, 11);
	assert_true(ev_queued(&e[2].ev));
	assert_int_equal(sim_run(NULL), 0);
	machine.max_events = 5;
	assert_int_equal(sim_run(NULL), 0);
	assert_int_equal(machine.nr_events, 11);
	/* both limits at once: the time limit is reported when the next event is past it */
	machine.max_events = 12;
	machine.stop_at = 402;
	machine.limit_hit = SIM_LIMIT_NONE;
	assert_int_equal(sim_run(NULL), 1);
	assert_int_equal(machine.limit_hit, SIM_LIMIT_TIME);
	/* no limit: the rest runs */
	machine.max_events = 0;
	machine.stop_at = UINT64_MAX;
	machine.limit_hit = SIM_LIMIT_NONE;
	assert_int_equal(sim_run(NULL), 1);
	assert_int_equal(machine.limit_hit, SIM_LIMIT_NONE);
	assert_int_equal(machine.nr_events, 13);
	machine_destroy();
	topology_free(t);
}

/* ------------------------------------------------------------------------- */
/* cost model                                                                 */
/* ------------------------------------------------------------------------- */

static void expect_set_fails(struct cost_model *c, const char *assignment, const char *msg_part)
{
	struct cost_model before = *c;
	char err[256] = "";

	if (cost_model_set(c, assignment, err, sizeof(err)) != -1)
		fail_msg("cost_model_set(\"%s\") accepted", assignment);
	if (!strstr(err, msg_part))
		fail_msg("cost_model_set(\"%s\"): message \"%s\" lacks \"%s\"", assignment, err,
			 msg_part);
	/* nothing changed */
	assert_memory_equal(&before, c, sizeof(before));
}

static void test_cost_model_set(void **state)
{
	struct cost_model c, d;
	char err[256];

	(void)state;
	cost_model_default(&c);
	d = c;

	assert_int_equal(cost_model_set(&c, "syscall=123", err, sizeof(err)), 0);
	assert_int_equal(c.syscall, 123);
	d.syscall = 123;
	assert_memory_equal(&c, &d, sizeof(c));

	assert_int_equal(cost_model_set(&c, "ipi_latency.llc=901", err, sizeof(err)), 0);
	assert_int_equal(c.ipi_latency[DIST_LLC], 901);
	d.ipi_latency[DIST_LLC] = 901;
	assert_memory_equal(&c, &d, sizeof(c));

	assert_int_equal(cost_model_set(&c, "cacheline.numa=0", err, sizeof(err)), 0);
	assert_int_equal(c.cacheline[DIST_NUMA], 0);
	assert_int_equal(cost_model_set(&c, "ipi_latency.self=7", err, sizeof(err)), 0);
	assert_int_equal(c.ipi_latency[DIST_SELF], 7);
	assert_int_equal(cost_model_set(&c, "ipi_latency.numa=1000000", err, sizeof(err)), 0);
	assert_int_equal(c.ipi_latency[DIST_NUMA], 1000000ULL);
	/* the last field of the table, and the largest values allowed */
	assert_int_equal(cost_model_set(&c, "line_mlp=64", err, sizeof(err)), 0);
	assert_int_equal(c.line_mlp, 64);
	assert_int_equal(cost_model_set(&c, "cache_llc_kb=1048576", err, sizeof(err)), 0);
	assert_int_equal(c.cache_llc_kb, 1048576);
	assert_int_equal(cost_model_set(&c, "mem_remote_latency=10000", err, sizeof(err)), 0);
	assert_int_equal(c.mem_remote_latency, 10000);
	assert_int_equal(cost_model_set(&c, "unix_skb_overhead=0", err, sizeof(err)), 0);
	assert_int_equal(c.unix_skb_overhead, 0);
	d = c;

	expect_set_fails(&c, "nosuch=1", "unknown cost parameter 'nosuch'");
	expect_set_fails(&c, "sys=1", "unknown cost parameter 'sys'");
	expect_set_fails(&c, "syscallx=1", "unknown cost parameter 'syscallx'");
	expect_set_fails(&c, "syscall", "expected NAME=VALUE");
	expect_set_fails(&c, "ipi_latency=5", "needs a distance");
	expect_set_fails(&c, "ipi_latency.far=5", "unknown distance");
	expect_set_fails(&c, "ipi_latency.=5", "unknown distance");
	expect_set_fails(&c, "ipi_latency.llcx=5", "unknown distance");
	expect_set_fails(&c, "syscall.llc=5", "takes no distance");
	expect_set_fails(&c, "syscall=", "bad value");
	expect_set_fails(&c, "syscall=-1", "bad value");
	expect_set_fails(&c, "syscall=12x", "bad value");
	expect_set_fails(&c, "syscall=1.5", "bad value");
	expect_set_fails(&c, "syscall=1000000000001", "bad value");
	expect_set_fails(&c, "syscall=99999999999999999999999", "bad value");
	expect_set_fails(&c, "cacheline.llc=abc", "bad value");
	/* the documented ranges: kernel paths below a tick, delays, sizes */
	expect_set_fails(&c, "schedule=3000000",
			 "cost parameter 'schedule': bad value '3000000' (nanoseconds, 0..100000)");
	expect_set_fails(&c, "fork=10000001", "(nanoseconds, 0..10000000)");
	expect_set_fails(&c, "ipi_latency.numa=1000001", "(nanoseconds, 0..1000000)");
	expect_set_fails(&c, "unix_skb_overhead=65537", "(bytes, 0..65536)");
	expect_set_fails(&c, "copy_ns_per_kb=100001", "(nanoseconds per KiB, 0..100000)");
	expect_set_fails(&c, "cache_l2_kb=1048577", "(KiB, 0..1048576)");
	expect_set_fails(&c, "mem_remote_latency=10001", "(nanoseconds, 0..10000)");
	expect_set_fails(&c, "line_mlp=65", "0..64)");
	/* the fixed refill constants gave way to the footprint model */
	expect_set_fails(&c, "migration_refill.llc=1000",
			 "unknown cost parameter 'migration_refill.llc'");
	assert_memory_equal(&c, &d, sizeof(c));

	/* every parameter takes its maximum and refuses one more */
	for (size_t i = 0;; i++) {
		bool per_dist;
		u64 max;
		const char *name = cost_model_param(i, &per_dist, &max);
		char a[128], range[64];

		if (!name)
			break;
		struct cost_model t = c;
		snprintf(a, sizeof(a), "%s%s=%llu", name, per_dist ? ".numa" : "",
			 (unsigned long long)max);
		assert_int_equal(cost_model_set(&t, a, err, sizeof(err)), 0);
		snprintf(a, sizeof(a), "%s%s=%llu", name, per_dist ? ".numa" : "",
			 (unsigned long long)max + 1);
		snprintf(range, sizeof(range), "..%llu)", (unsigned long long)max);
		expect_set_fails(&t, a, range);
	}

	/* every field printed is settable to what was printed */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct cost_model e;
		int lines = 0;

		cost_model_print(&c, f);
		fclose(f);
		memset(&e, 0xff, sizeof(e));
		for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			assert_int_equal(cost_model_set(&e, line, err, sizeof(err)), 0);
			lines++;
		}
		free(buf);
		/*
		 * every scalar field, every distance of the two per-distance
		 * arrays and every busy-thread count of smt_speed
		 */
		assert_int_equal(lines, 85 + 2 * NR_DIST + SMT_MAX_THREADS);
		assert_memory_equal(&e, &c, sizeof(c));
	}
}

/* cost_copy(): bytes * ns_per_kb / 1024, rounded up */
static void test_cost_copy(void **state)
{
	struct cost_model c;

	(void)state;
	cost_model_default(&c);
	c.copy_ns_per_kb = 50;
	assert_int_equal(cost_copy(&c, 0), 0);
	assert_int_equal(cost_copy(&c, 1), 1); /* 50/1024 -> 1 */
	assert_int_equal(cost_copy(&c, 20), 1); /* 1000/1024 -> 1 */
	assert_int_equal(cost_copy(&c, 21), 2); /* 1050/1024 -> 2 */
	assert_int_equal(cost_copy(&c, 1024), 50); /* exact */
	assert_int_equal(cost_copy(&c, 1025), 51); /* 51250/1024 = 50.05 -> 51 */
	assert_int_equal(cost_copy(&c, 4096), 200);
	assert_int_equal(cost_copy(&c, 100), 5); /* 5000/1024 = 4.88 -> 5 */
	c.copy_ns_per_kb = 1024;
	assert_int_equal(cost_copy(&c, 12345), 12345);
	c.copy_ns_per_kb = 0;
	assert_int_equal(cost_copy(&c, 1 << 20), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_queue_random),
		cmocka_unit_test(test_event_queue_background),
		cmocka_unit_test(test_event_queue_ties),
		cmocka_unit_test(test_event_queue_pop_until),
		cmocka_unit_test(test_event_queue_leaf_pair),
		cmocka_unit_test(test_event_queue_slot_ties),
		cmocka_unit_test(test_prng_reference),
		cmocka_unit_test(test_prng_streams),
		cmocka_unit_test(test_prng_below),
		cmocka_unit_test(test_sim_lock),
		cmocka_unit_test(test_sim_run),
		cmocka_unit_test(test_cost_model_set),
		cmocka_unit_test(test_cost_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
