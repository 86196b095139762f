// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cross-CPU calls (kernel/smp.c line of thought): each CPU's call-single
 * queue holds wakelist entries (ttwu_queue_wakelist), function calls
 * (smp_call_function_single) and hard irq_work (irq_work_queue_on()). Adding to an empty queue sends the target a
 * call-function IPI — unless the target's idle task is polling
 * (TIF_POLLING_NRFLAG), in which case setting need_resched is enough: the
 * polling loop sees it, leaves idle and flushes the queue itself.
 */
#include "kernel/sched.h"
#include "kernel/trace.h"

bool call_single_queue_empty(struct rq *rq)
{
	return !rq->wake_list && !rq->csd_list;
}

/*
 * TIF_POLLING_NRFLAG of @rq's idle task: set in a polling state, and from
 * the idle loop's start until call_cpuidle() clears it for a state that
 * does not poll. A CPU still on its way into idle (the waker's now before
 * the state's entry) is woken through its flags whatever state it chose,
 * and then does not enter it (call_cpuidle() sees need_resched).
 */
static bool idle_polling(struct rq *rq)
{
	if (!is_idle_task(rq->curr))
		return false;
	if (rq->polling)
		return true;
	if (sim_cpu(cpu_of(rq))->act != ACT_IDLE || cpu_now() >= rq->idle_since)
		return false;
	rq->woken_before_entry = true;
	return true;
}

/* set_nr_if_polling(): wake a polling idle CPU through its flags */
static bool set_nr_if_polling(struct rq *rq)
{
	if (!idle_polling(rq))
		return false;
	if (!rq->need_resched) {
		/* the idle task's flags line, which the polling CPU monitors */
		cl_write(&rq->idle->cl.state);
		rq->need_resched = true;
		wake_polling_cpu(cpu_of(rq));
	}
	return true;
}

void wake_polling_cpu(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned int this_cpu = smp_processor_id();

	rq->nr_wake_without_ipi++;
	/* the flag's cache line reaches the polling (or MWAIT-monitoring) CPU */
	if (!ev_queued(&rq->step_ev) || rq->step_ev.time > cpu_now())
		sim_schedule(&rq->step_ev,
			     cpu_now() + machine.cost->cacheline[cpu_dist(this_cpu, cpu)]);
}

static void send_ipi(unsigned int cpu, struct sim_event *ev)
{
	const struct cost_model *cost = machine.cost;

	/* a guest's ICR write exits to the host (guest_ipi_exit: 0 on bare metal) */
	charge(cost->ipi_send + cost->guest_ipi_exit);
	this_rq()->ipi_sent++;
	if (!ev_queued(ev))
		sim_schedule(ev, cpu_now() + cost->ipi_latency[cpu_dist(smp_processor_id(), cpu)]);
}

void send_reschedule(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	/* resched_curr() already set need_resched: a polling CPU sees it */
	if (idle_polling(rq)) {
		wake_polling_cpu(cpu);
		return;
	}
	this_rq()->ipi_resched_sent++;
	trace_sched(__trace_ipi_send_cpu(cpu, TRACE_IPI_RESCHEDULE, TRACE_SITE_RESCHED_CURR));
	send_ipi(cpu, &rq->ipi_ev);
}

/* send_call_function_single_ipi(), inlined into __smp_call_single_queue(), called from @site */
static void send_call_function_single_ipi(unsigned int cpu, enum trace_ipi_site site)
{
	struct rq *rq = cpu_rq(cpu);

	if (set_nr_if_polling(rq))
		return;
	this_rq()->ipi_call_sent++;
	trace_sched(__trace_ipi_send_cpu(cpu, TRACE_IPI_CALL_FUNC, site));
	send_ipi(cpu, &rq->csd_ev);
}

/* llist_add() to the target's call_single_queue: a cmpxchg on its head */
static void queue_entry_cost(unsigned int cpu)
{
	cl_write(&cpu_rq(cpu)->cl.wakelist);
}

void __ttwu_queue_wakelist(struct task_struct *p, unsigned int cpu, int wake_flags)
{
	struct rq *rq = cpu_rq(cpu);
	bool was_empty = call_single_queue_empty(rq);

	p->sched_remote_wakeup = !!(wake_flags & WF_MIGRATED);
	/* WRITE_ONCE(rq->ttwu_pending, 1) */
	cl_write(&rq->cl.nr);
	rq->ttwu_pending = true;
	p->wake_entry_next = NULL;
	if (!rq->wake_list)
		rq->wake_list_tail = &rq->wake_list;
	*rq->wake_list_tail = p;
	rq->wake_list_tail = &p->wake_entry_next;
	queue_entry_cost(cpu);
	this_rq()->nr_ttwu_queued++;
	if (was_empty)
		send_call_function_single_ipi(cpu, TRACE_SITE_TTWU_QUEUE_WAKELIST);
}

void smp_call_function_single_async(unsigned int cpu, struct call_single_data *csd)
{
	struct rq *rq = cpu_rq(cpu);
	bool was_empty = call_single_queue_empty(rq);

	/* the caller's csd for @cpu: its line was last written by @cpu's csd_unlock() */
	cl_fetch((int)cpu, 1);
	csd->irq_work = false;
	csd->done = false;
	csd->next = NULL;
	csd->src_cpu = smp_processor_id();
	if (!rq->csd_list)
		rq->csd_list_tail = &rq->csd_list;
	*rq->csd_list_tail = csd;
	rq->csd_list_tail = &csd->next;
	queue_entry_cost(cpu);
	if (was_empty)
		send_call_function_single_ipi(cpu, TRACE_SITE_GENERIC_EXEC_SINGLE);
}

bool irq_work_queue_on(struct irq_work *work, unsigned int cpu)
{
	struct call_single_data *csd = &work->csd;
	struct rq *rq = cpu_rq(cpu);
	bool was_empty = call_single_queue_empty(rq);

	/* irq_work_claim(): pending already, it will run */
	if (work->pending)
		return false;
	work->pending = true;
	/* the work's flags, last written by the CPU that ran it */
	cl_fetch((int)cpu, 1);
	csd->irq_work = true;
	csd->func = NULL;
	csd->wait = false;
	csd->next = NULL;
	csd->src_cpu = smp_processor_id();
	if (!rq->csd_list)
		rq->csd_list_tail = &rq->csd_list;
	*rq->csd_list_tail = csd;
	rq->csd_list_tail = &csd->next;
	queue_entry_cost(cpu);
	if (was_empty)
		send_call_function_single_ipi(cpu, TRACE_SITE_IRQ_WORK_QUEUE_ON);
	return true;
}

/* sched_ttwu_pending(): activate the queued wakees under our own rq lock */
void sched_ttwu_pending(struct rq *rq)
{
	struct task_struct *p = rq->wake_list;

	if (!p)
		return;
	/* llist_del_all(): the queue head comes back from its wakers */
	cl_write(&rq->cl.wakelist);
	rq->wake_list = NULL;
	rq_lock(rq);
	update_rq_clock(rq);
	while (p) {
		struct task_struct *next = p->wake_entry_next;

		p->wake_entry_next = NULL;
		charge(machine.cost->csd_entry);
		if (task_cpu(p) != cpu_of(rq))
			set_task_cpu(p, cpu_of(rq));
		ttwu_do_activate(rq, p, p->sched_remote_wakeup ? WF_MIGRATED : 0);
		p = next;
	}
	/* cleared after the enqueues: idle_cpu() sees the wakeups coming */
	cl_write(&rq->cl.nr);
	rq->ttwu_pending = false;
	rq_unlock(rq);
}

void flush_smp_call_function_queue(struct rq *rq)
{
	struct call_single_data *csd = rq->csd_list;

	/*
	 * llist_del_all() first: a call queued while the wakeups below run
	 * (an irq_work from cpufreq_update_util() at their enqueue) goes on
	 * a fresh list, which its own IPI flushes, rather than being dropped.
	 */
	rq->csd_list = NULL;
	sched_ttwu_pending(rq);
	if (csd)
		cl_write(&rq->cl.wakelist);
	while (csd) {
		struct call_single_data *next = csd->next;

		charge(machine.cost->csd_entry);
		/* the csd its caller filled in */
		cl_fetch((int)csd->src_cpu, 1);
		if (csd->irq_work) {
			struct irq_work *work = container_of(csd, struct irq_work, csd);

			/* irq_work_single(): free to be queued again, then run */
			work->pending = false;
			work->func(work);
			csd = next;
			continue;
		}
		if (csd->func)
			csd->func(csd->info);
		csd->done = true;
		/* csd_unlock(): a waiting caller sees the flag and goes on */
		if (csd->wait || csd->lock_waiter) {
			csd->lock_waiter = false;
			struct rq *src = cpu_rq(csd->src_cpu);

			sim_schedule(&src->step_ev,
				     cpu_now() + machine.cost->cacheline[cpu_dist(cpu_of(rq),
										 csd->src_cpu)]);
		}
		csd = next;
	}
}
