// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Energy Model of the CPUs and the scheduler's performance domains:
 * kernel/power/energy_model.c (em_dev_register_perf_domain(),
 * em_compute_costs(), em_cpufreq_update_efficiencies()),
 * include/linux/energy_model.h (em_cpu_energy()) and
 * kernel/sched/topology.c (sched_is_eas_possible(), build_perf_domains())
 * as of v6.18. The power figures are the machine file's (docs/energy.md).
 */
#include "kernel/energy_model.h"

#include "kernel/cpufreq.h"
#include "kernel/domains.h"
#include "kernel/sched.h"
#include "kernel/select.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sched_energy_present;
struct perf_domain *root_pd;

static struct em_perf_domain *em_pds; /* [nr_em_pds], one per policy with a model */
static unsigned int nr_em_pds;
static struct em_perf_domain **em_of; /* [nr_cpus]: the CPU's domain or NULL */
static struct perf_domain *pd_nodes; /* [nr_em_pds]: the rd->pd list's storage */

struct em_perf_domain *em_cpu_get(unsigned int cpu)
{
	return em_of ? em_of[cpu] : NULL;
}

int em_compute_costs(struct em_perf_state *table, int nr_states)
{
	unsigned long prev_cost = ~0UL;

	for (int i = nr_states - 1; i >= 0; i--) {
		/* "increase resolution of 'cost' precision": power x 10 */
		unsigned long power_res = table[i].power * 10;

		if (!table[i].performance)
			return -EINVAL;
		table[i].cost = power_res / table[i].performance;
		if (table[i].cost >= prev_cost) {
			table[i].flags = EM_PERF_STATE_INEFFICIENT;
		} else {
			table[i].flags = 0;
			prev_cost = table[i].cost;
		}
	}
	return 0;
}

int em_pd_get_efficient_state(const struct em_perf_state *table, const struct em_perf_domain *pd,
			      unsigned long max_util)
{
	for (int i = pd->min_perf_state; i <= pd->max_perf_state; i++) {
		const struct em_perf_state *ps = &table[i];

		if (ps->performance >= max_util) {
			if ((pd->flags & EM_PERF_DOMAIN_SKIP_INEFFICIENCIES) &&
			    (ps->flags & EM_PERF_STATE_INEFFICIENT))
				continue;
			return i;
		}
	}
	return pd->max_perf_state;
}

unsigned long em_cpu_energy(const struct em_perf_domain *pd, unsigned long max_util,
			    unsigned long sum_util, unsigned long allowed_cpu_cap)
{
	int i;

	if (!sum_util)
		return 0;
	/* the frequency may be capped below what is asked (thermal pressure) */
	if (max_util > allowed_cpu_cap)
		max_util = allowed_cpu_cap;
	i = em_pd_get_efficient_state(pd->table, pd, max_util);
	return pd->table[i].cost * sum_util;
}

/*
 * em_dev_register_perf_domain() for @policy: every CPU of the policy has
 * the same model and capacity (em_create_pd() refuses otherwise). The
 * table is the policy's OPPs, performance from em_init_performance().
 */
static bool em_register_policy(struct cpufreq_policy *policy, struct em_perf_domain *pd)
{
	const struct topology *t = machine.topo;
	unsigned int first = policy->cpus[0];
	const struct topo_em *em = topology_cpu_em(t, first);
	unsigned long max_cap = arch_scale_cpu_capacity(first);
	unsigned long fmax;
	int n;

	if (!em || em->nr_perf_states != policy->nr_freqs)
		return false;
	for (unsigned int i = 1; i < policy->nr_cpus; i++)
		if (t->cpus[policy->cpus[i]].em != t->cpus[first].em ||
		    arch_scale_cpu_capacity(policy->cpus[i]) != max_cap)
			return false;
	n = (int)em->nr_perf_states;
	fmax = policy->freq_table[n - 1];
	pd->table = xcalloc((size_t)n, sizeof(*pd->table));
	for (int i = 0; i < n; i++) {
		pd->table[i].frequency = policy->freq_table[i];
		pd->table[i].power = em->power_uw[i];
		/* em_init_performance(): capacity scaled by frequency */
		pd->table[i].performance = max_cap * policy->freq_table[i] / fmax;
	}
	if (em_compute_costs(pd->table, n)) {
		free(pd->table);
		pd->table = NULL;
		return false;
	}
	pd->nr_perf_states = n;
	pd->min_perf_state = 0;
	pd->max_perf_state = n - 1;
	pd->flags = EM_PERF_DOMAIN_MICROWATTS;
	pd->cpus = alloc_cpumask();
	for (unsigned int i = 0; i < policy->nr_cpus; i++)
		cpumask_set_cpu(policy->cpus[i], pd->cpus);
	/*
	 * em_cpufreq_update_efficiencies(): the inefficient OPPs are marked in
	 * the policy (cpufreq_table_set_inefficient()), and when one is, the
	 * EM skips them too.
	 */
	for (int i = 0; i < n; i++) {
		if (!(pd->table[i].flags & EM_PERF_STATE_INEFFICIENT))
			continue;
		cpufreq_table_set_inefficient(policy, (unsigned int)i);
		pd->flags |= EM_PERF_DOMAIN_SKIP_INEFFICIENCIES;
	}
	return true;
}

bool sched_is_eas_possible(char *why, size_t len)
{
	bool any_asym_capacity = false;
	const char *no = NULL;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu(sd_asym_cpucapacity, cpu))
			any_asym_capacity = true;
	if (!any_asym_capacity)
		no = "the CPUs do not have asymmetric capacities";
	else if (sched_smt_active())
		no = "SMT is not supported";
	/* arch_scale_freq_invariant(): PELT here is always frequency invariant */
	else if (!nr_cpufreq_policies || cpufreq_current_setup()->governor != CPUFREQ_GOV_SCHEDUTIL)
		no = "the cpufreq governor is not schedutil";
	if (no && why)
		snprintf(why, len, "%s", no);
	return !no;
}

void build_perf_domains(void)
{
	struct perf_domain *pd = NULL;
	unsigned int cpu;

	root_pd = NULL;
	sched_energy_present = false;
	if (!sysctl_sched.energy_aware || !sched_is_eas_possible(NULL, 0))
		return;
	for_each_possible_cpu(cpu) {
		struct em_perf_domain *em = em_cpu_get(cpu);
		struct perf_domain *tmp;
		bool covered = false;

		for (tmp = pd; tmp; tmp = tmp->next)
			if (tmp->em_pd == em)
				covered = true;
		if (covered)
			continue;
		/* pd_init(): a CPU without an energy model leaves EAS off */
		if (!em)
			return;
		tmp = &pd_nodes[em - em_pds];
		tmp->em_pd = em;
		tmp->next = pd;
		pd = tmp;
	}
	root_pd = pd;
	sched_energy_present = pd != NULL;
}

void em_init(void)
{
	unsigned int nr = machine.nr_cpus;

	em_exit();
	/*
	 * A KVM guest registers no EM: the figures come from the platform
	 * (DT's dynamic-power-coefficient through cpufreq-dt or SCMI, ACPI
	 * CPPC), and a guest's firmware describes none of the host's power,
	 * so sched_is_eas_possible() finds no perf domain and EAS stays off.
	 */
	if (!machine.topo->nr_em || !nr_cpufreq_policies || machine.topo->guest.kvm)
		return;
	em_pds = xcalloc(nr_cpufreq_policies, sizeof(*em_pds));
	pd_nodes = xcalloc(nr_cpufreq_policies, sizeof(*pd_nodes));
	em_of = xcalloc(nr, sizeof(*em_of));
	for (unsigned int i = 0; i < nr_cpufreq_policies; i++) {
		struct cpufreq_policy *policy = &cpufreq_policies[i];
		struct em_perf_domain *pd = &em_pds[nr_em_pds];

		if (!em_register_policy(policy, pd))
			continue;
		nr_em_pds++;
		for (unsigned int c = 0; c < policy->nr_cpus; c++)
			em_of[policy->cpus[c]] = pd;
	}
	build_perf_domains();
}

void em_exit(void)
{
	for (unsigned int i = 0; i < nr_em_pds; i++) {
		free(em_pds[i].table);
		free_cpumask(em_pds[i].cpus);
	}
	free(em_pds);
	free(pd_nodes);
	free(em_of);
	em_pds = NULL;
	pd_nodes = NULL;
	em_of = NULL;
	nr_em_pds = 0;
	root_pd = NULL;
	sched_energy_present = false;
}
