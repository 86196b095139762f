// SPDX-License-Identifier: GPL-2.0-only
/*
 * The invariant checker behind `--check`: after every event it validates
 * runqueue and accounting consistency and aborts with a message naming the
 * event time and CPU on the first violation.
 */
#include "kernel/futex.h"
#include "kernel/locking.h"
#include "kernel/sched.h"

#include "sim/alloc.h"

#include <stdarg.h>
#include <stdlib.h>

/* A runnable task not picked for this long counts as lost. */
#define CHECK_STARVATION_NS (10ULL * NSEC_PER_SEC)

static u64 check_last_time;
static u64 check_nr_events;

static void __attribute__((format(printf, 2, 3))) violation(unsigned int cpu, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schedlab: invariant violated at t=%llu ns (event %llu) on CPU%u: ",
		(unsigned long long)machine.now, (unsigned long long)check_nr_events, cpu);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(3);
}

struct rq_tally {
	unsigned int queued;
	unsigned int rt_queued;		/* RT tasks queued */
	unsigned int rr_queued;
	unsigned int dl_queued;		/* DL tasks queued */
	u64 earliest_dl;		/* their earliest deadline, 0: none */
	u64 running_bw;			/* of the DL tasks runnable or blocked before their 0-lag time */
	unsigned int idle_queued;	/* SCHED_IDLE tasks queued */
	unsigned int runnable;
	unsigned long weight;
	u64 avg_load;
};

/*
 * An RT task: queued exactly when on the rt_rq list of its CPU at its prio
 * (checked by walking that list), pushable only when queued, not running
 * and allowed elsewhere. RT tasks may wait indefinitely behind higher or
 * equal priorities (SCHED_FIFO), so the starvation rule is not theirs.
 */
static void check_rt_task(struct task_struct *p, struct rq_tally *t)
{
	struct rq *rq = task_rq(p);
	struct sched_rt_entity *rt_se;
	bool found = false;

	if (p->se.on_rq || !RB_EMPTY_NODE(&p->se.run_node) || rq->cfs.curr == &p->se)
		violation(p->cpu, "RT task %s-%d is on the cfs_rq", p->comm, p->pid);
	if (p->__state == TASK_RUNNING && !task_on_rq_queued(p))
		violation(p->cpu, "RT task %s-%d is TASK_RUNNING but not queued", p->comm, p->pid);
	if (!task_on_rq_queued(p)) {
		if (p->rt.on_rq || p->rt.on_list || task_pushable_queued(p))
			violation(p->cpu, "RT task %s-%d not queued but on an rt_rq", p->comm,
				  p->pid);
		return;
	}
	if (!p->rt.on_rq || !p->rt.on_list)
		violation(p->cpu, "queued RT task %s-%d not on its rt_rq", p->comm, p->pid);
	if (p->__state != TASK_RUNNING && rq->curr != p)
		violation(p->cpu, "sleeping RT task %s-%d is queued", p->comm, p->pid);
	list_for_each_entry(rt_se, &rq->rt.active.queue[p->prio], run_list) {
		if (rt_se == &p->rt) {
			found = true;
			break;
		}
	}
	if (!found)
		violation(p->cpu, "RT task %s-%d is not on its CPU's list of prio %d", p->comm,
			  p->pid, p->prio);
	if (task_pushable_queued(p) != (rq->curr != p && p->nr_cpus_allowed > 1))
		violation(p->cpu, "RT task %s-%d pushable=%d (curr %d, %u CPUs allowed)", p->comm,
			  p->pid, task_pushable_queued(p), rq->curr == p, p->nr_cpus_allowed);
	t->rt_queued++;
	t->rr_queued += p->policy == SCHED_RR;
}

/* the rt_rq: lists and bitmap agree, counts add up, every list entry a queued task */
static void check_rt_rq(unsigned int c, const struct rq_tally *t)
{
	struct rq *rq = cpu_rq(c);
	struct rt_rq *rt_rq = &rq->rt;
	unsigned int n = 0, pushable = 0;
	int highest = MAX_RT_PRIO - 1, next = MAX_RT_PRIO - 1;

	for (int prio = 0; prio < MAX_RT_PRIO; prio++) {
		struct list_head *q = &rt_rq->active.queue[prio];
		bool bit = rt_rq->active.bitmap[prio / 64] & (1ULL << (prio % 64));
		struct sched_rt_entity *rt_se;

		if (bit == list_empty(q))
			violation(c, "rt_rq bitmap bit %d is %d but its list is %sempty", prio, bit,
				  list_empty(q) ? "" : "not ");
		list_for_each_entry(rt_se, q, run_list) {
			struct task_struct *p = container_of(rt_se, struct task_struct, rt);

			if (p->cpu != c || p->prio != prio || !task_on_rq_queued(p))
				violation(c, "task %s-%d on the rt_rq list of prio %d: CPU %u prio %d on_rq %d",
					  p->comm, p->pid, prio, p->cpu, p->prio, p->on_rq);
			if (++n > t->rt_queued)
				violation(c, "rt_rq lists hold more than the %u queued RT tasks",
					  t->rt_queued);
			if (highest == MAX_RT_PRIO - 1)
				highest = prio;
			if (task_pushable_queued(p)) {
				pushable++;
				if (next == MAX_RT_PRIO - 1)
					next = prio;
			}
		}
	}
	/* the pushable plist: this CPU's queued tasks, by prio */
	{
		struct task_struct *p;
		unsigned int on_plist = 0;
		int last = -1;

		list_for_each_entry(p, &rt_rq->pushable_tasks, pushable_tasks) {
			if (p->cpu != c || !task_on_rq_queued(p) || !rt_task(p))
				violation(c, "task %s-%d on the pushable list is not a queued RT task here",
					  p->comm, p->pid);
			if (p->prio < last)
				violation(c, "pushable list out of prio order at %s-%d", p->comm,
					  p->pid);
			last = p->prio;
			if (++on_plist > t->rt_queued)
				break;
		}
		if (on_plist != pushable)
			violation(c, "pushable list holds %u tasks, %u are pushable", on_plist,
				  pushable);
	}
	if (rt_rq->overloaded != cpumask_test_cpu(c, cpu_rd(c)->rto_mask))
		violation(c, "rt_rq overloaded %d but rto_mask says %d", rt_rq->overloaded,
			  cpumask_test_cpu(c, cpu_rd(c)->rto_mask));
	if (!(rt_rq->active.bitmap[MAX_RT_PRIO / 64] & (1ULL << (MAX_RT_PRIO % 64))))
		violation(c, "rt_rq bitmap lost its delimiter bit");
	if (n != t->rt_queued || rt_rq->rt_nr_running != n)
		violation(c, "rt_nr_running %u, %u on the lists, %u RT tasks queued",
			  rt_rq->rt_nr_running, n, t->rt_queued);
	if (rt_rq->rr_nr_running != t->rr_queued)
		violation(c, "rr_nr_running %u but %u SCHED_RR tasks queued", rt_rq->rr_nr_running,
			  t->rr_queued);
	if (rt_rq->rt_nr_pushable != pushable || rt_rq->overloaded != (pushable != 0))
		violation(c, "rt_nr_pushable %u overloaded %d but %u pushable", rt_rq->rt_nr_pushable,
			  rt_rq->overloaded, pushable);
	if (rt_rq->highest_prio.curr != highest || rt_rq->highest_prio.next != next)
		violation(c, "rt_rq highest_prio %d/%d but the lists say %d/%d",
			  rt_rq->highest_prio.curr, rt_rq->highest_prio.next, highest, next);
}

/*
 * The fair server (deadline.c): queued exactly when the dl_rq counts it, and
 * then active and not throttled; throttled only while active, with its
 * timer set (queued, or expired and waiting for its CPU to take the
 * interrupt); armed only while throttled; neither queued nor timed when
 * stopped (before its first start it is throttled and armed, as
 * sched_init_dl_servers() leaves it, without a timer).
 */
static void check_fair_server(unsigned int c, const struct rq_tally *tl)
{
	struct rq *rq = cpu_rq(c);
	struct sched_dl_entity *dl_se = &rq->fair_server;
	const struct hrtimer *t;
	bool timer_set = hrtimer_is_queued(&dl_se->dl_timer);
	u64 earliest = tl->earliest_dl;

	t = sim_cpu(dl_se->dl_timer.cpu)->expired_timers;
	for (; t && !timer_set; t = t->next_expired)
		timer_set = t == &dl_se->dl_timer;
	/*
	 * running_bw: the active DL tasks' bandwidth and the server's while it
	 * is started or before its 0-lag time; never above this_bw
	 */
	{
		u64 running = tl->running_bw;

		if (dl_se->dl_runtime && (dl_se->dl_server_active || dl_se->dl_non_contending))
			running += dl_se->dl_bw;
		if (rq->dl.running_bw != running || rq->dl.running_bw > rq->dl.this_bw)
			violation(c, "running_bw %llu but the active DL entities have %llu (this_bw %llu)",
				  (unsigned long long)rq->dl.running_bw, (unsigned long long)running,
				  (unsigned long long)rq->dl.this_bw);
	}
	if (rq->dl.dl_nr_running != (unsigned int)dl_se->on_dl_rq + tl->dl_queued)
		violation(c, "dl_nr_running %u but the fair server is %squeued and %u DL tasks",
			  rq->dl.dl_nr_running, dl_se->on_dl_rq ? "" : "not ", tl->dl_queued);
	if (dl_se->on_dl_rq && (!earliest || (s64)(dl_se->deadline - earliest) < 0))
		earliest = dl_se->deadline;
	if (rq->dl.earliest_dl.curr != earliest)
		violation(c, "earliest_dl %llu but the earliest queued deadline is %llu",
			  (unsigned long long)rq->dl.earliest_dl.curr, (unsigned long long)earliest);
	if (dl_se->on_dl_rq && (!dl_se->dl_server_active || dl_se->dl_throttled))
		violation(c, "fair server queued but active %d throttled %d",
			  dl_se->dl_server_active, dl_se->dl_throttled);
	if (dl_se->dl_defer_armed && !dl_se->dl_throttled)
		violation(c, "fair server defer timer armed but not throttled");
	if (!dl_se->dl_server_active && (dl_se->on_dl_rq || timer_set))
		violation(c, "stopped fair server queued %d timer %d", dl_se->on_dl_rq, timer_set);
	if (dl_se->dl_server_active && dl_se->dl_throttled && dl_se->dl_runtime && !timer_set)
		violation(c, "throttled fair server without its timer");
	/*
	 * cpupri: the RT level when no DL entity is queued; with the server
	 * or a DL task queued, CPUPRI_HIGHER, or the RT level an RT enqueue or dequeue set
	 * since (cpupri_set() follows events, as the kernel's does).
	 */
	{
		int rt_level = rq->rt.highest_prio.curr == MAX_RT_PRIO - 1 ?
				       CPUPRI_NORMAL :
				       MAX_RT_PRIO - 1 - rq->rt.highest_prio.curr;
		int level = cpupri_of_cpu(c);

		if (level != rt_level && !(rq->dl.dl_nr_running && level == CPUPRI_HIGHER))
			violation(c, "cpupri level %d but the RT level is %d and %u DL entities queued",
				  level, rt_level, rq->dl.dl_nr_running);
	}
}

void sched_check_invariants(struct sim_event *ev)
{
	static struct rq_tally *tally;
	static unsigned int tally_n;
	unsigned int cpu = ev->arg < machine.nr_cpus ? ev->arg : 0;
	struct task_struct *p;

	check_nr_events++;
	if (machine.now < check_last_time)
		violation(cpu, "time went backwards: %llu after %llu",
			  (unsigned long long)machine.now, (unsigned long long)check_last_time);
	check_last_time = machine.now;
	/* the run ends when only background events are left: their count must be right */
	if (machine.eq.nr_background != eq_count_background(&machine.eq))
		violation(cpu, "event queue: %u background events counted, %u queued",
			  machine.eq.nr_background, eq_count_background(&machine.eq));

	if (tally_n < machine.nr_cpus) {
		free(tally);
		tally = xcalloc(machine.nr_cpus, sizeof(*tally));
		tally_n = machine.nr_cpus;
	}
	for (unsigned int i = 0; i < machine.nr_cpus; i++)
		tally[i] = (struct rq_tally){ 0 };

	list_for_each_entry(p, &sched_world.tasks, tasks) {
		struct rq *rq;
		struct rq_tally *t;
		bool in_tree, is_curr;

		/* active: runnable DL, or blocked (or dead) before its 0-lag time */
		if (p->cpu < machine.nr_cpus && !dl_entity_is_special(&p->dl) &&
		    (p->dl.dl_non_contending || (dl_task(p) && task_on_rq_queued(p))))
			tally[p->cpu].running_bw += p->dl.dl_bw;
		if (is_idle_task(p) || p->is_stopper || p->__state == TASK_DEAD)
			continue;
		if (p->cpu >= machine.nr_cpus)
			violation(cpu, "task %s-%d has CPU %u", p->comm, p->pid, p->cpu);
		/* nothing (wakeup, fork, balancing) moves a task off its allowed CPUs */
		if (!cpumask_test_cpu(p->cpu, p->cpus_mask))
			violation(p->cpu, "task %s-%d is on CPU %u, outside its allowed CPUs",
				  p->comm, p->pid, p->cpu);
		rq = task_rq(p);
		/* a DL task: on its dl_rq's list exactly when queued and not throttled */
		if (dl_task(p)) {
			t = &tally[p->cpu];
			if ((task_on_rq_queued(p) && !p->dl.dl_throttled) != p->dl.on_dl_rq ||
			    (p->dl.on_dl_rq && p->dl.rq != rq))
				violation(p->cpu, "DL task %s-%d on_rq %d but on_dl_rq %d", p->comm,
					  p->pid, p->on_rq, p->dl.on_dl_rq);
			if (p->dl.on_dl_rq) {
				t->dl_queued++;
				if (!t->earliest_dl || (s64)(p->dl.deadline - t->earliest_dl) < 0)
					t->earliest_dl = p->dl.deadline;
			}
			continue;
		}
		if (rt_task(p)) {
			check_rt_task(p, &tally[p->cpu]);
			continue;
		}
		if (p->rt.on_rq || p->rt.on_list || task_pushable_queued(p))
			violation(p->cpu, "fair task %s-%d is on an rt_rq", p->comm, p->pid);
		in_tree = !RB_EMPTY_NODE(&p->se.run_node);
		is_curr = rq->cfs.curr == &p->se;
		if (p->__state == TASK_RUNNING && !task_on_rq_queued(p))
			violation(p->cpu, "task %s-%d is TASK_RUNNING but not queued", p->comm,
				  p->pid);
		if (task_on_rq_queued(p)) {
			if (!p->se.on_rq)
				violation(p->cpu, "task %s-%d on_rq but its entity is not", p->comm,
					  p->pid);
			if (in_tree == is_curr)
				violation(p->cpu, "task %s-%d must be in the tree or curr (tree=%d curr=%d)",
					  p->comm, p->pid, in_tree, is_curr);
			if (p->__state != TASK_RUNNING && !p->se.sched_delayed && rq->curr != p)
				violation(p->cpu, "sleeping task %s-%d is queued but not delayed",
					  p->comm, p->pid);
			t = &tally[p->cpu];
			t->queued++;
			t->idle_queued += task_has_idle_policy(p);
			t->runnable += !p->se.sched_delayed;
			t->weight += p->se.load.weight;
			if (in_tree)
				t->avg_load += scale_load_down(p->se.load.weight);
			if (p->__state == TASK_RUNNING && rq->curr != p && p->stats.last_queued &&
			    machine.now > p->stats.last_queued + CHECK_STARVATION_NS)
				violation(p->cpu, "task %s-%d runnable since %llu ns and never ran",
					  p->comm, p->pid, (unsigned long long)p->stats.last_queued);
		} else if (in_tree || is_curr) {
			violation(p->cpu, "task %s-%d not on_rq but in the tree or curr", p->comm,
				  p->pid);
		}
	}

	unsigned int nr_overloaded = 0;

	for (unsigned int c = 0; c < machine.nr_cpus; c++) {
		struct rq *rq = cpu_rq(c);
		struct rq_tally *t = &tally[c];

		if (rq->cfs.nr_queued != t->queued || rq->cfs.h_nr_queued != t->queued)
			violation(c, "cfs nr_queued %u / h_nr_queued %u but %u tasks queued",
				  rq->cfs.nr_queued, rq->cfs.h_nr_queued, t->queued);
		if (rq->cfs.h_nr_idle != t->idle_queued)
			violation(c, "h_nr_idle %u but %u SCHED_IDLE tasks queued", rq->cfs.h_nr_idle,
				  t->idle_queued);
		if (rq->nr_running != t->queued + t->rt_queued + t->dl_queued)
			violation(c, "nr_running %u but %u fair, %u RT and %u DL tasks queued",
				  rq->nr_running, t->queued, t->rt_queued, t->dl_queued);
		check_rt_rq(c, t);
		check_fair_server(c, t);
		if (rq->cfs.h_nr_runnable != t->runnable)
			violation(c, "h_nr_runnable %u but %u runnable tasks", rq->cfs.h_nr_runnable,
				  t->runnable);
		if (rq->cfs.load.weight != t->weight)
			violation(c, "cfs load %lu but queued tasks weigh %lu", rq->cfs.load.weight,
				  t->weight);
		if (rq->cfs.avg_load != t->avg_load)
			violation(c, "avg_load %llu but the tree weighs %llu",
				  (unsigned long long)rq->cfs.avg_load, (unsigned long long)t->avg_load);
		/*
		 * A task curr on a CPU not its own: asked here once per CPU, not
		 * of every CPU for every task (O(tasks x CPUs) per event).
		 */
		if (!is_idle_task(rq->curr) && rq->curr->cpu != c)
			violation(c, "curr %s-%d belongs to CPU %u", rq->curr->comm, rq->curr->pid,
				  rq->curr->cpu);
		if (is_idle_task(rq->curr) && rq->cfs.curr)
			violation(c, "idle CPU has a fair curr");
		if (!is_idle_task(rq->curr) && !rt_task(rq->curr) && !dl_task(rq->curr) &&
		    rq->cfs.curr != &rq->curr->se)
			violation(c, "curr %s-%d is not the fair curr", rq->curr->comm,
				  rq->curr->pid);
		if ((rt_task(rq->curr) || dl_task(rq->curr)) && !rq->curr->is_stopper && rq->cfs.curr)
			violation(c, "RT curr %s-%d with a fair curr too", rq->curr->comm,
				  rq->curr->pid);
		if (rq->cfs.next) {
			struct sched_entity *next = rq->cfs.next;

			if (!next->on_rq || next->sched_delayed || task_of(next)->cpu != c)
				violation(c, "the next buddy %s-%d is not a queued, undelayed task of this CPU",
					  task_of(next)->comm, task_of(next)->pid);
		}
		if (rq->rt.overloaded)
			nr_overloaded++;
		if (rq->lock.free_at == UINT64_MAX)
			violation(c, "rq lock still held between events");
		if (is_idle_task(rq->curr) && !rq->need_resched && rq->nr_running &&
		    sim_cpu(c)->act == ACT_IDLE && !ev_queued(&rq->ipi_ev) && !ev_queued(&rq->step_ev))
			violation(c, "idle with %u runnable tasks and nothing to wake it",
				  rq->nr_running);
	}
	/* the root domain's rto count is the number of overloaded CPUs in it */
	{
		struct root_domain *rd = cpu_rd(0);
		bool one_rd = true;

		for (unsigned int c = 1; c < machine.nr_cpus && one_rd; c++)
			one_rd = cpu_rd(c) == rd;
		if (one_rd && rd->rto_count != nr_overloaded)
			violation(cpu, "root domain rto_count %u but %u CPUs are RT-overloaded",
				  rd->rto_count, nr_overloaded);
	}
	/* sleeping locks: owner, wait-list order, no lost wakeup */
	locking_check_invariants();
	/* PI futexes: each live pi_state's owner and waiters */
	futex_pi_check_invariants();
}

void sched_check_final(void)
{
	check_last_time = 0;
	check_nr_events = 0;
}
