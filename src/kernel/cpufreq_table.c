// SPDX-License-Identifier: GPL-2.0-only
/*
 * The frequency table and the policy limits, after v6.18's
 * include/linux/cpufreq.h (cpufreq_frequency_table_target() and its
 * find_index helpers), drivers/cpufreq/freq_table.c (the verify) and
 * drivers/cpufreq/cpufreq.c (__resolve_freq(), __cpufreq_driver_target(),
 * cpufreq_set_policy()'s resolution of scaling_min_freq and
 * scaling_max_freq). The tables are ascending (the presets' OPPs).
 */
#include "kernel/cpufreq.h"

#include "kernel/sched.h"

#include <limits.h>

static bool skip(const struct cpufreq_policy *policy, unsigned int i, bool efficiencies)
{
	return efficiencies && policy->inefficient[i];
}

/* cpufreq_table_find_index_al(): the lowest at or above, else the highest */
static int find_index_l(const struct cpufreq_policy *policy, unsigned int target, bool eff)
{
	int best = -1;

	for (unsigned int i = 0; i < policy->nr_freqs; i++) {
		if (skip(policy, i, eff))
			continue;
		best = (int)i;
		if (policy->freq_table[i] >= target)
			break;
	}
	return best;
}

/* cpufreq_table_find_index_ah(): the highest at or below, else the lowest */
static int find_index_h(const struct cpufreq_policy *policy, unsigned int target, bool eff)
{
	int best = -1;

	for (unsigned int i = 0; i < policy->nr_freqs; i++) {
		if (skip(policy, i, eff))
			continue;
		if (policy->freq_table[i] == target)
			return (int)i;
		if (policy->freq_table[i] < target) {
			best = (int)i;
			continue;
		}
		return best == -1 ? (int)i : best;
	}
	return best;
}

/* cpufreq_table_find_index_ac(): the closest; of two as close, the lower */
static int find_index_c(const struct cpufreq_policy *policy, unsigned int target, bool eff)
{
	int best = -1;

	for (unsigned int i = 0; i < policy->nr_freqs; i++) {
		unsigned int freq = policy->freq_table[i];

		if (skip(policy, i, eff))
			continue;
		if (freq == target)
			return (int)i;
		if (freq < target) {
			best = (int)i;
			continue;
		}
		if (best == -1)
			return (int)i;
		return target - policy->freq_table[best] > freq - target ? (int)i : best;
	}
	return best;
}

static unsigned int clamp_khz(unsigned int v, unsigned int lo, unsigned int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int cpufreq_frequency_table_target(struct cpufreq_policy *policy, unsigned int target_freq,
				   unsigned int min, unsigned int max, unsigned int relation)
{
	bool efficiencies = policy->efficiencies_available && (relation & CPUFREQ_RELATION_E);
	int idx;

	relation &= ~CPUFREQ_RELATION_E;
	target_freq = clamp_khz(target_freq, min, max);
retry:
	switch (relation) {
	case CPUFREQ_RELATION_H:
		idx = find_index_h(policy, target_freq, efficiencies);
		break;
	case CPUFREQ_RELATION_C:
		idx = find_index_c(policy, target_freq, efficiencies);
		break;
	case CPUFREQ_RELATION_L:
	default:
		idx = find_index_l(policy, target_freq, efficiencies);
		break;
	}
	/* an efficient index outside the limits: again, with every entry */
	if (efficiencies &&
	    (idx < 0 || policy->freq_table[idx] < min || policy->freq_table[idx] > max)) {
		efficiencies = false;
		goto retry;
	}
	return idx;
}

/* __resolve_freq() */
static unsigned int resolve(struct cpufreq_policy *policy, unsigned int target_freq,
			    unsigned int min, unsigned int max, unsigned int relation)
{
	int idx;

	target_freq = clamp_khz(target_freq, min, max);
	idx = cpufreq_frequency_table_target(policy, target_freq, min, max, relation);
	policy->cached_resolved_idx = idx;
	policy->cached_target_freq = target_freq;
	return policy->freq_table[idx];
}

int __cpufreq_driver_target(struct cpufreq_policy *policy, unsigned int target_freq,
			    unsigned int relation)
{
	target_freq = resolve(policy, target_freq, policy->min, policy->max, relation);
	if (target_freq == policy->cur)
		return 0;
	cpufreq_driver_fast_switch(policy, target_freq);
	return 0;
}

void cpufreq_set_limits(struct cpufreq_policy *policy, unsigned int min, unsigned int max)
{
	unsigned int hw_min = policy->freq_table[0];
	unsigned int hw_max = policy->freq_table[policy->nr_freqs - 1];
	bool found = false;
	unsigned int prev_smaller = 0;

	/* cpufreq_verify_within_cpu_limits(): into the hardware's range, min <= max */
	max = clamp_khz(max, hw_min, hw_max);
	min = clamp_khz(min, hw_min, max);
	/* cpufreq_frequency_table_verify(): at least one OPP within, else the one below max */
	for (unsigned int i = 0; i < policy->nr_freqs && !found; i++) {
		unsigned int freq = policy->freq_table[i];

		found = freq >= min && freq <= max;
		if (freq > prev_smaller && freq <= max)
			prev_smaller = freq;
	}
	if (!found) {
		max = prev_smaller;
		min = clamp_khz(min, hw_min, max);
	}
	/* cpufreq_set_policy(): neither overshoot max nor undershoot min */
	policy->max = resolve(policy, max, min, max, CPUFREQ_RELATION_H);
	min = resolve(policy, min, min, max, CPUFREQ_RELATION_L);
	policy->min = min > policy->max ? policy->max : min;
	policy->cached_target_freq = UINT_MAX;
}

int cpufreq_limits_check(const struct topology *topo, char *err, size_t errlen)
{
	bool wmin = sysctl_written(scaling_min_freq), wmax = sysctl_written(scaling_max_freq);
	unsigned int lo = UINT_MAX, hi = 0;

	if (!wmin && !wmax)
		return 0;
	if (topo->cpufreq.span == CPUFREQ_SPAN_NONE) {
		snprintf(err, errlen,
			 "--sysctl %s: %s has no cpufreq driver (%s), so no policy limits",
			 wmin ? "scaling_min_freq" : "scaling_max_freq", topo->name,
			 topo->cpufreq.driver[0] ? topo->cpufreq.driver : "none");
		return -1;
	}
	/* the hardware's range: the lowest and highest OPP of any CPU */
	for (unsigned int cpu = 0; cpu < topo->nr_cpus; cpu++) {
		const struct cpu_topo *c = &topo->cpus[cpu];

		lo = c->opp_khz[0] < lo ? c->opp_khz[0] : lo;
		hi = c->opp_khz[c->nr_opps - 1] > hi ? c->opp_khz[c->nr_opps - 1] : hi;
	}
	for (int m = 0; m < 2; m++) {
		bool written = m ? wmax : wmin;
		unsigned int v = m ? sysctl_sched.scaling_max_freq : sysctl_sched.scaling_min_freq;

		if (written && (v < lo || v > hi)) {
			snprintf(err, errlen,
				 "--sysctl %s=%u: outside %s's frequencies, %u..%u kHz",
				 m ? "scaling_max_freq" : "scaling_min_freq", v, topo->name, lo,
				 hi);
			return -1;
		}
	}
	if (wmin && wmax && sysctl_sched.scaling_min_freq > sysctl_sched.scaling_max_freq) {
		snprintf(err, errlen, "--sysctl scaling_min_freq=%u is above scaling_max_freq=%u",
			 sysctl_sched.scaling_min_freq, sysctl_sched.scaling_max_freq);
		return -1;
	}
	return 0;
}
