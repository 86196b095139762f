// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics of a comparison and its text tables. Every variant ran
 * on the same seeds; the interval of each change is Welch's, so variants
 * with different spreads are compared honestly, and a change that is
 * exactly reproducible (no spread at all) is still reported as one.
 */
#include "report/compare.h"

#include "sim/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct run_value *find_value(const struct run_record *rec, const char *name)
{
	for (int i = 0; i < rec->nr; i++)
		if (!strcmp(rec->v[i].name, name))
			return &rec->v[i];
	return NULL;
}

static const struct run_record *rec_of(const struct comparison *cmp, int c, int v, int r)
{
	return &cmp->cases[c].recs[v * cmp->nr_runs + r];
}

void cmp_values(const struct comparison *cmp, int c, int v, const char *metric, double *out)
{
	for (int r = 0; r < cmp->nr_runs; r++) {
		const struct run_value *val = find_value(rec_of(cmp, c, v, r), metric);

		out[r] = val ? val->value : NAN;
	}
}

static void fill_row(const struct comparison *cmp, int c, const struct run_value *proto,
		     struct cmp_row *row)
{
	double *x = xcalloc((size_t)cmp->nr_runs, sizeof(*x));
	double first = NAN;

	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "%s", proto->name);
	row->better = proto->better;
	row->constant = true;
	for (int v = 0; v < cmp->nr_variants; v++) {
		cmp_values(cmp, c, v, row->name, x);
		for (int r = 0; r < cmp->nr_runs; r++) {
			if (v == 0 && r == 0)
				first = x[r];
			if (x[r] != first)
				row->constant = false;
		}
		sample_summarize(x, cmp->nr_runs, &row->s[v]);
		row->ci[v] = mean_ci_half(&row->s[v], cmp->conf);
	}
	for (int v = 0; v < cmp->nr_variants; v++)
		welch_diff(&row->s[0], &row->s[v], cmp->conf, &row->d[v]);
	free(x);
}

int cmp_rows(const struct comparison *cmp, int c, struct cmp_row *rows, int max, char *err,
	     size_t errlen)
{
	const struct run_record *first = rec_of(cmp, c, 0, 0);
	int n = 0;

	if (cmp->nr_metrics) {
		for (int m = 0; m < cmp->nr_metrics && n < max; m++) {
			const struct run_value *proto = find_value(first, cmp->metrics[m]);

			if (!proto && cmp->skip_missing)
				continue;
			if (!proto) {
				snprintf(err, errlen,
					 "metric '%s' is not one that '%s' reports", cmp->metrics[m],
					 cmp->cases[c].command);
				return -1;
			}
			fill_row(cmp, c, proto, &rows[n++]);
		}
		return n;
	}
	for (int i = 0; i < first->nr && n < max; i++)
		fill_row(cmp, c, &first->v[i], &rows[n++]);
	return n;
}

int cmp_check_metrics(const struct comparison *cmp, char *err, size_t errlen)
{
	for (int m = 0; m < cmp->nr_metrics; m++) {
		bool found = false;

		for (int c = 0; c < cmp->nr_cases && !found; c++)
			found = find_value(rec_of(cmp, c, 0, 0), cmp->metrics[m]);
		if (found)
			continue;
		if (cmp->nr_cases == 1)
			snprintf(err, errlen, "metric '%s' is not one that '%s' reports",
				 cmp->metrics[m], cmp->cases[0].command);
		else
			snprintf(err, errlen, "metric '%s' is not one that any workload reports",
				 cmp->metrics[m]);
		return -1;
	}
	return 0;
}

/* the metric column: as wide as the longest name shown */
static int metric_width(const struct cmp_row *rows, int n)
{
	int w = 26;

	for (int i = 0; i < n; i++)
		if ((int)strlen(rows[i].name) > w)
			w = (int)strlen(rows[i].name);
	return w;
}

const char *cmp_verdict(const struct cmp_row *row, int v)
{
	int sign = row->d[v].sign;

	if (!sign)
		return "~";
	if (row->better == METRIC_INFO)
		return sign > 0 ? "higher" : "lower";
	return sign == (int)row->better ? "better" : "worse";
}

/* decimals for about five significant digits of @x */
static int decimals_for(double x)
{
	int d;

	x = fabs(x);
	if (x == 0 || !isfinite(x))
		return 0;
	d = 4 - (int)floor(log10(x));
	return d < 0 ? 0 : d > 9 ? 9 : d;
}

void cmp_format(char *buf, size_t len, double mean, double half)
{
	int d = decimals_for(mean);

	if (half > 0)
		snprintf(buf, len, "%.*f ± %.*f", d, mean, d, half);
	else
		snprintf(buf, len, "%.*f", d, mean);
}

static void features_line(FILE *out, const char *label, const char *features)
{
	fprintf(out, "%-10s %s\n", label,
		features && *features ? features : "(the defaults)");
}

static void seeds_text(char *buf, size_t len, const struct comparison *cmp)
{
	if (cmp->nr_runs == 1)
		snprintf(buf, len, "seed %llu", (unsigned long long)cmp->first_seed);
	else
		snprintf(buf, len, "seeds %llu..%llu", (unsigned long long)cmp->first_seed,
			 (unsigned long long)(cmp->first_seed + cmp->nr_runs - 1));
}

/*
 * A percentage: two decimals, or two significant digits when it is too
 * small for them. A deterministic run can show a real change of 6 us in
 * 10 s; "+0.00%" next to a verdict would hide it.
 */
static void pct_text(char *buf, size_t len, double pct)
{
	if (pct != 0 && fabs(pct) < 0.005)
		snprintf(buf, len, "%+.1e%%", pct);
	else
		snprintf(buf, len, "%+.2f%%", pct);
}

/* "[-4.61%, -2.23%]"; "-" when there is no base to be relative to */
static void interval_text(char *buf, size_t len, const struct mean_diff *d, double base)
{
	char lo[32], hi[32];

	if (base == 0) {
		snprintf(buf, len, "-");
		return;
	}
	pct_text(lo, sizeof(lo), d->pct - d->pct_half);
	pct_text(hi, sizeof(hi), d->pct + d->pct_half);
	snprintf(buf, len, "[%s, %s]", lo, hi);
}

/* the change column, 9 wide plus two spaces */
static void change_text(FILE *out, double pct, double base)
{
	char buf[32];

	if (base == 0)
		snprintf(buf, sizeof(buf), "-");
	else
		pct_text(buf, sizeof(buf), pct);
	fprintf(out, "%9s  ", buf);
}

/* the width a UTF-8 string takes on a terminal ('±' is two bytes, one column) */
static int columns(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* @s left-aligned in @width columns, and at least one blank after it */
static void pad(FILE *out, const char *s, int width)
{
	int n = columns(s);

	fputs(s, out);
	do
		fputc(' ', out);
	while (++n < width);
}

#define MAX_ROWS RUN_MAX_VALUES

int cmp_print_ab(FILE *out, const struct comparison *cmp, char *err, size_t errlen)
{
	struct cmp_row rows[MAX_ROWS];
	char seeds[64], conf[32];
	int n, mw;

	if (cmp_check_metrics(cmp, err, errlen))
		return -1;
	n = cmp_rows(cmp, 0, rows, MAX_ROWS, err, errlen);
	if (n < 0)
		return -1;
	mw = metric_width(rows, n);
	seeds_text(seeds, sizeof(seeds), cmp);
	snprintf(conf, sizeof(conf), "%g%% CI", cmp->conf * 100);
	fprintf(out, "schedlab ab: %d runs each of base and test (%s), %g%% confidence, Welch's t\n",
		cmp->nr_runs, seeds, cmp->conf * 100);
	fprintf(out, "%-10s %s\n", "machine:", cmp->cases[0].machine);
	fprintf(out, "%-10s %s\n", "benchmark:", cmp->cases[0].command);
	features_line(out, "base:", cmp->variant_features[0]);
	features_line(out, "test:", cmp->variant_features[1]);
	fputc('\n', out);
	fprintf(out, "%-*s %-24s %-24s %9s  %-22s %s\n", mw, "metric", "base", "test", "change",
		conf, "verdict");
	for (int i = 0; i < n; i++) {
		char b[64], t[64], ci[96];

		if (rows[i].constant && rows[i].better == METRIC_INFO)
			continue; /* a fact of the command line, the same everywhere */
		cmp_format(b, sizeof(b), rows[i].s[0].mean, rows[i].ci[0]);
		cmp_format(t, sizeof(t), rows[i].s[1].mean, rows[i].ci[1]);
		interval_text(ci, sizeof(ci), &rows[i].d[1], rows[i].s[0].mean);
		pad(out, rows[i].name, mw + 1);
		pad(out, b, 25);
		pad(out, t, 25);
		change_text(out, rows[i].d[1].pct, rows[i].s[0].mean);
		pad(out, ci, 23);
		fprintf(out, "%s\n", cmp_verdict(&rows[i], 1));
	}
	fprintf(out, "\nbase and test: mean ± half-width of its %s over the runs. change: test vs base.\n"
		     "verdict: better/worse when the change's interval excludes 0, ~ when it holds 0\n"
		     "(no difference shown); sched.* rows describe the scheduler: higher/lower, no verdict.\n",
		conf);
	return 0;
}

int cmp_print_study(FILE *out, const struct comparison *cmp, char *err, size_t errlen)
{
	struct cmp_row rows[MAX_ROWS];
	char seeds[64], conf[32];

	/* every case has the metrics, or nothing is printed */
	if (cmp_check_metrics(cmp, err, errlen))
		return -1;
	for (int c = 0; c < cmp->nr_cases; c++)
		if (cmp_rows(cmp, c, rows, MAX_ROWS, err, errlen) < 0)
			return -1;
	seeds_text(seeds, sizeof(seeds), cmp);
	snprintf(conf, sizeof(conf), "%g%% CI", cmp->conf * 100);
	fprintf(out, "study %s: %s\n", cmp->name, cmp->title);
	for (int v = 0; v < cmp->nr_variants; v++) {
		char label[32];

		snprintf(label, sizeof(label), "%s:", cmp->variant_name[v]);
		features_line(out, label, cmp->variant_features[v]);
	}
	fprintf(out, "%-10s %d per variant and case (%s), %g%% confidence, Welch's t\n", "runs:",
		cmp->nr_runs, seeds, cmp->conf * 100);
	for (int c = 0; c < cmp->nr_cases; c++) {
		int n = cmp_rows(cmp, c, rows, MAX_ROWS, err, errlen);
		int mw = metric_width(rows, n);

		fprintf(out, "\n== %s%s%s: %s\n", cmp->cases[c].machine,
			cmp->cases[c].options ? " " : "",
			cmp->cases[c].options ? cmp->cases[c].options : "", cmp->cases[c].command);
		fprintf(out, "%-*s %-8s %-24s %-24s %7s %9s  %-22s %s\n", mw, "metric", "variant",
			cmp->variant_name[0], "its mean", "ratio", "%gain", conf, "verdict");
		for (int i = 0; i < n; i++) {
			for (int v = 1; v < cmp->nr_variants; v++) {
				const struct mean_diff *d = &rows[i].d[v];
				/* %gain: positive when the variant is better */
				double sign = rows[i].better == METRIC_LOWER ? -1 : 1;
				struct mean_diff g = *d;
				char b[64], t[64], ci[96];

				g.pct = sign * d->pct;
				if (g.pct == 0)
					g.pct = 0; /* no "-0.00%" */
				cmp_format(b, sizeof(b), rows[i].s[0].mean, rows[i].ci[0]);
				cmp_format(t, sizeof(t), rows[i].s[v].mean, rows[i].ci[v]);
				interval_text(ci, sizeof(ci), &g, rows[i].s[0].mean);
				pad(out, rows[i].name, mw + 1);
				pad(out, cmp->variant_name[v], 9);
				pad(out, b, 25);
				pad(out, t, 25);
				if (rows[i].s[0].mean != 0)
					fprintf(out, "%7.3f ",
						rows[i].s[v].mean / rows[i].s[0].mean);
				else
					fprintf(out, "%7s ", "-");
				change_text(out, g.pct, rows[i].s[0].mean);
				pad(out, ci, 23);
				fprintf(out, "%s\n", cmp_verdict(&rows[i], v));
			}
		}
	}
	fprintf(out, "\nratio: variant mean / %s mean. %%gain: the improvement over %s (positive = better;\n"
		     "for the descriptive sched.* rows, the change). verdict: better/worse when the\n"
		     "interval excludes 0, ~ when it holds 0.\n",
		cmp->variant_name[0], cmp->variant_name[0]);
	return 0;
}
