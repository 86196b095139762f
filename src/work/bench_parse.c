// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command lines of the supported benchmarks, with the real tools' option
 * names and defaults:
 *   hackbench [-p|--pipe] [-s|--datasize N] [-l|--loops N] [-g|--groups N]
 *             [-f|--fds N] [-T|--threads] [-P|--process]       (rt-tests)
 *   perf bench sched messaging [-p|--pipe] [-t|--thread] [-g|--group N] [-l|--nr_loops N]
 *   perf bench sched pipe [-l|--loop N] [-T|--threaded]
 * each of them, or any benchmark schedlab models, may follow taskset, chrt
 * and nice prefixes (work/taskset.c, work/chrt.c).
 */
#include "work/bench.h"

#include "work/bench_opts.h"
#include "work/bench_usage.h"
#include "work/jankbench.h"
#include "work/rtapp.h"
#include "work/reaim.h"
#include "work/schbench_hist.h"

#include "sim/alloc.h"
#include "sim/machine.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* bench_parse_background(): a workload the measured one's end stops */
static bool parsing_background;

/* limits beyond which a run is surely a typo (and would not fit in memory) */
#define MAX_GROUPS 10000
#define MAX_FDS 1000
#define MAX_TASKS 1000000
#define MAX_LOOPS 1000000000u
#define MAX_DATASIZE (1u << 20)

static int parse_uint(const char *tool, const char *opt, const char *s, unsigned int lo,
		      unsigned int hi, unsigned int *out, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || v < lo || v > hi) {
		snprintf(err, errlen, "%s: %s needs an integer in %u..%u, got '%s'", tool, opt, lo, hi,
			 s);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

/*
 * "TOOL [-a|--all] [-s|--size N]...": the modelled options of @opts, for
 * the parsers' messages (refused and help options left out)
 */
static const char *usage_line(const char *tool, const struct bench_opt *opts)
{
	static char buf[1024];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", tool);

	for (const struct bench_opt *o = opts; o->code && n < sizeof(buf); o++) {
		if (o->refused || (o->flags & BOPT_HELP))
			continue;
		if (o->code < BOPT_LONG && o->long_name)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " [-%c|--%s", o->code,
					      o->long_name);
		else if (o->code < BOPT_LONG)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " [-%c", o->code);
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " [--%s", o->long_name);
		if (n < sizeof(buf) && o->has_arg != no_argument)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %s", o->arg);
		if (n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "]");
	}
	return buf;
}

/*
 * A module's parameters as insmod takes them, NAME=VALUE (ipistorm.ko):
 * "TOOL [name=ARG] ..."
 */
static const char *module_usage_line(const char *tool, const struct bench_opt *opts)
{
	static char buf[1024];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", tool);

	for (const struct bench_opt *o = opts; o->code && n < sizeof(buf); o++) {
		if (o->refused || (o->flags & BOPT_HELP) || !o->long_name)
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " [%s=%s]", o->long_name,
				      o->has_arg != no_argument && o->arg ? o->arg : "1");
	}
	return buf;
}

static int bad_option(const char *tool, const struct bench_opt *opts, char **argv, char *err,
		      size_t errlen)
{
	const char *opt = argv[optind - 1];

	if (optopt && optopt != '?' && optopt < BOPT_LONG)
		snprintf(err, errlen, "%s: bad or incomplete option '-%c' (usage: %s)", tool, optopt,
			 usage_line(tool, opts));
	else
		snprintf(err, errlen, "%s: unknown option '%s' (usage: %s)", tool, opt,
			 usage_line(tool, opts));
	return -1;
}

int bench_opt_special(const char *tool, const struct bench_opt *opts, int c, int argc,
		      char **argv, char *err, size_t errlen)
{
	const struct bench_opt *o = bench_opt_find(opts, c);

	if (!o)
		return 0;
	if (o->refused)
		return bench_opt_refuse(tool, o, err, errlen);
	if (!(o->flags & BOPT_HELP))
		return 0;
	if (parsing_background) {
		snprintf(err, errlen, "%s: %s prints the tool's usage: not in a background workload",
			 tool, argv[optind - 1]);
		return -1;
	}
	return bench_usage_request(tool, argc, argv, optind - 1, err, errlen);
}

/* the getopt loop's head: tables from @opts, state reset ("+": stop at the first operand) */
#define for_each_bench_opt(c, g, opts, argc, argv)                                              \
	for (bench_getopt_init(&(g), (opts), "+");                                             \
	     ((c) = getopt_long((argc), (argv), (g).shortopts, (g).longopts, NULL)) != -1;)

static int parse_hackbench(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	static const char tool[] = "hackbench";
	struct bench_getopt g;
	int c;

	b->kind = BENCH_HACKBENCH;
	b->groups = 10;
	b->fds = 20;
	b->loops = 100;
	b->datasize = 100;
	for_each_bench_opt(c, g, hackbench_opts, argc, argv) {
		if (bench_opt_special(tool, hackbench_opts, c, argc, argv, err, errlen))
			return -1;
		switch (c) {
		case 'p':
			b->pipes = true;
			break;
		case 's':
			if (parse_uint(tool, "--datasize", optarg, 1, MAX_DATASIZE, &b->datasize, err,
				       errlen))
				return -1;
			break;
		case 'l':
			if (parse_uint(tool, "--loops", optarg, 1, MAX_LOOPS, &b->loops, err, errlen))
				return -1;
			break;
		case 'g':
			if (parse_uint(tool, "--groups", optarg, 1, MAX_GROUPS, &b->groups, err, errlen))
				return -1;
			break;
		case 'f':
			if (parse_uint(tool, "--fds", optarg, 1, MAX_FDS, &b->fds, err, errlen))
				return -1;
			break;
		case 'F':
			b->fifo_main = true;
			break;
		case 'T':
			b->threads = true;
			break;
		case 'P':
			b->threads = false;
			break;
		default:
			return bad_option(tool, hackbench_opts, argv, err, errlen);
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument '%s' (usage: %s)", tool, argv[optind],
			 usage_line(tool, hackbench_opts));
		return -1;
	}
	return 0;
}

static int parse_messaging(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	static const char tool[] = "perf bench sched messaging";
	struct bench_getopt g;
	int c;

	b->kind = BENCH_PERF_MESSAGING;
	b->groups = 10;
	b->fds = 20;
	b->loops = 100;
	b->datasize = 100;
	for_each_bench_opt(c, g, messaging_opts, argc, argv) {
		if (bench_opt_special(tool, messaging_opts, c, argc, argv, err, errlen))
			return -1;
		switch (c) {
		case 'p':
			b->pipes = true;
			break;
		case 't':
			b->threads = true;
			break;
		case 'g':
			if (parse_uint(tool, "--group", optarg, 1, MAX_GROUPS, &b->groups, err, errlen))
				return -1;
			break;
		case 'l':
			if (parse_uint(tool, "--nr_loops", optarg, 1, MAX_LOOPS, &b->loops, err,
				       errlen))
				return -1;
			break;
		default:
			return bad_option(tool, messaging_opts, argv, err, errlen);
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument '%s'", tool, argv[optind]);
		return -1;
	}
	return 0;
}

/* the most threads perf bench futex wake or hash is given here (each is a task) */
#define FUTEX_WAKE_MAX_THREADS 8192
/* perf bench -r: repeats of a futex benchmark's run */
#define FUTEX_MAX_REPEAT 10000
/* perf bench futex hash: -r seconds (a day), -f per thread, and all threads' futexes */
#define FUTEX_HASH_MAX_RUNTIME 86400
#define FUTEX_HASH_MAX_FUTEXES (1u << 20)
#define FUTEX_HASH_MAX_TOTAL (1ull << 24)
/* -b: the largest private hash this simulator allocates (the kernel: memory permitting) */
#define FUTEX_MAX_BUCKETS (1 << 20)

/*
 * -b N (OPT_INTEGER: negative is "not given"): what prctl(PR_FUTEX_HASH,
 * PR_FUTEX_HASH_SET_SLOTS, N) accepts, 0 (the global hash) or a power of
 * two from 2; perf exits when it fails
 */
static int parse_futex_buckets(const char *tool, const char *s, int *out, char *err,
			       size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < INT_MIN || v > INT_MAX) {
		snprintf(err, errlen, "%s: --buckets needs an integer, got '%s'", tool, s);
		return -1;
	}
	if (v < 0) {
		*out = -1;
		return 0;
	}
	if (v == 1 || (v & (v - 1)) || v > FUTEX_MAX_BUCKETS) {
		snprintf(err, errlen,
			 "%s: --buckets %ld: Requesting %ld hash buckets failed: prctl(PR_FUTEX_HASH) takes 0 (the global hash) or a power of two from 2 (here at most %d)",
			 tool, v, v, FUTEX_MAX_BUCKETS);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* perf bench futex's modelled benchmarks: name, kind and options */
static const struct {
	const char *name, *tool;
	enum bench_kind kind;
	const struct bench_opt *opts;
} futex_benches[] = {
	{ "wake", "perf bench futex wake", BENCH_PERF_FUTEX_WAKE, futex_wake_opts },
	{ "hash", "perf bench futex hash", BENCH_PERF_FUTEX_HASH, futex_hash_opts },
	{ "requeue", "perf bench futex requeue", BENCH_PERF_FUTEX_REQUEUE, futex_requeue_opts },
	{ "wake-parallel", "perf bench futex wake-parallel", BENCH_PERF_FUTEX_WAKE_PARALLEL,
	  futex_wake_parallel_opts },
	{ "lock-pi", "perf bench futex lock-pi", BENCH_PERF_FUTEX_LOCK_PI, futex_lock_pi_opts },
};

/* perf bench futex wake, hash, requeue, wake-parallel and lock-pi: their options share the fw_ fields */
static int parse_futex(struct bench *b, unsigned int which, unsigned int repeat, int argc,
		       char **argv, char *err, size_t errlen)
{
	bool hash = futex_benches[which].kind == BENCH_PERF_FUTEX_HASH;
	/* hash and lock-pi run -r seconds once; perf bench's own -r does not repeat them */
	bool timed = hash || futex_benches[which].kind == BENCH_PERF_FUTEX_LOCK_PI;
	bool parallel = futex_benches[which].kind == BENCH_PERF_FUTEX_WAKE_PARALLEL;
	const char *tool = futex_benches[which].tool;
	const struct bench_opt *opts = futex_benches[which].opts;
	struct bench_getopt g;
	int c;

	b->kind = futex_benches[which].kind;
	b->fw_repeat = timed ? 1 : repeat;
	/* wake-parallel's -w: 0 (its default) is one waking thread per thread */
	b->fw_nwakes = parallel ? 0 : 1;
	b->fr_nrequeue = 1;
	b->fw_buckets = -1;
	b->fh_nfutexes = 1024;
	b->fh_runtime_s = 10;
	for_each_bench_opt(c, g, opts, argc, argv) {
		if (bench_opt_special(tool, opts, c, argc, argv, err, errlen))
			return -1;
		switch (c) {
		case 't':
			if (parse_uint(tool, "--threads", optarg, 0, FUTEX_WAKE_MAX_THREADS,
				       &b->fw_threads, err, errlen))
				return -1;
			break;
		case 'w':
			if (parse_uint(tool, parallel ? "--nwakers" : "--nwakes", optarg,
				       parallel ? 0 : 1, FUTEX_WAKE_MAX_THREADS, &b->fw_nwakes, err,
				       errlen))
				return -1;
			break;
		case 'q':
			if (parse_uint(tool, "--nrequeue", optarg, 0, FUTEX_WAKE_MAX_THREADS,
				       &b->fr_nrequeue, err, errlen))
				return -1;
			break;
		case 'B':
			b->fr_broadcast = true;
			break;
		case 'p':
			b->fr_pi = true;
			break;
		case 'r':
			if (parse_uint(tool, "--runtime", optarg, 0, FUTEX_HASH_MAX_RUNTIME,
				       &b->fh_runtime_s, err, errlen))
				return -1;
			break;
		case 'f':
			if (parse_uint(tool, "--futexes", optarg, 1, FUTEX_HASH_MAX_FUTEXES,
				       &b->fh_nfutexes, err, errlen))
				return -1;
			break;
		case 'b':
			if (parse_futex_buckets(tool, optarg, &b->fw_buckets, err, errlen))
				return -1;
			break;
		case 's':
			b->fw_silent = true;
			break;
		case 'S':
			b->fw_shared = true;
			break;
		case 'M':
			b->flp_multi = true;
			break;
		case 'm':
			break;
		default:
			return bad_option(tool, opts, argv, err, errlen);
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument '%s'", tool, argv[optind]);
		return -1;
	}
	/* FUTEX_CMP_REQUEUE of none returns 0 for ever: the tool's loop never ends */
	if (!b->fr_nrequeue && !b->fr_broadcast) {
		snprintf(err, errlen,
			 "%s: --nrequeue 0 requeues nobody: the tool would loop for ever (give 1 or more, or -B)",
			 tool);
		return -1;
	}
	if (hash && (u64)(b->fw_threads ? b->fw_threads : 1) * b->fh_nfutexes >
			    FUTEX_HASH_MAX_TOTAL) {
		snprintf(err, errlen, "%s: %u threads x %u futexes is more than %llu", tool,
			 b->fw_threads, b->fh_nfutexes, (unsigned long long)FUTEX_HASH_MAX_TOTAL);
		return -1;
	}
	return 0;
}

/*
 * perf bench [-r N|--repeat N|--repeat=N] futex wake ...: 0 with the
 * collection's argv index in *@at, or -1 and a message
 */
static int parse_bench_repeat(int argc, char **argv, unsigned int *repeat, int *at, char *err,
			      size_t errlen)
{
	int i = 2;

	*repeat = 10;
	while (i < argc && argv[i][0] == '-') {
		const char *v = NULL;

		if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--repeat")) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "perf bench: %s needs a value", argv[i]);
				return -1;
			}
			v = argv[++i];
		} else if (!strncmp(argv[i], "--repeat=", 9)) {
			v = argv[i] + 9;
		} else {
			snprintf(err, errlen,
				 "perf bench: option '%s' is not modelled (only -r/--repeat N before the collection)",
				 argv[i]);
			return -1;
		}
		/* builtin-bench.c: "Invalid repeat option: Must specify a positive value" */
		if (parse_uint("perf bench", "--repeat", v, 1, FUTEX_MAX_REPEAT, repeat, err,
			       errlen))
			return -1;
		i++;
	}
	*at = i;
	return 0;
}

static int parse_pipe(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	static const char tool[] = "perf bench sched pipe";
	struct bench_getopt g;
	int c;

	b->kind = BENCH_PERF_PIPE;
	b->loops = 1000000;
	b->datasize = sizeof(int);
	b->pipes = true;
	for_each_bench_opt(c, g, sched_pipe_opts, argc, argv) {
		if (bench_opt_special(tool, sched_pipe_opts, c, argc, argv, err, errlen))
			return -1;
		switch (c) {
		case 'l':
			if (parse_uint(tool, "--loop", optarg, 1, MAX_LOOPS, &b->loops, err, errlen))
				return -1;
			break;
		case 'T':
			b->threads = true;
			break;
		default:
			return bad_option(tool, sched_pipe_opts, argv, err, errlen);
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument '%s'", tool, argv[optind]);
		return -1;
	}
	return 0;
}

/* the module's parameters, NAME=VALUE, the names those of ipistorm_opts */
static int parse_ipistorm(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	static const char tool[] = "ipistorm";

	b->kind = BENCH_IPISTORM;
	b->ipi_wait = true;
	b->ipi_offset = 1;
	b->timeout_ns = 30 * NSEC_PER_SEC;	/* the module's default timeout */
	b->ipi_cpulist_all = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '='), *val;
		const struct bench_opt *o;
		char key[32];
		unsigned int v;

		if (!eq) {
			snprintf(err, errlen, "%s: parameter '%s' is not NAME=VALUE (usage: %s)", tool, a,
				 module_usage_line(tool, ipistorm_opts));
			return -1;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - a) < 31 ? (int)(eq - a) : 31, a);
		o = (size_t)(eq - a) < sizeof(key) ? bench_opt_find_long(ipistorm_opts, key) : NULL;
		if (!o) {
			snprintf(err, errlen, "%s: unknown parameter '%.*s' (usage: %s)", tool,
				 (int)(eq - a), a, module_usage_line(tool, ipistorm_opts));
			return -1;
		}
		val = eq + 1;
		switch (o->code) {
		case BOPT_LONG + 0: /* numipi */
			if (parse_uint(tool, "numipi", val, 0, MAX_LOOPS, &v, err, errlen))
				return -1;
			b->max_ops = v;
			break;
		case BOPT_LONG + 1: /* single */
			if (parse_uint(tool, "single", val, 0, 1, &v, err, errlen))
				return -1;
			b->ipi_single = v;
			break;
		case BOPT_LONG + 2: /* offset */
			if (parse_uint(tool, "offset", val, 0, NR_CPUS, &b->ipi_offset, err, errlen))
				return -1;
			break;
		case BOPT_LONG + 3: /* cpulist */
			free(b->ipi_cpulist_str);
			b->ipi_cpulist_str = xstrdup(val);
			b->ipi_cpulist_all = false;
			break;
		case BOPT_LONG + 4: /* wait */
			if (parse_uint(tool, "wait", val, 0, 1, &v, err, errlen))
				return -1;
			b->ipi_wait = v;
			break;
		case BOPT_LONG + 5: /* delay */
			if (parse_uint(tool, "delay", val, 0, 10000000, &v, err, errlen))
				return -1;
			b->ipi_delay_ns = (u64)v * NSEC_PER_USEC;
			break;
		case BOPT_LONG + 6: /* timeout */
			if (parse_uint(tool, "timeout", val, 1, 7 * 86400, &v, err, errlen))
				return -1;
			b->timeout_ns = (u64)v * NSEC_PER_SEC;
			break;
		}
	}
	return 0;
}

/* schbench as of 2016 (masoncl/schbench 3d16b23), its -m -t -r -s -c mode */
static int parse_schbench2016(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	static const char tool[] = "schbench-2016";
	struct bench_getopt g;
	int c;

	b->kind = BENCH_SCHBENCH_2016;
	b->sb_msg_threads = 2;
	b->sb_workers = 16;
	b->sb_runtime_s = 30;
	b->sb_sleep_us = 30000;
	b->sb_cpu_us = 30000;
	for_each_bench_opt(c, g, schbench2016_opts, argc, argv) {
		if (bench_opt_special(tool, schbench2016_opts, c, argc, argv, err, errlen))
			return -1;
		switch (c) {
		case 'm':
			if (parse_uint(tool, "-m", optarg, 1, MAX_GROUPS, &b->sb_msg_threads, err, errlen))
				return -1;
			break;
		case 't':
			if (parse_uint(tool, "-t", optarg, 1, MAX_GROUPS, &b->sb_workers, err, errlen))
				return -1;
			break;
		case 'r':
			if (parse_uint(tool, "-r", optarg, 1, 86400, &b->sb_runtime_s, err, errlen))
				return -1;
			break;
		case 's':
			if (parse_uint(tool, "-s", optarg, 0, 10000000, &b->sb_sleep_us, err, errlen))
				return -1;
			/* rand() % (sleeptime / 4): the tool dies of SIGFPE */
			if (b->sb_sleep_us && b->sb_sleep_us < 4) {
				snprintf(err, errlen, "%s: -s %u: the real tool divides by zero (its jitter is rand() %% (sleeptime / 4)): give 0 or at least 4",
					 tool, b->sb_sleep_us);
				return -1;
			}
			break;
		case 'c':
			if (parse_uint(tool, "-c", optarg, 0, 10000000, &b->sb_cpu_us, err, errlen))
				return -1;
			break;
		default:
			return bad_option(tool, schbench2016_opts, argv, err, errlen);
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument '%s' (usage: %s)", tool, argv[optind],
			 usage_line(tool, schbench2016_opts));
		return -1;
	}
	if ((u64)b->sb_msg_threads * (b->sb_workers + 1) > MAX_TASKS) {
		snprintf(err, errlen, "%s: %u message threads x %u workers is more than %u tasks", tool,
			 b->sb_msg_threads, b->sb_workers, MAX_TASKS);
		return -1;
	}
	b->sb_stats = xcalloc(1, sizeof(*b->sb_stats));
	return 0;
}

/*
 * jankbench [-t LIST] [-f N] [-r HZ] (work/jankbench.h): Jankbench is an
 * app started with am start, so the command line is schedlab's own
 */
static int parse_jankbench(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	static const char tool[] = "jankbench";
	struct jankbench_conf *c = xcalloc(1, sizeof(*c));
	struct bench_getopt g;
	int ch;

	b->kind = BENCH_JANKBENCH;
	b->jank = c;
	c->frames = JANKBENCH_DEFAULT_FRAMES;
	c->hz = JANKBENCH_DEFAULT_HZ;
	if (jankbench_parse_tests(c, "all", err, errlen))
		return -1;
	for_each_bench_opt(ch, g, jankbench_opts, argc, argv) {
		if (bench_opt_special(tool, jankbench_opts, ch, argc, argv, err, errlen))
			return -1;
		switch (ch) {
		case 't':
			if (jankbench_parse_tests(c, optarg, err, errlen))
				return -1;
			break;
		case 'f':
			if (parse_uint(tool, "-f", optarg, 1, JANKBENCH_MAX_FRAMES, &c->frames, err,
				       errlen))
				return -1;
			break;
		case 'r':
			if (parse_uint(tool, "-r", optarg, 1, UINT32_MAX, &c->hz, err, errlen) ||
			    !jankbench_refresh_rate_ok(c->hz)) {
				snprintf(err, errlen, "%s: -r needs a refresh rate of 60, 90 or 120 (Hz), got '%s'",
					 tool, optarg);
				return -1;
			}
			break;
		default:
			return bad_option(tool, jankbench_opts, argv, err, errlen);
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument '%s' (usage: %s)", tool, argv[optind],
			 usage_line(tool, jankbench_opts));
		return -1;
	}
	return 0;
}

/* the current schbench (masoncl/schbench 24e32b8) */
static int parse_schbench(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	static const char tool[] = "schbench";
	struct bench_getopt g;
	int c;

	b->kind = BENCH_SCHBENCH;
	b->sb_msg_threads = 1;
	b->sb_workers = 0;
	b->sb_runtime_s = 30;
	b->sb_footprint_kb = 256;
	b->sb_ops = 5;
	b->sb_sleep_us = 100;
	b->sb_interval_s = 10;
	for_each_bench_opt(c, g, schbench_opts, argc, argv) {
		if (bench_opt_special(tool, schbench_opts, c, argc, argv, err, errlen))
			return -1;
		switch (c) {
		case 'm':
			if (parse_uint(tool, "-m", optarg, 1, MAX_GROUPS, &b->sb_msg_threads, err, errlen))
				return -1;
			break;
		case 't':
			if (parse_uint(tool, "-t", optarg, 0, MAX_GROUPS, &b->sb_workers, err, errlen))
				return -1;
			break;
		case 'r':
			if (parse_uint(tool, "-r", optarg, 1, 86400, &b->sb_runtime_s, err, errlen))
				return -1;
			break;
		case 'F':
			if (parse_uint(tool, "-F", optarg, 0, 1048576, &b->sb_footprint_kb, err, errlen))
				return -1;
			break;
		case 'n':
			if (parse_uint(tool, "-n", optarg, 0, 1000000, &b->sb_ops, err, errlen))
				return -1;
			break;
		case 's':
			if (parse_uint(tool, "-s", optarg, 0, 10000000, &b->sb_sleep_us, err, errlen))
				return -1;
			break;
		case 'i':
			if (parse_uint(tool, "-i", optarg, 0, 86400, &b->sb_interval_s, err, errlen))
				return -1;
			break;
		case 'L':
			b->sb_no_lock = true;
			break;
		case 'p':
			if (parse_uint(tool, "-p", optarg, 0, UINT32_MAX, &b->sb_pipe, err, errlen))
				return -1;
			/* the tool warns "pipe size too big, using 1048576" and goes on */
			if (b->sb_pipe > SCHBENCH_PIPE_MAX) {
				snprintf(err, errlen,
					 "%s: -p %u is more than the tool's %u-byte pipe buffer (it would use %u): give at most %u",
					 tool, b->sb_pipe, SCHBENCH_PIPE_MAX, SCHBENCH_PIPE_MAX,
					 SCHBENCH_PIPE_MAX);
				return -1;
			}
			break;
		default:
			return bad_option(tool, schbench_opts, argv, err, errlen);
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument '%s' (usage: %s)", tool, argv[optind],
			 usage_line(tool, schbench_opts));
		return -1;
	}
	if ((u64)b->sb_msg_threads * (b->sb_workers + 1) > MAX_TASKS) {
		snprintf(err, errlen, "%s: %u message threads x %u workers is more than %u tasks", tool,
			 b->sb_msg_threads, b->sb_workers, MAX_TASKS);
		return -1;
	}
	b->sb_stats = xcalloc(1, sizeof(*b->sb_stats));
	b->sb_req_stats = xcalloc(1, sizeof(*b->sb_req_stats));
	b->sb_rps_stats = xcalloc(1, sizeof(*b->sb_rps_stats));
	return 0;
}

/*
 * rt-app [-l LEVEL] FILE (rt-app_args.c): the file is read and checked
 * now; "-" (stdin) is not taken. The level decides whether rt-app's
 * notices are printed (50, the default, and above; the info and debug
 * lines of 75 and 100 are not modelled).
 */
static int parse_rtapp(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	static const char tool[] = "rt-app";
	struct bench_getopt g;
	char *end;
	long level = 50;
	int c;

	b->kind = BENCH_RTAPP;
	for_each_bench_opt(c, g, rtapp_opts, argc, argv) {
		if (bench_opt_special(tool, rtapp_opts, c, argc, argv, err, errlen))
			return -1;
		switch (c) {
		case 'l':
			level = strtol(optarg, &end, 10);
			if (!*optarg || *end) {
				snprintf(err, errlen, "rt-app: -l needs a number, got '%s' (usage: %s)",
					 optarg, usage_line(tool, rtapp_opts));
				return -1;
			}
			break;
		default:
			return bad_option(tool, rtapp_opts, argv, err, errlen);
		}
	}
	if (optind != argc - 1) {
		snprintf(err, errlen, "rt-app: %s (usage: %s FILE.json)",
			 optind >= argc ? "no workload file given" : "more than one file given",
			 usage_line(tool, rtapp_opts));
		return -1;
	}
	if (!strcmp(argv[optind], "-")) {
		snprintf(err, errlen, "rt-app: reading the workload from stdin ('-') is not supported: give the file");
		return -1;
	}
	b->rtapp = rtapp_parse_file(argv[optind], parsing_background, err, errlen);
	if (!b->rtapp)
		return -1;
	b->rtapp_log_level = (int)level;
	return 0;
}

int bench_check_machine(struct bench *b, const char *machine, char *err, size_t errlen)
{
	char perr[256];

	if (taskset_check_machine(b, machine, err, errlen))
		return -1;
	if (b->kind == BENCH_PERF_FUTEX_WAKE_PARALLEL) {
		/* the tool's errx(): the blocked threads split evenly over the waking ones */
		unsigned int threads = b->fw_threads ? b->fw_threads : nr_cpu_ids;
		unsigned int wakers = futex_wake_parallel_wakers(threads, b->fw_nwakes);

		if (threads % wakers) {
			snprintf(err, errlen,
				 "perf bench futex wake-parallel: Must be perfectly divisible: %u threads over %u waking threads",
				 threads, wakers);
			return -1;
		}
	}
	if (b->kind == BENCH_RTAPP)
		return rtapp_check_machine(b, err, errlen);
	if (b->kind != BENCH_IPISTORM)
		return 0;
	b->ipi_cpulist = alloc_cpumask();
	if (b->ipi_cpulist_all)
		return 0;
	/* a parse error first: a failed parse also leaves the mask empty */
	if (cpulist_parse(b->ipi_cpulist_str, b->ipi_cpulist, perr, sizeof(perr))) {
		snprintf(err, errlen, "ipistorm: cpulist '%s': %s", b->ipi_cpulist_str, perr);
		return -1;
	}
	if (cpumask_empty(b->ipi_cpulist)) {
		snprintf(err, errlen, "ipistorm: cpulist '%s': no CPU", b->ipi_cpulist_str);
		return -1;
	}
	return 0;
}

struct bench *bench_parse(int argc, char **argv, char *err, size_t errlen)
{
	struct bench *b;
	int rc = -1;

	/* a TOOL --help of an earlier parse is forgotten */
	bench_usage_reset();
	/* a prefix: parses its own options, then the command with this function */
	if (argc >= 1 && !strcmp(argv[0], "taskset"))
		return taskset_parse(argc, argv, err, errlen);
	if (argc >= 1 && !strcmp(argv[0], "chrt"))
		return chrt_parse(argc, argv, err, errlen);
	if (argc >= 1 && !strcmp(argv[0], "nice"))
		return nice_parse(argc, argv, err, errlen);
	b = xcalloc(1, sizeof(*b));

	/* getopt state is global: reset it fully and report errors ourselves */
	optind = 0;
	opterr = 0;
	optopt = 0;
	if (argc < 1) {
		snprintf(err, errlen, "no benchmark command given after '--'");
	} else if (!strcmp(argv[0], "hackbench")) {
		rc = parse_hackbench(b, argc, argv, err, errlen);
	} else if (!strcmp(argv[0], "ipistorm")) {
		rc = parse_ipistorm(b, argc, argv, err, errlen);
	} else if (!strcmp(argv[0], "insmod")) {
		if (argc < 2 || (strcmp(argv[1], "ipistorm.ko") && strcmp(argv[1], "./ipistorm.ko")))
			snprintf(err, errlen, "insmod: only ipistorm.ko is modelled");
		else
			rc = parse_ipistorm(b, argc - 1, argv + 1, err, errlen);
	} else if (!strcmp(argv[0], "context1") || !strcmp(argv[0], "unixbench") ||
		   !strcmp(argv[0], "Run") || !strcmp(argv[0], "./Run")) {
		rc = unixbench_parse(b, argc, argv, err, errlen);
	} else if (!strcmp(argv[0], "schbench-2016")) {
		rc = parse_schbench2016(b, argc, argv, err, errlen);
	} else if (!strcmp(argv[0], "schbench") || !strcmp(argv[0], "./schbench")) {
		rc = parse_schbench(b, argc, argv, err, errlen);
	} else if (!strcmp(argv[0], "rt-app") || !strcmp(argv[0], "./rt-app")) {
		rc = parse_rtapp(b, argc, argv, err, errlen);
	} else if (!strcmp(argv[0], "jankbench")) {
		rc = parse_jankbench(b, argc, argv, err, errlen);
	} else if (!strcmp(argv[0], "reaim") || !strcmp(argv[0], "./reaim")) {
		rc = reaim_parse(b, argc, argv, err, errlen);
	} else if (!strcmp(argv[0], "stress-ng")) {
		rc = stress_parse(b, argc, argv, parsing_background, err, errlen);
	} else if (!strcmp(argv[0], "perf")) {
		if (argc >= 2 && !strcmp(argv[1], "stat"))
			/*
			 * run handles perf stat before the benchmark parser, so
			 * reaching here means a prefix (nice, chrt, taskset) or
			 * --also put it inside another command
			 */
			snprintf(err, errlen,
				 "perf stat: only as the outermost command of run (it repeats the whole run): write 'perf stat [OPTIONS] -- nice|chrt|taskset ... COMMAND' instead of a prefix in front of perf stat");
		else if (argc >= 3 && !strcmp(argv[1], "sched") && !strcmp(argv[2], "record"))
			/* likewise: run records the whole run's tracepoints */
			snprintf(err, errlen,
				 "perf sched record: only as the outermost command of run (it records the whole run): write 'perf sched record [-o FILE] -- nice|chrt|taskset ... COMMAND'");
		else if (argc >= 3 && !strcmp(argv[1], "bench") &&
			 (!strcmp(argv[2], "futex") || argv[2][0] == '-')) {
			unsigned int repeat;
			int at;

			if (!parse_bench_repeat(argc, argv, &repeat, &at, err, errlen)) {
				const char *sub = at + 1 < argc ? argv[at + 1] : "";
				bool futex = at < argc && !strcmp(argv[at], "futex");

				unsigned int which = 0;

				while (which < ARRAY_SIZE(futex_benches) &&
				       strcmp(sub, futex_benches[which].name))
					which++;
				if (futex && which < ARRAY_SIZE(futex_benches))
					rc = parse_futex(b, which, repeat, argc - at - 1, argv + at + 1,
							 err, errlen);
				else if (futex)
					snprintf(err, errlen,
						 "perf bench futex: '%s' is not modelled (wake, hash, requeue, wake-parallel, lock-pi)",
						 sub);
				else
					snprintf(err, errlen,
						 "perf bench -r: only with 'futex wake', 'futex hash', 'futex requeue', 'futex wake-parallel' or 'futex lock-pi' (the sched benchmarks do not repeat)");
			}
		} else if (argc < 4 || strcmp(argv[1], "bench") || strcmp(argv[2], "sched"))
			snprintf(err, errlen,
				 "perf: only 'perf bench sched messaging', 'perf bench sched pipe' and 'perf bench futex wake', 'hash', 'requeue', 'wake-parallel' and 'lock-pi' are modelled");
		else if (!strcmp(argv[3], "messaging"))
			rc = parse_messaging(b, argc - 3, argv + 3, err, errlen);
		else if (!strcmp(argv[3], "pipe"))
			rc = parse_pipe(b, argc - 3, argv + 3, err, errlen);
		else
			snprintf(err, errlen, "perf bench sched: unknown benchmark '%s' (messaging, pipe)",
				 argv[3]);
	} else {
		snprintf(err, errlen, "unknown benchmark '%s' (hackbench, perf bench sched messaging, perf bench sched pipe, perf bench futex wake, perf bench futex hash, perf bench futex requeue, perf bench futex wake-parallel, perf bench futex lock-pi, stress-ng, ipistorm, context1, unixbench context1, schbench-2016, schbench, rt-app, reaim, jankbench; taskset, chrt and nice as prefixes)",
			 argv[0]);
	}
	if (!rc && (u64)b->groups * 2 * b->fds > MAX_TASKS) {
		snprintf(err, errlen, "%u groups x %u fds = %llu tasks is more than %u", b->groups,
			 b->fds, (unsigned long long)b->groups * 2 * b->fds, MAX_TASKS);
		rc = -1;
	}
	if (rc) {
		free(b->ipi_cpulist_str);
		rtapp_config_free(b->rtapp);
		if (b->kind == BENCH_REAIM)
			reaim_free(b);
		if (b->kind == BENCH_STRESS_NG)
			stress_free(b);
		if (b->kind == BENCH_JANKBENCH)
			jankbench_free(b);
		free(b);
		return NULL;
	}
	return b;
}

struct bench *bench_parse_background(int argc, char **argv, char *err, size_t errlen)
{
	struct bench *b;

	parsing_background = true;
	b = bench_parse(argc, argv, err, errlen);
	parsing_background = false;
	return b;
}

/*
 * A fork() or clone() of the benchmark failed with EAGAIN (chrt -d
 * without -R: sched_fork() refuses a SCHED_DEADLINE parent): what the
 * tool prints on stderr before it exits, and its exit status. The tools
 * whose failure path is not modelled get the errno the kernel gave.
 */
static void bench_fork_failed(void *ctx, bool thread)
{
	struct bench *b = ctx;
	const char *eagain = "Resource temporarily unavailable";

	switch (b->kind) {
	case BENCH_HACKBENCH:
		/*
		 * create_worker()'s sneeze(), group() returns 0 children and
		 * main() reaps none (reap_workers() with dokill: "sending
		 * SIGTERM" on stderr, signal_workers()'s line on stdout), then
		 * barf()s: exit(1)
		 */
		b->failure_stdout = "signaling 0 worker threads to terminate\n";
		bench_fail(b,
			   "hackbench: %s (error: %s); 0 children started.  Expected %u; sending SIGTERM to all child processes; Creating workers (error: %s): exit status 1",
			   thread ? "pthread_create failed()" : "fork()", eagain, b->fds * 2, eagain);
		break;
	case BENCH_PERF_MESSAGING:
		/* create_process_worker() / create_thread_worker(): err(EXIT_FAILURE, ...) */
		bench_fail(b, "perf: %s: %s: exit status 1",
			   thread ? "pthread_create failed" : "fork()", eagain);
		break;
	case BENCH_PERF_PIPE:
		/* bench_sched_pipe(): assert(pid >= 0), or BUG_ON(ret) after pthread_create() */
		bench_fail(b,
			   "perf: bench/sched-pipe.c:%d: bench_sched_pipe: Assertion `%s' failed.: killed by SIGABRT (exit status 134)",
			   thread ? 263 : 274, thread ? "!(ret)" : "pid >= 0");
		break;
	default:
		bench_fail(b,
			   "%s() failed: %s (EAGAIN from sched_fork(): a SCHED_DEADLINE task without reset-on-fork cannot fork; this tool's own message for it is not modelled)",
			   thread ? "clone" : "fork", eagain);
	}
}

void bench_start(struct bench *b)
{
	struct sched_attr attr;
	char msg[256];

	/* chrt -d or taskset refused before the exec: the tool exits, nothing runs */
	if (bench_prefix_fails(b, msg, sizeof(msg))) {
		bench_fail(b, "%s", msg);
		return;
	}
	/* a chrt or nice prefix: the first tasks start under its policy */
	work_set_sched_attr(bench_sched_attr(b, &attr) ? &attr : NULL);
	work_set_fork_failed(bench_fork_failed, b);
	switch (b->kind) {
	case BENCH_PERF_PIPE:
		pipe_start(b);
		break;
	case BENCH_PERF_FUTEX_WAKE:
		futex_wake_start(b);
		break;
	case BENCH_PERF_FUTEX_HASH:
		futex_hash_start(b);
		break;
	case BENCH_PERF_FUTEX_REQUEUE:
		futex_requeue_start(b);
		break;
	case BENCH_PERF_FUTEX_WAKE_PARALLEL:
		futex_wake_parallel_start(b);
		break;
	case BENCH_PERF_FUTEX_LOCK_PI:
		futex_lock_pi_start(b);
		break;
	case BENCH_STRESS_NG:
		stress_start(b);
		break;
	case BENCH_IPISTORM:
		ipistorm_start(b);
		break;
	case BENCH_CONTEXT1:
	case BENCH_UNIXBENCH:
		unixbench_start(b);
		break;
	case BENCH_SCHBENCH_2016:
		schbench_start(b);
		break;
	case BENCH_SCHBENCH:
		schbench_now_start(b);
		break;
	case BENCH_RTAPP:
		rtapp_start(b);
		break;
	case BENCH_REAIM:
		reaim_start(b);
		break;
	case BENCH_JANKBENCH:
		jankbench_start(b);
		break;
	default:
		messaging_start(b);
		break;
	}
}

double bench_progress(const struct bench *b, u64 now)
{
	double f = -1, t;

	/*
	 * the furthest of the measures the benchmark has: ipistorm's IPIs and
	 * its timeout, stress-ng's op budget and its --timeout; a length of
	 * time (unixbench's passes) cannot say it is done before its end
	 */
	if (b->progress_total)
		f = (double)b->progress_done / (double)b->progress_total;
	if (b->timeout_ns && b->started) {
		t = (double)(now - b->start_ns) / (double)b->timeout_ns;
		f = t > f ? t : f;
	}
	if (b->progress_span_ns && b->started) {
		t = (double)(now - b->start_ns) / (double)b->progress_span_ns;
		t = t > 0.99 ? 0.99 : t;
		f = t > f ? t : f;
	}
	return f > 1 ? 1 : f;
}

static void add_metric(struct bench *b, const char *name, double value,
		       enum metric_better better)
{
	b->metrics[b->nr_metrics].name = name;
	b->metrics[b->nr_metrics].value = value;
	b->metrics[b->nr_metrics].better = better;
	b->nr_metrics++;
}

/*
 * rt-app's loops over every thread: their utilisation (run over period),
 * the timer loops' lowest slack, the periods missed (negative slack), the
 * timer wakeup latency.
 */
static void add_rtapp_metrics(struct bench *b)
{
	const struct rtapp_result *r = rtapp_result(b);
	u64 loops = 0, run = 0, period = 0, missed = 0, tl = 0, wu = 0, wu_max = 0;
	s64 slack_min = 0;
	bool any = false;

	for (unsigned int i = 0; r && i < r->nr_threads; i++) {
		const struct rtapp_thread_stats *s = &r->threads[i];

		loops += s->loops;
		run += s->run_us;
		period += s->period_us;
		missed += s->missed;
		wu += s->wu_sum;
		tl += s->timer_loops;
		if (s->wu_max > wu_max)
			wu_max = s->wu_max;
		if (s->timer_loops && (!any || s->slack_min < slack_min)) {
			slack_min = s->slack_min;
			any = true;
		}
	}
	add_metric(b, "threads", r ? r->nr_threads : 0, METRIC_INFO);
	add_metric(b, "loops", (double)loops, METRIC_INFO);
	add_metric(b, "util_pct", period ? 100.0 * (double)run / (double)period : 0, METRIC_INFO);
	add_metric(b, "slack_min_us", (double)slack_min, METRIC_HIGHER);
	add_metric(b, "missed", (double)missed, METRIC_LOWER);
	add_metric(b, "wu_lat_mean_us", tl ? (double)wu / (double)tl : 0, METRIC_LOWER);
	add_metric(b, "wu_lat_max_us", (double)wu_max, METRIC_LOWER);
}

bool bench_finish(struct bench *b)
{
	double secs, ipi_ns, cpu_s, real_s;

	if (!b->stopped)
		return false;
	secs = (double)bench_elapsed_us(b) / 1e6;
	b->nr_metrics = 0;
	add_metric(b, "time_s", secs, METRIC_LOWER);
	if (b->kind == BENCH_PERF_FUTEX_WAKE || b->kind == BENCH_PERF_FUTEX_REQUEUE ||
	    b->kind == BENCH_PERF_FUTEX_WAKE_PARALLEL) {
		bool requeue = b->kind == BENCH_PERF_FUTEX_REQUEUE;
		/* wake-parallel: every waking thread of every run, its averaged line */
		unsigned int n = b->fw_repeat *
				 (b->kind == BENCH_PERF_FUTEX_WAKE_PARALLEL ? b->fw_nwakes : 1);
		double ms = 0, woken = 0;

		/* (fw_usec is NULL for a benchmark finished before it started: tests) */
		for (unsigned int j = 0; b->fw_usec && j < n; j++) {
			ms += (double)b->fw_usec[j] / 1000.0;
			woken += b->fw_woken[j];
		}
		add_metric(b, requeue ? "requeue_ms" : "wake_ms", n ? ms / n : 0, METRIC_LOWER);
		add_metric(b, requeue ? "requeued" : "woken", n ? woken / n : 0, METRIC_INFO);
	} else if (b->kind == BENCH_JANKBENCH) {
		struct jank_stats all;

		jankbench_totals(b, &all);
		add_metric(b, "frames", (double)all.frames, METRIC_INFO);
		add_metric(b, "mean_frame_ms", jank_stats_mean_ms(&all), METRIC_LOWER);
		add_metric(b, "max_frame_ms", (double)all.max_ns / NSEC_PER_MSEC, METRIC_LOWER);
		add_metric(b, "jank_pct", jank_stats_pct(&all), METRIC_LOWER);
	} else if (b->kind == BENCH_PERF_FUTEX_HASH || b->kind == BENCH_PERF_FUTEX_LOCK_PI) {
		u64 secs = b->fh_runtime_us / USEC_PER_SEC;
		double ops = 0;

		/* the Averaged line: the threads' mean operations per whole second */
		for (unsigned int i = 0; secs && b->fh_ops && i < b->fw_threads; i++)
			ops += (double)(b->fh_ops[i] / secs);
		add_metric(b, "ops_per_sec", b->fw_threads ? ops / b->fw_threads : 0,
			   METRIC_HIGHER);
	} else if (b->kind == BENCH_PERF_PIPE) {
		add_metric(b, "usecs_per_op", (double)bench_elapsed_us(b) / b->loops, METRIC_LOWER);
		add_metric(b, "ops_per_sec", secs > 0 ? b->loops / secs : 0, METRIC_HIGHER);
	} else if (b->kind == BENCH_IPISTORM) {
		add_metric(b, "threads", b->nr_workers, METRIC_INFO);
		add_metric(b, "ipis", (double)b->bogo_ops, METRIC_INFO);
		/* each thread's share of the wall time, per IPI */
		ipi_ns = (double)(b->stop_ns - b->start_ns) * b->nr_workers;
		add_metric(b, "ns_per_ipi", b->bogo_ops ? ipi_ns / (double)b->bogo_ops : 0,
			   METRIC_LOWER);
	} else if (b->kind == BENCH_CONTEXT1) {
		/* the parent's COUNT: round trips in the duration */
		add_metric(b, "count", b->ub_nr_count ? (double)b->ub_count[0] : 0, METRIC_HIGHER);
		add_metric(b, "lps", b->ub_nr_count ? (double)b->ub_count[0] / b->ub_seconds : 0,
			   METRIC_HIGHER);
	} else if (b->kind == BENCH_UNIXBENCH) {
		/* the last -c value's run */
		const struct ub_run *r = b->ub_nr_runs ? &b->ub_runs[b->ub_nr_runs - 1] : NULL;

		add_metric(b, "copies", r ? r->copies : 0, METRIC_INFO);
		add_metric(b, "score_lps", r ? r->score : 0, METRIC_HIGHER);
		add_metric(b, "index", r ? r->index : 0, METRIC_HIGHER);
	} else if (b->kind == BENCH_SCHBENCH_2016) {
		static const double pl[] = { 50.0, 90.0, 99.0, 99.9 };
		unsigned int v[4];

		schbench_percentiles(b->sb_stats, pl, 4, v, NULL);
		add_metric(b, "samples", (double)b->sb_stats->nr_samples, METRIC_INFO);
		add_metric(b, "p50_us", v[0], METRIC_LOWER);
		add_metric(b, "p90_us", v[1], METRIC_LOWER);
		add_metric(b, "p99_us", v[2], METRIC_LOWER);
		add_metric(b, "p99_9_us", v[3], METRIC_LOWER);
		add_metric(b, "max_us", b->sb_stats->max, METRIC_LOWER);
	} else if (b->kind == BENCH_SCHBENCH && b->sb_pipe) {
		unsigned int w[SCHBENCH_PLIST_LEN];
		double ops;
		u64 bytes;

		schbench_percentiles(b->sb_stats, schbench_plist, SCHBENCH_PLIST_LEN, w, NULL);
		schbench_pipe_rates(b, &ops, &bytes);
		add_metric(b, "wakeup_p20_us", w[0], METRIC_LOWER);
		add_metric(b, "wakeup_p50_us", w[1], METRIC_LOWER);
		add_metric(b, "wakeup_p90_us", w[2], METRIC_LOWER);
		add_metric(b, "wakeup_p99_us", w[3], METRIC_LOWER);
		add_metric(b, "wakeup_p99_9_us", w[4], METRIC_LOWER);
		add_metric(b, "ops_per_sec", ops, METRIC_HIGHER);
		add_metric(b, "bytes_per_sec", (double)bytes, METRIC_HIGHER);
	} else if (b->kind == BENCH_SCHBENCH) {
		static const double pl[] = { 50.0, 99.0, 99.9 };
		static const double p50[] = { 50.0 };
		unsigned int w[3], r[3], rps[1];

		/* BENCH_MAX_METRICS: the wakeup 99.9th is left out */
		schbench_percentiles(b->sb_stats, pl, 3, w, NULL);
		schbench_percentiles(b->sb_req_stats, pl, 3, r, NULL);
		schbench_percentiles(b->sb_rps_stats, p50, 1, rps, NULL);
		add_metric(b, "wakeup_p50_us", w[0], METRIC_LOWER);
		add_metric(b, "wakeup_p99_us", w[1], METRIC_LOWER);
		add_metric(b, "request_p50_us", r[0], METRIC_LOWER);
		add_metric(b, "request_p99_us", r[1], METRIC_LOWER);
		add_metric(b, "request_p99_9_us", r[2], METRIC_LOWER);
		add_metric(b, "rps_p50", rps[0], METRIC_HIGHER);
		/* "average rps": the requests done over -r */
		add_metric(b, "average_rps", (double)b->sb_loops / b->sb_runtime_s, METRIC_HIGHER);
	} else if (b->kind == BENCH_RTAPP) {
		add_rtapp_metrics(b);
	} else if (b->kind == BENCH_REAIM) {
		const struct reaim_conf *c = b->reaim;
		const struct reaim_row *r = c->nr_rows ? &c->rows[c->nr_rows - 1] : NULL;
		double max = 0, mean = 0;

		for (unsigned int i = 0; i < c->nr_repeats_done; i++)
			max = c->max_jpm[i] > max ? c->max_jpm[i] : max;
		/* the mean over the rows: "average jobs per minute at 1100-2000 users" */
		for (unsigned int i = 0; i < c->nr_rows; i++)
			mean += c->rows[i].jpm / c->nr_rows;
		/* the last row's columns, and the run's "Max Jobs per Minute" */
		add_metric(b, "users", r ? r->forked : 0, METRIC_INFO);
		add_metric(b, "jobs_per_min", r && isfinite(r->jpm) ? r->jpm : 0, METRIC_HIGHER);
		add_metric(b, "jobs_per_min_child", r && isfinite(r->jpm_child) ? r->jpm_child : 0,
			   METRIC_HIGHER);
		add_metric(b, "parent_time_s", r ? r->parent_time : 0, METRIC_LOWER);
		add_metric(b, "jti", r ? r->jti : 0, METRIC_HIGHER);
		add_metric(b, "max_jobs_per_min", isfinite(max) ? max : 0, METRIC_HIGHER);
		add_metric(b, "mean_jobs_per_min", isfinite(mean) ? mean : 0, METRIC_HIGHER);
	} else if (b->kind == BENCH_STRESS_NG) {
		add_metric(b, "workers", b->nr_workers, METRIC_INFO);
		add_metric(b, "bogo_ops", (double)b->bogo_ops, METRIC_HIGHER);
		add_metric(b, "usr_s", (double)b->utime_ns / 1e9, METRIC_INFO);
		add_metric(b, "sys_s", (double)b->stime_ns / 1e9, METRIC_INFO);
		/* stress-ng's real time column: the workers' mean run time */
		real_s = (double)b->real_ns / 1e9;
		add_metric(b, "real_s", real_s, METRIC_INFO);
		add_metric(b, "bogo_ops_per_s_real", real_s > 0 ? b->bogo_ops / real_s : 0,
			   METRIC_HIGHER);
		cpu_s = (double)(b->utime_ns + b->stime_ns) / 1e9;
		add_metric(b, "bogo_ops_per_s_cpu", cpu_s > 0 ? b->bogo_ops / cpu_s : 0,
			   METRIC_HIGHER);
	} else {
		add_metric(b, "tasks", (double)b->groups * 2 * b->fds, METRIC_INFO);
		add_metric(b, "messages", (double)b->groups * b->fds * b->fds * b->loops,
			   METRIC_INFO);
	}
	return true;
}

bool bench_stuck_message(const struct bench *b, char *buf, size_t len)
{
	return b && b->kind == BENCH_RTAPP && rtapp_stuck_message(b, buf, len);
}

void bench_fail(struct bench *b, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (b->failure)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	b->failure = xstrdup(msg);
	b->failure_ns = machine.now;
	machine.stop = true;
}

void bench_free(struct bench *b)
{
	taskset_free(b);
	free(b->failure);
	free(b->ipi_cpulist_str);
	if (b->kind == BENCH_STRESS_NG)
		stress_free(b);
	else if (b->kind == BENCH_IPISTORM)
		ipistorm_free(b);
	else if (b->kind == BENCH_CONTEXT1 || b->kind == BENCH_UNIXBENCH)
		unixbench_free(b);
	else if (b->kind == BENCH_SCHBENCH_2016)
		schbench_free(b);
	else if (b->kind == BENCH_SCHBENCH)
		schbench_now_free(b);
	else if (b->kind == BENCH_RTAPP)
		rtapp_free(b);
	else if (b->kind == BENCH_REAIM)
		reaim_free(b);
	else if (b->kind == BENCH_PERF_FUTEX_WAKE || b->kind == BENCH_PERF_FUTEX_REQUEUE ||
		 b->kind == BENCH_PERF_FUTEX_WAKE_PARALLEL)
		futex_wake_free(b);
	else if (b->kind == BENCH_JANKBENCH)
		jankbench_free(b);
	else if (b->kind == BENCH_PERF_FUTEX_HASH)
		futex_hash_free(b);
	else if (b->kind == BENCH_PERF_FUTEX_LOCK_PI)
		futex_lock_pi_free(b);
	else if (b->kind != BENCH_PERF_PIPE)
		messaging_free(b);
	free(b->priv);
	free(b);
}
