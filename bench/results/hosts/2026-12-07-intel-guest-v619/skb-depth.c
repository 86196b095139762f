// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a 100-byte unix-socket write and read cost as the queues deepen:
 * N socket pairs on CPU 0, 200 writes to each in turn (every skb stays
 * queued: SO_SNDBUF 4 MiB), then all read back; best of 9 trials, per
 * message. N = 80 is calibrate's skb_refill measurement (unix.write.deep,
 * unix.read.deep); N = 20 is one hackbench or perf bench messaging group's
 * receivers. docs/fidelity.md ("The seventh measurement") has what it
 * printed on 2026-12-07.
 *
 *   gcc -O2 -o skb-depth skb-depth.c && for n in 1 20 80 160; do ./skb-depth $n; done
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PER_SOCKET 200
#define TRIALS 9

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 80, sndbuf = 4 << 20;
	double best_w = 1e18, best_r = 1e18;
	char buf[100] = { 0 };
	int (*sv)[2];
	cpu_set_t cpu0;

	if (n < 1)
		return 2;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	sv = malloc(sizeof(*sv) * (size_t)n);
	for (int i = 0; i < n; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i])) {
			perror("socketpair");
			return 1;
		}
		setsockopt(sv[i][0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	}
	for (int t = 0; t < TRIALS; t++) {
		double t0 = now_ns(), t1, t2;

		for (int k = 0; k < PER_SOCKET; k++)
			for (int i = 0; i < n; i++)
				if (write(sv[i][0], buf, sizeof(buf)) != sizeof(buf))
					return 1;
		t1 = now_ns();
		for (int k = 0; k < PER_SOCKET; k++)
			for (int i = 0; i < n; i++)
				if (read(sv[i][1], buf, sizeof(buf)) != sizeof(buf))
					return 1;
		t2 = now_ns();
		if ((t1 - t0) / (n * PER_SOCKET) < best_w)
			best_w = (t1 - t0) / (n * PER_SOCKET);
		if ((t2 - t1) / (n * PER_SOCKET) < best_r)
			best_r = (t2 - t1) / (n * PER_SOCKET);
	}
	printf("%d sockets, %.1f MiB of skbs queued (768 B each): write %.1f ns, read %.1f ns\n", n,
	       n * PER_SOCKET * 768 / 1048576.0, best_w, best_r);
	return 0;
}
