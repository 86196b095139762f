/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SCHEDLAB_REPORT_LATENCY_PRINT_H
#define SCHEDLAB_REPORT_LATENCY_PRINT_H

#include <stdio.h>

/*
 * --latency: the run's per-task scheduling delays as `perf sched latency`
 * prints them (tasks merged by comm, sorted by average delay).
 */
void print_sched_latency(FILE *out);

#endif
