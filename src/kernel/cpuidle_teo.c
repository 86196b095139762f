// SPDX-License-Identifier: GPL-2.0-only
/*
 * The teo ("timer events oriented") cpuidle governor, line of thought of
 * v6.18's drivers/cpuidle/governors/teo.c.
 *
 * Each idle state has a bin, the range from its target residency to the
 * next state's. After a wakeup the bin the sleep length (time to the next
 * timer) fell into and the bin the measured idle time fell into are
 * compared: the same bin is a "hit" for it, another is an "intercept" for
 * the bin of the measured time. Both decay by 1/8 per wakeup. Selection
 * starts from the deepest enabled state and moves to a shallower one when
 * the intercepts below the candidate outweigh the hits and intercepts at
 * and above it, then to one that the next timer leaves room for. The tick
 * is kept for the poll loop, for a selection below a tick, and when
 * intercepts after less than a tick dominate.
 *
 * v6.18's teo has no "utilized CPU" rule (the cpu_util() against 1/32 of
 * the capacity check was dropped from teo.c before v6.18): none here.
 */
#include "kernel/cpuidle_gov.h"

#include <string.h>

void teo_enable_device(struct teo_cpu *cpu_data)
{
	memset(cpu_data, 0, sizeof(*cpu_data));
}

void teo_update(struct teo_cpu *cpu_data, const struct cpuidle_device *dev,
		const struct cpuidle_view *v)
{
	int idx_timer = 0, idx_duration = 0;
	u64 measured_ns;

	cpu_data->short_idles -= cpu_data->short_idles >> TEO_DECAY_SHIFT;
	if (cpu_data->artificial_wakeup) {
		/* a safety net woke the CPU (tick, poll limit): maybe a long sleep */
		measured_ns = UINT64_MAX;
	} else {
		u64 lat_ns = (u64)st_exit_latency(v, dev->last_state_idx);

		/* the exit latency is rarely the worst case every time: take half of it */
		measured_ns = dev->last_residency_ns;
		if (measured_ns >= lat_ns) {
			measured_ns -= lat_ns / 2;
			if (measured_ns < RESIDENCY_THRESHOLD_NS)
				cpu_data->short_idles += TEO_PULSE;
		} else {
			measured_ns /= 2;
			cpu_data->short_idles += TEO_PULSE;
		}
	}

	/* decay every bin; find the bins of the sleep length and the measured time */
	for (int i = 0; i < (int)v->state_count; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> TEO_DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> TEO_DECAY_SHIFT;
		if (st_residency(v, i) <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if ((u64)st_residency(v, i) <= measured_ns)
				idx_duration = i;
		}
	}

	cpu_data->tick_intercepts -= cpu_data->tick_intercepts >> TEO_DECAY_SHIFT;
	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += TEO_PULSE;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += TEO_PULSE;
		if ((u64)v->tick_nsec <= measured_ns)
			cpu_data->tick_intercepts += TEO_PULSE;
	}
	cpu_data->total -= cpu_data->total >> TEO_DECAY_SHIFT;
	cpu_data->total += TEO_PULSE;
}

/* with the tick stopped, only a state of a tick or more can be left to the next timer */
static bool teo_state_ok(int i, const struct cpuidle_view *v)
{
	return !v->tick_stopped || st_residency(v, i) >= v->tick_nsec;
}

/*
 * The intercepts favour a state below @idx (their sum below it is more than
 * half of what is not a hit of @idx or deeper): the deepest state under
 * which less than half of those intercepts lie, or the shallowest
 * suitable one passed on the way when that one is disabled or too shallow.
 */
static int teo_intercepts_state(const struct teo_cpu *cpu_data, const struct cpuidle_view *v,
				int idx, unsigned int idx_intercept_sum)
{
	int first_suitable_idx = idx;
	unsigned int intercept_sum = 0;

	for (int i = idx - 1; i >= 0; i--) {
		intercept_sum += cpu_data->state_bins[i].intercepts;
		if (2 * intercept_sum > idx_intercept_sum) {
			if (teo_state_ok(i, v) && !st_disabled(v, i))
				return i;
			return first_suitable_idx;
		}
		if (st_disabled(v, i))
			continue;
		if (teo_state_ok(i, v)) {
			first_suitable_idx = i;
			continue;
		}
		/* too shallow: nothing suitable below if nothing was found so far */
		if (first_suitable_idx == idx)
			break;
	}
	return idx;
}

int teo_select(struct teo_cpu *cpu_data, struct cpuidle_device *dev, const struct cpuidle_view *v,
	       bool *stop_tick)
{
	s64 latency_req = v->latency_req;
	s64 delta_tick = v->tick_nsec / 2;
	unsigned int idx_intercept_sum = 0, intercept_sum = 0;
	unsigned int idx_hit_sum = 0, hit_sum = 0;
	int constraint_idx = 0, idx0 = 0, idx = -1;
	s64 duration_ns;

	if (dev->last_state_idx >= 0) {
		teo_update(cpu_data, dev, v);
		dev->last_state_idx = -1;
	}
	/* unknown unless looked up below: the wakeup then counts as an intercept */
	cpu_data->sleep_length_ns = CPUIDLE_KTIME_MAX;

	if (v->state_count < 2) {
		idx = 0;
		goto out_tick;
	}
	if (!st_disabled(v, 0))
		idx = 0;

	/* the sums of the metrics of the states shallower than each enabled one */
	for (int i = 1; i < (int)v->state_count; i++) {
		intercept_sum += cpu_data->state_bins[i - 1].intercepts;
		hit_sum += cpu_data->state_bins[i - 1].hits;
		if (st_disabled(v, i))
			continue;
		if (idx < 0)
			idx0 = i;
		idx = i;
		if (st_exit_latency(v, i) <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}
	if (idx < 0) {
		idx = 0;
		goto out_tick;
	}
	if (idx == idx0) {
		/* one state enabled: it, with the tick kept if it is shallow */
		duration_ns = st_residency(v, idx);
		goto end;
	}

	if (2 * idx_intercept_sum > cpu_data->total - idx_hit_sum)
		idx = teo_intercepts_state(cpu_data, v, idx, idx_intercept_sum);
	if (idx > constraint_idx)
		idx = constraint_idx;

	/*
	 * A shallow candidate with mostly short idle periods (or a tight
	 * latency constraint) needs no sleep length: non-timer wakeups rule.
	 */
	if ((!idx || st_residency(v, idx) < (s64)RESIDENCY_THRESHOLD_NS) &&
	    (2 * cpu_data->short_idles >= cpu_data->total ||
	     latency_req < (s64)TEO_LATENCY_THRESHOLD_NS))
		goto out_tick;

	duration_ns = v->sleep_length;
	delta_tick = v->delta_tick;
	cpu_data->sleep_length_ns = duration_ns;
	if (!idx)
		goto out_tick;

	/* a timer before the candidate's target residency: a shallower state */
	if (st_residency(v, idx) > duration_ns) {
		int i = cpuidle_find_shallower_state(v, idx, duration_ns);

		if (teo_state_ok(i, v))
			idx = i;
	}
	/* intercepts within a tick are most wakeups: keep the tick for a shallow state */
	if (st_residency(v, idx) < v->tick_nsec &&
	    cpu_data->tick_intercepts > cpu_data->total / 2 + cpu_data->total / 8)
		duration_ns = v->tick_nsec / 2;

end:
	/* the tick may stop unless the state polls or the idle time is below a tick */
	if ((!st_polling(v, idx) && duration_ns >= v->tick_nsec) || v->tick_stopped)
		return idx;
	/* the tick stays: a state that fits before the next event with it */
	if (idx > idx0 && st_residency(v, idx) > delta_tick)
		idx = cpuidle_find_shallower_state(v, idx, delta_tick);
out_tick:
	*stop_tick = false;
	return idx;
}

void teo_reflect(struct teo_cpu *cpu_data, struct cpuidle_device *dev, int state, bool got_tick,
		 s64 tick_nsec)
{
	dev->last_state_idx = state;
	/* a poll that ran out, or a tick where no timer was due: not a genuine wakeup */
	if (dev->poll_time_limit || (got_tick && cpu_data->sleep_length_ns > tick_nsec)) {
		dev->poll_time_limit = false;
		cpu_data->artificial_wakeup = true;
	} else {
		cpu_data->artificial_wakeup = false;
	}
}
