// SPDX-License-Identifier: GPL-2.0-only
#include "report/sched_totals.h"

#include "kernel/cpufreq.h"
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

bool energy_reported(void)
{
	/* a guest's energy is not known: the host's power in its states is the host's */
	return cpufreq_governed() && machine.topo->nr_em && !machine.topo->guest.kvm;
}

void energy_totals_collect(struct energy_totals *e)
{
	memset(e, 0, sizeof(*e));
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		unsigned __int128 busy_fj, idle_fj;
		u64 ns;

		sim_cpu_energy(cpu, &busy_fj, &idle_fj, &ns);
		e->total_fj += busy_fj + idle_fj;
		e->ns = max(e->ns, ns);
	}
}

double energy_totals_j(const struct energy_totals *e)
{
	return (double)e->total_fj / 1e15;
}

double energy_totals_mean_mw(const struct energy_totals *e)
{
	return e->ns ? (double)e->total_fj / (double)e->ns / 1e3 : 0;
}
