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
#include "kernel/trace.h"
#include "sim/alloc.h"
#include "topo/cpumask.h"

#include <errno.h>
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

/*
 * perf's names for the events (the software PMU's aliases, the sched
 * tracepoints as tracefs names them); what the simulated kernel does not
 * count is PERF_EV_NOT_SUPPORTED, as perf prints a counter it cannot open
 */
static const struct {
	const char *name;
	enum perf_event_id id;
} event_table[] = {
	{ "task-clock", PERF_EV_TASK_CLOCK },
	{ "cpu-clock", PERF_EV_CPU_CLOCK },
	{ "context-switches", PERF_EV_CONTEXT_SWITCHES },
	{ "cs", PERF_EV_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_EV_CPU_MIGRATIONS },
	{ "migrations", PERF_EV_CPU_MIGRATIONS },
	{ "sched:sched_switch", PERF_EV_SCHED_SWITCH },
	{ "sched:sched_waking", PERF_EV_SCHED_WAKING },
	{ "sched:sched_wakeup", PERF_EV_SCHED_WAKEUP },
	{ "sched:sched_wakeup_new", PERF_EV_SCHED_WAKEUP_NEW },
	{ "sched:sched_migrate_task", PERF_EV_SCHED_MIGRATE_TASK },
	{ "sched:sched_process_fork", PERF_EV_SCHED_PROCESS_FORK },
	{ "sched:sched_process_exit", PERF_EV_SCHED_PROCESS_EXIT },
	/* perf knows them; the simulated machine has no memory or PMU model */
	{ "page-faults", PERF_EV_NOT_SUPPORTED },
	{ "faults", PERF_EV_NOT_SUPPORTED },
	{ "minor-faults", PERF_EV_NOT_SUPPORTED },
	{ "major-faults", PERF_EV_NOT_SUPPORTED },
	{ "alignment-faults", PERF_EV_NOT_SUPPORTED },
	{ "emulation-faults", PERF_EV_NOT_SUPPORTED },
	{ "cycles", PERF_EV_NOT_SUPPORTED },
	{ "cpu-cycles", PERF_EV_NOT_SUPPORTED },
	{ "instructions", PERF_EV_NOT_SUPPORTED },
	{ "branches", PERF_EV_NOT_SUPPORTED },
	{ "branch-instructions", PERF_EV_NOT_SUPPORTED },
	{ "branch-misses", PERF_EV_NOT_SUPPORTED },
	{ "cache-references", PERF_EV_NOT_SUPPORTED },
	{ "cache-misses", PERF_EV_NOT_SUPPORTED },
};

const char perf_stat_event_names[] =
	"task-clock, cpu-clock, context-switches (cs), cpu-migrations (migrations), "
	"sched:sched_switch, sched:sched_waking, sched:sched_wakeup, sched:sched_wakeup_new, "
	"sched:sched_migrate_task, sched:sched_process_fork, sched:sched_process_exit; "
	"<not supported>: page-faults, faults, minor-faults, major-faults, cycles, "
	"instructions, branches, branch-misses, cache-references, cache-misses";

int perf_stat_event_lookup(const char *name, size_t len, struct perf_stat_event *ev)
{
	for (size_t i = 0; i < sizeof(event_table) / sizeof(event_table[0]); i++) {
		if (strlen(event_table[i].name) == len && !strncmp(event_table[i].name, name, len)) {
			ev->id = event_table[i].id;
			snprintf(ev->name, sizeof(ev->name), "%s", event_table[i].name);
			return 0;
		}
	}
	return -1;
}

bool *perf_stat_parse_cpus(const char *list, unsigned int nr_cpus, char *err, size_t errlen)
{
	bool *cpus = xcalloc(nr_cpus, sizeof(*cpus));
	const char *p = list;

	/* perf's cpu list: N, N-M, comma separated */
	while (*p) {
		char *end;
		unsigned long a, b;

		errno = 0;
		if (*p < '0' || *p > '9')
			goto bad;
		a = b = strtoul(p, &end, 10);
		if (errno)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtoul(p, &end, 10);
			if (errno || b < a)
				goto bad;
		}
		if (b >= nr_cpus) {
			snprintf(err, errlen,
				 "perf stat: -C %s: CPU %lu is not on this machine (CPUs 0-%u)", list,
				 b, nr_cpus - 1);
			free(cpus);
			return NULL;
		}
		for (unsigned long c = a; c <= b; c++)
			cpus[c] = true;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (!*list)
		goto bad;
	return cpus;
bad:
	snprintf(err, errlen, "perf stat: -C: expected a CPU list such as 0,2-3, got '%s'", list);
	free(cpus);
	return NULL;
}

/* the counts of the run going on: sched tracepoints and, with -a/-C, per-CPU counts */
static struct {
	const struct perf_stat_config *config;
	const bool *cpus;		/* -C: the CPUs counted; NULL: all */
	const struct sched_trace_hooks *chained;	/* the trace writer, if one is open */
	struct task_struct *root;
	u64 count[NR_PERF_EV];
} pc;

static bool in_command(const struct task_struct *p, const struct task_struct *root);

static struct task_struct *command_task(void)
{
	struct task_struct *p;

	if (pc.root)
		return pc.root;
	list_for_each_entry(p, &sched_world.tasks, tasks) {
		if (!p->parent && !is_idle_task(p) && !p->is_stopper && !p->kthread) {
			pc.root = p;
			break;
		}
	}
	return pc.root;
}

/*
 * Does an event the running task hits on this CPU count? System-wide
 * (-a, -C): on a counted CPU while the command runs. Otherwise, perf's
 * inherited task counters: the running task is the command or one of its
 * descendants, not yet past perf_event_exit_task() (@exiting: the
 * tracepoint fires before it, as sched_process_exit's does).
 */
static bool counted_in(const struct task_struct *curr, bool exiting)
{
	struct task_struct *root = command_task();

	if (!root)
		return false;
	if (pc.config->system_wide || pc.config->cpu_list) {
		if (pc.cpus && !pc.cpus[machine.this_cpu])
			return false;
		return root->__state != TASK_DEAD || curr == root;
	}
	if (is_idle_task(curr) || curr->kthread || !in_command(curr, root))
		return false;
	return exiting || curr->__state != TASK_DEAD;
}

static bool counted(void)
{
	return counted_in(cpu_rq(machine.this_cpu)->curr, false);
}

static void count_switch(bool preempt, struct task_struct *prev, struct task_struct *next)
{
	bool dead = prev->__state == TASK_DEAD && !is_idle_task(prev);

	if (counted_in(prev, false)) {
		pc.count[PERF_EV_SCHED_SWITCH]++;
		pc.count[PERF_EV_CONTEXT_SWITCHES]++;
	}
	/* a dead task's last switch: do_exit() has hit sched_process_exit */
	if (dead && counted_in(prev, true))
		pc.count[PERF_EV_SCHED_PROCESS_EXIT]++;
	if (pc.chained)
		pc.chained->sched_switch(preempt, prev, next);
}

static void count_wake(enum trace_event ev, struct task_struct *p, unsigned int target_cpu)
{
	if (counted()) {
		if (ev == TRACE_SCHED_WAKING)
			pc.count[PERF_EV_SCHED_WAKING]++;
		else if (ev == TRACE_SCHED_WAKEUP)
			pc.count[PERF_EV_SCHED_WAKEUP]++;
		else if (ev == TRACE_SCHED_WAKEUP_NEW) {
			/* wake_up_new_task() right after the fork, in the parent */
			pc.count[PERF_EV_SCHED_WAKEUP_NEW]++;
			pc.count[PERF_EV_SCHED_PROCESS_FORK]++;
		}
	}
	if (pc.chained)
		pc.chained->sched_wake(ev, p, target_cpu);
}

static void count_migrate(struct task_struct *p, unsigned int dest_cpu)
{
	if (counted())
		pc.count[PERF_EV_SCHED_MIGRATE_TASK]++;
	/* -a: the migration counts on the CPU the task moves to */
	if ((pc.config->system_wide || pc.config->cpu_list) && command_task() &&
	    (!pc.cpus || pc.cpus[dest_cpu]) &&
	    (command_task()->__state != TASK_DEAD))
		pc.count[PERF_EV_CPU_MIGRATIONS]++;
	if (pc.chained)
		pc.chained->sched_migrate_task(p, dest_cpu);
}

static void count_cpu_idle(unsigned int state, unsigned int cpu)
{
	if (pc.chained)
		pc.chained->cpu_idle(state, cpu);
}

static void count_cpu_frequency(unsigned int state, unsigned int cpu)
{
	if (pc.chained)
		pc.chained->cpu_frequency(state, cpu);
}

static void count_ipi_send(unsigned int cpu, enum trace_ipi why, enum trace_ipi_site site)
{
	if (pc.chained)
		pc.chained->ipi_send_cpu(cpu, why, site);
}

static void count_ipi_irq(enum trace_event ev, enum trace_ipi why)
{
	if (pc.chained)
		pc.chained->ipi_irq(ev, why);
}

static void count_contention(enum trace_event ev, u64 lock_addr, int arg)
{
	if (pc.chained)
		pc.chained->contention(ev, lock_addr, arg);
}

static void count_pi_setprio(struct task_struct *p, int newprio)
{
	if (pc.chained)
		pc.chained->sched_pi_setprio(p, newprio);
}

static const struct sched_trace_hooks count_hooks = {
	.sched_switch = count_switch,
	.sched_wake = count_wake,
	.sched_migrate_task = count_migrate,
	.cpu_idle = count_cpu_idle,
	.cpu_frequency = count_cpu_frequency,
	.ipi_send_cpu = count_ipi_send,
	.ipi_irq = count_ipi_irq,
	.contention = count_contention,
	.sched_pi_setprio = count_pi_setprio,
};

void perf_stat_count_start(const struct perf_stat_config *c, const bool *cpus)
{
	memset(&pc, 0, sizeof(pc));
	pc.config = c;
	pc.cpus = cpus;
	/* the trace writer keeps its events: ours are counted, then passed on */
	pc.chained = sched_trace_hooks;
	register_sched_trace_hooks(&count_hooks);
}

void perf_stat_count_stop(void)
{
	if (sched_trace_hooks == &count_hooks)
		register_sched_trace_hooks(pc.chained);
	pc.chained = NULL;
}

/* is @p the command or forked by it (perf's inherited counters follow forks) */
static bool in_command(const struct task_struct *p, const struct task_struct *root)
{
	for (; p; p = p->parent)
		if (p == root)
			return true;
	return false;
}

/* the configured events' counts and their running time (-x's run column) */
static void collect_events(struct perf_stat_run *r)
{
	const struct perf_stat_config *c = pc.config;
	bool wide = c->system_wide || c->cpu_list;
	unsigned int nr = machine.nr_cpus;

	if (wide && pc.cpus) {
		nr = 0;
		for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++)
			nr += pc.cpus[cpu];
	}
	/* a CPU counter runs the whole time on each CPU; a task's while its tasks run */
	r->run_ns = wide ? (u64)nr * r->elapsed_ns : r->task_clock_ns;
	for (int i = 0; i < c->nr_events; i++) {
		double v;

		switch (c->events[i].id) {
		case PERF_EV_TASK_CLOCK:
		case PERF_EV_CPU_CLOCK:
			/* system-wide, both clocks tick through idle time too */
			v = (double)r->run_ns;
			break;
		case PERF_EV_CONTEXT_SWITCHES:
			v = (double)(wide ? pc.count[PERF_EV_CONTEXT_SWITCHES] : r->context_switches);
			break;
		case PERF_EV_CPU_MIGRATIONS:
			v = (double)(wide ? pc.count[PERF_EV_CPU_MIGRATIONS] : r->cpu_migrations);
			break;
		case PERF_EV_NOT_SUPPORTED:
			v = 0;
			break;
		default:
			v = (double)pc.count[c->events[i].id];
			break;
		}
		r->val[i] = v;
	}
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
	if (pc.config)
		collect_events(r);
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
	if (s->config)
		for (int i = 0; i < s->config->nr_events; i++)
			perf_stats_update(&s->val[i], r->val[i]);
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

static bool is_clock(enum perf_event_id id)
{
	return id == PERF_EV_TASK_CLOCK || id == PERF_EV_CPU_CLOCK;
}

/* find_stat(STAT_NSECS): the first clock event of the list but @self, 0 if none */
static double list_nsecs(const struct perf_stat_summary *s, int self)
{
	for (int i = 0; i < s->config->nr_events; i++)
		if (i != self && is_clock(s->config->events[i].id))
			return s->val[i].mean;
	return 0;
}

/* print_metric_csv(): the value cut at its first character not a digit or '.' */
static void print_metric_csv(FILE *out, const char *sep, const char *fmt, const char *unit,
			     double val)
{
	char buf[64], *v, *e;

	if (!fmt || !unit) {
		fprintf(out, "%s%s", sep, sep);
		return;
	}
	snprintf(buf, sizeof(buf), fmt, val);
	for (v = buf; *v == ' '; v++)
		;
	for (e = v; (*e >= '0' && *e <= '9') || *e == '.'; e++)
		;
	*e = '\0';
	while (*unit == ' ')
		unit++;
	fprintf(out, "%s%s%s%s", sep, v, sep, unit);
}

/* the shadow metric of event @i: perf_stat__print_shadow_stats() for software events */
static void event_metric(FILE *out, const struct perf_stat_summary *s, int i)
{
	const char *sep = s->config->csv_sep;
	double mean = s->val[i].mean, wall = s->walltime_ns.mean, nsecs;
	char unit_buf[10] = "/sec";
	double ratio;

	if (s->config->events[i].id == PERF_EV_NOT_SUPPORTED) {
		if (sep)
			print_metric_csv(out, sep, NULL, NULL, 0);
		else
			print_metric(out, NULL, NULL, 0);
		return;
	}
	if (is_clock(s->config->events[i].id)) {
		/* print_nsecs() */
		if (sep)
			print_metric_csv(out, sep, wall ? "%8.3f" : NULL, "CPUs utilized",
					 wall ? mean / wall : 0);
		else if (wall)
			print_metric(out, "%8.3f", "CPUs utilized", mean / wall);
		else
			print_metric(out, NULL, "CPUs utilized", 0);
		return;
	}
	nsecs = list_nsecs(s, i);
	if (!nsecs) {
		if (sep)
			print_metric_csv(out, sep, NULL, NULL, 0);
		else
			print_metric(out, NULL, NULL, 0);
		return;
	}
	ratio = 1e9 * mean / nsecs;
	/* convert_unit_double() */
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
	if (sep)
		print_metric_csv(out, sep, "%8.3f", unit_buf, ratio);
	else
		print_metric(out, "%8.3f", unit_buf, ratio);
}

/*
 * printout() for an -e list, -a, -C or -x: print_counter_value_std() or
 * _csv(), the noise and running columns where each mode has them, the
 * shadow metric
 */
static void print_event_counters(FILE *out, const struct perf_stat_summary *s)
{
	const struct perf_stat_config *c = s->config;
	const char *sep = c->csv_sep;

	for (int i = 0; i < c->nr_events; i++) {
		const struct perf_stat_event *ev = &c->events[i];
		bool ok = ev->id != PERF_EV_NOT_SUPPORTED, clock = is_clock(ev->id);
		double val = clock ? s->val[i].mean / 1e6 : s->val[i].mean;
		const char *unit = clock ? "msec" : "";
		/* the last run's enabled and running times; 0 for a counter never opened */
		u64 run = ok ? s->last.run_ns : 0;

		if (sep) {
			if (ok)
				fprintf(out, clock ? "%.2f%s" : "%.0f%s", val, sep);
			else
				fprintf(out, "<not supported>%s", sep);
			fprintf(out, "%s%s%s", unit, sep, ev->name);
			if (s->runs > 1)
				fprintf(out, "%s%.2f%%", sep,
					perf_stats_rel(perf_stats_stddev(&s->val[i]), s->val[i].mean));
			fprintf(out, "%s%llu%s%.2f", sep, (unsigned long long)run, sep, 100.0);
			event_metric(out, s, i);
		} else {
			if (ok) {
				print_value(out, val, clock ? 2 : 0, unit, ev->name);
			} else {
				fprintf(out, "%*s ", COUNTS_LEN, "<not supported>");
				fprintf(out, "%-*s ", UNIT_WIDTH, unit);
				fprintf(out, "%-*s", EVNAME_LEN, ev->name);
			}
			event_metric(out, s, i);
			print_noise(out, s, &s->val[i]);
		}
		fputc('\n', out);
	}
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

	bool wide = s->config && (s->config->system_wide || s->config->cpu_list);

	if (!s->null_run)
		fputc('\n', out);
	if (s->runs == 1 && wide) {
		/* ru_display is only for a command perf stat runs on its own */
		fprintf(out, " %17.9f seconds time elapsed", avg);
	} else if (s->runs == 1) {
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
	if (s->config && s->config->csv_sep) {
		/* -x: no header, no footer (print_header_csv(), print_footer()) */
		if (!s->null_run)
			print_event_counters(out, s);
		goto out;
	}
	fprintf(out, "\n Performance counter stats for '");
	if (s->config && s->config->system_wide)
		fprintf(out, "system wide");
	else if (s->config && s->config->cpu_list)
		fprintf(out, "CPU(s) %s", s->config->cpu_list);
	else
		for (int i = 0; i < argc; i++)
			fprintf(out, "%s%s", i ? " " : "", argv[i]);
	fprintf(out, "'");
	if (s->runs > 1)
		fprintf(out, " (%d runs)", s->runs);
	fprintf(out, ":\n\n");
	if (!s->null_run) {
		if (s->config)
			print_event_counters(out, s);
		else
			print_counters(out, s);
	}
	print_footer(out, s);
out:
	if (loc) {
		uselocale(old);
		freelocale(loc);
	}
}
