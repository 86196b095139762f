/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Basic types and helpers shared by every layer, named the way kernel
 * developers expect (u64, s64, container_of, min/max, likely).
 */
#ifndef SCHEDLAB_SIM_TYPES_H
#define SCHEDLAB_SIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL
#define USEC_PER_SEC 1000000ULL

#define BITS_PER_LONG 64
#define BIT(n) (1UL << (n))
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#define min(a, b)                      \
	({                             \
		__typeof__(a) _a = (a); \
		__typeof__(b) _b = (b); \
		_a < _b ? _a : _b;     \
	})
#define max(a, b)                      \
	({                             \
		__typeof__(a) _a = (a); \
		__typeof__(b) _b = (b); \
		_a > _b ? _a : _b;     \
	})
#define clamp(v, lo, hi) min(max(v, lo), hi)

/* floor(log2(v)) for v > 0, as the kernel's ilog2() */
static inline int ilog2(unsigned long v)
{
	return (int)(sizeof(v) * 8) - 1 - __builtin_clzl(v);
}

#endif
