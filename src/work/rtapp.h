/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rt-app (scheduler-tools/rt-app) workload files: what the parser
 * (work/rtapp_parse.c, json-c as rt-app reads them) keeps of a file, and the
 * model's entry points (work/bench_rtapp.c). docs/benchmarks.md "rt-app".
 */
#ifndef SCHEDLAB_WORK_RTAPP_H
#define SCHEDLAB_WORK_RTAPP_H

#include "kernel/sched.h"

#include <limits.h>
#include <stdio.h>

/*
 * rt-app's policy_t; SAME is "policy not given" in a phase, which the parser
 * resolves to the thread's policy at that phase (rtapp_sched.policy is
 * never SAME once parsed)
 */
enum rtapp_policy {
	RTAPP_POLICY_SAME = -1,
	RTAPP_SCHED_OTHER,
	RTAPP_SCHED_BATCH,
	RTAPP_SCHED_IDLE,
	RTAPP_SCHED_FIFO,
	RTAPP_SCHED_RR,
	RTAPP_SCHED_DEADLINE,
};

/* rt-app's DEFAULT_THREAD_PRIORITY, DEFAULT_THREAD_NICE */
#define RTAPP_DEFAULT_RT_PRIO 10
#define RTAPP_DEFAULT_NICE 0

/* the events rt-app's parser knows, by key prefix (parse_task_event_data()) */
enum rtapp_ev_type {
	RTAPP_EV_RUN,		/* run: us of work calibrated at full speed */
	RTAPP_EV_RUNTIME,	/* runtime: us of wall time spent working */
	RTAPP_EV_SLEEP,		/* sleep: nanosleep(us) */
	RTAPP_EV_TIMER,		/* timer: {ref, period, mode}: sleep to the next period */
	RTAPP_EV_LOCK,		/* lock/unlock: a pthread mutex */
	RTAPP_EV_UNLOCK,
	RTAPP_EV_WAIT,		/* wait: {ref, mutex}: pthread_cond_wait() */
	RTAPP_EV_SIGNAL,	/* signal: pthread_cond_signal() */
	RTAPP_EV_BROAD,		/* broad: pthread_cond_broadcast() */
	RTAPP_EV_SYNC,		/* sync: {ref, mutex}: signal then wait */
	RTAPP_EV_BARRIER,	/* barrier: the users of a name meet */
	RTAPP_EV_SUSPEND,	/* suspend: wait for a resume naming this task */
	RTAPP_EV_RESUME,	/* resume: wake the task named */
	RTAPP_EV_YIELD,		/* yield: sched_yield() */
	RTAPP_EV_FORK,		/* fork: start a thread of the task named */
	RTAPP_EV_SEM_POST,	/* sem_post/sem_wait: a POSIX semaphore */
	RTAPP_EV_SEM_WAIT,
};

enum rtapp_res_type {
	RTAPP_RES_MUTEX,
	RTAPP_RES_COND,
	RTAPP_RES_TIMER,	/* shared by every thread using its name */
	RTAPP_RES_TIMER_UNIQUE,	/* "unique...": one per thread */
	RTAPP_RES_BARRIER,
	RTAPP_RES_SEM,
};

struct rtapp_resource {
	char *name;
	enum rtapp_res_type type;
	/* barrier: rt-app's initial "waiting", -1 + the instances of each use */
	int barrier_waiting;
	bool relative;		/* timer: mode relative (the default) */
};

struct rtapp_event {
	enum rtapp_ev_type type;
	char *key;		/* as written: "run0", "lock1" */
	unsigned int line;
	s64 duration;		/* us: run, runtime, sleep; the timer's period */
	int res;		/* the resource (cond for wait/sync/suspend/resume) */
	int dep;		/* wait/sync/suspend/resume: the mutex */
	int fork_task;		/* fork: the task description (check_file()) */
	char *ref;		/* fork: the task named */
};

struct rtapp_sched {
	enum rtapp_policy policy;
	/* nice for OTHER/BATCH/IDLE, else the RT priority; in its policy's range */
	int prio;
	/*
	 * rt-app's parse_sched_data() returned a struct: always for a task, for
	 * a phase with "policy" or "priority" (rt-app marks the other case with
	 * the priority THREAD_PRIORITY_UNCHANGED, INT_MAX; no value does here)
	 */
	bool set;
	unsigned int line;
	/*
	 * "util_min" / "util_max": the uclamp requests rt-app passes to
	 * sched_setattr() (SCHED_FLAG_KEEP_ALL with SCHED_FLAG_UTIL_CLAMP_*);
	 * RTAPP_UCLAMP_UNSET when not given, -1 asks for the default back
	 */
	int util_min, util_max;
	bool uclamp_set;
	unsigned int uclamp_line;
	/*
	 * "dl-runtime", "dl-period", "dl-deadline": SCHED_DEADLINE's
	 * reservation, given in us and kept in ns as rt-app passes it to
	 * sched_setattr() (period defaults to the runtime, deadline to the
	 * period)
	 */
	struct rtapp_dl {
		u64 runtime, deadline, period;
	} dl;
};

#define RTAPP_UCLAMP_UNSET (-2)

struct rtapp_phase {
	char *name;
	unsigned int line;
	int loop;
	struct rtapp_event *events;
	unsigned int nr_events;
	struct rtapp_sched sched;
	int *cpus;		/* the phase's own "cpus"; NULL: the task's */
	unsigned int nr_cpus;
	unsigned int cpus_line;
};

#define RTAPP_MAX_CPUS_LISTED 4096

struct rtapp_task {
	char *name;
	unsigned int line;
	int instances;
	int loop;		/* -1: forever */
	s64 delay_us;
	struct rtapp_sched sched;
	int *cpus;		/* "cpus", as listed; NULL: not given */
	unsigned int nr_cpus;
	unsigned int cpus_line;
	struct rtapp_phase *phases;
	unsigned int nr_phases;
	bool forked;		/* a fork event names it */
};

struct rtapp_config {
	char *file;
	s64 duration_s;			/* -1: none */
	int calib_ns_per_loop;		/* 0: calibrate calib_cpu */
	int calib_cpu;
	unsigned int calib_line;
	enum rtapp_policy default_policy;
	bool pi_enabled, lock_pages, gnuplot, cumulative_slack;
	char *logdir, *log_basename;
	bool write_logs;		/* logdir given and log_size not "disable" */
	unsigned int logdir_line;
	struct rtapp_task *tasks;
	unsigned int nr_tasks;
	struct rtapp_resource *res;
	unsigned int nr_res;
	unsigned int nthreads;		/* started at the beginning: the instances */
	bool has_global, has_calibration;
};

/* one loop of a thread, as rt-app's timing_point_t and log_timing() */
struct rtapp_timing {
	int ind;
	u64 perf;		/* loops / 1000, as loadwait() counts them */
	u64 duration;		/* "run": us spent in run/runtime events */
	u64 period;		/* us from the loop's start to its end */
	u64 start, end;		/* CLOCK_MONOTONIC us */
	u64 rel_start;		/* us since rt-app's start */
	s64 slack;		/* us from the timer's wakeup to its next period */
	u64 c_duration;		/* us of run/runtime asked for */
	u64 c_period;		/* us of timer periods */
	u64 wu_latency;		/* us the timer's wakeup was late */
};

/* a thread's loops, summed for the summary and the JSON */
struct rtapp_thread_stats {
	char *name;		/* NAME-IND or NAME-IND-NNNN (forked) */
	int ind;
	const char *policy;
	int prio;
	u64 loops, perf, run_us, period_us;
	u64 timer_loops;	/* loops with a timer event: slack and wakeups */
	s64 slack_min, slack_sum;
	u64 missed;		/* timer loops whose slack was negative */
	u64 wu_sum, wu_max;
	const char *blocked_in;	/* the event it waits in, NULL if none */
	unsigned int blocked_line;	/* its line in the file (0: rt-app's start barrier) */
	const char *blocked_res;	/* the mutex, condition, barrier or semaphore */
	const char *cancelled_in;	/* the event the end of the run cancelled */
	bool exited;
	struct rtapp_timing *log;	/* every loop, when log files are written */
	size_t nr_log, cap_log;
};

struct rtapp_result {
	char *notices;		/* what rt-app logs at its default level, in order */
	int p_load;
	struct rtapp_thread_stats *threads;
	unsigned int nr_threads;
};

/* limits beyond which a file is surely a mistake (and would not fit in memory) */
#define RTAPP_MAX_THREADS 100000
#define RTAPP_MAX_FILE (16u << 20)

/*
 * Read and check @file. NULL with one line in @err, "rt-app: FILE:LINE: ...",
 * for a missing file, a JSON syntax error, an unknown key or event, a bad
 * type or value, an unmodelled feature or a statically wrong use of locks.
 * @background (run --also): a task may loop forever without "duration", as
 * the measured benchmark's end stops it.
 */
struct rtapp_config *rtapp_parse_file(const char *file, bool background, char *err,
				      size_t errlen);
/* The same from text in memory (@file names it in messages). */
struct rtapp_config *rtapp_parse_text(const char *file, const char *text, size_t len,
				      bool background, char *err, size_t errlen);
void rtapp_config_free(struct rtapp_config *c);

const char *rtapp_policy_name(enum rtapp_policy policy);

/*
 * The one place rt-app's scheduling policy and priority reach the kernel
 * (rt-app's set_thread_param()). SCHED_OTHER/BATCH/IDLE: @priority is the
 * nice value; SCHED_FIFO/RR: the RT priority (1..99); both through
 * sched_setattr_nocheck() (a nice change of a SCHED_OTHER task through
 * set_user_nice()); SCHED_DEADLINE: the reservation @dl, which admission
 * control may refuse at run time (-EBUSY, as sched_setattr() does). A
 * priority out of its policy's range or a reservation sched_setattr()
 * refuses with EINVAL: -1 with the reason in @err. @p NULL only checks (the
 * parser calls it so for every task and phase, before the run); at run
 * time a checked setting returns 0, or -EBUSY for a DL reservation the
 * root domain has no bandwidth left for.
 */
/* util_min/util_max of @sd for @p (sched_setattr(), policy kept): 0, or -1 with @err */
int rtapp_apply_uclamp(struct task_struct *p, const struct rtapp_sched *sd, char *err,
		       size_t errlen);
int rtapp_apply_policy(struct task_struct *p, enum rtapp_policy policy, int priority,
		       const struct rtapp_dl *dl, char *err, size_t errlen);

struct bench;
/* the model (work/bench_rtapp.c) */
int rtapp_check_machine(struct bench *b, char *err, size_t errlen);
void rtapp_start(struct bench *b);
/* what the run left, once it ended (NULL before it started) */
const struct rtapp_result *rtapp_result(const struct bench *b);
/* a run that did not finish: the thread blocked forever (rt-app's own errors: bench_fail()) */
bool rtapp_stuck_message(const struct bench *b, char *buf, size_t len);
void rtapp_free(struct bench *b);
/*
 * A thread's name, as rt-app's thread_data_set_unique_name() makes it:
 * TASK-IND, or TASK-IND-NNNN for the @nfork-th fork of TASK (@nfork < 0:
 * not forked); allocated. Threads started at the beginning are the tasks'
 * instances in file order, IND 0, 1, ... (no fork comes before them all).
 */
char *rtapp_thread_name(const char *task, unsigned int ind, int nfork);
/* A thread's log file, rt-app's "LOGDIR/BASENAME-THREAD.log"; allocated */
char *rtapp_log_path(const struct rtapp_config *c, const char *thread);
/* One thread's log: rt-app's header and a line per logged loop; 0 or -1 (a write failed) */
int rtapp_log_print(FILE *f, const struct rtapp_thread_stats *s);

#endif
