/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What perf bench futex wake and hash share (tools/perf/bench/futex.c and
 * the two benchmarks' setup): the threads pinned round-robin to the
 * online CPUs, their start barrier (a pthread mutex and condition
 * variables in the tool, a counter and a futex here: each thread counts
 * itself and the last wakes the main thread) and -b's prctl(PR_FUTEX_HASH)
 * before the threads are created.
 */
#ifndef SCHEDLAB_WORK_BENCH_FUTEX_H
#define SCHEDLAB_WORK_BENCH_FUTEX_H

#include "work/bench.h"

/* (the states of futex wake, requeue and wake-parallel begin with one: futex_wake_free()) */
struct futex_bench {
	struct bench *b;
	struct futex started; /* value: threads still starting */
	struct cpumask **pin; /* [nr_cpus]: each thread's one CPU, by CPU */
	unsigned int spawned;
};

/* @b's threads (-t, 0: one per online CPU) not started yet, their pinning */
void futex_bench_init(struct futex_bench *fb, struct bench *b);
void futex_bench_free(struct futex_bench *fb);
/* start the tool's main thread, running @prog with @state (allowed on taskset's CPUs) */
void futex_bench_launch(struct futex_bench *fb, const char *comm, const struct program *prog,
			void *state);
/* the main thread's -b: true with the prctl in @op when -b was given */
bool futex_bench_set_buckets(struct futex_bench *fb, struct op_desc *op);
/* OP_SPAWN of the next thread, pinned to CPU spawned % CPUs */
void futex_bench_spawn(struct futex_bench *fb, struct op_desc *op, const struct program *prog,
		       void *state, const char *comm);
/* the main thread: true with a FUTEX_WAIT in @op while threads are still starting */
bool futex_bench_wait_started(struct futex_bench *fb, struct op_desc *op);
/*
 * A thread's start (*@step from 0): true with @op one of its steps, false
 * once it is through (*@step is then FUTEX_BENCH_STARTED).
 */
#define FUTEX_BENCH_STARTED 2
bool futex_bench_worker_start(struct futex_bench *fb, int *step, struct op_desc *op);
/* the main thread's end: futex_print_nbuckets()'s PR_FUTEX_HASH_GET_SLOTS, and stop */
void futex_bench_stop(struct futex_bench *fb, struct work_task *main_thread);

#endif
