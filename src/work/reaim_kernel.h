/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel locks AIM7's processes share, and the paths of their syscalls
 * that take them (docs/benchmarks.md, "reaim": "The kernel locks"): the
 * root anon_vma of the driver, which every user and every child forked from
 * one chains to; the i_mmap_rwsem of each program and library file the
 * processes map; the i_rwsem of the disk directory every user creates its
 * files in. Each is a struct rw_semaphore (kernel/locking.h), so waiting on
 * one spins or sleeps as v6.18's rwsem does; with NO_I_MMAP_RWSEM or
 * NO_I_RWSEM the file and directory locks are the mutexes they were before
 * v3.19 and v4.7.
 */
#ifndef SCHEDLAB_WORK_REAIM_KERNEL_H
#define SCHEDLAB_WORK_REAIM_KERNEL_H

#include "kernel/locking.h"
#include "work/work.h"

#include <stdbool.h>

/* the files AIM7's processes map: each has an address_space and its i_mmap tree */
enum rk_file {
	RKF_REAIM,
	RKF_SH,
	RKF_LS,
	RKF_TRUE,
	RKF_SYNC,
	RKF_SLEEP,
	RKF_LIBC,
	RKF_LDSO,
	RKF_NR
};

enum rk_lock {
	RKL_ANON_ROOT, /* the driver's root anon_vma->rwsem */
	RKL_DIR, /* DISKDIR's inode->i_rwsem */
	RKL_FILE0, /* + enum rk_file: that file's mapping->i_mmap_rwsem */
	RKL_NR = RKL_FILE0 + RKF_NR,
};

struct rk_locks {
	struct rw_semaphore sem[RKL_NR];
	struct mutex mutex[RKL_NR]; /* instead, where is_mutex[] */
	bool is_mutex[RKL_NR];
	/* what each protects holds this many entries: its tree walk's depth */
	u64 nodes[RKL_NR];
	u64 held_ns; /* work done under them, all paths: system time */
};

/* what a process is, for the locks its fork, exec and exit take */
struct rk_proc {
	enum rk_file prog; /* the program it runs */
	/* its anonymous VMAs chain to the driver's root anon_vma (forked, not exec'd) */
	bool in_root;
};

/* one lock taken once in a path: @ops tree operations under it */
struct rk_step {
	unsigned char lock; /* enum rk_lock */
	unsigned char ops;
	signed char nodes; /* entries the operations add (+) or remove (-), each */
	/* taken only if someone holds the lock or waits for it then (anon_vma_free()) */
	bool if_locked;
};

#define RK_MAX_STEPS 8

/* a kernel path in progress: its steps, each down_write, the hold, up_write */
struct rk_path {
	struct rk_step step[RK_MAX_STEPS];
	unsigned char n, i, phase;
};

/*
 * Initialise every lock of @l (named for --lock-stat) with empty trees, a
 * mutex or an rwsem as the features in force say.
 */
void rk_locks_init(struct rk_locks *l);

/*
 * Start a path in @kp: fork() by @parent (dup_mmap()), exit() of @p
 * (exit_mmap()), execve() of @to by @p (the old mm's exit_mmap(), then the
 * new program's, the interpreter's and libc's mappings), or a directory
 * entry created, unlinked or linked in DISKDIR. Replaces any path in @kp.
 */
void rk_path_fork(struct rk_path *kp, const struct rk_proc *parent);
void rk_path_exit(struct rk_path *kp, const struct rk_proc *p);
void rk_path_exec(struct rk_path *kp, const struct rk_proc *p, enum rk_file to);
void rk_path_dir(struct rk_path *kp);

/* Set @op to the path's next operation; false when the path is done. */
bool rk_path_next(struct rk_locks *l, struct rk_path *kp, struct op_desc *op);

/* the hold of @ops operations on a tree of @nodes entries, ns (exposed for tests) */
u64 rk_hold_ns(enum rk_lock lock, unsigned int ops, u64 nodes);

#endif
