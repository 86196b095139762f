// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_quote(): user text in messages, with the bytes a terminal acts on shown
 * instead; shell_quote() and shell_word(): a path as one word for sh.
 */
#include "test_util.h"

#include "cli/quote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_quote_escapes(void **state)
{
	char buf[128];

	(void)state;
	assert_string_equal(cli_quote(buf, sizeof(buf), "plain text, 100% (ok)"),
			    "plain text, 100% (ok)");
	assert_string_equal(cli_quote(buf, sizeof(buf), ""), "");
	/* ESC sequences, CR, newline, tab, DEL, bytes from 0x80, and the backslash */
	assert_string_equal(cli_quote(buf, sizeof(buf), "\033[2Jx"), "\\x1b[2Jx");
	assert_string_equal(cli_quote(buf, sizeof(buf), "a\rb\nc\td"), "a\\x0db\\x0ac\\x09d");
	assert_string_equal(cli_quote(buf, sizeof(buf), "\x7f\x80\x9b\xff"),
			    "\\x7f\\x80\\x9b\\xff");
	assert_string_equal(cli_quote(buf, sizeof(buf), "a\\x1b"), "a\\\\x1b");
}

static void test_quote_cuts_whole_escapes(void **state)
{
	char buf[16];

	(void)state;
	/* exactly fits: 15 characters and the NUL */
	assert_string_equal(cli_quote(buf, sizeof(buf), "abcdefghijklmno"), "abcdefghijklmno");
	/* one more: cut with "..." */
	assert_string_equal(cli_quote(buf, sizeof(buf), "abcdefghijklmnop"), "abcdefghijkl...");
	/* never half an escape: "ab" + \x1b (4) + "cdefgh" = 12 = room; then ... */
	assert_string_equal(cli_quote(buf, sizeof(buf), "ab\033cdefgh\033\033"),
			    "ab\\x1bcdefgh...");
	assert_string_equal(cli_quote(buf, sizeof(buf), "abcdefghij\033\033"), "abcdefghij...");
	assert_string_equal(cli_quote(buf, 4, "abcdef"), "...");
	assert_string_equal(cli_quote(buf, 3, "abcdef"), "");
	assert_string_equal(cli_quote(buf, 1, "a"), "");
}

/* what sh makes of "printf %s WORD" */
static char *sh_reads(const char *word)
{
	size_t len = strlen(word) + 32, n;
	char *cmd = malloc(len), *out = malloc(4096);
	FILE *f;

	snprintf(cmd, len, "printf %%s %s", word);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(out, 1, 4095, f);
	out[n] = '\0';
	assert_int_equal(pclose(f), 0);
	free(cmd);
	return out;
}

/* issue 18: the Slurm script took a path with a quote as shell code */
static void test_shell_quote(void **state)
{
	const char *tricky[] = {
		"plain", "", "it's", "''", "a b", "x'$(touch PWNED)'y", "$(touch x) `id` ;|&<>*?[]{}~#!",
		"new\nline", "back\\slash \\' \"dq\"", "50% -o --point",
	};
	char all[256], *q, *got;

	(void)state;
	q = shell_quote("it's");
	assert_string_equal(q, "'it'\\''s'");
	free(q);
	q = shell_quote("");
	assert_string_equal(q, "''");
	free(q);
	q = shell_word("/tmp/doc/cl.sweep/slurm/sweep.sbatch");
	assert_string_equal(q, "/tmp/doc/cl.sweep/slurm/sweep.sbatch");
	free(q);
	q = shell_word("a b");
	assert_string_equal(q, "'a b'");
	free(q);
	/* sh reads back exactly the string, whatever its bytes */
	for (size_t i = 0; i < sizeof(tricky) / sizeof(tricky[0]); i++) {
		q = shell_quote(tricky[i]);
		got = sh_reads(q);
		assert_string_equal(got, tricky[i]);
		free(got);
		free(q);
	}
	for (int c = 1; c < 256; c++)
		all[c - 1] = (char)c;
	all[255] = '\0';
	q = shell_quote(all);
	got = sh_reads(q);
	assert_memory_equal(got, all, 256);
	free(got);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_escapes),
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_quote_cuts_whole_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
