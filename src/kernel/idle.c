// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idle class and the idle loop (kernel/sched/idle.c, cpuidle_idle_call()
 * and the cpuidle core's select/reflect calls, line of thought).
 *
 * An idle CPU enters the idle state a governor picks from the machine's
 * states (POLL, C1, C6, WFI, snooze, CEDE, ...), passing over the states
 * --idle-states disabled (cpuidle_ctl.c). The governor is the run's
 * --cpuidle choice: menu (the default) or teo as v6.18 has them
 * (cpuidle_menu.c, cpuidle_teo.c), which also say whether the tick stops
 * (when it stays, the CPU takes its tick in idle and chooses again after
 * it, and does not join the nohz idle mask), or schedlab's own `avg`: the
 * deepest state whose target residency fits an average of this CPU's
 * recent idle periods, the tick always stopped, the CPU in the nohz idle
 * mask. A machine with one idle state has nothing to choose: it enters it
 * with the tick stopped whatever the choice, as a kernel without a cpuidle
 * driver does (default_idle_call()). A haltpoll guest runs haltpoll
 * whatever the choice. Leaving a state costs its exit latency, unless the
 * wakeup came before the state was entered. In states that keep
 * TIF_POLLING_NRFLAG (polling loops, x86 MWAIT) a remote CPU wakes it by
 * setting need_resched; in the others it takes an IPI. A CPU polls no
 * longer than cpuidle_poll_time() allows, then the governor chooses again
 * without the poll state.
 */
#include "kernel/sched.h"
#include "kernel/trace.h"
#include "sim/cache.h"
#include "sim/halt_poll.h"

void tick_stop_idle(struct rq *rq);
void tick_retain_idle(struct rq *rq);
void idle_tick_restart(struct rq *rq);

/* set_next_task_idle(): idle from now (the fair server counts idle time from here) */
static void set_next_task_idle(struct rq *rq, struct task_struct *next)
{
	next->se.exec_start = rq->clock_task;
}

/* put_prev_task_idle(): the idle time counts against the fair server's runtime */
void put_prev_task_idle(struct rq *rq, struct task_struct *prev)
{
	dl_server_update_idle_time(rq, prev);
}

struct task_struct *pick_next_task_idle(struct rq *rq, struct task_struct *prev)
{
	if (prev != rq->idle)
		set_next_task_idle(rq, rq->idle);
	return rq->idle;
}

/* CPUIDLE_FLAG_POLLING (cpuidle_gov.h) */
static bool is_poll_state(const struct idle_state *st)
{
	const struct cpuidle_view v = { .states = st, .state_count = 1 };

	return st_polling(&v, 0);
}

static bool state_disabled(const struct rq *rq, unsigned int idx)
{
	return rq->idle_state_disable & (1U << idx);
}

/* a KVM guest with cpuidle-haltpoll: its states are POLL (0) and halt (1) */
static bool haltpoll_guest(void)
{
	return machine.topo->guest.kvm && machine.topo->guest.cpuidle == GUEST_IDLE_HALTPOLL;
}

/*
 * haltpoll_select(): halt when the poll limit has shrunk to nothing or the
 * last poll ran out; otherwise poll (for rq->poll_limit_ns). A disabled
 * state is passed over to the other (cpuidle's stateK/disable).
 */
static int haltpoll_select(struct rq *rq)
{
	int idx = 0;

	if (!rq->poll_limit_ns || (rq->last_state_idx == 0 && rq->poll_time_limit))
		idx = 1;
	if (state_disabled(rq, (unsigned int)idx) && !state_disabled(rq, (unsigned int)!idx))
		idx = !idx;
	return idx;
}

/*
 * guest_halt_poll_* of drivers/cpuidle/governors/haltpoll.c, their
 * defaults; guest_halt_poll_ns is the machine's (guest_halt_poll_ns())
 */
#define GUEST_HALT_POLL_GROW 2
#define GUEST_HALT_POLL_SHRINK 2
#define GUEST_HALT_POLL_GROW_START 50000

/*
 * adjust_poll_limit(): a halt that a poll of up to guest_halt_poll_ns
 * would have caught grows the limit (doubling from GROW_START); a longer
 * one shrinks it (halving, to 0 below GROW_START).
 */
static void haltpoll_reflect(struct rq *rq, int idx, u64 block_ns)
{
	u64 val, max_ns = guest_halt_poll_ns(&machine.topo->guest);

	rq->last_state_idx = idx;
	if (idx == 0)
		return;
	if (block_ns > rq->poll_limit_ns && block_ns <= max_ns) {
		val = rq->poll_limit_ns * GUEST_HALT_POLL_GROW;
		val = clamp(val, (u64)GUEST_HALT_POLL_GROW_START, max_ns);
		rq->poll_limit_ns = val;
	} else if (block_ns > max_ns) {
		val = rq->poll_limit_ns / GUEST_HALT_POLL_SHRINK;
		rq->poll_limit_ns = val < GUEST_HALT_POLL_GROW_START ? 0 : val;
	}
}

/*
 * The deepest enabled state whose target residency fits the predicted
 * idle time, else the shallowest enabled one; with every state disabled,
 * state 0, as menu and teo fall back to.
 */
static int governor_select(struct rq *rq, bool no_poll)
{
	const struct topology *t = machine.topo;
	u64 predicted = rq->idle_duration_avg;
	int idx = -1, first = -1;

	if (haltpoll_guest())
		return haltpoll_select(rq);

	for (unsigned int i = 0; i < t->nr_idle_states; i++) {
		const struct idle_state *st = &t->idle_states[i];

		if (state_disabled(rq, i))
			continue;
		if (first < 0)
			first = (int)i;
		if (no_poll && is_poll_state(st))
			continue;
		if (idx < 0 || st->target_residency_ns <= predicted)
			idx = (int)i;
	}
	if (idx < 0 && t->nr_idle_states)
		idx = first < 0 ? 0 : first;
	return idx;
}

/*
 * menu or teo run: chosen, on a machine with idle states to choose between,
 * not in a haltpoll guest
 */
bool cpuidle_gov_decides_tick(void)
{
	return cpuidle_governor != CPUIDLE_GOV_AVG && machine.topo->nr_idle_states > 1 &&
	       !haltpoll_guest();
}

void cpuidle_gov_init(struct rq *rq)
{
	rq->cpuidle_dev = (struct cpuidle_device){ .last_state_idx = -1 };
	if (cpuidle_governor == CPUIDLE_GOV_MENU)
		menu_enable_device(&rq->cpuidle_gov.menu);
	else
		teo_enable_device(&rq->cpuidle_gov.teo);
}

/* a time @t from @now in the kernel's signed ktime, KTIME_MAX for none */
static s64 ktime_delta(u64 t, u64 now)
{
	return t == UINT64_MAX ? CPUIDLE_KTIME_MAX : (s64)t - (s64)now;
}

/*
 * tick_nohz_get_sleep_length(): from now to the next timer event without
 * the tick (the hrtimers armed on this CPU: sleeps' timers, the fair
 * server's), and in @delta_next to the next event with it, which is what
 * the CPU's clock event device is programmed for. The timer wheel's timers
 * are not modelled; nor is tick_nohz_next_event()'s rounding of a timer
 * within the next tick to that tick.
 */
s64 tick_nohz_get_sleep_length(struct rq *rq, s64 *delta_next)
{
	u64 now = sim_cpu(cpu_of(rq))->t;
	u64 timer = hrtimer_next_expiry(cpu_of(rq));
	u64 next = timer;

	if (ev_queued(&rq->tick_ev) && rq->tick_ev.time < next)
		next = rq->tick_ev.time;
	*delta_next = ktime_delta(next, now);
	return ktime_delta(timer, now);
}

/* cpuidle_select(): what menu or teo sees, and its choice */
static int cpuidle_select(struct rq *rq, bool *stop_tick)
{
	const struct topology *t = machine.topo;
	struct cpuidle_view v = {
		.states = t->idle_states,
		.state_count = t->nr_idle_states,
		.disable = rq->idle_state_disable,
		/* no PM QoS requests are modelled */
		.latency_req = CPUIDLE_LATENCY_REQ_NONE,
		.tick_stopped = rq->tick_stopped,
		.tick_nsec = (s64)TICK_NSEC,
		.perf_mult = menu_performance_multiplier(rq->cpu_load0, sched_feat(MENU_LOAD_MULT),
							 rq->nr_iowait, sched_feat(MENU_IOWAIT_MULT)),
	};

	v.sleep_length = tick_nohz_get_sleep_length(rq, &v.delta_tick);
	*stop_tick = true;
	if (cpuidle_governor == CPUIDLE_GOV_MENU)
		return menu_select(&rq->cpuidle_gov.menu, &rq->cpuidle_dev, &v, stop_tick);
	return teo_select(&rq->cpuidle_gov.teo, &rq->cpuidle_dev, &v, stop_tick);
}

/*
 * cpuidle_reflect() after the state is left: the residency measured from
 * entry to the end of the exit (cpuidle_enter_state()'s last_residency_ns),
 * and whether the tick woke it (tick_nohz_idle_got_tick()).
 */
static void cpuidle_reflect(struct rq *rq, int idx, u64 residency_ns, bool got_tick)
{
	rq->cpuidle_dev.last_residency_ns = residency_ns;
	if (cpuidle_governor == CPUIDLE_GOV_MENU)
		menu_reflect(&rq->cpuidle_gov.menu, &rq->cpuidle_dev, idx, got_tick);
	else
		teo_reflect(&rq->cpuidle_gov.teo, &rq->cpuidle_dev, idx, got_tick, (s64)TICK_NSEC);
}

/*
 * cpuidle_poll_time(): poll no longer than the first enabled state past
 * the poll state whose target residency is at least CPUIDLE_POLL_MIN, nor
 * than CPUIDLE_POLL_MAX; C1 and C1E of a few microseconds are no limit.
 * With no deeper state enabled at all (--idle-states max=0, or a machine
 * with a poll state alone) the kernel polls for CPUIDLE_POLL_MAX, and the
 * governor picks the poll state again, and again: here the CPU polls on
 * until it is woken, one entry in the state's usage instead of one per
 * limit, and no event per limit that would keep a finished run from
 * ending. 0: no limit.
 */
static u64 poll_time_limit(const struct rq *rq, unsigned int idx)
{
	const struct topology *t = machine.topo;
	u64 limit = 0;

	/* cpuidle_poll_time(): the haltpoll governor's limit when it has one */
	if (haltpoll_guest() && rq->poll_limit_ns)
		return rq->poll_limit_ns;

	for (unsigned int i = idx + 1; i < t->nr_idle_states; i++) {
		if (state_disabled(rq, i))
			continue;
		limit = CPUIDLE_POLL_MAX(TICK_NSEC);
		if (t->idle_states[i].target_residency_ns >= CPUIDLE_POLL_MIN)
			return min(limit, (u64)t->idle_states[i].target_residency_ns);
	}
	return limit;
}

static void enter_state(struct rq *rq, int idx)
{
	const struct topology *t = machine.topo;
	struct sim_cpu *c = sim_cpu(cpu_of(rq));

	rq->idle_state = idx;
	rq->idle_since = c->t;
	/* without idle states the kernel's default_idle_call() reports state 1 */
	trace_sched(__trace_cpu_idle(idx < 0 ? 1 : (unsigned int)idx, cpu_of(rq)));
	if (idx < 0) {
		rq->polling = false;
		return;
	}
	rq->polling = t->idle_states[idx].polls;
	rq->idle_state_usage[idx]++;
	rq->poll_time_limit = false;
	rq->cpuidle_dev.poll_time_limit = false;
	sim_cpu_power_state(cpu_of(rq), idx);
	if (is_poll_state(&t->idle_states[idx])) {
		/* poll for at most the next enabled state's target residency */
		u64 limit = poll_time_limit(rq, (unsigned int)idx);

		if (limit)
			sim_schedule(&rq->step_ev, c->t + max(limit, 1ULL));
	}
}

/*
 * cpuidle_idle_call()'s tick: stopped when the governor says so or it is
 * stopped already (tick_nohz_idle_stop_tick(): idle_calls, which
 * sugov_hold_freq() reads, and the nohz idle mask, whose idle load
 * balancer then balances for this CPU), else retained
 * (tick_nohz_idle_retain_tick(): the CPU takes its tick in idle and
 * balances from there itself).
 */
static void idle_tick_decide(struct rq *rq, bool stop_tick)
{
	if (stop_tick || rq->tick_stopped) {
		cpufreq_idle_enter(cpu_of(rq));
		tick_stop_idle(rq);
		nohz_balance_enter_idle(rq);
	} else {
		tick_retain_idle(rq);
	}
}

void do_idle(void)
{
	struct rq *rq = this_rq();
	struct sim_cpu *c = sim_cpu(cpu_of(rq));
	bool gov = cpuidle_gov_decides_tick();
	bool stop_tick = true;
	int idx;

	/*
	 * The way into idle (governor, tick stop, RCU, state entry) is paid
	 * here, before the CPU sleeps: a wakeup that arrives meanwhile is seen
	 * where the state would be entered, as need_resched is checked there,
	 * and the state is not entered (idle_exit()).
	 * In a guest, stopping the tick reprograms the timer: a VM exit, paid
	 * when the tick stops (with avg, always).
	 */
	charge(machine.cost->idle_enter + (gov ? 0 : machine.cost->guest_timer_exit));
	idx = gov ? cpuidle_select(rq, &stop_tick) : governor_select(rq, false);
	if (gov && stop_tick && !rq->tick_stopped)
		charge(machine.cost->guest_timer_exit);
	cpu_set_activity(c, ACT_IDLE);
	idle_tick_decide(rq, stop_tick);
	update_idle_core(rq);
	enter_state(rq, idx);
}

static void account_state(struct rq *rq)
{
	u64 now = sim_cpu(cpu_of(rq))->t;

	if (rq->idle_state >= 0)
		rq->idle_state_time[rq->idle_state] += now - rq->idle_since;
}

void idle_reselect(struct rq *rq)
{
	account_state(rq);
	if (cpuidle_gov_decides_tick()) {
		struct sim_cpu *c = sim_cpu(cpu_of(rq));
		bool stop_tick;
		int idx;

		/* poll_idle() ran out: reflected, and the idle loop selects again */
		rq->cpuidle_dev.poll_time_limit = true;
		cpuidle_reflect(rq, rq->idle_state, c->t - rq->idle_since, false);
		trace_sched(__trace_cpu_idle(TRACE_PWR_EVENT_EXIT, cpu_of(rq)));
		idx = cpuidle_select(rq, &stop_tick);
		idle_tick_decide(rq, stop_tick);
		enter_state(rq, idx);
		return;
	}
	/* the poll ran out (poll_idle() sets dev->poll_time_limit) */
	if (haltpoll_guest()) {
		rq->last_state_idx = rq->idle_state;
		rq->poll_time_limit = true;
	}
	trace_sched(__trace_cpu_idle(TRACE_PWR_EVENT_EXIT, cpu_of(rq)));
	enter_state(rq, governor_select(rq, true));
}

/*
 * Whether @cpu's private cache was powered off while it idled: every other
 * CPU under that cache (an SMT sibling, a cluster's L2) is idle too in a
 * state that @off() accepts, since at least @since (the core's state is
 * the shallowest of its CPUs': a core whose other thread runs, or polls,
 * keeps its caches). The walk is over the cache's CPUs alone.
 */
static bool private_cache_off(unsigned int cpu, u64 since, bool (*off)(const struct rq *))
{
	const struct topology *t = machine.topo;
	unsigned int j;

	for_each_cpu(j, topology_cache_span_cpumask(t, t->cache_l2_span, cpu, false)) {
		const struct rq *o = cpu_rq(j);

		if (j == cpu)
			continue;
		if (o->idle_state < 0 || !off(o) || o->idle_since > since)
			return false;
	}
	return true;
}

/* a sibling halted (a guest's non-polling state) */
static bool halted(const struct rq *o)
{
	return !machine.topo->idle_states[o->idle_state].polls;
}

/* a sibling in a state that flushes the core's caches */
static bool flushing(const struct rq *o)
{
	return machine.topo->idle_states[o->idle_state].flushes_cache;
}

/*
 * Whether the host's pCPU under @cpu's vCPU can have flushed the core's
 * private caches during a halt of @resid: the halt lasted at least
 * guest_halt_flush_ns and the vCPUs that share the cache were halted as
 * long (docs/guests.md, "The halted vCPU's caches")
 */
static bool halt_flushes(unsigned int cpu, u64 resid)
{
	u64 flush = machine.cost->guest_halt_flush_ns;
	u64 now = sim_cpu(cpu)->t;

	if (!flush || resid < flush)
		return false;
	return private_cache_off(cpu, now - flush, halted);
}

void idle_exit(struct rq *rq)
{
	struct sim_cpu *c = sim_cpu(cpu_of(rq));
	const struct topology *t = machine.topo;
	int idx = rq->idle_state;
	/*
	 * a polling loop that sees need_resched leaves for schedule_idle() at
	 * once, as does the idle loop that finds it before entering a state
	 */
	bool straight = (rq->polling || rq->woken_before_entry) && rq->need_resched;
	/*
	 * A wake that reached the CPU while it was still on its way in (its
	 * cursor not past the entry): the state was never entered. With
	 * need_resched set, call_cpuidle() saw it and returned -EBUSY
	 * (last_residency_ns 0, nothing reflected, no usage counted); an
	 * interrupt alone was pending when MWAIT or HLT was executed, which
	 * then fell through. Neither pays the state's exit latency, nor, in a
	 * guest, a host wakeup: the vCPU never halted.
	 */
	bool entered = c->t > rq->idle_since && !rq->woken_before_entry;
	bool busy = !entered && rq->need_resched;

	account_state(rq);
	/*
	 * The governor's history: idle periods, averaged like avg_idle (1/8).
	 * A wake that arrives while the CPU is still on its way into idle
	 * counts as an idle period of zero.
	 */
	if (rq->idle_since) {
		s64 dur = c->t > rq->idle_since ? (s64)(c->t - rq->idle_since) : 0;
		s64 avg = (s64)rq->idle_duration_avg;

		rq->idle_duration_avg = (u64)(avg + (dur - avg) / SCHED_UPDATE_AVG_DIV);
	}
	/* a poll-limit step of the state we leave is void now */
	if (ev_queued(&rq->step_ev) && rq->step_ev.time > c->t)
		sim_cancel(&rq->step_ev);
	/* busy power from the wakeup on, the exit latency included */
	sim_cpu_power_state(cpu_of(rq), -1);
	if (idx >= 0 && entered && t->guest.kvm) {
		u64 resid = c->t - rq->idle_since;

		if (t->guest.cpuidle == GUEST_IDLE_HALTPOLL)
			haltpoll_reflect(rq, idx, resid);
		/*
		 * A halted vCPU runs again when the host has woken it: at once
		 * if the host's poll of this vCPU's window caught the wake,
		 * else once the host has scheduled its thread in again.
		 */
		if (!t->idle_states[idx].polls) {
			struct kvm_halt_poll hp;
			bool polled;

			kvm_halt_poll_of(&t->guest, machine.cost->guest_host_poll_ns, &hp);
			polled = kvm_vcpu_halt_model(&hp, &rq->host_halt_poll_ns, resid,
						     machine.cost->guest_wakeup);
			/*
			 * after a long enough halt the private cache comes
			 * back empty: the tasks that run here next, the wakee
			 * first, refill their working sets (cache_switch_in())
			 */
			if (halt_flushes(cpu_of(rq), resid))
				cache_flush_private(cpu_of(rq));
			rq->halt_woken = c->pending_irqs != 0;
			sim_cpu_set_cursor(c, c->t + (polled ? machine.cost->guest_wakeup_polled :
							       machine.cost->guest_wakeup));
		}
	}
	/*
	 * bare metal: a state that powers the core's caches off (core C6)
	 * empties them once every CPU under them is in one
	 */
	if (idx >= 0 && entered && t->idle_states[idx].flushes_cache &&
	    private_cache_off(cpu_of(rq), c->t, flushing))
		cache_flush_private(cpu_of(rq));
	/* the exit latency is time the CPU spends waking up, not working */
	if (idx >= 0 && entered)
		sim_cpu_set_cursor(c, c->t + t->idle_states[idx].exit_latency_ns);
	if (idx >= 0 && busy)
		rq->idle_state_usage[idx]--;
	if (idx >= 0 && cpuidle_gov_decides_tick()) {
		if (busy)
			rq->cpuidle_dev.last_residency_ns = 0;
		else
			cpuidle_reflect(rq, idx, c->t - rq->idle_since, c->pending_irqs & IRQ_TICK);
	}
	trace_sched(__trace_cpu_idle(TRACE_PWR_EVENT_EXIT, cpu_of(rq)));
	rq->idle_state = -1;
	rq->polling = false;
	cpu_set_activity(c, ACT_KERNEL);
	/*
	 * Woken by an interrupt, the CPU goes back through the idle loop's
	 * exit (tick_nohz_idle_exit(), RCU, governor reflect) before
	 * schedule_idle(); the bookkeeping of going idle was paid on entry.
	 */
	rq->woken_before_entry = false;
	if (!straight)
		charge(machine.cost->idle_exit);
	cpu_set_activity(c, ACT_IRQ);
	if (rq->tick_stopped && machine.cost->guest_timer_exit)
		charge(machine.cost->guest_timer_exit);
	idle_tick_restart(rq);
}
