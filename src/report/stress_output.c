// SPDX-License-Identifier: GPL-2.0-only
/*
 * What stress-ng 0.22.00 prints (stress-ng.c: stress_default_timeout_set(),
 * the "dispatching hogs" line, the instances' --sched lines,
 * stress_metrics_dump() with -M/--metrics or --metrics-brief,
 * stress_exit_status_summary() and the last line; core-time.c
 * stress_time_duration_to_str()). stress-ng's main process is pid 1 here,
 * as a benchmark's first task is.
 */
#include "report/stress_output.h"

#include "sim/machine.h"
#include "work/stress.h"

#define STRESS_SECS_PER_MIN 60.0
#define STRESS_SECS_PER_HOUR (60 * STRESS_SECS_PER_MIN)
#define STRESS_SECS_PER_DAY (24 * STRESS_SECS_PER_HOUR)
#define STRESS_SECS_PER_YEAR (365.2425 * STRESS_SECS_PER_DAY)

/*
 * stress-ng's stress_time_duration_to_str(): "1 day", "2 secs", "1 min
 * 27.72 secs". Units above seconds print when nonzero, as integers; seconds
 * print as an integer, or with 2 decimals when @frac_secs, and only when
 * nonzero; nothing at all is "0 secs". A unit is plural when its integer
 * part is above 1 ("1.93 sec").
 */
static void stress_duration(char *buf, size_t len, double dur, bool frac_secs)
{
	static const struct {
		double secs;
		const char *name;
	} units[] = {
		{ STRESS_SECS_PER_YEAR, "year" },
		{ STRESS_SECS_PER_DAY, "day" },
		{ STRESS_SECS_PER_HOUR, "hour" },
		{ STRESS_SECS_PER_MIN, "min" },
		{ 1, "sec" },
	};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		unsigned long v = (unsigned long)(dur / units[i].secs);
		bool last = i == sizeof(units) / sizeof(units[0]) - 1;

		if (v > 0 && used < len) {
			const char *plural = v > 1 ? "s" : "";

			if (last && frac_secs)
				used += (size_t)snprintf(buf + used, len - used, "%s%.2f %s%s",
							 used ? " " : "", dur, units[i].name,
							 plural);
			else
				used += (size_t)snprintf(buf + used, len - used, "%s%lu %s%s",
							 used ? " " : "", v, units[i].name, plural);
		}
		dur -= units[i].secs * (double)v;
	}
	if (!buf[0])
		snprintf(buf, len, "0 secs");
}

void stress_print_header(const struct bench *b, FILE *out)
{
	const struct stress_conf *c = b->stress;
	char d[64];

	/* without --timeout: stress-ng's DEFAULT_TIMEOUT, a day */
	stress_duration(d, sizeof(d),
			b->timeout_ns ? (double)(b->timeout_ns / NSEC_PER_SEC) :
					STRESS_SECS_PER_DAY,
			false);
	fprintf(out, "stress-ng: info:  [1] %s to a %s run per stressor\n",
		b->timeout_ns ? "setting" : "defaulting", d);
	fprintf(out, "stress-ng: info:  [1] dispatching hogs:");
	for (unsigned int i = 0; i < c->nr; i++)
		fprintf(out, "%s %u %s", i ? "," : "",
			c->s[i].instances ? c->s[i].instances : machine.nr_cpus,
			stressor_names[c->s[i].kind]);
	fprintf(out, "\n");
}

#define METRC "stress-ng: metrc: [1] "

/* stress_metrics_dump(): the table, its extended columns unless --metrics-brief */
static void print_metrics(const struct stress_conf *c, FILE *out)
{
	bool brief = c->metrics_brief, misc = false;

	if (brief) {
		fprintf(out, METRC "%-13s %9.9s %9.9s %9.9s %9.9s %12s %14s\n", "stressor",
			"bogo ops", "real time", "usr time", "sys time", "bogo ops/s",
			"bogo ops/s");
		fprintf(out, METRC "%-13s %9.9s %9.9s %9.9s %9.9s %12s %14s\n", "", "", "(secs) ",
			"(secs) ", "(secs) ", "(real time)", "(usr+sys time)");
	} else {
		fprintf(out, METRC "%-13s %9.9s %9.9s %9.9s %9.9s %12s %14s %12.12s %13.13s\n",
			"stressor", "bogo ops", "real time", "usr time", "sys time", "bogo ops/s",
			"bogo ops/s", "CPU used per", "RSS Max");
		fprintf(out, METRC "%-13s %9.9s %9.9s %9.9s %9.9s %12s %14s %12.12s %13.13s\n", "",
			"", "(secs) ", "(secs) ", "(secs) ", "(real time)", "(usr+sys time)",
			"instance (%)", "(KB)");
	}
	for (unsigned int i = 0; i < c->nr; i++) {
		const struct stressor *s = &c->s[i];
		double real = (double)s->real_ns / 1e9, usr = (double)s->utime_ns / 1e9;
		double sys = (double)s->stime_ns / 1e9;
		double rate_real = real > 0 ? (double)s->bogo_ops / real : 0.0;
		double rate_cpu = usr + sys > 0 ? (double)s->bogo_ops / (usr + sys) : 0.0;

		fprintf(out, METRC "%-13s %9llu %9.2f %9.2f %9.2f %12.2f %14.2f",
			stressor_names[s->kind], (unsigned long long)s->bogo_ops, real, usr, sys,
			rate_real, rate_cpu);
		if (brief) {
			fprintf(out, "\n");
			continue;
		}
		/* CPU used per instance (%); RSS Max: schedlab models no memory, 0 */
		fprintf(out, " %12.2f %13ld\n", real > 0 ? 100.0 * (usr + sys) / real / s->nr : 0.0,
			0L);
		misc |= stress_metric_name(s->kind) != NULL;
	}
	if (!misc)
		return;
	fprintf(out, METRC "miscellaneous metrics:\n");
	for (unsigned int i = 0; i < c->nr; i++) {
		const struct stressor *s = &c->s[i];
		const char *what = stress_metric_name(s->kind);

		if (what)
			fprintf(out, METRC "%-13s %13.2f %s (harmonic mean of %u instance%s)\n",
				stressor_names[s->kind], s->metric, what, s->nr,
				s->nr > 1 ? "s" : "");
	}
}

void stress_print_result(const struct bench *b, FILE *out)
{
	const struct stress_conf *c = b->stress;
	unsigned int passed = 0;
	char d[64];

	/* the instances' own lines, logged while they ran */
	if (c->log)
		fputs(c->log, out);
	if (c->metrics)
		print_metrics(c, out);
	/* stress_exit_status_summary(): every instance passed */
	fprintf(out, "stress-ng: info:  [1] skipped: 0\n");
	for (unsigned int i = 0; i < c->nr; i++)
		passed += c->s[i].nr;
	fprintf(out, "stress-ng: info:  [1] passed: %u:", passed);
	for (unsigned int i = 0; i < c->nr; i++)
		fprintf(out, " %s (%u)", stressor_names[c->s[i].kind], c->s[i].nr);
	fprintf(out, "\n");
	fprintf(out, "stress-ng: info:  [1] failed: 0\n");
	fprintf(out, "stress-ng: info:  [1] metrics untrustworthy: 0\n");
	stress_duration(d, sizeof(d), (double)bench_elapsed_us(b) / 1e6, true);
	fprintf(out, "stress-ng: info:  [1] successful run completed in %s\n", d);
}
