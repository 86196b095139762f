/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `perf sched record` and its reports: `perf sched latency`, `perf sched
 * timehist` and `perf sched map`, all from one capture of the sched
 * tracepoints perf sched record takes (sched_switch, sched_waking,
 * sched_wakeup_new, sched_migrate_task) as tools/perf/builtin-sched.c of Linux v6.18 reads
 * them from perf.data. The capture is a text file of its own (not perf's
 * binary perf.data), written by `schedlab run -- perf sched record` and
 * read by `schedlab perf sched REPORT -i FILE`. docs/observability.md,
 * "perf sched".
 */
#ifndef SCHEDLAB_REPORT_PERF_SCHED_H
#define SCHEDLAB_REPORT_PERF_SCHED_H

#include "sim/types.h"

#include <stdbool.h>
#include <stdio.h>

enum psched_type {
	PSCHED_SWITCH,
	PSCHED_WAKING,
	PSCHED_WAKEUP_NEW,
	PSCHED_MIGRATE,
};

#define PSCHED_COMM_LEN 16

/* a task as a tracepoint names it */
struct psched_task {
	int pid;	/* the kernel's pid: perf's tid */
	int tgid;	/* perf's pid */
	int prio;
	char comm[PSCHED_COMM_LEN];
};

struct psched_event {
	u64 ts;
	unsigned int cpu;
	enum psched_type type;
	/* switch: prev; wakeup, wakeup_new, migrate: the task */
	struct psched_task task;
	/* switch: next; wakeup, wakeup_new, migrate: the task running (the waker) */
	struct psched_task next;
	char prev_state;	/* switch: R (R+ too), S, D, Z, as perf's evsel__taskstate() */
	unsigned int target_cpu;	/* wakeup: target_cpu; migrate: orig_cpu */
	unsigned int dest_cpu;		/* migrate */
};

struct psched_capture {
	unsigned int nr_cpus;
	char machine[64];
	size_t nr, cap;
	struct psched_event *ev;
};

/*
 * Record the run about to start (after session_start()): the tracepoints'
 * events, passed on to a trace being written too. perf_sched_record_stop()
 * detaches and leaves the events in time order in @cap.
 */
void perf_sched_record_start(void);
void perf_sched_record_stop(struct psched_capture *cap, const char *machine_name,
			    unsigned int nr_cpus);
void psched_capture_free(struct psched_capture *cap);
void psched_capture_add(struct psched_capture *cap, const struct psched_event *e);

/* the capture file: 0, or -1 (write: a failed write; read: a message in @err) */
int psched_write(FILE *f, const struct psched_capture *cap);
int psched_read(FILE *f, const char *name, struct psched_capture *cap, char *err, size_t errlen);

/* perf sched latency's sort keys, as -s takes them */
enum psched_sort_key {
	PSCHED_SORT_PID,
	PSCHED_SORT_AVG,
	PSCHED_SORT_MAX,
	PSCHED_SORT_SWITCH,
	PSCHED_SORT_RUNTIME,
};

#define PSCHED_MAX_SORT 16

struct psched_latency_opts {
	int nr_sort;
	enum psched_sort_key sort[PSCHED_MAX_SORT];
	bool pids;		/* -p: one row per task, not per comm */
	int profile_cpu;	/* -C: -1 for none */
};

/* -s LIST ("avg, max" or "avg,max"): 0, or -1 with perf's message in @err */
int psched_parse_sort(const char *list, struct psched_latency_opts *o, char *err, size_t errlen);

/* one row of perf sched latency (struct work_atoms, merged or not) */
struct psched_lat_row {
	char comm[PSCHED_COMM_LEN];
	int tid;
	int num_merged;
	u64 total_runtime;
	u64 nb_atoms;
	u64 total_lat;
	u64 max_lat, max_lat_start, max_lat_end;
};

/*
 * perf sched latency's rows in its print order (the idle task left out, as
 * perf does): a new array in *@rows, their number returned
 */
size_t psched_latency_rows(const struct psched_capture *cap, const struct psched_latency_opts *o,
			   struct psched_lat_row **rows, long *unordered, long *timestamps,
			   long *switch_bugs);
void psched_latency_print(FILE *out, const struct psched_capture *cap,
			  const struct psched_latency_opts *o);
struct psched_timehist_opts {
	bool wakeups;		/* -w: a line per wakeup */
	bool migrations;	/* -M: a line per migration */
};

void psched_timehist_print(FILE *out, const struct psched_capture *cap,
			   const struct psched_timehist_opts *o);

struct psched_map_opts {
	bool compact;
	const bool *cpus;	/* --cpus: the CPUs shown; NULL: all */
};

void psched_map_print(FILE *out, const struct psched_capture *cap, const struct psched_map_opts *o);

#endif
