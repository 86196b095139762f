// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpufreq and schedutil (src/kernel/cpufreq.c): the 1.25 headroom,
 * get_next_freq() against hand-computed frequencies, the next-OPP-up
 * resolution of cpufreq_driver_resolve_freq(), rate limiting and its
 * defaults, a shared policy following its busiest CPU, and --cpufreq
 * parsing.
 */
#include "test_sched_helpers.h"

#include "kernel/cpufreq.h"

static void setup_gov(const char *preset, const char *gov)
{
	char err[256];

	assert_int_equal(cpufreq_parse(gov, &cpufreq_boot_setup, err, sizeof(err)), 0);
	tl_setup(preset, TL_ZERO_COST, 0, NULL);
}

static void test_map_util_perf(void **state)
{
	(void)state;
	assert_int_equal(map_util_perf(0), 0);
	assert_int_equal(map_util_perf(100), 125);
	assert_int_equal(map_util_perf(512), 640);
	assert_int_equal(map_util_perf(819), 1023);	/* 819 + 204 */
	assert_int_equal(map_util_perf(1024), 1280);
}

/*
 * smp4: one policy per CPU, 1.0 to 2.0 GHz in 100 MHz steps, capacity
 * 1024. freq = 2000000 * map_util_perf(util) / 1024, then the lowest OPP
 * at or above, within 1.0 .. 2.0 GHz.
 */
static void test_get_next_freq(void **state)
{
	static const struct {
		unsigned long util;
		unsigned int khz;
	} cases[] = {
		{ 0, 1000000 },	  /* 0 kHz: clamped to the minimum */
		{ 409, 1000000 }, /* 511: 998046 -> 1.0 GHz */
		{ 410, 1000000 }, /* 512: 1000000, exactly an OPP */
		{ 411, 1100000 }, /* 513: 1001953 -> 1.1 GHz */
		{ 512, 1300000 }, /* 640: 1250000 -> 1.3 GHz (next OPP up) */
		{ 700, 1800000 }, /* 875: 1708984 -> 1.8 GHz */
		{ 780, 2000000 }, /* 975: 1904296 -> 2.0 GHz */
		{ 820, 2000000 }, /* 1025: 2001953 -> clamped to 2.0 GHz */
		{ 1024, 2000000 },
	};
	struct cpufreq_policy *policy;

	(void)state;
	setup_gov("smp4", "schedutil");
	policy = cpufreq_cpu_get(0);
	assert_non_null(policy);
	assert_int_equal(policy->nr_cpus, 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* no cached raw frequency to short-cut to next_freq */
		policy->sg.cached_raw_freq = ~0U;
		assert_int_equal(get_next_freq(policy, map_util_perf(cases[i].util), 1024),
				 cases[i].khz);
	}
	tl_teardown();
}

/* RELATION_L: the lowest table frequency at or above the target, within min .. max */
static void test_resolve_freq(void **state)
{
	struct cpufreq_policy *policy;

	(void)state;
	setup_gov("westmere-ex-8s-80-noht", "schedutil");
	policy = cpufreq_cpu_get(0);
	/* 1067, 1200, 1333, ..., 2400 MHz */
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 1), 1067000);
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 1200000), 1200000);
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 1200001), 1333000);
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 2267001), 2400000);
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 9000000), 2400000);
	policy->max = 2000000;
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 2300000), 2000000);
	policy->min = 1600000;
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 1), 1600000);
	tl_teardown();
}

/* cpufreq_policy_transition_delay_us() per preset, and the sysctl over it */
static void test_rate_limit_defaults(void **state)
{
	static const struct {
		const char *preset;
		unsigned int us;
	} cases[] = {
		{ "smp2", 1000 },	     /* no latency: 1 ms */
		{ "xeon-8269cy-2s", 5000 },  /* intel_cpufreq's HWP delay */
		{ "altra-80", 150 },	     /* 100 us latency + 50% */
		{ "epyc-milan-2s-256", 15 }, /* 10 us + 50% */
		{ "pixel6", 750 },	     /* 500 us + 50% */
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setup_gov(cases[i].preset, "schedutil");
		assert_int_equal(cpufreq_policy_transition_delay_us(cpufreq_cpu_get(0)),
				 cases[i].us);
		assert_int_equal(cpufreq_cpu_get(0)->sg.freq_update_delay_ns,
				 (s64)cases[i].us * 1000);
		tl_teardown();
	}
	assert_int_equal(sched_sysctl_set("schedutil_rate_limit_us=200", err, sizeof(err)), 0);
	setup_gov("xeon-8269cy-2s", "schedutil");
	assert_int_equal(cpufreq_cpu_get(0)->sg.freq_update_delay_ns, 200000);
	tl_teardown();
	sched_sysctl_reset();
}

/* sugov_should_update_freq(): not before rate_limit_us since the last change */
static void test_rate_limit(void **state)
{
	struct cpufreq_policy *policy;
	u64 t0 = 5 * NSEC_PER_MSEC;

	(void)state;
	setup_gov("smp2", "schedutil");
	policy = cpufreq_cpu_get(1);
	policy->sg.last_freq_update_time = t0;
	assert_false(sugov_should_update_freq(policy, t0));
	assert_false(sugov_should_update_freq(policy, t0 + 999999));
	assert_true(sugov_should_update_freq(policy, t0 + 1000000));
	/* a limits change goes through at once, and once */
	policy->sg.limits_changed = true;
	assert_true(sugov_should_update_freq(policy, t0 + 1));
	policy->sg.need_freq_update = false;
	assert_false(sugov_should_update_freq(policy, t0 + 1));
	tl_teardown();
}

/*
 * A shared policy (Westmere-EX: one per package, CPUs 0-9 here) asks for
 * what its busiest CPU needs: util 700 on CPU 3 and 100 on CPU 0 give
 * map_util_perf(700) = 875 -> 2400000 * 875 / 1024 = 2050781 -> 2133 MHz,
 * whichever CPU's update triggers it.
 */
static void test_shared_policy_max(void **state)
{
	struct cpufreq_policy *policy;
	struct rq *rq0, *rq3;

	(void)state;
	setup_gov("westmere-ex-8s-80-noht", "schedutil");
	policy = cpufreq_cpu_get(0);
	assert_int_equal(policy->nr_cpus, 10);
	assert_ptr_equal(cpufreq_cpu_get(9), policy);
	assert_ptr_not_equal(cpufreq_cpu_get(10), policy);
	rq0 = cpu_rq(0);
	rq3 = cpu_rq(3);
	rq0->cfs.avg.util_avg = 100;
	rq3->cfs.avg.util_avg = 700;
	rq0->clock = 10 * NSEC_PER_MSEC;
	machine.this_cpu = 0;
	cpufreq_update_util(rq0, 0);
	assert_int_equal(policy->sg.next_freq, 2133000);
	assert_int_equal(policy->cur, 2133000);
	/* within the rate limit nothing changes, however low util goes */
	rq3->cfs.avg.util_avg = 0;
	rq0->clock += 5000;
	cpufreq_update_util(rq0, 0);
	assert_int_equal(policy->cur, 2133000);
	/* past it, the policy follows the busiest CPU down: 100 -> 125 -> 292968 -> min */
	rq0->clock += 20 * NSEC_PER_USEC;
	cpufreq_update_util(rq0, 0);
	assert_int_equal(policy->cur, 1067000);
	tl_teardown();
}

/* runnable boosting: max(util, runnable) when UTIL_RUNNABLE_BOOST is on */
static void test_runnable_boost(void **state)
{
	struct cpufreq_policy *policy;
	struct rq *rq;

	(void)state;
	setup_gov("smp2", "schedutil");
	policy = cpufreq_cpu_get(0);
	rq = cpu_rq(0);
	rq->cfs.avg.util_avg = 300;	/* 375: 732421 -> 1.0 GHz */
	rq->cfs.avg.runnable_avg = 700; /* 875: 1708984 -> 1.8 GHz */
	rq->clock = 10 * NSEC_PER_MSEC;
	machine.this_cpu = 0;
	cpufreq_update_util(rq, 0);
	assert_int_equal(policy->cur, 1800000);
	tl_teardown();

	assert_int_equal(cpufreq_parse("schedutil", &cpufreq_boot_setup, NULL, 0), 0);
	tl_setup("smp2", TL_ZERO_COST, 0, "NO_UTIL_RUNNABLE_BOOST");
	policy = cpufreq_cpu_get(0);
	rq = cpu_rq(0);
	rq->cfs.avg.util_avg = 300;
	rq->cfs.avg.runnable_avg = 700;
	rq->clock = 10 * NSEC_PER_MSEC;
	machine.this_cpu = 0;
	cpufreq_update_util(rq, 0);
	/* 1.0 GHz is where it would be without a change: the request still names it */
	assert_int_equal(policy->sg.next_freq, 1000000);
	tl_teardown();
	sched_feat_reset();
}

/*
 * The hardware: user work half done at 2 GHz when the clock drops to
 * 1 GHz takes twice as long for the other half; the residency counts
 * each part at its frequency.
 */
static void test_retime_user_work(void **state)
{
	struct sim_cpu *c;
	u64 t0, work = 4 * NSEC_PER_MSEC;

	(void)state;
	cpufreq_boot_setup = (struct cpufreq_setup){ .governor = CPUFREQ_GOV_PERFORMANCE };
	tl_setup("smp1", TL_ZERO_COST, 0, NULL);
	c = sim_cpu(0);
	t0 = machine.now;
	machine.this_cpu = 0;
	sim_cpu_run_user(0, work);
	assert_int_equal(c->step_ev->time, t0 + work);
	machine.now = t0 + work / 2;
	sim_cpu_set_freq(0, 1000000, 0);
	assert_int_equal(c->freq_khz, 1000000);
	assert_int_equal(c->step_ev->time, t0 + work / 2 + work);
	assert_int_equal(c->nr_freq_transitions, 1);
	assert_int_equal(c->opp_time[machine.topo->cpus[0].nr_opps - 1], work / 2);
	/* back, and out of user mode, for the teardown's checks */
	sim_cpu_set_freq(0, c->max_freq_khz, machine.topo->cpus[0].nr_opps - 1);
	assert_int_equal(c->step_ev->time, t0 + work);
	sim_cancel(c->step_ev);
	cpu_set_activity(c, ACT_IDLE);
	tl_teardown();
}

static void test_parse(void **state)
{
	struct cpufreq_setup s;
	char err[256];

	(void)state;
	assert_int_equal(cpufreq_parse("schedutil", &s, err, sizeof(err)), 0);
	assert_int_equal(s.governor, CPUFREQ_GOV_SCHEDUTIL);
	assert_int_equal(cpufreq_parse("userspace:1500000", &s, err, sizeof(err)), 0);
	assert_int_equal(s.governor, CPUFREQ_GOV_USERSPACE);
	assert_int_equal(s.setspeed_khz, 1500000);
	assert_int_equal(cpufreq_parse("interactive", &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown governor"));
	assert_int_equal(cpufreq_parse("userspace", &s, err, sizeof(err)), -1);
	assert_int_equal(cpufreq_parse("userspace:", &s, err, sizeof(err)), -1);
	assert_int_equal(cpufreq_parse("userspace:0", &s, err, sizeof(err)), -1);
	assert_int_equal(cpufreq_parse("userspace:1.5GHz", &s, err, sizeof(err)), -1);
	assert_int_equal(cpufreq_parse("userspace:-5", &s, err, sizeof(err)), -1);
	assert_int_equal(cpufreq_parse("schedutil:10", &s, err, sizeof(err)), -1);
	assert_int_equal(cpufreq_parse("", &s, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_util_perf),
		cmocka_unit_test(test_get_next_freq),
		cmocka_unit_test(test_resolve_freq),
		cmocka_unit_test(test_rate_limit_defaults),
		cmocka_unit_test(test_rate_limit),
		cmocka_unit_test(test_shared_policy_max),
		cmocka_unit_test(test_runnable_boost),
		cmocka_unit_test(test_retime_user_work),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
