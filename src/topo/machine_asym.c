// SPDX-License-Identifier: GPL-2.0-only
/*
 * The [asym_packing] section of a machine file (docs/machines.md, "Machine
 * files"): which topology levels carry SD_ASYM_PACKING and the CPUs'
 * arch_asym_cpu_priority(). Architectures set the flag from their own
 * topology tables (arch/x86/kernel/smpboot.c x86_topology[] under ITMT,
 * arch/powerpc/kernel/smp.c on shared LPARs with big cores), so a machine
 * says it as data, like its capacities.
 *
 *   levels = CLS MC PKG           the levels that get the flag
 *   itmt = yes                    x86 ITMT: `--sysctl sched_itmt_enabled=0` clears it
 *   priority = cpu_order N        -(cpu / N): lower-numbered CPUs first, N to a step
 *                                 (powerpc: -cpu / threads_per_core)
 *   priority = 0-15:65 16-23:39   CPULIST:PRIORITY for every CPU (x86: the CPPC
 *                                 highest_perf intel_pstate gives sched_set_itmt_core_prio())
 *   source = ...                  where it comes from (repeatable)
 *
 * Without `priority`, the kernel's __weak default holds: -cpu.
 */
#include "topo/machine_asym.h"

#include "topo/machine_section.h"

#include "sim/alloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const asym_level_names[NR_ASYM_LV] = { "SMT", "CLS", "MC", "PKG" };

/* the most a priority may be: CPPC highest_perf is 8 bits; powerpc's are negative */
#define ASYM_PRIO_MAX 65535

enum { F_LEVELS, F_ITMT, F_PRIORITY };

static int parse_levels(struct asym_packing_desc *d, const char *v, char *err, size_t errlen)
{
	d->levels = 0;
	while (*v) {
		size_t len = strcspn(v, " \t");
		int lv = -1;

		for (int i = 0; i < NR_ASYM_LV; i++)
			if (strlen(asym_level_names[i]) == len &&
			    !strncmp(v, asym_level_names[i], len))
				lv = i;
		if (lv < 0) {
			snprintf(err, errlen, "levels: unknown level '%.*s' (SMT, CLS, MC, PKG)",
				 (int)(len > 40 ? 40 : len), v);
			return -1;
		}
		if (d->levels & (1u << lv)) {
			snprintf(err, errlen, "levels: %s given twice", asym_level_names[lv]);
			return -1;
		}
		d->levels |= 1u << lv;
		v += len;
		while (*v == ' ' || *v == '\t')
			v++;
	}
	if (!d->levels) {
		snprintf(err, errlen, "levels: none given (SMT, CLS, MC, PKG)");
		return -1;
	}
	return 0;
}

int mf_asym_line(struct mf_asym *a, struct asym_packing_desc *d, const struct mf_line *l, char *err,
		 size_t errlen)
{
	static const char *const keys[] = { "levels", "itmt", "priority" };
	int b;

	if (!strcmp(l->key, "source"))
		return mf_append_source(d->source, sizeof(d->source), l->value, err, errlen);
	b = mf_section_key(l, keys, 3, &a->fields, err, errlen);
	switch (b) {
	case F_LEVELS:
		return parse_levels(d, l->value, err, errlen);
	case F_ITMT:
		return mf_yes_no(l->key, l->value, &d->itmt, err, errlen);
	case F_PRIORITY:
		a->priority = xstrdup(l->value);
		a->priority_line = l->lineno;
		return 0;
	default:
		return -1;
	}
}

/* priority = cpu_order N */
static int prio_cpu_order(struct topology *t, const char *v, char *err, size_t errlen)
{
	char *end;
	long n;

	v += strlen("cpu_order");
	while (*v == ' ' || *v == '\t')
		v++;
	n = isdigit((unsigned char)*v) ? strtol(v, &end, 10) : 0;
	if (n < 1 || n > NR_CPUS || *end) {
		snprintf(err, errlen, "priority: cpu_order needs a step of 1..%d CPUs, got '%.40s'",
			 NR_CPUS, v);
		return -1;
	}
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++)
		t->cpus[cpu].asym_prio = -(int)(cpu / (unsigned int)n);
	return 0;
}

/* priority = CPULIST:P ...: every CPU once */
static int prio_list(struct topology *t, const char *v, char *err, size_t errlen)
{
	unsigned char *given = xcalloc(t->nr_cpus, 1);
	struct cpumask *m = alloc_cpumask();
	int ret = -1;

	while (*v) {
		size_t len = strcspn(v, " \t"), clen = strcspn(v, ":");
		char word[256], msg[200], *end;
		unsigned int cpu;
		long p;

		if (clen >= len || len >= sizeof(word)) {
			snprintf(err, errlen, "priority: '%.*s' is not CPULIST:PRIORITY",
				 (int)(len > 40 ? 40 : len), v);
			goto out;
		}
		memcpy(word, v, clen);
		word[clen] = '\0';
		if (cpulist_parse(word, m, msg, sizeof(msg))) {
			snprintf(err, errlen, "priority: %s", msg);
			goto out;
		}
		p = isdigit((unsigned char)v[clen + 1]) ? strtol(v + clen + 1, &end, 10) : -1;
		if (p < 0 || p > ASYM_PRIO_MAX || end != v + len) {
			snprintf(err, errlen, "priority: '%.*s' is not a priority in 0..%d",
				 (int)(len - clen - 1 > 20 ? 20 : len - clen - 1), v + clen + 1,
				 ASYM_PRIO_MAX);
			goto out;
		}
		for_each_cpu(cpu, m) {
			if (given[cpu]) {
				snprintf(err, errlen, "priority: CPU %u given twice", cpu);
				goto out;
			}
			given[cpu] = 1;
			t->cpus[cpu].asym_prio = (int)p;
		}
		v += len;
		while (*v == ' ' || *v == '\t')
			v++;
	}
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (!given[cpu]) {
			snprintf(err, errlen, "priority: CPU %u has none (give every CPU one)",
				 cpu);
			goto out;
		}
	}
	ret = 0;
out:
	free_cpumask(m);
	free(given);
	return ret;
}

int mf_asym_finish(struct mf_asym *a, struct topology *t, const char *file, char *err,
		   size_t errlen)
{
	char msg[256];
	int r;

	if (!a->line)
		return 0;
	if (!(a->fields & (1u << F_LEVELS))) {
		snprintf(err, errlen, "%s:%u: [asym_packing] needs levels = ...", file, a->line);
		return -1;
	}
	if (!a->priority)
		return 0;
	/* CPU lists are sized by the machine being read (fill_classes() did the same) */
	cpumask_setup(t->nr_cpus);
	if (!strncmp(a->priority, "cpu_order", strlen("cpu_order")))
		r = prio_cpu_order(t, a->priority, msg, sizeof(msg));
	else
		r = prio_list(t, a->priority, msg, sizeof(msg));
	if (r) {
		snprintf(err, errlen, "%s:%u: %s", file, a->priority_line, msg);
		return -1;
	}
	t->asym_packing.have_prio = true;
	return 0;
}

void mf_asym_free(struct mf_asym *a)
{
	free(a->priority);
	a->priority = NULL;
}
