// SPDX-License-Identifier: GPL-2.0-only
/*
 * The menu cpuidle governor, line of thought of v6.18's
 * drivers/cpuidle/governors/menu.c.
 *
 * It predicts the idle duration twice and takes the shorter: the time to
 * the next timer scaled by a correction factor learnt per bucket of that
 * time (how much of it idle periods of that length really lasted), and the
 * typical interval of the last eight idle periods when they agree well
 * enough (get_typical_interval()). It then picks the deepest enabled state
 * whose target residency fits and whose exit latency meets the latency
 * constraint, and keeps the tick when the state is the poll loop or the
 * prediction is below a tick. menu_reflect() after each wakeup arms the
 * update that the next selection makes.
 */
#include "kernel/cpuidle_gov.h"

#include <limits.h>
#include <string.h>

#define NS_PER_US 1000ULL

/* the buckets of next-timer durations: < 10 us, 100 us, 1 ms, 10 ms, 100 ms, longer */
unsigned int menu_which_bucket(u64 duration_ns)
{
	u64 limit = 10 * NS_PER_US;
	unsigned int bucket = 0;

	while (bucket < MENU_BUCKETS - 1 && duration_ns >= limit) {
		bucket++;
		limit *= 10;
	}
	return bucket;
}

/*
 * get_loadavg(): LOAD_INT(load) * 10 + LOAD_FRAC(load) / 10, the load in
 * tenths when @cpu_load is taken as a fixed-point load average with
 * FSHIFT fraction bits. It is a load weight (1024 per nice-0 task), so one
 * such task reads as 0.5, i.e. 5.
 */
unsigned int menu_get_loadavg(unsigned long cpu_load)
{
	const unsigned long fixed_1 = 1UL << MENU_LOAD_FSHIFT;
	unsigned long load_int = cpu_load >> MENU_LOAD_FSHIFT;
	unsigned long load_frac = ((cpu_load & (fixed_1 - 1)) * 100) >> MENU_LOAD_FSHIFT;
	unsigned long tenths = load_int * 10 + load_frac / 10;

	/* the kernel's int: a load beyond it was never seen on a CPU */
	return tenths > UINT_MAX / 4 ? UINT_MAX / 4 : (unsigned int)tenths;
}

unsigned int menu_performance_multiplier(unsigned long cpu_load, bool load_term,
					 unsigned int nr_iowait, bool iowait_term)
{
	u64 mult = 1;

	if (load_term)
		mult += (u64)MENU_MULT_LOAD * menu_get_loadavg(cpu_load);
	if (iowait_term)
		mult += (u64)MENU_MULT_IOWAIT * nr_iowait;
	return mult > UINT_MAX ? UINT_MAX : (unsigned int)mult;
}

void menu_enable_device(struct menu_device *data)
{
	memset(data, 0, sizeof(*data));
	/* a factor of unity: the next timer is taken at its word until learnt otherwise */
	for (unsigned int i = 0; i < MENU_BUCKETS; i++)
		data->correction_factor[i] = MENU_RESOLUTION * MENU_DECAY;
}

static void menu_update_intervals(struct menu_device *data, unsigned int interval_us)
{
	data->intervals[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= MENU_INTERVALS)
		data->interval_ptr = 0;
}

/*
 * The average of the recent intervals when their spread is small (a
 * standard deviation of at most 20 us, or at most 1/6 of the average with
 * 3/4 of the samples left). Otherwise the sample furthest from the average
 * on the side where the extreme is further away is dropped, and the rest
 * tried again, down to 3/4 of the samples; then there is no typical
 * interval (UINT_MAX), which lets the deepest states be chosen.
 */
unsigned int menu_get_typical_interval(const struct menu_device *data)
{
	s64 min_thresh = -1, max_thresh = UINT_MAX;

	for (;;) {
		unsigned int max = 0, min = UINT_MAX, divisor = 0;
		u64 avg = 0, variance = 0, avg_sq;

		for (unsigned int i = 0; i < MENU_INTERVALS; i++) {
			s64 value = data->intervals[i];

			/* samples outside the thresholds are out of this round */
			if (value <= min_thresh || value >= max_thresh)
				continue;
			divisor++;
			avg += (u64)value;
			variance += (u64)value * (u64)value;
			if (value > max)
				max = (unsigned int)value;
			if (value < min)
				min = (unsigned int)value;
		}
		if (!max)
			return UINT_MAX;
		avg /= divisor;
		variance /= divisor;
		avg_sq = avg * avg;
		variance -= avg_sq;

		/* avg < 2^32 so avg_sq fits; a variance that 36x would overflow is no candidate */
		if (variance <= UINT64_MAX / 36 &&
		    ((avg_sq > variance * 36 && divisor * 4 >= MENU_INTERVALS * 3) ||
		     variance <= 400))
			return (unsigned int)avg;
		if (divisor * 4 <= MENU_INTERVALS * 3)
			return UINT_MAX;
		if (avg - min > max - avg)
			min_thresh = min;
		else
			max_thresh = max;
	}
}

/*
 * The next timer scaled by its bucket's correction factor, rounded to the
 * nearest us, in ns. 128 bits: the kernel's u64 product would wrap for a
 * next timer some 26 days away, which no armed timer is there, but with no
 * timer armed at all the sleep length here is KTIME_MAX.
 */
static u64 menu_timer_prediction(const struct menu_device *data)
{
	const u64 scale = (u64)MENU_RESOLUTION * MENU_DECAY * NS_PER_US;
	unsigned __int128 x = (unsigned __int128)data->next_timer_ns *
			      data->correction_factor[data->bucket];

	return (u64)((x + scale / 2) / scale) * NS_PER_US;
}

int menu_select(struct menu_device *data, struct cpuidle_device *dev,
		const struct cpuidle_view *v, bool *stop_tick)
{
	s64 latency_req = v->latency_req;
	s64 delta_tick;
	u64 predicted_ns;
	int i, idx;

	if (data->needs_update) {
		menu_update(data, dev, v);
		data->needs_update = false;
	} else if (!dev->last_residency_ns) {
		/* no measured period to learn from: the table forgets rather than misleads */
		menu_update_intervals(data, UINT_MAX);
	}

	predicted_ns = (u64)menu_get_typical_interval(data) * NS_PER_US;
	if (predicted_ns > RESIDENCY_THRESHOLD_NS) {
		s64 delta = v->sleep_length;

		delta_tick = v->delta_tick;
		if (delta < 0) {
			delta = 0;
			delta_tick = 0;
		}
		data->next_timer_ns = (u64)delta;
		data->bucket = menu_which_bucket(data->next_timer_ns);
		/* the lower of the two predictions */
		if (menu_timer_prediction(data) < predicted_ns)
			predicted_ns = menu_timer_prediction(data);
	} else {
		/*
		 * A short typical interval: the next timer is not looked up;
		 * it is taken as far away, and the tick as half a period off.
		 */
		data->next_timer_ns = (u64)CPUIDLE_KTIME_MAX;
		delta_tick = v->tick_nsec / 2;
		data->bucket = MENU_BUCKETS - 1;
	}

	if (v->state_count <= 1 || latency_req == 0 ||
	    ((data->next_timer_ns < (u64)st_residency(v, 1) || latency_req < st_exit_latency(v, 1)) &&
	     !st_disabled(v, 0))) {
		/* state 0 whatever else: the tick is kept if it polls */
		*stop_tick = !st_polling(v, 0);
		return 0;
	}

	/*
	 * With the tick stopped already, a short misprediction could leave the
	 * CPU in a shallow state for long: go by the next timer then.
	 */
	if (v->tick_stopped && predicted_ns < (u64)v->tick_nsec)
		predicted_ns = data->next_timer_ns;

	idx = -1;
	for (i = 0; i < (int)v->state_count; i++) {
		if (st_disabled(v, i))
			continue;
		if (idx == -1)
			idx = i;
		if (st_exit_latency(v, i) > latency_req)
			break;
		/*
		 * v3.x's performance multiplier: a busy CPU (its load at the
		 * last update) or one with I/O waiters wants its prediction to
		 * cover the exit latency mult times. v3.x never chose below C1
		 * for it (C1 was the default past a 5 us timer), so it only
		 * stops deeper states once a physical one has been chosen.
		 */
		if (v->perf_mult > 1 && idx != -1 && !st_polling(v, idx) &&
		    (unsigned __int128)st_exit_latency(v, i) * v->perf_mult > predicted_ns)
			break;
		if ((u64)st_residency(v, i) <= predicted_ns) {
			idx = i;
			continue;
		}
		/*
		 * Rather a physical state than the poll loop, when a timer
		 * comes late enough for it and its exit is short enough.
		 */
		if (st_polling(v, idx) && (u64)st_residency(v, i) <= data->next_timer_ns &&
		    (u64)st_exit_latency(v, i) <= predicted_ns) {
			predicted_ns = (u64)st_residency(v, i);
			idx = i;
			break;
		}
		if (predicted_ns < (u64)v->tick_nsec)
			break;
		if (!v->tick_stopped) {
			/* shallow so far: keep the tick and choose again at it */
			predicted_ns = (u64)st_residency(v, idx);
			break;
		}
		/* with the tick stopped, a deeper state that the next event leaves room for */
		if (st_residency(v, idx) < v->tick_nsec && st_residency(v, i) <= delta_tick)
			idx = i;
		return idx;
	}
	if (idx == -1)
		idx = 0;

	/* the tick stays for the poll loop and for a prediction within a tick */
	if ((st_polling(v, idx) || predicted_ns < (u64)v->tick_nsec) && !v->tick_stopped) {
		*stop_tick = false;
		/* a state that the tick would cut short: the deepest that fits before it */
		if (idx > 0 && st_residency(v, idx) > delta_tick)
			idx = cpuidle_find_shallower_state(v, idx, delta_tick);
	}
	return idx;
}

void menu_reflect(struct menu_device *data, struct cpuidle_device *dev, int index, bool got_tick)
{
	dev->last_state_idx = index;
	data->needs_update = true;
	data->tick_wakeup = got_tick;
}

void menu_update(struct menu_device *data, struct cpuidle_device *dev, const struct cpuidle_view *v)
{
	int last_idx = dev->last_state_idx;
	u64 measured_ns;
	unsigned int new_factor;

	if (data->tick_wakeup && data->next_timer_ns > (u64)v->tick_nsec) {
		/*
		 * Woken by a tick that was to be stopped while no timer was due
		 * within it: the CPU could have slept long, not forever.
		 */
		measured_ns = 9 * MENU_MAX_INTERESTING / 10;
	} else if (st_polling(v, last_idx) && dev->poll_time_limit) {
		/* the poll ran out: a better prediction would have slept to the timer */
		measured_ns = data->next_timer_ns;
	} else {
		/* the wakeup began before the exit latency; shorter than 2x: half of it */
		measured_ns = dev->last_residency_ns;
		if (measured_ns > 2 * (u64)st_exit_latency(v, last_idx))
			measured_ns -= (u64)st_exit_latency(v, last_idx);
		else
			measured_ns /= 2;
	}
	/* a factor above unity would make a timer later than it is */
	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / MENU_DECAY;
	if (data->next_timer_ns > 0 && measured_ns < MENU_MAX_INTERESTING)
		new_factor += (unsigned int)(MENU_RESOLUTION * measured_ns / data->next_timer_ns);
	else
		/* idle so long that it counts as a perfect prediction */
		new_factor += MENU_RESOLUTION;
	data->correction_factor[data->bucket] = new_factor;

	/*
	 * ktime_to_us() into an unsigned int: saturated here, where the
	 * kernel would truncate the KTIME_MAX of a poll that ran out with no
	 * timer looked up
	 */
	measured_ns /= NS_PER_US;
	menu_update_intervals(data, measured_ns > UINT_MAX ? UINT_MAX : (unsigned int)measured_ns);
}
