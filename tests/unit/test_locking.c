// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleeping locks (kernel/locking.h): a mutex whose owner runs is spun on,
 * one whose owner sleeps puts the contender to sleep, a starved first
 * waiter gets the lock by handoff, rwsem readers share and a writer
 * excludes them without being starved, and the features that stand for
 * the historical behaviours change what happens. Every run validates the
 * scheduler and lock invariants (--check) after each event.
 */
#include "test_util.h"

#include "kernel/trace.h"
#include "sim/steal.h"
#include "report/lock_stat.h"
#include "work/work.h"

#include <stdlib.h>

static struct topology *topo;

/* RWSEM_WAIT_TIMEOUT: DIV_ROUND_UP(HZ, 250) */
#define RWSEM_TIMEOUT_JIFFIES DIV_ROUND_UP(sysctl_sched.hz, 250)

static void sim_begin(const char *machine_name, const char *features)
{
	char err[256];

	topo = topology_load(machine_name, err, sizeof(err));
	assert_non_null(topo);
	sched_feat_reset();
	if (features)
		assert_int_equal(sched_feat_apply(features, err, sizeof(err)), 0);
	sysctl_sched.hz = topo->hz;
	machine_init(topo, &topo->cost, 1);
	sched_init(0);
}

static void sim_go(void)
{
	sched_start();
	sim_run(sched_check_invariants);
	sched_check_final();
}

static void sim_end(void)
{
	machine_destroy();
	work_free_all();
	sched_exit();
	topology_free(topo);
	sched_feat_reset();
}

/* ---- a task runs a script of steps ---- */

enum step_kind {
	S_RUN,
	S_SLEEP,
	S_LOCK,
	S_UNLOCK,
	S_RLOCK,
	S_RUNLOCK,
	S_WLOCK,
	S_WUNLOCK,
	S_LOOP, /* back to step .ns, .tag times */
	S_END,
};

struct step {
	enum step_kind kind;
	u64 ns;
	int tag;
};

/* what every task shares: the locks and who is inside them */
struct world {
	struct mutex m;
	struct rw_semaphore sem;
	int in_mutex, in_read, in_write;
	int max_read;
	bool violated;
	u64 seed;
};

struct actor {
	struct world *wd;
	const struct step *script;
	int pc;
	int loops_left;
	bool looping;
	enum step_kind pending; /* the lock op issued last */
	u64 acquired_at[64]; /* when each acquisition completed */
	int nr_acquired;
	u64 done_at;
	u64 prng;
};

static void note_acquired(struct actor *a)
{
	struct world *wd = a->wd;

	if (a->nr_acquired < 64)
		a->acquired_at[a->nr_acquired] = cpu_now();
	a->nr_acquired++;
	switch (a->pending) {
	case S_LOCK:
		if (++wd->in_mutex != 1)
			wd->violated = true;
		break;
	case S_RLOCK:
		wd->in_read++;
		if (wd->in_write)
			wd->violated = true;
		if (wd->in_read > wd->max_read)
			wd->max_read = wd->in_read;
		break;
	case S_WLOCK:
		if (++wd->in_write != 1 || wd->in_read)
			wd->violated = true;
		break;
	default:
		break;
	}
	a->pending = S_END;
}

static void actor_next(struct work_task *w, struct op_desc *op)
{
	struct actor *a = w->state;
	struct world *wd = a->wd;
	const struct step *s;

	if (a->pending != S_END)
		note_acquired(a);
	for (;;) {
		s = &a->script[a->pc];
		if (s->kind != S_LOOP)
			break;
		if (!a->looping) {
			a->looping = true;
			a->loops_left = s->tag;
		}
		if (--a->loops_left > 0) {
			a->pc = (int)s->ns;
		} else {
			a->looping = false;
			a->pc++;
		}
	}
	a->pc++;
	switch (s->kind) {
	case S_RUN:
		op_run(op, s->ns);
		return;
	case S_SLEEP:
		op_sleep(op, s->ns);
		return;
	case S_LOCK:
		a->pending = S_LOCK;
		op_mutex(op, OP_MUTEX_LOCK, &wd->m);
		return;
	case S_UNLOCK:
		wd->in_mutex--;
		op_mutex(op, OP_MUTEX_UNLOCK, &wd->m);
		return;
	case S_RLOCK:
		a->pending = S_RLOCK;
		op_rwsem(op, OP_DOWN_READ, &wd->sem);
		return;
	case S_RUNLOCK:
		wd->in_read--;
		op_rwsem(op, OP_UP_READ, &wd->sem);
		return;
	case S_WLOCK:
		a->pending = S_WLOCK;
		op_rwsem(op, OP_DOWN_WRITE, &wd->sem);
		return;
	case S_WUNLOCK:
		wd->in_write--;
		op_rwsem(op, OP_UP_WRITE, &wd->sem);
		return;
	default:
		a->done_at = cpu_now();
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program actor_prog = { .next = actor_next };

static void world_init(struct world *wd)
{
	memset(wd, 0, sizeof(*wd));
	mutex_init(&wd->m, "test_mutex");
	init_rwsem(&wd->sem, "test_rwsem");
}

static void actor_start(struct actor *a, struct world *wd, const struct step *script,
			unsigned int cpu, const char *comm)
{
	memset(a, 0, sizeof(*a));
	a->wd = wd;
	a->script = script;
	a->pending = S_END;
	work_start(comm, &actor_prog, a, cpu);
}

/* ---- mutex: spin on a running owner, sleep on a sleeping one ---- */

static const struct step owner_runs[] = {
	{ S_LOCK, 0, 0 },
	{ S_RUN, 200000, 0 },
	{ S_UNLOCK, 0, 0 },
	{ S_END, 0, 0 },
};
static const struct step owner_sleeps[] = {
	{ S_LOCK, 0, 0 },
	{ S_SLEEP, 200000, 0 },
	{ S_UNLOCK, 0, 0 },
	{ S_END, 0, 0 },
};
static const struct step late_locker[] = {
	{ S_RUN, 20000, 0 }, { S_LOCK, 0, 0 }, { S_RUN, 1000, 0 },
	{ S_UNLOCK, 0, 0 },  { S_END, 0, 0 },
};

static void run_pair(const struct step *owner, const char *features, struct world *wd,
		     struct actor *a, struct actor *b)
{
	sim_begin("smp2", features);
	world_init(wd);
	actor_start(a, wd, owner, 0, "owner");
	actor_start(b, wd, late_locker, 1, "contender");
	sim_go();
}

static void test_mutex_spins_on_running_owner(void **state)
{
	struct world wd;
	struct actor a, b;

	(void)state;
	run_pair(owner_runs, NULL, &wd, &a, &b);
	assert_false(wd.violated);
	assert_int_equal(wd.m.stat.acquisitions, 2);
	assert_int_equal(wd.m.stat.contended, 1);
	/* it spun for the rest of the owner's 200 us and never slept */
	assert_true(wd.m.stat.spin_ns > 150000);
	assert_int_equal(wd.m.stat.sleep_ns, 0);
	assert_true(b.acquired_at[0] > a.acquired_at[0] + 200000);
	/* the handover costs a line transfer or two, not a wakeup */
	assert_true(b.acquired_at[0] < a.acquired_at[0] + 200000 + 5000);
	assert_null(wd.m.owner);
	sim_end();
}

static void test_mutex_sleeps_on_sleeping_owner(void **state)
{
	struct world wd;
	struct actor a, b;

	(void)state;
	run_pair(owner_sleeps, NULL, &wd, &a, &b);
	assert_false(wd.violated);
	assert_int_equal(wd.m.stat.contended, 1);
	assert_int_equal(wd.m.stat.spin_ns, 0);
	assert_true(wd.m.stat.sleep_ns > 150000);
	assert_true(b.acquired_at[0] > a.acquired_at[0] + 200000);
	sim_end();
}

static void test_mutex_no_spin_feature_sleeps(void **state)
{
	struct world wd;
	struct actor a, b;

	(void)state;
	run_pair(owner_runs, "NO_MUTEX_SPIN_ON_OWNER", &wd, &a, &b);
	assert_false(wd.violated);
	assert_int_equal(wd.m.stat.contended, 1);
	assert_int_equal(wd.m.stat.spin_ns, 0);
	assert_true(wd.m.stat.sleep_ns > 150000);
	sim_end();
}

/* ---- a guest: spinning stops when the owner's vCPU is preempted ---- */

/* the host preempts vCPU 0 for 100 us (steal.c's steal_event(), placed by hand) */
static struct sim_event preempt_ev;

static void preempt_vcpu0(struct sim_event *ev)
{
	(void)ev;
	machine.steal[0].pending_ns += 100000;
	sim_cpu_interrupt(0, IRQ_STEAL);
}

/*
 * run_pair() on smp2 made a KVM guest with steal: the random stretches are
 * taken away and, if @preempt, one is put 50 us into the owner's
 * 200 us of work.
 */
static void run_pair_guest(bool preempt, struct world *wd, struct actor *a, struct actor *b)
{
	char err[256];

	topo = topology_load("smp2", err, sizeof(err));
	assert_non_null(topo);
	topo->guest.kvm = true;
	topo->guest.steal_ppm = 1;
	topo->guest.steal_period_ns = 10000000;
	sched_feat_reset();
	sysctl_sched.hz = topo->hz;
	machine_init(topo, &topo->cost, 1);
	sched_init(0);
	world_init(wd);
	actor_start(a, wd, owner_runs, 0, "owner");
	actor_start(b, wd, late_locker, 1, "contender");
	sched_start();
	for (unsigned int cpu = 0; cpu < machine.nr_cpus; cpu++)
		sim_cancel(&machine.steal[cpu].ev);
	ev_init(&preempt_ev, preempt_vcpu0, 0);
	if (preempt)
		sim_schedule(&preempt_ev, machine.now + 50000);
	sim_run(sched_check_invariants);
	sched_check_final();
}

static void test_mutex_stops_spinning_on_preempted_vcpu(void **state)
{
	struct world wd;
	struct actor a, b;

	(void)state;
	/* no stretch: a guest spins as bare metal does */
	run_pair_guest(false, &wd, &a, &b);
	assert_true(wd.m.stat.spin_ns > 150000);
	assert_int_equal(wd.m.stat.sleep_ns, 0);
	sim_end();

	/*
	 * the owner's vCPU preempted 50 us in: vcpu_is_preempted() turns
	 * owner_on_cpu() false and the contender, spinning since 20 us,
	 * stops at once and sleeps until the owner (100 us late) unlocks
	 */
	run_pair_guest(true, &wd, &a, &b);
	assert_false(wd.violated);
	assert_int_equal(wd.m.stat.contended, 1);
	assert_in_range(wd.m.stat.spin_ns, 25000, 35000);
	assert_true(wd.m.stat.sleep_ns > 200000);
	assert_true(b.acquired_at[0] > a.acquired_at[0] + 300000);
	sim_end();
}

/* ---- handoff: a woken first waiter is not starved by a re-locking owner ---- */

/* holds, sleeps once (the waiter goes to sleep), then re-locks at once 30 times */
static const struct step greedy[] = {
	{ S_LOCK, 0, 0 },    { S_SLEEP, 50000, 0 }, { S_UNLOCK, 0, 0 }, { S_LOCK, 0, 0 },
	{ S_RUN, 30000, 0 }, { S_UNLOCK, 0, 0 },    { S_LOOP, 3, 30 },	{ S_END, 0, 0 },
};

static void run_handoff(const char *features, struct world *wd, struct actor *a, struct actor *b)
{
	sim_begin("smp2", features);
	world_init(wd);
	actor_start(a, wd, greedy, 0, "greedy");
	actor_start(b, wd, late_locker, 1, "starved");
	sim_go();
	assert_false(wd->violated);
	assert_int_equal(b->nr_acquired, 1);
}

static void test_mutex_handoff_after_starvation(void **state)
{
	struct world wd;
	struct actor a, b;

	(void)state;
	run_handoff(NULL, &wd, &a, &b);
	/* the waiter set HANDOFF and the next unlock gave it the lock */
	assert_true(wd.m.stat.handoffs >= 1);
	assert_true(b.acquired_at[0] < a.done_at - 20 * 30000);
	sim_end();
}

static void test_mutex_no_handoff_starves(void **state)
{
	struct world wd;
	struct actor a, b;

	(void)state;
	run_handoff("NO_MUTEX_HANDOFF", &wd, &a, &b);
	assert_int_equal(wd.m.stat.handoffs, 0);
	/* the owner re-takes the lock before the woken waiter runs, every time */
	assert_true(b.acquired_at[0] > a.acquired_at[30]);
	sim_end();
}

/* ---- rwsem ---- */

static const struct step reader_once[] = {
	{ S_RLOCK, 0, 0 },
	{ S_RUN, 100000, 0 },
	{ S_RUNLOCK, 0, 0 },
	{ S_END, 0, 0 },
};

static void test_rwsem_readers_share(void **state)
{
	struct world wd;
	struct actor r[3];

	(void)state;
	sim_begin("smp4", NULL);
	world_init(&wd);
	for (unsigned int i = 0; i < 3; i++)
		actor_start(&r[i], &wd, reader_once, i, "reader");
	sim_go();
	assert_false(wd.violated);
	assert_int_equal(wd.max_read, 3);
	assert_int_equal(wd.sem.stat.acquisitions, 3);
	assert_int_equal(wd.sem.stat.contended, 0);
	assert_int_equal(wd.sem.readers, 0);
	sim_end();
}

/*
 * A writer spins on a reader-owned lock for rwsem_rspin_threshold(),
 * (20 + readers) / 2 us: it gets a short read section's lock by spinning,
 * and gives up on a long one at the limit and sleeps.
 */
static const struct step reader_short[] = {
	{ S_RLOCK, 0, 0 },
	{ S_RUN, 5000, 0 },
	{ S_RUNLOCK, 0, 0 },
	{ S_END, 0, 0 },
};
static const struct step reader_long[] = {
	{ S_RLOCK, 0, 0 },
	{ S_RUN, 100000, 0 },
	{ S_RUNLOCK, 0, 0 },
	{ S_END, 0, 0 },
};
static const struct step writer_soon[] = {
	{ S_RUN, 1000, 0 },  { S_WLOCK, 0, 0 }, { S_RUN, 1000, 0 },
	{ S_WUNLOCK, 0, 0 }, { S_END, 0, 0 },
};

static void test_rwsem_writer_spins_on_readers(void **state)
{
	struct world wd;
	struct actor r, wr;

	(void)state;
	sim_begin("smp2", NULL);
	world_init(&wd);
	actor_start(&r, &wd, reader_short, 0, "reader");
	actor_start(&wr, &wd, writer_soon, 1, "writer");
	sim_go();
	assert_false(wd.violated);
	assert_int_equal(wd.sem.stat.contended, 1);
	assert_true(wd.sem.stat.spin_ns > 2000);
	assert_int_equal(wd.sem.stat.sleep_ns, 0);
	sim_end();

	sim_begin("smp2", NULL);
	world_init(&wd);
	actor_start(&r, &wd, reader_long, 0, "reader");
	actor_start(&wr, &wd, writer_soon, 1, "writer");
	sim_go();
	assert_false(wd.violated);
	/* one reader: a 10.5 us limit, then asleep until the reader leaves */
	assert_true(wd.sem.stat.spin_ns >= 10500 && wd.sem.stat.spin_ns < 11500);
	assert_true(wd.sem.stat.sleep_ns > 50000);
	assert_false(wd.sem.nonspinnable);
	sim_end();
}

/* readers overlapping without a gap: the lock is never free of readers */
static const struct step reader_loop[] = {
	{ S_RLOCK, 0, 0 }, { S_RUN, 40000, 0 }, { S_RUNLOCK, 0, 0 },
	{ S_RUN, 500, 0 }, { S_LOOP, 0, 400 },	{ S_END, 0, 0 },
};
static const struct step reader_loop_late[] = {
	{ S_RUN, 20000, 0 }, { S_RLOCK, 0, 0 },	 { S_RUN, 40000, 0 }, { S_RUNLOCK, 0, 0 },
	{ S_RUN, 500, 0 },   { S_LOOP, 1, 400 }, { S_END, 0, 0 },
};
static const struct step writer_once[] = {
	{ S_RUN, 30000, 0 }, { S_WLOCK, 0, 0 }, { S_RUN, 10000, 0 },
	{ S_WUNLOCK, 0, 0 }, { S_END, 0, 0 },
};

/*
 * The writer queues; the reader that drops the lock last re-takes it by
 * optimistic lock stealing before the woken writer runs (v6.18 lets a
 * reader steal a lock no writer holds), so the writer waits until
 * RWSEM_WAIT_TIMEOUT has passed and sets handoff; without handoff it waits
 * until the stealing stops.
 */
static void run_rw(const char *features, struct world *wd, struct actor *r, struct actor *wr)
{
	sim_begin("smp4", features);
	world_init(wd);
	actor_start(&r[0], wd, reader_loop, 0, "reader");
	actor_start(&r[1], wd, reader_loop_late, 1, "reader");
	actor_start(wr, wd, writer_once, 2, "writer");
	sim_go();
	assert_false(wd->violated);
	assert_int_equal(wr->nr_acquired, 1);
	assert_int_equal(wd->sem.readers, 0);
	assert_false(wd->sem.writer_locked);
}

static void test_rwsem_writer_excludes_and_is_not_starved(void **state)
{
	struct world wd;
	struct actor r[2], wr;
	u64 tick;

	(void)state;
	run_rw(NULL, &wd, r, &wr);
	tick = NSEC_PER_SEC / sysctl_sched.hz;
	/* in by two jiffies past its timeout and one more read section */
	assert_true(wr.acquired_at[0] <
		    r[0].acquired_at[0] + 30000 + (RWSEM_TIMEOUT_JIFFIES + 2) * tick + 41000);
	assert_true(wr.acquired_at[0] + 1000000 < min(r[0].done_at, r[1].done_at));
	sim_end();
}

/*
 * ---- writer lock stealing: the lock is taken past the woken waiter, or
 * granted to it (before ce6711f3d196) ----
 */

/* holds, sleeps once (the contender goes to sleep), then re-locks at once 30 times */
static const struct step greedy_writer[] = {
	{ S_WLOCK, 0, 0 },   { S_SLEEP, 50000, 0 }, { S_WUNLOCK, 0, 0 }, { S_WLOCK, 0, 0 },
	{ S_RUN, 30000, 0 }, { S_WUNLOCK, 0, 0 },   { S_LOOP, 3, 30 },	 { S_END, 0, 0 },
};
static const struct step late_writer[] = {
	{ S_RUN, 20000, 0 }, { S_WLOCK, 0, 0 }, { S_RUN, 1000, 0 },
	{ S_WUNLOCK, 0, 0 }, { S_END, 0, 0 },
};

static void run_steal(const char *features, struct world *wd, struct actor *a, struct actor *b)
{
	sim_begin("smp2", features);
	world_init(wd);
	actor_start(a, wd, greedy_writer, 0, "greedy");
	actor_start(b, wd, late_writer, 1, "queued");
	sim_go();
	assert_false(wd->violated);
	assert_int_equal(b->nr_acquired, 1);
	assert_int_equal(wd->sem.stat.acquisitions, 32);
}

static void test_rwsem_writer_steal(void **state)
{
	struct world wd;
	struct actor a, b;

	(void)state;
	/* 3.9-3.15: the running writer takes the lock each time before the woken one runs */
	run_steal("NO_RWSEM_SPIN_ON_OWNER,NO_RWSEM_HANDOFF", &wd, &a, &b);
	assert_true(b.acquired_at[0] > a.acquired_at[30]);
	sim_end();
	/* before: the first release grants it to the sleeping waiter */
	run_steal("NO_RWSEM_SPIN_ON_OWNER,NO_RWSEM_HANDOFF,NO_RWSEM_WRITER_STEAL", &wd, &a, &b);
	assert_true(b.acquired_at[0] > a.acquired_at[0] + 50000);
	assert_true(b.acquired_at[0] < a.acquired_at[1]);
	assert_true(wd.sem.stat.sleep_ns > 0);
	sim_end();
}

static void test_rwsem_no_handoff_starves_writer(void **state)
{
	struct world wd;
	struct actor r[2], wr;

	(void)state;
	run_rw("NO_RWSEM_HANDOFF", &wd, r, &wr);
	/*
	 * only the end of the stealing reader's loop lets the writer in (the
	 * other reader waits behind the writer)
	 */
	assert_true(wr.acquired_at[0] + 50000 > min(r[0].done_at, r[1].done_at));
	sim_end();
}

/* ---- a soak under the checker: many tasks, every lock kind ---- */

static const struct step soak_mutex[] = {
	{ S_RUN, 3000, 0 }, { S_LOCK, 0, 0 },  { S_RUN, 2000, 0 },
	{ S_UNLOCK, 0, 0 }, { S_LOCK, 0, 0 },  { S_SLEEP, 3000, 0 },
	{ S_UNLOCK, 0, 0 }, { S_LOOP, 0, 60 }, { S_END, 0, 0 },
};
static const struct step soak_rw[] = {
	{ S_RLOCK, 0, 0 },   { S_RUN, 2500, 0 },  { S_RUNLOCK, 0, 0 }, { S_WLOCK, 0, 0 },
	{ S_RUN, 1500, 0 },  { S_WUNLOCK, 0, 0 }, { S_RLOCK, 0, 0 },   { S_SLEEP, 2000, 0 },
	{ S_RUNLOCK, 0, 0 }, { S_LOOP, 0, 60 },	  { S_END, 0, 0 },
};

static void soak(const char *features)
{
	struct world wd;
	struct actor a[24];

	sim_begin("smp8", features);
	world_init(&wd);
	for (unsigned int i = 0; i < 24; i++)
		actor_start(&a[i], &wd, i % 2 ? soak_rw : soak_mutex, i % 8, "soak");
	sim_go();
	assert_false(wd.violated);
	for (unsigned int i = 0; i < 24; i++)
		assert_true(a[i].done_at > 0);
	assert_int_equal(wd.m.stat.acquisitions, 12 * 60 * 2);
	assert_int_equal(wd.sem.stat.acquisitions, 12 * 60 * 3);
	assert_null(wd.m.owner);
	assert_int_equal(wd.sem.readers, 0);
	sim_end();
}

static void test_lock_soak(void **state)
{
	(void)state;
	soak(NULL);
	soak("NO_MUTEX_OSQ");
	soak("NO_MUTEX_HANDOFF,NO_RWSEM_HANDOFF,NO_RWSEM_WAKE_ALL_READERS");
	soak("NO_MUTEX_SPIN_ON_OWNER,NO_RWSEM_SPIN_ON_OWNER");
	soak("NO_RWSEM_SPIN_ON_OWNER,NO_RWSEM_HANDOFF,NO_RWSEM_WRITER_STEAL");
}

/*
 * ---- futex wait/wake never loses a wakeup ----
 *
 * Drepper's futex mutex ("Futexes Are Tricky", mutex2), as glibc's
 * lll_lock builds pthread mutexes: 0 free, 1 locked, 2 locked with
 * waiters; the user-space atomics run in the program's next() at the
 * task's instant. A lost wakeup leaves a task asleep for ever: the run
 * would end with tasks not done.
 */
struct fmutex_world {
	struct futex f;
	int in_cs;
	bool violated;
	u64 nr_wait, nr_wake;
};

struct fmutex_task {
	struct fmutex_world *fw;
	int left;
	int state; /* 0 try, 1 waited, 2 in the critical section, 3 unlocked */
	bool done;
};

static void fmutex_next(struct work_task *w, struct op_desc *op)
{
	struct fmutex_task *t = w->state;
	struct fmutex_world *fw = t->fw;
	u32 c;

	for (;;) {
		switch (t->state) {
		case 0: /* c = cmpxchg(val, 0, 1) */
			if (!t->left) {
				t->done = true;
				op_simple(op, OP_EXIT);
				return;
			}
			c = fw->f.val;
			if (c == 0) {
				fw->f.val = 1;
				break;
			}
			/* fall through */
		case 1: /* c = xchg(val, 2); sleep while it was held */
			c = fw->f.val;
			fw->f.val = 2;
			if (c != 0) {
				t->state = 1;
				fw->nr_wait++;
				op_futex(op, OP_FUTEX_WAIT, &fw->f, 2);
				return;
			}
			break;
		case 2: /* leave the critical section: atomic_dec(val) != 1 wakes one */
			fw->in_cs--;
			t->left--;
			t->state = 3;
			if (fw->f.val-- != 1) {
				fw->f.val = 0;
				fw->nr_wake++;
				op_futex(op, OP_FUTEX_WAKE, &fw->f, 1);
				return;
			}
			continue;
		default: /* outside: some work, then again */
			t->state = 0;
			op_run(op, 3000 + 500 * (u64)(t->left % 5));
			return;
		}
		/* got it */
		if (++fw->in_cs != 1)
			fw->violated = true;
		t->state = 2;
		op_run(op, 2000);
		return;
	}
}

static const struct program fmutex_prog = { .next = fmutex_next };

static void test_futex_mutex_soak(void **state)
{
	static const char *const machines[] = { "smp4", "smt2-2s-16" };
	struct fmutex_world fw;
	struct fmutex_task t[24];

	(void)state;
	for (unsigned int m = 0; m < 2; m++) {
		sim_begin(machines[m], NULL);
		memset(&fw, 0, sizeof(fw));
		/* 24 processes: a futex in memory they share */
		futex_init_at(&fw.f, 0, FUTEX_USER_BASE, FUTEX_SCOPE_SHARED);
		for (unsigned int i = 0; i < 24; i++) {
			t[i] = (struct fmutex_task){ .fw = &fw, .left = 150 };
			work_start("fmutex", &fmutex_prog, &t[i], i % machine.nr_cpus);
		}
		sim_go();
		assert_false(fw.violated);
		for (unsigned int i = 0; i < 24; i++)
			assert_true(t[i].done);
		assert_int_equal(fw.f.val, 0);
		/* it was contended: tasks slept and were woken */
		assert_true(fw.nr_wait > 100);
		assert_true(fw.nr_wake > 100);
		sim_end();
	}
}

/* ---- the contention view: tracepoints, statistics, --lock-stat ---- */

static unsigned int nr_begin, nr_end, last_flags;

static void t_switch(bool preempt, struct task_struct *prev, struct task_struct *next)
{
	(void)preempt, (void)prev, (void)next;
}
static void t_wake(enum trace_event ev, struct task_struct *p, unsigned int cpu)
{
	(void)ev, (void)p, (void)cpu;
}
static void t_migrate(struct task_struct *p, unsigned int cpu)
{
	(void)p, (void)cpu;
}
static void t_state(unsigned int state, unsigned int cpu)
{
	(void)state, (void)cpu;
}
static void t_ipi_send(unsigned int cpu, enum trace_ipi why, enum trace_ipi_site site)
{
	(void)cpu, (void)why, (void)site;
}
static void t_ipi_irq(enum trace_event ev, enum trace_ipi why)
{
	(void)ev, (void)why;
}
static void t_contention(enum trace_event ev, u64 lock_addr, int arg)
{
	assert_true(lock_addr >= 0xffff888100000000ULL);
	if (ev == TRACE_CONTENTION_BEGIN) {
		nr_begin++;
		last_flags = (unsigned int)arg;
	} else {
		assert_int_equal(ev, TRACE_CONTENTION_END);
		assert_int_equal(arg, 0);
		nr_end++;
	}
}

static void t_pi_setprio(struct task_struct *p, int newprio)
{
	(void)p, (void)newprio;
}

static const struct sched_trace_hooks count_hooks = {
	.sched_switch = t_switch,
	.sched_wake = t_wake,
	.sched_migrate_task = t_migrate,
	.cpu_idle = t_state,
	.cpu_frequency = t_state,
	.ipi_send_cpu = t_ipi_send,
	.ipi_irq = t_ipi_irq,
	.contention = t_contention,
	.sched_pi_setprio = t_pi_setprio,
};

static void test_contention_view(void **state)
{
	struct world wd;
	struct actor a, b;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	nr_begin = nr_end = 0;
	register_sched_trace_hooks(&count_hooks);
	run_pair(owner_sleeps, NULL, &wd, &a, &b);
	register_sched_trace_hooks(NULL);
	/* SPIN|MUTEX on entering the slowpath, MUTEX before sleeping, one end */
	assert_int_equal(nr_begin, 2);
	assert_int_equal(last_flags, LCB_F_MUTEX);
	assert_int_equal(nr_end, 1);
	/* the wait is the sleep: from the contention to the acquisition */
	assert_true(wd.m.stat.wait_ns >= wd.m.stat.sleep_ns);
	assert_int_equal(wd.m.stat.max_wait_ns, wd.m.stat.wait_ns);
	f = open_memstream(&buf, &len);
	lock_stat_print(f);
	fclose(f);
	assert_non_null(strstr(
		buf, " contended   total wait     max wait     avg wait         type   caller"));
	assert_non_null(strstr(buf, "mutex   test_mutex"));
	free(buf);
	sim_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutex_spins_on_running_owner),
		cmocka_unit_test(test_mutex_sleeps_on_sleeping_owner),
		cmocka_unit_test(test_mutex_no_spin_feature_sleeps),
		cmocka_unit_test(test_mutex_stops_spinning_on_preempted_vcpu),
		cmocka_unit_test(test_mutex_handoff_after_starvation),
		cmocka_unit_test(test_mutex_no_handoff_starves),
		cmocka_unit_test(test_rwsem_readers_share),
		cmocka_unit_test(test_rwsem_writer_spins_on_readers),
		cmocka_unit_test(test_rwsem_writer_excludes_and_is_not_starved),
		cmocka_unit_test(test_rwsem_no_handoff_starves_writer),
		cmocka_unit_test(test_rwsem_writer_steal),
		cmocka_unit_test(test_lock_soak),
		cmocka_unit_test(test_futex_mutex_soak),
		cmocka_unit_test(test_contention_view),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
