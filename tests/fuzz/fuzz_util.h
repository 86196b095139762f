/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c, built by
 * `make fuzz`; docs/reliability.md). The parsers take C strings, so inputs are
 * copied NUL-terminated; a NUL inside the input ends the string there, as it
 * would in argv or a file read with fgets.
 */
#ifndef SCHEDLAB_TESTS_FUZZ_UTIL_H
#define SCHEDLAB_TESTS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* @data as a NUL-terminated string; free() it */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * Splits @s in place at '\n' into at most @max strings (the rest is dropped);
 * returns how many. A trailing newline does not make an empty last string.
 */
static inline int fuzz_lines(char *s, char **v, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *nl = strchr(s, '\n');

		v[n++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	return n;
}

#endif
