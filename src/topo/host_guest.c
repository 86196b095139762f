// SPDX-License-Identifier: GPL-2.0-only
/*
 * -m host inside a KVM guest (docs/guests.md): the guest's idle and the
 * hypervisor's costs instead of the bare-metal defaults. KVM is recognised
 * by the signature of its CPUID leaf 0x40000000 ("KVMKVMKVM"), which is
 * what the guest kernel's kvm_para_available() tests; the guest's idle by
 * cpuidle's current_driver: haltpoll, or none (the guest halts).
 */
#include "topo/host_file.h"
#include "topo/machine_guest.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static bool kvm_signature(void)
{
	unsigned int eax, sig[3];

	__cpuid(0x40000000, eax, sig[0], sig[1], sig[2]);
	(void)eax;
	return !memcmp(sig, "KVMKVMKVM\0\0\0", 12);
}

/* KVM_FEATURE_POLL_CONTROL (bit 12 of leaf 0x40000001's EAX, asm/kvm_para.h) */
#define KVM_FEATURE_POLL_CONTROL 12

static bool kvm_poll_control(void)
{
	unsigned int eax, ebx, ecx, edx;

	__cpuid(0x40000001, eax, ebx, ecx, edx);
	(void)ebx;
	(void)ecx;
	(void)edx;
	return eax & (1u << KVM_FEATURE_POLL_CONTROL);
}
#else
/* arm64 guests have no such leaf; the host is taken for bare metal */
static bool kvm_signature(void)
{
	return false;
}

static bool kvm_poll_control(void)
{
	return false;
}
#endif

bool host_is_kvm_guest(void)
{
	return kvm_signature();
}

const char kvm_approximation[] =
	"a KVM guest: the hypervisor's costs are estimates (docs/guests.md)";

void topology_make_kvm_guest(struct topology *t, const char *driver)
{
	size_t len, n;

	t->guest.kvm = true;
	t->guest.cpuidle = !strcmp(driver, "haltpoll") ? GUEST_IDLE_HALTPOLL : GUEST_IDLE_HLT;
	snprintf(t->guest.source, sizeof(t->guest.source),
		 "CPUID 0x40000000 'KVMKVMKVM'; cpuidle current_driver '%s'",
		 driver[0] ? driver : "none");
	guest_apply(t);
	len = strlen(t->approximations);
	n = len ? (size_t)snprintf(t->approximations + len, sizeof(t->approximations) - len, "; ") :
		  0;
	if (len + n < sizeof(t->approximations))
		snprintf(t->approximations + len + n, sizeof(t->approximations) - len - n, "%s",
			 kvm_approximation);
}

/*
 * The haltpoll governor's guest_halt_poll_ns, as this kernel runs it (a
 * guest booted with haltpoll.guest_halt_poll_ns=0 never polls); false if
 * it cannot be read.
 */
static bool read_halt_poll_ns(const char *sysfs_root, u64 *ns)
{
	char path[512];
	unsigned long long v;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/module/haltpoll/parameters/guest_halt_poll_ns",
		 sysfs_root);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (ok)
		*ns = v;
	return ok;
}

void topology_detect_host_guest(struct topology *t, const char *sysfs_root)
{
	char path[512], drv[64] = "";
	size_t len;
	u64 ns;

	if (!kvm_signature())
		return;
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpuidle/current_driver", sysfs_root);
	host_read_line(path, drv, sizeof(drv));
	topology_make_kvm_guest(t, drv);
	/* whether the host lets cpuidle-haltpoll turn its own halt polling off */
	t->guest.host_given |= 1u << GUEST_HOST_POLL_CONTROL;
	t->guest.host[GUEST_HOST_POLL_CONTROL] = kvm_poll_control();
	len = strlen(t->guest.source);
	snprintf(t->guest.source + len, sizeof(t->guest.source) - len,
		 "; CPUID 0x40000001 KVM_FEATURE_POLL_CONTROL %s",
		 t->guest.host[GUEST_HOST_POLL_CONTROL] ? "yes" : "no");
	if (t->guest.cpuidle == GUEST_IDLE_HALTPOLL && read_halt_poll_ns(sysfs_root, &ns)) {
		len = strlen(t->guest.source);
		t->guest.halt_poll_given = true;
		t->guest.halt_poll_ns = ns;
		snprintf(t->guest.source + len, sizeof(t->guest.source) - len,
			 "; haltpoll guest_halt_poll_ns %llu", (unsigned long long)ns);
	}
}
