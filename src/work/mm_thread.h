/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mmap_lock of a threaded program (docs/locking.md, "mmap_lock of
 * threaded programs"): glibc's pthread_create() maps each new thread's
 * stack and its guard page (mmap() and mprotect(), each under
 * mmap_write_lock()) unless its stack cache has one; the thread's exit
 * takes mmap_read_lock() in exit_mm(); pthread_join() puts the stack in
 * the cache and munmap()s the oldest stacks beyond its 40 MiB (under
 * mmap_write_lock()). The threads of one process share the lock, a struct
 * rw_semaphore (kernel/locking.h), so they spin and sleep on it as v6.18's
 * rwsem does. The path runs in the executor (work/exec.c) before the
 * operation it belongs to.
 */
#ifndef SCHEDLAB_WORK_MM_THREAD_H
#define SCHEDLAB_WORK_MM_THREAD_H

#include "kernel/locking.h"

#include <stdbool.h>

struct work_task;

/* glibc's default thread stack: RLIMIT_STACK's usual 8 MiB (__pthread_initialize_minimal()) */
#define THREAD_STACK_DEFAULT (8ULL << 20)
/* PTHREAD_STACK_MIN on x86-64 (glibc's bits/local_lim.h) */
#define THREAD_STACK_MIN 16384ULL

/* the process of a threaded program: its mm's mmap_lock and glibc's stack cache */
struct thread_mm {
	struct rw_semaphore mmap_lock;
	char name[32]; /* "mmap_lock:COMM", for --lock-stat */
	/* stack_cache: the stack blocks of joined threads, oldest first */
	u64 *cache;
	unsigned int nr_cache, cap_cache;
	u64 cache_bytes; /* stack_cache_actsize */
	/*
	 * its tasks alive, the creator included: above 1, the files_struct is
	 * shared and fdget() takes a reference (the cost model's fget_shared)
	 */
	unsigned int nr_live;
	struct list_head node; /* every thread_mm of the run */
};

/* a kernel path of mmap_lock sections, run before the operation it belongs to */
enum mm_section {
	MMS_MMAP, /* mmap() of a new stack, PROT_NONE: do_mmap() */
	MMS_MPROTECT, /* mprotect() of all but the guard page: mprotect_fixup(), a split */
	MMS_MUNMAP, /* munmap() of a cached stack: do_vmi_align_munmap() */
	MMS_EXIT_MM, /* exit_mm(): the task leaves the mm (a read section) */
};

#define MM_PATH_MAX 8

struct mm_path {
	unsigned char sec[MM_PATH_MAX]; /* enum mm_section */
	unsigned char n, i, phase;
};

static inline bool mm_path_active(const struct mm_path *mp)
{
	return mp->i < mp->n;
}

/*
 * pthread_create() by @w of a thread with a stack of @stack bytes (0:
 * the default): its process's mmap_lock (set up at the first thread),
 * and either a cached stack or the mmap() and mprotect() path. The new
 * thread's work_task then inherits it (mm_thread_inherit()).
 */
void mm_thread_create(struct work_task *w, u64 stack);
void mm_thread_inherit(struct work_task *child, const struct work_task *parent);
/* a thread of a threaded program exits: exit_mm()'s read section, its stack to be joined */
void mm_thread_exit(struct work_task *w);
/*
 * pthread_join() by @w of the threads it created that have exited: their
 * stacks into the cache, a munmap() path for those beyond its limit.
 * True when a path was started (the wait goes on after it).
 */
bool mm_thread_join(struct work_task *w);
/*
 * Run @w's path: true once it is done, false while a section waits for
 * the lock or runs (the executor is stepped again).
 */
bool mm_path_run(struct work_task *w);

/* Free every thread_mm (end of a run). */
void mm_thread_free_all(void);

/* tests: the bytes glibc keeps cached (__nptl_stack_cache_maxsize) */
#define THREAD_STACK_CACHE_MAX (40ULL << 20)

#endif
