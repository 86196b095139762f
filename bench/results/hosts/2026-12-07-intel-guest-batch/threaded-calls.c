// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a threaded process pays around read() and write(): a 100-byte pipe
 * write + read on CPU 0, best of 7 runs of 200,000 pairs, single-threaded,
 * after creating and joining a thread (glibc's cancellation points:
 * cancel_point), and while another thread lives blocked (the shared file
 * table's fdget() besides: fget_shared). docs/cost-model.md has the
 * figures this printed on 2026-12-07.
 *
 *   gcc -O2 -pthread -o threaded-calls threaded-calls.c && ./threaded-calls
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static double best_pair_ns(void)
{
	double best = 1e18;
	char b[100];
	int p[2];

	memset(b, 1, sizeof(b));
	if (pipe(p))
		return -1;
	for (int r = 0; r < 7; r++) {
		unsigned long long t0 = now_ns();

		for (int i = 0; i < 200000; i++)
			if (write(p[1], b, 100) != 100 || read(p[0], b, 100) != 100)
				return -1;
		double v = (double)(now_ns() - t0) / 200000;
		if (v < best)
			best = v;
	}
	close(p[0]);
	close(p[1]);
	return best;
}

static void *nothing(void *a)
{
	return a;
}

static void *blocked(void *a)
{
	char c;

	return (void *)(long)read(*(int *)a, &c, 1);
}

int main(void)
{
	double st, joined, live;
	cpu_set_t s;
	pthread_t t;
	int p[2];

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	sched_setaffinity(0, sizeof(s), &s);
	st = best_pair_ns();
	pthread_create(&t, NULL, nothing, NULL);
	pthread_join(t, NULL);
	joined = best_pair_ns();
	if (pipe(p))
		return 1;
	pthread_create(&t, NULL, blocked, &p[0]);
	live = best_pair_ns();
	close(p[1]);
	pthread_join(t, NULL);
	printf("write+read of 100 B: single-threaded %.1f ns, after a thread was joined %.1f ns, "
	       "with one alive %.1f ns\n"
	       "cancel_point %.1f ns a call, fget_shared %.1f ns a call\n",
	       st, joined, live, (joined - st) / 2, (live - joined) / 2);
	return 0;
}
