// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched_balance_rq() and its parts (kernel/sched/fair.c line of thought,
 * v6.18): should_we_balance(), finding the busiest group and runqueue,
 * calculate_imbalance(), detaching and attaching tasks, active balancing
 * through the stopper.
 *
 * Each part charges its work from named cost parameters (lb_cpu_visit per
 * runqueue examined, lb_sibling_test per SMT sibling tested, lb_group per
 * group classified, lb_task per task examined, plus the rq locks and the
 * enqueues/dequeues it does), so a variant that does less work is faster.
 */
#include "kernel/fair_lb.h"
#include "kernel/sched.h"

#include "kernel/funclat.h"
#include "kernel/select.h"
#include "sim/alloc.h"

#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* CPU state as the balancer reads it                                  */

bool idle_cpu(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	if (rq->curr != rq->idle)
		return false;
	if (rq->nr_running)
		return false;
	if (rq->ttwu_pending)
		return false;
	return true;
}

/* a CPU's idle state read from another CPU: its rq's hot line */
static inline bool lb_idle_cpu(unsigned int cpu)
{
	charge(machine.cost->lb_cpu_visit);
	read_rq_state(cpu);
	return idle_cpu(cpu);
}

/* every SMT sibling of @cpu idle; each sibling tested costs lb_sibling_test */
static bool is_core_idle(unsigned int cpu)
{
	unsigned int sibling;

	for_each_cpu(sibling, topology_sibling_cpumask(machine.topo, cpu)) {
		if (sibling == cpu)
			continue;
		charge(machine.cost->lb_sibling_test);
		read_rq_state(sibling);
		if (!idle_cpu(sibling))
			return false;
	}
	return true;
}

static inline unsigned long cpu_runnable(struct rq *rq)
{
	return rq->cfs.avg.runnable_avg;
}

/*
 * cpu_util(cpu, NULL, -1, boost): the CPU's fair utilisation; with runnable
 * boosting (7d0583cf9ec7) max(util, runnable), so contention shows.
 */
unsigned long cpu_util_cfs_boost(unsigned int cpu)
{
	struct cfs_rq *cfs_rq = &cpu_rq(cpu)->cfs;
	unsigned long util = cfs_rq->avg.util_avg;

	if (sched_feat(UTIL_RUNNABLE_BOOST))
		util = max(util, cfs_rq->avg.runnable_avg);
	if (sched_feat(UTIL_EST))
		util = max(util, (unsigned long)cfs_rq->avg.util_est);
	return min(util, arch_scale_cpu_capacity(cpu));
}

static inline bool capacity_greater(unsigned long cap1, unsigned long cap2)
{
	return cap1 * 1024 > cap2 * 1078;
}

/*
 * sched_use_asym_prio(): follow @cpu's priority in @sd. Between SMT
 * siblings always; between cores only when the whole core is idle, since a
 * busy sibling takes from the idle thread the throughput its priority
 * promises (sched_smt_active(): some core has siblings).
 */
static bool sched_use_asym_prio(struct sched_domain *sd, unsigned int cpu)
{
	if (!(sd->flags & SD_ASYM_PACKING))
		return false;
	if (!sched_smt_active())
		return true;
	return (sd->flags & SD_SHARE_CPUCAPACITY) || is_core_idle(cpu);
}

bool sched_asym(struct sched_domain *sd, unsigned int dst_cpu, unsigned int src_cpu)
{
	return sched_use_asym_prio(sd, dst_cpu) && sched_asym_prefer(dst_cpu, src_cpu);
}

void update_misfit_status(struct task_struct *p, struct rq *rq)
{
	unsigned int cpu = cpu_of(rq);

	/*
	 * Not misfit: nowhere higher to go (pinned, or on the biggest CPU
	 * its affinity allows), or it fits this CPU.
	 */
	if (!sched_asym_cpucap_active() || !p || p->nr_cpus_allowed == 1 ||
	    arch_scale_cpu_capacity(cpu) == p->max_allowed_capacity || task_fits_cpu(p, cpu)) {
		rq->misfit_task_load = 0;
		return;
	}
	/* task_h_load() is the task's load_avg without group scheduling */
	rq->misfit_task_load = max(p->se.avg.load_avg, 1UL);
}

/* ------------------------------------------------------------------ */
/* the environment of one balancing pass                               */

#define LBF_ALL_PINNED 0x01
#define LBF_NEED_BREAK 0x02
#define LBF_DST_PINNED 0x04
#define LBF_SOME_PINNED 0x08
#define LBF_ACTIVE_LB 0x10


enum migration_type {
	migrate_load = 0,
	migrate_util,
	migrate_task,
	migrate_misfit,
};

struct lb_env {
	struct sched_domain *sd;
	struct rq *src_rq;
	unsigned int src_cpu;
	unsigned int dst_cpu;
	struct rq *dst_rq;
	const struct cpumask *dst_grpmask;
	unsigned int new_dst_cpu;
	enum cpu_idle_type idle;
	long imbalance;
	struct cpumask *cpus;
	unsigned int flags;
	unsigned int loop;
	unsigned int loop_break;
	unsigned int loop_max;
	enum migration_type migration_type;
	struct task_struct *tasks[64];	/* detached, to attach */
	unsigned int nr_tasks;
};

struct sd_lb_stats {
	struct sched_group *busiest;
	struct sched_group *local;
	unsigned long total_load;
	unsigned long total_capacity;
	unsigned long avg_load;
	unsigned int prefer_sibling;
	struct sg_lb_stats busiest_stat;
	struct sg_lb_stats local_stat;
};

/*
 * The scratch masks of the kernel's load_balance_mask and
 * should_we_balance_tmpmask. The kernel keeps them per CPU because CPUs
 * balance concurrently; here a balancing pass runs to completion at one
 * event instant (the nohz idle balancer yields only between CPUs), and
 * every user fills its mask before reading it, so one of each serves all
 * CPUs: per-CPU masks of nr_cpus bits would be quadratic memory (16 MB at
 * 8192 CPUs).
 */
static struct cpumask *load_balance_mask;
static struct cpumask *should_we_balance_tmpmask;
static unsigned int balance_masks_width;	/* the nr_cpu_ids they were made for */

static void balance_masks_alloc(void)
{
	if (balance_masks_width == nr_cpu_ids)
		return;
	balance_masks_free();
	load_balance_mask = alloc_cpumask();
	should_we_balance_tmpmask = alloc_cpumask();
	balance_masks_width = nr_cpu_ids;
}

void balance_masks_free(void)
{
	free_cpumask(load_balance_mask);
	free_cpumask(should_we_balance_tmpmask);
	load_balance_mask = should_we_balance_tmpmask = NULL;
	balance_masks_width = 0;
}

/* ------------------------------------------------------------------ */
/* should_we_balance(): which CPU of the local group balances          */

static int __should_we_balance(struct lb_env *env)
{
	struct cpumask *swb_cpus = should_we_balance_tmpmask;
	struct sched_group *sg = env->sd->groups;
	unsigned int cpu;
	int idle_smt = -1;

	if (!cpumask_test_cpu(env->dst_cpu, env->cpus))
		return 0;

	/* every CPU may balance when it goes newly idle, if it has nothing queued */
	if (env->idle == CPU_NEWLY_IDLE) {
		if (env->dst_rq->nr_running > 0 || env->dst_rq->ttwu_pending)
			return 0;
		return 1;
	}

	cpumask_copy(swb_cpus, group_balance_mask(sg));
	for_each_cpu_and(cpu, swb_cpus, env->cpus) {
		if (!lb_idle_cpu(cpu))
			continue;
		if (!sched_feat(SWB_IDLE_CORE))
			/* up to v6.5: the first idle CPU balances */
			return cpu == env->dst_cpu;
		/*
		 * Above the SMT level, an idle CPU on a busy core is only a
		 * fallback: look for a CPU on a fully idle core first.
		 */
		if (!(env->sd->flags & SD_SHARE_CPUCAPACITY) && !is_core_idle(cpu)) {
			if (idle_smt == -1)
				idle_smt = (int)cpu;
			/*
			 * f8858d96061f: the rest of this core's siblings need no
			 * look, its core is busy whichever of them is idle.
			 */
			if (sched_feat(SWB_SMT_SKIP))
				cpumask_andnot(swb_cpus, swb_cpus,
					       topology_sibling_cpumask(machine.topo, cpu));
			continue;
		}
		/* the first idle CPU on an idle core (or at SMT level, the first idle CPU) */
		return cpu == env->dst_cpu;
	}
	/* the first idle CPU whose siblings are busy (6d7e4782bcf5) */
	if (idle_smt != -1)
		return (unsigned int)idle_smt == env->dst_cpu;
	/* else the group's first CPU */
	return group_balance_cpu(sg) == env->dst_cpu;
}

static int should_we_balance(struct lb_env *env)
{
	u64 t0 = funclat_entry(FL_should_we_balance);
	int ret = __should_we_balance(env);

	funclat_exit(FL_should_we_balance, t0);
	return ret;
}

/* ------------------------------------------------------------------ */
/* group statistics and the busiest group                              */

/* an idle dst and an SMT group running more than one task: spread them */
static inline bool smt_balance(struct lb_env *env, struct sg_lb_stats *sgs,
			       struct sched_group *group)
{
	if (env->idle == CPU_NOT_IDLE)
		return false;
	return (group->flags & SD_SHARE_CPUCAPACITY) && sgs->sum_h_nr_running > 1;
}

static inline bool smt_vs_nonsmt_groups(struct sched_group *sg1, struct sched_group *sg2)
{
	if (!sg1 || !sg2)
		return false;
	return (sg1->flags & SD_SHARE_CPUCAPACITY) != (sg2->flags & SD_SHARE_CPUCAPACITY);
}

/*
 * sched_group_asym(): @env's dst may pull from @group by priority. Not from
 * an SMT group with more than one busy sibling: priorities say nothing
 * about sharing a core.
 */
static bool sched_group_asym(struct lb_env *env, struct sg_lb_stats *sgs,
			     struct sched_group *group)
{
	if ((group->flags & SD_SHARE_CPUCAPACITY) && sgs->group_weight - sgs->idle_cpus != 1)
		return false;
	return sched_asym(env->sd, env->dst_cpu, (unsigned int)group->asym_prefer_cpu);
}

static void update_sg_lb_stats(struct lb_env *env, struct sd_lb_stats *sds,
			       struct sched_group *group, struct sg_lb_stats *sgs,
			       bool *sg_overloaded, bool *sg_overutilized)
{
	bool local_group = group == sds->local;
	unsigned int i;

	(void)sds;
	*sgs = (struct sg_lb_stats){ 0 };
	charge(machine.cost->lb_group);
	for_each_cpu_and(i, sched_group_span(group), env->cpus) {
		struct rq *rq = cpu_rq(i);
		unsigned int nr_running;

		charge(machine.cost->lb_cpu_visit);
		read_rq_load(i);
		sgs->group_load += cpu_load(rq);
		sgs->group_util += cpu_util_cfs(i);
		sgs->group_runnable += cpu_runnable(rq);
		sgs->sum_h_nr_running += rq->cfs.h_nr_runnable;
		nr_running = rq->nr_running;
		sgs->sum_nr_running += nr_running;
		if (cpu_overutilized(i))
			*sg_overutilized = true;
		if (nr_running > 1)
			*sg_overloaded = true;
		if (!nr_running && idle_cpu(i)) {
			sgs->idle_cpus++;
			continue;
		}
		if (local_group)
			continue;
		if ((env->sd->flags & SD_ASYM_CPUCAPACITY) &&
		    sgs->group_misfit_task_load < rq->misfit_task_load) {
			sgs->group_misfit_task_load = rq->misfit_task_load;
			*sg_overloaded = true;
		}
	}
	sgs->group_capacity = group->sgc->capacity;
	sgs->group_weight = group->group_weight;
	/* an idle dst that a busy group's preferred CPU ranks below: pack towards it */
	if (!local_group && env->idle != CPU_NOT_IDLE && sgs->sum_h_nr_running &&
	    sched_group_asym(env, sgs, group))
		sgs->group_asym_packing = 1;
	if (!local_group && smt_balance(env, sgs, group))
		sgs->group_smt_balance = 1;
	sgs->group_type = group_classify(env->sd->imbalance_pct, group, sgs);
	if (sgs->group_type == group_overloaded)
		sgs->avg_load = (sgs->group_load * SCHED_CAPACITY_SCALE) / sgs->group_capacity;
}

static bool update_sd_pick_busiest(struct lb_env *env, struct sd_lb_stats *sds,
				   struct sched_group *sg, struct sg_lb_stats *sgs)
{
	struct sg_lb_stats *busiest = &sds->busiest_stat;

	/* don't pull misfit tasks we cannot help */
	if ((env->sd->flags & SD_ASYM_CPUCAPACITY) && sgs->group_type == group_misfit_task &&
	    (!capacity_greater(capacity_of(env->dst_cpu), sg->sgc->max_capacity) ||
	     sds->local_stat.group_type != group_has_spare))
		return false;
	if (!sds->busiest)
		goto compare_done;
	if (sgs->group_type > busiest->group_type)
		return true;
	if (sgs->group_type < busiest->group_type)
		return false;

	switch (sgs->group_type) {
	case group_overloaded:
		if (sgs->avg_load < busiest->avg_load)
			return false;
		if (sgs->avg_load == busiest->avg_load && (sds->busiest->flags & SD_SHARE_CPUCAPACITY))
			return false;
		break;
	case group_imbalanced:
		return false;
	case group_asym_packing:
		/* move the work of the lowest priority CPU first */
		return sched_asym_prefer((unsigned int)sds->busiest->asym_prefer_cpu,
					 (unsigned int)sg->asym_prefer_cpu);
	case group_misfit_task:
		if (sgs->group_misfit_task_load < busiest->group_misfit_task_load)
			return false;
		break;
	case group_smt_balance:
		if (sgs->idle_cpus != 0 || busiest->idle_cpus != 0)
			goto has_spare;
		/* fall through */
	case group_fully_busy:
		if (sgs->avg_load < busiest->avg_load)
			return false;
		if (sgs->avg_load == busiest->avg_load && (sds->busiest->flags & SD_SHARE_CPUCAPACITY))
			return false;
		break;
	case group_has_spare:
		/* don't pick an SMT group over a non-SMT one to empty a core */
		if (smt_vs_nonsmt_groups(sds->busiest, sg)) {
			if ((sg->flags & SD_SHARE_CPUCAPACITY) && sgs->sum_h_nr_running <= 1)
				return false;
			return true;
		}
has_spare:
		/* the group with the fewest idle CPUs, then the most tasks */
		if (sgs->idle_cpus > busiest->idle_cpus)
			return false;
		if (sgs->idle_cpus == busiest->idle_cpus && sgs->sum_nr_running <= busiest->sum_nr_running)
			return false;
		break;
	}
compare_done:
	/* no more than one task per CPU on bigger CPUs: moving them down costs throughput */
	if ((env->sd->flags & SD_ASYM_CPUCAPACITY) && sgs->group_type <= group_fully_busy &&
	    capacity_greater(sg->sgc->min_capacity, capacity_of(env->dst_cpu)))
		return false;
	return true;
}

/*
 * update_group_capacity() at the bottom level, update_cpu_capacity(): the
 * CPU's capacity for fair tasks is what RT pressure leaves
 * (scale_rt_capacity()); its single-CPU group carries it. Higher levels
 * keep the capacities the domain build summed (the kernel re-sums them
 * here; without RT load they are the same).
 */
static void update_group_capacity(struct sched_domain *sd, unsigned int cpu)
{
	struct sched_group *sdg = sd->groups;
	unsigned long capacity;

	if (sd->child)
		return;
	capacity = scale_rt_capacity(cpu);
	if (!capacity)
		capacity = 1;
	cpu_rq(cpu)->cpu_capacity = capacity;
	sdg->sgc->capacity = capacity;
	sdg->sgc->min_capacity = capacity;
	sdg->sgc->max_capacity = capacity;
}

static void update_sd_lb_stats(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sched_group *sg = env->sd->groups;
	struct sg_lb_stats tmp_sgs;
	bool sg_overloaded = false, sg_overutilized = false;
	unsigned long sum_util = 0;

	do {
		struct sg_lb_stats *sgs = &tmp_sgs;
		bool local_group = cpumask_test_cpu(env->dst_cpu, sched_group_span(sg));

		if (local_group) {
			sds->local = sg;
			sgs = &sds->local_stat;
			if (env->idle != CPU_NEWLY_IDLE || time_after_eq(jiffies, sg->sgc->next_update))
				update_group_capacity(env->sd, env->dst_cpu);
		}
		update_sg_lb_stats(env, sds, sg, sgs, &sg_overloaded, &sg_overutilized);
		if (!local_group && update_sd_pick_busiest(env, sds, sg, sgs)) {
			sds->busiest = sg;
			sds->busiest_stat = *sgs;
		}
		sds->total_load += sgs->group_load;
		sds->total_capacity += sgs->group_capacity;
		sum_util += sgs->group_util;
		sg = sg->next;
	} while (sg != env->sd->groups);

	/* the child domain of the busiest group prefers its siblings to take tasks */
	if (sds->busiest)
		sds->prefer_sibling = !!(sds->busiest->flags & SD_PREFER_SIBLING);
	/* at the root: is there pullable work anywhere */
	if (!env->sd->parent) {
		cpu_rd(env->dst_cpu)->overloaded = sg_overloaded;
		/* the tipping point, set or cleared at the root */
		set_rd_overutilized(cpu_rd(env->dst_cpu), sg_overutilized);
	} else if (sg_overutilized) {
		set_rd_overutilized(cpu_rd(env->dst_cpu), sg_overutilized);
	}
	/* SIS_UTIL: the LLC's utilisation sets how far wakeups scan for idle CPUs */
	if (env->idle != CPU_NEWLY_IDLE)
		update_idle_cpu_scan(env->sd, env->dst_cpu, sum_util);
}

static long sibling_imbalance(struct lb_env *env, struct sd_lb_stats *sds,
			      struct sg_lb_stats *busiest, struct sg_lb_stats *local)
{
	long ncores_busiest, ncores_local, imbalance;

	if (env->idle == CPU_NOT_IDLE || !busiest->sum_nr_running)
		return 0;
	ncores_busiest = sds->busiest->cores;
	ncores_local = sds->local->cores;
	if (ncores_busiest == ncores_local) {
		imbalance = (long)busiest->sum_nr_running - (long)local->sum_nr_running;
		return max(imbalance, 0L);
	}
	/* balance the tasks-per-core ratio of the two groups, rounded */
	imbalance = ncores_local * busiest->sum_nr_running -
		    ncores_busiest * (long)local->sum_nr_running;
	imbalance = max(imbalance, 0L);
	imbalance = 2 * imbalance + ncores_local + ncores_busiest;
	imbalance /= ncores_local + ncores_busiest;
	/* take advantage of an empty group */
	if (imbalance <= 1 && local->sum_nr_running == 0 && busiest->sum_nr_running > 1)
		imbalance = 2;
	return imbalance;
}

static void calculate_imbalance(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sg_lb_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;

	if (busiest->group_type == group_misfit_task) {
		if (env->sd->flags & SD_ASYM_CPUCAPACITY) {
			env->migration_type = migrate_misfit;
			env->imbalance = 1;
		} else {
			env->migration_type = migrate_load;
			env->imbalance = (long)busiest->group_misfit_task_load;
		}
		return;
	}
	if (busiest->group_type == group_asym_packing) {
		env->migration_type = migrate_task;
		env->imbalance = busiest->sum_h_nr_running;
		return;
	}
	if (busiest->group_type == group_smt_balance || busiest->group_type == group_imbalanced) {
		env->migration_type = migrate_task;
		env->imbalance = 1;
		return;
	}
	if (local->group_type == group_has_spare) {
		if (busiest->group_type > group_fully_busy && !(env->sd->flags & SD_SHARE_LLC)) {
			/* fill the local group's spare capacity from an overloaded group */
			env->migration_type = migrate_util;
			env->imbalance = (long)(max(local->group_capacity, local->group_util) -
						local->group_util);
			if (env->idle != CPU_NOT_IDLE && env->imbalance == 0) {
				env->migration_type = migrate_task;
				env->imbalance = 1;
			}
			return;
		}
		if (busiest->group_weight == 1 || sds->prefer_sibling) {
			env->migration_type = migrate_task;
			env->imbalance = sibling_imbalance(env, sds, busiest, local);
		} else {
			/* no overload: even out the idle CPUs */
			env->migration_type = migrate_task;
			env->imbalance = max(0L, (long)local->idle_cpus - (long)busiest->idle_cpus);
		}
		if (env->sd->flags & SD_NUMA)
			env->imbalance = adjust_numa_imbalance(env->imbalance,
							       local->sum_nr_running + 1,
							       env->sd->imb_numa_nr);
		env->imbalance >>= 1;
		return;
	}
	if (local->group_type < group_overloaded) {
		local->avg_load = (local->group_load * SCHED_CAPACITY_SCALE) / local->group_capacity;
		if (local->avg_load >= busiest->avg_load) {
			env->imbalance = 0;
			return;
		}
		sds->avg_load = (sds->total_load * SCHED_CAPACITY_SCALE) / sds->total_capacity;
		if (local->avg_load >= sds->avg_load) {
			env->imbalance = 0;
			return;
		}
	}
	/* both overloaded: move load towards the average, no further */
	env->migration_type = migrate_load;
	env->imbalance = (long)(min((busiest->avg_load - sds->avg_load) * busiest->group_capacity,
				    (sds->avg_load - local->avg_load) * local->group_capacity) /
				SCHED_CAPACITY_SCALE);
}

static struct sched_group *sched_balance_find_src_group(struct lb_env *env)
{
	struct sd_lb_stats sds = { 0 };
	struct sg_lb_stats *local, *busiest;

	update_sd_lb_stats(env, &sds);
	if (!sds.busiest)
		goto out_balanced;
	busiest = &sds.busiest_stat;
	if (busiest->group_type == group_misfit_task)
		goto force_balance;
	/* EAS: below the tipping point the wakeup placement is left alone */
	if (!is_rd_overutilized(cpu_rd(env->dst_cpu)) && root_pd)
		goto out_balanced;
	if (busiest->group_type == group_asym_packing || busiest->group_type == group_imbalanced)
		goto force_balance;

	local = &sds.local_stat;
	if (local->group_type > busiest->group_type)
		goto out_balanced;
	if (local->group_type == group_overloaded) {
		if (local->avg_load >= busiest->avg_load)
			goto out_balanced;
		sds.avg_load = (sds.total_load * SCHED_CAPACITY_SCALE) / sds.total_capacity;
		if (local->avg_load >= sds.avg_load)
			goto out_balanced;
		if (100 * busiest->avg_load <= env->sd->imbalance_pct * local->avg_load)
			goto out_balanced;
	}
	/* move excess tasks to a sibling of the busiest group's child domain */
	if (sds.prefer_sibling && local->group_type == group_has_spare &&
	    sibling_imbalance(env, &sds, busiest, local) > 1)
		goto force_balance;
	if (busiest->group_type != group_overloaded) {
		if (env->idle == CPU_NOT_IDLE)
			/* not overloaded and we are busy: let an idle CPU pull */
			goto out_balanced;
		if (busiest->group_type == group_smt_balance &&
		    smt_vs_nonsmt_groups(sds.local, sds.busiest))
			goto force_balance;
		if (busiest->group_weight > 1 && local->idle_cpus <= (busiest->idle_cpus + 1))
			/* moving a task would just move the imbalance */
			goto out_balanced;
		if (busiest->sum_h_nr_running == 1)
			goto out_balanced;
	}
force_balance:
	calculate_imbalance(env, &sds);
	return env->imbalance ? sds.busiest : NULL;
out_balanced:
	env->imbalance = 0;
	return NULL;
}

static struct rq *sched_balance_find_src_rq(struct lb_env *env, struct sched_group *group)
{
	struct rq *busiest = NULL;
	unsigned long busiest_util = 0, busiest_load = 0, busiest_capacity = 1;
	unsigned int busiest_nr = 0, i;

	for_each_cpu_and(i, sched_group_span(group), env->cpus) {
		struct rq *rq = cpu_rq(i);
		unsigned int nr_running = rq->cfs.h_nr_runnable;
		unsigned long capacity, load, util;

		charge(machine.cost->lb_cpu_visit);
		read_rq_load(i);
		if (!nr_running)
			continue;
		capacity = capacity_of(i);
		if ((env->sd->flags & SD_ASYM_CPUCAPACITY) &&
		    !capacity_greater(capacity_of(env->dst_cpu), capacity) && nr_running == 1)
			continue;
		/*
		 * By priority, pull only from a lower priority CPU; between
		 * cores, a core with busy siblings may be helped by any.
		 */
		if (nr_running == 1 && sched_asym(env->sd, i, env->dst_cpu))
			continue;
		switch (env->migration_type) {
		case migrate_load:
			load = cpu_load(rq);
			if (nr_running == 1 && load > (unsigned long)env->imbalance &&
			    !check_cpu_capacity(rq, env->sd))
				break;
			/* the highest load per capacity */
			if (load * busiest_capacity > busiest_load * capacity) {
				busiest_load = load;
				busiest_capacity = capacity;
				busiest = rq;
			}
			break;
		case migrate_util:
			util = cpu_util_cfs_boost(i);
			/* one running task cannot be pulled, whatever its utilisation */
			if (nr_running <= 1)
				continue;
			if (busiest_util < util) {
				busiest_util = util;
				busiest = rq;
			}
			break;
		case migrate_task:
			if (busiest_nr < nr_running) {
				busiest_nr = nr_running;
				busiest = rq;
			}
			break;
		case migrate_misfit:
			if (rq->misfit_task_load > busiest_load) {
				busiest_load = rq->misfit_task_load;
				busiest = rq;
			}
			break;
		}
	}
	return busiest;
}

/* ------------------------------------------------------------------ */
/* moving tasks                                                        */

/*
 * Is @p likely cache hot on its CPU? (Every task the balancer looks at is
 * a fair one; the model has no core-scheduling cookies, and
 * migration_cost_ns cannot be set to -1.)
 */
static int task_hot(struct task_struct *p, struct lb_env *env)
{
	s64 delta;

	/* a SCHED_IDLE task is never worth keeping for its cache */
	if (unlikely(task_has_idle_policy(p)))
		return 0;
	/* SMT siblings share their caches */
	if (env->sd->flags & SD_SHARE_CPUCAPACITY)
		return 0;
	/* the next buddy is about to run here: moving it would waste that */
	if (sched_feat(CACHE_HOT_BUDDY) && env->dst_rq->nr_running &&
	    &p->se == cfs_rq_of(&p->se)->next)
		return 1;
	if (sysctl_sched.migration_cost_ns == 0)
		return 0;
	delta = (s64)(env->src_rq->clock_task - p->se.exec_start);
	return delta < (s64)sysctl_sched.migration_cost_ns;
}

/*
 * With PLACE_LAG an ineligible task keeps its negative lag when it moves, so
 * it would be just as ineligible on a busy destination: moving it buys
 * nothing there.
 */
static int task_is_ineligible_on_dst_cpu(struct task_struct *p, unsigned int dest_cpu)
{
	struct cfs_rq *dst_cfs_rq = &cpu_rq(dest_cpu)->cfs;

	return sched_feat(PLACE_LAG) && dst_cfs_rq->nr_queued &&
	       !entity_eligible(cfs_rq_of(&p->se), &p->se);
}

static int can_migrate_task(struct task_struct *p, struct lb_env *env)
{
	int hot;

	charge(machine.cost->lb_task);
	/* a mark left by an earlier pass that did not move the task */
	p->sched_task_hot = false;
	/*
	 * A delayed (sleeping) entity moves only to carry its load along
	 * (migrate_load, which active balancing also uses); it arrives still
	 * delayed and is dequeued there when picked or requeued when woken.
	 */
	if (p->se.sched_delayed && env->migration_type != migrate_load)
		return 0;
	/*
	 * Eligible tasks first: an ineligible one may move only once a
	 * balance attempt at this level has failed.
	 */
	if (!env->sd->nr_balance_failed && task_is_ineligible_on_dst_cpu(p, env->dst_cpu))
		return 0;
	/*
	 * The kernel's kthread_is_per_cpu() test has nothing to find here: the
	 * model's per-CPU threads (idle, stopper) are not fair tasks, and
	 * kthreads bound with kthread_create_on_cpu() fail the affinity test.
	 */
	if (!cpumask_test_cpu(env->dst_cpu, p->cpus_mask)) {
		unsigned int cpu;

		env->flags |= LBF_SOME_PINNED;
		if (env->idle == CPU_NEWLY_IDLE || (env->flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)))
			return 0;
		/* remember another CPU of our group this task could go to */
		for_each_cpu_and(cpu, env->dst_grpmask, env->cpus) {
			if (cpumask_test_cpu(cpu, p->cpus_mask)) {
				env->flags |= LBF_DST_PINNED;
				env->new_dst_cpu = cpu;
				break;
			}
		}
		return 0;
	}
	/* at least one task could run on dst_cpu */
	env->flags &= ~LBF_ALL_PINNED;
	if (env->src_rq->curr == p)
		return 0;
	if (env->flags & LBF_ACTIVE_LB)
		return 1;
	hot = task_hot(p, env);
	if (!hot || env->sd->nr_balance_failed > env->sd->cache_nice_tries) {
		if (hot)
			p->sched_task_hot = true;
		return 1;
	}
	return 0;
}

static void detach_task(struct task_struct *p, struct lb_env *env)
{
	if (p->sched_task_hot) {
		p->sched_task_hot = false;
		env->sd->lb_hot_gained[env->idle]++;
	}
	deactivate_task(env->src_rq, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, env->dst_cpu);
}

static inline unsigned long shr_bound(unsigned long val, unsigned int shift)
{
	return shift >= BITS_PER_LONG ? 0 : val >> shift;
}

/*
 * Take tasks from the least recently run end of src_rq's list. A task that
 * cannot go is moved to the other end, so a later pass (after a breather)
 * looks at new ones.
 */
static int detach_tasks(struct lb_env *env)
{
	struct list_head *tasks = &env->src_rq->cfs_tasks;
	unsigned int detached = 0;

	/* emptied by another CPU meanwhile: no task was tested, none pinned */
	if (env->src_rq->nr_running <= 1) {
		env->flags &= ~LBF_ALL_PINNED;
		return 0;
	}
	if (env->imbalance <= 0)
		return 0;
	while (!list_empty(tasks)) {
		struct sched_entity *se = list_entry(tasks->prev, struct sched_entity, group_node);
		struct task_struct *p = task_of(se);
		unsigned long load, util;

		/* never empty the source when we are idle: it would pull back */
		if (env->idle != CPU_NOT_IDLE && env->src_rq->nr_running <= 1)
			break;
		env->loop++;
		/*
		 * We have seen about every task: stop. (v6.6-v6.9 went on while
		 * every task so far was pinned, b0defa7ae03e; reverted.)
		 */
		if (env->loop > env->loop_max)
			break;
		if (env->loop > env->loop_break) {
			env->loop_break += SCHED_NR_MIGRATE_BREAK;
			env->flags |= LBF_NEED_BREAK;
			break;
		}
		if (!can_migrate_task(p, env))
			goto next;
		switch (env->migration_type) {
		case migrate_load:
			/* task_h_load(): without task groups, the task's own load_avg */
			load = max(p->se.avg.load_avg, 1UL);
			/* LB_MIN: leave nearly idle tasks alone until balancing fails */
			if (sched_feat(LB_MIN) && load < LB_MIN_LOAD && !env->sd->nr_balance_failed)
				goto next;
			if (shr_bound(load, env->sd->nr_balance_failed) > (unsigned long)env->imbalance)
				goto next;
			env->imbalance -= (long)load;
			break;
		case migrate_util:
			util = task_util_est(&p->se.avg);
			if (shr_bound(util, env->sd->nr_balance_failed) > (unsigned long)env->imbalance)
				goto next;
			env->imbalance -= (long)util;
			break;
		case migrate_task:
			env->imbalance--;
			break;
		case migrate_misfit:
			if (task_fits_cpu(p, env->src_cpu))
				goto next;
			env->imbalance = 0;
			break;
		}
		detach_task(p, env);
		env->tasks[env->nr_tasks++] = p;
		detached++;
		/* newidle balancing adds latency: one task is enough */
		if (env->idle == CPU_NEWLY_IDLE)
			break;
		if (env->imbalance <= 0 || env->nr_tasks == ARRAY_SIZE(env->tasks))
			break;
		continue;
next:
		list_del_init(&se->group_node);
		list_add(&se->group_node, tasks);
	}
	env->sd->lb_gained[env->idle] += detached;
	return (int)detached;
}

static void attach_task(struct rq *rq, struct task_struct *p)
{
	activate_task(rq, p, ENQUEUE_NOCLOCK | ENQUEUE_MIGRATED);
	wakeup_preempt(rq, p, 0);
}

static void attach_tasks(struct lb_env *env)
{
	struct rq *rq = env->dst_rq;

	rq_lock(rq);
	update_rq_clock(rq);
	for (unsigned int i = 0; i < env->nr_tasks; i++)
		attach_task(rq, env->tasks[i]);
	env->nr_tasks = 0;
	rq_unlock(rq);
}

static void update_lb_imbalance_stat(struct lb_env *env, struct sched_domain *sd,
				     enum cpu_idle_type idle)
{
	switch (env->migration_type) {
	case migrate_load:
		sd->lb_imbalance_load[idle] += (unsigned int)env->imbalance;
		break;
	case migrate_util:
		sd->lb_imbalance_util[idle] += (unsigned int)env->imbalance;
		break;
	case migrate_task:
		sd->lb_imbalance_task[idle] += (unsigned int)env->imbalance;
		break;
	case migrate_misfit:
		sd->lb_imbalance_misfit[idle] += (unsigned int)env->imbalance;
		break;
	}
}

/*
 * asym_active_balance(): packing moves even a lone running task from a
 * lower priority CPU (between cores, only to a wholly idle core), or
 * from a core with busy siblings to any idle dst.
 */
static bool asym_active_balance(struct lb_env *env)
{
	return env->idle != CPU_NOT_IDLE && sched_use_asym_prio(env->sd, env->dst_cpu) &&
	       (sched_asym_prefer(env->dst_cpu, env->src_cpu) ||
		!sched_use_asym_prio(env->sd, env->src_cpu));
}

static int need_active_balance(struct lb_env *env)
{
	struct sched_domain *sd = env->sd;

	if (asym_active_balance(env))
		return 1;
	if (env->migration_type == migrate_task && sd->nr_balance_failed > sd->cache_nice_tries + 2)
		return 1;
	if (env->idle != CPU_NOT_IDLE && env->src_rq->cfs.h_nr_runnable == 1 &&
	    check_cpu_capacity(env->src_rq, sd) &&
	    capacity_of(env->src_cpu) * sd->imbalance_pct < capacity_of(env->dst_cpu) * 100)
		return 1;
	if (env->migration_type == migrate_misfit)
		return 1;
	return 0;
}

/* wake the busiest CPU's stopper to push its running task to us */
static void stop_one_cpu_nowait(struct rq *busiest)
{
	charge(machine.cost->ttwu);
	resched_curr(busiest);
}

static int __sched_balance_rq(unsigned int this_cpu, struct rq *this_rq, struct sched_domain *sd,
			      enum cpu_idle_type idle, int *continue_balancing)
{
	struct sched_domain *sd_parent = sd->parent;
	struct cpumask *cpus = load_balance_mask;
	int ld_moved = 0, cur_ld_moved, active_balance = 0;
	struct sched_group *group;
	struct rq *busiest;
	struct lb_env env = {
		.sd = sd,
		.dst_cpu = this_cpu,
		.dst_rq = this_rq,
		.dst_grpmask = group_balance_mask(sd->groups),
		.idle = idle,
		.loop_break = SCHED_NR_MIGRATE_BREAK,
		.cpus = cpus,
	};

	charge(machine.cost->lb_base);
	cpumask_copy(cpus, sched_domain_span(sd));
	sd->lb_count[idle]++;
redo:
	if (!should_we_balance(&env)) {
		*continue_balancing = 0;
		goto out_balanced;
	}
	group = sched_balance_find_src_group(&env);
	if (!group) {
		sd->lb_nobusyg[idle]++;
		goto out_balanced;
	}
	busiest = sched_balance_find_src_rq(&env, group);
	if (!busiest) {
		sd->lb_nobusyq[idle]++;
		goto out_balanced;
	}
	update_lb_imbalance_stat(&env, sd, idle);
	env.src_cpu = cpu_of(busiest);
	env.src_rq = busiest;
	ld_moved = 0;
	env.flags |= LBF_ALL_PINNED;
	if (busiest->nr_running > 1) {
		env.loop_max = min(sysctl_sched.nr_migrate, busiest->nr_running);
more_balance:
		rq_lock(busiest);
		update_rq_clock(busiest);
		cur_ld_moved = detach_tasks(&env);
		rq_unlock(busiest);
		if (cur_ld_moved) {
			attach_tasks(&env);
			ld_moved += cur_ld_moved;
		}
		if (env.flags & LBF_NEED_BREAK) {
			env.flags &= ~LBF_NEED_BREAK;
			/* stop once every runnable task was tried (b0defa7ae03e) */
			if (env.loop < busiest->nr_running)
				goto more_balance;
		}
		/* tasks pinned away from us may go to another CPU of our group */
		if ((env.flags & LBF_DST_PINNED) && env.imbalance > 0) {
			cpumask_clear_cpu(env.dst_cpu, env.cpus);
			env.dst_rq = cpu_rq(env.new_dst_cpu);
			env.dst_cpu = env.new_dst_cpu;
			env.flags &= ~LBF_DST_PINNED;
			env.loop = 0;
			env.loop_break = SCHED_NR_MIGRATE_BREAK;
			goto more_balance;
		}
		/* affinity kept us from balancing: tell the parent level */
		if (sd_parent && (env.flags & LBF_SOME_PINNED) && env.imbalance > 0)
			sd_parent->groups->sgc->imbalance = 1;
		if (env.flags & LBF_ALL_PINNED) {
			cpumask_clear_cpu(cpu_of(busiest), cpus);
			if (!cpumask_subset(cpus, env.dst_grpmask)) {
				env.loop = 0;
				env.loop_break = SCHED_NR_MIGRATE_BREAK;
				goto redo;
			}
			goto out_all_pinned;
		}
	}
	if (!ld_moved) {
		sd->lb_failed[idle]++;
		if (idle != CPU_NEWLY_IDLE)
			sd->nr_balance_failed++;
		if (need_active_balance(&env)) {
			rq_lock(busiest);
			if (!cpumask_test_cpu(this_cpu, busiest->curr->cpus_mask) ||
			    is_idle_task(busiest->curr)) {
				rq_unlock(busiest);
				goto out_one_pinned;
			}
			env.flags &= ~LBF_ALL_PINNED;
			if (!busiest->active_balance) {
				busiest->active_balance = 1;
				busiest->push_cpu = this_cpu;
				active_balance = 1;
			}
			rq_unlock(busiest);
			if (active_balance)
				stop_one_cpu_nowait(busiest);
		}
	} else {
		sd->nr_balance_failed = 0;
	}
	/* we were unbalanced (or pushed actively): balance again soon (e9b9734b7465) */
	if (!active_balance || need_active_balance(&env))
		sd->balance_interval = (unsigned int)sd->min_interval;
	return ld_moved;

out_balanced:
	/* balanced with some tasks able to move: clear the parent's pinned flag */
	if (sd_parent && !(env.flags & LBF_ALL_PINNED) && sd_parent->groups->sgc->imbalance)
		sd_parent->groups->sgc->imbalance = 0;
out_all_pinned:
	sd->lb_balanced[idle]++;
	sd->nr_balance_failed = 0;
out_one_pinned:
	ld_moved = 0;
	/* newidle ignores intervals, and misfit is no sign of a busy system */
	if (env.idle == CPU_NEWLY_IDLE || env.migration_type == migrate_misfit)
		return ld_moved;
	if (((env.flags & LBF_ALL_PINNED) && sd->balance_interval < MAX_PINNED_INTERVAL) ||
	    sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2;
	return ld_moved;
}

int sched_balance_rq(unsigned int this_cpu, struct rq *this_rq, struct sched_domain *sd,
		     enum cpu_idle_type idle, int *continue_balancing)
{
	u64 t0 = funclat_entry(FL_sched_balance_rq);
	int ret;

	balance_masks_alloc();
	ret = __sched_balance_rq(this_cpu, this_rq, sd, idle, continue_balancing);
	funclat_exit(FL_sched_balance_rq, t0);
	return ret;
}

/* ------------------------------------------------------------------ */
/* active balancing: the stopper on the busiest CPU                    */

static struct task_struct *detach_one_task(struct lb_env *env)
{
	struct list_head *tasks = &env->src_rq->cfs_tasks;
	struct list_head *pos;

	for (pos = tasks->prev; pos != tasks; pos = pos->prev) {
		struct task_struct *p = task_of(list_entry(pos, struct sched_entity, group_node));

		if (!can_migrate_task(p, env))
			continue;
		detach_task(p, env);
		env->sd->lb_gained[env->idle]++;
		return p;
	}
	return NULL;
}

void active_load_balance_cpu_stop(struct rq *busiest_rq)
{
	unsigned int busiest_cpu = cpu_of(busiest_rq);
	unsigned int target_cpu = busiest_rq->push_cpu;
	struct rq *target_rq = cpu_rq(target_cpu);
	struct task_struct *p = NULL;
	struct sched_domain *sd;

	balance_masks_alloc();
	rq_lock(busiest_rq);
	update_rq_clock(busiest_rq);
	/* the stopper itself is not counted: is there a task to move */
	if (!busiest_rq->active_balance || busiest_rq->nr_running < 1 || busiest_cpu == target_cpu)
		goto out_unlock;
	for_each_domain(target_cpu, sd)
		if (cpumask_test_cpu(busiest_cpu, sched_domain_span(sd)))
			break;
	if (sd) {
		struct lb_env env = {
			.sd = sd,
			.dst_cpu = target_cpu,
			.dst_rq = target_rq,
			.src_cpu = busiest_cpu,
			.src_rq = busiest_rq,
			.idle = CPU_IDLE,
			.flags = LBF_ACTIVE_LB,
			.cpus = load_balance_mask,
			.dst_grpmask = group_balance_mask(sd->groups),
		};

		cpumask_copy(env.cpus, sched_domain_span(sd));
		sd->alb_count++;
		p = detach_one_task(&env);
		if (p) {
			sd->alb_pushed++;
			sd->nr_balance_failed = 0;
		} else {
			sd->alb_failed++;
		}
	}
out_unlock:
	busiest_rq->active_balance = 0;
	rq_unlock(busiest_rq);
	if (p) {
		rq_lock(target_rq);
		update_rq_clock(target_rq);
		attach_task(target_rq, p);
		rq_unlock(target_rq);
	}
}
