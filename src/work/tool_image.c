// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark tools' images (work/tool_image.h), counted on Debian 12's
 * packages (linux-perf 6.1.187, rt-tests 2.4) in a KVM guest on
 * 2026-12-07: every minor fault of one group's 40 workers by
 *
 *   perf record -e minor-faults -c 1 -g -- perf bench sched messaging -p -g 1 -l 1
 *   perf record -e minor-faults -c 1 -g -- hackbench -g 1 -l 1
 *
 * a worker's faults split at its first sample in exit() or
 * __run_exit_handlers(), less the 7 every forked child takes returning
 * from fork() (schedule_tail()'s two put_user()s, _Fork, __libc_fork's
 * four writes, which calibrate's exit probe takes too); and VmRSS of a
 * running worker in /proc/PID/status. docs/fidelity.md ("The eighth
 * measurement") has the counts by worker.
 */
#include "work/tool_image.h"

/*
 * perf's workers fault 155-157 times: 31-33 before exit() (the lazy
 * binding of write() among them, in the timed part for no worker: they
 * block in ready() first) and 124 in exit(), the destructors of perf's 30
 * shared libraries; a worker maps 3,596 kB (2,460 anonymous)
 */
const struct tool_image tool_image_perf = {
	.start_faults = 25,
	.exit_faults = 124,
	.pages = 899,
};

/* rt-tests' workers: 26 faults, 14 before exit() and 12 in it; 312 kB resident */
const struct tool_image tool_image_hackbench = {
	.start_faults = 7,
	.exit_faults = 12,
	.pages = 78,
};
