// SPDX-License-Identifier: GPL-2.0-only
/*
 * `perf sched latency` from the counters the simulated kernel keeps per
 * task (schedstat's sched_info): runtime is sum_exec_runtime, "switches" the
 * times the task was switched in after being runnable (perf's atoms), the
 * delay the time from becoming runnable (woken or preempted) to running.
 * As perf does by default, tasks with the same comm are merged into one row
 * ("comm:(N)"), the idle tasks are left out, and rows are sorted by average
 * delay, then maximum delay, switches and runtime, largest first.
 */
#include "report/latency_print.h"

#include "kernel/sched.h"
#include "sim/alloc.h"

#include <stdlib.h>
#include <string.h>

struct lat_row {
	const char *comm;
	int pid; /* the task's, if only one */
	unsigned int merged;
	u64 runtime;
	u64 switches;
	u64 total_delay;
	u64 max_delay;
	u64 max_delay_end; /* when the longest-waiting switch-in happened */
	int max_delay_pid; /* the lowest pid with that delay (perf: the first in pid order) */
};

static u64 row_avg(const struct lat_row *r)
{
	return r->switches ? r->total_delay / r->switches : 0;
}

static int cmp_u64_desc(u64 a, u64 b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct lat_row *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64_desc(row_avg(a), row_avg(b))))
		return c;
	if ((c = cmp_u64_desc(a->max_delay, b->max_delay)))
		return c;
	if ((c = cmp_u64_desc(a->switches, b->switches)))
		return c;
	if ((c = cmp_u64_desc(a->runtime, b->runtime)))
		return c;
	return strcmp(a->comm, b->comm);
}

/* perf's timestamp__scnprintf_usec(): seconds with microseconds */
static void fmt_usec(char *buf, size_t len, u64 ns)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ns / NSEC_PER_SEC),
		 (unsigned long long)(ns % NSEC_PER_SEC / 1000));
}

static const char rule_long[] =
	" -----------------------------------------------------------------"
	"--------------------------------------------------------------------------\n";

static int task_comm_cmp(const void *pa, const void *pb)
{
	const struct task_struct *a = *(const struct task_struct *const *)pa;
	const struct task_struct *b = *(const struct task_struct *const *)pb;
	int c = strcmp(a->comm, b->comm);

	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

void print_sched_latency(FILE *out)
{
	struct task_struct *p, **tasks;
	struct lat_row *rows;
	size_t nr_tasks = 0, nr = 0;
	u64 all_runtime = 0, all_switches = 0;

	list_for_each_entry(p, &sched_world.tasks, tasks) nr_tasks++;
	tasks = xcalloc(nr_tasks, sizeof(*tasks));
	rows = xcalloc(nr_tasks + sched_world.nr_released_comms, sizeof(*rows));
	nr_tasks = 0;
	list_for_each_entry(p, &sched_world.tasks, tasks) if (!is_idle_task(p) && p->stats.pcount)
		tasks[nr_tasks++] = p;
	/* merge by comm: sorted by comm, equal comms are neighbours */
	qsort(tasks, nr_tasks, sizeof(*tasks), task_comm_cmp);
	for (size_t i = 0; i < nr_tasks; i++) {
		struct lat_row *r;

		p = tasks[i];
		if (!nr || strcmp(rows[nr - 1].comm, p->comm)) {
			r = &rows[nr++];
			r->comm = p->comm;
			r->pid = p->pid;
		}
		r = &rows[nr - 1];
		r->merged++;
		r->runtime += p->se.sum_exec_runtime;
		r->switches += p->stats.pcount;
		r->total_delay += p->stats.run_delay;
		if (p->stats.max_delay > r->max_delay) {
			r->max_delay = p->stats.max_delay;
			r->max_delay_end = p->stats.max_delay_at;
			r->max_delay_pid = p->pid;
		}
	}
	free(tasks);
	/* the released tasks, merged per comm when they exited (kernel/core.c) */
	for (unsigned int i = 0; i < sched_world.nr_released_comms; i++) {
		const struct released_comm *c = &sched_world.released_comms[i];
		struct lat_row *r = NULL;

		for (size_t j = 0; j < nr && !r; j++)
			if (!strcmp(rows[j].comm, c->comm))
				r = &rows[j];
		if (!r) {
			r = &rows[nr++];
			r->comm = c->comm;
			r->pid = c->pid;
		}
		if (c->pid < r->pid)
			r->pid = c->pid;
		r->merged += c->merged;
		r->runtime += c->runtime;
		r->switches += c->switches;
		r->total_delay += c->total_delay;
		if (c->max_delay > r->max_delay || (c->max_delay && c->max_delay == r->max_delay &&
						    c->max_delay_pid < r->max_delay_pid)) {
			r->max_delay = c->max_delay;
			r->max_delay_end = c->max_delay_at;
			r->max_delay_pid = c->max_delay_pid;
		}
	}
	qsort(rows, nr, sizeof(*rows), row_cmp);

	fprintf(out, "\n%s", rule_long);
	fprintf(out, "  Task                  |   Runtime ms  | Switches | Avg delay ms    |"
		     " Max delay ms    | Max delay start           | Max delay end          |\n");
	fputs(rule_long, out);
	for (size_t i = 0; i < nr; i++) {
		const struct lat_row *r = &rows[i];
		char start[32], end[32];
		int w;

		if (r->merged > 1)
			w = fprintf(out, "  %s:(%u) ", r->comm, r->merged);
		else
			w = fprintf(out, "  %s:%d ", r->comm, r->pid);
		for (; w < 24; w++)
			fputc(' ', out);
		fmt_usec(start, sizeof(start), r->max_delay_end - r->max_delay);
		fmt_usec(end, sizeof(end), r->max_delay_end);
		fprintf(out,
			"|%11.3f ms |%9llu | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | "
			"max end: %12s s\n",
			(double)r->runtime / NSEC_PER_MSEC, (unsigned long long)r->switches,
			(double)row_avg(r) / NSEC_PER_MSEC, (double)r->max_delay / NSEC_PER_MSEC,
			start, end);
		all_runtime += r->runtime;
		all_switches += r->switches;
	}
	fputs(" -----------------------------------------------------------------"
	      "------------------------------------------------\n",
	      out);
	fprintf(out, "  TOTAL:                |%11.3f ms |%9llu |\n",
		(double)all_runtime / NSEC_PER_MSEC, (unsigned long long)all_switches);
	fputs(" ---------------------------------------------------\n\n", out);
	free(rows);
}
