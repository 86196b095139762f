/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The common part of the ondemand and conservative governors
 * (drivers/cpufreq/cpufreq_governor.{c,h} as of v6.18): the tunables, the
 * per-policy and per-CPU sampling state, and the two governors' hooks.
 */
#ifndef SCHEDLAB_KERNEL_CPUFREQ_GOVERNOR_H
#define SCHEDLAB_KERNEL_CPUFREQ_GOVERNOR_H

#include "kernel/cpufreq.h"
#include "kernel/sched.h"
#include "kernel/workqueue.h"

/* cpufreq_ondemand.c's macros */
#define OD_DEF_FREQUENCY_UP_THRESHOLD 80
#define OD_MICRO_FREQUENCY_UP_THRESHOLD 95
#define OD_MAX_SAMPLING_DOWN_FACTOR 100000
#define OD_MIN_FREQUENCY_UP_THRESHOLD 1
#define OD_MAX_FREQUENCY_UP_THRESHOLD 100
/* cpufreq_conservative.c's */
#define CS_DEF_FREQUENCY_UP_THRESHOLD 80
#define CS_DEF_FREQUENCY_DOWN_THRESHOLD 20
#define CS_DEF_FREQUENCY_STEP 5
#define CS_MAX_SAMPLING_DOWN_FACTOR 10
#define DBS_DEF_SAMPLING_DOWN_FACTOR 1

/* struct dbs_data: the governor's tunables (one set for every policy) */
struct dbs_data {
	unsigned int sampling_rate; /* us */
	unsigned int up_threshold;
	unsigned int sampling_down_factor;
	unsigned int ignore_nice_load;
	unsigned int io_is_busy;
	/* od_dbs_tuners */
	unsigned int powersave_bias;
	/* cs_dbs_tuners */
	unsigned int down_threshold;
	unsigned int freq_step;
};

enum od_sample_type { OD_NORMAL_SAMPLE, OD_SUB_SAMPLE };

/* struct policy_dbs_info, with od_ and cs_policy_dbs_info's fields */
struct policy_dbs_info {
	struct cpufreq_policy *policy;
	u64 last_sample_time; /* rq clock, ns */
	s64 sample_delay_ns;
	unsigned int work_count; /* shared policy: one CPU queues the work */
	bool work_in_progress;
	bool is_shared;
	struct irq_work irq_work;
	struct work_struct work;
	unsigned int rate_mult;
	unsigned int idle_periods; /* dbs_update(): for conservative */
	/* ondemand */
	unsigned int freq_lo;
	unsigned int freq_lo_delay_us;
	unsigned int freq_hi_delay_us;
	enum od_sample_type sample_type;
	/* conservative */
	unsigned int down_skip;
	unsigned int requested_freq;
	u64 nr_samples; /* work items run */
};

/* struct cpu_dbs_info */
struct cpu_dbs_info {
	u64 prev_cpu_idle; /* us */
	u64 prev_update_time; /* us */
	u64 prev_cpu_nice; /* ns */
	unsigned int prev_load;
	struct policy_dbs_info *policy_dbs;
};

extern struct dbs_data gov_dbs_data;

/* the running governor's ->gov_dbs_update(): a sample's decision, the next delay in us */
unsigned int od_dbs_update(struct cpufreq_policy *policy);
unsigned int cs_dbs_update(struct cpufreq_policy *policy);
/* ->start() */
void od_start(struct cpufreq_policy *policy);
void cs_start(struct cpufreq_policy *policy);

/* the running governor is ondemand or conservative */
static inline bool dbs_governor(enum cpufreq_governor_id gov)
{
	return gov == CPUFREQ_GOV_ONDEMAND || gov == CPUFREQ_GOV_CONSERVATIVE;
}

/* ---- cpufreq_governor.c ---- */

/* get_cpu_idle_time(): @cpu's idle time in us at the running CPU's clock; *@wall the time */
u64 get_cpu_idle_time(unsigned int cpu, u64 *wall, int io_busy);
/* dbs_update(): the highest load (%) of the policy's CPUs since their last sample */
unsigned int dbs_update(struct cpufreq_policy *policy);
/* gov_update_sample_delay() */
static inline void gov_update_sample_delay(struct policy_dbs_info *policy_dbs,
					   unsigned int delay_us)
{
	policy_dbs->sample_delay_ns = (s64)delay_us * NSEC_PER_USEC;
}
/* dbs_update_util_handler(): the update_util hook, @time @rq's clock */
void dbs_update_util_handler(struct rq *rq, u64 time);
/*
 * --sysctl's dbs tunables against the governor @gov and @hz (the kernel's
 * store limits, and which governor has which file); 0 or -1 + message
 */
int dbs_check_tunables(enum cpufreq_governor_id gov, unsigned int hz, char *err, size_t errlen);
/* cpufreq_dbs_governor_init() + _start() for every policy; the workers */
void dbs_governor_start(enum cpufreq_governor_id gov);
void dbs_governor_exit(void);

#endif
