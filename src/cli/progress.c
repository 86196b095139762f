// SPDX-License-Identifier: GPL-2.0-only
#include "cli/progress.h"

#include "sim/machine.h"
#include "work/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* no line for runs shorter than this (SCHEDLAB_PROGRESS_AFTER_MS overrides it) */
#define PROGRESS_AFTER_S 1.0
/* at most this often */
#define PROGRESS_EVERY_S 0.25

static struct {
	const struct bench *b;
	double start, last, after, every;
	unsigned long long events0;
	int run, runs;
	double run_start;
	bool shown;
} pr;

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void show(u64 events)
{
	double now = wall_now(), elapsed = now - pr.start;
	double done = bench_progress(pr.b, machine.now);
	double rate;
	char which[48] = "", pct[16] = "", eta[32] = "";

	if (elapsed < pr.after || now - pr.last < pr.every)
		return;
	pr.last = now;
	/* this run's events over the whole time: a rate, not exact at a run's start */
	rate = (double)(events - pr.events0) / (now - pr.run_start);
	if (pr.runs > 1) {
		snprintf(which, sizeof(which), "run %d of %d | ", pr.run + 1, pr.runs);
		/* the runs before this one are done; an unknown end counts as none */
		done = ((double)pr.run + (done > 0 ? done : 0)) / pr.runs;
	}
	if (done >= 0) {
		snprintf(pct, sizeof(pct), " | %3.0f%%", done * 100);
		if (done > 0)
			snprintf(eta, sizeof(eta), " | ETA %.0f s", elapsed * (1 - done) / done);
	}
	fprintf(stderr, "\r[schedlab] %ssimulated %.3f s%s | %.1f M events/s%s\033[K", which,
		(double)machine.now / 1e9, pct, rate / 1e6, eta);
	fflush(stderr);
	pr.shown = true;
}

void progress_start(const struct bench *b, int run, int runs)
{
	const char *after = getenv("SCHEDLAB_PROGRESS_AFTER_MS");

	if (!isatty(STDERR_FILENO))
		return;
	pr.b = b;
	pr.run = run;
	pr.runs = runs;
	pr.run_start = wall_now();
	/* the time so far counts from the first run (perf stat -r N) */
	if (!run)
		pr.start = pr.last = pr.run_start;
	pr.after = after ? atof(after) / 1000 : PROGRESS_AFTER_S;
	/* with the override (tests), every PROGRESS_EVENTS events */
	pr.every = after ? 0 : PROGRESS_EVERY_S;
	pr.events0 = machine.nr_events;
	pr.shown = false;
	machine.progress = show;
}

void progress_end(void)
{
	machine.progress = NULL;
	if (pr.shown)
		fputs("\r\033[K", stderr);
	pr.shown = false;
}

/* ab and study: how many of the runs are done */
static struct {
	double start, after;
	int total;
	bool on, shown;
} prr;

void progress_runs_start(int total)
{
	const char *after = getenv("SCHEDLAB_PROGRESS_AFTER_MS");

	prr.on = isatty(STDERR_FILENO);
	prr.start = wall_now();
	prr.after = after ? atof(after) / 1000 : PROGRESS_AFTER_S;
	prr.total = total;
	prr.shown = false;
}

void progress_runs_update(int done)
{
	double elapsed;

	if (!prr.on)
		return;
	elapsed = wall_now() - prr.start;
	if (elapsed < prr.after || done <= 0)
		return;
	fprintf(stderr, "\r[schedlab] %d of %d runs done | %.0f s | ETA %.0f s\033[K", done,
		prr.total, elapsed, elapsed * (prr.total - done) / done);
	fflush(stderr);
	prr.shown = true;
}

void progress_runs_end(void)
{
	if (prr.shown)
		fputs("\r\033[K", stderr);
	prr.on = prr.shown = false;
}
