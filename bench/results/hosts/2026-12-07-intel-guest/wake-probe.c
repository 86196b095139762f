// SPDX-License-Identifier: GPL-2.0-only
/*
 * Does the waker's own idling change what a cross-vCPU wakeup costs?
 * (docs/fidelity.md, "The fifth measurement".)  calibrate's wake tests
 * sleep the gap before each wakeup; this probe times the same FUTEX_WAKE
 * to a wakee blocked on CPU 1 with the waker on CPU 0 either busy-waiting
 * the gap (spin) or sleeping it (sleep), and prints the medians and the
 * 10th/90th percentiles of the FUTEX_WAKE call and of the time until the
 * wakee runs.
 *
 *   gcc -O2 -std=c17 -Wall -Wextra -Werror -o wake-probe wake-probe.c -pthread
 *   ./wake-probe spin|sleep GAP_NS
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ITERS 1500
#define WARMUP 100

static _Atomic int word, ready;
static _Atomic uint64_t t_woke;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

static void *wakee(void *arg)
{
	(void)arg;
	pin(1);
	for (;;) {
		atomic_store(&ready, 1);
		while (atomic_load(&word) == 0)
			syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
		atomic_store(&t_woke, now_ns());
		atomic_store(&word, 0);
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static uint64_t call[ITERS], lat[ITERS];
	pthread_t t;
	int sleeping;
	long gap;

	if (argc != 3 || (strcmp(argv[1], "spin") && strcmp(argv[1], "sleep")) ||
	    (gap = atol(argv[2])) <= 0 || gap >= 1000000000) {
		fprintf(stderr, "usage: wake-probe spin|sleep GAP_NS (1..999999999)\n");
		return 2;
	}
	sleeping = !strcmp(argv[1], "sleep");
	pin(0);
	pthread_create(&t, NULL, wakee, NULL);
	for (int i = -WARMUP; i < ITERS; i++) {
		uint64_t t0, t1, w;

		while (!atomic_load(&ready))
			;
		atomic_store(&ready, 0);
		if (sleeping) {
			struct timespec ts = { 0, gap };

			nanosleep(&ts, NULL);
		} else {
			uint64_t end = now_ns() + gap;

			while (now_ns() < end)
				;
		}
		atomic_store(&t_woke, 0);
		t0 = now_ns();
		atomic_store(&word, 1);
		syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		t1 = now_ns();
		while (!(w = atomic_load(&t_woke)))
			;
		if (i >= 0) {
			call[i] = t1 - t0;
			lat[i] = w - t0;
		}
	}
	qsort(call, ITERS, sizeof(call[0]), cmp_u64);
	qsort(lat, ITERS, sizeof(lat[0]), cmp_u64);
	printf("%-5s gap %9ld ns: FUTEX_WAKE call median %6llu p10 %6llu p90 %6llu;"
	       " wake latency median %6llu p10 %6llu p90 %6llu\n",
	       argv[1], gap, (unsigned long long)call[ITERS / 2],
	       (unsigned long long)call[ITERS / 10], (unsigned long long)call[ITERS * 9 / 10],
	       (unsigned long long)lat[ITERS / 2], (unsigned long long)lat[ITERS / 10],
	       (unsigned long long)lat[ITERS * 9 / 10]);
	return 0;
}
