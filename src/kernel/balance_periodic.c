// SPDX-License-Identifier: GPL-2.0-only
/*
 * When balancing happens (kernel/sched/fair.c line of thought, v6.18):
 * the tick raises the SCHED softirq when rq->next_balance is due and kicks
 * the idle load balancer; the softirq runs sched_balance_domains() (per-
 * domain intervals, busy_factor, SD_SERIALIZE) or, on the kicked idle CPU,
 * nohz idle balancing on behalf of every tickless idle CPU whose balance is
 * due; a CPU about to go idle runs sched_balance_newidle(), limited by its
 * measured cost.
 */
#include "kernel/fair_lb.h"
#include "kernel/sched.h"

#include "kernel/funclat.h"
#include "kernel/trace.h"

#include <stdlib.h>

/* the nohz idle-balance state (the kernel's `nohz` struct) */
static struct {
	struct cpumask *idle_cpus_mask;
	unsigned int nr_cpus;
	bool has_blocked_load;
	bool needs_update;
	unsigned long next_balance;	/* jiffies */
	unsigned long next_blocked;	/* jiffies */
	/* the struct and the idle mask's bits: written at every tick stop/restart */
	struct cache_line line;
} nohz;

/* only one CPU balances SD_SERIALIZE (NUMA) domains at a time */
static bool sched_balance_running;

/* NI_RANDOM's draws: one kernel stream, consumed in event order */
static struct prng ni_random;

void sched_balance_init(void)
{
	nohz.idle_cpus_mask = alloc_cpumask();
	cache_line_init(&nohz.line, 2);
	nohz.nr_cpus = 0;
	nohz.has_blocked_load = false;
	nohz.needs_update = false;
	nohz.next_balance = 0;
	nohz.next_blocked = 0;
	sched_balance_running = false;
	prng_init(&ni_random, machine.seed, PRNG_STREAM_KERNEL);
}

void sched_balance_exit(void)
{
	free_cpumask(nohz.idle_cpus_mask);
	nohz.idle_cpus_mask = NULL;
	balance_masks_free();
}

/* ------------------------------------------------------------------ */
/* newidle cost bookkeeping                                            */

/*
 * v6.19's proportional newidle balance keeps per-domain call and success
 * counts; every 1024 calls the success count becomes the ratio (out of
 * 1024) and both halve.
 */
static void update_newidle_stats(struct sched_domain *sd, unsigned int success)
{
	sd->newidle_call++;
	sd->newidle_success += success;
	if (sd->newidle_call >= 1024) {
		sd->newidle_ratio = sd->newidle_success;	/* v6.19: no clamp (one came later) */
		sd->newidle_call /= 2;
		sd->newidle_success /= 2;
	}
}

/* returns true when the max was decayed (a regular visit to the domain) */
static bool update_newidle_cost(struct sched_domain *sd, u64 cost, unsigned int success)
{
	if (sched_feat(NI_RANDOM) && cost)
		update_newidle_stats(sd, success);
	if (cost > sd->max_newidle_lb_cost) {
		/*
		 * v6.18 bumps the cost of a failed newidle balance (below), so it
		 * caps the max at migration_cost + 200 ns; v6.19 (NI_RANDOM)
		 * dropped both.
		 */
		if (!sched_feat(NI_RANDOM))
			cost = min(cost, sysctl_sched.migration_cost_ns + NEWIDLE_COST_CAP_SLACK_NS);
		sd->max_newidle_lb_cost = cost;
		sd->last_decay_max_lb_cost = jiffies;
	} else if (time_after(jiffies, sd->last_decay_max_lb_cost + sysctl_sched.hz)) {
		/* about 1% a second, so an old maximum does not hold forever */
		sd->max_newidle_lb_cost =
			(sd->max_newidle_lb_cost * NEWIDLE_COST_DECAY_NUM) / NEWIDLE_COST_DECAY_DEN;
		sd->last_decay_max_lb_cost = jiffies;
		return true;
	}
	return false;
}

static unsigned long get_sd_balance_interval(struct sched_domain *sd, bool cpu_busy)
{
	unsigned long interval = sd->balance_interval;
	unsigned long max_interval = sysctl_sched.hz * machine.nr_cpus / 10;

	if (cpu_busy)
		interval *= sd->busy_factor;
	interval = msecs_to_jiffies(interval);
	/* keep busy intervals of different levels from being multiples of each other */
	if (cpu_busy)
		interval -= 1;
	return clamp(interval, 1UL, max(max_interval, 1UL));
}

/* ------------------------------------------------------------------ */
/* periodic balancing                                                  */

static void __sched_balance_domains(struct rq *rq, enum cpu_idle_type idle)
{
	int continue_balancing = 1;
	unsigned int cpu = cpu_of(rq);
	/* a CPU running only SCHED_IDLE tasks balances at idle intervals (323af6deaf70) */
	bool busy = idle != CPU_IDLE && !sched_idle_cpu(cpu);
	unsigned long interval, next_balance = jiffies + 60 * sysctl_sched.hz;
	bool update_next_balance = false, need_decay = false;
	u64 max_cost = 0;
	struct sched_domain *sd;

	for_each_domain(cpu, sd) {
		bool need_serialize;

		/* the newidle maxima decay on these regular visits */
		need_decay = update_newidle_cost(sd, 0, 0);
		max_cost += sd->max_newidle_lb_cost;
		/* another CPU of our group balances this level more actively */
		if (!continue_balancing) {
			if (need_decay)
				continue;
			break;
		}
		interval = get_sd_balance_interval(sd, busy);
		if (time_after_eq(jiffies, sd->last_balance + interval)) {
			need_serialize = sd->flags & SD_SERIALIZE;
			if (need_serialize) {
				if (sched_balance_running)
					goto out;
				sched_balance_running = true;
			}
			if (sched_balance_rq(cpu, rq, sd, idle, &continue_balancing)) {
				/* we pulled: our idle state may have changed */
				idle = idle_cpu(cpu) ? CPU_IDLE : CPU_NOT_IDLE;
				busy = idle != CPU_IDLE && !sched_idle_cpu(cpu);
			}
			sd->last_balance = jiffies;
			interval = get_sd_balance_interval(sd, busy);
			if (need_serialize)
				sched_balance_running = false;
		}
out:
		if (time_after(next_balance, sd->last_balance + interval)) {
			next_balance = sd->last_balance + interval;
			update_next_balance = true;
		}
	}
	if (need_decay)
		rq->max_idle_balance_cost = max(sysctl_sched.migration_cost_ns, max_cost);
	if (update_next_balance)
		rq->next_balance = next_balance;
}

static void sched_balance_domains(struct rq *rq, enum cpu_idle_type idle)
{
	u64 t0 = funclat_entry(FL_sched_balance_domains);

	__sched_balance_domains(rq, idle);
	funclat_exit(FL_sched_balance_domains, t0);
}

/* ------------------------------------------------------------------ */
/* nohz: idle CPUs without a tick are balanced by an idle load balancer */

static void set_cpu_sd_state_busy(unsigned int cpu)
{
	struct sched_domain *sd = per_cpu(sd_llc, cpu);

	if (!sd || !sd->nohz_idle)
		return;
	sd->nohz_idle = 0;
	if (per_cpu(sd_llc_shared, cpu))
		per_cpu(sd_llc_shared, cpu)->nr_busy_cpus++;
}

static void set_cpu_sd_state_idle(unsigned int cpu)
{
	struct sched_domain *sd = per_cpu(sd_llc, cpu);

	if (!sd || sd->nohz_idle)
		return;
	sd->nohz_idle = 1;
	if (per_cpu(sd_llc_shared, cpu))
		per_cpu(sd_llc_shared, cpu)->nr_busy_cpus--;
}

void nohz_balance_enter_idle(struct rq *rq)
{
	unsigned int cpu = cpu_of(rq);

	/* on a null domain (a 1-CPU machine) there is nobody to balance with */
	if (!cpu_sd(cpu))
		return;
	if (rq->nohz_tick_stopped)
		goto out;
	rq->nohz_tick_stopped = true;
	cl_write(&nohz.line);
	cpumask_set_cpu(cpu, nohz.idle_cpus_mask);
	nohz.nr_cpus++;
	set_cpu_sd_state_idle(cpu);
	nohz.needs_update = true;
out:
	/* the blocked load of this CPU wants periodic updates (WRITE_ONCE: every time) */
	cl_write(&nohz.line);
	nohz.has_blocked_load = true;
}

static void nohz_balance_exit_idle(struct rq *rq)
{
	if (!rq->nohz_tick_stopped)
		return;
	rq->nohz_tick_stopped = false;
	cl_write(&nohz.line);
	cpumask_clear_cpu(cpu_of(rq), nohz.idle_cpus_mask);
	nohz.nr_cpus--;
	set_cpu_sd_state_busy(cpu_of(rq));
}

static int find_new_ilb(void)
{
	unsigned int ilb_cpu;

	for_each_cpu(ilb_cpu, nohz.idle_cpus_mask) {
		if (ilb_cpu == smp_processor_id())
			continue;
		if (idle_cpu(ilb_cpu))
			return (int)ilb_cpu;
	}
	return -1;
}

/* send the idle load balancer its work with a call-function IPI */
static void kick_ilb(unsigned int flags)
{
	const struct cost_model *cost = machine.cost;
	int ilb_cpu;
	struct rq *ilb_rq;

	if (flags & NOHZ_BALANCE_KICK)
		nohz.next_balance = jiffies + 1;
	ilb_cpu = find_new_ilb();
	if (ilb_cpu < 0)
		return;
	ilb_rq = cpu_rq((unsigned int)ilb_cpu);
	if ((ilb_rq->nohz_flags & flags) == flags)
		return;
	/* whoever sets the first kick bit sends the IPI */
	if (ilb_rq->nohz_flags & NOHZ_KICK_MASK) {
		ilb_rq->nohz_flags |= flags;
		return;
	}
	ilb_rq->nohz_flags |= flags;
	/* kick_ilb(): smp_call_function_single_async() */
	trace_sched(__trace_ipi_send_cpu((unsigned int)ilb_cpu, TRACE_IPI_CALL_FUNC,
					 TRACE_SITE_GENERIC_EXEC_SINGLE));
	charge(cost->ipi_send + cost->guest_ipi_exit);
	this_rq()->ipi_sent++;
	if (!ev_queued(&ilb_rq->csd_ev))
		sim_schedule(&ilb_rq->csd_ev,
			     cpu_now() + cost->ipi_latency[cpu_dist(smp_processor_id(),
								   (unsigned int)ilb_cpu)]);
}

static void nohz_balancer_kick(struct rq *rq)
{
	unsigned long now = jiffies;
	unsigned int cpu = cpu_of(rq), flags = 0;
	struct sched_domain_shared *sds;
	struct sched_domain *sd;

	if (rq->idle_balance)
		return;
	/* the first busy tick after idle updates the busy counts */
	nohz_balance_exit_idle(rq);
	cl_read(&nohz.line);
	if (!nohz.nr_cpus)
		return;
	if (nohz.has_blocked_load && time_after(now, nohz.next_blocked))
		flags = NOHZ_STATS_KICK;
	if (time_before(now, nohz.next_balance))
		goto out;
	if (rq->nr_running >= 2) {
		flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		goto out;
	}
	sd = cpu_sd(cpu);
	if (sd && rq->cfs.h_nr_runnable >= 1 && check_cpu_capacity(rq, sd)) {
		flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		goto out;
	}
	sd = per_cpu(sd_asym_packing, cpu);
	if (sd) {
		unsigned int i;

		/* a preferred CPU is idle (between cores: its whole core): pack onto it */
		for_each_cpu_and(i, sched_domain_span(sd), nohz.idle_cpus_mask) {
			if (sched_asym(sd, i, cpu)) {
				flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
				goto out;
			}
		}
	}
	if (per_cpu(sd_asym_cpucapacity, cpu)) {
		/* with asymmetric capacities only misfits matter */
		if (rq->misfit_task_load)
			flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		goto out;
	}
	sds = per_cpu(sd_llc_shared, cpu);
	/* more than one busy CPU in our LLC: maybe something an idle CPU could take */
	if (sds && sds->nr_busy_cpus > 1)
		flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
out:
	if (nohz.needs_update)
		flags |= NOHZ_NEXT_KICK;
	if (flags)
		kick_ilb(flags);
}

/*
 * Balance on behalf of every tickless idle CPU whose balance is due. The
 * loop yields after each CPU it balanced (its step is queued at its
 * cursor) and is resumed there; returns true if it yielded.
 */
static bool _nohz_idle_balance(struct rq *this_rq)
{
	unsigned int this_cpu = cpu_of(this_rq), balance_cpu;
	unsigned int flags = this_rq->ilb.flags;

	while (this_rq->ilb.n < machine.nr_cpus) {
		struct rq *rq;
		bool balanced = false;

		/* start after this CPU so this CPU comes last */
		balance_cpu = (this_cpu + 1 + this_rq->ilb.n++) % machine.nr_cpus;
		if (!cpumask_test_cpu(balance_cpu, nohz.idle_cpus_mask))
			continue;
		charge(machine.cost->lb_cpu_visit);
		read_rq_state(balance_cpu);
		if (!idle_cpu(balance_cpu))
			continue;
		/* we got work ourselves: leave the rest to the next ILB */
		if (!idle_cpu(this_cpu) && this_rq->need_resched) {
			if (flags & NOHZ_STATS_KICK)
				this_rq->ilb.has_blocked_load = true;
			if (flags & NOHZ_NEXT_KICK)
				nohz.needs_update = true;
			goto abort;
		}
		rq = cpu_rq(balance_cpu);
		/* v3.x: update_idle_cpu_load() before balancing for it */
		update_idle_cpu_load(rq);
		if (flags & NOHZ_STATS_KICK)
			update_blocked_averages(balance_cpu);
		if (time_after_eq(jiffies, rq->next_balance)) {
			rq_lock(rq);
			update_rq_clock(rq);
			rq_unlock(rq);
			if (flags & NOHZ_BALANCE_KICK) {
				sched_balance_domains(rq, CPU_IDLE);
				balanced = true;
			}
		}
		if (time_after(this_rq->ilb.next_balance, rq->next_balance)) {
			this_rq->ilb.next_balance = rq->next_balance;
			this_rq->ilb.update_next_balance = true;
		}
		if (balanced && this_rq->ilb.n < machine.nr_cpus && cpu_now() > machine.now) {
			cpu_step_at_cursor(this_rq);
			return true;
		}
	}
	if (this_rq->ilb.update_next_balance)
		nohz.next_balance = this_rq->ilb.next_balance;
	if (flags & NOHZ_STATS_KICK)
		nohz.next_blocked = this_rq->ilb.now + msecs_to_jiffies(LOAD_AVG_PERIOD);
abort:
	if (this_rq->ilb.has_blocked_load)
		nohz.has_blocked_load = true;
	this_rq->ilb.active = false;
	return false;
}

static bool nohz_idle_balance(struct rq *this_rq)
{
	unsigned int flags = this_rq->nohz_flags;

	this_rq->nohz_flags = 0;
	if (!(flags & NOHZ_KICK_MASK))
		return false;
	this_rq->ilb.active = true;
	this_rq->ilb.flags = flags;
	this_rq->ilb.n = 0;
	this_rq->ilb.now = jiffies;
	this_rq->ilb.next_balance = jiffies + 60 * sysctl_sched.hz;
	this_rq->ilb.update_next_balance = false;
	this_rq->ilb.has_blocked_load = false;
	nohz.has_blocked_load = false;
	nohz.needs_update = false;
	_nohz_idle_balance(this_rq);
	return true;
}

bool nohz_idle_balance_resume(struct rq *rq)
{
	return _nohz_idle_balance(rq);
}

/* the kick's IPI handler on the idle load balancer */
void nohz_csd_func(struct rq *rq)
{
	rq->idle_balance = idle_cpu(cpu_of(rq));
	rq->balance_softirq = true;
}

/* ------------------------------------------------------------------ */
/* the tick's trigger and the softirq                                  */

void sched_balance_trigger(struct rq *rq)
{
	if (!cpu_sd(cpu_of(rq)))
		return;
	if (time_after_eq(jiffies, rq->next_balance))
		rq->balance_softirq = true;
	nohz_balancer_kick(rq);
}

void sched_balance_softirq(struct rq *rq)
{
	enum cpu_idle_type idle = rq->idle_balance ? CPU_IDLE : CPU_NOT_IDLE;

	charge(machine.cost->softirq);
	/* idle CPUs first: if we pulled for ourselves first we might skip them */
	if (nohz_idle_balance(rq))
		return;
	update_blocked_averages(cpu_of(rq));
	sched_balance_domains(rq, idle);
}

/* ------------------------------------------------------------------ */
/* newidle balancing                                                   */

static void update_next_balance(struct sched_domain *sd, unsigned long *next_balance)
{
	unsigned long interval = get_sd_balance_interval(sd, false), next = sd->last_balance + interval;

	if (time_after(*next_balance, next))
		*next_balance = next;
}

/*
 * The 2013 RFC (NEWIDLE_RATE_LIMIT): the average time between idle balance
 * attempts on this CPU, updated like avg_idle; below the limit, skip.
 */
static bool idle_balance_too_frequent(struct rq *this_rq)
{
	u64 now = cpu_now();

	if (this_rq->idle_balance_seen) {
		u64 delta = now - this_rq->last_idle_balance;
		s64 avg = (s64)this_rq->avg_idle_balance_interval;

		avg += ((s64)delta - avg) / SCHED_UPDATE_AVG_DIV;
		this_rq->avg_idle_balance_interval = (u64)avg;
	} else {
		this_rq->avg_idle_balance_interval = sysctl_sched.sched_idle_balance_limit_ns;
	}
	this_rq->last_idle_balance = now;
	this_rq->idle_balance_seen = true;
	return this_rq->avg_idle_balance_interval < sysctl_sched.sched_idle_balance_limit_ns;
}

static int __sched_balance_newidle(struct rq *this_rq)
{
	unsigned long next_balance = jiffies + sysctl_sched.hz;
	unsigned int this_cpu = cpu_of(this_rq);
	int continue_balancing = 1, pulled_task = 0;
	u64 t0, t1, curr_cost = 0;
	struct sched_domain *sd;
	bool too_frequent;

	update_misfit_status(NULL, this_rq);
	/* a wakeup is on its way: no need to look for work */
	if (this_rq->ttwu_pending)
		return 0;
	/* idle time starts now, balancing included */
	this_rq->idle_stamp = this_rq->clock;

	sd = cpu_sd(this_cpu);
	/* the RFC counts every attempt, whatever else bails out */
	too_frequent = sched_feat(NEWIDLE_RATE_LIMIT) && idle_balance_too_frequent(this_rq);
	/*
	 * Nothing to pull while no CPU has a second task: v3.17 and later skip
	 * the walk (NEWIDLE_OVERLOAD_CHECK); v3.16 and before walked anyway,
	 * every domain of an all but idle machine on every idle entry
	 */
	if ((sched_feat(NEWIDLE_OVERLOAD_CHECK) && !cpu_rd(this_cpu)->overloaded) ||
	    (sd && sched_feat(NEWIDLE_COST) && this_rq->avg_idle < sd->max_newidle_lb_cost) ||
	    (sched_feat(NEWIDLE_MIGRATION_COST_BAILOUT) &&
	     this_rq->avg_idle < sysctl_sched.migration_cost_ns) ||
	    too_frequent) {
		if (sd)
			update_next_balance(sd, &next_balance);
		goto out;
	}

	/* our rq lock is dropped while we look at other runqueues */
	rq_unlock(this_rq);
	t0 = cpu_now();
	update_blocked_averages(this_cpu);
	for_each_domain(this_cpu, sd) {
		u64 domain_cost;

		update_next_balance(sd, &next_balance);
		if (sched_feat(NEWIDLE_COST) && this_rq->avg_idle < curr_cost + sd->max_newidle_lb_cost)
			break;
		if (sd->flags & SD_BALANCE_NEWIDLE) {
			unsigned int weight = 1;

			if (sched_feat(NI_RANDOM)) {
				/*
				 * v6.19: a 1024-sided die; balance this level in
				 * proportion to its success ratio, and count a
				 * success as 1024/(1 + ratio) of them, the
				 * attempts it stands for.
				 */
				weight = 1 + sd->newidle_ratio;
				if (prng_below(&ni_random, 1024) > weight) {
					update_newidle_stats(sd, 0);
					continue;
				}
				weight = (1024 + weight / 2) / weight;
			}
			pulled_task = sched_balance_rq(this_cpu, this_rq, sd, CPU_NEWLY_IDLE,
						       &continue_balancing);
			t1 = cpu_now();
			domain_cost = t1 - t0;
			curr_cost += domain_cost;
			t0 = t1;
			/* v6.18: a failed newidle balance is not effective; look less often */
			if (!sched_feat(NI_RANDOM) && !pulled_task)
				domain_cost = (3 * sd->max_newidle_lb_cost) / 2;
			update_newidle_cost(sd, domain_cost, weight * !!pulled_task);
		}
		/* stop once there is something to run here */
		if (pulled_task || !continue_balancing)
			break;
	}
	rq_lock(this_rq);
	if (curr_cost > this_rq->max_idle_balance_cost)
		this_rq->max_idle_balance_cost = curr_cost;
	/* a task arrived while the lock was dropped: not going idle either */
	if (this_rq->cfs.h_nr_queued && !pulled_task)
		pulled_task = 1;
out:
	if (time_after(this_rq->next_balance, next_balance))
		this_rq->next_balance = next_balance;
	if (pulled_task)
		this_rq->idle_stamp = 0;
	return pulled_task;
}

int sched_balance_newidle(struct rq *this_rq)
{
	u64 t0 = funclat_entry(FL_sched_balance_newidle);
	int ret = __sched_balance_newidle(this_rq);

	funclat_exit(FL_sched_balance_newidle, t0);
	return ret;
}
