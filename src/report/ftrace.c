// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ftrace text writer. A tracepoint formats its line at once, stamped
 * with the running CPU's cursor. CPU cursors run ahead of the event clock,
 * so lines arrive slightly out of order; they wait in a min-heap ordered by
 * (timestamp, arrival) until the event clock passes them (no later line
 * can be stamped earlier than the event being processed) and then go out
 * through one large stdio buffer, so tracing makes no syscall per event.
 *
 * The header goes first, as the kernel's print_func_help_header_irq()
 * writes it, and it says how many entries follow ("entries-in-buffer/
 * entries-written"): the lines are written to an anonymous temporary file
 * and copied after the header when the trace is closed.
 */
#include "report/ftrace.h"

#include "kernel/sched.h"
#include "report/outfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 256
#define OUT_BUFFER (1 << 20)

struct trace_line {
	u64 ts;
	u64 seq;
	char text[LINE_MAX_LEN];
};

static const char *const event_names[NR_TRACE_EVENTS] = {
	[TRACE_SCHED_SWITCH] = "sched_switch",
	[TRACE_SCHED_WAKING] = "sched_waking",
	[TRACE_SCHED_WAKEUP] = "sched_wakeup",
	[TRACE_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
	[TRACE_SCHED_MIGRATE_TASK] = "sched_migrate_task",
	[TRACE_CPU_IDLE] = "cpu_idle",
	[TRACE_CPU_FREQUENCY] = "cpu_frequency",
	[TRACE_IPI_SEND_CPU] = "ipi_send_cpu",
	[TRACE_IPI_ENTRY] = "ipi_entry",
	[TRACE_IPI_EXIT] = "ipi_exit",
	[TRACE_CONTENTION_BEGIN] = "contention_begin",
	[TRACE_CONTENTION_END] = "contention_end",
	[TRACE_SCHED_PI_SETPRIO] = "sched_pi_setprio",
};

/* the event groups of --trace-events, as tracefs's events/ directories */
static const struct {
	const char *name;
	unsigned int mask;
} event_groups[] = {
	{ "sched", 1u << TRACE_SCHED_SWITCH | 1u << TRACE_SCHED_WAKING | 1u << TRACE_SCHED_WAKEUP |
			   1u << TRACE_SCHED_WAKEUP_NEW | 1u << TRACE_SCHED_MIGRATE_TASK |
			   1u << TRACE_SCHED_PI_SETPRIO },
	{ "power", 1u << TRACE_CPU_IDLE | 1u << TRACE_CPU_FREQUENCY },
	{ "ipi", 1u << TRACE_IPI_SEND_CPU | 1u << TRACE_IPI_ENTRY | 1u << TRACE_IPI_EXIT },
	{ "lock", 1u << TRACE_CONTENTION_BEGIN | 1u << TRACE_CONTENTION_END },
};

static struct {
	FILE *out;			/* the --trace file: the header, then the body */
	FILE *body;			/* the lines, until ftrace_close() */
	char *buf;
	unsigned int mask;
	u64 start, end;
	struct trace_line *heap;
	size_t nr, cap;
	u64 seq;
	unsigned long long written;	/* lines in the body */
	unsigned long long count[NR_TRACE_EVENTS];
	bool failed;
} tr;

const char *ftrace_event_name(enum trace_event ev)
{
	return event_names[ev];
}

unsigned long long ftrace_count(enum trace_event ev)
{
	return tr.count[ev];
}

static bool line_before(const struct trace_line *a, const struct trace_line *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static void heap_swap(size_t i, size_t j)
{
	struct trace_line t = tr.heap[i];

	tr.heap[i] = tr.heap[j];
	tr.heap[j] = t;
}

static void write_line(const struct trace_line *l)
{
	if (fputs(l->text, tr.body) == EOF)
		tr.failed = true;
	tr.written++;
}

static void heap_pop(void)
{
	size_t i = 0;

	tr.heap[0] = tr.heap[--tr.nr];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < tr.nr && line_before(&tr.heap[l], &tr.heap[m]))
			m = l;
		if (r < tr.nr && line_before(&tr.heap[r], &tr.heap[m]))
			m = r;
		if (m == i)
			break;
		heap_swap(i, m);
		i = m;
	}
}

/* everything stamped before the event clock can go out */
static void flush_until(u64 t)
{
	while (tr.nr && tr.heap[0].ts <= t) {
		write_line(&tr.heap[0]);
		heap_pop();
	}
}

static struct trace_line *heap_push(u64 ts)
{
	size_t i;

	if (tr.nr == tr.cap) {
		size_t cap = tr.cap ? 2 * tr.cap : 256;
		struct trace_line *h = realloc(tr.heap, cap * sizeof(*h));

		if (!h) {
			tr.failed = true;
			return NULL;
		}
		tr.heap = h;
		tr.cap = cap;
	}
	i = tr.nr++;
	tr.heap[i].ts = ts;
	tr.heap[i].seq = tr.seq++;
	while (i && line_before(&tr.heap[i], &tr.heap[(i - 1) / 2])) {
		heap_swap(i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return &tr.heap[i];
}

/* a comm as ftrace text must carry it: no spaces, no '=' */
static const char *clean_comm(const char *comm, char out[16])
{
	size_t i;

	for (i = 0; i < 15 && comm[i]; i++)
		out[i] = (comm[i] == ' ' || comm[i] == '=') ? '_' : comm[i];
	out[i] = '\0';
	return out;
}

static int trace_prio(const struct task_struct *p)
{
	return p->prio;
}

/*
 * One line: "<comm>-<pid> [<cpu>] <flags> <secs>.<usecs>: <event>: <fields>",
 * the task being the one running on the CPU that hits the tracepoint.
 */
static void emit(enum trace_event ev, const char *flags, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void emit(enum trace_event ev, const char *flags, const char *fmt, ...)
{
	unsigned int cpu = machine.this_cpu;
	u64 ts = max(cpu_now(), machine.now);
	const struct task_struct *curr = cpu_rq(cpu)->curr;
	struct trace_line *l;
	char comm[16];
	va_list ap;
	int n;

	if (!(tr.mask & (1u << ev)) || ts < tr.start || ts >= tr.end)
		return;
	flush_until(machine.now);
	l = heap_push(ts);
	if (!l)
		return;
	n = snprintf(l->text, sizeof(l->text), "%16s-%-7d [%03u] %s %5llu.%06llu: %s: ",
		     is_idle_task(curr) ? "<idle>" : clean_comm(curr->comm, comm),
		     is_idle_task(curr) ? 0 : curr->pid, cpu, flags,
		     (unsigned long long)(ts / NSEC_PER_SEC),
		     (unsigned long long)(ts % NSEC_PER_SEC / 1000), event_names[ev]);
	va_start(ap, fmt);
	n += vsnprintf(l->text + n, sizeof(l->text) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if ((size_t)n > sizeof(l->text) - 2)
		n = (int)sizeof(l->text) - 2;
	l->text[n] = '\n';
	l->text[n + 1] = '\0';
	tr.count[ev]++;
}

/* ------------------------------------------------------------------ */
/* the tracepoints                                                     */

static const char *switch_state(bool preempt, const struct task_struct *prev)
{
	/* a preempted task reports TASK_REPORT_MAX, which prints as "R+" */
	if (preempt || prev->is_stopper)
		return prev->__state == TASK_RUNNING ? "R+" : "R";
	if (prev->__state == TASK_RUNNING || is_idle_task(prev))
		return "R";
	if (prev->__state & TASK_DEAD)
		return "Z";
	if (prev->__state & TASK_UNINTERRUPTIBLE)
		return "D";
	return "S";
}

static void probe_sched_switch(bool preempt, struct task_struct *prev, struct task_struct *next)
{
	char pc[16], nc[16];

	emit(TRACE_SCHED_SWITCH, "d..2.",
	     "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
	     clean_comm(prev->comm, pc), is_idle_task(prev) ? 0 : prev->pid, trace_prio(prev),
	     switch_state(preempt, prev), clean_comm(next->comm, nc),
	     is_idle_task(next) ? 0 : next->pid, trace_prio(next));
}

static void probe_sched_wake(enum trace_event ev, struct task_struct *p, unsigned int target_cpu)
{
	char c[16];

	emit(ev, "d..2.", "comm=%s pid=%d prio=%d target_cpu=%03u", clean_comm(p->comm, c), p->pid,
	     trace_prio(p), target_cpu);
}

static void probe_sched_migrate_task(struct task_struct *p, unsigned int dest_cpu)
{
	char c[16];

	emit(TRACE_SCHED_MIGRATE_TASK, "d..2.", "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u",
	     clean_comm(p->comm, c), p->pid, trace_prio(p), task_cpu(p), dest_cpu);
}

/* under the task's rq lock, as rt_mutex_setprio() fires it */
static void probe_sched_pi_setprio(struct task_struct *p, int newprio)
{
	char c[16];

	emit(TRACE_SCHED_PI_SETPRIO, "d..2.", "comm=%s pid=%d oldprio=%d newprio=%d",
	     clean_comm(p->comm, c), p->pid, p->prio, newprio);
}

static void probe_cpu_idle(unsigned int state, unsigned int cpu)
{
	emit(TRACE_CPU_IDLE, "d..1.", "state=%u cpu_id=%u", state, cpu);
}

static void probe_cpu_frequency(unsigned int state, unsigned int cpu)
{
	emit(TRACE_CPU_FREQUENCY, "d..1.", "state=%u cpu_id=%u", state, cpu);
}

static const char *const ipi_reason[] = {
	[TRACE_IPI_RESCHEDULE] = "Rescheduling interrupts",
	[TRACE_IPI_CALL_FUNC] = "Function call interrupts",
};

/*
 * ipi_send_cpu's callsite and callback print as %pS does, "symbol+0xOFF/
 * 0xSIZE". The simulated kernel has no machine code: the symbols are the
 * kernel's, the offsets and sizes fixed placeholders of that form.
 */
static const struct {
	const char *sym;
	unsigned int off, size;
} ipi_site[] = {
	[TRACE_SITE_RESCHED_CURR] = { "resched_curr", 0x4c, 0x120 },
	[TRACE_SITE_TTWU_QUEUE_WAKELIST] = { "ttwu_queue_wakelist", 0x19c, 0x248 },
	[TRACE_SITE_GENERIC_EXEC_SINGLE] = { "generic_exec_single", 0xa4, 0x1a0 },
	[TRACE_SITE_IRQ_WORK_QUEUE_ON] = { "irq_work_queue_on", 0xb8, 0x150 },
};

static void probe_ipi_send_cpu(unsigned int cpu, enum trace_ipi why, enum trace_ipi_site site)
{
	/* a reschedule IPI has no callback: %pS of NULL is "0x0" */
	if (why == TRACE_IPI_RESCHEDULE)
		emit(TRACE_IPI_SEND_CPU, "d..2.", "cpu=%u callsite=%s+0x%x/0x%x callback=0x0", cpu,
		     ipi_site[site].sym, ipi_site[site].off, ipi_site[site].size);
	else
		emit(TRACE_IPI_SEND_CPU, "d..2.",
		     "cpu=%u callsite=%s+0x%x/0x%x callback=generic_smp_call_function_single_interrupt+0x0/0x48",
		     cpu, ipi_site[site].sym, ipi_site[site].off, ipi_site[site].size);
}

static void probe_ipi_irq(enum trace_event ev, enum trace_ipi why)
{
	emit(ev, "d.h1.", "(%s)", ipi_reason[why]);
}

/*
 * lock:contention_begin and contention_end print "%p (flags=%s)" and
 * "%p (ret=%d)"; the pointer is the lock's simulated address, printed as
 * ftrace prints a %p with hash-ptr off
 */
static void probe_contention(enum trace_event ev, u64 lock_addr, int arg)
{
	static const char *const flag_names[] = { "SPIN", "READ", "WRITE", "RT", "PERCPU", "MUTEX" };
	char flags[64];
	size_t n = 0;

	if (ev == TRACE_CONTENTION_END) {
		emit(ev, "...1.", "%016llx (ret=%d)", (unsigned long long)lock_addr, arg);
		return;
	}
	flags[0] = 0;
	for (unsigned int i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if ((unsigned int)arg & (1u << i))
			n += (size_t)snprintf(flags + n, sizeof(flags) - n, "%s%s", n ? "|" : "",
					      flag_names[i]);
	emit(ev, "...1.", "%016llx (flags=%s)", (unsigned long long)lock_addr, flags);
}

static const struct sched_trace_hooks ftrace_hooks = {
	.sched_switch = probe_sched_switch,
	.sched_wake = probe_sched_wake,
	.sched_migrate_task = probe_sched_migrate_task,
	.cpu_idle = probe_cpu_idle,
	.cpu_frequency = probe_cpu_frequency,
	.ipi_send_cpu = probe_ipi_send_cpu,
	.ipi_irq = probe_ipi_irq,
	.contention = probe_contention,
	.sched_pi_setprio = probe_sched_pi_setprio,
};

/* ------------------------------------------------------------------ */
/* setup                                                               */

static int parse_seconds(const char *s, size_t len, u64 *ns)
{
	char buf[64], *end;
	double v;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (errno || *end || v < 0 || v > 1e9)
		return -1;
	*ns = (u64)(v * 1e9 + 0.5);
	return 0;
}

static int parse_window(const char *w, char *err, size_t errlen)
{
	const char *colon = strchr(w, ':');

	tr.start = 0;
	tr.end = UINT64_MAX;
	if (!colon || parse_seconds(w, (size_t)(colon - w), &tr.start) ||
	    (colon[1] && parse_seconds(colon + 1, strlen(colon + 1), &tr.end)) ||
	    tr.end <= tr.start) {
		snprintf(err, errlen,
			 "--trace-window: expected START:END in simulated seconds with END > START "
			 "(END may be empty), got '%s'",
			 w);
		return -1;
	}
	return 0;
}

static int parse_events(const char *list, char *err, size_t errlen)
{
	const char *p = list;

	tr.mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		bool found = false;

		if (!len) { /* "a,,b", ",a" or a trailing comma: as for --features */
			snprintf(err, errlen, "--trace-events: empty event name in '%s'", list);
			return -1;
		}

		for (unsigned int i = 0; i < NR_TRACE_EVENTS; i++) {
			if (strlen(event_names[i]) == len && !strncmp(p, event_names[i], len)) {
				tr.mask |= 1u << i;
				found = true;
			}
		}
		for (size_t g = 0; g < sizeof(event_groups) / sizeof(event_groups[0]); g++) {
			if (strlen(event_groups[g].name) == len &&
			    !strncmp(p, event_groups[g].name, len)) {
				tr.mask |= event_groups[g].mask;
				found = true;
			}
		}
		if (!found) {
			snprintf(
				err, errlen,
				"--trace-events: unknown event '%.*s' (events: sched_switch, sched_waking, "
				"sched_wakeup, sched_wakeup_new, sched_migrate_task, cpu_idle, "
				"cpu_frequency, ipi_send_cpu, ipi_entry, ipi_exit, contention_begin, "
				"contention_end, sched_pi_setprio; groups: sched, power, ipi, lock)",
				(int)len, p);
			return -1;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!tr.mask) {
		snprintf(err, errlen, "--trace-events: empty event list");
		return -1;
	}
	return 0;
}

int ftrace_open(const char *path, const char *window, const char *events, char *err, size_t errlen)
{
	memset(&tr, 0, sizeof(tr));
	tr.mask = (1u << NR_TRACE_EVENTS) - 1;
	tr.end = UINT64_MAX;
	if (window && parse_window(window, err, errlen))
		return -1;
	if (events && parse_events(events, err, errlen))
		return -1;
	tr.out = outfile_open(path);
	if (!tr.out) {
		snprintf(err, errlen, "--trace: cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	tr.body = tmpfile();
	if (!tr.body) {
		snprintf(err, errlen, "--trace: cannot create a temporary file: %s", strerror(errno));
		outfile_close(tr.out);
		tr.out = NULL;
		return -1;
	}
	tr.buf = malloc(OUT_BUFFER);
	if (tr.buf)
		setvbuf(tr.body, tr.buf, _IOFBF, OUT_BUFFER);
	register_sched_trace_hooks(&ftrace_hooks);
	/* each CPU's frequency as the trace starts, as a tracer attached now would see it */
	unsigned int this_cpu = machine.this_cpu;

	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		sim_set_this_cpu(cpu);
		emit(TRACE_CPU_FREQUENCY, "d..1.", "state=%u cpu_id=%u", sim_cpu(cpu)->freq_khz,
		     cpu);
	}
	sim_set_this_cpu(this_cpu);
	return 0;
}

/*
 * The header of a tracefs `trace` file with the nop tracer and the default
 * options (irq-info on, record-tgid off): the kernel's print_event_info()
 * and print_func_help_header_irq(). Every line written stays "in the
 * buffer" (a simulated buffer overruns nothing), so both counts are equal.
 */
static void write_header(FILE *out)
{
	fprintf(out, "# tracer: nop\n#\n"
		     "# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n#\n",
		tr.written, tr.written, machine.nr_cpus);
	fputs("#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n",
	      out);
}

/* the header, then the body's lines */
static int copy_body(void)
{
	static char chunk[1 << 16];
	size_t n;

	write_header(tr.out);
	if (fflush(tr.body) || fseek(tr.body, 0, SEEK_SET))
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), tr.body)) > 0)
		if (fwrite(chunk, 1, n, tr.out) != n)
			return -1;
	return ferror(tr.body) ? -1 : 0;
}

int ftrace_close(void)
{
	int rc;

	if (!tr.out)
		return 0;
	register_sched_trace_hooks(NULL);
	flush_until(UINT64_MAX);
	rc = copy_body();
	fclose(tr.body);
	tr.body = NULL;
	if (outfile_close(tr.out))
		rc = -1;
	if (tr.failed)
		rc = -1;
	free(tr.buf);
	free(tr.heap);
	tr.out = NULL;
	tr.buf = NULL;
	tr.heap = NULL;
	return rc;
}
