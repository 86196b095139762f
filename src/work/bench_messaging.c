// SPDX-License-Identifier: GPL-2.0-only
/*
 * hackbench (rt-tests) and perf bench sched messaging: the same algorithm.
 *
 * Each group has fds receivers, each owning one channel (a unix stream
 * socketpair, or a pipe with -p), and fds senders that hold the write ends
 * of all the group's channels. Every child tells the parent it is ready
 * (one byte on the ready channel) and polls the wake channel; the parent
 * reads all the ready bytes, reads the clock, writes one wake byte that
 * releases every child at once, reaps them all and reads the clock again.
 * A sender loops `loops` times writing one datasize message to each of the
 * group's channels in turn; a receiver reads fds*loops messages. Writers
 * block on full buffers, readers on empty ones. hackbench -F makes the
 * parent SCHED_FIFO priority 1 once every child exists, before it waits
 * for them to be ready.
 */
#include "work/bench.h"
#include "work/tool_image.h"

#include "sim/alloc.h"

#include <stdlib.h>

struct msg_state;

struct msg_child {
	struct msg_state *m;
	unsigned int group;
	unsigned int idx;
	bool sender;
	unsigned int phase;
	u64 count;		/* messages fully sent or received */
	u32 done;		/* bytes of the current message moved */
	/*
	 * Decoded once at the start, so that a step is a few compares: the
	 * messages to move (fds x loops), the group's channels, and the one
	 * used next (a sender's goes round them, count % fds).
	 */
	u64 total;
	struct channel **chan;
	unsigned int next;
};

struct msg_state {
	struct bench *b;
	const char *comm;
	struct channel *ready;
	struct channel *wake;
	struct channel **chan;	/* [groups * fds]: receiver channels */
	struct msg_child *children;
	unsigned int nr_children;
	unsigned int spawned;
	unsigned int ready_got;
	unsigned int phase;
	bool fifo_done;		/* hackbench -F: the main process is SCHED_FIFO */
};

static void mark_start(struct work_task *w, void *arg)
{
	struct bench *b = arg;

	(void)w;
	b->start_ns = cpu_now();
	b->started = true;
}

static void mark_stop(struct work_task *w, void *arg)
{
	struct bench *b = arg;

	(void)w;
	b->stop_ns = cpu_now();
	b->stopped = true;
}

static void child_next(struct work_task *w, struct op_desc *op)
{
	struct msg_child *c = w->state;
	struct msg_state *m = c->m;
	struct bench *b = m->b;

	switch (c->phase) {
	case 0: /* ready(): tell the parent */
		c->total = (u64)b->fds * b->loops;
		c->chan = &m->chan[c->group * b->fds];
		c->next = c->sender ? 0 : c->idx;
		op_rw(op, OP_WRITE, m->ready, 1);
		c->phase = 1;
		return;
	case 1: /* and wait for "GO" */
		op_poll_in(op, m->wake);
		c->phase = 2;
		return;
	case 2:
		c->phase = 3;
		break;
	case 3: /* the previous op moved w->result bytes of the current message */
		c->done += (u32)w->result;
		if (c->done == b->datasize) {
			c->done = 0;
			c->count++;
			b->progress_done++;
			if (c->sender && ++c->next == b->fds)
				c->next = 0;
		}
		break;
	}
	if (c->count == c->total) {
		op_simple(op, OP_EXIT);
		return;
	}
	op_rw(op, c->sender ? OP_WRITE : OP_READ, c->chan[c->next], b->datasize - c->done);
}

static const struct program child_prog = { .next = child_next };

static void parent_next(struct work_task *w, struct op_desc *op)
{
	struct msg_state *m = w->state;
	struct bench *b = m->b;

	switch (m->phase) {
	case 0: /* create the groups: receivers first, then senders */
		if (m->spawned < m->nr_children) {
			struct msg_child *c = &m->children[m->spawned++];

			*op = (struct op_desc){ .kind = OP_SPAWN };
			op->spawn.prog = &child_prog;
			op->spawn.state = c;
			op->spawn.thread = b->threads;
			/* both set pthread_attr_setstacksize(PTHREAD_STACK_MIN) */
			op->spawn.stack = THREAD_STACK_MIN;
			op->spawn.comm = m->comm;
			/* a sender writes to each of the group's fds channels, a receiver reads one */
			op->spawn.footprint =
				FOOTPRINT_TASK + (u64)(c->sender ? b->fds : 1) * FOOTPRINT_CHANNEL;
			/* a worker process is a child of the tool's image */
			op->spawn.image = b->kind == BENCH_HACKBENCH ? &tool_image_hackbench
								     : &tool_image_perf;
			return;
		}
		/*
		 * hackbench -F: with every worker created (they stay
		 * SCHED_OTHER), sched_setscheduler(0, SCHED_FIFO, 1) "so
		 * that we can manage the workers"
		 */
		if (b->fifo_main && !m->fifo_done) {
			m->fifo_done = true;
			*op = (struct op_desc){ .kind = OP_SCHED_SETATTR,
						.attr = { .sched_policy = SCHED_FIFO,
							  .sched_priority = 1 } };
			return;
		}
		m->phase = 1;
		/* fall through */
	case 1: /* wait for everyone to be ready */
		if (m->ready_got < m->nr_children) {
			op_rw(op, OP_READ, m->ready, 1);
			m->phase = 2;
			return;
		}
		m->phase = 3;
		break;
	case 2:
		m->ready_got += (unsigned int)w->result;
		if (m->ready_got < m->nr_children) {
			op_rw(op, OP_READ, m->ready, 1);
			return;
		}
		m->phase = 3;
		break;
	}
	switch (m->phase) {
	case 3:
		op_call(op, mark_start, b);
		m->phase = 4;
		return;
	case 4: /* kick them off */
		op_rw(op, OP_WRITE, m->wake, 1);
		m->phase = 5;
		return;
	case 5: /* reap them all: perf's reap_worker() wait()s, rt-tests' waitpid()s each */
		op_wait_children(op, b->kind == BENCH_HACKBENCH ? WAIT_PID : WAIT_ANY);
		m->phase = 6;
		return;
	case 6:
		op_call(op, mark_stop, b);
		m->phase = 7;
		return;
	default:
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program parent_prog = { .next = parent_next };

void messaging_start(struct bench *b)
{
	enum channel_kind kind = b->pipes ? CH_PIPE : CH_UNIX_STREAM;
	struct msg_state *m = xcalloc(1, sizeof(*m));
	unsigned int nr = b->groups * 2 * b->fds;

	m->children = xcalloc(nr, sizeof(*m->children));
	m->chan = xcalloc((size_t)b->groups * b->fds, sizeof(*m->chan));
	b->priv = m;
	m->b = b;
	/* every child moves fds x loops messages */
	b->progress_total = (u64)nr * b->fds * b->loops;
	/* perf bench names itself "<collection>-<bench>" (prctl(PR_SET_NAME) in run_bench()) */
	m->comm = b->kind == BENCH_HACKBENCH ? "hackbench" : "sched-messaging";
	m->nr_children = nr;
	m->ready = channel_new(kind);
	m->wake = channel_new(kind);
	for (unsigned int i = 0; i < b->groups * b->fds; i++)
		m->chan[i] = channel_new(kind);
	for (unsigned int g = 0, i = 0; g < b->groups; g++) {
		for (unsigned int k = 0; k < 2 * b->fds; k++, i++) {
			struct msg_child *c = &m->children[i];

			c->m = m;
			c->group = g;
			c->sender = k >= b->fds;
			c->idx = k % b->fds;
		}
	}
	work_start_allowed(m->comm, &parent_prog, m, 0, b->taskset_cpus);
}

void messaging_free(struct bench *b)
{
	struct msg_state *m = b->priv;

	if (!m)
		return;
	free(m->children);
	free(m->chan);
}
