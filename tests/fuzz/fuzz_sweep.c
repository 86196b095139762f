// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sweep plans (cli/sweep_plan.c): the input is the plan's text. A plan
 * that parses is then expanded into its points (each point's settings put
 * through session_opt() and its command line built and hashed), as
 * `schedlab sweep PLAN --list` does, when it has at most FUZZ_MAX_POINTS
 * points: the plan's own limits (SWEEP_MAX_POINTS) allow 100,000, which
 * would take a fuzzing process seconds per input. The points' settings are
 * not set up as machines and benchmarks here: fuzz_bench, fuzz_cost,
 * fuzz_sysctl and fuzz_features fuzz those parsers.
 */
#include "fuzz_util.h"

#include "cli/cli.h"
#include "cli/sweep_plan.h"
#include "topo/cpumask.h"

#include <stdarg.h>

#define FUZZ_MAX_POINTS 2000

/* main.c's, which the harness does not link: the message is not needed */
int usage_error(const char *fmt, ...)
{
	(void)fmt;
	return EXIT_BAD_INPUT;
}

/* machines x workloads x every axis x features x settings x seeds, at most @max + 1 */
static size_t points_bound(const struct sweep_plan *p, size_t max)
{
	size_t f[5 + SWEEP_MAX_AXES] = {
		(size_t)p->machines.names.n, (size_t)p->workloads.names.n,
		(size_t)p->features.names.n, (size_t)p->settings.names.n, (size_t)p->nr_seeds,
	};
	size_t n = 1;

	for (int a = 0; a < p->nr_axes; a++)
		f[5 + a] = (size_t)p->axis_values[a].n;
	for (int i = 0; i < 5 + p->nr_axes; i++)
		if (__builtin_mul_overflow(n, f[i], &n) || n > max)
			return max + 1;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), err[512];
	struct sweep_plan p;

	cpumask_setup(8);
	if (!sweep_plan_parse("fuzz.plan", text, &p, err, sizeof(err))) {
		struct sweep_point *pts;
		int n;

		if (points_bound(&p, FUZZ_MAX_POINTS) <= FUZZ_MAX_POINTS &&
		    !sweep_points(&p, &pts, &n)) {
			/* every point is named by the hash of its command line */
			for (int i = 0; i < n; i++) {
				char hash[SWEEP_HASH_LEN + 1];

				snprintf(hash, sizeof(hash), "%016llx",
					 (unsigned long long)sweep_hash(pts[i].cmd));
				if (strcmp(hash, pts[i].hash))
					abort();
			}
			sweep_points_free(pts, n);
		}
		sweep_plan_free(&p);
	}
	free(text);
	return 0;
}
