// SPDX-License-Identifier: GPL-2.0-only
/*
 * The load balancer's study features (src/kernel/features.h), each on a
 * constructed state where its variants decide differently, asserting what
 * each variant decides:
 *
 *  - SWB_IDLE_CORE, SWB_SMT_SKIP: which CPU of a group gets past
 *    should_we_balance(), and what the walk costs (funclatency);
 *  - UTIL_RUNNABLE_BOOST: which runqueue a migrate_util pass pulls from;
 *  - NEWIDLE_COST, NEWIDLE_MIGRATION_COST_BAILOUT, NEWIDLE_RATE_LIMIT,
 *    NI_RANDOM: whether and at which levels sched_balance_newidle()
 *    balances, and its cost bookkeeping: the per-level max, v6.18's bump
 *    of a failing level's cost and its cap (155213a2aed4), which v6.19
 *    reverted (d206fbad9328) when it added NI_RANDOM's call and success
 *    counts (33cf66d88306), and the decay;
 *  - the defaults (v6.18);
 *  - active balancing: the interval reset after a kick, and two hogs on
 *    one SMT core resolved end to end.
 *
 * The hand-driven tests build the machine with tl_setup(), make CPUs busy
 * by forking a task there and switching to it (tl_fork_running()), queue
 * more tasks with tl_fork(), and call sched_balance_rq() and
 * sched_balance_newidle() directly on the CPU that balances.
 *
 * should_we_balance() is static; that it answered no shows as
 * continue_balancing cleared and lb_balanced counted without any other
 * outcome, that it answered yes as the pass going on (lb_nobusyg, a
 * pulled task, ...).
 */
#include "test_sched_helpers.h"

#include "kernel/funclat.h"
#include "sim/prng.h"

#define USEC NSEC_PER_USEC
#define MSEC NSEC_PER_MSEC

static void feat_set(const char *list)
{
	char err[256];

	if (sched_feat_apply(list, err, sizeof(err)))
		fail_msg("sched_feat_apply(%s): %s", list, err);
}

static void sysctl_set(const char *assignment)
{
	char err[256];

	if (sched_sysctl_set(assignment, err, sizeof(err)))
		fail_msg("sched_sysctl_set(%s): %s", assignment, err);
}

/* trace @list (--funclatency) from zero */
static void funclat_on(const char *list)
{
	char err[256];

	funclat_reset();
	if (funclat_enable(list, err, sizeof(err)))
		fail_msg("funclat_enable(%s): %s", list, err);
}

static enum cpu_idle_type idle_type_of(unsigned int cpu)
{
	return idle_cpu(cpu) ? CPU_IDLE : CPU_NOT_IDLE;
}

/* ========================================================================= */
/* 1. should_we_balance(): SWB_IDLE_CORE                                     */
/* ========================================================================= */

/*
 * smt2-2s-16: two sockets of four SMT2 cores; core k of socket 0 is
 * CPUs {k, k + 8}. The MC level's groups are single cores, so a group
 * with several cores, where an idle CPU on a busy core can come before an
 * idle core, is one level up: the NUMA level, whose local group for a
 * socket-0 CPU is socket 0, balance mask 0-3,8-11, walked in that order.
 */
static const unsigned int socket0[] = { 0, 1, 2, 3, 8, 9, 10, 11 };

static void make_busy(const unsigned int *cpus, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		tl_fork_running("busy", cpus[i]);
}

/*
 * Every CPU of socket 0 balances the NUMA level once; returns the bitmask
 * of those that got past should_we_balance(). Socket 1 is idle, so a CPU
 * that gets past finds no busiest group (lb_nobusyg); one that does not
 * only counts lb_balanced and clears continue_balancing.
 */
static unsigned int swb_numa_winners(void)
{
	unsigned int winners = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(socket0); i++) {
		unsigned int cpu = socket0[i];
		struct sched_domain *sd = tl_sd(cpu, "NUMA");
		enum cpu_idle_type idle = idle_type_of(cpu);
		unsigned int balanced = sd->lb_balanced[idle], nobusyg = sd->lb_nobusyg[idle];
		int cont;

		assert_int_equal(tl_balance(cpu, sd, idle, &cont), 0);
		assert_int_equal(sd->lb_count[idle], 1);
		assert_int_equal(sd->lb_balanced[idle], balanced + 1);
		if (cont) {
			winners |= 1U << cpu;
			assert_int_equal(sd->lb_nobusyg[idle], nobusyg + 1);
		} else {
			assert_int_equal(sd->lb_nobusyg[idle], nobusyg);
		}
	}
	return winners;
}

struct swb_case {
	const char *what;
	unsigned int busy[8];
	unsigned int nr_busy;
	unsigned int winner_idle_core;	/* the CPU that balances with SWB_IDLE_CORE */
	unsigned int winner_v65;	/* ... and with NO_SWB_IDLE_CORE */
};

static const struct swb_case swb_cases[] = {
	/*
	 * 0 idle on a busy core (8 busy), 1 busy, 2 idle on the idle core
	 * {2,10}: the idle core's CPU balances; the v6.5 rule takes the
	 * first idle CPU, 0, whose sibling is busy.
	 */
	{ "idle core after an idle SMT CPU", { 1, 3, 8, 11 }, 4, 2, 0 },
	/*
	 * every core has a busy CPU (0, 1, 10, 3): no idle core, so the
	 * first idle SMT CPU, 2, balances - and only it, not also the
	 * group's first CPU 0 (the 6d7e4782bcf5 fix of b1bfeab9b002).
	 */
	{ "no idle core: first idle SMT CPU", { 0, 1, 3, 10 }, 4, 2, 2 },
	/* the idle core comes first: both rules pick 1 */
	{ "idle core first", { 0, 2, 3, 11 }, 4, 1, 1 },
	/* nothing idle: the group's first CPU */
	{ "all busy", { 0, 1, 2, 3, 8, 9, 10, 11 }, 8, 0, 0 },
	/* everything idle: the first CPU, on an idle core */
	{ "all idle", { 0 }, 0, 0, 0 },
};

static void test_swb_idle_core_decides(void **state)
{
	(void)state;
	for (unsigned int c = 0; c < ARRAY_SIZE(swb_cases); c++) {
		const struct swb_case *sc = &swb_cases[c];

		for (int v = 0; v < 2; v++) {
			bool idle_core = v == 0;
			unsigned int winner = idle_core ? sc->winner_idle_core : sc->winner_v65;
			unsigned int winners;

			tl_setup("smt2-2s-16", TL_ZERO_COST, 0,
				 idle_core ? NULL : "NO_SWB_IDLE_CORE");
			/* the NUMA level's local group is socket 0, balance mask = span */
			assert_true(cpumask_equal(group_balance_mask(tl_sd(0, "NUMA")->groups),
						  machine.topo->package_mask[0]));
			make_busy(sc->busy, sc->nr_busy);
			winners = swb_numa_winners();
			if (winners != 1U << winner)
				fail_msg("%s, %s: CPUs 0x%x got past should_we_balance, "
					 "want only CPU%u", sc->what,
					 idle_core ? "SWB_IDLE_CORE" : "NO_SWB_IDLE_CORE", winners,
					 winner);
			tl_teardown();
		}
	}
}

/*
 * The same decision with something to pull: CPU 4 (socket 1) runs one
 * task and has five more queued. Socket 0 runs 4, socket 1 6, so
 * sibling_imbalance() = 6 - 4 = 2 and the NUMA pass moves one task
 * (migrate_task, 2 >> 1). With SWB_IDLE_CORE it lands on CPU 2, alone on
 * its core; with the v6.5 rule on CPU 0, next to the busy CPU 8. The CPU
 * that should not balance is asked first and pulls nothing.
 */
static void test_swb_idle_core_pulls_to_idle_core(void **state)
{
	static const unsigned int busy[] = { 1, 3, 8, 11 };

	(void)state;
	for (int v = 0; v < 2; v++) {
		bool idle_core = v == 0;
		unsigned int winner = idle_core ? 2 : 0, loser = idle_core ? 0 : 2;
		struct sched_domain *sdw, *sdl;
		int cont;

		tl_setup("smt2-2s-16", TL_ZERO_COST, 0, idle_core ? NULL : "NO_SWB_IDLE_CORE");
		make_busy(busy, ARRAY_SIZE(busy));
		tl_fork_running("src", 4);
		for (int i = 0; i < 5; i++)
			tl_fork("queued", 4);
		/* 2 ms on: the queued tasks are not cache hot (migration_cost 500 us) */
		tl_advance_all(2 * MSEC);
		sdw = tl_sd(winner, "NUMA");
		sdl = tl_sd(loser, "NUMA");

		assert_int_equal(tl_balance(loser, sdl, CPU_IDLE, &cont), 0);
		assert_int_equal(cont, 0);
		assert_int_equal(sdl->lb_balanced[CPU_IDLE], 1);
		assert_int_equal(cpu_rq(4)->nr_running, 6);

		assert_int_equal(tl_balance(winner, sdw, CPU_IDLE, &cont), 1);
		assert_int_equal(cont, 1);
		assert_int_equal(sdw->lb_gained[CPU_IDLE], 1);
		assert_int_equal(sdw->lb_imbalance_task[CPU_IDLE], 1);
		assert_int_equal(cpu_rq(winner)->nr_running, 1);
		assert_int_equal(cpu_rq(loser)->nr_running, 0);
		assert_int_equal(cpu_rq(4)->nr_running, 5);
		tl_check();
		tl_teardown();
	}
}

/* ========================================================================= */
/* 1b. should_we_balance(): SWB_SMT_SKIP, same decisions for less work       */
/* ========================================================================= */

/*
 * A model of the walk, to know what each variant must decide and charge:
 * visit the group's CPUs in ascending order, each visit costing
 * lb_cpu_visit; an idle CPU above the SMT level tests its siblings in
 * ascending order (lb_sibling_test each) until one is busy; a busy core's
 * idle CPU becomes idle_smt and, with SWB_SMT_SKIP, takes its siblings out
 * of the walk; an idle CPU on an idle core decides.
 */
struct swb_walk {
	unsigned int decision;
	unsigned int visits;
	unsigned int tests;
};

static struct swb_walk swb_model(const bool *idle, const struct cpumask *group, bool idle_core,
				 bool skip)
{
	struct swb_walk w = { .decision = UINT32_MAX };
	unsigned int cpu, sib;
	bool removed[256] = { false };
	int idle_smt = -1;

	for_each_cpu(cpu, group) {
		bool core_idle = true;

		if (removed[cpu])
			continue;
		w.visits++;
		if (!idle[cpu])
			continue;
		if (!idle_core) {
			w.decision = cpu;
			return w;
		}
		for_each_cpu(sib, topology_sibling_cpumask(machine.topo, cpu)) {
			if (sib == cpu)
				continue;
			w.tests++;
			if (!idle[sib]) {
				core_idle = false;
				break;
			}
		}
		if (core_idle) {
			w.decision = cpu;
			return w;
		}
		if (idle_smt < 0)
			idle_smt = (int)cpu;
		if (skip)
			for_each_cpu(sib, topology_sibling_cpumask(machine.topo, cpu))
				removed[sib] = true;
	}
	w.decision = idle_smt >= 0 ? (unsigned int)idle_smt : cpumask_first(group);
	return w;
}

static bool swb_core_idle(const bool *idle, unsigned int cpu)
{
	unsigned int sib;

	for_each_cpu(sib, topology_sibling_cpumask(machine.topo, cpu))
		if (!idle[sib])
			return false;
	return true;
}

static bool swb_group_has_idle_core(const bool *idle, const struct cpumask *group)
{
	unsigned int cpu;

	for_each_cpu(cpu, group)
		if (swb_core_idle(idle, cpu))
			return true;
	return false;
}

/* a core, not fully idle, with at least two idle CPUs in @group */
static bool swb_busy_core_with_idle_pair(const bool *idle, const struct cpumask *group)
{
	unsigned int cpu, sib;

	for_each_cpu(cpu, group) {
		unsigned int n = 0;

		if (swb_core_idle(idle, cpu))
			continue;
		for_each_cpu(sib, topology_sibling_cpumask(machine.topo, cpu))
			n += idle[sib] && cpumask_test_cpu(sib, group);
		if (n >= 2)
			return true;
	}
	return false;
}

/*
 * The rule itself, stated without a walk: the first idle CPU whose whole
 * core is idle; else the first idle CPU; else the group's first CPU.
 * v6.5: the first idle CPU, else the group's first CPU.
 */
static unsigned int swb_rule(const bool *idle, const struct cpumask *group, bool idle_core)
{
	unsigned int cpu;

	if (idle_core)
		for_each_cpu(cpu, group)
			if (swb_core_idle(idle, cpu))
				return cpu;
	for_each_cpu(cpu, group)
		if (idle[cpu])
			return cpu;
	return cpumask_first(group);
}

struct swb_stats {
	unsigned int calls;
	unsigned int cheaper;		/* SWB_SMT_SKIP strictly cheaper */
	unsigned int by_idle_smt;	/* decided by the idle_smt fallback */
};

/*
 * On the current state, should_we_balance() for every CPU of @group at
 * @sd_name, in three variants: SWB_IDLE_CORE with and without
 * SWB_SMT_SKIP, and the v6.5 rule. Each answer must match the rule, each
 * call must cost what the model says, and SWB_SMT_SKIP must be cheaper
 * exactly when the walk meets a busy core's idle CPU with siblings still
 * to come before the decision.
 */
static void swb_check_group(const struct cpumask *group, const char *sd_name,
			    struct swb_stats *st)
{
	const struct cost_model *cost = machine.cost;
	static const struct {
		const char *feats;
		bool idle_core, skip;
	} variants[] = {
		{ "SWB_IDLE_CORE,SWB_SMT_SKIP", true, true },
		{ "SWB_IDLE_CORE,NO_SWB_SMT_SKIP", true, false },
		{ "NO_SWB_IDLE_CORE,SWB_SMT_SKIP", false, true },
	};
	bool idle[256];
	unsigned int cpu;

	for (cpu = 0; cpu < machine.nr_cpus; cpu++)
		idle[cpu] = idle_cpu(cpu);
	for_each_cpu(cpu, group) {
		struct sched_domain *sd = tl_sd(cpu, sd_name);
		u64 ns[3];
		int answer[3];

		assert_true(cpumask_equal(group_balance_mask(sd->groups), group));
		for (unsigned int v = 0; v < ARRAY_SIZE(variants); v++) {
			struct swb_walk w = swb_model(idle, group, variants[v].idle_core,
						      variants[v].skip);
			u64 ns0 = funclat[FL_should_we_balance].total_ns;
			u64 calls0 = funclat[FL_should_we_balance].calls;
			unsigned int want = swb_rule(idle, group, variants[v].idle_core);
			int cont;

			feat_set(variants[v].feats);
			tl_balance(cpu, sd, idle[cpu] ? CPU_IDLE : CPU_NOT_IDLE, &cont);
			assert_int_equal(funclat[FL_should_we_balance].calls, calls0 + 1);
			ns[v] = funclat[FL_should_we_balance].total_ns - ns0;
			answer[v] = cont;
			assert_int_equal(w.decision, want);
			if (cont != (want == cpu))
				fail_msg("%s CPU%u (%s): should_we_balance %d, "
					 "want CPU%u to balance", sd_name, cpu, variants[v].feats,
					 cont, want);
			/* charged per CPU visited and per sibling tested, nothing else */
			assert_int_equal(ns[v], w.visits * cost->lb_cpu_visit +
							w.tests * cost->lb_sibling_test);
		}
		st->calls++;
		assert_int_equal(answer[0], answer[1]);
		{
			struct swb_walk ws = swb_model(idle, group, true, true);
			struct swb_walk wn = swb_model(idle, group, true, false);
			bool saves = ws.visits != wn.visits || ws.tests != wn.tests;

			assert_true(ns[0] <= ns[1]);
			/*
			 * Without the model: when the group has no idle core the
			 * walk goes to its end, and a busy core with two idle
			 * CPUs in the group has its second one dropped.
			 */
			if (!swb_group_has_idle_core(idle, group) &&
			    swb_busy_core_with_idle_pair(idle, group))
				assert_true(ns[0] < ns[1]);
			if (saves) {
				assert_true(ns[0] < ns[1]);
				st->cheaper++;
			} else {
				assert_int_equal(ns[0], ns[1]);
			}
		}
		{
			/* decided by the fallback: an idle CPU but no idle core */
			unsigned int d = swb_rule(idle, group, true);

			if (idle[d] && !swb_core_idle(idle, d))
				st->by_idle_smt++;
		}
	}
}

/*
 * power10-96, SMT4: LLC 0 is CPUs 0-7, cores {0,2,4,6} and {1,3,5,7}. At
 * the PKG level the local group is the LLC (two interleaved cores), at the
 * MC level the core. A worked case first: core 0 runs on CPU 6 only, core
 * 1 on CPU 1 only, so there is no idle core and CPU 0 (idle SMT, first)
 * balances. Without the skip the walk visits all 8 CPUs and tests 12
 * siblings (0: 2,4,6; 2: 0,4,6; 3: 1; 4: 0,2,6; 5: 1; 7: 1); with it,
 * CPU 0's idle siblings 2 and 4 and busy 6 are dropped after CPU 0 and
 * CPU 1's after CPU 3: 3 visits (0, 1, 3) and 4 tests.
 */
static void test_swb_smt_skip_worked_case(void **state)
{
	static const unsigned int busy[] = { 1, 6 };
	struct swb_stats st = { 0 };
	bool idle[96];

	(void)state;
	tl_setup("power10-96", TL_REAL_COST, 0, NULL);
	tl_no_line_costs();
	funclat_on("should_we_balance");
	make_busy(busy, ARRAY_SIZE(busy));
	for (unsigned int cpu = 0; cpu < 96; cpu++)
		idle[cpu] = idle_cpu(cpu);
	{
		const struct cpumask *llc = sched_domain_span(tl_sd(0, "MC"));
		struct swb_walk ws = swb_model(idle, llc, true, true);
		struct swb_walk wn = swb_model(idle, llc, true, false);

		assert_int_equal(ws.decision, 0);
		assert_int_equal(wn.decision, 0);
		assert_int_equal(wn.visits, 8);
		assert_int_equal(wn.tests, 12);
		assert_int_equal(ws.visits, 3);
		assert_int_equal(ws.tests, 4);
		swb_check_group(llc, "PKG", &st);
	}
	swb_check_group(topology_sibling_cpumask(machine.topo, 0), "MC", &st);
	swb_check_group(topology_sibling_cpumask(machine.topo, 1), "MC", &st);
	/* all 16 calls are cheaper with the skip: each walk meets a busy core's idle CPU first */
	assert_int_equal(st.calls, 16);
	assert_int_equal(st.cheaper, 16);
	funclat_reset();
	tl_teardown();
}

/*
 * Random busy/idle patterns over LLCs 0 and 1 of power10-96 (all others
 * idle), with busy probabilities from 1/8 to 7/8: for every CPU of the two
 * LLCs, at PKG (group = LLC) and MC (group = core), the answers of
 * SWB_SMT_SKIP and NO_SWB_SMT_SKIP are equal and right, and the skip
 * costs strictly less exactly when it drops a CPU the walk would have
 * visited. A fixed seed makes the patterns the same every run.
 */
static void test_swb_smt_skip_random(void **state)
{
	struct swb_stats st = { 0 };
	struct prng rng;

	(void)state;
	prng_init(&rng, 20230915, PRNG_STREAM_WORKLOAD);
	for (unsigned int pattern = 0; pattern < 28; pattern++) {
		unsigned int p8 = 1 + pattern % 7, nr[16];

		tl_setup("power10-96", TL_REAL_COST, 0, NULL);
		tl_no_line_costs();
		funclat_on("should_we_balance");
		for (unsigned int cpu = 0; cpu < 16; cpu++)
			if (prng_below(&rng, 8) < p8)
				tl_fork_running("busy", cpu);
		for (unsigned int cpu = 0; cpu < 16; cpu++)
			nr[cpu] = cpu_rq(cpu)->nr_running;
		for (unsigned int llc = 0; llc < 2; llc++) {
			unsigned int first = llc * 8;
			const struct topology *t = machine.topo;

			swb_check_group(sched_domain_span(tl_sd(first, "MC")), "PKG", &st);
			swb_check_group(topology_sibling_cpumask(t, first), "MC", &st);
			swb_check_group(topology_sibling_cpumask(t, first + 1), "MC", &st);
		}
		/* nobody moved: the answers were all taken on the same state */
		for (unsigned int cpu = 0; cpu < 16; cpu++)
			assert_int_equal(cpu_rq(cpu)->nr_running, nr[cpu]);
		funclat_reset();
		tl_teardown();
	}
	/* the patterns exercised both outcomes */
	assert_int_equal(st.calls, 28 * 32);
	assert_true(st.cheaper > st.calls / 8);
	assert_true(st.cheaper < st.calls);
	assert_true(st.by_idle_smt > st.calls / 8);
}

/* ========================================================================= */
/* 2. UTIL_RUNNABLE_BOOST: the busiest runqueue of a migrate_util pass        */
/* ========================================================================= */

struct boost_case {
	const char *preset, *level;
	unsigned int a, b;		/* the two candidate source CPUs */
	unsigned int others[6];		/* the rest of the busiest group: one task each */
};

static const struct boost_case boost_cases[] = {
	{ "smt2-2s-16", "NUMA", 4, 5, { 6, 7, 12, 13, 14, 15 } },
	{ "power10-96", "PKG", 8, 9, { 10, 11, 12, 13, 14, 15 } },
};

static void set_cfs_avg(unsigned int cpu, unsigned long util, unsigned long runnable)
{
	struct sched_avg *sa = &cpu_rq(cpu)->cfs.avg;

	sa->util_avg = util;
	sa->runnable_avg = runnable;
	sa->util_est = 0;
}

/*
 * CPU 0's group (socket 0 / LLC 0) is idle; the group of A and B
 * (socket 1 / LLC 1, 8 CPUs, capacity 8192) runs 10 tasks: A and B two
 * each (one running, one queued), six more CPUs one each. PELT, set by
 * hand after the last clock update (sched_balance_rq() reads it as is):
 * the six CPUs util 1000; A util 900, runnable 950; B util 700, runnable
 * 1020 (B's tasks wait more: contention); util_est 0 everywhere, so it
 * plays no part. Group util 7600: 8192 * 100 < 7600 * 117, so with
 * 10 > 8 tasks the group is overloaded; the local group has spare and
 * the level has no SD_SHARE_LLC, so the pass is
 * migrate_util with imbalance 8192 - 0. Only A and B have more than one
 * task. Boosted, B (max(700, 1020) = 1020) beats A (950); on util alone
 * A (900) beats B (700).
 */
static void test_util_runnable_boost(void **state)
{
	(void)state;
	for (unsigned int c = 0; c < ARRAY_SIZE(boost_cases); c++) {
		const struct boost_case *bc = &boost_cases[c];

		for (int v = 0; v < 2; v++) {
			bool boost = v == 0;
			struct task_struct *qa, *qb, *moved, *stay;
			unsigned int from, other;
			struct sched_domain *sd;
			int cont;

			tl_setup(bc->preset, TL_ZERO_COST, 0,
				 boost ? NULL : "NO_UTIL_RUNNABLE_BOOST");
			sd = tl_sd(0, bc->level);
			assert_false(sd->flags & SD_SHARE_LLC);
			tl_fork_running("a", bc->a);
			qa = tl_fork("a2", bc->a);
			tl_fork_running("b", bc->b);
			qb = tl_fork("b2", bc->b);
			for (unsigned int i = 0; i < ARRAY_SIZE(bc->others); i++)
				tl_fork_running("busy", bc->others[i]);
			tl_advance_all(2 * MSEC);
			for (unsigned int i = 0; i < ARRAY_SIZE(bc->others); i++)
				set_cfs_avg(bc->others[i], 1000, 1000);
			set_cfs_avg(bc->a, 900, 950);
			set_cfs_avg(bc->b, 700, 1020);
			assert_int_equal(cpu_util_cfs_boost(bc->a), boost ? 950 : 900);
			assert_int_equal(cpu_util_cfs_boost(bc->b), boost ? 1020 : 700);

			assert_int_equal(tl_balance(0, sd, CPU_IDLE, &cont), 1);
			assert_int_equal(sd->lb_imbalance_util[CPU_IDLE], 8192);
			from = boost ? bc->b : bc->a;
			other = boost ? bc->a : bc->b;
			moved = boost ? qb : qa;
			stay = boost ? qa : qb;
			assert_int_equal(task_cpu(moved), 0);
			assert_int_equal(task_cpu(stay), other);
			assert_int_equal(cpu_rq(from)->nr_running, 1);
			assert_int_equal(cpu_rq(other)->nr_running, 2);
			assert_int_equal(cpu_rq(0)->nr_running, 1);
			tl_check();
			tl_teardown();
		}
	}
}

/* ========================================================================= */
/* 3-6. sched_balance_newidle(): NEWIDLE_COST and the other variants          */
/* ========================================================================= */

/*
 * The newidle tests run on smt2-2s-16 from CPU 0, whose domains are SMT
 * {0,8}, MC {0-3,8-11} (socket 0) and NUMA (everything). The root domain's
 * overload flag is set by hand before each call: the NUMA level's pass,
 * being at the root, rewrites it from what it sees.
 */
static struct sched_domain *ni_smt, *ni_mc, *ni_numa;

static void newidle_setup(bool zero_cost, const char *features)
{
	tl_setup("smt2-2s-16", zero_cost, 0, features);
	ni_smt = tl_sd(0, "SMT");
	ni_mc = tl_sd(0, "MC");
	ni_numa = tl_sd(0, "NUMA");
}

static void set_max_costs(u64 smt, u64 mc, u64 numa)
{
	ni_smt->max_newidle_lb_cost = smt;
	ni_mc->max_newidle_lb_cost = mc;
	ni_numa->max_newidle_lb_cost = numa;
}

/* newidle passes counted at each level of CPU 0 */
struct ni_counts {
	unsigned int smt, mc, numa;
};

static struct ni_counts ni_counts(void)
{
	return (struct ni_counts){ ni_smt->lb_count[CPU_NEWLY_IDLE],
				   ni_mc->lb_count[CPU_NEWLY_IDLE],
				   ni_numa->lb_count[CPU_NEWLY_IDLE] };
}

static int newidle0(void)
{
	cpu_rd(0)->overloaded = true;
	return tl_newidle(0);
}

static void assert_ni_delta(struct ni_counts before, unsigned int smt, unsigned int mc,
			    unsigned int numa)
{
	struct ni_counts now = ni_counts();

	assert_int_equal(now.smt - before.smt, smt);
	assert_int_equal(now.mc - before.mc, mc);
	assert_int_equal(now.numa - before.numa, numa);
}

/*
 * CPU 4 (other socket) runs a task and has three queued: pullable only at
 * the NUMA level, and enough of them that the NUMA imbalance is not
 * tolerated (4 tasks against 0: sibling_imbalance 4, above
 * NUMA_IMBALANCE_MIN; with 2 the kernel would leave them). 2 ms on, they
 * are not cache hot. Maxima: SMT and MC 20 us, NUMA 300 us. With
 * TL_ZERO_COST kernel paths cost nothing, so each level's measured cost
 * is 0 and only the maxima count.
 */
static void remote_pullable_setup(bool zero_cost, const char *features)
{
	newidle_setup(zero_cost, features);
	tl_fork_running("src", 4);
	for (int i = 0; i < 3; i++)
		tl_fork("queued", 4);
	tl_advance_all(2 * MSEC);
	set_max_costs(20 * USEC, 20 * USEC, 300 * USEC);
}

/* newidle pulled one of CPU 4's queued tasks to CPU 0, or nothing moved */
static void assert_pulled(bool pulled)
{
	assert_int_equal(cpu_rq(0)->nr_running, pulled);
	assert_int_equal(cpu_rq(4)->nr_running, pulled ? 3 : 4);
}

/*
 * NEWIDLE_COST: avg_idle 10 us is below the lowest level's 20 us max cost,
 * so the CPU expects to be woken before a balance could finish: no pass
 * at any level. Without the feature it balances all the way up and pulls
 * one of CPU 4's queued tasks at NUMA.
 */
static void test_newidle_cost_bailout(void **state)
{
	struct ni_counts c;

	(void)state;
	remote_pullable_setup(TL_ZERO_COST, NULL);
	cpu_rq(0)->avg_idle = 10 * USEC;
	c = ni_counts();
	assert_int_equal(newidle0(), 0);
	assert_ni_delta(c, 0, 0, 0);
	assert_pulled(false);
	/* idle time is stamped even when it does not balance */
	assert_int_equal(cpu_rq(0)->idle_stamp, cpu_rq(0)->clock);
	tl_teardown();

	remote_pullable_setup(TL_ZERO_COST, "NO_NEWIDLE_COST");
	cpu_rq(0)->avg_idle = 10 * USEC;
	c = ni_counts();
	assert_int_equal(newidle0(), 1);
	assert_ni_delta(c, 1, 1, 1);
	assert_pulled(true);
	assert_int_equal(ni_numa->lb_gained[CPU_NEWLY_IDLE], 1);
	/* it found work: not idle after all */
	assert_int_equal(cpu_rq(0)->idle_stamp, 0);
	tl_check();
	tl_teardown();

	/*
	 * The bail-out happens before the rq lock is dropped and the blocked
	 * averages are updated: with real costs the call takes no time at
	 * all, while a call that balances (100 us: SMT and MC) does.
	 */
	remote_pullable_setup(TL_REAL_COST, NULL);
	funclat_on("sched_balance_newidle");
	cpu_rq(0)->avg_idle = 10 * USEC;
	assert_int_equal(newidle0(), 0);
	assert_int_equal(funclat[FL_sched_balance_newidle].calls, 1);
	assert_int_equal(funclat[FL_sched_balance_newidle].total_ns, 0);
	cpu_rq(0)->avg_idle = 100 * USEC;
	c = ni_counts();
	assert_int_equal(newidle0(), 0);
	assert_ni_delta(c, 1, 1, 0);
	assert_true(funclat[FL_sched_balance_newidle].total_ns > 0);
	funclat_reset();
	tl_teardown();
}

/*
 * The per-level break: avg_idle 100 us covers SMT and MC (20 us each, at
 * cost 0 so far) but not NUMA (300 us): two passes, no pull. Neither
 * pass pulled, so v6.18 records 3/2 of their max, 30 us, although they
 * cost nothing (155213a2aed4). 400 us still covers SMT and MC and reaches
 * NUMA, which pulls.
 */
static void test_newidle_cost_per_level_break(void **state)
{
	struct ni_counts c;

	(void)state;
	remote_pullable_setup(TL_ZERO_COST, NULL);
	cpu_rq(0)->avg_idle = 100 * USEC;
	c = ni_counts();
	assert_int_equal(newidle0(), 0);
	assert_ni_delta(c, 1, 1, 0);
	assert_pulled(false);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 30 * USEC);
	assert_int_equal(ni_mc->max_newidle_lb_cost, 30 * USEC);
	assert_int_equal(ni_numa->max_newidle_lb_cost, 300 * USEC);

	cpu_rq(0)->avg_idle = 400 * USEC;
	c = ni_counts();
	assert_int_equal(newidle0(), 1);
	assert_ni_delta(c, 1, 1, 1);
	assert_pulled(true);
	tl_teardown();

	/* without NEWIDLE_COST, 100 us reaches NUMA just the same */
	remote_pullable_setup(TL_ZERO_COST, "NO_NEWIDLE_COST");
	cpu_rq(0)->avg_idle = 100 * USEC;
	c = ni_counts();
	assert_int_equal(newidle0(), 1);
	assert_ni_delta(c, 1, 1, 1);
	assert_pulled(true);
	tl_teardown();
}

/*
 * With real costs the break counts what the lower levels already spent:
 * maxima SMT 0, MC 0, NUMA 300 us and avg_idle 300 us + 1 ns. SMT and MC
 * run (their max is 0), cost something and pull nothing, so at NUMA
 * avg_idle < curr_cost + 300 us and it stops.
 *
 * v6.18 (155213a2aed4): curr_cost adds each level's measured cost, but
 * update_newidle_cost() gets 3/2 of the level's max when the level pulled
 * nothing, 0 here: the maxima of SMT and MC stay 0 and keep their stamp.
 * rq->max_idle_balance_cost keeps the largest curr_cost; zeroed by hand
 * before the call (its floor is migration_cost otherwise), it shows this
 * call's curr_cost: at least the time spent in sched_balance_rq(), at
 * most the whole newidle call. Had curr_cost added the bumped costs (0),
 * NUMA would have run.
 */
static void test_newidle_cost_accumulates_and_tracks_max(void **state)
{
	struct ni_counts c;
	u64 rq_ns, ni_ns, curr;
	unsigned long now;

	(void)state;
	remote_pullable_setup(TL_REAL_COST, NULL);
	tl_cpu(0);
	tl_advance(8 * MSEC);
	tl_cpu(0);
	now = jiffies;
	assert_true(now > 0);
	set_max_costs(0, 0, 300 * USEC);
	funclat_on("sched_balance_rq,sched_balance_newidle");
	cpu_rq(0)->avg_idle = 300 * USEC + 1;
	cpu_rq(0)->max_idle_balance_cost = 0;
	c = ni_counts();
	assert_int_equal(newidle0(), 0);
	assert_ni_delta(c, 1, 1, 0);
	assert_pulled(false);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 0);
	assert_int_equal(ni_mc->max_newidle_lb_cost, 0);
	assert_int_equal(ni_numa->max_newidle_lb_cost, 300 * USEC);
	/* sd_init()'s stamp (jiffy 0): a max left at 0 is not restamped */
	assert_int_equal(ni_smt->last_decay_max_lb_cost, 0);
	assert_int_equal(ni_mc->last_decay_max_lb_cost, 0);
	rq_ns = funclat[FL_sched_balance_rq].total_ns;
	ni_ns = funclat[FL_sched_balance_newidle].total_ns;
	curr = cpu_rq(0)->max_idle_balance_cost;
	assert_int_equal(funclat[FL_sched_balance_rq].calls, 2);
	assert_true(rq_ns > 0);
	assert_true(curr >= rq_ns);
	assert_true(curr <= ni_ns);
	/* the whole pass cost far less than migration_cost */
	assert_true(curr < 500 * USEC);

	/*
	 * Enough idle time for all three: NUMA runs and pulls. SMT and MC fail
	 * again (still 0); NUMA records its measured cost only above its
	 * 300 us max, and this pass cost less.
	 */
	cpu_rq(0)->avg_idle = 2 * MSEC;
	c = ni_counts();
	assert_int_equal(newidle0(), 1);
	assert_ni_delta(c, 1, 1, 1);
	assert_pulled(true);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 0);
	assert_int_equal(ni_mc->max_newidle_lb_cost, 0);
	assert_int_equal(ni_numa->max_newidle_lb_cost, 300 * USEC);
	assert_int_equal(ni_numa->last_decay_max_lb_cost, 0);
	funclat_reset();
	tl_teardown();
}

/*
 * Newidle from CPU 0 with only its SMT level balancing: avg_idle 10 ms,
 * the MC and NUMA maxima 1 s, so NEWIDLE_COST stops the walk at MC, before
 * MC's NI_RANDOM draw. Real costs, 10 ms on; the SMT max is @smt_max with
 * sd_init()'s stamp, jiffy 0. newidle0_smt() then makes one call and
 * returns its curr_cost, i.e. what the SMT pass measured (read from
 * rq->max_idle_balance_cost, zeroed before the call: it keeps the largest
 * curr_cost). With @pullable, CPU 8 (CPU 0's sibling) runs a task and has
 * one queued, which the SMT pass pulls.
 */
static void smt_only_setup(const char *features, u64 smt_max, bool pullable)
{
	newidle_setup(TL_REAL_COST, features);
	/* the pass's own compute: its lines are cold in a fresh machine */
	tl_no_line_costs();
	if (pullable) {
		tl_fork_running("src", 8);
		tl_fork("queued", 8);
	}
	tl_cpu(0);
	tl_advance(10 * MSEC);
	assert_true(jiffies > 0);
	set_max_costs(smt_max, 1 * NSEC_PER_SEC, 1 * NSEC_PER_SEC);
	assert_int_equal(ni_smt->last_decay_max_lb_cost, 0);
}

static u64 newidle0_smt(int pulled)
{
	struct ni_counts c = ni_counts();
	u64 curr;

	cpu_rq(0)->avg_idle = 10 * MSEC;
	cpu_rq(0)->max_idle_balance_cost = 0;
	assert_int_equal(newidle0(), pulled);
	assert_ni_delta(c, 1, 0, 0);
	curr = cpu_rq(0)->max_idle_balance_cost;
	assert_true(curr > 0);
	/* the levels that did not run keep their maxima */
	assert_int_equal(ni_mc->max_newidle_lb_cost, 1 * NSEC_PER_SEC);
	assert_int_equal(ni_numa->max_newidle_lb_cost, 1 * NSEC_PER_SEC);
	return curr;
}

/*
 * v6.18's bump and cap (155213a2aed4, "sched/fair: Bump
 * sd->max_newidle_lb_cost when newidle balance fails"): a level whose
 * pass pulls nothing hands update_newidle_cost() 3/2 of its max instead
 * of what the pass cost ("Failing newidle means it is not effective; bump
 * the cost so we end up doing less of it"), and update_newidle_cost()
 * caps a new max at sysctl_sched_migration_cost + 200 ns. A pass that
 * pulls records its measured cost, capped alike. An SMT pass costs a few
 * hundred ns here (well below 1000 ns when it fails).
 */
static void test_newidle_cost_bump_and_cap(void **state)
{
	const u64 cap = 500 * USEC + 200;
	u64 curr, max;
	bool capped = false;

	(void)state;
	/* a failing pass with max 1000 ns records 1500, not what it cost; restamped */
	smt_only_setup(NULL, 1000, false);
	curr = newidle0_smt(0);
	assert_true(curr < 1000);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 1500);
	assert_int_equal(ni_smt->last_decay_max_lb_cost, jiffies);

	/*
	 * Every further failure compounds it, 3/2 at a time (2250, 3375, ...),
	 * until the cap, 500200 ns with the default migration_cost, where it
	 * stays: without NI_RANDOM a max never exceeds migration_cost + 200.
	 */
	max = 1500;
	for (int i = 0; i < 30; i++) {
		newidle0_smt(0);
		max = min(3 * max / 2, cap);
		assert_int_equal(ni_smt->max_newidle_lb_cost, max);
		assert_true(ni_smt->max_newidle_lb_cost <= sysctl_sched.migration_cost_ns + 200);
		assert_int_equal(ni_smt->last_decay_max_lb_cost, jiffies);
		capped |= max == cap;
	}
	assert_true(capped);
	assert_int_equal(ni_smt->max_newidle_lb_cost, cap);
	tl_teardown();

	/* 3/2 of a max of 0 is 0: a failing level whose max is 0 stays at 0, unstamped */
	smt_only_setup(NULL, 0, false);
	newidle0_smt(0);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 0);
	assert_int_equal(ni_smt->last_decay_max_lb_cost, 0);
	tl_teardown();

	/* the cap follows the sysctl: 90 us fails to min(135 us, 100 us + 200 ns) */
	smt_only_setup(NULL, 90 * USEC, false);
	sysctl_set("migration_cost_ns=100000");
	newidle0_smt(0);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 100 * USEC + 200);
	tl_teardown();

	/* a pass that pulls records what it cost, restamped */
	smt_only_setup(NULL, 0, true);
	curr = newidle0_smt(1);
	assert_int_equal(ni_smt->max_newidle_lb_cost, curr);
	assert_int_equal(ni_smt->last_decay_max_lb_cost, jiffies);
	tl_teardown();

	/* ... capped: with migration_cost 500 ns the cap, 700 ns, is below its cost */
	smt_only_setup(NULL, 0, true);
	sysctl_set("migration_cost_ns=500");
	curr = newidle0_smt(1);
	assert_true(curr > 700);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 700);
	tl_teardown();
}

/*
 * update_newidle_cost()'s decay through newidle passes: a max that the
 * pass's cost does not raise, last set or decayed more than a second
 * ago, is taken down by 3/256 and restamped.
 *
 * v6.19 (NI_RANDOM; d206fbad9328 reverted v6.18's bump): maxima of 1 ms
 * (more than any pass here costs, and above v6.18's cap) stamped at the
 * current jiffy stay while less than a second passes; 1.5 s later the
 * next pass takes them down once (1000000 * 253 / 256 = 988281) and
 * restamps, so an immediate second pass leaves them. Ratio 1023 at every
 * level: the draw never skips one. Nothing is pullable.
 */
static void test_newidle_cost_decay(void **state)
{
	const u64 decayed = 1 * MSEC * 253 / 256, cap = 500 * USEC + 200;
	struct sched_domain *sds[3];
	unsigned long now;

	(void)state;
	newidle_setup(TL_REAL_COST, "NI_RANDOM");
	sds[0] = ni_smt, sds[1] = ni_mc, sds[2] = ni_numa;
	tl_cpu(0);
	tl_advance(10 * MSEC);
	now = jiffies;
	for (int i = 0; i < 3; i++) {
		sds[i]->newidle_ratio = 1023;
		sds[i]->max_newidle_lb_cost = 1 * MSEC;
		sds[i]->last_decay_max_lb_cost = now;
	}
	cpu_rq(0)->avg_idle = 10 * MSEC;
	assert_int_equal(newidle0(), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sds[i]->lb_count[CPU_NEWLY_IDLE], 1);
		assert_int_equal(sds[i]->max_newidle_lb_cost, 1 * MSEC);
		assert_int_equal(sds[i]->last_decay_max_lb_cost, now);
	}

	tl_cpu(0);
	tl_advance(1500 * MSEC);
	now = jiffies;
	assert_true(now > sds[0]->last_decay_max_lb_cost + sysctl_sched.hz);
	assert_int_equal(newidle0(), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sds[i]->lb_count[CPU_NEWLY_IDLE], 2);
		assert_int_equal(sds[i]->max_newidle_lb_cost, decayed);
		assert_int_equal(sds[i]->last_decay_max_lb_cost, now);
	}
	assert_int_equal(newidle0(), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(sds[i]->max_newidle_lb_cost, decayed);
	tl_teardown();

	/*
	 * v6.18, the same failing passes: each hands update_newidle_cost() 3/2
	 * of the max (155213a2aed4), always above it, so the max is set, not
	 * decayed. The first pass takes the 1 ms maxima to the cap,
	 * migration_cost + 200 ns, restamped; 1.5 s later the bump (750300 ns)
	 * exceeds the cap again: the maxima stay there and are restamped.
	 */
	newidle_setup(TL_REAL_COST, NULL);
	sds[0] = ni_smt, sds[1] = ni_mc, sds[2] = ni_numa;
	tl_cpu(0);
	tl_advance(10 * MSEC);
	now = jiffies;
	for (int i = 0; i < 3; i++) {
		sds[i]->max_newidle_lb_cost = 1 * MSEC;
		sds[i]->last_decay_max_lb_cost = 0;
	}
	cpu_rq(0)->avg_idle = 10 * MSEC;
	assert_int_equal(newidle0(), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sds[i]->lb_count[CPU_NEWLY_IDLE], 1);
		assert_int_equal(sds[i]->max_newidle_lb_cost, cap);
		assert_int_equal(sds[i]->last_decay_max_lb_cost, now);
	}
	tl_cpu(0);
	tl_advance(1500 * MSEC);
	now = jiffies;
	assert_true(now > sds[0]->last_decay_max_lb_cost + sysctl_sched.hz);
	assert_int_equal(newidle0(), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sds[i]->max_newidle_lb_cost, cap);
		assert_int_equal(sds[i]->last_decay_max_lb_cost, now);
	}
	tl_teardown();

	/*
	 * v6.18: what decays in newidle is the max of a level that pulls at
	 * less than its max. SMT max 400 us, pulling from CPU 8: within a
	 * second it stays with its stamp; 1.5 s later it becomes
	 * 400000 * 253 / 256 = 395312 and is restamped.
	 */
	for (int late = 0; late < 2; late++) {
		smt_only_setup(NULL, 400 * USEC, true);
		now = jiffies;
		ni_smt->last_decay_max_lb_cost = now;
		if (late) {
			tl_cpu(0);
			tl_advance(1500 * MSEC);
			assert_true(jiffies > now + sysctl_sched.hz);
		}
		newidle0_smt(1);
		assert_int_equal(ni_smt->max_newidle_lb_cost,
				 late ? 400 * USEC * 253 / 256 : 400 * USEC);
		assert_int_equal(ni_smt->last_decay_max_lb_cost, late ? jiffies : now);
		tl_teardown();
	}
}

/*
 * The periodic path decays the maxima too: sched_balance_domains() calls
 * update_newidle_cost(sd, 0) (v6.19: (sd, 0, 0), which, its cost being 0,
 * counts no NI_RANDOM call) on every level of the CPU it balances, and
 * on a decaying visit sets rq->max_idle_balance_cost to the maxima's sum
 * (at least migration_cost). A hog on CPU 1 keeps the tick and its
 * periodic balancing going; CPU 1's maxima start at 10, 20 and 40 ms,
 * stamped at jiffy 0. By 1.5 s each has decayed once (the first visit
 * after jiffy 250; the next one is due after jiffy 500), by 2.5 s twice.
 */
static void test_newidle_cost_decays_periodically(void **state)
{
	static const u64 start[3] = { 10 * MSEC, 20 * MSEC, 40 * MSEC };
	struct sched_domain *sds[3];

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	sds[0] = tl_sd(1, "SMT"), sds[1] = tl_sd(1, "MC"), sds[2] = tl_sd(1, "NUMA");
	for (int i = 0; i < 3; i++) {
		sds[i]->max_newidle_lb_cost = start[i];
		sds[i]->last_decay_max_lb_cost = 0;
	}
	tl_work_task("hog", &tl_busy_prog, 1);

	tl_run_until(1500 * MSEC, false);
	{
		u64 sum = 0;

		for (int i = 0; i < 3; i++) {
			u64 once = start[i] * 253 / 256;

			assert_int_equal(sds[i]->max_newidle_lb_cost, once);
			assert_true(sds[i]->last_decay_max_lb_cost > sysctl_sched.hz);
			assert_true(sds[i]->last_decay_max_lb_cost <= 2 * sysctl_sched.hz);
			sum += once;
		}
		assert_int_equal(cpu_rq(1)->max_idle_balance_cost, sum);
	}
	tl_run_until(2500 * MSEC, false);
	for (int i = 0; i < 3; i++)
		assert_int_equal(sds[i]->max_newidle_lb_cost, start[i] * 253 / 256 * 253 / 256);
	tl_teardown();
}

/*
 * NEWIDLE_MIGRATION_COST_BAILOUT (v3.13..v5.15): CPU 8, CPU 0's SMT
 * sibling, runs a task and has one queued (never hot at the SMT level);
 * maxima 50 us; avg_idle 300 us, above every max but below migration_cost
 * (500 us). Off (v6.18) the SMT pass pulls the task; on, newidle gives up
 * before any pass. Above migration_cost (600 us) it balances either way.
 */
static void test_newidle_migration_cost_bailout(void **state)
{
	(void)state;
	for (int v = 0; v < 3; v++) {
		bool bailout = v > 0;
		u64 avg_idle = v == 2 ? 600 * USEC : 300 * USEC;
		bool pulls = !bailout || avg_idle >= 500 * USEC;
		struct task_struct *q;
		struct ni_counts c;

		newidle_setup(TL_ZERO_COST, bailout ? "NEWIDLE_MIGRATION_COST_BAILOUT" : NULL);
		tl_fork_running("src", 8);
		q = tl_fork("queued", 8);
		set_max_costs(50 * USEC, 50 * USEC, 50 * USEC);
		cpu_rq(0)->avg_idle = avg_idle;
		c = ni_counts();
		assert_int_equal(newidle0(), pulls);
		assert_ni_delta(c, pulls, 0, 0);
		assert_int_equal(task_cpu(q), pulls ? 0 : 8);
		tl_teardown();
	}
}

/*
 * AVG_IDLE_AVG_FIRST (abfafa54db9a, v3.13): CPU 0's avg_idle is 100 us and
 * a wakeup ends a 2 ms idle period. On, the period is averaged in (100 +
 * (2000 - 100) / 8 = 337.5 us, under migration_cost's 500 us, so v3.10's
 * bail-out then skips newidle balance and the queued task on CPU 8 stays);
 * off (v3.12 and before) a period over twice migration_cost sets avg_idle
 * to that cap, 1 ms, and the next newidle balance pulls. A 200 us period,
 * under the cap, is averaged in either way (112.5 us).
 */
static void test_avg_idle_avg_first(void **state)
{
	(void)state;
	for (int v = 0; v < 2; v++) {
		bool first = v == 0;
		struct rq *rq;
		struct task_struct *q;

		newidle_setup(TL_ZERO_COST,
			      first ? "NO_NEWIDLE_COST,NEWIDLE_MIGRATION_COST_BAILOUT"
				    : "NO_NEWIDLE_COST,NEWIDLE_MIGRATION_COST_BAILOUT,NO_AVG_IDLE_AVG_FIRST");
		rq = cpu_rq(0);
		tl_fork_running("src", 8);
		q = tl_fork("queued", 8);

		rq->clock = 10 * MSEC;
		rq->avg_idle = 100 * USEC;
		rq->idle_stamp = rq->clock - 200 * USEC;
		update_rq_avg_idle(rq);
		assert_int_equal(rq->avg_idle, 112500);
		assert_int_equal(rq->idle_stamp, 0);

		rq->avg_idle = 100 * USEC;
		rq->idle_stamp = rq->clock - 2 * MSEC;
		update_rq_avg_idle(rq);
		assert_int_equal(rq->avg_idle, first ? 337500 : 1 * MSEC);
		assert_int_equal(newidle0(), !first);
		assert_int_equal(task_cpu(q), first ? 8 : 0);
		tl_teardown();
	}
}

/*
 * NEWIDLE_OVERLOAD_CHECK (v3.17): CPU 8 runs one task and nothing is queued
 * anywhere, so the root domain is not overloaded. On (v6.18), CPU 0 going
 * idle gives up before any pass; off (v3.16 and before), it walks SMT, MC
 * and NUMA (nothing to pull, NO_NEWIDLE_COST: no limit stops the climb).
 * An overloaded root domain is walked either way.
 */
static void test_newidle_overload_check(void **state)
{
	(void)state;
	for (int v = 0; v < 3; v++) {
		bool check = v != 1, overloaded = v == 2;
		unsigned int passes = !check || overloaded;
		struct ni_counts c;

		newidle_setup(TL_ZERO_COST, check ? "NO_NEWIDLE_COST"
						  : "NO_NEWIDLE_COST,NO_NEWIDLE_OVERLOAD_CHECK");
		tl_fork_running("src", 8);
		c = ni_counts();
		cpu_rd(0)->overloaded = overloaded;
		assert_int_equal(tl_newidle(0), 0);
		assert_ni_delta(c, passes, passes, passes);
		tl_teardown();
	}
}

/*
 * NEWIDLE_RATE_LIMIT (the 2013 RFC), limit 1 ms: the average interval
 * between attempts starts at the limit and moves by (delta - avg) / 8 per
 * attempt; an attempt balances only while the average is not below the
 * limit. Nothing is pullable, so each balancing attempt is one SMT pass.
 * The model below is that rule; the schedule: one attempt, six 100 us
 * apart (the average falls below 1 ms at once: 1 ms - 900/8 us), then
 * eight 5 ms apart (it climbs back over 1 ms and balancing resumes).
 * Off, every attempt balances and no interval is kept.
 */
static void test_newidle_rate_limit(void **state)
{
	static u64 gaps[15];
	const u64 limit = 1 * MSEC;

	(void)state;
	gaps[0] = 1 * MSEC;
	for (int i = 1; i < 7; i++)
		gaps[i] = 100 * USEC;
	for (int i = 7; i < 15; i++)
		gaps[i] = 5 * MSEC;
	for (int v = 0; v < 2; v++) {
		bool on = v == 0;
		s64 avg = 0;
		u64 last = 0;
		unsigned int balanced = 0, skipped_quick = 0, resumed = 0;

		newidle_setup(TL_ZERO_COST, on ? "NEWIDLE_RATE_LIMIT" : NULL);
		sysctl_set("sched_idle_balance_limit_ns=1000000");
		for (unsigned int i = 0; i < ARRAY_SIZE(gaps); i++) {
			struct ni_counts c;
			bool want;
			u64 now;

			tl_cpu(0);
			tl_advance(gaps[i]);
			now = cpu_now();
			if (last)
				avg += ((s64)(now - last) - avg) / 8;
			else
				avg = (s64)limit;
			last = now;
			want = !on || avg >= (s64)limit;
			c = ni_counts();
			assert_int_equal(newidle0(), 0);
			assert_ni_delta(c, want, want, want);
			if (on)
				assert_int_equal(cpu_rq(0)->avg_idle_balance_interval, (u64)avg);
			balanced += want;
			if (i >= 1 && i < 7)
				skipped_quick += !want;
			if (i >= 7)
				resumed += want;
		}
		if (on) {
			/* quick attempts stop balancing, spaced-out ones bring it back */
			assert_int_equal(skipped_quick, 6);
			assert_true(resumed >= 4);
			assert_int_equal(ni_smt->lb_count[CPU_NEWLY_IDLE], balanced);
		} else {
			assert_int_equal(balanced, ARRAY_SIZE(gaps));
			assert_int_equal(cpu_rq(0)->last_idle_balance, 0);
		}
		tl_teardown();
	}

	/* always spaced out (2 ms > 1 ms): every attempt balances */
	newidle_setup(TL_ZERO_COST, "NEWIDLE_RATE_LIMIT");
	sysctl_set("sched_idle_balance_limit_ns=1000000");
	for (int i = 0; i < 10; i++) {
		tl_cpu(0);
		tl_advance(2 * MSEC);
		assert_int_equal(newidle0(), 0);
	}
	assert_int_equal(ni_smt->lb_count[CPU_NEWLY_IDLE], 10);
	assert_true(cpu_rq(0)->avg_idle_balance_interval >= 1 * MSEC);
	tl_teardown();

	/*
	 * Every attempt counts, as balance_periodic.c models the RFC, whatever
	 * else makes it bail out, and the first one is told by
	 * rq->idle_balance_seen, not by a zero last_idle_balance: attempt A at
	 * clock 0 balances and starts the average at the limit; B, 100 us later
	 * with the root domain not overloaded, bails out for that but still
	 * moves it to 1 ms + (100 us - 1 ms) / 8 = 887500 ns; C, 100 us after B,
	 * is skipped at 887500 + (100 us - 887500) / 8 = 789063 ns (the
	 * division truncating toward zero, like the model's s64 arithmetic).
	 */
	newidle_setup(TL_ZERO_COST, "NEWIDLE_RATE_LIMIT");
	sysctl_set("sched_idle_balance_limit_ns=1000000");
	tl_cpu(0);
	assert_int_equal(cpu_now(), 0);
	{
		struct ni_counts c = ni_counts();

		assert_int_equal(newidle0(), 0);
		assert_ni_delta(c, 1, 1, 1);
		assert_true(cpu_rq(0)->idle_balance_seen);
		assert_int_equal(cpu_rq(0)->last_idle_balance, 0);
		assert_int_equal(cpu_rq(0)->avg_idle_balance_interval, limit);

		tl_cpu(0);
		tl_advance(100 * USEC);
		cpu_rd(0)->overloaded = false;
		c = ni_counts();
		assert_int_equal(tl_newidle(0), 0);
		assert_ni_delta(c, 0, 0, 0);
		assert_int_equal(cpu_rq(0)->last_idle_balance, 100 * USEC);
		assert_int_equal(cpu_rq(0)->avg_idle_balance_interval, 887500);

		tl_cpu(0);
		tl_advance(100 * USEC);
		c = ni_counts();
		assert_int_equal(newidle0(), 0);
		assert_ni_delta(c, 0, 0, 0);
		assert_int_equal(cpu_rq(0)->last_idle_balance, 200 * USEC);
		assert_int_equal(cpu_rq(0)->avg_idle_balance_interval, 789063);
	}
	tl_teardown();
}

/*
 * NI_RANDOM (v6.19, 33cf66d88306 "sched/fair: Proportional newidle
 * balance"): a level is skipped when a draw in [0, 1024) exceeds
 * 1 + newidle_ratio, i.e. with probability (1022 - ratio) / 1024. Ratios
 * set by hand: SMT 1023 (never skipped), MC 256 (runs 258/1024 = 25.2% of
 * the time), NUMA 0 (2/1024). Nothing is pullable. The draws come from the
 * kernel's PRNG stream with the fixed seed 1: deterministic, and the
 * bounds are more than 5 standard deviations wide.
 *
 * The call counters start at 0. A skipped level counts a call
 * (update_newidle_stats(sd, 0)); a level that runs counts one in
 * update_newidle_cost() only when the pass's measured cost is not 0
 * (`if (cost)`), and with TL_ZERO_COST it is 0: exactly the skips are
 * counted, none succeeded, and no level reaches 1024 calls, so the ratios
 * stay as set. (test_ni_random_call_per_attempt counts with real costs.)
 */
static void test_ni_random_skips(void **state)
{
	const unsigned int n = 1000;
	struct ni_counts c;

	(void)state;
	newidle_setup(TL_ZERO_COST, "NI_RANDOM");
	ni_smt->newidle_ratio = 1023;
	ni_mc->newidle_ratio = 256;
	ni_numa->newidle_ratio = 0;
	ni_smt->newidle_call = ni_mc->newidle_call = ni_numa->newidle_call = 0;
	ni_smt->newidle_success = ni_mc->newidle_success = ni_numa->newidle_success = 0;
	c = ni_counts();
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(newidle0(), 0);
	{
		struct ni_counts now = ni_counts();
		unsigned int mc = now.mc - c.mc, numa = now.numa - c.numa;

		/* mean 252, sd 13.7 */
		assert_int_equal(now.smt - c.smt, n);
		assert_in_range(mc, 252 - 70, 252 + 70);
		/* mean 2, sd 1.4 */
		assert_in_range(numa, 0, 12);
		/* the skips, and only they, counted a call */
		assert_int_equal(ni_smt->newidle_call, 0);
		assert_int_equal(ni_mc->newidle_call, n - mc);
		assert_int_equal(ni_numa->newidle_call, n - numa);
		assert_int_equal(ni_smt->newidle_success + ni_mc->newidle_success +
					 ni_numa->newidle_success, 0);
		assert_int_equal(ni_smt->newidle_ratio, 1023);
		assert_int_equal(ni_mc->newidle_ratio, 256);
		assert_int_equal(ni_numa->newidle_ratio, 0);
	}
	tl_teardown();

	/* off: every level runs every time and the counters stay as sd_init() set them */
	newidle_setup(TL_ZERO_COST, NULL);
	ni_mc->newidle_ratio = 256;
	ni_numa->newidle_ratio = 0;
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(newidle0(), 0);
	assert_int_equal(ni_smt->lb_count[CPU_NEWLY_IDLE], n);
	assert_int_equal(ni_mc->lb_count[CPU_NEWLY_IDLE], n);
	assert_int_equal(ni_numa->lb_count[CPU_NEWLY_IDLE], n);
	assert_int_equal(ni_mc->newidle_call, 512);
	assert_int_equal(ni_mc->newidle_success, 256);
	tl_teardown();
}

/*
 * With real costs v6.19 (33cf66d88306) counts every attempt that reaches
 * a level: a level skipped by the draw through update_newidle_stats(sd, 0),
 * a level that runs through update_newidle_cost(), its measured cost not
 * being 0. So the ratio estimates the success rate of all attempts and is
 * refreshed every 1024 of them. SMT at ratio 1023 always runs, MC at
 * ratio 0 nearly never, NUMA at 256 a quarter of the time: each counts all
 * 1000 attempts (from 0, so none reaches 1024). Nothing is pullable.
 */
static void test_ni_random_call_per_attempt(void **state)
{
	const unsigned int n = 1000;
	struct ni_counts c, now;

	(void)state;
	newidle_setup(TL_REAL_COST, "NI_RANDOM");
	ni_smt->newidle_ratio = 1023;
	ni_mc->newidle_ratio = 0;
	ni_numa->newidle_ratio = 256;
	ni_smt->newidle_call = ni_mc->newidle_call = ni_numa->newidle_call = 0;
	ni_smt->newidle_success = ni_mc->newidle_success = ni_numa->newidle_success = 0;
	c = ni_counts();
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(newidle0(), 0);
	now = ni_counts();
	assert_int_equal(now.smt - c.smt, n);
	assert_in_range(now.mc - c.mc, 0, 12);
	assert_in_range(now.numa - c.numa, 1, n - 1);
	assert_int_equal(ni_smt->newidle_call, n);
	assert_int_equal(ni_mc->newidle_call, n);
	assert_int_equal(ni_numa->newidle_call, n);
	assert_int_equal(ni_smt->newidle_success + ni_mc->newidle_success +
				 ni_numa->newidle_success, 0);
	tl_teardown();
}

/*
 * NI_RANDOM's bookkeeping (v6.19, 33cf66d88306). A pull counts a call and
 * weight = (1024 + w / 2) / w successes, w = 1 + ratio: the attempts a
 * pass stands for when the draw lets 1 in w through.
 *
 * At ratio 1023 (weight (1024 + 512) / 1024 = 1) a pull at SMT counts one
 * of each and stops the walk, so the levels above count nothing. The count
 * happens in update_newidle_cost(), only for a pass whose measured cost is
 * not 0: with TL_ZERO_COST the same pull counts nothing.
 */
static void test_ni_random_counters(void **state)
{
	unsigned int attempts = 0;
	struct task_struct *q;
	int pulled = 0;

	(void)state;
	for (int v = 0; v < 2; v++) {
		bool real = v == 0;

		newidle_setup(real ? TL_REAL_COST : TL_ZERO_COST, "NI_RANDOM");
		ni_smt->newidle_ratio = 1023;
		tl_fork_running("src", 8);
		q = tl_fork("queued", 8);
		assert_int_equal(newidle0(), 1);
		assert_int_equal(task_cpu(q), 0);
		/* sd_init(): 512 calls, 256 successes */
		assert_int_equal(ni_smt->newidle_call, real ? 513 : 512);
		assert_int_equal(ni_smt->newidle_success, real ? 257 : 256);
		assert_int_equal(ni_mc->newidle_call, 512);
		assert_int_equal(ni_numa->newidle_call, 512);
		tl_teardown();
	}

	/*
	 * At ratio 511, w = 512: the draw lets about half the attempts through
	 * and a pull counts (1024 + 256) / 512 = 2 successes. Every attempt
	 * counts a call, the skipped ones included. Only SMT balances
	 * (smt_only_setup(); MC's max stops an attempt whose SMT draw failed).
	 */
	smt_only_setup("NI_RANDOM", 0, true);
	ni_smt->newidle_ratio = 511;
	while (!pulled && attempts < 100) {
		struct ni_counts c = ni_counts();

		cpu_rq(0)->avg_idle = 10 * MSEC;
		pulled = newidle0();
		attempts++;
		assert_ni_delta(c, pulled, 0, 0);
	}
	assert_int_equal(pulled, 1);
	assert_true(attempts > 1);
	assert_int_equal(ni_smt->lb_count[CPU_NEWLY_IDLE], 1);
	assert_int_equal(ni_smt->newidle_call, 512 + attempts);
	assert_int_equal(ni_smt->newidle_success, 256 + 2);
	tl_teardown();

	/*
	 * At 1024 calls the success count becomes the ratio and both counts
	 * halve: 511 successes in 1024 calls, ratio 511, then 512 and 255.
	 */
	newidle_setup(TL_REAL_COST, "NI_RANDOM");
	ni_smt->newidle_ratio = 1023;
	ni_smt->newidle_call = 1023;
	ni_smt->newidle_success = 511;
	assert_int_equal(newidle0(), 0);
	assert_int_equal(ni_smt->newidle_ratio, 511);
	assert_int_equal(ni_smt->newidle_call, 512);
	assert_int_equal(ni_smt->newidle_success, 255);
	tl_teardown();
}

/*
 * The largest weight: a pull at MC when its ratio is 0 counts
 * (1024 + 1 / 2) / 1 = 1024 successes. Every attempt counted a call at MC
 * (SMT, at ratio 1023, runs and fails each time); the draw lets about 1
 * in 512 through, so the 1024th call came first and made the ratio the
 * success count so far, 0, halving the calls. The task is on CPU 1,
 * reachable from CPU 0 at MC only.
 */
static void test_ni_random_success_weight(void **state)
{
	unsigned int attempts = 0, calls = 0;
	int pulled = 0;

	(void)state;
	newidle_setup(TL_REAL_COST, "NI_RANDOM");
	ni_smt->newidle_ratio = 1023;
	ni_mc->newidle_ratio = 0;
	ni_mc->newidle_call = ni_mc->newidle_success = 0;
	tl_fork_running("src", 1);
	tl_fork("queued", 1);
	tl_advance_all(2 * MSEC);
	while (!pulled && attempts < 50000) {
		pulled = newidle0();
		attempts++;
		if (++calls >= 1024)
			calls /= 2;
	}
	assert_int_equal(pulled, 1);
	assert_int_equal(ni_mc->lb_gained[CPU_NEWLY_IDLE], 1);
	assert_true(attempts > 1024);
	assert_int_equal(ni_mc->newidle_call, calls);
	assert_int_equal(ni_mc->newidle_ratio, 0);
	assert_int_equal(ni_mc->newidle_success, 1024);
	tl_teardown();
}

/*
 * v6.19 reverted v6.18's bump and its cap (d206fbad9328, "sched/fair:
 * Revert max_newidle_lb_cost bump"), so with NI_RANDOM every pass,
 * pulling or not, hands update_newidle_cost() what it cost, which becomes
 * the max when above it, uncapped (test_newidle_cost_bump_and_cap has the
 * same cases in v6.18). SMT at ratio 1023: the draw never skips it.
 */
static void test_ni_random_cost_not_bumped_or_capped(void **state)
{
	u64 curr;

	(void)state;
	/* a failing pass above a 100 ns max records what it cost, not 150 ns */
	smt_only_setup("NI_RANDOM", 100, false);
	ni_smt->newidle_ratio = 1023;
	curr = newidle0_smt(0);
	assert_true(curr > 150);
	assert_int_equal(ni_smt->max_newidle_lb_cost, curr);
	assert_int_equal(ni_smt->last_decay_max_lb_cost, jiffies);
	assert_int_equal(ni_smt->newidle_call, 513);
	assert_int_equal(ni_smt->newidle_success, 256);
	tl_teardown();

	/* below a 1000 ns max it leaves the max and its stamp: no 1500 */
	smt_only_setup("NI_RANDOM", 1000, false);
	ni_smt->newidle_ratio = 1023;
	curr = newidle0_smt(0);
	assert_true(curr < 1000);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 1000);
	assert_int_equal(ni_smt->last_decay_max_lb_cost, 0);
	tl_teardown();

	/* nor is a 1 ms max, above migration_cost + 200 ns, brought down to it */
	smt_only_setup("NI_RANDOM", 1 * MSEC, false);
	ni_smt->newidle_ratio = 1023;
	newidle0_smt(0);
	assert_int_equal(ni_smt->max_newidle_lb_cost, 1 * MSEC);
	tl_teardown();

	/* a pull with migration_cost 500 ns records its cost, above 700 ns */
	smt_only_setup("NI_RANDOM", 0, true);
	ni_smt->newidle_ratio = 1023;
	sysctl_set("migration_cost_ns=500");
	curr = newidle0_smt(1);
	assert_true(curr > 700);
	assert_int_equal(ni_smt->max_newidle_lb_cost, curr);
	assert_int_equal(ni_smt->last_decay_max_lb_cost, jiffies);
	assert_int_equal(ni_smt->newidle_success, 257);
	tl_teardown();
}

/* ========================================================================= */
/* 7. the defaults are v6.18's                                               */
/* ========================================================================= */

static void test_defaults_are_v6_18(void **state)
{
	(void)state;
	sched_feat_reset();
	assert_true(sched_feat(SWB_IDLE_CORE));
	assert_true(sched_feat(SWB_SMT_SKIP));
	assert_true(sched_feat(UTIL_RUNNABLE_BOOST));
	assert_true(sched_feat(NEWIDLE_COST));
	assert_false(sched_feat(NEWIDLE_MIGRATION_COST_BAILOUT));
	assert_false(sched_feat(NEWIDLE_RATE_LIMIT));
	assert_false(sched_feat(NI_RANDOM));
	assert_true(sched_feat(AVG_IDLE_AVG_FIRST));
	assert_true(sched_feat_info[__SCHED_FEAT_SWB_IDLE_CORE].def);
	assert_true(sched_feat_info[__SCHED_FEAT_SWB_SMT_SKIP].def);
	assert_true(sched_feat_info[__SCHED_FEAT_UTIL_RUNNABLE_BOOST].def);
	assert_true(sched_feat_info[__SCHED_FEAT_NEWIDLE_COST].def);
	assert_false(sched_feat_info[__SCHED_FEAT_NEWIDLE_MIGRATION_COST_BAILOUT].def);
	assert_false(sched_feat_info[__SCHED_FEAT_NEWIDLE_RATE_LIMIT].def);
	assert_false(sched_feat_info[__SCHED_FEAT_NI_RANDOM].def);
	/* the tunables these features read */
	sched_sysctl_reset();
	assert_int_equal(sysctl_sched.migration_cost_ns, 500 * USEC);
	assert_int_equal(sysctl_sched.nr_migrate, 32);
}

/* ========================================================================= */
/* 8. active balance: two hogs on one SMT core, an idle core next to it      */
/* ========================================================================= */

/*
 * The same by hand: hogs running on 0 and 8 (core 0), 1 and 2; CPU 3
 * balances its MC level as an idle CPU. Every pass fails (the busiest
 * CPU, 0, runs its only task); the first three only count, the fourth
 * (nr_balance_failed = cache_nice_tries + 3) asks CPU 0's stopper to push.
 * When CPU 0 next schedules, the stopper runs first and moves the hog it
 * preempted to CPU 3.
 */
static void test_active_balance_after_failures(void **state)
{
	static const unsigned int busy[] = { 0, 8, 1, 2 };
	struct task_struct *hog0;
	struct sched_domain *sd;
	int cont;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	make_busy(busy, ARRAY_SIZE(busy));
	hog0 = cpu_rq(0)->curr;
	sd = tl_sd(3, "MC");
	assert_int_equal(sd->cache_nice_tries, 1);
	for (unsigned int pass = 1; pass <= 4; pass++) {
		assert_int_equal(tl_balance(3, sd, CPU_IDLE, &cont), 0);
		assert_int_equal(cont, 1);
		assert_int_equal(sd->lb_failed[CPU_IDLE], pass);
		assert_int_equal(sd->nr_balance_failed, pass);
		assert_int_equal(sd->lb_imbalance_task[CPU_IDLE], pass);
		assert_int_equal(cpu_rq(0)->active_balance, pass == 4);
		assert_int_equal(cpu_rq(8)->active_balance, 0);
	}
	assert_int_equal(cpu_rq(0)->push_cpu, 3);
	assert_true(cpu_rq(0)->need_resched);
	assert_int_equal(sd->alb_count, 0);

	tl_cpu(0);
	__schedule(SM_PREEMPT);
	assert_int_equal(sd->alb_count, 1);
	assert_int_equal(sd->alb_pushed, 1);
	assert_int_equal(sd->alb_failed, 0);
	assert_int_equal(sd->nr_balance_failed, 0);
	assert_int_equal(cpu_rq(0)->active_balance, 0);
	assert_int_equal(task_cpu(hog0), 3);
	assert_int_equal(cpu_rq(3)->nr_running, 1);
	assert_int_equal(cpu_rq(0)->nr_running, 0);
	assert_true(is_idle_task(cpu_rq(0)->curr));
	tl_teardown();
}

/*
 * After kicking the stopper the kernel still resets balance_interval to
 * min_interval: `if (likely(!active_balance) || need_active_balance(&env))`
 * in sched_balance_rq() (e9b9734b7465, v5.12; so in v6.18 and v6.19). The
 * state of test_active_balance_after_failures() with three failures
 * already counted and the interval backed off to its max: the fourth pass
 * kicks CPU 0's stopper and the interval is back at its min.
 */
static void test_active_balance_resets_interval(void **state)
{
	static const unsigned int busy[] = { 0, 8, 1, 2 };
	struct sched_domain *sd;
	int cont;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	make_busy(busy, ARRAY_SIZE(busy));
	sd = tl_sd(3, "MC");
	sd->nr_balance_failed = sd->cache_nice_tries + 2;
	sd->balance_interval = (unsigned int)sd->max_interval;
	assert_true(sd->max_interval > sd->min_interval);
	assert_int_equal(tl_balance(3, sd, CPU_IDLE, &cont), 0);
	assert_int_equal(cpu_rq(0)->active_balance, 1);
	assert_int_equal(sd->balance_interval, sd->min_interval);
	tl_teardown();
}

static struct {
	bool seen;
	unsigned int busiest, push_cpu;
	unsigned int nr_failed, cache_nice_tries;
	const char *level;
} kick;

/* after every event: the first time a stopper is asked to push, note why */
static void watch_active_balance(struct sim_event *ev)
{
	(void)ev;
	if (kick.seen)
		return;
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		struct rq *rq = cpu_rq(cpu);
		struct sched_domain *sd;

		if (!rq->active_balance)
			continue;
		for_each_domain(rq->push_cpu, sd)
			if (cpumask_test_cpu(cpu, sched_domain_span(sd)))
				break;
		assert_non_null(sd);
		kick.seen = true;
		kick.busiest = cpu;
		kick.push_cpu = rq->push_cpu;
		kick.nr_failed = sd->nr_balance_failed;
		kick.cache_nice_tries = sd->cache_nice_tries;
		kick.level = sd->name;
		return;
	}
}

/*
 * smt2-2s-16, hogs on 0 and 8 (both threads of core 0), 1, 2 and socket
 * 1's 4-7: each socket runs four, so NUMA is balanced, but in socket 0
 * core {3,11} is idle while core {0,8} runs two. CPU 3 balances its MC
 * level (idle, through the nohz idle balancer): the busiest group is the
 * SMT core with two tasks (smt_balance, migrate_task 1), whose CPUs each
 * run one task, so nothing can be detached. After cache_nice_tries + 3 =
 * 4 failures in a row the stopper on the busiest CPU pushes its running
 * hog to CPU 3.
 */
static void test_active_balance_resolves_smt_pair(void **state)
{
	static const unsigned int at[] = { 0, 8, 1, 2, 4, 5, 6, 7 };
	struct task_struct *hogs[ARRAY_SIZE(at)];
	unsigned int pushed = 0, alb = 0, moved = 0;

	(void)state;
	memset(&kick, 0, sizeof(kick));
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, NULL);
	tl.hook = watch_active_balance;
	for (unsigned int i = 0; i < ARRAY_SIZE(at); i++)
		hogs[i] = tl_work_task("hog", &tl_busy_prog, at[i]);
	tl_run_until(300 * MSEC, true);

	assert_true(kick.seen);
	assert_true(kick.busiest == 0 || kick.busiest == 8);
	assert_int_equal(kick.push_cpu, 3);
	assert_string_equal(kick.level, "MC");
	assert_int_equal(kick.cache_nice_tries, 1);
	assert_int_equal(kick.nr_failed, kick.cache_nice_tries + 3);

	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		struct sched_domain *sd;

		for_each_domain(cpu, sd) {
			pushed += sd->alb_pushed;
			alb += sd->alb_count;
		}
	}
	assert_true(pushed > 0);
	assert_true(alb >= pushed);
	assert_true(tl_sd(3, "MC")->alb_pushed >= 1);

	/* resolved: one hog per core, none waiting, one of the pair on core {3,11} */
	for (unsigned int core = 0; core < 8; core++) {
		unsigned int n = 0;

		for (unsigned int i = 0; i < ARRAY_SIZE(at); i++) {
			unsigned int cpu = task_cpu(hogs[i]);

			n += cpu % 8 == core;
		}
		assert_int_equal(n, 1);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(at); i++) {
		assert_int_equal(task_rq(hogs[i])->nr_running, 1);
		moved += task_cpu(hogs[i]) != at[i];
	}
	assert_int_equal(moved, 1);
	assert_true(task_cpu(hogs[0]) % 8 == 3 || task_cpu(hogs[1]) % 8 == 3);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swb_idle_core_decides),
		cmocka_unit_test(test_swb_idle_core_pulls_to_idle_core),
		cmocka_unit_test(test_swb_smt_skip_worked_case),
		cmocka_unit_test(test_swb_smt_skip_random),
		cmocka_unit_test(test_util_runnable_boost),
		cmocka_unit_test(test_newidle_cost_bailout),
		cmocka_unit_test(test_newidle_cost_per_level_break),
		cmocka_unit_test(test_newidle_cost_accumulates_and_tracks_max),
		cmocka_unit_test(test_newidle_cost_bump_and_cap),
		cmocka_unit_test(test_newidle_cost_decay),
		cmocka_unit_test(test_newidle_cost_decays_periodically),
		cmocka_unit_test(test_newidle_migration_cost_bailout),
		cmocka_unit_test(test_newidle_overload_check),
		cmocka_unit_test(test_newidle_rate_limit),
		cmocka_unit_test(test_ni_random_skips),
		cmocka_unit_test(test_ni_random_call_per_attempt),
		cmocka_unit_test(test_ni_random_counters),
		cmocka_unit_test(test_ni_random_success_weight),
		cmocka_unit_test(test_ni_random_cost_not_bumped_or_capped),
		cmocka_unit_test(test_avg_idle_avg_first),
		cmocka_unit_test(test_defaults_are_v6_18),
		cmocka_unit_test(test_active_balance_after_failures),
		cmocka_unit_test(test_active_balance_resets_interval),
		cmocka_unit_test(test_active_balance_resolves_smt_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
