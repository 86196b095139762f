// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modelled tools and their options (work/bench_opts.h). The parsers in
 * work/bench_parse.c and beside each model build their getopt_long()
 * tables from these; `schedlab benchmarks` prints them. Option names,
 * values and defaults are the real tools' (their sources are named in
 * each tool's "follows"); the help texts say what the model does.
 */
#include "work/bench_opts.h"

#include "work/stress.h"

#define NOARG no_argument
#define ARG required_argument
#define OPTARG optional_argument

/* an option as modelled: code, long name, value, the value's name, what it does */
#define OPT(c, l, a, v, h)                                                             \
	{                                                                              \
		.code = (c), .long_name = (l), .has_arg = (a), .arg = (v), .help = (h) \
	}
/* ... given more than once */
#define REPEATED(c, l, a, v, h)                                                         \
	{                                                                               \
		.code = (c), .long_name = (l), .has_arg = (a), .arg = (v), .help = (h), \
		.flags = BOPT_REPEAT                                                    \
	}
/* an option refused: the rest of the message after its name */
#define REFUSED(c, l, a, v, why)                                                            \
	{                                                                                   \
		.code = (c), .long_name = (l), .has_arg = (a), .arg = (v), .refused = (why) \
	}
/* the tool's help option */
#define HELP(c, l, h)                                                                            \
	{                                                                                        \
		.code = (c), .long_name = (l), .has_arg = NOARG, .help = (h), .flags = BOPT_HELP \
	}
/* a module parameter, NAME=VALUE */
#define PARAM(c, l, v, h)                                                               \
	{                                                                               \
		.code = (c), .long_name = (l), .has_arg = ARG, .arg = (v), .help = (h), \
		.flags = BOPT_PARAM                                                     \
	}

const struct bench_opt hackbench_opts[] = {
	OPT('f', "fds", ARG, "NUM",
	    "file descriptors per group: NUM receivers, NUM senders (default 20)"),
	OPT('F', "fifo", NOARG, NULL,
	    "once the groups are created, the main process becomes SCHED_FIFO priority 1 (the workers stay SCHED_OTHER), as rt-tests does"),
	OPT('g', "groups", ARG, "NUM", "groups of senders and receivers (default 10)"),
	HELP('h', "help", "print hackbench's usage on stdout and exit 0"),
	OPT('l', "loops", ARG, "LOOPS",
	    "messages each sender sends to each receiver (default 100)"),
	OPT('p', "pipe", NOARG, NULL, "pipes instead of AF_UNIX stream socketpairs"),
	REFUSED('i', "inet", NOARG, NULL,
		"is not modelled: TCP connections over loopback (AF_UNIX sockets and pipes are)"),
	OPT('s', "datasize", ARG, "SIZE", "bytes per message (default 100)"),
	OPT('T', "threads", NOARG, NULL, "POSIX threads instead of processes"),
	OPT('P', "processes", NOARG, NULL,
	    "processes (the default; --process, a prefix, is taken too)"),
	REFUSED('w', "watchdog", NOARG, NULL,
		"is not an option of rt-tests hackbench 2.10 (it prints its usage and exits 1): a run that stops making progress is ended by schedlab's --max-time and --max-events"),
	{ 0 },
};

const struct bench_opt messaging_opts[] = {
	OPT('p', "pipe", NOARG, NULL, "pipe() instead of socketpair()"),
	OPT('t', "thread", NOARG, NULL, "threads instead of processes"),
	OPT('g', "group", ARG, "N", "groups of 20 senders and 20 receivers (default 10)"),
	OPT('l', "nr_loops", ARG, "N", "messages each sender sends to each receiver (default 100)"),
	HELP('h', "help", "print perf's usage of the benchmark on stderr and exit 129"),
	{ 0 },
};

const struct bench_opt sched_pipe_opts[] = {
	REFUSED('n', "nonblocking", NOARG, NULL,
		"is not modelled: non-blocking reads and writes retried on EAGAIN"),
	OPT('l', "loop", ARG, "N", "round trips of the token (default 1000000)"),
	OPT('T', "threaded", NOARG, NULL, "threads instead of processes"),
	REFUSED('G', "cgroups", ARG, "SEND,RECV", "is not modelled: cgroups"),
	HELP('h', "help", "print perf's usage of the benchmark on stderr and exit 129"),
	{ 0 },
};

const struct bench_opt futex_wake_opts[] = {
	OPT('t', "threads", ARG, "N", "threads blocking on the futex (default: one per online CPU)"),
	OPT('w', "nwakes", ARG, "N", "threads each FUTEX_WAKE wakes (default 1)"),
	OPT('s', "silent", NOARG, NULL, "no [Run N] line per run"),
	OPT('S', "shared", NOARG, NULL, "a shared futex instead of a private one (the global hash)"),
	OPT('m', "mlockall", NOARG, NULL, "lock memory (no effect on the model: nothing is paged)"),
	OPT('b', "buckets", ARG, "N",
	    "the process's private futex hash size (PR_FUTEX_HASH): 0 the global hash, else a power of two from 2 (default: the kernel's)"),
	HELP('h', "help", "print perf's usage of the benchmark on stderr and exit 129"),
	{ 0 },
};

const struct bench_opt futex_hash_opts[] = {
	OPT('t', "threads", ARG, "N", "threads (default: one per online CPU)"),
	OPT('r', "runtime", ARG, "S", "seconds to run (default 10)"),
	OPT('f', "futexes", ARG, "N", "futexes per thread, each FUTEX_WAITed on in turn (default 1024)"),
	OPT('s', "silent", NOARG, NULL, "no line per thread"),
	OPT('S', "shared", NOARG, NULL, "shared futexes instead of private ones (the global hash)"),
	OPT('m', "mlockall", NOARG, NULL, "lock memory (no effect on the model: nothing is paged)"),
	OPT('b', "buckets", ARG, "N",
	    "the process's private futex hash size (PR_FUTEX_HASH): 0 the global hash, else a power of two from 2 (default: the kernel's)"),
	HELP('h', "help", "print perf's usage of the benchmark on stderr and exit 129"),
	{ 0 },
};

const struct bench_opt futex_wake_parallel_opts[] = {
	OPT('t', "threads", ARG, "N", "threads blocking on the futex (default: one per online CPU)"),
	OPT('w', "nwakers", ARG, "N",
	    "waking threads, each waking threads / N with one FUTEX_WAKE (default, 0 or more than the threads: one per thread; the threads must divide by it)"),
	OPT('s', "silent", NOARG, NULL, "no [Run N] line per run"),
	OPT('S', "shared", NOARG, NULL, "a shared futex instead of a private one (the global hash)"),
	OPT('m', "mlockall", NOARG, NULL, "lock memory (no effect on the model: nothing is paged)"),
	OPT('b', "buckets", ARG, "N",
	    "the process's private futex hash size (PR_FUTEX_HASH): 0 the global hash, else a power of two from 2 (default: the kernel's)"),
	HELP('h', "help", "print perf's usage of the benchmark on stderr and exit 129"),
	{ 0 },
};

const struct bench_opt futex_requeue_opts[] = {
	OPT('t', "threads", ARG, "N", "threads blocking on futex1 (default: one per online CPU)"),
	OPT('q', "nrequeue", ARG, "N",
	    "threads each FUTEX_CMP_REQUEUE moves to futex2 (default 1, at most the threads)"),
	OPT('B', "broadcast", NOARG, NULL, "requeue all threads at once (-q the thread count)"),
	OPT('s', "silent", NOARG, NULL, "no [Run N] line per run"),
	OPT('S', "shared", NOARG, NULL, "shared futexes instead of private ones (the global hash)"),
	OPT('m', "mlockall", NOARG, NULL, "lock memory (no effect on the model: nothing is paged)"),
	OPT('b', "buckets", ARG, "N",
	    "the process's private futex hash size (PR_FUTEX_HASH): 0 the global hash, else a power of two from 2 (default: the kernel's)"),
	OPT('p', "pi", NOARG, NULL,
	    "PI: threads in FUTEX_WAIT_REQUEUE_PI, moved to the PI futex2 by FUTEX_CMP_REQUEUE_PI (the first woken holding it)"),
	HELP('h', "help", "print perf's usage of the benchmark on stderr and exit 129"),
	{ 0 },
};

const struct bench_opt futex_lock_pi_opts[] = {
	OPT('t', "threads", ARG, "N", "threads (default: one per online CPU)"),
	OPT('r', "runtime", ARG, "S", "seconds to run (default 10)"),
	OPT('M', "multi", NOARG, NULL, "a futex per thread instead of one for all (no contention)"),
	OPT('s', "silent", NOARG, NULL, "no line per thread"),
	OPT('S', "shared", NOARG, NULL, "shared futexes instead of private ones (the global hash)"),
	OPT('m', "mlockall", NOARG, NULL, "lock memory (no effect on the model: nothing is paged)"),
	OPT('b', "buckets", ARG, "N",
	    "the process's private futex hash size (PR_FUTEX_HASH): 0 the global hash, else a power of two from 2 (default: the kernel's)"),
	HELP('h', "help", "print perf's usage of the benchmark on stderr and exit 129"),
	{ 0 },
};

const struct bench_opt jankbench_opts[] = {
	OPT('t', "test", ARG, "LIST",
	    "subtests, comma-separated: list_view, image_list_view, shadow_grid, low_hitrate_text, high_hitrate_text, edit_text, overdraw, or all (the default)"),
	OPT('f', "frames", ARG, "N", "frames per subtest (default 300)"),
	OPT('r', "refresh-rate", ARG, "HZ",
	    "the display's refresh rate: 60 (the default), 90 or 120; the jank deadline is 16 ms at 60, 1000 / HZ ms otherwise"),
	HELP('h', "help", "print the usage on stdout and exit 0"),
	{ 0 },
};

const struct bench_opt stress_opts[] = {
	/* the stressors: N instances (0: one per CPU) */
	OPT(SO_CPU, "cpu", ARG, "N", "N instances of the cpu stressor: bogo ops of the all method"),
	OPT(SO_SWITCH, "switch", ARG, "N",
	    "N instances of the switch stressor: 1-byte writes to a child through a one-buffer pipe"),
	OPT(SO_YIELD, "yield", ARG, "N",
	    "N instances of the yield stressor: processes calling sched_yield()"),
	OPT(SO_PIPE, "pipe", ARG, "N", "N instances of the pipe stressor: a writer and a reader"),
	OPT(SO_AFFINITY, "affinity", ARG, "N",
	    "N instances of the affinity stressor: processes moving themselves CPU to CPU"),
	REFUSED(SO_FUTEX, "futex", ARG, "N",
		"is not modelled yet: needs futexes with timeouts (its waits are FUTEX_WAIT of 5 us and futex_waitv(); issue 22)"),
	/* their bogo-op budgets, shared by the instances, each for the stressor named last */
	OPT(SO_CPU_OPS, "cpu-ops", ARG, "N", "stop the cpu stressor after N bogo ops in all"),
	OPT(SO_SWITCH_OPS, "switch-ops", ARG, "N", "stop the switch stressor after N writes in all"),
	OPT(SO_YIELD_OPS, "yield-ops", ARG, "N",
	    "each yielder stops after N / instances / yielders calls (the run still lasts --timeout)"),
	OPT(SO_PIPE_OPS, "pipe-ops", ARG, "N", "stop the pipe stressor after N writes in all"),
	OPT(SO_AFFINITY_OPS, "affinity-ops", ARG, "N", "stop the affinity stressor after N moves in all"),
	REFUSED(SO_FUTEX_OPS, "futex-ops", ARG, "N", "is not modelled yet: see --futex"),
	/* the stressors' settings */
	OPT(SO_CPU_LOAD, "cpu-load", ARG, "P", "load percentage of each cpu instance (default 100)"),
	OPT(SO_CPU_LOAD_SLICE, "cpu-load-slice", ARG, "S",
	    "busy slice below 100% load: S < 0 bogo ops, S > 0 milliseconds, 0 random (default -64)"),
	OPT(SO_CPU_METHOD, "cpu-method", ARG, "all", "only all, the default"),
	REFUSED(SO_CPU_OLD_METRICS, "cpu-old-metrics", NOARG, NULL,
		"is not modelled: the bogo op is one call of the all method"),
	OPT(SO_SWITCH_FREQ, "switch-freq", ARG, "F",
	    "F writes a second: a delay after each, adjusted 100 times a second (default 0: no delay)"),
	OPT(SO_SWITCH_METHOD, "switch-method", ARG, "pipe", "only pipe, the default (not mq, sem-sysv)"),
	OPT(SO_YIELD_PROCS, "yield-procs", ARG, "P",
	    "yielders per instance (default: two per CPU stress-ng may use, over the instances)"),
	OPT(SO_YIELD_SCHED, "yield-sched", ARG, "POLICY",
	    "the yielders' policy: other, batch, idle, fifo or rr (a random priority); not deadline or ext"),
	OPT(SO_PIPE_DATA_SIZE, "pipe-data-size", ARG, "B", "bytes per write, 8 to 4096 (default 4096)"),
	OPT(SO_PIPE_SIZE, "pipe-size", ARG, "S",
	    "the pipe's size, a page to 1 MiB, rounded up to a power of two pages (default 64 KiB)"),
	OPT(SO_PIPE_READERS, "pipe-readers", ARG, "R", "readers per instance, 1 to 64 (default 1)"),
	OPT(SO_PIPE_WRITERS, "pipe-writers", ARG, "W", "writers per instance, 1 to 64 (default 1)"),
	REFUSED(SO_PIPE_VMSPLICE, "pipe-vmsplice", NOARG, NULL, "is not modelled: vmsplice()"),
	OPT(SO_AFFINITY_PROCS, "affinity-procs", ARG, "P",
	    "processes per instance, itself included, 2 to 1024 (default 16)"),
	OPT(SO_AFFINITY_RAND, "affinity-rand", NOARG, NULL, "a random CPU each time, not the next one"),
	OPT(SO_AFFINITY_DELAY, "affinity-delay", ARG, "NS", "sched_yield() for NS after each move"),
	OPT(SO_AFFINITY_SLEEP, "affinity-sleep", ARG, "NS", "nanosleep(NS) after each move"),
	REFUSED(SO_AFFINITY_PIN, "affinity-pin", NOARG, NULL,
		"is not modelled: instance 0 steering every process's CPU"),
	/* global */
	OPT(SO_TIMEOUT, "timeout", ARG, "T",
	    "each instance stops after T seconds (suffix s, m, h, d; default 1 day)"),
	OPT(SO_SCHED, "sched", ARG, "POLICY",
	    "each instance's policy: other, batch, idle, fifo, rr or deadline (not ext)"),
	OPT(SO_SCHED_PRIO, "sched-prio", ARG, "N", "its priority, 1..99 (default for fifo and rr: 49)"),
	OPT(SO_SCHED_PERIOD, "sched-period", ARG, "NS",
	    "SCHED_DEADLINE's period (default 0: the deadline); used only with --sched-deadline"),
	OPT(SO_SCHED_RUNTIME, "sched-runtime", ARG, "NS",
	    "SCHED_DEADLINE's runtime (default 10000); used only with --sched-deadline"),
	OPT(SO_SCHED_DEADLINE, "sched-deadline", ARG, "NS",
	    "SCHED_DEADLINE's deadline; 0 (the default): 90000 of 100000 ns, stress_set_sched()'s own"),
	OPT(SO_SCHED_RECLAIM, "sched-reclaim", NOARG, NULL,
	    "accepted; stress-ng's stress_set_sched() does not pass SCHED_FLAG_RECLAIM on, so it changes nothing"),
	OPT(SO_METRICS, "metrics", NOARG, NULL,
	    "print the metrics table, with CPU use and (0, not modelled) RSS, and each stressor's own metric"),
	OPT(SO_METRICS_BRIEF, "metrics-brief", NOARG, NULL, "print the metrics table, short"),
	HELP(SO_HELP, "help", "print stress-ng's usage (the options of the modelled stressors) on stdout and exit 0"),
	{ 0 },
};

const struct bench_opt ipistorm_opts[] = {
	PARAM(BOPT_LONG + 0, "numipi", "N",
	      "IPIs each thread sends (default 0: until the timeout)"),
	PARAM(BOPT_LONG + 1, "single", "0|1",
	      "1: to (cpu + offset) % CPUs; 0 (default): to every other CPU"),
	PARAM(BOPT_LONG + 2, "offset", "K", "the target's distance with single=1 (default 1)"),
	PARAM(BOPT_LONG + 3, "cpulist", "LIST", "the CPUs that get a sending thread (default all)"),
	PARAM(BOPT_LONG + 4, "wait", "0|1", "wait for each IPI's handler to finish (default 1)"),
	PARAM(BOPT_LONG + 5, "delay", "US", "udelay() between IPIs, microseconds (default 0)"),
	PARAM(BOPT_LONG + 6, "timeout", "S", "stop after S seconds (default 30)"),
	{ 0, .flags = BOPT_PARAM },
};

const struct bench_opt schbench2016_opts[] = {
	OPT('m', "message-threads", ARG, "N", "message threads (default 2)"),
	OPT('t', "threads", ARG, "N", "workers per message thread (default 16)"),
	OPT('r', "runtime", ARG, "S", "seconds to run (default 30)"),
	OPT('s', "sleeptime", ARG, "US",
	    "the message thread's sleep, microseconds (default 30000)"),
	OPT('c', "cputime", ARG, "US", "a worker's spin per wakeup, microseconds (default 30000)"),
	REFUSED('a', "auto", NOARG, NULL, "is not modelled (only -m -t -r -s -c)"),
	REFUSED('p', "pipe", ARG, "BYTES", "is not modelled (only -m -t -r -s -c)"),
	REFUSED('R', "rps", ARG, "N", "is not modelled (only -m -t -r -s -c)"),
	HELP(BOPT_LONG + 0, "help", "print schbench's usage on stderr and exit 1"),
	{ 0 },
};

const struct bench_opt schbench_opts[] = {
	OPT('m', "message-threads", ARG, "N", "message threads (default 1)"),
	OPT('t', "threads", ARG, "N", "workers per message thread (default 0: ceil(CPUs / m))"),
	OPT('r', "runtime", ARG, "S", "seconds to run (default 30)"),
	OPT('F', NULL, ARG, "KB", "the workers' matrices, KiB (default 256)"),
	OPT('n', "operations", ARG, "N", "matrix multiplies per request (default 5)"),
	OPT('s', "sleep_usec", ARG, "US", "think time per request, microseconds (default 100)"),
	OPT('i', "intervaltime", ARG, "S", "seconds between interval reports (default 10)"),
	OPT('L', "no-locking", NOARG, NULL, "no per-CPU lock around the work"),
	OPT('p', "pipe", ARG, "BYTES",
	    "pipe mode: each handoff between a worker and its message thread also writes BYTES of the worker's page, both ways (at most 1048576; default 0: off); -s, -n, -F, -L and -i do nothing then"),
	REFUSED('R', "rps", ARG, "N", "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED('A', "auto-rps", ARG, "PCT", "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED('C', "calibrate", NOARG, NULL, "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED('w', "warmuptime", ARG, "S", "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED('z', "zerotime", ARG, "S", "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED('M', "message-cpus", ARG, "CPUS", "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED('W', "worker-cpus", ARG, "CPUS", "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED('j', "json", ARG, "FILE", "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED('J', "jobname", ARG, "NAME", "is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED(BOPT_LONG + 0, "split", ARG, "PCT",
		"is not modelled (only -m -t -r -F -n -s -i -L -p)"),
	REFUSED(BOPT_LONG + 1, "cache_footprint", ARG, "KB",
		"is ignored by the real tool (it maps it to 'f', which its option switch does not handle): give -F"),
	HELP(BOPT_LONG + 2, "help", "print schbench's usage on stderr and exit 1"),
	{ 0 },
};

const struct bench_opt rtapp_opts[] = {
	OPT('l', "log", ARG, "LEVEL", "log level: notices are printed at 50 (default) and above"),
	HELP('h', "help", "print rt-app's help on stdout and exit 0"),
	REFUSED('v', "version", NOARG, NULL, "is not modelled: rt-app's version and build date"),
	{ 0 },
};

const struct bench_opt reaim_opts[] = {
	OPT('s', "startusers", ARG, "N", "users of the first run (default 1)"),
	OPT('e', "endusers", ARG, "N", "users of the last run (default 5)"),
	OPT('i', "increment", ARG, "N", "users added per run (default 1)"),
	OPT('j', "jobs", ARG, "N", "jobs in the task list (default 100)"),
	OPT('f', "file", ARG, "WORKFILE",
	    "the workfile; the standard ones are built in (default workfile.short)"),
	OPT('c', "config", ARG, "FILE", "the config file (default: the built-in reaim.config)"),
	OPT('x', "crossover", NOARG, NULL, "run to crossover (jobs/min/user < 1.0)"),
	OPT('q', "quick", NOARG, NULL, "run to quick crossover (jobs/min/user < 60.0)"),
	OPT('g', "guesspeak", NOARG, NULL, "run until the jobs/min rate drops"),
	OPT('t', "timeroff", NOARG, NULL, "no adaptive timer in crossover runs"),
	OPT('r', "repeat", ARG, "N", "repeat the whole run N times (default 1)"),
	OPT('y', "nosync", NOARG, NULL, "no sync() during disk activity"),
	OPT('m', "multiuser", NOARG, NULL, "AIM7 style (the default)"),
	OPT('l', "logprefix", ARG, "P", "accepted: no log files are written"),
	OPT('d', "debug", OPTARG, "N", "accepted: the debug output goes to a file"),
	OPT('p', "period", ARG, "N", "accepted: the single-user mode's period, unused"),
	HELP('h', "help", "print reaim's usage on stdout and exit 1"),
	REFUSED('o', "oneuser", NOARG, NULL, "is not modelled"),
	REFUSED('b', "brief", NOARG, NULL, "is not modelled"),
	REFUSED('v', "verbose", NOARG, NULL, "is not modelled"),
	REFUSED('Z', NULL, ARG, "TOOL", "is not modelled"),
	REFUSED('z', NULL, ARG, "CMD", "is not modelled"),
	{ 0 },
};

const struct bench_opt unixbench_run_opts[] = {
	OPT('i', NULL, ARG, "N", "passes of each test (default 10 for context1)"),
	REPEATED('c', NULL, ARG, "COPIES",
		 "copies run in parallel; repeatable, a run each (default 1 and the CPU count)"),
	REFUSED('q', NULL, NOARG, NULL, "is not modelled (-i N, -c N)"),
	REFUSED('v', NULL, NOARG, NULL, "is not modelled (-i N, -c N)"),
	REFUSED('b', NULL, NOARG, NULL, "is not modelled (-i N, -c N)"),
	{ 0 },
};

const struct bench_opt taskset_opts[] = {
	OPT('a', "all-tasks", NOARG, NULL,
	    "accepted: a command's threads inherit the affinity anyway"),
	OPT('c', "cpu-list", NOARG, NULL, "a CPU list (0,2-5,8-15:2) instead of a hex mask"),
	HELP('h', "help", "print taskset's usage on stdout and exit 0"),
	REFUSED('p', "pid", NOARG, NULL,
		"(an existing pid) is not modelled: there are no pids before the run; give the command after the mask"),
	REFUSED('V', "version", NOARG, NULL, "prints taskset's version and runs no benchmark"),
	{ 0 },
};

const struct bench_opt chrt_opts[] = {
	OPT('a', "all-tasks", NOARG, NULL,
	    "accepted: a command's threads inherit the policy anyway"),
	OPT('b', "batch", NOARG, NULL, "SCHED_BATCH (PRIO 0)"),
	OPT('f', "fifo", NOARG, NULL, "SCHED_FIFO (PRIO 1..99)"),
	OPT('i', "idle", NOARG, NULL, "SCHED_IDLE (PRIO 0)"),
	OPT('o', "other", NOARG, NULL, "SCHED_OTHER (PRIO 0)"),
	OPT('r', "rr", NOARG, NULL, "SCHED_RR (PRIO 1..99), the default"),
	HELP('h', "help", "print chrt's usage on stdout and exit 0"),
	OPT('d', "deadline", NOARG, NULL,
	    "SCHED_DEADLINE (PRIO 0) with -T/-D/-P; without -R the command's first fork() or clone() fails with EAGAIN (sched_fork())"),
	REFUSED('e', "ext", NOARG, NULL, "is not modelled: SCHED_EXT (sched_ext)"),
	OPT('T', "sched-runtime", ARG, "NS",
	    "SCHED_DEADLINE's runtime (default: the deadline); a custom slice for SCHED_OTHER/SCHED_BATCH is not modelled"),
	OPT('P', "sched-period", ARG, "NS", "SCHED_DEADLINE's period"),
	OPT('D', "sched-deadline", ARG, "NS", "SCHED_DEADLINE's deadline (default: the period)"),
	OPT('R', "reset-on-fork", NOARG, NULL,
	    "SCHED_FLAG_RESET_ON_FORK: the command's children start SCHED_OTHER (nice 0 if it was negative)"),
	REFUSED('p', "pid", NOARG, NULL,
		"(an existing pid) is not modelled: there are no pids before the run; give the command after the priority"),
	REFUSED('m', "max", NOARG, NULL, "prints chrt's own information and runs no benchmark"),
	REFUSED('v', "verbose", NOARG, NULL, "prints chrt's own information and runs no benchmark"),
	REFUSED('V', "version", NOARG, NULL, "prints chrt's own information and runs no benchmark"),
	{ 0 },
};

const struct bench_opt nice_opts[] = {
	OPT('n', "adjustment", ARG, "N",
	    "add N to the niceness, clamped to -20..19 (default 10; also -N)"),
	HELP(BOPT_LONG + 0, "help", "print nice's usage on stdout and exit 0"),
	REFUSED(BOPT_LONG + 1, "version", NOARG, NULL,
		"prints nice's version and runs no benchmark"),
	{ 0 },
};

const struct bench_opt perf_stat_prefix_opts[] = {
	OPT('n', "null", NOARG, NULL, "no counters: only the elapsed time"),
	OPT('r', "repeat", ARG, "N", "run the command N times, seeds SEED..SEED+N-1 (default 1)"),
	OPT(BOPT_LONG + 0, "table", NOARG, NULL, "with -r: each run's elapsed time in a table"),
	REPEATED('e', "event", ARG, "LIST",
	    "count these events: task-clock, cpu-clock, context-switches, cpu-migrations, "
	    "sched:* tracepoints (page-faults and hardware events: <not supported>)"),
	OPT('a', "all-cpus", NOARG, NULL, "system-wide: every CPU, idle time included"),
	OPT('C', "cpu", ARG, "LIST", "count on these CPUs only (implies -a)"),
	OPT('x', "field-separator", ARG, "SEP", "CSV output, fields separated by SEP"),
	{ 0 },
};

const struct bench_tool bench_tools[] = {
	{ .name = "hackbench",
	  .aliases = NULL,
	  .summary =
		  "groups of senders spraying messages at receivers over AF_UNIX sockets or pipes",
	  .follows = "rt-tests 2.10 src/hackbench/hackbench.c",
	  .synopsis = "hackbench [OPTIONS]",
	  .opts = hackbench_opts,
	  .notes = NULL },
	{ .name = "perf bench sched messaging",
	  .aliases = NULL,
	  .summary = "hackbench's algorithm as perf bench runs it",
	  .follows = "Linux v6.18 tools/perf/bench/sched-messaging.c",
	  .synopsis = "perf bench sched messaging [OPTIONS]",
	  .opts = messaging_opts,
	  .notes = "20 fds per group and 100-byte messages, fixed" },
	{ .name = "perf bench sched pipe",
	  .aliases = NULL,
	  .summary = "two tasks bouncing a token through two pipes",
	  .follows = "Linux v6.18 tools/perf/bench/sched-pipe.c",
	  .synopsis = "perf bench sched pipe [OPTIONS]",
	  .opts = sched_pipe_opts,
	  .notes = NULL },
	{ .name = "perf bench futex wake",
	  .aliases = NULL,
	  .summary = "threads blocked on one futex, woken N at a time, the time to wake them all",
	  .follows = "Linux v6.18 tools/perf/bench/futex-wake.c",
	  .synopsis = "perf bench [-r N] futex wake [OPTIONS]",
	  .opts = futex_wake_opts,
	  .notes = "perf bench's -r N (default 10) repeats the run" },
	{ .name = "perf bench futex hash",
	  .aliases = NULL,
	  .summary = "threads FUTEX_WAITing on their own futexes with a wrong value: hash lookups and bucket locks per second",
	  .follows = "Linux v6.18 tools/perf/bench/futex-hash.c",
	  .synopsis = "perf bench futex hash [OPTIONS]",
	  .opts = futex_hash_opts,
	  .notes = "perf bench's -r before the collection is accepted and has no effect, as in perf" },
	{ .name = "perf bench futex wake-parallel",
	  .aliases = NULL,
	  .summary = "threads blocked on one futex, woken by parallel waking threads, each one FUTEX_WAKE: their mean latency",
	  .follows = "Linux v6.18 tools/perf/bench/futex-wake-parallel.c",
	  .synopsis = "perf bench [-r N] futex wake-parallel [OPTIONS]",
	  .opts = futex_wake_parallel_opts,
	  .notes = "perf bench's -r N (default 10) repeats the run" },
	{ .name = "perf bench futex requeue",
	  .aliases = NULL,
	  .summary = "threads blocked on one futex, requeued to another N at a time without waking, the time to requeue them all",
	  .follows = "Linux v6.18 tools/perf/bench/futex-requeue.c",
	  .synopsis = "perf bench [-r N] futex requeue [OPTIONS]",
	  .opts = futex_requeue_opts,
	  .notes = "perf bench's -r N (default 10) repeats the run" },
	{ .name = "perf bench futex lock-pi",
	  .aliases = NULL,
	  .summary = "threads taking and releasing a PI futex (FUTEX_LOCK_PI, usleep(1), FUTEX_UNLOCK_PI): pairs per second",
	  .follows = "Linux v6.18 tools/perf/bench/futex-lock-pi.c",
	  .synopsis = "perf bench futex lock-pi [OPTIONS]",
	  .opts = futex_lock_pi_opts,
	  .notes = "perf bench's -r before the collection is accepted and has no effect, as in perf" },
	{ .name = "stress-ng",
	  .aliases = NULL,
	  .summary = "stressors: CPU load, context switches, sched_yield(), pipe I/O, affinity changes",
	  .follows = "stress-ng 0.22.00 stress-cpu.c, stress-switch.c, stress-yield.c, stress-pipe.c, stress-affinity.c",
	  .synopsis = "stress-ng STRESSOR N [STRESSOR N]... [OPTIONS]",
	  .opts = stress_opts,
	  .notes = "a --timeout, or a NAME-ops for each stressor (yield excepted), is needed; each stressor once" },
	{ .name = "ipistorm",
	  .aliases = "insmod",
	  .summary = "kernel threads sending function-call IPIs (the SM_IDLE variant with numipi=)",
	  .follows = "antonblanchard/ipistorm with numipi=",
	  .synopsis = "ipistorm|insmod ipistorm.ko [NAME=VALUE]...",
	  .opts = ipistorm_opts,
	  .notes = "module parameters, NAME=VALUE" },
	{ .name = "schbench-2016",
	  .aliases = NULL,
	  .summary = "message threads waking futex-blocked workers, wakeup latency",
	  .follows = "masoncl/schbench 3d16b23 (2016)",
	  .synopsis = "schbench-2016 [OPTIONS]",
	  .opts = schbench2016_opts,
	  .notes = NULL },
	{ .name = "schbench",
	  .aliases = "./schbench",
	  .summary = "message threads and workers doing requests: wakeup and request latency, RPS",
	  .follows = "masoncl/schbench 24e32b8 (2025)",
	  .synopsis = "schbench [OPTIONS]",
	  .opts = schbench_opts,
	  .notes = NULL },
	{ .name = "rt-app",
	  .aliases = "./rt-app",
	  .summary = "the threads and events of a JSON workload description",
	  .follows = "scheduler-tools/rt-app 55cb0c0",
	  .synopsis = "rt-app [-l LEVEL] FILE.json",
	  .opts = rtapp_opts,
	  .notes = "the file's events but mem, memrun and iorun; not - (stdin)" },
	{ .name = "reaim",
	  .aliases = "./reaim",
	  .summary = "AIM7 users running a workfile's job mix, jobs per minute",
	  .follows = "osdl-aim-7 (davidlohr/areaim 584705b)",
	  .synopsis = "reaim [OPTIONS]",
	  .opts = reaim_opts,
	  .notes = "no -u: N users is -s N -e N" },
	{ .name = "jankbench",
	  .aliases = NULL,
	  .summary = "an Android app's UI thread and RenderThread drawing a frame each vsync: frame durations and jank",
	  .follows = "AOSP frameworks/base/tests/JankBench (its subtests and UiBenchmarkResult's jank rule)",
	  .synopsis = "jankbench [-t LIST] [-f N] [-r HZ]",
	  .opts = jankbench_opts,
	  .notes = "an app, not a command: the command line is schedlab's; the frames' work is estimated (docs/benchmarks.md)" },
	{ .name = "context1",
	  .aliases = NULL,
	  .summary = "UnixBench's pipe-based context switching pair",
	  .follows = "byte-unixbench 6.0.0 UnixBench/src/context1.c",
	  .synopsis = "context1 SECONDS",
	  .opts = NULL,
	  .notes = NULL },
	{ .name = "unixbench",
	  .aliases = "Run ./Run",
	  .summary = "UnixBench's Run script with the context1 test",
	  .follows = "byte-unixbench 6.0.0 UnixBench/Run",
	  .synopsis = "unixbench context1 [-i N] [-c COPIES]...",
	  .opts = unixbench_run_opts,
	  .notes = "tests other than context1 are refused" },
	{ .name = "perf stat",
	  .aliases = NULL,
	  .summary = "count the command's software events and sched tracepoints; -r: mean and spread",
	  .follows = "Linux v6.18 tools/perf/builtin-stat.c",
	  .synopsis = "perf stat [OPTIONS] [--] COMMAND...",
	  .opts = perf_stat_prefix_opts,
	  .notes = "the outermost command of run only",
	  .prefix = true },
	{ .name = "taskset",
	  .aliases = NULL,
	  .summary = "run the command on a set of CPUs",
	  .follows = "util-linux 2.42.2 schedutils/taskset.c",
	  .synopsis = "taskset [OPTIONS] MASK|LIST COMMAND...",
	  .opts = taskset_opts,
	  .notes = NULL,
	  .prefix = true },
	{ .name = "chrt",
	  .aliases = NULL,
	  .summary = "run the command under a scheduling policy",
	  .follows = "util-linux 2.42.2 schedutils/chrt.c",
	  .synopsis = "chrt [OPTIONS] PRIO COMMAND...",
	  .opts = chrt_opts,
	  .notes = NULL,
	  .prefix = true },
	{ .name = "nice",
	  .aliases = NULL,
	  .summary = "run the command at another niceness",
	  .follows = "coreutils 9.1 src/nice.c",
	  .synopsis = "nice [-n N|--adjustment=N|-N] COMMAND...",
	  .opts = nice_opts,
	  .notes = NULL,
	  .prefix = true },
};

const unsigned int nr_bench_tools = sizeof(bench_tools) / sizeof(bench_tools[0]);
