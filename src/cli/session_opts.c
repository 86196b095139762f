// SPDX-License-Identifier: GPL-2.0-only
#include "cli/session_opts.h"

#include "cli/cli.h"
#include "topo/cost_profile.h"
#include "topo/machine_guest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void session_opts_init(struct session_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->machine = DEFAULT_MACHINE;
	o->seed = DEFAULT_SEED;
}

int parse_u64_opt(const char *cmd, const char *opt, const char *arg, u64 *out)
{
	char *end;

	/* decimal only, like the benchmarks' options: 010 is ten, 0x10 an error */
	errno = 0;
	*out = strtoull(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno)
		return usage_error("%s: %s needs a non-negative integer (decimal), got '%s'", cmd, opt,
				   arg);
	return 0;
}

int session_opt(const char *cmd, int c, const char *arg, struct session_opts *o)
{
	switch (c) {
	case 'm':
		o->machine = arg;
		return 0;
	case 's':
		return parse_u64_opt(cmd, "--seed", arg, &o->seed);
	case 'c':
		o->check = true;
		return 0;
	case 'K': {
		char err[512];

		o->profile = cost_profile_load(arg, err, sizeof(err));
		if (!o->profile)
			return usage_error("%s: --costs: %s", cmd, err);
		return 0;
	}
	case 'C':
		if (o->nr_costs == SESSION_MAX_REPEATS)
			return usage_error("%s: too many --cost options", cmd);
		o->costs[o->nr_costs++] = arg;
		return 0;
	case 'Y':
		if (o->nr_sysctls == SESSION_MAX_REPEATS)
			return usage_error("%s: too many --sysctl options", cmd);
		o->sysctls[o->nr_sysctls++] = arg;
		return 0;
	case 'I':
		if (o->nr_idle_states == SESSION_MAX_REPEATS)
			return usage_error("%s: too many --idle-states options", cmd);
		o->idle_states[o->nr_idle_states++] = arg;
		return 0;
	case 'L':
		o->funclatency = arg;
		return 0;
	case 'O':
		if (strcmp(arg, "on") && strcmp(arg, "off"))
			return usage_error("%s: --probe-overhead must be 'on' or 'off', got '%s'",
					   cmd, arg);
		o->probe_overhead = !strcmp(arg, "on");
		return 0;
	case 'P':
		o->preempt = arg;
		return 0;
	case 'A':
		if (o->nr_also == SESSION_MAX_ALSO)
			return usage_error("%s: too many --also options (at most %d), at '%s'", cmd,
					   SESSION_MAX_ALSO, arg);
		o->also[o->nr_also++] = arg;
		return 0;
	case 'G': {
		struct cpufreq_setup setup;
		char err[256];

		if (cpufreq_parse(arg, &setup, err, sizeof(err)))
			return usage_error("%s: %s", cmd, err);
		o->cpufreq = arg;
		return 0;
	}
	case 'g': {
		struct guest_desc d;
		char err[256];

		if (guest_parse_option(arg, &d, err, sizeof(err)))
			return usage_error("%s: %s", cmd, err);
		o->guest = arg;
		return 0;
	}
	case 'Z': {
		char err[256];

		if (cpuidle_governor_parse(arg, err, sizeof(err)) < 0)
			return usage_error("%s: %s", cmd, err);
		o->cpuidle = arg;
		return 0;
	}
	case 'H': {
		char *end;
		unsigned long hz = strtoul(arg, &end, 10);

		if (*end || (hz != 100 && hz != 250 && hz != 300 && hz != 1000))
			return usage_error("%s: --hz must be 100, 250, 300 or 1000, got '%s'", cmd,
					   arg);
		o->hz = (unsigned int)hz;
		return 0;
	}
	}
	return 1;
}

void session_opts_config(const struct session_opts *o, const char *features, int argc,
			 char **argv, struct session_config *cfg)
{
	*cfg = (struct session_config){
		.machine = o->machine,
		.features = features,
		.seed = o->seed,
		.profile = o->profile,
		.costs = o->costs,
		.nr_costs = o->nr_costs,
		.sysctls = o->sysctls,
		.nr_sysctls = o->nr_sysctls,
		.idle_states = o->idle_states,
		.nr_idle_states = o->nr_idle_states,
		.funclatency = o->funclatency,
		.probe_overhead = o->probe_overhead,
		.preempt = o->preempt,
		.hz = o->hz,
		.cpufreq = o->cpufreq,
		.guest = o->guest,
		.cpuidle = o->cpuidle,
		.argc = argc,
		.argv = argv,
		.also = o->also,
		.nr_also = o->nr_also,
	};
}
