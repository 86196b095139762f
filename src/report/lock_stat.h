/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lock-contention view: every sleeping lock's acquisitions, contended
 * acquisitions, spin and sleep time (kernel/locking.h), as `perf lock
 * contention` prints them (--lock-stat) and in the run JSON ("locks").
 */
#ifndef SCHEDLAB_REPORT_LOCK_STAT_H
#define SCHEDLAB_REPORT_LOCK_STAT_H

#include "report/json.h"

#include <stdbool.h>
#include <stdio.h>

/* any mutex or rw_semaphore was initialised in this run */
bool lock_stat_any(void);
/* the perf lock contention table, most contended first; a line when there are none */
void lock_stat_print(FILE *out);
/* "locks": [ {name, type, acquisitions, contended, spin_ns, sleep_ns, wait_ns, max_wait_ns, handoffs} ] */
void lock_stat_json(struct json_writer *w);

#endif
