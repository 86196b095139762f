// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a running vCPU loses to one IPI: a thread spinning on CPU 1 reads
 * the TSC in a loop and keeps every stretch between two reads longer than
 * 200 ns; with MODE 1 a thread on CPU 0 sends it an IPI every 50 us
 * (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which IPIs each CPU
 * running a thread of the process and waits for the handler); with MODE 0
 * it only sleeps, and the stretches are the tick's and the host's. Prints
 * the stretches' quantiles and a histogram in 250 ns bins (9750 and up in
 * the last). x86 only (rdtsc). `schedlab calibrate` measures the same
 * with CLOCK_MONOTONIC (src/calib/microbench.c, t_ipi_recv()).
 *
 *   gcc -O2 -o recv-probe recv-probe.c -lpthread
 *   ./recv-probe MODE [CALLS]
 */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#define MAX_GAPS (1 << 20)

static atomic_int stop;
static uint64_t gaps[MAX_GAPS];
static int nr_gaps;
static double ghz;

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void *spin(void *arg)
{
	uint64_t last, min = (uint64_t)(200 * ghz);

	(void)arg;
	pin(1);
	last = __rdtsc();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		uint64_t t = __rdtsc();

		if (t - last > min && nr_gaps < MAX_GAPS)
			gaps[nr_gaps++] = t - last;
		last = t;
	}
	return NULL;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int mode = argc > 1 ? atoi(argv[1]) : 1, n = argc > 2 ? atoi(argv[2]) : 20000;
	int hist[40] = { 0 };
	double t0 = now(), start, elapsed, call = 0;
	uint64_t c0 = __rdtsc();
	pthread_t th;

	usleep(100000);
	ghz = (double)(__rdtsc() - c0) / ((now() - t0) * 1e9);
	syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
	pin(0);
	pthread_create(&th, NULL, spin, NULL);
	usleep(20000);
	start = now();
	for (int i = 0; i < n; i++) {
		struct timespec d = { 0, 50000 };

		if (mode == 1) {
			double a = now();

			syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
			call += now() - a;
		}
		nanosleep(&d, NULL);
	}
	elapsed = now() - start;
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	qsort(gaps, (size_t)nr_gaps, sizeof(gaps[0]), cmp);
	printf("mode %d: %d calls in %.3f s, call %.0f ns; gaps>200ns: %d (%.2f per call); "
	       "gap p10 %.0f p50 %.0f p90 %.0f ns\n",
	       mode, n, elapsed, call / n * 1e9, nr_gaps, (double)nr_gaps / n,
	       nr_gaps ? gaps[nr_gaps / 10] / ghz : 0, nr_gaps ? gaps[nr_gaps / 2] / ghz : 0,
	       nr_gaps ? gaps[nr_gaps * 9 / 10] / ghz : 0);
	for (int i = 0; i < nr_gaps; i++) {
		int b = (int)(gaps[i] / ghz / 250);

		hist[b > 39 ? 39 : b]++;
	}
	for (int b = 0; b < 40; b++)
		if (hist[b])
			printf("  %5d-%5d ns: %d\n", b * 250, b * 250 + 250, hist[b]);
	return 0;
}
