// SPDX-License-Identifier: GPL-2.0-only
/*
 * The skbs' cache residency (skb_cache.h): what is left of an skb in the
 * private cache when it is read, or when its slab object comes off the
 * CPU's freelist (sim/cache.h keeps the freed objects' marks).
 */
#include "work/skb_cache.h"

#include "sim/cache.h"
#include "sim/coherence.h"
#include "sim/machine.h"

unsigned int skb_lines(u64 payload)
{
	return SKB_HEAD_LINES + cl_lines(payload) + SKB_SHINFO_LINES;
}

/* The refill of @lines lines after @traffic bytes touched in the private cache since. */
static u64 refill(unsigned int lines, u64 traffic)
{
	const struct cost_model *c = machine.cost;
	u64 bytes = (u64)lines * CL_BYTES;
	u64 kept = cache_surviving(bytes, traffic, c->cache_l2_kb * 1024);
	u64 ns = c->skb_refill * (bytes - kept) / bytes;

	charge_stall(ns);
	return ns;
}

u64 skb_cache_alloc(unsigned int lines, bool local, u64 *mark)
{
	unsigned int cpu = machine.this_cpu;
	u64 ns = 0, traffic;

	if (local && cache_freed_pop(cpu, &traffic))
		ns = refill(lines, traffic);
	cache_touch(cpu, (u64)lines * CL_BYTES);
	*mark = cache_l2_touched(cpu);
	return ns;
}

u64 skb_cache_read(unsigned int lines, bool local, u64 mark)
{
	unsigned int cpu = machine.this_cpu;
	u64 ns = local ? refill(lines, cache_l2_touched(cpu) - mark) : 0;

	cache_touch(cpu, (u64)lines * CL_BYTES);
	return ns;
}

void skb_cache_free(void)
{
	cache_freed_push(machine.this_cpu);
}
