// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpudl (kernel/sched/cpudeadline.c, v6.18): the root domain's max-heap of
 * each CPU's earliest queued DL deadline, and the mask of CPUs with no DL
 * entity queued (free_cpus). find_later_rq() asks it for a CPU a DL task
 * would run on at once: a free one, else the heap's top, the CPU whose
 * earliest deadline is the latest of all, if the task's is earlier.
 *
 * The heap is an array of (deadline, cpu) with each CPU's index in it, so
 * that setting or clearing a CPU is O(log n) and the top is O(1). The
 * kernel takes cp->lock around each change; the lock and these updates
 * cost nothing beyond the enqueue and dequeue that make them (as
 * cpupri_set(), which the model does not charge either).
 */
#include "kernel/sched.h"

#include "sim/alloc.h"

#include <stdlib.h>

#define IDX_INVALID (-1)

static inline bool dl_time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static inline unsigned int parent(unsigned int i)
{
	return (i - 1) >> 1;
}

static void cpudl_swap(struct cpudl *cp, unsigned int a, unsigned int b)
{
	struct cpudl_item t = cp->elements[a];

	cp->elements[a] = cp->elements[b];
	cp->elements[b] = t;
	cp->idx[cp->elements[a].cpu] = (int)a;
	cp->idx[cp->elements[b].cpu] = (int)b;
}

/* cpudl_heapify_down(): the later deadlines stay on top */
static void cpudl_heapify_down(struct cpudl *cp, unsigned int idx)
{
	for (;;) {
		unsigned int l = 2 * idx + 1, r = l + 1, largest = idx;

		if (l < cp->size && dl_time_before(cp->elements[largest].dl, cp->elements[l].dl))
			largest = l;
		if (r < cp->size && dl_time_before(cp->elements[largest].dl, cp->elements[r].dl))
			largest = r;
		if (largest == idx)
			return;
		cpudl_swap(cp, idx, largest);
		idx = largest;
	}
}

static void cpudl_heapify_up(struct cpudl *cp, unsigned int idx)
{
	while (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl, cp->elements[idx].dl)) {
		cpudl_swap(cp, idx, parent(idx));
		idx = parent(idx);
	}
}

static void cpudl_heapify(struct cpudl *cp, unsigned int idx)
{
	if (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl, cp->elements[idx].dl))
		cpudl_heapify_up(cp, idx);
	else
		cpudl_heapify_down(cp, idx);
}

int cpudl_maximum(const struct cpudl *cp)
{
	return cp->size ? (int)cp->elements[0].cpu : -1;
}

void cpudl_set(struct cpudl *cp, unsigned int cpu, u64 dl)
{
	int old_idx = cp->idx[cpu];

	if (old_idx == IDX_INVALID) {
		unsigned int new_idx = cp->size++;

		cp->elements[new_idx] = (struct cpudl_item){ .dl = dl, .cpu = cpu };
		cp->idx[cpu] = (int)new_idx;
		cpudl_heapify_up(cp, new_idx);
		cpumask_clear_cpu(cpu, cp->free_cpus);
	} else {
		cp->elements[old_idx].dl = dl;
		cpudl_heapify(cp, (unsigned int)old_idx);
	}
}

void cpudl_clear(struct cpudl *cp, unsigned int cpu)
{
	int old_idx = cp->idx[cpu];
	unsigned int last;

	if (old_idx == IDX_INVALID)
		return;
	last = --cp->size;
	cp->idx[cpu] = IDX_INVALID;
	if ((unsigned int)old_idx != last) {
		cp->elements[old_idx] = cp->elements[last];
		cp->idx[cp->elements[old_idx].cpu] = old_idx;
		cpudl_heapify(cp, (unsigned int)old_idx);
	}
	cpumask_set_cpu(cpu, cp->free_cpus);
}

/*
 * cpudl_find(): true with @later_mask set to the free CPUs @p may use, or
 * to the heap's top if @p's deadline is earlier than that CPU's earliest.
 * (No capacity fitting: the asymmetric-capacity part is not modelled.)
 */
bool cpudl_find(const struct cpudl *cp, const struct task_struct *p, struct cpumask *later_mask)
{
	int best_cpu;

	cpumask_and(later_mask, cp->free_cpus, p->cpus_mask);
	if (!cpumask_empty(later_mask))
		return true;
	best_cpu = cpudl_maximum(cp);
	if (best_cpu >= 0 && cpumask_test_cpu((unsigned int)best_cpu, p->cpus_mask) &&
	    dl_time_before(p->dl.deadline, cp->elements[0].dl)) {
		cpumask_set_cpu((unsigned int)best_cpu, later_mask);
		return true;
	}
	return false;
}

struct cpudl *cpudl_alloc(unsigned int nr_cpus)
{
	struct cpudl *cp = xcalloc(1, sizeof(*cp));

	cp->elements = xcalloc(nr_cpus, sizeof(*cp->elements));
	cp->idx = xcalloc(nr_cpus, sizeof(*cp->idx));
	cp->free_cpus = alloc_cpumask();
	/* cpudl_init() and rq_online_dl(): every CPU free, none in the heap */
	for (unsigned int i = 0; i < nr_cpus; i++) {
		cp->idx[i] = IDX_INVALID;
		cpumask_set_cpu(i, cp->free_cpus);
	}
	return cp;
}

void cpudl_free(struct cpudl *cp)
{
	if (!cp)
		return;
	free_cpumask(cp->free_cpus);
	free(cp->idx);
	free(cp->elements);
	free(cp);
}
