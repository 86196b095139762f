/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * AIM7 as re-aim (OSDL, osdl-aim-7 as in davidlohr/areaim 584705b): the
 * workfiles, the job models and the per user-count results
 * (work/bench_reaim.c, docs/benchmarks.md "reaim").
 */
#ifndef SCHEDLAB_WORK_REAIM_H
#define SCHEDLAB_WORK_REAIM_H

#include "sim/types.h"

#include <stdbool.h>
#include <stddef.h>

/* what a job does, in ops (docs/benchmarks.md, "reaim": the job models) */
enum reaim_job_kind {
	RJ_CPU, /* user (and declared system) work, one OP_RUN */
	RJ_FORK, /* count x: fork a child that exits at once, wait for it */
	RJ_EXEC, /* count x: fork a child that execs `true`, wait for it */
	RJ_SHELL, /* system(): fork sh, which forks and execs one command, waits */
	RJ_PIPE, /* count - 1 write/read pairs on one channel, one task */
	RJ_SHM, /* 100 x: semop -1, copy, semop +1, twice, on the shared semaphore */
	RJ_DISK, /* 1 KB blocks through the page cache; `sync` after each pass */
};

struct reaim_job {
	const char *name;
	enum reaim_job_kind kind;
	u64 user_ns; /* user work at capacity 1024, maximum frequency */
	u64 sys_ns; /* work in the kernel the model runs as OP_RUN (see sys_ns) */
	unsigned int count; /* forks, execs, messages, passes (RJ_DISK) */
	unsigned int flags;
	/*
	 * directory entries created, linked or unlinked in DISKDIR, each under
	 * its i_rwsem (work/reaim_kernel.h): RJ_CPU spreads them over its
	 * work; RJ_DISK creates its files first and unlinks them last
	 */
	unsigned int dir_ops;
};

/* RJ_PIPE: the channel; RJ_DISK: its blocks; RJ_SHELL: the command */
#define RJF_STREAM 0x1 /* an AF_UNIX stream socket pair, else a pipe */
#define RJF_INET 0x2 /* over loopback: REAIM_INET_MSG_NS more per message */
#define RJF_SYNC_WRITE 0x4 /* O_SYNC / O_DIRECT: each block waits for the device */
#define RJF_NO_SYNC 0x8 /* no DO_SYNC() (the bufcache and sync_ tests) */
#define RJF_SLEEP5 0x10 /* aim_2.sh 9: `sleep 5`, else `ls -l` */

/* the registered tests, in osdl-aim-7's registration order */
extern const struct reaim_job reaim_jobs[];
extern const unsigned int reaim_nr_jobs;
const struct reaim_job *reaim_job_find(const char *name);

#define REAIM_MAX_NAME 64
/* -s, -e, -i and the users one loop forks; -j; -r */
#define REAIM_MAX_USERS 100000u
#define REAIM_MAX_JOBS 1000000u
#define REAIM_MAX_REPEAT 1000u
/* a workfile line's weight, and the total of them: driver.c's int total_hits */
#define REAIM_MAX_WEIGHT 1000000u
#define REAIM_MAX_TOTAL_HITS 2147483647u
/* FILESIZE and POOLSIZE: at most this many K or M (2^30 KB, 1 TiB, with M) */
#define REAIM_MAX_SIZE (1024u * 1024)

/* a workfile as driver.c reads it: hits per registered test, sizes in KB */
struct reaim_workfile {
	unsigned int *hits; /* [reaim_nr_jobs], 0: not in the file */
	u64 total_hits; /* every line's weight, repeats included: at most REAIM_MAX_TOTAL_HITS */
	unsigned int nr_lines;
	unsigned int filesize_kb, poolsize_kb; /* 0: not given */
	bool has_filesize, has_poolsize;
};

/*
 * Parse workfile @text (named @name in messages): "# comment", "<weight>
 * <test>", "FILESIZE: <n><K|M>", "POOLSIZE: <n><K|M>". 0, or -1 with
 * "NAME:LINE: what is wrong" in @err. @wf->hits is allocated. Weights are
 * 1..REAIM_MAX_WEIGHT and their total at most REAIM_MAX_TOTAL_HITS. Never
 * exits; time and memory linear in the text.
 */
int reaim_workfile_parse(const char *name, const char *text, struct reaim_workfile *wf, char *err,
			 size_t errlen);
void reaim_workfile_free(struct reaim_workfile *wf);

/* the standard workfiles and reaim.config (data/reaim/), compiled in */
struct reaim_embedded_file {
	const char *name; /* "workfile.compute" */
	const char *text;
};
extern const struct reaim_embedded_file reaim_embedded_files[];
extern const int reaim_nr_embedded_files;
const char *reaim_embedded_file(const char *name);

/*
 * runloop()'s share of @jobs per test: hits / total_hits * jobs, rounded
 * half up, at least 1 when not 0. @load is [reaim_nr_jobs]; returns the sum
 * (procs_per_user).
 */
unsigned int reaim_job_loads(const struct reaim_workfile *wf, unsigned int jobs,
			     unsigned int *load);

/* one user count's row, as runloop() computes it */
struct reaim_row {
	unsigned int forked; /* children reaped */
	double parent_time; /* real_time: times() ticks, in seconds */
	double child_sys, child_user; /* tms_cstime, tms_cutime, seconds */
	double jpm, jpm_child; /* tpm, tpm_per_user */
	double std_dev, std_dev_pct;
	int jti;
};

/*
 * The row from the user count, the jobs each user ran and the children's
 * elapsed times (seconds, as the parent measured them at each wait()).
 */
void reaim_row_compute(struct reaim_row *r, unsigned int users, unsigned int procs_per_user,
		       double real_time, const double *elapsed, unsigned int n);

/* adjust_adaptive_timer(): the next increment */
int reaim_adaptive_incr(double tpm, unsigned int runnum, double a_tn, double a_tn1, int incr,
			int cnt);

struct reaim_conf {
	/* options, after reaim.config and the command line */
	unsigned int start_users, end_users, incr, jobs;
	bool crossover, maxjobs, timer_off, no_sync;
	double xover_threshold; /* jpm/child: 10, -q 60 */
	unsigned int repeat;
	char *workfile; /* as given (-f), or the default */
	struct reaim_workfile wf;
	unsigned int filesize_kb, poolsize_kb;
	/* results: every row printed, in order, and the stop lines */
	struct reaim_row *rows;
	unsigned int nr_rows, cap_rows;
	char **notes; /* "Crossover achieved", ... after row i */
	unsigned int *note_after;
	unsigned int nr_notes;
	double *max_jpm; /* per repeat */
	unsigned int *rows_end; /* per repeat: rows printed up to it */
	unsigned int nr_repeats_done;
};

/*
 * Parse config file @text (named @name in messages) over @c, as
 * read_config_file() does: a key (its first letter counts) and a value per
 * line, '#' comments. Sets start_users, end_users, incr, jobs (each within
 * the command line's range), crossover, filesize_kb and poolsize_kb
 * (at most REAIM_MAX_SIZE K or M). 0, or -1 with "NAME:LINE: what is
 * wrong" in @err. Never exits; time linear in the text.
 */
int reaim_config_parse(struct reaim_conf *c, const char *name, const char *text, char *err,
		       size_t errlen);

#endif
