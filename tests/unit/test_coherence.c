// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cache-line ownership (src/sim/coherence.c): who pays what for reading and
 * writing shared lines, with costs whose values say where they came from.
 */
#include "test_util.h"

#include <stdlib.h>

#include "sim/coherence.h"
#include "sim/machine.h"

static struct topology *topo;
static struct cost_model cost;
static unsigned int cpu_at[NR_DIST]; /* a CPU at each distance from CPU 0, or 0 */

static int setup(void **state)
{
	char err[256];

	(void)state;
	topo = topology_load("smt2-2s-16", err, sizeof(err));
	if (!topo)
		return -1;
	cost_model_default(&cost);
	for (int d = 0; d < NR_DIST; d++)
		cost.cacheline[d] = 1000 * (u64)(d + 1);
	cost.llc_hit = 30;
	cost.mem_latency = 7;
	cost.line_mlp = 4;
	machine_init(topo, &cost, 1);
	for (unsigned int cpu = machine.nr_cpus; cpu-- > 1;)
		cpu_at[cpu_dist(0, cpu)] = cpu;
	memset(&coherence_stats, 0, sizeof(coherence_stats));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	machine_destroy();
	topology_free(topo);
	return 0;
}

/*
 * Run @fn's access on @cpu and return what that CPU was charged. Each
 * access starts 100 us after the last, so no transfer is still in flight.
 */
static u64 now_us;

static u64 on(unsigned int cpu, u64 (*fn)(struct cache_line *), struct cache_line *l)
{
	u64 before, ns;

	now_us += 100;
	sim_cpu(cpu)->t = now_us * 1000;
	before = sim_cpu(cpu)->t;
	sim_set_this_cpu(cpu);
	ns = fn(l);
	assert_int_equal(sim_cpu(cpu)->t - before, ns);
	return ns;
}

static void test_first_touch_and_local_hits(void **state)
{
	struct cache_line l;

	(void)state;
	cache_line_init(&l, 1);
	assert_int_equal(l.owner, -1);
	/* nobody holds it: memory */
	assert_int_equal(on(0, cl_read, &l), 7);
	/* now this CPU has it: free to read again, and to write (no other copy) */
	assert_int_equal(on(0, cl_read, &l), 0);
	assert_int_equal(on(0, cl_write, &l), 0);
	assert_int_equal(l.owner, 0);
	assert_int_equal(on(0, cl_write, &l), 0);
	assert_int_equal(on(0, cl_read, &l), 0);
}

static void test_transfer_priced_by_distance(void **state)
{
	(void)state;
	assert_true(cpu_at[DIST_SMT] && cpu_at[DIST_LLC] && cpu_at[DIST_NUMA]);
	for (int d = DIST_SMT; d < NR_DIST; d++) {
		struct cache_line l;
		unsigned int other = cpu_at[d];

		if (!other)
			continue;
		cache_line_init(&l, 1);
		on(0, cl_write, &l);
		/* modified on CPU 0: the reader pays the transfer from there */
		assert_int_equal(on(other, cl_read, &l), cost.cacheline[d]);
		/* both hold it clean now */
		assert_int_equal(on(other, cl_read, &l), 0);
		assert_int_equal(on(0, cl_read, &l), 0);
		/* a write invalidates the other copy: a round to the other CPU */
		assert_int_equal(on(other, cl_write, &l), cost.cacheline[d]);
		assert_int_equal(l.owner, (s32)other);
		/* and CPU 0 lost its copy */
		assert_int_equal(on(0, cl_read, &l), cost.cacheline[d]);
	}
}

static void test_clean_lines_come_from_the_llc(void **state)
{
	struct cache_line l;
	unsigned int llc = cpu_at[DIST_LLC], numa = cpu_at[DIST_NUMA];

	(void)state;
	cache_line_init(&l, 1);
	on(0, cl_write, &l);
	on(llc, cl_read, &l); /* shared by 0 and llc now */
	/* another core of the same LLC reads a clean line: an LLC hit */
	assert_int_equal(on(cpu_at[DIST_SMT], cl_read, &l), cost.llc_hit);
	/* the other socket: a transfer from the nearest holder */
	assert_int_equal(on(numa, cl_read, &l), cost.cacheline[DIST_NUMA]);
	/* a write from the other socket waits for the farthest copy */
	assert_int_equal(on(cpu_at[DIST_SMT], cl_write, &l), cost.cacheline[DIST_NUMA]);
}

static void test_directory_forgets_the_oldest_sharer(void **state)
{
	struct cache_line l;

	(void)state;
	cache_line_init(&l, 1);
	on(0, cl_write, &l);
	/* CPU 0 plus CL_MAX_SHARERS more readers: CPU 0 falls out */
	for (unsigned int i = 1; i <= CL_MAX_SHARERS; i++)
		on(i, cl_read, &l);
	assert_int_equal(l.nr_sharers, CL_MAX_SHARERS);
	assert_int_not_equal(on(0, cl_read, &l), 0);
	/* the most recent ones are still there */
	assert_int_equal(on(CL_MAX_SHARERS, cl_read, &l), 0);
}

/*
 * The directory is searched as one word (cl_held_clean()): every sharer
 * hits wherever it sits, and what a write left in the unused entries does
 * not (the entries are not cleared, only the count).
 */
static void test_directory_lookup_sees_only_live_sharers(void **state)
{
	struct cache_line l;

	(void)state;
	cache_line_init(&l, 1);
	on(0, cl_write, &l);
	for (unsigned int i = 1; i < CL_MAX_SHARERS; i++)
		on(i, cl_read, &l);
	/* 0 (the writer, now clean) and 1 .. 3, oldest first */
	assert_int_equal(l.nr_sharers, CL_MAX_SHARERS);
	for (unsigned int i = 0; i < CL_MAX_SHARERS; i++)
		assert_int_equal(on(i, cl_read, &l), 0);
	/* a write by CPU 5 leaves the entries 0, 1, 2, 3 in place behind a count of 0 */
	on(5, cl_write, &l);
	assert_int_equal(l.nr_sharers, 0);
	/* the last entry's old CPU misses: it is read from 5 (5 and 3 now, 2 and 3 stale) */
	assert_int_not_equal(on(3, cl_read, &l), 0);
	assert_int_equal(l.nr_sharers, 2);
	/* the third entry's old CPU misses too; 5 and 3 hit */
	assert_int_not_equal(on(2, cl_read, &l), 0);
	assert_int_equal(on(5, cl_read, &l), 0);
	assert_int_equal(on(3, cl_read, &l), 0);
	/* two live entries: the first two lanes hit, the rest do not */
	on(6, cl_write, &l);
	on(2, cl_read, &l);
	assert_int_equal(l.nr_sharers, 2);
	assert_int_equal(on(6, cl_read, &l), 0);
	assert_int_equal(on(2, cl_read, &l), 0);
	assert_int_not_equal(on(3, cl_read, &l), 0);
}

static void test_groups_overlap_misses(void **state)
{
	struct cache_line l;
	u64 one = cost.cacheline[DIST_LLC];
	unsigned int llc = cpu_at[DIST_LLC];

	(void)state;
	cache_line_init(&l, 7);
	on(0, cl_write, &l);
	/* 7 lines, 4 in flight: the first in full, the other 6 at a quarter */
	assert_int_equal(on(llc, cl_read, &l), one + (6 * one + 3) / 4);
	/* a buffer of varying size: its first 2 lines */
	on(0, cl_write, &l);
	sim_set_this_cpu(llc);
	sim_cpu(llc)->t += 1000 * 1000;
	assert_int_equal(cl_read_n(&l, 2), one + (one + 3) / 4);
	assert_int_equal(cl_read_n(&l, 0), 0);
}

/* a line is in one place at a time: a CPU that wants it mid-flight waits */
static void test_transfers_in_flight_queue(void **state)
{
	struct cache_line l;
	unsigned int a = cpu_at[DIST_LLC], b = cpu_at[DIST_NUMA];
	u64 llc = cost.cacheline[DIST_LLC];

	(void)state;
	cache_line_init(&l, 1);
	on(0, cl_write, &l);
	/* CPU a takes it at T: in flight until T + llc */
	sim_set_this_cpu(a);
	sim_cpu(a)->t = 10 * 1000 * 1000;
	assert_int_equal(cl_write(&l), llc);
	/* CPU b asks 100 ns into that transfer: waits the rest, then its own */
	sim_set_this_cpu(b);
	sim_cpu(b)->t = 10 * 1000 * 1000 + 100;
	assert_int_equal(cl_write(&l), (llc - 100) + cost.cacheline[cpu_dist(a, b)]);
	assert_int_equal(coherence_stats.queued, 1);
	assert_int_equal(coherence_stats.queued_ns, llc - 100);
	/* a CPU whose now is before that transfer began asked first: no wait */
	sim_set_this_cpu(0);
	sim_cpu(0)->t = 5 * 1000 * 1000;
	assert_int_equal(cl_read(&l), cost.cacheline[cpu_dist(b, 0)]);
	assert_int_equal(coherence_stats.queued, 1);
}

static void test_fetch_by_writer(void **state)
{
	(void)state;
	sim_set_this_cpu(0);
	assert_int_equal(cl_fetch(0, 5), 0);
	assert_int_equal(cl_fetch(-1, 1), cost.mem_latency);
	assert_int_equal(cl_fetch((int)cpu_at[DIST_NUMA], 1), cost.cacheline[DIST_NUMA]);
	assert_int_equal(cl_fetch((int)cpu_at[DIST_SMT], 0), 0);
}

static void test_stats_count_what_was_charged(void **state)
{
	struct cache_line l;

	(void)state;
	memset(&coherence_stats, 0, sizeof(coherence_stats));
	cache_line_init(&l, 1);
	on(0, cl_write, &l); /* memory */
	assert_int_equal(on(cpu_at[DIST_NUMA], cl_read, &l), /* transfer */
			 cost.cacheline[DIST_NUMA]);
	on(cpu_at[DIST_SMT], cl_read, &l); /* LLC hit (CPU 0 holds it) */
	assert_int_equal(coherence_stats.mem_reads, 1);
	assert_int_equal(coherence_stats.transfers, 1);
	assert_int_equal(coherence_stats.llc_hits, 1);
	assert_int_equal(coherence_stats.stall_ns,
			 cost.mem_latency + cost.cacheline[DIST_NUMA] + cost.llc_hit);
}

/*
 * cpu_dist() (packed keys, and the one-compare codes where levels nest)
 * agrees with topology_cpu_dist() for every pair of CPUs of every shape
 * of preset: SMT, clusters, CCXs, several nodes per package, no SMT.
 */
static void test_cpu_dist_matches_topology(void **state)
{
	static const char *const presets[] = { "smp1", "smt2-2s-16", "power10-96", "pixel6",
					       "arm64-2x4", "epyc-milan-2s-256",
					       "westmere-ex-8s-80-noht", "altra-2s-160" };
	char err[256];

	(void)state;
	for (unsigned int p = 0; p < ARRAY_SIZE(presets); p++) {
		struct topology *t = topology_load(presets[p], err, sizeof(err));

		assert_non_null(t);
		machine_init(t, NULL, 1);
		for (int pass = 0; pass < 2; pass++) {
			for (unsigned int a = 0; a < t->nr_cpus; a++)
				for (unsigned int b = 0; b < t->nr_cpus; b++)
					assert_int_equal(cpu_dist(a, b),
							 topology_cpu_dist(t, a, b));
			/* the second pass without the codes: the keys alone */
			free(machine.dist_code);
			machine.dist_code = NULL;
		}
		machine_destroy();
		topology_free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_dist_matches_topology),
		cmocka_unit_test_setup_teardown(test_first_touch_and_local_hits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transfer_priced_by_distance, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clean_lines_come_from_the_llc, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_directory_forgets_the_oldest_sharer, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_directory_lookup_sees_only_live_sharers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_groups_overlap_misses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transfers_in_flight_queue, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fetch_by_writer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats_count_what_was_charged, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
