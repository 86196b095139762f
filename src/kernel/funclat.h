/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Simulated time per call of selected kernel functions, for
 * `--funclatency FUNC[,FUNC]` (bcc funclatency's log2 histograms).
 *
 * A traced function reads the running CPU's cursor on entry and exit: the
 * difference is the simulated time it took, costs it charged and lock spins
 * included. Untraced functions pay one predictable branch.
 */
#ifndef SCHEDLAB_KERNEL_FUNCLAT_H
#define SCHEDLAB_KERNEL_FUNCLAT_H

#include "sim/machine.h"

/* the functions that can be traced: the kernel's names */
#define FUNCLAT_FUNCS(F)          \
	F(__schedule)             \
	F(try_to_wake_up)         \
	F(select_task_rq_fair)    \
	F(sched_tick)             \
	F(should_we_balance)      \
	F(sched_balance_rq)       \
	F(sched_balance_newidle)  \
	F(sched_balance_domains)

enum funclat_id {
#define FL_ENUM(name) FL_##name,
	FUNCLAT_FUNCS(FL_ENUM)
#undef FL_ENUM
	NR_FUNCLAT,
};

#define FUNCLAT_BUCKETS 65

struct funclat {
	bool enabled;
	u64 calls;
	u64 total_ns;
	u64 hist[FUNCLAT_BUCKETS];	/* bcc's bpf_log2l() buckets */
};

extern struct funclat funclat[NR_FUNCLAT];
extern const char *const funclat_names[NR_FUNCLAT];

/* Disable all and clear the counters. */
void funclat_reset(void);
/* Enable "a,b,c"; 0, or -1 with "unknown function 'x'" in @err. */
int funclat_enable(const char *list, char *err, size_t errlen);
void funclat_record(enum funclat_id id, u64 ns);

static inline u64 funclat_entry(void)
{
	return cpu_now();
}

static inline void funclat_exit(enum funclat_id id, u64 t0)
{
	if (unlikely(funclat[id].enabled))
		funclat_record(id, cpu_now() - t0);
}

#endif
