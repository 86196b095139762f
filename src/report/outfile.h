/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output files that appear only complete. Every output of a run (--json,
 * --schedstat, --trace, the --plot files) is written to a temporary
 * ".NAME.XXXXXX" in its own directory; outfile_commit() renames them all
 * into place once the run has succeeded, outfile_discard() removes them
 * otherwise. Until the commit nothing existing is touched, so a failed or
 * interrupted run leaves neither a partial file nor a truncated old one.
 *
 * The path "-", and a path that is standard output's file (/dev/stdout,
 * /proc/self/fd/1, the file stdout is redirected to: same device and
 * inode), is written to standard output by the commit, whole, after
 * everything printed there.
 * Another path that names something other than a regular file (a symbolic
 * link, a device, a FIFO) is written directly, as fopen() would: a rename
 * would replace the link or the device.
 * docs/reliability.md, "Outputs and signals".
 */
#ifndef SCHEDLAB_REPORT_OUTFILE_H
#define SCHEDLAB_REPORT_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Open a temporary for @path; NULL with errno set if it cannot be created,
 * EEXIST if an output already open names the same file.
 */
FILE *outfile_open(const char *path);
/*
 * The same without the check against the outputs already open (a stat()
 * of each): for many outputs whose paths the caller has kept apart (rt-app's
 * log files, one per thread).
 */
FILE *outfile_open_unchecked(const char *path);
/*
 * Finish writing @f (from outfile_open): flush and close it. 0, or -1 if any
 * write to it failed. The file stays a temporary until outfile_commit().
 */
int outfile_close(FILE *f);
/*
 * Rename every temporary into place, closing any still open; before that,
 * copy the outputs bound for standard output there and flush it (the
 * caller flushed what it printed). 0, or -1 (one message on stderr naming
 * the file, or standard output) when a write or a rename failed; then
 * every temporary is removed.
 */
int outfile_commit(void);
/* mkdir(@dir, 0777), remembering to remove it again on a discard; 0 or -1 (errno) */
int outfile_mkdir(const char *dir);
/*
 * Close and remove every temporary, and the directories outfile_mkdir()
 * made (also run at exit, in the process that opened them).
 */
void outfile_discard(void);
/* true if @a and @b name the same file, existing or to be created */
bool outfile_same(const char *a, const char *b);
/*
 * Flush standard output: 0, or -1 with one message on stderr (once) if
 * anything written to it was lost (a full disk, a closed pipe).
 */
int outfile_check_stdout(void);

#endif
