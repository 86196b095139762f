/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Statistics for comparing runs: the mean and standard deviation of a
 * sample, Student's t quantiles, and Welch's confidence interval for the
 * difference of two means (the test ministat(1) users know, without its
 * equal-variance assumption). docs/ab-and-studies.md.
 */
#ifndef SCHEDLAB_REPORT_STATS_H
#define SCHEDLAB_REPORT_STATS_H

struct sample_summary {
	int n;
	double mean;
	double sd;	/* sample standard deviation (n - 1); 0 for n < 2 */
	double min, max;
};

void sample_summarize(const double *x, int n, struct sample_summary *s);

/* Half-width of the @conf (e.g. 0.95) confidence interval of the mean; 0 for n < 2. */
double mean_ci_half(const struct sample_summary *s, double conf);

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
double incomplete_beta(double a, double b, double x);
/* Student's t distribution with @df degrees of freedom: P(T <= t). */
double student_t_cdf(double t, double df);
/* The t with P(T <= t) = p, 0 < p < 1. */
double student_t_quantile(double p, double df);

struct mean_diff {
	double diff;		/* mean(test) - mean(base) */
	double half;		/* half-width of its confidence interval */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double pct, pct_half;	/* the same relative to mean(base), in % */
	int sign;		/* -1 or +1 when the interval excludes 0, else 0 */
};

/*
 * Welch's interval for mean(test) - mean(base) at confidence @conf; both
 * samples need n >= 2. Identical constant samples give a zero interval and
 * sign 0; different constant samples a zero interval and the sign of the
 * difference (a deterministic change, no noise to hide it).
 */
void welch_diff(const struct sample_summary *base, const struct sample_summary *test,
		double conf, struct mean_diff *d);

#endif
