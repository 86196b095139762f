// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app FILE.json (scheduler-tools/rt-app, src/rt-app.c at commit 55cb0c0).
 *
 * main() calibrates (or takes global "calibration"), creates one thread
 * per instance of each task (threads of one process, named NAME-IND), and
 * sleeps "duration" seconds before cancelling them, or joins them. Each
 * thread (thread_body()): thread 0 reads the clock as t_zero, all meet at
 * a start barrier, t_first = t_zero (+ "delay", slept to with
 * clock_nanosleep(TIMER_ABSTIME)), the policy is applied, then loops over
 * its phases: per loop, the events in file order, then one log line
 * (perf, run, period, start, end, rel_st, slack, c_duration, c_period,
 * wu_lat).
 *
 * Events, as run_event() does them:
 *  - run N: loadwait(N): N us of waste_cpu_cycles() loops at the
 *    calibrated speed (exec * 1000 / p_load loops), user work here;
 *  - runtime N: loadwait(32) chunks until N us of wall time went by;
 *  - sleep N: nanosleep(N us);
 *  - timer: t_next += period (from t_first at the first use); slack =
 *    t_next - now; sleep until t_next if it is ahead (wakeup latency = the
 *    lateness), else with mode relative restart the period from now;
 *  - lock/unlock, wait/signal/broad/sync: pthread mutexes and condition
 *    variables, modelled as glibc builds them on futexes;
 *  - barrier: rt-app's own (a mutex, a condition and a count of the
 *    waiting users set from the file);
 *  - suspend/resume: a condition named after the task;
 *  - sem_post/sem_wait: a futex-based POSIX semaphore;
 *  - yield: sched_yield();
 *  - fork: a new thread of the task named (NAME-IND-NNNN).
 */
#include "work/bench.h"
#include "work/rtapp.h"

#include "sim/alloc.h"
#include "sim/machine.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/*
 * One loop of rt-app's waste_cpu_cycles() (four rounds of three nested
 * ldexp() calls) in ns of user work at capacity 1024 and full frequency.
 * An estimate: 12 ldexp() calls of about 6 ns each (glibc's ldexp is a
 * scalbn with range checks, a few ns on current cores); rt-app logs
 * "pLoad = 60ns" to "pLoad = 90ns" on current x86 and Arm big cores. It only
 * sets the "calibration": "CPUn" value of p_load and the perf column; run
 * durations do not depend on it (run N is N us of work on the calibrated
 * CPU). A workload constant, not a kernel cost.
 */
#define RTAPP_LOOP_NS 70

/* rt-app's FORKS_LIMIT: forks of one task before rt-app gives up */
#define RTAPP_FORKS_LIMIT 1024

/* loadwait(32): runtime's chunk, in us */
#define RTAPP_RUNTIME_CHUNK_US 32

/*
 * What a thread does between two loops, in ns of user work at capacity
 * 1024: thread_body()'s two clock_gettime() (vDSO, about 20 ns each), the
 * log_data memset, the timing point and the loop counters, and the checks
 * of the log and ftrace settings. An estimate (a few hundred instructions);
 * it also makes a loop of events that never block or work (an uncontended
 * lock and unlock, a signal nobody waits for) take time, as it does in
 * rt-app.
 */
#define RTAPP_LOOP_OVERHEAD_NS 150

/* clock_gettime(CLOCK_MONOTONIC) through the vDSO, ns at capacity 1024 (an estimate) */
#define RTAPP_CLOCK_READ_NS 20

struct rt_thread;

/* a mutex, a condition, a barrier, a semaphore or a timer */
struct rt_res {
	struct futex mf;		/* mutex word: 1 locked */
	struct rt_thread *owner;
	unsigned int m_waiters;
	struct futex cf;		/* condition sequence, or the semaphore count */
	unsigned int c_waiters;
	int waiting;			/* barrier */
	bool init;			/* timer */
	u64 t_next;
};

enum {
	T_START, T_BARRIER, T_STARTED, T_PARAM, T_LOOP, T_EVENT, T_LOOP_END, T_FINISH,
	T_CANCEL, T_EXIT_WAKE, T_EXIT,
};

struct rt_thread {
	struct rt_state *st;
	const struct rtapp_task *t;
	struct rtapp_thread_stats *s;
	struct work_task *wt;
	int ind;
	bool forked;
	struct rt_res *local;		/* its own "unique" timers, by their slot */
	int state;
	int phase, phase_loop, thread_loop;
	unsigned int ev;
	int step, cw;			/* step in the event, in a condition wait */
	bool pi_locking;		/* pi_enabled: its FUTEX_LOCK_PI was issued */
	u64 t_first, t_start, ev_t0;
	u32 snap;
	int lock;			/* run()'s lock count */
	unsigned int *waiting;		/* a waiter count it added itself to */
	const struct rtapp_sched *cur_sched;
	const struct rtapp_sched *cur_uclamp;	/* the util_min/util_max last applied */
	const struct cpumask *cur_mask;	/* the affinity it set last */
	bool affinity_pending;		/* wt->result is that OP_SETAFFINITY's */
	struct rtapp_timing ld;
};

struct rt_state {
	struct bench *b;
	struct rtapp_config *c;
	struct rtapp_result r;
	struct rt_res *res;
	struct rt_thread **th;
	unsigned int nr_th, cap_th;
	unsigned int *nforks;		/* per task */
	/*
	 * Per resource, a unique timer's slot in its task's threads' local[]
	 * (each is named after one task); per task, the number of slots and
	 * the mutexes its events may hold, in index order. Each thread's
	 * state is then the size of its own task's, not of the whole file's.
	 */
	int *slot;
	unsigned int *nr_slots;
	unsigned int **mutexes, *nr_mutexes;
	struct cpumask **masks;		/* per task: its cpus, NULL for all */
	struct cpumask ***phase_masks;	/* per task and phase: its cpus, NULL: none */
	struct cpumask *default_mask;	/* what a thread starts with: taskset's, or all */
	int p_load;
	u64 loop_ns;
	u64 t_zero;
	bool continue_running;
	unsigned int arrived;
	struct futex start_f;
	unsigned int alive;
	struct futex alive_f;
	FILE *log;
	size_t log_len;
	unsigned int spawned, spawn_task, spawn_inst;
	int phase;
};

static void notice(struct rt_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* rt-app's log_notice(): "[rt-app] <notice> " and a newline; stderr there, stdout here */
static void notice(struct rt_state *st, const char *fmt, ...)
{
	va_list ap;

	if (!st->log)
		return;
	fputs("[rt-app] <notice> ", st->log);
	va_start(ap, fmt);
	vfprintf(st->log, fmt, ap);
	va_end(ap);
	fputc('\n', st->log);
}

int rtapp_apply_policy(struct task_struct *p, enum rtapp_policy policy, int priority,
		       const struct rtapp_dl *dl, char *err, size_t errlen)
{
	struct sched_attr attr = { 0 };
	struct rq *rq;

	switch (policy) {
	case RTAPP_SCHED_OTHER:
	case RTAPP_SCHED_BATCH:
	case RTAPP_SCHED_IDLE:
		/* rt-app's _set_thread_cfs(): the priority is the nice value */
		if (priority < MIN_NICE || priority > MAX_NICE) {
			snprintf(err, errlen, "%s priority %d is not a nice value (%d..%d)",
				 rtapp_policy_name(policy), priority, MIN_NICE, MAX_NICE);
			return -1;
		}
		if (!p)
			return 0;
		if (policy == RTAPP_SCHED_OTHER && p->policy == SCHED_NORMAL) {
			if (p->static_prio == NICE_TO_PRIO(priority))
				return 0;
			/* sched_setattr() -> set_user_nice() under the task's runqueue lock */
			rq = task_rq(p);
			rq_lock(rq);
			update_rq_clock(rq);
			set_user_nice(p, priority);
			rq_unlock(rq);
			return 0;
		}
		attr.sched_policy = policy == RTAPP_SCHED_OTHER   ? SCHED_NORMAL
				    : policy == RTAPP_SCHED_BATCH ? SCHED_BATCH
								  : SCHED_IDLE;
		attr.sched_nice = priority;
		break;
	case RTAPP_SCHED_FIFO:
	case RTAPP_SCHED_RR:
		/* rt-app's _set_thread_rr_fifo(): sched_setscheduler(sched_priority) */
		if (priority < 1 || priority > MAX_RT_PRIO - 1) {
			snprintf(err, errlen, "%s priority %d is out of range (1..%d)",
				 rtapp_policy_name(policy), priority, MAX_RT_PRIO - 1);
			return -1;
		}
		if (!p)
			return 0;
		attr.sched_policy = policy == RTAPP_SCHED_FIFO ? SCHED_FIFO : SCHED_RR;
		attr.sched_priority = (u32)priority;
		attr.sched_nice = PRIO_TO_NICE(p->static_prio);
		break;
	case RTAPP_SCHED_DEADLINE:
		/* rt-app's _set_thread_deadline(): flags 0, the reservation in ns */
		attr.sched_policy = SCHED_DEADLINE;
		attr.sched_runtime = dl->runtime;
		attr.sched_deadline = dl->deadline;
		attr.sched_period = dl->period;
		if (!__checkparam_dl(&attr)) {
			snprintf(err, errlen,
				 "SCHED_DEADLINE dl-runtime %llu dl-deadline %llu dl-period %llu us: sched_setattr() fails with EINVAL (runtime <= deadline <= period, runtime >= 1 us, period 100 us .. 4.19 s)",
				 (unsigned long long)(dl->runtime / NSEC_PER_USEC),
				 (unsigned long long)(dl->deadline / NSEC_PER_USEC),
				 (unsigned long long)(dl->period / NSEC_PER_USEC));
			return -1;
		}
		if (!p)
			return 0;
		if (task_has_dl_policy(p) && p->dl.dl_runtime == dl->runtime &&
		    p->dl.dl_deadline == dl->deadline && p->dl.dl_period == dl->period)
			return 0;
		return sched_setattr(p, &attr);
	default:
		snprintf(err, errlen, "policy %s is not modelled", rtapp_policy_name(policy));
		return -1;
	}
	if ((int)p->policy == (int)attr.sched_policy && p->rt_priority == attr.sched_priority &&
	    (rt_policy(attr.sched_policy) || p->static_prio == NICE_TO_PRIO(attr.sched_nice)))
		return 0;
	if (sched_setattr(p, &attr)) {
		snprintf(err, errlen, "sched_setattr(%s, %d) failed", rtapp_policy_name(policy),
			 priority);
		return -1;
	}
	return 0;
}

int rtapp_apply_uclamp(struct task_struct *p, const struct rtapp_sched *sd, char *err,
		       size_t errlen)
{
	/* rt-app's _set_thread_uclamp(): the policy and its parameters kept */
	struct sched_attr attr = { .sched_flags = SCHED_FLAG_KEEP_ALL };

	if (sd->util_min != RTAPP_UCLAMP_UNSET) {
		attr.sched_flags |= SCHED_FLAG_UTIL_CLAMP_MIN;
		attr.sched_util_min = (u32)sd->util_min;
	}
	if (sd->util_max != RTAPP_UCLAMP_UNSET) {
		attr.sched_flags |= SCHED_FLAG_UTIL_CLAMP_MAX;
		attr.sched_util_max = (u32)sd->util_max;
	}
	if (sched_setattr(p, &attr)) {
		snprintf(err, errlen, "sched_setattr(util_min %d, util_max %d) failed",
			 sd->util_min, sd->util_max);
		return -1;
	}
	return 0;
}

/* ---- the futex-based primitives ---- */

static void wait_on(struct rt_thread *th, unsigned int *count, const struct rtapp_event *e,
		    const struct rt_res *r)
{
	(*count)++;
	th->waiting = count;
	th->s->blocked_in = e->key;
	th->s->blocked_line = e->line;
	th->s->blocked_res = th->st->c->res[r - th->st->res].name;
}

static void wait_done(struct rt_thread *th)
{
	if (th->waiting) {
		(*th->waiting)--;
		th->waiting = NULL;
	}
	th->s->blocked_in = NULL;
	th->s->blocked_line = 0;
}

static void futex_op(struct op_desc *op, enum op_kind kind, struct futex *f, u32 val)
{
	*op = (struct op_desc){ .kind = kind, .futex = f, .val = val };
}

/*
 * pi_enabled: the mutex is PTHREAD_PRIO_INHERIT, glibc's PI mutex: the
 * word holds the owner's TID, a cmpxchg in user space takes a free one,
 * and FUTEX_LOCK_PI blocks on a held one (boosting its owner) until it is
 * the caller's; true with that lock in @op, false once it is held.
 */
static bool pi_mutex_lock_op(struct rt_thread *th, struct rt_res *m, const struct rtapp_event *what,
			     struct op_desc *op)
{
	if (th->pi_locking) {
		th->pi_locking = false;
		wait_done(th);
		m->owner = th;
		return false;
	}
	th->pi_locking = true;
	wait_on(th, &m->m_waiters, what, m);
	futex_op(op, OP_FUTEX_LOCK_PI, &m->mf, 1);
	return true;
}

/* pthread_mutex_lock(): true with a FUTEX_WAIT in @op while another thread holds it */
static bool pthread_mutex_lock_op(struct rt_thread *th, struct rt_res *m,
				  const struct rtapp_event *what, struct op_desc *op)
{
	if (th->st->c->pi_enabled)
		return pi_mutex_lock_op(th, m, what, op);
	wait_done(th);
	if (!m->owner) {
		m->owner = th;
		m->mf.val = 1;
		return false;
	}
	wait_on(th, &m->m_waiters, what, m);
	futex_op(op, OP_FUTEX_WAIT, &m->mf, 1);
	return true;
}

/*
 * pthread_mutex_unlock(): true with a FUTEX_WAKE in @op when a waiter
 * sleeps; a PI mutex's unlock is always an op (the user-space cmpxchg, or
 * FUTEX_UNLOCK_PI when it has waiters)
 */
static bool pthread_mutex_unlock_op(struct rt_state *st, struct rt_res *m, struct op_desc *op)
{
	m->owner = NULL;
	if (st->c->pi_enabled) {
		futex_op(op, OP_FUTEX_UNLOCK_PI, &m->mf, 1);
		return true;
	}
	m->mf.val = 0;
	if (!m->m_waiters)
		return false;
	futex_op(op, OP_FUTEX_WAKE, &m->mf, 1);
	return true;
}

/* pthread_cond_signal()/broadcast(): a new sequence, waking 1 or all waiters */
static bool cond_wake(struct rt_res *c, bool all, struct op_desc *op)
{
	c->cf.val++;
	if (!c->c_waiters)
		return false;
	futex_op(op, OP_FUTEX_WAKE, &c->cf, all ? INT32_MAX : 1);
	return true;
}

/* pthread_cond_wait(c, m): unlock, wait for a new sequence, lock again */
static bool cond_wait(struct rt_thread *th, struct rt_res *c, struct rt_res *m,
		      const struct rtapp_event *what, struct op_desc *op)
{
	switch (th->cw) {
	case 0:
		th->snap = c->cf.val;
		th->cw = 1;
		if (pthread_mutex_unlock_op(th->st, m, op))
			return true;
		/* fall through */
	case 1:
		wait_on(th, &c->c_waiters, what, c);
		th->cw = 2;
		futex_op(op, OP_FUTEX_WAIT, &c->cf, th->snap);
		return true;
	case 2:
		wait_done(th);
		th->cw = 3;
		/* fall through */
	default:
		if (pthread_mutex_lock_op(th, m, what, op))
			return true;
		th->cw = 0;
		return false;
	}
}

/* ---- run and runtime ---- */

/* loadwait(): the loops for @exec us at p_load ns a loop; perf is exec / p_load */
static u64 loadwait_ns(const struct rt_state *st, u64 exec, u64 *perf)
{
	u64 loops = 0;

	*perf += exec / (u64)st->p_load;
	while (exec >= 1000000) {
		loops += 1000000000ULL / (u64)st->p_load;
		exec -= 1000000;
	}
	loops += exec * 1000 / (u64)st->p_load;
	return loops * st->loop_ns;
}

static u64 usec_of(u64 ns)
{
	return ns / NSEC_PER_USEC;
}

/* timespec_to_usec_long() of a difference, either sign */
static s64 susec_of(u64 a, u64 b)
{
	return a >= b ? (s64)((a - b) / NSEC_PER_USEC) : -(s64)((b - a) / NSEC_PER_USEC);
}

/* ---- threads ---- */

static struct rt_thread *thread_new(struct rt_state *st, int task, bool forked);

/*
 * One event; true with an operation in @op (the event goes on when the
 * task runs again), false once it is done.
 */
static bool event_step(struct rt_thread *th, const struct rtapp_event *e, struct op_desc *op)
{
	struct rt_state *st = th->st;
	struct rt_res *r = e->res >= 0 ? &st->res[e->res] : NULL;
	struct rt_res *d = e->dep >= 0 ? &st->res[e->dep] : NULL;
	u64 now = cpu_now();

	switch (e->type) {
	case RTAPP_EV_RUN:
		if (th->step == 0) {
			th->ld.c_duration += (u64)e->duration;
			th->ev_t0 = now;
			th->step = 1;
			*op = (struct op_desc){ .kind = OP_RUN };
			op->ns = loadwait_ns(st, (u64)e->duration, &th->ld.perf);
			if (op->ns)
				return true;
		}
		th->ld.duration += usec_of(now - th->ev_t0);
		return false;
	case RTAPP_EV_RUNTIME:
		if (th->step == 0) {
			th->ld.c_duration += (u64)e->duration;
			th->ev_t0 = now;
			th->step = 1;
		} else if (usec_of(now - th->ev_t0) >= (u64)e->duration) {
			th->ld.duration += usec_of(now - th->ev_t0);
			return false;
		}
		/*
		 * do { loadwait(32) } while (elapsed < duration); with a
		 * calibration above 32 us a loop, loadwait(32) is no loop and
		 * only the clock read takes time
		 */
		*op = (struct op_desc){ .kind = OP_RUN };
		op->ns = max(loadwait_ns(st, RTAPP_RUNTIME_CHUNK_US, &th->ld.perf),
			     (u64)RTAPP_CLOCK_READ_NS);
		return true;
	case RTAPP_EV_SLEEP:
		if (th->step++ == 0) {
			op_sleep(op, (u64)e->duration * NSEC_PER_USEC);
			return true;
		}
		return false;
	case RTAPP_EV_TIMER: {
		struct rt_res *tm = st->c->res[e->res].type == RTAPP_RES_TIMER_UNIQUE ?
				    &th->local[st->slot[e->res]] : r;

		if (th->step == 0) {
			th->ld.c_period += (u64)e->duration;
			if (!tm->init) {
				tm->init = true;
				tm->t_next = th->t_first;
			}
			tm->t_next += (u64)e->duration * NSEC_PER_USEC;
			if (st->c->cumulative_slack)
				th->ld.slack += susec_of(tm->t_next, now);
			else
				th->ld.slack = susec_of(tm->t_next, now);
			if (now < tm->t_next) {
				/* its own copy: a shared timer may move on meanwhile */
				th->ev_t0 = tm->t_next;
				th->step = 1;
				*op = (struct op_desc){ .kind = OP_SLEEP_UNTIL, .ns = tm->t_next };
				return true;
			}
			if (st->c->res[e->res].relative)
				tm->t_next = now;
			th->ld.wu_latency = 0;
			return false;
		}
		th->ld.wu_latency += now > th->ev_t0 ? usec_of(now - th->ev_t0) : 0;
		return false;
	}
	case RTAPP_EV_LOCK:
		if (pthread_mutex_lock_op(th, r, e, op))
			return true;
		th->lock++;
		return false;
	case RTAPP_EV_UNLOCK:
		if (th->step)
			return false;
		th->step = 1;
		th->lock--;
		return pthread_mutex_unlock_op(th->st, r, op);
	case RTAPP_EV_WAIT:
		return cond_wait(th, r, d, e, op);
	case RTAPP_EV_SIGNAL:
	case RTAPP_EV_BROAD:
		if (th->step++)
			return false;
		return cond_wake(r, e->type == RTAPP_EV_BROAD, op);
	case RTAPP_EV_SYNC:
		if (th->step == 0) {
			th->step = 1;
			if (cond_wake(r, false, op))
				return true;
		}
		return cond_wait(th, r, d, e, op);
	case RTAPP_EV_BARRIER:
		switch (th->step) {
		case 0:
			if (pthread_mutex_lock_op(th, r, e, op))
				return true;
			if (r->waiting == 0) {
				/* everyone else waits: wake them */
				th->step = 2;
				if (cond_wake(r, true, op))
					return true;
				break;
			}
			r->waiting--;
			th->step = 1;
			/* fall through */
		case 1:
			if (cond_wait(th, r, r, e, op))
				return true;
			r->waiting++;
			th->step = 2;
			break;
		default:
			break;
		}
		if (th->step == 2) {
			th->step = 3;
			if (pthread_mutex_unlock_op(th->st, r, op))
				return true;
		}
		return false;
	case RTAPP_EV_SUSPEND:
	case RTAPP_EV_RESUME:
		switch (th->step) {
		case 0:
			if (pthread_mutex_lock_op(th, d, e, op))
				return true;
			th->step = 1;
			if (e->type == RTAPP_EV_RESUME) {
				th->step = 2;
				if (cond_wake(r, true, op))
					return true;
				break;
			}
			/* fall through */
		case 1:
			if (cond_wait(th, r, d, e, op))
				return true;
			th->step = 2;
			break;
		default:
			break;
		}
		if (th->step == 2) {
			th->step = 3;
			if (pthread_mutex_unlock_op(th->st, d, op))
				return true;
		}
		return false;
	case RTAPP_EV_SEM_POST:
		if (th->step++)
			return false;
		r->cf.val++;
		if (!r->c_waiters)
			return false;
		futex_op(op, OP_FUTEX_WAKE, &r->cf, 1);
		return true;
	case RTAPP_EV_SEM_WAIT:
		wait_done(th);
		if (r->cf.val) {
			r->cf.val--;
			return false;
		}
		wait_on(th, &r->c_waiters, e, r);
		futex_op(op, OP_FUTEX_WAIT, &r->cf, 0);
		return true;
	case RTAPP_EV_YIELD:
		if (th->step++)
			return false;
		op_simple(op, OP_YIELD);
		return true;
	case RTAPP_EV_FORK: {
		struct rt_thread *c;

		if (th->step++)
			return false;
		if (st->nforks[e->fork_task] >= RTAPP_FORKS_LIMIT) {
			/* rt-app's log_error() and exit(EXIT_FAILURE): the run ends here */
			bench_fail(st->b,
				   "rt-app: %s:%u: thread %s: %s: task %s reached rt-app's fork limit (%d forks of it): rt-app exits",
				   st->c->file, e->line, th->s->name, e->key, e->ref,
				   RTAPP_FORKS_LIMIT);
			op_sleep(op, NSEC_PER_SEC);
			return true;
		}
		c = thread_new(st, e->fork_task, true);
		*op = (struct op_desc){ .kind = OP_SPAWN };
		op->spawn.prog = th->wt->prog;
		op->spawn.state = c;
		op->spawn.thread = true;
		op->spawn.comm = c->s->name;
		op->spawn.allowed = st->masks[e->fork_task];
		return true;
	}
	}
	return false;
}

static void record_loop(struct rt_thread *th, u64 t_end)
{
	struct rt_state *st = th->st;
	struct rtapp_thread_stats *s = th->s;
	struct rtapp_timing *p = &th->ld;

	p->ind = th->ind;
	p->start = usec_of(th->t_start);
	p->end = usec_of(t_end);
	p->rel_start = usec_of(th->t_start - st->b->start_ns);
	p->period = usec_of(t_end - th->t_start);
	s->loops++;
	s->perf += p->perf;
	s->run_us += p->duration;
	s->period_us += p->period;
	if (p->c_period) {
		if (!s->timer_loops || p->slack < s->slack_min)
			s->slack_min = p->slack;
		s->slack_sum += p->slack;
		s->missed += p->slack < 0;
		s->wu_sum += p->wu_latency;
		if (p->wu_latency > s->wu_max)
			s->wu_max = p->wu_latency;
		s->timer_loops++;
	}
	/* only the measured rt-app writes log files (a background one prints nothing) */
	if (st->c->write_logs && !st->b->group) {
		if (s->nr_log == s->cap_log) {
			s->cap_log = s->cap_log ? 2 * s->cap_log : 64;
			s->log = xreallocarray(s->log, s->cap_log, sizeof(*s->log));
		}
		s->log[s->nr_log++] = *p;
	}
}

/*
 * rt-app's set_thread_param(); a phase without "policy" has the one the
 * thread had there, which the parser resolved. False, or true when DL
 * admission control refused the reservation: rt-app logs it and exits
 * (_set_thread_deadline()), which ends the run.
 */
static bool apply_sched(struct rt_thread *th, const struct rtapp_sched *sd)
{
	char err[128];
	int ret;

	if (sd->uclamp_set && th->cur_uclamp != sd) {
		/* rt-app exits on a failed sched_setattr(); the parser checked the values */
		if (rtapp_apply_uclamp(th->wt->task, sd, err, sizeof(err)))
			abort();
		th->cur_uclamp = sd;
	}
	if (!sd->set || th->cur_sched == sd)
		return false;
	/*
	 * checked by the parser: only a DL reservation can be refused, by
	 * admission control (-EBUSY) or for an affinity narrower than the
	 * root domain (-EPERM)
	 */
	ret = rtapp_apply_policy(th->wt->task, sd->policy, sd->prio, &sd->dl, err, sizeof(err));
	if (ret == -EBUSY || ret == -EPERM) {
		/* log_critical() and perror() go to stderr: the failure message */
		bench_fail(th->st->b,
			   "rt-app: thread %s: [rt-app] <crit> [%d] sched_setattr returned -1; sched_setattr: failed to set deadline attributes: %s (%s): rt-app exits",
			   th->s->name, th->ind, strerror(-ret),
			   ret == -EBUSY ?
				   "SCHED_DEADLINE admission control: the root domain's bandwidth is given out" :
				   "a SCHED_DEADLINE task must be allowed on every CPU of its root domain");
		return true;
	}
	if (ret)
		abort();
	th->s->policy = rtapp_policy_name(sd->policy);
	th->s->prio = sd->prio;
	th->cur_sched = sd;
	return false;
}

static void thread_next(struct work_task *wt, struct op_desc *op)
{
	struct rt_thread *th = wt->state;
	struct rt_state *st = th->st;
	const struct rtapp_task *t = th->t;
	const struct rtapp_phase *ph;
	u64 now;

	th->wt = wt;
	if (wt->signalled && th->state < T_CANCEL) {
		/* pthread_cancel() at a cancellation point: the thread ends there */
		wt->signalled = false;
		wait_done(th);
		th->state = T_CANCEL;
	}
	for (;;) {
		now = cpu_now();
		switch (th->state) {
		case T_START:
			th->state = T_STARTED;
			if (th->forked)
				break;
			/* thread 0 reads t_zero; all meet at pthread_barrier_wait() */
			if (th->ind == 0)
				st->t_zero = now;
			if (++st->arrived == st->c->nthreads) {
				st->start_f.val = 1;
				futex_op(op, OP_FUTEX_WAKE, &st->start_f, INT32_MAX);
				return;
			}
			th->state = T_BARRIER;
			/* fall through */
		case T_BARRIER:
			if (!st->start_f.val) {
				th->s->blocked_in = "the start barrier";
				futex_op(op, OP_FUTEX_WAIT, &st->start_f, 0);
				return;
			}
			th->state = T_STARTED;
			break;
		case T_STARTED:
			th->s->blocked_in = NULL;
			th->t_first = st->t_zero;
			notice(st, "[%d] starting thread ...\n", th->ind);
			th->state = T_PARAM;
			if (t->delay_us > 0) {
				th->t_first += (u64)t->delay_us * NSEC_PER_USEC;
				*op = (struct op_desc){ .kind = OP_SLEEP_UNTIL, .ns = th->t_first };
				return;
			}
			break;
		case T_PARAM:
			notice(st, "[%d] Starting with %s policy with priority %d", th->ind,
			       rtapp_policy_name(t->sched.policy), t->sched.prio);
			if (apply_sched(th, &t->sched)) {
				op_sleep(op, NSEC_PER_SEC);
				return;
			}
			th->state = T_LOOP;
			break;
		case T_LOOP:
			if (!st->continue_running || th->thread_loop == t->loop) {
				th->state = T_FINISH;
				break;
			}
			ph = &t->phases[th->phase];
			/* set_thread_affinity(): the phase's cpus, else the task's, else the first */
			{
				const struct cpumask *want = st->phase_masks[t - st->c->tasks][th->phase];

				if (!want)
					want = st->masks[t - st->c->tasks];
				if (!want)
					want = st->default_mask;
				if (!th->cur_mask)
					th->cur_mask = st->masks[t - st->c->tasks] ?
						       st->masks[t - st->c->tasks] : st->default_mask;
				if (!cpumask_equal(want, th->cur_mask)) {
					th->cur_mask = want;
					th->affinity_pending = true;
					*op = (struct op_desc){ .kind = OP_SETAFFINITY, .cpus = want };
					return;
				}
				/* perror("pthread_setaffinity_np") and exit: a DL thread's -EBUSY */
				if (th->affinity_pending && (s64)wt->result < 0) {
					bench_fail(st->b,
						   "rt-app: thread %s: pthread_setaffinity_np: %s (a SCHED_DEADLINE thread's affinity must cover its root domain): rt-app exits",
						   th->s->name, strerror((int)-(s64)wt->result));
					op_sleep(op, NSEC_PER_SEC);
					return;
				}
				th->affinity_pending = false;
			}
			if (apply_sched(th, &ph->sched)) {
				op_sleep(op, NSEC_PER_SEC);
				return;
			}
			memset(&th->ld, 0, sizeof(th->ld));
			th->t_start = now;
			th->ev = 0;
			th->step = th->cw = 0;
			th->lock = 0;
			th->state = T_EVENT;
			break;
		case T_EVENT:
			ph = &t->phases[th->phase];
			if (th->ev == ph->nr_events) {
				th->state = T_LOOP_END;
				break;
			}
			/* run(): stopping, a thread goes on only to release its locks */
			if (!st->continue_running && !th->lock) {
				th->state = T_LOOP_END;
				break;
			}
			if (!st->continue_running && ph->events[th->ev].type != RTAPP_EV_LOCK &&
			    ph->events[th->ev].type != RTAPP_EV_UNLOCK) {
				th->ev++;
				break;
			}
			if (event_step(th, &ph->events[th->ev], op))
				return;
			th->ev++;
			th->step = th->cw = 0;
			break;
		case T_LOOP_END:
			ph = &t->phases[th->phase];
			if (st->continue_running)
				record_loop(th, now);
			if (++th->phase_loop == ph->loop) {
				th->phase_loop = 0;
				if (++th->phase == (int)t->nr_phases) {
					th->phase = 0;
					th->thread_loop++;
				}
			}
			th->state = T_LOOP;
			op_run(op, RTAPP_LOOP_OVERHEAD_NS);
			return;
		case T_FINISH:
			/*
			 * stopped by the end of the duration, the thread has a
			 * cancel pending: fprintf()'s write() is a cancellation
			 * point, so its notice never comes out
			 */
			if (st->continue_running)
				notice(st, "[%d] Exiting.", th->ind);
			th->s->exited = true;
			th->state = T_EXIT_WAKE;
			break;
		case T_CANCEL:
			/* cancelled: its mutexes are given back (rt-app would leave them locked) */
			for (unsigned int k = 0; k < st->nr_mutexes[t - st->c->tasks]; k++) {
				struct rt_res *m = &st->res[st->mutexes[t - st->c->tasks][k]];

				/* a PI lock the cancel interrupted may have been taken: the word says */
				if (th->pi_locking &&
				    (m->mf.val & FUTEX_TID_MASK) == (u32)th->wt->task->pid)
					m->owner = th;
				if (m->owner == th && pthread_mutex_unlock_op(st, m, op))
					return;
			}
			th->state = T_EXIT_WAKE;
			break;
		case T_EXIT_WAKE:
			th->state = T_EXIT;
			st->alive_f.val = --st->alive;
			if (!st->alive) {
				futex_op(op, OP_FUTEX_WAKE, &st->alive_f, 1);
				return;
			}
			break;
		default:
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program thread_prog = { .next = thread_next };

/* create_thread(): its data, its unique name, its own unique timers */
static struct rt_thread *thread_new(struct rt_state *st, int task, bool forked)
{
	const struct rtapp_task *t = &st->c->tasks[task];
	struct rt_thread *th = xcalloc(1, sizeof(*th));
	char *name;

	th->st = st;
	th->t = t;
	th->forked = forked;
	th->ind = (int)st->nr_th;
	th->local = xcalloc(st->nr_slots[task] ? st->nr_slots[task] : 1, sizeof(*th->local));
	name = rtapp_thread_name(t->name, (unsigned int)th->ind,
				 forked ? (int)st->nforks[task]++ : -1);
	notice(st, "thread_data_set_unique_name %d %s", th->ind, name);
	if (st->nr_th == st->cap_th) {
		st->cap_th = st->cap_th ? 2 * st->cap_th : 16;
		st->th = xreallocarray(st->th, st->cap_th, sizeof(*st->th));
		st->r.threads = xreallocarray(st->r.threads, st->cap_th, sizeof(*st->r.threads));
		/* the stats moved: re-point every thread at its own */
		for (unsigned int i = 0; i < st->nr_th; i++)
			st->th[i]->s = &st->r.threads[i];
	}
	st->th[st->nr_th] = th;
	th->s = &st->r.threads[st->nr_th];
	*th->s = (struct rtapp_thread_stats){ .name = name, .ind = th->ind,
					      .policy = rtapp_policy_name(t->sched.policy),
					      .prio = t->sched.prio };
	st->nr_th++;
	st->r.nr_threads = st->nr_th;
	st->alive++;
	st->alive_f.val = st->alive;
	return th;
}

enum { P_START, P_SPAWN, P_SLEEP, P_STOP, P_JOIN, P_DONE };

static void main_next(struct work_task *wt, struct op_desc *op)
{
	struct rt_state *st = wt->state;
	struct rtapp_config *c = st->c;
	struct bench *b = st->b;

	for (;;) {
		switch (st->phase) {
		case P_START:
			b->start_ns = cpu_now();
			b->started = true;
			if (c->calib_ns_per_loop)
				notice(st, "pLoad = %dns", st->p_load);
			else
				notice(st, "pLoad = %dns : calib_cpu %d", st->p_load, c->calib_cpu);
			st->phase = P_SPAWN;
			break;
		case P_SPAWN:
			while (st->spawn_task < c->nr_tasks &&
			       st->spawn_inst >= (unsigned int)c->tasks[st->spawn_task].instances) {
				st->spawn_task++;
				st->spawn_inst = 0;
			}
			if (st->spawn_task < c->nr_tasks) {
				struct rt_thread *th = thread_new(st, (int)st->spawn_task, false);

				st->spawn_inst++;
				*op = (struct op_desc){ .kind = OP_SPAWN };
				op->spawn.prog = &thread_prog;
				op->spawn.state = th;
				op->spawn.thread = true;
				op->spawn.comm = th->s->name;
				op->spawn.allowed = st->masks[st->spawn_task];
				return;
			}
			st->phase = c->duration_s > 0 ? P_SLEEP : P_JOIN;
			break;
		case P_SLEEP:
			/* sleep(duration) */
			st->phase = P_STOP;
			op_sleep(op, (u64)c->duration_s * NSEC_PER_SEC);
			return;
		case P_STOP:
			/* __shutdown(true): stop, cancel each thread at its cancellation point */
			st->continue_running = false;
			for (unsigned int i = 0; i < st->nr_th; i++) {
				struct rt_thread *th = st->th[i];

				if (th->wt && th->state < T_FINISH &&
				    th->wt->task->__state == TASK_INTERRUPTIBLE) {
					th->s->cancelled_in = th->s->blocked_in;
					work_signal(th->wt);
				}
			}
			st->phase = P_JOIN;
			break;
		case P_JOIN:
			if (st->alive) {
				futex_op(op, OP_FUTEX_WAIT, &st->alive_f, st->alive);
				return;
			}
			b->stop_ns = cpu_now();
			b->stopped = true;
			st->phase = P_DONE;
			op_wait_children(op, WAIT_ANY);
			return;
		default:
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program main_prog = { .next = main_next };

int rtapp_check_machine(struct bench *b, char *err, size_t errlen)
{
	struct rtapp_config *c = b->rtapp;

	if (!c->calib_ns_per_loop && (unsigned int)c->calib_cpu >= nr_cpu_ids) {
		snprintf(err, errlen, "rt-app: %s:%u: calibration: CPU%d is not a CPU of this machine (%u CPUs)",
			 c->file, c->calib_line, c->calib_cpu, nr_cpu_ids);
		return -1;
	}
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		const struct rtapp_task *t = &c->tasks[i];

		for (unsigned int k = 0; k < t->nr_cpus; k++) {
			if ((unsigned int)t->cpus[k] >= nr_cpu_ids) {
				snprintf(err, errlen, "rt-app: %s:%u: task %s: invalid cpu %d in cpus (%u CPUs)",
					 c->file, t->cpus_line, t->name, t->cpus[k], nr_cpu_ids);
				return -1;
			}
		}
		for (unsigned int p = 0; p < t->nr_phases; p++) {
			const struct rtapp_phase *ph = &t->phases[p];

			for (unsigned int k = 0; k < ph->nr_cpus; k++) {
				if ((unsigned int)ph->cpus[k] >= nr_cpu_ids) {
					snprintf(err, errlen, "rt-app: %s:%u: task %s: phase %s: invalid cpu %d in cpus (%u CPUs)",
						 c->file, ph->cpus_line, t->name, ph->name, ph->cpus[k],
						 nr_cpu_ids);
					return -1;
				}
			}
		}
	}
	return 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* per task: its unique timers' slots, and the mutexes it may hold (linear in the events) */
static void task_resources(struct rt_state *st)
{
	const struct rtapp_config *c = st->c;
	unsigned int *seen = xcalloc(c->nr_res ? c->nr_res : 1, sizeof(*seen));

	st->slot = xcalloc(c->nr_res ? c->nr_res : 1, sizeof(*st->slot));
	st->nr_slots = xcalloc(c->nr_tasks, sizeof(*st->nr_slots));
	st->mutexes = xcalloc(c->nr_tasks, sizeof(*st->mutexes));
	st->nr_mutexes = xcalloc(c->nr_tasks, sizeof(*st->nr_mutexes));
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		const struct rtapp_task *t = &c->tasks[i];
		unsigned int n = 0, cap = 0, *list = NULL;

		for (unsigned int p = 0; p < t->nr_phases; p++) {
			for (unsigned int k = 0; k < t->phases[p].nr_events; k++) {
				const struct rtapp_event *e = &t->phases[p].events[k];
				int m = -1;

				switch (e->type) {
				case RTAPP_EV_TIMER:
					if (c->res[e->res].type == RTAPP_RES_TIMER_UNIQUE &&
					    seen[e->res] != i + 1) {
						seen[e->res] = i + 1;
						st->slot[e->res] = (int)st->nr_slots[i]++;
					}
					break;
				case RTAPP_EV_LOCK:
				case RTAPP_EV_BARRIER:
					m = e->res;
					break;
				case RTAPP_EV_WAIT:
				case RTAPP_EV_SYNC:
				case RTAPP_EV_SUSPEND:
				case RTAPP_EV_RESUME:
					m = e->dep;
					break;
				default:
					break;
				}
				if (m < 0 || seen[m] == i + 1)
					continue;
				seen[m] = i + 1;
				if (n == cap) {
					cap = cap ? 2 * cap : 8;
					list = xreallocarray(list, cap, sizeof(*list));
				}
				list[n++] = (unsigned int)m;
			}
		}
		if (n)
			qsort(list, n, sizeof(*list), cmp_uint);
		st->mutexes[i] = list;
		st->nr_mutexes[i] = n;
	}
	free(seen);
}

static struct cpumask *cpus_mask(const int *cpus, unsigned int n)
{
	struct cpumask *m;

	if (!n)
		return NULL;
	m = alloc_cpumask();
	for (unsigned int k = 0; k < n; k++)
		cpumask_set_cpu((unsigned int)cpus[k], m);
	return m;
}

void rtapp_start(struct bench *b)
{
	struct rtapp_config *c = b->rtapp;
	struct rt_state *st = xcalloc(1, sizeof(*st));

	b->priv = st;
	st->b = b;
	st->c = c;
	st->continue_running = true;
	st->res = xcalloc(c->nr_res ? c->nr_res : 1, sizeof(*st->res));
	for (unsigned int i = 0; i < c->nr_res; i++) {
		futex_init(&st->res[i].mf, 0);
		futex_init(&st->res[i].cf, 0);
		st->res[i].waiting = c->res[i].barrier_waiting;
	}
	futex_init(&st->start_f, 0);
	futex_init(&st->alive_f, 0);
	st->nforks = xcalloc(c->nr_tasks, sizeof(*st->nforks));
	task_resources(st);
	st->masks = xcalloc(c->nr_tasks, sizeof(*st->masks));
	st->phase_masks = xcalloc(c->nr_tasks, sizeof(*st->phase_masks));
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		const struct rtapp_task *t = &c->tasks[i];

		st->phase_masks[i] = xcalloc(t->nr_phases, sizeof(**st->phase_masks));
		for (unsigned int p = 0; p < t->nr_phases; p++)
			st->phase_masks[i][p] = cpus_mask(t->phases[p].cpus, t->phases[p].nr_cpus);
		st->masks[i] = cpus_mask(t->cpus, t->nr_cpus);
	}
	st->default_mask = alloc_cpumask();
	if (b->taskset_cpus)
		cpumask_copy(st->default_mask, b->taskset_cpus);
	else
		cpumask_setall(st->default_mask);
	/*
	 * p_load: the given ns per loop, whose loop is then that much work at
	 * full capacity; or calibrate_cpu_cycles() on CPUn: a loop there takes
	 * RTAPP_LOOP_NS scaled by that CPU's capacity (calibration runs at
	 * its highest frequency, and takes no simulated time here).
	 */
	if (c->calib_ns_per_loop) {
		st->p_load = c->calib_ns_per_loop;
		st->loop_ns = (u64)c->calib_ns_per_loop;
	} else {
		st->p_load = (int)(RTAPP_LOOP_NS * SCHED_CAPACITY_SCALE /
				   arch_scale_cpu_capacity((unsigned int)c->calib_cpu));
		st->loop_ns = RTAPP_LOOP_NS;
	}
	st->r.p_load = st->p_load;
	st->log = open_memstream(&st->r.notices, &st->log_len);
	if (c->has_global && !c->has_calibration)
		fputs("[rt-app] <error> missing calibration setting force CPU0\n", st->log);
	if (!c->calib_ns_per_loop)
		notice(st, "Calibrate ns per loop");
	b->timeout_ns = c->duration_s > 0 ? (u64)c->duration_s * NSEC_PER_SEC : 0;
	work_start_allowed("rt-app", &main_prog, st, 0, b->taskset_cpus);
}

const struct rtapp_result *rtapp_result(const struct bench *b)
{
	struct rt_state *st = b->priv;

	if (!st)
		return NULL;
	if (st->log) {
		fclose(st->log);
		st->log = NULL;
	}
	return &st->r;
}

bool rtapp_stuck_message(const struct bench *b, char *buf, size_t len)
{
	const struct rt_state *st = b->priv;

	if (!st || b->stopped || b->failure)
		return false;
	if (machine.limit_hit != SIM_LIMIT_NONE)
		return false;
	for (unsigned int i = 0; i < st->nr_th; i++) {
		const struct rtapp_thread_stats *s = &st->r.threads[i];

		if (s->blocked_in) {
			unsigned int more = 0;

			for (unsigned int j = i + 1; j < st->nr_th; j++)
				more += st->r.threads[j].blocked_in != NULL;
			if (s->blocked_line)
				snprintf(buf, len,
					 "rt-app: %s:%u: thread %s is blocked forever in %s (%s): nothing is left to wake it%s",
					 st->c->file, s->blocked_line, s->name, s->blocked_in,
					 s->blocked_res, more ? "; other threads are blocked too" : "");
			else
				snprintf(buf, len,
					 "rt-app: %s: thread %s is blocked forever in %s%s", st->c->file,
					 s->name, s->blocked_in,
					 more ? "; other threads are blocked too" : "");
			return true;
		}
	}
	return false;
}

char *rtapp_thread_name(const char *task, unsigned int ind, int nfork)
{
	size_t len = strlen(task) + 32;
	char *name = xmalloc(len);

	if (nfork >= 0)
		snprintf(name, len, "%s-%u-%04d", task, ind, nfork);
	else
		snprintf(name, len, "%s-%u", task, ind);
	return name;
}

char *rtapp_log_path(const struct rtapp_config *c, const char *thread)
{
	size_t len = strlen(c->logdir) + strlen(c->log_basename) + strlen(thread) + 8;
	char *path = xmalloc(len);

	snprintf(path, len, "%s/%s-%s.log", c->logdir, c->log_basename, thread);
	return path;
}

int rtapp_log_print(FILE *f, const struct rtapp_thread_stats *s)
{
	fprintf(f, "%s %8s %8s %8s %15s %15s %15s %10s %10s %10s %10s\n", "#idx", "perf", "run",
		"period", "start", "end", "rel_st", "slack", "c_duration", "c_period", "wu_lat");
	for (size_t k = 0; k < s->nr_log; k++) {
		const struct rtapp_timing *p = &s->log[k];

		fprintf(f, "%4d %8llu %8llu %8llu %15llu %15llu %15llu %10lld %10llu %10llu %10llu\n",
			p->ind, (unsigned long long)p->perf, (unsigned long long)p->duration,
			(unsigned long long)p->period, (unsigned long long)p->start,
			(unsigned long long)p->end, (unsigned long long)p->rel_start,
			(long long)p->slack, (unsigned long long)p->c_duration,
			(unsigned long long)p->c_period, (unsigned long long)p->wu_latency);
	}
	return ferror(f) ? -1 : 0;
}

void rtapp_free(struct bench *b)
{
	struct rt_state *st = b->priv;

	if (st) {
		if (st->log)
			fclose(st->log);
		for (unsigned int i = 0; i < st->nr_th; i++) {
			free(st->th[i]->local);
			free(st->th[i]);
			free(st->r.threads[i].name);
			free(st->r.threads[i].log);
		}
		free(st->th);
		free(st->r.threads);
		free(st->r.notices);
		for (unsigned int i = 0; i < st->c->nr_tasks; i++) {
			if (st->masks[i])
				free_cpumask(st->masks[i]);
			for (unsigned int p = 0; p < st->c->tasks[i].nr_phases; p++)
				if (st->phase_masks[i][p])
					free_cpumask(st->phase_masks[i][p]);
			free(st->phase_masks[i]);
		}
		free(st->masks);
		free(st->phase_masks);
		if (st->default_mask)
			free_cpumask(st->default_mask);
		free(st->nforks);
		free(st->slot);
		free(st->nr_slots);
		for (unsigned int i = 0; i < st->c->nr_tasks; i++)
			free(st->mutexes[i]);
		free(st->mutexes);
		free(st->nr_mutexes);
		free(st->res);
	}
	rtapp_config_free(b->rtapp);
	b->rtapp = NULL;
}
