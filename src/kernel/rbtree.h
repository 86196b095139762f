/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Intrusive red-black tree with an optional per-node augmented value and a
 * cached leftmost node (the EEVDF fair class keys the tree by deadline and
 * keeps the minimum vruntime of each subtree in the node's container).
 *
 * Written from the textbook (CLRS) algorithm; iterative, no allocation.
 *
 * Augmentation contract: aug->recompute(node) recomputes node's cached value
 * from the node itself and its (possibly NULL) children's cached values, and
 * returns true iff the cached value did not change. Every function that takes
 * an aug pointer accepts NULL, meaning "not augmented".
 *
 * Equal keys: a node inserted with rb_add_*() goes after every node that
 * compares equal to it (less() is strict), so equal keys stay in FIFO order.
 */
#ifndef SCHEDLAB_KERNEL_RBTREE_H
#define SCHEDLAB_KERNEL_RBTREE_H

#include "sim/types.h"

#define RB_RED 0
#define RB_BLACK 1

struct rb_node {
	struct rb_node *parent;	/* NULL for the root; == self when cleared */
	struct rb_node *left;
	struct rb_node *right;
	int color;		/* RB_RED or RB_BLACK */
};

struct rb_root {
	struct rb_node *node;
};

struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT ((struct rb_root){ NULL })
#define RB_ROOT_CACHED ((struct rb_root_cached){ { NULL }, NULL })

#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member)                              \
	({                                                             \
		__typeof__(ptr) ____ptr = (ptr);                       \
		____ptr ? rb_entry(____ptr, type, member) : NULL;      \
	})

struct rb_augment_callbacks {
	/* recompute node's cached value; return true if it did not change */
	bool (*recompute)(struct rb_node *node);
};

static inline bool RB_EMPTY_ROOT(const struct rb_root *r)
{
	return r->node == NULL;
}

/* A cleared node points at itself: it is not in any tree. */
static inline bool RB_EMPTY_NODE(const struct rb_node *n)
{
	return n->parent == n;
}

static inline void RB_CLEAR_NODE(struct rb_node *n)
{
	n->parent = n;
}

static inline struct rb_node *rb_parent(const struct rb_node *n)
{
	return n->parent;
}

/* Leftmost (smallest) node of a cached tree, or NULL if it is empty: O(1). */
static inline struct rb_node *rb_first_cached(const struct rb_root_cached *root)
{
	return root->rb_leftmost;
}

struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
/* In-order successor/predecessor; NULL at the end or for a cleared node. */
struct rb_node *rb_next(const struct rb_node *n);
struct rb_node *rb_prev(const struct rb_node *n);

/*
 * Recompute the augmented value of node and its ancestors, stopping at the
 * first one whose value did not change. Use after changing a node's
 * augmented input in place without changing its key. No-op if node or aug
 * is NULL.
 */
void rb_augment_propagate(struct rb_node *node,
			  const struct rb_augment_callbacks *aug);

/*
 * Low-level insertion, for callers that do their own descent: link node as
 * a red leaf below parent at *link, then call rb_insert_augmented_cached()
 * with leftmost == true iff the descent never went right.
 */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->parent = parent;
	node->left = NULL;
	node->right = NULL;
	node->color = RB_RED;
	*link = node;
}

void rb_insert_augmented_cached(struct rb_node *node,
				struct rb_root_cached *root, bool leftmost,
				const struct rb_augment_callbacks *aug);

/*
 * Insert node, ordered by less(); nodes equal to an existing one go after it.
 * Inline so that the comparison is inlined into the caller's descent.
 */
static inline void
rb_add_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			bool (*less)(const struct rb_node *a,
				     const struct rb_node *b),
			const struct rb_augment_callbacks *aug)
{
	struct rb_node **link = &root->rb_root.node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_augmented_cached(node, root, leftmost, aug);
}

/* Remove node (which must be in root) and leave it cleared (RB_EMPTY_NODE). */
void rb_erase_augmented_cached(struct rb_node *node,
			       struct rb_root_cached *root,
			       const struct rb_augment_callbacks *aug);

/* Non-augmented conveniences. */
static inline void rb_add_cached(struct rb_node *node,
				 struct rb_root_cached *root,
				 bool (*less)(const struct rb_node *a,
					      const struct rb_node *b))
{
	rb_add_augmented_cached(node, root, less, NULL);
}

static inline void rb_erase_cached(struct rb_node *node,
				   struct rb_root_cached *root)
{
	rb_erase_augmented_cached(node, root, NULL);
}

#endif
