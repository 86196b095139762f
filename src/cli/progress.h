/* SPDX-License-Identifier: MIT */
/*
 * The progress line on stderr for long runs: simulated time, how much of
 * the benchmark is done, events per second and the time left. Only when
 * stderr is a terminal, and only once a run has taken a second.
 */
#ifndef SCHEDLAB_CLI_PROGRESS_H
#define SCHEDLAB_CLI_PROGRESS_H

struct bench;

/* Arm the progress line for @b's run (after the machine is set up). */
void progress_start(const struct bench *b);
/* Clear the line if one was printed. */
void progress_end(void);

#endif
