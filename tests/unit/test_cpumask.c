// SPDX-License-Identifier: GPL-2.0-only
/* cpumask operations, list printing and parsing. */
#include "test_util.h"

#include "topo/cpumask.h"

#include <stdlib.h>

static char *list_of(const struct cpumask *m)
{
	static char buf[65536];

	cpumask_print_list(buf, sizeof(buf), m);
	return buf;
}

static void set_list(struct cpumask *m, const char *s)
{
	char err[256];

	assert_int_equal(cpulist_parse(s, m, err, sizeof(err)), 0);
}

static void test_setup_sizes(void **state)
{
	(void)state;
	cpumask_setup(1);
	assert_int_equal(nr_cpu_ids, 1);
	assert_int_equal(nr_cpumask_longs, 1);
	cpumask_setup(64);
	assert_int_equal(nr_cpumask_longs, 1);
	cpumask_setup(65);
	assert_int_equal(nr_cpumask_longs, 2);
	cpumask_setup(8192);
	assert_int_equal(nr_cpumask_longs, 128);
	cpumask_setup(0); /* clamped */
	assert_int_equal(nr_cpu_ids, 1);
	cpumask_setup(100000);
	assert_int_equal(nr_cpu_ids, NR_CPUS);
}

static void test_set_clear_boundaries(void **state)
{
	static const unsigned int cpus[] = { 0, 1, 62, 63, 64, 65, 127, 128, 4095, 8190, 8191 };
	struct cpumask *m;

	(void)state;
	cpumask_setup(8192);
	m = alloc_cpumask();
	assert_true(cpumask_empty(m));
	for (unsigned int i = 0; i < ARRAY_SIZE(cpus); i++) {
		assert_false(cpumask_test_cpu(cpus[i], m));
		cpumask_set_cpu(cpus[i], m);
		assert_true(cpumask_test_cpu(cpus[i], m));
	}
	assert_int_equal(cpumask_weight(m), ARRAY_SIZE(cpus));
	assert_string_equal(list_of(m), "0-1,62-65,127-128,4095,8190-8191");
	cpumask_clear_cpu(64, m);
	assert_false(cpumask_test_cpu(64, m));
	assert_true(cpumask_test_cpu(63, m));
	assert_true(cpumask_test_cpu(65, m));
	assert_int_equal(cpumask_weight(m), ARRAY_SIZE(cpus) - 1);
	cpumask_clear(m);
	assert_true(cpumask_empty(m));
	assert_int_equal(cpumask_first(m), 8192);
	free_cpumask(m);
}

static void test_setall_stays_inside(void **state)
{
	static const unsigned int sizes[] = { 1, 63, 64, 65, 100, 128, 129, 8191, 8192 };

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned int n = sizes[i];
		struct cpumask *m;

		cpumask_setup(n);
		m = alloc_cpumask();
		cpumask_setall(m);
		assert_int_equal(cpumask_weight(m), n);
		/* no bit at or above nr_cpu_ids in the last word */
		if (n % BITS_PER_LONG)
			assert_int_equal(m->bits[nr_cpumask_longs - 1] >> (n % BITS_PER_LONG), 0);
		assert_int_equal(cpumask_first(m), 0);
		assert_int_equal(cpumask_next_from(m, n - 1), n - 1);
		assert_int_equal(cpumask_next_from(m, n), n);
		free_cpumask(m);
	}
}

static void test_binary_ops(void **state)
{
	struct cpumask *a, *b, *d;

	(void)state;
	cpumask_setup(130);
	a = alloc_cpumask();
	b = alloc_cpumask();
	d = alloc_cpumask();
	set_list(a, "0-3,63-65,129");
	set_list(b, "2-5,64,100");

	cpumask_and(d, a, b);
	assert_string_equal(list_of(d), "2-3,64");
	assert_int_equal(cpumask_weight_and(a, b), 3);
	cpumask_or(d, a, b);
	assert_string_equal(list_of(d), "0-5,63-65,100,129");
	cpumask_andnot(d, a, b);
	assert_string_equal(list_of(d), "0-1,63,65,129");
	assert_true(cpumask_intersects(a, b));
	assert_false(cpumask_subset(a, b));

	cpumask_copy(d, a);
	assert_true(cpumask_equal(d, a));
	assert_true(cpumask_subset(d, a));
	cpumask_clear_cpu(129, d);
	assert_false(cpumask_equal(d, a));
	assert_true(cpumask_subset(d, a));
	assert_false(cpumask_subset(a, d));

	set_list(b, "6-62");
	assert_false(cpumask_intersects(a, b));
	cpumask_and(d, a, b);
	assert_true(cpumask_empty(d));
	assert_int_equal(cpumask_weight_and(a, b), 0);

	/* in place */
	cpumask_or(a, a, b);
	assert_string_equal(list_of(a), "0-3,6-65,129");
	cpumask_andnot(a, a, b);
	assert_string_equal(list_of(a), "0-3,63-65,129");
	free_cpumask(a);
	free_cpumask(b);
	free_cpumask(d);
}

static void test_next_and_for_each(void **state)
{
	struct cpumask *a, *b;
	unsigned int cpu, seen[16], n = 0;

	(void)state;
	cpumask_setup(8192);
	a = alloc_cpumask();
	b = alloc_cpumask();
	set_list(a, "0,63-65,200,8191");
	assert_int_equal(cpumask_next_from(a, 0), 0);
	assert_int_equal(cpumask_next_from(a, 1), 63);
	assert_int_equal(cpumask_next_from(a, 64), 64);
	assert_int_equal(cpumask_next_from(a, 66), 200);
	assert_int_equal(cpumask_next_from(a, 201), 8191);
	assert_int_equal(cpumask_next_from(a, 8191), 8191);
	assert_int_equal(cpumask_next_from(a, 8192), 8192);
	assert_int_equal(cpumask_next_from(a, 100000), 8192);

	for_each_cpu(cpu, a)
		seen[n++] = cpu;
	assert_int_equal(n, 6);
	assert_int_equal(seen[0], 0);
	assert_int_equal(seen[1], 63);
	assert_int_equal(seen[3], 65);
	assert_int_equal(seen[5], 8191);

	set_list(b, "1-64,8191");
	assert_int_equal(cpumask_first_and(a, b), 63);
	assert_int_equal(cpumask_next_and_from(a, b, 64), 64);
	assert_int_equal(cpumask_next_and_from(a, b, 65), 8191);
	n = 0;
	for_each_cpu_and(cpu, a, b)
		seen[n++] = cpu;
	assert_int_equal(n, 3);
	assert_int_equal(seen[0], 63);
	assert_int_equal(seen[1], 64);
	assert_int_equal(seen[2], 8191);

	/* a & ~b: 0, 65, 200 (63, 64 and 8191 are in b) */
	assert_int_equal(cpumask_next_andnot_from(a, b, 0), 0);
	assert_int_equal(cpumask_next_andnot_from(a, b, 1), 65);
	assert_int_equal(cpumask_next_andnot_from(a, b, 66), 200);
	assert_int_equal(cpumask_next_andnot_from(a, b, 201), 8192);

	cpumask_clear(b);
	assert_int_equal(cpumask_first_and(a, b), 8192);
	n = 0;
	for_each_cpu(cpu, b)
		n++;
	assert_int_equal(n, 0);
	free_cpumask(a);
	free_cpumask(b);
}

/* A partial last word: nothing beyond nr_cpu_ids is ever reported. */
static void test_next_small_machine(void **state)
{
	struct cpumask *a;
	unsigned int cpu, n = 0;

	(void)state;
	cpumask_setup(65);
	a = alloc_cpumask();
	cpumask_setall(a);
	for_each_cpu(cpu, a)
		n++;
	assert_int_equal(n, 65);
	assert_int_equal(cpumask_next_from(a, 64), 64);
	assert_int_equal(cpumask_next_from(a, 65), 65);
	free_cpumask(a);
}

/*
 * cpumask_next_and_wrap() (include/linux/cpumask.h, find_next_and_bit_wrap()):
 * after @n, wrapping round to 0 and up to @n itself; -1 starts at 0.
 */
static void test_next_and_wrap(void **state)
{
	struct cpumask *a, *b;

	(void)state;
	cpumask_setup(8);
	a = alloc_cpumask();
	b = alloc_cpumask();
	cpumask_setall(a);
	cpumask_set_cpu(2, b);
	cpumask_set_cpu(5, b);
	assert_int_equal(cpumask_next_and_wrap(-1, a, b), 2);
	assert_int_equal(cpumask_next_and_wrap(0, a, b), 2);
	assert_int_equal(cpumask_next_and_wrap(2, a, b), 5);
	assert_int_equal(cpumask_next_and_wrap(5, a, b), 2);
	assert_int_equal(cpumask_next_and_wrap(7, a, b), 2);
	cpumask_clear_cpu(2, b);
	/* the only one: found again after itself */
	assert_int_equal(cpumask_next_and_wrap(5, a, b), 5);
	assert_int_equal(cpumask_next_wrap(6, b), 5);
	cpumask_clear_cpu(5, a);
	assert_int_equal(cpumask_next_and_wrap(3, a, b), 8);
	free_cpumask(a);
	free_cpumask(b);
}

static void test_print_list(void **state)
{
	struct cpumask *m;
	char small[6];
	int n;

	(void)state;
	cpumask_setup(8192);
	m = alloc_cpumask();
	assert_string_equal(list_of(m), "");
	cpumask_set_cpu(0, m);
	assert_string_equal(list_of(m), "0");
	set_list(m, "0-3,8,10-11");
	assert_string_equal(list_of(m), "0-3,8,10-11");
	set_list(m, "5,6,7,9");
	assert_string_equal(list_of(m), "5-7,9");
	cpumask_setall(m);
	assert_string_equal(list_of(m), "0-8191");

	/* snprintf semantics: full length returned, output truncated and terminated */
	set_list(m, "0-3,8,10-11");
	n = cpumask_print_list(small, sizeof(small), m);
	assert_int_equal(n, 11);
	assert_string_equal(small, "0-3,8");
	n = cpumask_print_list(NULL, 0, m);
	assert_int_equal(n, 11);
	free_cpumask(m);
}

static void test_parse_round_trip(void **state)
{
	static const char *const lists[] = {
		"", "0", "8191", "0-8191", "0-25,52-77", "0,2,4,6", "1-3,63-65,127-129,4000",
	};
	struct cpumask *m;

	(void)state;
	cpumask_setup(8192);
	m = alloc_cpumask();
	for (unsigned int i = 0; i < ARRAY_SIZE(lists); i++) {
		set_list(m, lists[i]);
		assert_string_equal(list_of(m), lists[i]);
	}
	/* sysfs style: trailing newline, and non-canonical input */
	set_list(m, "0-3\n");
	assert_string_equal(list_of(m), "0-3");
	set_list(m, "3,1,2,2-2,0");
	assert_string_equal(list_of(m), "0-3");
	free_cpumask(m);
}

static void expect_parse_error(struct cpumask *m, const char *s, const char *needle)
{
	char err[256] = "";

	assert_int_equal(cpulist_parse(s, m, err, sizeof(err)), -1);
	if (!strstr(err, needle))
		fail_msg("parsing '%s': message '%s' does not mention '%s'", s, err, needle);
}

static void test_parse_errors(void **state)
{
	struct cpumask *m;

	(void)state;
	cpumask_setup(16);
	m = alloc_cpumask();
	expect_parse_error(m, "abc", "expected a CPU number");
	expect_parse_error(m, "3-1", "reversed range 3-1");
	expect_parse_error(m, "16", "CPU 16 does not exist");
	expect_parse_error(m, "0-16", "CPU 16 does not exist");
	expect_parse_error(m, "1,", "trailing ','");
	expect_parse_error(m, ",1", "expected a CPU number");
	expect_parse_error(m, "1,,2", "expected a CPU number");
	expect_parse_error(m, "1-", "after '-'");
	expect_parse_error(m, "-1", "expected a CPU number");
	expect_parse_error(m, "1 2", "unexpected ' '");
	expect_parse_error(m, "1;2", "unexpected ';'");
	expect_parse_error(m, "99999999999999", "expected a CPU number");
	free_cpumask(m);
}

/*
 * Every operation against a naive reference (one bool per CPU), on random
 * masks of several widths: full words, a partial last word, one word.
 */
struct ref {
	bool b[NR_CPUS];
};

static unsigned long long lcg_state;

static unsigned int lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(lcg_state >> 33);
}

/* random bits with density @pct percent, into both the mask and the reference */
static void random_mask(struct cpumask *m, struct ref *r, unsigned int pct)
{
	cpumask_clear(m);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		r->b[cpu] = lcg() % 100 < pct;
		if (r->b[cpu])
			cpumask_set_cpu(cpu, m);
	}
}

static void assert_same(const struct cpumask *m, const struct ref *r)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpumask_test_cpu(cpu, m) != r->b[cpu])
			fail_msg("%u CPUs: bit %u is %d, the reference has %d", nr_cpu_ids, cpu,
				 cpumask_test_cpu(cpu, m), r->b[cpu]);
}

/* the first CPU >= @n with @want(a, b) in the reference, or nr_cpu_ids */
static unsigned int ref_next(const struct ref *a, const struct ref *b, int op, unsigned int n)
{
	for (unsigned int cpu = n; cpu < nr_cpu_ids; cpu++) {
		bool in = op == 0 ? a->b[cpu] :
			  op == 1 ? a->b[cpu] && b->b[cpu] :
				    a->b[cpu] && !b->b[cpu];

		if (in)
			return cpu;
	}
	return nr_cpu_ids;
}

static void test_against_reference(void **state)
{
	static const unsigned int sizes[] = { 1, 7, 64, 65, 130, 1000, 1024, 8191, 8192 };
	static const unsigned int density[] = { 0, 1, 10, 50, 90, 100 };
	static struct ref ra, rb, rd;
	struct cpumask *a, *b, *d;

	(void)state;
	lcg_state = 42;
	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		cpumask_setup(sizes[s]);
		a = alloc_cpumask();
		b = alloc_cpumask();
		d = alloc_cpumask();
		for (unsigned int round = 0; round < 12; round++) {
			unsigned int wa = 0, wab = 0, n, cpu;
			bool eq = true, inter = false, sub = true, empty = true;

			random_mask(a, &ra, density[round % ARRAY_SIZE(density)]);
			random_mask(b, &rb, density[(round / 2) % ARRAY_SIZE(density)]);
			if (round == 11) {
				/* equal masks */
				cpumask_copy(b, a);
				rb = ra;
			}
			for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
				wa += ra.b[cpu];
				wab += ra.b[cpu] && rb.b[cpu];
				eq &= ra.b[cpu] == rb.b[cpu];
				inter |= ra.b[cpu] && rb.b[cpu];
				sub &= !ra.b[cpu] || rb.b[cpu];
				empty &= !ra.b[cpu];
			}
			assert_int_equal(cpumask_weight(a), wa);
			assert_int_equal(cpumask_weight_and(a, b), wab);
			assert_int_equal(cpumask_equal(a, b), eq);
			assert_int_equal(cpumask_intersects(a, b), inter);
			assert_int_equal(cpumask_subset(a, b), sub);
			assert_int_equal(cpumask_empty(a), empty);

			cpumask_and(d, a, b);
			for (cpu = 0; cpu < nr_cpu_ids; cpu++)
				rd.b[cpu] = ra.b[cpu] && rb.b[cpu];
			assert_same(d, &rd);
			cpumask_or(d, a, b);
			for (cpu = 0; cpu < nr_cpu_ids; cpu++)
				rd.b[cpu] = ra.b[cpu] || rb.b[cpu];
			assert_same(d, &rd);
			cpumask_andnot(d, a, b);
			for (cpu = 0; cpu < nr_cpu_ids; cpu++)
				rd.b[cpu] = ra.b[cpu] && !rb.b[cpu];
			assert_same(d, &rd);

			/* the searches from every position, and the walks */
			for (n = 0; n <= nr_cpu_ids; n += 1 + n / 61) {
				assert_int_equal(cpumask_next_from(a, n), ref_next(&ra, &rb, 0, n));
				assert_int_equal(cpumask_next_and_from(a, b, n),
						 ref_next(&ra, &rb, 1, n));
				assert_int_equal(cpumask_next_andnot_from(a, b, n),
						 ref_next(&ra, &rb, 2, n));
			}
			n = 0;
			for_each_cpu_and(cpu, a, b) {
				assert_true(ra.b[cpu] && rb.b[cpu]);
				n++;
			}
			assert_int_equal(n, wab);
			/* a wrapped walk from anywhere visits each CPU of the mask once */
			{
				unsigned int start = lcg() % nr_cpu_ids, prev = 0, laps = 0;

				n = 0;
				for_each_cpu_wrap(cpu, a, start) {
					assert_true(ra.b[cpu]);
					if (n && cpu < prev)
						laps++;
					prev = cpu;
					n++;
				}
				assert_int_equal(n, wa);
				assert_true(laps <= 1);
			}
		}
		free_cpumask(a);
		free_cpumask(b);
		free_cpumask(d);
	}
}

/* cpumask_of(): one CPU, for every CPU, at any machine width */
static void test_cpumask_of(void **state)
{
	static const unsigned int sizes[] = { 1, 64, 65, 1024, 8192 };

	(void)state;
	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		cpumask_setup(sizes[s]);
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
			const struct cpumask *m = cpumask_of(cpu);

			assert_int_equal(cpumask_weight(m), 1);
			assert_int_equal(cpumask_first(m), cpu);
			assert_true(cpumask_test_cpu(cpu, m));
			assert_int_equal(cpumask_next_from(m, cpu + 1), nr_cpu_ids);
			assert_true(cpumask_subset(m, cpumask_of(cpu)));
			if (cpu)
				assert_false(cpumask_intersects(m, cpumask_of(cpu - 1)));
		}
	}
	/* the widest machine: the mask of the last CPU ends where NR_CPUS ends */
	cpumask_setup(NR_CPUS);
	assert_string_equal(list_of(cpumask_of(NR_CPUS - 1)), "8191");
	assert_string_equal(list_of(cpumask_of(0)), "0");
	assert_string_equal(list_of(cpumask_of(4160)), "4160");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_sizes),
		cmocka_unit_test(test_next_and_wrap),
		cmocka_unit_test(test_set_clear_boundaries),
		cmocka_unit_test(test_setall_stays_inside),
		cmocka_unit_test(test_binary_ops),
		cmocka_unit_test(test_next_and_for_each),
		cmocka_unit_test(test_next_small_machine),
		cmocka_unit_test(test_print_list),
		cmocka_unit_test(test_parse_round_trip),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_against_reference),
		cmocka_unit_test(test_cpumask_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
