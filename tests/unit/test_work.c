// SPDX-License-Identifier: GPL-2.0-only
/*
 * Task programs: sleeps are woken by their hrtimer on time (late by the
 * task's timer slack at most, none for an RT task; two sleeps whose slack
 * windows overlap end in one timer interrupt), futex wait/wake
 * pairs hand off correctly, pipe writers block when the pipe is full and
 * resume when a reader frees a page, a unix socket's send buffer bounds what
 * is queued. Every run validates the scheduler invariants after each event.
 */
#include "test_util.h"

#include "report/latency_print.h"
#include "report/perf_stat.h"
#include "report/sched_totals.h"
#include "work/tool_image.h"
#include "work/work.h"

#include <stdlib.h>

static struct topology *topo;

/* the loaded machine @topo, booted */
static void sim_boot(void)
{
	sched_feat_reset();
	sysctl_sched.hz = topo->hz;
	machine_init(topo, &topo->cost, 1);
	sched_init(0);
}

static void sim_load(const char *machine_name)
{
	char err[256];

	topo = topology_load(machine_name, err, sizeof(err));
	assert_non_null(topo);
}

static void sim_begin(const char *machine_name)
{
	sim_load(machine_name);
	sim_boot();
}

static void sim_go(void)
{
	sched_start();
	sim_run(sched_check_invariants);
	sched_check_final();
}

static void sim_end(void)
{
	/*
	 * the event queue first: it still points into runqueues (the fair
	 * servers' timers outlive a finished run)
	 */
	machine_destroy();
	work_free_all();
	sched_exit();
	topology_free(topo);
}

/* ---- sleep ---- */

struct sleeper {
	int left;
	u64 woke_at[8];
	int n;
};

static void sleeper_next(struct work_task *w, struct op_desc *op)
{
	struct sleeper *s = w->state;

	if (s->n)
		s->woke_at[s->n - 1] = cpu_now();
	if (s->n == s->left) {
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
	s->n++;
	*op = (struct op_desc){ .kind = OP_SLEEP, .ns = 1000000 };
}

static const struct program sleeper_prog = { .next = sleeper_next };

static void test_sleep_wakes_on_time(void **state)
{
	struct sleeper s = { .left = 5 };
	const struct cost_model *c;

	(void)state;
	sim_begin("smp1");
	c = machine.cost;
	work_start("sleeper", &sleeper_prog, &s, 0);
	sim_go();
	assert_int_equal(s.n, 5);
	for (int i = 1; i < 5; i++) {
		u64 gap = s.woke_at[i] - s.woke_at[i - 1];
		/*
		 * 1 ms asleep and the timer slack (no other timer fires in the
		 * window of an idle CPU), then the timer irq, the wakeup, the
		 * switch back
		 */
		u64 min_gap = 1000000 + TIMER_SLACK_DEFAULT_NS + c->syscall + c->irq_entry + c->ttwu;

		assert_true(gap >= min_gap);
		assert_true(gap < min_gap + 20000);
	}
	assert_int_equal(cpu_rq(0)->stat.ttwu_count, 5);
	sim_end();
}

/*
 * Two sleepers on one CPU until absolute times 30 us apart: the first
 * one's hard expiry (its time + 50 us of slack) comes after the second
 * one's soft expiry, so that interrupt ends both sleeps, the second well
 * before its own hard expiry.
 */
#define COALESCE_T0_NS 1000000ULL
#define COALESCE_GAP_NS 30000ULL

struct until_sleeper {
	u64 until;
	u64 woke_at;
	bool slept;
};

static void until_next(struct work_task *w, struct op_desc *op)
{
	struct until_sleeper *s = w->state;

	if (s->slept) {
		s->woke_at = cpu_now();
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
	s->slept = true;
	*op = (struct op_desc){ .kind = OP_SLEEP_UNTIL, .ns = s->until };
}

static const struct program until_prog = { .next = until_next };

static void test_sleep_slack_coalesces(void **state)
{
	struct until_sleeper a = { .until = COALESCE_T0_NS };
	struct until_sleeper b = { .until = COALESCE_T0_NS + COALESCE_GAP_NS };

	(void)state;
	sim_begin("smp1");
	work_start("a", &until_prog, &a, 0);
	work_start("b", &until_prog, &b, 0);
	sim_go();
	/* a at its hard expiry: nothing fired in its window before */
	assert_true(a.woke_at >= a.until + TIMER_SLACK_DEFAULT_NS);
	/* b in the same interrupt, not at its own hard expiry */
	assert_true(b.woke_at >= b.until);
	assert_true(b.woke_at < b.until + TIMER_SLACK_DEFAULT_NS);
	/* one timer interrupt woke both: b runs right after a */
	assert_true(b.woke_at - a.woke_at < COALESCE_GAP_NS);
	sim_end();
}

/* An RT task's sleeps have no slack; back to SCHED_NORMAL it has its 50 us again. */
struct rt_sleeper {
	int step;
	u64 slept_at, woke_at;
	u64 slack_rt, slack_normal;
};

#define RT_SLEEP_NS 1000000ULL

static void rt_sleeper_next(struct work_task *w, struct op_desc *op)
{
	struct rt_sleeper *s = w->state;

	switch (s->step++) {
	case 0:
		*op = (struct op_desc){ .kind = OP_SCHED_SETATTR,
					.attr = { .sched_policy = SCHED_FIFO, .sched_priority = 10 } };
		return;
	case 1:
		s->slack_rt = w->task->timer_slack_ns;
		s->slept_at = cpu_now();
		op_sleep(op, RT_SLEEP_NS);
		return;
	case 2:
		s->woke_at = cpu_now();
		*op = (struct op_desc){ .kind = OP_SCHED_SETATTR,
					.attr = { .sched_policy = SCHED_NORMAL } };
		return;
	default:
		s->slack_normal = w->task->timer_slack_ns;
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
}

static const struct program rt_sleeper_prog = { .next = rt_sleeper_next };

static void test_rt_sleep_has_no_slack(void **state)
{
	struct rt_sleeper s = { 0 };

	(void)state;
	sim_begin("smp1");
	work_start("rt", &rt_sleeper_prog, &s, 0);
	sim_go();
	assert_int_equal(s.slack_rt, 0);
	assert_int_equal(s.slack_normal, TIMER_SLACK_DEFAULT_NS);
	assert_true(s.woke_at - s.slept_at >= RT_SLEEP_NS);
	assert_true(s.woke_at - s.slept_at < RT_SLEEP_NS + TIMER_SLACK_DEFAULT_NS);
	sim_end();
}

/* ---- futex ping-pong ---- */

struct pingpong {
	struct futex f[2];
	int rounds;
	int done[2];
};

struct pp_task {
	struct pingpong *pp;
	int me;
	int step;
};

static void pp_next(struct work_task *w, struct op_desc *op)
{
	struct pp_task *t = w->state;
	struct pingpong *pp = t->pp;

	if (t->step == 2 * pp->rounds) {
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
	/* task 0: wake 1, wait; task 1: wait, wake 0 */
	bool wake = (t->step % 2 == 0) == (t->me == 0);

	if (wake) {
		pp->f[!t->me].val++;
		*op = (struct op_desc){ .kind = OP_FUTEX_WAKE, .futex = &pp->f[!t->me], .val = 1 };
	} else {
		/* my k-th wait sleeps while the word still says k (k wakes seen) */
		*op = (struct op_desc){ .kind = OP_FUTEX_WAIT, .futex = &pp->f[t->me],
					.val = (u32)pp->done[t->me]++ };
	}
	t->step++;
}

static const struct program pp_prog = { .next = pp_next };

static void test_futex_ping_pong(void **state)
{
	struct pingpong pp = { .rounds = 1000 };
	struct pp_task t[2] = { { &pp, 0, 0 }, { &pp, 1, 0 } };
	u64 wakes = 0;

	(void)state;
	sim_begin("smp2");
	/* two processes: futexes in memory they share */
	futex_init_at(&pp.f[0], 0, FUTEX_USER_BASE, FUTEX_SCOPE_SHARED);
	futex_init_at(&pp.f[1], 0, FUTEX_USER_BASE + sizeof(u32), FUTEX_SCOPE_SHARED);
	work_start("pp0", &pp_prog, &t[0], 0);
	work_start("pp1", &pp_prog, &t[1], 1);
	sim_go();
	assert_int_equal(t[0].step, 2000);
	assert_int_equal(t[1].step, 2000);
	for (unsigned int cpu = 0; cpu < 2; cpu++)
		wakes += cpu_rq(cpu)->stat.ttwu_count;
	/* a wake finds the peer either asleep (a real wakeup) or not yet waiting (EAGAIN) */
	assert_true(wakes > 0 && wakes <= 2000);
	sim_end();
}

/* ---- pipes and sockets fill up ---- */

struct filler {
	struct channel *ch;
	u32 total, moved, chunk;
	bool reader;
	int slept;
	u64 max_used;
};

static void filler_next(struct work_task *w, struct op_desc *op)
{
	struct filler *f = w->state;

	if (f->reader && !f->slept) {
		/* let the writer fill the buffer first */
		f->slept = 1;
		*op = (struct op_desc){ .kind = OP_SLEEP, .ns = 10000000 };
		return;
	}
	f->moved += (u32)w->result;
	f->max_used = max(f->max_used, f->ch->used);
	if (f->moved >= f->total) {
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
	*op = (struct op_desc){ .kind = f->reader ? OP_READ : OP_WRITE, .ch = f->ch,
				.bytes = min(f->chunk, f->total - f->moved) };
}

static const struct program filler_prog = { .next = filler_next };

static u64 topo_default_skb_overhead(void)
{
	struct cost_model c;

	cost_model_default(&c);
	return c.unix_skb_overhead;
}

static void fill(enum channel_kind kind, u32 chunk, u64 *max_used, u64 *writer_blocked_until)
{
	struct filler wr = { .total = 1 << 20, .chunk = chunk }, rd = wr;
	struct task_struct *writer;

	sim_begin("smp2");
	wr.ch = rd.ch = channel_new(kind);
	rd.reader = true;
	rd.chunk = 4096;
	writer = work_start("writer", &filler_prog, &wr, 0);
	work_start("reader", &filler_prog, &rd, 1);
	sim_go();
	assert_int_equal(wr.moved, 1 << 20);
	assert_int_equal(rd.moved, 1 << 20);
	*max_used = max(wr.max_used, rd.max_used);
	/* the writer could not finish before the reader woke at 10 ms */
	*writer_blocked_until = writer->exit_time;
	sim_end();
}

static void test_pipe_writer_blocks_when_full(void **state)
{
	u64 max_used, writer_end;

	(void)state;
	fill(CH_PIPE, 100, &max_used, &writer_end);
	assert_true(max_used <= PIPE_DEF_CAPACITY);
	assert_true(max_used > PIPE_DEF_CAPACITY - 4096);
	assert_true(writer_end > 10000000);
}

static void test_unix_socket_sndbuf_bounds_queue(void **state)
{
	u64 max_used, writer_end;

	(void)state;
	fill(CH_UNIX_STREAM, 100, &max_used, &writer_end);
	/* a write goes in while the charge is below sndbuf, so it may overshoot by one skb */
	assert_true(max_used < UNIX_SNDBUF_DEFAULT + 100 + topo_default_skb_overhead());
	assert_true(max_used >= UNIX_SNDBUF_DEFAULT);
	assert_true(writer_end > 10000000);
}

/* ---- released children ---- */

/*
 * A shell-like parent: it forks children one after the other and waits for
 * each; every other child forks a grandchild of its own and waits; each
 * works and sleeps a little. spawn.reap frees them once exited.
 */
struct forker {
	bool reap;
	int children, step;
};

struct forkee {
	int step;
	bool nested;
};

static struct forkee forkees[64];
static bool reap_all;

static void forkee_next(struct work_task *w, struct op_desc *op)
{
	struct forkee *f = w->state;

	switch (f->step++) {
	case 0:
		*op = (struct op_desc){ .kind = OP_RUN, .ns = 300000 };
		return;
	case 1:
		*op = (struct op_desc){ .kind = OP_SLEEP, .ns = 200000 };
		return;
	case 2:
		if (f->nested) {
			*op = (struct op_desc){ .kind = OP_SPAWN };
			op->spawn.prog = w->prog;
			op->spawn.state = f + 1;
			op->spawn.comm = "grandchild";
			op->spawn.reap = reap_all;
			return;
		}
		f->step++;
		/* fall through */
	case 3:
		*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN };
		return;
	case 4:
		*op = (struct op_desc){ .kind = OP_RUN, .ns = 100000 };
		return;
	default:
		*op = (struct op_desc){ .kind = OP_EXIT };
	}
}

static const struct program forkee_prog = { .next = forkee_next };

static void forker_next(struct work_task *w, struct op_desc *op)
{
	struct forker *f = w->state;
	int step = f->step++;

	if (step / 2 == f->children) {
		*op = (struct op_desc){ .kind = OP_EXIT };
		return;
	}
	if (step % 2) {
		*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN };
		return;
	}
	/* child i at forkees[2i], its grandchild (if any) at forkees[2i + 1] */
	forkees[2 * (step / 2)].nested = step / 2 % 2;
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = &forkee_prog;
	op->spawn.state = &forkees[2 * (step / 2)];
	op->spawn.comm = "child";
	op->spawn.reap = f->reap;
}

static const struct program forker_prog = { .next = forker_next };

struct forker_result {
	size_t nr_tasks;
	struct sched_totals totals;
	struct perf_stat_run perf;
	u64 cpu_ns, user_ns, nr_switches, nr_migrations, tasks;
	char latency[8192];
};

static void run_forker(bool reap, struct forker_result *r)
{
	struct forker f = { .reap = reap, .children = 20 };
	struct task_struct *p;
	FILE *m;

	memset(forkees, 0, sizeof(forkees));
	reap_all = reap;
	memset(r, 0, sizeof(*r));
	sim_begin("smp2");
	work_start("forker", &forker_prog, &f, 0);
	sim_go();
	list_for_each_entry(p, &sched_world.tasks, tasks) {
		r->nr_tasks++;
		if (is_idle_task(p) || p->is_stopper)
			continue;
		/* what report/run_json.c's group totals add up */
		r->tasks += 1 + p->cumul.nr_tasks;
		r->cpu_ns += p->se.sum_exec_runtime + p->cumul.sum_exec_runtime;
		r->user_ns += p->utime + p->cumul.utime;
		r->nr_switches += p->stats.nr_switches + p->cumul.nr_switches;
		r->nr_migrations += p->stats.nr_migrations + p->cumul.nr_migrations;
	}
	sched_totals_collect(&r->totals);
	assert_true(perf_stat_collect(&r->perf));
	m = fmemopen(r->latency, sizeof(r->latency) - 1, "w");
	assert_non_null(m);
	print_sched_latency(m);
	fclose(m);
	sim_end();
}

/*
 * Released tasks are freed, and every report counts them as before: the
 * group totals, sched totals, perf stat's counts and perf sched latency's
 * rows are the same with and without spawn.reap (issue 18).
 */
static void test_released_tasks_counted(void **state)
{
	static struct forker_result kept, freed;

	(void)state;
	run_forker(false, &kept);
	run_forker(true, &freed);
	/* 20 children, 10 grandchildren: all kept, or all freed (the idle and stopper tasks stay) */
	assert_int_equal(kept.nr_tasks, 2 * 2 + 1 + 30);
	assert_int_equal(freed.nr_tasks, 2 * 2 + 1);
	assert_int_equal(kept.tasks, 31);
	assert_int_equal(freed.tasks, 31);
	assert_true(kept.cpu_ns == freed.cpu_ns);
	assert_true(kept.user_ns == freed.user_ns);
	assert_true(kept.nr_switches == freed.nr_switches);
	assert_true(kept.nr_migrations == freed.nr_migrations);
	assert_memory_equal(&kept.totals, &freed.totals, sizeof(kept.totals));
	assert_memory_equal(&kept.perf, &freed.perf, sizeof(kept.perf));
	assert_string_equal(kept.latency, freed.latency);
	assert_non_null(strstr(freed.latency, "child:(20)"));
	assert_non_null(strstr(freed.latency, "grandchild:(10)"));
}

/* ---- a tool's image: its children's page faults and their exit by pages mapped ---- */

struct imager {
	int step;
	bool thread;
	struct tool_image image;
};

static void imagee_next(struct work_task *w, struct op_desc *op)
{
	(void)w;
	*op = (struct op_desc){ .kind = OP_EXIT };
}

static const struct program imagee_prog = { .next = imagee_next };

static void imager_next(struct work_task *w, struct op_desc *op)
{
	struct imager *im = w->state;

	switch (im->step++) {
	case 0:
		*op = (struct op_desc){ .kind = OP_SPAWN };
		op->spawn.prog = &imagee_prog;
		op->spawn.thread = im->thread;
		op->spawn.comm = "imagee";
		op->spawn.image = &im->image;
		return;
	case 1:
		*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN };
		return;
	default:
		*op = (struct op_desc){ .kind = OP_EXIT };
	}
}

static const struct program imager_prog = { .next = imager_next };

/* the child's runtime and user time: @faults split over its start and its exit() */
static void run_imager(bool thread, u32 faults, u32 pages, u64 *runtime, u64 *utime)
{
	struct imager im = { .thread = thread,
			     .image = { .start_faults = faults / 4,
					.exit_faults = faults - faults / 4,
					.pages = pages } };
	struct task_struct *p;

	sim_load("smp1");
	topo->cost.page_fault = 2000;
	topo->cost.exit_page = 30;
	sim_boot();
	work_start("imager", &imager_prog, &im, 0);
	sim_go();
	*runtime = *utime = 0;
	list_for_each_entry(p, &sched_world.tasks, tasks) {
		if (!strcmp(p->comm, "imagee")) {
			*runtime = p->se.sum_exec_runtime;
			*utime = p->utime;
		}
	}
	assert_int_not_equal(*runtime, 0);
	sim_end();
}

/*
 * A forked child's page faults cost page_fault each, as system time; its
 * exit costs exit_page for each page it maps; a thread shares the image,
 * so it has neither faults nor pages of its own.
 */
static void test_tool_image_costs(void **state)
{
	u64 base, base_u, faulted, faulted_u, mapped, mapped_u, thread, thread_u, tpages, tpages_u;

	(void)state;
	run_imager(false, 0, 0, &base, &base_u);
	run_imager(false, 100, 0, &faulted, &faulted_u);
	run_imager(false, 0, 1000, &mapped, &mapped_u);
	run_imager(true, 0, 0, &thread, &thread_u);
	run_imager(true, 100, 1000, &tpages, &tpages_u);
	assert_int_equal(faulted - base, 100 * 2000);
	assert_int_equal(faulted_u, base_u);
	assert_int_equal(mapped - base, 1000 * 30);
	assert_int_equal(tpages, thread);
	assert_int_equal(tpages_u, thread_u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleep_wakes_on_time),
		cmocka_unit_test(test_sleep_slack_coalesces),
		cmocka_unit_test(test_rt_sleep_has_no_slack),
		cmocka_unit_test(test_futex_ping_pong),
		cmocka_unit_test(test_pipe_writer_blocks_when_full),
		cmocka_unit_test(test_unix_socket_sndbuf_bounds_queue),
		cmocka_unit_test(test_released_tasks_counted),
		cmocka_unit_test(test_tool_image_costs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
