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

/*
 * The events perf stat -e takes that schedlab counts: the software
 * counters and the sched tracepoints the simulated kernel fires. Events
 * perf knows that schedlab does not model print "<not supported>".
 */
enum perf_event_id {
	PERF_EV_TASK_CLOCK,
	PERF_EV_CPU_CLOCK,
	PERF_EV_CONTEXT_SWITCHES,
	PERF_EV_CPU_MIGRATIONS,
	PERF_EV_SCHED_SWITCH,
	PERF_EV_SCHED_WAKING,
	PERF_EV_SCHED_WAKEUP,
	PERF_EV_SCHED_WAKEUP_NEW,
	PERF_EV_SCHED_MIGRATE_TASK,
	PERF_EV_SCHED_PROCESS_FORK,
	PERF_EV_SCHED_PROCESS_EXIT,
	PERF_EV_NOT_SUPPORTED,	/* page-faults, cycles, ...: not modelled */
	NR_PERF_EV
};

#define PERF_STAT_MAX_EVENTS 64
#define PERF_EVENT_NAME_LEN 48

struct perf_stat_event {
	enum perf_event_id id;
	char name[PERF_EVENT_NAME_LEN];	/* as perf prints it: as given */
};

/*
 * Look up event @name (@len bytes): 0 and *@ev, or -1 for an event perf
 * would not parse either (its "event syntax error").
 */
int perf_stat_event_lookup(const char *name, size_t len, struct perf_stat_event *ev);
/* the names perf_stat_event_lookup() takes, for messages and docs */
extern const char perf_stat_event_names[];

/* What is counted and how it is printed: perf stat's -e, -a, -C, -x. */
struct perf_stat_config {
	int nr_events;			/* 0: perf's default list */
	struct perf_stat_event events[PERF_STAT_MAX_EVENTS];
	bool system_wide;		/* -a */
	const char *cpu_list;		/* -C, as given; NULL for all CPUs */
	const char *csv_sep;		/* -x; NULL for perf's columns */
};

/* One run's counts, as perf stat reads them for the command's tasks. */
struct perf_stat_run {
	u64 elapsed_ns;		/* fork of the command's first task to its exit */
	u64 task_clock_ns;	/* time its tasks were on a CPU */
	u64 context_switches;	/* switches out of its tasks, the exits' last one not counted */
	u64 cpu_migrations;	/* set_task_cpu() to another CPU of its tasks */
	u64 utime_ns, stime_ns;	/* rusage of the reaped tasks */
	/* with a perf_stat_config: each event's count and running time */
	double val[PERF_STAT_MAX_EVENTS];
	u64 run_ns;
};

/*
 * Count the configured events through the run about to start (after
 * session_start(), before session_run()): the tracepoint counts and, with
 * -a/-C, the per-CPU counts. @cpus is the -C selection (NULL: every CPU).
 * perf_stat_count_stop() detaches; perf_stat_collect() reads them.
 */
void perf_stat_count_start(const struct perf_stat_config *c, const bool *cpus);
void perf_stat_count_stop(void);
/*
 * -C LIST for a machine of @nr_cpus: a new array of @nr_cpus flags, or NULL
 * with a message in @err
 */
bool *perf_stat_parse_cpus(const char *list, unsigned int nr_cpus, char *err, size_t errlen);

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
	const struct perf_stat_config *config;	/* NULL: the defaults */
	struct perf_stats val[PERF_STAT_MAX_EVENTS];
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
