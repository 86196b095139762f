/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SCHEDLAB_REPORT_FUNCLAT_PRINT_H
#define SCHEDLAB_REPORT_FUNCLAT_PRINT_H

#include <stdio.h>

/* Each enabled function's histogram in bcc funclatency's format. */
void funclat_print(FILE *out);

#endif
