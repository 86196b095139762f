/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Many independent runs (ab's and study's seeds x feature sets), in up to
 * `jobs` child processes at once. The simulator's state is global, so each
 * run gets a process of its own; a child sends back a fixed-size record of
 * what the run measured. Records come back indexed by run, so the output
 * does not depend on the number of jobs or on which child ends first.
 */
#ifndef SCHEDLAB_CLI_RUNPOOL_H
#define SCHEDLAB_CLI_RUNPOOL_H

#include "cli/session.h"
#include "report/compare.h"

/*
 * The most runs one `ab` or `study` may plan: each takes a session_config
 * and a run_record (about 1.5 KB together, so 150 MB at the limit) and a
 * process; at 50 ms a run the limit is more than an hour on one CPU.
 * docs/ab-and-studies.md.
 */
#define RUN_POOL_MAX_RUNS 100000

/*
 * The product of @factors[0..nr) (machines x workloads x variants x runs):
 * 0 with it in @total, or -1 if it is larger than RUN_POOL_MAX_RUNS (an
 * overflow included; @total is then SIZE_MAX if the product overflows size_t).
 */
int run_pool_count(const size_t *factors, int nr, size_t *total);

/*
 * The names of the values run_record_fill() will report for @cfg (the
 * benchmark's metrics, the sched.* rows, the --funclatency means), set up
 * without running, into @names[0..max): how many, or -1 with a message.
 */
int run_record_names(const struct session_config *cfg, char (*names)[RUN_VALUE_NAME], int max,
		     char *err, size_t errlen);

/* Run to the end (with --check's invariants if @check) and fill @rec. */
void run_record_fill(struct session *s, bool check, struct run_record *rec);

/* The exit status of a run the invariant checker stopped (src/kernel/check.c, --check). */
#define EXIT_CHECK_FAILED 3

/*
 * Run @n configurations, @jobs at a time (one child process each, -j 1
 * included), into @recs[0..n-1]. Inputs were checked beforehand
 * (session_check on each distinct setting). 0, or the command's exit
 * status: EXIT_CHECK_FAILED if the run reported failed the invariant check,
 * 1 for any other failure. Then @err says what happened ("failed the
 * invariant check (--check)", "died of signal 11 (...)") and @failed is the
 * index of the failed run (the lowest, if several failed), or -1 if the
 * pool itself failed (fork, pipe; @err names the call).
 */
int run_pool(const struct session_config *cfgs, int n, int jobs, bool check,
	     struct run_record *recs, int *failed, char *err, size_t errlen);

/*
 * A run ended: @rc as run_pool() would return it for that run alone, @what
 * the failure (when @rc is not 0), @rec what it measured (when @rc is 0).
 */
typedef void (*run_pool_done_fn)(int idx, int rc, const char *what,
				 const struct run_record *rec, void *arg);

/*
 * run_pool(), telling @done_fn (in this process) about each run as it ends,
 * so a caller can keep each result at once (sweep's points). A failure does
 * not stop new starts: every run is tried; the return value and @failed are
 * as run_pool()'s. An interrupt still ends the runs under way.
 */
int run_pool_each(const struct session_config *cfgs, int n, int jobs, bool check,
		  run_pool_done_fn done_fn, void *arg, struct run_record *recs, int *failed,
		  char *err, size_t errlen);

/*
 * A child run's wait @status as the command's exit status: 0 for a clean
 * exit, EXIT_CHECK_FAILED for the checker's, 1 for anything else (another
 * exit status, a signal); for a failure, what happened in @what.
 */
int run_pool_exit_status(int status, char *what, size_t len);

/* The CPUs this process may run on: the default for --jobs. */
int run_pool_default_jobs(void);

#endif
