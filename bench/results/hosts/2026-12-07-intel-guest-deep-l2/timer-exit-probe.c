// SPDX-License-Identifier: GPL-2.0-only
/*
 * What reprogramming the local timer costs (in a KVM guest, the TSC
 * deadline MSR write exits to the host): timerfd_settime() 20,000 times
 * with an expiry 10 s out (never the CPU's first timer: no reprogram),
 * then alternating 200 and 300 us out (earlier than the next tick, so
 * each call moves the clockevent), per call; the difference is one
 * reprogram. The model's guest_timer_exit is that exit (docs/guests.md);
 * docs/fidelity.md ("The eleventh measurement") has what it printed.
 *
 *   gcc -O2 -o timer-exit-probe timer-exit-probe.c && ./timer-exit-probe 0
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

int main(int argc, char **argv)
{
	const struct itimerspec far = { .it_value = { 10, 0 } };
	const struct itimerspec near[2] = { { .it_value = { 0, 300000 } },
					    { .it_value = { 0, 200000 } } };
	const struct itimerspec off = { 0 };
	const int n = 20000;
	cpu_set_t cpu;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: timer-exit-probe CPU\n");
		return 2;
	}
	CPU_ZERO(&cpu);
	CPU_SET(atoi(argv[1]), &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (fd < 0) {
		perror("timerfd_create");
		return 1;
	}
	for (int rep = 0; rep < 5; rep++) {
		unsigned long long t0 = now_ns(), t1, t2;

		for (int i = 0; i < n; i++)
			timerfd_settime(fd, 0, &far, NULL);
		t1 = now_ns();
		for (int i = 0; i < n; i++)
			timerfd_settime(fd, 0, &near[i & 1], NULL);
		t2 = now_ns();
		timerfd_settime(fd, 0, &off, NULL);
		printf("far %.0f ns  near %.0f ns  diff %.0f\n", (double)(t1 - t0) / n,
		       (double)(t2 - t1) / n, ((double)(t2 - t1) - (double)(t1 - t0)) / n);
	}
	return 0;
}
