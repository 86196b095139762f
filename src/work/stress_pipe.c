// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng --pipe N [--pipe-ops M] [--pipe-data-size B] [--pipe-size S]
 * [--pipe-readers R] [--pipe-writers W] (stress-pipe.c stress_pipe(),
 * stress-ng 0.22.00).
 *
 * Each instance makes a pipe with pipe2(O_DIRECT): packet mode, a buffer a
 * write, 16 buffers (64 KiB) or --pipe-size rounded up to a power of two
 * pages; forks R readers (default 1), then W writers (default 1). A writer
 * loops write(B bytes) (default a page), a bogo op each, until the run
 * stops or the instance's counter reaches its budget, then records its
 * bytes and time. A reader loops read(B bytes), with an ioctl(FIONREAD)
 * every 512 reads, until the run stops or the pipe is closed. The
 * instance sleep(1)s until its alarm or its counter reaches the budget,
 * then sends SIGPIPE to them all (their loops end), and waits for them.
 * "MB per sec pipe write rate": the writers' bytes over their times, in
 * MiB.
 */
#include "work/stress.h"

#include "sim/alloc.h"

#define PAGE_BYTES 4096u
/* the instance's sleep(1) between its looks at the counter */
#define PIPE_PARENT_SLEEP_NS NSEC_PER_SEC
/* ioctl(FIONREAD) every 512 reads ((i++ & 0x1ff) == 0) */
#define PIPE_FIONREAD_EVERY 512

struct pipe_proc {
	struct stress_pipe *p;
	bool writer;
	bool started;
	int step; /* a reader's: what follows its read */
	u64 calls; /* reads, or writes, issued */
	u64 t_start, duration, bytes;
};

struct stress_pipe {
	struct stress_instance *in;
	struct channel *pipe;
	unsigned int data;
	unsigned int nr, spawned;
	bool stopping; /* SIGPIPE sent */
	struct pipe_proc proc[];
};

enum { R_READ, R_READ_DONE, R_WOKEN, R_IOCTL_DONE };

/* stress_pipe_read_generic(): read, a wake with it, now and then FIONREAD */
static void reader_next(struct pipe_proc *pp, struct work_task *wt, struct op_desc *op)
{
	struct stress_pipe *p = pp->p;

	for (;;) {
		switch (pp->step) {
		case R_READ_DONE:
			/* end of file, or SIGPIPE: the loop ends */
			if (!wt->result || p->stopping) {
				*op = (struct op_desc){ .kind = OP_EXIT };
				return;
			}
			pp->step = R_WOKEN;
			if (stress_packet_read_done(p->pipe, p->data, op))
				return;
			break;
		case R_WOKEN:
			pp->step = R_IOCTL_DONE;
			/* if ((i++ & 0x1ff) == 0) ioctl(fd, FIONREAD, &readbytes) */
			if (!(pp->calls++ % PIPE_FIONREAD_EVERY)) {
				stress_op_syscall(op);
				return;
			}
			break;
		case R_IOCTL_DONE:
		case R_READ:
		default:
			if (p->stopping) {
				*op = (struct op_desc){ .kind = OP_EXIT };
				return;
			}
			pp->step = R_READ_DONE;
			*op = (struct op_desc){ .kind = OP_READ, .ch = p->pipe, .bytes = p->data };
			return;
		}
	}
}

/* stress_pipe_write_generic(): write, a bogo op each, until stopped or the budget */
static void writer_next(struct pipe_proc *pp, struct work_task *wt, struct op_desc *op)
{
	struct stress_pipe *p = pp->p;
	struct stress_instance *in = p->in;

	if (pp->calls++) {
		/* a write returned: 0 is EPIPE (the instance closed the pipe) */
		if (wt->result) {
			in->counter++;
			in->b->progress_done++;
			pp->bytes += wt->result;
		}
		/* } while (stress_continue(args)) */
		if (!wt->result || p->stopping ||
		    (in->s->instance_max_ops && in->counter >= in->s->instance_max_ops)) {
			pp->duration = cpu_now() - pp->t_start;
			*op = (struct op_desc){ .kind = OP_EXIT };
			return;
		}
	}
	*op = (struct op_desc){ .kind = OP_WRITE, .ch = p->pipe, .bytes = p->data };
}

static void proc_next(struct work_task *wt, struct op_desc *op)
{
	struct pipe_proc *pp = wt->state;

	if (!pp->started) {
		pp->started = true;
		stress_child_started(pp->p->in, wt->task);
		pp->t_start = cpu_now();
	}
	if (pp->writer)
		writer_next(pp, wt, op);
	else
		reader_next(pp, wt, op);
}

static const struct program proc_prog = { .next = proc_next };

enum { PP_BEGIN, PP_FORK, PP_SLEEP, PP_SLEPT, PP_REAP, PP_EXIT };

static void pipe_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_instance *in = wt->state;
	struct stress_pipe *p = in->priv;

	/* SIGALRM: the sleep (or wait) in progress ends early, the flag is clear */
	wt->signalled = false;
	for (;;) {
		switch (in->phase) {
		case PP_BEGIN:
			if (stress_instance_begin(in, wt, op))
				return;
			in->phase = PP_FORK;
			break;
		case PP_FORK:
			if (p->spawned < p->nr) {
				stress_spawn(in, &proc_prog, &p->proc[p->spawned++],
					     FOOTPRINT_TASK + FOOTPRINT_CHANNEL + p->data, op);
				return;
			}
			in->phase = PP_SLEEP;
			break;
		case PP_SLEEP:
			in->phase = PP_SLEPT;
			*op = (struct op_desc){ .kind = OP_SLEEP, .ns = PIPE_PARENT_SLEEP_NS };
			return;
		case PP_SLEPT:
			if (stress_continue(in)) {
				in->phase = PP_SLEEP;
				break;
			}
			/*
			 * SIGPIPE to the readers and the writers: a blocked
			 * read or write returns EINTR and the loop ends
			 */
			p->stopping = true;
			pipe_close_read(p->pipe);
			pipe_close_write(p->pipe);
			in->phase = PP_REAP;
			*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
			return;
		case PP_REAP:
			if (wt->task->nr_children_alive) {
				*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
				return;
			}
			in->phase = PP_EXIT;
			break;
		default: {
			u64 bytes = 0, duration = 0;

			for (unsigned int i = 0; i < p->nr; i++) {
				bytes += p->proc[i].bytes;
				duration += p->proc[i].duration;
			}
			/* (total_bytes / total_duration) / MB */
			if (duration)
				in->metric = ((double)bytes / ((double)duration / 1e9)) / 1048576.0;
			stress_instance_exit(in, op);
			return;
		}
		}
	}
}

const struct program stress_pipe_prog = { .next = pipe_next };

/* round_pipe_size(): a power of two of at least a page, in buffers */
static unsigned int pipe_slots(unsigned int size)
{
	unsigned int pages = 1;

	if (!size)
		return 16; /* PIPE_DEF_BUFFERS */
	while (pages * PAGE_BYTES < size)
		pages *= 2;
	return pages;
}

void stress_pipe_init(struct stress_instance *in)
{
	const struct stressor *s = in->s;
	unsigned int nr = s->pipe_readers + s->pipe_writers;
	struct stress_pipe *p = xcalloc(1, sizeof(*p) + nr * sizeof(p->proc[0]));

	p->in = in;
	p->data = s->pipe_data_size;
	p->nr = nr;
	p->pipe = stress_packet_pipe(pipe_slots(s->pipe_size), s->pipe_data_size);
	for (unsigned int i = 0; i < nr; i++) {
		p->proc[i].p = p;
		/* the readers are forked first */
		p->proc[i].writer = i >= s->pipe_readers;
	}
	in->priv = p;
}
