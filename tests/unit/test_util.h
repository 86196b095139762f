/* SPDX-License-Identifier: GPL-2.0-only */
/* Common includes for cmocka unit tests. */
#ifndef SCHEDLAB_TEST_UTIL_H
#define SCHEDLAB_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#endif
