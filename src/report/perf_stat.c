// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat's counting and output, from tools/perf of Linux v6.18:
 * builtin-stat.c (the repeat loop, ru_display for a single run),
 * util/stat.c (update_stats, stddev_stats, rel_stddev_stats),
 * util/stat-display.c (print_header_std, print_counter_value_std,
 * print_metric_std, print_noise_pct_std, print_table, print_footer) and
 * util/stat-shadow.c (print_nsecs: "CPUs utilized"; the per-second rate of
 * the other software counters, scaled by convert_unit_double()).
 *
 * The locale: cmd_stat() calls setlocale(LC_ALL, ""), so perf stat prints
 * in the locale the environment names (LC_ALL, else LC_NUMERIC, else LANG),
 * and the counts with "%'": 3,999 in en_US, 3.999 with 0,604 in de_DE,
 * 3999 in C and POSIX, whose grouping is empty. A locale that is not
 * installed leaves perf in C, and so here. perf_stat_print() does the same
 * for its own lines only (uselocale()): the benchmark's lines before it and
 * schedlab's own are in C.
 */
#include "report/perf_stat.h"

#include "kernel/sched.h"
#include "sim/alloc.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* stat-display.c's column widths */
#define COUNTS_LEN 18
#define EVNAME_LEN 32
#define METRIC_LEN 38
#define UNIT_WIDTH 4	/* stat_config.unit_width: strlen("unit") */

void perf_stats_update(struct perf_stats *s, double val)
{
	double delta;

	s->n++;
	delta = val - s->mean;
	s->mean += delta / s->n;
	s->M2 += delta * (val - s->mean);
}

double perf_stats_stddev(const struct perf_stats *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->M2 / (s->n - 1) / s->n);
}

double perf_stats_rel(double stddev, double avg)
{
	return avg ? 100.0 * stddev / avg : 0.0;
}

/* is @p the command or forked by it (perf's inherited counters follow forks) */
static bool in_command(const struct task_struct *p, const struct task_struct *root)
{
	for (; p; p = p->parent)
		if (p == root)
			return true;
	return false;
}

bool perf_stat_collect(struct perf_stat_run *r)
{
	struct task_struct *p, *root = NULL;
	u64 runtime = 0;

	memset(r, 0, sizeof(*r));
	list_for_each_entry(p, &sched_world.tasks, tasks) {
		if (!p->parent && !is_idle_task(p) && !p->is_stopper && !p->kthread) {
			root = p;
			break;
		}
	}
	if (!root || root->__state != TASK_DEAD)
		return false;
	r->elapsed_ns = root->exit_time - root->start_time;
	list_for_each_entry(p, &sched_world.tasks, tasks) {
		/* a kernel thread a module starts is kthreadd's child, not the command's */
		if (p->kthread || !in_command(p, root))
			continue;
		/* with the released tasks it carries (all exited; kernel threads never are) */
		runtime += p->se.sum_exec_runtime + p->cumul.sum_exec_runtime;
		r->utime_ns += p->utime + p->cumul.utime;
		r->context_switches += p->stats.nr_switches + p->cumul.nr_switches;
		/*
		 * perf_event_exit_task() in do_exit() detaches the counters
		 * before the dead task's last switch out
		 */
		if (p->__state == TASK_DEAD && p->stats.nr_switches)
			r->context_switches--;
		r->context_switches -= p->cumul.nr_switched;
		r->cpu_migrations += p->stats.nr_migrations + p->cumul.nr_migrations;
	}
	r->task_clock_ns = runtime;
	r->stime_ns = runtime > r->utime_ns ? runtime - r->utime_ns : 0;
	return true;
}

void perf_stat_summary_init(struct perf_stat_summary *s, int runs, bool null_run, bool table)
{
	memset(s, 0, sizeof(*s));
	s->runs = runs;
	s->null_run = null_run;
	s->table = table;
	s->walltime_run = xcalloc((size_t)runs, sizeof(*s->walltime_run));
}

void perf_stat_summary_add(struct perf_stat_summary *s, int idx, const struct perf_stat_run *r)
{
	perf_stats_update(&s->walltime_ns, (double)r->elapsed_ns);
	perf_stats_update(&s->task_clock_ns, (double)r->task_clock_ns);
	perf_stats_update(&s->context_switches, (double)r->context_switches);
	perf_stats_update(&s->cpu_migrations, (double)r->cpu_migrations);
	s->walltime_run[idx] = r->elapsed_ns;
	s->last = *r;
}

void perf_stat_summary_free(struct perf_stat_summary *s)
{
	free(s->walltime_run);
	s->walltime_run = NULL;
}

int perf_stat_precision(double sd)
{
	if (sd > 1)
		return 0;
	/*
	 * sd 0 (every run the same): perf's lround(ceil(-log10(0))) is
	 * lround(inf), LONG_MIN on x86-64 glibc, 0 as an int
	 */
	if (sd <= 0)
		return 0;
	return (int)lround(ceil(-log10(sd)));
}

void perf_stat_group(char *buf, size_t len, double val, int decimals)
{
	/* perf's "%'*.0f" and "%'*.2f": the locale's grouping, if any */
	snprintf(buf, len, "%'.*f", decimals, val);
}

/* print_metric_std(): " # " then the value, the unit padded to METRIC_LEN */
static void print_metric(FILE *out, const char *fmt, const char *unit, double val)
{
	int n;

	if (!fmt) {
		fprintf(out, "%-*s", METRIC_LEN, "");
		return;
	}
	n = fprintf(out, " # ");
	n += fprintf(out, fmt, val);
	fprintf(out, " %-*s", METRIC_LEN - n - 1, unit);
}

/* print_noise_pct_std(), only with -r N > 1 and a nonzero spread */
static void print_noise(FILE *out, const struct perf_stat_summary *s, const struct perf_stats *st)
{
	double pct;

	if (s->runs == 1)
		return;
	pct = perf_stats_rel(perf_stats_stddev(st), st->mean);
	if (pct)
		fprintf(out, "  ( +-%6.2f%% )", pct);
}

/* print_counter_value_std() with big_num, the counter's unit and name */
static void print_value(FILE *out, double val, int decimals, const char *unit, const char *name)
{
	char num[64];

	perf_stat_group(num, sizeof(num), val, decimals);
	fprintf(out, "%*s ", COUNTS_LEN, num);
	fprintf(out, "%-*s ", UNIT_WIDTH, unit);
	fprintf(out, "%-*s", EVNAME_LEN, name);
}

/* a software counter's rate per second of task-clock, convert_unit_double() */
static void print_rate(FILE *out, double count, double task_clock_ns)
{
	char unit_buf[10] = "/sec";
	double ratio;

	if (!task_clock_ns) {
		print_metric(out, NULL, NULL, 0);
		return;
	}
	ratio = 1e9 * count / task_clock_ns;
	if (ratio > 1000.0) {
		ratio /= 1000.0;
		strcpy(unit_buf, "K/sec");
	}
	if (ratio > 1000.0) {
		ratio /= 1000.0;
		strcpy(unit_buf, "M/sec");
	}
	if (ratio > 1000.0) {
		ratio /= 1000.0;
		strcpy(unit_buf, "G/sec");
	}
	print_metric(out, "%8.3f", unit_buf, ratio);
}

static void print_counters(FILE *out, const struct perf_stat_summary *s)
{
	double tc = s->task_clock_ns.mean, wall = s->walltime_ns.mean;

	/* task-clock: scale 1e-6, "msec", "%.2f" as the scale is not whole */
	print_value(out, tc / 1e6, 2, "msec", "task-clock");
	if (wall)
		print_metric(out, "%8.3f", "CPUs utilized", tc / wall);
	else
		print_metric(out, NULL, "CPUs utilized", 0);
	print_noise(out, s, &s->task_clock_ns);
	fputc('\n', out);

	print_value(out, s->context_switches.mean, 0, "", "context-switches");
	print_rate(out, s->context_switches.mean, tc);
	print_noise(out, s, &s->context_switches);
	fputc('\n', out);

	print_value(out, s->cpu_migrations.mean, 0, "", "cpu-migrations");
	print_rate(out, s->cpu_migrations.mean, tc);
	print_noise(out, s, &s->cpu_migrations);
	fputc('\n', out);

	/* not modelled: what perf prints for a counter it cannot open */
	fprintf(out, "%*s ", COUNTS_LEN, "<not supported>");
	fprintf(out, "%-*s ", UNIT_WIDTH, "");
	fprintf(out, "%-*s", EVNAME_LEN, "page-faults");
	print_metric(out, NULL, NULL, 0);
	fputc('\n', out);
}

/* print_table(): each run's elapsed time and its distance from the mean */
static void print_table(FILE *out, const struct perf_stat_summary *s, int precision, double avg)
{
	char tmp[64];
	int indent = 0;

	snprintf(tmp, sizeof(tmp), " %17.*f", precision, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(out, "%*s# Table of individual measurements:\n", indent, "");
	for (int i = 0; i < s->runs; i++) {
		double run = (double)s->walltime_run[i] / 1e9;
		int n = 1 + abs((int)(100.0 * (run - avg) / run) / 5);

		fprintf(out, " %17.*f (%+.*f) ", precision, run, precision, run - avg);
		for (int h = 0; h < n; h++)
			fputc('#', out);
		fputc('\n', out);
	}
	fprintf(out, "\n%*s# Final result:\n", indent, "");
}

static void print_footer(FILE *out, const struct perf_stat_summary *s)
{
	double avg = s->walltime_ns.mean / 1e9;

	if (!s->null_run)
		fputc('\n', out);
	if (s->runs == 1) {
		/* rusage has microseconds */
		double ut = (double)(s->last.utime_ns / 1000) / 1e6;
		double st = (double)(s->last.stime_ns / 1000) / 1e6;

		fprintf(out, " %17.9f seconds time elapsed", avg);
		fprintf(out, "\n\n");
		fprintf(out, " %17.9f seconds user\n", ut);
		fprintf(out, " %17.9f seconds sys\n", st);
	} else {
		double sd = perf_stats_stddev(&s->walltime_ns) / 1e9;
		int precision = perf_stat_precision(sd) + 2;
		double pct;

		if (s->table)
			print_table(out, s, precision, avg);
		fprintf(out, " %17.*f +- %.*f seconds time elapsed", precision, avg, precision, sd);
		pct = perf_stats_rel(sd, avg);
		if (pct)
			fprintf(out, "  ( +-%6.2f%% )", pct);
	}
	fprintf(out, "\n\n");
}

void perf_stat_print(FILE *out, const struct perf_stat_summary *s, int argc, char **argv)
{
	/* setlocale(LC_ALL, "") for this thread's printing only */
	locale_t loc = newlocale(LC_ALL_MASK, "", (locale_t)0), old = (locale_t)0;

	if (loc)
		old = uselocale(loc);
	fprintf(out, "\n Performance counter stats for '");
	for (int i = 0; i < argc; i++)
		fprintf(out, "%s%s", i ? " " : "", argv[i]);
	fprintf(out, "'");
	if (s->runs > 1)
		fprintf(out, " (%d runs)", s->runs);
	fprintf(out, ":\n\n");
	if (!s->null_run)
		print_counters(out, s);
	print_footer(out, s);
	if (loc) {
		uselocale(old);
		freelocale(loc);
	}
}
