// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduler tunables (kernel/sysctl.c: sched_sysctl_set), as given with
 * `--sysctl NAME=VALUE` or a study's `option sysctl`. One assignment per
 * input line, applied in order from the defaults; then the boot-time slice
 * scaling runs for a few CPU counts, as sched_init() would.
 */
#include "fuzz_util.h"

#include "kernel/sched.h"

#define MAX_LINES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *v[MAX_LINES], err[1024];
	int n = fuzz_lines(s, v, MAX_LINES);
	static const unsigned int cpus[] = { 1, 2, 8, 256 };

	sched_sysctl_reset();
	for (int i = 0; i < n; i++)
		sched_sysctl_set(v[i], err, sizeof(err));
	for (unsigned int i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		sched_init_granularity(cpus[i]);
	free(s);
	return 0;
}
