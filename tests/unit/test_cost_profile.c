// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cost profiles (--costs FILE): written and read back to the same model,
 * unknown names and bad values refused with FILE:LINE, the header read.
 */
#include "test_util.h"

#include "topo/cost_profile.h"
#include "topo/machine_file.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char err[512];

/* every parameter set to a value of its own, written, read back: the same model */
static void test_round_trip(void **state)
{
	struct cost_model a, b;
	const char *name;
	char *text = NULL, assign[128];
	size_t len = 0;
	bool per_dist;
	u64 max;
	FILE *f;

	(void)state;
	cost_model_default(&a);
	for (size_t i = 0; (name = cost_model_param(i, &per_dist, &max)); i++) {
		for (int d = 0; d < (per_dist ? NR_DIST : 1); d++) {
			u64 v = 1 + (i * 7919 + (size_t)d * 131) % (max < 1000 ? max : 1000);

			if (per_dist)
				snprintf(assign, sizeof(assign), "%s.%s=%llu", name,
					 cpu_dist_names[d], (unsigned long long)v);
			else
				snprintf(assign, sizeof(assign), "%s=%llu", name,
					 (unsigned long long)v);
			/* a value below a parameter's minimum keeps the default */
			cost_model_set(&a, assign, err, sizeof(err));
		}
	}
	f = open_memstream(&text, &len);
	assert_non_null(f);
	fputs("# date: 2026-12-06T00:00:00Z\n# cpu: Some CPU @ 2.5GHz\n", f);
	cost_profile_write_all(f, &a);
	fclose(f);
	cost_model_default(&b);
	assert_int_equal(cost_profile_parse(&b, text, "rt.costs", err, sizeof(err)), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	/* and it differs from the defaults, so the test tests something */
	cost_model_default(&b);
	assert_memory_not_equal(&a, &b, sizeof(a));
	free(text);
}

static void refused(const char *text, const char *want)
{
	struct cost_model c;

	cost_model_default(&c);
	assert_int_equal(cost_profile_parse(&c, text, "p.costs", err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("got '%s', want '%s'", err, want);
	assert_null(strchr(err, '\n'));
}

static void test_errors(void **state)
{
	(void)state;
	refused("# x\n[costs]\nsyscall = 100\nnope = 1\n",
		"p.costs:4: unknown cost parameter 'nope'");
	refused("[costs]\nsyscall = -1\n", "p.costs:2: cost parameter 'syscall': bad value '-1'");
	refused("[costs]\n\nsyscall = 12abc\n",
		"p.costs:3: cost parameter 'syscall': bad value '12abc'");
	refused("[costs]\nsyscall = 99999999999\n",
		"p.costs:2: cost parameter 'syscall': bad value");
	refused("[costs]\ncacheline.far = 3\n",
		"p.costs:2: cost parameter 'cacheline.far': unknown distance");
	refused("[costs]\ncacheline = 3\n",
		"p.costs:2: cost parameter 'cacheline' needs a distance");
	refused("[costs]\nsyscall =\n", "p.costs:2: syscall has no value");
	refused("[topology]\nnr_cpus = 2\n", "p.costs:1: [topology] in a cost profile");
}

static void test_load(void **state)
{
	char path[] = "/tmp/schedlab-profile-XXXXXX";
	const struct cost_profile *p;
	struct cost_model c;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("# schedlab calibrate\n# date: 2026-12-06T00:00:00Z\n# cpu: Test CPU\n"
	      "# virtualization: kvm\n# busy: load 2.5 on 2 CPUs\n[costs]\n# measured\nsyscall = 321\n",
	      f);
	fclose(f);
	p = cost_profile_load(path, err, sizeof(err));
	assert_non_null(p);
	assert_ptr_equal(cost_profile_load(path, err, sizeof(err)), p);
	assert_string_equal(p->date, "2026-12-06T00:00:00Z");
	assert_string_equal(p->cpu, "Test CPU");
	assert_string_equal(p->virt, "kvm");
	assert_true(p->busy);
	assert_int_equal(strlen(p->hash), 16);
	cost_model_default(&c);
	assert_int_equal(cost_profile_apply(p, &c, err, sizeof(err)), 0);
	assert_int_equal(c.syscall, 321);
	unlink(path);
	assert_null(cost_profile_load("/nonexistent/x.costs", err, sizeof(err)));
	assert_string_equal(err, "/nonexistent/x.costs: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
