// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf sched, in two steps as with perf:
 *
 *   schedlab run -m MACHINE -- perf sched record [-o FILE] [--] COMMAND...
 *   schedlab perf sched [-i FILE] latency [-s KEYS] [-p] [-C CPU]
 *   schedlab perf sched [-i FILE] timehist [-w] [-M]
 *   schedlab perf sched [-i FILE] map [--compact] [--cpus LIST]
 *
 * The record step is parsed here and run by cmd_run.c; FILE is perf.data
 * unless -o/-i name another, as perf's. The options are perf's
 * (tools/perf/builtin-sched.c); the others are not modelled.
 */
#include "cli/cli.h"
#include "cli/perf_sched_opts.h"

#include "report/perf_sched.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char perf_usage[] =
	"usage: schedlab perf sched [-i FILE] latency [-s|--sort KEYS] [-p|--pids] [-C|--CPU CPU]\n"
	"       schedlab perf sched [-i FILE] timehist [-w|--wakeups] [-M|--migrations]\n"
	"       schedlab perf sched [-i FILE] map [--compact] [--cpus LIST]\n"
	"\n"
	"Reports on a capture that 'schedlab run -- perf sched record [-o FILE] -- COMMAND'\n"
	"wrote, as perf sched does on perf.data (FILE, default perf.data).\n"
	"  -s KEYS   latency's sort keys: pid, avg, max, switch, runtime (default avg,max,switch,runtime)\n"
	"  -p        latency: a row per task, not per command name\n"
	"  -C CPU    latency: account wakeups and migrations as for a recording of CPU alone\n"
	"  -w, -M    timehist: a line per wakeup, per migration too\n"
	"  --compact map: only the CPUs that switched, in the order they first did\n"
	"  --cpus L  map: only the lines of CPUs in L\n";

bool perf_sched_record_cmdline(int argc, char **argv)
{
	return argc >= 3 && !strcmp(argv[0], "perf") && !strcmp(argv[1], "sched") &&
	       !strcmp(argv[2], "record");
}

int perf_sched_record_parse(int argc, char **argv, struct perf_sched_record_opts *o, char *err,
			    size_t errlen)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	/* getopt sees "record" as its program name */
	int rargc = argc - 2, c;
	char **rargv = argv + 2;

	memset(o, 0, sizeof(*o));
	o->output = "perf.data";
	optind = 0;
	opterr = 0;
	optopt = 0;
	while ((c = getopt_long(rargc, rargv, "+:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case ':':
			snprintf(err, errlen, "perf sched record: option '%s' needs a value",
				 rargv[optind - 1]);
			return -1;
		default:
			snprintf(err, errlen,
				 "perf sched record: option '%s' is not modelled (usage: perf sched record [-o FILE] [--] COMMAND...)",
				 optopt && optopt != '?' ? (char[]){ '-', (char)optopt, 0 } :
				 rargv[optind - 1]);
			return -1;
		}
	}
	if (optind >= rargc) {
		snprintf(err, errlen,
			 "perf sched record: no command to run (usage: perf sched record [-o FILE] [--] COMMAND...)");
		return -1;
	}
	if (!*o->output) {
		snprintf(err, errlen, "perf sched record: -o needs a file name");
		return -1;
	}
	o->cmd_argc = rargc - optind;
	o->cmd_argv = rargv + optind;
	if (o->cmd_argc >= 2 && !strcmp(o->cmd_argv[0], "perf") &&
	    (!strcmp(o->cmd_argv[1], "stat") || !strcmp(o->cmd_argv[1], "sched"))) {
		snprintf(err, errlen, "perf sched record: a nested 'perf %s' is not modelled",
			 o->cmd_argv[1]);
		return -1;
	}
	return 0;
}

static int load(const char *input, struct psched_capture *cap)
{
	char err[512];
	FILE *f = fopen(input, "r");
	int rc;

	if (!f)
		/* perf's words, with schedlab's way to make the file */
		return usage_error("perf sched: failed to open %s: %s (try 'schedlab run -- perf sched record -o %s -- COMMAND' first)",
				   input, strerror(errno), input);
	rc = psched_read(f, input, cap, err, sizeof(err));
	fclose(f);
	if (rc)
		return usage_error("perf sched: %s", err);
	return 0;
}

/* a cpu list for --cpus: flags for @nr_cpus CPUs, or NULL */
static bool *parse_cpus(const char *list, unsigned int nr_cpus)
{
	bool *cpus = calloc(nr_cpus, sizeof(*cpus));
	const char *p = list;

	if (!cpus || !*p)
		goto bad;
	while (*p) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			goto bad;
		a = b = strtoul(p, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				goto bad;
			b = strtoul(end + 1, &end, 10);
		}
		if (b < a || b >= nr_cpus)
			goto bad;
		for (unsigned long c = a; c <= b; c++)
			cpus[c] = true;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	return cpus;
bad:
	free(cpus);
	return NULL;
}

static int bad_option(const char *sub, char **argv)
{
	if (optopt && optopt != '?')
		return usage_error("perf sched %s: option '-%c' is not modelled (see 'schedlab perf --help')",
				   sub, optopt);
	return usage_error("perf sched %s: option '%s' is not modelled (see 'schedlab perf --help')",
			   sub, argv[optind - 1]);
}

static int latency(int argc, char **argv, const char *input)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "pids", no_argument, NULL, 'p' },
		{ "CPU", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	struct psched_latency_opts o = { .profile_cpu = -1 };
	const char *sort = "avg, max, switch, runtime", *cpu = NULL;
	struct psched_capture cap;
	char err[512];
	int c, rc;

	optind = 0;
	opterr = 0;
	optopt = 0;
	while ((c = getopt_long(argc, argv, "+:i:s:pC:", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 's':
			sort = optarg;
			break;
		case 'p':
			o.pids = true;
			break;
		case 'C':
			cpu = optarg;
			break;
		case ':':
			return usage_error("perf sched latency: option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return bad_option("latency", argv);
		}
	}
	if (optind < argc)
		return usage_error("perf sched latency: unexpected argument '%s'", argv[optind]);
	if (psched_parse_sort(sort, &o, err, sizeof(err)))
		return usage_error("%s", err);
	if ((rc = load(input, &cap)))
		return rc;
	if (cpu) {
		char *end;
		long v;

		errno = 0;
		v = strtol(cpu, &end, 10);
		if (*cpu < '0' || *cpu > '9' || *end || errno || v >= (long)cap.nr_cpus) {
			rc = usage_error("perf sched latency: -C needs a CPU of the capture's machine (0..%u), got '%s'",
					 cap.nr_cpus - 1, cpu);
			psched_capture_free(&cap);
			return rc;
		}
		o.profile_cpu = (int)v;
	}
	psched_latency_print(stdout, &cap, &o);
	psched_capture_free(&cap);
	return 0;
}

static int timehist(int argc, char **argv, const char *input)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "wakeups", no_argument, NULL, 'w' },
		{ "migrations", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct psched_timehist_opts o = { 0 };
	struct psched_capture cap;
	int c, rc;

	optind = 0;
	opterr = 0;
	optopt = 0;
	while ((c = getopt_long(argc, argv, "+:i:wM", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'w':
			o.wakeups = true;
			break;
		case 'M':
			o.migrations = true;
			break;
		case ':':
			return usage_error("perf sched timehist: option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return bad_option("timehist", argv);
		}
	}
	if (optind < argc)
		return usage_error("perf sched timehist: unexpected argument '%s'", argv[optind]);
	if ((rc = load(input, &cap)))
		return rc;
	/* perf sched record takes no call chains; timehist says so on stderr (pr_info) */
	fflush(stdout);
	fprintf(stderr, "Samples of sched_switch event do not have callchains.\n");
	psched_timehist_print(stdout, &cap, &o);
	psched_capture_free(&cap);
	return 0;
}

static int map(int argc, char **argv, const char *input)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "compact", no_argument, NULL, 'c' },
		{ "cpus", required_argument, NULL, 'U' },
		{ NULL, 0, NULL, 0 },
	};
	struct psched_map_opts o = { 0 };
	const char *cpus = NULL;
	struct psched_capture cap;
	bool *sel = NULL;
	int c, rc;

	optind = 0;
	opterr = 0;
	optopt = 0;
	while ((c = getopt_long(argc, argv, "+:i:", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'c':
			o.compact = true;
			break;
		case 'U':
			cpus = optarg;
			break;
		case ':':
			return usage_error("perf sched map: option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return bad_option("map", argv);
		}
	}
	if (optind < argc)
		return usage_error("perf sched map: unexpected argument '%s'", argv[optind]);
	if ((rc = load(input, &cap)))
		return rc;
	if (cpus && !(sel = parse_cpus(cpus, cap.nr_cpus))) {
		rc = usage_error("perf sched map: --cpus needs a list of the capture's CPUs (0-%u), got '%s'",
				 cap.nr_cpus - 1, cpus);
		psched_capture_free(&cap);
		return rc;
	}
	o.cpus = sel;
	psched_map_print(stdout, &cap, &o);
	free(sel);
	psched_capture_free(&cap);
	return 0;
}

int cmd_perf(int argc, char **argv)
{
	const char *input = "perf.data";
	int i = 2;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(perf_usage, stdout);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "sched"))
		return usage_error("perf: only 'perf sched latency|timehist|map' are reports schedlab makes (perf stat and perf sched record run under 'schedlab run -- perf ...'; see 'schedlab perf --help')");
	/* perf sched's own -i, before the subcommand */
	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(perf_usage, stdout);
			return 0;
		}
		if ((!strcmp(argv[i], "-i") || !strcmp(argv[i], "--input")) && i + 1 < argc) {
			input = argv[i + 1];
			i += 2;
		} else if (!strncmp(argv[i], "--input=", 8)) {
			input = argv[i] + 8;
			i++;
		} else {
			return usage_error("perf sched: option '%s' is not modelled (see 'schedlab perf --help')",
					   argv[i]);
		}
	}
	if (i >= argc)
		return usage_error("perf sched: which report? latency, timehist or map (see 'schedlab perf --help')");
	if (!strcmp(argv[i], "latency") || !strcmp(argv[i], "lat"))
		return latency(argc - i, argv + i, input);
	if (!strcmp(argv[i], "timehist"))
		return timehist(argc - i, argv + i, input);
	if (!strcmp(argv[i], "map"))
		return map(argc - i, argv + i, input);
	if (!strcmp(argv[i], "record"))
		return usage_error("perf sched record: runs a command, so under run: 'schedlab run -m MACHINE -- perf sched record -- COMMAND'");
	return usage_error("perf sched: '%s' is not modelled (latency, timehist, map; record under 'schedlab run')",
			   argv[i]);
}
