/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `TOOL --help` inside a command line: what the real tool prints (its
 * usage text, on the stream it uses) and the status it exits with. The
 * parser that meets the tool's help option records it here and fails;
 * `schedlab run` prints it instead of the failure (cli/cmd_run.c), every
 * other command reports the failure.
 */
#ifndef SCHEDLAB_WORK_BENCH_USAGE_H
#define SCHEDLAB_WORK_BENCH_USAGE_H

#include <stdbool.h>
#include <stddef.h>

#define BENCH_USAGE_MAX 16384

struct bench_usage {
	bool requested;
	char out[BENCH_USAGE_MAX]; /* what the tool prints on stdout */
	char err[BENCH_USAGE_MAX]; /* ... and on stderr */
	int status; /* its exit status */
	char note[512]; /* schedlab's one line on how the model differs */
};

/*
 * The tool @tool (a bench_tools[] name) was asked for its usage by argv[@k]
 * of @argc/@argv (its argv[0] the tool's last word): record what it prints.
 * Writes the failure every command but run reports into @err; returns -1.
 */
int bench_usage_request(const char *tool, int argc, char **argv, int k, char *err, size_t errlen);
/* The usage the last parse asked for, or NULL (a fresh parse forgets it). */
const struct bench_usage *bench_usage_requested(void);
void bench_usage_reset(void);

#endif
