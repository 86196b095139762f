// SPDX-License-Identifier: GPL-2.0-only
/*
 * Choosing a CPU for a task on wakeup, fork and exec: select_task_rq_fair()
 * (kernel/sched/fair.c line of thought, v6.18).
 *
 * A wakeup records the waker/wakee flips (record_wakee(), wake_wide()),
 * walks the waker's domains up to the first SD_WAKE_AFFINE one that spans
 * the wakee's previous CPU, lets wake_affine() choose between the waker's
 * CPU and the previous one, and then searches for an idle CPU around that
 * choice (select_idle_sibling(), select_idle.c). Fork and exec take the slow
 * path: from the highest domain with SD_BALANCE_FORK/EXEC down, the idlest
 * group (sched_balance_find_dst_group()) and its idlest CPU
 * (sched_balance_find_dst_group_cpu()).
 *
 * With EAS on (energy_model.h) a wakeup first asks
 * find_energy_efficient_cpu() (select_energy.c) while the root domain is
 * not overutilized. Not modelled: WF_CURRENT_CPU, core scheduling cookies, NUMA
 * balancing's preferred node, SCHED_IDLE tasks.
 */
#include "kernel/select.h"

#include "kernel/funclat.h"

#include <limits.h>
#include <stdlib.h>

/* SD_flags and WF_flags share the first nibble: sd_flag = wake_flags & 0xF */
_Static_assert(SD_BALANCE_EXEC == WF_EXEC && SD_BALANCE_FORK == WF_FORK &&
		       SD_BALANCE_WAKE == WF_TTWU,
	       "SD_BALANCE_* and WF_* must share bits");

struct cpumask select_rq_mask;

/* ------------------------------------------------------------------ */
/* waker/wakee flips                                                   */

/*
 * Count how often current switches between wakees, halving the count once
 * a second: a task that wakes many different tasks builds up many flips.
 */
void record_wakee(struct task_struct *p)
{
	struct task_struct *curr = current;

	/* decay only once: a task waking less than once a jiffy has few flips */
	if (time_after(jiffies, curr->wakee_flip_decay_ts + sysctl_sched.hz)) {
		curr->wakee_flips >>= 1;
		curr->wakee_flip_decay_ts = jiffies;
	}
	if (curr->last_wakee_pid != p->pid) {
		curr->last_wakee = p;
		curr->last_wakee_pid = p->pid;
		curr->wakee_flips++;
	}
}

/*
 * An M:N relationship whose partners outnumber the LLC: one side flips at
 * least sd_llc_size times, the other sd_llc_size times more often. Such
 * wakeups are spread instead of pulled next to the waker.
 */
int wake_wide(struct task_struct *p)
{
	unsigned int master = current->wakee_flips;
	unsigned int slave = p->wakee_flips;
	unsigned int factor = (unsigned int)per_cpu(sd_llc_size, smp_processor_id());

	if (master < slave) {
		unsigned int tmp = master;

		master = slave;
		slave = tmp;
	}
	if (slave < factor || master < slave * factor)
		return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* wake_affine(): the waker's CPU or the previous one                  */

static bool wa_available_idle_cpu(int cpu)
{
	select_visit_cpu((unsigned int)cpu);
	return available_idle_cpu((unsigned int)cpu);
}

/* delayed-dequeue entities still queued on @rq */
static inline unsigned int cfs_h_nr_delayed(struct rq *rq)
{
	return rq->cfs.h_nr_queued - rq->cfs.h_nr_runnable;
}

/*
 * Only "now" matters: an idle waking CPU (a wakeup from an interrupt) may
 * take the task if it shares the cache with prev, unless prev is idle too;
 * a sync waker about to sleep leaves its CPU to the wakee; an idle prev
 * avoids a migration.
 */
static int wake_affine_idle(int this_cpu, int prev_cpu, int sync)
{
	if (wa_available_idle_cpu(this_cpu) &&
	    cpus_share_cache((unsigned int)this_cpu, (unsigned int)prev_cpu))
		return wa_available_idle_cpu(prev_cpu) ? prev_cpu : this_cpu;
	if (sync) {
		struct rq *rq = cpu_rq((unsigned int)this_cpu);

		if (rq->nr_running - cfs_h_nr_delayed(rq) == 1)
			return this_cpu;
	}
	if (wa_available_idle_cpu(prev_cpu))
		return prev_cpu;
	return nr_cpumask_bits;
}

/*
 * Compare the loads the two CPUs would have with the task, each scaled by
 * the other's capacity; prev gets half the domain's imbalance_pct as bias
 * (WA_BIAS). A sync waker's own load is taken off this CPU.
 */
static int wake_affine_weight(struct sched_domain *sd, struct task_struct *p, int this_cpu,
			      int prev_cpu, int sync)
{
	s64 this_eff_load, prev_eff_load;
	unsigned long task_load;

	select_visit_load((unsigned int)this_cpu);
	this_eff_load = (s64)cpu_load(cpu_rq((unsigned int)this_cpu));
	if (sync) {
		unsigned long current_load = task_h_load(current);

		if ((s64)current_load > this_eff_load)
			return this_cpu;
		this_eff_load -= (s64)current_load;
	}
	task_load = task_h_load(p);
	this_eff_load += (s64)task_load;
	if (sched_feat(WA_BIAS))
		this_eff_load *= 100;
	this_eff_load *= (s64)capacity_of((unsigned int)prev_cpu);

	select_visit_load((unsigned int)prev_cpu);
	prev_eff_load = (s64)cpu_load(cpu_rq((unsigned int)prev_cpu));
	prev_eff_load -= (s64)task_load;
	if (sched_feat(WA_BIAS))
		prev_eff_load *= 100 + (sd->imbalance_pct - 100) / 2;
	prev_eff_load *= (s64)capacity_of((unsigned int)this_cpu);
	/* sync and equal: let select_idle_sibling() consider stacking on the waker */
	if (sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load ? this_cpu : nr_cpumask_bits;
}

int wake_affine(struct sched_domain *sd, struct task_struct *p, int this_cpu, int prev_cpu,
		int sync)
{
	int target = nr_cpumask_bits;

	if (sched_feat(WA_IDLE))
		target = wake_affine_idle(this_cpu, prev_cpu, sync);
	if (sched_feat(WA_WEIGHT) && target == nr_cpumask_bits)
		target = wake_affine_weight(sd, p, this_cpu, prev_cpu, sync);
	if (target != this_cpu)
		return prev_cpu;
	sd->ttwu_move_affine++;
	return target;
}

/* ------------------------------------------------------------------ */
/* the slow path: the idlest group, then its idlest CPU                */

static inline void lsub_positive(unsigned long *v, unsigned long sub)
{
	*v -= min(*v, sub);
}

/* @p has just been or is still accounted on @cpu (not a new task) */
static inline bool task_counted_on(struct task_struct *p, unsigned int cpu)
{
	return cpu == task_cpu(p) && p->se.avg.last_update_time;
}

/* the CPU's load without @p's contribution */
static unsigned long cpu_load_without(struct rq *rq, struct task_struct *p)
{
	unsigned long load;

	if (!task_counted_on(p, cpu_of(rq)))
		return cpu_load(rq);
	load = rq->cfs.avg.load_avg;
	lsub_positive(&load, task_h_load(p));
	return load;
}

static unsigned long cpu_runnable_without(struct rq *rq, struct task_struct *p)
{
	unsigned long runnable;

	if (!task_counted_on(p, cpu_of(rq)))
		return rq->cfs.avg.runnable_avg;
	runnable = rq->cfs.avg.runnable_avg;
	lsub_positive(&runnable, p->se.avg.runnable_avg);
	return runnable;
}

/* cpu_util(cpu, p, -1, 0): the CPU's fair utilisation if @p left it */
static unsigned long cpu_util_without(unsigned int cpu, struct task_struct *p)
{
	struct cfs_rq *cfs_rq = &cpu_rq(cpu)->cfs;
	unsigned long util = cfs_rq->avg.util_avg;

	if (!task_counted_on(p, cpu))
		p = NULL;
	if (p)
		lsub_positive(&util, p->se.avg.util_avg);
	if (sched_feat(UTIL_EST)) {
		unsigned long util_est = cfs_rq->avg.util_est;

		if (p && (task_on_rq_queued(p) || current == p))
			lsub_positive(&util_est, _task_util_est(&p->se.avg));
		util = max(util, util_est);
	}
	return min(util, arch_scale_cpu_capacity(cpu));
}

/* @p is queued on @cpu and counted in its nr_running */
static unsigned int task_running_on_cpu(unsigned int cpu, struct task_struct *p)
{
	if (!task_counted_on(p, cpu))
		return 0;
	return task_on_rq_queued(p) ? 1 : 0;
}

/* idle_cpu() as if @p were not there (nr_running already checked) */
static bool idle_cpu_without(unsigned int cpu, struct task_struct *p)
{
	struct rq *rq = cpu_rq(cpu);

	if (rq->curr != rq->idle && rq->curr != p)
		return false;
	if (rq->ttwu_pending)
		return false;
	return true;
}

static void update_sg_wakeup_stats(struct sched_domain *sd, struct sched_group *group,
				   struct sg_lb_stats *sgs, struct task_struct *p)
{
	unsigned int i;

	*sgs = (struct sg_lb_stats){ 0 };
	charge(machine.cost->lb_group);
	/* assume the task fits no CPU of the group until one is found */
	if (sd->flags & SD_ASYM_CPUCAPACITY)
		sgs->group_misfit_task_load = 1;

	for_each_cpu(i, sched_group_span(group)) {
		struct rq *rq = cpu_rq(i);
		unsigned int local, nr_running;

		select_visit_load(i);
		sgs->group_load += cpu_load_without(rq, p);
		sgs->group_util += cpu_util_without(i, p);
		sgs->group_runnable += cpu_runnable_without(rq, p);
		local = task_running_on_cpu(i, p);
		sgs->sum_h_nr_running += rq->cfs.h_nr_runnable - local;
		nr_running = rq->nr_running - local;
		sgs->sum_nr_running += nr_running;
		if (!nr_running && idle_cpu_without(i, p))
			sgs->idle_cpus++;
		if ((sd->flags & SD_ASYM_CPUCAPACITY) && sgs->group_misfit_task_load &&
		    task_fits_cpu(p, i))
			sgs->group_misfit_task_load = 0;
	}
	sgs->group_capacity = group->sgc->capacity;
	sgs->group_weight = group->group_weight;
	sgs->group_type = group_classify(sd->imbalance_pct, group, sgs);
	/* avg_load only means something for a fully busy or overloaded group */
	if (sgs->group_type == group_fully_busy || sgs->group_type == group_overloaded)
		sgs->avg_load = (sgs->group_load * SCHED_CAPACITY_SCALE) / sgs->group_capacity;
}

static bool update_pick_idlest(struct sched_group *idlest, struct sg_lb_stats *idlest_sgs,
			       struct sched_group *group, struct sg_lb_stats *sgs)
{
	if (sgs->group_type < idlest_sgs->group_type)
		return true;
	if (sgs->group_type > idlest_sgs->group_type)
		return false;

	switch (sgs->group_type) {
	case group_overloaded:
	case group_fully_busy:
		/* the lowest avg_load */
		if (idlest_sgs->avg_load <= sgs->avg_load)
			return false;
		break;
	case group_imbalanced:
	case group_asym_packing:
	case group_smt_balance:
		/* not used by the slow path */
		return false;
	case group_misfit_task:
		/* the highest max capacity */
		if (idlest->sgc->max_capacity >= group->sgc->max_capacity)
			return false;
		break;
	case group_has_spare:
		/* the most idle CPUs, then the lowest utilisation */
		if (idlest_sgs->idle_cpus > sgs->idle_cpus)
			return false;
		if (idlest_sgs->idle_cpus == sgs->idle_cpus &&
		    idlest_sgs->group_util <= sgs->group_util)
			return false;
		break;
	}
	return true;
}

/*
 * The least busy group of @sd that @p may run in, or NULL if the local
 * group (this_cpu's) is as good.
 */
static struct sched_group *sched_balance_find_dst_group(struct sched_domain *sd,
							struct task_struct *p, int this_cpu)
{
	struct sched_group *idlest = NULL, *local = NULL, *group = sd->groups;
	struct sg_lb_stats local_sgs, tmp_sgs, *sgs;
	struct sg_lb_stats idlest_sgs = {
		.avg_load = UINT32_MAX,
		.group_type = group_overloaded,
	};
	unsigned long imbalance;

	do {
		bool local_group;

		/* no CPU of the group allowed */
		if (!cpumask_intersects(sched_group_span(group), p->cpus_mask))
			continue;
		local_group = cpumask_test_cpu((unsigned int)this_cpu, sched_group_span(group));
		if (local_group) {
			sgs = &local_sgs;
			local = group;
		} else {
			sgs = &tmp_sgs;
		}
		update_sg_wakeup_stats(sd, group, sgs, p);
		if (!local_group && update_pick_idlest(idlest, &idlest_sgs, group, sgs)) {
			idlest = group;
			idlest_sgs = *sgs;
		}
	} while (group = group->next, group != sd->groups);

	if (!idlest)
		return NULL;
	/* the local group was skipped for affinity */
	if (!local)
		return idlest;
	/* local idler than the idlest: stay */
	if (local_sgs.group_type < idlest_sgs.group_type)
		return NULL;
	/* local busier: push */
	if (local_sgs.group_type > idlest_sgs.group_type)
		return idlest;

	switch (local_sgs.group_type) {
	case group_overloaded:
	case group_fully_busy:
		/* allowed imbalance: imbalance_pct of a nice-0 task's load */
		imbalance = scale_load_down(NICE_0_LOAD) * (sd->imbalance_pct - 100) / 100;
		/*
		 * Across NUMA nodes the remote side carries the imbalance, so a
		 * lightly loaded local node is kept.
		 */
		if ((sd->flags & SD_NUMA) && idlest_sgs.avg_load + imbalance >= local_sgs.avg_load)
			return NULL;
		if (idlest_sgs.avg_load >= local_sgs.avg_load + imbalance)
			return NULL;
		if (100 * local_sgs.avg_load <= sd->imbalance_pct * idlest_sgs.avg_load)
			return NULL;
		break;
	case group_imbalanced:
	case group_asym_packing:
	case group_smt_balance:
		return NULL;
	case group_misfit_task:
		if (local->sgc->max_capacity >= idlest->sgc->max_capacity)
			return NULL;
		break;
	case group_has_spare:
		if (sd->flags & SD_NUMA) {
			unsigned int imb_numa_nr = sd->imb_numa_nr;

			/*
			 * Keep the task near its waker while the local node
			 * would stay below the allowed NUMA imbalance; the
			 * balancer moves it if it must. (No NUMA balancing:
			 * no preferred node.) A task pinned to part of the
			 * node counts only the CPUs it may use.
			 */
			if (p->nr_cpus_allowed != NR_CPUS) {
				struct cpumask *cpus = &select_rq_mask;

				cpumask_and(cpus, sched_group_span(local), p->cpus_mask);
				imb_numa_nr = min(cpumask_weight(cpus), sd->imb_numa_nr);
			}
			imbalance = (unsigned long)abs(
				(int)(local_sgs.idle_cpus - idlest_sgs.idle_cpus));
			if (!adjust_numa_imbalance((long)imbalance, local_sgs.sum_nr_running + 1,
						   imb_numa_nr))
				return NULL;
		}
		/* the group with the most idle CPUs */
		if (local_sgs.idle_cpus >= idlest_sgs.idle_cpus)
			return NULL;
		break;
	}
	return idlest;
}

/* the idle state @rq's CPU is in (cpuidle's rq->idle_state), or NULL */
static inline const struct idle_state *idle_get_state(struct rq *rq)
{
	return rq->idle_state >= 0 ? &machine.topo->idle_states[rq->idle_state] : NULL;
}

/*
 * The idlest allowed CPU of @group: an idle one in the shallowest idle
 * state, the most recently idled among equals; else the least loaded.
 */
static int sched_balance_find_dst_group_cpu(struct sched_group *group, struct task_struct *p,
					    int this_cpu)
{
	unsigned long load, min_load = ULONG_MAX;
	u64 min_exit_latency = UINT64_MAX;
	u64 latest_idle_timestamp = 0;
	int least_loaded_cpu = this_cpu;
	int shallowest_idle_cpu = -1;
	unsigned int i;

	if (group->group_weight == 1)
		return (int)cpumask_first(sched_group_span(group));

	for_each_cpu_and(i, sched_group_span(group), p->cpus_mask) {
		struct rq *rq = cpu_rq(i);

		select_visit_load(i);
		if (sched_idle_cpu(i))
			return (int)i;
		if (available_idle_cpu(i)) {
			const struct idle_state *idle = idle_get_state(rq);

			if (idle && idle->exit_latency_ns < min_exit_latency) {
				/* the shallowest state wins whatever its timestamp */
				min_exit_latency = idle->exit_latency_ns;
				latest_idle_timestamp = rq->idle_stamp;
				shallowest_idle_cpu = (int)i;
			} else if ((!idle || idle->exit_latency_ns == min_exit_latency) &&
				   rq->idle_stamp > latest_idle_timestamp) {
				/* the most recently idled may have a warmer cache */
				latest_idle_timestamp = rq->idle_stamp;
				shallowest_idle_cpu = (int)i;
			}
		} else if (shallowest_idle_cpu == -1) {
			load = cpu_load(rq);
			if (load < min_load) {
				min_load = load;
				least_loaded_cpu = (int)i;
			}
		}
	}
	return shallowest_idle_cpu != -1 ? shallowest_idle_cpu : least_loaded_cpu;
}

int sched_balance_find_dst_cpu(struct sched_domain *sd, struct task_struct *p, int cpu,
			       int prev_cpu, int sd_flag)
{
	int new_cpu = cpu;

	if (!cpumask_intersects(sched_domain_span(sd), p->cpus_mask))
		return prev_cpu;
	/* exec: the task's utilisation as of its cfs_rq's last update */
	if (!(sd_flag & SD_BALANCE_FORK))
		sync_entity_load_avg(&p->se);

	while (sd) {
		struct sched_group *group;
		struct sched_domain *tmp;
		unsigned int weight;

		if (!(sd->flags & sd_flag)) {
			sd = sd->child;
			continue;
		}
		group = sched_balance_find_dst_group(sd, p, cpu);
		if (!group) {
			sd = sd->child;
			continue;
		}
		new_cpu = sched_balance_find_dst_group_cpu(group, p, cpu);
		if (new_cpu == cpu) {
			/* go down a level from the same CPU */
			sd = sd->child;
			continue;
		}
		/* go down from new_cpu's domain below the one just balanced */
		cpu = new_cpu;
		weight = sd->span_weight;
		sd = NULL;
		for_each_domain((unsigned int)cpu, tmp) {
			if (weight <= tmp->span_weight)
				break;
			if (tmp->flags & sd_flag)
				sd = tmp;
		}
	}
	return new_cpu;
}

/* ------------------------------------------------------------------ */
/* select_task_rq_fair()                                               */

static unsigned int __select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags)
{
	/* (no PF_EXITING: no exiting task makes sync wakeups here) */
	int sync = !!(wake_flags & WF_SYNC);
	struct sched_domain *tmp, *sd = NULL;
	int cpu = (int)smp_processor_id();
	int new_cpu = prev_cpu;
	int want_affine = 0;
	int sd_flag = wake_flags & 0xF;

	if (wake_flags & WF_TTWU) {
		record_wakee(p);
		/* EAS: below the tipping point, the energy model places the task */
		if (sched_energy_enabled() && !is_rd_overutilized(cpu_rd((unsigned int)cpu))) {
			new_cpu = find_energy_efficient_cpu(p, prev_cpu);
			if (new_cpu >= 0)
				return (unsigned int)new_cpu;
			new_cpu = prev_cpu;
		}
		want_affine = !wake_wide(p) && cpumask_test_cpu((unsigned int)cpu, p->cpus_mask);
	}

	for_each_domain((unsigned int)cpu, tmp) {
		/* this CPU and prev both in the domain: this CPU is an affine target */
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) &&
		    cpumask_test_cpu((unsigned int)prev_cpu, sched_domain_span(tmp))) {
			if (cpu != prev_cpu)
				new_cpu = wake_affine(tmp, p, cpu, prev_cpu, sync);
			/* wake_affine wins over the balance flags */
			sd = NULL;
			break;
		}
		/* only fork and exec: no domain has SD_BALANCE_WAKE */
		if (tmp->flags & sd_flag)
			sd = tmp;
		else if (!want_affine)
			break;
	}

	if (sd)
		new_cpu = sched_balance_find_dst_cpu(sd, p, cpu, prev_cpu, sd_flag);
	else if (wake_flags & WF_TTWU)
		new_cpu = select_idle_sibling(p, prev_cpu, new_cpu);
	return (unsigned int)new_cpu;
}

unsigned int select_task_rq_fair(struct task_struct *p, unsigned int prev_cpu, int wake_flags)
{
	u64 t0 = funclat_entry(FL_select_task_rq_fair);
	unsigned int cpu = __select_task_rq_fair(p, (int)prev_cpu, wake_flags);

	funclat_exit(FL_select_task_rq_fair, t0);
	return cpu;
}
