/* SPDX-License-Identifier: GPL-2.0-only */
/* `run --json FILE`: the machine-readable record of one run (docs/json-schema.md). */
#ifndef SCHEDLAB_REPORT_RUN_JSON_H
#define SCHEDLAB_REPORT_RUN_JSON_H

#include "report/perf_stat.h"
#include "work/bench.h"
#include <stdio.h>

struct cost_profile;

struct run_info {
	const char *machine;
	const struct cost_profile *profile;	/* --costs FILE, NULL: none */
	const char *guest;			/* --guest SPEC as given, NULL: none */
	u64 seed;
	int argc;
	char **argv;		/* the benchmark command line */
	double wall_s;		/* host time the simulation took: the one non-deterministic field */
	u64 events;
	u64 sim_time_ns;
	const char *trace;	/* --trace FILE, NULL if none: the lines written per event go in */
	/* perf stat COMMAND: its summary over the runs, NULL if not run under perf stat */
	const struct perf_stat_summary *perf_stat;
	int argc_given;		/* the command line as given, perf stat and all */
	char **argv_given;
	u64 base_seed;		/* --seed: the first run's */
	/* --also: the background workloads (work group i + 1), as given and as parsed */
	int nr_also;
	const char *const *also_cmd;
	struct bench *const *also;
	/*
	 * a run that did not finish: why (NULL if it finished), which workload
	 * (0 the benchmark, k the k-th --also, -1 none: a limit) and when
	 */
	const char *fail_why;
	int fail_workload;
	u64 fail_ns;
};

/* Returns 0, or -1 if writing failed. */
int write_run_json(FILE *out, const struct run_info *ri, const struct bench *b);

#endif
