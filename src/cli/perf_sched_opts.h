/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `perf sched record [-o FILE] [--] COMMAND...` as the command of
 * `schedlab run`: the run is recorded to FILE (perf.data by default) for
 * `schedlab perf sched latency|timehist|map` (src/cli/cmd_perf.c).
 */
#ifndef SCHEDLAB_CLI_PERF_SCHED_OPTS_H
#define SCHEDLAB_CLI_PERF_SCHED_OPTS_H

#include <stdbool.h>
#include <stddef.h>

struct perf_sched_record_opts {
	const char *output;
	int cmd_argc;		/* the command perf sched record runs */
	char **cmd_argv;
};

/* Does the command line start with "perf sched record"? */
bool perf_sched_record_cmdline(int argc, char **argv);
/* Parse it (@argv[0] "perf"); 0, or -1 with a one-line message. */
int perf_sched_record_parse(int argc, char **argv, struct perf_sched_record_opts *o, char *err,
			    size_t errlen);

#endif
