// SPDX-License-Identifier: GPL-2.0-only
#include "cli/sweep_plan.h"

#include "cli/cli.h"
#include "cli/session_opts.h"
#include "topo/cost_profile.h"
#include "kernel/features.h"
#include "sim/alloc.h"
#include "topo/topology.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the names the plan's own axes have; an 'axis' line may not take them */
static const char *const builtin_axes[] = { "machine", "workload", "features", "settings", "seed" };

/* the smallest power of two >= @x */
static size_t pow2_ceil(size_t x)
{
	size_t c = 1;

	while (c < x)
		c <<= 1;
	return c;
}

/*
 * Room for @n + 1 elements in an array that holds @n, grown by doubling (its
 * size is pow2_ceil() of what it holds): a 1..99999 axis must not be
 * copied once a value, as realloc() does under AddressSanitizer. Only for
 * arrays that never grew another way.
 */
static void *grow(void *v, size_t n, size_t size)
{
	if (v && pow2_ceil(n + 1) == pow2_ceil(n))
		return v;
	return xreallocarray(v, pow2_ceil(n + 1), size);
}

/* lists appended here grow only here: with their NULL, pow2_ceil(n + 1) slots */
static void sl_add(struct strlist *l, const char *s)
{
	l->v = grow(l->v, (size_t)l->n + 1, sizeof(*l->v));
	l->v[l->n] = xstrdup(s);
	l->v[++l->n] = NULL;
}

static void slist_add(struct sweep_list *l, const char *name, const char *value, int line)
{
	l->lines = grow(l->lines, (size_t)l->names.n, sizeof(*l->lines));
	l->lines[l->names.n] = line;
	sl_add(&l->names, name);
	if (value)
		sl_add(&l->values, value);
}

void sweep_plan_add_option(struct sweep_plan *p, const char *name, const char *value)
{
	slist_add(&p->options, name, value, 0);
}

static void slist_free(struct sweep_list *l)
{
	strlist_free(&l->names);
	strlist_free(&l->values);
	free(l->lines);
	memset(l, 0, sizeof(*l));
}

void sweep_plan_free(struct sweep_plan *p)
{
	free(p->name);
	slist_free(&p->machines);
	slist_free(&p->workloads);
	slist_free(&p->features);
	slist_free(&p->settings);
	slist_free(&p->options);
	for (int a = 0; a < p->nr_axes; a++) {
		free(p->axis_name[a]);
		strlist_free(&p->axis_values[a]);
	}
	free(p->seeds);
	strlist_free(&p->metrics);
	strlist_free(&p->notes);
	strlist_free(&p->sbatch);
	free(p->time);
	free(p->mem);
	memset(p, 0, sizeof(*p));
}

static int find(const struct strlist *l, const char *s)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return i;
	return -1;
}

static int axis_index(const struct sweep_plan *p, const char *name, size_t len)
{
	for (int a = 0; a < p->nr_axes; a++)
		if (strlen(p->axis_name[a]) == len && !strncmp(p->axis_name[a], name, len))
			return a;
	return -1;
}

static bool good_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

/* "A..B" with decimal A <= B: true, and the bounds */
static bool is_range(const char *s, u64 *a, u64 *b)
{
	const char *dots = strstr(s, "..");
	char *end;

	if (!dots || dots == s || !isdigit((unsigned char)*s) || !isdigit((unsigned char)dots[2]))
		return false;
	errno = 0;
	*a = strtoull(s, &end, 10);
	if (end != dots || errno)
		return false;
	*b = strtoull(dots + 2, &end, 10);
	return !*end && !errno;
}

/*
 * A set of strings, for the duplicate check of axis values: open addressing
 * on the FNV-1a hash, so a 1..99999 axis is checked in linear time (a linear
 * search per value made it quadratic: 16 s for --list, issue 18).
 */
struct strset {
	const char **slot;
	size_t cap, n;
};

static size_t strset_pos(const struct strset *s, const char *v)
{
	size_t i = (size_t)sweep_hash(v) & (s->cap - 1);

	while (s->slot[i] && strcmp(s->slot[i], v))
		i = (i + 1) & (s->cap - 1);
	return i;
}

static bool strset_has(const struct strset *s, const char *v)
{
	return s->cap && s->slot[strset_pos(s, v)];
}

/* add @v, which must outlive the set and not be in it already */
static void strset_add(struct strset *s, const char *v)
{
	if (2 * (s->n + 1) > s->cap) {
		struct strset bigger = { .cap = s->cap ? 2 * s->cap : 64 };

		bigger.slot = xcalloc(bigger.cap, sizeof(*bigger.slot));
		for (size_t k = 0; k < s->cap; k++)
			if (s->slot[k])
				bigger.slot[strset_pos(&bigger, s->slot[k])] = s->slot[k];
		free(s->slot);
		s->slot = bigger.slot;
		s->cap = bigger.cap;
	}
	s->slot[strset_pos(s, v)] = v;
	s->n++;
}

/* @v at the end of list @l and in its set @seen */
static void add_value(struct strlist *l, struct strset *seen, const char *v)
{
	sl_add(l, v);
	strset_add(seen, l->v[l->n - 1]);
}

/*
 * The axes' values in all: every axis is used, so a plan has at least
 * 1 + the sum over its axes of (values - 1) points (a workload using axes of
 * x1, x2... values runs (1+(x1-1))(1+(x2-1))... >= 1 + sum(xi-1) of them).
 * More values than this can never fit SWEEP_MAX_POINTS: refused as they are
 * read, so no plan makes the parser hold 8 x 100,000 values.
 */
#define SWEEP_MAX_AXIS_VALUES (SWEEP_MAX_POINTS + SWEEP_MAX_AXES - 1)

static int too_many(struct directive_parser *ps, const char *key, int max, bool in_all)
{
	if (in_all)
		return directive_fail(ps,
				      "the axes have more than %d values in all (a plan has at most %d points)",
				      SWEEP_MAX_AXIS_VALUES, SWEEP_MAX_POINTS);
	return directive_fail(ps, "more than %d values of %s", max, key);
}

/*
 * The words of @rest, ranges A..B expanded, at most @max of them; and at
 * most @room (<= @max) before the axes' limit in all is reached.
 */
static int add_values(struct directive_parser *ps, struct strlist *l, const char *key,
		      const char *rest, int max, int room)
{
	struct strset seen = { 0 };
	struct strlist w;
	int rc = 0;

	for (int i = 0; i < l->n; i++)
		strset_add(&seen, l->v[i]);
	split_words(rest, &w);
	for (int i = 0; i < w.n && !rc; i++) {
		u64 a, b;

		if (!is_range(w.v[i], &a, &b)) {
			if (l->n == room)
				rc = too_many(ps, key, max, room < max);
			else if (strset_has(&seen, w.v[i]))
				rc = directive_fail(ps, "%s value '%s' given twice", key, w.v[i]);
			else
				add_value(l, &seen, w.v[i]);
			continue;
		}
		if (a > b || b - a >= (u64)max)
			rc = directive_fail(ps, "%s range '%s' must go up, by at most %d values",
					    key, w.v[i], max);
		for (u64 x = a; !rc && x <= b; x++) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)x);
			if (l->n == room)
				rc = too_many(ps, key, max, room < max);
			else if (strset_has(&seen, buf))
				rc = directive_fail(ps, "%s value '%s' given twice", key, buf);
			else
				add_value(l, &seen, buf);
		}
	}
	free(seen.slot);
	strlist_free(&w);
	return rc;
}

/* NAME VALUE lines (features, settings): the name must be new */
static int add_named(struct directive_parser *ps, struct sweep_list *l, const char *key,
		     const char *rest, const char *what)
{
	size_t len;
	const char *value = directive_next_word(rest, &len);
	char *name = xstrndup(rest, len);
	int rc = 0;

	if (!len || !*value)
		rc = directive_fail(ps, "'%s' needs a name and %s ('-' for none)", key, what);
	else if (!good_name(name))
		rc = directive_fail(ps, "%s name '%s': letters, digits, '_', '-' and '.' only", key,
				    name);
	else if (find(&l->names, name) >= 0)
		rc = directive_fail(ps, "%s '%s' given twice", key, name);
	else
		slist_add(l, name, strcmp(value, "-") ? value : "", ps->line);
	free(name);
	return rc;
}

/* the run options a 'settings' set may hold, and their session_opt() codes */
static const struct {
	const char *flag;
	int code;
} settings_opts[] = {
	{ "--sysctl", 'Y' },
	{ "--cost", 'C' },
	{ "--hz", 'H' },
	{ "--preempt", 'P' },
	{ "--idle-states", 'I' },
	{ "--cpufreq", 'G' },
	{ "--cpuidle", 'Z' },
	{ "--costs", 'K' },
	{ "--guest", 'g' },
};

static int check_settings(struct directive_parser *ps, const char *value)
{
	struct strlist w;
	int rc = 0;

	split_words(value, &w);
	for (int i = 0; i < w.n && !rc; i += 2) {
		bool ok = false;

		for (size_t k = 0; k < sizeof(settings_opts) / sizeof(settings_opts[0]); k++)
			ok |= !strcmp(w.v[i], settings_opts[k].flag);
		if (!ok)
			rc = directive_fail(
				ps,
				"settings: unknown option '%s' (--sysctl, --cost, --hz, --preempt, "
				"--idle-states, --cpufreq, --cpuidle, --costs or --guest)",
				w.v[i]);
		else if (i + 1 == w.n)
			rc = directive_fail(ps, "settings: option '%s' needs a value", w.v[i]);
	}
	strlist_free(&w);
	return rc;
}

static int parse_option(struct directive_parser *ps, struct sweep_plan *p, const char *rest)
{
	size_t len;
	const char *value = directive_next_word(rest, &len);
	char *name = xstrndup(rest, len);
	int rc = 0;

	if (!study_option_code(name))
		rc = directive_fail(ps, "unknown option '%s' (%s)", name, study_option_list());
	else if (!*value)
		rc = directive_fail(ps, "option '%s' needs a value", name);
	else
		slist_add(&p->options, name, value, ps->line);
	free(name);
	return rc;
}

static int parse_axis(struct directive_parser *ps, struct sweep_plan *p, const char *rest)
{
	size_t len;
	const char *values = directive_next_word(rest, &len);
	char *name = xstrndup(rest, len);
	int rc = 0;

	if (!len)
		rc = directive_fail(ps, "'axis' needs a name and values");
	else if (!good_name(name))
		rc = directive_fail(ps, "axis name '%s': letters, digits, '_', '-' and '.' only",
				    name);
	else if (axis_index(p, name, len) >= 0)
		rc = directive_fail(ps, "axis '%s' given twice", name);
	else if (!*values)
		rc = directive_fail(ps, "axis '%s' has no values", name);
	else if (p->nr_axes == SWEEP_MAX_AXES)
		rc = directive_fail(ps, "more than %d axes", SWEEP_MAX_AXES);
	for (size_t i = 0; !rc && i < sizeof(builtin_axes) / sizeof(builtin_axes[0]); i++)
		if (!strcmp(name, builtin_axes[i]))
			rc = directive_fail(
				ps,
				"axis '%s' is one of the plan's own (machine, workload, features, settings, seed)",
				name);
	if (!rc) {
		int a = p->nr_axes++;

		p->axis_name[a] = name;
		p->axis_line[a] = ps->line;
		int used = 0;

		for (int k = 0; k < a; k++)
			used += p->axis_values[k].n;
		return add_values(ps, &p->axis_values[a], name, values, SWEEP_MAX_POINTS,
				  SWEEP_MAX_AXIS_VALUES - used < SWEEP_MAX_POINTS ?
					  SWEEP_MAX_AXIS_VALUES - used :
					  SWEEP_MAX_POINTS);
	}
	free(name);
	return rc;
}

static int parse_seeds(struct directive_parser *ps, struct sweep_plan *p, const char *rest)
{
	struct strlist l = { 0 };
	int rc;

	if (p->nr_seeds)
		return directive_fail(ps, "the seeds given twice");
	if (!*rest)
		return directive_fail(ps, "'seeds' needs values");
	rc = add_values(ps, &l, "seeds", rest, SWEEP_MAX_SEEDS, SWEEP_MAX_SEEDS);
	if (!rc) {
		p->seeds = xcalloc((size_t)l.n, sizeof(*p->seeds));
		for (int i = 0; i < l.n && !rc; i++) {
			char *end;

			errno = 0;
			p->seeds[i] = strtoull(l.v[i], &end, 10);
			if (!isdigit((unsigned char)l.v[i][0]) || *end || errno)
				rc = directive_fail(
					ps, "seed '%s' is not a non-negative integer (decimal)",
					l.v[i]);
		}
		p->nr_seeds = l.n;
	}
	strlist_free(&l);
	return rc;
}

/* Slurm's time and memory: passed to sbatch as written, so only its characters */
static int parse_slurm_value(struct directive_parser *ps, char **slot, const char *key,
			     const char *rest, const char *chars)
{
	if (directive_set_once(ps, slot, key, rest))
		return -1;
	if (strspn(rest, chars) != strlen(rest))
		return directive_fail(ps, "'%s' takes Slurm's form (%s), got '%s'", key,
				      !strcmp(key, "time") ? "MINUTES, H:MM:SS or D-HH:MM:SS" :
							     "e.g. 500M or 2G",
				      rest);
	return 0;
}

static int parse_chunk(struct directive_parser *ps, struct sweep_plan *p, const char *rest)
{
	char *end;
	long n;

	if (p->chunk)
		return directive_fail(ps, "'chunk' given twice");
	errno = 0;
	n = strtol(rest, &end, 10);
	if (!*rest || *end || errno || n < 1 || n > SWEEP_MAX_POINTS)
		return directive_fail(ps, "'chunk' needs an integer from 1 to %d, got '%s'",
				      SWEEP_MAX_POINTS, rest);
	p->chunk = (int)n;
	return 0;
}

static int parse_line(struct directive_parser *ps, void *arg, const char *key, size_t klen,
		      const char *rest)
{
	struct sweep_plan *p = arg;

#define IS(k) (klen == strlen(k) && !strncmp(key, k, klen))
	if (IS("name")) {
		/* Slurm's job name, one word */
		if (directive_set_once(ps, &p->name, "name", rest))
			return -1;
		if (!good_name(p->name))
			return directive_fail(
				ps, "name '%s': letters, digits, '_', '-' and '.' only", p->name);
		return 0;
	}
	if (IS("machine")) {
		struct strlist w;
		int rc = 0;

		if (!*rest)
			return directive_fail(ps, "'machine' needs a value");
		split_words(rest, &w);
		for (int i = 0; i < w.n && !rc; i++) {
			if (find(&p->machines.names, w.v[i]) >= 0)
				rc = directive_fail(ps, "machine '%s' given twice", w.v[i]);
			else
				slist_add(&p->machines, w.v[i], NULL, ps->line);
		}
		strlist_free(&w);
		return rc;
	}
	if (IS("workload")) {
		if (!*rest)
			return directive_fail(ps, "'workload' needs a command line");
		if (find(&p->workloads.names, rest) >= 0)
			return directive_fail(ps, "workload '%s' given twice", rest);
		slist_add(&p->workloads, rest, NULL, ps->line);
		return 0;
	}
	if (IS("axis"))
		return parse_axis(ps, p, rest);
	if (IS("features"))
		return add_named(ps, &p->features, "features", rest, "a feature list");
	if (IS("settings")) {
		if (add_named(ps, &p->settings, "settings", rest, "run options"))
			return -1;
		return check_settings(ps, p->settings.values.v[p->settings.values.n - 1]);
	}
	if (IS("seeds") || IS("seed"))
		return parse_seeds(ps, p, rest);
	if (IS("option"))
		return parse_option(ps, p, rest);
	if (IS("metric"))
		return directive_add_words(ps, &p->metrics, "metric", rest);
	if (IS("time"))
		return parse_slurm_value(ps, &p->time, "time", rest, "0123456789:-");
	if (IS("mem"))
		return parse_slurm_value(ps, &p->mem, "mem", rest, "0123456789KMGTkmgt");
	if (IS("chunk"))
		return parse_chunk(ps, p, rest);
	if (IS("sbatch")) {
		if (!*rest || rest[0] != '-' || strchr(rest, '\n'))
			return directive_fail(
				ps, "'sbatch' needs an sbatch option (--partition=NAME, ...)");
		sl_add(&p->sbatch, rest);
		return 0;
	}
	if (IS("note")) {
		if (!*rest)
			return directive_fail(ps, "'note' needs a value");
		sl_add(&p->notes, rest);
		return 0;
	}
#undef IS
	return directive_fail(ps, "unknown directive '%.*s'", (int)klen, key);
}

/*
 * The axes @s uses, as {NAME}, into @used; -1 with a message at the line
 * of @s for an axis the plan does not have.
 */
static int axes_used(struct directive_parser *ps, const struct sweep_plan *p, const char *s,
		     bool *used)
{
	for (const char *b = strchr(s, '{'); b; b = strchr(b + 1, '{')) {
		const char *e = strchr(b, '}');
		int a;

		if (!e)
			return directive_fail(ps, "'{' without '}' in '%s'", s);
		a = axis_index(p, b + 1, (size_t)(e - b - 1));
		if (a < 0)
			return directive_fail(
				ps, "unknown axis '%.*s' (declare it with 'axis %.*s VALUE...')",
				(int)(e - b - 1), b + 1, (int)(e - b - 1), b + 1);
		used[a] = true;
	}
	return 0;
}

/* after the last line: what is missing, and every {AXIS} names an axis that is used */
static int check_plan(struct directive_parser *ps, struct sweep_plan *p)
{
	bool used[SWEEP_MAX_AXES] = { false };

	for (int w = 0; w < p->workloads.names.n; w++) {
		ps->line = p->workloads.lines[w];
		if (axes_used(ps, p, p->workloads.names.v[w], used))
			return -1;
	}
	for (int o = 0; o < p->options.names.n; o++) {
		ps->line = p->options.lines[o];
		if (axes_used(ps, p, p->options.values.v[o], used))
			return -1;
	}
	for (int a = 0; a < p->nr_axes; a++)
		if (!used[a]) {
			ps->line = p->axis_line[a];
			return directive_fail(
				ps,
				"axis '%s' is used by no workload or option (write {%s} where its values go)",
				p->axis_name[a], p->axis_name[a]);
		}
	if (!p->machines.names.n) {
		snprintf(ps->err, ps->errlen, "%s: the plan has no 'machine'", ps->origin);
		return -1;
	}
	if (!p->workloads.names.n) {
		snprintf(ps->err, ps->errlen, "%s: the plan has no 'workload'", ps->origin);
		return -1;
	}
	if (!p->features.names.n)
		slist_add(&p->features, "default", "", 0);
	if (!p->settings.names.n)
		slist_add(&p->settings, "default", "", 0);
	if (!p->nr_seeds) {
		p->seeds = xcalloc(1, sizeof(*p->seeds));
		p->seeds[0] = DEFAULT_SEED;
		p->nr_seeds = 1;
	}
	if (!p->chunk)
		p->chunk = 1;
	return 0;
}

int sweep_plan_parse(const char *origin, const char *text, struct sweep_plan *p, char *err,
		     size_t errlen)
{
	struct directive_parser ps = { .origin = origin, .err = err, .errlen = errlen };

	memset(p, 0, sizeof(*p));
	p->origin = origin;
	if (directive_each(&ps, text, parse_line, p)) {
		sweep_plan_free(p);
		return -1;
	}
	if (check_plan(&ps, p)) {
		sweep_plan_free(p);
		return -1;
	}
	p->origin = origin;
	return 0;
}

u64 sweep_hash(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* @tmpl with each {AXIS} replaced by that axis's value in @axis[] */
static char *substitute(const struct sweep_plan *p, const char *tmpl, const int *axis)
{
	size_t cap = strlen(tmpl) + 1, n = 0;
	char *out = xmalloc(cap);

	for (const char *s = tmpl; *s;) {
		const char *e = *s == '{' ? strchr(s, '}') : NULL;
		const char *piece = s;
		size_t len = 1;

		if (e) {
			int a = axis_index(p, s + 1, (size_t)(e - s - 1));

			piece = p->axis_values[a].v[axis[a]];
			len = strlen(piece);
			s = e + 1;
		} else {
			s++;
		}
		if (n + len + 1 > cap)
			out = xrealloc(out, cap = 2 * (n + len + 1));
		memcpy(out + n, piece, len);
		n += len;
	}
	out[n] = '\0';
	return out;
}

/* append @w to @buf (of @cap, growing), shell-quoted when it needs to be */
static void append_word(char **buf, size_t *cap, const char *w)
{
	size_t need = strlen(*buf) + 4 * strlen(w) + 4;
	bool plain = *w != '\0';
	char *o;

	for (const char *c = w; *c; c++)
		plain &= isalnum((unsigned char)*c) || strchr("_-./=,:+@%^", *c);
	if (need > *cap)
		*buf = xrealloc(*buf, *cap = 2 * need);
	o = *buf + strlen(*buf);
	if (o != *buf)
		*o++ = ' ';
	if (plain) {
		strcpy(o, w);
		return;
	}
	*o++ = '\'';
	for (const char *c = w; *c; c++) {
		if (*c == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *c;
		}
	}
	*o++ = '\'';
	*o = '\0';
}

/* the command line after "schedlab": what the point runs, hashed to name it */
static char *canonical_cmd(const struct session_config *cfg)
{
	size_t cap = 256;
	char *buf = xcalloc(1, cap), num[32];

	append_word(&buf, &cap, "run");
	append_word(&buf, &cap, "-m");
	append_word(&buf, &cap, cfg->machine);
	if (cfg->features && *cfg->features) {
		append_word(&buf, &cap, "--features");
		append_word(&buf, &cap, cfg->features);
	}
	append_word(&buf, &cap, "--seed");
	snprintf(num, sizeof(num), "%llu", (unsigned long long)cfg->seed);
	append_word(&buf, &cap, num);
	if (cfg->hz) {
		append_word(&buf, &cap, "--hz");
		snprintf(num, sizeof(num), "%u", cfg->hz);
		append_word(&buf, &cap, num);
	}
	if (cfg->cpufreq) {
		append_word(&buf, &cap, "--cpufreq");
		append_word(&buf, &cap, cfg->cpufreq);
	}
	if (cfg->guest) {
		append_word(&buf, &cap, "--guest");
		append_word(&buf, &cap, cfg->guest);
	}
	if (cfg->cpuidle) {
		append_word(&buf, &cap, "--cpuidle");
		append_word(&buf, &cap, cfg->cpuidle);
	}
	if (cfg->preempt) {
		append_word(&buf, &cap, "--preempt");
		append_word(&buf, &cap, cfg->preempt);
	}
	if (cfg->funclatency) {
		append_word(&buf, &cap, "--funclatency");
		append_word(&buf, &cap, cfg->funclatency);
	}
	if (cfg->probe_overhead) {
		append_word(&buf, &cap, "--probe-overhead");
		append_word(&buf, &cap, "on");
	}
	for (int i = 0; i < cfg->nr_sysctls; i++) {
		append_word(&buf, &cap, "--sysctl");
		append_word(&buf, &cap, cfg->sysctls[i]);
	}
	if (cfg->profile) {
		append_word(&buf, &cap, "--costs");
		append_word(&buf, &cap, cfg->profile->path);
	}
	for (int i = 0; i < cfg->nr_costs; i++) {
		append_word(&buf, &cap, "--cost");
		append_word(&buf, &cap, cfg->costs[i]);
	}
	for (int i = 0; i < cfg->nr_also; i++) {
		append_word(&buf, &cap, "--also");
		append_word(&buf, &cap, cfg->also[i]);
	}
	append_word(&buf, &cap, "--");
	for (int i = 0; i < cfg->argc; i++)
		append_word(&buf, &cap, cfg->argv[i]);
	return buf;
}

static const char **copy_ptrs(const char *const *v, int n)
{
	const char **out = xcalloc((size_t)n + 1, sizeof(*out));

	memcpy(out, v, (size_t)n * sizeof(*out));
	return out;
}

/* the point's own string: kept in its word list, which outlives the config */
static const char *own(struct sweep_point *pt, char *s)
{
	pt->words.v = xreallocarray(pt->words.v, (size_t)pt->words.n + 2, sizeof(*pt->words.v));
	pt->words.v[pt->words.n++] = s;
	pt->words.v[pt->words.n] = NULL;
	return s;
}

static int make_point(const struct sweep_plan *p, struct sweep_point *pt)
{
	struct session_opts so;
	struct strlist argv, set;
	char cmd[512];
	int rc = 0;

	session_opts_init(&so);
	so.machine = p->machines.names.v[pt->machine];
	so.seed = p->seeds[pt->seed];
	for (int o = 0; o < p->options.names.n && !rc; o++) {
		snprintf(cmd, sizeof(cmd), "sweep: %s:%d", p->origin, p->options.lines[o]);
		rc = session_opt(cmd, study_option_code(p->options.names.v[o]),
				 own(pt, substitute(p, p->options.values.v[o], pt->axis)), &so);
	}
	split_words(p->settings.values.v[pt->settings], &set);
	snprintf(cmd, sizeof(cmd), "sweep: %s:%d", p->origin, p->settings.lines[pt->settings]);
	for (int i = 0; i + 1 < set.n && !rc; i += 2)
		for (size_t k = 0; k < sizeof(settings_opts) / sizeof(settings_opts[0]); k++)
			if (!strcmp(set.v[i], settings_opts[k].flag))
				rc = session_opt(cmd, settings_opts[k].code,
						 own(pt, xstrdup(set.v[i + 1])), &so);
	strlist_free(&set);
	if (rc)
		return rc;
	split_words(own(pt, substitute(p, p->workloads.names.v[pt->workload], pt->axis)), &argv);
	pt->argv = argv.v; /* freed with the point */
	session_opts_config(&so, p->features.values.v[pt->features], argv.n, argv.v, &pt->cfg);
	pt->cfg.costs = copy_ptrs(so.costs, so.nr_costs);
	pt->cfg.sysctls = copy_ptrs(so.sysctls, so.nr_sysctls);
	pt->cfg.also = copy_ptrs(so.also, so.nr_also);
	pt->cmd = canonical_cmd(&pt->cfg);
	snprintf(pt->hash, sizeof(pt->hash), "%016llx", (unsigned long long)sweep_hash(pt->cmd));
	return 0;
}

void sweep_points_free(struct sweep_point *pts, int n)
{
	for (int i = 0; i < n; i++) {
		struct sweep_point *pt = &pts[i];

		if (pt->argv) {
			for (char **a = pt->argv; *a; a++)
				free(*a);
			free(pt->argv);
		}
		free((void *)pt->cfg.costs);
		free((void *)pt->cfg.sysctls);
		free((void *)pt->cfg.also);
		free(pt->cmd);
		strlist_free(&pt->words);
	}
	free(pts);
}

/* the axes workload @w uses, itself or through an option */
static void workload_axes(const struct sweep_plan *p, int w, bool *used)
{
	char err[64];
	struct directive_parser ps = { .origin = "", .err = err, .errlen = sizeof(err) };

	memset(used, 0, SWEEP_MAX_AXES * sizeof(*used));
	axes_used(&ps, p, p->workloads.names.v[w], used);
	for (int o = 0; o < p->options.names.n; o++)
		axes_used(&ps, p, p->options.values.v[o], used);
}

int sweep_points(const struct sweep_plan *p, struct sweep_point **pts, int *n)
{
	int cap = 0, groups = 0, rc = 0;

	*pts = NULL;
	*n = 0;
	for (int m = 0; m < p->machines.names.n && !rc; m++)
		for (int w = 0; w < p->workloads.names.n && !rc; w++) {
			bool used[SWEEP_MAX_AXES];
			int axis[SWEEP_MAX_AXES];

			workload_axes(p, w, used);
			for (int a = 0; a < SWEEP_MAX_AXES; a++)
				axis[a] = a < p->nr_axes && used[a] ? 0 : -1;
			for (bool more = true; more && !rc;) {
				for (int f = 0; f < p->features.names.n && !rc; f++)
					for (int s = 0; s < p->settings.names.n && !rc;
					     s++, groups++)
						for (int sd = 0; sd < p->nr_seeds && !rc; sd++) {
							struct sweep_point *pt;

							if (*n == SWEEP_MAX_POINTS) {
								rc = usage_error(
									"sweep: %s: more than %d points",
									p->origin,
									SWEEP_MAX_POINTS);
								break;
							}
							if (*n == cap)
								*pts = xreallocarray(
									*pts,
									(size_t)(cap = cap ? 2 * cap :
											     64),
									sizeof(**pts));
							pt = &(*pts)[(*n)++];
							memset(pt, 0, sizeof(*pt));
							pt->machine = m;
							pt->workload = w;
							pt->features = f;
							pt->settings = s;
							pt->seed = sd;
							pt->group = groups;
							memcpy(pt->axis, axis, sizeof(axis));
							rc = make_point(p, pt);
						}
				/* the next combination of the axes used, the last one fastest */
				more = false;
				for (int a = p->nr_axes - 1; a >= 0 && !more; a--) {
					if (axis[a] < 0)
						continue;
					if (++axis[a] < p->axis_values[a].n)
						more = true;
					else
						axis[a] = 0;
				}
			}
		}
	if (rc) {
		sweep_points_free(*pts, *n);
		*pts = NULL;
		*n = 0;
	}
	return rc;
}

int sweep_validate(const struct sweep_plan *p, const struct sweep_point *pts, int n)
{
	char err[512];

	for (int m = 0; m < p->machines.names.n; m++) {
		struct topology *t = topology_load(p->machines.names.v[m], err, sizeof(err));

		if (!t)
			return usage_error("sweep: %s:%d: %s", p->origin, p->machines.lines[m],
					   err);
		topology_free(t);
	}
	for (int f = 0; f < p->features.names.n; f++) {
		if (sched_feat_check(p->features.values.v[f], err, sizeof(err)))
			return usage_error("sweep: %s:%d: features '%s': %s", p->origin,
					   p->features.lines[f], p->features.names.v[f], err);
	}
	/* the seed changes nothing that is checked: one point of each group */
	for (int i = 0; i < n; i++) {
		const struct sweep_point *pt = &pts[i];

		if (i && pts[i - 1].group == pt->group)
			continue;
		if (session_check(&pt->cfg, err, sizeof(err)))
			return usage_error(
				"sweep: %s:%d: '%s' on %s (features %s, settings %s): %s",
				p->origin, p->workloads.lines[pt->workload],
				pt->words.v[pt->words.n - 1], p->machines.names.v[pt->machine],
				p->features.names.v[pt->features],
				p->settings.names.v[pt->settings], err);
	}
	return 0;
}
