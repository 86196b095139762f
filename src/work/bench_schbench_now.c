// SPDX-License-Identifier: GPL-2.0-only
/*
 * schbench -m M -t T -r R -F KB -n N -s US -i S [-L] [-p BYTES]
 *
 * The current schbench (masoncl/schbench 24e32b8, December 2025) in its
 * default mode and its pipe mode (-p): no -R, -A, -C, -w, -z, pinning or
 * --split. main()
 * starts M message threads and each starts T workers (T = 0: ceil(CPUs /
 * M)), all threads of one process.
 *
 * A worker loops: msg_and_wait() as in 2016 (it sets its futex BLOCKED,
 * stamps wake_time, pushes itself on its message thread's list, posts the
 * message thread and waits on its own futex; back from it, gettimeofday() -
 * wake_time is a wakeup latency sample). Then a request: it reads the
 * clock, usleep(S), and do_work(): unless -L, lock_this_cpu() (the CPU it
 * is on, pthread_mutex_trylock() in a loop until it gets that CPU's lock,
 * then if it has migrated meanwhile it unlocks and starts over), N naive
 * multiplies of its own two size x size matrices (size = sqrt(F KiB / 3 /
 * 8)), unlock. gettimeofday() - that clock read is a request latency
 * sample, and its loop count goes up by one.
 *
 * A message thread loops: futex = BLOCKED, xlist_wake_all() (one clock
 * read, copied to the wake_time of each worker on its list, last pushed
 * first, and fposted), fwait() on its own futex. It does not sleep: the
 * workers' usleep is the think time now. Stopping, it wakes its list once
 * more, then posts and joins its workers.
 *
 * main (sleep_for_runtime()) every second: the requests done since its
 * last look, per second, are one RPS sample; every -i seconds it prints
 * the three histograms as they stand, the sched delay and the current RPS.
 * After R s it sets stopping, posts and joins the message threads.
 *
 * Pipe mode (-p BYTES) is the same handoff without the request: before it
 * queues itself a worker memset()s BYTES of its page, and the message
 * thread, taking its list whole, memset()s each worker's page and reads
 * the clock for that worker just before posting it. The wakeup latency is
 * then post to run; the request is two clock reads with nothing between,
 * a 0 us sample the tool drops. main() only sleeps out -r; the result is
 * the wakeup histogram (with its 20th percentile) and "avg worker
 * transfer": loops per second of a worker's run time, and loops * BYTES
 * per second of it.
 */
#include "work/bench.h"
#include "work/schbench_futex.h"
#include "work/schbench_hist.h"

#include "kernel/sched.h"
#include "sim/alloc.h"
#include "sim/machine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * One multiply-add of do_some_math()'s inner loop, in ps of user work at
 * capacity 1024 and full frequency. m3[i * n + j] += m1[..] * m2[..] on
 * unsigned longs: the compiler cannot prove m3 apart from m1 and m2 (all
 * three are offsets into one malloc'd block), so the sum goes through memory
 * every iteration and the loop is bound by that chain: a store-to-load
 * forward plus the add, about 5 cycles on current cores (Agner Fog, "The
 * microarchitecture of Intel, AMD and VIA CPUs": store forwarding latency
 * 4-5 clocks on Skylake and Zen; Arm's Neoverse N1 optimization guide: 4-5
 * cycles store-to-load, 1 the add). At 3.0 GHz (the Ampere Altra Q80-30's
 * and about the reference machines' clock) that is 5 / 3.0 = 1.667 ns.
 * Not tuned to any measured schbench result.
 */
#define SCHBENCH_MAC_PS 1667

/*
 * lock_this_cpu() spins on pthread_mutex_trylock() with a pause in
 * between; the model looks at the lock every this much user work while it
 * is held by another worker.
 */
#define SCHBENCH_LOCK_SPIN_NS 1000

struct sbn_state;
struct sbn_msg;

struct sbn_worker {
	struct sbn_msg *msg;
	struct sbn_worker *next;	/* on the message thread's list */
	struct task_struct *task;
	struct futex futex;
	u64 wake_time_us;		/* gettimeofday() as us */
	u64 work_start_us;
	u64 loops;
	unsigned long ops_left;
	unsigned int lock_cpu;
	bool locked;
	u32 wake_min, wake_max;		/* this thread's wakeup_stats min and max */
	u32 req_min, req_max;		/* and its request_stats' */
	u64 start_us;			/* pipe mode: its start, for its runtime */
	bool started;
	int phase;
};

struct sbn_msg {
	struct sbn_state *st;
	struct sbn_worker *workers;
	struct sbn_worker *list;	/* workers waiting for a reply, last pushed first */
	struct task_struct *task;
	struct futex futex;
	unsigned int spawned;
	unsigned int posted;
	u64 wake_now_us;		/* xlist_wake_all()'s clock read */
	int wake_runs;			/* xlist_wake_all() passes left before the exit */
	struct sbn_worker *spliced;	/* pipe mode: the list this pass took whole */
	bool page_written;		/* pipe mode: the next worker's page is written */
	int phase;
};

struct sbn_state {
	struct bench *b;
	struct sbn_msg *msgs;
	bool *cpu_locked;		/* per_cpu_locks[], one a CPU (get_nprocs()) */
	unsigned int nr_locks;
	unsigned int workers;		/* per message thread */
	u64 matrix_ns;			/* one do_some_math() */
	u64 pipe_ns;			/* pipe mode: one memset() of a worker's page */
	u64 footprint;			/* a worker's working set */
	unsigned int spawned;
	unsigned int posted;
	bool stopping;
	u64 start_us, last_calc_us, last_rps_us, last_loops;
	FILE *log;			/* the interval reports */
	size_t log_len;
	int phase;
};

unsigned int schbench_now_workers(const struct bench *b)
{
	if (b->sb_workers)
		return b->sb_workers;
	return (machine.nr_cpus + b->sb_msg_threads - 1) / b->sb_msg_threads;
}

unsigned long schbench_now_matrix_size(const struct bench *b)
{
	return (unsigned long)sqrt((double)((unsigned long)b->sb_footprint_kb * 1024 / 3 /
					    sizeof(unsigned long)));
}

static u32 clamp_us(u64 us)
{
	return (u32)min(us, (u64)UINT32_MAX);
}

enum {
	W_LOOP, W_PAGE, W_POST, W_WAIT, W_FWAIT, W_SAMPLE, W_SLEEP, W_LOCK, W_SPIN, W_MATH, W_DONE,
	W_PIPE_DONE,
};

static void worker_next(struct work_task *wt, struct op_desc *op)
{
	struct sbn_worker *w = wt->state;
	struct sbn_msg *m = w->msg;
	struct sbn_state *st = m->st;
	struct bench *b = st->b;
	u64 now;

	w->task = wt->task;
	if (!w->started) {
		w->started = true;
		w->start_us = gtod_us();
	}
	for (;;) {
		switch (w->phase) {
		case W_LOOP:
			if (st->stopping) {
				/* the thread's runtime, which pipe mode's rate divides by */
				b->sb_loop_runtime_us += gtod_us() - w->start_us;
				op_simple(op, OP_EXIT);
				return;
			}
			w->phase = b->sb_pipe ? W_PAGE : W_POST;
			break;
		case W_PAGE:
			/* pipe mode: memset(td->pipe_page, 2, pipe_test) */
			w->phase = W_POST;
			op_run(op, st->pipe_ns);
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
		case W_SAMPLE:
			now = gtod_us();
			if (now > w->wake_time_us) {
				u32 us = clamp_us(now - w->wake_time_us);

				schbench_add_lat_cur(b->sb_stats, us);
				schbench_combine_minmax(&w->wake_min, &w->wake_max, us, us);
			}
			/* a request follows even when stopping; in pipe mode an empty one */
			w->phase = b->sb_pipe ? W_PIPE_DONE : W_SLEEP;
			break;
		case W_PIPE_DONE:
			/* gettimeofday() twice, nothing between: a 0 us request, not recorded */
			w->loops++;
			b->sb_loops++;
			w->phase = W_LOOP;
			break;
		case W_SLEEP:
			w->work_start_us = gtod_us();
			w->phase = W_LOCK;
			if (b->sb_sleep_us) {
				op_sleep(op, (u64)b->sb_sleep_us * NSEC_PER_USEC);
				return;
			}
			break;
		case W_LOCK:
			/* do_work(): lock_this_cpu() unless -L */
			w->ops_left = b->sb_ops;
			if (b->sb_no_lock) {
				w->phase = W_MATH;
				break;
			}
			w->lock_cpu = task_cpu(w->task);
			w->phase = W_SPIN;
			break;
		case W_SPIN:
			if (st->cpu_locked[w->lock_cpu]) {
				op_run(op, SCHBENCH_LOCK_SPIN_NS);
				return;
			}
			st->cpu_locked[w->lock_cpu] = true;
			if (task_cpu(w->task) != w->lock_cpu) {
				/* we got the lock but we migrated */
				st->cpu_locked[w->lock_cpu] = false;
				w->phase = W_LOCK;
				break;
			}
			w->locked = true;
			w->phase = W_MATH;
			break;
		case W_MATH:
			if (w->ops_left && st->matrix_ns) {
				w->ops_left--;
				op_run(op, st->matrix_ns);
				return;
			}
			if (w->locked) {
				st->cpu_locked[w->lock_cpu] = false;
				w->locked = false;
			}
			w->phase = W_DONE;
			break;
		case W_DONE:
			now = gtod_us();
			w->loops++;
			b->sb_loops++;
			if (now > w->work_start_us) {
				u32 us = clamp_us(now - w->work_start_us);

				schbench_add_lat_cur(b->sb_req_stats, us);
				schbench_combine_minmax(&w->req_min, &w->req_max, us, us);
			}
			w->phase = W_LOOP;
			break;
		}
	}
}

static const struct program worker_prog = { .next = worker_next };

enum { M_SPAWN, M_LOOP, M_WAKE, M_AFTER_WAKE, M_WAIT, M_POST_ALL, M_JOIN };

/*
 * pipe mode's xlist_wake_all(): the list taken whole (xlist_splice()),
 * then for each worker, its page written (memset(list->pipe_page, 1,
 * pipe_test)), its wake_time read after that, and an fpost. True with the
 * next operation in @op.
 */
static bool wake_next_pipe(struct sbn_msg *m, struct op_desc *op)
{
	while (m->spliced) {
		struct sbn_worker *w = m->spliced;

		if (!m->page_written) {
			m->page_written = true;
			*op = (struct op_desc){ .kind = OP_RUN, .ns = m->st->pipe_ns };
			return true;
		}
		m->page_written = false;
		m->spliced = w->next;
		w->next = NULL;
		w->wake_time_us = gtod_us();
		if (fpost(&w->futex, op))
			return true;
	}
	return false;
}

/*
 * xlist_wake_all(), one fpost at a time: true with a FUTEX_WAKE in @op.
 * The tool takes the list whole first; here a worker that queues while
 * the posts go on is posted in this pass rather than the next (posts are
 * short; pipe mode, whose page writes are not, splices: wake_next_pipe()).
 */
static bool wake_next(struct sbn_msg *m, u64 now_us, struct op_desc *op)
{
	if (m->st->b->sb_pipe)
		return wake_next_pipe(m, op);
	while (m->list) {
		struct sbn_worker *w = m->list;

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
	struct sbn_msg *m = wt->state;
	struct sbn_state *st = m->st;

	m->task = wt->task;
	for (;;) {
		switch (m->phase) {
		case M_SPAWN:
			if (m->spawned < st->workers) {
				*op = (struct op_desc){ .kind = OP_SPAWN };
				op->spawn.prog = &worker_prog;
				op->spawn.state = &m->workers[m->spawned++];
				op->spawn.thread = true;
				op->spawn.comm = "schbench-worker";
				op->spawn.footprint = st->footprint;
				return;
			}
			m->phase = M_LOOP;
			break;
		case M_LOOP:
			/* run_msg_thread() */
			m->futex.val = FUTEX_BLOCKED;
			m->wake_runs = 1;
			m->phase = M_WAKE;
			m->wake_now_us = gtod_us();
			if (st->b->sb_pipe) {
				m->spliced = m->list;
				m->list = NULL;
			}
			break;
		case M_WAKE:
			if (wake_next(m, m->wake_now_us, op))
				return;
			m->phase = M_AFTER_WAKE;
			break;
		case M_AFTER_WAKE:
			if (st->stopping && m->wake_runs) {
				m->wake_runs--;
				m->wake_now_us = gtod_us();
				if (st->b->sb_pipe) {
					m->spliced = m->list;
					m->list = NULL;
				}
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
			m->phase = M_LOOP;
			break;
		case M_POST_ALL:
			while (m->posted < st->workers)
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

/* read_sched_delay(): /proc/TID/schedstat's run delay / timeslices, in ns */
static u64 sched_delay(const struct task_struct *p)
{
	if (!p || !p->stats.pcount)
		return 0;
	return p->stats.run_delay / p->stats.pcount;
}

/* the histograms' min and max as combine_message_thread_stats() leaves them */
static void combine_minmax(struct sbn_state *st)
{
	struct bench *b = st->b;

	b->sb_stats->min = b->sb_stats->max = 0;
	b->sb_req_stats->min = b->sb_req_stats->max = 0;
	for (unsigned int i = 0; i < b->sb_msg_threads; i++) {
		for (unsigned int j = 0; j < st->workers; j++) {
			const struct sbn_worker *w = &st->msgs[i].workers[j];

			schbench_combine_minmax(&b->sb_stats->min, &b->sb_stats->max, w->wake_min,
						w->wake_max);
			schbench_combine_minmax(&b->sb_req_stats->min, &b->sb_req_stats->max,
						w->req_min, w->req_max);
		}
	}
}

/* an interval report of sleep_for_runtime() */
static void interval_report(struct sbn_state *st, u64 runtime_s, double rps)
{
	struct bench *b = st->b;
	u64 msg_delay = 0, worker_delay = 0;

	if (!st->log) {
		b->sb_log = NULL;
		st->log = open_memstream(&b->sb_log, &st->log_len);
		if (!st->log)
			return;
	}
	combine_minmax(st);
	for (unsigned int i = 0; i < b->sb_msg_threads; i++) {
		msg_delay += sched_delay(st->msgs[i].task);
		for (unsigned int j = 0; j < st->workers; j++)
			worker_delay += sched_delay(st->msgs[i].workers[j].task);
	}
	msg_delay /= b->sb_msg_threads;
	worker_delay /= (u64)b->sb_msg_threads * st->workers;
	schbench_show_latencies(st->log, b->sb_stats, "Wakeup Latencies", "usec", runtime_s,
				SCHBENCH_PLIST_FOR_LAT, SCHBENCH_PLIST_99);
	schbench_show_latencies(st->log, b->sb_req_stats, "Request Latencies", "usec", runtime_s,
				SCHBENCH_PLIST_FOR_LAT, SCHBENCH_PLIST_99);
	schbench_show_latencies(st->log, b->sb_rps_stats, "RPS", "requests", runtime_s,
				SCHBENCH_PLIST_FOR_RPS, SCHBENCH_PLIST_50);
	fprintf(st->log, "sched delay: message %llu (usec) worker %llu (usec)\n",
		(unsigned long long)(msg_delay / 1000), (unsigned long long)(worker_delay / 1000));
	fprintf(st->log, "current rps: %.2f\n", rps);
}

enum { P_START, P_SPAWN, P_TICK, P_POST_ALL, P_JOIN, P_DONE };

/* one pass of sleep_for_runtime()'s loop: true when the runtime is up */
static bool tick(struct sbn_state *st)
{
	struct bench *b = st->b;
	u64 now = gtod_us();
	u64 runtime_delta = now - st->start_us;
	u64 delta = now - st->last_rps_us;
	bool done = runtime_delta >= (u64)b->sb_runtime_s * 1000000;
	double rps;

	/* pipe mode only sleeps out the runtime */
	if (b->sb_pipe)
		return done;
	/* (loops * USEC_PER_SEC) / delta: 0 / 0 or x / 0 is not finite, 0 */
	rps = (double)((b->sb_loops - st->last_loops) * 1000000) / (double)delta;
	st->last_loops = b->sb_loops;
	st->last_rps_us = now;
	schbench_add_lat_cur(b->sb_rps_stats, isfinite(rps) ? (unsigned int)rps : 0);
	if (now - st->last_calc_us >= (u64)b->sb_interval_s * 1000000) {
		st->last_calc_us = now;
		interval_report(st, runtime_delta / 1000000, rps);
	}
	return done;
}

static void main_next(struct work_task *wt, struct op_desc *op)
{
	struct sbn_state *st = wt->state;
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
				op->spawn.comm = "schbench-msg";
				/* pipe mode: it writes each of its workers' pages */
				if (b->sb_pipe)
					op->spawn.footprint = FOOTPRINT_TASK +
							      (u64)st->workers * b->sb_pipe;
				return;
			}
			st->start_us = st->last_calc_us = st->last_rps_us = gtod_us();
			st->phase = P_TICK;
			break;
		case P_TICK:
			if (!tick(st)) {
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
			combine_minmax(st);
			if (st->log) {
				fclose(st->log);
				st->log = NULL;
			}
			st->phase = P_DONE;
			break;
		default:
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program main_prog = { .next = main_next };

void schbench_pipe_rates(const struct bench *b, double *ops_per_sec, u64 *bytes_per_sec)
{
	u64 runtime = b->sb_loop_runtime_us;

	/* loops * USEC_PER_SEC / the workers' summed runtime, the bytes in integers */
	*ops_per_sec = runtime ? (double)(b->sb_loops * 1000000) / (double)runtime : 0;
	*bytes_per_sec = runtime ? b->sb_loops * b->sb_pipe * 1000000 / runtime : 0;
}

void schbench_now_start(struct bench *b)
{
	struct sbn_state *st = xcalloc(1, sizeof(*st));
	unsigned long size = schbench_now_matrix_size(b);

	b->priv = st;
	b->timeout_ns = (u64)b->sb_runtime_s * NSEC_PER_SEC;
	st->b = b;
	st->workers = schbench_now_workers(b);
	st->nr_locks = machine.nr_cpus;
	st->cpu_locked = xcalloc(st->nr_locks, sizeof(*st->cpu_locked));
	st->matrix_ns = (u64)size * size * size * SCHBENCH_MAC_PS / 1000;
	/* its three matrices (malloc'd per worker), and the task's own part */
	st->footprint = FOOTPRINT_TASK + 3 * sizeof(unsigned long) * size * size;
	if (b->sb_pipe) {
		/*
		 * pipe mode: no matrix is touched, only pipe_test bytes of the
		 * worker's page, by it and by its message thread in turn: each
		 * memset() at the speed of a user copy of data another CPU
		 * wrote last (copy_ns_per_kb, docs/cost-model.md)
		 */
		st->footprint = FOOTPRINT_TASK + b->sb_pipe;
		st->pipe_ns = cost_copy(machine.cost, b->sb_pipe);
	}
	st->msgs = xcalloc(b->sb_msg_threads, sizeof(*st->msgs));
	for (unsigned int i = 0; i < b->sb_msg_threads; i++) {
		struct sbn_msg *m = &st->msgs[i];

		m->st = st;
		m->workers = xcalloc(st->workers, sizeof(*m->workers));
		futex_init(&m->futex, FUTEX_BLOCKED);
		for (unsigned int j = 0; j < st->workers; j++) {
			m->workers[j].msg = m;
			futex_init(&m->workers[j].futex, FUTEX_BLOCKED);
		}
	}
	work_start_allowed("schbench", &main_prog, st, 0, b->taskset_cpus);
}

void schbench_now_free(struct bench *b)
{
	struct sbn_state *st = b->priv;

	if (st) {
		if (st->log)
			fclose(st->log);
		for (unsigned int i = 0; i < b->sb_msg_threads; i++)
			free(st->msgs[i].workers);
		free(st->msgs);
		free(st->cpu_locked);
	}
	free(b->sb_stats);
	free(b->sb_req_stats);
	free(b->sb_rps_stats);
	free(b->sb_log);
}
