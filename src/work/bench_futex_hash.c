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

struct fh_worker {
	struct futex_timed *s;
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
	struct futex_timed *s = fw->s;
	struct bench *b = s->b;

	if (futex_timed_worker_start(s, &fw->step, op))
		return;
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

static void spawn_worker(struct futex_timed *s, struct op_desc *op)
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

void futex_hash_start(struct bench *b)
{
	struct futex_timed *s = xcalloc(1, sizeof(*s));

	b->priv = s;
	s->b = b;
	futex_bench_init(&s->fb, b);
	b->fh_ops = xcalloc(b->fw_threads, sizeof(*b->fh_ops));
	b->fw_worker_state = xcalloc(b->fw_threads, sizeof(*b->fw_worker_state));
	b->fw_nr_worker_state = b->fw_threads;
	futex_timed_launch(s, b, FUTEX_HASH_COMM, spawn_worker);
}

void futex_hash_free(struct bench *b)
{
	struct futex_timed *s = b->priv;

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
