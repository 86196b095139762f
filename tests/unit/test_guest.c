// SPDX-License-Identifier: GPL-2.0-only
/*
 * KVM guests (docs/guests.md): a machine file's [guest] gives the guest's
 * idle states and the hypervisor's costs; a halted vCPU costs its wakeup,
 * inside or past the host's halt-poll window; the haltpoll governor grows
 * its poll limit for short halts and shrinks it for long ones.
 */
#include "test_sched_helpers.h"

#include "kernel/cpufreq.h"
#include "kernel/select.h"
#include "topo/machine_file.h"
#include "topo/machine_guest.h"
#include "sim/cache.h"
#include "sim/halt_poll.h"
#include "sim/steal.h"

#include <stdarg.h>
#include <unistd.h>

#define GUEST_BASE                                                                      \
	"[machine]\nname = g\n[topology]\nshape = core:2\n[class.0]\ncapacity = 1024\n" \
	"opps_khz = 2000000\n[idle.0]\nname = C1\nexit_latency_ns = 2000\n"             \
	"target_residency_ns = 2000\npolls = no\n"

static struct topology *parse(const char *text, char *err, size_t len)
{
	return topology_parse_machine(text, "g.machine", err, len);
}

static void test_guest_section(void **state)
{
	char err[512];
	struct topology *t;

	(void)state;
	/* HLT only, whatever [idle.K] said; the KVM estimates for the costs */
	t = parse(GUEST_BASE "[guest]\nhypervisor = kvm\n", err, sizeof(err));
	assert_non_null(t);
	assert_true(t->guest.kvm);
	assert_int_equal(t->nr_idle_states, 1);
	assert_string_equal(t->idle_states[0].name, "HLT");
	assert_false(t->idle_states[0].polls);
	assert_int_equal(t->cost.guest_ipi_exit, 500);
	assert_int_equal(t->cost.guest_wakeup, 5000);
	assert_int_equal(t->cost.guest_host_poll_ns, 200000);
	topology_free(t);

	/* haltpoll: a polling state and the halt; IPI virtualization: no ICR exit; [costs] kept */
	t = parse(GUEST_BASE "[guest]\nhypervisor = kvm\ncpuidle = haltpoll\n"
			     "ipi_virtualization = yes\n[costs]\nguest_wakeup = 9000\n",
		  err, sizeof(err));
	assert_non_null(t);
	assert_int_equal(t->nr_idle_states, 2);
	assert_true(t->idle_states[0].polls);
	assert_string_equal(t->idle_states[1].name, "haltpoll");
	assert_int_equal(t->idle_states[1].exit_latency_ns, 1000);
	assert_int_equal(t->cost.guest_ipi_exit, 0);
	assert_int_equal(t->cost.guest_wakeup, 9000);
	topology_free(t);

	/* bare metal: none of it */
	t = parse(GUEST_BASE, err, sizeof(err));
	assert_non_null(t);
	assert_false(t->guest.kvm);
	assert_int_equal(t->cost.guest_wakeup + t->cost.guest_ipi_exit, 0);
	topology_free(t);

	assert_null(parse(GUEST_BASE "[guest]\ncpuidle = hlt\n", err, sizeof(err)));
	assert_string_equal(err, "g.machine:13: [guest] needs hypervisor = kvm");
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = xen\n", err, sizeof(err)));
	assert_string_equal(err, "g.machine:14: hypervisor: 'xen' is not one of kvm");
	assert_null(
		parse(GUEST_BASE "[guest]\nhypervisor = kvm\ncpuidle = mwait\n", err, sizeof(err)));
	assert_string_equal(err, "g.machine:15: cpuidle: 'mwait' is not one of hlt haltpoll");
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = kvm\nfoo = 1\n", err, sizeof(err)));
	assert_string_equal(
		err,
		"g.machine:15: unknown key 'foo' in [guest] (known: hypervisor, cpuidle, ipi_virtualization, steal, guest_halt_poll_ns, host_halt_poll_ns_grow, host_halt_poll_ns_grow_start, host_halt_poll_ns_shrink, host_poll_control, guest_halt_flush_ns, host_posted_interrupts, source)");
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = kvm\nhypervisor = kvm\n", err,
			  sizeof(err)));
	assert_string_equal(err, "g.machine:15: hypervisor given twice");
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = kvm\nguest_halt_poll_ns = 0\n", err,
			  sizeof(err)));
	assert_string_equal(
		err,
		"g.machine:13: [guest] guest_halt_poll_ns is the haltpoll governor's: it needs cpuidle haltpoll");
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = kvm\nipi_virtualization = maybe\n", err,
			  sizeof(err)));
	assert_string_equal(err, "g.machine:15: ipi_virtualization: 'maybe' is not one of yes no");

	/* the host's halt polling: KVM's defaults unless given */
	t = parse(GUEST_BASE "[guest]\nhypervisor = kvm\nhost_halt_poll_ns_grow = 4\n"
			     "host_poll_control = no\n",
		  err, sizeof(err));
	assert_non_null(t);
	assert_int_equal(guest_host_param(&t->guest, GUEST_HOST_POLL_GROW), 4);
	assert_int_equal(guest_host_param(&t->guest, GUEST_HOST_POLL_GROW_START), 10000);
	assert_int_equal(guest_host_param(&t->guest, GUEST_HOST_POLL_SHRINK), 2);
	assert_int_equal(guest_host_param(&t->guest, GUEST_HOST_POLL_CONTROL), 0);
	topology_free(t);
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = kvm\nhost_halt_poll_ns_shrink = -1\n",
			  err, sizeof(err)));
	assert_string_equal(
		err,
		"g.machine:15: host_halt_poll_ns_shrink: '-1' is not a number from 0 to 4294967295");
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = kvm\nhost_poll_control = 1\n", err,
			  sizeof(err)));
	assert_string_equal(err, "g.machine:15: host_poll_control: '1' is not one of yes no");
}

/* a task that sleeps @sleep_ns between 10 us bursts, on CPU 1 */
static u64 sleep_ns;
static bool sleeper_ran;
/* when the sleeper's first and latest bursts began, and how many */
static u64 first_burst, last_burst, nr_bursts;

static void sleeper_next(struct work_task *w, struct op_desc *op)
{
	(void)w;
	if (sleeper_ran) {
		op_sleep(op, sleep_ns);
	} else {
		last_burst = cpu_now();
		if (!nr_bursts++)
			first_burst = last_burst;
		op_run(op, 10 * NSEC_PER_USEC);
	}
	sleeper_ran = !sleeper_ran;
}

static const struct program sleeper_prog = { .next = sleeper_next };

static char machine_path[64];

/* a machine file at machine_path, its text printf(@fmt, ...) */
__attribute__((format(printf, 1, 2))) static void write_machine(const char *fmt, ...)
{
	va_list ap;
	FILE *f;
	int fd;

	snprintf(machine_path, sizeof(machine_path), "/tmp/schedlab-guest-XXXXXX");
	fd = mkstemp(machine_path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static void write_guest_with(const char *cpuidle, const char *extra)
{
	write_machine(GUEST_BASE "[guest]\nhypervisor = kvm\ncpuidle = %s\n%s", cpuidle, extra);
}

/*
 * The sleeper on a guest machine for 20 ms: the mean time from one burst to
 * the next (10 us of work, the sleep, and the wakeup, which a halted vCPU
 * lengthens), and CPU 1's poll limit at the end. @free_wakeups: the
 * host's side costs nothing (guest_wakeup*, 0).
 */
/* more [guest] lines for run_sleeper()'s machine; CPU 1's entries into POLL after it */
static const char *sleeper_extra = "";
static u64 cpu_usage_poll;
/* CPU 1's host halt-poll window at the end */
static u64 host_window;

/* a whole machine file for run_sleeper() instead of the guest's */
static const char *sleeper_machine;
/* a task that never sleeps on CPU 0 beside the sleeper */
static bool sleeper_busy0;
/* guest_timer_exit for run_sleeper()'s machine instead of the estimate; -1: the estimate */
static long long sleeper_timer_exit = -1;
/* CPU 1's time in kernel paths and interrupts over the run, and its bursts */
static u64 cpu1_kernel_ns, sleeper_bursts;

static u64 run_sleeper(const char *cpuidle, u64 ns, bool free_wakeups, u64 *poll_limit)
{
	struct task_struct *p;

	if (sleeper_machine)
		write_machine("%s", sleeper_machine);
	else
		write_guest_with(cpuidle, sleeper_extra);
	sleep_ns = ns;
	sleeper_ran = false;
	nr_bursts = 0;
	tl_setup(machine_path, TL_REAL_COST, 0, NULL);
	if (free_wakeups)
		tl.cost.guest_wakeup = tl.cost.guest_wakeup_polled = 0;
	if (sleeper_timer_exit >= 0)
		tl.cost.guest_timer_exit = (u64)sleeper_timer_exit;
	p = tl_work_task("sleeper", &sleeper_prog, 1);
	if (sleeper_machine) {
		/* on CPU 1 only: a wakeup elsewhere refills from the LLC anyway */
		cpumask_clear(p->cpus_mask);
		cpumask_set_cpu(1, p->cpus_mask);
		p->nr_cpus_allowed = 1;
	}
	if (sleeper_busy0) {
		p = tl_work_task("busy", &tl_busy_prog, 0);
		cpumask_clear(p->cpus_mask);
		cpumask_set_cpu(0, p->cpus_mask);
		p->nr_cpus_allowed = 1;
	}
	tl_run_until(20 * NSEC_PER_MSEC, true);
	*poll_limit = cpu_rq(1)->poll_limit_ns;
	cpu1_kernel_ns = sim_cpu(1)->time_in[ACT_KERNEL] + sim_cpu(1)->time_in[ACT_IRQ];
	sleeper_bursts = nr_bursts;
	cpu_usage_poll = cpu_rq(1)->idle_state_usage[0];
	host_window = cpu_rq(1)->host_halt_poll_ns;
	tl_teardown();
	unlink(machine_path);
	assert_true(nr_bursts > 10);
	return (last_burst - first_burst) / (nr_bursts - 1);
}

/*
 * haltpoll: a halt shorter than guest_halt_poll_ns (200 us) but longer than
 * the poll limit grows the limit (from grow_start, 50 us, doubling); one
 * longer than 200 us halves it, to 0 below grow_start.
 */
static void test_haltpoll_adapts(void **state)
{
	u64 limit;

	(void)state;
	/* a 30 us halt grows the limit to grow_start; the polls then catch every wakeup */
	run_sleeper("haltpoll", 30 * NSEC_PER_USEC, false, &limit);
	assert_int_equal(limit, 50000);
	/* 150 us sleeps: a 50 us poll runs out, the 100 us halt after it doubles the limit */
	run_sleeper("haltpoll", 150 * NSEC_PER_USEC, false, &limit);
	assert_int_equal(limit, 100000);
	run_sleeper("haltpoll", NSEC_PER_MSEC, false, &limit);
	assert_int_equal(limit, 0);
	/* guest_halt_poll_ns = 0 (the development VM's boot option): it never polls */
	sleeper_extra = "guest_halt_poll_ns = 0\n";
	run_sleeper("haltpoll", 30 * NSEC_PER_USEC, false, &limit);
	sleeper_extra = "";
	assert_int_equal(limit, 0);
	assert_int_equal(cpu_usage_poll, 0);
}

/*
 * A halted vCPU costs its wakeup: each of the sleeper's wakeups waits for
 * the host's side, guest_wakeup_polled (800 ns) for halts the host's poll
 * window caught, guest_wakeup (5 us) for the others. The window starts at
 * 0; host_halt_poll_ns_grow_start = 200000 makes the first miss grow it
 * to the cap at once, so one wakeup of the ~180 pays 5 us and the mean
 * stays within 30 ns of the polled cost.
 */
static void test_halt_wakeup_costs(void **state)
{
	u64 limit, with, without;

	(void)state;
	sleeper_extra = "host_halt_poll_ns_grow_start = 200000\n";
	with = run_sleeper("hlt", 100 * NSEC_PER_USEC, false, &limit);
	without = run_sleeper("hlt", 100 * NSEC_PER_USEC, true, &limit);
	/* the mean period: the tick and the 20 ms window blur it by a few ns */
	assert_in_range(with - without, 750, 850);
	/* past the cap the window never opens: every wakeup pays guest_wakeup */
	sleeper_extra = "";
	with = run_sleeper("hlt", 300 * NSEC_PER_USEC, false, &limit);
	without = run_sleeper("hlt", 300 * NSEC_PER_USEC, true, &limit);
	assert_in_range(with - without, 4900, 5100);
}

/*
 * A guest programs its timer through the hypervisor: each of the sleeper's
 * periods (on a HLT guest, wakeups free) pays guest_timer_exit four times,
 * where its sleep's hrtimer becomes the CPU's first (hrtimer_start(): the
 * expiry is already set, so inside the sleep), where the tick stops on the
 * way into idle (inside it too), where the timer interrupt ends (the
 * device programmed for the next event) and where the tick restarts on
 * the way out of idle. 1 us a write: 4 us of CPU 1's kernel time a period,
 * 2 us of its length.
 */
static void test_timer_writes(void **state)
{
	u64 limit, with, without, kernel_with, bursts_with;

	(void)state;
	sleeper_timer_exit = 1000;
	with = run_sleeper("hlt", 100 * NSEC_PER_USEC, true, &limit);
	kernel_with = cpu1_kernel_ns;
	bursts_with = sleeper_bursts;
	sleeper_timer_exit = 0;
	without = run_sleeper("hlt", 100 * NSEC_PER_USEC, true, &limit);
	sleeper_timer_exit = -1;
	assert_in_range(with - without, 1950, 2100);
	assert_in_range(kernel_with / bursts_with - cpu1_kernel_ns / sleeper_bursts, 3850, 4100);
}

/* a task on CPU 0 that runs 10 us, then calls a function on CPU 1 and waits */
static bool caller_ran;
static u64 nr_calls, first_call, last_call;

static void caller_next(struct work_task *w, struct op_desc *op)
{
	(void)w;
	if (caller_ran) {
		*op = (struct op_desc){ .kind = OP_SMP_CALL, .val = 1, .bytes = 1 };
	} else {
		last_call = cpu_now();
		if (!nr_calls++)
			first_call = last_call;
		op_run(op, 10 * NSEC_PER_USEC);
	}
	caller_ran = !caller_ran;
}

static const struct program caller_prog = { .next = caller_next };

/*
 * The caller's period with CPU 1 busy (a task pinned there) or idle, on a
 * HLT guest with @extra in [guest] and guest_ipi_recv_exit @recv (-1: the machine's)
 */
static u64 run_caller(bool busy1, const char *extra, long long recv)
{
	struct task_struct *p;

	write_guest_with("hlt", extra);
	caller_ran = false;
	nr_calls = 0;
	tl_setup(machine_path, TL_REAL_COST, 0, NULL);
	if (recv >= 0)
		tl.cost.guest_ipi_recv_exit = (u64)recv;
	p = tl_work_task("caller", &caller_prog, 0);
	cpumask_clear(p->cpus_mask);
	cpumask_set_cpu(0, p->cpus_mask);
	p->nr_cpus_allowed = 1;
	if (busy1) {
		p = tl_work_task("busy", &tl_busy_prog, 1);
		cpumask_clear(p->cpus_mask);
		cpumask_set_cpu(1, p->cpus_mask);
		p->nr_cpus_allowed = 1;
	}
	tl_run_until(5 * NSEC_PER_MSEC, true);
	tl_teardown();
	unlink(machine_path);
	assert_true(nr_calls > 10);
	return (last_call - first_call) / (nr_calls - 1);
}

/*
 * Without posted interrupts an IPI to a running vCPU exits to the host
 * (guest_ipi_recv_exit): a call to a busy CPU 1, waited for, takes that
 * much longer; a call to a halted one does not (the halted vCPU was out
 * of the guest: its wakeup is guest_wakeup's). host_posted_interrupts = no
 * gives the estimate, yes (the default) none.
 */
static void test_ipi_recv_exit(void **state)
{
	u64 with, without;
	struct topology *t;
	char err[256];

	(void)state;
	/* within a few ns: the busy task's ticks fall elsewhere in the periods */
	with = run_caller(true, "", 3000);
	without = run_caller(true, "", 0);
	assert_in_range(with - without, 2990, 3010);
	with = run_caller(false, "", 3000);
	without = run_caller(false, "", 0);
	assert_int_equal(with, without);
	with = run_caller(true, "host_posted_interrupts = no\n", -1);
	without = run_caller(true, "", -1);
	assert_in_range(with - without, 690, 710);
	t = parse(GUEST_BASE "[guest]\nhypervisor = kvm\n", err, sizeof(err));
	assert_non_null(t);
	assert_int_equal(t->cost.guest_ipi_recv_exit, 0);
	topology_free(t);
}

/*
 * The host's window of one vCPU (kvm_vcpu_halt()) over a constructed
 * series of halts, with KVM's defaults: halt_poll_ns 200 us, grow 2 from
 * 10 us, shrink 2; a miss is measured to the thread's return, 5 us later.
 */
static void test_host_window_adapts(void **state)
{
	struct kvm_halt_poll hp = {
		.max_ns = 200000, .grow = 2, .grow_start = 10000, .shrink = 2, .allowed = true
	};
	/* halt (us), polled?, the window after it (us) */
	static const struct {
		u64 halt_us;
		bool polled;
		u64 window_us;
	} series
		[] = {
			{ 30, false, 10 }, /* window 0: no poll; a short halt grows it to grow_start */
			{ 30, false, 20 }, /* missed again: doubled */
			{ 30, false, 40 },   { 30, true, 40 }, /* caught: unchanged */
			{ 150, false, 80 }, /* missed, 155 us < 200 us: grows */
			{ 150, false, 160 }, { 150, true, 160 },
			{ 195, false, 160 }, /* 195 + 5 us is not below the cap: no grow, no shrink */
			{ 1000, false, 80 }, /* longer than the cap: halved */
			{ 1000, false, 40 }, { 30, true, 40 },
			{ 1000, false, 20 }, { 1000, false, 10 },
			{ 1000, false, 0 }, /* 5 us is below grow_start: off */
			{ 1000, false, 0 }, /* off stays off past the cap */
		};
	u64 w = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(series) / sizeof(series[0]); i++) {
		bool polled = kvm_vcpu_halt_model(&hp, &w, series[i].halt_us * NSEC_PER_USEC,
						  5 * NSEC_PER_USEC);

		assert_int_equal(polled, series[i].polled);
		assert_int_equal(w, series[i].window_us * NSEC_PER_USEC);
	}
	/* a window above the cap (halt_poll_ns lowered meanwhile) is cut to it first */
	w = 400000;
	assert_true(kvm_vcpu_halt_model(&hp, &w, 190000, 5000));
	assert_int_equal(w, 200000);
	/* grow 0: never grows; shrink 0: a long halt resets it */
	hp.grow = 0;
	w = 0;
	kvm_vcpu_halt_model(&hp, &w, 30000, 5000);
	assert_int_equal(w, 0);
	hp.grow = 2;
	hp.shrink = 0;
	w = 160000;
	kvm_vcpu_halt_model(&hp, &w, 1000000, 5000);
	assert_int_equal(w, 0);
	/* the guest turned host polling off: never polled, the window left alone */
	hp.shrink = 2;
	hp.allowed = false;
	w = 160000;
	assert_false(kvm_vcpu_halt_model(&hp, &w, 30000, 5000));
	assert_int_equal(w, 160000);
	/* halt_poll_ns 0: polling off, the window reset */
	hp.allowed = true;
	hp.max_ns = 0;
	assert_false(kvm_vcpu_halt_model(&hp, &w, 30000, 5000));
	assert_int_equal(w, 0);
}

/*
 * In a run: the sleeper's 30 us sleeps end within the timer slack (50 us),
 * so its vCPU halts for just under 80 us at a time and the host's window
 * grows 10, 20, 40, 80 us and stays; 1 ms halts leave it at 0.
 * cpuidle-haltpoll turns the host's polling off (MSR_KVM_POLL_CONTROL):
 * with the guest's own polling off too (guest_halt_poll_ns = 0), every
 * wakeup pays guest_wakeup, unless the host lacks poll control.
 */
static void test_host_window_in_run(void **state)
{
	u64 limit, with, without;

	(void)state;
	run_sleeper("hlt", 30 * NSEC_PER_USEC, false, &limit);
	assert_int_equal(host_window, 80000);
	run_sleeper("hlt", NSEC_PER_MSEC, false, &limit);
	assert_int_equal(host_window, 0);

	sleeper_extra = "guest_halt_poll_ns = 0\nhost_halt_poll_ns_grow_start = 200000\n";
	with = run_sleeper("haltpoll", 100 * NSEC_PER_USEC, false, &limit);
	without = run_sleeper("haltpoll", 100 * NSEC_PER_USEC, true, &limit);
	assert_in_range(with - without, 4900, 5100);
	assert_int_equal(host_window, 0);
	sleeper_extra = "guest_halt_poll_ns = 0\nhost_halt_poll_ns_grow_start = 200000\n"
			"host_poll_control = no\n";
	with = run_sleeper("haltpoll", 100 * NSEC_PER_USEC, false, &limit);
	without = run_sleeper("haltpoll", 100 * NSEC_PER_USEC, true, &limit);
	sleeper_extra = "";
	assert_in_range(with - without, 750, 850);
	assert_int_equal(host_window, 200000);
}

/* -m host in a KVM guest: cpuidle's driver picks the guest idle */
static void test_host_guest(void **state)
{
	char err[512];
	struct topology *t;

	(void)state;
	t = parse(GUEST_BASE, err, sizeof(err));
	assert_non_null(t);
	topology_make_kvm_guest(t, "haltpoll");
	assert_true(t->guest.kvm);
	assert_int_equal(t->guest.cpuidle, GUEST_IDLE_HALTPOLL);
	assert_int_equal(t->nr_idle_states, 2);
	assert_int_equal(t->cost.guest_wakeup, 5000);
	assert_non_null(strstr(t->approximations, "a KVM guest"));
	/* --guest none: the machine's own idle state back, and no word of a guest */
	assert_int_equal(topology_guest_option(t, "none", err, sizeof(err)), 0);
	assert_false(t->guest.kvm);
	assert_int_equal(t->nr_idle_states, 1);
	assert_string_equal(t->idle_states[0].name, "C1");
	assert_null(strstr(t->approximations, "KVM"));
	assert_int_equal(t->cost.guest_wakeup, 0);
	topology_free(t);
	t = parse(GUEST_BASE, err, sizeof(err));
	assert_non_null(t);
	topology_make_kvm_guest(t, "");
	assert_int_equal(t->guest.cpuidle, GUEST_IDLE_HLT);
	assert_string_equal(t->idle_states[0].name, "HLT");
	assert_string_equal(t->guest.source,
			    "CPUID 0x40000000 'KVMKVMKVM'; cpuidle current_driver 'none'");
	topology_free(t);
}

/* @t exported as a machine file, in a string the caller frees */
static char *export_text(const struct topology *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	topology_export(t, f);
	fclose(f);
	return buf;
}

/*
 * --guest on a machine is its [guest] section: the machine it makes
 * exports byte for byte as the file with the section does; none gives the
 * bare machine back, and a second --guest replaces the first.
 */
static void test_guest_option_is_section(void **state)
{
	static const struct {
		const char *option, *section;
	} cases[] = {
		{ "kvm", "hypervisor = kvm\n" },
		{ "kvm:haltpoll,ipiv",
		  "hypervisor = kvm\ncpuidle = haltpoll\nipi_virtualization = yes\n" },
		{ "kvm:hlt,steal=2.5:500", "hypervisor = kvm\nsteal = 2.5:500\n" },
		{ "kvm:haltpoll,guest_halt_poll_ns=0",
		  "hypervisor = kvm\ncpuidle = haltpoll\nguest_halt_poll_ns = 0\n" },
	};
	char err[512], text[8192];
	struct topology *bare, *t;
	char *bare_text;

	(void)state;
	bare = parse(GUEST_BASE, err, sizeof(err));
	assert_non_null(bare);
	bare_text = export_text(bare);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *a, *b;

		t = parse(GUEST_BASE, err, sizeof(err));
		assert_non_null(t);
		/* the first --guest is replaced, not stacked on */
		assert_int_equal(
			topology_guest_option(t, "kvm:haltpoll,steal=50", err, sizeof(err)), 0);
		assert_int_equal(topology_guest_option(t, cases[i].option, err, sizeof(err)), 0);
		a = export_text(t);
		topology_free(t);
		snprintf(text, sizeof(text), "%s[guest]\n%s", bare_text, cases[i].section);
		t = parse(text, err, sizeof(err));
		assert_non_null(t);
		b = export_text(t);
		assert_string_equal(a, b);
		assert_memory_equal(&t->cost, &bare->cost,
				    offsetof(struct cost_model, guest_ipi_exit));
		/* and none makes the guest file the bare machine again */
		assert_int_equal(topology_guest_option(t, "none", err, sizeof(err)), 0);
		free(a);
		a = export_text(t);
		assert_string_equal(a, bare_text);
		topology_free(t);
		free(a);
		free(b);
	}
	free(bare_text);
	topology_free(bare);

	/* a guest file without idle states of its own has no bare machine */
	t = parse("[machine]\nname = g\n[topology]\nshape = core:2\n[class.0]\ncapacity = 1024\n"
		  "opps_khz = 2000000\n[guest]\nhypervisor = kvm\n",
		  err, sizeof(err));
	assert_non_null(t);
	assert_int_equal(topology_guest_option(t, "none", err, sizeof(err)), -1);
	assert_string_equal(
		err,
		"--guest none: machine 'g' has no idle states of its own ([idle.K]) to run as bare metal");
	topology_free(t);
}

static void assert_option_error(const char *option, const char *message)
{
	struct guest_desc d;
	char err[512];

	assert_int_equal(guest_parse_option(option, &d, err, sizeof(err)), -1);
	assert_string_equal(err, message);
}

static void test_guest_option_errors(void **state)
{
	struct guest_desc d;
	char err[512], spec[128];

	(void)state;
	assert_int_equal(
		guest_parse_option("kvm:haltpoll,ipiv,steal=0.25:2000", &d, err, sizeof(err)), 0);
	assert_true(d.kvm && d.ipi_virtualization);
	assert_int_equal(d.cpuidle, GUEST_IDLE_HALTPOLL);
	assert_int_equal(d.steal_ppm, 2500);
	assert_int_equal(d.steal_period_ns, 2000000);
	guest_format(&d, spec, sizeof(spec));
	assert_string_equal(spec, "kvm:haltpoll,ipiv,steal=0.25:2000");
	assert_int_equal(guest_parse_option("kvm,steal=5", &d, err, sizeof(err)), 0);
	assert_int_equal(d.steal_period_ns, 10 * NSEC_PER_MSEC);
	assert_option_error(
		"xen",
		"--guest: 'xen' is not none or kvm[:hlt|:haltpoll][,ipiv][,steal=PCT[:PERIOD_US]]");
	assert_option_error(
		"kvmx",
		"--guest: 'kvmx' is not none or kvm[:hlt|:haltpoll][,ipiv][,steal=PCT[:PERIOD_US]]");
	assert_option_error("kvm:mwait", "--guest: cpuidle 'mwait' is not one of hlt haltpoll");
	assert_option_error("kvm,", "--guest: 'kvm,' has an empty item between commas");
	assert_option_error("kvm,ipiv,,steal=1",
			    "--guest: 'kvm,ipiv,,steal=1' has an empty item between commas");
	assert_option_error(
		"kvm,posted",
		"--guest: unknown item 'posted' (ipiv, steal=PCT[:PERIOD_US], guest_halt_poll_ns=NS, guest_halt_flush_ns=NS or host_*=V, docs/guests.md)");
	assert_option_error("kvm,steal=91",
			    "--guest: steal: 91% is more than 90% of a vCPU's time");
	assert_option_error(
		"kvm,steal=-1",
		"--guest: steal: '-1' is not PCT[:PERIOD_US] (a percentage such as 5 or 2.5, then optionally ':' and the period in microseconds)");
	assert_option_error(
		"kvm,steal=1.23456",
		"--guest: steal: '1.23456' is not PCT[:PERIOD_US] (a percentage such as 5 or 2.5, then optionally ':' and the period in microseconds)");
	assert_option_error("kvm,steal=5:50",
			    "--guest: steal: the period '50' is not 100 to 1000000 microseconds");
	assert_option_error("kvm,steal=5:",
			    "--guest: steal: the period '' is not 100 to 1000000 microseconds");
	assert_option_error(
		"kvm,guest_halt_poll_ns=0",
		"--guest: guest_halt_poll_ns is the haltpoll governor's: it needs cpuidle haltpoll");
	assert_option_error(
		"kvm:haltpoll,guest_halt_poll_ns=-5",
		"--guest: guest_halt_poll_ns: '-5' is not a number of ns from 0 to 4294967295");
	assert_int_equal(
		guest_parse_option("kvm:haltpoll,guest_halt_poll_ns=0", &d, err, sizeof(err)), 0);
	assert_true(d.halt_poll_given);
	assert_int_equal(guest_halt_poll_ns(&d), 0);
	guest_format(&d, spec, sizeof(spec));
	assert_string_equal(spec, "kvm:haltpoll,guest_halt_poll_ns=0");
}

/*
 * update_rq_clock() on a guest: the steal the host's clock published
 * since the last update is not task time; a stretch read from another
 * CPU while it is under way is not published yet.
 */
static void test_steal_clock_task(void **state)
{
	struct rq *rq;
	struct sim_cpu *c;
	u64 clock, task;

	(void)state;
	write_guest_with("hlt", "steal = 10:1000\n");
	tl_setup(machine_path, TL_ZERO_COST, 0, NULL);
	unlink(machine_path);
	assert_true(sim_steal_enabled());
	rq = cpu_rq(0);
	c = sim_cpu(0);
	sim_set_this_cpu(0);
	update_rq_clock(rq);
	clock = rq->clock;
	task = rq->clock_task;

	/* 700 us of work, then a 300 us stretch: 1 ms passes, 700 us of it the task's */
	c->t = clock + 700000;
	machine.steal[0].pending_ns = 300000;
	c->t += sim_steal_take(0);
	update_rq_clock(rq);
	assert_int_equal(rq->clock - clock, 1000000);
	assert_int_equal(rq->clock_task - task, 700000);
	assert_int_equal(rq->prev_steal_time_rq, 300000);

	/*
	 * a 400 us stretch read by CPU 1 100 us into it: not published yet
	 * (KVM updates the steal when the vCPU runs again), so task time
	 */
	clock = rq->clock;
	task = rq->clock_task;
	machine.steal[0].pending_ns = 400000;
	c->t += sim_steal_take(0);
	sim_set_this_cpu(1);
	sim_cpu(1)->t = clock + 100000;
	update_rq_clock(rq);
	assert_int_equal(rq->clock - clock, 100000);
	assert_int_equal(rq->clock_task - task, 100000);
	assert_int_equal(rq->prev_steal_time_rq, 300000);
	/*
	 * CPU 0 after it and 50 us of work: 350 us passed, the 400 us of
	 * steal is clamped to them and the rest dropped, as the kernel does
	 */
	sim_set_this_cpu(0);
	c->t += 50000;
	update_rq_clock(rq);
	assert_int_equal(rq->clock - clock, 450000);
	assert_int_equal(rq->clock_task - task, 100000);
	assert_int_equal(rq->prev_steal_time_rq, 700000);

	/* scale_rt_capacity(): (max - rt) * (max - irq) / max */
	rq->avg_irq.util_avg = 256;
	assert_int_equal(scale_rt_capacity(0), 768);
	rq->avg_rt.util_avg = 128;
	assert_int_equal(scale_rt_capacity(0), 896 * 768 / 1024);
	/* effective_cpu_util(): fair + rt scaled by what irq leaves, plus irq */
	assert_int_equal(effective_cpu_util(0, 384, NULL, NULL), (384 + 128) * 768 / 1024 + 256);
	rq->avg_irq.util_avg = 1024;
	assert_int_equal(scale_rt_capacity(0), 1);
	assert_int_equal(effective_cpu_util(0, 384, NULL, NULL), 1024);
	rq->avg_irq.util_avg = 0;
	rq->avg_rt.util_avg = 0;
	tl_teardown();
}

/* a busy task on CPU 0 of a guest with @steal for @ms: its runtime and CPU 0's steal */
static void run_busy(const char *steal, u64 seed, u64 ms, u64 *runtime, u64 *stolen,
		     unsigned long *irq_util, unsigned long *capacity)
{
	struct task_struct *p;

	write_guest_with("hlt", steal);
	tl_setup_seed(machine_path, TL_ZERO_COST, 0, NULL, seed);
	unlink(machine_path);
	p = tl_work_task("busy", &tl_busy_prog, 0);
	tl_run_until(machine.now + ms * NSEC_PER_MSEC, true);
	tl_account_now();
	*runtime = tl_runtime(p);
	*stolen = machine.steal ? machine.steal[0].total_ns : 0;
	*irq_util = cpu_util_irq(cpu_rq(0));
	*capacity = scale_rt_capacity(0);
	tl_teardown();
}

/*
 * A vCPU busy all along loses the steal share of its time: the task's
 * runtime (clock_task) is the rest, avg_irq converges on the share of
 * 1024 and the capacity the balancer sees drops by as much. The stretches
 * come from the seed: the same seed, the same stretches.
 */
static void test_steal_busy_vcpu(void **state)
{
	u64 runtime, stolen, runtime2, stolen2;
	unsigned long irq, cap, irq2, cap2;

	(void)state;
	run_busy("steal = 25:1000\n", 1, 400, &runtime, &stolen, &irq, &cap);
	/* 400 ms: 100 ms stolen, within one period's stretch (250 us +- 125) */
	assert_in_range(stolen, 100000000 - 400000, 100000000 + 400000);
	/* all the rest ran the task (zero-cost paths), to within the stretch in progress */
	assert_in_range(runtime + stolen, 400000000 - 400000, 400000000);
	/* avg_irq: 25% of 1024 = 256, with the ripple of 250 us stretches */
	assert_in_range(irq, 236, 276);
	assert_int_equal(cap, (1024 - irq) * 1024 / 1024);

	run_busy("steal = 25:1000\n", 1, 400, &runtime2, &stolen2, &irq2, &cap2);
	assert_int_equal(stolen2, stolen);
	assert_int_equal(runtime2, runtime);
	assert_int_equal(irq2, irq);
	run_busy("steal = 25:1000\n", 2, 400, &runtime2, &stolen2, &irq2, &cap2);
	assert_int_not_equal(stolen2, stolen);

	/* without steal: the task has it all, and the capacity is whole */
	run_busy("", 1, 400, &runtime, &stolen, &irq, &cap);
	assert_int_equal(stolen, 0);
	assert_in_range(runtime, 400000000 - 1000, 400000000);
	assert_int_equal(cap, 1024);
}

/* a 4-vCPU KVM guest, one LLC, with steal; its random stretches taken away */
static void setup_guest4_without_stretches(void)
{
	write_machine("[machine]\nname = g4\n[topology]\nshape = core:4\n[class.0]\n"
		      "capacity = 1024\nopps_khz = 2000000\n[guest]\nhypervisor = kvm\n"
		      "steal = 10:1000\n");
	tl_setup(machine_path, TL_ZERO_COST, 0, NULL);
	unlink(machine_path);
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++)
		sim_cancel(&machine.steal[cpu].ev);
}

/*
 * vcpu_is_preempted(): an idle vCPU the host has preempted (its stretch
 * began while it was on its way into idle) looks idle (idle_cpu()) but is
 * not available_idle_cpu(): a wakee sent there would wait for the host.
 * select_idle_sibling() passes over it as target, as prev and in its scan.
 */
static void test_wakeup_skips_preempted_vcpu(void **state)
{
	struct task_struct *p;
	u64 t0;
	int cpu;

	(void)state;
	setup_guest4_without_stretches();
	p = tl_fork("wakee", 1);
	tl_cpu(1);
	assert_ptr_equal(tl_schedule(), p);
	tl_block_current();
	sim_set_this_cpu(0);
	/* every vCPU idle and running: the idle target is taken */
	assert_int_equal(select_idle_sibling(p, 1, 2), 2);

	/* the host preempts vCPU 2 (its stretch raised): idle-looking, not available */
	machine.steal[2].pending_ns = 100000;
	assert_true(idle_cpu(2));
	assert_true(vcpu_is_preempted(2));
	assert_false(available_idle_cpu(2));
	assert_int_equal(select_idle_sibling(p, 1, 2), 1);

	/* and vCPU 1: the scan of the LLC finds one that runs */
	machine.steal[1].pending_ns = 100000;
	cpu = select_idle_sibling(p, 1, 2);
	assert_true(cpu == 0 || cpu == 3);

	/* a stretch taken at vCPU 2's cursor: preempted until its end, not after */
	machine.steal[1].pending_ns = 0;
	t0 = sim_cpu(2)->t;
	assert_int_equal(sim_steal_take(2), 100000);
	sim_cpu(0)->t = t0 + 50000;
	assert_true(vcpu_is_preempted(2));
	assert_int_equal(select_idle_sibling(p, 1, 2), 1);
	sim_cpu(0)->t = t0 + 100000;
	assert_false(vcpu_is_preempted(2));
	assert_int_equal(select_idle_sibling(p, 1, 2), 2);
	tl_teardown();

	/* bare metal: never preempted */
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	assert_false(sim_steal_enabled());
	assert_false(vcpu_is_preempted(2));
	assert_true(available_idle_cpu(2));
	tl_teardown();
}

/*
 * The halted vCPU's private cache (guest_halt_flush_ns, docs/guests.md):
 * a halt at least that long wakes the sleeper with its footprint (the
 * default 16 KiB) to refill from the LLC: 16384 / 64 lines at llc_hit
 * (25 ns), line_mlp (4) in flight, 1600 ns more a period; shorter halts
 * pay nothing more. --guest's item says the same as the [guest] key.
 */
static void test_halt_flush(void **state)
{
	u64 limit, flushed, kept, refill;
	struct cost_model c;
	struct guest_desc d;
	char err[256];

	(void)state;
	cost_model_default(&c);
	refill = cache_llc_refill_ns(&c, CACHE_DEFAULT_FOOTPRINT);
	assert_int_equal(refill, 1600);
	sleeper_extra = "guest_halt_flush_ns = 500000\n";
	flushed = run_sleeper("hlt", NSEC_PER_MSEC, false, &limit);
	sleeper_extra = "";
	kept = run_sleeper("hlt", NSEC_PER_MSEC, false, &limit);
	assert_in_range(flushed - kept, refill - 50, refill + 50);
	/* 300 us halts (the sleep and its 50 us of timer slack) stay below 500 us */
	sleeper_extra = "guest_halt_flush_ns = 500000\n";
	flushed = run_sleeper("hlt", 300 * NSEC_PER_USEC, false, &limit);
	sleeper_extra = "";
	kept = run_sleeper("hlt", 300 * NSEC_PER_USEC, false, &limit);
	assert_int_equal(flushed, kept);
	/* the option's item */
	assert_int_equal(
		guest_parse_option("kvm,guest_halt_flush_ns=2000000", &d, err, sizeof(err)), 0);
	assert_int_equal(guest_host_param(&d, GUEST_HALT_FLUSH), 2000000);
	assert_int_equal(guest_parse_option("kvm,guest_halt_flush_ns=x", &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "guest_halt_flush_ns: 'x' is not a number"));
}

/*
 * The sleeper's mean period (run_sleeper(), 1.6 ms sleeps: shorter ones end
 * near the 1 ms tick, which blurs the mean) on the machine @flush less that
 * on @keep: what the flushed cache's refill adds to each wakeup.
 */
static s64 flush_refill_ns(const char *flush, const char *keep)
{
	u64 limit, flushed, kept;

	sleeper_machine = flush;
	flushed = run_sleeper("hlt", 1600 * NSEC_PER_USEC, false, &limit);
	sleeper_machine = keep;
	kept = run_sleeper("hlt", 1600 * NSEC_PER_USEC, false, &limit);
	sleeper_machine = NULL;
	return (s64)flushed - (s64)kept;
}

/*
 * Bare metal: an idle state that powers the core's caches off
 * (flushes_cache, core C6) wakes the sleeper with its 16 KiB to refill
 * from the LLC, 1600 ns a period with the defaults, against the same
 * machine without the flag.
 */
#define C6_BASE                                                                           \
	"[machine]\nname = b\n[topology]\nshape = core:2%s\n[class.0]\ncapacity = 1024\n" \
	"opps_khz = 2000000\n[idle.0]\nname = C1\nexit_latency_ns = 2000\n"               \
	"target_residency_ns = 2000\npolls = no\n[idle.1]\nname = C6\n"                   \
	"exit_latency_ns = 100000\ntarget_residency_ns = 300000\npolls = no\n"            \
	"flushes_cache = %s\n"

static void test_c6_flushes_cache(void **state)
{
	char flush[512], keep[512];

	(void)state;
	snprintf(flush, sizeof(flush), C6_BASE, "", "yes");
	snprintf(keep, sizeof(keep), C6_BASE, "", "no");
	assert_in_range(flush_refill_ns(flush, keep), 1550, 1650);
	/* the flag survives an export and a reload */
	{
		char err[256];
		struct topology *t = topology_parse_machine(flush, "b.machine", err, sizeof(err));
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(t);
		topology_export(t, f);
		fclose(f);
		assert_non_null(strstr(text, "flushes_cache = yes"));
		free(text);
		topology_free(t);
	}
}

/*
 * The halted vCPU's cache is the core's: with an SMT sibling that runs, the
 * host's core never powers down, and a long halt loses nothing; with the
 * sibling halted as well it does (guest_halt_flush_ns, docs/guests.md).
 */
#define SMT_GUEST                                                                            \
	"[machine]\nname = s\n[topology]\nshape = core:1 pu:2\n[class.0]\ncapacity = 1024\n" \
	"opps_khz = 2000000\n[idle.0]\nname = C1\nexit_latency_ns = 2000\n"                  \
	"target_residency_ns = 2000\npolls = no\n[guest]\nhypervisor = kvm\n"                \
	"guest_halt_flush_ns = %s\n"

static void test_halt_flush_smt(void **state)
{
	char flush[512], keep[512];
	s64 busy_sibling;

	(void)state;
	snprintf(flush, sizeof(flush), SMT_GUEST, "500000");
	snprintf(keep, sizeof(keep), SMT_GUEST, "0");
	assert_in_range(flush_refill_ns(flush, keep), 1550, 1650);
	sleeper_busy0 = true;
	busy_sibling = flush_refill_ns(flush, keep);
	sleeper_busy0 = false;
	assert_int_equal(busy_sibling, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_section),
		cmocka_unit_test(test_haltpoll_adapts),
		cmocka_unit_test(test_halt_wakeup_costs),
		cmocka_unit_test(test_timer_writes),
		cmocka_unit_test(test_ipi_recv_exit),
		cmocka_unit_test(test_host_window_adapts),
		cmocka_unit_test(test_host_window_in_run),
		cmocka_unit_test(test_host_guest),
		cmocka_unit_test(test_guest_option_is_section),
		cmocka_unit_test(test_guest_option_errors),
		cmocka_unit_test(test_steal_clock_task),
		cmocka_unit_test(test_steal_busy_vcpu),
		cmocka_unit_test(test_wakeup_skips_preempted_vcpu),
		cmocka_unit_test(test_halt_flush),
		cmocka_unit_test(test_c6_flushes_cache),
		cmocka_unit_test(test_halt_flush_smt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
