// SPDX-License-Identifier: GPL-2.0-only
/* Execution-time variation (sim/variation.h). */
#include "sim/variation.h"

#include "sim/alloc.h"

#include <math.h>
#include <stdlib.h>

u64 sim_variation_half(u64 ppm)
{
	/* a uniform distribution on [-h, h] has standard deviation h / sqrt(3) */
	return (u64)llround(sqrt(3.0) * (double)ppm / (double)VARIATION_PPM *
			    (double)VARIATION_ONE);
}

void sim_variation_init(struct sim_variation *v, u64 ppm, unsigned int nr_cpus, u64 seed)
{
	v->half = 0;
	v->cpu = NULL;
	if (!ppm)
		return;
	v->half = sim_variation_half(ppm);
	v->cpu = xcalloc(nr_cpus, sizeof(*v->cpu));
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		prng_init(&v->cpu[cpu].rng, seed, prng_variation_stream(cpu));
		v->cpu[cpu].factor = VARIATION_ONE;
	}
}

void sim_variation_destroy(struct sim_variation *v)
{
	free(v->cpu);
	v->cpu = NULL;
	v->half = 0;
}
