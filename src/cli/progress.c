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
	char pct[16] = "", eta[32] = "";

	if (elapsed < pr.after || now - pr.last < pr.every)
		return;
	pr.last = now;
	rate = (double)(events - pr.events0) / elapsed;
	if (done >= 0) {
		snprintf(pct, sizeof(pct), " | %3.0f%%", done * 100);
		if (done > 0)
			snprintf(eta, sizeof(eta), " | ETA %.0f s", elapsed * (1 - done) / done);
	}
	fprintf(stderr, "\r[schedlab] simulated %.3f s%s | %.1f M events/s%s\033[K",
		(double)machine.now / 1e9, pct, rate / 1e6, eta);
	fflush(stderr);
	pr.shown = true;
}

void progress_start(const struct bench *b)
{
	const char *after = getenv("SCHEDLAB_PROGRESS_AFTER_MS");

	if (!isatty(STDERR_FILENO))
		return;
	pr.b = b;
	pr.start = pr.last = wall_now();
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
