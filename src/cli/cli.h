/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Subcommands. Each returns the process exit status: 0 success, 2 bad input
 * (with one message on stderr naming what is wrong), 1 internal failure.
 */
#ifndef SCHEDLAB_CLI_CLI_H
#define SCHEDLAB_CLI_CLI_H

#define EXIT_BAD_INPUT 2

int cmd_run(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_machines(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_features(int argc, char **argv);
int cmd_benchmarks(int argc, char **argv);
int cmd_perf(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/* Print "schedlab: <message>" to stderr and return EXIT_BAD_INPUT. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
