/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Benchmarks given as the real tool's command line. Parsing accepts the
 * tool's own options and defaults; the model builds task programs that do
 * what the tool does; report/bench_output.c prints the tool's output.
 */
#ifndef SCHEDLAB_WORK_BENCH_H
#define SCHEDLAB_WORK_BENCH_H

#include "work/work.h"

struct schbench_stats;
struct stress_conf;
struct rtapp_config;
struct reaim_conf;
struct jankbench_conf;

enum bench_kind {
	BENCH_HACKBENCH,	/* rt-tests hackbench */
	BENCH_PERF_MESSAGING,	/* perf bench sched messaging */
	BENCH_PERF_PIPE,	/* perf bench sched pipe */
	BENCH_STRESS_NG,	/* stress-ng's modelled stressors (work/stress.h) */
	BENCH_IPISTORM,		/* the ipistorm kernel module */
	BENCH_CONTEXT1,		/* UnixBench's context1 SECONDS */
	BENCH_UNIXBENCH,	/* UnixBench's Run context1 [-i N] [-c COPIES]... */
	BENCH_SCHBENCH_2016,	/* schbench as of 2016 (masoncl/schbench 3d16b23) */
	BENCH_SCHBENCH,		/* the current schbench (masoncl/schbench 24e32b8) */
	BENCH_RTAPP,		/* rt-app FILE.json (scheduler-tools/rt-app 55cb0c0) */
	BENCH_REAIM,		/* AIM7 as OSDL re-aim runs it (work/bench_reaim.c) */
	BENCH_PERF_FUTEX_WAKE,	/* perf bench futex wake (work/bench_futex_wake.c) */
	BENCH_JANKBENCH,	/* Android's Jankbench frames (work/bench_jankbench.c) */
	BENCH_PERF_FUTEX_HASH,	/* perf bench futex hash (work/bench_futex_hash.c) */
	BENCH_PERF_FUTEX_REQUEUE, /* perf bench futex requeue (work/bench_futex_wake.c) */
	BENCH_PERF_FUTEX_WAKE_PARALLEL, /* perf bench futex wake-parallel */
	BENCH_PERF_FUTEX_LOCK_PI, /* perf bench futex lock-pi (work/bench_futex_lock_pi.c) */
};

/* UnixBench 6.0.0 (work/bench_unixbench.c) */
#define UB_MAX_COPIES_ARGS 8	/* -c values: one run of the tests each */
#define UB_CONTEXT1_SECONDS 10	/* Run's "options" for context1 */
#define UB_CONTEXT1_BASELINE 4000.0	/* pgms/index.base: context1|10|lps|4000|4000|2 */
#define UB_LONG_ITERATIONS 10	/* Run's $longIterCount: context1 repeats 'long' */

/* one pass: the copies' COUNTs summed, their elapsed times averaged */
struct ub_pass {
	double count;
	double time_s;
};

/* one `-c COPIES` run of context1, as Run's runBenchmark() leaves it */
struct ub_run {
	unsigned int copies;
	u64 start_ns, end_ns;		/* Run's time() around runTests() */
	struct ub_pass *passes;
	unsigned int nr_passes;
	double score, time_s;		/* combinePassResults() */
	unsigned int samples;
	double index;			/* score / baseline * 10 */
};

/*
 * Run's combinePassResults(): drop the int(n/3) passes of lowest count,
 * then the geometric mean of count / time over the rest (context1's
 * timebase is 1 s) and their mean time. Returns the passes kept.
 */
unsigned int unixbench_combine(const struct ub_pass *p, unsigned int n, double *score,
			       double *time_s);
/* Run's indexResults(): the index of one test, score / baseline * 10 */
double unixbench_index(double score, double baseline);

/*
 * One bogo op of stress-ng's default cpu method ("all"), in ns of work at
 * capacity 1024 and maximum frequency: 85.16 bogo ops per CPU-second in the
 * published example of stress-ng's results documentation (4 cpu workers,
 * 3404 bogo ops, 39.97 s usr). A workload constant, not a kernel cost.
 */
#define STRESS_CPU_BOGO_OP_NS 11742600ULL

#define BENCH_MAX_METRICS 8
/* chrt and nice prefixes one command line may nest */
#define BENCH_MAX_SCHED_PREFIX 8

/* which way a metric improves, for `ab` and `study` verdicts */
enum metric_better {
	METRIC_LOWER = -1,	/* times, latencies */
	METRIC_INFO = 0,	/* describes the run (task counts), no verdict */
	METRIC_HIGHER = 1,	/* throughputs */
};

struct bench_metric {
	const char *name;	/* JSON key under "result" */
	double value;
	enum metric_better better;
};

struct bench {
	enum bench_kind kind;
	/* options, with the tool's defaults */
	unsigned int groups;
	unsigned int fds;
	unsigned int loops;
	unsigned int datasize;
	bool threads;
	bool pipes;
	bool fifo_main;		/* hackbench -F: the main process turns SCHED_FIFO 1 */
	/*
	 * stress-ng: its stressors and options (work/stress.h); the first
	 * stressor's row as run, which its metrics are
	 */
	struct stress_conf *stress;
	unsigned int nr_workers; /* instances as run */
	u64 max_ops;		/* ipistorm's numipi */
	u64 worker_max_ops;	/* each instance's share of the budget, ceil(max_ops / nr) */
	u64 timeout_ns;		/* --timeout, 0 = none */
	u64 bogo_ops, utime_ns, stime_ns;
	u64 real_ns;		/* stress-ng's "real time": the instances' mean run time */
	/* ipistorm (max_ops = numipi, timeout_ns = timeout, bogo_ops = IPIs sent) */
	bool ipi_single;
	bool ipi_wait;
	unsigned int ipi_offset;
	u64 ipi_delay_ns;
	struct cpumask *ipi_cpulist;
	bool ipi_cpulist_all;
	char *ipi_cpulist_str;	/* as given, checked once the machine is known */
	/* schbench-2016: -m, -t, -r, -s, -c; the wakeup latencies (work/schbench_hist.h) */
	unsigned int sb_msg_threads, sb_workers;
	unsigned int sb_runtime_s;
	unsigned int sb_sleep_us, sb_cpu_us;
	struct schbench_stats *sb_stats;
	/*
	 * schbench (current): -m -t (0: ceil(CPUs / m)) -r -s as above, and
	 * -F -n -i -L; sb_stats the wakeup latencies, then the request
	 * latencies, the per-second RPS samples, the requests done and the
	 * interval reports as printed during the run (NULL: none)
	 */
	unsigned int sb_footprint_kb, sb_ops, sb_interval_s;
	bool sb_no_lock;
	/* -p: pipe mode's transfer size in bytes (0: off); its workers' run times summed */
	unsigned int sb_pipe;
	u64 sb_loop_runtime_us;
	struct schbench_stats *sb_req_stats, *sb_rps_stats;
	u64 sb_loops;
	char *sb_log;
	/*
	 * perf bench futex wake: -t (0: one per online CPU), -w, perf bench's
	 * -r, -s, -S; each run's threads woken and its time (the usec field
	 * of gettimeofday()'s difference, as the tool prints it). wake-parallel:
	 * -w the waking threads (0: one per thread), each run's waking threads'
	 * counts and times, run after run (fw_repeat x fw_nwakes)
	 */
	unsigned int fw_threads, fw_nwakes, fw_repeat;
	bool fw_silent, fw_shared;
	unsigned int *fw_woken;
	u64 *fw_usec;
	void **fw_worker_state;
	unsigned int fw_nr_worker_state;
	int fw_pid;			/* the tool's process, as its Run summary prints it */
	/*
	 * -b (wake and hash): PR_FUTEX_HASH_SET_SLOTS before the threads, -1:
	 * not given; fw_slots: PR_FUTEX_HASH_GET_SLOTS at the end
	 */
	int fw_buckets;
	unsigned int fw_slots;
	/*
	 * perf bench futex hash (the fw_ fields above for -t, -s, -S, -b):
	 * -f futexes per thread, -r seconds; each thread's operations and
	 * the run's gettimeofday() length
	 */
	unsigned int fh_nfutexes, fh_runtime_s;
	u64 *fh_ops;
	u64 fh_runtime_us;
	/*
	 * perf bench futex requeue (the fw_ fields above for -t, -s, -S, -b,
	 * perf bench's -r, each run's threads requeued in fw_woken and its
	 * time in fw_usec): -q (clamped to the threads when they are known),
	 * -B; the two futexes' addresses, as its Run summary prints them
	 */
	unsigned int fr_nrequeue;
	bool fr_broadcast;
	u64 fr_uaddr1, fr_uaddr2;
	/* -p: FUTEX_WAIT_REQUEUE_PI / FUTEX_CMP_REQUEUE_PI; each run's calls (the tool's wakeups) */
	bool fr_pi;
	unsigned int *fr_wakeups;
	/*
	 * perf bench futex lock-pi (the fw_ fields for -t, -s, -S, -b, the
	 * fh_ ones for -r and each thread's lock/unlock pairs): -M, the
	 * shared futex (its address as the thread lines print it)
	 */
	bool flp_multi;
	u64 flp_uaddr;
	struct futex *priv_futex;
	/* a `taskset [-a] [-c] MASK|LIST` prefix (work/taskset.c); taskset_arg NULL: none */
	char *taskset_arg;		/* the mask or list as given */
	bool taskset_list;		/* -c: a CPU list, else a hex mask */
	struct cpumask *taskset_given;	/* as parsed, NR_CPUS wide (the machine is not known yet) */
	struct cpumask *taskset_cpus;	/* the allowed CPUs of the machine (bench_check_machine()) */
	char *taskset_str;		/* taskset_cpus as a CPU list, for the JSON */
	unsigned int taskset_inner;	/* the chrt/nice prefixes inside taskset (run after it) */
	/*
	 * chrt and nice prefixes (work/chrt.c), innermost first: applied from
	 * the last (the outermost command, which ran first) to the first
	 */
	struct sched_prefix {
		bool is_nice;		/* nice: an adjustment; chrt: a policy and priority */
		int policy;
		int prio;
		int nice_adj;
		/* chrt -d's reservation in ns (-T, -D, -P, chrt's defaults applied) */
		u64 dl_runtime;
		u64 dl_deadline;
		u64 dl_period;
		bool reset_on_fork;	/* chrt -R: SCHED_FLAG_RESET_ON_FORK */
	} sched_prefix[BENCH_MAX_SCHED_PREFIX];
	unsigned int nr_sched_prefix;
	/* UnixBench: context1's seconds, Run's -i and -c (0 -c values: Run's default 1, CPUs) */
	unsigned int ub_seconds;
	unsigned int ub_iterations;
	unsigned int ub_copies[UB_MAX_COPIES_ARGS];
	unsigned int ub_nr_copies;
	struct ub_run *ub_runs;		/* as run, one per -c value */
	unsigned int ub_nr_runs;
	u64 ub_count[2];		/* context1 alone: its COUNT lines, in output order */
	unsigned int ub_nr_count;
	/* rt-app FILE.json: the file as parsed (work/rtapp.h) */
	struct rtapp_config *rtapp;
	int rtapp_log_level;		/* -l: 50 (notices) by default */
	/* jankbench: its subtests, frames and refresh rate, the frames' statistics (work/jankbench.h) */
	struct jankbench_conf *jank;
	/* reaim: its options, workfile and result rows (work/reaim.h) */
	struct reaim_conf *reaim;
	/* measurement: the tool's own clock reads (gettimeofday) */
	u64 start_ns;
	u64 stop_ns;
	bool started, stopped;
	/* 0: the measured benchmark; k: the k-th background workload (--also) */
	unsigned int group;
	/*
	 * The workload failed mid-run as the real tool exits with an error
	 * (rt-app's fork limit): why, one line naming the file and line, and
	 * the simulated time; NULL if it did not (bench_fail())
	 */
	char *failure;
	u64 failure_ns;
	/* what the tool wrote to stdout on its way out (a static string), NULL: nothing */
	const char *failure_stdout;
	/*
	 * how far the benchmark is, for the progress line: a count of units
	 * done of a total (0 total: none), and a length of simulated time
	 * from start_ns (0: none) besides timeout_ns; the furthest of them
	 */
	u64 progress_done, progress_total;
	u64 progress_span_ns;
	void *priv;
	/* filled by bench_finish() */
	struct bench_metric metrics[BENCH_MAX_METRICS];
	int nr_metrics;
};

/*
 * Parse a benchmark command line (argv[0] is the tool: "hackbench" or
 * "perf" "bench" "sched" ...). Returns NULL with a one-line message in
 * @err for an unknown tool, option or bad value.
 */
struct bench *bench_parse(int argc, char **argv, char *err, size_t errlen);
/*
 * The same for a background workload (`run --also`): it is stopped when
 * the measured benchmark ends, so stress-ng without --timeout or
 * --cpu-ops (stress-ng's day-long default) is accepted.
 */
struct bench *bench_parse_background(int argc, char **argv, char *err, size_t errlen);
/* Fraction of the benchmark done (0..1) at simulated time @now, or -1 if unknown. */
double bench_progress(const struct bench *b, u64 now);

/* Create the benchmark's first task; the machine and scheduler are set up. */
void bench_start(struct bench *b);

/* Compute the metrics once the simulation ended. Returns false if it never finished. */
bool bench_finish(struct bench *b);

void bench_free(struct bench *b);
/*
 * Why a benchmark that did not finish is stuck, when it can say better than
 * "all tasks blocked" (rt-app: the thread blocked forever and where); false
 * if it has nothing to add.
 */
bool bench_stuck_message(const struct bench *b, char *buf, size_t len);
/*
 * The workload @b fails now, as the real tool exits with an error: record
 * why (the first failure only) and the time, and end the run
 * (machine.stop): a failure of the measured benchmark or of a background
 * workload leaves no result to report (docs/reliability.md).
 */
void bench_fail(struct bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The names bench_finish() will give @b's metrics, in order, NULL-terminated. */
const char *const *bench_metric_names(const struct bench *b);

/* Elapsed time as the tool measures it: gettimeofday() has 1 us resolution. */
static inline u64 bench_elapsed_us(const struct bench *b)
{
	return b->stop_ns / 1000 - b->start_ns / 1000;
}

/* model entry points (one file each) */
void messaging_start(struct bench *b);
void messaging_free(struct bench *b);
void pipe_start(struct bench *b);
void futex_wake_start(struct bench *b);
void futex_wake_free(struct bench *b);
void futex_requeue_start(struct bench *b);
void futex_wake_parallel_start(struct bench *b);
/* wake-parallel's waking threads for @threads blocked ones and -w @nwakes */
unsigned int futex_wake_parallel_wakers(unsigned int threads, unsigned int nwakes);
void futex_lock_pi_start(struct bench *b);
void futex_lock_pi_free(struct bench *b);
/* the simulated address of the futex perf bench futex lock-pi's thread @tid prints */
u64 futex_lock_pi_addr(const struct bench *b, unsigned int tid);
void futex_hash_start(struct bench *b);
void futex_hash_free(struct bench *b);
/* the simulated address of perf bench futex hash's thread @tid's futex array */
u64 futex_hash_array_addr(unsigned int tid, unsigned int nfutexes);
void stress_start(struct bench *b);
void stress_free(struct bench *b);
/* stress-ng COMMAND-LINE (work/stress_parse.c); 0, or -1 and a message */
int stress_parse(struct bench *b, int argc, char **argv, bool background, char *err,
		 size_t errlen);
void ipistorm_start(struct bench *b);
void ipistorm_free(struct bench *b);
void unixbench_start(struct bench *b);
void unixbench_free(struct bench *b);
/* `context1 SECONDS` and `unixbench|Run|./Run TEST... [-i N] [-c N]...`; 0 or -1 + message */
int unixbench_parse(struct bench *b, int argc, char **argv, char *err, size_t errlen);
void schbench_start(struct bench *b);
void schbench_free(struct bench *b);
/* the current schbench (work/bench_schbench_now.c); -p's PIPE_TRANSFER_BUFFER */
#define SCHBENCH_PIPE_MAX (1024u * 1024)
unsigned int schbench_now_workers(const struct bench *b);	/* -t, or ceil(CPUs / m) */
unsigned long schbench_now_matrix_size(const struct bench *b);	/* sqrt(F KiB / 3 / 8) */
void schbench_now_start(struct bench *b);
/*
 * pipe mode's "avg worker transfer": loops per second and loops * -p bytes
 * per second (whole bytes, as the tool's integer division) of the workers'
 * summed run times
 */
void schbench_pipe_rates(const struct bench *b, double *ops_per_sec, u64 *bytes_per_sec);
void schbench_now_free(struct bench *b);
/* reaim (work/bench_reaim.c): 0 or -1 + message */
int reaim_parse(struct bench *b, int argc, char **argv, char *err, size_t errlen);
void reaim_start(struct bench *b);
void reaim_free(struct bench *b);
/*
 * Check what depends on the machine @machine (cpulists vs CPU count, the
 * taskset affinity) once its cpumasks are set up; 0 or -1 + message.
 */
int bench_check_machine(struct bench *b, const char *machine, char *err, size_t errlen);

/*
 * taskset (util-linux schedutils/taskset.c) as a prefix: `taskset [-a] [-c]
 * MASK|LIST COMMAND...`. taskset_parse() parses its options and the mask or
 * list, then COMMAND with bench_parse(); NULL + message on error.
 */
struct bench *taskset_parse(int argc, char **argv, char *err, size_t errlen);
/*
 * util-linux's list ("0,2-5,8-15:2") and hex mask ("0x3", "ff,ffffffff")
 * syntax into @m, a full NR_CPUS-wide mask (xcalloc(sizeof(struct cpumask))):
 * CPUs at or above NR_CPUS are dropped, as taskset drops CPUs beyond its set
 * size. 0, or -1 for a malformed string.
 */
int taskset_parse_list(const char *s, struct cpumask *m);
int taskset_parse_mask(const char *s, struct cpumask *m);
/* The affinity on the machine now set up; 0 or -1 + message (bench_check_machine()). */
int taskset_check_machine(struct bench *b, const char *machine, char *err, size_t errlen);
void taskset_free(struct bench *b);

/*
 * chrt (util-linux schedutils/chrt.c) and nice (coreutils) as prefixes:
 *   chrt [-f|-r|-b|-i|-o] [-a] PRIO COMMAND...   (default policy SCHED_RR)
 *   nice [-n N | --adjustment=N | -N] COMMAND...  (default adjustment 10)
 * Each parses its options, then COMMAND with bench_parse(), and records
 * its change in b->sched_prefix; NULL + message on error.
 */
struct bench *chrt_parse(int argc, char **argv, char *err, size_t errlen);
struct bench *nice_parse(int argc, char **argv, char *err, size_t errlen);
/*
 * The policy the benchmark's first task runs with after its prefixes, in
 * @attr; false when it has none (SCHED_NORMAL, nice 0).
 */
bool bench_sched_attr(const struct bench *b, struct sched_attr *attr);
/*
 * The prefixes' own system calls before the exec, outermost first: chrt
 * -d's sched_setattr() refused by admission control (EBUSY) or for a
 * taskset narrower than the root domain (EPERM), taskset's
 * sched_setaffinity() of a SCHED_DEADLINE task narrower than it (EBUSY).
 * True and the tool's message in @msg if one fails (the tool exits 1 and
 * the benchmark never runs).
 */
bool bench_prefix_fails(const struct bench *b, char *msg, size_t len);
/* "SCHED_FIFO 50", "SCHED_OTHER nice 5", ... for the JSON; @buf of @len bytes */
void bench_sched_attr_str(const struct sched_attr *attr, char *buf, size_t len);

#endif
