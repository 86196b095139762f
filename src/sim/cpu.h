/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPU step machine: the hardware side of a simulated CPU.
 *
 * A CPU executes user work at its speed (capacity, frequency), has
 * interrupt lines that are raised by events (the local tick timer, a
 * reschedule IPI, a call-function IPI, hrtimers) and delivered by
 * interrupting user work or an idle CPU, or left pending while the CPU is
 * in a kernel path, and a step event at which the code it runs reaches its
 * next boundary.
 *
 * What the CPU then does is the kernel's business: src/kernel registers its
 * reactions (struct sim_cpu_ops) at sched_init(), and this file calls them.
 * It never includes or links the kernel (tests/layers/check.sh).
 */
#ifndef SCHEDLAB_SIM_CPU_H
#define SCHEDLAB_SIM_CPU_H

#include "sim/machine.h"

/* interrupt lines pending on a CPU (sim_cpu.pending_irqs bits) */
#define IRQ_TICK 0x1
#define IRQ_RESCHED 0x2
#define IRQ_TIMER 0x4
#define IRQ_CALL_FUNC 0x8
#define IRQ_STEAL 0x10 /* the host deschedules the vCPU (sim/steal.h) */

/*
 * The kernel's reactions to what the hardware does, registered with
 * sim_cpu_register_ops(). Each runs on @cpu (machine.this_cpu == cpu) at
 * its cursor.
 */
struct sim_cpu_ops {
	/* the CPU is at a step boundary: decide what it does next */
	void (*step)(unsigned int cpu);
	/* the step event of an idle CPU (a polling CPU saw a flag, or its poll limit) */
	void (*idle_step)(unsigned int cpu);
	/* an interrupt ends the idle state (the CPU's cursor is at machine.now) */
	void (*idle_exit)(unsigned int cpu);
	/*
	 * User work stopped after @ran ns of wall time: by its end
	 * (@finished, nothing left) or by an interrupt (@work_left ns of
	 * full-speed work still to do).
	 */
	void (*user_stopped)(unsigned int cpu, u64 ran, u64 work_left, bool finished);
	/* an interrupt arrived while the CPU is in a kernel or irq path */
	void (*irq_in_kernel)(unsigned int cpu);
};

void sim_cpu_register_ops(const struct sim_cpu_ops *ops);

/*
 * Give CPU @cpu its events: @step (the step machine's), @tick (the local
 * tick timer), @ipi (reschedule IPI) and @csd (call-function IPI). The
 * storage is the caller's (struct rq keeps them, where kernel paths arm
 * them); this sets their handlers.
 */
void sim_cpu_bind_events(unsigned int cpu, struct sim_event *step, struct sim_event *tick,
			 struct sim_event *ipi, struct sim_event *csd);

/* Run @work ns of full-speed user work on @cpu from its cursor. */
void sim_cpu_run_user(unsigned int cpu, u64 work);

/* Arm @cpu's next step at its cursor (the end of the current kernel path). */
static inline void sim_cpu_step_at_cursor(unsigned int cpu)
{
	struct sim_cpu *c = sim_cpu(cpu);

	sim_schedule(c->step_ev, c->t);
}

/* An interrupt line @irq reaches @cpu at machine.now. */
void sim_cpu_interrupt(unsigned int cpu, unsigned int irq);

/* Take (and clear) the interrupts pending on @cpu. */
static inline unsigned int sim_cpu_take_irqs(unsigned int cpu)
{
	struct sim_cpu *c = sim_cpu(cpu);
	unsigned int irqs = c->pending_irqs;

	c->pending_irqs = 0;
	return irqs;
}

/*
 * High-resolution timers: @function runs in interrupt context on @cpu when
 * the timer expires (e.g. to wake a sleeping task).
 */
struct hrtimer {
	struct sim_event ev;		/* at the hard expiry (hrtimer_get_expires()) */
	/*
	 * The soft expiry (hrtimer_get_softexpires()): the earliest time the
	 * timer may run. A timer armed with a range (the task's timer slack)
	 * runs at the first hrtimer interrupt of its CPU at or after this,
	 * whichever timer's hard expiry (or the tick) raised it, and at its
	 * own hard expiry ev.time at the latest.
	 */
	u64 softexpires;
	unsigned int cpu;
	void (*function)(struct hrtimer *timer);
	struct hrtimer *next_expired;
	unsigned int heap_pos;	/* in its CPU's armed-timer heap: index + 1; 0: not there */
};

void hrtimer_init(struct hrtimer *timer, void (*function)(struct hrtimer *timer));
/*
 * A housekeeping timer of the kernel's own (the fair server's): it fires
 * while the run goes on, but a run with nothing else left to happen is
 * over (sim_event.background).
 */
static inline void hrtimer_set_background(struct hrtimer *timer)
{
	timer->ev.background = true;
}
/* Arm @timer on the running CPU to expire at absolute time @expires. */
void hrtimer_start(struct hrtimer *timer, u64 expires);
/* The same on CPU @cpu's timer base (a timer pinned to another CPU's runqueue). */
void hrtimer_start_on(struct hrtimer *timer, unsigned int cpu, u64 expires);
/*
 * hrtimer_start_range_ns() on the running CPU: soft expiry @expires, hard
 * expiry @expires + @delta (hrtimer_set_expires_range_ns()): the clock
 * event is programmed for the hard one, and an earlier hrtimer interrupt
 * of the CPU at or after the soft one runs it (__hrtimer_run_queues()).
 */
void hrtimer_start_range_ns(struct hrtimer *timer, u64 expires, u64 delta);
/*
 * An hrtimer interrupt on @cpu at machine.now that another hrtimer (the
 * tick's tick_sched_timer) raised: the armed timers it runs as well, in
 * hard-expiry order while their soft expiry has come (__hrtimer_run_queues()
 * stops at the first that has not), move to the expired list; true if any.
 */
bool hrtimer_run_soft_expired(unsigned int cpu);
void hrtimer_cancel(struct hrtimer *timer);
/*
 * The earliest expiry of the hrtimers armed on @cpu (the tick is not one
 * here: the kernel adds it), U64_MAX with none: what the CPU's clock event
 * device is programmed for, hrtimer_get_next_event().
 */
static inline u64 hrtimer_next_expiry(unsigned int cpu)
{
	const struct sim_cpu *c = sim_cpu(cpu);

	return c->nr_timers ? c->timers[0]->ev.time : UINT64_MAX;
}
/* Armed, or expired with its function not yet run. */
bool hrtimer_pending(const struct hrtimer *timer);

/*
 * hrtimer_try_to_cancel(): the timer neither fires nor runs its function:
 * also when it has expired on a CPU busy in a kernel path and its function
 * waits there for the interrupt to be taken (the kernel would have run it
 * at its expiry already; here it is taken off that CPU's expired list).
 */
void hrtimer_try_to_cancel(struct hrtimer *timer);

/* hrtimer_is_queued(): armed and not yet expired */
static inline bool hrtimer_is_queued(const struct hrtimer *timer)
{
	return ev_queued(&timer->ev);
}

/* The timers expired on @cpu since the last call, in expiry order. */
static inline struct hrtimer *sim_cpu_take_expired_timers(unsigned int cpu)
{
	struct sim_cpu *c = sim_cpu(cpu);
	struct hrtimer *t = c->expired_timers;

	c->expired_timers = NULL;
	return t;
}

#endif
