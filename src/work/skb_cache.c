// SPDX-License-Identifier: GPL-2.0-only
/*
 * The skbs' cache residency (skb_cache.h): per CPU, the marks of the slab
 * objects freed there, most recent on top, as SLUB's per-CPU freelist
 * hands them out again.
 */
#include "work/skb_cache.h"

#include "sim/alloc.h"
#include "sim/cache.h"
#include "sim/coherence.h"
#include "sim/machine.h"

#include <stdlib.h>

/*
 * A CPU's freed objects remembered: a ring that forgets the oldest, which
 * are then counted as cold. An object further down than this many frees
 * has seen at least as many skbs touched since (each at least
 * SKB_HEAD_LINES + SKB_SHINFO_LINES lines, 320 bytes): 8192 x 320 bytes =
 * 2.5 MiB, more than the private caches of the presets (cache_l2_kb up to
 * 2 MiB); a larger cache_l2_kb only makes the forgotten ones cold early.
 */
#define FREELIST_MARKS 8192

struct skb_freelist {
	u64 mark[FREELIST_MARKS];
	u32 top; /* entries held, up to FREELIST_MARKS */
	u32 head; /* index of the next push, wrapping */
	u64 forgotten; /* frees below the ring's entries */
};

static struct skb_freelist **freelists; /* [machine.nr_cpus], made on first use */
static unsigned int nr_freelists;

unsigned int skb_lines(u64 payload)
{
	return SKB_HEAD_LINES + cl_lines(payload) + SKB_SHINFO_LINES;
}

static struct skb_freelist *freelist_of(unsigned int cpu)
{
	/* a run on a larger machine than the last one without a reset between */
	if (cpu >= nr_freelists) {
		unsigned int n = max(machine.nr_cpus, cpu + 1);

		freelists = xreallocarray(freelists, n, sizeof(*freelists));
		for (unsigned int i = nr_freelists; i < n; i++)
			freelists[i] = NULL;
		nr_freelists = n;
	}
	if (!freelists[cpu])
		freelists[cpu] = xcalloc(1, sizeof(*freelists[cpu]));
	return freelists[cpu];
}

/* The refill of @lines lines last touched when the private cache's counter read @mark. */
static u64 refill(unsigned int cpu, unsigned int lines, u64 mark)
{
	const struct cost_model *c = machine.cost;
	u64 bytes = (u64)lines * CL_BYTES;
	u64 kept = cache_surviving(bytes, cache_l2_touched(cpu) - mark, c->cache_l2_kb * 1024);
	u64 ns = c->skb_refill * (bytes - kept) / bytes;

	charge_stall(ns);
	return ns;
}

u64 skb_cache_alloc(unsigned int lines, bool local, u64 *mark)
{
	unsigned int cpu = machine.this_cpu;
	struct skb_freelist *f = freelist_of(cpu);
	u64 ns = 0;

	if (local && f->top) {
		f->head = (f->head + FREELIST_MARKS - 1) % FREELIST_MARKS;
		f->top--;
		ns = refill(cpu, lines, f->mark[f->head]);
	} else if (local && f->forgotten) {
		f->forgotten--;
		ns = machine.cost->skb_refill;
		charge_stall(ns);
	}
	cache_touch(cpu, (u64)lines * CL_BYTES);
	*mark = cache_l2_touched(cpu);
	return ns;
}

u64 skb_cache_read(unsigned int lines, bool local, u64 mark)
{
	unsigned int cpu = machine.this_cpu;
	u64 ns = local ? refill(cpu, lines, mark) : 0;

	cache_touch(cpu, (u64)lines * CL_BYTES);
	return ns;
}

void skb_cache_free(void)
{
	unsigned int cpu = machine.this_cpu;
	struct skb_freelist *f = freelist_of(cpu);

	f->mark[f->head] = cache_l2_touched(cpu);
	f->head = (f->head + 1) % FREELIST_MARKS;
	if (f->top < FREELIST_MARKS)
		f->top++;
	else
		f->forgotten++;
}

void skb_cache_reset(void)
{
	for (unsigned int i = 0; i < nr_freelists; i++)
		free(freelists[i]);
	free(freelists);
	freelists = NULL;
	nr_freelists = 0;
}
