// SPDX-License-Identifier: GPL-2.0-only
/*
 * --schedstat: the file a run writes parses back, field by field, into the
 * counters the simulated kernel keeps, in /proc/schedstat version 17's
 * order (busy, idle, newly idle columns; "%*pb" span masks).
 */
#include "test_sched_helpers.h"

#include "cli/session.h"
#include "report/schedstat.h"

#include <stdlib.h>
#include <string.h>

/* decode a "%*pb" mask: comma-separated 32-bit hex chunks, most significant first */
static void assert_mask_is(const char *text, const struct cpumask *want)
{
	unsigned int nr_chunks = 1, cpu;
	const char *p = text;

	for (const char *q = text; *q; q++)
		nr_chunks += *q == ',';
	for (unsigned int c = nr_chunks; c-- > 0;) {
		char *end;
		unsigned long chunk = strtoul(p, &end, 16);

		for (unsigned int b = 0; b < 32; b++) {
			cpu = c * 32 + b;
			if (cpu < machine.nr_cpus)
				assert_int_equal(!!(chunk & (1UL << b)),
						 cpumask_test_cpu(cpu, want));
			else
				assert_int_equal(chunk & (1UL << b), 0);
		}
		p = *end == ',' ? end + 1 : end;
	}
	assert_int_equal(*p, '\0');
}

static void check_domain_line(char *line, int index, const struct sched_domain *sd)
{
	static const enum cpu_idle_type order[] = { CPU_NOT_IDLE, CPU_IDLE, CPU_NEWLY_IDLE };
	unsigned long long v[45];
	char *tok, *save;
	int n = 0;

	tok = strtok_r(line, " \n", &save);
	{
		char want[32];

		snprintf(want, sizeof(want), "domain%d", index);
		assert_string_equal(tok, want);
	}
	assert_string_equal(strtok_r(NULL, " \n", &save), sd->name);
	assert_mask_is(strtok_r(NULL, " \n", &save), sched_domain_span(sd));
	while ((tok = strtok_r(NULL, " \n", &save))) {
		if (n < 45)
			v[n] = strtoull(tok, NULL, 10);
		n++;
	}
	assert_int_equal(n, 45);
	for (int col = 0; col < 3; col++) {
		enum cpu_idle_type t = order[col];
		const unsigned long long *c = &v[col * 11];

		assert_int_equal(c[0], sd->lb_count[t]);
		assert_int_equal(c[1], sd->lb_balanced[t]);
		assert_int_equal(c[2], sd->lb_failed[t]);
		assert_int_equal(c[3], sd->lb_imbalance_load[t]);
		assert_int_equal(c[4], sd->lb_imbalance_util[t]);
		assert_int_equal(c[5], sd->lb_imbalance_task[t]);
		assert_int_equal(c[6], sd->lb_imbalance_misfit[t]);
		assert_int_equal(c[7], sd->lb_gained[t]);
		assert_int_equal(c[8], sd->lb_hot_gained[t]);
		assert_int_equal(c[9], sd->lb_nobusyq[t]);
		assert_int_equal(c[10], sd->lb_nobusyg[t]);
	}
	assert_int_equal(v[33], sd->alb_count);
	assert_int_equal(v[34], sd->alb_failed);
	assert_int_equal(v[35], sd->alb_pushed);
	assert_int_equal(v[42], sd->ttwu_wake_remote);
	assert_int_equal(v[43], sd->ttwu_move_affine);
	assert_int_equal(v[44], sd->ttwu_move_balance);
}

static void test_schedstat_parses_back(void **state)
{
	char err[256];
	char *argv[] = { "perf", "bench", "sched", "messaging", "-g", "4", "-l", "100", NULL };
	struct session_config cfg = { .machine = "smt2-2s-16", .seed = 1, .argc = 8, .argv = argv };
	struct session s;
	char *text = NULL, *line, *save;
	size_t len = 0;
	FILE *out;
	unsigned int cpu = 0, nr_cpu_lines = 0;
	int domain = 0;
	u64 lb_total = 0;
	struct sched_domain *sd = NULL;

	(void)state;
	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, true));
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(write_schedstat(out), 0);
	fclose(out);

	line = strtok_r(text, "\n", &save);
	assert_string_equal(line, "version 17");
	line = strtok_r(NULL, "\n", &save);
	assert_int_equal(strtoul(line + strlen("timestamp "), NULL, 10), jiffies);
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (!strncmp(line, "cpu", 3)) {
			unsigned long long f[9];
			const struct rq *rq;

			assert_int_equal(
				sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu %llu",
				       &cpu, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7],
				       &f[8]),
				10);
			assert_int_equal(cpu, nr_cpu_lines++);
			rq = cpu_rq(cpu);
			assert_int_equal(f[0], rq->stat.yld_count);
			assert_int_equal(f[1], 0);
			assert_int_equal(f[2], rq->stat.sched_count);
			assert_int_equal(f[3], rq->stat.sched_goidle);
			assert_int_equal(f[4], rq->stat.ttwu_count);
			assert_int_equal(f[5], rq->stat.ttwu_local);
			assert_int_equal(f[6], rq->stat.rq_cpu_time);
			assert_int_equal(f[7], rq->stat.run_delay);
			assert_int_equal(f[8], rq->stat.pcount);
			domain = 0;
			sd = cpu_sd(cpu);
			continue;
		}
		assert_non_null(sd);
		lb_total += sd->lb_count[CPU_IDLE] + sd->lb_count[CPU_NOT_IDLE] +
			    sd->lb_count[CPU_NEWLY_IDLE];
		check_domain_line(line, domain++, sd);
		sd = sd->parent;
	}
	assert_int_equal(nr_cpu_lines, machine.nr_cpus);
	/* the run balanced, so the comparison covered non-zero counters */
	assert_true(lb_total > 0);
	free(text);
	session_end(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedstat_parses_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
