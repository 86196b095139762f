// SPDX-License-Identifier: GPL-2.0-only
/*
 * The deadline class as far as v6.18 uses it without user SCHED_DEADLINE
 * tasks: schedutil's special sugov:N kthreads (at the end of this file) and
 * the per-CPU fair server (kernel/sched/deadline.c's dl_server, v6.12+,
 * with the v6.18 rules), a deferred CBS reservation of 50 ms every 1 s
 * that keeps fair tasks from starving under RT load.
 *
 * The server is a DL entity with a runtime and an absolute deadline. Fair
 * tasks' runtime is charged to it whether or not they run on its behalf
 * (dl_server_update() from fair's update_curr()), and idle time too
 * (dl_server_update_idle_time()): time RT tasks did not take counts as time
 * the fair class could have had. Being deferred, it is not queued when
 * started: it is throttled, with its timer at the zero-laxity point
 * (deadline - runtime). If fair tasks use the runtime in the background
 * first, the period starts again from now (update_curr_dl_se()). Only when
 * the timer fires with runtime left were they starved: dl_defer_running is
 * set, the server gets a fresh period (the CBS rule, dl_entity_overflow())
 * and is queued on the dl_rq, where __schedule()'s pick finds it above the
 * RT class and picks a fair task for it. It runs until its runtime is used
 * (then throttled until its next period, and queued again at once while
 * dl_defer_running holds) or until a pick finds no fair task, which stops
 * it (dl_server_stop(): the one place it stops, keeping its runtime and
 * dl_defer_running). A fair task enqueued on a CPU without any starts it
 * again (dl_server_start()); with dl_defer_running still set and runtime
 * left under the CBS wakeup rule, it is queued at once and fair tasks
 * preempt RT again until the runtime is used. dl_defer_running is cleared
 * when fair tasks use the runtime in the background or idle time does.
 *
 * Simplifications (docs/policies.md): no SCHED_DEADLINE tasks but special
 * ones, so no DL push/pull, cpudl, GRUB reclaiming or the inactive timer
 * (their state does not change when the server or a special task runs); the timer fires on the server's
 * CPU (the kernel's may fire on the CPU that armed it and send that CPU a
 * reschedule); the server's bookkeeping costs nothing beyond the paths that
 * call it (the timer pays irq_entry, its reschedules the usual schedule
 * costs).
 */
#include "kernel/sched.h"

#include <errno.h>

/* a defer timer is not pushed back for less than this much runtime used (deadline.c) */
#define DL_SERVER_MIN_RES NSEC_PER_MSEC

/* debug.c: the fair server's period must lie in 100 us .. 2^22 us (~4.19 s) */
#define FAIR_SERVER_PERIOD_MIN (100ULL * NSEC_PER_USEC)
#define FAIR_SERVER_PERIOD_MAX ((1ULL << 22) * NSEC_PER_USEC)

/*
 * The root domain's DL bandwidth limit: without RT group scheduling,
 * def_dl_bandwidth is sysctl_sched_rt_runtime / sysctl_sched_rt_period
 * (rt.c: 950000 of 1000000 us) per CPU.
 */
#define SYSCTL_SCHED_RT_PERIOD_US 1000000ULL
#define SYSCTL_SCHED_RT_RUNTIME_US 950000ULL

static inline bool dl_time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* to_ratio(): @runtime / @period in BW_SHIFT fixed point (core.c) */
static u64 to_ratio(u64 period, u64 runtime)
{
	if (!period)
		return 0;
	return (runtime << BW_SHIFT) / period;
}

static inline u64 rq_clock(const struct rq *rq)
{
	return rq->clock;
}

static inline bool dl_runtime_exceeded(const struct sched_dl_entity *dl_se)
{
	return dl_se->runtime <= 0;
}

/* ------------------------------------------------------------------ */
/* the dl_rq: enqueue and dequeue of the server                        */

/* inc_dl_deadline(): the first queued DL entity puts the CPU above every RT level */
static void inc_dl_deadline(struct dl_rq *dl_rq, struct rq *rq, u64 deadline)
{
	if (dl_rq->earliest_dl.curr == 0 || dl_time_before(deadline, dl_rq->earliest_dl.curr)) {
		if (dl_rq->earliest_dl.curr == 0)
			cpupri_set(rq, MAX_RT_PRIO);
		dl_rq->earliest_dl.curr = deadline;
	}
}

/*
 * dec_dl_deadline(): the last one gone, the CPU is at its RT level again;
 * else the earliest deadline left (the leftmost of the kernel's tree)
 */
static void dec_dl_deadline(struct dl_rq *dl_rq, struct rq *rq)
{
	struct sched_dl_entity *dl_se;

	if (!dl_rq->dl_nr_running) {
		dl_rq->earliest_dl.curr = 0;
		cpupri_set(rq, rq->rt.highest_prio.curr);
		return;
	}
	dl_rq->earliest_dl.curr = rq->fair_server.on_dl_rq ? rq->fair_server.deadline : 0;
	list_for_each_entry(dl_se, &dl_rq->tasks, run_node)
		if (dl_rq->earliest_dl.curr == 0 ||
		    dl_time_before(dl_se->deadline, dl_rq->earliest_dl.curr))
			dl_rq->earliest_dl.curr = dl_se->deadline;
}

/* __enqueue_dl_entity() and inc_dl_tasks(): a server does not count in nr_running */
static void __enqueue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	dl_se->on_dl_rq = true;
	rq->dl.dl_nr_running++;
	inc_dl_deadline(&rq->dl, rq, dl_se->deadline);
}

static void __dequeue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (!dl_se->on_dl_rq)
		return;
	dl_se->on_dl_rq = false;
	rq->dl.dl_nr_running--;
	dec_dl_deadline(&rq->dl, rq);
}

static void dequeue_dl_entity(struct sched_dl_entity *dl_se, int flags)
{
	(void)flags;
	__dequeue_dl_entity(dl_se);
}

/* ------------------------------------------------------------------ */
/* CBS: periods, replenishment, the wakeup rule                        */

/*
 * replenish_dl_new_period(): a new instance from now, with its full
 * runtime; a deferred server not handling starvation waits for its
 * zero-laxity point again.
 */
static void replenish_dl_new_period(struct sched_dl_entity *dl_se, struct rq *rq)
{
	dl_se->deadline = rq_clock(rq) + dl_se->dl_deadline;
	dl_se->runtime = (s64)dl_se->dl_runtime;
	if (dl_se->dl_defer && !dl_se->dl_defer_running) {
		dl_se->dl_throttled = true;
		dl_se->dl_defer_armed = true;
	}
}

/* setup_new_dl_entity(): a new instance, unless the timer will replenish it */
static void setup_new_dl_entity(struct sched_dl_entity *dl_se)
{
	if (dl_se->dl_throttled)
		return;
	replenish_dl_new_period(dl_se, dl_se->rq);
}

/*
 * dl_entity_overflow(): the CBS wakeup test, true when the runtime left
 * over the time left to the deadline exceeds the reserved bandwidth
 * (runtime / (deadline - t) > dl_runtime / dl_deadline), compared in ~us
 * units so the products cannot overflow.
 */
static bool dl_entity_overflow(const struct sched_dl_entity *dl_se, u64 t)
{
	u64 left = (dl_se->dl_deadline >> DL_SCALE) * (u64)(dl_se->runtime >> DL_SCALE);
	u64 right = ((dl_se->deadline - t) >> DL_SCALE) * (dl_se->dl_runtime >> DL_SCALE);

	return dl_time_before(right, left);
}

/* dl_next_period(): when the next instance may start */
static inline u64 dl_next_period(const struct sched_dl_entity *dl_se)
{
	return dl_se->deadline - dl_se->dl_deadline + dl_se->dl_period;
}

/*
 * start_dl_timer(): arm the timer at the zero-laxity point (a deferred
 * server's defer timer) or at the next period (replenishment). 0 if that
 * instant has already passed by a microsecond or more: the caller acts now.
 * A timer already queued is left where it is.
 */
static int start_dl_timer(struct sched_dl_entity *dl_se)
{
	struct hrtimer *timer = &dl_se->dl_timer;
	struct rq *rq = dl_se->rq;
	u64 now = cpu_now(), act;

	if (dl_se->dl_defer_armed)
		act = dl_se->deadline - (u64)dl_se->runtime;
	else
		act = dl_next_period(dl_se);
	/* the instant is in rq-clock time; the timer runs on the CPU's clock */
	act += now - rq_clock(rq);
	if ((s64)(act - now) / (s64)NSEC_PER_USEC < 0)
		return 0;
	if (!hrtimer_is_queued(timer)) {
		dl_se->dl_timer_expires = act;
		hrtimer_start_on(timer, cpu_of(rq), max(act, now));
	}
	return 1;
}

static void cancel_dl_timer(struct sched_dl_entity *dl_se)
{
	hrtimer_try_to_cancel(&dl_se->dl_timer);
}

static bool dl_replenish_lagged_warned;

/*
 * replenish_dl_entity(): the CBS replenishment at the timer. A deferred
 * server that could not use its runtime in the background reaches its
 * zero-laxity point with more than its bandwidth left: it starts a new
 * period from now. Otherwise the deadline moves on a period at a time
 * until there is runtime.
 */
static void replenish_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (!dl_se->dl_runtime)
		return;
	if (dl_se->dl_deadline == 0 ||
	    (dl_se->dl_defer_armed && dl_entity_overflow(dl_se, rq_clock(rq)))) {
		dl_se->deadline = rq_clock(rq) + dl_se->dl_deadline;
		dl_se->runtime = (s64)dl_se->dl_runtime;
	}
	while (dl_se->runtime <= 0) {
		dl_se->deadline += dl_se->dl_period;
		dl_se->runtime += (s64)dl_se->dl_runtime;
	}
	if (dl_time_before(dl_se->deadline, rq_clock(rq))) {
		/* printk_deferred_once() */
		if (!dl_replenish_lagged_warned) {
			dl_replenish_lagged_warned = true;
			fprintf(stderr, "[%5llu.%06llu] sched: DL replenish lagged too much\n",
				(unsigned long long)(cpu_now() / NSEC_PER_SEC),
				(unsigned long long)(cpu_now() % NSEC_PER_SEC / 1000));
		}
		replenish_dl_new_period(dl_se, rq);
	}
	dl_se->dl_throttled = false;
	/* the replenishment of a deferred reservation: done */
	if (dl_se->dl_defer_armed) {
		dl_se->dl_defer_armed = false;
		return;
	}
	/* not starved (any more): wait for the zero-laxity point of this period */
	if (dl_se->dl_defer && !dl_se->dl_defer_running &&
	    dl_time_before(rq_clock(rq), dl_se->deadline - (u64)dl_se->runtime)) {
		dl_se->dl_defer_armed = true;
		dl_se->dl_throttled = true;
		if (!start_dl_timer(dl_se)) {
			cancel_dl_timer(dl_se);
			dl_se->dl_defer_armed = false;
			dl_se->dl_throttled = false;
		}
	}
}

/*
 * update_dl_entity(): the CBS wakeup rule when the server is started. A
 * passed deadline, or runtime left that would exceed the bandwidth in the
 * time left, gets a new period; a deferred server that is not handling
 * starvation keeps its instance but waits for the zero-laxity point.
 * (The server's deadline is its period: the revised rule for constrained
 * deadlines does not apply.)
 */
static void update_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) ||
	    dl_entity_overflow(dl_se, rq_clock(rq))) {
		replenish_dl_new_period(dl_se, rq);
	} else if (dl_se->dl_server && dl_se->dl_defer) {
		if (!dl_se->dl_defer_running) {
			dl_se->dl_defer_armed = true;
			dl_se->dl_throttled = true;
		}
	}
}

/*
 * enqueue_dl_entity(): bring the instance up to date (the wakeup rule, or
 * the replenishment) and queue it, unless it is still throttled with its
 * timer armed.
 */
static void enqueue_dl_entity(struct sched_dl_entity *dl_se, int flags)
{
	if (flags & ENQUEUE_WAKEUP)
		update_dl_entity(dl_se);
	else if (flags & ENQUEUE_REPLENISH)
		replenish_dl_entity(dl_se);
	/* deferred and waiting: the timer will queue it */
	if (dl_se->dl_throttled && start_dl_timer(dl_se))
		return;
	/* the instant has passed: queue it now, unthrottled and unarmed */
	if (dl_se->dl_throttled) {
		cancel_dl_timer(dl_se);
		dl_se->dl_defer_armed = false;
		dl_se->dl_throttled = false;
	}
	__enqueue_dl_entity(dl_se);
}

/* ------------------------------------------------------------------ */
/* the timer                                                           */

/* hrtimer_forward_now(): the next expiry @interval after the last one that is after now */
static u64 dl_timer_forward_now(struct sched_dl_entity *dl_se, u64 now, u64 interval)
{
	u64 expires = dl_se->dl_timer_expires;

	if (now < expires)
		return expires;
	if (!interval)
		interval = 1;
	if (now - expires >= interval) {
		expires += (now - expires) / interval * interval;
		if (expires > now)
			return expires;
	}
	return expires + interval;
}

/*
 * dl_server_timer(): the zero-laxity point, or the next period. At the
 * zero-laxity point with runtime still unused, fair tasks were starved:
 * dl_defer_running, a fresh period and the server queued, so the CPU
 * reschedules and picks fair above RT. If the runtime went down meanwhile
 * (fair ran in the background), the timer moves to the new zero-laxity
 * point instead, unless that is less than DL_SERVER_MIN_RES away.
 */
static void dl_server_timer(struct hrtimer *timer)
{
	struct sched_dl_entity *dl_se = container_of(timer, struct sched_dl_entity, dl_timer);
	struct rq *rq = dl_se->rq;

	rq_lock(rq);
	if (!dl_se->dl_throttled || !dl_se->dl_runtime)
		goto unlock;
	update_rq_clock(rq);
	if (dl_se->dl_defer_armed) {
		if (dl_time_before(rq_clock(rq),
				   dl_se->deadline - (u64)dl_se->runtime - DL_SERVER_MIN_RES)) {
			u64 fw = dl_se->deadline - rq_clock(rq) - (u64)dl_se->runtime;

			dl_se->dl_timer_expires = dl_timer_forward_now(dl_se, cpu_now(), fw);
			hrtimer_start_on(timer, cpu_of(rq), dl_se->dl_timer_expires);
			goto unlock;
		}
		dl_se->dl_defer_running = true;
		dl_se->nr_zero_laxity++;
	}
	enqueue_dl_entity(dl_se, ENQUEUE_REPLENISH);
	/* no DL task can be running: the server outranks curr */
	resched_curr(rq);
unlock:
	rq_unlock(rq);
}

/* ------------------------------------------------------------------ */
/* accounting                                                          */

/*
 * update_curr_dl_se() for the server: the runtime its class used. Used up
 * in the background (throttled, deferred): not needed this period, so a
 * new one starts from now, deferred again. Used up while queued: throttled
 * until the next period, and the CPU reschedules.
 */
static void update_curr_dl_se(struct rq *rq, struct sched_dl_entity *dl_se, s64 delta_exec)
{
	if (delta_exec <= 0)
		return;
	/* a server's runtime is not scaled by capacity or frequency */
	dl_se->runtime -= delta_exec;
	if (dl_se->dl_defer && dl_se->dl_throttled && dl_runtime_exceeded(dl_se)) {
		dl_se->dl_defer_running = false;
		cancel_dl_timer(dl_se);
		replenish_dl_new_period(dl_se, rq);
		/* the kernel warns if this fails; the new zero-laxity point is a period away */
		start_dl_timer(dl_se);
		return;
	}
	if (dl_runtime_exceeded(dl_se)) {
		dl_se->nr_throttled++;
		dl_se->dl_throttled = true;
		dequeue_dl_entity(dl_se, 0);
		if (!start_dl_timer(dl_se)) {
			replenish_dl_new_period(dl_se, rq);
			start_dl_timer(dl_se);
		}
		/* no longer the leftmost DL entity (none is queued now) */
		resched_curr(rq);
	}
}

void dl_server_update(struct sched_dl_entity *dl_se, s64 delta_exec)
{
	/* runtime 0: the server is disabled */
	if (dl_se->dl_runtime)
		update_curr_dl_se(dl_se->rq, dl_se, delta_exec);
}

/*
 * dl_server_update_idle_time(): a deferred server counts idle time as time
 * the fair class could have run (RT did not take it), from @p's
 * se.exec_start; running out that way also ends dl_defer_running.
 */
void dl_server_update_idle_time(struct rq *rq, struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &rq->fair_server;
	s64 delta_exec;

	if (!dl_se->dl_defer)
		return;
	/* no need to discount more */
	if (dl_se->runtime < 0)
		return;
	delta_exec = (s64)(rq->clock_task - p->se.exec_start);
	if (delta_exec < 0)
		return;
	dl_se->runtime -= delta_exec;
	if (dl_se->runtime < 0) {
		dl_se->dl_defer_running = false;
		dl_se->runtime = 0;
	}
	p->se.exec_start = rq->clock_task;
}

/* ------------------------------------------------------------------ */
/* start, stop, init                                                   */

/*
 * dl_server_start(): the first fair task on an rq without any. The CBS
 * wakeup rule decides: deferred (its timer armed), or queued at once when
 * it is handling starvation (dl_defer_running) with runtime to spare. The
 * rq reschedules either way (no DL task can be running).
 */
void dl_server_start(struct sched_dl_entity *dl_se)
{
	if (!dl_se->dl_server || dl_se->dl_server_active)
		return;
	dl_se->dl_server_active = true;
	enqueue_dl_entity(dl_se, ENQUEUE_WAKEUP);
	resched_curr(dl_se->rq);
}

/*
 * dl_server_stop(): off the dl_rq, timer cancelled, inactive. Its runtime,
 * deadline and dl_defer_running stay for the next start.
 */
void dl_server_stop(struct sched_dl_entity *dl_se)
{
	if (!dl_se->dl_server || !dl_se->dl_server_active)
		return;
	dequeue_dl_entity(dl_se, DEQUEUE_SLEEP);
	cancel_dl_timer(dl_se);
	dl_se->dl_defer_armed = false;
	dl_se->dl_throttled = false;
	dl_se->dl_server_active = false;
}

/* dl_server_apply_params(): new runtime and period; the next start begins a period */
static void dl_server_apply_params(struct sched_dl_entity *dl_se, u64 runtime, u64 period)
{
	dl_se->dl_runtime = runtime;
	dl_se->dl_deadline = period;
	dl_se->dl_period = period;
	dl_se->runtime = 0;
	dl_se->deadline = 0;
	dl_se->dl_bw = to_ratio(period, runtime);
	dl_se->dl_density = to_ratio(period, runtime);
}

/* dl_server_init() via fair_server_init(): the server of @rq, not yet a server */
void fair_server_init(struct rq *rq)
{
	struct sched_dl_entity *dl_se = &rq->fair_server;

	*dl_se = (struct sched_dl_entity){ .rq = rq };
	hrtimer_init(&dl_se->dl_timer, dl_server_timer);
	/* once the workload is done, its timers alone do not prolong the run */
	hrtimer_set_background(&dl_se->dl_timer);
	rq->dl = (struct dl_rq){ 0 };
	INIT_LIST_HEAD(&rq->dl.tasks);
}

/*
 * sched_init_dl_servers(): once the domains are up, every CPU's server
 * gets its parameters (v6.18: 50 ms every 1000 ms; --sysctl
 * fair_server_runtime_ns/period_ns give every CPU others, as writes to the
 * debugfs files before the benchmark would) and becomes a deferred server
 * with a first instance from now.
 */
void sched_init_dl_servers(void)
{
	unsigned int cpu;

	dl_replenish_lagged_warned = false;
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct sched_dl_entity *dl_se = &rq->fair_server;

		dl_server_apply_params(dl_se, sysctl_sched.fair_server_runtime_ns,
				       sysctl_sched.fair_server_period_ns);
		dl_se->dl_server = true;
		dl_se->dl_defer = true;
		setup_new_dl_entity(dl_se);
	}
}

int fair_server_params_check(u64 runtime, u64 period)
{
	u64 limit = to_ratio(SYSCTL_SCHED_RT_PERIOD_US * NSEC_PER_USEC,
			     SYSCTL_SCHED_RT_RUNTIME_US * NSEC_PER_USEC);

	if (runtime > period || period > FAIR_SERVER_PERIOD_MAX || period < FAIR_SERVER_PERIOD_MIN)
		return -EINVAL;
	/*
	 * __dl_overflow(): every CPU's server counts against the root
	 * domain's limit; the same on each CPU, that is one CPU's share.
	 */
	if (to_ratio(period, runtime) > limit)
		return -EBUSY;
	return 0;
}

int sched_fair_server_write(unsigned int cpu, bool period, u64 value)
{
	struct rq *rq = cpu_rq(cpu);
	struct sched_dl_entity *dl_se = &rq->fair_server;
	u64 new_runtime = period ? dl_se->dl_runtime : value;
	u64 new_period = period ? value : dl_se->dl_period;
	int ret = fair_server_params_check(new_runtime, new_period);

	if (ret == -EINVAL)
		return ret;
	rq_lock(rq);
	update_rq_clock(rq);
	dl_server_stop(dl_se);
	if (!ret)
		dl_server_apply_params(dl_se, new_runtime, new_period);
	if (rq->cfs.h_nr_queued)
		dl_server_start(dl_se);
	rq_unlock(rq);
	return ret;
}

/* ------------------------------------------------------------------ */
/* DL tasks: what a special entity (schedutil's kthread) needs          */

/*
 * Only special DL tasks exist here (SCHED_DEADLINE is refused to
 * workloads): schedutil's sugov:N kthread, which sugov_kthread_create()
 * gives 1 ms every 10 ms ("fake (unused) bandwidth") and SCHED_FLAG_SUGOV.
 * Its runtime is never charged (update_curr_dl_se() returns for it), so it
 * is never throttled and takes no bandwidth (add_running_bw() skips it,
 * and with it the cpufreq kick that would call schedutil from its own
 * thread's enqueue). Each wakeup starts a new CBS instance: a full runtime
 * over a deadline 10 ms shrinks below the reserved bandwidth at once, so
 * dl_entity_overflow() holds whenever it wakes again. Its place in the pick
 * is its deadline, and it preempts any other DL entity (dl_entity_preempt()
 * is true for a special one), the fair server included.
 */

void setparam_dl(struct task_struct *p, u64 runtime, u64 deadline, u64 period, u64 flags)
{
	struct sched_dl_entity *dl_se = &p->dl;

	dl_se->dl_runtime = runtime;
	dl_se->dl_deadline = deadline;
	dl_se->dl_period = period;
	dl_se->flags = flags;
	dl_se->dl_bw = to_ratio(period, runtime);
	dl_se->dl_density = to_ratio(deadline, runtime);
	dl_se->runtime = 0;
	dl_se->deadline = 0;
}

/* dl_entity_preempt(): @a runs before @b */
static inline bool dl_entity_preempt(const struct sched_dl_entity *a,
				     const struct sched_dl_entity *b)
{
	return dl_entity_is_special(a) || dl_time_before(a->deadline, b->deadline);
}

/* update_curr_dl(): curr's run time; a special entity's budget is not charged */
static void update_curr_dl(struct rq *rq)
{
	if (!dl_task(rq->curr))
		return;
	update_curr_common(rq);
}

void enqueue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_dl_entity *dl_se = &p->dl;

	dl_se->rq = rq;
	/* a wakeup (or the first one) applies the CBS wakeup rule */
	if (flags & (ENQUEUE_WAKEUP | ENQUEUE_INITIAL))
		update_dl_entity(dl_se);
	list_add_tail(&dl_se->run_node, &rq->dl.tasks);
	__enqueue_dl_entity(dl_se);
	/* add_nr_running(): a second task makes the root domain overloaded */
	if (++rq->nr_running == 2)
		cpu_rd(cpu_of(rq))->overloaded = true;
}

void dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_dl_entity *dl_se = &p->dl;

	(void)flags;
	update_curr_dl(rq);
	list_del_init(&dl_se->run_node);
	__dequeue_dl_entity(dl_se);
	rq->nr_running--;
}

struct task_struct *pick_task_dl(struct rq *rq)
{
	struct sched_dl_entity *best = NULL, *dl_se;

	list_for_each_entry(dl_se, &rq->dl.tasks, run_node)
		if (!best || dl_entity_preempt(dl_se, best))
			best = dl_se;
	if (!best)
		return NULL;
	/* the server queued with an earlier deadline runs its fair task first */
	if (rq->fair_server.on_dl_rq && !dl_entity_preempt(best, &rq->fair_server))
		return NULL;
	return container_of(best, struct task_struct, dl);
}

void set_next_task_dl(struct rq *rq, struct task_struct *p, bool first)
{
	(void)first;
	p->se.exec_start = rq->clock_task;
}

void put_prev_task_dl(struct rq *rq, struct task_struct *p)
{
	(void)p;
	update_curr_dl(rq);
}

void task_tick_dl(struct rq *rq, struct task_struct *p)
{
	(void)p;
	update_curr_dl(rq);
}

/* wakeup_preempt_dl(): both DL; the earlier deadline (or the special one) runs */
void wakeup_preempt_dl(struct rq *rq, struct task_struct *p, int wake_flags)
{
	(void)wake_flags;
	if (dl_entity_preempt(&p->dl, &rq->curr->dl))
		resched_curr(rq);
}

/*
 * select_task_rq_dl(): the task's own CPU, unless a DL task runs there that
 * it would not preempt (find_later_rq()) or the CPU does not fit it. A
 * special entity preempts every DL task, and capacity fitting asks for its
 * (unused) bandwidth, which a special entity has none of: its CPU it is.
 */
unsigned int select_task_rq_dl(struct task_struct *p, unsigned int cpu, int wake_flags)
{
	(void)p;
	(void)wake_flags;
	return cpu;
}
