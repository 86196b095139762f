// SPDX-License-Identifier: GPL-2.0-only
/*
 * bcc funclatency's output (tools/funclatency.py, and table.py's
 * print_log2_hist): "Tracing N functions for "PATTERN"... Hit Ctrl-C to
 * end.", then a summary at the end of each interval (-i), or once when
 * the run ends (the Ctrl-C), then "Detaching...". A summary is an empty
 * line, with -T the time, the log2 histogram of all the matched functions
 * together (with -F one per function that had calls, each under
 * "Function = NAME"), and "avg = A UNIT, total: T UNIT, count: N" over
 * them all. With --probe-overhead on the avg line goes on with the figures
 * bcc would see, probes included.
 *
 * -T prints simulated time since the machine started, where bcc prints the
 * wall clock's HH:MM:SS.
 */
#include "report/funclat_print.h"

#include "kernel/funclat.h"

#include <string.h>

#define STARS_MAX 40

/* bcc's _stars(): width * val / val_max stars, rounded up */
static void stars(FILE *out, u64 val, u64 val_max, int width)
{
	int n = 0;

	if (val_max)
		while (n < width && (double)n <= (double)width * (double)val / (double)val_max - 1)
			n++;
	for (int i = 0; i < width; i++)
		fputc(i < n ? '*' : ' ', out);
}

void funclat_print_log2_hist(FILE *out, const u64 *hist, const char *unit)
{
	int idx_max = -1, width;
	u64 val_max = 0;
	bool wide;

	for (int i = 0; i < FUNCLAT_BUCKETS; i++) {
		if (hist[i])
			idx_max = i;
		if (hist[i] > val_max)
			val_max = hist[i];
	}
	if (idx_max <= 0)
		return;
	wide = idx_max > 32;
	width = wide ? STARS_MAX / 2 : STARS_MAX;
	if (wide)
		fprintf(out, "               %-29s : count     distribution\n", unit);
	else
		fprintf(out, "     %-19s : count     distribution\n", unit);
	for (int i = 1; i <= idx_max; i++) {
		u64 low = (1ULL << i) >> 1, high = i == 64 ? UINT64_MAX : (1ULL << i) - 1;

		if (low == high)
			low--;
		if (wide)
			fprintf(out, "%20llu -> %-20llu : %-8llu |", (unsigned long long)low,
				(unsigned long long)high, (unsigned long long)hist[i]);
		else
			fprintf(out, "%10llu -> %-10llu : %-8llu |", (unsigned long long)low,
				(unsigned long long)high, (unsigned long long)hist[i]);
		stars(out, hist[i], val_max, width);
		fputs("|\n", out);
	}
}

/* one summary: @sum[id] each function's figures for it (NULL: none), @t its time */
static void print_summary(FILE *out, const struct funclat_sum *const *sum, u64 t)
{
	const struct funclat_opts *o = &funclat_opts;
	u64 hist[FUNCLAT_BUCKETS] = { 0 };
	u64 calls = 0, total = 0, probe = 0;

	fputc('\n', out);
	if (o->timestamp) {
		u64 s = t / NSEC_PER_SEC;

		fprintf(out, "%02llu:%02llu:%02llu\n", (unsigned long long)(s / 3600),
			(unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
	}
	for (int id = 0; id < NR_FUNCLAT; id++) {
		if (!sum[id] || !sum[id]->calls)
			continue;
		calls += sum[id]->calls;
		total += sum[id]->total_ns;
		probe += sum[id]->probe_ns;
		if (o->per_function) {
			fprintf(out, "\nFunction = %s\n", funclat_names[id]);
			funclat_print_log2_hist(out, sum[id]->hist, o->unit);
		} else {
			for (int b = 0; b < FUNCLAT_BUCKETS; b++)
				hist[b] += sum[id]->hist[b];
		}
	}
	if (!o->per_function)
		funclat_print_log2_hist(out, hist, o->unit);
	if (!calls)
		return;
	/* bcc sums nsecs and divides the sum by the unit: avg = total / unit / count */
	fprintf(out, "\navg = %llu %s, total: %llu %s, count: %llu",
		(unsigned long long)(total / o->unit_ns / calls), o->unit,
		(unsigned long long)(total / o->unit_ns), o->unit, (unsigned long long)calls);
	/* --probe-overhead: what bcc funclatency would print (docs/observability.md) */
	if (funclat_probe_overhead) {
		u64 with = total + probe;

		fprintf(out, " (with probe overhead: avg = %llu %s, total: %llu %s)",
			(unsigned long long)(with / o->unit_ns / calls), o->unit,
			(unsigned long long)(with / o->unit_ns), o->unit);
	}
	fputs("\n\n", out);
}

/*
 * -i: a summary at every interval end up to the run's end, and one for the
 * part of an interval when the run ends (bcc's Ctrl-C); with -d, up to the
 * interval end where funclatency exits, if the run lasts that long.
 */
static void print_intervals(FILE *out, u64 end)
{
	const struct funclat_opts *o = &funclat_opts;
	u64 n, last_t, k;
	size_t i = 0;

	if (end >= o->until_ns) {
		n = o->until_ns / o->interval_ns;
		last_t = o->until_ns;
	} else {
		n = end / o->interval_ns + 1;
		last_t = end;
	}
	for (u64 b = 0; b < n; b++) {
		const struct funclat_sum *sum[NR_FUNCLAT] = { NULL };
		struct funclat_sum fold[NR_FUNCLAT];
		bool last = b + 1 == n;

		memset(fold, 0, sizeof(fold));
		/* the last summary takes any call stamped past the end, as bcc's would */
		while (funclat_interval(i, 0, &k) && (k == b || (last && k > b))) {
			for (int id = 0; id < NR_FUNCLAT; id++) {
				const struct funclat_sum *s = funclat_interval(i, id, &k);

				fold[id].calls += s->calls;
				fold[id].total_ns += s->total_ns;
				fold[id].probe_ns += s->probe_ns;
				for (int h = 0; h < FUNCLAT_BUCKETS; h++)
					fold[id].hist[h] += s->hist[h];
				sum[id] = &fold[id];
			}
			i++;
		}
		print_summary(out, sum, last ? last_t : (b + 1) * o->interval_ns);
	}
}

void funclat_print(FILE *out)
{
	const struct funclat_opts *o = &funclat_opts;

	if (!o->matched)
		return;
	fprintf(out, "Tracing %u functions for \"%s\"... Hit Ctrl-C to end.\n", o->matched,
		o->pattern);
	if (o->interval_ns) {
		print_intervals(out, machine.now);
	} else {
		const struct funclat_sum *sum[NR_FUNCLAT];
		struct funclat_sum all[NR_FUNCLAT];

		for (int id = 0; id < NR_FUNCLAT; id++) {
			all[id].calls = funclat[id].calls;
			all[id].total_ns = funclat[id].total_ns;
			all[id].probe_ns = funclat[id].probe_ns;
			memcpy(all[id].hist, funclat[id].hist, sizeof(all[id].hist));
			sum[id] = funclat[id].enabled ? &all[id] : NULL;
		}
		print_summary(out, sum, machine.now);
	}
	fputs("Detaching...\n", out);
}
