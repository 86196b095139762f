// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipistorm (antonblanchard/ipistorm, with the numipi= variant used to
 * evaluate SM_IDLE): loading the module starts one kernel thread per CPU of
 * cpulist, bound to it; each sends function-call IPIs with an empty handler
 * — to (cpu + offset) % nr_cpus with single=1, else to every other CPU —
 * waiting for each to complete with wait=1, numipi times (0: until the
 * timeout), with delay= microseconds of udelay() between them. The time
 * from loading until the last thread is done is what the study compares.
 */
#include "work/bench.h"

#include "sim/alloc.h"

#include <stdlib.h>

struct storm_state;

struct storm_thread {
	struct storm_state *st;
	unsigned int cpu;
	u64 sent;
	u64 deadline;
	bool delaying;
};

struct storm_state {
	struct bench *b;
	struct storm_thread *t;
	unsigned int nr;
	unsigned int spawned;
	int phase;
};

static void thread_next(struct work_task *w, struct op_desc *op)
{
	struct storm_thread *t = w->state;
	const struct bench *b = t->st->b;

	if (!t->deadline)
		t->deadline = cpu_now() + b->timeout_ns;
	if ((b->max_ops && t->sent >= b->max_ops) || cpu_now() >= t->deadline) {
		op_simple(op, OP_EXIT);
		return;
	}
	if (b->ipi_delay_ns && !t->delaying && t->sent) {
		/* udelay(): a busy loop */
		t->delaying = true;
		op_run(op, b->ipi_delay_ns);
		return;
	}
	t->delaying = false;
	t->sent++;
	t->st->b->progress_done++;
	if (b->ipi_single)
		*op = (struct op_desc){ .kind = OP_SMP_CALL,
					.val = (t->cpu + b->ipi_offset) % machine.nr_cpus,
					.bytes = b->ipi_wait };
	else
		*op = (struct op_desc){ .kind = OP_SMP_CALL_MANY, .bytes = b->ipi_wait };
}

static const struct program thread_prog = { .next = thread_next };

static void mark(struct work_task *w, void *arg)
{
	struct storm_state *st = arg;
	struct bench *b = st->b;

	(void)w;
	if (!b->started) {
		b->start_ns = cpu_now();
		b->started = true;
		return;
	}
	b->stop_ns = cpu_now();
	b->stopped = true;
	b->bogo_ops = 0;
	for (unsigned int i = 0; i < st->nr; i++)
		b->bogo_ops += st->t[i].sent;
}

/* insmod: start the threads, wait for them (the module's exit path) */
static void insmod_next(struct work_task *w, struct op_desc *op)
{
	struct storm_state *st = w->state;

	switch (st->phase) {
	case 0:
		st->phase = 1;
		op_call(op, mark, st);
		return;
	case 1:
		if (st->spawned < st->nr) {
			struct storm_thread *t = &st->t[st->spawned++];

			*op = (struct op_desc){ .kind = OP_SPAWN };
			op->spawn.prog = &thread_prog;
			op->spawn.state = t;
			op->spawn.thread = true;
			op->spawn.comm = "ipistorm";
			op->spawn.bind_cpu = (int)t->cpu + 1;
			op->spawn.footprint = FOOTPRINT_KTHREAD;
			return;
		}
		st->phase = 2;
		op_wait_children(op, WAIT_ANY);
		return;
	case 2:
		st->phase = 3;
		op_call(op, mark, st);
		return;
	default:
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program insmod_prog = { .next = insmod_next };

void ipistorm_start(struct bench *b)
{
	struct storm_state *st = xcalloc(1, sizeof(*st));
	unsigned int cpu, n = 0;

	if (b->ipi_cpulist_all)
		cpumask_setall(b->ipi_cpulist);
	st->t = xcalloc(machine.nr_cpus, sizeof(*st->t));
	b->priv = st;
	st->b = b;
	for_each_cpu(cpu, b->ipi_cpulist) {
		st->t[n].st = st;
		st->t[n].cpu = cpu;
		n++;
	}
	st->nr = n;
	b->nr_workers = n;
	/* numipi from each thread (else only the timeout ends it) */
	b->progress_total = b->max_ops * n;
	/* insmod runs on a CPU outside the storm if it can, as a shell would */
	work_start_allowed("insmod", &insmod_prog, st, 0, b->taskset_cpus);
}

void ipistorm_free(struct bench *b)
{
	struct storm_state *st = b->priv;

	if (st)
		free(st->t);
	free_cpumask(b->ipi_cpulist);
}
