// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab validate's rows, the parsing of real and simulated outputs, and
 * the table, JSON and plot made from them.
 */
#include "calib/validate.h"

#include "calib/calib.h"

#include "report/json.h"
#include "report/json_read.h"
#include "report/plot_dir.h"
#include "report/version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct validate_row validate_rows[] = {
	{ "taskset -c 0 perf bench sched pipe -l 20000", NULL, true },
	{ "taskset -c 0 perf bench sched pipe -T -l 20000", NULL, true },
	{ "perf bench sched pipe -l 20000", NULL, false },
	{ "perf bench sched pipe -T -l 20000", NULL, false },
	{ "taskset -c 0 perf bench sched messaging -g 1 -l 200", NULL, true },
	{ "taskset -c 0 perf bench sched messaging -t -p -g 1 -l 200", NULL, true },
	{ "perf bench sched messaging -g 1 -l 200", NULL, false },
	{ "perf bench sched messaging -p -g 1 -l 200", NULL, false },
	{ "perf bench sched messaging -t -g 1 -l 200", NULL, false },
	{ "perf bench sched messaging -t -p -g 1 -l 200", NULL, false },
	{ "perf bench sched messaging -g 4 -l 100", NULL, false },
	{ "perf bench sched messaging -t -p -g 4 -l 100", NULL, false },
	{ "taskset -c 0 hackbench -g 1 -l 200", "hackbench", true },
	{ "hackbench -g 1 -l 200", "hackbench", false },
	{ "hackbench -p -T -g 4 -l 100", "hackbench", false },
	{ "taskset -c 0 stress-ng --switch 1 --switch-ops 100000 --metrics-brief", "stress-ng",
	  true },
	{ "stress-ng --switch 1 --switch-ops 100000 --metrics-brief", "stress-ng", false },
};
const int nr_validate_rows = sizeof(validate_rows) / sizeof(validate_rows[0]);

const char *validate_package(const char *tool)
{
	if (!strcmp(tool, "perf"))
		return "linux-perf";
	if (!strcmp(tool, "hackbench"))
		return "rt-tests";
	if (!strcmp(tool, "stress-ng"))
		return "stress-ng";
	return "?";
}

/* a perf stat -x, line "VALUE,UNIT,EVENT,..." for one of our events */
static void csv_line(const char *l, size_t len, struct validate_sample *s, bool *found)
{
	char buf[256], *f[4], *v;
	int n = 0;
	double x;

	if (len >= sizeof(buf) || l[0] == '#')
		return;
	memcpy(buf, l, len);
	buf[len] = '\0';
	/* empty fields matter ("1999,,context-switches"): split by hand */
	f[n++] = buf;
	for (char *p = buf; *p && n < 4; p++)
		if (*p == ',') {
			*p = '\0';
			f[n++] = p + 1;
		}
	if (n < 4)
		return;
	v = f[0];
	if (*v == '<') /* <not counted>, <not supported> */
		x = NAN;
	else {
		char *end;

		x = strtod(v, &end);
		if (end == v)
			return;
	}
	if (!strcmp(f[2], "context-switches") || !strcmp(f[2], "cs"))
		s->cs = x;
	else if (!strcmp(f[2], "cpu-migrations") || !strcmp(f[2], "migrations"))
		s->migr = x;
	else if (!strcmp(f[2], "task-clock"))
		s->task_ms = !strcmp(f[1], "msec") || !f[1][0] ? x :
			     !strcmp(f[1], "usec")	       ? x / 1e3 :
								 x;
	else
		return;
	*found = true;
}

int validate_parse(const char *text, double wall_s, struct validate_sample *s)
{
	bool found = false, timed = false;

	*s = (struct validate_sample){ NAN, NAN, NAN, NAN };
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n'), *p;
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		double t;

		while (len && l[len - 1] == '\r')
			len--;
		/* perf bench: "     Total time: 0.010 [sec]"; hackbench: "Time: 0.123" */
		if (!timed && ((p = strstr(l, "Total time:")) || (p = strstr(l, "Time:"))) &&
		    p < l + len) {
			if (sscanf(strchr(p, ':') + 1, "%lf", &t) == 1) {
				s->time_s = t;
				timed = true;
			}
		} else if ((p = strstr(l, "metrc: [")) && p < l + len && (p = strchr(p, ']')) &&
			   p < l + len) {
			/* stress-ng -M: "metrc: [PID] switch  100000  1.07 ...": its real time */
			char name[32];
			double ops;

			/* the first such line: "switch 9845.21 nanosecs ..." reads as NaN ("nan...") */
			if (!timed && sscanf(p + 1, "%31s %lf %lf", name, &ops, &t) == 3 &&
			    isfinite(t)) {
				s->time_s = t;
				timed = true;
			}
		} else if (!timed && (p = strstr(l, "successful run completed in")) &&
			   p < l + len) {
			/* stress-ng: "... completed in 1.02 secs" or "in 1.02s" */
			if (sscanf(p + strlen("successful run completed in"), "%lf", &t) == 1) {
				s->time_s = t;
				timed = true;
			}
		} else if (memchr(l, ',', len)) {
			csv_line(l, len, s, &found);
		}
		if (!nl)
			break;
		l = nl + 1;
	}
	if (!timed)
		s->time_s = wall_s;
	return timed || found || !isnan(wall_s) ? 0 : -1;
}

void validate_stats(const struct validate_sample *v, int n, size_t off, double *med, double *min,
		    double *max)
{
	double x[VALIDATE_MAX_RUNS];
	int k = 0;

	for (int i = 0; i < n && i < VALIDATE_MAX_RUNS; i++) {
		double f = *(const double *)((const char *)&v[i] + off);

		if (!isnan(f))
			x[k++] = f;
	}
	if (!k) {
		*med = *min = *max = NAN;
		return;
	}
	qsort(x, (size_t)k, sizeof(x[0]), calib_cmp_double);
	*med = k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
	*min = x[0];
	*max = x[k - 1];
}

/* a number in a column of @w, or "-" */
static void num(FILE *out, int w, int prec, double v)
{
	if (isnan(v))
		fprintf(out, " %*s", w, "-");
	else
		fprintf(out, " %*.*f", w, prec, v);
}

/* "median [min, max]" of field @off over @n samples, or "-" */
static void spread(char *buf, size_t len, const struct validate_sample *v, int n, size_t off,
		   double *med)
{
	double min, max;

	validate_stats(v, n, off, med, &min, &max);
	if (isnan(*med))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f [%.3f, %.3f]", *med, min, max);
}

/* the medians of a counter, real and simulated, in columns of @w */
static void counters(FILE *out, int w, int prec, const struct validate_result *r, size_t off)
{
	double med, lo, hi;

	validate_stats(r->real, r->nr_real, off, &med, &lo, &hi);
	fputc(' ', out);
	num(out, w, prec, med);
	validate_stats(r->sim, r->sim_ok ? r->nr_sim : 0, off, &med, &lo, &hi);
	num(out, w, prec, med);
}

/* the target (docs/calibration.md, "validate"): a ratio off by more than @within */
static bool misses(double ratio, double within)
{
	return !(fabs(ratio - 1) <= within);
}

/*
 * Row @i's ratio of the medians of field @off, simulated over real; NAN
 * when it is not one of the rows counted (the pinned or unpinned ones, or
 * all with @which < 0) or lacks either side
 */
static double row_ratio(const struct validate_row *rows, const struct validate_result *res, int i,
			int which, size_t off)
{
	double real, sim, lo, hi;

	if (res[i].skipped || !res[i].sim_ok || (which >= 0 && rows[i].pinned != which))
		return NAN;
	validate_stats(res[i].real, res[i].nr_real, off, &real, &lo, &hi);
	validate_stats(res[i].sim, res[i].nr_sim, off, &sim, &lo, &hi);
	return real > 0 ? sim / real : NAN;
}

/*
 * One line of the target: how many of the rows counted (row_ratio())
 * came within @within of the real median, and which did not, with their
 * ratios
 */
static void target_line(FILE *out, const char *what, double within, int which, size_t off,
			const struct validate_row *rows, const struct validate_result *res, int n)
{
	int measured = 0, hit = 0;
	bool first = true;

	for (int i = 0; i < n; i++) {
		double ratio = row_ratio(rows, res, i, which, off);

		measured += !isnan(ratio);
		hit += !isnan(ratio) && !misses(ratio, within);
	}
	fprintf(out, "  %s within +-%.0f%%: %d of %d rows", what, within * 100, hit, measured);
	for (int i = 0; i < n && hit < measured; i++) {
		double ratio = row_ratio(rows, res, i, which, off);

		if (isnan(ratio) || !misses(ratio, within))
			continue;
		fprintf(out, "%s\n    %-64s %.2f", first ? "; missed:" : "", rows[i].cmd, ratio);
		first = false;
	}
	fputc('\n', out);
}

/* how the table meets the target issue 23 set: pinned +-20 %, unpinned +-35 %, switches +-30 % */
static void print_target(FILE *out, const struct validate_row *rows,
			 const struct validate_result *res, int n)
{
	const size_t t_off = offsetof(struct validate_sample, time_s);

	fputs("target (docs/calibration.md), simulated / real medians:\n", out);
	target_line(out, "pinned time", VALIDATE_PINNED_WITHIN, 1, t_off, rows, res, n);
	target_line(out, "unpinned time", VALIDATE_UNPINNED_WITHIN, 0, t_off, rows, res, n);
	target_line(out, "context switches", VALIDATE_CS_WITHIN, -1,
		    offsetof(struct validate_sample, cs), rows, res, n);
}

void validate_print_table(FILE *out, const struct validate_row *rows,
			  const struct validate_result *res, int n)
{
	const size_t t_off = offsetof(struct validate_sample, time_s);

	fprintf(out, "%-64s %-25s %-25s %6s  %9s %9s  %7s %7s  %9s %9s\n", "benchmark",
		"real s, median [min, max]", "sim s, median [min, max]", "ratio", "cs real",
		"cs sim", "mig real", "mig sim", "task ms", "sim");
	for (int i = 0; i < n; i++) {
		const struct validate_result *r = &res[i];
		double med, sim_med;
		char real[64], sim[64];

		if (r->skipped) {
			fprintf(out, "%-64s skipped: %s\n", rows[i].cmd, r->why);
			continue;
		}
		spread(real, sizeof(real), r->real, r->nr_real, t_off, &med);
		spread(sim, sizeof(sim), r->sim, r->sim_ok ? r->nr_sim : 0, t_off, &sim_med);
		fprintf(out, "%-64s %-25s %-25s", rows[i].cmd, real, sim);
		num(out, 6, 2, med > 0 ? sim_med / med : NAN);
		counters(out, 9, 0, r, offsetof(struct validate_sample, cs));
		counters(out, 7, 0, r, offsetof(struct validate_sample, migr));
		counters(out, 9, 1, r, offsetof(struct validate_sample, task_ms));
		fputc('\n', out);
		if (!r->sim_ok && r->why[0])
			fprintf(out, "%-64s   (simulated: %s)\n", "", r->why);
	}
	fprintf(out,
		"ratio: simulated median / real median of the benchmark's own time; cs: context\n"
		"switches, mig: CPU migrations, task ms: task-clock (perf stat -e " VALIDATE_EVENTS
		"):\n"
		"medians of the real runs and of the simulated runs (seeds 1, 2, ...)\n");
	print_target(out, rows, res, n);
}

/* a sample's field: a number, or null (NAN); false for anything else */
static bool read_field(const struct jv *sample, const char *key, double *v)
{
	const struct jv *f = jv_get(sample, key);

	if (!f || f->type == JV_NULL) {
		*v = NAN;
		return true;
	}
	*v = f->num;
	return f->type == JV_NUMBER;
}

static int read_row(const struct jv *row, struct validate_result *r)
{
	const struct jv *real = jv_get(row, "real");

	if (!real || real->type != JV_ARRAY || real->n > VALIDATE_MAX_RUNS)
		return -1;
	for (int k = 0; k < real->n; k++) {
		const struct jv *s = &real->items[k];
		struct validate_sample *v = &r->real[k];

		if (s->type != JV_OBJECT || !read_field(s, "time_s", &v->time_s) ||
		    !read_field(s, "context_switches", &v->cs) ||
		    !read_field(s, "cpu_migrations", &v->migr) ||
		    !read_field(s, "task_clock_ms", &v->task_ms))
			return -1;
	}
	r->nr_real = real->n;
	return 0;
}

int validate_read_real(const char *text, const char *file, const struct validate_row *rows,
		       struct validate_result *res, int n, char *err, size_t errlen)
{
	const struct jv *kind, *list;
	char why[256];
	struct jv doc;
	int rc = -1;

	if (jv_parse(text, &doc, why, sizeof(why))) {
		snprintf(err, errlen, "%s: not JSON (%s)", file, why);
		return -1;
	}
	kind = jv_get(&doc, "kind");
	list = jv_get(&doc, "rows");
	if (doc.type != JV_OBJECT || !kind || kind->type != JV_STRING ||
	    strcmp(kind->str, "validate") || !list || list->type != JV_ARRAY) {
		snprintf(err, errlen, "%s: not the JSON of 'schedlab validate --json'", file);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const struct jv *row = NULL;

		for (int j = 0; j < list->n && !row; j++) {
			const struct jv *c = jv_get(&list->items[j], "command");

			if (c && c->type == JV_STRING && !strcmp(c->str, rows[i].cmd))
				row = &list->items[j];
		}
		if (row) {
			const struct jv *sk = jv_get(row, "skipped");

			if (sk && sk->type == JV_STRING) {
				res[i].skipped = true;
				snprintf(res[i].why, sizeof(res[i].why), "skipped in %.60s: %.80s",
					 file, sk->str);
				continue;
			}
			if (read_row(row, &res[i])) {
				snprintf(err, errlen, "%s: row '%s': 'real' is not a list of runs",
					 file, rows[i].cmd);
				goto out;
			}
		}
		if (!res[i].nr_real) {
			res[i].skipped = true;
			snprintf(res[i].why, sizeof(res[i].why), "no real runs in %.100s", file);
		}
	}
	rc = 0;
out:
	jv_free(&doc);
	return rc;
}

static void json_num(struct json_writer *w, const char *key, double v)
{
	json_key(w, key);
	if (isnan(v))
		json_null(w);
	else
		json_double(w, v);
}

static void json_sample(struct json_writer *w, const struct validate_sample *s)
{
	json_begin_object(w);
	json_num(w, "time_s", s->time_s);
	json_num(w, "context_switches", s->cs);
	json_num(w, "cpu_migrations", s->migr);
	json_num(w, "task_clock_ms", s->task_ms);
	json_end_object(w);
}

int validate_write_json(FILE *out, const struct validate_row *rows,
			const struct validate_result *res, int n, const char *profile,
			const char *features)
{
	struct json_writer w;

	json_init(&w, out);
	json_begin_object(&w);
	json_kv_schedlab(&w);
	json_kv_str(&w, "kind", "validate");
	json_kv_str(&w, "cost_profile", profile);
	json_kv_str(&w, "features", features);
	json_key(&w, "rows");
	json_begin_array(&w);
	for (int i = 0; i < n; i++) {
		const struct validate_result *r = &res[i];
		double med, min, max, sim_med;

		json_begin_object(&w);
		json_kv_str(&w, "command", rows[i].cmd);
		json_kv_bool(&w, "pinned", rows[i].pinned);
		json_kv_str(&w, "skipped", r->skipped ? r->why : NULL);
		json_key(&w, "real");
		json_begin_array(&w);
		for (int k = 0; k < r->nr_real; k++)
			json_sample(&w, &r->real[k]);
		json_end_array(&w);
		validate_stats(r->real, r->nr_real, offsetof(struct validate_sample, time_s), &med,
			       &min, &max);
		json_num(&w, "real_median_s", med);
		json_key(&w, "sim");
		if (r->sim_ok) {
			json_begin_array(&w);
			for (int k = 0; k < r->nr_sim; k++)
				json_sample(&w, &r->sim[k]);
			json_end_array(&w);
		} else {
			json_null(&w);
		}
		validate_stats(r->sim, r->sim_ok ? r->nr_sim : 0,
			       offsetof(struct validate_sample, time_s), &sim_med, &min, &max);
		json_num(&w, "sim_median_s", sim_med);
		json_num(&w, "ratio", med > 0 ? sim_med / med : NAN);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	return json_finish(&w);
}

int validate_plot(const char *dir, const struct validate_row *rows,
		  const struct validate_result *res, int n)
{
	bool failed = false;
	char err[256];
	double lo = INFINITY, hi = 0;
	FILE *f;

	if (plot_dir_prepare(dir, err, sizeof(err))) {
		fprintf(stderr, "schedlab: validate: %s\n", err);
		return -1;
	}
	f = plot_dir_open(dir, "validate.dat", &failed);
	if (!f)
		return -1;
	fprintf(f,
		"# row real_median real_min real_max sim_median pinned command sim_min sim_max\n");
	for (int i = 0; i < n; i++) {
		const size_t t_off = offsetof(struct validate_sample, time_s);
		double med, min, max, s_med, s_min, s_max;

		if (res[i].skipped || !res[i].sim_ok)
			continue;
		validate_stats(res[i].real, res[i].nr_real, t_off, &med, &min, &max);
		validate_stats(res[i].sim, res[i].nr_sim, t_off, &s_med, &s_min, &s_max);
		if (isnan(med) || isnan(s_med))
			continue;
		lo = fmin(lo, fmin(min, s_min));
		hi = fmax(hi, fmax(max, s_max));
		fprintf(f, "%d %.6f %.6f %.6f %.6f %d \"%s\" %.6f %.6f\n", i + 1, med, min, max,
			s_med, rows[i].pinned, rows[i].cmd, s_min, s_max);
	}
	plot_dir_close(f, &failed);
	f = plot_dir_open(dir, "validate.gp", &failed);
	if (!f)
		return -1;
	fprintf(f, "# schedlab validate: simulated against real, each row's benchmark time\ncd '");
	plot_dir_quote(f, dir);
	fprintf(f, "'\n"
		   "set termoption noenhanced\n"
		   "set logscale xy\nset grid\nset key top left\n"
		   "set xlabel 'real median, s (bars: min..max)'\n"
		   "set ylabel 'simulated median, s (bars: min..max over seeds)'\n"
		   "set title 'schedlab validate: simulated (-m host) against real'\n");
	/* the same range on both axes, so that the diagonal is the diagonal */
	if (hi > 0 && lo > 0)
		fprintf(f, "set xrange [%g:%g]\nset yrange [%g:%g]\n", lo / 1.5, hi * 1.5, lo / 1.5,
			hi * 1.5);
	for (int t = 0; t < 2; t++) {
		fprintf(f, "%s\nset output '%s'\n", t ? PLOT_TERM_SVG : PLOT_TERM_PNG,
			t ? "validate.svg" : "validate.png");
		fprintf(f,
			"plot x title 'sim = real' lc rgb 'gray', x*1.2 title '+-20%%' dt 2 lc rgb 'gray', "
			"x/1.2 notitle dt 2 lc rgb 'gray', x*1.35 title '+-35%%' dt 3 lc rgb 'gray', "
			"x/1.35 notitle dt 3 lc rgb 'gray', "
			"'validate.dat' using 2:($6 == 1 ? $5 : 1/0):3:4:8:9 with xyerrorbars pt 7 title 'pinned', "
			"'' using 2:($6 == 0 ? $5 : 1/0):3:4:8:9 with xyerrorbars pt 5 title 'unpinned', "
			"'' using 2:5:1 with labels offset 1,0.5 notitle\n");
	}
	plot_dir_close(f, &failed);
	return failed ? -1 : 0;
}
