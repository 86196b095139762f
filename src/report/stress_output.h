/* SPDX-License-Identifier: GPL-2.0-only */
/* What stress-ng prints, before its run and after it (report/stress_output.c). */
#ifndef SCHEDLAB_REPORT_STRESS_OUTPUT_H
#define SCHEDLAB_REPORT_STRESS_OUTPUT_H

#include "work/bench.h"

#include <stdio.h>

void stress_print_header(const struct bench *b, FILE *out);
void stress_print_result(const struct bench *b, FILE *out);

#endif
