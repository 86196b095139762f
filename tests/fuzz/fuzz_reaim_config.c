// SPDX-License-Identifier: GPL-2.0-only
/*
 * reaim config files (work/bench_reaim.c, read_config_file()'s format): the
 * input is the file's text, parsed as `schedlab run -- reaim -c FILE`
 * parses it over reaim's defaults. A value out of its documented range
 * aborts (a finding).
 */
#include "fuzz_util.h"

#include "work/reaim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), err[512];
	struct reaim_conf c = { .start_users = 1, .end_users = 5, .incr = 1, .jobs = 100 };

	if (!reaim_config_parse(&c, "fuzz.config", text, err, sizeof(err)) &&
	    (c.start_users > REAIM_MAX_USERS || c.end_users > REAIM_MAX_USERS ||
	     c.incr > REAIM_MAX_USERS || c.jobs > REAIM_MAX_JOBS ||
	     c.filesize_kb > REAIM_MAX_SIZE * 1024 || c.poolsize_kb > REAIM_MAX_SIZE * 1024))
		abort();
	free(text);
	return 0;
}
