/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `perf stat [-n|--null] [-r|--repeat N] [--table] [-e|--event LIST]...
 * [-a|--all-cpus] [-C|--cpu LIST] [-x|--field-separator SEP] [--] COMMAND...`
 * in front of a benchmark command line: perf's own option names (tools/perf
 * builtin-stat.c); the rest of perf stat's options are not modelled.
 */
#ifndef SCHEDLAB_CLI_PERF_STAT_OPTS_H
#define SCHEDLAB_CLI_PERF_STAT_OPTS_H

#include "report/perf_stat.h"

#include <stdbool.h>
#include <stddef.h>

/* runs: perf has no limit (0 repeats forever); this is a typo guard */
#define PERF_STAT_MAX_REPEAT 1000

struct perf_stat_opts {
	int repeat;
	bool null_run;
	bool table;
	/* -e, -a, -C or -x given: count and print the perf_stat_config way */
	bool has_config;
	struct perf_stat_config config;
	int cmd_argc;		/* the command perf stat runs */
	char **cmd_argv;
};

/* Does the command line start with "perf stat"? */
bool perf_stat_cmdline(int argc, char **argv);
/* Does it hold "perf stat" anywhere (behind a prefix: nice -n 5 perf stat ...)? */
bool perf_stat_anywhere(int argc, char **argv);
/* The same for a command line as one string (a study file's workload line) */
bool perf_stat_in_words(const char *line);
/* Parse "perf stat ..." (@argv[0] "perf"); 0, or -1 with a one-line message. */
int perf_stat_parse(int argc, char **argv, struct perf_stat_opts *o, char *err, size_t errlen);

/*
 * How many per-task counters perf stat opens on the command (each one the
 * kernel switches with the task): the events the simulated kernel counts,
 * none for --null or CPU-wide counting (-a, -C)
 */
int perf_stat_task_counters(const struct perf_stat_opts *o);

#endif
