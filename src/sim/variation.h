/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Execution-time variation: each stretch of work a simulated CPU does takes
 * its nominal time times a factor of mean 1 drawn from that CPU's own PRNG
 * stream. A stretch is one kernel path (everything a CPU's step or
 * interrupt charges, charge() and charge_stall() alike: one system call,
 * one interrupt, as calibrate times one operation) or one user compute
 * segment. A path's charges take its factor as they are made; its stalls
 * move the cursor at their nominal time and take the factor at the next
 * charge() or at the CPU's next path begin (sim_variation_advance()), so
 * that the stalls, about twenty an event, test nothing while the
 * variation is off. A real CPU never repeats an operation in exactly the same time
 * (cache, TLB and branch-predictor state, a host under a guest); a
 * perfectly repeatable machine can hold two tasks in a fixed phase that a
 * real one drifts out of. The width is the cost parameter
 * exec_variation_ppm, 0 (off) by default: docs/cost-model.md.
 */
#ifndef SCHEDLAB_SIM_VARIATION_H
#define SCHEDLAB_SIM_VARIATION_H

#include "sim/prng.h"

/* parts per million: exec_variation_ppm is a relative standard deviation */
#define VARIATION_PPM 1000000ULL
/*
 * The widest: a uniform factor of standard deviation s spans 1 +- sqrt(3) s,
 * which must stay above 0 (s < 0.577); half the nominal time is already
 * far beyond what short operations show on any machine
 */
#define VARIATION_PPM_MAX 500000ULL
/* factors are fixed point, 1.0 = 2^32 */
#define VARIATION_ONE (1ULL << 32)

struct sim_variation_cpu {
	struct prng rng; /* prng_variation_stream(cpu) */
	u64 factor; /* the current path's, VARIATION_ONE = nominal */
	/*
	 * the fraction of a nanosecond the varied charges have left over so
	 * far (2^-32 ns), carried into the next: the rounding adds up to
	 * less than 1 ns over the run, and no charge is biased
	 */
	u64 rem;
	/*
	 * The cursor up to which the path's time has been varied, or left out
	 * (sim_variation_skip()): the stalls since (charge_stall()) move the
	 * cursor at their nominal time, and the next charge() or path begin
	 * varies them (sim_variation_advance()), so that a stall costs no
	 * test of the variation
	 */
	u64 mark;
	/*
	 * ns by which varied stalls came out shorter than the cursor had
	 * already moved for them: the cursor never runs back (what the
	 * stalls' ends published stands: a lock's release, a line's owner),
	 * the next varied time pays it instead
	 */
	u64 debt;
};

struct sim_variation {
	/* half the factor's range: uniform in [ONE - half, ONE + half]; 0: off */
	u64 half;
	struct sim_variation_cpu *cpu; /* [nr_cpus], NULL when off */
};

/* Set @v up for @nr_cpus CPUs at @ppm (0: off, nothing allocated). */
void sim_variation_init(struct sim_variation *v, u64 ppm, unsigned int nr_cpus, u64 seed);
void sim_variation_destroy(struct sim_variation *v);

/* the half-range (2^-32 units) of a uniform factor of relative SD @ppm */
u64 sim_variation_half(u64 ppm);

/* A factor for CPU @cpu's next stretch: one draw from its stream. */
static inline u64 sim_variation_draw(struct sim_variation *v, unsigned int cpu)
{
	u64 x = prng_next(&v->cpu[cpu].rng);

	return VARIATION_ONE - v->half +
	       (u64)(((unsigned __int128)(x >> 32) * (2 * v->half + 1)) >> 32);
}

/* @ns at @factor on CPU @cpu, the fraction carried (sim_variation_cpu.rem) */
static inline u64 sim_variation_scale(struct sim_variation *v, unsigned int cpu, u64 ns, u64 factor)
{
	struct sim_variation_cpu *c = &v->cpu[cpu];
	unsigned __int128 t = (unsigned __int128)ns * factor + c->rem;

	c->rem = (u64)t & (VARIATION_ONE - 1);
	return (u64)(t >> 32);
}

/*
 * CPU @cpu's cursor *@t moves on by @ns of compute in its current path:
 * that and the path's stalls since the mark, at the path's factor. A
 * factor below 1 can leave the stalls shorter than the time the cursor
 * already moved for them; it stays, and the difference is a debt the
 * next varied time pays (the mean stays the nominal time).
 */
static inline void sim_variation_advance(struct sim_variation *v, unsigned int cpu, u64 *t, u64 ns)
{
	struct sim_variation_cpu *c = &v->cpu[cpu];
	u64 stalls = *t - c->mark;
	u64 span = sim_variation_scale(v, cpu, stalls + ns, c->factor);
	u64 owed = stalls + c->debt;

	if (span >= owed) {
		*t += span - owed;
		c->debt = 0;
	} else {
		c->debt = owed - span;
	}
	c->mark = *t;
}

/*
 * CPU @cpu's cursor moved by @delta (mod 2^64) for time it does not
 * execute (a wait for another CPU, idle or user time, a vCPU's absence):
 * no factor applies to it
 */
static inline void sim_variation_skip(struct sim_variation *v, unsigned int cpu, u64 delta)
{
	v->cpu[cpu].mark += delta;
}

/*
 * CPU @cpu, cursor *@t, starts a kernel path (a step, an interrupt): the
 * last path's stalls after its last charge take that path's factor (the
 * new path starts that much later or earlier), then the new path draws
 * its own
 */
static inline void sim_variation_begin(struct sim_variation *v, unsigned int cpu, u64 *t)
{
	if (v->half) {
		sim_variation_advance(v, cpu, t, 0);
		v->cpu[cpu].factor = sim_variation_draw(v, cpu);
	}
}

#endif
