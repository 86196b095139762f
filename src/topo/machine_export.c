// SPDX-License-Identifier: GPL-2.0-only
/*
 * `schedlab machines --export`: any machine -m can name, written as a
 * machine file that reads back to the same machine, so a preset, a
 * generated or an imported machine can be copied and edited. Regular
 * shapes get the compact `shape =` line; anything else the per-CPU list.
 * Costs are written as the overrides of the defaults only, which keeps a
 * file readable and lets a later change of a default reach it.
 */
#include "topo/machine_file.h"
#include "topo/machine_guest.h"

#include "sim/alloc.h"

#include <stdlib.h>
#include <string.h>

/* where a long text value is wrapped onto a repeated key */
#define EXPORT_WRAP 88

/*
 * A text value, split at single spaces into lines of the same key: the
 * reader joins repeated text keys with one space, which restores it.
 */
static void put_text(FILE *out, const char *key, const char *text)
{
	size_t len = strlen(text), start = 0;

	if (!len)
		return;
	while (len - start > EXPORT_WRAP) {
		size_t cut = 0;

		for (size_t i = start + 1; i + 1 < len && i - start <= EXPORT_WRAP; i++)
			if (text[i] == ' ' && text[i - 1] != ' ' && text[i + 1] != ' ')
				cut = i;
		if (!cut)
			break;
		fprintf(out, "%s = %.*s\n", key, (int)(cut - start), text + start);
		start = cut + 1;
	}
	fprintf(out, "%s = %s\n", key, text + start);
}

static bool same_ids(const struct cpu_topo *a, const struct cpu_topo *b)
{
	return a->package == b->package && a->node == b->node && a->llc == b->llc &&
	       a->cluster == b->cluster && a->core == b->core;
}

/* The shape and numbering that give exactly @t's ids, if there is one. */
static bool find_shape(const struct topology *t, unsigned int shape[MF_NR_LEVELS], int *numbering)
{
	const unsigned int total[MF_NR_LEVELS] = { t->nr_packages, t->nr_nodes, t->nr_llcs,
						   t->nr_clusters, t->nr_cores, t->nr_cpus };
	struct cpu_topo *ids;
	bool found = false;

	shape[0] = total[0];
	for (int l = 1; l < MF_NR_LEVELS; l++) {
		if (total[l] % total[l - 1])
			return false;
		shape[l] = total[l] / total[l - 1];
	}
	ids = xcalloc(t->nr_cpus, sizeof(*ids));
	for (int n = 0; n < MF_NR_NUMBERINGS && !found; n++) {
		mf_regular_ids(shape, n, ids);
		found = true;
		for (unsigned int cpu = 0; cpu < t->nr_cpus && found; cpu++)
			found = same_ids(&ids[cpu], &t->cpus[cpu]);
		*numbering = n;
	}
	free(ids);
	return found;
}

static void put_topology(FILE *out, const struct topology *t)
{
	unsigned int shape[MF_NR_LEVELS];
	int numbering;

	fputs("\n[topology]\n", out);
	if (find_shape(t, shape, &numbering)) {
		fputs("shape =", out);
		for (int l = 0; l < MF_NR_LEVELS; l++)
			fprintf(out, " %s:%u", mf_level_names[l], shape[l]);
		fprintf(out, "\nnumbering = %s\n", mf_numbering_names[numbering]);
		return;
	}
	fprintf(out, "nr_cpus = %u\n# cpu.N = PACKAGE NODE LLC CLUSTER CORE\n", t->nr_cpus);
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct cpu_topo *c = &t->cpus[cpu];

		fprintf(out, "cpu.%u = %u %u %u %u %u\n", cpu, c->package, c->node, c->llc,
			c->cluster, c->core);
	}
}

static void put_numa(FILE *out, const struct topology *t)
{
	fputs("\n[numa]\n", out);
	if (t->node_reclaim_distance)
		fprintf(out, "reclaim_distance = %d\n", t->node_reclaim_distance);
	for (unsigned int a = 0; a < t->nr_nodes; a++) {
		fprintf(out, "distance.%u =", a);
		for (unsigned int b = 0; b < t->nr_nodes; b++)
			fprintf(out, " %d", t->node_distance[a * t->nr_nodes + b]);
		fputc('\n', out);
	}
}

static bool same_em(const struct topology *t, const struct cpu_topo *a, const struct cpu_topo *b)
{
	if (!a->em || !b->em)
		return a->em == b->em;
	return !memcmp(&t->em[a->em - 1], &t->em[b->em - 1], sizeof(t->em[0]));
}

static bool same_class(const struct topology *t, const struct cpu_topo *a, const struct cpu_topo *b)
{
	return a->capacity == b->capacity && a->speed == b->speed && a->nr_opps == b->nr_opps &&
	       !memcmp(a->opp_khz, b->opp_khz, a->nr_opps * sizeof(a->opp_khz[0])) &&
	       same_em(t, a, b) && !memcmp(&a->turbo, &b->turbo, sizeof(a->turbo));
}

/* a class's turbo limit by active cores: the two lists, or nothing */
static void put_turbo(FILE *out, const struct turbo_table *tt)
{
	if (!tt->nr)
		return;
	fputs("turbo_cores =", out);
	for (unsigned int i = 0; i < tt->nr; i++)
		fprintf(out, " %u", tt->upto[i]);
	fputs("\nturbo_khz =", out);
	for (unsigned int i = 0; i < tt->nr; i++)
		fprintf(out, " %u", tt->khz[i]);
	fputc('\n', out);
}

/* a class's energy model: one figure per OPP */
static void put_em(FILE *out, const struct topology *t, const struct cpu_topo *c)
{
	const struct topo_em *em;

	if (!c->em)
		return;
	em = &t->em[c->em - 1];
	fputs("em_power_uw =", out);
	for (unsigned int i = 0; i < em->nr_perf_states; i++)
		fprintf(out, " %u", em->power_uw[i]);
	fputc('\n', out);
	for (unsigned int k = 0; k < TOPO_MAX_IDLE_STATES; k++) {
		if (!(em->idle_given & (1u << k)))
			continue;
		fprintf(out, "idle_power_uw.%u =", k);
		for (unsigned int i = 0; i < em->nr_perf_states; i++)
			fprintf(out, " %u", em->idle_uw[k][i]);
		fputc('\n', out);
	}
}

/* One [class.K] per distinct capacity and frequency list, in order of their first CPU. */
static void put_classes(FILE *out, const struct topology *t)
{
	unsigned int *cls = xmalloc(t->nr_cpus * sizeof(*cls)), nr = 0;
	struct cpumask *m = alloc_cpumask();

	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		unsigned int k = 0;

		while (k < nr && !same_class(t, &t->cpus[cpu], &t->cpus[cls[k]]))
			k++;
		if (k == nr)
			cls[nr++] = cpu;
	}
	for (unsigned int k = 0; k < nr; k++) {
		const struct cpu_topo *c = &t->cpus[cls[k]];

		fprintf(out, "\n[class.%u]\ncapacity = %lu\n", k, c->capacity);
		if (c->speed != c->capacity)
			fprintf(out, "speed = %lu\n", c->speed);
		fputs("opps_khz =", out);
		for (unsigned int i = 0; i < c->nr_opps; i++)
			fprintf(out, " %u", c->opp_khz[i]);
		fputc('\n', out);
		put_turbo(out, &c->turbo);
		put_em(out, t, c);
		if (nr > 1) {
			char *list;
			int len;

			cpumask_clear(m);
			for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++)
				if (same_class(t, &t->cpus[cpu], c))
					cpumask_set_cpu(cpu, m);
			len = cpumask_print_list(NULL, 0, m);
			list = xmalloc((size_t)len + 1);
			cpumask_print_list(list, (size_t)len + 1, m);
			fprintf(out, "cpus = %s\n", list);
			free(list);
		}
	}
	free_cpumask(m);
	free(cls);
}

static void put_idle(FILE *out, const struct topology *t)
{
	for (unsigned int i = 0; i < t->nr_idle_states; i++) {
		const struct idle_state *s = &t->idle_states[i];

		fprintf(out,
			"\n[idle.%u]\nname = %s\nexit_latency_ns = %llu\ntarget_residency_ns = %llu\n"
			"polls = %s\n",
			i, s->name, (unsigned long long)s->exit_latency_ns,
			(unsigned long long)s->target_residency_ns, s->polls ? "yes" : "no");
		if (s->deep)
			fputs("deep = yes\n", out);
		if (s->flushes_cache)
			fputs("flushes_cache = yes\n", out);
	}
}

static void put_cpufreq(FILE *out, const struct topology *t)
{
	const struct cpufreq_desc *d = &t->cpufreq;

	fputs("\n[cpufreq]\n", out);
	if (d->driver[0])
		fprintf(out, "driver = %s\n", d->driver);
	fprintf(out, "span = %s\ntransition_latency_ns = %llu\ntransition_delay_us = %u\n",
		mf_cpufreq_span_names[d->span], (unsigned long long)d->transition_latency_ns,
		d->transition_delay_us);
	if (d->fast_switch != CPUFREQ_FAST_SWITCH_DRIVER)
		fprintf(out, "fast_switch = %s\n",
			d->fast_switch == CPUFREQ_FAST_SWITCH_YES ? "yes" : "no");
	fprintf(out, "governor = %s\n", cpufreq_governor_names[d->governor]);
	put_text(out, "source", d->source);
}

/* [asym_packing] (machine_asym.c), when some level has SD_ASYM_PACKING */
static void put_asym_packing(FILE *out, const struct topology *t)
{
	const struct asym_packing_desc *d = &t->asym_packing;
	unsigned int cpu = 0;

	if (!d->levels)
		return;
	fputs("\n[asym_packing]\nlevels =", out);
	for (int i = 0; i < NR_ASYM_LV; i++)
		if (d->levels & (1u << i))
			fprintf(out, " %s", asym_level_names[i]);
	fprintf(out, "\nitmt = %s\n", d->itmt ? "yes" : "no");
	if (d->have_prio) {
		/* runs of equal priority, as CPULIST:P (a negative one is written per step) */
		bool neg = false;

		for (unsigned int i = 0; i < t->nr_cpus; i++)
			neg |= t->cpus[i].asym_prio < 0;
		if (neg) {
			/* only cpu_order makes negative priorities: find its step */
			unsigned int step = 1;

			while (step < t->nr_cpus && t->cpus[step].asym_prio == 0)
				step++;
			fprintf(out, "priority = cpu_order %u\n", step);
		} else {
			fputs("priority =", out);
			while (cpu < t->nr_cpus) {
				unsigned int end = cpu;

				while (end + 1 < t->nr_cpus &&
				       t->cpus[end + 1].asym_prio == t->cpus[cpu].asym_prio)
					end++;
				if (end == cpu)
					fprintf(out, " %u:%d", cpu, t->cpus[cpu].asym_prio);
				else
					fprintf(out, " %u-%u:%d", cpu, end, t->cpus[cpu].asym_prio);
				cpu = end + 1;
			}
			fputc('\n', out);
		}
	}
	put_text(out, "source", d->source);
}

/* The lines of cost_model_print() that differ from the defaults, as NAME = VALUE. */
static void put_costs(FILE *out, const struct topology *t)
{
	struct cost_model def;
	char *a = NULL, *b = NULL, *pa, *pb;
	size_t alen, blen;
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);

	cost_model_default(&def);
	cost_model_print(&def, fa);
	cost_model_print(&t->cost, fb);
	fclose(fa);
	fclose(fb);
	fputs("\n[costs]\n", out);
	/* both print the same names in the same order, one per line */
	for (pa = a, pb = b; *pa && *pb;) {
		size_t la = strcspn(pa, "\n"), lb = strcspn(pb, "\n"), n = strcspn(pb, "=");

		if (la != lb || memcmp(pa, pb, la))
			fprintf(out, "%.*s = %.*s\n", (int)n, pb, (int)(lb - n - 1), pb + n + 1);
		pa += la + (pa[la] ? 1 : 0);
		pb += lb + (pb[lb] ? 1 : 0);
	}
	free(a);
	free(b);
}

void topology_export(const struct topology *t, FILE *out)
{
	/* masks for the class lists are sized by this machine */
	cpumask_setup(t->nr_cpus);
	fprintf(out,
		"# schedlab machine file (docs/machines.md, \"Machine files\")\n"
		"\n[machine]\nname = %s\n",
		t->name);
	put_text(out, "description", t->description);
	put_text(out, "approximations", t->approximations);
	fprintf(out, "hz = %u\n", t->hz);
	if (t->preempt[0])
		fprintf(out, "preempt = %s\n", t->preempt);
	put_text(out, "kernel_source", t->kernel_source);
	put_topology(out, t);
	put_numa(out, t);
	fprintf(out, "\n[caches]\nl2_span = %s\nllc_span = %s\n",
		mf_cache_span_names[t->cache_l2_span], mf_cache_span_names[t->cache_llc_span]);
	put_classes(out, t);
	put_idle(out, t);
	put_cpufreq(out, t);
	put_asym_packing(out, t);
	if (t->guest.kvm) {
		fprintf(out, "\n[guest]\nhypervisor = kvm\ncpuidle = %s\nipi_virtualization = %s\n",
			t->guest.cpuidle == GUEST_IDLE_HALTPOLL ? "haltpoll" : "hlt",
			t->guest.ipi_virtualization ? "yes" : "no");
		if (t->guest.steal_ppm) {
			char steal[64];

			guest_format_steal(&t->guest, steal, sizeof(steal));
			fprintf(out, "steal = %s\n", steal);
		}
		if (t->guest.halt_poll_given)
			fprintf(out, "guest_halt_poll_ns = %llu\n",
				(unsigned long long)t->guest.halt_poll_ns);
		guest_print_host_params(out, &t->guest, "%s = %s\n");
		put_text(out, "source", t->guest.source);
	}
	if (t->nr_em && t->em_source[0]) {
		fputs("\n[energy]\n", out);
		put_text(out, "source", t->em_source);
	}
	put_costs(out, t);
}
