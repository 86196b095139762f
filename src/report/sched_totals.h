/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Machine-wide sums of the scheduler's counters at the end of a run: what
 * the JSON's "sched" object leads with, and the scheduler rows `ab` and
 * `study` compare next to the benchmark's own metrics.
 */
#ifndef SCHEDLAB_REPORT_SCHED_TOTALS_H
#define SCHEDLAB_REPORT_SCHED_TOTALS_H

#include "sim/types.h"

#include <stdbool.h>

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

/*
 * The run's energy (docs/energy.md): what the JSON's "energy" part totals,
 * in femtojoules (ns x uW is 1e-15 J), and the longest CPU clock it covers.
 */
struct energy_totals {
	unsigned __int128 total_fj;
	u64 ns;
};

/*
 * Whether the run reports energy: a governor was chosen (--cpufreq) and
 * the machine has an energy model; the JSON and the energy.* rows of
 * `ab` and `study` then have it
 */
bool energy_reported(void);
void energy_totals_collect(struct energy_totals *e);
double energy_totals_j(const struct energy_totals *e);
double energy_totals_mean_mw(const struct energy_totals *e);

#endif
