// SPDX-License-Identifier: MIT
#include "report/run_json.h"

#include "kernel/sched.h"
#include "report/json.h"

static void write_sched(struct json_writer *w)
{
	u64 switches = 0, migrations = 0, ipi = 0, ttwu = 0, ttwu_local = 0, ticks = 0;
	unsigned int cpu;
	struct task_struct *p;

	for_each_possible_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		switches += rq->nr_switches;
		ipi += rq->ipi_sent;
		ttwu += rq->stat.ttwu_count;
		ttwu_local += rq->stat.ttwu_local;
		ticks += rq->nr_ticks;
	}
	list_for_each_entry(p, &sched_world.tasks, tasks)
		migrations += p->stats.nr_migrations;

	json_key(w, "sched");
	json_begin_object(w);
	json_kv_u64(w, "nr_switches", switches);
	json_kv_u64(w, "nr_migrations", migrations);
	json_kv_u64(w, "migration_digest", sched_world.migration_digest);
	json_kv_u64(w, "ipi_sent", ipi);
	json_kv_u64(w, "ttwu_count", ttwu);
	json_kv_u64(w, "ttwu_local", ttwu_local);
	json_kv_u64(w, "nr_ticks", ticks);
	json_kv_u64(w, "nr_forks", sched_world.nr_forks);
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
		json_kv_u64(w, "nr_switches", rq->nr_switches);
		json_kv_u64(w, "ttwu_count", rq->stat.ttwu_count);
		json_kv_u64(w, "ipi_sent", rq->ipi_sent);
		json_kv_u64(w, "ipi_received", rq->ipi_received);
		json_kv_u64(w, "run_delay_ns", rq->stat.run_delay);
		json_kv_u64(w, "rq_lock_spin_ns", rq->lock.spin_ns);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

int write_run_json(FILE *out, const struct run_info *ri, const struct bench *b)
{
	struct json_writer w;

	json_init(&w, out);
	json_begin_object(&w);

	json_key(&w, "machine");
	json_begin_object(&w);
	json_kv_str(&w, "name", ri->machine);
	json_kv_u64(&w, "cpus", machine.nr_cpus);
	json_kv_u64(&w, "hz", sysctl_sched.hz);
	json_end_object(&w);

	json_key(&w, "features");
	json_begin_object(&w);
	for (int i = 0; i < __SCHED_FEAT_NR; i++)
		json_kv_bool(&w, sched_feat_info[i].name, sysctl_sched_features[i]);
	json_end_object(&w);

	json_key(&w, "sysctl");
	json_begin_object(&w);
	json_kv_u64(&w, "base_slice_ns", sysctl_sched.base_slice_ns);
	json_kv_u64(&w, "migration_cost_ns", sysctl_sched.migration_cost_ns);
	json_kv_u64(&w, "nr_migrate", sysctl_sched.nr_migrate);
	json_end_object(&w);

	json_kv_u64(&w, "seed", ri->seed);

	json_key(&w, "benchmark");
	json_begin_object(&w);
	json_key(&w, "argv");
	json_begin_array(&w);
	for (int i = 0; i < ri->argc; i++)
		json_str(&w, ri->argv[i]);
	json_end_array(&w);
	json_end_object(&w);

	json_key(&w, "result");
	json_begin_object(&w);
	for (int i = 0; i < b->nr_metrics; i++)
		json_kv_double(&w, b->metrics[i].name, b->metrics[i].value);
	json_end_object(&w);

	write_sched(&w);

	json_key(&w, "sim");
	json_begin_object(&w);
	json_kv_u64(&w, "events", ri->events);
	json_kv_u64(&w, "sim_time_ns", ri->sim_time_ns);
	json_kv_double(&w, "wall_s", ri->wall_s);
	json_end_object(&w);

	json_end_object(&w);
	return json_finish(&w);
}
