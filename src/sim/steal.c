// SPDX-License-Identifier: GPL-2.0-only
/*
 * Steal time, the host's side (sim/steal.h): when each vCPU is descheduled
 * and for how long.
 */
#include "sim/steal.h"

#include "sim/alloc.h"
#include "sim/cpu.h"

#include <stdlib.h>

#define PPM 1000000

/* Draw the next period after @s->period_end and queue its stretch. */
static void next_stretch(struct sim_steal *s)
{
	const struct guest_desc *g = &machine.topo->guest;
	u64 p = g->steal_period_ns;
	/* uniform in [P/2, 3P/2): the mean is P and no two vCPUs stay in step */
	u64 len = p / 2 + prng_below(&s->rng, p);
	u64 start = s->period_end;

	s->stretch_ns = len * g->steal_ppm / PPM;
	s->period_end = start + len;
	sim_schedule(&s->ev, start + prng_below(&s->rng, len - s->stretch_ns + 1));
}

static void steal_event(struct sim_event *ev)
{
	unsigned int cpu = ev->arg;
	struct sim_steal *s = &machine.steal[cpu];

	/* a halted (or polling) vCPU asks the host for nothing: no steal */
	if (sim_cpu(cpu)->act != ACT_IDLE && s->stretch_ns) {
		s->pending_ns += s->stretch_ns;
		sim_cpu_interrupt(cpu, IRQ_STEAL);
	}
	next_stretch(s);
}

void sim_steal_start(void)
{
	const struct guest_desc *g = &machine.topo->guest;

	if (!g->kvm || !g->steal_ppm)
		return;
	machine.steal = xcalloc(machine.nr_cpus, sizeof(*machine.steal));
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++) {
		struct sim_steal *s = &machine.steal[cpu];

		ev_init(&s->ev, steal_event, cpu);
		/* the host's schedule does not keep a finished run going */
		s->ev.background = true;
		prng_init(&s->rng, machine.seed, prng_steal_stream(cpu));
		s->period_end = machine.now;
		next_stretch(s);
	}
}

void sim_steal_destroy(void)
{
	free(machine.steal);
	machine.steal = NULL;
}

u64 sim_steal_take(unsigned int cpu)
{
	struct sim_steal *s = &machine.steal[cpu];
	u64 d = s->pending_ns;

	s->pending_ns = 0;
	s->total_ns += d;
	s->last_ns = d;
	s->until = sim_cpu(cpu)->t + d;
	return d;
}

u64 sim_steal_clock(unsigned int cpu, u64 now)
{
	const struct sim_steal *s = &machine.steal[cpu];

	/* a stretch still under way is not published yet */
	return s->until > now ? s->total_ns - s->last_ns : s->total_ns;
}

bool sim_steal_preempted(unsigned int cpu, u64 now)
{
	const struct sim_steal *s = &machine.steal[cpu];

	return s->pending_ns || (s->until > now && s->until - s->last_ns <= now);
}
