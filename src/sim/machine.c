// SPDX-License-Identifier: GPL-2.0-only
#include "sim/machine.h"

#include "sim/alloc.h"
#include "sim/cache.h"
#include "sim/steal.h"
#include "sim/turbo.h"

#include <stdlib.h>
#include <string.h>

struct machine machine;

const char *const cpu_activity_names[NR_ACT] = { "idle", "user", "kernel", "irq",
						    "steal" };

/*
 * SMT sharing: the speed table by busy-thread count (the cost model's
 * smt_speed.K, up to the widest core) and each core's threads.
 */
static void smt_init(const struct topology *topo)
{
	unsigned int width = topo->smt_width ? topo->smt_width : 1;
	unsigned int n = 0;

	machine.smt_speed = xcalloc(width + 2, sizeof(*machine.smt_speed));
	machine.smt_inv = xcalloc(width + 2, sizeof(*machine.smt_inv));
	for (unsigned int k = 0; k < width + 2; k++) {
		unsigned int w = k < 1 ? 1 : k > width ? width : k;

		if (w > SMT_MAX_THREADS)
			w = SMT_MAX_THREADS;
		machine.smt_speed[k] = machine.cost->smt_speed[w - 1];
		/* a cost model built by hand with zeroes (tests) has no SMT slowdown */
		if (!machine.smt_speed[k])
			machine.smt_speed[k] = SMT_SPEED_FULL;
		if (machine.smt_speed[k] != SMT_SPEED_FULL)
			machine.smt_sharing = true;
		machine.smt_inv[k] = smt_reciprocal(machine.smt_speed[k]);
	}
	machine.core_cpus = xcalloc(topo->nr_cpus ? topo->nr_cpus : 1, sizeof(*machine.core_cpus));
	for (unsigned int k = 0; k < topo->nr_cores; k++) {
		struct sim_core *core = &machine.cores[k];
		unsigned int cpu;

		core->cpus = &machine.core_cpus[n];
		for_each_cpu(cpu, topo->core_mask[k])
			core->cpus[core->nr_threads++] = cpu;
		n += core->nr_threads;
	}
}

/* field @level of @k: 0 core, 1 cluster, 2 LLC, 3 (package, node) */
static u32 key_field(const struct cpu_dist_key *k, unsigned int level)
{
	switch (level) {
	case 0:
		return k->core;
	case 1:
		return k->cluster;
	case 2:
		return k->llc;
	default:
		return k->pkgnode;
	}
}

/*
 * Does every id of @level lie in one id of the level above? @up (0x10000
 * entries) maps each id seen to the one above it.
 */
static bool level_nests(unsigned int level, unsigned int nr, u32 *up)
{
	const struct cpu_dist_key *k = machine.dist_key;

	for (unsigned int i = 0; i < nr; i++)
		up[key_field(&k[i], level)] = UINT32_MAX;
	for (unsigned int i = 0; i < nr; i++) {
		u32 lo = key_field(&k[i], level), hi = key_field(&k[i], level + 1);

		if (up[lo] != UINT32_MAX && up[lo] != hi)
			return false;
		up[lo] = hi;
	}
	return true;
}

/*
 * cpu_dist()'s one-compare form: when cores nest in clusters, clusters in
 * LLCs and LLCs in (package, node) and every id fits 16 bits, two CPUs'
 * codes first differ in the field of the widest level they do not share.
 * Otherwise (an odd imported topology) cpu_dist() compares the keys.
 */
static void dist_codes_init(unsigned int nr)
{
	const struct cpu_dist_key *k = machine.dist_key;
	u32 *up;
	bool ok = true;

	for (unsigned int i = 0; i < nr && ok; i++)
		ok = k[i].core < 0x10000 && k[i].cluster < 0x10000 && k[i].llc < 0x10000 &&
		     k[i].pkgnode < 0x10000;
	if (!ok || !nr)
		return;
	up = xcalloc(0x10000, sizeof(*up));
	ok = level_nests(0, nr, up) && level_nests(1, nr, up) && level_nests(2, nr, up);
	free(up);
	if (!ok)
		return;
	machine.dist_code = xcalloc(nr, sizeof(*machine.dist_code));
	for (unsigned int i = 0; i < nr; i++)
		machine.dist_code[i] = (u64)k[i].pkgnode << 48 | (u64)k[i].llc << 32 |
				       (u64)k[i].cluster << 16 | k[i].core;
}

/* cpu_dist()'s keys: equal fields where topology_cpu_dist() finds them equal */
static void dist_keys_init(const struct topology *topo)
{
	machine.dist_key = xcalloc(topo->nr_cpus ? topo->nr_cpus : 1, sizeof(*machine.dist_key));
	for (unsigned int i = 0; i < topo->nr_cpus; i++) {
		const struct cpu_topo *c = &topo->cpus[i];
		struct cpu_dist_key *k = &machine.dist_key[i];

		k->core = c->core;
		/* without clusters, a CPU's "cluster" is its core: already DIST_SMT */
		k->cluster = topo->has_clusters ? c->cluster : c->core;
		k->llc = c->llc;
		k->pkgnode = c->package * (topo->nr_nodes ? topo->nr_nodes : 1) + c->node;
	}
	dist_codes_init(topo->nr_cpus);
}

void machine_init(const struct topology *topo, const struct cost_model *cost, u64 seed)
{
	memset(&machine, 0, sizeof(machine));
	memset(&coherence_stats, 0, sizeof(coherence_stats));
	machine.topo = topo;
	machine.cost = cost ? cost : &topo->cost;
	machine.nr_cpus = topo->nr_cpus;
	machine.seed = seed;
	machine.stop_at = UINT64_MAX;
	eq_init(&machine.eq);
	machine.cpus = xcalloc_aligned(topo->nr_cpus, sizeof(*machine.cpus),
				       _Alignof(struct sim_cpu));
	sim_set_this_cpu(0);
	machine.cores = xcalloc(topo->nr_cores ? topo->nr_cores : 1, sizeof(*machine.cores));
	smt_init(topo);
	dist_keys_init(topo);
	machine.line_mlp = machine.cost->line_mlp ? machine.cost->line_mlp : 1;
	machine.line_mlp_inv = smt_reciprocal(machine.line_mlp);
	for (unsigned int i = 0; i < topo->nr_cpus; i++) {
		struct sim_cpu *c = &machine.cpus[i];

		c->id = i;
		c->core = &machine.cores[topo->cpus[i].core];
		c->act = ACT_IDLE;
		/* the hardware's speed; the kernel's capacity is rq->cpu_capacity */
		c->capacity = topo->cpus[i].speed;
		c->max_freq_khz = topo->cpus[i].max_freq_khz;
		c->freq_khz = c->max_freq_khz;
		c->req_khz = c->max_freq_khz;
		c->freq_inv_ref_khz = c->max_freq_khz;
		c->opp = topo->cpus[i].nr_opps ? topo->cpus[i].nr_opps - 1 : 0;
		c->opp_time = xcalloc(topo->cpus[i].nr_opps ? topo->cpus[i].nr_opps : 1,
				      sizeof(u64));
		if (topo->nr_em)
			c->power_time =
				xcalloc((size_t)(1 + topo->nr_idle_states) *
						(topo->cpus[i].nr_opps ? topo->cpus[i].nr_opps : 1),
					sizeof(u64));
		/* idle, on a core with no thread busy: as the only busy thread */
		c->speed = machine.smt_speed[1];
		c->speed_inv = machine.smt_inv[1];
		c->smt_exact_below = smt_exact_below(c->speed_inv);
	}
	/* the turbo limit for every core active, before anything runs */
	sim_turbo_init();
	cache_init();
	sim_variation_init(&machine.variation, machine.cost->exec_variation_ppm, topo->nr_cpus,
			   seed);
	for (unsigned int i = 0; i < topo->nr_cpus; i++)
		machine.cpus[i].charge_ref_khz =
			machine.variation.half ? 0 : machine.cpus[i].max_freq_khz;
}

void charge_varied(u64 ns)
{
	sim_variation_advance(&machine.variation, machine.this_cpu,
			      &machine.this_sim->t, ns);
}

void machine_start_at(u64 t)
{
	machine.now = t;
	for (unsigned int i = 0; i < machine.nr_cpus; i++) {
		machine.cpus[i].t = t;
		machine.cpus[i].act_since = t;
		machine.cpus[i].freq_since = t;
		machine.cpus[i].pstate_since = t;
		if (machine.variation.half)
			machine.variation.cpu[i].mark = t;
	}
	sim_steal_start();
}

void machine_destroy(void)
{
	eq_destroy(&machine.eq);
	sim_steal_destroy();
	sim_turbo_destroy();
	cache_destroy();
	sim_variation_destroy(&machine.variation);
	for (unsigned int i = 0; machine.cpus && i < machine.nr_cpus; i++) {
		free(machine.cpus[i].opp_time);
		free(machine.cpus[i].power_time);
		free(machine.cpus[i].timers);
	}
	free(machine.cpus);
	machine.cpus = NULL;
	machine.this_sim = NULL;
	free(machine.cores);
	machine.cores = NULL;
	free(machine.core_cpus);
	machine.core_cpus = NULL;
	free(machine.smt_speed);
	machine.smt_speed = NULL;
	free(machine.smt_inv);
	machine.smt_inv = NULL;
	free(machine.dist_key);
	machine.dist_key = NULL;
	free(machine.dist_code);
	machine.dist_code = NULL;
}

void machine_account_until(u64 t)
{
	for (unsigned int i = 0; i < machine.nr_cpus; i++) {
		struct sim_cpu *c = &machine.cpus[i];
		u64 end = max(t, c->t);
		c->time_in[c->act] += end - c->act_since;
		c->act_since = end;
		if (t > c->freq_since) {
			c->opp_time[c->opp] += t - c->freq_since;
			c->freq_since = t;
		}
		sim_cpu_power_account(c, t);
	}
}

void sim_lock_init(struct sim_lock *l)
{
	memset(l, 0, sizeof(*l));
	cache_line_init(&l->line, 1);
}

void sim_lock_init_in_path(struct sim_lock *l)
{
	sim_lock_init(l);
	l->path_cost = true;
}

void sim_lock_acquire(struct sim_lock *l)
{
	struct sim_cpu *c = this_sim_cpu();
	const struct cost_model *cost = machine.cost;

	if (l->free_at == UINT64_MAX) {
		fprintf(stderr, "schedlab: BUG: CPU%u takes a lock that is still held (by CPU%d)\n",
			c->id, l->line.owner);
		abort();
	}
	if (l->free_at > c->t) {
		l->contended++;
		l->spin_ns += l->free_at - c->t;
		sim_cpu_set_cursor(c, l->free_at);
	}
	if (!l->path_cost)
		charge(cost->rq_lock);
	cl_write(&l->line);
	l->free_at = UINT64_MAX; /* held */
}

volatile sig_atomic_t sim_interrupted;

void sim_time_unrepresentable(u64 time)
{
	fprintf(stderr,
		"schedlab: simulated time cannot be represented: an event at t=%llu ns is before the clock at %llu ns (u64 overflow or a model bug)\n",
		(unsigned long long)time, (unsigned long long)machine.now);
	exit(3);
}

u64 sim_run(void (*after_event)(struct sim_event *ev))
{
	u64 n = 0;
	struct event_queue *q = &machine.eq;
	/*
	 * the events this run may take before machine.max_events (none can
	 * change either while it runs): one compare an event
	 */
	u64 budget = UINT64_MAX;

	if (machine.max_events)
		budget = machine.max_events > machine.nr_events ?
				 machine.max_events - machine.nr_events :
				 0;

	while (!machine.stop) {
		/* nothing left but background timers and the observer: done */
		if (q->nr == q->nr_background ||
		    (q->nr == q->nr_background + 1 && machine.observer &&
		     ev_queued(machine.observer)))
			break;
		if (unlikely(n >= budget)) {
			/* the time limit first, when both apply */
			if (eq_peek_time(q) > machine.stop_at)
				machine.limit_hit = SIM_LIMIT_TIME;
			else
				machine.limit_hit = SIM_LIMIT_EVENTS;
			break;
		}
		/* the queue is not empty (above): NULL is an event after stop_at */
		struct sim_event *ev = eq_pop_until(q, machine.stop_at);

		if (!ev) {
			machine.limit_hit = SIM_LIMIT_TIME;
			break;
		}
		machine.now = ev->time;
		ev->fn(ev);
		n++;
		if (after_event)
			after_event(ev);
		if (!(n & (PROGRESS_EVENTS - 1)) && machine.progress)
			machine.progress(machine.nr_events + n);
		if (sim_interrupted)
			break;
	}
	machine.nr_events += n;
	return n;
}
