// SPDX-License-Identifier: GPL-2.0-only
#include "cli/session.h"

#include "kernel/funclat.h"

#include <string.h>
#include <time.h>

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int session_start(struct session *s, const struct session_config *cfg, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	sched_feat_reset();
	sched_sysctl_reset();
	funclat_reset();
	if (cfg->preempt) {
		int m = -1;

		for (int i = 0; i < 4; i++)
			if (!strcmp(cfg->preempt, preempt_model_names[i]))
				m = i;
		if (m < 0) {
			snprintf(err, errlen, "--preempt: unknown model '%s' (none, voluntary, full, lazy)",
				 cfg->preempt);
			return -1;
		}
		sysctl_sched.preempt = m;
	}
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
	s->topo = topology_load(cfg->machine, err, errlen);
	if (!s->topo) {
		bench_free(s->bench);
		return -1;
	}
	if (bench_check_machine(s->bench, s->topo->name, err, errlen)) {
		bench_free(s->bench);
		topology_free(s->topo);
		return -1;
	}
	s->cost = s->topo->cost;
	for (int i = 0; i < cfg->nr_costs; i++) {
		if (cost_model_set(&s->cost, cfg->costs[i], err, errlen)) {
			bench_free(s->bench);
			topology_free(s->topo);
			return -1;
		}
	}

	sysctl_sched.hz = cfg->hz ? cfg->hz : s->topo->hz;
	machine_init(s->topo, &s->cost, cfg->seed);
	machine.max_events = cfg->max_events ? cfg->max_events : SESSION_DEFAULT_MAX_EVENTS;
	sched_init(sched_tick_phase(cfg->seed));
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

	bench_start(s->bench);
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

void session_end(struct session *s)
{
	/* the event queue still points into runqueues and tasks: drop it first */
	machine_destroy();
	work_free_all();
	sched_exit();
	bench_free(s->bench);
	topology_free(s->topo);
	memset(s, 0, sizeof(*s));
}
