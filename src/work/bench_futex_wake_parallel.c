// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf bench futex wake-parallel (Linux v6.18
 * tools/perf/bench/futex-wake-parallel.c): -t threads (default: one per
 * online CPU, each pinned to CPU i % CPUs) block on one futex; the main
 * thread sleeps 200 ms, then creates -w waking threads (default: as many
 * as blocked ones; not pinned: "let the scheduler decide"), which meet it
 * at a barrier and each wake threads / -w of the blocked ones with one
 * FUTEX_WAKE, timing it with gettimeofday(). The main thread joins them
 * all and repeats (perf bench -r, default 10 runs).
 *
 * The blocked threads are futex wake's (futex_bench_spawn_blocker()). The
 * barrier (pthread_barrier_wait() of -w + 1 threads) is glibc's: each
 * arriving thread counts itself, the last one releases the others with a
 * FUTEX_WAKE of all, the others FUTEX_WAIT until it has.
 */
#include "work/bench_futex.h"

#include "sim/alloc.h"

#include <stdlib.h>

/* perf bench names itself "<collection>-<bench>" (prctl(PR_SET_NAME)) */
#define FUTEX_WAKE_PARALLEL_COMM "futex-wake-parallel"
/* usleep(200000) before the waking threads are created */
#define FUTEX_WAKE_PARALLEL_SETTLE_NS (200 * NSEC_PER_MSEC)

struct fwp_state {
	struct futex_bench fb; /* the blocked threads' start and pinning, -b */
	struct bench *b;
	struct futex futex; /* the one all threads block on (value 0) */
	struct futex barrier; /* 0 until the barrier's last thread arrives */
	unsigned int arrived; /* at the barrier in this run */
	unsigned int run; /* 0-based */
	unsigned int wakers; /* waking threads created in this run */
	bool last; /* the main thread arrived last at the barrier */
	int phase;
};

/* ---- the barrier: -w waking threads and the main thread ---- */

/* pthread_barrier_wait()'s count: true for the last of the -w + 1 threads */
static bool barrier_arrive(struct fwp_state *s)
{
	return ++s->arrived == s->b->fw_nwakes + 1;
}

/* the last releases the others, which wait for it (true with @op set) */
static void barrier_op(struct fwp_state *s, bool last, struct op_desc *op)
{
	if (last) {
		s->barrier.val = 1;
		op_futex(op, OP_FUTEX_WAKE, &s->barrier, INT32_MAX);
		return;
	}
	op_futex(op, OP_FUTEX_WAIT, &s->barrier, 0);
}

/* ---- the waking threads ---- */

enum { K_ARRIVE, K_BARRIER, K_START, K_WAKE, K_DONE, K_EXIT };

struct fwp_waker {
	struct fwp_state *s;
	unsigned int slot; /* run * -w + its index: its fw_woken / fw_usec */
	bool last;
	u64 start_ns;
	int step;
};

static void waker_arrive(struct work_task *w, void *arg)
{
	struct fwp_waker *kw = arg;

	(void)w;
	kw->last = barrier_arrive(kw->s);
}

static void waker_start(struct work_task *w, void *arg)
{
	struct fwp_waker *kw = arg;

	(void)w;
	kw->start_ns = cpu_now();
}

static void waker_next(struct work_task *w, struct op_desc *op)
{
	struct fwp_waker *kw = w->state;
	struct fwp_state *s = kw->s;
	struct bench *b = s->b;

	switch (kw->step) {
	case K_ARRIVE:
		kw->step = K_BARRIER;
		op_call(op, waker_arrive, kw);
		return;
	case K_BARRIER:
		kw->step = K_START;
		barrier_op(s, kw->last, op);
		return;
	case K_START:
		/* gettimeofday(&start) */
		kw->step = K_WAKE;
		op_call(op, waker_start, kw);
		return;
	case K_WAKE:
		kw->step = K_DONE;
		op_futex(op, OP_FUTEX_WAKE, &s->futex, b->fw_threads / b->fw_nwakes);
		return;
	case K_DONE:
		/* futex_wake()'s count, then gettimeofday(&end): the usec field */
		b->fw_woken[kw->slot] = (unsigned int)w->result;
		b->fw_usec[kw->slot] = (cpu_now() / 1000 - kw->start_ns / 1000) % 1000000;
		/* fall through */
	default:
		kw->step = K_EXIT;
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program waker_prog = { .next = waker_next };

/* ---- the main thread ---- */

enum { P_SETUP, P_SETTLE, P_WAKERS, P_BARRIER, P_JOIN, P_NEXT, P_DONE };

static void keep_state(struct bench *b, void *state)
{
	b->fw_worker_state[b->fw_nr_worker_state++] = state;
}

static void spawn_blocked(void *arg, struct op_desc *op)
{
	struct fwp_state *s = arg;

	futex_bench_spawn_blocker(&s->fb, op, &s->futex, FUTEX_WAKE_PARALLEL_COMM);
}

/* pthread_create() of a waking thread: the main thread's affinity, not pinned */
static void spawn_waker(struct fwp_state *s, struct op_desc *op)
{
	struct fwp_waker *kw = xcalloc(1, sizeof(*kw));

	kw->s = s;
	kw->slot = s->run * s->b->fw_nwakes + s->wakers++;
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = &waker_prog;
	op->spawn.state = kw;
	op->spawn.thread = true;
	op->spawn.comm = FUTEX_WAKE_PARALLEL_COMM;
	op->spawn.footprint = FOOTPRINT_TASK;
	op->spawn.reap = true;
	keep_state(s->b, kw);
}

static void main_arrive(struct work_task *w, void *arg)
{
	struct fwp_state *s = arg;

	(void)w;
	s->last = barrier_arrive(s);
}

static void parent_next(struct work_task *w, struct op_desc *op)
{
	struct fwp_state *s = w->state;
	struct bench *b = s->b;

	switch (s->phase) {
	case P_SETUP:
		if (futex_bench_setup(&s->fb, op, spawn_blocked, s))
			return;
		s->phase = P_SETTLE;
		op_sleep(op, FUTEX_WAKE_PARALLEL_SETTLE_NS);
		return;
	case P_SETTLE:
	case P_WAKERS:
		s->phase = P_WAKERS;
		if (s->wakers < b->fw_nwakes) {
			spawn_waker(s, op);
			return;
		}
		s->phase = P_BARRIER;
		op_call(op, main_arrive, s);
		return;
	case P_BARRIER:
		s->phase = P_JOIN;
		barrier_op(s, s->last, op);
		return;
	case P_JOIN:
		/* pthread_join() of the waking threads, then of the blocked ones */
		s->phase = P_NEXT;
		op_wait_children(op, WAIT_ANY);
		return;
	case P_NEXT:
		b->progress_done++;
		if (++s->run < b->fw_repeat) {
			futex_bench_next_run(&s->fb);
			s->wakers = 0;
			s->arrived = 0;
			s->barrier.val = 0;
			s->phase = P_SETUP;
			futex_bench_setup(&s->fb, op, spawn_blocked, s);
			return;
		}
		s->phase = P_DONE;
		futex_bench_stop(&s->fb, w);
		/* fall through */
	default:
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program parent_prog = { .next = parent_next };

/* the waking threads: -w, 0 or more than the threads meaning one per thread */
unsigned int futex_wake_parallel_wakers(unsigned int threads, unsigned int nwakes)
{
	return !nwakes || nwakes > threads ? threads : nwakes;
}

void futex_wake_parallel_start(struct bench *b)
{
	struct fwp_state *s = xcalloc(1, sizeof(*s));
	size_t slots;

	b->priv = s;
	s->b = b;
	futex_init(&s->futex, 0);
	futex_init(&s->barrier, 0);
	/* -S: no FUTEX_PRIVATE_FLAG on the measured futex (the barrier is glibc's, private) */
	if (b->fw_shared)
		s->futex.scope = FUTEX_SCOPE_SHARED;
	futex_bench_init(&s->fb, b);
	/* divisibility was checked with the machine (bench_check_machine()) */
	b->fw_nwakes = futex_wake_parallel_wakers(b->fw_threads, b->fw_nwakes);
	slots = (size_t)b->fw_repeat * b->fw_nwakes;
	b->fw_woken = xcalloc(slots, sizeof(*b->fw_woken));
	b->fw_usec = xcalloc(slots, sizeof(*b->fw_usec));
	b->fw_worker_state = xcalloc((size_t)b->fw_repeat * (b->fw_threads + b->fw_nwakes),
				     sizeof(*b->fw_worker_state));
	b->progress_total = b->fw_repeat;
	futex_bench_launch(&s->fb, FUTEX_WAKE_PARALLEL_COMM, &parent_prog, s);
}
