// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng --yield N [--yield-procs P] [--yield-sched POLICY] [--yield-ops
 * M] (stress-yield.c stress_yield(), stress-ng 0.22.00).
 *
 * Each instance forks its yielders: P of them, or by default two per CPU
 * the stress-ng process may run on (its affinity) shared among the N
 * instances, at least one each, instance 0 taking the remainder. A yielder
 * applies --yield-sched (SCHED_FIFO/RR at a random priority in 1..98, the
 * same for all the yielders of an instance, SCHED_BATCH/IDLE/OTHER at 0)
 * and loops: read the clock, sched_yield(),
 * read the clock; one count and the time between the reads added to its
 * totals; until the run stops or it did M / yielders calls. The instance
 * meanwhile sleeps 100 ms at a time until its alarm; only then does it
 * kill its yielders (SIGKILL) and add their counts to its bogo ops, so the
 * budget does not end it. "ns duration per sched_yield call" is the time
 * the yielders spent in their calls (runnable or running) over the calls.
 */
#include "work/stress.h"

#include "sim/alloc.h"

/* the instance's usleep() between its looks at the clock */
#define YIELD_PARENT_SLEEP_NS (100 * NSEC_PER_MSEC)

struct yielder {
	struct stress_yield *y;
	struct task_struct *task;
	u64 count, duration, t;
	int phase;
};

struct stress_yield {
	struct stress_instance *in;
	unsigned int nr, spawned;
	u64 max_ops; /* each yielder's: the budget / yielders, 0: none */
	int prio; /* --yield-sched fifo or rr: the yielders' priority */
	bool stopping; /* SIGKILL sent */
	struct yielder y[];
};

enum { Y_START, Y_SCHED, Y_CALL, Y_RETURNED };

static void yielder_next(struct work_task *wt, struct op_desc *op)
{
	struct yielder *y = wt->state;
	struct stress_yield *sy = y->y;
	struct stress_instance *in = sy->in;
	const struct stressor *s = in->s;

	for (;;) {
		/* SIGKILL: gone at its next step */
		if (sy->stopping) {
			*op = (struct op_desc){ .kind = OP_EXIT };
			return;
		}
		switch (y->phase) {
		case Y_START:
			y->task = wt->task;
			stress_child_started(in, wt->task);
			y->phase = Y_SCHED;
			if (s->yield_sched != STRESS_SCHED_NONE) {
				*op = (struct op_desc){
					.kind = OP_SCHED_SETATTR,
					.attr = stress_sched_attr(s->yield_sched, sy->prio),
				};
				return;
			}
			break;
		case Y_SCHED:
			y->phase = Y_CALL;
			break;
		case Y_CALL:
			y->t = cpu_now();
			y->phase = Y_RETURNED;
			*op = (struct op_desc){ .kind = OP_YIELD };
			return;
		case Y_RETURNED:
			y->count++;
			y->duration += cpu_now() - y->t;
			/* while (stress_continue_flag() && count < max_ops_per_yielder) */
			if (sy->max_ops && y->count >= sy->max_ops) {
				*op = (struct op_desc){ .kind = OP_EXIT };
				return;
			}
			y->phase = Y_CALL;
			break;
		}
	}
}

static const struct program yielder_prog = { .next = yielder_next };

enum { YP_BEGIN, YP_FORK, YP_SLEEP, YP_SLEPT, YP_REAP, YP_EXIT };

static void yield_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_instance *in = wt->state;
	struct stress_yield *sy = in->priv;

	/* SIGALRM: the usleep() (or wait) in progress ends early, the flag is clear */
	wt->signalled = false;
	for (;;) {
		switch (in->phase) {
		case YP_BEGIN:
			if (stress_instance_begin(in, wt, op))
				return;
			in->phase = YP_FORK;
			break;
		case YP_FORK:
			if (sy->spawned < sy->nr && stress_flag(in)) {
				stress_spawn(in, &yielder_prog, &sy->y[sy->spawned], FOOTPRINT_TASK,
					     op);
				sy->y[sy->spawned++].y = sy;
				return;
			}
			in->phase = YP_SLEEP;
			break;
		case YP_SLEEP:
			in->phase = YP_SLEPT;
			*op = (struct op_desc){ .kind = OP_SLEEP, .ns = YIELD_PARENT_SLEEP_NS };
			return;
		case YP_SLEPT:
			/* } while (stress_continue(args)): its counter is still 0 */
			if (stress_continue(in)) {
				in->phase = YP_SLEEP;
				break;
			}
			/* stress_kill_and_wait_many(SIGKILL) */
			sy->stopping = true;
			in->phase = YP_REAP;
			*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
			return;
		case YP_REAP:
			if (wt->task->nr_children_alive) {
				*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
				return;
			}
			in->phase = YP_EXIT;
			break;
		default: {
			u64 count = 0, duration = 0;

			for (unsigned int i = 0; i < sy->spawned; i++) {
				count += sy->y[i].count;
				duration += sy->y[i].duration;
			}
			in->counter += count;
			if (count)
				in->metric = (double)duration / (double)count;
			stress_instance_exit(in, op);
			return;
		}
		}
	}
}

const struct program stress_yield_prog = { .next = yield_next };

/* CPU_COUNT() of the affinity the stress-ng process was started with */
static unsigned int allowed_cpus(const struct bench *b)
{
	return b->taskset_cpus ? cpumask_weight(b->taskset_cpus) : machine.nr_cpus;
}

void stress_yield_init(struct stress_instance *in)
{
	const struct stressor *s = in->s;
	unsigned int nr = s->yield_procs;
	struct stress_yield *sy;

	if (!nr) {
		/* at least two yielders per CPU, shared among the instances */
		unsigned int cpus = 2 * allowed_cpus(in->b);

		nr = cpus / s->nr ? cpus / s->nr : 1;
		if (!in->idx && cpus > nr * s->nr)
			nr += cpus - nr * s->nr;
	}
	sy = xcalloc(1, sizeof(*sy) + nr * sizeof(sy->y[0]));
	sy->in = in;
	sy->nr = nr;
	sy->max_ops = s->instance_max_ops / nr;
	/*
	 * sched_get_priority_min() + mwc32modn(max - min): each yielder draws
	 * it, but from the random state it inherited from the instance, which
	 * draws nothing between the forks: one priority, 1..98, per instance
	 */
	if (s->yield_sched == SCHED_FIFO || s->yield_sched == SCHED_RR)
		sy->prio = 1 + (int)prng_below(&in->rnd, 99 - 1);
	in->priv = sy;
}
