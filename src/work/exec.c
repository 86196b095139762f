// SPDX-License-Identifier: GPL-2.0-only
/*
 * The executor: runs a task's operations as the kernel would. Each call of
 * work_step() performs one operation on the task's CPU. A syscall that has
 * to wait puts the task on a wait queue and schedules; when the task runs
 * again the same operation is retried (as the kernel's wait loops re-check
 * their condition), without paying the syscall entry again.
 */
#include "work/work.h"
#include "work/tool_image.h"

#include "kernel/tasklist.h"
#include "work/skb_cache.h"
#include "sim/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what the workload allocated and did not free itself, freed by work_free_all() */
static void **arena;
static size_t arena_nr, arena_cap;
/* work_tasks and channels, which can also be freed during the run */
static struct list_head work_tasks = LIST_HEAD_INIT(work_tasks);
static struct list_head channels = LIST_HEAD_INIT(channels);

static void *arena_alloc(size_t size)
{
	void *p = xcalloc(1, size);

	if (arena_nr == arena_cap) {
		arena_cap = arena_cap ? 2 * arena_cap : 64;
		arena = xreallocarray(arena, arena_cap, sizeof(*arena));
	}
	arena[arena_nr++] = p;
	return p;
}

/* workload groups (work_set_group()) */
static unsigned int cur_group;
/* the first tasks' policy (work_set_sched_attr()) */
static struct sched_attr start_attr;
static bool start_attr_set;
static u64 group_alive[WORK_MAX_GROUPS];
static int end_group = -1;
/* futex_init()'s next simulated user address */
static u64 futex_next_uaddr = FUTEX_USER_BASE;

void work_free_all(void)
{
	struct work_task *w, *wn;
	struct channel *ch, *cn;

	list_for_each_entry_safe(ch, cn, &channels, node) {
		channel_free(ch);
		free(ch);
	}
	INIT_LIST_HEAD(&channels);
	list_for_each_entry_safe(w, wn, &work_tasks, node)
		free(w);
	INIT_LIST_HEAD(&work_tasks);
	for (size_t i = 0; i < arena_nr; i++)
		free(arena[i]);
	free(arena);
	arena = NULL;
	arena_nr = arena_cap = 0;
	cur_group = 0;
	start_attr_set = false;
	memset(group_alive, 0, sizeof(group_alive));
	end_group = -1;
	futex_next_uaddr = FUTEX_USER_BASE;
	mm_thread_free_all();
}

void work_live_counts(size_t *tasks, size_t *nr_channels)
{
	struct list_head *l;

	*tasks = *nr_channels = 0;
	for (l = work_tasks.next; l != &work_tasks; l = l->next)
		++*tasks;
	for (l = channels.next; l != &channels; l = l->next)
		++*nr_channels;
}

void work_set_group(unsigned int group)
{
	if (group >= WORK_MAX_GROUPS) {
		fprintf(stderr, "schedlab: workload group %u out of range\n", group);
		abort();
	}
	cur_group = group;
}

/* each group's answer to a fork that sched_fork() fails (work_set_fork_failed()) */
static struct {
	void (*fn)(void *ctx, bool thread);
	void *ctx;
} fork_failed[WORK_MAX_GROUPS];

void work_set_fork_failed(void (*fn)(void *ctx, bool thread), void *ctx)
{
	fork_failed[cur_group].fn = fn;
	fork_failed[cur_group].ctx = ctx;
}

void work_set_sched_attr(const struct sched_attr *attr)
{
	start_attr_set = attr != NULL;
	if (attr)
		start_attr = *attr;
}

void work_end_with_group(unsigned int group)
{
	end_group = (int)group;
}

/* ------------------------------------------------------------------ */
/* channels                                                            */

struct channel *channel_new(enum channel_kind kind)
{
	struct channel *ch = xcalloc(1, sizeof(*ch));

	ch->kind = kind;
	ch->capacity = kind == CH_PIPE ? PIPE_DEF_CAPACITY : UNIX_SNDBUF_DEFAULT;
	init_waitqueue_head(&ch->rd_wait);
	init_waitqueue_head(&ch->wr_wait);
	sim_lock_init_in_path(&ch->state_lock);
	sim_lock_init_in_path(&ch->queue_lock);
	cache_line_init(&ch->wmem, 1);
	ch->skb_free_cpu = -1;
	sim_lock_init_in_path(&ch->pipe_mutex);
	cache_line_init(&ch->pipe_data, 1);
	list_add_tail(&ch->node, &channels);
	return ch;
}

void channel_destroy(struct channel *ch)
{
	if (!list_empty(&ch->rd_wait.head) || !list_empty(&ch->wr_wait.head))
		return;
	list_del_init(&ch->node);
	channel_free(ch);
	free(ch);
}

void futex_init_at(struct futex *f, u32 val, u64 uaddr, enum futex_scope scope)
{
	f->val = val;
	f->scope = scope;
	f->uaddr = uaddr;
	f->mm = 0;
	init_waitqueue_head(&f->wq);
	cache_line_init(&f->line, 1);
}

void futex_init(struct futex *f, u32 val)
{
	futex_init_at(f, val, futex_next_uaddr, FUTEX_SCOPE_PRIVATE);
	futex_next_uaddr += sizeof(f->val);
}

void futex_init_unhashed(struct futex *f, u32 val)
{
	futex_init_at(f, val, 0, FUTEX_SCOPE_NONE);
}


static void skb_push(struct channel *ch, u32 len, u64 mark)
{
	if (ch->skb_nr == ch->skb_cap) {
		/* a power of two (struct channel) */
		u32 ncap = ch->skb_cap ? 2 * ch->skb_cap : 64;
		struct skb_ent *n = xreallocarray(NULL, ncap, sizeof(*n));

		for (u32 i = 0; i < ch->skb_nr; i++)
			n[i] = ch->skb[(ch->skb_head + i) & (ch->skb_cap - 1)];
		free(ch->skb);
		ch->skb = n;
		ch->skb_head = 0;
		ch->skb_cap = ncap;
	}
	ch->skb[(ch->skb_head + ch->skb_nr) & (ch->skb_cap - 1)] =
		(struct skb_ent){ .len = len, .cpu = (s32)smp_processor_id(), .mark = mark };
	ch->skb_nr++;
}

void channel_free(struct channel *ch)
{
	free(ch->skb);
	ch->skb = NULL;
}

/*
 * Whether glibc makes @kind a cancellation point (pthreads(7)): read(),
 * write(), poll(), nanosleep(), clock_nanosleep(), waitpid() and
 * pthread_join() are; sched_yield(), sched_setaffinity() and the futex
 * calls the modelled benchmarks make with syscall(SYS_futex) are not.
 */
static bool op_cancel_point(enum op_kind kind)
{
	switch (kind) {
	case OP_READ:
	case OP_WRITE:
	case OP_POLL_IN:
	case OP_SLEEP:
	case OP_SLEEP_UNTIL:
	case OP_WAIT_CHILDREN:
		return true;
	default:
		return false;
	}
}

/* the calls that look up a file descriptor (fdget()): read(), write(), poll() */
static bool op_takes_fd(enum op_kind kind)
{
	return kind == OP_READ || kind == OP_WRITE || kind == OP_POLL_IN;
}

/*
 * What a process that has created threads (w->tmm) pays around a call, at
 * the start of the operation (work_step()): glibc's wrapper runs before the
 * system call is entered, and once however often the call blocks.
 */
static __attribute__((noinline)) void op_start_threaded(struct work_task *w)
{
	const struct cost_model *cost = machine.cost;

	if (op_cancel_point(w->op.kind))
		charge(cost->cancel_point);
	if (w->tmm->nr_live > 1 && op_takes_fd(w->op.kind))
		charge(cost->fget_shared);
}

static void sys_enter(struct work_task *w)
{
	if (!w->in_syscall) {
		charge(machine.cost->syscall);
		w->in_syscall = true;
	}
}

static void op_done(struct work_task *w, u64 result)
{
	w->in_syscall = false;
	w->op_valid = false;
	w->result = result;
}

/* wait on @wq in the current operation and give up the CPU */
static void block_on(struct wait_queue_head *wq, bool exclusive)
{
	prepare_to_wait(wq, exclusive, TASK_INTERRUPTIBLE);
	schedule();
}

static void finish_wait_if_queued(struct work_task *w, struct wait_queue_head *wq)
{
	if (!list_empty(&w->task->wq_entry.entry))
		finish_wait(wq);
}

static void futex_key_of(struct futex_key *key, struct futex *f)
{
	struct task_struct *p = current;

	/* a private futex is one process's: another's key would never match */
	if (f->scope == FUTEX_SCOPE_PRIVATE) {
		if (!f->mm)
			f->mm = p->mm;
		if (unlikely(f->mm != p->mm)) {
			fprintf(stderr,
				"schedlab: BUG: private futex %#llx used by two processes (mm %d and %d): the workload needs FUTEX_SCOPE_SHARED\n",
				(unsigned long long)f->uaddr, f->mm, p->mm);
			abort();
		}
	}
	get_futex_key(key, f->uaddr, p, f->scope == FUTEX_SCOPE_SHARED);
}

/*
 * futex_wait_setup() and futex_wait_queue(): under the bucket lock the
 * value is compared (EWOULDBLOCK, returned as 1, if it changed) and the
 * task queued on the bucket; it sleeps until a FUTEX_WAKE unqueues it.
 */
static void do_futex_wait(struct work_task *w, struct futex *f, u32 val)
{
	struct futex_hash_bucket *hb;
	struct futex_key key;

	if (f->scope == FUTEX_SCOPE_NONE) {
		if (f->val != val) {
			op_done(w, 1);
			return;
		}
		block_on(&f->wq, true);
		return;
	}
	futex_key_of(&key, f);
	hb = futex_q_lock(&w->futex_q, &key, w->task);
	if (f->val != val) {
		futex_q_unlock(hb);
		op_done(w, 1); /* EWOULDBLOCK */
		return;
	}
	w->task->__state = TASK_INTERRUPTIBLE;
	futex_queue(&w->futex_q, hb);
	schedule();
}

static int do_futex_wake(struct futex *f, u32 nr)
{
	struct futex_key key;

	if (f->scope == FUTEX_SCOPE_NONE)
		return __wake_up(&f->wq, TASK_NORMAL, (int)nr, 0);
	futex_key_of(&key, f);
	return futex_wake(&key, current, (int)nr);
}

/*
 * FUTEX_CMP_REQUEUE or FUTEX_REQUEUE of @op's futex's waiters to its
 * futex2: futex_requeue()'s result, a count or a negative errno
 */
static s64 do_futex_requeue(struct work_task *w, const struct op_desc *op)
{
	struct futex *f = op->futex, *f2 = op->requeue.futex2;
	struct futex_key key1, key2;

	if (unlikely(f->scope == FUTEX_SCOPE_NONE || f2->scope == FUTEX_SCOPE_NONE)) {
		fprintf(stderr,
			"schedlab: BUG: FUTEX_REQUEUE on a wait word that is no futex (FUTEX_SCOPE_NONE)\n");
		abort();
	}
	futex_key_of(&key1, f);
	futex_key_of(&key2, f2);
	return futex_requeue(&key1, &key2, w->task, (int)op->requeue.nr_wake,
			     (int)op->requeue.nr_requeue, &f->val,
			     op->kind == OP_FUTEX_CMP_REQUEUE ? &op->val : NULL);
}

/*
 * glibc's user-space side of a PTHREAD_PRIO_INHERIT mutex: a cmpxchg of
 * the word, 0 -> TID to lock and TID -> 0 to unlock; it fails while
 * another task holds it or FUTEX_WAITERS is set, and then the system call
 * does the work. The kernel is never entered for an uncontended mutex.
 */
static bool pi_user_cmpxchg(struct futex *f, u32 old, u32 new)
{
	charge(machine.cost->lock_atomic);
	cl_write(&f->line);
	if (f->val != old)
		return false;
	f->val = new;
	return true;
}

/* FUTEX_LOCK_PI or FUTEX_TRYLOCK_PI as a step; true once it returned */
static bool do_futex_lock_pi(struct work_task *w, const struct op_desc *op, s64 *res)
{
	struct futex_uword u = { &op->futex->val, &op->futex->line };
	struct futex_key key;
	int ret;

	futex_key_of(&key, op->futex);
	if (!futex_lock_pi_step(&w->futex_q, &w->lock_waiter, &key, &u, w->task,
				op->kind == OP_FUTEX_TRYLOCK_PI, &ret))
		return false;
	*res = ret;
	return true;
}

/*
 * FUTEX_WAIT_REQUEUE_PI's start (futex_wait_setup()): the value compared
 * under the bucket lock (-EAGAIN), then queued with its rt_mutex waiter
 * and the PI futex it expects, asleep until FUTEX_CMP_REQUEUE_PI moves it
 */
static void do_futex_wait_requeue_pi(struct work_task *w, const struct op_desc *op)
{
	struct futex_q *q = &w->futex_q;
	struct futex_hash_bucket *hb;
	struct futex_key key;

	futex_key_of(&key, op->futex);
	futex_key_of(&q->requeue_pi_key, op->requeue.futex2);
	if (op->futex == op->requeue.futex2) {
		op_done(w, (u64)-EINVAL);
		return;
	}
	hb = futex_q_lock(q, &key, w->task);
	if (op->futex->val != op->val) {
		futex_q_unlock(hb);
		op_done(w, (u64)-EAGAIN);
		return;
	}
	q->rt_waiter = &w->lock_waiter;
	q->requeue_state = Q_REQUEUE_PI_NONE;
	q->pi_state = NULL;
	w->task->__state = TASK_INTERRUPTIBLE;
	futex_queue(q, hb);
	schedule();
}

/* woken: it holds the PI futex, or waits on its rt_mutex first; true once it returned */
static bool do_futex_wait_requeue_pi_woken(struct work_task *w, const struct op_desc *op, s64 *res)
{
	struct futex *f2 = op->requeue.futex2;
	struct futex_uword u = { &f2->val, &f2->line };
	struct futex_key key2;
	int ret;

	futex_key_of(&key2, f2);
	if (!futex_wait_requeue_pi_step(&w->futex_q, &w->lock_waiter, &key2, &u, w->task, &ret))
		return false;
	*res = ret;
	return true;
}

static s64 do_futex_cmp_requeue_pi(struct work_task *w, const struct op_desc *op)
{
	struct futex *f2 = op->requeue.futex2;
	struct futex_uword u2 = { &f2->val, &f2->line };
	struct futex_key key1, key2;

	/* FUTEX_CMP_REQUEUE_PI takes nr_wake 1 only */
	if (op->requeue.nr_wake != 1)
		return -EINVAL;
	futex_key_of(&key1, op->futex);
	futex_key_of(&key2, f2);
	return futex_requeue_pi(&key1, &key2, w->task, (int)op->requeue.nr_requeue,
				&op->futex->val, op->val, &u2);
}

static int do_futex_unlock_pi(struct work_task *w, struct futex *f)
{
	struct futex_uword u = { &f->val, &f->line };
	struct futex_key key;

	futex_key_of(&key, f);
	return futex_unlock_pi(&key, &u, w->task);
}

/*
 * pipe_write(): under the pipe mutex (a sleeping lock whose holder is
 * always running here, so waiters spin on it as mutex optimistic spinning
 * does), the header with head/tail and the buffer page's lines are written;
 * a write of up to a page is atomic (it waits for room for all of it). The
 * reader is woken after the unlock when the pipe was empty.
 */
static void do_pipe_write(struct work_task *w, struct channel *ch, u32 bytes)
{
	const struct cost_model *cost = machine.cost;
	bool was_empty = ch->bytes == 0;
	u32 n;

	sys_enter(w);
	sim_lock_acquire(&ch->pipe_mutex);
	charge(cost->pipe_write);
	if (ch->reader_closed) {
		/* no reader left: EPIPE (SIGPIPE ignored), returned as 0 bytes */
		sim_lock_release(&ch->pipe_mutex);
		finish_wait_if_queued(w, &ch->wr_wait);
		op_done(w, 0);
		return;
	}
	if (ch->capacity - ch->used < min(bytes, 4096u)) {
		sim_lock_release(&ch->pipe_mutex);
		block_on(&ch->wr_wait, true);
		return;
	}
	finish_wait_if_queued(w, &ch->wr_wait);
	n = (u32)min((u64)bytes, ch->capacity - ch->used);
	ch->used += n;
	ch->bytes += n;
	ch->nr_writes++;
	cl_write_n(&ch->pipe_data, cl_lines(n));
	charge(cost_copy(cost, n));
	sim_lock_release(&ch->pipe_mutex);
	if (was_empty && wq_has_sleeper(&ch->rd_wait))
		__wake_up(&ch->rd_wait, TASK_INTERRUPTIBLE, 1, WF_SYNC);
	op_done(w, n);
}

/*
 * unix_stream_sendmsg(): the skb comes from the slab (its objects were last
 * written by the CPU that freed them, the reader), is charged to the
 * sending socket's sk_wmem_alloc (read first against sndbuf:
 * sock_alloc_send_pskb() blocks when it is full), filled, then queued on
 * the peer under its unix_state_lock and the receive-queue lock; then
 * sk_data_ready() wakes a sleeping reader under the wait-queue lock.
 */
static void do_unix_write(struct work_task *w, struct channel *ch, u32 bytes)
{
	const struct cost_model *cost = machine.cost;
	unsigned int lines = skb_lines(bytes);
	bool local = ch->skb_free_cpu == (int)smp_processor_id();
	u64 mark;

	sys_enter(w);
	charge(cost->unix_write);
	cl_read(&ch->wmem);
	if (ch->used >= ch->capacity) {
		block_on(&ch->wr_wait, false);
		return;
	}
	finish_wait_if_queued(w, &ch->wr_wait);
	charge(cost->skb_alloc);
	cl_fetch(ch->skb_free_cpu, lines);
	skb_cache_alloc(lines, local, &mark);
	cl_write(&ch->wmem);
	ch->used += bytes + cost->unix_skb_overhead;
	charge(cost_copy(cost, bytes));

	sim_lock_acquire(&ch->state_lock);
	charge(cost->skb_queue);
	sim_lock_acquire(&ch->queue_lock);
	skb_push(ch, bytes, mark);
	ch->bytes += bytes;
	ch->nr_writes++;
	sim_lock_release(&ch->queue_lock);
	sim_lock_release(&ch->state_lock);

	if (wq_has_sleeper(&ch->rd_wait))
		__wake_up(&ch->rd_wait, TASK_INTERRUPTIBLE, 1, WF_SYNC);
	op_done(w, bytes);
}

static void do_write(struct work_task *w, struct channel *ch, u32 bytes)
{
	if (ch->kind == CH_PIPE)
		do_pipe_write(w, ch, bytes);
	else
		do_unix_write(w, ch, bytes);
}

/* pipe_read(): the mirror of pipe_write(); a writer waits for a freed page */
static void do_pipe_read(struct work_task *w, struct channel *ch, u32 bytes)
{
	const struct cost_model *cost = machine.cost;
	bool wake_writers;
	u64 n, before;

	sys_enter(w);
	sim_lock_acquire(&ch->pipe_mutex);
	charge(cost->pipe_read);
	if (!ch->bytes && ch->writer_closed) {
		/* no writer left: end of file */
		sim_lock_release(&ch->pipe_mutex);
		finish_wait_if_queued(w, &ch->rd_wait);
		op_done(w, 0);
		return;
	}
	if (!ch->bytes) {
		sim_lock_release(&ch->pipe_mutex);
		block_on(&ch->rd_wait, true);
		return;
	}
	finish_wait_if_queued(w, &ch->rd_wait);
	n = min((u64)bytes, ch->bytes);
	before = ch->capacity - ch->used;
	ch->used -= n;
	wake_writers = (ch->capacity - ch->used) / 4096 > before / 4096;
	ch->bytes -= n;
	ch->nr_reads++;
	cl_read_n(&ch->pipe_data, cl_lines(n));
	charge(cost_copy(cost, n));
	sim_lock_release(&ch->pipe_mutex);
	if (wake_writers && wq_has_sleeper(&ch->wr_wait))
		__wake_up(&ch->wr_wait, TASK_INTERRUPTIBLE, 1, WF_SYNC);
	op_done(w, n);
}

/* skb_peek() under our own unix_state_lock: is anything queued? */
static bool unix_peek(struct channel *ch)
{
	bool queued;

	sim_lock_acquire(&ch->state_lock);
	cl_read(&ch->queue_lock.line);
	queued = ch->bytes != 0;
	sim_lock_release(&ch->state_lock);
	return queued;
}

/*
 * unix_stream_read_generic(): peek under the state lock (or sleep), copy
 * out of the skb its writer filled, and for each skb used up: unlink it
 * under the receive-queue lock and free it (sock_wfree() gives the
 * sender's sk_wmem_alloc back and wakes a writer once a quarter of sndbuf
 * is free; the slab objects stay with this CPU until a sender reuses them).
 */
static void do_unix_read(struct work_task *w, struct channel *ch, u32 bytes)
{
	const struct cost_model *cost = machine.cost;
	bool wake_writers = false;
	u64 n, left;

	sys_enter(w);
	charge(cost->unix_read);
	if (!unix_peek(ch)) {
		block_on(&ch->rd_wait, false);
		return;
	}
	finish_wait_if_queued(w, &ch->rd_wait);
	n = min((u64)bytes, ch->bytes);
	left = n;
	while (left) {
		struct skb_ent *head = &ch->skb[ch->skb_head];
		u32 avail = head->len - ch->head_consumed;
		u32 take = (u32)min((u64)avail, left);

		cl_fetch(head->cpu, skb_lines(take));
		/* the first read of this skb finds what is left of it in the cache */
		if (!ch->head_consumed)
			skb_cache_read(skb_lines(head->len), head->cpu == (int)smp_processor_id(),
				       head->mark);
		charge(cost_copy(cost, take));
		left -= take;
		if (take < avail) {
			ch->head_consumed += take;
			break;
		}
		sim_lock_acquire(&ch->queue_lock);
		charge(cost->skb_unlink);
		ch->head_consumed = 0;
		ch->skb_head = (ch->skb_head + 1) & (ch->skb_cap - 1);
		ch->skb_nr--;
		sim_lock_release(&ch->queue_lock);
		charge(cost->skb_free);
		cl_write(&ch->wmem);
		ch->used -= head->len + cost->unix_skb_overhead;
		ch->skb_free_cpu = (int)smp_processor_id();
		skb_cache_free();
		/* sock_wfree -> unix_write_space: writable at a quarter of sndbuf */
		if ((ch->used << 2) <= ch->capacity)
			wake_writers = true;
	}
	ch->bytes -= n;
	ch->nr_reads++;
	if (wake_writers && wq_has_sleeper(&ch->wr_wait))
		__wake_up(&ch->wr_wait, TASK_INTERRUPTIBLE, 1, WF_SYNC);
	op_done(w, n);
}

static void do_read(struct work_task *w, struct channel *ch, u32 bytes)
{
	if (ch->kind == CH_PIPE)
		do_pipe_read(w, ch, bytes);
	else
		do_unix_read(w, ch, bytes);
}

/* poll(POLLIN) costs a read's worth of channel work */
static void do_poll_in(struct work_task *w, struct channel *ch)
{
	bool ready;

	sys_enter(w);
	if (ch->kind == CH_PIPE) {
		charge(machine.cost->pipe_read);
		ready = ch->bytes != 0;
	} else {
		charge(machine.cost->unix_read);
		ready = unix_peek(ch);
	}
	if (!ready) {
		block_on(&ch->rd_wait, false);
		return;
	}
	finish_wait_if_queued(w, &ch->rd_wait);
	op_done(w, 1);
}

/*
 * pipe_release() of the last writer or reader: every waiter of the other
 * side is woken to see end of file or EPIPE.
 */
void pipe_close_write(struct channel *ch)
{
	ch->writer_closed = true;
	__wake_up(&ch->rd_wait, TASK_INTERRUPTIBLE, 0, 0);
}

void pipe_close_read(struct channel *ch)
{
	ch->reader_closed = true;
	__wake_up(&ch->wr_wait, TASK_INTERRUPTIBLE, 0, 0);
}

/* ------------------------------------------------------------------ */
/* IPIs from a kernel thread                                           */

/* the ipistorm module's function: empty */
static void nop_func(void *info)
{
	(void)info;
}

static bool all_done(struct work_task *w)
{
	for (unsigned int i = 0; i < machine.nr_cpus; i++)
		if (!w->csd[i].done)
			return false;
	return true;
}

/*
 * smp_call_function_single() / smp_call_function(): for each target, take
 * the caller's call slot for it (csd_lock(): if the previous call through
 * it, made with wait=0, is still queued or running, spin until the target
 * unlocks it), queue the call; with wait, spin until each target has run it
 * (csd_lock_wait()). The CPU stays busy while it spins and takes interrupts;
 * it goes on when the awaited csd_unlock reaches it.
 */
static void do_smp_call(struct work_task *w, struct op_desc *op)
{
	struct task_struct *p = w->task;
	unsigned int this_cpu = smp_processor_id();
	bool wait = op->bytes != 0;

	if (!w->csd) {
		w->csd = arena_alloc(machine.nr_cpus * sizeof(*w->csd));
		for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++)
			w->csd[cpu] = (struct call_single_data){ .done = true };
	}
	if (p->csd_spinning) {
		if (w->csd_locking) {
			if (!w->csd[w->csd_cpu].done)
				return; /* another csd_unlock, not the one awaited */
			w->csd_locking = false;
			p->csd_spinning = false;
		} else {
			if (!all_done(w))
				return; /* a csd_unlock arrived for one of several */
			p->csd_spinning = false;
			op_done(w, 0);
			return;
		}
	} else {
		w->csd_cpu = 0;
	}
	for (; w->csd_cpu < machine.nr_cpus; w->csd_cpu++) {
		unsigned int cpu = w->csd_cpu;
		bool target = op->kind == OP_SMP_CALL ? cpu == op->val : cpu != this_cpu;
		struct call_single_data *csd = &w->csd[cpu];

		/* a call to ourselves just runs */
		if (!target || cpu == this_cpu)
			continue;
		if (!csd->done) {
			/* csd_lock(): never requeue a slot that is still queued */
			csd->lock_waiter = true;
			w->csd_locking = true;
			p->csd_spinning = true;
			return;
		}
		*csd = (struct call_single_data){ .func = nop_func, .wait = wait };
		smp_call_function_single_async(cpu, csd);
	}
	if (wait && !all_done(w)) {
		p->csd_spinning = true;
		return;
	}
	op_done(w, 0);
}

/* ------------------------------------------------------------------ */
/* the step                                                            */

extern const struct task_exec work_exec;

static void sleep_timer_fn(struct hrtimer *t)
{
	struct work_task *w = container_of(t, struct work_task, timer);

	wake_up_process(w->task);
}

static struct work_task *work_task_new(const struct program *prog, void *state,
				       unsigned int group)
{
	struct work_task *w = xcalloc(1, sizeof(*w));

	list_add_tail(&w->node, &work_tasks);
	w->group = group;
	group_alive[group]++;
	w->prog = prog;
	w->state = state;
	hrtimer_init(&w->timer, sleep_timer_fn);
	init_waitqueue_head(&w->child_wait);
	INIT_LIST_HEAD(&w->futex_q.list);
	return w;
}

static void bind(struct work_task *w, struct task_struct *p)
{
	w->task = p;
	lock_waiter_init(&w->lock_waiter, p);
	p->child_wait = &w->child_wait;
}

void work_signal(struct work_task *w)
{
	w->sig_pending = true;
	if (w->task->__state == TASK_INTERRUPTIBLE)
		wake_up_process(w->task);
}

/* the wait queue the operation in progress may be on */
static struct wait_queue_head *op_wait_queue(struct work_task *w)
{
	struct op_desc *op = &w->op;

	switch (op->kind) {
	case OP_READ:
	case OP_POLL_IN:
		return &op->ch->rd_wait;
	case OP_WRITE:
		return &op->ch->wr_wait;
	case OP_FUTEX_WAIT:
		/* a hashed futex's waiter is on its bucket (futex_unqueue()) */
		return op->futex->scope == FUTEX_SCOPE_NONE ? &op->futex->wq : NULL;
	case OP_WAIT_CHILDREN:
		return &w->child_wait;
	default:
		return NULL;
	}
}

/*
 * A signal at return to user: the syscall in progress is abandoned (off
 * its wait queue, its sleep timer cancelled) and the handler runs.
 */
static void take_signal(struct work_task *w)
{
	struct wait_queue_head *wq;

	w->sig_pending = false;
	if (w->op_valid) {
		wq = op_wait_queue(w);
		if (wq)
			finish_wait_if_queued(w, wq);
		/* a FUTEX_WAIT_REQUEUE_PI not requeued yet leaves like a FUTEX_WAIT */
		if ((w->op.kind == OP_FUTEX_WAIT ||
		     (w->op.kind == OP_FUTEX_WAIT_REQUEUE_PI &&
		      w->futex_q.requeue_state == Q_REQUEUE_PI_NONE)) &&
		    futex_unqueue(&w->futex_q))
			w->task->__state = TASK_RUNNING;
		if (w->op.kind == OP_SLEEP || w->op.kind == OP_SLEEP_UNTIL)
			hrtimer_cancel(&w->timer);
	}
	w->op_valid = false;
	w->in_syscall = false;
	w->signalled = true;
}

/*
 * wait4() for the processes among @w's children, as many times as it
 * reaps one: each a pass of do_wait() under tasklist_lock's read side. A
 * waitpid() looks at its child once before it sleeps and again when that
 * child's exit wakes it (child_wait_callback() wakes no other waiter), a
 * wait() at every child's exit.
 */
static void wait_children_passes(struct work_task *w, enum wait_how how)
{
	struct task_struct *p = w->task;

	while (!list_empty(&p->children)) {
		struct task_struct *pid = NULL;

		if (how == WAIT_PID) {
			pid = list_first_entry(&p->children, struct task_struct, sibling);
			if (pid == w->wait_pid && pid->__state != TASK_DEAD)
				return;
		}
		if (!tasklist_wait(p, pid)) {
			w->wait_pid = pid;
			return;
		}
	}
}

/*
 * select_estimate_accuracy() (fs/select.c): 0.1% of the timeout (0.5% for
 * a task of positive nice), at most 100 ms, at least the task's timer
 * slack; none when that is 0 (an RT or DL task)
 */
#define SELECT_MAX_SLACK_NS (100 * NSEC_PER_MSEC)
#define SELECT_SLACK_DIV 1000
#define SELECT_SLACK_DIV_NICE 200

static u64 select_estimate_accuracy(const struct task_struct *p, u64 timeout)
{
	u64 div = PRIO_TO_NICE(p->static_prio) > 0 ? SELECT_SLACK_DIV_NICE : SELECT_SLACK_DIV;
	u64 slack = min(timeout / div, SELECT_MAX_SLACK_NS);

	if (!p->timer_slack_ns)
		return 0;
	return max(slack, p->timer_slack_ns);
}

/* the slack of @p's sleep @op of @timeout ns (enum sleep_slack) */
static u64 sleep_slack(const struct task_struct *p, const struct op_desc *op, u64 timeout)
{
	switch ((enum sleep_slack)op->val) {
	case SLEEP_NANOSLEEP:
		return p->timer_slack_ns;
	case SLEEP_SELECT:
		return select_estimate_accuracy(p, timeout);
	case SLEEP_EXACT:
		break;
	}
	return 0;
}

/*
 * A forked tool worker's run of @nr image faults (work/tool_image.h):
 * page_fault each, as preemptible system time; @next is the run after it.
 * True when the run started (the step ends there, and the same operation
 * goes on after it).
 */
static bool image_faults_run(struct work_task *w, u32 nr, enum image_faults next)
{
	w->image_faults = next;
	if (!nr)
		return false;
	task_run_sys((u64)nr * machine.cost->page_fault);
	return true;
}

static void work_step(struct task_struct *p)
{
	struct work_task *w = p->exec_data;
	struct op_desc *op = &w->op;
	const struct cost_model *cost = machine.cost;

	/* a kernel lock operation is uninterruptible (mutex_lock, down_read, down_write) */
	if (unlikely(w->sig_pending) && w->lock_waiter.phase == LW_IDLE &&
	    !mm_path_active(&w->mmp))
		take_signal(w);
	if (!w->op_valid) {
		/* a forked tool worker's first writes, before its program's first operation */
		if (unlikely(w->image_faults == IMAGE_START) &&
		    image_faults_run(w, w->image->start_faults, IMAGE_EXIT))
			return;
		w->prog->next(w, op);
		w->op_valid = true;
		w->in_syscall = false;
		/* a threaded program's mmap_lock sections before the operation */
		if (op->kind == OP_SPAWN && op->spawn.thread && !op->spawn.bind_cpu && !p->kthread)
			mm_thread_create(w, op->spawn.stack);
		else if (op->kind == OP_EXIT && w->tmm)
			mm_thread_exit(w);
		else if (unlikely(w->tmm))
			op_start_threaded(w);
	}
	if (unlikely(mm_path_active(&w->mmp)) && !mm_path_run(w))
		return;
	switch (op->kind) {
	case OP_RUN:
		op_done(w, 0);
		if (op->ns)
			task_run_user(op->ns);
		return;
	case OP_SLEEP:
		if (w->in_syscall) {
			op_done(w, 0);
			return;
		}
		sys_enter(w);
		hrtimer_start_range_ns(&w->timer, cpu_now() + op->ns, sleep_slack(p, op, op->ns));
		p->__state = TASK_INTERRUPTIBLE;
		schedule();
		return;
	case OP_SLEEP_UNTIL:
		if (w->in_syscall) {
			op_done(w, 0);
			return;
		}
		sys_enter(w);
		if (op->ns <= cpu_now()) {
			op_done(w, 0);
			return;
		}
		hrtimer_start_range_ns(&w->timer, op->ns, sleep_slack(p, op, op->ns - cpu_now()));
		p->__state = TASK_INTERRUPTIBLE;
		schedule();
		return;
	case OP_YIELD:
		sys_enter(w);
		op_done(w, 0);
		do_sched_yield();
		return;
	case OP_SETAFFINITY: {
		int ret;

		sys_enter(w);
		op_done(w, 0);
		/* a refusal (-EBUSY) changes nothing and does not schedule */
		ret = sched_setaffinity_current(op->cpus);
		if (ret)
			w->result = (u64)(s64)ret;
		return;
	}
	case OP_WRITE:
		do_write(w, op->ch, op->bytes);
		return;
	case OP_READ:
		do_read(w, op->ch, op->bytes);
		return;
	case OP_POLL_IN:
		do_poll_in(w, op->ch);
		return;
	case OP_FUTEX_WAIT:
		if (w->in_syscall) {
			/* woken by FUTEX_WAKE */
			op_done(w, 0);
			return;
		}
		sys_enter(w);
		charge(cost->futex_wait);
		do_futex_wait(w, op->futex, op->val);
		return;
	case OP_FUTEX_WAKE:
		sys_enter(w);
		charge(cost->futex_wake);
		op_done(w, (u64)do_futex_wake(op->futex, op->val));
		return;
	case OP_FUTEX_CMP_REQUEUE:
	case OP_FUTEX_REQUEUE:
		/* futex_requeue()'s keys, buckets and wake_q as FUTEX_WAKE's (docs/locking.md) */
		sys_enter(w);
		charge(cost->futex_wake);
		op_done(w, (u64)do_futex_requeue(w, op));
		return;
	case OP_FUTEX_LOCK_PI:
	case OP_FUTEX_TRYLOCK_PI: {
		s64 res;

		if (!w->in_syscall) {
			if (op->val && pi_user_cmpxchg(op->futex, 0, (u32)p->pid)) {
				op_done(w, 0);
				return;
			}
			sys_enter(w);
			/* a key, a bucket and its lock, as FUTEX_WAIT's (docs/locking.md) */
			charge(cost->futex_wait);
		}
		if (do_futex_lock_pi(w, op, &res))
			op_done(w, (u64)res);
		return;
	}
	case OP_FUTEX_WAIT_REQUEUE_PI: {
		s64 res;

		if (!w->in_syscall) {
			sys_enter(w);
			charge(cost->futex_wait);
			do_futex_wait_requeue_pi(w, op);
			return;
		}
		if (do_futex_wait_requeue_pi_woken(w, op, &res))
			op_done(w, (u64)res);
		return;
	}
	case OP_FUTEX_CMP_REQUEUE_PI:
		/* futex_requeue() with requeue_pi: its keys, buckets and locks as FUTEX_CMP_REQUEUE's */
		sys_enter(w);
		charge(cost->futex_wake);
		op_done(w, (u64)do_futex_cmp_requeue_pi(w, op));
		return;
	case OP_FUTEX_UNLOCK_PI:
		if (op->val && pi_user_cmpxchg(op->futex, (u32)p->pid, 0)) {
			op_done(w, 0);
			return;
		}
		sys_enter(w);
		charge(cost->futex_wake);
		op_done(w, (u64)(s64)do_futex_unlock_pi(w, op->futex));
		return;
	case OP_SPAWN: {
		struct work_task *cw;
		struct task_struct *c;

		sys_enter(w);
		/*
		 * fork() or clone() by a SCHED_DEADLINE task without
		 * reset-on-fork: -EAGAIN (sched_fork()). The tool reports it
		 * and exits (its group's handler ends the run); the task
		 * sleeps for good meanwhile. A kthread (bind_cpu) is forked
		 * by kthreadd for the caller (kthread_create_on_cpu()), so a
		 * DL caller's own policy does not matter.
		 */
		if (!op->spawn.bind_cpu && sched_fork_fails(p)) {
			if (fork_failed[w->group].fn)
				fork_failed[w->group].fn(fork_failed[w->group].ctx, op->spawn.thread);
			else
				abort();
			p->__state = TASK_INTERRUPTIBLE;
			schedule();
			return;
		}
		cw = work_task_new(op->spawn.prog, op->spawn.state, w->group);
		c = sched_fork_task_on_attr(p, op->spawn.thread, op->spawn.comm, &work_exec, cw,
					    -1, op->spawn.bind_cpu ? op->spawn.bind_cpu - 1 : -1,
					    op->spawn.allowed,
					    op->spawn.set_attr ? &op->spawn.attr : NULL);
		c->cache.bytes = op->spawn.footprint;
		/* a thread shares its process's image: nothing of its own to fault or tear down */
		if (op->spawn.image && !op->spawn.thread) {
			cw->image = op->spawn.image;
			cw->image_faults = IMAGE_START;
			c->mm_rss = op->spawn.image->pages;
		}
		c->reap = op->spawn.reap;
		if (op->spawn.thread && w->tmm)
			mm_thread_inherit(cw, w);
		bind(cw, c);
		op_done(w, (u64)c->pid);
		return;
	}
	case OP_WAIT_CHILDREN:
		sys_enter(w);
		/* pthread_join(): the exited threads' stacks cached, those beyond munmap()ed */
		if (w->tmm && mm_thread_join(w))
			return;
		wait_children_passes(w, (enum wait_how)op->val);
		if (p->nr_children_exited) {
			/* wait4() reaping each exited child */
			p->nr_children_exited = 0;
		}
		if (!p->nr_children_alive) {
			finish_wait_if_queued(w, &w->child_wait);
			op_done(w, 0);
			return;
		}
		block_on(&w->child_wait, false);
		return;
	case OP_CALL:
		op_done(w, 0);
		op->call(w, op->arg);
		return;
	case OP_SMP_CALL:
	case OP_SMP_CALL_MANY:
		do_smp_call(w, op);
		return;
	case OP_SCHED_SETATTR:
		sys_enter(w);
		op_done(w, (u64)(s64)sched_setattr(p, &op->attr));
		return;
	case OP_MUTEX_LOCK:
		if (mutex_lock_step(op->mutex, &w->lock_waiter))
			op_done(w, 0);
		return;
	case OP_MUTEX_UNLOCK:
		mutex_unlock(op->mutex);
		op_done(w, 0);
		return;
	case OP_DOWN_READ:
		if (down_read_step(op->rwsem, &w->lock_waiter))
			op_done(w, 0);
		return;
	case OP_DOWN_WRITE:
		if (down_write_step(op->rwsem, &w->lock_waiter))
			op_done(w, 0);
		return;
	case OP_UP_READ:
		up_read(op->rwsem);
		op_done(w, 0);
		return;
	case OP_UP_WRITE:
		up_write(op->rwsem);
		op_done(w, 0);
		return;
	case OP_RT_MUTEX_LOCK:
		if (rt_mutex_lock_step(op->rtmutex, &w->lock_waiter))
			op_done(w, 0);
		return;
	case OP_RT_MUTEX_UNLOCK:
		rt_mutex_unlock(op->rtmutex);
		op_done(w, 0);
		return;
	case OP_EXIT:
		/* exit()'s handlers first: the libraries' destructors, stdio */
		if (unlikely(w->image_faults == IMAGE_EXIT) &&
		    image_faults_run(w, w->image->exit_faults, IMAGE_NONE))
			return;
		if (w->stack_bytes && p->parent && p->parent->exec == &work_exec) {
			/* to be joined by its creator, whose wait puts its stack in the cache */
			struct work_task *jw = p->parent->exec_data;

			jw->nr_joinable++;
			jw->joinable_stack = w->stack_bytes;
		}
		do_exit();
		if (!--group_alive[w->group] && (int)w->group == end_group)
			machine.stop = true;
		return;
	}
}

/* an exited task's work_task may go once no timer can fire for it */
static bool work_releasable(const struct task_struct *p)
{
	const struct work_task *w = p->exec_data;

	return !hrtimer_pending(&w->timer) && list_empty(&w->child_wait.head);
}

static void work_release(struct task_struct *p)
{
	struct work_task *w = p->exec_data;

	list_del_init(&w->node);
	free(w);
	p->exec_data = NULL;
}

const struct task_exec work_exec = {
	.step = work_step,
	.releasable = work_releasable,
	.release = work_release,
};

int work_task_group(const struct task_struct *p)
{
	if (p->exec != &work_exec)
		return -1;
	return (int)((const struct work_task *)p->exec_data)->group;
}

struct task_struct *work_start(const char *comm, const struct program *prog, void *state,
			       unsigned int cpu)
{
	return work_start_allowed(comm, prog, state, cpu, NULL);
}

struct task_struct *work_start_allowed(const char *comm, const struct program *prog, void *state,
				       unsigned int cpu, const struct cpumask *allowed)
{
	struct work_task *w = work_task_new(prog, state, cur_group);
	struct task_struct *p = sched_fork_task_attr(comm, &work_exec, w, cpu, allowed,
						     start_attr_set ? &start_attr : NULL);

	bind(w, p);
	return p;
}
