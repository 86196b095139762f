// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ondemand and conservative governors (src/kernel/cpufreq_governor.c,
 * cpufreq_ondemand.c, cpufreq_conservative.c): their decisions on loads
 * built from each CPU's idle time, against hand-computed frequencies; the
 * sample run by the kworker as a task; the policy limits under every
 * governor; and the tunables' and limits' checks.
 */
#include "test_sched_helpers.h"

#include "kernel/cpufreq_governor.h"
#include "kernel/workqueue.h"

#define US NSEC_PER_USEC

static void setup_gov(const char *preset, const char *gov)
{
	char err[256];

	assert_int_equal(cpufreq_parse(gov, &cpufreq_boot_setup, err, sizeof(err)), 0);
	tl_setup(preset, TL_ZERO_COST, 0, NULL);
}

/* the tunables written before tl_setup() would outlive its teardown */
static void teardown(void)
{
	tl_teardown();
	sched_sysctl_reset();
}

static void set_sysctl(const char *assignment)
{
	char err[256];

	if (sched_sysctl_set(assignment, err, sizeof(err)))
		fail_msg("%s: %s", assignment, err);
}

/*
 * The next sample of CPU @cpu sees @wall_us more microseconds, @idle_us of
 * them idle: the CPU's cursor and idle residency move on, busy now.
 */
static void window(unsigned int cpu, u64 wall_us, u64 idle_us)
{
	struct sim_cpu *c = sim_cpu(cpu);

	sim_set_this_cpu(cpu);
	c->act = ACT_KERNEL;
	c->t += wall_us * US;
	c->act_since = c->t;
	c->time_in[ACT_IDLE] += idle_us * US;
}

/* the running governor's sample after window(), its delay; the policy ends at @khz */
static unsigned int sample_to(struct cpufreq_policy *policy, u64 wall_us, u64 idle_us,
			      unsigned int khz)
{
	unsigned int delay;

	window(policy->cpu, wall_us, idle_us);
	delay = cpufreq_current_setup()->governor == CPUFREQ_GOV_ONDEMAND ? od_dbs_update(policy) :
									    cs_dbs_update(policy);
	assert_int_equal(policy->cur, khz);
	return delay;
}

/*
 * smp4: one policy per CPU, 1.0 .. 2.0 GHz in 100 MHz steps, starting at
 * 2.0 GHz. sampling_rate: max(2 ticks = 8000 us at HZ=250, the 1000 us
 * transition delay) = 8000 us. ondemand's up_threshold is 95 (NO_HZ idle
 * accounting); below it freq = 1.0 GHz + load% x 1.0 GHz, the closest OPP
 * (ties go to the lower one).
 */
static void test_ondemand_decisions(void **state)
{
	static const struct {
		u64 idle_us; /* of a 10000 us window */
		unsigned int load, khz, delay_us;
	} steps[] = {
		{ 5000, 50, 1500000, 8000 }, /* 1.5 GHz exactly */
		{ 4650, 53, 1500000, 8000 }, /* 1.53: 1.5 is closer */
		{ 4500, 55, 1500000, 8000 }, /* 1.55: a tie, the lower */
		{ 4400, 56, 1600000, 8000 }, /* 1.56: 1.6 is closer */
		{ 10000, 0, 1000000, 8000 }, /* idle: the minimum */
		{ 500, 95, 1900000, 8000 }, /* 95 is not above 95: 1.95, a tie: 1.9 */
		{ 0, 100, 2000000, 24000 }, /* up from 1.9: sampling_down_factor 3 */
		{ 0, 100, 2000000, 24000 }, /* still busy: still stretched */
		{ 3000, 70, 1700000, 8000 }, /* no longer busy: rate_mult back to 1 */
		{ 300, 97, 2000000, 24000 }, { 8000, 20, 1200000, 8000 },
	};
	struct cpufreq_policy *policy;

	(void)state;
	set_sysctl("sampling_down_factor=3");
	setup_gov("smp4", "ondemand");
	policy = cpufreq_cpu_get(0);
	assert_int_equal(gov_dbs_data.sampling_rate, 8000);
	assert_int_equal(gov_dbs_data.up_threshold, 95);
	assert_int_equal(policy->cur, 2000000);
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		unsigned int delay;

		/* a window of 10000 us, under 2 x sampling_rate x rate_mult idle */
		delay = sample_to(policy, 10000, steps[i].idle_us, steps[i].khz);
		assert_int_equal(delay, steps[i].delay_us);
	}
	teardown();
}

/*
 * A CPU woken after a long idle gets its previous window's load once
 * (dbs_update()): 40 ms all idle after a 70% window is still 70%.
 */
static void test_ondemand_idle_wakeup(void **state)
{
	struct cpufreq_policy *policy;

	(void)state;
	setup_gov("smp4", "ondemand");
	policy = cpufreq_cpu_get(1);
	sample_to(policy, 10000, 3000, 1700000);
	sample_to(policy, 40000, 40000, 1700000); /* idle 40000 > 2 x 8000: the last load, 70% */
	sample_to(policy, 40000, 40000, 1000000); /* prev_load was cleared: now 0% */
	teardown();
}

/*
 * ignore_nice_load: niced user time (kcpustat CPUTIME_NICE) counts as
 * idle. A window all busy, half of it at nice > 0, is 50% (1.5 GHz); with
 * the tunable off it is 100% (the maximum).
 */
static void test_ignore_nice_load(void **state)
{
	struct cpufreq_policy *policy;

	(void)state;
	set_sysctl("ignore_nice_load=1");
	setup_gov("smp4", "ondemand");
	policy = cpufreq_cpu_get(2);
	cpu_rq(2)->kcpustat_nice += 5000 * US;
	sample_to(policy, 10000, 0, 1500000);
	teardown();
	setup_gov("smp4", "ondemand");
	policy = cpufreq_cpu_get(2);
	sample_to(policy, 10000, 5000, 1500000);
	cpu_rq(2)->kcpustat_nice += 5000 * US;
	sample_to(policy, 10000, 0, 2000000);
	teardown();
}

/* account_user_time(): a task at nice > 0 has its user time in CPUTIME_NICE */
static void test_nice_time_accounted(void **state)
{
	struct task_struct *niced, *plain;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	niced = tl_work_task("niced", &tl_busy_prog, 0);
	plain = tl_work_task("plain", &tl_busy_prog, 1);
	tl_set_nice(niced, 5);
	tl_run_until(100 * NSEC_PER_MSEC, true);
	assert_true(niced->utime > 90 * NSEC_PER_MSEC);
	assert_true(cpu_rq(0)->kcpustat_nice == niced->utime);
	assert_true(plain->utime > 90 * NSEC_PER_MSEC);
	assert_int_equal(cpu_rq(1)->kcpustat_nice, 0);
	teardown();
}

/*
 * powersave_bias 100 (10%): load 50 asks 1.5 GHz, less 10% = 1.35 GHz,
 * run as 1.4 GHz for (1350000 - 1300000) x 8000 / 100000 = 4000 us, then
 * 1.3 GHz for the other 4000 us (the sub-sample).
 */
static void test_ondemand_powersave_bias(void **state)
{
	struct cpufreq_policy *policy;

	(void)state;
	set_sysctl("powersave_bias=100");
	setup_gov("smp4", "ondemand");
	policy = cpufreq_cpu_get(0);
	assert_int_equal(sample_to(policy, 10000, 5000, 1400000), 4000);
	assert_int_equal(sample_to(policy, 4000, 2000, 1300000), 4000);
	teardown();
}

/*
 * conservative: freq_step 5% of 2.0 GHz = 100 MHz; up above 80, down
 * below 20, nothing between; a step down for each sampling period slept.
 */
static void test_conservative_decisions(void **state)
{
	struct cpufreq_policy *policy;
	struct policy_dbs_info *pd;

	(void)state;
	setup_gov("smp4", "conservative");
	policy = cpufreq_cpu_get(0);
	pd = policy->governor_data;
	assert_int_equal(gov_dbs_data.up_threshold, 80);
	assert_int_equal(gov_dbs_data.down_threshold, 20);
	assert_int_equal(gov_dbs_data.freq_step, 5);
	assert_int_equal(pd->requested_freq, 2000000);

	/* 50%: no change */
	assert_int_equal(sample_to(policy, 10000, 5000, 2000000), 8000);
	sample_to(policy, 10000, 9000, 1900000); /* 10%: one step down */
	sample_to(policy, 10000, 8500, 1800000); /* 15%: another */
	sample_to(policy, 10000, 1000, 1900000); /* 90%: one step up */
	assert_int_equal(pd->requested_freq, 1900000);
	/*
	 * 40 ms idle: 40000 / 8000 = 5 periods, 500 MHz off the request
	 * (1.4 GHz); the load is the last window's 90% (once), one step up
	 */
	sample_to(policy, 40000, 40000, 1500000);
	teardown();
}

/* sampling_down_factor 2: a decrease every second low sample */
static void test_conservative_down_factor(void **state)
{
	struct cpufreq_policy *policy;

	(void)state;
	set_sysctl("sampling_down_factor=2");
	setup_gov("smp4", "conservative");
	policy = cpufreq_cpu_get(0);
	sample_to(policy, 10000, 9500, 2000000);
	sample_to(policy, 10000, 9500, 1900000);
	sample_to(policy, 10000, 9500, 1900000);
	teardown();
}

/* 3 ms of work every 10 ms, forever */
static void periodic_next(struct work_task *w, struct op_desc *op)
{
	(void)w;
	if (op->kind == OP_RUN && op->ns)
		op_sleep(op, 7 * NSEC_PER_MSEC);
	else
		op_run(op, 3 * NSEC_PER_MSEC);
}

static const struct program periodic_prog = { .next = periodic_next };

/*
 * The sample runs on kworker/0:1, a task: it is woken for each sample
 * (by the irq_work the update hook queued), runs (its own runtime), and
 * the frequency it sets follows the 30% task down from the maximum.
 */
static void test_kworker_runs_sample(void **state)
{
	struct cpufreq_policy *policy;
	struct policy_dbs_info *pd;
	struct task_struct *kw;

	(void)state;
	char err[64];

	assert_int_equal(cpufreq_parse("ondemand", &cpufreq_boot_setup, err, sizeof(err)), 0);
	tl_setup("smp4", TL_REAL_COST, 0, NULL);
	kw = kworker_of(0);
	assert_non_null(kw);
	assert_string_equal(kw->comm, "kworker/0:1");
	assert_true(kw->kthread);
	assert_int_equal(kw->policy, SCHED_NORMAL);
	assert_int_equal(kw->nr_cpus_allowed, 1);
	assert_int_equal(kw->__state, TASK_INTERRUPTIBLE); /* asleep until work comes */
	tl_work_task("periodic", &periodic_prog, 0);
	tl_run_until(500 * NSEC_PER_MSEC, true);
	policy = cpufreq_cpu_get(0);
	pd = policy->governor_data;
	/* about 500 ms / (8 ms and the wait for the next hook) samples */
	assert_true(pd->nr_samples > 20);
	assert_true(kw->stats.nr_wakeups > 20);
	assert_true(kw->stats.nr_wakeups <= pd->nr_samples);
	assert_true(kw->se.sum_exec_runtime >= pd->nr_samples * machine.cost->dbs_update);
	assert_true(policy->cur < 2000000);
	assert_true(policy->nr_requests > 0);
	teardown();
}

/* scaling_min_freq 1.15 GHz -> 1.2 (up), scaling_max_freq 1.75 -> 1.7 (down) */
static void limits(const char *gov)
{
	set_sysctl("scaling_min_freq=1150000");
	set_sysctl("scaling_max_freq=1750000");
	setup_gov("smp4", gov);
	assert_int_equal(cpufreq_cpu_get(0)->min, 1200000);
	assert_int_equal(cpufreq_cpu_get(0)->max, 1700000);
}

static void test_limits_every_governor(void **state)
{
	struct cpufreq_policy *policy;

	(void)state;
	limits("performance");
	assert_int_equal(sim_cpu(0)->freq_khz, 1700000);
	assert_int_equal(sim_cpu(3)->freq_khz, 1700000);
	teardown();

	limits("powersave");
	assert_int_equal(sim_cpu(0)->freq_khz, 1200000);
	teardown();

	limits("userspace:1000000");
	assert_int_equal(sim_cpu(0)->freq_khz, 1200000);
	teardown();
	limits("userspace:2000000");
	assert_int_equal(sim_cpu(0)->freq_khz, 1700000);
	teardown();

	limits("schedutil");
	policy = cpufreq_cpu_get(0);
	policy->sg.cached_raw_freq = ~0U;
	assert_int_equal(get_next_freq(policy, 1280, 1024), 1700000);
	policy->sg.cached_raw_freq = ~0U;
	assert_int_equal(get_next_freq(policy, 0, 1024), 1200000);
	teardown();

	limits("ondemand");
	policy = cpufreq_cpu_get(0);
	assert_int_equal(policy->cur, 1700000); /* started within the limits */
	sample_to(policy, 10000, 0, 1700000);
	sample_to(policy, 10000, 10000, 1200000);
	teardown();

	limits("conservative");
	policy = cpufreq_cpu_get(0);
	/*
	 * freq_step is 5% of scaling_max_freq: 85 MHz. 1700 - 85 = 1615 MHz
	 * resolves (RELATION_L) to 1.7 GHz again; 1530 MHz to 1.6
	 */
	sample_to(policy, 10000, 9000, 1700000);
	assert_int_equal(((struct policy_dbs_info *)policy->governor_data)->requested_freq,
			 1615000);
	sample_to(policy, 10000, 9000, 1600000);
	teardown();
}

static void test_limits_check(void **state)
{
	char err[256];
	struct topology *t;

	(void)state;
	t = topology_load("smp4", err, sizeof(err));
	assert_non_null(t);
	sched_sysctl_reset();
	assert_int_equal(cpufreq_limits_check(t, err, sizeof(err)), 0);
	set_sysctl("scaling_max_freq=2500000");
	assert_int_equal(cpufreq_limits_check(t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "outside smp4's frequencies, 1000000..2000000 kHz"));
	sched_sysctl_reset();
	set_sysctl("scaling_min_freq=1800000");
	set_sysctl("scaling_max_freq=1500000");
	assert_int_equal(cpufreq_limits_check(t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "above scaling_max_freq"));
	topology_free(t);
	t = topology_load("power10-96", err, sizeof(err));
	assert_non_null(t);
	sched_sysctl_reset();
	set_sysctl("scaling_max_freq=1500000");
	assert_int_equal(cpufreq_limits_check(t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no cpufreq driver"));
	topology_free(t);
	sched_sysctl_reset();
}

static void test_tunables_check(void **state)
{
	char err[256];

	(void)state;
	sched_sysctl_reset();
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_ONDEMAND, 250, err, sizeof(err)), 0);
	set_sysctl("sampling_rate=7999");
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_ONDEMAND, 250, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "below two ticks (8000 us at HZ=250)"));
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_ONDEMAND, 1000, err, sizeof(err)), 0);
	sched_sysctl_reset();
	set_sysctl("powersave_bias=10");
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_CONSERVATIVE, 250, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a tunable of ondemand, not of the conservative governor"));
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_SCHEDUTIL, 250, err, sizeof(err)), -1);
	sched_sysctl_reset();
	set_sysctl("down_threshold=80");
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_CONSERVATIVE, 250, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "down_threshold (80) below up_threshold (80)"));
	set_sysctl("up_threshold=81");
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_CONSERVATIVE, 250, err, sizeof(err)), 0);
	sched_sysctl_reset();
	set_sysctl("sampling_down_factor=11");
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_CONSERVATIVE, 250, err, sizeof(err)), -1);
	assert_int_equal(dbs_check_tunables(CPUFREQ_GOV_ONDEMAND, 250, err, sizeof(err)), 0);
	sched_sysctl_reset();
	/* the table's own ranges */
	assert_int_equal(sched_sysctl_set("up_threshold=0", err, sizeof(err)), -1);
	assert_int_equal(sched_sysctl_set("up_threshold=101", err, sizeof(err)), -1);
	assert_int_equal(sched_sysctl_set("powersave_bias=1001", err, sizeof(err)), -1);
	assert_int_equal(sched_sysctl_set("freq_step=101", err, sizeof(err)), -1);
	assert_int_equal(sched_sysctl_set("ignore_nice_load=2", err, sizeof(err)), -1);
	sched_sysctl_reset();
}

/* the table relations, on smp4's 1.0 .. 2.0 GHz */
static void test_table_target(void **state)
{
	struct cpufreq_policy *p;

	(void)state;
	setup_gov("smp4", "performance");
	p = cpufreq_cpu_get(0);
	assert_int_equal(p->freq_table[cpufreq_frequency_table_target(p, 1449999, p->min, p->max,
								      CPUFREQ_RELATION_L)],
			 1500000);
	assert_int_equal(p->freq_table[cpufreq_frequency_table_target(p, 1449999, p->min, p->max,
								      CPUFREQ_RELATION_H)],
			 1400000);
	assert_int_equal(p->freq_table[cpufreq_frequency_table_target(p, 1449999, p->min, p->max,
								      CPUFREQ_RELATION_C)],
			 1400000);
	assert_int_equal(p->freq_table[cpufreq_frequency_table_target(p, 1450001, p->min, p->max,
								      CPUFREQ_RELATION_C)],
			 1500000);
	assert_int_equal(p->freq_table[cpufreq_frequency_table_target(p, 500000, p->min, p->max,
								      CPUFREQ_RELATION_H)],
			 1000000);
	teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ondemand_decisions),
		cmocka_unit_test(test_ondemand_idle_wakeup),
		cmocka_unit_test(test_nice_time_accounted),
		cmocka_unit_test(test_ignore_nice_load),
		cmocka_unit_test(test_ondemand_powersave_bias),
		cmocka_unit_test(test_conservative_decisions),
		cmocka_unit_test(test_conservative_down_factor),
		cmocka_unit_test(test_kworker_runs_sample),
		cmocka_unit_test(test_limits_every_governor),
		cmocka_unit_test(test_limits_check),
		cmocka_unit_test(test_tunables_check),
		cmocka_unit_test(test_table_target),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
