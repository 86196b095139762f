// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmap_lock of a threaded program (work/mm_thread.c): two threads of one
 * process creating a thread each at the same instant serialise on their
 * mm's mmap_lock, section by section (mmap(), then mprotect()); a second
 * process has a lock of its own; glibc's stack cache makes a creation
 * after a join take no lock, and stacks beyond its 40 MiB are munmap()ed
 * at the join. Every run validates the invariants (--check) per event.
 */
#include "test_util.h"
#include "test_sched_helpers.h"

#include "work/work.h"

#include <stdlib.h>

/* the work under the lock of each section: long enough to see the order */
#define SECTION_NS 10000ULL
#define START_NS 1000000ULL

static const struct program leaf_prog;

static void leaf_next(struct work_task *w, struct op_desc *op)
{
	(void)w;
	op_simple(op, OP_EXIT);
}

static const struct program leaf_prog = { .next = leaf_next };

/* a creator: at START_NS create one thread, note when that returned, join it, exit */
struct creator {
	unsigned int phase;
	u64 created_at;
};

static void spawn_leaf(struct op_desc *op, u64 stack)
{
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = &leaf_prog;
	op->spawn.thread = true;
	op->spawn.comm = "leaf";
	op->spawn.stack = stack;
}

static void creator_next(struct work_task *w, struct op_desc *op)
{
	struct creator *c = w->state;

	switch (c->phase++) {
	case 0:
		*op = (struct op_desc){ .kind = OP_SLEEP_UNTIL, .ns = START_NS };
		return;
	case 1:
		spawn_leaf(op, 0);
		return;
	case 2:
		c->created_at = cpu_now();
		op_wait_children(op, WAIT_ANY);
		return;
	default:
		op_simple(op, OP_EXIT);
	}
}

static const struct program creator_prog = { .next = creator_next };

/* the main thread: create the creators, join them */
struct main_state {
	unsigned int phase;
	struct creator creators[2];
};

static void main_next(struct work_task *w, struct op_desc *op)
{
	struct main_state *m = w->state;

	if (m->phase < 2) {
		*op = (struct op_desc){ .kind = OP_SPAWN };
		op->spawn.prog = &creator_prog;
		op->spawn.state = &m->creators[m->phase++];
		op->spawn.thread = true;
		op->spawn.comm = "creator";
		return;
	}
	if (m->phase++ == 2) {
		op_wait_children(op, WAIT_ANY);
		return;
	}
	op_simple(op, OP_EXIT);
}

static const struct program main_prog = { .next = main_next };

static const struct lock_class_stat *mmap_lock_stat(const char *name)
{
	struct rw_semaphore *s;

	list_for_each_entry(s, &all_rwsems, node) if (!strcmp(s->stat.name, name)) return &s->stat;
	return NULL;
}

static void setup(void)
{
	tl_setup("smp4", true, 0, NULL);
	tl.cost.mm_mmap = SECTION_NS;
	tl.cost.mm_mprotect = SECTION_NS;
}

static void test_creators_serialise(void **state)
{
	struct main_state m = { 0 };
	const struct lock_class_stat *st;
	u64 first, last;

	(void)state;
	setup();
	work_start("main", &main_prog, &m, 0);
	tl_run_until(START_NS + 10 * SECTION_NS, true);
	st = mmap_lock_stat("mmap_lock:main");
	assert_non_null(st);
	/* main's two creations and the creators' two, two sections each; five exit_mm()s */
	assert_int_equal(st->acquisitions, 2 * 2 + 2 * 2 + 5);
	first = min(m.creators[0].created_at, m.creators[1].created_at) - START_NS;
	last = max(m.creators[0].created_at, m.creators[1].created_at) - START_NS;
	/*
	 * Both asked at START_NS: the sections run one at a time, so the
	 * later creation returns after all four, the earlier after its own
	 * two at least; without the lock both would return at 2 sections.
	 */
	assert_true(st->contended >= 1);
	assert_true(last >= 4 * SECTION_NS);
	assert_true(first >= 2 * SECTION_NS);
	assert_true(st->spin_ns + st->sleep_ns >= SECTION_NS);
	tl_teardown();
}

/* a second process creating threads at the same instant has its own lock */
static void test_processes_own_locks(void **state)
{
	struct main_state m1 = { 0 }, m2 = { 0 };
	const struct lock_class_stat *a, *b;

	(void)state;
	setup();
	work_start("one", &main_prog, &m1, 0);
	work_start("two", &main_prog, &m2, 2);
	tl_run_until(START_NS + 10 * SECTION_NS, true);
	a = mmap_lock_stat("mmap_lock:one");
	b = mmap_lock_stat("mmap_lock:two");
	assert_non_null(a);
	assert_non_null(b);
	assert_ptr_not_equal(a, b);
	assert_int_equal(a->acquisitions, 13);
	assert_int_equal(b->acquisitions, 13);
	tl_teardown();
}

/* create @n threads of @stack bytes, join them, create one more, join, exit */
struct cache_state {
	unsigned int n, phase, spawned;
	u64 stack;
	u64 acq_before_second; /* the lock's acquisitions before the last creation */
	const struct lock_class_stat *st;
};

static void cache_next(struct work_task *w, struct op_desc *op)
{
	struct cache_state *c = w->state;

	switch (c->phase) {
	case 0:
		if (c->spawned++ < c->n) {
			spawn_leaf(op, c->stack);
			return;
		}
		c->phase = 1;
		op_wait_children(op, WAIT_ANY);
		return;
	case 1:
		c->st = mmap_lock_stat("mmap_lock:cache");
		c->acq_before_second = c->st->acquisitions;
		c->phase = 2;
		spawn_leaf(op, c->stack);
		return;
	case 2:
		c->phase = 3;
		op_wait_children(op, WAIT_ANY);
		return;
	default:
		op_simple(op, OP_EXIT);
	}
}

static const struct program cache_prog = { .next = cache_next };

static void run_cache(struct cache_state *c, unsigned int n, u64 stack)
{
	*c = (struct cache_state){ .n = n, .stack = stack };
	setup();
	work_start("cache", &cache_prog, c, 0);
	tl_run_until(10 * NSEC_PER_MSEC, true);
	assert_int_equal(c->phase, 3);
}

static void test_stack_cache(void **state)
{
	struct cache_state c;

	(void)state;
	/*
	 * Three small stacks: all cached at the join (no munmap()); the next
	 * creation reuses one, taking no lock: 3 x 2 sections and 3 exit_mm()s
	 * before, then only the new thread's exit_mm() and main's
	 */
	run_cache(&c, 3, THREAD_STACK_MIN);
	assert_int_equal(c.acq_before_second, 3 * 2 + 3);
	assert_int_equal(c.st->acquisitions, c.acq_before_second + 1 + 1);
	tl_teardown();
	/*
	 * Six default (8 MiB + a guard page) stacks: the cache keeps four
	 * (40 MiB), so joining them munmap()s two under the lock
	 */
	run_cache(&c, 6, 0);
	assert_int_equal(c.acq_before_second, 6 * 2 + 6 + 2);
	tl_teardown();
}

/*
 * What a threaded process pays around its calls (exec.c sys_enter()): one
 * task's pipe write + read, timed before it has created a thread, while a
 * thread it created lives, and after joining it. Only cancel_point and
 * fget_shared cost anything here.
 */
#define CANCEL_NS 1000ULL
#define FGET_NS 300ULL

struct caller {
	struct channel *ch;
	unsigned int phase;
	u64 t0, pair_ns[3];
};

static void sleeper_next(struct work_task *w, struct op_desc *op)
{
	unsigned int *phase = w->state;

	if ((*phase)++ == 0) {
		*op = (struct op_desc){ .kind = OP_SLEEP, .ns = START_NS };
		return;
	}
	op_simple(op, OP_EXIT);
}

static const struct program sleeper_prog = { .next = sleeper_next };

static void caller_next(struct work_task *w, struct op_desc *op)
{
	static unsigned int sleeper_phase;
	struct caller *c = w->state;
	unsigned int step = c->phase % 3, round = c->phase / 3;

	c->phase++;
	switch (step) {
	case 0:
		c->t0 = cpu_now();
		op_rw(op, OP_WRITE, c->ch, 4);
		return;
	case 1:
		op_rw(op, OP_READ, c->ch, 4);
		return;
	}
	c->pair_ns[round] = cpu_now() - c->t0;
	if (round == 0) {
		/* a thread that lives until START_NS */
		sleeper_phase = 0;
		*op = (struct op_desc){ .kind = OP_SPAWN };
		op->spawn.prog = &sleeper_prog;
		op->spawn.state = &sleeper_phase;
		op->spawn.thread = true;
		op->spawn.comm = "sleeper";
	} else if (round == 1) {
		op_wait_children(op, WAIT_ANY);
	} else {
		op_simple(op, OP_EXIT);
	}
}

static const struct program caller_prog = { .next = caller_next };

static void test_threaded_calls(void **state)
{
	struct caller c = { 0 };

	(void)state;
	tl_setup("smp2", true, 0, NULL);
	tl.cost.cancel_point = CANCEL_NS;
	tl.cost.fget_shared = FGET_NS;
	c.ch = channel_new(CH_PIPE);
	work_start("caller", &caller_prog, &c, 0);
	tl_run_until(2 * START_NS, true);
	/* single-threaded: glibc calls the kernel directly, the file table is its own */
	assert_int_equal(c.pair_ns[0], 0);
	/* with the thread alive: both calls pass the cancellation point and take a file reference */
	assert_int_equal(c.pair_ns[1], 2 * (CANCEL_NS + FGET_NS));
	/* joined: the cancellation points stay (glibc's flag is never cleared) */
	assert_int_equal(c.pair_ns[2], 2 * CANCEL_NS);
	tl_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_creators_serialise),
		cmocka_unit_test(test_processes_own_locks),
		cmocka_unit_test(test_stack_cache),
		cmocka_unit_test(test_threaded_calls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
