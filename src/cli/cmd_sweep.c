// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab sweep PLAN [-o DIR] [-j N] [--retry-failed] [--check]
 * schedlab sweep PLAN --emit parallel|slurm
 * schedlab sweep PLAN --point HASH
 * schedlab sweep PLAN --collect [--csv FILE] [--json FILE] [--plot DIR]
 * schedlab sweep PLAN --list
 *
 * A grid of runs (machines x workloads x axes x feature sets x settings x
 * seeds) from a plan file. Each point is one `schedlab run`, its result
 * DIR/points/HASH.json named by a hash of its command line and put in
 * place by a rename, so a sweep that stopped anywhere resumes by running
 * what is missing. The points run here (-j N at once), or through GNU
 * parallel or a Slurm job array; --collect merges them into one table.
 * docs/sweeps.md.
 */
#include "cli/cli.h"

#include "cli/compare_opts.h"
#include "cli/interrupt.h"
#include "cli/quote.h"
#include "cli/runpool.h"
#include "cli/session_opts.h"
#include "cli/study_file.h"
#include "cli/sweep_plan.h"
#include "report/json.h"
#include "report/json_read.h"
#include "report/outfile.h"
#include "report/plot_dir.h"
#include "report/sweep_table.h"
#include "report/version.h"
#include "sim/alloc.h"
#include "topo/cost_profile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char sweep_usage[] =
	"usage: schedlab sweep PLAN [-o DIR] [-j N] [--retry-failed] [--check] [--costs FILE]\n"
	"       schedlab sweep PLAN [-o DIR] --emit parallel|slurm [--retry-failed] [--check]\n"
	"       schedlab sweep PLAN [-o DIR] --point HASH [--check]\n"
	"       schedlab sweep PLAN [-o DIR] --collect [--csv FILE] [--json FILE] [--plot DIR]\n"
	"                          [--confidence PCT]\n"
	"       schedlab sweep PLAN [-o DIR] --list\n"
	"\n"
	"  PLAN                 the plan: axes and their values (docs/sweeps.md)\n"
	"  -o, --out DIR        where the points go (default: PLAN without .plan, plus .sweep)\n"
	"  -j, --jobs N         points at once, one process each (default: the CPUs available)\n"
	"  --retry-failed       run the points that failed before too\n"
	"  --check              validate scheduler invariants after every event\n"
	"  --costs FILE         a cost profile for every point, as 'option costs FILE' in the\n"
	"                       plan; give it to every command of the sweep (docs/calibration.md)\n"
	"  --emit parallel      print one command line per point to run, for GNU parallel\n"
	"  --emit slurm         write DIR/slurm/sweep.sbatch, a job array over the points to run\n"
	"  --point HASH         run one point, unless it is done (what the emitted lines do)\n"
	"  --collect            the table: per point but the seed, the mean and interval of each\n"
	"                       metric over the seeds; which points are missing or failed\n"
	"  --csv FILE, --json FILE  the table as CSV, as JSON (with every seed's value)\n"
	"  --plot DIR           each metric against each numeric axis, with gnuplot\n"
	"  --confidence PCT     confidence level of the intervals, 50 to 99.9 (default 95)\n"
	"  --list               every point: its hash, state and command line\n";

enum sweep_mode {
	MODE_RUN,
	MODE_EMIT_PARALLEL,
	MODE_EMIT_SLURM,
	MODE_POINT,
	MODE_COLLECT,
	MODE_LIST
};

struct sweep_opts {
	const char *plan, *out, *point, *csv, *json, *plot;
	enum sweep_mode mode;
	u64 jobs;
	double conf;
	bool retry_failed, check;
	char costs[PATH_MAX];	/* --costs FILE, resolved; "" if none */
};

static int set_mode(struct sweep_opts *o, enum sweep_mode m, const char *opt)
{
	if (o->mode != MODE_RUN && o->mode != m)
		return usage_error(
			"sweep: %s cannot go with --emit, --point, --collect or --list given already",
			opt);
	o->mode = m;
	return 0;
}

static int parse_opts(int argc, char **argv, struct sweep_opts *o)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "retry-failed", no_argument, NULL, 'R' },
		{ "check", no_argument, NULL, 'c' },
		{ "emit", required_argument, NULL, 'E' },
		{ "point", required_argument, NULL, 'P' },
		{ "collect", no_argument, NULL, 'K' },
		{ "csv", required_argument, NULL, 'V' },
		{ "json", required_argument, NULL, 'J' },
		{ "plot", required_argument, NULL, 'p' },
		{ "confidence", required_argument, NULL, 'q' },
		{ "list", no_argument, NULL, 'l' },
		{ "costs", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_opts co;
	int c;

	compare_opts_init(&co);
	o->conf = co.conf;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:j:h", opts, NULL)) != -1) {
		int r;

		switch (c) {
		case 'o':
			if (!strcmp(optarg, "-"))
				return usage_error("sweep: -o -: a sweep's points are files in a directory; standard output cannot hold them (give a directory)");
			o->out = optarg;
			break;
		case 'j':
		case 'q':
			r = compare_opt("sweep", c, optarg, &co);
			if (r)
				return r == 1 ? 1 : r;
			o->jobs = co.jobs;
			o->conf = co.conf;
			break;
		case 'R':
			o->retry_failed = true;
			break;
		case 'k': {
			char err[512];

			/* by its full path: the point hashes and the emitted lines hold it */
			if (!realpath(optarg, o->costs))
				return usage_error("sweep: --costs: %s: %s", optarg, strerror(errno));
			if (!cost_profile_load(o->costs, err, sizeof(err)))
				return usage_error("sweep: --costs: %s", err);
			break;
		}
		case 'c':
			o->check = true;
			break;
		case 'E':
			if (strcmp(optarg, "parallel") && strcmp(optarg, "slurm"))
				return usage_error(
					"sweep: --emit takes 'parallel' or 'slurm', got '%s'",
					optarg);
			if (set_mode(o,
				     strcmp(optarg, "slurm") ? MODE_EMIT_PARALLEL : MODE_EMIT_SLURM,
				     "--emit"))
				return EXIT_BAD_INPUT;
			break;
		case 'P':
			if (strlen(optarg) != SWEEP_HASH_LEN ||
			    strspn(optarg, "0123456789abcdef") != SWEEP_HASH_LEN)
				return usage_error(
					"sweep: --point takes a point's hash, %d hex digits, got '%s'",
					SWEEP_HASH_LEN, optarg);
			if (set_mode(o, MODE_POINT, "--point"))
				return EXIT_BAD_INPUT;
			o->point = optarg;
			break;
		case 'K':
			if (set_mode(o, MODE_COLLECT, "--collect"))
				return EXIT_BAD_INPUT;
			break;
		case 'V':
			o->csv = optarg;
			break;
		case 'J':
			o->json = optarg;
			break;
		case 'p':
			o->plot = optarg;
			break;
		case 'l':
			if (set_mode(o, MODE_LIST, "--list"))
				return EXIT_BAD_INPUT;
			break;
		case 'h':
			fputs(sweep_usage, stdout);
			return -1;
		case ':':
			return usage_error("sweep: option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error(
				"sweep: unknown option '%s' (see 'schedlab sweep --help')",
				argv[optind - 1]);
		}
	}
	if (optind == argc)
		return usage_error("sweep: missing the PLAN file (see 'schedlab sweep --help')");
	o->plan = argv[optind++];
	if (optind < argc)
		return usage_error("sweep: one plan at a time, got '%s' too", argv[optind]);
	if ((o->csv || o->json || o->plot) && o->mode != MODE_COLLECT)
		return usage_error("sweep: --csv, --json and --plot go with --collect");
	return 0;
}

/* ---- the output directory ---- */

/*
 * A point is done when its result file reads as one; a result file that
 * does not (cut short, garbage, no metrics, a metric null, or fewer metrics
 * than the other seeds of its row have) is corrupt, which counts as failed.
 */
enum point_state { POINT_MISSING, POINT_DONE, POINT_FAILED, POINT_CORRUPT, NR_POINT_STATES };
static const char *const state_names[] = { "missing", "done", "failed", "corrupt" };

/* --collect's exit status when a result file is corrupt (1: points missing or failed) */
#define EXIT_SWEEP_CORRUPT 4
/* a point's result file is never near this */
#define POINT_FILE_MAX (1 << 20)

struct sweep {
	struct sweep_opts o;
	struct sweep_plan plan;
	struct sweep_point *pts;
	int n;
	char out[PATH_MAX]; /* the output directory */
	enum point_state *state;
	char **why;	/* POINT_CORRUPT: what is wrong with the file */
};

static void point_path(char *buf, size_t len, const struct sweep *sw, const char *hash,
		       const char *ext)
{
	snprintf(buf, len, "%s/points/%s.%s", sw->out, hash, ext);
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* @path's contents, NUL-terminated; NULL with what went wrong in @why */
static char *read_point_file(const char *path, char *why, size_t len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(why, len, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	buf = xmalloc(POINT_FILE_MAX + 1);
	n = fread(buf, 1, POINT_FILE_MAX + 1, f);
	if (ferror(f) || n > POINT_FILE_MAX || memchr(buf, '\0', n)) {
		snprintf(why, len, "%s", ferror(f) ? "cannot read it" :
					 n > POINT_FILE_MAX ? "larger than 1 MiB" :
							      "not text");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/*
 * The result file of point @pt: its metrics into @rec and an
 * order-independent hash of their names into @names. 0, or -1 with what
 * is wrong in @why.
 */
static int load_point(const struct sweep *sw, const struct sweep_point *pt,
		      struct run_record *rec, u64 *names, char *why, size_t len)
{
	char path[PATH_MAX + 64], err[256];
	const struct jv *k, *h, *m;
	struct jv doc;
	char *text;
	int rc = -1;

	point_path(path, sizeof(path), sw, pt->hash, "json");
	text = read_point_file(path, why, len);
	if (!text)
		return -1;
	if (jv_parse(text, &doc, err, sizeof(err))) {
		free(text);
		snprintf(why, len, "not JSON (%s)", err);
		return -1;
	}
	free(text);
	k = jv_get(&doc, "kind");
	h = jv_get(&doc, "hash");
	m = jv_get(&doc, "metrics");
	memset(rec, 0, sizeof(*rec));
	*names = 0;
	if (!k || k->type != JV_STRING || strcmp(k->str, "sweep-point"))
		snprintf(why, len, "not a point's result (no \"kind\": \"sweep-point\")");
	else if (!h || h->type != JV_STRING || strcmp(h->str, pt->hash))
		snprintf(why, len, "not the result of point %s (its \"hash\" differs)", pt->hash);
	else if (!m || m->type != JV_OBJECT || !m->n)
		snprintf(why, len, "no metrics");
	else if (m->n > RUN_MAX_VALUES)
		snprintf(why, len, "more than %d metrics", RUN_MAX_VALUES);
	else
		rc = 0;
	for (int i = 0; !rc && i < m->n; i++) {
		if (m->items[i].type != JV_NUMBER) {
			snprintf(why, len, "metric '%.64s' is %s", m->keys[i],
				 m->items[i].type == JV_NULL ? "null" : "not a number");
			rc = -1;
		} else if (strlen(m->keys[i]) >= RUN_VALUE_NAME) {
			snprintf(why, len, "metric name '%.64s...' too long", m->keys[i]);
			rc = -1;
		} else {
			snprintf(rec->v[rec->nr].name, RUN_VALUE_NAME, "%s", m->keys[i]);
			rec->v[rec->nr++].value = m->items[i].num;
			*names += sweep_hash(m->keys[i]);
		}
	}
	rec->finished = !rc;
	jv_free(&doc);
	return rc;
}

static void set_corrupt(struct sweep *sw, int i, const char *why)
{
	sw->state[i] = POINT_CORRUPT;
	free(sw->why[i]);
	sw->why[i] = xstrdup(why);
}

/*
 * Every point's state, its result file read. The seeds of a row run the
 * same benchmark, so report the same metrics: a file with fewer (or other)
 * names than the row's fullest is corrupt too.
 */
static void read_states(struct sweep *sw)
{
	u64 *names = xcalloc((size_t)sw->n + 1, sizeof(*names));
	int *nr = xcalloc((size_t)sw->n + 1, sizeof(*nr));
	struct run_record *rec = xmalloc(sizeof(*rec));

	sw->state = xcalloc((size_t)sw->n, sizeof(*sw->state));
	sw->why = xcalloc((size_t)sw->n, sizeof(*sw->why));
	for (int i = 0; i < sw->n; i++) {
		char path[PATH_MAX + 64], why[512];

		/*
		 * --point needs its own point's state only: each task of a
		 * Slurm array runs it once a point, and must not read every
		 * result of the sweep each time.
		 */
		if (sw->o.mode == MODE_POINT && strcmp(sw->pts[i].hash, sw->o.point))
			continue;
		point_path(path, sizeof(path), sw, sw->pts[i].hash, "json");
		if (exists(path)) {
			if (load_point(sw, &sw->pts[i], rec, &names[i], why, sizeof(why)))
				set_corrupt(sw, i, why);
			else
				sw->state[i] = POINT_DONE;
			nr[i] = rec->nr;
			continue;
		}
		point_path(path, sizeof(path), sw, sw->pts[i].hash, "failed");
		sw->state[i] = exists(path) ? POINT_FAILED : POINT_MISSING;
	}
	for (int first = 0, end; first < sw->n; first = end) {
		int best = -1;

		for (end = first; end < sw->n && sw->pts[end].group == sw->pts[first].group; end++)
			if (sw->state[end] == POINT_DONE && (best < 0 || nr[end] > nr[best]))
				best = end;
		for (int i = first; best >= 0 && i < end; i++) {
			char why[128];

			if (sw->state[i] != POINT_DONE || (nr[i] == nr[best] && names[i] == names[best]))
				continue;
			if (nr[i] < nr[best])
				snprintf(why, sizeof(why),
					 "%d metrics where seed %llu's result has %d", nr[i],
					 (unsigned long long)sw->plan.seeds[sw->pts[best].seed],
					 nr[best]);
			else
				snprintf(why, sizeof(why), "other metrics than seed %llu's result",
					 (unsigned long long)sw->plan.seeds[sw->pts[best].seed]);
			set_corrupt(sw, i, why);
		}
	}
	free(rec);
	free(names);
	free(nr);
}

/* one line on stderr for each corrupt result: a plain re-run says so, --collect too */
static void report_corrupt(const struct sweep *sw)
{
	for (int i = 0; i < sw->n; i++) {
		char path[PATH_MAX + 64];

		if (sw->state[i] != POINT_CORRUPT)
			continue;
		point_path(path, sizeof(path), sw, sw->pts[i].hash, "json");
		cli_message("sweep: %s: corrupt result of point %s: %s; counted as failed "
			    "(--retry-failed runs it again)",
			    path, sw->pts[i].hash, sw->why[i]);
	}
}

static int make_dir(const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		return usage_error("sweep: cannot create directory '%s': %s", path,
				   strerror(errno));
	return 0;
}

static int make_dirs(const struct sweep *sw)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/points", sw->out);
	return make_dir(sw->out) || make_dir(path) ? EXIT_BAD_INPUT : 0;
}

/* @text into @path through a temporary and a rename: whole, or not at all */
static int write_whole(const char *path, const char *text)
{
	FILE *f = outfile_open(path);

	if (!f) {
		cli_message("sweep: cannot write '%s': %s", path, strerror(errno));
		return 1;
	}
	fputs(text, f);
	if (outfile_close(f) || outfile_commit())
		return 1;
	return 0;
}

/* every point to run gets its DIR/points/HASH.cmd, the command it runs */
static int write_cmds(const struct sweep *sw, const int *idx, int n)
{
	for (int i = 0; i < n; i++) {
		const struct sweep_point *pt = &sw->pts[idx[i]];
		char path[PATH_MAX + 64], *text;
		int rc;

		point_path(path, sizeof(path), sw, pt->hash, "cmd");
		if (exists(path))
			continue;
		text = xmalloc(strlen(pt->cmd) + 16);
		sprintf(text, "schedlab %s\n", pt->cmd);
		rc = write_whole(path, text);
		free(text);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- running points ---- */

static const char *better_name(enum metric_better b)
{
	return b == METRIC_LOWER ? "lower" : b == METRIC_HIGHER ? "higher" : "info";
}

/* the point's axes as the collected table names them */
static void point_axes(struct json_writer *w, const struct sweep *sw, const struct sweep_point *pt)
{
	const struct sweep_plan *p = &sw->plan;

	json_key(w, "axes");
	json_begin_object(w);
	json_kv_str(w, "machine", p->machines.names.v[pt->machine]);
	json_kv_str(w, "workload", p->workloads.names.v[pt->workload]);
	for (int a = 0; a < p->nr_axes; a++)
		if (pt->axis[a] >= 0)
			json_kv_str(w, p->axis_name[a], p->axis_values[a].v[pt->axis[a]]);
	json_kv_str(w, "features", p->features.names.v[pt->features]);
	json_kv_str(w, "settings", p->settings.names.v[pt->settings]);
	json_kv_u64(w, "seed", p->seeds[pt->seed]);
	json_end_object(w);
}

/* DIR/points/HASH.json: what the point's run measured (docs/sweeps.md) */
static int write_point(const struct sweep *sw, const struct sweep_point *pt,
		       const struct run_record *rec)
{
	char path[PATH_MAX + 64];
	struct json_writer w;
	FILE *f;

	point_path(path, sizeof(path), sw, pt->hash, "json");
	f = outfile_open(path);
	if (!f) {
		cli_message("sweep: cannot write '%s': %s", path, strerror(errno));
		return 1;
	}
	json_init(&w, f);
	json_begin_object(&w);
	json_kv_str(&w, "kind", "sweep-point");
	json_kv_schedlab(&w);
	json_kv_str(&w, "hash", pt->hash);
	json_key(&w, "command");
	{
		char *cmd = xmalloc(strlen(pt->cmd) + 16);

		sprintf(cmd, "schedlab %s", pt->cmd);
		json_str(&w, cmd);
		free(cmd);
	}
	point_axes(&w, sw, pt);
	json_kv_u64(&w, "events", rec->events);
	json_kv_u64(&w, "sim_time_ns", rec->sim_ns);
	json_key(&w, "metrics");
	json_begin_object(&w);
	for (int i = 0; i < rec->nr; i++)
		json_kv_double(&w, rec->v[i].name, rec->v[i].value);
	json_end_object(&w);
	json_key(&w, "better");
	json_begin_object(&w);
	for (int i = 0; i < rec->nr; i++)
		json_kv_str(&w, rec->v[i].name, better_name(rec->v[i].better));
	json_end_object(&w);
	json_end_object(&w);
	if (json_finish(&w) || outfile_close(f) || outfile_commit()) {
		outfile_discard();
		cli_message("sweep: writing '%s' failed", path);
		return 1;
	}
	/* a result now: an old failure of the point no longer stands */
	point_path(path, sizeof(path), sw, pt->hash, "failed");
	unlink(path);
	return 0;
}

struct run_ctx {
	struct sweep *sw;
	const int *idx;
	int done, failed, write_failed;
};

static void point_done(int i, int rc, const char *what, const struct run_record *rec, void *arg)
{
	struct run_ctx *ctx = arg;
	struct sweep *sw = ctx->sw;
	const struct sweep_point *pt = &sw->pts[ctx->idx[i]];
	char path[PATH_MAX + 64], msg[RUN_WHY_LEN + 64];

	if (!rc && rec->finished) {
		if (write_point(sw, pt, rec))
			ctx->write_failed++;
		else
			ctx->done++;
		return;
	}
	/* stopped with the sweep (Ctrl-C, scancel, a time limit): missing, not failed */
	if (interrupt_signal)
		return;
	ctx->failed++;
	if (rc)
		snprintf(msg, sizeof(msg), "the run %s\n", what);
	else if (rec->why[0])
		/* the cause as run prints it: which workload, when, why */
		snprintf(msg, sizeof(msg), "%s\n", rec->why);
	else
		snprintf(msg, sizeof(msg),
			 "the run did not finish (all tasks blocked, or a limit)\n");
	cli_message("sweep: point %s (%s) failed: %.*s", pt->hash, pt->cmd, (int)strlen(msg) - 1,
		    msg);
	point_path(path, sizeof(path), sw, pt->hash, "failed");
	if (write_whole(path, msg))
		ctx->write_failed++;
}

/* run the points @idx[0..n) here, @jobs at once; each result is kept as it ends */
static int run_points(struct sweep *sw, const int *idx, int n, int jobs)
{
	struct session_config *cfgs = xcalloc((size_t)n, sizeof(*cfgs));
	struct run_record *recs = xcalloc((size_t)n, sizeof(*recs));
	struct run_ctx ctx = { .sw = sw, .idx = idx };
	char err[512];
	int failed, rc;

	for (int i = 0; i < n; i++)
		cfgs[i] = sw->pts[idx[i]].cfg;
	interrupt_install();
	rc = run_pool_each(cfgs, n, jobs, sw->o.check, point_done, &ctx, recs, &failed, err,
			   sizeof(err));
	free(cfgs);
	free(recs);
	/* the points that ended before the signal are written, and stay */
	if (interrupt_signal) {
		char what[5 * PATH_MAX], shown[4 * PATH_MAX + 1];

		snprintf(what, sizeof(what),
			 "%d of the %d point%s to run written to %s/points; the same command runs the rest",
			 ctx.done, n, n == 1 ? "" : "s", cli_quote(shown, sizeof(shown), sw->out));
		return interrupt_exit_saying("sweep", what);
	}
	if (rc && failed < 0) {
		cli_message("sweep: %s", err);
		return 1;
	}
	if (sw->o.mode == MODE_RUN)
		printf("sweep: ran %d point%s: %d done, %d failed\n", n, n == 1 ? "" : "s",
		       ctx.done, ctx.failed);
	return ctx.failed || ctx.write_failed ? 1 : 0;
}

/* the points to run: the missing ones, and with --retry-failed the failed ones */
static int *pending(const struct sweep *sw, int *n)
{
	int *idx = xcalloc((size_t)sw->n + 1, sizeof(*idx));

	*n = 0;
	for (int i = 0; i < sw->n; i++)
		if (sw->state[i] == POINT_MISSING ||
		    ((sw->state[i] == POINT_FAILED || sw->state[i] == POINT_CORRUPT) &&
		     sw->o.retry_failed))
			idx[(*n)++] = i;
	return idx;
}

/* the points in each state; count[POINT_FAILED] includes the corrupt ones */
static void count_states(const struct sweep *sw, int *count)
{
	for (int st = 0; st < NR_POINT_STATES; st++)
		count[st] = 0;
	for (int i = 0; i < sw->n; i++)
		count[sw->state[i]]++;
	count[POINT_FAILED] += count[POINT_CORRUPT];
}

/* " (N corrupt)" when some failed points are corrupt results */
static const char *corrupt_note(const int *count, char *buf, size_t len)
{
	buf[0] = '\0';
	if (count[POINT_CORRUPT])
		snprintf(buf, len, " (%d corrupt)", count[POINT_CORRUPT]);
	return buf;
}

static int cmd_run_all(struct sweep *sw)
{
	int count[NR_POINT_STATES], n, rc;
	char note[32];
	int *idx;

	count_states(sw, count);
	idx = pending(sw, &n);
	printf("sweep: %s: %d points: %d done, %d failed%s%s, %d to run\n", sw->plan.origin,
	       sw->n, count[POINT_DONE], count[POINT_FAILED],
	       corrupt_note(count, note, sizeof(note)),
	       count[POINT_FAILED] && !sw->o.retry_failed ? " (--retry-failed runs them again)" :
							    "",
	       n);
	fflush(stdout);
	rc = n ? write_cmds(sw, idx, n) : 0;
	if (!rc && n)
		rc = run_points(sw, idx, n, sw->o.jobs ? (int)sw->o.jobs : run_pool_default_jobs());
	free(idx);
	return rc;
}

static int cmd_point(struct sweep *sw)
{
	char err[512];
	int i;

	for (i = 0; i < sw->n; i++)
		if (!strcmp(sw->pts[i].hash, sw->o.point))
			break;
	if (i == sw->n)
		return usage_error("sweep: %s has no point %s (see 'schedlab sweep %s --list')",
				   sw->plan.origin, sw->o.point, sw->plan.origin);
	if (session_check(&sw->pts[i].cfg, err, sizeof(err)))
		return usage_error("sweep: %s: point %s: %s", sw->plan.origin, sw->o.point, err);
	/* a script submitted twice, or a list emitted before others ran, costs nothing */
	if (sw->state[i] == POINT_DONE) {
		printf("sweep: point %s is done already\n", sw->o.point);
		return 0;
	}
	if (write_cmds(sw, &i, 1))
		return 1;
	return run_points(sw, &i, 1, 1);
}

/* ---- emitting for GNU parallel and Slurm ---- */

/* a growing string */
struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n + 1 > b->cap) {
		b->cap = 2 * (b->len + n + 1);
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

/* @s shell-quoted, appended after a blank */
static void sb_add_quoted(struct sbuf *b, const char *s)
{
	char *q = shell_quote(s);

	sb_add(b, " ");
	sb_add(b, q);
	free(q);
}

/*
 * A path the emitted lines cannot carry: control characters (a newline
 * would end a line of the list GNU parallel reads, or an #SBATCH line; the
 * others would reach the terminal), and for Slurm a backslash, which turns
 * off the %A/%a of the output file names. EXIT_BAD_INPUT with one message.
 */
static int emit_path_ok(const char *what, const char *path, bool slurm)
{
	for (const char *c = path; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f || (slurm && *c == '\\'))
			return usage_error(
				"sweep: --emit %s: %s '%s' holds %s, which the emitted %s cannot carry",
				slurm ? "slurm" : "parallel", what, path,
				*c == '\\' ? "a backslash" : "a control character",
				slurm ? "script" : "command lines");
	return 0;
}

/* the paths as given (and the directory they are relative to), before any is created */
static int emit_paths_ok(const struct sweep *sw)
{
	bool slurm = sw->o.mode == MODE_EMIT_SLURM;
	char cwd[PATH_MAX];
	int rc;

	rc = emit_path_ok("the plan's path", sw->o.plan, slurm);
	if (!rc)
		rc = emit_path_ok("the output directory", sw->out, slurm);
	if (!rc && (sw->o.plan[0] != '/' || sw->out[0] != '/') && getcwd(cwd, sizeof(cwd)))
		rc = emit_path_ok("the current directory", cwd, slurm);
	return rc;
}

/*
 * "'/abs/schedlab' sweep '/abs/PLAN' -o '/abs/DIR'", the prefix of every
 * point's command, each path shell-quoted whatever bytes it holds. NULL
 * with a message (exit status in *@rc) when a path cannot be resolved or
 * carried.
 */
static char *point_prefix(const struct sweep *sw, bool slurm, int *rc)
{
	char self[PATH_MAX], plan[PATH_MAX], out[PATH_MAX];
	ssize_t r = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct sbuf b = { 0 };

	if (r < 0) {
		cli_message("sweep: cannot find this program (/proc/self/exe): %s",
			    strerror(errno));
		*rc = 1;
		return NULL;
	}
	self[r] = '\0';
	if (!realpath(sw->o.plan, plan) || !realpath(sw->out, out)) {
		cli_message("sweep: cannot resolve '%s' or '%s': %s", sw->o.plan, sw->out,
			    strerror(errno));
		*rc = 1;
		return NULL;
	}
	*rc = emit_path_ok("this program's path", self, slurm);
	if (!*rc)
		*rc = emit_path_ok("the plan's path", plan, slurm);
	if (!*rc)
		*rc = emit_path_ok("the output directory", out, slurm);
	if (!*rc && sw->o.costs[0])
		*rc = emit_path_ok("the cost profile's path", sw->o.costs, slurm);
	if (*rc)
		return NULL;
	b.s = shell_quote(self);
	b.len = b.cap = strlen(b.s);
	sb_add(&b, " sweep");
	sb_add_quoted(&b, plan);
	sb_add(&b, " -o");
	sb_add_quoted(&b, out);
	if (sw->o.check)
		sb_add(&b, " --check");
	if (sw->o.costs[0]) {
		sb_add(&b, " --costs");
		sb_add_quoted(&b, sw->o.costs);
	}
	return b.s;
}

static int emit_parallel(struct sweep *sw)
{
	int n, rc;
	int *idx = pending(sw, &n);
	char *prefix = NULL;

	rc = write_cmds(sw, idx, n);
	if (!rc && n)
		prefix = point_prefix(sw, false, &rc);
	for (int i = 0; i < n && !rc; i++)
		printf("%s --point %s\n", prefix, sw->pts[idx[i]].hash);
	free(prefix);
	free(idx);
	return rc;
}

/*
 * @s for an #SBATCH line, in double quotes: sbatch splits those lines at
 * blanks (a backslash does not keep a blank in), takes quotes and '#' as
 * its own outside quotes, a backslash as an escape everywhere, and makes a
 * '%' in a file name a pattern. So: "...", a '"' as \", a '%' as %%; a
 * backslash was refused (it would turn the %A and %a patterns off).
 */
static void sb_add_sbatch(struct sbuf *b, const char *s)
{
	sb_add(b, "\"");
	for (; *s; s++) {
		char c[2] = { *s, '\0' };

		sb_add(b, *s == '%' ? "%%" : *s == '"' ? "\\\"" : c);
	}
}

/*
 * Nothing left to run: a script that runs nothing, so that 'emit slurm &&
 * sbatch DIR/slurm/sweep.sbatch' still works and an older array's script
 * is not left there to be submitted again.
 */
static int emit_slurm_nothing(struct sweep *sw)
{
	char dir[PATH_MAX + 16], abs_dir[PATH_MAX], shown[4 * PATH_MAX + 1];
	const struct sweep_plan *p = &sw->plan;
	struct sbuf sb = { 0 }, path = { 0 };
	const char *left = sw->o.retry_failed ? "done" : "done or failed";
	char *q;
	mode_t mask;
	FILE *f;
	int rc;

	snprintf(dir, sizeof(dir), "%s/slurm", sw->out);
	if ((rc = make_dir(sw->out)) || (rc = make_dir(dir)))
		return rc;
	if (!realpath(dir, abs_dir))
		return usage_error("sweep: cannot resolve '%s': %s", dir, strerror(errno));
	sb_add(&path, abs_dir);
	sb_add(&path, "/sweep.sbatch");
	f = outfile_open(path.s);
	if (!f) {
		cli_message("sweep: cannot write '%s': %s", path.s, strerror(errno));
		free(path.s);
		return 1;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fileno(f), 0777 & ~mask); /* as the array's script */
	fprintf(f, "#!/bin/sh\n");
	fprintf(f, "# written by schedlab sweep %s --emit slurm: nothing to run, %d point%s %s\n",
		cli_quote(shown, sizeof(shown), p->origin), sw->n, sw->n == 1 ? "" : "s", left);
	fprintf(f, "#SBATCH --job-name=schedlab-sweep%s%s\n", p->name ? "-" : "",
		p->name ? p->name : "");
	fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --time=1\n");
	sb_add_sbatch(&sb, abs_dir);
	fprintf(f, "#SBATCH --output=%s/nothing-%%j.out\"\n", sb.s);
	fprintf(f, "#\n# Every point was %s when this was written: submitted, it runs no\n"
		   "# point and exits 0. '--collect' makes the table%s.\n",
		left, sw->o.retry_failed ? "" : "; '--retry-failed' runs the failed ones");
	fprintf(f, "echo \"$0: nothing to run: every point was %s when it was written\"\n"
		   "exit 0\n",
		left);
	if (outfile_close(f)) {
		outfile_commit(); /* names the file, removes the temporary */
		rc = 1;
		goto out;
	}
	printf("sweep: %s: nothing to run (%d point%s %s); wrote %s, which runs nothing\n",
	       cli_quote(shown, sizeof(shown), p->origin), sw->n, sw->n == 1 ? "" : "s", left,
	       path.s);
	q = shell_word(path.s);
	printf("submit with: sbatch %s\n", q);
	free(q);
	if (outfile_check_stdout()) {
		outfile_discard();
		rc = 1;
	} else if (outfile_commit()) {
		rc = 1;
	}
out:
	if (rc)
		outfile_discard();
	free(sb.s);
	free(path.s);
	return rc;
}

static int emit_slurm(struct sweep *sw)
{
	char dir[PATH_MAX + 16], abs_dir[PATH_MAX], shown[4 * PATH_MAX + 1];
	const struct sweep_plan *p = &sw->plan;
	struct sbuf list = { 0 }, sb = { 0 };
	char *prefix = NULL, *text, *q, *script;
	int n, tasks, rc;
	int *idx = pending(sw, &n);
	FILE *lf, *f;
	mode_t mask;

	if (!n) {
		free(idx);
		return emit_slurm_nothing(sw);
	}
	rc = write_cmds(sw, idx, n);
	if (!rc)
		prefix = point_prefix(sw, true, &rc);
	snprintf(dir, sizeof(dir), "%s/slurm", sw->out);
	if (!rc)
		rc = make_dir(dir);
	if (!rc && !realpath(dir, abs_dir))
		rc = usage_error("sweep: cannot resolve '%s': %s", dir, strerror(errno));
	if (rc) {
		free(prefix);
		free(idx);
		return rc;
	}
	/* the list, named by its contents: a new emit never changes what a running array reads */
	sb_add(&sb, "");
	for (int i = 0; i < n; i++) {
		sb_add(&sb, sw->pts[idx[i]].hash);
		sb_add(&sb, "\n");
	}
	text = sb.s;
	free(idx);
	sb = (struct sbuf){ 0 };
	sb_add(&list, abs_dir);
	{
		char name[64];

		snprintf(name, sizeof(name), "/points-%016llx.txt",
			 (unsigned long long)sweep_hash(text));
		sb_add(&list, name);
	}
	sb_add(&sb, abs_dir);
	sb_add(&sb, "/sweep.sbatch");
	script = sb.s;
	sb = (struct sbuf){ 0 };
	tasks = (n + p->chunk - 1) / p->chunk;
	/* both opened before anything is written, and put in place together */
	lf = outfile_open(list.s);
	if (!lf) {
		cli_message("sweep: cannot write '%s': %s", list.s, strerror(errno));
		rc = 1;
		goto out;
	}
	f = outfile_open(script);
	if (!f) {
		cli_message("sweep: cannot write '%s': %s", script, strerror(errno));
		rc = 1;
		goto out;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fileno(f), 0777 & ~mask); /* an executable script, as sbatch does not need */
	fputs(text, lf);
	fprintf(f, "#!/bin/sh\n");
	/* a comment line: the plan's name as typed, shown, never a line break */
	fprintf(f, "# written by schedlab sweep %s --emit slurm: %d point%s, %d a task\n",
		cli_quote(shown, sizeof(shown), p->origin), n, n == 1 ? "" : "s", p->chunk);
	fprintf(f, "#SBATCH --job-name=schedlab-sweep%s%s\n", p->name ? "-" : "",
		p->name ? p->name : "");
	fprintf(f, "#SBATCH --array=0-%d\n", tasks - 1);
	fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
	if (p->time)
		fprintf(f, "#SBATCH --time=%s\n", p->time);
	if (p->mem)
		fprintf(f, "#SBATCH --mem=%s\n", p->mem);
	sb_add_sbatch(&sb, abs_dir);
	fprintf(f, "#SBATCH --output=%s/task-%%A_%%a.out\"\n", sb.s);
	fprintf(f, "#SBATCH --error=%s/task-%%A_%%a.err\"\n", sb.s);
	for (int i = 0; i < p->sbatch.n; i++)
		fprintf(f, "#SBATCH %s\n", p->sbatch.v[i]);
	q = shell_quote(list.s);
	fprintf(f,
		"#\n# array task T runs lines T*%d+1 .. T*%d+%d of the list, one\n"
		"# 'schedlab sweep --point' each: a point's result appears whole or not at all.\n"
		"# A task that finds no point to run, or whose point fails, exits 1.\n",
		p->chunk, p->chunk, p->chunk);
	fprintf(f, "case $SLURM_ARRAY_TASK_ID in\n"
		   "'' | *[!0-9]*)\n"
		   "\techo \"$0: SLURM_ARRAY_TASK_ID is '$SLURM_ARRAY_TASK_ID', not an array task's number\" >&2\n"
		   "\texit 1\n"
		   "\t;;\n"
		   "esac\n");
	fprintf(f, "first=$((SLURM_ARRAY_TASK_ID * %d + 1))\n", p->chunk);
	fprintf(f, "last=$((first + %d))\n", p->chunk - 1);
	fprintf(f, "list=%s\n", q);
	free(q);
	fprintf(f, "points=$(sed -n \"${first},${last}p\" \"$list\") || exit 1\n");
	fprintf(f, "if [ -z \"$points\" ]; then\n"
		   "\techo \"$0: array task $SLURM_ARRAY_TASK_ID: no point on lines $first-$last of $list\" >&2\n"
		   "\texit 1\n"
		   "fi\n");
	fprintf(f, "rc=0\nfor h in $points; do\n");
	fprintf(f, "\t%s --point \"$h\" || rc=1\ndone\nexit $rc\n", prefix);
	if (outfile_close(lf) || outfile_close(f)) {
		outfile_commit(); /* names the file, removes the temporaries */
		rc = 1;
		goto out;
	}
	printf("sweep: wrote %s: %d point%s in %d array task%s of up to %d\n",
	       cli_quote(shown, sizeof(shown), script), n, n == 1 ? "" : "s", tasks,
	       tasks == 1 ? "" : "s", p->chunk);
	q = shell_word(script);
	printf("submit with: sbatch %s\n", q);
	free(q);
	/* nothing is put in place unless standard output took what was printed */
	if (outfile_check_stdout()) {
		outfile_discard();
		rc = 1;
	} else if (outfile_commit()) {
		rc = 1;
	}
out:
	if (rc)
		outfile_discard();
	free(text);
	free(list.s);
	free(sb.s);
	free(script);
	free(prefix);
	return rc;
}

/* ---- collecting ---- */

static int find_name(char (*names)[RUN_VALUE_NAME], int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

#define SWEEP_LIST_MAX 20

/* the points in state @st, a line each (the first SWEEP_LIST_MAX) */
static void list_points(const struct sweep *sw, enum point_state st, int count)
{
	int shown = 0;

	if (!count)
		return;
	printf("\n%s: %d point%s\n", state_names[st], count, count == 1 ? "" : "s");
	for (int i = 0; i < sw->n && shown < SWEEP_LIST_MAX; i++) {
		char why[512] = "";

		if (sw->state[i] != st)
			continue;
		if (st == POINT_CORRUPT)
			snprintf(why, sizeof(why), "%s", sw->why[i]);
		if (st == POINT_FAILED) {
			char path[PATH_MAX + 64];
			FILE *f;

			point_path(path, sizeof(path), sw, sw->pts[i].hash, "failed");
			f = fopen(path, "r");
			if (f) {
				if (fgets(why, sizeof(why), f))
					why[strcspn(why, "\n")] = '\0';
				fclose(f);
			}
		}
		printf("  %s  schedlab %s%s%s\n", sw->pts[i].hash, sw->pts[i].cmd, *why ? ": " : "",
		       why);
		shown++;
	}
	if (count > shown)
		printf("  ... and %d more ('schedlab sweep %s --list' lists them all)\n",
		       count - shown, sw->o.plan);
}

/* two outputs named the same would overwrite each other: refuse before anything */
static int same_outputs(const struct sweep_opts *o)
{
	const struct {
		const char *opt, *path;
	} out[] = {
		{ "--csv", o->csv },
		{ "--json", o->json },
		{ "--plot", o->plot },
	};
	const int n = sizeof(out) / sizeof(out[0]);

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (out[i].path && out[j].path && outfile_same(out[i].path, out[j].path))
				return usage_error("sweep: %s and %s name the same file '%s'",
						   out[i].opt, out[j].opt, out[j].path);
	return 0;
}

/*
 * --collect's outputs, opened before anything is read or printed, so a bad
 * path costs nothing and touches no file (exit 2). They stay temporaries
 * (report/outfile.h) until the table is printed and standard output was
 * written without error.
 */
static int open_outputs(const struct sweep_opts *o, FILE **csv, FILE **json)
{
	char err[512];
	int rc = same_outputs(o);

	*csv = *json = NULL;
	if (rc)
		return rc;
	if (o->csv && !(*csv = outfile_open(o->csv)))
		rc = usage_error("sweep: cannot write --csv file '%s': %s", o->csv,
				 strerror(errno));
	else if (o->json && !(*json = outfile_open(o->json)))
		rc = usage_error("sweep: cannot write --json file '%s': %s", o->json,
				 strerror(errno));
	else if (o->plot && plot_dir_prepare(o->plot, err, sizeof(err)))
		rc = usage_error("sweep: %s", err);
	if (rc)
		outfile_discard();
	return rc;
}

/* the table into the open outputs, then all of them put in place, or none */
static int write_outputs(const struct sweep_opts *o, const struct sweep_table *t, FILE *csv,
			 FILE *json)
{
	char err[512];
	int nr_plots = 0;

	if (csv && (sweep_table_csv(csv, t) || outfile_close(csv)))
		goto failed_write;
	if (json && (sweep_table_json(json, t) || outfile_close(json)))
		goto failed_write;
	if (o->plot && sweep_table_plot(o->plot, t, &nr_plots, err, sizeof(err))) {
		outfile_discard();
		cli_message("sweep: %s", err);
		return 1;
	}
	if (outfile_check_stdout()) {
		outfile_discard();
		return 1;
	}
	/* outfile_commit() names the file it could not write or rename */
	if (outfile_commit())
		return 1;
	if (o->plot && plot_dir_render(o->plot, "plots.gp"))
		return 1;
	if (o->plot && !nr_plots)
		fprintf(stderr,
			"schedlab: sweep: --plot: no axis is numeric with two values or more: nothing to draw\n");
	return 0;

failed_write:
	/* the commit reports which file failed, and removes every temporary */
	outfile_commit();
	return 1;
}

/*
 * A done point's metrics into @rec; a result file that no longer reads
 * (changed since read_states()) becomes corrupt, said on stderr. 0 or -1.
 */
static int reload_point(struct sweep *sw, int i, struct run_record *rec)
{
	char why[512];
	u64 names;

	if (!load_point(sw, &sw->pts[i], rec, &names, why, sizeof(why)))
		return 0;
	set_corrupt(sw, i, why);
	cli_message("sweep: point %s: corrupt result: %s; counted as failed", sw->pts[i].hash,
		    why);
	return -1;
}

static int collect(struct sweep *sw)
{
	const struct sweep_plan *p = &sw->plan;
	char(*names)[RUN_VALUE_NAME] = xcalloc(RUN_MAX_VALUES, sizeof(*names));
	struct run_record *rec = xmalloc(sizeof(*rec));
	const char *axis_names[SWEEP_MAX_AXES + 4], *metrics[RUN_MAX_VALUES];
	int nr_names = 0, nr_axes = 0, nr_rows = 0, count[NR_POINT_STATES], rc = 0;
	bool with_features = p->features.lines[0] > 0, with_settings = p->settings.lines[0] > 0;
	struct sweep_row *rows;
	struct sweep_table t;
	FILE *csv, *json;
	char note[32];

	rc = open_outputs(&sw->o, &csv, &json);
	if (rc) {
		free(names);
		free(rec);
		return rc;
	}
	/* the values: the plan's metrics, or every one a point reported, in order */
	for (int m = 0; m < p->metrics.n; m++)
		snprintf(names[nr_names++], RUN_VALUE_NAME, "%s", p->metrics.v[m]);
	for (int i = 0; !p->metrics.n && i < sw->n; i++) {
		if (sw->state[i] != POINT_DONE || reload_point(sw, i, rec))
			continue;
		for (int k = 0; k < rec->nr; k++)
			if (find_name(names, nr_names, rec->v[k].name) < 0 &&
			    nr_names < RUN_MAX_VALUES)
				snprintf(names[nr_names++], RUN_VALUE_NAME, "%s", rec->v[k].name);
	}
	for (int m = 0; m < nr_names; m++)
		metrics[m] = names[m];
	axis_names[nr_axes++] = "machine";
	axis_names[nr_axes++] = "workload";
	for (int a = 0; a < p->nr_axes; a++)
		axis_names[nr_axes++] = p->axis_name[a];
	if (with_features)
		axis_names[nr_axes++] = "features";
	if (with_settings)
		axis_names[nr_axes++] = "settings";
	rows = xcalloc((size_t)sw->n / (size_t)p->nr_seeds + 1, sizeof(*rows));
	for (int i = 0; i < sw->n; i++) {
		const struct sweep_point *pt = &sw->pts[i];
		struct sweep_row *r;
		int c = 0;

		if (!i || sw->pts[i - 1].group != pt->group) {
			r = &rows[nr_rows++];
			r->axis = xcalloc((size_t)nr_axes, sizeof(*r->axis));
			r->v = xcalloc((size_t)(nr_names * p->nr_seeds) + 1, sizeof(*r->v));
			for (int k = 0; k < nr_names * p->nr_seeds; k++)
				r->v[k] = NAN;
			r->axis[c++] = p->machines.names.v[pt->machine];
			r->axis[c++] = p->workloads.names.v[pt->workload];
			for (int a = 0; a < p->nr_axes; a++)
				r->axis[c++] = pt->axis[a] >= 0 ? p->axis_values[a].v[pt->axis[a]] :
								  "";
			if (with_features)
				r->axis[c++] = p->features.names.v[pt->features];
			if (with_settings)
				r->axis[c++] = p->settings.names.v[pt->settings];
		}
		r = &rows[nr_rows - 1];
		rec->nr = 0;
		if (sw->state[i] == POINT_DONE)
			reload_point(sw, i, rec);
		r->done += sw->state[i] == POINT_DONE;
		r->failed += sw->state[i] == POINT_FAILED || sw->state[i] == POINT_CORRUPT;
		r->corrupt += sw->state[i] == POINT_CORRUPT;
		r->missing += sw->state[i] == POINT_MISSING;
		for (int k = 0; sw->state[i] == POINT_DONE && k < rec->nr; k++) {
			int m = find_name(names, nr_names, rec->v[k].name);

			if (m >= 0)
				r->v[m * p->nr_seeds + pt->seed] = rec->v[k].value;
		}
	}
	t = (struct sweep_table){
		.name = p->name,
		.nr_axes = nr_axes,
		.axis_names = axis_names,
		.nr_metrics = nr_names,
		.metrics = metrics,
		.nr_seeds = p->nr_seeds,
		.conf = sw->o.conf,
		.nr_rows = nr_rows,
		.rows = rows,
		.line_axis = with_features ? "features" : NULL,
	};
	count_states(sw, count);
	printf("sweep: %s: %d points: %d done, %d failed%s, %d missing\n\n", p->origin, sw->n,
	       count[POINT_DONE], count[POINT_FAILED], corrupt_note(count, note, sizeof(note)),
	       count[POINT_MISSING]);
	sweep_table_print(stdout, &t);
	for (int i = 0; i < p->notes.n; i++)
		printf("%s %s\n", i ? "     " : "note:", p->notes.v[i]);
	list_points(sw, POINT_CORRUPT, count[POINT_CORRUPT]);
	list_points(sw, POINT_FAILED, count[POINT_FAILED] - count[POINT_CORRUPT]);
	list_points(sw, POINT_MISSING, count[POINT_MISSING]);
	rc = write_outputs(&sw->o, &t, csv, json);
	for (int i = 0; i < nr_rows; i++) {
		free(rows[i].axis);
		free(rows[i].v);
	}
	free(rows);
	free(names);
	free(rec);
	/*
	 * An incomplete sweep is not a clean result, though its table is
	 * printed: 1, or EXIT_SWEEP_CORRUPT when a result file is corrupt.
	 */
	if (!rc && count[POINT_CORRUPT])
		rc = EXIT_SWEEP_CORRUPT;
	else if (!rc && (count[POINT_FAILED] || count[POINT_MISSING]))
		rc = 1;
	return rc;
}

/* every 'metric' line names a value some workload's runs report */
static int check_metrics(const struct sweep *sw)
{
	const struct sweep_plan *p = &sw->plan;
	char names[RUN_MAX_VALUES][RUN_VALUE_NAME], err[512];

	for (int m = 0; m < p->metrics.n; m++) {
		bool found = false;

		for (int i = 0; i < sw->n && !found; i++) {
			int k;

			if (i && sw->pts[i - 1].workload == sw->pts[i].workload)
				continue;
			k = run_record_names(&sw->pts[i].cfg, names, RUN_MAX_VALUES, err,
					     sizeof(err));
			if (k < 0)
				return usage_error("sweep: %s: %s", p->origin, err);
			found = find_name(names, k, p->metrics.v[m]) >= 0;
		}
		if (!found)
			return usage_error(
				"sweep: %s: metric '%s' is not one that any workload reports",
				p->origin, p->metrics.v[m]);
	}
	return 0;
}

static void list_all(const struct sweep *sw)
{
	for (int i = 0; i < sw->n; i++)
		printf("%s  %-7s  schedlab %s\n", sw->pts[i].hash, state_names[sw->state[i]],
		       sw->pts[i].cmd);
}

/* PLAN without ".plan", plus ".sweep" */
static void default_out(char *buf, size_t len, const char *plan)
{
	size_t n = strlen(plan);

	if (n > 5 && !strcmp(plan + n - 5, ".plan"))
		n -= 5;
	snprintf(buf, len, "%.*s.sweep", (int)n, plan);
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep sw = { 0 };
	char err[512], *text;
	int rc = parse_opts(argc, argv, &sw.o);

	if (rc > 0)
		return rc;
	if (rc < 0)
		return 0;
	text = read_text_file("sweep", sw.o.plan, "a plan");
	if (!text)
		return EXIT_BAD_INPUT;
	rc = sweep_plan_parse(sw.o.plan, text, &sw.plan, err, sizeof(err));
	free(text);
	if (rc)
		return usage_error("sweep: %s", err);
	if (sw.o.costs[0])
		sweep_plan_add_option(&sw.plan, "costs", sw.o.costs);
	if (sw.o.out)
		snprintf(sw.out, sizeof(sw.out), "%s", sw.o.out);
	else
		default_out(sw.out, sizeof(sw.out), sw.o.plan);
	rc = sweep_points(&sw.plan, &sw.pts, &sw.n);
	/* running or emitting: every setting checked first, so a mistake costs no run */
	if (!rc && (sw.o.mode == MODE_RUN || sw.o.mode == MODE_EMIT_PARALLEL ||
		    sw.o.mode == MODE_EMIT_SLURM)) {
		rc = sweep_validate(&sw.plan, sw.pts, sw.n);
		if (!rc)
			rc = check_metrics(&sw);
	}
	if (!rc && (sw.o.mode == MODE_EMIT_PARALLEL || sw.o.mode == MODE_EMIT_SLURM))
		rc = emit_paths_ok(&sw);
	if (!rc && sw.o.mode != MODE_COLLECT && sw.o.mode != MODE_LIST)
		rc = make_dirs(&sw);
	if (rc)
		goto out;
	read_states(&sw);
	/* --list shows them as "corrupt"; --point runs its point whatever the others are */
	if (sw.o.mode != MODE_LIST && sw.o.mode != MODE_POINT)
		report_corrupt(&sw);
	switch (sw.o.mode) {
	case MODE_RUN:
		rc = cmd_run_all(&sw);
		break;
	case MODE_POINT:
		rc = cmd_point(&sw);
		break;
	case MODE_EMIT_PARALLEL:
		rc = emit_parallel(&sw);
		break;
	case MODE_EMIT_SLURM:
		rc = emit_slurm(&sw);
		break;
	case MODE_COLLECT:
		rc = collect(&sw);
		break;
	case MODE_LIST:
		list_all(&sw);
		break;
	}
out:
	for (int i = 0; sw.why && i < sw.n; i++)
		free(sw.why[i]);
	free(sw.why);
	free(sw.state);
	sweep_points_free(sw.pts, sw.n);
	sweep_plan_free(&sw.plan);
	return rc;
}
