// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab ab [--base LIST] [--test LIST] [--runs N] ... -- COMMAND...
 *
 * Runs the benchmark with the base and the test feature lists on the same
 * seeds and prints, per metric, both means with their confidence intervals,
 * the change and its interval, and a verdict. docs/ab-and-studies.md.
 */
#include "cli/cli.h"
#include "cli/interrupt.h"

#include "cli/compare_opts.h"
#include "cli/perf_stat_opts.h"
#include "cli/quote.h"
#include "cli/runpool.h"
#include "cli/session_opts.h"
#include "report/compare.h"
#include "sim/alloc.h"

#include <stdlib.h>
#include <string.h>

#define AB_DEFAULT_RUNS 5

/* both sides at the most runs fit the pool */
_Static_assert(2 * COMPARE_MAX_RUNS <= RUN_POOL_MAX_RUNS, "ab's runs exceed RUN_POOL_MAX_RUNS");

static const char ab_usage[] =
	"usage: schedlab ab [-m MACHINE] [--base LIST] [--test LIST] [--runs N] [--seed N]\n"
	"                   [-j N] [--confidence PCT] [--metric NAME]... [--json FILE]\n"
	"                   [--plot DIR] [run's session options] -- COMMAND...\n"
	"\n"
	"  --base LIST          feature list of the base side, as for run --features ('' = defaults)\n"
	"  --test LIST          feature list of the test side\n"
	"  --runs N             runs per side, seeds S..S+N-1 (default 5, at least 2)\n"
	"  --seed S             the first seed (default 1)\n"
	COMPARE_OPTIONS_HELP
	"  --metric NAME        show only these metrics, in this order (repeatable)\n"
	"  --plot DIR           bars of the means relative to base, CDFs over the runs\n"
	SESSION_OPTIONS_HELP
	"\n" BENCH_COMMANDS_HELP;

struct ab_opts {
	struct session_opts so;
	struct compare_opts co;
	const char *base, *test;
	const char *metrics[RUN_MAX_VALUES];
	int nr_metrics;
};

static int parse_opts(int argc, char **argv, struct ab_opts *o)
{
	static const struct option opts[] = {
		SESSION_LONG_OPTIONS,
		COMPARE_LONG_OPTIONS,
		{ "base", required_argument, NULL, 'B' },
		{ "test", required_argument, NULL, 'T' },
		{ "metric", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:m:j:h", opts, NULL)) != -1) {
		int r = session_opt("ab", c, optarg, &o->so);

		if (r == 1)
			r = compare_opt("ab", c, optarg, &o->co);
		if (r != 1) {
			if (r)
				return r;
			continue;
		}
		switch (c) {
		case 'B':
			o->base = optarg;
			break;
		case 'T':
			o->test = optarg;
			break;
		case 'M':
			if (o->nr_metrics == RUN_MAX_VALUES)
				return usage_error("ab: too many --metric options");
			o->metrics[o->nr_metrics++] = optarg;
			break;
		case 'h':
			fputs(ab_usage, stdout);
			return -1;
		case ':':
			return usage_error("ab: option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("ab: unknown option '%s' (see 'schedlab ab --help')",
					   argv[optind - 1]);
		}
	}
	return 0;
}

/* set each side up once, so bad input costs no run */
static int check_side(const struct session_config *cfg, const char *side)
{
	char err[512];

	if (session_check(cfg, err, sizeof(err)))
		return usage_error("ab: %s: %s", side, err);
	return 0;
}

/* --metric names the benchmark reports, checked before any run (both sides report the same) */
static int check_metrics(const struct ab_opts *o, const struct session_config *cfg,
			 const char *command)
{
	char names[RUN_MAX_VALUES][RUN_VALUE_NAME], err[512];
	int n = o->nr_metrics ? run_record_names(cfg, names, RUN_MAX_VALUES, err, sizeof(err)) : 0;

	if (n < 0)
		return usage_error("ab: %s", err);
	for (int m = 0; m < o->nr_metrics; m++) {
		int i = 0;

		while (i < n && strcmp(names[i], o->metrics[m]))
			i++;
		if (i == n)
			return usage_error("ab: --metric: metric '%s' is not one that '%s' reports",
					   o->metrics[m], command);
	}
	return 0;
}

/* the command line as one string, for the tables */
static char *join_argv(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = xcalloc(1, len);
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* and the background workloads, which the tables must not hide */
static char *join_command(const struct session_opts *so, int argc, char **argv)
{
	char *s = join_argv(argc, argv);
	size_t len = strlen(s) + 1;

	for (int i = 0; i < so->nr_also; i++)
		len += strlen(" --also ''") + strlen(so->also[i]) + strlen(", with");
	s = xrealloc(s, len);
	for (int i = 0; i < so->nr_also; i++) {
		if (!i)
			strcat(s, ", with");
		strcat(s, " --also '");
		strcat(s, so->also[i]);
		strcat(s, "'");
	}
	return s;
}

int cmd_ab(int argc, char **argv)
{
	struct ab_opts o = { 0 };
	struct session_config side[2], *cfgs = NULL;
	struct run_record *recs = NULL;
	struct comparison cmp;
	struct cmp_case cs;
	char err[512], *command = NULL, **cmd_argv;
	int rc, n, runs, cmd_argc, failed;

	session_opts_init(&o.so);
	compare_opts_init(&o.co);
	rc = parse_opts(argc, argv, &o);
	if (rc > 0)
		return rc;
	if (rc < 0)
		return 0;
	if (argc - optind < 1)
		return usage_error("ab: no benchmark command (schedlab ab [OPTIONS] -- COMMAND...)");
	/* setting the sides up parses the command line again, with getopt */
	cmd_argc = argc - optind;
	cmd_argv = argv + optind;
	if (!o.base && !o.test)
		return usage_error("ab: give --base and/or --test feature lists to compare");
	/*
	 * perf stat repeats a command and prints its mean: what ab does with
	 * --runs, with an interval for the difference
	 */
	if (perf_stat_anywhere(cmd_argc, cmd_argv))
		return usage_error("ab: perf stat: ab does not take a perf stat workload: it runs the command itself, --runs times with seeds S..S+N-1, and compares the runs (Welch's t); give the command alone ('ab ... -- hackbench -l 10'), and for perf stat's own lines 'schedlab run -- perf stat -r N COMMAND' or a study with 'runner perf-stat'");
	runs = o.co.runs ? (int)o.co.runs : AB_DEFAULT_RUNS;
	session_opts_config(&o.so, o.base ? o.base : "", cmd_argc, cmd_argv, &side[0]);
	session_opts_config(&o.so, o.test ? o.test : "", cmd_argc, cmd_argv, &side[1]);
	if ((rc = check_side(&side[0], "--base")) || (rc = check_side(&side[1], "--test")))
		return rc;
	command = join_command(&o.so, cmd_argc, cmd_argv);
	if ((rc = check_metrics(&o, &side[0], command)) ||
	    (rc = compare_outputs_open("ab", &o.co))) {
		free(command);
		return rc;
	}

	n = 2 * runs;
	cfgs = xcalloc((size_t)n, sizeof(*cfgs));
	recs = xcalloc((size_t)n, sizeof(*recs));
	rc = 1;
	for (int v = 0; v < 2; v++)
		for (int r = 0; r < runs; r++) {
			cfgs[v * runs + r] = side[v];
			cfgs[v * runs + r].seed = o.so.seed + (u64)r;
		}
	rc = run_pool(cfgs, n, (int)o.co.jobs, o.so.check, recs, &failed, err, sizeof(err));
	if (rc) {
		if (interrupt_signal) {
			rc = interrupt_exit("ab");
			goto out;
		}
		if (failed < 0)
			cli_message("ab: %s", err);
		else
			cli_message("ab: the %s run on %s with seed %llu %s",
				    failed < runs ? "base" : "test", o.so.machine,
				    (unsigned long long)cfgs[failed].seed, err);
		goto out;
	}
	rc = 1;
	for (int i = 0; i < n; i++)
		if (!recs[i].finished) {
			cli_message("ab: the %s run with seed %llu did not finish: %s",
				    i < runs ? "base" : "test", (unsigned long long)cfgs[i].seed,
				    recs[i].why);
			goto out;
		}

	cs = (struct cmp_case){ .machine = o.so.machine, .command = command, .recs = recs };
	cmp = (struct comparison){
		.kind = "ab",
		.title = "schedlab ab",
		.nr_variants = 2,
		.variant_name = { "base", "test" },
		.variant_features = { o.base ? o.base : "", o.test ? o.test : "" },
		.nr_runs = runs,
		.first_seed = o.so.seed,
		.conf = o.co.conf,
		.metrics = o.metrics,
		.nr_metrics = o.nr_metrics,
		.nr_cases = 1,
		.cases = &cs,
	};
	if (cmp_print_ab(stdout, &cmp, err, sizeof(err))) {
		rc = usage_error("ab: --metric: %s", err);
		goto out;
	}
	rc = compare_outputs_write("ab", &o.co, &cmp);
out:
	compare_outputs_close(&o.co);
	free(command);
	free(cfgs);
	free(recs);
	return rc;
}
