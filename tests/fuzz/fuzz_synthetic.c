// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machines in hwloc's synthetic syntax (topo/synthetic.c:
 * topology_load_synthetic), as `-m 'synthetic:pack:4 l3:16 core:8 pu:2'`
 * names them. Each input line is one description; the ones that parse are
 * built (masks and all) and freed.
 */
#include "fuzz_util.h"

#include "topo/topology.h"

#define MAX_LINES 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *v[MAX_LINES], err[512];
	int n = fuzz_lines(s, v, MAX_LINES);

	for (int i = 0; i < n; i++) {
		struct topology *t = topology_load_synthetic(v[i], err, sizeof(err));

		topology_free(t);
	}
	free(s);
	return 0;
}
