// SPDX-License-Identifier: GPL-2.0-only
/*
 * schbench's histogram (schbench.c plat_val_to_idx(), plat_idx_to_val(),
 * calc_percentiles(), add_lat(); the same in the 2016 and current versions).
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
