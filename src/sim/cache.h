/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Cache footprints: the indirect cost of context switches and migrations.
 *
 * Each task has a working set (its footprint, in bytes). Each core has a
 * private cache (L2) and each shared-cache domain (L3/SLC) a shared cache;
 * their capacities are cost-model parameters (cache_l2_kb, cache_llc_kb)
 * and which CPUs share each one comes from the topology (cache_l2_span,
 * cache_llc_span). No per-line state: each cache keeps a monotonic counter
 * of the bytes touched in it and its occupancy (the footprints of the tasks
 * that last ran under it). A task remembers where it last ran and the
 * counters' values then. A cache is taken as fully associative LRU, in
 * which the task's lines were the most recently used when it stopped: D
 * distinct other bytes touched since push them down, and min(F, C - D) of
 * its F bytes survive at capacity C (nothing when D >= C). D is estimated
 * as the smaller of the counter's movement (which counts a task that ran
 * twice twice) and the other tasks' occupancy (which all fit when it is
 * below C - F). What is missing is refilled from the nearest place that
 * still holds it (the shared cache or another core's private cache under
 * it, another shared cache, memory), at that place's latency per 64-byte
 * line divided by the misses in flight (line_mlp), charged with
 * charge_stall(). O(1) per switch. docs/cost-model.md, "Cache footprints".
 */
#ifndef SCHEDLAB_SIM_CACHE_H
#define SCHEDLAB_SIM_CACHE_H

#include "sim/types.h"

/*
 * A task that sets no footprint: its kernel stack and task_struct lines
 * touched on a syscall + switch path, a user stack page and a few lines of
 * data. docs/cost-model.md, "Cache footprints".
 */
#define CACHE_DEFAULT_FOOTPRINT (16 * 1024)

struct cache_footprint {
	u64 bytes;		/* working set; 0: CACHE_DEFAULT_FOOTPRINT */
	int cpu;		/* where it last ran, -1: never ran */
	unsigned int home_node;	/* where its memory is (first touch: where it first ran) */
	u64 l2_mark;		/* its private cache's touched counter when it last ran there */
	u64 llc_mark;		/* its shared cache's touched counter likewise */
};

/* Where a refill came from, in bytes, and what it cost (for tests and stats). */
struct cache_refill {
	u64 from_llc;		/* this CPU's shared cache, or a private cache under it */
	u64 from_xllc;		/* another shared cache of the same package */
	u64 from_remote;	/* a cache in another package or node */
	u64 from_mem;		/* memory of this CPU's node */
	u64 from_mem_remote;	/* memory of another node */
	u64 ns;
};

/* A task that has not run yet. */
static inline void cache_footprint_init(struct cache_footprint *f, u64 bytes)
{
	f->bytes = bytes;
	f->cpu = -1;
	f->home_node = 0;
	f->l2_mark = f->llc_mark = 0;
}

/* Allocate the counters for machine.topo (machine_init() calls it). */
void cache_init(void);
void cache_destroy(void);

/*
 * @f's task is switched in on @cpu: compute its refill (into @out if not
 * NULL), add the bytes brought in to the counters and remember where it ran.
 * Returns the refill time in ns; the caller charges it with charge_stall().
 * A task that never ran pays nothing (its first touch is part of fork/exec)
 * but its footprint still enters the caches. A task that moved leaves the
 * old caches' occupancy for the new ones'.
 */
u64 cache_switch_in(struct cache_footprint *f, unsigned int cpu, struct cache_refill *out);

/* @f's task stops running on @cpu: its lines are the most recent from here. */
void cache_switch_out(struct cache_footprint *f, unsigned int cpu);

/* Bytes of a footprint of @bytes that survive @traffic other bytes in an LRU cache of @capacity. */
static inline u64 cache_surviving(u64 bytes, u64 traffic, u64 capacity)
{
	if (traffic >= capacity)
		return 0;
	return min(bytes, capacity - traffic);
}

/*
 * @bytes of data that belong to no task's footprint (an skb) were touched
 * on @cpu: they push older lines down its private and shared caches.
 */
void cache_touch(unsigned int cpu, u64 bytes);

/* @f's task exits: its footprint leaves the caches' occupancy. */
void cache_task_exit(struct cache_footprint *f);

/* For tests: the bytes touched in, and the occupancy of, @cpu's private / shared cache. */
u64 cache_l2_touched(unsigned int cpu);
u64 cache_llc_touched(unsigned int cpu);
u64 cache_l2_occupancy(unsigned int cpu);
u64 cache_llc_occupancy(unsigned int cpu);

#endif
