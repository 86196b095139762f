// SPDX-License-Identifier: GPL-2.0-only
#include "report/sweep_table.h"

#include "report/compare.h"
#include "report/json.h"
#include "report/plot_dir.h"
#include "report/stats.h"
#include "report/version.h"
#include "sim/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the mean and interval of metric @m in row @r over the seeds that have a value */
static int row_stats(const struct sweep_table *t, const struct sweep_row *r, int m, double *mean,
		     double *half)
{
	double *x = xcalloc((size_t)t->nr_seeds, sizeof(*x));
	struct sample_summary s;
	int n = 0;

	for (int sd = 0; sd < t->nr_seeds; sd++)
		if (!isnan(r->v[m * t->nr_seeds + sd]))
			x[n++] = r->v[m * t->nr_seeds + sd];
	sample_summarize(x, n, &s);
	free(x);
	*mean = n ? s.mean : NAN;
	*half = n > 1 ? mean_ci_half(&s, t->conf) : 0;
	return n;
}

/* display width: UTF-8 continuation bytes take no column */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void cell(FILE *out, const char *s, int w, bool last)
{
	fputs(s, out);
	if (!last)
		for (int i = width(s); i < w + 2; i++)
			fputc(' ', out);
}

static void metric_text(char *buf, size_t len, const struct sweep_table *t,
			const struct sweep_row *r, int m)
{
	double mean, half;

	if (!row_stats(t, r, m, &mean, &half))
		snprintf(buf, len, "-");
	else
		cmp_format(buf, len, mean, half);
}

/* "done/seeds", and a '!' when one of the row's results is corrupt */
static void seeds_text(char *buf, size_t len, const struct sweep_table *t,
		       const struct sweep_row *r)
{
	snprintf(buf, len, "%d/%d%s", r->done, t->nr_seeds, r->corrupt ? "!" : "");
}

int sweep_table_print(FILE *out, const struct sweep_table *t)
{
	int nc = t->nr_axes + 1 + t->nr_metrics;
	int *w = xcalloc((size_t)nc, sizeof(*w));
	bool corrupt = false;
	char buf[128];

	for (int c = 0; c < t->nr_axes; c++)
		w[c] = width(t->axis_names[c]);
	w[t->nr_axes] = width("seeds");
	for (int m = 0; m < t->nr_metrics; m++)
		w[t->nr_axes + 1 + m] = width(t->metrics[m]);
	for (int i = 0; i < t->nr_rows; i++) {
		const struct sweep_row *r = &t->rows[i];

		for (int c = 0; c < t->nr_axes; c++)
			if (width(*r->axis[c] ? r->axis[c] : "-") > w[c])
				w[c] = width(*r->axis[c] ? r->axis[c] : "-");
		seeds_text(buf, sizeof(buf), t, r);
		corrupt |= r->corrupt > 0;
		if (width(buf) > w[t->nr_axes])
			w[t->nr_axes] = width(buf);
		for (int m = 0; m < t->nr_metrics; m++) {
			metric_text(buf, sizeof(buf), t, r, m);
			if (width(buf) > w[t->nr_axes + 1 + m])
				w[t->nr_axes + 1 + m] = width(buf);
		}
	}
	for (int c = 0; c < t->nr_axes; c++)
		cell(out, t->axis_names[c], w[c], false);
	cell(out, "seeds", w[t->nr_axes], !t->nr_metrics);
	for (int m = 0; m < t->nr_metrics; m++)
		cell(out, t->metrics[m], w[t->nr_axes + 1 + m], m == t->nr_metrics - 1);
	fputc('\n', out);
	for (int i = 0; i < t->nr_rows; i++) {
		const struct sweep_row *r = &t->rows[i];

		for (int c = 0; c < t->nr_axes; c++)
			cell(out, *r->axis[c] ? r->axis[c] : "-", w[c], false);
		seeds_text(buf, sizeof(buf), t, r);
		cell(out, buf, w[t->nr_axes], !t->nr_metrics);
		for (int m = 0; m < t->nr_metrics; m++) {
			metric_text(buf, sizeof(buf), t, r, m);
			cell(out, buf, w[t->nr_axes + 1 + m], m == t->nr_metrics - 1);
		}
		fputc('\n', out);
	}
	fprintf(out,
		"\nseeds: points done of the plan's seeds. Each metric: mean over the seeds ± the\n"
		"half-width of its %g%% confidence interval (Student's t; no ± when all seeds agree).\n",
		t->conf * 100);
	if (corrupt)
		fprintf(out, "!: a seed's result file is corrupt: not counted, listed below.\n");
	free(w);
	return ferror(out) ? -1 : 0;
}

/* a CSV field: quoted when it holds a comma, a quote or a blank */
static void csv_field(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	if (!strpbrk(s, ",\" \t")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

int sweep_table_csv(FILE *out, const struct sweep_table *t)
{
	char buf[RUN_VALUE_NAME + 16];

	for (int c = 0; c < t->nr_axes; c++)
		csv_field(out, t->axis_names[c], !c);
	fputs(",done,failed,missing", out);
	for (int m = 0; m < t->nr_metrics; m++) {
		snprintf(buf, sizeof(buf), "%s_mean", t->metrics[m]);
		csv_field(out, buf, false);
		snprintf(buf, sizeof(buf), "%s_ci%g", t->metrics[m], t->conf * 100);
		csv_field(out, buf, false);
	}
	fputc('\n', out);
	for (int i = 0; i < t->nr_rows; i++) {
		const struct sweep_row *r = &t->rows[i];

		for (int c = 0; c < t->nr_axes; c++)
			csv_field(out, r->axis[c], !c);
		fprintf(out, ",%d,%d,%d", r->done, r->failed, r->missing);
		for (int m = 0; m < t->nr_metrics; m++) {
			double mean, half;

			if (row_stats(t, r, m, &mean, &half))
				fprintf(out, ",%.10g,%.10g", mean, half);
			else
				fputs(",,", out);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

int sweep_table_json(FILE *out, const struct sweep_table *t)
{
	struct json_writer w;

	json_init(&w, out);
	json_begin_object(&w);
	json_kv_str(&w, "kind", "sweep");
	json_kv_schedlab(&w);
	json_kv_str(&w, "name", t->name);
	json_kv_double(&w, "confidence", t->conf);
	json_kv_u64(&w, "seeds", (u64)t->nr_seeds);
	json_key(&w, "axes");
	json_begin_array(&w);
	for (int c = 0; c < t->nr_axes; c++)
		json_str(&w, t->axis_names[c]);
	json_end_array(&w);
	json_key(&w, "rows");
	json_begin_array(&w);
	for (int i = 0; i < t->nr_rows; i++) {
		const struct sweep_row *r = &t->rows[i];

		json_begin_object(&w);
		json_key(&w, "axes");
		json_begin_object(&w);
		for (int c = 0; c < t->nr_axes; c++)
			if (*r->axis[c])
				json_kv_str(&w, t->axis_names[c], r->axis[c]);
		json_end_object(&w);
		json_kv_u64(&w, "done", (u64)r->done);
		json_kv_u64(&w, "failed", (u64)r->failed);
		json_kv_u64(&w, "missing", (u64)r->missing);
		if (r->corrupt)
			json_kv_u64(&w, "corrupt", (u64)r->corrupt);
		json_key(&w, "metrics");
		json_begin_object(&w);
		for (int m = 0; m < t->nr_metrics; m++) {
			double mean, half;

			if (!row_stats(t, r, m, &mean, &half))
				continue;
			json_key(&w, t->metrics[m]);
			json_begin_object(&w);
			json_kv_double(&w, "mean", mean);
			json_kv_double(&w, "ci_half", half);
			json_key(&w, "values");
			json_begin_array(&w);
			for (int sd = 0; sd < t->nr_seeds; sd++)
				json_double(&w, r->v[m * t->nr_seeds + sd]);
			json_end_array(&w);
			json_end_object(&w);
		}
		json_end_object(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	return json_finish(&w);
}

/* the axis @c is numeric (every value a number) and takes two values or more */
static bool numeric_axis(const struct sweep_table *t, int c)
{
	const char *first = NULL;
	bool varies = false;

	for (int i = 0; i < t->nr_rows; i++) {
		const char *s = t->rows[i].axis[c];
		char *end;

		if (!*s)
			continue;
		strtod(s, &end);
		if (*end || end == s)
			return false;
		if (first && strcmp(first, s))
			varies = true;
		first = first ? first : s;
	}
	return varies;
}

/* the axis @c takes more than one value */
static bool varies(const struct sweep_table *t, int c)
{
	for (int i = 1; i < t->nr_rows; i++)
		if (strcmp(t->rows[i].axis[c], t->rows[0].axis[c]))
			return true;
	return false;
}

/* the label of row @i's line against axis @x: the other axes that vary */
static void line_label(const struct sweep_table *t, int i, int x, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < t->nr_axes; c++) {
		if (c == x || !varies(t, c) || !*t->rows[i].axis[c])
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? " " : "",
				      t->rows[i].axis[c]);
		if (n >= len)
			break;
	}
	if (!buf[0])
		snprintf(buf, len, "%s", t->line_axis ? t->line_axis : "all");
}

static int cmp_x(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* one data file: a block per line (gnuplot index); how many blocks */
static int write_data(const char *dir, const char *name, const struct sweep_table *t, int x, int m,
		      char (*labels)[256], int max, bool *failed)
{
	FILE *f = plot_dir_open(dir, name, failed);
	bool *taken = xcalloc((size_t)t->nr_rows, sizeof(*taken));
	double(*pts)[3] = xcalloc((size_t)t->nr_rows, sizeof(*pts));
	int blocks = 0;

	if (f)
		fprintf(f, "# %s against %s: x, mean, half-width of its %g%% interval\n",
			t->metrics[m], t->axis_names[x], t->conf * 100);
	for (int i = 0; f && i < t->nr_rows && blocks < max; i++) {
		int n = 0;

		if (taken[i] || !*t->rows[i].axis[x])
			continue;
		line_label(t, i, x, labels[blocks], sizeof(labels[blocks]));
		for (int j = i; j < t->nr_rows; j++) {
			char other[256];
			double mean, half;

			if (taken[j] || !*t->rows[j].axis[x])
				continue;
			line_label(t, j, x, other, sizeof(other));
			if (strcmp(other, labels[blocks]))
				continue;
			taken[j] = true;
			if (!row_stats(t, &t->rows[j], m, &mean, &half))
				continue;
			pts[n][0] = strtod(t->rows[j].axis[x], NULL);
			pts[n][1] = mean;
			pts[n][2] = half;
			n++;
		}
		qsort(pts, (size_t)n, sizeof(*pts), cmp_x);
		fprintf(f, "# %s\n", labels[blocks]);
		for (int k = 0; k < n; k++)
			fprintf(f, "%.10g %.10g %.10g\n", pts[k][0], pts[k][1], pts[k][2]);
		fputs("\n\n", f);
		blocks++;
	}
	plot_dir_close(f, failed);
	free(taken);
	free(pts);
	return blocks;
}

/* a file name from a metric and an axis: letters, digits, '.', '-' and '_' */
static void file_name(char *buf, size_t len, const char *metric, const char *axis, const char *ext)
{
	snprintf(buf, len, "sweep-%s-vs-%s%s", metric, axis, ext);
	for (char *c = buf; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_",
			    *c))
			*c = '_';
}

#define SWEEP_PLOT_MAX_LINES 64

/* the value axis @name takes in every row, or NULL if it varies or is not an axis */
static const char *one_value(const struct sweep_table *t, const char *name)
{
	for (int c = 0; c < t->nr_axes; c++)
		if (!strcmp(t->axis_names[c], name))
			return t->nr_rows && !varies(t, c) ? t->rows[0].axis[c] : NULL;
	return NULL;
}

/*
 * "NAME: METRIC against AXIS (error bars ...)", then the machine and the
 * command where every point has the same one, as the other plots are
 * titled; where they vary, they are the lines' names.
 */
static void plot_title(FILE *gp, const struct sweep_table *t, int x, int m)
{
	const char *machine = one_value(t, "machine"), *workload = one_value(t, "workload");

	if (t->name)
		fprintf(gp, "%s: ", t->name);
	fprintf(gp, "%s against %s (error bars: %g%% interval over the seeds)", t->metrics[m],
		t->axis_names[x], t->conf * 100);
	if (machine || workload)
		fputs(" on ", gp);
	if (machine)
		plot_dir_quote(gp, machine);
	if (machine && workload)
		fputs(": ", gp);
	if (workload)
		plot_dir_quote(gp, workload);
}

int sweep_table_plot(const char *dir, const struct sweep_table *t, int *nr_plots, char *err,
		     size_t errlen)
{
	static const char *const terms[][2] = { { ".png", PLOT_TERM_PNG }, { ".svg", PLOT_TERM_SVG } };
	char(*labels)[256] = xcalloc(SWEEP_PLOT_MAX_LINES, sizeof(*labels));
	bool failed = false;
	FILE *gp = plot_dir_open(dir, "plots.gp", &failed);

	*nr_plots = 0;
	if (!gp) {
		free(labels);
		snprintf(err, errlen, "--plot: cannot write the script in '%s'", dir);
		return -1;
	}
	fprintf(gp,
		"# Render with: gnuplot %s/plots.gp (written by schedlab sweep --collect --plot)\n",
		dir);
	fprintf(gp, "cd '%s'\n", dir);
	for (int x = 0; x < t->nr_axes; x++) {
		if (!numeric_axis(t, x))
			continue;
		for (int m = 0; m < t->nr_metrics; m++) {
			char dat[256], pic[256];
			int n;

			file_name(dat, sizeof(dat), t->metrics[m], t->axis_names[x], ".dat");
			n = write_data(dir, dat, t, x, m, labels, SWEEP_PLOT_MAX_LINES, &failed);
			/* the same picture as PNG and SVG, as run's, ab's and study's */
			for (size_t k = 0; k < sizeof(terms) / sizeof(terms[0]); k++) {
				file_name(pic, sizeof(pic), t->metrics[m], t->axis_names[x],
					  terms[k][0]);
				fprintf(gp, "\n%s\nset output '%s'\nreset; set termoption noenhanced\n",
					terms[k][1], pic);
				fputs("set title '", gp);
				plot_title(gp, t, x, m);
				fputs("'\n", gp);
				fprintf(gp,
					"set xlabel '%s'; set ylabel '%s'; set grid; set key outside top center horizontal\n",
					t->axis_names[x], t->metrics[m]);
				fputs("set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\nplot ",
				      gp);
				for (int b = 0; b < n; b++) {
					fprintf(gp, "%s'%s' index %d using 1:2:3 with yerrorlines lw 2 title '",
						b ? ", " : "", dat, b);
					plot_dir_quote(gp, labels[b]);
					fputc('\'', gp);
				}
				if (!n)
					fputs("NaN notitle", gp);
				fputs("\nunset output\n", gp);
			}
			++*nr_plots;
		}
	}
	plot_dir_close(gp, &failed);
	free(labels);
	if (failed) {
		snprintf(err, errlen, "--plot: writing into '%s' failed", dir);
		return -1;
	}
	return 0;
}
