// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rows of a comparison, built from hand-made run records: which
 * metrics are constant, the direction of each verdict, --metric selection
 * and order, and the number format.
 */
#include "test_util.h"

#include "report/compare.h"

#include <string.h>

#define RUNS 4

static struct run_record recs[2 * RUNS];

static void put(struct run_record *rec, const char *name, double value, enum metric_better b)
{
	struct run_value *v = &rec->v[rec->nr++];

	snprintf(v->name, sizeof(v->name), "%s", name);
	v->value = value;
	v->better = b;
}

/*
 * base: time 10,11,10,11; test: time 8,9,8,9 (lower is better: better);
 * ops the other way round (higher is better: worse); tasks 40 everywhere
 * (constant); sched.x 5 vs 7 in every run (descriptive, deterministic: higher).
 */
static struct comparison *make(const char *const *metrics, int nr_metrics)
{
	static struct comparison cmp;
	static struct cmp_case cs;

	memset(recs, 0, sizeof(recs));
	for (int v = 0; v < 2; v++)
		for (int r = 0; r < RUNS; r++) {
			struct run_record *rec = &recs[v * RUNS + r];

			rec->finished = true;
			put(rec, "time_s", (v ? 8 : 10) + r % 2, METRIC_LOWER);
			put(rec, "ops", (v ? 100 : 120) + r % 2, METRIC_HIGHER);
			put(rec, "tasks", 40, METRIC_INFO);
			put(rec, "sched.x", v ? 7 : 5, METRIC_INFO);
		}
	cs = (struct cmp_case){ .machine = "smp2", .command = "hackbench", .recs = recs };
	cmp = (struct comparison){
		.kind = "ab",
		.nr_variants = 2,
		.variant_name = { "base", "test" },
		.variant_features = { "", "SM_IDLE" },
		.nr_runs = RUNS,
		.first_seed = 1,
		.conf = 0.95,
		.metrics = metrics,
		.nr_metrics = nr_metrics,
		.nr_cases = 1,
		.cases = &cs,
	};
	return &cmp;
}

static void test_rows_and_verdicts(void **state)
{
	struct cmp_row rows[RUN_MAX_VALUES];
	char err[256];
	int n;

	(void)state;
	n = cmp_rows(make(NULL, 0), 0, rows, RUN_MAX_VALUES, err, sizeof(err));
	assert_int_equal(n, 4);
	assert_string_equal(rows[0].name, "time_s");
	assert_float_equal(rows[0].s[0].mean, 10.5, 1e-12);
	assert_float_equal(rows[0].s[1].mean, 8.5, 1e-12);
	assert_float_equal(rows[0].d[1].pct, -200 / 10.5, 1e-9);
	assert_false(rows[0].constant);
	assert_string_equal(cmp_verdict(&rows[0], 1), "better");
	assert_string_equal(cmp_verdict(&rows[1], 1), "worse");
	assert_true(rows[2].constant);
	assert_string_equal(cmp_verdict(&rows[2], 1), "~");
	assert_false(rows[3].constant);
	assert_float_equal(rows[3].d[1].half, 0, 0);
	assert_string_equal(cmp_verdict(&rows[3], 1), "higher");
}

static void test_metric_selection(void **state)
{
	static const char *const pick[] = { "sched.x", "time_s" };
	static const char *const bad[] = { "nosuch" };
	struct cmp_row rows[RUN_MAX_VALUES];
	char err[256];

	(void)state;
	assert_int_equal(cmp_rows(make(pick, 2), 0, rows, RUN_MAX_VALUES, err, sizeof(err)), 2);
	assert_string_equal(rows[0].name, "sched.x");
	assert_string_equal(rows[1].name, "time_s");
	assert_int_equal(cmp_rows(make(bad, 1), 0, rows, RUN_MAX_VALUES, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'nosuch'"));
}

static void test_format(void **state)
{
	char buf[64];

	(void)state;
	cmp_format(buf, sizeof(buf), 0.0123456, 0.000123);
	assert_string_equal(buf, "0.012346 ± 0.000123");
	cmp_format(buf, sizeof(buf), 17892.3, 0);
	assert_string_equal(buf, "17892");
	cmp_format(buf, sizeof(buf), 2.5, 0.25);
	assert_string_equal(buf, "2.5000 ± 0.2500");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_verdicts),
		cmocka_unit_test(test_metric_selection),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
