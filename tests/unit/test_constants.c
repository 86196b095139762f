// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every kernel constant schedlab's scheduler uses, with the v6.18 file and
 * function it comes from, asserted. A deviation from v6.18 fails here first,
 * wherever it came from. Constants whose value depends on the machine (the
 * scaled base slice, domain intervals, imb_numa_nr) are checked per preset.
 *
 * Where a value is not a named constant in schedlab, the check goes through
 * the state the constant produces (a sysctl default, a domain's field).
 */
#include "test_sched_helpers.h"

#include "kernel/domains.h"
#include "kernel/fair_lb.h"
#include "kernel/pelt.h"
#include "topo/topology.h"

/* ---- tunables (kernel/sched/fair.c, core.c) ---- */

static void test_sysctl_defaults(void **state)
{
	(void)state;
	sched_sysctl_reset();
	/* fair.c: normalized_sysctl_sched_base_slice = 700000ULL */
	assert_int_equal(sysctl_sched.normalized_base_slice_ns, 700000);
	/* fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG */
	assert_int_equal(sysctl_sched.tunable_scaling, SCHED_TUNABLESCALING_LOG);
	assert_int_equal(SCHED_TUNABLESCALING_NONE, 0);
	assert_int_equal(SCHED_TUNABLESCALING_LOG, 1);
	assert_int_equal(SCHED_TUNABLESCALING_LINEAR, 2);
	/* fair.c: sysctl_sched_migration_cost = 500000UL */
	assert_int_equal(sysctl_sched.migration_cost_ns, 500000);
	/* core.c: sysctl_sched_nr_migrate = SCHED_NR_MIGRATE (32) */
	assert_int_equal(sysctl_sched.nr_migrate, 32);
	/* core.c: sysctl_resched_latency_warn_ms = 100, _once = 1 */
	assert_int_equal(sysctl_sched.latency_warn_ms, 100);
	assert_int_equal(sysctl_sched.latency_warn_once, 1);
	/* deadline.c sched_init_dl_servers(): runtime 50 * NSEC_PER_MSEC, period 1000 * NSEC_PER_MSEC */
	assert_int_equal(sysctl_sched.fair_server_runtime_ns, 50000000);
	assert_int_equal(sysctl_sched.fair_server_period_ns, 1000000000);
	/* sched.h: BW_SHIFT 20, DL_SCALE 10; ENQUEUE_REPLENISH 0x20 */
	assert_int_equal(BW_SHIFT, 20);
	assert_int_equal(BW_UNIT, 1 << 20);
	assert_int_equal(DL_SCALE, 10);
	assert_int_equal(ENQUEUE_REPLENISH, 0x20);
	/* Debian's and most distributions' CONFIG_HZ_250 */
	assert_int_equal(sysctl_sched.hz, 250);
	assert_int_equal(sysctl_sched.preempt, PREEMPT_VOLUNTARY_MODEL);
	/* topology.c: sysctl_sched_energy_aware = 1 */
	assert_int_equal(sysctl_sched.energy_aware, 1);
	/* Debian's amd64 config (6.12) and x86_64_defconfig: no CONFIG_IRQ_TIME_ACCOUNTING */
	assert_int_equal(sysctl_sched.irqtime, 0);
	/* init/Kconfig: CONFIG_UCLAMP_BUCKETS_COUNT default 5; core.c UCLAMP_BUCKET_DELTA */
	assert_int_equal(UCLAMP_BUCKETS, 5);
	assert_int_equal(UCLAMP_BUCKET_DELTA, 205);
	/* uapi/linux/sched.h: SCHED_FLAG_KEEP_POLICY 0x08 .. SCHED_FLAG_UTIL_CLAMP_MAX 0x40 */
	assert_int_equal(SCHED_FLAG_KEEP_POLICY, 0x08);
	assert_int_equal(SCHED_FLAG_KEEP_PARAMS, 0x10);
	assert_int_equal(SCHED_FLAG_UTIL_CLAMP_MIN, 0x20);
	assert_int_equal(SCHED_FLAG_UTIL_CLAMP_MAX, 0x40);
	/* energy_model.h: EM_MAX_POWER 64000000 (64 W in uW) */
	assert_int_equal(EM_MAX_POWER_UW, 64000000);
}

/*
 * fair.c get_update_sysctl_factor()/update_sysctl() from
 * sched_init_granularity(): the effective slice is factor x 700 us with
 * factor 1 + ilog2(min(nr_cpus, 8)): 0.7 ms on 1 CPU, 1.4 ms on 2, 2.1 ms
 * on 4 (and 3), 2.8 ms on 8 or more.
 */
static const struct {
	const char *preset;
	u64 slice;
} preset_slices[] = {
	{ "smp1", 700000 },
	{ "smp2", 1400000 },
	{ "smp4", 2100000 },
	{ "smp8", 2800000 },
	{ "smt2-2s-16", 2800000 },
	{ "power10-96", 2800000 },
	{ "xeon-8269cy-2s", 2800000 },
	{ "altra-80", 2800000 },
	{ "altra-2s-160", 2800000 },
	{ "icelake-2s-128", 2800000 },
	{ "epyc-milan-2s-256", 2800000 },
	{ "westmere-ex-8s-160", 2800000 },
	{ "westmere-ex-8s-80-noht", 2800000 },
	{ "pixel6", 2800000 },
	{ "alderlake-i9-12900k", 2800000 },
	{ "arm64-2x4", 2800000 },
};

static void test_base_slice_scaled_per_preset(void **state)
{
	(void)state;
	/* every preset is in the table */
	for (unsigned int m = 0; m < nr_machine_presets; m++) {
		const char *name = machine_presets[m].name;
		bool found = false;

		for (size_t i = 0; i < ARRAY_SIZE(preset_slices); i++)
			found |= !strcmp(preset_slices[i].preset, name);
		if (!found)
			fail_msg("preset %s has no expected base slice here", name);
	}
	for (size_t i = 0; i < ARRAY_SIZE(preset_slices); i++) {
		sched_sysctl_reset();
		tl_setup(preset_slices[i].preset, TL_ZERO_COST, 0, NULL);
		if (sysctl_sched.base_slice_ns != preset_slices[i].slice)
			fail_msg("%s: base slice %llu, expected %llu", preset_slices[i].preset,
				 (unsigned long long)sysctl_sched.base_slice_ns,
				 (unsigned long long)preset_slices[i].slice);
		/* the normalized value is untouched (RUN_TO_PARITY's fallback quantum) */
		assert_int_equal(sysctl_sched.normalized_base_slice_ns, 700000);
		tl_teardown();
	}
	sched_sysctl_reset();
}

/* the same with the other two scaling policies, and a debugfs-style write */
static void test_base_slice_policies_and_write(void **state)
{
	static const struct {
		const char *sysctl, *preset;
		u64 slice;
	} cases[] = {
		{ "tunable_scaling=0", "xeon-8269cy-2s", 700000 },
		{ "tunable_scaling=2", "xeon-8269cy-2s", 5600000 },	/* 8 x, capped at 8 CPUs */
		{ "tunable_scaling=2", "smp4", 2800000 },		/* 4 x */
		{ "tunable_scaling=1", "smp2", 1400000 },
		{ "base_slice_ns=1000000", "xeon-8269cy-2s", 1000000 },	/* the effective value */
		{ "base_slice_ns=3000000", "smp1", 3000000 },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		sched_sysctl_reset();
		assert_int_equal(sched_sysctl_set(cases[i].sysctl, err, sizeof(err)), 0);
		tl_setup(cases[i].preset, TL_ZERO_COST, 0, NULL);
		if (sysctl_sched.base_slice_ns != cases[i].slice)
			fail_msg("%s on %s: base slice %llu, expected %llu", cases[i].sysctl,
				 cases[i].preset, (unsigned long long)sysctl_sched.base_slice_ns,
				 (unsigned long long)cases[i].slice);
		tl_teardown();
	}
	sched_sysctl_reset();
	assert_int_equal(sched_sysctl_set("tunable_scaling=3", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "0..2"));
}

/* a new task's slice is the scaled one (core.c __sched_fork, fair.c place_entity) */
static void test_task_slice_is_scaled(void **state)
{
	struct task_struct *p;

	(void)state;
	sched_sysctl_reset();
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	p = tl_fork("t", 0);
	assert_int_equal(p->se.slice, 2100000);
	tl_teardown();
}

/* ---- weights (core.c sched_prio_to_weight[], sched_prio_to_wmult[]) ---- */

static void test_weights(void **state)
{
	(void)state;
	assert_int_equal(sched_prio_to_weight[0], 88761);	/* nice -20 */
	assert_int_equal(sched_prio_to_weight[20], 1024);	/* nice 0 */
	assert_int_equal(sched_prio_to_weight[39], 15);		/* nice 19 */
	assert_int_equal(sched_prio_to_wmult[0], 48388);
	assert_int_equal(sched_prio_to_wmult[20], 4194304);
	assert_int_equal(sched_prio_to_wmult[39], 286331153);
	/* sched.h: NICE_0_LOAD is scaled by SCHED_FIXEDPOINT_SHIFT on 64-bit */
	assert_int_equal(SCHED_FIXEDPOINT_SHIFT, 10);
	assert_int_equal(NICE_0_LOAD, 1UL << 20);
	assert_int_equal(WMULT_SHIFT, 32);
}

/* ---- PELT (sched-pelt.h, pelt.c, sched.h util_est) ---- */

static void test_pelt_constants(void **state)
{
	(void)state;
	assert_int_equal(LOAD_AVG_PERIOD, 32);
	assert_int_equal(LOAD_AVG_MAX, 47742);
	/* pelt.h: PELT_MIN_DIVIDER = LOAD_AVG_MAX - 1024 */
	assert_int_equal(PELT_MIN_DIVIDER, 46718);
	/* sched-pelt.h runnable_avg_yN_inv[]: y^n * 2^32, y^32 = 1/2 */
	assert_int_equal(runnable_avg_yN_inv[0], 0xffffffffU);
	assert_int_equal(runnable_avg_yN_inv[1], 0xfa83b2daU);
	assert_int_equal(runnable_avg_yN_inv[16], 0xb504f333U);	/* sqrt(1/2) */
	assert_int_equal(runnable_avg_yN_inv[31], 0x82cd8698U);
	/* sched.h UTIL_EST_WEIGHT_SHIFT, fair.c UTIL_EST_MARGIN */
	assert_int_equal(UTIL_EST_WEIGHT_SHIFT, 2);
	assert_int_equal(UTIL_EST_MARGIN, 10);
	assert_int_equal(SCHED_CAPACITY_SCALE, 1024);
}

/* ---- load balancing (fair.c) ---- */

static void test_balance_constants(void **state)
{
	(void)state;
	/* fair.c SCHED_NR_MIGRATE_BREAK */
	assert_int_equal(SCHED_NR_MIGRATE_BREAK, 8);
	/* fair.c detach_tasks(): LB_MIN skips load < 16 */
	assert_int_equal(LB_MIN_LOAD, 16);
	/* fair.c MAX_PINNED_INTERVAL */
	assert_int_equal(MAX_PINNED_INTERVAL, 512);
	/* fair.c NUMA_IMBALANCE_MIN (adjust_numa_imbalance()) */
	assert_int_equal(NUMA_IMBALANCE_MIN, 2);
	/* fair.c update_newidle_cost(): * 253 / 256 per second, cap + 200 ns */
	assert_int_equal(NEWIDLE_COST_DECAY_NUM, 253);
	assert_int_equal(NEWIDLE_COST_DECAY_DEN, 256);
	assert_int_equal(NEWIDLE_COST_CAP_SLACK_NS, 200);
	/* core.c update_avg(): 1/8 of each sample (avg_idle) */
	assert_int_equal(SCHED_UPDATE_AVG_DIV, 8);
}

/* sched_init(): avg_idle starts at 2 x migration cost, max_idle_balance_cost at it */
static void test_rq_initial_values(void **state)
{
	(void)state;
	sched_sysctl_reset();
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	assert_int_equal(cpu_rq(1)->avg_idle, 1000000);
	assert_int_equal(cpu_rq(1)->max_idle_balance_cost, 500000);
	tl_teardown();
}

/*
 * topology.c sd_init(): busy_factor 16, imbalance_pct 117 (110 with
 * SD_SHARE_CPUCAPACITY), cache_nice_tries 0 for SMT, 1 for the LLC and
 * non-NUMA levels, 2 for NUMA; min_interval = weight, max_interval =
 * 2 x weight. build_sched_domains(): imb_numa_nr, 1/8 of a single-LLC node
 * (6 on the 52-CPU Xeon node) or the number of LLCs (8 CCXs on EPYC).
 */
static void test_domain_parameters(void **state)
{
	static const struct {
		const char *preset, *level;
		unsigned int imbalance_pct, cache_nice_tries, imb_numa_nr;
	} cases[] = {
		{ "xeon-8269cy-2s", "SMT", 110, 0, 0 },
		{ "xeon-8269cy-2s", "MC", 117, 1, 0 },
		{ "xeon-8269cy-2s", "NUMA", 117, 2, 6 },
		{ "epyc-milan-2s-256", "PKG", 117, 1, 8 },
		{ "altra-2s-160", "NUMA", 117, 2, 40 },
		{ "arm64-2x4", "MC", 117, 1, 0 },
		{ "arm64-2x4", "PKG", 117, 1, 2 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sched_domain *sd;

		tl_setup(cases[i].preset, TL_ZERO_COST, 0, NULL);
		sd = tl_sd(0, cases[i].level);
		assert_int_equal(sd->busy_factor, 16);
		assert_int_equal(sd->imbalance_pct, cases[i].imbalance_pct);
		assert_int_equal(sd->cache_nice_tries, cases[i].cache_nice_tries);
		assert_int_equal(sd->imb_numa_nr, cases[i].imb_numa_nr);
		assert_int_equal(sd->min_interval, sd->span_weight);
		assert_int_equal(sd->max_interval, 2 * sd->span_weight);
		tl_teardown();
	}
}

/*
 * fair.c update_idle_cpu_scan() (SIS_UTIL): nr_idle_scan = llc_weight x
 * (1 - (util x pct / 100)^2); with imbalance_pct 117 on an 8-CPU LLC at 50%
 * utilisation: x = 512, 512^2 x 117^2 / (10000 x 1024) = 350, y = 674,
 * 674 x 8 / 1024 = 5 CPUs; it reaches 0 at 100/117 = 85.5%.
 */
static void test_sis_util_scan(void **state)
{
	struct sched_domain *sd;

	(void)state;
	tl_setup("smp8", TL_ZERO_COST, 0, NULL);
	sd = tl_sd(0, "MC");
	assert_int_equal(sd->imbalance_pct, 117);
	update_idle_cpu_scan(sd, 0, 8 * 512);
	assert_int_equal(per_cpu(sd_llc_shared, 0)->nr_idle_scan, 5);
	update_idle_cpu_scan(sd, 0, 8 * 876);
	assert_int_equal(per_cpu(sd_llc_shared, 0)->nr_idle_scan, 0);
	update_idle_cpu_scan(sd, 0, 0);
	assert_int_equal(per_cpu(sd_llc_shared, 0)->nr_idle_scan, 8);
	tl_teardown();
}

/* ---- topology (include/linux/topology.h) ---- */

static void test_topology_constants(void **state)
{
	(void)state;
	assert_int_equal(LOCAL_DISTANCE, 10);
	assert_int_equal(RECLAIM_DISTANCE, 30);
}

/* ---- policies and the RT class (include/uapi/linux/sched.h, sched/prio.h, rt.h) ---- */

static void test_policy_constants(void **state)
{
	(void)state;
	/* include/uapi/linux/sched.h */
	assert_int_equal(SCHED_NORMAL, 0);
	assert_int_equal(SCHED_FIFO, 1);
	assert_int_equal(SCHED_RR, 2);
	assert_int_equal(SCHED_BATCH, 3);
	assert_int_equal(SCHED_IDLE, 5);
	/* include/linux/sched/prio.h: MAX_RT_PRIO 100, MAX_PRIO 140, DEFAULT_PRIO 120 */
	assert_int_equal(MAX_RT_PRIO, 100);
	assert_int_equal(MAX_PRIO, 140);
	assert_int_equal(DEFAULT_PRIO, 120);
	/* kernel/sched/sched.h: WEIGHT_IDLEPRIO 3, WMULT_IDLEPRIO 1431655765 */
	assert_int_equal(WEIGHT_IDLEPRIO, 3);
	assert_int_equal(WMULT_IDLEPRIO, 1431655765);
	/* include/linux/sched/rt.h: RR_TIMESLICE (100 * HZ / 1000) */
	assert_int_equal(RR_TIMESLICE_MS, 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysctl_defaults),
		cmocka_unit_test(test_policy_constants),
		cmocka_unit_test(test_base_slice_scaled_per_preset),
		cmocka_unit_test(test_base_slice_policies_and_write),
		cmocka_unit_test(test_task_slice_is_scaled),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_pelt_constants),
		cmocka_unit_test(test_balance_constants),
		cmocka_unit_test(test_rq_initial_values),
		cmocka_unit_test(test_domain_parameters),
		cmocka_unit_test(test_sis_util_scan),
		cmocka_unit_test(test_topology_constants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
