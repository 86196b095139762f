/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The progress line on stderr for long runs: simulated time, how much of
 * the benchmark is done, events per second and the time left. Only when
 * stderr is a terminal, and only once a run has taken a second.
 */
#ifndef SCHEDLAB_CLI_PROGRESS_H
#define SCHEDLAB_CLI_PROGRESS_H

struct bench;

/*
 * Arm the progress line for @b's run (after the machine is set up): run
 * @run (0-based) of @runs (perf stat -r N: each run is one Nth of the
 * whole, and the line says which; 1 otherwise).
 */
void progress_start(const struct bench *b, int run, int runs);
/* Clear the line if one was printed. */
void progress_end(void);

/* For ab and study: "K of N runs done", under the same terminal-only rule. */
void progress_runs_start(int total);
void progress_runs_update(int done);
void progress_runs_end(void);

#endif
