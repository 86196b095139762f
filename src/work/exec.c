// SPDX-License-Identifier: GPL-2.0-only
/*
 * The executor: runs a task's operations as the kernel would. Each call of
 * work_step() performs one operation on the task's CPU. A syscall that has
 * to wait puts the task on a wait queue and schedules; when the task runs
 * again the same operation is retried (as the kernel's wait loops re-check
 * their condition), without paying the syscall entry again.
 */
#include "work/work.h"

#include "sim/alloc.h"

#include <stdlib.h>

/* everything the workload allocated, freed by work_free_all() */
static void **arena;
static size_t arena_nr, arena_cap;

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

/* channels own a growable skb ring besides their arena block */
static struct channel **channels;
static size_t channels_nr, channels_cap;

void work_free_all(void)
{
	for (size_t i = 0; i < channels_nr; i++)
		channel_free(channels[i]);
	free(channels);
	channels = NULL;
	channels_nr = channels_cap = 0;
	for (size_t i = 0; i < arena_nr; i++)
		free(arena[i]);
	free(arena);
	arena = NULL;
	arena_nr = arena_cap = 0;
}

/* ------------------------------------------------------------------ */
/* channels                                                            */

struct channel *channel_new(enum channel_kind kind)
{
	struct channel *ch = arena_alloc(sizeof(*ch));

	ch->kind = kind;
	ch->capacity = kind == CH_PIPE ? PIPE_DEF_CAPACITY : UNIX_SNDBUF_DEFAULT;
	init_waitqueue_head(&ch->rd_wait);
	init_waitqueue_head(&ch->wr_wait);
	if (channels_nr == channels_cap) {
		channels_cap = channels_cap ? 2 * channels_cap : 64;
		channels = xreallocarray(channels, channels_cap, sizeof(*channels));
	}
	channels[channels_nr++] = ch;
	return ch;
}

void futex_init(struct futex *f, u32 val)
{
	f->val = val;
	init_waitqueue_head(&f->wq);
}

static void skb_push(struct channel *ch, u32 len)
{
	if (ch->skb_nr == ch->skb_cap) {
		u32 ncap = ch->skb_cap ? 2 * ch->skb_cap : 64;
		u32 *n = xreallocarray(NULL, ncap, sizeof(*n));

		for (u32 i = 0; i < ch->skb_nr; i++)
			n[i] = ch->skb_len[(ch->skb_head + i) % ch->skb_cap];
		free(ch->skb_len);
		ch->skb_len = n;
		ch->skb_head = 0;
		ch->skb_cap = ncap;
	}
	ch->skb_len[(ch->skb_head + ch->skb_nr) % ch->skb_cap] = len;
	ch->skb_nr++;
}

void channel_free(struct channel *ch)
{
	free(ch->skb_len);
	ch->skb_len = NULL;
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

/*
 * write(): a pipe write of up to a page is atomic (it waits for room for
 * all of it); a unix stream write queues one skb once the socket's send
 * buffer charge is below sndbuf (sock_alloc_send_pskb), charge = truesize.
 */
static void do_write(struct work_task *w, struct channel *ch, u32 bytes)
{
	const struct cost_model *cost = machine.cost;
	bool was_empty = ch->bytes == 0;
	u32 n = bytes;

	sys_enter(w);
	if (ch->kind == CH_PIPE) {
		charge(cost->pipe_write);
		if (ch->capacity - ch->used < min(bytes, 4096u)) {
			block_on(&ch->wr_wait, true);
			return;
		}
		n = (u32)min((u64)bytes, ch->capacity - ch->used);
		ch->used += n;
	} else {
		charge(cost->unix_write);
		if (ch->used >= ch->capacity) {
			block_on(&ch->wr_wait, false);
			return;
		}
		skb_push(ch, n);
		ch->used += n + cost->unix_skb_overhead;
	}
	finish_wait_if_queued(w, &ch->wr_wait);
	ch->bytes += n;
	ch->nr_writes++;
	charge(cost_copy(cost, n));
	/* pipe_write wakes readers when the pipe was empty; sk_data_ready always */
	if ((ch->kind == CH_UNIX_STREAM || was_empty) && waitqueue_active(&ch->rd_wait))
		__wake_up(&ch->rd_wait, TASK_INTERRUPTIBLE, 1, WF_SYNC);
	op_done(w, n);
}

static void do_read(struct work_task *w, struct channel *ch, u32 bytes)
{
	const struct cost_model *cost = machine.cost;
	bool wake_writers = false;
	u64 n;

	sys_enter(w);
	charge(ch->kind == CH_PIPE ? cost->pipe_read : cost->unix_read);
	if (!ch->bytes) {
		block_on(&ch->rd_wait, ch->kind == CH_PIPE);
		return;
	}
	finish_wait_if_queued(w, &ch->rd_wait);
	n = min((u64)bytes, ch->bytes);
	if (ch->kind == CH_PIPE) {
		/* space comes back a page at a time: a writer waits for a freed page */
		u64 before = ch->capacity - ch->used;

		ch->used -= n;
		wake_writers = (ch->capacity - ch->used) / 4096 > before / 4096;
	} else {
		u64 left = n;

		while (left) {
			u32 *head = &ch->skb_len[ch->skb_head];
			u32 avail = *head - ch->head_consumed;

			if (left < avail) {
				ch->head_consumed += (u32)left;
				break;
			}
			left -= avail;
			ch->used -= *head + cost->unix_skb_overhead;
			ch->head_consumed = 0;
			ch->skb_head = (ch->skb_head + 1) % ch->skb_cap;
			ch->skb_nr--;
			/* sock_wfree -> unix_write_space: writable at a quarter of sndbuf */
			if ((ch->used << 2) <= ch->capacity)
				wake_writers = true;
		}
	}
	ch->bytes -= n;
	ch->nr_reads++;
	charge(cost_copy(cost, n));
	if (wake_writers && waitqueue_active(&ch->wr_wait))
		__wake_up(&ch->wr_wait, TASK_INTERRUPTIBLE, 1, WF_SYNC);
	op_done(w, n);
}

/* poll(POLLIN) costs a read's worth of channel work */
static void do_poll_in(struct work_task *w, struct channel *ch)
{
	sys_enter(w);
	charge(ch->kind == CH_PIPE ? machine.cost->pipe_read : machine.cost->unix_read);
	if (!ch->bytes) {
		block_on(&ch->rd_wait, false);
		return;
	}
	finish_wait_if_queued(w, &ch->rd_wait);
	op_done(w, 1);
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

static struct work_task *work_task_new(const struct program *prog, void *state)
{
	struct work_task *w = arena_alloc(sizeof(*w));

	w->prog = prog;
	w->state = state;
	hrtimer_init(&w->timer, sleep_timer_fn);
	init_waitqueue_head(&w->child_wait);
	return w;
}

static void bind(struct work_task *w, struct task_struct *p)
{
	w->task = p;
	p->child_wait = &w->child_wait;
}

static void work_step(struct task_struct *p)
{
	struct work_task *w = p->exec_data;
	struct op_desc *op = &w->op;
	const struct cost_model *cost = machine.cost;

	if (!w->op_valid) {
		w->prog->next(w, op);
		w->op_valid = true;
		w->in_syscall = false;
	}
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
		hrtimer_start(&w->timer, cpu_now() + op->ns);
		p->__state = TASK_INTERRUPTIBLE;
		schedule();
		return;
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
		if (op->futex->val != op->val) {
			op_done(w, 1); /* EAGAIN */
			return;
		}
		block_on(&op->futex->wq, true);
		return;
	case OP_FUTEX_WAKE:
		sys_enter(w);
		charge(cost->futex_wake);
		op_done(w, (u64)__wake_up(&op->futex->wq, TASK_NORMAL, (int)op->val, 0));
		return;
	case OP_SPAWN: {
		struct work_task *cw = work_task_new(op->spawn.prog, op->spawn.state);
		struct task_struct *c;

		sys_enter(w);
		c = sched_fork_task_on(p, op->spawn.thread, op->spawn.comm, &work_exec, cw, -1,
				       op->spawn.bind_cpu ? op->spawn.bind_cpu - 1 : -1);
		c->cache.bytes = op->spawn.footprint;
		bind(cw, c);
		op_done(w, (u64)c->pid);
		return;
	}
	case OP_WAIT_CHILDREN:
		sys_enter(w);
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
	case OP_EXIT:
		do_exit();
		return;
	}
}

const struct task_exec work_exec = { .step = work_step };

struct task_struct *work_start(const char *comm, const struct program *prog, void *state,
			       unsigned int cpu)
{
	struct work_task *w = work_task_new(prog, state);
	struct task_struct *p = sched_fork_task(NULL, false, comm, &work_exec, w, (int)cpu);

	bind(w, p);
	return p;
}
