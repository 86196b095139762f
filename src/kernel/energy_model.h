/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Energy Model (include/linux/energy_model.h, kernel/power/energy_model.c
 * as of v6.18) and the scheduler's performance domains
 * (kernel/sched/topology.c, build_perf_domains()): one em_perf_domain per
 * cpufreq policy whose CPUs have a power table in the machine file
 * (docs/energy.md), and the list of them the root domain holds while
 * EAS is possible.
 */
#ifndef SCHEDLAB_KERNEL_ENERGY_MODEL_H
#define SCHEDLAB_KERNEL_ENERGY_MODEL_H

#include "sim/types.h"
#include "topo/cpumask.h"

#include <stdbool.h>
#include <stddef.h>

/* em_perf_state.flags: a higher OPP costs less energy per unit of work */
#define EM_PERF_STATE_INEFFICIENT (1UL << 0)
/* em_perf_domain.flags */
#define EM_PERF_DOMAIN_MICROWATTS (1UL << 0)
#define EM_PERF_DOMAIN_SKIP_INEFFICIENCIES (1UL << 1)

struct em_perf_state {
	unsigned long performance; /* capacity at this frequency */
	unsigned long frequency; /* kHz */
	unsigned long power; /* uW */
	unsigned long cost; /* em_compute_costs(): 10 * power / performance */
	unsigned long flags;
};

struct em_perf_domain {
	struct em_perf_state *table; /* em_perf_state of the runtime table, ascending */
	int nr_perf_states;
	int min_perf_state, max_perf_state;
	unsigned long flags;
	struct cpumask *cpus; /* em_span_cpus() */
};

/* sched.h: the root domain's list of performance domains (rd->pd) */
struct perf_domain {
	struct em_perf_domain *em_pd;
	struct perf_domain *next;
};

/* em_cpu_get(): @cpu's performance domain, or NULL (no energy model) */
struct em_perf_domain *em_cpu_get(unsigned int cpu);

/* em_compute_costs(): the cost of each state, inefficient ones flagged; 0 or -EINVAL */
int em_compute_costs(struct em_perf_state *table, int nr_states);

/* em_pd_get_efficient_state(): the first state whose performance reaches @max_util */
int em_pd_get_efficient_state(const struct em_perf_state *table, const struct em_perf_domain *pd,
			      unsigned long max_util);

/*
 * em_cpu_energy(): the energy @pd spends at the frequency @max_util needs
 * (at most @allowed_cpu_cap) for @sum_util of work: cost * sum_util.
 */
unsigned long em_cpu_energy(const struct em_perf_domain *pd, unsigned long max_util,
			    unsigned long sum_util, unsigned long allowed_cpu_cap);

/*
 * At sched_init(), after cpufreq_init(): register an em_perf_domain for
 * every cpufreq policy of machine.topo whose CPUs share an energy model
 * (em_dev_register_perf_domain(); its inefficient OPPs are marked in the
 * policy, em_cpufreq_update_efficiencies()), then build_perf_domains().
 */
void em_init(void);
void em_exit(void);

/*
 * build_perf_domains(): rd->pd when sched_is_eas_possible() and
 * sysctl_sched.energy_aware, else none. Sets sched_energy_present.
 */
void build_perf_domains(void);
/* sched_is_eas_possible(); @why (may be NULL) gets the reason it is not */
bool sched_is_eas_possible(char *why, size_t len);

/* the sched_energy_present static key: EAS is on (sched_energy_enabled()) */
extern bool sched_energy_present;
static inline bool sched_energy_enabled(void)
{
	return __builtin_expect(sched_energy_present, 0);
}

/* rd->pd: the list, NULL without EAS */
extern struct perf_domain *root_pd;

static inline const struct cpumask *perf_domain_span(const struct perf_domain *pd)
{
	return pd->em_pd->cpus;
}

#endif
