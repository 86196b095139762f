// SPDX-License-Identifier: GPL-2.0-only
/*
 * rq->cpu_load[0] as v3.x kernels kept it, for the one reader the model
 * has: the menu governor's load term (MENU_LOAD_MULT), whose get_loadavg()
 * read it through this_cpu_load(). v6.18 has no cpu_load[] (the array went
 * with the load balancer's load indexes); these updates only write the
 * two rq fields, and only when MENU_LOAD_MULT will read them.
 *
 * What the kernel stored (kernel/sched/core.c __update_cpu_load(), "fast
 * track for idx 0": the value of the update, no average):
 *  - v3.7-v3.10 (NO_CPU_LOAD_RUNNABLE_AVG): rq->load.weight, the weights of
 *    the CFS entities queued on the rq, the running one included; a nice-0
 *    task weighs 1024 (64-bit kernels of the time kept SCHED_LOAD_RESOLUTION
 *    at 0);
 *  - v3.11 on (CPU_LOAD_RUNNABLE_AVG): cfs.runnable_load_avg,
 *    the sum of the queued entities' PELT load contributions.
 * v6.18's delayed entities (DELAY_DEQUEUE) have blocked and were not queued
 * in those kernels, so neither sum counts them.
 *
 * When (the update points of v3.9 and v3.10, read in their sources):
 *  - every tick of the CPU (scheduler_tick() -> update_cpu_load_active()),
 *    idle or not: an idle CPU's kept tick stores 0;
 *  - when the CPU leaves idle with its tick stopped
 *    (tick_nohz_restart_sched_tick() -> update_cpu_load_nohz()): 0, "we
 *    were idle", if a jiffy has passed since the last update;
 *  - when the idle-load balancer balances for it (nohz_idle_balance() ->
 *    update_idle_cpu_load()): 0, if its rq is empty and a jiffy has passed.
 * So a CPU whose task blocks right after a busy tick enters idle with that
 * tick's load, and keeps it over idle periods that end within the jiffy.
 *
 * The updates cost nothing here: v6.18's tick and idle exit, whose costs
 * the model charges, do not do them, and the older kernels' cost of the
 * array update is not part of what the studies compare.
 */
#include "kernel/sched.h"

static unsigned long cfs_load_v3(const struct rq *rq)
{
	const struct sched_entity *se;
	unsigned long load = 0;

	list_for_each_entry(se, &rq->cfs_tasks, group_node) {
		if (se->sched_delayed)
			continue;
		load += sched_feat(CPU_LOAD_RUNNABLE_AVG) ? se->avg.load_avg
							   : scale_load_down(se->load.weight);
	}
	return load;
}

/* only the menu governor's load term reads it: runs without it skip the walk */
static bool cpu_load0_wanted(void)
{
	return sched_feat(MENU_LOAD_MULT);
}

static void update_cpu_load0(struct rq *rq, unsigned long load)
{
	rq->cpu_load0 = load;
	rq->last_load_update_tick = jiffies;
}

void update_cpu_load_active(struct rq *rq)
{
	if (cpu_load0_wanted())
		update_cpu_load0(rq, cfs_load_v3(rq));
}

void update_cpu_load_nohz(struct rq *rq)
{
	if (cpu_load0_wanted() && jiffies != rq->last_load_update_tick)
		update_cpu_load0(rq, 0);
}

void update_idle_cpu_load(struct rq *rq)
{
	if (cpu_load0_wanted() && jiffies != rq->last_load_update_tick && !cfs_load_v3(rq))
		update_cpu_load0(rq, 0);
}
