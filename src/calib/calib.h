/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schedlab calibrate: microbenchmarks of this machine's kernel paths, each
 * isolating what one cost-model parameter (or one group of them) stands
 * for, and the cost profile written from them. docs/calibration.md.
 */
#ifndef SCHEDLAB_CALIB_CALIB_H
#define SCHEDLAB_CALIB_CALIB_H

#include "sim/halt_poll.h"

#include <stdbool.h>
#include <stdio.h>

/* a measurement over trials: the median kept, the spread recorded */
struct calib_stat {
	double med, min, max;
	int n; /* trials; 0: not measured */
};

/* how long the microbenchmarks run */
struct calib_run {
	bool quick; /* fewer iterations and trials */
	int trials; /* trials per measurement, after one warm-up */
	FILE *log; /* progress, one line per measurement; NULL: none */
};

/* the measurements, by name; each one a microbenchmark in microbench.c */
enum calib_meas {
	M_SYSCALL, /* getppid(): entry + exit */
	M_PIPE_MSG_4, /* write + read of 4 bytes on a pipe, never blocking */
	M_PIPE_MSG_4_MT, /* the same once the process has created a thread (cancel_point) */
	M_PIPE_MSG_4_LIVE, /* the same while another thread lives (fget_shared) */
	M_PIPE_MSG_4096,
	M_PIPE_WRITE_100, /* one 100-byte write in a batch of 16, the timer's cost off */
	M_PIPE_READ_100,
	M_UNIX_MSG_4, /* the same on a unix stream socket pair */
	M_UNIX_MSG_4096,
	M_UNIX_WRITE_100,
	M_UNIX_READ_100,
	M_UNIX_TRUESIZE_100, /* SIOCOUTQ after one 100-byte write: the skb's truesize */
	M_UNIX_WRITE_DEEP, /* one 100-byte write, CALIB_DEEP_L2_TIMES L2s of skbs in flight */
	M_UNIX_READ_DEEP, /* one 100-byte read of those */
	M_YIELD_THREADS, /* sched_yield() between 2 threads on one CPU: ns per switch */
	M_YIELD_PROCS, /* the same with 2 processes */
	M_PIPE_RT_THREADS, /* pipe ping-pong on one CPU, 2 SCHED_BATCH threads: ns per round trip */
	M_PIPE_RT_BATCH_PREEMPT, /* its round trips with the writer preempted, percent (~0) */
	M_PIPE_RT_OTHER, /* the same as SCHED_OTHER: the kernel's wakeup preemption in it */
	M_PIPE_RT_OTHER_PREEMPT, /* its round trips with the writer preempted, percent */
	M_PIPE_RT_PROCS, /* the same, 2 processes */
	M_PIPE_RT_PERF1, /* pipe.rt.threads under 1 inherited per-task perf counter */
	M_PIPE_RT_PERF3, /* under perf stat's 3 software counters (docs/calibration.md) */
	/* the same four measured a trial of each in turn: the pairs' differences */
	M_PIPE_RT_PROCS_DIFF, /* processes - threads */
	M_PIPE_RT_PERF1_DIFF, /* 1 counter - none */
	M_PIPE_RT_PERF3_DIFF, /* 3 counters - 1 */
	M_FUTEX_WAKE_NONE, /* FUTEX_WAKE with no waiter */
	M_FUTEX_WAIT_EAGAIN, /* FUTEX_WAIT on a changed value: returns at once */
	M_FUTEX_RT, /* futex ping-pong on one CPU, 2 threads */
	M_FORK_CALL, /* fork() in the parent, to its return */
	M_FORK_EXIT_WAIT, /* fork + child _exit + waitpid */
	/*
	 * the same with CALIB_IMAGE_PAGES more anonymous pages resident,
	 * written before the fork: fork() and exit + waitpid separately
	 */
	M_FORK_CALL_IMAGE,
	M_EXIT_WAIT_IMAGE,
	M_EXIT_WAIT_BASE, /* exit + waitpid as M_EXIT_WAIT_IMAGE times it, no extra image */
	M_COW_FAULT, /* a forked child's first write to a page its parent wrote: ns per page */
	M_EXEC, /* fork + exec of a no-op program + waitpid */
	M_THREAD_CREATE, /* pthread_create() in the creator, to its return */
	M_THREAD_CREATE_JOIN, /* pthread_create + empty thread + join */
	M_LOCK, /* uncontended user-space spinlock */
	/*
	 * the relative spread of one 1-byte pipe write (of one read), in ppm:
	 * batches' robust Allan deviation scaled to one operation (t_variation())
	 */
	M_VARIATION_WRITE,
	M_VARIATION_READ,
	/*
	 * a token passed round a ring of processes on one CPU through pipes,
	 * all SCHED_BATCH (each hop a write, a wakeup, a blocking read, a
	 * switch): ns per hop with 2 processes, with calib_result.ring_k, and
	 * the pairs' difference (ring_k - 2)
	 */
	M_RING_2,
	M_RING_K,
	M_RING_DIFF,
	NR_CALIB_MEAS,
};

/*
 * Reprogramming the CPU's timer (microbench.c, timer_rounds()): on CPU 0,
 * timerfd_settime() with an expiry CALIB_TIMER_FAR_S out (never the CPU's
 * next event: the hrtimer is queued and nothing else changes) against one
 * at each distance of calib_timer_64ths[] 64ths of a tick out (the CPU's
 * next event whenever the tick is later: the clock event device is
 * programmed again, in a KVM guest a TSC-deadline MSR write that exits),
 * a batch of each in turn per trial. The tick, running while the probe
 * does, comes first on a share d / tick of the calls at distance d; each
 * difference is divided by the rest, 1 - d / tick, to give one
 * reprogramming. The distances span the tick because the tick's restart
 * on the way out of idle programs a deadline anywhere in the next tick,
 * and a host may charge a near deadline more than a far one (on the
 * development VM, a nested guest, 11 us at 20 us out, 0.4 us at 3 ms).
 */
#define CALIB_TIMER_FAR_S 10
/* each batch runs this many ticks, so that its calls meet the tick at every phase */
#define CALIB_TIMER_TICKS 16
/* the tick without a topology to read CONFIG_HZ from: what -m host assumes */
#define CALIB_DEFAULT_HZ 250
#define CALIB_NR_TIMER 6
extern const unsigned int calib_timer_64ths[CALIB_NR_TIMER];

/*
 * The mean over a tick of the reprogramming's cost @c[i] at
 * calib_timer_64ths[i] of a tick: what the tick's restart at a uniformly
 * distributed point of the tick costs (trapezoids between the distances,
 * the first distance's cost down to 0 and the last one's up to the tick)
 */
double calib_timer_mean(const double *c);

/*
 * The way into idle (microbench.c, measure_window()), in a KVM guest whose
 * idle vCPU halts at once (no cpuidle-haltpoll poll: HLT, or haltpoll with
 * guest_halt_poll_ns 0): a sleeper on the first pair's second CPU blocks
 * in FUTEX_WAIT, and the waker on the other wakes it calib_window_us[i]
 * after the sleeper's last timestamp before the call. Wakeups that come
 * while the CPU is still on its way into idle find it not halted (its
 * cpuidle usage does not move); from some delay on it has halted before
 * each. That delay, from which half the wakeups or more found it halted
 * (linear between the delays around it, calib_window_onset()), is the time
 * from a task's block to its CPU's halt.
 */
#define CALIB_NR_WINDOW 14
extern const unsigned int calib_window_us[CALIB_NR_WINDOW];
/* wakeups per delay and trial */
#define CALIB_WINDOW_WAKES 200

/*
 * Where @halted[i], the halts per wakeup at calib_window_us[i], reaches
 * one half for good (at that delay and every later one), in ns, linear
 * between the delays around it; 0 if from the first delay on, -1 if not at
 * the last
 */
double calib_window_onset(const double *halted);

struct calib_window {
	bool measured;
	int cpu; /* the sleeper's */
	double halted[CALIB_NR_WINDOW]; /* halts per wakeup, over all trials */
	struct calib_stat latency[CALIB_NR_WINDOW]; /* per trial the median, over trials */
	struct calib_stat onset; /* calib_window_onset() of each trial, ns */
	int trials, crossed; /* trials, and those whose halts reached one half */
};

struct calib_pair {
	int a, b; /* two CPUs this far apart, -1 if none */
	struct calib_stat line; /* cache-line transfer: CAS ping-pong, rt / 2 */
	struct calib_stat wake_idle; /* wakeup latency to an idle CPU this far */
	struct calib_stat wake_busy; /* to a busy CPU this far */
};

#define CALIB_MAX_SMT 8
/*
 * The ring of M_RING_K: at least 6 processes (so that 3 default
 * footprints beyond the incoming one overflow a 32 KiB L1d with room to
 * spare) and at most 16; x86 keeps 6 address spaces' TLB entries per CPU
 * (TLB_NR_DYN_ASIDS), so a ring of 6 on a 48 KiB L1d refills no TLB
 */
#define CALIB_RING_MIN 6
#define CALIB_RING_MAX 16
#define CALIB_MAX_IDLE 10

/*
 * The deep-queue probe of skb_refill (microbench.c, t_deep()): skbs in
 * flight whose lines (skb_lines(100), as the model counts them) add up to
 * CALIB_DEEP_L2_TIMES times the L2. The model refills all of an skb once
 * its L2's capacity has been touched since (cache_surviving()), from the
 * shared cache: skb_refill. Twice the L2 is past that for the real cache
 * too (a set-associative L2 keeps little of a line after twice its
 * capacity of other lines), and short of where the skbs leave the LLC:
 * on the development VM (2 MiB L2: 9,400 skbs, 7 MB of slab objects) the
 * curve rises into memory from 4 L2s on, where the earlier fixed 16,000
 * skbs sat and moved 35-55% between sessions (docs/calibration.md). The
 * curve at calib_deep_l2_times[] is written beside the parameter.
 */
#define CALIB_DEEP_L2_TIMES 2
#define CALIB_NR_DEEP 4
extern const int calib_deep_l2_times[CALIB_NR_DEEP];
/* skbs queued on each socket; at least 2,000 skbs, and at most 800 descriptors */
#define CALIB_DEEP_PER_SOCKET 200
#define CALIB_DEEP_MIN_SOCKETS 10
#define CALIB_DEEP_MAX_SOCKETS 400

/* the sockets of the deep-queue probe for @l2_times L2s of @l2_bytes */
int calib_deep_sockets(unsigned long l2_bytes, int l2_times);

/*
 * In a KVM guest: idle wakeups with the wakee's vCPU halted for these
 * gaps, from shorter than any host's halt-poll window (KVM's default is
 * 200 us) to well past it (docs/guests.md)
 */
#define CALIB_NR_GAPS 6
extern const unsigned int calib_gap_us[CALIB_NR_GAPS];
/*
 * The gap whose wakeups give guest_wakeup: past every architecture's
 * default halt_poll_ns (200 us on x86, 500 us on arm64, riscv, loongarch
 * and mips), so the host's window has shrunk to 0 during the warm-up run
 */
#define CALIB_UNPOLLED_GAP_US 1000

/*
 * One gap's wakeups in interleaved pairs (microbench.c): the wakee's vCPU
 * halted for the gap, then at once the same wakeup with its CPU kept busy,
 * the waker sleeping the gap before each. Per trial, the median of each
 * series and of the pairs' differences; over trials, the median of those
 * with their spread.
 */
struct calib_wake_pairs {
	struct calib_stat idle, busy;
	struct calib_stat diff; /* idle - busy, pair by pair */
	/*
	 * the wakee CPU's cpuidle entries per pair, over the trials: about 1
	 * when it halted before each idle wakeup; well below when other work
	 * kept it running, and the "idle" wakeup was a busy one too; -1: no
	 * cpuidle counters to read
	 */
	double halts;
};

/*
 * The share of the idle wakeups that must have found the wakee's CPU
 * idle (cpuidle entries a pair) for the pairs to measure a halted vCPU's
 * wakeup: short of it, other work ran there and most "idle" wakeups were
 * a running CPU's. A judgement, not a measurement: 9 in 10 leaves the
 * median of the differences to the halted ones.
 */
#define CALIB_MIN_HALTS 0.9
/* membarrier's IPIs to a spinning CPU are sent this far apart (t_ipi_recv()) */
#define CALIB_RECV_PAUSE_US 20

/*
 * The private caches after an idle period (microbench.c, measure_flush()):
 * the wakee walks a buffer of 3/4 of its L1d and one of 1/4 of its L2 (a
 * pointer chase in a random line order: each line's latency), which it
 * walked before it blocked, after the other CPU's waker has slept each
 * gap, the wakee's CPU idle meanwhile; against the same walk at once
 * (warm), after reading twice its L2 of other data (the buffers then come
 * from the LLC: the cache emptied) and, for the L2 buffer, after flushing
 * it to memory, each wake paired.
 * The gaps reach past the development VM's loss (docs/guests.md).
 */
#define CALIB_NR_FLUSH_GAPS 6
extern const unsigned int calib_flush_gap_us[CALIB_NR_FLUSH_GAPS];
/*
 * The share of the L2 buffer's refill that marks a gap's halts as emptying
 * the private cache: half, the median halt then loses more than half of
 * it (a model whose halts flush all or nothing; a judgement, as
 * CALIB_MIN_HALTS)
 */
#define CALIB_FLUSH_LOST 0.5

struct calib_flush {
	bool measured;
	int cpu; /* the wakee's */
	unsigned long l1_bytes, l2_bytes; /* the buffers re-read */
	/* re-read after the gap - warm, pair by pair: per trial the median, over trials */
	struct calib_stat l1_loss[CALIB_NR_FLUSH_GAPS], l2_loss[CALIB_NR_FLUSH_GAPS];
	/* evicted to the LLC - warm: the whole buffer's refill, over all the wakes */
	struct calib_stat l1_ref, l2_ref;
	/* the L2 buffer flushed to memory (clflush; x86 only, else 0) - warm */
	struct calib_stat l2_mem;
	/* l2_loss / l2_ref per trial: the share of the L2 buffer lost */
	struct calib_stat lost[CALIB_NR_FLUSH_GAPS];
	double halts[CALIB_NR_FLUSH_GAPS]; /* cpuidle entries a wake; -1: no counters */
	/*
	 * calib_flush_threshold() of the median shares (-1: never lost),
	 * and over the trials that crossed (n of them) of each trial's
	 */
	double threshold_ns;
	struct calib_stat trial_threshold;
	int trials;
};

/*
 * The idle length beyond which the private cache comes back empty, from
 * the share lost after each gap (@lost[i] after @gap_us[i], ascending): the
 * first gap from which every longer one loses at least CALIB_FLUSH_LOST,
 * interpolated on a log scale from the gap before it (the share crosses
 * there); @gap_us[0] if every gap loses it; -1 if the last does not.
 */
double calib_flush_threshold(const unsigned int *gap_us, const double *lost, int n);

/* what calibrate measures of the hypervisor when it runs in a KVM guest */
struct calib_guest {
	bool kvm; /* CPUID 0x40000000 says KVMKVMKVM */
	/* the host's halt polling as -m host sees it (poll control, KVM's defaults) */
	struct kvm_halt_poll hp;
	/* wakeups to the first pair's second CPU after each gap, idle and busy paired */
	struct calib_wake_pairs wake_gap[CALIB_NR_GAPS];
	/* the waker's FUTEX_WAKE call when the wakee's CPU is busy: it sends the IPI */
	struct calib_stat wake_call_busy;
};

struct calib_host {
	char date[32], cpu[128], kernel[256], virt[192];
	int nr_cpus;
	double load_start, load_end; /* 1-minute load average */
	double load_max; /* its highest, sampled after every measurement */
	int nr_load_samples;
	double steal_pct; /* steal time over the run, % of CPU time */
	bool busy;
	char busy_why[160];
	/* cpuidle of CPU 1 (the wakee's): driver and states, "" / 0 without */
	char idle_driver[32];
	int nr_idle;
	char idle_name[CALIB_MAX_IDLE][24];
	unsigned long idle_exit_us[CALIB_MAX_IDLE];
	unsigned long long idle_usage[CALIB_MAX_IDLE]; /* entries during the idle wakeups */
	int smt; /* hardware threads of CPU 0's core */
};

struct calib_result {
	struct calib_host host;
	struct calib_stat m[NR_CALIB_MEAS];
	struct calib_pair pair[6]; /* by enum cpu_dist (sim/cost.h) */
	struct calib_stat smt_speed[CALIB_MAX_SMT]; /* per-thread speed, k busy, permille */
	struct calib_guest guest;
	struct calib_flush flush; /* in a guest and on bare metal */
	struct calib_window window; /* in a guest that halts without polling */
	/*
	 * the stretch a running CPU (the first pair's second) loses to one
	 * IPI, membarrier's (microbench.c, t_ipi_recv()); n 0: not measured
	 */
	struct calib_stat ipi_recv;
	const char *exec_what; /* the program exec'd */
	/* resident pages of the calibrating process when fork.exit.wait ran (its image) */
	long probe_pages;
	/* the processes of M_RING_K's ring and the L1d it had to overflow, bytes */
	int ring_k;
	unsigned long l1d_bytes;
	/* the L2 the deep-queue probe is sized from, and its sockets */
	unsigned long l2_bytes;
	int deep_sockets;
	/* the probe at calib_deep_l2_times[i] L2s: per message, mean of write and read */
	int deep_curve_sockets[CALIB_NR_DEEP];
	struct calib_stat deep_curve[CALIB_NR_DEEP];
	/* the timer probe: the far calls, and one reprogramming at each distance */
	struct calib_stat timer_far;
	struct calib_stat timer_reprogram[CALIB_NR_TIMER];
	unsigned int timer_hz; /* the CONFIG_HZ the distances were taken in */
	bool timer_hz_assumed; /* not found in the kernel's config (-m host's default) */
};

/* the extra image of the fork.exit.image probes: 16 MiB of anonymous pages */
#define CALIB_IMAGE_PAGES 4096
/* of which a forked child writes this many in the cow.fault probe */
#define CALIB_COW_PAGES 1024

/*
 * The nearest pair of CPUs measured (calib_result.pair[], SMT first): the
 * one the idle-wakeup, flush and guest measurements run on; NULL on one CPU
 */
const struct calib_pair *calib_first_pair(const struct calib_result *res);

/* qsort()'s comparison of doubles, ascending */
int calib_cmp_double(const void *a, const void *b);

/* @n trials' values @v (sorted here): their median, min and max (pair_diff.c) */
struct calib_stat calib_stat_of(double *v, int n);

/* the median of the @n pairs' differences @a[i] - @b[i]; @scratch holds @n */
double calib_median_diff(const double *a, const double *b, long n, double *scratch);

/*
 * Whether a cost taken as the pairs' difference @diff (over trials) less
 * @extra (what the model charges beside it) is resolved: every trial's
 * difference less @extra above 0. If not, the spread covers 0 (or lies
 * below it) and the cost is not written (profile.c).
 */
bool calib_cost_resolved(const struct calib_stat *diff, double extra);

/* whether the pairs' idle wakeups were a halted vCPU's (CALIB_MIN_HALTS; unknown: yes) */
bool calib_pairs_halted(const struct calib_wake_pairs *p);

/*
 * One operation's relative standard deviation in ppm, from @n timings (ns)
 * of batches of @batch operations each, read with a clock of @step ns: the
 * Allan deviation of consecutive batches, the largest 1% of differences
 * trimmed (microbench.c). Sorts @b.
 */
double calib_variation_ppm(double *b, long n, int batch, double step);

/* Measure everything; 0, or -1 with a message in @err. */
int calib_measure(const struct calib_run *r, struct calib_result *res, char *err, size_t errlen);

/* The host's description and its load, at the start (@end false) and end of the run. */
void calib_host_sample(struct calib_host *h, bool end);

/* Sample the load average during the run (after each measurement). */
void calib_host_load_sample(struct calib_host *h);

/* Write the cost profile of @res to @out. */
void calib_write_profile(FILE *out, const struct calib_result *res, const struct calib_run *r);

#endif
