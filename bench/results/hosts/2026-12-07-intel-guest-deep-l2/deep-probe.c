// SPDX-License-Identifier: GPL-2.0-only
/*
 * calibrate's deep-queue probe on its own, at any depth: S unix socket
 * pairs on CPU 0, P 100-byte writes to each in turn, then all read back,
 * ROUNDS rounds after a warm-up one; the mean write and read per message.
 * The refill at a depth is (write + read) at S x P less the same at a
 * shallow 5 x 20, halved (docs/calibration.md, "The deep queue's depth").
 * Unlike ../2026-12-07-intel-guest-v619/skb-depth.c (best of 9, 4 MiB send
 * buffers) it keeps the default buffers and the mean, as calibrate does.
 *
 *   gcc -O2 -o deep-probe deep-probe.c
 *   for sp in "5 20" "10 200" "20 200" "40 200" "80 200" "160 200"; do ./deep-probe $sp 5; done
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int sockets, per, rounds;
	int(*fd)[2];
	char buf[100];
	double tw = 0, tr = 0, n;
	cpu_set_t cpu0;

	if (argc != 4 || (sockets = atoi(argv[1])) < 1 || (per = atoi(argv[2])) < 1 ||
	    (rounds = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: deep-probe SOCKETS PER_SOCKET ROUNDS\n");
		return 2;
	}
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	fd = calloc(sockets, sizeof(*fd));
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < sockets; i++)
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fd[i])) {
			perror("socketpair");
			return 1;
		}
	for (int r = 0; r <= rounds; r++) {
		unsigned long long t0 = now_ns(), t1, t2;

		for (int k = 0; k < per; k++)
			for (int i = 0; i < sockets; i++)
				if (write(fd[i][1], buf, 100) != 100) {
					perror("write");
					return 1;
				}
		t1 = now_ns();
		for (int i = 0; i < sockets; i++)
			for (int k = 0; k < per; k++)
				if (read(fd[i][0], buf, 100) != 100) {
					perror("read");
					return 1;
				}
		t2 = now_ns();
		/* round 0 warms up: the slab pages exist after it */
		if (r) {
			tw += t1 - t0;
			tr += t2 - t1;
		}
	}
	n = (double)rounds * sockets * per;
	printf("%6d skbs (%3d x %3d): write %.0f read %.0f ns\n", sockets * per, sockets, per,
	       tw / n, tr / n);
	return 0;
}
