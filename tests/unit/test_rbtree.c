// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the augmented, leftmost-cached red-black tree. Every check
 * compares the tree against an independent reference: a sorted array of
 * node pointers (FIFO among equal keys) and subtree minima computed
 * recursively here.
 */
#include "test_util.h"
#include "kernel/rbtree.h"

#include <stdlib.h>
#include <time.h>

struct tnode {
	u64 key;
	u64 val;
	u64 min_val;		/* augmented: min of val over the subtree */
	struct rb_node node;
};

static u64 nr_recompute;

static inline struct tnode *tn(const struct rb_node *n)
{
	return rb_entry(n, struct tnode, node);
}

static bool tless(const struct rb_node *a, const struct rb_node *b)
{
	return tn(a)->key < tn(b)->key;
}

static bool trecompute(struct rb_node *n)
{
	struct tnode *t = tn(n);
	u64 m = t->val;

	nr_recompute++;
	if (n->left && tn(n->left)->min_val < m)
		m = tn(n->left)->min_val;
	if (n->right && tn(n->right)->min_val < m)
		m = tn(n->right)->min_val;
	if (t->min_val == m)
		return true;
	t->min_val = m;
	return false;
}

static const struct rb_augment_callbacks taug = { .recompute = trecompute };

/* xorshift64*: deterministic, independent of libc. */
static u64 rng_state;

static u64 rnd(void)
{
	u64 x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* ---- reference model: sorted array, equal keys in insertion order ---- */

struct model {
	struct tnode **a;
	int n;
};

static void model_insert(struct model *m, struct tnode *t)
{
	int lo = 0, hi = m->n;

	while (lo < hi) {	/* upper bound: first index with key > t->key */
		int mid = (lo + hi) / 2;

		if (m->a[mid]->key <= t->key)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&m->a[lo + 1], &m->a[lo], (size_t)(m->n - lo) * sizeof(*m->a));
	m->a[lo] = t;
	m->n++;
}

static void model_erase(struct model *m, struct tnode *t)
{
	for (int i = 0; i < m->n; i++) {
		if (m->a[i] == t) {
			memmove(&m->a[i], &m->a[i + 1],
				(size_t)(m->n - i - 1) * sizeof(*m->a));
			m->n--;
			return;
		}
	}
	fail_msg("node not in model");
}

/* ---- invariant checks ---- */

/*
 * Check the subtree at n: parent links, no red-red, equal black heights and
 * (if aug) cached minima. Returns the black height; *true_min gets the real
 * minimum of val over the subtree.
 */
static int check_sub(const struct rb_node *n, const struct rb_node *parent,
		     bool aug, u64 *true_min, int *count)
{
	u64 lmin = UINT64_MAX, rmin = UINT64_MAX, m;
	int lh, rh;

	if (!n) {
		*true_min = UINT64_MAX;
		return 1;
	}
	(*count)++;
	assert_ptr_equal(n->parent, parent);
	assert_true(n->color == RB_RED || n->color == RB_BLACK);
	if (n->color == RB_RED) {
		assert_false(n->left && n->left->color == RB_RED);
		assert_false(n->right && n->right->color == RB_RED);
	}
	lh = check_sub(n->left, n, aug, &lmin, count);
	rh = check_sub(n->right, n, aug, &rmin, count);
	assert_int_equal(lh, rh);
	m = tn(n)->val;
	if (lmin < m)
		m = lmin;
	if (rmin < m)
		m = rmin;
	if (aug)
		assert_true(tn(n)->min_val == m);
	*true_min = m;
	return lh + (n->color == RB_BLACK);
}

static void check_tree(const struct rb_root_cached *rc, const struct model *m,
		       bool aug)
{
	const struct rb_node *root = rc->rb_root.node;
	const struct rb_node *n;
	u64 tmin;
	int count = 0, i;

	if (root) {
		assert_int_equal(root->color, RB_BLACK);
		assert_null(root->parent);
	}
	check_sub(root, NULL, aug, &tmin, &count);
	assert_int_equal(count, m->n);
	assert_int_equal(RB_EMPTY_ROOT(&rc->rb_root), m->n == 0);

	/* leftmost cache */
	assert_ptr_equal(rb_first_cached(rc), rb_first(&rc->rb_root));
	assert_ptr_equal(rb_first(&rc->rb_root), m->n ? &m->a[0]->node : NULL);
	assert_ptr_equal(rb_last(&rc->rb_root),
			 m->n ? &m->a[m->n - 1]->node : NULL);

	/* forward in-order walk == sorted reference (stable among equals) */
	for (n = rb_first(&rc->rb_root), i = 0; n; n = rb_next(n), i++) {
		assert_true(i < m->n);
		assert_ptr_equal(n, &m->a[i]->node);
		assert_false(RB_EMPTY_NODE(n));
		if (i)
			assert_true(m->a[i - 1]->key <= m->a[i]->key);
	}
	assert_int_equal(i, m->n);

	/* backward walk */
	for (n = rb_last(&rc->rb_root), i = m->n - 1; n; n = rb_prev(n), i--) {
		assert_true(i >= 0);
		assert_ptr_equal(n, &m->a[i]->node);
	}
	assert_int_equal(i, -1);
}

/* ---- tests ---- */

static void test_empty_and_single(void **state)
{
	struct rb_root_cached rc = RB_ROOT_CACHED;
	struct tnode t = { .key = 5, .val = 7, .min_val = 0 };

	(void)state;
	assert_true(RB_EMPTY_ROOT(&rc.rb_root));
	assert_null(rb_first_cached(&rc));
	assert_null(rb_first(&rc.rb_root));
	assert_null(rb_last(&rc.rb_root));

	RB_CLEAR_NODE(&t.node);
	assert_true(RB_EMPTY_NODE(&t.node));
	assert_null(rb_next(&t.node));
	assert_null(rb_prev(&t.node));

	rb_add_augmented_cached(&t.node, &rc, tless, &taug);
	assert_false(RB_EMPTY_NODE(&t.node));
	assert_false(RB_EMPTY_ROOT(&rc.rb_root));
	assert_ptr_equal(rb_first_cached(&rc), &t.node);
	assert_ptr_equal(rb_last(&rc.rb_root), &t.node);
	assert_null(rb_next(&t.node));
	assert_null(rb_prev(&t.node));
	assert_int_equal(t.min_val, 7);
	assert_int_equal(t.node.color, RB_BLACK);

	t.val = 3;
	rb_augment_propagate(&t.node, &taug);
	assert_int_equal(t.min_val, 3);

	rb_erase_augmented_cached(&t.node, &rc, &taug);
	assert_true(RB_EMPTY_NODE(&t.node));
	assert_true(RB_EMPTY_ROOT(&rc.rb_root));
	assert_null(rb_first_cached(&rc));
}

/* Sequential and duplicate-key patterns, which exercise every rotation case. */
static void test_patterns(void **state)
{
	enum { N = 600 };
	struct tnode *nodes = calloc(N, sizeof(*nodes));
	struct tnode **arr = calloc(N, sizeof(*arr));
	struct model m = { arr, 0 };
	struct rb_root_cached rc = RB_ROOT_CACHED;

	(void)state;
	assert_non_null(nodes);
	assert_non_null(arr);
	for (int pattern = 0; pattern < 4; pattern++) {
		for (int i = 0; i < N; i++) {
			switch (pattern) {
			case 0: nodes[i].key = (u64)i; break;		/* ascending */
			case 1: nodes[i].key = (u64)(N - i); break;	/* descending */
			case 2: nodes[i].key = 42; break;		/* all equal */
			default: nodes[i].key = (u64)(i % 7); break;	/* few keys */
			}
			nodes[i].val = (u64)((i * 7919) % 1000);
			rb_add_augmented_cached(&nodes[i].node, &rc, tless, &taug);
			model_insert(&m, &nodes[i]);
			check_tree(&rc, &m, true);
		}
		if (pattern == 2) {	/* equal keys keep insertion order */
			for (int i = 0; i < N; i++)
				assert_ptr_equal(m.a[i], &nodes[i]);
		}
		/* erase: leftmost first, then from the middle, then the rest */
		for (int i = 0; i < N / 3; i++) {
			struct tnode *t = tn(rb_first_cached(&rc));

			rb_erase_augmented_cached(&t->node, &rc, &taug);
			model_erase(&m, t);
			assert_true(RB_EMPTY_NODE(&t->node));
			check_tree(&rc, &m, true);
		}
		while (m.n) {
			struct tnode *t = m.a[m.n / 2];

			rb_erase_augmented_cached(&t->node, &rc, &taug);
			model_erase(&m, t);
			check_tree(&rc, &m, true);
		}
		assert_true(RB_EMPTY_ROOT(&rc.rb_root));
		assert_null(rb_first_cached(&rc));
	}
	free(arr);
	free(nodes);
}

static void random_ops(bool aug, u64 seed)
{
	enum { NODES = 1000, OPS = 20000, KEYS = 300 };
	const struct rb_augment_callbacks *cb = aug ? &taug : NULL;
	struct tnode *nodes = calloc(NODES, sizeof(*nodes));
	struct tnode **arr = calloc(NODES, sizeof(*arr));
	struct tnode **freel = calloc(NODES, sizeof(*freel));
	struct model m = { arr, 0 };
	struct rb_root_cached rc = RB_ROOT_CACHED;
	int nfree = NODES, max_n = 0, nr_prop = 0;

	assert_non_null(nodes);
	assert_non_null(arr);
	assert_non_null(freel);
	for (int i = 0; i < NODES; i++) {
		RB_CLEAR_NODE(&nodes[i].node);
		freel[i] = &nodes[i];
	}
	rng_state = seed;
	nr_recompute = 0;

	for (int op = 0; op < OPS; op++) {
		/* alternate growing and shrinking phases: 0 <-> 1000 nodes */
		int p_insert = (op / 2500) % 2 ? 30 : 75;
		int r = (int)(rnd() % 100);

		if (aug && r < 8 && m.n) {
			/* change an augmented input in place, key unchanged */
			struct tnode *t = m.a[rnd() % (u64)m.n];

			switch (rnd() % 4) {
			case 0: t->val = 0; break;
			case 1: t->val = UINT64_MAX; break;
			default: t->val = rnd() % 100000; break;
			}
			rb_augment_propagate(&t->node, cb);
			nr_prop++;
		} else if ((r < p_insert || !m.n) && nfree) {
			int i = (int)(rnd() % (u64)nfree);
			struct tnode *t = freel[i];

			freel[i] = freel[--nfree];
			assert_true(RB_EMPTY_NODE(&t->node));
			t->key = rnd() % KEYS;
			t->val = rnd() % 100000;
			t->min_val = rnd();	/* garbage: insert must init it */
			rb_add_augmented_cached(&t->node, &rc, tless, cb);
			model_insert(&m, t);
		} else {
			struct tnode *t = m.a[rnd() % (u64)m.n];

			rb_erase_augmented_cached(&t->node, &rc, cb);
			model_erase(&m, t);
			assert_true(RB_EMPTY_NODE(&t->node));
			freel[nfree++] = t;
		}
		if (m.n > max_n)
			max_n = m.n;
		check_tree(&rc, &m, aug);
	}
	assert_int_equal(max_n, NODES);	/* the cap was reached */
	if (aug)
		assert_true(nr_prop > 0);
	else
		assert_int_equal(nr_recompute, 0);
	free(freel);
	free(arr);
	free(nodes);
}

static void test_random_augmented(void **state)
{
	(void)state;
	random_ops(true, 0x9E3779B97F4A7C15ULL);
	random_ops(true, 12345);
}

static void test_random_plain(void **state)
{
	(void)state;
	random_ops(false, 0x9E3779B97F4A7C15ULL);
}

/* The non-augmented convenience wrappers. */
static void test_plain_wrappers(void **state)
{
	enum { N = 200 };
	struct tnode nodes[N];
	struct tnode *arr[N];
	struct model m = { arr, 0 };
	struct rb_root_cached rc = RB_ROOT_CACHED;

	(void)state;
	rng_state = 777;
	for (int i = 0; i < N; i++) {
		nodes[i].key = rnd() % 50;
		rb_add_cached(&nodes[i].node, &rc, tless);
		model_insert(&m, &nodes[i]);
	}
	check_tree(&rc, &m, false);
	for (int i = 0; i < N; i += 2) {
		rb_erase_cached(&nodes[i].node, &rc);
		model_erase(&m, &nodes[i]);
	}
	check_tree(&rc, &m, false);
}

/*
 * Scheduler-like load: ~1000 entities; repeatedly take the leftmost,
 * advance its key and requeue it, plus random dequeue/enqueue and in-place
 * propagation. 1e6 tree operations.
 */
static void test_benchmark(void **state)
{
	enum { N = 1000, OPS = 1000000 };
	struct tnode *nodes = calloc(N, sizeof(*nodes));
	struct rb_root_cached rc = RB_ROOT_CACHED;
	struct timespec t0, t1;
	u64 ops = 0;
	double secs;

	(void)state;
	assert_non_null(nodes);
	rng_state = 0xDEADBEEF;
	nr_recompute = 0;
	for (int i = 0; i < N; i++) {
		nodes[i].key = rnd() % 100000;
		nodes[i].val = rnd() % 100000;
		rb_add_augmented_cached(&nodes[i].node, &rc, tless, &taug);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ops < OPS) {
		struct tnode *t = tn(rb_first_cached(&rc));

		rb_erase_augmented_cached(&t->node, &rc, &taug);
		t->key += 1 + rnd() % 50000;
		t->val += rnd() % 1000;
		rb_add_augmented_cached(&t->node, &rc, tless, &taug);
		ops += 2;

		t = &nodes[rnd() % N];
		rb_erase_augmented_cached(&t->node, &rc, &taug);
		t->key += rnd() % 100000;
		rb_add_augmented_cached(&t->node, &rc, tless, &taug);
		ops += 2;

		t = &nodes[rnd() % N];
		t->val += rnd() % 1000;
		rb_augment_propagate(&t->node, &taug);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("rbtree: %llu ops in %.3f s (%.1f ns/op), %.2f recompute/op\n",
		      (unsigned long long)ops, secs, secs * 1e9 / (double)ops,
		      (double)nr_recompute / (double)ops);
	/* O(log n) augmentation: ~10 levels for 1000 nodes */
	assert_true(nr_recompute < 12 * ops);
	/* sanity bound only; an unloaded -O2 build takes well under 1 s */
	assert_true(secs < 10.0);

	{	/* the tree is still valid afterwards */
		struct tnode **arr = calloc(N, sizeof(*arr));
		struct model m = { arr, 0 };
		struct rb_node *n;

		assert_non_null(arr);
		for (n = rb_first(&rc.rb_root); n; n = rb_next(n))
			arr[m.n++] = tn(n);
		check_tree(&rc, &m, true);
		free(arr);
	}
	free(nodes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_single),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_random_augmented),
		cmocka_unit_test(test_random_plain),
		cmocka_unit_test(test_plain_wrappers),
		cmocka_unit_test(test_benchmark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
