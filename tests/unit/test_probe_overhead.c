// SPDX-License-Identifier: GPL-2.0-only
/*
 * --probe-overhead: every call of a traced function pays bcc funclatency's
 * kprobe + kretprobe cost (probe_entry, probe_return, bpf_map_op) as CPU
 * time, the entry part before its body and the return part after it; the
 * figure with the overhead adds the part inside bcc's timestamps. Calls
 * from newidle balance pay it too, and a run gets longer by about the
 * calls times the whole cost.
 */
#include "test_sched_helpers.h"

#include "cli/session.h"
#include "kernel/funclat.h"

#define USEC NSEC_PER_USEC
#define MSEC NSEC_PER_MSEC

static void funclat_on(const char *list, bool probe)
{
	char err[256];

	funclat_reset();
	if (funclat_enable(list, err, sizeof(err)))
		fail_msg("funclat_enable(%s): %s", list, err);
	funclat_probe_overhead = probe;
}

/* distinct values, so a term counted twice or in the wrong part shows */
static void probe_costs(void)
{
	tl.cost.probe_entry = 100;
	tl.cost.probe_return = 200;
	tl.cost.bpf_map_op = 10;
}

/* 100 + 200 + 4 x 10, of which 10 + 200 + 10 inside bcc's interval */
#define PER_CALL 340
#define IN_INTERVAL 220

static void test_probe_off_charges_nothing(void **state)
{
	u64 before, t0;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	probe_costs();
	funclat_on("should_we_balance", false);
	tl_cpu(0);
	before = cpu_now();
	t0 = funclat_entry(FL_should_we_balance);
	assert_int_equal(t0, before);
	charge(50);
	funclat_exit(FL_should_we_balance, t0);
	assert_int_equal(cpu_now() - before, 50);
	assert_int_equal(funclat[FL_should_we_balance].total_ns, 50);
	assert_int_equal(funclat[FL_should_we_balance].probe_ns, 0);
	funclat_reset();
	tl_teardown();
}

static void test_probe_split_around_body(void **state)
{
	u64 before, t0;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	probe_costs();
	funclat_on("should_we_balance", true);
	tl_cpu(0);
	before = cpu_now();
	t0 = funclat_entry(FL_should_we_balance);
	/* the whole entry part (probe_entry + start.update()) precedes the body */
	assert_int_equal(t0 - before, 110);
	charge(50);
	funclat_exit(FL_should_we_balance, t0);
	/* the return part (probe_return + 3 map ops) follows it */
	assert_int_equal(cpu_now() - before, 50 + PER_CALL);
	assert_int_equal(funclat[FL_should_we_balance].calls, 1);
	/* raw: the body alone */
	assert_int_equal(funclat[FL_should_we_balance].total_ns, 50);
	/* with the overhead: the body and the documented in-interval part */
	assert_int_equal(funclat[FL_should_we_balance].probe_ns, IN_INTERVAL);
	assert_int_equal(funclat_probe_in_interval(&tl.cost), IN_INTERVAL);
	assert_int_equal(funclat_probe_per_call(&tl.cost), PER_CALL);

	/* an untraced function pays nothing */
	before = cpu_now();
	t0 = funclat_entry(FL___schedule);
	funclat_exit(FL___schedule, t0);
	assert_int_equal(cpu_now(), before);
	assert_int_equal(funclat[FL___schedule].calls, 0);
	funclat_reset();
	tl_teardown();
}

/*
 * CPU 0 goes newly idle on smt2-2s-16 while CPU 4 (other socket) has four
 * tasks: sched_balance_newidle() walks SMT, MC and NUMA, each through
 * sched_balance_rq() and should_we_balance(), and pulls at NUMA. Kernel
 * paths are free (TL_ZERO_COST), so CPU 0's cursor moves by the probes
 * alone: every call of the three, the nested ones included, pays
 * PER_CALL, and an outer function's raw time holds its inner calls'
 * whole probe cost, as under bcc.
 */
static void test_probe_newidle_calls_charged(void **state)
{
	const struct funclat *ni = &funclat[FL_sched_balance_newidle];
	const struct funclat *lb = &funclat[FL_sched_balance_rq];
	const struct funclat *swb = &funclat[FL_should_we_balance];
	u64 before;

	(void)state;
	for (int probe = 0; probe <= 1; probe++) {
		tl_setup("smt2-2s-16", TL_ZERO_COST, 0, NULL);
		tl_fork_running("src", 4);
		for (int i = 0; i < 3; i++)
			tl_fork("queued", 4);
		tl_advance_all(2 * MSEC);
		probe_costs();
		funclat_on("sched_balance_newidle,sched_balance_rq,should_we_balance", probe);
		cpu_rq(0)->avg_idle = 2 * MSEC;
		cpu_rd(0)->overloaded = true;
		tl_cpu(0);
		before = cpu_now();
		assert_int_equal(tl_newidle(0), 1);
		assert_int_equal(ni->calls, 1);
		assert_int_equal(lb->calls, 3);
		assert_int_equal(swb->calls, 3);
		if (!probe) {
			assert_int_equal(cpu_now(), before);
		} else {
			assert_int_equal(cpu_now() - before, 7 * PER_CALL);
			assert_int_equal(swb->total_ns, 0);
			assert_int_equal(lb->total_ns, 3 * PER_CALL);
			assert_int_equal(ni->total_ns, 6 * PER_CALL);
			assert_int_equal(swb->probe_ns, 3 * IN_INTERVAL);
			assert_int_equal(lb->probe_ns, 3 * IN_INTERVAL);
			assert_int_equal(ni->probe_ns, IN_INTERVAL);
		}
		funclat_reset();
		tl_teardown();
	}
}

/*
 * perf bench sched pipe on one CPU: the two tasks hand the CPU to each
 * other and it is never idle, so the probes' time adds to the run's: it
 * gets longer by the traced calls times the whole per-call cost (to
 * within the ticks that the longer run adds), and the mean with the
 * overhead is the raw mean plus the in-interval part.
 */
static u64 pipe_run(bool probe, u64 *calls, u64 *total, u64 *probe_ns, u64 *per_call)
{
	char *argv[] = { "perf", "bench", "sched", "pipe", "-l", "2000", NULL };
	struct session_config cfg = {
		.machine = "smp1",
		.seed = 1,
		.funclatency = "__schedule,try_to_wake_up",
		.probe_overhead = probe,
		.argc = 6,
		.argv = argv,
	};
	struct session s;
	char err[256];
	u64 t, in_interval;

	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, false));
	t = bench_elapsed_us(s.bench);
	*calls = funclat[FL___schedule].calls + funclat[FL_try_to_wake_up].calls;
	*total = funclat[FL___schedule].total_ns;
	*probe_ns = funclat[FL___schedule].probe_ns;
	*per_call = funclat_probe_per_call(&s.cost);
	in_interval = probe ? funclat_probe_in_interval(&s.cost) : 0;
	assert_int_equal(*probe_ns, funclat[FL___schedule].calls * in_interval);
	session_end(&s);
	return t;
}

static void test_probe_run_longer(void **state)
{
	u64 calls0, calls1, total, probe_ns, per_call, t0, t1;
	double extra, want;

	(void)state;
	t0 = pipe_run(false, &calls0, &total, &probe_ns, &per_call);
	assert_int_equal(probe_ns, 0);
	t1 = pipe_run(true, &calls1, &total, &probe_ns, &per_call);
	/* the x86 default: 40 + 53 + 4 x 23 */
	assert_int_equal(per_call, 185);
	/* the longer run can take a tick or a preemption more */
	assert_true(calls1 >= calls0 && calls1 <= calls0 + 10);
	extra = (double)(t1 - t0) * 1000;
	want = (double)calls1 * (double)per_call;
	assert_true(extra > 0.98 * want && extra < 1.02 * want);
	funclat_reset();
}

static void test_probe_needs_funclatency(void **state)
{
	char *argv[] = { "hackbench", NULL };
	struct session_config cfg = {
		.machine = "smp1",
		.seed = 1,
		.probe_overhead = true,
		.argc = 1,
		.argv = argv,
	};
	char err[256];

	(void)state;
	assert_int_equal(session_check(&cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--probe-overhead on needs --funclatency"));
	funclat_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_off_charges_nothing),
		cmocka_unit_test(test_probe_split_around_body),
		cmocka_unit_test(test_probe_newidle_calls_charged),
		cmocka_unit_test(test_probe_run_longer),
		cmocka_unit_test(test_probe_needs_funclatency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
