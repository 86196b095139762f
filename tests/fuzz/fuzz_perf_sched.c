// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf sched capture reader (report/perf_sched.c: psched_read), as
 * `schedlab perf sched latency|timehist|map -i FILE` reads a file; what it
 * accepts goes through every report, with the options that change their
 * paths (-p, -C, the sort keys, map --compact), printed to /dev/null.
 */
#include "fuzz_util.h"

#include "report/perf_sched.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct psched_capture cap;
	struct psched_latency_opts lat = { .profile_cpu = -1 };
	struct psched_map_opts map = { 0 };
	struct psched_timehist_opts th = { 0 };
	char err[512];
	FILE *f;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	f = fmemopen((void *)data, size ? size : 1, "r");
	if (!f)
		return 0;
	if (!size || psched_read(f, "fuzz", &cap, err, sizeof(err))) {
		fclose(f);
		return 0;
	}
	fclose(f);
	psched_parse_sort("avg, max, switch, runtime", &lat, err, sizeof(err));
	psched_latency_print(devnull, &cap, &lat);
	lat.pids = true;
	lat.profile_cpu = 0;
	psched_parse_sort("pid,runtime", &lat, err, sizeof(err));
	psched_latency_print(devnull, &cap, &lat);
	psched_timehist_print(devnull, &cap, &th);
	th.wakeups = th.migrations = true;
	psched_timehist_print(devnull, &cap, &th);
	psched_map_print(devnull, &cap, &map);
	map.compact = true;
	psched_map_print(devnull, &cap, &map);
	psched_capture_free(&cap);
	return 0;
}
