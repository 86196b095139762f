// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where in a tick period a run starts (sched_tick_phase()): seeded, within
 * one tick, and never so close to 0 that PELT's "never attached" marker
 * (last_update_time == 0) sticks to the first tasks. Seeds 1426 and 7201
 * drew phases of 263 and 909 ns, below one 1024 ns PELT step, and left the
 * first forked task unattached for the whole run.
 */
#include "test_sched_helpers.h"

#include "cli/session.h"
#include "work/bench.h"

static void test_phase_range(void **state)
{
	(void)state;
	sysctl_sched.hz = 250;
	for (u64 seed = 1; seed <= 20000; seed++) {
		u64 t0 = sched_tick_phase(seed);

		if (t0 < PELT_CLOCK_STEP_NS || t0 >= TICK_NSEC + PELT_CLOCK_STEP_NS)
			fail_msg("seed %llu: phase %llu", (unsigned long long)seed,
				 (unsigned long long)t0);
	}
	assert_int_equal(sched_tick_phase(1426), 263 + PELT_CLOCK_STEP_NS);
	assert_int_equal(sched_tick_phase(7201), 909 + PELT_CLOCK_STEP_NS);
}

static unsigned long nr_events;

static void stop_after_3000(struct sim_event *ev)
{
	(void)ev;
	if (++nr_events == 3000)
		machine.stop = true;
}

static void test_first_tasks_attached(void **state)
{
	static const u64 seeds[] = { 1426, 7201 };
	char *argv[] = { "hackbench", "-g", "1", "-l", "200", NULL };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		struct session_config cfg = { .machine = "smp4", .seed = seeds[i], .argc = 5, .argv = argv };
		struct session s;
		struct task_struct *p;
		char err[256];

		assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
		bench_start(s.bench);
		sched_start();
		nr_events = 0;
		sim_run(stop_after_3000);
		list_for_each_entry(p, &sched_world.tasks, tasks) {
			if (is_idle_task(p) || p->is_stopper || p->__state == TASK_DEAD)
				continue;
			if (!p->se.avg.last_update_time)
				fail_msg("seed %llu: %s-%d never attached", (unsigned long long)seeds[i],
					 p->comm, p->pid);
		}
		session_end(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phase_range),
		cmocka_unit_test(test_first_tasks_attached),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
