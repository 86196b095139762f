// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sweep plans: the directives, the grid of points they expand to (axes
 * substituted, only the axes a workload uses), the points' names, the
 * errors with their line numbers; and the JSON reader --collect uses.
 */
#include "test_util.h"

#include "cli/cli.h"
#include "cli/sweep_plan.h"
#include "report/json_read.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* main.c's, which the tests do not link: the message is not needed here */
int usage_error(const char *fmt, ...)
{
	(void)fmt;
	return EXIT_BAD_INPUT;
}

static const char good[] = "# a comment\n"
			   "name demo\n"
			   "machine smp2 smp4\n"
			   "workload hackbench -g {groups} -l 10\n"
			   "workload perf bench sched pipe -l 100\n"
			   "axis groups 1..3\n"
			   "features base -\n"
			   "features test NO_SM_IDLE\n"
			   "settings short --sysctl base_slice_ns=1500000 --hz 1000\n"
			   "seeds 1 5\n"
			   "metric time_s\n"
			   "chunk 4\n"
			   "time 1:00:00\n"
			   "mem 1G\n"
			   "sbatch --partition=short\n"
			   "note hello\n";

static void test_parse_and_expand(void **state)
{
	struct sweep_plan p;
	struct sweep_point *pts;
	char err[256];
	int n;

	(void)state;
	assert_int_equal(sweep_plan_parse("demo.plan", good, &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, "demo");
	assert_int_equal(p.machines.names.n, 2);
	assert_int_equal(p.nr_axes, 1);
	assert_int_equal(p.axis_values[0].n, 3);
	assert_string_equal(p.axis_values[0].v[2], "3");
	assert_int_equal(p.nr_seeds, 2);
	assert_int_equal(p.seeds[1], 5);
	assert_int_equal(p.chunk, 4);
	assert_string_equal(p.time, "1:00:00");
	assert_string_equal(p.features.values.v[0], "");
	assert_int_equal(sweep_points(&p, &pts, &n), 0);
	/* machines x (hackbench x 3 groups + pipe) x 2 features x 1 settings x 2 seeds */
	assert_int_equal(n, 2 * (3 + 1) * 2 * 1 * 2);
	assert_string_equal(pts[0].cmd,
			    "run -m smp2 --seed 1 --hz 1000 --sysctl base_slice_ns=1500000 -- "
			    "hackbench -g 1 -l 10");
	assert_string_equal(pts[3].cmd, "run -m smp2 --features NO_SM_IDLE --seed 5 --hz 1000 "
					"--sysctl base_slice_ns=1500000 -- hackbench -g 1 -l 10");
	assert_int_equal(pts[0].group, pts[1].group);
	assert_int_not_equal(pts[1].group, pts[2].group);
	/* the pipe workload does not use the groups axis */
	assert_int_equal(pts[12].workload, 1);
	assert_int_equal(pts[12].axis[0], -1);
	assert_int_equal(pts[12].cfg.argc, 6);
	for (int i = 0; i < n; i++) {
		assert_int_equal(strlen(pts[i].hash), SWEEP_HASH_LEN);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(pts[i].hash, pts[j].hash);
	}
	sweep_points_free(pts, n);
	sweep_plan_free(&p);
}

static void test_hash(void **state)
{
	(void)state;
	/* FNV-1a 64's published test values */
	assert_true(sweep_hash("") == 0xcbf29ce484222325ULL);
	assert_true(sweep_hash("a") == 0xaf63dc4c8601ec8cULL);
	assert_true(sweep_hash("foobar") == 0x85944171f73967e8ULL);
}

static void expect_error(const char *text, const char *msg)
{
	struct sweep_plan p;
	char err[256];

	assert_int_equal(sweep_plan_parse("x.plan", text, &p, err, sizeof(err)), -1);
	if (!strstr(err, msg))
		fail_msg("expected '%s' in '%s'", msg, err);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("machine smp2\nworkload hackbench -g {g}\n", "x.plan:2: unknown axis 'g'");
	expect_error("machine smp2\naxis g\nworkload hackbench -g {g}\n",
		     "x.plan:2: axis 'g' has no values");
	expect_error("machine smp2\naxis g 1\nworkload hackbench\n",
		     "x.plan:2: axis 'g' is used by no workload");
	expect_error("machine smp2\naxis seed 1\n",
		     "x.plan:2: axis 'seed' is one of the plan's own");
	expect_error("machine smp2\nbogus 1\n", "x.plan:2: unknown directive 'bogus'");
	expect_error("machine smp2\nname my sweep\n", "x.plan:2: name 'my sweep': letters");
	expect_error("machine smp2\nfeatures a -\nfeatures a X\n",
		     "x.plan:3: features 'a' given twice");
	expect_error("machine smp2\nsettings s --sysctl\n",
		     "x.plan:2: settings: option '--sysctl' needs a value");
	expect_error("machine smp2\nseeds 3..1\n", "x.plan:2: seeds range '3..1' must go up");
	expect_error("machine smp2\nchunk 0\n", "x.plan:2: 'chunk' needs an integer");
	expect_error("machine smp2\nmem lots\n", "x.plan:2: 'mem' takes Slurm's form");
	expect_error("machine smp2\noption nice 3\n", "x.plan:2: unknown option 'nice'");
	/* duplicates found through the hash set, across words and ranges */
	expect_error("machine smp2\naxis g 1..5 3\nworkload hackbench -g {g}\n",
		     "x.plan:2: g value '3' given twice");
	expect_error("machine smp2\naxis g 7 2..9\nworkload hackbench -g {g}\n",
		     "x.plan:2: g value '7' given twice");
	expect_error("machine smp2\naxis g a b a\nworkload hackbench -g {g}\n",
		     "x.plan:2: g value 'a' given twice");
	expect_error("machine smp2\nseeds 1..3 2\n", "x.plan:2: seeds value '2' given twice");
	expect_error("machine smp2\nseeds 1..10000 10001\n", "x.plan:2: more than 10000 values of seeds");
	expect_error("workload hackbench\n", "x.plan: the plan has no 'machine'");
	expect_error("machine smp2\n", "x.plan: the plan has no 'workload'");
}

/* issue 18: the duplicate check was quadratic, 16 s for a 1..99999 axis */
static void test_big_axis(void **state)
{
	const char *text = "machine smp2\naxis n 1..99999 x\nworkload hackbench -l {n}\n";
	struct sweep_plan p;
	char err[256];

	(void)state;
	assert_int_equal(sweep_plan_parse("big.plan", text, &p, err, sizeof(err)), 0);
	assert_int_equal(p.axis_values[0].n, 100000);
	assert_string_equal(p.axis_values[0].v[99998], "99999");
	assert_string_equal(p.axis_values[0].v[99999], "x");
	sweep_plan_free(&p);
	expect_error("machine smp2\naxis n 1..99999 x y\nworkload hackbench -l {n}\n",
		     "x.plan:2: more than 100000 values of n");
	/* 100,007 values in all still fit 100,000 points (100,000 x 1 x 1 ...), one more cannot */
	assert_int_equal(sweep_plan_parse("x.plan",
					  "machine smp2\naxis a 1..100000\naxis b 1\naxis c 1\n"
					  "axis d 1\naxis e 1\naxis f 1\naxis g 1\naxis h 1\n"
					  "workload hackbench -l {a}{b}{c}{d}{e}{f}{g}{h}\n",
					  &p, err, sizeof(err)),
			 0);
	sweep_plan_free(&p);
	expect_error("machine smp2\naxis a 1..100000\naxis b 1\naxis c 1\n"
		     "axis d 1\naxis e 1\naxis f 1\naxis g 1\naxis h 1 2\n"
		     "workload hackbench -l {a}{b}{c}{d}{e}{f}{g}{h}\n",
		     "x.plan:9: the axes have more than 100007 values in all");
	expect_error("machine smp2\naxis a 1..60000\naxis b 1..40008\n"
		     "workload hackbench -l {a}{b}\n",
		     "x.plan:3: the axes have more than 100007 values in all (a plan has at most 100000 points)");
}

static void test_json_read(void **state)
{
	const char *text =
		"{ \"a\": [1, -2.5e3, true, null], \"b\": {\"c\": \"x\\\"\\n\\u0041\"} }";
	struct jv v;
	const struct jv *a, *b;
	char err[128];

	(void)state;
	assert_int_equal(jv_parse(text, &v, err, sizeof(err)), 0);
	a = jv_get(&v, "a");
	assert_non_null(a);
	assert_int_equal(a->type, JV_ARRAY);
	assert_int_equal(a->n, 4);
	assert_true(a->items[1].num == -2500);
	assert_true(a->items[2].b);
	assert_int_equal(a->items[3].type, JV_NULL);
	b = jv_get(jv_get(&v, "b"), "c");
	assert_string_equal(b->str, "x\"\nA");
	assert_null(jv_get(&v, "z"));
	jv_free(&v);
	assert_int_equal(jv_parse("{\"a\": 1", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("[1] x", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("\"abc", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("", &v, err, sizeof(err)), -1);
	/* JSON's numbers only (strtod took these), and finite (issue 18) */
	assert_int_equal(jv_parse("-inf", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("[-nan]", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("0x10", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("01", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("1.", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("1e", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("-", &v, err, sizeof(err)), -1);
	assert_int_equal(jv_parse("1e999", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "offset 0: number out of range");
	assert_int_equal(jv_parse("[0, -0.5, 1E+2, 2e-3]", &v, err, sizeof(err)), 0);
	assert_true(v.items[2].num == 100);
	jv_free(&v);
	/* a long array, its members' storage doubling */
	{
		char *big = malloc(2 * 100000 + 3);
		size_t n = 0;

		big[n++] = '[';
		for (int i = 0; i < 100000; i++) {
			big[n++] = i ? ',' : ' ';
			big[n++] = (char)('0' + i % 10);
		}
		big[n++] = ']';
		big[n] = '\0';
		assert_int_equal(jv_parse(big, &v, err, sizeof(err)), 0);
		assert_int_equal(v.n, 100000);
		assert_true(v.items[99999].num == 9);
		jv_free(&v);
		free(big);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_expand),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_big_axis),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_json_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
