/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduler's tracepoints (include/trace/events/sched.h, ipi.h,
 * power.h line of thought). As in the kernel, a tracepoint is a hook that
 * a consumer registers a probe on: the kernel defines only the hook
 * pointers (kernel/trace.c), the ftrace text writer (src/report/ftrace.c)
 * and the --plot recorder (src/report/plot.c) register their probes when
 * a trace or plot is opened and clear them when it is closed. That keeps
 * src/kernel linkable without src/report. With nothing registered a
 * tracepoint is one predictable branch on a pointer, the price of the
 * kernel's static-key-less tracepoints.
 */
#ifndef SCHEDLAB_KERNEL_TRACE_H
#define SCHEDLAB_KERNEL_TRACE_H

#include "sim/types.h"

#include <stdbool.h>

struct task_struct;

enum trace_event {
	TRACE_SCHED_SWITCH,
	TRACE_SCHED_WAKING,
	TRACE_SCHED_WAKEUP,
	TRACE_SCHED_WAKEUP_NEW,
	TRACE_SCHED_MIGRATE_TASK,
	TRACE_CPU_IDLE,
	TRACE_CPU_FREQUENCY,
	TRACE_IPI_SEND_CPU,
	TRACE_IPI_ENTRY,
	TRACE_IPI_EXIT,
	TRACE_CONTENTION_BEGIN,		/* include/trace/events/lock.h */
	TRACE_CONTENTION_END,
	TRACE_SCHED_PI_SETPRIO,		/* rt_mutex_setprio(): a boost or deboost */
	NR_TRACE_EVENTS
};

/* what an IPI was for: the reason ipi_entry/ipi_exit print */
enum trace_ipi {
	TRACE_IPI_RESCHEDULE,
	TRACE_IPI_CALL_FUNC,
};

/*
 * where an IPI was sent from: ipi_send_cpu's callsite, the _RET_IP_ of the
 * function the send is inlined into, so its caller
 */
enum trace_ipi_site {
	TRACE_SITE_RESCHED_CURR,	/* smp_send_reschedule() in __resched_curr() */
	TRACE_SITE_TTWU_QUEUE_WAKELIST,	/* __smp_call_single_queue() from ttwu_queue_wakelist() */
	TRACE_SITE_GENERIC_EXEC_SINGLE,	/* ... from smp_call_function_single_async() */
	TRACE_SITE_IRQ_WORK_QUEUE_ON,	/* ... from irq_work_queue_on() */
};

/* the probes of one trace consumer; every member must be set */
struct sched_trace_hooks {
	void (*sched_switch)(bool preempt, struct task_struct *prev, struct task_struct *next);
	/* sched_waking, sched_wakeup and sched_wakeup_new share one format */
	void (*sched_wake)(enum trace_event ev, struct task_struct *p, unsigned int target_cpu);
	void (*sched_migrate_task)(struct task_struct *p, unsigned int dest_cpu);
	void (*cpu_idle)(unsigned int state, unsigned int cpu);
	void (*cpu_frequency)(unsigned int state, unsigned int cpu);
	void (*ipi_send_cpu)(unsigned int cpu, enum trace_ipi why, enum trace_ipi_site site);
	/* ipi_entry and ipi_exit */
	void (*ipi_irq)(enum trace_event ev, enum trace_ipi why);
	/*
	 * contention_begin (@arg: the LCB_F_* flags) and contention_end
	 * (@arg: ret); @lock_addr is the lock's simulated address
	 */
	void (*contention)(enum trace_event ev, u64 lock_addr, int arg);
	/* sched_pi_setprio: @p's priority becomes @newprio (from p->prio) */
	void (*sched_pi_setprio)(struct task_struct *p, int newprio);
};

/* contention_begin's flags (include/trace/events/lock.h) */
#define LCB_F_SPIN (1U << 0)
#define LCB_F_READ (1U << 1)
#define LCB_F_WRITE (1U << 2)
#define LCB_F_RT (1U << 3)
#define LCB_F_PERCPU (1U << 4)
#define LCB_F_MUTEX (1U << 5)

/* the registered trace probes, NULL while no trace is being written */
extern const struct sched_trace_hooks *sched_trace_hooks;
/* a woken task waited @ns from its wakeup until it ran; NULL unless --plot records */
extern void (*sched_wakeup_latency_hook)(u64 ns);

/* @hooks, or NULL to detach; one consumer at a time, as a trace has one writer */
void register_sched_trace_hooks(const struct sched_trace_hooks *hooks);
void register_wakeup_latency_hook(void (*fn)(u64 ns));

/* cpu_idle's state when a CPU leaves idle: (u32)PWR_EVENT_EXIT */
#define TRACE_PWR_EVENT_EXIT 4294967295U

/*
 * The call sites read as the kernel's trace_sched_switch(...): the
 * __trace_*() helpers below are only ever called inside trace_sched(),
 * which has already seen a registered consumer.
 */
static inline void __trace_contention(enum trace_event ev, u64 lock_addr, int arg)
{
	sched_trace_hooks->contention(ev, lock_addr, arg);
}

static inline void __trace_sched_pi_setprio(struct task_struct *p, int newprio)
{
	sched_trace_hooks->sched_pi_setprio(p, newprio);
}

static inline void __trace_sched_switch(bool preempt, struct task_struct *prev,
					struct task_struct *next)
{
	sched_trace_hooks->sched_switch(preempt, prev, next);
}

static inline void __trace_sched_wake(enum trace_event ev, struct task_struct *p,
				      unsigned int target_cpu)
{
	sched_trace_hooks->sched_wake(ev, p, target_cpu);
}

static inline void __trace_sched_migrate_task(struct task_struct *p, unsigned int dest_cpu)
{
	sched_trace_hooks->sched_migrate_task(p, dest_cpu);
}

static inline void __trace_cpu_idle(unsigned int state, unsigned int cpu)
{
	sched_trace_hooks->cpu_idle(state, cpu);
}

static inline void __trace_cpu_frequency(unsigned int state, unsigned int cpu)
{
	sched_trace_hooks->cpu_frequency(state, cpu);
}

static inline void __trace_ipi_send_cpu(unsigned int cpu, enum trace_ipi why,
					enum trace_ipi_site site)
{
	sched_trace_hooks->ipi_send_cpu(cpu, why, site);
}

static inline void __trace_ipi_irq(enum trace_event ev, enum trace_ipi why)
{
	sched_trace_hooks->ipi_irq(ev, why);
}

static inline void __plot_wakeup_latency(u64 ns)
{
	sched_wakeup_latency_hook(ns);
}

#define plot_sched(call)                                                    \
	do {                                                                \
		if (__builtin_expect(sched_wakeup_latency_hook != NULL, 0)) \
			call;                                               \
	} while (0)

#define trace_sched(call)                                           \
	do {                                                        \
		if (__builtin_expect(sched_trace_hooks != NULL, 0)) \
			call;                                       \
	} while (0)

#endif
