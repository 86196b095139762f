// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics behind `ab` and `study`: sample summaries, the incomplete
 * beta function, Student's t against printed tables, Welch's interval.
 */
#include "test_util.h"

#include "report/stats.h"

#include <math.h>

static void test_summary(void **state)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct sample_summary s;

	(void)state;
	sample_summarize(x, 8, &s);
	assert_int_equal(s.n, 8);
	assert_float_equal(s.mean, 5.0, 1e-12);
	/* sum of squares 32 over n - 1 = 7 */
	assert_float_equal(s.sd, sqrt(32.0 / 7), 1e-12);
	assert_float_equal(s.min, 2, 0);
	assert_float_equal(s.max, 9, 0);
	sample_summarize(x, 1, &s);
	assert_float_equal(s.sd, 0, 0);
	assert_float_equal(mean_ci_half(&s, 0.95), 0, 0);
}

/* identical values have no spread, even where sum / n is not exactly them */
static void test_summary_identical(void **state)
{
	const double x[] = { 0.007026922, 0.007026922, 0.007026922 };
	struct sample_summary s;

	(void)state;
	sample_summarize(x, 3, &s);
	assert_true(s.mean == x[0]);
	assert_true(s.sd == 0);
	assert_true(mean_ci_half(&s, 0.95) == 0);
}

static void test_incomplete_beta(void **state)
{
	(void)state;
	/* I_x(2,3) = sum_{j=2..4} C(4,j) x^j (1-x)^(4-j): 0.3456 + 0.1536 + 0.0256 */
	assert_float_equal(incomplete_beta(2, 3, 0.4), 0.5248, 1e-12);
	/* I_x(1,1) = x; both sides of the continued fraction's switch point */
	assert_float_equal(incomplete_beta(1, 1, 0.2), 0.2, 1e-12);
	assert_float_equal(incomplete_beta(1, 1, 0.9), 0.9, 1e-12);
	assert_float_equal(incomplete_beta(5, 0.5, 0), 0, 0);
	assert_float_equal(incomplete_beta(5, 0.5, 1), 1, 0);
}

static void test_t_quantiles(void **state)
{
	(void)state;
	/* two-sided 95% and one-sided 95% critical values from printed t tables */
	assert_float_equal(student_t_quantile(0.975, 1), 12.7062047, 1e-6);
	assert_float_equal(student_t_quantile(0.975, 2), 4.3026527, 1e-6);
	assert_float_equal(student_t_quantile(0.975, 9), 2.2621572, 1e-6);
	assert_float_equal(student_t_quantile(0.975, 30), 2.0422725, 1e-6);
	assert_float_equal(student_t_quantile(0.95, 4), 2.1318468, 1e-6);
	assert_float_equal(student_t_quantile(0.995, 10), 3.1692727, 1e-6);
	/* --confidence's upper bound, 99.9, with two runs: one degree of freedom */
	assert_float_equal(student_t_quantile(0.9995, 1), 636.6192488, 1e-4);
	/* df -> infinity: the normal's 1.959964 */
	assert_float_equal(student_t_quantile(0.975, 1e7), 1.959964, 1e-5);
	/* symmetry and the cdf round trip */
	assert_float_equal(student_t_quantile(0.025, 9), -2.2621572, 1e-6);
	assert_float_equal(student_t_cdf(2.2621572, 9), 0.975, 1e-8);
	assert_float_equal(student_t_cdf(0, 3), 0.5, 1e-15);
}

static void test_welch(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 6, 8, 10 };
	struct sample_summary sa, sb;
	struct mean_diff d;
	double t;

	(void)state;
	sample_summarize(a, 5, &sa);
	sample_summarize(b, 5, &sb);
	welch_diff(&sa, &sb, 0.95, &d);
	assert_float_equal(d.diff, 3, 1e-12);
	/* var/n = 0.5 and 2: df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625 */
	assert_float_equal(d.df, 6.25 / 1.0625, 1e-12);
	t = student_t_quantile(0.975, d.df);
	assert_true(t > 2.4469 && t < 2.5706); /* between the df 6 and df 5 values */
	assert_float_equal(d.half, t * sqrt(2.5), 1e-12);
	assert_float_equal(d.pct, 100.0, 1e-12);
	assert_float_equal(d.pct_half, 100 * d.half / 3, 1e-12);
	/* 3 - 3.9 < 0: the interval holds 0, no difference proven */
	assert_int_equal(d.sign, 0);
	welch_diff(&sa, &sb, 0.5, &d);
	assert_int_equal(d.sign, 1);
}

static void test_welch_constant(void **state)
{
	const double a[] = { 7, 7, 7 }, b[] = { 6, 6, 6 };
	struct sample_summary sa, sb;
	struct mean_diff d;

	(void)state;
	sample_summarize(a, 3, &sa);
	sample_summarize(b, 3, &sb);
	welch_diff(&sa, &sa, 0.95, &d);
	assert_int_equal(d.sign, 0);
	assert_float_equal(d.half, 0, 0);
	welch_diff(&sa, &sb, 0.95, &d);
	assert_int_equal(d.sign, -1);
	assert_float_equal(d.pct, -100.0 / 7, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_summary_identical),
		cmocka_unit_test(test_incomplete_beta),
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_constant),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
