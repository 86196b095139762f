/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SCHEDLAB_REPORT_DOMAINS_PRINT_H
#define SCHEDLAB_REPORT_DOMAINS_PRINT_H

#include <stdio.h>

/*
 * The built sched domains (build_sched_domains()) in the layout of the
 * kernel's sched_domain_debug() (boot with sched_verbose), with one more
 * line per domain for its flags and tunables and one per CPU for the
 * per-CPU shortcuts, then the root domain's span. @cpu < 0: every CPU.
 */
void sched_domains_print(FILE *out, int cpu);

#endif
