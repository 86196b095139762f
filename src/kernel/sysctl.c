// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduler tunables, set per run with `--sysctl NAME=VALUE` like writes to
 * /sys/kernel/debug/sched/NAME (or the old /proc/sys/kernel/sched_NAME).
 */
#include "kernel/sched.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct sched_tunables sysctl_defaults = {
	/*
	 * fair.c: normalized_sysctl_sched_base_slice = 700000 in v6.18; the
	 * effective sysctl_sched_base_slice is set from it at boot by
	 * update_sysctl(), 1x on one CPU up to 4x with 8 or more under the
	 * default SCHED_TUNABLESCALING_LOG.
	 */
	.base_slice_ns = 700000ULL,
	.normalized_base_slice_ns = 700000ULL,
	.tunable_scaling = SCHED_TUNABLESCALING_LOG,
	/* core.c: sysctl_resched_latency_warn_ms = 100, _once = 1 */
	.latency_warn_ms = 100,
	.latency_warn_once = 1,
	.migration_cost_ns = 500000ULL,
	.nr_migrate = 32,
	/*
	 * The 2013 RFC's limit on the average interval between idle balances;
	 * its value was a tunable, defaulting here to migration_cost (an
	 * estimate; docs/balancing.md).
	 */
	.sched_idle_balance_limit_ns = 500000ULL,
	/* deadline.c sched_init_dl_servers(): 50 ms of every 1 s period for fair tasks */
	.fair_server_runtime_ns = 50000000ULL,
	.fair_server_period_ns = 1000000000ULL,
	.hz = 250,
	/* CONFIG_PREEMPT_VOLUNTARY, what most distribution kernels run */
	.preempt = PREEMPT_VOLUNTARY_MODEL,
	/* itmt.c: sched_set_itmt_support() sets sysctl_sched_itmt_enabled = 1 */
	.sched_itmt_enabled = 1,
	/* topology.c: sysctl_sched_energy_aware = 1 */
	.energy_aware = 1,
	/*
	 * CONFIG_IRQ_TIME_ACCOUNTING is off in the x86 kernels the presets
	 * stand for: Debian's amd64 and cloud-amd64 configs (linux-config-6.12,
	 * 6.12.118), mainline's x86_64_defconfig and the development VM's
	 * kernel (docs/pelt.md, "IRQ time")
	 */
	.irqtime = 0,
};

/*
 * Set from sysctl_defaults before main(): C17 wants a constant expression in
 * a static initializer, and a const object is not one (gcc accepts it as an
 * extension, clang refuses it).
 */
struct sched_tunables sysctl_sched;

__attribute__((constructor)) static void sysctl_sched_boot(void)
{
	sysctl_sched = sysctl_defaults;
}

struct sysctl_entry {
	const char *name;
	size_t offset;
	bool is_u64;
	u64 min, max;
	const char *help;
};

#define U64(f, lo, hi, h) { #f, offsetof(struct sched_tunables, f), true, lo, hi, h }
#define U32(f, lo, hi, h) { #f, offsetof(struct sched_tunables, f), false, lo, hi, h }
static const struct sysctl_entry sysctl_table[] = {
	U64(base_slice_ns, 100000, 100000000, "EEVDF base slice, the effective value (debugfs base_slice_ns)"),
	U32(tunable_scaling, 0, SCHED_TUNABLESCALING_END - 1, "base slice scaling with the CPU count at boot: 0 none, 1 log, 2 linear"),
	U32(latency_warn_ms, 0, 1000000, "LATENCY_WARN: need_resched pending this long is reported (0: never)"),
	U32(latency_warn_once, 0, 1, "LATENCY_WARN: report only the first (1) or each, at most one an hour (0)"),
	U64(migration_cost_ns, 0, 1000000000, "a task that ran this recently is cache hot"),
	U32(nr_migrate, 1, 1024, "tasks moved per load-balance pass at most"),
	U64(sched_idle_balance_limit_ns, 0, 1000000000, "NEWIDLE_RATE_LIMIT: skip idle balance below this average interval"),
	/* debug.c: a period of fair_server_period_min (100 us) .. _max (2^22 us); runtime <= period */
	U64(fair_server_runtime_ns, 0, 4194304000ULL, "the fair server's runtime per period: fair tasks' share under RT load (debugfs fair_server/cpuN/runtime)"),
	U64(fair_server_period_ns, 100000, 4194304000ULL, "the fair server's period (debugfs fair_server/cpuN/period)"),
	U32(sched_itmt_enabled, 0, 1, "x86 ITMT: asym packing by CPU priority on, 1, or off, 0 (debugfs x86/sched_itmt_enabled; ITMT machines only)"),
	U32(energy_aware, 0, 1, "EAS: find_energy_efficient_cpu() on wakeup while not overutilized, where possible (kernel.sched_energy_aware; docs/energy.md)"),
	U32(irqtime, 0, 1, "IRQ time accounting, a boot-time choice (CONFIG_IRQ_TIME_ACCOUNTING; irqtime= or x86 tsc=noirqtime): 1 takes interrupt time out of tasks' clock into avg_irq (docs/pelt.md)"),
	U32(schedutil_rate_limit_us, 0, 10000000, "schedutil: least time between frequency updates (cpufreq/policyN/schedutil/rate_limit_us; default the driver's transition delay)"),
	/*
	 * ondemand and conservative (cpufreq/ondemand/NAME): the widest of
	 * the two governors' store limits here; cpufreq_check() applies the
	 * running governor's own (docs/cpufreq.md). sampling_rate's lower
	 * bound, two ticks, depends on HZ; its upper one is schedlab's.
	 */
	U32(sampling_rate, 1, 10000000, "ondemand/conservative: us between load samples (at least 2 ticks; default max(2 ticks, the driver's transition delay))"),
	U32(up_threshold, 1, 100, "ondemand/conservative: load % above which the frequency goes up (ondemand 95, conservative 80)"),
	U32(sampling_down_factor, 1, 100000, "ondemand: sampling_rate multiplier while at max (1..100000); conservative: samples between decreases (1..10)"),
	U32(ignore_nice_load, 0, 1, "ondemand/conservative: 1 counts the user time of tasks at nice > 0 as idle"),
	U32(io_is_busy, 0, 1, "ondemand: 1 counts iowait as busy (default 1 on Intel x86, else 0)"),
	U32(powersave_bias, 0, 1000, "ondemand: permille taken off each target frequency (0)"),
	U32(freq_step, 0, 100, "conservative: % of scaling_max_freq per step (5)"),
	U32(down_threshold, 1, 99, "conservative: load % below which the frequency steps down (20; below up_threshold)"),
	U32(scaling_min_freq, 1, 100000000, "every policy's cpufreq/policyN/scaling_min_freq in kHz, within the hardware's range"),
	U32(scaling_max_freq, 1, 100000000, "every policy's cpufreq/policyN/scaling_max_freq in kHz, within the hardware's range"),
};
#undef U64
#undef U32

_Static_assert(ARRAY_SIZE(sysctl_table) <= 64, "sched_tunables.written has a bit per entry");

/*
 * A write of the fair server's runtime or period is checked against the
 * other one's value at the time, as debug.c sched_fair_server_write() does
 * on each CPU's files: runtime above the period is EINVAL, a bandwidth
 * above the DL limit EBUSY (dl_server_apply_params()), so the order of the
 * --sysctl options matters as the order of the writes would.
 */
static int fair_server_sysctl_check(const struct sysctl_entry *e, u64 v, char *err, size_t errlen)
{
	bool is_period = e->offset == offsetof(struct sched_tunables, fair_server_period_ns);
	bool is_runtime = e->offset == offsetof(struct sched_tunables, fair_server_runtime_ns);
	u64 runtime = is_runtime ? v : sysctl_sched.fair_server_runtime_ns;
	u64 period = is_period ? v : sysctl_sched.fair_server_period_ns;
	int ret;

	if (!is_period && !is_runtime)
		return 0;
	ret = fair_server_params_check(runtime, period);
	if (ret == -EINVAL) {
		snprintf(err, errlen,
			 "--sysctl %s=%llu: runtime %llu above period %llu (fair_server_runtime_ns, "
			 "fair_server_period_ns; set them in an order that keeps runtime <= period): "
			 "the kernel's write fails with EINVAL",
			 e->name, (unsigned long long)v, (unsigned long long)runtime,
			 (unsigned long long)period);
		return -1;
	}
	if (ret == -EBUSY) {
		snprintf(err, errlen,
			 "--sysctl %s=%llu: runtime %llu of period %llu is more than the 95%% the "
			 "deadline class may reserve (sched_rt_runtime_us 950000 of 1000000): the "
			 "kernel's write fails with EBUSY",
			 e->name, (unsigned long long)v, (unsigned long long)runtime,
			 (unsigned long long)period);
		return -1;
	}
	return 0;
}

void sched_sysctl_reset(void)
{
	sysctl_sched = sysctl_defaults;
}

int sched_sysctl_set(const char *assignment, char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	size_t nlen = eq ? (size_t)(eq - assignment) : strlen(assignment);

	if (!eq) {
		snprintf(err, errlen, "--sysctl '%s': expected NAME=VALUE", assignment);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sysctl_table); i++) {
		const struct sysctl_entry *e = &sysctl_table[i];
		char *end;
		unsigned long long v;

		if (strlen(e->name) != nlen || strncmp(e->name, assignment, nlen))
			continue;
		errno = 0;
		v = strtoull(eq + 1, &end, 10);
		if (!eq[1] || *end || errno || eq[1] == '-' || v < e->min || v > e->max) {
			snprintf(err, errlen, "--sysctl %s: value must be an integer in %llu..%llu, got '%s'",
				 e->name, (unsigned long long)e->min, (unsigned long long)e->max, eq + 1);
			return -1;
		}
		if (fair_server_sysctl_check(e, v, err, errlen))
			return -1;
		if (e->is_u64)
			*(u64 *)((char *)&sysctl_sched + e->offset) = v;
		else
			*(unsigned int *)((char *)&sysctl_sched + e->offset) = (unsigned int)v;
		/* a debugfs write sets the effective slice: boot scaling leaves it */
		if (e->offset == offsetof(struct sched_tunables, base_slice_ns))
			sysctl_sched.base_slice_written = true;
		if (e->offset == offsetof(struct sched_tunables, schedutil_rate_limit_us))
			sysctl_sched.schedutil_rate_limit_written = true;
		if (e->offset == offsetof(struct sched_tunables, sched_itmt_enabled))
			sysctl_sched.sched_itmt_written = true;
		sysctl_sched.written |= 1ULL << i;
		return 0;
	}
	int n = snprintf(err, errlen, "--sysctl: unknown tunable '%.*s' (known:", (int)nlen, assignment);
	for (size_t i = 0; i < ARRAY_SIZE(sysctl_table) && n > 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - (size_t)n, " %s", sysctl_table[i].name);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ")");
	return -1;
}

bool sched_sysctl_written(size_t offset)
{
	for (size_t i = 0; i < ARRAY_SIZE(sysctl_table); i++)
		if (sysctl_table[i].offset == offset)
			return sysctl_sched.written & (1ULL << i);
	return false;
}

/* get_update_sysctl_factor(): the tunable_scaling factor for @nr_cpus online CPUs */
static unsigned int sched_tunable_factor(unsigned int nr_cpus)
{
	unsigned int cpus = min(nr_cpus, 8U);

	switch (sysctl_sched.tunable_scaling) {
	case SCHED_TUNABLESCALING_NONE:
		return 1;
	case SCHED_TUNABLESCALING_LINEAR:
		return cpus;
	case SCHED_TUNABLESCALING_LOG:
	default:
		return 1 + (unsigned int)ilog2(cpus);
	}
}

/*
 * The kernel runs update_sysctl() at boot and on CPU hotplug; schedlab has no
 * hotplug, so this is the one time. tunable_scaling is taken as the policy
 * in force at boot; a base_slice_ns write is applied after it, as a write to
 * /sys/kernel/debug/sched/base_slice_ns on the booted machine would be (the
 * kernel's debugfs file is the effective value and leaves the normalized one
 * alone).
 */
void sched_init_granularity(unsigned int nr_cpus)
{
	if (!sysctl_sched.base_slice_written)
		sysctl_sched.base_slice_ns =
			sched_tunable_factor(nr_cpus) * sysctl_sched.normalized_base_slice_ns;
}
