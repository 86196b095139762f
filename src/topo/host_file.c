// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the host's one-line files (/proc/cmdline, cpuidle's
 * current_driver, /sys/hypervisor/type, ...) for -m host and calibrate.
 */
#include "topo/host_file.h"

#include <stdio.h>
#include <string.h>

bool host_read_line(const char *path, char *buf, size_t size)
{
	FILE *f;
	bool ok;

	if (size)
		buf[0] = '\0';
	if (!path || size < 2)
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok) {
		buf[0] = '\0';
		return false;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}
