// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a unix socket's skbs are when touched again (src/work/skb_cache.c):
 * a read, or the reuse of a slab object freed on this CPU, pays skb_refill
 * for the part of the skb that the bytes touched since pushed out of the
 * private cache. Round numbers: a 64 KiB private cache, skb_refill 700 ns,
 * a 100-byte skb of 7 lines (448 bytes), so 64 bytes cold cost 100 ns.
 */
#include "test_util.h"

#include "sim/cache.h"
#include "sim/machine.h"
#include "work/skb_cache.h"

#define KB 1024ULL
#define LINES 7
#define SKB_BYTES (LINES * 64ULL)

static struct topology *topo;
static struct cost_model cost;

static int setup(void **state)
{
	char err[256];

	(void)state;
	topo = topology_load("smt2-2s-16", err, sizeof(err));
	if (!topo)
		return -1;
	cost_model_default(&cost);
	cost.cache_l2_kb = 64;
	cost.skb_refill = 700;
	machine_init(topo, &cost, 1);
	machine.this_cpu = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	skb_cache_reset();
	machine_destroy();
	topology_free(topo);
	return 0;
}

static void test_lines(void **state)
{
	(void)state;
	/* sk_buff 4 lines + 100 bytes in 2 + skb_shared_info's first line */
	assert_int_equal(skb_lines(100), LINES);
	assert_int_equal(skb_lines(1), 6);
}

/* read at once: hot; after a private cache's worth of other bytes: all of it refilled */
static void test_read_after_traffic(void **state)
{
	u64 mark, t0;

	(void)state;
	assert_int_equal(skb_cache_alloc(LINES, false, &mark), 0);
	assert_int_equal(mark, cache_l2_touched(0));
	t0 = cpu_now();
	assert_int_equal(skb_cache_read(LINES, true, mark), 0);
	skb_cache_alloc(LINES, false, &mark);
	cache_touch(0, 64 * KB);
	assert_int_equal(skb_cache_read(LINES, true, mark), 700);
	/* charged to the running CPU */
	assert_int_equal(cpu_now() - t0, 700);
	/* half of it survives: 224 of 448 bytes refilled */
	skb_cache_alloc(LINES, false, &mark);
	cache_touch(0, 64 * KB - SKB_BYTES / 2);
	assert_int_equal(skb_cache_read(LINES, true, mark), 350);
	/* written on another CPU: that is the caller's line transfer, nothing here */
	skb_cache_alloc(LINES, false, &mark);
	cache_touch(0, 64 * KB);
	assert_int_equal(skb_cache_read(LINES, false, mark), 0);
}

/* the freelist hands back the last object freed first: hot, then the cold one under it */
static void test_freelist_lifo(void **state)
{
	u64 mark;

	(void)state;
	skb_cache_free(); /* A */
	cache_touch(0, 64 * KB);
	skb_cache_free(); /* B, on top */
	assert_int_equal(skb_cache_alloc(LINES, true, &mark), 0);
	/* an object from another CPU leaves this CPU's freelist alone */
	assert_int_equal(skb_cache_alloc(LINES, false, &mark), 0);
	assert_int_equal(skb_cache_alloc(LINES, true, &mark), 700);
	/* nothing freed here left: nothing known, nothing charged */
	assert_int_equal(skb_cache_alloc(LINES, true, &mark), 0);
}

/* objects freed below what the ring remembers come back cold */
static void test_forgotten_are_cold(void **state)
{
	u64 mark, charged = 0;

	(void)state;
	skb_cache_reset();
	/* a private cache so large that everything remembered stays hot */
	cost.cache_l2_kb = 1024 * 1024;
	for (int i = 0; i < 8193; i++)
		skb_cache_free();
	for (int i = 0; i < 8192; i++)
		charged += skb_cache_alloc(LINES, true, &mark);
	assert_int_equal(charged, 0);
	assert_int_equal(skb_cache_alloc(LINES, true, &mark), 700);
	cost.cache_l2_kb = 64;
	skb_cache_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_read_after_traffic),
		cmocka_unit_test(test_freelist_lifo),
		cmocka_unit_test(test_forgotten_are_cold),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
