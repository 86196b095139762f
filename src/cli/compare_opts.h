/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options `ab` and `study` share: how many runs, how many at once, the
 * confidence level, and the --json/--plot outputs of the comparison.
 */
#ifndef SCHEDLAB_CLI_COMPARE_OPTS_H
#define SCHEDLAB_CLI_COMPARE_OPTS_H

#include "report/compare.h"

#include <getopt.h>
#include <stdio.h>

/* runs per variant and case: at least two for an interval; the most anyone waits for */
#define COMPARE_MIN_RUNS 2
#define COMPARE_MAX_RUNS 10000

/*
 * --confidence, in percent: above 99.9 the t quantile of two runs (one
 * degree of freedom) passes 600 and the intervals stop meaning anything
 * (99.99999999999 gave half widths of 2^40).
 */
#define COMPARE_MIN_CONFIDENCE 50.0
#define COMPARE_MAX_CONFIDENCE 99.9

struct compare_opts {
	u64 runs;		/* 0: the command's default */
	u64 jobs;		/* 0: the CPUs available */
	double conf;
	const char *json;
	const char *plot;
	FILE *json_file;	/* opened by compare_outputs_open(), a temporary */
};

#define COMPARE_LONG_OPTIONS                                                                     \
	{ "runs", required_argument, NULL, 'n' }, { "jobs", required_argument, NULL, 'j' },       \
	{ "confidence", required_argument, NULL, 'q' }, { "json", required_argument, NULL, 'J' }, \
	{ "plot", required_argument, NULL, 'p' }

#define COMPARE_OPTIONS_HELP                                                                  \
	"  -j, --jobs N         runs at once, one process each (default: the CPUs available)\n" \
	"  --confidence PCT     confidence level of the intervals, 50 to 99.9 (default 95)\n"               \
	"  --json FILE          every run's values and every row's statistics\n"

void compare_opts_init(struct compare_opts *o);
/* Take option @c of command @cmd: 0 taken, 1 not one of these, EXIT_BAD_INPUT (message printed). */
int compare_opt(const char *cmd, int c, const char *arg, struct compare_opts *o);
/* Before any run: the plot directory and the JSON file. 0, or EXIT_BAD_INPUT with a message. */
int compare_outputs_open(const char *cmd, struct compare_opts *o);
/*
 * After the table: write the JSON and the plots and put them in place; 0,
 * or 1 (128 + the signal if interrupted) with a message and nothing
 * written.
 */
int compare_outputs_write(const char *cmd, struct compare_opts *o, const struct comparison *cmp);
/* Remove what compare_outputs_open() opened and was not put in place. */
void compare_outputs_close(struct compare_opts *o);

#endif
