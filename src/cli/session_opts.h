/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options that set up a simulated run, shared by `run`, `ab` and
 * `study`: machine, seed, costs, tunables, traced functions, preemption
 * model, HZ and the invariant checker.
 */
#ifndef SCHEDLAB_CLI_SESSION_OPTS_H
#define SCHEDLAB_CLI_SESSION_OPTS_H

#include "cli/session.h"

#include <getopt.h>

#define SESSION_MAX_REPEATS 256	/* room for every cost parameter given once (topo --costs) */

struct session_opts {
	const char *machine;
	u64 seed;
	bool check;
	unsigned int hz;
	const char *cpufreq;			/* --cpufreq GOVERNOR[:KHZ] */
	const char *guest;			/* --guest SPEC (docs/guests.md) */
	const char *cpuidle;			/* --cpuidle GOVERNOR */
	const struct cost_profile *profile;	/* --costs FILE */
	const char *costs[SESSION_MAX_REPEATS];	/* --cost NAME=NS, in order */
	int nr_costs;
	const char *sysctls[SESSION_MAX_REPEATS]; /* --sysctl NAME=VALUE, in order */
	int nr_sysctls;
	const char *idle_states[SESSION_MAX_REPEATS]; /* --idle-states SPEC, in order */
	int nr_idle_states;
	const char *funclatency;
	bool probe_overhead;			/* --probe-overhead on */
	const char *preempt;
	const char *also[SESSION_MAX_ALSO];	/* --also COMMAND, in order */
	int nr_also;
};

/* their getopt_long entries; the values are the option codes session_opt() takes */
#define SESSION_LONG_OPTIONS                                                                \
	{ "machine", required_argument, NULL, 'm' }, { "seed", required_argument, NULL, 's' }, \
	{ "check", no_argument, NULL, 'c' },	     { "cost", required_argument, NULL, 'C' },  \
	{ "hz", required_argument, NULL, 'H' },	     { "sysctl", required_argument, NULL, 'Y' },\
	{ "funclatency", required_argument, NULL, 'L' },                                       \
	{ "probe-overhead", required_argument, NULL, 'O' },                                    \
	{ "preempt", required_argument, NULL, 'P' },                                           \
	{ "also", required_argument, NULL, 'A' },                                              \
	{ "idle-states", required_argument, NULL, 'I' },                                       \
	{ "cpufreq", required_argument, NULL, 'G' },                                           \
	{ "cpuidle", required_argument, NULL, 'Z' },                                           \
	{ "costs", required_argument, NULL, 'K' },                                             \
	{ "guest", required_argument, NULL, 'g' }

/* the usage lines for them */
#define SESSION_OPTIONS_HELP                                                                  \
	"  -m, --machine NAME   machine preset (see 'schedlab machines'), default " DEFAULT_MACHINE ","  \
	"\n"                                                                                   \
	"                       or 'synthetic:pack:N numa:N l3:N core:N pu:N' (hwloc's syntax),\n" \
	"                       a machine file (a path with a '/' or ending in .machine;\n" \
	"                       'schedlab machines --export' writes one), hwloc XML\n"     \
	"                       ('hwloc:FILE.xml' or a path ending in .xml), or a copy of\n" \
	"                       another machine's /sys/devices/system ('sysfs:DIR')\n"      \
	"  --check              validate scheduler invariants after every event\n"             \
	"  --costs FILE         a cost profile ('schedlab calibrate' writes one) over the\n"   \
	"                       machine's costs, below --cost (docs/calibration.md)\n"          \
	"  --cost NAME=NS       override a cost-model parameter (see docs/cost-model.md)\n"    \
	"  --sysctl NAME=VALUE  set a scheduler tunable (base_slice_ns, migration_cost_ns, ...)\n" \
	"  --funclatency '[-u|-m] [-F] [-T] [-r] [-i S] [-d S] PATTERN'  bcc funclatency's log2\n" \
	"                       histograms of the simulated time per call of kernel functions\n" \
	"  --probe-overhead on|off  charge bcc funclatency's kprobe+kretprobe cost on every traced\n" \
	"                       call and print the figure with it beside the raw one (default off)\n" \
	"  --preempt MODEL      none, voluntary, full or lazy (default: the machine's or voluntary)\n" \
	"  --hz N               CONFIG_HZ of the simulated kernel (default: the machine's)\n"   \
	"  --cpufreq GOVERNOR   performance, powersave, userspace:KHZ, schedutil, ondemand or\n" \
	"                       conservative (default: the machine's, as topo shows it;\n"     \
	"                       docs/cpufreq.md; tunables and limits:\n"                       \
	"                       --sysctl schedutil_rate_limit_us=N, up_threshold=N, ...,\n"   \
	"                       scaling_min_freq=KHZ, scaling_max_freq=KHZ)\n"                \
	"  --guest SPEC         run the machine as a KVM guest: kvm[:hlt|:haltpoll][,ipiv]\n" \
	"                       [,steal=PCT[:PERIOD_US]][,guest_halt_poll_ns=NS][,host_*=V]\n"   \
	"                       [,guest_halt_flush_ns=NS], as a machine file's [guest]; none:\n" \
	"                       bare metal (docs/guests.md)\n"                                \
	"  --idle-states SPEC   disable=STATE[,STATE...], enable=... or max=STATE, each with an\n" \
	"                       optional @CPUS: cpuidle's stateK/disable, intel_idle.max_cstate=\n" \
	"  --cpuidle GOVERNOR   the idle governor: menu (default), teo, or avg (schedlab's own)\n" \
	"                       (cpuidle.governor=; docs/wakelist-and-idle.md)\n" \
	"  --also 'COMMAND'     a background workload (any COMMAND below) started with the\n"  \
	"                       benchmark and stopped when it ends; repeatable, up to 16\n"

/* the benchmark command lines schedlab models */
#define BENCH_COMMANDS_HELP                                                             \
	"COMMAND: hackbench ..., perf bench sched messaging|pipe ...,\n" \
	"         perf bench futex wake|wake-parallel|requeue|hash|lock-pi ...,\n" \
	"         stress-ng --cpu|--switch|--yield|--pipe|--affinity N ...,\n" \
	"         ipistorm key=value ..., context1 SECONDS, unixbench context1 [-i N] [-c N]...,\n" \
	"         schbench-2016 [-m N] [-t N] [-r S] [-s US] [-c US],\n" \
	"         schbench [-m N] [-t N] [-r S] [-F KB] [-n N] [-s US] [-i S] [-L] [-p BYTES],\n" \
	"         rt-app [-l LEVEL] FILE.json (examples/),\n" \
	"         reaim [-s N] [-e N] [-i N] [-j N] [-f WORKFILE] [-c CONFIG] [-x|-q|-g] [-t] [-r N] [-y],\n" \
	"         jankbench [-t LIST] [-f N] [-r HZ];\n" \
	"         any of them after taskset [-a] [-c] MASK|LIST,\n" \
	"         chrt [-f|-r|-b|-i|-o|-d] [-R] [-T NS] [-D NS] [-P NS] PRIO\n" \
	"         (SCHED_FIFO/RR 1..99, BATCH/IDLE/OTHER/DEADLINE 0; default -r) and nice [-n N]\n" \
	"         (default 10), in any order; 'schedlab benchmarks' lists them and their options\n"

#define DEFAULT_MACHINE "xeon-8269cy-2s"
#define DEFAULT_SEED 1

void session_opts_init(struct session_opts *o);
/*
 * Take option @c (a getopt code) with value @arg for command @cmd. 0 if it
 * was one of these, 1 if not, EXIT_BAD_INPUT (message printed) for a bad value.
 */
int session_opt(const char *cmd, int c, const char *arg, struct session_opts *o);
/* Parse a seed-like non-negative integer; 0, or EXIT_BAD_INPUT with a message. */
int parse_u64_opt(const char *cmd, const char *opt, const char *arg, u64 *out);
/* The session configuration for the benchmark command line @argc/@argv. */
void session_opts_config(const struct session_opts *o, const char *features, int argc,
			 char **argv, struct session_config *cfg);

#endif
