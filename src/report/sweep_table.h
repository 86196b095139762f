/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A sweep's collected table (`schedlab sweep PLAN --collect`): one row per
 * point of the grid without its seed, one column per axis, and per metric
 * the mean over the seeds with the half-width of its confidence interval
 * (Student's t, as `ab` and `study`). Printed as text, CSV and JSON, and
 * drawn with gnuplot against each numeric axis. docs/sweeps.md.
 */
#ifndef SCHEDLAB_REPORT_SWEEP_TABLE_H
#define SCHEDLAB_REPORT_SWEEP_TABLE_H

#include <stdio.h>

struct sweep_row {
	const char **axis;	/* [nr_axes]; "" where the row's workload does not use it */
	int done, failed, missing;	/* its points (seeds), by state */
	int corrupt;		/* of the failed: a result file that does not read (marked '!') */
	double *v;		/* [metric * nr_seeds + seed]; NaN where there is no value */
};

struct sweep_table {
	const char *name;		/* the plan's, or NULL */
	int nr_axes;
	const char *const *axis_names;
	int nr_metrics;
	const char *const *metrics;
	int nr_seeds;
	double conf;			/* 0.95 */
	int nr_rows;
	struct sweep_row *rows;
	/* the axis whose values are the plots' lines ("features"); the others too, if they vary */
	const char *line_axis;
};

/* the text table; 0, or -1 if writing failed */
int sweep_table_print(FILE *out, const struct sweep_table *t);
/* the same as CSV: axes, seeds done/failed/missing, then NAME_mean and NAME_ciPCT per metric */
int sweep_table_csv(FILE *out, const struct sweep_table *t);
/* and as JSON, with every seed's value */
int sweep_table_json(FILE *out, const struct sweep_table *t);
/*
 * --plot DIR: each metric against each numeric axis, one line (with error
 * bars) per value of the other axes; data and plots.gp as temporaries until
 * outfile_commit(), then render with plot_dir_render(DIR, "plots.gp").
 * 0, or -1 with a message in @err. *@nr_plots: how many pictures.
 */
int sweep_table_plot(const char *dir, const struct sweep_table *t, int *nr_plots, char *err,
		     size_t errlen);

#endif
