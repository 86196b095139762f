// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ondemand and conservative governors' common part, after v6.18's
 * drivers/cpufreq/cpufreq_governor.c: the scheduler's cpufreq_update_util()
 * calls dbs_update_util_handler(), which, once sample_delay_ns has passed
 * since the policy's last sample, queues an irq_work on the running CPU;
 * the irq_work queues the policy's work item on that CPU's kworker, and
 * the work (dbs_work_handler(), run by the kworker as a task) takes the
 * load of each CPU of the policy from its idle time since the previous
 * sample (dbs_update()) and lets the governor pick the frequency.
 */
#include "kernel/cpufreq_governor.h"

#include "sim/alloc.h"

#include <limits.h>
#include <stdlib.h>

/* CPUFREQ_DBS_MIN_SAMPLING_INTERVAL: two ticks, in us */
#define DBS_MIN_SAMPLING_INTERVAL_US(hz) (2 * (NSEC_PER_SEC / (hz)) / NSEC_PER_USEC)

struct dbs_data gov_dbs_data;
static struct policy_dbs_info *policy_dbs_infos; /* [nr_cpufreq_policies] */
static struct cpu_dbs_info *cpu_dbs; /* [nr_cpus]: per_cpu(cpu_dbs) */
static enum cpufreq_governor_id dbs_gov;

/*
 * get_cpu_idle_time() -> get_cpu_idle_time_us(): tick_sched's idle
 * sleeptime is the CPU's time in the idle task (ACT_IDLE), up to the
 * running CPU's clock for an idle period in progress. No simulated task
 * waits for I/O, so the iowait part (idle unless io_is_busy) is 0 and
 * @io_busy changes nothing.
 */
u64 get_cpu_idle_time(unsigned int cpu, u64 *wall, int io_busy)
{
	const struct sim_cpu *c = sim_cpu(cpu);
	u64 now = cpu_now(), idle = c->time_in[ACT_IDLE];

	(void)io_busy;
	if (c->act == ACT_IDLE && now > c->act_since)
		idle += now - c->act_since;
	*wall = now / NSEC_PER_USEC;
	return idle / NSEC_PER_USEC;
}

unsigned int dbs_update(struct cpufreq_policy *policy)
{
	struct policy_dbs_info *policy_dbs = policy->governor_data;
	unsigned int ignore_nice = gov_dbs_data.ignore_nice_load;
	unsigned int max_load = 0, idle_periods = UINT_MAX;
	/* the rate multiplier keeps the idle detection below conservative */
	u64 sampling_rate = (u64)gov_dbs_data.sampling_rate * policy_dbs->rate_mult;

	for (unsigned int i = 0; i < policy->nr_cpus; i++) {
		unsigned int j = policy->cpus[i];
		struct cpu_dbs_info *j_cdbs = &cpu_dbs[j];
		u64 update_time, cur_idle_time, idle_time, time_elapsed;
		unsigned int load;

		charge(machine.cost->dbs_update);
		if (j != smp_processor_id())
			cl_read(&cpu_rq(j)->cl.idle);
		cur_idle_time = get_cpu_idle_time(j, &update_time, (int)gov_dbs_data.io_is_busy);
		time_elapsed = update_time - j_cdbs->prev_update_time;
		j_cdbs->prev_update_time = update_time;
		idle_time = cur_idle_time > j_cdbs->prev_cpu_idle ?
				    cur_idle_time - j_cdbs->prev_cpu_idle :
				    0;
		j_cdbs->prev_cpu_idle = cur_idle_time;
		if (ignore_nice) {
			u64 cur_nice = cpu_rq(j)->kcpustat_nice;

			idle_time += (cur_nice - j_cdbs->prev_cpu_nice) / NSEC_PER_USEC;
			j_cdbs->prev_cpu_nice = cur_nice;
		}

		if (!time_elapsed) {
			/* called twice within a microsecond: the last load stands */
			load = j_cdbs->prev_load;
		} else if (idle_time > 2 * sampling_rate && j_cdbs->prev_load) {
			/*
			 * Woken after a long idle: the previous window's load, once,
			 * so that a bursty task starts at a fair frequency
			 */
			load = j_cdbs->prev_load;
			j_cdbs->prev_load = 0;
		} else {
			load = time_elapsed > idle_time ?
				       (unsigned int)(100 * (time_elapsed - idle_time) /
						      time_elapsed) :
				       0;
			j_cdbs->prev_load = load;
		}
		if (idle_time > 2 * sampling_rate) {
			u64 periods = idle_time / sampling_rate;

			if (periods < idle_periods)
				idle_periods = (unsigned int)periods;
		}
		if (load > max_load)
			max_load = load;
	}
	policy_dbs->idle_periods = idle_periods;
	return max_load;
}

/* dbs_work_handler(): on the kworker */
static void dbs_work_handler(struct work_struct *work)
{
	struct policy_dbs_info *policy_dbs = container_of(work, struct policy_dbs_info, work);
	struct cpufreq_policy *policy = policy_dbs->policy;
	unsigned int delay_us = dbs_gov == CPUFREQ_GOV_ONDEMAND ? od_dbs_update(policy) :
								  cs_dbs_update(policy);

	policy_dbs->nr_samples++;
	gov_update_sample_delay(policy_dbs, delay_us);
	/* the update handler may queue the next one */
	policy_dbs->work_count = 0;
	policy_dbs->work_in_progress = false;
}

/* dbs_irq_work(): in the interrupt, on to this CPU's kworker */
static void dbs_irq_work(struct irq_work *irq_work)
{
	struct policy_dbs_info *policy_dbs =
		container_of(irq_work, struct policy_dbs_info, irq_work);

	schedule_work_on(smp_processor_id(), &policy_dbs->work);
}

void dbs_update_util_handler(struct rq *rq, u64 time)
{
	struct policy_dbs_info *policy_dbs = cpu_dbs[cpu_of(rq)].policy_dbs;
	u64 lst;

	if (!cpufreq_this_cpu_can_update(policy_dbs->policy))
		return;
	/* queued or in progress already, or too early */
	if (policy_dbs->work_in_progress)
		return;
	lst = policy_dbs->last_sample_time;
	if ((s64)(time - lst) < policy_dbs->sample_delay_ns)
		return;
	/* a shared policy: one CPU queues the work (atomic_add_unless(work_count, 1, 1)) */
	if (policy_dbs->is_shared) {
		if (policy_dbs->work_count)
			return;
		policy_dbs->work_count = 1;
	}
	policy_dbs->last_sample_time = time;
	policy_dbs->work_in_progress = true;
	/* irq_work_queue(): this CPU's own interrupt */
	irq_work_queue_on(&policy_dbs->irq_work, smp_processor_id());
}

int dbs_check_tunables(enum cpufreq_governor_id gov, unsigned int hz, char *err, size_t errlen)
{
	static const struct {
		size_t offset;
		const char *name;
		enum cpufreq_governor_id only; /* NR_CPUFREQ_GOVERNORS: both */
	} files[] = {
		{ offsetof(struct sched_tunables, sampling_rate), "sampling_rate",
		  NR_CPUFREQ_GOVERNORS },
		{ offsetof(struct sched_tunables, up_threshold), "up_threshold",
		  NR_CPUFREQ_GOVERNORS },
		{ offsetof(struct sched_tunables, sampling_down_factor), "sampling_down_factor",
		  NR_CPUFREQ_GOVERNORS },
		{ offsetof(struct sched_tunables, ignore_nice_load), "ignore_nice_load",
		  NR_CPUFREQ_GOVERNORS },
		{ offsetof(struct sched_tunables, io_is_busy), "io_is_busy", CPUFREQ_GOV_ONDEMAND },
		{ offsetof(struct sched_tunables, powersave_bias), "powersave_bias",
		  CPUFREQ_GOV_ONDEMAND },
		{ offsetof(struct sched_tunables, freq_step), "freq_step",
		  CPUFREQ_GOV_CONSERVATIVE },
		{ offsetof(struct sched_tunables, down_threshold), "down_threshold",
		  CPUFREQ_GOV_CONSERVATIVE },
	};
	const struct sched_tunables *t = &sysctl_sched;
	unsigned int min_rate = DBS_MIN_SAMPLING_INTERVAL_US(hz);

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		enum cpufreq_governor_id only = files[i].only;

		if (!sched_sysctl_written(files[i].offset))
			continue;
		if (!dbs_governor(gov) || (only != NR_CPUFREQ_GOVERNORS && only != gov)) {
			snprintf(
				err, errlen,
				"--sysctl %s: a tunable of %s, not of the %s governor (--cpufreq %s)",
				files[i].name,
				only == NR_CPUFREQ_GOVERNORS ? "ondemand and conservative" :
							       cpufreq_governor_names[only],
				cpufreq_governor_names[gov],
				only == NR_CPUFREQ_GOVERNORS ? "ondemand" :
							       cpufreq_governor_names[only]);
			return -1;
		}
	}
	/* sampling_rate_store(): at least CPUFREQ_DBS_MIN_SAMPLING_INTERVAL */
	if (sysctl_written(sampling_rate) && t->sampling_rate < min_rate) {
		snprintf(
			err, errlen,
			"--sysctl sampling_rate=%u: below two ticks (%u us at HZ=%u), the kernel's "
			"CPUFREQ_DBS_MIN_SAMPLING_INTERVAL: the write fails with EINVAL",
			t->sampling_rate, min_rate, hz);
		return -1;
	}
	if (gov == CPUFREQ_GOV_CONSERVATIVE) {
		unsigned int up = sysctl_written(up_threshold) ? t->up_threshold :
								 CS_DEF_FREQUENCY_UP_THRESHOLD;
		unsigned int down = sysctl_written(down_threshold) ?
					    t->down_threshold :
					    CS_DEF_FREQUENCY_DOWN_THRESHOLD;

		if (sysctl_written(sampling_down_factor) &&
		    t->sampling_down_factor > CS_MAX_SAMPLING_DOWN_FACTOR) {
			snprintf(err, errlen,
				 "--sysctl sampling_down_factor=%u: conservative takes 1..%u "
				 "(MAX_SAMPLING_DOWN_FACTOR): the write fails with EINVAL",
				 t->sampling_down_factor, CS_MAX_SAMPLING_DOWN_FACTOR);
			return -1;
		}
		/* up_threshold_store(), down_threshold_store(): down < up */
		if (down >= up) {
			snprintf(
				err, errlen,
				"--sysctl: conservative needs down_threshold (%u) below up_threshold "
				"(%u): the write fails with EINVAL",
				down, up);
			return -1;
		}
	}
	return 0;
}

void dbs_governor_start(enum cpufreq_governor_id gov)
{
	const struct sched_tunables *t = &sysctl_sched;
	bool od = gov == CPUFREQ_GOV_ONDEMAND;

	dbs_gov = gov;
	/*
	 * od_init(), cs_init(). ondemand's up_threshold is 95 where the idle
	 * time is measured exactly (get_cpu_idle_time_us() works: NO_HZ, as
	 * here), 80 only without it; io_is_busy defaults to 1 on Intel x86
	 * (od_should_io_be_busy()), which changes nothing here (no iowait).
	 */
	gov_dbs_data = (struct dbs_data){
		.up_threshold = od ? OD_MICRO_FREQUENCY_UP_THRESHOLD :
				     CS_DEF_FREQUENCY_UP_THRESHOLD,
		.sampling_down_factor = DBS_DEF_SAMPLING_DOWN_FACTOR,
		.down_threshold = CS_DEF_FREQUENCY_DOWN_THRESHOLD,
		.freq_step = CS_DEF_FREQUENCY_STEP,
	};
	/* a --sysctl write replaces the default (cpufreq_governor.h's fields have its names) */
#define WRITTEN(f)                             \
	do {                                   \
		if (sysctl_written(f))         \
			gov_dbs_data.f = t->f; \
	} while (0)
	WRITTEN(up_threshold);
	WRITTEN(sampling_down_factor);
	WRITTEN(ignore_nice_load);
	WRITTEN(io_is_busy);
	WRITTEN(powersave_bias);
	WRITTEN(freq_step);
	WRITTEN(down_threshold);
#undef WRITTEN

	workqueue_init();
	policy_dbs_infos = xcalloc(nr_cpufreq_policies, sizeof(*policy_dbs_infos));
	cpu_dbs = xcalloc(machine.nr_cpus, sizeof(*cpu_dbs));
	for (unsigned int i = 0; i < nr_cpufreq_policies; i++) {
		struct cpufreq_policy *policy = &cpufreq_policies[i];
		struct policy_dbs_info *policy_dbs = &policy_dbs_infos[i];
		unsigned int rate;

		/*
		 * cpufreq_dbs_governor_init(): the default sampling rate is the
		 * driver's transition delay, at least two ticks. The tunables
		 * are global (no CPUFREQ_HAVE_GOVERNOR_PER_POLICY driver here),
		 * so the first policy's sets it for all, as the kernel's first
		 * init does.
		 */
		if (i == 0)
			gov_dbs_data.sampling_rate =
				sysctl_written(sampling_rate) ?
					t->sampling_rate :
					max(DBS_MIN_SAMPLING_INTERVAL_US(t->hz),
					    cpufreq_policy_transition_delay_us(policy));
		rate = gov_dbs_data.sampling_rate;
		/* alloc_policy_dbs_info() */
		policy_dbs->policy = policy;
		policy->governor_data = policy_dbs;
		policy_dbs->irq_work.func = dbs_irq_work;
		init_work(&policy_dbs->work, dbs_work_handler);
		/* cpufreq_dbs_governor_start() */
		policy_dbs->is_shared = policy->nr_cpus > 1;
		policy_dbs->rate_mult = 1;
		for (unsigned int k = 0; k < policy->nr_cpus; k++) {
			struct cpu_dbs_info *j_cdbs = &cpu_dbs[policy->cpus[k]];

			j_cdbs->policy_dbs = policy_dbs;
			j_cdbs->prev_cpu_idle = get_cpu_idle_time(policy->cpus[k],
								  &j_cdbs->prev_update_time,
								  (int)gov_dbs_data.io_is_busy);
			j_cdbs->prev_load = 0;
			j_cdbs->prev_cpu_nice = cpu_rq(policy->cpus[k])->kcpustat_nice;
		}
		if (gov == CPUFREQ_GOV_ONDEMAND)
			od_start(policy);
		else
			cs_start(policy);
		/* gov_set_update_util() */
		gov_update_sample_delay(policy_dbs, rate);
		policy_dbs->last_sample_time = 0;
	}
	cpufreq_hooks_active = true;
}

void dbs_governor_exit(void)
{
	free(policy_dbs_infos);
	policy_dbs_infos = NULL;
	free(cpu_dbs);
	cpu_dbs = NULL;
	workqueue_exit();
}
