// SPDX-License-Identifier: GPL-2.0-only
#include "cli/runpool.h"

#include "cli/interrupt.h"
#include "cli/progress.h"
#include "cli/quote.h"
#include "kernel/funclat.h"
#include "report/perf_stat.h"
#include "report/sched_totals.h"
#include "sim/alloc.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* the scheduler rows run_record_fill() adds after the benchmark's metrics */
#define RUN_SCHED_VALUES 7
/*
 * The scheduler's side of the story: descriptive, no verdict. Delay is
 * schedstat's run_delay per time a task was switched in.
 */
static const char *const sched_rows[RUN_SCHED_VALUES] = {
	"sched.nr_switches",	"sched.nr_migrations",	  "sched.ipi_sent",   "sched.ttwu_queued",
	"sched.idle_full_pick", "sched.avg_run_delay_us", "sched.busy_cpu_s",
};
/*
 * The run's energy, on a machine with an energy model under --cpufreq
 * (energy_reported()): the JSON's energy.total_j and energy.mean_mw
 */
#define RUN_ENERGY_VALUES 2
static const char *const energy_rows[RUN_ENERGY_VALUES] = { "energy.total_j", "energy.mean_mw" };
/* every value a run can report has a slot */
_Static_assert(BENCH_MAX_METRICS + RUN_SCHED_VALUES + RUN_ENERGY_VALUES + 2 * NR_FUNCLAT <=
		       RUN_MAX_VALUES,
	       "run_record too small for the metrics, sched rows and funclat means");
/* the longest funclat row name, "funclat.sched_balance_newidle_probed_ns", fits */
_Static_assert(sizeof("funclat.sched_balance_newidle_probed_ns") <= RUN_VALUE_NAME,
	       "funclat row names must fit RUN_VALUE_NAME");
/* a record fits one atomic pipe write, so a child never blocks on it */
_Static_assert(sizeof(struct run_record) <= PIPE_BUF, "run_record must fit PIPE_BUF");

static void add(struct run_record *rec, const char *name, double value,
		enum metric_better better)
{
	struct run_value *v;

	if (rec->nr == RUN_MAX_VALUES)
		return;
	v = &rec->v[rec->nr++];
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->value = value;
	v->better = better;
}

void run_record_fill(struct session *s, bool check, struct run_record *rec)
{
	struct sched_totals t;

	memset(rec, 0, sizeof(*rec));
	rec->finished = session_run(s, check);
	rec->events = machine.nr_events;
	rec->sim_ns = machine.now;
	rec->wall_s = s->wall_s;
	if (!rec->finished) {
		struct session_failure f;

		session_failure(s, &f);
		snprintf(rec->why, sizeof(rec->why), "%s", f.message);
		return;
	}
	{
		struct perf_stat_run pr;

		/* for a study's 'runner perf-stat' */
		rec->has_elapsed = perf_stat_collect(&pr);
		rec->elapsed_ns = pr.elapsed_ns;
	}
	for (int i = 0; i < s->bench->nr_metrics; i++)
		add(rec, s->bench->metrics[i].name, s->bench->metrics[i].value,
		    s->bench->metrics[i].better);
	sched_totals_collect(&t);
	{
		const double v[RUN_SCHED_VALUES] = {
			(double)t.nr_switches,
			(double)t.nr_migrations,
			(double)t.ipi_sent,
			(double)t.ttwu_queued,
			(double)t.idle_full_pick,
			t.pcount ? (double)t.run_delay_ns / (double)t.pcount / 1000 : 0,
			(double)t.busy_ns / 1e9,
		};

		for (int i = 0; i < RUN_SCHED_VALUES; i++)
			add(rec, sched_rows[i], v[i], METRIC_INFO);
	}
	if (energy_reported()) {
		struct energy_totals e;

		energy_totals_collect(&e);
		add(rec, energy_rows[0], energy_totals_j(&e), METRIC_LOWER);
		add(rec, energy_rows[1], energy_totals_mean_mw(&e), METRIC_LOWER);
	}
	/* --funclatency: the mean simulated time per call, lower is better */
	for (int f = 0; f < NR_FUNCLAT; f++) {
		char name[RUN_VALUE_NAME];

		if (!funclat[f].enabled)
			continue;
		snprintf(name, sizeof(name), "funclat.%s_avg_ns", funclat_names[f]);
		add(rec, name,
		    funclat[f].calls ? (double)funclat[f].total_ns / (double)funclat[f].calls : 0,
		    METRIC_LOWER);
		if (!funclat_probe_overhead)
			continue;
		/* --probe-overhead: the mean bcc funclatency would print */
		snprintf(name, sizeof(name), "funclat.%s_probed_ns", funclat_names[f]);
		add(rec, name,
		    funclat[f].calls ? (double)(funclat[f].total_ns + funclat[f].probe_ns) /
					       (double)funclat[f].calls :
				       0,
		    METRIC_LOWER);
	}
}

int run_record_names(const struct session_config *cfg, char (*names)[RUN_VALUE_NAME], int max,
		     char *err, size_t errlen)
{
	struct session s;
	int n = 0;

	if (session_start(&s, cfg, err, errlen))
		return -1;
	for (const char *const *m = bench_metric_names(s.bench); *m && n < max; m++)
		snprintf(names[n++], RUN_VALUE_NAME, "%s", *m);
	for (int i = 0; i < RUN_SCHED_VALUES && n < max; i++)
		snprintf(names[n++], RUN_VALUE_NAME, "%s", sched_rows[i]);
	for (int i = 0; energy_reported() && i < RUN_ENERGY_VALUES && n < max; i++)
		snprintf(names[n++], RUN_VALUE_NAME, "%s", energy_rows[i]);
	for (int f = 0; f < NR_FUNCLAT && n < max; f++) {
		if (!funclat[f].enabled)
			continue;
		snprintf(names[n++], RUN_VALUE_NAME, "funclat.%s_avg_ns", funclat_names[f]);
		if (funclat_probe_overhead && n < max)
			snprintf(names[n++], RUN_VALUE_NAME, "funclat.%s_probed_ns",
				 funclat_names[f]);
	}
	session_end(&s);
	return n;
}

static int run_here(const struct session_config *cfg, bool check, struct run_record *rec,
		    char *err, size_t errlen)
{
	struct session s;

	if (session_start(&s, cfg, err, errlen))
		return -1;
	run_record_fill(&s, check, rec);
	session_end(&s);
	return 0;
}

struct child {
	pid_t pid;
	int fd;
	int idx;
};

/* the child's side: run, write the record, exit without running atexit handlers */
static void child_main(const struct session_config *cfg, bool check, int fd)
{
	struct run_record rec;
	char err[512];
	ssize_t w;

	/* the invariant checker exit()s with EXIT_CHECK_FAILED from in here */
	if (run_here(cfg, check, &rec, err, sizeof(err))) {
		cli_message("%s", err);
		_exit(1);
	}
	w = write(fd, &rec, sizeof(rec));
	_exit(w == (ssize_t)sizeof(rec) ? 0 : 1);
}

int run_pool_exit_status(int status, char *what, size_t len)
{
	if (WIFSIGNALED(status)) {
		snprintf(what, len, "died of signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_CHECK_FAILED) {
		snprintf(what, len, "failed the invariant check (--check)");
		return EXIT_CHECK_FAILED;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		snprintf(what, len, "failed (exit status %d)", WEXITSTATUS(status));
		return 1;
	}
	if (!WIFEXITED(status)) {
		snprintf(what, len, "ended with wait status %#x", (unsigned int)status);
		return 1;
	}
	return 0;
}

/*
 * A child ended with @status: take its record from the pipe. 0, or the
 * command's exit status with what went wrong in @err.
 */
static int reap(struct child *c, int status, struct run_record *recs, char *err, size_t errlen)
{
	ssize_t r;
	int rc;

	do
		r = read(c->fd, &recs[c->idx], sizeof(recs[c->idx]));
	while (r < 0 && errno == EINTR);
	close(c->fd);
	c->pid = 0;
	rc = run_pool_exit_status(status, err, errlen);
	if (!rc && r != (ssize_t)sizeof(recs[c->idx])) {
		snprintf(err, errlen, "sent no record");
		rc = 1;
	}
	return rc;
}

static int start_child(struct child *c, const struct session_config *cfg, int idx, bool check,
		       const sigset_t *child_mask, char *err, size_t errlen)
{
	pid_t parent = getpid();
	int fds[2];
	pid_t pid;

	if (pipe(fds)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		/*
		 * A run dies with the command that started it: a parent killed
		 * with SIGKILL (or by the OOM killer, or Slurm) cannot stop its
		 * runs, and a result nobody waits for is thrown away. The
		 * signal comes when the thread that forked ends, which is the
		 * process: schedlab is single-threaded. The parent may have died
		 * before prctl(), so its pid is checked after it.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(1);
		/* killed, not interrupted: the parent stops the runs and cleans up */
		close(fds[0]);
		interrupt_default();
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, child_mask, NULL);
		child_main(cfg, check, fds[1]);
	}
	close(fds[1]);
	*c = (struct child){ .pid = pid, .fd = fds[0], .idx = idx };
	return 0;
}

static void wake_on_child(int sig)
{
	(void)sig;
}

/*
 * The running children. File scope: a child the checker exit()s holds its
 * copy of the table, which stays reachable (LeakSanitizer).
 */
static struct child *kids;

/* on an interrupt: end the runs under way and reap them, so none is left behind */
static void kill_children(int jobs)
{
	for (int slot = 0; slot < jobs; slot++)
		if (kids[slot].pid)
			kill(kids[slot].pid, SIGKILL);
	for (int slot = 0; slot < jobs; slot++) {
		if (!kids[slot].pid)
			continue;
		while (waitpid(kids[slot].pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(kids[slot].fd);
		kids[slot].pid = 0;
	}
}

int run_pool(const struct session_config *cfgs, int n, int jobs, bool check,
	     struct run_record *recs, int *failed, char *err, size_t errlen)
{
	return run_pool_each(cfgs, n, jobs, check, NULL, NULL, recs, failed, err, errlen);
}

int run_pool_each(const struct session_config *cfgs, int n, int jobs, bool check,
		  run_pool_done_fn done_fn, void *arg, struct run_record *recs, int *failed,
		  char *err, size_t errlen)
{
	struct sigaction sa, old_chld;
	sigset_t block, old_mask;
	int next = 0, running = 0, done = 0, rc = 0;
	bool stop = false;

	*failed = -1;
	/* -j 1 too runs in a child, so a failing run is reported the same way */
	if (jobs < 1)
		jobs = 1;
	progress_runs_start(n);
	kids = xcalloc((size_t)jobs, sizeof(*kids));
	fflush(NULL); /* nothing buffered may be written twice */
	/*
	 * SIGINT, SIGTERM and SIGCHLD are blocked but while sigsuspend() waits:
	 * a signal cannot slip in between checking interrupt_signal and
	 * sleeping. The SIGCHLD handler does nothing; it only wakes the wait.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wake_on_child;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &old_chld);
	for (;;) {
		int status, slot, crc;
		char what[256];
		pid_t pid;

		if (interrupt_signal) {
			kill_children(jobs);
			snprintf(err, errlen, "interrupted");
			*failed = -1;
			rc = 1;
			break;
		}
		/* fill the free slots, unless a failure stops new starts (without @done_fn) */
		for (slot = 0; !stop && next < n && slot < jobs; slot++) {
			if (kids[slot].pid)
				continue;
			if (start_child(&kids[slot], &cfgs[next], next, check, &old_mask, err,
					errlen)) {
				rc = 1;
				stop = true;
			}
			else {
				next++;
				running++;
			}
		}
		if (!running)
			break;
		pid = waitpid(-1, &status, WNOHANG);
		if (!pid) {
			sigsuspend(&old_mask);
			continue;
		}
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			*failed = -1;
			rc = 1;
			break;
		}
		for (slot = 0; slot < jobs; slot++)
			if (kids[slot].pid == pid)
				break;
		if (slot == jobs)
			continue; /* not one of ours */
		running--;
		/* of the runs that fail while others finish, report the first by index */
		crc = reap(&kids[slot], status, recs, what, sizeof(what));
		if (done_fn)
			done_fn(kids[slot].idx, crc, what, &recs[kids[slot].idx], arg);
		if (crc && (!rc || (*failed >= 0 && kids[slot].idx < *failed))) {
			rc = crc;
			stop = stop || !done_fn;
			*failed = kids[slot].idx;
			snprintf(err, errlen, "%s", what);
		}
		progress_runs_update(++done);
	}
	sigaction(SIGCHLD, &old_chld, NULL);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	progress_runs_end();
	free(kids);
	kids = NULL;
	return rc;
}

int run_pool_count(const size_t *factors, int nr, size_t *total)
{
	size_t n = 1;

	for (int i = 0; i < nr; i++)
		if (__builtin_mul_overflow(n, factors[i], &n)) {
			*total = SIZE_MAX;
			return -1;
		}
	*total = n;
	return n > RUN_POOL_MAX_RUNS ? -1 : 0;
}

int run_pool_default_jobs(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
}
