// SPDX-License-Identifier: GPL-2.0-only
/*
 * Capacity and energy on pixel6: the energy model's costs as
 * em_compute_costs() computes them, when EAS is on, the overutilized
 * tipping point, find_energy_efficient_cpu() choosing the cheaper
 * performance domain, uclamp_min making a small task misfit, misfit
 * migration of a CPU-bound task to a big CPU, and a small periodic task
 * costing less energy with EAS than without (docs/energy.md).
 */
#include "test_sched_helpers.h"

#include "kernel/cpufreq.h"
#include "kernel/domains.h"
#include "kernel/energy_model.h"
#include "kernel/fair_lb.h"
#include "kernel/select.h"
#include "report/sched_totals.h"

#include <errno.h>
#include <unistd.h>

/* tl_teardown() restores the tunables tl_setup() found: set them back to the defaults */
static void teardown(void)
{
	tl_teardown();
	sched_sysctl_reset();
}

static void setup_costs(const char *preset, const char *gov, const char *sysctl, bool zero_cost)
{
	char err[256];

	assert_int_equal(cpufreq_parse(gov, &cpufreq_boot_setup, err, sizeof(err)), 0);
	if (sysctl)
		assert_int_equal(sched_sysctl_set(sysctl, err, sizeof(err)), 0);
	tl_setup(preset, zero_cost, 0, NULL);
}

static void setup_gov(const char *preset, const char *gov, const char *sysctl)
{
	setup_costs(preset, gov, sysctl, TL_ZERO_COST);
}

/*
 * em_compute_costs(): cost = 10 x power / performance, performance =
 * capacity x f / fmax; from the top OPP down, a state that costs no less
 * than the cheapest one above it is inefficient.
 */
static void test_em_costs(void **state)
{
	struct em_perf_domain *pd;
	struct cpufreq_policy *policy;

	(void)state;
	setup_gov("pixel6", "schedutil", NULL);
	/* A55: 11 OPPs, capacity 160 at 1803 MHz */
	pd = em_cpu_get(0);
	assert_non_null(pd);
	assert_int_equal(pd->nr_perf_states, 11);
	assert_int_equal(pd->table[10].performance, 160);
	assert_int_equal(pd->table[10].cost, 269910UL * 10 / 160); /* 16869 */
	/* 300 MHz: 160 x 300000 / 1803000 = 26 */
	assert_int_equal(pd->table[0].performance, 26);
	assert_int_equal(pd->table[0].cost, 21840UL * 10 / 26); /* 8400 */
	/* 8400 >= 7247 (574 MHz): inefficient; so are 1098 and 1197 MHz */
	assert_true(pd->table[0].flags & EM_PERF_STATE_INEFFICIENT);
	assert_false(pd->table[1].flags & EM_PERF_STATE_INEFFICIENT);
	assert_true(pd->table[4].flags & EM_PERF_STATE_INEFFICIENT);
	assert_true(pd->table[5].flags & EM_PERF_STATE_INEFFICIENT);
	assert_false(pd->table[6].flags & EM_PERF_STATE_INEFFICIENT);
	assert_true(pd->flags & EM_PERF_DOMAIN_SKIP_INEFFICIENCIES);
	/* the policy skips them too (CPUFREQ_RELATION_LE): 1.0 GHz goes to 1328 MHz */
	policy = cpufreq_cpu_get(0);
	assert_true(policy->efficiencies_available);
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 1000000), 1328000);
	assert_int_equal(cpufreq_driver_resolve_freq(policy, 200000), 574000);
	/* one domain per cluster; the root domain's list from the last CPU down */
	assert_ptr_equal(em_cpu_get(5), em_cpu_get(4));
	assert_ptr_not_equal(em_cpu_get(4), em_cpu_get(0));
	assert_non_null(root_pd);
	assert_ptr_equal(root_pd->em_pd, em_cpu_get(6));
	assert_ptr_equal(root_pd->next->em_pd, em_cpu_get(4));
	assert_ptr_equal(root_pd->next->next->em_pd, em_cpu_get(0));
	assert_null(root_pd->next->next->next);
	assert_true(sched_energy_enabled());
	/* em_cpu_energy(): the first efficient state reaching max_util, cost x sum */
	assert_int_equal(em_cpu_energy(pd, 38, 30, 160), 7247UL * 30); /* 574 MHz */
	assert_int_equal(em_cpu_energy(pd, 100, 80, 160), 11935UL * 80); /* 1328 MHz */
	assert_int_equal(em_cpu_energy(pd, 1000, 80, 160), 16869UL * 80); /* capped */
	assert_int_equal(em_cpu_energy(pd, 100, 0, 160), 0);
	teardown();
}

/* EAS needs the model, asymmetric capacities, schedutil and the sysctl */
static void test_eas_possible(void **state)
{
	(void)state;
	setup_gov("pixel6", "performance", NULL);
	assert_false(sched_energy_enabled());
	assert_null(root_pd);
	/* the model is registered whatever the governor */
	assert_non_null(em_cpu_get(0));
	teardown();

	setup_gov("pixel6", "schedutil", "energy_aware=0");
	assert_false(sched_energy_enabled());
	teardown();

	setup_gov("smp4", "schedutil", NULL);
	assert_false(sched_energy_enabled());
	assert_null(em_cpu_get(0));
	teardown();
}

/*
 * A KVM guest registers no EM (its platform describes none of the host's
 * power): no EAS, and no energy figure for the run (docs/energy.md).
 */
static void test_guest_has_no_em(void **state)
{
	(void)state;
	setup_gov("pixel6", "schedutil", NULL);
	assert_true(sched_energy_enabled());
	assert_true(energy_reported());
	tl.topo->guest.kvm = true;
	em_init();
	assert_false(sched_energy_enabled());
	assert_null(root_pd);
	assert_null(em_cpu_get(0));
	assert_false(energy_reported());
	tl.topo->guest.kvm = false;
	teardown();
}

/* cpu_overutilized(): util above 80% of the capacity (fits_capacity()) */
static void test_overutilized_tipping_point(void **state)
{
	struct root_domain *rd;
	struct rq *rq;

	(void)state;
	setup_gov("pixel6", "schedutil", NULL);
	rd = cpu_rd(0);
	rq = cpu_rq(0);
	assert_false(is_rd_overutilized(rd));
	/* 127 x 1.25 < 160: fits; 128 x 1.25 = 160: does not */
	rq->cfs.avg.util_avg = 127;
	assert_false(cpu_overutilized(0));
	check_update_overutilized_status(rq);
	assert_false(is_rd_overutilized(rd));
	rq->cfs.avg.util_avg = 128;
	assert_true(cpu_overutilized(0));
	check_update_overutilized_status(rq);
	assert_true(rd->overutilized);
	assert_true(is_rd_overutilized(rd));
	/* the big CPU's point is 819 of 1024 */
	cpu_rq(6)->cfs.avg.util_avg = 819;
	assert_false(cpu_overutilized(6));
	cpu_rq(6)->cfs.avg.util_avg = 820;
	assert_true(cpu_overutilized(6));
	rq->cfs.avg.util_avg = 0;
	cpu_rq(6)->cfs.avg.util_avg = 0;
	teardown();

	/* without EAS nothing is tracked and the root domain counts as overutilized */
	setup_gov("pixel6", "performance", NULL);
	cpu_rq(0)->cfs.avg.util_avg = 150;
	assert_false(cpu_overutilized(0));
	assert_true(is_rd_overutilized(cpu_rd(0)));
	cpu_rq(0)->cfs.avg.util_avg = 0;
	teardown();
}

/*
 * A task of util 100 last ran on an X1 (CPU 6), nothing else runs. With
 * the 1.25 headroom each domain would run at the first OPP reaching 125:
 * A55 1598 MHz (cost 14352), A76 696 MHz (3577), X1 500 MHz (4797): the
 * A76 domain costs least, and CPU 4 is the first of its CPUs with the
 * most spare capacity.
 */
static void test_feec_cheaper_pd(void **state)
{
	struct task_struct *p;

	(void)state;
	setup_gov("pixel6", "schedutil", NULL);
	p = tl_fork("small", 6);
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		struct cfs_rq *cfs = &cpu_rq(cpu)->cfs;

		cfs->avg.util_avg = cfs->avg.runnable_avg = 0;
		cfs->avg.util_est = 0;
	}
	/* @p's blocked utilisation still counts on its previous CPU */
	cpu_rq(6)->cfs.avg.util_avg = 100;
	p->se.avg.util_avg = 100;
	p->se.avg.util_est = 0;
	p->se.avg.last_update_time = cpu_rq(6)->cfs.avg.last_update_time;
	sim_set_this_cpu(6);
	assert_int_equal(find_energy_efficient_cpu(p, 6), 4);
	/* the same from an A55 */
	assert_int_equal(find_energy_efficient_cpu(p, 0), 4);
	/* a task with no utilisation stays where it was */
	p->se.avg.util_avg = 0;
	assert_int_equal(find_energy_efficient_cpu(p, 6), 6);
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++)
		cpu_rq(cpu)->cfs.avg.util_avg = 0;
	teardown();
}

/* util_fits_cpu() with uclamp; a small task with uclamp_min 614 is misfit on an A55 */
static void test_uclamp_min_misfit(void **state)
{
	struct sched_attr attr = { .sched_flags = SCHED_FLAG_KEEP_ALL | SCHED_FLAG_UTIL_CLAMP_MIN,
				   .sched_util_min = 614 };
	struct task_struct *p;

	(void)state;
	setup_gov("pixel6", "performance", NULL);
	p = tl_fork("boosted", 0);
	assert_false(uclamp_is_used());
	assert_int_equal(util_fits_cpu(50, 614, 1024, 0), 1); /* uclamp off: util only */
	sim_set_this_cpu(0);
	assert_int_equal(sched_setattr_nocheck(p, &attr), 0);
	assert_true(uclamp_is_used());
	assert_true(p->uclamp_req[UCLAMP_MIN].user_defined);
	assert_int_equal(uclamp_eff_value(p, UCLAMP_MIN), 614);
	assert_int_equal(uclamp_eff_value(p, UCLAMP_MAX), 1024);
	/* queued: the runqueue's clamp is the task's (bucket max-aggregation) */
	assert_int_equal(uclamp_rq_get(cpu_rq(0), UCLAMP_MIN), 614);
	/* fits by util, but the A55 cannot give 614: -1; the X1 can: 1 */
	assert_int_equal(util_fits_cpu(50, 614, 1024, 0), -1);
	assert_int_equal(util_fits_cpu(50, 614, 1024, 6), 1);
	/* capped at an A76's capacity, a big util fits an A76 */
	assert_int_equal(util_fits_cpu(900, 0, 498, 4), 1);
	assert_int_equal(util_fits_cpu(900, 0, 1024, 4), 0);
	p->se.avg.util_avg = 50;
	assert_false(task_fits_cpu(p, 0));
	update_misfit_status(p, cpu_rq(0));
	assert_true(cpu_rq(0)->misfit_task_load > 0);
	assert_int_equal(uclamp_rq_util_with(cpu_rq(0), 50, NULL), 614);
	/* -1 resets to the default; the rq's min follows on the re-enqueue */
	attr.sched_util_min = (u32)-1;
	assert_int_equal(sched_setattr_nocheck(p, &attr), 0);
	assert_false(p->uclamp_req[UCLAMP_MIN].user_defined);
	assert_int_equal(uclamp_eff_value(p, UCLAMP_MIN), 0);
	assert_int_equal(uclamp_rq_get(cpu_rq(0), UCLAMP_MIN), 0);
	assert_true(task_fits_cpu(p, 0));
	/* a minimum above the maximum is EINVAL */
	attr.sched_flags = SCHED_FLAG_KEEP_ALL | SCHED_FLAG_UTIL_CLAMP;
	attr.sched_util_min = 700;
	attr.sched_util_max = 600;
	assert_int_equal(sched_setattr_nocheck(p, &attr), -EINVAL);
	attr.sched_util_min = 1025;
	attr.sched_util_max = 1024;
	assert_int_equal(sched_setattr_nocheck(p, &attr), -EINVAL);
	teardown();
}

static bool was_misfit;

static void watch_misfit(struct sim_event *ev)
{
	(void)ev;
	if (cpu_rq(0)->misfit_task_load)
		was_misfit = true;
}

/* a CPU-bound task started on an A55 becomes misfit and moves to an X1 */
static void test_misfit_moves_to_big(void **state)
{
	struct task_struct *p;
	u64 start;

	(void)state;
	was_misfit = false;
	setup_gov("pixel6", "performance", NULL);
	/*
	 * A run starts at its tick phase, not at 0 as tl_setup() does: at 0
	 * the task's PELT average would attach with last_update_time 0 and
	 * look never attached (a real run never starts there).
	 */
	start = sched_tick_phase(1);
	machine_destroy();
	work_free_all();
	sched_exit();
	machine_init(tl.topo, &tl.cost, 1);
	sched_init(start);
	sim_set_this_cpu(0);
	p = tl_work_task("hog", &tl_busy_prog, 0);
	tl.hook = watch_misfit;
	for (u64 t = 10; t <= 400 && task_cpu(p) < 6; t += 10)
		tl_run_until(start + t * NSEC_PER_MSEC, false);
	assert_true(was_misfit);
	assert_true(task_cpu(p) >= 6);
	teardown();
}

/* 1 ms of work (at the X1's full speed), then 9 ms of sleep (one task) */
static bool periodic_ran;

static void periodic_next(struct work_task *w, struct op_desc *op)
{
	(void)w;
	if (periodic_ran)
		op_sleep(op, 9 * NSEC_PER_MSEC);
	else
		op_run(op, NSEC_PER_MSEC);
	periodic_ran = !periodic_ran;
}

static const struct program periodic_prog = { .next = periodic_next };

static unsigned __int128 run_periodic(const char *machine_name, const char *sysctl,
				      unsigned int *cpus_used)
{
	unsigned __int128 total = 0;
	struct task_struct *p;

	periodic_ran = false;
	setup_gov(machine_name, "schedutil", sysctl);
	p = tl_work_task("periodic", &periodic_prog, 0);
	*cpus_used = 0;
	for (u64 t = 10; t <= 1000; t += 10) {
		tl_run_until(t * NSEC_PER_MSEC, false);
		if (t > 100)
			*cpus_used |= 1u << task_cpu(p);
	}
	machine_account_until(machine.stop_at);
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		unsigned __int128 busy, idle;
		u64 ns;

		sim_cpu_energy(cpu, &busy, &idle, &ns);
		assert_true(ns > 0);
		total += busy + idle;
	}
	teardown();
	return total;
}

/*
 * With EAS the small task stays off the X1 cluster, and the run costs less
 * energy than without. With Wattson's Tensor figures an A76 at a low OPP
 * costs less per unit of work than an A55, so EAS keeps it on an A76.
 */
static void test_eas_small_task_energy(void **state)
{
	unsigned int used_on, used_off;
	unsigned __int128 on = run_periodic("pixel6", NULL, &used_on);
	unsigned __int128 off = run_periodic("pixel6", "energy_aware=0", &used_off);

	(void)state;
	assert_true(on < off);
	assert_int_equal(used_on & 0xc0, 0);
	assert_int_equal(used_on, 1u << 4);
}

/*
 * A constructed big.LITTLE machine whose little cores are the cheaper per
 * unit of work (little 500 MHz: cost 20000 x 10 / 200 = 1000; big 1 GHz:
 * 150000 x 10 / 512 = 2929): with EAS the small periodic task stays on a
 * little core, and costs no more than without.
 */
static const char little_machine[] =
	"[machine]\nname = little-efficient\n"
	"[topology]\nshape = cluster:2 core:4\n"
	"[class.0]\ncapacity = 400\nopps_khz = 500000 1000000\n"
	"em_power_uw = 20000 50000\nidle_power_uw.0 = 1000 2000\ncpus = 0-3\n"
	"[class.1]\ncapacity = 1024\nopps_khz = 1000000 2000000\n"
	"em_power_uw = 150000 600000\nidle_power_uw.0 = 5000 10000\ncpus = 4-7\n"
	"[idle.0]\nname = WFI\nexit_latency_ns = 1000\ntarget_residency_ns = 1000\npolls = no\n"
	"[cpufreq]\nspan = cluster\n"
	"[energy]\nsource = constructed for tests/unit/test_energy.c\n";

static void test_eas_small_task_stays_little(void **state)
{
	char path[] = "/tmp/schedlab-test-energy-XXXXXX.machine";
	unsigned int used_on, used_off;
	unsigned __int128 on, off;
	int fd = mkstemps(path, 8);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, little_machine, sizeof(little_machine) - 1),
			 (ssize_t)sizeof(little_machine) - 1);
	close(fd);
	on = run_periodic(path, NULL, &used_on);
	off = run_periodic(path, "energy_aware=0", &used_off);
	unlink(path);
	assert_int_equal(used_on & 0xf0, 0);
	assert_true(on <= off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_em_costs),
		cmocka_unit_test(test_eas_possible),
		cmocka_unit_test(test_guest_has_no_em),
		cmocka_unit_test(test_overutilized_tipping_point),
		cmocka_unit_test(test_feec_cheaper_pd),
		cmocka_unit_test(test_uclamp_min_misfit),
		cmocka_unit_test(test_misfit_moves_to_big),
		cmocka_unit_test(test_eas_small_task_energy),
		cmocka_unit_test(test_eas_small_task_stays_little),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
