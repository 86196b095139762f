// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RT class's placement and balancing against v6.18's rt.c and
 * cpupri.c: cpupri levels (with the fair server's CPUPRI_HIGHER),
 * find_lowest_rq()'s choice, the pushable plist's order, pull and the
 * RT_PUSH_IPI push chain, and SCHED_RR's quantum.
 */
#include "test_sched_helpers.h"

static struct cpumask *mask_of(const char *list)
{
	struct cpumask *m = alloc_cpumask();
	char err[128];

	if (cpulist_parse(list, m, err, sizeof(err)))
		fail_msg("cpulist_parse(%s): %s", list, err);
	return m;
}

static struct sched_attr fifo(u32 prio)
{
	return (struct sched_attr){ .sched_policy = SCHED_FIFO, .sched_priority = prio };
}

/* a workload task with @attr (NULL: SCHED_NORMAL) on @cpu, allowed on @cpus (NULL: all) */
static struct task_struct *start(const char *comm, const struct program *prog, void *state,
				 const struct sched_attr *attr, unsigned int cpu, const char *cpus)
{
	struct cpumask *m = cpus ? mask_of(cpus) : NULL;
	struct task_struct *p;

	work_set_sched_attr(attr);
	p = work_start_allowed(comm, prog, state, cpu, m);
	work_set_sched_attr(NULL);
	if (m)
		free_cpumask(m);
	return p;
}

/*
 * A task that find_lowest_rq() is asked about: its priority, the CPU it
 * last ran on and its allowed CPUs; never queued.
 */
struct probe {
	struct task_struct t;
};

static struct task_struct *probe(struct probe *pr, int prio, unsigned int prev, const char *cpus)
{
	memset(pr, 0, sizeof(*pr));
	pr->t.prio = prio;
	pr->t.cpu = prev;
	pr->t.cpus_mask = mask_of(cpus);
	pr->t.nr_cpus_allowed = cpumask_weight(pr->t.cpus_mask);
	return &pr->t;
}

static void probe_free(struct probe *pr)
{
	free_cpumask(pr->t.cpus_mask);
}

/* find_lowest_rq() for @prio from @this_cpu */
static int lowest(int prio, unsigned int prev, const char *cpus, unsigned int this_cpu)
{
	struct probe pr;
	int cpu;

	tl_cpu(this_cpu);
	cpu = find_lowest_rq(probe(&pr, prio, prev, cpus));
	probe_free(&pr);
	return cpu;
}

#define PRIO(rt_priority) (MAX_RT_PRIO - 1 - (rt_priority))

/* sleep @sleep_ns, then run for ever; remember where and when it first ran */
struct sleeper {
	u64 sleep_ns;
	int step;
	u64 ran_at;
	int ran_on;
};

static void sleeper_next(struct work_task *w, struct op_desc *op)
{
	struct sleeper *s = w->state;

	memset(op, 0, sizeof(*op));
	if (s->step++ == 0) {
		op->kind = OP_SLEEP;
		op->ns = s->sleep_ns;
		return;
	}
	if (s->step == 2) {
		s->ran_at = cpu_now();
		s->ran_on = (int)smp_processor_id();
	}
	op->kind = OP_RUN;
	op->ns = NSEC_PER_MSEC;
}

static const struct program sleeper_prog = { .next = sleeper_next };

/*
 * cpupri levels follow the kernel's events: inc_rt_prio_smp() and
 * dec_rt_prio_smp() set an RT CPU's level, inc_dl_deadline() puts a CPU
 * whose fair server is queued at CPUPRI_HIGHER and dec_dl_deadline()
 * back at its RT level. cpupri_find() takes only the lowest level below
 * the task's (not any lower CPU), and find_lowest_rq() then prefers the
 * task's previous CPU. A FIFO 90 task waking beside a pinned FIFO 85 hog
 * goes to find_lowest_rq()'s CPU (select_task_rq_rt()): not CPU 0, whose
 * RT hog is only FIFO 80 but whose fair server runs fair tasks.
 */
static void test_cpupri_levels_and_the_fair_server(void **state)
{
	const struct sched_attr f80 = fifo(80), f85 = fifo(85), f10 = fifo(10), f90 = fifo(90);
	struct sleeper w = { .sleep_ns = 970 * NSEC_PER_MSEC };
	struct sched_dl_entity *dl_se;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 250, NULL);
	dl_se = &cpu_rq(0)->fair_server;
	start("fifo80", &tl_busy_prog, NULL, &f80, 0, "0");
	start("fair0", &tl_busy_prog, NULL, NULL, 0, "0");
	start("fifo85", &tl_busy_prog, NULL, &f85, 1, "1");
	start("fair2", &tl_busy_prog, NULL, NULL, 2, "2");
	start("fifo10", &tl_busy_prog, NULL, &f10, 3, "3");
	start("waker", &sleeper_prog, &w, &f90, 1, "0-1");
	tl_run_until(940 * NSEC_PER_MSEC, true);
	assert_int_equal(cpupri_of_cpu(0), 80);
	assert_int_equal(cpupri_of_cpu(1), 85);
	assert_int_equal(cpupri_of_cpu(2), CPUPRI_NORMAL);
	assert_int_equal(cpupri_of_cpu(3), 10);
	/* CPU 0's fair hog starved to the zero-laxity point: the server is queued */
	tl_run_until(960 * NSEC_PER_MSEC, true);
	assert_true(dl_se->on_dl_rq);
	assert_int_equal(cpupri_of_cpu(0), CPUPRI_HIGHER);
	/* a FIFO 50 task: the fair CPU 2, not CPU 3 (FIFO 10), even from CPU 3 */
	assert_int_equal(lowest(PRIO(50), 1, "0-3", 1), 2);
	assert_int_equal(lowest(PRIO(50), 3, "0-3", 3), 2);
	/* kept off CPU 2: CPU 3, at the lowest level left */
	assert_int_equal(lowest(PRIO(50), 1, "0-1,3", 1), 3);
	/* a FIFO 90 task: not CPU 0 while the server runs there */
	assert_int_equal(lowest(PRIO(90), 0, "0-1", 1), 1);
	/* the wakeup at 970 ms lands on CPU 1 and runs at once */
	tl_run_until(980 * NSEC_PER_MSEC, true);
	assert_int_equal(w.ran_on, 1);
	assert_true(w.ran_at < 970 * NSEC_PER_MSEC + 100 * NSEC_PER_USEC);
	/* the server's runtime used (seen at the tick), CPU 0 is at FIFO 80's level again */
	tl_run_until(1010 * NSEC_PER_MSEC, true);
	assert_false(dl_se->on_dl_rq);
	assert_int_equal(cpupri_of_cpu(0), 80);
	assert_int_equal(lowest(PRIO(90), 1, "0-1", 1), 0);
	tl_teardown();
}

/* a task running a noop program on @cpu as curr, with @attr */
static struct task_struct *run_on(const char *comm, unsigned int cpu, const struct sched_attr *attr)
{
	struct cpumask *only = alloc_cpumask();
	struct task_struct *p;

	cpumask_set_cpu(cpu, only);
	tl_cpu(cpu);
	p = sched_fork_task_attr(comm, &tl_noop_exec, NULL, cpu, only, attr);
	free_cpumask(only);
	__schedule(SM_NONE);
	assert_ptr_equal(cpu_rq(cpu)->curr, p);
	return p;
}

/* fork @attr'd task on @cpu (allowed on @cpus), queued: the CPU does not switch */
static struct task_struct *fork_on(const char *comm, unsigned int cpu, const char *cpus,
				   const struct sched_attr *attr)
{
	struct cpumask *m = mask_of(cpus);
	struct task_struct *p;

	tl_cpu(cpu);
	p = sched_fork_task_attr(comm, &tl_noop_exec, NULL, cpu, m, attr);
	free_cpumask(m);
	return p;
}

/*
 * find_lowest_rq(): among the CPUs at the lowest level, the task's
 * previous CPU; else this CPU if it is one of them and in an
 * SD_WAKE_AFFINE domain of the previous one; else one of that domain's,
 * by cpumask_any_and_distribute(), which goes round the mask from the
 * CPU this CPU picked last (lib/cpumask.c: per-CPU
 * distribute_cpu_mask_prev, 0 at boot, so the first pick skips CPU 0).
 */
static void test_find_lowest_rq_prefers_prev_then_distributes(void **state)
{
	const struct sched_attr f90 = fifo(90), f20 = fifo(20);

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	run_on("f90", 0, &f90);
	/* CPUs 1-3 idle: the previous CPU when it is one of them */
	assert_int_equal(lowest(PRIO(50), 2, "0-3", 0), 2);
	assert_int_equal(lowest(PRIO(50), 3, "0-3", 0), 3);
	/* previous CPU 0 busy: this CPU when it is one of them */
	assert_int_equal(lowest(PRIO(50), 0, "0-3", 1), 1);
	/* neither: spread over 1, 2, 3 from CPU 0, not always the first */
	assert_int_equal(lowest(PRIO(50), 0, "0-3", 0), 1);
	assert_int_equal(lowest(PRIO(50), 0, "0-3", 0), 2);
	assert_int_equal(lowest(PRIO(50), 0, "0-3", 0), 3);
	assert_int_equal(lowest(PRIO(50), 0, "0-3", 0), 1);
	assert_int_equal(cpu_rq(0)->distribute_cpu_mask_prev, 1);
	/* each CPU keeps its own place: CPU 1's first pick from 0 is 2 */
	run_on("f20", 1, &f20);
	assert_int_equal(lowest(PRIO(50), 0, "0,2-3", 1), 2);
	/* a lower level wins over the previous CPU at a higher one */
	assert_int_equal(lowest(PRIO(50), 1, "0-3", 0), 2);
	tl_teardown();
}

/*
 * select_task_rq_rt() on 4 CPUs: a FIFO 50 task waking where a FIFO 90
 * task runs goes to find_lowest_rq()'s CPU, a fair one (2 or 3), not CPU 1
 * with its FIFO 20 task, though that is lower than the wakee too; and a
 * task whose previous CPU is at the lowest level goes back there.
 */
static void test_rt_wakeup_placement(void **state)
{
	const struct sched_attr f90 = fifo(90), f20 = fifo(20), f50 = fifo(50);
	struct task_struct *t, *u;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	/* t and u ran on CPUs 0 and 3 and sleep */
	t = fork_on("t50", 0, "0-3", &f50);
	assert_ptr_equal(tl_schedule(), t);
	tl_block_current();
	u = fork_on("u50", 3, "0-3", &f50);
	assert_ptr_equal(tl_schedule(), u);
	tl_block_current();
	run_on("f90", 0, &f90);
	run_on("f20", 1, &f20);
	tl_fork_running("fair2", 2);
	tl_fork_running("fair3", 3);
	tl_cpu(0);
	try_to_wake_up(t, TASK_NORMAL, 0);
	assert_true(task_cpu(t) == 2 || task_cpu(t) == 3);
	assert_true(cpu_rq(task_cpu(t))->need_resched);
	tl_cpu(0);
	try_to_wake_up(u, TASK_NORMAL, 0);
	assert_int_equal(task_cpu(u), task_cpu(t) == 3 ? 2 : 3);
	tl_check();
	tl_teardown();
}

/* sched_setaffinity() to @to, then run */
struct setaff {
	int step;
	const struct cpumask *to;
};

static void setaff_next(struct work_task *w, struct op_desc *op)
{
	struct setaff *sa = w->state;

	memset(op, 0, sizeof(*op));
	if (sa->step++ == 0) {
		op->kind = OP_SETAFFINITY;
		op->cpus = sa->to;
		return;
	}
	op->kind = OP_RUN;
	op->ns = NSEC_PER_MSEC;
}

static const struct program setaff_prog = { .next = setaff_next };

/*
 * sched_setaffinity() to CPUs 1-3 of tasks on CPU 0: the destination is
 * __set_cpus_allowed_ptr_locked()'s cpumask_any_and_distribute(), so two
 * tasks moved from one CPU go to different CPUs.
 */
static void test_setaffinity_distributes(void **state)
{
	struct setaff sa[2];
	struct task_struct *a, *b;
	struct cpumask *to;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	to = mask_of("1-3");
	sa[0] = sa[1] = (struct setaff){ .to = to };
	a = start("a", &setaff_prog, &sa[0], NULL, 0, NULL);
	b = start("b", &setaff_prog, &sa[1], NULL, 0, NULL);
	tl_run_until(20 * NSEC_PER_MSEC, true);
	assert_int_equal(task_cpu(a), 1);
	assert_int_equal(task_cpu(b), 2);
	tl_teardown();
	free_cpumask(to);
}

/*
 * The pushable list is a plist (enqueue_pushable_task()): by prio, and
 * within a prio in the order tasks became pushable; put_prev_task_rt()
 * re-adds a preempted task at the tail. So of two equal tasks waiting on
 * CPU 0, the one that waited longer (w1) is taken when CPU 1 drops to
 * fair, not w2, which ran until a higher task preempted it and sits at
 * the head of its run list. pull_rt_task() and push_rt_task() both take
 * the plist's first (pick_highest_pushable_task(),
 * pick_next_pushable_task()).
 */
static void test_pushable_plist_order(void **state)
{
	const struct sched_attr f90 = fifo(90), f30 = fifo(30), f60 = fifo(60);
	static const char *const modes[] = { "NO_RT_PUSH_IPI", "RT_PUSH_IPI" };
	struct task_struct *w1, *w2, *h;
	struct rq *rq0;

	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		tl_setup("smp2", TL_ZERO_COST, 0, modes[m]);
		rq0 = cpu_rq(0);
		run_on("f90", 1, &f90);
		w2 = fork_on("w2", 0, "0-1", &f30);
		assert_ptr_equal(tl_schedule(), w2);
		/* w1 waits behind w2: nowhere lower to go (CPU 1 at FIFO 90) */
		w1 = fork_on("w1", 0, "0-1", &f30);
		assert_int_equal(task_cpu(w1), 0);
		/* h preempts w2, which becomes pushable behind w1 */
		h = fork_on("h", 0, "0", &f60);
		assert_ptr_equal(tl_schedule(), h);
		assert_ptr_equal(list_first_entry(&rq0->rt.pushable_tasks, struct task_struct,
						  pushable_tasks),
				 w1);
		assert_ptr_equal(list_first_entry(&rq0->rt.active.queue[PRIO(30)],
						  struct sched_rt_entity, run_list),
				 &w2->rt);
		tl_check();
		/*
		 * CPU 1's FIFO 90 task blocks: it pulls w1, or (RT_PUSH_IPI)
		 * goes idle and CPU 0's push in the IPI sends it w1
		 */
		tl_cpu(1);
		tl_block_current();
		if (m == 1) {
			assert_true(is_idle_task(cpu_rq(1)->curr));
			tl_deliver_ipis();
			tl_cpu(1);
			tl_schedule();
		}
		assert_ptr_equal(cpu_rq(1)->curr, w1);
		assert_int_equal(task_cpu(w2), 0);
		tl_check();
		tl_teardown();
	}
}

/*
 * pull_rt_task() leaves a task that is about to preempt its own CPU's
 * curr (it just woke there and outranks what runs): p->prio <
 * src_rq->donor->prio.
 */
static void test_pull_skips_a_task_about_to_preempt(void **state)
{
	const struct sched_attr f60 = fifo(60), f30 = fifo(30), f50 = fifo(50);
	struct task_struct *p;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, "NO_RT_PUSH_IPI");
	run_on("f60", 1, &f60);
	run_on("c30", 0, &f30);
	p = fork_on("p50", 0, "0-1", &f50);
	assert_true(cpu_rq(0)->need_resched);
	assert_true(task_pushable_queued(p));
	tl_cpu(1);
	assert_true(is_idle_task(tl_block_current()));
	assert_int_equal(task_cpu(p), 0);
	tl_cpu(0);
	assert_ptr_equal(tl_schedule(), p);
	tl_check();
	tl_teardown();
}

/*
 * A CPU dropping to fair pulls from every RT-overloaded CPU in turn
 * (pull_rt_task() goes on after a pull, in case another is higher): a
 * FIFO 40 task from CPU 0, then a FIFO 45 one from CPU 2, which then runs.
 */
static void test_pull_from_several_cpus(void **state)
{
	const struct sched_attr f90 = fifo(90), f80 = fifo(80), f70 = fifo(70), f40 = fifo(40),
				f45 = fifo(45);
	static const char *const modes[] = { "NO_RT_PUSH_IPI", "RT_PUSH_IPI" };
	struct task_struct *w0, *w2;

	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		tl_setup("smp4", TL_ZERO_COST, 0, modes[m]);
		run_on("f90", 3, &f90);
		run_on("x70", 1, &f70);
		run_on("a80", 0, &f80);
		w0 = fork_on("w40", 0, "0-1", &f40);
		run_on("b80", 2, &f80);
		w2 = fork_on("w45", 2, "1-2", &f45);
		assert_int_equal(cpu_rd(0)->rto_count, 2);
		tl_check();
		tl_cpu(1);
		tl_block_current();
		if (m == 1) {
			/*
			 * the irq_work goes to CPU 0, which pushes w0 to CPU 1;
			 * on to CPU 1, overloaded now with w0 waiting (its push
			 * only reschedules it); to CPU 2, which pushes w2 to
			 * CPU 1 too (at w0's level now, below w2's); then, as
			 * the request bumped rto_loop_next, round the rto_mask
			 * once more (rto_next_cpu()): CPU 1 again
			 */
			assert_true(is_idle_task(cpu_rq(1)->curr));
			assert_int_equal(cpu_rd(0)->rto_push->cpu, 0);
			tl_deliver_ipis();
			assert_int_equal(cpu_rd(0)->rto_push->cpu, -1);
			assert_int_equal(cpu_rd(0)->rto_push->nr_ipis, 4);
			assert_int_equal(cpu_rd(0)->rto_push->loop, cpu_rd(0)->rto_push->loop_next);
			tl_cpu(1);
			tl_schedule();
		}
		assert_ptr_equal(cpu_rq(1)->curr, w2);
		assert_int_equal(task_cpu(w0), 1);
		assert_int_equal(task_cpu(w2), 1);
		assert_true(task_pushable_queued(w0));
		tl_check();
		tl_teardown();
	}
}

/* record when it first ran, then run for ever */
struct first_run {
	u64 at;
	bool ran;
};

static void first_run_next(struct work_task *w, struct op_desc *op)
{
	struct first_run *fr = w->state;

	if (!fr->ran) {
		fr->ran = true;
		fr->at = cpu_now();
	}
	memset(op, 0, sizeof(*op));
	op->kind = OP_RUN;
	op->ns = NSEC_PER_MSEC;
}

static const struct program first_run_prog = { .next = first_run_next };

/* run @run_ns, note the time, exit */
struct runner {
	u64 run_ns;
	int step;
	u64 exited_at;
};

static void runner_next(struct work_task *w, struct op_desc *op)
{
	struct runner *r = w->state;

	memset(op, 0, sizeof(*op));
	if (r->step++ == 0) {
		op->kind = OP_RUN;
		op->ns = r->run_ns;
		return;
	}
	r->exited_at = cpu_now();
	op->kind = OP_EXIT;
}

static const struct program runner_prog = { .next = runner_next };

/*
 * RT_PUSH_IPI with the cost model's IPIs: CPU 1's FIFO 50 task exits while
 * a FIFO 40 task waits on CPU 0 behind a FIFO 60 hog. Pulling
 * (NO_RT_PUSH_IPI), CPU 1 takes it as it schedules, one switch. With the
 * push IPI, CPU 1 goes idle first; the irq_work reaches CPU 0 after
 * ipi_latency, whose push_rt_task() moves the task and reschedules CPU 1:
 * two switches, and the task starts at least one IPI flight later.
 */
static void test_push_ipi_timing(void **state)
{
	const struct sched_attr f50 = fifo(50), f60 = fifo(60), f40 = fifo(40);
	static const char *const modes[] = { "NO_RT_PUSH_IPI", "RT_PUSH_IPI" };
	u64 delay[2], switches[2];

	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		struct runner x = { .run_ns = 10 * NSEC_PER_MSEC };
		struct first_run fw = { 0 };
		struct task_struct *w;
		u64 sw0;

		tl_setup("smp2", TL_REAL_COST, 0, modes[m]);
		start("x50", &runner_prog, &x, &f50, 1, "1");
		start("h60", &tl_busy_prog, NULL, &f60, 0, "0");
		w = start("w40", &first_run_prog, &fw, &f40, 0, "0-1");
		tl_run_until(9 * NSEC_PER_MSEC, true);
		assert_false(fw.ran);
		assert_int_equal(task_cpu(w), 0);
		sw0 = cpu_rq(1)->nr_switches;
		tl_run_until(12 * NSEC_PER_MSEC, true);
		assert_true(fw.ran);
		assert_int_equal(task_cpu(w), 1);
		delay[m] = fw.at - x.exited_at;
		switches[m] = cpu_rq(1)->nr_switches - sw0;
		if (m == 1)
			assert_true(delay[m] >= machine.cost->ipi_latency[cpu_dist(1, 0)]);
		tl_teardown();
	}
	assert_int_equal(switches[0], 1);
	assert_int_equal(switches[1], 2);
	assert_true(delay[1] > delay[0]);
	print_message("push IPI: the task starts %llu ns after the exit (pull: %llu ns)\n",
		      (unsigned long long)delay[1], (unsigned long long)delay[0]);
}

/* sleep 60 ms, run 30 ms, exit */
static void burst_next(struct work_task *w, struct op_desc *op)
{
	int *step = w->state;

	memset(op, 0, sizeof(*op));
	switch ((*step)++) {
	case 0:
		op->kind = OP_SLEEP;
		op->ns = 60 * NSEC_PER_MSEC;
		break;
	case 1:
		op->kind = OP_RUN;
		op->ns = 30 * NSEC_PER_MSEC;
		break;
	default:
		op->kind = OP_EXIT;
	}
}

static const struct program burst_prog = { .next = burst_next };

/*
 * task_tick_rt(): SCHED_RR tasks of one priority take turns of
 * sched_rr_timeslice (100 ms) ticks; a task alone at its priority keeps
 * the CPU (no requeue, no switch) whatever waits at a lower one; and a
 * preempted RR task keeps what is left of its quantum (time_slice is only
 * refilled when it runs out) and stays at the head of its list.
 */
static void test_sched_rr(void **state)
{
	const struct sched_attr rr10 = { .sched_policy = SCHED_RR, .sched_priority = 10 },
				rr20 = { .sched_policy = SCHED_RR, .sched_priority = 20 },
				f50 = fifo(50);
	struct first_run fa = { 0 }, fb = { 0 };
	struct task_struct *t[3];
	int step = 0;
	u64 sw0;

	(void)state;
	/* three of one priority: 400 ms each of 1200 ms, 12 turns */
	tl_setup("smp1", TL_ZERO_COST, 250, NULL);
	for (int i = 0; i < 3; i++)
		t[i] = start("rr", &tl_busy_prog, NULL, &rr10, 0, NULL);
	sw0 = cpu_rq(0)->nr_switches;
	tl_run_until(1200 * NSEC_PER_MSEC, true);
	tl_account_now();
	for (int i = 0; i < 3; i++)
		assert_true(tl_runtime(t[i]) >= 396 * NSEC_PER_MSEC &&
			    tl_runtime(t[i]) <= 404 * NSEC_PER_MSEC);
	assert_true(cpu_rq(0)->nr_switches - sw0 >= 11 && cpu_rq(0)->nr_switches - sw0 <= 13);
	tl_teardown();

	/* beside a lower RR task: never rotated, never switched */
	tl_setup("smp1", TL_ZERO_COST, 250, NULL);
	t[0] = start("rr20", &tl_busy_prog, NULL, &rr20, 0, NULL);
	t[1] = start("rr10", &tl_busy_prog, NULL, &rr10, 0, NULL);
	tl_run_until(10 * NSEC_PER_MSEC, true);
	sw0 = cpu_rq(0)->nr_switches;
	tl_run_until(500 * NSEC_PER_MSEC, true);
	tl_account_now();
	assert_int_equal(tl_runtime(t[1]), 0);
	assert_int_equal(cpu_rq(0)->nr_switches, sw0);
	tl_teardown();

	/*
	 * a runs 60 ms (15 ticks of 25), a FIFO task takes 30 ms, a goes on
	 * with its 10 ticks left: b's turn comes at ~130 ms, not 190 ms
	 */
	tl_setup("smp1", TL_ZERO_COST, 250, NULL);
	t[0] = start("rr-a", &first_run_prog, &fa, &rr10, 0, NULL);
	t[1] = start("rr-b", &first_run_prog, &fb, &rr10, 0, NULL);
	start("fifo", &burst_prog, &step, &f50, 0, NULL);
	tl_run_until(125 * NSEC_PER_MSEC, true);
	assert_false(fb.ran);
	assert_ptr_equal(cpu_rq(0)->curr, t[0]);
	tl_run_until(200 * NSEC_PER_MSEC, true);
	assert_true(fb.ran);
	assert_true(fb.at >= 127 * NSEC_PER_MSEC && fb.at <= 133 * NSEC_PER_MSEC);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpupri_levels_and_the_fair_server),
		cmocka_unit_test(test_find_lowest_rq_prefers_prev_then_distributes),
		cmocka_unit_test(test_rt_wakeup_placement),
		cmocka_unit_test(test_setaffinity_distributes),
		cmocka_unit_test(test_pushable_plist_order),
		cmocka_unit_test(test_pull_skips_a_task_about_to_preempt),
		cmocka_unit_test(test_pull_from_several_cpus),
		cmocka_unit_test(test_push_ipi_timing),
		cmocka_unit_test(test_sched_rr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
