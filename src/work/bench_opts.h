/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The modelled tools and their options, as tables: each tool's parser
 * builds its getopt_long() tables from its options here, and `schedlab
 * benchmarks` lists the same entries, so what is accepted, what each option
 * does in the model and what is refused (and why) cannot drift apart.
 */
#ifndef SCHEDLAB_WORK_BENCH_OPTS_H
#define SCHEDLAB_WORK_BENCH_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

/* getopt_long() codes of long-only options start here */
#define BOPT_LONG 256

enum bench_opt_flags {
	BOPT_HELP = 1 << 0, /* asks for the tool's usage (work/bench_usage.c) */
	BOPT_REPEAT = 1 << 1, /* may be given more than once */
	BOPT_PARAM = 1 << 2, /* a NAME=VALUE parameter (a module's), not an option */
};

/* One option of a modelled tool, spelt as the real tool spells it. */
struct bench_opt {
	int code; /* getopt_long()'s return: the short letter, or BOPT_LONG + n */
	const char *long_name; /* NULL: short only */
	int has_arg; /* no_argument, required_argument or optional_argument */
	const char *arg; /* the value's name in listings ("N", "BYTES") */
	const char *help; /* what it does in the model (and the tool's default) */
	/*
	 * NULL: modelled. Else the rest of the one-line refusal after the
	 * option's name, "is not modelled: ..." (bench_opt_refuse()).
	 */
	const char *refused;
	unsigned int flags;
};

/* A modelled command line: a benchmark, or a prefix (taskset, chrt, ...). */
struct bench_tool {
	const char *name; /* as typed: "hackbench", "perf bench sched messaging" */
	const char *aliases; /* the other spellings, blank separated, or NULL */
	const char *summary; /* what it is, one line */
	const char *follows; /* the source the model follows */
	const char *synopsis; /* its command line: options and operands */
	/* the options; NULL for a tool without getopt-style options */
	const struct bench_opt *opts;
	const char *notes; /* what the table cannot say, or NULL */
	bool prefix; /* runs the command that follows it */
};

extern const struct bench_tool bench_tools[];
extern const unsigned int nr_bench_tools;

/* each tool's options, the tables its parser uses */
extern const struct bench_opt hackbench_opts[];
extern const struct bench_opt messaging_opts[];
extern const struct bench_opt futex_wake_opts[];
extern const struct bench_opt futex_hash_opts[];
extern const struct bench_opt futex_requeue_opts[];
extern const struct bench_opt futex_lock_pi_opts[];
extern const struct bench_opt futex_wake_parallel_opts[];
extern const struct bench_opt sched_pipe_opts[];
extern const struct bench_opt stress_opts[];
extern const struct bench_opt ipistorm_opts[];
extern const struct bench_opt schbench2016_opts[];
extern const struct bench_opt schbench_opts[];
extern const struct bench_opt rtapp_opts[];
extern const struct bench_opt reaim_opts[];
extern const struct bench_opt jankbench_opts[];
extern const struct bench_opt unixbench_run_opts[];
extern const struct bench_opt taskset_opts[];
extern const struct bench_opt chrt_opts[];
extern const struct bench_opt nice_opts[];
extern const struct bench_opt perf_stat_prefix_opts[];

#define BENCH_MAX_OPTS 128

/* getopt_long()'s tables for one tool's options */
struct bench_getopt {
	char shortopts[3 * BENCH_MAX_OPTS + 4];
	struct option longopts[BENCH_MAX_OPTS + 1];
};

/*
 * Fill @g from @opts (ended by a zero code): @prefix starts the short
 * option string ("+" to stop at the first operand, "+:" to also report a
 * missing value as ':').
 */
void bench_getopt_init(struct bench_getopt *g, const struct bench_opt *opts, const char *prefix);
/* The entry of @opts with getopt code @code, or NULL. */
const struct bench_opt *bench_opt_find(const struct bench_opt *opts, int code);
/* The entry of @opts whose long name is @name, or NULL. */
const struct bench_opt *bench_opt_find_long(const struct bench_opt *opts, const char *name);
/* "-p", or "--split" for a long-only option, into @buf. */
const char *bench_opt_name(const struct bench_opt *o, char *buf, size_t len);
/* "-p, --pipe" (and " N" for a value) for listings, into @buf. */
const char *bench_opt_spelling(const struct bench_opt *o, char *buf, size_t len);
/* "TOOL: -X is not modelled: WHY" into @err; returns -1. */
int bench_opt_refuse(const char *tool, const struct bench_opt *o, char *err, size_t errlen);
/*
 * getopt_long()'s @c is one of @opts that is refused or the tool's help:
 * -1 with the message (for help, the tool's usage recorded: work/
 * bench_usage.h); 0 for any other. argv[optind - 1] is the option.
 */
int bench_opt_special(const char *tool, const struct bench_opt *opts, int c, int argc, char **argv,
		      char *err, size_t errlen);
/* The tool typed as @argv[0] (and the words after it for perf), or NULL. */
const struct bench_tool *bench_tool_find(const char *name);

#endif
