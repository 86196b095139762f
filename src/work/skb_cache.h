/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a unix socket's skbs are when they are touched again: still in
 * the CPU's private cache, or pushed out of it by what was touched since.
 *
 * A queue of skbs is memory no task's footprint holds (sim/cache.h): 100
 * bytes sent to 20 sockets by 20 senders can leave thousands of skbs in
 * flight, megabytes of slab objects. Each skb's lines are marked with the
 * private cache's touched counter when they were last touched on a CPU; a
 * read on that CPU, or the allocation of a slab object freed on it (SLUB's
 * per-CPU freelist is last in, first out), pays skb_refill for the part of
 * the skb that D bytes touched since have pushed out of a private cache of
 * capacity C (cache_surviving()). The skbs' own bytes count towards D
 * (cache_touch()). docs/cost-model.md, "The socket and pipe paths".
 */
#ifndef SCHEDLAB_WORK_SKB_CACHE_H
#define SCHEDLAB_WORK_SKB_CACHE_H

#include "sim/cache.h"
#include "sim/coherence.h"
#include "sim/machine.h"
#include "sim/types.h"

/*
 * The lines of one skb that its writer fills and its reader reads: the
 * struct sk_buff (232 bytes on x86-64 since v5.x: 4 lines), the payload,
 * and the first line of skb_shared_info at the end of the data (dataref,
 * nr_frags, set up by __alloc_skb()).
 */
#define SKB_HEAD_LINES 4
#define SKB_SHINFO_LINES 1

static inline unsigned int skb_lines(u64 payload)
{
	return SKB_HEAD_LINES + cl_lines(payload) + SKB_SHINFO_LINES;
}

/*
 * The refill of @lines lines after @traffic bytes were touched in the
 * running CPU's private cache since: charged and returned. The bookkeeping
 * around it is inline below (three calls a message, out of line, were
 * about a tenth of it: docs/performance.md, "sixth pass").
 */
u64 skb_cache_refill(unsigned int lines, u64 traffic);

/*
 * An skb of @lines lines is allocated and filled on the running CPU. With
 * @local, its slab object was freed on this CPU and is the top of its
 * freelist: the refill of what left the private cache since that free is
 * charged (charge_stall()) and returned (an object from another CPU is the
 * caller's line transfer). The skb's mark, its lines' last touch, is
 * returned in @mark.
 */
static inline u64 skb_cache_alloc(unsigned int lines, bool local, u64 *mark)
{
	unsigned int cpu = machine.this_cpu;
	u64 ns = 0, traffic;

	if (local && cache_freed_pop(cpu, &traffic))
		ns = skb_cache_refill(lines, traffic);
	cache_touch(cpu, (u64)lines * CL_BYTES);
	*mark = cache_l2_touched(cpu);
	return ns;
}

/*
 * The skb marked @mark is read on the running CPU. With @local it was
 * written on this CPU: the refill of what left the private cache since,
 * charged and returned (from another CPU: the caller's line transfer).
 */
static inline u64 skb_cache_read(unsigned int lines, bool local, u64 mark)
{
	unsigned int cpu = machine.this_cpu;
	u64 ns = local ? skb_cache_refill(lines, cache_l2_touched(cpu) - mark) : 0;

	cache_touch(cpu, (u64)lines * CL_BYTES);
	return ns;
}

/*
 * An skb is freed on the running CPU: its object heads the CPU's freelist
 * (cache_freed_push(); the freelists are made and freed with the machine).
 */
static inline void skb_cache_free(void)
{
	cache_freed_push(machine.this_cpu);
}

#endif
