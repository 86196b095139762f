// SPDX-License-Identifier: GPL-2.0-only
/*
 * The skbs' cache residency (skb_cache.h): what is left of an skb in the
 * private cache when it is read, or when its slab object comes off the
 * CPU's freelist (sim/cache.h keeps the freed objects' marks).
 */
#include "work/skb_cache.h"

u64 skb_cache_refill(unsigned int lines, u64 traffic)
{
	const struct cost_model *c = machine.cost;
	u64 bytes = (u64)lines * CL_BYTES;
	u64 kept = cache_surviving(bytes, traffic, c->cache_l2_kb * 1024);
	u64 ns = c->skb_refill * (bytes - kept) / bytes;

	charge_stall(ns);
	return ns;
}
