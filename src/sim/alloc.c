// SPDX-License-Identifier: GPL-2.0-only
#include "sim/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void out_of_memory(size_t size)
{
	fprintf(stderr, "schedlab: out of memory (allocating %zu bytes)\n", size);
	exit(1);
}

static void *checked(void *p, size_t size)
{
	if (!p)
		out_of_memory(size);
	return p;
}

void *xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1), size);
}

void *xcalloc(size_t n, size_t size)
{
	if (!n || !size)
		n = size = 1;
	/* calloc() checks n * size for overflow itself */
	return checked(calloc(n, size), n > SIZE_MAX / size ? SIZE_MAX : n * size);
}

void *xcalloc_aligned(size_t n, size_t size, size_t align)
{
	void *p;

	if (!n || !size)
		n = 1, size = align;
	if (n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	/* aligned_alloc() wants a multiple of the alignment: size is one */
	p = checked(aligned_alloc(align, n * size), n * size);
	memset(p, 0, n * size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	return checked(realloc(p, size ? size : 1), size);
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	return checked(strdup(s), strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
	return checked(strndup(s, n), strnlen(s, n) + 1);
}
