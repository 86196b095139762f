// SPDX-License-Identifier: GPL-2.0-only
/*
 * SMT sharing (sim/cpu.c, smt_speed.K): a core's busy hardware threads
 * share its throughput. Kernel paths are free here (a zero cost model but
 * for smt_speed), so a task's finish time is its user work at the speed
 * its core gave it, and can be computed by hand.
 */
#include "test_sched_helpers.h"

#define W (10 * NSEC_PER_MSEC)

/* A hog: @work ns of user work, then exit. */
struct hog {
	u64 work;
	bool ran;
};

static void hog_next(struct work_task *w, struct op_desc *op)
{
	struct hog *h = w->state;

	memset(op, 0, sizeof(*op));
	op->kind = h->ran ? OP_EXIT : OP_RUN;
	op->ns = h->work;
	h->ran = true;
}

static const struct program hog_prog = { .next = hog_next };

/*
 * tl_setup() with free kernel paths and the SMT table @speeds (K busy
 * threads -> speeds[K - 1]; 0 ends the list, the rest stay full speed).
 */
static void smt_setup(const char *preset, const u64 *speeds)
{
	char err[512];

	tl.saved_tunables = sysctl_sched;
	tl.started = false;
	tl.hook = NULL;
	sched_feat_reset();
	tl.topo = topology_load(preset, err, sizeof(err));
	if (!tl.topo)
		fail_msg("topology_load(%s): %s", preset, err);
	memset(&tl.cost, 0, sizeof(tl.cost));
	for (int k = 0; k < SMT_MAX_THREADS; k++)
		tl.cost.smt_speed[k] = SMT_SPEED_FULL;
	for (int k = 0; speeds && speeds[k]; k++)
		tl.cost.smt_speed[k] = speeds[k];
	sysctl_sched.hz = 1000;
	machine_init(tl.topo, &tl.cost, 1);
	sched_init(0);
	sim_set_this_cpu(0);
}

/* A hog of @work ns bound to @cpu (so balancing cannot spread the hogs). */
static struct task_struct *hog_start(struct hog *h, u64 work, unsigned int cpu)
{
	struct task_struct *p;

	h->work = work;
	h->ran = false;
	p = work_start("hog", &hog_prog, h, cpu);
	cpumask_clear(p->cpus_mask);
	cpumask_set_cpu(cpu, p->cpus_mask);
	p->nr_cpus_allowed = 1;
	return p;
}

/* The first CPU after @cpu on the same core, or on another core if @same is false. */
static unsigned int other_cpu(unsigned int cpu, bool same)
{
	for (unsigned int c = 0; c < tl.topo->nr_cpus; c++)
		if (c != cpu && (tl.topo->cpus[c].core == tl.topo->cpus[cpu].core) == same)
			return c;
	fail_msg("no %s CPU for CPU %u", same ? "sibling" : "non-sibling", cpu);
	return 0;
}

/* ceil(work * 1000 / speed): wall time of @work at @speed permille */
static u64 at_speed(u64 work, u64 speed)
{
	return (work * SMT_SPEED_FULL + speed - 1) / speed;
}

static void assert_near(u64 got, u64 want, u64 slack)
{
	if (got + slack < want || got > want + slack)
		fail_msg("finished at %llu ns, want %llu +- %llu", (unsigned long long)got,
			 (unsigned long long)want, (unsigned long long)slack);
}

/*
 * The ticks interrupt user work (1 ms at HZ 1000) and each resume rounds
 * the work left by at most a nanosecond each way.
 */
#define SLACK 64

static void test_two_hogs_on_one_core_share_it(void **state)
{
	static const u64 speeds[] = { 1000, 625, 0 };
	struct hog a, b;
	struct task_struct *p, *q;

	(void)state;
	smt_setup("smt2-2s-16", speeds);
	p = hog_start(&a, W, 0);
	q = hog_start(&b, W, other_cpu(0, true));
	tl_run_until(100 * NSEC_PER_MSEC, true);
	assert_true(p->__state == TASK_DEAD && q->__state == TASK_DEAD);
	/* each at smt_speed.2 of a core: 10 ms of work take 16 ms */
	assert_near(p->exit_time, at_speed(W, 625), SLACK);
	assert_near(q->exit_time, at_speed(W, 625), SLACK);
	/* a thread's user time is wall time, as on hardware */
	assert_near(p->utime, at_speed(W, 625), SLACK);
	tl_teardown();
}

static void test_two_hogs_on_two_cores_run_alone(void **state)
{
	static const u64 speeds[] = { 1000, 625, 0 };
	struct hog a, b;
	struct task_struct *p, *q;

	(void)state;
	smt_setup("smt2-2s-16", speeds);
	p = hog_start(&a, W, 0);
	q = hog_start(&b, W, other_cpu(0, false));
	tl_run_until(100 * NSEC_PER_MSEC, true);
	assert_int_equal(p->exit_time, W);
	assert_int_equal(q->exit_time, W);
	tl_teardown();
}

/*
 * Hog A has 10 ms of work, its sibling B 2 ms. Both run at 625 permille
 * until B is done: 2 ms of work take 3.2 ms, in which A also did 2 ms.
 * B exits and its CPU goes idle at 3.2 ms; A's other 8 ms run at full
 * speed from that instant: A finishes at 11.2 ms (16 ms if it had not sped
 * up, 10 ms if it had never shared).
 */
static void test_hog_speeds_up_when_its_sibling_goes_idle(void **state)
{
	static const u64 speeds[] = { 1000, 625, 0 };
	struct hog a, b;
	struct task_struct *p, *q;

	(void)state;
	smt_setup("smt2-2s-16", speeds);
	p = hog_start(&a, W, 0);
	q = hog_start(&b, 2 * NSEC_PER_MSEC, other_cpu(0, true));
	tl_run_until(100 * NSEC_PER_MSEC, true);
	assert_near(q->exit_time, 3200 * NSEC_PER_USEC, SLACK);
	assert_near(p->exit_time, 11200 * NSEC_PER_USEC, SLACK);
	tl_teardown();
}

/* POWER10's SMT4 half: four hogs on one core each at smt_speed.4. */
static void test_four_hogs_on_an_smt4_core(void **state)
{
	static const u64 speeds[] = { 1000, 800, 630, 525, 0 };
	struct hog h[4];
	struct task_struct *p[4];
	unsigned int n = 0;

	(void)state;
	smt_setup("power10-96", speeds);
	for (unsigned int c = 0; c < tl.topo->nr_cpus && n < 4; c++)
		if (tl.topo->cpus[c].core == tl.topo->cpus[0].core) {
			p[n] = hog_start(&h[n], W, c);
			n++;
		}
	assert_int_equal(n, 4);
	tl_run_until(100 * NSEC_PER_MSEC, true);
	for (unsigned int i = 0; i < 4; i++)
		assert_near(p[i]->exit_time, at_speed(W, 525), SLACK);
	tl_teardown();
}

/* Without SMT the table is never used: a core has one thread. */
static void test_no_smt_preset_is_unchanged(void **state)
{
	static const u64 speeds[] = { 1000, 500, 0 };
	struct hog a, b;
	struct task_struct *p, *q;

	(void)state;
	smt_setup("smp2", speeds);
	assert_false(machine.smt_sharing);
	p = hog_start(&a, W, 0);
	q = hog_start(&b, W, 1);
	tl_run_until(100 * NSEC_PER_MSEC, true);
	assert_int_equal(p->exit_time, W);
	assert_int_equal(q->exit_time, W);
	tl_teardown();
}

/* charge() is compute and shares the core; charge_stall() is latency and does not. */
static void test_charge_scaled_stall_not(void **state)
{
	static const u64 speeds[] = { 1000, 625, 0 };
	unsigned int sib;
	u64 t0;

	(void)state;
	smt_setup("smt2-2s-16", speeds);
	sib = other_cpu(0, true);
	sim_set_this_cpu(0);
	cpu_set_activity(sim_cpu(0), ACT_KERNEL);

	/* the sibling idle: a lone thread */
	t0 = cpu_now();
	charge(1000);
	assert_int_equal(cpu_now() - t0, 1000);

	/* the sibling busy: 1000 ns of compute take 1600 */
	cpu_set_activity(sim_cpu(sib), ACT_KERNEL);
	t0 = cpu_now();
	charge(1000);
	assert_int_equal(cpu_now() - t0, 1600);
	t0 = cpu_now();
	charge_stall(1000);
	assert_int_equal(cpu_now() - t0, 1000);

	/* a CPU on another core is not slowed */
	sim_set_this_cpu(other_cpu(0, false));
	cpu_set_activity(this_sim_cpu(), ACT_KERNEL);
	t0 = cpu_now();
	charge(1000);
	assert_int_equal(cpu_now() - t0, 1000);

	/* an idle CPU that runs code counts itself as busy */
	sim_set_this_cpu(0);
	cpu_set_activity(sim_cpu(0), ACT_IDLE);
	t0 = cpu_now();
	charge(1000);
	assert_int_equal(cpu_now() - t0, 1600);
	cpu_set_activity(sim_cpu(sib), ACT_IDLE);
	t0 = cpu_now();
	charge(1000);
	assert_int_equal(cpu_now() - t0, 1000);
	tl_teardown();
}

/*
 * charge()'s scaling by a reciprocal is the division it replaces: ceil(ns *
 * 1000 / speed) for every speed a cost model can give, small charges (the
 * multiply) and large ones (the division) alike.
 */
static void test_smt_scale_reciprocal(void **state)
{
	static const u64 ns[] = { 0, 1, 2, 3, 7, 99, 100, 999, 1000, 1001, 4294966, 4294967,
				  4294968, 4294969, 123456789, 1ULL << 40 };

	(void)state;
	for (u64 speed = 1; speed <= SMT_SPEED_FULL; speed++) {
		u64 inv = smt_reciprocal(speed);
		unsigned int below = smt_exact_below(inv);

		for (unsigned int i = 0; i < ARRAY_SIZE(ns); i++)
			assert_int_equal(smt_scale_inv(ns[i], speed, inv, below),
					 speed == SMT_SPEED_FULL ?
						 ns[i] :
						 (ns[i] * SMT_SPEED_FULL + speed - 1) / speed);
		/* every charge below 4.29 ms, in steps that cover each residue */
		for (u64 n = speed; n < 4294967; n += 7919)
			assert_int_equal(smt_scale_inv(n, speed, inv, below),
					 speed == SMT_SPEED_FULL ?
						 n :
						 (n * SMT_SPEED_FULL + speed - 1) / speed);
	}
}

static void test_smt_speed_parameters(void **state)
{
	struct cost_model c;
	char err[256];

	(void)state;
	cost_model_default(&c);
	assert_int_equal(c.smt_speed[0], 1000);
	assert_int_equal(cost_model_set(&c, "smt_speed.2=700", err, sizeof(err)), 0);
	assert_int_equal(c.smt_speed[1], 700);
	assert_int_equal(cost_model_set(&c, "smt_speed.8=1", err, sizeof(err)), 0);
	assert_int_equal(c.smt_speed[7], 1);
	/* a thread never stops, nor runs faster than alone */
	assert_int_equal(cost_model_set(&c, "smt_speed.2=0", err, sizeof(err)), -1);
	assert_string_equal(err, "cost parameter 'smt_speed.2': bad value '0' (permille of a lone thread, 1..1000)");
	assert_int_equal(cost_model_set(&c, "smt_speed.2=1001", err, sizeof(err)), -1);
	assert_int_equal(cost_model_set(&c, "smt_speed.9=500", err, sizeof(err)), -1);
	assert_string_equal(err, "unknown cost parameter 'smt_speed.9'");
	assert_int_equal(cost_model_set(&c, "smt_speed=500", err, sizeof(err)), -1);

	/* presets: Intel HT and Zen 3 1.25x, POWER10 from IBM's SMT2 figure */
	{
		static const struct {
			const char *preset;
			u64 k2;
		} want[] = {
			{ "xeon-8269cy-2s", 625 }, { "icelake-2s-128", 625 },
			{ "epyc-milan-2s-256", 625 }, { "power10-96", 800 },
		};

		for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
			struct topology *t = topology_load(want[i].preset, err, sizeof(err));

			assert_non_null(t);
			assert_int_equal(t->cost.smt_speed[1], want[i].k2);
			topology_free(t);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_hogs_on_one_core_share_it),
		cmocka_unit_test(test_two_hogs_on_two_cores_run_alone),
		cmocka_unit_test(test_hog_speeds_up_when_its_sibling_goes_idle),
		cmocka_unit_test(test_four_hogs_on_an_smt4_core),
		cmocka_unit_test(test_no_smt_preset_is_unchanged),
		cmocka_unit_test(test_charge_scaled_stall_not),
		cmocka_unit_test(test_smt_speed_parameters),
		cmocka_unit_test(test_smt_scale_reciprocal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
