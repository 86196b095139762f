// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex hash buckets (kernel/futex.h): the global table's size per node,
 * the private hash a process gets when it creates threads (clamped, grown,
 * never shrunk) or asks for with PR_FUTEX_HASH, the key -> bucket function
 * (deterministic, spread), and the bucket lock: two CPUs hammering one
 * bucket contend on it, on two buckets they do not. Every run validates
 * the scheduler invariants (--check) after each event. FUTEX_CMP_REQUEUE
 * and FUTEX_REQUEUE: woken and requeued counts, requeued waiters woken
 * from the second futex only, the compare's EAGAIN, both futexes in one
 * bucket.
 */
#include "test_util.h"

#include "kernel/futex.h"
#include "work/work.h"

#include <errno.h>
#include <stdlib.h>

static struct topology *topo;

static void sim_begin(const char *machine_name)
{
	char err[256];

	topo = topology_load(machine_name, err, sizeof(err));
	assert_non_null(topo);
	sysctl_sched.hz = topo->hz;
	machine_init(topo, &topo->cost, 1);
	sched_init(0);
}

static void sim_go(void)
{
	sched_start();
	sim_run(sched_check_invariants);
	sched_check_final();
}

static void sim_end(void)
{
	machine_destroy();
	work_free_all();
	sched_exit();
	topology_free(topo);
}

/* ---- sizes ---- */

static void test_global_size(void **state)
{
	(void)state;
	/* 256 a CPU, per node, a power of two, at least 4 */
	assert_int_equal(futex_global_hash_size(1, 1), 256);
	assert_int_equal(futex_global_hash_size(4, 1), 1024);
	assert_int_equal(futex_global_hash_size(6, 1), 2048);
	assert_int_equal(futex_global_hash_size(104, 2), 16384);
	assert_int_equal(futex_global_hash_size(160, 8), 8192);
	assert_int_equal(futex_global_hash_size(1, 128), 4);
}

static void test_default_private_size(void **state)
{
	(void)state;
	/* 4 a thread up to the CPUs, a power of two, 16 to the global size */
	assert_int_equal(futex_default_private_size(1, 4, 1), 16);
	assert_int_equal(futex_default_private_size(5, 8, 1), 32);
	assert_int_equal(futex_default_private_size(100, 8, 1), 32);
	assert_int_equal(futex_default_private_size(104, 104, 2), 512);
	assert_int_equal(futex_default_private_size(8192, 8192, 1), 32768);
	/* a global table smaller than 16 caps it */
	assert_int_equal(futex_default_private_size(64, 1, 128), 4);
}

/* ---- key -> bucket ---- */

static void test_jhash2(void **state)
{
	static const u32 k[4] = { 1, 2, 3, 4 };

	(void)state;
	/* lookup3: no words leave the initial value */
	assert_int_equal(futex_jhash2(k, 0, 0), 0xdeadbeefU);
	/* deterministic, and every word and the initval matter */
	assert_int_equal(futex_jhash2(k, 4, 0), futex_jhash2(k, 4, 0));
	assert_int_not_equal(futex_jhash2(k, 4, 0), futex_jhash2(k, 4, 4));
	assert_int_not_equal(futex_jhash2(k, 4, 0), futex_jhash2(k, 3, 0));
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;

	return x < y ? -1 : x > y;
}

static void test_key_bucket(void **state)
{
	struct task_struct p = { .mm = 1 }, q = { .mm = 2 };
	struct futex_key a, b;
	static struct futex_hash_bucket *hbs[4096];
	unsigned int max_load = 0, nr_used = 0, run = 0;

	(void)state;
	sim_begin("smp4");
	/* the same address: one bucket; a private key is its process's */
	get_futex_key(&a, FUTEX_USER_BASE, &p, false);
	get_futex_key(&b, FUTEX_USER_BASE, &p, false);
	assert_ptr_equal(futex_hash(&a, &p), futex_hash(&b, &p));
	get_futex_key(&b, FUTEX_USER_BASE, &q, false);
	assert_true(a.ptr != b.ptr);
	/* a shared key is the same in every process */
	get_futex_key(&a, FUTEX_USER_BASE, &p, true);
	get_futex_key(&b, FUTEX_USER_BASE, &q, true);
	assert_ptr_equal(futex_hash(&a, &p), futex_hash(&b, &q));
	/* 4096 consecutive futexes spread over the 1024 global buckets */
	for (unsigned int i = 0; i < 4096; i++) {
		get_futex_key(&a, FUTEX_USER_BASE + 4 * i, &p, false);
		hbs[i] = futex_hash(&a, &p);
		assert_ptr_equal(hbs[i], futex_hash(&a, &p));
	}
	qsort(hbs, 4096, sizeof(hbs[0]), cmp_ptr);
	for (unsigned int i = 0; i < 4096; i++) {
		run = i && hbs[i] == hbs[i - 1] ? run + 1 : 1;
		nr_used += run == 1;
		max_load = max(max_load, run);
	}
	/* 4 a bucket on average: most buckets used, none badly overloaded */
	assert_true(nr_used > 900);
	assert_true(max_load <= 16);
	sim_end();
}

/* ---- the private hash through thread creation and PR_FUTEX_HASH ---- */

struct spawner {
	unsigned int threads, spawned;
	int set_slots; /* -1: no prctl */
	int set_ret;
	unsigned int slots_after[16];
	bool slept[16];
	bool done;
};

/* a thread that lives until every thread is created (the count only grows meanwhile) */
static void idle_thread(struct work_task *w, struct op_desc *op)
{
	bool *slept = w->state;

	if (*slept) {
		op_simple(op, OP_EXIT);
		return;
	}
	*slept = true;
	op_sleep(op, 10 * NSEC_PER_MSEC);
}

static const struct program idle_prog = { .next = idle_thread };

static void spawner_next(struct work_task *w, struct op_desc *op)
{
	struct spawner *s = w->state;

	if (s->set_slots >= 0 && !s->spawned && !s->done) {
		s->set_ret = futex_hash_set_slots(w->task, (unsigned int)s->set_slots);
		s->set_slots = -1;
	}
	if (s->spawned)
		s->slots_after[s->spawned - 1] = futex_hash_get_slots(w->task);
	if (s->spawned < s->threads) {
		*op = (struct op_desc){ .kind = OP_SPAWN };
		op->spawn.prog = &idle_prog;
		op->spawn.thread = true;
		op->spawn.comm = "thread";
		op->spawn.state = &s->slept[s->spawned];
		s->spawned++;
		return;
	}
	if (!s->done) {
		s->done = true;
		op_simple(op, OP_WAIT_CHILDREN);
		return;
	}
	op_simple(op, OP_EXIT);
}

static const struct program spawner_prog = { .next = spawner_next };

static void test_private_hash_grows(void **state)
{
	struct spawner s = { .threads = 12, .set_slots = -1 };

	(void)state;
	sim_begin("smp8");
	work_start("spawner", &spawner_prog, &s, 0);
	sim_go();
	/* creating thread k with k threads: 4k rounded up, 16 at least, CPUs at most */
	for (unsigned int k = 1; k <= 4; k++)
		assert_int_equal(s.slots_after[k - 1], 16);
	for (unsigned int k = 5; k <= 12; k++)
		assert_int_equal(s.slots_after[k - 1], 32);
	sim_end();
}

static void test_prctl_slots(void **state)
{
	struct spawner s = { .threads = 12, .set_slots = 64 };
	struct spawner g = { .threads = 3, .set_slots = 0 };
	struct spawner bad = { .threads = 1, .set_slots = 3 };
	struct task_struct p = { .mm = 1 };

	(void)state;
	sim_begin("smp8");
	work_start("custom", &spawner_prog, &s, 0);
	work_start("global", &spawner_prog, &g, 1);
	work_start("bad", &spawner_prog, &bad, 2);
	sim_go();
	/* a custom size stays whatever threads come */
	assert_int_equal(s.set_ret, 0);
	for (unsigned int k = 1; k <= 12; k++)
		assert_int_equal(s.slots_after[k - 1], 64);
	/* 0: the global hash, for good */
	assert_int_equal(g.set_ret, 0);
	for (unsigned int k = 1; k <= 3; k++)
		assert_int_equal(g.slots_after[k - 1], 0);
	/* 1 and non-powers of two are refused; the default then applies */
	assert_int_equal(bad.set_ret, -EINVAL);
	assert_int_equal(bad.slots_after[0], 16);
	assert_int_equal(futex_hash_set_slots(&p, 1), -EINVAL);
	sim_end();
}

/* ---- the bucket lock ---- */

#define HAMMER_OPS 2000
#define HAMMER_MAX 8

struct hammer {
	struct futex *f;
	unsigned int left;
	u64 end_ns;
};

/* FUTEX_WAIT with a value that never matches: the bucket lock, then EWOULDBLOCK */
static void hammer_next(struct work_task *w, struct op_desc *op)
{
	struct hammer *h = w->state;

	if (!h->left--) {
		h->end_ns = cpu_now();
		op_simple(op, OP_EXIT);
		return;
	}
	op_futex(op, OP_FUTEX_WAIT, h->f, 1);
}

static const struct program hammer_prog = { .next = hammer_next };

struct hammer_result {
	u64 contended, spin_ns, end_ns;
};

/*
 * One process per CPU of @machine_name, process i on CPU i FUTEX_WAITing
 * on its futex at @addr[i]: the spin on the buckets' locks (each bucket
 * counted once) and when the last one finished.
 */
static void hammer(const char *machine_name, const u64 *addr, struct hammer_result *r)
{
	struct task_struct nobody = { .mm = 1 };
	struct futex f[HAMMER_MAX];
	struct hammer h[HAMMER_MAX];
	struct futex_hash_bucket *hb[HAMMER_MAX];
	struct futex_key k;
	unsigned int n;

	sim_begin(machine_name);
	n = machine.nr_cpus;
	assert_true(n <= HAMMER_MAX);
	memset(r, 0, sizeof(*r));
	for (unsigned int i = 0; i < n; i++) {
		futex_init_at(&f[i], 0, addr[i], FUTEX_SCOPE_SHARED);
		get_futex_key(&k, f[i].uaddr, &nobody, true);
		hb[i] = futex_hash(&k, &nobody);
		h[i] = (struct hammer){ .f = &f[i], .left = HAMMER_OPS };
		work_start("hammer", &hammer_prog, &h[i], i);
	}
	sim_go();
	for (unsigned int i = 0; i < n; i++) {
		bool seen = false;

		for (unsigned int j = 0; j < i; j++)
			seen |= hb[j] == hb[i];
		if (!seen) {
			r->contended += hb[i]->lock.contended;
			r->spin_ns += hb[i]->lock.spin_ns;
		}
		r->end_ns = max(r->end_ns, h[i].end_ns);
	}
	sim_end();
}

/* @n addresses from FUTEX_USER_BASE up whose shared keys are in @n different buckets */
static void distinct_buckets(const char *machine_name, u64 *addr, unsigned int n)
{
	struct task_struct nobody = { .mm = 1 };
	struct futex_hash_bucket *hb[HAMMER_MAX];
	struct futex_key k;
	unsigned int found = 0;

	sim_begin(machine_name);
	for (u64 a = FUTEX_USER_BASE; found < n; a += sizeof(u32)) {
		bool dup = false;

		get_futex_key(&k, a, &nobody, true);
		hb[found] = futex_hash(&k, &nobody);
		for (unsigned int j = 0; j < found; j++)
			dup |= hb[j] == hb[found];
		if (!dup)
			addr[found++] = a;
	}
	sim_end();
}

static void test_bucket_lock_contention(void **state)
{
	u64 same[HAMMER_MAX], apart[HAMMER_MAX];
	struct hammer_result one, two, eight, eight_apart;

	(void)state;
	for (unsigned int i = 0; i < HAMMER_MAX; i++)
		same[i] = FUTEX_USER_BASE;
	/*
	 * Two CPUs on one bucket: its line moves to the taker at every
	 * acquisition, so they finish later than on two buckets, where
	 * nobody ever waits for the lock.
	 */
	distinct_buckets("smp2", apart, 2);
	hammer("smp2", same, &one);
	hammer("smp2", apart, &two);
	assert_int_equal(two.contended, 0);
	assert_int_equal(two.spin_ns, 0);
	assert_true(one.contended > 0);
	assert_true(one.end_ns > two.end_ns);
	/*
	 * Eight CPUs on one bucket: each acquisition pays the line's move,
	 * and takers that arrive while it moves to another spin
	 */
	distinct_buckets("smp8", apart, 8);
	hammer("smp8", same, &eight);
	hammer("smp8", apart, &eight_apart);
	assert_true(eight.contended > 0);
	assert_true(eight.spin_ns > 0);
	assert_int_equal(eight_apart.contended, 0);
	assert_true(eight.end_ns > eight_apart.end_ns);
}

/* ---- requeue ---- */

#define RQ_WAITERS 6
#define RQ_SETTLE_NS (1 * NSEC_PER_MSEC)

struct rq_waiter {
	struct futex *f;
	bool waited;
	u64 ret; /* FUTEX_WAIT's: 0 woken, 1 EWOULDBLOCK */
	bool woken;
};

static void rq_waiter_next(struct work_task *w, struct op_desc *op)
{
	struct rq_waiter *rw = w->state;

	if (!rw->waited) {
		rw->waited = true;
		op_futex(op, OP_FUTEX_WAIT, rw->f, 0);
		return;
	}
	rw->ret = w->result;
	rw->woken = true;
	op_simple(op, OP_EXIT);
}

static const struct program rq_waiter_prog = { .next = rq_waiter_next };

/* the driver's steps and what each returned */
enum {
	RQ_CMP_FAIL,
	RQ_CMP,
	RQ_REQUEUE,
	RQ_WAKE1,
	RQ_WAKE2,
	RQ_STEPS,
};

struct rq_driver {
	struct futex *f1, *f2;
	unsigned int step;
	s64 ret[RQ_STEPS];
	unsigned int woken_after[RQ_STEPS]; /* waiters woken when the step returned */
	unsigned int hb2_waiters; /* the second bucket's count after RQ_CMP */
	struct rq_waiter *waiters;
};

static unsigned int rq_woken(const struct rq_driver *d)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < RQ_WAITERS; i++)
		n += d->waiters[i].woken;
	return n;
}

/*
 * Step 0 sleeps until every waiter blocks; then each operation i is
 * issued at step 2i + 1, its result read at step 2i + 2 before a sleep
 * that lets its wakeups run, and the waiters woken counted at the next.
 */
static void rq_driver_next(struct work_task *w, struct op_desc *op)
{
	struct rq_driver *d = w->state;
	unsigned int step = d->step++;
	unsigned int i = (step - 1) / 2;
	struct futex_key k2;

	if (step && !(step & 1)) {
		d->ret[i] = (s64)w->result;
		if (i == RQ_CMP) {
			get_futex_key(&k2, d->f2->uaddr, w->task, true);
			d->hb2_waiters = futex_hash(&k2, w->task)->waiters;
		}
	}
	if (!(step & 1)) {
		op_sleep(op, RQ_SETTLE_NS);
		return;
	}
	if (i)
		d->woken_after[i - 1] = rq_woken(d);
	switch (i) {
	case RQ_CMP_FAIL:
		/* the word is 0: expecting 1 fails, nobody moves */
		op_futex_requeue(op, OP_FUTEX_CMP_REQUEUE, d->f1, 1, d->f2, 1, RQ_WAITERS);
		return;
	case RQ_CMP:
		/* one woken, two requeued */
		op_futex_requeue(op, OP_FUTEX_CMP_REQUEUE, d->f1, 0, d->f2, 1, 2);
		return;
	case RQ_REQUEUE:
		/* FUTEX_REQUEUE (no compare): one more moved, nobody woken */
		op_futex_requeue(op, OP_FUTEX_REQUEUE, d->f1, 0, d->f2, 0, 1);
		return;
	case RQ_WAKE1:
		/* the two left on the first futex, not the requeued ones */
		op_futex(op, OP_FUTEX_WAKE, d->f1, RQ_WAITERS);
		return;
	case RQ_WAKE2:
		op_futex(op, OP_FUTEX_WAKE, d->f2, RQ_WAITERS);
		return;
	default:
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program rq_driver_prog = { .next = rq_driver_next };

/* RQ_WAITERS processes block on shared futex @a1; the driver requeues them to @a2 */
static void requeue_run(u64 a1, u64 a2, struct rq_driver *d)
{
	static struct futex f1, f2;
	static struct rq_waiter rw[RQ_WAITERS];

	sim_begin("smp4");
	memset(d, 0, sizeof(*d));
	memset(rw, 0, sizeof(rw));
	futex_init_at(&f1, 0, a1, FUTEX_SCOPE_SHARED);
	futex_init_at(&f2, 0, a2, FUTEX_SCOPE_SHARED);
	d->f1 = &f1;
	d->f2 = &f2;
	d->waiters = rw;
	for (unsigned int i = 0; i < RQ_WAITERS; i++) {
		rw[i].f = &f1;
		work_start("waiter", &rq_waiter_prog, &rw[i], (int)(i % 4));
	}
	work_start("driver", &rq_driver_prog, d, 0);
	sim_go();
	sim_end();
}

static void requeue_check(const struct rq_driver *d, bool one_bucket)
{
	assert_int_equal(d->ret[RQ_CMP_FAIL], -EAGAIN);
	assert_int_equal(d->woken_after[RQ_CMP_FAIL], 0);
	/* woken + requeued; the woken one is awake, the requeued sleep on */
	assert_int_equal(d->ret[RQ_CMP], 3);
	assert_int_equal(d->woken_after[RQ_CMP], 1);
	/* in one bucket nothing moves: the pending count is the driver's own (+1, -1) */
	assert_int_equal(d->hb2_waiters, one_bucket ? RQ_WAITERS - 1 : 2);
	assert_int_equal(d->ret[RQ_REQUEUE], 1);
	assert_int_equal(d->woken_after[RQ_REQUEUE], 1);
	/* a wake of the first futex finds only the two never requeued */
	assert_int_equal(d->ret[RQ_WAKE1], 2);
	assert_int_equal(d->woken_after[RQ_WAKE1], 3);
	/* the requeued three are woken from the second and unqueued from its bucket */
	assert_int_equal(d->ret[RQ_WAKE2], 3);
	assert_int_equal(d->woken_after[RQ_WAKE2], RQ_WAITERS);
	for (unsigned int i = 0; i < RQ_WAITERS; i++)
		assert_int_equal(d->waiters[i].ret, 0);
}

static void test_requeue(void **state)
{
	u64 apart[2];
	struct rq_driver d;

	(void)state;
	distinct_buckets("smp4", apart, 2);
	requeue_run(apart[0], apart[1], &d);
	requeue_check(&d, false);
	/* the other way round: the second bucket at the lower address is locked first */
	requeue_run(apart[1], apart[0], &d);
	requeue_check(&d, false);
}

/* two addresses from FUTEX_USER_BASE up whose shared keys share a bucket */
static void same_bucket(u64 *a1, u64 *a2)
{
	struct task_struct nobody = { .mm = 1 };
	static struct futex_hash_bucket *hb[4096];
	struct futex_key k;

	sim_begin("smp4");
	for (unsigned int i = 0; i < 4096; i++) {
		get_futex_key(&k, FUTEX_USER_BASE + 4 * i, &nobody, true);
		hb[i] = futex_hash(&k, &nobody);
		for (unsigned int j = 0; j < i; j++) {
			if (hb[j] == hb[i]) {
				*a1 = FUTEX_USER_BASE + 4 * j;
				*a2 = FUTEX_USER_BASE + 4 * i;
				sim_end();
				return;
			}
		}
	}
	fail_msg("no two of 4096 futexes share one of 1024 buckets");
}

static void test_requeue_one_bucket(void **state)
{
	struct rq_driver d;
	u64 a1 = 0, a2 = 0;

	(void)state;
	/* double_lock_hb() takes the one lock once; the waiters stay on the chain, rekeyed */
	same_bucket(&a1, &a2);
	requeue_run(a1, a2, &d);
	requeue_check(&d, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_global_size),
		cmocka_unit_test(test_default_private_size),
		cmocka_unit_test(test_jhash2),
		cmocka_unit_test(test_key_bucket),
		cmocka_unit_test(test_private_hash_grows),
		cmocka_unit_test(test_prctl_slots),
		cmocka_unit_test(test_bucket_lock_contention),
		cmocka_unit_test(test_requeue),
		cmocka_unit_test(test_requeue_one_bucket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
