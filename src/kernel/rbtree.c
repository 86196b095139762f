// SPDX-License-Identifier: GPL-2.0-only
/*
 * Red-black tree: insertion and deletion fix-ups follow the textbook (CLRS)
 * algorithm, with NULL for the nil leaves (so deletion tracks the parent of
 * the possibly-NULL replacement child explicitly).
 *
 * Augmentation invariant: whenever a rebalancing step runs, every node's
 * cached value is already correct for the current shape. That holds because
 *  - after linking or unlinking, the path from the lowest changed node to the
 *    root is recomputed before any rotation, and
 *  - a rotation keeps the set of nodes below the rotated position, so only
 *    the two rotated nodes need recomputing (lower one first) and nothing
 *    above them changes. Recolouring never affects the cached values.
 */
#include "kernel/rbtree.h"

static inline bool is_red(const struct rb_node *n)
{
	return n && n->color == RB_RED;
}

static inline bool is_black(const struct rb_node *n)
{
	return !n || n->color == RB_BLACK;
}

/* Make whatever pointed at old (its parent's link, or the root) point at new. */
static inline void change_child(struct rb_node *old, struct rb_node *new,
				struct rb_node *parent, struct rb_root *root)
{
	if (!parent)
		root->node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

static inline void augment_rotate(struct rb_node *lower, struct rb_node *upper,
				  const struct rb_augment_callbacks *aug)
{
	if (aug) {
		aug->recompute(lower);
		aug->recompute(upper);
	}
}

/* x's right child y takes x's place; x becomes y's left child. */
static void rotate_left(struct rb_node *x, struct rb_root *root,
			const struct rb_augment_callbacks *aug)
{
	struct rb_node *y = x->right;
	struct rb_node *p = x->parent;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->left = x;
	y->parent = p;
	change_child(x, y, p, root);
	x->parent = y;
	augment_rotate(x, y, aug);
}

/* x's left child y takes x's place; x becomes y's right child. */
static void rotate_right(struct rb_node *x, struct rb_root *root,
			 const struct rb_augment_callbacks *aug)
{
	struct rb_node *y = x->left;
	struct rb_node *p = x->parent;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->right = x;
	y->parent = p;
	change_child(x, y, p, root);
	x->parent = y;
	augment_rotate(x, y, aug);
}

void rb_augment_propagate(struct rb_node *node,
			  const struct rb_augment_callbacks *aug)
{
	if (!aug)
		return;
	while (node && !aug->recompute(node))
		node = node->parent;
}

void rb_insert_augmented_cached(struct rb_node *node,
				struct rb_root_cached *rc, bool leftmost,
				const struct rb_augment_callbacks *aug)
{
	struct rb_root *root = &rc->rb_root;
	struct rb_node *z = node, *p, *g, *u;

	if (leftmost)
		rc->rb_leftmost = node;

	/*
	 * The new leaf is the only change, so once an ancestor's value is
	 * unchanged the ones above it are too.
	 */
	if (aug) {
		aug->recompute(node);
		rb_augment_propagate(node->parent, aug);
	}

	while ((p = z->parent) && p->color == RB_RED) {
		g = p->parent;	/* a red node is never the root */
		if (p == g->left) {
			u = g->right;
			if (is_red(u)) {
				p->color = RB_BLACK;
				u->color = RB_BLACK;
				g->color = RB_RED;
				z = g;
				continue;
			}
			if (z == p->right) {
				rotate_left(p, root, aug);
				z = p;
				p = z->parent;
			}
			p->color = RB_BLACK;
			g->color = RB_RED;
			rotate_right(g, root, aug);
			break;
		} else {
			u = g->left;
			if (is_red(u)) {
				p->color = RB_BLACK;
				u->color = RB_BLACK;
				g->color = RB_RED;
				z = g;
				continue;
			}
			if (z == p->left) {
				rotate_right(p, root, aug);
				z = p;
				p = z->parent;
			}
			p->color = RB_BLACK;
			g->color = RB_RED;
			rotate_left(g, root, aug);
			break;
		}
	}
	root->node->color = RB_BLACK;
}

/*
 * Restore the red-black properties after a black node was removed from
 * above x (x may be NULL, hence the explicit parent xp): x carries an extra
 * black.
 */
static void erase_fixup(struct rb_node *x, struct rb_node *xp,
			struct rb_root *root,
			const struct rb_augment_callbacks *aug)
{
	struct rb_node *w;

	while (x != root->node && is_black(x)) {
		/*
		 * If x is NULL its sibling cannot be (it has black height
		 * >= 1), so x == xp->left identifies x's side unambiguously.
		 */
		if (x == xp->left) {
			w = xp->right;
			if (w->color == RB_RED) {
				w->color = RB_BLACK;
				xp->color = RB_RED;
				rotate_left(xp, root, aug);
				w = xp->right;
			}
			if (is_black(w->left) && is_black(w->right)) {
				w->color = RB_RED;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (is_black(w->right)) {
				w->left->color = RB_BLACK;
				w->color = RB_RED;
				rotate_right(w, root, aug);
				w = xp->right;
			}
			w->color = xp->color;
			xp->color = RB_BLACK;
			w->right->color = RB_BLACK;
			rotate_left(xp, root, aug);
			x = root->node;
			break;
		} else {
			w = xp->left;
			if (w->color == RB_RED) {
				w->color = RB_BLACK;
				xp->color = RB_RED;
				rotate_right(xp, root, aug);
				w = xp->left;
			}
			if (is_black(w->left) && is_black(w->right)) {
				w->color = RB_RED;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (is_black(w->left)) {
				w->right->color = RB_BLACK;
				w->color = RB_RED;
				rotate_left(w, root, aug);
				w = xp->left;
			}
			w->color = xp->color;
			xp->color = RB_BLACK;
			w->left->color = RB_BLACK;
			rotate_right(xp, root, aug);
			x = root->node;
			break;
		}
	}
	if (x)
		x->color = RB_BLACK;
}

void rb_erase_augmented_cached(struct rb_node *z, struct rb_root_cached *rc,
			       const struct rb_augment_callbacks *aug)
{
	struct rb_root *root = &rc->rb_root;
	struct rb_node *x, *xp, *y = NULL;
	int removed_color;

	if (rc->rb_leftmost == z)
		rc->rb_leftmost = rb_next(z);

	if (!z->left || !z->right) {
		/* Splice z out; its only child (or NULL) takes its place. */
		x = z->left ? z->left : z->right;
		xp = z->parent;
		removed_color = z->color;
		if (x)
			x->parent = xp;
		change_child(z, x, xp, root);
	} else {
		/*
		 * Two children: z's successor y (leftmost of z->right, so it
		 * has no left child) is spliced out of its spot and takes z's
		 * place and colour; y's right child x takes y's old spot.
		 */
		y = z->right;
		while (y->left)
			y = y->left;
		x = y->right;
		removed_color = y->color;
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			xp->left = x;
			if (x)
				x->parent = xp;
			y->right = z->right;
			y->right->parent = y;
		}
		y->left = z->left;
		y->left->parent = y;
		y->parent = z->parent;
		y->color = z->color;
		change_child(z, y, z->parent, root);
	}

	if (aug) {
		struct rb_node *n = xp;

		/*
		 * In the two-child case every node from xp up to y (now at
		 * z's position) lost y from its subtree and y's own subtree
		 * differs, so all of them are recomputed unconditionally.
		 * Above that (and in the one-child case from xp) only z
		 * disappeared, so an unchanged value ends the walk.
		 */
		if (y) {
			for (;;) {
				aug->recompute(n);
				if (n == y)
					break;
				n = n->parent;
			}
			n = y->parent;
		}
		rb_augment_propagate(n, aug);
	}

	if (removed_color == RB_BLACK)
		erase_fixup(x, xp, root, aug);

	RB_CLEAR_NODE(z);
	z->left = NULL;
	z->right = NULL;
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->node;

	if (!n)
		return NULL;
	while (n->left)
		n = n->left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->node;

	if (!n)
		return NULL;
	while (n->right)
		n = n->right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *n)
{
	struct rb_node *p;

	if (RB_EMPTY_NODE(n))
		return NULL;
	if (n->right) {
		p = n->right;
		while (p->left)
			p = p->left;
		return p;
	}
	while ((p = n->parent) && n == p->right)
		n = p;
	return p;
}

struct rb_node *rb_prev(const struct rb_node *n)
{
	struct rb_node *p;

	if (RB_EMPTY_NODE(n))
		return NULL;
	if (n->left) {
		p = n->left;
		while (p->right)
			p = p->right;
		return p;
	}
	while ((p = n->parent) && n == p->left)
		n = p;
	return p;
}
