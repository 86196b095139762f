// SPDX-License-Identifier: GPL-2.0-only
#include "report/run_json.h"
#include "topo/cost_profile.h"
#include "topo/machine_guest.h"

#include "kernel/cpufreq.h"
#include "kernel/cpufreq_governor.h"
#include "kernel/energy_model.h"
#include "kernel/sched.h"
#include "report/ftrace.h"
#include "report/json.h"
#include "report/lock_stat.h"
#include "report/sched_totals.h"
#include "report/version.h"
#include "sim/turbo.h"
#include "work/rtapp.h"
#include "work/stress.h"
#include "work/work.h"

#include <string.h>

/* one counter per idle type, summed over the CPUs' copies of a domain level */
static void kv_idle3(struct json_writer *w, const char *key, const u64 v[CPU_MAX_IDLE_TYPES])
{
	json_key(w, key);
	json_begin_object(w);
	json_kv_u64(w, "idle", v[CPU_IDLE]);
	json_kv_u64(w, "busy", v[CPU_NOT_IDLE]);
	json_kv_u64(w, "newidle", v[CPU_NEWLY_IDLE]);
	json_end_object(w);
}

#define LB_COUNTERS(X)                                                                        \
	X(lb_count) X(lb_balanced) X(lb_failed) X(lb_imbalance_load) X(lb_imbalance_util)  \
	X(lb_imbalance_task) X(lb_imbalance_misfit) X(lb_gained) X(lb_hot_gained)          \
	X(lb_nobusyq) X(lb_nobusyg)
#define ALB_COUNTERS(X) X(alb_count) X(alb_failed) X(alb_pushed) \
	X(ttwu_wake_remote) X(ttwu_move_affine) X(ttwu_move_balance)

/*
 * The schedstat load-balance counters of each domain level (the kernel keeps
 * one copy per CPU; these are their sums), by the idle type of the pass.
 */
static void write_domains(struct json_writer *w)
{
	json_key(w, "domains");
	json_begin_array(w);
	for (int level = 0;; level++) {
		struct {
#define X(f) u64 f[CPU_MAX_IDLE_TYPES];
			LB_COUNTERS(X)
#undef X
#define X(f) u64 f;
			ALB_COUNTERS(X)
#undef X
		} sum = { 0 };
		const char *name = NULL;
		unsigned int cpu, span = 0;

		for_each_possible_cpu(cpu) {
			struct sched_domain *sd;
			int l = 0;

			for_each_domain(cpu, sd) {
				if (l++ != level)
					continue;
				name = sd->name;
				span = sd->span_weight;
				for (int i = 0; i < CPU_MAX_IDLE_TYPES; i++) {
#define X(f) sum.f[i] += sd->f[i];
					LB_COUNTERS(X)
#undef X
				}
#define X(f) sum.f += sd->f;
				ALB_COUNTERS(X)
#undef X
			}
		}
		if (!name)
			break;
		json_begin_object(w);
		json_kv_u64(w, "level", (u64)level);
		json_kv_str(w, "name", name);
		json_kv_u64(w, "span_weight", span);
#define X(f) kv_idle3(w, #f, sum.f);
		LB_COUNTERS(X)
#undef X
#define X(f) json_kv_u64(w, #f, sum.f);
		ALB_COUNTERS(X)
#undef X
		json_end_object(w);
	}
	json_end_array(w);
}

static void write_sched(struct json_writer *w)
{
	struct sched_totals t;
	unsigned int cpu;

	sched_totals_collect(&t);
	json_key(w, "sched");
	json_begin_object(w);
	json_kv_u64(w, "nr_switches", t.nr_switches);
	json_kv_u64(w, "nr_migrations", t.nr_migrations);
	json_kv_u64(w, "migration_digest", sched_world.migration_digest);
	json_kv_u64(w, "ipi_sent", t.ipi_sent);
	json_kv_u64(w, "ttwu_count", t.ttwu_count);
	json_kv_u64(w, "ttwu_local", t.ttwu_local);
	json_kv_u64(w, "nr_ticks", t.nr_ticks);
	json_kv_u64(w, "nr_forks", sched_world.nr_forks);
	json_kv_u64(w, "ttwu_queued", t.ttwu_queued);
	json_kv_u64(w, "ttwu_direct", t.ttwu_direct);
	json_kv_u64(w, "wake_without_ipi", t.wake_without_ipi);
	json_key(w, "ipi_sent_by_kind");
	json_begin_object(w);
	json_kv_u64(w, "reschedule", t.ipi_resched);
	json_kv_u64(w, "call_function", t.ipi_call);
	json_end_object(w);
	json_kv_u64(w, "schedule_idle_fast", t.idle_fast);
	json_kv_u64(w, "schedule_idle_full_pick", t.idle_full_pick);
	json_kv_u64(w, "rt_push_ipis", cpu_rd(0)->rto_push->nr_ipis);
	json_key(w, "per_cpu");
	json_begin_array(w);
	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct sim_cpu *c = sim_cpu(cpu);

		json_begin_object(w);
		json_kv_u64(w, "cpu", cpu);
		json_kv_u64(w, "busy_ns", c->time_in[ACT_USER] + c->time_in[ACT_KERNEL] +
						  c->time_in[ACT_IRQ]);
		json_kv_u64(w, "user_ns", c->time_in[ACT_USER]);
		json_kv_u64(w, "kernel_ns", c->time_in[ACT_KERNEL]);
		json_kv_u64(w, "irq_ns", c->time_in[ACT_IRQ]);
		json_kv_u64(w, "idle_ns", c->time_in[ACT_IDLE]);
		/*
		 * a guest's: /proc/stat's steal column (in ns, not USER_HZ
		 * ticks) and the IRQ utilization it left in avg_irq
		 */
		if (machine.topo->guest.kvm)
			json_kv_u64(w, "steal_ns", c->time_in[ACT_STEAL]);
		/* IRQ time accounting: /proc/stat's irq and softirq columns, in ns */
		if (sysctl_sched.irqtime) {
			json_kv_u64(w, "irq_time_ns", rq->hardirq_time);
			json_kv_u64(w, "softirq_time_ns", rq->softirq_time);
		}
		if (machine.topo->guest.kvm || sysctl_sched.irqtime)
			json_kv_u64(w, "irq_util_avg", cpu_util_irq(rq));
		json_kv_u64(w, "nr_switches", rq->nr_switches);
		json_kv_u64(w, "ttwu_count", rq->stat.ttwu_count);
		json_kv_u64(w, "ipi_sent", rq->ipi_sent);
		json_kv_u64(w, "ipi_received", rq->ipi_received);
		json_kv_u64(w, "run_delay_ns", rq->stat.run_delay);
		json_kv_u64(w, "rq_lock_spin_ns", rq->lock.spin_ns);
		json_kv_u64(w, "ttwu_on_cpu_spin_ns", rq->ttwu_on_cpu_spin_ns);
		json_kv_u64(w, "ttwu_queued", rq->nr_ttwu_queued);
		json_kv_u64(w, "ttwu_direct", rq->nr_ttwu_direct);
		json_kv_u64(w, "wake_without_ipi", rq->nr_wake_without_ipi);
		json_kv_u64(w, "schedule_idle_full_pick", rq->nr_idle_full_pick);
		json_kv_u64(w, "rt_pushed", rq->rt.nr_pushed);
		json_kv_u64(w, "rt_pulled", rq->rt.nr_pulled);
		json_kv_u64(w, "dl_pushed", rq->dl.nr_pushed);
		json_kv_u64(w, "dl_pulled", rq->dl.nr_pulled);
		json_key(w, "fair_server");
		json_begin_object(w);
		json_kv_u64(w, "zero_laxity", rq->fair_server.nr_zero_laxity);
		json_kv_u64(w, "server_picks", rq->fair_server.nr_server_picks);
		json_kv_u64(w, "throttled", rq->fair_server.nr_throttled);
		json_end_object(w);
		json_key(w, "idle_states");
		json_begin_array(w);
		for (unsigned int i = 0; i < machine.topo->nr_idle_states; i++) {
			json_begin_object(w);
			json_kv_str(w, "name", machine.topo->idle_states[i].name);
			json_kv_u64(w, "usage", rq->idle_state_usage[i]);
			json_kv_u64(w, "time_ns", rq->idle_state_time[i]);
			/* only where --idle-states disabled it, as stateK/disable reads 1 */
			if (rq->idle_state_disable & (1U << i))
				json_kv_bool(w, "disabled", true);
			json_end_object(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_array(w);
	write_domains(w);
	json_end_object(w);
}

static void kv_stats(struct json_writer *w, const char *key, const struct perf_stats *st,
		     double scale)
{
	double sd = perf_stats_stddev(st);

	json_key(w, key);
	json_begin_object(w);
	json_kv_double(w, "mean", st->mean * scale);
	json_kv_double(w, "stddev_mean", sd * scale);
	json_kv_double(w, "pct", perf_stats_rel(sd, st->mean));
	json_end_object(w);
}

/* perf stat's summary: what its output shows, and each run's elapsed time */
static void write_perf_stat(struct json_writer *w, const struct run_info *ri)
{
	const struct perf_stat_summary *s = ri->perf_stat;

	json_key(w, "perf_stat");
	json_begin_object(w);
	json_key(w, "argv");
	json_begin_array(w);
	for (int i = 0; i < ri->argc_given; i++)
		json_str(w, ri->argv_given[i]);
	json_end_array(w);
	json_kv_u64(w, "runs", (u64)s->runs);
	json_kv_u64(w, "first_seed", ri->base_seed);
	json_kv_bool(w, "null", s->null_run);
	kv_stats(w, "elapsed_s", &s->walltime_ns, 1e-9);
	if (!s->null_run) {
		kv_stats(w, "task_clock_ms", &s->task_clock_ns, 1e-6);
		kv_stats(w, "context_switches", &s->context_switches, 1);
		kv_stats(w, "cpu_migrations", &s->cpu_migrations, 1);
	}
	json_key(w, "elapsed_ns_per_run");
	json_begin_array(w);
	for (int i = 0; i < s->runs; i++)
		json_u64(w, s->walltime_run[i]);
	json_end_array(w);
	/* -e, -a, -C or -x: the counter lines as printed, in their order and units */
	if (s->config && !s->null_run) {
		json_kv_bool(w, "system_wide", s->config->system_wide);
		json_kv_str(w, "cpus", s->config->cpu_list);
		json_key(w, "events");
		json_begin_array(w);
		for (int i = 0; i < s->config->nr_events; i++) {
			const struct perf_stat_event *ev = &s->config->events[i];
			bool clock = ev->id == PERF_EV_TASK_CLOCK || ev->id == PERF_EV_CPU_CLOCK;
			double sd = perf_stats_stddev(&s->val[i]);

			json_begin_object(w);
			json_kv_str(w, "event", ev->name);
			json_kv_bool(w, "supported", ev->id != PERF_EV_NOT_SUPPORTED);
			json_kv_str(w, "unit", clock ? "msec" : "");
			json_kv_double(w, "mean", s->val[i].mean * (clock ? 1e-6 : 1));
			json_kv_double(w, "stddev_mean", sd * (clock ? 1e-6 : 1));
			json_kv_double(w, "pct", perf_stats_rel(sd, s->val[i].mean));
			json_end_object(w);
		}
		json_end_array(w);
	}
	json_end_object(w);
}

/* what one workload's tasks (work group @group) got, as /proc/PID/stat and schedstat count */
struct group_totals {
	u64 tasks, alive, cpu_ns, user_ns, nr_switches, nr_migrations;
};

static void group_totals(int group, struct group_totals *g)
{
	struct task_struct *p;

	memset(g, 0, sizeof(*g));
	/* each task, and the released tasks it carries (children are in their parent's group) */
	list_for_each_entry(p, &sched_world.tasks, tasks) {
		if (work_task_group(p) != group)
			continue;
		g->tasks += 1 + p->cumul.nr_tasks;
		if (p->__state != TASK_DEAD)
			g->alive++;
		g->cpu_ns += p->se.sum_exec_runtime + p->cumul.sum_exec_runtime;
		g->user_ns += p->utime + p->cumul.utime;
		g->nr_switches += p->stats.nr_switches + p->cumul.nr_switches;
		g->nr_migrations += p->stats.nr_migrations + p->cumul.nr_migrations;
	}
}

static void kv_group_totals(struct json_writer *w, int group)
{
	struct group_totals g;

	group_totals(group, &g);
	json_kv_u64(w, "tasks", g.tasks);
	json_kv_u64(w, "alive_at_end", g.alive);
	json_kv_u64(w, "cpu_time_ns", g.cpu_ns);
	json_kv_u64(w, "user_ns", g.user_ns);
	json_kv_u64(w, "nr_switches", g.nr_switches);
	json_kv_u64(w, "nr_migrations", g.nr_migrations);
}

/* "policy": what chrt or nice prefixes gave every task of @b, if any */
static void kv_policy(struct json_writer *w, const struct bench *b)
{
	struct sched_attr attr;
	char policy[96];

	if (!bench_sched_attr(b, &attr))
		return;
	bench_sched_attr_str(&attr, policy, sizeof(policy));
	json_kv_str(w, "policy", policy);
}

/* the background workloads: their command lines and their tasks' share */
static void write_also(struct json_writer *w, const struct run_info *ri)
{
	json_key(w, "also");
	json_begin_array(w);
	for (int i = 0; i < ri->nr_also; i++) {
		const struct bench *b = ri->also[i];

		json_begin_object(w);
		json_kv_str(w, "command", ri->also_cmd[i]);
		if (b->taskset_str)
			json_kv_str(w, "taskset", b->taskset_str);
		kv_policy(w, b);
		kv_group_totals(w, (int)b->group);
		json_end_object(w);
	}
	json_end_array(w);
}

/* rt-app: each thread's loops, as the summary prints them */
/* stress-ng: every stressor's row of the metrics table, and its own metric */
static void write_stress(struct json_writer *w, const struct bench *b)
{
	const struct stress_conf *c = b->stress;

	json_key(w, "stress");
	json_begin_object(w);
	json_key(w, "stressors");
	json_begin_array(w);
	for (unsigned int i = 0; i < c->nr; i++) {
		const struct stressor *s = &c->s[i];
		double real = (double)s->real_ns / 1e9, cpu = (double)(s->utime_ns + s->stime_ns) / 1e9;

		json_begin_object(w);
		json_kv_str(w, "name", stressor_names[s->kind]);
		json_kv_u64(w, "instances", s->nr);
		json_kv_u64(w, "bogo_ops", s->bogo_ops);
		json_kv_double(w, "real_s", real);
		json_kv_double(w, "usr_s", (double)s->utime_ns / 1e9);
		json_kv_double(w, "sys_s", (double)s->stime_ns / 1e9);
		json_kv_double(w, "bogo_ops_per_s_real", real > 0 ? (double)s->bogo_ops / real : 0);
		json_kv_double(w, "bogo_ops_per_s_cpu", cpu > 0 ? (double)s->bogo_ops / cpu : 0);
		json_kv_str(w, "metric", stress_metric_name(s->kind));
		if (stress_metric_name(s->kind))
			json_kv_double(w, "metric_value", s->metric);
		else
			json_kv_str(w, "metric_value", NULL);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

static void write_rtapp(struct json_writer *w, const struct bench *b)
{
	const struct rtapp_result *r = rtapp_result(b);

	if (!r)
		return;
	json_key(w, "rtapp");
	json_begin_object(w);
	json_kv_u64(w, "p_load_ns", (u64)r->p_load);
	json_key(w, "threads");
	json_begin_array(w);
	for (unsigned int i = 0; i < r->nr_threads; i++) {
		const struct rtapp_thread_stats *s = &r->threads[i];
		double n = s->loops ? (double)s->loops : 1;
		double tl = s->timer_loops ? (double)s->timer_loops : 1;

		json_begin_object(w);
		json_kv_str(w, "name", s->name);
		json_kv_str(w, "policy", s->policy);
		json_kv_s64(w, "priority", s->prio);
		json_kv_u64(w, "loops", s->loops);
		json_kv_u64(w, "perf", s->perf);
		json_kv_double(w, "run_mean_us", (double)s->run_us / n);
		json_kv_double(w, "period_mean_us", (double)s->period_us / n);
		json_kv_double(w, "util_pct",
			       s->period_us ? 100.0 * (double)s->run_us / (double)s->period_us : 0);
		json_kv_u64(w, "timer_loops", s->timer_loops);
		json_kv_s64(w, "slack_min_us", s->slack_min);
		json_kv_double(w, "slack_mean_us", (double)s->slack_sum / tl);
		json_kv_u64(w, "missed", s->missed);
		json_kv_double(w, "wu_lat_mean_us", (double)s->wu_sum / tl);
		json_kv_u64(w, "wu_lat_max_us", s->wu_max);
		json_kv_str(w, "cancelled_in", s->cancelled_in);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

/*
 * "turbo": the turbo limit by active cores of each package (sim/turbo.h),
 * on a machine with turbo tables: the limit at the end and how often the
 * power control unit changed it.
 */
static void write_turbo(struct json_writer *w)
{
	if (!sim_turbo_nr_domains())
		return;
	json_key(w, "turbo");
	json_begin_array(w);
	for (unsigned int i = 0; i < sim_turbo_nr_domains(); i++) {
		const struct sim_turbo_domain *d = sim_turbo_domain(i);

		json_begin_object(w);
		json_kv_u64(w, "package", d->package);
		json_kv_u64(w, "cores", d->nr_cores);
		json_kv_u64(w, "active_cores", d->nr_active);
		json_kv_u64(w, "limit_khz", d->limit_khz);
		json_kv_u64(w, "limit_changes", d->nr_changes);
		json_end_object(w);
	}
	json_end_array(w);
}

/*
 * "cpufreq": only when --cpufreq or a policy limit was given (the
 * default, performance, keeps every CPU at its maximum and the document
 * as it was): the
 * governor, the policies, and per CPU the time at each frequency and the
 * number of frequency changes (docs/json-schema.md).
 */
static void write_cpufreq(struct json_writer *w)
{
	const struct cpufreq_setup *setup = cpufreq_current_setup();
	const struct topology *t = machine.topo;

	json_key(w, "cpufreq");
	json_begin_object(w);
	json_kv_str(w, "governor", cpufreq_governor_names[setup->governor]);
	if (setup->governor == CPUFREQ_GOV_USERSPACE)
		json_kv_u64(w, "setspeed_khz", setup->setspeed_khz);
	json_kv_str(w, "driver", t->cpufreq.driver[0] ? t->cpufreq.driver : "unknown");
	json_kv_u64(w, "transition_latency_ns", t->cpufreq.transition_latency_ns);
	if (dbs_governor(setup->governor)) {
		bool od = setup->governor == CPUFREQ_GOV_ONDEMAND;

		/* the tunables in force (cpufreq/<governor>/NAME) */
		json_key(w, "tunables");
		json_begin_object(w);
		json_kv_u64(w, "sampling_rate", gov_dbs_data.sampling_rate);
		json_kv_u64(w, "up_threshold", gov_dbs_data.up_threshold);
		json_kv_u64(w, "sampling_down_factor", gov_dbs_data.sampling_down_factor);
		json_kv_u64(w, "ignore_nice_load", gov_dbs_data.ignore_nice_load);
		if (od) {
			json_kv_u64(w, "io_is_busy", gov_dbs_data.io_is_busy);
			json_kv_u64(w, "powersave_bias", gov_dbs_data.powersave_bias);
		} else {
			json_kv_u64(w, "freq_step", gov_dbs_data.freq_step);
			json_kv_u64(w, "down_threshold", gov_dbs_data.down_threshold);
		}
		json_end_object(w);
	}
	json_key(w, "policies");
	json_begin_array(w);
	for (unsigned int i = 0; i < nr_cpufreq_policies; i++) {
		const struct cpufreq_policy *p = &cpufreq_policies[i];

		json_begin_object(w);
		json_key(w, "cpus");
		json_begin_array(w);
		for (unsigned int k = 0; k < p->nr_cpus; k++)
			json_u64(w, p->cpus[k]);
		json_end_array(w);
		if (setup->governor == CPUFREQ_GOV_SCHEDUTIL)
			json_kv_u64(w, "rate_limit_us",
				    (u64)p->sg.freq_update_delay_ns / NSEC_PER_USEC);
		/* the policy limits, when --sysctl set one */
		if (sysctl_written(scaling_min_freq) || sysctl_written(scaling_max_freq)) {
			json_kv_u64(w, "scaling_min_freq", p->min);
			json_kv_u64(w, "scaling_max_freq", p->max);
		}
		if (dbs_governor(setup->governor))
			json_kv_u64(w, "samples",
				    ((const struct policy_dbs_info *)p->governor_data)->nr_samples);
		json_kv_u64(w, "requests", p->nr_requests);
		json_end_object(w);
	}
	json_end_array(w);
	write_turbo(w);
	json_key(w, "per_cpu");
	json_begin_array(w);
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		const struct sim_cpu *c = sim_cpu(cpu);
		const struct cpu_topo *ct = &t->cpus[cpu];
		unsigned __int128 khz_ns = 0;
		u64 total = 0;

		json_begin_object(w);
		json_kv_u64(w, "cpu", cpu);
		json_key(w, "residency_ns");
		json_begin_object(w);
		for (unsigned int k = 0; k < ct->nr_opps; k++) {
			char name[16];

			if (!c->opp_time[k])
				continue;
			snprintf(name, sizeof(name), "%u", ct->opp_khz[k]);
			json_kv_u64(w, name, c->opp_time[k]);
			khz_ns += (unsigned __int128)c->opp_time[k] * ct->opp_khz[k];
			total += c->opp_time[k];
		}
		json_end_object(w);
		json_kv_u64(w, "mean_khz", total ? (u64)(khz_ns / total) : c->freq_khz);
		json_kv_u64(w, "transitions", c->nr_freq_transitions);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

/*
 * The energy part (docs/energy.md): each CPU's busy time at each OPP times
 * the model's busy power there, and its time in each idle state at each
 * OPP times that state's power (0 where the model gives none). ns x uW is
 * 1e-15 J.
 */
static void write_energy(struct json_writer *w)
{
	const struct topology *t = machine.topo;
	struct energy_totals e;
	unsigned int idle_given = ~0u;

	for (unsigned int k = 0; k < t->nr_em; k++)
		idle_given &= t->em[k].idle_given;
	json_key(w, "energy");
	json_begin_object(w);
	json_kv_str(w, "source",
		    t->em_source[0] ? t->em_source : "the machine file's energy model");
	json_kv_bool(w, "eas", sched_energy_enabled());
	json_kv_str(w, "idle_power",
		    (idle_given & ((1u << t->nr_idle_states) - 1)) ==
				    (1u << t->nr_idle_states) - 1 ?
			    "per idle state and OPP, from the model" :
			    "0 in the states the model gives no figure for");
	json_key(w, "per_cpu");
	json_begin_array(w);
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		unsigned __int128 busy_fj, idle_fj;
		u64 ns;

		sim_cpu_energy(cpu, &busy_fj, &idle_fj, &ns);
		json_begin_object(w);
		json_kv_u64(w, "cpu", cpu);
		json_kv_double(w, "busy_j", (double)busy_fj / 1e15);
		json_kv_double(w, "idle_j", (double)idle_fj / 1e15);
		json_kv_double(w, "energy_j", (double)(busy_fj + idle_fj) / 1e15);
		json_kv_double(w, "mean_mw",
			       ns ? (double)(busy_fj + idle_fj) / (double)ns / 1e3 : 0);
		json_end_object(w);
	}
	json_end_array(w);
	energy_totals_collect(&e);
	json_kv_double(w, "total_j", energy_totals_j(&e));
	json_kv_double(w, "mean_mw", energy_totals_mean_mw(&e));
	json_end_object(w);
}

/*
 * A guest on a machine with an energy model: the guest kernel has none
 * (em_init()), and the machine's idle-state powers are the host's C-states,
 * not the guest's HLT or poll, so no figure stands for the run's energy.
 */
static void write_guest_energy(struct json_writer *w)
{
	json_key(w, "energy");
	json_begin_object(w);
	json_kv_str(w, "source", NULL);
	json_kv_str(w, "reason",
		    "a KVM guest has no energy model: its platform describes none of the host's "
		    "power, and the host's C-states under the guest's idle are not known");
	json_kv_bool(w, "eas", false);
	json_end_object(w);
}

/*
 * "guest": what the machine ran as (its [guest] section or --guest, in
 * --guest's words), the option as given, and the steal time each CPU had
 * (docs/guests.md).
 */
static void write_guest(struct json_writer *w, const struct run_info *ri)
{
	const struct topology *t = machine.topo;
	char spec[128];

	guest_format(&t->guest, spec, sizeof(spec));
	json_key(w, "guest");
	json_begin_object(w);
	json_kv_str(w, "kind", spec);
	json_kv_str(w, "option", ri->guest);
	json_kv_str(w, "source", t->guest.source[0] ? t->guest.source : NULL);
	json_end_object(w);
}

int write_run_json(FILE *out, const struct run_info *ri, const struct bench *b)
{
	struct json_writer w;

	json_init(&w, out);
	json_begin_object(&w);
	json_kv_schedlab(&w);

	json_key(&w, "machine");
	json_begin_object(&w);
	json_kv_str(&w, "name", ri->machine);
	json_kv_u64(&w, "cpus", machine.nr_cpus);
	json_kv_u64(&w, "hz", sysctl_sched.hz);
	json_kv_str(&w, "preempt", preempt_model_names[sysctl_sched.preempt]);
	if (ri->profile) {
		const struct cost_profile *p = ri->profile;

		json_key(&w, "cost_profile");
		json_begin_object(&w);
		json_kv_str(&w, "path", p->path);
		json_kv_str(&w, "fnv1a64", p->hash);
		json_kv_str(&w, "date", p->date[0] ? p->date : NULL);
		json_kv_str(&w, "cpu", p->cpu[0] ? p->cpu : NULL);
		json_kv_str(&w, "virtualization", p->virt[0] ? p->virt : NULL);
		json_kv_bool(&w, "busy", p->busy);
		json_end_object(&w);
	}
	if (machine.topo->guest.kvm || ri->guest)
		write_guest(&w, ri);
	json_end_object(&w);

	json_key(&w, "features");
	json_begin_object(&w);
	for (int i = 0; i < __SCHED_FEAT_NR; i++)
		if (!sched_feat_info[i].missing)
			json_kv_bool(&w, sched_feat_info[i].name, sysctl_sched_features[i]);
	json_end_object(&w);

	json_key(&w, "sysctl");
	json_begin_object(&w);
	json_kv_u64(&w, "base_slice_ns", sysctl_sched.base_slice_ns);
	json_kv_u64(&w, "normalized_base_slice_ns", sysctl_sched.normalized_base_slice_ns);
	json_kv_u64(&w, "tunable_scaling", sysctl_sched.tunable_scaling);
	json_kv_u64(&w, "migration_cost_ns", sysctl_sched.migration_cost_ns);
	json_kv_u64(&w, "nr_migrate", sysctl_sched.nr_migrate);
	json_kv_u64(&w, "sched_idle_balance_limit_ns", sysctl_sched.sched_idle_balance_limit_ns);
	json_kv_u64(&w, "latency_warn_ms", sysctl_sched.latency_warn_ms);
	json_kv_u64(&w, "latency_warn_once", sysctl_sched.latency_warn_once);
	json_kv_u64(&w, "fair_server_runtime_ns", sysctl_sched.fair_server_runtime_ns);
	json_kv_u64(&w, "fair_server_period_ns", sysctl_sched.fair_server_period_ns);
	/* only when on: the kernels the presets stand for do not have it */
	if (sysctl_sched.irqtime)
		json_kv_u64(&w, "irqtime", sysctl_sched.irqtime);
	/* x86 ITMT machines only, where --sysctl takes it */
	if (machine.topo->asym_packing.itmt)
		json_kv_u64(&w, "sched_itmt_enabled", sysctl_sched.sched_itmt_enabled);
	json_end_object(&w);

	json_kv_u64(&w, "seed", ri->seed);

	json_key(&w, "benchmark");
	json_begin_object(&w);
	json_key(&w, "argv");
	json_begin_array(&w);
	for (int i = 0; i < ri->argc; i++)
		json_str(&w, ri->argv[i]);
	json_end_array(&w);
	/* the affinity a taskset prefix gave every task, as a CPU list */
	if (b->taskset_str)
		json_kv_str(&w, "taskset", b->taskset_str);
	/* the policy chrt or nice prefixes gave every task ("SCHED_FIFO 50") */
	kv_policy(&w, b);
	/* beside background workloads: what the measured one's own tasks got */
	if (ri->nr_also)
		kv_group_totals(&w, 0);
	json_end_object(&w);
	if (ri->nr_also)
		write_also(&w, ri);

	/* a run that did not finish: which workload, why, when */
	if (ri->fail_why) {
		json_key(&w, "failure");
		json_begin_object(&w);
		json_kv_str(&w, "workload", ri->fail_workload < 0 ? NULL :
					    ri->fail_workload ? "also" : "benchmark");
		if (ri->fail_workload > 0) {
			json_kv_u64(&w, "also_index", (u64)ri->fail_workload - 1);
			json_kv_str(&w, "command", ri->also_cmd[ri->fail_workload - 1]);
		}
		json_kv_u64(&w, "t_ns", ri->fail_ns);
		json_kv_str(&w, "message", ri->fail_why);
		json_end_object(&w);
	}

	json_key(&w, "result");
	json_begin_object(&w);
	for (int i = 0; i < b->nr_metrics; i++)
		json_kv_double(&w, b->metrics[i].name, b->metrics[i].value);
	json_end_object(&w);

	if (b->kind == BENCH_RTAPP)
		write_rtapp(&w, b);
	if (b->kind == BENCH_STRESS_NG)
		write_stress(&w, b);

	write_sched(&w);

	json_key(&w, "sim");
	json_begin_object(&w);
	json_kv_u64(&w, "events", ri->events);
	json_kv_u64(&w, "sim_time_ns", ri->sim_time_ns);
	json_kv_double(&w, "wall_s", ri->wall_s);
	json_key(&w, "memory");
	json_begin_object(&w);
	json_kv_u64(&w, "line_transfers", coherence_stats.transfers);
	json_kv_u64(&w, "llc_hits", coherence_stats.llc_hits);
	json_kv_u64(&w, "memory_reads", coherence_stats.mem_reads);
	json_kv_u64(&w, "stall_ns", coherence_stats.stall_ns);
	json_kv_u64(&w, "transfers_queued", coherence_stats.queued);
	json_kv_u64(&w, "queued_ns", coherence_stats.queued_ns);
	json_end_object(&w);
	json_end_object(&w);

	/* a policy limit, or turbo by active cores, changes the clock under the default governor too */
	if (cpufreq_governed() || sysctl_written(scaling_min_freq) ||
	    sysctl_written(scaling_max_freq) || sim_turbo_nr_domains()) {
		write_cpufreq(&w);
		/* under a governor, the machine's energy figures if it has a model */
		if (energy_reported())
			write_energy(&w);
		else if (machine.topo->nr_em && machine.topo->guest.kvm)
			write_guest_energy(&w);
	}

	if (ri->perf_stat)
		write_perf_stat(&w, ri);

	if (ri->trace) {
		json_key(&w, "trace");
		json_begin_object(&w);
		json_kv_str(&w, "file", ri->trace);
		json_key(&w, "lines");
		json_begin_object(&w);
		for (unsigned int ev = 0; ev < NR_TRACE_EVENTS; ev++)
			json_kv_u64(&w, ftrace_event_name(ev), ftrace_count(ev));
		json_end_object(&w);
		json_end_object(&w);
	}

	/* the sleeping locks, when the workload took any (docs/locking.md) */
	if (lock_stat_any())
		lock_stat_json(&w);

	json_end_object(&w);
	return json_finish(&w);
}
