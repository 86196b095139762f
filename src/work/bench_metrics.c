// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names of the metrics each benchmark reports, known before it runs,
 * so `ab --metric` and a study's `metric` lines are checked before any run.
 * bench_finish() adds them in this order; tests/unit/test_bench_metrics.c
 * keeps the two in step.
 */
#include "work/bench.h"

static const char *const hackbench_names[] = { "time_s", "tasks", "messages", NULL };
static const char *const pipe_names[] = { "time_s", "usecs_per_op", "ops_per_sec", NULL };
static const char *const ipistorm_names[] = { "time_s", "threads", "ipis", "ns_per_ipi", NULL };
static const char *const stress_names[] = {
	"time_s", "workers", "bogo_ops", "usr_s", "sys_s", "real_s",
	"bogo_ops_per_s_real", "bogo_ops_per_s_cpu", NULL,
};
static const char *const context1_names[] = { "time_s", "count", "lps", NULL };
static const char *const unixbench_names[] = { "time_s", "copies", "score_lps", "index", NULL };

static const char *const schbench2016_names[] = {
	"time_s", "samples", "p50_us", "p90_us", "p99_us", "p99_9_us", "max_us", NULL,
};

static const char *const schbench_names[] = {
	"time_s", "wakeup_p50_us", "wakeup_p99_us", "request_p50_us",
	"request_p99_us", "request_p99_9_us", "rps_p50", "average_rps", NULL,
};

/* schbench -p: the wakeup percentiles and "avg worker transfer" */
static const char *const schbench_pipe_names[] = {
	"time_s", "wakeup_p20_us", "wakeup_p50_us", "wakeup_p90_us", "wakeup_p99_us",
	"wakeup_p99_9_us", "ops_per_sec", "bytes_per_sec", NULL,
};

static const char *const rtapp_names[] = {
	"time_s", "threads", "loops", "util_pct", "slack_min_us", "missed",
	"wu_lat_mean_us", "wu_lat_max_us", NULL,
};

/* perf bench futex wake: its summary line's mean wake time and threads woken */
static const char *const futex_wake_names[] = { "time_s", "wake_ms", "woken", NULL };

/* jankbench: over the subtests run, as Jankbench reports each (work/jankbench.h) */
static const char *const jankbench_names[] = {
	"time_s", "frames", "mean_frame_ms", "max_frame_ms", "jank_pct", NULL,
};
/* perf bench futex hash and lock-pi: their Averaged line */
static const char *const futex_hash_names[] = { "time_s", "ops_per_sec", NULL };

/* perf bench futex requeue: its averaged line, as for wake */
static const char *const futex_requeue_names[] = { "time_s", "requeue_ms", "requeued", NULL };

static const char *const reaim_names[] = {
	"time_s", "users", "jobs_per_min", "jobs_per_min_child", "parent_time_s", "jti",
	"max_jobs_per_min", "mean_jobs_per_min", NULL,
};

const char *const *bench_metric_names(const struct bench *b)
{
	switch (b->kind) {
	case BENCH_REAIM:
		return reaim_names;
	case BENCH_PERF_PIPE:
		return pipe_names;
	case BENCH_PERF_FUTEX_WAKE:
	case BENCH_PERF_FUTEX_WAKE_PARALLEL:
		return futex_wake_names;
	case BENCH_JANKBENCH:
		return jankbench_names;
	case BENCH_PERF_FUTEX_HASH:
	case BENCH_PERF_FUTEX_LOCK_PI:
		return futex_hash_names;
	case BENCH_PERF_FUTEX_REQUEUE:
		return futex_requeue_names;
	case BENCH_IPISTORM:
		return ipistorm_names;
	case BENCH_STRESS_NG:
		return stress_names;
	case BENCH_CONTEXT1:
		return context1_names;
	case BENCH_UNIXBENCH:
		return unixbench_names;
	case BENCH_SCHBENCH_2016:
		return schbench2016_names;
	case BENCH_SCHBENCH:
		return b->sb_pipe ? schbench_pipe_names : schbench_names;
	case BENCH_RTAPP:
		return rtapp_names;
	case BENCH_HACKBENCH:
	case BENCH_PERF_MESSAGING:
		break;
	}
	return hackbench_names;
}
