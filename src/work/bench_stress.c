// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng --cpu N [-l P] [--cpu-ops M] [--timeout T] [--cpu-load-slice S]
 *
 * As stress-ng 0.22.00 does it (stress-ng.c stress_parallel_setup() and
 * stress_run_child(), stress-cpu.c stress_cpu(); stress-ng 0.15.06, Debian
 * 12's, does the same for everything modelled here):
 *
 * The parent forks N workers (N = 0: one per CPU) and waits for them. The
 * --cpu-ops budget M is shared: each worker gets ceil(M / N) bogo ops, so the
 * total is N * ceil(M / N), not M. Each worker arms its own alarm(T) when it
 * starts its stressor; the SIGALRM handler clears the continue flag and
 * re-arms alarm(1) until the worker has stopped.
 *
 * -l 100: the worker runs bogo ops of the default "all" method and checks the
 * flag and its budget after every op. -l 0: it sleeps T. Otherwise a cycle
 * is a busy slice (S < 0: -S ops, default 64; S > 0: S ms; S = 0: a random
 * slice up to 0.5 s) in which only the flag is checked after each op, then a
 * sleep of (100-P)/P times the slice's time less the previous oversleep,
 * ended early by a SIGALRM; the budget is checked only at the end of a cycle,
 * so a worker below 100% load finishes its slice and its sleep first.
 */
#include "work/bench.h"

#include "sim/alloc.h"

#include <stdlib.h>

/* stress-ng's DEFAULT_TIMEOUT: without --timeout a stressor runs for a day */
#define STRESS_DEFAULT_TIMEOUT_NS (24ULL * 60 * 60 * NSEC_PER_SEC)
/* stress-ng's SIGALRM handler in a worker re-arms alarm(1) */
#define STRESS_REALARM_NS NSEC_PER_SEC

/*
 * A worker's working set: the largest data of the "all" method's cycle,
 * stress-cpu.c's matrix product (3 matrices of MATRIX_PROD_SIZE 128 x 128
 * long doubles, 16 bytes each: 768 KiB), plus the task's own part.
 * docs/benchmarks.md, "Cache footprints", lists the other methods.
 */
#define STRESS_CPU_FOOTPRINT (3ULL * 128 * 128 * 16 + FOOTPRINT_TASK)

struct stress_state;

struct stress_worker {
	struct stress_state *st;
	struct task_struct *task;
	unsigned int idx;
	u64 ops;
	u64 start_ns, finish_ns;	/* around the stressor, as stats->start/finish */
	u64 deadline;		/* start + timeout: the first SIGALRM */
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

/* stress_continue_flag(): no SIGALRM yet */
static bool keep_flag(const struct stress_worker *w)
{
	return cpu_now() < w->deadline;
}

/* stress_continue(args): the flag, and the worker's share of --cpu-ops */
static bool keep_stressing(const struct stress_worker *w)
{
	const struct bench *b = w->st->b;

	return keep_flag(w) && (!b->worker_max_ops || w->ops < b->worker_max_ops);
}

/* When the next SIGALRM arrives: the alarm, then every re-armed second. */
static u64 next_alarm(const struct stress_worker *w, u64 now)
{
	if (now < w->deadline)
		return w->deadline;
	return w->deadline + ((now - w->deadline) / STRESS_REALARM_NS + 1) * STRESS_REALARM_NS;
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
	if (!keep_flag(w))
		return true;
	return w->st->b->load_slice < 0 ? w->slice_left <= 0 : cpu_now() >= w->slice_end;
}

static void worker_exit(struct stress_worker *w, struct op_desc *op)
{
	w->finish_ns = cpu_now();
	op_simple(op, OP_EXIT);
}

static void worker_op(struct stress_worker *w, struct op_desc *op)
{
	w->in_op = true;
	op_run(op, STRESS_CPU_BOGO_OP_NS);
}

/* The busy slice is over: sleep (100-P)/P of it, less the last oversleep. */
static bool start_sleep(struct stress_worker *w, struct op_desc *op)
{
	const struct bench *b = w->st->b;
	u64 now = cpu_now();

	w->t2 = now;
	w->delay = (s64)((100 - b->load_pct) * (w->t2 - w->t1) / b->load_pct) - w->bias;
	if (w->delay <= 0) {
		/* clock warps aside, nothing to sleep */
		w->bias = 0;
		return false;
	}
	/* select() returns early when a SIGALRM comes */
	w->sleeping = true;
	op_sleep(op, min((u64)w->delay, next_alarm(w, now) - now));
	return true;
}

static void worker_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_worker *w = wt->state;
	const struct bench *b = w->st->b;
	u64 now = cpu_now();

	if (!w->task) {
		w->task = wt->task;
		w->start_ns = now;
		w->deadline = now + (b->timeout_ns ? b->timeout_ns : STRESS_DEFAULT_TIMEOUT_NS);
		if (b->load_pct == 0) {
			/* sleep(timeout): the alarm comes at the same time */
			op_sleep(op, w->deadline - now);
			return;
		}
		new_slice(w);
		worker_op(w, op);
		return;
	}
	if (b->load_pct == 0) {
		worker_exit(w, op);
		return;
	}
	if (w->in_op) {
		w->in_op = false;
		w->ops++;
		w->slice_left--;
		if (b->load_pct == 100) {
			/* do { method } while (stress_continue(args)) */
			if (keep_stressing(w))
				worker_op(w, op);
			else
				worker_exit(w, op);
			return;
		}
		if (!slice_over(w)) {
			worker_op(w, op);
			return;
		}
		if (start_sleep(w, op))
			return;
	} else if (w->sleeping) {
		w->sleeping = false;
		/* the bias takes account of the time the sleep overran */
		w->bias = (s64)(now - w->t2) - w->delay;
	}
	/* the end of a cycle: } while (stress_continue(args)) */
	if (!keep_stressing(w)) {
		worker_exit(w, op);
		return;
	}
	new_slice(w);
	worker_op(w, op);
}

static const struct program worker_prog = { .next = worker_next };

static void mark(struct work_task *wt, void *arg)
{
	struct stress_state *st = arg;
	struct bench *b = st->b;
	u64 real;

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
	real = 0;
	for (unsigned int i = 0; i < st->nr; i++) {
		struct task_struct *p = st->w[i].task;

		b->bogo_ops += st->w[i].ops;
		real += st->w[i].finish_ns - st->w[i].start_ns;
		if (p) {
			b->utime_ns += p->utime;
			b->stime_ns += p->se.sum_exec_runtime - min(p->utime, p->se.sum_exec_runtime);
		}
	}
	/* "real time": the mean of the workers' finish - start */
	b->real_ns = real / st->nr;
}

static void parent_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_state *st = wt->state;

	switch (st->phase) {
	case 0:
		st->phase = 1;
		op_call(op, mark, st);
		return;
	case 1:
		if (st->spawned < st->nr) {
			*op = (struct op_desc){ .kind = OP_SPAWN };
			op->spawn.prog = &worker_prog;
			op->spawn.state = &st->w[st->spawned++];
			op->spawn.thread = false;
			op->spawn.comm = "stress-ng-cpu";
			op->spawn.footprint = STRESS_CPU_FOOTPRINT;
			return;
		}
		st->phase = 2;
		op_simple(op, OP_WAIT_CHILDREN);
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

static const struct program parent_prog = { .next = parent_next };

void stress_start(struct bench *b)
{
	struct stress_state *st = xcalloc(1, sizeof(*st));

	b->nr_workers = b->workers ? b->workers : machine.nr_cpus;
	/* stress_parallel_setup(): the budget shared equally, rounding up */
	b->worker_max_ops = DIV_ROUND_UP(b->max_ops, b->nr_workers);
	st->w = xcalloc(b->nr_workers, sizeof(*st->w));
	b->priv = st;
	st->b = b;
	st->nr = b->nr_workers;
	for (unsigned int i = 0; i < st->nr; i++) {
		st->w[i].st = st;
		st->w[i].idx = i;
		/* a background stress-ng (--also) draws its own numbers */
		prng_init(&st->w[i].rnd, machine.seed,
			  PRNG_STREAM_WORKLOAD + 1000 + i + (u64)b->group * 100000);
	}
	work_start_allowed("stress-ng", &parent_prog, st, 0, b->taskset_cpus);
}

void stress_free(struct bench *b)
{
	struct stress_state *st = b->priv;

	if (st)
		free(st->w);
}
