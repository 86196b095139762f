// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf bench sched pipe: two tasks and two pipes; one int ping-pongs.
 * Worker 0 reads pipe 1 then writes pipe 2; worker 1 writes pipe 1 then
 * reads pipe 2, `loops` times. In process mode the parent forks worker 0 and
 * runs worker 1 itself; with -T both are threads. The clock is read before
 * the fork/thread creation and after the wait, as perf does.
 */
#include "work/bench.h"
#include "work/tool_image.h"

#include "sim/alloc.h"

#include <stdlib.h>

/* perf bench names itself "<collection>-<bench>" (prctl(PR_SET_NAME) in run_bench()) */
#define PIPE_COMM "sched-pipe"

struct pipe_state;

struct pipe_worker {
	struct pipe_state *s;
	int nr;
	unsigned int i;
	int step;
};

struct pipe_state {
	struct bench *b;
	struct channel *pipe1;
	struct channel *pipe2;
	struct pipe_worker w[2];
	int phase;
};

/* the worker's next pipe operation, or false when its loops are done */
static bool worker_op(struct pipe_worker *pw, struct op_desc *op)
{
	struct pipe_state *s = pw->s;

	if (pw->i == s->b->loops)
		return false;
	bool first = pw->step == 0;
	bool do_read = pw->nr == 0 ? first : !first;
	struct channel *ch = (pw->nr == 0) == do_read ? s->pipe1 : s->pipe2;

	op_rw(op, do_read ? OP_READ : OP_WRITE, ch, sizeof(int));
	if (++pw->step == 2) {
		pw->step = 0;
		pw->i++;
		s->b->progress_done++;
	}
	return true;
}

static void worker_next(struct work_task *w, struct op_desc *op)
{
	if (!worker_op(w->state, op))
		op_simple(op, OP_EXIT);
}

static const struct program worker_prog = { .next = worker_next };

static void mark(struct work_task *w, void *arg)
{
	struct bench *b = arg;

	(void)w;
	if (!b->started) {
		b->start_ns = cpu_now();
		b->started = true;
	} else {
		b->stop_ns = cpu_now();
		b->stopped = true;
	}
}

static void spawn(struct op_desc *op, struct pipe_worker *pw, bool thread)
{
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = &worker_prog;
	op->spawn.state = pw;
	op->spawn.thread = thread;
	op->spawn.comm = PIPE_COMM;
	/* it reads one pipe and writes the other */
	op->spawn.footprint = FOOTPRINT_TASK + 2 * FOOTPRINT_CHANNEL;
	/* forked (process mode), perf's child */
	op->spawn.image = &tool_image_perf;
}

static void parent_next(struct work_task *w, struct op_desc *op)
{
	struct pipe_state *s = w->state;
	struct bench *b = s->b;

	switch (s->phase) {
	case 0:
		s->phase = 1;
		op_call(op, mark, b);
		return;
	case 1:
		s->phase = 2;
		spawn(op, &s->w[0], b->threads);
		return;
	case 2:
		if (b->threads) {
			s->phase = 3;
			spawn(op, &s->w[1], true);
			return;
		}
		/* process mode: the parent is worker 1 */
		if (worker_op(&s->w[1], op))
			return;
		s->phase = 3;
		/* fall through */
	case 3:
		s->phase = 4;
		op_wait_children(op, WAIT_PID);
		return;
	case 4:
		s->phase = 5;
		op_call(op, mark, b);
		return;
	default:
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program parent_prog = { .next = parent_next };

void pipe_start(struct bench *b)
{
	struct pipe_state *s = xcalloc(1, sizeof(*s));

	b->priv = s;
	s->b = b;
	/* both workers do `loops` round trips */
	b->progress_total = 2ULL * b->loops;
	s->pipe1 = channel_new(CH_PIPE);
	s->pipe2 = channel_new(CH_PIPE);
	for (int i = 0; i < 2; i++) {
		s->w[i].s = s;
		s->w[i].nr = i;
	}
	work_start_allowed(PIPE_COMM, &parent_prog, s, 0, b->taskset_cpus);
}
