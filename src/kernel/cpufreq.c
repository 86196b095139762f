// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpufreq and the schedutil governor (drivers/cpufreq/cpufreq.c,
 * kernel/sched/cpufreq_schedutil.c as of v6.18).
 *
 * A policy is the set of CPUs that share a clock (the preset's
 * cpufreq_desc). The driver's fast switch asks the hardware for a new
 * frequency; the policy's CPUs keep the old one for the driver's
 * transition latency, then all change at once (sim_cpu_set_freq()).
 *
 * Only fast switch is modelled: schedutil's slow path (the sugov kthread,
 * a SCHED_DEADLINE task woken by irq_work that calls the driver's
 * ->target()) is not, because the deadline class here serves only the
 * fair server. Every platform here is treated as fast-switch capable;
 * docs/cpufreq.md says where that differs from the real driver.
 */
#include "kernel/cpufreq.h"

#include "kernel/cpufreq_governor.h"
#include "kernel/sched.h"
#include "kernel/trace.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define USEC_PER_MSEC 1000U

const char *const cpufreq_governor_names[NR_CPUFREQ_GOVERNORS] = {
	[CPUFREQ_GOV_PERFORMANCE] = "performance",
	[CPUFREQ_GOV_POWERSAVE] = "powersave",
	[CPUFREQ_GOV_USERSPACE] = "userspace",
	[CPUFREQ_GOV_SCHEDUTIL] = "schedutil",
	[CPUFREQ_GOV_ONDEMAND] = "ondemand",
	[CPUFREQ_GOV_CONSERVATIVE] = "conservative",
};

bool cpufreq_hooks_active;
struct cpufreq_setup cpufreq_boot_setup;
struct cpufreq_policy *cpufreq_policies;
unsigned int nr_cpufreq_policies;

static struct cpufreq_setup cur_setup;
static struct cpufreq_policy **policy_of;	/* [nr_cpus]: per_cpu(cpufreq_cpu_data) */
static struct sugov_cpu *sugov_cpus;		/* [nr_cpus]: per_cpu(sugov_cpu) */
static unsigned long *idle_calls;		/* [nr_cpus]: tick_sched's idle_calls */

int cpufreq_parse(const char *arg, struct cpufreq_setup *out, char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':');
	size_t nlen = colon ? (size_t)(colon - arg) : strlen(arg);

	for (int g = 0; g < NR_CPUFREQ_GOVERNORS; g++) {
		if (strlen(cpufreq_governor_names[g]) != nlen ||
		    strncmp(cpufreq_governor_names[g], arg, nlen))
			continue;
		*out = (struct cpufreq_setup){ .governor = (enum cpufreq_governor_id)g,
					       .given = true };
		if (g != CPUFREQ_GOV_USERSPACE) {
			if (colon) {
				snprintf(err, errlen,
					 "--cpufreq '%s': only userspace takes a frequency (userspace:KHZ)",
					 arg);
				return -1;
			}
			return 0;
		}
		char *end;
		unsigned long long khz;

		errno = 0;
		khz = colon ? strtoull(colon + 1, &end, 10) : 0;
		if (!colon || !colon[1] || *end || errno || colon[1] == '-' || !khz ||
		    khz > 100000000ULL) {
			snprintf(err, errlen,
				 "--cpufreq '%s': userspace needs a frequency in kHz, 1..100000000 "
				 "(userspace:2000000 for 2 GHz)",
				 arg);
			return -1;
		}
		out->setspeed_khz = (unsigned int)khz;
		return 0;
	}
	snprintf(err, errlen,
		 "--cpufreq '%s': unknown governor (performance, powersave, userspace:KHZ, "
		 "schedutil, ondemand or conservative)",
		 arg);
	return -1;
}

int cpufreq_check(const struct cpufreq_setup *setup, const struct topology *topo, char *err,
		  size_t errlen)
{
	if (setup && setup->governor != CPUFREQ_GOV_PERFORMANCE &&
	    topo->cpufreq.span == CPUFREQ_SPAN_NONE) {
		snprintf(err, errlen,
			 "--cpufreq %s: %s has no cpufreq driver (%s); only 'performance' (its one "
			 "frequency) applies",
			 cpufreq_governor_names[setup->governor], topo->name,
			 topo->cpufreq.driver[0] ? topo->cpufreq.driver : "none");
		return -1;
	}
	if (cpufreq_limits_check(topo, err, errlen))
		return -1;
	return dbs_check_tunables(setup ? setup->governor : CPUFREQ_GOV_PERFORMANCE,
				  sysctl_sched.hz, err, errlen);
}

const struct cpufreq_setup *cpufreq_current_setup(void)
{
	return &cur_setup;
}

struct cpufreq_policy *cpufreq_cpu_get(unsigned int cpu)
{
	return policy_of ? policy_of[cpu] : NULL;
}

/* ---- the driver ---- */

/*
 * cpufreq_policy_transition_delay_us(): the driver's own delay, else 1.5x
 * the transition latency, else 1 ms.
 */
unsigned int cpufreq_policy_transition_delay_us(const struct cpufreq_policy *policy)
{
	unsigned int latency;

	if (policy->transition_delay_us)
		return policy->transition_delay_us;
	latency = (unsigned int)(policy->transition_latency_ns / NSEC_PER_USEC);
	if (latency)
		return latency + (latency >> 1);
	return USEC_PER_MSEC;
}

/*
 * __resolve_freq() -> cpufreq_frequency_table_target(): clamp to the
 * policy's limits, then the table's lowest frequency at or above
 * (CPUFREQ_RELATION_L), skipping the inefficient ones when @efficiencies
 * (RELATION_E) and the energy model marked some; if that leaves the limits,
 * again without skipping.
 */
static unsigned int resolve_freq(struct cpufreq_policy *policy, unsigned int target_freq,
				 bool efficiencies)
{
	unsigned int idx;

	efficiencies = efficiencies && policy->efficiencies_available;
	if (target_freq < policy->min)
		target_freq = policy->min;
	if (target_freq > policy->max)
		target_freq = policy->max;
retry:
	idx = policy->nr_freqs - 1;
	/* the lowest (efficient) frequency at or above, else the highest below */
	for (unsigned int i = 0; i < policy->nr_freqs; i++) {
		if (efficiencies && policy->inefficient[i])
			continue;
		idx = i;
		if (policy->freq_table[i] >= target_freq)
			break;
	}
	if (efficiencies &&
	    (policy->freq_table[idx] > policy->max || policy->freq_table[idx] < policy->min)) {
		efficiencies = false;
		goto retry;
	}
	policy->cached_target_freq = target_freq;
	policy->cached_resolved_idx = (int)idx;
	return policy->freq_table[idx];
}

unsigned int cpufreq_driver_resolve_freq(struct cpufreq_policy *policy, unsigned int target_freq)
{
	return resolve_freq(policy, target_freq, true);
}

void cpufreq_table_set_inefficient(struct cpufreq_policy *policy, unsigned int idx)
{
	/* the policy's maximum is never skipped (cpufreq_table_set_inefficient()) */
	if (idx + 1 >= policy->nr_freqs)
		return;
	policy->inefficient[idx] = true;
	policy->efficiencies_available = true;
}

static unsigned int opp_index(const struct cpufreq_policy *policy, unsigned int khz)
{
	for (unsigned int i = 0; i < policy->nr_freqs; i++)
		if (policy->freq_table[i] == khz)
			return i;
	return policy->nr_freqs - 1;
}

/* the hardware's transition has completed: the new clock on every CPU of the policy */
static void transition_done(struct sim_event *ev)
{
	struct cpufreq_policy *policy = container_of(ev, struct cpufreq_policy, transition);
	unsigned int idx = opp_index(policy, policy->hw_target);

	for (unsigned int i = 0; i < policy->nr_cpus; i++)
		sim_cpu_set_freq(policy->cpus[i], policy->hw_target, idx);
}

/*
 * The request reaches the hardware at the running CPU's cursor; the CPUs
 * run at the old speed for the transition latency. A request while one is
 * in flight retargets it (the register holds the last value written).
 */
static void hw_request(struct cpufreq_policy *policy, unsigned int freq)
{
	policy->hw_target = freq;
	if (ev_queued(&policy->transition))
		return;
	sim_schedule(&policy->transition, cpu_now() + policy->transition_latency_ns);
}

/*
 * cpufreq_driver_fast_switch(): the driver writes the request; the trace
 * event and the stats are for every CPU of the policy, at the request.
 */
unsigned int cpufreq_driver_fast_switch(struct cpufreq_policy *policy, unsigned int target_freq)
{
	unsigned int freq = target_freq;

	if (freq < policy->min)
		freq = policy->min;
	if (freq > policy->max)
		freq = policy->max;
	charge(machine.cost->cpufreq_switch);
	policy->cur = freq;
	policy->nr_requests++;
	hw_request(policy, freq);
	for (unsigned int i = 0; i < policy->nr_cpus; i++)
		trace_sched(__trace_cpu_frequency(freq, policy->cpus[i]));
	return freq;
}

/* ---- schedutil ---- */

/*
 * get_capacity_ref_freq(): with frequency invariance (which the simulated
 * clock always provides: arch_scale_freq_capacity() is exact) the maximum.
 */
static unsigned long get_capacity_ref_freq(const struct cpufreq_policy *policy)
{
	return policy->freq_table[policy->nr_freqs - 1];
}

unsigned int get_next_freq(struct cpufreq_policy *policy, unsigned long util, unsigned long max)
{
	struct sugov_policy *sg = &policy->sg;
	unsigned int freq;

	freq = (unsigned int)map_util_freq(util, get_capacity_ref_freq(policy), max);
	if (freq == sg->cached_raw_freq && !sg->need_freq_update)
		return sg->next_freq;
	sg->cached_raw_freq = freq;
	return cpufreq_driver_resolve_freq(policy, freq);
}

bool sugov_should_update_freq(struct cpufreq_policy *policy, u64 time)
{
	struct sugov_policy *sg = &policy->sg;
	s64 delta_ns;

	if (sg->limits_changed) {
		sg->limits_changed = false;
		sg->need_freq_update = true;
		return true;
	} else if (sg->need_freq_update) {
		return true;
	}
	delta_ns = (s64)(time - sg->last_freq_update_time);
	return delta_ns >= sg->freq_update_delay_ns;
}

static bool sugov_update_next_freq(struct cpufreq_policy *policy, u64 time,
				   unsigned int next_freq)
{
	struct sugov_policy *sg = &policy->sg;

	if (sg->need_freq_update)
		sg->need_freq_update = false;
	else if (sg->next_freq == next_freq)
		return false;
	sg->next_freq = next_freq;
	sg->last_freq_update_time = time;
	return true;
}

/*
 * effective_cpu_util() without DL tasks (not modelled): fair plus RT
 * utilisation, measured on clock_task, scaled to the share the CPU's
 * IRQ/steal utilisation (avg_irq: a guest's steal, docs/guests.md) leaves
 * and that utilisation added; @min is at least avg_irq and uclamp's
 * minimum, or the capacity while an RT task is runnable and uclamp is not
 * in use ("RT runs at max"); @max is uclamp's maximum, at most the
 * capacity. avg_irq saturating the CPU gives the capacity for all three.
 */
unsigned long effective_cpu_util(unsigned int cpu, unsigned long util_cfs, unsigned long *min,
				 unsigned long *max)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long scale = arch_scale_cpu_capacity(cpu);
	unsigned long irq = cpu_util_irq(rq);
	unsigned long util;

	if (unlikely(irq >= scale)) {
		if (min)
			*min = scale;
		if (max)
			*max = scale;
		return scale;
	}
	if (min) {
		*min = max(irq, uclamp_rq_get(rq, UCLAMP_MIN));
		if (!uclamp_is_used() && rq->rt.rt_queued)
			*min = max(*min, scale);
	}
	util = util_cfs + cpu_util_rt(rq);
	if (max)
		*max = min(scale, uclamp_rq_get(rq, UCLAMP_MAX));
	if (util >= scale)
		return scale;
	/* scale_irq_capacity(): the task clock does not see the IRQ/steal time */
	util = util * (scale - irq) / scale + irq;
	return util >= scale ? scale : util;
}

unsigned long sugov_effective_cpu_perf(unsigned long actual, unsigned long min, unsigned long max)
{
	actual = map_util_perf(actual);
	if (actual < max)
		max = actual;
	return max > min ? max : min;
}

/* sugov_get_util(): no iowait boost is modelled (boost 0) */
static void sugov_get_util(struct sugov_cpu *sg_cpu)
{
	unsigned long min, max, util;

	/* cpu_util_cfs_boost(): max(util, runnable) under UTIL_RUNNABLE_BOOST */
	util = cpu_util_cfs_boost(sg_cpu->cpu);
	util = effective_cpu_util(sg_cpu->cpu, util, &min, &max);
	sg_cpu->bw_min = min;
	sg_cpu->util = sugov_effective_cpu_perf(util, min, max);
}

/*
 * sugov_hold_freq(): a CPU that has not been idle since the last update
 * keeps its frequency rather than lower it (tick_nohz's idle_calls).
 */
static bool sugov_hold_freq(struct sugov_cpu *sg_cpu)
{
	unsigned long calls = idle_calls[sg_cpu->cpu];
	bool ret = calls == sg_cpu->saved_idle_calls;

	sg_cpu->saved_idle_calls = calls;
	return ret;
}

/* cpufreq_this_cpu_can_update() */
bool cpufreq_this_cpu_can_update(const struct cpufreq_policy *policy)
{
	if (policy->dvfs_possible_from_any_cpu)
		return true;
	for (unsigned int i = 0; i < policy->nr_cpus; i++)
		if (policy->cpus[i] == smp_processor_id())
			return true;
	return false;
}

static void sugov_update_single_freq(struct sugov_cpu *sg_cpu, u64 time)
{
	struct cpufreq_policy *policy = sg_cpu->policy;
	unsigned int cached_freq = policy->sg.cached_raw_freq;
	unsigned long max_cap = arch_scale_cpu_capacity(sg_cpu->cpu);
	unsigned int next_f;

	/* sugov_update_single_common() */
	sg_cpu->last_update = time;
	if (!sugov_should_update_freq(policy, time))
		return;
	charge(machine.cost->sugov_update);
	sugov_get_util(sg_cpu);

	next_f = get_next_freq(policy, sg_cpu->util, max_cap);
	if (sugov_hold_freq(sg_cpu) && next_f < policy->sg.next_freq &&
	    !policy->sg.need_freq_update) {
		next_f = policy->sg.next_freq;
		policy->sg.cached_raw_freq = cached_freq;
	}
	if (!sugov_update_next_freq(policy, time, next_f))
		return;
	cpufreq_driver_fast_switch(policy, next_f);
}

/* sugov_next_freq_shared(): the most any CPU of the policy asks for */
static unsigned int sugov_next_freq_shared(struct sugov_cpu *sg_cpu)
{
	struct cpufreq_policy *policy = sg_cpu->policy;
	unsigned long util = 0, max_cap = arch_scale_cpu_capacity(sg_cpu->cpu);

	for (unsigned int i = 0; i < policy->nr_cpus; i++) {
		struct sugov_cpu *j = &sugov_cpus[policy->cpus[i]];

		cl_read(&cpu_rq(j->cpu)->cl.cpufreq);
		sugov_get_util(j);
		if (j->util > util)
			util = j->util;
	}
	return get_next_freq(policy, util, max_cap);
}

static void sugov_update_shared(struct sugov_cpu *sg_cpu, u64 time)
{
	struct cpufreq_policy *policy = sg_cpu->policy;
	unsigned int next_f;

	sg_cpu->last_update = time;
	if (!sugov_should_update_freq(policy, time))
		return;
	charge(machine.cost->sugov_update);
	next_f = sugov_next_freq_shared(sg_cpu);
	if (!sugov_update_next_freq(policy, time, next_f))
		return;
	cpufreq_driver_fast_switch(policy, next_f);
}

void cpufreq_update_util_hook(struct rq *rq, unsigned int flags)
{
	struct sugov_cpu *sg_cpu = &sugov_cpus[cpu_of(rq)];
	struct cpufreq_policy *policy = sg_cpu->policy;

	(void)flags;
	if (dbs_governor(cur_setup.governor)) {
		dbs_update_util_handler(rq, rq->clock);
		return;
	}
	if (!cpufreq_this_cpu_can_update(policy))
		return;
	if (policy->nr_cpus > 1)
		sugov_update_shared(sg_cpu, rq->clock);
	else
		sugov_update_single_freq(sg_cpu, rq->clock);
}

void cpufreq_idle_enter(unsigned int cpu)
{
	if (idle_calls)
		idle_calls[cpu]++;
}

/* ---- policies and governors ---- */

static unsigned int span_key(const struct topology *t, unsigned int cpu)
{
	switch (t->cpufreq.span) {
	case CPUFREQ_SPAN_CORE:
		return t->cpus[cpu].core;
	case CPUFREQ_SPAN_CLUSTER:
		return t->cpus[cpu].cluster;
	case CPUFREQ_SPAN_PACKAGE:
	case CPUFREQ_SPAN_NONE:
		return t->cpus[cpu].package;
	case CPUFREQ_SPAN_CPU:
	default:
		return cpu;
	}
}

/* set every CPU of @policy to @freq at once (a governor's start, before anything runs) */
static void policy_set_now(struct cpufreq_policy *policy, unsigned int freq)
{
	unsigned int idx = opp_index(policy, freq);

	policy->cur = freq;
	for (unsigned int i = 0; i < policy->nr_cpus; i++)
		sim_cpu_set_freq(policy->cpus[i], freq, idx);
}

void cpufreq_init(const struct cpufreq_setup *setup)
{
	const struct topology *t = machine.topo;
	unsigned int nr = t->nr_cpus, *key_policy, *cpu_key, *key_cpus;

	cur_setup = setup ? *setup : (struct cpufreq_setup){ .governor = CPUFREQ_GOV_PERFORMANCE };
	cpufreq_hooks_active = false;
	policy_of = xcalloc(nr, sizeof(*policy_of));
	sugov_cpus = xcalloc(nr, sizeof(*sugov_cpus));
	idle_calls = xcalloc(nr, sizeof(*idle_calls));
	cpufreq_policies = xcalloc(nr, sizeof(*cpufreq_policies));
	nr_cpufreq_policies = 0;
	key_policy = xcalloc(nr, sizeof(*key_policy));	/* policy index + 1 by span key */
	cpu_key = xcalloc(nr, sizeof(*cpu_key));
	key_cpus = xcalloc(nr, sizeof(*key_cpus));	/* CPUs per key: each policy's array */
	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		unsigned int key = span_key(t, cpu);

		cpu_key[cpu] = key < nr ? key : cpu;
		key_cpus[cpu_key[cpu]]++;
	}

	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		unsigned int key = cpu_key[cpu];
		struct cpufreq_policy *policy;

		if (!key_policy[key]) {
			const struct cpu_topo *c = &t->cpus[cpu];

			policy = &cpufreq_policies[nr_cpufreq_policies++];
			key_policy[key] = nr_cpufreq_policies;
			policy->cpu = cpu;
			policy->cpus = xcalloc(key_cpus[key], sizeof(unsigned int));
			policy->freq_table = c->opp_khz;
			policy->nr_freqs = c->nr_opps;
			policy->min = c->opp_khz[0];
			policy->max = c->max_freq_khz;
			policy->cur = policy->max;
			policy->transition_latency_ns = t->cpufreq.transition_latency_ns;
			policy->transition_delay_us = t->cpufreq.transition_delay_us;
			policy->fast_switch_enabled = true;
			/* acpi-cpufreq and cppc_cpufreq set it; intel_cpufreq does not */
			policy->dvfs_possible_from_any_cpu =
				!strcmp(t->cpufreq.driver, "acpi-cpufreq") ||
				!strcmp(t->cpufreq.driver, "cppc_cpufreq");
			ev_init(&policy->transition, transition_done, policy->cpu);
		}
		policy = &cpufreq_policies[key_policy[key] - 1];
		policy->cpus[policy->nr_cpus++] = cpu;
		policy_of[cpu] = policy;
		sugov_cpus[cpu].cpu = cpu;
		sugov_cpus[cpu].policy = policy;
	}
	free(key_policy);
	free(cpu_key);
	free(key_cpus);

	for (unsigned int i = 0; i < nr_cpufreq_policies; i++) {
		struct cpufreq_policy *policy = &cpufreq_policies[i];

		/* scaling_min_freq, scaling_max_freq, then cpufreq_policy_apply_limits() */
		if (sysctl_written(scaling_min_freq) || sysctl_written(scaling_max_freq))
			cpufreq_set_limits(policy,
					   sysctl_written(scaling_min_freq) ?
						   sysctl_sched.scaling_min_freq :
						   policy->freq_table[0],
					   sysctl_written(scaling_max_freq) ?
						   sysctl_sched.scaling_max_freq :
						   policy->freq_table[policy->nr_freqs - 1]);
		if (policy->cur > policy->max)
			policy_set_now(policy, policy->max);
		switch (cur_setup.governor) {
		case CPUFREQ_GOV_PERFORMANCE:
			break;	/* every CPU starts at its maximum (scaling_max_freq) */
		case CPUFREQ_GOV_POWERSAVE:
			policy_set_now(policy, policy->min);
			break;
		case CPUFREQ_GOV_USERSPACE:
			/* store_scaling_setspeed(): __cpufreq_driver_target(RELATION_L) */
			policy_set_now(policy, resolve_freq(policy, cur_setup.setspeed_khz, false));
			break;
		case CPUFREQ_GOV_SCHEDUTIL: {
			struct sugov_policy *sg = &policy->sg;
			unsigned int rate = sysctl_sched.schedutil_rate_limit_written ?
						    sysctl_sched.schedutil_rate_limit_us :
						    cpufreq_policy_transition_delay_us(policy);

			/* sugov_start() */
			sg->freq_update_delay_ns = (s64)rate * NSEC_PER_USEC;
			sg->last_freq_update_time = 0;
			sg->next_freq = 0;
			sg->limits_changed = false;
			sg->need_freq_update = false;
			sg->cached_raw_freq = 0;
			cpufreq_hooks_active = true;
			break;
		}
		default:
			break;
		}
	}
	if (dbs_governor(cur_setup.governor))
		dbs_governor_start(cur_setup.governor);
	/* the residency counts from the start: set-up changes are not transitions */
	for (unsigned int cpu = 0; cpu < nr; cpu++)
		sim_cpu(cpu)->nr_freq_transitions = 0;
}

void cpufreq_exit(void)
{
	/* the event queue, transitions in flight and all, is dropped first (session_end()) */
	if (dbs_governor(cur_setup.governor))
		dbs_governor_exit();
	for (unsigned int i = 0; i < nr_cpufreq_policies; i++)
		free(cpufreq_policies[i].cpus);
	free(cpufreq_policies);
	cpufreq_policies = NULL;
	nr_cpufreq_policies = 0;
	free(policy_of);
	policy_of = NULL;
	free(sugov_cpus);
	sugov_cpus = NULL;
	free(idle_calls);
	idle_calls = NULL;
	cpufreq_hooks_active = false;
	cpufreq_boot_setup = (struct cpufreq_setup){ .governor = CPUFREQ_GOV_PERFORMANCE };
}
