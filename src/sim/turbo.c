// SPDX-License-Identifier: GPL-2.0-only
/*
 * Turbo by active cores (sim/turbo.h). Each idle-state change that makes a
 * core active or inactive moves its domain's counter by one; the PCU's
 * evaluation, at most one queued per domain, then sets every CPU of the
 * domain to min(its request, the new limit). So an idle transition costs
 * the same on any machine size; only an evaluation that changes the limit
 * visits the domain's CPUs.
 */
#include "sim/turbo.h"

#include "sim/alloc.h"
#include "sim/machine.h"

#include <stdlib.h>
#include <string.h>

static struct sim_turbo_domain *domains;
static unsigned int nr_domains;

unsigned int turbo_freq_inv_ref_khz(const struct turbo_table *tt)
{
	return turbo_table_khz(tt, tt->upto[tt->nr - 1] >= 4 ? 4 : 1);
}

/* the index of @khz in @cpu's OPPs (turbo frequencies are OPPs: machine_file.c) */
static unsigned int opp_of(unsigned int cpu, unsigned int khz)
{
	const struct cpu_topo *ct = &machine.topo->cpus[cpu];

	for (unsigned int i = 0; i < ct->nr_opps; i++)
		if (ct->opp_khz[i] == khz)
			return i;
	return ct->nr_opps ? ct->nr_opps - 1 : 0;
}

/* @c's clock: its request within its domain's limit */
static void apply(struct sim_cpu *c, unsigned int limit)
{
	unsigned int khz = c->req_khz < limit ? c->req_khz : limit;

	if (khz != c->freq_khz)
		sim_cpu_clock(c, khz, opp_of(c->id, khz));
}

/* the PCU's evaluation: the limit for the active cores counted now */
static void pcu_eval(struct sim_event *ev)
{
	struct sim_turbo_domain *d = container_of(ev, struct sim_turbo_domain, eval);
	/* no core active: the next to wake is the one the limit is for */
	unsigned int lim = turbo_table_khz(d->table, d->nr_active ? d->nr_active : 1);

	if (lim == d->limit_khz)
		return;
	d->limit_khz = lim;
	d->nr_changes++;
	for (unsigned int i = 0; i < d->nr_cpus; i++)
		apply(sim_cpu(d->cpus[i]), lim);
}

void __sim_turbo_idle(struct sim_cpu *c, bool deep)
{
	struct sim_core *core = c->core;
	struct sim_turbo_domain *d = core->turbo;
	bool was_active = core->nr_deep < core->nr_threads;
	u64 period = machine.cost->pcu_interval_ns;
	u64 t;

	c->deep = deep;
	if (deep)
		core->nr_deep++;
	else
		core->nr_deep--;
	if ((core->nr_deep < core->nr_threads) == was_active)
		return;
	if (was_active)
		d->nr_active--;
	else
		d->nr_active++;
	if (ev_queued(&d->eval))
		return;
	/* the next point of the PCU's grid after the change (at once with no period) */
	t = c->t > machine.now ? c->t : machine.now;
	if (period)
		t = (t / period + 1) * period;
	sim_schedule(&d->eval, t);
}

unsigned int sim_turbo_nr_domains(void)
{
	return nr_domains;
}

const struct sim_turbo_domain *sim_turbo_domain(unsigned int i)
{
	return &domains[i];
}

const struct sim_turbo_domain *sim_turbo_domain_of(unsigned int cpu)
{
	return sim_cpu(cpu)->core->turbo;
}

/* the domain of @cpu's package and table, made on first sight */
static struct sim_turbo_domain *domain_for(unsigned int cpu)
{
	const struct cpu_topo *ct = &machine.topo->cpus[cpu];
	struct sim_turbo_domain *d;

	for (unsigned int i = 0; i < nr_domains; i++) {
		d = &domains[i];
		if (d->package == ct->package && !memcmp(d->table, &ct->turbo, sizeof(ct->turbo)))
			return d;
	}
	d = &domains[nr_domains++];
	d->table = &ct->turbo;
	d->package = ct->package;
	d->cpus = xcalloc(machine.nr_cpus, sizeof(*d->cpus));
	ev_init(&d->eval, pcu_eval, cpu);
	return d;
}

void sim_turbo_init(void)
{
	const struct topology *topo = machine.topo;

	domains = NULL;
	nr_domains = 0;
	for (unsigned int k = 0; k < topo->nr_cores; k++) {
		struct sim_core *core = &machine.cores[k];

		if (!core->nr_threads || !topo->cpus[core->cpus[0]].turbo.nr)
			continue;
		if (!domains)
			domains = xcalloc(topo->nr_cores, sizeof(*domains));
		core->turbo = domain_for(core->cpus[0]);
		/* every core starts in C0: all active */
		core->turbo->nr_cores++;
		core->turbo->nr_active++;
		for (unsigned int i = 0; i < core->nr_threads; i++)
			core->turbo->cpus[core->turbo->nr_cpus++] = core->cpus[i];
	}
	for (unsigned int i = 0; i < nr_domains; i++) {
		struct sim_turbo_domain *d = &domains[i];

		d->limit_khz = turbo_table_khz(d->table, d->nr_active);
		for (unsigned int j = 0; j < d->nr_cpus; j++) {
			struct sim_cpu *c = sim_cpu(d->cpus[j]);

			c->freq_inv_ref_khz = turbo_freq_inv_ref_khz(d->table);
			apply(c, d->limit_khz);
		}
	}
}

void sim_turbo_destroy(void)
{
	for (unsigned int i = 0; i < nr_domains; i++)
		free(domains[i].cpus);
	free(domains);
	domains = NULL;
	nr_domains = 0;
}
