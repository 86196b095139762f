/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --plot DIR: pictures of a run. While the run goes, a sampling event
 * records each CPU's busy time and nr_running, and the wakeup path reports
 * every wakeup latency; at the end the data files, a gnuplot script and
 * (if gnuplot is installed) PNG and SVG renderings go to DIR.
 * docs/observability.md.
 */
#ifndef SCHEDLAB_REPORT_PLOT_H
#define SCHEDLAB_REPORT_PLOT_H

#include <stddef.h>

/*
 * Start recording (after the machine is set up); @title, "MACHINE: COMMAND",
 * goes on every picture. 0, or -1 with a message.
 */
int plot_start(const char *dir, const char *title, char *err, size_t errlen);
/*
 * Stop recording and write DIR's files, as temporaries until
 * outfile_commit() (report/outfile.h); then plot_dir_render(DIR, "plots.gp")
 * renders them. 0 if everything was written, -1 if writing failed.
 */
int plot_finish(void);

#endif
