// SPDX-License-Identifier: GPL-2.0-only
#include "report/sched_totals.h"

#include "kernel/sched.h"

#include <string.h>

void sched_totals_collect(struct sched_totals *t)
{
	unsigned int cpu;
	struct task_struct *p;

	memset(t, 0, sizeof(*t));
	for_each_possible_cpu(cpu) {
		const struct rq *rq = cpu_rq(cpu);
		const struct sim_cpu *c = sim_cpu(cpu);

		t->nr_switches += rq->nr_switches;
		t->ipi_sent += rq->ipi_sent;
		t->ipi_resched += rq->ipi_resched_sent;
		t->ipi_call += rq->ipi_call_sent;
		t->ttwu_count += rq->stat.ttwu_count;
		t->ttwu_local += rq->stat.ttwu_local;
		t->nr_ticks += rq->nr_ticks;
		t->ttwu_queued += rq->nr_ttwu_queued;
		t->ttwu_direct += rq->nr_ttwu_direct;
		t->wake_without_ipi += rq->nr_wake_without_ipi;
		t->idle_fast += rq->nr_idle_fast;
		t->idle_full_pick += rq->nr_idle_full_pick;
		t->busy_ns += c->time_in[ACT_USER] + c->time_in[ACT_KERNEL] + c->time_in[ACT_IRQ];
		t->idle_ns += c->time_in[ACT_IDLE];
	}
	/* each task and the released ones it carries (never idle tasks) */
	list_for_each_entry(p, &sched_world.tasks, tasks) {
		t->nr_migrations += p->stats.nr_migrations + p->cumul.nr_migrations;
		t->run_delay_ns += p->cumul.run_delay;
		t->pcount += p->cumul.pcount;
		if (!is_idle_task(p)) {
			t->run_delay_ns += p->stats.run_delay;
			t->pcount += p->stats.pcount;
		}
	}
}
