// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel locks of AIM7's processes (work/reaim_kernel.h): which locks
 * fork, exit, execve and a directory operation take and how much work each
 * does under them (exit's anon_vma_free() flush of the root only when it is
 * locked), that a path emits down_write, its hold and up_write per
 * lock, and that the trees' sizes follow the processes in them and
 * lengthen the holds. A whole run's contention is tests/cli/cases/reaim.sh's
 * (--lock-stat, --check).
 */
#include "test_util.h"

#include "kernel/features.h"
#include "sim/machine.h"
#include "topo/topology.h"
#include "work/reaim_kernel.h"

#include <stdlib.h>

static struct topology *topo;

static void machine_up(void)
{
	char err[256];

	topo = topology_load("smp4", err, sizeof(err));
	assert_non_null(topo);
	sched_feat_reset();
	machine_init(topo, &topo->cost, 1);
}

static void machine_down(void)
{
	machine_destroy();
	topology_free(topo);
}

static void test_fork_exit_exec_steps(void **state)
{
	const struct rk_proc user = { RKF_REAIM, true }, sh = { RKF_SH, false };
	struct rk_path kp;

	(void)state;
	/* a user's fork: two anon_vma_fork() locks per anon VMA, then its files */
	rk_path_fork(&kp, &user);
	assert_int_equal(kp.n, 4);
	assert_int_equal(kp.step[0].lock, RKL_ANON_ROOT);
	assert_int_equal(kp.step[0].ops, 20);
	assert_int_equal(kp.step[0].nodes, 1);
	assert_int_equal(kp.step[1].lock, RKL_FILE0 + RKF_REAIM);
	assert_int_equal(kp.step[1].ops, 5);
	assert_int_equal(kp.step[1].nodes, 5);
	assert_int_equal(kp.step[2].lock, RKL_FILE0 + RKF_LDSO);
	assert_int_equal(kp.step[3].lock, RKL_FILE0 + RKF_LIBC);

	/* an exec'd sh has a root of its own: only the files are shared */
	rk_path_fork(&kp, &sh);
	assert_int_equal(kp.n, 3);
	assert_int_equal(kp.step[0].lock, RKL_FILE0 + RKF_SH);

	/*
	 * exit: one unlink per anon VMA, then anon_vma_free()'s flush of the
	 * root (only if it is locked then), the file VMAs removed
	 */
	rk_path_exit(&kp, &user);
	assert_int_equal(kp.n, 5);
	assert_int_equal(kp.step[0].ops, 10);
	assert_int_equal(kp.step[0].nodes, -1);
	assert_false(kp.step[0].if_locked);
	assert_int_equal(kp.step[1].lock, RKL_ANON_ROOT);
	assert_true(kp.step[1].if_locked);
	assert_int_equal(kp.step[1].ops, 0);
	assert_int_equal(kp.step[1].nodes, 0);
	assert_int_equal(kp.step[4].nodes, -5);

	/* an exec'd process's exit has no root of the driver's to flush */
	rk_path_exit(&kp, &sh);
	assert_int_equal(kp.n, 3);

	/* execve(): the old mm goes, the new program's mappings come */
	rk_path_exec(&kp, &user, RKF_TRUE);
	assert_int_equal(kp.n, 8);
	assert_int_equal(kp.step[0].lock, RKL_ANON_ROOT);
	assert_true(kp.step[1].if_locked);
	assert_int_equal(kp.step[2].lock, RKL_FILE0 + RKF_REAIM);
	assert_int_equal(kp.step[5].lock, RKL_FILE0 + RKF_TRUE);
	assert_int_equal(kp.step[5].nodes, 5);

	rk_path_dir(&kp);
	assert_int_equal(kp.n, 1);
	assert_int_equal(kp.step[0].lock, RKL_DIR);
}

static void test_hold_grows_with_tree(void **state)
{
	u64 mem, llc, base;

	(void)state;
	machine_up();
	mem = machine.cost->mem_latency;
	llc = machine.cost->llc_hit;
	assert_true(mem > 0 && llc > 0);
	/* 400 cycles at 2.4 GHz and two lines others wrote, then an LLC hit per level */
	base = rk_hold_ns(RKL_ANON_ROOT, 1, 0);
	assert_int_equal(base, 400 * 10 / 24 + 2 * mem);
	assert_int_equal(rk_hold_ns(RKL_ANON_ROOT, 1, 1), base + llc);
	assert_int_equal(rk_hold_ns(RKL_ANON_ROOT, 1, 1023), base + 10 * llc);
	assert_int_equal(rk_hold_ns(RKL_ANON_ROOT, 20, 1023), 20 * (base + 10 * llc));
	assert_int_equal(rk_hold_ns(RKL_FILE0 + RKF_LIBC, 1, 0), 200 * 10 / 24 + 2 * mem);
	/* a directory entry: a hash, not a tree */
	assert_int_equal(rk_hold_ns(RKL_DIR, 1, 0), rk_hold_ns(RKL_DIR, 1, 1u << 20));
	machine_down();
}

static void test_path_ops_and_nodes(void **state)
{
	const struct rk_proc user = { RKF_REAIM, true };
	struct rk_locks *l = calloc(1, sizeof(*l));
	struct rk_path kp;
	struct op_desc op;

	(void)state;
	machine_up();
	rk_locks_init(l);
	l->nodes[RKL_ANON_ROOT] = 7;
	rk_path_fork(&kp, &user);
	for (int i = 0; i < kp.n; i++) {
		int lock = kp.step[i].lock;
		u64 before = l->nodes[lock];

		assert_true(rk_path_next(l, &kp, &op));
		assert_int_equal(op.kind, OP_DOWN_WRITE);
		assert_ptr_equal(op.rwsem, &l->sem[lock]);
		assert_true(rk_path_next(l, &kp, &op));
		assert_int_equal(op.kind, OP_RUN);
		/* the walk is as deep as the tree the holder finds */
		assert_int_equal(op.ns, rk_hold_ns(lock, kp.step[i].ops, before));
		assert_int_equal(l->nodes[lock], before + (u64)kp.step[i].nodes);
		assert_true(rk_path_next(l, &kp, &op));
		assert_int_equal(op.kind, OP_UP_WRITE);
		assert_ptr_equal(op.rwsem, &l->sem[lock]);
	}
	assert_false(rk_path_next(l, &kp, &op));
	assert_int_equal(l->nodes[RKL_ANON_ROOT], 8);
	assert_int_equal(l->nodes[RKL_FILE0 + RKF_LIBC], 5);
	assert_true(l->held_ns > 0);

	/* an exit of a process never counted leaves the tree at 0, not wrapped */
	l->nodes[RKL_ANON_ROOT] = 0;
	rk_path_exit(&kp, &user);
	while (rk_path_next(l, &kp, &op))
		;
	assert_int_equal(l->nodes[RKL_ANON_ROOT], 0);

	/* anon_vma_free(): the root free after the unlink: no flush, the files next */
	rk_path_exit(&kp, &user);
	for (int i = 0; i < 3; i++)
		assert_true(rk_path_next(l, &kp, &op));
	assert_int_equal(op.kind, OP_UP_WRITE);
	assert_true(rk_path_next(l, &kp, &op));
	assert_int_equal(op.kind, OP_DOWN_WRITE);
	assert_ptr_equal(op.rwsem, &l->sem[RKL_FILE0 + RKF_REAIM]);

	/* the root held by another (a waiter queued counts too): lock, nothing, unlock */
	rk_path_exit(&kp, &user);
	for (int i = 0; i < 3; i++)
		assert_true(rk_path_next(l, &kp, &op));
	l->sem[RKL_ANON_ROOT].waiters = true;
	assert_true(rk_path_next(l, &kp, &op));
	assert_int_equal(op.kind, OP_DOWN_WRITE);
	assert_ptr_equal(op.rwsem, &l->sem[RKL_ANON_ROOT]);
	assert_true(rk_path_next(l, &kp, &op));
	assert_int_equal(op.kind, OP_RUN);
	assert_int_equal(op.ns, 0);
	assert_true(rk_path_next(l, &kp, &op));
	assert_int_equal(op.kind, OP_UP_WRITE);
	assert_ptr_equal(op.rwsem, &l->sem[RKL_ANON_ROOT]);
	l->sem[RKL_ANON_ROOT].waiters = false;
	free(l);
	locking_reset();
	machine_down();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_exit_exec_steps),
		cmocka_unit_test(test_hold_grows_with_tree),
		cmocka_unit_test(test_path_ops_and_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
