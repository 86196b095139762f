// SPDX-License-Identifier: GPL-2.0-only
/*
 * select_idle_sibling(): the wakeup fast path's search for an idle CPU near
 * the target wake_affine() chose (kernel/sched/fair.c line of thought,
 * v6.18), and the per-LLC state that steers it: has_idle_cores (set when a
 * CPU idles and completes an idle core, cleared when a search for an idle
 * core fails) and, with SIS_UTIL, nr_idle_scan (how many CPUs a search may
 * look at, from the LLC's utilisation seen by periodic load balancing).
 *
 * Every CPU whose idle state the search reads is charged lb_cpu_visit.
 */
#include "kernel/select.h"

/* an idle CPU for the wakee, charging the read of its state */
static inline bool sis_idle_cpu(unsigned int cpu)
{
	select_visit_cpu(cpu);
	return available_idle_cpu(cpu) || sched_idle_cpu(cpu);
}

static inline int __select_idle_cpu(unsigned int cpu, struct task_struct *p)
{
	(void)p;
	return sis_idle_cpu(cpu) ? (int)cpu : -1;
}

/* ------------------------------------------------------------------ */
/* idle cores (the LLC's shared state)                                 */

void set_idle_cores(unsigned int cpu, int val)
{
	struct sched_domain_shared *sds = per_cpu(sd_llc_shared, cpu);

	if (sds) {
		cl_write(&sds->line);
		sds->has_idle_cores = val;
	}
}

bool test_idle_cores(unsigned int cpu)
{
	struct sched_domain_shared *sds = per_cpu(sd_llc_shared, cpu);

	if (!sds)
		return false;
	cl_read(&sds->line);
	return sds->has_idle_cores;
}

/*
 * @rq's CPU is going idle: if all its SMT siblings are idle too, its core
 * is, and the LLC has an idle core. Siblings share every cache level, so
 * each test is cheap (lb_sibling_test, as in is_core_idle()).
 */
static void __update_idle_core(struct rq *rq)
{
	unsigned int core = cpu_of(rq), cpu;

	if (test_idle_cores(core))
		return;
	for_each_cpu(cpu, cpu_smt_mask(core)) {
		if (cpu == core)
			continue;
		charge(machine.cost->lb_sibling_test);
		read_rq_state(cpu);
		if (!available_idle_cpu(cpu))
			return;
	}
	set_idle_cores(core, 1);
}

void update_idle_core(struct rq *rq)
{
	if (sched_smt_active())
		__update_idle_core(rq);
}

/*
 * Is @core's SMT mask all idle? Returns @core if so. Otherwise its CPUs
 * leave @cpus (the caller's walk skips them); the first idle allowed CPU
 * seen is kept in *@idle_cpu as a fallback.
 */
static int select_idle_core(struct task_struct *p, unsigned int core, struct cpumask *cpus,
			    int *idle_cpu)
{
	bool idle = true;
	unsigned int cpu;

	(void)p;
	for_each_cpu(cpu, cpu_smt_mask(core)) {
		select_visit_cpu(cpu);
		if (!available_idle_cpu(cpu)) {
			idle = false;
			if (*idle_cpu == -1) {
				if (sched_idle_cpu(cpu) && cpumask_test_cpu(cpu, cpus)) {
					*idle_cpu = (int)cpu;
					break;
				}
				continue;
			}
			break;
		}
		if (*idle_cpu == -1 && cpumask_test_cpu(cpu, cpus))
			*idle_cpu = (int)cpu;
	}
	if (idle)
		return (int)core;
	cpumask_andnot(cpus, cpus, cpu_smt_mask(core));
	return -1;
}

/* an idle SMT sibling of @target in @sd */
static int select_idle_smt(struct task_struct *p, struct sched_domain *sd, unsigned int target)
{
	unsigned int cpu;

	for_each_cpu_and(cpu, cpu_smt_mask(target), p->cpus_mask) {
		if (cpu == target)
			continue;
		if (!cpumask_test_cpu(cpu, sched_domain_span(sd)))
			continue;
		if (sis_idle_cpu(cpu))
			return (int)cpu;
	}
	return -1;
}

/*
 * Scan the LLC @sd from target + 1 round: for a fully idle core if the LLC
 * has one (clearing the hint when none is found), else for an idle CPU,
 * SIS_UTIL limiting the scan to nr_idle_scan CPUs. On cluster machines the
 * target's cluster is scanned first.
 */
static int select_idle_cpu(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			   unsigned int target)
{
	struct cpumask *cpus = &select_rq_mask;
	int i, idle_cpu = -1, nr = INT32_MAX;
	struct sched_domain_shared *sd_share;
	unsigned int cpu;

	cpumask_and(cpus, sched_domain_span(sd), p->cpus_mask);

	if (sched_feat(SIS_UTIL)) {
		sd_share = per_cpu(sd_llc_shared, target);
		if (sd_share) {
			/* the scan stops when --nr reaches 0 */
			cl_read(&sd_share->line);
			nr = sd_share->nr_idle_scan + 1;
			/* an overloaded LLC is unlikely to have an idle CPU */
			if (nr == 1)
				return -1;
		}
	}

	if (sched_cluster_active) {
		struct sched_group *sg = sd->groups;

		if (sg->flags & SD_CLUSTER) {
			for_each_cpu_wrap(cpu, sched_group_span(sg), target + 1) {
				if (!cpumask_test_cpu(cpu, cpus))
					continue;
				if (has_idle_core) {
					i = select_idle_core(p, cpu, cpus, &idle_cpu);
					if ((unsigned int)i < nr_cpu_ids)
						return i;
				} else {
					if (--nr <= 0)
						return -1;
					idle_cpu = __select_idle_cpu(cpu, p);
					if ((unsigned int)idle_cpu < nr_cpu_ids)
						return idle_cpu;
				}
			}
			cpumask_andnot(cpus, cpus, sched_group_span(sg));
		}
	}

	for_each_cpu_wrap(cpu, cpus, target + 1) {
		if (has_idle_core) {
			i = select_idle_core(p, cpu, cpus, &idle_cpu);
			if ((unsigned int)i < nr_cpu_ids)
				return i;
		} else {
			if (--nr <= 0)
				return -1;
			idle_cpu = __select_idle_cpu(cpu, p);
			if ((unsigned int)idle_cpu < nr_cpu_ids)
				break;
		}
	}
	if (has_idle_core)
		set_idle_cores(target, false);
	return idle_cpu;
}

/*
 * Asymmetric capacity: the first idle CPU of @sd (from @target round) the
 * task fits on, else the idle CPU of the highest capacity.
 */
static int select_idle_capacity(struct task_struct *p, struct sched_domain *sd, unsigned int target)
{
	unsigned long task_util, util_min, util_max, best_cap = 0;
	struct cpumask *cpus = &select_rq_mask;
	int fits, best_fits = 0;
	int best_cpu = -1;
	unsigned int cpu;

	cpumask_and(cpus, sched_domain_span(sd), p->cpus_mask);
	task_util = task_util_est(&p->se.avg);
	util_min = uclamp_eff_value(p, UCLAMP_MIN);
	util_max = uclamp_eff_value(p, UCLAMP_MAX);

	for_each_cpu_wrap(cpu, cpus, target) {
		unsigned long cpu_cap = capacity_of(cpu);

		if (!sis_idle_cpu(cpu))
			continue;
		fits = util_fits_cpu(task_util, util_min, util_max, cpu);
		/* fits with every requirement */
		if (fits > 0)
			return (int)cpu;
		/* only uclamp_min does not fit: look for the most capacity */
		else if (fits < 0)
			cpu_cap = get_actual_cpu_capacity(cpu);
		/* the better fit first (-1 before 0), then the most capacity */
		if ((fits < best_fits) || ((fits == best_fits) && (cpu_cap > best_cap))) {
			best_cap = cpu_cap;
			best_cpu = (int)cpu;
			best_fits = fits;
		}
	}
	return best_cpu;
}

static inline bool asym_fits_cpu(unsigned long util, unsigned long util_min, unsigned long util_max,
				 unsigned int cpu)
{
	if (sched_asym_cpucap_active())
		return util_fits_cpu(util, util_min, util_max, cpu) > 0;
	return true;
}

/*
 * Where should @p wake, given the @target wake_affine() chose and its
 * previous CPU @prev: an idle CPU sharing @target's cache if one is found
 * cheaply, in the kernel's order, else @target.
 */
int select_idle_sibling(struct task_struct *p, int prev, int target)
{
	bool has_idle_core = false;
	struct sched_domain *sd;
	unsigned long task_util = 0, util_min = 0, util_max = SCHED_CAPACITY_SCALE;
	int i, recent_used_cpu, prev_aff = -1;

	/* asymmetric capacity: the task must fit, with its utilisation up to date */
	if (sched_asym_cpucap_active()) {
		sync_entity_load_avg(&p->se);
		task_util = task_util_est(&p->se.avg);
		util_min = uclamp_eff_value(p, UCLAMP_MIN);
		util_max = uclamp_eff_value(p, UCLAMP_MAX);
	}

	if (sis_idle_cpu((unsigned int)target) &&
	    asym_fits_cpu(task_util, util_min, util_max, (unsigned int)target))
		return target;

	/* an idle, cache-affine previous CPU: no reason to move */
	if (prev != target && cpus_share_cache((unsigned int)prev, (unsigned int)target) &&
	    sis_idle_cpu((unsigned int)prev) &&
	    asym_fits_cpu(task_util, util_min, util_max, (unsigned int)prev)) {
		if (!sched_cluster_active ||
		    cpus_share_resources((unsigned int)prev, (unsigned int)target))
			return prev;
		prev_aff = prev;
	}

	/*
	 * The kernel lets a per-CPU kthread waker stack the wakee on its CPU
	 * (IO completions). schedlab's kthreads are the idle task, which wakes
	 * tasks only from interrupt context (not in_task()), and the stopper,
	 * which wakes none: the rule never applies.
	 */

	/* a recently used CPU, if idle and cache-affine */
	recent_used_cpu = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent_used_cpu >= 0 && recent_used_cpu != prev && recent_used_cpu != target &&
	    cpus_share_cache((unsigned int)recent_used_cpu, (unsigned int)target) &&
	    sis_idle_cpu((unsigned int)recent_used_cpu) &&
	    cpumask_test_cpu((unsigned int)recent_used_cpu, p->cpus_mask) &&
	    asym_fits_cpu(task_util, util_min, util_max, (unsigned int)recent_used_cpu)) {
		if (!sched_cluster_active ||
		    cpus_share_resources((unsigned int)recent_used_cpu, (unsigned int)target))
			return recent_used_cpu;
	} else {
		recent_used_cpu = -1;
	}

	/* asymmetric capacity: the domain of interest spans the capacities */
	if (sched_asym_cpucap_active()) {
		sd = per_cpu(sd_asym_cpucapacity, target);
		if (sd) {
			i = select_idle_capacity(p, sd, (unsigned int)target);
			return (unsigned int)i < nr_cpu_ids ? i : target;
		}
	}

	sd = per_cpu(sd_llc, target);
	if (!sd)
		return target;

	if (sched_smt_active()) {
		has_idle_core = test_idle_cores((unsigned int)target);
		if (!has_idle_core && cpus_share_cache((unsigned int)prev, (unsigned int)target)) {
			i = select_idle_smt(p, sd, (unsigned int)prev);
			if ((unsigned int)i < nr_cpu_ids)
				return i;
		}
	}

	i = select_idle_cpu(p, sd, has_idle_core, (unsigned int)target);
	if ((unsigned int)i < nr_cpu_ids)
		return i;

	/* cluster machines: an idle prev or recent CPU outside target's cluster */
	if ((unsigned int)prev_aff < nr_cpu_ids)
		return prev_aff;
	if ((unsigned int)recent_used_cpu < nr_cpu_ids)
		return recent_used_cpu;
	return target;
}

/* ------------------------------------------------------------------ */
/* SIS_UTIL: how many CPUs select_idle_cpu() may scan                   */

/*
 * From a periodic balancing pass over the LLC domain (@sd spans exactly
 * the LLC), with @sum_util the utilisation of all its CPUs: the fraction of
 * the LLC to scan is 1 - (pct * util)^2, util the average utilisation, pct
 * the domain's imbalance_pct, so it reaches 0 at 100/117 = 85%:
 *
 *	x = sum_util / llc_weight
 *	y = SCHED_CAPACITY_SCALE - min(x^2 * pct^2 / (10000 * SCHED_CAPACITY_SCALE),
 *				       SCHED_CAPACITY_SCALE)
 *	nr_idle_scan = y * llc_weight / SCHED_CAPACITY_SCALE
 *
 * The caller skips newly idle passes (they run too often to be worth the
 * write to a shared cache line).
 */
void update_idle_cpu_scan(struct sched_domain *sd, unsigned int dst_cpu, unsigned long sum_util)
{
	struct sched_domain_shared *sd_share;
	unsigned int llc_weight, pct;
	u64 x, y, tmp;

	if (!sched_feat(SIS_UTIL))
		return;
	llc_weight = (unsigned int)per_cpu(sd_llc_size, dst_cpu);
	if (sd->span_weight != llc_weight)
		return;
	sd_share = per_cpu(sd_llc_shared, dst_cpu);
	if (!sd_share)
		return;

	x = sum_util / llc_weight;
	pct = sd->imbalance_pct;
	tmp = x * x * pct * pct / (10000 * SCHED_CAPACITY_SCALE);
	tmp = min(tmp, (u64)SCHED_CAPACITY_SCALE);
	y = SCHED_CAPACITY_SCALE - tmp;
	y = y * llc_weight / SCHED_CAPACITY_SCALE;
	cl_read(&sd_share->line);
	if ((int)y != sd_share->nr_idle_scan) {
		cl_write(&sd_share->line);
		sd_share->nr_idle_scan = (int)y;
	}
}
