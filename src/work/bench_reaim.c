// SPDX-License-Identifier: GPL-2.0-only
/*
 * AIM7 as OSDL's re-aim runs it (osdl-aim-7: driver.c, drv_funcs.c and the
 * test files, as in davidlohr/areaim 584705b), its multiuser mode:
 *
 * For each user count N from -s to -e by -i, runloop() gives every test of
 * the workfile its share of -j jobs (hits / total hits x jobs, rounded half
 * up, at least one), forks N children, each writes a word to a pipe and
 * pause()s; once all N words are read the parent sleeps 1 s, reads times()
 * (rt1) and sends SIGUSR1 to the process group. Each child runs its jobs,
 * picking each at random from the tests with jobs left (a walk of a random
 * length along the list), then exits; the parent wait()s for every child,
 * noting each one's elapsed time, and computes
 *
 *     Jobs per Minute = jobs per user / real time x 60 x N
 *     Jobs/min/Child  = jobs per user / real time x 60
 *     JTI             = (1 - std dev / mean of the children's times) x 100
 *
 * with times() (USER_HZ ticks) as its clock. -x/-q run until jobs/min/child
 * falls to 10/60, -g until the last five rates stop rising, and after nine
 * user counts the adaptive timer changes the increment (unless -t).
 *
 * Each test is a job model: a sequence of task operations whose costs are
 * the named REAIM_* parameters below (docs/benchmarks.md "reaim" gives each
 * estimate and how to measure it on real hardware).
 */
#include "work/bench.h"
#include "work/reaim.h"

#include "work/bench_opts.h"
#include "work/reaim_kernel.h"

#include "sim/alloc.h"
#include "sim/prng.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ */
/* the job models' parameters (estimates for a 2.4 GHz Westmere-EX core) */

/* a cycle count at 2.4 GHz in ns: the estimates below are cycle counts */
#define CYC(c) ((u64)(c)*10 / 24)

/* fork_test's child: fork() returns 0, exit(0) through libc */
#define REAIM_FORK_CHILD_NS 5000ULL
/* execve() of a small dynamic program and its ld.so start: kernel, user */
#define REAIM_EXEC_SYS_NS 200000ULL
#define REAIM_EXEC_USER_NS 50000ULL
/* /bin/sh starting and reading aim_N.sh, beyond the exec */
#define REAIM_SH_USER_NS 300000ULL
#define REAIM_SH_SYS_NS 100000ULL
/* `ls -l` of the scripts directory (stat()s, getpwuid() from /etc/passwd) */
#define REAIM_LS_USER_NS 400000ULL
#define REAIM_LS_SYS_NS 600000ULL
/* sync(2) with nothing dirty: the disk directory on tmpfs */
#define REAIM_SYNC_SYS_NS 20000ULL
/* aim_2.sh with its argument 9 (< 10): `sleep 5` */
#define REAIM_SLEEP5_NS (5 * NSEC_PER_SEC)
/* one 1 KB read() or write() through the page cache */
#define REAIM_DISK_BLOCK_NS 1000ULL
/* an O_SYNC / O_DIRECT 1 KB block's device wait: 0 on tmpfs (HP's runs) */
#define REAIM_DEVICE_NS 0ULL
/* pipe()/socketpair() and the two close()s */
#define REAIM_PIPE_SETUP_NS 5000ULL
/* socket(), bind(), listen(), connect(), accept(), close() on loopback */
#define REAIM_INET_SETUP_NS 60000ULL
/* the TCP/UDP loopback stack per message, beyond the AF_UNIX path modelled */
#define REAIM_INET_MSG_NS 4000ULL
/* shmget(), semget(), shmat(), semctl(SETVAL), shmdt(), two IPC_RMID */
#define REAIM_SHM_SETUP_NS 20000ULL
/* memcpy() of 1 KB in cache */
#define REAIM_COPY_NS_PER_KB 100ULL
/*
 * Directory entries a job creates, links or unlinks in DISKDIR, each under
 * the directory's i_rwsem (work/reaim_kernel.c). creat_clo creates its file
 * once and re-creat()s it 999 times, which v6.18 opens without the
 * directory's lock (lookup_fast_for_open()), then unlinks it. link_test
 * creates a file, links 7 names to it, 9 x 7 times unlinks and links one
 * back, and unlinks the 8 names. A disk test creates its file and unlinks it
 * (the copy tests two).
 */
#define REAIM_CREAT_CLO_DIR_OPS 2
#define REAIM_LINK_TEST_DIR_OPS (1 + 7 + 9 * 7 * 2 + 8)
#define REAIM_DISK_DIR_OPS 2
#define REAIM_DISK_CP_DIR_OPS 4
/* a user's working set besides its task: the jobs' static buffers */
#define REAIM_USER_FOOTPRINT (64 * 1024)

/* times() counts USER_HZ ticks; driver.c's timedelta() makes them ms */
#define REAIM_USER_HZ 100ULL
/* runloop(): sleep(SLEEP) between the children's ready and their start */
#define REAIM_START_SLEEP_NS NSEC_PER_SEC
/* the crossover thresholds of jobs/min/child: -x, and -q */
#define REAIM_XOVER 10.0
#define REAIM_XOVER_QUICK 60.0
/* driver.c's INFINITE for -x -q -g */
#define REAIM_INFINITE 999999999u
#define REAIM_MAX_FILE (1u << 20)

/* read_write_close()'s message sizes, cycled by a per-process counter */
static const unsigned int rw_sizes[] = {
	1,  3,	5,   7,	  16,  32,  64,	  512,	1024, 2048, 4096, 1,  3,
	5,  7,	16,  32,  64,  512, 1024, 2048, 4096, 32,   32,	  32, 32,
	32, 32, 512, 512, 512, 512, 512,  2048, 2048, 2048, 2048,
};

/*
 * The registered tests in registration order (files.h: ram, add, creat_clo,
 * div, pipe_test, mul, num_fcns, int_fcns, disk1, disk_src, fun). CPU
 * estimates are the loop counts of each test times cycles per operation
 * (docs/benchmarks.md lists the arithmetic); user, then system time.
 */
const struct reaim_job reaim_jobs[] = {
	/* 100 x 250 x 8-byte copies of a 100-element array */
	{ "ram_copy", RJ_CPU, CYC(2500000), 0, 0, 0, 0 },
	/* 1.5M loops x 12 dependent double adds, 3 cycles each */
	{ "add_double", RJ_CPU, CYC(54000000), 0, 0, 0, 0 },
	{ "add_float", RJ_CPU, CYC(36000000), 0, 0, 0, 0 }, /* 1M x 12 x 3 */
	{ "add_long", RJ_CPU, CYC(60000000), 0, 0, 0, 0 }, /* 5M x 12 x 1 */
	{ "add_int", RJ_CPU, CYC(60000000), 0, 0, 0, 0 }, /* 5M x 12 x 1 */
	{ "add_short", RJ_CPU, CYC(24000000), 0, 0, 0, 0 }, /* 2M x 12 x 1 */
	/* 1000 creat()+close() pairs, 12000 cycles each in the kernel */
	{ "creat_clo", RJ_CPU, CYC(200000), CYC(12000000), 0, 0, REAIM_CREAT_CLO_DIR_OPS },
	/* 1700 brk() growths and page faults */
	{ "page_test", RJ_CPU, CYC(300000), CYC(8000000), 0, 0, 0 },
	/* 17000 brk() calls, 700 cycles each */
	{ "brk_test", RJ_CPU, CYC(500000), CYC(12000000), 0, 0, 0 },
	/* 1000 setjmp()/longjmp() pairs */
	{ "jmp_test", RJ_CPU, CYC(100000), 0, 0, 0, 0 },
	/* 1000 signals to itself: kill(), delivery, sigreturn */
	{ "signal_test", RJ_CPU, CYC(700000), CYC(3000000), 0, 0, 0 },
	{ "exec_test", RJ_EXEC, 0, 0, 5, 0, 0 },
	{ "fork_test", RJ_FORK, 0, 0, 100, 0, 0 },
	/* 9 x 7 link()+unlink() pairs */
	{ "link_test", RJ_CPU, CYC(100000), CYC(1500000), 0, 0, REAIM_LINK_TEST_DIR_OPS },
	/* 250K loops x 12 divides: divsd 22 cycles, divss 14, idiv 40/26/26 */
	{ "div_double", RJ_CPU, CYC(66000000), 0, 0, 0, 0 },
	{ "div_float", RJ_CPU, CYC(42000000), 0, 0, 0, 0 }, /* 250K x 12 x 14 */
	{ "div_long", RJ_CPU, CYC(36000000), 0, 0, 0, 0 }, /* 75K x 12 x 40 */
	{ "div_int", RJ_CPU, CYC(23400000), 0, 0, 0, 0 }, /* 75K x 12 x 26 */
	{ "div_short", RJ_CPU, CYC(23400000), 0, 0, 0, 0 }, /* 75K x 12 x 26 */
	{ "shared_memory", RJ_SHM, 0, 0, 100, 0, 0 },
	{ "tcp_test", RJ_PIPE, 0, 0, 90, RJF_STREAM | RJF_INET, 0 },
	{ "udp_test", RJ_PIPE, 0, 0, 100, RJF_STREAM | RJF_INET, 0 },
	{ "stream_pipe", RJ_PIPE, 0, 0, 100, RJF_STREAM, 0 },
	{ "dgram_pipe", RJ_PIPE, 0, 0, 100, RJF_STREAM, 0 },
	{ "pipe_cpy", RJ_PIPE, 0, 0, 100, 0, 0 },
	{ "fifo_test", RJ_PIPE, 0, 0, 100, 0, 0 },
	/* multiplies: mulsd 5 cycles, mulss 4, imul 3 */
	{ "mul_double", RJ_CPU, CYC(60000000), 0, 0, 0, 0 }, /* 1M x 12 x 5 */
	{ "mul_float", RJ_CPU, CYC(48000000), 0, 0, 0, 0 }, /* 1M x 12 x 4 */
	{ "mul_long", RJ_CPU, CYC(720000), 0, 0, 0, 0 }, /* 20K x 12 x 3 */
	{ "mul_int", RJ_CPU, CYC(720000), 0, 0, 0, 0 }, /* 20K x 12 x 3 */
	{ "mul_short", RJ_CPU, CYC(900000), 0, 0, 0, 0 }, /* 25K x 12 x 3 */
	/* 100 x 10 libm calls (log, exp, sqrt, ...) at ~120 cycles */
	{ "num_rtns_1", RJ_CPU, CYC(1200000), 0, 0, 0, 0 },
	/* 200 zeros x up to 100 iterations x ~30 cycles */
	{ "new_raph", RJ_CPU, CYC(600000), 0, 0, 0, 0 },
	/* 10000 trig calls at ~80 cycles */
	{ "trig_rtns", RJ_CPU, CYC(800000), 0, 0, 0, 0 },
	/* 100 x 1000 4x4 point transforms at ~30 cycles */
	{ "matrix_rtns", RJ_CPU, CYC(3000000), 0, 0, 0, 0 },
	/* 20 Gaussian eliminations of 100 x 101: 333K multiply-adds x 2 cycles */
	{ "array_rtns", RJ_CPU, CYC(13300000), 0, 0, 0, 0 },
	/* 100 x 100 string operations at ~200 cycles */
	{ "string_rtns", RJ_CPU, CYC(2000000), 0, 0, 0, 0 },
	/* 30000 malloc()/free() at ~100 cycles */
	{ "mem_rtns_1", RJ_CPU, CYC(3000000), 0, 0, 0, 0 },
	/* 100 x 5 block operations on 8 KB at 8 bytes a cycle */
	{ "mem_rtns_2", RJ_CPU, CYC(500000), 0, 0, 0, 0 },
	/* 2 qsort()s of 10000 sorted ints and bsearch()es: 133K compares x 20 */
	{ "sort_rtns_1", RJ_CPU, CYC(5400000), 0, 0, 0, 0 },
	/* 10 x getpid, times, uname, getpwnam (reads /etc/passwd) ... */
	{ "misc_rtns_1", RJ_CPU, CYC(700000), CYC(1700000), 0, 0, 0 },
	/* 10000 opendir/readdir/rewinddir operations, 700 cycles each */
	{ "dir_rtns_1", RJ_CPU, CYC(1000000), CYC(7000000), 0, 0, 0 },
	{ "shell_rtns_1", RJ_SHELL, 0, 0, 1, 0, 0 },
	{ "shell_rtns_2", RJ_SHELL, 0, 0, 1, RJF_SLEEP5, 0 },
	{ "shell_rtns_3", RJ_SHELL, 0, 0, 1, 0, 0 },
	/* 100 series of ~1000 terms at 10 cycles */
	{ "series_1", RJ_CPU, CYC(1000000), 0, 0, 0, 0 },
	/* 5 sieves to 1M: ~3.5M marks x 2 cycles */
	{ "sieve", RJ_CPU, CYC(35000000), 0, 0, 0, 0 },
	/* disk1.c: passes of FILESIZE + POOLSIZE/N 1 KB blocks, DO_SYNC() after each */
	{ "disk_rr", RJ_DISK, 0, 0, 2, 0, REAIM_DISK_DIR_OPS },
	{ "disk_rw", RJ_DISK, 0, 0, 2, 0, REAIM_DISK_DIR_OPS },
	{ "disk_rd", RJ_DISK, 0, 0, 2, 0, REAIM_DISK_DIR_OPS },
	{ "disk_wrt", RJ_DISK, 0, 0, 1, 0, REAIM_DISK_DIR_OPS },
	{ "disk_cp", RJ_DISK, 0, 0, 3, 0, REAIM_DISK_CP_DIR_OPS },
	{ "sync_disk_rw", RJ_DISK, 0, 0, 2, RJF_SYNC_WRITE | RJF_NO_SYNC, REAIM_DISK_DIR_OPS },
	{ "sync_disk_wrt", RJ_DISK, 0, 0, 1, RJF_SYNC_WRITE | RJF_NO_SYNC, REAIM_DISK_DIR_OPS },
	{ "sync_disk_cp", RJ_DISK, 0, 0, 3, RJF_SYNC_WRITE | RJF_NO_SYNC, REAIM_DISK_CP_DIR_OPS },
	{ "sync_disk_update", RJ_DISK, 0, 0, 2, RJF_SYNC_WRITE | RJF_NO_SYNC, REAIM_DISK_DIR_OPS },
	{ "disk_dio_rr", RJ_DISK, 0, 0, 2, RJF_SYNC_WRITE, REAIM_DISK_DIR_OPS },
	{ "disk_dio_rw", RJ_DISK, 0, 0, 2, RJF_SYNC_WRITE, REAIM_DISK_DIR_OPS },
	{ "disk_dio_rd", RJ_DISK, 0, 0, 2, RJF_SYNC_WRITE, REAIM_DISK_DIR_OPS },
	{ "disk_dio_wrt", RJ_DISK, 0, 0, 1, RJF_SYNC_WRITE, REAIM_DISK_DIR_OPS },
	{ "disk_dio_cp", RJ_DISK, 0, 0, 3, RJF_SYNC_WRITE, REAIM_DISK_CP_DIR_OPS },
	{ "disk_brr", RJ_DISK, 0, 0, 2, RJF_NO_SYNC, REAIM_DISK_DIR_OPS },
	{ "disk_brw", RJ_DISK, 0, 0, 2, RJF_NO_SYNC, REAIM_DISK_DIR_OPS },
	{ "disk_brd", RJ_DISK, 0, 0, 2, RJF_NO_SYNC, REAIM_DISK_DIR_OPS },
	{ "disk_bwrt", RJ_DISK, 0, 0, 1, RJF_NO_SYNC, REAIM_DISK_DIR_OPS },
	{ "disk_bcp", RJ_DISK, 0, 0, 3, RJF_NO_SYNC, REAIM_DISK_DIR_OPS },
	{ "disk_aio_rr", RJ_DISK, 0, 0, 2, 0, REAIM_DISK_DIR_OPS },
	{ "disk_aio_rw", RJ_DISK, 0, 0, 2, 0, REAIM_DISK_DIR_OPS },
	{ "disk_aiodio_rr", RJ_DISK, 0, 0, 2, RJF_SYNC_WRITE, REAIM_DISK_DIR_OPS },
	{ "disk_aiodio_rw", RJ_DISK, 0, 0, 2, RJF_SYNC_WRITE, REAIM_DISK_DIR_OPS },
	/* 75 searches of the fakeh tree's 100 files (fork of no one: in-kernel) */
	{ "disk_src", RJ_CPU, CYC(2000000), CYC(6000000), 0, 0, 0 },
	/* 512000 calls at ~5 cycles */
	{ "fun_cal", RJ_CPU, CYC(2560000), 0, 0, 0, 0 },
	{ "fun_cal1", RJ_CPU, CYC(2560000), 0, 0, 0, 0 },
	{ "fun_cal2", RJ_CPU, CYC(3072000), 0, 0, 0, 0 },
	{ "fun_cal15", RJ_CPU, CYC(10240000), 0, 0, 0, 0 },
};

const unsigned int reaim_nr_jobs = sizeof(reaim_jobs) / sizeof(reaim_jobs[0]);

const struct reaim_job *reaim_job_find(const char *name)
{
	for (unsigned int i = 0; i < reaim_nr_jobs; i++)
		if (!strcmp(reaim_jobs[i].name, name))
			return &reaim_jobs[i];
	return NULL;
}

const char *reaim_embedded_file(const char *name)
{
	for (int i = 0; i < reaim_nr_embedded_files; i++)
		if (!strcmp(reaim_embedded_files[i].name, name))
			return reaim_embedded_files[i].text;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* workfiles                                                           */

static const char usage_line[] =
	"reaim [-s|--startusers N] [-e|--endusers N] [-i|--increment N] [-j|--jobs N] "
	"[-f|--file WORKFILE] [-c|--config FILE] [-x|--crossover] [-q|--quick] "
	"[-g|--guesspeak] [-t|--timeroff] [-r|--repeat N] [-y|--nosync] [-m|--multiuser] "
	"[-l|--logprefix P] [-d[N]|--debug[=N]] [-p|--period N]";

/* "10k", "1M": KB, as driver.c's "%d%c" with K/k or M/m */
static int parse_size(const char *s, unsigned int *kb)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (end == s || errno || s[0] == '-' || v > REAIM_MAX_SIZE)
		return -1;
	if ((*end == 'k' || *end == 'K') && !end[1])
		*kb = (unsigned int)v;
	else if ((*end == 'm' || *end == 'M') && !end[1])
		*kb = (unsigned int)(v * 1024);
	else
		return -1;
	return 0;
}

static void quote_name(char *out, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s && o + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, len - o, c == '\\' ? "\\\\" : "\\x%02x", c);
	}
	out[o] = '\0';
}

int reaim_workfile_parse(const char *name, const char *text, struct reaim_workfile *wf, char *err,
			 size_t errlen)
{
	const char *p = text;
	unsigned int line = 0;
	char qn[200];

	quote_name(qn, sizeof(qn), name);
	memset(wf, 0, sizeof(*wf));
	wf->hits = xcalloc(reaim_nr_jobs, sizeof(*wf->hits));
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char buf[256], a[128], b[128], q[300];
		int n;

		line++;
		if (len >= sizeof(buf)) {
			snprintf(err, errlen, "reaim: %s:%u: line too long", qn, line);
			goto fail;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (eol ? 1 : 0);
		if (buf[0] == '#')
			continue;
		n = sscanf(buf, "%127s %127s", a, b);
		if (n <= 0)
			continue; /* a blank line */
		quote_name(q, sizeof(q), buf);
		if (n != 2) {
			snprintf(
				err, errlen,
				"reaim: %s:%u: '%s' is neither '<weight> <test>' nor 'FILESIZE: <n><K|M>' / 'POOLSIZE: <n><K|M>'",
				qn, line, q);
			goto fail;
		}
		if (a[0] == 'F' || a[0] == 'f' || a[0] == 'P' || a[0] == 'p') {
			unsigned int kb;

			if (parse_size(b, &kb)) {
				snprintf(
					err, errlen,
					"reaim: %s:%u: bad size in '%s' (FILESIZE: <integer><KkMm>, at most %u)",
					qn, line, q, REAIM_MAX_SIZE);
				goto fail;
			}
			if (a[0] == 'F' || a[0] == 'f') {
				wf->filesize_kb = kb;
				wf->has_filesize = true;
			} else {
				wf->poolsize_kb = kb;
				wf->has_poolsize = true;
			}
			continue;
		}
		{
			char *end;
			unsigned long w;
			const struct reaim_job *j;

			errno = 0;
			w = strtoul(a, &end, 10);
			if (*end || errno || a[0] == '-' || a[0] == '+' || w < 1 ||
			    w > REAIM_MAX_WEIGHT) {
				snprintf(
					err, errlen,
					"reaim: %s:%u: bad weight '%s' in '%s' (an integer in 1..%u)",
					qn, line, a, q, REAIM_MAX_WEIGHT);
				goto fail;
			}
			j = reaim_job_find(b);
			if (!j) {
				quote_name(q, sizeof(q), b);
				snprintf(err, errlen,
					 "reaim: %s:%u: Test '%s' has not been registered.", qn,
					 line, q);
				goto fail;
			}
			/* check_name(): a repeated test keeps its last weight; the total counts both */
			wf->hits[j - reaim_jobs] = (unsigned int)w;
			wf->total_hits += w;
			wf->nr_lines++;
			/* driver.c's int total_hits would overflow (and the job split divide by 0) */
			if (wf->total_hits > REAIM_MAX_TOTAL_HITS) {
				snprintf(
					err, errlen,
					"reaim: %s:%u: the weights add up to %llu, more than %u (re-aim's int total_hits)",
					qn, line, (unsigned long long)wf->total_hits,
					REAIM_MAX_TOTAL_HITS);
				goto fail;
			}
		}
	}
	if (!wf->nr_lines) {
		snprintf(err, errlen, "reaim: %s: no tests in the workfile", qn);
		goto fail;
	}
	return 0;
fail:
	reaim_workfile_free(wf);
	return -1;
}

void reaim_workfile_free(struct reaim_workfile *wf)
{
	free(wf->hits);
	wf->hits = NULL;
}

unsigned int reaim_job_loads(const struct reaim_workfile *wf, unsigned int jobs, unsigned int *load)
{
	unsigned int total = 0;

	/* each share is at most jobs (+1 rounded up): the sum fits for jobs <= REAIM_MAX_JOBS */
	for (unsigned int i = 0; i < reaim_nr_jobs; i++) {
		double nl = wf->total_hits ? (double)wf->hits[i] / (double)wf->total_hits * jobs : 0;
		unsigned int t = (unsigned int)nl;
		double frac = nl - t;

		if (frac >= 0.5)
			t++;
		else if (frac != 0.0 && t == 0)
			t = 1;
		load[i] = t;
		total += t;
	}
	return total;
}

void reaim_row_compute(struct reaim_row *r, unsigned int users, unsigned int procs_per_user,
		       double real_time, const double *elapsed, unsigned int n)
{
	double sum = 0, sumsq = 0, pps, cov = 0;

	for (unsigned int i = 0; i < n; i++) {
		sum += elapsed[i];
		sumsq += elapsed[i] * elapsed[i];
	}
	pps = (double)procs_per_user / real_time;
	r->forked = n;
	r->parent_time = real_time;
	r->jpm = pps * 60.0 * users;
	r->jpm_child = pps * 60.0;
	r->std_dev = 0;
	r->jti = 0;
	if (n == 1) {
		r->jti = 100;
	} else if (n) {
		double var = (sumsq - sum * sum / n) / n;

		r->std_dev = sqrt(var > 0 ? var : 0);
		cov = sum == 0 ? 0 : r->std_dev / (sum / n);
		/* driver.c: `(int) cov > 1.0 ? 0.0 : (1 - cov) * 100.0` into an int */
		r->jti = (int)cov > 1.0 ? 0 : (int)((1 - cov) * 100.0);
	}
	r->std_dev_pct = cov * 100.0;
}

int reaim_adaptive_incr(double tpm, unsigned int runnum, double a_tn, double a_tn1, int incr,
			int cnt)
{
	double tmp2 = incr, a_tn_avg, tmp;

	if (cnt <= 8)
		return incr;
	if ((tpm - runnum) / runnum <= 0.10) {
		tmp2 = (tpm - runnum) / 2.0;
		if (tmp2 < 1.0)
			tmp2 = 1.0;
		return (int)tmp2;
	}
	a_tn_avg = (a_tn + a_tn1) / 2.0;
	if (a_tn_avg == 0.0)
		a_tn_avg = 1.0;
	if (a_tn == 0.0)
		a_tn = 1.0;
	tmp = a_tn1 / a_tn;
	/* suite.h THRESHOLD_MIN 1.20, THRESHOLD_MAX 1.30 */
	if (tmp < 1.20)
		tmp2 *= 2.0 / (a_tn / a_tn_avg);
	else if (tmp > 1.30)
		tmp2 /= 2.0 / (a_tn / a_tn_avg);
	if (tmp2 < 1.0)
		tmp2 = incr;
	/* (int) of a double past INT_MAX is undefined; any step past -e ends the run */
	if (!(tmp2 <= INT_MAX))
		tmp2 = INT_MAX;
	return (int)tmp2;
}

/*
 * A file named on the command line: read as given. A bare name (no '/')
 * of a standard file that does not exist here is the compiled-in copy
 * (reaim run from its data directory); a path with a directory is that
 * file or an error. NULL + message when neither.
 */
static char *load_file(const char *what, const char *path, char *err, size_t errlen)
{
	FILE *f;
	struct stat st;
	char *buf;
	size_t n;
	const char *emb;
	char q[300];

	quote_name(q, sizeof(q), path);
	/* stat first: opening a FIFO for reading would wait for a writer */
	if (stat(path, &st)) {
		emb = strchr(path, '/') ? NULL : reaim_embedded_file(path);
		if (emb && errno == ENOENT)
			return xstrdup(emb);
		snprintf(err, errlen, "reaim: cannot read %s '%s': %s", what, q, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "reaim: %s '%s' is not a regular file of at most %u bytes",
			 what, q, REAIM_MAX_FILE);
		return NULL;
	}
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "reaim: cannot read %s '%s': %s", what, q, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > REAIM_MAX_FILE) {
		snprintf(err, errlen, "reaim: %s '%s' is not a regular file of at most %u bytes",
			 what, q, REAIM_MAX_FILE);
		fclose(f);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	n = fread(buf, 1, (size_t)st.st_size, f);
	fclose(f);
	buf[n] = '\0';
	if (strlen(buf) != n) {
		snprintf(err, errlen, "reaim: %s '%s' holds a NUL byte", what, q);
		free(buf);
		return NULL;
	}
	return buf;
}

/* read_config_file(): keys by their first letter, upper-cased */
int reaim_config_parse(struct reaim_conf *c, const char *name, const char *text, char *err,
		       size_t errlen)
{
	const char *p = text;
	unsigned int line = 0;
	char qn[200];

	quote_name(qn, sizeof(qn), name);
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char buf[256], key[128], val[128], q[300];
		int n, k;
		unsigned long v, hi;
		char *end;

		line++;
		if (len >= sizeof(buf)) {
			snprintf(err, errlen, "reaim: %s:%u: line too long", qn, line);
			return -1;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (eol ? 1 : 0);
		n = sscanf(buf, "%127s %127s", key, val);
		if (n <= 0 || key[0] == '#')
			continue;
		quote_name(q, sizeof(q), buf);
		k = key[0] >= 'a' && key[0] <= 'z' ? key[0] - 'a' + 'A' : key[0];
		if (n != 2 || !strchr("BCDEFIJPSV", k)) {
			snprintf(err, errlen, "reaim: %s:%u: unknown line in config file: '%s'", qn,
				 line, q);
			return -1;
		}
		if (k == 'D')
			continue; /* DISKDIR: where the disk tests write */
		if (k == 'F' || k == 'P') {
			if (parse_size(val, k == 'F' ? &c->filesize_kb : &c->poolsize_kb)) {
				snprintf(err, errlen, "reaim: %s:%u: bad size in '%s'", qn, line,
					 q);
				return -1;
			}
			continue;
		}
		/* the command line's limits: -j up to REAIM_MAX_JOBS, the user counts REAIM_MAX_USERS */
		hi = k == 'J' ? REAIM_MAX_JOBS : REAIM_MAX_USERS;
		errno = 0;
		v = strtoul(val, &end, 10);
		if (*end || errno || val[0] == '-' || val[0] == '+' || v > hi) {
			snprintf(err, errlen, "reaim: %s:%u: bad number in '%s' (an integer in 0..%lu)",
				 qn, line, q, hi);
			return -1;
		}
		switch (k) {
		case 'B':
		case 'V':
			if (v == 1) {
				snprintf(err, errlen,
					 "reaim: %s:%u: '%s': %s output is not modelled", qn, line,
					 q, k == 'B' ? "BRIEF" : "VERBOSE");
				return -1;
			}
			break;
		case 'C':
			c->crossover = v == 1;
			break;
		case 'E':
			c->end_users = (unsigned int)v;
			break;
		case 'I':
			c->incr = (unsigned int)v;
			break;
		case 'J':
			c->jobs = (unsigned int)v;
			break;
		case 'S':
			c->start_users = (unsigned int)v;
			break;
		}
	}
	return 0;
}

static int opt_uint(const char *opt, const char *s, unsigned int hi, unsigned int *out, char *err,
		    size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || s[0] == '+' || v < 1 || v > hi) {
		snprintf(err, errlen, "reaim: %s needs an integer in 1..%u, got '%s'", opt, hi, s);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

int reaim_parse(struct bench *b, int argc, char **argv, char *err, size_t errlen)
{
	struct bench_getopt g;
	struct reaim_conf *c = xcalloc(1, sizeof(*c));
	unsigned int t_minu = 0, t_maxu = 0, t_incr = 0, t_jobs = 0, dummy;
	bool t_xover = false, t_maxjobs = false;
	const char *wfname = NULL, *cfname = NULL;
	char *text;
	int ch;

	b->kind = BENCH_REAIM;
	b->reaim = c;
	/* main()'s defaults */
	c->start_users = 1;
	c->end_users = 5;
	c->incr = 1;
	c->jobs = 100;
	c->repeat = 1;
	c->xover_threshold = REAIM_XOVER;
	bench_getopt_init(&g, reaim_opts, "+");
	while ((ch = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (bench_opt_special("reaim", reaim_opts, ch, argc, argv, err, errlen))
			return -1;
		switch (ch) {
		case 's':
			if (opt_uint("-s", optarg, REAIM_MAX_USERS, &t_minu, err, errlen))
				return -1;
			break;
		case 'e':
			if (opt_uint("-e", optarg, REAIM_MAX_USERS, &t_maxu, err, errlen))
				return -1;
			break;
		case 'i':
			if (opt_uint("-i", optarg, REAIM_MAX_USERS, &t_incr, err, errlen))
				return -1;
			break;
		case 'j':
			if (opt_uint("-j", optarg, REAIM_MAX_JOBS, &t_jobs, err, errlen))
				return -1;
			break;
		case 'r':
			if (opt_uint("-r", optarg, REAIM_MAX_REPEAT, &c->repeat, err, errlen))
				return -1;
			break;
		case 'p':
			/* the single-user mode's period: unused in multiuser runs */
			if (opt_uint("-p", optarg, 86400, &dummy, err, errlen))
				return -1;
			break;
		case 'f':
			wfname = optarg;
			break;
		case 'c':
			cfname = optarg;
			break;
		case 'x':
			t_xover = true;
			t_maxu = REAIM_INFINITE;
			break;
		case 'q':
			c->xover_threshold = REAIM_XOVER_QUICK;
			t_xover = true;
			t_maxu = REAIM_INFINITE;
			break;
		case 'g':
			t_maxjobs = true;
			t_maxu = REAIM_INFINITE;
			break;
		case 't':
			c->timer_off = true;
			break;
		case 'y':
			c->no_sync = true;
			break;
		case 'm': /* multiuser: the default */
		case 'l': /* the log files' prefix: no log files are written */
		case 'd': /* debug output goes to a file */
			break;
		default:
			if (optopt == 'u')
				snprintf(
					err, errlen,
					"reaim: invalid option -- 'u': reaim has no -u; for N users give -s N -e N (usage: %s)",
					usage_line);
			else if (optopt && optopt != '?')
				snprintf(err, errlen,
					 "reaim: bad or incomplete option '-%c' (usage: %s)",
					 optopt, usage_line);
			else
				snprintf(err, errlen, "reaim: unknown option '%s' (usage: %s)",
					 argv[optind - 1], usage_line);
			return -1;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "reaim: bad options: %s (usage: %s)", argv[optind],
			 usage_line);
		return -1;
	}
	/* the config file first, then the command line over it */
	c->filesize_kb = c->poolsize_kb = 0;
	/* without -c or -f: the installed defaults (suite.h), the compiled-in copies */
	text = cfname ? load_file("config file", cfname, err, errlen) :
			xstrdup(reaim_embedded_file("reaim.config"));
	if (!text)
		return -1;
	if (reaim_config_parse(c, cfname ? cfname : "reaim.config", text, err, errlen)) {
		free(text);
		return -1;
	}
	free(text);
	if (t_minu)
		c->start_users = t_minu;
	if (t_maxu)
		c->end_users = t_maxu;
	if (t_xover)
		c->crossover = true;
	if (t_incr)
		c->incr = t_incr;
	if (t_jobs)
		c->jobs = t_jobs;
	if (t_maxjobs)
		c->maxjobs = true;
	if (!c->start_users || !c->incr || !c->jobs || !c->end_users) {
		snprintf(err, errlen, "reaim: users, increment and jobs must be at least 1");
		return -1;
	}
	if (c->start_users > c->end_users) {
		snprintf(err, errlen, "reaim: Cannot run backwards (start users %u > end users %u)",
			 c->start_users, c->end_users);
		return -1;
	}
	if (c->crossover && c->maxjobs) {
		snprintf(err, errlen, "reaim: Cannot run both crossover and maxjobs");
		return -1;
	}
	/* suite.h: WORKFILE */
	c->workfile = xstrdup(wfname ? wfname : "workfile.short");
	text = wfname ? load_file("workfile", c->workfile, err, errlen) :
			xstrdup(reaim_embedded_file(c->workfile));
	if (!text)
		return -1;
	if (reaim_workfile_parse(c->workfile, text, &c->wf, err, errlen)) {
		free(text);
		return -1;
	}
	free(text);
	if (c->wf.has_filesize)
		c->filesize_kb = c->wf.filesize_kb;
	if (c->wf.has_poolsize)
		c->poolsize_kb = c->wf.poolsize_kb;
	if (!c->filesize_kb && !c->poolsize_kb) {
		snprintf(
			err, errlen,
			"reaim: Error in workfile: give the file or pool size (FILESIZE: <integer><KkMm>, POOLSIZE: <integer><KkMm>)");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* the model                                                           */

struct rm_state;

/* a user's child (level 0) and grandchild (level 1): sh and its command */
enum rm_child_kind { RC_FORK_EXIT, RC_EXEC_TRUE, RC_SH, RC_LS, RC_SLEEP5, RC_SYNC };

struct rm_child {
	struct rm_user *u;
	enum rm_child_kind kind, sub; /* sub: what RC_SH runs */
	int step;
	struct rk_proc proc; /* for the kernel locks of its exec, fork and exit */
	struct rk_path kp; /* the kernel path in progress */
};

struct rm_user {
	struct rm_state *s;
	struct prng rnd;
	unsigned int *left; /* jobs left per test (the wlist's hits) */
	unsigned int *list; /* the wlist: tests in order, removed when used up */
	unsigned int nr_list, cur;
	unsigned int done; /* jobs finished */
	int phase; /* 0 ready, 1 pause, 2 jobs, 3 exit */
	/* the job in progress */
	const struct reaim_job *job;
	int step;
	u64 iter;
	u64 end_ns; /* when it exited */
	struct channel *ch;
	unsigned int size_idx; /* read_write_close()'s static count */
	struct futex sem; /* shared_memory's semaphore: SEMKEY is getpid() */
	struct rm_child child[2];
	struct rk_path kp; /* the kernel path in progress */
	unsigned int dir_pre, dir_post; /* RJ_DISK: its files' creations and unlinks */
};

enum { RP_BEGIN, RP_SPAWN, RP_READY, RP_SLEEP, RP_START, RP_WAKE, RP_WAIT, RP_DONE, RP_EXIT };

struct rm_state {
	struct bench *b;
	struct reaim_conf *c;
	int phase;
	unsigned int runnum, spawned, ready, procs_per_user, loop, repeat_no;
	unsigned int *load;
	struct rm_user *users;
	unsigned int nr_users; /* users[]: this loop's runnum */
	u64 disk_kb; /* FILESIZE + POOLSIZE / users: at most 2^31 */
	struct channel *umbilical;
	struct futex start; /* pause() until SIGUSR1 */
	struct futex nobody; /* a semop() that does not sleep: its syscall */
	struct rk_locks kl; /* the kernel locks every process shares */
	struct rk_path kp; /* the driver's kernel path in progress (its forks) */
	u64 held0; /* kl.held_ns at the loop's start */
	bool forking; /* RP_SPAWN: the next user's fork path was run */
	u64 rt1;
	/*
	 * tms_cutime/tms_cstime: the driver's children's times as wait()
	 * added them up (its task's cumul), at the loop's start
	 */
	u64 cutime0, cruntime0;
	u64 decl_sys_ns; /* system time the models ran as user work */
	double *elapsed;
	/* the loop control of multiuser() */
	double jmax, mjobs[5], a_tn, a_tn1;
	int adapt_cnt;
	bool have_max;
};

static u64 ticks(u64 ns)
{
	return ns / (NSEC_PER_SEC / REAIM_USER_HZ);
}

/* timedelta(): times() ticks since @start, as ms, in seconds */
static double tdelta_s(u64 start_ns, u64 now_ns)
{
	return (double)((ticks(now_ns) - ticks(start_ns)) * 1000 / REAIM_USER_HZ) / 1000.0;
}

static void run_op(struct rm_state *s, struct op_desc *op, u64 user, u64 sys)
{
	s->decl_sys_ns += sys;
	op_run(op, user + sys);
}

/*
 * The child's last step before its exit. It once recorded the task for the
 * loop's child times, now read from the driver's cumul; the step stays, as
 * a free call, so that the runs' events (and --json's event count) are
 * those they were.
 */
static void child_exit(struct work_task *w, void *arg)
{
	(void)w;
	(void)arg;
}

static const struct program child_prog;

/* a process of a user's: the reaim binary, forked from the driver's tree */
static const struct rk_proc user_proc = { RKF_REAIM, true };

/* fork(): dup_mmap()'s locks in @kp, the child spawned by the next step */
static void fork_locks(struct rm_state *s, struct rk_path *kp, const struct rk_proc *parent,
		       struct op_desc *op)
{
	rk_path_fork(kp, parent);
	rk_path_next(&s->kl, kp, op);
}

/* execve() of @to by child @c: the old mm's and the new mappings' locks */
static void exec_locks(struct rm_state *s, struct rm_child *c, enum rk_file to, struct op_desc *op)
{
	rk_path_exec(&c->kp, &c->proc, to);
	c->proc = (struct rk_proc){ to, false };
	rk_path_next(&s->kl, &c->kp, op);
}

static void spawn_child(struct op_desc *op, struct rm_child *c, const char *comm,
			const struct rk_proc *parent)
{
	c->step = 0;
	c->proc = *parent;
	*op = (struct op_desc){ .kind = OP_SPAWN };
	op->spawn.prog = &child_prog;
	op->spawn.state = c;
	op->spawn.comm = comm;
	op->spawn.footprint = FOOTPRINT_TASK;
	/* nothing keeps it: freed once it exited, its times in its parent's */
	op->spawn.reap = true;
}

static void child_next(struct work_task *w, struct op_desc *op)
{
	struct rm_child *c = w->state;
	struct rm_state *s = c->u->s;
	int step;

	if (rk_path_next(&s->kl, &c->kp, op))
		return;
	step = c->step++;
	switch (c->kind) {
	case RC_FORK_EXIT:
		if (step == 0) {
			run_op(s, op, REAIM_FORK_CHILD_NS, 0);
			return;
		}
		break;
	case RC_EXEC_TRUE:
		if (step == 0) {
			exec_locks(s, c, RKF_TRUE, op);
			return;
		}
		if (step == 1) {
			run_op(s, op, REAIM_EXEC_USER_NS, REAIM_EXEC_SYS_NS);
			return;
		}
		break;
	case RC_SH:
		if (step == 0) {
			exec_locks(s, c, RKF_SH, op);
			return;
		}
		if (step == 1) {
			run_op(s, op, REAIM_EXEC_USER_NS + REAIM_SH_USER_NS,
			       REAIM_EXEC_SYS_NS + REAIM_SH_SYS_NS);
			return;
		}
		if (step == 2) {
			fork_locks(s, &c->kp, &c->proc, op);
			return;
		}
		if (step == 3) {
			c->u->child[1].kind = c->sub;
			spawn_child(op, &c->u->child[1],
				    c->sub == RC_LS   ? "ls" :
				    c->sub == RC_SYNC ? "sync" :
							"sleep",
				    &c->proc);
			return;
		}
		if (step == 4) {
			op_wait_children(op, WAIT_ANY);
			return;
		}
		break;
	case RC_LS:
	case RC_SYNC:
	case RC_SLEEP5:
		if (step == 0) {
			exec_locks(s, c,
				   c->kind == RC_LS   ? RKF_LS :
				   c->kind == RC_SYNC ? RKF_SYNC :
							RKF_SLEEP,
				   op);
			return;
		}
		if (step == 1) {
			if (c->kind == RC_LS)
				run_op(s, op, REAIM_EXEC_USER_NS + REAIM_LS_USER_NS,
				       REAIM_EXEC_SYS_NS + REAIM_LS_SYS_NS);
			else if (c->kind == RC_SYNC)
				run_op(s, op, REAIM_EXEC_USER_NS,
				       REAIM_EXEC_SYS_NS + REAIM_SYNC_SYS_NS);
			else
				run_op(s, op, REAIM_EXEC_USER_NS, REAIM_EXEC_SYS_NS);
			return;
		}
		if (step == 2 && c->kind == RC_SLEEP5) {
			op_sleep(op, REAIM_SLEEP5_NS);
			return;
		}
		break;
	}
	if (c->step < 100) {
		c->step = 100;
		op_call(op, child_exit, s);
		return;
	}
	if (c->step == 101) {
		/* exit_mmap()'s locks; the next call after them exits */
		rk_path_exit(&c->kp, &c->proc);
		rk_path_next(&s->kl, &c->kp, op);
		return;
	}
	op_simple(op, OP_EXIT);
}

static const struct program child_prog = { .next = child_next };

/* system(cmd): fork sh, which forks the command; wait (SYSTEM_STEPS steps) */
#define SYSTEM_STEPS 3
static bool system_step(struct rm_user *u, struct op_desc *op, int step, enum rm_child_kind cmd)
{
	if (step == 0) {
		fork_locks(u->s, &u->kp, &user_proc, op);
		return true;
	}
	if (step == 1) {
		u->child[0].kind = RC_SH;
		u->child[0].sub = cmd;
		spawn_child(op, &u->child[0], "sh", &user_proc);
		return true;
	}
	if (step == 2) {
		op_wait_children(op, WAIT_ANY);
		return true;
	}
	return false;
}

/* a directory entry created, linked or unlinked in DISKDIR */
static void dir_locks(struct rm_state *s, struct rm_user *u, struct op_desc *op)
{
	rk_path_dir(&u->kp);
	rk_path_next(&s->kl, &u->kp, op);
}

/* one op of the current job; false when it is done */
static bool job_next(struct rm_user *u, struct op_desc *op)
{
	struct rm_state *s = u->s;
	const struct reaim_job *j = u->job;
	int step = u->step++;

	switch (j->kind) {
	case RJ_CPU: {
		/* the work in dir_ops + 1 parts, a directory operation between two */
		unsigned int n = j->dir_ops, part = (unsigned int)step / 2;
		u64 held = n * rk_hold_ns(RKL_DIR, 1, 0);
		u64 sys = j->sys_ns > held ? j->sys_ns - held : 0;

		if ((unsigned int)step > 2 * n)
			return false;
		if (step % 2) {
			dir_locks(s, u, op);
			return true;
		}
		if (part < n)
			run_op(s, op, j->user_ns / (n + 1), sys / (n + 1));
		else
			run_op(s, op, j->user_ns - n * (j->user_ns / (n + 1)),
			       sys - n * (sys / (n + 1)));
		return true;
	}
	case RJ_FORK:
	case RJ_EXEC:
		if (u->iter == j->count)
			return false;
		if (step % 3 == 0) {
			fork_locks(s, &u->kp, &user_proc, op);
		} else if (step % 3 == 1) {
			u->child[0].kind = j->kind == RJ_FORK ? RC_FORK_EXIT : RC_EXEC_TRUE;
			spawn_child(op, &u->child[0], j->kind == RJ_FORK ? "aim_fork" : "true",
				    &user_proc);
		} else {
			op_wait_children(op, WAIT_ANY);
			u->iter++;
		}
		return true;
	case RJ_SHELL:
		return system_step(u, op, step, j->flags & RJF_SLEEP5 ? RC_SLEEP5 : RC_LS);
	case RJ_PIPE: {
		unsigned int size =
			rw_sizes[u->size_idx % (sizeof(rw_sizes) / sizeof(rw_sizes[0]))];

		if (step == 0) {
			u->ch = channel_new(j->flags & RJF_STREAM ? CH_UNIX_STREAM : CH_PIPE);
			u->iter = 1;
			run_op(s, op, 0,
			       j->flags & RJF_INET ?
				       REAIM_INET_SETUP_NS + (u64)j->count * REAIM_INET_MSG_NS :
				       REAIM_PIPE_SETUP_NS);
			return true;
		}
		/*
		 * while (--loops > 0): writen(size), then readn(size); a write
		 * of up to a page is one pipe buffer or one skb, so one read
		 * takes it all back
		 */
		if (step % 2 == 1) {
			if (u->iter >= j->count) {
				/* close() of both ends: the channel goes */
				channel_destroy(u->ch);
				u->ch = NULL;
				return false;
			}
			op_rw(op, OP_WRITE, u->ch, size);
			return true;
		}
		op_rw(op, OP_READ, u->ch, size);
		u->size_idx++;
		u->iter++;
		return true;
	}
	case RJ_SHM: {
		/* per iteration: P copy V P copy V (six steps) */
		unsigned int size, k;

		if (step == 0) {
			u->iter = 0;
			run_op(s, op, 0, REAIM_SHM_SETUP_NS);
			return true;
		}
		if (u->iter == j->count * 6)
			return false;
		k = u->iter % 6;
		size = rw_sizes[u->size_idx % (sizeof(rw_sizes) / sizeof(rw_sizes[0]))];
		if (k == 0 || k == 3) {
			/* semop(-1): take it, or sleep until a +1 and try again */
			if (u->sem.val) {
				u->sem.val--;
				u->iter++;
				op_futex(op, OP_FUTEX_WAKE, &s->nobody, 1);
			} else {
				op_futex(op, OP_FUTEX_WAIT, &u->sem, 0);
			}
			return true;
		}
		if (k == 1 || k == 4) {
			u->iter++;
			op_run(op, (u64)size * REAIM_COPY_NS_PER_KB / 1024);
			return true;
		}
		/* semop(+1) */
		u->sem.val++;
		u->iter++;
		if (k == 5)
			u->size_idx++;
		op_futex(op, OP_FUTEX_WAKE, &u->sem, 1);
		return true;
	}
	case RJ_DISK: {
		/* per pass: the blocks (each with its device wait), then DO_SYNC() */
		bool sync = !(j->flags & RJF_NO_SYNC) && !s->c->no_sync;
		bool dev = (j->flags & RJF_SYNC_WRITE) && REAIM_DEVICE_NS;
		u64 per_pass = (dev ? 2 * s->disk_kb : 1) + (sync ? SYSTEM_STEPS : 0);
		u64 pass, k;

		if (step == 0)
			u->iter = 0;
		pass = u->iter / per_pass;
		k = u->iter % per_pass;
		if (pass == j->count)
			return false;
		u->iter++;
		if (!dev && k == 0) {
			run_op(s, op, 0, s->disk_kb * REAIM_DISK_BLOCK_NS);
			return true;
		}
		if (dev && k < 2 * s->disk_kb) {
			if (k % 2 == 0)
				run_op(s, op, 0, REAIM_DISK_BLOCK_NS);
			else
				op_sleep_exact(op, REAIM_DEVICE_NS);
			return true;
		}
		return system_step(u, op, (int)(k - (dev ? 2 * s->disk_kb : 1)), RC_SYNC);
	}
	}
	return false;
}

/* the walk of runloop()'s child: the next test with jobs left */
static const struct reaim_job *pick_job(struct rm_user *u)
{
	for (;;) {
		unsigned int k = (unsigned int)prng_below(&u->rnd, u->nr_list);
		unsigned int t;

		u->cur = (u->cur + k) % u->nr_list;
		t = u->list[u->cur];
		if (u->left[t]) {
			u->left[t]--;
			return &reaim_jobs[t];
		}
		/* used up: off the list, back to its head */
		memmove(&u->list[u->cur], &u->list[u->cur + 1],
			(u->nr_list - u->cur - 1) * sizeof(*u->list));
		u->nr_list--;
		u->cur = 0;
	}
}

static void user_end(struct work_task *w, void *arg)
{
	struct rm_user *u = arg;

	(void)w;
	u->end_ns = cpu_now();
}

static void user_next(struct work_task *w, struct op_desc *op)
{
	struct rm_user *u = w->state;
	struct rm_state *s = u->s;

	if (rk_path_next(&s->kl, &u->kp, op))
		return;
	for (;;) {
		switch (u->phase) {
		case 0:
			/* tell the parent it is forked and ready */
			u->phase = 1;
			op_rw(op, OP_WRITE, s->umbilical, 4);
			return;
		case 1:
			/* pause() until SIGUSR1 */
			if (!s->start.val) {
				op_futex(op, OP_FUTEX_WAIT, &s->start, 0);
				return;
			}
			u->phase = 2;
			continue;
		case 2:
			if (u->job) {
				/* a disk test's files: created first, unlinked last */
				if (u->dir_pre) {
					u->dir_pre--;
					dir_locks(s, u, op);
					return;
				}
				if (job_next(u, op))
					return;
				if (u->dir_post) {
					u->dir_post--;
					dir_locks(s, u, op);
					return;
				}
				/* used up at the end of a job: off the list too */
				if (!u->left[u->job - reaim_jobs]) {
					memmove(&u->list[u->cur], &u->list[u->cur + 1],
						(u->nr_list - u->cur - 1) * sizeof(*u->list));
					u->nr_list--;
					u->cur = 0;
				}
				u->job = NULL;
				u->done++;
			}
			if (u->done == s->procs_per_user) {
				u->phase = 3;
				op_call(op, user_end, u);
				return;
			}
			u->job = pick_job(u);
			u->step = 0;
			u->iter = 0;
			if (u->job->kind == RJ_DISK) {
				u->dir_pre = u->job->dir_ops / 2;
				u->dir_post = u->job->dir_ops - u->dir_pre;
			}
			continue;
		case 3:
			/* exit_mmap()'s locks */
			u->phase = 4;
			rk_path_exit(&u->kp, &user_proc);
			rk_path_next(&s->kl, &u->kp, op);
			return;
		default:
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program user_prog = { .next = user_next };

static void loop_setup(struct rm_state *s, const struct task_struct *parent)
{
	struct reaim_conf *c = s->c;

	s->procs_per_user = reaim_job_loads(&c->wf, c->jobs, s->load);
	/* disk_iteration_count: FILESIZE + POOLSIZE / users (KB) */
	s->disk_kb = (u64)c->filesize_kb + (c->poolsize_kb ? c->poolsize_kb / s->runnum : 0);
	s->users = xcalloc(s->runnum, sizeof(*s->users));
	s->nr_users = s->runnum;
	for (unsigned int i = 0; i < s->runnum; i++) {
		struct rm_user *u = &s->users[i];

		u->s = s;
		u->child[0].u = u->child[1].u = u;
		futex_init_unhashed(&u->sem, 1);
		u->left = xmalloc(reaim_nr_jobs * sizeof(*u->left));
		u->list = xmalloc(reaim_nr_jobs * sizeof(*u->list));
		memcpy(u->left, s->load, reaim_nr_jobs * sizeof(*u->left));
		for (unsigned int t = 0; t < reaim_nr_jobs; t++)
			u->list[t] = t;
		u->nr_list = reaim_nr_jobs;
		prng_init(&u->rnd, machine.seed,
			  ((u64)PRNG_STREAM_WORKLOAD << 48) | ((u64)s->loop << 24) | i);
	}
	s->umbilical = channel_new(CH_PIPE);
	s->start.val = 0;
	s->cutime0 = parent->cumul.utime;
	s->cruntime0 = parent->cumul.sum_exec_runtime;
	s->decl_sys_ns = 0;
	s->spawned = s->ready = 0;
	s->elapsed = xreallocarray(s->elapsed, s->runnum, sizeof(*s->elapsed));
}

static void loop_free(struct rm_state *s)
{
	for (unsigned int i = 0; s->users && i < s->nr_users; i++) {
		free(s->users[i].left);
		free(s->users[i].list);
	}
	free(s->users);
	s->users = NULL;
}

static void add_note(struct reaim_conf *c, const char *text)
{
	c->notes = xreallocarray(c->notes, c->nr_notes + 1, sizeof(*c->notes));
	c->note_after = xreallocarray(c->note_after, c->nr_notes + 1, sizeof(*c->note_after));
	c->notes[c->nr_notes] = xstrdup(text);
	c->note_after[c->nr_notes] = c->nr_rows;
	c->nr_notes++;
}

/* the row of the loop just finished, then multiuser()'s decision; false: stop */
static bool loop_done(struct rm_state *s, const struct task_struct *parent)
{
	struct reaim_conf *c = s->c;
	struct reaim_row *r;
	/* every user and its children exited and were released into the driver's cumul */
	u64 user = parent->cumul.utime - s->cutime0;
	u64 runtime = parent->cumul.sum_exec_runtime - s->cruntime0, sys, next, decl;
	unsigned int n = 0;
	double real_time = tdelta_s(s->rt1, cpu_now());
	char buf[160];

	n = s->runnum;
	if (c->nr_rows == c->cap_rows) {
		c->cap_rows = c->cap_rows ? 2 * c->cap_rows : 16;
		c->rows = xreallocarray(c->rows, c->cap_rows, sizeof(*c->rows));
	}
	r = &c->rows[c->nr_rows++];
	reaim_row_compute(r, s->runnum, s->procs_per_user, real_time, s->elapsed, n);
	/* what the models ran as user work but the kernel would have charged as system */
	sys = runtime - min(user, runtime);
	decl = s->decl_sys_ns + (s->kl.held_ns - s->held0);
	if (user >= decl) {
		user -= decl;
		sys += decl;
	}
	r->child_user = (double)ticks(user) / REAIM_USER_HZ;
	r->child_sys = (double)ticks(sys) / REAIM_USER_HZ;
	s->b->progress_done++;

	if (r->jpm > s->jmax)
		s->jmax = r->jpm;
	if (s->a_tn1 > 0.0)
		s->a_tn = s->a_tn1;
	s->a_tn1 = real_time;
	if (s->runnum == c->end_users)
		return false;
	if (c->crossover && r->jpm_child <= c->xover_threshold) {
		add_note(c, "Crossover achieved");
		return false;
	}
	if (c->maxjobs) {
		double *m = s->mjobs, tot, avg, sumsq, sd, pct;

		memmove(&m[1], &m[0], 4 * sizeof(*m));
		m[0] = r->jpm;
		tot = m[0] + m[1] + m[2] + m[3] + m[4];
		avg = tot / 5;
		if (m[4] > 0.0 && m[0] < m[1] && (avg - m[0]) / avg * 100 > 1.00) {
			snprintf(buf, sizeof(buf), " Job rate dropping avg: %3.2f loss pct: %3.2f",
				 avg, (avg - m[0]) / avg * 100);
			add_note(c, buf);
			return false;
		}
		sumsq = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3] + m[4] * m[4];
		sd = sqrt(fabs(sumsq - tot * tot / 5) / 5);
		pct = sd / avg * 100.0;
		if (pct < 1.00) {
			add_note(c, "Max sustained jobs reached");
			return false;
		}
	}
	if (!c->timer_off) {
		int incr = reaim_adaptive_incr(r->jpm, s->runnum, s->a_tn, s->a_tn1, (int)c->incr,
					       s->adapt_cnt);

		c->incr = incr > 0 ? (unsigned int)incr : 1;
		s->adapt_cnt++;
	}
	/*
	 * for (runnum = min; runnum <= max;) { ...; runnum += incr; }: a
	 * count past -e ends the run, whatever the step
	 */
	next = (u64)s->runnum + c->incr;
	if (next > c->end_users)
		return false;
	/* only -x, -q and -g (INFINITE) get here: -e is at most the limit */
	if (next > REAIM_MAX_USERS) {
		add_note(c, "(schedlab: stopped at its limit of 100000 users)");
		return false;
	}
	s->runnum = (unsigned int)next;
	return true;
}

/* the user counts for (n = from; n <= end; n += incr) runs */
static u64 loops_between(u64 from, u64 end, u64 incr)
{
	return from > end ? 0 : (end - from) / incr + 1;
}

/*
 * b->progress_total: the loops done, those left in this repeat at the
 * current step and the later repeats' at it (multiuser() keeps the step
 * the adaptive timer left: invars->incr). Exact with -t; with the adaptive
 * timer the step changes from the tenth loop on, so it is set again after
 * every loop. Unknown (0) when -x, -q or -g decide the end.
 */
static void set_progress_total(struct rm_state *s, bool more)
{
	struct reaim_conf *c = s->c;
	u64 left;

	if (c->crossover || c->maxjobs)
		return;
	left = more ? loops_between(s->runnum, c->end_users, c->incr) : 0;
	s->b->progress_total =
		s->b->progress_done + left +
		(u64)(c->repeat - s->repeat_no - 1) *
			loops_between(c->start_users, c->end_users, c->incr);
}

static void parent_call(struct work_task *w, void *arg)
{
	struct rm_state *s = arg;
	struct reaim_conf *c = s->c;
	bool more;

	switch (s->phase) {
	case RP_START:
		s->rt1 = cpu_now();
		if (!s->b->started) {
			s->b->start_ns = s->rt1;
			s->b->started = true;
		}
		s->start.val = 1;
		s->phase = RP_WAKE;
		break;
	case RP_DONE:
		/* each child's time as wait() returned it: at its exit */
		for (unsigned int i = 0; i < s->runnum; i++)
			s->elapsed[i] = tdelta_s(s->rt1, s->users[i].end_ns);
		more = loop_done(s, w->task);
		set_progress_total(s, more);
		/* every user exited: nobody reads or writes the pipe any more */
		channel_destroy(s->umbilical);
		s->umbilical = NULL;
		if (more) {
			s->loop++;
			loop_free(s);
			s->phase = RP_BEGIN;
			break;
		}
		loop_free(s);
		s->loop++;
		c->max_jpm = xreallocarray(c->max_jpm, c->nr_repeats_done + 1, sizeof(double));
		c->rows_end =
			xreallocarray(c->rows_end, c->nr_repeats_done + 1, sizeof(unsigned int));
		c->max_jpm[c->nr_repeats_done] = s->jmax;
		c->rows_end[c->nr_repeats_done] = c->nr_rows;
		c->nr_repeats_done++;
		if (c->nr_repeats_done < c->repeat) {
			/* main(): system("sync"); sleep(SLEEP); then multiuser() again */
			s->runnum = c->start_users;
			s->jmax = 0;
			memset(s->mjobs, 0, sizeof(s->mjobs));
			s->a_tn = s->a_tn1 = 0;
			s->adapt_cnt = 0;
			s->phase = RP_SLEEP;
			s->repeat_no++;
			break;
		}
		s->b->stop_ns = cpu_now();
		s->b->stopped = true;
		s->phase = RP_EXIT;
		break;
	}
}

static void parent_next(struct work_task *w, struct op_desc *op)
{
	struct rm_state *s = w->state;

	if (rk_path_next(&s->kl, &s->kp, op))
		return;
	for (;;) {
		switch (s->phase) {
		case RP_BEGIN:
			loop_setup(s, w->task);
			s->phase = RP_SPAWN;
			continue;
		case RP_SPAWN:
			if (s->spawned < s->runnum && !s->forking) {
				/* fork(): dup_mmap()'s locks, then the child */
				static const struct rk_proc driver = { RKF_REAIM, true };

				s->forking = true;
				rk_path_fork(&s->kp, &driver);
				rk_path_next(&s->kl, &s->kp, op);
				return;
			}
			if (s->spawned < s->runnum) {
				s->forking = false;
				*op = (struct op_desc){ .kind = OP_SPAWN };
				op->spawn.prog = &user_prog;
				op->spawn.state = &s->users[s->spawned++];
				op->spawn.comm = "reaim";
				op->spawn.footprint = FOOTPRINT_TASK + REAIM_USER_FOOTPRINT;
				op->spawn.reap = true;
				return;
			}
			s->phase = RP_READY;
			/* the users' system time under the locks counts from here */
			s->held0 = s->kl.held_ns;
			continue;
		case RP_READY:
			/* one word from each child */
			if (s->ready < s->runnum) {
				s->ready++;
				op_rw(op, OP_READ, s->umbilical, 4);
				return;
			}
			s->phase = RP_START;
			op_sleep(op, REAIM_START_SLEEP_NS);
			return;
		case RP_START:
			op_call(op, parent_call, s);
			return;
		case RP_WAKE:
			/* kill(0, SIGUSR1): every paused child */
			s->phase = RP_WAIT;
			op_futex(op, OP_FUTEX_WAKE, &s->start, s->runnum);
			return;
		case RP_WAIT:
			s->phase = RP_DONE;
			op_wait_children(op, WAIT_ANY);
			return;
		case RP_DONE:
			op_call(op, parent_call, s);
			return;
		case RP_SLEEP:
			s->phase = RP_BEGIN;
			op_sleep(op, REAIM_START_SLEEP_NS);
			return;
		default:
			op_simple(op, OP_EXIT);
			return;
		}
	}
}

static const struct program parent_prog = { .next = parent_next };

void reaim_start(struct bench *b)
{
	struct rm_state *s = xcalloc(1, sizeof(*s));
	struct reaim_conf *c = b->reaim;

	b->priv = s;
	s->b = b;
	s->c = c;
	s->runnum = c->start_users;
	s->load = xcalloc(reaim_nr_jobs, sizeof(*s->load));
	futex_init_unhashed(&s->start, 0);
	futex_init_unhashed(&s->nobody, 0);
	rk_locks_init(&s->kl);
	if (!c->crossover && !c->maxjobs)
		b->progress_total =
			c->repeat * loops_between(c->start_users, c->end_users, c->incr);
	work_start_allowed("reaim", &parent_prog, s, 0, b->taskset_cpus);
}

void reaim_free(struct bench *b)
{
	struct rm_state *s = b->priv;
	struct reaim_conf *c = b->reaim;

	if (s) {
		loop_free(s);
		free(s->load);
		free(s->elapsed);
	}
	if (!c)
		return;
	reaim_workfile_free(&c->wf);
	free(c->workfile);
	free(c->rows);
	for (unsigned int i = 0; i < c->nr_notes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->note_after);
	free(c->max_jpm);
	free(c->rows_end);
	free(c);
	b->reaim = NULL;
}
