/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What perf bench futex wake, hash, requeue and wake-parallel share
 * (tools/perf/bench/futex.c and the benchmarks' setup): the threads
 * pinned round-robin to the online CPUs, their start barrier (a pthread
 * mutex and condition variables in the tool, a counter and a futex here:
 * each thread counts itself and the last wakes the main thread) and -b's
 * prctl(PR_FUTEX_HASH) before the threads are created; the main thread's
 * setup of a run and the threads that only block on a futex (wake,
 * requeue, wake-parallel).
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
	int setup; /* futex_bench_setup()'s step */
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
/*
 * OP_SPAWN of the next thread (futex_bench_spawn()) that starts, blocks on
 * @f (FUTEX_WAIT with 0) and exits once woken: futex wake's, requeue's and
 * wake-parallel's; its state is kept in fw_worker_state (futex_wake_free())
 */
void futex_bench_spawn_blocker(struct futex_bench *fb, struct op_desc *op, struct futex *f,
			       const char *comm);
/* the main thread: true with a FUTEX_WAIT in @op while threads are still starting */
bool futex_bench_wait_started(struct futex_bench *fb, struct op_desc *op);
/*
 * A thread's start (*@step from 0): true with @op one of its steps, false
 * once it is through (*@step is then FUTEX_BENCH_STARTED).
 */
#define FUTEX_BENCH_STARTED 2
bool futex_bench_worker_start(struct futex_bench *fb, int *step, struct op_desc *op);
/*
 * The main thread's setup of a run (wake, requeue, wake-parallel): -b's
 * prctl (the first run only), each thread created with @spawn(@arg, @op)
 * (futex_bench_spawn() and the benchmark's state), then the wait until all
 * have started: true with @op one of its steps, false once it is through.
 */
bool futex_bench_setup(struct futex_bench *fb, struct op_desc *op,
		       void (*spawn)(void *arg, struct op_desc *op), void *arg);
/*
 * The timed benchmarks, hash and lock-pi: the main thread takes the time
 * (gettimeofday(&bench__start)), creates the threads with @spawn, waits
 * until all have started, wakes them at once (cond_broadcast() of the
 * "go" condition: a FUTEX_WAKE of all), sleeps -r seconds, sets done
 * with the runtime in b->fh_runtime_us (toggle_done()) and joins them.
 * The struct begins the benchmark's state.
 */
struct futex_timed {
	struct futex_bench fb;
	struct bench *b;
	struct futex go; /* 0 until the start */
	bool done;
	u64 start_ns;
	int phase;
	void (*spawn)(struct futex_timed *t, struct op_desc *op);
};

void futex_timed_launch(struct futex_timed *t, struct bench *b, const char *comm,
			void (*spawn)(struct futex_timed *t, struct op_desc *op));
/*
 * A timed thread's start (*@step from 0): true with @op one of its steps
 * (counting itself, waiting for "go"), false once it runs
 * (*@step is then FUTEX_TIMED_RUNNING).
 */
#define FUTEX_TIMED_RUNNING (FUTEX_BENCH_STARTED + 1)
bool futex_timed_worker_start(struct futex_timed *t, int *step, struct op_desc *op);

/* the next run's setup: its threads created and started again */
void futex_bench_next_run(struct futex_bench *fb);
/* the main thread's end: futex_print_nbuckets()'s PR_FUTEX_HASH_GET_SLOTS, and stop */
void futex_bench_stop(struct futex_bench *fb, struct work_task *main_thread);

#endif
