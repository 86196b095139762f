// SPDX-License-Identifier: GPL-2.0-only
/*
 * reaim workfiles (work/bench_reaim.c): the input is the file's text,
 * parsed as `schedlab run -- reaim -f FILE` parses it; a parsed workfile
 * is then split into each test's share of -j jobs, as runloop() does, for
 * the smallest, the default and the largest -j. A total or a share out of
 * its documented range aborts (a finding).
 */
#include "fuzz_util.h"

#include "work/reaim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int jobs[] = { 1, 100, REAIM_MAX_JOBS };
	char *text = fuzz_string(data, size), err[512];
	struct reaim_workfile wf;
	unsigned int *load;

	if (reaim_workfile_parse("fuzz.wf", text, &wf, err, sizeof(err))) {
		free(text);
		return 0;
	}
	if (!wf.nr_lines || !wf.total_hits || wf.total_hits > REAIM_MAX_TOTAL_HITS ||
	    wf.filesize_kb > REAIM_MAX_SIZE * 1024 || wf.poolsize_kb > REAIM_MAX_SIZE * 1024)
		abort();
	load = calloc(reaim_nr_jobs, sizeof(*load));
	if (!load)
		abort();
	for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		unsigned int n = reaim_job_loads(&wf, jobs[i], load);

		/* each test's share rounds up by less than one job */
		if (n < 1 || n > jobs[i] + reaim_nr_jobs)
			abort();
	}
	free(load);
	reaim_workfile_free(&wf);
	free(text);
	return 0;
}
