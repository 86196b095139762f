// SPDX-License-Identifier: GPL-2.0-only
/*
 * UnixBench's pipe-based context switching, as byte-unixbench 6.0.0
 * (UnixBench/src/context1.c and the UnixBench/Run script) does it:
 *
 * `context1 SECONDS`: arms alarm(SECONDS), makes two pipes and forks. The
 * parent writes its counter `iter` (an unsigned long: 8 bytes) to pipe 1
 * and reads it back from pipe 2, then increments it; the child reads pipe 1,
 * checks the value, writes it to pipe 2 and increments its own copy. The
 * alarm is not inherited by the child: at SIGALRM the parent prints
 * "COUNT|iter|1|lps" and exits, which closes its pipe ends; the child then
 * reads end of file (or gets EPIPE), prints its own COUNT line and exits.
 *
 * `Run context1 [-i N] [-c COPIES]...`: for each -c value (default 1 and the
 * number of CPUs), context1 is a 'long' test: N passes (default 10), each
 * after "sync; sleep 1; sync; sleep 2", each running COPIES `context1 10`
 * at once. A copy's result is the last COUNT line it printed and its
 * elapsed time from before it started until both processes exited; a pass
 * sums the counts and averages the times. combinePassResults() drops the
 * int(N/3) passes with the lowest count and takes the geometric mean of
 * count / time over the rest; the index is score / 4000 * 10.
 */
#include "work/bench.h"
#include "work/bench_opts.h"

#include "sim/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UB_MAX_SECONDS 86400u
#define UB_MAX_ITERATIONS 1000u
#define UB_MAX_COPIES 10000u
/* sizeof(unsigned long) on the LP64 machines modelled */
#define UB_COUNTER_BYTES 8
/* Run: system("sync; sleep 1; sync; sleep 2") before each pass */
#define UB_PASS_SLEEP1_NS NSEC_PER_SEC
#define UB_PASS_SLEEP2_NS (2 * NSEC_PER_SEC)

/* ------------------------------------------------------------------ */
/* the score arithmetic                                                */

unsigned int unixbench_combine(const struct ub_pass *p, unsigned int n, double *score,
			       double *time_s)
{
	unsigned int *order = xcalloc(n ? n : 1, sizeof(*order));
	unsigned int ndump = n / 3, kept = 0;
	double product = 0, total = 0;

	/* perl's sort is a stable merge sort: equal counts keep their order */
	for (unsigned int i = 0; i < n; i++) {
		unsigned int j = i;

		while (j > 0 && p[order[j - 1]].count > p[i].count) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (unsigned int i = ndump; i < n; i++) {
		const struct ub_pass *r = &p[order[i]];

		kept++;
		/* timebase 1: count per second of the pass's time */
		if (r->time_s > 0) {
			if (r->count > 0)
				product += log(r->count) - log(r->time_s);
		} else if (r->count > 0) {
			product += log(r->count);
		}
		total += r->time_s;
	}
	free(order);
	*score = kept ? exp(product / kept) : 0;
	*time_s = kept ? total / kept : 0;
	return kept;
}

double unixbench_index(double score, double baseline)
{
	return score / baseline * 10;
}

/* ------------------------------------------------------------------ */
/* command lines                                                       */

static int ub_uint(const char *tool, const char *what, const char *s, unsigned int lo,
		   unsigned int hi, unsigned int *out, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = s ? strtoul(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || s[0] == '-' || s[0] == '+' || v < lo || v > hi) {
		snprintf(err, errlen, "%s: %s needs an integer in %u..%u, got '%s'", tool, what, lo,
			 hi, s ? s : "");
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

/* Run's other tests: known to it, not modelled here */
static const char *const run_tests[] = {
	"dhry2reg", "whetstone-double", "syscall", "pipe", "spawn", "execl", "fstime-w",
	"fstime-r", "fstime", "fsbuffer-w", "fsbuffer-r", "fsbuffer", "fsdisk-w", "fsdisk-r",
	"fsdisk", "shell1", "shell8", "shell16", "short", "int", "long", "float", "double",
	"arithoh", "C", "dc", "hanoi", "grep", "sysexec", "2d-rects", "2d-lines", "2d-circle",
	"2d-ellipse", "2d-shapes", "2d-aashapes", "2d-polys", "2d-text", "2d-blit", "2d-window",
	"ubgears", "arithmetic", "dhry", "dhrystone", "whets", "whetstone", "load", "misc",
	"speed", "oldsystem", "system", "fs", "shell", "graphics", "index", "gindex", "all", NULL,
};

static int parse_run(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	bool have_test = false;

	b->kind = BENCH_UNIXBENCH;
	b->ub_seconds = UB_CONTEXT1_SECONDS;
	b->ub_iterations = UB_LONG_ITERATIONS;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct bench_opt *o =
			a[0] == '-' && a[1] && !a[2] ? bench_opt_find(unixbench_run_opts, a[1]) : NULL;

		if (o && o->refused) {
			return bench_opt_refuse("Run", o, err, errlen);
		} else if (!strcmp(a, "-i")) {
			if (ub_uint("Run", "-i (iterations)", argv[i + 1], 1, UB_MAX_ITERATIONS,
				    &b->ub_iterations, err, errlen))
				return -1;
			i++;
		} else if (!strcmp(a, "-c")) {
			if (b->ub_nr_copies == UB_MAX_COPIES_ARGS) {
				snprintf(err, errlen, "Run: at most %d -c options", UB_MAX_COPIES_ARGS);
				return -1;
			}
			if (ub_uint("Run", "-c (copies)", argv[i + 1], 1, UB_MAX_COPIES,
				    &b->ub_copies[b->ub_nr_copies], err, errlen))
				return -1;
			b->ub_nr_copies++;
			i++;
		} else if (a[0] == '-') {
			snprintf(err, errlen, "Run: unknown option %s (usage: Run context1 [-i N] [-c N]...)", a);
			return -1;
		} else if (!strcmp(a, "context1")) {
			have_test = true;
		} else {
			for (int t = 0; run_tests[t]; t++) {
				if (!strcmp(a, run_tests[t])) {
					snprintf(err, errlen, "Run: test \"%s\" is not modelled (only context1)", a);
					return -1;
				}
			}
			snprintf(err, errlen, "Run: unknown test \"%s\"", a);
			return -1;
		}
	}
	if (!have_test) {
		snprintf(err, errlen, "Run: give the test: context1 (the default index suite is not modelled)");
		return -1;
	}
	return 0;
}

int unixbench_parse(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	if (strcmp(argv[0], "context1"))
		return parse_run(b, argc, argv, err, errlen);
	b->kind = BENCH_CONTEXT1;
	if (argc != 2) {
		snprintf(err, errlen, "context1: Usage: context duration (one argument: seconds)");
		return -1;
	}
	return ub_uint("context1", "duration", argv[1], 1, UB_MAX_SECONDS, &b->ub_seconds, err,
		       errlen);
}

/* ------------------------------------------------------------------ */
/* the model                                                           */

struct ub_state;

/* one context1 process pair: [0] the parent (master), [1] the child (slave) */
struct ub_copy {
	struct ub_state *s;
	struct channel *p1, *p2;
	struct hrtimer alarm;
	struct work_task *master;
	int mphase;			/* the parent's start: alarm, fork, loop */
	u64 iter[2];			/* each process's `iter` */
	int step[2];			/* 0: first op of the round, 1: second */
	bool pending[2];		/* a loop op was issued */
	bool reported[2];
	bool wake_run[2];		/* the last to exit: Run's wait ends */
	u64 start_ns, end_ns;
	u64 count;			/* the last COUNT line printed */
};

enum { P_RUN_BEGIN, P_SLEEP1, P_SLEEP2, P_SPAWN, P_WAIT };

struct ub_state {
	struct bench *b;
	struct ub_copy *copy;		/* the current pass's copies */
	unsigned int nr_copies, spawned;
	struct futex live;		/* context1 processes of the pass still running */
	unsigned int run, pass;		/* Run: which -c value, which pass */
	int phase;
};

static void alarm_fn(struct hrtimer *t)
{
	struct ub_copy *c = container_of(t, struct ub_copy, alarm);

	work_signal(c->master);
}

/* report(): the COUNT line, then exit() closes both pipe ends */
static void report(struct work_task *w, void *arg)
{
	struct ub_copy *c = arg;
	struct ub_state *s = c->s;
	struct bench *b = s->b;
	int me = w == c->master ? 0 : 1;

	c->reported[me] = true;
	c->count = c->iter[me];
	if (b->kind == BENCH_CONTEXT1 && b->ub_nr_count < 2)
		b->ub_count[b->ub_nr_count++] = c->iter[me];
	/* alarm(0) before the reports that were not SIGALRM's */
	if (me == 0)
		hrtimer_cancel(&c->alarm);
	if (me == 0) {
		pipe_close_write(c->p1);
		pipe_close_read(c->p2);
	} else {
		pipe_close_read(c->p1);
		pipe_close_write(c->p2);
	}
	c->end_ns = cpu_now();
	if (--s->live.val)
		return;
	c->wake_run[me] = true;
	if (b->kind == BENCH_CONTEXT1) {
		b->stop_ns = cpu_now();
		b->stopped = true;
	}
}

/*
 * The loop of process @me: the parent writes pipe 1 and reads pipe 2, the
 * child reads pipe 1 and writes pipe 2; `iter` goes up after the second.
 * A signal, end of file or EPIPE ends it with report(), then exit.
 */
static void loop_next(struct work_task *w, struct ub_copy *c, struct op_desc *op, int me)
{
	bool first, do_read, broken = w->signalled;

	if (c->reported[me]) {
		if (c->wake_run[me]) {
			c->wake_run[me] = false;
			op_futex(op, OP_FUTEX_WAKE, &c->s->live, 1);
			return;
		}
		op_simple(op, OP_EXIT);
		return;
	}
	if (c->pending[me] && !broken) {
		c->pending[me] = false;
		if (!w->result) {
			/* end of file or EPIPE */
			broken = true;
		} else if (++c->step[me] == 2) {
			c->step[me] = 0;
			c->iter[me]++;
		}
	}
	if (broken) {
		op_call(op, report, c);
		return;
	}
	first = c->step[me] == 0;
	do_read = me == 0 ? !first : first;
	op_rw(op, do_read ? OP_READ : OP_WRITE, first ? c->p1 : c->p2, UB_COUNTER_BYTES);
	c->pending[me] = true;
}

static void child_next(struct work_task *w, struct op_desc *op)
{
	loop_next(w, w->state, op, 1);
}

static const struct program child_prog = { .next = child_next };

static void master_start(struct work_task *w, void *arg)
{
	struct ub_copy *c = arg;
	struct bench *b = c->s->b;

	(void)w;
	c->start_ns = cpu_now();
	/* wake_me(duration, report): alarm() */
	hrtimer_start(&c->alarm, cpu_now() + (u64)b->ub_seconds * NSEC_PER_SEC);
	if (b->kind == BENCH_CONTEXT1) {
		b->start_ns = cpu_now();
		b->started = true;
	}
}

static void master_next(struct work_task *w, struct op_desc *op)
{
	struct ub_copy *c = w->state;

	switch (c->mphase) {
	case 0:
		c->master = w;
		c->mphase = 1;
		op_call(op, master_start, c);
		return;
	case 1:
		c->mphase = 2;
		*op = (struct op_desc){ .kind = OP_SPAWN };
		op->spawn.prog = &child_prog;
		op->spawn.state = c;
		op->spawn.comm = "context1";
		/* it reads one pipe and writes the other */
		op->spawn.footprint = FOOTPRINT_TASK + 2 * FOOTPRINT_CHANNEL;
		return;
	default:
		loop_next(w, c, op, 0);
		return;
	}
}

static const struct program master_prog = { .next = master_next };

static void copy_init(struct ub_state *s, struct ub_copy *c)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->p1 = channel_new(CH_PIPE);
	c->p2 = channel_new(CH_PIPE);
	hrtimer_init(&c->alarm, alarm_fn);
}

/* runOnePass(): the copies' COUNTs summed, their elapsed times averaged */
static void pass_end(struct ub_state *s, struct ub_run *r)
{
	struct ub_pass *p = &r->passes[s->pass];
	double time = 0;

	p->count = 0;
	for (unsigned int i = 0; i < s->nr_copies; i++) {
		p->count += (double)s->copy[i].count;
		time += (double)(s->copy[i].end_ns - s->copy[i].start_ns) / 1e9;
	}
	p->time_s = time / s->nr_copies;
	r->nr_passes = s->pass + 1;
	s->b->progress_done++;
}

static void run_end(struct ub_state *s, struct ub_run *r)
{
	struct bench *b = s->b;

	r->end_ns = cpu_now();
	r->samples = unixbench_combine(r->passes, r->nr_passes, &r->score, &r->time_s);
	r->index = unixbench_index(r->score, UB_CONTEXT1_BASELINE);
	b->ub_nr_runs = s->run + 1;
	if (b->ub_nr_runs == b->ub_nr_copies) {
		b->stop_ns = cpu_now();
		b->stopped = true;
	}
}

/* Run: for each -c value, runTests() -> runBenchmark() -> the passes */
static void run_next(struct work_task *w, struct op_desc *op)
{
	struct ub_state *s = w->state;
	struct bench *b = s->b;
	struct ub_run *r;

	for (;;) {
		r = s->run < b->ub_nr_copies ? &b->ub_runs[s->run] : NULL;
		switch (s->phase) {
		case P_RUN_BEGIN:
			if (!r) {
				op_simple(op, OP_EXIT);
				return;
			}
			/* runTests(): start = time() */
			r->start_ns = cpu_now();
			if (!b->started) {
				b->start_ns = cpu_now();
				b->started = true;
			}
			s->pass = 0;
			s->phase = P_SLEEP1;
			continue;
		case P_SLEEP1:
			/* system("sync; sleep 1; sync; sleep 2") */
			s->phase = P_SLEEP2;
			op_sleep(op, UB_PASS_SLEEP1_NS);
			return;
		case P_SLEEP2:
			s->phase = P_SPAWN;
			op_sleep(op, UB_PASS_SLEEP2_NS);
			return;
		case P_SPAWN:
			if (!s->spawned) {
				s->nr_copies = r->copies;
				for (unsigned int i = 0; i < s->nr_copies; i++)
					copy_init(s, &s->copy[i]);
				s->live.val = 2 * s->nr_copies;
			}
			if (s->spawned < s->nr_copies) {
				*op = (struct op_desc){ .kind = OP_SPAWN };
				op->spawn.prog = &master_prog;
				op->spawn.state = &s->copy[s->spawned++];
				op->spawn.comm = "context1";
				op->spawn.footprint = FOOTPRINT_TASK + 2 * FOOTPRINT_CHANNEL;
				return;
			}
			s->phase = P_WAIT;
			continue;
		case P_WAIT:
			if (s->live.val) {
				op_futex(op, OP_FUTEX_WAIT, &s->live, s->live.val);
				return;
			}
			s->spawned = 0;
			pass_end(s, r);
			if (++s->pass < b->ub_iterations) {
				s->phase = P_SLEEP1;
				continue;
			}
			run_end(s, r);
			s->run++;
			s->phase = P_RUN_BEGIN;
			continue;
		}
	}
}

static const struct program run_prog = { .next = run_next };

void unixbench_start(struct bench *b)
{
	struct ub_state *s = xcalloc(1, sizeof(*s));
	unsigned int max = 1;

	b->priv = s;
	s->b = b;
	futex_init_unhashed(&s->live, 0);
	if (b->kind == BENCH_CONTEXT1) {
		s->copy = xcalloc(1, sizeof(*s->copy));
		s->nr_copies = 1;
		copy_init(s, &s->copy[0]);
		s->live.val = 2;
		/* the progress line: the alarm ends it */
		b->progress_span_ns = (u64)b->ub_seconds * NSEC_PER_SEC;
		work_start_allowed("context1", &master_prog, &s->copy[0], 0, b->taskset_cpus);
		return;
	}
	if (!b->ub_nr_copies) {
		/* Run's default: 1 copy, then one per CPU */
		b->ub_copies[b->ub_nr_copies++] = 1;
		if (machine.nr_cpus > 1)
			b->ub_copies[b->ub_nr_copies++] = machine.nr_cpus;
	}
	b->ub_runs = xcalloc(b->ub_nr_copies, sizeof(*b->ub_runs));
	for (unsigned int i = 0; i < b->ub_nr_copies; i++) {
		b->ub_runs[i].copies = b->ub_copies[i];
		b->ub_runs[i].passes = xcalloc(b->ub_iterations, sizeof(struct ub_pass));
		max = max > b->ub_copies[i] ? max : b->ub_copies[i];
	}
	s->copy = xcalloc(max, sizeof(*s->copy));
	b->progress_total = (u64)b->ub_nr_copies * b->ub_iterations;
	/*
	 * and by simulated time, as the passes are 13 s each: their sleeps and
	 * context1's duration (a pass ends a little after; the count catches up)
	 */
	b->progress_span_ns = b->progress_total *
			      (UB_PASS_SLEEP1_NS + UB_PASS_SLEEP2_NS + (u64)b->ub_seconds * NSEC_PER_SEC);
	/* the perl process running Run */
	work_start_allowed("Run", &run_prog, s, 0, b->taskset_cpus);
}

void unixbench_free(struct bench *b)
{
	struct ub_state *s = b->priv;

	if (s)
		free(s->copy);
	for (unsigned int i = 0; b->ub_runs && i < b->ub_nr_copies; i++)
		free(b->ub_runs[i].passes);
	free(b->ub_runs);
}
