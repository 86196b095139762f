// SPDX-License-Identifier: GPL-2.0-only
/*
 * The [guest] section of a machine file (docs/guests.md): the machine is a
 * KVM guest on the hardware the rest of the file describes.
 *
 *   hypervisor = kvm
 *   cpuidle = hlt | haltpoll       the guest's idle: no cpuidle driver (HLT), or
 *                                  cpuidle-haltpoll and its governor
 *   ipi_virtualization = yes | no  IPIv / AVIC: IPIs are sent without a VM exit
 *   source = ...
 *
 * A guest does not see the host's C-states: its idle states are HLT (the
 * halt exits to the host) or, with cpuidle-haltpoll, a polling state and
 * HLT; they replace the file's [idle.K]. The hypervisor's costs are the
 * cost model's guest_* parameters; those the file's [costs] leave at 0 get
 * the estimates below (their derivations: docs/guests.md).
 */
#include "topo/machine_guest.h"

#include "topo/machine_section.h"

#include <string.h>

const char *const guest_cpuidle_names[2] = { "hlt", "haltpoll" };

/* estimates for a KVM guest on a current x86 server (docs/guests.md) */
#define KVM_IPI_EXIT_NS 500 /* ICR write handled in KVM's exit fastpath */
#define KVM_TIMER_EXIT_NS 500 /* TSC deadline MSR write, the same fastpath */
#define KVM_WAKEUP_POLLED_NS 800 /* woken inside the host's halt-poll window */
#define KVM_WAKEUP_NS 5000 /* the vCPU thread scheduled in again on the host */
#define KVM_HALT_POLL_NS 200000 /* KVM_HALT_POLL_NS_DEFAULT on x86 */

/* cpuidle-haltpoll's halt state: exit latency and target residency 1 us */
#define HALTPOLL_HALT_NS 1000

enum { F_HYPERVISOR, F_CPUIDLE, F_IPIV };

int mf_guest_line(struct mf_guest *g, struct guest_desc *d, const struct mf_line *l, char *err,
		  size_t errlen)
{
	static const char *const keys[] = { "hypervisor", "cpuidle", "ipi_virtualization" };

	if (!strcmp(l->key, "source"))
		return mf_append_source(d->source, sizeof(d->source), l->value, err, errlen);
	switch (mf_section_key(l, keys, 3, &g->fields, err, errlen)) {
	case F_HYPERVISOR:
		if (strcmp(l->value, "kvm")) {
			snprintf(err, errlen, "hypervisor: '%.40s' is not one of kvm", l->value);
			return -1;
		}
		d->kvm = true;
		return 0;
	case F_CPUIDLE:
		for (int i = 0; i < 2; i++) {
			if (!strcmp(l->value, guest_cpuidle_names[i])) {
				d->cpuidle = (enum guest_cpuidle)i;
				return 0;
			}
		}
		snprintf(err, errlen, "cpuidle: '%.40s' is not one of hlt haltpoll", l->value);
		return -1;
	case F_IPIV:
		return mf_yes_no(l->key, l->value, &d->ipi_virtualization, err, errlen);
	default:
		return -1;
	}
}

static void set_state(struct idle_state *st, const char *name, u64 ns, bool polls)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	st->exit_latency_ns = ns;
	st->target_residency_ns = ns;
	st->polls = polls;
}

static void default_cost(u64 *v, u64 estimate)
{
	if (!*v)
		*v = estimate;
}

void guest_apply(struct topology *t)
{
	struct cost_model *c = &t->cost;

	if (t->guest.cpuidle == GUEST_IDLE_HALTPOLL) {
		set_state(&t->idle_states[0], "POLL", 0, true);
		set_state(&t->idle_states[1], "haltpoll", HALTPOLL_HALT_NS, false);
		t->nr_idle_states = 2;
	} else {
		set_state(&t->idle_states[0], "HLT", 0, false);
		t->nr_idle_states = 1;
	}
	if (!t->guest.ipi_virtualization)
		default_cost(&c->guest_ipi_exit, KVM_IPI_EXIT_NS);
	default_cost(&c->guest_timer_exit, KVM_TIMER_EXIT_NS);
	default_cost(&c->guest_wakeup_polled, KVM_WAKEUP_POLLED_NS);
	default_cost(&c->guest_wakeup, KVM_WAKEUP_NS);
	default_cost(&c->guest_host_poll_ns, KVM_HALT_POLL_NS);
}

int mf_guest_finish(struct mf_guest *g, struct topology *t, const char *file, char *err,
		    size_t errlen)
{
	if (!g->line)
		return 0;
	if (!(g->fields & (1u << F_HYPERVISOR))) {
		snprintf(err, errlen, "%s:%u: [guest] needs hypervisor = kvm", file, g->line);
		return -1;
	}
	guest_apply(t);
	return 0;
}
