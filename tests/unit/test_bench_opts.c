// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modelled tools' option tables (work/bench_opts.h, work/bench_tools.c)
 * and what the parsers built from them do with refused and help options
 * (work/bench_usage.h).
 */
#include "test_util.h"

#include "work/bench.h"
#include "work/bench_opts.h"
#include "work/bench_usage.h"

#include <stdlib.h>

/* every table entry is complete and unambiguous */
static void test_tables_consistent(void **state)
{
	(void)state;
	assert_true(nr_bench_tools > 10);
	for (unsigned int i = 0; i < nr_bench_tools; i++) {
		const struct bench_tool *t = &bench_tools[i];
		unsigned int helps = 0;

		assert_true(t->name && t->name[0]);
		assert_true(t->summary && t->follows && t->synopsis);
		assert_ptr_equal(bench_tool_find(t->name), t);
		for (const struct bench_opt *o = t->opts; o && o->code; o++) {
			if (!o->refused && !o->help)
				fail_msg("%s: option %d has neither help nor refusal", t->name,
					 o->code);
			if (o->code >= BOPT_LONG && !o->long_name)
				fail_msg("%s: long-only option %d has no long name", t->name,
					 o->code);
			if (o->has_arg != no_argument && !o->arg)
				fail_msg("%s: option %d takes a value without a name for it",
					 t->name, o->code);
			helps += !!(o->flags & BOPT_HELP);
			for (const struct bench_opt *p = o + 1; p->code; p++) {
				if (p->code == o->code)
					fail_msg("%s: code %d twice", t->name, o->code);
				if (o->long_name && p->long_name &&
				    !strcmp(o->long_name, p->long_name))
					fail_msg("%s: --%s twice", t->name, o->long_name);
			}
		}
		assert_true(helps <= 1);
	}
	assert_non_null(bench_tool_find("./schbench"));
	assert_non_null(bench_tool_find("Run"));
	assert_null(bench_tool_find("nosuch"));
}

static void test_getopt_tables(void **state)
{
	static const struct bench_opt opts[] = {
		{ .code = 'a', .long_name = "all", .has_arg = no_argument, .help = "x" },
		{ .code = 's',
		  .long_name = "size",
		  .has_arg = required_argument,
		  .arg = "N",
		  .help = "x" },
		{ .code = 'd',
		  .long_name = "debug",
		  .has_arg = optional_argument,
		  .arg = "N",
		  .help = "x" },
		{ .code = 'Z',
		  .has_arg = required_argument,
		  .arg = "T",
		  .refused = "is not modelled" },
		{ .code = BOPT_LONG,
		  .long_name = "split",
		  .has_arg = required_argument,
		  .arg = "P",
		  .help = "x" },
		{ 0 },
	};
	struct bench_getopt g;
	char buf[64];

	(void)state;
	bench_getopt_init(&g, opts, "+");
	assert_string_equal(g.shortopts, "+as:d::Z:");
	assert_string_equal(g.longopts[0].name, "all");
	assert_int_equal(g.longopts[1].has_arg, required_argument);
	assert_int_equal(g.longopts[3].val, BOPT_LONG);
	assert_null(g.longopts[4].name);
	assert_string_equal(bench_opt_spelling(&opts[1], buf, sizeof(buf)), "-s, --size N");
	assert_string_equal(bench_opt_spelling(&opts[2], buf, sizeof(buf)), "-d, --debug[=N]");
	assert_string_equal(bench_opt_spelling(&opts[3], buf, sizeof(buf)), "-Z T");
	assert_string_equal(bench_opt_spelling(&opts[4], buf, sizeof(buf)), "--split P");
	assert_string_equal(bench_opt_name(&opts[4], buf, sizeof(buf)), "--split");
	assert_ptr_equal(bench_opt_find(opts, 'Z'), &opts[3]);
	assert_ptr_equal(bench_opt_find_long(opts, "split"), &opts[4]);
}

/* @t's name in words, then @extra..., into @argv; returns argc */
static int command(const struct bench_tool *t, char *words, char **argv, const char *a,
		   const char *b)
{
	int argc = 0;

	strcpy(words, t->name);
	for (char *w = strtok(words, " "); w; w = strtok(NULL, " "))
		argv[argc++] = w;
	/* the prefixes need no command to refuse an option; ipistorm takes NAME=VALUE */
	if (!strcmp(t->name, "unixbench"))
		argv[argc++] = (char *)"context1";
	argv[argc++] = (char *)a;
	if (b)
		argv[argc++] = (char *)b;
	argv[argc] = NULL;
	return argc;
}

/* every refused option is refused, naming itself and why */
static void test_refused_options(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < nr_bench_tools; i++) {
		const struct bench_tool *t = &bench_tools[i];

		if (!strcmp(t->name, "perf stat"))
			continue; /* parsed by `run` itself (cli/perf_stat_opts.c) */
		for (const struct bench_opt *o = t->opts; o && o->code; o++) {
			char words[128], spelled[64], err[512], *argv[16];
			struct bench *b;
			int argc;

			if (!o->refused)
				continue;
			if (o->code < BOPT_LONG)
				snprintf(spelled, sizeof(spelled), "-%c", o->code);
			else
				snprintf(spelled, sizeof(spelled), "--%s", o->long_name);
			argc = command(t, words, argv, spelled,
				       o->has_arg == required_argument ? "1" : NULL);
			b = bench_parse(argc, argv, err, sizeof(err));
			if (b)
				fail_msg("%s %s: accepted", t->name, spelled);
			if (!strstr(err, o->refused) || !strstr(err, spelled))
				fail_msg("%s %s: '%s'", t->name, spelled, err);
			assert_null(bench_usage_requested());
		}
	}
}

/* TOOL --help: the tool's usage recorded, the parse failed, the status the tool's */
static void test_help(void **state)
{
	static const struct {
		const char *tool;
		const char *arg;
		int status;
		bool to_stderr;
	} cases[] = {
		{ "hackbench", "--help", 0, false },
		{ "perf bench sched messaging", "-h", 129, true },
		{ "perf bench sched pipe", "--help", 129, true },
		{ "perf bench futex wake", "--help", 129, true },
		{ "jankbench", "--help", 0, false },
		{ "schbench-2016", "--help", 1, true },
		{ "schbench", "--help", 1, true },
		{ "rt-app", "-h", 0, false },
		{ "reaim", "-h", 1, false },
		{ "stress-ng", "--help", 0, false },
		{ "taskset", "--help", 0, false },
		{ "chrt", "-h", 0, false },
		{ "nice", "--help", 0, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bench_usage *u;
		char words[128], err[512], *argv[16];
		int argc = command(bench_tool_find(cases[i].tool), words, argv, cases[i].arg, NULL);

		assert_null(bench_parse(argc, argv, err, sizeof(err)));
		u = bench_usage_requested();
		if (!u)
			fail_msg("%s %s: no usage (%s)", cases[i].tool, cases[i].arg, err);
		assert_int_equal(u->status, cases[i].status);
		assert_true(strlen(cases[i].to_stderr ? u->err : u->out) > 100);
		assert_non_null(strstr(err, "prints the tool's usage"));
		/* a background workload does not print it */
		assert_null(bench_parse_background(argc, argv, err, sizeof(err)));
		assert_null(bench_usage_requested());
	}
}

/* perf shows only the options the later arguments name, as option__in_argv() does */
static void test_perf_help_filter(void **state)
{
	char *argv[] = { "perf", "bench", "sched", "messaging", "-h", "-l", "pipe", NULL };
	char err[512];
	const struct bench_usage *u;

	(void)state;
	assert_null(bench_parse(7, argv, err, sizeof(err)));
	u = bench_usage_requested();
	assert_non_null(u);
	assert_non_null(strstr(u->err, "--nr_loops"));
	assert_non_null(strstr(u->err, "--pipe"));
	assert_null(strstr(u->err, "--group"));
	assert_null(strstr(u->err, "--thread"));
	assert_string_equal(u->out, "# Running 'sched/messaging' benchmark:\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_consistent), cmocka_unit_test(test_getopt_tables),
		cmocka_unit_test(test_refused_options),	  cmocka_unit_test(test_help),
		cmocka_unit_test(test_perf_help_filter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
