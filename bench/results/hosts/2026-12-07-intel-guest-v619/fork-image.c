// SPDX-License-Identifier: GPL-2.0-only
/*
 * What forking from a big process costs the child: the parent maps and
 * writes MB megabytes, forks; the child writes PAGES of those pages (each a
 * copy-on-write fault), reports the time, then exits when told; the parent
 * times that exit and its waitpid(). Best of 9, CPU 0. docs/fidelity.md
 * ("The seventh measurement") has what it printed on 2026-12-07.
 *
 *   gcc -O2 -o fork-image fork-image.c && ./fork-image 12 160
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	size_t len = (size_t)(argc > 1 ? atol(argv[1]) : 12) << 20;
	long pages = argc > 2 ? atol(argv[2]) : 160;
	double best_fault = 1e18, best_exit = 1e18;
	char *img = NULL;
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	if ((size_t)pages * 4096 > len)
		pages = (long)(len / 4096);
	if (len) {
		img = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (img == MAP_FAILED)
			return 1;
		memset(img, 1, len);
	}
	for (int t = 0; t < 9; t++) {
		int report[2], go[2];
		double d, t0;
		pid_t pid;
		char c;

		if (pipe(report) || pipe(go))
			return 1;
		pid = fork();
		if (pid == 0) {
			close(go[1]);
			t0 = now_ns();
			for (long i = 0; i < pages; i++)
				img[i * 4096] = 2;
			d = now_ns() - t0;
			if (write(report[1], &d, sizeof(d)) != sizeof(d) || read(go[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
		close(go[0]);
		if (read(report[0], &d, sizeof(d)) != sizeof(d))
			return 1;
		t0 = now_ns();
		close(go[1]);
		waitpid(pid, NULL, 0);
		if (now_ns() - t0 < best_exit)
			best_exit = now_ns() - t0;
		if (pages && d / pages < best_fault)
			best_fault = d / pages;
		close(report[0]);
		close(report[1]);
	}
	printf("%zu MB image, %ld pages written by the child: %.0f ns a fault, exit and reap %.1f us\n",
	       len >> 20, pages, pages ? best_fault : 0.0, best_exit / 1000);
	return 0;
}
