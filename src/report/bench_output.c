// SPDX-License-Identifier: MIT
/*
 * Output formats, from the tools' sources: rt-tests hackbench.c (main),
 * tools/perf/bench/sched-messaging.c and sched-pipe.c (BENCH_FORMAT_DEFAULT),
 * with perf bench's "# Running 'sched/NAME' benchmark:" banner.
 */
#include "report/bench_output.h"

void bench_print_header(const struct bench *b, FILE *out)
{
	switch (b->kind) {
	case BENCH_HACKBENCH:
		fprintf(out,
			"Running in %s mode with %u groups using %u file descriptors each (== %u tasks)\n",
			b->threads ? "threaded" : "process", b->groups, 2 * b->fds,
			b->groups * (b->fds * 2));
		fprintf(out, "Each sender will pass %u messages of %u bytes\n", b->loops, b->datasize);
		break;
	case BENCH_PERF_MESSAGING:
		fprintf(out, "# Running 'sched/messaging' benchmark:\n");
		break;
	case BENCH_PERF_PIPE:
		fprintf(out, "# Running 'sched/pipe' benchmark:\n");
		break;
	}
}

void bench_print_result(const struct bench *b, FILE *out)
{
	u64 us = bench_elapsed_us(b);
	unsigned long sec = (unsigned long)(us / 1000000), usec = (unsigned long)(us % 1000000);

	switch (b->kind) {
	case BENCH_HACKBENCH:
		fprintf(out, "Time: %lu.%03lu\n", sec, usec / 1000);
		break;
	case BENCH_PERF_MESSAGING: {
		const char *what = b->threads ? "threads" : "processes";

		fprintf(out, "# %u sender and receiver %s per group\n", b->fds, what);
		fprintf(out, "# %u groups == %u %s run\n\n", b->groups, b->groups * 2 * b->fds, what);
		fprintf(out, " %14s: %lu.%03lu [sec]\n", "Total time", sec, usec / 1000);
		break;
	}
	case BENCH_PERF_PIPE:
		fprintf(out, "# Executed %u pipe operations between two %s\n\n", b->loops,
			b->threads ? "threads" : "processes");
		fprintf(out, " %14s: %lu.%03lu [sec]\n\n", "Total time", sec, usec / 1000);
		fprintf(out, " %14lf usecs/op\n", (double)us / (double)b->loops);
		fprintf(out, " %14d ops/sec\n",
			us ? (int)((double)b->loops / ((double)us / 1e6)) : 0);
		break;
	}
}
