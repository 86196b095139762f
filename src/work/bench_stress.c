// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng --cpu N [-l P] [--cpu-ops N] [--timeout T] [--cpu-load-slice S]
 *
 * The parent forks N workers (N = 0: one per CPU) and waits for them. A
 * worker runs bogo ops of the default "all" method: with -l 100 it spins;
 * with -l 0 it sleeps until the timeout; otherwise it alternates a busy
 * slice (by default 64 bogo ops; S > 0: S milliseconds; S = 0: a random
 * slice up to 0.5 s) with a sleep of (100-P)/P times the wall time the slice
 * actually took, less the previous sleep's oversleep (stress-cpu.c's bias).
 * A worker stops after --cpu-ops bogo ops or --timeout seconds, whichever
 * comes first, checked between bogo ops as stress-ng does.
 */
#include "work/bench.h"

#include "sim/alloc.h"

#include <stdlib.h>

struct stress_state;

struct stress_worker {
	struct stress_state *st;
	struct task_struct *task;
	unsigned int idx;
	u64 ops;
	u64 deadline;		/* start + timeout, or UINT64_MAX */
	bool in_op;		/* a bogo op's user work was issued */
	bool sleeping;		/* the load sleep was issued */
	s64 slice_left;		/* bogo ops (S < 0) of the current slice */
	u64 slice_end;		/* or its end time (S >= 0) */
	u64 t1, t2;		/* slice start and end */
	s64 delay, bias;	/* ns */
	struct prng rnd;
};

struct stress_state {
	struct bench *b;
	struct stress_worker *w;
	unsigned int nr;
	unsigned int spawned;
	int phase;
};

static bool worker_done(struct stress_worker *w)
{
	const struct bench *b = w->st->b;

	return (b->max_ops && w->ops >= b->max_ops) || cpu_now() >= w->deadline;
}

static void new_slice(struct stress_worker *w)
{
	const struct bench *b = w->st->b;

	w->t1 = cpu_now();
	if (b->load_slice < 0)
		w->slice_left = -b->load_slice;
	else if (b->load_slice == 0)
		/* stress-ng: a random slice of up to 0.5 s (mwc16 / 131072 s) */
		w->slice_end = w->t1 + prng_below(&w->rnd, 65536) * NSEC_PER_SEC / 131072;
	else
		w->slice_end = w->t1 + (u64)b->load_slice * NSEC_PER_MSEC;
}

static bool slice_over(const struct stress_worker *w)
{
	return w->st->b->load_slice < 0 ? w->slice_left <= 0 : cpu_now() >= w->slice_end;
}

static void worker_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_worker *w = wt->state;
	const struct bench *b = w->st->b;

	if (!w->task) {
		w->task = wt->task;
		w->deadline = b->timeout_ns ? cpu_now() + b->timeout_ns : UINT64_MAX;
		new_slice(w);
	}
	if (w->in_op) {
		w->in_op = false;
		w->ops++;
		w->slice_left--;
	}
	if (w->sleeping) {
		u64 t3 = cpu_now();

		w->sleeping = false;
		/* the bias takes account of the time the sleep overran */
		w->bias = (s64)(t3 - w->t2) - w->delay;
		new_slice(w);
	}
	if (worker_done(w)) {
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
	if (b->load_pct == 0) {
		*op = (struct op_desc){ .kind = OP_SLEEP, .ns = w->deadline - cpu_now() };
		return;
	}
	if (b->load_pct < 100 && slice_over(w)) {
		u64 now = cpu_now();

		w->t2 = now;
		w->delay = (s64)((100 - b->load_pct) * (w->t2 - w->t1) / b->load_pct) - w->bias;
		w->sleeping = true;
		if (w->delay > 0) {
			u64 d = min((u64)w->delay, w->deadline - now);

			*op = (struct op_desc){ .kind = OP_SLEEP, .ns = d };
			return;
		}
		/* nothing to sleep: straight into the next slice */
		w->sleeping = false;
		w->bias = 0;
		new_slice(w);
	}
	w->in_op = true;
	*op = (struct op_desc){ .kind = OP_RUN, .ns = STRESS_CPU_BOGO_OP_NS };
}

static const struct program worker_prog = { .next = worker_next };

static void mark(struct work_task *wt, void *arg)
{
	struct stress_state *st = arg;
	struct bench *b = st->b;

	(void)wt;
	if (!b->started) {
		b->start_ns = cpu_now();
		b->started = true;
		return;
	}
	b->stop_ns = cpu_now();
	b->stopped = true;
	b->bogo_ops = 0;
	b->utime_ns = b->stime_ns = 0;
	for (unsigned int i = 0; i < st->nr; i++) {
		struct task_struct *p = st->w[i].task;

		b->bogo_ops += st->w[i].ops;
		if (p) {
			b->utime_ns += p->utime;
			b->stime_ns += p->se.sum_exec_runtime - min(p->utime, p->se.sum_exec_runtime);
		}
	}
}

static void parent_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_state *st = wt->state;

	switch (st->phase) {
	case 0:
		st->phase = 1;
		*op = (struct op_desc){ .kind = OP_CALL, .call = mark, .arg = st };
		return;
	case 1:
		if (st->spawned < st->nr) {
			*op = (struct op_desc){ .kind = OP_SPAWN };
			op->spawn.prog = &worker_prog;
			op->spawn.state = &st->w[st->spawned++];
			op->spawn.thread = false;
			op->spawn.comm = "stress-ng-cpu";
			return;
		}
		st->phase = 2;
		*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN };
		return;
	case 2:
		st->phase = 3;
		*op = (struct op_desc){ .kind = OP_CALL, .call = mark, .arg = st };
		return;
	default:
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
}

static const struct program parent_prog = { .next = parent_next };

void stress_start(struct bench *b)
{
	struct stress_state *st = xcalloc(1, sizeof(*st));

	b->nr_workers = b->workers ? b->workers : machine.nr_cpus;
	st->w = xcalloc(b->nr_workers, sizeof(*st->w));
	b->priv = st;
	st->b = b;
	st->nr = b->nr_workers;
	for (unsigned int i = 0; i < st->nr; i++) {
		st->w[i].st = st;
		st->w[i].idx = i;
		prng_init(&st->w[i].rnd, machine.seed, PRNG_STREAM_WORKLOAD + 1000 + i);
	}
	work_start("stress-ng", &parent_prog, st, 0);
}

void stress_free(struct bench *b)
{
	struct stress_state *st = b->priv;

	if (st)
		free(st->w);
}
