// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app workload files (work/rtapp_parse.c): json-c's leniency (comments,
 * trailing commas), events in file order by key prefix, rt-app's loop and
 * barrier rules, and one clear message with the line for each mistake;
 * the policy hook (rtapp_apply_policy()) and sched_yield()
 * (yield_task_fair()).
 */
#include "test_sched_helpers.h"

#include "sim/alloc.h"
#include "work/rtapp.h"

#include <time.h>

static char err[512];

static struct rtapp_config *parse(const char *text)
{
	err[0] = '\0';
	return rtapp_parse_text("t.json", text, strlen(text), false, err, sizeof(err));
}

static struct rtapp_config *parse_ok(const char *text)
{
	struct rtapp_config *c = parse(text);

	if (!c)
		fail_msg("rejected: %s", err);
	return c;
}

static void expect_error(const char *text, const char *want)
{
	struct rtapp_config *c = parse(text);

	if (c) {
		rtapp_config_free(c);
		fail_msg("accepted, want error '%s'", want);
	}
	if (!strstr(err, want))
		fail_msg("error '%s' does not contain '%s'", err, want);
}

/* rt-app's doc/examples style: comments, trailing commas, suffixed keys in file order */
static void test_lenient_json_and_order(void **state)
{
	struct rtapp_config *c = parse_ok("/* header */\n"
					  "{\n"
					  "  \"tasks\": {\n"
					  "    \"t\": {\n"
					  "      \"loop\": 3, // three loops\n"
					  "      \"run0\": 100,\n"
					  "      \"sleep0\": 200,\n"
					  "      \"runtime\": 300,\n"
					  "      \"run1\": 400,\n"
					  "    },\n"
					  "  },\n"
					  "}\n");
	const struct rtapp_phase *ph = &c->tasks[0].phases[0];

	(void)state;
	assert_int_equal(c->nr_tasks, 1);
	assert_int_equal(ph->nr_events, 4);
	assert_int_equal(ph->events[0].type, RTAPP_EV_RUN);
	assert_int_equal(ph->events[0].duration, 100);
	assert_int_equal(ph->events[1].type, RTAPP_EV_SLEEP);
	assert_int_equal(ph->events[2].type, RTAPP_EV_RUNTIME);
	assert_int_equal(ph->events[3].type, RTAPP_EV_RUN);
	assert_int_equal(ph->events[3].duration, 400);
	assert_int_equal(ph->events[3].line, 9);
	/* "loop" without phases: the phase runs 3 times, the task once */
	assert_int_equal(ph->loop, 3);
	assert_int_equal(c->tasks[0].loop, 1);
	/* no global section: rt-app's defaults */
	assert_int_equal(c->duration_s, -1);
	assert_int_equal(c->calib_ns_per_loop, 0);
	assert_int_equal(c->calib_cpu, 0);
	assert_false(c->write_logs);
	rtapp_config_free(c);
}

/* json-c keeps one member per name, the last value at the first place */
static void test_duplicate_keys(void **state)
{
	struct rtapp_config *c = parse_ok("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 1, "
					  "\"sleep\": 2, \"run\": 3}}}");
	const struct rtapp_phase *ph = &c->tasks[0].phases[0];

	(void)state;
	assert_int_equal(ph->nr_events, 2);
	assert_int_equal(ph->events[0].type, RTAPP_EV_RUN);
	assert_int_equal(ph->events[0].duration, 3);
	rtapp_config_free(c);
}

static void test_every_event(void **state)
{
	struct rtapp_config *c = parse_ok(
		"{\"global\": {\"duration\": 1, \"calibration\": 90},"
		" \"tasks\": {"
		"  \"a\": {\"instance\": 2, \"lock\": \"m\", \"wait\": {\"ref\": \"c\", \"mutex\": \"m\"},"
		"        \"signal\": \"c\", \"broad\": \"c\", \"sync\": {\"ref\": \"c\", \"mutex\": \"m\"},"
		"        \"unlock\": \"m\", \"barrier\": \"b\", \"suspend\": \"x\", \"resume\": \"z\","
		"        \"yield\": \"\", \"fork\": \"z\", \"sem_post\": \"s\", \"sem_wait\": \"s\","
		"        \"timer\": {\"ref\": \"unique\", \"period\": 1000, \"mode\": \"absolute\"}},"
		"  \"z\": {\"instance\": 0, \"loop\": 1, \"barrier\": \"b\", \"run\": 5,"
		"        \"timer\": {\"ref\": \"unique\", \"period\": 1000}}}}");
	const struct rtapp_phase *ph = &c->tasks[0].phases[0];
	static const enum rtapp_ev_type want[] = {
		RTAPP_EV_LOCK, RTAPP_EV_WAIT, RTAPP_EV_SIGNAL, RTAPP_EV_BROAD, RTAPP_EV_SYNC,
		RTAPP_EV_UNLOCK, RTAPP_EV_BARRIER, RTAPP_EV_SUSPEND, RTAPP_EV_RESUME,
		RTAPP_EV_YIELD, RTAPP_EV_FORK, RTAPP_EV_SEM_POST, RTAPP_EV_SEM_WAIT,
		RTAPP_EV_TIMER,
	};
	const struct rtapp_event *b, *ta, *tz;

	(void)state;
	assert_int_equal(c->calib_ns_per_loop, 90);
	assert_int_equal(ph->nr_events, sizeof(want) / sizeof(want[0]));
	for (unsigned int i = 0; i < ph->nr_events; i++)
		assert_int_equal(ph->events[i].type, want[i]);
	/* the suspend waits on its own task's name, the fork names task z */
	assert_string_equal(c->res[ph->events[7].res].name, "a");
	assert_int_equal(ph->events[10].fork_task, 1);
	assert_true(c->tasks[1].forked);
	/* rt-app's barrier count: -1 + the instances of each use (2 + 0) */
	b = &ph->events[6];
	assert_int_equal(c->res[b->res].barrier_waiting, 1);
	/* "unique" timers: one per task description, each with its own mode */
	ta = &ph->events[13];
	tz = &c->tasks[1].phases[0].events[2];
	assert_int_not_equal(ta->res, tz->res);
	assert_false(c->res[ta->res].relative);
	assert_true(c->res[tz->res].relative);
	assert_int_equal(c->nthreads, 2);
	rtapp_config_free(c);
}

static void test_phases_and_policy(void **state)
{
	struct rtapp_config *c = parse_ok(
		"{\"global\": {\"duration\": 1},"
		" \"tasks\": {\"t\": {\"priority\": -5, \"cpus\": [1, 3], \"delay\": 7,"
		"  \"phases\": {\"p1\": {\"loop\": 4, \"run\": 1},"
		"              \"p2\": {\"priority\": 3, \"sleep\": 1}}}}}");
	const struct rtapp_task *t = &c->tasks[0];

	(void)state;
	assert_int_equal(t->loop, -1);
	assert_int_equal(t->nr_phases, 2);
	assert_int_equal(t->phases[0].loop, 4);
	assert_int_equal(t->sched.policy, RTAPP_SCHED_OTHER);
	assert_int_equal(t->sched.prio, -5);
	assert_false(t->phases[0].sched.set);
	assert_true(t->phases[1].sched.set);
	/* no "policy": the thread's there, the task's */
	assert_int_equal(t->phases[1].sched.policy, RTAPP_SCHED_OTHER);
	assert_int_equal(t->phases[1].sched.prio, 3);
	assert_int_equal(t->nr_cpus, 2);
	assert_int_equal(t->cpus[1], 3);
	assert_int_equal(t->delay_us, 7);
	assert_null(t->phases[0].cpus);
	rtapp_config_free(c);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("{\n\"tasks\": {\n \"t\": {\"run\": 1\n \"sleep\": 2}}}",
		     "t.json:4:2: JSON syntax error");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 1}}", "unexpected end of file");
	expect_error("{\"tasks\": {}} x", "text after the top-level object");
	expect_error("[1]", "expected an object");
	expect_error("{\"global\": {}}", "no \"tasks\" object");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1,\n \"slepe\": 1}}}",
		     "t.json:2: task t: unknown key \"slepe\"");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": -1}}}", "run: -1 is out of range");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"sleep\": \"1\"}}}",
		     "sleep: expected an integer, got string");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 1.5}}}",
		     "run: expected an integer, got double");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"mem\": 10}}}", "is not modelled");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"iorun\": 10}}}", "is not modelled");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 1, \"taskgroup\": \"/a\"}}}",
		     "taskgroup is not modelled");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1}}}", "no events found");
	expect_error("{\"global\": {\"duraton\": 1}, \"tasks\": {\"t\": {\"loop\": 1, \"run\": 1}}}",
		     "global: unknown key \"duraton\"");
	expect_error("{\"global\": {\"calibration\": \"CPUx\"}, \"tasks\": {\"t\": {\"loop\": 1, \"run\": 1}}}",
		     "calibration");
	expect_error("{\"tasks\": {\"t\": {\"run\": 1}}}", "the run would never end");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"fork\": \"u\"}}}", "can't fork unknown task u");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"timer\": {\"ref\": \"x\"}}}}", "no \"period\"");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"wait\": \"c\"}}}", "expected an object");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"cpus\": [], \"run\": 1}}}", "CPUs listed");
}

/* locks statically: held twice, released unheld, kept, waited on without */
static void test_lock_checks(void **state)
{
	(void)state;
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1,\n \"lock\": \"m\", \"run\": 1}}}",
		     "t.json:1: task t: mutex m is locked and never unlocked");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 2,\n \"lock\": \"m\", \"run\": 1}}}",
		     "t.json:2: task t: lock: mutex m is already held");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"unlock\": \"m\"}}}", "mutex m is not held");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"wait\": {\"ref\": \"c\", \"mutex\": \"m\"}}}}",
		     "mutex m must be locked before waiting");
	/* a lock taken in one phase and released in the next is fine */
	rtapp_config_free(parse_ok("{\"tasks\": {\"t\": {\"loop\": 2, \"phases\": {"
				   "\"a\": {\"lock\": \"m\", \"run\": 1}, \"b\": {\"unlock\": \"m\"}}}}}"));
}

static void test_policies(void **state)
{
	struct rtapp_config *c;
	char e[256];

	(void)state;
	/* rt-app's default RT priority, and the fair policies' nice values */
	c = parse_ok("{\"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"SCHED_FIFO\", \"run\": 1}}}");
	rtapp_config_free(c);
	c = parse_ok("{\"global\": {\"default_policy\": \"SCHED_RR\"}, \"tasks\": {\"t\": {\"loop\": 1, \"run\": 1}}}");
	rtapp_config_free(c);
	c = parse_ok("{\"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"SCHED_BATCH\", \"priority\": 5, \"run\": 1}}}");
	rtapp_config_free(c);
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"SCHED_FIFO\", \"priority\": 100, \"run\": 1}}}",
		     "t.json:1: task t: SCHED_FIFO priority 100 is out of range (1..99)");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"SCHED_RR\", \"priority\": 0, \"run\": 1}}}",
		     "SCHED_RR priority 0 is out of range");
	/* no reservation given: sched_setattr() would fail with EINVAL */
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"SCHED_DEADLINE\", \"run\": 1}}}",
		     "SCHED_DEADLINE dl-runtime 0 dl-deadline 0 dl-period 0 us: sched_setattr() fails with EINVAL");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 2000, \"dl-period\": 1000, \"run\": 1}}}",
		     "dl-runtime 2000 dl-deadline 1000 dl-period 1000 us");
	/* a DL thread cannot fork, and DL priority inheritance is not modelled */
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 10000, \"fork\": \"t\"}}}",
		     "a SCHED_DEADLINE thread cannot fork");
	expect_error("{\"global\": {\"pi_enabled\": true}, \"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 10000, \"lock\": \"m\", \"unlock\": \"m\"}}}",
		     "pi_enabled mutexes of SCHED_DEADLINE threads are not modelled");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"policy\": \"OTHER\", \"run\": 1}}}",
		     "invalid policy OTHER");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"priority\": 20, \"run\": 1}}}",
		     "priority 20 is not a nice value");
	assert_int_equal(rtapp_apply_policy(NULL, RTAPP_SCHED_OTHER, -20, NULL, e, sizeof(e)), 0);
	assert_int_equal(rtapp_apply_policy(NULL, RTAPP_SCHED_FIFO, 10, NULL, e, sizeof(e)), 0);
	assert_int_equal(rtapp_apply_policy(NULL, RTAPP_SCHED_IDLE, 25, NULL, e, sizeof(e)), -1);
	assert_string_equal(e, "SCHED_IDLE priority 25 is not a nice value (-20..19)");
}

/* the hook reaches sched_setattr(): the RT class and the fair policies */
static void test_apply_policy_classes(void **state)
{
	struct task_struct *p;
	char e[256];

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	p = tl_fork("t", 0);
	assert_int_equal(rtapp_apply_policy(p, RTAPP_SCHED_FIFO, 50, NULL, e, sizeof(e)), 0);
	assert_int_equal(p->policy, SCHED_FIFO);
	assert_int_equal(p->rt_priority, 50);
	assert_int_equal(p->prio, MAX_RT_PRIO - 1 - 50);
	tl_check();
	assert_int_equal(rtapp_apply_policy(p, RTAPP_SCHED_RR, 10, NULL, e, sizeof(e)), 0);
	assert_int_equal(p->policy, SCHED_RR);
	assert_int_equal(p->prio, MAX_RT_PRIO - 1 - 10);
	assert_int_equal(rtapp_apply_policy(p, RTAPP_SCHED_IDLE, 0, NULL, e, sizeof(e)), 0);
	assert_int_equal(p->policy, SCHED_IDLE);
	assert_int_equal(p->se.load.weight, scale_load(WEIGHT_IDLEPRIO));
	assert_int_equal(rtapp_apply_policy(p, RTAPP_SCHED_BATCH, 3, NULL, e, sizeof(e)), 0);
	assert_int_equal(p->policy, SCHED_BATCH);
	assert_int_equal(p->static_prio, NICE_TO_PRIO(3));
	tl_check();
	tl_teardown();
}

/* the hook reaches set_user_nice(): the task's weight follows the nice value */
static void test_apply_policy_nice(void **state)
{
	struct task_struct *p;
	char e[256];

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	p = tl_fork("t", 0);
	assert_int_equal(rtapp_apply_policy(p, RTAPP_SCHED_OTHER, 5, NULL, e, sizeof(e)), 0);
	assert_int_equal(p->static_prio, NICE_TO_PRIO(5));
	assert_int_equal(p->se.load.weight, scale_load(sched_prio_to_weight[25]));
	tl_check();
	tl_teardown();
}

/*
 * sched_yield() (v6.18): an eligible task forfeits the rest of its slice
 * (vruntime to its deadline, a new deadline a slice later) and the other
 * task runs; alone on its runqueue, nothing changes.
 */
static void test_yield(void **state)
{
	struct task_struct *a, *b;
	struct rq *rq;
	u64 deadline, slice;

	(void)state;
	tl_setup("smp2", TL_ZERO_COST, 0, NULL);
	a = tl_fork_running("a", 0);
	rq = tl_cpu(0);
	tl_advance(100000);
	deadline = a->se.deadline;
	do_sched_yield();
	assert_ptr_equal(rq->curr, a);
	assert_int_equal(a->se.deadline, deadline);
	assert_int_equal(rq->stat.yld_count, 1);

	/* b is placed at the average vruntime, where a is: a is eligible */
	b = tl_fork("b", 0);
	assert_ptr_equal(rq->curr, a);
	deadline = a->se.deadline;
	slice = calc_delta_fair(a->se.slice, &a->se);
	assert_true(entity_eligible(&rq->cfs, &a->se));
	do_sched_yield();
	assert_int_equal(a->se.vruntime, deadline);
	assert_int_equal(a->se.deadline, deadline + slice);
	assert_ptr_equal(rq->curr, b);
	assert_int_equal(rq->stat.yld_count, 2);

	/* b runs ahead of a: ineligible, it keeps its vruntime, and a runs */
	tl_advance(2000000);
	assert_false(entity_eligible(&rq->cfs, &b->se));
	deadline = b->se.deadline;
	slice = b->se.vruntime;
	do_sched_yield();
	assert_int_equal(b->se.vruntime, slice);
	assert_int_equal(b->se.deadline, deadline);
	assert_ptr_equal(rq->curr, a);
	tl_check();
	tl_teardown();
}

/*
 * sched_setaffinity() on itself: a mask that keeps its CPU changes nothing
 * else; one without it makes the stopper move the running task to the
 * first allowed CPU, and its old CPU goes idle.
 */
static void test_setaffinity_current(void **state)
{
	struct task_struct *a;
	struct cpumask *m;
	struct rq *rq;

	(void)state;
	tl_setup("smp4", TL_ZERO_COST, 0, NULL);
	a = tl_fork_running("a", 0);
	rq = tl_cpu(0);
	m = alloc_cpumask();
	cpumask_set_cpu(0, m);
	cpumask_set_cpu(3, m);
	sched_setaffinity_current(m);
	assert_ptr_equal(rq->curr, a);
	assert_int_equal(a->nr_cpus_allowed, 2);

	cpumask_clear(m);
	cpumask_set_cpu(2, m);
	cpumask_set_cpu(3, m);
	sched_setaffinity_current(m);
	assert_true(is_idle_task(rq->curr));
	assert_int_equal(task_cpu(a), 2);
	assert_true(task_on_rq_queued(a));
	assert_int_equal(a->nr_cpus_allowed, 2);
	free_cpumask(m);
	tl_check();
	tl_teardown();
}

/*
 * Integers as json-c reads them and nothing else: no clamping or wrapping
 * into range, "CPUn" strictly digits (rt-app's sscanf("CPU%d") would take
 * "CPU 1" and wrap "CPU4294967299" to CPU 3), a priority always checked
 * against the policy it applies to (issue 18).
 */
static void test_strict_integers(void **state)
{
	static const char *const bad_cpu[] = {
		"CPU 1", "CPU+1", "CPU-1", "CPU1x", "CPU", "cpu1", " CPU1", "CPU4294967299",
		"CPU2147483648", "CPU99999999999999999999",
	};
	char text[512];
	struct rtapp_config *c;

	(void)state;
	for (size_t i = 0; i < sizeof(bad_cpu) / sizeof(bad_cpu[0]); i++) {
		snprintf(text, sizeof(text),
			 "{\"global\": {\"calibration\": \"%s\"}, \"tasks\": {\"t\": {\"loop\": 1, \"run\": 1}}}",
			 bad_cpu[i]);
		expect_error(text, "calibration: \"");
		assert_non_null(strstr(err, "is neither ns per loop nor \"CPUn\""));
	}
	c = parse_ok("{\"global\": {\"calibration\": \"CPU007\"}, \"tasks\": {\"t\": {\"loop\": 1, \"run\": 1}}}");
	assert_int_equal(c->calib_cpu, 7);
	rtapp_config_free(c);
	c = parse_ok("{\"global\": {\"calibration\": \"CPU2147483647\"}, \"tasks\": {\"t\": {\"loop\": 1, \"run\": 1}}}");
	assert_int_equal(c->calib_cpu, INT_MAX);
	rtapp_config_free(c);
	/* json-c's 64 bits and beyond: the value as json-c holds it, refused */
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 9223372036854775808}}}",
		     "run: 9223372036854775808 is out of range 0..2147483647");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 2147483648}}}",
		     "run: 2147483648 is out of range 0..2147483647");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": -9223372036854775809}}}",
		     "run: -9223372036854775808 is out of range");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": +1}}}", "JSON syntax error");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 1e3}}}",
		     "run: expected an integer, got double");
	expect_error("{\"tasks\": {\"t\": {\"instance\": 100001, \"loop\": 1, \"run\": 1}}}",
		     "instance: 100001 is out of range 0..100000");
	/* rt-app's "unchanged" marker, INT_MAX, is a priority like any other */
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"priority\": 2147483647, \"run\": 1}}}",
		     "t.json:1: task t: SCHED_OTHER priority 2147483647 is not a nice value (-20..19)");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"priority\": -2147483648, \"run\": 1}}}",
		     "SCHED_OTHER priority -2147483648 is not a nice value");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"priority\": 2147483648, \"run\": 1}}}",
		     "priority: 2147483648 is out of range");
}

/*
 * A phase's priority without "policy" applies to the policy the thread has
 * there (rt-app's set_thread_param()): the task's or an earlier phase's,
 * and is checked against it. A SCHED_FIFO task's phase at priority 5 then
 * 6 used to reach the run as "unchanged" policy and abort().
 */
static void test_phase_policy(void **state)
{
	struct rtapp_config *c;
	const struct rtapp_task *t;

	(void)state;
	c = parse_ok("{\"tasks\": {\"t\": {\"policy\": \"SCHED_FIFO\", \"loop\": 2, \"phases\": {"
		     "\"p0\": {\"priority\": 5, \"run\": 1}, \"p1\": {\"priority\": 50, \"run\": 1},"
		     "\"p2\": {\"run\": 1}, \"p3\": {\"policy\": \"SCHED_OTHER\", \"run\": 1},"
		     "\"p4\": {\"priority\": -3, \"run\": 1}}}}}");
	t = &c->tasks[0];
	assert_int_equal(t->phases[0].sched.policy, RTAPP_SCHED_FIFO);
	assert_int_equal(t->phases[0].sched.prio, 5);
	assert_int_equal(t->phases[1].sched.policy, RTAPP_SCHED_FIFO);
	assert_int_equal(t->phases[1].sched.prio, 50);
	assert_false(t->phases[2].sched.set);
	assert_int_equal(t->phases[3].sched.policy, RTAPP_SCHED_OTHER);
	assert_int_equal(t->phases[3].sched.prio, 0);
	assert_int_equal(t->phases[4].sched.policy, RTAPP_SCHED_OTHER);
	assert_int_equal(t->phases[4].sched.prio, -3);
	rtapp_config_free(c);
	expect_error("{\"tasks\": {\"t\": {\"policy\": \"SCHED_RR\", \"loop\": 1, \"phases\": {"
		     "\"p0\": {\"run\": 1},\n \"p1\": {\"priority\": 0, \"run\": 1}}}}}",
		     "t.json:2: task t: phase p1: SCHED_RR priority 0 is out of range (1..99)");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"phases\": {"
		     "\"p0\": {\"priority\": 20, \"run\": 1}}}}}",
		     "task t: phase p0: SCHED_OTHER priority 20 is not a nice value (-20..19)");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 1, \"phases\": {"
		     "\"p0\": {\"policy\": \"SCHED_FIFO\", \"priority\": 99, \"run\": 1},"
		     " \"p1\": {\"priority\": 100, \"run\": 1}}}}}",
		     "task t: phase p1: SCHED_FIFO priority 100 is out of range (1..99)");
}

/* ---- big files: the parser is linear (issue 18) ---- */

struct text {
	char *p;
	size_t n, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		if (t->p && t->n + (size_t)k < t->cap)
			break;
		t->cap = t->cap ? 2 * t->cap : 1 << 20;
		t->p = xreallocarray(t->p, t->cap, 1);
	}
	t->n += (size_t)k;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The bound on one big file's parse, in CPU seconds: the files below take
 * a fraction of a second with the optimised build and a few times that
 * under ASan; the quadratic parser of before took 8 s for a tenth of the
 * tasks of test_big_tasks() and minutes for each of these
 * (docs/reliability.md, "Limits").
 */
#define BIG_PARSE_MAX_S 10.0

/* parse @t: NULL if refused (the message in err); fails if it took too long */
static struct rtapp_config *parse_big(const struct text *t, const char *what)
{
	double t0 = cpu_seconds(), dt;
	struct rtapp_config *c;

	err[0] = '\0';
	c = rtapp_parse_text("big.json", t->p, t->n, false, err, sizeof(err));
	dt = cpu_seconds() - t0;
	print_message("  %s: %zu bytes in %.2f s\n", what, t->n, dt);
	if (dt > BIG_PARSE_MAX_S) {
		rtapp_config_free(c);
		fail_msg("%s: %.1f s, more than %.0f s: the parser is not linear", what, dt,
			 BIG_PARSE_MAX_S);
	}
	return c;
}

/*
 * RTAPP_MAX_THREADS one-line tasks (the documented limit), each locking
 * its own mutex and forking the next: resources and forks are looked up by
 * name, the locks checked per task. Then the same with the last task's
 * lock never released, which the last check finds.
 */
static void test_big_tasks(void **state)
{
	const int n = RTAPP_MAX_THREADS;
	struct text t = { 0 };
	struct rtapp_config *c;

	(void)state;
	for (int bad = 0; bad < 2; bad++) {
		t.n = 0;
		put(&t, "{\"global\": {\"calibration\": 70, \"duration\": 1}, \"tasks\": {\n");
		for (int i = 0; i < n; i++) {
			put(&t, "\"t%d\": {\"loop\": 1, \"lock\": \"m%d\", \"run\": 1, ", i, i);
			if (!bad || i < n - 1)
				put(&t, "\"unlock\": \"m%d\", ", i);
			put(&t, "\"fork\": \"t%d\"}%s\n", (i + 1) % n, i < n - 1 ? "," : "");
		}
		put(&t, "}}\n");
		c = parse_big(&t, bad ? "100000 tasks, the last lock kept" : "100000 tasks");
		if (bad) {
			char want[128];

			assert_null(c);
			snprintf(want, sizeof(want),
				 "big.json:%d: task t%d: mutex m%d is locked and never unlocked", n + 1,
				 n - 1, n - 1);
			if (!strstr(err, want))
				fail_msg("'%s' does not contain '%s'", err, want);
			continue;
		}
		if (!c)
			fail_msg("rejected: %s", err);
		assert_int_equal(c->nr_tasks, n);
		assert_int_equal(c->nthreads, n);
		assert_int_equal(c->nr_res, n);
		assert_int_equal(c->tasks[n - 1].line, n + 1);
		assert_int_equal(c->tasks[n - 1].phases[0].events[3].fork_task, 0);
		assert_int_equal(c->tasks[7].phases[0].events[2].res, 7);
		assert_int_equal(c->tasks[7].phases[0].events[2].line, 9);
		rtapp_config_free(c);
	}
	free(t.p);
}

/* one task of 100000 phases, a line each and a key in a second, the last one wrong */
static void test_big_phases(void **state)
{
	const int n = 100000;
	struct text t = { 0 };

	(void)state;
	put(&t, "{\"global\": {\"calibration\": 70, \"duration\": 1},\n \"tasks\": {\"t\": {\"phases\": {\n");
	for (int i = 0; i < n; i++)
		put(&t, "  \"p%d\": {\"loop\": 2, \"run\": 10,\n    \"%s\": 10}%s\n", i,
		    i < n - 1 ? "sleep" : "slep", i < n - 1 ? "," : "");
	put(&t, "}}}}\n");
	assert_null(parse_big(&t, "100000 phases"));
	if (!strstr(err, "big.json:200002: task t: unknown key \"slep\""))
		fail_msg("error '%s'", err);
	free(t.p);
}

/*
 * One task of a million run events (14 MB, near the 16 MiB limit), a line
 * each, then a key that is wrong; and the same task right.
 */
static void test_big_events(void **state)
{
	const int n = 1000000;
	struct text t = { 0 };
	struct rtapp_config *c;

	(void)state;
	for (int bad = 0; bad < 2; bad++) {
		t.n = 0;
		put(&t, "{\"global\": {\"calibration\": 70}, \"tasks\": {\"t\": {\"loop\": 1,\n");
		for (int i = 0; i < n; i++)
			put(&t, "\"run%d\": 1,\n", i);
		put(&t, "\"%s\": 5}}}\n", bad ? "slep" : "sleep");
		assert_true(t.n <= RTAPP_MAX_FILE);
		c = parse_big(&t, bad ? "a million events, the last wrong" : "a million events");
		if (bad) {
			assert_null(c);
			if (!strstr(err, "big.json:1000002: task t: unknown key \"slep\""))
				fail_msg("error '%s'", err);
			continue;
		}
		if (!c)
			fail_msg("rejected: %s", err);
		assert_int_equal(c->tasks[0].phases[0].nr_events, n + 1);
		assert_int_equal(c->tasks[0].phases[0].events[n].line, n + 2);
		assert_int_equal(c->tasks[0].phases[0].events[n].type, RTAPP_EV_SLEEP);
		rtapp_config_free(c);
	}
	free(t.p);
}

/*
 * Key places: a repeated key keeps its first place (json-c's order); a key
 * in a comment or a string, or written with single quotes or an escape,
 * is where the member is.
 */
static void test_key_places(void **state)
{
	(void)state;
	expect_error("{\"tasks\": {\n \"t\": {\"loop\": 1, \"run\": 1,\n  \"sleep\": 2,\n"
		     "  \"run\": 3,\n  \"slep\": 4}}}",
		     "t.json:5: task t: unknown key \"slep\"");
	expect_error("{\"tasks\": {\n /* \"slep\": 1 */ \"t\": {\"loop\": 1, \"run\": 1,\n"
		     "  // \"slep\"\n  \"sleep\": 3, \"x\": \"\\\"slep\\\":\",\n  'slep': 4}}}",
		     "t.json:4: task t: unknown key \"x\"");
	expect_error("{\"tasks\": {\n \"t\": {\"loop\": 1, \"run\": 1,\n  'sleep': 3,\n  'slep': 4}}}",
		     "t.json:4: task t: unknown key \"slep\"");
	expect_error("{\"tasks\": {\n \"t\": {\"loop\": 1, \"run\": 1,\n  \"sleep\": 2, \"\\u0073leep\": 3,\n"
		     "  \"sl\\u00e9p\": 4}}}",
		     "t.json:4: task t: unknown key \"sl\xc3\xa9p\"");
	expect_error("{\"tasks\": {\"t\": {\"phases\": {\n\"a\": {\"run\": 1},\n\"b\": {\"run\": 1},\n"
		     "\"a\": {\"run\": 2,\n \"slep\": 1}}}}}",
		     "t.json:5: task t: unknown key \"slep\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lenient_json_and_order),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_every_event),
		cmocka_unit_test(test_phases_and_policy),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_lock_checks),
		cmocka_unit_test(test_policies),
		cmocka_unit_test(test_apply_policy_nice),
		cmocka_unit_test(test_apply_policy_classes),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_setaffinity_current),
		cmocka_unit_test(test_key_places),
		cmocka_unit_test(test_strict_integers),
		cmocka_unit_test(test_phase_policy),
		cmocka_unit_test(test_big_tasks),
		cmocka_unit_test(test_big_phases),
		cmocka_unit_test(test_big_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
