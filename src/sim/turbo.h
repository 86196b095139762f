/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Turbo by active cores: the package's power control unit (PCU) grants a
 * core at most the turbo frequency for the number of active cores of its
 * kind in the package (cpu_topo.turbo, MSR_TURBO_RATIO_LIMIT). A core is
 * active unless all its threads are in an idle state that stops its clocks
 * (idle_state.deep: core C3/C6). The PCU re-evaluates the limit on a grid
 * of cost->pcu_interval_ns; a core runs at min(what the OS requested, the
 * limit). Hardware, read-only to the kernel: the kernel sees it only
 * through the frequency (APERF/MPERF, arch_scale_freq_capacity()).
 */
#ifndef SCHEDLAB_SIM_TURBO_H
#define SCHEDLAB_SIM_TURBO_H

#include "sim/event.h"
#include "topo/topology.h"

/* the cores of one kind in one package, which share a turbo table */
struct sim_turbo_domain {
	const struct turbo_table *table;
	unsigned int package;
	unsigned int nr_cores;
	unsigned int nr_active; /* cores with a thread not in a deep idle state */
	unsigned int limit_khz; /* what the PCU grants since its last evaluation */
	unsigned int *cpus; /* [nr_cpus]: the domain's CPUs */
	unsigned int nr_cpus;
	struct sim_event eval; /* the next evaluation, queued after a change */
	u64 nr_changes; /* evaluations that changed the limit */
};

/* Build the domains of machine.topo, every core active (machine_init()). */
void sim_turbo_init(void);
void sim_turbo_destroy(void);

/* the domains, package by package: none on a machine without turbo tables */
unsigned int sim_turbo_nr_domains(void);
const struct sim_turbo_domain *sim_turbo_domain(unsigned int i);

/* @cpu's domain, or NULL on a CPU without a turbo table */
const struct sim_turbo_domain *sim_turbo_domain_of(unsigned int cpu);

/*
 * The reference intel_set_max_freq_ratio() finds for @tt: the ratio for 4
 * active cores (skx_set_max_freq_ratio(), core_set_max_freq_ratio()), the
 * 1-core ratio on a part with fewer cores.
 */
unsigned int turbo_freq_inv_ref_khz(const struct turbo_table *tt);

#endif
