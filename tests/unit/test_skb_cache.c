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
	sim_set_this_cpu(0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
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
	/* a private cache so large that everything remembered stays hot */
	cost.cache_l2_kb = 1024 * 1024;
	for (int i = 0; i < 8193; i++)
		skb_cache_free();
	assert_int_equal(cache_freed_capacity(0), 8192);
	for (int i = 0; i < 8192; i++)
		charged += skb_cache_alloc(LINES, true, &mark);
	assert_int_equal(charged, 0);
	assert_int_equal(skb_cache_alloc(LINES, true, &mark), 700);
	cost.cache_l2_kb = 64;
}

/* a full ring whose oldest entry is cold forgets it instead of growing */
static void test_ring_forgets_cold_keeps_warm(void **state)
{
	u64 mark;

	(void)state;
	assert_int_equal(cache_freed_capacity(0), 0);
	skb_cache_free();
	assert_int_equal(cache_freed_capacity(0), 64);
	for (int i = 1; i < 64; i++)
		skb_cache_free();
	/* all 64 warm: the 65th doubles the ring */
	skb_cache_free();
	assert_int_equal(cache_freed_capacity(0), 128);
	for (int i = 0; i < 63; i++)
		skb_cache_free();
	/* 128 held, all cold now: pushes forget the oldest, the ring stays */
	cache_touch(0, 64 * KB);
	for (int i = 0; i < 3; i++)
		skb_cache_free();
	assert_int_equal(cache_freed_capacity(0), 128);
	/* 3 hot, 125 cold held, 3 cold forgotten, then nothing */
	for (int i = 0; i < 3; i++)
		assert_int_equal(skb_cache_alloc(LINES, true, &mark), 0);
	for (int i = 0; i < 128; i++)
		assert_int_equal(skb_cache_alloc(LINES, true, &mark), 700);
	assert_int_equal(skb_cache_alloc(LINES, true, &mark), 0);
	/* the other CPUs' rings were never made */
	assert_int_equal(cache_freed_capacity(1), 0);
}

/* an oldest entry just past half the cache's traffic is still warm: the ring grows */
static void test_ring_keeps_barely_warm(void **state)
{
	u64 mark;

	(void)state;
	for (int i = 0; i < 64; i++)
		skb_cache_free();
	cache_touch(0, 33 * KB);
	skb_cache_free();
	assert_int_equal(cache_freed_capacity(0), 128);
	/* the 65 allocations add 65 x 448 bytes: the oldest is still whole */
	for (int i = 0; i < 65; i++)
		assert_int_equal(skb_cache_alloc(LINES, true, &mark), 0);
	assert_int_equal(skb_cache_alloc(LINES, true, &mark), 0);
}

/*
 * Random frees, allocations and traffic charge what an unbounded stack of
 * marks would (the ring forgets only entries cache_surviving() keeps
 * nothing of), and the ring stays at the depth the warm entries need.
 */
static void test_ring_matches_unbounded_stack(void **state)
{
	static u64 stack[20000];
	unsigned int depth = 0;
	u64 seed = 12345, mark;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		switch ((seed >> 33) % 8) {
		case 0:
		case 1:
			if (depth < 20000) {
				stack[depth++] = cache_l2_touched(0);
				skb_cache_free();
			}
			break;
		case 2:
		case 3: {
			u64 want = 0, got;

			if (depth) {
				u64 bytes = SKB_BYTES;
				u64 traffic = cache_l2_touched(0) - stack[--depth];

				u64 kept = cache_surviving(bytes, traffic, 64 * KB);

				want = 700 * (bytes - kept) / bytes;
			}
			got = skb_cache_alloc(LINES, true, &mark);
			assert_int_equal(got, want);
			break;
		}
		default:
			cache_touch(0, (seed >> 40) % 512);
			break;
		}
	}
	/* ~1 KiB touched between two frees: some 64 warm entries */
	assert_true(cache_freed_capacity(0) <= 256);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test_setup_teardown(test_read_after_traffic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freelist_lifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forgotten_are_cold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_forgets_cold_keeps_warm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_keeps_barely_warm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_matches_unbounded_stack, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
