// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every cost-model parameter at the largest value it accepts gives a run the
 * model can represent: hackbench finishes on smp2 under the invariant
 * checker (which exits 3 on the first violation, failing this test), at the
 * default HZ and at HZ 1000, the shortest tick. Before the periodic tick was
 * forwarded past missed ticks, a kernel path longer than a tick re-armed it
 * in the simulated past ("time went backwards").
 */
#include "test_util.h"

#include "cli/session.h"

#include <stdio.h>

static void run_at(const char *assignment, unsigned int hz)
{
	char buf[] = "hackbench -g 1 -l 10";
	char *argv[8];
	int argc = 0;
	const char *costs[1] = { assignment };
	char err[256];
	struct session s;
	struct session_config cfg = {
		.machine = "smp2", .seed = 1, .costs = costs, .nr_costs = 1, .hz = hz,
	};

	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	cfg.argc = argc;
	cfg.argv = argv;
	if (session_start(&s, &cfg, err, sizeof(err)))
		fail_msg("%s: %s", assignment, err);
	if (!session_run(&s, true))
		fail_msg("%s at HZ %u: hackbench did not finish", assignment, hz);
	session_end(&s);
}

static void test_every_cost_at_its_max_checks_clean(void **state)
{
	static const char *const dists[] = { "smt", "cluster", "llc", "package", "numa" };

	(void)state;
	for (size_t i = 0;; i++) {
		bool per_dist;
		u64 max;
		const char *name = cost_model_param(i, &per_dist, &max);
		char a[128];

		if (!name)
			break;
		for (size_t d = 0; d < (per_dist ? ARRAY_SIZE(dists) : 1); d++) {
			if (per_dist)
				snprintf(a, sizeof(a), "%s.%s=%llu", name, dists[d],
					 (unsigned long long)max);
			else
				snprintf(a, sizeof(a), "%s=%llu", name, (unsigned long long)max);
			run_at(a, 250);
			run_at(a, 1000);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_cost_at_its_max_checks_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
