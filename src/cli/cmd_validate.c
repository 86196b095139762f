// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab validate [--costs FILE] [--quick] [--seeds N] [--json FILE] [--plot DIR]
 *                   [--only TEXT] [--real FILE]
 *
 * Run a fixed set of real benchmark command lines on this machine under
 * perf stat's software counters, then the same command lines simulated on
 * -m host with the cost profile, and print them side by side.
 * docs/calibration.md.
 */
#include "cli/cli.h"

#include "calib/validate.h"
#include "kernel/features.h"
#include "cli/quote.h"
#include "report/outfile.h"
#include "report/plot_dir.h"
#include "sim/alloc.h"
#include "topo/cost_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char validate_usage[] =
	"usage: schedlab validate [--costs FILE] [--features LIST] [--quick] [--seeds N]\n"
	"                         [--json FILE] [--plot DIR] [--only TEXT] [--real FILE]\n"
	"\n"
	"Run a fixed set of benchmarks on this machine (perf bench sched pipe and messaging,\n"
	"rt-tests hackbench, stress-ng; pinned with taskset -c 0 and unpinned) under perf stat\n"
	"-e " VALIDATE_EVENTS ", then the same command lines simulated on -m host,\n"
	"with seeds 1..N, and print real and simulated median [min, max], the ratio of the\n"
	"medians and the counters side by side. Rows whose tools are not installed are\n"
	"skipped, naming their Debian package.\n"
	"\n"
	"  --costs FILE         the cost profile for the simulated runs ('schedlab calibrate')\n"
	"  --features LIST      scheduler features for the simulated runs, as for run (to\n"
	"                       simulate the running kernel's, e.g. v6.19's WAKEUP_PREEMPT_EEVDF)\n"
	"  --quick              2 real runs of each command instead of 5\n"
	"  --seeds N            simulated runs of each command, seeds 1..N (default: as many\n"
	"                       as real runs; 1 to " VALIDATE_MAX_RUNS_STR ")\n"
	"  --json FILE          the table as JSON, with every real run\n"
	"  --plot DIR           simulated against real, with gnuplot\n"
	"  --only TEXT          only the rows whose command line contains TEXT\n"
	"  --real FILE          the real runs of an earlier --json FILE instead of running them\n";

struct validate_opts {
	const char *costs, *features, *json, *plot, *only, *real;
	bool quick;
	int seeds; /* 0: as many as real runs */
};

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* is @prog an executable in $PATH? */
static bool have(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path)
		path = "/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, p, prog);
		if (len && !access(buf, X_OK))
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

/* the whole of @f (NULL: an empty string), closed */
static char *slurp_stream(FILE *f)
{
	size_t len = 0, cap = 4096, n;
	char *buf = xmalloc(cap);

	if (f) {
		while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
			len += n;
			if (len + 1 == cap)
				buf = xrealloc(buf, cap *= 2);
		}
		fclose(f);
	}
	buf[len] = '\0';
	return buf;
}

/* a run's output file: one that was not written reads as empty */
static char *slurp(const char *path)
{
	return slurp_stream(fopen(path, "r"));
}

/* fork; the child's stdout and stderr go to @out; 0 and the exit status in *@status */
static pid_t spawn(const char *out)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd < 0)
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	return pid;
}

static int wait_for(pid_t pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* split @cmd on blanks into @words (at most @max - 1, NULL-terminated) */
static int split(char *cmd, char **words, int max)
{
	int n = 0;

	for (char *w = strtok(cmd, " "); w && n < max - 1; w = strtok(NULL, " "))
		words[n++] = w;
	words[n] = NULL;
	return n;
}

/* the real command under perf stat, once; -1 with @why if it failed */
static int real_run(const char *dir, const char *cmd, struct validate_sample *s, char *why,
		    size_t len)
{
	char out[512], csv[512], copy[256], *argv[48], *text, *ctext, *all;
	int n = 0, rc;
	double t0, wall;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/real.out", dir);
	snprintf(csv, sizeof(csv), "%s/real.csv", dir);
	snprintf(copy, sizeof(copy), "%s", cmd);
	argv[n++] = "perf";
	argv[n++] = "stat";
	argv[n++] = "-e";
	argv[n++] = VALIDATE_EVENTS;
	argv[n++] = "-x,";
	argv[n++] = "-o";
	argv[n++] = csv;
	argv[n++] = "--";
	split(copy, argv + n, 48 - n);
	t0 = wall_now();
	pid = spawn(out);
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	rc = wait_for(pid);
	wall = wall_now() - t0;
	text = slurp(out);
	ctext = slurp(csv);
	all = xmalloc(strlen(text) + strlen(ctext) + 2);
	sprintf(all, "%s\n%s", text, ctext);
	if (rc) {
		char *nl = strchr(text, '\n');

		snprintf(why, len, "exit status %d: %.*s", rc,
			 (int)(nl ? nl - text : (long)strlen(text)), text);
	} else if (validate_parse(all, wall, s)) {
		snprintf(why, len, "no time or counters in its output");
		rc = -1;
	}
	free(text);
	free(ctext);
	free(all);
	return rc ? -1 : 0;
}

/* the end of the header line: what the simulated runs are given */
static void print_sim_setup(const struct validate_opts *o)
{
	printf(" with %s", o->costs ? o->costs : "the default costs");
	if (o->features)
		printf(" and --features %s", o->features);
	putchar('\n');
}

/* the same command line simulated on -m host, in a child running `schedlab run` */
static int sim_run(const char *dir, const char *cmd, const struct validate_opts *o, int seed,
		   struct validate_sample *s, char *why, size_t len)
{
	char out[512], copy[256], seed_arg[16], *argv[64], *text;
	int n = 0, rc;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/sim.out", dir);
	snprintf(copy, sizeof(copy), "%s", cmd);
	argv[n++] = "run";
	argv[n++] = "-m";
	argv[n++] = "host";
	snprintf(seed_arg, sizeof(seed_arg), "%d", seed);
	argv[n++] = "--seed";
	argv[n++] = seed_arg;
	if (o->costs) {
		argv[n++] = "--costs";
		argv[n++] = (char *)o->costs;
	}
	if (o->features) {
		argv[n++] = "--features";
		argv[n++] = (char *)o->features;
	}
	argv[n++] = "--";
	argv[n++] = "perf";
	argv[n++] = "stat";
	argv[n++] = "-e";
	argv[n++] = VALIDATE_EVENTS;
	argv[n++] = "-x,";
	n += split(copy, argv + n, 64 - n);
	pid = spawn(out);
	if (pid == 0) {
		fflush(stdout);
		_exit(cmd_run(n, argv));
	}
	rc = wait_for(pid);
	text = slurp(out);
	if (rc) {
		char *nl = strrchr(text, '\n');

		while (nl && nl > text && !nl[1]) {
			*nl = '\0';
			nl = strrchr(text, '\n');
		}
		snprintf(why, len, "exit status %d: %s", rc, nl ? nl + 1 : text);
	} else if (validate_parse(text, NAN, s)) {
		snprintf(why, len, "no time or counters in its output");
		rc = -1;
	}
	free(text);
	return rc ? -1 : 0;
}

/* @r's simulated runs, seeds 1..@seeds; the first failure ends them, in r->why */
static void sim_runs(const char *dir, const char *cmd, const struct validate_opts *o, int seeds,
		     struct validate_result *r)
{
	char why[256];

	r->sim_ok = true;
	for (r->nr_sim = 0; r->nr_sim < seeds; r->nr_sim++) {
		if (sim_run(dir, cmd, o, r->nr_sim + 1, &r->sim[r->nr_sim], why,
			    sizeof(why))) {
			r->sim_ok = false;
			snprintf(r->why, sizeof(r->why), "seed %d: %.140s", r->nr_sim + 1, why);
			return;
		}
	}
}

static int parse_opts(int argc, char **argv, struct validate_opts *o)
{
	static const struct option opts[] = {
		{ "costs", required_argument, NULL, 'K' },
		{ "features", required_argument, NULL, 'F' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "seeds", required_argument, NULL, 'S' },
		{ "json", required_argument, NULL, 'J' },
		{ "plot", required_argument, NULL, 'p' },
		{ "only", required_argument, NULL, 'O' },
		{ "real", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[512];
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'K':
			if (!cost_profile_load(optarg, err, sizeof(err)))
				return usage_error("validate: --costs: %s", err);
			o->costs = optarg;
			break;
		case 'F':
			/* checked now, not at the first simulated run */
			if (sched_feat_check(optarg, err, sizeof(err)))
				return usage_error("validate: --features: %s", err);
			o->features = optarg;
			break;
		case 'Q':
			o->quick = true;
			break;
		case 'S': {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > VALIDATE_MAX_RUNS)
				return usage_error(
					"validate: --seeds '%s': give a whole number from 1 to %d",
					optarg, VALIDATE_MAX_RUNS);
			o->seeds = (int)v;
			break;
		}
		case 'J':
			o->json = optarg;
			break;
		case 'p':
			o->plot = optarg;
			break;
		case 'O':
			o->only = optarg;
			break;
		case 'R':
			o->real = optarg;
			break;
		case 'h':
			fputs(validate_usage, stdout);
			return -1;
		case ':':
			return usage_error("validate: option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error(
				"validate: unknown option '%s' (see 'schedlab validate --help')",
				argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("validate: unexpected argument '%s'", argv[optind]);
	return 0;
}

/* the temporary directory removed; the table, the plot and the JSON; frees @res */
static int finish(const struct validate_opts *o, const struct validate_row *rows,
		  struct validate_result *res, int n, const char *dir)
{
	static const char *const tmp[] = { "real.out", "real.csv", "sim.out" };
	char p[600];
	FILE *json;
	int rc = 0;

	for (size_t i = 0; i < sizeof(tmp) / sizeof(tmp[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, tmp[i]);
		unlink(p);
	}
	rmdir(dir);
	validate_print_table(stdout, rows, res, n);
	if (o->plot && validate_plot(o->plot, rows, res, n))
		rc = 1;
	if (o->json) {
		json = outfile_open(o->json);
		if (!json || validate_write_json(json, rows, res, n, o->costs, o->features) ||
		    outfile_close(json)) {
			cli_message("validate: writing '%s' failed", o->json);
			rc = 1;
		}
	}
	free(res);
	if (outfile_commit() || outfile_check_stdout())
		rc = 1;
	else if (o->plot && plot_dir_render(o->plot, "validate.gp"))
		rc = 1;
	return rc;
}

/* --real FILE: the recorded real runs, simulated again */
static int resimulate(const struct validate_opts *o, const struct validate_row *rows,
		      struct validate_result *res, int n, const char *dir, int seeds)
{
	char err[512];
	char *text = NULL;
	FILE *f = fopen(o->real, "r");

	if (f)
		text = slurp_stream(f);
	else
		snprintf(err, sizeof(err), "cannot read '%s': %s", o->real, strerror(errno));
	if (!text || validate_read_real(text, o->real, rows, res, n, err, sizeof(err))) {
		free(text);
		free(res);
		rmdir(dir);
		return usage_error("validate: --real: %s", err);
	}
	free(text);
	printf("validate: %d rows, the real runs of %s, simulated %d time%s on -m host", n,
	       o->real, seeds, seeds == 1 ? "" : "s");
	print_sim_setup(o);
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		struct validate_result *r = &res[i];

		if (r->skipped)
			continue;
		fprintf(stderr, "validate: [%d/%d] %s\n", i + 1, n, rows[i].cmd);
		sim_runs(dir, rows[i].cmd, o, seeds, r);
	}
	return finish(o, rows, res, n, dir);
}

int cmd_validate(int argc, char **argv)
{
	struct validate_opts o = { 0 };
	struct validate_result *res;
	struct validate_row rows[64];
	char dir[] = "/tmp/schedlab-validate-XXXXXX", why[256];
	int rc = parse_opts(argc, argv, &o), n = 0, runs, seeds;
	bool perf_ok, missing[3] = { false };
	const char *tools[3] = { "perf", "hackbench", "stress-ng" };
	FILE *json = NULL;

	if (rc > 0)
		return rc;
	if (rc < 0)
		return 0;
	for (int i = 0; i < nr_validate_rows; i++)
		if (!o.only || strstr(validate_rows[i].cmd, o.only))
			rows[n++] = validate_rows[i];
	if (!n)
		return usage_error("validate: --only '%s' matches no row", o.only);
	/*
	 * a path that cannot be written is found now, not after the runs; the
	 * file is opened again after them, so that no simulated run (a child
	 * of this process) holds it and puts it in place
	 */
	if (o.json) {
		if (!(json = outfile_open(o.json))) {
			cli_message("validate: cannot write '%s': %s", o.json, strerror(errno));
			return EXIT_BAD_INPUT;
		}
		outfile_discard();
		json = NULL;
	}
	if (!mkdtemp(dir)) {
		cli_message("validate: cannot make a directory in /tmp: %s", strerror(errno));
		return 1;
	}
	runs = o.quick ? VALIDATE_QUICK_RUNS : VALIDATE_RUNS;
	seeds = o.seeds ? o.seeds : runs;
	res = xcalloc((size_t)n, sizeof(*res));
	if (o.real)
		return resimulate(&o, rows, res, n, dir, seeds);
	perf_ok = have("perf");
	if (perf_ok) {
		/* perf may be there yet not run (a wrapper without this kernel's tools) */
		pid_t pid = spawn("/dev/null");

		if (pid == 0) {
			execlp("perf", "perf", "stat", "-e", "task-clock", "-x,", "-o", "/dev/null",
			       "--", "true", (char *)NULL);
			_exit(127);
		}
		perf_ok = wait_for(pid) == 0;
	}
	for (int t = 0; t < 3; t++)
		missing[t] = t == 0 ? !perf_ok : !have(tools[t]);
	printf("validate: %d rows, %d real runs each under perf stat, %d simulated on -m host", n,
	       runs, seeds);
	print_sim_setup(&o);
	for (int t = 0; t < 3; t++)
		if (missing[t])
			printf("validate: %s is not installed%s (Debian package %s): its rows are skipped\n",
			       tools[t], t == 0 && have("perf") ? " or does not run" : "",
			       validate_package(tools[t]));
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		struct validate_result *r = &res[i];

		if (missing[0] || (rows[i].tool && missing[rows[i].tool[0] == 'h' ? 1 : 2])) {
			r->skipped = true;
			snprintf(r->why, sizeof(r->why), "%s not installed (Debian package %s)",
				 missing[0] ? "perf" : rows[i].tool,
				 validate_package(missing[0] ? "perf" : rows[i].tool));
			continue;
		}
		fprintf(stderr, "validate: [%d/%d] %s\n", i + 1, n, rows[i].cmd);
		for (int k = 0; k < runs; k++) {
			if (real_run(dir, rows[i].cmd, &r->real[r->nr_real], why, sizeof(why))) {
				r->skipped = true;
				snprintf(r->why, sizeof(r->why), "the real run failed: %.120s",
					 why);
				break;
			}
			r->nr_real++;
		}
		if (r->skipped)
			continue;
		sim_runs(dir, rows[i].cmd, &o, seeds, r);
	}
	return finish(&o, rows, res, n, dir);
}
