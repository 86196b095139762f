// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf bench futex hash (Linux v6.18 tools/perf/bench/futex-hash.c): -t
 * threads (default: one per online CPU, thread i pinned to CPU i % CPUs)
 * each own an array of -f futexes (default 1024, all 0) and call
 * FUTEX_WAIT on each in turn with the value 1234, which never matches: each
 * call is a key, a hash lookup and the bucket lock, then EWOULDBLOCK. They
 * loop over their array until the main thread's sleep of -r seconds
 * (default 10) ends, checking the done flag after each full pass. Each
 * thread's operations per second of the run (gettimeofday() from before the
 * threads were created to the end of the sleep, whole seconds) are
 * printed, then their average (docs/benchmarks.md).
 *
 * The start barrier (a pthread mutex and two condition variables) is a
 * counter and two futexes: each thread counts itself, the last wakes the
 * main thread, which then wakes them all through the "go" futex, as
 * cond_broadcast() does.
 */
#include "work/bench_futex.h"

#include "kernel/futex.h"
#include "sim/alloc.h"

#include <stdlib.h>

/* perf bench names itself "<collection>-<bench>" (prctl(PR_SET_NAME)) */
#define FUTEX_HASH_COMM "futex-hash"
/* the value each FUTEX_WAIT expects: never the futexes' 0 */
#define FUTEX_HASH_VAL 1234
/*
 * Where the threads' calloc()ed futex arrays are: consecutive chunks of
 * glibc's main arena in a PIE's heap, each the request plus its 8-byte
 * size field rounded up to 16 bytes (request2size()).
 */
#define FUTEX_HASH_HEAP_BASE 0x55d5a3c2f2a0ULL
#define MALLOC_SIZE_SZ 8
#define MALLOC_ALIGN 16

struct fh_state {
	struct futex_bench fb; /* the threads' start and pinning, -b */
	struct bench *b;
	struct futex go; /* cond_broadcast(&thread_worker): 0 until the start */
	bool done;
	u64 start_ns;
	int phase;
};

enum { W_GO = FUTEX_BENCH_STARTED, W_LOOP };

struct fh_worker {
	struct fh_state *s;
	unsigned int tid, i;
	struct futex *futex; /* [nfutexes] */
	u64 ops;
	int step;
};

/* the address of thread @tid's futex array: glibc chunks one after another */
u64 futex_hash_array_addr(unsigned int tid, unsigned int nfutexes)
{
	u64 chunk = ((u64)nfutexes * sizeof(u32) + MALLOC_SIZE_SZ + MALLOC_ALIGN - 1) &
		    ~(u64)(MALLOC_ALIGN - 1);

	return FUTEX_HASH_HEAP_BASE + tid * chunk;
}

static void worker_next(struct work_task *w, struct op_desc *op)
{
	struct fh_worker *fw = w->state;
	struct fh_state *s = fw->s;
	struct bench *b = s->b;

	if (futex_bench_worker_start(&s->fb, &fw->step, op))
		return;
	if (fw->step == W_GO) {
		fw->step = W_LOOP;
		op_futex(op, OP_FUTEX_WAIT, &s->go, 0);
		return;
	}
	/* the last FUTEX_WAIT returned: a full pass ends with the done check */
	if (fw->i) {
		fw->ops++;
		if (fw->i == b->fh_nfutexes) {
			fw->i = 0;
			if (s->done) {
				b->fh_ops[fw->tid] = fw->ops;
				op_simple(op, OP_EXIT);
				return;
			}
		}
	}
	op_futex(op, OP_FUTEX_WAIT, &fw->futex[fw->i++], FUTEX_HASH_VAL);
}

static const struct program worker_prog = { .next = worker_next };

enum { P_BUCKETS, P_START, P_SPAWN, P_WAIT_STARTED, P_SLEEP, P_DONE, P_JOIN, P_END };

static void mark_start(struct work_task *w, void *arg)
{
	struct fh_state *s = arg;

	(void)w;
	s->start_ns = cpu_now();
}

/* toggle_done(): the flag, and the runtime as gettimeofday() gives it */
static void toggle_done(struct work_task *w, void *arg)
{
	struct fh_state *s = arg;

	(void)w;
	s->done = true;
	s->b->fh_runtime_us = cpu_now() / 1000 - s->start_ns / 1000;
}

static void spawn_worker(struct fh_state *s, struct op_desc *op)
{
	struct bench *b = s->b;
	unsigned int tid = s->fb.spawned;
	struct fh_worker *fw = xcalloc(1, sizeof(*fw));
	u64 base = futex_hash_array_addr(tid, b->fh_nfutexes);

	fw->s = s;
	fw->tid = tid;
	fw->futex = xcalloc(b->fh_nfutexes, sizeof(*fw->futex));
	for (unsigned int j = 0; j < b->fh_nfutexes; j++)
		futex_init_at(&fw->futex[j], 0, base + (u64)j * sizeof(u32),
			      b->fw_shared ? FUTEX_SCOPE_SHARED : FUTEX_SCOPE_PRIVATE);
	futex_bench_spawn(&s->fb, op, &worker_prog, fw, FUTEX_HASH_COMM);
	b->fw_worker_state[tid] = fw;
}

static void parent_next(struct work_task *w, struct op_desc *op)
{
	struct fh_state *s = w->state;
	struct bench *b = s->b;

	switch (s->phase) {
	case P_BUCKETS:
		s->phase = P_START;
		if (futex_bench_set_buckets(&s->fb, op))
			return;
		/* fall through */
	case P_START:
		/* gettimeofday(&bench__start) before the threads are created */
		s->phase = P_SPAWN;
		op_call(op, mark_start, s);
		return;
	case P_SPAWN:
		if (s->fb.spawned < b->fw_threads) {
			spawn_worker(s, op);
			return;
		}
		s->phase = P_WAIT_STARTED;
		/* fall through */
	case P_WAIT_STARTED:
		if (futex_bench_wait_started(&s->fb, op))
			return;
		s->phase = P_SLEEP;
		s->go.val = 1;
		op_futex(op, OP_FUTEX_WAKE, &s->go, INT32_MAX);
		return;
	case P_SLEEP:
		s->phase = P_DONE;
		op_sleep(op, (u64)b->fh_runtime_s * NSEC_PER_SEC);
		return;
	case P_DONE:
		s->phase = P_JOIN;
		op_call(op, toggle_done, s);
		return;
	case P_JOIN:
		s->phase = P_END;
		op_simple(op, OP_WAIT_CHILDREN);
		return;
	case P_END:
		s->phase = -1;
		b->progress_done = b->progress_total;
		futex_bench_stop(&s->fb, w);
		/* fall through */
	default:
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program parent_prog = { .next = parent_next };

void futex_hash_start(struct bench *b)
{
	struct fh_state *s = xcalloc(1, sizeof(*s));

	b->priv = s;
	s->b = b;
	futex_bench_init(&s->fb, b);
	b->fh_ops = xcalloc(b->fw_threads, sizeof(*b->fh_ops));
	b->fw_worker_state = xcalloc(b->fw_threads, sizeof(*b->fw_worker_state));
	b->fw_nr_worker_state = b->fw_threads;
	b->progress_total = 1;
	futex_init(&s->go, 0);
	futex_bench_launch(&s->fb, FUTEX_HASH_COMM, &parent_prog, s);
}

void futex_hash_free(struct bench *b)
{
	struct fh_state *s = b->priv;

	if (s)
		futex_bench_free(&s->fb);
	for (unsigned int i = 0; b->fw_worker_state && i < b->fw_nr_worker_state; i++) {
		struct fh_worker *fw = b->fw_worker_state[i];

		if (fw)
			free(fw->futex);
		free(fw);
	}
	free(b->fw_worker_state);
	free(b->fh_ops);
}
