/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduler's tracepoints (include/trace/events/sched.h, ipi.h,
 * power.h line of thought). Each is one branch on a global flag when
 * tracing is off; the records go to the ftrace text writer in
 * src/report/ftrace.c.
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
	NR_TRACE_EVENTS
};

/* what an IPI was for: the reason ipi_entry/ipi_exit print */
enum trace_ipi {
	TRACE_IPI_RESCHEDULE,
	TRACE_IPI_CALL_FUNC,
};

/* set while a trace is being written; the tracepoints test it first */
extern bool sched_tracing;
/* set while --plot records; the wakeup-latency hook tests it first */
extern bool sched_plotting;

void __trace_sched_switch(bool preempt, struct task_struct *prev, struct task_struct *next);
void __trace_sched_wake(enum trace_event ev, struct task_struct *p, unsigned int target_cpu);
void __trace_sched_migrate_task(struct task_struct *p, unsigned int dest_cpu);
void __trace_cpu_idle(unsigned int state, unsigned int cpu);
void __trace_ipi_send_cpu(unsigned int cpu, enum trace_ipi why);
void __trace_ipi_irq(enum trace_event ev, enum trace_ipi why);
/* a woken task waited @ns from its wakeup until it ran (src/report/plot.c) */
void __plot_wakeup_latency(u64 ns);

/* cpu_idle's state when a CPU leaves idle: (u32)PWR_EVENT_EXIT */
#define TRACE_PWR_EVENT_EXIT 4294967295U

#define plot_sched(call)                                \
	do {                                            \
		if (__builtin_expect(sched_plotting, 0)) \
			call;                           \
	} while (0)

#define trace_sched(call)                               \
	do {                                            \
		if (__builtin_expect(sched_tracing, 0)) \
			call;                           \
	} while (0)

#endif
