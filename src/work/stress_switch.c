// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng --switch N [--switch-ops M] [--switch-freq F], its pipe method
 * (stress-switch.c stress_switch_pipe(), stress-ng 0.22.00).
 *
 * Each instance makes a pipe with pipe2(O_DIRECT) (packet mode: a write is
 * one buffer) sized to one page (F_SETPIPE_SZ of 1 byte rounds up to a
 * page: one buffer), forks a child that reads 1 byte at a time until the
 * pipe is closed, and loops: one bogo op, write 1 byte, and with -F the
 * delay below; until its alarm or its budget. A second write blocks until
 * the child took the first, so every op is a switch to the reader and back.
 * Then "nanosecs per context switch (pipe method)" = its run time / its
 * ops, the pipe closed (the child reads 0 and exits), the child reaped.
 *
 * --switch-freq F: a delay of 1 s / F after each write, slept only when
 * above 1 us; every F / 100 writes (at least 1) it is set to what keeps
 * the ops on the schedule t_start + ops / F: 1 s / F minus the overrun,
 * 0 when behind by more than that (stress_switch_delay()).
 */
#include "work/stress.h"

#include "sim/alloc.h"

#define THRESH_FREQ 100 /* delay adjustments a second */

struct stress_switch {
	struct stress_instance *in;
	struct channel *pipe;
	u64 t_start;
	u64 switch_delay, threshold, delay, i;
	bool child_started;
	bool wake; /* a byte was read: the writer's buffer is free */
};

enum { SW_BEGIN, SW_FORK, SW_WRITE, SW_WROTE, SW_SLEPT, SW_CLOSE, SW_REAP, SW_EXIT };

static void reader_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_switch *sw = wt->state;

	if (!sw->child_started) {
		sw->child_started = true;
		stress_child_started(sw->in, wt->task);
	} else if (sw->wake) {
		sw->wake = false;
	} else if (!wt->result) {
		/* the write end closed: read() returned 0 */
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	} else if (stress_packet_read_done(sw->pipe, 1, op)) {
		sw->wake = true;
		return;
	}
	*op = (struct op_desc){ .kind = OP_READ, .ch = sw->pipe, .bytes = 1 };
}

static const struct program reader_prog = { .next = reader_next };

/* stress_switch_delay() after a write: true with a nanosleep in @op */
static bool switch_delay(struct stress_instance *in, struct stress_switch *sw, struct op_desc *op)
{
	bool sleep = sw->delay > 1000;

	if (sleep)
		*op = (struct op_desc){ .kind = OP_SLEEP, .ns = sw->delay };
	if (++sw->i >= sw->threshold) {
		/* where the schedule says the ops should be now, and how far off */
		s64 overrun =
			(s64)(cpu_now() - sw->t_start) - (s64)(in->counter * sw->switch_delay);
		s64 overrun_by = (s64)sw->switch_delay - overrun;

		sw->i = 0;
		sw->delay = overrun_by < 0 ? 0 : min((u64)overrun_by, sw->switch_delay);
	}
	return sleep;
}

static void switch_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_instance *in = wt->state;
	struct stress_switch *sw = in->priv;

	/* a SIGALRM: the syscall in progress returned EINTR, the flag is clear */
	if (wt->signalled) {
		wt->signalled = false;
		if (in->phase == SW_WROTE || in->phase == SW_SLEPT)
			in->phase = SW_SLEPT;
	}
	for (;;) {
		switch (in->phase) {
		case SW_BEGIN:
			if (stress_instance_begin(in, wt, op))
				return;
			/* one page-sized buffer in packet mode: one 1-byte write fills it */
			sw->pipe = stress_packet_pipe(1, 1);
			in->phase = SW_FORK;
			stress_spawn(in, &reader_prog, sw, FOOTPRINT_TASK + FOOTPRINT_CHANNEL, op);
			return;
		case SW_FORK:
			sw->t_start = cpu_now();
			in->phase = SW_WRITE;
			break;
		case SW_WRITE:
			/* do { stress_bogo_inc(); write(fd, buf, 1); ... } */
			in->counter++;
			in->b->progress_done++;
			in->phase = SW_WROTE;
			*op = (struct op_desc){ .kind = OP_WRITE, .ch = sw->pipe, .bytes = 1 };
			return;
		case SW_WROTE:
			in->phase = SW_SLEPT;
			if (sw->switch_delay && switch_delay(in, sw, op))
				return;
			break;
		case SW_SLEPT:
			/* } while (stress_continue(args)) */
			in->phase = stress_continue(in) ? SW_WRITE : SW_CLOSE;
			break;
		case SW_CLOSE:
			/* stress_switch_rate(), then close(): the reader reads 0 */
			if (in->counter)
				in->metric =
					(double)(cpu_now() - sw->t_start) / (double)in->counter;
			pipe_close_write(sw->pipe);
			in->phase = SW_REAP;
			*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
			return;
		case SW_REAP:
			if (wt->task->nr_children_alive) {
				/* a SIGALRM cut the wait short: wait again */
				*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
				return;
			}
			in->phase = SW_EXIT;
			break;
		default:
			stress_instance_exit(in, op);
			return;
		}
	}
}

const struct program stress_switch_prog = { .next = switch_next };

void stress_switch_init(struct stress_instance *in)
{
	struct stress_switch *sw = xcalloc(1, sizeof(*sw));
	u64 freq = in->s->switch_freq;

	sw->in = in;
	sw->switch_delay = freq ? NSEC_PER_SEC / freq : 0;
	sw->threshold = freq / THRESH_FREQ ? freq / THRESH_FREQ : 1;
	sw->delay = sw->switch_delay;
	in->priv = sw;
}
