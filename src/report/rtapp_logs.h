/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rt-app's log files (global "logdir": LOGDIR/BASENAME-THREAD.log), outputs
 * of `run` like --json (report/outfile.h): checked before the run, written
 * to temporaries after it and put in place only with every other output.
 * docs/reliability.md, "Outputs and signals".
 */
#ifndef SCHEDLAB_REPORT_RTAPP_LOGS_H
#define SCHEDLAB_REPORT_RTAPP_LOGS_H

#include "work/bench.h"

#include <stddef.h>

/* another output of the run, to keep apart from the logs */
struct output_name {
	const char *opt; /* "--json" */
	const char *path; /* NULL: not given */
};

/*
 * Before the run of @b (the measured benchmark; nothing to do unless it is
 * rt-app with a logdir): a file can be created in the logdir; no log of a
 * thread started at the beginning is a directory or one of @others; none
 * of @others is named as a forked thread's log could be; a log that is a
 * symbolic link or a device is opened now (written through, as outfile.c
 * does). 0, or -1 with one line in @err (exit 2).
 */
int rtapp_logs_prepare(const struct bench *b, const struct output_name *others, int nr_others,
		       char *err, size_t errlen);
/*
 * After the run: each thread's log, as outputs put in place by
 * outfile_commit(). 0, or -1 with the message printed ("schedlab: writing
 * 'FILE' failed"; exit 1).
 */
int rtapp_logs_write(const struct bench *b);
/* Forget what rtapp_logs_prepare() opened (outfile_discard() closes the files). */
void rtapp_logs_reset(void);

#endif
