// SPDX-License-Identifier: GPL-2.0-only
/*
 * KVM guests (docs/guests.md): a machine file's [guest] gives the guest's
 * idle states and the hypervisor's costs; a halted vCPU costs its wakeup,
 * inside or past the host's halt-poll window; the haltpoll governor grows
 * its poll limit for short halts and shrinks it for long ones.
 */
#include "test_sched_helpers.h"

#include "topo/machine_file.h"
#include "topo/machine_guest.h"

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
		"g.machine:15: unknown key 'foo' in [guest] (known: hypervisor, cpuidle, ipi_virtualization, steal, source)");
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = kvm\nhypervisor = kvm\n", err,
			  sizeof(err)));
	assert_string_equal(err, "g.machine:15: hypervisor given twice");
	assert_null(parse(GUEST_BASE "[guest]\nhypervisor = kvm\nipi_virtualization = maybe\n", err,
			  sizeof(err)));
	assert_string_equal(err, "g.machine:15: ipi_virtualization: 'maybe' is not one of yes no");
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

static void write_guest(const char *cpuidle)
{
	FILE *f;
	int fd;

	snprintf(machine_path, sizeof(machine_path), "/tmp/schedlab-guest-XXXXXX");
	fd = mkstemp(machine_path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, GUEST_BASE "[guest]\nhypervisor = kvm\ncpuidle = %s\n", cpuidle);
	fclose(f);
}

/*
 * The sleeper on a guest machine for 20 ms: the mean time from one burst to
 * the next (10 us of work, the sleep, and the wakeup, which a halted vCPU
 * lengthens), and CPU 1's poll limit at the end. @free_wakeups: the
 * host's side costs nothing (guest_wakeup*, 0).
 */
static u64 run_sleeper(const char *cpuidle, u64 ns, bool free_wakeups, u64 *poll_limit)
{
	write_guest(cpuidle);
	sleep_ns = ns;
	sleeper_ran = false;
	nr_bursts = 0;
	tl_setup(machine_path, TL_REAL_COST, 0, NULL);
	if (free_wakeups)
		tl.cost.guest_wakeup = tl.cost.guest_wakeup_polled = 0;
	tl_work_task("sleeper", &sleeper_prog, 1);
	tl_run_until(20 * NSEC_PER_MSEC, true);
	*poll_limit = cpu_rq(1)->poll_limit_ns;
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
}

/*
 * A halted vCPU costs its wakeup: each of the sleeper's wakeups waits for
 * the host's side, guest_wakeup_polled (800 ns) for halts inside the
 * host's 200 us poll window, guest_wakeup (5 us) past it.
 */
static void test_halt_wakeup_costs(void **state)
{
	u64 limit, with, without;

	(void)state;
	with = run_sleeper("hlt", 100 * NSEC_PER_USEC, false, &limit);
	without = run_sleeper("hlt", 100 * NSEC_PER_USEC, true, &limit);
	/* the mean period: the tick and the 20 ms window blur it by a few ns */
	assert_in_range(with - without, 750, 850);
	with = run_sleeper("hlt", 300 * NSEC_PER_USEC, false, &limit);
	without = run_sleeper("hlt", 300 * NSEC_PER_USEC, true, &limit);
	assert_in_range(with - without, 4900, 5100);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_section),
		cmocka_unit_test(test_haltpoll_adapts),
		cmocka_unit_test(test_halt_wakeup_costs),
		cmocka_unit_test(test_host_guest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
