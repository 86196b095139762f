// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf sched record, latency, timehist and map, from tools/perf/builtin-sched.c
 * of Linux v6.18: latency_switch_event(), latency_wakeup_event(),
 * latency_migrate_task_event(), add_sched_out_event(), add_sched_in_event(),
 * the sort dimensions and __merge_work_atoms(), output_lat_thread() and
 * perf_sched__lat() for latency; timehist_sched_change_event(),
 * timehist_update_runtime_stats(), timehist_header(),
 * timehist_print_sample() for timehist; map_switch_event() and
 * print_sched_map() for map. What the capture lacks: sched_stat_runtime,
 * whose values perf adds up as a task's runtime; here a task's runtime is
 * the time between its switch in and its switch out, what
 * sched_stat_runtime sums to over a switch. The reports read one capture,
 * so all three agree on every switch.
 */
#include "report/perf_sched.h"

#include "kernel/sched.h"
#include "kernel/trace.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* the capture                                                         */

void psched_capture_add(struct psched_capture *cap, const struct psched_event *e)
{
	if (cap->nr == cap->cap) {
		cap->cap = cap->cap ? 2 * cap->cap : 4096;
		cap->ev = xrealloc(cap->ev, cap->cap * sizeof(*cap->ev));
	}
	cap->ev[cap->nr++] = *e;
}

void psched_capture_free(struct psched_capture *cap)
{
	free(cap->ev);
	memset(cap, 0, sizeof(*cap));
}

static struct {
	struct psched_capture cap;
	u64 *seq;	/* arrival order, for the sort */
	size_t seq_cap;
	const struct sched_trace_hooks *chained;
} rec;

static void rec_task(struct psched_task *t, const struct task_struct *p)
{
	bool idle = is_idle_task(p);

	t->pid = idle ? 0 : p->pid;
	t->tgid = idle ? 0 : p->tgid;
	t->prio = p->prio;
	snprintf(t->comm, sizeof(t->comm), "%s", p->comm);
}

/* as the tracepoint stamps it: the running CPU's cursor */
static void rec_add(struct psched_event *e)
{
	e->cpu = machine.this_cpu;
	e->ts = max(cpu_now(), machine.now);
	psched_capture_add(&rec.cap, e);
}

/* the prev_state perf reads (evsel__taskstate(): the first letter) */
static char rec_state(bool preempt, const struct task_struct *prev)
{
	if (preempt || prev->is_stopper || prev->__state == TASK_RUNNING || is_idle_task(prev))
		return 'R';
	if (prev->__state & TASK_DEAD)
		return 'Z';
	if (prev->__state & TASK_UNINTERRUPTIBLE)
		return 'D';
	return 'S';
}

static void rec_switch(bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct psched_event e = { .type = PSCHED_SWITCH };

	rec_task(&e.task, prev);
	rec_task(&e.next, next);
	e.prev_state = rec_state(preempt, prev);
	rec_add(&e);
	if (rec.chained)
		rec.chained->sched_switch(preempt, prev, next);
}

static void rec_wake(enum trace_event ev, struct task_struct *p, unsigned int target_cpu)
{
	/*
	 * perf sched record takes sched_waking where the kernel has it (it
	 * does), not sched_wakeup, and sched_wakeup_new
	 */
	if (ev == TRACE_SCHED_WAKING || ev == TRACE_SCHED_WAKEUP_NEW) {
		struct psched_event e = {
			.type = ev == TRACE_SCHED_WAKING ? PSCHED_WAKING : PSCHED_WAKEUP_NEW,
			.target_cpu = target_cpu,
		};

		rec_task(&e.task, p);
		rec_task(&e.next, cpu_rq(machine.this_cpu)->curr);
		rec_add(&e);
	}
	if (rec.chained)
		rec.chained->sched_wake(ev, p, target_cpu);
}

static void rec_migrate(struct task_struct *p, unsigned int dest_cpu)
{
	struct psched_event e = {
		.type = PSCHED_MIGRATE,
		.target_cpu = task_cpu(p),
		.dest_cpu = dest_cpu,
	};

	rec_task(&e.task, p);
	rec_task(&e.next, cpu_rq(machine.this_cpu)->curr);
	rec_add(&e);
	if (rec.chained)
		rec.chained->sched_migrate_task(p, dest_cpu);
}

static void rec_cpu_idle(unsigned int state, unsigned int cpu)
{
	if (rec.chained)
		rec.chained->cpu_idle(state, cpu);
}

static void rec_cpu_frequency(unsigned int state, unsigned int cpu)
{
	if (rec.chained)
		rec.chained->cpu_frequency(state, cpu);
}

static void rec_ipi_send(unsigned int cpu, enum trace_ipi why, enum trace_ipi_site site)
{
	if (rec.chained)
		rec.chained->ipi_send_cpu(cpu, why, site);
}

static void rec_ipi_irq(enum trace_event ev, enum trace_ipi why)
{
	if (rec.chained)
		rec.chained->ipi_irq(ev, why);
}

static void rec_contention(enum trace_event ev, u64 lock_addr, int arg)
{
	if (rec.chained)
		rec.chained->contention(ev, lock_addr, arg);
}

static void rec_pi_setprio(struct task_struct *p, int newprio)
{
	if (rec.chained)
		rec.chained->sched_pi_setprio(p, newprio);
}

static const struct sched_trace_hooks rec_hooks = {
	.sched_switch = rec_switch,
	.sched_wake = rec_wake,
	.sched_migrate_task = rec_migrate,
	.cpu_idle = rec_cpu_idle,
	.cpu_frequency = rec_cpu_frequency,
	.ipi_send_cpu = rec_ipi_send,
	.ipi_irq = rec_ipi_irq,
	.contention = rec_contention,
	.sched_pi_setprio = rec_pi_setprio,
};

void perf_sched_record_start(void)
{
	psched_capture_free(&rec.cap);
	rec.chained = sched_trace_hooks;
	register_sched_trace_hooks(&rec_hooks);
}

/* time order; equal stamps in the order the tracepoints fired */
static void sort_events(struct psched_event *ev, size_t n)
{
	struct psched_event *tmp;

	if (n < 2)
		return;
	/* a merge sort: stable, so arrival order breaks ties */
	tmp = xcalloc(n, sizeof(*tmp));
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = ev[j].ts < ev[i].ts ? ev[j++] : ev[i++];
			while (i < mid)
				tmp[k++] = ev[i++];
			while (j < hi)
				tmp[k++] = ev[j++];
		}
		memcpy(ev, tmp, n * sizeof(*ev));
	}
	free(tmp);
}

void perf_sched_record_stop(struct psched_capture *cap, const char *machine_name,
			    unsigned int nr_cpus)
{
	if (sched_trace_hooks == &rec_hooks)
		register_sched_trace_hooks(rec.chained);
	rec.chained = NULL;
	sort_events(rec.cap.ev, rec.cap.nr);
	*cap = rec.cap;
	memset(&rec.cap, 0, sizeof(rec.cap));
	cap->nr_cpus = nr_cpus;
	snprintf(cap->machine, sizeof(cap->machine), "%s", machine_name);
}

/* ------------------------------------------------------------------ */
/* the file                                                            */

static const char capture_magic[] = "# schedlab perf sched capture 1";

/* a comm as one word: %XX for blanks, '%' and anything not printable */
static void put_comm(FILE *f, const char *comm)
{
	for (const unsigned char *c = (const unsigned char *)comm; *c; c++) {
		if (*c <= ' ' || *c == '%' || *c >= 0x7f)
			fprintf(f, "%%%02X", *c);
		else
			fputc(*c, f);
	}
	if (!*comm)
		fputs("%00", f);
}

static int get_comm(const char *w, char *out)
{
	size_t n = 0;

	for (; *w; w++) {
		unsigned int c = (unsigned char)*w;

		if (c == '%') {
			char hex[3] = { 0 };

			if (!w[1] || !w[2])
				return -1;
			hex[0] = w[1];
			hex[1] = w[2];
			c = (unsigned int)strtoul(hex, NULL, 16);
			w += 2;
			if (!c)
				continue;
		}
		if (n + 1 >= PSCHED_COMM_LEN)
			return -1;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return 0;
}

static void put_task(FILE *f, const struct psched_task *t)
{
	fprintf(f, " %d %d %d ", t->pid, t->tgid, t->prio);
	put_comm(f, t->comm);
}

int psched_write(FILE *f, const struct psched_capture *cap)
{
	fprintf(f, "%s\n# machine %s cpus %u events %zu\n", capture_magic, cap->machine,
		cap->nr_cpus, cap->nr);
	fputs("# S ts cpu prev(pid tgid prio comm) prev_state next(pid tgid prio comm)\n"
	      "# W (sched_waking), N (sched_wakeup_new): ts cpu task(pid tgid prio comm) target_cpu running(pid tgid prio comm)\n"
	      "# M ts cpu task(pid tgid prio comm) orig_cpu dest_cpu running(pid tgid prio comm)\n",
	      f);
	for (size_t i = 0; i < cap->nr; i++) {
		const struct psched_event *e = &cap->ev[i];

		fprintf(f, "%c %llu %u", "SWNM"[e->type], (unsigned long long)e->ts, e->cpu);
		put_task(f, &e->task);
		switch (e->type) {
		case PSCHED_SWITCH:
			fprintf(f, " %c", e->prev_state);
			put_task(f, &e->next);
			break;
		case PSCHED_WAKING:
		case PSCHED_WAKEUP_NEW:
			fprintf(f, " %u", e->target_cpu);
			put_task(f, &e->next);
			break;
		case PSCHED_MIGRATE:
			fprintf(f, " %u %u", e->target_cpu, e->dest_cpu);
			put_task(f, &e->next);
			break;
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* the next blank-separated word of *@p, or NULL */
static char *word(char **p)
{
	char *w;

	while (**p == ' ')
		(*p)++;
	if (!**p)
		return NULL;
	w = *p;
	while (**p && **p != ' ')
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return w;
}

static int get_long(char **p, long min, long max, long *out)
{
	char *w = word(p), *end;

	if (!w)
		return -1;
	errno = 0;
	*out = strtol(w, &end, 10);
	return (*end || errno || *out < min || *out > max) ? -1 : 0;
}

static int get_task(char **p, struct psched_task *t)
{
	long pid, tgid, prio;
	char *c;

	/* PID_MAX_LIMIT: a pid no kernel hands out is no capture's */
	if (get_long(p, 0, 4194304, &pid) || get_long(p, 0, 4194304, &tgid) ||
	    get_long(p, -1000, 1000, &prio) || !(c = word(p)) || get_comm(c, t->comm))
		return -1;
	t->pid = (int)pid;
	t->tgid = (int)tgid;
	t->prio = (int)prio;
	return 0;
}

static int parse_line(char *line, const struct psched_capture *cap, struct psched_event *e)
{
	char *p = line, *w = word(&p), *ts, *end;
	long cpu, a, b;

	memset(e, 0, sizeof(*e));
	if (!w || strlen(w) != 1 || !strchr("SWNM", w[0]))
		return -1;
	e->type = (enum psched_type)(strchr("SWNM", w[0]) - "SWNM");
	ts = word(&p);
	if (!ts || *ts < '0' || *ts > '9')
		return -1;
	errno = 0;
	e->ts = strtoull(ts, &end, 10);
	if (*end || errno || get_long(&p, 0, (long)cap->nr_cpus - 1, &cpu) || get_task(&p, &e->task))
		return -1;
	e->cpu = (unsigned int)cpu;
	switch (e->type) {
	case PSCHED_SWITCH:
		w = word(&p);
		if (!w || strlen(w) != 1 || !strchr("RSDZ", w[0]) || get_task(&p, &e->next))
			return -1;
		e->prev_state = w[0];
		break;
	case PSCHED_WAKING:
	case PSCHED_WAKEUP_NEW:
		if (get_long(&p, 0, (long)cap->nr_cpus - 1, &a) || get_task(&p, &e->next))
			return -1;
		e->target_cpu = (unsigned int)a;
		break;
	case PSCHED_MIGRATE:
		if (get_long(&p, 0, (long)cap->nr_cpus - 1, &a) ||
		    get_long(&p, 0, (long)cap->nr_cpus - 1, &b) || get_task(&p, &e->next))
			return -1;
		e->target_cpu = (unsigned int)a;
		e->dest_cpu = (unsigned int)b;
		break;
	}
	return word(&p) ? -1 : 0;
}

int psched_read(FILE *f, const char *name, struct psched_capture *cap, char *err, size_t errlen)
{
	char line[512];
	unsigned long lineno = 0;
	unsigned int nr_cpus;
	char machine_name[64];
	u64 last = 0;

	memset(cap, 0, sizeof(*cap));
	if (!fgets(line, sizeof(line), f) || strncmp(line, capture_magic, strlen(capture_magic)) ||
	    line[strlen(capture_magic)] != '\n') {
		snprintf(err, errlen,
			 "'%s' is not a perf sched capture (write one with 'schedlab run -- perf sched record -o %s -- COMMAND')",
			 name, name);
		return -1;
	}
	lineno = 1;
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "# machine %63s cpus %u", machine_name, &nr_cpus) != 2 || !nr_cpus ||
	    nr_cpus > 8192) {
		snprintf(err, errlen, "%s:2: expected '# machine NAME cpus N ...'", name);
		return -1;
	}
	lineno = 2;
	cap->nr_cpus = nr_cpus;
	snprintf(cap->machine, sizeof(cap->machine), "%s", machine_name);
	while (fgets(line, sizeof(line), f)) {
		struct psched_event e;
		size_t len = strlen(line);

		lineno++;
		if (!len || line[len - 1] != '\n') {
			snprintf(err, errlen, "%s:%lu: line too long or not ended", name, lineno);
			psched_capture_free(cap);
			return -1;
		}
		line[len - 1] = '\0';
		if (line[0] == '#')
			continue;
		if (parse_line(line, cap, &e) || e.ts < last) {
			snprintf(err, errlen, "%s:%lu: not an event of a perf sched capture", name,
				 lineno);
			psched_capture_free(cap);
			return -1;
		}
		last = e.ts;
		psched_capture_add(cap, &e);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "reading '%s' failed", name);
		psched_capture_free(cap);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* common                                                              */

/* perf's timestamp__scnprintf_usec() */
static void fmt_usec(char *buf, size_t len, u64 ns)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ns / NSEC_PER_SEC),
		 (unsigned long long)(ns % NSEC_PER_SEC / 1000));
}

/* per-tid slots, pids being small consecutive numbers */
struct tid_table {
	size_t nr;
	void *slots;
	size_t size;
};

static void *tid_slot(struct tid_table *t, int tid)
{
	if ((size_t)tid >= t->nr) {
		size_t nr = t->nr ? t->nr : 256;
		char *s;

		while (nr <= (size_t)tid)
			nr *= 2;
		s = xrealloc(t->slots, nr * t->size);
		memset(s + t->nr * t->size, 0, (nr - t->nr) * t->size);
		t->slots = s;
		t->nr = nr;
	}
	return (char *)t->slots + (size_t)tid * t->size;
}

/* ------------------------------------------------------------------ */
/* latency                                                             */

enum atom_state { THREAD_SLEEPING, THREAD_WAIT_CPU, THREAD_SCHED_IN, THREAD_IGNORE };

struct lat_thread {
	bool seen;
	bool has_atom;
	int tid;
	char comm[PSCHED_COMM_LEN];
	/* the last atom */
	enum atom_state state;
	u64 sched_out_time, wake_up_time;
	/* struct work_atoms */
	u64 total_runtime, nb_atoms, total_lat, max_lat, max_lat_start, max_lat_end;
};

int psched_parse_sort(const char *list, struct psched_latency_opts *o, char *err, size_t errlen)
{
	static const char *const names[] = {
		[PSCHED_SORT_PID] = "pid",
		[PSCHED_SORT_AVG] = "avg",
		[PSCHED_SORT_MAX] = "max",
		[PSCHED_SORT_SWITCH] = "switch",
		[PSCHED_SORT_RUNTIME] = "runtime",
	};
	const char *p = list;

	o->nr_sort = 0;
	/* strtok_r(str, ", "): blanks and commas separate, empty keys vanish */
	for (;;) {
		size_t len;
		bool found = false;

		p += strspn(p, ", ");
		if (!*p)
			break;
		len = strcspn(p, ", ");
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			if (strlen(names[k]) == len && !strncmp(names[k], p, len)) {
				if (o->nr_sort == PSCHED_MAX_SORT) {
					snprintf(err, errlen, "perf sched latency: more than %d sort keys",
						 PSCHED_MAX_SORT);
					return -1;
				}
				o->sort[o->nr_sort++] = (enum psched_sort_key)k;
				found = true;
			}
		}
		if (!found) {
			snprintf(err, errlen,
				 "perf sched latency: Unknown --sort key: `%.*s' (keys: pid, avg, max, switch, runtime)",
				 (int)len, p);
			return -1;
		}
		p += len;
	}
	if (!o->nr_sort) {
		snprintf(err, errlen, "perf sched latency: --sort needs a key (pid, avg, max, switch, runtime)");
		return -1;
	}
	return 0;
}

static int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/* the sort dimensions: negative when @l sorts after @r (perf prints the largest first) */
static int key_cmp(enum psched_sort_key k, const struct psched_lat_row *l,
		   const struct psched_lat_row *r)
{
	switch (k) {
	case PSCHED_SORT_PID:
		return l->tid < r->tid ? -1 : l->tid > r->tid;
	case PSCHED_SORT_AVG:
		if (!l->nb_atoms)
			return -1;
		if (!r->nb_atoms)
			return 1;
		return cmp_u64(l->total_lat / l->nb_atoms, r->total_lat / r->nb_atoms);
	case PSCHED_SORT_MAX:
		return cmp_u64(l->max_lat, r->max_lat);
	case PSCHED_SORT_SWITCH:
		return cmp_u64(l->nb_atoms, r->nb_atoms);
	case PSCHED_SORT_RUNTIME:
		return cmp_u64(l->total_runtime, r->total_runtime);
	}
	return 0;
}

static const struct psched_latency_opts *sort_opts;

struct sort_item {
	struct psched_lat_row row;
	size_t order;
};

static int item_cmp(const void *pa, const void *pb)
{
	const struct sort_item *a = pa, *b = pb;

	for (int i = 0; i < sort_opts->nr_sort; i++) {
		int c = key_cmp(sort_opts->sort[i], &a->row, &b->row);

		if (c)
			return -c;
	}
	/* the rbtree puts an equal one to the right: insertion order */
	return a->order < b->order ? -1 : a->order > b->order;
}

static struct lat_thread *lat_find(struct tid_table *t, int tid, const char *comm)
{
	struct lat_thread *th = tid_slot(t, tid);

	if (!th->seen) {
		th->seen = true;
		th->tid = tid;
	}
	/* the comm perf's thread has at the end: the last one seen */
	snprintf(th->comm, sizeof(th->comm), "%s", tid ? comm : "swapper");
	return th;
}

/* add_sched_out_event() */
static void lat_out(struct lat_thread *th, char state, u64 ts)
{
	th->has_atom = true;
	th->sched_out_time = ts;
	th->wake_up_time = 0;
	th->state = THREAD_SLEEPING;
	if (state == 'R') {
		th->state = THREAD_WAIT_CPU;
		th->wake_up_time = ts;
	}
}

/* add_sched_in_event() */
static void lat_in(struct lat_thread *th, u64 ts)
{
	u64 delta;

	if (!th->has_atom || th->state != THREAD_WAIT_CPU)
		return;
	if (ts < th->wake_up_time) {
		th->state = THREAD_IGNORE;
		return;
	}
	th->state = THREAD_SCHED_IN;
	delta = ts - th->wake_up_time;
	th->total_lat += delta;
	if (delta > th->max_lat) {
		th->max_lat = delta;
		th->max_lat_start = th->wake_up_time;
		th->max_lat_end = ts;
	}
	th->nb_atoms++;
}

size_t psched_latency_rows(const struct psched_capture *cap, const struct psched_latency_opts *o,
			   struct psched_lat_row **rowsp, long *unordered, long *timestamps,
			   long *switch_bugs)
{
	struct tid_table t = { .size = sizeof(struct lat_thread) };
	u64 *last_switched = xcalloc(cap->nr_cpus, sizeof(*last_switched));
	int *curr_pid = xcalloc(cap->nr_cpus, sizeof(*curr_pid));
	struct sort_item *items;
	size_t nr = 0, nr_threads = 0;

	*unordered = *timestamps = *switch_bugs = 0;
	for (unsigned int c = 0; c < cap->nr_cpus; c++)
		curr_pid[c] = -1;
	for (size_t i = 0; i < cap->nr; i++) {
		const struct psched_event *e = &cap->ev[i];
		struct lat_thread *th;

		switch (e->type) {
		case PSCHED_SWITCH: {
			struct lat_thread *out, *in;
			u64 t0 = last_switched[e->cpu];
			bool in_new;

			if (curr_pid[e->cpu] != -1 && curr_pid[e->cpu] != e->task.pid)
				(*switch_bugs)++;
			curr_pid[e->cpu] = e->next.pid;
			last_switched[e->cpu] = e->ts;
			out = lat_find(&t, e->task.pid, e->task.comm);
			/* sched_stat_runtime's share: the time since prev came in */
			if (t0)
				out->total_runtime += e->ts - t0;
			lat_out(out, e->prev_state, e->ts);
			in = tid_slot(&t, e->next.pid);
			in_new = !in->seen || !in->has_atom;
			in = lat_find(&t, e->next.pid, e->next.comm);
			/* a task not heard of yet comes in runnable */
			if (in_new)
				lat_out(in, 'R', e->ts);
			lat_in(in, e->ts);
			break;
		}
		case PSCHED_WAKING:
		case PSCHED_WAKEUP_NEW:
			th = tid_slot(&t, e->task.pid);
			if (!th->seen || !th->has_atom) {
				th = lat_find(&t, e->task.pid, e->task.comm);
				lat_out(th, 'S', e->ts);
			} else {
				th = lat_find(&t, e->task.pid, e->task.comm);
			}
			/* on a runqueue already, or a wakeup of a running task: no new wait */
			if (o->profile_cpu == -1 && th->state != THREAD_SLEEPING)
				break;
			(*timestamps)++;
			if (th->sched_out_time > e->ts) {
				(*unordered)++;
				break;
			}
			th->state = THREAD_WAIT_CPU;
			th->wake_up_time = e->ts;
			break;
		case PSCHED_MIGRATE:
			/* only when profiling one CPU */
			if (o->profile_cpu == -1)
				break;
			th = tid_slot(&t, e->task.pid);
			if (!th->seen || !th->has_atom) {
				th = lat_find(&t, e->task.pid, e->task.comm);
				lat_out(th, 'R', e->ts);
			} else {
				th = lat_find(&t, e->task.pid, e->task.comm);
			}
			th->sched_out_time = th->wake_up_time = e->ts;
			(*timestamps)++;
			break;
		}
	}
	free(last_switched);
	free(curr_pid);

	/* the threads in perf's atom_root order: by tid, the largest leftmost */
	for (size_t tid = t.nr; tid-- > 0;)
		if (((struct lat_thread *)t.slots)[tid].seen)
			nr_threads++;
	items = xcalloc(nr_threads ? nr_threads : 1, sizeof(*items));
	for (size_t tid = t.nr; tid-- > 0;) {
		const struct lat_thread *th = &((struct lat_thread *)t.slots)[tid];
		struct psched_lat_row *r = NULL;

		if (!th->seen)
			continue;
		if (!o->pids) {
			/* __merge_work_atoms(): one row per comm, the first one keeps its tid */
			for (size_t j = 0; j < nr && !r; j++)
				if (!strcmp(items[j].row.comm, th->comm))
					r = &items[j].row;
		}
		if (r) {
			r->num_merged++;
			r->total_runtime += th->total_runtime;
			r->nb_atoms += th->nb_atoms;
			r->total_lat += th->total_lat;
			if (r->max_lat < th->max_lat) {
				r->max_lat = th->max_lat;
				r->max_lat_start = th->max_lat_start;
				r->max_lat_end = th->max_lat_end;
			}
			continue;
		}
		r = &items[nr].row;
		items[nr].order = nr;
		nr++;
		snprintf(r->comm, sizeof(r->comm), "%s", th->comm);
		r->tid = th->tid;
		r->num_merged = o->pids ? 0 : 1;
		r->total_runtime = th->total_runtime;
		r->nb_atoms = th->nb_atoms;
		r->total_lat = th->total_lat;
		r->max_lat = th->max_lat;
		r->max_lat_start = th->max_lat_start;
		r->max_lat_end = th->max_lat_end;
	}
	free(t.slots);
	if (!o->pids) {
		/* the merged tree, by comm with the largest leftmost, is what sort_lat walks */
		for (size_t j = 0; j < nr; j++) {
			size_t rank = 0;

			for (size_t k = 0; k < nr; k++)
				if (strcmp(items[k].row.comm, items[j].row.comm) > 0)
					rank++;
			items[j].order = rank;
		}
	}
	sort_opts = o;
	qsort(items, nr, sizeof(*items), item_cmp);
	*rowsp = xcalloc(nr ? nr : 1, sizeof(**rowsp));
	for (size_t j = 0; j < nr; j++)
		(*rowsp)[j] = items[j].row;
	free(items);
	return nr;
}

void psched_latency_print(FILE *out, const struct psched_capture *cap,
			  const struct psched_latency_opts *o)
{
	struct psched_lat_row *rows;
	long unordered, timestamps, bugs;
	size_t nr = psched_latency_rows(cap, o, &rows, &unordered, &timestamps, &bugs);
	u64 all_runtime = 0, all_count = 0;

	fprintf(out, "\n -------------------------------------------------------------------------------------------------------------------------------------------\n");
	fprintf(out, "  Task                  |   Runtime ms  |  Count   | Avg delay ms    | Max delay ms    | Max delay start           | Max delay end          |\n");
	fprintf(out, " -------------------------------------------------------------------------------------------------------------------------------------------\n");
	for (size_t i = 0; i < nr; i++) {
		const struct psched_lat_row *r = &rows[i];
		char start[32], end[32];
		int ret;

		/* output_lat_thread(): no atoms, or the idle task, no row */
		if (!r->nb_atoms || !strcmp(r->comm, "swapper"))
			continue;
		all_runtime += r->total_runtime;
		all_count += r->nb_atoms;
		if (r->num_merged > 1)
			ret = fprintf(out, "  %s:(%d) ", r->comm, r->num_merged);
		else
			ret = fprintf(out, "  %s:%d ", r->comm, r->tid);
		for (int k = 0; k < 24 - ret; k++)
			fputc(' ', out);
		fmt_usec(start, sizeof(start), r->max_lat_start);
		fmt_usec(end, sizeof(end), r->max_lat_end);
		fprintf(out,
			"|%11.3f ms |%9llu | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | max end: %12s s\n",
			(double)r->total_runtime / NSEC_PER_MSEC, (unsigned long long)r->nb_atoms,
			(double)(r->total_lat / r->nb_atoms) / NSEC_PER_MSEC,
			(double)r->max_lat / NSEC_PER_MSEC, start, end);
	}
	fprintf(out, " -----------------------------------------------------------------------------------------------------------------\n");
	fprintf(out, "  TOTAL:                |%11.3f ms |%9llu |\n", (double)all_runtime / NSEC_PER_MSEC,
		(unsigned long long)all_count);
	fprintf(out, " ---------------------------------------------------\n");
	/* print_bad_events() */
	if (unordered && timestamps)
		fprintf(out, "  INFO: %.3f%% unordered timestamps (%ld out of %ld)\n",
			(double)unordered / (double)timestamps * 100.0, unordered, timestamps);
	if (bugs && timestamps)
		fprintf(out, "  INFO: %.3f%% context switch bugs (%ld out of %ld)\n",
			(double)bugs / (double)timestamps * 100.0, bugs, timestamps);
	fprintf(out, "\n");
	free(rows);
}

/* ------------------------------------------------------------------ */
/* timehist                                                            */

static const char dotted[] =
	"---------------------------------------------------------------------"
	"---------------------------------------------------------------------"
	"---------------------------------------------------------------------";

struct th_runtime {
	u64 last_time;
	char last_state;
	u64 ready_to_run;
	u64 migrated;
	u64 dt_run, dt_delay, dt_wait;
};

struct th_state {
	int comm_width;
	char str[48];
};

/* timehist_get_commstr(): "comm", "comm[tid]" or "comm[tid/pid]"; widens the column */
static const char *commstr(struct th_state *s, const char *comm, int tid, int pid)
{
	int n;

	if (pid == 0)
		n = snprintf(s->str, 32, "%s", comm);
	else if (tid != pid)
		n = snprintf(s->str, 32, "%s[%d/%d]", comm, tid, pid);
	else
		n = snprintf(s->str, 32, "%s[%d]", comm, tid);
	if (n > 31)
		n = 31;
	if (n > s->comm_width)
		s->comm_width = n;
	return s->str;
}

/* print_sched_time(): msec.usec */
static void sched_time(FILE *out, u64 ns, int width)
{
	fprintf(out, "%*llu.%03llu ", width, (unsigned long long)(ns / NSEC_PER_MSEC),
		(unsigned long long)(ns % NSEC_PER_MSEC / 1000));
}

/* a wakeup or migration line: timehist_print_wakeup_event(), _migration_event() */
static void timehist_event_line(FILE *out, struct th_state *s, const struct psched_event *e)
{
	char tstr[64];

	fmt_usec(tstr, sizeof(tstr), e->ts);
	fprintf(out, "%15s [%04u] ", tstr, e->cpu);
	/* the running task: pid 0 is perf's thread 0, "swapper" */
	commstr(s, e->next.pid ? e->next.comm : "swapper", e->next.pid, e->next.tgid);
	fprintf(out, " %-*s ", s->comm_width, s->str);
	fprintf(out, "  %9s  %9s  %9s ", "", "", "");
	commstr(s, e->task.comm, e->task.pid, e->task.tgid);
	if (e->type == PSCHED_MIGRATE)
		fprintf(out, "migrated: %s cpu %u => %u\n", s->str, e->target_cpu, e->dest_cpu);
	else
		fprintf(out, "awakened: %s\n", s->str);
}

void psched_timehist_print(FILE *out, const struct psched_capture *cap,
			   const struct psched_timehist_opts *o)
{
	struct tid_table tt = { .size = sizeof(struct th_runtime) };
	struct th_runtime *idle = xcalloc(cap->nr_cpus, sizeof(*idle));
	u64 *cpu_time = xcalloc(cap->nr_cpus, sizeof(*cpu_time));
	struct th_state s = { .comm_width = 30 };

	/* timehist_header() without the optional columns */
	fprintf(out, "%15s %6s ", "time", "cpu");
	fprintf(out, " %-*s", s.comm_width, "task name");
	fprintf(out, "  %9s  %9s  %9s", "wait time", "sch delay", "run time");
	fprintf(out, "\n");
	fprintf(out, "%15s %-6s ", "", "");
	fprintf(out, " %-*s", s.comm_width, "[tid/pid]");
	fprintf(out, "  %9s  %9s  %9s", "(msec)", "(msec)", "(msec)");
	fprintf(out, "\n");
	fprintf(out, "%.15s %.6s ", dotted, dotted);
	fprintf(out, " %.*s", s.comm_width, dotted);
	fprintf(out, "  %.9s  %.9s  %.9s", dotted, dotted, dotted);
	fprintf(out, "\n");

	for (size_t i = 0; i < cap->nr; i++) {
		const struct psched_event *e = &cap->ev[i];
		struct th_runtime *r;
		u64 t = e->ts, tprev;
		char tstr[64];

		if (e->type == PSCHED_WAKING || e->type == PSCHED_WAKEUP_NEW) {
			r = tid_slot(&tt, e->task.pid);
			if (!r->ready_to_run)
				r->ready_to_run = e->ts;
			if (o->wakeups)
				timehist_event_line(out, &s, e);
			continue;
		}
		if (e->type == PSCHED_MIGRATE) {
			/* perf reads migrations only for -M (and --pre-migrations) */
			if (o->migrations) {
				r = tid_slot(&tt, e->task.pid);
				r->migrated = e->ts;
				timehist_event_line(out, &s, e);
			}
			continue;
		}
		/* sched_switch: the sample is prev's; the idle task has one per CPU */
		r = e->task.pid ? tid_slot(&tt, e->task.pid) : &idle[e->cpu];
		tprev = cpu_time[e->cpu];
		/* timehist_update_runtime_stats() */
		r->dt_run = r->dt_delay = r->dt_wait = 0;
		if (tprev) {
			r->dt_run = t - tprev;
			if (r->ready_to_run && r->ready_to_run <= tprev)
				r->dt_delay = tprev - r->ready_to_run;
			if (r->last_time && r->last_time <= tprev)
				r->dt_wait = tprev - r->last_time;
		}
		/* timehist_print_sample() */
		fmt_usec(tstr, sizeof(tstr), t);
		fprintf(out, "%15s [%04u] ", tstr, e->cpu);
		if (e->task.pid)
			commstr(&s, e->task.comm, e->task.pid, e->task.tgid);
		else
			commstr(&s, "<idle>", 0, 0);
		fprintf(out, " %-*s ", s.comm_width, s.str);
		sched_time(out, r->dt_wait, 6);
		sched_time(out, r->dt_delay, 6);
		sched_time(out, r->dt_run, 6);
		if (o->wakeups)
			fprintf(out, "  %-*s", s.comm_width, "");
		fprintf(out, "\n");

		r->last_time = e->ts;
		r->last_state = e->prev_state;
		r->ready_to_run = e->prev_state == 'R' ? t : 0;
		r->migrated = 0;
		cpu_time[e->cpu] = e->ts;
	}
	free(tt.slots);
	free(idle);
	free(cpu_time);
}

/* ------------------------------------------------------------------ */
/* map                                                                 */

struct map_thread {
	char shortname[3];
	bool seen;
};

void psched_map_print(FILE *out, const struct psched_capture *cap, const struct psched_map_opts *o)
{
	struct tid_table t = { .size = sizeof(struct map_thread) };
	int *curr = xcalloc(cap->nr_cpus, sizeof(*curr));
	unsigned int *comp = xcalloc(cap->nr_cpus, sizeof(*comp));
	bool *in_comp = xcalloc(cap->nr_cpus, sizeof(*in_comp));
	char *curr_comm = xcalloc(cap->nr_cpus, PSCHED_COMM_LEN);
	unsigned int nr_comp = 0;
	char s1 = 'A', s2 = '0';

	for (unsigned int c = 0; c < cap->nr_cpus; c++)
		curr[c] = -1;
	for (size_t i = 0; i < cap->nr; i++) {
		const struct psched_event *e = &cap->ev[i];
		struct map_thread *tr;
		unsigned int cpus_nr;
		bool new_shortname = false, new_cpu = false;
		char ts[32];

		if (e->type != PSCHED_SWITCH)
			continue;
		if (o->compact) {
			if (!in_comp[e->cpu]) {
				in_comp[e->cpu] = true;
				comp[nr_comp++] = e->cpu;
				new_cpu = true;
			}
			cpus_nr = nr_comp;
		} else {
			cpus_nr = cap->nr_cpus;
		}
		curr[e->cpu] = e->next.pid;
		tr = tid_slot(&t, e->next.pid);
		if (!tr->seen) {
			tr->seen = true;
			if (!e->next.pid) {
				/* swapper:0 gets no letters, '.' */
				strcpy(tr->shortname, ". ");
			} else {
				tr->shortname[0] = s1;
				tr->shortname[1] = s2;
				if (s1 < 'Z') {
					s1++;
				} else {
					s1 = 'A';
					s2 = s2 < '9' ? (char)(s2 + 1) : '0';
				}
			}
			new_shortname = true;
		}
		if (o->cpus && !o->cpus[e->cpu])
			continue;
		fputs("  ", out);
		for (unsigned int k = 0; k < cpus_nr; k++) {
			unsigned int cpu = o->compact ? comp[k] : k;

			fputc(cpu == e->cpu ? '*' : ' ', out);
			if (curr[cpu] >= 0)
				fprintf(out, "%2s ",
					((struct map_thread *)tid_slot(&t, curr[cpu]))->shortname);
			else
				fputs("   ", out);
		}
		fmt_usec(ts, sizeof(ts), e->ts);
		fprintf(out, "  %12s secs ", ts);
		if (new_shortname)
			fprintf(out, "%s => %s:%d", tr->shortname, e->next.pid ? e->next.comm : "swapper",
				e->next.pid);
		if (o->compact && new_cpu)
			fprintf(out, " (CPU %u)", e->cpu);
		fputc('\n', out);
	}
	free(t.slots);
	free(curr);
	free(comp);
	free(in_comp);
	free(curr_comm);
}
