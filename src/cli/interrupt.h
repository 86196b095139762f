/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SIGINT and SIGTERM during run, ab and study: the handler only records the
 * signal and asks the simulator to stop (sim_interrupted); the command then
 * stops its runs (the pool kills and reaps its children), removes the
 * temporaries of its outputs and exits 128 + the signal (130, 143).
 * docs/reliability.md, "Outputs and signals".
 */
#ifndef SCHEDLAB_CLI_INTERRUPT_H
#define SCHEDLAB_CLI_INTERRUPT_H

#include <signal.h>

/* the signal that arrived, 0 if none */
extern volatile sig_atomic_t interrupt_signal;

/* Catch SIGINT and SIGTERM (without SA_RESTART: a blocked wait returns EINTR). */
void interrupt_install(void);
/* In a child of the pool: the default actions back, so a kill ends it. */
void interrupt_default(void);
/* One line on stderr saying what stopped @cmd; returns the exit status, 128 + the signal. */
int interrupt_exit(const char *cmd);
/* The same, saying @what was (not) written instead of "no output written" (sweep). */
int interrupt_exit_saying(const char *cmd, const char *what);

#endif
