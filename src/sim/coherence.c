// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cache-line ownership (see coherence.h). A MESI-like directory reduced to
 * what costs time: Modified on one CPU (owner), or Shared by a few CPUs.
 */
#include "sim/coherence.h"

#include "sim/machine.h"

#include <string.h>

struct coherence_stats coherence_stats;

_Static_assert(NR_CPUS - 1 <= UINT16_MAX, "cache_line.sharer holds CPU numbers in 16 bits");
_Static_assert(sizeof(((struct cache_line *)0)->sharer) == sizeof(u64) && CL_MAX_SHARERS == 4,
	       "add_sharer() and cl_held_clean() take the sharer directory as one 64-bit word");

void cache_line_init(struct cache_line *l, unsigned int lines)
{
	memset(l, 0, sizeof(*l));
	l->owner = -1;
	l->lines = (u16)(lines ? lines : 1);
}

/*
 * @lines lines that each take @one ns: the first pays in full, the rest
 * overlap line_mlp at a time (a core keeps several misses in flight). The
 * division is by a constant of the machine: a multiply by its reciprocal
 * (machine.line_mlp_inv) when the dividend allows, exact either way.
 */
static inline u64 group_cost(u64 one, unsigned int lines)
{
	u64 mlp, n;

	if (lines <= 1)
		return lines ? one : 0;
	mlp = machine.cost->line_mlp ? machine.cost->line_mlp : 1;
	n = one * (lines - 1) + mlp - 1;
	if (mlp == machine.line_mlp && machine.line_mlp_inv && n < (1ULL << 32))
		return one + (u64)(((unsigned __int128)n * machine.line_mlp_inv) >> 64);
	return one + n / mlp;
}

/* @cpu reads the line: the newest sharer, the oldest forgotten if full */
static inline void add_sharer(struct cache_line *l, unsigned int cpu)
{
	if (l->nr_sharers == CL_MAX_SHARERS) {
		/* the four entries are one 64-bit word: one shift drops the oldest */
		u64 all;

		memcpy(&all, l->sharer, sizeof(all));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		all >>= 16;
#else
		all <<= 16;
#endif
		memcpy(l->sharer, &all, sizeof(all));
		l->nr_sharers--;
	}
	l->sharer[l->nr_sharers++] = cpu;
}

/*
 * The nearest sharer of a clean line, as a distance from @cpu, which is
 * not one of them (a read miss: cl_read_n() looked first).
 */
static inline enum cpu_dist nearest_sharer(const struct cache_line *l, unsigned int cpu)
{
	enum cpu_dist best = NR_DIST;
	const u64 *code = machine.dist_code;

	if (likely(code)) {
		/* the nearest is the smallest XOR with @cpu's code (cpu_dist_of_xor()) */
		u64 me = code[cpu], x = UINT64_MAX;

		/*
		 * A full directory (a line every balancing CPU reads) as a
		 * tree of three independent minima rather than a loop
		 */
		if (l->nr_sharers == CL_MAX_SHARERS) {
			u64 a = code[l->sharer[0]] ^ me, b = code[l->sharer[1]] ^ me;
			u64 c = code[l->sharer[2]] ^ me, d = code[l->sharer[3]] ^ me;

			a = b < a ? b : a;
			c = d < c ? d : c;
			return cpu_dist_of_xor(c < a ? c : a);
		}
		for (unsigned int i = 0; i < l->nr_sharers; i++) {
			u64 y = code[l->sharer[i]] ^ me;

			x = y < x ? y : x;
		}
		return l->nr_sharers ? cpu_dist_of_xor(x) : NR_DIST;
	}
	for (unsigned int i = 0; i < l->nr_sharers; i++) {
		enum cpu_dist d = cpu_dist(l->sharer[i], cpu);

		if (d < best)
			best = d;
	}
	return best;
}

/* the farthest other holder: a write waits for its invalidation */
static inline enum cpu_dist farthest_sharer(const struct cache_line *l, unsigned int cpu)
{
	enum cpu_dist worst = DIST_SELF;
	const u64 *code = machine.dist_code;

	if (likely(code)) {
		/* the OR of the XORs with @cpu's code is as far as the farthest */
		u64 me = code[cpu], x = 0;
		bool other = false;

		for (unsigned int i = 0; i < l->nr_sharers; i++) {
			x |= code[l->sharer[i]] ^ me;
			other |= l->sharer[i] != cpu;
		}
		return x ? cpu_dist_of_xor(x) : other ? DIST_SMT : DIST_SELF;
	}
	for (unsigned int i = 0; i < l->nr_sharers; i++) {
		enum cpu_dist d = cpu_dist(l->sharer[i], cpu);

		if (d > worst)
			worst = d;
	}
	return worst;
}

static inline u64 stall(u64 one, unsigned int lines)
{
	u64 ns = group_cost(one, lines);

	coherence_stats.stall_ns += ns;
	charge_stall(ns);
	return ns;
}

static inline u64 transfer(enum cpu_dist d, unsigned int lines)
{
	coherence_stats.transfers++;
	return stall(machine.cost->cacheline[d], lines);
}

/*
 * A transfer of @l to the running CPU: if another is in flight at this
 * CPU's now, it waits for that one to land first. A transfer stamped later
 * than this CPU's now (its CPU ran ahead in a longer path) is not waited
 * for: in real time this CPU asked first.
 */
static inline __attribute__((always_inline)) u64 move_line(struct cache_line *l, enum cpu_dist d,
							unsigned int lines)
{
	struct sim_cpu *c = this_sim_cpu();
	u64 wait = 0, ns;

	if (l->moved_at <= c->t && c->t < l->busy_until) {
		wait = l->busy_until - c->t;
		coherence_stats.queued++;
		coherence_stats.queued_ns += wait;
		charge_stall(wait);
	}
	l->moved_at = c->t;
	ns = transfer(d, lines);
	l->busy_until = c->t;
	return wait + ns;
}

/* a clean copy held elsewhere: from the shared LLC if a sharer is in ours */
static inline u64 clean_fetch(enum cpu_dist d, unsigned int lines)
{
	if (d <= DIST_LLC) {
		coherence_stats.llc_hits++;
		return stall(machine.cost->llc_hit, lines);
	}
	return transfer(d, lines);
}

static inline u64 memory_fetch(unsigned int lines)
{
	coherence_stats.mem_reads++;
	return stall(machine.cost->mem_latency, lines);
}

u64 __cl_read_miss(struct cache_line *l, unsigned int cpu, unsigned int lines)
{
	u64 ns;

	if (l->owner >= 0) {
		/* modified elsewhere: the owner supplies it and keeps a clean copy */
		ns = move_line(l, cpu_dist((unsigned int)l->owner, cpu), lines);
		l->nr_sharers = 0;
		add_sharer(l, (unsigned int)l->owner);
		l->owner = -1;
	} else if (l->nr_sharers) {
		ns = clean_fetch(nearest_sharer(l, cpu), lines);
	} else {
		ns = memory_fetch(lines);
	}
	add_sharer(l, cpu);
	return ns;
}

u64 __cl_write_miss(struct cache_line *l, unsigned int cpu, unsigned int lines)
{
	u64 ns = 0;

	if (l->owner >= 0) {
		ns = move_line(l, cpu_dist((unsigned int)l->owner, cpu), lines);
	} else if (l->nr_sharers) {
		/* read-for-ownership: every other copy is invalidated first */
		enum cpu_dist d = farthest_sharer(l, cpu);

		if (d != DIST_SELF)
			ns = move_line(l, d, lines);
	} else {
		ns = memory_fetch(lines);
	}
	l->owner = (s32)cpu;
	l->nr_sharers = 0;
	return ns;
}

u64 cl_fetch(int from, unsigned int lines)
{
	unsigned int cpu = machine.this_cpu;

	if (!lines || (from >= 0 && (unsigned int)from == cpu))
		return 0;
	if (from < 0)
		return memory_fetch(lines);
	return transfer(cpu_dist((unsigned int)from, cpu), lines);
}
