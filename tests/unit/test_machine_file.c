// SPDX-License-Identifier: GPL-2.0-only
/* Machine files: the parser, its messages, cost profiles, and export -> parse. */
#include "test_util.h"

#include "topo/machine_file.h"

#include <stdlib.h>

static char err[512];

#define MINIMAL                                 \
	"# a comment\n"                         \
	"[machine]\n"                           \
	"name = tiny\n"                         \
	"[topology]\n"                          \
	"shape = pack:2 core:2 pu:2\n"          \
	"numbering = x86\n"                     \
	"[class.0]\n"                           \
	"capacity = 1024\n"                     \
	"ladder_khz = 1000000 500000 2000000\n" \
	"[idle.0]\n"                            \
	"name = POLL\n"                         \
	"exit_latency_ns = 0\n"                 \
	"target_residency_ns = 0\n"             \
	"polls = yes\n"

static struct topology *parse(const char *text)
{
	return topology_parse_machine(text, "t.machine", err, sizeof(err));
}

/* @text must be refused with a message containing @want */
static void refused(const char *text, const char *want)
{
	struct topology *t = parse(text);

	if (t)
		fail_msg("accepted, wanted '%s'", want);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
	assert_null(strchr(err, '\n'));
}

static void test_minimal(void **state)
{
	struct topology *t;

	(void)state;
	t = parse(MINIMAL);
	assert_non_null(t);
	assert_string_equal(t->name, "tiny");
	assert_int_equal(t->nr_cpus, 8);
	assert_int_equal(t->nr_packages, 2);
	assert_int_equal(t->nr_cores, 4);
	/* x86 numbering: CPU 0's sibling is CPU 4 */
	assert_int_equal(t->cpus[4].core, 0);
	assert_int_equal(t->cpus[1].core, 1);
	/* the ladder: 1.0, 1.5, 2.0 GHz */
	assert_int_equal(t->cpus[0].nr_opps, 3);
	assert_int_equal(t->cpus[0].opp_khz[1], 1500000);
	assert_int_equal(t->hz, 250);
	assert_int_equal(t->nr_idle_states, 1);
	/* no [numa]: ACPI's 10/20 */
	assert_int_equal(t->node_distance[1], 20);
	topology_free(t);
}

static void test_text_keys_join(void **state)
{
	struct topology *t;

	(void)state;
	t = parse(MINIMAL
		  "[machine]\ndescription = two\ndescription =   lines\n"
		  "[cpufreq]\ndriver = acpi-cpufreq\nspan = package\nsource = a\nsource = b\n"
		  "[costs]\nipi_send = 123\nsmt_speed.2 = 625\n");
	assert_non_null(t);
	assert_string_equal(t->description, "two lines");
	assert_string_equal(t->cpufreq.source, "a b");
	assert_int_equal(t->cpufreq.span, CPUFREQ_SPAN_PACKAGE);
	assert_int_equal(t->cost.ipi_send, 123);
	assert_int_equal(t->cost.smt_speed[1], 625);
	topology_free(t);
}

static void test_explicit_cpus(void **state)
{
	struct topology *t;

	(void)state;
	t = parse("[machine]\nname = big.little\n[topology]\nnr_cpus = 3\n"
		  "cpu.0 = 0 0 0 0 0\ncpu.1 = 0 0 0 0 1\ncpu.2 = 0 0 0 1 2\n"
		  "[class.0]\ncapacity = 400\nopps_khz = 500000 1000000\ncpus = 0-1\n"
		  "[class.1]\ncapacity = 1024\nopps_khz = 2000000\ncpus = 2\n"
		  "[idle.0]\nname = WFI\nexit_latency_ns = 1000\ntarget_residency_ns = 1000\n"
		  "polls = no\n");
	assert_non_null(t);
	assert_true(t->asym_capacity);
	assert_true(t->has_clusters);
	assert_int_equal(t->cpus[1].capacity, 400);
	assert_int_equal(t->cpus[2].max_freq_khz, 2000000);
	topology_free(t);
}

static void test_errors(void **state)
{
	(void)state;
	refused(MINIMAL "colour = red\n", "t.machine:15: unknown key 'colour' in [idle.0]");
	refused(MINIMAL "[machine]\nname = again\n", "t.machine:16: name given twice");
	refused(MINIMAL "[machine]\nhz = -1\n", "t.machine:16: hz: '-1' is not a decimal number");
	refused(MINIMAL "[machine]\nhz = 18446744073709551616\n", "is out of range (1..10000)");
	refused(MINIMAL "[class.0]\n", "t.machine:15: [class.0] given twice");
	refused(MINIMAL "[class.2]\ncapacity = 1\nopps_khz = 1\ncpus = 0\n",
		"[class.2] without [class.1]");
	refused(MINIMAL "[idle.9]\n", "t.machine:15: idle.: 9 is out of range (0..7)");
	refused(MINIMAL "[numa]\ndistance.0 = 10 20\ndistance.1 = 20\n",
		"t.machine:17: distance.1 has 1 distances, the first row 2");
	refused(MINIMAL "[numa]\ndistance.0 = 10 20\n", "t.machine:16: distance.1 is missing");
	refused(MINIMAL "[numa]\ndistance.0 = 10 20\ndistance.1 = 21 10\n", "not symmetric");
	refused(MINIMAL "[costs]\nnope = 1\n", "t.machine:16: unknown cost parameter 'nope'");
	refused("[machine]\nname = x\n", "t.machine: no CPUs");
	refused("[topology]\nshape = pack:4096 core:4\n",
		"t.machine:2: shape: more than 8192 CPUs");
	refused("[topology]\nshape = core:2 pack:2\n", "'pack' after 'core'");
	refused("[topology]\ncpu.0 = 0 0 0 0 0\n", "cpu.0 before nr_cpus");
	refused("[topology]\nnr_cpus = 1\ncpu.0 = 0 0 0\n", "t.machine:3: cpu.0: 3 ids");
	refused("[machine\n", "t.machine:1: '[machine': a section header is [NAME] alone");
	refused("[machine]\nname =\n", "t.machine:2: name has no value");
	refused("[machine]\nName = x\n", "t.machine:2: 'Name' is not a key");
	refused("[machine]\nname = a\x01z\n", "control character");
	refused(MINIMAL "[class.0]\n", "given twice");
}

/* [cpufreq] governor: the platform's default, checked against its driver */
static void test_default_governor(void **state)
{
	struct topology *t;

	(void)state;
	t = parse(MINIMAL);
	assert_non_null(t);
	/* no governor line: performance, every CPU at its maximum */
	assert_int_equal(t->cpufreq.governor, CPUFREQ_GOV_PERFORMANCE);
	topology_free(t);
	t = parse(MINIMAL "[cpufreq]\ndriver = cppc_cpufreq\ngovernor = schedutil\n");
	assert_non_null(t);
	assert_int_equal(t->cpufreq.governor, CPUFREQ_GOV_SCHEDUTIL);
	topology_free(t);
	/* the span may come after the governor: the driver is checked at the end */
	t = parse(MINIMAL "[cpufreq]\ngovernor = ondemand\nspan = package\n");
	assert_non_null(t);
	assert_int_equal(t->cpufreq.governor, CPUFREQ_GOV_ONDEMAND);
	topology_free(t);
	refused(MINIMAL "[cpufreq]\ngovernor = interactive\n",
		"t.machine:16: governor: 'interactive' is not a default governor");
	/* userspace holds what user space wrote: no platform boots with it */
	refused(MINIMAL "[cpufreq]\ngovernor = userspace\n",
		"t.machine:16: governor: 'userspace' is not a default governor");
	refused(MINIMAL "[cpufreq]\ngovernor = schedutil\ngovernor = schedutil\n",
		"t.machine:17: governor given twice");
	/* a machine without cpufreq runs only its one frequency */
	refused(MINIMAL "[cpufreq]\ndriver = none\ngovernor = schedutil\nspan = none\n",
		"t.machine:17: governor: schedutil, but the machine has no cpufreq driver");
	t = parse(MINIMAL "[cpufreq]\nspan = none\ngovernor = performance\n");
	assert_non_null(t);
	topology_free(t);
}

/* Each preset's default governor (docs/machines.md, "Frequency") */
static void test_preset_governors(void **state)
{
	static const struct {
		const char *name;
		enum cpufreq_governor_id gov;
	} want[] = {
		{ "altra-80", CPUFREQ_GOV_SCHEDUTIL },
		{ "altra-2s-160", CPUFREQ_GOV_SCHEDUTIL },
		{ "epyc-milan-2s-256", CPUFREQ_GOV_SCHEDUTIL },
		{ "westmere-ex-8s-160", CPUFREQ_GOV_SCHEDUTIL },
		{ "westmere-ex-8s-80-noht", CPUFREQ_GOV_SCHEDUTIL },
		{ "pixel6", CPUFREQ_GOV_SCHEDUTIL },
		{ "power10-96", CPUFREQ_GOV_PERFORMANCE },
		{ "xeon-8269cy-2s", CPUFREQ_GOV_PERFORMANCE },
		{ "icelake-2s-128", CPUFREQ_GOV_PERFORMANCE },
		{ "alderlake-i9-12900k", CPUFREQ_GOV_PERFORMANCE },
		{ "smp4", CPUFREQ_GOV_PERFORMANCE },
		{ "arm64-2x4", CPUFREQ_GOV_PERFORMANCE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct topology *t = topology_load(want[i].name, err, sizeof(err));

		assert_non_null(t);
		if (t->cpufreq.governor != want[i].gov)
			fail_msg("%s: governor %s, want %s", want[i].name,
				 cpufreq_governor_names[t->cpufreq.governor],
				 cpufreq_governor_names[want[i].gov]);
		topology_free(t);
	}
}

static void test_cost_profile(void **state)
{
	struct cost_model c, def;

	(void)state;
	cost_model_default(&c);
	cost_model_default(&def);
	assert_int_equal(cost_profile_parse(&c,
					    "# calibrate\n[costs]\nsyscall = 77\n"
					    "ipi_latency.llc = 900\n",
					    "p.costs", err, sizeof(err)),
			 0);
	assert_int_equal(c.syscall, 77);
	assert_int_equal(c.ipi_latency[DIST_LLC], 900);
	assert_int_equal(c.fork, def.fork);
	assert_int_equal(cost_profile_parse(&c, "[costs]\nsyscall = 1\n[machine]\n", "p.costs", err,
					    sizeof(err)),
			 -1);
	assert_string_equal(
		err, "p.costs:3: [machine] in a cost profile, which has only a [costs] section");
}

/* Every preset, exported and read back, is the same machine. */
/* turbo_cores/turbo_khz and an idle state's deep flag (docs/machines.md) */
static void test_turbo_refused(void **state)
{
#define TURBO_CLASS(cores, khz)                                               \
	"[machine]\nname = t\n[topology]\nshape = core:4\n[class.0]\n"        \
	"capacity = 1024\nladder_khz = 1000000 500000 3000000\nturbo_cores = " \
	cores "\nturbo_khz = " khz "\n[idle.0]\nname = POLL\n"                 \
	"exit_latency_ns = 0\ntarget_residency_ns = 0\npolls = yes\n"
	struct topology *t;

	(void)state;
	refused("[class.0]\nturbo_khz = 3000000\nturbo_khz = 3000000\n", "turbo_khz given twice");
	refused("[class.0]\nturbo_cores = 1\nturbo_cores = 1\n", "turbo_cores given twice");
	refused("[class.0]\nturbo_cores = 2 1\n", "1 after 2: the core counts must ascend");
	refused("[class.0]\nturbo_khz = 2000000 3000000\n", "cannot grant more");
	refused("[class.0]\nturbo_cores = 0\n", "turbo_cores: 0 is out of range");
	refused("[class.0]\nturbo_cores = 1 2 3 4 5 6 7 8 9\n", "more than 8 values");
	refused("[idle.0]\ndeep = maybe\n", "deep: 'maybe' is not one of");
	refused(TURBO_CLASS("1 4", "3000000"), "turbo_cores has 2 values and turbo_khz 1");
	refused(TURBO_CLASS("1 4", "2900000 2000000"),
		"turbo_khz: 2900000 is not one of the class's frequencies");
	t = parse(TURBO_CLASS("1 4", "3000000 2000000"));
	assert_non_null(t);
	topology_free(t);
#undef TURBO_CLASS
}

static void test_export_round_trip(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < nr_machine_presets; i++) {
		struct topology *a = topology_load(machine_presets[i].name, err, sizeof(err)), *b;
		char *text = NULL;
		size_t len;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(a);
		topology_export(a, f);
		fclose(f);
		b = parse(text);
		if (!b)
			fail_msg("%s: %s", machine_presets[i].name, err);
		assert_string_equal(a->name, b->name);
		assert_string_equal(a->description, b->description);
		assert_string_equal(a->approximations, b->approximations);
		assert_int_equal(a->nr_cpus, b->nr_cpus);
		assert_memory_equal(a->cpus, b->cpus, a->nr_cpus * sizeof(*a->cpus));
		assert_memory_equal(a->node_distance, b->node_distance,
				    a->nr_nodes * a->nr_nodes * sizeof(int));
		assert_memory_equal(&a->cost, &b->cost, sizeof(a->cost));
		assert_memory_equal(&a->cpufreq, &b->cpufreq, sizeof(a->cpufreq));
		assert_memory_equal(a->idle_states, b->idle_states, sizeof(a->idle_states));
		assert_int_equal(a->node_reclaim_distance, b->node_reclaim_distance);
		assert_int_equal(a->cache_l2_span, b->cache_l2_span);
		assert_int_equal(a->cache_llc_span, b->cache_llc_span);
		topology_free(a);
		topology_free(b);
		free(text);
	}
}

static void test_path_names(void **state)
{
	(void)state;
	assert_true(machine_name_is_path("./x"));
	assert_true(machine_name_is_path("box.machine"));
	assert_false(machine_name_is_path(".machine"));
	assert_false(machine_name_is_path("xeon-8269cy-2s"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal),		 cmocka_unit_test(test_text_keys_join),
		cmocka_unit_test(test_explicit_cpus),	 cmocka_unit_test(test_errors),
		cmocka_unit_test(test_cost_profile),	 cmocka_unit_test(test_export_round_trip),
		cmocka_unit_test(test_path_names),	 cmocka_unit_test(test_default_governor),
		cmocka_unit_test(test_preset_governors), cmocka_unit_test(test_turbo_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
