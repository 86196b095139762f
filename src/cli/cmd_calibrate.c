// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab calibrate [-o FILE] [--quick]
 *
 * Measure this machine's kernel-path costs with microbenchmarks and write
 * them as a cost profile (the [costs] section of a machine file), for
 * --costs FILE. docs/calibration.md.
 */
#include "cli/cli.h"

#include "calib/calib.h"
#include "cli/quote.h"
#include "report/outfile.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

#define CALIB_TRIALS 9
#define CALIB_QUICK_TRIALS 5

static const char calibrate_usage[] =
	"usage: schedlab calibrate [-o FILE] [--quick]\n"
	"\n"
	"Measure this machine's costs (syscall, pipe and unix-socket messages, context\n"
	"switches, futexes, fork, exit, thread creation, cache-line transfers and wakeups\n"
	"for each CPU distance it has, idle exit, SMT) with microbenchmarks, and write a\n"
	"cost profile: commented 'name = value' lines under [costs], for --costs FILE.\n"
	"Progress and a warning when the machine is busy go to standard error.\n"
	"\n"
	"  -o, --output FILE    write the profile to FILE (default: standard output)\n"
	"  --quick              fewer iterations and trials (well under a minute)\n";

int cmd_calibrate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct calib_result res;
	struct calib_run r = { .trials = CALIB_TRIALS, .log = stderr };
	const char *out = "-";
	char err[512];
	FILE *f;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'Q':
			r.quick = true;
			r.trials = CALIB_QUICK_TRIALS;
			break;
		case 'h':
			fputs(calibrate_usage, stdout);
			return 0;
		case ':':
			return usage_error("calibrate: option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error(
				"calibrate: unknown option '%s' (see 'schedlab calibrate --help')",
				argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("calibrate: unexpected argument '%s'", argv[optind]);
	f = outfile_open(out);
	if (!f) {
		cli_message("calibrate: cannot write '%s': %s", out, strerror(errno));
		return EXIT_BAD_INPUT;
	}
	memset(&res, 0, sizeof(res));
	calib_host_sample(&res.host, false);
	fprintf(stderr, "calibrate: %s, %d CPUs, %s; %d trials per measurement%s\n", res.host.cpu,
		res.host.nr_cpus, res.host.virt, r.trials, r.quick ? " (--quick)" : "");
	if (calib_measure(&r, &res, err, sizeof(err))) {
		cli_message("calibrate: a microbenchmark failed: %s", err);
		outfile_discard();
		return 1;
	}
	calib_host_sample(&res.host, true);
	if (res.host.busy)
		cli_message(
			"calibrate: warning: the machine is busy (%s): the values are disturbed, "
			"and the profile says so",
			res.host.busy_why);
	calib_write_profile(f, &res, &r);
	if (outfile_close(f) || outfile_commit())
		return 1;
	if (strcmp(out, "-"))
		fprintf(stderr, "calibrate: wrote %s\n", out);
	return 0;
}
