// SPDX-License-Identifier: GPL-2.0-only
/*
 * Turbo by active cores (src/sim/turbo.c): the machine-file keys (their
 * refusals: test_machine_file.c), the package's active-core count as threads enter and leave
 * deep idle states (SMT: a core is active while any thread is), the limit
 * taking effect at the power control unit's next evaluation, the granted
 * frequency min(request, limit), and on the running scheduler: one busy
 * core with the others in C6 gets the 1-core frequency, with the idle
 * states capped at C1 (intel_idle.max_cstate=1) the all-core one.
 */
#include "test_sched_helpers.h"

#include "kernel/cpuidle_ctl.h"
#include "sim/turbo.h"
#include "topo/machine_file.h"

#include <stdlib.h>
#include <unistd.h>

/*
 * 1 package, 4 cores x 2 threads (x86 numbering: CPU N's sibling is N + 4),
 * 1.0 .. 3.0 GHz by 500 MHz; 3.0 GHz for 1 active core, 2.5 for 2, 2.0 for
 * 3 or 4. C6 stops the core's clocks, C1 does not.
 */
#define HEAD                                                        \
	"[machine]\nname = turbo4\n"                                \
	"[topology]\nshape = pack:1 core:4 pu:2\nnumbering = x86\n" \
	"[class.0]\ncapacity = 1024\n"                              \
	"ladder_khz = 1000000 500000 3000000\n"
#define TABLE                   \
	"turbo_cores = 1 2 4\n" \
	"turbo_khz = 3000000 2500000 2000000\n"
#define IDLE_NODEEP                                       \
	"[idle.0]\nname = POLL\nexit_latency_ns = 0\n"    \
	"target_residency_ns = 0\npolls = yes\n"          \
	"[idle.1]\nname = C1\nexit_latency_ns = 2000\n"   \
	"target_residency_ns = 2000\npolls = yes\n"       \
	"[idle.2]\nname = C6\nexit_latency_ns = 100000\n" \
	"target_residency_ns = 400000\npolls = yes\n"
#define TURBO_MACHINE HEAD TABLE IDLE_NODEEP "deep = yes\n"

#define C1 1
#define C6 2
#define GHZ(x) ((unsigned int)((x)*1000000))

static char err[512];
static char path[64];

static struct topology *parse(const char *text)
{
	return topology_parse_machine(text, "t.machine", err, sizeof(err));
}

static void test_keys(void **state)
{
	struct topology *t;

	(void)state;
	t = parse(TURBO_MACHINE);
	assert_non_null(t);
	assert_int_equal(t->cpus[5].turbo.nr, 3);
	assert_true(t->idle_states[C6].deep);
	assert_false(t->idle_states[C1].deep);
	/* the table, group by group; no core active counts as one */
	assert_int_equal(turbo_table_khz(&t->cpus[0].turbo, 0), GHZ(3));
	assert_int_equal(turbo_table_khz(&t->cpus[0].turbo, 1), GHZ(3));
	assert_int_equal(turbo_table_khz(&t->cpus[0].turbo, 2), GHZ(2.5));
	assert_int_equal(turbo_table_khz(&t->cpus[0].turbo, 3), GHZ(2));
	assert_int_equal(turbo_table_khz(&t->cpus[0].turbo, 4), GHZ(2));
	/* frequency invariance scales against the 4-core frequency */
	assert_int_equal(turbo_freq_inv_ref_khz(&t->cpus[0].turbo), GHZ(2));
	/* with fewer than 4 cores in the table, against the 1-core one */
	t->cpus[0].turbo.nr = 2;
	assert_int_equal(turbo_freq_inv_ref_khz(&t->cpus[0].turbo), GHZ(3));
	topology_free(t);
}

/* the machine alone (no scheduler): idle states entered and left by hand */
static struct topology *hw;
static struct cost_model hw_cost;

static void hw_setup(void)
{
	hw = parse(TURBO_MACHINE);
	assert_non_null(hw);
	hw_cost = hw->cost;
	machine_init(hw, &hw_cost, 1);
}

static void hw_teardown(void)
{
	machine_destroy();
	topology_free(hw);
}

static unsigned int active(void)
{
	return sim_turbo_domain_of(0)->nr_active;
}

/* run the PCU's evaluations up to @t */
static void run_to(u64 t)
{
	machine.stop_at = t;
	sim_run(NULL);
	machine.now = t;
}

static void test_active_count_smt(void **state)
{
	(void)state;
	hw_setup();
	/* every core starts in C0: the 4-core limit */
	assert_int_equal(active(), 4);
	assert_int_equal(sim_cpu(0)->freq_khz, GHZ(2));
	/* one thread of core 0 in C6: its sibling keeps the core active */
	sim_cpu_power_state(4, C6);
	assert_int_equal(active(), 4);
	sim_cpu_power_state(0, C6);
	assert_int_equal(active(), 3);
	/* C1 does not stop the core: still active */
	sim_cpu_power_state(1, C1);
	sim_cpu_power_state(5, C1);
	assert_int_equal(active(), 3);
	/* from C1 into C6 on both threads: inactive; leaving C6: active again */
	sim_cpu_power_state(1, C6);
	sim_cpu_power_state(5, C6);
	assert_int_equal(active(), 2);
	sim_cpu_power_state(5, -1);
	assert_int_equal(active(), 3);
	/* the same state twice changes nothing */
	sim_cpu_power_state(5, -1);
	assert_int_equal(active(), 3);
	hw_teardown();
}

static void test_limit_at_next_evaluation(void **state)
{
	u64 period;

	(void)state;
	hw_setup();
	period = machine.cost->pcu_interval_ns;
	assert_true(period > 0);
	/* cores 1..3 into C6 at 0: one active core */
	for (unsigned int cpu = 1; cpu < 4; cpu++) {
		sim_cpu_power_state(cpu, C6);
		sim_cpu_power_state(cpu + 4, C6);
	}
	assert_int_equal(active(), 1);
	/* the hardware has not re-evaluated yet: still the 4-core frequency */
	run_to(period - 1);
	assert_int_equal(sim_cpu(0)->freq_khz, GHZ(2));
	/* at the next point of the PCU's grid: the 1-core frequency, on every CPU of the package */
	run_to(period);
	assert_int_equal(sim_cpu(0)->freq_khz, GHZ(3));
	assert_int_equal(sim_cpu(4)->freq_khz, GHZ(3));
	assert_int_equal(sim_cpu(0)->opp, 4);
	assert_int_equal(sim_turbo_domain_of(0)->nr_changes, 1);
	/* a request below the limit is granted as asked */
	sim_cpu_set_freq(0, GHZ(1.5), 1);
	assert_int_equal(sim_cpu(0)->freq_khz, GHZ(1.5));
	/* core 1 wakes: 2 active, 2.5 GHz from the next evaluation for CPU 4 (asked 3.0) */
	machine.cpus[1].t = machine.now;
	sim_cpu_power_state(1, -1);
	run_to(2 * period);
	assert_int_equal(sim_cpu(4)->freq_khz, GHZ(2.5));
	assert_int_equal(sim_cpu(4)->opp, 3);
	/* CPU 0 keeps its lower request; asking more gets the limit */
	assert_int_equal(sim_cpu(0)->freq_khz, GHZ(1.5));
	sim_cpu_set_freq(0, GHZ(3), 4);
	assert_int_equal(sim_cpu(0)->freq_khz, GHZ(2.5));
	assert_int_equal(sim_cpu(0)->opp, 3);
	assert_int_equal(sim_cpu(0)->req_khz, GHZ(3));
	/* the frequency-invariance scale is clipped above the 4-core reference */
	assert_int_equal(arch_scale_freq_capacity(0), SCHED_CAPACITY_SCALE);
	hw_teardown();
}

/* ---- on the running scheduler ---- */

static void write_machine(void)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/schedlab-turbo-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, TURBO_MACHINE, strlen(TURBO_MACHINE)),
			 (ssize_t)strlen(TURBO_MACHINE));
	close(fd);
}

/* one busy task on CPU 0 for 100 ms; @spec an --idle-states SPEC or NULL */
static unsigned int busy_core_khz(const char *spec)
{
	static unsigned int disable[8];
	unsigned int khz;

	write_machine();
	tl_setup(path, TL_REAL_COST, 0, NULL);
	unlink(path);
	memset(disable, 0, sizeof(disable));
	if (spec) {
		assert_int_equal(cpuidle_ctl_apply(spec, tl.topo, disable, err, sizeof(err)), 0);
		cpuidle_ctl_install(disable);
	}
	tl_work_task("hog", &tl_busy_prog, 0);
	tl_run_until(100 * NSEC_PER_MSEC, false);
	khz = sim_cpu(0)->freq_khz;
	assert_int_equal(sim_turbo_domain_of(0)->nr_active, spec ? 4 : 1);
	tl_teardown();
	return khz;
}

static void test_one_busy_core_rest_in_c6(void **state)
{
	(void)state;
	assert_int_equal(busy_core_khz(NULL), GHZ(3));
}

static void test_max_cstate_c1_all_core(void **state)
{
	(void)state;
	assert_int_equal(busy_core_khz("max=C1"), GHZ(2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_active_count_smt),
		cmocka_unit_test(test_limit_at_next_evaluation),
		cmocka_unit_test(test_one_busy_core_rest_in_c6),
		cmocka_unit_test(test_max_cstate_c1_all_core),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
