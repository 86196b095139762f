// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpufreq and schedutil (src/kernel/cpufreq.c): the 1.25 headroom,
 * get_next_freq() against hand-computed frequencies, the next-OPP-up
 * resolution of cpufreq_driver_resolve_freq(), rate limiting and its
 * defaults, a shared policy following its busiest CPU, --cpufreq
 * parsing, and the slow path of a driver without fast switch (the
 * irq_work, the sugov:N kthread as a special DL task, work_in_progress).
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
		{ "altra-80", 110 },	     /* cppc_cpufreq's own: the PCC turnaround */
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
	sim_set_this_cpu(0);
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
	sim_set_this_cpu(0);
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
	sim_set_this_cpu(0);
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
	sim_set_this_cpu(0);
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

/* the drivers' policy->fast_switch_possible, and the machine file's word over it */
static void test_fast_switch_possible(void **state)
{
	struct cpufreq_desc d = { 0 };

	(void)state;
	snprintf(d.driver, sizeof(d.driver), "acpi-cpufreq");
	assert_true(cpufreq_fast_switch_possible(&d, 1));
	assert_false(cpufreq_fast_switch_possible(&d, 2)); /* shared: SW_ALL */
	d.fast_switch = CPUFREQ_FAST_SWITCH_YES;	    /* SW_ANY */
	assert_true(cpufreq_fast_switch_possible(&d, 2));
	d.fast_switch = CPUFREQ_FAST_SWITCH_DRIVER;
	snprintf(d.driver, sizeof(d.driver), "cppc_cpufreq");
	assert_false(cpufreq_fast_switch_possible(&d, 1));
	d.fast_switch = CPUFREQ_FAST_SWITCH_YES; /* registers in SystemMemory */
	assert_true(cpufreq_fast_switch_possible(&d, 1));
	d.fast_switch = CPUFREQ_FAST_SWITCH_DRIVER;
	snprintf(d.driver, sizeof(d.driver), "intel_cpufreq");
	assert_true(cpufreq_fast_switch_possible(&d, 1));
	d.fast_switch = CPUFREQ_FAST_SWITCH_NO;
	assert_false(cpufreq_fast_switch_possible(&d, 1));

	/* the presets: Altra's PCC has no fast switch and a kthread per policy */
	setup_gov("altra-80", "schedutil");
	assert_false(cpufreq_cpu_get(79)->fast_switch_enabled);
	assert_non_null(sugov_thread(cpufreq_cpu_get(79)));
	assert_string_equal(sugov_thread(cpufreq_cpu_get(79))->comm, "sugov:79");
	tl_teardown();
	setup_gov("xeon-8269cy-2s", "schedutil");
	assert_true(cpufreq_cpu_get(0)->fast_switch_enabled);
	assert_null(sugov_thread(cpufreq_cpu_get(0)));
	tl_teardown();
	/* other governors start no kthread */
	setup_gov("altra-80", "powersave");
	assert_null(sugov_thread(cpufreq_cpu_get(0)));
	tl_teardown();
}

/*
 * A schedutil request on CPU 0 of altra-80 (cppc_cpufreq over PCC, no fast
 * switch) with a fair task running: the hook only records next_freq and
 * queues the irq_work; its interrupt wakes sugov:0, a special DL task
 * (1 ms / 10 ms / 10 ms, SCHED_FLAG_SUGOV) that preempts the fair task;
 * the frequency changes when it runs sugov_work(), and it sleeps again.
 */
static void test_slow_path(void **state)
{
	struct cpufreq_policy *policy;
	struct task_struct *p, *f;
	unsigned int old, next;
	struct rq *rq;

	(void)state;
	setup_gov("altra-80", "schedutil");
	policy = cpufreq_cpu_get(0);
	p = sugov_thread(policy);
	assert_non_null(p);
	assert_true(dl_task(p));
	assert_false(rt_task(p));
	assert_true(p->dl.flags & SCHED_FLAG_SUGOV);
	assert_int_equal(p->dl.dl_runtime, NSEC_PER_MSEC);
	assert_int_equal(p->dl.dl_deadline, 10 * NSEC_PER_MSEC);
	assert_int_equal(p->dl.dl_period, 10 * NSEC_PER_MSEC);
	assert_int_equal(p->nr_cpus_allowed, 1);
	assert_int_equal(p->__state, TASK_INTERRUPTIBLE);

	f = tl_fork_running("busy", 0);
	rq = tl_cpu(0);
	rq->cfs.avg.util_avg = 300;
	rq->cfs.avg.runnable_avg = 300;
	rq->clock = 10 * NSEC_PER_MSEC;
	old = policy->cur;
	cpufreq_update_util(rq, 0);
	next = policy->sg.next_freq;
	assert_true(next < old);
	assert_true(policy->sg.work_in_progress);
	/* nothing reached the driver yet: the irq_work waits on this CPU's queue */
	assert_int_equal(policy->cur, old);
	assert_int_equal(policy->nr_requests, 0);
	assert_non_null(rq->csd_list);
	assert_int_equal(sugov_nr_work(policy), 0);

	/* its interrupt: kthread_queue_work() wakes sugov:0, which preempts the fair task */
	tl_deliver_ipis();
	assert_true(task_on_rq_queued(p));
	assert_true(p->dl.on_dl_rq);
	assert_true(rq->need_resched);
	assert_int_equal(policy->cur, old);
	assert_ptr_equal(tl_schedule(), p);
	assert_true(task_on_rq_queued(f));
	/* a new CBS instance from the wakeup: a full runtime, deadline 10 ms on */
	assert_int_equal(p->dl.deadline, rq->clock + 10 * NSEC_PER_MSEC);
	tl_check();

	/* kthread_worker_fn(): sugov_work() asks the driver */
	p->exec->step(p);
	assert_int_equal(policy->cur, next);
	assert_int_equal(policy->nr_requests, 1);
	assert_int_equal(sugov_nr_work(policy), 1);
	assert_false(policy->sg.work_in_progress);
	/* nothing more queued: it sleeps, and the fair task runs again */
	p->exec->step(p);
	assert_false(task_on_rq_queued(p));
	assert_false(p->dl.on_dl_rq);
	assert_ptr_equal(rq->curr, f);
	/* a special entity's runtime is never charged: no throttling */
	assert_int_equal(p->dl.runtime, (s64)NSEC_PER_MSEC);
	tl_check();
	tl_teardown();
}

static unsigned int nr_csd(const struct rq *rq)
{
	unsigned int n = 0;

	for (const struct call_single_data *c = rq->csd_list; c; c = c->next)
		n++;
	return n;
}

/*
 * The slow path's rate limit and work_in_progress: within rate_limit_us
 * (110 us on Altra) a second update changes nothing; past it next_freq
 * moves, but with the first request still on its way no second irq_work
 * is queued, and the kthread, when it runs, asks for the newest frequency
 * only once.
 */
static void test_slow_path_holds_back(void **state)
{
	struct cpufreq_policy *policy;
	struct task_struct *p;
	unsigned int first;
	u64 t0 = 10 * NSEC_PER_MSEC;
	struct rq *rq;

	(void)state;
	setup_gov("altra-80", "schedutil");
	policy = cpufreq_cpu_get(0);
	p = sugov_thread(policy);
	rq = tl_cpu(0);
	rq->cfs.avg.util_avg = rq->cfs.avg.runnable_avg = 200;
	rq->clock = t0;
	cpufreq_update_util(rq, 0);
	first = policy->sg.next_freq;
	assert_int_equal(nr_csd(rq), 1);

	/* within the rate limit: nothing */
	rq->cfs.avg.util_avg = rq->cfs.avg.runnable_avg = 700;
	rq->clock = t0 + 100 * NSEC_PER_USEC;
	cpufreq_update_util(rq, 0);
	assert_int_equal(policy->sg.next_freq, first);

	/* past it: a new next_freq, the same irq_work still on its way */
	rq->clock = t0 + 110 * NSEC_PER_USEC;
	cpufreq_update_util(rq, 0);
	assert_true(policy->sg.next_freq > first);
	assert_true(policy->sg.work_in_progress);
	assert_int_equal(nr_csd(rq), 1);

	/* the idle CPU switches to the kthread, which asks for the newest once */
	tl_deliver_ipis();
	assert_ptr_equal(tl_schedule(), p);
	p->exec->step(p);
	assert_int_equal(policy->cur, policy->sg.next_freq);
	assert_int_equal(policy->nr_requests, 1);
	assert_int_equal(sugov_nr_work(policy), 1);
	p->exec->step(p);
	assert_true(is_idle_task(rq->curr));
	tl_check();
	tl_teardown();
}

/*
 * cppc_cpufreq over PCC on altra-80, with its costs: one CPPC channel per
 * socket, 100 us per command and a 110 us turnaround between commands.
 * Busy tasks starting together on 40 CPUs of socket 0 ramp their policies'
 * requests at once. Every request is carried by exactly one command (its
 * own, or one it joined after sleeping in down_read() for the command in
 * flight); no two commands overlap, each waits the turnaround, so the
 * channel sends at most one every 210 us; some requests found it busy and
 * were batched.
 */
static void test_pcc_channel_serializes(void **state)
{
	const u64 t_end = 20 * NSEC_PER_MSEC, per_cmd = 210 * NSEC_PER_USEC;
	const struct pcc_channel *ch;
	char err[256];
	u64 reqs = 0;

	(void)state;
	assert_int_equal(cpufreq_parse("schedutil", &cpufreq_boot_setup, err, sizeof(err)), 0);
	tl_setup("altra-80", TL_REAL_COST, 0, NULL);
	assert_int_equal(machine.cost->cpufreq_target, 100 * NSEC_PER_USEC);
	assert_int_equal(machine.cost->cpufreq_pcc_turnaround, 110 * NSEC_PER_USEC);
	for (unsigned int cpu = 0; cpu < 40; cpu++)
		tl_start_prog("busy", &tl_busy_prog, NULL, NULL, cpu);
	tl_run_until(t_end, true);
	ch = cpufreq_cpu_get(0)->pcc;
	assert_non_null(ch);
	/* socket 0's policies share it */
	assert_ptr_equal(cpufreq_cpu_get(39)->pcc, ch);
	for (unsigned int i = 0; i < nr_cpufreq_policies; i++)
		reqs += cpufreq_policies[i].nr_requests;
	assert_true(reqs >= 40);
	assert_int_equal(ch->nr_cmds + ch->nr_joined, reqs);
	assert_true(ch->nr_cmds * per_cmd <= t_end + per_cmd);
	/*
	 * the first request's command holds the channel while the other 39
	 * arrive: they sleep, are released together and go in few commands
	 * (one each would take 39 x 210 us)
	 */
	assert_true(ch->nr_waits >= 39);
	assert_true(ch->nr_cmds < 5);
	assert_true(ch->nr_joined > 30);
	/* and each of them got its frequency */
	for (unsigned int cpu = 0; cpu < 40; cpu++)
		assert_int_equal(cpufreq_cpu_get(cpu)->hw_target, cpufreq_cpu_get(cpu)->cur);
	tl_teardown();
}

/*
 * The iowait boost through the real wakeup path: a task with in_iowait set
 * (what io_schedule() does) woken on CPU 0 makes enqueue_task_fair() call
 * schedutil with SCHED_CPUFREQ_IOWAIT. The first such wakeup boosts by
 * IOWAIT_BOOST_MIN (128), the next doubles it; a wakeup without I/O does
 * not, and an update without a new request halves it; more than a tick
 * later a request starts again from the minimum. The clocks stand still
 * after the first millisecond (zero costs), so no PELT update calls
 * schedutil between (no decay, no attach), and the rate limit is 0 so that
 * every call applies the boost.
 */
static void test_iowait_boost(void **state)
{
	const struct sugov_cpu *sg = NULL;
	struct cpufreq_policy *policy;
	struct task_struct *p;
	char err[256];
	struct rq *rq;

	(void)state;
	assert_int_equal(sched_sysctl_set("schedutil_rate_limit_us=0", err, sizeof(err)), 0);
	setup_gov("smp2", "schedutil");
	policy = cpufreq_cpu_get(0);
	sg = sugov_cpu_of(0);
	/*
	 * off clock 0 before the fork, where PELT would take the entity for
	 * never attached (and attach it again at each enqueue, calling schedutil)
	 */
	rq = tl_cpu(0);
	tl_advance(NSEC_PER_MSEC);
	p = tl_fork_running("io", 0);

	for (unsigned int i = 0; i < 4; i++) {
		bool io = i != 2;

		assert_ptr_equal(tl_block_current(), rq->idle);
		p->in_iowait = io;
		assert_int_equal(try_to_wake_up(p, TASK_NORMAL, 0), 1);
		assert_ptr_equal(tl_schedule(), p);
		switch (i) {
		case 0:
			assert_int_equal(sg->iowait_boost, 128);
			/* applied: the request is at least the boost with its headroom */
			assert_true(sg->util >= map_util_perf(128));
			assert_false(sg->iowait_boost_pending);
			break;
		case 1:
			assert_int_equal(sg->iowait_boost, 256);
			assert_true(sg->util >= map_util_perf(256));
			break;
		case 2:
			/* no I/O: no request, nothing applied either (no update ran) */
			assert_int_equal(sg->iowait_boost, 256);
			break;
		default:
			assert_int_equal(sg->iowait_boost, 512);
			/* 512 -> 640 of 1024: 1.25 GHz of 2, the next OPP up */
			assert_true(policy->sg.next_freq >= 1300000);
			break;
		}
	}
	/* an update without a new request halves it */
	cpufreq_update_util(rq, 0);
	assert_int_equal(sg->iowait_boost, 256);
	/* more than a tick on, an I/O wakeup starts again from the minimum */
	rq->clock += 2 * TICK_NSEC;
	cpufreq_update_util(rq, SCHED_CPUFREQ_IOWAIT);
	assert_int_equal(sg->iowait_boost, 128);
	tl_teardown();
	sched_sysctl_reset();
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
		cmocka_unit_test(test_fast_switch_possible),
		cmocka_unit_test(test_slow_path),
		cmocka_unit_test(test_slow_path_holds_back),
		cmocka_unit_test(test_pcc_channel_serializes),
		cmocka_unit_test(test_iowait_boost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
