// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab benchmarks [--names | NAME]
 *
 * The command lines `run -- COMMAND` models: each tool, what it is and
 * which source the model follows; for one tool its options as modelled
 * and the ones it refuses, with why. Everything comes from the tables the
 * parsers use (work/bench_opts.h), so the listing is what they accept.
 */
#include "cli/cli.h"

#include "report/outfile.h"
#include "work/bench_opts.h"

#include <stdio.h>
#include <string.h>

#define WRAP 100
#define OPT_COLUMN 28

static const char benchmarks_usage[] =
	"usage: schedlab benchmarks [--names | NAME]\n"
	"\n"
	"List the benchmark command lines 'schedlab run -- COMMAND' models: each tool, what it\n"
	"is and the source the model follows; the prefixes any of them may follow.\n"
	"\n"
	"  NAME         one tool (e.g. hackbench, 'perf bench sched pipe', stress-ng): its\n"
	"               options as modelled, what each does, and the options it refuses (exit 2)\n"
	"               and why\n"
	"  --names      the tools' names only, one per line\n"
	"  -h, --help   show this help\n";

/*
 * @text from column @col (what is before it printed), wrapped at WRAP,
 * its later lines indented by @indent
 */
static void print_wrapped(const char *text, int col, int indent)
{
	bool first = true;

	while (*text) {
		size_t len;

		while (*text == ' ')
			text++;
		if (!*text)
			break;
		len = strcspn(text, " ");
		if (!first && col + 1 + (int)len > WRAP) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			putchar(' ');
			col++;
		}
		first = false;
		printf("%.*s", (int)len, text);
		col += (int)len;
		text += len;
	}
	putchar('\n');
}

static void list_tools(void)
{
	int width = 0;

	for (unsigned int i = 0; i < nr_bench_tools; i++)
		if ((int)strlen(bench_tools[i].name) > width)
			width = (int)strlen(bench_tools[i].name);
	width += 2;
	for (int prefix = 0; prefix < 2; prefix++) {
		if (prefix)
			printf("\nprefixes (any command above may follow them):\n");
		for (unsigned int i = 0; i < nr_bench_tools; i++) {
			const struct bench_tool *t = &bench_tools[i];

			if (t->prefix != (bool)prefix)
				continue;
			printf("%-*s", width, t->name);
			print_wrapped(t->summary, width, width);
		}
	}
	printf("\n'schedlab benchmarks NAME' lists a command's options as modelled and what it refuses.\n");
}

static void print_opt(const struct bench_opt *o, const char *text)
{
	char spelling[96];
	int col;

	col = printf("  %s", bench_opt_spelling(o, spelling, sizeof(spelling)));
	if (col >= OPT_COLUMN) {
		printf("\n%*s", OPT_COLUMN, "");
		col = OPT_COLUMN;
	} else {
		printf("%*s", OPT_COLUMN - col, "");
		col = OPT_COLUMN;
	}
	print_wrapped(text, col, OPT_COLUMN);
}

static void describe(const struct bench_tool *t)
{
	bool any_refused = false;

	printf("%s: ", t->name);
	print_wrapped(t->summary, (int)strlen(t->name) + 2, 2);
	printf("follows: %s\n", t->follows);
	if (t->aliases)
		printf("also typed: %s\n", t->aliases);
	printf("usage: %s\n", t->synopsis);
	if (t->notes) {
		printf("note: ");
		print_wrapped(t->notes, 6, 6);
	}
	if (t->opts && t->opts[0].code) {
		printf("\noptions:\n");
		for (const struct bench_opt *o = t->opts; o->code; o++) {
			if (o->refused) {
				any_refused = true;
				continue;
			}
			print_opt(o, o->help);
		}
	}
	if (any_refused) {
		printf("\nrefused (exit 2):\n");
		for (const struct bench_opt *o = t->opts; o->code; o++)
			if (o->refused)
				print_opt(o, o->refused);
	}
	printf("\ndocs/benchmarks.md describes what the model does.\n");
}

int cmd_benchmarks(int argc, char **argv)
{
	char name[256] = "";
	size_t n = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(benchmarks_usage, stdout);
			return outfile_check_stdout() ? 1 : 0;
		}
		if (!strcmp(argv[i], "--names")) {
			if (argc != 2)
				return usage_error("benchmarks: --names goes alone");
			for (unsigned int k = 0; k < nr_bench_tools; k++)
				printf("%s\n", bench_tools[k].name);
			return outfile_check_stdout() ? 1 : 0;
		}
		if (argv[i][0] == '-')
			return usage_error(
				"benchmarks: unknown option '%s' (see 'schedlab benchmarks --help')",
				argv[i]);
		/* "perf bench sched pipe" typed as words or as one argument */
		n += (size_t)snprintf(name + n, n < sizeof(name) ? sizeof(name) - n : 0, "%s%s",
				      n ? " " : "", argv[i]);
		if (n >= sizeof(name))
			return usage_error("benchmarks: no benchmark is called '%s...'", argv[1]);
	}
	if (!n) {
		list_tools();
	} else {
		const struct bench_tool *t = bench_tool_find(name);

		if (!t)
			return usage_error(
				"benchmarks: unknown benchmark '%s' (see 'schedlab benchmarks')",
				name);
		describe(t);
	}
	return outfile_check_stdout() ? 1 : 0;
}
