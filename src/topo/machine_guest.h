/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The [guest] section of a machine file (machine_guest.c): the machine is a
 * KVM guest, with the guest's idle states and the hypervisor's costs.
 */
#ifndef SCHEDLAB_TOPO_MACHINE_GUEST_H
#define SCHEDLAB_TOPO_MACHINE_GUEST_H

#include "topo/machine_file.h"

#include <stdio.h>

struct mf_guest {
	unsigned int line; /* of the [guest] header; 0: none */
	unsigned int fields; /* keys read, one bit each */
};

extern const char *const guest_cpuidle_names[2];

/* One line of the section into @d. 0, or -1 with a message. */
int mf_guest_line(struct mf_guest *g, struct guest_desc *d, const struct mf_line *l, char *err,
		  size_t errlen);
/*
 * Make @t (its guest part set) a guest: the guest's idle states replace
 * its own, and its hypervisor costs left at 0 get the estimates.
 */
void guest_apply(struct topology *t);
/* The KVM estimates (docs/guests.md) into the guest_* costs of @c left at 0. */
void guest_default_costs(struct cost_model *c, bool ipi_virtualization);
/* steal = PCT[:PERIOD_US] into @d. 0, or -1 with a message. */
int guest_parse_steal(const char *v, struct guest_desc *d, char *err, size_t errlen);
/*
 * The run option --guest: none, or kvm[:hlt|:haltpoll][,ipiv][,steal=PCT[:PERIOD_US]],
 * the [guest] keys in one word. 0, or -1 with one message.
 */
int guest_parse_option(const char *arg, struct guest_desc *d, char *err, size_t errlen);
/*
 * --guest on a loaded machine: @d replaces its [guest] section (or its
 * host detection), exactly as if the file had said it; a bare @d makes it
 * bare metal with its own idle states. 0, or -1 with a message.
 */
int topology_set_guest(struct topology *t, const struct guest_desc *d, char *err, size_t errlen);
/* --guest @spec on @t: guest_parse_option(), then topology_set_guest(). */
int topology_guest_option(struct topology *t, const char *spec, char *err, size_t errlen);
/* @d as --guest spells it ("none", "kvm:haltpoll,ipiv,steal=5:10000") */
void guest_format(const struct guest_desc *d, char *buf, size_t len);
/* its host parameter @i as the [guest] key spells it ("10000", "no") */
void guest_format_host_param(const struct guest_desc *d, enum guest_host_param i, char *buf,
			     size_t len);
/* each host parameter @d gives, printf(@fmt, key, value) */
void guest_print_host_params(FILE *out, const struct guest_desc *d, const char *fmt);
/* its steal as the [guest] key spells it ("2.5:10000") */
void guest_format_steal(const struct guest_desc *d, char *buf, size_t len);
/*
 * -m host: when this machine is a KVM guest, make @t one, with the guest
 * idle its cpuidle driver under @sysfs_root says (host_guest.c).
 */
void topology_detect_host_guest(struct topology *t, const char *sysfs_root);
/* what -m host adds to the approximations of a guest (and --guest none takes away) */
extern const char kvm_approximation[];
/* This machine is a KVM guest (CPUID 0x40000000 says so; x86 only). */
bool host_is_kvm_guest(void);
/* The same, once KVM is known: @driver is cpuidle's current_driver ("" if none). */
void topology_make_kvm_guest(struct topology *t, const char *driver);
/*
 * Once the file is read: a guest's idle states replace the file's, and its
 * hypervisor costs left at 0 get the estimates. 0, or -1 with "FILE:LINE: ...".
 */
int mf_guest_finish(struct mf_guest *g, struct topology *t, const char *file, char *err,
		    size_t errlen);

#endif
