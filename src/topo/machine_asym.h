/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The [asym_packing] section of a machine file (machine_asym.c): the
 * levels with SD_ASYM_PACKING and the CPUs' priorities.
 */
#ifndef SCHEDLAB_TOPO_MACHINE_ASYM_H
#define SCHEDLAB_TOPO_MACHINE_ASYM_H

#include "topo/machine_file.h"

/* what the parser keeps until the CPU count is known */
struct mf_asym {
	unsigned int line; /* of the [asym_packing] header; 0: none */
	unsigned int fields; /* keys read, one bit each */
	char *priority; /* the priority value, resolved by mf_asym_finish() */
	unsigned int priority_line;
};

/* One line of the section into @d. 0, or -1 with a message. */
int mf_asym_line(struct mf_asym *a, struct asym_packing_desc *d, const struct mf_line *l, char *err,
		 size_t errlen);
/* Once the CPUs are known: every CPU's priority. 0, or -1 with "FILE:LINE: ...". */
int mf_asym_finish(struct mf_asym *a, struct topology *t, const char *file, char *err,
		   size_t errlen);
void mf_asym_free(struct mf_asym *a);

#endif
