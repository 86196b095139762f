// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf bench futex lock-pi (Linux v6.18 tools/perf/bench/futex-lock-pi.c):
 * -t threads (default: one per online CPU, thread i pinned to CPU i %
 * CPUs) take and release a PI futex in a loop until the main thread's
 * sleep of -r seconds (default 10) ends: FUTEX_LOCK_PI, usleep(1),
 * FUTEX_UNLOCK_PI, each a system call (the tool calls futex() itself, with
 * no user-space fast path), checking the done flag after each pair. All
 * threads share one futex, or with -M each has its own (no contention).
 * Each thread's pairs per second of the run (gettimeofday() from before
 * the threads were created to the end of the sleep, whole seconds) are
 * printed, then their average (docs/benchmarks.md).
 *
 * The threads are SCHED_OTHER, as the tool leaves them: a contended lock
 * boosts nobody (non-RT waiters all wait at DEFAULT_PRIO), but it goes
 * through the pi_state, the rt_mutex's waiters, the top waiter's spin on a
 * running owner or its sleep, and the handoff at each unlock.
 */
#include "work/bench_futex.h"

#include "sim/alloc.h"

#include <stdlib.h>

/* perf bench names itself "<collection>-<bench>" (prctl(PR_SET_NAME)) */
#define FUTEX_LOCK_PI_COMM "futex-lock-pi"
/*
 * usleep(1): a nanosleep() of 1 us, plus the task's timer slack as every
 * nanosleep has it (OP_SLEEP): 50 us for a SCHED_OTHER thread, none for
 * an RT one
 */
#define LOCK_PI_USLEEP_NS 1000
/*
 * -M: each thread's futex is its own calloc(1, sizeof(u32)): consecutive
 * chunks of glibc's main arena, each of the minimum chunk size (MINSIZE,
 * 32 bytes on 64-bit), after the tool's worker array.
 */
#define LOCK_PI_HEAP_BASE 0x55d5a3c2f2c0ULL
#define MALLOC_MINSIZE 32

struct lp_worker {
	struct futex_timed *s;
	unsigned int tid;
	struct futex own; /* -M */
	struct futex *futex;
	int step;
	int loop;
};

enum { L_LOCK, L_SLEEP, L_UNLOCK, L_COUNT };

/* the futex thread @tid prints: the shared one, or its own chunk with -M */
u64 futex_lock_pi_addr(const struct bench *b, unsigned int tid)
{
	return b->flp_multi ? LOCK_PI_HEAP_BASE + (u64)tid * MALLOC_MINSIZE : b->flp_uaddr;
}

static void worker_next(struct work_task *w, struct op_desc *op)
{
	struct lp_worker *lw = w->state;
	struct futex_timed *s = lw->s;
	struct bench *b = s->b;

	if (futex_timed_worker_start(s, &lw->step, op))
		return;
	switch (lw->loop) {
	case L_LOCK:
	again:
		/* futex_lock_pi(): a failure is retried, unless the run is over */
		lw->loop = L_SLEEP;
		op_futex(op, OP_FUTEX_LOCK_PI, lw->futex, 0);
		return;
	case L_SLEEP:
		if ((s64)w->result) {
			if (s->done)
				break;
			goto again;
		}
		lw->loop = L_UNLOCK;
		op_sleep(op, LOCK_PI_USLEEP_NS);
		return;
	case L_UNLOCK:
		lw->loop = L_COUNT;
		op_futex(op, OP_FUTEX_UNLOCK_PI, lw->futex, 0);
		return;
	default:
		/* ops++, then the loop's while (!done) */
		b->fh_ops[lw->tid]++;
		if (!s->done)
			goto again;
		break;
	}
	op_simple(op, OP_EXIT);
}

static const struct program worker_prog = { .next = worker_next };

static void spawn_worker(struct futex_timed *s, struct op_desc *op)
{
	struct bench *b = s->b;
	unsigned int tid = s->fb.spawned;
	struct lp_worker *lw = xcalloc(1, sizeof(*lw));

	lw->s = s;
	lw->tid = tid;
	lw->futex = b->priv_futex;
	if (b->flp_multi) {
		futex_init_at(&lw->own, 0, futex_lock_pi_addr(b, tid),
			      b->fw_shared ? FUTEX_SCOPE_SHARED : FUTEX_SCOPE_PRIVATE);
		lw->futex = &lw->own;
	}
	futex_bench_spawn(&s->fb, op, &worker_prog, lw, FUTEX_LOCK_PI_COMM);
	b->fw_worker_state[tid] = lw;
}

void futex_lock_pi_start(struct bench *b)
{
	struct futex_timed *s = xcalloc(1, sizeof(*s));
	struct futex *global = xcalloc(1, sizeof(*global));

	b->priv = s;
	s->b = b;
	futex_bench_init(&s->fb, b);
	/* the tool's static global_futex */
	futex_init(global, 0);
	if (b->fw_shared)
		global->scope = FUTEX_SCOPE_SHARED;
	b->priv_futex = global;
	b->flp_uaddr = global->uaddr;
	b->fh_ops = xcalloc(b->fw_threads, sizeof(*b->fh_ops));
	b->fw_worker_state = xcalloc(b->fw_threads, sizeof(*b->fw_worker_state));
	b->fw_nr_worker_state = b->fw_threads;
	futex_timed_launch(s, b, FUTEX_LOCK_PI_COMM, spawn_worker);
}

void futex_lock_pi_free(struct bench *b)
{
	struct futex_timed *s = b->priv;

	if (s)
		futex_bench_free(&s->fb);
	for (unsigned int i = 0; b->fw_worker_state && i < b->fw_nr_worker_state; i++)
		free(b->fw_worker_state[i]);
	free(b->fw_worker_state);
	free(b->fh_ops);
	free(b->priv_futex);
}
