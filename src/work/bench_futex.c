// SPDX-License-Identifier: GPL-2.0-only
/* What perf bench futex wake and hash share (work/bench_futex.h). */
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

void futex_bench_stop(struct futex_bench *fb, struct work_task *main_thread)
{
	struct bench *b = fb->b;

	b->fw_slots = futex_hash_get_slots(main_thread->task);
	b->stop_ns = cpu_now();
	b->stopped = true;
}
