// SPDX-License-Identifier: GPL-2.0-only
#include "cli/session.h"

#include "cli/perf_stat_opts.h"
#include "cli/study_file.h"
#include "kernel/cpuidle_ctl.h"
#include "kernel/funclat.h"
#include "sim/alloc.h"
#include "topo/cost_profile.h"
#include "topo/machine_guest.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void free_benches(struct session *s)
{
	for (int i = 0; i < s->nr_also; i++) {
		if (s->also[i])
			bench_free(s->also[i]);
		for (int k = 0; k < s->also_argc[i]; k++)
			free(s->also_argv[i][k]);
		free(s->also_argv[i]);
		free(s->also_cmd[i]);
	}
	s->nr_also = 0;
	if (s->bench)
		bench_free(s->bench);
	s->bench = NULL;
}

/*
 * The --also workloads: each a command line split at blanks (as study
 * files' workload lines are), parsed as a benchmark in the background.
 */
static int parse_also(struct session *s, const struct session_config *cfg, char *err,
		      size_t errlen)
{
	char perr[384];

	if (cfg->nr_also > SESSION_MAX_ALSO) {
		snprintf(err, errlen, "--also: at most %d background workloads, got %d",
			 SESSION_MAX_ALSO, cfg->nr_also);
		return -1;
	}
	for (int i = 0; i < cfg->nr_also; i++) {
		const char *cmd = cfg->also[i];
		struct strlist w;
		struct bench *b;

		split_words(cmd, &w);
		s->also_cmd[i] = xstrdup(cmd);
		s->also_argv[i] = w.v;
		s->also_argc[i] = w.n;
		s->nr_also = i + 1;
		if (!w.n) {
			snprintf(err, errlen, "--also '%s': no command (give a benchmark command line)",
				 cmd);
			return -1;
		}
		if (perf_stat_cmdline(w.n, w.v)) {
			snprintf(err, errlen,
				 "--also '%s': perf stat cannot run in the background (give the command it would run)",
				 cmd);
			return -1;
		}
		b = bench_parse_background(w.n, w.v, perr, sizeof(perr));
		if (!b) {
			snprintf(err, errlen, "--also '%s': %s", cmd, perr);
			return -1;
		}
		b->group = (unsigned int)i + 1;
		s->also[i] = b;
	}
	return 0;
}

static int check_also(struct session *s, const struct session_config *cfg, char *err,
		      size_t errlen)
{
	char perr[384];

	for (int i = 0; i < s->nr_also; i++) {
		if (bench_check_machine(s->also[i], s->topo->name, perr, sizeof(perr))) {
			snprintf(err, errlen, "--also '%s': %s", cfg->also[i], perr);
			return -1;
		}
	}
	return 0;
}

/* --preempt MODEL, or the machine's [machine] preempt (-m host: the running kernel's) */
static int set_preempt(const char *name, char *err, size_t errlen)
{
	for (int i = 0; i < 4; i++) {
		if (!strcmp(name, preempt_model_names[i])) {
			sysctl_sched.preempt = i;
			return 0;
		}
	}
	snprintf(err, errlen, "--preempt: unknown model '%s' (none, voluntary, full, lazy)", name);
	return -1;
}

int session_start(struct session *s, const struct session_config *cfg, char *err, size_t errlen)
{
	unsigned int *idle_disable = NULL;	/* --idle-states: each CPU's stateK/disable bits */

	memset(s, 0, sizeof(*s));
	sched_feat_reset();
	sched_sysctl_reset();
	funclat_reset();
	if (cfg->preempt && set_preempt(cfg->preempt, err, errlen))
		return -1;
	if (cfg->funclatency && funclat_enable(cfg->funclatency, err, errlen))
		return -1;
	if (cfg->probe_overhead && !cfg->funclatency) {
		snprintf(err, errlen,
			 "--probe-overhead on needs --funclatency (the functions to probe)");
		return -1;
	}
	funclat_probe_overhead = cfg->probe_overhead;
	if (cfg->features && sched_feat_apply(cfg->features, err, errlen))
		return -1;
	for (int i = 0; i < cfg->nr_sysctls; i++)
		if (sched_sysctl_set(cfg->sysctls[i], err, errlen))
			return -1;
	s->bench = bench_parse(cfg->argc, cfg->argv, err, errlen);
	if (!s->bench)
		return -1;
	if (parse_also(s, cfg, err, errlen)) {
		free_benches(s);
		return -1;
	}
	s->topo = topology_load(cfg->machine, err, errlen);
	if (!s->topo) {
		free_benches(s);
		return -1;
	}
	if (bench_check_machine(s->bench, s->topo->name, err, errlen) ||
	    check_also(s, cfg, err, errlen)) {
		free_benches(s);
		topology_free(s->topo);
		return -1;
	}
	if (cfg->guest && topology_guest_option(s->topo, cfg->guest, err, errlen)) {
		free_benches(s);
		topology_free(s->topo);
		return -1;
	}
	s->cost = s->topo->cost;
	if (cfg->profile && cost_profile_apply(cfg->profile, &s->cost, err, errlen)) {
		free_benches(s);
		topology_free(s->topo);
		return -1;
	}
	for (int i = 0; i < cfg->nr_costs; i++) {
		if (cost_model_set(&s->cost, cfg->costs[i], err, errlen)) {
			free_benches(s);
			topology_free(s->topo);
			return -1;
		}
	}
	if (cfg->nr_idle_states) {
		idle_disable = xcalloc(s->topo->nr_cpus, sizeof(*idle_disable));
		for (int i = 0; i < cfg->nr_idle_states; i++) {
			if (cpuidle_ctl_apply(cfg->idle_states[i], s->topo, idle_disable, err,
					      errlen)) {
				free(idle_disable);
				free_benches(s);
				topology_free(s->topo);
				return -1;
			}
		}
	}

	/* debugfs x86/sched_itmt_enabled exists only once a driver found ITMT */
	if (sysctl_sched.sched_itmt_written && !s->topo->asym_packing.itmt) {
		snprintf(err, errlen,
			 "--sysctl sched_itmt_enabled: %s has no ITMT (its machine file's [asym_packing] does not say itmt = yes)",
			 s->topo->name);
		free(idle_disable);
		free_benches(s);
		topology_free(s->topo);
		return -1;
	}
	/*
	 * the platform's default governor, unless --cpufreq names another; a
	 * KVM guest has no cpufreq driver (the host picks the frequency, here
	 * the machine's highest) whatever its host's platform runs
	 */
	cpufreq_boot_setup = (struct cpufreq_setup){
		.governor = s->topo->guest.kvm ? CPUFREQ_GOV_PERFORMANCE : s->topo->cpufreq.governor
	};
	/* before the check: the dbs governors' least sampling_rate is two ticks */
	sysctl_sched.hz = cfg->hz ? cfg->hz : s->topo->hz;
	/* the machine's preemption model, below --preempt (its names are checked on loading) */
	if (!cfg->preempt && s->topo->preempt[0])
		(void)set_preempt(s->topo->preempt, err, errlen);
	/* the policy limits and governor tunables are checked with or without --cpufreq */
	if ((cfg->cpufreq && cpufreq_parse(cfg->cpufreq, &cpufreq_boot_setup, err, errlen)) ||
	    cpufreq_check(&cpufreq_boot_setup, s->topo, err, errlen)) {
		free(idle_disable);
		free_benches(s);
		topology_free(s->topo);
		return -1;
	}
	cpuidle_governor = CPUIDLE_GOV_DEFAULT;
	if (cfg->cpuidle) {
		int g = cpuidle_governor_parse(cfg->cpuidle, err, errlen);

		if (g < 0) {
			free(idle_disable);
			free_benches(s);
			topology_free(s->topo);
			return -1;
		}
		cpuidle_governor = (enum cpuidle_governor)g;
	}
	machine_init(s->topo, &s->cost, cfg->seed);
	machine.max_events = cfg->max_events ? cfg->max_events : SESSION_DEFAULT_MAX_EVENTS;
	sched_init(sched_tick_phase(cfg->seed));
	if (idle_disable) {
		cpuidle_ctl_install(idle_disable);
		free(idle_disable);
	}
	/* from the start, which the tick phase puts a little after 0 */
	machine.stop_at = machine.now +
			  (cfg->max_time_ns ? cfg->max_time_ns : SESSION_DEFAULT_MAX_TIME_NS);
	return 0;
}

int session_check(const struct session_config *cfg, char *err, size_t errlen)
{
	struct session s;

	if (session_start(&s, cfg, err, errlen))
		return -1;
	session_end(&s);
	return 0;
}

bool session_run(struct session *s, bool check)
{
	double wall0 = wall_now();

	/*
	 * The measured benchmark first: its first task has the pid it has
	 * alone. The background workloads start at the same instant, each
	 * its own work group, and the run ends with the measured one.
	 */
	bench_start(s->bench);
	for (int i = 0; i < s->nr_also; i++) {
		work_set_group(s->also[i]->group);
		bench_start(s->also[i]);
	}
	work_set_group(0);
	if (s->nr_also)
		work_end_with_group(0);
	sched_start();
	sim_run(check ? sched_check_invariants : NULL);
	s->wall_s = wall_now() - wall0;
	sched_account_end();
	/* an interrupted run stopped anywhere: its end state is not checked */
	if (check && !sim_interrupted)
		sched_check_final();
	s->finished = bench_finish(s->bench) && machine.limit_hit == SIM_LIMIT_NONE;
	return s->finished;
}

void session_limit_message(char *buf, size_t len)
{
	switch (machine.limit_hit) {
	case SIM_LIMIT_EVENTS:
		snprintf(buf, len,
			 "the run stopped at its event limit: %llu events by t=%llu ns (an event storm? --max-events raises it)",
			 (unsigned long long)machine.nr_events, (unsigned long long)machine.now);
		break;
	case SIM_LIMIT_TIME:
		snprintf(buf, len,
			 "the run stopped at its simulated-time limit, t=%llu ns (--max-time raises it)",
			 (unsigned long long)machine.stop_at);
		break;
	default:
		snprintf(buf, len, "the benchmark did not finish (all tasks blocked at t=%llu ns)",
			 (unsigned long long)machine.now);
	}
}

void session_failure(const struct session *s, struct session_failure *f)
{
	memset(f, 0, sizeof(*f));
	f->workload = -1;
	f->t_ns = machine.now;
	for (int i = -1; i < s->nr_also; i++) {
		const struct bench *b = i < 0 ? s->bench : s->also[i];

		if (!b || !b->failure)
			continue;
		f->workload = i + 1;
		f->command = i < 0 ? NULL : s->also_cmd[i];
		f->t_ns = b->failure_ns;
		snprintf(f->why, sizeof(f->why), "%s", b->failure);
		if (i < 0)
			snprintf(f->message, sizeof(f->message), "the benchmark failed at t=%llu ns: %s",
				 (unsigned long long)f->t_ns, f->why);
		else
			snprintf(f->message, sizeof(f->message),
				 "the background workload --also '%s' failed at t=%llu ns: %s; the run ends there, without a result",
				 f->command, (unsigned long long)f->t_ns, f->why);
		return;
	}
	if (bench_stuck_message(s->bench, f->why, sizeof(f->why))) {
		f->workload = 0;
	} else {
		session_limit_message(f->why, sizeof(f->why));
		if (machine.limit_hit == SIM_LIMIT_NONE)
			f->workload = 0;
		else if (machine.limit_hit == SIM_LIMIT_TIME)
			f->t_ns = machine.stop_at;
	}
	snprintf(f->message, sizeof(f->message), "%s", f->why);
}

void session_end(struct session *s)
{
	/* the event queue still points into runqueues and tasks: drop it first */
	machine_destroy();
	work_free_all();
	sched_exit();
	free_benches(s);
	topology_free(s->topo);
	memset(s, 0, sizeof(*s));
}
