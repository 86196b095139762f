// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab calibrate: statistics of measurements over trials, and a cost
 * taken from interleaved pairs of wakeups. A cost that is the difference
 * of two wakeups measured apart in time moves with whatever the host's
 * load did between them; measured in alternation, each pair sees the same
 * load, and the pairs' differences keep the cost (docs/guests.md). And
 * the timer probe's distances, with the mean of its curve over a tick.
 */
#include "calib/calib.h"

#include "sim/cost.h"

#include <math.h>
#include <stdlib.h>

const struct calib_pair *calib_first_pair(const struct calib_result *res)
{
	for (int d = DIST_SMT; d < NR_DIST; d++)
		if (res->pair[d].a >= 0)
			return &res->pair[d];
	return NULL;
}

int calib_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct calib_stat calib_stat_of(double *v, int n)
{
	if (n < 1)
		return (struct calib_stat){ 0 };
	qsort(v, (size_t)n, sizeof(v[0]), calib_cmp_double);
	return (struct calib_stat){ .med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2,
				    .min = v[0],
				    .max = v[n - 1],
				    .n = n };
}

double calib_median_diff(const double *a, const double *b, long n, double *scratch)
{
	for (long i = 0; i < n; i++)
		scratch[i] = a[i] - b[i];
	return n > 0 ? calib_stat_of(scratch, (int)n).med : 0;
}

bool calib_cost_resolved(const struct calib_stat *diff, double extra)
{
	/* every trial's median difference, less what the model charges apart, above 0 */
	return diff->n > 0 && diff->min - extra > 0;
}

bool calib_pairs_halted(const struct calib_wake_pairs *p)
{
	return p->halts < 0 || p->halts >= CALIB_MIN_HALTS;
}

double calib_flush_threshold(const unsigned int *gap_us, const double *lost, int n)
{
	int i = n;
	double g0, g1, f0, f1;

	while (i > 0 && lost[i - 1] >= CALIB_FLUSH_LOST)
		i--;
	if (i == n)
		return -1;
	if (i == 0)
		return (double)gap_us[0] * 1000;
	/* the share rises from below to at least CALIB_FLUSH_LOST between these two */
	g0 = log((double)gap_us[i - 1]);
	g1 = log((double)gap_us[i]);
	f0 = lost[i - 1];
	f1 = lost[i];
	return exp(g0 + (g1 - g0) * (CALIB_FLUSH_LOST - f0) / (f1 - f0)) * 1000;
}

const unsigned int calib_timer_64ths[CALIB_NR_TIMER] = { 1, 4, 8, 16, 32, 48 };

double calib_timer_mean(const double *c)
{
	double sum = c[0] * calib_timer_64ths[0];

	for (int i = 1; i < CALIB_NR_TIMER; i++)
		sum += (c[i - 1] + c[i]) / 2 * (calib_timer_64ths[i] - calib_timer_64ths[i - 1]);
	sum += c[CALIB_NR_TIMER - 1] * (64 - calib_timer_64ths[CALIB_NR_TIMER - 1]);
	return sum / 64;
}

const unsigned int calib_window_us[CALIB_NR_WINDOW] = { 0, 1, 2,  3,  4,  5,  6,
							7, 8, 10, 12, 15, 20, 30 };

double calib_window_onset(const double *halted)
{
	int i = CALIB_NR_WINDOW;

	/* for good: the first delay from which every later one is at least a half */
	while (i > 0 && halted[i - 1] >= 0.5)
		i--;
	if (i == CALIB_NR_WINDOW)
		return -1;
	if (i == 0)
		return 0;
	double d0 = calib_window_us[i - 1] * 1000.0, d1 = calib_window_us[i] * 1000.0;

	return d0 + (d1 - d0) * (0.5 - halted[i - 1]) / (halted[i] - halted[i - 1]);
}
