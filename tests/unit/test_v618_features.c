// SPDX-License-Identifier: GPL-2.0-only
/*
 * v6.18's features.h, entry by entry: every name is known; the ones the
 * model implements change what they should in constructed situations
 * (NEXT_BUDDY, PICK_BUDDY, CACHE_HOT_BUDDY, LB_MIN, LATENCY_WARN), and the
 * rest are rejected naming the subsystem schedlab lacks. Also the v6.18
 * can_migrate_task() rule for ineligible tasks.
 */
#include "test_sched_helpers.h"

/* kernel/sched/features.h of v6.18, in order, with defaults */
static const struct {
	const char *name;
	bool def;
} v618[] = {
	{ "PLACE_LAG", true },		{ "PLACE_DEADLINE_INITIAL", true },
	{ "PLACE_REL_DEADLINE", true }, { "RUN_TO_PARITY", true },
	{ "PREEMPT_SHORT", true },	{ "NEXT_BUDDY", false },
	{ "PICK_BUDDY", true },		{ "CACHE_HOT_BUDDY", true },
	{ "DELAY_DEQUEUE", true },	{ "DELAY_ZERO", true },
	{ "WAKEUP_PREEMPTION", true },	{ "HRTICK", false },
	{ "HRTICK_DL", false },		{ "NONTASK_CAPACITY", true },
	{ "TTWU_QUEUE", true },		{ "SIS_UTIL", true },
	{ "WARN_DOUBLE_CLOCK", false }, { "RT_PUSH_IPI", true },
	{ "RT_RUNTIME_SHARE", false },	{ "LB_MIN", false },
	{ "ATTACH_AGE_LOAD", true },	{ "WA_IDLE", true },
	{ "WA_WEIGHT", true },		{ "WA_BIAS", true },
	{ "UTIL_EST", true },		{ "LATENCY_WARN", false },
};

/* the ones whose subsystem the model does not have */
static const char *const not_modelled[] = {
	"HRTICK", "HRTICK_DL", "WARN_DOUBLE_CLOCK",
	"RT_RUNTIME_SHARE", "ATTACH_AGE_LOAD",
};

static bool is_not_modelled(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(not_modelled); i++)
		if (!strcmp(not_modelled[i], name))
			return true;
	return false;
}

static void test_table_is_v618(void **state)
{
	size_t k = 0;

	(void)state;
	for (int i = 0; i < __SCHED_FEAT_NR; i++) {
		const struct sched_feat_info *f = &sched_feat_info[i];

		if (!sched_feat_is_kernel(f)) {
			/* toggles come after the kernel's entries and name a source */
			assert_int_equal(k, ARRAY_SIZE(v618));
			assert_true(strlen(f->source) > 0);
			assert_null(f->missing);
			continue;
		}
		assert_true(k < ARRAY_SIZE(v618));
		assert_string_equal(f->name, v618[k].name);
		assert_int_equal(f->def, v618[k].def);
		assert_int_equal(f->missing != NULL, is_not_modelled(f->name));
		k++;
	}
	assert_int_equal(k, ARRAY_SIZE(v618));
}

static void test_every_name_accepted_or_rejected_with_reason(void **state)
{
	char err[512], list[64];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(v618); i++) {
		for (int no = 0; no < 2; no++) {
			snprintf(list, sizeof(list), "%s%s", no ? "NO_" : "", v618[i].name);
			sched_feat_reset();
			err[0] = 0;
			int r = sched_feat_apply(list, err, sizeof(err));

			if (is_not_modelled(v618[i].name)) {
				assert_int_equal(r, -1);
				assert_non_null(strstr(err, "not modelled"));
				assert_non_null(strstr(err, "needs"));
				assert_null(strstr(err, "unknown"));
			} else {
				assert_int_equal(r, 0);
				assert_int_equal(sysctl_sched_features[i], !no);
			}
		}
	}
	sched_feat_reset();
	/* the reason names the subsystem */
	assert_int_equal(sched_feat_apply("NO_RT_RUNTIME_SHARE", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "RT throttling"));
	assert_int_equal(sched_feat_apply("HRTICK", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "hrtick"));
}

/*
 * smp1: c ran and slept; a runs; c is woken. With NEXT_BUDDY the wakee
 * becomes cfs_rq->next whether or not it preempts, and the next pick
 * (PICK_BUDDY, c eligible) takes it and clears the buddy.
 */
static struct task_struct *wake_sleeper(const char *features, struct task_struct **pa)
{
	struct task_struct *c, *a;
	struct rq *rq;

	tl_setup("smp1", TL_ZERO_COST, 0, features);
	rq = tl_cpu(0);
	c = tl_fork_running("c", 0);
	tl_advance(100000);
	assert_true(is_idle_task(tl_block_current()));
	a = tl_fork_running("a", 0);
	tl_advance(100000);
	update_rq_clock(rq);
	try_to_wake_up(c, TASK_NORMAL, 0);
	*pa = a;
	return c;
}

static void test_next_buddy(void **state)
{
	struct task_struct *a, *c;

	(void)state;
	c = wake_sleeper("NEXT_BUDDY", &a);
	assert_ptr_equal(cpu_rq(0)->cfs.next, &c->se);
	tl_check();
	assert_ptr_equal(tl_schedule(), c);
	assert_null(cpu_rq(0)->cfs.next);
	tl_check();
	tl_teardown();

	c = wake_sleeper(NULL, &a);
	assert_null(cpu_rq(0)->cfs.next);
	tl_teardown();
}

/*
 * PICK_BUDDY: an eligible next buddy is picked even where EEVDF would pick
 * another task; without it (or with a buddy that is not eligible) EEVDF's
 * choice stands.
 */
static struct sched_entity *eligible_not_eevdf(struct cfs_rq *cfs_rq, struct task_struct **tasks,
					       unsigned int n)
{
	struct sched_entity *best = pick_eevdf(cfs_rq);

	for (unsigned int i = 0; i < n; i++) {
		struct sched_entity *se = &tasks[i]->se;

		if (se != best && se != cfs_rq->curr && se->on_rq && entity_eligible(cfs_rq, se))
			return se;
	}
	return NULL;
}

static void run_pick_buddy(const char *features, bool expect_buddy)
{
	struct task_struct *t[4];
	struct sched_entity *buddy, *eevdf;
	struct rq *rq;

	tl_setup("smp1", TL_ZERO_COST, 0, features);
	rq = tl_cpu(0);
	t[0] = tl_fork_running("t0", 0);
	for (unsigned int i = 1; i < 4; i++)
		t[i] = tl_fork("t", 0);
	/* give them different vruntimes and deadlines */
	for (unsigned int round = 0; round < 5; round++) {
		tl_advance(300000 + 70000 * round);
		tl_schedule();
	}
	buddy = eligible_not_eevdf(&rq->cfs, t, 4);
	assert_non_null(buddy);
	eevdf = pick_eevdf(&rq->cfs);
	rq->cfs.next = buddy;
	tl_check();
	tl_schedule();
	if (expect_buddy)
		assert_ptr_equal(&rq->curr->se, buddy);
	else
		assert_ptr_equal(&rq->curr->se, eevdf);
	tl_teardown();
}

static void test_pick_buddy(void **state)
{
	(void)state;
	run_pick_buddy(NULL, true);
	run_pick_buddy("NO_PICK_BUDDY", false);
}

/*
 * @ns of ticks on every CPU, each followed by the schedule the tick asked
 * for: clocks, PELT signals and EEVDF state evolve as on a running machine
 * (the tick only flags periodic balancing; hand-driven tests never run it).
 */
static void run_ticks(u64 ns)
{
	for (u64 t = 0; t < ns; t += TICK_NSEC) {
		for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
			struct rq *rq = tl_cpu(cpu);

			tl_advance(TICK_NSEC);
			sched_tick(rq);
			if (rq->need_resched)
				tl_schedule();
		}
	}
}

/* the first task the balancer will consider on @rq: from the cold end, not curr */
static struct task_struct *first_candidate(struct rq *rq)
{
	for (struct list_head *pos = rq->cfs_tasks.prev; pos != &rq->cfs_tasks; pos = pos->prev) {
		struct task_struct *p = task_of(list_entry(pos, struct sched_entity, group_node));

		if (p != rq->curr)
			return p;
	}
	fail_msg("no candidate on CPU%u", cpu_of(rq));
	return NULL;
}

/* CPU0 switches to @x (EEVDF order, a tick at a time) and @x runs 4 ms alone */
static void run_ahead(struct task_struct *x)
{
	struct rq *rq0 = tl_cpu(0);

	for (int n = 0; rq0->curr != x && n < 100; n++) {
		tl_advance(TICK_NSEC);
		tl_schedule();
	}
	assert_ptr_equal(rq0->curr, x);
	tl_advance(4 * NSEC_PER_MSEC);
	assert_false(entity_eligible(&rq0->cfs, &x->se));
}

/* CPU1 balances its MC level with @failed failures so far, looking at @x first */
static int balance_x_first(struct task_struct *x, unsigned int failed)
{
	struct sched_domain *sd = tl_sd(1, "MC");
	int cont, moved;

	list_del_init(&x->se.group_node);
	list_add_tail(&x->se.group_node, &cpu_rq(0)->cfs_tasks);
	sd->nr_balance_failed = failed;
	moved = tl_balance(1, sd, CPU_NOT_IDLE, &cont);
	tl_check();
	return moved;
}

/*
 * smp2: CPU0 runs four tasks, CPU1 one, for 200 ms, so CPU0 is overloaded.
 * CPU1's periodic balance, after one failure, moves one task from the cold
 * end of CPU0's list.
 * With CACHE_HOT_BUDDY the first candidate, made CPU0's next buddy, counts
 * as hot (CPU1 has work: dst nr_running > 0) and is passed over; without
 * it, it goes.
 */
static struct task_struct *hot_buddy_moved(const char *features, int *moved)
{
	struct task_struct *cand;
	struct sched_domain *sd;
	struct rq *rq0;
	int cont;

	tl_setup("smp2", TL_ZERO_COST, 0, features);
	rq0 = tl_cpu(0);
	tl_fork_running("a", 0);
	tl_fork("b", 0);
	tl_fork("c", 0);
	tl_fork("e", 0);
	tl_fork_running("d", 1);
	run_ticks(200 * NSEC_PER_MSEC);
	cand = first_candidate(rq0);
	/* cold by time: only the buddy rule can make it hot */
	assert_true(rq0->clock_task - cand->se.exec_start > sysctl_sched.migration_cost_ns);
	rq0->cfs.next = &cand->se;
	sd = tl_sd(1, "MC");
	/*
	 * One failure so far: ineligible tasks may go, hot ones may not yet
	 * (nr_balance_failed must exceed cache_nice_tries, 1).
	 */
	sd->nr_balance_failed = 1;
	assert_int_equal(sd->cache_nice_tries, 1);
	*moved = tl_balance(1, sd, CPU_NOT_IDLE, &cont);
	tl_check();
	return cand;
}

static void test_cache_hot_buddy(void **state)
{
	struct task_struct *cand;
	int moved;

	(void)state;
	cand = hot_buddy_moved(NULL, &moved);
	assert_true(moved >= 1);
	assert_int_equal(task_cpu(cand), 0);
	assert_int_equal(cpu_rq(1)->nr_running, 2);
	tl_teardown();

	cand = hot_buddy_moved("NO_CACHE_HOT_BUDDY", &moved);
	assert_true(moved >= 1);
	assert_int_equal(task_cpu(cand), 1);
	tl_teardown();
}

/*
 * can_migrate_task(): a task that is not eligible (it ran ahead of V) is
 * not moved to a CPU with queued work until a balance attempt at that level
 * has failed, and only under PLACE_LAG. After 200 ms of four tasks on CPU0
 * and one on CPU1, x runs 4 ms on its own, then another task runs 1 ms, so
 * x is cache cold but still ahead of V.
 */
static struct task_struct *ineligible_moved(const char *features, unsigned int failed)
{
	struct task_struct *x;
	struct rq *rq0;

	tl_setup("smp2", TL_ZERO_COST, 0, features);
	rq0 = tl_cpu(0);
	x = tl_fork_running("x", 0);
	tl_fork("a", 0);
	tl_fork("b", 0);
	tl_fork("c", 0);
	tl_fork_running("d", 1);
	run_ticks(200 * NSEC_PER_MSEC);
	run_ahead(x);
	assert_ptr_not_equal(tl_schedule(), x);
	tl_advance(NSEC_PER_MSEC);
	tl_cpu(1);
	tl_advance(5 * NSEC_PER_MSEC);
	assert_false(entity_eligible(&rq0->cfs, &x->se));
	balance_x_first(x, failed);
	return x;
}

static void test_ineligible_not_migrated(void **state)
{
	(void)state;
	assert_int_equal(task_cpu(ineligible_moved(NULL, 0)), 0);
	/* another task went instead */
	assert_int_equal(cpu_rq(1)->nr_running, 2);
	tl_teardown();
	/* after a failure it may go */
	assert_int_equal(task_cpu(ineligible_moved(NULL, 1)), 1);
	tl_teardown();
	/* without PLACE_LAG eligibility does not travel, so the rule is off */
	assert_int_equal(task_cpu(ineligible_moved("NO_PLACE_LAG", 0)), 1);
	tl_teardown();
}

/*
 * can_migrate_task(): a delayed (sleeping, ineligible) task moves only
 * under migrate_load, to carry its load along, and arrives still delayed:
 * queued on the new CPU but not runnable, until it is woken there. Both
 * CPUs overloaded (four tasks on CPU0 of which x is delayed, two on CPU1),
 * so the balancer moves load; failures past cache_nice_tries let the
 * just-run, ineligible x go.
 */
static struct task_struct *delayed_moved(unsigned int failed, int *moved)
{
	struct task_struct *x;
	struct rq *rq0;

	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	tl_advance_all(NSEC_PER_MSEC);
	rq0 = tl_cpu(0);
	x = tl_fork_running("x", 0);
	tl_fork("a", 0);
	tl_fork("b", 0);
	tl_fork("c", 0);
	tl_fork_running("d", 1);
	tl_fork("e", 1);
	run_ticks(200 * NSEC_PER_MSEC);
	run_ahead(x);
	tl_block_current();
	assert_true(x->se.sched_delayed);
	assert_int_equal(rq0->nr_running, 4);
	assert_int_equal(rq0->cfs.h_nr_runnable, 3);
	tl_check();
	*moved = balance_x_first(x, failed);
	return x;
}

static void test_delayed_task_migrates_for_load(void **state)
{
	struct task_struct *x;
	int moved;

	(void)state;
	x = delayed_moved(2, &moved);
	assert_true(moved >= 1);
	assert_int_equal(task_cpu(x), 1);
	assert_true(x->se.sched_delayed);
	assert_true(task_on_rq_queued(x));
	/* queued there, not runnable there */
	assert_int_equal(cpu_rq(1)->cfs.h_nr_runnable + 1, cpu_rq(1)->cfs.h_nr_queued);
	/* woken on its new CPU: requeued in place, runnable again */
	tl_cpu(1);
	update_rq_clock(cpu_rq(1));
	try_to_wake_up(x, TASK_NORMAL, 0);
	assert_false(x->se.sched_delayed);
	assert_int_equal(task_cpu(x), 1);
	assert_int_equal(cpu_rq(1)->cfs.h_nr_runnable, cpu_rq(1)->cfs.h_nr_queued);
	tl_check();
	tl_teardown();

	/* without a failure it is both hot and ineligible: it stays */
	x = delayed_moved(0, &moved);
	assert_int_equal(task_cpu(x), 0);
	assert_true(x->se.sched_delayed);
	tl_teardown();
}

/*
 * LB_MIN: a task whose load is below 16 is not worth moving for a load
 * imbalance until balancing has failed. Nice-19 tasks (weight 15, so
 * load_avg < 16): six on CPU0, two on CPU1, both overloaded, so the
 * balancer moves load (migrate_load). NO_PLACE_LAG keeps the ineligible-task
 * rule, which also needs nr_balance_failed = 0, out of the way.
 */
static int lb_min_moved(const char *features)
{
	struct sched_domain *sd;
	int cont, moved;

	tl_setup("smp2", TL_ZERO_COST, 0, features);
	/*
	 * Start the clocks first: an entity attached at PELT time 0 keeps
	 * last_update_time 0, which PELT reads as "not attached yet".
	 */
	tl_advance_all(NSEC_PER_MSEC);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		tl_cpu(cpu);
		tl_set_nice(tl_fork_running("light", cpu), 19);
		for (unsigned int i = 0; i < (cpu ? 1U : 5U); i++)
			tl_set_nice(tl_fork("light", cpu), 19);
	}
	run_ticks(400 * NSEC_PER_MSEC);
	sd = tl_sd(1, "MC");
	moved = tl_balance(1, sd, CPU_NOT_IDLE, &cont);
	assert_true(sd->lb_imbalance_load[CPU_NOT_IDLE] > 0);
	tl_check();
	return moved;
}

static void test_lb_min(void **state)
{
	(void)state;
	assert_true(lb_min_moved("NO_PLACE_LAG") >= 1);
	tl_teardown();
	assert_int_equal(lb_min_moved("NO_PLACE_LAG,LB_MIN"), 0);
	tl_teardown();
}

/*
 * LATENCY_WARN: need_resched left pending across ticks is reported once
 * it has been pending for more than latency_warn_ms (the first tick that
 * sees it starts the clock), once per run with latency_warn_once.
 */
static unsigned int ticks_until_warning(const char *features, unsigned int max_ticks)
{
	struct rq *rq;
	unsigned int n;

	tl_setup("smp1", TL_ZERO_COST, 250, features);
	rq = tl_cpu(0);
	tl_fork_running("busy", 0);
	rq->need_resched = true;
	for (n = 1; n <= max_ticks; n++) {
		tl_advance(TICK_NSEC);
		sched_tick(rq);
		if (sched_world.nr_resched_latency_warnings)
			break;
	}
	return n;
}

static void test_latency_warn(void **state)
{
	(void)state;
	/* first tick at t = 4 ms starts the clock; > 100 ms pending at tick 27 */
	assert_int_equal(ticks_until_warning("LATENCY_WARN", 100), 27);
	assert_int_equal(cpu_rq(0)->ticks_without_resched, 26);
	/* once: later ticks do not report again */
	for (int i = 0; i < 100; i++) {
		tl_advance(TICK_NSEC);
		sched_tick(cpu_rq(0));
	}
	assert_int_equal(sched_world.nr_resched_latency_warnings, 1);
	tl_teardown();
	assert_int_equal(ticks_until_warning(NULL, 100), 101);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_is_v618),
		cmocka_unit_test(test_every_name_accepted_or_rejected_with_reason),
		cmocka_unit_test(test_next_buddy),
		cmocka_unit_test(test_pick_buddy),
		cmocka_unit_test(test_cache_hot_buddy),
		cmocka_unit_test(test_ineligible_not_migrated),
		cmocka_unit_test(test_delayed_task_migrates_for_load),
		cmocka_unit_test(test_lb_min),
		cmocka_unit_test(test_latency_warn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
