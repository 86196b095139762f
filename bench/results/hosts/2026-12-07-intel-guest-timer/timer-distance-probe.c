// SPDX-License-Identifier: GPL-2.0-only
/*
 * What one reprogramming of the local timer costs, by how far out its
 * deadline is (docs/guests.md, "What the timer costs"). On CPU 0,
 * timerfd_settime() 20,000 times with an expiry 10 s out (queued behind
 * the tick: nothing programmed), then 20,000 times with a relative expiry
 * D out (each call a new deadline, the CPU's first timer unless the tick
 * comes first: the clock event device is programmed again; in a KVM guest
 * a TSC-deadline MSR write that exits). The difference per call, over the
 * share of calls the tick (HZ given, 250 by default) did not come before,
 * 1 - D / tick, is one reprogramming at D. The local timer interrupts of
 * each batch (/proc/interrupts, LOC, x86) show whether the timer fired
 * (only the ticks, about batch time / tick, when it did not).
 *
 *   gcc -O2 -o timer-distance-probe timer-distance-probe.c && ./timer-distance-probe 250
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static unsigned long long cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

/* CPU 0's local timer interrupts; -1 where /proc/interrupts has no LOC line */
static long local_timer_irqs(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " ");

		if (!strncmp(p, "LOC:", 4)) {
			v = strtol(p + 4, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	static const long dist_us[] = { 5, 10, 20, 62, 100, 250, 500, 1000, 2000, 3000, 3500 };
	const struct itimerspec far = { .it_value = { 10, 0 } };
	const int n = 20000;
	long hz = argc > 1 ? atol(argv[1]) : 250;
	cpu_set_t cpu;
	int fd;

	if (hz < 1 || hz > 10000) {
		fprintf(stderr, "usage: timer-distance-probe [HZ]\n");
		return 2;
	}
	CPU_ZERO(&cpu);
	CPU_SET(0, &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (fd < 0) {
		perror("timerfd_create");
		return 1;
	}
	printf("deadline  far ns  near ns  diff ns  one reprogram ns  LOC far  LOC near  (ticks in near)\n");
	for (int rep = 0; rep < 3; rep++)
		for (unsigned k = 0; k < sizeof(dist_us) / sizeof(dist_us[0]); k++) {
			long d = dist_us[k];
			const struct itimerspec at = { .it_value = { 0, d * 1000 } };
			double first = 1 - (double)d * hz / 1e6;
			unsigned long long t0, t1, t2;
			long l0, l1, l2;

			l0 = local_timer_irqs();
			t0 = cpu_ns();
			for (int i = 0; i < n; i++)
				timerfd_settime(fd, 0, &far, NULL);
			t1 = cpu_ns();
			l1 = local_timer_irqs();
			t1 = cpu_ns();
			for (int i = 0; i < n; i++)
				timerfd_settime(fd, 0, &at, NULL);
			t2 = cpu_ns();
			l2 = local_timer_irqs();
			double diff = ((double)(t2 - t1) - (double)(t1 - t0)) / n;
			printf("%5ld us  %6.0f  %7.0f  %7.0f  %16.0f  %7ld  %8ld  (%.0f)\n", d,
			       (double)(t1 - t0) / n, (double)(t2 - t1) / n, diff,
			       first > 0 ? diff / first : 0, l1 - l0, l2 - l1,
			       (double)(t2 - t1) * hz / 1e9);
		}
	return 0;
}
