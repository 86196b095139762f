/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Comparisons of feature sets over seeded runs: what `ab` and `study`
 * print, write as JSON and plot. A comparison is a list of cases (a machine
 * and a command line), each run with every variant (a feature list) on the
 * same seeds; each row compares one metric of every variant with the first
 * variant's (base, before). docs/ab-and-studies.md.
 */
#ifndef SCHEDLAB_REPORT_COMPARE_H
#define SCHEDLAB_REPORT_COMPARE_H

#include "report/stats.h"
#include "work/bench.h"

#include <stdio.h>

#define RUN_MAX_VALUES 34
#define RUN_VALUE_NAME 40

struct run_value {
	char name[RUN_VALUE_NAME];
	double value;
	enum metric_better better;
};

#define RUN_WHY_LEN 1024

/* what one run measured: the benchmark's metrics, then scheduler counters */
struct run_record {
	bool finished;
	/* a run that did not finish: why, as `run` prints it (session_failure()) */
	char why[RUN_WHY_LEN];
	int nr;
	struct run_value v[RUN_MAX_VALUES];
	u64 events, sim_ns;
	double wall_s;
	/*
	 * perf stat's elapsed time of the command (the fork of its first task
	 * to that task's exit, perf_stat_collect()); valid only if has_elapsed
	 */
	bool has_elapsed;
	u64 elapsed_ns;
};

#define CMP_MAX_VARIANTS 8

struct cmp_case {
	const char *machine;
	const char *command;		/* the benchmark command line, one string */
	const char *options;		/* its study 'case' group's options, or NULL */
	struct run_record *recs;	/* [variant * nr_runs + run] */
};

struct comparison {
	const char *kind;		/* "ab" or "study" */
	const char *name;		/* the study's name, or NULL */
	const char *title;
	int nr_variants;
	const char *variant_name[CMP_MAX_VARIANTS];	/* "base", "test" / "before", ... */
	const char *variant_features[CMP_MAX_VARIANTS];	/* as given; "" = defaults */
	int nr_runs;
	u64 first_seed;			/* run r uses seed first_seed + r */
	double conf;			/* 0.95 */
	/* the metrics to show, in order; none: every metric that varies */
	const char *const *metrics;
	int nr_metrics;
	/* a case whose benchmark lacks a selected metric skips it (mixed workloads) */
	bool skip_missing;
	int nr_cases;
	struct cmp_case *cases;
};

struct cmp_row {
	char name[RUN_VALUE_NAME];
	enum metric_better better;
	bool constant;			/* every run of every variant gave one value */
	struct sample_summary s[CMP_MAX_VARIANTS];
	double ci[CMP_MAX_VARIANTS];	/* half-width of each mean's interval */
	struct mean_diff d[CMP_MAX_VARIANTS]; /* variant v - variant 0 */
};

/*
 * The rows of case @c: the selected metrics (or all, constant ones
 * included), at most @max. Returns how many; -1 with @err naming a
 * selected metric that the case's runs did not report (unless skip_missing).
 */
int cmp_rows(const struct comparison *cmp, int c, struct cmp_row *rows, int max, char *err,
	     size_t errlen);
/* 0 if every selected metric is reported by some case; -1 with @err naming one that is not. */
int cmp_check_metrics(const struct comparison *cmp, char *err, size_t errlen);
/* The values of one metric over the runs of variant @v, in seed order. */
void cmp_values(const struct comparison *cmp, int c, int v, const char *metric, double *out);

/* "better", "worse", "~" (interval holds 0); "higher"/"lower" for descriptive rows */
const char *cmp_verdict(const struct cmp_row *row, int v);
/* A number with about five significant digits, and a half-width at the same precision. */
void cmp_format(char *buf, size_t len, double mean, double half);

/* the text tables */
int cmp_print_ab(FILE *out, const struct comparison *cmp, char *err, size_t errlen);
int cmp_print_study(FILE *out, const struct comparison *cmp, char *err, size_t errlen);
/* --json: every run's values and every row's statistics */
int cmp_write_json(FILE *out, const struct comparison *cmp);
/*
 * --plot DIR: bars of each variant's means (relative to the first) and CDFs
 * over the runs; temporaries until outfile_commit(), then render with
 * plot_dir_render(DIR, "plots.gp")
 */
int cmp_plot(const char *dir, const struct comparison *cmp, char *err, size_t errlen);

#endif
