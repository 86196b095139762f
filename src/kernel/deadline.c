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

/* rq_of_dl_se(): a task's rq is where it is now (set_task_cpu()), a server's its own */
static inline struct rq *rq_of_dl_se(struct sched_dl_entity *dl_se)
{
	if (dl_se->dl_server)
		return dl_se->rq;
	return task_rq(container_of(dl_se, struct task_struct, dl));
}

/* ------------------------------------------------------------------ */
/* running_bw and this_bw (GRUB's active and total utilization)        */

/*
 * __add_running_bw() / __sub_running_bw(): the rq's active utilization
 * changed, and schedutil is told (cpu_bw_dl() is its minimum). An
 * underflow is clamped to 0 as the kernel does after its warning; --check
 * compares both sums with the entities they stand for (check.c).
 */
static void __add_running_bw(u64 dl_bw, struct rq *rq)
{
	rq->dl.running_bw += dl_bw;
	cpufreq_update_util(rq, 0);
}

static void __sub_running_bw(u64 dl_bw, struct rq *rq)
{
	rq->dl.running_bw = rq->dl.running_bw < dl_bw ? 0 : rq->dl.running_bw - dl_bw;
	cpufreq_update_util(rq, 0);
}

static void __add_rq_bw(u64 dl_bw, struct rq *rq)
{
	rq->dl.this_bw += dl_bw;
}

static void __sub_rq_bw(u64 dl_bw, struct rq *rq)
{
	rq->dl.this_bw = rq->dl.this_bw < dl_bw ? 0 : rq->dl.this_bw - dl_bw;
}

/* the same for an entity: schedutil's special kthread has no bandwidth */
static void add_running_bw(struct sched_dl_entity *dl_se, struct rq *rq)
{
	if (!dl_entity_is_special(dl_se))
		__add_running_bw(dl_se->dl_bw, rq);
}

static void sub_running_bw(struct sched_dl_entity *dl_se, struct rq *rq)
{
	if (!dl_entity_is_special(dl_se))
		__sub_running_bw(dl_se->dl_bw, rq);
}

static void add_rq_bw(struct sched_dl_entity *dl_se, struct rq *rq)
{
	if (!dl_entity_is_special(dl_se))
		__add_rq_bw(dl_se->dl_bw, rq);
}

static void sub_rq_bw(struct sched_dl_entity *dl_se, struct rq *rq)
{
	if (!dl_entity_is_special(dl_se))
		__sub_rq_bw(dl_se->dl_bw, rq);
}

/*
 * __dl_add() / __dl_sub(): bandwidth given out by (or back to) the root
 * domain; each of its CPUs has that share less (more) to reclaim
 * (__dl_update() on extra_bw: once for the whole span, extra_bw_all)
 */
static void __dl_update(struct root_domain *rd, s64 bw)
{
	rd->extra_bw_all += (u64)bw;
}

static void __dl_add(struct root_domain *rd, u64 tsk_bw, unsigned int cpus)
{
	rd->dl_bw.total_bw += tsk_bw;
	__dl_update(rd, -((s64)tsk_bw / cpus));
}

static void __dl_sub(struct root_domain *rd, u64 tsk_bw, unsigned int cpus)
{
	rd->dl_bw.total_bw -= tsk_bw;
	__dl_update(rd, (s64)tsk_bw / cpus);
}

/*
 * init_dl_rq_bw_ratio(): with the default sched_rt_runtime_us /
 * sched_rt_period_us (950000 / 1000000), GRUB lets a CPU's DL entities
 * use at most 95% of it (max_bw), all of it not yet given out (extra_bw)
 */
static void init_dl_rq_bw_ratio(struct dl_rq *dl_rq)
{
	u64 runtime = SYSCTL_SCHED_RT_RUNTIME_US * NSEC_PER_USEC;
	u64 period = SYSCTL_SCHED_RT_PERIOD_US * NSEC_PER_USEC;

	dl_rq->bw_ratio = to_ratio(runtime, period) >> (BW_SHIFT - RATIO_SHIFT);
	dl_rq->max_bw = dl_rq->extra_bw = to_ratio(period, runtime);
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
		cpudl_set(cpu_rd(cpu_of(rq))->cpudl, cpu_of(rq), deadline);
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
		dl_rq->earliest_dl.next = 0;
		cpudl_clear(cpu_rd(cpu_of(rq))->cpudl, cpu_of(rq));
		cpupri_set(rq, rq->rt.highest_prio.curr);
		return;
	}
	dl_rq->earliest_dl.curr = rq->fair_server.on_dl_rq ? rq->fair_server.deadline : 0;
	list_for_each_entry(dl_se, &dl_rq->tasks, run_node)
		if (dl_rq->earliest_dl.curr == 0 ||
		    dl_time_before(dl_se->deadline, dl_rq->earliest_dl.curr))
			dl_rq->earliest_dl.curr = dl_se->deadline;
	cpudl_set(cpu_rd(cpu_of(rq))->cpudl, cpu_of(rq), dl_rq->earliest_dl.curr);
}

/*
 * __enqueue_dl_entity() and inc_dl_tasks(): a task counts in nr_running
 * while it is on the dl_rq (a throttled one does not), a server never
 */
static void __enqueue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	dl_se->on_dl_rq = true;
	rq->dl.dl_nr_running++;
	if (!dl_se->dl_server) {
		list_add_tail(&dl_se->run_node, &rq->dl.tasks);
		/* add_nr_running(): a second task makes the root domain overloaded */
		if (++rq->nr_running == 2)
			cpu_rd(cpu_of(rq))->overloaded = true;
	}
	inc_dl_deadline(&rq->dl, rq, dl_se->deadline);
}

static void __dequeue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (!dl_se->on_dl_rq)
		return;
	dl_se->on_dl_rq = false;
	rq->dl.dl_nr_running--;
	if (!dl_se->dl_server) {
		list_del_init(&dl_se->run_node);
		rq->nr_running--;
	}
	dec_dl_deadline(&rq->dl, rq);
}

static void task_non_contending(struct sched_dl_entity *dl_se);
static void task_contending(struct sched_dl_entity *dl_se, int flags);
static void dl_rq_change_utilization(struct rq *rq, struct sched_dl_entity *dl_se, u64 new_bw);
static void dl_change_utilization(struct task_struct *p, u64 new_bw);
static void inactive_task_timer(struct hrtimer *timer);
static unsigned int dl_bw_cpus(void);

/*
 * dequeue_dl_entity(): a move to another rq (or a change of parameters)
 * takes the entity's bandwidth with it at once; a block or exit keeps it
 * active until the 0-lag time (task_non_contending())
 */
static void dequeue_dl_entity(struct sched_dl_entity *dl_se, int flags)
{
	__dequeue_dl_entity(dl_se);
	if (flags & (DEQUEUE_SAVE | DEQUEUE_MIGRATING)) {
		struct rq *rq = rq_of_dl_se(dl_se);

		sub_running_bw(dl_se, rq);
		sub_rq_bw(dl_se, rq);
	}
	if (flags & DEQUEUE_SLEEP)
		task_non_contending(dl_se);
}

/* ------------------------------------------------------------------ */
/* pushable DL tasks and the overload state                            */

/* dl_set_overload() / dl_clear_overload(): the root domain's dlo_mask and count */
static void dl_set_overload(struct rq *rq)
{
	struct root_domain *rd = cpu_rd(cpu_of(rq));

	rd_overload_set(rd->dlo_mask, &rd->dlo_count, cpu_of(rq), true);
}

static void dl_clear_overload(struct rq *rq)
{
	struct root_domain *rd = cpu_rd(cpu_of(rq));

	rd_overload_set(rd->dlo_mask, &rd->dlo_count, cpu_of(rq), false);
}

static inline struct task_struct *dl_task_of(struct sched_dl_entity *dl_se)
{
	return container_of(dl_se, struct task_struct, dl);
}

/*
 * enqueue_pushable_dl_task(): in deadline order (the kernel's rb-tree, a
 * sorted list here: an rq holds few DL tasks), earliest_dl.next following
 * the first; the rq is overloaded from its first pushable task
 */
static void enqueue_pushable_dl_task(struct rq *rq, struct task_struct *p)
{
	struct dl_rq *dl_rq = &rq->dl;
	struct sched_dl_entity *pos;

	list_for_each_entry(pos, &dl_rq->pushable_tasks, pushable_node)
		if (dl_time_before(p->dl.deadline, pos->deadline))
			break;
	list_add_tail(&p->dl.pushable_node, &pos->pushable_node);
	p->dl.on_pushable = true;
	dl_rq->earliest_dl.next =
		list_first_entry(&dl_rq->pushable_tasks, struct sched_dl_entity, pushable_node)
			->deadline;
	if (!dl_rq->overloaded) {
		dl_set_overload(rq);
		dl_rq->overloaded = true;
	}
}

static void dequeue_pushable_dl_task(struct rq *rq, struct task_struct *p)
{
	struct dl_rq *dl_rq = &rq->dl;

	if (!p->dl.on_pushable)
		return;
	list_del_init(&p->dl.pushable_node);
	p->dl.on_pushable = false;
	if (!list_empty(&dl_rq->pushable_tasks)) {
		dl_rq->earliest_dl.next = list_first_entry(&dl_rq->pushable_tasks,
							   struct sched_dl_entity, pushable_node)
						  ->deadline;
		return;
	}
	if (dl_rq->overloaded) {
		dl_clear_overload(rq);
		dl_rq->overloaded = false;
	}
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
	/* a yielded instance gives its runtime up: the next period's is all it gets */
	if (dl_se->dl_yielded && dl_se->runtime > 0)
		dl_se->runtime = 0;
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
	dl_se->dl_yielded = false;
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

/* dl_is_implicit(): the relative deadline is the period */
static inline bool dl_is_implicit(const struct sched_dl_entity *dl_se)
{
	return dl_se->dl_deadline == dl_se->dl_period;
}

/*
 * update_dl_revised_wakeup(): a constrained-deadline task (deadline below
 * its period) that wakes before its deadline with too much runtime left
 * keeps its deadline, its runtime cut to its density times the laxity
 * (the revised CBS rule, which a full new period would break).
 */
static void update_dl_revised_wakeup(struct sched_dl_entity *dl_se, struct rq *rq)
{
	u64 laxity = dl_se->deadline - rq_clock(rq);

	dl_se->runtime = (s64)((dl_se->dl_density * laxity) >> BW_SHIFT);
}

/*
 * update_dl_entity(): the CBS wakeup rule, when a task wakes or the server
 * is started. A passed deadline, or runtime left that would exceed the
 * bandwidth in the time left, gets a new period (a constrained task before
 * its deadline the revised rule); a deferred server that is not handling
 * starvation keeps its instance but waits for the zero-laxity point.
 */
static void update_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) ||
	    dl_entity_overflow(dl_se, rq_clock(rq))) {
		if (!dl_se->dl_server && !dl_is_implicit(dl_se) &&
		    !dl_time_before(dl_se->deadline, rq_clock(rq))) {
			update_dl_revised_wakeup(dl_se, rq);
			return;
		}
		replenish_dl_new_period(dl_se, rq);
	} else if (dl_se->dl_server && dl_se->dl_defer) {
		if (!dl_se->dl_defer_running) {
			dl_se->dl_defer_armed = true;
			dl_se->dl_throttled = true;
		}
	}
}

/*
 * dl_check_constrained_dl(): a constrained task waking after its deadline
 * but before its next period must not run in between (it would take more
 * than its bandwidth): throttled until the period, its runtime gone.
 */
static void dl_check_constrained_dl(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) &&
	    dl_time_before(rq_clock(rq), dl_next_period(dl_se))) {
		if (!start_dl_timer(dl_se))
			return;
		dl_se->dl_throttled = true;
		if (dl_se->runtime > 0)
			dl_se->runtime = 0;
	}
}

/*
 * enqueue_dl_entity(): bring the instance up to date (the wakeup rule, or
 * the replenishment) and queue it, unless it is still throttled with its
 * timer armed.
 */
static void enqueue_dl_entity(struct sched_dl_entity *dl_se, int flags)
{
	/* a constrained task activated after its deadline waits for its next period */
	if (!dl_se->dl_throttled && !dl_is_implicit(dl_se))
		dl_check_constrained_dl(dl_se);
	/* arriving from another rq, or with new parameters: its bandwidth comes along */
	if (flags & (ENQUEUE_RESTORE | ENQUEUE_MIGRATING)) {
		struct rq *rq = rq_of_dl_se(dl_se);

		add_rq_bw(dl_se, rq);
		add_running_bw(dl_se, rq);
	}
	/*
	 * A throttled task is not queued (its timer will queue it), but a
	 * wakeup makes it active: its utilization counts, throttled or not
	 */
	if (!dl_se->dl_defer && dl_se->dl_throttled && !(flags & ENQUEUE_REPLENISH)) {
		if (flags & ENQUEUE_WAKEUP)
			task_contending(dl_se, flags);
		return;
	}
	if (flags & ENQUEUE_WAKEUP) {
		task_contending(dl_se, flags);
		update_dl_entity(dl_se);
	}
	else if (flags & ENQUEUE_REPLENISH)
		replenish_dl_entity(dl_se);
	else if ((flags & ENQUEUE_RESTORE) && dl_time_before(dl_se->deadline, rq_clock(dl_se->rq)))
		/* a new DL task (sched_setattr()), or one whose instance ended meanwhile */
		setup_new_dl_entity(dl_se);
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
 * grub_reclaim(): GRUB's accounting for a SCHED_FLAG_RECLAIM task. Its
 * runtime is not used up at dq = -dt but at
 *   dq = -(max{u, Umax - Uinact - Uextra} / Umax) dt,
 * u its bandwidth, Umax the most the CPU's DL entities may use (max_bw),
 * Uinact the rq's bandwidth not active now (this_bw - running_bw) and
 * Uextra what admission has not given out (extra_bw): the task runs on
 * what the others leave, up to Umax. u_inact + u_extra is compared with
 * Umax - u, as the kernel does, because it may exceed Umax.
 */
static u64 grub_reclaim(u64 delta, const struct rq *rq, const struct sched_dl_entity *dl_se)
{
	u64 u_inact = rq->dl.this_bw - rq->dl.running_bw;
	u64 u_extra = dl_rq_extra_bw(rq);
	u64 u_act;

	if (u_inact + u_extra > rq->dl.max_bw - dl_se->dl_bw)
		u_act = dl_se->dl_bw;
	else
		u_act = rq->dl.max_bw - u_inact - u_extra;
	u_act = (u_act * rq->dl.bw_ratio) >> RATIO_SHIFT;
	return (delta * u_act) >> BW_SHIFT;
}

/*
 * dl_scaled_delta_exec(): a task's runtime is charged in the work a CPU of
 * capacity 1024 at its highest frequency would have done, so that a
 * reservation means the same on every CPU; a reclaiming task's by GRUB
 * instead (GRUB-PA: the kernel lets the reclaimed bandwidth lower the
 * frequency rather than scale the charge)
 */
s64 dl_scaled_delta_exec(const struct rq *rq, const struct sched_dl_entity *dl_se, s64 delta_exec)
{
	unsigned int cpu = cpu_of(rq);
	u64 scaled;

	if (dl_se->flags & SCHED_FLAG_RECLAIM)
		return (s64)grub_reclaim((u64)delta_exec, rq, dl_se);
	scaled = cap_scale((u64)delta_exec, arch_scale_freq_capacity(cpu));
	return (s64)cap_scale(scaled, arch_scale_cpu_capacity(cpu));
}

/* is_leftmost(): @dl_se is queued with the earliest deadline of its dl_rq */
static inline bool is_leftmost(const struct sched_dl_entity *dl_se, const struct dl_rq *dl_rq)
{
	return dl_se->on_dl_rq && dl_se->deadline == dl_rq->earliest_dl.curr;
}

/*
 * update_curr_dl_se(): the runtime the server's class or a DL task used.
 * A server's is used up in the background (throttled, deferred): not
 * needed this period, so a new one starts from now, deferred again. Used
 * up while queued, or given up by sched_yield(): throttled until the next
 * period (the dl timer replenishes it), and the CPU reschedules.
 */
static void update_curr_dl_se(struct rq *rq, struct sched_dl_entity *dl_se, s64 delta_exec)
{
	if (delta_exec <= 0) {
		if (dl_se->dl_yielded)
			goto throttle;
		return;
	}
	/* schedutil's kthread is never charged */
	if (dl_entity_is_special(dl_se))
		return;
	/* a server's runtime is not scaled by capacity or frequency */
	dl_se->runtime -= dl_se->dl_server ? delta_exec : dl_scaled_delta_exec(rq, dl_se, delta_exec);
	if (dl_se->dl_defer && dl_se->dl_throttled && dl_runtime_exceeded(dl_se)) {
		dl_se->dl_defer_running = false;
		cancel_dl_timer(dl_se);
		replenish_dl_new_period(dl_se, rq);
		/* the kernel warns if this fails; the new zero-laxity point is a period away */
		start_dl_timer(dl_se);
		return;
	}
throttle:
	if (dl_runtime_exceeded(dl_se) || dl_se->dl_yielded) {
		dl_se->nr_throttled++;
		dl_se->dl_throttled = true;
		dequeue_dl_entity(dl_se, 0);
		if (!dl_se->dl_server)
			dequeue_pushable_dl_task(rq, dl_task_of(dl_se));
		if (!start_dl_timer(dl_se)) {
			/* the next period has begun already: replenished now */
			if (dl_se->dl_server) {
				replenish_dl_new_period(dl_se, rq);
				start_dl_timer(dl_se);
			} else {
				enqueue_dl_entity(dl_se, ENQUEUE_REPLENISH);
			}
		}
		if (!is_leftmost(dl_se, &rq->dl))
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

/*
 * dl_server_apply_params(): new runtime and period; the next start begins
 * a period. The server's bandwidth counts against the root domain's limit
 * like a task's (__dl_sub() and __dl_add(), dl_clear_root_domain()).
 */
static void dl_server_apply_params(struct sched_dl_entity *dl_se, u64 runtime, u64 period,
				   bool init)
{
	struct root_domain *rd = cpu_rd(cpu_of(dl_se->rq));
	u64 new_bw = to_ratio(period, runtime);

	/* its bandwidth belongs to its rq (this_bw) from the start */
	if (init) {
		__add_rq_bw(new_bw, dl_se->rq);
	} else {
		__dl_sub(rd, dl_se->dl_bw, dl_bw_cpus());
		dl_rq_change_utilization(dl_se->rq, dl_se, new_bw);
	}
	__dl_add(rd, new_bw, dl_bw_cpus());
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
	hrtimer_init(&dl_se->inactive_timer, inactive_task_timer);
	hrtimer_set_background(&dl_se->inactive_timer);
	rq->dl = (struct dl_rq){ 0 };
	init_dl_rq_bw_ratio(&rq->dl);
	INIT_LIST_HEAD(&rq->dl.tasks);
	INIT_LIST_HEAD(&rq->dl.pushable_tasks);
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
	/* init_dl_bw(): the limit per CPU; the servers' bandwidth is added below */
	cpu_rd(0)->dl_bw.bw = to_ratio(SYSCTL_SCHED_RT_PERIOD_US * NSEC_PER_USEC,
				       SYSCTL_SCHED_RT_RUNTIME_US * NSEC_PER_USEC);
	cpu_rd(0)->dl_bw.total_bw = 0;
	/* dl_clear_root_domain(): nothing given out yet, the servers are added below */
	cpu_rd(0)->extra_bw_all = 0;
	for_each_possible_cpu(cpu)
		cpu_rq(cpu)->dl.extra_bw = cpu_rq(cpu)->dl.max_bw;
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct sched_dl_entity *dl_se = &rq->fair_server;

		dl_server_apply_params(dl_se, sysctl_sched.fair_server_runtime_ns,
				       sysctl_sched.fair_server_period_ns, true);
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
		dl_server_apply_params(dl_se, new_runtime, new_period, false);
	if (rq->cfs.h_nr_queued)
		dl_server_start(dl_se);
	rq_unlock(rq);
	return ret;
}

/* ------------------------------------------------------------------ */
/* admission control (sched_setattr(), syscalls.c and deadline.c)      */

/*
 * The limits of a reservation's period (sysctl_sched_dl_period_min/max,
 * kernel/sched/syscalls.c defaults): 100 us .. 2^22 us (~4.19 s)
 */
#define SCHED_DL_PERIOD_MIN_US 100ULL
#define SCHED_DL_PERIOD_MAX_US (1ULL << 22)

/* dl_bw_cpus() and dl_bw_capacity(): the root domain's CPUs and their summed capacity */
static unsigned int dl_bw_cpus(void)
{
	return cpumask_weight(cpu_rd(0)->span);
}

static u64 dl_bw_capacity(void)
{
	const struct cpumask *span = cpu_rd(0)->span;
	u64 cap = 0;
	unsigned int i;

	if (!sched_asym_cpucapacity)
		return (u64)dl_bw_cpus() << SCHED_CAPACITY_SHIFT;
	for_each_cpu(i, span)
		cap += arch_scale_cpu_capacity(i);
	return cap;
}

/*
 * __dl_overflow(): replacing @old_bw by @new_bw would give out more than
 * the limit per CPU times the CPUs' capacity (in CPUs of 1024)
 */
static bool __dl_overflow(u64 cap, u64 old_bw, u64 new_bw)
{
	const struct root_domain *rd = cpu_rd(0);

	return cap_scale(rd->dl_bw.bw, cap) < rd->dl_bw.total_bw - old_bw + new_bw;
}

bool __checkparam_dl(const struct sched_attr *attr)
{
	u64 period = attr->sched_period ? attr->sched_period : attr->sched_deadline;

	if (attr->sched_flags & SCHED_FLAG_SUGOV)
		return true;
	if (attr->sched_deadline == 0)
		return false;
	/* dl_entity_overflow() drops DL_SCALE bits: the runtime must be at least that */
	if (attr->sched_runtime < (1ULL << DL_SCALE))
		return false;
	/* the top bit is the sign of dl_time_before()'s differences */
	if ((attr->sched_deadline | attr->sched_period) & (1ULL << 63))
		return false;
	if (period < attr->sched_deadline || attr->sched_deadline < attr->sched_runtime)
		return false;
	return period >= SCHED_DL_PERIOD_MIN_US * NSEC_PER_USEC &&
	       period <= SCHED_DL_PERIOD_MAX_US * NSEC_PER_USEC;
}

bool dl_affinity_covers_root_domain(const struct cpumask *mask)
{
	return cpumask_subset(cpu_rd(0)->span, mask);
}

bool sched_dl_new_overflows(const struct sched_attr *attr)
{
	u64 period = attr->sched_period ? attr->sched_period : attr->sched_deadline;

	return __dl_overflow(dl_bw_capacity(), 0, to_ratio(period, attr->sched_runtime));
}

int sched_dl_overflow(struct task_struct *p, unsigned int policy, const struct sched_attr *attr)
{
	struct root_domain *rd = cpu_rd(task_cpu(p));
	u64 period = attr->sched_period ? attr->sched_period : attr->sched_deadline;
	u64 new_bw = dl_policy(policy) ? to_ratio(period, attr->sched_runtime) : 0;
	u64 cap = dl_bw_capacity();

	if (attr->sched_flags & SCHED_FLAG_SUGOV)
		return 0;
	if (new_bw == p->dl.dl_bw && task_has_dl_policy(p))
		return 0;
	if (dl_policy(policy) && !task_has_dl_policy(p) && !__dl_overflow(cap, 0, new_bw)) {
		__dl_add(rd, new_bw, dl_bw_cpus());
		return 0;
	}
	if (dl_policy(policy) && task_has_dl_policy(p) &&
	    !__dl_overflow(cap, p->dl.dl_bw, new_bw)) {
		/* the kernel's XXX: a lower bandwidth is given back at once, not at the 0-lag time */
		__dl_sub(rd, p->dl.dl_bw, dl_bw_cpus());
		__dl_add(rd, new_bw, dl_bw_cpus());
		dl_change_utilization(p, new_bw);
		return 0;
	}
	/*
	 * leaving SCHED_DEADLINE: switched_from_dl() gives the bandwidth
	 * back at the 0-lag time
	 */
	if (!dl_policy(policy) && task_has_dl_policy(p))
		return 0;
	return -1;
}

/*
 * __dl_clear_params(): the task's reservation is gone (its bandwidth went
 * back to the root domain at its 0-lag time, or it was never admitted);
 * the timers stay initialised for a later reservation
 */
static void __dl_clear_params(struct sched_dl_entity *dl_se)
{
	dl_se->dl_runtime = dl_se->dl_deadline = dl_se->dl_period = 0;
	dl_se->dl_bw = dl_se->dl_density = 0;
	dl_se->flags = 0;
	dl_se->dl_throttled = dl_se->dl_yielded = false;
	dl_se->dl_non_contending = false;
}

/* dl_rq_change_utilization(): an entity not queued takes @new_bw on its rq */
static void dl_rq_change_utilization(struct rq *rq, struct sched_dl_entity *dl_se, u64 new_bw)
{
	if (dl_se->dl_non_contending) {
		sub_running_bw(dl_se, rq);
		dl_se->dl_non_contending = false;
		hrtimer_try_to_cancel(&dl_se->inactive_timer);
	}
	__sub_rq_bw(dl_se->dl_bw, rq);
	__add_rq_bw(new_bw, rq);
}

/* dl_change_utilization(): a queued task's bandwidth moves with its dequeue and enqueue */
static void dl_change_utilization(struct task_struct *p, u64 new_bw)
{
	if (task_on_rq_queued(p))
		return;
	dl_rq_change_utilization(task_rq(p), &p->dl, new_bw);
}

/*
 * dl_task_gone(): a task that left SCHED_DEADLINE or died gives its
 * bandwidth back to the root domain at its 0-lag time (now, or from its
 * inactive timer)
 */
static void dl_task_gone(struct task_struct *p)
{
	__dl_sub(cpu_rd(task_cpu(p)), p->dl.dl_bw, dl_bw_cpus());
	__dl_clear_params(&p->dl);
}

/*
 * task_non_contending(): a DL entity blocked (or a task died, or left the
 * class while queued). Its utilization stays active until its 0-lag time,
 * when the runtime left would have been used at its reserved bandwidth:
 * deadline - runtime * dl_period / dl_runtime. Past it, the rq's
 * running_bw drops now; before it, the inactive timer is armed for it
 * (dl_non_contending), and a wakeup before it fires cancels it.
 */
static void task_non_contending(struct sched_dl_entity *dl_se)
{
	struct rq *rq = rq_of_dl_se(dl_se);
	s64 zerolag_time;

	/* no reservation (a task given DL parameters but gone), or the special kthread */
	if (dl_se->dl_runtime == 0 || dl_entity_is_special(dl_se))
		return;
	zerolag_time = (s64)dl_se->deadline -
		       (s64)((dl_se->runtime * (s64)dl_se->dl_period) / (s64)dl_se->dl_runtime);
	/* relative to now: the timer is armed that far ahead */
	zerolag_time -= (s64)rq_clock(rq);
	if (zerolag_time < 0 || hrtimer_pending(&dl_se->inactive_timer)) {
		struct task_struct *p;

		if (dl_se->dl_server) {
			sub_running_bw(dl_se, rq);
			return;
		}
		p = dl_task_of(dl_se);
		if (dl_task(p))
			sub_running_bw(dl_se, rq);
		if (!dl_task(p) || p->__state == TASK_DEAD) {
			/* a dead task leaves its rq's total bandwidth too */
			if (p->__state == TASK_DEAD)
				sub_rq_bw(dl_se, rq);
			dl_task_gone(p);
		}
		return;
	}
	dl_se->dl_non_contending = true;
	hrtimer_start(&dl_se->inactive_timer, rq_clock(rq) + (u64)zerolag_time);
}

/*
 * task_contending(): a wakeup. Still before its 0-lag time, the entity
 * never left running_bw and its timer is cancelled; else its utilization
 * is active again. A wakeup from another CPU brings its this_bw along
 * (migrate_task_rq_dl() took it off the old rq).
 */
static void task_contending(struct sched_dl_entity *dl_se, int flags)
{
	struct rq *rq = rq_of_dl_se(dl_se);

	if (dl_se->dl_runtime == 0)
		return;
	if (flags & ENQUEUE_MIGRATED)
		add_rq_bw(dl_se, rq);
	if (dl_se->dl_non_contending) {
		dl_se->dl_non_contending = false;
		hrtimer_try_to_cancel(&dl_se->inactive_timer);
	} else {
		add_running_bw(dl_se, rq);
	}
}

/*
 * inactive_task_timer(): the 0-lag time of a blocked entity: its
 * utilization is no longer active. A task that left the class or died
 * meanwhile gives its bandwidth back to the root domain now; a dead one
 * may be freed from now on (the kernel's timer held a reference).
 */
static void inactive_task_timer(struct hrtimer *timer)
{
	struct sched_dl_entity *dl_se = container_of(timer, struct sched_dl_entity, inactive_timer);
	struct task_struct *p = dl_se->dl_server ? NULL : dl_task_of(dl_se);
	struct rq *rq = rq_of_dl_se(dl_se);

	rq_lock(rq);
	update_rq_clock(rq);
	if (p && (!dl_task(p) || p->__state == TASK_DEAD)) {
		if (p->__state == TASK_DEAD && dl_se->dl_non_contending) {
			sub_running_bw(dl_se, rq);
			sub_rq_bw(dl_se, rq);
		}
		dl_task_gone(p);
		if (p->__state == TASK_DEAD)
			sched_release_later(p);
		goto unlock;
	}
	if (!dl_se->dl_non_contending)
		goto unlock;
	sub_running_bw(dl_se, rq);
	dl_se->dl_non_contending = false;
unlock:
	rq_unlock(rq);
}

/*
 * migrate_task_rq_dl(): a waking task placed on another CPU takes its
 * bandwidth off the old rq now: all of it if it was still active there
 * (its timer cancelled), this_bw in any case; task_contending() adds it
 * on the new one
 */
void migrate_task_rq_dl(struct task_struct *p, unsigned int new_cpu)
{
	struct rq *rq = task_rq(p);

	(void)new_cpu;
	if (p->__state != TASK_WAKING)
		return;
	rq_lock(rq);
	if (p->dl.dl_non_contending) {
		update_rq_clock(rq);
		sub_running_bw(&p->dl, rq);
		p->dl.dl_non_contending = false;
		hrtimer_try_to_cancel(&p->dl.inactive_timer);
	}
	sub_rq_bw(&p->dl, rq);
	rq_unlock(rq);
}

/* ------------------------------------------------------------------ */
/* DL tasks                                                            */

/*
 * SCHED_DEADLINE tasks (sched_setattr()) and schedutil's sugov:N kthreads,
 * which sugov_kthread_create() gives 1 ms every 10 ms ("fake (unused)
 * bandwidth") and SCHED_FLAG_SUGOV. A special entity's runtime is never
 * charged (update_curr_dl_se() returns for it), so it is never throttled
 * and takes no bandwidth (add_running_bw() skips it, and with it the
 * cpufreq kick that would call schedutil from its own thread's enqueue).
 * Each wakeup starts a new CBS instance: a full runtime over a deadline
 * 10 ms shrinks below the reserved bandwidth at once, so
 * dl_entity_overflow() holds whenever it wakes again. Its place in the
 * pick is its deadline, and it preempts any other DL entity
 * (dl_entity_preempt() is true for a special one), the fair server
 * included.
 *
 * A task's runtime is charged at the tick and when it leaves the CPU
 * (HRTICK_DL is off by default, so an overrun lasts until the next tick);
 * out of runtime, or yielded, it is throttled: off the dl_rq and out of
 * nr_running while it stays on_rq, until dl_task_timer() replenishes it at
 * its next period.
 */

static void dl_task_timer(struct hrtimer *timer);

int update_dl_rq_load_avg(u64 now, struct rq *rq, int running)
{
	return pelt_update_running(now, &rq->avg_dl, running);
}

void setparam_dl(struct task_struct *p, u64 runtime, u64 deadline, u64 period, u64 flags)
{
	struct sched_dl_entity *dl_se = &p->dl;

	dl_se->dl_runtime = runtime;
	dl_se->dl_deadline = deadline;
	dl_se->dl_period = period ? period : deadline;
	dl_se->flags = flags;
	dl_se->dl_bw = to_ratio(dl_se->dl_period, runtime);
	dl_se->dl_density = to_ratio(deadline, runtime);
	/* init_dl_task_timer() and init_dl_inactive_task_timer(), done at fork by the kernel */
	if (!dl_se->dl_timer.function) {
		hrtimer_init(&dl_se->dl_timer, dl_task_timer);
		hrtimer_init(&dl_se->inactive_timer, inactive_task_timer);
		/* the 0-lag time alone does not prolong a run whose workload is done */
		hrtimer_set_background(&dl_se->inactive_timer);
	}
}

/* dl_entity_preempt(): @a runs before @b */
static inline bool dl_entity_preempt(const struct sched_dl_entity *a,
				     const struct sched_dl_entity *b)
{
	return dl_entity_is_special(a) || dl_time_before(a->deadline, b->deadline);
}

/* update_curr_dl(): curr's run time, charged to its runtime unless it is throttled */
static void update_curr_dl(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct sched_dl_entity *dl_se = &curr->dl;

	if (!dl_task(curr) || !dl_se->on_dl_rq)
		return;
	update_curr_dl_se(rq, dl_se, update_curr_common(rq));
}

void enqueue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_dl_entity *dl_se = &p->dl;

	dl_se->rq = rq;
	if (p->on_rq == TASK_ON_RQ_MIGRATING)
		flags |= ENQUEUE_MIGRATING;
	/*
	 * A task made DL before its first wakeup (a command's policy set
	 * before exec) starts its first instance now, and its bandwidth
	 * comes to this rq as sched_setattr()'s ENQUEUE_RESTORE would bring
	 * it for the running tool that execs the command.
	 */
	if (flags & ENQUEUE_INITIAL) {
		setup_new_dl_entity(dl_se);
		flags |= ENQUEUE_RESTORE;
	}
	/* throttled: on_rq, but its timer queues it at the replenishment */
	enqueue_dl_entity(dl_se, flags);
	if (rq->curr != p && !dl_se->dl_throttled && p->nr_cpus_allowed > 1)
		enqueue_pushable_dl_task(rq, p);
}

void dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	update_curr_dl(rq);
	if (p->on_rq == TASK_ON_RQ_MIGRATING)
		flags |= DEQUEUE_MIGRATING;
	dequeue_dl_entity(&p->dl, flags);
	dequeue_pushable_dl_task(rq, p);
}

/*
 * dl_task_timer(): a throttled task's next period. Asleep, it is only
 * replenished (its wakeup queues it); queued, it goes back on its dl_rq
 * and preempts curr if its deadline is earlier (or curr is not DL).
 */
static void dl_task_timer(struct hrtimer *timer)
{
	struct sched_dl_entity *dl_se = container_of(timer, struct sched_dl_entity, dl_timer);
	struct task_struct *p = container_of(dl_se, struct task_struct, dl);
	struct rq *rq = task_rq(p);

	rq_lock(rq);
	if (!dl_task(p) || !dl_se->dl_throttled)
		goto unlock;
	update_rq_clock(rq);
	dl_se->nr_replenished++;
	if (!task_on_rq_queued(p)) {
		replenish_dl_entity(dl_se);
		goto unlock;
	}
	dl_se->rq = rq;
	enqueue_task_dl(rq, p, ENQUEUE_REPLENISH);
	if (dl_task(rq->curr))
		wakeup_preempt_dl(rq, p, 0);
	else
		resched_curr(rq);
	/* __push_dl_task(): it may run at once elsewhere */
	push_dl_tasks(rq);
unlock:
	rq_unlock(rq);
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
	p->se.exec_start = rq->clock_task;
	/* the running task is not pushable */
	dequeue_pushable_dl_task(rq, p);
	if (!first)
		return;
	/* the CPU did not run DL until now: its DL average saw other time */
	if (!dl_task(rq->curr))
		update_dl_rq_load_avg(rq->clock_pelt, rq, 0);
	/* deadline_queue_push_tasks(): a balance callback, run after the switch */
	if (!list_empty(&rq->dl.pushable_tasks))
		rq->dl_push_pending = true;
}

void put_prev_task_dl(struct rq *rq, struct task_struct *p)
{
	update_curr_dl(rq);
	update_dl_rq_load_avg(rq->clock_pelt, rq, 1);
	/* still queued: the previous task may be pushed away */
	if (p->dl.on_dl_rq && p->nr_cpus_allowed > 1)
		enqueue_pushable_dl_task(rq, p);
}

void task_tick_dl(struct rq *rq, struct task_struct *p)
{
	(void)p;
	update_curr_dl(rq);
	update_dl_rq_load_avg(rq->clock_pelt, rq, 1);
}

void yield_task_dl(struct rq *rq)
{
	/*
	 * Its runtime forced to zero: update_curr_dl() throttles it and the
	 * timer gives it its next instance (dl_yielded).
	 */
	rq->curr->dl.dl_yielded = true;
	update_rq_clock(rq);
	update_curr_dl(rq);
}

/* wakeup_preempt_dl(): both DL; the earlier deadline (or the special one) runs */
void wakeup_preempt_dl(struct rq *rq, struct task_struct *p, int wake_flags)
{
	(void)wake_flags;
	if (dl_entity_preempt(&p->dl, &rq->curr->dl))
		resched_curr(rq);
}

static void pull_dl_task(struct rq *this_rq);

/* switched_to_dl(): a queued task that now outranks curr preempts it, or is pushed */
void switched_to_dl(struct rq *rq, struct task_struct *p)
{
	hrtimer_try_to_cancel(&p->dl.inactive_timer);
	/* asleep: its parameters are brought up to date at its wakeup */
	if (!task_on_rq_queued(p)) {
		add_rq_bw(&p->dl, rq);
		return;
	}
	if (rq->curr == p) {
		update_dl_rq_load_avg(rq->clock_pelt, rq, 0);
		return;
	}
	if (p->nr_cpus_allowed > 1 && rq->dl.overloaded)
		rq->dl_push_pending = true;
	if (dl_task(rq->curr))
		wakeup_preempt_dl(rq, p, 0);
	else
		resched_curr(rq);
}

/*
 * switched_from_dl(): the task's bandwidth goes back to the root domain
 * at its 0-lag time (task_non_contending() with the task no longer DL,
 * or its inactive timer). A sleeping task leaves its rq's sums now: it
 * may wake elsewhere in another class. If it is already inactive, no
 * timer will come: the kernel then keeps its bandwidth in total_bw
 * until it is DL again; here it goes back now (docs/policies.md).
 */
void switched_from_dl(struct rq *rq, struct task_struct *p)
{
	bool timer_armed;

	if (task_on_rq_queued(p) && p->dl.dl_runtime)
		task_non_contending(&p->dl);
	timer_armed = hrtimer_pending(&p->dl.inactive_timer);
	if (!task_on_rq_queued(p)) {
		if (p->dl.dl_non_contending)
			sub_running_bw(&p->dl, rq);
		sub_rq_bw(&p->dl, rq);
		if (!timer_armed && p->dl.dl_runtime)
			dl_task_gone(p);
	}
	/* the timer must not take running_bw: the task may move while not DL */
	p->dl.dl_non_contending = false;
	/* the rq may have no DL task left: pull one (deadline_queue_pull_task()) */
	if (!task_on_rq_queued(p) || rq->dl.dl_nr_running)
		return;
	pull_dl_task(rq);
}

/*
 * task_dead_dl(): v6.18 has none; the exit's dequeue (DEQUEUE_SLEEP with
 * TASK_DEAD) gave the bandwidth back or armed the inactive timer. Here a
 * replenishment timer still armed (the exit's update_curr_dl() throttled
 * it) is cancelled so that the task can be freed; firing, it would only
 * replenish a task that is gone.
 */
void task_dead_dl(struct task_struct *p)
{
	cancel_dl_timer(&p->dl);
}

/* ------------------------------------------------------------------ */
/* SMP: cpudl, find_later_rq(), push and pull                          */

/* find_later_rq()'s later_mask (the kernel's per-CPU local_cpu_mask_dl) */
static struct cpumask dl_later_mask;

/* dl_task_is_earliest_deadline(): @p would be the first of @rq's DL entities */
static inline bool dl_task_is_earliest_deadline(const struct task_struct *p, const struct rq *rq)
{
	return !rq->dl.dl_nr_running || dl_time_before(p->dl.deadline, rq->dl.earliest_dl.curr);
}

/*
 * find_later_rq(): a CPU where @task would run at once: free of DL, or
 * the one whose earliest deadline is the latest (cpudl_find()); of those,
 * its own CPU (cache hot), else this CPU or one of the lowest affine
 * domain's, as find_lowest_rq() does for RT. -1 if none.
 */
static int find_later_rq(struct task_struct *task)
{
	unsigned int cpu = task_cpu(task);

	if (task->nr_cpus_allowed == 1)
		return -1;
	if (!cpudl_find(cpu_rd(cpu)->cpudl, task, &dl_later_mask))
		return -1;
	return find_closest_cpu(&dl_later_mask, cpu);
}

/*
 * select_task_rq_dl(): at a wakeup, the task's own CPU, unless a DL task
 * runs there that it would not preempt (or that cannot move): then a CPU
 * find_later_rq() finds where it would be the earliest. A special entity
 * preempts every DL task, so it stays. (No capacity fitting.)
 */
unsigned int select_task_rq_dl(struct task_struct *p, unsigned int cpu, int wake_flags)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *curr;
	bool select_rq;

	if (!(wake_flags & WF_TTWU))
		return cpu;
	cl_read(&rq->cl.curr);
	curr = rq->curr;
	select_rq = dl_task(curr) &&
		    (curr->nr_cpus_allowed < 2 || !dl_entity_preempt(&p->dl, &curr->dl)) &&
		    p->nr_cpus_allowed > 1;
	if (select_rq) {
		int target = find_later_rq(p);

		if (target != -1 && dl_task_is_earliest_deadline(p, cpu_rq((unsigned int)target)))
			cpu = (unsigned int)target;
	}
	return cpu;
}

/*
 * find_lock_later_rq(): a CPU @task would be the earliest on, locked; NULL
 * if none. (The kernel retries DL_MAX_TRIES times when the target changed
 * while it dropped its lock for double_lock_balance(); nothing runs in
 * between here.)
 */
static struct rq *find_lock_later_rq(struct task_struct *task, struct rq *rq)
{
	struct rq *later_rq;
	int cpu = find_later_rq(task);

	if (cpu == -1 || (unsigned int)cpu == cpu_of(rq))
		return NULL;
	later_rq = cpu_rq((unsigned int)cpu);
	if (!dl_task_is_earliest_deadline(task, later_rq))
		return NULL;
	rq_lock(later_rq);
	update_rq_clock(later_rq);
	return later_rq;
}

/*
 * push_dl_task(): the earliest pushable task of @rq to a CPU where it runs
 * at once; 1 if moved. It costs what push_rt_task() does (the same work:
 * pick the first pushable task, find a CPU, lock it, move the task).
 */
static int push_dl_task(struct rq *rq)
{
	struct task_struct *next_task, *curr = rq->curr;
	struct rq *later_rq;

	if (!rq->dl.overloaded)
		return 0;
	charge(machine.cost->rt_push);
	next_task = dl_task_of(
		list_first_entry(&rq->dl.pushable_tasks, struct sched_dl_entity, pushable_node));
	/* it would preempt curr here: it just runs here */
	if (dl_task(curr) && dl_time_before(next_task->dl.deadline, curr->dl.deadline) &&
	    curr->nr_cpus_allowed > 1) {
		resched_curr(rq);
		return 0;
	}
	later_rq = find_lock_later_rq(next_task, rq);
	if (!later_rq)
		return 0;
	push_task_locked(rq, later_rq, next_task);
	rq->dl.nr_pushed++;
	return 1;
}

void push_dl_tasks(struct rq *rq)
{
	while (push_dl_task(rq))
		;
}

/* pick_earliest_pushable_dl_task(): the first that may go to @cpu */
static struct task_struct *pick_earliest_pushable_dl_task(struct rq *rq, unsigned int cpu)
{
	struct sched_dl_entity *dl_se;

	list_for_each_entry(dl_se, &rq->dl.pushable_tasks, pushable_node) {
		struct task_struct *p = dl_task_of(dl_se);

		if (!p->on_cpu && cpumask_test_cpu(cpu, p->cpus_mask))
			return p;
	}
	return NULL;
}

/*
 * pull_dl_task(): this CPU's earliest deadline went (its DL task blocked
 * or left); from each DL-overloaded CPU, take the earliest pushable task
 * that would be the earliest here (the earliest of all of them in the
 * end), unless it is about to preempt its own CPU's curr. Costs as
 * pull_rt_task() without RT_PUSH_IPI: rt_pull, and a CPU visit per CPU
 * of the dlo_mask looked at.
 */
static void pull_dl_task(struct rq *this_rq)
{
	unsigned int this_cpu = cpu_of(this_rq), cpu;
	struct root_domain *rd = cpu_rd(this_cpu);
	bool resched = false;
	u64 dmin = (u64)INT64_MAX;

	/* dl_overloaded() */
	if (!rd->dlo_count)
		return;
	charge(machine.cost->rt_pull);
	for_each_cpu(cpu, rd->dlo_mask) {
		struct rq *src_rq = cpu_rq(cpu);
		struct task_struct *p;

		if (cpu == this_cpu)
			continue;
		charge(machine.cost->lb_cpu_visit);
		cl_read(&src_rq->cl.rt);
		/* its earliest pushable would not be the earliest here */
		if (this_rq->dl.dl_nr_running &&
		    dl_time_before(this_rq->dl.earliest_dl.curr, src_rq->dl.earliest_dl.next))
			continue;
		rq_lock(src_rq);
		update_rq_clock(src_rq);
		if (src_rq->dl.dl_nr_running <= 1)
			goto skip;
		p = pick_earliest_pushable_dl_task(src_rq, this_cpu);
		if (p && dl_time_before(p->dl.deadline, dmin) &&
		    dl_task_is_earliest_deadline(p, this_rq)) {
			/* it is about to preempt its own CPU's curr: leave it */
			if (dl_task(src_rq->curr) &&
			    dl_time_before(p->dl.deadline, src_rq->curr->dl.deadline))
				goto skip;
			move_queued_task_locked(src_rq, this_rq, p);
			this_rq->dl.nr_pulled++;
			dmin = p->dl.deadline;
			resched = true;
		}
skip:
		rq_unlock(src_rq);
	}
	if (resched)
		resched_curr(this_rq);
}

/* balance_dl(): need_pull_dl_task() once the DL prev left the dl_rq */
void balance_dl(struct rq *rq, struct task_struct *prev)
{
	if (!prev->dl.on_dl_rq)
		pull_dl_task(rq);
}

/* task_woken_dl(): a woken DL task that does not preempt a DL curr may go elsewhere */
void task_woken_dl(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	if (curr != p && !rq->need_resched && p->nr_cpus_allowed > 1 && dl_task(curr) &&
	    (curr->nr_cpus_allowed < 2 || !dl_entity_preempt(&p->dl, &curr->dl)))
		push_dl_tasks(rq);
}
