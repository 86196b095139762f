/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schedlab validate: a fixed set of real benchmark command lines, run on
 * this machine under perf stat and simulated on -m host; the parsing of
 * their outputs and the table, apart from the running so that they can be
 * tested on recorded outputs. docs/calibration.md.
 */
#ifndef SCHEDLAB_CALIB_VALIDATE_H
#define SCHEDLAB_CALIB_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* the software counters both sides count */
#define VALIDATE_EVENTS "context-switches,cpu-migrations,task-clock"
#define VALIDATE_RUNS 5
#define VALIDATE_QUICK_RUNS 2
#define VALIDATE_MAX_RUNS 16
#define VALIDATE_MAX_RUNS_STR "16"

/* the target issue 23 set, on an idle machine after calibrate (docs/calibration.md) */
#define VALIDATE_PINNED_WITHIN 0.20
#define VALIDATE_UNPINNED_WITHIN 0.35
#define VALIDATE_CS_WITHIN 0.30

struct validate_row {
	const char *cmd; /* the command line, words split on blanks */
	const char *tool; /* the program it needs besides perf: NULL, "hackbench", "stress-ng" */
	bool pinned; /* on one CPU (taskset -c 0) */
};

extern const struct validate_row validate_rows[];
extern const int nr_validate_rows;

/* the Debian package that provides @tool ("perf", "hackbench", "stress-ng") */
const char *validate_package(const char *tool);

/* one run: the benchmark's time and perf stat's counters; NAN where missing */
struct validate_sample {
	double time_s; /* the benchmark's own time ("Total time:", "Time:"), else wall */
	double cs, migr, task_ms;
};

struct validate_result {
	bool skipped;
	char why[160]; /* why skipped, or why a side failed */
	int nr_real;
	struct validate_sample real[VALIDATE_MAX_RUNS];
	/*
	 * the simulated runs, seeds 1..nr_sim: one seed's run is one tick phase
	 * and one set of workload streams, and counts such as context switches
	 * move between seeds as they do between real runs
	 */
	bool sim_ok; /* every simulated run gave its output */
	int nr_sim;
	struct validate_sample sim[VALIDATE_MAX_RUNS];
};

/*
 * Read a run's output: the benchmark's time from its own lines, perf stat
 * -x, CSV lines for the counters (both may be in @text, in any order).
 * Fields not found are NAN; @wall_s (or NAN) is the time when the benchmark
 * prints none. 0, or -1 if neither a time nor a counter was found.
 */
int validate_parse(const char *text, double wall_s, struct validate_sample *s);

/* median, minimum and maximum of field @off (offsetof) over @n samples, NANs skipped */
void validate_stats(const struct validate_sample *v, int n, size_t off, double *med, double *min,
		    double *max);

/*
 * The real runs of an earlier `validate --json` (@text, from @file) into
 * @res for @rows: a row is matched by its command line; one the file does
 * not have, or has skipped, is skipped. 0, or -1 with "FILE: what is wrong"
 * in @err when @text is not such a file.
 */
int validate_read_real(const char *text, const char *file, const struct validate_row *rows,
		       struct validate_result *res, int n, char *err, size_t errlen);

/*
 * The table: real and simulated median [min, max], the ratio of the medians,
 * the counters' medians side by side.
 */
void validate_print_table(FILE *out, const struct validate_row *rows,
			  const struct validate_result *res, int n);
/* The same as JSON (docs/json-schema.md "schedlab validate --json"). */
int validate_write_json(FILE *out, const struct validate_row *rows,
			const struct validate_result *res, int n, const char *profile,
			const char *features);
/*
 * Simulated against real: DIR/validate.dat and validate.gp (temporaries until
 * outfile_commit(); then plot_dir_render(DIR, "validate.gp")); 0 or -1.
 */
int validate_plot(const char *dir, const struct validate_row *rows,
		  const struct validate_result *res, int n);

#endif
