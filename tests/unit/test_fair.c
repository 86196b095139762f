// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the fair class (src/kernel/fair.c, EEVDF) and the parts of
 * the core (src/kernel/core.c) that drive it.
 *
 * Three kinds of test:
 *  - arithmetic: the weight tables and __calc_delta(), against numbers
 *    worked out by hand in the comments;
 *  - hand-driven runqueues: a one-CPU machine whose kernel paths cost
 *    nothing, tasks forked with tl_fork(), time advanced with tl_advance()
 *    and the scheduler entered through __schedule(), try_to_wake_up() and
 *    the fair class's entry points, so every vruntime is predictable;
 *  - whole runs: tasks running programs on a simulated machine for a
 *    simulated time, with the invariant checker after every event.
 *
 * The EEVDF pick is checked against a brute-force reference over many
 * random runqueues built through enqueue_task_fair().
 */
#include "test_sched_helpers.h"

#include <math.h>

#include "sim/prng.h"

#define USEC NSEC_PER_USEC
#define MSEC NSEC_PER_MSEC

static const u64 base_slice = 700 * USEC;

/* ------------------------------------------------------------------------- */
/* weight tables                                                              */
/* ------------------------------------------------------------------------- */

/*
 * sched_prio_to_wmult[i] is 2^32 / sched_prio_to_weight[i], rounded. The
 * values are the kernel's (kernel/sched/core.c, unchanged since 2.6.23),
 * and no single rounding rule reproduces all 40 of them: rounding to nearest
 * gives 36, and the four entries for weights 56, 45, 29 and 23 (nice 13, 14,
 * 16, 17) are truncated instead (2^32/56 = 76695844.57 -> 76695844).
 * Floor misses 13 entries, ceiling 26, floor((2^32 - 1) / w) 14.
 */
static void test_weight_tables(void **state)
{
	const u64 two32 = 1ULL << 32;
	int nr_round = 0;

	(void)state;
	assert_int_equal(sched_prio_to_weight[NICE_TO_PRIO(0) - MAX_RT_PRIO], 1024);
	assert_int_equal(sched_prio_to_wmult[NICE_TO_PRIO(0) - MAX_RT_PRIO], 1U << 22);

	for (int i = 0; i < 40; i++) {
		u64 w = (u64)sched_prio_to_weight[i];
		u64 m = sched_prio_to_wmult[i];
		u64 rounded = (two32 + w / 2) / w;
		u64 floored = two32 / w;
		bool truncated_entry = w == 56 || w == 45 || w == 29 || w == 23;

		/* within one of the exact quotient: |m * w - 2^32| < w */
		assert_true(m * w > two32 ? m * w - two32 < w : two32 - m * w < w);
		if (truncated_entry) {
			assert_int_equal(m, floored);
			assert_int_not_equal(m, rounded);
		} else {
			assert_int_equal(m, rounded);
			nr_round++;
		}
	}
	assert_int_equal(nr_round, 36);

	/* set_load_weight(): the table entries for the task's static priority */
	for (int nice = MIN_NICE; nice <= MAX_NICE; nice++) {
		struct task_struct p = { .static_prio = NICE_TO_PRIO(nice) };

		set_load_weight(&p);
		assert_int_equal(p.se.load.weight,
				 scale_load(sched_prio_to_weight[nice - MIN_NICE]));
		assert_int_equal(p.se.load.inv_weight, sched_prio_to_wmult[nice - MIN_NICE]);
	}

	/*
	 * Each nice level is ~1.25x the next one (a 10% CPU share change).
	 * Integer weights carry up to 0.5 of rounding each, which matters
	 * for the lightest ones (18 / 15 = 1.2); allow for it on top of 3%.
	 */
	for (int i = 0; i < 39; i++) {
		double a = sched_prio_to_weight[i], b = sched_prio_to_weight[i + 1];
		double tol = 0.03 + 0.5 / a + 0.5 / b;

		assert_true(a > b);
		if (fabs(a / b / 1.25 - 1.0) > tol)
			fail_msg("weight[%d]/weight[%d] = %f, not ~1.25", i, i + 1, a / b);
		/* for every weight of 100 and more the plain 3% holds */
		if (b >= 100 && fabs(a / b / 1.25 - 1.0) > 0.03)
			fail_msg("weight[%d]/weight[%d] = %f, not within 3%% of 1.25", i, i + 1,
				 a / b);
	}
}

/* ------------------------------------------------------------------------- */
/* __calc_delta / calc_delta_fair                                             */
/* ------------------------------------------------------------------------- */

static void se_set_nice(struct sched_entity *se, int nice)
{
	int prio = NICE_TO_PRIO(nice) - MAX_RT_PRIO;

	se->load.weight = scale_load(sched_prio_to_weight[prio]);
	se->load.inv_weight = sched_prio_to_wmult[prio];
}

static void test_calc_delta(void **state)
{
	static const u64 deltas[] = { 0, 1, 999, 1000000, 4000000000ULL, 1ULL << 40, 1ULL << 62 };
	struct sched_entity se = { 0 };
	struct load_weight lw;

	(void)state;
	/* nice 0: calc_delta_fair() returns delta unchanged */
	se_set_nice(&se, 0);
	assert_int_equal(se.load.weight, NICE_0_LOAD);
	for (size_t i = 0; i < ARRAY_SIZE(deltas); i++)
		assert_int_equal(calc_delta_fair(deltas[i], &se), deltas[i]);
	/*
	 * __calc_delta() itself at weight == lw->weight: fact = 1024 * 2^22 =
	 * 2^32, one bit too many, so fact = 2^31 with shift 31: exact for every
	 * delta.
	 */
	lw = se.load;
	for (size_t i = 0; i < ARRAY_SIZE(deltas); i++)
		assert_int_equal(__calc_delta(deltas[i], NICE_0_LOAD, &lw), deltas[i]);

	/*
	 * nice 5, weight 335, inv_weight 12820798 (from the table):
	 *   fact = 1024 * 12820798 = 13128497152 = 0x3_0E...; fact >> 32 = 3,
	 *   fls(3) = 2, so fact >>= 2 -> 3282124288 and shift = 32 - 2 = 30;
	 *   1000000 * 3282124288 >> 30 = 3282124288000000 / 1073741824
	 *                              = 3056716.41... -> 3056716,
	 * the exact 1000000 * 1024 / 335 = 3056716.4179 truncated.
	 */
	se_set_nice(&se, 5);
	assert_int_equal(se.load.weight, 335UL << 10);
	assert_int_equal(se.load.inv_weight, 12820798);
	{
		u64 fact = (1024ULL * se.load.inv_weight) >> 2;
		u64 want = (u64)(((unsigned __int128)1000000 * fact) >> 30);

		assert_int_equal(fact, 3282124288ULL);
		assert_int_equal(want, 3056716);
		assert_int_equal(calc_delta_fair(1000000, &se), want);
		assert_int_equal(calc_delta_fair(1000000, &se), 1000000ULL * 1024 / 335);
	}
	/*
	 * 1 s: 10^9 * 3282124288 >> 30 = 3056716442, 24 ns above the exact
	 * 3056716417.9: the table's inverse is rounded up (2^32/335 =
	 * 12820797.4 -> 12820798).
	 */
	assert_int_equal(calc_delta_fair(NSEC_PER_SEC, &se), 3056716442ULL);
	/*
	 * Without a cached inverse __update_inv_weight() computes
	 * 0xffffffff / 335 = 12820797: fact = 1024 * 12820797 >> 2 = 3282124032,
	 * 10^9 * 3282124032 >> 30 = 3056716203.
	 */
	se.load.inv_weight = 0;
	assert_int_equal(calc_delta_fair(NSEC_PER_SEC, &se), 3056716203ULL);
	assert_int_equal(se.load.inv_weight, 0xffffffffU / 335);
	assert_int_equal(calc_delta_fair(1000000, &se), 3056716);

	/*
	 * nice -5, weight 3121, inv 1376151: fact = 1024 * 1376151 =
	 * 1409178624 < 2^32, shift 32: 10^6 * 1409178624 >> 32 = 328099
	 * (exact 328099.97).
	 */
	se_set_nice(&se, -5);
	assert_int_equal(calc_delta_fair(1000000, &se), 328099);
	/* nice -20, weight 88761: 10^6 * (1024 * 48388) >> 32 = 11536 (exact 11536.6) */
	se_set_nice(&se, -20);
	assert_int_equal(calc_delta_fair(1000000, &se), 11536);

	/*
	 * Big numerators (a cfs_rq's summed load as @weight) take the second
	 * normalisation: weight 2^40 -> 2^30 after scale_load_down, times
	 * inv 2^22 = 2^52; fls(2^52 >> 32) = 21, so fact = 2^31, shift 11:
	 * delta * 2^31 >> 11 = delta * 2^20 = delta * 2^30 / 1024, exact.
	 */
	lw = (struct load_weight){ .weight = NICE_0_LOAD, .inv_weight = 1U << 22 };
	assert_int_equal(__calc_delta(1000, 1UL << 40, &lw), 1000ULL << 20);
	/*
	 * And the first one: weight 2^45 -> 2^35 has 3 high bits, fls(8) = 4:
	 * fact = 2^31, shift 28; against nice -20 (inv 48388) fact = 2^31 *
	 * 48388, high part 24194, fls = 15: fact = 2^16 * 48388 = 3171155968,
	 * shift 13: 1000 * 3171155968 >> 13 = 387104000 (exact 2^35 * 1000 /
	 * 88761 = 387104002.5).
	 */
	lw = (struct load_weight){ .weight = scale_load(88761), .inv_weight = 48388 };
	assert_int_equal(__calc_delta(1000, 1UL << 45, &lw), 387104000ULL);
}

/* ------------------------------------------------------------------------- */
/* CPU shares in whole runs                                                   */
/* ------------------------------------------------------------------------- */

/*
 * @n always-running tasks (user work in 1 ms chunks) with the given nice
 * levels on smp1 for @t, invariant checker after every event. Returns each
 * task's sum_exec_runtime in @rt.
 *
 * The nice level is set with set_user_nice() right after the task is
 * forked and before sched_start(): the task is queued (wake_up_new_task()
 * enqueued it) but has not run; set_user_nice() dequeues, reweights and
 * requeues it so the cfs_rq's sums stay right (test_set_user_nice_queued).
 */
static u64 run_busy(const int *nice, int n, unsigned int hz, u64 t, u64 *rt)
{
	struct task_struct *p[8];
	u64 total = 0;

	tl_setup("smp1", TL_REAL_COST, hz, NULL);
	for (int i = 0; i < n; i++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "busy%d", i);
		p[i] = tl_work_task(comm, &tl_busy_prog, 0);
		if (nice[i])
			tl_set_nice(p[i], nice[i]);
		assert_int_equal(
			p[i]->se.load.weight,
			scale_load(sched_prio_to_weight[NICE_TO_PRIO(nice[i]) - MAX_RT_PRIO]));
	}
	tl_check();
	tl_run_until(t, true);
	tl_account_now();
	for (int i = 0; i < n; i++) {
		rt[i] = tl_runtime(p[i]);
		total += rt[i];
	}
	tl_teardown();
	return total;
}

static void assert_ratio(u64 a, u64 b, double want, double tol)
{
	double r = (double)a / (double)b;

	if (fabs(r / want - 1.0) > tol)
		fail_msg("runtime ratio %llu/%llu = %f, want %f within %.1f%%",
			 (unsigned long long)a, (unsigned long long)b, r, want, tol * 100);
}

/*
 * nice 0 against nice 5: runtimes in the ratio of the weights, 1024/335.
 * Preemption happens at ticks, so a task's lag is bounded by about one tick;
 * at HZ=1000 that is 1 ms of the nice-5 task's ~246 ms in 1 s (0.4%); at the
 * machine's HZ=250 (4 ms ticks) the same 1% needs 4 s.
 */
static void test_share_nice0_nice5(void **state)
{
	static const int nice[] = { 0, 5 };
	u64 rt[2], total;

	(void)state;
	total = run_busy(nice, 2, 1000, NSEC_PER_SEC, rt);
	assert_ratio(rt[0], rt[1], 1024.0 / 335.0, 0.01);
	/* the CPU was busy the whole second: kernel paths are charged to curr */
	assert_true(total >= NSEC_PER_SEC && total < NSEC_PER_SEC + 10 * USEC);

	total = run_busy(nice, 2, 250, 4 * NSEC_PER_SEC, rt);
	assert_ratio(rt[0], rt[1], 1024.0 / 335.0, 0.01);
}

static void test_share_equal(void **state)
{
	static const int nice[] = { 0, 0, 0 };
	static const int mixed[] = { -3, 0, 7 };
	u64 rt[3];

	(void)state;
	run_busy(nice, 3, 1000, NSEC_PER_SEC, rt);
	assert_ratio(rt[0], rt[1], 1.0, 0.01);
	assert_ratio(rt[1], rt[2], 1.0, 0.01);
	assert_ratio(rt[0], rt[2], 1.0, 0.01);

	/* three levels at once: 1991 : 1024 : 215 */
	run_busy(mixed, 3, 1000, NSEC_PER_SEC, rt);
	assert_ratio(rt[0], rt[1], 1991.0 / 1024.0, 0.01);
	assert_ratio(rt[1], rt[2], 1024.0 / 215.0, 0.02);
}

/* ------------------------------------------------------------------------- */
/* the EEVDF pick against a brute-force reference                             */
/* ------------------------------------------------------------------------- */

#define POOL 64

static struct task_struct pool[POOL];

static bool ent_in_tree(struct sched_entity *se)
{
	return !RB_EMPTY_NODE(&se->run_node);
}

/* Walk the tree: parents, deadline order and the augmented minima. */
static int check_subtree(struct rb_node *n, struct rb_node *parent, u64 *min_v, u64 *min_s,
			 struct sched_entity **prev)
{
	struct sched_entity *se;
	u64 lv, ls, rv, rs;
	int cnt = 1;

	if (!n)
		return 0;
	se = rb_entry(n, struct sched_entity, run_node);
	assert_ptr_equal(n->parent, parent);
	*min_v = se->vruntime;
	*min_s = se->slice;
	if (n->left) {
		cnt += check_subtree(n->left, n, &lv, &ls, prev);
		if ((s64)(lv - *min_v) < 0)
			*min_v = lv;
		*min_s = min(*min_s, ls);
	}
	/* in order: deadlines never decrease */
	if (*prev)
		assert_false((s64)(se->deadline - (*prev)->deadline) < 0);
	*prev = se;
	if (n->right) {
		cnt += check_subtree(n->right, n, &rv, &rs, prev);
		if ((s64)(rv - *min_v) < 0)
			*min_v = rv;
		*min_s = min(*min_s, rs);
	}
	assert_int_equal(se->min_vruntime, *min_v);
	assert_int_equal(se->min_slice, *min_s);
	return cnt;
}

static void reset_rq(struct rq *rq, struct prng *r)
{
	init_cfs_rq(&rq->cfs);
	/* anywhere on the u64 circle, so keys wrap */
	rq->cfs.min_vruntime = prng_next(r);
	rq->nr_running = 0;
	for (int i = 0; i < POOL; i++) {
		struct task_struct *p = &pool[i];

		p->cpu = 0;
		p->on_rq = 0;
		p->se.avg = (struct sched_avg){ 0 };
		init_entity(&p->se);
	}
}

/*
 * Enqueue @p with a random weight, lag (within +-@lag_range), relative
 * deadline (within @dl_range) and maybe a custom slice.
 */
static void rand_enqueue(struct rq *rq, struct task_struct *p, struct prng *r, u64 lag_range,
			 u64 dl_range)
{
	int nice = (int)prng_below(r, 40) + MIN_NICE;

	p->static_prio = p->prio = NICE_TO_PRIO(nice);
	set_load_weight(p);
	init_entity(&p->se);
	if (prng_below(r, 4) == 0) {
		p->se.custom_slice = 1;
		p->se.slice = 100 * USEC + prng_below(r, 5 * MSEC);
	}
	/* lag of virtual time; a few exactly 0 */
	p->se.vlag = prng_below(r, 8) ? (s64)prng_below(r, 2 * lag_range) - (s64)lag_range : 0;
	/* relative deadline; sometimes shared by several entities */
	p->se.rel_deadline = 1;
	p->se.deadline = prng_below(r, 16) ? 1 + prng_below(r, dl_range) : dl_range / 2;
	enqueue_task_fair(rq, p, 0);
	p->on_rq = TASK_ON_RQ_QUEUED;
	assert_int_equal(p->se.rel_deadline, 0);
	assert_true(ent_in_tree(&p->se));
}

struct pick_stats {
	int trees, with_curr, curr_protected, leftmost_ineligible, picked_curr, picked_deep;
};

/* Check pick_eevdf() and the eligibility sums on the state of @rq. */
static void check_pick(struct rq *rq, struct pick_stats *st)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *ents[POOL + 1], *curr = cfs_rq->curr, *pick, *prev = NULL;
	struct sched_entity *first, *want = NULL;
	int n = 0, in_tree = 0;
	__int128 sum = 0, load = 0;
	u64 mv, ms;

	for (int i = 0; i < POOL; i++) {
		struct sched_entity *se = &pool[i].se;

		if (!se->on_rq)
			continue;
		ents[n++] = se;
		in_tree += ent_in_tree(se);
		/* curr is out of the tree, everything else queued is in it */
		assert_true(ent_in_tree(se) == (se != curr));
	}
	assert_int_equal(cfs_rq->nr_queued, n);
	assert_int_equal(check_subtree(cfs_rq->tasks_timeline.rb_root.node, NULL, &mv, &ms, &prev),
			 in_tree);
	first = __pick_first_entity(cfs_rq);
	if (in_tree)
		assert_ptr_equal(first, rb_entry(rb_first(&cfs_rq->tasks_timeline.rb_root),
						 struct sched_entity, run_node));
	else
		assert_null(first);

	/* V = sum(key_i * w_i) / sum(w_i), exactly, over tree + queued curr */
	for (int i = 0; i < n; i++) {
		__int128 w = (__int128)scale_load_down(ents[i]->load.weight);

		sum += (__int128)(s64)(ents[i]->vruntime - cfs_rq->min_vruntime) * w;
		load += w;
	}
	assert_true(cfs_rq->avg_load +
			    (curr && curr->on_rq ? scale_load_down(curr->load.weight) : 0) ==
		    (u64)load);
	if (load) {
		__int128 q = sum / load;

		if (sum % load && sum < 0)
			q--; /* floor */
		assert_int_equal(avg_vruntime(cfs_rq), cfs_rq->min_vruntime + (u64)(s64)q);
	}

	for (int i = 0; i < n; i++) {
		struct sched_entity *se = ents[i];
		__int128 key = (s64)(se->vruntime - cfs_rq->min_vruntime);
		bool elig = sum >= key * load;

		assert_int_equal(!!entity_eligible(cfs_rq, se), elig);
		if (elig && (!want || (s64)(se->deadline - want->deadline) < 0))
			want = se;
	}
	if (first && !entity_eligible(cfs_rq, first))
		st->leftmost_ineligible++;

	pick = pick_eevdf(cfs_rq);
	st->trees++;
	if (!n) {
		assert_null(pick);
		return;
	}
	if (curr && curr->on_rq) {
		st->with_curr++;
		if (n > 1 && entity_eligible(cfs_rq, curr) &&
		    (s64)(curr->vprot - curr->vruntime) > 0) {
			/* RUN_TO_PARITY: an eligible protected curr keeps the CPU */
			st->curr_protected++;
			assert_ptr_equal(pick, curr);
			return;
		}
	}
	assert_non_null(want);
	assert_non_null(pick);
	if (pick != want) {
		/* only another eligible entity with the same deadline will do */
		assert_true(entity_eligible(cfs_rq, pick));
		assert_int_equal(pick->deadline, want->deadline);
	}
	if (pick == curr)
		st->picked_curr++;
	else if (pick != first)
		st->picked_deep++;
}

static void test_pick_eevdf_random(void **state)
{
	struct pick_stats st = { 0 };
	struct prng r;
	struct rq *rq;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	rq = tl_cpu(0);
	prng_init(&r, 42, 1);

	for (int tree = 0; tree < 2000; tree++) {
		int n = 1 + (int)prng_below(&r, POOL);
		/* 0: no curr; 1: a curr; 2: a curr that may be dequeued too */
		int with_curr = (int)prng_below(&r, 3);
		int at = (int)prng_below(&r, n);
		/* deadlines spread wider than lags make early ineligible ones common */
		u64 lag_range = prng_below(&r, 2) ? 1 * MSEC : 8 * MSEC;
		u64 dl_range = (u64[]){ 1 * MSEC, 10 * MSEC, 40 * MSEC }[prng_below(&r, 3)];

		reset_rq(rq, &r);
		for (int i = 0; i < n; i++) {
			rand_enqueue(rq, &pool[i], &r, lag_range, dl_range);
			if (with_curr && i == at) {
				set_next_task_fair(rq, &pool[i], true);
				/* half the time take the protection away */
				if (prng_below(&r, 2))
					pool[i].se.vprot = pool[i].se.vruntime;
			}
		}
		check_pick(rq, &st);

		/* take some out again (not sleeping: no delayed dequeue), re-check */
		for (int k = (int)prng_below(&r, (u64)n); k > 0; k--) {
			struct task_struct *p = &pool[prng_below(&r, (u64)n)];

			if (!p->se.on_rq)
				continue;
			if (&p->se == rq->cfs.curr && with_curr == 1)
				continue;
			assert_true(dequeue_task_fair(rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE));
			p->on_rq = 0;
			p->se.rel_deadline = 0;
		}
		check_pick(rq, &st);
		if (rq->cfs.curr)
			put_prev_task_fair(rq, task_of(rq->cfs.curr));
		check_pick(rq, &st);
	}
	/* the random states covered the interesting cases */
	assert_true(st.leftmost_ineligible > 400);
	assert_true(st.picked_deep > 300);
	assert_true(st.with_curr > 500);
	assert_true(st.curr_protected > 100);
	assert_true(st.picked_curr > 20);
	tl_teardown();
}

/*
 * Queue entities with chosen lags on a hand-driven smp1 runqueue: requeue
 * @p (queued, not curr) with @slice (0: the base slice) and @vlag, so
 * place_entity() puts it at V - vlag * (W + w) / W with a full slice of
 * deadline.
 */
static void requeue(struct task_struct *p, u64 slice, s64 vlag)
{
	struct rq *rq = task_rq(p);

	assert_true(task_on_rq_queued(p) && rq->curr != p);
	dequeue_task_fair(rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE | DEQUEUE_NOCLOCK);
	p->se.custom_slice = slice != 0;
	p->se.slice = slice ? slice : base_slice;
	p->se.vlag = vlag;
	p->se.rel_deadline = 0;
	enqueue_task_fair(rq, p, ENQUEUE_RESTORE | ENQUEUE_MOVE | ENQUEUE_NOCLOCK);
}

/* @p (queued, not running) goes to sleep without a delayed dequeue. */
static void put_to_sleep(struct task_struct *p)
{
	struct rq *rq = task_rq(p);

	assert_true(dequeue_task_fair(rq, p, DEQUEUE_SLEEP | DEQUEUE_SPECIAL | DEQUEUE_NOCLOCK));
	p->on_rq = 0;
	p->__state = TASK_INTERRUPTIBLE;
}

/*
 * An ineligible entity with the earliest deadline is not picked: A runs,
 * goes past V and gets the earliest deadline; B, eligible with a later
 * deadline, must win; and once B has run past A, A wins again.
 */
static void test_pick_skips_ineligible_earliest(void **state)
{
	struct task_struct *a, *b, *c;
	struct cfs_rq *cfs_rq;
	struct rq *rq;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	rq = tl_cpu(0);
	cfs_rq = &rq->cfs;
	a = tl_fork("a", 0);
	b = tl_fork("b", 0);
	c = tl_fork("c", 0);
	/* b, c at V; a: short slice (early deadline), negative lag (ahead of V) */
	requeue(b, 0, 0);
	requeue(c, 1 * MSEC, 0);
	requeue(a, 100 * USEC, -200 * (s64)USEC);
	tl_check();
	assert_ptr_equal(__pick_first_entity(cfs_rq), &a->se);
	assert_false(entity_eligible(cfs_rq, &a->se));
	assert_true(entity_eligible(cfs_rq, &b->se));
	assert_true((s64)(a->se.deadline - b->se.deadline) < 0);
	assert_true((s64)(b->se.deadline - c->se.deadline) < 0);
	assert_ptr_equal(pick_eevdf(cfs_rq), &b->se);
	/* and the full pick path agrees */
	assert_ptr_equal(tl_schedule(), b);
	tl_check();
	/* b uses up its slice; now V has caught up with a, the earliest deadline */
	tl_advance(base_slice);
	assert_true(rq->need_resched);
	assert_true(entity_eligible(cfs_rq, &a->se));
	assert_ptr_equal(tl_schedule(), a);
	tl_check();
	tl_teardown();
}

/* ------------------------------------------------------------------------- */
/* lag across sleep: place_entity() in a whole run                            */
/* ------------------------------------------------------------------------- */

/*
 * The probe task runs briefly, sleeps on its own hrtimer, and repeats,
 * on smp1 next to two always-running tasks. At every sleep and wakeup it
 * checks what the fair class did:
 *  - sleeping: an eligible task leaves with vlag = clamp(V - v) (exactly,
 *    on a zero-cost machine); an ineligible one stays queued as a delayed
 *    entity if DELAY_DEQUEUE, else leaves with its negative lag;
 *  - waking (not delayed): v = V - vlag * (W + w) / W exactly (V and W
 *    taken just before the enqueue), and afterwards V' - v == vlag within
 *    integer rounding: the lag relative to the new average is preserved.
 *    Without PLACE_LAG, v = V.
 */
struct lag_probe {
	struct task_struct *p;
	struct hrtimer timer;
	struct prng r;
	bool sleeping_next;
	bool exact; /* zero-cost machine: check the exact numbers */
	/* observations */
	int sleeps, delayed, placed, placed_pos, placed_neg, woken_delayed;
};

static struct lag_probe probe;

static s64 lag_limit(struct sched_entity *se)
{
	return (s64)calc_delta_fair(max(2 * se->slice, TICK_NSEC), se);
}

static void probe_step(struct task_struct *p)
{
	struct rq *rq = task_rq(p);
	struct cfs_rq *cfs_rq = &rq->cfs;
	s64 lag = 0;
	bool eligible;

	if (!probe.sleeping_next) {
		probe.sleeping_next = true;
		task_run_user(50 * USEC + prng_below(&probe.r, 1500 * USEC));
		return;
	}
	probe.sleeping_next = false;
	/* account curr up to now: schedule() below then sees the same V */
	update_rq_clock(rq);
	update_curr_fair(rq);
	eligible = entity_eligible(cfs_rq, &p->se);
	lag = clamp((s64)(avg_vruntime(cfs_rq) - p->se.vruntime), -lag_limit(&p->se),
		    lag_limit(&p->se));
	hrtimer_start(&probe.timer, cpu_now() + 200 * USEC + prng_below(&probe.r, 3 * MSEC));
	p->__state = TASK_INTERRUPTIBLE;
	schedule();
	probe.sleeps++;
	assert_ptr_not_equal(rq->curr, p);
	if (!eligible && sched_feat(DELAY_DEQUEUE)) {
		probe.delayed++;
		assert_int_equal(p->on_rq, TASK_ON_RQ_QUEUED);
		assert_true(p->se.sched_delayed);
		return;
	}
	assert_int_equal(p->on_rq, 0);
	assert_false(p->se.on_rq);
	assert_false(p->se.sched_delayed);
	if (probe.exact)
		assert_int_equal(p->se.vlag, lag);
	else
		assert_true(llabs(p->se.vlag - lag) < 2 * (s64)USEC);
}

static const struct task_exec probe_exec = { .step = probe_step };

static void probe_wake(struct hrtimer *t)
{
	struct task_struct *p = probe.p;
	struct rq *rq = task_rq(p);
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &p->se, *curr;
	s64 vlag = se->vlag, load, lag = 0;
	u64 v_before = se->vruntime, d_before = se->deadline, V;

	(void)t;
	/* the clock update try_to_wake_up() does, done first so V is final */
	update_rq_clock(rq);
	update_curr_fair(rq);
	if (p->on_rq) {
		/* still a delayed entity: woken where it is, no new placement unless its lag turned positive */
		bool pos;

		assert_true(se->sched_delayed);
		pos = (s64)(avg_vruntime(cfs_rq) - se->vruntime) > 0;
		wake_up_process(p);
		probe.woken_delayed++;
		assert_false(se->sched_delayed);
		assert_int_equal(p->__state, TASK_RUNNING);
		if (!pos || !sched_feat(DELAY_ZERO)) {
			assert_int_equal(se->vruntime, v_before);
			assert_int_equal(se->deadline, d_before);
		}
		return;
	}
	curr = cfs_rq->curr;
	V = avg_vruntime(cfs_rq);
	load = (s64)cfs_rq->avg_load;
	if (curr && curr->on_rq)
		load += (s64)scale_load_down(curr->load.weight);
	assert_true(load > 0); /* the busy tasks are there */
	if (sched_feat(PLACE_LAG))
		lag = vlag * (load + (s64)scale_load_down(se->load.weight)) / load;

	wake_up_process(p);
	probe.placed++;
	probe.placed_pos += vlag > 0;
	probe.placed_neg += vlag < 0;
	assert_int_equal(p->on_rq, TASK_ON_RQ_QUEUED);
	if (probe.exact) {
		assert_int_equal(se->vruntime, V - (u64)lag);
		assert_int_equal(se->deadline, se->vruntime + calc_delta_fair(se->slice, se));
	}
	/* the lag against the new average is the lag the task left with */
	{
		s64 now_lag = (s64)(avg_vruntime(cfs_rq) - se->vruntime);

		if (sched_feat(PLACE_LAG)) {
			if (now_lag < vlag - 1 || now_lag > vlag + 2)
				fail_msg("lag %lld after placement, left with %lld",
					 (long long)now_lag, (long long)vlag);
		} else {
			assert_true(now_lag >= -1 && now_lag <= 2);
		}
	}
}

static void run_lag_probe(bool zero_cost, const char *features)
{
	tl_setup("smp1", zero_cost, 0, features);
	memset(&probe, 0, sizeof(probe));
	probe.exact = zero_cost;
	prng_init(&probe.r, 7, PRNG_STREAM_WORKLOAD);
	hrtimer_init(&probe.timer, probe_wake);
	tl_work_task("busy0", &tl_busy_prog, 0);
	tl_work_task("busy1", &tl_busy_prog, 0);
	probe.p = sched_fork_task(NULL, false, "probe", &probe_exec, NULL, 0);
	tl_run_until(2 * NSEC_PER_SEC, true);
	hrtimer_cancel(&probe.timer);
	tl_teardown();
}

static void test_lag_across_sleep(void **state)
{
	(void)state;
	/* defaults: DELAY_DEQUEUE keeps the ineligible sleepers */
	run_lag_probe(TL_ZERO_COST, NULL);
	assert_true(probe.sleeps > 100);
	assert_true(probe.delayed > 10);
	assert_true(probe.placed > 50);
	assert_int_equal(probe.placed + probe.woken_delayed, probe.sleeps);

	/* every sleeper leaves at once; lags of both signs are placed */
	run_lag_probe(TL_ZERO_COST, "NO_DELAY_DEQUEUE");
	assert_int_equal(probe.delayed, 0);
	assert_int_equal(probe.woken_delayed, 0);
	assert_true(probe.placed_pos > 20);
	assert_true(probe.placed_neg > 20);

	/* with the real kernel-path costs the relation V' - v == vlag holds too */
	run_lag_probe(TL_REAL_COST, "NO_DELAY_DEQUEUE");
	assert_true(probe.placed_pos > 20 && probe.placed_neg > 20);
	run_lag_probe(TL_REAL_COST, NULL);
	assert_true(probe.placed > 50);
}

static void test_no_place_lag(void **state)
{
	(void)state;
	run_lag_probe(TL_ZERO_COST, "NO_PLACE_LAG,NO_DELAY_DEQUEUE");
	assert_true(probe.placed_pos > 20 && probe.placed_neg > 20);
	run_lag_probe(TL_ZERO_COST, "NO_PLACE_LAG");
	assert_true(probe.placed > 50);
}

/*
 * The lag a task leaves with is clamped to +-calc_delta_fair(max(2 * slice,
 * TICK_NSEC)): at HZ=250 with the 0.7 ms base slice that is 4 ms for nice 0,
 * 4 ms * 1024 / 335 for nice 5, and 6 ms for a 3 ms custom slice. a runs
 * 60 ms without being switched out (nobody acts on its reschedule); then b
 * (nice 5) and d (3 ms slice), left far behind V, and a, far ahead, leave.
 */
static void test_lag_clamp(void **state)
{
	struct task_struct *a, *b, *c, *d;
	struct rq *rq;
	s64 limit;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 250, "NO_DELAY_DEQUEUE");
	rq = tl_cpu(0);
	a = tl_fork("a", 0);
	b = tl_fork("b", 0);
	c = tl_fork("c", 0);
	d = tl_fork("d", 0);
	tl_set_nice(b, 5);
	requeue(b, 0, 0);
	requeue(c, 0, 0);
	requeue(d, 3 * MSEC, 0);
	assert_ptr_equal(tl_schedule(), a);
	tl_advance(60 * MSEC);
	assert_true(rq->need_resched);

	limit = (s64)calc_delta_fair(4 * MSEC, &b->se);
	assert_int_equal(limit, (s64)(4 * MSEC * 1024 / 335));
	assert_true((s64)(avg_vruntime(&rq->cfs) - b->se.vruntime) > limit);
	put_to_sleep(b);
	assert_int_equal(b->se.vlag, limit);

	assert_true((s64)(avg_vruntime(&rq->cfs) - d->se.vruntime) > 6 * (s64)MSEC);
	put_to_sleep(d);
	assert_int_equal(d->se.vlag, 6 * (s64)MSEC);

	assert_true((s64)(avg_vruntime(&rq->cfs) - a->se.vruntime) < -4 * (s64)MSEC);
	assert_ptr_equal(tl_block_current(), c);
	assert_int_equal(a->on_rq, 0);
	assert_int_equal(a->se.vlag, -4 * (s64)MSEC);
	tl_check();
	tl_teardown();
}

/* ------------------------------------------------------------------------- */
/* RUN_TO_PARITY, PREEMPT_SHORT, WAKEUP_PREEMPTION                           */
/* ------------------------------------------------------------------------- */

/*
 * The wakeup-preemption scene, on a zero-cost smp1 runqueue:
 *   a: slice @slice_a, vlag 0: placed at V, earliest deadline, picked: curr;
 *   b: slice @slice_a, lag -5 ms (vruntime 10 ms past V): holds V up, so
 *      a is still eligible after it has run;
 *   c: asleep.
 * a runs @run_a (the cursor moves; no tick accounts it). Then c, with slice
 * @slice_c and lag @vlag_c, is woken by try_to_wake_up(). @s records whether
 * the wakeup left a reschedule pending, and what check_preempt_wakeup_fair()
 * decides on its own. The machine stays up for the caller's own checks; the
 * caller tears it down.
 */
struct scene {
	struct task_struct *a, *b, *c;
	struct rq *rq;
	bool resched_by_ttwu; /* need_resched after try_to_wake_up() */
	bool wakeup_decision; /* check_preempt_wakeup_fair() alone, flag cleared first */
};

/* check_preempt_wakeup_fair() alone on @s's runqueue, flag cleared first */
static bool decide(struct scene *s, struct task_struct *p, int wake_flags)
{
	s->rq->need_resched = false;
	check_preempt_wakeup_fair(s->rq, p, wake_flags);
	return s->rq->need_resched;
}

static void scene_run(struct scene *s, const char *features, u64 slice_a, u64 run_a, u64 slice_c,
		      s64 vlag_c)
{
	struct cfs_rq *cfs_rq;

	tl_setup("smp1", TL_ZERO_COST, 0, features);
	s->rq = tl_cpu(0);
	cfs_rq = &s->rq->cfs;
	s->a = tl_fork("a", 0);
	s->b = tl_fork("b", 0);
	s->c = tl_fork("c", 0);
	put_to_sleep(s->c);
	requeue(s->a, slice_a, 0);
	requeue(s->b, slice_a, -5 * (s64)MSEC);
	tl_check();
	assert_ptr_equal(tl_schedule(), s->a);
	tl_check();

	charge(run_a);
	s->c->se.custom_slice = slice_c != 0;
	s->c->se.slice = slice_c ? slice_c : base_slice;
	s->c->se.vlag = vlag_c;
	s->c->se.rel_deadline = 0;
	assert_int_equal(try_to_wake_up(s->c, TASK_NORMAL, 0), 1);
	tl_check();
	s->resched_by_ttwu = s->rq->need_resched;

	/*
	 * The scene is what it claims to be: a eligible; c (with a positive
	 * lag) eligible with the earliest deadline, or (negative lag) not
	 * eligible at all.
	 */
	assert_int_equal(s->a->se.sum_exec_runtime, run_a);
	assert_true(entity_eligible(cfs_rq, &s->a->se));
	if (vlag_c > 0) {
		assert_true(entity_eligible(cfs_rq, &s->c->se));
		assert_true((s64)(s->c->se.deadline - s->a->se.deadline) < 0);
		assert_true((s64)(s->c->se.deadline - s->b->se.deadline) < 0);
	} else {
		assert_false(entity_eligible(cfs_rq, &s->c->se));
	}

	/* the wakeup decision on its own (the clock has not moved: no update_curr effect) */
	s->wakeup_decision = decide(s, s->c, 0);
}

static void test_run_to_parity(void **state)
{
	struct scene s;

	(void)state;
	/*
	 * Equal 3 ms slices, a has run 1 ms: with RUN_TO_PARITY a is protected
	 * up to its deadline (the smallest queued slice is 3 ms too) and c does
	 * not preempt, although c is eligible with the earlier deadline.
	 */
	scene_run(&s, NULL, 3 * MSEC, 1 * MSEC, 3 * MSEC, 4 * (s64)MSEC);
	assert_int_equal(s.a->se.vprot, s.a->se.deadline);
	assert_true((s64)(s.a->se.vprot - s.a->se.vruntime) > 0);
	assert_false(s.resched_by_ttwu);
	assert_false(s.wakeup_decision);
	assert_ptr_equal(s.rq->curr, s.a);
	tl_teardown();

	/*
	 * NO_RUN_TO_PARITY still protects curr, but only for the base slice
	 * (0.7 ms) of a 3 ms slice: after 1 ms a is fair game and c preempts
	 * (update_curr() in the enqueue already asks, and so does the wakeup
	 * check on its own).
	 */
	scene_run(&s, "NO_RUN_TO_PARITY", 3 * MSEC, 1 * MSEC, 3 * MSEC, 4 * (s64)MSEC);
	assert_true((s64)(s.a->se.vprot - s.a->se.vruntime) <= 0);
	assert_true(s.resched_by_ttwu);
	assert_true(s.wakeup_decision);
	assert_ptr_equal(tl_schedule(), s.c);
	tl_check();
	tl_teardown();

	/* ... and before those 0.7 ms are used up, it does not */
	scene_run(&s, "NO_RUN_TO_PARITY", 3 * MSEC, 500 * USEC, 3 * MSEC, 4 * (s64)MSEC);
	assert_false(s.resched_by_ttwu);
	assert_false(s.wakeup_decision);
	tl_teardown();

	/*
	 * The other way round: base slices for a and c, but b queued with a
	 * 0.3 ms slice. RUN_TO_PARITY protects a only for the smallest queued
	 * slice, so after 0.5 ms c preempts; NO_RUN_TO_PARITY protects the
	 * whole 0.7 ms and c does not.
	 */
	{
		struct task_struct *a, *b, *c;
		bool parity;

		for (int pass = 0; pass < 2; pass++) {
			parity = pass == 0;
			tl_setup("smp1", TL_ZERO_COST, 0, parity ? NULL : "NO_RUN_TO_PARITY");
			tl_cpu(0);
			a = tl_fork("a", 0);
			b = tl_fork("b", 0);
			c = tl_fork("c", 0);
			put_to_sleep(c);
			requeue(a, 0, 0);
			requeue(b, 300 * USEC, -5 * (s64)MSEC);
			assert_ptr_equal(tl_schedule(), a);
			if (parity)
				assert_int_equal(a->se.vprot, a->se.vruntime + 300 * USEC);
			else
				assert_int_equal(a->se.vprot, a->se.deadline);
			charge(500 * USEC);
			c->se.vlag = 4 * (s64)MSEC;
			assert_int_equal(try_to_wake_up(c, TASK_NORMAL, 0), 1);
			assert_true(entity_eligible(&this_rq()->cfs, &a->se));
			assert_true((s64)(c->se.deadline - a->se.deadline) < 0);
			assert_int_equal(this_rq()->need_resched, parity);
			tl_check();
			tl_teardown();
		}
	}
}

static void test_preempt_short(void **state)
{
	struct scene s;

	(void)state;
	/*
	 * a protected (3 ms slice, ran 1 ms), c wakes with a 1 ms slice:
	 * PREEMPT_SHORT ignores the protection, c is the pick, a's protection
	 * is cancelled (vprot = vruntime).
	 */
	scene_run(&s, NULL, 3 * MSEC, 1 * MSEC, 1 * MSEC, 4 * (s64)MSEC);
	assert_true(s.resched_by_ttwu);
	assert_true(s.wakeup_decision);
	assert_int_equal(s.a->se.vprot, s.a->se.vruntime);
	assert_ptr_equal(tl_schedule(), s.c);
	tl_check();
	tl_teardown();

	/*
	 * A shorter-slice wakee that does not win the pick (negative lag:
	 * not eligible) does not preempt, but with RUN_TO_PARITY it shortens
	 * a's protection to the smallest queued slice: vprot = v_a + 1 ms.
	 */
	scene_run(&s, NULL, 3 * MSEC, 1 * MSEC, 1 * MSEC, -1 * (s64)MSEC);
	assert_false(s.resched_by_ttwu);
	assert_false(s.wakeup_decision);
	assert_int_equal(s.a->se.vprot, s.a->se.vruntime + 1 * MSEC);
	assert_true((s64)(s.a->se.deadline - s.a->se.vprot) > 0);
	tl_teardown();

	/* NO_PREEMPT_SHORT: the shorter slice does not matter, a keeps the CPU */
	scene_run(&s, "NO_PREEMPT_SHORT", 3 * MSEC, 1 * MSEC, 1 * MSEC, 4 * (s64)MSEC);
	assert_false(s.resched_by_ttwu);
	assert_false(s.wakeup_decision);
	assert_int_equal(s.a->se.vprot, s.a->se.deadline);
	tl_teardown();
}

static void test_no_wakeup_preemption(void **state)
{
	struct scene s;

	(void)state;
	/* the PREEMPT_SHORT scene, where c would win: no wakeup preemption at all */
	scene_run(&s, "NO_WAKEUP_PREEMPTION", 3 * MSEC, 1 * MSEC, 1 * MSEC, 4 * (s64)MSEC);
	assert_false(s.resched_by_ttwu);
	assert_false(s.wakeup_decision);
	/* protection untouched, and the pick itself would still be c */
	assert_int_equal(s.a->se.vprot, s.a->se.deadline);
	tl_teardown();

	/* the NO_RUN_TO_PARITY scene: only update_curr()'s slice check reschedules */
	scene_run(&s, "NO_WAKEUP_PREEMPTION,NO_RUN_TO_PARITY", 3 * MSEC, 1 * MSEC, 3 * MSEC,
		  4 * (s64)MSEC);
	assert_true(s.resched_by_ttwu);
	assert_false(s.wakeup_decision);
	tl_teardown();

	/* and with 0.5 ms run (still protected under NO_RUN_TO_PARITY): nothing */
	scene_run(&s, "NO_WAKEUP_PREEMPTION,NO_RUN_TO_PARITY", 3 * MSEC, 500 * USEC, 1 * MSEC,
		  4 * (s64)MSEC);
	assert_false(s.resched_by_ttwu);
	assert_false(s.wakeup_decision);
	tl_teardown();
}

/* ------------------------------------------------------------------------- */
/* WAKEUP_PREEMPT_EEVDF: v6.19's wakeup preemption (e837456fdca8)             */
/* ------------------------------------------------------------------------- */

/*
 * A forked task never preempts in v6.19 (fork is often followed by exec):
 * in the NO_RUN_TO_PARITY scene, where v6.18 lets c preempt a after 1 ms,
 * the same decision with WF_FORK goes the other way; without WF_FORK it
 * still preempts.
 */
static void test_eevdf_fork_no_preempt(void **state)
{
	struct scene s;

	(void)state;
	scene_run(&s, "NO_RUN_TO_PARITY", 3 * MSEC, 1 * MSEC, 3 * MSEC, 4 * (s64)MSEC);
	assert_true(decide(&s, s.c, WF_FORK));
	tl_teardown();

	scene_run(&s, "NO_RUN_TO_PARITY,WAKEUP_PREEMPT_EEVDF", 3 * MSEC, 1 * MSEC, 3 * MSEC,
		  4 * (s64)MSEC);
	assert_false(decide(&s, s.c, WF_FORK));
	assert_true(decide(&s, s.c, WF_TTWU));
	tl_teardown();
}

/*
 * a runs 5 ms with b waiting: a is past V (ineligible). c wakes with a
 * negative lag, so it is not eligible either and EEVDF's pick is b: v6.18
 * does not preempt. v6.19 reschedules an ineligible waker from task
 * context, but not from an interrupt handler (in_task() false), where the
 * pick decides as before.
 */
static bool ineligible_waker(const char *features, bool in_interrupt)
{
	struct task_struct *a, *b, *c;
	struct rq *rq;
	bool resched;

	tl_setup("smp1", TL_ZERO_COST, 0, features);
	rq = tl_cpu(0);
	a = tl_fork("a", 0);
	b = tl_fork("b", 0);
	c = tl_fork("c", 0);
	put_to_sleep(c);
	assert_ptr_equal(tl_schedule(), a);
	charge(5 * MSEC);
	c->se.vlag = -1 * (s64)MSEC;
	assert_int_equal(try_to_wake_up(c, TASK_NORMAL, 0), 1);
	tl_check();
	assert_false(entity_eligible(&rq->cfs, &a->se));
	assert_false(entity_eligible(&rq->cfs, &c->se));
	assert_true(entity_eligible(&rq->cfs, &b->se));
	rq->need_resched = false;
	rq->in_interrupt = in_interrupt;
	check_preempt_wakeup_fair(rq, c, WF_TTWU);
	rq->in_interrupt = false;
	resched = rq->need_resched;
	tl_teardown();
	return resched;
}

static void test_eevdf_ineligible_waker(void **state)
{
	(void)state;
	assert_false(ineligible_waker(NULL, false));
	assert_true(ineligible_waker("WAKEUP_PREEMPT_EEVDF", false));
	assert_false(ineligible_waker("WAKEUP_PREEMPT_EEVDF", true));
}

/*
 * NEXT_BUDDY under v6.19, in the RUN_TO_PARITY scene (a protected, c
 * eligible with the earliest deadline; v6.18 does not preempt, with or
 * without NEXT_BUDDY):
 *  - a plain wakeup makes c the buddy, and the pick now returns the
 *    eligible buddy ahead of a's protection: c preempts;
 *  - a WF_SYNC wakeup makes c the buddy but does not preempt: the waker's
 *    runtime is read after update_curr() (0), below migration_cost, as in
 *    the merged commit. With migration_cost 0 the deadline test decides:
 *    c's is earlier, it preempts;
 *  - a buddy with an earlier deadline than the wakee's is kept.
 */
static void test_eevdf_next_buddy(void **state)
{
	u64 migration_cost = sysctl_sched.migration_cost_ns;
	struct scene s;

	(void)state;
	scene_run(&s, "NEXT_BUDDY", 3 * MSEC, 1 * MSEC, 3 * MSEC, 4 * (s64)MSEC);
	assert_false(s.wakeup_decision);
	assert_ptr_equal(s.rq->cfs.next, &s.c->se);
	tl_teardown();

	scene_run(&s, "NEXT_BUDDY,WAKEUP_PREEMPT_EEVDF", 3 * MSEC, 1 * MSEC, 3 * MSEC,
		  4 * (s64)MSEC);
	assert_true(s.wakeup_decision);
	assert_ptr_equal(s.rq->cfs.next, &s.c->se);
	s.rq->cfs.next = NULL;
	assert_false(decide(&s, s.c, WF_TTWU | WF_SYNC));
	assert_ptr_equal(s.rq->cfs.next, &s.c->se);
	s.rq->cfs.next = NULL;
	sysctl_sched.migration_cost_ns = 0;
	assert_true(decide(&s, s.c, WF_TTWU | WF_SYNC | WF_RQ_SELECTED));
	sysctl_sched.migration_cost_ns = migration_cost;
	tl_teardown();

	/* without NEXT_BUDDY the sync hint is not weighed: a stays protected */
	scene_run(&s, "WAKEUP_PREEMPT_EEVDF", 3 * MSEC, 1 * MSEC, 3 * MSEC, 4 * (s64)MSEC);
	assert_false(s.wakeup_decision);
	assert_false(decide(&s, s.c, WF_TTWU | WF_SYNC));
	assert_null(s.rq->cfs.next);
	tl_teardown();

	/* an existing buddy whose deadline is earlier than c's stays */
	scene_run(&s, "NEXT_BUDDY,WAKEUP_PREEMPT_EEVDF", 3 * MSEC, 1 * MSEC, 3 * MSEC,
		  4 * (s64)MSEC);
	s.rq->cfs.next = &s.c->se;
	assert_false(decide(&s, s.b, WF_TTWU));
	assert_true((s64)(s.c->se.deadline - s.b->se.deadline) < 0);
	assert_ptr_equal(s.rq->cfs.next, &s.c->se);
	tl_teardown();
}

/*
 * v6.19 narrows curr's protection to the smallest queued slice at every
 * wakeup that does not preempt, not only at a shorter wakee's (which
 * NO_PREEMPT_SHORT turns off here): a protected for its 3 ms slice, b
 * (negative lag, not picked) wakes with a 1 ms slice: v6.18 leaves vprot
 * at a's deadline, v6.19 cuts it to v_a + 1 ms.
 */
static void test_eevdf_update_protect(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	for (int v619 = 0; v619 < 2; v619++) {
		tl_setup("smp1", TL_ZERO_COST, 0,
			 v619 ? "NO_PREEMPT_SHORT,WAKEUP_PREEMPT_EEVDF" : "NO_PREEMPT_SHORT");
		tl_cpu(0);
		a = tl_fork("a", 0);
		b = tl_fork("b", 0);
		put_to_sleep(b);
		requeue(a, 3 * MSEC, 0);
		assert_ptr_equal(tl_schedule(), a);
		assert_int_equal(a->se.vprot, a->se.deadline);
		b->se.custom_slice = 1;
		b->se.slice = 1 * MSEC;
		b->se.vlag = -5 * (s64)MSEC;
		assert_int_equal(try_to_wake_up(b, TASK_NORMAL, 0), 1);
		assert_false(this_rq()->need_resched);
		if (v619)
			assert_int_equal(a->se.vprot, a->se.vruntime + 1 * MSEC);
		else
			assert_int_equal(a->se.vprot, a->se.deadline);
		tl_check();
		tl_teardown();
	}
}

/* ------------------------------------------------------------------------- */
/* deadlines                                                                  */
/* ------------------------------------------------------------------------- */

/*
 * curr runs its whole slice: when its vruntime reaches its deadline, the
 * deadline moves on by calc_delta_fair(slice) (vd = ve + r/w) and, with
 * another task queued, a reschedule is asked for. Just short of it, neither.
 */
static struct task_struct *deadline_setup(int nice, bool alone, u64 *v0, u64 *d0, u64 *vslice)
{
	struct task_struct *a, *b = NULL;

	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	tl_cpu(0);
	a = tl_fork("a", 0);
	if (!alone)
		b = tl_fork("b", 0);
	if (nice)
		tl_set_nice(a, nice);
	requeue(a, 0, 0);
	if (b)
		requeue(b, 0, -1 * (s64)MSEC); /* b ahead of V: a is the pick */
	assert_ptr_equal(tl_schedule(), a);
	*v0 = a->se.vruntime;
	*d0 = a->se.deadline;
	*vslice = calc_delta_fair(base_slice, &a->se);
	/* placed with a full slice of virtual deadline */
	assert_int_equal(*d0, *v0 + *vslice);
	return a;
}

static void deadline_case(int nice, bool alone)
{
	struct task_struct *a;
	u64 v0, d0, vslice, pre;

	/*
	 * Just short: the longest run whose virtual time stays below vslice
	 * (base_slice - 1 for nice >= 0; for heavier tasks one virtual ns is
	 * several real ones).
	 */
	a = deadline_setup(nice, alone, &v0, &d0, &vslice);
	pre = base_slice - 1;
	while (calc_delta_fair(pre, &a->se) >= vslice)
		pre--;
	assert_true(pre > base_slice - 100);
	tl_advance(pre);
	assert_int_equal(a->se.sum_exec_runtime, pre);
	assert_int_equal(a->se.vruntime, v0 + calc_delta_fair(pre, &a->se));
	assert_true((s64)(a->se.vruntime - d0) < 0);
	assert_int_equal(a->se.deadline, d0);
	assert_false(this_rq()->need_resched);
	tl_check();
	tl_teardown();

	/* the whole slice in one update: vruntime lands on the deadline exactly */
	a = deadline_setup(nice, alone, &v0, &d0, &vslice);
	tl_advance(base_slice);
	assert_int_equal(a->se.sum_exec_runtime, base_slice);
	assert_int_equal(a->se.vruntime, d0);
	assert_int_equal(a->se.deadline, d0 + vslice);
	assert_int_equal(this_rq()->need_resched, !alone);
	tl_check();
	tl_teardown();

	/*
	 * Overshooting (the tick came late): the new deadline is a slice from
	 * where vruntime is, not from the old deadline.
	 */
	a = deadline_setup(nice, alone, &v0, &d0, &vslice);
	tl_advance(base_slice + 300 * USEC);
	assert_int_equal(a->se.vruntime, v0 + calc_delta_fair(base_slice + 300 * USEC, &a->se));
	assert_int_equal(a->se.deadline, a->se.vruntime + vslice);
	assert_true((s64)(a->se.deadline - (d0 + vslice)) > 0);
	assert_int_equal(this_rq()->need_resched, !alone);
	tl_teardown();
}

static void test_deadline_advance(void **state)
{
	(void)state;
	deadline_case(0, false);
	deadline_case(0, true);
	deadline_case(5, false);
	deadline_case(-7, false);
}

/* ------------------------------------------------------------------------- */
/* DELAY_DEQUEUE                                                              */
/* ------------------------------------------------------------------------- */

/*
 * a and b forked together (same vruntime, same deadline); a runs 200 us
 * (ahead of V = v + 100 us: ineligible, still protected) and blocks.
 */
static void delay_scene(const char *features, struct task_struct **pa, struct task_struct **pb)
{
	struct task_struct *a, *b;
	struct rq *rq;

	tl_setup("smp1", TL_ZERO_COST, 0, features);
	rq = tl_cpu(0);
	a = tl_fork("a", 0);
	b = tl_fork("b", 0);
	assert_ptr_equal(tl_schedule(), a);
	tl_advance(200 * USEC);
	assert_false(rq->need_resched);
	assert_false(entity_eligible(&rq->cfs, &a->se));
	assert_int_equal(rq->cfs.h_nr_runnable, 2);
	assert_ptr_equal(tl_block_current(), b);
	tl_check();
	*pa = a;
	*pb = b;
}

static void test_delay_dequeue(void **state)
{
	struct task_struct *a, *b;
	struct cfs_rq *cfs_rq;
	struct rq *rq;
	s64 want_lag;

	(void)state;
	/* blocked while ineligible: stays queued as a delayed entity */
	delay_scene(NULL, &a, &b);
	rq = this_rq();
	cfs_rq = &rq->cfs;
	assert_int_equal(a->on_rq, TASK_ON_RQ_QUEUED);
	assert_true(a->se.on_rq);
	assert_true(a->se.sched_delayed);
	assert_int_equal(a->__state, TASK_INTERRUPTIBLE);
	assert_int_equal(cfs_rq->nr_queued, 2);
	assert_int_equal(cfs_rq->h_nr_queued, 2);
	assert_int_equal(cfs_rq->h_nr_runnable, 1);
	assert_int_equal(rq->nr_running, 2);
	assert_ptr_equal(cfs_rq->curr, &b->se);

	/*
	 * b runs 400 us: past its deadline (a new slice, reschedule) and past
	 * a, which becomes eligible with the earlier deadline: the pick finds
	 * the delayed a and finishes its dequeue, then runs b again.
	 */
	tl_advance(400 * USEC);
	assert_true(rq->need_resched);
	assert_true(entity_eligible(cfs_rq, &a->se));
	assert_ptr_equal(pick_eevdf(cfs_rq), &a->se);
	want_lag = (s64)(avg_vruntime(cfs_rq) - a->se.vruntime);
	assert_true(want_lag > 0);
	assert_ptr_equal(tl_schedule(), b);
	assert_int_equal(a->on_rq, 0);
	assert_false(a->se.on_rq);
	assert_false(a->se.sched_delayed);
	assert_int_equal(cfs_rq->nr_queued, 1);
	assert_int_equal(cfs_rq->h_nr_runnable, 1);
	assert_int_equal(rq->nr_running, 1);
	/* DELAY_ZERO: the positive lag it earned while delayed is dropped */
	assert_int_equal(a->se.vlag, 0);
	tl_check();
	/* woken later it is placed as a new arrival with zero lag: at V */
	assert_int_equal(try_to_wake_up(a, TASK_NORMAL, 0), 1);
	assert_int_equal(a->se.vruntime, avg_vruntime(cfs_rq) + 0);
	tl_check();
	tl_teardown();

	/* NO_DELAY_ZERO: the same scene keeps the positive lag */
	delay_scene("NO_DELAY_ZERO", &a, &b);
	rq = this_rq();
	tl_advance(400 * USEC);
	want_lag = (s64)(avg_vruntime(&rq->cfs) - a->se.vruntime);
	assert_ptr_equal(tl_schedule(), b);
	assert_int_equal(a->on_rq, 0);
	assert_int_equal(a->se.vlag, want_lag);
	tl_teardown();

	/*
	 * Woken while still delayed: requeued where it is (no new placement,
	 * its lag is negative), runnable again.
	 */
	delay_scene(NULL, &a, &b);
	rq = this_rq();
	{
		u64 v = a->se.vruntime, d = a->se.deadline;

		assert_int_equal(try_to_wake_up(a, TASK_NORMAL, 0), 1);
		assert_int_equal(a->__state, TASK_RUNNING);
		assert_false(a->se.sched_delayed);
		assert_int_equal(a->on_rq, TASK_ON_RQ_QUEUED);
		assert_int_equal(rq->cfs.h_nr_runnable, 2);
		assert_int_equal(rq->cfs.nr_queued, 2);
		assert_int_equal(a->se.vruntime, v);
		assert_int_equal(a->se.deadline, d);
		tl_check();
	}
	tl_teardown();

	/*
	 * Woken while still delayed but after its lag turned positive (b ran
	 * 250 us: V = v_a + 25 us, b still protected): DELAY_ZERO re-places it
	 * with zero lag, at V of the others (b's vruntime), with a new slice.
	 * NO_DELAY_ZERO leaves it where it is.
	 */
	for (int pass = 0; pass < 2; pass++) {
		bool zero = pass == 0;
		u64 v, d;

		delay_scene(zero ? NULL : "NO_DELAY_ZERO", &a, &b);
		rq = this_rq();
		tl_advance(250 * USEC);
		assert_false(rq->need_resched);
		assert_true(a->se.sched_delayed);
		assert_int_equal((s64)(avg_vruntime(&rq->cfs) - a->se.vruntime), 25 * (s64)USEC);
		v = a->se.vruntime;
		d = a->se.deadline;
		assert_int_equal(try_to_wake_up(a, TASK_NORMAL, 0), 1);
		assert_false(a->se.sched_delayed);
		assert_int_equal(rq->cfs.h_nr_runnable, 2);
		if (zero) {
			assert_int_equal(a->se.vlag, 0);
			assert_int_equal(a->se.vruntime, b->se.vruntime);
			assert_int_equal(a->se.deadline, a->se.vruntime + base_slice);
		} else {
			assert_int_equal(a->se.vruntime, v);
			assert_int_equal(a->se.deadline, d);
		}
		tl_check();
		tl_teardown();
	}

	/* NO_DELAY_DEQUEUE: dequeued at once, leaving with its negative lag */
	delay_scene("NO_DELAY_DEQUEUE", &a, &b);
	rq = this_rq();
	assert_int_equal(a->on_rq, 0);
	assert_false(a->se.on_rq);
	assert_false(a->se.sched_delayed);
	assert_int_equal(rq->cfs.nr_queued, 1);
	assert_int_equal(rq->cfs.h_nr_runnable, 1);
	assert_int_equal(rq->nr_running, 1);
	/* V was v_a - 100 us (b 200 us behind, equal weights) */
	assert_int_equal(a->se.vlag, -100 * (s64)USEC);
	tl_teardown();
}

/*
 * An exiting task (DEQUEUE_SPECIAL) is never kept as a delayed entity, even
 * when it leaves ineligible.
 */
static void test_delay_dequeue_not_on_exit(void **state)
{
	struct task_struct *a, *b;
	struct rq *rq;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	rq = tl_cpu(0);
	a = tl_fork("a", 0);
	b = tl_fork("b", 0);
	assert_ptr_equal(tl_schedule(), a);
	tl_advance(200 * USEC);
	assert_false(entity_eligible(&rq->cfs, &a->se));
	rq->curr->__state = TASK_DEAD;
	__schedule(SM_NONE);
	assert_ptr_equal(rq->curr, b);
	assert_int_equal(a->on_rq, 0);
	assert_false(a->se.sched_delayed);
	assert_int_equal(rq->cfs.nr_queued, 1);
	tl_check();
	tl_teardown();
}

/*
 * New tasks: placed at V with zero lag and, with PLACE_DEADLINE_INITIAL,
 * half a slice of deadline (a full one without).
 */
static void test_new_task_placement(void **state)
{
	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		bool half = pass == 0;
		struct task_struct *a, *b;
		struct rq *rq;
		u64 V;

		tl_setup("smp1", TL_ZERO_COST, 0, half ? NULL : "NO_PLACE_DEADLINE_INITIAL");
		rq = tl_cpu(0);
		a = tl_fork("a", 0);
		assert_int_equal(a->se.vruntime, rq->cfs.min_vruntime);
		assert_int_equal(a->se.deadline,
				 a->se.vruntime + (half ? base_slice / 2 : base_slice));
		assert_ptr_equal(tl_schedule(), a);
		tl_advance(100 * USEC);
		V = avg_vruntime(&rq->cfs);
		b = tl_fork("b", 0);
		assert_int_equal(b->se.vruntime, V);
		assert_int_equal(b->se.deadline, V + (half ? base_slice / 2 : base_slice));
		tl_check();
		tl_teardown();
	}
}

/* ------------------------------------------------------------------------- */
/* reweighting                                                               */
/* ------------------------------------------------------------------------- */

/*
 * set_user_nice() on a queued task keeps the runqueue's sums exact: the
 * load and avg_load describe the new weights, and after both tasks leave
 * the queue every sum is back to zero.
 */
static void test_set_user_nice_queued(void **state)
{
	struct task_struct *a, *b;
	struct rq *rq;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	rq = tl_cpu(0);
	a = tl_fork("a", 0);
	b = tl_fork("b", 0);
	set_user_nice(a, 5);
	assert_int_equal(a->se.load.weight, scale_load(335));
	assert_int_equal(rq->cfs.load.weight, a->se.load.weight + b->se.load.weight);
	assert_int_equal(rq->cfs.avg_load, (rq->cfs.curr == &a->se ? 0 : 335) +
						   (rq->cfs.curr == &b->se ? 0 : 1024));
	dequeue_task_fair(rq, a, DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
	dequeue_task_fair(rq, b, DEQUEUE_SAVE | DEQUEUE_NOCLOCK);
	assert_int_equal(rq->cfs.load.weight, 0);
	assert_int_equal(rq->cfs.nr_queued, 0);
	/* put them back so teardown finds a consistent queue */
	enqueue_task_fair(rq, a, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK);
	enqueue_task_fair(rq, b, ENQUEUE_RESTORE | ENQUEUE_NOCLOCK);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weight_tables),
		cmocka_unit_test(test_calc_delta),
		cmocka_unit_test(test_share_nice0_nice5),
		cmocka_unit_test(test_share_equal),
		cmocka_unit_test(test_pick_eevdf_random),
		cmocka_unit_test(test_pick_skips_ineligible_earliest),
		cmocka_unit_test(test_lag_across_sleep),
		cmocka_unit_test(test_no_place_lag),
		cmocka_unit_test(test_lag_clamp),
		cmocka_unit_test(test_run_to_parity),
		cmocka_unit_test(test_preempt_short),
		cmocka_unit_test(test_no_wakeup_preemption),
		cmocka_unit_test(test_eevdf_fork_no_preempt),
		cmocka_unit_test(test_eevdf_ineligible_waker),
		cmocka_unit_test(test_eevdf_next_buddy),
		cmocka_unit_test(test_eevdf_update_protect),
		cmocka_unit_test(test_deadline_advance),
		cmocka_unit_test(test_delay_dequeue),
		cmocka_unit_test(test_delay_dequeue_not_on_exit),
		cmocka_unit_test(test_new_task_placement),
		cmocka_unit_test(test_set_user_nice_queued),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
