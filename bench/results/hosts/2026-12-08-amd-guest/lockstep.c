// SPDX-License-Identifier: GPL-2.0-only
/*
 * Does a writer and a reader of a one-buffer pipe on two CPUs run on
 * without blocking once both are running? stress-ng --switch's pipe
 * (pipe2(O_DIRECT), F_SETPIPE_SZ 1: one page, one packet), the writer on
 * CPU 0 writing 1 byte N times, the reader on CPU 1 reading 1 byte until
 * end of file; with START 1 both spin on a shared flag and start together
 * (both running: the lockstep's way in), with 0 the writer starts 1 ms
 * after the reader. Prints the time an op and each side's voluntary
 * switches (getrusage()): one an op is no lockstep, far fewer is.
 *
 *   gcc -O2 -o lockstep lockstep.c
 *   ./lockstep [N [START]]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void reader(int fd, _Atomic int *go)
{
	struct rusage u;
	long reads = 0;
	char c;

	pin(1);
	atomic_fetch_add(go, 1);
	while (atomic_load(go) < 2)
		;
	while (read(fd, &c, 1) > 0)
		reads++;
	getrusage(RUSAGE_SELF, &u);
	printf("reader: %ld reads, vol cs %ld invol %ld\n", reads, u.ru_nvcsw, u.ru_nivcsw);
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int spin_start = argc > 2 ? atoi(argv[2]) : 1;
	_Atomic int *go;
	struct rusage u;
	double t, elapsed;
	char c = 'x';
	int fd[2];

	if (pipe2(fd, O_DIRECT)) {
		perror("pipe2");
		return 1;
	}
	fcntl(fd[1], F_SETPIPE_SZ, 1);
	go = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (go == MAP_FAILED)
		return 1;
	if (!fork()) {
		close(fd[1]);
		reader(fd[0], go);
	}
	pin(0);
	close(fd[0]);
	while (atomic_load(go) < 1)
		;
	if (!spin_start)
		usleep(1000);
	atomic_fetch_add(go, 1);
	t = now();
	for (long i = 0; i < n; i++)
		if (write(fd[1], &c, 1) != 1)
			return 1;
	elapsed = now() - t;
	close(fd[1]);
	getrusage(RUSAGE_SELF, &u);
	printf("writer: %ld writes in %.3f s (%.2f us/op), vol cs %ld invol %ld\n", n, elapsed,
	       elapsed / (double)n * 1e6, u.ru_nvcsw, u.ru_nivcsw);
	wait(NULL);
	return 0;
}
