// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output formats, from the tools' sources: rt-tests hackbench.c (main),
 * tools/perf/bench/sched-messaging.c and sched-pipe.c (BENCH_FORMAT_DEFAULT),
 * with perf bench's "# Running 'sched/NAME' benchmark:" banner; stress-ng's
 * in report/stress_output.c; byte-unixbench 6.0.0
 * context1.c (report) and Run (logResults, logIndexCat, summarizeRun);
 * schbench 2016 (masoncl/schbench 3d16b23) show_latencies().
 */
#include "report/bench_output.h"

#include "report/stress_output.h"

#include "sim/machine.h"
#include "work/jankbench.h"
#include "work/rtapp.h"
#include "work/reaim.h"
#include "work/schbench_hist.h"

#include <math.h>
#include <time.h>

void bench_print_header(const struct bench *b, FILE *out)
{
	switch (b->kind) {
	case BENCH_HACKBENCH:
		fprintf(out,
			"Running in %s mode with %u groups using %u file descriptors each (== %u tasks)\n",
			b->threads ? "threaded" : "process", b->groups, 2 * b->fds,
			b->groups * (b->fds * 2));
		fprintf(out, "Each sender will pass %u messages of %u bytes\n", b->loops, b->datasize);
		break;
	case BENCH_PERF_MESSAGING:
		fprintf(out, "# Running 'sched/messaging' benchmark:\n");
		break;
	case BENCH_PERF_PIPE:
		fprintf(out, "# Running 'sched/pipe' benchmark:\n");
		break;
	case BENCH_PERF_FUTEX_WAKE:
		fprintf(out, "# Running 'futex/wake' benchmark:\n");
		break;
	case BENCH_JANKBENCH:
		fprintf(out, "# jankbench: %u subtest%s of %u frames at %u Hz, jank deadline %llu ms\n",
			b->jank->nr_tests, b->jank->nr_tests == 1 ? "" : "s", b->jank->frames,
			b->jank->hz,
			(unsigned long long)(jankbench_deadline_ns(b->jank->hz) / NSEC_PER_MSEC));
		break;
	case BENCH_PERF_FUTEX_HASH:
		fprintf(out, "# Running 'futex/hash' benchmark:\n");
		break;
	case BENCH_PERF_FUTEX_REQUEUE:
		fprintf(out, "# Running 'futex/requeue' benchmark:\n");
		break;
	case BENCH_PERF_FUTEX_WAKE_PARALLEL:
		fprintf(out, "# Running 'futex/wake-parallel' benchmark:\n");
		break;
	case BENCH_PERF_FUTEX_LOCK_PI:
		fprintf(out, "# Running 'futex/lock-pi' benchmark:\n");
		break;
	case BENCH_IPISTORM:
	case BENCH_CONTEXT1:
	case BENCH_UNIXBENCH:
	case BENCH_SCHBENCH_2016:
	case BENCH_RTAPP:
	case BENCH_REAIM:
		break;
	case BENCH_SCHBENCH:
		/* main(): -t 0 is ceil(get_nprocs() / m) */
		if (!b->sb_workers)
			fprintf(out, "setting worker threads to %u\n", schbench_now_workers(b));
		break;
	case BENCH_STRESS_NG:
		stress_print_header(b, out);
		break;
	}
}

/* Run's report times: time() of the simulated clock, from 1 Jan 1970 UTC */
static void ub_strftime(char *buf, size_t len, const char *fmt, u64 ns)
{
	time_t t = (time_t)(ns / NSEC_PER_SEC);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, fmt, &tm);
}

#define UB_LOGMSG "Pipe-based Context Switching"

/*
 * What Run 6.0.0 prints to stdout after its banner: the heartbeat of each
 * -c value's passes, then the report: its title and, per -c value,
 * summarizeRun() (logResults() and logIndexCat() of the "system" category,
 * of which context1 is one of 12 index tests: a partial index).
 */
static void print_unixbench(const struct bench *b, FILE *out)
{
	char day[32], t0[16], t1[16];

	for (unsigned int i = 0; i < b->ub_nr_runs; i++) {
		const struct ub_run *r = &b->ub_runs[i];

		fprintf(out, "\n%u x %s ", r->copies, UB_LOGMSG);
		for (unsigned int p = 1; p <= r->nr_passes; p++)
			fprintf(out, " %u", p);
		fprintf(out, "\n");
	}
	fprintf(out, "\n========================================================================\n");
	fprintf(out, "   BYTE UNIX Benchmarks (Version 6.0.0)\n\n");
	for (unsigned int i = 0; i < b->ub_nr_runs; i++) {
		const struct ub_run *r = &b->ub_runs[i];

		ub_strftime(day, sizeof(day), "%a %b %d %Y", r->start_ns);
		ub_strftime(t0, sizeof(t0), "%H:%M:%S", r->start_ns);
		ub_strftime(t1, sizeof(t1), "%H:%M:%S", r->end_ns);
		fprintf(out, "------------------------------------------------------------------------\n");
		fprintf(out, "Benchmark Run: %s %s - %s\n", day, t0, t1);
		fprintf(out, "%u CPU%s in system; running %u parallel cop%s of tests\n\n",
			machine.nr_cpus, machine.nr_cpus == 1 ? "" : "s", r->copies,
			r->copies == 1 ? "y" : "ies");
		fprintf(out, "%-40s %12.1f %-5s (%.1f s, %u samples)\n\n", UB_LOGMSG, r->score, "lps",
			r->time_s, r->samples);
		fprintf(out, "%-40s %12s %12s %8s\n", "System Benchmarks Partial Index", "BASELINE",
			"RESULT", "INDEX");
		fprintf(out, "%-40s %12.1f %12.1f %8.1f\n", UB_LOGMSG, UB_CONTEXT1_BASELINE, r->score,
			r->index);
		fprintf(out, "%-40s %12s %12s %8s\n", "", "", "", "========");
		/* one test: the category's geometric mean is its own index */
		fprintf(out, "%-66s %8.1f\n\n", "System Benchmarks Index Score (Partial Only)",
			r->index);
	}
}

/*
 * rt-app: its notices as it logs them at the default level (stderr there,
 * stdout here), then schedlab's summary of each thread's loops, the figures
 * of rt-app's log columns (rt-app itself prints none; its logs are
 * written only when the file gives a logdir, by report/rtapp_logs.c).
 */
static void print_rtapp(const struct bench *b, FILE *out)
{
	const struct rtapp_result *r = rtapp_result(b);

	if (!r)
		return;
	if (b->rtapp_log_level >= 50 && r->notices)
		fputs(r->notices, out);
	fprintf(out, "# rt-app summary (schedlab): per thread, over its logged loops, in us\n");
	fprintf(out, "# %-18s %8s %10s %11s %7s %10s %10s %7s %11s %10s\n", "thread", "loops",
		"run_mean", "period_mean", "util%", "slack_min", "slack_mean", "missed",
		"wu_lat_mean", "wu_lat_max");
	for (unsigned int i = 0; i < r->nr_threads; i++) {
		const struct rtapp_thread_stats *s = &r->threads[i];
		double n = s->loops ? (double)s->loops : 1;

		fprintf(out, "  %-18s %8llu %10.1f %11.1f %7.2f", s->name,
			(unsigned long long)s->loops, (double)s->run_us / n, (double)s->period_us / n,
			s->period_us ? 100.0 * (double)s->run_us / (double)s->period_us : 0.0);
		if (s->timer_loops)
			fprintf(out, " %10lld %10.1f %7llu %11.1f %10llu\n", (long long)s->slack_min,
				(double)s->slack_sum / (double)s->timer_loops,
				(unsigned long long)s->missed,
				(double)s->wu_sum / (double)s->timer_loops,
				(unsigned long long)s->wu_max);
		else
			fprintf(out, " %10s %10s %7s %11s %10s\n", "-", "-", "-", "-", "-");
	}
	for (unsigned int i = 0; i < r->nr_threads; i++)
		if (r->threads[i].cancelled_in)
			fprintf(out, "# %s was still waiting in %s when the duration ended\n",
				r->threads[i].name, r->threads[i].cancelled_in);
}

/*
 * What re-aim's driver.c prints to stdout: read_config_file()'s newline,
 * the sync line, then per multiuser() (one per -r) print_header_line(), a
 * row per user count as runloop() prints it, the stop line if one, and
 * "Max Jobs per Minute". (Its stderr lines and log files are left out.)
 */
static void print_reaim(const struct bench *b, FILE *out)
{
	const struct reaim_conf *c = b->reaim;
	unsigned int row = 0, note = 0;

	fprintf(out, "\n");
	if (c->no_sync)
		fprintf(out, "Not executing sync during disk activity---faster execution.\n");
	else
		fprintf(out, "Using default sync behavior during disk activity;  consider using -y.\n");
	for (unsigned int rep = 0; rep < c->nr_repeats_done; rep++) {
		fprintf(out, "REAIM Workload\n");
		fprintf(out, "Times are in seconds - Child times from tms.cstime and tms.cutime\n\n");
		fprintf(out, "Num     Parent   Child   Child  Jobs per   Jobs/min/  Std_dev  Std_dev  JTI\n");
		fprintf(out, "Forked  Time     SysTime UTime   Minute     Child      Time     Percent \n");
		for (; row < c->rows_end[rep]; row++) {
			const struct reaim_row *r = &c->rows[row];

			fprintf(out, "%-8u%-8.2f %-7.2f %-7.2f %-10.2f %-10.2f %-8.2f %-8.2f %-4d \n",
				r->forked, r->parent_time, r->child_sys, r->child_user, r->jpm,
				r->jpm_child, r->std_dev, r->std_dev_pct, r->jti);
			for (; note < c->nr_notes && c->note_after[note] == row + 1; note++)
				fprintf(out, "%s\n", c->notes[note]);
		}
		fprintf(out, "Max Jobs per Minute %.2f\n", c->max_jpm[rep]);
	}
}

/*
 * schbench's pipe mode: the wakeup histogram with its 20th percentile,
 * then "avg worker transfer" with the byte rate as pretty_size() writes it
 * (divided by 1024 while at least 1024, up to EB)
 */
/* perf's util/stat.c: a running mean and M2 (Welford), the stddev of the mean */
struct perf_stats {
	double n, mean, M2;
};

static void perf_update_stats(struct perf_stats *s, u64 val)
{
	double delta;

	s->n++;
	delta = (double)val - s->mean;
	s->mean += delta / s->n;
	s->M2 += delta * ((double)val - s->mean);
}

static double perf_rel_stddev(const struct perf_stats *s)
{
	double sd;

	if (s->n < 2 || !s->mean)
		return 0.0;
	sd = sqrt(s->M2 / (s->n - 1) / s->n);
	return 100.0 * sd / s->mean;
}

/*
 * tools/perf/bench/futex.c's futex_print_nbuckets(): what -b asked for
 * (which PR_FUTEX_HASH_GET_SLOTS then returns), or what the kernel chose
 */
static void futex_print_nbuckets(const struct bench *b, FILE *out)
{
	if (b->fw_buckets == 0 || (b->fw_buckets < 0 && !b->fw_slots))
		fprintf(out, "Futex hashing: global hash\n");
	else if (b->fw_buckets > 0)
		fprintf(out, "Futex hashing: %d hash buckets\n", b->fw_buckets);
	else
		fprintf(out, "Futex hashing: auto resized to %u buckets\n", b->fw_slots);
}

/*
 * perf bench futex wake's and requeue's runs and averaged line (@verb
 * "Wokeup" or "Requeued"), after their Run summary
 */
static void print_futex_runs(const struct bench *b, const char *verb, FILE *out)
{
	struct perf_stats t = { 0 }, n = { 0 };

	for (unsigned int j = 0; j < b->fw_repeat; j++) {
		perf_update_stats(&n, b->fw_woken[j]);
		perf_update_stats(&t, b->fw_usec[j]);
		if (b->fw_silent)
			continue;
		if (b->fr_wakeups)
			/* requeue -p: the calls counted as wakeups, the rest requeued */
			fprintf(out, "[Run %u]: Awoke and Requeued (%u+%u) of %u threads in %.4f ms\n",
				j + 1, b->fr_wakeups[j], b->fw_woken[j] - b->fr_wakeups[j],
				b->fw_threads, (double)b->fw_usec[j] / 1000.0);
		else
			fprintf(out, "[Run %u]: %s %u of %u threads in %.4f ms\n", j + 1, verb,
				b->fw_woken[j], b->fw_threads, (double)b->fw_usec[j] / 1000.0);
	}
	fprintf(out, "%s %d of %u threads in %.4f ms (+-%.2f%%)\n", verb, (int)(unsigned int)n.mean,
		b->fw_threads, t.mean / 1000.0, perf_rel_stddev(&t));
	futex_print_nbuckets(b, out);
}

/*
 * perf bench futex wake's report. The futex's address is the tool's static
 * variable: any fixed value, as a run of the same binary prints one.
 */
static void print_futex_wake(const struct bench *b, FILE *out)
{
	fprintf(out,
		"Run summary [PID %d]: blocking on %u threads (at [%s] futex 0x55d5a3c0e014), waking up %u at a time.\n\n",
		b->fw_pid, b->fw_threads, b->fw_shared ? "shared" : "private", b->fw_nwakes);
	print_futex_runs(b, "Wokeup", out);
}

/*
 * perf bench futex wake-parallel's report: per run, the waking threads'
 * mean time and woken count (print_run()), then the same over every run's
 * waking threads (print_summary())
 */
static void print_futex_wake_parallel(const struct bench *b, FILE *out)
{
	struct perf_stats t = { 0 }, n = { 0 };
	unsigned int nw = b->fw_nwakes;

	fprintf(out,
		"Run summary [PID %d]: blocking on %u threads (at [%s] futex 0x55d5a3c0e014), %u threads waking up %u at a time.\n\n",
		b->fw_pid, b->fw_threads, b->fw_shared ? "shared" : "private", nw,
		b->fw_threads / nw);
	for (unsigned int j = 0; j < b->fw_repeat; j++) {
		struct perf_stats rt = { 0 }, rn = { 0 };

		for (unsigned int i = j * nw; i < (j + 1) * nw; i++) {
			perf_update_stats(&rt, b->fw_usec[i]);
			perf_update_stats(&rn, b->fw_woken[i]);
			perf_update_stats(&t, b->fw_usec[i]);
			perf_update_stats(&n, b->fw_woken[i]);
		}
		if (!b->fw_silent)
			fprintf(out,
				"[Run %u]: Avg per-thread latency (waking %u/%u threads) in %.4f ms (+-%.2f%%)\n",
				j + 1, (unsigned int)rn.mean, b->fw_threads, rt.mean / 1000.0,
				perf_rel_stddev(&rt));
	}
	fprintf(out, "Avg per-thread latency (waking %u/%u threads) in %.4f ms (+-%.2f%%)\n",
		(unsigned int)n.mean, b->fw_threads, t.mean / 1000.0, perf_rel_stddev(&t));
	futex_print_nbuckets(b, out);
}

/* perf bench futex requeue's report: its two static futexes' addresses (fixed values) */
static void print_futex_requeue(const struct bench *b, FILE *out)
{
	fprintf(out,
		"Run summary [PID %d]: Requeuing %u threads (from [%s] %#llx to %s%#llx), %u at a time.\n\n",
		b->fw_pid, b->fw_threads, b->fw_shared ? "shared" : "private",
		(unsigned long long)b->fr_uaddr1, b->fr_pi ? "PI " : "",
		(unsigned long long)b->fr_uaddr2, b->fr_nrequeue);
	print_futex_runs(b, "Requeued", out);
}

/*
 * hash's and lock-pi's print_summary(): the threads' mean rate (truncated
 * to an integer first, as perf's stats do) and the relative standard
 * deviation of the mean, then the hash's size
 */
static void print_futex_averaged(const struct bench *b, const struct perf_stats *tput, u64 secs,
				 FILE *out)
{
	unsigned long avg = (unsigned long)tput->mean;
	double rel = 0;

	if (tput->n >= 2 && avg)
		rel = 100.0 * sqrt(tput->M2 / (tput->n - 1) / tput->n) / (double)avg;
	fprintf(out, "%sAveraged %lu operations/sec (+- %.2f%%), total secs = %d\n",
		b->fw_silent ? "" : "\n", avg, rel, (int)secs);
	futex_print_nbuckets(b, out);
}

/*
 * perf bench futex hash's report: each thread's operations per whole
 * second of the run (its futex array's first and last address), their
 * mean and the relative standard deviation of the mean, as perf's stats
 * compute them (the mean truncated to an integer first).
 */
static void print_futex_hash(const struct bench *b, FILE *out)
{
	struct perf_stats tput = { 0 };
	u64 secs = b->fh_runtime_us / USEC_PER_SEC;

	fprintf(out,
		"Run summary [PID %d]: %u threads, each operating on %u [%s] futexes for %u secs.\n\n",
		b->fw_pid, b->fw_threads, b->fh_nfutexes, b->fw_shared ? "shared" : "private",
		b->fh_runtime_s);
	for (unsigned int i = 0; i < b->fw_threads; i++) {
		u64 t = secs ? b->fh_ops[i] / secs : 0;
		u64 a = futex_hash_array_addr(i, b->fh_nfutexes);

		perf_update_stats(&tput, t);
		if (b->fw_silent)
			continue;
		if (b->fh_nfutexes == 1)
			fprintf(out, "[thread %2u] futex: %#llx [ %llu ops/sec ]\n", i,
				(unsigned long long)a, (unsigned long long)t);
		else
			fprintf(out, "[thread %2u] futexes: %#llx ... %#llx [ %llu ops/sec ]\n", i,
				(unsigned long long)a,
				(unsigned long long)(a + (u64)(b->fh_nfutexes - 1) * sizeof(u32)),
				(unsigned long long)t);
	}
	print_futex_averaged(b, &tput, secs, out);
}

/*
 * perf bench futex lock-pi's report: each thread's lock/unlock pairs per
 * whole second and its futex (the shared one, or its own with -M), then
 * the Averaged line as hash's
 */
static void print_futex_lock_pi(const struct bench *b, FILE *out)
{
	struct perf_stats tput = { 0 };
	u64 secs = b->fh_runtime_us / USEC_PER_SEC;

	fprintf(out, "Run summary [PID %d]: %u threads doing pi lock/unlock pairing for %u secs.\n\n",
		b->fw_pid, b->fw_threads, b->fh_runtime_s);
	for (unsigned int i = 0; i < b->fw_threads; i++) {
		u64 t = secs ? b->fh_ops[i] / secs : 0;

		perf_update_stats(&tput, t);
		if (!b->fw_silent)
			fprintf(out, "[thread %3u] futex: %#llx [ %llu ops/sec ]\n", i,
				(unsigned long long)futex_lock_pi_addr(b, i),
				(unsigned long long)t);
	}
	print_futex_averaged(b, &tput, secs, out);
}

static void print_jank_row(const char *name, const struct jank_stats *s, FILE *out)
{
	fprintf(out, "%-18s %7llu %9.3f %9.3f %9.2f\n", name, (unsigned long long)s->frames,
		jank_stats_mean_ms(s), (double)s->max_ns / NSEC_PER_MSEC, jank_stats_pct(s));
}

/*
 * Jankbench keeps its results in a database; what it shows per subtest:
 * frames, mean and max frame duration (FrameMetrics' TOTAL_DURATION) and
 * the jank percentage, then the same over the subtests run
 */
static void print_jankbench(const struct bench *b, FILE *out)
{
	const struct jankbench_conf *c = b->jank;
	struct jank_stats all;

	fprintf(out, "%-18s %7s %9s %9s %9s\n", "test", "frames", "mean_ms", "max_ms", "jank_pct");
	for (unsigned int i = 0; i < c->nr_tests; i++)
		print_jank_row(jank_profiles[c->tests[i]].name, &c->stats[i], out);
	jankbench_totals(b, &all);
	print_jank_row("total", &all, out);
}

static void print_schbench_pipe(const struct bench *b, FILE *out)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB", "PB", "EB" };
	double ops, rate;
	u64 bytes;
	size_t u = 0;

	schbench_show_latencies(out, b->sb_stats, "Wakeup Latencies", "usec", b->sb_runtime_s,
				SCHBENCH_PLIST_20 | SCHBENCH_PLIST_FOR_LAT, SCHBENCH_PLIST_99);
	schbench_pipe_rates(b, &ops, &bytes);
	rate = (double)bytes;
	while (rate >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		rate /= 1024;
		u++;
	}
	fprintf(out, "avg worker transfer: %.2f ops/sec %.2f%s/s\n", ops, rate, units[u]);
}

void bench_print_result(const struct bench *b, FILE *out)
{
	u64 us = bench_elapsed_us(b);
	unsigned long sec = (unsigned long)(us / 1000000), usec = (unsigned long)(us % 1000000);

	switch (b->kind) {
	case BENCH_HACKBENCH:
		fprintf(out, "Time: %lu.%03lu\n", sec, usec / 1000);
		break;
	case BENCH_PERF_MESSAGING: {
		const char *what = b->threads ? "threads" : "processes";

		fprintf(out, "# %u sender and receiver %s per group\n", b->fds, what);
		fprintf(out, "# %u groups == %u %s run\n\n", b->groups, b->groups * 2 * b->fds, what);
		fprintf(out, " %14s: %lu.%03lu [sec]\n", "Total time", sec, usec / 1000);
		break;
	}
	case BENCH_PERF_FUTEX_WAKE:
		print_futex_wake(b, out);
		break;
	case BENCH_PERF_FUTEX_HASH:
		print_futex_hash(b, out);
		break;
	case BENCH_PERF_FUTEX_REQUEUE:
		print_futex_requeue(b, out);
		break;
	case BENCH_PERF_FUTEX_WAKE_PARALLEL:
		print_futex_wake_parallel(b, out);
		break;
	case BENCH_PERF_FUTEX_LOCK_PI:
		print_futex_lock_pi(b, out);
		break;
	case BENCH_PERF_PIPE:
		fprintf(out, "# Executed %u pipe operations between two %s\n\n", b->loops,
			b->threads ? "threads" : "processes");
		fprintf(out, " %14s: %lu.%03lu [sec]\n\n", "Total time", sec, usec / 1000);
		fprintf(out, " %14lf usecs/op\n", (double)us / (double)b->loops);
		fprintf(out, " %14d ops/sec\n",
			us ? (int)((double)b->loops / ((double)us / 1e6)) : 0);
		break;
	case BENCH_IPISTORM:
		/* what the module's printk() puts in the kernel log, as schedlab renders it */
		fprintf(out, "ipistorm: %u thread(s), %llu IPIs, single=%d offset=%u wait=%d\n",
			b->nr_workers, (unsigned long long)b->bogo_ops, b->ipi_single, b->ipi_offset,
			b->ipi_wait);
		fprintf(out, "ipistorm: elapsed %llu.%06llu s\n", (unsigned long long)(us / 1000000),
			(unsigned long long)(us % 1000000));
		break;
	case BENCH_SCHBENCH_2016: {
		/* show_latencies(): the 99th is starred */
		static const double pl[] = { 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9 };
		unsigned int v[7];

		schbench_percentiles(b->sb_stats, pl, 7, v, NULL);
		fprintf(out, "Latency percentiles (usec)\n");
		for (unsigned int i = 0; i < 7; i++)
			fprintf(out, "\t%s%2.4fth: %u\n", i == 4 ? "*" : "", pl[i], v[i]);
		fprintf(out, "\tmin=%u, max=%u\n", b->sb_stats->min, b->sb_stats->max);
		break;
	}
	case BENCH_SCHBENCH:
		if (b->sb_pipe) {
			print_schbench_pipe(b, out);
			break;
		}
		/* sleep_for_runtime()'s interval reports, then main()'s */
		if (b->sb_log)
			fputs(b->sb_log, out);
		schbench_show_latencies(out, b->sb_stats, "Wakeup Latencies", "usec", b->sb_runtime_s,
					SCHBENCH_PLIST_FOR_LAT, SCHBENCH_PLIST_99);
		schbench_show_latencies(out, b->sb_req_stats, "Request Latencies", "usec",
					b->sb_runtime_s, SCHBENCH_PLIST_FOR_LAT, SCHBENCH_PLIST_99);
		schbench_show_latencies(out, b->sb_rps_stats, "RPS", "requests", b->sb_runtime_s,
					SCHBENCH_PLIST_FOR_RPS, SCHBENCH_PLIST_50);
		fprintf(out, "average rps: %.2f\n", (double)b->sb_loops / b->sb_runtime_s);
		/* the threads are joined: their /proc/TID/schedstat is gone, read as 0 */
		fprintf(out, "sched delay: message 0 (usec) worker 0 (usec)\n");
		break;
	case BENCH_STRESS_NG:
		stress_print_result(b, out);
		break;
	case BENCH_CONTEXT1:
		/* context1 writes its COUNT lines to stderr: the parent's, then the child's */
		for (unsigned int i = 0; i < b->ub_nr_count; i++)
			fprintf(out, "COUNT|%llu|1|lps\n", (unsigned long long)b->ub_count[i]);
		break;
	case BENCH_UNIXBENCH:
		print_unixbench(b, out);
		break;
	case BENCH_RTAPP:
		print_rtapp(b, out);
		break;
	case BENCH_REAIM:
		print_reaim(b, out);
		break;
	case BENCH_JANKBENCH:
		print_jankbench(b, out);
		break;
	}
}
