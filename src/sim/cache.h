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
 * charge_stall(). With cache_l1_kb, the L1 in front of the private cache
 * is estimated the same way with the same counter (every byte the private
 * cache takes passes through it), for at most its capacity of the
 * footprint (a larger one streams through it while the task runs, which
 * is the task's own time): what survives in the private cache but not in
 * the L1 comes back at l1_refill a KiB. O(1) per switch.
 * docs/cost-model.md, "Cache footprints".
 */
#ifndef SCHEDLAB_SIM_CACHE_H
#define SCHEDLAB_SIM_CACHE_H

#include "sim/types.h"

struct cost_model;

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

/* A cache's two numbers (cache.c). */
struct cache_counters {
	u64 touched;		/* bytes touched in this cache so far */
	u64 occupancy;		/* footprints of the tasks that last ran under it */
	u64 flushed;		/* touched when it was last emptied: nothing older survives */
};

/*
 * The objects freed on a CPU that no task's footprint holds (skbs,
 * work/skb_cache.c): each one's mark, the private cache's touched counter
 * when it was freed, most recent on top, as SLUB's per-CPU freelist hands
 * them out again (last in, first out). A ring of cap entries (0 or a power
 * of two, grown on demand) holds the newest; below them are @forgotten
 * more, every one of them cold: an entry is forgotten only when its
 * private cache has seen at least a capacity of bytes touched since its
 * mark (cache_surviving() is then 0 for it, now and later, as the counter
 * only grows), or when the ring has CACHE_FREED_MAX entries.
 * docs/performance.md, "sixth pass".
 */
struct cache_freed {
	u64 *mark;
	u32 cap;		/* entries the ring has room for */
	u32 head;		/* index of the next push, wrapping */
	u32 top;		/* entries held, up to cap */
	u64 forgotten;		/* frees below the ring's entries */
};

/* What one CPU's accesses move: made with the machine (cache_init()). */
struct cache_cpu {
	struct cache_counters *l2;	/* its private cache */
	struct cache_counters *llc;	/* its shared cache */
	struct cache_freed freed;
};

extern struct cache_cpu *cache_cpus;	/* [machine.nr_cpus] */

/* Where a refill came from, in bytes, and what it cost (for tests and stats). */
struct cache_refill {
	u64 from_l2;		/* into the L1 from this CPU's private cache (cache_l1_kb) */
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
 * @cpu's private cache loses everything it held (a deep idle state that
 * flushes the core's caches, docs/guests.md): its counter moves on by its
 * capacity, which leaves nothing of the freed objects' lines
 * (cache_freed_pop()), and what the tasks that ran here before keep is
 * nothing (their marks are below flushed). Their footprints stay in its
 * occupancy, which is bookkeeping of where they ran, not of what is held:
 * they refill from the shared cache when they run next. O(1).
 */
void cache_flush_private(unsigned int cpu);

/*
 * The time to refill @bytes of a footprint from the shared cache, as
 * cache_switch_in() charges it: @bytes / 64 lines at llc_hit, line_mlp in
 * flight
 */
u64 cache_llc_refill_ns(const struct cost_model *c, u64 bytes);

/* @f's task exits: its footprint leaves the caches' occupancy. */
void cache_task_exit(struct cache_footprint *f);

/* The bytes touched in @cpu's private cache so far (a mark of "now" there). */
static inline u64 cache_l2_touched(unsigned int cpu)
{
	return cache_cpus[cpu].l2->touched;
}

/*
 * @bytes of data that belong to no task's footprint (an skb) were touched
 * on @cpu: they push older lines down its private and shared caches.
 */
static inline void cache_touch(unsigned int cpu, u64 bytes)
{
	cache_cpus[cpu].l2->touched += bytes;
	cache_cpus[cpu].llc->touched += bytes;
}

/*
 * An object is freed on @cpu: its lines, just touched, head the CPU's
 * freelist. Room is made out of line when the ring is full (or not made
 * yet): by forgetting its cold oldest entries, else by growing it.
 */
void cache_freed_make_room(struct cache_cpu *c);

static inline void cache_freed_push(unsigned int cpu)
{
	struct cache_cpu *c = &cache_cpus[cpu];
	struct cache_freed *f = &c->freed;

	if (unlikely(f->top == f->cap))
		cache_freed_make_room(c);
	f->mark[f->head] = c->l2->touched;
	f->head = (f->head + 1) & (f->cap - 1);
	f->top++;
}

/*
 * The object on top of @cpu's freelist is handed out again: false if there
 * is none, else true and in @traffic the bytes touched in the private cache
 * since it was freed (UINT64_MAX for a forgotten one: more than any
 * capacity, so cache_surviving() gives 0 of it, as it would its mark).
 */
static inline bool cache_freed_pop(unsigned int cpu, u64 *traffic)
{
	struct cache_cpu *c = &cache_cpus[cpu];
	struct cache_freed *f = &c->freed;

	if (f->top) {
		f->head = (f->head - 1) & (f->cap - 1);
		f->top--;
		*traffic = c->l2->touched - f->mark[f->head];
		return true;
	}
	if (f->forgotten) {
		f->forgotten--;
		*traffic = UINT64_MAX;
		return true;
	}
	return false;
}

/* For tests: the bytes touched in @cpu's shared cache; its private / shared occupancy. */
u64 cache_llc_touched(unsigned int cpu);
u64 cache_l2_occupancy(unsigned int cpu);
u64 cache_llc_occupancy(unsigned int cpu);
/* For tests: the entries @cpu's freelist ring has room for. */
u32 cache_freed_capacity(unsigned int cpu);

#endif
