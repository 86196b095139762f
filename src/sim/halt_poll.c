// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host's adaptive halt polling under a KVM guest (sim/halt_poll.h):
 * kvm_vcpu_halt(), grow_halt_poll_ns() and shrink_halt_poll_ns() of
 * virt/kvm/kvm_main.c (v6.18), per vCPU.
 */
#include "sim/halt_poll.h"

#include "topo/topology.h"

void kvm_halt_poll_of(const struct guest_desc *g, u64 max_ns, struct kvm_halt_poll *hp)
{
	hp->max_ns = max_ns;
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

/*
 * From 0 the window needs log2(halt_poll_ns / grow_start) + 1 misses to
 * reach the cap (6 with KVM's defaults) and as many long halts to shrink
 * to 0: 64 halts settle it, the next 64 are counted.
 */
#define STEADY_WARM 64
#define STEADY_COUNT 64

double kvm_halt_poll_steady_share(const struct kvm_halt_poll *hp, u64 halt_ns, u64 unpolled_ns)
{
	u64 w = 0;
	int polled = 0;

	for (int i = 0; i < STEADY_WARM + STEADY_COUNT; i++)
		if (kvm_vcpu_halt_model(hp, &w, halt_ns, unpolled_ns) && i >= STEADY_WARM)
			polled++;
	return (double)polled / STEADY_COUNT;
}
