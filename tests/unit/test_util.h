/* SPDX-License-Identifier: GPL-2.0-only */
/* Common includes for cmocka unit tests. */
#ifndef SCHEDLAB_TEST_UTIL_H
#define SCHEDLAB_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

/*
 * A command line typed as one string, split at blanks: its words in @buf
 * (of @len bytes), pointed to by @argv (at most @max - 1 of them, then
 * NULL). Returns how many.
 */
static inline int test_split_cmd(const char *cmd, char *buf, size_t len, char **argv, int max)
{
	int argc = 0;

	snprintf(buf, len, "%s", cmd);
	for (char *t = strtok(buf, " "); t && argc < max - 1; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return argc;
}

#endif
