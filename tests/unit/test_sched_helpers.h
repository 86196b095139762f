/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Setup helpers for the scheduler unit tests (header-only, static).
 *
 * A test builds a whole simulated machine the way `schedlab run` does
 * (topology_load -> machine_init -> sched_init -> tasks -> sched_start ->
 * sim_run), runs it to a simulated time limit, and tears it down again:
 *
 *	tl_setup("smp1", TL_REAL_COST, 0, NULL);
 *	p = tl_work_task("busy", &tl_busy_prog, 0);
 *	tl_set_nice(p, 5);
 *	tl_run_until(NSEC_PER_SEC, true);
 *	tl_account_now();
 *	...
 *	tl_teardown();
 *
 * Hand-driven tests use the same setup but never call sim_run(): they fork
 * tasks with tl_fork() (a do-nothing program), advance a CPU's cursor with
 * tl_advance() and call the scheduler's entry points (__schedule(),
 * try_to_wake_up(), ...) directly on CPU tl_cpu.
 */
#ifndef SCHEDLAB_TEST_SCHED_HELPERS_H
#define SCHEDLAB_TEST_SCHED_HELPERS_H

#include "test_util.h"

#include <stdlib.h>

#include "kernel/sched.h"
#include "work/work.h"

#define TL_REAL_COST false
#define TL_ZERO_COST true

struct tl_env {
	struct topology *topo;
	struct cost_model cost;
	struct sched_tunables saved_tunables;
	bool started;
	/* extra per-event check, run after sched_check_invariants() */
	void (*hook)(struct sim_event *ev);
};

static struct tl_env tl __attribute__((unused));

/*
 * Build machine @preset with the scheduler on it. @zero_cost makes every
 * kernel path free, so CPU cursors only move with user work and the tests
 * can predict clocks exactly. @hz 0 keeps the machine's CONFIG_HZ.
 * @features is a sched_feat_apply() list or NULL for the defaults.
 */
static inline void tl_setup_seed(const char *preset, bool zero_cost, unsigned int hz,
				 const char *features, u64 seed)
{
	char err[512];

	tl.saved_tunables = sysctl_sched;
	tl.started = false;
	tl.hook = NULL;
	sched_feat_reset();
	if (features && sched_feat_apply(features, err, sizeof(err)))
		fail_msg("sched_feat_apply(%s): %s", features, err);
	tl.topo = topology_load(preset, err, sizeof(err));
	if (!tl.topo)
		fail_msg("topology_load(%s): %s", preset, err);
	tl.cost = tl.topo->cost;
	if (zero_cost)
		memset(&tl.cost, 0, sizeof(tl.cost));
	sysctl_sched.hz = hz ? hz : tl.topo->hz;
	machine_init(tl.topo, &tl.cost, seed);
	sched_init(0);
	sim_set_this_cpu(0);
}

/* The same with seed 1. */
static inline void tl_setup(const char *preset, bool zero_cost, unsigned int hz,
			    const char *features)
{
	tl_setup_seed(preset, zero_cost, hz, features, 1);
}

/*
 * Keep only the paths' own compute: no line transfers, LLC hits or memory
 * reads (tests/unit/test_coherence.c covers those), for tests that count
 * a path's charges in units of one parameter.
 */
static inline void tl_no_line_costs(void)
{
	memset(tl.cost.cacheline, 0, sizeof(tl.cost.cacheline));
	tl.cost.llc_hit = 0;
	tl.cost.mem_latency = 0;
}

/*
 * Free everything. The event queue goes first: eq_destroy() clears the
 * heap slot of every event still queued, and those events live in the
 * runqueues and work tasks freed afterwards.
 */
static inline void tl_teardown(void)
{
	sched_check_final();
	machine_destroy();
	work_free_all();
	sched_exit();
	topology_free(tl.topo);
	tl.topo = NULL;
	sysctl_sched = tl.saved_tunables;
	sched_feat_reset();
}

/* ---- tasks ---- */

static inline void tl_noop_step(struct task_struct *p)
{
	(void)p;
}

static const struct task_exec tl_noop_exec __attribute__((unused)) = { .step = tl_noop_step };

/* A new task (nice 0, base slice) queued on @cpu; it never runs a program. */
static inline struct task_struct *tl_fork(const char *comm, unsigned int cpu)
{
	return sched_fork_task(NULL, false, comm, &tl_noop_exec, NULL, (int)cpu);
}

/* A workload task on @cpu running @prog. */
static inline struct task_struct *tl_work_task(const char *comm, const struct program *prog,
					       unsigned int cpu)
{
	return work_start(comm, prog, NULL, cpu);
}

/*
 * Change @p's nice level the way the kernel's set_user_nice() does it:
 * a queued task is dequeued (DEQUEUE_SAVE), reweighted and enqueued again
 * (ENQUEUE_RESTORE), a running one is put back and set as next around it,
 * so the cfs_rq's load and weighted vruntime sums follow the new weight.
 * (set_user_nice() in core.c only rewrites the weight.)
 */
static inline void tl_set_nice(struct task_struct *p, int nice)
{
	sim_set_this_cpu(task_cpu(p));
	set_user_nice(p, nice);
}

/* A workload's first task on @cpu, forked with @attr (NULL: SCHED_NORMAL) as chrt would. */
static inline struct task_struct *tl_start_prog(const char *comm, const struct program *prog,
						 void *state, const struct sched_attr *attr,
						 unsigned int cpu)
{
	struct task_struct *p;

	work_set_sched_attr(attr);
	p = work_start(comm, prog, state, cpu);
	work_set_sched_attr(NULL);
	return p;
}

/* Total CPU time of @p, 0 if NULL. */
static inline u64 tl_runtime(const struct task_struct *p)
{
	return p ? p->se.sum_exec_runtime : 0;
}

/* ---- programs ---- */

/* Always running: user work in 1 ms chunks, forever. */
static inline void tl_busy_next(struct work_task *w, struct op_desc *op)
{
	(void)w;
	memset(op, 0, sizeof(*op));
	op->kind = OP_RUN;
	op->ns = NSEC_PER_MSEC;
}

static const struct program tl_busy_prog __attribute__((unused)) = { .next = tl_busy_next };

/* ---- running ---- */

static inline void tl_after_event(struct sim_event *ev)
{
	sched_check_invariants(ev);
	if (tl.hook)
		tl.hook(ev);
}

/*
 * Run the simulation until simulated time @t (events at or before @t run).
 * With @check the invariant checker (and tl.hook) runs after every event.
 */
static inline u64 tl_run_until(u64 t, bool check)
{
	machine.stop_at = t;
	if (!tl.started) {
		sched_start();
		tl.started = true;
	}
	return sim_run(check || tl.hook ? tl_after_event : NULL);
}

/*
 * Bring the runtime of every running task up to machine.stop_at: user work
 * in progress has been accounted only up to the last tick or switch.
 */
static inline void tl_account_now(void)
{
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		struct rq *rq = cpu_rq(cpu);
		struct sim_cpu *c = sim_cpu(cpu);

		if (is_idle_task(rq->curr))
			continue;
		sim_set_this_cpu(cpu);
		if (c->act == ACT_USER && c->t < machine.stop_at)
			c->t = machine.stop_at;
		update_rq_clock(rq);
		update_curr_fair(rq);
		update_curr_rt(rq);
	}
}

/* ---- hand-driven runqueues ---- */

/* Enter CPU @cpu's context (machine.this_cpu) and return its runqueue. */
static inline struct rq *tl_cpu(unsigned int cpu)
{
	sim_set_this_cpu(cpu);
	return cpu_rq(cpu);
}

/*
 * @ns pass on the running CPU with its current task running: move the
 * cursor, update the rq clock and account curr (what the tick does).
 */
static inline void tl_advance(u64 ns)
{
	struct rq *rq = this_rq();

	charge(ns);
	update_rq_clock(rq);
	if (!is_idle_task(rq->curr)) {
		update_curr_fair(rq);
		update_curr_rt(rq);
	}
}

/* The running CPU reschedules (preemption or idle exit), as cpu_continue() does. */
static inline struct task_struct *tl_schedule(void)
{
	struct rq *rq = this_rq();

	__schedule(is_idle_task(rq->curr) ? SM_IDLE : SM_PREEMPT);
	return rq->curr;
}

/* The running CPU's current task blocks (TASK_INTERRUPTIBLE) and the CPU switches. */
static inline struct task_struct *tl_block_current(void)
{
	struct rq *rq = this_rq();

	rq->curr->__state = TASK_INTERRUPTIBLE;
	__schedule(SM_NONE);
	return rq->curr;
}

/*
 * Hand-driven: take the call-function IPIs in flight, as their interrupts
 * would (flush_smp_call_function_queue() on each CPU with entries), until
 * none is left (an irq_work may queue itself on the next CPU).
 */
static inline void tl_deliver_ipis(void)
{
	bool more = true;

	while (more) {
		more = false;
		for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
			struct rq *rq = cpu_rq(cpu);

			if (!rq->csd_list && !rq->wake_list)
				continue;
			more = true;
			tl_cpu(cpu);
			sim_cancel(&rq->csd_ev);
			flush_smp_call_function_queue(rq);
		}
	}
}

/* Run the invariant checker on the current state (hand-driven tests). */
static inline void tl_check(void)
{
	sched_check_invariants(&this_rq()->step_ev);
}

/* ---- load balancing ---- */

/*
 * A new task on idle CPU @cpu that becomes its current task (the CPU
 * switches to it), so @cpu is busy and the task cannot be detached.
 */
static inline struct task_struct *tl_fork_running(const char *comm, unsigned int cpu)
{
	struct task_struct *p = tl_fork(comm, cpu);
	struct rq *rq = tl_cpu(cpu);

	assert_true(is_idle_task(rq->curr));
	__schedule(SM_NONE);
	assert_ptr_equal(rq->curr, p);
	return p;
}

/* @ns pass on every CPU (tl_advance() on each): clocks move, curr is accounted. */
static inline void tl_advance_all(u64 ns)
{
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		tl_cpu(cpu);
		tl_advance(ns);
	}
}

/* @cpu's sched domain called @name ("SMT", "MC", "PKG", "NUMA", ...). */
static inline struct sched_domain *tl_sd(unsigned int cpu, const char *name)
{
	struct sched_domain *sd;

	for_each_domain(cpu, sd)
		if (!strcmp(sd->name, name))
			return sd;
	fail_msg("CPU%u has no %s domain", cpu, name);
	return NULL;
}

/*
 * sched_balance_rq() run by @cpu at @sd as idle type @idle; *@cont is
 * what the pass left of continue_balancing (0: should_we_balance said no).
 */
static inline int tl_balance(unsigned int cpu, struct sched_domain *sd, enum cpu_idle_type idle,
			     int *cont)
{
	*cont = 1;
	tl_cpu(cpu);
	return sched_balance_rq(cpu, cpu_rq(cpu), sd, idle, cont);
}

/* sched_balance_newidle() on @cpu, called like pick_next_task_fair() does: rq locked. */
static inline int tl_newidle(unsigned int cpu)
{
	struct rq *rq = tl_cpu(cpu);
	int pulled;

	sim_lock_acquire(&rq->lock);
	pulled = sched_balance_newidle(rq);
	sim_lock_release(&rq->lock);
	return pulled;
}

#endif
