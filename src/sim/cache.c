// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cache footprints (see cache.h and docs/cost-model.md, "Cache footprints").
 *
 * Per cache two numbers: the bytes touched in it so far (a monotonic
 * counter) and its occupancy, the sum of the footprints of the tasks that
 * last ran under it. What pushes a task's lines towards eviction in an LRU
 * cache is the number of distinct other lines touched since it last ran:
 * the counter's movement over-counts a task that ran several times since,
 * the others' occupancy misses lines of tasks that have moved away since;
 * the smaller of the two is taken. O(1) per switch.
 */
#include "sim/cache.h"

#include "sim/alloc.h"
#include "sim/machine.h"

#include <stdlib.h>
#include <string.h>

#define CACHE_LINE 64

/*
 * A CPU's freelist ring starts this deep (512 bytes) on its first free and
 * doubles while its oldest entry is still warm.
 */
#define CACHE_FREED_MIN 64
/*
 * The ring's limit (64 KiB), kept from the fixed ring it replaced so that
 * the output is the same for any cache_l2_kb. The presets never reach it:
 * an skb is normally read on the CPU that frees it (at least
 * SKB_HEAD_LINES + SKB_SHINFO_LINES lines, 320 bytes), so 8192 frees come
 * with 2.5 MiB touched, more than any preset's cache_l2_kb (up to 2 MiB),
 * and the older entries are cold and forgotten first.
 */
#define CACHE_FREED_MAX 8192

static struct cache_counters *l2s;		/* [number of private caches] */
static struct cache_counters *llcs;	/* [number of shared caches] */
struct cache_cpu *cache_cpus;
static unsigned int nr_cache_cpus;

static unsigned int span_id(enum cache_span span, unsigned int cpu, bool shared)
{
	const struct cpu_topo *c = &machine.topo->cpus[cpu];

	if (span == CACHE_SPAN_DEFAULT)
		span = shared ? CACHE_SPAN_LLC : CACHE_SPAN_CORE;
	switch (span) {
	case CACHE_SPAN_CORE:
		return c->core;
	case CACHE_SPAN_PACKAGE:
		return c->package;
	case CACHE_SPAN_CLUSTER:
		return c->cluster;
	default:
		return c->llc;
	}
}

static struct cache_counters *l2_of(unsigned int cpu)
{
	return cache_cpus[cpu].l2;
}

static struct cache_counters *llc_of(unsigned int cpu)
{
	return cache_cpus[cpu].llc;
}

static void free_cpus(void)
{
	for (unsigned int cpu = 0; cpu < nr_cache_cpus; cpu++)
		free(cache_cpus[cpu].freed.mark);
	free(cache_cpus);
	cache_cpus = NULL;
	nr_cache_cpus = 0;
}

void cache_init(void)
{
	const struct topology *t = machine.topo;
	unsigned int nl2 = 1, nllc = 1;

	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		nl2 = max(nl2, span_id(t->cache_l2_span, cpu, false) + 1);
		nllc = max(nllc, span_id(t->cache_llc_span, cpu, true) + 1);
	}
	cache_destroy();
	l2s = xcalloc(nl2, sizeof(*l2s));
	llcs = xcalloc(nllc, sizeof(*llcs));
	/* each CPU's caches found once here, not by the topology on every access */
	cache_cpus = xcalloc(max(t->nr_cpus, 1U), sizeof(*cache_cpus));
	nr_cache_cpus = t->nr_cpus;
	for (unsigned int cpu = 0; cpu < t->nr_cpus; cpu++) {
		cache_cpus[cpu].l2 = &l2s[span_id(t->cache_l2_span, cpu, false)];
		cache_cpus[cpu].llc = &llcs[span_id(t->cache_llc_span, cpu, true)];
	}
}

void cache_destroy(void)
{
	free_cpus();
	free(l2s);
	free(llcs);
	l2s = llcs = NULL;
}

void cache_freed_make_room(struct cache_cpu *c)
{
	struct cache_freed *f = &c->freed;
	u64 capacity = machine.cost->cache_l2_kb * 1024;
	u64 *mark;

	if (!f->cap) {
		f->mark = xcalloc(CACHE_FREED_MIN, sizeof(*f->mark));
		f->cap = CACHE_FREED_MIN;
		return;
	}
	/*
	 * Full. Once a capacity has been touched since an entry's mark,
	 * cache_surviving() keeps nothing of it, which is what a forgotten
	 * one pays: forget every such entry from the oldest up (the marks
	 * grow towards the top), so that the next pushes find room inline.
	 */
	while (f->top && c->l2->touched - f->mark[(f->head - f->top) & (f->cap - 1)] >= capacity) {
		f->top--;
		f->forgotten++;
	}
	if (f->top < f->cap)
		return;
	if (f->cap == CACHE_FREED_MAX) {
		/* head is the oldest entry's slot, which the push reuses */
		f->top--;
		f->forgotten++;
		return;
	}
	/* still warm: twice the room, the entries oldest first from slot 0 */
	mark = xcalloc((size_t)f->cap * 2, sizeof(*mark));
	memcpy(mark, f->mark + f->head, (size_t)(f->cap - f->head) * sizeof(*mark));
	memcpy(mark + (f->cap - f->head), f->mark, (size_t)f->head * sizeof(*mark));
	free(f->mark);
	f->mark = mark;
	f->head = f->cap;
	f->cap *= 2;
}

u32 cache_freed_capacity(unsigned int cpu)
{
	return cache_cpus[cpu].freed.cap;
}

u64 cache_llc_touched(unsigned int cpu)
{
	return llc_of(cpu)->touched;
}

u64 cache_l2_occupancy(unsigned int cpu)
{
	return l2_of(cpu)->occupancy;
}

u64 cache_llc_occupancy(unsigned int cpu)
{
	return llc_of(cpu)->occupancy;
}

static u64 footprint_bytes(const struct cache_footprint *f)
{
	return f->bytes ? f->bytes : CACHE_DEFAULT_FOOTPRINT;
}

/*
 * What of @part of a footprint of @bytes survives in @c since @mark, at
 * @capacity: the others' occupancy leaves the whole footprint out.
 */
static u64 surviving_part(const struct cache_counters *c, u64 mark, u64 bytes, u64 part,
			  u64 capacity)
{
	u64 others = c->occupancy > bytes ? c->occupancy - bytes : 0;

	if (mark < c->flushed)
		return 0;

	return cache_surviving(part, min(c->touched - mark, others), capacity);
}

/* What of @bytes survives in @c since @mark, at @capacity. */
static u64 surviving(const struct cache_counters *c, u64 mark, u64 bytes, u64 capacity)
{
	return surviving_part(c, mark, bytes, bytes, capacity);
}

/*
 * The bytes of a footprint of @bytes back on the private cache @l2 it
 * left at @mark that the L1 in front of it no longer holds, of the
 * @in_l2 that @l2 does: the L1 keeps at most its capacity of it.
 */
static u64 l1_refilled(const struct cache_counters *l2, u64 mark, u64 bytes, u64 in_l2)
{
	u64 capacity = machine.cost->cache_l1_kb * 1024;
	u64 part = min(bytes, capacity);

	if (!capacity)
		return 0;
	return min(part, in_l2) - min(surviving_part(l2, mark, bytes, part, capacity), in_l2);
}

u64 cache_switch_in(struct cache_footprint *f, unsigned int cpu, struct cache_refill *out)
{
	const struct cost_model *c = machine.cost;
	const struct topology *t = machine.topo;
	u64 bytes = footprint_bytes(f);
	struct cache_counters *l2 = l2_of(cpu), *llc = llc_of(cpu);
	unsigned int node = t->cpus[cpu].node;
	struct cache_refill r = { 0 };
	u64 in_l2 = 0;

	if (f->cpu < 0) {
		/* first run: the footprint is created here, paid by fork/exec */
		f->home_node = node;
		l2->occupancy += bytes;
		llc->occupancy += bytes;
	} else {
		unsigned int old = (unsigned int)f->cpu;
		struct cache_counters *old_l2 = l2_of(old), *old_llc = llc_of(old);
		/*
		 * What is left of it in the private and shared caches it last
		 * ran under. Both evict its least recently used lines first, so
		 * what survives in each is a prefix of the same order: the
		 * larger amount is everything that survives anywhere there.
		 */
		u64 res_l2 = surviving(old_l2, f->l2_mark, bytes, c->cache_l2_kb * 1024);
		u64 res_llc = surviving(old_llc, f->llc_mark, bytes, c->cache_llc_kb * 1024);
		u64 near = max(res_l2, res_llc), fetched, mem;

		if (old_l2 == l2) {
			in_l2 = res_l2;
			r.from_l2 = l1_refilled(l2, f->l2_mark, bytes, in_l2);
		}
		fetched = near - in_l2;
		if (old_llc == llc)
			r.from_llc = fetched;
		else if (t->cpus[old].package == t->cpus[cpu].package && t->cpus[old].node == node)
			r.from_xllc = fetched;
		else
			r.from_remote = fetched;
		mem = bytes - near;
		if (f->home_node == node)
			r.from_mem = mem;
		else
			r.from_mem_remote = mem;
		r.ns = DIV_ROUND_UP(r.from_llc * c->llc_hit +
					    r.from_xllc * c->cacheline[DIST_PACKAGE] +
					    r.from_remote * c->cacheline[DIST_NUMA] +
					    r.from_mem * c->mem_latency +
					    r.from_mem_remote * c->mem_remote_latency,
				    (u64)CACHE_LINE * max(c->line_mlp, 1ULL)) +
		       DIV_ROUND_UP(r.from_l2 * c->l1_refill, 1024ULL);
		if (old_l2 != l2) {
			old_l2->occupancy -= bytes;
			l2->occupancy += bytes;
		}
		if (old_llc != llc) {
			old_llc->occupancy -= bytes;
			llc->occupancy += bytes;
		}
	}
	/* it touches its whole working set here; what missed the L2 looks in the LLC */
	l2->touched += bytes;
	llc->touched += bytes - in_l2;
	f->cpu = (int)cpu;
	f->l2_mark = l2->touched;
	f->llc_mark = llc->touched;
	if (out)
		*out = r;
	return r.ns;
}

void cache_flush_private(unsigned int cpu)
{
	struct cache_counters *l2 = l2_of(cpu);

	l2->touched += machine.cost->cache_l2_kb * 1024;
	l2->flushed = l2->touched;
}

u64 cache_llc_refill_ns(const struct cost_model *c, u64 bytes)
{
	return DIV_ROUND_UP(bytes * c->llc_hit, (u64)CACHE_LINE * max(c->line_mlp, 1ULL));
}

void cache_switch_out(struct cache_footprint *f, unsigned int cpu)
{
	if (f->cpu != (int)cpu)
		return;
	f->l2_mark = l2_of(cpu)->touched;
	f->llc_mark = llc_of(cpu)->touched;
}

void cache_task_exit(struct cache_footprint *f)
{
	u64 bytes = footprint_bytes(f);

	if (f->cpu < 0)
		return;
	l2_of((unsigned int)f->cpu)->occupancy -= bytes;
	llc_of((unsigned int)f->cpu)->occupancy -= bytes;
	f->cpu = -1;
}
