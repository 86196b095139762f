// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt_mutex priority inheritance (kernel/rtmutex.h) and the PI futexes on
 * it (kernel/futex.h): a nice-0 owner of a PI futex runs in the RT class
 * at its RT waiter's priority until the unlock and then returns to the
 * fair class, so a mid-priority RT hog on its CPU no longer delays the
 * waiter (priority inversion); the boost goes down a chain of two locks;
 * an owner of two locks is deboosted one waiter at a time; a plain
 * rt_mutex boosts as the futex's does; FUTEX_TRYLOCK_PI, FUTEX_UNLOCK_PI
 * by a non-owner, a second FUTEX_LOCK_PI by the owner and the user-space
 * fast path of a PTHREAD_PRIO_INHERIT mutex. Every run checks the
 * scheduler and lock invariants (--check) after each event.
 */
#include "test_sched_helpers.h"

#include "kernel/futex.h"
#include "kernel/rtmutex.h"

#include <errno.h>

enum step_kind {
	S_RUN,
	S_SLEEP,
	S_FIFO, /* sched_setattr(SCHED_FIFO, .tag) */
	S_LOCK, /* FUTEX_LOCK_PI of futex .tag */
	S_TRYLOCK,
	S_UNLOCK,
	S_PLOCK, /* pthread_mutex_lock() of a PTHREAD_PRIO_INHERIT mutex on futex .tag */
	S_PUNLOCK,
	S_RTLOCK, /* rt_mutex_lock() of the kernel rt_mutex */
	S_RTUNLOCK,
	S_WRQ, /* FUTEX_WAIT_REQUEUE_PI of futex 0 (value 0) to futex 1 */
	S_CRQ, /* FUTEX_CMP_REQUEUE_PI of futex 0 to futex 1, .tag requeued */
	S_NOTE, /* record prio, class and time */
	S_END,
};

struct step {
	enum step_kind kind;
	u64 ns;
	int tag;
};

#define NR_FUTEXES 3
#define NR_NOTES 8

struct world {
	struct futex f[NR_FUTEXES];
	struct rt_mutex rtm;
};

struct actor {
	struct world *wd;
	const struct step *script;
	int pc;
	int nr_notes;
	int prio[NR_NOTES];
	bool rt[NR_NOTES];
	u64 at[NR_NOTES];
	s64 result[NR_NOTES]; /* each lock/unlock's return, in order */
	int nr_results;
	bool pending;
	u64 done_at;
};

static void actor_next(struct work_task *w, struct op_desc *op)
{
	struct actor *a = w->state;
	struct world *wd = a->wd;
	const struct step *s;

	if (a->pending && a->nr_results < NR_NOTES)
		a->result[a->nr_results++] = (s64)w->result;
	a->pending = false;
	for (;;) {
		s = &a->script[a->pc++];
		if (s->kind != S_NOTE)
			break;
		a->prio[a->nr_notes] = w->task->prio;
		a->rt[a->nr_notes] = rt_task(w->task);
		a->at[a->nr_notes++] = cpu_now();
	}
	switch (s->kind) {
	case S_RUN:
		op_run(op, s->ns);
		return;
	case S_SLEEP:
		op_sleep(op, s->ns);
		return;
	case S_FIFO:
		op->kind = OP_SCHED_SETATTR;
		op->attr = (struct sched_attr){ .sched_policy = SCHED_FIFO,
						.sched_priority = (u32)s->tag };
		return;
	case S_LOCK:
	case S_TRYLOCK:
	case S_UNLOCK:
	case S_PLOCK:
	case S_PUNLOCK:
		a->pending = true;
		op_futex(op,
			 s->kind == S_LOCK || s->kind == S_PLOCK ? OP_FUTEX_LOCK_PI :
			 s->kind == S_TRYLOCK			 ? OP_FUTEX_TRYLOCK_PI :
								   OP_FUTEX_UNLOCK_PI,
			 &wd->f[s->tag], s->kind == S_PLOCK || s->kind == S_PUNLOCK);
		return;
	case S_WRQ:
	case S_CRQ:
		a->pending = true;
		op_futex_requeue(
			op, s->kind == S_WRQ ? OP_FUTEX_WAIT_REQUEUE_PI : OP_FUTEX_CMP_REQUEUE_PI,
			&wd->f[0], 0, &wd->f[1], 1, (u32)s->tag);
		return;
	case S_RTLOCK:
		op_rtmutex(op, OP_RT_MUTEX_LOCK, &wd->rtm);
		return;
	case S_RTUNLOCK:
		op_rtmutex(op, OP_RT_MUTEX_UNLOCK, &wd->rtm);
		return;
	default:
		a->done_at = cpu_now();
		op_simple(op, OP_EXIT);
		return;
	}
}

static const struct program actor_prog = { .next = actor_next };

static struct cpumask *pin[8];

static void world_begin(struct world *wd, const char *preset)
{
	tl_setup(preset, TL_REAL_COST, 0, NULL);
	memset(wd, 0, sizeof(*wd));
	/* the actors are processes of their own: shared futexes */
	for (int i = 0; i < NR_FUTEXES; i++) {
		futex_init(&wd->f[i], 0);
		wd->f[i].scope = FUTEX_SCOPE_SHARED;
	}
	rt_mutex_init(&wd->rtm, "test_rtmutex");
	for (unsigned int c = 0; c < machine.nr_cpus && c < 8; c++) {
		pin[c] = alloc_cpumask();
		cpumask_set_cpu(c, pin[c]);
	}
}

static void world_end(void)
{
	tl_teardown();
	for (int c = 0; c < 8; c++) {
		if (pin[c])
			free_cpumask(pin[c]);
		pin[c] = NULL;
	}
}

/* @a runs @script pinned to @cpu */
static struct task_struct *actor_start(struct actor *a, struct world *wd, const struct step *script,
				       unsigned int cpu, const char *comm)
{
	memset(a, 0, sizeof(*a));
	a->wd = wd;
	a->script = script;
	return work_start_allowed(comm, &actor_prog, a, cpu, pin[cpu]);
}

/* FIFO 50: prio 49 (MAX_RT_PRIO - 1 - 50) */
#define FIFO_HI 50
#define PRIO_HI (MAX_RT_PRIO - 1 - FIFO_HI)
#define FIFO_MID 10
#define FIFO_LO 30
#define PRIO_LO (MAX_RT_PRIO - 1 - FIFO_LO)

/* ---- a boosted owner runs in the RT class until its unlock ---- */

static const struct step owner_holds[] = {
	{ S_LOCK, 0, 0 }, { S_RUN, 100000, 0 }, { S_NOTE, 0, 0 }, { S_RUN, 400000, 0 },
	{ S_NOTE, 0, 0 }, { S_UNLOCK, 0, 0 },	{ S_NOTE, 0, 0 }, { S_RUN, 100000, 0 },
	{ S_NOTE, 0, 0 }, { S_END, 0, 0 },
};
/* blocks 50 us after the owner took the lock */
static const struct step rt_waiter[] = {
	{ S_FIFO, 0, FIFO_HI }, { S_RUN, 50000, 0 }, { S_LOCK, 0, 0 }, { S_NOTE, 0, 0 },
	{ S_RUN, 10000, 0 },	{ S_UNLOCK, 0, 0 },  { S_END, 0, 0 },
};
/* a FIFO 10 hog that arrives on the owner's CPU 20 us in and runs 5 ms */
static const struct step mid_hog[] = {
	{ S_FIFO, 0, FIFO_MID }, { S_SLEEP, 20000, 0 }, { S_RUN, 5000000, 0 },
	{ S_NOTE, 0, 0 },	 { S_END, 0, 0 },
};

static void test_boost_fair_owner_to_rt(void **state)
{
	struct world wd;
	struct actor o, w;

	(void)state;
	world_begin(&wd, "smp2");
	actor_start(&o, &wd, owner_holds, 0, "owner");
	actor_start(&w, &wd, rt_waiter, 1, "waiter");
	tl_run_until(50 * NSEC_PER_MSEC, true);
	/* while the RT waiter waits, the nice-0 owner runs in the RT class at its priority */
	assert_int_equal(o.prio[0], PRIO_HI);
	assert_true(o.rt[0]);
	assert_int_equal(o.prio[1], PRIO_HI);
	/* the unlock deboosts it at once, and it stays a fair task */
	assert_int_equal(o.prio[2], DEFAULT_PRIO);
	assert_false(o.rt[2]);
	assert_int_equal(o.prio[3], DEFAULT_PRIO);
	/* the waiter got the futex right after the unlock, and both calls succeeded */
	assert_true(w.at[0] >= o.at[1]);
	assert_true(w.at[0] < o.at[1] + 100000);
	assert_int_equal(o.result[0], 0);
	assert_int_equal(o.result[1], 0);
	assert_int_equal(w.result[0], 0);
	assert_int_equal(w.result[1], 0);
	assert_int_equal(wd.f[0].val, 0);
	world_end();
}

/* the classic inversion: the boost lets the owner preempt the mid-priority hog */
static void test_boost_beats_priority_inversion(void **state)
{
	struct world wd;
	struct actor o, w, h;

	(void)state;
	world_begin(&wd, "smp2");
	actor_start(&o, &wd, owner_holds, 0, "owner");
	actor_start(&h, &wd, mid_hog, 0, "hog");
	actor_start(&w, &wd, rt_waiter, 1, "waiter");
	tl_run_until(50 * NSEC_PER_MSEC, true);
	/* the owner ran its 500 us boosted above the hog, long before the hog's 5 ms ended */
	assert_int_equal(o.prio[0], PRIO_HI);
	assert_true(w.at[0] < h.at[0]);
	assert_true(w.at[0] < 2 * NSEC_PER_MSEC);
	/* deboosted, the owner waits for the hog */
	assert_true(o.at[3] > h.at[0]);
	assert_true(wd.rtm.stat.acquisitions == 0);
	world_end();
}

/* ---- the chain: C boosts B (owner of f1), blocked on f0, which boosts A ---- */

static const struct step chain_a[] = {
	{ S_LOCK, 0, 0 },   { S_SLEEP, 300000, 0 }, { S_NOTE, 0, 0 },
	{ S_UNLOCK, 0, 0 }, { S_NOTE, 0, 0 },	    { S_END, 0, 0 },
};
static const struct step chain_b[] = {
	{ S_RUN, 10000, 0 }, { S_LOCK, 0, 1 },	 { S_LOCK, 0, 0 },
	{ S_NOTE, 0, 0 },    { S_UNLOCK, 0, 0 }, { S_NOTE, 0, 0 },
	{ S_UNLOCK, 0, 1 },  { S_NOTE, 0, 0 },	 { S_END, 0, 0 },
};
static const struct step chain_c[] = {
	{ S_FIFO, 0, FIFO_HI }, { S_SLEEP, 100000, 0 }, { S_LOCK, 0, 1 },
	{ S_NOTE, 0, 0 },	{ S_UNLOCK, 0, 1 },	{ S_END, 0, 0 },
};

static void test_chain_walk_across_two_locks(void **state)
{
	struct world wd;
	struct actor a, b, c;

	(void)state;
	world_begin(&wd, "smp4");
	actor_start(&a, &wd, chain_a, 0, "A");
	actor_start(&b, &wd, chain_b, 1, "B");
	actor_start(&c, &wd, chain_c, 2, "C");
	tl_run_until(50 * NSEC_PER_MSEC, true);
	/* A, two locks away from C, ran at C's priority before its unlock */
	assert_int_equal(a.prio[0], PRIO_HI);
	assert_true(a.rt[0]);
	assert_int_equal(a.prio[1], DEFAULT_PRIO);
	/* B got f0 still boosted (it owns f1, which C waits for), then lost it at f1's unlock */
	assert_int_equal(b.prio[0], PRIO_HI);
	assert_int_equal(b.prio[1], PRIO_HI);
	assert_int_equal(b.prio[2], DEFAULT_PRIO);
	assert_true(c.at[0] >= b.at[1]);
	assert_int_equal(wd.f[0].val, 0);
	assert_int_equal(wd.f[1].val, 0);
	world_end();
}

/* ---- deboost order: an owner of two locks drops one waiter's boost at a time ---- */

static const struct step two_locks[] = {
	{ S_LOCK, 0, 0 },   { S_LOCK, 0, 1 },	{ S_SLEEP, 200000, 0 },
	{ S_NOTE, 0, 0 },   { S_UNLOCK, 0, 1 }, { S_NOTE, 0, 0 },
	{ S_UNLOCK, 0, 0 }, { S_NOTE, 0, 0 },	{ S_END, 0, 0 },
};
static const struct step lo_on_f0[] = {
	{ S_FIFO, 0, FIFO_LO }, { S_SLEEP, 50000, 0 }, { S_LOCK, 0, 0 },
	{ S_UNLOCK, 0, 0 },	{ S_END, 0, 0 },
};
static const struct step hi_on_f1[] = {
	{ S_FIFO, 0, FIFO_HI }, { S_SLEEP, 80000, 0 }, { S_LOCK, 0, 1 },
	{ S_UNLOCK, 0, 1 },	{ S_END, 0, 0 },
};

static void test_deboost_order(void **state)
{
	struct world wd;
	struct actor o, lo, hi;

	(void)state;
	world_begin(&wd, "smp4");
	actor_start(&o, &wd, two_locks, 0, "owner");
	actor_start(&lo, &wd, lo_on_f0, 1, "lo");
	actor_start(&hi, &wd, hi_on_f1, 2, "hi");
	tl_run_until(50 * NSEC_PER_MSEC, true);
	/* the higher waiter's boost while both wait */
	assert_int_equal(o.prio[0], PRIO_HI);
	/* f1 released: still boosted by f0's waiter, at its lower priority */
	assert_int_equal(o.prio[1], PRIO_LO);
	assert_true(o.rt[1]);
	/* f0 released: its own priority again */
	assert_int_equal(o.prio[2], DEFAULT_PRIO);
	assert_false(o.rt[2]);
	world_end();
}

/* ---- the kernel's rt_mutex boosts as the futex's does ---- */

static const struct step rt_owner[] = {
	{ S_RTLOCK, 0, 0 },   { S_SLEEP, 100000, 0 }, { S_NOTE, 0, 0 },
	{ S_RTUNLOCK, 0, 0 }, { S_NOTE, 0, 0 },	      { S_END, 0, 0 },
};
static const struct step rt_contender[] = {
	{ S_FIFO, 0, FIFO_HI }, { S_SLEEP, 20000, 0 }, { S_RTLOCK, 0, 0 },
	{ S_NOTE, 0, 0 },	{ S_RTUNLOCK, 0, 0 },  { S_END, 0, 0 },
};

static void test_rt_mutex_boost(void **state)
{
	struct world wd;
	struct actor o, w;

	(void)state;
	world_begin(&wd, "smp2");
	actor_start(&o, &wd, rt_owner, 0, "owner");
	actor_start(&w, &wd, rt_contender, 1, "waiter");
	tl_run_until(50 * NSEC_PER_MSEC, true);
	assert_int_equal(o.prio[0], PRIO_HI);
	assert_int_equal(o.prio[1], DEFAULT_PRIO);
	assert_true(w.at[0] >= o.at[1]);
	assert_int_equal(wd.rtm.stat.acquisitions, 2);
	assert_int_equal(wd.rtm.stat.contended, 1);
	/* the owner slept: the waiter did too, and was woken by the unlock */
	assert_true(wd.rtm.stat.sleep_ns > 50000);
	assert_null(wd.rtm.owner);
	assert_false(wd.rtm.has_waiters);
	world_end();
}

/* ---- a running owner is spun on by its top waiter ---- */

static const struct step rt_owner_runs[] = {
	{ S_RTLOCK, 0, 0 },
	{ S_RUN, 100000, 0 },
	{ S_RTUNLOCK, 0, 0 },
	{ S_END, 0, 0 },
};

static void test_rt_mutex_spins_on_running_owner(void **state)
{
	struct world wd;
	struct actor o, w;

	(void)state;
	world_begin(&wd, "smp2");
	actor_start(&o, &wd, rt_owner_runs, 0, "owner");
	actor_start(&w, &wd, rt_contender, 1, "waiter");
	tl_run_until(50 * NSEC_PER_MSEC, true);
	assert_int_equal(wd.rtm.stat.contended, 1);
	assert_true(wd.rtm.stat.spin_ns > 50000);
	assert_int_equal(wd.rtm.stat.sleep_ns, 0);
	world_end();
}

/* ---- the futex word's semantics ---- */

static const struct step holder[] = {
	{ S_LOCK, 0, 0 },   { S_LOCK, 0, 0 }, { S_SLEEP, 100000, 0 },
	{ S_UNLOCK, 0, 0 }, { S_END, 0, 0 },
};
static const struct step prober[] = {
	{ S_SLEEP, 20000, 0 }, { S_TRYLOCK, 0, 0 }, { S_UNLOCK, 0, 0 }, { S_SLEEP, 200000, 0 },
	{ S_TRYLOCK, 0, 0 },   { S_NOTE, 0, 0 },    { S_UNLOCK, 0, 0 }, { S_END, 0, 0 },
};

static void test_trylock_and_unlock_semantics(void **state)
{
	struct world wd;
	struct actor h, p;

	(void)state;
	world_begin(&wd, "smp2");
	actor_start(&h, &wd, holder, 0, "holder");
	actor_start(&p, &wd, prober, 1, "prober");
	tl_run_until(50 * NSEC_PER_MSEC, true);
	/* the owner's second FUTEX_LOCK_PI: -EDEADLK */
	assert_int_equal(h.result[0], 0);
	assert_int_equal(h.result[1], -EDEADLK);
	assert_int_equal(h.result[2], 0);
	/* a held futex: FUTEX_TRYLOCK_PI -EWOULDBLOCK, FUTEX_UNLOCK_PI by another -EPERM */
	assert_int_equal(p.result[0], -EWOULDBLOCK);
	assert_int_equal(p.result[1], -EPERM);
	/* a free one: the TID in the word, then 0 again */
	assert_int_equal(p.result[2], 0);
	assert_int_equal(p.result[3], 0);
	assert_int_equal(wd.f[0].val, 0);
	world_end();
}

/* PTHREAD_PRIO_INHERIT without contention: the word changes in user space only */
static const struct step pthread_user[] = {
	{ S_PLOCK, 0, 0 }, { S_NOTE, 0, 0 }, { S_PUNLOCK, 0, 0 }, { S_NOTE, 0, 0 }, { S_END, 0, 0 },
};
static const struct step syscall_user[] = {
	{ S_LOCK, 0, 1 }, { S_NOTE, 0, 0 }, { S_UNLOCK, 0, 1 }, { S_NOTE, 0, 0 }, { S_END, 0, 0 },
};

static void test_pthread_fast_path_stays_in_user_space(void **state)
{
	struct world wd;
	struct actor a, b;

	(void)state;
	world_begin(&wd, "smp2");
	actor_start(&a, &wd, pthread_user, 0, "pthread");
	actor_start(&b, &wd, syscall_user, 1, "syscall");
	tl_run_until(10 * NSEC_PER_MSEC, true);
	assert_int_equal(a.result[0], 0);
	assert_int_equal(a.result[1], 0);
	assert_int_equal(b.result[0], 0);
	assert_int_equal(b.result[1], 0);
	/* a pair of cmpxchgs costs far less than a pair of system calls */
	assert_true(a.at[1] - a.at[0] < machine.cost->syscall);
	assert_true(b.at[1] - b.at[0] > machine.cost->syscall);
	assert_int_equal(wd.f[0].val, 0);
	world_end();
}

/* ---- requeue to a PI futex: the requeued waiters block on its rt_mutex ---- */

/* holds futex 1 over the requeue */
static const struct step pi_holder[] = {
	{ S_LOCK, 0, 1 },   { S_SLEEP, 200000, 0 }, { S_NOTE, 0, 0 },
	{ S_UNLOCK, 0, 1 }, { S_NOTE, 0, 0 },	    { S_END, 0, 0 },
};
static const struct step rq_waiter[] = {
	{ S_WRQ, 0, 0 }, { S_NOTE, 0, 0 }, { S_RUN, 20000, 0 }, { S_UNLOCK, 0, 1 }, { S_END, 0, 0 },
};
static const struct step rq_rt_waiter[] = {
	{ S_FIFO, 0, FIFO_HI }, { S_WRQ, 0, 0 },    { S_NOTE, 0, 0 },
	{ S_RUN, 20000, 0 },	{ S_UNLOCK, 0, 1 }, { S_END, 0, 0 },
};
static const struct step requeuer[] = {
	{ S_SLEEP, 100000, 0 },
	{ S_CRQ, 0, 2 },
	{ S_END, 0, 0 },
};

/* w[0] the requeuer, w[1..3] the waiters on CPUs 1..3, w[2] the FIFO one */
static void run_requeue(struct world *wd, struct actor *w)
{
	actor_start(&w[1], wd, rq_waiter, 1, "w1");
	actor_start(&w[2], wd, rq_rt_waiter, 2, "w2");
	actor_start(&w[3], wd, rq_waiter, 3, "w3");
	actor_start(&w[0], wd, requeuer, 0, "requeuer");
	tl_run_until(50 * NSEC_PER_MSEC, true);
}

static void test_requeue_pi_boosts_the_holder(void **state)
{
	struct world wd;
	struct actor h, w[4];

	(void)state;
	world_begin(&wd, "smp4");
	actor_start(&h, &wd, pi_holder, 0, "holder");
	run_requeue(&wd, w);
	/* futex 1 is held: nobody is woken, nr_requeue + 1 are requeued (the kernel's count) */
	assert_int_equal(w[0].result[0], 3);
	/* the FIFO waiter, now on futex 1's rt_mutex, boosted its holder */
	assert_int_equal(h.prio[0], PRIO_HI);
	assert_int_equal(h.prio[1], DEFAULT_PRIO);
	/* each returned holding futex 1, the FIFO one first, then in turn */
	assert_int_equal(w[1].result[0], 0);
	assert_int_equal(w[2].result[0], 0);
	assert_int_equal(w[3].result[0], 0);
	assert_true(w[2].at[0] >= h.at[1] && w[2].at[0] < w[1].at[0] && w[2].at[0] < w[3].at[0]);
	assert_int_equal(w[1].result[1], 0);
	assert_int_equal(wd.f[1].val, 0);
	world_end();
}

/* a free PI futex: the top waiter (the FIFO one) is woken holding it, two more requeued */
static void test_requeue_pi_wakes_the_top_waiter_holding_it(void **state)
{
	struct world wd;
	struct actor w[4];

	(void)state;
	world_begin(&wd, "smp4");
	run_requeue(&wd, w);
	assert_int_equal(w[0].result[0], 3);
	assert_int_equal(w[2].result[0], 0);
	/*
	 * woken by the requeue itself, within a wakeup of it: the requeuer's
	 * 100 us sleep ends within its timer slack
	 */
	assert_true(w[2].at[0] > 100000 && w[2].at[0] < 150000 + TIMER_SLACK_DEFAULT_NS);
	assert_true(w[1].at[0] > w[2].at[0] + 20000 && w[3].at[0] > w[2].at[0] + 20000);
	assert_int_equal(w[1].result[0], 0);
	assert_int_equal(w[3].result[0], 0);
	assert_int_equal(wd.f[1].val, 0);
	world_end();
}

/* ---- soak: nested PI futexes, fair and RT tasks, under --check ---- */

#define SOAK_ACTORS 12
#define SOAK_ROUNDS 25
#define SOAK_STEPS (2 + SOAK_ROUNDS * 8 + 1)

/* actor @i's script: rounds of lock a, run, lock b > a, sleep, unlock b, unlock a, sleep */
static void soak_script(struct step *s, int i)
{
	int n = 0;
	bool pthread = i % 2;

	if (i % 3 == 0)
		s[n++] = (struct step){ S_FIFO, 0, 10 + i };
	for (int r = 0; r < SOAK_ROUNDS; r++) {
		int a = (i + r) % (NR_FUTEXES - 1), b = a + 1 + (r % (NR_FUTEXES - 1 - a));

		s[n++] = (struct step){ pthread ? S_PLOCK : S_LOCK, 0, a };
		s[n++] = (struct step){ S_RUN, 3000 + (u64)(i * 700 + r * 300) % 9000, 0 };
		s[n++] = (struct step){ pthread ? S_PLOCK : S_LOCK, 0, b };
		s[n++] = (struct step){ (r + i) % 2 ? S_SLEEP : S_RUN, 2000 + (u64)(r * 500) % 4000,
					0 };
		s[n++] = (struct step){ pthread ? S_PUNLOCK : S_UNLOCK, 0, b };
		s[n++] = (struct step){ pthread ? S_PUNLOCK : S_UNLOCK, 0, a };
		s[n++] = (struct step){ S_SLEEP, 1000 + (u64)(i * 1300 + r * 100) % 7000, 0 };
	}
	s[n] = (struct step){ S_END, 0, 0 };
}

static void test_soak_nested_pi_futexes(void **state)
{
	static struct step scripts[SOAK_ACTORS][SOAK_STEPS];
	static struct actor a[SOAK_ACTORS];
	struct world wd;
	char comm[16];

	(void)state;
	world_begin(&wd, "smp4");
	for (int i = 0; i < SOAK_ACTORS; i++) {
		soak_script(scripts[i], i);
		snprintf(comm, sizeof(comm), "soak%d", i);
		actor_start(&a[i], &wd, scripts[i], (unsigned int)i % 4, comm);
	}
	tl_run_until(2 * NSEC_PER_SEC, true);
	/* everybody got through every round, every lock returned 0, nothing is held */
	for (int i = 0; i < SOAK_ACTORS; i++) {
		assert_true(a[i].done_at > 0);
		for (int k = 0; k < a[i].nr_results; k++)
			assert_int_equal(a[i].result[k], 0);
	}
	for (int f = 0; f < NR_FUTEXES; f++)
		assert_int_equal(wd.f[f].val, 0);
	/* and it was a soak: the pi_states' rt_mutexes were contended, spun and slept on */
	{
		struct rt_mutex *m;
		u64 contended = 0, spin = 0, sleep = 0;

		list_for_each_entry(m, &all_rtmutexes, node)
		{
			contended += m->stat.contended;
			spin += m->stat.spin_ns;
			sleep += m->stat.sleep_ns;
		}
		assert_true(contended > 100);
		assert_true(spin > 0 && sleep > 0);
	}
	world_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boost_fair_owner_to_rt),
		cmocka_unit_test(test_boost_beats_priority_inversion),
		cmocka_unit_test(test_chain_walk_across_two_locks),
		cmocka_unit_test(test_deboost_order),
		cmocka_unit_test(test_rt_mutex_boost),
		cmocka_unit_test(test_rt_mutex_spins_on_running_owner),
		cmocka_unit_test(test_trylock_and_unlock_semantics),
		cmocka_unit_test(test_pthread_fast_path_stays_in_user_space),
		cmocka_unit_test(test_requeue_pi_boosts_the_holder),
		cmocka_unit_test(test_requeue_pi_wakes_the_top_waiter_holding_it),
		cmocka_unit_test(test_soak_nested_pi_futexes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
