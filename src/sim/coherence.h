/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Cache-line ownership: shared kernel data as named groups of cache lines,
 * each with an owner (the CPU holding it modified) or a few sharers (CPUs
 * holding a clean copy). A kernel path declares what it reads and writes;
 * an access that finds the line elsewhere pays the transfer for the
 * distance between the CPUs (cacheline[dist]), a read of a clean line that
 * another CPU of this LLC holds pays llc_hit, a line no CPU holds pays
 * mem_latency, and a line this CPU holds costs nothing beyond the path's
 * own compute. All of it is memory-system latency (charge_stall()).
 *
 * The sharer set is a small directory of CL_MAX_SHARERS entries, most
 * recent last: a line read by more CPUs than that forgets the oldest, which
 * then pays again (as a line falls out of a private cache). So every access
 * is O(CL_MAX_SHARERS), whatever the CPU count. docs/cost-model.md,
 * "Cache-line ownership", has the model and the parameters' sources.
 */
#ifndef SCHEDLAB_SIM_COHERENCE_H
#define SCHEDLAB_SIM_COHERENCE_H

#include "sim/types.h"

#define CL_MAX_SHARERS 4
#define CL_BYTES 64

struct cache_line {
	s32 owner; /* CPU holding it modified, -1: none */
	u16 lines; /* 64-byte lines in this group */
	u16 nr_sharers;
	/*
	 * CPUs with a clean copy, oldest first; 16 bits hold any CPU of
	 * NR_CPUS (8192), and keep what a hit reads in the first 16 bytes
	 * of a 32-byte structure: the simulator's own host cache misses on
	 * these are much of its time (docs/performance.md)
	 */
	u16 sharer[CL_MAX_SHARERS];
	/*
	 * The last transfer: from moved_at to busy_until the line is in
	 * flight to its new holder, and a CPU that wants it meanwhile waits
	 * for the end (a line is in one place at a time).
	 */
	u64 moved_at;
	u64 busy_until;
};

/* A group of @lines lines that no CPU holds yet. */
void cache_line_init(struct cache_line *l, unsigned int lines);

/*
 * The running CPU reads or writes group @l: the stall is charged to it
 * (charge_stall()) and returned. A write leaves the running CPU the only
 * holder.
 */
/*
 * cl_read(l), cl_write(l), and cl_read_n(l, lines), cl_write_n(l, lines)
 * for the first @lines lines of a group that varies in size (a buffer), are
 * inline in sim/machine.h (they need the running CPU): a line this CPU
 * already holds costs a compare. These are the misses.
 */
u64 __cl_read_miss(struct cache_line *l, unsigned int cpu, unsigned int lines);
u64 __cl_write_miss(struct cache_line *l, unsigned int cpu, unsigned int lines);

/*
 * The running CPU fetches @lines lines last written by CPU @from (-1: in
 * memory), with the overlap the core gets on lines touched together
 * (line_mlp); charged and returned. For data tracked by its last writer
 * only (the skbs of a socket queue, recycled slab objects).
 */
u64 cl_fetch(int from, unsigned int lines);

/* Bytes to lines, rounded up. */
static inline unsigned int cl_lines(u64 bytes)
{
	return (unsigned int)((bytes + CL_BYTES - 1) / CL_BYTES);
}

/* Machine-wide totals for the run record. */
struct coherence_stats {
	u64 transfers; /* accesses that moved a line between CPUs */
	u64 llc_hits; /* clean lines read from a shared LLC */
	u64 mem_reads; /* lines no CPU held */
	u64 stall_ns; /* all of the above, ns */
	u64 queued; /* transfers that waited for one in flight */
	u64 queued_ns; /* time they waited */
};

extern struct coherence_stats coherence_stats;

#endif
