// SPDX-License-Identifier: GPL-2.0-only
/* schbench's plat histogram and percentiles, against hand-computed values. */
#include "test_util.h"

#include "work/schbench_hist.h"

#include <stdlib.h>

static void test_val_to_idx(void **state)
{
	(void)state;
	/* every value below 2 * 256 has its own bucket */
	assert_int_equal(schbench_plat_val_to_idx(0), 0);
	assert_int_equal(schbench_plat_val_to_idx(1), 1);
	assert_int_equal(schbench_plat_val_to_idx(511), 511);
	/* 512..1023: buckets of 2 (one error bit) from index 512 */
	assert_int_equal(schbench_plat_val_to_idx(512), 512);
	assert_int_equal(schbench_plat_val_to_idx(513), 512);
	assert_int_equal(schbench_plat_val_to_idx(514), 513);
	assert_int_equal(schbench_plat_val_to_idx(1023), 767);
	/* 1024..2047: buckets of 4 from 768 */
	assert_int_equal(schbench_plat_val_to_idx(1024), 768);
	/* 10800: msb 13, 5 error bits, 6 << 8 + (337 & 255) */
	assert_int_equal(schbench_plat_val_to_idx(10800), 1617);
	/* clamped to the last bucket */
	assert_int_equal(schbench_plat_val_to_idx(0xffffffffu), SCHBENCH_PLAT_NR - 1);
}

static void test_idx_to_val(void **state)
{
	(void)state;
	assert_int_equal(schbench_plat_idx_to_val(0), 0);
	assert_int_equal(schbench_plat_idx_to_val(511), 511);
	/* the middle of the bucket: base + (k + 0.5) * 2^error_bits */
	assert_int_equal(schbench_plat_idx_to_val(512), 513);
	assert_int_equal(schbench_plat_idx_to_val(767), 1023);
	assert_int_equal(schbench_plat_idx_to_val(768), 1026);
	assert_int_equal(schbench_plat_idx_to_val(1617), 10800);
	/* 2^25 + 255.5 * 2^17 */
	assert_int_equal(schbench_plat_idx_to_val(SCHBENCH_PLAT_NR - 1), 67043328);
}

static void test_percentiles_1_to_100(void **state)
{
	static const double pl[] = { 50.0, 75.0, 90.0, 99.0, 99.9 };
	struct schbench_stats *s = calloc(1, sizeof(*s));
	unsigned int v[5];
	unsigned long c[5];

	(void)state;
	for (unsigned int us = 1; us <= 100; us++)
		schbench_add_lat(s, us);
	schbench_percentiles(s, pl, 5, v, c);
	/* the first value whose running count reaches p% of 100 */
	assert_int_equal(v[0], 50);
	assert_int_equal(v[1], 75);
	assert_int_equal(v[2], 90);
	assert_int_equal(v[3], 99);
	assert_int_equal(v[4], 100);
	/* samples since the previous percentile's bucket */
	assert_int_equal(c[0], 50);
	assert_int_equal(c[1], 25);
	assert_int_equal(c[2], 15);
	assert_int_equal(c[3], 9);
	assert_int_equal(c[4], 1);
	/* min starts at 0, as in the tool's zeroed stats, and stays there */
	assert_int_equal(s->min, 0);
	assert_int_equal(s->max, 100);
	assert_int_equal(s->nr_samples, 100);
	free(s);
}

static void test_percentiles_buckets(void **state)
{
	static const double pl[] = { 20.0, 50.0, 99.9 };
	struct schbench_stats *s = calloc(1, sizeof(*s));
	unsigned int v[3];

	(void)state;
	schbench_add_lat(s, 10);
	for (int i = 0; i < 3; i++)
		schbench_add_lat(s, 1000);
	schbench_percentiles(s, pl, 3, v, NULL);
	/* 20% of 4 = 0.8: the bucket of 10; then 1000's bucket 756, printed 1001 */
	assert_int_equal(v[0], 10);
	assert_int_equal(v[1], 1001);
	assert_int_equal(v[2], 1001);
	assert_int_equal(s->max, 1000);
	free(s);
}

static void test_percentiles_empty(void **state)
{
	static const double pl[] = { 50.0, 99.0 };
	struct schbench_stats *s = calloc(1, sizeof(*s));
	unsigned int v[2] = { 7, 7 };

	(void)state;
	/* no samples: 0 >= p% of 0 at the first bucket */
	schbench_percentiles(s, pl, 2, v, NULL);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 0);
	free(s);
}

/* the current version's add_lat(): a 0 min is unset, the next sample replaces it */
static void test_add_lat_cur_min(void **state)
{
	struct schbench_stats *s = calloc(1, sizeof(*s));

	(void)state;
	schbench_add_lat_cur(s, 7);
	schbench_add_lat_cur(s, 3);
	schbench_add_lat_cur(s, 9);
	assert_int_equal(s->min, 3);
	assert_int_equal(s->max, 9);
	schbench_add_lat_cur(s, 0);
	assert_int_equal(s->min, 0);
	schbench_add_lat_cur(s, 5);
	assert_int_equal(s->min, 5);
	assert_int_equal(s->nr_samples, 5);
	free(s);
}

/* combine_stats(): a thread without samples (min 0) makes the min 0 */
static void test_combine_minmax(void **state)
{
	u32 min = 0, max = 0;

	(void)state;
	schbench_combine_minmax(&min, &max, 4, 10);
	schbench_combine_minmax(&min, &max, 2, 6);
	assert_int_equal(min, 2);
	assert_int_equal(max, 10);
	schbench_combine_minmax(&min, &max, 0, 0);
	assert_int_equal(min, 0);
	schbench_combine_minmax(&min, &max, 8, 12);
	assert_int_equal(min, 8);
	assert_int_equal(max, 12);
}

/* show_latencies() on 1..100: the counts are per percentile step (20, 30, 40, 9, 1) */
static void test_show_latencies(void **state)
{
	struct schbench_stats *s = calloc(1, sizeof(*s));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	for (unsigned int v = 1; v <= 100; v++)
		schbench_add_lat_cur(s, v);
	schbench_show_latencies(f, s, "Wakeup Latencies", "usec", 3, SCHBENCH_PLIST_FOR_LAT,
				SCHBENCH_PLIST_99);
	schbench_show_latencies(f, s, "RPS", "requests", 3, SCHBENCH_PLIST_FOR_RPS,
				SCHBENCH_PLIST_50);
	fclose(f);
	assert_string_equal(buf,
			    "Wakeup Latencies percentiles (usec) runtime 3 (s) (100 total samples)\n"
			    "\t  50.0th: 50         (30 samples)\n"
			    "\t  90.0th: 90         (40 samples)\n"
			    "\t* 99.0th: 99         (9 samples)\n"
			    "\t  99.9th: 100        (1 samples)\n"
			    "\t  min=1, max=100\n"
			    "RPS percentiles (requests) runtime 3 (s) (100 total samples)\n"
			    "\t  20.0th: 20         (20 samples)\n"
			    "\t* 50.0th: 50         (30 samples)\n"
			    "\t  90.0th: 90         (40 samples)\n"
			    "\t  min=1, max=100\n");
	free(buf);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_val_to_idx),
		cmocka_unit_test(test_idx_to_val),
		cmocka_unit_test(test_percentiles_1_to_100),
		cmocka_unit_test(test_percentiles_buckets),
		cmocka_unit_test(test_percentiles_empty),
		cmocka_unit_test(test_add_lat_cur_min),
		cmocka_unit_test(test_combine_minmax),
		cmocka_unit_test(test_show_latencies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
