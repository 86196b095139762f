// SPDX-License-Identifier: GPL-2.0-only
/*
 * Student's t from the regularized incomplete beta function, evaluated
 * with its continued fraction (modified Lentz), then inverted by bisection:
 * a few hundred evaluations per quantile, which is nothing next to a
 * simulated run, and exact to double precision where tables are not.
 */
#include "report/stats.h"

#include <float.h>
#include <math.h>

void sample_summarize(const double *x, int n, struct sample_summary *s)
{
	double sum = 0, ss = 0;

	s->n = n;
	s->mean = s->sd = s->min = s->max = 0;
	if (n <= 0)
		return;
	s->min = s->max = x[0];
	for (int i = 0; i < n; i++) {
		sum += x[i];
		s->min = fmin(s->min, x[i]);
		s->max = fmax(s->max, x[i]);
	}
	s->mean = sum / n;
	/*
	 * every run the same: sum / n can miss x by an ulp, which would make a
	 * spread of 1e-18 and print as "± 0.0000000"; none is none
	 */
	if (s->min == s->max) {
		s->mean = s->min;
		return;
	}
	if (n < 2)
		return;
	/* two passes: no cancellation when the spread is tiny next to the mean */
	for (int i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = sqrt(ss / (n - 1));
}

double mean_ci_half(const struct sample_summary *s, double conf)
{
	if (s->n < 2)
		return 0;
	return student_t_quantile(0.5 + conf / 2, s->n - 1) * s->sd / sqrt(s->n);
}

#define LENTZ_TINY 1e-300

/* one term of a continued fraction by the modified Lentz method: the factor it multiplies by */
static double lentz_step(double num, double *c, double *d)
{
	*d = 1 + num * *d;
	*c = 1 + num / *c;
	if (fabs(*d) < LENTZ_TINY)
		*d = LENTZ_TINY;
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/* the continued fraction of I_x(a, b), good for x < (a + 1) / (a + b + 2) */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < LENTZ_TINY)
		d = LENTZ_TINY;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double m2 = 2.0 * m, delta;

		/* the even term, then the odd one */
		h *= lentz_step(m * (b - m) * x / ((a + m2 - 1) * (a + m2)), &c, &d);
		delta = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)), &c, &d);
		h *= delta;
		if (fabs(delta - 1) < 4 * DBL_EPSILON)
			break;
	}
	return h;
}

double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the fraction converges fast on one side; use the symmetry for the other */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double student_t_cdf(double t, double df)
{
	double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -student_t_quantile(1 - p, df);
	while (student_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (student_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void welch_diff(const struct sample_summary *base, const struct sample_summary *test,
		double conf, struct mean_diff *d)
{
	double vb = base->sd * base->sd / base->n, vt = test->sd * test->sd / test->n;
	double se = sqrt(vb + vt);

	d->diff = test->mean - base->mean;
	if (se > 0) {
		double den = 0;

		if (base->n > 1)
			den += vb * vb / (base->n - 1);
		if (test->n > 1)
			den += vt * vt / (test->n - 1);
		d->df = (vb + vt) * (vb + vt) / den;
		d->half = student_t_quantile(0.5 + conf / 2, d->df) * se;
	} else {
		d->df = base->n + test->n - 2;
		d->half = 0;
	}
	if (base->mean != 0) {
		d->pct = 100 * d->diff / fabs(base->mean);
		d->pct_half = 100 * d->half / fabs(base->mean);
	} else {
		d->pct = d->pct_half = 0;
	}
	if (d->diff - d->half > 0)
		d->sign = 1;
	else if (d->diff + d->half < 0)
		d->sign = -1;
	else
		d->sign = 0;
}
