// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf bench futex wake (Linux v6.18 tools/perf/bench/futex-wake.c): block
 * -t threads (default: one per online CPU, each pinned to CPU i % CPUs) on
 * one futex, sleep 100 ms, then wake them -w at a time with FUTEX_WAKE
 * until every one is awake, timing that with gettimeofday(); join them and
 * repeat (perf bench -r, default 10 runs).
 *
 * The tool's start barrier (a pthread mutex and two condition variables, so
 * that the threads block only once all exist) is a counter here: each
 * thread counts itself and the last wakes the main thread through a
 * futex, then each blocks on the benchmark's futex at once. The 100 ms
 * sleep makes sure all are blocked before the timed wakes either way.
 *
 * perf bench futex requeue (v6.18 tools/perf/bench/futex-requeue.c) is the
 * same run with another timed part: FUTEX_CMP_REQUEUE of futex1's waiters
 * to futex2, -q at a time (default 1, -B all) and none woken, until all
 * are requeued; then, untimed, one FUTEX_WAKE of futex2 for all of them.
 * With -p futex2 is a PI futex: the threads wait with
 * FUTEX_WAIT_REQUEUE_PI, FUTEX_CMP_REQUEUE_PI (nr_wake 1) moves them, and
 * each returns holding futex2 and unlocks it (no final wake).
 */
#include "work/bench_futex.h"

#include "sim/alloc.h"

#include <errno.h>
#include <stdlib.h>

/* perf bench names itself "<collection>-<bench>" (prctl(PR_SET_NAME)) */
#define FUTEX_WAKE_COMM "futex-wake"
#define FUTEX_REQUEUE_COMM "futex-requeue"
/* usleep(100000) before the wakes */
#define FUTEX_WAKE_SETTLE_NS (100 * NSEC_PER_MSEC)

struct fw_state {
	struct futex_bench fb; /* the threads' start and pinning, -b */
	struct bench *b;
	struct futex futex1; /* the one all threads block on (value 0) */
	struct futex futex2; /* requeue: where they are moved to (value 0) */
	bool requeue;
	unsigned int run; /* 0-based */
	unsigned int nwoken;
	unsigned int wakeups; /* requeue -p: FUTEX_CMP_REQUEUE_PI calls, each assumed to wake one */
	u64 start_ns;
	int phase;
};

enum { P_SETUP, P_SETTLE, P_START, P_WAKE, P_WAKE2, P_JOIN, P_DONE };

static void mark_start(struct work_task *w, void *arg)
{
	struct fw_state *s = arg;

	(void)w;
	s->start_ns = cpu_now();
	s->nwoken = 0;
	s->wakeups = 0;
}

/*
 * requeue -p's thread: futex_wait_requeue_pi() of futex1 to futex2 until
 * it returns holding futex2 (again after EAGAIN), then futex_unlock_pi()
 */
struct pi_blocker {
	struct fw_state *s;
	int step;
};

enum { PB_WAIT = FUTEX_BENCH_STARTED, PB_WOKEN, PB_EXIT };

static void pi_blocker_next(struct work_task *w, struct op_desc *op)
{
	struct pi_blocker *pb = w->state;
	struct fw_state *s = pb->s;

	if (futex_bench_worker_start(&s->fb, &pb->step, op))
		return;
	if (pb->step == PB_WOKEN && (s64)w->result == -EAGAIN)
		pb->step = PB_WAIT;
	switch (pb->step) {
	case PB_WAIT:
		pb->step = PB_WOKEN;
		op_futex_requeue(op, OP_FUTEX_WAIT_REQUEUE_PI, &s->futex1, 0, &s->futex2, 0, 0);
		return;
	case PB_WOKEN:
		pb->step = PB_EXIT;
		/* got the lock at futex2 */
		if (!w->result) {
			op_futex(op, OP_FUTEX_UNLOCK_PI, &s->futex2, 0);
			return;
		}
		/* fall through */
	default:
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program pi_blocker_prog = { .next = pi_blocker_next };

static void spawn_worker(void *arg, struct op_desc *op)
{
	struct fw_state *s = arg;
	struct bench *b = s->b;
	struct pi_blocker *pb;

	if (!s->requeue || !b->fr_pi) {
		futex_bench_spawn_blocker(&s->fb, op, &s->futex1,
					  s->requeue ? FUTEX_REQUEUE_COMM : FUTEX_WAKE_COMM);
		return;
	}
	pb = xcalloc(1, sizeof(*pb));
	pb->s = s;
	futex_bench_spawn(&s->fb, op, &pi_blocker_prog, pb, FUTEX_REQUEUE_COMM);
	op->spawn.reap = true;
	b->fw_worker_state[b->fw_nr_worker_state++] = pb;
}

static void parent_next(struct work_task *w, struct op_desc *op)
{
	struct fw_state *s = w->state;
	struct bench *b = s->b;

	switch (s->phase) {
	case P_SETUP:
		if (futex_bench_setup(&s->fb, op, spawn_worker, s))
			return;
		s->phase = P_SETTLE;
		op_sleep(op, FUTEX_WAKE_SETTLE_NS);
		return;
	case P_SETTLE:
		s->phase = P_START;
		op_call(op, mark_start, s);
		return;
	case P_START:
	case P_WAKE:
		/* futex_cmp_requeue()'s count; its value always matches (no EAGAIN) */
		if (s->phase == P_WAKE && (s64)w->result > 0)
			s->nwoken += (unsigned int)w->result;
		s->phase = P_WAKE;
		if (s->nwoken < b->fw_threads) {
			if (s->requeue && b->fr_pi) {
				/* futex_cmp_requeue_pi(): nr_wake 1; wakeups++, "assume no error" */
				op_futex_requeue(op, OP_FUTEX_CMP_REQUEUE_PI, &s->futex1, 0,
						 &s->futex2, 1, b->fr_nrequeue);
				s->wakeups++;
			} else if (s->requeue)
				op_futex_requeue(op, OP_FUTEX_CMP_REQUEUE, &s->futex1, 0,
						 &s->futex2, 0, b->fr_nrequeue);
			else
				op_futex(op, OP_FUTEX_WAKE, &s->futex1, b->fw_nwakes);
			return;
		}
		/* gettimeofday() after the wakes: the usec field of the difference */
		b->fw_woken[s->run] = s->nwoken;
		if (b->fr_wakeups)
			b->fr_wakeups[s->run] = s->wakeups;
		b->fw_usec[s->run] = (cpu_now() / 1000 - s->start_ns / 1000) % 1000000;
		b->progress_done++;
		s->phase = P_JOIN;
		/* -p: each woken thread unlocks futex2, handing it to the next */
		if (s->requeue && !b->fr_pi) {
			/* everybody is blocked on futex2: one untimed wake for all */
			s->phase = P_WAKE2;
			op_futex(op, OP_FUTEX_WAKE, &s->futex2, s->nwoken);
			return;
		}
		op_wait_children(op, WAIT_ANY);
		return;
	case P_WAKE2:
		s->phase = P_JOIN;
		op_wait_children(op, WAIT_ANY);
		return;
	case P_JOIN:
		if (++s->run < b->fw_repeat) {
			futex_bench_next_run(&s->fb);
			s->phase = P_SETUP;
			futex_bench_setup(&s->fb, op, spawn_worker, s);
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

static void futex_wake_setup(struct bench *b, bool requeue)
{
	struct fw_state *s = xcalloc(1, sizeof(*s));

	b->priv = s;
	s->b = b;
	s->requeue = requeue;
	futex_init(&s->futex1, 0);
	if (requeue)
		futex_init(&s->futex2, 0);
	/* -S: no FUTEX_PRIVATE_FLAG, the global hash's shared keys */
	if (b->fw_shared)
		s->futex1.scope = s->futex2.scope = FUTEX_SCOPE_SHARED;
	futex_bench_init(&s->fb, b);
	b->fw_woken = xcalloc(b->fw_repeat, sizeof(*b->fw_woken));
	b->fw_usec = xcalloc(b->fw_repeat, sizeof(*b->fw_usec));
	b->fw_worker_state =
		xcalloc((size_t)b->fw_repeat * b->fw_threads, sizeof(*b->fw_worker_state));
	b->progress_total = b->fw_repeat;
	futex_bench_launch(&s->fb, requeue ? FUTEX_REQUEUE_COMM : FUTEX_WAKE_COMM, &parent_prog, s);
}

void futex_wake_start(struct bench *b)
{
	futex_wake_setup(b, false);
}

void futex_requeue_start(struct bench *b)
{
	struct fw_state *s;

	futex_wake_setup(b, true);
	s = b->priv;
	if (b->fr_pi)
		b->fr_wakeups = xcalloc(b->fw_repeat, sizeof(*b->fr_wakeups));
	/* bench_futex_requeue(): -q at most the threads, -B all of them */
	if (b->fr_nrequeue > b->fw_threads || b->fr_broadcast)
		b->fr_nrequeue = b->fw_threads;
	b->fr_uaddr1 = s->futex1.uaddr;
	b->fr_uaddr2 = s->futex2.uaddr;
}

/* wake, requeue and wake-parallel: their states begin with the struct futex_bench */
void futex_wake_free(struct bench *b)
{
	if (b->priv)
		futex_bench_free(b->priv);
	for (unsigned int i = 0; i < b->fw_nr_worker_state; i++)
		free(b->fw_worker_state[i]);
	free(b->fw_worker_state);
	free(b->fw_woken);
	free(b->fw_usec);
	free(b->fr_wakeups);
}
