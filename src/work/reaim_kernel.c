// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel locks AIM7's processes share (work/reaim_kernel.h). Which
 * paths take which lock is read in Linux v6.18 (docs/benchmarks.md,
 * "reaim": "The kernel locks"):
 *
 * - fork: dup_mmap() walks the parent's VMAs; each one with an anon_vma is
 *   anon_vma_fork()ed, which takes the root anon_vma's rwsem twice (the
 *   chain's clone, then the new anon_vma's link), and each file-backed one
 *   is inserted into its file's i_mmap tree under i_mmap_rwsem.
 * - exit (and the old mm of an execve()): free_pgtables() unlinks each VMA's
 *   anon_vma chain under the root's rwsem, once per VMA, and removes the
 *   file VMAs from i_mmap in batches per file (unlink_file_vma_batch_*()).
 *   Each of the process's own anon_vmas, empty then, is freed after the
 *   unlock (put_anon_vma() -> anon_vma_free()), which takes the root's lock
 *   and drops it again, with nothing under it, if anyone holds or waits for
 *   it at that moment (rwsem_is_locked(); mutex_is_locked() before
 *   5a505085f043, whose diff changes that test: v3.7 to v6.18 all do it),
 *   to flush a reader that found the anon_vma through a page.
 * - execve(): the new program's and the interpreter's segments and, from
 *   ld.so, libc's, each a mapping inserted under its file's i_mmap_rwsem.
 * - creat() of a new file, link() and unlink() in a directory: the
 *   directory's i_rwsem, exclusively. creat() of a file that exists does
 *   not take it since lookup_fast_for_open() (v6.18; 3.10 took i_mutex
 *   for every O_CREAT open).
 *
 * The users of a run are forked by one driver, so their anonymous VMAs and
 * those of the children they fork chain to the driver's root anon_vma: one
 * rwsem for the whole run, which exec replaces by a root of the process's
 * own (not modelled: nobody else takes it). A VMA an AIM7 test creates
 * after the fork (brk) is not merged with an inherited one (the
 * list_is_singular() test of vma_had_uncowed_parents(), since 965f55dea0e3,
 * v3.5), so brk_test and page_test do not take the shared root.
 *
 * A path takes each lock once, with all of its operations on that lock
 * inside: the kernel takes it once per VMA (dup_mmap(), free_pgtables()) or
 * once per file (the unlink batch). The lock's busy fraction is kept, its
 * acquisition count divided by about the VMAs per file (docs/benchmarks.md
 * says what that means for contention).
 */
#include "work/reaim_kernel.h"

#include "kernel/features.h"
#include "sim/machine.h"

#include <string.h>

/*
 * The address space of a small dynamically linked C program (the reaim
 * driver, sh, ls, true, sync, sleep): /proc/PID/smaps of one on Debian 12
 * (glibc 2.36, x86-64): the program, libc and ld.so each 5 file VMAs
 * (r--p, r-xp, r--p, relro r--p, rw-p); 10 VMAs with anonymous pages and
 * so an anon_vma (the relro and rw-p VMAs of each file, the heap, libc's
 * two anonymous VMAs, ld.so's and the stack).
 */
#define RK_FILE_VMAS 5
#define RK_ANON_VMAS 10

/*
 * Work under the lock per operation, in cycles at 2.4 GHz (the reaim
 * models' unit, work/bench_reaim.c), estimates from the code paths: an
 * anon_vma_chain allocated (GFP_NOWAIT slab) and linked, or unlinked and
 * freed, with the interval tree's rebalancing; a VMA inserted into or
 * removed from an i_mmap interval tree; a directory entry created on tmpfs
 * (d_alloc_parallel(), shmem_mknod(): a new inode, its security and times,
 * d_instantiate(), the directory's times) or linked or removed. The tree
 * walk's cache accesses are added from the machine (rk_hold_ns()).
 */
#define RK_AVC_OP_CYC 400ULL
#define RK_I_MMAP_OP_CYC 200ULL
#define RK_DIR_OP_CYC 2500ULL
#define RK_CYC_NS(c) ((c)*10 / 24)
/* lines of a tree another CPU wrote last, per operation: the leaf and its parent */
#define RK_TREE_DIRTY_LINES 2

/*
 * lock_stat's names: the lock (the root anon_vma's rwsem, a mapping's
 * i_mmap_rwsem, an inode's i_rwsem) and whose it is
 */
static const char *const rk_lock_names[RKL_NR] = {
	[RKL_ANON_ROOT] = "anon_vma:reaim",	     [RKL_DIR] = "i_rwsem:DISKDIR",
	[RKL_FILE0 + RKF_REAIM] = "i_mmap:reaim",    [RKL_FILE0 + RKF_SH] = "i_mmap:sh",
	[RKL_FILE0 + RKF_LS] = "i_mmap:ls",	     [RKL_FILE0 + RKF_TRUE] = "i_mmap:true",
	[RKL_FILE0 + RKF_SYNC] = "i_mmap:sync",	     [RKL_FILE0 + RKF_SLEEP] = "i_mmap:sleep",
	[RKL_FILE0 + RKF_LIBC] = "i_mmap:libc.so.6", [RKL_FILE0 + RKF_LDSO] = "i_mmap:ld.so",
};

/* the same locks as the mutexes of older kernels */
static const char *const rk_mutex_names[RKL_NR] = {
	[RKL_ANON_ROOT] = "anon_vma_mutex:reaim",
	[RKL_DIR] = "i_mutex:DISKDIR",
	[RKL_FILE0 + RKF_REAIM] = "i_mmap_mutex:reaim",
	[RKL_FILE0 + RKF_SH] = "i_mmap_mutex:sh",
	[RKL_FILE0 + RKF_LS] = "i_mmap_mutex:ls",
	[RKL_FILE0 + RKF_TRUE] = "i_mmap_mutex:true",
	[RKL_FILE0 + RKF_SYNC] = "i_mmap_mutex:sync",
	[RKL_FILE0 + RKF_SLEEP] = "i_mmap_mutex:sleep",
	[RKL_FILE0 + RKF_LIBC] = "i_mmap_mutex:libc.so.6",
	[RKL_FILE0 + RKF_LDSO] = "i_mmap_mutex:ld.so",
};

void rk_locks_init(struct rk_locks *l)
{
	for (int i = 0; i < RKL_NR; i++) {
		l->is_mutex[i] = i == RKL_DIR	? !sched_feat(I_RWSEM) :
				 i >= RKL_FILE0 ? !sched_feat(I_MMAP_RWSEM) :
						  !sched_feat(ANON_VMA_RWSEM);
		if (l->is_mutex[i])
			mutex_init(&l->mutex[i], rk_mutex_names[i]);
		else
			init_rwsem(&l->sem[i], rk_lock_names[i]);
		l->nodes[i] = 0;
	}
	l->held_ns = 0;
}

/* an interval tree (augmented rbtree) of @nodes entries: the levels a walk visits */
static unsigned int tree_depth(u64 nodes)
{
	return nodes ? 64 - (unsigned int)__builtin_clzll(nodes) : 0;
}

u64 rk_hold_ns(enum rk_lock lock, unsigned int ops, u64 nodes)
{
	u64 per_op;

	if (lock == RKL_DIR)
		return ops * RK_CYC_NS(RK_DIR_OP_CYC);
	/*
	 * The walk reads a node per level: the upper levels, rarely written
	 * (a rebalance rotates near the leaves), stay shared in the LLC; the
	 * insertion or removal point is a line the last holder, on another
	 * CPU, wrote: a miss (RK_TREE_DIRTY_LINES of them).
	 */
	per_op = RK_CYC_NS(lock == RKL_ANON_ROOT ? RK_AVC_OP_CYC : RK_I_MMAP_OP_CYC) +
		 tree_depth(nodes) * machine.cost->llc_hit +
		 RK_TREE_DIRTY_LINES * machine.cost->mem_latency;
	return ops * per_op;
}

static void add_step(struct rk_path *kp, enum rk_lock lock, unsigned int ops, int nodes)
{
	kp->step[kp->n++] = (struct rk_step){ .lock = (unsigned char)lock,
					      .ops = (unsigned char)ops,
					      .nodes = (signed char)nodes };
}

/* anon_vma_free()'s lock and unlock of the root, nothing under it, if it is locked */
static void add_free_flush(struct rk_path *kp)
{
	kp->step[kp->n++] = (struct rk_step){ .lock = RKL_ANON_ROOT, .if_locked = true };
}

static void path_start(struct rk_path *kp)
{
	kp->n = kp->i = kp->phase = 0;
}

/* a process's mappings: its program's, then ld.so's and libc's */
static void add_files(struct rk_path *kp, enum rk_file prog, unsigned int ops, int nodes)
{
	add_step(kp, RKL_FILE0 + prog, ops, nodes);
	add_step(kp, RKL_FILE0 + RKF_LDSO, ops, nodes);
	add_step(kp, RKL_FILE0 + RKF_LIBC, ops, nodes);
}

void rk_path_fork(struct rk_path *kp, const struct rk_proc *parent)
{
	path_start(kp);
	/* anon_vma_fork(): the chain's clone and the new anon_vma's link */
	if (parent->in_root)
		add_step(kp, RKL_ANON_ROOT, 2 * RK_ANON_VMAS, 1);
	add_files(kp, parent->prog, RK_FILE_VMAS, RK_FILE_VMAS);
}

static void add_exit(struct rk_path *kp, const struct rk_proc *p)
{
	if (p->in_root) {
		add_step(kp, RKL_ANON_ROOT, RK_ANON_VMAS, -1);
		add_free_flush(kp);
	}
	add_files(kp, p->prog, RK_FILE_VMAS, -RK_FILE_VMAS);
}

void rk_path_exit(struct rk_path *kp, const struct rk_proc *p)
{
	path_start(kp);
	add_exit(kp, p);
}

void rk_path_exec(struct rk_path *kp, const struct rk_proc *p, enum rk_file to)
{
	path_start(kp);
	add_exit(kp, p);
	add_files(kp, to, RK_FILE_VMAS, RK_FILE_VMAS);
}

void rk_path_dir(struct rk_path *kp)
{
	path_start(kp);
	add_step(kp, RKL_DIR, 1, 0);
}

static bool rk_is_locked(const struct rk_locks *l, enum rk_lock lock)
{
	return l->is_mutex[lock] ? mutex_is_locked(&l->mutex[lock]) : rwsem_is_locked(&l->sem[lock]);
}

bool rk_path_next(struct rk_locks *l, struct rk_path *kp, struct op_desc *op)
{
	const struct rk_step *st;

	/* a step taken only if its lock is busy, when it is not: nothing */
	while (kp->i < kp->n && !kp->phase && kp->step[kp->i].if_locked &&
	       !rk_is_locked(l, kp->step[kp->i].lock))
		kp->i++;
	if (kp->i == kp->n)
		return false;
	st = &kp->step[kp->i];
	switch (kp->phase++) {
	case 0:
		if (l->is_mutex[st->lock])
			op_mutex(op, OP_MUTEX_LOCK, &l->mutex[st->lock]);
		else
			op_rwsem(op, OP_DOWN_WRITE, &l->sem[st->lock]);
		return true;
	case 1: {
		/* the walk's depth is the tree's as the lock holder finds it */
		u64 hold = st->ops ? rk_hold_ns(st->lock, st->ops, l->nodes[st->lock]) : 0;

		op_run(op, hold);
		l->held_ns += hold;
		if (st->nodes >= 0)
			l->nodes[st->lock] += (u64)st->nodes;
		else if (l->nodes[st->lock] >= (u64)-st->nodes)
			l->nodes[st->lock] -= (u64)-st->nodes;
		else
			l->nodes[st->lock] = 0; /* the driver's own, never counted */
		return true;
	}
	default:
		if (l->is_mutex[st->lock])
			op_mutex(op, OP_MUTEX_UNLOCK, &l->mutex[st->lock]);
		else
			op_rwsem(op, OP_UP_WRITE, &l->sem[st->lock]);
		kp->phase = 0;
		kp->i++;
		return true;
	}
}
