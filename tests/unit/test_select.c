// SPDX-License-Identifier: GPL-2.0-only
/*
 * Choosing a CPU on wakeup and fork (src/kernel/select.c, select_idle.c):
 * hand-built machine states that hit each rule of select_idle_sibling(),
 * wake_affine() and its features, wake_wide(), the fork slow path, the
 * SIS_UTIL scan limit and its formula, and the cost of each scan.
 *
 * States are built without running the simulation: a CPU is made busy by
 * queueing a task on it (tl_fork(), so idle_cpu() is false), the wakee is
 * a task that ran on its previous CPU and blocked there, and PELT values,
 * has_idle_cores and nr_idle_scan are set by hand.
 */
#include "test_sched_helpers.h"

#include "kernel/select.h"

/* ---- building states ---- */

/* @cpu is not idle: a task is queued on it */
static struct task_struct *busy(unsigned int cpu)
{
	return tl_fork("busy", cpu);
}

static void busy_mask(const struct cpumask *mask)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		busy(cpu);
}

/* a task that ran on @cpu and sleeps: the wakee, prev_cpu == @cpu */
static struct task_struct *sleeper(unsigned int cpu)
{
	struct task_struct *p = tl_fork("wakee", cpu);

	tl_cpu(cpu);
	assert_ptr_equal(tl_schedule(), p);
	tl_block_current();
	assert_int_equal(p->on_rq, 0);
	assert_true(idle_cpu(cpu));
	return p;
}

/* a task running on @cpu (its current): the waker or the forking parent */
static struct task_struct *running(unsigned int cpu)
{
	struct task_struct *p = tl_fork("waker", cpu);

	tl_cpu(cpu);
	assert_ptr_equal(tl_schedule(), p);
	return p;
}

static struct sched_domain *sd_named(unsigned int cpu, const char *name)
{
	struct sched_domain *sd;

	for_each_domain(cpu, sd)
		if (!strcmp(sd->name, name))
			return sd;
	fail_msg("CPU%u has no %s domain", cpu, name);
	return NULL;
}

static struct sched_domain_shared *llc_shared(unsigned int cpu)
{
	return per_cpu(sd_llc_shared, cpu);
}

/*
 * Every idle CPU in its deepest idle state, as after boot (the CPUs of a
 * fresh machine have entered none). The slow path prefers idle CPUs by
 * idle state and idle_stamp; with neither it would keep the task where it
 * is, which no booted machine does.
 */
static void all_idle_in_deepest_state(void)
{
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++)
		if (idle_cpu(cpu))
			cpu_rq(cpu)->idle_state = (int)machine.topo->nr_idle_states - 1;
}

/* simulated time select_idle_sibling() takes on the running CPU, in lb_cpu_visit units */
static int sis_visits(struct task_struct *p, int prev, int target, int *cpu)
{
	u64 t0 = cpu_now();

	*cpu = select_idle_sibling(p, prev, target);
	assert_int_equal((cpu_now() - t0) % machine.cost->lb_cpu_visit, 0);
	return (int)((cpu_now() - t0) / machine.cost->lb_cpu_visit);
}

/* ------------------------------------------------------------------ */
/* select_idle_sibling(): one test per rule, in the kernel's order     */

/*
 * smt2-2s-16: CPUs 0-3 + 8-11 are LLC 0 (package 0), 4-7 + 12-15 LLC 1;
 * SMT siblings are n and n + 8.
 */

/* an idle target is taken first, before the idle previous CPU */
static void test_sis_target_idle(void **state)
{
	struct task_struct *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	p = sleeper(1);
	assert_int_equal(select_idle_sibling(p, 1, 2), 2);
	tl_teardown();
}

/* target busy, prev idle and sharing its LLC: prev */
static void test_sis_prev_idle_cache_affine(void **state)
{
	struct task_struct *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	p = sleeper(1);
	busy(2);
	assert_int_equal(select_idle_sibling(p, 1, 2), 1);
	tl_teardown();
}

/*
 * prev idle on the other socket: not cache-affine, so not taken; the
 * search stays in target's LLC (all busy here: target).
 */
static void test_sis_prev_other_socket_not_taken(void **state)
{
	struct task_struct *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, "NO_SIS_UTIL");
	p = sleeper(4);
	busy_mask(machine.topo->llc_mask[0]);
	assert_true(idle_cpu(4));
	assert_int_equal(select_idle_sibling(p, 4, 2), 2);
	tl_teardown();
}

/*
 * recent_used_cpu: idle, sharing target's LLC and allowed: taken; and the
 * task's recent_used_cpu becomes prev. Not allowed: not taken.
 */
static void test_sis_recent_used_cpu(void **state)
{
	struct task_struct *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, "NO_SIS_UTIL");
	p = sleeper(1);
	busy(1);
	busy(2);
	/* prev's SMT sibling busy too, or it would be taken before the scan */
	busy(9);
	p->recent_used_cpu = 11;
	assert_int_equal(select_idle_sibling(p, 1, 2), 11);
	assert_int_equal(p->recent_used_cpu, 1);

	/* 11 not allowed: the scan from target + 1 finds 3 */
	p->recent_used_cpu = 11;
	cpumask_clear_cpu(11, p->cpus_mask);
	assert_int_equal(select_idle_sibling(p, 1, 2), 3);
	assert_int_equal(p->recent_used_cpu, 1);

	/* in another LLC: not taken either */
	p->recent_used_cpu = 5;
	assert_int_equal(select_idle_sibling(p, 1, 2), 3);
	tl_teardown();
}

/*
 * pixel6 (capacities 160 x4, 498 x2, 1024 x2): a task of utilisation 700
 * fits only the X1s. Waking on an idle A55 it goes to the first idle X1
 * from the target round; with both X1s busy, to the idle CPU of the
 * highest capacity. A small task stays on its idle A55.
 */
static void test_sis_asym_capacity(void **state)
{
	struct task_struct *p, *q;

	(void)state;
	tl_setup("pixel6", TL_ZERO_COST, 0, NULL);
	assert_true(sched_asym_cpucap_active());
	p = sleeper(0);
	q = sleeper(1);
	p->se.avg.util_est = 700;
	q->se.avg.util_est = 50;
	assert_int_equal(select_idle_sibling(q, 1, 1), 1);
	assert_int_equal(select_idle_sibling(p, 0, 0), 6);
	/* from target 7 round: 7 first */
	assert_int_equal(select_idle_sibling(p, 0, 7), 7);
	busy(6);
	busy(7);
	assert_int_equal(select_idle_sibling(p, 0, 0), 4);
	tl_teardown();
}

/*
 * No idle core in the LLC: an idle SMT sibling of prev (9 for prev 1) is
 * taken before the LLC scan would reach CPU 2. With has_idle_cores set the
 * sibling rule is skipped and the scan finds the idle core {2,10}.
 */
static void test_sis_idle_smt_sibling(void **state)
{
	struct task_struct *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, "NO_SIS_UTIL");
	p = sleeper(1);
	busy(1);
	busy(0);
	busy(3);
	llc_shared(1)->has_idle_cores = 0;
	assert_int_equal(select_idle_sibling(p, 1, 1), 9);
	llc_shared(1)->has_idle_cores = 1;
	assert_int_equal(select_idle_sibling(p, 1, 1), 2);
	tl_teardown();
}

/*
 * select_idle_core(): walking from target + 1 = 2, core {2,10} is half
 * idle (2 busy) and is skipped whole; core {3,11} is fully idle: 3. Each
 * SMT sibling examined is one lb_cpu_visit: target 1, then 2, 10, 3, 11.
 */
static void test_sis_select_idle_core(void **state)
{
	struct task_struct *p;
	int cpu;

	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, NULL);
	tl_no_line_costs();
	p = sleeper(1);
	busy(1);
	busy(9);
	busy(2);
	llc_shared(1)->has_idle_cores = 1;
	tl_cpu(1);
	/* SIS_UTIL with nr_idle_scan 0 stops even the idle-core search */
	llc_shared(1)->nr_idle_scan = 0;
	assert_int_equal(sis_visits(p, 1, 1, &cpu), 1);
	assert_int_equal(cpu, 1);
	/* the core search does not count against nr_idle_scan */
	llc_shared(1)->nr_idle_scan = 1;
	assert_int_equal(sis_visits(p, 1, 1, &cpu), 5);
	assert_int_equal(cpu, 3);
	assert_int_equal(llc_shared(1)->has_idle_cores, 1);
	tl_teardown();
}

/*
 * has_idle_cores set but every core of the LLC has a busy thread: the
 * search returns the first idle CPU it saw (10) and clears the hint.
 */
static void test_sis_idle_cores_cleared(void **state)
{
	struct task_struct *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	p = sleeper(1);
	for (unsigned int cpu = 0; cpu < 4; cpu++)
		busy(cpu);
	llc_shared(1)->has_idle_cores = 1;
	llc_shared(1)->nr_idle_scan = 8;
	assert_int_equal(select_idle_sibling(p, 1, 1), 10);
	assert_int_equal(llc_shared(1)->has_idle_cores, 0);
	/* hint clear: prev's idle sibling 9 now */
	assert_int_equal(select_idle_sibling(p, 1, 1), 9);
	tl_teardown();
}

/*
 * SIS_UTIL on westmere-ex-8s-80-noht (LLC 0 = CPUs 0-9, no SMT): the scan
 * from target + 1 examines at most nr_idle_scan CPUs. CPUs 1-3 busy, 4
 * idle: with nr_idle_scan 3 the scan stops before 4 (target comes back);
 * with 4, it finds 4; with 0 nothing is scanned; NO_SIS_UTIL scans all.
 */
static void test_sis_util_scan_limit(void **state)
{
	struct task_struct *p;
	int cpu;

	(void)state;
	tl_setup("westmere-ex-8s-80-noht", TL_REAL_COST, 0, NULL);
	tl_no_line_costs();
	p = sleeper(0);
	for (unsigned int c = 0; c < 4; c++)
		busy(c);
	tl_cpu(0);

	llc_shared(0)->nr_idle_scan = 3;
	assert_int_equal(sis_visits(p, 0, 0, &cpu), 1 + 3);
	assert_int_equal(cpu, 0);

	llc_shared(0)->nr_idle_scan = 4;
	assert_int_equal(sis_visits(p, 0, 0, &cpu), 1 + 4);
	assert_int_equal(cpu, 4);

	llc_shared(0)->nr_idle_scan = 0;
	assert_int_equal(sis_visits(p, 0, 0, &cpu), 1);
	assert_int_equal(cpu, 0);

	sysctl_sched_features[__SCHED_FEAT_SIS_UTIL] = false;
	assert_int_equal(sis_visits(p, 0, 0, &cpu), 1 + 4);
	assert_int_equal(cpu, 4);
	tl_teardown();
}

/*
 * Nothing idle in the LLC: target. Target and prev are examined, then
 * without SIS_UTIL the scan looks at all 10 CPUs of the LLC (target
 * included, last): 12 visits in all.
 */
static void test_sis_nothing_idle(void **state)
{
	struct task_struct *p;
	int cpu;

	(void)state;
	tl_setup("westmere-ex-8s-80-noht", TL_REAL_COST, 0, "NO_SIS_UTIL");
	tl_no_line_costs();
	p = sleeper(3);
	busy_mask(machine.topo->llc_mask[0]);
	tl_cpu(0);
	assert_int_equal(sis_visits(p, 3, 5, &cpu), 2 + 10);
	assert_int_equal(cpu, 5);
	tl_teardown();
}

/* ------------------------------------------------------------------ */
/* wake_affine()                                                       */

/* smt2-2s-16, this = 2 and prev = 1 share LLC 0: the MC domain decides */
struct wa_case {
	struct task_struct *p;
	struct sched_domain *sd;
};

static void wa_setup(struct wa_case *c, const char *features)
{
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, features);
	c->p = sleeper(1);
	c->p->se.avg.load_avg = 100;
	c->sd = sd_named(2, "MC");
	tl_cpu(2);
}

/* WA_IDLE: an idle waking CPU (interrupt) sharing prev's cache takes the task */
static void test_wa_idle_this_idle(void **state)
{
	struct wa_case c;

	(void)state;
	wa_setup(&c, NULL);
	busy(1);
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 2);
	assert_int_equal(c.sd->ttwu_move_affine, 1);
	tl_teardown();
}

/* WA_IDLE: both idle: prev, no move */
static void test_wa_idle_both_idle(void **state)
{
	struct wa_case c;

	(void)state;
	wa_setup(&c, NULL);
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 1);
	assert_int_equal(c.sd->ttwu_move_affine, 0);
	tl_teardown();
}

/* WA_IDLE: a sync waker alone on its CPU gives it to the wakee */
static void test_wa_idle_sync(void **state)
{
	struct wa_case c;

	(void)state;
	wa_setup(&c, NULL);
	busy(1);
	running(2);
	/* much more load here than on prev: only the sync rule can pick 2 */
	cpu_rq(2)->cfs.avg.load_avg = 5000;
	cpu_rq(2)->curr->se.avg.load_avg = 100;
	cpu_rq(1)->cfs.avg.load_avg = 100;
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 1), 2);
	/* not sync: the weights say prev */
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 1);
	/* a second task on the waker's CPU: no longer */
	busy(2);
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 1), 1);
	tl_teardown();
}

/* WA_IDLE: the waker's CPU busy, prev idle: prev */
static void test_wa_idle_prev_idle(void **state)
{
	struct wa_case c;

	(void)state;
	wa_setup(&c, NULL);
	running(2);
	/* the weights would say this CPU */
	cpu_rq(1)->cfs.avg.load_avg = 5000;
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 1);
	tl_teardown();
}

/*
 * WA_WEIGHT, both busy: this_eff = (this + task) * 100 * cap(prev),
 * prev_eff = (prev - task) * (100 + (117 - 100) / 2) * cap(this). The less
 * loaded side wins.
 */
static void test_wa_weight(void **state)
{
	struct wa_case c;

	(void)state;
	wa_setup(&c, NULL);
	running(2);
	busy(1);
	cpu_rq(2)->cfs.avg.load_avg = 300;
	cpu_rq(1)->cfs.avg.load_avg = 1000;
	/* 400 * 100 < 900 * 108 */
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 2);
	cpu_rq(2)->cfs.avg.load_avg = 1000;
	cpu_rq(1)->cfs.avg.load_avg = 300;
	/* 1100 * 100 >= 200 * 108 */
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 1);
	/*
	 * WA_BIAS: this 0 + 100 = 100, prev 195 - 100 = 95. Unbiased 100 > 95:
	 * prev; biased 100 * 100 < 95 * 108: this.
	 */
	cpu_rq(2)->cfs.avg.load_avg = 0;
	cpu_rq(1)->cfs.avg.load_avg = 195;
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 2);
	sysctl_sched_features[__SCHED_FEAT_WA_BIAS] = false;
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 1);
	tl_teardown();
}

/*
 * NO_WA_IDLE: the idle waking CPU no longer wins by being idle; the
 * weights decide (prev lightly loaded: prev). NO_WA_WEIGHT: when the idle
 * rules say nothing, prev.
 */
static void test_wa_no_features(void **state)
{
	struct wa_case c;

	(void)state;
	wa_setup(&c, "NO_WA_IDLE");
	busy(1);
	cpu_rq(1)->cfs.avg.load_avg = 50;
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 1);
	sysctl_sched_features[__SCHED_FEAT_WA_IDLE] = true;
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 2);
	tl_teardown();

	wa_setup(&c, "NO_WA_WEIGHT");
	running(2);
	busy(1);
	cpu_rq(2)->cfs.avg.load_avg = 0;
	cpu_rq(1)->cfs.avg.load_avg = 5000;
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 1);
	sysctl_sched_features[__SCHED_FEAT_WA_WEIGHT] = true;
	assert_int_equal(wake_affine(c.sd, c.p, 2, 1, 0), 2);
	tl_teardown();
}

/* ------------------------------------------------------------------ */
/* wake_wide() and the whole wakeup path                               */

/* flips count changes of wakee and halve once a second (HZ jiffies) */
static void test_record_wakee(void **state)
{
	struct task_struct *waker, *a, *b;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	a = sleeper(4);
	b = sleeper(5);
	waker = running(0);
	waker->wakee_flip_decay_ts = jiffies;
	record_wakee(a);
	record_wakee(a);
	assert_int_equal(waker->wakee_flips, 1);
	for (int i = 0; i < 9; i++)
		record_wakee(i & 1 ? a : b);
	assert_int_equal(waker->wakee_flips, 10);
	assert_ptr_equal(waker->last_wakee, b);
	/* one second later: halved once, then one more flip */
	charge(NSEC_PER_SEC + TICK_NSEC);
	record_wakee(a);
	assert_int_equal(waker->wakee_flips, 6);
	assert_int_equal(waker->wakee_flip_decay_ts, jiffies);
	tl_teardown();
}

/*
 * wake_wide: the smaller flip count must reach sd_llc_size (8) and the
 * larger be sd_llc_size times that. A 1:N waker of many wakees is wide.
 */
static void test_wake_wide(void **state)
{
	struct task_struct *waker, *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	p = sleeper(4);
	waker = running(0);
	waker->wakee_flips = 64;
	p->wakee_flips = 7;
	assert_int_equal(wake_wide(p), 0);
	p->wakee_flips = 8;
	assert_int_equal(wake_wide(p), 1);
	waker->wakee_flips = 63;
	assert_int_equal(wake_wide(p), 0);
	/* symmetric in waker and wakee */
	waker->wakee_flips = 8;
	p->wakee_flips = 64;
	assert_int_equal(wake_wide(p), 1);
	tl_teardown();
}

/*
 * The whole path: a waker on CPU 0 wakes a task whose prev CPU 4 (other
 * socket) is busy and heavily loaded. Affine: wake_affine() at the NUMA
 * domain picks the waker's side and the LLC scan finds an idle CPU there,
 * counted in ttwu_move_affine. Wide (1:N waker): no affine move, the scan
 * stays in prev's LLC.
 */
static void test_wakeup_affine_vs_wide(void **state)
{
	struct task_struct *waker, *p;
	unsigned int cpu;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, "NO_SIS_UTIL");
	p = sleeper(4);
	waker = running(0);
	busy(4);
	p->se.avg.load_avg = 100;
	cpu_rq(4)->cfs.avg.load_avg = 3000;

	tl_cpu(0);
	cpu = select_task_rq_fair(p, 4, WF_TTWU);
	assert_true(cpumask_test_cpu(cpu, machine.topo->llc_mask[0]));
	assert_true(idle_cpu(cpu));
	assert_int_equal(sd_named(0, "NUMA")->ttwu_move_affine, 1);
	assert_int_equal(waker->last_wakee, p);

	waker->wakee_flips = 100;
	p->wakee_flips = 10;
	cpu = select_task_rq_fair(p, 4, WF_TTWU);
	assert_true(cpumask_test_cpu(cpu, machine.topo->llc_mask[1]));
	assert_true(idle_cpu(cpu));
	assert_int_equal(sd_named(0, "NUMA")->ttwu_move_affine, 1);
	tl_teardown();
}

/*
 * A sync wakeup (a pipe write) from a waker alone on CPU 2 of a task that
 * last ran on CPU 5 (other socket), both sockets otherwise idle but the
 * scan limited to nothing (nr_idle_scan 0): the wakee is stacked on the
 * waker's CPU, which it gets when the waker sleeps.
 */
static void test_wakeup_sync_stacks_on_waker(void **state)
{
	struct task_struct *p;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	p = sleeper(5);
	running(2);
	busy(5);
	/* no scan budget (a busy LLC): the sync wakeup stays with the waker */
	llc_shared(2)->nr_idle_scan = 0;
	tl_cpu(2);
	assert_int_equal(select_task_rq_fair(p, 5, WF_TTWU | WF_SYNC), 2);
	assert_int_equal(sd_named(2, "NUMA")->ttwu_move_affine, 1);
	assert_int_equal(p->recent_used_cpu, 5);
	tl_teardown();
}

/* ------------------------------------------------------------------ */
/* fork: the slow path                                                 */

static unsigned int fork_from(struct task_struct *parent)
{
	struct task_struct *child;

	tl_cpu(task_cpu(parent));
	child = sched_fork_task(parent, false, "child", &tl_noop_exec, NULL, -1);
	return task_cpu(child);
}

/*
 * smt2-2s-16, forks from CPU 0: the packages alternate (imb_numa_nr is 1,
 * so the NUMA allowance keeps only one task local), each new task on an
 * idle core; SMT siblings only when every core is busy.
 */
static void test_fork_spreads_packages_then_cores(void **state)
{
	static const unsigned int want[] = { 4, 1, 5, 2, 6, 3, 7, 8, 12 };
	struct task_struct *parent;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	parent = running(0);
	all_idle_in_deepest_state();
	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++)
		assert_int_equal(fork_from(parent), want[i]);
	tl_teardown();
}

/*
 * altra-80: an LLC is a pair of cores (0-1, 2-3, ...), 40 in one package:
 * 39 forks from CPU 0 take one CPU of every other LLC before any LLC gets
 * a second task.
 */
static void test_fork_spreads_llcs(void **state)
{
	struct task_struct *parent;
	unsigned int per_llc[40] = { 0 };

	(void)state;
	tl_setup("altra-80", TL_ZERO_COST, 0, NULL);
	parent = running(0);
	all_idle_in_deepest_state();
	for (unsigned int i = 0; i < 39; i++)
		per_llc[machine.topo->cpus[fork_from(parent)].llc]++;
	assert_int_equal(per_llc[0], 0);
	for (unsigned int llc = 1; llc < 40; llc++)
		assert_int_equal(per_llc[llc], 1);
	/* then the second CPUs of the LLCs, the forking CPU's sibling first */
	assert_int_equal(fork_from(parent), 1);
	tl_teardown();
}

/*
 * Every CPU of smp4 fully busy (utilisation 1000 of 1024 > 1024 / 1.17):
 * the fork goes to the CPU with the lowest load, if it beats the local
 * one by more than imbalance_pct.
 */
static void test_fork_busy_least_loaded(void **state)
{
	static const unsigned long load[] = { 1024, 2048, 300, 900 };
	struct task_struct *parent;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	parent = running(0);
	for (unsigned int cpu = 1; cpu < 4; cpu++)
		busy(cpu);
	for (unsigned int cpu = 0; cpu < 4; cpu++) {
		cpu_rq(cpu)->cfs.avg.load_avg = load[cpu];
		cpu_rq(cpu)->cfs.avg.util_avg = 1000;
	}
	assert_int_equal(fork_from(parent), 2);
	/*
	 * The child's load joined CPU 2 (1324). The least loaded is now 3
	 * (900), but the local 1024 is within imbalance_pct of it
	 * (100 * 1024 <= 117 * 900): stay.
	 */
	assert_int_equal(cpu_rq(2)->cfs.avg.load_avg, 1324);
	assert_int_equal(fork_from(parent), 0);
	tl_teardown();
}

/*
 * The slow path's cost: per group classified lb_group, per CPU visited
 * lb_cpu_visit. smp4, all idle, fork from CPU 0: the MC level's 4 groups
 * of one CPU (4 groups, 4 visits); the idlest group (the first of the
 * equally idle ones, 1) has one CPU, taken without a visit; below it
 * there is no domain. (The task slept on CPU 3, whose blocked
 * utilisation makes it less idle.)
 */
static void test_fork_cost(void **state)
{
	struct task_struct *parent, *p;
	u64 t0;

	(void)state;
	tl_setup("smp4", TL_REAL_COST, 0, NULL);
	tl_no_line_costs();
	parent = running(0);
	all_idle_in_deepest_state();
	p = sleeper(3);
	(void)parent;
	tl_cpu(0);
	t0 = cpu_now();
	assert_int_equal(select_task_rq_fair(p, 0, WF_FORK), 1);
	assert_int_equal(cpu_now() - t0,
			 4 * machine.cost->lb_group + 4 * machine.cost->lb_cpu_visit);
	tl_teardown();
}

/* no domains (one CPU): fork stays where it is */
static void test_fork_smp1(void **state)
{
	struct task_struct *p;

	(void)state;
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	p = tl_fork("p", 0);
	assert_null(cpu_sd(0));
	assert_int_equal(select_task_rq_fair(p, 0, WF_FORK), 0);
	assert_int_equal(select_task_rq_fair(p, 0, WF_TTWU), 0);
	tl_teardown();
}

/* ------------------------------------------------------------------ */
/* the LLC's shared state                                              */

/* a CPU going idle with its sibling idle completes an idle core */
static void test_update_idle_core(void **state)
{
	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
	busy(9);
	llc_shared(1)->has_idle_cores = 0;
	update_idle_core(cpu_rq(1));
	assert_int_equal(llc_shared(1)->has_idle_cores, 0);
	update_idle_core(cpu_rq(2));
	assert_int_equal(llc_shared(1)->has_idle_cores, 1);
	/* the other LLC's hint is its own */
	assert_int_equal(llc_shared(4)->has_idle_cores, 0);
	tl_teardown();

	/* no SMT: never set */
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	update_idle_core(cpu_rq(1));
	assert_int_equal(llc_shared(1)->has_idle_cores, 0);
	tl_teardown();
}

/*
 * nr_idle_scan = llc_weight * (1024 - min((u^2 * pct^2) / (10000 * 1024),
 * 1024)) / 1024 with u = sum_util / llc_weight, worked out for the Xeon's
 * 52-CPU LLC (pct 117):
 *   u = 0:   52
 *   u = 512: 512^2 * 117^2 / 10240000 = 350; 52 * 674 / 1024 = 34
 *   u = 819: 896; 52 * 128 / 1024 = 6
 *   u = 876: 1025 -> 1024; 0
 */
static void test_update_idle_cpu_scan(void **state)
{
	struct sched_domain *mc, *numa;
	struct sched_domain_shared *sds;

	(void)state;
	tl_setup("xeon-8269cy-2s", TL_ZERO_COST, 0, NULL);
	mc = sd_named(0, "MC");
	numa = sd_named(0, "NUMA");
	sds = llc_shared(0);
	/* a run starts on a machine idle for a while: the whole LLC may be scanned */
	assert_int_equal(sds->nr_idle_scan, 52);
	sds->nr_idle_scan = 0;
	update_idle_cpu_scan(mc, 0, 0);
	assert_int_equal(sds->nr_idle_scan, 52);
	update_idle_cpu_scan(mc, 0, 52 * 512);
	assert_int_equal(sds->nr_idle_scan, 34);
	update_idle_cpu_scan(mc, 0, 52 * 819);
	assert_int_equal(sds->nr_idle_scan, 6);
	update_idle_cpu_scan(mc, 0, 52 * 876);
	assert_int_equal(sds->nr_idle_scan, 0);
	/* only a pass over the LLC domain itself updates it */
	update_idle_cpu_scan(numa, 0, 0);
	update_idle_cpu_scan(sd_named(0, "SMT"), 0, 0);
	assert_int_equal(sds->nr_idle_scan, 0);
	/* the other socket's LLC keeps its own */
	update_idle_cpu_scan(sd_named(26, "MC"), 26, 52 * 512);
	assert_int_equal(llc_shared(26)->nr_idle_scan, 34);
	assert_int_equal(sds->nr_idle_scan, 0);
	/* NO_SIS_UTIL: left alone */
	sysctl_sched_features[__SCHED_FEAT_SIS_UTIL] = false;
	update_idle_cpu_scan(mc, 0, 0);
	assert_int_equal(sds->nr_idle_scan, 0);
	tl_teardown();
}

/* for_each_cpu_wrap: from start up, then from 0; live mask */
static void test_for_each_cpu_wrap(void **state)
{
	struct cpumask *m;
	unsigned int cpu, got[8], n = 0;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	m = alloc_cpumask();
	cpumask_setall(m);
	for_each_cpu_wrap(cpu, m, 2)
		got[n++] = cpu;
	assert_int_equal(n, 4);
	assert_int_equal(got[0], 2);
	assert_int_equal(got[1], 3);
	assert_int_equal(got[2], 0);
	assert_int_equal(got[3], 1);
	/* start == nr_cpu_ids: from 0 */
	n = 0;
	for_each_cpu_wrap(cpu, m, 4)
		got[n++] = cpu;
	assert_int_equal(n, 4);
	assert_int_equal(got[0], 0);
	/* CPUs cleared during the walk are skipped */
	n = 0;
	for_each_cpu_wrap(cpu, m, 1) {
		got[n++] = cpu;
		cpumask_clear_cpu(0, m);
	}
	assert_int_equal(n, 3);
	assert_int_equal(got[2], 3);
	free_cpumask(m);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sis_target_idle),
		cmocka_unit_test(test_sis_prev_idle_cache_affine),
		cmocka_unit_test(test_sis_prev_other_socket_not_taken),
		cmocka_unit_test(test_sis_recent_used_cpu),
		cmocka_unit_test(test_sis_asym_capacity),
		cmocka_unit_test(test_sis_idle_smt_sibling),
		cmocka_unit_test(test_sis_select_idle_core),
		cmocka_unit_test(test_sis_idle_cores_cleared),
		cmocka_unit_test(test_sis_util_scan_limit),
		cmocka_unit_test(test_sis_nothing_idle),
		cmocka_unit_test(test_wa_idle_this_idle),
		cmocka_unit_test(test_wa_idle_both_idle),
		cmocka_unit_test(test_wa_idle_sync),
		cmocka_unit_test(test_wa_idle_prev_idle),
		cmocka_unit_test(test_wa_weight),
		cmocka_unit_test(test_wa_no_features),
		cmocka_unit_test(test_record_wakee),
		cmocka_unit_test(test_wake_wide),
		cmocka_unit_test(test_wakeup_affine_vs_wide),
		cmocka_unit_test(test_wakeup_sync_stacks_on_waker),
		cmocka_unit_test(test_fork_spreads_packages_then_cores),
		cmocka_unit_test(test_fork_spreads_llcs),
		cmocka_unit_test(test_fork_busy_least_loaded),
		cmocka_unit_test(test_fork_cost),
		cmocka_unit_test(test_fork_smp1),
		cmocka_unit_test(test_update_idle_core),
		cmocka_unit_test(test_update_idle_cpu_scan),
		cmocka_unit_test(test_for_each_cpu_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
