// SPDX-License-Identifier: GPL-2.0-only
/*
 * measure-costs: measures, on the host it runs on, the kernel paths that
 * schedlab's cost model (src/sim/cost.h) charges, so that the defaults in
 * src/sim/cost.c and docs/cost-model.md can be checked against a real
 * machine. Standalone: never linked into schedlab. Build and run with
 * bench/measure-costs.sh. `schedlab calibrate` (src/calib/) now measures
 * these paths from inside schedlab and writes a cost profile for --costs;
 * this program stays as the record of docs/cost-model.md's host table.
 *
 * Every timed row is the median of TRIALS trials (after one warm-up trial)
 * of many iterations, timed with clock_gettime(CLOCK_MONOTONIC). Tasks that
 * must share or not share a CPU are pinned with sched_setaffinity().
 *
 *   syscall.getppid          syscall(SYS_getppid): entry + exit, ns/call
 *   pipe.rt.same_cpu         perf bench sched pipe on one CPU: 4-byte token,
 *                            two processes, ns per round trip; the .half
 *                            row is rt/2 = write + read + wakeup + switch
 *   pipe.rt.same_cpu.threads the same with two threads (no mm switch)
 *   pipe.rt.cross_cpu        the processes on two different CPUs (the
 *                            wakee's CPU is idle: IPI + idle exit)
 *   pipe.rt.cross_cpu.busy   the same with both CPUs kept busy by SCHED_IDLE
 *                            spinners: a wakeup IPI but no idle exit
 *   *.switches               context switches per round trip (getrusage);
 *                            .preemptions: the involuntary ones
 *   futex.rt.same_cpu        FUTEX_WAKE/FUTEX_WAIT ping-pong, two threads
 *   futex.rt.cross_cpu       the same on two CPUs
 *   lock.uncontended         spinlock lock + unlock on a line in L1 (no
 *                            IRQ flag save/restore: user space can't)
 *   cacheline.cas.cross_cpu  one cache-line transfer between the two CPUs
 *                            (compare-and-swap ping-pong, round trip / 2)
 *   yield.switch.*           sched_yield() between two tasks on one CPU,
 *                            ns per context switch (counted by getrusage)
 *   pipe.msg.N / unix.msg.N  write N bytes + read N bytes in one task that
 *                            never blocks, ns per message; .write/.read rows
 *                            time batches of 16 writes then 16 reads
 *   unix.skb.truesize.N      skb truesize of one N-byte unix stream write
 *                            (SIOCOUTQ = sk_wmem_alloc), and truesize - N
 *   memcpy.N                 user-space memcpy of N bytes, hot cache, ns/KiB
 *   fork.exit.wait           fork(), child _exit(0), parent waitpid()
 *   pthread.create.join      pthread_create() of an empty thread + join
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRIALS 7

static int quick; /* -q: fewer iterations, for a smoke test */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "measure-costs: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long iters(long n)
{
	return quick ? (n / 20 > 10 ? n / 20 : 10) : n;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void xwrite(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	if (r != (ssize_t)n)
		die("write");
}

static void xread(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r <= 0)
			die("read");
		got += (size_t)r;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* one measurement: the value of one trial */
typedef double (*trial_fn)(void *arg);

struct row {
	const char *name;
	double median, min, max;
	const char *unit;
	const char *note;
};

static struct row rows[64];
static int nr_rows;

static double run_trials(trial_fn fn, void *arg, double *min, double *max)
{
	double v[TRIALS];

	fn(arg); /* warm up: page faults, caches, the first fork */
	for (int i = 0; i < TRIALS; i++)
		v[i] = fn(arg);
	qsort(v, TRIALS, sizeof(v[0]), cmp_double);
	*min = v[0];
	*max = v[TRIALS - 1];
	return v[TRIALS / 2];
}

static struct row *add_row(const char *name, double median, double min, double max,
			   const char *unit, const char *note)
{
	struct row *r = &rows[nr_rows++];

	r->name = name;
	r->median = median;
	r->min = min;
	r->max = max;
	r->unit = unit;
	r->note = note;
	/* progress on stderr, the table at the end on stdout */
	fprintf(stderr, "  %-32s %10.1f %s\n", name, median, unit);
	return r;
}

static void measure(const char *name, trial_fn fn, void *arg, const char *unit, const char *note)
{
	double min, max, med = run_trials(fn, arg, &min, &max);

	add_row(name, med, min, max, unit, note);
}

/* ------------------------------------------------------------------ */
/* (a) syscall entry + exit                                            */

static double t_clock_gettime(void *arg)
{
	long n = iters(2000000);
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++)
		now_ns();
	return (double)(now_ns() - t0) / (double)n;
}

static double t_getppid(void *arg)
{
	long n = iters(2000000);
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (double)(now_ns() - t0) / (double)n;
}

/* an uncontended spinlock: locked cmpxchg to take, release store to drop */
static double t_lock_uncontended(void *arg)
{
	long n = iters(20000000);
	static int lock;
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		int unlocked = 0;

		while (!__atomic_compare_exchange_n(&lock, &unlocked, 1, false, __ATOMIC_ACQUIRE,
						    __ATOMIC_RELAXED))
			unlocked = 0;
		__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
	}
	return (double)(now_ns() - t0) / (double)n;
}

static long switches(int who);
static long preemptions(int who);

/* ------------------------------------------------------------------ */
/* (b, c) pipe round trip, perf bench sched pipe style                 */

struct pingpong {
	int cpu_a, cpu_b;	/* CPUs of the two sides */
	bool threads;		/* two threads of one process instead of two processes */
	long n;			/* round trips per trial (0: 200000) */
	long loops;
	int p1[2], p2[2];
	double sw_per_rt;	/* context switches (both sides) per round trip */
	double pre_per_rt;	/* of which involuntary (preemptions) */
};

/* side B: read pipe 1, write pipe 2, loops times */
static void pipe_side_b(struct pingpong *pp)
{
	int tok;

	pin(pp->cpu_b);
	for (long i = 0; i < pp->loops; i++) {
		xread(pp->p1[0], &tok, sizeof(tok));
		xwrite(pp->p2[1], &tok, sizeof(tok));
	}
}

static void *pipe_thread_b(void *arg)
{
	pipe_side_b(arg);
	return NULL;
}

static double t_pipe_rt(void *arg)
{
	struct pingpong *pp = arg;
	pthread_t th;
	pid_t pid = 0;
	int tok = 1;
	uint64_t t0, t1;
	long sw0 = switches(RUSAGE_SELF) + switches(RUSAGE_CHILDREN), sw1;
	long pre0 = preemptions(RUSAGE_SELF) + preemptions(RUSAGE_CHILDREN), pre1;

	pp->loops = iters(pp->n ? pp->n : 200000);
	if (pipe(pp->p1) || pipe(pp->p2))
		die("pipe");
	pin(pp->cpu_a);
	if (pp->threads) {
		if (pthread_create(&th, NULL, pipe_thread_b, pp))
			die("pthread_create");
	} else {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			pipe_side_b(pp);
			_exit(0);
		}
	}
	/* one round trip to be sure the other side is pinned and running */
	xwrite(pp->p1[1], &tok, sizeof(tok));
	xread(pp->p2[0], &tok, sizeof(tok));
	t0 = now_ns();
	for (long i = 1; i < pp->loops; i++) {
		xwrite(pp->p1[1], &tok, sizeof(tok));
		xread(pp->p2[0], &tok, sizeof(tok));
	}
	t1 = now_ns();
	if (pp->threads)
		pthread_join(th, NULL);
	else if (waitpid(pid, NULL, 0) != pid)
		die("waitpid");
	sw1 = switches(RUSAGE_SELF) + switches(RUSAGE_CHILDREN);
	pre1 = preemptions(RUSAGE_SELF) + preemptions(RUSAGE_CHILDREN);
	pp->sw_per_rt = (double)(sw1 - sw0) / (double)pp->loops;
	pp->pre_per_rt = (double)(pre1 - pre0) / (double)pp->loops;
	close(pp->p1[0]);
	close(pp->p1[1]);
	close(pp->p2[0]);
	close(pp->p2[1]);
	return (double)(t1 - t0) / (double)(pp->loops - 1);
}

/* ------------------------------------------------------------------ */
/* (d) futex ping-pong                                                 */

struct futex_pp {
	int cpu_a, cpu_b;
	long n;			/* round trips per trial (0: 200000) */
	long loops;
	_Atomic uint32_t word; /* 0: A's turn, 1: B's turn */
	double sw_per_rt, pre_per_rt;
};

static long futex(_Atomic uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

/* FUTEX_WAIT until *w == want */
static void futex_wait_for(_Atomic uint32_t *w, uint32_t want)
{
	uint32_t v;

	while ((v = atomic_load(w)) != want)
		futex(w, FUTEX_WAIT_PRIVATE, v);
}

static void *futex_b(void *arg)
{
	struct futex_pp *f = arg;

	pin(f->cpu_b);
	for (long i = 0; i < f->loops; i++) {
		futex_wait_for(&f->word, 1);
		atomic_store(&f->word, 0);
		futex(&f->word, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static long switches(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* involuntary switches only: preemptions (e.g. by a woken task) */
static long preemptions(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_nivcsw;
}

/* A: hand the turn to B (store + FUTEX_WAKE), FUTEX_WAIT for it to come back */
static double t_futex_rt(void *arg)
{
	struct futex_pp *f = arg;
	pthread_t th;
	uint64_t t0, t1;
	long sw0, sw1, pre0, pre1;

	f->loops = iters(f->n ? f->n : 200000);
	atomic_store(&f->word, 0);
	pin(f->cpu_a);
	sw0 = switches(RUSAGE_SELF);
	pre0 = preemptions(RUSAGE_SELF);
	if (pthread_create(&th, NULL, futex_b, f))
		die("pthread_create");
	t0 = now_ns();
	for (long i = 0; i < f->loops; i++) {
		atomic_store(&f->word, 1);
		futex(&f->word, FUTEX_WAKE_PRIVATE, 1);
		futex_wait_for(&f->word, 0);
	}
	t1 = now_ns();
	pthread_join(th, NULL);
	sw1 = switches(RUSAGE_SELF);
	pre1 = preemptions(RUSAGE_SELF);
	f->sw_per_rt = (double)(sw1 - sw0) / (double)f->loops;
	f->pre_per_rt = (double)(pre1 - pre0) / (double)f->loops;
	return (double)(t1 - t0) / (double)f->loops;
}

/* ------------------------------------------------------------------ */
/* ------------------------------------------------------------------ */
/* sched_yield between two tasks on one CPU: ns per context switch      */

struct yield_pp {
	bool threads;
	long loops;
	_Atomic int stop;
	int go[2];
};

static void *yield_thread(void *arg)
{
	struct yield_pp *y = arg;

	pin(0);
	while (!atomic_load_explicit(&y->stop, memory_order_relaxed))
		sched_yield();
	return NULL;
}

static double t_yield(void *arg)
{
	struct yield_pp *y = arg;
	long n = iters(400000), sw0, sw1;
	pthread_t th;
	pid_t pid = 0;
	uint64_t t0, t1;
	int p[2];

	pin(0);
	atomic_store(&y->stop, 0);
	if (y->threads) {
		if (pthread_create(&th, NULL, yield_thread, y))
			die("pthread_create");
	} else {
		if (pipe(p))
			die("pipe");
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			/* yield until the parent has done its loops (signalled by SIGTERM) */
			pin(0);
			xwrite(p[1], "x", 1);
			for (;;)
				sched_yield();
		}
		char c;
		xread(p[0], &c, 1);
		close(p[0]);
		close(p[1]);
	}
	sched_yield();
	sw0 = switches(RUSAGE_THREAD);
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		sched_yield();
	t1 = now_ns();
	sw1 = switches(RUSAGE_THREAD);
	if (y->threads) {
		atomic_store(&y->stop, 1);
		pthread_join(th, NULL);
	} else {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	/*
	 * Each switch away from this task is matched by one switch back to it
	 * (from the other task): 2 switches per count; if yield did not
	 * switch, say so by returning the per-yield time as a negative value.
	 */
	if (sw1 - sw0 < n / 2)
		return -(double)(t1 - t0) / (double)n;
	return (double)(t1 - t0) / (2.0 * (double)(sw1 - sw0));
}

/* ------------------------------------------------------------------ */
/* (e) non-blocking write + read of one message                        */

struct msg {
	bool unix_sock;
	size_t bytes;
	int phase; /* 0: write+read pairs; 1: time the writes of a batch; 2: the reads */
	int fd[2];
	char buf[8192];
};

static double t_msg(void *arg)
{
	struct msg *m = arg;
	long n = iters(400000);
	uint64_t t0, t1, tw = 0, tr = 0;

	if (m->unix_sock) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, m->fd))
			die("socketpair");
	} else if (pipe(m->fd)) {
		die("pipe");
	}
	memset(m->buf, 'x', sizeof(m->buf));
	if (m->phase == 0) {
		t0 = now_ns();
		for (long i = 0; i < n; i++) {
			xwrite(m->fd[1], m->buf, m->bytes);
			xread(m->fd[0], m->buf, m->bytes);
		}
		t1 = now_ns();
		tw = t1 - t0;
	} else {
		/* batches of 16 messages, well inside the pipe's 64 KiB and sndbuf */
		const int batch = 16;

		for (long i = 0; i < n; i += batch) {
			t0 = now_ns();
			for (int k = 0; k < batch; k++)
				xwrite(m->fd[1], m->buf, m->bytes);
			t1 = now_ns();
			tw += t1 - t0;
			for (int k = 0; k < batch; k++)
				xread(m->fd[0], m->buf, m->bytes);
			tr += now_ns() - t1;
		}
		n = (n + batch - 1) / batch * batch;
	}
	close(m->fd[0]);
	close(m->fd[1]);
	return (double)(m->phase == 2 ? tr : tw) / (double)n;
}

/* ------------------------------------------------------------------ */
/* (f) memcpy                                                          */

struct copy {
	size_t bytes;
	char *src, *dst;
};

/* memcpy through a volatile pointer, so that the copy is not optimised away */
static void *(*volatile memcpy_p)(void *, const void *, size_t) = memcpy;

static double t_memcpy(void *arg)
{
	struct copy *c = arg;
	long n = iters((long)(400000000 / (c->bytes + 64)));
	uint64_t t0 = now_ns();

	for (long i = 0; i < n; i++) {
		memcpy_p(c->dst, c->src, c->bytes);
		__asm__ volatile("" ::: "memory");
	}
	return (double)(now_ns() - t0) / (double)n / ((double)c->bytes / 1024.0);
}

/* ------------------------------------------------------------------ */
/* cache-line transfer: compare-and-swap ping-pong between two CPUs    */

/*
 * As nviennot/core-to-core-latency (src/bench/cas.rs): two threads flip a
 * flag with compare-exchange; each flip moves the line to the other CPU.
 * Reported as round trip / 2, i.e. one transfer.
 */
struct cas_pp {
	int cpu_a, cpu_b;
	long loops;
	_Atomic int flag __attribute__((aligned(64)));
};

static void *cas_pong(void *arg)
{
	struct cas_pp *c = arg;

	pin(c->cpu_b);
	for (long i = 0; i < c->loops; i++) {
		int want = 0;

		while (!atomic_compare_exchange_weak_explicit(&c->flag, &want, 1, memory_order_relaxed,
							      memory_order_relaxed))
			want = 0;
	}
	return NULL;
}

static double t_cas(void *arg)
{
	struct cas_pp *c = arg;
	pthread_t th;
	uint64_t t0, t1;

	c->loops = iters(2000000);
	atomic_store(&c->flag, 0);
	pin(c->cpu_a);
	if (pthread_create(&th, NULL, cas_pong, c))
		die("pthread_create");
	t0 = now_ns();
	for (long i = 0; i < c->loops; i++) {
		int want = 1;

		while (!atomic_compare_exchange_weak_explicit(&c->flag, &want, 0, memory_order_relaxed,
							      memory_order_relaxed))
			want = 1;
	}
	t1 = now_ns();
	pthread_join(th, NULL);
	return (double)(t1 - t0) / (double)c->loops / 2.0;
}

/* ------------------------------------------------------------------ */
/* cross-CPU wakeups of a busy CPU: SCHED_IDLE spinners keep both CPUs  */
/* out of idle, so a wakeup costs an IPI but no idle exit               */

static pid_t spinners[2];

static void start_spinners(int ncpu)
{
	for (int cpu = 0; cpu < ncpu && cpu < 2; cpu++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			struct sched_param sp = { 0 };

			pin(cpu);
			if (sched_setscheduler(0, SCHED_IDLE, &sp))
				die("sched_setscheduler(SCHED_IDLE)");
			for (;;)
				__asm__ volatile("pause");
		}
		spinners[cpu] = pid;
	}
}

static void stop_spinners(void)
{
	for (int i = 0; i < 2; i++) {
		if (spinners[i] > 0) {
			kill(spinners[i], SIGKILL);
			waitpid(spinners[i], NULL, 0);
			spinners[i] = 0;
		}
	}
}

/* ------------------------------------------------------------------ */
/* unix stream skb truesize: SIOCOUTQ reports sk_wmem_alloc            */

static double unix_truesize(size_t bytes)
{
	int fd[2];
	int outq = -1;
	char buf[8192];

	memset(buf, 'x', sizeof(buf));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd))
		die("socketpair");
	xwrite(fd[1], buf, bytes);
	/* the unread skb is charged to the sender's sk_wmem_alloc */
	if (ioctl(fd[1], SIOCOUTQ, &outq))
		die("ioctl(SIOCOUTQ)");
	close(fd[0]);
	close(fd[1]);
	return (double)outq;
}

/* ------------------------------------------------------------------ */
/* (g) fork and thread creation                                        */

static double t_fork(void *arg)
{
	long n = iters(4000);
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid)
			die("waitpid");
	}
	return (double)(now_ns() - t0) / (double)n;
}

static void *empty_thread(void *arg)
{
	return arg;
}

static double t_thread(void *arg)
{
	long n = iters(40000);
	uint64_t t0 = now_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		pthread_t th;

		if (pthread_create(&th, NULL, empty_thread, NULL))
			die("pthread_create");
		pthread_join(th, NULL);
	}
	return (double)(now_ns() - t0) / (double)n;
}

/* ------------------------------------------------------------------ */

static void host_info(void)
{
	char line[512], model[256] = "?";
	FILE *f = fopen("/proc/cpuinfo", "r");
	int family = -1, mod = -1;

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "model name", 10) && model[0] == '?')
				sscanf(line, "model name : %255[^\n]", model);
			else if (!strncmp(line, "cpu family", 10) && family < 0)
				sscanf(line, "cpu family : %d", &family);
			else if (!strncmp(line, "model\t", 6) && mod < 0)
				sscanf(line, "model : %d", &mod);
		}
		fclose(f);
	}
	printf("# host: %s (family %d model %d), %ld CPUs online\n", model, family, mod,
	       sysconf(_SC_NPROCESSORS_ONLN));
}

int main(int argc, char **argv)
{
	static char srcbuf[65536 + 64] __attribute__((aligned(64)));
	static char dstbuf[65536 + 64] __attribute__((aligned(64)));
	static const size_t copy_sizes[] = { 100, 1024, 4096, 16384, 65536 };
	static char names[48][48];
	int nn = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int other = ncpu > 1 ? 1 : 0;

	if (argc > 1 && !strcmp(argv[1], "-q"))
		quick = 1;
	else if (argc > 1) {
		fprintf(stderr, "usage: measure-costs [-q]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	host_info();
	fprintf(stderr, "measuring (median of %d trials)...\n", TRIALS);

	measure("clock_gettime.vdso", t_clock_gettime, NULL, "ns/call",
		"the timer itself (vDSO, no kernel entry)");
	measure("syscall.getppid", t_getppid, NULL, "ns/call", "(a) entry + exit");
	measure("lock.uncontended", t_lock_uncontended, NULL, "ns/pair",
		"lock + unlock of a spinlock in L1, no IRQ save/restore");

	struct pingpong pp = { .cpu_a = 0, .cpu_b = 0 };
	double min, max, rt = run_trials(t_pipe_rt, &pp, &min, &max);
	add_row("pipe.rt.same_cpu", rt, min, max, "ns/roundtrip", "(b) 2 processes, 1 CPU");
	add_row("pipe.rt.same_cpu.half", rt / 2, min / 2, max / 2, "ns",
		"(b) write + read + wakeup + switch");
	add_row("pipe.rt.same_cpu.switches", pp.sw_per_rt, pp.sw_per_rt, pp.sw_per_rt,
		"switches/rt", "(b) context switches per round trip (last trial)");
	add_row("pipe.rt.same_cpu.preemptions", pp.pre_per_rt, pp.pre_per_rt, pp.pre_per_rt,
		"switches/rt", "(b) of which involuntary: the writer preempted by the wakee");
	pp = (struct pingpong){ .cpu_a = 0, .cpu_b = 0, .threads = true };
	measure("pipe.rt.same_cpu.threads", t_pipe_rt, &pp, "ns/roundtrip",
		"(b) 2 threads, 1 CPU (no switch_mm)");
	add_row("pipe.rt.same_cpu.threads.switches", pp.sw_per_rt, pp.sw_per_rt, pp.sw_per_rt,
		"switches/rt", "(b) context switches per round trip (last trial)");
	if (ncpu > 1) {
		/* a cross-CPU round trip can take tens of us in a VM: fewer of them */
		pp = (struct pingpong){ .cpu_a = 0, .cpu_b = other, .n = 20000 };
		rt = run_trials(t_pipe_rt, &pp, &min, &max);
		add_row("pipe.rt.cross_cpu", rt, min, max, "ns/roundtrip",
			"(c) 2 processes, 2 CPUs");
		add_row("pipe.rt.cross_cpu.half", rt / 2, min / 2, max / 2, "ns",
			"(c) incl. IPI + idle exit");
		add_row("pipe.rt.cross_cpu.switches", pp.sw_per_rt, pp.sw_per_rt, pp.sw_per_rt,
			"switches/rt", "(c) context switches per round trip (last trial)");
	}

	struct futex_pp fp = { .cpu_a = 0, .cpu_b = 0 };
	measure("futex.rt.same_cpu", t_futex_rt, &fp, "ns/roundtrip",
		"(d) 2 threads, 1 CPU: 2 x (wake + wait)");
	add_row("futex.rt.same_cpu.switches", fp.sw_per_rt, fp.sw_per_rt, fp.sw_per_rt,
		"switches/rt", "(d) context switches per round trip (last trial)");
	add_row("futex.rt.same_cpu.preemptions", fp.pre_per_rt, fp.pre_per_rt, fp.pre_per_rt,
		"switches/rt", "(d) of which involuntary");
	if (ncpu > 1) {
		fp = (struct futex_pp){ .cpu_a = 0, .cpu_b = other, .n = 20000 };
		measure("futex.rt.cross_cpu", t_futex_rt, &fp, "ns/roundtrip",
			"(d) 2 threads, 2 CPUs");
	}

	if (ncpu > 1) {
		start_spinners((int)ncpu);
		pp = (struct pingpong){ .cpu_a = 0, .cpu_b = other, .n = 20000 };
		rt = run_trials(t_pipe_rt, &pp, &min, &max);
		stop_spinners();
		add_row("pipe.rt.cross_cpu.busy", rt, min, max, "ns/roundtrip",
			"(c) 2 CPUs kept busy by SCHED_IDLE spinners: IPI, no idle exit");
		add_row("pipe.rt.cross_cpu.busy.half", rt / 2, min / 2, max / 2, "ns",
			"(c) write + wakeup IPI + preempt spinner + read");

		struct cas_pp *cp = aligned_alloc(64, sizeof(*cp));

		if (!cp)
			die("aligned_alloc");
		memset(cp, 0, sizeof(*cp));
		cp->cpu_a = 0;
		cp->cpu_b = other;
		measure("cacheline.cas.cross_cpu", t_cas, cp, "ns/transfer",
			"CAS ping-pong between 2 CPUs, rt/2 (core-to-core-latency method)");
		free(cp);
	}

	struct yield_pp yp = { .threads = true };
	measure("yield.switch.threads", t_yield, &yp, "ns/switch",
		"sched_yield, 2 threads, 1 CPU (<0: no switch)");
	yp = (struct yield_pp){ .threads = false };
	measure("yield.switch.processes", t_yield, &yp, "ns/switch",
		"sched_yield, 2 processes, 1 CPU");

	static const size_t msg_sizes[] = { 4, 100, 4096 };
	for (int u = 0; u < 2; u++) {
		for (size_t s = 0; s < sizeof(msg_sizes) / sizeof(msg_sizes[0]); s++) {
			for (int ph = 0; ph < 3; ph++) {
				struct msg *m = calloc(1, sizeof(*m));
				static const char *const suffix[3] = { "", ".write", ".read" };

				if (!m)
					die("calloc");
				if (ph && msg_sizes[s] != 100)
					continue;
				m->unix_sock = u;
				m->bytes = msg_sizes[s];
				m->phase = ph;
				snprintf(names[nn], sizeof(names[nn]), "%s.msg.%zu%s", u ? "unix" : "pipe",
					 msg_sizes[s], suffix[ph]);
				measure(names[nn++], t_msg, m, "ns/msg",
					ph ? "(e) batch of 16, no blocking" :
					     "(e) write + read, no blocking");
				free(m);
			}
		}
	}

	static const size_t skb_sizes[] = { 4, 100, 1000, 4096 };
	for (size_t i = 0; i < sizeof(skb_sizes) / sizeof(skb_sizes[0]); i++) {
		double ts = unix_truesize(skb_sizes[i]);

		snprintf(names[nn], sizeof(names[nn]), "unix.skb.truesize.%zu", skb_sizes[i]);
		add_row(names[nn++], ts, ts, ts, "bytes", "SIOCOUTQ after one write");
		snprintf(names[nn], sizeof(names[nn]), "unix.skb.overhead.%zu", skb_sizes[i]);
		add_row(names[nn++], ts - (double)skb_sizes[i], ts - (double)skb_sizes[i],
			ts - (double)skb_sizes[i], "bytes", "truesize - payload");
	}

	memset(srcbuf, 1, sizeof(srcbuf));
	memset(dstbuf, 2, sizeof(dstbuf));
	for (size_t s = 0; s < sizeof(copy_sizes) / sizeof(copy_sizes[0]); s++) {
		struct copy c = { copy_sizes[s], srcbuf, dstbuf };

		snprintf(names[nn], sizeof(names[nn]), "memcpy.%zu", copy_sizes[s]);
		measure(names[nn++], t_memcpy, &c, "ns/KiB", "(f) user memcpy, hot cache");
	}

	measure("fork.exit.wait", t_fork, NULL, "ns", "(g) fork + child _exit + waitpid");
	measure("pthread.create.join", t_thread, NULL, "ns", "(g) pthread_create + join");

	printf("# %-30s %10s %10s %10s  %-13s %s\n", "name", "median", "min", "max", "unit",
	       "what");
	for (int i = 0; i < nr_rows; i++)
		printf("%-32s %10.1f %10.1f %10.1f  %-13s %s\n", rows[i].name, rows[i].median,
		       rows[i].min, rows[i].max, rows[i].unit, rows[i].note);
	return 0;
}
