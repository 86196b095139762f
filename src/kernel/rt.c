// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RT class: SCHED_FIFO and SCHED_RR (kernel/sched/rt.c line of thought,
 * v6.18). The fair server that keeps fair tasks from starving under RT load
 * is deadline.c's.
 *
 * Each rq has an rt_rq: 100 FIFO lists, one per priority (prio 0 is the
 * highest, 99 - sched_priority), and a bitmap of the non-empty ones, so the
 * pick is the first task of the first set bit. A running RT task stays on its
 * list. SCHED_FIFO runs until it blocks, yields or a higher priority wakes;
 * SCHED_RR goes to the tail of its list each sched_rr_timeslice ticks when
 * another task of its priority waits.
 *
 * Across CPUs (SMP balancing of RT tasks):
 *  - select_task_rq_rt(): a waking RT task that would not preempt its CPU's
 *    RT curr goes to find_lowest_rq(), a CPU running at a lower priority;
 *  - push: an rq with a queued RT task that may migrate and is not running
 *    (a "pushable" task: the rq is overloaded, set in the root domain)
 *    pushes it to the lowest-priority CPU it may run on (push_rt_tasks(),
 *    after a wakeup that did not preempt and after a switch to an RT task);
 *  - pull: a CPU whose priority drops (its RT task blocked or left the RT
 *    class) pulls the highest pushable task of an overloaded CPU that would
 *    outrank what it runs now (pull_rt_task()); with RT_PUSH_IPI (the
 *    default) it instead sends an irq_work IPI that visits the overloaded
 *    CPUs one after the other and has each push (tell_cpu_to_push()).
 *
 * Simplifications (docs/policies.md):
 *  - cpupri is a scan: find_lowest_rq() reads each allowed CPU's rt_rq
 *    highest priority (cpupri_find()'s levels, in the same order: the lowest
 *    level below the task's first) instead of keeping per-level vectors. Its
 *    cost is charged per CPU examined (lb_cpu_visit and the rq's rt line),
 *    which over-charges on big machines compared with the kernel's vectors.
 *  - there are no RT groups (CONFIG_RT_GROUP_SCHED) and so no RT
 *    throttling.
 *
 * RT pressure: rq->avg_rt (PELT of the RT running time) takes capacity
 * from fair tasks (scale_rt_capacity(), set by the balancer's
 * update_cpu_capacity()), so the fair balancer moves fair tasks away from
 * CPUs that RT tasks keep busy.
 */
#include "kernel/sched.h"

#include "kernel/trace.h"
#include "sim/alloc.h"

#include <stdlib.h>

/* find_lowest_rq()'s lowest_mask (the kernel's per-CPU local_cpu_mask) */
static struct cpumask rt_lowest_mask;

static inline struct task_struct *rt_task_of(struct sched_rt_entity *rt_se)
{
	return container_of(rt_se, struct task_struct, rt);
}

/* ------------------------------------------------------------------ */
/* the priority array                                                  */

static inline void rt_bit_set(struct rt_prio_array *a, int prio)
{
	a->bitmap[prio / 64] |= 1ULL << (prio % 64);
}

static inline void rt_bit_clear(struct rt_prio_array *a, int prio)
{
	a->bitmap[prio / 64] &= ~(1ULL << (prio % 64));
}

/* sched_find_first_bit(): the delimiter bit MAX_RT_PRIO ends the search */
static int sched_find_first_bit(const struct rt_prio_array *a)
{
	for (int i = 0; i < RT_BITMAP_LONGS; i++)
		if (a->bitmap[i])
			return i * 64 + __builtin_ctzll(a->bitmap[i]);
	return MAX_RT_PRIO;
}

void init_rt_rq(struct rt_rq *rt_rq)
{
	*rt_rq = (struct rt_rq){ 0 };
	for (int i = 0; i < MAX_RT_PRIO; i++)
		INIT_LIST_HEAD(&rt_rq->active.queue[i]);
	rt_bit_set(&rt_rq->active, MAX_RT_PRIO);
	rt_rq->highest_prio.curr = MAX_RT_PRIO - 1;
	rt_rq->highest_prio.next = MAX_RT_PRIO - 1;
	INIT_LIST_HEAD(&rt_rq->pushable_tasks);
}

/* ------------------------------------------------------------------ */
/* pushable tasks and the overload state                               */

/* rt_set_overload() / rt_clear_overload(): the root domain's rto_mask and count */
static void rt_set_overload(struct rq *rq)
{
	struct root_domain *rd = cpu_rd(cpu_of(rq));

	rd_overload_set(rd->rto_mask, &rd->rto_count, cpu_of(rq), true);
}

static void rt_clear_overload(struct rq *rq)
{
	struct root_domain *rd = cpu_rd(cpu_of(rq));

	rd_overload_set(rd->rto_mask, &rd->rto_count, cpu_of(rq), false);
}

/*
 * enqueue_pushable_task(): onto the pushable plist after every task of its
 * prio (off it first, if on: a task put back after running goes behind
 * those that waited); the rq is overloaded from its first pushable task.
 */
static void enqueue_pushable_task(struct rq *rq, struct task_struct *p)
{
	struct rt_rq *rt_rq = &rq->rt;
	struct task_struct *pos;

	if (task_pushable_queued(p)) {
		list_del_init(&p->pushable_tasks);
		rt_rq->rt_nr_pushable--;
	}
	/* plist_add(): before the first of a lower priority */
	list_for_each_entry(pos, &rt_rq->pushable_tasks, pushable_tasks)
		if (pos->prio > p->prio)
			break;
	list_add_tail(&p->pushable_tasks, &pos->pushable_tasks);
	rt_rq->rt_nr_pushable++;
	if (p->prio < rt_rq->highest_prio.next)
		rt_rq->highest_prio.next = p->prio;
	if (!rt_rq->overloaded) {
		rt_set_overload(rq);
		rt_rq->overloaded = true;
	}
}

/* dequeue_pushable_task(): highest_prio.next follows the plist's first */
static void dequeue_pushable_task(struct rq *rq, struct task_struct *p)
{
	struct rt_rq *rt_rq = &rq->rt;

	if (task_pushable_queued(p)) {
		list_del_init(&p->pushable_tasks);
		rt_rq->rt_nr_pushable--;
	}
	if (!list_empty(&rt_rq->pushable_tasks)) {
		rt_rq->highest_prio.next =
			list_first_entry(&rt_rq->pushable_tasks, struct task_struct, pushable_tasks)
				->prio;
		return;
	}
	rt_rq->highest_prio.next = MAX_RT_PRIO - 1;
	if (rt_rq->overloaded) {
		rt_clear_overload(rq);
		rt_rq->overloaded = false;
	}
}

static inline bool task_current(const struct rq *rq, const struct task_struct *p)
{
	return rq->curr == p;
}

/* ------------------------------------------------------------------ */
/* enqueue, dequeue, requeue                                           */

static void update_highest_prio(struct rt_rq *rt_rq)
{
	int prio = sched_find_first_bit(&rt_rq->active);

	rt_rq->highest_prio.curr = prio < MAX_RT_PRIO ? prio : MAX_RT_PRIO - 1;
}

/* convert_prio(): an rq priority to its cpupri level */
static int convert_prio(int prio)
{
	if (prio == CPUPRI_INVALID)
		return CPUPRI_INVALID;
	if (prio == MAX_RT_PRIO)
		return CPUPRI_HIGHER;
	if (prio == MAX_RT_PRIO - 1)
		return CPUPRI_NORMAL;
	return MAX_RT_PRIO - 1 - prio;
}

void cpupri_set(struct rq *rq, int newpri)
{
	unsigned int cpu = cpu_of(rq);

	cpu_rd(cpu)->cpupri[cpu] = convert_prio(newpri);
}

void enqueue_task_rt(struct rq *rq, struct task_struct *p, int flags)
{
	struct rt_rq *rt_rq = &rq->rt;
	struct sched_rt_entity *rt_se = &p->rt;
	struct list_head *queue = &rt_rq->active.queue[p->prio];
	int prev_prio = rt_rq->highest_prio.curr;

	/* __enqueue_rt_entity(): the tail of its list, or the head if asked */
	if (flags & ENQUEUE_HEAD)
		list_add(&rt_se->run_list, queue);
	else
		list_add_tail(&rt_se->run_list, queue);
	rt_se->on_list = 1;
	rt_se->on_rq = 1;
	rt_bit_set(&rt_rq->active, p->prio);
	rt_rq->rt_nr_running++;
	if (p->policy == SCHED_RR)
		rt_rq->rr_nr_running++;
	rt_rq->rt_queued = true;
	update_highest_prio(rt_rq);
	/* inc_rt_prio_smp(): a higher RT level */
	if (rt_rq->highest_prio.curr < prev_prio)
		cpupri_set(rq, rt_rq->highest_prio.curr);
	/* add_nr_running(): a second task makes the root domain overloaded */
	if (++rq->nr_running == 2)
		cpu_rd(cpu_of(rq))->overloaded = true;
	if (!task_current(rq, p) && p->nr_cpus_allowed > 1)
		enqueue_pushable_task(rq, p);
	/* enqueue_top_rt_rq(): "Kick cpufreq" */
	cpufreq_update_util(rq, 0);
}

void dequeue_task_rt(struct rq *rq, struct task_struct *p, int flags)
{
	struct rt_rq *rt_rq = &rq->rt;
	struct sched_rt_entity *rt_se = &p->rt;
	int prev_prio = rt_rq->highest_prio.curr;

	(void)flags;
	update_curr_rt(rq);
	dequeue_pushable_task(rq, p);
	list_del_init(&rt_se->run_list);
	if (list_empty(&rt_rq->active.queue[p->prio]))
		rt_bit_clear(&rt_rq->active, p->prio);
	rt_se->on_list = 0;
	rt_se->on_rq = 0;
	rt_rq->rt_nr_running--;
	if (p->policy == SCHED_RR)
		rt_rq->rr_nr_running--;
	rt_rq->rt_queued = rt_rq->rt_nr_running != 0;
	update_highest_prio(rt_rq);
	/* dec_rt_prio_smp(): the RT level changed */
	if (rt_rq->highest_prio.curr != prev_prio)
		cpupri_set(rq, rt_rq->highest_prio.curr);
	rq->nr_running--;
	/* dequeue_rt_entity() requeues the rest through enqueue_top_rt_rq(): its kick */
	cpufreq_update_util(rq, 0);
}

/* to the tail of its list (or the head): RR rotation, yield */
static void requeue_task_rt(struct rq *rq, struct task_struct *p, bool head)
{
	struct sched_rt_entity *rt_se = &p->rt;
	struct list_head *queue = &rq->rt.active.queue[p->prio];

	if (!on_rt_rq(rt_se))
		return;
	list_del_init(&rt_se->run_list);
	if (head)
		list_add(&rt_se->run_list, queue);
	else
		list_add_tail(&rt_se->run_list, queue);
}

/* yield_task_rt(): to the tail of its priority's list */
void yield_task_rt(struct rq *rq)
{
	requeue_task_rt(rq, rq->curr, false);
}

/* ------------------------------------------------------------------ */
/* accounting, picking, tick                                           */

int update_rt_rq_load_avg(u64 now, struct rq *rq, int running)
{
	return pelt_update_running(now, &rq->avg_rt, running);
}

/*
 * What RT and DL tasks and time outside tasks leave of the CPU for fair
 * tasks (fair.c scale_rt_capacity(): no HW pressure is modelled; the time
 * outside tasks is a guest's steal, rq->avg_irq), at least 1: the RT and
 * DL utilization is taken off, and what is left is scaled by
 * the share IRQ and steal leave (scale_irq_capacity()).
 */
unsigned long scale_rt_capacity(unsigned int cpu)
{
	const struct rq *rq = cpu_rq(cpu);
	unsigned long max = arch_scale_cpu_capacity(cpu);
	unsigned long irq = cpu_util_irq(rq);
	unsigned long used = cpu_util_rt(rq) + cpu_util_dl(rq);

	if (unlikely(irq >= max))
		return 1;
	if (unlikely(used >= max))
		return 1;
	return (max - used) * (max - irq) / max;
}

/* update_curr_common(): the runtime of an RT curr */
void update_curr_rt(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	if (!rt_task(curr) || curr->is_stopper || is_idle_task(curr))
		return;
	update_curr_common(rq);
}

struct task_struct *pick_task_rt(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;
	int idx;

	if (!rt_rq->rt_queued)
		return NULL;
	idx = sched_find_first_bit(&rt_rq->active);
	return rt_task_of(list_first_entry(&rt_rq->active.queue[idx], struct sched_rt_entity,
					   run_list));
}

void set_next_task_rt(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq->clock_task;
	/* the CPU did not run RT until now: its RT average saw idle time */
	if (!rt_task(rq->curr) || is_idle_task(rq->curr) || rq->curr->is_stopper)
		update_rt_rq_load_avg(rq->clock_pelt, rq, 0);
	/* the running task is not pushable */
	dequeue_pushable_task(rq, p);
	if (!first)
		return;
	/* rt_queue_push_tasks(): a balance callback, run after the switch */
	if (rq->rt.rt_nr_pushable)
		rq->rt_push_pending = true;
}

void put_prev_task_rt(struct rq *rq, struct task_struct *p)
{
	update_curr_rt(rq);
	update_rt_rq_load_avg(rq->clock_pelt, rq, 1);
	/* still queued: the previous task may be pushed away */
	if (on_rt_rq(&p->rt) && p->nr_cpus_allowed > 1)
		enqueue_pushable_task(rq, p);
}

void task_tick_rt(struct rq *rq, struct task_struct *p)
{
	struct sched_rt_entity *rt_se = &p->rt;

	update_curr_rt(rq);
	update_rt_rq_load_avg(rq->clock_pelt, rq, 1);
	/* SCHED_FIFO has no quantum */
	if (p->policy != SCHED_RR)
		return;
	if (--rt_se->time_slice)
		return;
	rt_se->time_slice = sched_rr_timeslice();
	/* the next task of the same priority, if any, runs */
	if (rt_se->run_list.prev != rt_se->run_list.next) {
		requeue_task_rt(rq, p, false);
		resched_curr(rq);
	}
}

/* ------------------------------------------------------------------ */
/* cpupri (a scan) and find_lowest_rq()                                */

/*
 * cpupri_find(): the CPUs @p may run on at the lowest cpupri level below
 * its own, in rt_lowest_mask; false if every allowed CPU is at its level
 * or above (an RT task of its priority or higher, or a queued DL entity:
 * the fair server).
 */
static bool cpupri_find(struct task_struct *p, struct cpumask *lowest_mask)
{
	int task_pri = convert_prio(p->prio), best = task_pri;
	unsigned int cpu;

	cpumask_clear(lowest_mask);
	for_each_cpu(cpu, p->cpus_mask) {
		struct rq *rq = cpu_rq(cpu);
		int pri;

		charge(machine.cost->lb_cpu_visit);
		cl_read(&rq->cl.rt);
		pri = cpupri_of_cpu(cpu);
		if (pri > best)
			continue;
		if (pri < best) {
			best = pri;
			cpumask_clear(lowest_mask);
		}
		if (pri < task_pri)
			cpumask_set_cpu(cpu, lowest_mask);
	}
	return !cpumask_empty(lowest_mask);
}

int find_lowest_rq(struct task_struct *p)
{
	if (p->nr_cpus_allowed == 1)
		return -1;
	if (!cpupri_find(p, &rt_lowest_mask))
		return -1;
	return find_closest_cpu(&rt_lowest_mask, task_cpu(p));
}

int find_closest_cpu(const struct cpumask *lowest_mask, unsigned int task_cpu)
{
	int this_cpu = (int)smp_processor_id();
	int cpu = (int)task_cpu;
	struct sched_domain *sd;

	/* the CPU it last ran on, cache hot, if it is one of them */
	if (cpumask_test_cpu((unsigned int)cpu, lowest_mask))
		return cpu;
	if (!cpumask_test_cpu((unsigned int)this_cpu, lowest_mask))
		this_cpu = -1;
	/*
	 * else the closest: this CPU (cheaper to preempt than a remote one),
	 * then one of the lowest affine domain's, spread over them
	 */
	for_each_domain((unsigned int)cpu, sd) {
		if (sd->flags & SD_WAKE_AFFINE) {
			unsigned int best;

			if (this_cpu != -1 &&
			    cpumask_test_cpu((unsigned int)this_cpu, sched_domain_span(sd)))
				return this_cpu;
			best = cpumask_any_and_distribute(lowest_mask, sched_domain_span(sd));
			if (best < nr_cpu_ids)
				return (int)best;
		}
	}
	if (this_cpu != -1)
		return this_cpu;
	cpu = (int)cpumask_any_distribute(lowest_mask);
	return cpu < (int)nr_cpu_ids ? cpu : -1;
}

unsigned int select_task_rq_rt(struct task_struct *p, unsigned int cpu, int wake_flags)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *curr;
	bool test;

	if (!(wake_flags & (WF_TTWU | WF_FORK)))
		return cpu;
	cl_read(&rq->cl.curr);
	curr = rq->curr;
	/*
	 * Would it not run at once there (an RT curr of its priority or
	 * higher, or one that cannot move)? Then look for a lower CPU.
	 */
	test = rt_task(curr) && !curr->is_stopper &&
	       (curr->nr_cpus_allowed < 2 || curr->prio <= p->prio);
	if (test) {
		int target = find_lowest_rq(p);

		if (target != -1 && p->prio < cpu_rq((unsigned int)target)->rt.highest_prio.curr)
			cpu = (unsigned int)target;
	}
	return cpu;
}

/* ------------------------------------------------------------------ */
/* wakeup preemption                                                   */

/*
 * Same priority as curr: requeue the wakee first and preempt only if curr
 * cannot go elsewhere while the wakee could (check_preempt_equal_prio()).
 */
static void check_preempt_equal_prio(struct rq *rq, struct task_struct *p)
{
	if (rq->curr->nr_cpus_allowed == 1 || !cpupri_find(rq->curr, &rt_lowest_mask))
		return;
	if (p->nr_cpus_allowed != 1 && cpupri_find(p, &rt_lowest_mask))
		return;
	requeue_task_rt(rq, p, true);
	resched_curr(rq);
}

void wakeup_preempt_rt(struct rq *rq, struct task_struct *p, int wake_flags)
{
	struct task_struct *donor = rq->curr;

	(void)wake_flags;
	if (p->prio < donor->prio) {
		resched_curr(rq);
		return;
	}
	if (p->prio == donor->prio && !rq->need_resched)
		check_preempt_equal_prio(rq, p);
}

/* ------------------------------------------------------------------ */
/* push and pull                                                       */

/* task_is_pushable(): not on a CPU, and allowed on @cpu */
static bool task_is_pushable(struct task_struct *p, unsigned int cpu)
{
	return !p->on_cpu && cpumask_test_cpu(cpu, p->cpus_mask);
}

/* pick_highest_pushable_task(): the plist's first task that may go to @cpu */
static struct task_struct *pick_highest_pushable_task(struct rq *rq, unsigned int cpu)
{
	struct task_struct *p;

	list_for_each_entry(p, &rq->rt.pushable_tasks, pushable_tasks)
		if (task_is_pushable(p, cpu))
			return p;
	return NULL;
}

/* pick_next_pushable_task(): the plist's first */
static struct task_struct *pick_next_pushable_task(struct rq *rq)
{
	if (list_empty(&rq->rt.pushable_tasks))
		return NULL;
	return list_first_entry(&rq->rt.pushable_tasks, struct task_struct, pushable_tasks);
}

void move_queued_task_locked(struct rq *src_rq, struct rq *dst_rq, struct task_struct *p)
{
	deactivate_task(src_rq, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, cpu_of(dst_rq));
	activate_task(dst_rq, p, ENQUEUE_NOCLOCK | ENQUEUE_MIGRATED);
}

void push_task_locked(struct rq *src_rq, struct rq *dst_rq, struct task_struct *p)
{
	move_queued_task_locked(src_rq, dst_rq, p);
	resched_curr(dst_rq);
	rq_unlock(dst_rq);
}

/* find_lock_lowest_rq(): a CPU running lower than @task, locked; NULL if none */
static struct rq *find_lock_lowest_rq(struct task_struct *task, struct rq *rq)
{
	struct rq *lowest_rq;
	int cpu = find_lowest_rq(task);

	if (cpu == -1 || (unsigned int)cpu == cpu_of(rq))
		return NULL;
	lowest_rq = cpu_rq((unsigned int)cpu);
	/* equal or higher priority there: retrying would find the same */
	if (lowest_rq->rt.highest_prio.curr <= task->prio)
		return NULL;
	rq_lock(lowest_rq);
	update_rq_clock(lowest_rq);
	return lowest_rq;
}

/* push_rt_task(): one pushable task of @rq to a lower-priority CPU; 1 if moved */
static int push_rt_task(struct rq *rq)
{
	struct task_struct *next_task;
	struct rq *lowest_rq;

	if (!rq->rt.overloaded)
		return 0;
	charge(machine.cost->rt_push);
	next_task = pick_next_pushable_task(rq);
	if (!next_task)
		return 0;
	/* it outranks what runs here: it just runs here */
	if (next_task->prio < rq->curr->prio) {
		resched_curr(rq);
		return 0;
	}
	lowest_rq = find_lock_lowest_rq(next_task, rq);
	if (!lowest_rq)
		return 0;
	push_task_locked(rq, lowest_rq, next_task);
	rq->rt.nr_pushed++;
	return 1;
}

void push_rt_tasks(struct rq *rq)
{
	while (push_rt_task(rq))
		;
}

/* ------------------------------------------------------------------ */
/* RT_PUSH_IPI: ask the overloaded CPUs to push, one after the other  */

/*
 * rto_next_cpu(): the next CPU of the rto_mask after rto_cpu (the first
 * when it is -1); past the last, start over if another CPU asked meanwhile
 * (rto_loop_next moved), else -1: the loop is done.
 */
static int rto_next_cpu(struct root_domain *rd)
{
	struct rto_push *r = rd->rto_push;

	for (;;) {
		unsigned int cpu = cpumask_next_from(rd->rto_mask, (unsigned int)(r->cpu + 1));

		if (cpu < nr_cpu_ids) {
			r->cpu = (int)cpu;
			return (int)cpu;
		}
		r->cpu = -1;
		if (r->loop == r->loop_next)
			break;
		r->loop = r->loop_next;
	}
	return -1;
}

/*
 * tell_cpu_to_push(): this CPU lowered its priority. Instead of taking
 * each overloaded CPU's rq lock, send the root domain's irq_work to the
 * first of them, which pushes what it can and passes the work on to the
 * next. If a loop is running already, bumping rto_loop_next makes it go
 * round once more.
 */
static void tell_cpu_to_push(struct rq *rq)
{
	struct root_domain *rd = cpu_rd(cpu_of(rq));
	struct rto_push *r = rd->rto_push;
	int cpu = -1;

	r->loop_next++;
	/* rto_start_trylock(): only one CPU starts a loop */
	if (r->loop_start)
		return;
	r->loop_start = true;
	sim_lock_acquire(&r->lock);
	if (r->cpu < 0)
		cpu = rto_next_cpu(rd);
	sim_lock_release(&r->lock);
	r->loop_start = false;
	if (cpu >= 0) {
		r->nr_ipis++;
		irq_work_queue_on(&r->work, (unsigned int)cpu);
	}
}

/* rto_push_irq_work_func(): in the IPI, push this CPU's tasks, then pass it on */
static void rto_push_irq_work_func(struct irq_work *work)
{
	struct rto_push *r = container_of(work, struct rto_push, work);
	struct rq *rq = this_rq();
	struct root_domain *rd = cpu_rd(cpu_of(rq));
	int cpu;

	if (!list_empty(&rq->rt.pushable_tasks)) {
		rq_lock(rq);
		while (push_rt_task(rq))
			;
		rq_unlock(rq);
	}
	sim_lock_acquire(&r->lock);
	cpu = rto_next_cpu(rd);
	sim_lock_release(&r->lock);
	if (cpu < 0)
		return;
	r->nr_ipis++;
	irq_work_queue_on(&r->work, (unsigned int)cpu);
}

struct rto_push *rto_push_alloc(void)
{
	struct rto_push *r = xcalloc(1, sizeof(*r));

	r->work.func = rto_push_irq_work_func;
	sim_lock_init(&r->lock);
	r->cpu = -1;
	return r;
}

void rto_push_free(struct rto_push *r)
{
	free(r);
}

/*
 * pull_rt_task(): this CPU's RT priority dropped; take, from each
 * RT-overloaded CPU, the best pushable task that would outrank what this
 * CPU has now (and go on looking: another may be better still), unless it
 * is about to preempt its own CPU's curr.
 */
void pull_rt_task(struct rq *this_rq)
{
	unsigned int this_cpu = cpu_of(this_rq), cpu;
	struct root_domain *rd = cpu_rd(this_cpu);
	bool resched = false;

	/* rt_overloaded(): nobody has a task to give */
	if (!rd->rto_count)
		return;
	/* we are the only overloaded CPU */
	if (rd->rto_count == 1 && cpumask_test_cpu(this_cpu, rd->rto_mask))
		return;
	charge(machine.cost->rt_pull);
	if (sched_feat(RT_PUSH_IPI)) {
		tell_cpu_to_push(this_rq);
		return;
	}
	for_each_cpu(cpu, rd->rto_mask) {
		struct rq *src_rq = cpu_rq(cpu);
		struct task_struct *p;

		if (cpu == this_cpu)
			continue;
		charge(machine.cost->lb_cpu_visit);
		cl_read(&src_rq->cl.rt);
		/* its best waiting task would not outrank what we have */
		if (src_rq->rt.highest_prio.next >= this_rq->rt.highest_prio.curr)
			continue;
		rq_lock(src_rq);
		update_rq_clock(src_rq);
		p = pick_highest_pushable_task(src_rq, this_cpu);
		if (p && p->prio < this_rq->rt.highest_prio.curr) {
			/* it is about to preempt its own CPU's curr: leave it */
			if (p->prio < src_rq->curr->prio)
				goto skip;
			move_queued_task_locked(src_rq, this_rq, p);
			this_rq->rt.nr_pulled++;
			resched = true;
		}
skip:
		rq_unlock(src_rq);
	}
	if (resched)
		resched_curr(this_rq);
}

/* need_pull_rt_task(): the rq's best RT is now below the task that left */
void balance_rt(struct rq *rq, struct task_struct *prev)
{
	if (!on_rt_rq(&prev->rt) && rq->rt.highest_prio.curr > prev->prio)
		pull_rt_task(rq);
}

/* task_woken_rt(): a woken RT task that did not preempt may go elsewhere */
void task_woken_rt(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;
	bool need_push = !task_current(rq, p) && !rq->need_resched && p->nr_cpus_allowed > 1 &&
			 rt_task(curr) && !curr->is_stopper &&
			 (curr->nr_cpus_allowed < 2 || curr->prio <= p->prio);

	if (need_push)
		push_rt_tasks(rq);
}

/* ------------------------------------------------------------------ */
/* class and priority changes                                          */

void switched_from_rt(struct rq *rq, struct task_struct *p)
{
	/* the rq may have dropped below RT: pull (rt_queue_pull_task()) */
	if (!task_on_rq_queued(p) || rq->rt.rt_nr_running)
		return;
	pull_rt_task(rq);
}

void switched_to_rt(struct rq *rq, struct task_struct *p)
{
	if (task_current(rq, p)) {
		update_curr_rt(rq);
		return;
	}
	if (!task_on_rq_queued(p))
		return;
	if (p->nr_cpus_allowed > 1 && rq->rt.overloaded)
		push_rt_tasks(rq);
	if (p->prio < rq->curr->prio)
		resched_curr(rq);
}

void prio_changed_rt(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p))
		return;
	if (task_current(rq, p)) {
		/* lowered: someone else may be better, here or elsewhere */
		if (oldprio < p->prio)
			pull_rt_task(rq);
		if (p->prio > rq->rt.highest_prio.curr)
			resched_curr(rq);
	} else if (p->prio < rq->curr->prio) {
		resched_curr(rq);
	}
}
