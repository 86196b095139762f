// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf sched latency's arithmetic (report/perf_sched.c) on hand-made
 * captures: the delay of a wakeup and of a preemption, the maximum and
 * where it was, the average, merging by comm, -p, the sort keys and their
 * ties, and the capture file's round trip.
 */
#include "test_util.h"

#include "report/perf_sched.h"

#include <stdlib.h>
#include <string.h>

static struct psched_task task(int pid, const char *comm)
{
	struct psched_task t = { .pid = pid, .tgid = pid, .prio = 120 };

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	return t;
}

static void sw(struct psched_capture *c, u64 ts, unsigned int cpu, struct psched_task prev,
	       char state, struct psched_task next)
{
	struct psched_event e = {
		.ts = ts, .cpu = cpu, .type = PSCHED_SWITCH, .task = prev, .next = next,
		.prev_state = state,
	};

	psched_capture_add(c, &e);
}

static void wake(struct psched_capture *c, u64 ts, unsigned int cpu, struct psched_task p)
{
	struct psched_event e = { .ts = ts, .cpu = cpu, .type = PSCHED_WAKING, .task = p };

	psched_capture_add(c, &e);
}

/*
 * CPU 0: a (pid 10) runs 0..100, sleeps; b (11) runs; a is woken at 150
 * and runs at 400 (delay 250); b is preempted at 400 and back at 500
 * (delay 100). CPU 1: c (12, comm "a" too) woken at 10, runs at 30.
 */
static void capture(struct psched_capture *c)
{
	struct psched_task idle = task(0, "swapper/0"), a = task(10, "a"), b = task(11, "b"),
			   c2 = task(12, "a"), idle1 = task(0, "swapper/1");

	memset(c, 0, sizeof(*c));
	c->nr_cpus = 2;
	snprintf(c->machine, sizeof(c->machine), "test");
	sw(c, 1, 0, idle, 'R', a);
	wake(c, 10, 1, c2);
	sw(c, 30, 1, idle1, 'R', c2);
	sw(c, 100, 0, a, 'S', b);
	wake(c, 150, 0, a);
	sw(c, 400, 0, b, 'R', a);
	sw(c, 500, 0, a, 'S', b);
}

static void test_latency_merged(void **state)
{
	struct psched_capture c;
	struct psched_latency_opts o = { .profile_cpu = -1 };
	struct psched_lat_row *rows;
	long unordered, timestamps, bugs;
	size_t nr;
	char err[128];

	(void)state;
	capture(&c);
	assert_int_equal(psched_parse_sort("avg, max, switch, runtime", &o, err, sizeof(err)), 0);
	nr = psched_latency_rows(&c, &o, &rows, &unordered, &timestamps, &bugs);
	/* swapper, a (10 and 12 merged), b */
	assert_int_equal(nr, 3);
	assert_int_equal(bugs, 0);
	/* a: the waits 250 (a, pid 10) and 20 (pid 12), and a's first switch-in at 1 (0) */
	assert_string_equal(rows[0].comm, "a");
	assert_int_equal(rows[0].num_merged, 2);
	assert_int_equal(rows[0].nb_atoms, 3);
	assert_int_equal(rows[0].total_lat, 270);
	assert_int_equal(rows[0].max_lat, 250);
	assert_int_equal(rows[0].max_lat_start, 150);
	assert_int_equal(rows[0].max_lat_end, 400);
	/* a ran 1..100 and 400..500 */
	assert_int_equal(rows[0].total_runtime, 199);
	/* b: in at 100 (new: 0), preempted at 400, back at 500: 100 */
	assert_string_equal(rows[1].comm, "b");
	assert_int_equal(rows[1].nb_atoms, 2);
	assert_int_equal(rows[1].total_lat, 100);
	assert_int_equal(rows[1].max_lat, 100);
	assert_int_equal(rows[1].total_runtime, 300);
	free(rows);
	psched_capture_free(&c);
}

static void test_latency_pids_and_sort(void **state)
{
	struct psched_capture c;
	struct psched_latency_opts o = { .profile_cpu = -1, .pids = true };
	struct psched_lat_row *rows;
	long unordered, timestamps, bugs;
	size_t nr;
	char err[128];

	(void)state;
	capture(&c);
	/* -p -s pid: one row per task, the largest pid first */
	assert_int_equal(psched_parse_sort("pid", &o, err, sizeof(err)), 0);
	nr = psched_latency_rows(&c, &o, &rows, &unordered, &timestamps, &bugs);
	assert_int_equal(nr, 4);
	assert_int_equal(rows[0].tid, 12);
	assert_int_equal(rows[1].tid, 11);
	assert_int_equal(rows[2].tid, 10);
	assert_int_equal(rows[3].tid, 0);
	assert_int_equal(rows[2].max_lat, 250);
	assert_int_equal(rows[0].max_lat, 20);
	free(rows);
	/* -s switch: ties (a:10 and b both 2 switch-ins) in the order perf inserts: by pid, largest first */
	assert_int_equal(psched_parse_sort("switch", &o, err, sizeof(err)), 0);
	nr = psched_latency_rows(&c, &o, &rows, &unordered, &timestamps, &bugs);
	assert_int_equal(rows[0].tid, 11);
	assert_int_equal(rows[1].tid, 10);
	free(rows);
	/* -s max */
	assert_int_equal(psched_parse_sort("max,runtime", &o, err, sizeof(err)), 0);
	assert_int_equal(o.nr_sort, 2);
	nr = psched_latency_rows(&c, &o, &rows, &unordered, &timestamps, &bugs);
	assert_int_equal(rows[0].tid, 10);
	assert_int_equal(rows[1].tid, 11);
	assert_int_equal(rows[2].tid, 12);
	(void)nr;
	free(rows);
	assert_int_equal(psched_parse_sort("avg,nope", &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "Unknown --sort key: `nope'"));
	assert_int_equal(psched_parse_sort(" , ", &o, err, sizeof(err)), -1);
	psched_capture_free(&c);
}

/* a wakeup of a task that is not asleep starts no wait, unless -C (profile_cpu) */
static void test_latency_wakeup_running(void **state)
{
	struct psched_capture c;
	struct psched_latency_opts o = { .profile_cpu = -1, .pids = true };
	struct psched_task idle = task(0, "swapper/0"), a = task(10, "a");
	struct psched_lat_row *rows;
	long unordered, timestamps, bugs;
	char err[128];

	(void)state;
	memset(&c, 0, sizeof(c));
	c.nr_cpus = 1;
	sw(&c, 100, 0, idle, 'R', a);
	wake(&c, 150, 0, a);		/* running: no wait */
	sw(&c, 200, 0, a, 'R', idle);	/* preempted: waits from 200 */
	sw(&c, 260, 0, idle, 'R', a);
	assert_int_equal(psched_parse_sort("pid", &o, err, sizeof(err)), 0);
	psched_latency_rows(&c, &o, &rows, &unordered, &timestamps, &bugs);
	assert_int_equal(rows[0].tid, 10);
	assert_int_equal(rows[0].nb_atoms, 2);
	assert_int_equal(rows[0].max_lat, 60);
	assert_int_equal(timestamps, 0);
	free(rows);
	/* -C 0: the wakeup counts as one, and its time is before the switch-out: unordered */
	o.profile_cpu = 0;
	psched_latency_rows(&c, &o, &rows, &unordered, &timestamps, &bugs);
	assert_int_equal(timestamps, 1);
	assert_int_equal(unordered, 0);
	free(rows);
	psched_capture_free(&c);
}

/* the file round trip, a comm with a blank included */
static void test_file(void **state)
{
	struct psched_capture c, back;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f;

	(void)state;
	capture(&c);
	snprintf(c.ev[1].task.comm, sizeof(c.ev[1].task.comm), "my task%%");
	f = open_memstream(&buf, &len);
	assert_int_equal(psched_write(f, &c), 0);
	fclose(f);
	f = fmemopen(buf, len, "r");
	assert_int_equal(psched_read(f, "mem", &back, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(back.nr, c.nr);
	assert_int_equal(back.nr_cpus, 2);
	assert_string_equal(back.machine, "test");
	for (size_t i = 0; i < c.nr; i++) {
		assert_int_equal(back.ev[i].ts, c.ev[i].ts);
		assert_int_equal(back.ev[i].type, c.ev[i].type);
		assert_string_equal(back.ev[i].task.comm, c.ev[i].task.comm);
		assert_string_equal(back.ev[i].next.comm, c.ev[i].next.comm);
		assert_int_equal(back.ev[i].prev_state, c.ev[i].prev_state);
	}
	free(buf);
	psched_capture_free(&back);
	/* not a capture */
	f = fmemopen((char[]){ "# tracer: nop\n" }, 14, "r");
	assert_int_equal(psched_read(f, "t", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a perf sched capture"));
	fclose(f);
	psched_capture_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_merged),
		cmocka_unit_test(test_latency_pids_and_sort),
		cmocka_unit_test(test_latency_wakeup_running),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
