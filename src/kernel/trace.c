// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracepoints' hook pointers. They live in the kernel, not in their
 * consumers, so that src/kernel links on its own (the layer check in
 * scripts/check-layers.sh links it without src/report to prove it).
 */
#include "kernel/trace.h"

#include <stddef.h>

const struct sched_trace_hooks *sched_trace_hooks;
void (*sched_wakeup_latency_hook)(u64 ns);

void register_sched_trace_hooks(const struct sched_trace_hooks *hooks)
{
	sched_trace_hooks = hooks;
}

void register_wakeup_latency_hook(void (*fn)(u64 ns))
{
	sched_wakeup_latency_hook = fn;
}
