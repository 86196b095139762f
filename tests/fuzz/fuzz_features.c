// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduler feature lists (kernel/features.c: sched_feat_apply), as given
 * with `--features A,NO_B` or a study's variant line. Each input line is one
 * list, applied in order from the defaults; the effective set is printed, to
 * /dev/null, as `schedlab features` does.
 */
#include "fuzz_util.h"

#include "kernel/features.h"

#include <stdio.h>

#define MAX_LINES 64

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *v[MAX_LINES], err[512];
	int n = fuzz_lines(s, v, MAX_LINES);

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	sched_feat_reset();
	for (int i = 0; i < n; i++)
		sched_feat_apply(v[i], err, sizeof(err));
	sched_feat_print(devnull, " ");
	free(s);
	return 0;
}
