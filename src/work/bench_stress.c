// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng's main process and what its instances share (stress-ng.c
 * 0.22.00: stress_run(), stress_run_child(), stress_metrics_dump()'s sums).
 *
 * The main process reads the clock and forks every instance, stressor by
 * stressor in the order the command line named them, then waits for all of
 * them and reads the clock again ("successful run completed in"). An
 * instance applies --sched, reads the clock and arms alarm(T) (T the
 * --timeout, else a day), runs its stressor (work/stress_NAME.c), reads the
 * clock again: its duration. The NAME-ops budget M of a stressor with N
 * instances is shared, ceil(M / N) each (stress_parallel_setup()).
 *
 * A stressor's row: the sum of its instances' bogo ops; their user and
 * system time with that of the processes they forked (RUSAGE_SELF +
 * RUSAGE_CHILDREN); the mean of their durations ("real time"); and the
 * harmonic mean of their own metric, where the stressor sets one.
 */
#include "work/stress.h"

#include "sim/alloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const stressor_names[NR_STRESSOR_KINDS] = {
	[STRESS_CPU] = "cpu",	[STRESS_SWITCH] = "switch",	[STRESS_YIELD] = "yield",
	[STRESS_PIPE] = "pipe", [STRESS_AFFINITY] = "affinity",
};

const char *stress_metric_name(enum stressor_kind kind)
{
	switch (kind) {
	case STRESS_SWITCH:
		return "nanosecs per context switch (pipe method)";
	case STRESS_YIELD:
		return "ns duration per sched_yield call";
	case STRESS_PIPE:
		return "MB per sec pipe write rate";
	default:
		return NULL;
	}
}

static const struct program *const programs[NR_STRESSOR_KINDS] = {
	[STRESS_CPU] = &stress_cpu_prog,	   [STRESS_SWITCH] = &stress_switch_prog,
	[STRESS_YIELD] = &stress_yield_prog,	   [STRESS_PIPE] = &stress_pipe_prog,
	[STRESS_AFFINITY] = &stress_affinity_prog,
};

static void (*const inits[NR_STRESSOR_KINDS])(struct stress_instance *) = {
	[STRESS_CPU] = stress_cpu_init,		  [STRESS_SWITCH] = stress_switch_init,
	[STRESS_YIELD] = stress_yield_init,	  [STRESS_PIPE] = stress_pipe_init,
	[STRESS_AFFINITY] = stress_affinity_init,
};

static const char *const comms[NR_STRESSOR_KINDS] = {
	[STRESS_CPU] = "stress-ng-cpu",		[STRESS_SWITCH] = "stress-ng-switch",
	[STRESS_YIELD] = "stress-ng-yield",	[STRESS_PIPE] = "stress-ng-pipe",
	[STRESS_AFFINITY] = "stress-ng-affini",
};

struct stress_main {
	struct bench *b;
	struct stress_conf *c;
	unsigned int stressor, spawned; /* the next instance to fork */
	int phase;
};

bool stress_flag(const struct stress_instance *in)
{
	return !in->alarmed && cpu_now() < in->deadline;
}

bool stress_continue(const struct stress_instance *in)
{
	return stress_flag(in) &&
	       (!in->s->instance_max_ops || in->counter < in->s->instance_max_ops);
}

static void alarm_fn(struct hrtimer *t)
{
	struct stress_instance *in = container_of(t, struct stress_instance, alarm);

	/* the handler clears the flag; a blocked syscall returns EINTR */
	in->alarmed = true;
	work_signal(in->wt);
}

/*
 * stress_set_sched()'s SCHED_DEADLINE attributes: reset-on-fork (the
 * instance's own children are SCHED_OTHER), and without --sched-deadline
 * its own 90000 ns of every 100000 whatever --sched-runtime and
 * --sched-period say. SCHED_FLAG_RECLAIM is never set (--sched-reclaim
 * only sets OPT_FLAGS_DEADLINE_GRUB).
 */
struct sched_attr stress_sched_dl_attr(const struct stress_conf *c)
{
	struct sched_attr a = { .sched_policy = SCHED_DEADLINE,
				.sched_flags = SCHED_FLAG_RESET_ON_FORK };

	if (!c->sched_deadline) {
		a.sched_runtime = STRESS_DL_DEFAULT_RUNTIME_NS;
		a.sched_deadline = STRESS_DL_DEFAULT_DEADLINE_NS;
	} else {
		a.sched_runtime = c->sched_runtime;
		a.sched_deadline = c->sched_deadline;
		a.sched_period = c->sched_period;
	}
	return a;
}

struct sched_attr stress_sched_attr(int policy, int prio)
{
	struct sched_attr a = { .sched_policy = (u32)policy };

	if (policy == SCHED_FIFO || policy == SCHED_RR)
		a.sched_priority = (u32)prio;
	return a;
}

void stress_log(struct stress_instance *in, const char *fmt, ...)
{
	struct stress_conf *c = in->b->stress;
	va_list ap;

	if (!c->logf) {
		c->logf = open_memstream(&c->log, &c->log_len);
		if (!c->logf)
			return;
	}
	fprintf(c->logf, "stress-ng: info:  [%d] ", in->task->pid);
	va_start(ap, fmt);
	vfprintf(c->logf, fmt, ap);
	va_end(ap);
	fflush(c->logf);
}

bool stress_instance_begin(struct stress_instance *in, struct work_task *wt, struct op_desc *op)
{
	const struct stress_conf *c = in->b->stress;
	u64 timeout = in->b->timeout_ns ? in->b->timeout_ns : STRESS_DEFAULT_TIMEOUT_NS;

	in->wt = wt;
	in->task = wt->task;
	/* stress_set_sched()'s report of a sched_setattr() the kernel refused */
	if (in->sched_pending) {
		s64 ret = (s64)wt->result;

		in->sched_pending = false;
		if (ret < 0)
			stress_log(in, "sched: cannot set scheduler 'deadline', errno=%d (%s)\n",
				   (int)-ret, strerror((int)-ret));
	}
	/* --sched deadline: sched_get_priority_min/max() are 0 */
	if (c->sched_policy == SCHED_DEADLINE && !in->sched_done) {
		in->sched_done = true;
		if (c->sched_prio < 0) {
			stress_log(in, "sched: priority not given, defaulting to 0\n");
		} else {
			stress_log(in, "sched: scheduler priority level must be set between 0 and 0\n");
			goto started;
		}
		in->sched_pending = true;
		*op = (struct op_desc){ .kind = OP_SCHED_SETATTR, .attr = stress_sched_dl_attr(c) };
		return true;
	}
	/* stress_sched_settings_apply(false): the instance's own policy */
	if (c->sched_policy != STRESS_SCHED_NONE && !in->sched_done) {
		bool rt = c->sched_policy == SCHED_FIFO || c->sched_policy == SCHED_RR;
		int prio = c->sched_prio;

		in->sched_done = true;
		if (rt && prio < 0) {
			/* (max - min) / 2 of SCHED_FIFO/RR's 1..99 */
			prio = (99 - 1) / 2;
			stress_log(in,
				   "sched: priority not given (or set to -1), defaulting to %d\n",
				   prio);
		} else if (!rt && prio >= 0) {
			stress_log(in, "sched: ignoring priority level for scheduler class '%s'\n",
				   c->sched_policy == SCHED_BATCH ? "batch" :
				   c->sched_policy == SCHED_IDLE  ? "idle" :
								    "other");
		}
		*op = (struct op_desc){ .kind = OP_SCHED_SETATTR,
					.attr = stress_sched_attr(c->sched_policy, prio) };
		return true;
	}
started:
	in->started = true;
	in->start_ns = cpu_now();
	in->deadline = in->start_ns + timeout;
	/* the cpu stressor checks the flag between bogo ops: no signal needed */
	if (in->s->kind != STRESS_CPU) {
		hrtimer_init(&in->alarm, alarm_fn);
		hrtimer_start(&in->alarm, in->deadline);
	}
	return false;
}

void stress_instance_exit(struct stress_instance *in, struct op_desc *op)
{
	in->finish_ns = cpu_now();
	if (in->s->kind != STRESS_CPU)
		hrtimer_cancel(&in->alarm);
	*op = (struct op_desc){ .kind = OP_EXIT };
}

void stress_spawn(struct stress_instance *in, const struct program *prog, void *state,
		  u64 footprint, struct op_desc *op)
{
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = prog;
	op->spawn.state = state;
	op->spawn.thread = false;
	op->spawn.comm = in->task->comm;
	op->spawn.footprint = footprint;
}

void stress_child_started(struct stress_instance *in, struct task_struct *p)
{
	if (in->nr_children == in->children_cap) {
		in->children_cap = in->children_cap ? 2 * in->children_cap : 4;
		in->children = xrealloc(in->children, in->children_cap * sizeof(*in->children));
	}
	in->children[in->nr_children++] = p;
}

void stress_op_syscall(struct op_desc *op)
{
	/* clock_nanosleep() of a time past: entry and exit, nothing else */
	*op = (struct op_desc){ .kind = OP_SLEEP_UNTIL, .ns = 0 };
}

struct channel *stress_packet_pipe(unsigned int slots, unsigned int packet)
{
	struct channel *ch = channel_new(CH_PIPE);

	/* a buffer per write: the pipe is full with @slots packets in it */
	ch->capacity = (u64)slots * packet;
	return ch;
}

static void wake_writer(struct work_task *wt, void *arg)
{
	struct channel *ch = arg;

	(void)wt;
	/* pipe_read(): wake_up_interruptible_sync_poll(&pipe->wr_wait) when it was full */
	if (wq_has_sleeper(&ch->wr_wait))
		__wake_up(&ch->wr_wait, TASK_INTERRUPTIBLE, 1, WF_SYNC);
}

bool stress_packet_read_done(struct channel *ch, unsigned int packet, struct op_desc *op)
{
	if (packet >= 4096)
		return false;
	*op = (struct op_desc){ .kind = OP_CALL, .call = wake_writer, .arg = ch };
	return true;
}

/* @p's user and system time, as getrusage() splits its runtime */
static void add_times(struct stressor *s, const struct task_struct *p)
{
	s->utime_ns += p->utime;
	s->stime_ns += p->se.sum_exec_runtime - min(p->utime, p->se.sum_exec_runtime);
}

/* the rows, once every instance has been reaped */
static void collect(struct stress_conf *c)
{
	for (unsigned int k = 0; k < c->nr; k++) {
		struct stressor *s = &c->s[k];
		double recip = 0;
		unsigned int n = 0;
		u64 real = 0;

		s->bogo_ops = s->utime_ns = s->stime_ns = 0;
		for (unsigned int i = 0; i < s->nr; i++) {
			const struct stress_instance *in = &s->inst[i];

			s->bogo_ops += in->counter;
			real += in->finish_ns - in->start_ns;
			if (in->task)
				add_times(s, in->task);
			for (unsigned int j = 0; j < in->nr_children; j++)
				add_times(s, in->children[j]);
			/* STRESS_METRIC_HARMONIC_MEAN over the nonzero values */
			if (in->metric != 0) {
				recip += 1.0 / in->metric;
				n++;
			}
		}
		s->real_ns = real / s->nr;
		s->metric = recip > 0 ? n / recip : 0;
	}
}

static void mark(struct work_task *wt, void *arg)
{
	struct stress_main *m = arg;
	struct bench *b = m->b;
	const struct stressor *first = &m->c->s[0];

	(void)wt;
	if (!b->started) {
		b->start_ns = cpu_now();
		b->started = true;
		return;
	}
	b->stop_ns = cpu_now();
	b->stopped = true;
	collect(m->c);
	/* the benchmark's metrics are the first stressor's row (JSON "stress" has all) */
	b->bogo_ops = first->bogo_ops;
	b->utime_ns = first->utime_ns;
	b->stime_ns = first->stime_ns;
	b->real_ns = first->real_ns;
	if (m->c->logf) {
		fclose(m->c->logf);
		m->c->logf = NULL;
	}
}

static void main_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_main *m = wt->state;
	struct stress_conf *c = m->c;

	switch (m->phase) {
	case 0:
		m->phase = 1;
		*op = (struct op_desc){ .kind = OP_CALL, .call = mark, .arg = m };
		return;
	case 1:
		while (m->stressor < c->nr && m->spawned == c->s[m->stressor].nr) {
			m->stressor++;
			m->spawned = 0;
		}
		if (m->stressor < c->nr) {
			struct stressor *s = &c->s[m->stressor];
			struct stress_instance *in = &s->inst[m->spawned++];

			*op = (struct op_desc){ .kind = OP_SPAWN };
			op->spawn.prog = programs[s->kind];
			op->spawn.state = in;
			op->spawn.thread = false;
			/* stress_set_proc_name(): "stress-ng-NAME", cut to TASK_COMM_LEN */
			op->spawn.comm = comms[s->kind];
			op->spawn.footprint = s->kind == STRESS_CPU ? stress_cpu_footprint() :
								      FOOTPRINT_TASK;
			return;
		}
		m->phase = 2;
		*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
		return;
	case 2:
		m->phase = 3;
		*op = (struct op_desc){ .kind = OP_CALL, .call = mark, .arg = m };
		return;
	default:
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
}

static const struct program main_prog = { .next = main_next };

void stress_start(struct bench *b)
{
	struct stress_conf *c = b->stress;
	struct stress_main *m = xcalloc(1, sizeof(*m));

	b->priv = m;
	m->b = b;
	m->c = c;
	for (unsigned int k = 0; k < c->nr; k++) {
		struct stressor *s = &c->s[k];

		s->nr = s->instances ? s->instances : machine.nr_cpus;
		/* stress_parallel_setup(): the budget shared equally, rounding up */
		s->instance_max_ops = DIV_ROUND_UP(s->max_ops, s->nr);
		s->inst = xcalloc(s->nr, sizeof(*s->inst));
		for (unsigned int i = 0; i < s->nr; i++) {
			struct stress_instance *in = &s->inst[i];

			in->b = b;
			in->s = s;
			in->idx = i;
			/* a background stress-ng (--also) draws its own numbers */
			prng_init(&in->rnd, machine.seed,
				  PRNG_STREAM_WORKLOAD + 1000 + (u64)s->kind * 10000 + i +
					  (u64)b->group * 100000);
			inits[s->kind](in);
		}
	}
	/*
	 * the progress line: the op budgets when every stressor has one
	 * (the yield stressor's counts only at its end), else --timeout
	 */
	b->progress_total = 0;
	for (unsigned int k = 0; k < c->nr; k++) {
		if (!c->s[k].max_ops || c->s[k].kind == STRESS_YIELD) {
			b->progress_total = 0;
			break;
		}
		b->progress_total += c->s[k].instance_max_ops * c->s[k].nr;
	}
	/* the first stressor's, for bench_finish()'s metrics and the tests */
	b->nr_workers = c->s[0].nr;
	b->worker_max_ops = c->s[0].instance_max_ops;
	work_start_allowed("stress-ng", &main_prog, m, 0, b->taskset_cpus);
}

void stress_free(struct bench *b)
{
	struct stress_conf *c = b->stress;

	if (!c)
		return;
	for (unsigned int k = 0; k < c->nr; k++) {
		struct stressor *s = &c->s[k];

		for (unsigned int i = 0; s->inst && i < s->nr; i++) {
			if (s->inst[i].free_priv)
				s->inst[i].free_priv(&s->inst[i]);
			free(s->inst[i].priv);
			free(s->inst[i].children);
		}
		free(s->inst);
	}
	if (c->logf)
		fclose(c->logf);
	free(c->log);
	free(c);
	b->stress = NULL;
}
