/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --schedstat FILE: the run's scheduler statistics as /proc/schedstat
 * version 17 (v6.18) shows them. docs/observability.md.
 */
#ifndef SCHEDLAB_REPORT_SCHEDSTAT_H
#define SCHEDLAB_REPORT_SCHEDSTAT_H

#include <stdio.h>

#define SCHEDSTAT_VERSION 17

/* Write /proc/schedstat for the current machine; 0, or -1 if writing failed. */
int write_schedstat(FILE *out);

#endif
