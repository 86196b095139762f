/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SCHEDLAB_REPORT_FUNCLAT_PRINT_H
#define SCHEDLAB_REPORT_FUNCLAT_PRINT_H

#include "sim/types.h"

#include <stdio.h>

/* What bcc funclatency prints for the traced functions (--funclatency). */
void funclat_print(FILE *out);
/* bcc's print_log2_hist() of @hist (FUNCLAT_BUCKETS buckets) under the column @unit */
void funclat_print_log2_hist(FILE *out, const u64 *hist, const char *unit);

#endif
