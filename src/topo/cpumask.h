/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpumasks: bitmaps sized for the machine being simulated (up to NR_CPUS).
 *
 * As with the kernel's CONFIG_CPUMASK_OFFSTACK, a struct cpumask is only
 * allocated as large as nr_cpu_ids needs, so operations touch
 * BITS_TO_LONGS(nr_cpu_ids) words and never sizeof(struct cpumask).
 * Never declare a struct cpumask on the stack or copy one by value: use
 * alloc_cpumask() / cpumask_copy().
 */
#ifndef SCHEDLAB_TOPO_CPUMASK_H
#define SCHEDLAB_TOPO_CPUMASK_H

#include "sim/types.h"

#define NR_CPUS 8192

struct cpumask {
	unsigned long bits[NR_CPUS / BITS_PER_LONG];
};

/* Number of CPUs of the machine currently set up; see cpumask_setup(). */
extern unsigned int nr_cpu_ids;
extern unsigned int nr_cpumask_longs;

/* Set the mask width for a machine of @nr CPUs (1..NR_CPUS). */
void cpumask_setup(unsigned int nr);

struct cpumask *alloc_cpumask(void); /* zeroed */
void free_cpumask(struct cpumask *m);

/*
 * The kernel's cpumask_of(): a read-only mask holding only @cpu, shared by
 * everyone who needs one (a bottom-level sched group, a per-CPU kthread's
 * affinity), so that such masks cost nothing per CPU. Never write to it.
 */
const struct cpumask *cpumask_of(unsigned int cpu);

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	m->bits[cpu / BITS_PER_LONG] |= 1UL << (cpu % BITS_PER_LONG);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	m->bits[cpu / BITS_PER_LONG] &= ~(1UL << (cpu % BITS_PER_LONG));
}

static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return (m->bits[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG)) & 1;
}

void cpumask_clear(struct cpumask *m);
void cpumask_setall(struct cpumask *m); /* CPUs 0..nr_cpu_ids-1 */
void cpumask_copy(struct cpumask *dst, const struct cpumask *src);
void cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
void cpumask_andnot(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
bool cpumask_equal(const struct cpumask *a, const struct cpumask *b);
bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b);
bool cpumask_subset(const struct cpumask *a, const struct cpumask *b);
bool cpumask_empty(const struct cpumask *m);
unsigned int cpumask_weight(const struct cpumask *m);
unsigned int cpumask_weight_and(const struct cpumask *a, const struct cpumask *b);

/* First set bit >= @n, or nr_cpu_ids if none. */
unsigned int cpumask_next_from(const struct cpumask *m, unsigned int n);
static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return cpumask_next_from(m, 0);
}
/* First CPU set in both masks at or after @n, or nr_cpu_ids. */
unsigned int cpumask_next_and_from(const struct cpumask *a, const struct cpumask *b,
				   unsigned int n);
static inline unsigned int cpumask_first_and(const struct cpumask *a, const struct cpumask *b)
{
	return cpumask_next_and_from(a, b, 0);
}
/* First CPU set in @a and not in @b at or after @n, or nr_cpu_ids. */
unsigned int cpumask_next_andnot_from(const struct cpumask *a, const struct cpumask *b,
				      unsigned int n);

#define for_each_cpu(cpu, mask)                                        \
	for ((cpu) = cpumask_next_from((mask), 0); (cpu) < nr_cpu_ids; \
	     (cpu) = cpumask_next_from((mask), (cpu) + 1))

#define for_each_cpu_and(cpu, a, b)                                          \
	for ((cpu) = cpumask_next_and_from((a), (b), 0); (cpu) < nr_cpu_ids; \
	     (cpu) = cpumask_next_and_from((a), (b), (cpu) + 1))

#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)

/*
 * cpumask_next_and_wrap() (include/linux/cpumask.h): the first CPU in both
 * masks after @n (-1: from 0), wrapping round to 0 and up to @n itself;
 * nr_cpu_ids if they have none in common.
 */
unsigned int cpumask_next_and_wrap(int n, const struct cpumask *a, const struct cpumask *b);
static inline unsigned int cpumask_next_wrap(int n, const struct cpumask *m)
{
	return cpumask_next_and_wrap(n, m, m);
}

/*
 * for_each_cpu_wrap(): the CPUs of @mask from @start up, then from 0 up to
 * @start. The mask is read as the walk goes, so CPUs cleared from it during
 * the walk are skipped (select_idle_core() relies on this).
 */
unsigned int cpumask_next_wrap_from(const struct cpumask *mask, unsigned int prev,
				    unsigned int start, bool first);
#define for_each_cpu_wrap(cpu, mask, start)                                                \
	for ((cpu) = cpumask_next_wrap_from((mask), 0, (start), true); (cpu) < nr_cpu_ids; \
	     (cpu) = cpumask_next_wrap_from((mask), (cpu), (start), false))

/*
 * Kernel-style list formatting and parsing: "0-3,8,10-11".
 * cpumask_print_list() writes at most @len bytes (always NUL-terminated) and
 * returns the length the full string needs (like snprintf).
 * cpulist_parse() returns 0, or -1 with a message in @err (size @errlen) when
 * the list is malformed or names a CPU >= nr_cpu_ids.
 */
int cpumask_print_list(char *buf, size_t len, const struct cpumask *m);
int cpulist_parse(const char *s, struct cpumask *m, char *err, size_t errlen);

#endif
