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

#include <stdio.h>

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
 * The current version's add_lat(): there min is the smallest sample (a
 * min of 0 is taken as unset and replaced by the next sample).
 */
void schbench_add_lat_cur(struct schbench_stats *s, unsigned int us);

/*
 * The current version's combine_stats() for min and max, one thread's
 * (@min, @max) into *@dmin, *@dmax: a thread without samples (min 0) makes
 * the combined min 0, as the tool's does.
 */
void schbench_combine_minmax(u32 *dmin, u32 *dmax, u32 min, u32 max);

/* the current version's percentile list and show_latencies() masks */
#define SCHBENCH_PLIST_LEN 5		/* 20, 50, 90, 99, 99.9 */
#define SCHBENCH_PLIST_20 (1u << 0)
#define SCHBENCH_PLIST_50 (1u << 1)
#define SCHBENCH_PLIST_90 (1u << 2)
#define SCHBENCH_PLIST_99 (1u << 3)
#define SCHBENCH_PLIST_999 (1u << 4)
#define SCHBENCH_PLIST_FOR_LAT \
	(SCHBENCH_PLIST_50 | SCHBENCH_PLIST_90 | SCHBENCH_PLIST_99 | SCHBENCH_PLIST_999)
#define SCHBENCH_PLIST_FOR_RPS (SCHBENCH_PLIST_20 | SCHBENCH_PLIST_50 | SCHBENCH_PLIST_90)
extern const double schbench_plist[SCHBENCH_PLIST_LEN];

/*
 * The current version's show_latencies(): a "LABEL percentiles (UNITS)
 * runtime N (s) (N total samples)" line, the percentiles in @mask with
 * their sample counts (@star starred), then min and max.
 */
void schbench_show_latencies(FILE *out, const struct schbench_stats *s, const char *label,
			     const char *units, unsigned long long runtime, unsigned int mask,
			     unsigned int star);

/*
 * calc_percentiles(): for each of the @len percentiles in @plist, the value
 * of the first bucket where the running count reaches plist[i] / 100 * nr,
 * in @vals; @counts (may be NULL) gets the samples between one percentile's
 * bucket and the previous one's, as the current schbench prints them.
 */
void schbench_percentiles(const struct schbench_stats *s, const double *plist, unsigned int len,
			  unsigned int *vals, unsigned long *counts);

#endif
