// SPDX-License-Identifier: MIT
/*
 * schedlab run [-m MACHINE] [--features LIST] [--seed N] [--json FILE] [--check]
 *              [--cost NAME=NS]... [--hz N] -- COMMAND...
 *
 * Sets up the machine and the scheduler, runs the benchmark command line on
 * it and prints what the real benchmark prints.
 */
#include "cli/cli.h"

#include "kernel/sched.h"
#include "report/bench_output.h"
#include "report/ftrace.h"
#include "report/latency_print.h"
#include "report/plot.h"
#include "report/schedstat.h"
#include "report/funclat_print.h"
#include "report/run_json.h"
#include "cli/progress.h"
#include "cli/session.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MACHINE "xeon-8269cy-2s"
#define DEFAULT_SEED 1

static const char run_usage[] =
	"usage: schedlab run [-m MACHINE] [--features LIST] [--seed N] [--json FILE] [--check]\n"
	"                    [--cost NAME=NS]... [--sysctl NAME=VALUE]... [--funclatency F,...]\n"
	"                    [--hz 100|250|300|1000] [--trace FILE [--trace-window S:E]\n"
	"                    [--trace-events LIST]] [--schedstat FILE] [--latency] [--plot DIR]\n"
	"                    -- COMMAND...\n"
	"\n"
	"  -m, --machine NAME   machine preset (see 'schedlab machines'), default " DEFAULT_MACHINE "\n"
	"  --features LIST      scheduler features, e.g. NO_RUN_TO_PARITY,PLACE_LAG\n"
	"  --seed N             seed of the run's random streams (default 1)\n"
	"  --json FILE          write the machine-readable record of the run\n"
	"  --check              validate scheduler invariants after every event\n"
	"  --cost NAME=NS       override a cost-model parameter (see docs/cost-model.md)\n"
	"  --sysctl NAME=VALUE  set a scheduler tunable (base_slice_ns, migration_cost_ns, ...)\n"
	"  --funclatency F,G    log2 histograms of the simulated time per call of kernel functions\n"
	"  --preempt MODEL      none, voluntary (default), full or lazy\n"
	"  --hz N               CONFIG_HZ of the simulated kernel (default: the machine's)\n"
	"  --trace FILE         write an ftrace text trace (opens in ui.perfetto.dev)\n"
	"  --trace-window S:E   only simulated seconds S to E (E may be empty: to the end)\n"
	"  --trace-events LIST  events or groups: sched, power, ipi, sched_switch, ...\n"
	"  --schedstat FILE     write /proc/schedstat (version 17) as it reads at the end\n"
	"  --latency            print a 'perf sched latency' table after the benchmark's output\n"
	"  --plot DIR           CPU utilisation and nr_running heatmaps, wakeup latency CDF\n"
	"\n"
	"COMMAND: hackbench ..., perf bench sched messaging ..., perf bench sched pipe ...\n";

struct run_opts {
	const char *machine;
	const char *features;
	const char *json;
	u64 seed;
	bool check;
	unsigned int hz;
	const char *costs[64];	/* --cost NAME=NS, in order */
	int nr_costs;
	const char *funclatency;
	const char *preempt;
	const char *sysctls[64]; /* --sysctl NAME=VALUE, in order */
	int nr_sysctls;
	const char *trace;
	const char *trace_window;
	const char *trace_events;
	const char *schedstat;
	bool latency;
	const char *plot;
};

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "machine", required_argument, NULL, 'm' }, { "features", required_argument, NULL, 'F' },
		{ "seed", required_argument, NULL, 's' },    { "json", required_argument, NULL, 'j' },
		{ "check", no_argument, NULL, 'c' },	     { "cost", required_argument, NULL, 'C' },
		{ "hz", required_argument, NULL, 'H' },	     { "sysctl", required_argument, NULL, 'Y' },
		{ "funclatency", required_argument, NULL, 'L' },
		{ "preempt", required_argument, NULL, 'P' },	     { "help", no_argument, NULL, 'h' },
		{ "trace", required_argument, NULL, 'T' },
		{ "trace-window", required_argument, NULL, 'W' },
		{ "trace-events", required_argument, NULL, 'E' },
		{ "schedstat", required_argument, NULL, 'S' },
		{ "latency", no_argument, NULL, 'l' },
		{ "plot", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:m:h", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'm':
			o->machine = optarg;
			break;
		case 'F':
			o->features = optarg;
			break;
		case 's':
			errno = 0;
			o->seed = strtoull(optarg, &end, 0);
			if (!*optarg || *end || errno || optarg[0] == '-')
				return usage_error("run: --seed needs a non-negative integer, got '%s'",
						   optarg);
			break;
		case 'j':
			o->json = optarg;
			break;
		case 'c':
			o->check = true;
			break;
		case 'C':
			if (o->nr_costs == (int)(sizeof(o->costs) / sizeof(o->costs[0])))
				return usage_error("run: too many --cost options");
			o->costs[o->nr_costs++] = optarg;
			break;
		case 'L':
			o->funclatency = optarg;
			break;
		case 'P':
			o->preempt = optarg;
			break;
		case 'T':
			o->trace = optarg;
			break;
		case 'W':
			o->trace_window = optarg;
			break;
		case 'E':
			o->trace_events = optarg;
			break;
		case 'S':
			o->schedstat = optarg;
			break;
		case 'l':
			o->latency = true;
			break;
		case 'p':
			o->plot = optarg;
			break;
		case 'Y':
			if (o->nr_sysctls == (int)(sizeof(o->sysctls) / sizeof(o->sysctls[0])))
				return usage_error("run: too many --sysctl options");
			o->sysctls[o->nr_sysctls++] = optarg;
			break;
		case 'H': {
			unsigned long hz = strtoul(optarg, &end, 10);

			if (*end || (hz != 100 && hz != 250 && hz != 300 && hz != 1000))
				return usage_error("run: --hz must be 100, 250, 300 or 1000, got '%s'",
						   optarg);
			o->hz = (unsigned int)hz;
			break;
		}
		case 'h':
			fputs(run_usage, stdout);
			return -1;
		case ':':
			return usage_error("run: option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("run: unknown option '%s' (see 'schedlab run --help')",
					   argv[optind - 1]);
		}
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .machine = DEFAULT_MACHINE, .seed = DEFAULT_SEED };
	struct session_config cfg;
	struct session s;
	char err[512];
	FILE *json = NULL, *schedstat = NULL;
	bool finished;
	int rc = parse_opts(argc, argv, &o);

	if (rc > 0)
		return rc;
	if (rc < 0)
		return 0;
	if (argc - optind < 1)
		return usage_error("run: no benchmark command (schedlab run [OPTIONS] -- COMMAND...)");
	if (!o.trace && (o.trace_window || o.trace_events))
		return usage_error("run: --trace-window and --trace-events need --trace FILE");
	cfg = (struct session_config){
		.machine = o.machine,
		.features = o.features,
		.seed = o.seed,
		.costs = o.costs,
		.nr_costs = o.nr_costs,
		.sysctls = o.sysctls,
		.nr_sysctls = o.nr_sysctls,
		.funclatency = o.funclatency,
		.preempt = o.preempt,
		.hz = o.hz,
		.argc = argc - optind,
		.argv = argv + optind,
	};
	if (session_start(&s, &cfg, err, sizeof(err))) {
		/* feature errors are prefixed so the user knows which option */
		return usage_error("%s", err);
	}
	/* the outputs, each opened before the run so a bad path costs no run */
	if (o.json && !(json = fopen(o.json, "w"))) {
		rc = usage_error("run: cannot write --json file '%s': %s", o.json, strerror(errno));
		goto fail;
	}
	if (o.schedstat && !(schedstat = fopen(o.schedstat, "w"))) {
		rc = usage_error("run: cannot write --schedstat file '%s': %s", o.schedstat,
				 strerror(errno));
		goto fail;
	}
	if ((o.trace && ftrace_open(o.trace, o.trace_window, o.trace_events, err, sizeof(err))) ||
	    (o.plot && plot_start(o.plot, err, sizeof(err)))) {
		rc = usage_error("run: %s", err);
		goto fail;
	}

	bench_print_header(s.bench, stdout);
	fflush(stdout);
	rc = 0;
	progress_start(s.bench);
	finished = session_run(&s, o.check);
	progress_end();
	if (!finished) {
		fprintf(stderr, "schedlab: the benchmark did not finish (all tasks blocked at t=%llu ns)\n",
			(unsigned long long)machine.now);
		rc = 1;
	} else {
		bench_print_result(s.bench, stdout);
		funclat_print(stdout);
		if (o.latency)
			print_sched_latency(stdout);
	}
	if (o.plot && plot_finish())
		rc = 1;
	if (schedstat && (write_schedstat(schedstat) || fclose(schedstat))) {
		fprintf(stderr, "schedlab: writing '%s' failed\n", o.schedstat);
		rc = 1;
	}
	if (o.trace && ftrace_close()) {
		fprintf(stderr, "schedlab: writing the trace '%s' failed\n", o.trace);
		rc = 1;
	}
	if (json) {
		struct run_info ri = {
			.machine = s.topo->name,
			.seed = o.seed,
			.argc = cfg.argc,
			.argv = cfg.argv,
			.wall_s = s.wall_s,
			.events = machine.nr_events,
			.sim_time_ns = machine.now,
			.trace = o.trace,
		};
		if (write_run_json(json, &ri, s.bench) || fclose(json)) {
			fprintf(stderr, "schedlab: writing '%s' failed\n", o.json);
			rc = 1;
		}
	}
	session_end(&s);
	return rc;

fail:
	if (json)
		fclose(json);
	if (schedstat)
		fclose(schedstat);
	ftrace_close();
	session_end(&s);
	return rc;
}
