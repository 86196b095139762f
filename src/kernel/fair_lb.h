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

/* util_fits_cpu() without uclamp: fits_capacity() against capacity_of() */
static inline bool util_fits_cpu(unsigned long util, unsigned int cpu)
{
	return fits_capacity(util, capacity_of(cpu));
}

static inline bool task_fits_cpu(struct task_struct *p, unsigned int cpu)
{
	return util_fits_cpu(task_util_est(&p->se.avg), cpu);
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
