// SPDX-License-Identifier: GPL-2.0-only
/*
 * bcc funclatency output: a log2 histogram in nsecs (bcc's
 * print_log2_hist layout: buckets 1..highest non-empty, 40 stars at most)
 * and the "avg = ..., total: ..., count: ..." line; with --probe-overhead on,
 * the same line goes on with the figures bcc would see, probes included.
 */
#include "report/funclat_print.h"

#include "kernel/funclat.h"

#define STARS_MAX 40

static void stars(FILE *out, u64 val, u64 val_max, int width)
{
	int n = 0;

	if (val_max)
		while (n < width && (double)n <= (double)width * (double)val / (double)val_max - 1)
			n++;
	for (int i = 0; i < width; i++)
		fputc(i < n ? '*' : ' ', out);
}

static void print_hist(FILE *out, const struct funclat *f)
{
	int idx_max = -1, width;
	u64 val_max = 0;
	bool wide;

	for (int i = 0; i < FUNCLAT_BUCKETS; i++) {
		if (f->hist[i])
			idx_max = i;
		if (f->hist[i] > val_max)
			val_max = f->hist[i];
	}
	if (idx_max <= 0)
		return;
	wide = idx_max > 32;
	width = wide ? STARS_MAX / 2 : STARS_MAX;
	if (wide)
		fprintf(out, "               %-29s : count     distribution\n", "nsecs");
	else
		fprintf(out, "     %-19s : count     distribution\n", "nsecs");
	for (int i = 1; i <= idx_max; i++) {
		u64 low = (1ULL << i) >> 1, high = i == 64 ? UINT64_MAX : (1ULL << i) - 1;

		if (low == high)
			low--;
		if (wide)
			fprintf(out, "%20llu -> %-20llu : %-8llu |", (unsigned long long)low,
				(unsigned long long)high, (unsigned long long)f->hist[i]);
		else
			fprintf(out, "%10llu -> %-10llu : %-8llu |", (unsigned long long)low,
				(unsigned long long)high, (unsigned long long)f->hist[i]);
		stars(out, f->hist[i], val_max, width);
		fputs("|\n", out);
	}
}

void funclat_print(FILE *out)
{
	for (int id = 0; id < NR_FUNCLAT; id++) {
		const struct funclat *f = &funclat[id];

		if (!f->enabled)
			continue;
		fprintf(out, "\nFunction = %s\n", funclat_names[id]);
		print_hist(out, f);
		fprintf(out, "\navg = %llu nsecs, total: %llu nsecs, count: %llu",
			(unsigned long long)(f->calls ? f->total_ns / f->calls : 0),
			(unsigned long long)f->total_ns, (unsigned long long)f->calls);
		/* --probe-overhead: what bcc funclatency would print (docs/observability.md) */
		if (funclat_probe_overhead) {
			u64 with = f->total_ns + f->probe_ns;

			fprintf(out, " (with probe overhead: avg = %llu nsecs, total: %llu nsecs)",
				(unsigned long long)(f->calls ? with / f->calls : 0),
				(unsigned long long)with);
		}
		fputc('\n', out);
	}
}
