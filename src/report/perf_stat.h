/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `perf stat [-n] [-r N] -- COMMAND`: what perf stat counts for a command
 * (its software counters, inherited by every task it forks) and what it
 * prints after the command's own output, with the running mean and the
 * standard error of the mean of tools/perf/util/stat.c (update_stats(),
 * stddev_stats(), rel_stddev_stats()). docs/benchmarks.md, "perf stat".
 */
#ifndef SCHEDLAB_REPORT_PERF_STAT_H
#define SCHEDLAB_REPORT_PERF_STAT_H

#include "sim/types.h"

#include <stdbool.h>
#include <stdio.h>

/* perf's struct stats: Welford's running mean and sum of squared deviations */
struct perf_stats {
	double n, mean, M2;
};

void perf_stats_update(struct perf_stats *s, double val);
/* the standard deviation of the mean, sqrt(M2 / (n - 1) / n); 0 below 2 values */
double perf_stats_stddev(const struct perf_stats *s);
/* 100 * stddev / avg, 0 for avg 0 */
double perf_stats_rel(double stddev, double avg);

/* One run's counts, as perf stat reads them for the command's tasks. */
struct perf_stat_run {
	u64 elapsed_ns;		/* fork of the command's first task to its exit */
	u64 task_clock_ns;	/* time its tasks were on a CPU */
	u64 context_switches;	/* switches out of its tasks, the exits' last one not counted */
	u64 cpu_migrations;	/* set_task_cpu() to another CPU of its tasks */
	u64 utime_ns, stime_ns;	/* rusage of the reaped tasks */
};

/*
 * Read the counts of the run that just ended: the command is the first task
 * the workload started (no parent, not a kernel thread) and every task it
 * forked. false if there is no such task or it never exited.
 */
bool perf_stat_collect(struct perf_stat_run *r);

struct perf_stat_summary {
	int runs;
	bool null_run;		/* -n: no counters, only the elapsed time */
	bool table;		/* --table: each run's elapsed time */
	struct perf_stats walltime_ns, task_clock_ns, context_switches, cpu_migrations;
	u64 *walltime_run;	/* each run's elapsed ns, for --table and the JSON */
	struct perf_stat_run last;
};

void perf_stat_summary_init(struct perf_stat_summary *s, int runs, bool null_run, bool table);
void perf_stat_summary_add(struct perf_stat_summary *s, int idx, const struct perf_stat_run *r);
void perf_stat_summary_free(struct perf_stat_summary *s);

/*
 * What perf stat prints once every run ended: the header naming the command
 * (@argc/@argv, the command as given), the counter lines (not with -n), the
 * elapsed line and, for a single run, the rusage lines.
 */
void perf_stat_print(FILE *out, const struct perf_stat_summary *s, int argc, char **argv);

/* perf's get_precision(): decimals to show for a standard deviation @sd */
int perf_stat_precision(double sd);
/*
 * a count as perf's "%'.Nf" prints it: with the thousands separator of the
 * current (thread's) locale, none in C; perf_stat_print() sets perf's
 */
void perf_stat_group(char *buf, size_t len, double val, int decimals);

#endif
