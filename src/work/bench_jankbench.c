// SPDX-License-Identifier: GPL-2.0-only
/*
 * Jankbench (AOSP frameworks/base/tests/JankBench): an app's frames, one
 * per vsync while the UI moves (a fling, typing), drawn by two threads as
 * Android's HWUI draws them:
 *
 * - the UI thread (the app's main thread) is woken by the vsync it asked
 *   for (Choreographer), asks at once for the next one (the animation
 *   goes on), does the frame's input, animation, measure/layout and draw
 *   (recording the display list), then hands the frame to the RenderThread
 *   and waits until the RenderThread has synced it (DrawFrameTask's
 *   postAndWait()): a futex wake, then a futex wait;
 * - the RenderThread takes the frame once it is done with the previous
 *   one, syncs it (the UI thread is released after this part), issues the
 *   GPU commands and swaps buffers: the frame is done.
 *
 * A frame's duration is FrameMetrics' TOTAL_DURATION: from its intended
 * vsync to the end of the swap, so a UI thread that is late (still busy,
 * or not yet running) makes the frame longer. Each subtest runs -f frames;
 * the frames' work comes from the subtest's profile (work/jankbench.h) and
 * the run's seeded PRNG. The GPU is not modelled: the swap does not wait
 * for it.
 */
#include "work/bench.h"
#include "work/jankbench.h"

#include "sim/alloc.h"
#include "sim/prng.h"

#include <stdlib.h>
#include <string.h>

/*
 * The threads' names: Android names an app's main thread after its
 * process (com.android.benchmark), keeping the last 15 bytes of a longer
 * name; HWUI names its render thread "RenderThread".
 */
#define JANK_UI_COMM "droid.benchmark"
#define JANK_RT_COMM "RenderThread"
/* the PRNG stream of the frames' work (sim/prng.h: one per consumer) */
#define JANK_PRNG_STREAM (PRNG_STREAM_WORKLOAD + 3000)
#define PCT 100

/*
 * The subtests, in Jankbench's order (benchmark.xml). Work in us at
 * capacity 1024 and maximum frequency; the derivation is in
 * docs/benchmarks.md ("jankbench"): estimates, not measurements.
 */
const struct jank_profile jank_profiles[JANKBENCH_NR_PROFILES] = {
	{ .name = "list_view",
	  .title = "List View Fling",
	  .ui_us = 1500,
	  .ui_spread_us = 500,
	  .rt_us = 1500,
	  .rt_spread_us = 500,
	  .sync_pct = 15,
	  .heavy_every = 8,
	  .heavy_us = 3000 },
	{ .name = "image_list_view",
	  .title = "Image List View Fling",
	  .ui_us = 1800,
	  .ui_spread_us = 600,
	  .rt_us = 2500,
	  .rt_spread_us = 800,
	  .sync_pct = 50,
	  .heavy_every = 6,
	  .heavy_us = 4000 },
	{ .name = "shadow_grid",
	  .title = "Shadow Grid Fling",
	  .ui_us = 1500,
	  .ui_spread_us = 500,
	  .rt_us = 3500,
	  .rt_spread_us = 1000,
	  .sync_pct = 15,
	  .heavy_every = 8,
	  .heavy_us = 2500 },
	{ .name = "low_hitrate_text",
	  .title = "Low-hitrate text render",
	  .ui_us = 3000,
	  .ui_spread_us = 1000,
	  .rt_us = 1500,
	  .rt_spread_us = 500,
	  .sync_pct = 15,
	  .heavy_every = 0,
	  .heavy_us = 0 },
	{ .name = "high_hitrate_text",
	  .title = "High-hitrate text render",
	  .ui_us = 1200,
	  .ui_spread_us = 400,
	  .rt_us = 1500,
	  .rt_spread_us = 500,
	  .sync_pct = 15,
	  .heavy_every = 0,
	  .heavy_us = 0 },
	{ .name = "edit_text",
	  .title = "Edit Text Input",
	  .ui_us = 900,
	  .ui_spread_us = 300,
	  .rt_us = 3000,
	  .rt_spread_us = 800,
	  .sync_pct = 10,
	  .heavy_every = 0,
	  .heavy_us = 0 },
	{ .name = "overdraw",
	  .title = "Overdraw Test",
	  .ui_us = 300,
	  .ui_spread_us = 100,
	  .rt_us = 4000,
	  .rt_spread_us = 1000,
	  .sync_pct = 10,
	  .heavy_every = 0,
	  .heavy_us = 0 },
};

int jank_profile_find(const char *name)
{
	for (unsigned int i = 0; i < JANKBENCH_NR_PROFILES; i++)
		if (!strcmp(jank_profiles[i].name, name))
			return (int)i;
	return -1;
}

void jank_stats_add(struct jank_stats *s, u64 duration_ns, u64 deadline_ns)
{
	s->frames++;
	s->sum_ns += duration_ns;
	if (duration_ns > s->max_ns)
		s->max_ns = duration_ns;
	/* getSortedJankFrameIndices() */
	if (!s->triple_buffered) {
		if (duration_ns > deadline_ns) {
			s->triple_buffered = true;
			s->janks++;
		}
	} else if (duration_ns > 2 * deadline_ns) {
		s->triple_buffered = false;
		s->janks++;
	}
}

void jank_stats_merge(struct jank_stats *to, const struct jank_stats *from)
{
	to->frames += from->frames;
	to->sum_ns += from->sum_ns;
	to->janks += from->janks;
	if (from->max_ns > to->max_ns)
		to->max_ns = from->max_ns;
}

double jank_stats_mean_ms(const struct jank_stats *s)
{
	return s->frames ? (double)s->sum_ns / (double)s->frames / NSEC_PER_MSEC : 0;
}

double jank_stats_pct(const struct jank_stats *s)
{
	return s->frames ? PCT * (double)s->janks / (double)s->frames : 0;
}

bool jankbench_refresh_rate_ok(unsigned int hz)
{
	/* the rates Android phones' panels run at (Pixel 6: 60 and 90; 6 Pro: 120) */
	static const unsigned int rates[] = { 60, 90, 120 };

	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		if (rates[i] == hz)
			return true;
	return false;
}

u64 jankbench_deadline_ns(unsigned int hz)
{
	if (hz == JANKBENCH_DEFAULT_HZ)
		return JANKBENCH_FRAME_PERIOD_MS * NSEC_PER_MSEC;
	return NSEC_PER_SEC / hz / NSEC_PER_MSEC * NSEC_PER_MSEC;
}

int jankbench_parse_tests(struct jankbench_conf *c, const char *list, char *err, size_t errlen)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;

	c->nr_tests = 0;
	if (!strcmp(list, "all")) {
		for (unsigned int i = 0; i < JANKBENCH_NR_PROFILES; i++)
			c->tests[c->nr_tests++] = i;
		free(copy);
		return 0;
	}
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		int k = jank_profile_find(t);

		if (k < 0) {
			snprintf(
				err, errlen,
				"jankbench: -t: unknown subtest '%s' (list_view, image_list_view, shadow_grid, low_hitrate_text, high_hitrate_text, edit_text, overdraw or all)",
				t);
			rc = -1;
			break;
		}
		for (unsigned int i = 0; i < c->nr_tests; i++)
			if (c->tests[i] == (unsigned int)k) {
				snprintf(err, errlen, "jankbench: -t: subtest '%s' given twice", t);
				rc = -1;
			}
		if (!rc)
			c->tests[c->nr_tests++] = (unsigned int)k;
	}
	if (!rc && !c->nr_tests) {
		snprintf(err, errlen, "jankbench: -t needs a subtest name or 'all', got '%s'",
			 list);
		rc = -1;
	}
	free(copy);
	return rc;
}

/* the frame the UI thread hands over (one slot: it waits until the RenderThread synced it) */
struct jank_frame {
	unsigned int test; /* index into conf->tests[] */
	u64 intended_ns; /* its intended vsync */
	u64 sync_ns, draw_ns; /* the RenderThread's work */
};

enum { U_SPAWN, U_VSYNC, U_START, U_POST, U_WAIT_SYNC, U_JOIN, U_DONE };
enum { R_TAKE, R_SYNCED, R_DRAW, R_DONE };

struct jank_state {
	struct bench *b;
	struct jankbench_conf *c;
	struct prng rnd;
	u64 period_ns, deadline_ns;
	u64 next_vsync; /* the vsync the UI thread asked for */
	unsigned int test; /* the subtest being run (index into c->tests[]) */
	unsigned int frame; /* frames of it handed over */
	struct futex req; /* 1: a frame (or the end) is waiting for the RenderThread */
	struct futex synced; /* frames the RenderThread has synced */
	struct jank_frame slot, rt; /* handed over; being drawn */
	bool quit;
	int ui_step, rt_step;
};

/* the first vsync after @t: the UI thread's request for the next frame */
static u64 vsync_after(const struct jank_state *s, u64 t)
{
	return (t / s->period_ns + 1) * s->period_ns;
}

/* uniform in [us - spread, us + spread], in ns */
static u64 draw_us(struct jank_state *s, unsigned int us, unsigned int spread)
{
	return ((u64)us - spread + prng_below(&s->rnd, 2 * (u64)spread + 1)) * NSEC_PER_USEC;
}

/* start frame: its intended vsync, the next request, the work drawn; the UI's work */
static u64 begin_frame(struct jank_state *s)
{
	const struct jank_profile *p = &jank_profiles[s->c->tests[s->test]];
	u64 ui = draw_us(s, p->ui_us, p->ui_spread_us), rt;

	if (p->heavy_every && !prng_below(&s->rnd, p->heavy_every))
		ui += (u64)p->heavy_us * NSEC_PER_USEC;
	rt = draw_us(s, p->rt_us, p->rt_spread_us);
	s->slot.test = s->test;
	s->slot.intended_ns = s->next_vsync;
	s->slot.sync_ns = rt * p->sync_pct / PCT;
	s->slot.draw_ns = rt - s->slot.sync_ns;
	s->next_vsync = vsync_after(s, cpu_now());
	return ui;
}

static void rt_next(struct work_task *w, struct op_desc *op)
{
	struct jank_state *s = w->state;

	for (;;) {
		switch (s->rt_step) {
		case R_TAKE:
			if (!s->req.val) {
				op_futex(op, OP_FUTEX_WAIT, &s->req, 0);
				return;
			}
			s->req.val = 0;
			if (s->quit) {
				s->rt_step = R_DONE;
				op_simple(op, OP_EXIT);
				return;
			}
			s->rt = s->slot;
			s->rt_step = R_SYNCED;
			op_run(op, s->rt.sync_ns);
			return;
		case R_SYNCED:
			s->synced.val++;
			s->rt_step = R_DRAW;
			op_futex(op, OP_FUTEX_WAKE, &s->synced, 1);
			return;
		case R_DRAW:
			s->rt_step = R_DONE;
			op_run(op, s->rt.draw_ns);
			return;
		case R_DONE:
			/* the swap is done: FrameMetrics' TOTAL_DURATION */
			jank_stats_add(&s->c->stats[s->rt.test], cpu_now() - s->rt.intended_ns,
				       s->deadline_ns);
			s->b->progress_done++;
			s->rt_step = R_TAKE;
			break;
		default:
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program rt_prog = { .next = rt_next };

static void spawn_rt(struct jank_state *s, struct op_desc *op)
{
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = &rt_prog;
	op->spawn.state = s;
	op->spawn.thread = true;
	op->spawn.comm = JANK_RT_COMM;
	op->spawn.footprint = FOOTPRINT_TASK;
}

static void ui_next(struct work_task *w, struct op_desc *op)
{
	struct jank_state *s = w->state;
	struct bench *b = s->b;

	for (;;) {
		switch (s->ui_step) {
		case U_SPAWN:
			s->ui_step = U_VSYNC;
			spawn_rt(s, op);
			return;
		case U_VSYNC:
			if (s->frame == s->c->frames) {
				s->frame = 0;
				s->test++;
			}
			if (s->test == s->c->nr_tests) {
				/* the end: the RenderThread exits once it has drawn the last frame */
				s->quit = true;
				s->req.val = 1;
				s->ui_step = U_JOIN;
				op_futex(op, OP_FUTEX_WAKE, &s->req, 1);
				return;
			}
			s->ui_step = U_START;
			if (cpu_now() < s->next_vsync) {
				/* the vsync event wakes it (a looper poll), not a timer of its own */
				op->kind = OP_SLEEP_UNTIL;
				op->ns = s->next_vsync;
				op->val = SLEEP_EXACT;
				return;
			}
			break;
		case U_START:
			s->ui_step = U_POST;
			op_run(op, begin_frame(s));
			return;
		case U_POST:
			s->req.val = 1;
			s->ui_step = U_WAIT_SYNC;
			op_futex(op, OP_FUTEX_WAKE, &s->req, 1);
			return;
		case U_WAIT_SYNC: {
			/* synced counts every frame handed over so far, over the subtests */
			u32 want = s->test * s->c->frames + s->frame + 1;

			if (s->synced.val != want) {
				op_futex(op, OP_FUTEX_WAIT, &s->synced, s->synced.val);
				return;
			}
			s->frame++;
			s->ui_step = U_VSYNC;
			break;
		}
		case U_JOIN:
			s->ui_step = U_DONE;
			op_wait_children(op, WAIT_ANY);
			return;
		default:
			b->stop_ns = cpu_now();
			b->stopped = true;
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program ui_prog = { .next = ui_next };

void jankbench_start(struct bench *b)
{
	struct jank_state *s = xcalloc(1, sizeof(*s));

	b->priv = s;
	s->b = b;
	s->c = b->jank;
	s->period_ns = NSEC_PER_SEC / s->c->hz;
	s->deadline_ns = jankbench_deadline_ns(s->c->hz);
	s->next_vsync = vsync_after(s, 0);
	prng_init(&s->rnd, machine.seed, JANK_PRNG_STREAM);
	futex_init(&s->req, 0);
	futex_init(&s->synced, 0);
	memset(s->c->stats, 0, sizeof(s->c->stats));
	b->progress_total = (u64)s->c->nr_tests * s->c->frames;
	b->start_ns = 0;
	b->started = true;
	work_start_allowed(JANK_UI_COMM, &ui_prog, s, 0, b->taskset_cpus);
}

void jankbench_totals(const struct bench *b, struct jank_stats *all)
{
	memset(all, 0, sizeof(*all));
	for (unsigned int i = 0; b->jank && i < b->jank->nr_tests; i++)
		jank_stats_merge(all, &b->jank->stats[i]);
}

void jankbench_free(struct bench *b)
{
	free(b->jank);
	b->jank = NULL;
}
