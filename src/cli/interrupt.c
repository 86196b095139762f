// SPDX-License-Identifier: GPL-2.0-only
#include "cli/interrupt.h"

#include "sim/machine.h"

#include <stdio.h>
#include <string.h>

volatile sig_atomic_t interrupt_signal;

/* async-signal-safe: two stores */
static void on_signal(int sig)
{
	interrupt_signal = sig;
	sim_interrupted = 1;
}

void interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void interrupt_default(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

int interrupt_exit(const char *cmd)
{
	return interrupt_exit_saying(cmd, "no output written");
}

int interrupt_exit_saying(const char *cmd, const char *what)
{
	int sig = interrupt_signal;

	fprintf(stderr, "schedlab: %s: interrupted by %s; %s\n", cmd, signal_name(sig), what);
	return 128 + sig;
}
