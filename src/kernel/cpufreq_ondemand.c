// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ondemand governor (drivers/cpufreq/cpufreq_ondemand.c as of v6.18):
 * at each sample, a load above up_threshold takes the policy to its
 * maximum (and stretches the sampling interval by sampling_down_factor
 * while there); below it, the frequency is proportional to the load
 * between the hardware's minimum and maximum. powersave_bias (permille)
 * lowers each target, alternating between the two table frequencies
 * around it within one sampling interval.
 */
#include "kernel/cpufreq_governor.h"

/*
 * generic_powersave_bias_target(): @freq_next less powersave_bias
 * permille, as the table frequencies above and below it, each for a share
 * of the sampling interval (freq_hi now, freq_lo at the sub-sample)
 */
static unsigned int powersave_bias_target(struct cpufreq_policy *policy, unsigned int freq_next,
					  unsigned int relation)
{
	struct policy_dbs_info *dbs_info = policy->governor_data;
	unsigned int freq_req, freq_reduc, freq_avg, freq_hi, freq_lo, delay_hi_us;
	int index;

	index = cpufreq_frequency_table_target(policy, freq_next, policy->min, policy->max,
					       relation);
	freq_req = policy->freq_table[index];
	freq_reduc = (unsigned int)((u64)freq_req * gov_dbs_data.powersave_bias / 1000);
	freq_avg = freq_req - freq_reduc;

	/* the table's frequencies around freq_avg (any limits: the table's own ends) */
	index = cpufreq_frequency_table_target(
		policy, freq_avg, policy->freq_table[0], policy->freq_table[policy->nr_freqs - 1],
		CPUFREQ_RELATION_H | (relation & CPUFREQ_RELATION_E));
	freq_lo = policy->freq_table[index];
	index = cpufreq_frequency_table_target(
		policy, freq_avg, policy->freq_table[0], policy->freq_table[policy->nr_freqs - 1],
		CPUFREQ_RELATION_L | (relation & CPUFREQ_RELATION_E));
	freq_hi = policy->freq_table[index];

	if (freq_hi == freq_lo) {
		dbs_info->freq_lo = 0;
		dbs_info->freq_lo_delay_us = 0;
		return freq_lo;
	}
	delay_hi_us = (freq_avg - freq_lo) * gov_dbs_data.sampling_rate;
	delay_hi_us += (freq_hi - freq_lo) / 2;
	delay_hi_us /= freq_hi - freq_lo;
	dbs_info->freq_hi_delay_us = delay_hi_us;
	dbs_info->freq_lo = freq_lo;
	dbs_info->freq_lo_delay_us = gov_dbs_data.sampling_rate - delay_hi_us;
	return freq_hi;
}

static void dbs_freq_increase(struct cpufreq_policy *policy, unsigned int freq)
{
	if (gov_dbs_data.powersave_bias)
		freq = powersave_bias_target(policy, freq, CPUFREQ_RELATION_HE);
	else if (policy->cur == policy->max)
		return;
	__cpufreq_driver_target(policy, freq,
				gov_dbs_data.powersave_bias ? CPUFREQ_RELATION_LE :
							      CPUFREQ_RELATION_HE);
}

/* od_update(): every sampling_rate * rate_mult */
static void od_update(struct cpufreq_policy *policy)
{
	struct policy_dbs_info *policy_dbs = policy->governor_data;
	unsigned int load = dbs_update(policy);

	policy_dbs->freq_lo = 0;
	if (load > gov_dbs_data.up_threshold) {
		/* to the maximum: stay there sampling_down_factor samples at a time */
		if (policy->cur < policy->max)
			policy_dbs->rate_mult = gov_dbs_data.sampling_down_factor;
		dbs_freq_increase(policy, policy->max);
	} else {
		/* proportional to the load, over the hardware's range (cpuinfo) */
		unsigned int min_f = policy->freq_table[0];
		unsigned int max_f = policy->freq_table[policy->nr_freqs - 1];
		unsigned int freq_next = min_f + (unsigned int)((u64)load * (max_f - min_f) / 100);

		policy_dbs->rate_mult = 1;
		if (gov_dbs_data.powersave_bias)
			freq_next = powersave_bias_target(policy, freq_next, CPUFREQ_RELATION_LE);
		__cpufreq_driver_target(policy, freq_next, CPUFREQ_RELATION_CE);
	}
}

unsigned int od_dbs_update(struct cpufreq_policy *policy)
{
	struct policy_dbs_info *policy_dbs = policy->governor_data;
	enum od_sample_type sample_type = policy_dbs->sample_type;

	policy_dbs->sample_type = OD_NORMAL_SAMPLE;
	/* the second half of a powersave_bias interval: freq_lo for the rest */
	if (sample_type == OD_SUB_SAMPLE && policy_dbs->sample_delay_ns > 0) {
		__cpufreq_driver_target(policy, policy_dbs->freq_lo, CPUFREQ_RELATION_HE);
		return policy_dbs->freq_lo_delay_us;
	}
	od_update(policy);
	if (policy_dbs->freq_lo) {
		policy_dbs->sample_type = OD_SUB_SAMPLE;
		return policy_dbs->freq_hi_delay_us;
	}
	return gov_dbs_data.sampling_rate * policy_dbs->rate_mult;
}

/* od_start(), ondemand_powersave_bias_init() */
void od_start(struct cpufreq_policy *policy)
{
	struct policy_dbs_info *policy_dbs = policy->governor_data;

	policy_dbs->sample_type = OD_NORMAL_SAMPLE;
	policy_dbs->freq_lo = 0;
}
