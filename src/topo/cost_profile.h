/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Cost profiles loaded with --costs FILE: a file holding only the [costs]
 * section of the machine-file format (what `schedlab calibrate` writes),
 * applied on top of the machine's costs and below --cost flags.
 * docs/calibration.md.
 */
#ifndef SCHEDLAB_TOPO_COST_PROFILE_H
#define SCHEDLAB_TOPO_COST_PROFILE_H

#include "sim/cost.h"

#include <stddef.h>
#include <stdio.h>

struct cost_profile {
	const char *path; /* as given */
	const char *text; /* the file's contents */
	char hash[17]; /* FNV-1a 64 of the contents, 16 hex digits */
	char date[64]; /* the "# date:" header line's value, "" without one */
	char cpu[128]; /* the "# cpu:" header line's value, "" without one */
	char virt[64]; /* the "# virtualization:" header line's value, "" without one */
	bool busy; /* a "# busy:" header line: measured on a busy machine */
};

/*
 * Read and check the profile at @path (every line applied to the default
 * model); the same path again returns the same profile, kept until exit.
 * NULL with "PATH:LINE: problem" (or "PATH: problem") in @err.
 */
const struct cost_profile *cost_profile_load(const char *path, char *err, size_t errlen);

/* Apply @p on top of @c; 0, or -1 with "PATH:LINE: problem" in @err. */
int cost_profile_apply(const struct cost_profile *p, struct cost_model *c, char *err,
		       size_t errlen);

/* The header fields of @text (date, cpu, virtualization, busy) and its hash into @p. */
void cost_profile_describe(struct cost_profile *p, const char *text);

/* Every parameter of @c as a profile: "[costs]", then one "name = value" line each. */
void cost_profile_write_all(FILE *out, const struct cost_model *c);

#endif
