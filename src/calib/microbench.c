// SPDX-License-Identifier: GPL-2.0-only
/*
 * The microbenchmarks of schedlab calibrate (what bench/measure-costs.c
 * measured, moved into the program and extended). Each is one trial
 * function returning one value (ns per operation); a measurement is the
 * median of the trials after a warm-up, with the minimum and maximum kept.
 * Tasks are pinned with sched_setaffinity(); the clock is CLOCK_MONOTONIC.
 * What each isolates, and which parameter it gives: docs/calibration.md.
 */
#include "calib/calib.h"

#include "sim/cache.h"
#include "sim/coherence.h"
#include "sim/cost.h"
#include "topo/machine_guest.h"
#include "topo/topology.h"
#include "work/skb_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <linux/perf_event.h>
#include <linux/sockios.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct calib_run *run;
static struct calib_host *host; /* the load is sampled after each measurement */
static char *fail_buf;
static size_t fail_len;
static bool failed;

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* wall-clock time: for latencies between CPUs */
static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/*
 * CPU time of this process's threads and of its waited-for children: for
 * work on one CPU, where it equals the wall-clock time on an idle machine,
 * and leaves out the time other work on a shared machine runs in between
 */
static uint64_t cpu_ns(void)
{
	struct rusage ru;
	uint64_t kids = 0;

	if (!getrusage(RUSAGE_CHILDREN, &ru))
		kids = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
			       1000000000ull +
		       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID) + kids;
}

/* CPU time of the calling thread alone */
static uint64_t thread_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* the first failure is reported; the measurement goes on with a value of 0 */
static void fail(const char *what)
{
	if (!failed)
		snprintf(fail_buf, fail_len, "%s: %s", what, strerror(errno));
	failed = true;
}

static long iters(long n)
{
	return run->quick ? (n / 10 > 10 ? n / 10 : 10) : n;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static bool xwrite(int fd, const void *buf, size_t n)
{
	return write(fd, buf, n) == (ssize_t)n;
}

static bool xread(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

typedef double (*trial_fn)(void *arg);

#define MAX_TRIALS 15

/* after each measurement: the load sampled, a line to the log */
static void measured(const char *name, const struct calib_stat *s)
{
	if (host)
		calib_host_load_sample(host);
	if (run->log)
		fprintf(run->log, "  %-28s %10.1f  [%.1f, %.1f]\n", name, s->med, s->min, s->max);
}

static struct calib_stat trials(const char *name, trial_fn fn, void *arg)
{
	double v[MAX_TRIALS];
	int n = run->trials < MAX_TRIALS ? run->trials : MAX_TRIALS;
	struct calib_stat s;

	fn(arg); /* warm up: page faults, caches, the first fork */
	for (int i = 0; i < n; i++)
		v[i] = fn(arg);
	s = calib_stat_of(v, n);
	measured(name, &s);
	return s;
}

/* ---- syscall entry and exit ---- */

static double t_getppid(void *arg)
{
	long n = iters(1000000);
	uint64_t t0 = cpu_ns();

	(void)arg;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (double)(cpu_ns() - t0) / (double)n;
}

static double t_lock(void *arg)
{
	long n = iters(10000000);
	static int lock;
	uint64_t t0 = cpu_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		int unlocked = 0;

		while (!__atomic_compare_exchange_n(&lock, &unlocked, 1, false, __ATOMIC_ACQUIRE,
						    __ATOMIC_RELAXED))
			unlocked = 0;
		__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
	}
	return (double)(cpu_ns() - t0) / (double)n;
}

/* ---- pipe and unix-socket messages that never block ---- */

struct msg {
	bool unix_sock;
	size_t bytes;
	int phase; /* 0: write + read pairs; 1: the writes of batches of 16; 2: the reads */
};

/* back-to-back cpu_ns() calls timed for its own cost */
#define TIMER_CALLS 64

static double t_msg(void *arg)
{
	struct msg *m = arg;
	static char buf[8192];
	long n = iters(200000);
	uint64_t t0, t1, tw = 0, tr = 0;
	int fd[2];

	if (m->unix_sock ? socketpair(AF_UNIX, SOCK_STREAM, 0, fd) : pipe(fd)) {
		fail(m->unix_sock ? "socketpair" : "pipe");
		return 0;
	}
	memset(buf, 'x', sizeof(buf));
	if (m->phase == 0) {
		t0 = cpu_ns();
		for (long i = 0; i < n; i++)
			if (!xwrite(fd[1], buf, m->bytes) || !xread(fd[0], buf, m->bytes))
				fail("write/read");
		tw = cpu_ns() - t0;
	} else {
		const int batch = 16;
		/*
		 * each timed batch holds one cpu_ns() call's worth of the timer
		 * (two system calls, about 1 us in a guest: 70 ns a message if
		 * left in): its cost, timed over back-to-back calls, comes off
		 */
		uint64_t ov = cpu_ns();

		for (int k = 0; k < TIMER_CALLS; k++)
			t0 = cpu_ns();
		ov = (t0 - ov) / TIMER_CALLS;
		n = (n + batch - 1) / batch * batch;
		for (long i = 0; i < n; i += batch) {
			t0 = cpu_ns();
			for (int k = 0; k < batch; k++)
				if (!xwrite(fd[1], buf, m->bytes))
					fail("write");
			t1 = cpu_ns();
			tw += t1 - t0;
			for (int k = 0; k < batch; k++)
				if (!xread(fd[0], buf, m->bytes))
					fail("read");
			tr += cpu_ns() - t1;
			tw = tw > ov ? tw - ov : 0;
			tr = tr > ov ? tr - ov : 0;
		}
	}
	close(fd[0]);
	close(fd[1]);
	return (double)(m->phase == 2 ? tr : tw) / (double)n;
}

/*
 * 100-byte writes queued on @sockets unix stream sockets,
 * CALIB_DEEP_PER_SOCKET each in turn (as a messaging sender does), then
 * all read back, so that between an skb's write and its read, and between
 * its slab object's free and its reuse, the other skbs' lines pass through
 * the private cache (calib_deep_sockets() sizes that traffic from the L2).
 * Per message, the writes (phase 1), the reads (2) or their mean (0).
 * Non-blocking, so that a smaller wmem_default than CALIB_DEEP_PER_SOCKET
 * skbs fails instead of hanging.
 */
struct deep {
	int sockets;
	int phase;
};

static double t_deep(void *arg)
{
	const struct deep *d = arg;
	int(*fd)[2] = calloc((size_t)d->sockets, sizeof(*fd));
	char buf[100];
	uint64_t t0, t1, tw = 0, tr = 0;
	int rounds = run->quick ? 1 : 3, i, k, r;
	double n = (double)rounds * d->sockets * CALIB_DEEP_PER_SOCKET;

	if (!fd) {
		fail("calloc (deep queue)");
		return 0;
	}
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < d->sockets; i++)
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fd[i])) {
			fail("socketpair");
			while (i--)
				close(fd[i][0]), close(fd[i][1]);
			free(fd);
			return 0;
		}
	for (r = 0; r <= rounds; r++) {
		t0 = cpu_ns();
		for (k = 0; k < CALIB_DEEP_PER_SOCKET; k++)
			for (i = 0; i < d->sockets; i++)
				if (!xwrite(fd[i][1], buf, sizeof(buf)))
					fail("write (deep queue)");
		t1 = cpu_ns();
		for (i = 0; i < d->sockets; i++)
			for (k = 0; k < CALIB_DEEP_PER_SOCKET; k++)
				if (!xread(fd[i][0], buf, sizeof(buf)))
					fail("read (deep queue)");
		/* round 0 warms up: the slab pages exist after it */
		if (r) {
			tw += t1 - t0;
			tr += cpu_ns() - t1;
		}
	}
	for (i = 0; i < d->sockets; i++)
		close(fd[i][0]), close(fd[i][1]);
	free(fd);
	if (d->phase == 0)
		return (double)(tw + tr) / 2 / n;
	return (double)(d->phase == 2 ? tr : tw) / n;
}

/*
 * The deep queue's sockets take two descriptors each, up to 800 on a big
 * L2: raise the soft limit towards the hard one if it is lower (1024 is
 * the usual default), and where the hard one is lower still, queue on as
 * many sockets as it leaves room for (the profile gives the depth run)
 */
static int deep_fit(int sockets)
{
	rlim_t want = 2 * (rlim_t)sockets + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= want)
		return sockets;
	rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
	if (setrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur < want) {
		long room = ((long)rl.rlim_cur - 64) / 2;

		return room < 1 ? 1 : (int)room;
	}
	return sockets;
}

int calib_deep_sockets(unsigned long l2_bytes, int l2_times)
{
	unsigned long skb = (unsigned long)skb_lines(100) * CL_BYTES;
	unsigned long skbs = l2_bytes * (unsigned long)l2_times / skb;
	unsigned long sockets = (skbs + CALIB_DEEP_PER_SOCKET - 1) / CALIB_DEEP_PER_SOCKET;

	if (sockets < CALIB_DEEP_MIN_SOCKETS)
		return CALIB_DEEP_MIN_SOCKETS;
	if (sockets > CALIB_DEEP_MAX_SOCKETS)
		return CALIB_DEEP_MAX_SOCKETS;
	return (int)sockets;
}

/* a thread that lives, blocked in read(), until its pipe is closed */
static void *blocked_thread(void *arg)
{
	char c;

	return (void *)(long)read(*(int *)arg, &c, 1);
}

/*
 * t_msg() while another thread of the process lives: the files_struct is
 * shared, so each read() and write() takes and drops a reference to its
 * file (fget_shared) besides the cancellation point.
 */
static double t_msg_live(void *arg)
{
	pthread_t th;
	int p[2];
	double v;

	if (pipe(p)) {
		fail("pipe");
		return 0;
	}
	if (pthread_create(&th, NULL, blocked_thread, &p[0])) {
		fail("pthread_create");
		close(p[0]);
		close(p[1]);
		return 0;
	}
	v = t_msg(arg);
	close(p[1]);
	pthread_join(th, NULL);
	close(p[0]);
	return v;
}

static double unix_truesize(void *arg)
{
	char buf[100];
	int fd[2], outq = -1;

	(void)arg;
	memset(buf, 'x', sizeof(buf));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd)) {
		fail("socketpair");
		return 0;
	}
	if (!xwrite(fd[1], buf, sizeof(buf)) || ioctl(fd[1], SIOCOUTQ, &outq))
		fail("SIOCOUTQ");
	close(fd[0]);
	close(fd[1]);
	return (double)outq;
}

/* ---- the execution-time variation of one short operation ---- */

/*
 * Operations per timed batch: 8 one-byte pipe writes are 2-3 us, some 250
 * steps of a 10 ns clock (a kvm-clock guest's; its TSC moves in the same
 * steps), so the clock resolves a batch's spread; one operation alone it
 * does not (its whole spread is a step or two). Longer batches read less
 * per operation (0.45% at 64 here against 1.2% at 8): consecutive
 * operations partly make up for each other, and it is the single
 * operation's variation that moves two tasks' phase.
 */
#define VAR_BATCH 8
#define VAR_BATCHES 20000
/* E[z^2 | |z| < 2.576] of a standard normal: what a 1% two-sided trim keeps */
#define VAR_TRIM_KEEP 0.9248

/* the clock's step: the greatest common divisor of back-to-back reads' differences */
static double clock_step_ns(void)
{
	uint64_t g = 0, prev = now_ns();

	for (int i = 0; i < 1000; i++) {
		uint64_t t = now_ns(), d = t - prev;

		prev = t;
		while (d) {
			uint64_t r = g % d;

			g = d;
			d = r;
		}
	}
	return (double)(g ? g : 1);
}

/*
 * The batches' variance is taken from the differences of consecutive
 * batches, half their mean square: an Allan variance at one batch, which
 * leaves out what drifts slower than a batch (other work's phases on the
 * host, frequency changes). The largest 1% of the differences are left out
 * (a batch an interrupt or a preemption hit: a tick every 1-4 ms lands in
 * fewer than 0.3% of them), and the normal distribution's share of the
 * variance that goes with them (VAR_TRIM_KEEP) put back. A median would be
 * more robust, but the clock's steps are as wide as the spread: most
 * differences are 0 or one step. The steps add step^2 / 6 to a batch's
 * variance (two reads, each off by a uniform fraction of a step), taken
 * off. Independent operations add variances, so one operation's SD is the
 * batch's x sqrt(@batch) / the median batch. Sorts @b.
 */
double calib_variation_ppm(double *b, long n, int batch, double step)
{
	double *d = calloc((size_t)n, sizeof(*d));
	double med, var, sq = 0;
	long keep;

	if (!d || n < 3) {
		free(d);
		return 0;
	}
	for (long i = 0; i + 1 < n; i++)
		d[i] = fabs(b[i + 1] - b[i]);
	qsort(d, (size_t)(n - 1), sizeof(*d), calib_cmp_double);
	qsort(b, (size_t)n, sizeof(*b), calib_cmp_double);
	med = b[n / 2];
	keep = (n - 1) * 99 / 100;
	for (long i = 0; i < keep; i++)
		sq += d[i] * d[i];
	free(d);
	var = sq / (double)keep / 2 / VAR_TRIM_KEEP - step * step / 6;
	if (med <= 0 || var <= 0)
		return 0;
	return sqrt(var) * sqrt((double)batch) / med * 1e6;
}

/*
 * The relative standard deviation of one operation's time, in ppm: one
 * 1-byte pipe write (@m->phase 1) or read (2) on CPU 0, timed in batches
 * of VAR_BATCH with CLOCK_MONOTONIC (calib_variation_ppm()).
 */
static double t_variation(void *arg)
{
	struct msg *m = arg;
	long n = run->quick ? VAR_BATCHES / 10 : VAR_BATCHES;
	double *b = calloc((size_t)n, sizeof(*b)), step, rel;
	char c = 'x';
	int fd[2];

	if (!b || pipe(fd)) {
		fail("variation: pipe");
		free(b);
		return 0;
	}
	pin(0);
	step = clock_step_ns();
	for (long i = 0; i < n; i++) {
		uint64_t t0 = now_ns(), t1, t2;

		for (int k = 0; k < VAR_BATCH; k++)
			if (!xwrite(fd[1], &c, 1))
				fail("variation: write");
		t1 = now_ns();
		for (int k = 0; k < VAR_BATCH; k++)
			if (!xread(fd[0], &c, 1))
				fail("variation: read");
		t2 = now_ns();
		b[i] = (double)(m->phase == 2 ? t2 - t1 : t1 - t0);
	}
	close(fd[0]);
	close(fd[1]);
	rel = calib_variation_ppm(b, n, VAR_BATCH, step);
	free(b);
	return rel;
}

/* ---- context switches: sched_yield() and pipe ping-pong on one CPU ---- */

/*
 * This thread's context switches from /proc (getrusage(RUSAGE_THREAD) says
 * the same): the voluntary ones (it blocked) with @voluntary, the
 * involuntary ones (it was preempted, or yielded) with @involuntary.
 */
static long my_switch_count(bool voluntary, bool involuntary)
{
	char path[64], line[256];
	long v = 0, total = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/status", (long)syscall(SYS_gettid));
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if ((voluntary && sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1) ||
		    (involuntary && sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1))
			total += v;
	fclose(f);
	return total;
}

static long my_switches(void)
{
	return my_switch_count(true, true);
}

struct yield_pp {
	bool threads;
	int cpu;
	_Atomic int stop;
};

static void *yield_thread(void *arg)
{
	struct yield_pp *y = arg;

	pin(y->cpu);
	while (!atomic_load_explicit(&y->stop, memory_order_relaxed))
		sched_yield();
	return NULL;
}

static double t_yield(void *arg)
{
	struct yield_pp *y = arg;
	long n = iters(200000), sw0, sw1;
	pthread_t th;
	pid_t pid = 0;
	uint64_t t0, t1;
	int p[2];
	char c;

	pin(y->cpu);
	atomic_store(&y->stop, 0);
	if (y->threads) {
		if (pthread_create(&th, NULL, yield_thread, y)) {
			fail("pthread_create");
			return 0;
		}
	} else {
		if (pipe(p)) {
			fail("pipe");
			return 0;
		}
		pid = fork();
		if (pid < 0) {
			fail("fork");
			return 0;
		}
		if (pid == 0) {
			pin(y->cpu);
			if (write(p[1], "x", 1) != 1)
				_exit(1);
			for (;;)
				sched_yield();
		}
		if (!xread(p[0], &c, 1))
			fail("read");
		close(p[0]);
		close(p[1]);
	}
	sched_yield();
	sw0 = my_switches();
	t0 = cpu_ns();
	for (long i = 0; i < n; i++)
		sched_yield();
	t1 = cpu_ns();
	sw1 = my_switches();
	if (y->threads) {
		atomic_store(&y->stop, 1);
		pthread_join(th, NULL);
	} else {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		t1 = cpu_ns(); /* with the child's CPU time, now that it is reaped */
	}
	/* each switch away from this task is matched by one back to it */
	if (sw1 - sw0 < n / 2)
		return (double)(t1 - t0) / (double)n;
	return (double)(t1 - t0) / (2.0 * (double)(sw1 - sw0));
}

/*
 * perf stat's counters on the calling thread, as perf stat opens them for a
 * command (inherit: every thread and child created afterwards gets its own
 * copy, a clone of this context): the software events task-clock,
 * context-switches and cpu-migrations, the first @n of them. Not opened
 * (perf_event_paranoid, no perf support) the measurement is left out.
 */
static int perf_fd[3] = { -1, -1, -1 };
static bool perf_unavailable;

static void perf_counters_close(void)
{
	for (int i = 0; i < 3; i++) {
		if (perf_fd[i] >= 0)
			close(perf_fd[i]);
		perf_fd[i] = -1;
	}
}

static bool perf_counters_open(int n)
{
	static const uint64_t cfg[3] = { PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
					 PERF_COUNT_SW_CPU_MIGRATIONS };

	for (int i = 0; i < n && i < 3; i++) {
		struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
					     .size = sizeof(a),
					     .config = cfg[i],
					     .inherit = 1,
					     .exclude_hv = 1 };

		perf_fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (perf_fd[i] < 0) {
			perf_counters_close();
			perf_unavailable = true;
			return false;
		}
	}
	return true;
}

struct pingpong {
	int cpu_a, cpu_b;
	bool threads;
	/*
	 * Both sides SCHED_BATCH, whose wakeups never preempt
	 * (check_preempt_wakeup_fair() leaves non-normal policies alone): every
	 * round trip is then the one the profile takes apart (each write wakes
	 * a reader blocked in read, each side blocks). Under SCHED_OTHER the
	 * wakee may preempt the writer, which then finds its reply waiting and
	 * does not block: one wakeup a round trip instead of two.
	 */
	bool batch;
	int perf_events; /* per-task counters opened on side a first, inherited by b */
	long loops;
	int p1[2], p2[2];
	/* over every call: round trips, and side a's involuntary switches in them */
	long rts, preempted;
};

static void pipe_side_b(struct pingpong *pp)
{
	int tok;

	pin(pp->cpu_b);
	for (long i = 0; i < pp->loops; i++)
		if (!xread(pp->p1[0], &tok, sizeof(tok)) || !xwrite(pp->p2[1], &tok, sizeof(tok)))
			break;
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

	struct sched_param none = { 0 };
	long nv0, nv1;

	pp->loops = iters(100000);
	if (!perf_counters_open(pp->perf_events))
		return 0;
	if (pipe(pp->p1) || pipe(pp->p2)) {
		fail("pipe");
		return 0;
	}
	pin(pp->cpu_a);
	/* side b inherits the policy; an unprivileged task may always take BATCH */
	if (pp->batch)
		sched_setscheduler(0, SCHED_BATCH, &none);
	if (pp->threads) {
		if (pthread_create(&th, NULL, pipe_thread_b, pp)) {
			fail("pthread_create");
			return 0;
		}
	} else {
		pid = fork();
		if (pid < 0) {
			fail("fork");
			return 0;
		}
		if (pid == 0) {
			pipe_side_b(pp);
			_exit(0);
		}
	}
	if (!xwrite(pp->p1[1], &tok, sizeof(tok)) || !xread(pp->p2[0], &tok, sizeof(tok)))
		fail("pipe ping-pong");
	nv0 = my_switch_count(false, true);
	t0 = cpu_ns();
	for (long i = 1; i < pp->loops; i++)
		if (!xwrite(pp->p1[1], &tok, sizeof(tok)) || !xread(pp->p2[0], &tok, sizeof(tok)))
			fail("pipe ping-pong");
	t1 = cpu_ns();
	nv1 = my_switch_count(false, true);
	pp->rts += pp->loops - 1;
	pp->preempted += nv1 - nv0;
	if (pp->batch)
		sched_setscheduler(0, SCHED_OTHER, &none);
	if (pp->threads) {
		pthread_join(th, NULL);
	} else {
		waitpid(pid, NULL, 0);
		t1 = cpu_ns(); /* with the child's CPU time, now that it is reaped */
	}
	close(pp->p1[0]);
	close(pp->p1[1]);
	close(pp->p2[0]);
	close(pp->p2[1]);
	perf_counters_close();
	return (double)(t1 - t0) / (double)(pp->loops - 1);
}

/*
 * The share of @pp's round trips, over all its trials, in which side a
 * was switched out involuntarily (its wakee preempted it), in percent, as
 * a one-trial stat.
 */
static struct calib_stat preempt_share(const struct pingpong *pp)
{
	double v = pp->rts ? 100.0 * (double)pp->preempted / (double)pp->rts : 0;

	return (struct calib_stat){ .med = v, .min = v, .max = v, .n = pp->rts ? 1 : 0 };
}

/* @n trials' values @v of a series run in turn with others, as a stat, logged as @name */
static struct calib_stat series(const char *name, const double *v, int n)
{
	double sorted[MAX_TRIALS];
	struct calib_stat s;

	memcpy(sorted, v, sizeof(double) * (size_t)n);
	s = calib_stat_of(sorted, n);
	measured(name, &s);
	return s;
}

/* the pairs' differences @a[i] - @b[i] of @n trials, as a stat */
static struct calib_stat paired(const double *a, const double *b, int n)
{
	double d[MAX_TRIALS];

	for (int i = 0; i < n; i++)
		d[i] = a[i] - b[i];
	return calib_stat_of(d, n);
}

/*
 * The SCHED_BATCH ping-pongs whose differences make parameters (switch_mm,
 * perf_ctx_switch, perf_event_switch), a trial of each in turn: a pair's
 * difference sees one moment of the host, as the wakeup pairs do, where
 * two blocks of trials a few seconds apart differed by the host's drift.
 */
enum { PP_THREADS, PP_PROCS, PP_PERF1, PP_PERF3, NR_PP };

static void pingpong_rounds(struct calib_result *res)
{
	static const char *const names[NR_PP] = { "pipe.rt.threads", "pipe.rt.processes",
						   "pipe.rt.threads.perf1",
						   "pipe.rt.threads.perf3" };
	static const enum calib_meas meas[NR_PP] = { M_PIPE_RT_THREADS, M_PIPE_RT_PROCS,
						     M_PIPE_RT_PERF1, M_PIPE_RT_PERF3 };
	struct pingpong pp[NR_PP] = {
		{ .threads = true, .batch = true },
		{ .threads = false, .batch = true },
		{ .threads = true, .batch = true, .perf_events = 1 },
		{ .threads = true, .batch = true, .perf_events = 3 },
	};
	double v[NR_PP][MAX_TRIALS];
	int n = run->trials < MAX_TRIALS ? run->trials : MAX_TRIALS, k = NR_PP;

	for (int j = 0; j < k; j++) {
		t_pipe_rt(&pp[j]); /* warm up */
		/* perf_event_open() refused: the counters' variants are left out */
		if (j == PP_PERF1 && perf_unavailable)
			k = PP_PERF1;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < k; j++)
			v[j][i] = t_pipe_rt(&pp[j]);
	for (int j = 0; j < k; j++)
		res->m[meas[j]] = series(names[j], v[j], n);
	res->m[M_PIPE_RT_BATCH_PREEMPT] = preempt_share(&pp[PP_THREADS]);
	res->m[M_PIPE_RT_PROCS_DIFF] = paired(v[PP_PROCS], v[PP_THREADS], n);
	if (k == NR_PP) {
		res->m[M_PIPE_RT_PERF1_DIFF] = paired(v[PP_PERF1], v[PP_THREADS], n);
		res->m[M_PIPE_RT_PERF3_DIFF] = paired(v[PP_PERF3], v[PP_PERF1], n);
	}
}

/* ---- a ring of processes: a switch's working set refilled into the L1 ---- */

static unsigned long cache_size(int cpu, int level, unsigned long def);

/*
 * A token round a ring of *@arg (an int) processes on CPU 0, through pipes, all
 * SCHED_BATCH: every hop is a write that wakes the next process, a read
 * that blocks, and a switch to the woken one. With 2 processes both
 * working sets stay in the L1; with more than fit, each switch brings the
 * incoming process's back from the L2. Everything else per hop is the
 * same, so the difference is that refill (docs/calibration.md, l1_refill).
 */
static void ring_member(int in, int out, long laps)
{
	char tok;

	for (long i = 0; i < laps; i++)
		if (!xread(in, &tok, 1) || !xwrite(out, &tok, 1))
			break;
}

static double t_ring(void *arg)
{
	int k = *(const int *)arg;
	long laps = iters(40000) / k;
	int p[CALIB_RING_MAX][2];
	pid_t kids[CALIB_RING_MAX];
	struct sched_param none = { 0 };
	char tok = 1;
	uint64_t t0 = 0, t1 = 0;
	int made;

	if (laps < 2)
		laps = 2;
	for (made = 0; made < k; made++)
		if (pipe(p[made])) {
			fail("pipe");
			goto out;
		}
	pin(0);
	sched_setscheduler(0, SCHED_BATCH, &none);
	for (int i = 1; i < k; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			/* a ring with a member missing would never come round: end it */
			fail("fork");
			for (int j = 1; j < i; j++) {
				kill(kids[j], SIGKILL);
				waitpid(kids[j], NULL, 0);
			}
			goto out;
		}
		if (pid == 0) {
			ring_member(p[i][0], p[(i + 1) % k][1], laps);
			_exit(0);
		}
		kids[i] = pid;
	}
	/* the first lap starts every member; the rest are timed */
	if (!xwrite(p[1][1], &tok, 1) || !xread(p[0][0], &tok, 1))
		fail("ring");
	t0 = cpu_ns();
	for (long l = 1; l < laps; l++)
		if (!xwrite(p[1][1], &tok, 1) || !xread(p[0][0], &tok, 1))
			fail("ring");
	for (int i = 1; i < k; i++)
		waitpid(kids[i], NULL, 0);
	t1 = cpu_ns(); /* with the members' CPU time, now that they are reaped */
out:
	sched_setscheduler(0, SCHED_OTHER, &none);
	for (int i = 0; i < made; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
	return (double)(t1 - t0) / (double)((laps - 1) * k);
}

/*
 * The rings of 2 and of ring_k processes, a trial of each in turn (their
 * difference sees one moment of the host, as pingpong_rounds()'s do).
 * ring_k: enough default footprints (CACHE_DEFAULT_FOOTPRINT) beyond the
 * incoming one to fill this CPU's L1d, one more for a cache that is not
 * strictly LRU.
 */
static void ring_rounds(struct calib_result *res)
{
	double v2[MAX_TRIALS], vk[MAX_TRIALS];
	int n = run->trials < MAX_TRIALS ? run->trials : MAX_TRIALS;
	unsigned long l1 = cache_size(0, 1, 32 * 1024);
	int two = 2, k = 2 + (int)((l1 + CACHE_DEFAULT_FOOTPRINT - 1) / CACHE_DEFAULT_FOOTPRINT);

	if (k < CALIB_RING_MIN)
		k = CALIB_RING_MIN;
	if (k > CALIB_RING_MAX)
		k = CALIB_RING_MAX;
	res->ring_k = k;
	res->l1d_bytes = l1;
	t_ring(&two);
	t_ring(&k);
	for (int i = 0; i < n; i++) {
		v2[i] = t_ring(&two);
		vk[i] = t_ring(&k);
	}
	res->m[M_RING_2] = series("ring.2", v2, n);
	res->m[M_RING_K] = series("ring.k", vk, n);
	res->m[M_RING_DIFF] = paired(vk, v2, n);
	measured("ring.k-2", &res->m[M_RING_DIFF]);
}

/* ---- reprogramming the CPU's timer ---- */

struct timer_batch {
	int fd;
	long expiry_ns;
	uint64_t span_ns; /* how long the batch runs: many ticks */
};

/*
 * timerfd_settime() per call with a relative expiry: each call's deadline
 * is a new one, so whenever it is the CPU's first timer (earlier than the
 * tick) the clock event device is programmed again
 * (hrtimer_force_reprogram(); on x86 a TSC-deadline MSR write, in a KVM
 * guest a VM exit); far out, the hrtimer is only queued. The batch runs for
 * a span of many ticks, so its calls fall at every phase of the tick and
 * the tick comes first on the share of them the distance says.
 */
static double t_timer(void *arg)
{
	const struct timer_batch *b = arg;
	const struct itimerspec at = { .it_value = { b->expiry_ns / 1000000000,
						     b->expiry_ns % 1000000000 } };
	uint64_t t0 = cpu_ns(), t;
	long n = 0;

	do {
		for (int i = 0; i < 64; i++)
			if (timerfd_settime(b->fd, 0, &at, NULL))
				fail("timerfd_settime");
		n += 64;
		t = cpu_ns();
	} while (t - t0 < b->span_ns && !failed);
	return (double)(t - t0) / (double)n;
}

/*
 * On CPU 0, per trial a far batch and then one at each distance of
 * calib_timer_64ths[] of a tick of @hz; each distance's difference to the
 * far batch of its trial, over the share of its calls that the tick did
 * not come before, is one reprogramming (calib.h)
 */
static void timer_rounds(struct calib_result *res, unsigned int hz)
{
	const struct itimerspec off = { 0 };
	const long tick_ns = 1000000000L / (long)hz;
	struct timer_batch far, near[CALIB_NR_TIMER];
	double vf[MAX_TRIALS], vn[CALIB_NR_TIMER][MAX_TRIALS];
	int n = run->trials < MAX_TRIALS ? run->trials : MAX_TRIALS;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

	if (fd < 0) {
		fail("timerfd_create");
		return;
	}
	pin(0);
	res->timer_hz = hz;
	far = (struct timer_batch){ fd, CALIB_TIMER_FAR_S * 1000000000L,
				    (uint64_t)tick_ns * CALIB_TIMER_TICKS };
	t_timer(&far); /* warm up */
	for (int j = 0; j < CALIB_NR_TIMER; j++)
		near[j] = (struct timer_batch){ fd, tick_ns * calib_timer_64ths[j] / 64,
						far.span_ns };
	for (int i = 0; i < n; i++) {
		vf[i] = t_timer(&far);
		for (int j = 0; j < CALIB_NR_TIMER; j++)
			vn[j][i] = t_timer(&near[j]);
	}
	timerfd_settime(fd, 0, &off, NULL);
	close(fd);
	res->timer_far = series("timer.far", vf, n);
	for (int j = 0; j < CALIB_NR_TIMER; j++) {
		double first = 1 - calib_timer_64ths[j] / 64.0;
		char name[40];

		for (int i = 0; i < n; i++)
			vn[j][i] = (vn[j][i] - vf[i]) / first;
		snprintf(name, sizeof(name), "timer.reprogram.%u/64", calib_timer_64ths[j]);
		res->timer_reprogram[j] = series(name, vn[j], n);
	}
}

/* ---- futexes ---- */

static long futex(_Atomic uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static double t_futex_wake_none(void *arg)
{
	static _Atomic uint32_t word;
	long n = iters(1000000);
	uint64_t t0 = cpu_ns();

	(void)arg;
	for (long i = 0; i < n; i++)
		futex(&word, FUTEX_WAKE_PRIVATE, 1);
	return (double)(cpu_ns() - t0) / (double)n;
}

static double t_futex_wait_eagain(void *arg)
{
	static _Atomic uint32_t word = 1;
	long n = iters(1000000);
	uint64_t t0 = cpu_ns();

	(void)arg;
	for (long i = 0; i < n; i++)
		futex(&word, FUTEX_WAIT_PRIVATE, 0); /* the value differs: EAGAIN */
	return (double)(cpu_ns() - t0) / (double)n;
}

struct futex_pp {
	int cpu_a, cpu_b;
	long loops;
	_Atomic uint32_t word;
};

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

static double t_futex_rt(void *arg)
{
	struct futex_pp *f = arg;
	pthread_t th;
	uint64_t t0, t1;

	f->loops = iters(100000);
	atomic_store(&f->word, 0);
	pin(f->cpu_a);
	if (pthread_create(&th, NULL, futex_b, f)) {
		fail("pthread_create");
		return 0;
	}
	t0 = cpu_ns();
	for (long i = 0; i < f->loops; i++) {
		atomic_store(&f->word, 1);
		futex(&f->word, FUTEX_WAKE_PRIVATE, 1);
		futex_wait_for(&f->word, 0);
	}
	t1 = cpu_ns();
	pthread_join(th, NULL);
	return (double)(t1 - t0) / (double)f->loops;
}

/* ---- fork, exec, exit, threads ---- */

static double t_fork_call(void *arg)
{
	long n = iters(1000);
	uint64_t total = 0;

	(void)arg;
	for (long i = 0; i < n; i++) {
		uint64_t t0 = thread_ns();
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		total += thread_ns() - t0;
		if (pid < 0) {
			fail("fork");
			return 0;
		}
		waitpid(pid, NULL, 0);
	}
	return (double)total / (double)n;
}

static double t_fork_exit_wait(void *arg)
{
	long n = iters(1000);
	uint64_t t0 = cpu_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fail("fork");
			return 0;
		}
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	return (double)(cpu_ns() - t0) / (double)n;
}

/*
 * A process image beyond the calibrating process's own: CALIB_IMAGE_PAGES
 * anonymous pages written before the fork, as a benchmark tool's heap and
 * data are (small pages: a tool's image is many small mappings, not THP)
 */
static char *image_map(void)
{
	size_t len = (size_t)CALIB_IMAGE_PAGES * 4096;
	char *img = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (img == MAP_FAILED) {
		fail("image: mmap");
		return NULL;
	}
	madvise(img, len, MADV_NOHUGEPAGE);
	memset(img, 1, len);
	return img;
}

/*
 * fork.exit.image / fork.exit.base: a child forked with (@arg: the image)
 * or without the extra image blocks on a pipe; from the parent's "go" to
 * its waitpid() returning, the CPU time of both (the child's exit() and
 * its teardown of every page it maps, the reaping). The fork() call is
 * timed apart (fork.call.image: it copies the image's page tables).
 */
struct exit_image {
	char *img;
	double fork_ns[MAX_TRIALS + 1]; /* each call's fork() call, ns: the warm-up first */
	int nr_fork;
};

static double t_exit_wait(void *arg)
{
	struct exit_image *x = arg;
	long n = iters(200);
	uint64_t total = 0, forks = 0;

	for (long i = 0; i < n; i++) {
		uint64_t t0 = thread_ns(), t1;
		int go[2];
		pid_t pid;
		char c = 'g';

		if (pipe(go)) {
			fail("exit image: pipe");
			return 0;
		}
		pid = fork();
		if (pid == 0) {
			close(go[1]);
			if (read(go[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
		forks += thread_ns() - t0;
		close(go[0]);
		if (pid < 0) {
			close(go[1]);
			fail("fork");
			return 0;
		}
		t1 = cpu_ns();
		if (write(go[1], &c, 1) != 1)
			fail("exit image: write");
		waitpid(pid, NULL, 0);
		total += cpu_ns() - t1;
		close(go[1]);
	}
	if (x->nr_fork <= MAX_TRIALS)
		x->fork_ns[x->nr_fork++] = (double)forks / (double)n;
	return (double)total / (double)n;
}

/*
 * cow.fault: the parent wrote every page of the image; its forked child
 * writes one byte to each of CALIB_COW_PAGES of them (a copy-on-write fault
 * each: a page allocated and copied, the PTE made writable) and sends the
 * time a page on its own CPU clock
 */
static double t_cow_fault(void *arg)
{
	char *img = ((struct exit_image *)arg)->img;
	long n = iters(20);
	double sum = 0;

	for (long i = 0; i < n; i++) {
		int rep[2];
		double per = 0;
		pid_t pid;

		if (pipe(rep)) {
			fail("cow fault: pipe");
			return 0;
		}
		pid = fork();
		if (pid == 0) {
			uint64_t t0 = thread_ns();

			for (long pg = 0; pg < CALIB_COW_PAGES; pg++)
				((volatile char *)img)[pg * 4096] = 2;
			per = (double)(thread_ns() - t0) / CALIB_COW_PAGES;
			if (write(rep[1], &per, sizeof(per)) != sizeof(per))
				_exit(1);
			_exit(0);
		}
		close(rep[1]);
		if (pid < 0) {
			close(rep[0]);
			fail("fork");
			return 0;
		}
		if (read(rep[0], &per, sizeof(per)) != sizeof(per))
			fail("cow fault: read");
		close(rep[0]);
		waitpid(pid, NULL, 0);
		sum += per;
	}
	return sum / (double)n;
}

/* the calibrating process's resident anonymous pages: what a child it forks maps */
static long resident_anon_pages(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "RssAnon: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb / 4;
}

static char exec_path[4096];

static double t_exec(void *arg)
{
	long n = iters(200);
	uint64_t t0 = cpu_ns();

	(void)arg;
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			fail("fork");
			return 0;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0) {
				dup2(null, 1);
				dup2(null, 2);
			}
			execl(exec_path, exec_path, "--version", (char *)NULL);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
	}
	return (double)(cpu_ns() - t0) / (double)n;
}

static void *empty_thread(void *arg)
{
	return arg;
}

static double t_thread(void *arg)
{
	bool call_only = *(bool *)arg;
	long n = iters(10000);
	uint64_t total = 0, t0 = thread_ns();

	for (long i = 0; i < n; i++) {
		pthread_t th;
		uint64_t c0 = thread_ns();

		if (pthread_create(&th, NULL, empty_thread, NULL)) {
			fail("pthread_create");
			return 0;
		}
		total += thread_ns() - c0;
		pthread_join(th, NULL);
	}
	return (double)(call_only ? total : thread_ns() - t0) / (double)n;
}

/* ---- cache-line transfer: CAS ping-pong between two CPUs ---- */

struct cas_pp {
	_Atomic int flag __attribute__((aligned(64)));
	int cpu_a, cpu_b;
	long loops;
};

static void *cas_pong(void *arg)
{
	struct cas_pp *c = arg;

	pin(c->cpu_b);
	for (long i = 0; i < c->loops; i++) {
		int want = 0;

		while (!atomic_compare_exchange_weak_explicit(
			&c->flag, &want, 1, memory_order_relaxed, memory_order_relaxed))
			want = 0;
	}
	return NULL;
}

static double t_cas(void *arg)
{
	struct cas_pp *c = arg;
	pthread_t th;
	uint64_t t0, t1;

	c->loops = iters(500000);
	atomic_store(&c->flag, 0);
	pin(c->cpu_a);
	if (pthread_create(&th, NULL, cas_pong, c)) {
		fail("pthread_create");
		return 0;
	}
	t0 = now_ns();
	for (long i = 0; i < c->loops; i++) {
		int want = 1;

		while (!atomic_compare_exchange_weak_explicit(
			&c->flag, &want, 0, memory_order_relaxed, memory_order_relaxed))
			want = 1;
	}
	t1 = now_ns();
	pthread_join(th, NULL);
	return (double)(t1 - t0) / (double)c->loops / 2.0;
}

/* ---- wakeup latency: FUTEX_WAKE on one CPU to the wakee running on another ---- */

/*
 * A SCHED_IDLE thread on the wakee's CPU that spins while @spin is 1 and
 * parks in FUTEX_WAIT while it is 0, so that one loop can alternate that
 * CPU between idle and busy (pair_trials()). A thread of this process, as
 * the wakee is: its switch to the wakee keeps the mm, as the idle task's
 * (whose lazy mm is ours) does.
 */
struct idle_spinner {
	int cpu;
	_Atomic uint32_t spin; /* 1: spin, 0: park, 2: exit */
	_Atomic uint32_t spinning; /* 1 while it spins, 0 once it parks */
};

static void *idle_spin(void *arg)
{
	struct idle_spinner *sp = arg;
	struct sched_param param = { 0 };
	uint32_t v;

	pin(sp->cpu);
	sched_setscheduler(0, SCHED_IDLE, &param);
	while ((v = atomic_load(&sp->spin)) != 2) {
		if (!v) {
			atomic_store(&sp->spinning, 0);
			futex(&sp->spin, FUTEX_WAIT_PRIVATE, 0);
			continue;
		}
		atomic_store(&sp->spinning, 1);
		while (atomic_load_explicit(&sp->spin, memory_order_relaxed) == 1)
			;
	}
	return NULL;
}

/*
 * Called by the wakee on the spinner's CPU: a parked spinner is woken
 * there (no IPI) and runs once the wakee blocks, so the CPU never idles
 */
static void idle_spinner_toggle(struct idle_spinner *sp)
{
	if (atomic_load(&sp->spin)) {
		atomic_store(&sp->spin, 0);
		return;
	}
	atomic_store(&sp->spin, 1);
	futex(&sp->spin, FUTEX_WAKE_PRIVATE, 1);
}

/* the waker: until the spinner spins (@want 1) or has parked (0) */
static void idle_spinner_wait(struct idle_spinner *sp, uint32_t want)
{
	while (atomic_load(&sp->spinning) != want)
		sched_yield();
}

struct wake_pp {
	int cpu_a, cpu_b;
	long loops;
	long gap_ns; /* how long the wakee's CPU idles before each wakeup; 0: 200 us */
	bool call; /* the result is the waker's FUTEX_WAKE call, not the latency */
	struct idle_spinner *sp; /* pairs: the wakee turns it on and off after each wakeup */
	_Atomic uint32_t word;
	_Atomic uint64_t t_wake; /* when the waker called FUTEX_WAKE */
	_Atomic uint64_t lat; /* the wakee's latency, 0 until it ran */
	unsigned long long usage0[CALIB_MAX_IDLE], usage1[CALIB_MAX_IDLE];
	int nr_idle;
};

static void *wakee(void *arg)
{
	struct wake_pp *w = arg;

	pin(w->cpu_b);
	for (long i = 0; i < w->loops; i++) {
		futex_wait_for(&w->word, 1);
		atomic_store(&w->lat, now_ns() - atomic_load(&w->t_wake));
		if (w->sp)
			idle_spinner_toggle(w->sp);
		atomic_store(&w->word, 0);
	}
	return NULL;
}

static void idle_usage(int cpu, int nr, unsigned long long *out)
{
	for (int s = 0; s < nr; s++) {
		char path[128];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage",
			 cpu, s);
		out[s] = 0;
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%llu", &out[s]) != 1)
				out[s] = 0;
			fclose(f);
		}
	}
}

/*
 * One wakeup of the wakee after the gap: its latency, or the waker's
 * FUTEX_WAKE call (@w->call); back when the wakee has run
 */
static double wake_once(struct wake_pp *w)
{
	/* 200 us unless told: the wakee's CPU goes idle */
	long g = w->gap_ns ? w->gap_ns : 200000;
	struct timespec gap = { g / 1000000000, g % 1000000000 };
	uint64_t c0;
	double call;

	nanosleep(&gap, NULL);
	atomic_store(&w->lat, 0);
	c0 = now_ns();
	atomic_store(&w->t_wake, c0);
	atomic_store(&w->word, 1);
	futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
	call = (double)(now_ns() - c0);
	/* wait for the wakee to have run: this CPU is not the wakee's */
	while (atomic_load(&w->word) != 0)
		sched_yield();
	return w->call ? call : (double)atomic_load(&w->lat);
}

static double t_wake(void *arg)
{
	struct wake_pp *w = arg;
	double *lat;
	pthread_t th;
	long n;

	w->loops = iters(400);
	n = w->loops;
	lat = calloc((size_t)n, sizeof(*lat));
	if (!lat) {
		fail("calloc");
		return 0;
	}
	atomic_store(&w->word, 0);
	pin(w->cpu_a);
	if (pthread_create(&th, NULL, wakee, w)) {
		free(lat);
		fail("pthread_create");
		return 0;
	}
	idle_usage(w->cpu_b, w->nr_idle, w->usage0);
	for (long i = 0; i < n; i++)
		lat[i] = wake_once(w);
	idle_usage(w->cpu_b, w->nr_idle, w->usage1);
	pthread_join(th, NULL);
	qsort(lat, (size_t)n, sizeof(*lat), calib_cmp_double);
	double med = lat[n / 2];

	free(lat);
	return med;
}

/* a SCHED_IDLE spinner pinned to @cpu: the CPU is busy, yet any wakee preempts it */
static pid_t spinner(int cpu)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct sched_param sp = { 0 };

		pin(cpu);
		sched_setscheduler(0, SCHED_IDLE, &sp);
		for (;;)
			__asm__ volatile("" ::: "memory");
	}
	if (pid < 0)
		fail("fork");
	return pid;
}

static void stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/*
 * One trial of pairs: the wakee's CPU idle for the gap, then kept busy by
 * @sp for the next wakeup, the waker sleeping the gap before each, so the
 * host's load falls on both alike. @out: the medians of the idle series,
 * the busy one and the pairs' differences, and the wakee CPU's idle
 * entries per pair.
 */
static void wake_pairs(struct wake_pp *w, struct idle_spinner *sp, double out[4])
{
	long n = iters(400);
	double *idle = calloc((size_t)(3 * n), sizeof(*idle));
	double *busy = idle + n, *scratch = busy + n;
	pthread_t th;

	unsigned long long entries = 0;

	out[0] = out[1] = out[2] = out[3] = 0;
	if (!idle) {
		fail("calloc");
		return;
	}
	atomic_store(&w->word, 0);
	w->loops = 2 * n;
	w->sp = sp;
	pin(w->cpu_a);
	if (pthread_create(&th, NULL, wakee, w)) {
		free(idle);
		fail("pthread_create");
		return;
	}
	idle_usage(w->cpu_b, w->nr_idle, w->usage0);
	for (long i = 0; i < n; i++) {
		idle_spinner_wait(sp, 0);
		idle[i] = wake_once(w);
		idle_spinner_wait(sp, 1);
		busy[i] = wake_once(w);
	}
	idle_usage(w->cpu_b, w->nr_idle, w->usage1);
	pthread_join(th, NULL);
	for (int s = 0; s < w->nr_idle; s++)
		entries += w->usage1[s] - w->usage0[s];
	out[3] = (double)entries / (double)n;
	w->sp = NULL;
	out[2] = calib_median_diff(idle, busy, n, scratch);
	out[0] = calib_stat_of(idle, (int)n).med;
	out[1] = calib_stat_of(busy, (int)n).med;
	free(idle);
}

/* trials() of wake_pairs(), after one warm-up trial (which settles the host's poll window) */
static struct calib_wake_pairs pair_trials(const char *name, struct wake_pp *w,
					   struct idle_spinner *sp)
{
	double v[3][MAX_TRIALS], one[4], halts = 0;
	int n = run->trials < MAX_TRIALS ? run->trials : MAX_TRIALS;
	struct calib_wake_pairs p;
	char what[80];

	wake_pairs(w, sp, one);
	for (int i = 0; i < n; i++) {
		wake_pairs(w, sp, one);
		for (int k = 0; k < 3; k++)
			v[k][i] = one[k];
		halts += one[3] / n;
	}
	p.halts = w->nr_idle ? halts : -1;
	p.idle = calib_stat_of(v[0], n);
	p.busy = calib_stat_of(v[1], n);
	p.diff = calib_stat_of(v[2], n);
	snprintf(what, sizeof(what), "%s.idle", name);
	measured(what, &p.idle);
	snprintf(what, sizeof(what), "%s.busy", name);
	measured(what, &p.busy);
	snprintf(what, sizeof(what), "%s.diff", name);
	measured(what, &p.diff);
	return p;
}

/* ---- the private caches after an idle period ---- */

const unsigned int calib_flush_gap_us[CALIB_NR_FLUSH_GAPS] = { 20, 100, 300, 1000, 3000, 10000 };

/* @cpu's data cache of @level from sysfs, bytes; @def without */
static unsigned long cache_size(int cpu, int level, unsigned long def)
{
	for (int i = 0; i < 8; i++) {
		char path[128], type[32] = "";
		unsigned long lvl = 0, kb = 0;
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%lu", &lvl) != 1)
			lvl = 0;
		fclose(f);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/type",
			 cpu, i);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%31s", type) != 1)
				type[0] = '\0';
			fclose(f);
		}
		if ((int)lvl != level || !strcmp(type, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/size",
			 cpu, i);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%luK", &kb) != 1)
				kb = 0;
			fclose(f);
		}
		if (kb)
			return kb * 1024;
	}
	return def;
}

struct flush_pp {
	int cpu_b;
	long loops;
	_Atomic uint32_t word;
	unsigned char *l1, *l2, *evict;
	unsigned long l1_bytes, l2_bytes, evict_bytes;
	/* per wake: the re-reads after the gap, warm, from the LLC and from memory */
	double *l1_cold, *l2_cold, *l1_warm, *l2_warm, *l1_ref, *l2_ref, *l2_mem;
};

static volatile uintptr_t flush_sink;

/*
 * Link the 64-byte lines of @buf into one cycle in a pseudo-random order
 * (a fixed seed): a walk of it is one dependent load a line, which the
 * prefetchers cannot run ahead of, so it takes each line's latency from
 * wherever it is (a sequential read from the LLC is about as fast as
 * from L2)
 */
static void chase_init(unsigned char *buf, unsigned long bytes)
{
	unsigned long n = bytes / 64;
	unsigned long *order = malloc(n * sizeof(*order));
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	if (!order) {
		fail("allocating");
		return;
	}
	for (unsigned long i = 0; i < n; i++)
		order[i] = i;
	for (unsigned long i = n - 1; i > 0; i--) {
		unsigned long j, tmp;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (unsigned long)(x % (i + 1));
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (unsigned long i = 0; i < n; i++)
		*(void **)(buf + order[i] * 64) = buf + order[(i + 1) % n] * 64;
	free(order);
}

/* one walk of @buf's cycle: ns */
static double chase(unsigned char *buf, unsigned long bytes)
{
	uint64_t t0 = now_ns();
	void *p = buf;

	for (unsigned long i = 0; i < bytes / 64; i++)
		p = *(void *volatile *)p;
	flush_sink += (uintptr_t)p;
	return (double)(now_ns() - t0);
}

/* a sequential read of @buf (the evictor: its lines push the buffers out) */
static void read_lines(const unsigned char *buf, unsigned long bytes)
{
	uintptr_t sum = 0;

	for (unsigned long i = 0; i < bytes; i += 64)
		sum += ((const volatile unsigned char *)buf)[i];
	flush_sink += sum;
}

/* @buf's lines written back and out of every cache level, where the ISA lets user space */
static void flush_lines(unsigned char *buf, unsigned long bytes)
{
#if defined(__x86_64__) || defined(__i386__)
	for (unsigned long i = 0; i < bytes; i += 64)
		__builtin_ia32_clflush(buf + i);
	__builtin_ia32_mfence();
#else
	(void)buf;
	(void)bytes;
#endif
}

/* the L2 buffer, then the L1 one: the state each wake leaves and finds */
static void flush_settle(struct flush_pp *w)
{
	chase(w->l2, w->l2_bytes);
	chase(w->l1, w->l1_bytes);
}

static void *flush_wakee(void *arg)
{
	struct flush_pp *w = arg;

	pin(w->cpu_b);
	flush_settle(w);
	for (long i = 0; i < w->loops; i++) {
		futex_wait_for(&w->word, 1);
		w->l1_cold[i] = chase(w->l1, w->l1_bytes);
		w->l2_cold[i] = chase(w->l2, w->l2_bytes);
		flush_settle(w);
		w->l1_warm[i] = chase(w->l1, w->l1_bytes);
		w->l2_warm[i] = chase(w->l2, w->l2_bytes);
		/* twice the L2 of other data: both buffers are in the LLC only */
		read_lines(w->evict, w->evict_bytes);
		w->l1_ref[i] = chase(w->l1, w->l1_bytes);
		w->l2_ref[i] = chase(w->l2, w->l2_bytes);
		flush_lines(w->l2, w->l2_bytes);
		w->l2_mem[i] = chase(w->l2, w->l2_bytes);
		flush_settle(w);
		atomic_store(&w->word, 0);
	}
	return NULL;
}

/*
 * One trial of @n wakes after @gap_ns each: the medians of the pairs'
 * differences (l1, l2 cold - warm; l1, l2 evicted - warm) into @out[0..3],
 * the wakee CPU's cpuidle entries a wake into @out[4], the L2 buffer from
 * memory - warm into @out[5]
 */
static void flush_trial(struct flush_pp *w, int cpu_a, long gap_ns, long n, int nr_idle,
			double out[6])
{
	struct timespec gap = { gap_ns / 1000000000, gap_ns % 1000000000 };
	unsigned long long u0[CALIB_MAX_IDLE], u1[CALIB_MAX_IDLE], entries = 0;
	double *scratch = calloc((size_t)n, sizeof(double));
	pthread_t th;

	for (int k = 0; k < 6; k++)
		out[k] = 0;
	if (!scratch) {
		fail("calloc");
		return;
	}
	atomic_store(&w->word, 0);
	w->loops = n;
	pin(cpu_a);
	if (pthread_create(&th, NULL, flush_wakee, w)) {
		free(scratch);
		fail("pthread_create");
		return;
	}
	/* the wakee has read its buffers and blocked before the first gap */
	usleep(20000);
	idle_usage(w->cpu_b, nr_idle, u0);
	for (long i = 0; i < n; i++) {
		nanosleep(&gap, NULL);
		atomic_store(&w->word, 1);
		futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
		while (atomic_load(&w->word) != 0)
			sched_yield();
	}
	idle_usage(w->cpu_b, nr_idle, u1);
	pthread_join(th, NULL);
	for (int s = 0; s < nr_idle; s++)
		entries += u1[s] - u0[s];
	out[0] = calib_median_diff(w->l1_cold, w->l1_warm, n, scratch);
	out[1] = calib_median_diff(w->l2_cold, w->l2_warm, n, scratch);
	out[2] = calib_median_diff(w->l1_ref, w->l1_warm, n, scratch);
	out[3] = calib_median_diff(w->l2_ref, w->l2_warm, n, scratch);
	out[4] = nr_idle ? (double)entries / (double)n : -1;
	out[5] = calib_median_diff(w->l2_mem, w->l2_warm, n, scratch);
	free(scratch);
}

/*
 * On the first pair of CPUs, in a guest and on bare metal: what of the
 * wakee's private caches is left after its CPU idled for each gap
 * (struct calib_flush). A halted vCPU whose host pCPU reached a C-state
 * that powers the core's caches down (or ran other host work) comes back
 * with them empty; on bare metal the same after the CPU's own deep state.
 */
static void measure_flush(struct calib_result *res)
{
	struct calib_flush *fl = &res->flush;
	const struct calib_pair *p = calib_first_pair(res);
	int n = run->trials < MAX_TRIALS ? run->trials : MAX_TRIALS;
	long wakes = iters(100);
	double v[5][CALIB_NR_FLUSH_GAPS][MAX_TRIALS], thr[MAX_TRIALS],
		l1r[MAX_TRIALS * CALIB_NR_FLUSH_GAPS], l2r[MAX_TRIALS * CALIB_NR_FLUSH_GAPS],
		l2m[MAX_TRIALS * CALIB_NR_FLUSH_GAPS], med_lost[CALIB_NR_FLUSH_GAPS];
	int nthr = 0, nref = 0;
	struct flush_pp w = { 0 };
	double *per;
	int slack = (int)prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	char name[64];

	if (!p || n < 1)
		return;
	w.cpu_b = p->b;
	w.l1_bytes = cache_size(p->b, 1, 32 * 1024) * 3 / 4;
	w.l2_bytes = cache_size(p->b, 2, 1024 * 1024) / 4;
	w.evict_bytes = w.l2_bytes * 8;
	w.l1 = malloc(w.l1_bytes);
	w.l2 = malloc(w.l2_bytes);
	w.evict = malloc(w.evict_bytes);
	per = calloc((size_t)wakes * 7, sizeof(*per));
	if (!w.l1 || !w.l2 || !w.evict || !per) {
		fail("allocating");
		goto out;
	}
	chase_init(w.l1, w.l1_bytes);
	chase_init(w.l2, w.l2_bytes);
	memset(w.evict, 3, w.evict_bytes);
	w.l1_cold = per;
	w.l2_cold = per + wakes;
	w.l1_warm = per + 2 * wakes;
	w.l2_warm = per + 3 * wakes;
	w.l1_ref = per + 4 * wakes;
	w.l2_ref = per + 5 * wakes;
	w.l2_mem = per + 6 * wakes;
	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	for (int t = 0; t < n; t++) {
		double lost[CALIB_NR_FLUSH_GAPS], one[6];
		double th;

		for (int i = 0; i < CALIB_NR_FLUSH_GAPS; i++) {
			flush_trial(&w, p->a, (long)calib_flush_gap_us[i] * 1000, wakes,
				    res->host.nr_idle, one);
			v[0][i][t] = one[0];
			v[1][i][t] = one[1];
			l1r[nref] = one[2];
			l2m[nref] = one[5];
			l2r[nref++] = one[3];
			v[4][i][t] = one[4];
			lost[i] = one[3] > 0 ? one[1] / one[3] : 0;
			v[2][i][t] = lost[i];
		}
		th = calib_flush_threshold(calib_flush_gap_us, lost, CALIB_NR_FLUSH_GAPS);
		if (th >= 0)
			thr[nthr++] = th;
	}
	prctl(PR_SET_TIMERSLACK, slack > 0 ? slack : 50000, 0, 0, 0);
	for (int i = 0; i < CALIB_NR_FLUSH_GAPS; i++) {
		double h = 0;

		fl->l1_loss[i] = calib_stat_of(v[0][i], n);
		fl->l2_loss[i] = calib_stat_of(v[1][i], n);
		fl->lost[i] = calib_stat_of(v[2][i], n);
		med_lost[i] = fl->lost[i].med;
		for (int t = 0; t < n; t++)
			h += v[4][i][t] / n;
		fl->halts[i] = res->host.nr_idle ? h : -1;
		snprintf(name, sizeof(name), "flush.l2.gap%uus", calib_flush_gap_us[i]);
		measured(name, &fl->l2_loss[i]);
	}
	fl->l1_ref = calib_stat_of(l1r, nref);
	fl->l2_ref = calib_stat_of(l2r, nref);
	fl->l2_mem = calib_stat_of(l2m, nref);
	measured("flush.l2.llc", &fl->l2_ref);
	fl->threshold_ns = calib_flush_threshold(calib_flush_gap_us, med_lost, CALIB_NR_FLUSH_GAPS);
	fl->trial_threshold = calib_stat_of(thr, nthr);
	fl->trials = n;
	fl->cpu = p->b;
	fl->l1_bytes = w.l1_bytes;
	fl->l2_bytes = w.l2_bytes;
	fl->measured = true;
out:
	free(w.l1);
	free(w.l2);
	free(w.evict);
	free(per);
}

/* ---- SMT: per-thread speed with k siblings of one core busy ---- */

struct smt_worker {
	int cpu;
	_Atomic int *go;
	_Atomic int *stop;
	uint64_t count;
};

static void *smt_spin(void *arg)
{
	struct smt_worker *w = arg;
	uint64_t x = 88172645463325252ull, n = 0;

	pin(w->cpu);
	while (!atomic_load(w->go))
		;
	while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
		for (int i = 0; i < 256; i++) {
			/* xorshift: integer work with a dependency chain */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		n++;
	}
	w->count = n + (x == 0);
	return NULL;
}

struct smt_arg {
	const int *cpus;
	int k;
};

/* iterations per thread per ms, k siblings busy */
static double t_smt(void *arg)
{
	struct smt_arg *s = arg;
	struct smt_worker w[CALIB_MAX_SMT];
	pthread_t th[CALIB_MAX_SMT];
	_Atomic int go = 0, stopf = 0;
	struct timespec span = { 0, run->quick ? 20000000 : 100000000 };
	double sum = 0;

	for (int i = 0; i < s->k; i++) {
		w[i] = (struct smt_worker){ .cpu = s->cpus[i], .go = &go, .stop = &stopf };
		if (pthread_create(&th[i], NULL, smt_spin, &w[i])) {
			fail("pthread_create");
			return 0;
		}
	}
	atomic_store(&go, 1);
	nanosleep(&span, NULL);
	atomic_store(&stopf, 1);
	for (int i = 0; i < s->k; i++) {
		pthread_join(th[i], NULL);
		sum += (double)w[i].count;
	}
	return sum / s->k / ((double)span.tv_nsec / 1e6);
}

/* ---- all of them ---- */

static void find_exec(struct calib_result *res)
{
	ssize_t r;

	if (!access("/bin/true", X_OK)) {
		snprintf(exec_path, sizeof(exec_path), "/bin/true");
	} else {
		r = readlink("/proc/self/exe", exec_path, sizeof(exec_path) - 1);
		exec_path[r > 0 ? r : 0] = '\0';
	}
	res->exec_what = exec_path;
}

static void measure_pairs(struct calib_result *res, const struct topology *t)
{
	char name[64];

	for (int d = 0; d < NR_DIST; d++)
		res->pair[d].a = res->pair[d].b = -1;
	if (!t)
		return;
	/* the first pair at each distance, from CPU 0 */
	for (unsigned int b = 1; b < t->nr_cpus; b++) {
		enum cpu_dist d = topology_cpu_dist(t, 0, b);

		if (res->pair[d].a < 0) {
			res->pair[d].a = 0;
			res->pair[d].b = (int)b;
		}
	}
	for (int d = DIST_SMT; d < NR_DIST; d++) {
		struct calib_pair *p = &res->pair[d];
		struct cas_pp *c;
		struct wake_pp *w;
		pid_t spin;

		if (p->a < 0)
			continue;
		c = aligned_alloc(64, sizeof(*c));
		w = calloc(1, sizeof(*w));
		if (!c || !w) {
			free(c);
			free(w);
			fail("allocating");
			return;
		}
		memset(c, 0, sizeof(*c));
		c->cpu_a = p->a;
		c->cpu_b = p->b;
		snprintf(name, sizeof(name), "cacheline.%s (CPUs %d,%d)", cpu_dist_names[d], p->a,
			 p->b);
		p->line = trials(name, t_cas, c);
		free(c);

		w->cpu_a = p->a;
		w->cpu_b = p->b;
		w->nr_idle = res->host.nr_idle;
		snprintf(name, sizeof(name), "wake.idle.%s", cpu_dist_names[d]);
		p->wake_idle = trials(name, t_wake, w);
		for (int s = 0; s < w->nr_idle; s++)
			res->host.idle_usage[s] = w->usage1[s] - w->usage0[s];
		spin = spinner(p->b);
		snprintf(name, sizeof(name), "wake.busy.%s", cpu_dist_names[d]);
		p->wake_busy = trials(name, t_wake, w);
		stop(spin);
		free(w);
	}
}

const int calib_deep_l2_times[CALIB_NR_DEEP] = { 1, 2, 4, 8 };
const unsigned int calib_gap_us[CALIB_NR_GAPS] = { 20, 50, 100, 300, 1000, 3000 };

/*
 * The host's halt polling under this guest, as -m host made it (@t; its
 * KVM_FEATURE_POLL_CONTROL and cpuidle driver), else KVM's defaults
 */
static void host_halt_poll(const struct topology *t, struct kvm_halt_poll *hp)
{
	struct guest_desc g = { .kvm = true };
	struct cost_model c = { 0 };

	if (t && t->guest.kvm) {
		kvm_halt_poll_of(&t->guest, t->cost.guest_host_poll_ns, hp);
		return;
	}
	guest_default_costs(&c, false);
	kvm_halt_poll_of(&g, c.guest_host_poll_ns, hp);
}

/*
 * In a KVM guest, on the first pair of CPUs: the idle wakeup after each
 * gap (the halted vCPU woken while the host still polls it, or after its
 * thread was scheduled out), and the waker's own FUTEX_WAKE call when the
 * wakee's CPU is busy, which sends the IPI (the ICR write's VM exit).
 * Each gap's trials follow a warm-up run of the same gap (trials()), 400
 * halts that settle the host's adaptive poll window whatever it was: grown
 * to catch short gaps, shrunk to 0 by long ones.
 */
static void measure_guest(struct calib_result *res)
{
	struct calib_guest *g = &res->guest;
	const struct calib_pair *p = calib_first_pair(res);
	struct wake_pp *w;
	struct idle_spinner sp = { 0 };
	pthread_t th;
	char name[64];
	pid_t spin;
	int slack = (int)prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);

	if (!g->kvm || !p)
		return;
	w = calloc(1, sizeof(*w));
	if (!w) {
		fail("allocating");
		return;
	}
	w->cpu_a = p->a;
	w->cpu_b = p->b;
	w->nr_idle = res->host.nr_idle;
	sp.cpu = p->b;
	if (pthread_create(&th, NULL, idle_spin, &sp)) {
		free(w);
		fail("pthread_create");
		return;
	}
	/* the gaps as asked: no 50 us of timer slack on the waker's sleeps */
	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	for (int i = 0; i < CALIB_NR_GAPS; i++) {
		w->gap_ns = (long)calib_gap_us[i] * 1000;
		snprintf(name, sizeof(name), "guest.wake.gap%uus", calib_gap_us[i]);
		g->wake_gap[i] = pair_trials(name, w, &sp);
	}
	prctl(PR_SET_TIMERSLACK, slack > 0 ? slack : 50000, 0, 0, 0);
	atomic_store(&sp.spin, 2);
	futex(&sp.spin, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(th, NULL);
	w->gap_ns = 0;
	w->call = true;
	spin = spinner(p->b);
	g->wake_call_busy = trials("guest.wake.busy.call", t_wake, w);
	stop(spin);
	free(w);
}

/* ---- receiving an IPI while running: membarrier's IPIs to a spinner ---- */

/*
 * A thread of this process pinned to the receiving CPU reads the clock in
 * a loop and keeps each stretch between two reads longer than
 * CALIB_RECV_MIN_GAP_NS (an interrupt it took, whatever the interrupt);
 * the sender on another CPU calls membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED),
 * which IPIs every CPU running a thread of the process (that one alone)
 * and waits for its handler, a full barrier. The stretch the receiver
 * lost inside each call is that IPI's cost to the receiver: the interrupt's
 * entry, the handler and the exit, and in a guest without posted
 * interrupts the host's kick out of the guest and the injection.
 */
#define CALIB_RECV_MIN_GAP_NS 100
#define CALIB_RECV_MAX_GAPS 65536

struct recv_pp {
	int cpu_a, cpu_b;
	_Atomic uint32_t state; /* 0: start, 1: spinning, 2: stop */
	long nr_gaps;
	uint64_t gap_at[CALIB_RECV_MAX_GAPS], gap_len[CALIB_RECV_MAX_GAPS];
};

static void *recv_spin(void *arg)
{
	struct recv_pp *r = arg;
	uint64_t last;

	pin(r->cpu_b);
	r->nr_gaps = 0;
	last = now_ns();
	atomic_store(&r->state, 1);
	while (atomic_load_explicit(&r->state, memory_order_relaxed) == 1) {
		uint64_t t = now_ns();

		if (t - last > CALIB_RECV_MIN_GAP_NS && r->nr_gaps < CALIB_RECV_MAX_GAPS) {
			r->gap_at[r->nr_gaps] = last;
			r->gap_len[r->nr_gaps++] = t - last;
		}
		last = t;
	}
	return NULL;
}

static int membarrier(int cmd)
{
	return (int)syscall(SYS_membarrier, cmd, 0, 0);
}

/*
 * One trial: the median over the calls of the stretch the receiver lost
 * inside each (0 where it lost none longer than the threshold); -1 if the
 * kernel has no expedited membarrier
 */
static double t_ipi_recv(void *arg)
{
	struct recv_pp *r = arg;
	long n = iters(2000), g = 0;
	uint64_t *from = calloc((size_t)(2 * n), sizeof(*from)), *to = from ? from + n : NULL;
	double *lost = calloc((size_t)n, sizeof(*lost)), v;
	pthread_t th;

	if (!from || !lost) {
		free(from);
		free(lost);
		fail("calloc");
		return 0;
	}
	pin(r->cpu_a);
	atomic_store(&r->state, 0);
	if (pthread_create(&th, NULL, recv_spin, r)) {
		free(from);
		free(lost);
		fail("pthread_create");
		return 0;
	}
	while (atomic_load(&r->state) != 1)
		;
	for (long i = 0; i < n; i++) {
		uint64_t until;

		from[i] = now_ns();
		if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
			n = 0;
			break;
		}
		to[i] = now_ns();
		/* the receiver's stretches apart, and its CPU never idle */
		until = to[i] + CALIB_RECV_PAUSE_US * 1000;
		while (now_ns() < until)
			;
	}
	atomic_store(&r->state, 2);
	pthread_join(th, NULL);
	/* each call's stretch: the longest one that began inside the call */
	for (long i = 0; i < n; i++) {
		while (g < r->nr_gaps && r->gap_at[g] < from[i])
			g++;
		for (long k = g; k < r->nr_gaps && r->gap_at[k] < to[i]; k++)
			if ((double)r->gap_len[k] > lost[i])
				lost[i] = (double)r->gap_len[k];
	}
	v = n ? calib_stat_of(lost, (int)n).med : -1;
	free(from);
	free(lost);
	return v;
}

static void measure_ipi_recv(struct calib_result *res)
{
	const struct calib_pair *p = calib_first_pair(res);
	struct recv_pp *r;

	res->ipi_recv.n = 0;
	if (!p || membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
		return;
	r = calloc(1, sizeof(*r));
	if (!r) {
		fail("calloc");
		return;
	}
	r->cpu_a = p->a;
	r->cpu_b = p->b;
	res->ipi_recv = trials("ipi.recv", t_ipi_recv, r);
	free(r);
}

/* ---- the way into idle: a sleeper woken a set delay after it blocked ---- */

struct window_pp {
	int cpu;
	_Atomic uint32_t word; /* the futex: 0 while it sleeps, 1 once woken */
	_Atomic uint32_t go; /* 1: block once more, 2: exit */
	_Atomic uint64_t blocked_at, woke_at;
};

/* spins between rounds (its CPU busy), then blocks in FUTEX_WAIT once per round */
static void *window_sleeper(void *arg)
{
	struct window_pp *w = arg;
	uint32_t g;

	pin(w->cpu);
	while ((g = atomic_load(&w->go)) != 2) {
		if (!g)
			continue;
		atomic_store(&w->go, 0);
		atomic_store(&w->word, 0);
		atomic_store(&w->blocked_at, now_ns());
		while (atomic_load(&w->word) == 0)
			futex(&w->word, FUTEX_WAIT_PRIVATE, 0);
		atomic_store(&w->woke_at, now_ns());
	}
	return NULL;
}

/* spin until @v is non-zero, at most a second: false if it stayed 0 */
static bool window_await(_Atomic uint64_t *v, uint64_t *out)
{
	uint64_t t0 = now_ns();

	while (!(*out = atomic_load(v)))
		if (now_ns() - t0 > 1000000000ull)
			return false;
	return true;
}

/*
 * One round: the sleeper blocks, is woken @delay_ns after its timestamp,
 * and its latency from the FUTEX_WAKE call is returned; then its CPU is
 * kept busy a while (the sleeper spins) before the next round. -1: the
 * sleeper did not run.
 */
static double window_round(struct window_pp *w, uint64_t delay_ns)
{
	uint64_t b, tw, woke, settle;

	atomic_store(&w->blocked_at, 0);
	atomic_store(&w->woke_at, 0);
	atomic_store(&w->go, 1);
	if (!window_await(&w->blocked_at, &b))
		return -1;
	while (now_ns() < b + delay_ns)
		;
	tw = now_ns();
	atomic_store(&w->word, 1);
	futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
	if (!window_await(&w->woke_at, &woke))
		return -1;
	for (settle = now_ns() + 20000; now_ns() < settle;)
		;
	return (double)(woke - tw);
}

/* the sleeper CPU's entries into its non-polling idle states */
static unsigned long long window_halts(const struct calib_host *h, int cpu)
{
	unsigned long long u[CALIB_MAX_IDLE], sum = 0;

	idle_usage(cpu, h->nr_idle, u);
	for (int s = 0; s < h->nr_idle; s++)
		if (strcmp(h->idle_name[s], "POLL") && strcmp(h->idle_name[s], "snooze"))
			sum += u[s];
	return sum;
}

/*
 * calib.h: only in a KVM guest that halts at once, with cpuidle counters
 * to see the halts by (cpuidle-haltpoll with guest_halt_poll_ns 0): a
 * guest that polls first, or bare metal, where the governor picks a
 * polling state for short idles, would show where polling ends, not where
 * the way into idle does
 */
static void measure_window(struct calib_result *res, const struct topology *t)
{
	struct calib_window *cw = &res->window;
	const struct calib_pair *p = calib_first_pair(res);
	double lat[CALIB_WINDOW_WAKES], med[CALIB_NR_WINDOW][MAX_TRIALS], onset[MAX_TRIALS];
	unsigned long long halts[CALIB_NR_WINDOW] = { 0 };
	int n = run->trials < MAX_TRIALS ? run->trials : MAX_TRIALS, crossed = 0;
	struct window_pp *w;
	pthread_t th;

	if (!res->guest.kvm || !p || !t || !res->host.nr_idle ||
	    t->guest.cpuidle != GUEST_IDLE_HALTPOLL || guest_halt_poll_ns(&t->guest))
		return;
	w = calloc(1, sizeof(*w));
	if (!w) {
		fail("allocating");
		return;
	}
	w->cpu = p->b;
	cw->cpu = p->b;
	if (pthread_create(&th, NULL, window_sleeper, w)) {
		free(w);
		fail("pthread_create");
		return;
	}
	pin(p->a);
	for (int k = 0; k < n; k++) {
		double halted[CALIB_NR_WINDOW];

		for (int i = 0; i < CALIB_NR_WINDOW; i++) {
			unsigned long long h0 = window_halts(&res->host, p->b), h1;

			for (int j = 0; j < CALIB_WINDOW_WAKES; j++) {
				lat[j] = window_round(w, calib_window_us[i] * 1000ull);
				if (lat[j] < 0) {
					errno = ETIMEDOUT;
					fail("the idle-window sleeper did not run");
					goto out;
				}
			}
			h1 = window_halts(&res->host, p->b);
			halts[i] += h1 - h0;
			halted[i] = (double)(h1 - h0) / CALIB_WINDOW_WAKES;
			qsort(lat, CALIB_WINDOW_WAKES, sizeof(lat[0]), calib_cmp_double);
			med[i][k] = lat[CALIB_WINDOW_WAKES / 2];
		}
		onset[crossed] = calib_window_onset(halted);
		if (onset[crossed] >= 0)
			crossed++;
	}
	for (int i = 0; i < CALIB_NR_WINDOW; i++) {
		char name[40];

		cw->halted[i] = (double)halts[i] / ((double)n * CALIB_WINDOW_WAKES);
		snprintf(name, sizeof(name), "window.%uus", calib_window_us[i]);
		cw->latency[i] = series(name, med[i], n);
	}
	cw->onset = crossed ? series("window.onset", onset, crossed) : (struct calib_stat){ 0 };
	cw->trials = n;
	cw->crossed = crossed;
	cw->measured = true;
out:
	atomic_store(&w->go, 2);
	atomic_store(&w->word, 1);
	futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
	pthread_join(th, NULL);
	free(w);
}

static void measure_smt(struct calib_result *res, const struct topology *t)
{
	int cpus[CALIB_MAX_SMT], k = 0;
	const struct cpumask *sib;

	res->host.smt = 1;
	if (!t || !t->nr_cpus)
		return;
	sib = topology_sibling_cpumask(t, 0);
	for (unsigned int c = 0; c < t->nr_cpus && k < CALIB_MAX_SMT; c++)
		if (cpumask_test_cpu(c, sib))
			cpus[k++] = (int)c;
	res->host.smt = k;
	if (k < 2)
		return;
	for (int i = 1; i <= k; i++) {
		struct smt_arg a = { cpus, i };
		char name[32];

		snprintf(name, sizeof(name), "smt.%d (per thread)", i);
		res->smt_speed[i - 1] = trials(name, t_smt, &a);
	}
	/* in permille of a lone thread */
	for (int i = k; i >= 1; i--) {
		struct calib_stat *s = &res->smt_speed[i - 1];
		double one = res->smt_speed[0].med;

		s->med = 1000 * s->med / one;
		s->min = 1000 * s->min / one;
		s->max = 1000 * s->max / one;
	}
}

int calib_measure(const struct calib_run *r, struct calib_result *res, char *err, size_t errlen)
{
	static const struct {
		enum calib_meas m;
		const char *name;
		trial_fn fn;
		struct msg msg;
	} msgs[] = {
		{ M_PIPE_MSG_4, "pipe.msg.4", t_msg, { false, 4, 0 } },
		{ M_PIPE_MSG_4096, "pipe.msg.4096", t_msg, { false, 4096, 0 } },
		{ M_PIPE_WRITE_100, "pipe.write.100", t_msg, { false, 100, 1 } },
		{ M_PIPE_READ_100, "pipe.read.100", t_msg, { false, 100, 2 } },
		{ M_UNIX_MSG_4, "unix.msg.4", t_msg, { true, 4, 0 } },
		{ M_UNIX_MSG_4096, "unix.msg.4096", t_msg, { true, 4096, 0 } },
		{ M_UNIX_WRITE_100, "unix.write.100", t_msg, { true, 100, 1 } },
		{ M_UNIX_READ_100, "unix.read.100", t_msg, { true, 100, 2 } },
	};
	struct topology *t;
	char terr[256];
	bool yes = true, no = false;
	cpu_set_t saved;

	run = r;
	host = &res->host;
	fail_buf = err;
	fail_len = errlen;
	failed = false;
	sched_getaffinity(0, sizeof(saved), &saved);
	t = topology_load("host", terr, sizeof(terr));
	find_exec(res);

	res->m[M_SYSCALL] = trials("syscall.getppid", t_getppid, NULL);
	res->m[M_LOCK] = trials("lock.uncontended", t_lock, NULL);
	struct msg var = { false, 1, 1 };
	res->m[M_VARIATION_WRITE] = trials("variation.pipe.write", t_variation, &var);
	var.phase = 2;
	res->m[M_VARIATION_READ] = trials("variation.pipe.read", t_variation, &var);
	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		struct msg m = msgs[i].msg;

		res->m[msgs[i].m] = trials(msgs[i].name, msgs[i].fn, &m);
	}
	res->m[M_UNIX_TRUESIZE_100] = trials("unix.truesize.100", unix_truesize, NULL);
	res->l2_bytes = cache_size(0, 2, 1024 * 1024);
	struct deep deep = { deep_fit(calib_deep_sockets(res->l2_bytes, CALIB_DEEP_L2_TIMES)), 1 };
	res->deep_sockets = deep.sockets;
	res->m[M_UNIX_WRITE_DEEP] = trials("unix.write.deep", t_deep, &deep);
	deep.phase = 2;
	res->m[M_UNIX_READ_DEEP] = trials("unix.read.deep", t_deep, &deep);
	for (int i = 0; i < CALIB_NR_DEEP; i++) {
		int sockets = calib_deep_sockets(res->l2_bytes, calib_deep_l2_times[i]);
		char name[40];

		deep = (struct deep){ deep_fit(sockets), 0 };
		res->deep_curve_sockets[i] = deep.sockets;
		snprintf(name, sizeof(name), "unix.deep.%dx", calib_deep_l2_times[i]);
		res->deep_curve[i] = trials(name, t_deep, &deep);
	}

	struct yield_pp y = { .threads = true, .cpu = 0 };
	res->m[M_YIELD_THREADS] = trials("yield.threads", t_yield, &y);
	/*
	 * This process has created a thread now, and glibc's read() and write()
	 * go through their cancellation points from here on (and in children
	 * it forks): pipe.msg.4 again gives their cost (cancel_point). Every
	 * message measurement above ran single-threaded.
	 */
	struct msg m4 = { false, 4, 0 };
	res->m[M_PIPE_MSG_4_MT] = trials("pipe.msg.4.threaded", t_msg, &m4);
	res->m[M_PIPE_MSG_4_LIVE] = trials("pipe.msg.4.live", t_msg_live, &m4);
	y.threads = false;
	res->m[M_YIELD_PROCS] = trials("yield.processes", t_yield, &y);
	pingpong_rounds(res);
	struct pingpong pp = { .threads = true };
	res->m[M_PIPE_RT_OTHER] = trials("pipe.rt.threads.other", t_pipe_rt, &pp);
	res->m[M_PIPE_RT_OTHER_PREEMPT] = preempt_share(&pp);
	ring_rounds(res);
	res->timer_hz_assumed = !t || !t->hz_from_kernel;
	timer_rounds(res, t ? t->hz : CALIB_DEFAULT_HZ);

	res->m[M_FUTEX_WAKE_NONE] = trials("futex.wake.nowaiter", t_futex_wake_none, NULL);
	res->m[M_FUTEX_WAIT_EAGAIN] = trials("futex.wait.eagain", t_futex_wait_eagain, NULL);
	struct futex_pp fp = { 0 };
	res->m[M_FUTEX_RT] = trials("futex.rt", t_futex_rt, &fp);

	res->m[M_FORK_CALL] = trials("fork.call", t_fork_call, NULL);
	res->m[M_FORK_EXIT_WAIT] = trials("fork.exit.wait", t_fork_exit_wait, NULL);
	res->probe_pages = resident_anon_pages();
	{
		static struct exit_image base, img;

		/* the base first: its children must not inherit the image */
		res->m[M_EXIT_WAIT_BASE] = trials("exit.wait.base", t_exit_wait, &base);
		img.img = image_map();
		if (img.img) {
			res->m[M_EXIT_WAIT_IMAGE] = trials("exit.wait.image", t_exit_wait, &img);
			res->m[M_FORK_CALL_IMAGE] = calib_stat_of(img.fork_ns + 1, img.nr_fork - 1);
			res->m[M_COW_FAULT] = trials("cow.fault", t_cow_fault, &img);
			munmap(img.img, (size_t)CALIB_IMAGE_PAGES * 4096);
		}
	}
	res->m[M_EXEC] = trials("fork.exec.wait", t_exec, NULL);
	res->m[M_THREAD_CREATE] = trials("thread.create", t_thread, &yes);
	res->m[M_THREAD_CREATE_JOIN] = trials("thread.create.join", t_thread, &no);

	measure_pairs(res, t);
	res->guest.kvm = host_is_kvm_guest();
	host_halt_poll(t, &res->guest.hp);
	measure_guest(res);
	measure_ipi_recv(res);
	measure_window(res, t);
	measure_flush(res);
	measure_smt(res, t);
	if (t)
		topology_free(t);
	sched_setaffinity(0, sizeof(saved), &saved);
	return failed ? -1 : 0;
}
