// SPDX-License-Identifier: GPL-2.0-only
/*
 * jankbench (work/jankbench.h): Jankbench's frame accounting
 * (UiBenchmarkResult's jank rule, mean and max) on constructed frame
 * durations, the deadline per refresh rate, -t, and whole runs whose
 * frames must all miss their deadline or none may, and that repeat
 * exactly for a seed.
 */
#include "test_util.h"

#include "cli/session.h"
#include "work/bench.h"
#include "work/jankbench.h"

#include <math.h>

#define MS NSEC_PER_MSEC
#define DEADLINE (16 * MS)
#define NR_FRAMES 50

static struct jank_stats feed(u64 ns, unsigned int n)
{
	struct jank_stats s = { 0 };

	for (unsigned int i = 0; i < n; i++)
		jank_stats_add(&s, ns, DEADLINE);
	return s;
}

static void test_none_miss(void **state)
{
	struct jank_stats s = feed(10 * MS, NR_FRAMES);

	(void)state;
	assert_int_equal(s.frames, NR_FRAMES);
	assert_int_equal(s.janks, 0);
	assert_true(jank_stats_pct(&s) == 0.0);
	assert_true(jank_stats_mean_ms(&s) == 10.0);
	assert_int_equal(s.max_ns, 10 * MS);
	/* exactly the deadline is not jank: "thisDuration > FRAME_PERIOD_MS" */
	s = feed(DEADLINE, NR_FRAMES);
	assert_int_equal(s.janks, 0);
}

/*
 * Every frame misses by less than a period: the first is jank, then the
 * pipeline is triple buffered and only a frame over twice the deadline
 * counts, so one jank in all.
 */
static void test_all_miss_once_triple_buffered(void **state)
{
	struct jank_stats s = feed(20 * MS, NR_FRAMES);

	(void)state;
	assert_int_equal(s.janks, 1);
	assert_true(jank_stats_pct(&s) == 100.0 / NR_FRAMES);
	assert_true(s.triple_buffered);
}

/* every frame over twice the deadline: each is jank (the state flips each time) */
static void test_all_miss_by_two_periods(void **state)
{
	struct jank_stats s = feed(40 * MS, NR_FRAMES);

	(void)state;
	assert_int_equal(s.janks, NR_FRAMES);
	assert_true(jank_stats_pct(&s) == 100.0);
	assert_int_equal(s.max_ns, 40 * MS);
}

/* a sequence worked through getSortedJankFrameIndices() by hand */
static void test_sequence(void **state)
{
	/* ms:   10 17 20 33 17 10 17 */
	/* jank:  -  J  -  J  J  -  -  (17 after 33: double buffered again; the last is triple) */
	static const unsigned int ms[] = { 10, 17, 20, 33, 17, 10, 17 };
	struct jank_stats s = { 0 }, all = { 0 };

	(void)state;
	for (unsigned int i = 0; i < sizeof(ms) / sizeof(ms[0]); i++)
		jank_stats_add(&s, ms[i] * MS, DEADLINE);
	assert_int_equal(s.frames, 7);
	assert_int_equal(s.janks, 3);
	assert_int_equal(s.max_ns, 33 * MS);
	assert_true(fabs(jank_stats_mean_ms(&s) - 124.0 / 7) < 1e-9);
	jank_stats_merge(&all, &s);
	jank_stats_merge(&all, &s);
	assert_int_equal(all.frames, 14);
	assert_int_equal(all.janks, 6);
	assert_int_equal(all.max_ns, 33 * MS);
}

static void test_deadline(void **state)
{
	(void)state;
	assert_int_equal(jankbench_deadline_ns(60), 16 * MS);
	assert_int_equal(jankbench_deadline_ns(90), 11 * MS);
	assert_int_equal(jankbench_deadline_ns(120), 8 * MS);
	assert_true(jankbench_refresh_rate_ok(90));
	assert_false(jankbench_refresh_rate_ok(75));
}

static void test_parse_tests(void **state)
{
	struct jankbench_conf c = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(jankbench_parse_tests(&c, "all", err, sizeof(err)), 0);
	assert_int_equal(c.nr_tests, JANKBENCH_NR_PROFILES);
	assert_int_equal(jankbench_parse_tests(&c, "edit_text,list_view", err, sizeof(err)), 0);
	assert_int_equal(c.nr_tests, 2);
	assert_int_equal(c.tests[0], (unsigned int)jank_profile_find("edit_text"));
	assert_int_equal(c.tests[1], 0);
	assert_int_equal(jankbench_parse_tests(&c, "list_view,list_view", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "given twice"));
	assert_int_equal(jankbench_parse_tests(&c, "bitmap_upload", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown subtest 'bitmap_upload'"));
	assert_int_equal(jankbench_parse_tests(&c, ",", err, sizeof(err)), -1);
}

/*
 * a whole run of @cmd on pixel6; its totals in @all. At a fixed clock, the
 * maximum (pixel6 boots schedutil): the frame-work bounds below are in time
 * at the maximum frequency.
 */
static void run(const char *cmd, u64 seed, struct jank_stats *all)
{
	char buf[256], err[256];
	char *argv[16];
	struct session_config cfg = {
		.machine = "pixel6", .seed = seed, .argv = argv, .cpufreq = "performance"
	};
	struct session s;

	cfg.argc = test_split_cmd(cmd, buf, sizeof(buf), argv, 16);
	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, true));
	assert_true(bench_finish(s.bench));
	jankbench_totals(s.bench, all);
	session_end(&s);
}

/*
 * One A55 (capacity 160 of 1024) at 120 Hz: the RenderThread's shadow grid
 * work alone is at least 2.5 ms x 6.4 = 16 ms, twice the 8 ms deadline, so
 * every frame is jank.
 */
static void test_run_every_frame_misses(void **state)
{
	struct jank_stats all;

	(void)state;
	run("taskset -c 0 jankbench -t shadow_grid -f 30 -r 120", 1, &all);
	assert_int_equal(all.frames, 30);
	assert_int_equal(all.janks, 30);
	assert_true(all.max_ns > 2 * 8 * MS);
}

/* the X1s: the high-hitrate text's frames (at most 3.6 ms of work) all make it */
static void test_run_no_frame_misses(void **state)
{
	struct jank_stats all;

	(void)state;
	run("taskset -c 6,7 jankbench -t high_hitrate_text,edit_text -f 60", 1, &all);
	assert_int_equal(all.frames, 120);
	assert_int_equal(all.janks, 0);
	assert_true(all.max_ns < DEADLINE);
	assert_true(all.sum_ns > 0);
}

/* the same seed gives the same frames; another seed other work */
static void test_run_deterministic(void **state)
{
	struct jank_stats a, b, c;

	(void)state;
	run("jankbench -t list_view -f 60", 7, &a);
	run("jankbench -t list_view -f 60", 7, &b);
	run("jankbench -t list_view -f 60", 8, &c);
	assert_int_equal(a.sum_ns, b.sum_ns);
	assert_int_equal(a.max_ns, b.max_ns);
	assert_int_equal(a.janks, b.janks);
	assert_true(a.sum_ns != c.sum_ns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none_miss),
		cmocka_unit_test(test_all_miss_once_triple_buffered),
		cmocka_unit_test(test_all_miss_by_two_periods),
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_parse_tests),
		cmocka_unit_test(test_run_every_frame_misses),
		cmocka_unit_test(test_run_no_frame_misses),
		cmocka_unit_test(test_run_deterministic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
