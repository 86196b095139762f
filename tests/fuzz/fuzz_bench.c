// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark command lines (work/bench_parse.c): what follows `--` in
 * `schedlab run`, and a study file's workload lines. One argument per input
 * line, so "hackbench\n-g\n4\n" is `hackbench -g 4`. A parsed ipistorm's
 * cpulist and a taskset mask are then checked against an 8-CPU machine, as
 * session_start() does.
 */
#include "fuzz_util.h"

#include "topo/cpumask.h"
#include "work/bench.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *argv[MAX_ARGS + 1], err[512];
	int argc = fuzz_lines(s, argv, MAX_ARGS);
	struct bench *b;

	argv[argc] = NULL;
	cpumask_setup(8);
	b = bench_parse(argc, argv, err, sizeof(err));
	if (b) {
		bench_check_machine(b, "smp8", err, sizeof(err));
		bench_free(b);
	}
	free(s);
	return 0;
}
