// SPDX-License-Identifier: GPL-2.0-only
/*
 * IRQ time accounting (CONFIG_IRQ_TIME_ACCOUNTING, --sysctl irqtime=1;
 * docs/pelt.md, "IRQ time"): the time a CPU spends between irq_enter() and
 * the end of the softirqs irq_exit() runs is left out of clock_task, so
 * tasks' runtime and PELT do not count it; it feeds avg_irq, which
 * scale_rt_capacity() takes off the CPU's capacity.
 */
#include "test_sched_helpers.h"

/* each tick's handler: 10 + 390 us, a tenth of a 4 ms tick period */
#define TICK_IRQ_NS 400000ULL

struct busy_cpu {
	u64 clock, clock_task, irq_time, consumed, runtime;
	unsigned long irq_util, capacity;
};

/* a task busy on CPU 0 of smp2 for 400 ms, its tick handler TICK_IRQ_NS long */
static void run_busy(unsigned int irqtime, struct busy_cpu *b)
{
	struct task_struct *p;
	struct rq *rq;
	u64 clock0, task0;

	tl_setup("smp2", TL_ZERO_COST, 250, NULL);
	tl.cost.irq_entry = 10000;
	tl.cost.tick = TICK_IRQ_NS - tl.cost.irq_entry;
	sysctl_sched.irqtime = irqtime;
	rq = cpu_rq(0);
	clock0 = rq->clock;
	task0 = rq->clock_task;
	p = tl_work_task("busy", &tl_busy_prog, 0);
	tl_run_until(machine.now + 400 * NSEC_PER_MSEC, true);
	tl_account_now();
	b->clock = rq->clock - clock0;
	b->clock_task = rq->clock_task - task0;
	b->irq_time = rq->hardirq_time + rq->softirq_time;
	b->consumed = rq->prev_irq_time;
	b->runtime = tl_runtime(p);
	b->irq_util = cpu_util_irq(rq);
	b->capacity = scale_rt_capacity(0);
	tl_teardown();
}

static void test_irq_time_out_of_clock_task(void **state)
{
	struct busy_cpu on, off;

	(void)state;
	run_busy(1, &on);
	/* 100 ticks in 400 ms, each TICK_IRQ_NS of hard interrupt time */
	assert_in_range(on.irq_time, 99 * TICK_IRQ_NS, 101 * TICK_IRQ_NS);
	assert_int_equal(on.irq_time % TICK_IRQ_NS, 0);
	/* clock_task fell behind the clock by exactly the irq time it has consumed */
	assert_int_equal(on.clock - on.clock_task, on.consumed);
	/* all of it but at most the handler still running at the end */
	assert_in_range(on.consumed, on.irq_time - TICK_IRQ_NS, on.irq_time);
	/* the task ran what clock_task counted, not the handlers' time */
	assert_in_range(on.runtime, on.clock_task - TICK_IRQ_NS, on.clock_task);
	/* avg_irq: a tenth of 1024, and the capacity the balancer sees drops by as much */
	assert_in_range(on.irq_util, 92, 112);
	assert_int_equal(on.capacity, 1024 - on.irq_util);

	/* without it: the same handlers, charged to the task they interrupt */
	run_busy(0, &off);
	assert_int_equal(off.irq_time, 0);
	assert_int_equal(off.clock, off.clock_task);
	assert_int_equal(off.irq_util, 0);
	assert_int_equal(off.capacity, 1024);
	assert_true(off.runtime > on.runtime + 90 * TICK_IRQ_NS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irq_time_out_of_clock_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
