// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng --cpu N [-l P] [--cpu-ops M] [--cpu-load-slice S], one instance
 * (stress-cpu.c stress_cpu(), stress-ng 0.22.00; 0.15.06, Debian 12's,
 * does the same for everything modelled here).
 *
 * -l 100: the instance runs bogo ops of the default "all" method and checks
 * the flag and its budget after every op. -l 0: it sleeps T. Otherwise a
 * cycle is a busy slice (S < 0: -S ops, default 64; S > 0: S ms; S = 0: a
 * random slice up to 0.5 s) in which only the flag is checked after each
 * op, then a sleep of (100-P)/P times the slice's time less the previous
 * oversleep, ended early by a SIGALRM; the budget is checked only at the
 * end of a cycle, so an instance below 100% load finishes its slice and
 * its sleep first. The SIGALRM handler clears the flag and re-arms
 * alarm(1) until the instance has stopped.
 */
#include "work/stress.h"

#include "sim/alloc.h"

/* stress-ng's SIGALRM handler in an instance re-arms alarm(1) */
#define STRESS_REALARM_NS NSEC_PER_SEC

/*
 * An instance's working set: the largest data of the "all" method's cycle,
 * stress-cpu.c's matrix product (3 matrices of MATRIX_PROD_SIZE 128 x 128
 * long doubles, 16 bytes each: 768 KiB), plus the task's own part.
 * docs/benchmarks.md, "Cache footprints", lists the other methods.
 */
#define STRESS_CPU_FOOTPRINT (3ULL * 128 * 128 * 16 + FOOTPRINT_TASK)

struct stress_cpu {
	bool in_op; /* a bogo op's user work was issued */
	bool sleeping; /* the load sleep was issued */
	s64 slice_left; /* bogo ops (S < 0) of the current slice */
	u64 slice_end; /* or its end time (S >= 0) */
	u64 t1, t2; /* slice start and end */
	s64 delay, bias; /* ns */
};

u64 stress_cpu_footprint(void)
{
	return STRESS_CPU_FOOTPRINT;
}

/* When the next SIGALRM arrives: the alarm, then every re-armed second. */
static u64 next_alarm(const struct stress_instance *in, u64 now)
{
	if (now < in->deadline)
		return in->deadline;
	return in->deadline + ((now - in->deadline) / STRESS_REALARM_NS + 1) * STRESS_REALARM_NS;
}

static void new_slice(struct stress_instance *in)
{
	struct stress_cpu *c = in->priv;

	c->t1 = cpu_now();
	if (in->s->cpu_load_slice < 0)
		c->slice_left = -in->s->cpu_load_slice;
	else if (in->s->cpu_load_slice == 0)
		/* stress-ng: a random slice of up to 0.5 s (mwc16 / 131072 s) */
		c->slice_end = c->t1 + prng_below(&in->rnd, 65536) * NSEC_PER_SEC / 131072;
	else
		c->slice_end = c->t1 + (u64)in->s->cpu_load_slice * NSEC_PER_MSEC;
}

static bool slice_over(const struct stress_instance *in)
{
	const struct stress_cpu *c = in->priv;

	if (!stress_flag(in))
		return true;
	return in->s->cpu_load_slice < 0 ? c->slice_left <= 0 : cpu_now() >= c->slice_end;
}

static void bogo_op(struct stress_instance *in, struct op_desc *op)
{
	struct stress_cpu *c = in->priv;

	c->in_op = true;
	*op = (struct op_desc){ .kind = OP_RUN, .ns = STRESS_CPU_BOGO_OP_NS };
}

/* The busy slice is over: sleep (100-P)/P of it, less the last oversleep. */
static bool start_sleep(struct stress_instance *in, struct op_desc *op)
{
	struct stress_cpu *c = in->priv;
	unsigned int load = in->s->cpu_load;
	u64 now = cpu_now();

	c->t2 = now;
	c->delay = (s64)((100 - load) * (c->t2 - c->t1) / load) - c->bias;
	if (c->delay <= 0) {
		/* clock warps aside, nothing to sleep */
		c->bias = 0;
		return false;
	}
	/* select() returns early when a SIGALRM comes */
	c->sleeping = true;
	*op = (struct op_desc){ .kind = OP_SLEEP,
				.ns = min((u64)c->delay, next_alarm(in, now) - now),
				.val = SLEEP_SELECT };
	return true;
}

static void cpu_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_instance *in = wt->state;
	struct stress_cpu *c = in->priv;
	unsigned int load = in->s->cpu_load;
	u64 now = cpu_now();

	if (!in->started) {
		if (stress_instance_begin(in, wt, op))
			return;
		if (load == 0) {
			/* sleep(timeout): the alarm comes at the same time */
			*op = (struct op_desc){ .kind = OP_SLEEP, .ns = in->deadline - now };
			return;
		}
		new_slice(in);
		bogo_op(in, op);
		return;
	}
	if (load == 0) {
		stress_instance_exit(in, op);
		return;
	}
	if (c->in_op) {
		c->in_op = false;
		in->counter++;
		in->b->progress_done++;
		c->slice_left--;
		if (load == 100) {
			/* do { method } while (stress_continue(args)) */
			if (stress_continue(in))
				bogo_op(in, op);
			else
				stress_instance_exit(in, op);
			return;
		}
		if (!slice_over(in)) {
			bogo_op(in, op);
			return;
		}
		if (start_sleep(in, op))
			return;
	} else if (c->sleeping) {
		c->sleeping = false;
		/* the bias takes account of the time the sleep overran */
		c->bias = (s64)(now - c->t2) - c->delay;
	}
	/* the end of a cycle: } while (stress_continue(args)) */
	if (!stress_continue(in)) {
		stress_instance_exit(in, op);
		return;
	}
	new_slice(in);
	bogo_op(in, op);
}

const struct program stress_cpu_prog = { .next = cpu_next };

void stress_cpu_init(struct stress_instance *in)
{
	in->priv = xcalloc(1, sizeof(struct stress_cpu));
}
