// SPDX-License-Identifier: GPL-2.0-only
#include "cli/perf_stat_opts.h"

#include "work/bench_opts.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char perf_stat_usage[] =
	"perf stat [-n|--null] [-r|--repeat N] [--table] [-e|--event LIST]... [-a|--all-cpus] "
	"[-C|--cpu LIST] [-x|--field-separator SEP] [--] COMMAND...";

/* perf's default events that schedlab prints, as -e lists them (the hardware ones are skipped) */
static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
};

/* -e LIST: comma separated, each one perf_stat_event_lookup() knows */
static int parse_events(const char *list, struct perf_stat_config *c, char *err, size_t errlen)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (!len) {
			snprintf(err, errlen, "perf stat: event syntax error: '%s': empty event name",
				 list);
			return -1;
		}
		if (c->nr_events == PERF_STAT_MAX_EVENTS) {
			snprintf(err, errlen, "perf stat: more than %d events", PERF_STAT_MAX_EVENTS);
			return -1;
		}
		if (perf_stat_event_lookup(p, len, &c->events[c->nr_events])) {
			snprintf(err, errlen,
				 "perf stat: event syntax error: '%.*s': Bad event name (schedlab counts %s)",
				 (int)len, p, perf_stat_event_names);
			return -1;
		}
		c->nr_events++;
		p += len;
		if (!*p)
			return 0;
		p++;
	}
}

bool perf_stat_cmdline(int argc, char **argv)
{
	return argc >= 2 && !strcmp(argv[0], "perf") && !strcmp(argv[1], "stat");
}

bool perf_stat_anywhere(int argc, char **argv)
{
	for (int i = 0; i + 1 < argc; i++)
		if (!strcmp(argv[i], "perf") && !strcmp(argv[i + 1], "stat"))
			return true;
	return false;
}

bool perf_stat_in_words(const char *line)
{
	const char *p = line;

	/* "perf" then blanks then "stat", each a whole word */
	while ((p = strstr(p, "perf"))) {
		const char *q = p + 4;

		if ((p == line || isspace((unsigned char)p[-1])) && isspace((unsigned char)*q)) {
			while (isspace((unsigned char)*q))
				q++;
			if (!strncmp(q, "stat", 4) && (!q[4] || isspace((unsigned char)q[4])))
				return true;
		}
		p += 4;
	}
	return false;
}

static int parse_repeat(const char *s, int *out, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno) {
		snprintf(err, errlen, "perf stat: --repeat needs an integer in 1..%d, got '%s'",
			 PERF_STAT_MAX_REPEAT, s);
		return -1;
	}
	if (v < 0) {
		/* perf's own words */
		snprintf(err, errlen, "perf stat: Run count must be a positive number, got '%s'", s);
		return -1;
	}
	if (v == 0) {
		snprintf(err, errlen, "perf stat: --repeat 0 repeats forever in perf; give 1..%d",
			 PERF_STAT_MAX_REPEAT);
		return -1;
	}
	if (v > PERF_STAT_MAX_REPEAT) {
		snprintf(err, errlen, "perf stat: --repeat %ld is more than schedlab's limit of %d runs",
			 v, PERF_STAT_MAX_REPEAT);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int perf_stat_parse(int argc, char **argv, struct perf_stat_opts *o, char *err, size_t errlen)
{
	struct bench_getopt g;
	/* getopt sees "stat" as its program name */
	int sargc = argc - 1, c;
	char **sargv = argv + 1;

	memset(o, 0, sizeof(*o));
	o->repeat = 1;
	optind = 0;
	opterr = 0;
	optopt = 0;
	bench_getopt_init(&g, perf_stat_prefix_opts, "+:");
	while ((c = getopt_long(sargc, sargv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			o->null_run = true;
			break;
		case 'r':
			if (parse_repeat(optarg, &o->repeat, err, errlen))
				return -1;
			break;
		case BOPT_LONG + 0: /* --table */
			o->table = true;
			break;
		case 'e':
			o->has_config = true;
			if (parse_events(optarg, &o->config, err, errlen))
				return -1;
			break;
		case 'a':
			o->has_config = true;
			o->config.system_wide = true;
			break;
		case 'C':
			o->has_config = true;
			o->config.cpu_list = optarg;
			break;
		case 'x':
			o->has_config = true;
			/* perf turns the two characters \t into a tab */
			o->config.csv_sep = strcmp(optarg, "\\t") ? optarg : "\t";
			break;
		case ':':
			snprintf(err, errlen, "perf stat: option '%s' needs a value (usage: %s)",
				 sargv[optind - 1], perf_stat_usage);
			return -1;
		default:
			snprintf(err, errlen, "perf stat: option '%s' is not modelled (usage: %s)",
				 optopt && optopt != '?' ? (char[]){ '-', (char)optopt, 0 } :
				 sargv[optind - 1], perf_stat_usage);
			return -1;
		}
	}
	if (optind >= sargc) {
		snprintf(err, errlen, "perf stat: no command to run (usage: %s)", perf_stat_usage);
		return -1;
	}
	if (o->table && o->repeat <= 1) {
		snprintf(err, errlen, "perf stat: --table is only supported with -r");
		return -1;
	}
	if (o->has_config && !o->config.nr_events) {
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++) {
			/* add_default_events(): cpu-clock first when counting CPUs */
			const char *name = !i && (o->config.system_wide || o->config.cpu_list) ?
						   "cpu-clock" : default_events[i];

			perf_stat_event_lookup(name, strlen(name),
					       &o->config.events[o->config.nr_events++]);
		}
	}
	o->cmd_argc = sargc - optind;
	o->cmd_argv = sargv + optind;
	if (perf_stat_cmdline(o->cmd_argc, o->cmd_argv)) {
		snprintf(err, errlen, "perf stat: a nested 'perf stat' is not modelled");
		return -1;
	}
	return 0;
}

int perf_stat_task_counters(const struct perf_stat_opts *o)
{
	struct perf_stat_event ev;
	int n = 0;

	if (o->null_run || o->config.system_wide || o->config.cpu_list)
		return 0;
	if (o->has_config) {
		for (int i = 0; i < o->config.nr_events; i++)
			n += o->config.events[i].id != PERF_EV_NOT_SUPPORTED;
		return n;
	}
	for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
		if (!perf_stat_event_lookup(default_events[i], strlen(default_events[i]), &ev))
			n += ev.id != PERF_EV_NOT_SUPPORTED;
	return n;
}
