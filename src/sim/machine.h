/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated machine: the clock, the event queue, and each CPU's
 * activity and time cursor.
 *
 * Kernel paths are ordinary C functions run at an event instant on one CPU
 * (machine.this_cpu). While a path runs, the CPU's cursor (cpu->t) advances
 * by every cost it charges; effects on other CPUs are events stamped from the
 * cursor. So the cursor is "now" for the code running on that CPU, and the
 * CPU's next step happens when its cursor says.
 */
#ifndef SCHEDLAB_SIM_MACHINE_H
#define SCHEDLAB_SIM_MACHINE_H

#include "sim/coherence.h"
#include "sim/cost.h"
#include "sim/event.h"
#include "sim/prng.h"
#include "sim/variation.h"
#include "topo/topology.h"

#include <signal.h>
#include <string.h>

struct hrtimer;
struct sim_steal;
struct sim_turbo_domain;

enum cpu_activity {
	ACT_IDLE,	/* idle task running, CPU waiting for work */
	ACT_USER,	/* a task runs user code */
	ACT_KERNEL,	/* syscall, scheduler, softirq */
	ACT_IRQ,	/* interrupt handler: tick, IPI, timer */
	ACT_STEAL,	/* a vCPU descheduled by its host (sim/steal.h): busy, no progress */
	NR_ACT,
};

extern const char *const cpu_activity_names[NR_ACT];

/*
 * A core's hardware threads share its throughput (SMT): while nr_busy of
 * them are not idle, each runs at speed[nr_busy] permille of a lone thread.
 */
struct sim_core {
	unsigned int nr_busy;		/* threads not in ACT_IDLE */
	unsigned int nr_threads;
	unsigned int *cpus;		/* [nr_threads], in machine.core_cpus */
	/* turbo by active cores (sim/turbo.h): its domain, NULL: none */
	struct sim_turbo_domain *turbo;
	unsigned int nr_deep;		/* threads in a deep idle state: all of them, inactive */
};

/*
 * What topology_cpu_dist() compares, per CPU and packed: distances are
 * asked on every cache-line miss, and struct cpu_topo is large.
 */
struct cpu_dist_key {
	u32 core;
	u32 cluster;			/* the core's own when the topology has no clusters */
	u32 llc;
	u32 pkgnode;			/* package and NUMA node */
};

struct sim_cpu {
	/*
	 * The fields every step and every charge() read come first, in one
	 * host cache line (the array is line-aligned): a step of a CPU
	 * that did not run recently starts with host cache misses, and one
	 * line misses once (docs/performance.md).
	 */
	u64 t;				/* this CPU's time cursor */
	enum cpu_activity act;
	unsigned int pending_irqs;	/* interrupts raised while the CPU was in a kernel path */
	/*
	 * sim_cpu_speed(), kept up to date when its core's busy count
	 * changes (sim_core_busy_changed()), and its reciprocal for
	 * smt_scale() (machine.smt_inv).
	 */
	u64 speed;
	u64 speed_inv;
	unsigned int freq_khz;		/* current frequency */
	unsigned int max_freq_khz;
	/*
	 * What charge() compares freq_khz with to take its slow path:
	 * max_freq_khz, or 0 (never equal) when the execution time varies,
	 * so that the common case stays one comparison per charge
	 */
	unsigned int charge_ref_khz;
	/*
	 * smt_scale_inv()'s multiply by speed_inv is exact for every n below
	 * this: 2^32 - 1, or 0 for a speed of 1 permille, whose reciprocal
	 * does not fit (smt_exact_below())
	 */
	unsigned int smt_exact_below;
	struct sim_event *step_ev;	/* the next step: end of a kernel path or of user work */
	struct sim_event *tick_ev; /* the periodic tick (the kernel's tick_sched_timer) */
	struct sim_core *core;
	u64 act_since;			/* cursor value when act began */

	unsigned int id;
	/*
	 * What the OS last requested (the performance-control register);
	 * freq_khz is that within the turbo limit (sim/turbo.h)
	 */
	unsigned int req_khz;
	/*
	 * The frequency arch_scale_freq_capacity() scales against: the
	 * maximum, or with a turbo table the 4-core turbo frequency
	 * intel_set_max_freq_ratio() reads
	 */
	unsigned int freq_inv_ref_khz;
	bool deep;			/* in an idle state that stops its core's clocks */
	u64 time_in[NR_ACT];		/* accounted time per activity */
	unsigned long capacity;		/* from the topology */
	/* frequency residency (sim_cpu_set_freq()): since when at which OPP */
	unsigned int opp;		/* index of freq_khz in the topology's opp_khz[] */
	u64 freq_since;
	u64 *opp_time;			/* [nr_opps]: time spent at each OPP */
	u64 nr_freq_transitions;
	/*
	 * Energy (sim_cpu_power_state()), only on a machine with an energy
	 * model: the time in each power state at each OPP, row 0 busy (not in
	 * an idle state), row 1 + K idle state K; NULL otherwise.
	 */
	u64 *power_time;		/* [(1 + nr_idle_states) * nr_opps] */
	unsigned int pstate;		/* the current row */
	u64 pstate_since;

	/* the step machine (sim/cpu.c) */
	struct hrtimer *expired_timers;	/* expired while the CPU was busy, run at irq time */
	u64 user_start;			/* when the user work in progress (re)started */
	u64 user_work;			/* its full-speed work left at user_seg */
	u64 user_seg;			/* start of its current stretch at one SMT speed */
	u64 user_speed;			/* that speed (permille) */
	u64 tick_fired;			/* when the tick timer last expired */
	/*
	 * The hrtimers armed on this CPU, a binary min-heap on expiry: its
	 * clock event device's next event without a walk over the global
	 * queue (tick_nohz_get_sleep_length(), sim/cpu.h hrtimer_next_expiry())
	 */
	struct hrtimer **timers;
	unsigned int nr_timers;
	unsigned int timers_cap;
} __attribute__((aligned(64)));

/*
 * A lock modelled as a resource that is "free at" a time: taking it before
 * then spins until free_at and the spin is charged to the taker.
 */
struct sim_lock {
	u64 free_at;
	struct cache_line line;		/* the lock word and the data beside it */
	bool path_cost;			/* uncontended acquire is in the path's own cost */
	u64 contended;			/* acquisitions that had to spin */
	u64 spin_ns;			/* total spin time */
};

/* A run stopped by a limit instead of by its workload (docs/reliability.md). */
enum sim_limit {
	SIM_LIMIT_NONE,
	SIM_LIMIT_EVENTS,		/* machine.max_events events processed */
	SIM_LIMIT_TIME,			/* the next event is past machine.stop_at */
};

struct machine {
	const struct topology *topo;
	const struct cost_model *cost;	/* == &topo->cost unless overridden */
	struct event_queue eq;
	u64 now;			/* time of the event being processed */
	u64 nr_events;
	struct sim_cpu *cpus;
	unsigned int nr_cpus;
	struct cpu_dist_key *dist_key;	/* [nr_cpus], for cpu_dist() */
	/*
	 * [nr_cpus] or NULL: pkgnode, llc, cluster and core ids packed 16
	 * bits each, highest first, when each level nests in the next
	 * (machine.c): the highest differing bit of two CPUs' codes is then
	 * their distance.
	 */
	u64 *dist_code;
	u64 line_mlp;			/* cost->line_mlp, at least 1 */
	u64 line_mlp_inv;		/* smt_reciprocal(line_mlp) */
	struct sim_core *cores;		/* [topo->nr_cores] */
	unsigned int *core_cpus;	/* [nr_cpus]: the cores' CPUs, core by core */
	/*
	 * SMT speed by busy-thread count: smt_speed[k] for k busy threads,
	 * k = 0 .. smt_width + 1 (0 is unused; past SMT_MAX_THREADS the
	 * last parameter); smt_sharing is false when every entry is full
	 * speed, and nothing is scaled.
	 */
	u64 *smt_speed;
	u64 *smt_inv;			/* [same]: smt_reciprocal(smt_speed[k]) */
	bool smt_sharing;
	unsigned int this_cpu;		/* CPU whose kernel path is running */
	/*
	 * &cpus[this_cpu], set with it (sim_set_this_cpu()): every charge
	 * and stall finds the running CPU with one load instead of an
	 * index's three
	 */
	struct sim_cpu *this_sim;
	u64 seed;
	struct sim_steal *steal;	/* [nr_cpus]: a guest's steal time, NULL: none */
	/* each stretch of work's time varied (exec_variation_ppm); half 0: off */
	struct sim_variation variation;
	bool stop;			/* set to end sim_run() */
	/*
	 * An event that only watches (the --plot sampler): the run ends when
	 * it is all that is left, so watching never lengthens a run.
	 */
	struct sim_event *observer;
	void (*progress)(u64 events);	/* called every PROGRESS_EVENTS events, if set */
	u64 stop_at;			/* hard limit on simulated time */
	u64 max_events;			/* hard limit on events, 0: none */
	enum sim_limit limit_hit;	/* why sim_run() stopped short, if it did */
};

extern struct machine machine;

/* Set up machine for @topo (costs from @cost), all CPUs idle at time 0. */
void machine_init(const struct topology *topo, const struct cost_model *cost, u64 seed);
/*
 * Start the clock and every idle CPU's cursor at @t instead of 0, before
 * anything has run or been queued (sched_init() picks @t: the tick phase).
 */
void machine_start_at(u64 t);
void machine_destroy(void);

static inline struct sim_cpu *sim_cpu(unsigned int cpu)
{
	return &machine.cpus[cpu];
}

static inline struct sim_cpu *this_sim_cpu(void)
{
	return machine.this_sim;
}

/* The code that runs from now is CPU @cpu's (its cursor is not moved). */
static inline void sim_set_this_cpu(unsigned int cpu)
{
	machine.this_cpu = cpu;
	machine.this_sim = &machine.cpus[cpu];
}

/*
 * Move @c's cursor to @t over time it does not execute: a wait for another
 * CPU (a lock, a task's switch out), idle or user time, a vCPU the host
 * runs something else on, a wakeup latency. The execution-time variation
 * leaves that time alone (sim/variation.h).
 */
static inline void sim_cpu_set_cursor(struct sim_cpu *c, u64 t)
{
	if (unlikely(machine.variation.half))
		sim_variation_skip(&machine.variation, c->id, t - c->t);
	c->t = t;
}

/* Enter CPU @cpu's context at the current event time. */
static inline struct sim_cpu *sim_enter_cpu(unsigned int cpu)
{
	struct sim_cpu *c = &machine.cpus[cpu];

	sim_set_this_cpu(cpu);
	if (c->t < machine.now)
		sim_cpu_set_cursor(c, machine.now);
	return c;
}

/*
 * The speed (permille) of @c's compute now: its core's busy threads share
 * the core, @c counted as busy (it is running the code that asks):
 * machine.smt_speed[c->core->nr_busy + (c->act == ACT_IDLE)], cached.
 */
static inline u64 sim_cpu_speed(const struct sim_cpu *c)
{
	return c->speed;
}

/*
 * ceil(2^64 / @d) for 1 < @d < 2^32: then for any n < 2^32,
 * n / d == (n * smt_reciprocal(d)) >> 64 exactly (Lemire, Kaser and Kurz,
 * "Faster Remainder by Direct Computation", 2019). 0 for d <= 1.
 */
static inline u64 smt_reciprocal(u64 d)
{
	return d > 1 && d < (1ULL << 32) ? UINT64_MAX / d + 1 : 0;
}

/* the bound for sim_cpu.smt_exact_below of a speed whose reciprocal is @inv */
static inline unsigned int smt_exact_below(u64 inv)
{
	return inv ? UINT32_MAX : 0;
}

/*
 * @ns of compute at full speed, as wall time at @speed permille, rounded
 * up; @inv is smt_reciprocal(@speed) and @exact_below smt_exact_below(@inv).
 * Charges are small, so the division is almost always the multiply (a
 * 64-bit divide costs tens of cycles, and every kernel path on an SMT
 * machine charges several times); one comparison picks it.
 */
static inline u64 smt_scale_inv(u64 ns, u64 speed, u64 inv, unsigned int exact_below)
{
	u64 n = ns * SMT_SPEED_FULL + speed - 1;

	if (likely(n < exact_below))
		return (u64)(((unsigned __int128)n * inv) >> 64);
	return n / speed;
}

/*
 * charge()'s @ns with the execution-time variation on: at the running
 * path's factor, with its stalls since the last charge (sim/variation.h).
 * Out of line: it is off by default, and charge() is inlined everywhere.
 */
void charge_varied(u64 ns);

/*
 * Charge @ns of the running CPU's own compute (ns at a lone thread's
 * speed): SMT siblings busy on its core slow it down.
 */
static inline void charge(u64 ns)
{
	struct sim_cpu *c = machine.this_sim;

	/* a CPU's speed is full unless SMT siblings share its core */
	if (unlikely(machine.smt_sharing) && c->speed != SMT_SPEED_FULL)
		ns = smt_scale_inv(ns, c->speed, c->speed_inv, c->smt_exact_below);
	if (unlikely(c->freq_khz != c->charge_ref_khz)) {
		/* costs are at the maximum frequency: a slower clock takes longer */
		if (c->freq_khz != c->max_freq_khz)
			ns = (ns * c->max_freq_khz + c->freq_khz - 1) / c->freq_khz;
		if (machine.variation.half) {
			charge_varied(ns);
			return;
		}
	}
	c->t += ns;
}

/*
 * Charge @ns that the running CPU spends waiting on the memory system (a
 * cache-line transfer, a miss to memory, a refill): latency in nanoseconds,
 * which neither the core's frequency nor its SMT siblings change. charge()
 * is for the CPU's own compute.
 */
/* Drop @l at the running CPU's now: the next taker spins until then. */
static inline void sim_lock_release(struct sim_lock *l)
{
	l->free_at = machine.this_sim->t;
}

static inline void charge_stall(u64 ns)
{
	/*
	 * part of the path, it varies with it: at the next charge() or path
	 * begin, which find it in the cursor (sim/variation.h)
	 */
	machine.this_sim->t += ns;
}

/* The running CPU's "now" (its cursor). */
static inline u64 cpu_now(void)
{
	return machine.this_sim->t;
}

/* @c went busy or idle at its cursor: its siblings' speed changes (sim/cpu.c). */
void sim_core_busy_changed(struct sim_cpu *c, bool busy);

/* Switch @c to activity @act at its cursor, accounting the previous one. */
static inline void cpu_set_activity(struct sim_cpu *c, enum cpu_activity act)
{
	enum cpu_activity old = c->act;

	if (old == act)
		return;
	c->time_in[old] += c->t - c->act_since;
	c->act = act;
	c->act_since = c->t;
	if ((old == ACT_IDLE) != (act == ACT_IDLE))
		sim_core_busy_changed(c, act != ACT_IDLE);
}

/*
 * @cpu enters idle state @idle_state (-1: leaves idle, busy again) at its
 * cursor, for the energy figures (docs/energy.md). Nothing without an
 * energy model.
 */
void __sim_cpu_power_state(struct sim_cpu *c, int idle_state);
void __sim_turbo_idle(struct sim_cpu *c, bool deep);
static inline void sim_cpu_power_state(unsigned int cpu, int idle_state)
{
	struct sim_cpu *c = sim_cpu(cpu);

	if (c->power_time)
		__sim_cpu_power_state(c, idle_state);
	/* the package's active-core count, where a turbo table limits the frequency */
	if (unlikely(c->core->turbo)) {
		bool deep = idle_state >= 0 && machine.topo->idle_states[idle_state].deep;

		if (deep != c->deep)
			__sim_turbo_idle(c, deep);
	}
}
/* the time since the last change into @c->power_time, up to @t */
void sim_cpu_power_account(struct sim_cpu *c, u64 t);

/*
 * @cpu's energy so far in femtojoules (ns x uW): busy at each OPP at the
 * model's busy power, idle in each state at its power (0 where the model
 * has none); @ns the time accounted. All 0 without an energy model.
 */
void sim_cpu_energy(unsigned int cpu, unsigned __int128 *busy_fj, unsigned __int128 *idle_fj,
		    u64 *ns);

/* Account activities (and frequency residency) up to @t (end of run) without changing them. */
void machine_account_until(u64 t);

/*
 * @cpu's request is @khz (OPP index @opp) from machine.now on: a cpufreq
 * transition has completed. The clock is that, within the turbo limit of
 * @cpu's package (sim/turbo.h). User work in progress goes on at the new
 * speed, what it did so far at the old one (sim/cpu.c).
 */
void sim_cpu_set_freq(unsigned int cpu, unsigned int khz, unsigned int opp);
/*
 * @c's clock is @khz (OPP @opp) from machine.now on, whatever was
 * requested: the hardware's own change (sim_cpu_set_freq(), sim/turbo.c).
 */
void sim_cpu_clock(struct sim_cpu *c, unsigned int khz, unsigned int opp);

/*
 * The distance of two different CPUs whose dist_code values XOR to @x: the
 * highest differing field names the widest level they do not share (0: the
 * same core). A smaller @x is never farther, and an OR of XORs is as far as
 * the farthest of them, which lets a line's sharers be searched without a
 * compare per sharer (sim/coherence.c).
 */
static inline enum cpu_dist cpu_dist_of_xor(u64 x)
{
	/*
	 * By the leading zeros: the 16-bit field where the codes first
	 * differ. Bytes indexed by the count itself, not by count >> 4 into
	 * four enums: a shift and a sign extension less on every line
	 * transfer (docs/performance.md, "sixth pass").
	 */
#define DIST_X16(d) d, d, d, d, d, d, d, d, d, d, d, d, d, d, d, d
	static const u8 by_clz[64] = { DIST_X16(DIST_NUMA), DIST_X16(DIST_PACKAGE),
				       DIST_X16(DIST_LLC), DIST_X16(DIST_CLUSTER) };
#undef DIST_X16

	return x ? (enum cpu_dist)by_clz[__builtin_clzll(x)] : DIST_SMT;
}

/* topology_cpu_dist(machine.topo, a, b), from the packed keys */
static inline enum cpu_dist cpu_dist(unsigned int a, unsigned int b)
{
	const struct cpu_dist_key *ka, *kb;

	if (a == b)
		return DIST_SELF;
	if (likely(machine.dist_code))
		return cpu_dist_of_xor(machine.dist_code[a] ^ machine.dist_code[b]);
	ka = &machine.dist_key[a];
	kb = &machine.dist_key[b];
	if (ka->core == kb->core)
		return DIST_SMT;
	if (ka->cluster == kb->cluster)
		return DIST_CLUSTER;
	if (ka->llc == kb->llc)
		return DIST_LLC;
	if (ka->pkgnode == kb->pkgnode)
		return DIST_PACKAGE;
	return DIST_NUMA;
}

void sim_lock_init(struct sim_lock *l);
/*
 * A lock whose uncontended acquire and release are part of the cost of the
 * path that takes it (pipe_write includes the pipe mutex, ...): only its
 * line and its contention are charged. sim_lock_init()'s locks (rq locks)
 * charge rq_lock as well.
 */
void sim_lock_init_in_path(struct sim_lock *l);
/*
 * Take @l on the running CPU: spin while held (the spin is kernel time on
 * this CPU), then write the lock's line (a transfer when another CPU held or
 * read it last) and pay rq_lock, the uncontended acquire and release.
 */
void sim_lock_acquire(struct sim_lock *l);

/* An event before the clock: the model's time wrapped or a path went back. */
void __attribute__((noreturn, cold)) sim_time_unrepresentable(u64 time);

static inline void sim_schedule(struct sim_event *ev, u64 time)
{
	if (unlikely(time < machine.now))
		sim_time_unrepresentable(time);
	eq_schedule(&machine.eq, ev, time);
}

static inline void sim_cancel(struct sim_event *ev)
{
	eq_cancel(&machine.eq, ev);
}

/*
 * Run events until the queue is empty, machine.stop is set, simulated
 * time passes machine.stop_at or machine.max_events have run (the last two
 * set machine.limit_hit). @after_event, if given, runs after each event
 * (the invariant checker). Returns the number of events processed.
 */
/*
 * Set from a signal handler (SIGINT, SIGTERM: cli/interrupt.c) to end
 * sim_run() early, after the event being processed; never cleared. The run
 * it cuts short is incomplete: its results must not be reported.
 */
extern volatile sig_atomic_t sim_interrupted;

/* how often sim_run() calls machine.progress (a power of two) */
#define PROGRESS_EVENTS (1u << 16)

u64 sim_run(void (*after_event)(struct sim_event *ev));

/* ---- cache-line ownership (sim/coherence.h): the hits, inline ---- */

/*
 * Whether @cpu is one of @l's sharers, all of them at once: the four 16-bit
 * entries are one 64-bit word, XORed with @cpu in every lane, the unused
 * lanes set to all ones; a lane that is then zero is @cpu. A loop of a
 * compare and a branch per sharer was a sixth of a 1024-CPU run's
 * instructions (the load balancer's sweeps miss on every remote runqueue:
 * docs/performance.md, fifth pass).
 */
static inline bool cl_held_clean(const struct cache_line *l, unsigned int cpu)
{
	/* the lanes of sharer[0 .. n - 1] */
	static const u64 used[CL_MAX_SHARERS + 1] = {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		0, 0xffffULL, 0xffffffffULL, 0xffffffffffffULL, ~0ULL,
#else
		0, 0xffffULL << 48, 0xffffffffULL << 32, 0xffffffffffffULL << 16, ~0ULL,
#endif
	};
	const u64 lane_ones = 0x0001000100010001ULL, lane_top = 0x8000800080008000ULL;
	unsigned int n = l->nr_sharers;
	u64 all, x;

	/*
	 * No sharer (a line written last), or one: one compare. A CPU that
	 * reads a line again is most often its last reader: one compare too.
	 */
	if (!n)
		return false;
	if (l->sharer[n - 1] == cpu)
		return true;
	if (n == 1)
		return false;
	memcpy(&all, l->sharer, sizeof(all));
	x = (all ^ (cpu * lane_ones)) | ~used[n];
	/* some lane of x is zero (the exact test: a borrow only follows a zero lane) */
	return ((x - lane_ones) & ~x & lane_top) != 0;
}

static inline u64 cl_read_n(struct cache_line *l, unsigned int lines)
{
	unsigned int cpu = machine.this_cpu;

	if (l->owner == (s32)cpu || cl_held_clean(l, cpu) || !lines)
		return 0;
	return __cl_read_miss(l, cpu, lines);
}

static inline u64 cl_write_n(struct cache_line *l, unsigned int lines)
{
	unsigned int cpu = machine.this_cpu;

	if (l->owner == (s32)cpu || !lines)
		return 0;
	return __cl_write_miss(l, cpu, lines);
}

static inline u64 cl_read(struct cache_line *l)
{
	return cl_read_n(l, l->lines);
}

static inline u64 cl_write(struct cache_line *l)
{
	return cl_write_n(l, l->lines);
}

#endif
