// SPDX-License-Identifier: GPL-2.0-only
/*
 * Energy-aware wakeup placement: find_energy_efficient_cpu() and its
 * energy estimate (compute_energy(), struct energy_env) as
 * kernel/sched/fair.c has them in v6.18. While the root domain is not
 * overutilized and EAS is on (energy_model.h: an energy model, asymmetric
 * capacities, schedutil on every policy, kernel.sched_energy_aware), a
 * waking task goes to the CPU where the energy model says it costs least:
 * in each performance domain the CPU with the most spare capacity is a
 * candidate, beside the task's previous CPU.
 *
 * Costs: each CPU the search examines pays select_visit_load()
 * (cost->lb_cpu_visit and its rq's load line), each energy estimate of a
 * performance domain cost->lb_group (docs/energy.md).
 */
#include "kernel/energy_model.h"
#include "kernel/select.h"

#include <limits.h>

/* lsub_positive(): subtract, stopping at zero */
static inline void lsub_positive(unsigned long *v, unsigned long sub)
{
	*v -= min(*v, sub);
}

/*
 * cpu_util(): @cpu's fair utilisation if @p went to @dst_cpu (-1: nowhere),
 * with runnable_avg when @boost, util_est under UTIL_EST.
 */
static unsigned long cpu_util(unsigned int cpu, struct task_struct *p, int dst_cpu, int boost)
{
	struct cfs_rq *cfs_rq = &cpu_rq(cpu)->cfs;
	unsigned long util = cfs_rq->avg.util_avg;

	if (boost)
		util = max(util, cfs_rq->avg.runnable_avg);
	if (p && task_cpu(p) == cpu && dst_cpu != (int)cpu)
		lsub_positive(&util, p->se.avg.util_avg);
	else if (p && task_cpu(p) != cpu && dst_cpu == (int)cpu)
		util += p->se.avg.util_avg;
	if (sched_feat(UTIL_EST)) {
		unsigned long util_est = cfs_rq->avg.util_est;

		if (dst_cpu == (int)cpu)
			util_est += _task_util_est(&p->se.avg);
		else if (p && (task_on_rq_queued(p) || current == p))
			lsub_positive(&util_est, _task_util_est(&p->se.avg));
		util = max(util, util_est);
	}
	return min(util, arch_scale_cpu_capacity(cpu));
}

/*
 * struct energy_env: the task's contribution, the domain's busy time
 * without it, one CPU's capacity and the whole domain's.
 */
struct energy_env {
	unsigned long task_busy_time;
	unsigned long pd_busy_time;
	unsigned long cpu_cap;
	unsigned long pd_cap;
};

/* eenv_task_busy_time(): no IRQ time is modelled, so the task's util_est */
static void eenv_task_busy_time(struct energy_env *eenv, struct task_struct *p, int prev_cpu)
{
	unsigned long max_cap = arch_scale_cpu_capacity((unsigned int)prev_cpu);
	unsigned long busy_time = task_util_est(&p->se.avg);

	eenv->task_busy_time = min(busy_time, max_cap);
}

/* eenv_pd_busy_time(): the domain's utilisation without @p, at most its capacity */
static void eenv_pd_busy_time(struct energy_env *eenv, const struct cpumask *pd_cpus,
			      struct task_struct *p)
{
	unsigned long busy_time = 0;
	unsigned int cpu;

	for_each_cpu(cpu, pd_cpus) {
		unsigned long util = cpu_util(cpu, p, -1, 0);

		busy_time += effective_cpu_util(cpu, util, NULL, NULL);
	}
	eenv->pd_busy_time = min(eenv->pd_cap, busy_time);
}

/*
 * eenv_pd_max_util(): the performance the domain's busiest CPU would ask
 * of schedutil with @p on @dst_cpu (clamps and the 1.25 headroom), at most
 * a CPU's capacity.
 */
static unsigned long eenv_pd_max_util(struct energy_env *eenv, const struct cpumask *pd_cpus,
				      struct task_struct *p, int dst_cpu)
{
	unsigned long max_util = 0;
	unsigned int cpu;

	for_each_cpu(cpu, pd_cpus) {
		struct task_struct *tsk = ((int)cpu == dst_cpu) ? p : NULL;
		unsigned long util = cpu_util(cpu, p, dst_cpu, 1);
		unsigned long eff_util, min, max;

		eff_util = effective_cpu_util(cpu, util, &min, &max);
		/* the task's own clamps move the domain's frequency too */
		if (tsk && uclamp_is_used()) {
			min = max(min, uclamp_eff_value(p, UCLAMP_MIN));
			if (uclamp_rq_is_idle(cpu_rq(cpu)))
				max = uclamp_eff_value(p, UCLAMP_MAX);
			else
				max = max(max, uclamp_eff_value(p, UCLAMP_MAX));
		}
		eff_util = sugov_effective_cpu_perf(eff_util, min, max);
		max_util = max(max_util, eff_util);
	}
	return min(max_util, eenv->cpu_cap);
}

/* compute_energy(): the energy model's estimate for the domain (@dst_cpu -1: without @p) */
static unsigned long compute_energy(struct energy_env *eenv, const struct perf_domain *pd,
				    const struct cpumask *pd_cpus, struct task_struct *p,
				    int dst_cpu)
{
	unsigned long max_util = eenv_pd_max_util(eenv, pd_cpus, p, dst_cpu);
	unsigned long busy_time = eenv->pd_busy_time;

	charge(machine.cost->lb_group);
	if (dst_cpu >= 0)
		busy_time = min(eenv->pd_cap, busy_time + eenv->task_busy_time);
	return em_cpu_energy(pd->em_pd, max_util, busy_time, eenv->cpu_cap);
}

int find_energy_efficient_cpu(struct task_struct *p, int prev_cpu)
{
	struct cpumask *cpus = &select_rq_mask;
	unsigned long prev_delta = ULONG_MAX, best_delta = ULONG_MAX;
	unsigned long p_util_min = uclamp_is_used() ? uclamp_eff_value(p, UCLAMP_MIN) : 0;
	unsigned long p_util_max = uclamp_is_used() ? uclamp_eff_value(p, UCLAMP_MAX) :
						      SCHED_CAPACITY_SCALE;
	unsigned long best_actual_cap = 0, prev_actual_cap = 0;
	int prev_fits = -1, best_fits = -1;
	int best_energy_cpu = -1, target = -1;
	const struct perf_domain *pd = root_pd;
	struct sched_domain *sd;
	struct energy_env eenv;
	unsigned int cpu;

	if (!pd)
		return target;
	/* the lowest SD_ASYM_CPUCAPACITY domain of this CPU that spans prev_cpu */
	sd = per_cpu(sd_asym_cpucapacity, smp_processor_id());
	while (sd && !cpumask_test_cpu((unsigned int)prev_cpu, sched_domain_span(sd)))
		sd = sd->parent;
	if (!sd)
		return target;
	target = prev_cpu;
	sync_entity_load_avg(&p->se);
	if (!task_util_est(&p->se.avg) && p_util_min == 0)
		return target;
	eenv_task_busy_time(&eenv, p, prev_cpu);

	for (; pd; pd = pd->next) {
		unsigned long util_min = p_util_min, util_max = p_util_max;
		unsigned long cpu_cap, cpu_actual_cap, util;
		long prev_spare_cap = -1, max_spare_cap = -1;
		unsigned long cur_delta, base_energy;
		int max_spare_cap_cpu = -1;
		int fits, max_fits = -1;

		/* every CPU is online (no hotplug is modelled) */
		cpumask_copy(cpus, perf_domain_span(pd));
		if (cpumask_empty(cpus))
			continue;
		/* external pressure (none modelled) for the energy estimate */
		cpu_actual_cap = get_actual_cpu_capacity(cpumask_first(cpus));
		eenv.cpu_cap = cpu_actual_cap;
		eenv.pd_cap = 0;

		for_each_cpu(cpu, cpus) {
			struct rq *rq = cpu_rq(cpu);

			eenv.pd_cap += cpu_actual_cap;
			if (!cpumask_test_cpu(cpu, sched_domain_span(sd)))
				continue;
			if (!cpumask_test_cpu(cpu, p->cpus_mask))
				continue;
			select_visit_load(cpu);
			util = cpu_util(cpu, p, (int)cpu, 0);
			cpu_cap = capacity_of(cpu);
			/*
			 * A CPU that cannot satisfy the request is skipped: the
			 * rq's clamps, max-aggregated with the task's, not
			 * clamping util itself (util_fits_cpu() needs it raw).
			 */
			if (uclamp_is_used() && !uclamp_rq_is_idle(rq)) {
				util_min = max(uclamp_rq_get(rq, UCLAMP_MIN), p_util_min);
				util_max = max(uclamp_rq_get(rq, UCLAMP_MAX), p_util_max);
			}
			fits = util_fits_cpu(util, util_min, util_max, cpu);
			if (!fits)
				continue;
			lsub_positive(&cpu_cap, util);
			if ((int)cpu == prev_cpu) {
				/* prev_cpu is always a candidate */
				prev_spare_cap = (long)cpu_cap;
				prev_fits = fits;
			} else if ((fits > max_fits) ||
				   ((fits == max_fits) && ((long)cpu_cap > max_spare_cap))) {
				/* the most spare capacity among the others */
				max_spare_cap = (long)cpu_cap;
				max_spare_cap_cpu = (int)cpu;
				max_fits = fits;
			}
		}
		if (max_spare_cap_cpu < 0 && prev_spare_cap < 0)
			continue;

		eenv_pd_busy_time(&eenv, cpus, p);
		/* the domain's energy without @p */
		base_energy = compute_energy(&eenv, pd, cpus, p, -1);

		if (prev_spare_cap > -1) {
			prev_delta = compute_energy(&eenv, pd, cpus, p, prev_cpu);
			/* the utilisation changed meanwhile */
			if (prev_delta < base_energy)
				return target;
			prev_delta -= base_energy;
			prev_actual_cap = cpu_actual_cap;
			best_delta = min(best_delta, prev_delta);
		}

		if (max_spare_cap_cpu >= 0 && max_spare_cap > prev_spare_cap) {
			/* the best so far fits better */
			if (max_fits < best_fits)
				continue;
			/* neither meets uclamp_min, and the best so far has more capacity */
			if ((max_fits < 0) && (cpu_actual_cap <= best_actual_cap))
				continue;
			cur_delta = compute_energy(&eenv, pd, cpus, p, max_spare_cap_cpu);
			if (cur_delta < base_energy)
				return target;
			cur_delta -= base_energy;
			/* both fit, and the best so far costs less */
			if ((max_fits > 0) && (best_fits > 0) && (cur_delta >= best_delta))
				continue;
			best_delta = cur_delta;
			best_energy_cpu = max_spare_cap_cpu;
			best_fits = max_fits;
			best_actual_cap = cpu_actual_cap;
		}
	}

	if ((best_fits > prev_fits) || ((best_fits > 0) && (best_delta < prev_delta)) ||
	    ((best_fits < 0) && (best_actual_cap > prev_actual_cap)))
		target = best_energy_cpu;
	return target;
}
