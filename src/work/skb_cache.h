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

#include "sim/types.h"

/*
 * The lines of one skb that its writer fills and its reader reads: the
 * struct sk_buff (232 bytes on x86-64 since v5.x: 4 lines), the payload,
 * and the first line of skb_shared_info at the end of the data (dataref,
 * nr_frags, set up by __alloc_skb()).
 */
#define SKB_HEAD_LINES 4
#define SKB_SHINFO_LINES 1

unsigned int skb_lines(u64 payload);

/*
 * An skb of @lines lines is allocated and filled on the running CPU. With
 * @local, its slab object was freed on this CPU and is the top of its
 * freelist: the refill of what left the private cache since that free is
 * charged (charge_stall()) and returned (an object from another CPU is the
 * caller's line transfer). The skb's mark, its lines' last touch, is
 * returned in @mark.
 */
u64 skb_cache_alloc(unsigned int lines, bool local, u64 *mark);

/*
 * The skb marked @mark is read on the running CPU. With @local it was
 * written on this CPU: the refill of what left the private cache since,
 * charged and returned (from another CPU: the caller's line transfer).
 */
u64 skb_cache_read(unsigned int lines, bool local, u64 mark);

/*
 * An skb is freed on the running CPU: its object heads the CPU's freelist
 * (cache_freed_push(); the freelists are made and freed with the machine).
 */
void skb_cache_free(void);

#endif
