// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpumasks sized for the simulated machine.
 *
 * Like the kernel with CONFIG_CPUMASK_OFFSTACK, a mask is allocated with
 * only BITS_TO_LONGS(nr_cpu_ids) words, and every operation touches only
 * those words. Bits at or above nr_cpu_ids are kept clear by every
 * operation that could set them (cpumask_setall), so the word-wise
 * operations never have to mask the last word.
 */
#include "topo/cpumask.h"

#include "sim/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Until cpumask_setup() is called, masks are as wide as NR_CPUS: wasteful,
 * but nothing allocated early can be too small.
 */
unsigned int nr_cpu_ids = NR_CPUS;
unsigned int nr_cpumask_longs = NR_CPUS / BITS_PER_LONG;

void cpumask_setup(unsigned int nr)
{
	if (nr < 1)
		nr = 1;
	if (nr > NR_CPUS)
		nr = NR_CPUS;
	nr_cpu_ids = nr;
	nr_cpumask_longs = BITS_TO_LONGS(nr);
}

struct cpumask *alloc_cpumask(void)
{
	return xcalloc(nr_cpumask_longs, sizeof(unsigned long));
}

void free_cpumask(struct cpumask *m)
{
	free(m);
}

/*
 * cpumask_of() as the kernel builds it (cpu_bit_bitmap in kernel/cpu.c):
 * row r (1..64) of this table has bit r - 1 set in its first word and
 * zeros after it; row 0 is all zeros. The mask of CPU c starts c / 64
 * words before row 1 + c % 64, so its word c / 64 is that row's first
 * word and every other word it has is a zero of that row or of the one
 * before. 65 rows of NR_CPUS bits stand for all NR_CPUS single-CPU masks.
 */
#define CPUMASK_LONGS (NR_CPUS / BITS_PER_LONG)
#define ROW(r) [(1 + (r)) * CPUMASK_LONGS] = 1UL << (r)
#define ROW4(r) ROW(r), ROW((r) + 1), ROW((r) + 2), ROW((r) + 3)
#define ROW16(r) ROW4(r), ROW4((r) + 4), ROW4((r) + 8), ROW4((r) + 12)

static const unsigned long cpu_bit_bitmap[(BITS_PER_LONG + 1) * CPUMASK_LONGS] = {
	ROW16(0),
	ROW16(16),
	ROW16(32),
	ROW16(48),
};

const struct cpumask *cpumask_of(unsigned int cpu)
{
	const unsigned long *p = &cpu_bit_bitmap[(1 + cpu % BITS_PER_LONG) * CPUMASK_LONGS];

	return (const struct cpumask *)(p - cpu / BITS_PER_LONG);
}

void cpumask_clear(struct cpumask *m)
{
	memset(m->bits, 0, nr_cpumask_longs * sizeof(unsigned long));
}

void cpumask_setall(struct cpumask *m)
{
	unsigned int last = nr_cpumask_longs - 1;
	unsigned int tail = nr_cpu_ids % BITS_PER_LONG;

	memset(m->bits, 0xff, nr_cpumask_longs * sizeof(unsigned long));
	if (tail)
		m->bits[last] = (1UL << tail) - 1;
}

void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	if (dst != src)
		memcpy(dst->bits, src->bits, nr_cpumask_longs * sizeof(unsigned long));
}

void cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		dst->bits[i] = a->bits[i] & b->bits[i];
}

void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

void cpumask_andnot(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		dst->bits[i] = a->bits[i] & ~b->bits[i];
}

bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		if (a->bits[i] != b->bits[i])
			return false;
	return true;
}

bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		if (a->bits[i] & ~b->bits[i])
			return false;
	return true;
}

bool cpumask_empty(const struct cpumask *m)
{
	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		if (m->bits[i])
			return false;
	return true;
}

/*
 * Without -mpopcnt, gcc turns __builtin_popcountl() into a call to libgcc's
 * table-driven __popcountdi2. On x86-64 these two get a popcnt clone as well,
 * picked once at load time (an ifunc), as the kernel patches hweight64()
 * to the instruction at boot (ALTERNATIVE with X86_FEATURE_POPCNT).
 */
/*
 * gcc only: clang 14 emits the ifunc of a target_clones function only in a
 * file that calls it, so the fuzz build (clang) failed to link every caller
 * elsewhere; clang builds get the plain builtin.
 */
#if defined(__x86_64__) && !defined(__clang__) && __GNUC__ >= 6
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define POPCNT_CLONES
#endif

POPCNT_CLONES unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int w = 0;

	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		w += (unsigned int)__builtin_popcountl(m->bits[i]);
	return w;
}

POPCNT_CLONES unsigned int cpumask_weight_and(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int w = 0;

	for (unsigned int i = 0; i < nr_cpumask_longs; i++)
		w += (unsigned int)__builtin_popcountl(a->bits[i] & b->bits[i]);
	return w;
}

/* which bits the "next" searches look at: @a, @a & @b, or @a & ~@b */
enum next_op { NEXT_ALL, NEXT_AND, NEXT_ANDNOT };

static inline unsigned long next_word(const struct cpumask *a, const struct cpumask *b,
				      enum next_op op, unsigned int idx)
{
	switch (op) {
	case NEXT_AND:
		return a->bits[idx] & b->bits[idx];
	case NEXT_ANDNOT:
		return a->bits[idx] & ~b->bits[idx];
	default:
		return a->bits[idx];
	}
}

/* the one word-at-a-time search; each caller's @op is a constant */
static inline unsigned int find_next(const struct cpumask *a, const struct cpumask *b,
				     enum next_op op, unsigned int n)
{
	unsigned int idx;
	unsigned long word;

	if (unlikely(n >= nr_cpu_ids))
		return nr_cpu_ids;
	idx = n / BITS_PER_LONG;
	word = next_word(a, b, op, idx) & (~0UL << (n % BITS_PER_LONG));
	for (;;) {
		if (word) {
			unsigned int cpu = idx * BITS_PER_LONG + (unsigned int)__builtin_ctzl(word);

			return cpu < nr_cpu_ids ? cpu : nr_cpu_ids;
		}
		if (++idx >= nr_cpumask_longs)
			return nr_cpu_ids;
		word = next_word(a, b, op, idx);
	}
}

unsigned int cpumask_next_from(const struct cpumask *m, unsigned int n)
{
	return find_next(m, NULL, NEXT_ALL, n);
}

unsigned int cpumask_next_and_from(const struct cpumask *a, const struct cpumask *b, unsigned int n)
{
	return find_next(a, b, NEXT_AND, n);
}

unsigned int cpumask_next_andnot_from(const struct cpumask *a, const struct cpumask *b,
				      unsigned int n)
{
	return find_next(a, b, NEXT_ANDNOT, n);
}

unsigned int cpumask_next_and_wrap(int n, const struct cpumask *a, const struct cpumask *b)
{
	unsigned int start = (unsigned int)(n + 1), cpu;

	cpu = start < nr_cpu_ids ? cpumask_next_and_from(a, b, start) : nr_cpu_ids;
	if (cpu < nr_cpu_ids || start == 0)
		return cpu;
	/* wrapped: from 0 up to and including @n */
	cpu = cpumask_next_and_from(a, b, 0);
	return cpu < start ? cpu : nr_cpu_ids;
}

unsigned int cpumask_next_wrap_from(const struct cpumask *mask, unsigned int prev,
				    unsigned int start, bool first)
{
	unsigned int cpu;

	if (start >= nr_cpu_ids)
		start = 0;
	if (first) {
		cpu = cpumask_next_from(mask, start);
		if (cpu < nr_cpu_ids)
			return cpu;
		cpu = cpumask_next_from(mask, 0);
		return cpu < start ? cpu : nr_cpu_ids;
	}
	cpu = cpumask_next_from(mask, prev + 1);
	if (prev < start)
		/* second lap: stop before @start */
		return cpu < start ? cpu : nr_cpu_ids;
	if (cpu < nr_cpu_ids)
		return cpu;
	/* wrap around */
	cpu = cpumask_next_from(mask, 0);
	return cpu < start ? cpu : nr_cpu_ids;
}

/* Appends to a bounded buffer while counting the full length, like snprintf. */
struct list_buf {
	char *buf;
	size_t len;
	size_t pos;
};

static void list_buf_put(struct list_buf *lb, const char *s)
{
	for (; *s; s++, lb->pos++)
		if (lb->len && lb->pos < lb->len - 1)
			lb->buf[lb->pos] = *s;
}

int cpumask_print_list(char *buf, size_t len, const struct cpumask *m)
{
	struct list_buf lb = { buf, len, 0 };
	unsigned int first = cpumask_first(m);
	bool sep = false;
	char num[32];

	while (first < nr_cpu_ids) {
		unsigned int last = first;

		while (last + 1 < nr_cpu_ids && cpumask_test_cpu(last + 1, m))
			last++;
		if (sep)
			list_buf_put(&lb, ",");
		if (last == first)
			snprintf(num, sizeof(num), "%u", first);
		else
			snprintf(num, sizeof(num), "%u-%u", first, last);
		list_buf_put(&lb, num);
		sep = true;
		first = cpumask_next_from(m, last + 1);
	}
	if (len)
		buf[lb.pos < len ? lb.pos : len - 1] = '\0';
	return (int)lb.pos;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Parses a decimal CPU number at *p; -1 when there is no number or it is absurdly large. */
static long parse_cpu_number(const char **p)
{
	long v = 0;

	if (!is_digit(**p))
		return -1;
	while (is_digit(**p)) {
		v = v * 10 + (**p - '0');
		if (v > 1000000000L)
			return -1;
		(*p)++;
	}
	return v;
}

int cpulist_parse(const char *s, struct cpumask *m, char *err, size_t errlen)
{
	const char *p = s;
	const char *end = s + strlen(s);

	cpumask_clear(m);
	/* sysfs files end in a newline; tolerate surrounding whitespace */
	while (p < end && is_space(*p))
		p++;
	while (end > p && is_space(end[-1]))
		end--;
	if (p == end)
		return 0; /* an empty list is an empty mask, as in the kernel */

	for (;;) {
		const char *item = p;
		long lo, hi;

		lo = parse_cpu_number(&p);
		if (lo < 0) {
			snprintf(err, errlen, "cpu list '%s': expected a CPU number at '%.*s'", s,
				 (int)(end - item), item);
			return -1;
		}
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			hi = parse_cpu_number(&p);
			if (hi < 0) {
				snprintf(err, errlen,
					 "cpu list '%s': expected a CPU number after '-' in '%.*s'",
					 s, (int)(end - item), item);
				return -1;
			}
			if (hi < lo) {
				snprintf(err, errlen, "cpu list '%s': reversed range %ld-%ld", s,
					 lo, hi);
				return -1;
			}
		}
		if (hi >= (long)nr_cpu_ids) {
			snprintf(
				err, errlen,
				"cpu list '%s': CPU %ld does not exist (this machine has CPUs 0-%u)",
				s, hi, nr_cpu_ids - 1);
			return -1;
		}
		for (long cpu = lo; cpu <= hi; cpu++)
			cpumask_set_cpu((unsigned int)cpu, m);
		if (p == end)
			return 0;
		if (*p != ',') {
			snprintf(err, errlen,
				 "cpu list '%s': unexpected '%c' (lists look like 0-3,8,10-11)", s,
				 *p);
			return -1;
		}
		p++;
		if (p == end) {
			snprintf(err, errlen, "cpu list '%s': trailing ','", s);
			return -1;
		}
	}
}
