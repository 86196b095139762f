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
 * A driver that cannot switch from the scheduler's context (no fast
 * switch: cppc_cpufreq over PCC, acpi-cpufreq with a shared policy,
 * cpufreq-dt) takes schedutil's slow path: the hook queues an irq_work on
 * its own CPU, which wakes the policy's sugov:N kthread, a special
 * SCHED_DEADLINE task (deadline.c) that runs sugov_work() and the driver's
 * ->target() on a CPU of the policy, preempting what runs there.
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
/* the first step of the iowait boost: an eighth of the capacity scale */
#define IOWAIT_BOOST_MIN (SCHED_CAPACITY_SCALE / 8)

bool cpufreq_hooks_active;
struct cpufreq_setup cpufreq_boot_setup;
struct cpufreq_policy *cpufreq_policies;
unsigned int nr_cpufreq_policies;

static struct cpufreq_setup cur_setup;
static struct cpufreq_policy **policy_of;	/* [nr_cpus]: per_cpu(cpufreq_cpu_data) */
static struct sugov_cpu *sugov_cpus;		/* [nr_cpus]: per_cpu(sugov_cpu) */

/* sugov_kthread_create()'s "fake (unused) bandwidth": 1 ms every 10 ms */
#define SUGOV_DL_RUNTIME_NS NSEC_PER_MSEC
#define SUGOV_DL_DEADLINE_NS (10 * NSEC_PER_MSEC)
#define SUGOV_DL_PERIOD_NS (10 * NSEC_PER_MSEC)

/* the slow path's part of struct sugov_policy: irq_work, kthread worker and work */
struct sugov_worker {
	struct irq_work irq_work;
	struct task_struct *thread;	/* sugov:N */
	struct cpufreq_policy *policy;
	bool work_queued;		/* kthread_queue_work(): sugov_work on the worker's list */
	u64 nr_work;
	/*
	 * sugov_work() asleep in cppc_set_perf() (sugov_pcc_target()): the
	 * frequency it asks for, what it waits for and until when, and the
	 * timer standing in for the wakeup at the end of that command
	 */
	enum {
		SUGOV_PCC_NONE,
		SUGOV_PCC_LOCK,		/* in down_read() until the command ending at pcc_until */
		SUGOV_PCC_CMD,		/* joined a batch, its command completes at pcc_until */
	} pcc_state;
	u64 pcc_until;
	unsigned int pcc_freq;
	struct hrtimer pcc_wake;
};

static struct pcc_channel *pcc_channels;	/* [nr_cpus]: by package */
static unsigned long *idle_calls;		/* [nr_cpus]: tick_sched's idle_calls */

int cpufreq_parse(const char *arg, struct cpufreq_setup *out, char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':');
	size_t nlen = colon ? (size_t)(colon - arg) : strlen(arg);
	int g = cpufreq_governor_lookup(arg, nlen);

	if (g >= 0) {
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

bool cpufreq_governed(void)
{
	return cur_setup.given || cur_setup.governor != CPUFREQ_GOV_PERFORMANCE;
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
 * __resolve_freq() within the policy's limits (cpufreq_table.c):
 * CPUFREQ_RELATION_L, or LE when @efficiencies, passing over the OPPs the
 * energy model marked inefficient unless that leaves the limits.
 */
static unsigned int resolve_freq(struct cpufreq_policy *policy, unsigned int target_freq,
				 bool efficiencies)
{
	return __resolve_freq(policy, target_freq, policy->min, policy->max,
			      efficiencies ? CPUFREQ_RELATION_LE : CPUFREQ_RELATION_L);
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
static void hw_request_at(struct cpufreq_policy *policy, unsigned int freq, u64 when)
{
	policy->hw_target = freq;
	if (ev_queued(&policy->transition))
		return;
	sim_schedule(&policy->transition, when + policy->transition_latency_ns);
}

static void hw_request(struct cpufreq_policy *policy, unsigned int freq)
{
	hw_request_at(policy, freq, cpu_now());
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

/*
 * The driver's ->target() with a resolved frequency, from
 * __cpufreq_driver_target() (cpufreq_table.c: sugov_work(), the ondemand
 * and conservative work): cppc_cpufreq_set_target()'s cppc_set_perf()
 * rings the doorbell and polls until the platform has the request, time
 * the calling CPU spends waiting; then the transition notifier's
 * cpu_frequency event for each CPU of the policy.
 */
/* ->target() has returned: the transition notifier's cpu_frequency for each CPU */
static void driver_target_done(struct cpufreq_policy *policy, unsigned int freq)
{
	policy->cur = freq;
	for (unsigned int i = 0; i < policy->nr_cpus; i++)
		trace_sched(__trace_cpu_frequency(freq, policy->cpus[i]));
}

/*
 * send_pcc_cmd(CMD_WRITE) under pcc_lock's write side, which this CPU holds
 * from here to the completion: udelay() out the minimum request turnaround
 * after the channel's last completion, ring the doorbell (the platform
 * takes @policy's request, and any that joined this command) and poll
 * until the command completes. @batch: the release the command carries.
 */
static void pcc_send_cmd(struct cpufreq_policy *policy, unsigned int freq, u64 batch)
{
	struct pcc_channel *ch = policy->pcc;
	u64 ready = ch->used ? ch->last_cmd_cmpl_time + machine.cost->cpufreq_pcc_turnaround : 0;

	if (ready > cpu_now())
		charge_stall(ready - cpu_now());
	ch->doorbell_at = cpu_now();
	ch->busy_until = cpu_now() + machine.cost->cpufreq_target;
	ch->batch = batch;
	ch->nr_cmds++;
	hw_request(policy, freq);
	charge_stall(machine.cost->cpufreq_target);
	ch->last_cmd_cmpl_time = cpu_now();
	ch->used = true;
}

void cpufreq_driver_target(struct cpufreq_policy *policy, unsigned int freq)
{
	struct pcc_channel *ch = policy->pcc;

	policy->nr_requests++;
	if (!ch) {
		hw_request(policy, freq);
		charge_stall(machine.cost->cpufreq_target);
		driver_target_done(policy, freq);
		return;
	}
	/*
	 * cppc_set_perf() over PCC from the ondemand or conservative work:
	 * a command in flight holds pcc_lock, waited for here as a stall
	 * (the kworker would sleep; sugov:N does, in sugov_work())
	 */
	if (ch->busy_until > cpu_now())
		charge_stall(ch->busy_until - cpu_now());
	pcc_send_cmd(policy, freq, 0);
	driver_target_done(policy, freq);
}

bool cpufreq_fast_switch_possible(const struct cpufreq_desc *d, unsigned int nr_cpus)
{
	static const char *const slow[] = { "cppc_cpufreq", "cpufreq-dt", "scpi-cpufreq" };

	if (d->fast_switch != CPUFREQ_FAST_SWITCH_DRIVER)
		return d->fast_switch == CPUFREQ_FAST_SWITCH_YES;
	/*
	 * acpi-cpufreq: not for a policy shared under SW_ALL coordination,
	 * the common _PSD (SW_ANY allows it: say fast_switch = yes)
	 */
	if (!strcmp(d->driver, "acpi-cpufreq"))
		return nr_cpus == 1;
	/*
	 * cppc_cpufreq: only with the desired-performance register in
	 * SystemMemory or SystemIO (cppc_allow_fast_switch()), which sysfs does
	 * not show: PCC, as on Altra, unless the machine says; cpufreq-dt and
	 * scpi-cpufreq have no ->fast_switch
	 */
	for (size_t i = 0; i < sizeof(slow) / sizeof(slow[0]); i++)
		if (!strcmp(d->driver, slow[i]))
			return false;
	/* intel_cpufreq, amd-pstate, qcom-cpufreq-hw, ...: ->fast_switch always */
	return true;
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
 * effective_cpu_util(): fair plus RT plus DL utilisation (avg_dl),
 * measured on clock_task, scaled to the share the CPU's IRQ/steal
 * utilisation (avg_irq: a guest's steal, docs/guests.md) leaves and that
 * utilisation added; @min is at least avg_irq plus the DL bandwidth
 * (cpu_bw_dl()) and uclamp's minimum, or the capacity while an RT task
 * is runnable and uclamp is not
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
		/* the DL bandwidth, with the IRQ pressure that steals from it */
		*min = max(irq + cpu_bw_dl(rq), uclamp_rq_get(rq, UCLAMP_MIN));
		if (!uclamp_is_used() && rq->rt.rt_queued)
			*min = max(*min, scale);
	}
	util = util_cfs + cpu_util_rt(rq) + cpu_util_dl(rq);
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

/* sugov_get_util(): at least @boost, the iowait boost */
static void sugov_get_util(struct sugov_cpu *sg_cpu, unsigned long boost)
{
	unsigned long min, max, util;

	/* cpu_util_cfs_boost(): max(util, runnable) under UTIL_RUNNABLE_BOOST */
	util = cpu_util_cfs_boost(sg_cpu->cpu);
	util = effective_cpu_util(sg_cpu->cpu, util, &min, &max);
	util = max(util, boost);
	sg_cpu->bw_min = min;
	sg_cpu->util = sugov_effective_cpu_perf(util, min, max);
}

/*
 * sugov_iowait_reset(): a boost more than a tick old is dropped, or
 * restarts from IOWAIT_BOOST_MIN if this update asks for one (sporadic I/O
 * wakeups are not worth a higher frequency)
 */
static bool sugov_iowait_reset(struct sugov_cpu *sg_cpu, u64 time, bool set_iowait_boost)
{
	if ((s64)(time - sg_cpu->last_update) <= (s64)TICK_NSEC)
		return false;
	sg_cpu->iowait_boost = set_iowait_boost ? IOWAIT_BOOST_MIN : 0;
	sg_cpu->iowait_boost_pending = set_iowait_boost;
	return true;
}

/*
 * sugov_iowait_boost(): a wakeup from I/O (SCHED_CPUFREQ_IOWAIT) starts the
 * boost at IOWAIT_BOOST_MIN and doubles it, up to the full scale, once per
 * application (iowait_boost_pending)
 */
static void sugov_iowait_boost(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags)
{
	bool set_iowait_boost = flags & SCHED_CPUFREQ_IOWAIT;

	if (sg_cpu->iowait_boost && sugov_iowait_reset(sg_cpu, time, set_iowait_boost))
		return;
	if (!set_iowait_boost || sg_cpu->iowait_boost_pending)
		return;
	sg_cpu->iowait_boost_pending = true;
	if (sg_cpu->iowait_boost) {
		sg_cpu->iowait_boost =
			min(sg_cpu->iowait_boost << 1, (unsigned int)SCHED_CAPACITY_SCALE);
		return;
	}
	sg_cpu->iowait_boost = IOWAIT_BOOST_MIN;
}

/*
 * sugov_iowait_apply(): the boost in capacity units of @max_cap; an update
 * without a new request halves it, below IOWAIT_BOOST_MIN it is gone
 */
static unsigned long sugov_iowait_apply(struct sugov_cpu *sg_cpu, u64 time,
					unsigned long max_cap)
{
	if (!sg_cpu->iowait_boost)
		return 0;
	if (sugov_iowait_reset(sg_cpu, time, false))
		return 0;
	if (!sg_cpu->iowait_boost_pending) {
		sg_cpu->iowait_boost >>= 1;
		if (sg_cpu->iowait_boost < IOWAIT_BOOST_MIN) {
			sg_cpu->iowait_boost = 0;
			return 0;
		}
	}
	sg_cpu->iowait_boost_pending = false;
	return (sg_cpu->iowait_boost * max_cap) >> SCHED_CAPACITY_SHIFT;
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

/* the channel's command in flight ended (up_write(), or the doorbell waiters' wake_up_all()) */
static void sugov_pcc_wake(struct hrtimer *timer)
{
	struct sugov_worker *w = container_of(timer, struct sugov_worker, pcc_wake);

	wake_up_process(w->thread);
}

/* sugov:N sleeps until @until (its timer stands in for the waker) */
static void sugov_pcc_sleep(struct sugov_worker *w, struct task_struct *p, u64 until)
{
	if (!hrtimer_pending(&w->pcc_wake))
		hrtimer_start(&w->pcc_wake, until);
	p->__state = TASK_UNINTERRUPTIBLE;
	schedule();
}

/*
 * cppc_set_perf() over the package's PCC channel, from sugov:N, in its
 * phases: Phase I under pcc_lock's read side writes the desired
 * performance; Phase II, the last CPU out of Phase I, takes the write
 * side and sends one command for every request written (send_pcc_cmd()),
 * while the others sleep until it completes (pcc_write_wait_q). A request
 * that finds a command in flight sleeps in down_read() until its
 * up_write(); the readers woken there are granted the lock together
 * (rwsem_mark_wake()), so they form one batch: the first of them to run
 * sends the command, the others join it. The joiners' requests reach the
 * platform at its doorbell (or when they run, if later).
 */
static void sugov_pcc_target(struct sugov_worker *w, struct task_struct *p)
{
	struct cpufreq_policy *policy = w->policy;
	struct pcc_channel *ch = policy->pcc;
	u64 now = cpu_now();

	switch (w->pcc_state) {
	case SUGOV_PCC_CMD:
		/* waiting for the batch's command: done at its completion */
		if (now < w->pcc_until) {
			sugov_pcc_sleep(w, p, w->pcc_until);
			return;
		}
		w->pcc_state = SUGOV_PCC_NONE;
		driver_target_done(policy, w->pcc_freq);
		return;
	case SUGOV_PCC_LOCK:
		if (ch->busy_until > now && ch->batch == w->pcc_until) {
			/* released with the batch whose command is in flight: join it */
			policy->nr_requests++;
			ch->nr_joined++;
			hw_request_at(policy, w->pcc_freq, ch->doorbell_at > now ? ch->doorbell_at : now);
			w->pcc_state = SUGOV_PCC_CMD;
			w->pcc_until = ch->busy_until;
			sugov_pcc_sleep(w, p, w->pcc_until);
			return;
		}
		break;
	case SUGOV_PCC_NONE:
		break;
	}
	if (ch->busy_until > now) {
		/* down_read() behind the writer: asleep until its up_write() */
		if (w->pcc_state == SUGOV_PCC_NONE)
			ch->nr_waits++;
		w->pcc_state = SUGOV_PCC_LOCK;
		w->pcc_until = ch->busy_until;
		sugov_pcc_sleep(w, p, w->pcc_until);
		return;
	}
	/* the lock is free: this CPU sends the command (for its batch, if released with one) */
	policy->nr_requests++;
	pcc_send_cmd(policy, w->pcc_freq, w->pcc_state == SUGOV_PCC_LOCK ? w->pcc_until : 0);
	w->pcc_state = SUGOV_PCC_NONE;
	driver_target_done(policy, w->pcc_freq);
}

/* sugov_work(): on sugov:N, the latest request to the driver */
static void sugov_work(struct sugov_worker *w, struct task_struct *p)
{
	struct cpufreq_policy *policy = w->policy;
	unsigned int freq;

	/* under update_lock: a request from now on queues the irq_work again */
	freq = policy->sg.next_freq;
	policy->sg.work_in_progress = false;
	w->nr_work++;
	/* work_lock: uncontended (its other user, a limits change, is not modelled) */
	if (!policy->pcc) {
		__cpufreq_driver_target(policy, freq, CPUFREQ_RELATION_L);
		return;
	}
	/* __cpufreq_driver_target(): cppc_cpufreq is asked even for an unchanged target */
	w->pcc_freq = __resolve_freq(policy, freq, policy->min, policy->max, CPUFREQ_RELATION_L);
	sugov_pcc_target(w, p);
}

/* kthread_worker_fn(): run the queued work, else sleep until kthread_queue_work() */
static void sugov_worker_step(struct task_struct *p)
{
	struct sugov_worker *w = p->exec_data;

	/* asleep in the driver: a wakeup before the channel's sleeps again */
	if (w->pcc_state != SUGOV_PCC_NONE) {
		sugov_pcc_target(w, p);
		return;
	}
	if (w->work_queued) {
		w->work_queued = false;
		sugov_work(w, p);
		return;
	}
	p->__state = TASK_INTERRUPTIBLE;
	schedule();
}

static const struct task_exec sugov_worker_exec = { .step = sugov_worker_step };

/* sugov_irq_work() -> kthread_queue_work(): on the worker's list, the worker woken */
static void sugov_irq_work(struct irq_work *irq_work)
{
	struct sugov_worker *w = container_of(irq_work, struct sugov_worker, irq_work);

	if (w->work_queued)
		return;
	w->work_queued = true;
	wake_up_process(w->thread);
}

/*
 * sugov_deferred_update(): one request in flight at a time; a newer
 * next_freq meanwhile is what sugov_work() will read
 */
static void sugov_deferred_update(struct cpufreq_policy *policy)
{
	struct sugov_policy *sg = &policy->sg;

	if (sg->work_in_progress)
		return;
	sg->work_in_progress = true;
	/* irq_work_queue(): this CPU's own interrupt (arch_irq_work_raise()) */
	irq_work_queue_on(&sg->worker->irq_work, smp_processor_id());
}

/* the request a governor's update made: fast switch, or the slow path */
static void sugov_commit(struct cpufreq_policy *policy, unsigned int next_f)
{
	if (policy->fast_switch_enabled)
		cpufreq_driver_fast_switch(policy, next_f);
	else
		sugov_deferred_update(policy);
}

static void sugov_update_single_freq(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags)
{
	struct cpufreq_policy *policy = sg_cpu->policy;
	unsigned int cached_freq = policy->sg.cached_raw_freq;
	unsigned long max_cap = arch_scale_cpu_capacity(sg_cpu->cpu);
	unsigned int next_f;

	/* sugov_update_single_common() */
	sugov_iowait_boost(sg_cpu, time, flags);
	sg_cpu->last_update = time;
	if (!sugov_should_update_freq(policy, time))
		return;
	charge(machine.cost->sugov_update);
	sugov_get_util(sg_cpu, sugov_iowait_apply(sg_cpu, time, max_cap));

	next_f = get_next_freq(policy, sg_cpu->util, max_cap);
	if (sugov_hold_freq(sg_cpu) && next_f < policy->sg.next_freq &&
	    !policy->sg.need_freq_update) {
		next_f = policy->sg.next_freq;
		policy->sg.cached_raw_freq = cached_freq;
	}
	if (!sugov_update_next_freq(policy, time, next_f))
		return;
	sugov_commit(policy, next_f);
}

/* sugov_next_freq_shared(): the most any CPU of the policy asks for */
static unsigned int sugov_next_freq_shared(struct sugov_cpu *sg_cpu, u64 time)
{
	struct cpufreq_policy *policy = sg_cpu->policy;
	unsigned long util = 0, max_cap = arch_scale_cpu_capacity(sg_cpu->cpu);

	for (unsigned int i = 0; i < policy->nr_cpus; i++) {
		struct sugov_cpu *j = &sugov_cpus[policy->cpus[i]];

		cl_read(&cpu_rq(j->cpu)->cl.cpufreq);
		sugov_get_util(j, sugov_iowait_apply(j, time, max_cap));
		if (j->util > util)
			util = j->util;
	}
	return get_next_freq(policy, util, max_cap);
}

static void sugov_update_shared(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags)
{
	struct cpufreq_policy *policy = sg_cpu->policy;
	unsigned int next_f;

	sugov_iowait_boost(sg_cpu, time, flags);
	sg_cpu->last_update = time;
	if (!sugov_should_update_freq(policy, time))
		return;
	charge(machine.cost->sugov_update);
	next_f = sugov_next_freq_shared(sg_cpu, time);
	if (!sugov_update_next_freq(policy, time, next_f))
		return;
	sugov_commit(policy, next_f);
}

void cpufreq_update_util_hook(struct rq *rq, unsigned int flags)
{
	struct sugov_cpu *sg_cpu = &sugov_cpus[cpu_of(rq)];
	struct cpufreq_policy *policy = sg_cpu->policy;

	if (dbs_governor(cur_setup.governor)) {
		dbs_update_util_handler(rq, rq->clock);
		return;
	}
	if (!cpufreq_this_cpu_can_update(policy))
		return;
	if (policy->nr_cpus > 1)
		sugov_update_shared(sg_cpu, rq->clock, flags);
	else
		sugov_update_single_freq(sg_cpu, rq->clock, flags);
}

void cpufreq_idle_enter(unsigned int cpu)
{
	if (idle_calls)
		idle_calls[cpu]++;
}

/* ---- policies and governors ---- */

/*
 * sugov_kthread_create(): only for the slow path; allowed on the policy's
 * CPUs (kthread_bind_mask(), or set_cpus_allowed_ptr() with
 * dvfs_possible_from_any_cpu: the same mask), asleep until the first work
 */
static void sugov_kthread_create(struct cpufreq_policy *policy)
{
	struct sugov_worker *w = xcalloc(1, sizeof(*w));
	struct cpumask *related = alloc_cpumask();
	char comm[16];

	for (unsigned int i = 0; i < policy->nr_cpus; i++)
		cpumask_set_cpu(policy->cpus[i], related);
	snprintf(comm, sizeof(comm), "sugov:%u", policy->cpu);
	w->policy = policy;
	w->irq_work.func = sugov_irq_work;
	hrtimer_init(&w->pcc_wake, sugov_pcc_wake);
	w->thread = sched_create_dl_kthread(comm, policy->cpu, related, &sugov_worker_exec, w,
					    SUGOV_DL_RUNTIME_NS, SUGOV_DL_DEADLINE_NS,
					    SUGOV_DL_PERIOD_NS, SCHED_FLAG_SUGOV);
	free_cpumask(related);
	policy->sg.worker = w;
}

const struct sugov_cpu *sugov_cpu_of(unsigned int cpu)
{
	return &sugov_cpus[cpu];
}

struct task_struct *sugov_thread(const struct cpufreq_policy *policy)
{
	return policy->sg.worker ? policy->sg.worker->thread : NULL;
}

u64 sugov_nr_work(const struct cpufreq_policy *policy)
{
	return policy->sg.worker ? policy->sg.worker->nr_work : 0;
}

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
	/* cpufreq_enable_fast_switch(): as the driver allows, for its policy's size */
	for (unsigned int i = 0; i < nr_cpufreq_policies; i++)
		cpufreq_policies[i].fast_switch_enabled =
			cpufreq_fast_switch_possible(&t->cpufreq, cpufreq_policies[i].nr_cpus);
	/* cppc_cpufreq without fast switch: its registers behind the package's PCC subspace */
	pcc_channels = xcalloc(nr, sizeof(*pcc_channels));
	for (unsigned int i = 0; i < nr_cpufreq_policies; i++)
		if (!strcmp(t->cpufreq.driver, "cppc_cpufreq") &&
		    !cpufreq_policies[i].fast_switch_enabled)
			cpufreq_policies[i].pcc =
				&pcc_channels[t->cpus[cpufreq_policies[i].cpu].package % nr];

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
			sg->work_in_progress = false;
			if (!policy->fast_switch_enabled)
				sugov_kthread_create(policy);
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
	for (unsigned int i = 0; i < nr_cpufreq_policies; i++) {
		free(cpufreq_policies[i].cpus);
		/* its thread is freed with the other tasks (sched_exit()) */
		free(cpufreq_policies[i].sg.worker);
	}
	free(cpufreq_policies);
	cpufreq_policies = NULL;
	nr_cpufreq_policies = 0;
	free(pcc_channels);
	pcc_channels = NULL;
	free(policy_of);
	policy_of = NULL;
	free(sugov_cpus);
	sugov_cpus = NULL;
	free(idle_calls);
	idle_calls = NULL;
	cpufreq_hooks_active = false;
	cpufreq_boot_setup = (struct cpufreq_setup){ .governor = CPUFREQ_GOV_PERFORMANCE };
}
