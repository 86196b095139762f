// SPDX-License-Identifier: GPL-2.0-only
/*
 * How long a CPU takes from its task blocking to halting: the idle-entry
 * window. A sleeper on CPU 1 blocks in FUTEX_WAIT; a waker on CPU 0 waits
 * DELAY us after the sleeper's last timestamp before the syscall, then
 * wakes it; the sleeper's wakeup latency, and CPU 1's halts (cpuidle
 * usage) and IPIs (/proc/interrupts CAL + RES), per delay. While CPU 1
 * is still on its way into idle (polling) the wakeup needs no IPI and no
 * halt exit; past the window it pays both. docs/guests.md ("What the timer
 * costs") has what it printed.
 *
 *   gcc -O2 -o idle-window-probe idle-window-probe.c -lpthread
 *   ./idle-window-probe [WAKEUPS [DELAY]]
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

static _Atomic uint32_t word;
static _Atomic uint64_t blocked_at, woke_at;
static _Atomic int go;

static uint64_t now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static unsigned long long usage(int cpu)
{
	char p[128];
	unsigned long long sum = 0, v;

	for (int st = 1; st < 10; st++) {
		FILE *f;

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage", cpu, st);
		f = fopen(p, "r");
		if (!f)
			break;
		if (fscanf(f, "%llu", &v) == 1)
			sum += v;
		fclose(f);
	}
	return sum;
}

/* CPU 1's call-function and rescheduling interrupts (/proc/interrupts, x86) */
static unsigned long long ipis(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096];
	unsigned long long sum = 0, a, b;

	while (f && fgets(line, sizeof(line), f)) {
		char name[16];

		if (sscanf(line, " %15s %llu %llu", name, &a, &b) == 3 &&
		    (!strcmp(name, "CAL:") || !strcmp(name, "RES:")))
			sum += b;
	}
	if (f)
		fclose(f);
	return sum;
}

static void *sleeper(void *arg)
{
	(void)arg;
	pin(1);
	for (;;) {
		while (!atomic_load(&go))
			;
		atomic_store(&go, 0);
		atomic_store(&word, 0);
		atomic_store(&blocked_at, now());
		while (atomic_load(&word) == 0)
			syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
		atomic_store(&woke_at, now());
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static int delays[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 30, 50 };
	int nd = sizeof(delays) / sizeof(delays[0]);
	if (argc > 2) { delays[0] = atoi(argv[2]); nd = 1; }
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	double *lat = calloc(n, sizeof(double));
	pthread_t t;

	pin(0);
	pthread_create(&t, NULL, sleeper, NULL);
	printf("delay us  wake latency us p10 p50 p90   halts of CPU 1 a wakeup  its IPIs a wakeup\n");
	for (int k = 0; k < nd; k++) {
		unsigned long long u0 = usage(1), i0 = ipis();

		for (int i = 0; i < n; i++) {
			uint64_t b, tw;

			atomic_store(&blocked_at, 0);
			atomic_store(&woke_at, 0);
			atomic_store(&go, 1);
			while (!(b = atomic_load(&blocked_at)))
				;
			while (now() < b + delays[k] * 1000ull)
				;
			tw = now();
			atomic_store(&word, 1);
			syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
			while (!atomic_load(&woke_at))
				;
			lat[i] = (atomic_load(&woke_at) - tw) / 1000.0;
			/* let CPU 1 settle into the loop's spin before the next round */
			for (uint64_t e = now() + 20000; now() < e;)
				;
		}
		qsort(lat, n, sizeof(double), cmp);
		printf("%8d  %6.1f %6.1f %6.1f   %.2f   %.2f\n", delays[k], lat[n / 10], lat[n / 2],
		       lat[9 * n / 10], (double)(usage(1) - u0) / n, (double)(ipis() - i0) / n);
	}
	return 0;
}
