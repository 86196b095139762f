/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuidle's per-state controls: /sys/devices/system/cpu/cpuN/cpuidle/stateK/
 * disable and the intel_idle.max_cstate= limit, as --idle-states SPECs.
 */
#ifndef SCHEDLAB_KERNEL_CPUIDLE_CTL_H
#define SCHEDLAB_KERNEL_CPUIDLE_CTL_H

#include "topo/topology.h"

#include <stddef.h>

/*
 * Apply one SPEC to @disable, a bitmask per CPU of @t (bit K set: stateK is
 * disabled on that CPU):
 *
 *   disable=STATE[,STATE...][@CPUS]  write 1 to stateK/disable
 *   enable=STATE[,STATE...][@CPUS]   write 0 to it
 *   max=STATE[@CPUS]                 disable every state deeper than STATE
 *
 * STATE is a state's name as its sysfs name file shows it (POLL, C1, C6,
 * WFI, CEDE, ...) or its index K; CPUS a CPU list (0-3,8), all CPUs when
 * left out. Returns 0, or -1 with a message naming the SPEC in @err.
 */
int cpuidle_ctl_apply(const char *spec, const struct topology *t, unsigned int *disable, char *err,
		      size_t errlen);

/* give each CPU's runqueue its bits from @disable (after sched_init()) */
void cpuidle_ctl_install(const unsigned int *disable);

#endif
