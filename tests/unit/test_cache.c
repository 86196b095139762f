// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cache footprints (src/sim/cache.c): what a task switched in pays to
 * refill the part of its working set that other tasks' running evicted, or
 * that it left under another cache. Every expected value is worked out by
 * hand from the round-number cost model below.
 */
#include "test_util.h"

#include "cli/session.h"
#include "sim/cache.h"
#include "sim/machine.h"

#include <stdlib.h>

#define KB 1024ULL

/*
 * L2 64 KiB, LLC 256 KiB; per line llc 10, xllc 40, remote cache 50,
 * memory 100, remote memory 200 ns, 2 misses in flight. So one KiB (16
 * lines) costs 16 * lat / 2 = 8 * lat: 80 ns from the LLC, 320 from another
 * LLC, 400 from a remote cache, 800 from memory, 1600 from remote memory.
 */
static struct cost_model cost;

static struct topology *start(const char *name)
{
	char err[256];
	struct topology *t = topology_load(name, err, sizeof(err));

	if (!t)
		fail_msg("topology_load(%s): %s", name, err);
	cost_model_default(&cost);
	cost.cache_l2_kb = 64;
	cost.cache_llc_kb = 256;
	cost.llc_hit = 10;
	cost.cacheline[DIST_PACKAGE] = 40;
	cost.cacheline[DIST_NUMA] = 50;
	cost.mem_latency = 100;
	cost.mem_remote_latency = 200;
	cost.line_mlp = 2;
	/* the private cache alone; test_l1_refill() puts an L1 in front */
	cost.cache_l1_kb = 0;
	machine_init(t, &cost, 1);
	return t;
}

static void stop(struct topology *t)
{
	machine_destroy();
	topology_free(t);
}

/* @f's task runs on @cpu (switched in, then out with nothing else between) */
static u64 run(struct cache_footprint *f, unsigned int cpu, struct cache_refill *r)
{
	u64 ns = cache_switch_in(f, cpu, r);

	cache_switch_out(f, cpu);
	return ns;
}

static void test_surviving(void **state)
{
	(void)state;
	/* fully associative LRU: min(F, C - D), nothing once D >= C */
	assert_int_equal(cache_surviving(32 * KB, 0, 64 * KB), 32 * KB);
	assert_int_equal(cache_surviving(32 * KB, 32 * KB, 64 * KB), 32 * KB);
	assert_int_equal(cache_surviving(32 * KB, 48 * KB, 64 * KB), 16 * KB);
	assert_int_equal(cache_surviving(32 * KB, 64 * KB, 64 * KB), 0);
	assert_int_equal(cache_surviving(32 * KB, UINT64_MAX, 64 * KB), 0);
	/* a footprint larger than the cache keeps at most the cache */
	assert_int_equal(cache_surviving(100 * KB, 0, 64 * KB), 64 * KB);
}

/* (a) the same CPU again, after another task with a known footprint ran there */
static void test_same_cpu_after_another(void **state)
{
	struct topology *t = start("smt2-2s-16");
	struct cache_footprint a, b;
	struct cache_refill r;

	(void)state;
	cache_footprint_init(&a, 32 * KB);
	cache_footprint_init(&b, 48 * KB);
	/* first runs pay nothing (fork/exec did) but fill the caches */
	assert_int_equal(run(&a, 0, &r), 0);
	assert_int_equal(run(&b, 0, &r), 0);
	assert_int_equal(cache_l2_occupancy(0), 80 * KB);
	assert_int_equal(cache_l2_touched(0), 80 * KB);
	/*
	 * A again: 48 KiB of others since, so 64 - 48 = 16 KiB of A survive in
	 * L2; all 32 KiB survive in the 256 KiB LLC: 16 KiB from the LLC at
	 * 80 ns/KiB = 1280 ns.
	 */
	assert_int_equal(run(&a, 0, &r), 1280);
	assert_int_equal(r.from_llc, 16 * KB);
	assert_int_equal(r.from_mem + r.from_xllc + r.from_remote + r.from_mem_remote, 0);
	/* A touched its 32 KiB in L2; the 16 KiB that missed looked in the LLC */
	assert_int_equal(cache_l2_touched(0), 112 * KB);
	assert_int_equal(cache_llc_touched(0), 96 * KB);
	/* B again: 32 KiB of A since, 32 of its 48 KiB survive: 16 KiB again */
	assert_int_equal(run(&b, 0, &r), 1280);
	/* and so on for as long as they alternate: 80 KiB do not fit in 64 */
	for (int i = 0; i < 10; i++) {
		assert_int_equal(run(&a, 0, &r), 1280);
		assert_int_equal(run(&b, 0, &r), 1280);
	}
	/* the SMT sibling shares the core's L2: B's 48 KiB evicted A there too */
	assert_int_equal(run(&a, 8, &r), 1280);
	assert_int_equal(r.from_llc, 16 * KB);
	stop(t);
}

/* (d) nothing when the footprints fit together, however often the others ran */
static void test_nothing_when_footprints_fit(void **state)
{
	struct topology *t = start("smt2-2s-16");
	struct cache_footprint c, d, e;
	struct cache_refill r;

	(void)state;
	cache_footprint_init(&c, 16 * KB);
	cache_footprint_init(&d, 16 * KB);
	cache_footprint_init(&e, 16 * KB);
	run(&e, 1, &r);
	run(&c, 1, &r);
	run(&d, 9, &r);
	/* C and D ping-pong 100 times on core 1 (CPU 1 and its sibling 9) */
	for (int i = 0; i < 100; i++) {
		assert_int_equal(run(&c, 1, &r), 0);
		assert_int_equal(run(&d, i & 1 ? 9 : 1, &r), 0);
	}
	/*
	 * 3.2 MB were touched on core 1 since E ran, but only 32 KiB of other
	 * tasks live there: E's 16 KiB are still in the 64 KiB L2
	 */
	assert_int_equal(cache_l2_touched(1), 16 * KB + 32 * KB + 200 * 16 * KB);
	assert_int_equal(run(&e, 1, &r), 0);
	assert_int_equal(r.from_llc + r.from_mem, 0);
	/* the default footprint stands for a task that sets none */
	cache_footprint_init(&c, 0);
	run(&c, 2, &r);
	assert_int_equal(cache_l2_occupancy(2), CACHE_DEFAULT_FOOTPRINT);
	stop(t);
}

/* (b) a migration within an LLC, from the LLC and then partly from memory */
static void test_migration_within_llc(void **state)
{
	struct topology *t = start("smt2-2s-16");
	struct cache_footprint a, b;
	struct cache_refill r;

	(void)state;
	cache_footprint_init(&a, 32 * KB);
	run(&a, 0, &r);
	/* to core 1 of the same LLC: all 32 KiB from core 0's L2 / the LLC: 2560 ns */
	assert_int_equal(run(&a, 1, &r), 2560);
	assert_int_equal(r.from_llc, 32 * KB);
	/* its footprint moved with it */
	assert_int_equal(cache_l2_occupancy(0), 0);
	assert_int_equal(cache_l2_occupancy(1), 32 * KB);
	assert_int_equal(cache_llc_occupancy(1), 32 * KB);

	/*
	 * B (240 KiB) runs on core 1's sibling: 240 KiB touched in core 1's L2
	 * (A gone from it) and in the LLC (256 - 240 = 16 KiB of A left). A moves
	 * to core 2: 16 KiB from the LLC (1280 ns), 16 KiB from memory of its
	 * own node (12800 ns).
	 */
	cache_footprint_init(&b, 240 * KB);
	run(&b, 9, &r);
	assert_int_equal(run(&a, 2, &r), 1280 + 12800);
	assert_int_equal(r.from_llc, 16 * KB);
	assert_int_equal(r.from_mem, 16 * KB);
	assert_int_equal(r.from_mem_remote, 0);
	stop(t);
}

/* (c) across LLCs: another package and node, another LLC of the package */
static void test_migration_across_llcs(void **state)
{
	struct topology *t = start("smt2-2s-16");
	struct cache_footprint a, e;
	struct cache_refill r;

	(void)state;
	cache_footprint_init(&a, 32 * KB);
	cache_footprint_init(&e, 240 * KB);
	run(&a, 0, &r);		/* its memory is on node 0 */
	run(&e, 8, &r);		/* core 0's sibling: evicts A from L2, half from the LLC */
	/*
	 * A on CPU 4 (package and node 1): 16 KiB from node 0's LLC at 400
	 * ns/KiB (6400) and 16 KiB from node 0's memory at 1600 (25600)
	 */
	assert_int_equal(run(&a, 4, &r), 6400 + 25600);
	assert_int_equal(r.from_remote, 16 * KB);
	assert_int_equal(r.from_mem_remote, 16 * KB);
	assert_int_equal(r.from_llc + r.from_mem + r.from_xllc, 0);
	assert_int_equal(cache_llc_occupancy(0), 240 * KB);
	assert_int_equal(cache_llc_occupancy(4), 32 * KB);
	/* and nothing on its next run there */
	assert_int_equal(run(&a, 4, &r), 0);
	/* its exit takes its footprint out of the caches */
	cache_task_exit(&a);
	assert_int_equal(cache_llc_occupancy(4), 0);
	stop(t);

	/* two LLCs of one package (arm64-2x4): from the other LLC, 320 ns/KiB */
	t = start("arm64-2x4");
	cache_footprint_init(&a, 32 * KB);
	run(&a, 0, &r);
	assert_int_equal(run(&a, 4, &r), 32 * 320);
	assert_int_equal(r.from_xllc, 32 * KB);
	stop(t);
}

/* The presets' cache spans: Altra's SLC spans the socket, POWER10's L2 the big core. */
static void test_preset_spans(void **state)
{
	struct topology *t;
	struct cache_footprint a;
	struct cache_refill r;

	(void)state;
	/* altra-80: CPUs 0 and 2 are in different Linux LLCs but one SLC */
	t = start("altra-80");
	assert_int_not_equal(t->cpus[0].llc, t->cpus[2].llc);
	cache_footprint_init(&a, 32 * KB);
	run(&a, 0, &r);
	assert_int_equal(run(&a, 2, &r), 32 * 80);
	assert_int_equal(r.from_llc, 32 * KB);
	stop(t);

	/* power10-96: CPUs 0 and 1 are different SMT4 cores of one big core */
	t = start("power10-96");
	assert_int_not_equal(t->cpus[0].core, t->cpus[1].core);
	assert_int_equal(t->cpus[0].llc, t->cpus[1].llc);
	cache_footprint_init(&a, 32 * KB);
	run(&a, 0, &r);
	assert_int_equal(run(&a, 1, &r), 0);
	/* to another big core (CPU 8): from that L3 region, 320 ns/KiB */
	assert_int_not_equal(t->cpus[0].llc, t->cpus[8].llc);
	assert_int_equal(run(&a, 8, &r), 32 * 320);
	stop(t);
}

/*
 * Through context_switch(): perf bench sched pipe on one CPU with no cache
 * at all refills each task's whole footprint from memory at every switch.
 * Each round trip switches to each task once: the worker (12 KiB + 2 pipes
 * = 14 KiB) and, in process mode, the parent as worker 1 (the 16 KiB
 * default); with threads, two 14 KiB workers. At 90 ns per line and 4 in
 * flight: 14 KiB = 224 lines = 5040 ns, 16 KiB = 5760 ns.
 */
static double pipe_us(const char *const *costs, int nr, bool threads)
{
	char err[256];
	char *argv[] = { "perf", "bench", "sched", "pipe", "-l", "5000", threads ? "-T" : NULL, NULL };
	struct session_config cfg = {
		.machine = "smp1",
		.features = "NO_WAKEUP_PREEMPTION",
		.seed = 1,
		.costs = costs,
		.nr_costs = nr,
		.argc = threads ? 7 : 6,
		.argv = argv,
	};
	struct session s;
	double us;

	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, false));
	us = (double)bench_elapsed_us(s.bench) / 5000;
	session_end(&s);
	return us;
}

static void test_context_switch_pays_refill(void **state)
{
	static const char *const no_cache[] = { "cache_l2_kb=0", "cache_llc_kb=0",
						"mem_latency=90", "line_mlp=4" };
	double base, cold;

	(void)state;
	base = pipe_us(NULL, 0, false) * 1000;
	cold = pipe_us(no_cache, 4, false) * 1000;
	printf("  processes: %.1f -> %.1f ns per round trip\n", base, cold);
	assert_true(cold - base > (5040 + 5760) * 0.995 && cold - base < (5040 + 5760) * 1.005);
	base = pipe_us(NULL, 0, true) * 1000;
	cold = pipe_us(no_cache, 4, true) * 1000;
	printf("  threads:   %.1f -> %.1f ns per round trip\n", base, cold);
	assert_true(cold - base > 2 * 5040 * 0.995 && cold - base < 2 * 5040 * 1.005);
}

/* the same run twice gives the same refills, byte for byte */
static void test_deterministic(void **state)
{
	struct cache_refill r1[64], r2[64];

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		struct topology *t = start("smt2-2s-16");
		struct cache_footprint f[5];
		struct cache_refill *r = pass ? r2 : r1;

		for (int i = 0; i < 5; i++)
			cache_footprint_init(&f[i], (u64)(i + 1) * 24 * KB);
		for (int i = 0; i < 64; i++)
			run(&f[(i * 7) % 5], (unsigned int)(i * 5) % 16, &r[i]);
		stop(t);
	}
	assert_memory_equal(r1, r2, sizeof(r1));
}

/*
 * A private cache flushed (a long halt on a host whose pCPU powered the
 * core's caches down, docs/guests.md): every task that ran under it
 * refills its whole footprint from the LLC, once; the freed objects' lines
 * are cold; the other cores' caches and the LLC keep theirs.
 */
static void test_flush_private(void **state)
{
	struct topology *t = start("smt2-2s-16");
	struct cache_footprint a, b, c;
	struct cache_refill r;
	u64 traffic = 0;

	(void)state;
	cache_footprint_init(&a, 32 * KB);
	cache_footprint_init(&b, 16 * KB);
	cache_footprint_init(&c, 16 * KB);
	run(&a, 0, &r);
	run(&b, 0, &r);
	run(&c, 1, &r);
	cache_freed_push(0);
	/* both fit in core 0's 64 KiB: nothing to refill */
	assert_int_equal(run(&a, 0, &r), 0);
	cache_flush_private(0);
	assert_int_equal(cache_l2_occupancy(0), 48 * KB);
	/* all of A from the LLC: 32 KiB at 80 ns/KiB; then warm again */
	assert_int_equal(run(&a, 0, &r), 2560);
	assert_int_equal(r.from_llc, 32 * KB);
	assert_int_equal(cache_llc_refill_ns(&cost, 32 * KB), 2560);
	assert_int_equal(run(&a, 0, &r), 0);
	/* B ran before the flush too, and its SMT sibling shares the core's L2 */
	assert_int_equal(run(&b, 8, &r), 1280);
	assert_int_equal(r.from_llc, 16 * KB);
	/* core 1 was not flushed */
	assert_int_equal(run(&c, 1, &r), 0);
	/* the object freed before the flush comes back cold */
	assert_true(cache_freed_pop(0, &traffic));
	assert_int_equal(cache_surviving(512, traffic, 64 * KB), 0);
	stop(t);
}

/*
 * The L1 in front of the private cache (cache_l1_kb 40 KiB, l1_refill 64 ns
 * a KiB, 4 a line): what survives in the L2 but not in the L1 comes back
 * at that, 1024 ns for 16 KiB. The same
 * counter as the L2's, so the same D, at the L1's capacity.
 */
static void test_l1_refill(void **state)
{
	struct topology *t = start("smt2-2s-16");
	struct cache_footprint a, b, c, d, e, f;
	struct cache_refill r;

	(void)state;
	cost.cache_l1_kb = 40;
	cost.l1_refill = 64;
	cache_footprint_init(&a, 16 * KB);
	cache_footprint_init(&b, 16 * KB);
	cache_footprint_init(&c, 16 * KB);
	cache_footprint_init(&d, 16 * KB);
	run(&a, 0, &r);
	run(&b, 0, &r);
	run(&c, 0, &r);
	run(&d, 0, &r);
	/* 48 KiB of others since: all 16 KiB of A in the 64 KiB L2, none in the L1 */
	assert_int_equal(run(&a, 0, &r), 1024);
	assert_int_equal(r.from_l2, 16 * KB);
	assert_int_equal(r.from_llc + r.from_mem, 0);
	assert_int_equal(run(&b, 0, &r), 1024);
	/* A and B alone: 16 KiB between, min(16, 40 - 16) of each stays in the L1 */
	assert_int_equal(run(&a, 0, &r), 0);
	assert_int_equal(run(&b, 0, &r), 0);
	/* three of them: 32 KiB between, min(16, 40 - 32) = 8 KiB stay: 8 back, 512 ns */
	cache_task_exit(&d);
	assert_int_equal(run(&c, 0, &r), 512);
	assert_int_equal(r.from_l2, 8 * KB);
	assert_int_equal(run(&a, 0, &r), 512);
	assert_int_equal(run(&b, 0, &r), 512);
	/*
	 * A footprint larger than the L1 keeps at most the L1's 40 KiB there:
	 * alone, nothing comes back; after F's 16 KiB, 48 KiB of E are left in
	 * the L2 (16 from the LLC, 1280 ns) and 24 in the L1: 16 KiB, 1024 ns
	 */
	cache_footprint_init(&e, 64 * KB);
	cache_footprint_init(&f, 16 * KB);
	run(&e, 1, &r);
	assert_int_equal(run(&e, 1, &r), 0);
	run(&f, 1, &r);
	assert_int_equal(run(&e, 1, &r), 2304);
	assert_int_equal(r.from_l2, 16 * KB);
	assert_int_equal(r.from_llc, 16 * KB);
	/*
	 * F twice in between: 32 KiB touched, but F's 16 KiB are all the
	 * others hold there (E's own 64 KiB are not others, the part the L1
	 * keeps or not), so D is 16 KiB and the same again
	 */
	run(&f, 1, &r);
	run(&f, 1, &r);
	assert_int_equal(run(&e, 1, &r), 2304);
	assert_int_equal(r.from_l2, 16 * KB);
	/* a task that moved to another core refills from the LLC, through no L2 of its own */
	assert_int_equal(run(&a, 2, &r), 1280);
	assert_int_equal(r.from_l2, 0);
	assert_int_equal(r.from_llc, 16 * KB);
	stop(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_surviving),
		cmocka_unit_test(test_same_cpu_after_another),
		cmocka_unit_test(test_nothing_when_footprints_fit),
		cmocka_unit_test(test_migration_within_llc),
		cmocka_unit_test(test_migration_across_llcs),
		cmocka_unit_test(test_preset_spans),
		cmocka_unit_test(test_context_switch_pays_refill),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_flush_private),
		cmocka_unit_test(test_l1_refill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
