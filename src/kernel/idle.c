// SPDX-License-Identifier: MIT
/*
 * The idle class and the idle loop (kernel/sched/idle.c line of thought).
 *
 * An idle CPU waits in a shallow idle state (C1/WFI-like, exit latency
 * cost->idle_exit) with its tick stopped (nohz). An interrupt brings it out;
 * the step machine then runs schedule_idle() if there is work. Polling idle
 * and deeper states chosen by a governor are a later piece of work.
 */
#include "kernel/sched.h"

void tick_stop_idle(struct rq *rq);
void idle_tick_restart(struct rq *rq);

struct task_struct *pick_next_task_idle(struct rq *rq)
{
	return rq->idle;
}

void do_idle(void)
{
	struct rq *rq = this_rq();
	struct sim_cpu *c = sim_cpu(cpu_of(rq));

	cpu_set_activity(c, ACT_IDLE);
	tick_stop_idle(rq);
	/* tickless idle: the idle load balancer balances for us now */
	nohz_balance_enter_idle(rq);
}

void idle_exit(struct rq *rq)
{
	struct sim_cpu *c = sim_cpu(cpu_of(rq));

	/* the exit latency is time the CPU spends waking up, not working */
	c->t += machine.cost->idle_exit;
	cpu_set_activity(c, ACT_IRQ);
	idle_tick_restart(rq);
}
