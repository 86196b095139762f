// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab run [-m MACHINE] [--features LIST] [--seed N] [--json FILE] [--check]
 *              [--costs FILE] [--cost NAME=NS]... [--hz N] [--also 'COMMAND']... -- COMMAND...
 *
 * Sets up the machine and the scheduler, runs the benchmark command line on
 * it and prints what the real benchmark prints.
 */
#include "cli/cli.h"

#include "kernel/sched.h"
#include "report/bench_output.h"
#include "report/ftrace.h"
#include "report/outfile.h"
#include "report/latency_print.h"
#include "report/plot.h"
#include "report/plot_dir.h"
#include "report/lock_stat.h"
#include "report/schedstat.h"
#include "report/funclat_print.h"
#include "report/run_json.h"
#include "report/rtapp_logs.h"
#include "cli/interrupt.h"
#include "cli/progress.h"
#include "cli/session_opts.h"
#include "cli/perf_stat_opts.h"
#include "cli/perf_sched_opts.h"
#include "report/perf_stat.h"
#include "report/perf_sched.h"
#include "work/bench_usage.h"

#include <errno.h>
#include <stdint.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char run_usage[] =
	"usage: schedlab run [-m MACHINE] [--features LIST] [--seed N] [--json FILE] [--check]\n"
	"                    [--costs FILE] [--cost NAME=NS]... [--sysctl NAME=VALUE]...\n"
	"                    [--funclatency F,...] [--probe-overhead on|off] [--preempt MODEL]\n"
	"                    [--hz 100|250|300|1000]\n"
	"                    [--idle-states SPEC]... [--cpufreq GOVERNOR] [--guest SPEC]\n"
	"                    [--cpuidle GOVERNOR]\n"
	"                    [--trace FILE [--trace-window S:E]\n"
	"                    [--trace-events LIST]]\n"
	"                    [--schedstat FILE] [--latency] [--lock-stat] [--plot DIR]\n"
	"                    [--max-events N] [--max-time S] [--also 'COMMAND']... -- COMMAND...\n"
	"\n"
	SESSION_OPTIONS_HELP
	"  --features LIST      scheduler features, e.g. NO_RUN_TO_PARITY,PLACE_LAG\n"
	"  --seed N             seed of the run's random streams (default 1)\n"
	"  --json FILE          write the machine-readable record of the run\n"
	"  --trace FILE         write an ftrace text trace (opens in ui.perfetto.dev)\n"
	"  --trace-window S:E   only simulated seconds S to E (E may be empty: to the end)\n"
	"  --trace-events LIST  events or groups: sched, power, ipi, sched_switch, ...\n"
	"  --schedstat FILE     write /proc/schedstat (version 17) as it reads at the end\n"
	"  --latency            print a 'perf sched latency' table after the benchmark's output\n"
	"  --lock-stat          print the sleeping locks' contention, as 'perf lock contention'\n"
	"  --plot DIR           CPU utilisation and nr_running heatmaps, wakeup latency CDF\n"
	"  --max-events N       stop with an error after N events (default 10^10)\n"
	"  --max-time S         stop with an error after S simulated seconds (default 2592000, 30 days)\n"
	"\n"
	BENCH_COMMANDS_HELP
	"         perf stat [-n|--null] [-r|--repeat N] [--table] [-e EVENTS] [-a] [-C CPUS]\n"
	"         [-x SEP] [--] COMMAND: N runs, seeds SEED..SEED+N-1, then perf stat's summary\n"
	"         perf sched record [-o FILE] [--] COMMAND: the run's sched events to FILE\n"
	"         (perf.data) for 'schedlab perf sched latency|timehist|map'\n";

struct run_opts {
	struct session_opts so;
	const char *features;
	const char *json;
	const char *trace;
	const char *trace_window;
	const char *trace_events;
	const char *schedstat;
	bool latency;
	bool lock_stat;
	const char *plot;
	u64 max_events;
	u64 max_time_ns;
};

/* a decimal integer in 1..@max for option @opt, or usage error */
static int parse_limit(const char *opt, const char *arg, u64 max, u64 *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || v < 1 || v > max)
		return usage_error("run: %s needs an integer in 1..%llu, got '%s'", opt,
				   (unsigned long long)max, arg);
	*out = v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		SESSION_LONG_OPTIONS,
		{ "features", required_argument, NULL, 'F' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "trace", required_argument, NULL, 'T' },
		{ "trace-window", required_argument, NULL, 'W' },
		{ "trace-events", required_argument, NULL, 'E' },
		{ "schedstat", required_argument, NULL, 'S' },
		{ "latency", no_argument, NULL, 'l' },
		{ "lock-stat", no_argument, NULL, 'k' },
		{ "plot", required_argument, NULL, 'p' },
		{ "max-events", required_argument, NULL, 'N' },
		{ "max-time", required_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:m:h", opts, NULL)) != -1) {
		int r = session_opt("run", c, optarg, &o->so);

		if (r != 1) {
			if (r)
				return r;
			continue;
		}
		switch (c) {
		case 'F':
			o->features = optarg;
			break;
		case 'j':
			o->json = optarg;
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
		case 'k':
			o->lock_stat = true;
			break;
		case 'p':
			o->plot = optarg;
			break;
		case 'N':
			if (parse_limit("--max-events", optarg, 1000000000000000ULL, &o->max_events))
				return EXIT_BAD_INPUT;
			break;
		case 'X': {
			u64 s;

			/* a year: u64 nanoseconds stay far from overflow */
			if (parse_limit("--max-time", optarg, 365ULL * 86400, &s))
				return EXIT_BAD_INPUT;
			o->max_time_ns = s * NSEC_PER_SEC;
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

/* --plot's titles: "MACHINE: COMMAND", with the background workloads as ab's tables say them */
static void plot_title(char *buf, size_t len, const struct run_opts *o, int argc, char **argv)
{
	size_t n = (size_t)snprintf(buf, len, "%s:", o->so.machine);

	for (int i = 0; i < argc && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " %s", argv[i]);
	for (int i = 0; i < o->so.nr_also && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s --also '%s'", i ? "" : ", with",
				      o->so.also[i]);
}

/* two outputs named the same would overwrite each other: refuse before the run */
static int same_outputs(const struct run_opts *o)
{
	const struct {
		const char *opt, *path;
	} out[] = {
		{ "--json", o->json },
		{ "--schedstat", o->schedstat },
		{ "--trace", o->trace },
		{ "--plot", o->plot },
	};
	const int n = sizeof(out) / sizeof(out[0]);

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (out[i].path && out[j].path && outfile_same(out[i].path, out[j].path))
				return usage_error("run: %s and %s name the same file '%s'",
						   out[i].opt, out[j].opt, out[j].path);
	return 0;
}

/*
 * `run -- TOOL --help`: the tool's usage on the streams it uses, schedlab's
 * note on what the model does differently on stderr after it, and the
 * tool's exit status.
 */
static int print_tool_usage(const struct bench_usage *u)
{
	fputs(u->out, stdout);
	if (fflush(stdout) || ferror(stdout))
		return 1;
	fputs(u->err, stderr);
	if (u->note[0])
		fprintf(stderr, "schedlab: %s\n", u->note);
	return u->status;
}

/* the benchmark's output, and what run prints after it, for run @i of @runs */
static bool run_one(struct session *s, const struct run_opts *o, int i, int runs)
{
	bool finished;
	char msg[256];

	/* a prefix that fails (chrt, taskset) exits before the benchmark prints anything */
	if (!bench_prefix_fails(s->bench, msg, sizeof(msg)))
		bench_print_header(s->bench, stdout);
	fflush(stdout);
	progress_start(s->bench, i, runs);
	finished = session_run(s, o->so.check);
	progress_end();
	if (interrupt_signal || !finished)
		return finished;
	bench_print_result(s->bench, stdout);
	funclat_print(stdout);
	if (o->latency)
		print_sched_latency(stdout);
	return true;
}

/* perf sched record's end: the capture to its file, perf record's line on stderr */
static void record_finish(struct session *s, const struct perf_sched_record_opts *psr, FILE *f,
			  bool *bad)
{
	struct psched_capture cap;
	long bytes;

	perf_sched_record_stop(&cap, s->topo->name, machine.nr_cpus);
	if (psched_write(f, &cap) || fflush(f)) {
		fprintf(stderr, "schedlab: writing '%s' failed\n", psr->output);
		*bad = true;
	} else {
		bytes = ftell(f);
		/* after the command's output, as perf's when the command exits */
		fflush(stdout);
		fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%zu samples) ]\n",
			(double)(bytes > 0 ? bytes : 0) / 1024 / 1024, psr->output, cap.nr);
	}
	psched_capture_free(&cap);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct session_config cfg;
	struct session s;
	struct perf_stat_opts ps;
	struct perf_stat_summary pss = { 0 };
	bool perf_stat = false, *ps_cpus = NULL, perf_sched = false;
	struct perf_sched_record_opts psr;
	FILE *perf_data = NULL;
	char err[512], title[1024];
	struct session_failure failure;
	FILE *json = NULL, *schedstat = NULL;
	bool finished = false, bad = false;
	int rc, cmd_argc, given_argc, runs = 1;
	char **cmd_argv, **given_argv;

	session_opts_init(&o.so);
	rc = parse_opts(argc, argv, &o);

	if (rc > 0)
		return rc;
	if (rc < 0)
		return 0;
	if (argc - optind < 1)
		return usage_error("run: no benchmark command (schedlab run [OPTIONS] -- COMMAND...)");
	if (!o.trace && (o.trace_window || o.trace_events))
		return usage_error("run: --trace-window and --trace-events need --trace FILE");
	if ((rc = same_outputs(&o)))
		return rc;
	/* the command line as given; optind is reused by the parsers below */
	given_argc = cmd_argc = argc - optind;
	given_argv = cmd_argv = argv + optind;
	/* perf stat COMMAND: the command N times, seeds SEED..SEED+N-1 */
	if (perf_stat_cmdline(cmd_argc, cmd_argv)) {
		if (perf_stat_parse(cmd_argc, cmd_argv, &ps, err, sizeof(err)))
			return usage_error("%s", err);
		perf_stat = true;
		runs = ps.repeat;
		if (runs > 1 && (o.trace || o.schedstat || o.plot))
			return usage_error("run: --trace, --schedstat and --plot record one run: not with perf stat --repeat %d",
					   runs);
		if (o.so.seed > UINT64_MAX - (u64)(runs - 1))
			return usage_error("run: --seed %llu + %d runs of perf stat overflows",
					   (unsigned long long)o.so.seed, runs);
		cmd_argc = ps.cmd_argc;
		cmd_argv = ps.cmd_argv;
	}
	/* perf sched record COMMAND: one run, recorded */
	if (perf_sched_record_cmdline(cmd_argc, cmd_argv)) {
		if (perf_sched_record_parse(cmd_argc, cmd_argv, &psr, err, sizeof(err)))
			return usage_error("%s", err);
		perf_sched = true;
		cmd_argc = psr.cmd_argc;
		cmd_argv = psr.cmd_argv;
		if (perf_stat_cmdline(cmd_argc, cmd_argv))
			return usage_error("perf sched record: a nested 'perf stat' is not modelled");
		{
			const char *others[][2] = {
				{ "--json", o.json },
				{ "--schedstat", o.schedstat },
				{ "--trace", o.trace },
				{ "--plot", o.plot },
			};

			for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
				if (others[i][1] && outfile_same(others[i][1], psr.output))
					return usage_error("run: %s and perf sched record -o name the same file '%s'",
							   others[i][0], psr.output);
		}
	}
	session_opts_config(&o.so, o.features, cmd_argc, cmd_argv, &cfg);
	cfg.max_events = o.max_events;
	cfg.max_time_ns = o.max_time_ns;
	if (session_start(&s, &cfg, err, sizeof(err))) {
		const struct bench_usage *u = bench_usage_requested();

		/* TOOL --help: what the tool prints, as it exits */
		if (u)
			return print_tool_usage(u);
		/* feature errors are prefixed so the user knows which option */
		return usage_error("%s", err);
	}
	interrupt_install();
	/*
	 * The outputs, each opened before the run so a bad path costs no run.
	 * They are temporaries (report/outfile.h) until outfile_commit(): on
	 * every failure below, nothing existing is touched.
	 */
	if (o.json && !(json = outfile_open(o.json))) {
		rc = usage_error("run: cannot write --json file '%s': %s", o.json, strerror(errno));
		goto fail;
	}
	if (perf_sched && !(perf_data = outfile_open(psr.output))) {
		rc = usage_error("run: perf sched record: cannot write '%s': %s", psr.output,
				 strerror(errno));
		goto fail;
	}
	if (o.schedstat && !(schedstat = outfile_open(o.schedstat))) {
		rc = usage_error("run: cannot write --schedstat file '%s': %s", o.schedstat,
				 strerror(errno));
		goto fail;
	}
	if ((o.trace && ftrace_open(o.trace, o.trace_window, o.trace_events, err, sizeof(err))) ||
	    (o.plot && (plot_title(title, sizeof(title), &o, given_argc, given_argv),
			plot_start(o.plot, title, err, sizeof(err))))) {
		rc = usage_error("run: %s", err);
		goto fail;
	}
	/* rt-app's log files are outputs too: checked now, written after the run */
	{
		const struct output_name others[] = {
			{ "--json", o.json },
			{ "--schedstat", o.schedstat },
			{ "--trace", o.trace },
			{ "--plot", o.plot },
		};

		if (rtapp_logs_prepare(s.bench, others, sizeof(others) / sizeof(others[0]), err,
				       sizeof(err))) {
			rc = usage_error("%s", err);
			goto fail;
		}
	}

	rc = 0;
	if (perf_stat && ps.has_config && ps.config.cpu_list &&
	    !(ps_cpus = perf_stat_parse_cpus(ps.config.cpu_list, machine.nr_cpus, err, sizeof(err)))) {
		rc = usage_error("%s", err);
		goto fail;
	}
	if (perf_stat) {
		perf_stat_summary_init(&pss, runs, ps.null_run, ps.table);
		if (ps.has_config)
			pss.config = &ps.config;
	}
	for (int i = 0; i < runs; i++) {
		struct perf_stat_run pr;

		if (i) {
			/* the setup was checked by the first run: only the seed differs */
			session_end(&s);
			cfg.seed = o.so.seed + (u64)i;
			if (session_start(&s, &cfg, err, sizeof(err))) {
				/* nothing is set up to end */
				fprintf(stderr, "schedlab: run %d of perf stat: %s\n", i + 1, err);
				ftrace_close();
				outfile_discard();
				perf_stat_summary_free(&pss);
				free(ps_cpus);
				return 1;
			}
		}
		if (perf_stat && ps.has_config)
			perf_stat_count_start(&ps.config, ps_cpus);
		if (perf_stat)
			sched_world.perf_stat_counters = (unsigned char)perf_stat_task_counters(&ps);
		if (perf_sched)
			perf_sched_record_start();
		finished = run_one(&s, &o, i, runs);
		if (perf_sched)
			record_finish(&s, &psr, perf_data, &bad);
		if (interrupt_signal || !finished) {
			perf_stat_count_stop();
			break;
		}
		if (perf_stat) {
			bool collected = perf_stat_collect(&pr);

			perf_stat_count_stop();
			if (!collected) {
				fprintf(stderr, "schedlab: perf stat: the command's first task did not exit\n");
				rc = 1;
				goto fail;
			}
			perf_stat_summary_add(&pss, i, &pr);
		}
	}
	if (interrupt_signal) {
		rc = interrupt_exit("run");
		plot_finish();
		goto fail;
	}
	if (!finished) {
		session_failure(&s, &failure);
		/* the measured tool's last stdout lines, flushed at its exit */
		if (!failure.workload && s.bench->failure && s.bench->failure_stdout) {
			fputs(s.bench->failure_stdout, stdout);
			fflush(stdout);
		}
		fprintf(stderr, "schedlab: %s\n", failure.message);
		rc = 1;
	} else if (perf_stat) {
		perf_stat_print(stdout, &pss, ps.cmd_argc, ps.cmd_argv);
	}
	if (o.plot && plot_finish()) {
		fprintf(stderr, "schedlab: writing the plots in '%s' failed\n", o.plot);
		bad = true;
	}
	if (o.lock_stat && finished)
		lock_stat_print(stdout);
	if (schedstat && (write_schedstat(schedstat) || outfile_close(schedstat))) {
		fprintf(stderr, "schedlab: writing '%s' failed\n", o.schedstat);
		bad = true;
	}
	schedstat = NULL;
	if (perf_data && outfile_close(perf_data)) {
		fprintf(stderr, "schedlab: writing '%s' failed\n", psr.output);
		bad = true;
	}
	perf_data = NULL;
	if (o.trace && ftrace_close()) {
		fprintf(stderr, "schedlab: writing the trace '%s' failed\n", o.trace);
		bad = true;
	}
	/* the last run's, as the JSON's; one that did not finish gets them too */
	if (!bad && rtapp_logs_write(s.bench))
		bad = true;
	if (json) {
		struct run_info ri = {
			.machine = s.topo->name,
			.profile = cfg.profile,
			.guest = cfg.guest,
			.seed = cfg.seed,
			.argc = cfg.argc,
			.argv = cfg.argv,
			.wall_s = s.wall_s,
			.events = machine.nr_events,
			.sim_time_ns = machine.now,
			.trace = o.trace,
			/* a run that did not finish ended the repeats: no summary */
			.perf_stat = perf_stat && finished ? &pss : NULL,
			.argc_given = given_argc,
			.argv_given = given_argv,
			.base_seed = o.so.seed,
			.nr_also = s.nr_also,
			.also_cmd = cfg.also,
			.also = s.also,
		};

		if (!finished) {
			ri.fail_workload = failure.workload;
			ri.fail_ns = failure.t_ns;
			ri.fail_why = failure.why;
		}
		if (write_run_json(json, &ri, s.bench) || outfile_close(json)) {
			fprintf(stderr, "schedlab: writing '%s' failed\n", o.json);
			bad = true;
		}
		json = NULL;
	}
	/*
	 * An unfinished benchmark (exit 1) still gets its outputs, complete:
	 * they are how it is debugged. A failed write, standard output
	 * included, or a signal leaves every output as it was.
	 */
	if (bad || outfile_check_stdout()) {
		rc = 1;
		goto fail;
	}
	if (interrupt_signal) {
		rc = interrupt_exit("run");
		goto fail;
	}
	if (outfile_commit())
		rc = 1;
	else if (o.plot && plot_dir_render(o.plot, "plots.gp"))
		rc = 1;
	rtapp_logs_reset();
	session_end(&s);
	perf_stat_summary_free(&pss);
	free(ps_cpus);
	return rc;

fail:
	ftrace_close();
	outfile_discard();
	rtapp_logs_reset();
	session_end(&s);
	perf_stat_summary_free(&pss);
	free(ps_cpus);
	return rc;
}
