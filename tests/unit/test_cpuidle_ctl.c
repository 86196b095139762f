// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuidle's per-state controls (src/kernel/cpuidle_ctl.c, --idle-states):
 * which CPUs' stateK/disable bits each SPEC sets, in order, and the one
 * clear message for each kind of bad SPEC. smt2-2s-16 has the Skylake-SP
 * states: state0 POLL, state1 C1, state2 C1E, state3 C6, on 16 CPUs.
 */
#include "test_util.h"

#include "kernel/cpuidle_ctl.h"

#include <stdlib.h>

#define POLL (1U << 0)
#define C1 (1U << 1)
#define C1E (1U << 2)
#define C6 (1U << 3)

static struct topology *topo;
static unsigned int disable[16];
static char err[512];

static int setup(void **state)
{
	(void)state;
	topo = topology_load("smt2-2s-16", err, sizeof(err));
	if (!topo || topo->nr_cpus != 16 || topo->nr_idle_states != 4)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	topology_free(topo);
	return 0;
}

static void apply_ok(const char *spec)
{
	if (cpuidle_ctl_apply(spec, topo, disable, err, sizeof(err)))
		fail_msg("'%s': %s", spec, err);
}

static void all_are(unsigned int bits)
{
	for (unsigned int cpu = 0; cpu < 16; cpu++)
		assert_int_equal(disable[cpu], bits);
}

/* a name or an index, on every CPU */
static void test_disable_by_name_and_index(void **state)
{
	(void)state;
	memset(disable, 0, sizeof(disable));
	apply_ok("disable=C6");
	all_are(C6);
	apply_ok("disable=2");
	all_are(C6 | C1E);
	apply_ok("enable=C6,C1E");
	all_are(0);
	apply_ok("disable=POLL,C1");
	all_are(POLL | C1);
}

/* max=K: every state deeper than stateK, as intel_idle.max_cstate=K on x86 */
static void test_max(void **state)
{
	(void)state;
	memset(disable, 0, sizeof(disable));
	apply_ok("max=C1");
	all_are(C1E | C6);
	memset(disable, 0, sizeof(disable));
	apply_ok("max=0");
	all_are(C1 | C1E | C6);
	memset(disable, 0, sizeof(disable));
	apply_ok("max=C6");	/* the deepest: nothing to disable */
	all_are(0);
}

/* @CPUS limits a SPEC to those CPUs; later SPECs override earlier ones */
static void test_cpu_lists_in_order(void **state)
{
	(void)state;
	memset(disable, 0, sizeof(disable));
	apply_ok("disable=C6@0-3,8");
	for (unsigned int cpu = 0; cpu < 16; cpu++)
		assert_int_equal(disable[cpu], cpu <= 3 || cpu == 8 ? C6 : 0);
	apply_ok("enable=C6@2");
	assert_int_equal(disable[2], 0);
	assert_int_equal(disable[3], C6);
	apply_ok("max=POLL@15");
	assert_int_equal(disable[15], C1 | C1E | C6);
	assert_int_equal(disable[14], 0);
}

static void expect_error(const char *spec, const char *what)
{
	unsigned int before[16];

	memcpy(before, disable, sizeof(before));
	err[0] = 0;
	assert_int_equal(cpuidle_ctl_apply(spec, topo, disable, err, sizeof(err)), -1);
	if (!strstr(err, spec) || !strstr(err, what))
		fail_msg("'%s': message '%s' lacks '%s'", spec, err, what);
	/* a refused SPEC changes nothing */
	assert_memory_equal(before, disable, sizeof(before));
}

static void test_errors(void **state)
{
	(void)state;
	memset(disable, 0, sizeof(disable));
	expect_error("disable=C7", "has no idle state 'C7' (its states, state0 to state3: POLL C1 C1E C6)");
	expect_error("disable=4", "no idle state '4'");
	expect_error("disable=c6", "no idle state 'c6'");
	expect_error("disable=", "no idle state ''");
	expect_error("disable=C1,,C6", "no idle state ''");
	expect_error("max=C1,C6", "max= takes one state");
	expect_error("C6", "expected disable=STATE");
	expect_error("off=C6", "expected disable=STATE");
	expect_error("@0=C6", "expected disable=STATE");
	expect_error("disable=C6@16", "cpu list");
	expect_error("disable=C6@x", "cpu list");
	expect_error("disable=C6@", "no CPUs after '@'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disable_by_name_and_index),
		cmocka_unit_test(test_max),
		cmocka_unit_test(test_cpu_lists_in_order),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
