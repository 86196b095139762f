/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scheduler features, as in /sys/kernel/debug/sched/features.
 *
 * One X-macro table: SCHED_FEAT(NAME, default, "what it does"). Kernel code
 * tests a feature with sched_feat(NAME). Defaults are Linux v6.18's; older or
 * proposed behaviours are features that are off by default.
 */
#ifndef SCHEDLAB_KERNEL_FEATURES_H
#define SCHEDLAB_KERNEL_FEATURES_H

#include "sim/types.h"
#include <stdio.h>

#define SCHED_FEATURES(F)                                                                    \
	F(PLACE_LAG, true, "preserve lag across sleep and wakeup (EEVDF placement)")        \
	F(PLACE_DEADLINE_INITIAL, true, "new tasks start with half a slice of deadline")    \
	F(PLACE_REL_DEADLINE, true, "keep the relative deadline when a task migrates")      \
	F(RUN_TO_PARITY, true, "protect curr from wakeup preemption until its slice ends")  \
	F(PREEMPT_SHORT, true, "a wakee with a shorter slice may cancel RUN_TO_PARITY")     \
	F(DELAY_DEQUEUE, true, "keep ineligible sleepers queued until picked or woken")     \
	F(DELAY_ZERO, true, "clip positive lag to 0 when a delayed task leaves")            \
	F(WAKEUP_PREEMPTION, true, "allow wakeup-time preemption of curr")                  \
	F(UTIL_EST, true, "use estimated utilisation (util_est)")                           \
	F(SWB_IDLE_CORE, true, "should_we_balance: prefer an idle CPU on an idle core (v6.6+)") \
	F(SWB_SMT_SKIP, true, "should_we_balance: skip the SMT siblings of a busy core (v6.6)") \
	F(UTIL_RUNNABLE_BOOST, true, "busiest-rq util search uses max(util, runnable) (v6.5)") \
	F(NEWIDLE_COST, true, "limit newidle balance by its measured cost (v3.13+)")        \
	F(NEWIDLE_MIGRATION_COST_BAILOUT, false, "skip newidle balance when avg_idle < migration_cost (v3.13-v5.15)") \
	F(NEWIDLE_RATE_LIMIT, false, "skip newidle balance while it runs more often than a limit (2013 RFC)") \
	F(NI_RANDOM, false, "skip newidle domains in proportion to their success (v6.19)") \
	F(WA_IDLE, true, "wake_affine: prefer an idle waker or previous CPU")               \
	F(WA_WEIGHT, true, "wake_affine: compare effective loads")                          \
	F(WA_BIAS, true, "wake_affine: bias the load comparison by imbalance_pct")          \
	F(SIS_UTIL, true, "select_idle_cpu: scan fewer CPUs as LLC utilisation rises")      \
	F(TTWU_QUEUE, true, "queue remote wakeups on the target CPU's wakelist")            \
	F(TTWU_QUEUE_IDLE, true, "same-LLC wakeups to an empty rq use the wakelist (f3dd3f674555)") \
	F(TTWU_QUEUE_ON_CPU_LE1, false, "with NO_TTWU_QUEUE_IDLE: on_cpu wakee queues if nr_running <= 1 (v5.8)") \
	F(SM_IDLE, true, "schedule_idle() with nothing queued skips the pick (3dcac251b066)")

enum sched_feat_id {
#define SF_ENUM(name, def, help) __SCHED_FEAT_##name,
	SCHED_FEATURES(SF_ENUM)
#undef SF_ENUM
	__SCHED_FEAT_NR,
};

struct sched_feat_info {
	const char *name;
	bool def;
	const char *help;
};

extern const struct sched_feat_info sched_feat_info[__SCHED_FEAT_NR];
extern bool sysctl_sched_features[__SCHED_FEAT_NR];

#define sched_feat(x) (sysctl_sched_features[__SCHED_FEAT_##x])

/* Reset every feature to its default. */
void sched_feat_reset(void);

/*
 * Apply "A,NO_B,C" like writes to /sys/kernel/debug/sched/features.
 * Returns 0, or -1 with "unknown scheduler feature 'X'" in @err.
 */
int sched_feat_apply(const char *list, char *err, size_t errlen);

/* The effective set, kernel order, as "A NO_B C" (the debugfs file's form). */
void sched_feat_print(FILE *out, const char *sep);

#endif
