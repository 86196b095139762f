// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf bench sched pipe on one CPU costs what the cost model says a round
 * trip costs: two writes that each wake the peer, two reads that each block
 * and switch to the peer. The prediction is computed here from the cost
 * parameters, so the test fails if the accounting drifts in either direction.
 */
#include "test_util.h"

#include "cli/session.h"

#include <math.h>
#include <stdlib.h>

static double run_pipe(const char *features, const char *const *costs, int nr_costs,
		       unsigned int loops, bool threads, struct cost_model *cost_out)
{
	char loops_s[32], err[256];
	char *argv[8] = { "perf", "bench", "sched", "pipe", "-l", loops_s, threads ? "-T" : NULL, NULL };
	struct session_config cfg = {
		.machine = "smp1",
		.features = features,
		.seed = 1,
		.costs = costs,
		.nr_costs = nr_costs,
		.argc = threads ? 7 : 6,
		.argv = argv,
	};
	struct session s;
	double usecs_per_op;

	snprintf(loops_s, sizeof(loops_s), "%u", loops);
	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, false));
	*cost_out = s.cost;
	usecs_per_op = (double)bench_elapsed_us(s.bench) / loops;
	session_end(&s);
	return usecs_per_op;
}

/* One round trip, both halves, in ns. */
static double predicted_round_trip(const struct cost_model *c, bool threads)
{
	double copy = (double)cost_copy(c, sizeof(int));
	/* write: enter, pipe work, copy, wake the blocked peer */
	double write = c->syscall + c->pipe_write + copy + c->ttwu + c->wake_walk + c->rq_lock + c->enqueue;
	/*
	 * read: enter, find the pipe empty, block and switch to the peer; later
	 * retry the pipe read and copy out (the syscall entry is not repeated)
	 */
	double read = c->syscall + c->pipe_read + c->rq_lock + c->schedule + c->pick_next + c->dequeue +
		      c->context_switch + (threads ? 0 : c->switch_mm) + c->pipe_read + copy;
	/*
	 * a threaded process's write() and read() pass glibc's cancellation
	 * point, and take a reference to the file: the other thread lives
	 */
	return 2 * (write + read) + (threads ? 4.0 * (c->cancel_point + c->fget_shared) : 0);
}

static void test_round_trip_matches_cost_model(void **state)
{
	struct cost_model c;
	double got, want;

	(void)state;
	/* without wakeup preemption every round trip is the textbook one */
	got = run_pipe("NO_WAKEUP_PREEMPTION", NULL, 0, 20000, false, &c) * 1000;
	want = predicted_round_trip(&c, false);
	printf("  processes: %.1f ns/op simulated, %.1f ns predicted\n", got, want);
	assert_true(got > want * 0.995 && got < want * 1.005);

	got = run_pipe("NO_WAKEUP_PREEMPTION", NULL, 0, 20000, true, &c) * 1000;
	want = predicted_round_trip(&c, true);
	printf("  threads:   %.1f ns/op simulated, %.1f ns predicted\n", got, want);
	assert_true(got > want * 0.995 && got < want * 1.005);
}

static void test_cost_parameters_move_the_result(void **state)
{
	static const char *const more_write[] = { "pipe_write=1450" };
	static const char *const more_switch[] = { "context_switch=1250" };
	struct cost_model c;
	double base, w, s;

	(void)state;
	base = run_pipe("NO_WAKEUP_PREEMPTION", NULL, 0, 10000, false, &c) * 1000;
	assert_int_equal(c.pipe_write, 450);
	w = run_pipe("NO_WAKEUP_PREEMPTION", more_write, 1, 10000, false, &c) * 1000;
	assert_int_equal(c.pipe_write, 1450);
	s = run_pipe("NO_WAKEUP_PREEMPTION", more_switch, 1, 10000, false, &c) * 1000;
	/* two writes and two switches per round trip: +2000 ns each, within 1% */
	assert_true(w - base > 1980 && w - base < 2020);
	assert_true(s - base > 1980 && s - base < 2020);
}

/*
 * glibc's cancellation point and the shared file table's fdget() are paid
 * by a threaded process only: perf bench pipe -T's two threads (four calls
 * a round trip), not its two processes.
 */
static void test_threaded_calls_threads_only(void **state)
{
	static const char *const more[] = { "cancel_point=522", "fget_shared=507" };
	struct cost_model c;
	double base, dear;

	(void)state;
	base = run_pipe("NO_WAKEUP_PREEMPTION", NULL, 0, 10000, true, &c) * 1000;
	assert_int_equal(c.cancel_point, 22);
	assert_int_equal(c.fget_shared, 7);
	dear = run_pipe("NO_WAKEUP_PREEMPTION", more, 2, 10000, true, &c) * 1000;
	/* 4 calls a round trip, each 500 + 500 ns dearer */
	assert_true(dear - base > 3960 && dear - base < 4040);
	base = run_pipe("NO_WAKEUP_PREEMPTION", NULL, 0, 10000, false, &c) * 1000;
	dear = run_pipe("NO_WAKEUP_PREEMPTION", more, 2, 10000, false, &c) * 1000;
	assert_true(fabs(dear - base) < 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_matches_cost_model),
		cmocka_unit_test(test_cost_parameters_move_the_result),
		cmocka_unit_test(test_threaded_calls_threads_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
