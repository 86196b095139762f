// SPDX-License-Identifier: GPL-2.0-only
#include "cli/study_file.h"

#include "cli/perf_stat_opts.h"

#include "cli/compare_opts.h"
#include "cli/quote.h"
#include "sim/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the 'option NAME VALUE' names of study files and sweep plans, and their session_opt() codes */
static const struct {
	const char *name;
	int code;
} study_options[] = {
	{ "funclatency", 'L' }, { "sysctl", 'Y' },	 { "cost", 'C' },    { "hz", 'H' },
	{ "preempt", 'P' },	{ "probe-overhead", 'O' }, { "also", 'A' },    { "cpufreq", 'G' },
	{ "costs", 'K' },	{ "idle-states", 'I' },	   { "guest", 'g' },
	{ "cpuidle", 'Z' },
};

#define NR_STUDY_OPTIONS (sizeof(study_options) / sizeof(study_options[0]))

int study_option_code(const char *name)
{
	for (size_t k = 0; k < NR_STUDY_OPTIONS; k++)
		if (!strcmp(name, study_options[k].name))
			return study_options[k].code;
	return 0;
}

const char *study_option_list(void)
{
	static char list[256];

	if (!list[0])
		for (size_t k = 0; k < NR_STUDY_OPTIONS; k++) {
			size_t used = strlen(list);
			const char *sep = !k ? "" : k + 1 < NR_STUDY_OPTIONS ? ", " : " or ";

			snprintf(list + used, sizeof(list) - used, "%s%s", sep, study_options[k].name);
		}
	return list;
}

void strlist_free(struct strlist *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* append a copy of @s[0..len); keeps v NULL-terminated for use as an argv */
static void strlist_add(struct strlist *l, const char *s, size_t len)
{
	l->v = xreallocarray(l->v, (size_t)l->n + 2, sizeof(*l->v));
	l->v[l->n] = xstrndup(s, len);
	l->v[++l->n] = NULL;
}

void split_words(const char *line, struct strlist *out)
{
	const char *p = line;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *start;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		strlist_add(out, start, (size_t)(p - start));
	}
}

static void study_group_free(struct study_group *g)
{
	strlist_free(&g->machines);
	strlist_free(&g->quick_machines);
	strlist_free(&g->workloads);
	strlist_free(&g->quick_workloads);
	strlist_free(&g->opt_names);
	strlist_free(&g->opt_values);
}

void study_free(struct study_def *d)
{
	free(d->name);
	free(d->title);
	for (int v = 0; v < d->nr_variants; v++) {
		free(d->variant_name[v]);
		free(d->variant_features[v]);
	}
	strlist_free(&d->metrics);
	study_group_free(&d->top);
	for (int g = 0; g < d->nr_groups; g++)
		study_group_free(&d->groups[g]);
	free(d->groups);
	strlist_free(&d->notes);
	memset(d, 0, sizeof(*d));
}

int directive_fail(struct directive_parser *ps, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "%s:%d: %s", ps->origin, ps->line, msg);
	return -1;
}

const char *directive_next_word(const char *rest, size_t *len)
{
	const char *p = rest;

	while (*p && !isspace((unsigned char)*p))
		p++;
	*len = (size_t)(p - rest);
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

int directive_set_once(struct directive_parser *ps, char **slot, const char *key,
		       const char *rest)
{
	if (*slot)
		return directive_fail(ps, "'%s' given twice", key);
	if (!*rest)
		return directive_fail(ps, "'%s' needs a value", key);
	*slot = xstrdup(rest);
	return 0;
}

int directive_each(struct directive_parser *ps, const char *text, directive_fn fn, void *arg)
{
	const char *p = text;

	ps->line = 0;
	while (*p) {
		const char *eol = strchr(p, '\n'), *key, *rest;
		size_t n = eol ? (size_t)(eol - p) : strlen(p), klen;
		char *line;
		int rc;

		ps->line++;
		line = xstrndup(p, n);
		p += n + (eol ? 1 : 0);
		/* trim; skip blank and comment lines */
		for (char *e = line + strlen(line); e > line && isspace((unsigned char)e[-1]);)
			*--e = '\0';
		key = line;
		while (isspace((unsigned char)*key))
			key++;
		if (!*key || *key == '#') {
			free(line);
			continue;
		}
		rest = directive_next_word(key, &klen);
		rc = fn(ps, arg, key, klen, rest);
		free(line);
		if (rc)
			return -1;
	}
	return 0;
}

int directive_add_words(struct directive_parser *ps, struct strlist *l, const char *key, const char *rest)
{
	struct strlist w;

	if (!*rest)
		return directive_fail(ps, "'%s' needs a value", key);
	split_words(rest, &w);
	for (int i = 0; i < w.n; i++)
		strlist_add(l, w.v[i], strlen(w.v[i]));
	strlist_free(&w);
	return 0;
}

static int add_line(struct directive_parser *ps, struct strlist *l, const char *key, const char *rest)
{
	if (!*rest)
		return directive_fail(ps, "'%s' needs a value", key);
	strlist_add(l, rest, strlen(rest));
	return 0;
}

static int parse_variant(struct directive_parser *ps, struct study_def *d, const char *rest)
{
	size_t len;
	const char *features = directive_next_word(rest, &len);

	if (!len || !*features)
		return directive_fail(ps, "'variant' needs a name and a feature list ('-' for the defaults)");
	if (d->nr_variants == CMP_MAX_VARIANTS)
		return directive_fail(ps, "more than %d variants", CMP_MAX_VARIANTS);
	for (int v = 0; v < d->nr_variants; v++)
		if (strlen(d->variant_name[v]) == len && !strncmp(d->variant_name[v], rest, len))
			return directive_fail(ps, "variant '%.*s' given twice", (int)len, rest);
	d->variant_name[d->nr_variants] = xstrndup(rest, len);
	d->variant_features[d->nr_variants] = xstrdup(strcmp(features, "-") ? features : "");
	d->nr_variants++;
	return 0;
}

static int parse_option(struct directive_parser *ps, struct study_group *g, const char *rest)
{
	size_t len;
	const char *value = directive_next_word(rest, &len);
	char *name = xstrndup(rest, len);
	bool ok = study_option_code(name) != 0;

	free(name);
	if (!ok)
		return directive_fail(
			ps,
			"unknown option '%.*s' (%s)", (int)len, rest, study_option_list());
	if (!*value)
		return directive_fail(ps, "option '%.*s' needs a value", (int)len, rest);
	strlist_add(&g->opt_names, rest, len);
	strlist_add(&g->opt_values, value, strlen(value));
	return 0;
}

static int parse_runs(struct directive_parser *ps, struct study_def *d, const char *rest)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(rest, &end, 10);
	if (!*rest || *end || errno || n < COMPARE_MIN_RUNS || n > COMPARE_MAX_RUNS)
		return directive_fail(ps, "'runs' needs an integer from %d to %d, got '%s'", COMPARE_MIN_RUNS,
			    COMPARE_MAX_RUNS, rest);
	d->runs = (int)n;
	return 0;
}

static int parse_runner(struct directive_parser *ps, struct study_group *g, const char *rest)
{
	if (g->perf_stat_runner)
		return directive_fail(ps, "'runner' given twice");
	if (!*rest)
		return directive_fail(ps, "'runner' needs a value (perf-stat)");
	if (strcmp(rest, "perf-stat"))
		return directive_fail(ps, "unknown runner '%s' (perf-stat)", rest);
	g->perf_stat_runner = true;
	return 0;
}

/* the group the lines go to: the last 'case' group, or the study-wide lines */
static struct study_group *current_group(struct study_def *d)
{
	return d->nr_groups ? &d->groups[d->nr_groups - 1] : &d->top;
}

static int parse_case(struct directive_parser *ps, struct study_def *d, const char *rest)
{
	const struct study_group *top = &d->top;
	struct study_group *g;

	if (top->machines.n || top->workloads.n || top->quick_machines.n ||
	    top->quick_workloads.n)
		return directive_fail(ps, "'case' in a study with machine, workload, quick-machine or quick-workload lines outside 'case' groups: give every case its own 'case' group");
	if (!*rest)
		return directive_fail(ps, "'case' needs a machine (case MACHINE..., then its workload lines)");
	d->groups = xreallocarray(d->groups, (size_t)d->nr_groups + 1, sizeof(*d->groups));
	g = &d->groups[d->nr_groups++];
	memset(g, 0, sizeof(*g));
	g->line = ps->line;
	return directive_add_words(ps, &g->machines, "case", rest);
}

static int parse_line(struct directive_parser *ps, void *arg, const char *key, size_t klen,
		      const char *rest)
{
	struct study_def *d = arg;
	struct study_group *g = current_group(d);

#define IS(k) (klen == strlen(k) && !strncmp(key, k, klen))
	if (IS("name"))
		return directive_set_once(ps, &d->name, "name", rest);
	if (IS("title"))
		return directive_set_once(ps, &d->title, "title", rest);
	if (IS("variant"))
		return parse_variant(ps, d, rest);
	if (IS("case"))
		return parse_case(ps, d, rest);
	if (IS("machine") && d->nr_groups)
		return directive_fail(ps, "'machine' inside the 'case' group of line %d: name a group's machines on its 'case' line",
				      g->line);
	if (IS("machine"))
		return directive_add_words(ps, &g->machines, "machine", rest);
	if (IS("quick-machine"))
		return directive_add_words(ps, &g->quick_machines, "quick-machine", rest);
	/* a study repeats the command itself; 'runner perf-stat' prints perf stat's line */
	if ((IS("workload") || IS("quick-workload")) && perf_stat_in_words(rest))
		return directive_fail(ps, "%.*s: perf stat: a study runs the command itself, 'runs' times a variant with seeds S..S+N-1: give the command alone, and add 'runner perf-stat' for perf stat's elapsed line",
				      (int)klen, key);
	if (IS("workload"))
		return add_line(ps, &g->workloads, "workload", rest);
	if (IS("quick-workload"))
		return add_line(ps, &g->quick_workloads, "quick-workload", rest);
	if (IS("metric"))
		return directive_add_words(ps, &d->metrics, "metric", rest);
	if (IS("runs"))
		return parse_runs(ps, d, rest);
	if (IS("option"))
		return parse_option(ps, g, rest);
	if (IS("runner"))
		return parse_runner(ps, g, rest);
	if (IS("note"))
		return add_line(ps, &d->notes, "note", rest);
#undef IS
	return directive_fail(ps, "unknown directive '%.*s'", (int)klen, key);
}

int study_parse(const char *origin, const char *text, struct study_def *d, char *err,
		size_t errlen)
{
	struct directive_parser ps = { .origin = origin, .err = err, .errlen = errlen };

	memset(d, 0, sizeof(*d));
	d->runs = 5;
	if (directive_each(&ps, text, parse_line, d)) {
		study_free(d);
		return -1;
	}
	for (int g = 0; g < d->nr_groups; g++)
		if (!d->groups[g].workloads.n) {
			ps.line = d->groups[g].line;
			directive_fail(&ps, "the 'case' group has no 'workload' line");
			study_free(d);
			return -1;
		}
	{
		const bool grouped = d->nr_groups > 0;
		const char *missing = !d->name			      ? "name"
				      : !d->title		      ? "title"
				      : d->nr_variants < 2	      ? "two 'variant' lines"
				      : !grouped && !d->top.machines.n  ? "'machine' (or 'case')"
				      : !grouped && !d->top.workloads.n ? "'workload'"
				      : !d->metrics.n		      ? "'metric'"
								      : NULL;

		if (missing) {
			snprintf(err, errlen, "%s: the study has no %s", origin, missing);
			study_free(d);
			return -1;
		}
	}
	return 0;
}

const struct study_group *study_groups(const struct study_def *d, int *n)
{
	if (!d->nr_groups) {
		*n = 1;
		return &d->top;
	}
	*n = d->nr_groups;
	return d->groups;
}

char *read_text_file(const char *cmd, const char *path, const char *what)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	char *buf;
	size_t n;
	int rerr;

	if (!f) {
		cli_message("%s: cannot read '%s': %s", cmd, path, strerror(errno));
		return NULL;
	}
	/* a directory opens, and reads as nothing: "the study has no name" */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		cli_message("%s: '%s' is a directory, not %s", cmd, path, what);
		fclose(f);
		return NULL;
	}
	buf = xmalloc(TEXT_FILE_MAX + 1);
	n = fread(buf, 1, TEXT_FILE_MAX + 1, f);
	rerr = ferror(f) ? errno : 0;
	fclose(f);
	if (rerr) {
		cli_message("%s: cannot read '%s': %s", cmd, path, strerror(rerr));
		free(buf);
		return NULL;
	}
	if (n > TEXT_FILE_MAX) {
		cli_message("%s: '%s' is larger than %d bytes", cmd, path, TEXT_FILE_MAX);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		cli_message("%s: '%s' is not a text file", cmd, path);
		free(buf);
		return NULL;
	}
	return buf;
}
