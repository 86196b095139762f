// SPDX-License-Identifier: GPL-2.0-only
/*
 * schbench-2016 -m M -t T -r R -s S -c C
 *
 * Chris Mason's schbench as of 2016 (masoncl/schbench 3d16b23, the version
 * the scheduler patch mails of 2016-2019 ran), without its -p, -R and -a
 * modes. main() starts M message threads and each starts T workers (all
 * threads of one process).
 *
 * A worker spins for C us of wall time (usec_spin(): gettimeofday() until
 * more than C us went by), then msg_and_wait(): it sets its futex to
 * BLOCKED, stamps its wake_time, pushes itself on its message thread's list
 * (a cmpxchg LIFO), posts the message thread's futex (fpost(): cmpxchg
 * BLOCKED -> RUNNING, and FUTEX_WAKE if that succeeded) and, unless
 * stopping, waits on its own (fwait(): cmpxchg RUNNING -> BLOCKED, else
 * FUTEX_WAIT). Back from it, it samples gettimeofday() - wake_time in us
 * (zero samples are dropped).
 *
 * A message thread loops: futex = BLOCKED; xlist_wake_all() takes the whole
 * list, reads gettimeofday() once, and for each worker (the last pushed
 * first) copies that time to its wake_time and fposts it; then it fwaits on
 * its own futex and sleeps S + rand() % (S / 4) us.
 *
 * main sleeps R s (then 1 s at a time until R s went by), sets stopping,
 * posts each message thread and joins them; a message thread that sees
 * stopping wakes its list twice, posts and joins its workers.
 *
 * The latency sample is thus from the message thread's clock read before
 * its wakeups to the worker's clock read after futex_wait() returns.
 */
#include "work/bench.h"
#include "work/schbench_futex.h"
#include "work/schbench_hist.h"

#include "sim/alloc.h"

#include <stdlib.h>

/*
 * usec_spin() checks the clock every few ns; the model runs its user work in
 * pieces of at most this much and checks in between, so a worker preempted
 * past its deadline stops spinning within this much of running again.
 */
#define SCHBENCH_SPIN_CHUNK_NS (100 * NSEC_PER_USEC)

/*
 * A worker's working set: the task's own part and 1 KiB for the lines of
 * its thread_data it touches (the futex and wake_time line, the list link,
 * the few histogram buckets its samples land in; its 1 MiB pipe_page is
 * untouched outside -p and most of the 19 KiB histogram is never hit).
 */
#define SCHBENCH_WORKER_FOOTPRINT (FOOTPRINT_TASK + 1024)

struct sb_state;
struct sb_msg;

struct sb_worker {
	struct sb_msg *msg;
	struct sb_worker *next;		/* on the message thread's list */
	struct futex futex;
	u64 wake_time_us;		/* gettimeofday() as us */
	u64 spin_end_ns;
	int phase;
};

struct sb_msg {
	struct sb_state *st;
	struct sb_worker *workers;
	struct sb_worker *list;		/* workers waiting for a reply, last pushed first */
	struct futex futex;
	struct prng rnd;
	unsigned int spawned;
	unsigned int posted;
	u64 wake_now_us;		/* xlist_wake_all()'s clock read */
	int wake_runs;			/* xlist_wake_all() passes left before the exit */
	int phase;
};

struct sb_state {
	struct bench *b;
	struct sb_msg *msgs;
	unsigned int spawned;
	unsigned int posted;
	bool stopping;
	u64 sleep_start_us;
	int phase;
};

enum { W_LOOP, W_SPIN, W_POST, W_WAIT, W_FWAIT, W_SAMPLE };

static void worker_next(struct work_task *wt, struct op_desc *op)
{
	struct sb_worker *w = wt->state;
	struct sb_msg *m = w->msg;
	struct sb_state *st = m->st;
	const struct bench *b = st->b;
	u64 now;

	for (;;) {
		switch (w->phase) {
		case W_LOOP:
			if (st->stopping) {
				op_simple(op, OP_EXIT);
				return;
			}
			/* usec_spin(): until gettimeofday() is more than C us on */
			w->spin_end_ns = (gtod_us() + b->sb_cpu_us + 1) * NSEC_PER_USEC;
			w->phase = b->sb_cpu_us ? W_SPIN : W_POST;
			break;
		case W_SPIN:
			now = cpu_now();
			if (now >= w->spin_end_ns) {
				w->phase = W_POST;
				break;
			}
			op_run(op, min(w->spin_end_ns - now, SCHBENCH_SPIN_CHUNK_NS));
			return;
		case W_POST:
			/* msg_and_wait() */
			w->futex.val = FUTEX_BLOCKED;
			w->wake_time_us = gtod_us();
			w->next = m->list;
			m->list = w;
			w->phase = W_WAIT;
			if (fpost(&m->futex, op))
				return;
			break;
		case W_WAIT:
			/* don't wait if stopping: nobody would post us */
			w->phase = st->stopping ? W_SAMPLE : W_FWAIT;
			break;
		case W_FWAIT:
			if (fwait(&w->futex, op))
				return;
			w->phase = W_SAMPLE;
			break;
		case W_SAMPLE: {
			u64 t = gtod_us();

			if (t > w->wake_time_us)
				schbench_add_lat(b->sb_stats, (unsigned int)min(t - w->wake_time_us,
										 (u64)UINT32_MAX));
			w->phase = W_LOOP;
			break;
		}
		}
	}
}

static const struct program worker_prog = { .next = worker_next };

enum { M_SPAWN, M_LOOP, M_WAKE, M_AFTER_WAKE, M_WAIT, M_SLEPT, M_POST_ALL, M_JOIN, M_EXIT };

/* xlist_wake_all(), one fpost at a time: true with a FUTEX_WAKE in @op */
static bool wake_next(struct sb_msg *m, u64 now_us, struct op_desc *op)
{
	while (m->list) {
		struct sb_worker *w = m->list;

		m->list = w->next;
		w->next = NULL;
		w->wake_time_us = now_us;
		if (fpost(&w->futex, op))
			return true;
	}
	return false;
}

static void msg_next(struct work_task *wt, struct op_desc *op)
{
	struct sb_msg *m = wt->state;
	struct sb_state *st = m->st;
	const struct bench *b = st->b;

	for (;;) {
		switch (m->phase) {
		case M_SPAWN:
			if (m->spawned < b->sb_workers) {
				*op = (struct op_desc){ .kind = OP_SPAWN };
				op->spawn.prog = &worker_prog;
				op->spawn.state = &m->workers[m->spawned++];
				op->spawn.thread = true;
				op->spawn.comm = "schbench";
				op->spawn.footprint = SCHBENCH_WORKER_FOOTPRINT;
				return;
			}
			m->phase = M_LOOP;
			break;
		case M_LOOP:
			m->futex.val = FUTEX_BLOCKED;
			m->wake_runs = 1;
			m->phase = M_WAKE;
			/* xlist_wake_all(): the list, then one clock read for all */
			m->wake_now_us = gtod_us();
			break;
		case M_WAKE:
			if (wake_next(m, m->wake_now_us, op))
				return;
			m->phase = M_AFTER_WAKE;
			break;
		case M_AFTER_WAKE:
			if (st->stopping && m->wake_runs) {
				/* stopping: one more xlist_wake_all(), then leave */
				m->wake_runs--;
				m->wake_now_us = gtod_us();
				m->phase = M_WAKE;
				break;
			}
			if (st->stopping) {
				m->posted = 0;
				m->phase = M_POST_ALL;
				break;
			}
			m->phase = M_WAIT;
			break;
		case M_WAIT:
			if (fwait(&m->futex, op))
				return;
			m->phase = M_SLEPT;
			if (b->sb_sleep_us) {
				u64 jitter = prng_below(&m->rnd, b->sb_sleep_us / 4);

				op_sleep(op, (b->sb_sleep_us + jitter) * NSEC_PER_USEC);
				return;
			}
			break;
		case M_SLEPT:
			m->phase = M_LOOP;
			break;
		case M_POST_ALL:
			while (m->posted < b->sb_workers)
				if (fpost(&m->workers[m->posted++].futex, op))
					return;
			m->phase = M_JOIN;
			op_wait_children(op, WAIT_ANY);
			return;
		case M_JOIN:
		default:
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program msg_prog = { .next = msg_next };

enum { P_START, P_SPAWN, P_SLEEP, P_CHECK, P_POST_ALL, P_JOIN, P_DONE };

static void main_next(struct work_task *wt, struct op_desc *op)
{
	struct sb_state *st = wt->state;
	struct bench *b = st->b;

	for (;;) {
		switch (st->phase) {
		case P_START:
			b->start_ns = cpu_now();
			b->started = true;
			st->phase = P_SPAWN;
			break;
		case P_SPAWN:
			if (st->spawned < b->sb_msg_threads) {
				*op = (struct op_desc){ .kind = OP_SPAWN };
				op->spawn.prog = &msg_prog;
				op->spawn.state = &st->msgs[st->spawned++];
				op->spawn.thread = true;
				op->spawn.comm = "schbench";
				return;
			}
			/* sleep_for_runtime() */
			st->sleep_start_us = gtod_us();
			st->phase = P_CHECK;
			op_sleep(op, (u64)b->sb_runtime_s * NSEC_PER_SEC);
			return;
		case P_CHECK:
			if (gtod_us() - st->sleep_start_us < (u64)b->sb_runtime_s * 1000000) {
				op_sleep(op, NSEC_PER_SEC);
				return;
			}
			st->stopping = true;
			st->phase = P_POST_ALL;
			break;
		case P_POST_ALL:
			while (st->posted < b->sb_msg_threads)
				if (fpost(&st->msgs[st->posted++].futex, op))
					return;
			st->phase = P_JOIN;
			op_wait_children(op, WAIT_ANY);
			return;
		case P_JOIN:
			b->stop_ns = cpu_now();
			b->stopped = true;
			st->phase = P_DONE;
			break;
		default:
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program main_prog = { .next = main_next };

void schbench_start(struct bench *b)
{
	struct sb_state *st = xcalloc(1, sizeof(*st));

	b->priv = st;
	b->timeout_ns = (u64)b->sb_runtime_s * NSEC_PER_SEC;
	st->b = b;
	st->msgs = xcalloc(b->sb_msg_threads, sizeof(*st->msgs));
	for (unsigned int i = 0; i < b->sb_msg_threads; i++) {
		struct sb_msg *m = &st->msgs[i];

		m->st = st;
		m->workers = xcalloc(b->sb_workers, sizeof(*m->workers));
		futex_init(&m->futex, FUTEX_BLOCKED);
		for (unsigned int j = 0; j < b->sb_workers; j++) {
			m->workers[j].msg = m;
			futex_init(&m->workers[j].futex, FUTEX_BLOCKED);
		}
		prng_init(&m->rnd, machine.seed, PRNG_STREAM_WORKLOAD + 2000 + i);
	}
	work_start_allowed("schbench", &main_prog, st, 0, b->taskset_cpus);
}

void schbench_free(struct bench *b)
{
	struct sb_state *st = b->priv;

	if (st) {
		for (unsigned int i = 0; i < b->sb_msg_threads; i++)
			free(st->msgs[i].workers);
		free(st->msgs);
	}
	free(b->sb_stats);
}
