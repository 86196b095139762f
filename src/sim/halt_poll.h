/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's halt polling under a KVM guest (docs/guests.md, "The host's
 * halt polling"): kvm_vcpu_halt() in virt/kvm/kvm_main.c (v6.18). When a
 * vCPU halts, the host polls for a wake event for up to the vCPU's own
 * window (vcpu->halt_poll_ns) before it blocks the vCPU thread; a wake
 * inside the window re-enters the guest at once (guest_wakeup_polled),
 * one after it must have the thread scheduled in again (guest_wakeup).
 * After each halt the window adapts to the halt's length:
 *
 *   halt within the window             unchanged
 *   window set, halt > halt_poll_ns    shrink: / halt_poll_ns_shrink, 0 below grow_start
 *   window < halt_poll_ns, halt < it   grow: * halt_poll_ns_grow, at least grow_start
 *
 * and is capped at halt_poll_ns (the cost model's guest_host_poll_ns)
 * when the next halt begins. A guest that runs cpuidle-haltpoll turns the
 * host's polling off through MSR_KVM_POLL_CONTROL (kvm_arch_no_poll())
 * when the host offers KVM_FEATURE_POLL_CONTROL.
 */
#ifndef SCHEDLAB_SIM_HALT_POLL_H
#define SCHEDLAB_SIM_HALT_POLL_H

#include "sim/types.h"

#include <stdbool.h>

struct guest_desc;

/* what kvm_vcpu_halt() reads: its module parameters and the guest's MSR */
struct kvm_halt_poll {
	u64 max_ns; /* halt_poll_ns */
	u64 grow, grow_start, shrink; /* halt_poll_ns_grow, _grow_start, _shrink */
	bool allowed; /* !kvm_arch_no_poll(): the guest left host polling on */
};

/* the host of guest @g, as its [guest] says, with halt_poll_ns @max_ns (guest_host_poll_ns) */
void kvm_halt_poll_of(const struct guest_desc *g, u64 max_ns, struct kvm_halt_poll *hp);

/*
 * One halt of a vCPU whose window is *@window_ns: the wake came @resid_ns
 * after the halt began. True if the host's poll caught it; the window is
 * then adjusted to the halt's length as the host measured it (to the
 * thread's return, @unpolled_ns later, when the poll missed).
 */
bool kvm_vcpu_halt_model(const struct kvm_halt_poll *hp, u64 *window_ns, u64 resid_ns,
			 u64 unpolled_ns);

/*
 * The share of a vCPU's wakeups the host's poll catches when it halts for
 * @halt_ns again and again (the steady state, from a window of 0), a miss
 * costing @unpolled_ns: 1 below the cap, 0 past it or with polling off.
 */
double kvm_halt_poll_steady_share(const struct kvm_halt_poll *hp, u64 halt_ns, u64 unpolled_ns);

#endif
