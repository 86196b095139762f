/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stress-ng (0.22.00) as the models in src/work/stress_*.c run it: one or
 * more stressors, each with N instances the main process forks in order;
 * each instance runs its stressor's loop (forking helpers of its own for
 * some) until its alarm(--timeout) or its share of the NAME-ops budget.
 * bench_stress.c is the main process and what every instance shares;
 * stress_parse.c reads the command line; report/stress_output.c prints
 * what stress-ng prints.
 */
#ifndef SCHEDLAB_WORK_STRESS_H
#define SCHEDLAB_WORK_STRESS_H

#include "work/bench.h"
#include "work/bench_opts.h"

enum stressor_kind {
	STRESS_CPU,
	STRESS_SWITCH,
	STRESS_YIELD,
	STRESS_PIPE,
	STRESS_AFFINITY,
	NR_STRESSOR_KINDS,
};

/* the stressors one command line may name (each at most once, as stress-ng) */
#define STRESS_MAX_STRESSORS NR_STRESSOR_KINDS

/* stress-ng.h: STRESS_PROCS_MAX instances of a stressor, MIN_OPS..MAX_OPS */
#define STRESS_PROCS_MAX 8192u
#define STRESS_MIN_OPS 1u
#define STRESS_MAX_OPS 100000000u

/* stress-ng's DEFAULT_TIMEOUT: without --timeout a stressor runs for a day */
#define STRESS_DEFAULT_TIMEOUT_NS (24ULL * 60 * 60 * NSEC_PER_SEC)
/* core-sched.c stress_set_sched(): SCHED_DEADLINE without --sched-deadline */
#define STRESS_DL_DEFAULT_RUNTIME_NS 90000ULL
#define STRESS_DL_DEFAULT_DEADLINE_NS 100000ULL

/* the policies of --sched and --yield-sched (core-sched.c stress_sched_types[]) */
#define STRESS_SCHED_NONE (-1)

/* getopt codes of stress-ng's options (work/bench_tools.c stress_opts[]) */
enum {
	SO_CPU = 'c',
	SO_CPU_LOAD = 'l',
	SO_TIMEOUT = 't',
	SO_METRICS = 'M',
	SO_HELP = 'h',
	SO_SWITCH = 's',
	SO_YIELD = 'y',
	SO_PIPE = 'p',
	SO_CPU_OPS = BOPT_LONG,
	SO_CPU_LOAD_SLICE,
	SO_CPU_METHOD,
	SO_CPU_OLD_METRICS,
	SO_METRICS_BRIEF,
	SO_SCHED,
	SO_SCHED_PRIO,
	SO_SCHED_PERIOD,
	SO_SCHED_RUNTIME,
	SO_SCHED_DEADLINE,
	SO_SCHED_RECLAIM,
	SO_SWITCH_OPS,
	SO_SWITCH_FREQ,
	SO_SWITCH_METHOD,
	SO_YIELD_OPS,
	SO_YIELD_PROCS,
	SO_YIELD_SCHED,
	SO_PIPE_OPS,
	SO_PIPE_DATA_SIZE,
	SO_PIPE_SIZE,
	SO_PIPE_READERS,
	SO_PIPE_WRITERS,
	SO_PIPE_VMSPLICE,
	SO_AFFINITY,
	SO_AFFINITY_OPS,
	SO_AFFINITY_DELAY,
	SO_AFFINITY_PIN,
	SO_AFFINITY_PROCS,
	SO_AFFINITY_RAND,
	SO_AFFINITY_SLEEP,
	SO_FUTEX,
	SO_FUTEX_OPS,
};

struct stress_instance;

/* one stressor of the command line, its options and, after the run, its row */
struct stressor {
	enum stressor_kind kind;
	unsigned int instances; /* as given: 0 = one per CPU */
	unsigned int nr; /* as run */
	u64 max_ops; /* its NAME-ops, 0: none */
	u64 instance_max_ops; /* each instance's share: ceil(max_ops / nr) */
	/* --cpu */
	unsigned int cpu_load; /* -l, percent */
	int cpu_load_slice; /* <0 ops, 0 random, >0 ms */
	/* --switch */
	u64 switch_freq; /* switches a second, 0: as fast as it goes */
	/* --yield */
	unsigned int yield_procs; /* 0: the default, two per CPU over the instances */
	int yield_sched; /* a SCHED_* policy, or STRESS_SCHED_NONE */
	/* --pipe */
	unsigned int pipe_data_size; /* bytes per write (default a page) */
	unsigned int pipe_size; /* F_SETPIPE_SZ bytes, 0: the default 16 pages */
	unsigned int pipe_readers, pipe_writers;
	/* --affinity */
	unsigned int affinity_procs; /* processes per instance, itself included */
	u64 affinity_delay_ns, affinity_sleep_ns;
	bool affinity_rand;
	/* results: the metrics table's row */
	struct stress_instance *inst;
	u64 bogo_ops;
	u64 utime_ns, stime_ns;
	u64 real_ns; /* the instances' mean run time */
	/* the stressor's own metric (stress_metrics_set()), its harmonic mean over the instances */
	double metric;
};

struct stress_conf {
	struct stressor s[STRESS_MAX_STRESSORS];
	unsigned int nr;
	bool metrics, metrics_brief; /* -M/--metrics, --metrics-brief */
	int sched_policy; /* --sched, or STRESS_SCHED_NONE */
	int sched_prio; /* --sched-prio, -1 when not given */
	/* --sched-period/-runtime/-deadline in ns (stress_set_sched()'s defaults: 0, 10000, 0) */
	u64 sched_period;
	u64 sched_runtime;
	u64 sched_deadline;
	bool sched_reclaim; /* --sched-reclaim (OPT_FLAGS_DEADLINE_GRUB) */
	/* the instances' own info lines (--sched's), in the order they were logged */
	char *log;
	size_t log_len;
	FILE *logf;
};

/* one instance: a process the main process forked, and what it measured */
struct stress_instance {
	struct bench *b;
	struct stressor *s;
	unsigned int idx; /* args->instance */
	struct work_task *wt;
	struct task_struct *task;
	u64 start_ns, finish_ns; /* around its stressor, as stats->start/finish */
	u64 deadline; /* start + timeout: its SIGALRM */
	struct hrtimer alarm; /* the SIGALRM, for stressors that block */
	bool alarmed; /* stress_continue_flag() is false */
	bool sched_done; /* --sched applied */
	bool sched_pending; /* its sched_setattr() result not yet looked at */
	bool started; /* stress_instance_begin() is done */
	u64 counter; /* its bogo ops (args->bogo.count.counter) */
	double metric; /* its stress_metrics_set() value, 0: none */
	/* the processes it forked, for its rusage (RUSAGE_CHILDREN once reaped) */
	struct task_struct **children;
	unsigned int nr_children, children_cap;
	struct prng rnd;
	void *priv; /* the stressor's own state */
	void (*free_priv)(struct stress_instance *in); /* what priv holds, or NULL */
	int phase; /* where the stressor's program is */
};

/* the stressors' names, as stress-ng prints them ("cpu", "switch", ...) */
extern const char *const stressor_names[NR_STRESSOR_KINDS];
/* the stressor's own metric's description (stress_metrics_set()), or NULL */
const char *stress_metric_name(enum stressor_kind kind);

/*
 * An instance program's first steps: the alarm and, with --sched, the
 * policy. True with an operation in @op; call again until false.
 */
bool stress_instance_begin(struct stress_instance *in, struct work_task *wt, struct op_desc *op);
/* stress_continue_flag(): no SIGALRM yet */
bool stress_flag(const struct stress_instance *in);
/* stress_continue(): the flag, and the counter below the instance's budget */
bool stress_continue(const struct stress_instance *in);
/* The instance is done: its finish time, the alarm stopped, OP_EXIT in @op. */
void stress_instance_exit(struct stress_instance *in, struct op_desc *op);
/* A process the instance forks: its program, state and cache footprint, into @op. */
void stress_spawn(struct stress_instance *in, const struct program *prog, void *state,
		  u64 footprint, struct op_desc *op);
/* Record @p as one of the instance's processes (call from its first step). */
void stress_child_started(struct stress_instance *in, struct task_struct *p);
/* A syscall that only enters and leaves the kernel (sched_getaffinity(), EINVAL checks). */
void stress_op_syscall(struct op_desc *op);
/*
 * A pipe made with pipe2(O_DIRECT), packet mode, of @slots buffers, for
 * writes of @packet bytes: each write takes a buffer of its own.
 */
struct channel *stress_packet_pipe(unsigned int slots, unsigned int packet);
/*
 * After a read of a packet smaller than a page: pipe_read() freed a
 * buffer and wakes a writer waiting for one (the byte-counted pipe of
 * work/exec.c wakes writers per page freed). True with that in @op.
 */
bool stress_packet_read_done(struct channel *ch, unsigned int packet, struct op_desc *op);
/* stress_set_sched()'s policy and priority for @policy (STRESS_SCHED_NONE: none) */
struct sched_attr stress_sched_attr(int policy, int prio);
/* the same for --sched deadline, from the --sched-* options */
struct sched_attr stress_sched_dl_attr(const struct stress_conf *c);
/* The --sched info line of an instance, logged in order. */
void stress_log(struct stress_instance *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* each stressor's instance program (work/stress_NAME.c) and its state's size */
extern const struct program stress_cpu_prog;
extern const struct program stress_switch_prog;
extern const struct program stress_yield_prog;
extern const struct program stress_pipe_prog;
extern const struct program stress_affinity_prog;
/* a stressor's instance state, for the instance about to start */
void stress_cpu_init(struct stress_instance *in);
void stress_switch_init(struct stress_instance *in);
void stress_yield_init(struct stress_instance *in);
void stress_pipe_init(struct stress_instance *in);
void stress_affinity_init(struct stress_instance *in);

/* the working set of the instance's task (sim/cache.h) */
u64 stress_cpu_footprint(void);

#endif
