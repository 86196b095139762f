// SPDX-License-Identifier: GPL-2.0-only
/*
 * `schedlab topo --domains`: the domain tree of each CPU as the kernel's
 * sched_domain_debug() prints it at boot with sched_verbose:
 *
 *   CPU0 attaching sched-domain(s):
 *    domain-0: span=0,52 level=SMT
 *     groups: 0:{ span=0 }, 52:{ span=52 }
 *     domain-1: span=0-25,52-77 level=MC
 *      groups: 0:{ span=0,52 cap=2048 }, 1:{ span=1,53 cap=2048 }, ...
 *
 * (group ids are sgc->id, "cap=" only when not 1024, "mask=" the balance
 * mask of a NUMA group when it differs from the span). Added here: under
 * each domain line its flags and tunables, after each CPU the per-CPU
 * shortcuts, and at the end the root domain's span as the kernel logs it.
 */
#include "report/domains_print.h"

#include "kernel/domains.h"
#include "sim/alloc.h"

#include <stdlib.h>

/* A cpulist of @m in a buffer that is reused on the next call with the same @slot. */
static const char *list_of(const struct cpumask *m, int slot)
{
	static char *buf[2];
	static size_t len[2];
	size_t need = (size_t)cpumask_print_list(NULL, 0, m) + 1;

	if (need > len[slot]) {
		free(buf[slot]);
		buf[slot] = xmalloc(need);
		len[slot] = need;
	}
	cpumask_print_list(buf[slot], len[slot], m);
	return buf[slot];
}

static void print_flags(FILE *out, int flags)
{
	bool first = true;

	fputs("flags=", out);
	for (int i = 0; i < __SD_FLAG_CNT; i++) {
		if (!(flags & (1 << i)))
			continue;
		fprintf(out, "%s%s", first ? "" : "|", sd_flag_debug[i].name);
		first = false;
	}
	if (first)
		fputc('0', out);
}

static void print_domain(FILE *out, const struct sched_domain *sd, int level)
{
	const struct sched_group *group = sd->groups;

	fprintf(out, "%*s domain-%d: span=%s level=%s\n", level, "", level,
		list_of(sched_domain_span(sd), 0), sd->name);

	fprintf(out, "%*s ", level + 1, "");
	print_flags(out, sd->flags);
	fprintf(out,
		" imbalance_pct=%u min_interval=%lu max_interval=%lu busy_factor=%u "
		"cache_nice_tries=%u imb_numa_nr=%u\n",
		sd->imbalance_pct, sd->min_interval, sd->max_interval, sd->busy_factor,
		sd->cache_nice_tries, sd->imb_numa_nr);

	fprintf(out, "%*s groups:", level + 1, "");
	do {
		fprintf(out, " %d:{ span=%s", group->sgc->id, list_of(sched_group_span(group), 0));
		if ((sd->flags & SD_NUMA) &&
		    !cpumask_equal(group_balance_mask(group), sched_group_span(group)))
			fprintf(out, " mask=%s", list_of(group_balance_mask(group), 1));
		if (group->sgc->capacity != SCHED_CAPACITY_SCALE)
			fprintf(out, " cap=%lu", group->sgc->capacity);
		fputs(" }", out);
		group = group->next;
		if (group != sd->groups)
			fputc(',', out);
	} while (group != sd->groups);
	fputc('\n', out);
}

/* "domain-N" of @cpu's chain, or "none" */
static const char *domain_ref(unsigned int cpu, const struct sched_domain *target)
{
	static char buf[4][32];
	static int next;
	char *b = buf[next++ % 4];
	const struct sched_domain *sd;
	int level = 0;

	if (!target)
		return "none";
	for_each_domain(cpu, sd) {
		if (sd == target)
			break;
		level++;
	}
	snprintf(b, sizeof(buf[0]), "domain-%d", level);
	return b;
}

static void print_cpu(FILE *out, unsigned int cpu)
{
	const struct sched_domain *sd = cpu_sd(cpu);
	int level = 0;

	if (!sd) {
		fprintf(out, "CPU%u attaching NULL sched-domain.\n", cpu);
	} else {
		fprintf(out, "CPU%u attaching sched-domain(s):\n", cpu);
		for (; sd; sd = sd->parent)
			print_domain(out, sd, level++);
	}
	fprintf(out,
		" sd_llc=%s sd_llc_size=%d sd_llc_id=%d sd_share_id=%d sd_numa=%s "
		"sd_asym_packing=%s sd_asym_cpucapacity=%s\n",
		domain_ref(cpu, per_cpu(sd_llc, cpu)), per_cpu(sd_llc_size, cpu),
		per_cpu(sd_llc_id, cpu), per_cpu(sd_share_id, cpu),
		domain_ref(cpu, per_cpu(sd_numa, cpu)),
		domain_ref(cpu, per_cpu(sd_asym_packing, cpu)),
		domain_ref(cpu, per_cpu(sd_asym_cpucapacity, cpu)));
}

void sched_domains_print(FILE *out, int cpu)
{
	const struct topology *t = sched_domains_topology();

	if (!t)
		return;
	if (cpu >= 0) {
		print_cpu(out, (unsigned int)cpu);
	} else {
		for (unsigned int c = 0; c < t->nr_cpus; c++)
			print_cpu(out, c);
	}
	fprintf(out, "root domain span: %s\n", list_of(cpu_rd(0)->span, 0));
}
