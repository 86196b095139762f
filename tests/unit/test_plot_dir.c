// SPDX-License-Identifier: GPL-2.0-only
/*
 * The titles --plot's scripts carry: a command with quotes in it (an
 * --also) stays one gnuplot string, and a newline cannot end the line.
 */
#include "test_util.h"

#include "report/plot_dir.h"

#include <stdlib.h>

static char *quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	plot_dir_quote(f, s);
	fclose(f);
	return buf;
}

static void test_quote(void **state)
{
	char *q;

	(void)state;
	q = quoted("smp2: hackbench -g 1, with --also 'stress-ng --cpu 1'");
	assert_string_equal(q, "smp2: hackbench -g 1, with --also ''stress-ng --cpu 1''");
	free(q);
	q = quoted("a\nb");
	assert_string_equal(q, "a b");
	free(q);
	q = quoted("");
	assert_string_equal(q, "");
	free(q);
	/* nothing else is special with noenhanced: _ ^ { } \ stay */
	q = quoted("nr_running^2 {x} \\n");
	assert_string_equal(q, "nr_running^2 {x} \\n");
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
