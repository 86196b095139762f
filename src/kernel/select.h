/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Choosing a CPU on wakeup, fork and exec: the parts of
 * select_task_rq_fair() shared by select.c (the domain walk, wake_affine(),
 * the fork/exec slow path) and select_idle.c (select_idle_sibling() and the
 * idle-core and SIS_UTIL state of each LLC), and seen by the unit tests.
 *
 * CPU numbers are ints here, as in the kernel: the idle searches return -1
 * (or nr_cpumask_bits) for "none".
 *
 * Costs: every CPU whose runqueue state a wakeup or fork path examines
 * (is it idle, its load) is charged cost->lb_cpu_visit, each group the slow
 * path classifies cost->lb_group, each SMT sibling __update_idle_core()
 * tests cost->lb_sibling_test (docs/wakeup.md, "Choosing a CPU").
 */
#ifndef SCHEDLAB_KERNEL_SELECT_H
#define SCHEDLAB_KERNEL_SELECT_H

#include "kernel/fair_lb.h"
#include "kernel/sched.h"

#define nr_cpumask_bits ((int)nr_cpu_ids)

/* one CPU's runqueue state read by a wakeup or fork path: its rq's hot line */
static inline void select_visit_cpu(unsigned int cpu)
{
	charge(machine.cost->lb_cpu_visit);
	read_rq_state(cpu);
}

/* ... and its load (cfs_rq->avg) */
static inline void select_visit_load(unsigned int cpu)
{
	charge(machine.cost->lb_cpu_visit);
	read_rq_load(cpu);
}

/*
 * available_idle_cpu(): idle_cpu() and not a preempted vCPU, whose idle
 * task would run a wakee only once the host runs the vCPU again
 */
static inline bool available_idle_cpu(unsigned int cpu)
{
	return idle_cpu(cpu) && !vcpu_is_preempted(cpu);
}

/* sched_idle_cpu(): only SCHED_IDLE tasks queued (kernel/sched.h) */

/* the sched_smt_present static key: some core has SMT siblings */
static inline bool sched_smt_active(void)
{
	return machine.topo->has_smt;
}

static inline const struct cpumask *cpu_smt_mask(unsigned int cpu)
{
	return topology_sibling_cpumask(machine.topo, cpu);
}

/* without group scheduling a task's hierarchical load is its own */
static inline unsigned long task_h_load(struct task_struct *p)
{
	return p->se.avg.load_avg;
}

/*
 * The kernel's per-CPU select_rq_mask. One is enough (selection paths do
 * not nest); it is NR_CPUS wide so it fits every machine.
 */
extern struct cpumask select_rq_mask;

/*
 * find_energy_efficient_cpu() (select_energy.c): with EAS on and the root
 * domain not overutilized, the CPU where @p costs the least energy; -1
 * when EAS has no answer (then the usual path decides).
 */
int find_energy_efficient_cpu(struct task_struct *p, int prev_cpu);

/* bring a sleeping task's averages up to its cfs_rq's last update */
static inline void sync_entity_load_avg(struct sched_entity *se)
{
	pelt_update_blocked_se(cfs_rq_of(se)->avg.last_update_time, &se->avg,
			       scale_load_down(se->load.weight));
}

/* select.c */
void record_wakee(struct task_struct *p);
int wake_wide(struct task_struct *p);
int wake_affine(struct sched_domain *sd, struct task_struct *p, int this_cpu, int prev_cpu,
		int sync);
int sched_balance_find_dst_cpu(struct sched_domain *sd, struct task_struct *p, int cpu,
			       int prev_cpu, int sd_flag);

/* select_idle.c */
int select_idle_sibling(struct task_struct *p, int prev, int target);
void set_idle_cores(unsigned int cpu, int val);
bool test_idle_cores(unsigned int cpu);

#endif
