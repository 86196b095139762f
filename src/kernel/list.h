/* SPDX-License-Identifier: GPL-2.0-only */
/* Doubly linked circular lists, the kernel's list_head idiom. */
#ifndef SCHEDLAB_KERNEL_LIST_H
#define SCHEDLAB_KERNEL_LIST_H

#include "sim/types.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)

#define list_for_each_entry(pos, head, member)                                  \
	for (pos = list_entry((head)->next, __typeof__(*pos), member);          \
	     &pos->member != (head); pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, n, head, member)                          \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),          \
	    n = list_entry(pos->member.next, __typeof__(*pos), member);         \
	     &pos->member != (head);                                            \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif
