/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schbench's latency histogram: fio's log-linear "plat" buckets (every
 * value below 2 * PLAT_VAL exactly, then PLAT_VAL buckets per power of two)
 * and its percentile walk, as schbench.c has them in both its 2016 and
 * its current version. Values are microseconds.
 */
#ifndef SCHEDLAB_WORK_SCHBENCH_HIST_H
#define SCHEDLAB_WORK_SCHBENCH_HIST_H

#include "sim/types.h"

#define SCHBENCH_PLAT_BITS 8
#define SCHBENCH_PLAT_VAL (1u << SCHBENCH_PLAT_BITS)
#define SCHBENCH_PLAT_GROUP_NR 19
#define SCHBENCH_PLAT_NR (SCHBENCH_PLAT_GROUP_NR * SCHBENCH_PLAT_VAL)

struct schbench_stats {
	u32 plat[SCHBENCH_PLAT_NR];
	unsigned long nr_samples;
	/*
	 * min starts at 0 as the tool's zeroed struct does, and add_lat()
	 * only lowers it: the tool prints min=0 whatever it measured
	 */
	u32 max, min;
};

/* the bucket of a value, and the value a bucket stands for (its middle) */
unsigned int schbench_plat_val_to_idx(unsigned int val);
unsigned int schbench_plat_idx_to_val(unsigned int idx);

/* add_lat(): one sample of @us microseconds */
void schbench_add_lat(struct schbench_stats *s, unsigned int us);

/*
 * calc_percentiles(): for each of the @len percentiles in @plist, the value
 * of the first bucket where the running count reaches plist[i] / 100 * nr,
 * in @vals; @counts (may be NULL) gets the samples between one percentile's
 * bucket and the previous one's, as the current schbench prints them.
 */
void schbench_percentiles(const struct schbench_stats *s, const double *plist, unsigned int len,
			  unsigned int *vals, unsigned long *counts);

#endif
