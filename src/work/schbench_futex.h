/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The futex handshake both schbench versions use between a message thread
 * and its workers (schbench.c's fpost()/fwait() on a per-thread futex,
 * BLOCKED or RUNNING), as task-program operations, and the tool's
 * gettimeofday() in microseconds.
 */
#ifndef SCHEDLAB_WORK_SCHBENCH_FUTEX_H
#define SCHEDLAB_WORK_SCHBENCH_FUTEX_H

#include "work/work.h"
#include "sim/machine.h"

#define FUTEX_BLOCKED 0
#define FUTEX_RUNNING 1

static inline u64 gtod_us(void)
{
	return cpu_now() / NSEC_PER_USEC;
}

/* fpost(): a FUTEX_WAKE only if the cmpxchg BLOCKED -> RUNNING succeeded */
static inline bool fpost(struct futex *f, struct op_desc *op)
{
	if (f->val != FUTEX_BLOCKED)
		return false;
	f->val = FUTEX_RUNNING;
	*op = (struct op_desc){ .kind = OP_FUTEX_WAKE, .futex = f, .val = 1 };
	return true;
}

/* fwait(): true (with a FUTEX_WAIT in @op) while the futex is not posted */
static inline bool fwait(struct futex *f, struct op_desc *op)
{
	if (f->val == FUTEX_RUNNING) {
		f->val = FUTEX_BLOCKED;
		return false;
	}
	*op = (struct op_desc){ .kind = OP_FUTEX_WAIT, .futex = f, .val = FUTEX_BLOCKED };
	return true;
}

#endif
