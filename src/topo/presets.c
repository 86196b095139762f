// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machine presets. Each is a machine file, data/machines/NAME.machine,
 * compiled into the binary as a string (scripts/embed-machines.sh, in the
 * Makefile's PRESETS order), so a preset is read exactly as -m PATH reads
 * a file and needs nothing at run time. The files carry the sources of
 * their values as comments; docs/machines.md says what each preset stands
 * for and what is approximate. Keep the two in step.
 *
 * How the levels map to what the kernel builds (see docs/machines.md):
 *   core    = the SMT level's span (cpu_smt_mask)
 *   cluster = cluster_cpus (CLS); equal to the core or to the LLC when the
 *             machine has no distinct cluster level
 *   llc     = the span of the domain with SD_SHARE_LLC, i.e. what the
 *             kernel's sd_llc covers (cpu_coregroup_mask on x86/arm64,
 *             the CACHE level on POWER)
 */
#include "topo/machine_file.h"
#include "topo/topology.h"

#include <string.h>

struct topology *topology_load_preset(const struct machine_preset *p, char *err, size_t errlen)
{
	char file[96];
	struct topology *t;

	/* messages name the file the preset was built from */
	snprintf(file, sizeof(file), "data/machines/%s.machine", p->name);
	t = topology_parse_machine(p->text, file, err, errlen);
	if (t && strcmp(t->name, p->name)) {
		snprintf(err, errlen, "%s: name = %s, but the preset is %s", file, t->name,
			 p->name);
		topology_free(t);
		return NULL;
	}
	return t;
}
