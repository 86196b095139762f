// SPDX-License-Identifier: GPL-2.0-only
/*
 * Load balancing end to end: CPU hogs started on one CPU spread out the
 * way the kernel spreads them (one per SMT4 core on POWER10, half per
 * socket on two sockets), and the balancer's pieces decide as they should
 * in constructed situations.
 */
#include "test_sched_helpers.h"

#include "cli/session.h"

static struct task_struct *hogs[256];

static void start_hogs(unsigned int n, unsigned int cpu)
{
	for (unsigned int i = 0; i < n; i++)
		hogs[i] = tl_work_task("hog", &tl_busy_prog, cpu);
}

static unsigned int hogs_on(unsigned int n, const struct cpumask *mask)
{
	unsigned int count = 0;

	for (unsigned int i = 0; i < n; i++)
		count += cpumask_test_cpu(task_cpu(hogs[i]), mask);
	return count;
}

static void assert_none_waits(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(task_rq(hogs[i])->nr_running, 1);
}

/*
 * power10-96: 24 hogs started on CPU0 end one per SMT4 core, none waiting,
 * within 1 s simulated (about 0.7 s). The last moves between big cores are
 * active balances at the PKG level (96 ms intervals, after cache_nice_tries
 * + 2 failures); several idle big cores move a task in one nohz idle
 * balance pass because the pass runs while the stoppers it kicked finish.
 */
static void test_power10_hogs_spread_to_cores(void **state)
{
	(void)state;
	tl_setup("power10-96", TL_REAL_COST, 0, NULL);
	start_hogs(24, 0);
	tl_run_until(NSEC_PER_SEC, false);
	for (unsigned int core = 0; core < machine.topo->nr_cores; core++) {
		unsigned int cpu = cpumask_first_and(machine.topo->core_mask[core], machine.topo->all);

		assert_true(hogs_on(24, topology_sibling_cpumask(machine.topo, cpu)) <= 1);
	}
	assert_none_waits(24);
	tl_teardown();
}

/*
 * two sockets: 2N hogs from one CPU end N per socket. The kernel allows a
 * NUMA imbalance while the emptier node runs no more than imb_numa_nr
 * tasks (adjust_numa_imbalance()), so N must exceed it (6 on the Xeon).
 * Across sockets the tasks move one at a time by active balancing.
 */
static void two_sockets(const char *preset, unsigned int n, u64 t)
{
	tl_setup(preset, TL_REAL_COST, 0, NULL);
	start_hogs(2 * n, 0);
	tl_run_until(t, false);
	assert_int_equal(hogs_on(2 * n, machine.topo->package_mask[0]), n);
	assert_int_equal(hogs_on(2 * n, machine.topo->package_mask[1]), n);
	assert_none_waits(2 * n);
	tl_teardown();
}

static void test_two_sockets_split_evenly(void **state)
{
	(void)state;
	two_sockets("smt2-2s-16", 4, NSEC_PER_SEC);
	two_sockets("xeon-8269cy-2s", 10, 10 * NSEC_PER_SEC);
}

/* below imb_numa_nr the kernel leaves a small NUMA imbalance alone */
static void test_small_numa_imbalance_allowed(void **state)
{
	(void)state;
	tl_setup("xeon-8269cy-2s", TL_REAL_COST, 0, NULL);
	start_hogs(8, 0);
	tl_run_until(4 * NSEC_PER_SEC, false);
	assert_int_equal(hogs_on(8, machine.topo->package_mask[0]), 5);
	assert_int_equal(hogs_on(8, machine.topo->package_mask[1]), 3);
	assert_none_waits(8);
	tl_teardown();
}

/*
 * The hogs as stress-ng starts them: forked one by one from a parent on
 * CPU0. Fork balancing (SD_BALANCE_FORK, sched_balance_find_dst_cpu())
 * places each on the idlest group at every level, so they are spread
 * before they first run and nothing needs to migrate.
 */
static u64 user_ns_on(const struct cpumask *mask)
{
	u64 sum = 0;
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		sum += sim_cpu(cpu)->time_in[ACT_USER];
	return sum;
}

static void run_stress_cpu(struct session *s, const char *preset, const char *nr)
{
	char err[256];
	char *argv[] = { "stress-ng", "--cpu", (char *)nr, "--timeout", "1", NULL };
	struct session_config cfg = { .machine = preset, .seed = 1, .argc = 5, .argv = argv };

	assert_int_equal(session_start(s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(s, true));
}

/* a hog that ran alone for the whole second on its own CPU set */
static void assert_hogs_ran_alone(const struct cpumask *mask, unsigned int hogs)
{
	u64 ns = user_ns_on(mask);

	assert_true(ns >= hogs * 950 * NSEC_PER_MSEC);
	assert_true(ns <= hogs * 1050 * NSEC_PER_MSEC);
}

static void test_stress_ng_forks_spread(void **state)
{
	struct session s;
	u64 migrations = 0;

	(void)state;
	/* power10-96: one hog per SMT4 core from the first instant */
	run_stress_cpu(&s, "power10-96", "24");
	for (unsigned int core = 0; core < machine.topo->nr_cores; core++) {
		unsigned int cpu = cpumask_first_and(machine.topo->core_mask[core], machine.topo->all);

		assert_hogs_ran_alone(topology_sibling_cpumask(machine.topo, cpu), 1);
	}
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++)
		migrations += cpu_rq(cpu)->nr_migrations_in;
	assert_int_equal(migrations, 0);
	session_end(&s);
	/* two sockets: 2N hogs, N per socket, once N exceeds imb_numa_nr */
	run_stress_cpu(&s, "xeon-8269cy-2s", "20");
	assert_hogs_ran_alone(machine.topo->package_mask[0], 10);
	assert_hogs_ran_alone(machine.topo->package_mask[1], 10);
	session_end(&s);
}

/* the invariants hold while the balancer moves tasks around */
static void test_balancing_keeps_invariants(void **state)
{
	(void)state;
	tl_setup("smt2-2s-16", TL_REAL_COST, 0, NULL);
	start_hogs(12, 3);
	tl_run_until(300 * NSEC_PER_MSEC, true);
	assert_none_waits(0);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_power10_hogs_spread_to_cores),
		cmocka_unit_test(test_two_sockets_split_evenly),
		cmocka_unit_test(test_small_numa_imbalance_allowed),
		cmocka_unit_test(test_stress_ng_forks_spread),
		cmocka_unit_test(test_balancing_keeps_invariants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
