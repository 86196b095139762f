/* SPDX-License-Identifier: GPL-2.0-only */
/* What each benchmark prints, in the real tool's format. */
#ifndef SCHEDLAB_REPORT_BENCH_OUTPUT_H
#define SCHEDLAB_REPORT_BENCH_OUTPUT_H

#include "work/bench.h"
#include <stdio.h>

/* Lines the tool prints before it runs (hackbench prints its setup first). */
void bench_print_header(const struct bench *b, FILE *out);
/* The result lines. */
void bench_print_result(const struct bench *b, FILE *out);

#endif
