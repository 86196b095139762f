// SPDX-License-Identifier: GPL-2.0-only
/*
 * schbench's histogram (schbench.c plat_val_to_idx(), plat_idx_to_val(),
 * calc_percentiles(), add_lat(); the same in the 2016 and current versions),
 * and the current version's add_lat(), combine_stats() and show_latencies()
 * (masoncl/schbench 24e32b8).
 */
#include "work/schbench_hist.h"

unsigned int schbench_plat_val_to_idx(unsigned int val)
{
	unsigned int msb, error_bits, base, offset;

	msb = val ? 31 - (unsigned int)__builtin_clz(val) : 0;
	/* up to 2 * PLAT_VAL - 1 every value has its own bucket */
	if (msb <= SCHBENCH_PLAT_BITS)
		return val;
	error_bits = msb - SCHBENCH_PLAT_BITS;
	base = (error_bits + 1) << SCHBENCH_PLAT_BITS;
	offset = (SCHBENCH_PLAT_VAL - 1) & (val >> error_bits);
	return base + offset < SCHBENCH_PLAT_NR - 1 ? base + offset : SCHBENCH_PLAT_NR - 1;
}

unsigned int schbench_plat_idx_to_val(unsigned int idx)
{
	unsigned int error_bits, k, base;

	if (idx >= SCHBENCH_PLAT_NR)
		idx = SCHBENCH_PLAT_NR - 1;
	if (idx < (SCHBENCH_PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> SCHBENCH_PLAT_BITS) - 1;
	base = 1u << (error_bits + SCHBENCH_PLAT_BITS);
	k = idx % SCHBENCH_PLAT_VAL;
	/* the middle of the bucket: base + (k + 0.5) << error_bits, error_bits >= 1 */
	return base + (k << error_bits) + (1u << (error_bits - 1));
}

void schbench_add_lat(struct schbench_stats *s, unsigned int us)
{
	if (us > s->max)
		s->max = us;
	if (us < s->min)
		s->min = us;
	s->plat[schbench_plat_val_to_idx(us)]++;
	s->nr_samples++;
}

void schbench_percentiles(const struct schbench_stats *s, const double *plist, unsigned int len,
			  unsigned int *vals, unsigned long *counts)
{
	unsigned long sum = 0, prev = 0;
	unsigned int j = 0;

	if (!len)
		return;
	for (unsigned int i = 0; i < SCHBENCH_PLAT_NR; i++) {
		sum += s->plat[i];
		while ((double)sum >= plist[j] / 100.0 * (double)s->nr_samples) {
			vals[j] = schbench_plat_idx_to_val(i);
			if (counts) {
				counts[j] = sum - prev;
				prev = sum;
			}
			if (++j == len)
				return;
		}
	}
	/* not reached: the last bucket's running count is nr_samples */
	for (; j < len; j++) {
		vals[j] = schbench_plat_idx_to_val(SCHBENCH_PLAT_NR - 1);
		if (counts)
			counts[j] = 0;
	}
}

void schbench_add_lat_cur(struct schbench_stats *s, unsigned int us)
{
	if (us > s->max)
		s->max = us;
	if (s->min == 0 || us < s->min)
		s->min = us;
	s->plat[schbench_plat_val_to_idx(us)]++;
	s->nr_samples++;
}

void schbench_combine_minmax(u32 *dmin, u32 *dmax, u32 min, u32 max)
{
	if (max > *dmax)
		*dmax = max;
	if (*dmin == 0 || min < *dmin)
		*dmin = min;
}

const double schbench_plist[SCHBENCH_PLIST_LEN] = { 20.0, 50.0, 90.0, 99.0, 99.9 };

void schbench_show_latencies(FILE *out, const struct schbench_stats *s, const char *label,
			     const char *units, unsigned long long runtime, unsigned int mask,
			     unsigned int star)
{
	unsigned int vals[SCHBENCH_PLIST_LEN];
	unsigned long counts[SCHBENCH_PLIST_LEN];

	schbench_percentiles(s, schbench_plist, SCHBENCH_PLIST_LEN, vals, counts);
	fprintf(out, "%s percentiles (%s) runtime %llu (s) (%lu total samples)\n", label, units,
		runtime, s->nr_samples);
	for (unsigned int i = 0; i < SCHBENCH_PLIST_LEN; i++) {
		unsigned int bit = 1u << i;

		if (!(mask & bit))
			continue;
		fprintf(out, "\t%s%2.1fth: %-10u (%lu samples)\n", bit == star ? "* " : "  ",
			schbench_plist[i], vals[i], counts[i]);
	}
	fprintf(out, "\t  min=%u, max=%u\n", s->min, s->max);
}
