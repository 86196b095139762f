/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Jankbench (AOSP frameworks/base/tests/JankBench, com.android.benchmark):
 * UI frames of an Android app, each drawn by the app's UI thread and its
 * RenderThread once per vsync. The subtests are named profiles of the
 * per-frame work of the two threads (estimates derived in
 * docs/benchmarks.md, "jankbench"); the frame accounting is Jankbench's
 * own (UiBenchmarkResult.java). work/bench_jankbench.c runs it.
 */
#ifndef SCHEDLAB_WORK_JANKBENCH_H
#define SCHEDLAB_WORK_JANKBENCH_H

#include "sim/types.h"

#include <stdbool.h>
#include <stddef.h>

struct bench;

/* -f: frames per subtest, by default and at most */
#define JANKBENCH_DEFAULT_FRAMES 300
#define JANKBENCH_MAX_FRAMES 100000
/* -r: the display's refresh rate in Hz (Android phones' panels: 60, 90, 120) */
#define JANKBENCH_DEFAULT_HZ 60
/*
 * UiBenchmarkResult.FRAME_PERIOD_MS: a frame longer than this (in whole
 * ms, 1000 / 60 truncated) is jank. Jankbench fixes it at 16, for 60 Hz;
 * at -r 90 or 120 the deadline here is 1000 / HZ truncated the same way.
 */
#define JANKBENCH_FRAME_PERIOD_MS 16

/*
 * One subtest: the per-frame CPU work of the UI thread (input, animation,
 * measure/layout, draw: recording the display list) and of the RenderThread
 * (sync: the display lists and bitmaps handed over while the UI thread
 * waits; then command issue and swap buffers), in us at capacity 1024 and
 * the CPU's maximum frequency (an X1 at 2.80 GHz on pixel6), each drawn
 * uniformly from [us - spread, us + spread]. One frame in heavy_every (on
 * average; 0: never) also binds a new item on the UI thread: heavy_us more.
 */
struct jank_profile {
	const char *name; /* -t NAME: workload-automation's and LISA's test id */
	const char *title; /* Jankbench's own (res/values/strings.xml) */
	unsigned int ui_us, ui_spread_us;
	unsigned int rt_us, rt_spread_us;
	unsigned int sync_pct; /* the RenderThread's share done while the UI thread waits */
	unsigned int heavy_every, heavy_us;
};

/* Jankbench's UI benchmarks (res/xml/benchmark.xml): the entries of jank_profiles[] */
#define JANKBENCH_NR_PROFILES 7
extern const struct jank_profile jank_profiles[JANKBENCH_NR_PROFILES];

/* The profile named @name, or -1. */
int jank_profile_find(const char *name);

/*
 * Jankbench's frame statistics (UiBenchmarkResult): the frames' TOTAL_DURATION
 * (intended vsync to the end of swap buffers), their mean and maximum, and
 * getSortedJankFrameIndices()'s jank count: a frame longer than the
 * deadline is jank and the pipeline is then triple buffered, where only a
 * frame longer than twice the deadline is jank (and ends it).
 */
struct jank_stats {
	u64 frames;
	u64 sum_ns, max_ns;
	u64 janks;
	bool triple_buffered;
};

void jank_stats_add(struct jank_stats *s, u64 duration_ns, u64 deadline_ns);
/* @from's frames added to @to, for the totals over subtests (the jank state is not carried) */
void jank_stats_merge(struct jank_stats *to, const struct jank_stats *from);
double jank_stats_mean_ms(const struct jank_stats *s);
double jank_stats_pct(const struct jank_stats *s);

/* @hz is one of the refresh rates -r takes (60, 90, 120) */
bool jankbench_refresh_rate_ok(unsigned int hz);
/* The jank deadline at @hz: JANKBENCH_FRAME_PERIOD_MS at 60, 1000 / hz ms truncated */
u64 jankbench_deadline_ns(unsigned int hz);

/* the subtests to run, their frames and refresh rate; their statistics as run */
struct jankbench_conf {
	unsigned int tests[JANKBENCH_NR_PROFILES]; /* indices into jank_profiles[], in order */
	unsigned int nr_tests;
	unsigned int frames;
	unsigned int hz;
	struct jank_stats stats[JANKBENCH_NR_PROFILES]; /* per entry of tests[] */
};

/* -t LIST: "all" or comma-separated names, each once; 0 or -1 + message */
int jankbench_parse_tests(struct jankbench_conf *c, const char *list, char *err, size_t errlen);
void jankbench_start(struct bench *b);
void jankbench_free(struct bench *b);
/* the totals over the subtests run */
void jankbench_totals(const struct bench *b, struct jank_stats *all);

#endif
