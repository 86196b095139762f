// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app workload files (work/rtapp_parse.c): the input is the file's text,
 * parsed as `schedlab run -- rt-app FILE` parses it (json-c, then every
 * static check), and a parsed file is checked against an 8-CPU machine.
 */
#include "fuzz_util.h"

#include "topo/cpumask.h"
#include "work/bench.h"
#include "work/rtapp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench b = { .kind = BENCH_RTAPP };
	char err[512];

	cpumask_setup(8);
	b.rtapp = rtapp_parse_text("fuzz.json", (const char *)data, size, size & 1, err,
				   sizeof(err));
	if (b.rtapp) {
		rtapp_check_machine(&b, err, sizeof(err));
		rtapp_config_free(b.rtapp);
	}
	return 0;
}
