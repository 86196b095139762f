// SPDX-License-Identifier: GPL-2.0-only
/*
 * The menu and teo idle governors (src/kernel/cpuidle_menu.c,
 * cpuidle_teo.c) on hand-computed cases, and the sleep length they are
 * given (tick_nohz_get_sleep_length() over the per-CPU heap of armed
 * hrtimers, src/sim/cpu.c).
 *
 * The states are Skylake-SP's as intel_idle registers them: state0 POLL,
 * state1 C1 (2 us exit, 2 us target), state2 C1E (10 us, 20 us), state3
 * C6 (133 us, 600 us); HZ=250, a 4 ms tick.
 */
#include "test_sched_helpers.h"

#include <limits.h>

#define US 1000LL
#define MS (1000 * US)
#define TICK (4 * MS)

static const struct idle_state skx[] = {
	{ .name = "POLL", .exit_latency_ns = 0, .target_residency_ns = 0, .polls = true },
	{ .name = "C1", .exit_latency_ns = 2 * US, .target_residency_ns = 2 * US, .polls = true },
	{ .name = "C1E", .exit_latency_ns = 10 * US, .target_residency_ns = 20 * US, .polls = true },
	{ .name = "C6", .exit_latency_ns = 133 * US, .target_residency_ns = 600 * US, .polls = true },
};

/* the view of an idle entry with the tick running, the next timer and tick as given */
static struct cpuidle_view view(s64 sleep_length, s64 delta_tick)
{
	return (struct cpuidle_view){
		.states = skx,
		.state_count = 4,
		.latency_req = CPUIDLE_LATENCY_REQ_NONE,
		.tick_nsec = TICK,
		.sleep_length = sleep_length,
		.delta_tick = delta_tick,
	};
}

static void set_intervals(struct menu_device *d, const unsigned int v[MENU_INTERVALS])
{
	memcpy(d->intervals, v, sizeof(d->intervals));
}

/* ---- menu: get_typical_interval() ---- */

static void test_typical_interval(void **state)
{
	struct menu_device d;
	static const unsigned int uniform[] = { 100, 100, 100, 100, 100, 100, 100, 100 };
	/*
	 * one outlier: round 1 averages 1337 with a variance far above 400
	 * and 36x its square; the max lies further from the average
	 * (8663 > 1237), so it is dropped, and the seven left agree
	 */
	static const unsigned int outlier[] = { 100, 100, 100, 10000, 100, 100, 100, 100 };
	/*
	 * 100..800 us: 800, then 700 are dropped (max - avg = avg - min goes
	 * to the max side); at six samples (6 * 4 <= 8 * 3) the spread is
	 * still too wide: no typical interval
	 */
	static const unsigned int spread[] = { 100, 200, 300, 400, 500, 600, 700, 800 };
	/* small spread in absolute terms: variance 1.75 us^2 <= 400 */
	static const unsigned int close[] = { 10, 12, 10, 12, 10, 12, 10, 13 };

	(void)state;
	menu_enable_device(&d);
	/* nothing measured yet: all zero, no maximum */
	assert_int_equal(menu_get_typical_interval(&d), UINT_MAX);
	set_intervals(&d, uniform);
	assert_int_equal(menu_get_typical_interval(&d), 100);
	set_intervals(&d, outlier);
	assert_int_equal(menu_get_typical_interval(&d), 100);
	set_intervals(&d, spread);
	assert_int_equal(menu_get_typical_interval(&d), UINT_MAX);
	set_intervals(&d, close);
	assert_int_equal(menu_get_typical_interval(&d), 11); /* 89 / 8 */
}

/* ---- menu: buckets and the correction factor ---- */

/* one wakeup from @state after @residency: reflected, then learnt from */
static void menu_wakeup(struct menu_device *d, struct cpuidle_device *dev, int state,
			u64 residency, bool got_tick)
{
	struct cpuidle_view v = view(CPUIDLE_KTIME_MAX, TICK);

	dev->last_residency_ns = residency;
	menu_reflect(d, dev, state, got_tick);
	assert_true(d->needs_update);
	menu_update(d, dev, &v);
}

static void test_buckets(void **state)
{
	(void)state;
	assert_int_equal(menu_which_bucket(0), 0);
	assert_int_equal(menu_which_bucket(10 * US - 1), 0);
	assert_int_equal(menu_which_bucket(10 * US), 1);
	assert_int_equal(menu_which_bucket(100 * US - 1), 1);
	assert_int_equal(menu_which_bucket(100 * US), 2);
	assert_int_equal(menu_which_bucket(1 * MS), 3);
	assert_int_equal(menu_which_bucket(10 * MS), 4);
	assert_int_equal(menu_which_bucket(100 * MS), 5);
	assert_int_equal(menu_which_bucket(UINT64_MAX), 5);
}

static void test_menu_update(void **state)
{
	struct menu_device d;
	struct cpuidle_device dev = { .last_state_idx = -1 };

	(void)state;
	menu_enable_device(&d);
	assert_int_equal(d.correction_factor[3], MENU_RESOLUTION * MENU_DECAY);

	/* 510 us in C1E for a 1 ms timer: 500 us without the exit, factor 7168 + 512 */
	d.next_timer_ns = 1 * MS;
	d.bucket = 3;
	menu_wakeup(&d, &dev, 2, 510 * US, false);
	assert_int_equal(d.correction_factor[3], 7680);
	assert_int_equal(d.intervals[0], 500);
	assert_int_equal(d.interval_ptr, 1);

	/* 15 us in C1E: not above twice its exit, so half of it, 7.5 us; 6720 + 7 */
	menu_wakeup(&d, &dev, 2, 15 * US, false);
	assert_int_equal(d.correction_factor[3], 6727);
	assert_int_equal(d.intervals[1], 7);

	/*
	 * Woken by a tick with a 10 ms timer ahead: taken as 45 ms, then
	 * capped at the timer, a perfect prediction for bucket 4
	 */
	d.next_timer_ns = 10 * MS;
	d.bucket = 4;
	menu_wakeup(&d, &dev, 3, 4 * MS, true);
	assert_int_equal(d.correction_factor[4], 8192);
	assert_int_equal(d.intervals[2], 10000);

	/* a poll that ran out counts as having slept to the timer */
	d.next_timer_ns = 300 * US;
	d.bucket = 2;
	dev.poll_time_limit = true;
	menu_wakeup(&d, &dev, 0, 20 * US, false);
	assert_int_equal(d.correction_factor[2], 8192);
	assert_int_equal(d.intervals[3], 300);
}

/* ---- menu: selection ---- */

static void test_menu_select_next_timer(void **state)
{
	struct menu_device d;
	struct cpuidle_device dev = { .last_state_idx = -1 };
	struct cpuidle_view v = view(300 * US, 300 * US);
	bool stop_tick = true;

	(void)state;
	menu_enable_device(&d);
	/*
	 * No history: no typical interval, so the next timer (300 us at a
	 * factor of one) decides: C1E fits, C6 (600 us) does not; a
	 * prediction below the tick keeps it
	 */
	assert_int_equal(menu_select(&d, &dev, &v, &stop_tick), 2);
	assert_false(stop_tick);
	assert_int_equal(d.bucket, 2);
	assert_int_equal(d.next_timer_ns, 300 * US);
	/* no measured period: the interval table got UINT_MAX */
	assert_int_equal(d.intervals[0], UINT_MAX);
}

static void test_menu_select_typical(void **state)
{
	static const unsigned int fifty[] = { 50, 50, 50, 50, 50, 50, 50, 50 };
	static const unsigned int five_ms[] = { 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000 };
	struct menu_device d;
	struct cpuidle_device dev = { .last_state_idx = -1, .last_residency_ns = 1 };
	struct cpuidle_view v = view(10 * MS, TICK);
	bool stop_tick = true;

	(void)state;
	menu_enable_device(&d);
	/* a 10 ms timer but 50 us periods: the shorter, C1E, and the tick stays */
	set_intervals(&d, fifty);
	assert_int_equal(menu_select(&d, &dev, &v, &stop_tick), 2);
	assert_false(stop_tick);

	/* 5 ms periods and a 10 ms timer: C6, tick stopped */
	set_intervals(&d, five_ms);
	stop_tick = true;
	assert_int_equal(menu_select(&d, &dev, &v, &stop_tick), 3);
	assert_true(stop_tick);

	/* a latency constraint below C6's exit: C1E, and the tick may still stop */
	set_intervals(&d, five_ms);
	v.latency_req = 50 * US;
	stop_tick = true;
	assert_int_equal(menu_select(&d, &dev, &v, &stop_tick), 2);
	assert_true(stop_tick);

	/* C1E and C6 disabled (--idle-states max=C1): C1 */
	set_intervals(&d, five_ms);
	v.latency_req = CPUIDLE_LATENCY_REQ_NONE;
	v.disable = (1U << 2) | (1U << 3);
	stop_tick = true;
	assert_int_equal(menu_select(&d, &dev, &v, &stop_tick), 1);

	/* a timer in 1 us, before C1's target residency: POLL, and it keeps the tick */
	v = view(1 * US, 1 * US);
	stop_tick = true;
	assert_int_equal(menu_select(&d, &dev, &v, &stop_tick), 0);
	assert_false(stop_tick);
}

/* ---- teo ---- */

static struct teo_cpu tc;
static struct cpuidle_device teo_dev;

static int teo_setup(void **state)
{
	(void)state;
	teo_enable_device(&tc);
	teo_dev = (struct cpuidle_device){ .last_state_idx = -1 };
	return 0;
}

/* one wakeup: reflect and update, with the sleep length seen at selection */
static void teo_wakeup(s64 sleep_length, int state, u64 residency, bool got_tick)
{
	struct cpuidle_view v = view(sleep_length, TICK);

	tc.sleep_length_ns = sleep_length;
	teo_dev.last_residency_ns = residency;
	teo_reflect(&tc, &teo_dev, state, got_tick, TICK);
	teo_update(&tc, &teo_dev, &v);
}

/* a selection with the next timer and tick as given, the bins as they are */
static int teo_choose(s64 sleep_length, s64 delta_tick, bool *stop_tick)
{
	struct cpuidle_view v = view(sleep_length, delta_tick);

	teo_dev.last_state_idx = -1;
	*stop_tick = true;
	return teo_select(&tc, &teo_dev, &v, stop_tick);
}

static void test_teo_bins(void **state)
{
	bool stop_tick;

	(void)state;
	/* 9 ms of a 10 ms sleep length in C6: both in C6's bin, a hit */
	teo_wakeup(10 * MS, 3, 9 * MS, false);
	assert_int_equal(tc.state_bins[3].hits, 1024);
	assert_int_equal(tc.total, 1024);
	/* 50 us in C1 (49 us measured): C1E's bin, an intercept; hits decay 1/8 */
	teo_wakeup(10 * MS, 1, 50 * US, false);
	assert_int_equal(tc.state_bins[2].intercepts, 1024);
	assert_int_equal(tc.state_bins[3].hits, 896);
	assert_int_equal(tc.total, 1920);
	assert_int_equal(tc.tick_intercepts, 0);
	assert_int_equal(tc.short_idles, 0);
	/* woken by the tick with no timer due in it: artificial, a long sleep, a hit */
	teo_wakeup(10 * MS, 3, 4 * MS, true);
	assert_true(tc.artificial_wakeup);
	assert_int_equal(tc.state_bins[3].hits, 784 + 1024);
	assert_int_equal(tc.state_bins[2].intercepts, 896);
	assert_int_equal(tc.total, 2704);

	/*
	 * Selection: twice the intercepts below C6 (2 * 896) are not more
	 * than the total less the hits below C6 (2704 - 0): C6, whose 600 us
	 * the 10 ms timer leaves room for; the tick stops
	 */
	assert_int_equal(teo_choose(10 * MS, TICK, &stop_tick), 3);
	assert_true(stop_tick);
	assert_int_equal(tc.sleep_length_ns, 10 * MS);

	/* a timer in 300 us: C6 does not fit before it, C1E does; below a tick, kept */
	assert_int_equal(teo_choose(300 * US, 300 * US, &stop_tick), 2);
	assert_false(stop_tick);
}

static void test_teo_intercepts(void **state)
{
	bool stop_tick;

	(void)state;
	/* three 5 us wakeups from C1 (4 us measured) with a 10 ms timer: C1 intercepts, short */
	for (int i = 0; i < 3; i++)
		teo_wakeup(10 * MS, 1, 5 * US, false);
	assert_int_equal(tc.state_bins[1].intercepts, 2704);
	assert_int_equal(tc.short_idles, 2704);
	assert_int_equal(tc.total, 2704);
	/*
	 * Intercepts below C6 are all of them: down to the deepest state
	 * below which fewer than half lie, C1; short idles dominate, so the
	 * sleep length is not looked up, and the tick stays
	 */
	assert_int_equal(teo_choose(10 * MS, TICK, &stop_tick), 1);
	assert_false(stop_tick);
	assert_true(tc.sleep_length_ns == CPUIDLE_KTIME_MAX);
}

/* ---- the sleep length the governors see ---- */

static void timer_fn(struct hrtimer *t)
{
	(void)t;
}

static void test_sleep_length(void **state)
{
	struct hrtimer a, b, c;
	struct rq *rq;
	s64 delta_next, sleep;
	u64 t0;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 250, NULL);
	rq = tl_cpu(1);
	t0 = sim_cpu(1)->t;
	assert_int_equal(sim_cpu(0)->t, t0);
	hrtimer_init(&a, timer_fn);
	hrtimer_init(&b, timer_fn);
	hrtimer_init(&c, timer_fn);
	/* nothing armed, tick stopped: no next event at all */
	assert_true(tick_nohz_get_sleep_length(rq, &delta_next) == CPUIDLE_KTIME_MAX);
	assert_true(delta_next == CPUIDLE_KTIME_MAX);

	hrtimer_start_on(&a, 1, t0 + 5 * MS);
	hrtimer_start_on(&b, 1, t0 + 2 * MS);
	hrtimer_start_on(&c, 1, t0 + 7 * MS);
	assert_true(tick_nohz_get_sleep_length(rq, &delta_next) == 2 * MS);
	/* b cancelled: a; a moved to CPU 0: c on CPU 1, a on CPU 0 */
	hrtimer_cancel(&b);
	assert_true(tick_nohz_get_sleep_length(rq, &delta_next) == 5 * MS);
	hrtimer_start_on(&a, 0, t0 + 1 * MS);
	assert_true(tick_nohz_get_sleep_length(rq, &delta_next) == 7 * MS);
	assert_true(tick_nohz_get_sleep_length(tl_cpu(0), &delta_next) == 1 * MS);
	/* re-armed later on its CPU: the heap follows */
	hrtimer_start_on(&c, 1, t0 + 9 * MS);
	assert_true(tick_nohz_get_sleep_length(rq, &delta_next) == 9 * MS);

	/* the tick kept at 4 ms: the sleep length leaves it out, delta_next not */
	rq = tl_cpu(1);
	rq->tick_stopped = false;
	sim_schedule(&rq->tick_ev, t0 + 4 * MS);
	sleep = tick_nohz_get_sleep_length(rq, &delta_next);
	assert_true(sleep == 9 * MS);
	assert_true(delta_next == 4 * MS);
	/* from the CPU's cursor on */
	tl_advance(1 * MS);
	sleep = tick_nohz_get_sleep_length(rq, &delta_next);
	assert_true(sleep == 8 * MS);
	assert_true(delta_next == 3 * MS);

	sim_cancel(&rq->tick_ev);
	rq->tick_stopped = true;
	hrtimer_cancel(&a);
	hrtimer_cancel(&c);
	assert_int_equal(sim_cpu(0)->nr_timers, 0);
	assert_int_equal(sim_cpu(1)->nr_timers, 0);
	tl_teardown();
}

/* ---- the tick a governor kept through idle ---- */

void tick_retain_idle(struct rq *rq);
void idle_tick_restart(struct rq *rq);

/*
 * A tick kept through idle is housekeeping that does not keep a finished
 * run going (a background event); once the CPU leaves idle to run a task
 * it is that task's tick again, at the same time. Left in the background,
 * a lock spinner (which has no step of its own) on that CPU, with others
 * waiting for it, made a run look finished with tasks still to run.
 */
static void test_kept_tick_after_idle(void **state)
{
	struct rq *rq;
	u64 t0, nr_bg;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 250, NULL);
	rq = tl_cpu(1);
	t0 = sim_cpu(1)->t;
	nr_bg = machine.eq.nr_background;
	rq->tick_stopped = false;
	sim_schedule(&rq->tick_ev, t0 + 4 * MS);
	tick_retain_idle(rq);
	assert_true(rq->tick_ev.background);
	assert_int_equal(machine.eq.nr_background, nr_bg + 1);
	idle_tick_restart(rq);
	assert_false(rq->tick_ev.background);
	assert_true(ev_queued(&rq->tick_ev));
	assert_int_equal(rq->tick_ev.time, t0 + 4 * MS);
	assert_int_equal(machine.eq.nr_background, nr_bg);
	sim_cancel(&rq->tick_ev);
	rq->tick_stopped = true;
	tl_teardown();
}

/* ---- cpuidle_idle_call(): a wake before the state is entered ---- */

/*
 * A wake that reaches the CPU while it is still on its way into idle finds
 * need_resched in call_cpuidle(): -EBUSY, no state entered, so no exit
 * latency, no usage, nothing reflected, last_residency_ns 0 (menu then
 * pushes UINT_MAX into its intervals). A wake after entry pays the exit
 * latency and is reflected.
 */
static void test_wake_before_entry(void **state)
{
	struct rq *rq;
	u64 entry, lat, usage;
	int idx;

	(void)state;
	tl_setup("smt2-2s-16", TL_ZERO_COST, 250, NULL);
	tl.cost.idle_enter = 700;
	cpuidle_governor = CPUIDLE_GOV_MENU;
	rq = tl_cpu(3);
	cpuidle_gov_init(rq);
	assert_true(machine.topo->nr_idle_states > 1);

	/* a first period, entered and woken 50 us in: reflected */
	do_idle();
	idx = rq->idle_state;
	assert_true(idx >= 0);
	lat = machine.topo->idle_states[idx].exit_latency_ns;
	entry = rq->idle_since;
	sim_cpu(3)->t = entry + 50 * US;
	rq->need_resched = true;
	idle_exit(rq);
	rq->need_resched = false;
	assert_int_equal(cpu_now(), entry + 50 * US + lat);
	assert_true(rq->cpuidle_gov.menu.needs_update);
	assert_int_equal(rq->cpuidle_dev.last_residency_ns, 50 * US + lat);

	/* the next one: woken 300 ns into the 700 ns way in */
	do_idle();
	idx = rq->idle_state;
	usage = rq->idle_state_usage[idx];
	assert_false(rq->cpuidle_gov.menu.needs_update);
	entry = rq->idle_since;
	assert_int_equal(sim_cpu(3)->t, entry);
	rq->need_resched = true;
	idle_exit(rq);
	rq->need_resched = false;
	assert_int_equal(cpu_now(), entry);
	assert_int_equal(rq->idle_state_usage[idx], usage - 1);
	assert_false(rq->cpuidle_gov.menu.needs_update);
	assert_int_equal(rq->cpuidle_dev.last_residency_ns, 0);

	cpuidle_governor = CPUIDLE_GOV_DEFAULT;
	tl_teardown();
}

/*
 * cpuidle_poll_time() on icelake-2s-128 (POLL, C1 1/1 us, C1E 4/4 us, C6
 * 170/600 us) at HZ=100: C1 and C1E are below CPUIDLE_POLL_MIN (10 us), so
 * the poll runs for C6's 600 us; with C6 disabled for CPUIDLE_POLL_MAX, a
 * sixteenth of the 10 ms tick.
 */
static void test_poll_time(void **state)
{
	struct rq *rq;

	(void)state;
	tl_setup("icelake-2s-128", TL_ZERO_COST, 100, NULL);
	cpuidle_governor = CPUIDLE_GOV_AVG;
	rq = tl_cpu(2);
	assert_int_equal(machine.topo->nr_idle_states, 4);
	/* avg with nothing but zero-length idles: the poll state */
	rq->idle_duration_avg = 0;
	do_idle();
	assert_int_equal(rq->idle_state, 0);
	assert_true(ev_queued(&rq->step_ev));
	assert_int_equal(rq->step_ev.time - rq->idle_since, 600 * US);
	sim_cpu(2)->t += 1 * US;
	rq->need_resched = true;
	idle_exit(rq);
	rq->need_resched = false;
	rq->idle_duration_avg = 0;

	rq->idle_state_disable = 1U << 3;
	do_idle();
	assert_int_equal(rq->idle_state, 0);
	assert_int_equal(rq->step_ev.time - rq->idle_since, 10 * MS / 16);
	sim_cpu(2)->t += 1 * US;
	rq->need_resched = true;
	idle_exit(rq);
	rq->need_resched = false;
	cpuidle_governor = CPUIDLE_GOV_DEFAULT;
	tl_teardown();
}

/* resched_curr() of @rq from CPU 0 at @t: need_resched, then flags or an IPI */
static void resched_from_cpu0(struct rq *rq, u64 t)
{
	tl_cpu(0);
	sim_cpu(0)->t = t;
	rq->need_resched = true;
	send_reschedule(cpu_of(rq));
}

/*
 * TIF_POLLING_NRFLAG is set from the idle loop's start until call_cpuidle():
 * a CPU on its way into EPYC's C2 (I/O port, not polling, 400 us exit) is
 * woken through its flags without an IPI, and does not enter C2 even when
 * the flag's line reaches it after the entry time.
 */
static void test_wake_polling_before_entry(void **state)
{
	struct rq *rq;
	u64 entry, usage;
	int idx;

	(void)state;
	tl_setup("epyc-milan-2s-256", TL_ZERO_COST, 250, NULL);
	tl.cost.idle_enter = 700;
	rq = tl_cpu(3);
	/* menu with no history and no timer: the deepest state */
	do_idle();
	idx = rq->idle_state;
	assert_int_equal(idx, 2);
	assert_false(rq->polling);
	entry = rq->idle_since;
	usage = rq->idle_state_usage[idx];

	/* CPU 0 reschedules it 300 ns before the entry: flags, no IPI */
	resched_from_cpu0(rq, entry - 300);
	assert_int_equal(rq->nr_wake_without_ipi, 1);
	assert_int_equal(cpu_rq(0)->ipi_resched_sent, 0);

	/* the line arrives 100 ns after the entry time: still no C2 exit */
	tl_cpu(3);
	sim_cpu(3)->t = entry + 100;
	idle_exit(rq);
	assert_int_equal(cpu_now(), entry + 100);
	assert_int_equal(rq->idle_state_usage[idx], usage - 1);
	assert_int_equal(rq->cpuidle_dev.last_residency_ns, 0);
	rq->need_resched = false;

	/* once in C2, the same wake is an IPI and pays the exit */
	do_idle();
	entry = rq->idle_since;
	resched_from_cpu0(rq, entry + 1000);
	assert_int_equal(rq->nr_wake_without_ipi, 1);
	assert_int_equal(cpu_rq(0)->ipi_resched_sent, 1);
	tl_cpu(3);
	sim_cpu(3)->t = entry + 2000;
	idle_exit(rq);
	assert_int_equal(cpu_now(), entry + 2000 + 400 * US);
	rq->need_resched = false;
	tl_teardown();
}

/* ---- menu: v3.x's performance multiplier (MENU_LOAD_MULT, MENU_IOWAIT_MULT) ---- */

static void test_menu_perf_mult(void **state)
{
	(void)state;
	/* get_loadavg(): cpu_load[0] as FSHIFT (11) fixed point, in tenths */
	assert_int_equal(menu_get_loadavg(0), 0);
	/* one nice-0 task, 1024: LOAD_INT 0, LOAD_FRAC 1024 * 100 >> 11 = 50, 50 / 10 */
	assert_int_equal(menu_get_loadavg(1024), 5);
	/* 512: LOAD_FRAC 25, 25 / 10 */
	assert_int_equal(menu_get_loadavg(512), 2);
	/* two tasks: LOAD_INT 1 -> 10; three: 10 + 5 */
	assert_int_equal(menu_get_loadavg(2048), 10);
	assert_int_equal(menu_get_loadavg(3072), 15);

	/* an idle CPU (load 0 at its last update, no I/O waiter): 1 */
	assert_int_equal(menu_performance_multiplier(0, true, 0, true), 1);
	/* a busy CPU with one task at its last tick: 1 + 2 * 5 */
	assert_int_equal(menu_performance_multiplier(1024, true, 0, true), 11);
	assert_int_equal(menu_performance_multiplier(2048, true, 0, true), 21);
	/* one task waiting for I/O: 1 + 10; with the load as well: 21 */
	assert_int_equal(menu_performance_multiplier(0, true, 1, true), 11);
	assert_int_equal(menu_performance_multiplier(1024, true, 1, true), 21);
	/* each term only with its feature */
	assert_int_equal(menu_performance_multiplier(1024, false, 1, true), 11);
	assert_int_equal(menu_performance_multiplier(1024, true, 1, false), 11);
	assert_int_equal(menu_performance_multiplier(1024, false, 1, false), 1);
}

/*
 * 1 ms periods and a 10 ms timer: a 1000 us prediction, C6 (133 us exit)
 * when nothing multiplies. With the multiplier a state is skipped when
 * exit * mult > 1000 us.
 */
static void test_menu_select_perf_mult(void **state)
{
	static const unsigned int one_ms[] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
	static const struct {
		unsigned long cpu_load;
		bool load_term;
		unsigned int nr_iowait;
		bool iowait_term;
		int state;
	} cases[] = {
		/* idle CPU: 1, C6 */
		{ 0, true, 0, true, 3 },
		/* a task at the last tick (11): C6 133 * 11 = 1463 > 1000, C1E 110 fits */
		{ 1024, true, 0, true, 2 },
		/* one I/O waiter (11): the same */
		{ 0, true, 1, true, 2 },
		/* ten I/O waiters (101): C1E 10 * 101 = 1010 > 1000: C1 */
		{ 0, true, 10, true, 1 },
		/* nothing sends it below C1 (v3.x's default state): 2 us * 1001 */
		{ 0, true, 100, true, 1 },
		/* the features off: 1, C6 again */
		{ 2048, false, 10, false, 3 },
	};
	struct menu_device d;
	struct cpuidle_device dev = { .last_state_idx = -1, .last_residency_ns = 1 };
	struct cpuidle_view v = view(10 * MS, TICK);
	bool stop_tick = true;

	(void)state;
	menu_enable_device(&d);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		set_intervals(&d, one_ms);
		v.perf_mult = menu_performance_multiplier(cases[i].cpu_load, cases[i].load_term,
							  cases[i].nr_iowait, cases[i].iowait_term);
		assert_int_equal(menu_select(&d, &dev, &v, &stop_tick), cases[i].state);
	}
}

/*
 * rq->cpu_load[0] (cpu_load.c) with v3.10's source, the load weight: the
 * tick stores the queued weight; leaving idle with the tick stopped stores
 * 0 once a jiffy has passed since, not before; the idle-load balancer's
 * update only on an empty rq. Without MENU_LOAD_MULT, its one reader, it
 * is not kept.
 */
static void test_cpu_load0_updates(void **state)
{
	char err[128];
	struct rq *rq;

	(void)state;
	tl_setup("epyc-milan-2s-256", TL_ZERO_COST, 250, NULL);
	/* kept only for its reader */
	rq = tl_cpu(1);
	tl_fork_running("a", 1);
	update_cpu_load_active(rq);
	assert_int_equal(rq->cpu_load0, 0);
	tl_teardown();

	tl_setup("epyc-milan-2s-256", TL_ZERO_COST, 250, NULL);
	assert_int_equal(sched_feat_apply("MENU_LOAD_MULT,NO_CPU_LOAD_RUNNABLE_AVG", err, sizeof(err)),
			 0);
	rq = tl_cpu(1);
	tl_fork_running("a", 1);
	update_cpu_load_active(rq);
	assert_int_equal(rq->cpu_load0, 1024);
	tl_fork("b", 1);
	update_cpu_load_active(rq);
	assert_int_equal(rq->cpu_load0, 2048);

	/* the same jiffy: the idle exit keeps the tick's load */
	update_cpu_load_nohz(rq);
	assert_int_equal(rq->cpu_load0, 2048);
	/* queued tasks: the idle-load balancer leaves it */
	tl_advance(TICK);
	update_idle_cpu_load(rq);
	assert_int_equal(rq->cpu_load0, 2048);
	/* a jiffy later: "we were idle", 0 */
	update_cpu_load_nohz(rq);
	assert_int_equal(rq->cpu_load0, 0);
	assert_int_equal(rq->last_load_update_tick, cpu_now() / TICK);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typical_interval),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_menu_update),
		cmocka_unit_test(test_menu_select_next_timer),
		cmocka_unit_test(test_menu_select_typical),
		cmocka_unit_test(test_menu_perf_mult),
		cmocka_unit_test(test_menu_select_perf_mult),
		cmocka_unit_test(test_cpu_load0_updates),
		cmocka_unit_test_setup(test_teo_bins, teo_setup),
		cmocka_unit_test_setup(test_teo_intercepts, teo_setup),
		cmocka_unit_test(test_sleep_length),
		cmocka_unit_test(test_kept_tick_after_idle),
		cmocka_unit_test(test_wake_before_entry),
		cmocka_unit_test(test_poll_time),
		cmocka_unit_test(test_wake_polling_before_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
