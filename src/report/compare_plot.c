// SPDX-License-Identifier: GPL-2.0-only
/*
 * --plot DIR of `ab` and `study`. Per case, two pictures:
 *   PREFIX-bars: every metric that varies, each variant's mean as a
 *     percentage of the first variant's, with the mean's confidence
 *     interval as an error bar (one scale for seconds, counts and rates);
 *   PREFIX-cdf: the empirical CDF over the runs of the first metric with a
 *     direction (the benchmark's headline number), one step line per
 *     variant: overlap at a glance, without trusting a summary.
 * PREFIX is "ab", or the study's name and the case number.
 */
#include "report/compare.h"
#include "report/outfile.h"
#include "report/plot_dir.h"
#include "sim/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static bool shown(const struct cmp_row *row)
{
	return !row->constant && row->s[0].mean != 0;
}

static void write_bars(const char *dir, const char *prefix, const struct comparison *cmp,
		       const struct cmp_row *rows, int n, bool *failed)
{
	char name[256];
	FILE *f;

	snprintf(name, sizeof(name), "%s-bars.dat", prefix);
	f = plot_dir_open(dir, name, failed);
	if (!f)
		return;
	fprintf(f, "# metric, then per variant: mean, low and high end of its %g%% interval,\n"
		   "# all as %% of the %s mean\n", cmp->conf * 100, cmp->variant_name[0]);
	for (int i = 0; i < n; i++) {
		double base = fabs(rows[i].s[0].mean);

		if (!shown(&rows[i]))
			continue;
		fprintf(f, "%s", rows[i].name);
		for (int v = 0; v < cmp->nr_variants; v++)
			fprintf(f, " %.4f %.4f %.4f", 100 * rows[i].s[v].mean / base,
				100 * (rows[i].s[v].mean - rows[i].ci[v]) / base,
				100 * (rows[i].s[v].mean + rows[i].ci[v]) / base);
		fputc('\n', f);
	}
	plot_dir_close(f, failed);
}

/* the CDF data: one block (gnuplot index) per variant */
static void write_cdf(const char *dir, const char *prefix, const struct comparison *cmp, int c,
		      const char *metric, bool *failed)
{
	double *x = xcalloc((size_t)cmp->nr_runs, sizeof(*x));
	char name[256];
	FILE *f;

	snprintf(name, sizeof(name), "%s-cdf.dat", prefix);
	f = plot_dir_open(dir, name, failed);
	if (!f) {
		*failed = true;
		free(x);
		plot_dir_close(f, failed);
		return;
	}
	fprintf(f, "# %s over the runs, per variant: value, fraction of runs at or below it\n",
		metric);
	for (int v = 0; v < cmp->nr_variants; v++) {
		cmp_values(cmp, c, v, metric, x);
		qsort(x, (size_t)cmp->nr_runs, sizeof(*x), cmp_double);
		fprintf(f, "# %s\n", cmp->variant_name[v]);
		/* the steps start from 0 at the smallest value */
		fprintf(f, "%.9g %.6f\n", x[0], 0.0);
		for (int r = 0; r < cmp->nr_runs; r++)
			fprintf(f, "%.9g %.6f\n", x[r], (double)(r + 1) / cmp->nr_runs);
		fputs("\n\n", f);
	}
	free(x);
	plot_dir_close(f, failed);
}

/* "MACHINE [OPTIONS]: COMMAND" inside the script's quotes (an --also's quotes doubled) */
static void title(FILE *f, const struct comparison *cmp, int c)
{
	plot_dir_quote(f, cmp->cases[c].machine);
	if (cmp->cases[c].options) {
		fputs(" ", f);
		plot_dir_quote(f, cmp->cases[c].options);
	}
	fputs(": ", f);
	plot_dir_quote(f, cmp->cases[c].command);
}

static void script_case(FILE *f, const char *prefix, const struct comparison *cmp, int c,
			const char *metric, int nr_bars, const char *ext)
{
	fprintf(f, "set output '%s-bars.%s'\n", prefix, ext);
	fprintf(f, "reset; set termoption noenhanced\nset title '");
	title(f, cmp, c);
	fputs("'\n", f);
	fprintf(f, "set ylabel '%% of %s mean (error bars: %g%% interval)'\n",
		cmp->variant_name[0], cmp->conf * 100);
	fputs("set style data histograms; set style histogram errorbars gap 2 lw 1\n"
	      "set style fill solid 0.6 border -1; set grid ytics; set key outside top center horizontal\n"
	      "set xtics rotate by -30; set auto x\n",
	      f);
	if (nr_bars) {
		fputs("plot ", f);
		for (int v = 0; v < cmp->nr_variants; v++)
			fprintf(f, "%s'%s-bars.dat' using %d:%d:%d%s title '%s'",
				v ? ", " : "", prefix, 2 + 3 * v, 3 + 3 * v, 4 + 3 * v,
				v ? "" : ":xtic(1)", cmp->variant_name[v]);
		fputc('\n', f);
	} else {
		/* nothing varied: say so on the picture instead of drawing nothing */
		fputs("set label 1 'no metric varied between the runs' at graph 0.5,0.5 center\n"
		      "unset xtics; set yrange [0:1]; plot NaN notitle\n",
		      f);
	}
	if (!metric)
		return;
	fprintf(f, "set output '%s-cdf.%s'\n", prefix, ext);
	fprintf(f, "reset; set termoption noenhanced\nset title '%s over %d runs: ", metric,
		cmp->nr_runs);
	title(f, cmp, c);
	fputs("'\n", f);
	fprintf(f, "set xlabel '%s'; set ylabel 'fraction of runs'; set yrange [0:1.05]; set grid\n"
		   "set key bottom right\nplot ", metric);
	for (int v = 0; v < cmp->nr_variants; v++)
		fprintf(f, "%s'%s-cdf.dat' index %d using 1:2 with steps lw 2 title '%s'",
			v ? ", " : "", prefix, v, cmp->variant_name[v]);
	fputc('\n', f);
}

int cmp_plot(const char *dir, const struct comparison *cmp, char *err, size_t errlen)
{
	static const char *const terms[][2] = { { "png", PLOT_TERM_PNG }, { "svg", PLOT_TERM_SVG } };
	bool failed = false;
	FILE *gp;

	gp = plot_dir_open(dir, "plots.gp", &failed);
	if (!gp) {
		snprintf(err, errlen, "--plot: cannot write the script in '%s'", dir);
		return -1;
	}
	fprintf(gp, "# Render with: gnuplot %s/plots.gp (written by schedlab %s --plot)\n", dir,
		cmp->kind);
	fprintf(gp, "cd '%s'\n", dir);
	for (int c = 0; c < cmp->nr_cases; c++) {
		struct cmp_row rows[RUN_MAX_VALUES];
		const char *metric = NULL;
		char prefix[128];
		int n = cmp_rows(cmp, c, rows, RUN_MAX_VALUES, err, errlen), bars = 0;

		if (n < 0) {
			outfile_close(gp);
			return -1;
		}
		if (cmp->name)
			snprintf(prefix, sizeof(prefix), "%s-%d", cmp->name, c + 1);
		else
			snprintf(prefix, sizeof(prefix), "%s", cmp->kind);
		for (int i = 0; i < n; i++) {
			bars += shown(&rows[i]);
			if (!metric && rows[i].better != METRIC_INFO)
				metric = rows[i].name;
		}
		write_bars(dir, prefix, cmp, rows, n, &failed);
		if (metric)
			write_cdf(dir, prefix, cmp, c, metric, &failed);
		for (size_t t = 0; t < sizeof(terms) / sizeof(terms[0]); t++) {
			fprintf(gp, "\n%s\n", terms[t][1]);
			script_case(gp, prefix, cmp, c, metric, bars, terms[t][0]);
			fputs("unset output\n", gp);
		}
	}
	plot_dir_close(gp, &failed);
	if (failed) {
		snprintf(err, errlen, "--plot: writing into '%s' failed", dir);
		return -1;
	}
	return 0;
}
