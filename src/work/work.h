/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Task programs: what simulated tasks do. A program is a generator of
 * operations (user work, sleep, pipe/socket reads and writes with real
 * buffer sizes and blocking, futex wait/wake, fork, wait for children,
 * exit); the executor runs each operation as the kernel would, charging
 * syscall and IPC costs and blocking on wait queues.
 */
#ifndef SCHEDLAB_WORK_WORK_H
#define SCHEDLAB_WORK_WORK_H

#include "kernel/futex.h"
#include "kernel/locking.h"
#include "kernel/rtmutex.h"
#include "kernel/sched.h"
#include "work/mm_thread.h"

struct channel;
struct futex;
struct work_task;
struct op_desc;
struct tool_image;

enum op_kind {
	OP_RUN,			/* ns of user work at full capacity and frequency */
	OP_SLEEP,		/* nanosleep(ns); val: its timer slack, enum sleep_slack */
	OP_SLEEP_UNTIL,		/* clock_nanosleep(TIMER_ABSTIME, ns): returns at once if past */
	OP_YIELD,		/* sched_yield(): FIFO/RR to the tail of its list, fair forfeits its slice */
	OP_SETAFFINITY,		/* sched_setaffinity(0, cpus): the task's own mask */
	OP_WRITE,		/* write(ch, bytes): returns once some bytes went in */
	OP_READ,		/* read(ch, bytes): returns once some bytes came out */
	OP_POLL_IN,		/* poll(ch, POLLIN): wait until readable, consume nothing */
	OP_FUTEX_WAIT,		/* futex(FUTEX_WAIT, val) */
	OP_FUTEX_WAKE,		/* futex(FUTEX_WAKE, val waiters) */
	/*
	 * futex(FUTEX_CMP_REQUEUE, requeue.nr_wake, requeue.nr_requeue,
	 * requeue.futex2, val): result woken + requeued, or (u64)-EAGAIN
	 * when futex's value is not val; OP_FUTEX_REQUEUE without the compare
	 */
	OP_FUTEX_CMP_REQUEUE,
	OP_FUTEX_REQUEUE,
	/*
	 * PI futexes (kernel/futex/pi.c): futex(FUTEX_LOCK_PI),
	 * futex(FUTEX_TRYLOCK_PI), futex(FUTEX_UNLOCK_PI) of op->futex, whose
	 * word holds the owner's TID; result 0 or a negative errno
	 * (-EWOULDBLOCK: a trylock found it held). val 1: glibc's
	 * pthread_mutex_lock()/unlock() of a PTHREAD_PRIO_INHERIT mutex,
	 * which first tries a cmpxchg in user space (0 <-> TID) and enters
	 * the kernel only when that fails; val 0: the system call itself.
	 */
	OP_FUTEX_LOCK_PI,
	OP_FUTEX_TRYLOCK_PI,
	OP_FUTEX_UNLOCK_PI,
	/*
	 * futex(FUTEX_WAIT_REQUEUE_PI, val, requeue.futex2): wait on op->futex
	 * (EAGAIN, as (u64)-EAGAIN, if it is not val) until a
	 * FUTEX_CMP_REQUEUE_PI moves it to the PI futex futex2, and return 0
	 * holding that. futex(FUTEX_CMP_REQUEUE_PI, 1, requeue.nr_requeue,
	 * requeue.futex2, val) (op_futex_requeue() with nr_wake 1): the
	 * waiters' requeue; result woken + requeued or a negative errno.
	 */
	OP_FUTEX_WAIT_REQUEUE_PI,
	OP_FUTEX_CMP_REQUEUE_PI,
	OP_SPAWN,		/* fork() or clone(CLONE_VM) a child running spawn.prog */
	/*
	 * wait until every child has exited and reap them: pthread_join() of
	 * the threads, and for the processes wait() (val WAIT_ANY) or
	 * waitpid() of each in fork order (val WAIT_PID): op_wait_children()
	 */
	OP_WAIT_CHILDREN,
	OP_CALL,		/* run a callback (timestamps, bookkeeping): free */
	OP_SMP_CALL,		/* smp_call_function_single(val, nop, wait = bytes != 0) */
	OP_SMP_CALL_MANY,	/* smp_call_function(nop, wait): every other online CPU */
	OP_SCHED_SETATTR,	/* sched_setattr(0, &op->attr): result 0, or (u64)-EINVAL */
	/*
	 * A kernel lock taken or dropped inside the syscall the task is in
	 * (kernel/locking.h): no entry cost of their own; the work between
	 * them is the critical section. op->mutex / op->rwsem.
	 */
	OP_MUTEX_LOCK,
	OP_MUTEX_UNLOCK,
	OP_DOWN_READ,
	OP_UP_READ,
	OP_DOWN_WRITE,
	OP_UP_WRITE,
	OP_RT_MUTEX_LOCK, /* rt_mutex_lock(op->rtmutex), with priority inheritance */
	OP_RT_MUTEX_UNLOCK,
	OP_EXIT,
};

/*
 * How late an OP_SLEEP or OP_SLEEP_UNTIL (op->val) may end: its hrtimer's
 * soft expiry is the time asked, its hard expiry that plus the slack.
 */
enum sleep_slack {
	/* nanosleep(), clock_nanosleep(): the task's timer_slack_ns (hrtimer_nanosleep()) */
	SLEEP_NANOSLEEP,
	/* select()/poll() with a timeout: select_estimate_accuracy() */
	SLEEP_SELECT,
	/* no timer of the task's: a device or another machine's event ends it at ns */
	SLEEP_EXACT,
};

struct program {
	/*
	 * Fill @op with the task's next operation. w->result holds what the
	 * previous one returned (bytes moved, or 0). The executor reads only
	 * the fields of op->kind, so a step may set just those (the op_*()
	 * setters below) and leave the others as they were: zeroing the whole
	 * op_desc (a compound literal) costs more than the rest of a step's
	 * interpretation.
	 */
	void (*next)(struct work_task *w, struct op_desc *op);
};

struct op_desc {
	enum op_kind kind;
	u64 ns;
	struct channel *ch;
	u32 bytes;
	struct futex *futex;
	u32 val;
	struct {
		struct futex *futex2;	/* where the waiters of op->futex go */
		u32 nr_wake, nr_requeue;
	} requeue;			/* OP_FUTEX_CMP_REQUEUE, OP_FUTEX_REQUEUE */
	struct mutex *mutex;		/* OP_MUTEX_LOCK, OP_MUTEX_UNLOCK */
	struct rw_semaphore *rwsem;	/* OP_DOWN_*, OP_UP_* */
	struct rt_mutex *rtmutex;	/* OP_RT_MUTEX_LOCK, OP_RT_MUTEX_UNLOCK */
	struct {
		const struct program *prog;
		void *state;
		bool thread;
		const char *comm;
		/* a thread's stack as pthread_attr_setstacksize() sets it, 0: glibc's default */
		u64 stack;
		int bind_cpu;	/* CPU + 1 for a kernel thread bound to it; 0: a normal task */
		/* the child's cache working set in bytes, 0: CACHE_DEFAULT_FOOTPRINT */
		u64 footprint;
		/*
		 * the tool a process child is forked from (work/tool_image.h):
		 * its faults at its start and in exit(), its pages at exit;
		 * NULL, or a thread: none
		 */
		const struct tool_image *image;
		/* the child's own CPU affinity (NULL: the parent's), set before it first runs */
		const struct cpumask *allowed;
		/*
		 * The child's scheduling policy. false: inherited from the
		 * parent (policy, RT priority and nice), as fork() does; true:
		 * @attr, set before the child first runs, as if the parent
		 * had called sched_setattr() on it (a bad @attr aborts: check
		 * it when the workload is parsed). Kernel threads (bind_cpu)
		 * are kthreadd's children and start SCHED_NORMAL, nice 0.
		 */
		bool set_attr;
		struct sched_attr attr;
		/*
		 * Free the child (its task_struct and work_task) once it has
		 * exited and been switched out and its own children are
		 * freed, its counters added to the parent's cumul
		 * (sched_release_dead()): for programs that keep no pointer
		 * to it, so that a run forking without end holds only its
		 * live tasks. Reports count it all the same.
		 */
		bool reap;
	} spawn;
	/*
	 * OP_SCHED_SETATTR: the task changes its own policy (sched_setattr(0,
	 * ...)): .sched_policy SCHED_NORMAL 0, SCHED_FIFO 1, SCHED_RR 2,
	 * SCHED_BATCH 3 or SCHED_IDLE 5; .sched_priority 1..99 for FIFO/RR,
	 * else 0; .sched_nice -20..19 (clamped) for the fair policies. The
	 * syscall is charged (syscall + setscheduler); a change that lowers
	 * its priority below a waiting task switches at once.
	 */
	struct sched_attr attr;
	void (*call)(struct work_task *w, void *arg);
	void *arg;
	const struct cpumask *cpus;	/* OP_SETAFFINITY */
};

/* Set the operations of the steps that repeat, and only their fields (see struct program). */
static inline void op_run(struct op_desc *op, u64 ns)
{
	op->kind = OP_RUN;
	op->ns = ns;
}

/* nanosleep(@ns) */
static inline void op_sleep(struct op_desc *op, u64 ns)
{
	op->kind = OP_SLEEP;
	op->ns = ns;
	op->val = SLEEP_NANOSLEEP;
}

/* a wait of @ns for something outside the task's timers (enum sleep_slack) */
static inline void op_sleep_exact(struct op_desc *op, u64 ns)
{
	op->kind = OP_SLEEP;
	op->ns = ns;
	op->val = SLEEP_EXACT;
}

/* OP_READ or OP_WRITE */
static inline void op_rw(struct op_desc *op, enum op_kind kind, struct channel *ch, u32 bytes)
{
	op->kind = kind;
	op->ch = ch;
	op->bytes = bytes;
}

static inline void op_poll_in(struct op_desc *op, struct channel *ch)
{
	op->kind = OP_POLL_IN;
	op->ch = ch;
}

/* OP_FUTEX_WAIT (@val: the expected value) or OP_FUTEX_WAKE (@val: waiters) */
static inline void op_futex(struct op_desc *op, enum op_kind kind, struct futex *f, u32 val)
{
	op->kind = kind;
	op->futex = f;
	op->val = val;
}

/*
 * OP_FUTEX_CMP_REQUEUE of @f's waiters (@val: @f's expected value) to @f2,
 * or OP_FUTEX_REQUEUE (@val unused): @nr_wake woken, up to @nr_requeue moved
 */
static inline void op_futex_requeue(struct op_desc *op, enum op_kind kind, struct futex *f, u32 val,
				    struct futex *f2, u32 nr_wake, u32 nr_requeue)
{
	op->kind = kind;
	op->futex = f;
	op->val = val;
	op->requeue.futex2 = f2;
	op->requeue.nr_wake = nr_wake;
	op->requeue.nr_requeue = nr_requeue;
}

static inline void op_mutex(struct op_desc *op, enum op_kind kind, struct mutex *m)
{
	op->kind = kind;
	op->mutex = m;
}

static inline void op_rtmutex(struct op_desc *op, enum op_kind kind, struct rt_mutex *m)
{
	op->kind = kind;
	op->rtmutex = m;
}

static inline void op_rwsem(struct op_desc *op, enum op_kind kind, struct rw_semaphore *sem)
{
	op->kind = kind;
	op->rwsem = sem;
}

static inline void op_call(struct op_desc *op, void (*call)(struct work_task *w, void *arg),
			   void *arg)
{
	op->kind = OP_CALL;
	op->call = call;
	op->arg = arg;
}

/* how OP_WAIT_CHILDREN waits for processes: one wait() per child, or waitpid() of each */
enum wait_how {
	WAIT_ANY,
	WAIT_PID,
};

static inline void op_wait_children(struct op_desc *op, enum wait_how how)
{
	op->kind = OP_WAIT_CHILDREN;
	op->val = how;
}

static inline void op_simple(struct op_desc *op, enum op_kind kind)
{
	op->kind = kind;
}

/* where a forked tool worker is in its image's faults (work_task.image) */
enum image_faults {
	IMAGE_NONE,	/* no image, or both runs taken */
	IMAGE_START,	/* its start's, before its program's first operation */
	IMAGE_EXIT,	/* exit()'s, before the exit itself */
};

struct work_task {
	struct task_struct *task;
	const struct program *prog;
	void *state;			/* the program's own state */
	/* (the flags before op: a step reads them first, in the same host line) */
	bool op_valid;
	bool in_syscall;		/* entry cost paid; the syscall is being retried */
	bool woken;			/* a futex/sleep wait was ended by its waker */
	bool sig_pending;		/* work_signal(): taken at the next step */
	bool signalled;			/* a signal was taken: the program's handler runs */
	/* a forked tool worker's image faults to take next (enum image_faults) */
	unsigned char image_faults;
	u64 result;
	struct op_desc op;
	struct hrtimer timer;
	/*
	 * kernel-thread IPIs: one call slot per target CPU, reused from call
	 * to call like the kernel's per-CPU csd_data / cfd->csd, so a slot
	 * still queued (wait=0) is waited for (csd_lock()) before reuse
	 */
	struct call_single_data *csd;
	unsigned int csd_cpu;		/* the target being locked or sent to next */
	bool csd_locking;		/* spinning in csd_lock() for csd[csd_cpu] */
	struct wait_queue_head child_wait;
	struct lock_waiter lock_waiter;	/* the kernel lock operation in progress */
	/* a threaded program's mmap_lock (work/mm_thread.h): NULL until it has threads */
	struct thread_mm *tmm;
	struct mm_path mmp;		/* its sections before the operation in progress */
	/* a process forked from a tool's image (op_desc.spawn.image), or NULL */
	const struct tool_image *image;
	u64 stack_bytes;		/* a thread: its stack block, from glibc's stack cache */
	u64 new_stack;			/* the block of the thread it is creating */
	/* threads it created that exited, not yet joined, and their stack block */
	unsigned int nr_joinable;
	u64 joinable_stack;
	struct task_struct *wait_pid;	/* waitpid(): the child it looked at and sleeps for */
	unsigned int group;		/* the workload it belongs to (work_set_group()) */
	struct list_head node;		/* every work_task not freed */
	struct futex_q futex_q;		/* queued on a futex hash bucket while in FUTEX_WAIT */
};

/* Start the first task of a workload on @cpu at time 0. */
struct task_struct *work_start(const char *comm, const struct program *prog, void *state,
			       unsigned int cpu);

/*
 * The same, allowed on @allowed only (NULL: every CPU), as a command run by
 * taskset: it starts on @cpu if allowed, else on the allowed CPU that
 * cpumask_any_and_distribute() picks on @cpu, and every task it forks
 * inherits the mask.
 */
struct task_struct *work_start_allowed(const char *comm, const struct program *prog, void *state,
				       unsigned int cpu, const struct cpumask *allowed);

/*
 * The policy the next workload's first tasks start with (chrt, nice: the
 * command ran under a changed policy and its children inherit it); NULL:
 * SCHED_NORMAL, nice 0. Copied; stays in force until changed or
 * work_free_all().
 */
void work_set_sched_attr(const struct sched_attr *attr);
/*
 * What the current group's tool does when its fork() or clone() fails
 * with EAGAIN (a SCHED_DEADLINE task without reset-on-fork, sched_fork()):
 * @fn(@ctx, thread) ends the run with the tool's own message.
 */
void work_set_fork_failed(void (*fn)(void *ctx, bool thread), void *ctx);

/*
 * Send the task a signal whose handler does not return to the interrupted
 * code (context1's SIGALRM: report and exit). A task in an interruptible
 * wait is woken; at its next step the operation in progress is abandoned
 * and its program's next() sees w->signalled set. From interrupt context.
 */
void work_signal(struct work_task *w);

/* Free every work_task and channel the workload created (end of a run). */
void work_free_all(void);
/* How many work_tasks and channels are allocated now (tests: memory follows what is alive). */
void work_live_counts(size_t *tasks, size_t *channels);

/*
 * Workloads run side by side (`run --also`): each task belongs to a group,
 * 0 for the measured workload, the first tasks to the group set when they
 * are started, every forked task to its parent's.
 */
#define WORK_MAX_GROUPS 17
void work_set_group(unsigned int group);
/* @p's group, or -1 for a task no program runs (idle, stopper) */
int work_task_group(const struct task_struct *p);
/*
 * End the run (machine.stop) when the last task of @group exits: the
 * other groups' tasks are left where they are, as a shell script kills
 * its background jobs when the measured command returns.
 */
void work_end_with_group(unsigned int group);

/* ---- channels: pipes and AF_UNIX stream sockets ---- */

enum channel_kind {
	CH_PIPE,
	CH_UNIX_STREAM,
};

/* Pipe capacity: 16 pages (pipe_max_size default ring of PIPE_DEF_BUFFERS). */
#define PIPE_DEF_CAPACITY (16 * 4096)
/* net.core.wmem_default: the send buffer of a unix stream socket. */
#define UNIX_SNDBUF_DEFAULT 212992

/* one queued skb: its payload and the CPU that wrote it */
struct skb_ent {
	u32 len;
	s32 cpu;	/* the writer's */
	u64 mark;	/* its lines' last touch there (work/skb_cache.h) */
};

/*
 * Cache working sets of the benchmarks' tasks (sim/cache.h), estimates
 * derived in docs/benchmarks.md, "Cache footprints": what a task touches
 * again each time it runs. A task's own part: the lines of its kernel stack
 * and task_struct (with the FPU state) a syscall + switch path touches, and
 * a user stack page; a kernel thread has no user stack. Each channel
 * (socket pair end or pipe) it uses adds its unix_sock/pipe_inode_info,
 * struct socket/file and wait-queue lines. Message payloads are new data
 * each time, not part of a footprint.
 */
#define FOOTPRINT_TASK (12 * 1024)
#define FOOTPRINT_KTHREAD (8 * 1024)
#define FOOTPRINT_CHANNEL 1024

struct channel {
	enum channel_kind kind;
	u64 bytes;			/* payload queued */
	u64 used;			/* buffer charge: payload (pipe) or skb truesize (socket) */
	u64 capacity;
	/* unix stream: one skb per write, FIFO of their payload sizes */
	struct skb_ent *skb;
	/* a ring of skb_cap entries, 0 or a power of two: an index wraps with a mask, not a division */
	u32 skb_head, skb_nr, skb_cap;
	u32 head_consumed;		/* bytes already read from the head skb */
	struct wait_queue_head rd_wait;
	struct wait_queue_head wr_wait;
	/*
	 * The shared data the two ends touch (docs/cost-model.md, "The socket
	 * and pipe paths"). A unix socket: the receiver's unix_state_lock (u->lock),
	 * its receive queue (head and lock share a line), the sending socket's
	 * sk_wmem_alloc, and the CPU that last freed the channel's skbs (their
	 * slab objects come back to the senders from there). A pipe: the pipe
	 * mutex with the head/tail it guards, and the buffer page's lines.
	 */
	struct sim_lock state_lock;
	struct sim_lock queue_lock;
	struct cache_line wmem;
	int skb_free_cpu;
	struct sim_lock pipe_mutex;
	struct cache_line pipe_data;
	u64 nr_writes, nr_reads;
	/* pipe ends closed: a read of an empty pipe returns 0, a write 0 (EPIPE) */
	bool writer_closed, reader_closed;
	struct list_head node;		/* every channel not destroyed */
};

struct channel *channel_new(enum channel_kind kind);
/* Free @ch's skb ring (work_free_all() frees the rest). */
void channel_free(struct channel *ch);
/*
 * Both ends closed by a program that created @ch for itself (reaim's pipe
 * tests): freed now, unless a task still waits on it (then at
 * work_free_all()). Nothing may use @ch afterwards.
 */
void channel_destroy(struct channel *ch);
/* The last writer / reader of pipe @ch closes it: waiters on the other side wake. */
void pipe_close_write(struct channel *ch);
void pipe_close_read(struct channel *ch);

/* ---- futexes ---- */

enum futex_scope {
	FUTEX_SCOPE_PRIVATE,	/* FUTEX_PRIVATE_FLAG: the process's private hash once it has one */
	/* no flag, in memory processes share: the global hash, one key in every process */
	FUTEX_SCOPE_SHARED,
	/*
	 * Not a futex in the modelled tool (a SysV semaphore, pause() and a
	 * signal, a parent waiting for its children) but waited on and woken
	 * the same way: a wait queue of its own, no hash bucket.
	 */
	FUTEX_SCOPE_NONE,
};

struct futex {
	u32 val;
	enum futex_scope scope;
	u64 uaddr;			/* its simulated user address: the hash key */
	int mm;				/* a private futex's process (its first user's), 0: none yet */
	struct wait_queue_head wq;	/* the waiters of a FUTEX_SCOPE_NONE word */
	struct cache_line line;		/* the word's line: PI futexes' cmpxchgs move it */
};

/*
 * A private futex at the next free simulated user address (4 bytes after
 * the previous futex_init()'s, from FUTEX_USER_BASE at each run's start).
 */
void futex_init(struct futex *f, u32 val);
/* A futex at user address @uaddr (an array's element, a printed address) */
void futex_init_at(struct futex *f, u32 val, u64 uaddr, enum futex_scope scope);
/* A wait word that is no futex in the modelled tool (FUTEX_SCOPE_NONE) */
void futex_init_unhashed(struct futex *f, u32 val);

/*
 * The first simulated futex address of a run: in a PIE's data segment, as
 * perf bench futex wake prints its static futex's (0x55d5a3c0e014).
 */
#define FUTEX_USER_BASE 0x55d5a3c0e014ULL

#endif
