// SPDX-License-Identifier: GPL-2.0-only
/* schedlab: the Linux scheduler on a simulated machine. */
#include "cli/cli.h"

#include "cli/quote.h"
#include "report/outfile.h"
#include "report/version.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "run a benchmark command line on a simulated machine" },
	{ "ab", cmd_ab, "compare two feature sets over seeded runs, with confidence intervals" },
	{ "study", cmd_study, "run a packaged before/after study and print its tables" },
	{ "sweep", cmd_sweep, "run a grid of points (here, with GNU parallel or Slurm), collect a table" },
	{ "machines", cmd_machines, "list the machine presets" },
	{ "topo", cmd_topo, "print a machine's topology" },
	{ "features", cmd_features, "list the scheduler features and their defaults" },
	{ "benchmarks", cmd_benchmarks, "list the modelled benchmark command lines and their options" },
	{ "calibrate", cmd_calibrate, "measure this machine's costs, write a cost profile for --costs" },
	{ "validate", cmd_validate, "run real benchmarks here and the same simulated on -m host, side by side" },
	{ "perf", cmd_perf, "perf sched latency|timehist|map of a 'run -- perf sched record' capture" },
};

int usage_error(const char *fmt, ...)
{
	va_list ap;

	/* the message may quote user text: escaped, so it stays one plain line */
	va_start(ap, fmt);
	cli_vmessage(fmt, ap);
	va_end(ap);
	return EXIT_BAD_INPUT;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: schedlab COMMAND [OPTIONS]\n       schedlab help [COMMAND]\n"
		     "       schedlab --version\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n'schedlab COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("missing command (see 'schedlab --help')");
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* git's convention: 'schedlab help run' is 'schedlab run --help' */
		char *help_argv[] = { argv[2], "--help", NULL };

		if (argc > 3)
			return usage_error("help takes one command, got '%s' too", argv[3]);
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name)) {
				int rc = commands[i].fn(2, help_argv);

				return outfile_check_stdout() && !rc ? 1 : rc;
			}
		return usage_error("help: unknown command '%s' (see 'schedlab --help')", argv[2]);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return outfile_check_stdout() ? 1 : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		if (argc > 2)
			return usage_error("%s takes no arguments, got '%s'", argv[1], argv[2]);
		printf("schedlab %s (commit %s)\n", schedlab_version, schedlab_commit);
		return outfile_check_stdout() ? 1 : 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			int rc = commands[i].fn(argc - 1, argv + 1);

			/* output that never arrived is a failure (> /dev/full, a closed pipe) */
			if (outfile_check_stdout() && !rc)
				rc = 1;
			return rc;
		}
	return usage_error("unknown command '%s' (see 'schedlab --help')", argv[1]);
}
