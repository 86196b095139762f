/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What load balancing (balance.c) and the fork/exec slow path of
 * select_task_rq_fair() (select.c) share, as kernel/sched/fair.c shares it
 * between sched_balance_find_src_group() and sched_balance_find_dst_group():
 * capacity and load of a CPU, the group statistics and their
 * classification, and the allowed NUMA imbalance.
 */
#ifndef SCHEDLAB_KERNEL_FAIR_LB_H
#define SCHEDLAB_KERNEL_FAIR_LB_H

#include "kernel/domains.h"
#include "kernel/energy_model.h"
#include "kernel/sched.h"

static inline unsigned long capacity_of(unsigned int cpu)
{
	return cpu_rq(cpu)->cpu_capacity;
}

static inline unsigned long cpu_load(struct rq *rq)
{
	return rq->cfs.avg.load_avg;
}

static inline int arch_asym_cpu_priority(unsigned int cpu)
{
	return topology_asym_prio(machine.topo, cpu);
}

/* @a is preferred over @b for asym packing */
static inline bool sched_asym_prefer(unsigned int a, unsigned int b)
{
	return arch_asym_cpu_priority(a) > arch_asym_cpu_priority(b);
}

/*
 * sched_asym(): @dst_cpu may pull by asym packing priority from @src_cpu in
 * @sd (balance.c; the nohz kick asks it too).
 */
bool sched_asym(struct sched_domain *sd, unsigned int dst_cpu, unsigned int src_cpu);

/* util fits capacity with the 20% margin */
static inline bool fits_capacity(unsigned long util, unsigned long capacity)
{
	return util * 1280 < capacity * 1024;
}

/* get_actual_cpu_capacity(): no thermal or cpufreq pressure is modelled */
static inline unsigned long get_actual_cpu_capacity(unsigned int cpu)
{
	return arch_scale_cpu_capacity(cpu);
}

/*
 * util_fits_cpu(): 1 if @util fits @cpu (the 20% margin), with uclamp's
 * view: a task capped (uclamp_max) at or below a non-biggest CPU's
 * capacity fits it; -1 if it fits but its uclamp_min asks for more than
 * the CPU can give; 0 if it does not fit.
 */
static inline int util_fits_cpu(unsigned long util, unsigned long uclamp_min,
				unsigned long uclamp_max, unsigned int cpu)
{
	unsigned long capacity = capacity_of(cpu);
	unsigned long capacity_orig;
	bool fits, uclamp_max_fits;

	fits = fits_capacity(util, capacity);
	if (!uclamp_is_used())
		return fits;
	capacity_orig = arch_scale_cpu_capacity(cpu);
	uclamp_max_fits = (capacity_orig == SCHED_CAPACITY_SCALE) &&
			  (uclamp_max == SCHED_CAPACITY_SCALE);
	uclamp_max_fits = !uclamp_max_fits && (uclamp_max <= capacity_orig);
	fits = fits || uclamp_max_fits;
	uclamp_min = min(uclamp_min, uclamp_max);
	if (fits && (util < uclamp_min) && (uclamp_min > get_actual_cpu_capacity(cpu)))
		return -1;
	return fits;
}

static inline int task_fits_cpu(struct task_struct *p, unsigned int cpu)
{
	unsigned long uclamp_min = uclamp_eff_value(p, UCLAMP_MIN);
	unsigned long uclamp_max = uclamp_eff_value(p, UCLAMP_MAX);

	return util_fits_cpu(task_util_est(&p->se.avg), uclamp_min, uclamp_max, cpu) > 0;
}

/*
 * cpu_overutilized(): with EAS on, the CPU's fair utilisation does not fit
 * its capacity (80%), seen through its runqueue's clamps.
 */
static inline bool cpu_overutilized(unsigned int cpu)
{
	unsigned long rq_util_min, rq_util_max;

	if (!sched_energy_enabled())
		return false;
	rq_util_min = uclamp_rq_get(cpu_rq(cpu), UCLAMP_MIN);
	rq_util_max = uclamp_rq_get(cpu_rq(cpu), UCLAMP_MAX);
	return !util_fits_cpu(cpu_util_cfs(cpu), rq_util_min, rq_util_max, cpu);
}

/* is_rd_overutilized(): without EAS the root domain counts as overutilized */
static inline bool is_rd_overutilized(const struct root_domain *rd)
{
	return !sched_energy_enabled() || rd->overutilized;
}

static inline void set_rd_overutilized(struct root_domain *rd, bool flag)
{
	if (!sched_energy_enabled())
		return;
	rd->overutilized = flag;
}

/* check_update_overutilized_status(): the tipping point, seen from @rq */
static inline void check_update_overutilized_status(struct rq *rq)
{
	struct root_domain *rd;

	/* is_rd_overutilized() is true without EAS: one test on the static key */
	if (!sched_energy_enabled())
		return;
	/* overutilized is set here; the load balancer clears it */
	rd = cpu_rd(cpu_of(rq));
	if (!is_rd_overutilized(rd) && cpu_overutilized(cpu_of(rq)))
		set_rd_overutilized(rd, true);
}

/* Ordered by how much a group needs help; the busiest group is the highest. */
enum group_type {
	group_has_spare = 0,
	group_fully_busy,
	group_misfit_task,
	group_smt_balance,
	group_asym_packing,
	group_imbalanced,
	group_overloaded,
};

/* One group's statistics (the slow path leaves the asym/SMT fields 0). */
struct sg_lb_stats {
	unsigned long avg_load;
	unsigned long group_load;
	unsigned long group_capacity;
	unsigned long group_util;
	unsigned long group_runnable;
	unsigned int sum_nr_running;
	unsigned int sum_h_nr_running;
	unsigned int idle_cpus;
	unsigned int group_weight;
	enum group_type group_type;
	unsigned int group_asym_packing;
	unsigned int group_smt_balance;
	unsigned long group_misfit_task_load;
};

static inline bool group_has_capacity(unsigned int imbalance_pct, const struct sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running < sgs->group_weight)
		return true;
	if ((sgs->group_capacity * imbalance_pct) < (sgs->group_runnable * 100))
		return false;
	if ((sgs->group_capacity * 100) > (sgs->group_util * imbalance_pct))
		return true;
	return false;
}

static inline bool group_is_overloaded(unsigned int imbalance_pct, const struct sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running <= sgs->group_weight)
		return false;
	if ((sgs->group_capacity * 100) < (sgs->group_util * imbalance_pct))
		return true;
	if ((sgs->group_capacity * imbalance_pct) < (sgs->group_runnable * 100))
		return true;
	return false;
}

static inline int sg_imbalanced(const struct sched_group *group)
{
	return group->sgc->imbalance;
}

static inline enum group_type group_classify(unsigned int imbalance_pct,
					     const struct sched_group *group,
					     const struct sg_lb_stats *sgs)
{
	if (group_is_overloaded(imbalance_pct, sgs))
		return group_overloaded;
	if (sg_imbalanced(group))
		return group_imbalanced;
	if (sgs->group_asym_packing)
		return group_asym_packing;
	if (sgs->group_smt_balance)
		return group_smt_balance;
	if (sgs->group_misfit_task_load)
		return group_misfit_task;
	if (!group_has_capacity(imbalance_pct, sgs))
		return group_fully_busy;
	return group_has_spare;
}

/* an imbalance of this many tasks or fewer may stay across nodes */
#define NUMA_IMBALANCE_MIN 2

/* take a breather every this many tasks (fair.c SCHED_NR_MIGRATE_BREAK) */
#define SCHED_NR_MIGRATE_BREAK 8
/* LB_MIN: a task whose load_avg is below this is not worth moving (detach_tasks()) */
#define LB_MIN_LOAD 16
/* most a balance interval may grow to when everything is pinned (fair.c) */
#define MAX_PINNED_INTERVAL 512
/* update_newidle_cost(): max_newidle_lb_cost decays by 253/256 a second */
#define NEWIDLE_COST_DECAY_NUM 253
#define NEWIDLE_COST_DECAY_DEN 256
/* v6.18.0-4: the max is capped at migration_cost + this (155213a2aed4) */
#define NEWIDLE_COST_CAP_SLACK_NS 200

/* allow a small imbalance while the destination runs few tasks (imb_numa_nr) */
static inline long adjust_numa_imbalance(long imbalance, unsigned int dst_running,
					 unsigned int imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	/* a small imbalance keeps a communicating pair local */
	if (imbalance <= NUMA_IMBALANCE_MIN)
		return 0;
	return imbalance;
}

#endif
