/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuidle governors, line of thought of drivers/cpuidle/governors/menu.c
 * and teo.c in v6.18, plus schedlab's own `avg`: each picks the idle state
 * an idle CPU enters and says whether its tick may be stopped.
 *
 * menu and teo are written against what cpuidle hands them (struct
 * cpuidle_view: the driver's states, the device's stateK/disable bits,
 * the latency constraint, the tick and the sleep length) and keep their
 * per-CPU data in the structs below, so that tests drive them by hand.
 */
#ifndef SCHEDLAB_KERNEL_CPUIDLE_GOV_H
#define SCHEDLAB_KERNEL_CPUIDLE_GOV_H

#include "topo/topology.h"

#include <stdbool.h>

enum cpuidle_governor {
	/*
	 * schedlab's own, not a kernel governor (--cpuidle avg): the deepest
	 * state whose target residency fits an average of the recent idle
	 * periods, the tick always stopped
	 */
	CPUIDLE_GOV_AVG,
	CPUIDLE_GOV_MENU,
	CPUIDLE_GOV_TEO,
	NR_CPUIDLE_GOVS,
};

/*
 * menu: what every preset's platform runs (distribution and Android GKI
 * kernels build menu in and rate it above teo, and intel_idle, acpi_idle,
 * PSCI and pseries cpuidle take the highest rated governor)
 */
#define CPUIDLE_GOV_DEFAULT CPUIDLE_GOV_MENU

/* the governor of this run (cpuidle.governor=); CPUIDLE_GOV_DEFAULT unless chosen */
extern enum cpuidle_governor cpuidle_governor;
extern const char *const cpuidle_governor_names[NR_CPUIDLE_GOVS];

/* @name's governor, or -1 with a message naming it in @err */
int cpuidle_governor_parse(const char *name, char *err, size_t errlen);

/* gov.h: idle durations below this are "short" to both governors (15 us) */
#define RESIDENCY_THRESHOLD_NS (15ULL * 1000)
/*
 * cpuidle.c's bounds on how long the poll state polls (cpuidle_poll_time()):
 * a deeper state's target residency below POLL_MIN is no limit to it, and
 * no limit is longer than POLL_MAX, a sixteenth of a tick
 */
#define CPUIDLE_POLL_MIN (10ULL * 1000)
#define CPUIDLE_POLL_MAX(tick_nsec) ((tick_nsec) / 16)

/* the kernel's KTIME_MAX: no timer armed */
#define CPUIDLE_KTIME_MAX INT64_MAX

/*
 * PM QoS: no latency requests are modelled, so cpuidle_governor_latency_req()
 * is the CPU latency QoS default, PM_QOS_CPU_LATENCY_DEFAULT_VALUE
 * (2000 s) in ns.
 */
#define CPUIDLE_LATENCY_REQ_NONE (2000LL * 1000 * 1000 * 1000)

/* what a governor's select sees */
struct cpuidle_view {
	const struct idle_state *states;	/* drv->states */
	unsigned int state_count;
	unsigned int disable;			/* dev->states_usage[K].disable, bit K */
	s64 latency_req;			/* cpuidle_governor_latency_req() */
	bool tick_stopped;			/* tick_nohz_tick_stopped() */
	s64 tick_nsec;				/* TICK_NSEC */
	/*
	 * tick_nohz_get_sleep_length(): the time from idle entry to the next
	 * timer event without the tick (CPUIDLE_KTIME_MAX: none), and to the
	 * next event with it (@delta_tick)
	 */
	s64 sleep_length;
	s64 delta_tick;
	/*
	 * v3.x menu's performance multiplier (menu_performance_multiplier()):
	 * a state deeper than the first physical one is skipped when its exit
	 * latency times this exceeds the predicted idle duration. 1: no
	 * multiplier, as v6.18 (and anything but menu) has it.
	 */
	unsigned int perf_mult;
};

/*
 * State @i of @v: disabled; the poll loop (CPUIDLE_FLAG_POLLING, state 0
 * on x86: not an MWAIT state, which polls its flags too); its target
 * residency and exit latency.
 */
static inline bool st_disabled(const struct cpuidle_view *v, int i)
{
	return v->disable & (1U << i);
}

static inline bool st_polling(const struct cpuidle_view *v, int i)
{
	return v->states[i].polls && v->states[i].target_residency_ns == 0 &&
	       v->states[i].exit_latency_ns == 0;
}

static inline s64 st_residency(const struct cpuidle_view *v, int i)
{
	return (s64)v->states[i].target_residency_ns;
}

static inline s64 st_exit_latency(const struct cpuidle_view *v, int i)
{
	return (s64)v->states[i].exit_latency_ns;
}

/*
 * The deepest enabled state below @state_idx whose target residency fits
 * @duration_ns, else the shallowest enabled one below it, else @state_idx
 * (teo_find_shallower_state(); menu's loop for a kept tick is the same)
 */
static inline int cpuidle_find_shallower_state(const struct cpuidle_view *v, int state_idx,
					       s64 duration_ns)
{
	for (int i = state_idx - 1; i >= 0; i--) {
		if (st_disabled(v, i))
			continue;
		state_idx = i;
		if (st_residency(v, i) <= duration_ns)
			break;
	}
	return state_idx;
}

/* the cpuidle_device fields the governors read and write */
struct cpuidle_device {
	int last_state_idx;		/* -1: nothing to update from */
	u64 last_residency_ns;		/* entry to exit of the last state, its exit included */
	bool poll_time_limit;		/* the last poll ran out (poll_idle()) */
};

/* menu.c's constants */
#define MENU_BUCKETS 6
#define MENU_INTERVAL_SHIFT 3
#define MENU_INTERVALS (1U << MENU_INTERVAL_SHIFT)
#define MENU_RESOLUTION 1024
#define MENU_DECAY 8
#define MENU_MAX_INTERESTING (50000ULL * 1000)

struct menu_device {
	bool needs_update;
	bool tick_wakeup;
	u64 next_timer_ns;
	unsigned int bucket;
	unsigned int correction_factor[MENU_BUCKETS];
	unsigned int intervals[MENU_INTERVALS];		/* us */
	unsigned int interval_ptr;
};

/*
 * The performance multiplier of the menu governor from 69d25870f20c
 * (v2.6.32) on: 1, plus 2 * get_loadavg() of this CPU's rq->cpu_load[0]
 * (@cpu_load, MENU_LOAD_MULT; in v3.x's unscaled load weight units,
 * read as a FSHIFT fixed-point load average), plus 10 per task this CPU
 * has waiting for I/O (@nr_iowait, MENU_IOWAIT_MULT). docs/wakelist-and-idle.md.
 */
#define MENU_LOAD_FSHIFT 11	/* include/linux/sched/loadavg.h FSHIFT */
#define MENU_MULT_LOAD 2	/* "for higher loadavg, we are more reluctant" */
#define MENU_MULT_IOWAIT 10	/* "for IO wait tasks (per cpu!) we add 5x each" */
unsigned int menu_get_loadavg(unsigned long cpu_load);
unsigned int menu_performance_multiplier(unsigned long cpu_load, bool load_term,
					 unsigned int nr_iowait, bool iowait_term);

void menu_enable_device(struct menu_device *data);
unsigned int menu_which_bucket(u64 duration_ns);
/* the typical interval (us) of the last MENU_INTERVALS, UINT_MAX if none stands out */
unsigned int menu_get_typical_interval(const struct menu_device *data);
int menu_select(struct menu_device *data, struct cpuidle_device *dev,
		const struct cpuidle_view *v, bool *stop_tick);
void menu_reflect(struct menu_device *data, struct cpuidle_device *dev, int index, bool got_tick);
/* the correction factor and interval update of the last idle period (in menu_select()) */
void menu_update(struct menu_device *data, struct cpuidle_device *dev, const struct cpuidle_view *v);

/* teo.c's constants */
#define TEO_PULSE 1024
#define TEO_DECAY_SHIFT 3
#define TEO_LATENCY_THRESHOLD_NS (RESIDENCY_THRESHOLD_NS / 2)

struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
};

struct teo_cpu {
	s64 sleep_length_ns;
	struct teo_bin state_bins[TOPO_MAX_IDLE_STATES];
	unsigned int total;
	unsigned int tick_intercepts;
	unsigned int short_idles;
	bool artificial_wakeup;
};

void teo_enable_device(struct teo_cpu *cpu_data);
int teo_select(struct teo_cpu *cpu_data, struct cpuidle_device *dev, const struct cpuidle_view *v,
	       bool *stop_tick);
void teo_reflect(struct teo_cpu *cpu_data, struct cpuidle_device *dev, int state, bool got_tick,
		 s64 tick_nsec);
/* the bins' update from the last idle period (in teo_select()) */
void teo_update(struct teo_cpu *cpu_data, const struct cpuidle_device *dev,
		const struct cpuidle_view *v);

#endif
