// SPDX-License-Identifier: GPL-2.0-only
/*
 * Execution-time variation (sim/variation.h): off, nothing changes and
 * nothing is drawn; on, each kernel path and user segment takes its
 * nominal time times a uniform factor of mean 1 and the standard deviation
 * set, drawn from its CPU's own stream, the same for the same seed.
 */
#include "test_sched_helpers.h"

#include "cli/session.h"
#include "work/bench.h"

#include <math.h>

#define DRAWS 200000

static struct topology *topo;
static struct cost_model cost;

static int setup(void **state)
{
	char err[256];

	(void)state;
	topo = topology_load("smp2", err, sizeof(err));
	return topo ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	topology_free(topo);
	return 0;
}

static void machine_at(u64 ppm, u64 seed)
{
	cost_model_default(&cost);
	cost.exec_variation_ppm = ppm;
	machine_init(topo, &cost, seed);
	sim_set_this_cpu(0);
}

/* off: charges land exactly, and there is no stream to draw from */
static void test_off_is_exact(void **state)
{
	(void)state;
	machine_at(0, 1);
	assert_int_equal(machine.variation.half, 0);
	assert_null(machine.variation.cpu);
	sim_variation_begin(&machine.variation, 0, &sim_cpu(0)->t);
	charge(123);
	charge_stall(77);
	charge(1);
	assert_int_equal(cpu_now(), 201);
	machine_destroy();
}

/* the factor: mean 1, the standard deviation set, within 1 +- sqrt(3) SD */
static void test_factor_distribution(void **state)
{
	static const u64 ppms[] = { 1000, 20000, 300000 };

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(ppms); k++) {
		double sd = (double)ppms[k] / 1e6, sum = 0, sq = 0, lo = 2, hi = 0;

		machine_at(ppms[k], 7);
		for (int i = 0; i < DRAWS; i++) {
			double f = (double)sim_variation_draw(&machine.variation, 1) /
				   (double)VARIATION_ONE;

			sum += f;
			sq += (f - 1) * (f - 1);
			lo = f < lo ? f : lo;
			hi = f > hi ? f : hi;
		}
		/* the mean's own SD is sd / sqrt(DRAWS): 5 of those */
		assert_true(fabs(sum / DRAWS - 1) < 5 * sd / sqrt(DRAWS));
		assert_true(fabs(sqrt(sq / DRAWS) / sd - 1) < 0.01);
		assert_true(lo >= 1 - sqrt(3) * sd - 1e-9 && lo < 1 - 0.99 * sqrt(3) * sd);
		assert_true(hi <= 1 + sqrt(3) * sd + 1e-9 && hi > 1 + 0.99 * sqrt(3) * sd);
		machine_destroy();
	}
}

/*
 * The mean time is the nominal one, even for charges of a few ns, where
 * rounding each down would lose a sixth: the fractions are carried
 */
static void test_mean_preserved(void **state)
{
	u64 t0;

	(void)state;
	machine_at(50000, 3);
	t0 = cpu_now();
	for (int i = 0; i < DRAWS; i++) {
		sim_variation_begin(&machine.variation, 0, &sim_cpu(0)->t);
		charge(3);
		charge_stall(100);
	}
	/* the last path's stall takes its factor when the next path begins */
	sim_variation_begin(&machine.variation, 0, &sim_cpu(0)->t);
	/*
	 * 103 ns x DRAWS nominal; the SD of the sum is 103 x 5% x sqrt(DRAWS)
	 * = 2303 ns. The stalls come before the next path's charge: with a
	 * factor below 1 they come out shorter than the cursor has moved, and
	 * only the debt carried to the next charges keeps the mean.
	 */
	assert_true(llabs((long long)(cpu_now() - t0) - 103LL * DRAWS) < 5 * 2303);
	machine_destroy();
}

/* one factor for a path: its charges scale together, the next path draws again */
static void test_one_factor_per_path(void **state)
{
	u64 a, b, c, t;

	(void)state;
	machine_at(100000, 5);
	sim_variation_begin(&machine.variation, 0, &sim_cpu(0)->t);
	t = cpu_now();
	charge(10000);
	a = cpu_now() - t;
	t = cpu_now();
	charge(10000);
	b = cpu_now() - t;
	assert_true(a > b ? a - b <= 1 : b - a <= 1);
	sim_variation_begin(&machine.variation, 0, &sim_cpu(0)->t);
	t = cpu_now();
	charge(10000);
	c = cpu_now() - t;
	/* a new draw: 10000 x (f2 - f1) moves by whole ns almost surely */
	assert_true(c > a + 1 || a > c + 1);
	machine_destroy();
}

/*
 * A path's stalls take its factor, at its next charge or at the CPU's
 * next path begin; time the CPU does not execute (a wait for a lock) is
 * left alone; and the cursor never runs back, a short factor leaving a
 * debt that the next varied time pays
 */
static void test_stalls_vary_with_path(void **state)
{
	struct sim_cpu *c;
	u64 a, b, t, jumped, f;
	int below = 0;

	(void)state;
	machine_at(100000, 7);
	c = sim_cpu(0);
	for (int i = 0; i < 64; i++) {
		sim_variation_begin(&machine.variation, 0, &c->t);
		f = machine.variation.cpu[0].factor;
		machine.variation.cpu[0].debt = 0;
		t = cpu_now();
		charge_stall(10000);
		/* nominal until a charge or the next begin varies it */
		assert_int_equal(cpu_now() - t, 10000);
		charge(0);
		a = cpu_now() - t;
		if (f < VARIATION_ONE) {
			/* shorter: the cursor stays, the rest is owed */
			below++;
			assert_int_equal(a, 10000);
			assert_true(machine.variation.cpu[0].debt > 1);
			/* the next charge pays it before it moves the cursor */
			charge(machine.variation.cpu[0].debt / 2);
			assert_int_equal(cpu_now() - t, 10000);
			continue;
		}
		/* the stall and a charge of the same size take the same factor */
		t = cpu_now();
		charge(10000);
		b = cpu_now() - t;
		assert_true(a > b ? a - b <= 1 : b - a <= 1);
		/* a stall at the end of the path: at the next begin, at this factor */
		t = cpu_now();
		charge_stall(10000);
		jumped = cpu_now() + 50000;
		sim_cpu_set_cursor(c, jumped);
		sim_variation_begin(&machine.variation, 0, &c->t);
		b = cpu_now() - jumped + 10000;
		assert_true(a > b ? a - b <= 1 : b - a <= 1);
	}
	/* a uniform factor: about half the paths below 1 */
	assert_true(below > 16 && below < 48);
	machine_destroy();
}

/* the same seed draws the same factors; each CPU's stream is its own */
static void test_deterministic_streams(void **state)
{
	u64 first[64], again[64];

	(void)state;
	machine_at(20000, 11);
	for (int i = 0; i < 64; i++)
		first[i] = sim_variation_draw(&machine.variation, 0);
	machine_destroy();

	machine_at(20000, 11);
	for (int i = 0; i < 64; i++) {
		/* CPU 1's draws in between change nothing on CPU 0 */
		sim_variation_draw(&machine.variation, 1);
		again[i] = sim_variation_draw(&machine.variation, 0);
	}
	assert_memory_equal(first, again, sizeof(first));
	machine_destroy();

	machine_at(20000, 12);
	for (int i = 0; i < 64; i++)
		again[i] = sim_variation_draw(&machine.variation, 0);
	assert_memory_not_equal(first, again, sizeof(first));
	machine_destroy();
}

/* a whole run: the pinned pipe ping-pong; its simulated end time */
static u64 run_pipe(const char *var, u64 seed)
{
	char *argv[] = {
		"taskset", "-c", "0", "perf", "bench", "sched", "pipe", "-l", "20000", NULL
	};
	const char *costs[] = { var };
	struct session_config cfg = { .machine = "smp2",
				      .seed = seed,
				      .costs = costs,
				      .nr_costs = var ? 1 : 0,
				      .argc = 9,
				      .argv = argv };
	struct session s;
	char err[256];
	u64 end;

	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	bench_start(s.bench);
	sched_start();
	sim_run(NULL);
	end = machine.now;
	session_end(&s);
	return end;
}

/*
 * Off is the machine without the parameter; on, a run is the same for the
 * same seed, another for another seed, and 40000 switches' worth of paths
 * take the nominal time on average (their SD, 2% / sqrt(paths), is far
 * below the 0.5% allowed)
 */
static void test_run(void **state)
{
	u64 none, off, on1, on1b, on2, off2;

	(void)state;
	none = run_pipe(NULL, 1);
	off = run_pipe("exec_variation_ppm=0", 1);
	assert_int_equal(none, off);
	on1 = run_pipe("exec_variation_ppm=20000", 1);
	on1b = run_pipe("exec_variation_ppm=20000", 1);
	on2 = run_pipe("exec_variation_ppm=20000", 2);
	/* each seed starts at its own tick phase: compare like with like */
	off2 = run_pipe(NULL, 2);
	assert_int_equal(on1, on1b);
	assert_true(on1 != on2);
	assert_true(fabs((double)on1 / (double)none - 1) < 0.005);
	assert_true(fabs((double)on2 / (double)off2 - 1) < 0.005);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off_is_exact),
		cmocka_unit_test(test_factor_distribution),
		cmocka_unit_test(test_mean_preserved),
		cmocka_unit_test(test_one_factor_per_path),
		cmocka_unit_test(test_stalls_vary_with_path),
		cmocka_unit_test(test_deterministic_streams),
		cmocka_unit_test(test_run),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
