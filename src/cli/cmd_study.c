// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab study [NAME | --file FILE] [--quick] [--runs N] ...
 *
 * A packaged before/after study: every variant (feature list) on every case
 * (machine x workload) on the same seeds, printed as the patch authors'
 * tables with confidence intervals. Without a name: the list of studies.
 * docs/ab-and-studies.md.
 */
#include "cli/cli.h"
#include "cli/interrupt.h"

#include "cli/compare_opts.h"
#include "cli/quote.h"
#include "cli/runpool.h"
#include "cli/session_opts.h"
#include "cli/study_file.h"
#include "report/compare.h"
#include "report/perf_stat.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define STUDY_QUICK_RUNS 2

static const char study_usage[] =
	"usage: schedlab study [--list]\n"
	"       schedlab study NAME|--file FILE [--quick] [--runs N] [--seed S] [-j N]\n"
	"                      [--confidence PCT] [--json FILE] [--plot DIR] [--check]\n"
	"                      [--costs FILE]\n"
	"       schedlab study --show NAME\n"
	"\n"
	"  NAME                 a packaged study (see 'schedlab study --list')\n"
	"  --file FILE          a study file of your own (the format: 'schedlab study --show NAME')\n"
	"  --show NAME          print a packaged study's file, to copy and change\n"
	"  --quick              the study's reduced form (small machine and workload, 2 runs)\n"
	"  --runs N             runs per variant and case (default: the study's)\n"
	"  --seed S             the first seed (default 1)\n"
	COMPARE_OPTIONS_HELP
	"  --plot DIR           per case: bars relative to the first variant, CDFs over runs\n"
	"  --check              validate scheduler invariants after every event\n"
	"  --costs FILE         a cost profile over every case's machine, below the study's\n"
	"                       'option cost' lines (docs/calibration.md)\n";

struct study_opts {
	struct compare_opts co;
	const char *name, *file, *show, *costs;
	bool list, quick, check;
	u64 seed;
};

static int parse_opts(int argc, char **argv, struct study_opts *o)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "file", required_argument, NULL, 'f' },
		{ "show", required_argument, NULL, 'S' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "seed", required_argument, NULL, 's' },
		COMPARE_LONG_OPTIONS,
		{ "check", no_argument, NULL, 'c' },
		{ "costs", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:h", opts, NULL)) != -1) {
		int r = compare_opt("study", c, optarg, &o->co);

		if (r != 1) {
			if (r)
				return r;
			continue;
		}
		switch (c) {
		case 'l':
			o->list = true;
			break;
		case 'f':
			o->file = optarg;
			break;
		case 'S':
			o->show = optarg;
			break;
		case 'Q':
			o->quick = true;
			break;
		case 's':
			if (parse_u64_opt("study", "--seed", optarg, &o->seed))
				return EXIT_BAD_INPUT;
			break;
		case 'c':
			o->check = true;
			break;
		case 'K':
			o->costs = optarg;
			break;
		case 'h':
			fputs(study_usage, stdout);
			return -1;
		case ':':
			return usage_error("study: option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("study: unknown option '%s' (see 'schedlab study --help')",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->name = argv[optind++];
	if (optind < argc)
		return usage_error("study: one study at a time, got '%s' too", argv[optind]);
	return 0;
}

static const struct embedded_study *find_study(const char *name)
{
	for (int i = 0; i < nr_embedded_studies; i++)
		if (!strcmp(embedded_studies[i].name, name))
			return &embedded_studies[i];
	return NULL;
}

static int unknown_study(const char *name)
{
	char names[512] = "";

	for (int i = 0; i < nr_embedded_studies; i++) {
		if (i)
			strncat(names, ", ", sizeof(names) - strlen(names) - 1);
		strncat(names, embedded_studies[i].name, sizeof(names) - strlen(names) - 1);
	}
	return usage_error("study: unknown study '%s' (the studies: %s)", name, names);
}

/* the STUDY column of the list: at least this wide, else the longest name's width */
#define STUDY_LIST_NAME_WIDTH 16

static int list_studies(void)
{
	int width = STUDY_LIST_NAME_WIDTH;

	for (int i = 0; i < nr_embedded_studies; i++)
		width = max(width, (int)strlen(embedded_studies[i].name));
	printf("%-*s %s\n", width, "STUDY", "WHAT IT STUDIES");
	for (int i = 0; i < nr_embedded_studies; i++) {
		struct study_def d;
		char err[512];

		if (study_parse(embedded_studies[i].path, embedded_studies[i].text, &d, err,
				sizeof(err))) {
			cli_message("%s", err);
			return 1;
		}
		printf("%-*s %s\n", width, d.name, d.title);
		study_free(&d);
	}
	return 0;
}

/* a group's session options: the study-wide option lines, then the group's own */
static int study_session_opts(const struct study_def *d, const struct study_group *g,
			      const struct study_opts *o, struct session_opts *so)
{
	const struct study_group *layers[] = { &d->top, g };
	const int nr_layers = g == &d->top ? 1 : 2;

	session_opts_init(so);
	so->seed = o->seed;
	so->check = o->check;
	/* first, so that the study's own "option cost" lines go over it */
	if (o->costs) {
		int rc = session_opt("study", 'K', o->costs, so);

		if (rc)
			return rc;
	}
	for (int l = 0; l < nr_layers; l++)
		for (int i = 0; i < layers[l]->opt_names.n; i++) {
			int rc = session_opt("study", study_option_code(layers[l]->opt_names.v[i]),
					     layers[l]->opt_values.v[i], so);

			if (rc)
				return rc;
		}
	return 0;
}

/*
 * A 'case' group's options as run's flags ("--cpufreq schedutil"), for its
 * tables' headings; NULL for a study without 'case' groups (one option set).
 */
static char *group_options_label(const struct study_def *d, const struct study_group *g)
{
	const struct study_group *layers[] = { &d->top, g };
	char *label;

	if (g == &d->top)
		return NULL;
	label = xstrdup("");
	for (size_t l = 0; l < sizeof(layers) / sizeof(layers[0]); l++)
		for (int i = 0; i < layers[l]->opt_names.n; i++) {
			const char *v = layers[l]->opt_values.v[i];
			const char *q = strpbrk(v, " \t") ? "'" : "";
			const char *sep = *label ? " " : "";
			const char *name = layers[l]->opt_names.v[i];
			int len = snprintf(NULL, 0, "%s%s--%s %s%s%s", label, sep, name, q, v, q);
			char *next = xmalloc((size_t)len + 1);

			snprintf(next, (size_t)len + 1, "%s%s--%s %s%s%s", label, sep, name, q, v, q);

			free(label);
			label = next;
		}
	if (!*label) {
		free(label);
		return NULL;
	}
	return label;
}

/* the machines and workloads a group runs in the quick or the full form */
static void group_form(const struct study_group *g, bool quick, const struct strlist **machines,
		       const struct strlist **workloads)
{
	*machines = quick && g->quick_machines.n ? &g->quick_machines : &g->machines;
	*workloads = quick && g->quick_workloads.n ? &g->quick_workloads : &g->workloads;
}

/* one case: a machine of a group running one of its workloads */
struct study_case {
	int group;
	const char *machine, *workload;
	struct strlist argv;
	char *options;		/* group_options_label() */
};

struct study_run {
	struct study_def def;
	const struct study_group *groups;	/* study_groups() */
	int nr_groups;
	struct session_opts *so;	/* per group */
	int nr_cases, runs;
	int nr_runs;			/* all of them, at most RUN_POOL_MAX_RUNS */
	struct study_case *sc;
	struct session_config *cfgs;	/* [case][variant][run] */
	struct run_record *recs;
	struct cmp_case *cases;
};

static void study_run_free(struct study_run *sr)
{
	if (sr->sc)
		for (int c = 0; c < sr->nr_cases; c++) {
			strlist_free(&sr->sc[c].argv);
			free(sr->sc[c].options);
		}
	free(sr->sc);
	free(sr->so);
	free(sr->cfgs);
	free(sr->recs);
	free(sr->cases);
	study_free(&sr->def);
}

/*
 * The cases of the quick or the full form, and the runs they plan; 0, or
 * exit 2 with a message (@form: "", "full form: " or "quick form: ") if
 * that is more than a study may plan.
 */
static int count_form(const struct study_run *sr, bool quick, int runs, const char *origin,
		      const char *form, int *nr_cases, size_t *nr_runs)
{
	const struct study_def *d = &sr->def;
	const struct strlist *machines = NULL, *workloads = NULL;
	size_t cases = 0, factors[3];

	for (int g = 0; g < sr->nr_groups; g++) {
		group_form(&sr->groups[g], quick, &machines, &workloads);
		/* each list is shorter than the file, so no product here overflows */
		cases += (size_t)machines->n * (size_t)workloads->n;
	}
	factors[0] = cases;
	factors[1] = (size_t)d->nr_variants;
	factors[2] = (size_t)runs;
	if (run_pool_count(factors, 3, nr_runs)) {
		char product[32] = "more than SIZE_MAX";

		if (*nr_runs != SIZE_MAX)
			snprintf(product, sizeof(product), "%zu", *nr_runs);
		if (sr->nr_groups == 1)
			return usage_error("study: %s: %s%d machines x %d workloads x %d variants x %d runs is %s runs, more than the %d a study may plan",
					   origin, form, machines->n, workloads->n, d->nr_variants,
					   runs, product, RUN_POOL_MAX_RUNS);
		return usage_error("study: %s: %s%zu cases x %d variants x %d runs is %s runs, more than the %d a study may plan",
				   origin, form, cases, d->nr_variants, runs, product,
				   RUN_POOL_MAX_RUNS);
	}
	*nr_cases = (int)cases;
	return 0;
}

/*
 * The form of the study not being run (the full one under --quick, the
 * quick one otherwise) set up too, so a mistake in either is found
 * whichever is run.
 */
static int check_other_form(struct study_run *sr, bool quick, int runs, const char *origin)
{
	const struct study_def *d = &sr->def;
	bool has_quick = false;
	size_t total;
	int nr_cases;

	for (int g = 0; g < sr->nr_groups; g++)
		has_quick |= sr->groups[g].quick_machines.n || sr->groups[g].quick_workloads.n;
	if (!quick && !has_quick)
		return 0; /* no quick lines: --quick runs the full form */
	/* the same bound as the form being run, so a huge one is not set up either */
	if (count_form(sr, !quick, runs, origin, quick ? "full form: " : "quick form: ",
		       &nr_cases, &total))
		return EXIT_BAD_INPUT;
	for (int g = 0; g < sr->nr_groups; g++) {
		const struct strlist *machines, *workloads;

		group_form(&sr->groups[g], !quick, &machines, &workloads);
		for (int m = 0; m < machines->n; m++)
			for (int w = 0; w < workloads->n; w++) {
				struct strlist argv;
				int rc = 0;

				split_words(workloads->v[w], &argv);
				for (int v = 0; v < d->nr_variants && !rc; v++) {
					struct session_config cfg;
					char err[512];

					sr->so[g].machine = machines->v[m];
					session_opts_config(&sr->so[g], d->variant_features[v], argv.n,
							    argv.v, &cfg);
					if (session_check(&cfg, err, sizeof(err)))
						rc = usage_error("study: %s: %s form: variant '%s' on %s, '%s': %s",
								 origin, quick ? "full" : "quick",
								 d->variant_name[v], machines->v[m],
								 workloads->v[w], err);
				}
				strlist_free(&argv);
				if (rc)
					return rc;
			}
	}
	return 0;
}

/* every 'metric' line is one that some case reports, checked before any run */
static int check_metrics(struct study_run *sr, const char *origin)
{
	const struct strlist *metrics = &sr->def.metrics;
	bool *found = xcalloc((size_t)metrics->n, sizeof(*found));
	char names[RUN_MAX_VALUES][RUN_VALUE_NAME], err[512];
	int rc = 0;

	for (int c = 0; c < sr->nr_cases && !rc; c++) {
		/* the first variant's first run: the variants differ in features only */
		int n = run_record_names(&sr->cfgs[c * sr->def.nr_variants * sr->runs], names,
					 RUN_MAX_VALUES, err, sizeof(err));

		if (n < 0) {
			rc = usage_error("study: %s: %s", origin, err);
			break;
		}
		for (int m = 0; m < metrics->n; m++)
			for (int i = 0; i < n && !found[m]; i++)
				found[m] = !strcmp(names[i], metrics->v[m]);
	}
	for (int m = 0; m < metrics->n && !rc; m++) {
		if (found[m])
			continue;
		if (sr->nr_cases == 1)
			rc = usage_error("study: %s: metric '%s' is not one that '%s' reports", origin,
					 metrics->v[m], sr->cases[0].command);
		else
			rc = usage_error("study: %s: metric '%s' is not one that any workload reports",
					 origin, metrics->v[m]);
	}
	free(found);
	return rc;
}

/* every case and variant set up once before any run, so bad input costs nothing */
static int plan(struct study_run *sr, bool quick, const char *origin)
{
	const struct study_def *d = &sr->def;
	int nv = d->nr_variants, c = 0;
	size_t total;

	/* bounded, so every index below fits an int */
	if (count_form(sr, quick, sr->runs, origin, "", &sr->nr_cases, &total))
		return EXIT_BAD_INPUT;
	sr->nr_runs = (int)total;
	sr->sc = xcalloc((size_t)sr->nr_cases, sizeof(*sr->sc));
	sr->cfgs = xcalloc(total, sizeof(*sr->cfgs));
	sr->recs = xcalloc(total, sizeof(*sr->recs));
	sr->cases = xcalloc((size_t)sr->nr_cases, sizeof(*sr->cases));
	for (int g = 0; g < sr->nr_groups; g++) {
		const struct strlist *machines, *workloads;

		group_form(&sr->groups[g], quick, &machines, &workloads);
		for (int m = 0; m < machines->n; m++)
			for (int w = 0; w < workloads->n; w++, c++) {
				struct study_case *sc = &sr->sc[c];

				sc->group = g;
				sc->machine = machines->v[m];
				sc->workload = workloads->v[w];
				sc->options = group_options_label(d, &sr->groups[g]);
				split_words(sc->workload, &sc->argv);
				sr->cases[c] = (struct cmp_case){
					.machine = sc->machine,
					.command = sc->workload,
					.options = sc->options,
					.recs = &sr->recs[c * nv * sr->runs],
				};
			}
	}
	for (c = 0; c < sr->nr_cases; c++) {
		const struct study_case *sc = &sr->sc[c];
		struct session_opts *so = &sr->so[sc->group];

		for (int v = 0; v < nv; v++) {
			struct session_config cfg;
			char err[512];

			so->machine = sc->machine;
			session_opts_config(so, d->variant_features[v], sc->argv.n, sc->argv.v, &cfg);
			if (session_check(&cfg, err, sizeof(err)))
				return usage_error("study: %s: variant '%s' on %s, '%s': %s", origin,
						   d->variant_name[v], sc->machine, sc->workload, err);
			for (int r = 0; r < sr->runs; r++) {
				struct session_config *rc = &sr->cfgs[(c * nv + v) * sr->runs + r];

				*rc = cfg;
				rc->seed = so->seed + (u64)r;
			}
		}
	}
	return check_metrics(sr, origin);
}

/* a case's group has 'runner perf-stat', or the study has it for every group */
static bool case_perf_stat(const struct study_run *sr, int c)
{
	return sr->groups[sr->sc[c].group].perf_stat_runner || sr->def.top.perf_stat_runner;
}

/*
 * 'runner perf-stat': for each case and variant, what `perf stat --null
 * --repeat RUNS -- COMMAND` prints for the same runs (seeds S..S+RUNS-1, as
 * `schedlab run --seed S -- perf stat -n -r RUNS -- COMMAND` runs them).
 * 0, or 1 with a message if a run's command never exited.
 */
static int print_perf_stat(const struct study_run *sr, const char *origin, u64 seed)
{
	const struct study_def *d = &sr->def;

	for (int c = 0; c < sr->nr_cases; c++) {
		const struct strlist *argv = &sr->sc[c].argv;

		if (!case_perf_stat(sr, c))
			continue;
		for (int v = 0; v < d->nr_variants; v++) {
			const struct run_record *recs = &sr->cases[c].recs[v * sr->runs];
			struct perf_stat_summary pss;

			for (int r = 0; r < sr->runs; r++)
				if (!recs[r].has_elapsed) {
					cli_message("study: %s: runner perf-stat: in the run of '%s' on %s, seed %llu, the command's first task did not exit",
						    origin, sr->cases[c].command, sr->cases[c].machine,
						    (unsigned long long)(seed + (u64)r));
					return 1;
				}
			printf("\nperf stat --null --repeat %d, %s, %s (%s):\n", sr->runs,
			       sr->cases[c].machine, d->variant_name[v],
			       *d->variant_features[v] ? d->variant_features[v] : "the defaults");
			perf_stat_summary_init(&pss, sr->runs, true, false);
			for (int r = 0; r < sr->runs; r++) {
				struct perf_stat_run pr = { .elapsed_ns = recs[r].elapsed_ns };

				perf_stat_summary_add(&pss, r, &pr);
			}
			perf_stat_print(stdout, &pss, argv->n, argv->v);
			perf_stat_summary_free(&pss);
		}
	}
	return 0;
}

int cmd_study(int argc, char **argv)
{
	struct study_opts o = { .seed = DEFAULT_SEED };
	struct study_run sr = { 0 };
	const char *origin, *text;
	char err[512], *file_text = NULL;
	struct comparison cmp;
	int rc, failed;

	compare_opts_init(&o.co);
	rc = parse_opts(argc, argv, &o);

	if (rc > 0)
		return rc;
	if (rc < 0)
		return 0;
	if (o.show) {
		const struct embedded_study *es = find_study(o.show);

		if (!es)
			return unknown_study(o.show);
		fputs(es->text, stdout);
		return 0;
	}
	if (o.name && o.file)
		return usage_error("study: give a study NAME or --file FILE, not both");
	if (o.list || (!o.name && !o.file))
		return list_studies();
	if (o.file) {
		file_text = read_text_file("study", o.file, "a study file");
		if (!file_text)
			return EXIT_BAD_INPUT;
		origin = o.file;
		text = file_text;
	} else {
		const struct embedded_study *es = find_study(o.name);

		if (!es)
			return unknown_study(o.name);
		origin = es->path;
		text = es->text;
	}
	if (study_parse(origin, text, &sr.def, err, sizeof(err))) {
		free(file_text);
		return usage_error("study: %s", err);
	}
	free(file_text);
	sr.groups = study_groups(&sr.def, &sr.nr_groups);
	sr.so = xcalloc((size_t)sr.nr_groups, sizeof(*sr.so));
	sr.runs = o.co.runs ? (int)o.co.runs : o.quick ? STUDY_QUICK_RUNS : sr.def.runs;
	rc = 0;
	for (int g = 0; g < sr.nr_groups && !rc; g++)
		rc = study_session_opts(&sr.def, &sr.groups[g], &o, &sr.so[g]);
	if (!rc)
		rc = plan(&sr, o.quick, origin);
	if (!rc)
		rc = check_other_form(&sr, o.quick,
				      o.co.runs ? (int)o.co.runs : o.quick ? sr.def.runs : STUDY_QUICK_RUNS,
				      origin);
	if (!rc)
		rc = compare_outputs_open("study", &o.co);
	if (rc)
		goto out;

	rc = run_pool(sr.cfgs, sr.nr_runs, (int)o.co.jobs, o.check, sr.recs, &failed, err,
		      sizeof(err));
	if (rc) {
		if (interrupt_signal) {
			rc = interrupt_exit("study");
			goto out;
		}
		if (failed < 0) {
			cli_message("study: %s", err);
		} else {
			int c = failed / (sr.def.nr_variants * sr.runs);
			int v = failed / sr.runs % sr.def.nr_variants;

			cli_message("study: %s: variant '%s' on %s, '%s', seed %llu: the run %s",
				    origin, sr.def.variant_name[v], sr.cases[c].machine,
				    sr.cases[c].command, (unsigned long long)sr.cfgs[failed].seed,
				    err);
		}
		goto out;
	}
	rc = 1;
	for (int i = 0; i < sr.nr_runs; i++)
		if (!sr.recs[i].finished) {
			int c = i / (sr.def.nr_variants * sr.runs);

			cli_message(
				"study: a run of '%s' on %s with seed %llu did not finish: %s",
				sr.cases[c].command, sr.cases[c].machine,
				(unsigned long long)sr.cfgs[i].seed, sr.recs[i].why);
			goto out;
		}
	cmp = (struct comparison){
		.kind = "study",
		.name = sr.def.name,
		.title = sr.def.title,
		.nr_variants = sr.def.nr_variants,
		.nr_runs = sr.runs,
		.first_seed = o.seed,
		.conf = o.co.conf,
		.metrics = (const char *const *)sr.def.metrics.v,
		.nr_metrics = sr.def.metrics.n,
		.skip_missing = true,
		.nr_cases = sr.nr_cases,
		.cases = sr.cases,
	};
	for (int v = 0; v < sr.def.nr_variants; v++) {
		cmp.variant_name[v] = sr.def.variant_name[v];
		cmp.variant_features[v] = sr.def.variant_features[v];
	}
	if (cmp_print_study(stdout, &cmp, err, sizeof(err))) {
		rc = usage_error("study: %s: %s", origin, err);
		goto out;
	}
	if (print_perf_stat(&sr, origin, o.seed))
		goto out;
	for (int i = 0; i < sr.def.notes.n; i++)
		printf("%s %s\n", i ? "     " : "note:", sr.def.notes.v[i]);
	rc = compare_outputs_write("study", &o.co, &cmp);
out:
	compare_outputs_close(&o.co);
	study_run_free(&sr);
	return rc;
}
