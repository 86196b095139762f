/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Steal time (docs/guests.md, "Steal time"): the host deschedules a KVM
 * guest's vCPU for its own work or another guest's. A machine whose
 * [guest] (or --guest) gives steal = PCT[:PERIOD_US] has, on each vCPU, one
 * stretch of host preemption per period, at a pseudo-random place in it
 * drawn from the run's seed: the periods are uniform in [P/2, 3P/2), each
 * stretch PCT percent of its period, so a vCPU that is busy all along loses
 * PCT percent of its time. A halted vCPU is not running on the host and
 * loses nothing (its stretch of that period is skipped).
 *
 * A stretch reaches the vCPU as the interrupt line IRQ_STEAL: user work
 * stops there, a kernel path takes it at its end (as the guest would run
 * no instruction until the host runs it again), and the kernel runs the
 * CPU's cursor past it (sim_steal_take()). Interrupts that arrive meanwhile
 * wait, as an IPI to a descheduled vCPU waits in its posted-interrupt
 * descriptor. The guest kernel reads the steal clock that KVM's steal-time
 * MSR area publishes (paravirt_steal_clock(), sim_steal_clock()).
 */
#ifndef SCHEDLAB_SIM_STEAL_H
#define SCHEDLAB_SIM_STEAL_H

#include "sim/machine.h"

struct sim_steal {
	struct sim_event ev;	/* the start of the next stretch */
	struct prng rng;	/* this vCPU's own stream (prng.h) */
	u64 period_end;		/* end of the period the next stretch is in */
	u64 stretch_ns;		/* the next stretch's length */
	u64 pending_ns;		/* stretches raised and not yet taken */
	u64 total_ns;		/* steal clock: every stretch taken, in full */
	u64 until;		/* end of the last stretch taken */
	u64 last_ns;		/* its length */
};

/* Set up the stretches of every vCPU from machine.now on (after machine_start_at()). */
void sim_steal_start(void);
void sim_steal_destroy(void);

/* Steal is modelled on this machine. */
static inline bool sim_steal_enabled(void)
{
	return machine.steal != NULL;
}

/*
 * Take @cpu's pending stretches at its cursor: their length, which the
 * caller runs the cursor past.
 */
u64 sim_steal_take(unsigned int cpu);

/*
 * paravirt_steal_clock(@cpu) read at time @now: the steal of the
 * stretches over by then. KVM publishes a vCPU's steal (record_steal_time(),
 * the host scheduler's run_delay) when it enters the vCPU again, so a
 * stretch under way counts only once it is over.
 */
u64 sim_steal_clock(unsigned int cpu, u64 now);

/*
 * The KVM_VCPU_PREEMPTED flag of @cpu's steal-time area at @now: set by
 * the host when it schedules the vCPU thread out while it is runnable
 * (kvm_steal_time_set_preempted() from kvm_arch_vcpu_put()), cleared when
 * it enters the vCPU again (record_steal_time()). Here: from a stretch's
 * start (its interrupt raised, even while the vCPU still finishes the
 * kernel path the model runs at once) to its end. A halted vCPU is not
 * preempted: the host put it to sleep, it did not preempt it.
 */
bool sim_steal_preempted(unsigned int cpu, u64 now);

#endif
