/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SCHEDLAB_TOPO_HOST_KERNEL_H
#define SCHEDLAB_TOPO_HOST_KERNEL_H

#include "topo/topology.h"

#include <stdbool.h>

/*
 * Where host_kernel_read() looks (NULL: not there). The tests point these
 * at files of their own; -m host at the running kernel's.
 */
struct host_kernel_files {
	const char *debugfs_preempt; /* /sys/kernel/debug/sched/preempt */
	const char *cmdline; /* /proc/cmdline */
	const char *config; /* /boot/config-RELEASE, plain text */
	const char *config_gz; /* /proc/config.gz */
	const char *uname_version; /* uname -v */
	const char *btf; /* /sys/kernel/btf/vmlinux */
};

/* none, voluntary, full, lazy: the names of --preempt and [machine] preempt */
bool host_preempt_name_valid(const char *name);

/*
 * Sets t->preempt and t->hz from what @f holds, and says where each came
 * from in t->kernel_source; what is not found is left as it was.
 */
void host_kernel_read(struct topology *t, const struct host_kernel_files *f);

/* host_kernel_read() on the running kernel's files */
void topology_detect_host_kernel(struct topology *t);

#endif
