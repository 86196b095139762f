// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cost-model assignments (sim/cost.c: cost_model_set), as given with
 * `--cost NAME=NS` or a study's `option cost`. One assignment per input
 * line, applied in order to the default model; the result is printed, to
 * /dev/null, to read every field back.
 */
#include "fuzz_util.h"

#include "sim/cost.h"

#include <stdio.h>

#define MAX_LINES 64

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *v[MAX_LINES], err[512];
	int n = fuzz_lines(s, v, MAX_LINES);
	struct cost_model c;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	cost_model_default(&c);
	for (int i = 0; i < n; i++)
		cost_model_set(&c, v[i], err, sizeof(err));
	cost_model_print(&c, devnull);
	free(s);
	return 0;
}
