// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/schedstat, version 17 (kernel/sched/stats.c show_schedstat() in
 * v6.18; field meanings in Documentation/scheduler/sched-stats.rst): a
 * version and timestamp header, then per CPU one line of runqueue counters
 * followed by one line per sched domain of that CPU, lowest first. The
 * per-idle-type columns come in the order of v6.18's enum cpu_idle_type:
 * busy (__CPU_NOT_IDLE), idle, newly idle.
 */
#include "report/schedstat.h"

#include "kernel/sched.h"

/* the kernel's column order of the idle types */
static const enum cpu_idle_type column_order[CPU_MAX_IDLE_TYPES] = {
	CPU_NOT_IDLE,
	CPU_IDLE,
	CPU_NEWLY_IDLE,
};

/*
 * A cpumask as "%*pb" prints it: hex, in 32-bit chunks separated by
 * commas, most significant first, nr_cpu_ids bits wide (the first chunk
 * zero-padded to its own width).
 */
static void print_mask(FILE *out, const struct cpumask *mask, unsigned int nr_bits)
{
	unsigned int nr_chunks = (nr_bits + 31) / 32;

	for (unsigned int c = nr_chunks; c-- > 0;) {
		unsigned int first = c * 32, bits = nr_bits - first < 32 ? nr_bits - first : 32;
		unsigned long chunk = 0;

		for (unsigned int b = 0; b < bits; b++)
			if (cpumask_test_cpu(first + b, mask))
				chunk |= 1UL << b;
		if (c == nr_chunks - 1)
			fprintf(out, "%0*lx", (int)((bits + 3) / 4), chunk);
		else
			fprintf(out, ",%08lx", chunk);
	}
}

static void print_domain(FILE *out, int index, const struct sched_domain *sd)
{
	fprintf(out, "domain%d %s ", index, sd->name);
	print_mask(out, sched_domain_span(sd), machine.nr_cpus);
	for (int col = 0; col < CPU_MAX_IDLE_TYPES; col++) {
		enum cpu_idle_type t = column_order[col];

		fprintf(out, " %u %u %u %u %u %u %u %u %u %u %u", sd->lb_count[t],
			sd->lb_balanced[t], sd->lb_failed[t], sd->lb_imbalance_load[t],
			sd->lb_imbalance_util[t], sd->lb_imbalance_task[t],
			sd->lb_imbalance_misfit[t], sd->lb_gained[t], sd->lb_hot_gained[t],
			sd->lb_nobusyq[t], sd->lb_nobusyg[t]);
	}
	fprintf(out, " %u %u %u %u %u %u %u %u %u %u %u %u\n", sd->alb_count, sd->alb_failed,
		sd->alb_pushed, sd->sbe_count, sd->sbe_balanced, sd->sbe_pushed, sd->sbf_count,
		sd->sbf_balanced, sd->sbf_pushed, sd->ttwu_wake_remote, sd->ttwu_move_affine,
		sd->ttwu_move_balance);
}

int write_schedstat(FILE *out)
{
	unsigned int cpu;

	fprintf(out, "version %d\n", SCHEDSTAT_VERSION);
	fprintf(out, "timestamp %lu\n", jiffies);
	for_each_possible_cpu(cpu) {
		const struct rq *rq = cpu_rq(cpu);
		struct sched_domain *sd;
		int index = 0;

		/* the second field is the O(1) scheduler's expired count, always 0 */
		fprintf(out, "cpu%u %llu 0 %llu %llu %llu %llu %llu %llu %llu\n", cpu,
			(unsigned long long)rq->stat.yld_count,
			(unsigned long long)rq->stat.sched_count,
			(unsigned long long)rq->stat.sched_goidle,
			(unsigned long long)rq->stat.ttwu_count,
			(unsigned long long)rq->stat.ttwu_local,
			(unsigned long long)rq->stat.rq_cpu_time,
			(unsigned long long)rq->stat.run_delay,
			(unsigned long long)rq->stat.pcount);
		for_each_domain(cpu, sd)
			print_domain(out, index++, sd);
	}
	return ferror(out) ? -1 : 0;
}
