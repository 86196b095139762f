// SPDX-License-Identifier: GPL-2.0-only
/*
 * SD_ASYM_PACKING (x86 ITMT, powerpc shared LPARs): the domains get the flag
 * where the machine's [asym_packing] says, each group knows its preferred
 * CPU, and the balancer packs tasks onto the highest-priority CPUs: between
 * cores only onto a wholly idle core. On alderlake-i9-12900k the P-cores
 * (CPUs 0-15, priority 65) are preferred to the E-cores (16-23, 39).
 */
#include "test_sched_helpers.h"

#include "kernel/fair_lb.h"
#include "topo/machine_file.h"

#define ADL "alderlake-i9-12900k"

static struct task_struct *hogs[32];

static void start_hogs(unsigned int n, unsigned int cpu)
{
	for (unsigned int i = 0; i < n; i++)
		hogs[i] = tl_work_task("hog", &tl_busy_prog, cpu);
}

static unsigned int hogs_on_cpus(unsigned int n, unsigned int first, unsigned int last)
{
	unsigned int count = 0;

	for (unsigned int i = 0; i < n; i++)
		count += task_cpu(hogs[i]) >= first && task_cpu(hogs[i]) <= last;
	return count;
}

/* ITMT's levels: CLS, MC, (PKG degenerates on one package) but never SMT */
static void test_adl_domains_have_asym_packing(void **state)
{
	struct sched_domain *sd;

	(void)state;
	tl_setup(ADL, TL_ZERO_COST, 0, NULL);
	assert_false(tl_sd(0, "SMT")->flags & SD_ASYM_PACKING);
	assert_true(tl_sd(16, "CLS")->flags & SD_ASYM_PACKING);
	sd = tl_sd(16, "MC");
	assert_true(sd->flags & SD_ASYM_PACKING);
	assert_ptr_equal(per_cpu(sd_asym_packing, 16), sd);
	/* MC's groups: each E cluster prefers its first CPU, each P-core its first thread */
	for (struct sched_group *sg = sd->groups;; sg = sg->next) {
		unsigned int first = cpumask_first(sg->cpumask);

		assert_int_equal(sg->asym_prefer_cpu, (int)first);
		if (sg->next == sd->groups)
			break;
	}
	assert_true(sched_asym_prefer(0, 16));
	assert_false(sched_asym_prefer(16, 0));
	assert_false(sched_asym_prefer(0, 1));
	tl_teardown();
}

/* the x86 sysctl takes the flag away, and the machine keeps its priorities */
static void test_itmt_sysctl_clears_the_flag(void **state)
{
	char err[256];

	(void)state;
	sched_sysctl_reset();
	assert_int_equal(sched_sysctl_set("sched_itmt_enabled=0", err, sizeof(err)), 0);
	tl_setup(ADL, TL_ZERO_COST, 0, NULL);
	assert_false(tl_sd(16, "MC")->flags & SD_ASYM_PACKING);
	assert_null(per_cpu(sd_asym_packing, 16));
	tl_teardown();
	sched_sysctl_reset();
}

/*
 * One hog per P-core: 8 hogs started on an E-core end on the first threads
 * of the 8 P-cores (a P-core with a busy sibling is not preferred, so none
 * doubles up while a whole P-core is idle) and no E-core runs one.
 */
static void test_hogs_pack_onto_p_cores(void **state)
{
	(void)state;
	tl_setup(ADL, TL_REAL_COST, 0, NULL);
	start_hogs(8, 16);
	tl_run_until(NSEC_PER_SEC, true);
	assert_int_equal(hogs_on_cpus(8, 16, 23), 0);
	for (unsigned int core = 0; core < 8; core++)
		assert_int_equal(hogs_on_cpus(8, 2 * core, 2 * core + 1), 1);
	tl_teardown();
}

/* without ITMT the same hogs spread by load alone: some stay on E-cores */
static void test_without_itmt_hogs_stay_on_e_cores(void **state)
{
	char err[256];

	(void)state;
	sched_sysctl_reset();
	assert_int_equal(sched_sysctl_set("sched_itmt_enabled=0", err, sizeof(err)), 0);
	tl_setup(ADL, TL_REAL_COST, 0, NULL);
	start_hogs(8, 16);
	tl_run_until(NSEC_PER_SEC, true);
	assert_true(hogs_on_cpus(8, 16, 23) > 0);
	tl_teardown();
	sched_sysctl_reset();
}

/*
 * sched_use_asym_prio(): between cores a CPU's priority counts only while
 * its whole core is idle. CPU 1 outranks E-core 16, until a task runs on
 * its sibling, CPU 0; at the SMT level priorities always count (none here:
 * ITMT leaves SMT out, so only CLS/MC decide).
 */
static void test_busy_sibling_loses_priority(void **state)
{
	struct sched_domain *mc;

	(void)state;
	tl_setup(ADL, TL_ZERO_COST, 0, NULL);
	mc = tl_sd(1, "MC");
	assert_true(sched_asym(mc, 1, 16));
	assert_false(sched_asym(mc, 16, 1));
	tl_fork_running("busy", 0);
	assert_false(sched_asym(mc, 1, 16));
	/* an E-core has no sibling: idle, it outranks nothing of higher priority */
	assert_false(sched_asym(tl_sd(17, "MC"), 17, 2));
	assert_true(sched_asym(tl_sd(17, "CLS"), 17, 18) == sched_asym_prefer(17, 18));
	tl_teardown();
}

static struct topology *parse(const char *text, char *err, size_t len)
{
	return topology_parse_machine(text, "t.machine", err, len);
}

#define MF_HEAD                                                                              \
	"[machine]\nname = t\n[topology]\nshape = core:4 pu:2\n[class.0]\ncapacity = 1024\n" \
	"opps_khz = 1000000\n[idle.0]\nname = POLL\nexit_latency_ns = 0\n"                   \
	"target_residency_ns = 0\npolls = yes\n"

/* the section's forms, its errors with file and line, and the export round trip */
static void test_asym_packing_section(void **state)
{
	char err[512], *buf = NULL;
	size_t len;
	struct topology *t, *u;
	FILE *f;

	(void)state;
	t = parse(MF_HEAD "[asym_packing]\nlevels = SMT PKG\npriority = cpu_order 2\n", err,
		  sizeof(err));
	assert_non_null(t);
	assert_int_equal(t->asym_packing.levels, (1u << ASYM_LV_SMT) | (1u << ASYM_LV_PKG));
	assert_int_equal(topology_asym_prio(t, 0), 0);
	assert_int_equal(topology_asym_prio(t, 3), -1);
	assert_int_equal(topology_asym_prio(t, 7), -3);
	f = open_memstream(&buf, &len);
	topology_export(t, f);
	fclose(f);
	u = parse(buf, err, sizeof(err));
	assert_non_null(u);
	for (unsigned int cpu = 0; cpu < 8; cpu++)
		assert_int_equal(topology_asym_prio(u, cpu), topology_asym_prio(t, cpu));
	assert_int_equal(u->asym_packing.levels, t->asym_packing.levels);
	topology_free(u);
	topology_free(t);
	free(buf);

	/* a class's hardware speed apart from the capacity the kernel is told */
	t = parse("[machine]\nname = t\n[topology]\nshape = core:2\n[class.0]\ncapacity = 1024\n"
		  "speed = 600\nopps_khz = 1000000\n[idle.0]\nname = POLL\nexit_latency_ns = 0\n"
		  "target_residency_ns = 0\npolls = yes\n",
		  err, sizeof(err));
	assert_non_null(t);
	assert_int_equal(t->cpus[1].capacity, 1024);
	assert_int_equal(t->cpus[1].speed, 600);
	assert_false(t->asym_capacity);
	topology_free(t);

	/* no priority: the kernel's default, lower CPU numbers first */
	t = parse(MF_HEAD "[asym_packing]\nlevels = MC\nitmt = yes\n", err, sizeof(err));
	assert_non_null(t);
	assert_true(t->asym_packing.itmt);
	assert_int_equal(topology_asym_prio(t, 5), -5);
	topology_free(t);

	assert_null(parse(MF_HEAD "[asym_packing]\nlevels = MC NUMA\n", err, sizeof(err)));
	assert_string_equal(err, "t.machine:14: levels: unknown level 'NUMA' (SMT, CLS, MC, PKG)");
	assert_null(parse(MF_HEAD "[asym_packing]\nitmt = yes\n", err, sizeof(err)));
	assert_string_equal(err, "t.machine:13: [asym_packing] needs levels = ...");
	assert_null(
		parse(MF_HEAD "[asym_packing]\nlevels = MC\npriority = 0-3:5\n", err, sizeof(err)));
	assert_string_equal(err, "t.machine:15: priority: CPU 4 has none (give every CPU one)");
	assert_null(
		parse(MF_HEAD "[asym_packing]\nlevels = MC\npriority = 0-7:x\n", err, sizeof(err)));
	assert_string_equal(err, "t.machine:15: priority: 'x' is not a priority in 0..65535");
	assert_null(parse(MF_HEAD "[asym_packing]\nlevels = MC\npriority = 0-7:1 3:2\n", err,
			  sizeof(err)));
	assert_string_equal(err, "t.machine:15: priority: CPU 3 given twice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adl_domains_have_asym_packing),
		cmocka_unit_test(test_itmt_sysctl_clears_the_flag),
		cmocka_unit_test(test_hogs_pack_onto_p_cores),
		cmocka_unit_test(test_without_itmt_hogs_stay_on_e_cores),
		cmocka_unit_test(test_busy_sibling_loses_priority),
		cmocka_unit_test(test_asym_packing_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
