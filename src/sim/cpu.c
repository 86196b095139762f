// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CPU step machine (sim/cpu.h): user work at the CPU's speed, interrupt
 * lines and their delivery, the step event, timers firing. The kernel's
 * reactions are the registered struct sim_cpu_ops.
 */
#include "sim/cpu.h"
#include "sim/alloc.h"
#include "sim/turbo.h"

#include <stddef.h>

static const struct sim_cpu_ops *cpu_ops;

void sim_cpu_register_ops(const struct sim_cpu_ops *ops)
{
	cpu_ops = ops;
}

/* wall time on @c for @work ns of full-speed work: capacity and frequency */
static inline u64 work_to_wall(const struct sim_cpu *c, u64 work)
{
	if (c->capacity == SCHED_CAPACITY_SCALE && c->freq_khz == c->max_freq_khz)
		return work;
	unsigned __int128 num = (unsigned __int128)work * SCHED_CAPACITY_SCALE * c->max_freq_khz;
	u64 den = (u64)c->capacity * c->freq_khz;
	return (u64)((num + den - 1) / den);
}

static inline u64 wall_to_work(const struct sim_cpu *c, u64 wall)
{
	if (c->capacity == SCHED_CAPACITY_SCALE && c->freq_khz == c->max_freq_khz)
		return wall;
	unsigned __int128 num = (unsigned __int128)wall * c->capacity * c->freq_khz;
	return (u64)(num / ((u64)SCHED_CAPACITY_SCALE * c->max_freq_khz));
}

/* the same at @speed permille of a lone thread (SMT siblings busy) */
static inline u64 work_to_wall_at(const struct sim_cpu *c, u64 work, u64 speed)
{
	u64 wall = work_to_wall(c, work);

	if (speed == SMT_SPEED_FULL)
		return wall;
	return (u64)(((unsigned __int128)wall * SMT_SPEED_FULL + speed - 1) / speed);
}

static inline u64 wall_to_work_at(const struct sim_cpu *c, u64 wall, u64 speed)
{
	if (speed != SMT_SPEED_FULL)
		wall = (u64)((unsigned __int128)wall * speed / SMT_SPEED_FULL);
	return wall_to_work(c, wall);
}

void sim_cpu_run_user(unsigned int cpu, u64 work)
{
	struct sim_cpu *c = sim_cpu(cpu);

	cpu_set_activity(c, ACT_USER);
	c->user_start = c->user_seg = c->t;
	c->user_work = work;
	c->user_speed = sim_cpu_speed(c);
	sim_schedule(c->step_ev, c->t + work_to_wall_at(c, work, c->user_speed));
}

/* The full-speed work of @c's user work still to do at @t. */
static u64 user_work_left(const struct sim_cpu *c, u64 t)
{
	/* a stretch that starts after @t (a sibling's cursor ran ahead) has done nothing */
	u64 done = t > c->user_seg ? wall_to_work_at(c, t - c->user_seg, c->user_speed) : 0;

	return done >= c->user_work ? 0 : c->user_work - done;
}

/*
 * Stop the user work in progress on @c at machine.now; the work left, and
 * in @ran the wall time it ran. The CPU's cursor may be ahead of now: its
 * kernel path into user mode ends later (user_seg), or a sibling's change
 * of speed was accounted from its own cursor. Time does not run backwards
 * on @c: the work stops at the later of the two, with what was done by
 * then (nothing, if it had not begun).
 */
static u64 user_work_interrupt(struct sim_cpu *c, u64 *ran)
{
	u64 stop = machine.now > c->user_seg ? machine.now : c->user_seg;
	u64 left = user_work_left(c, stop);

	sim_cancel(c->step_ev);
	sim_cpu_set_cursor(c, stop);
	*ran = stop - c->user_start;
	return left;
}

/*
 * @c's core has another busy-thread count from @t on: user work in
 * progress on it goes on at the new speed (what it did up to @t at the old
 * one), its step event moved to when the work now ends.
 */
static void user_work_retime(struct sim_cpu *c, u64 t)
{
	u64 speed = sim_cpu_speed(c);

	if (speed == c->user_speed || !ev_queued(c->step_ev))
		return;
	/* work that ends by @t is done at its old time */
	if (c->step_ev->time <= t)
		return;
	if (t > c->user_seg) {
		c->user_work = user_work_left(c, t);
		c->user_seg = t;
	}
	c->user_speed = speed;
	sim_schedule(c->step_ev, c->user_seg + work_to_wall_at(c, c->user_work, speed));
}

void sim_cpu_power_account(struct sim_cpu *c, u64 t)
{
	if (!c->power_time || t <= c->pstate_since)
		return;
	c->power_time[c->pstate * machine.topo->cpus[c->id].nr_opps + c->opp] +=
		t - c->pstate_since;
	c->pstate_since = t;
}

void sim_cpu_energy(unsigned int cpu, unsigned __int128 *busy_fj, unsigned __int128 *idle_fj,
		    u64 *ns)
{
	const struct topology *t = machine.topo;
	const struct sim_cpu *c = sim_cpu(cpu);
	const struct topo_em *em = topology_cpu_em(t, cpu);
	unsigned int n = t->cpus[cpu].nr_opps;

	*busy_fj = *idle_fj = 0;
	*ns = 0;
	if (!em || !c->power_time)
		return;
	for (unsigned int k = 0; k < n; k++) {
		*busy_fj += (unsigned __int128)c->power_time[k] * em->power_uw[k];
		*ns += c->power_time[k];
		for (unsigned int s = 0; s < t->nr_idle_states; s++) {
			u64 dt = c->power_time[(1 + s) * n + k];

			*ns += dt;
			if (em->idle_given & (1u << s))
				*idle_fj += (unsigned __int128)dt * em->idle_uw[s][k];
		}
	}
}

void __sim_cpu_power_state(struct sim_cpu *c, int idle_state)
{
	sim_cpu_power_account(c, c->t);
	c->pstate = idle_state < 0 ? 0 : 1 + (unsigned int)idle_state;
}

void sim_cpu_set_freq(unsigned int cpu, unsigned int khz, unsigned int opp)
{
	struct sim_cpu *c = sim_cpu(cpu);

	c->req_khz = khz;
	if (c->core->turbo) {
		unsigned int lim = c->core->turbo->limit_khz;

		/* turbo frequencies are OPPs: the limit's index is found by its value */
		if (khz > lim) {
			const struct cpu_topo *ct = &machine.topo->cpus[cpu];

			khz = lim;
			while (opp > 0 && ct->opp_khz[opp] > lim)
				opp--;
		}
	}
	sim_cpu_clock(c, khz, opp);
}

void sim_cpu_clock(struct sim_cpu *c, unsigned int khz, unsigned int opp)
{
	u64 t = machine.now;

	if (khz == c->freq_khz)
		return;
	/* the energy so far at the old OPP */
	sim_cpu_power_account(c, t);
	if (t > c->freq_since) {
		c->opp_time[c->opp] += t - c->freq_since;
		c->freq_since = t;
	}
	c->nr_freq_transitions++;
	/* the user work's progress up to @t at the old clock, the rest at the new */
	if (c->act == ACT_USER && ev_queued(c->step_ev) && c->step_ev->time > t) {
		if (t > c->user_seg) {
			c->user_work = user_work_left(c, t);
			c->user_seg = t;
		}
		c->freq_khz = khz;
		c->opp = opp;
		sim_schedule(c->step_ev,
			     c->user_seg + work_to_wall_at(c, c->user_work, c->user_speed));
		return;
	}
	c->freq_khz = khz;
	c->opp = opp;
}

void sim_core_busy_changed(struct sim_cpu *c, bool busy)
{
	struct sim_core *core = c->core;

	if (busy)
		core->nr_busy++;
	else
		core->nr_busy--;
	if (!machine.smt_sharing)
		return;
	/* every thread's speed first: a re-timed sibling's work uses its own */
	for (unsigned int i = 0; i < core->nr_threads; i++) {
		struct sim_cpu *s = sim_cpu(core->cpus[i]);
		unsigned int k = core->nr_busy + (s->act == ACT_IDLE);

		s->speed = machine.smt_speed[k];
		s->speed_inv = machine.smt_inv[k];
		s->smt_exact_below = smt_exact_below(s->speed_inv);
	}
	for (unsigned int i = 0; i < core->nr_threads; i++) {
		struct sim_cpu *s = sim_cpu(core->cpus[i]);

		if (s != c && s->act == ACT_USER)
			user_work_retime(s, c->t);
	}
}

static void cpu_step_event(struct sim_event *ev)
{
	unsigned int cpu = ev->arg;
	struct sim_cpu *c = sim_enter_cpu(cpu);

	sim_variation_begin(&machine.variation, cpu, &c->t);
	if (c->act == ACT_IDLE) {
		cpu_ops->idle_step(cpu);
		return;
	}
	if (c->act == ACT_USER)
		cpu_ops->user_stopped(cpu, machine.now - c->user_start, 0, true);
	cpu_ops->step(cpu);
}

void sim_cpu_interrupt(unsigned int cpu, unsigned int irq)
{
	struct sim_cpu *c = sim_cpu(cpu);

	sim_set_this_cpu(cpu);
	c->pending_irqs |= irq;
	sim_variation_begin(&machine.variation, cpu, &c->t);
	switch (c->act) {
	case ACT_USER: {
		/* user work stops here; the step machine handles the interrupt */
		u64 ran;
		u64 left = user_work_interrupt(c, &ran);

		cpu_ops->user_stopped(cpu, ran, left, false);
		cpu_ops->step(cpu);
		break;
	}
	case ACT_IDLE:
		if (c->t < machine.now)
			sim_cpu_set_cursor(c, machine.now);
		cpu_ops->idle_exit(cpu);
		cpu_ops->step(cpu);
		break;
	default:
		/* busy in a kernel path: the kernel decides when it takes it */
		cpu_ops->irq_in_kernel(cpu);
		break;
	}
}

static void tick_event(struct sim_event *ev)
{
	sim_cpu(ev->arg)->tick_fired = ev->time;
	/* the tick is an hrtimer too (tick_sched_timer): its interrupt runs the queues */
	if (hrtimer_run_soft_expired(ev->arg))
		sim_cpu_interrupt(ev->arg, IRQ_TIMER);
	sim_cpu_interrupt(ev->arg, IRQ_TICK);
}

static void ipi_event(struct sim_event *ev)
{
	sim_cpu_interrupt(ev->arg, IRQ_RESCHED);
}

static void csd_event(struct sim_event *ev)
{
	sim_cpu_interrupt(ev->arg, IRQ_CALL_FUNC);
}

void sim_cpu_bind_events(unsigned int cpu, struct sim_event *step, struct sim_event *tick,
			 struct sim_event *ipi, struct sim_event *csd)
{
	sim_cpu(cpu)->step_ev = step;
	sim_cpu(cpu)->tick_ev = tick;
	ev_init(step, cpu_step_event, cpu);
	ev_init(tick, tick_event, cpu);
	/*
	 * the events moved at almost every step, and at every tick of a busy
	 * CPU: slots of their own under the CPU's leaf (sim/event.h)
	 */
	eq_bind_slot(&machine.eq, step, cpu, 0);
	eq_bind_slot(&machine.eq, tick, cpu, 1);
	ev_init(ipi, ipi_event, cpu);
	ev_init(csd, csd_event, cpu);
}

/*
 * The per-CPU heap of armed hrtimers (sim_cpu.timers): what the CPU's
 * timer base keeps in its timerqueue, kept beside the global event queue
 * so that the next expiry on one CPU costs O(1) and an arm or cancel
 * O(log n) of that CPU's timers, whatever the machine's size.
 */
static void timer_heap_set(struct sim_cpu *c, unsigned int i, struct hrtimer *t)
{
	c->timers[i] = t;
	t->heap_pos = i + 1;
}

static void timer_heap_sift_up(struct sim_cpu *c, unsigned int i)
{
	struct hrtimer *t = c->timers[i];

	while (i) {
		unsigned int parent = (i - 1) / 2;

		if (c->timers[parent]->ev.time <= t->ev.time)
			break;
		timer_heap_set(c, i, c->timers[parent]);
		i = parent;
	}
	timer_heap_set(c, i, t);
}

static void timer_heap_sift_down(struct sim_cpu *c, unsigned int i)
{
	struct hrtimer *t = c->timers[i];

	for (;;) {
		unsigned int child = 2 * i + 1;

		if (child >= c->nr_timers)
			break;
		if (child + 1 < c->nr_timers &&
		    c->timers[child + 1]->ev.time < c->timers[child]->ev.time)
			child++;
		if (t->ev.time <= c->timers[child]->ev.time)
			break;
		timer_heap_set(c, i, c->timers[child]);
		i = child;
	}
	timer_heap_set(c, i, t);
}

static void timer_heap_add(struct hrtimer *t)
{
	struct sim_cpu *c = sim_cpu(t->cpu);

	if (c->nr_timers == c->timers_cap) {
		c->timers_cap = c->timers_cap ? 2 * c->timers_cap : 8;
		c->timers = xreallocarray(c->timers, c->timers_cap, sizeof(*c->timers));
	}
	timer_heap_set(c, c->nr_timers++, t);
	timer_heap_sift_up(c, t->heap_pos - 1);
}

static void timer_heap_del(struct hrtimer *t)
{
	struct sim_cpu *c;
	unsigned int i;

	if (!t->heap_pos)
		return;
	c = sim_cpu(t->cpu);
	i = t->heap_pos - 1;
	t->heap_pos = 0;
	if (i == --c->nr_timers)
		return;
	timer_heap_set(c, i, c->timers[c->nr_timers]);
	timer_heap_sift_up(c, i);
	timer_heap_sift_down(c, c->timers[i]->heap_pos - 1);
}

/* off the heap onto the end of its CPU's expired list (expiry order) */
static void hrtimer_expire(struct sim_cpu *c, struct hrtimer *t)
{
	struct hrtimer **pp = &c->expired_timers;

	timer_heap_del(t);
	while (*pp)
		pp = &(*pp)->next_expired;
	*pp = t;
}

bool hrtimer_run_soft_expired(unsigned int cpu)
{
	struct sim_cpu *c = sim_cpu(cpu);
	bool any = false;

	while (c->nr_timers && c->timers[0]->softexpires <= machine.now) {
		struct hrtimer *t = c->timers[0];

		sim_cancel(&t->ev);
		hrtimer_expire(c, t);
		any = true;
	}
	return any;
}

static void hrtimer_event(struct sim_event *ev)
{
	struct hrtimer *t = container_of(ev, struct hrtimer, ev);

	hrtimer_expire(sim_cpu(t->cpu), t);
	/* the same interrupt runs the timers behind it whose soft expiry has come */
	hrtimer_run_soft_expired(t->cpu);
	sim_cpu_interrupt(t->cpu, IRQ_TIMER);
}

void hrtimer_init(struct hrtimer *timer, void (*function)(struct hrtimer *timer))
{
	ev_init(&timer->ev, hrtimer_event, 0);
	timer->cpu = 0;
	timer->function = function;
	timer->next_expired = NULL;
	timer->heap_pos = 0;
	timer->softexpires = 0;
}

/*
 * What @c's clock event device is programmed for: its first hrtimer or its
 * tick, whichever comes first (hrtimer_update_next_event(), the tick being
 * the base's tick_sched_timer)
 */
static u64 clockevent_next(const struct sim_cpu *c)
{
	u64 next = c->nr_timers ? c->timers[0]->ev.time : UINT64_MAX;

	if (c->tick_ev && ev_queued(c->tick_ev) && c->tick_ev->time < next)
		next = c->tick_ev->time;
	return next;
}

/*
 * Whether a change to @c's timers now writes its clock event device at a
 * cost: in a guest, on the running CPU (the kernel leaves another CPU's
 * device to that CPU's next interrupt), outside its interrupt handlers:
 * the timer interrupt's end programs the device once, for its callbacks'
 * re-arms too (hrtimer_interrupt()'s in_hrtirq), and the model handles a
 * CPU's pending interrupts together, so a timer armed by another handler
 * (a call-function IPI's, rarely) waits for that write as well. The
 * write's cost is guest_timer_exit, a TSC-deadline write that exits; on
 * bare metal (0) the register write is in the paths' own costs.
 */
static bool clockevent_write_costs(const struct sim_cpu *c)
{
	return machine.cost->guest_timer_exit && c == machine.this_sim && c->act != ACT_IRQ;
}

/*
 * A change that moved @c's next event from @before programmed the device
 * again (hrtimer_reprogram(), hrtimer_force_reprogram(): a new first
 * timer, the first one moved or removed)
 */
static void clockevent_reprogram(const struct sim_cpu *c, u64 before)
{
	if (clockevent_next(c) != before)
		charge(machine.cost->guest_timer_exit);
}

/* armed on @cpu's base: the soft expiry @soft, the hard @hard */
static void hrtimer_arm(struct hrtimer *timer, unsigned int cpu, u64 soft, u64 hard)
{
	const struct sim_cpu *c = sim_cpu(cpu);
	bool costs = clockevent_write_costs(c);
	u64 before = costs ? clockevent_next(c) : 0;

	/* off the base it was armed on, onto @cpu's */
	timer_heap_del(timer);
	timer->cpu = cpu;
	timer->ev.arg = cpu;
	timer->softexpires = soft;
	sim_schedule(&timer->ev, hard);
	timer_heap_add(timer);
	if (costs)
		clockevent_reprogram(c, before);
}

void hrtimer_start_on(struct hrtimer *timer, unsigned int cpu, u64 expires)
{
	hrtimer_arm(timer, cpu, expires, expires);
}

void hrtimer_start(struct hrtimer *timer, u64 expires)
{
	hrtimer_arm(timer, machine.this_cpu, expires, expires);
}

void hrtimer_start_range_ns(struct hrtimer *timer, u64 expires, u64 delta)
{
	/* hrtimer_set_expires_range_ns(): ktime_add_safe() saturates */
	u64 hard = expires + delta < expires ? UINT64_MAX : expires + delta;

	hrtimer_arm(timer, machine.this_cpu, expires, hard);
}

void hrtimer_cancel(struct hrtimer *timer)
{
	const struct sim_cpu *c = sim_cpu(timer->cpu);
	bool costs = clockevent_write_costs(c);
	u64 before = costs ? clockevent_next(c) : 0;

	timer_heap_del(timer);
	sim_cancel(&timer->ev);
	if (costs)
		clockevent_reprogram(c, before);
}

bool hrtimer_pending(const struct hrtimer *timer)
{
	if (ev_queued(&timer->ev))
		return true;
	for (const struct hrtimer *t = sim_cpu(timer->cpu)->expired_timers; t; t = t->next_expired)
		if (t == timer)
			return true;
	return false;
}

void hrtimer_try_to_cancel(struct hrtimer *timer)
{
	struct sim_cpu *c = sim_cpu(timer->cpu);

	hrtimer_cancel(timer);
	for (struct hrtimer **pp = &c->expired_timers; *pp; pp = &(*pp)->next_expired) {
		if (*pp == timer) {
			*pp = timer->next_expired;
			timer->next_expired = NULL;
			return;
		}
	}
}
