// SPDX-License-Identifier: GPL-2.0-only
/*
 * The conservative governor (drivers/cpufreq/cpufreq_conservative.c as of
 * v6.18): at each sample the requested frequency moves one freq_step (a
 * percentage of scaling_max_freq) up when the load is above up_threshold,
 * one down when it is below down_threshold (at most every
 * sampling_down_factor samples), and a step down for each sampling period
 * the policy slept through.
 */
#include "kernel/cpufreq_governor.h"

#include <limits.h>

/* get_freq_step(): freq_step percent of policy->max, never 0 kHz */
static unsigned int get_freq_step(const struct cpufreq_policy *policy)
{
	unsigned int freq_step = gov_dbs_data.freq_step * policy->max / 100;

	/* a maximum below 100 kHz: the kernel's own fallback */
	if (freq_step == 0)
		freq_step = CS_DEF_FREQUENCY_STEP;
	return freq_step;
}

unsigned int cs_dbs_update(struct cpufreq_policy *policy)
{
	struct policy_dbs_info *dbs_info = policy->governor_data;
	unsigned int requested_freq = dbs_info->requested_freq;
	unsigned int load = dbs_update(policy);
	unsigned int freq_step;

	/* freq_step 0: the user wants the frequency left alone */
	if (gov_dbs_data.freq_step == 0)
		goto out;
	/* the limits changed since: start again from the current frequency */
	if (requested_freq > policy->max || requested_freq < policy->min) {
		requested_freq = policy->cur;
		dbs_info->requested_freq = requested_freq;
	}
	freq_step = get_freq_step(policy);

	/* one step down for each sampling period idle without an update */
	if (dbs_info->idle_periods < UINT_MAX) {
		unsigned int freq_steps = dbs_info->idle_periods * freq_step;

		if (requested_freq > policy->min + freq_steps)
			requested_freq -= freq_steps;
		else
			requested_freq = policy->min;
		dbs_info->idle_periods = UINT_MAX;
	}

	if (load > gov_dbs_data.up_threshold) {
		dbs_info->down_skip = 0;
		if (requested_freq == policy->max)
			goto out;
		requested_freq += freq_step;
		if (requested_freq > policy->max)
			requested_freq = policy->max;
		__cpufreq_driver_target(policy, requested_freq, CPUFREQ_RELATION_HE);
		dbs_info->requested_freq = requested_freq;
		goto out;
	}

	/* sampling_down_factor: decrease at most every that many samples */
	if (++dbs_info->down_skip < gov_dbs_data.sampling_down_factor)
		goto out;
	dbs_info->down_skip = 0;

	if (load < gov_dbs_data.down_threshold) {
		if (requested_freq == policy->min)
			goto out;
		if (requested_freq > freq_step)
			requested_freq -= freq_step;
		else
			requested_freq = policy->min;
		__cpufreq_driver_target(policy, requested_freq, CPUFREQ_RELATION_LE);
		dbs_info->requested_freq = requested_freq;
	}
out:
	return gov_dbs_data.sampling_rate;
}

/* cs_start() */
void cs_start(struct cpufreq_policy *policy)
{
	struct policy_dbs_info *dbs_info = policy->governor_data;

	dbs_info->down_skip = 0;
	dbs_info->requested_freq = policy->cur;
}
