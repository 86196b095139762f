// SPDX-License-Identifier: GPL-2.0-only
#include "cli/compare_opts.h"

#include "cli/cli.h"
#include "cli/interrupt.h"
#include "cli/quote.h"
#include "cli/runpool.h"
#include "cli/session_opts.h"
#include "report/outfile.h"
#include "report/plot_dir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define COMPARE_MAX_JOBS 1024

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->conf = 0.95;
}

int compare_opt(const char *cmd, int c, const char *arg, struct compare_opts *o)
{
	char *end;
	double pct;

	switch (c) {
	case 'n':
		if (parse_u64_opt(cmd, "--runs", arg, &o->runs))
			return EXIT_BAD_INPUT;
		if (o->runs < COMPARE_MIN_RUNS || o->runs > COMPARE_MAX_RUNS)
			return usage_error("%s: --runs must be %d to %d (an interval needs two runs per side), got '%s'",
					   cmd, COMPARE_MIN_RUNS, COMPARE_MAX_RUNS, arg);
		return 0;
	case 'j':
		if (parse_u64_opt(cmd, "--jobs", arg, &o->jobs))
			return EXIT_BAD_INPUT;
		if (o->jobs < 1 || o->jobs > COMPARE_MAX_JOBS)
			return usage_error("%s: --jobs must be 1 to %d, got '%s'", cmd,
					   COMPARE_MAX_JOBS, arg);
		return 0;
	case 'q':
		errno = 0;
		pct = strtod(arg, &end);
		if (!*arg || *end || errno ||
		    !(pct >= COMPARE_MIN_CONFIDENCE && pct <= COMPARE_MAX_CONFIDENCE))
			return usage_error("%s: --confidence needs a percentage from %g to %g, got '%s'",
					   cmd, COMPARE_MIN_CONFIDENCE, COMPARE_MAX_CONFIDENCE, arg);
		o->conf = pct / 100;
		return 0;
	case 'J':
		o->json = arg;
		return 0;
	case 'p':
		o->plot = arg;
		return 0;
	}
	return 1;
}

int compare_outputs_open(const char *cmd, struct compare_opts *o)
{
	char err[512];

	if (!o->jobs)
		o->jobs = (u64)run_pool_default_jobs();
	if (o->json && o->plot && outfile_same(o->json, o->plot))
		return usage_error("%s: --json and --plot name the same file '%s'", cmd, o->plot);
	if (o->plot && plot_dir_prepare(o->plot, err, sizeof(err)))
		return usage_error("%s: %s", cmd, err);
	interrupt_install();
	/* a temporary until compare_outputs_write() commits it (report/outfile.h) */
	if (o->json && !(o->json_file = outfile_open(o->json)))
		return usage_error("%s: cannot write --json file '%s': %s", cmd, o->json,
				   strerror(errno));
	return 0;
}

int compare_outputs_write(const char *cmd, struct compare_opts *o, const struct comparison *cmp)
{
	char err[512];
	int rc = 0;

	if (o->json_file) {
		if (cmp_write_json(o->json_file, cmp) || outfile_close(o->json_file)) {
			cli_message("writing '%s' failed", o->json);
			rc = 1;
		}
		o->json_file = NULL;
	}
	if (o->plot && cmp_plot(o->plot, cmp, err, sizeof(err))) {
		cli_message("%s: %s", cmd, err);
		rc = 1;
	}
	/* every output complete, standard output included, or none */
	if (!rc && outfile_check_stdout())
		rc = 1;
	if (!rc && interrupt_signal)
		rc = interrupt_exit(cmd);
	if (rc || outfile_commit()) {
		outfile_discard();
		return rc ? rc : 1;
	}
	if (o->plot && plot_dir_render(o->plot, "plots.gp"))
		return 1;
	return 0;
}

void compare_outputs_close(struct compare_opts *o)
{
	o->json_file = NULL;
	outfile_discard();
}
