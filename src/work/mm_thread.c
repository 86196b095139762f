// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mmap_lock of a threaded program (work/mm_thread.h), from Linux v6.18
 * and glibc 2.36-2.41's nptl (docs/locking.md, "mmap_lock of threaded
 * programs"):
 *
 * - pthread_create() -> allocate_stack(): get_cached_stack() takes the
 *   smallest cached stack block at least as large as asked for and at
 *   most 4 times as large; without one, mmap() of the block (the stack
 *   plus its guard page) PROT_NONE, then setup_stack_prot()'s mprotect() of
 *   all but the guard to read-write: two system calls, each holding
 *   mmap_write_lock() (do_mmap(); mprotect_fixup() splitting the VMA). The
 *   clone() with CLONE_VM that follows shares the mm: copy_mm() takes no
 *   lock (no dup_mmap()).
 * - The thread's end: advise_stack_range()'s madvise(MADV_DONTNEED) of the
 *   unused stack takes the VMA's own lock in v6.18 (madvise_lock():
 *   MADVISE_VMA_READ_LOCK, falling back to mmap_read_lock() only when
 *   lock_vma_under_rcu() fails), so not this one; exit() -> exit_mm()
 *   holds mmap_read_lock() while the task leaves the mm.
 * - pthread_join() -> __nptl_deallocate_stack() -> queue_stack(): the
 *   block joins the cache; beyond __nptl_stack_cache_maxsize (40 MiB) the
 *   oldest blocks are munmap()ed until it fits (__nptl_free_stacks()):
 *   each under mmap_write_lock() (v6.18's __vm_munmap() drops to read for
 *   the page-table teardown with mmap_write_downgrade(); schedlab's rwsem
 *   has no downgrade_write(), so the whole munmap() is a write section).
 *
 * Page faults take the per-VMA lock since v6.4 (lock_vma_under_rcu()), so
 * a thread touching its memory does not take mmap_lock, and these paths
 * are the ones that do. A process without threads takes its own mmap_lock
 * alone (fork()'s dup_mmap() of the parent's, exit_mmap()): never
 * contended, not modelled.
 */
#include "work/mm_thread.h"

#include "sim/alloc.h"
#include "work/work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the guard page glibc adds to every stack block (the default guardsize: a page) */
#define THREAD_GUARD 4096ULL
/* get_cached_stack(): a cached block more than this many times the size is not used */
#define STACK_CACHE_FIT 4

static struct list_head thread_mms = LIST_HEAD_INIT(thread_mms);

static struct thread_mm *thread_mm_get(struct work_task *w)
{
	struct thread_mm *m = w->tmm;

	if (m)
		return m;
	m = xcalloc(1, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "mmap_lock:%s", w->task->comm);
	init_rwsem(&m->mmap_lock, m->name);
	m->nr_live = 1;
	list_add_tail(&m->node, &thread_mms);
	w->tmm = m;
	return m;
}

void mm_thread_free_all(void)
{
	struct thread_mm *m, *n;

	list_for_each_entry_safe(m, n, &thread_mms, node)
	{
		free(m->cache);
		free(m);
	}
	INIT_LIST_HEAD(&thread_mms);
}

static void path_add(struct mm_path *mp, enum mm_section s)
{
	if (mp->n == MM_PATH_MAX) {
		fprintf(stderr, "schedlab: BUG: an mmap_lock path of more than %d sections\n",
			MM_PATH_MAX);
		abort();
	}
	mp->sec[mp->n++] = (unsigned char)s;
}

static void cache_remove(struct thread_mm *m, unsigned int i)
{
	m->cache_bytes -= m->cache[i];
	memmove(&m->cache[i], &m->cache[i + 1], (m->nr_cache - i - 1) * sizeof(*m->cache));
	m->nr_cache--;
}

void mm_thread_create(struct work_task *w, u64 stack)
{
	struct thread_mm *m = thread_mm_get(w);
	u64 block = (stack ? stack : THREAD_STACK_DEFAULT) + THREAD_GUARD;
	int best = -1;

	/* get_cached_stack(): the smallest block that fits, not too large */
	for (unsigned int i = 0; i < m->nr_cache; i++)
		if (m->cache[i] >= block && (best < 0 || m->cache[i] < m->cache[best]))
			best = (int)i;
	w->new_stack = block;
	if (best >= 0 && m->cache[best] <= STACK_CACHE_FIT * block) {
		w->new_stack = m->cache[best];
		cache_remove(m, (unsigned int)best);
		return;
	}
	path_add(&w->mmp, MMS_MMAP);
	path_add(&w->mmp, MMS_MPROTECT);
}

void mm_thread_inherit(struct work_task *child, const struct work_task *parent)
{
	child->tmm = parent->tmm;
	child->tmm->nr_live++;
	child->stack_bytes = parent->new_stack;
}

void mm_thread_exit(struct work_task *w)
{
	w->tmm->nr_live--;
	path_add(&w->mmp, MMS_EXIT_MM);
	w->task->exit_mm_locked = true;
}

bool mm_thread_join(struct work_task *w)
{
	struct thread_mm *m = w->tmm;

	/* queue_stack() for each, then __nptl_free_stacks() from the oldest */
	for (; w->nr_joinable; w->nr_joinable--) {
		if (m->nr_cache == m->cap_cache) {
			m->cap_cache = m->cap_cache ? 2 * m->cap_cache : 16;
			m->cache = xreallocarray(m->cache, m->cap_cache, sizeof(*m->cache));
		}
		m->cache[m->nr_cache++] = w->joinable_stack;
		m->cache_bytes += w->joinable_stack;
	}
	while (m->cache_bytes > THREAD_STACK_CACHE_MAX && m->nr_cache && w->mmp.n < MM_PATH_MAX) {
		cache_remove(m, 0);
		path_add(&w->mmp, MMS_MUNMAP);
	}
	return mm_path_active(&w->mmp);
}

/* the work under the lock of section @s, ns */
static u64 section_ns(enum mm_section s)
{
	const struct cost_model *cost = machine.cost;

	switch (s) {
	case MMS_MMAP:
		return cost->mm_mmap;
	case MMS_MPROTECT:
		return cost->mm_mprotect;
	case MMS_MUNMAP:
		return cost->mm_munmap;
	default:
		return cost->mm_exit;
	}
}

bool mm_path_run(struct work_task *w)
{
	struct mm_path *mp = &w->mmp;
	struct rw_semaphore *sem = &w->tmm->mmap_lock;

	while (mp->i < mp->n) {
		enum mm_section s = mp->sec[mp->i];
		bool read = s == MMS_EXIT_MM;

		switch (mp->phase) {
		case 0:
			/* each its own system call; exit_mm() is inside exit()'s */
			if (!read)
				charge(machine.cost->syscall);
			mp->phase = 1;
			/* fall through */
		case 1:
			if (!(read ? down_read_step(sem, &w->lock_waiter) :
				     down_write_step(sem, &w->lock_waiter)))
				return false;
			mp->phase = 2;
			/* the section runs as the task's work, as reaim's do (docs/locking.md) */
			if (section_ns(s)) {
				task_run_user(section_ns(s));
				return false;
			}
			/* fall through */
		default:
			if (read)
				up_read(sem);
			else
				up_write(sem);
			mp->phase = 0;
			mp->i++;
		}
	}
	mp->n = mp->i = 0;
	return true;
}
