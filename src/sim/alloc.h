/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Allocation that cannot fail. A simulation has no way to carry on without
 * the memory it asked for, so running out prints one message and exits
 * with status 1, the same everywhere, instead of each caller writing its
 * own check. It lives in the lowest layer so every layer can use it.
 *
 * A zero size allocates one byte, so NULL never stands for "nothing".
 */
#ifndef SCHEDLAB_SIM_ALLOC_H
#define SCHEDLAB_SIM_ALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
/*
 * xcalloc() of @n elements of @size aligned to @align (a power of two
 * dividing @size), for arrays of host-cache-line-aligned structures; free
 * with free().
 */
void *xcalloc_aligned(size_t n, size_t size, size_t align);
void *xrealloc(void *p, size_t size);
/* xrealloc() to @n elements of @size, exiting as out of memory if n * size overflows */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
