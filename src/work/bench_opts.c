// SPDX-License-Identifier: GPL-2.0-only
/* The option tables of work/bench_opts.h: getopt_long() from them, lookups, names. */
#include "work/bench_opts.h"

#include <stdio.h>
#include <string.h>

void bench_getopt_init(struct bench_getopt *g, const struct bench_opt *opts, const char *prefix)
{
	size_t s = 0, l = 0;

	memset(g, 0, sizeof(*g));
	for (; *prefix; prefix++)
		g->shortopts[s++] = *prefix;
	for (const struct bench_opt *o = opts; o->code; o++) {
		if (o->code < BOPT_LONG && s + 3 < sizeof(g->shortopts)) {
			g->shortopts[s++] = (char)o->code;
			if (o->has_arg != no_argument)
				g->shortopts[s++] = ':';
			if (o->has_arg == optional_argument)
				g->shortopts[s++] = ':';
		}
		if (o->long_name && l < BENCH_MAX_OPTS)
			g->longopts[l++] =
				(struct option){ o->long_name, o->has_arg, NULL, o->code };
	}
	g->shortopts[s] = '\0';
}

const struct bench_opt *bench_opt_find(const struct bench_opt *opts, int code)
{
	for (const struct bench_opt *o = opts; o && o->code; o++)
		if (o->code == code)
			return o;
	return NULL;
}

const struct bench_opt *bench_opt_find_long(const struct bench_opt *opts, const char *name)
{
	for (const struct bench_opt *o = opts; o && o->code; o++)
		if (o->long_name && !strcmp(o->long_name, name))
			return o;
	return NULL;
}

const char *bench_opt_name(const struct bench_opt *o, char *buf, size_t len)
{
	if (o->code < BOPT_LONG)
		snprintf(buf, len, "-%c", o->code);
	else
		snprintf(buf, len, "--%s", o->long_name);
	return buf;
}

const char *bench_opt_spelling(const struct bench_opt *o, char *buf, size_t len)
{
	const char *arg = o->has_arg == no_argument ? NULL : o->arg ? o->arg : "VALUE";
	int n = 0;

	if (o->flags & BOPT_PARAM) {
		snprintf(buf, len, "%s=%s", o->long_name, arg ? arg : "");
		return buf;
	}
	if (o->code < BOPT_LONG)
		n = snprintf(buf, len, "-%c%s", o->code, o->long_name ? ", " : "");
	if (o->long_name && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "--%s", o->long_name);
	if (arg && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n,
			 o->has_arg == optional_argument ? "[=%s]" : " %s", arg);
	return buf;
}

int bench_opt_refuse(const char *tool, const struct bench_opt *o, char *err, size_t errlen)
{
	char name[64];

	snprintf(err, errlen, "%s: %s %s", tool, bench_opt_name(o, name, sizeof(name)), o->refused);
	return -1;
}

/* @name is one of the blank-separated words of @list */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list && *list) {
		size_t w = strcspn(list, " ");

		if (w == n && !strncmp(list, name, n))
			return true;
		list += w;
		list += strspn(list, " ");
	}
	return false;
}

const struct bench_tool *bench_tool_find(const char *name)
{
	for (unsigned int i = 0; i < nr_bench_tools; i++)
		if (!strcmp(bench_tools[i].name, name) || in_list(bench_tools[i].aliases, name))
			return &bench_tools[i];
	return NULL;
}
