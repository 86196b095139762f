/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One simulated run: machine + scheduler + benchmark, set up from
 * command-line level inputs. Used by `run` and by tests that need to look
 * inside a run (counters, costs) after it ends.
 */
#ifndef SCHEDLAB_CLI_SESSION_H
#define SCHEDLAB_CLI_SESSION_H

#include "kernel/sched.h"
#include "work/bench.h"

struct cost_profile;

struct session_config {
	const char *machine;
	const char *features;		/* NULL: defaults */
	u64 seed;
	const struct cost_profile *profile; /* --costs FILE, NULL: none */
	const char *const *costs;	/* NAME=NS overrides, after the profile */
	int nr_costs;
	const char *const *sysctls;	/* NAME=VALUE tunables */
	int nr_sysctls;
	const char *const *idle_states;	/* --idle-states SPECs, applied in order */
	int nr_idle_states;
	const char *funclatency;	/* functions to trace, "a,b" */
	bool probe_overhead;		/* traced calls pay bcc's probe cost (needs funclatency) */
	const char *preempt;		/* none|voluntary|full|lazy, NULL: the default */
	unsigned int hz;		/* 0: the machine's */
	const char *cpufreq;		/* --cpufreq GOVERNOR[:KHZ], NULL: the machine's default */
	const char *guest;		/* --guest SPEC over the machine's [guest], NULL: none */
	const char *cpuidle;		/* --cpuidle GOVERNOR, NULL: avg */
	u64 max_events;			/* 0: SESSION_DEFAULT_MAX_EVENTS */
	u64 max_time_ns;		/* simulated; 0: SESSION_DEFAULT_MAX_TIME_NS */
	int argc;			/* the benchmark command line */
	char **argv;
	const char *const *also;	/* background workloads, each a command line (--also) */
	int nr_also;
};

/* --also workloads a run takes at most (each a work group besides the measured one) */
#define SESSION_MAX_ALSO (WORK_MAX_GROUPS - 1)

/*
 * The limits that stop an event storm or a run-away simulated clock
 * (docs/reliability.md, "Limits"): 10^10 events are 10 to 30 minutes of
 * wall-clock time; 30 simulated days are beyond any workload here
 * (stress-ng's default timeout is one day) and far from u64 overflow.
 */
#define SESSION_DEFAULT_MAX_EVENTS 10000000000ULL
#define SESSION_DEFAULT_MAX_TIME_NS (30ULL * 86400 * NSEC_PER_SEC)

struct session {
	struct topology *topo;
	struct cost_model cost;
	struct bench *bench;
	/* the --also workloads, started with it and stopped when it ends */
	struct bench *also[SESSION_MAX_ALSO];
	char **also_argv[SESSION_MAX_ALSO];	/* each split into words, NULL-terminated */
	char *also_cmd[SESSION_MAX_ALSO];	/* each as given */
	int also_argc[SESSION_MAX_ALSO];
	int nr_also;
	double wall_s;
	bool finished;
};

/* Set everything up; 0, or -1 with a one-line message for bad input. */
int session_start(struct session *s, const struct session_config *cfg, char *err, size_t errlen);
/*
 * Set up and tear down without running: what `ab` and `study` do for each
 * setting before any run, so bad input costs none. 0, or -1 with a message.
 */
int session_check(const struct session_config *cfg, char *err, size_t errlen);
/*
 * Run to the end; true if the benchmark finished. false also when a limit
 * stopped it: machine.limit_hit says which, session_limit_message() in what
 * words.
 */
bool session_run(struct session *s, bool check);
void session_end(struct session *s);
/* One line on why the run stopped short (no newline). */
void session_limit_message(char *buf, size_t len);

/* why a run did not finish */
struct session_failure {
	/*
	 * the workload that failed or is stuck: 0 the measured benchmark, k
	 * the k-th --also; -1 none (a limit stopped the run)
	 */
	int workload;
	const char *command;		/* the --also command as given, NULL for the benchmark */
	u64 t_ns;			/* simulated time it failed, got stuck or stopped */
	char why[512];			/* the cause, one line */
	char message[1024];		/* what is printed: the workload, the time, the cause */
};

/*
 * After session_run() returned false: a workload's own failure
 * (bench_fail(): rt-app's fork limit), in the benchmark or a background
 * workload, else the benchmark stuck, else the limit that stopped it.
 */
void session_failure(const struct session *s, struct session_failure *f);

#endif
