// SPDX-License-Identifier: GPL-2.0-only
/* What the perf bench futex benchmarks share (work/bench_futex.h). */
#include "work/bench_futex.h"

#include "kernel/futex.h"
#include "sim/alloc.h"

#include <stdlib.h>

void futex_bench_init(struct futex_bench *fb, struct bench *b)
{
	fb->b = b;
	if (!b->fw_threads)
		b->fw_threads = machine.nr_cpus;
	fb->spawned = 0;
	fb->setup = 0; /* from -b's prctl */
	futex_init(&fb->started, b->fw_threads);
	fb->pin = xcalloc(machine.nr_cpus, sizeof(*fb->pin));
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		fb->pin[cpu] = alloc_cpumask();
		cpumask_set_cpu(cpu, fb->pin[cpu]);
	}
}

void futex_bench_free(struct futex_bench *fb)
{
	for (unsigned int cpu = 0; fb->pin && cpu < machine.nr_cpus; cpu++)
		free_cpumask(fb->pin[cpu]);
	free(fb->pin);
	fb->pin = NULL;
}

void futex_bench_launch(struct futex_bench *fb, const char *comm, const struct program *prog,
			void *state)
{
	struct bench *b = fb->b;

	b->start_ns = 0;
	b->started = true;
	b->fw_pid = work_start_allowed(comm, prog, state, 0, b->taskset_cpus)->pid;
}

/* futex_set_nbuckets_param(): -b, checked when parsed, so it succeeds */
static void set_buckets(struct work_task *w, void *arg)
{
	struct futex_bench *fb = arg;

	futex_hash_set_slots(w->task, (unsigned int)fb->b->fw_buckets);
}

bool futex_bench_set_buckets(struct futex_bench *fb, struct op_desc *op)
{
	if (fb->b->fw_buckets < 0)
		return false;
	op_call(op, set_buckets, fb);
	return true;
}

void futex_bench_spawn(struct futex_bench *fb, struct op_desc *op, const struct program *prog,
		       void *state, const char *comm)
{
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = prog;
	op->spawn.state = state;
	op->spawn.thread = true;
	op->spawn.comm = comm;
	op->spawn.footprint = FOOTPRINT_TASK;
	op->spawn.allowed = fb->pin[fb->spawned % machine.nr_cpus];
	fb->spawned++;
}

bool futex_bench_wait_started(struct futex_bench *fb, struct op_desc *op)
{
	if (!fb->started.val)
		return false;
	op_futex(op, OP_FUTEX_WAIT, &fb->started, fb->started.val);
	return true;
}

static void count_started(struct work_task *w, void *arg)
{
	struct futex_bench *fb = arg;

	(void)w;
	fb->started.val--;
}

bool futex_bench_worker_start(struct futex_bench *fb, int *step, struct op_desc *op)
{
	switch (*step) {
	case 0:
		*step = 1;
		op_call(op, count_started, fb);
		return true;
	case 1:
		*step = FUTEX_BENCH_STARTED;
		/* the last one wakes the main thread */
		if (!fb->started.val) {
			op_futex(op, OP_FUTEX_WAKE, &fb->started, 1);
			return true;
		}
		return false;
	default:
		return false;
	}
}

struct futex_blocker {
	struct futex_bench *fb;
	struct futex *f;
	int step;
};

enum { BLOCKER_WAIT = FUTEX_BENCH_STARTED, BLOCKER_EXIT };

static void blocker_next(struct work_task *w, struct op_desc *op)
{
	struct futex_blocker *bl = w->state;

	if (futex_bench_worker_start(bl->fb, &bl->step, op))
		return;
	if (bl->step == BLOCKER_WAIT) {
		/* futex_wait(&futex, 0): EAGAIN only if it was woken already */
		bl->step = BLOCKER_EXIT;
		op_futex(op, OP_FUTEX_WAIT, bl->f, 0);
		return;
	}
	op_simple(op, OP_EXIT);
}

static const struct program blocker_prog = { .next = blocker_next };

void futex_bench_spawn_blocker(struct futex_bench *fb, struct op_desc *op, struct futex *f,
			       const char *comm)
{
	struct bench *b = fb->b;
	struct futex_blocker *bl = xcalloc(1, sizeof(*bl));

	bl->fb = fb;
	bl->f = f;
	futex_bench_spawn(fb, op, &blocker_prog, bl, comm);
	op->spawn.reap = true;
	b->fw_worker_state[b->fw_nr_worker_state++] = bl;
}

enum { FB_BUCKETS, FB_SPAWN, FB_WAIT, FB_DONE };

bool futex_bench_setup(struct futex_bench *fb, struct op_desc *op,
		       void (*spawn)(void *arg, struct op_desc *op), void *arg)
{
	switch (fb->setup) {
	case FB_BUCKETS:
		fb->setup = FB_SPAWN;
		if (futex_bench_set_buckets(fb, op))
			return true;
		/* fall through */
	case FB_SPAWN:
		if (fb->spawned < fb->b->fw_threads) {
			spawn(arg, op);
			return true;
		}
		fb->setup = FB_WAIT;
		/* fall through */
	case FB_WAIT:
		if (futex_bench_wait_started(fb, op))
			return true;
		fb->setup = FB_DONE;
		/* fall through */
	default:
		return false;
	}
}

void futex_bench_next_run(struct futex_bench *fb)
{
	fb->spawned = 0;
	fb->started.val = fb->b->fw_threads;
	fb->setup = FB_SPAWN;
}

void futex_bench_stop(struct futex_bench *fb, struct work_task *main_thread)
{
	struct bench *b = fb->b;

	b->fw_slots = futex_hash_get_slots(main_thread->task);
	b->stop_ns = cpu_now();
	b->stopped = true;
}

/* ---- the timed benchmarks (hash, lock-pi) ---- */

enum { T_BUCKETS, T_START, T_SPAWN, T_WAIT_STARTED, T_SLEEP, T_DONE, T_JOIN, T_END };

static void timed_mark_start(struct work_task *w, void *arg)
{
	struct futex_timed *t = arg;

	(void)w;
	t->start_ns = cpu_now();
}

/* toggle_done(): the flag, and the runtime as gettimeofday() gives it */
static void timed_toggle_done(struct work_task *w, void *arg)
{
	struct futex_timed *t = arg;

	(void)w;
	t->done = true;
	t->b->fh_runtime_us = cpu_now() / 1000 - t->start_ns / 1000;
}

static void timed_parent_next(struct work_task *w, struct op_desc *op)
{
	struct futex_timed *t = w->state;
	struct bench *b = t->b;

	switch (t->phase) {
	case T_BUCKETS:
		t->phase = T_START;
		if (futex_bench_set_buckets(&t->fb, op))
			return;
		/* fall through */
	case T_START:
		/* gettimeofday(&bench__start) before the threads are created */
		t->phase = T_SPAWN;
		op_call(op, timed_mark_start, t);
		return;
	case T_SPAWN:
		if (t->fb.spawned < b->fw_threads) {
			t->spawn(t, op);
			return;
		}
		t->phase = T_WAIT_STARTED;
		/* fall through */
	case T_WAIT_STARTED:
		if (futex_bench_wait_started(&t->fb, op))
			return;
		t->phase = T_SLEEP;
		t->go.val = 1;
		op_futex(op, OP_FUTEX_WAKE, &t->go, INT32_MAX);
		return;
	case T_SLEEP:
		t->phase = T_DONE;
		op_sleep(op, (u64)b->fh_runtime_s * NSEC_PER_SEC);
		return;
	case T_DONE:
		t->phase = T_JOIN;
		op_call(op, timed_toggle_done, t);
		return;
	case T_JOIN:
		t->phase = T_END;
		op_wait_children(op, WAIT_ANY);
		return;
	case T_END:
		t->phase = -1;
		b->progress_done = b->progress_total;
		futex_bench_stop(&t->fb, w);
		/* fall through */
	default:
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program timed_parent_prog = { .next = timed_parent_next };

void futex_timed_launch(struct futex_timed *t, struct bench *b, const char *comm,
			void (*spawn)(struct futex_timed *t, struct op_desc *op))
{
	t->b = b;
	t->spawn = spawn;
	futex_init(&t->go, 0);
	b->progress_total = 1;
	futex_bench_launch(&t->fb, comm, &timed_parent_prog, t);
}

bool futex_timed_worker_start(struct futex_timed *t, int *step, struct op_desc *op)
{
	if (futex_bench_worker_start(&t->fb, step, op))
		return true;
	if (*step == FUTEX_BENCH_STARTED) {
		/* cond_wait(&thread_worker): until the main thread's broadcast */
		*step = FUTEX_TIMED_RUNNING;
		op_futex(op, OP_FUTEX_WAIT, &t->go, 0);
		return true;
	}
	return false;
}
