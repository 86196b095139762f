// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuidle's per-state controls, line of thought of drivers/cpuidle/sysfs.c
 * (stateK/disable: CPUIDLE_STATE_DISABLED_BY_USER in the device's
 * states_usage) and of intel_idle's max_cstate= (the driver registers the
 * states up to it and no deeper). A disabled state stays in the table: the
 * governor passes over it, and it still counts for the state numbering and
 * the JSON, as a disabled state still has its sysfs directory. max=K acts
 * as intel_idle.max_cstate=K does on x86, where state0 is POLL and stateK
 * is the driver's K-th state; elsewhere it is the same "nothing deeper than
 * stateK" by index.
 */
#include "kernel/cpuidle_ctl.h"
#include "kernel/sched.h"

#include <stdlib.h>
#include <string.h>

/* a state's index by name or number, or -1 */
static int state_index(const struct topology *t, const char *s, size_t len)
{
	char *end;
	unsigned long k;

	for (unsigned int i = 0; i < t->nr_idle_states; i++)
		if (strlen(t->idle_states[i].name) == len && !strncmp(t->idle_states[i].name, s, len))
			return (int)i;
	if (len == 0 || s[0] < '0' || s[0] > '9')
		return -1;
	k = strtoul(s, &end, 10);
	if ((size_t)(end - s) != len || k >= t->nr_idle_states)
		return -1;
	return (int)k;
}

static void state_names(const struct topology *t, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned int i = 0; i < t->nr_idle_states && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", t->idle_states[i].name);
}

/* the bits of the states named in @list (comma-separated), or 0 with @err set */
static unsigned int parse_states(const char *spec, const char *list, size_t len, bool single,
				 const struct topology *t, char *err, size_t errlen)
{
	unsigned int bits = 0;
	const char *p = list, *end = list + len;

	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
		int k = state_index(t, p, n);

		if (k < 0) {
			char names[TOPO_MAX_IDLE_STATES * 17];

			state_names(t, names, sizeof(names));
			if (!t->nr_idle_states)
				snprintf(err, errlen, "--idle-states '%s': %s has no idle states", spec,
					 t->name);
			else
				snprintf(err, errlen,
					 "--idle-states '%s': %s has no idle state '%.*s' (its states, "
					 "state0 to state%u: %s)",
					 spec, t->name, (int)n, p, t->nr_idle_states - 1, names);
			return 0;
		}
		bits |= 1U << k;
		if (!comma)
			return bits;
		if (single) {
			snprintf(err, errlen, "--idle-states '%s': max= takes one state", spec);
			return 0;
		}
		p = comma + 1;
	}
}

int cpuidle_ctl_apply(const char *spec, const struct topology *t, unsigned int *disable, char *err,
		      size_t errlen)
{
	enum { DISABLE, ENABLE, MAX } op;
	const char *eq = strchr(spec, '=');
	const char *at = strchr(spec, '@');
	const char *states, *states_end;
	struct cpumask cpus;
	unsigned int bits;

	if (!eq || (at && at < eq))
		goto bad;
	if (!strncmp(spec, "disable=", 8))
		op = DISABLE;
	else if (!strncmp(spec, "enable=", 7))
		op = ENABLE;
	else if (!strncmp(spec, "max=", 4))
		op = MAX;
	else
		goto bad;
	states = eq + 1;
	states_end = at ? at : states + strlen(states);
	bits = parse_states(spec, states, (size_t)(states_end - states), op == MAX, t, err,
			    errlen);
	if (!bits)
		return -1;
	if (op == MAX) {
		/* every state deeper than the one named */
		unsigned int all = (1U << t->nr_idle_states) - 1;

		bits = all & ~((bits << 1) - 1);
	}

	if (at) {
		char perr[256];

		if (cpulist_parse(at + 1, &cpus, perr, sizeof(perr))) {
			snprintf(err, errlen, "--idle-states '%s': %s", spec, perr);
			return -1;
		}
		if (cpumask_empty(&cpus)) {
			snprintf(err, errlen, "--idle-states '%s': no CPUs after '@'", spec);
			return -1;
		}
	} else {
		cpumask_setall(&cpus);
	}
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (!cpumask_test_cpu(cpu, &cpus))
			continue;
		if (op == ENABLE)
			disable[cpu] &= ~bits;
		else
			disable[cpu] |= bits;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "--idle-states '%s': expected disable=STATE[,STATE...], enable=STATE[,STATE...] "
		 "or max=STATE, each with an optional @CPUS (STATE a name or index as in "
		 "'schedlab topo')",
		 spec);
	return -1;
}

void cpuidle_ctl_install(const unsigned int *disable)
{
	for (unsigned int cpu = 0; cpu < machine.topo->nr_cpus; cpu++)
		cpu_rq(cpu)->idle_state_disable = disable[cpu];
}

/*
 * The governor: cpuidle.governor= on the kernel command line, or a write
 * to /sys/devices/system/cpu/cpuidle/current_governor. menu by default;
 * `avg` is schedlab's own (cpuidle_gov.h).
 */
enum cpuidle_governor cpuidle_governor = CPUIDLE_GOV_DEFAULT;

const char *const cpuidle_governor_names[NR_CPUIDLE_GOVS] = {
	[CPUIDLE_GOV_AVG] = "avg",
	[CPUIDLE_GOV_MENU] = "menu",
	[CPUIDLE_GOV_TEO] = "teo",
};

int cpuidle_governor_parse(const char *name, char *err, size_t errlen)
{
	for (int g = 0; g < NR_CPUIDLE_GOVS; g++)
		if (!strcmp(name, cpuidle_governor_names[g]))
			return g;
	snprintf(err, errlen,
		 "--cpuidle '%s': unknown idle governor (menu, the default, teo, or avg, schedlab's own; "
		 "a haltpoll guest runs haltpoll whatever is chosen)",
		 name);
	return -1;
}
