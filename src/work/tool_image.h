/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a benchmark tool's forked child costs beyond fork() and the exit of
 * an empty process: the copy-on-write and mapping faults its own code
 * takes, and the pages its exit tears down. A property of the tool's
 * binary (its libraries, their destructors, its heap), counted on the real
 * tool; each fault costs page_fault and each page exit_page from the cost
 * model, so a calibrated host prices them at its own figures.
 */
#ifndef SCHEDLAB_WORK_TOOL_IMAGE_H
#define SCHEDLAB_WORK_TOOL_IMAGE_H

#include "sim/types.h"

struct tool_image {
	/*
	 * minor faults a forked child takes in the tool's code before it
	 * first blocks, beyond those of fork()'s return (which the exit cost
	 * holds: calibrate's child takes them too)
	 */
	u32 start_faults;
	/* in exit(): atexit handlers, the libraries' destructors (_dl_fini), stdio */
	u32 exit_faults;
	/* the child's resident pages (VmRSS), which its exit_mmap() tears down */
	u32 pages;
};

/* perf bench sched messaging's process-mode workers (perf 6.1, Debian 12) */
extern const struct tool_image tool_image_perf;
/* rt-tests hackbench's process-mode workers (rt-tests 2.4, Debian 12) */
extern const struct tool_image tool_image_hackbench;

#endif
