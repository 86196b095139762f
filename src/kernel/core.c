// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler core (kernel/sched/core.c line of thought): runqueues and
 * their clocks, __schedule(), try_to_wake_up(), fork and exit, the tick,
 * resched_curr() and reschedule IPIs, and the kernel's side of the CPU step
 * machine (sim/cpu.c): the interrupt handlers and the return-to-user
 * decision that runs tasks' operations on the simulated CPUs.
 */
#include "kernel/sched.h"

#include "kernel/energy_model.h"
#include "kernel/funclat.h"
#include "kernel/futex.h"
#include "kernel/locking.h"
#include "kernel/rtmutex.h"
#include "kernel/tasklist.h"
#include "kernel/trace.h"
#include "kernel/pelt.h"
#include "sim/steal.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * set_task_max_allowed_capacity(): the largest capacity among the CPUs
 * @p may run on, which update_misfit_status() compares with (the kernel
 * walks asym_cap_list; a machine has few capacities, its CPUs are walked
 * here on each affinity change only).
 */
static void set_task_max_allowed_capacity(struct task_struct *p)
{
	unsigned long max_cap = 0;
	unsigned int cpu;

	for_each_cpu(cpu, p->cpus_mask)
		max_cap = max(max_cap, arch_scale_cpu_capacity(cpu));
	p->max_allowed_capacity = max_cap;
}

struct rq *runqueues;
struct sched_world sched_world;

/*
 * struct sched_entity is about 256 bytes in v6.18 (load, run_node,
 * deadline, min_vruntime, vruntime, slice, vlag, ...) before its avg:
 * the first two lines are the ones enqueue/pick/update_curr write.
 */
#define TASK_SE_LINES 2
/* cfs_rq fields an enqueue writes: load, nr_queued, avg_vruntime/load, tasks_timeline, curr */
#define CFS_RQ_LINES 2

/*
 * Nice level to load weight: each step is ~1.25x (10% CPU share change
 * between two tasks one nice level apart). These are the kernel's values.
 */
const int sched_prio_to_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548,	 7620,	6100,  4904,  3906,
	/*  -5 */ 3121,	 2501,	1991,  1586,  1277,
	/*   0 */ 1024,	 820,	655,   526,   423,
	/*   5 */ 335,	 272,	215,   172,   137,
	/*  10 */ 110,	 87,	70,    56,    45,
	/*  15 */ 36,	 29,	23,    18,    15,
};

/* 2^32 / weight, rounded, for division-free __calc_delta(). */
const u32 sched_prio_to_wmult[40] = {
	/* -20 */ 48388,     59856,	76040,	   92818,     118348,
	/* -15 */ 147320,    184698,	229616,	   287308,    360437,
	/* -10 */ 449829,    563644,	704093,	   875809,    1099582,
	/*  -5 */ 1376151,   1717300,	2157191,   2708050,   3363326,
	/*   0 */ 4194304,   5237765,	6557202,   8165337,   10153587,
	/*   5 */ 12820798,  15790321,	19976592,  24970740,  31350126,
	/*  10 */ 39045157,  49367440,	61356676,  76695844,  95443717,
	/*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

/* resched_latency_warn()'s ratelimit: 60 * 60 * HZ jiffies, one hour */
#define RESCHED_LATENCY_RATELIMIT_NS (3600ULL * NSEC_PER_SEC)
static const struct sim_cpu_ops sched_cpu_ops;

/* cpumask_any_and_distribute() with @rq's CPU's distribute_cpu_mask_prev */
static unsigned int __cpumask_any_and_distribute(struct rq *rq, const struct cpumask *a,
						 const struct cpumask *b)
{
	unsigned int next = cpumask_next_and_wrap(rq->distribute_cpu_mask_prev, a, b);

	if (next < nr_cpu_ids)
		rq->distribute_cpu_mask_prev = (int)next;
	return next;
}

/* ------------------------------------------------------------------ */
/* tasks and runqueues                                                 */

/*
 * @bound: a per-CPU kthread's read-only cpumask_of() its CPU, shared rather
 * than a mask of nr_cpus bits per CPU (two such threads per CPU); NULL: a
 * mask of the task's own.
 */
static struct task_struct *alloc_task(const char *comm, const struct cpumask *bound)
{
	struct task_struct *p = xcalloc(1, sizeof(*p));
	p->pid = sched_world.next_pid++;
	cache_line_init(&p->cl.state, 1);
	cache_line_init(&p->cl.pi, 1);
	cache_line_init(&p->cl.se, TASK_SE_LINES);
	cache_line_init(&p->cl.avg, 1);
	cache_line_init(&p->cl.tasks, 1);
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	/* ftrace and Perfetto split on spaces and '=': keep comms clean */
	for (char *c = p->comm; *c; c++)
		if (*c == ' ' || *c == '=')
			*c = '_';
	/* never written: an idle or stopper thread's affinity does not change */
	p->cpus_mask = bound ? (struct cpumask *)bound : alloc_cpumask();
	p->static_prio = p->normal_prio = p->prio = DEFAULT_PRIO;
	p->policy = SCHED_NORMAL;
	p->timer_slack_ns = p->default_timer_slack_ns = TIMER_SLACK_DEFAULT_NS;
	INIT_LIST_HEAD(&p->rt.run_list);
	INIT_LIST_HEAD(&p->pushable_tasks);
	INIT_LIST_HEAD(&p->dl.run_node);
	cache_footprint_init(&p->cache, 0);
	p->recent_used_cpu = -1;
	uclamp_task_init(p);
	INIT_LIST_HEAD(&p->wq_entry.entry);
	p->wq_entry.task = p;
	INIT_LIST_HEAD(&p->dying);
	INIT_LIST_HEAD(&p->pi_waiters);
	INIT_LIST_HEAD(&p->tasklist);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	list_add_tail(&p->tasks, &sched_world.tasks);
	return p;
}

/* ------------------------------------------------------------------ */
/* releasing exited tasks                                              */

static struct released_comm *released_comm(const char *comm)
{
	struct sched_world *w = &sched_world;
	struct released_comm *r;

	/* a handful of comms (a benchmark's programs): a linear search */
	for (unsigned int i = 0; i < w->nr_released_comms; i++)
		if (!strcmp(w->released_comms[i].comm, comm))
			return &w->released_comms[i];
	if (w->nr_released_comms == w->cap_released_comms) {
		w->cap_released_comms = w->cap_released_comms ? 2 * w->cap_released_comms : 8;
		w->released_comms = xreallocarray(w->released_comms, w->cap_released_comms,
						  sizeof(*w->released_comms));
	}
	r = &w->released_comms[w->nr_released_comms++];
	memset(r, 0, sizeof(*r));
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	return r;
}

/* what report/latency_print.c would have made of @p: its comm's row */
static void add_released_comm(const struct task_struct *p)
{
	struct released_comm *r;

	if (!p->stats.pcount)
		return;
	r = released_comm(p->comm);
	if (!r->merged || p->pid < r->pid)
		r->pid = p->pid;
	r->merged++;
	r->runtime += p->se.sum_exec_runtime;
	r->switches += p->stats.pcount;
	r->total_delay += p->stats.run_delay;
	if (p->stats.max_delay > r->max_delay ||
	    (p->stats.max_delay && p->stats.max_delay == r->max_delay &&
	     p->pid < r->max_delay_pid)) {
		r->max_delay = p->stats.max_delay;
		r->max_delay_at = p->stats.max_delay_at;
		r->max_delay_pid = p->pid;
	}
}

static void add_cumul(struct task_cumul *c, const struct task_struct *p)
{
	const struct task_cumul *pc = &p->cumul;

	c->nr_tasks += 1 + pc->nr_tasks;
	c->sum_exec_runtime += p->se.sum_exec_runtime + pc->sum_exec_runtime;
	c->utime += p->utime + pc->utime;
	c->nr_switches += p->stats.nr_switches + pc->nr_switches;
	c->nr_switched += (p->stats.nr_switches != 0) + pc->nr_switched;
	c->nr_migrations += p->stats.nr_migrations + pc->nr_migrations;
	c->run_delay += p->stats.run_delay + pc->run_delay;
	c->pcount += p->stats.pcount + pc->pcount;
}

static bool task_releasable(const struct task_struct *p)
{
	/* a zombie on its parent's children stays until a wait() reaps it (tasklist_wait()) */
	return p->__state == TASK_DEAD && !p->on_rq && !p->on_cpu && !p->nr_children_unreleased &&
	       list_empty(&p->wq_entry.entry) && list_empty(&p->sibling) &&
	       /* the kernel's inactive timer holds a reference until its 0-lag time */
	       !hrtimer_pending(&p->dl.inactive_timer) &&
	       (!p->exec || !p->exec->releasable || p->exec->releasable(p));
}

/* release_task(): into the parent's counters, then freed; a waiting parent follows */
static void release_task(struct task_struct *p)
{
	while (p) {
		struct task_struct *parent = p->parent;

		add_cumul(&parent->cumul, p);
		add_released_comm(p);
		list_del_init(&p->tasks);
		parent->nr_children_unreleased--;
		sched_world.nr_released++;
		if (p->exec && p->exec->release)
			p->exec->release(p);
		free_cpumask(p->cpus_mask);
		tasklist_task_free(p);
		free(p);
		p = NULL;
		if (parent->reap_waiting && task_releasable(parent)) {
			parent->reap_waiting = false;
			p = parent;
		}
	}
}

/*
 * sched_release_later(): a dead task whose inactive timer kept it (see
 * task_releasable()) is released at the next sched_release_dead()
 */
bool sched_fork_fails(const struct task_struct *parent)
{
	return task_has_dl_policy(parent) && !dl_entity_is_special(&parent->dl) &&
	       !parent->sched_reset_on_fork;
}

void sched_release_later(struct task_struct *p)
{
	if (p->reap && !p->kthread && list_empty(&p->dying))
		list_add_tail(&p->dying, &sched_world.dying);
}

void sched_release_dead(void)
{
	while (!list_empty(&sched_world.dying)) {
		struct task_struct *p =
			list_first_entry(&sched_world.dying, struct task_struct, dying);

		list_del_init(&p->dying);
		if (p->nr_children_unreleased)
			p->reap_waiting = true;
		else if (task_releasable(p))
			release_task(p);
		/* else it stays, as every task did before: nothing is freed in doubt */
	}
}

/* a per-CPU kernel thread (idle, stopper): bound to @cpu, no mm, pid 0 */
static struct task_struct *alloc_percpu_kthread(const char *comm, unsigned int cpu)
{
	struct task_struct *p = alloc_task(comm, cpumask_of(cpu));

	p->pid = 0;
	p->kthread = true;
	p->cpu = cpu;
	p->mm = -1;
	return p;
}

/* a kernel thread of the machine's own (no mm, a thread group of its own), not yet placed */
static struct task_struct *alloc_kthread(const char *comm, const struct task_exec *exec,
					 void *exec_data)
{
	struct task_struct *p = alloc_task(comm, NULL);

	p->exec = exec;
	p->exec_data = exec_data;
	p->kthread = true;
	p->mm = -1;
	p->tgid = p->pid;
	return p;
}

struct task_struct *sched_create_dl_kthread(const char *comm, unsigned int cpu,
					    const struct cpumask *allowed,
					    const struct task_exec *exec, void *exec_data,
					    u64 runtime, u64 deadline, u64 period, u64 flags)
{
	struct task_struct *p = alloc_kthread(comm, exec, exec_data);

	cpumask_copy(p->cpus_mask, allowed);
	p->nr_cpus_allowed = cpumask_weight(p->cpus_mask);
	set_task_max_allowed_capacity(p);
	p->cpu = p->wake_cpu = cpu;
	/* created at boot, it waits for work in kthread_worker_fn() */
	p->__state = TASK_INTERRUPTIBLE;
	/* sched_setattr_nocheck(SCHED_DEADLINE): __setscheduler_params(), __setparam_dl() */
	p->policy = SCHED_DEADLINE;
	p->rt_priority = 0;
	p->timer_slack_ns = 0;
	p->normal_prio = p->prio = DL_TASK_PRIO;
	setparam_dl(p, runtime, deadline, period, flags);
	set_load_weight(p);
	init_entity(&p->se);
	return p;
}

u64 sched_tick_phase(u64 seed)
{
	struct prng jitter;
	u64 t0;

	prng_init(&jitter, seed, PRNG_STREAM_JITTER);
	t0 = prng_below(&jitter, TICK_NSEC);
	/*
	 * PELT reads last_update_time == 0 as "never attached", and a clock
	 * below one 1024 ns step cannot move it off 0: an entity attached
	 * then would never age and would be attached again at every
	 * enqueue. A real machine is long past that when a benchmark starts;
	 * keep the rare seeds whose phase falls there one step later.
	 */
	if (t0 < PELT_CLOCK_STEP_NS)
		t0 += PELT_CLOCK_STEP_NS;
	return t0;
}

void sched_init(u64 start)
{
	unsigned int cpu;

	memset(&sched_world, 0, sizeof(sched_world));
	sched_uclamp_used = false;
	sched_init_granularity(machine.nr_cpus);
	INIT_LIST_HEAD(&sched_world.tasks);
	INIT_LIST_HEAD(&sched_world.dying);
	/* the locks of a previous run went with its workload */
	locking_reset();
	futex_reset();
	tasklist_reset();
	runqueues = xcalloc_aligned(machine.nr_cpus, sizeof(*runqueues), _Alignof(struct rq));
	sim_cpu_register_ops(&sched_cpu_ops);
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		char comm[32];

		rq->cpu = cpu;
		sim_lock_init(&rq->lock);
		cache_line_init(&rq->cl.nr, 1);
		cache_line_init(&rq->cl.curr, 1);
		cache_line_init(&rq->cl.clock, 1);
		cache_line_init(&rq->cl.cfs, CFS_RQ_LINES);
		cache_line_init(&rq->cl.cfs_avg, 1);
		cache_line_init(&rq->cl.idle, 1);
		cache_line_init(&rq->cl.wakelist, 1);
		cache_line_init(&rq->cl.psi, 1);
		cache_line_init(&rq->cl.cpufreq, 1);
		cache_line_init(&rq->cl.rt, 1);
		init_cfs_rq(&rq->cfs);
		init_rt_rq(&rq->rt);
		init_uclamp_rq(rq);
		fair_server_init(rq);
		snprintf(comm, sizeof(comm), "swapper/%u", cpu);
		rq->idle = alloc_percpu_kthread(comm, cpu);
		rq->idle->is_idle = true;
		rq->idle->on_cpu = 1;
		rq->curr = rq->idle;
		rq->active_mm = -1;
		rq->avg_idle = 2 * sysctl_sched.migration_cost_ns;
		rq->max_idle_balance_cost = sysctl_sched.migration_cost_ns;
		rq->tick_stopped = true;
		sim_cpu_bind_events(cpu, &rq->step_ev, &rq->tick_ev, &rq->ipi_ev, &rq->csd_ev);
		INIT_LIST_HEAD(&rq->cfs_tasks);
		rq->cpu_capacity = arch_scale_cpu_capacity(cpu);
		rq->idle_state = -1;
		rq->last_state_idx = -1;
		rq->idle_duration_avg = TICK_NSEC;
		cpuidle_gov_init(rq);
		rq->wake_list_tail = &rq->wake_list;
		rq->csd_list_tail = &rq->csd_list;
		snprintf(comm, sizeof(comm), "migration/%u", cpu);
		rq->stop = alloc_percpu_kthread(comm, cpu);
		rq->stop->is_stopper = true;
		rq->stop->__state = TASK_RUNNING;
	}
	/* pid 0 is the idle tasks'; real tasks count from 1 */
	sched_world.next_pid = 1;

	char err[256];
	if (build_sched_domains(machine.topo, err, sizeof(err))) {
		fprintf(stderr, "schedlab: %s\n", err);
		exit(1);
	}
	sched_balance_init();
	/* nothing above reads a clock, so they can all start here at once */
	machine_start_at(start);
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		rq->clock = rq->clock_task = rq->clock_pelt = start;
		/* set_next_task_idle() at boot: idle since the start */
		rq->idle->se.exec_start = start;
	}
	sched_init_dl_servers();
	cpufreq_init(&cpufreq_boot_setup);
	/* the drivers register the energy model; then the root domain's perf domains */
	em_init();
}

void sched_exit(void)
{
	struct task_struct *p, *n;

	em_exit();
	sched_uclamp_used = false;
	cpufreq_exit();
	sched_balance_exit();
	free_sched_domains();
	list_for_each_entry_safe(p, n, &sched_world.tasks, tasks) {
		/* the idle and stopper threads have cpumask_of() their CPU */
		if (!is_idle_task(p) && !p->is_stopper)
			free_cpumask(p->cpus_mask);
		tasklist_task_free(p);
		free(p);
	}
	INIT_LIST_HEAD(&sched_world.tasks);
	INIT_LIST_HEAD(&sched_world.dying);
	free(sched_world.released_comms);
	sched_world.released_comms = NULL;
	sched_world.nr_released_comms = sched_world.cap_released_comms = 0;
	free(runqueues);
	runqueues = NULL;
	locking_reset();
	futex_exit();
}

void set_load_weight(struct task_struct *p)
{
	int prio = p->static_prio - MAX_RT_PRIO;

	/* SCHED_IDLE: the lowest weight, whatever its nice */
	if (task_has_idle_policy(p)) {
		p->se.load.weight = scale_load(WEIGHT_IDLEPRIO);
		p->se.load.inv_weight = WMULT_IDLEPRIO;
		return;
	}
	p->se.load.weight = scale_load(sched_prio_to_weight[prio]);
	p->se.load.inv_weight = sched_prio_to_wmult[prio];
}

/*
 * Reweighting a queued task takes it off its runqueue first (DEQUEUE_SAVE
 * keeps its lag and relative deadline), so the queue's load and
 * avg_vruntime sums stay exact, and puts it back with ENQUEUE_RESTORE.
 */
void set_user_nice(struct task_struct *p, long nice)
{
	struct rq *rq = task_rq(p);
	bool queued, running;

	/* an RT task keeps the nice for when it goes back to a fair policy */
	if (task_has_rt_policy(p)) {
		p->static_prio = NICE_TO_PRIO((int)nice);
		return;
	}

	/* a delayed sleeper leaves the queue for good first */
	if (p->se.sched_delayed) {
		dequeue_task_fair(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED | DEQUEUE_NOCLOCK);
		p->on_rq = 0;
	}
	queued = task_on_rq_queued(p);
	running = rq->curr == p;
	if (queued)
		dequeue_task_fair(rq, p, DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
	if (running)
		put_prev_task_fair(rq, p);
	p->static_prio = p->normal_prio = p->prio = NICE_TO_PRIO((int)nice);
	set_load_weight(p);
	if (queued)
		enqueue_task_fair(rq, p, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK);
	if (running)
		set_next_task_fair(rq, p, false);
}

static int normal_prio(const struct task_struct *p);
static void __setscheduler_params(struct task_struct *p, const struct sched_attr *attr);
static int sched_attr_check(const struct sched_attr *attr);
static bool dequeue_task(struct rq *rq, struct task_struct *p, int flags);
static void enqueue_task(struct rq *rq, struct task_struct *p, int flags);
static void put_prev_task(struct rq *rq, struct task_struct *prev);
static void set_next_task(struct rq *rq, struct task_struct *p, bool first);
static inline u64 enqueue_cost(const struct task_struct *p);
static inline u64 dequeue_cost(const struct task_struct *p);

/* @p's place while its priority changes (__sched_setscheduler(), rt_mutex_setprio()) */
struct prio_change {
	int oldprio;
	bool queued, running, was_rt, was_dl;
};

/* a delayed sleeper leaves the queue for good first (dequeue_task(DEQUEUE_DELAYED)) */
static void prio_change_undelay(struct rq *rq, struct task_struct *p)
{
	if (p->se.sched_delayed) {
		dequeue_task_fair(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED | DEQUEUE_NOCLOCK);
		p->on_rq = 0;
	}
}

/* @p leaves its queue and stops being the running entity, its old priority kept in @pc */
static void prio_change_begin(struct rq *rq, struct task_struct *p, struct prio_change *pc)
{
	pc->oldprio = p->prio;
	pc->was_rt = rt_task(p);
	pc->was_dl = dl_task(p);
	pc->queued = task_on_rq_queued(p);
	pc->running = rq->curr == p;
	if (pc->queued) {
		charge(dequeue_cost(p));
		enqueue_lines(rq, p);
		dequeue_task(rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE | DEQUEUE_NOCLOCK);
	}
	if (pc->running)
		put_prev_task(rq, p);
}

/*
 * @p, with its new p->prio, comes back (to the head of an RT list when its
 * priority was lowered), and the classes react (check_class_changed()):
 * pull or push RT tasks, check preemption.
 */
static void prio_change_end(struct rq *rq, struct task_struct *p, const struct prio_change *pc)
{
	/* switching_from: the fair averages leave with the task */
	if (!pc->was_rt && !pc->was_dl && (rt_task(p) || dl_task(p)))
		switched_from_fair(rq, p);
	if (pc->queued) {
		int flags = ENQUEUE_RESTORE | ENQUEUE_MOVE | ENQUEUE_NOCLOCK;

		if (pc->oldprio < p->prio)
			flags |= ENQUEUE_HEAD;
		charge(enqueue_cost(p));
		enqueue_lines(rq, p);
		enqueue_task(rq, p, flags);
	}
	if (pc->running)
		set_next_task(rq, p, false);
	/* check_class_changed() */
	if (pc->was_dl != dl_task(p) || pc->was_rt != rt_task(p)) {
		if (pc->was_rt)
			switched_from_rt(rq, p);
		else if (pc->was_dl)
			switched_from_dl(rq, p);
		if (dl_task(p))
			switched_to_dl(rq, p);
		else if (rt_task(p))
			switched_to_rt(rq, p);
		else
			switched_to_fair(rq, p);
	} else if (pc->oldprio != p->prio) {
		if (rt_task(p))
			prio_changed_rt(rq, p, pc->oldprio);
		else
			prio_changed_fair(rq, p, pc->oldprio);
	}
}

/*
 * __sched_setscheduler(): the task leaves its queue, takes its new policy
 * and priority, maybe changing class, and comes back; a task boosted by
 * priority inheritance keeps the boost (rt_effective_prio()) and its new
 * priority goes along the chain it is blocked on (rt_mutex_adjust_pi()).
 */
int sched_setattr_nocheck(struct task_struct *p, const struct sched_attr *uattr)
{
	struct sched_attr kattr = *uattr, *attr = &kattr;
	struct prio_change pc;
	struct rq *rq;
	int ret;

	/* sched_setattr(): SCHED_FLAG_KEEP_POLICY / _KEEP_PARAMS take the task's own */
	if (attr->sched_flags & SCHED_FLAG_KEEP_POLICY)
		attr->sched_policy = p->policy;
	if (attr->sched_flags & SCHED_FLAG_KEEP_PARAMS) {
		attr->sched_nice = PRIO_TO_NICE(p->static_prio);
		attr->sched_priority = p->rt_priority;
		/* get_params(): a DL task's reservation */
		attr->sched_runtime = p->dl.dl_runtime;
		attr->sched_deadline = p->dl.dl_deadline;
		attr->sched_period = p->dl.dl_period;
	}
	ret = sched_attr_check(attr);
	if (ret)
		return ret;
	if (is_idle_task(p) || p->is_stopper || p->__state == TASK_DEAD)
		return -EINVAL;
	ret = uclamp_validate(p, attr);
	if (ret)
		return ret;
	/* DL admission control: the bandwidth is taken here, or -EBUSY */
	if ((dl_policy(attr->sched_policy) || task_has_dl_policy(p)) &&
	    sched_dl_overflow(p, attr->sched_policy, attr))
		return -EBUSY;
	charge(machine.cost->setscheduler);
	rq = task_rq(p);
	rq_lock(rq);
	update_rq_clock(rq);
	cl_write(&p->cl.se);
	prio_change_undelay(rq, p);
	prio_change_begin(rq, p, &pc);
	__setscheduler_params(p, attr);
	__setscheduler_uclamp(p, attr);
	p->prio = rt_effective_prio(p, p->normal_prio);
	prio_change_end(rq, p, &pc);
	rq_unlock(rq);
	if (p->pi_blocked_on)
		rt_mutex_adjust_pi(p);
	return 0;
}

int sched_setattr(struct task_struct *p, const struct sched_attr *attr)
{
	u32 policy = attr->sched_flags & SCHED_FLAG_KEEP_POLICY ? p->policy : attr->sched_policy;

	/*
	 * __sched_setscheduler(user): after the checks of the request itself
	 * (-EINVAL first), a DL task must be allowed on every CPU of its root
	 * domain, where its bandwidth is admitted
	 */
	if (dl_policy(policy) && !(attr->sched_flags & SCHED_FLAG_SUGOV) &&
	    !dl_affinity_covers_root_domain(p->cpus_mask)) {
		int ret = attr->sched_flags & SCHED_FLAG_KEEP_POLICY ? 0 : sched_attr_check(attr);

		return ret ? ret : -EPERM;
	}
	return sched_setattr_nocheck(p, attr);
}

/*
 * rt_mutex_setprio(): @p runs at the priority of @pi_task, the top waiter
 * of the rt_mutexes it owns, when that is higher than its own
 * (__rt_effective_prio()), or at its own (@pi_task NULL); a fair task
 * boosted to an RT priority runs in the RT class until the deboost.
 */
void rt_mutex_setprio(struct task_struct *p, struct task_struct *pi_task)
{
	int prio = __rt_effective_prio(pi_task, p->normal_prio);
	struct prio_change pc;
	struct rq *rq;

	if (p->pi_top_task == pi_task && prio == p->prio)
		return;
	rq = task_rq(p);
	rq_lock(rq);
	update_rq_clock(rq);
	p->pi_top_task = pi_task;
	if (prio != p->prio) {
		trace_sched(__trace_sched_pi_setprio(p, prio));
		cl_write(&p->cl.se);
		/* a class change takes a delayed sleeper off the fair queue first */
		if (rt_prio(prio) != rt_task(p))
			prio_change_undelay(rq, p);
		prio_change_begin(rq, p, &pc);
		p->prio = prio;
		prio_change_end(rq, p, &pc);
	}
	rq_unlock(rq);
}

int sched_setscheduler_nocheck(struct task_struct *p, int policy, int sched_priority)
{
	struct sched_attr attr = {
		.sched_policy = (u32)policy,
		.sched_priority = (u32)sched_priority,
		/* sched_setscheduler() keeps the nice */
		.sched_nice = PRIO_TO_NICE(p->static_prio),
	};

	if (policy < 0 || sched_priority < 0)
		return -EINVAL;
	return sched_setattr_nocheck(p, &attr);
}

/* ------------------------------------------------------------------ */
/* clocks                                                              */

static void update_rq_clock_pelt(struct rq *rq, s64 delta)
{
	if (is_idle_task(rq->curr)) {
		/* while idle, the PELT clock tracks the task clock */
		rq->clock_pelt = rq->clock_task;
		rq->clock_idle = rq->clock;
		return;
	}
	rq->clock_pelt += pelt_scale_time((u64)delta, arch_scale_cpu_capacity(cpu_of(rq)),
					  arch_scale_freq_capacity(cpu_of(rq)));
}

int update_irq_load_avg(struct rq *rq, u64 running)
{
	int ret;

	/*
	 * Not on clock_pelt, which does not advance through irq time or
	 * steal: the running time is scaled to the work it stands for, and
	 * taken to have happened just before now (the kernel's pessimistic
	 * choice): decay up to rq->clock - running, then accumulate running.
	 */
	running = cap_scale(running, arch_scale_freq_capacity(cpu_of(rq)));
	running = cap_scale(running, arch_scale_cpu_capacity(cpu_of(rq)));
	ret = ___update_load_sum(rq->clock - running, &rq->avg_irq, 0, 0, 0);
	ret += ___update_load_sum(rq->clock, &rq->avg_irq, 1, 1, 1);
	if (ret)
		___update_load_avg(&rq->avg_irq, 1);
	return ret;
}

/*
 * update_rq_clock_task() with CONFIG_IRQ_TIME_ACCOUNTING (when irqtime is
 * on): the interrupt time the CPU finished since the last update (at most
 * @delta: an update made inside an interrupt saw less clock than the
 * interrupt has when it ends; the rest is taken by the next update, so
 * clock_task never goes back) is not task time.
 */
static s64 irq_time_delta(struct rq *rq, s64 delta)
{
	u64 irq_delta = rq->hardirq_time + rq->softirq_time - rq->prev_irq_time;

	if (irq_delta > (u64)delta)
		irq_delta = (u64)delta;
	rq->prev_irq_time += irq_delta;
	return (s64)irq_delta;
}

/*
 * ... and with CONFIG_PARAVIRT_TIME_ACCOUNTING: the steal the host's
 * clock published since the last update (at most @delta; what is more is
 * dropped, as the kernel drops it) is not task time either. Both feed
 * avg_irq, which scale_rt_capacity() takes off the CPU's capacity.
 */
static s64 steal_delta(struct rq *rq, s64 delta, u64 now)
{
	u64 prev_steal = sim_steal_clock(cpu_of(rq), now);
	u64 steal = prev_steal - rq->prev_steal_time_rq;

	if (steal > (u64)delta)
		steal = (u64)delta;
	rq->prev_steal_time_rq = prev_steal;
	return (s64)steal;
}

void update_rq_clock(struct rq *rq)
{
	u64 now = cpu_now();
	s64 delta = (s64)(now - rq->clock);
	s64 irq_delta = 0, steal = 0;

	/* a remote rq's clock may be ahead of this CPU's cursor: clocks never go back */
	if (delta <= 0)
		return;
	cl_write(&rq->cl.curr);
	cl_write(&rq->cl.clock);
	rq->clock += (u64)delta;
	if (sysctl_sched.irqtime)
		irq_delta = irq_time_delta(rq, delta);
	delta -= irq_delta;
	if (unlikely(sim_steal_enabled()))
		steal = steal_delta(rq, delta, now);
	delta -= steal;
	rq->clock_task += (u64)delta;
	if ((irq_delta + steal) && sched_feat(NONTASK_CAPACITY))
		update_irq_load_avg(rq, (u64)(irq_delta + steal));
	update_rq_clock_pelt(rq, delta);
}

/* ------------------------------------------------------------------ */
/* rescheduling and IPIs                                               */

const char *const preempt_model_names[4] = { "none", "voluntary", "full", "lazy" };

void resched_curr(struct rq *rq)
{
	if (rq->need_resched)
		return;
	/* set_tsk_need_resched(): the flag is in curr's thread_info line */
	cl_write(&rq->curr->cl.state);
	rq->need_resched = true;
	if (cpu_of(rq) == smp_processor_id())
		return;
	/* an IPI, or nothing but the flag for a polling idle CPU */
	send_reschedule(cpu_of(rq));
}

/*
 * Every step boundary of a simulated CPU is a return to user (or a kernel
 * entry), where TIF_NEED_RESCHED and TIF_NEED_RESCHED_LAZY are both acted
 * on, so the preemption models differ only here: with PREEMPT_LAZY a
 * remote CPU gets the lazy flag without an IPI and acts on it at its next
 * interrupt or syscall, and the tick upgrades it. The other models set the
 * full flag (get_lazy_tif_bit()).
 */
void resched_curr_lazy(struct rq *rq)
{
	if (sysctl_sched.preempt != PREEMPT_LAZY_MODEL || is_idle_task(rq->curr)) {
		resched_curr(rq);
		return;
	}
	if (rq->need_resched || rq->need_resched_lazy)
		return;
	rq->need_resched_lazy = true;
}

/*
 * The wakee's class decides: the same class as curr asks the class, a
 * higher one (RT over fair) preempts, a lower one never does.
 */
void wakeup_preempt(struct rq *rq, struct task_struct *p, int wake_flags)
{
	struct task_struct *donor = rq->curr;

	if (is_idle_task(donor)) {
		resched_curr(rq);
		return;
	}
	/* the DL class is above RT and fair: a DL wakee preempts them */
	if (dl_task(p) || dl_task(donor)) {
		if (donor->is_stopper)
			return;
		if (!dl_task(donor))
			resched_curr(rq);
		else if (dl_task(p))
			wakeup_preempt_dl(rq, p, wake_flags);
		return;
	}
	if (rt_task(p) != rt_task(donor) || donor->is_stopper) {
		if (rt_task(p) && !donor->is_stopper)
			resched_curr(rq);
		return;
	}
	if (rt_task(p))
		wakeup_preempt_rt(rq, p, wake_flags);
	else
		check_preempt_wakeup_fair(rq, p, wake_flags);
}

/* ------------------------------------------------------------------ */
/* enqueue, dequeue, migration                                         */

static void sched_info_enqueue(struct task_struct *p)
{
	p->stats.last_queued = cpu_now();
	p->stats.queued_by_wakeup = true;
}

void enqueue_lines(struct rq *rq, struct task_struct *p)
{
	/* nr_running is on the lock's line, which the caller holds */
	cl_write(&rq->lock.line);
	/* a DL task's dl_rq sits with the rt_rq's counts in this model's lines */
	if (rt_task(p) || dl_task(p)) {
		/* the rt_rq's bitmap, list head and counts */
		cl_write(&rq->cl.rt);
	} else {
		cl_write(&rq->cl.cfs);
		cl_write(&rq->cl.cfs_avg);
	}
	cl_write(&rq->cl.psi);
	cl_write(&rq->cl.cpufreq);
	cl_write(&p->cl.se);
	cl_write(&p->cl.avg);
}

/* the class's enqueue_task() / dequeue_task(); false: stayed queued as delayed */
static void enqueue_task(struct rq *rq, struct task_struct *p, int flags)
{
	/* the DL class has no uclamp_enabled: its tasks are not counted in the buckets */
	if (dl_task(p)) {
		enqueue_task_dl(rq, p, flags);
		return;
	}
	/* before the class's: uclamp sees an ENQUEUE_DELAYED task still delayed */
	uclamp_rq_inc(rq, p, flags);
	if (rt_task(p))
		enqueue_task_rt(rq, p, flags);
	else
		enqueue_task_fair(rq, p, flags);
}

static bool dequeue_task(struct rq *rq, struct task_struct *p, int flags)
{
	if (dl_task(p)) {
		dequeue_task_dl(rq, p, flags);
		return true;
	}
	/* before the class's, which may keep the task queued as delayed */
	uclamp_rq_dec(rq, p);
	if (rt_task(p)) {
		dequeue_task_rt(rq, p, flags);
		return true;
	}
	return dequeue_task_fair(rq, p, flags);
}

/* a DL task's enqueue (an rb-tree insert and counts) costs what an RT one does */
static inline u64 enqueue_cost(const struct task_struct *p)
{
	return rt_task(p) || dl_task(p) ? machine.cost->rt_enqueue : machine.cost->enqueue;
}

static inline u64 dequeue_cost(const struct task_struct *p)
{
	return rt_task(p) || dl_task(p) ? machine.cost->rt_dequeue : machine.cost->dequeue;
}

/* the class's put_prev_task() (the stopper has nothing to put) */
static void put_prev_task(struct rq *rq, struct task_struct *prev)
{
	if (prev->is_stopper)
		return;
	if (is_idle_task(prev)) {
		put_prev_task_idle(rq, prev);
		return;
	}
	if (dl_task(prev))
		put_prev_task_dl(rq, prev);
	else if (rt_task(prev))
		put_prev_task_rt(rq, prev);
	else
		put_prev_task_fair(rq, prev);
}

static void set_next_task(struct rq *rq, struct task_struct *p, bool first)
{
	if (dl_task(p))
		set_next_task_dl(rq, p, first);
	else if (rt_task(p))
		set_next_task_rt(rq, p, first);
	else
		set_next_task_fair(rq, p, first);
}

/* put_prev_set_next_task(): a DL or RT pick; nothing to do when prev goes on */
static void put_prev_set_next_task(struct rq *rq, struct task_struct *prev,
				   struct task_struct *next)
{
	if (next == prev)
		return;
	put_prev_task(rq, prev);
	set_next_task(rq, next, true);
}

/* update_curr_common(): the run time of a DL or RT curr since its exec_start; 0 if none */
s64 update_curr_common(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	s64 delta_exec = (s64)(rq->clock_task - curr->se.exec_start);

	if (delta_exec <= 0)
		return 0;
	curr->se.exec_start = rq->clock_task;
	curr->se.sum_exec_runtime += (u64)delta_exec;
	rq->stat.rq_cpu_time += (u64)delta_exec;
	return delta_exec;
}

void activate_task(struct rq *rq, struct task_struct *p, int flags)
{
	charge(enqueue_cost(p));
	enqueue_lines(rq, p);
	enqueue_task(rq, p, flags);
	p->on_rq = TASK_ON_RQ_QUEUED;
	if (!(flags & ENQUEUE_RESTORE))
		sched_info_enqueue(p);
	p->woken_at = cpu_now();
}

void deactivate_task(struct rq *rq, struct task_struct *p, int flags)
{
	charge(dequeue_cost(p));
	enqueue_lines(rq, p);
	p->on_rq = TASK_ON_RQ_MIGRATING;
	dequeue_task(rq, p, flags);
}

void set_task_cpu(struct task_struct *p, unsigned int new_cpu)
{
	if (task_cpu(p) == new_cpu)
		return;
	trace_sched(__trace_sched_migrate_task(p, new_cpu));
	/* the class's migrate_task_rq(): fair's PELT averages, DL's bandwidth; RT has none */
	if (dl_task(p))
		migrate_task_rq_dl(p, new_cpu);
	else if (!rt_task(p))
		migrate_task_rq_fair(p, new_cpu);
	p->stats.nr_migrations++;
	{
		u64 h = sched_world.migration_digest ? sched_world.migration_digest
						     : 0xcbf29ce484222325ULL;
		u64 v[3] = { (u64)p->pid, task_cpu(p), new_cpu };

		for (int i = 0; i < 3; i++)
			h = (h ^ v[i]) * 0x100000001b3ULL;
		sched_world.migration_digest = h;
	}
	cpu_rq(new_cpu)->nr_migrations_in++;
	p->cpu = new_cpu;
	p->wake_cpu = new_cpu;
}

/* ------------------------------------------------------------------ */
/* wakeups                                                             */

/*
 * select_task_rq(): the class's choice, kept to the allowed CPUs. A task
 * that may run on more than one CPU gets WF_RQ_SELECTED (v6.19's wakeup
 * preemption reads it: the wakee could have gone elsewhere).
 */
static unsigned int select_task_rq(struct task_struct *p, unsigned int cpu, int *wake_flags)
{
	if (p->nr_cpus_allowed > 1) {
		if (dl_task(p))
			cpu = select_task_rq_dl(p, cpu, *wake_flags);
		else if (rt_task(p))
			cpu = select_task_rq_rt(p, cpu, *wake_flags);
		else
			cpu = select_task_rq_fair(p, cpu, *wake_flags);
		*wake_flags |= WF_RQ_SELECTED;
	} else {
		cpu = cpumask_first(p->cpus_mask);
	}
	if (!cpumask_test_cpu(cpu, p->cpus_mask))
		cpu = cpumask_first(p->cpus_mask);
	return cpu;
}

static void ttwu_stat(struct task_struct *p, unsigned int cpu)
{
	struct rq *rq = this_rq();

	rq->stat.ttwu_count++;
	if (cpu == cpu_of(rq)) {
		rq->stat.ttwu_local++;
	} else {
		struct sched_domain *sd;

		/* the lowest of our domains that spans the wakee's CPU */
		for_each_domain(cpu_of(rq), sd) {
			if (cpumask_test_cpu(cpu, sched_domain_span(sd))) {
				sd->ttwu_wake_remote++;
				break;
			}
		}
	}
	p->stats.nr_wakeups++;
}

/* the wakee becomes runnable on @rq (locked) */
void ttwu_do_activate(struct rq *rq, struct task_struct *p, int wake_flags)
{
	int en_flags = ENQUEUE_WAKEUP | ENQUEUE_NOCLOCK;

	if (wake_flags & WF_MIGRATED)
		en_flags |= ENQUEUE_MIGRATED;
	else if (p->in_iowait)
		rq->nr_iowait--;
	activate_task(rq, p, en_flags);
	wakeup_preempt(rq, p, wake_flags);
	p->__state = TASK_RUNNING;
	trace_sched(__trace_sched_wake(TRACE_SCHED_WAKEUP, p, cpu_of(rq)));
	/* the class's task_woken(): an RT or DL wakee that did not preempt may be pushed */
	if (rt_task(p))
		task_woken_rt(rq, p);
	else if (dl_task(p))
		task_woken_dl(rq, p);

	if (rq->idle_stamp)
		update_rq_avg_idle(rq);
}

void update_rq_avg_idle(struct rq *rq)
{
	bool avg_first = sched_feat(AVG_IDLE_AVG_FIRST);
	u64 delta = rq->clock - rq->idle_stamp;
	/* v3.12 and before: twice migration_cost (no max_idle_balance_cost yet) */
	u64 max = 2 * (avg_first ? rq->max_idle_balance_cost : sysctl_sched.migration_cost_ns);

	cl_write(&rq->cl.idle);
	if (!avg_first && delta > max) {
		/*
		 * v3.12 and before: one idle period over the cap sets avg_idle
		 * to the cap, however short the periods before it, so a CPU
		 * that idles briefly but now and then long keeps passing
		 * newidle balance's avg_idle < migration_cost test
		 */
		rq->avg_idle = max;
	} else {
		/* update_avg(): avg_idle += (delta - avg_idle) / 8, then capped */
		rq->avg_idle = (u64)((s64)rq->avg_idle +
				     ((s64)delta - (s64)rq->avg_idle) / SCHED_UPDATE_AVG_DIV);
		if (rq->avg_idle > max)
			rq->avg_idle = max;
	}
	rq->idle_stamp = 0;
}

/* A task still queued (a delayed dequeue) is woken where it is. */
static int ttwu_runnable(struct task_struct *p, int wake_flags)
{
	struct rq *rq = task_rq(p);

	rq_lock(rq);
	update_rq_clock(rq);
	if (p->se.sched_delayed) {
		charge(machine.cost->enqueue);
		enqueue_lines(rq, p);
		uclamp_rq_inc(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_DELAYED);
		enqueue_task_fair(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_DELAYED);
		sched_info_enqueue(p);
		p->woken_at = cpu_now();
	}
	if (rq->curr != p)
		wakeup_preempt(rq, p, wake_flags);
	p->__state = TASK_RUNNING;
	trace_sched(__trace_sched_wake(TRACE_SCHED_WAKEUP, p, cpu_of(rq)));
	rq_unlock(rq);
	return 1;
}

/*
 * ttwu_queue_cond(): when to hand the activation to the target CPU. v6.0+
 * (TTWU_QUEUE_IDLE): across LLCs, or to an empty runqueue in our LLC.
 * Before f3dd3f674555 only a wakee still on its CPU qualified in the LLC:
 * with nr_running == 0 (28156108fecb) or, in v5.8, nr_running <= 1
 * (TTWU_QUEUE_ON_CPU_LE1).
 */
static bool ttwu_queue_cond(struct task_struct *p, unsigned int cpu, int wake_flags)
{
	unsigned int this_cpu = smp_processor_id();
	unsigned int nr_running;

	if (!cpumask_test_cpu(cpu, p->cpus_mask))
		return false;
	read_rq_state(cpu);
	nr_running = cpu_rq(cpu)->nr_running;
	/* no shared cache: let the target do the work on its own data */
	if (!cpus_share_cache(this_cpu, cpu))
		return true;
	if (cpu == this_cpu)
		return false;
	if (sched_feat(TTWU_QUEUE_IDLE))
		return nr_running == 0;
	if (wake_flags & WF_ON_CPU)
		return sched_feat(TTWU_QUEUE_ON_CPU_LE1) ? nr_running <= 1 : nr_running == 0;
	return false;
}

static bool ttwu_queue_wakelist(struct task_struct *p, unsigned int cpu, int wake_flags)
{
	if (sched_feat(TTWU_QUEUE) && ttwu_queue_cond(p, cpu, wake_flags)) {
		__ttwu_queue_wakelist(p, cpu, wake_flags);
		return true;
	}
	return false;
}

static void ttwu_queue(struct task_struct *p, unsigned int cpu, int wake_flags)
{
	struct rq *rq = cpu_rq(cpu);

	if (ttwu_queue_wakelist(p, cpu, wake_flags))
		return;
	rq_lock(rq);
	update_rq_clock(rq);
	ttwu_do_activate(rq, p, wake_flags);
	rq_unlock(rq);
	this_rq()->nr_ttwu_direct++;
}

static int __try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags)
{
	const struct cost_model *cost = machine.cost;
	unsigned int cpu;

	/* raw_spin_lock_irqsave(&p->pi_lock), then p->__state and p->on_rq */
	cl_write(&p->cl.pi);
	cl_read(&p->cl.state);
	if (!(p->__state & state))
		return 0;
	charge(cost->ttwu);
	wake_flags |= WF_TTWU;
	trace_sched(__trace_sched_wake(TRACE_SCHED_WAKING, p, task_cpu(p)));

	if (p == current) {
		/* waking ourselves before we blocked: just stay runnable */
		p->__state = TASK_RUNNING;
		trace_sched(__trace_sched_wake(TRACE_SCHED_WAKEUP, p, task_cpu(p)));
		ttwu_stat(p, smp_processor_id());
		return 1;
	}

	if (p->on_rq && ttwu_runnable(p, wake_flags)) {
		ttwu_stat(p, task_cpu(p));
		return 1;
	}

	cl_write(&p->cl.state);
	p->__state = TASK_WAKING;

	/*
	 * The wakee may still be on its CPU, mid-switch-out. Hand the wakeup
	 * to that CPU's wakelist if the conditions allow, else wait for the
	 * switch to finish (smp_cond_load_acquire on p->on_cpu). Before v5.8
	 * (NO_TTWU_QUEUE_ON_CPU) the waker always waited, and "mid-switch-out"
	 * includes the newidle balance that CPU runs before it switches.
	 */
	if (p->on_cpu_until > cpu_now()) {
		if (sched_feat(TTWU_QUEUE_ON_CPU) &&
		    ttwu_queue_wakelist(p, task_cpu(p), wake_flags | WF_ON_CPU)) {
			ttwu_stat(p, task_cpu(p));
			return 1;
		}
		this_rq()->ttwu_on_cpu_spin_ns += p->on_cpu_until - cpu_now();
		sim_cpu_set_cursor(sim_cpu(smp_processor_id()), p->on_cpu_until);
	}

	cpu = select_task_rq(p, task_cpu(p), &wake_flags);
	if (cpu != task_cpu(p)) {
		if (p->in_iowait)
			task_rq(p)->nr_iowait--;
		wake_flags |= WF_MIGRATED;
		set_task_cpu(p, cpu);
	}
	ttwu_queue(p, cpu, wake_flags);
	ttwu_stat(p, cpu);
	return 1;
}

int try_to_wake_up(struct task_struct *p, unsigned int state, int wake_flags)
{
	u64 t0 = funclat_entry(FL_try_to_wake_up);
	int ret = __try_to_wake_up(p, state, wake_flags);

	funclat_exit(FL_try_to_wake_up, t0);
	return ret;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL, 0);
}

/* ------------------------------------------------------------------ */
/* fork and exit                                                       */

static void wake_up_new_task(struct task_struct *p)
{
	int wake_flags = WF_FORK;
	unsigned int cpu;
	struct rq *rq;

	p->__state = TASK_RUNNING;
	p->recent_used_cpu = (int)task_cpu(p);
	/* a workload's first tasks start where they are put; forks are placed */
	cpu = p->parent ? select_task_rq(p, task_cpu(p), &wake_flags) : task_cpu(p);
	p->cpu = p->wake_cpu = cpu;
	rq = cpu_rq(cpu);
	rq_lock(rq);
	update_rq_clock(rq);
	post_init_entity_util_avg(p);
	activate_task(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_INITIAL);
	trace_sched(__trace_sched_wake(TRACE_SCHED_WAKEUP_NEW, p, cpu));
	wakeup_preempt(rq, p, wake_flags);
	if (rt_task(p))
		task_woken_rt(rq, p);
	else if (dl_task(p))
		task_woken_dl(rq, p);
	rq_unlock(rq);
}

static int next_mm_id;

static struct task_struct *__sched_fork_task(struct task_struct *parent, bool thread,
					     const char *comm, const struct task_exec *exec,
					     void *exec_data, int cpu_hint, int bind_cpu,
					     const struct cpumask *allowed,
					     const struct sched_attr *attr);

struct task_struct *sched_fork_task(struct task_struct *parent, bool thread, const char *comm,
				    const struct task_exec *exec, void *exec_data, int cpu_hint)
{
	return __sched_fork_task(parent, thread, comm, exec, exec_data, cpu_hint, -1, NULL, NULL);
}

struct task_struct *sched_fork_task_on(struct task_struct *parent, bool thread, const char *comm,
				       const struct task_exec *exec, void *exec_data, int cpu_hint,
				       int bind_cpu)
{
	return __sched_fork_task(parent, thread, comm, exec, exec_data, cpu_hint, bind_cpu, NULL,
				 NULL);
}

struct task_struct *kthread_create_on_cpu(const char *comm, const struct task_exec *exec,
					  void *exec_data, unsigned int cpu)
{
	struct task_struct *p = alloc_kthread(comm, exec, exec_data);

	cpumask_clear(p->cpus_mask);
	cpumask_set_cpu(cpu, p->cpus_mask);
	p->nr_cpus_allowed = 1;
	set_task_max_allowed_capacity(p);
	p->cpu = p->wake_cpu = cpu;
	p->recent_used_cpu = (int)cpu;
	p->start_time = cpu_now();
	p->rt.time_slice = sched_rr_timeslice();
	set_load_weight(p);
	init_entity(&p->se);
	/* kthread(): parked in schedule() until the first wake_up_process() */
	p->__state = TASK_INTERRUPTIBLE;
	sched_world.nr_tasks_alive++;
	return p;
}

struct task_struct *sched_fork_task_allowed(const char *comm, const struct task_exec *exec,
					    void *exec_data, unsigned int cpu_hint,
					    const struct cpumask *allowed)
{
	return __sched_fork_task(NULL, false, comm, exec, exec_data, (int)cpu_hint, -1, allowed,
				 NULL);
}

struct task_struct *sched_fork_task_on_attr(struct task_struct *parent, bool thread,
					    const char *comm, const struct task_exec *exec,
					    void *exec_data, int cpu_hint, int bind_cpu,
					    const struct cpumask *allowed,
					    const struct sched_attr *attr)
{
	return __sched_fork_task(parent, thread, comm, exec, exec_data, cpu_hint, bind_cpu,
				 allowed, attr);
}

struct task_struct *sched_fork_task_attr(const char *comm, const struct task_exec *exec,
					 void *exec_data, unsigned int cpu_hint,
					 const struct cpumask *allowed, const struct sched_attr *attr)
{
	return __sched_fork_task(NULL, false, comm, exec, exec_data, (int)cpu_hint, -1, allowed,
				 attr);
}

static int normal_prio(const struct task_struct *p)
{
	if (task_has_dl_policy(p))
		return DL_TASK_PRIO;
	if (task_has_rt_policy(p))
		return MAX_RT_PRIO - 1 - (int)p->rt_priority;
	return p->static_prio;
}

/* __setscheduler_params(): policy, RT priority, nice, weight and normal_prio */
static void __setscheduler_params(struct task_struct *p, const struct sched_attr *attr)
{
	p->policy = attr->sched_policy;
	if (fair_policy(p->policy))
		p->static_prio = NICE_TO_PRIO(clamp(attr->sched_nice, MIN_NICE, MAX_NICE));
	/* rt-policy tasks have no timer slack; back to fair, the default returns */
	if (rt_or_dl_policy(p->policy))
		p->timer_slack_ns = 0;
	else if (!p->timer_slack_ns)
		p->timer_slack_ns = p->default_timer_slack_ns;
	p->rt_priority = attr->sched_priority;
	p->sched_reset_on_fork = attr->sched_flags & SCHED_FLAG_RESET_ON_FORK;
	if (dl_policy(attr->sched_policy))
		setparam_dl(p, attr->sched_runtime, attr->sched_deadline, attr->sched_period,
			    attr->sched_flags & SCHED_DL_FLAGS);
	p->normal_prio = normal_prio(p);
	set_load_weight(p);
}

/* sched_setattr_nocheck()'s checks (__sched_setscheduler(), valid_policy()); 0 or -EINVAL */
static int sched_attr_check(const struct sched_attr *attr)
{
	if (!rt_policy(attr->sched_policy) && !fair_policy(attr->sched_policy) &&
	    !dl_policy(attr->sched_policy))
		return -EINVAL;
	if (dl_policy(attr->sched_policy) && !__checkparam_dl(attr))
		return -EINVAL;
	/* valid priorities: 1..99 for SCHED_FIFO and SCHED_RR, 0 for the others */
	if (attr->sched_priority > MAX_RT_PRIO - 1)
		return -EINVAL;
	if (rt_policy(attr->sched_policy) != (attr->sched_priority != 0))
		return -EINVAL;
	return 0;
}

static struct task_struct *__sched_fork_task(struct task_struct *parent, bool thread,
					     const char *comm, const struct task_exec *exec,
					     void *exec_data, int cpu_hint, int bind_cpu,
					     const struct cpumask *allowed,
					     const struct sched_attr *attr)
{
	struct task_struct *p = alloc_task(comm, NULL);

	p->exec = exec;
	p->exec_data = exec_data;
	p->__state = TASK_NEW;
	p->parent = parent;
	if (parent) {
		/* the tasklist_lock section below is part of the cost */
		charge(cost_outside(thread ? machine.cost->fork_thread : machine.cost->fork,
				    machine.cost->tasklist_fork));
		/*
		 * the workloads check sched_fork_fails() before they fork
		 * (work/exec.c); kthreadd forks a kthread, not its caller
		 */
		if (bind_cpu < 0 && sched_fork_fails(parent)) {
			fprintf(stderr, "schedlab: %s: fork() by SCHED_DEADLINE task %s: EAGAIN\n",
				comm, parent->comm);
			abort();
		}
		/* sched_fork(): the policy is inherited, prio from normal_prio (no PI boost) */
		p->static_prio = parent->static_prio;
		p->policy = parent->policy;
		p->rt_priority = parent->rt_priority;
		p->normal_prio = p->prio = parent->normal_prio;
		p->sched_reset_on_fork = parent->sched_reset_on_fork;
		/* reset-on-fork: back to SCHED_NORMAL (nice 0 if it was negative), once */
		if (p->sched_reset_on_fork) {
			if (rt_or_dl_policy(p->policy)) {
				p->policy = SCHED_NORMAL;
				p->static_prio = NICE_TO_PRIO(0);
				p->rt_priority = 0;
			} else if (PRIO_TO_NICE(p->static_prio) < 0) {
				p->static_prio = NICE_TO_PRIO(0);
			}
			p->normal_prio = p->prio = p->static_prio;
			p->sched_reset_on_fork = false;
		}
		/* dup_task_struct() copies the slack; copy_process() makes it the default */
		p->timer_slack_ns = p->default_timer_slack_ns = parent->timer_slack_ns;
		/* dup_task_struct(): the clamps are inherited (no reset-on-fork here) */
		memcpy(p->uclamp_req, parent->uclamp_req, sizeof(p->uclamp_req));
		cpumask_copy(p->cpus_mask, parent->cpus_mask);
		if (allowed) {
			/* its own mask, set before its first wakeup */
			cpumask_setall(p->cpus_mask);
			cpumask_and(p->cpus_mask, p->cpus_mask, allowed);
			if (cpumask_empty(p->cpus_mask)) {
				fprintf(stderr, "schedlab: %s: empty CPU affinity\n", comm);
				abort();
			}
		}
		p->mm = thread ? parent->mm : ++next_mm_id;
		p->tgid = thread ? parent->tgid : p->pid;
		/* copy_process(): the process's futex hash first, for a thread */
		if (thread && bind_cpu < 0 && !parent->kthread)
			futex_thread_fork(parent, p);
		p->cpu = smp_processor_id();
		tasklist_fork(p, thread);
		parent->nr_children_alive++;
		parent->nr_children_unreleased++;
	} else {
		cpumask_setall(p->cpus_mask);
		if (allowed) {
			/*
			 * sched_setaffinity() before exec (taskset): the mask
			 * as given, less the CPUs the machine does not have
			 * (the kernel's cpumask_and() with the cpuset's CPUs);
			 * none left is its -EINVAL, refused before the run.
			 */
			cpumask_and(p->cpus_mask, p->cpus_mask, allowed);
			if (cpumask_empty(p->cpus_mask)) {
				fprintf(stderr, "schedlab: %s: empty CPU affinity\n", comm);
				abort();
			}
			/*
			 * __set_cpus_allowed_ptr() on the CPU it was started
			 * on: a new mask picks the destination with
			 * cpumask_any_and_distribute() there, and the task
			 * moves to it if its CPU is not allowed
			 */
			if (cpumask_weight(p->cpus_mask) != nr_cpu_ids) {
				unsigned int dest = __cpumask_any_and_distribute(
					cpu_rq((unsigned int)cpu_hint), p->cpus_mask, p->cpus_mask);

				if (!cpumask_test_cpu((unsigned int)cpu_hint, p->cpus_mask))
					cpu_hint = (int)dest;
			}
		}
		p->mm = ++next_mm_id;
		p->tgid = p->pid;
		p->cpu = (unsigned int)cpu_hint;
		sim_enter_cpu(p->cpu);
	}
	if (bind_cpu >= 0) {
		/*
		 * kthread_create_on_cpu(): bound before its first wakeup; no mm;
		 * a child of kthreadd, so SCHED_NORMAL at nice 0 whoever asked
		 */
		p->policy = SCHED_NORMAL;
		p->rt_priority = 0;
		p->static_prio = p->normal_prio = p->prio = DEFAULT_PRIO;
		p->timer_slack_ns = p->default_timer_slack_ns = TIMER_SLACK_DEFAULT_NS;
		cpumask_clear(p->cpus_mask);
		cpumask_set_cpu((unsigned int)bind_cpu, p->cpus_mask);
		p->kthread = true;
		p->mm = -1;
	}
	/* perf's inherited counters follow every fork and thread of the command */
	if (p->kthread) {
		p->perf_events = 0;
	} else if (parent) {
		p->perf_events = parent->perf_events;
	} else {
		p->perf_events = sched_world.perf_stat_counters;
		sched_world.perf_stat_counters = 0;
	}
	p->nr_cpus_allowed = cpumask_weight(p->cpus_mask);
	set_task_max_allowed_capacity(p);
	p->wake_cpu = p->cpu;
	p->start_time = cpu_now();
	/* the command's policy, set before exec (chrt, nice) */
	if (attr) {
		if (sched_attr_check(attr)) {
			fprintf(stderr, "schedlab: %s: invalid scheduling policy %u priority %u\n",
				comm, attr->sched_policy, attr->sched_priority);
			abort();
		}
		if (uclamp_validate(p, attr)) {
			fprintf(stderr, "schedlab: %s: invalid utilization clamps %u..%u\n", comm,
				attr->sched_util_min, attr->sched_util_max);
			abort();
		}
		/* the tool's sched_setattr() before exec: DL admission (its caller checked) */
		if (dl_policy(attr->sched_policy) && sched_dl_overflow(p, attr->sched_policy, attr)) {
			fprintf(stderr, "schedlab: %s: SCHED_DEADLINE reservation refused (EBUSY)\n",
				comm);
			abort();
		}
		__setscheduler_params(p, attr);
		__setscheduler_uclamp(p, attr);
		p->prio = p->normal_prio;
	} else if (rt_task(p) && !p->uclamp_req[UCLAMP_MIN].user_defined) {
		/* uclamp_post_fork(): an RT child's default min is 1024 */
		p->uclamp_req[UCLAMP_MIN] = (struct uclamp_se){ .value = SCHED_CAPACITY_SCALE,
								.bucket_id = UCLAMP_BUCKETS - 1 };
	}
	for (int id = 0; id < UCLAMP_CNT; id++)
		p->uclamp[id].active = false;
	p->rt.time_slice = sched_rr_timeslice();
	set_load_weight(p);
	init_entity(&p->se);
	task_fork_fair(p);
	sched_world.nr_tasks_alive++;
	sched_world.nr_forks++;
	wake_up_new_task(p);
	return p;
}

void do_exit(void)
{
	struct task_struct *p = current;

	/*
	 * exit_mmap() of the pages it maps; the two tasklist_lock sections
	 * below and a thread's exit_mm() under mmap_lock (work/mm_thread.c)
	 * are part of the cost
	 */
	charge(cost_outside(machine.cost->exit + (u64)p->mm_rss * machine.cost->exit_page,
			    machine.cost->tasklist_exit + machine.cost->tasklist_release +
				    (p->exit_mm_locked ? machine.cost->mm_exit : 0)));
	p->exit_time = cpu_now();
	p->__state = TASK_DEAD;
	futex_thread_exit(p);
	sched_world.nr_tasks_alive--;
	sched_world.nr_exits++;
	if (p->parent) {
		p->parent->nr_children_alive--;
		p->parent->nr_children_exited++;
		tasklist_child_exited(p);
		/* exit_notify(): the parent is woken with tasklist_lock held */
		tasklist_exit_notify_lock(p);
		if (p->parent->child_wait)
			__wake_up(p->parent->child_wait, TASK_NORMAL, 1, 0);
		tasklist_exit_notify_unlock();
		/* release_task(), from the parent's wait4(): charged here as exit is */
		tasklist_release(p);
		/* freed at a later step, once switched out (finish_task_switch()) */
		if (p->reap && !p->kthread)
			list_add_tail(&p->dying, &sched_world.dying);
	}
	__schedule(SM_NONE);
}

/* ------------------------------------------------------------------ */
/* __schedule                                                          */

static void sched_info_switch(struct rq *rq, struct task_struct *prev, struct task_struct *next)
{
	u64 now = cpu_now();

	if (!is_idle_task(prev) && prev->__state == TASK_RUNNING && task_on_rq_queued(prev)) {
		prev->stats.last_queued = now;
		prev->stats.queued_by_wakeup = false;
	}
	if (!is_idle_task(next)) {
		if (next->stats.last_queued) {
			u64 delay = now - next->stats.last_queued;

			next->stats.run_delay += delay;
			rq->stat.run_delay += delay;
			if (next->stats.queued_by_wakeup)
				plot_sched(__plot_wakeup_latency(delay));
			if (delay > next->stats.max_delay) {
				next->stats.max_delay = delay;
				next->stats.max_delay_at = now;
			}
			next->stats.last_queued = 0;
		}
		next->stats.pcount++;
		rq->stat.pcount++;
	}
}

static void context_switch(struct rq *rq, struct task_struct *prev, struct task_struct *next)
{
	const struct cost_model *cost = machine.cost;
	unsigned int cpu = cpu_of(rq);

	charge(cost->context_switch);
	/*
	 * perf_event_task_sched_out()/_in(): the per-task context of the task
	 * going out or coming in (a swap of cloned contexts when both carry
	 * one), and each counter in it (docs/cost-model.md)
	 */
	if (prev->perf_events | next->perf_events)
		charge(cost->perf_ctx_switch +
		       cost->perf_event_switch * max(prev->perf_events, next->perf_events));
	/* prev's lines are the most recent ones here: traffic from now on evicts them */
	if (prev->__state == TASK_DEAD) {
		cache_task_exit(&prev->cache);
		/* finish_task_switch(): the class's task_dead() */
		if (dl_task(prev))
			task_dead_dl(prev);
	} else if (!is_idle_task(prev)) {
		cache_switch_out(&prev->cache, cpu);
	}
	if (!is_idle_task(next)) {
		/* kernel threads and the idle task borrow the previous mm (lazy TLB) */
		if (!next->kthread && next->mm != rq->active_mm) {
			charge(cost->switch_mm);
			rq->active_mm = next->mm;
		}
		/*
		 * what other tasks' traffic evicted of its working set since it
		 * last ran, or what it left under another cache, is refilled
		 */
		charge_stall(cache_switch_in(&next->cache, cpu, NULL));
	}
	sched_info_switch(rq, prev, next);
	/* rq->curr, and rq->nr_switches (counted by the caller) */
	cl_write(&rq->cl.curr);
	cl_write(&rq->cl.nr);
	cl_write(&next->cl.state);
	rq->curr = next;
	next->on_cpu = 1;
	/* finish_task(): from here the previous task may run elsewhere */
	cl_write(&prev->cl.state);
	prev->on_cpu = 0;
	prev->on_cpu_until = cpu_now();
	/* owner_on_cpu() is false from here: tasks spinning on its locks stop */
	if (unlikely(nr_lock_spinners))
		lock_owner_switched_out(prev);
}

/*
 * __pick_next_task(): the classes in order, stop > dl > rt > fair > idle.
 * The stopper is run by run_stopper() before this. When every queued task
 * is fair and prev is not of a higher class, the fair class is asked
 * directly (with its newidle balance), as the kernel's fast path does;
 * the DL class is not looked at then, so a queued fair server changes
 * nothing while fair tasks run anyway. Otherwise an RT prev that left its
 * list lets the rq pull (the class balance pass, balance_rt()), then the
 * DL class (the fair server: a fair task picked for it runs above RT; a
 * server with no fair task to run stops), the RT class, the fair class
 * and idle.
 */
static struct task_struct *pick_next_task(struct rq *rq, struct task_struct *prev)
{
	bool prev_dl = dl_task(prev);
	bool prev_rt = rt_task(prev) && !is_idle_task(prev) && !prev->is_stopper;
	bool prev_fair = !prev_rt && !prev_dl && !is_idle_task(prev) && !prev->is_stopper;
	struct task_struct *p;

	if ((prev_fair || is_idle_task(prev)) && rq->nr_running == rq->cfs.h_nr_queued)
		goto fair;
	/*
	 * the class balance pass from prev's class down, until a class has
	 * something: a DL prev pulls DL, then RT if no DL entity is left
	 */
	if (prev_dl) {
		balance_dl(rq, prev);
		if (!sched_dl_runnable(rq))
			balance_rt(rq, prev);
	}
	if (prev_rt)
		balance_rt(rq, prev);
	/* __pick_task_dl(): a DL task, or the fair server's pick, or it stops */
	while (sched_dl_runnable(rq)) {
		p = pick_task_dl(rq);
		if (p) {
			put_prev_set_next_task(rq, prev, p);
			return p;
		}
		p = pick_task_fair(rq);
		if (!p) {
			dl_server_stop(&rq->fair_server);
			continue;
		}
		rq->fair_server.nr_server_picks++;
		if (!prev_fair)
			put_prev_task(rq, prev);
		put_prev_set_next_task_fair(rq, prev, p);
		return p;
	}
	p = pick_task_rt(rq);
	if (p) {
		put_prev_set_next_task(rq, prev, p);
		return p;
	}
	if (prev_rt || prev_dl)
		put_prev_task(rq, prev);
fair:
	p = pick_next_task_fair(rq, prev);
	if (p) {
		if (is_idle_task(prev))
			put_prev_task(rq, prev);
		return p;
	}
	/* the idle class; an RT prev was put above */
	if (prev_fair)
		put_prev_task(rq, prev);
	return pick_next_task_idle(rq, prev);
}

/*
 * The stopper kthread (highest priority) preempts whatever runs and does
 * active_load_balance_cpu_stop(): the task that was running is now just
 * queued, so it can be pushed to the CPU that asked. Returns the stopper,
 * which __schedule() then switches away from.
 */
/*
 * migration_cpu_stop() -> move_queued_task(): the task the stopper
 * preempted leaves this runqueue for its destination's.
 */
static void migration_cpu_stop(struct rq *rq)
{
	struct task_struct *p = rq->migrate_task;
	unsigned int dest = rq->migrate_dest;
	struct rq *dst_rq = cpu_rq(dest);

	rq->migrate_task = NULL;
	rq_lock(rq);
	update_rq_clock(rq);
	if (task_on_rq_queued(p) && task_cpu(p) == cpu_of(rq)) {
		deactivate_task(rq, p, DEQUEUE_NOCLOCK);
		set_task_cpu(p, dest);
	} else {
		p = NULL;
	}
	rq_unlock(rq);
	if (p) {
		rq_lock(dst_rq);
		update_rq_clock(dst_rq);
		activate_task(dst_rq, p, ENQUEUE_NOCLOCK | ENQUEUE_MIGRATED);
		wakeup_preempt(dst_rq, p, 0);
		rq_unlock(dst_rq);
	}
}

unsigned int cpumask_any_and_distribute(const struct cpumask *a, const struct cpumask *b)
{
	return __cpumask_any_and_distribute(this_rq(), a, b);
}

unsigned int cpumask_any_distribute(const struct cpumask *m)
{
	return cpumask_any_and_distribute(m, m);
}

int sched_setaffinity_current(const struct cpumask *mask)
{
	struct task_struct *p = current;
	struct rq *rq = this_rq();
	struct cpumask *old;
	unsigned int dest;

	/* dl_task_check_affinity(): schedutil's kthread is not admitted, so exempt */
	if (task_has_dl_policy(p) && !dl_entity_is_special(&p->dl) &&
	    !dl_affinity_covers_root_domain(mask))
		return -EBUSY;
	old = alloc_cpumask();
	cpumask_copy(old, p->cpus_mask);
	cpumask_setall(p->cpus_mask);
	cpumask_and(p->cpus_mask, p->cpus_mask, mask);
	if (cpumask_empty(p->cpus_mask)) {
		fprintf(stderr, "schedlab: %s: empty CPU affinity\n", p->comm);
		abort();
	}
	p->nr_cpus_allowed = cpumask_weight(p->cpus_mask);
	set_task_max_allowed_capacity(p);
	/*
	 * __set_cpus_allowed_ptr_locked(): an unchanged mask does nothing;
	 * a new one picks the destination before knowing whether the task
	 * must move (all CPUs are active here)
	 */
	if (cpumask_equal(old, p->cpus_mask)) {
		free_cpumask(old);
		return 0;
	}
	free_cpumask(old);
	dest = cpumask_any_distribute(p->cpus_mask);
	if (cpumask_test_cpu(task_cpu(p), p->cpus_mask))
		return 0;
	/* affine_move_task(): stop_one_cpu(migration_cpu_stop) and wait for it */
	rq->migrate_task = p;
	rq->migrate_dest = dest;
	__schedule(SM_PREEMPT);
	return 0;
}

static struct task_struct *run_stopper(struct rq *rq, struct task_struct *prev)
{
	struct task_struct *stop = rq->stop;

	charge(machine.cost->context_switch);
	rq->nr_switches++;
	if (!is_idle_task(prev)) {
		prev->stats.nr_switches++;
		prev->stats.nr_involuntary++;
		prev->stats.last_queued = cpu_now();
		prev->stats.queued_by_wakeup = false;
	}
	put_prev_task(rq, prev);
	trace_sched(__trace_sched_switch(true, prev, stop));
	prev->on_cpu = 0;
	prev->on_cpu_until = cpu_now();
	if (unlikely(nr_lock_spinners))
		lock_owner_switched_out(prev);
	rq->curr = stop;
	stop->on_cpu = 1;
	rq_unlock(rq);
	if (rq->migrate_task)
		migration_cpu_stop(rq);
	if (rq->active_balance)
		active_load_balance_cpu_stop(rq);
	rq_lock(rq);
	update_rq_clock(rq);
	return stop;
}

void __schedule(int sched_mode)
{
	struct rq *rq = this_rq();
	struct task_struct *prev = rq->curr, *next;
	bool preempt = sched_mode > SM_NONE;
	u64 t0 = funclat_entry(FL___schedule);

	rq_lock(rq);
	update_rq_clock(rq);
	rq->stat.sched_count++;

	if (rq->active_balance || rq->migrate_task)
		prev = run_stopper(rq, prev);

	/* what every __schedule() does: clock, mode and preempt checks, sched_info */
	charge(machine.cost->schedule);
	/*
	 * SM_IDLE (3dcac251b066): the idle task rescheduling with nothing
	 * queued keeps running: no pick, no balance callbacks, no put/set.
	 */
	if (sched_mode == SM_IDLE && is_idle_task(prev) && !rq->nr_running) {
		if (sched_feat(SM_IDLE)) {
			rq->nr_idle_fast++;
			next = prev;
			goto picked;
		}
		rq->nr_idle_full_pick++;
	}
	charge(machine.cost->pick_next);
	if (!preempt && prev->__state != TASK_RUNNING && !is_idle_task(prev) && !prev->is_stopper) {
		/* block: the task leaves the runqueue (or stays as a delayed entity) */
		int flags = DEQUEUE_SLEEP | DEQUEUE_NOCLOCK;

		/* an exiting task is never woken, so it cannot be a delayed entity */
		if (prev->__state == TASK_DEAD)
			flags |= DEQUEUE_SPECIAL;
		charge(dequeue_cost(prev));
		enqueue_lines(rq, prev);
		if (dequeue_task(rq, prev, flags)) {
			prev->on_rq = 0;
			/* block_task(): an I/O sleeper counts for this CPU until woken */
			if (prev->in_iowait)
				rq->nr_iowait++;
		}
	}
	next = pick_next_task(rq, prev);
	/* the pick walks the tree (or the RT bitmap); set_next writes the entity */
	cl_write((rt_task(next) || dl_task(next)) && !is_idle_task(next) ? &rq->cl.rt
									 : &rq->cl.cfs);
	if (!is_idle_task(next))
		cl_write(&next->cl.se);
picked:
	/* clear_tsk_need_resched(prev): the flag's line, perhaps set by a remote CPU */
	if (rq->need_resched)
		cl_write(&prev->cl.state);
	rq->need_resched = false;
	rq->need_resched_lazy = false;
	rq->last_seen_need_resched_ns = 0;
	if (next != prev) {
		rq->nr_switches++;
		if (!is_idle_task(prev) && !prev->is_stopper) {
			prev->stats.nr_switches++;
			if (prev->__state == TASK_RUNNING)
				prev->stats.nr_involuntary++;
		}
		if (is_idle_task(next))
			rq->stat.sched_goidle++;
		trace_sched(__trace_sched_switch(preempt, prev, next));
		context_switch(rq, prev, next);
	}
	/* the balance callback set_next_task_rt() queued: push what waits here */
	if (rq->rt_push_pending) {
		rq->rt_push_pending = false;
		push_rt_tasks(rq);
	}
	/* and set_next_task_dl()'s (deadline_queue_push_tasks()) */
	if (rq->dl_push_pending) {
		rq->dl_push_pending = false;
		push_dl_tasks(rq);
	}
	rq_unlock(rq);
	funclat_exit(FL___schedule, t0);
}

void schedule(void)
{
	__schedule(SM_NONE);
}

void do_sched_yield(void)
{
	struct rq *rq = this_rq();
	struct task_struct *curr = rq->curr;

	charge(machine.cost->sched_yield);
	rq_lock(rq);
	rq->stat.yld_count++;
	if (dl_task(curr))
		yield_task_dl(rq);
	else if (rt_task(curr))
		yield_task_rt(rq);
	else
		yield_task_fair(rq);
	rq_unlock(rq);
	schedule();
}

/* ------------------------------------------------------------------ */
/* the tick                                                            */

/*
 * LATENCY_WARN: how long need_resched has been pending on @rq without a
 * schedule, once that exceeds latency_warn_ms; 0 otherwise. The first tick
 * that sees it pending starts the clock.
 */
static u64 cpu_resched_latency(struct rq *rq)
{
	u64 latency, now = rq->clock;

	if (sysctl_sched.latency_warn_once && sched_world.resched_latency_warned)
		return 0;
	if (!rq->need_resched || !sysctl_sched.latency_warn_ms)
		return 0;
	if (!rq->last_seen_need_resched_ns) {
		rq->last_seen_need_resched_ns = now;
		rq->ticks_without_resched = 0;
		return 0;
	}
	rq->ticks_without_resched++;
	latency = now - rq->last_seen_need_resched_ns;
	if (latency <= (u64)sysctl_sched.latency_warn_ms * NSEC_PER_MSEC)
		return 0;
	sched_world.resched_latency_warned = true;
	return latency;
}

/*
 * The kernel's pr_err(), rate-limited to one an hour as resched_latency_warn()
 * is, with the dmesg-style timestamp of the simulated clock.
 */
static void resched_latency_warn(unsigned int cpu, u64 latency)
{
	u64 now = cpu_now();

	if (sched_world.nr_resched_latency_warnings &&
	    now - sched_world.resched_latency_last_warn < RESCHED_LATENCY_RATELIMIT_NS)
		return;
	sched_world.resched_latency_last_warn = now;
	sched_world.nr_resched_latency_warnings++;
	fprintf(stderr,
		"[%5llu.%06llu] sched: CPU %u need_resched set for > %llu ns (%d ticks) without schedule\n",
		(unsigned long long)(now / NSEC_PER_SEC),
		(unsigned long long)(now % NSEC_PER_SEC / 1000), cpu, (unsigned long long)latency,
		cpu_rq(cpu)->ticks_without_resched);
}

void sched_tick(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	u64 t0 = funclat_entry(FL_sched_tick);
	u64 resched_latency = 0;

	rq_lock(rq);
	update_rq_clock(rq);
	update_cpu_load_active(rq);
	if (dl_task(curr)) {
		cl_write(&curr->cl.se);
		task_tick_dl(rq, curr);
	} else if (rt_task(curr) && !is_idle_task(curr) && !curr->is_stopper) {
		/* update_curr_rt() and the RR quantum */
		cl_write(&rq->cl.rt);
		cl_write(&curr->cl.se);
		task_tick_rt(rq, curr);
	} else if (!is_idle_task(curr)) {
		/* update_curr() and the PELT updates of entity and queue */
		cl_write(&rq->cl.cfs);
		cl_write(&rq->cl.cfs_avg);
		cl_write(&curr->cl.se);
		cl_write(&curr->cl.avg);
		task_tick_fair(rq, curr);
	}
	/* PREEMPT_LAZY: a lazy request becomes a real one at the tick */
	if (rq->need_resched_lazy)
		rq->need_resched = true;
	rq->nr_ticks++;
	if (sched_feat(LATENCY_WARN))
		resched_latency = cpu_resched_latency(rq);
	rq_unlock(rq);
	if (resched_latency)
		resched_latency_warn(cpu_of(rq), resched_latency);
	rq->idle_balance = idle_cpu(cpu_of(rq));
	sched_balance_trigger(rq);
	funclat_exit(FL_sched_tick, t0);
}

static void tick_restart(struct rq *rq)
{
	u64 period = TICK_NSEC;
	u64 next = (cpu_now() / period + 1) * period;

	rq->tick_stopped = false;
	eq_set_background(&machine.eq, &rq->tick_ev, false);
	sim_schedule(&rq->tick_ev, next);
}

/*
 * Re-arm the periodic tick after its handler, as tick_sched_timer() does
 * with hrtimer_forward(): when the CPU was held in kernel paths (interrupts
 * off) past the next tick, the missed ticks are skipped and the timer goes
 * to the first tick period after the handler's now. Arming it at the missed
 * expiry would queue an event in the simulated past.
 */
static void tick_rearm(struct rq *rq)
{
	u64 now = cpu_now();

	rq->next_tick = sim_cpu(cpu_of(rq))->tick_fired + TICK_NSEC;
	if (rq->next_tick <= now)
		rq->next_tick += ((now - rq->next_tick) / TICK_NSEC + 1) * TICK_NSEC;
	/*
	 * the tick of a CPU that goes back to idle: housekeeping
	 * (tick_retain_idle()). The tick may be queued already (an idle exit
	 * restarted it between its expiry and this handler), so the queue's
	 * count of background events is kept with the flag: set directly, a
	 * queued tick's flag left the count one off, and a run whose count
	 * had gone below zero never ended (it ran on to --max-time)
	 */
	eq_set_background(&machine.eq, &rq->tick_ev, is_idle_task(rq->curr) && !rq->need_resched);
	sim_schedule(&rq->tick_ev, rq->next_tick);
}

void tick_stop_idle(struct rq *rq)
{
	rq->tick_stopped = true;
	sim_cancel(&rq->tick_ev);
}

/* a queued tick as an idle CPU's housekeeping (sim_event.background), or not */
static void tick_set_background(struct rq *rq, bool background)
{
	if (ev_queued(&rq->tick_ev))
		eq_set_background(&machine.eq, &rq->tick_ev, background);
}

/*
 * The idle governor kept the tick: it goes on, as the housekeeping of an
 * idle CPU that does not keep a finished run going (sim_event.background),
 * as a kept tick would otherwise tick on after the last task has exited
 * until the governor stops it.
 */
void tick_retain_idle(struct rq *rq)
{
	tick_set_background(rq, true);
}

/* the kernel side of the CPU step machine (the hardware is sim/cpu.c)  */

/* @ns of work current can be preempted in; @sys: the kernel's (system time) */
static void task_run_work(u64 ns, bool sys)
{
	struct task_struct *p = current;

	/*
	 * a new stretch of user work varies as a whole (its own factor); one
	 * resumed after an interrupt goes on with what was left of it
	 */
	if (unlikely(machine.variation.half))
		ns = sim_variation_scale(&machine.variation, smp_processor_id(), ns,
					 sim_variation_draw(&machine.variation,
							    smp_processor_id()));
	p->work_left = ns;
	p->in_user_work = true;
	p->work_sys = sys;
	sim_cpu_run_user(smp_processor_id(), ns);
}

void task_run_user(u64 ns)
{
	task_run_work(ns, false);
}

void task_run_sys(u64 ns)
{
	task_run_work(ns, true);
}

/* user work stopped: by its end, or by an interrupt with @work_left to go */
static void user_stopped(unsigned int cpu, u64 ran, u64 work_left, bool finished)
{
	struct task_struct *p = cpu_rq(cpu)->curr;

	/* system time (task_run_sys()) is the runtime that is not utime */
	u64 user = p->work_sys ? 0 : ran;

	/* account_user_time(): a niced task's user time is CPUTIME_NICE */
	if (PRIO_TO_NICE(p->static_prio) > 0 && (!finished || p->in_user_work))
		cpu_rq(cpu)->kcpustat_nice += user;
	if (finished) {
		if (!p->in_user_work)
			return;
		p->utime += user;
		p->work_left = 0;
		p->in_user_work = false;
		return;
	}
	p->utime += user;
	p->work_left = work_left;
}

void cpu_step_at_cursor(struct rq *rq)
{
	sim_cpu_step_at_cursor(cpu_of(rq));
}

/*
 * irqtime_account_irq() at a {soft,}irq exit: the CPU's time since @since
 * (its irq_enter() or the softirq's start) was interrupt time. It counts
 * when IRQ time accounting is on; softirqs run from irq_exit() here, never
 * in ksoftirqd, whose time the kernel leaves to the thread.
 */
static void irqtime_account(struct rq *rq, u64 since, bool softirq)
{
	u64 d = sim_cpu(cpu_of(rq))->t - since;

	if (!sysctl_sched.irqtime)
		return;
	if (softirq)
		rq->softirq_time += d;
	else
		rq->hardirq_time += d;
}

/* irq_exit(): raised softirqs run before returning (a yielded one first) */
static void run_softirqs(struct rq *rq)
{
	u64 since = sim_cpu(cpu_of(rq))->t;

	if (rq->ilb.active && nohz_idle_balance_resume(rq)) {
		/* it yielded again: the time it ran so far */
		irqtime_account(rq, since, true);
		return;
	}
	if (rq->balance_softirq) {
		rq->balance_softirq = false;
		sched_balance_softirq(rq);
	}
	irqtime_account(rq, since, true);
}

/* the interrupt handlers, then irq_exit() */
static void handle_pending_irqs(struct rq *rq)
{
	const struct cost_model *cost = machine.cost;
	struct sim_cpu *c = sim_cpu(cpu_of(rq));
	unsigned int irqs = sim_cpu_take_irqs(cpu_of(rq));
	u64 irq_enter;

	/* the host ran something else: the vCPU resumes where it was, later */
	if (irqs & IRQ_STEAL) {
		/* vcpu_is_preempted() from here: spinners watching this vCPU stop */
		if (unlikely(nr_lock_spinners))
			lock_vcpu_preempted(cpu_of(rq));
		cpu_set_activity(c, ACT_STEAL);
		sim_cpu_set_cursor(c, c->t + sim_steal_take(cpu_of(rq)));
	}
	cpu_set_activity(c, ACT_IRQ);
	irq_enter = c->t;
	rq->in_interrupt = true;
	/*
	 * Without posted interrupts (APICv, AVIC) an IPI to a running vCPU
	 * reaches it through the host: a kick out of the guest and an
	 * injection on re-entry (guest_ipi_recv_exit; 0 on bare metal and
	 * with them). A halted vCPU was out already: its wakeup is
	 * guest_wakeup's.
	 */
	if (unlikely(cost->guest_ipi_recv_exit) && (irqs & (IRQ_RESCHED | IRQ_CALL_FUNC)) &&
	    !rq->halt_woken)
		charge(cost->guest_ipi_recv_exit);
	rq->halt_woken = false;
	if (irqs & IRQ_RESCHED) {
		/* scheduler_ipi(): the work is the need_resched it carried */
		trace_sched(__trace_ipi_irq(TRACE_IPI_ENTRY, TRACE_IPI_RESCHEDULE));
		charge(cost->irq_entry);
		rq->ipi_received++;
		trace_sched(__trace_ipi_irq(TRACE_IPI_EXIT, TRACE_IPI_RESCHEDULE));
	}
	if (irqs & IRQ_TIMER) {
		struct hrtimer *t;

		/* one hrtimer_interrupt() runs the tick's timer and these */
		if (!(irqs & IRQ_TICK))
			charge(cost->irq_entry);
		t = sim_cpu_take_expired_timers(cpu_of(rq));
		while (t) {
			struct hrtimer *next = t->next_expired;

			t->next_expired = NULL;
			t->function(t);
			t = next;
		}
	}
	if (irqs & IRQ_CALL_FUNC) {
		/* generic_smp_call_function_single_interrupt() */
		trace_sched(__trace_ipi_irq(TRACE_IPI_ENTRY, TRACE_IPI_CALL_FUNC));
		charge(cost->irq_entry);
		rq->ipi_received++;
		flush_smp_call_function_queue(rq);
		if (rq->nohz_flags)
			nohz_csd_func(rq);
		trace_sched(__trace_ipi_irq(TRACE_IPI_EXIT, TRACE_IPI_CALL_FUNC));
	}
	if (irqs & IRQ_TICK) {
		charge(cost->irq_entry + cost->tick);
		sched_tick(rq);
		/* with menu or teo the idle loop decides whether the tick stops */
		if (!is_idle_task(rq->curr) || rq->need_resched || cpuidle_gov_decides_tick())
			tick_rearm(rq);
		else
			tick_stop_idle(rq);
	}
	/*
	 * hrtimer_interrupt()'s end programs the device for the next event
	 * (tick_program_event()): in a guest a TSC-deadline write that exits
	 * (0 on bare metal, whose write is in irq_entry and tick); the timers
	 * the handlers armed wait for it (sim/cpu.c)
	 */
	if (unlikely(cost->guest_timer_exit) && (irqs & (IRQ_TIMER | IRQ_TICK)))
		charge(cost->guest_timer_exit);
	irqtime_account(rq, irq_enter, false);
	run_softirqs(rq);
	rq->in_interrupt = false;
}

/*
 * The CPU is at a step boundary at its cursor: decide what it does next
 * (the return to user: pending interrupts, need_resched, the task's next
 * operation or its user work).
 */
static void cpu_continue(struct rq *rq)
{
	struct sim_cpu *c = sim_cpu(cpu_of(rq));
	struct task_struct *curr;

	/* the tasks that exited since the last step are off their CPUs now */
	if (unlikely(!list_empty(&sched_world.dying)))
		sched_release_dead();

	if (c->pending_irqs || rq->ilb.active)
		handle_pending_irqs(rq);
	/* the nohz idle balance yielded: it goes on at the queued step */
	if (rq->ilb.active)
		return;

	curr = rq->curr;
	/*
	 * A task spinning on a sleeping lock's owner stops for need_resched
	 * (not for a lazy one: the kernel's need_resched() does not see it)
	 * and is preempted as mutex_optimistic_spin()'s fail path schedules;
	 * for anything else its step looks at the lock again.
	 */
	if (unlikely(curr->lock_spinning) && rq->need_resched)
		lock_spin_cancel(curr);
	if ((rq->need_resched || rq->need_resched_lazy) && likely(!curr->lock_spinning)) {
		cpu_set_activity(c, ACT_KERNEL);
		/*
		 * Leaving the idle loop: flush the call-single queue (a polling
		 * CPU was woken through its flags, not by the IPI that would
		 * have flushed it), then schedule_idle().
		 */
		if (is_idle_task(curr))
			flush_smp_call_function_queue(rq);
		__schedule(is_idle_task(curr) ? SM_IDLE : SM_PREEMPT);
		if (is_idle_task(rq->curr)) {
			do_idle();
			return;
		}
		cpu_step_at_cursor(rq);
		return;
	}
	if (is_idle_task(curr)) {
		do_idle();
		return;
	}
	if (curr->in_user_work) {
		sim_cpu_run_user(cpu_of(rq), curr->work_left);
		return;
	}
	cpu_set_activity(c, ACT_KERNEL);
	curr->exec->step(curr);
	/* the operation started user work, or the CPU goes on at its cursor */
	if (rq->curr == curr && curr->in_user_work && ev_queued(&rq->step_ev))
		return;
	/* spinning for an smp_call_function_single() to complete: its csd_unlock wakes us */
	if (rq->curr == curr && (curr->csd_spinning || curr->lock_spinning))
		return;
	if (is_idle_task(rq->curr) && !rq->need_resched) {
		do_idle();
		return;
	}
	cpu_step_at_cursor(rq);
}

static void cpu_step(unsigned int cpu)
{
	cpu_continue(cpu_rq(cpu));
}

/* the step event of an idle CPU */
static void cpu_idle_step(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	/* a polling idle CPU saw need_resched, or its poll time ran out */
	if (!rq->need_resched && call_single_queue_empty(rq)) {
		idle_reselect(rq);
		return;
	}
	idle_exit(rq);
	cpu_continue(rq);
}

static void cpu_idle_exit(unsigned int cpu)
{
	idle_exit(cpu_rq(cpu));
}

static void irq_in_kernel(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct sim_cpu *c = sim_cpu(cpu);

	/*
	 * Busy in a kernel path: handled at its next step boundary. A task
	 * spinning in csd_lock()/csd_lock_wait() has none until the
	 * csd_unlock it waits for; it spins with interrupts on
	 * (smp_call_function*() must not be called with them off), so it
	 * takes this one now, and with it the IPIs it must answer for the
	 * CPU it waits on to unlock.
	 */
	if ((rq->curr->csd_spinning || rq->curr->lock_spinning) && !ev_queued(&rq->step_ev)) {
		if (c->t < machine.now)
			sim_cpu_set_cursor(c, machine.now);
		handle_pending_irqs(rq);
		cpu_set_activity(c, ACT_KERNEL);
		/* a lock spinner sees need_resched at once: its step stops the spin */
		if (rq->curr->lock_spinning && rq->need_resched)
			cpu_step_at_cursor(rq);
	}
}

static const struct sim_cpu_ops sched_cpu_ops = {
	.step = cpu_step,
	.idle_step = cpu_idle_step,
	.idle_exit = cpu_idle_exit,
	.user_stopped = user_stopped,
	.irq_in_kernel = irq_in_kernel,
};

void idle_tick_restart(struct rq *rq)
{
	if (rq->tick_stopped) {
		update_cpu_load_nohz(rq);
		tick_restart(rq);
		return;
	}
	/*
	 * A tick kept through idle (tick_retain_idle()) was housekeeping; the
	 * CPU leaves idle to run something, which its tick keeps going: a
	 * lock spinner has no step of its own to end, and only the tick's
	 * need_resched ends its spin when others wait for the CPU
	 */
	tick_set_background(rq, false);
}

void sched_start(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct sim_cpu *c = sim_cpu(cpu);

		sim_set_this_cpu(cpu);
		if (!rq->need_resched || ev_queued(&rq->step_ev)) {
			/*
			 * An idle CPU at the start has been idle for a while, as
			 * after boot: tickless, in the idle state its governor
			 * picks for a long idle period.
			 */
			if (is_idle_task(rq->curr) && !ev_queued(&rq->step_ev))
				do_idle();
			continue;
		}
		idle_tick_restart(rq);
		cpu_set_activity(c, ACT_KERNEL);
		cpu_step_at_cursor(rq);
	}
}

void sched_account_end(void)
{
	unsigned int cpu;
	u64 end = machine.now;

	for_each_possible_cpu(cpu)
		end = max(end, sim_cpu(cpu)->t);
	machine_account_until(end);
}
