/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers of the small machine-file sections (machine_section.c). */
#ifndef SCHEDLAB_TOPO_MACHINE_SECTION_H
#define SCHEDLAB_TOPO_MACHINE_SECTION_H

#include "topo/machine_file.h"

/* A `source = ...` line appended to @dst (of @size) with one space. 0, or -1 with a message. */
int mf_append_source(char *dst, size_t size, const char *v, char *err, size_t errlen);
/*
 * @l's key among @keys (each at most once, tracked in @fields): its index,
 * or -1 with "unknown key ... (known: ..., source)" or "KEY given twice".
 */
int mf_section_key(const struct mf_line *l, const char *const *keys, int nkeys,
		   unsigned int *fields, char *err, size_t errlen);
/* "yes" or "no" into @out. 0, or -1 with a message naming @key. */
int mf_yes_no(const char *key, const char *v, bool *out, char *err, size_t errlen);

#endif
