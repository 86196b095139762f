// SPDX-License-Identifier: GPL-2.0-only
/* cli_quote(): user text in messages, with the bytes a terminal acts on shown instead. */
#include "test_util.h"

#include "cli/quote.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_escapes),
		cmocka_unit_test(test_quote_cuts_whole_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
