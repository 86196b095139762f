// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modelled tools' own usage texts, for `TOOL --help` inside a command
 * line (work/bench_usage.h): the words, layout, stream and exit status of
 * rt-tests 2.10 hackbench (print_usage_exit()), perf's parse-options
 * (usage_with_options_internal(): the options sorted by short name, those
 * the later arguments name when there are any, stderr, 129), schbench's
 * print_usage() of 2016 and 2025 (stderr, 1), rt-app's help_full (stdout,
 * 0), re-aim's print_usage() (stdout, 1), stress-ng 0.22.00's
 * stress_usage() (stdout, 0), util-linux 2.42.2 taskset and chrt and
 * coreutils 9.1 nice in an English locale (stdout, 0).
 */
#include "work/bench_usage.h"

#include "work/jankbench.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static struct bench_usage usage;

const struct bench_usage *bench_usage_requested(void)
{
	return usage.requested ? &usage : NULL;
}

void bench_usage_reset(void)
{
	usage.requested = false;
	usage.out[0] = usage.err[0] = usage.note[0] = '\0';
	usage.status = 0;
}

static void add(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(char *buf, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n >= BENCH_USAGE_MAX - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, BENCH_USAGE_MAX - n, fmt, ap);
	va_end(ap);
}

static void hackbench(void)
{
	add(usage.out, "hackbench V %1.2f\n", 2.10);
	add(usage.out, "Usage:\n"
		       "hackbench <options>\n\n"
		       "-f       --fds=NUM         number of fds\n"
		       "-F       --fifo            use SCHED_FIFO for main thread\n"
		       "-g       --groups=NUM      number of groups to be used\n"
		       "-h       --help            print this message\n"
		       "-l       --loops=LOOPS     how many message should be send\n"
		       "-p       --pipe            send data via a pipe\n"
		       "-i       --inet            send data via a inet tcp connection\n"
		       "-s       --datasize=SIZE   message size\n"
		       "-T       --threads         use POSIX threads\n"
		       "-P       --process         use fork (default)\n");
	usage.status = 0;
	snprintf(
		usage.note, sizeof(usage.note),
		"-i/--inet is not modelled; 'schedlab benchmarks hackbench' lists the options as modelled");
}

/* one option of perf's parse-options tables, as print_option_help() shows it */
struct perf_opt {
	char short_name;
	const char *long_name;
	const char *arg; /* " <n>", " <SEND,RECV>" or "" */
	const char *help;
};

/* option__in_argv(): a later argument names the option (or its help text holds it) */
static bool perf_in_argv(const struct perf_opt *o, int argc, char **argv, int k)
{
	for (int i = k + 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-') {
			if (a[0] && !a[1]) {
				if (a[0] == o->short_name)
					return true;
				continue;
			}
			if (!strcmp(o->long_name, a) || strcasestr(o->help, a))
				return true;
			continue;
		}
		if (a[1] == o->short_name || (a[1] == '-' && !strcmp(o->long_name, a + 2)))
			return true;
	}
	return false;
}

static void perf_bench(const char *coll, const char *name, const struct perf_opt *opts, int n,
		       int argc, char **argv, int k)
{
	/* bench.c's run_bench() has printed its banner before the benchmark parses */
	add(usage.out, "# Running '%s/%s' benchmark:\n", coll, name);
	add(usage.err, "\n Usage: perf bench %s %s <options>\n\n", coll, name);
	/* options__order(): by lower-cased short name; these tables are in that order */
	for (int i = 0; i < n; i++) {
		const struct perf_opt *o = &opts[i];
		int pos;

		if (argc - k > 1 && !perf_in_argv(o, argc, argv, k))
			continue;
		pos = snprintf(NULL, 0, "    -%c, --%s%s", o->short_name, o->long_name, o->arg);
		add(usage.err, "    -%c, --%s%s", o->short_name, o->long_name, o->arg);
		if (pos <= 24)
			add(usage.err, "%*s%s\n", 24 - pos + 2, "", o->help);
		else
			add(usage.err, "\n%*s%s\n", 24 + 2, "", o->help);
	}
	add(usage.err, "\n");
	usage.status = 129;
}

static void perf_messaging(int argc, char **argv, int k)
{
	static const struct perf_opt opts[] = {
		{ 'g', "group", " <n>", "Specify number of groups" },
		{ 'l', "nr_loops", " <n>", "Specify the number of loops to run (default: 100)" },
		{ 'p', "pipe", "", "Use pipe() instead of socketpair()" },
		{ 't', "thread", "", "Be multi thread instead of multi process" },
	};

	perf_bench("sched", "messaging", opts, 4, argc, argv, k);
	snprintf(usage.note, sizeof(usage.note),
		 "'schedlab benchmarks perf bench sched messaging' lists the options as modelled");
}

static void perf_pipe(int argc, char **argv, int k)
{
	static const struct perf_opt opts[] = {
		{ 'G', "cgroups", " <SEND,RECV>", "Put sender and receivers in given cgroups" },
		{ 'l', "loop", " <n>", "Specify number of loops" },
		{ 'n', "nonblocking", "", "Use non-blocking operations" },
		{ 'T', "threaded", "", "Specify threads/process based task setup" },
	};

	perf_bench("sched", "pipe", opts, 4, argc, argv, k);
	snprintf(
		usage.note, sizeof(usage.note),
		"-G/--cgroups and -n/--nonblocking are not modelled; 'schedlab benchmarks perf bench sched pipe' lists the options as modelled");
}

static void perf_futex_wake(int argc, char **argv, int k)
{
	/* options__order(): 'S' before 's' by their long names, as in every futex tool */
	static const struct perf_opt opts[] = {
		{ 'b', "buckets", " <n>", "Specify amount of hash buckets" },
		{ 'm', "mlockall", "", "Lock all current and future memory" },
		{ 'S', "shared", "", "Use shared futexes instead of private ones" },
		{ 's', "silent", "", "Silent mode: do not display data/details" },
		{ 't', "threads", " <n>", "Specify amount of threads" },
		{ 'w', "nwakes", " <n>", "Specify amount of threads to wake at once" },
	};

	perf_bench("futex", "wake", opts, ARRAY_SIZE(opts), argc, argv, k);
	snprintf(usage.note, sizeof(usage.note),
		 "'schedlab benchmarks perf bench futex wake' lists the options as modelled");
}

static void perf_futex_hash(int argc, char **argv, int k)
{
	static const struct perf_opt opts[] = {
		{ 'b', "buckets", " <n>", "Specify amount of hash buckets" },
		{ 'f', "futexes", " <n>", "Specify amount of futexes per threads" },
		{ 'm', "mlockall", "", "Lock all current and future memory" },
		{ 'r', "runtime", " <n>", "Specify runtime (in seconds)" },
		{ 'S', "shared", "", "Use shared futexes instead of private ones" },
		{ 's', "silent", "", "Silent mode: do not display data/details" },
		{ 't', "threads", " <n>", "Specify amount of threads" },
	};

	perf_bench("futex", "hash", opts, ARRAY_SIZE(opts), argc, argv, k);
	snprintf(usage.note, sizeof(usage.note),
		 "'schedlab benchmarks perf bench futex hash' lists the options as modelled");
}

static void perf_futex_wake_parallel(int argc, char **argv, int k)
{
	static const struct perf_opt opts[] = {
		{ 'b', "buckets", " <n>", "Specify amount of hash buckets" },
		{ 'm', "mlockall", "", "Lock all current and future memory" },
		{ 'S', "shared", "", "Use shared futexes instead of private ones" },
		{ 's', "silent", "", "Silent mode: do not display data/details" },
		{ 't', "threads", " <n>", "Specify amount of threads" },
		{ 'w', "nwakers", " <n>", "Specify amount of waking threads" },
	};

	perf_bench("futex", "wake-parallel", opts, ARRAY_SIZE(opts), argc, argv, k);
	snprintf(
		usage.note, sizeof(usage.note),
		"'schedlab benchmarks perf bench futex wake-parallel' lists the options as modelled");
}

static void perf_futex_requeue(int argc, char **argv, int k)
{
	/* options__order(): 'B' before 'b' and 'S' before 's' by their long names */
	static const struct perf_opt opts[] = {
		{ 'B', "broadcast", "", "Requeue all threads at once" },
		{ 'b', "buckets", " <n>", "Specify amount of hash buckets" },
		{ 'm', "mlockall", "", "Lock all current and future memory" },
		{ 'p', "pi", "", "Use PI-aware variants of FUTEX_CMP_REQUEUE" },
		{ 'q', "nrequeue", " <n>", "Specify amount of threads to requeue at once" },
		{ 'S', "shared", "", "Use shared futexes instead of private ones" },
		{ 's', "silent", "", "Silent mode: do not display data/details" },
		{ 't', "threads", " <n>", "Specify amount of threads" },
	};

	perf_bench("futex", "requeue", opts, ARRAY_SIZE(opts), argc, argv, k);
	snprintf(
		usage.note, sizeof(usage.note),
		"'schedlab benchmarks perf bench futex requeue' lists the options as modelled");
}

static void perf_futex_lock_pi(int argc, char **argv, int k)
{
	/* options__order(): by the lowercased short name, then the long name */
	static const struct perf_opt opts[] = {
		{ 'b', "buckets", " <n>", "Specify amount of hash buckets" },
		{ 'm', "mlockall", "", "Lock all current and future memory" },
		{ 'M', "multi", "", "Use multiple futexes" },
		{ 'r', "runtime", " <n>", "Specify runtime (in seconds)" },
		{ 'S', "shared", "", "Use shared futexes instead of private ones" },
		{ 's', "silent", "", "Silent mode: do not display data/details" },
		{ 't', "threads", " <n>", "Specify amount of threads" },
	};

	perf_bench("futex", "lock-pi", opts, ARRAY_SIZE(opts), argc, argv, k);
	snprintf(usage.note, sizeof(usage.note),
		 "'schedlab benchmarks perf bench futex lock-pi' lists the options as modelled");
}

static void schbench_2016(void)
{
	add(usage.err, "schbench usage:\n"
		       "\t-m (--message-threads): number of message threads (def: 2)\n"
		       "\t-t (--threads): worker threads per message thread (def: 16)\n"
		       "\t-r (--runtime): How long to run before exiting (seconds, def: 30)\n"
		       "\t-s (--sleeptime): Message thread latency (usec, def: 10000\n"
		       "\t-c (--cputime): How long to think during loop (usec, def: 10000\n"
		       "\t-a (--auto): grow thread count until latencies hurt (def: off)\n"
		       "\t-p (--pipe): transfer size bytes to simulate a pipe test (def: 0)\n"
		       "\t-R (--rps): requests per second mode (count, def: 0)\n");
	usage.status = 1;
	snprintf(
		usage.note, sizeof(usage.note),
		"-a, -p and -R are not modelled, and -s and -c default to 30000 as the code has it; 'schedlab benchmarks schbench-2016' lists the options as modelled");
}

static void schbench_now(void)
{
	add(usage.err,
	    "schbench usage:\n"
	    "\t-C (--calibrate): run our work loop and report on timing\n"
	    "\t-L (--no-locking): don't spinlock during CPU work (def: locking on)\n"
	    "\t-m (--message-threads): number of message threads (def: 1)\n"
	    "\t-M (--message-cpus): pin message threads to these CPUs 'a-m,n-z' or 'auto' (def: no pinning)\n"
	    "\t-W (--worker-cpus): pin worker threads to these CPUs 'a-m,n-z' or 'auto' (def: no pinning)\n"
	    "\t-t (--threads): worker threads per message thread (def: num_cpus)\n"
	    "\t-r (--runtime): How long to run before exiting (seconds, def: 30)\n"
	    "\t-F (--cache_footprint): cache footprint (kb, def: 256)\n"
	    "\t-n (--operations): think time operations to perform (def: 5)\n"
	    "\t-s (--sleep_usec): think time sleep (usecs) per request\n"
	    "\t-A (--auto-rps): grow RPS until cpu utilization hits target (def: none)\n"
	    "\t-p (--pipe): transfer size bytes to simulate a pipe test (def: 0)\n"
	    "\t-R (--rps): requests per second mode (count, def: 0)\n"
	    "\t-w (--warmuptime): how long to warmup before resetting stats (seconds, def: 0)\n"
	    "\t-i (--intervaltime): interval for printing latencies (seconds, def: 10)\n"
	    "\t-z (--zerotime): interval for zeroing latencies (seconds, def: never)\n"
	    "\t-j (--json) <file>: output in json format (def: false)\n"
	    "\t-J (--jobname) <name>: an optional jobname to add to the json output (def: none)\n"
	    "\t--split <percent>: percent of cache footprint that is private per thread (0-100, def: all private)\n");
	usage.status = 1;
	snprintf(
		usage.note, sizeof(usage.note),
		"-C, -M, -W, -A, -R, -w, -z, -j, -J and --split are not modelled; 'schedlab benchmarks schbench' lists the options as modelled");
}

static void rtapp(void)
{
	add(usage.out,
	    "Usage:\n"
	    "      rt-app [-l <debug_level>] <taskset.json>\n"
	    "      cat taskset.json | rt-app -\n\n"
	    "taskset.json is a json file describing the workload that will be generated"
	    "by rt-app.\n\n"
	    "In the first example, the json file is opened and parsed by rt-app.\n"
	    "In the second example, rt-app reads the workload description in json format\n"
	    "through the standard input.\n\n"
	    "Miscellaneous:\n"
	    "  -v, --version      display version information and exit\n"
	    "  -l, --log          set verbosity level (10: ERROR/CRITICAL, 50: NOTICE (default)\n"
	    "                                    75: INFO, 100: DEBUG)\n"
	    "  -h, --help         display this help text and exit\n");
	usage.status = 0;
	snprintf(
		usage.note, sizeof(usage.note),
		"the workload comes from a file (not -, stdin) and -v is not modelled; 'schedlab benchmarks rt-app' lists the options as modelled");
}

/* jankbench is an app with no command line: schedlab's own usage (bench_tools.c's options) */
static void jankbench(void)
{
	add(usage.out,
	    "usage: jankbench [-t LIST] [-f N] [-r HZ]\n\n"
	    "Android's Jankbench: a UI thread and a RenderThread draw a frame each vsync.\n\n"
	    "  -t, --test LIST          subtests, comma-separated, or all (the default):\n"
	    "                           list_view, image_list_view, shadow_grid,\n"
	    "                           low_hitrate_text, high_hitrate_text, edit_text, overdraw\n"
	    "  -f, --frames N           frames per subtest (default %u)\n"
	    "  -r, --refresh-rate HZ    60 (default), 90 or 120; jank deadline 16 ms at 60 Hz\n"
	    "  -h, --help               this text\n",
	    JANKBENCH_DEFAULT_FRAMES);
	usage.status = 0;
	snprintf(
		usage.note, sizeof(usage.note),
		"Jankbench is an app started with am start; this command line is schedlab's (docs/benchmarks.md, \"jankbench\")");
}

static void reaim(void)
{
	add(usage.out,
	    "\tREAIM Workload\n"
	    "\tOptions:\n"
	    "\t-d<x>, --debug<x>\tTurns on debugging output - 1 is default\n"
	    "\t-v, --verbose\t\tProduces more output\n"
	    "\t-s<x>,--startusers<x>\tNumber of users to start with\n"
	    "\t-e<x>,--endusers<x>\tNumber of users to end with\n"
	    "\t-i<x>, --increment<x>\tNumber of users to increment by\n"
	    "\t-f<s>, --file<s>\tWorkfile name (default '/usr/local/share/reaim/workfile')\n"
	    "\t-l<s>, --logprefix<s>\tPrefix for logfile (default 'reaim')\n"
	    "\t-c<s>, --config<s>\tDisk Config file name (default '/usr/local/share/reaim.config')\n"
	    "\t-x, --crossover\t\tRun to crossover (jpm/user < 1.0) \n"
	    "\t-q,--quick\t\tRun to quick crossover (jpm/user < 60.0) \n"
	    "\t-j<x>,--jobs<x>\tNumber of jobs in tasklist (min is workfile size)\n"
	    "\t-m, --multiuser\t\tAIM7 style - default\n"
	    "\t-t, --timeroff\t\tDefeats adaptive timer for crossover run\n"
	    "\t-o, --oneuser\t\tRuns AIM9 style - single thread, each test runs for 10 seconds\n"
	    "\t-r<x>, --repeat<x>\t\tRepeats the test <x> number of times, default 1\n"
	    "\t-p<x>, --period<x>\t\tNumber of seconds to run each test in singleuser mode\n"
	    "\t-g , --guesspeak\t\t Run until cheezy maxjobs algorhythm detects JPM rate dropping\n"
	    "\t-Z\t\t Specify an external monitoring tool to run in 4 phases (setup, begin, halt, report)\n"
	    "\t-z\t\t Specify a command line for the external monitoring tool. It will be called as [tool] begin [cmd line]\n"
	    "\t-h, --help\tThis message\n"
	    "Bug reports to cliffw@osdl.org\n");
	usage.status = 1;
	snprintf(
		usage.note, sizeof(usage.note),
		"-v, -o, -Z and -z are not modelled and the standard workfiles are built in; 'schedlab benchmarks reaim' lists the options as modelled");
}

/* stress_usage_help(): "-s N, --switch N  " then the text wrapped for 80 columns */
static void stress_help_line(const char *opt_s, const char *opt_l, const char *desc)
{
	const int width = 80 - 30; /* stress_tty_width_get(): 80 without a terminal */
	const char *start = desc, *space = NULL, *p;
	char s[16] = "";
	bool first = true;
	int wd = 0;

	if (opt_s)
		snprintf(s, sizeof(s), "-%s,", opt_s);
	add(usage.out, "%-6s--%-22s", s, opt_l);
	for (p = start; *p; p++) {
		if (*p == ' ')
			space = p;
		if (++wd >= width) {
			const char *cut = space ? space : p;

			add(usage.out, "%s%.*s\n", first ? "" : "                              ",
			    (int)(cut - start), start);
			first = false;
			start = cut + 1;
			wd = 0;
		}
	}
	if (start != p)
		add(usage.out, "%s%s\n", first ? "" : "                              ", start);
}

static void stress_ng(void)
{
	static const char *const generic[][3] = {
		{ "h", "help", "show help" },
		{ "M", "metrics", "print pseudo metrics of activity" },
		{ NULL, "metrics-brief", "enable metrics and only show non-zero results" },
		{ NULL, "sched type", "set scheduler type" },
		{ NULL, "sched-prio N", "set scheduler priority level N" },
		{ "t N", "timeout T", "timeout after T seconds" },
	};
	/* the modelled stressors' help tables, in stress-ng's stressor order */
	static const char *const stressors[][3] = {
		{ NULL, "affinity N", "start N workers that rapidly change CPU affinity" },
		{ NULL, "affinity-delay D", "delay in nanoseconds between affinity changes" },
		{ NULL, "affinity-ops N", "stop after N affinity bogo operations" },
		{ NULL, "affinity-pin", "keep per stressor threads pinned to same CPU" },
		{ NULL, "affinity-procs N",
		  "number of child processes to run per affinity instance" },
		{ NULL, "affinity-rand", "change affinity randomly rather than sequentially" },
		{ NULL, "affinity-sleep N", "sleep in nanoseconds between affinity changes" },
		{ "c N", "cpu N", "start N workers that perform CPU only loading" },
		{ "l P", "cpu-load P", "load CPU by P %, 0=sleep, 100=full load (see -c)" },
		{ NULL, "cpu-load-slice S", "specify time slice during busy load" },
		{ NULL, "cpu-method M", "specify stress cpu method M, default is all" },
		{ NULL, "cpu-old-metrics", "use old CPU metrics instead of normalized metrics" },
		{ NULL, "cpu-ops N", "stop after N cpu bogo operations" },
		{ "p N", "pipe N", "start N workers exercising pipe I/O" },
		{ NULL, "pipe-data-size N", "set pipe size of each pipe write to N bytes" },
		{ NULL, "pipe-ops N", "stop after N pipe I/O bogo operations" },
		{ NULL, "pipe-size N", "set pipe size to N bytes" },
		{ NULL, "pipe-vmsplice", "use vmsplice for pipe data transfer" },
		{ "s N", "switch N", "start N workers doing rapid context switches" },
		{ NULL, "switch-freq N", "set frequency of context switches" },
		{ NULL, "switch-method M", "mq | pipe | sem-sysv" },
		{ NULL, "switch-ops N", "stop after N context switch bogo operations" },
		{ "y N", "yield N", "start N workers doing sched_yield() calls" },
		{ NULL, "yield-ops N", "stop after N bogo yield operations" },
		{ NULL, "yield-procs N", "specify number of yield processes per stressor" },
		{ NULL, "yield-sched P",
		  "select scheduler policy [idle, fifo, rr, other, batch, deadline]" },
	};

	/* stress_version(): the build and the host are the model's; the emoji when not a tty */
	add(usage.out, "stress-ng, version 0.22.00 (gcc 12.2, x86_64 Linux 6.18.0)%s\n",
	    isatty(STDOUT_FILENO) ? "" : " \U0001F4BB\U0001F525");
	add(usage.out, "\nusage: stress-ng [OPTION [ARG]]\n");
	add(usage.out, "\ngeneral control options:\n");
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		stress_help_line(generic[i][0], generic[i][1], generic[i][2]);
	add(usage.out, "\nstressor specific options:\n");
	for (size_t i = 0; i < sizeof(stressors) / sizeof(stressors[0]); i++)
		stress_help_line(stressors[i][0], stressors[i][1], stressors[i][2]);
	add(usage.out,
	    "\nexample: stress-ng --cpu 8 --iomix 4 --vm 2 --vm-bytes 128M --fork 4 "
	    "--timeout 10s\n\n"
	    "note: sizes can be suffixed with B, K, M, G and times with s, m, h, d, y\n");
	usage.status = 0;
	snprintf(
		usage.note, sizeof(usage.note),
		"only the options of the modelled stressors are listed (stress-ng lists all of its hundreds); 'schedlab benchmarks stress-ng' says what each does here");
}

static void taskset_usage(void)
{
	add(usage.out,
	    "Usage: taskset [options] [mask | cpu-list] [pid|cmd [args...]]\n\n"
	    "\n"
	    "Show or change the CPU affinity of a process.\n"
	    "\n"
	    "Options:\n"
	    " -a, --all-tasks         operate on all the tasks (threads) for a given pid\n"
	    " -p, --pid               operate on existing given pid\n"
	    " -c, --cpu-list          display and specify cpus in list format\n"
	    "%-25s%s\n%-25s%s\n"
	    "\n"
	    "The default behavior is to run a new command:\n"
	    "    taskset 03 sshd -b 1024\n"
	    "You can retrieve the mask of an existing task:\n"
	    "    taskset -p 700\n"
	    "Or set it:\n"
	    "    taskset -p 03 700\n"
	    "List format uses a comma-separated list instead of a mask:\n"
	    "    taskset -pc 0,3,7-11 700\n"
	    "Ranges in list format can take a stride argument:\n"
	    "    e.g. 0-31:2 is equivalent to mask 0x55555555\n"
	    "\nFor more details see taskset(1).\n",
	    " -h, --help", "display this help", " -V, --version", "display version");
	usage.status = 0;
	snprintf(
		usage.note, sizeof(usage.note),
		"-p (an existing pid) and -V are not modelled; 'schedlab benchmarks taskset' lists the options as modelled");
}

static void chrt_usage(void)
{
	add(usage.out,
	    "Show or change the real-time scheduling attributes of a process.\n"
	    "\n"
	    "Set policy:\n"
	    " chrt [options] [<priority>] <command> [<argument>...]\n"
	    " chrt --pid <policy-option> [options] [<priority>] <PID>\n"
	    "\n"
	    "Get policy:\n"
	    " chrt --pid <PID>\n"
	    "\n"
	    "Policy options:\n"
	    " -b, --batch          set policy to SCHED_BATCH\n"
	    " -d, --deadline       set policy to SCHED_DEADLINE\n"
	    " -e, --ext            set policy to SCHED_EXT\n"
	    " -f, --fifo           set policy to SCHED_FIFO\n"
	    " -i, --idle           set policy to SCHED_IDLE\n"
	    " -o, --other          set policy to SCHED_OTHER\n"
	    " -r, --rr             set policy to SCHED_RR (default)\n"
	    "\n"
	    "Scheduling options:\n"
	    " -R, --reset-on-fork       set reset-on-fork flag\n"
	    " -T, --sched-runtime <ns>  runtime parameter for DEADLINE\n"
	    " -P, --sched-period <ns>   period parameter for DEADLINE\n"
	    " -D, --sched-deadline <ns> deadline parameter for DEADLINE\n"
	    "\n"
	    "Other options:\n"
	    " -a, --all-tasks      operate on all the tasks (threads) for a given pid\n"
	    " -m, --max            show min and max valid priorities\n"
	    " -p, --pid            operate on existing given pid\n"
	    " -v, --verbose        display status information\n"
	    "\n"
	    "%-22s%s\n%-22s%s\n"
	    "\nFor more details see chrt(1).\n",
	    " -h, --help", "display this help", " -V, --version", "display version");
	usage.status = 0;
	snprintf(
		usage.note, sizeof(usage.note),
		"SCHED_DEADLINE, SCHED_EXT, -R, -p, -m, -v and -V are not modelled; 'schedlab benchmarks chrt' lists the options as modelled");
}

static void nice_usage(void)
{
	add(usage.out,
	    "Usage: nice [OPTION] [COMMAND [ARG]...]\n"
	    "Run COMMAND with an adjusted niceness, which affects process scheduling.\n"
	    "With no COMMAND, print the current niceness.  Niceness values range from\n"
	    "-20 (most favorable to the process) to 19 (least favorable to the process).\n"
	    "\n"
	    "Mandatory arguments to long options are mandatory for short options too.\n"
	    "  -n, --adjustment=N   add integer N to the niceness (default 10)\n"
	    "      --help        display this help and exit\n"
	    "      --version     output version information and exit\n"
	    "\n"
	    "NOTE: your shell may have its own version of nice, which usually supersedes\n"
	    "the version described here.  Please refer to your shell's documentation\n"
	    "for details about the options it supports.\n"
	    "\n"
	    "GNU coreutils online help: <https://www.gnu.org/software/coreutils/>\n"
	    "Full documentation <https://www.gnu.org/software/coreutils/nice>\n"
	    "or available locally via: info '(coreutils) nice invocation'\n");
	usage.status = 0;
	snprintf(
		usage.note, sizeof(usage.note),
		"nice needs a command here (without one it prints the niceness) and --version is not modelled");
}

int bench_usage_request(const char *tool, int argc, char **argv, int k, char *err, size_t errlen)
{
	bench_usage_reset();
	usage.requested = true;
	if (!strcmp(tool, "hackbench"))
		hackbench();
	else if (!strcmp(tool, "perf bench sched messaging"))
		perf_messaging(argc, argv, k);
	else if (!strcmp(tool, "perf bench sched pipe"))
		perf_pipe(argc, argv, k);
	else if (!strcmp(tool, "perf bench futex wake"))
		perf_futex_wake(argc, argv, k);
	else if (!strcmp(tool, "perf bench futex hash"))
		perf_futex_hash(argc, argv, k);
	else if (!strcmp(tool, "perf bench futex requeue"))
		perf_futex_requeue(argc, argv, k);
	else if (!strcmp(tool, "perf bench futex wake-parallel"))
		perf_futex_wake_parallel(argc, argv, k);
	else if (!strcmp(tool, "perf bench futex lock-pi"))
		perf_futex_lock_pi(argc, argv, k);
	else if (!strcmp(tool, "schbench-2016"))
		schbench_2016();
	else if (!strcmp(tool, "schbench"))
		schbench_now();
	else if (!strcmp(tool, "rt-app"))
		rtapp();
	else if (!strcmp(tool, "reaim"))
		reaim();
	else if (!strcmp(tool, "jankbench"))
		jankbench();
	else if (!strcmp(tool, "stress-ng"))
		stress_ng();
	else if (!strcmp(tool, "taskset"))
		taskset_usage();
	else if (!strcmp(tool, "chrt"))
		chrt_usage();
	else if (!strcmp(tool, "nice"))
		nice_usage();
	else
		usage.requested = false;
	snprintf(
		err, errlen,
		"%s: %s prints the tool's usage and runs no benchmark ('schedlab run -- %s %s' shows it)",
		tool, argv[k], tool, argv[k]);
	return -1;
}
