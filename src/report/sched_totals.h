/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Machine-wide sums of the scheduler's counters at the end of a run: what
 * the JSON's "sched" object leads with, and the scheduler rows `ab` and
 * `study` compare next to the benchmark's own metrics.
 */
#ifndef SCHEDLAB_REPORT_SCHED_TOTALS_H
#define SCHEDLAB_REPORT_SCHED_TOTALS_H

#include "sim/types.h"

struct sched_totals {
	u64 nr_switches;
	u64 nr_migrations;
	u64 ipi_sent;
	u64 ipi_resched, ipi_call;
	u64 ttwu_count, ttwu_local;
	u64 nr_ticks;
	u64 ttwu_queued, ttwu_direct, wake_without_ipi;
	u64 idle_fast, idle_full_pick;
	/* schedstat sched_info of the tasks: time runnable but waiting, times run */
	u64 run_delay_ns, pcount;
	u64 busy_ns, idle_ns;	/* summed over the CPUs */
};

void sched_totals_collect(struct sched_totals *t);

#endif
