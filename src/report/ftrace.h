/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --trace FILE: the scheduler's tracepoints as an ftrace text trace (the
 * format of tracefs's `trace` file), which ui.perfetto.dev and
 * trace_processor import as per-CPU scheduling tracks. docs/observability.md.
 */
#ifndef SCHEDLAB_REPORT_FTRACE_H
#define SCHEDLAB_REPORT_FTRACE_H

#include "kernel/trace.h"

#include <stddef.h>

/*
 * Start tracing into @path (call after the machine is set up). @window is
 * "START:END" in simulated seconds (END may be empty: to the end), NULL for
 * the whole run; @events a comma-separated list of event names or groups
 * (sched, ipi, power), NULL for all. 0, or -1 with a one-line message.
 */
int ftrace_open(const char *path, const char *window, const char *events, char *err, size_t errlen);
/* Write out what is buffered and close; 0, or -1 if writing failed. */
int ftrace_close(void);
/* Lines written per event (for the JSON record and tests). */
unsigned long long ftrace_count(enum trace_event ev);
const char *ftrace_event_name(enum trace_event ev);

#endif
