// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host's adaptive halt polling under a KVM guest (sim/halt_poll.h):
 * kvm_vcpu_halt(), grow_halt_poll_ns() and shrink_halt_poll_ns() of
 * virt/kvm/kvm_main.c (v6.18), per vCPU.
 */
#include "sim/halt_poll.h"

#include "topo/topology.h"

void kvm_halt_poll_of(const struct topology *t, struct kvm_halt_poll *hp)
{
	const struct guest_desc *g = &t->guest;

	hp->max_ns = t->cost.guest_host_poll_ns;
	hp->grow = guest_host_param(g, GUEST_HOST_POLL_GROW);
	hp->grow_start = guest_host_param(g, GUEST_HOST_POLL_GROW_START);
	hp->shrink = guest_host_param(g, GUEST_HOST_POLL_SHRINK);
	/*
	 * cpuidle-haltpoll's haltpoll_cpu_online() calls arch_haltpoll_enable(),
	 * which writes 0 to MSR_KVM_POLL_CONTROL when the host offers it: the
	 * guest polls, so the host must not (Documentation/virt/guest-halt-polling.rst)
	 */
	hp->allowed = !(g->cpuidle == GUEST_IDLE_HALTPOLL &&
			guest_host_param(g, GUEST_HOST_POLL_CONTROL));
}

/* grow_halt_poll_ns(): a short halt the window missed */
static u64 grow(const struct kvm_halt_poll *hp, u64 w)
{
	if (!hp->grow)
		return w;
	w *= hp->grow;
	return w < hp->grow_start ? hp->grow_start : w;
}

/* shrink_halt_poll_ns(): a halt longer than polling could ever catch */
static u64 shrink(const struct kvm_halt_poll *hp, u64 w)
{
	w = hp->shrink ? w / hp->shrink : 0;
	return w < hp->grow_start ? 0 : w;
}

bool kvm_vcpu_halt_model(const struct kvm_halt_poll *hp, u64 *window_ns, u64 resid_ns,
			 u64 unpolled_ns)
{
	u64 w = *window_ns, halt_ns;
	bool polled;

	if (w > hp->max_ns)
		w = hp->max_ns;
	polled = hp->allowed && w && resid_ns < w;
	/* the host's halt_ns ends when the vCPU thread runs again */
	halt_ns = polled ? resid_ns : resid_ns + unpolled_ns;
	if (hp->allowed) {
		if (!hp->max_ns)
			w = 0;
		else if (halt_ns <= w)
			;
		else if (w && halt_ns > hp->max_ns)
			w = shrink(hp, w);
		else if (w < hp->max_ns && halt_ns < hp->max_ns)
			w = grow(hp, w);
	}
	*window_ns = w;
	return polled;
}
