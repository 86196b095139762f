/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulated time per call of selected kernel functions, for
 * `--funclatency '[OPTIONS] PATTERN'` (bcc funclatency's log2 histograms):
 * the value is funclatency's own command line, -u, -m, -F, -T, -r, -i and
 * -d as bcc's tools/funclatency.py takes them; the pattern is a function
 * name, a '*' glob, a regular expression with -r, or (schedlab's) a
 * comma-separated list of them.
 *
 * With -i (or -d), the calls are also kept per interval of simulated time
 * since the machine started, by the time they returned, for the summary
 * funclatency prints every interval; -d ends the tracing where bcc's would
 * (the first interval end at or after the duration).
 *
 * A traced function reads the running CPU's cursor on entry and exit: the
 * difference is the simulated time it took, costs it charged and lock spins
 * included. Untraced functions pay one predictable branch.
 *
 * With --probe-overhead on (funclat_probe_overhead), each call of a traced
 * function also pays what bcc funclatency's kprobe and kretprobe cost on
 * that machine (cost model: probe_entry, probe_return, bpf_map_op), as CPU
 * time on the calling CPU: the entry part before the function's body, the
 * return part after it, so the function takes longer and everything after
 * it moves, as under bcc. bcc's timestamps are taken inside its programs
 * (bpf_ktime_get_ns()), so part of that time falls inside the interval bcc
 * measures (FUNCLAT_PROBE_IN_INTERVAL, docs/observability.md):
 *
 *   probe_entry   kprobe hit, kretprobe hijack, entry program to its
 *                 timestamp                              outside (before)
 *   bpf_map_op    entry program: start.update()          inside
 *   (the function's body: the raw figure)
 *   probe_return  return trampoline + dispatch, return program to its
 *                 timestamp                              inside
 *   bpf_map_op    return program: start.lookup()         inside
 *   2 bpf_map_op  start.delete(), the avg and histogram
 *                 increments (three array ops, one op's worth together)
 *                                                        outside (after)
 */
#ifndef SCHEDLAB_KERNEL_FUNCLAT_H
#define SCHEDLAB_KERNEL_FUNCLAT_H

#include "sim/machine.h"

/* the functions that can be traced: the kernel's names */
#define FUNCLAT_FUNCS(F)          \
	F(__schedule)             \
	F(try_to_wake_up)         \
	F(select_task_rq_fair)    \
	F(sched_tick)             \
	F(should_we_balance)      \
	F(sched_balance_rq)       \
	F(sched_balance_newidle)  \
	F(sched_balance_domains)

enum funclat_id {
#define FL_ENUM(name) FL_##name,
	FUNCLAT_FUNCS(FL_ENUM)
#undef FL_ENUM
	NR_FUNCLAT,
};

#define FUNCLAT_BUCKETS 65

/* what one function's calls came to, over the run or one interval */
struct funclat_sum {
	u64 calls;
	u64 total_ns;
	u64 probe_ns;			/* --probe-overhead: probe time inside the intervals */
	u64 hist[FUNCLAT_BUCKETS];	/* bcc's bpf_log2l() buckets, of the time in -u/-m units */
};

struct funclat {
	bool enabled;
	/* the whole traced run: struct funclat_sum's members */
	u64 calls;
	u64 total_ns;
	u64 probe_ns;
	u64 hist[FUNCLAT_BUCKETS];
};

/* funclatency's command line */
struct funclat_opts {
	u64 interval_ns;		/* -i: a summary every interval; 0: one, at the end */
	u64 duration_ns;		/* -d: trace this long; 0: to the end of the run */
	u64 until_ns;			/* tracing stops here (-d), else UINT64_MAX */
	u64 unit_ns;			/* 1, -u 1000, -m 1000000 */
	const char *unit;		/* "nsecs", "usecs", "msecs" */
	bool per_function;		/* -F: a histogram per function */
	bool timestamp;			/* -T: the time above each summary */
	bool regexp;			/* -r */
	unsigned int matched;		/* functions the pattern matched */
	char pattern[128];		/* as given */
};

extern struct funclat funclat[NR_FUNCLAT];
extern struct funclat_opts funclat_opts;
/* --probe-overhead on: traced calls pay bcc's kprobe + kretprobe cost */
extern bool funclat_probe_overhead;
extern const char *const funclat_names[NR_FUNCLAT];

/* Disable all and clear the counters (and free the intervals). */
void funclat_reset(void);
/*
 * Parse funclatency's command line @spec and enable what its pattern
 * matches; 0, or -1 with a one-line message in @err.
 */
int funclat_enable(const char *spec, char *err, size_t errlen);
/* a traced call of @id took @ns and returns now */
void funclat_record(enum funclat_id id, u64 ns);
/* bcc's bpf_log2l(): the histogram bucket of @v */
unsigned int funclat_log2l(u64 v);
/*
 * The intervals that had calls, in time order: the @i-th's index
 * (time / interval) in @k and @id's figures in it. NULL past the last.
 */
const struct funclat_sum *funclat_interval(size_t i, enum funclat_id id, u64 *k);

/* the probe time per call that falls inside bcc's measured interval */
static inline u64 funclat_probe_in_interval(const struct cost_model *c)
{
	return c->bpf_map_op + c->probe_return + c->bpf_map_op;
}

/* the whole probe time per call */
static inline u64 funclat_probe_per_call(const struct cost_model *c)
{
	return c->probe_entry + c->probe_return + 4 * c->bpf_map_op;
}

void funclat_probe_entry(void);

static inline u64 funclat_entry(enum funclat_id id)
{
	if (unlikely(funclat[id].enabled) && funclat_probe_overhead)
		funclat_probe_entry();
	return cpu_now();
}

static inline void funclat_exit(enum funclat_id id, u64 t0)
{
	if (unlikely(funclat[id].enabled))
		funclat_record(id, cpu_now() - t0);
}

#endif
