/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Seeded PRNG streams: xoshiro256** seeded through splitmix64 from
 * (run seed, stream id). Every consumer owns its stream, so adding a new
 * consumer never changes the numbers an existing one draws.
 */
#ifndef SCHEDLAB_SIM_PRNG_H
#define SCHEDLAB_SIM_PRNG_H

#include "sim/types.h"

struct prng {
	u64 s[4];
};

/* Stream ids: one per consumer. Append new ones; never renumber. */
enum prng_stream_id {
	PRNG_STREAM_WORKLOAD = 1,
	PRNG_STREAM_PLACEMENT = 2,
	PRNG_STREAM_JITTER = 3,
	PRNG_STREAM_KERNEL = 4,
	PRNG_STREAM_STEAL = 5,	/* per vCPU: prng_steal_stream() */
	PRNG_STREAM_VARIATION = 6, /* per CPU: prng_variation_stream() */
};

/* the host's preemption of vCPU @cpu (sim/steal.c): a stream of its own per CPU */
static inline u64 prng_steal_stream(unsigned int cpu)
{
	return ((u64)cpu + 1) << 8 | PRNG_STREAM_STEAL;
}

/* the execution-time variation of CPU @cpu (sim/variation.h): one stream per CPU */
static inline u64 prng_variation_stream(unsigned int cpu)
{
	return ((u64)cpu + 1) << 8 | PRNG_STREAM_VARIATION;
}

void prng_init(struct prng *r, u64 seed, u64 stream);
u64 prng_next(struct prng *r);
/* Uniform in [0, n), unbiased; n > 0. */
u64 prng_below(struct prng *r, u64 n);

#endif
