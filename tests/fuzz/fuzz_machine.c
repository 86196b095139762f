// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machine files (topo/machine_file.c: topology_parse_machine), as -m PATH
 * reads them, and cost profiles (cost_profile_parse), which share the
 * lexer and the [costs] parser. A machine that parses is built (masks and
 * all), exported again, and freed.
 */
#include "fuzz_util.h"

#include "topo/machine_file.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), err[512];
	struct topology *t = topology_parse_machine(s, "fuzz.machine", err, sizeof(err));
	struct cost_model c;

	if (t) {
		FILE *null = fopen("/dev/null", "w");

		if (null) {
			topology_export(t, null);
			fclose(null);
		}
	}
	topology_free(t);
	cost_model_default(&c);
	cost_profile_parse(&c, s, "fuzz.costs", err, sizeof(err));
	free(s);
	return 0;
}
