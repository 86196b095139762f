// SPDX-License-Identifier: GPL-2.0-only
/*
 * taskset as a prefix of a benchmark command, following util-linux v2.42.2
 * schedutils/taskset.c and lib/cpuset.c:
 *
 *   taskset [-a|--all-tasks] [-c|--cpu-list] MASK|LIST COMMAND...
 *
 * taskset sets its own affinity with sched_setaffinity() and execs the
 * command, so the command's first task has the mask and every task it forks
 * inherits it. -a only matters with -p (all threads of an existing pid);
 * -p itself has nothing to act on before the run and is refused.
 */
#include "work/bench.h"
#include "work/bench_opts.h"

#include "sim/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char taskset_usage[] = "taskset [-a|--all-tasks] [-c|--cpu-list] MASK|LIST COMMAND...";

/* a decimal CPU number (digits only, as lib/cpuset.c nextnumber()); -1 if none or too large */
static long long list_number(const char **p)
{
	const char *s = *p;
	unsigned long long v = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (unsigned long long)(*s - '0');
		if (v > UINT_MAX)
			return -1;
	}
	*p = s;
	return (long long)v;
}

/*
 * lib/cpuset.c cpulist_parse(): items A, A-B or A-B:S separated by commas,
 * A <= B, S >= 1; the strict form of util-linux master (nothing else after
 * a number), which v2.42.2 only enforced at the end of the string.
 */
int taskset_parse_list(const char *s, struct cpumask *m)
{
	const char *p = s;

	memset(m, 0, sizeof(*m));
	for (;;) {
		long long a, b, stride = 1;

		a = list_number(&p);
		if (a < 0)
			return -1;
		b = a;
		if (*p == '-') {
			p++;
			b = list_number(&p);
			if (b < 0)
				return -1;
			if (*p == ':') {
				p++;
				stride = list_number(&p);
				if (stride < 1)
					return -1;
			}
		}
		if (a > b)
			return -1;
		/* CPUs beyond the set size are dropped, not refused (cpulist_parse(..., 0)) */
		for (long long cpu = a; cpu <= b && cpu < NR_CPUS; cpu += stride)
			cpumask_set_cpu((unsigned int)cpu, m);
		if (!*p)
			return 0;
		if (*p != ',')
			return -1;
		p++;
	}
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * lib/cpuset.c cpumask_parse(): hex digits, lowest CPUs last, an optional
 * "0x" prefix and commas between digits as in sysfs ("ff,ffffffff"). Bits
 * beyond the set size are dropped. util-linux reads "" and "0x" as an empty
 * mask (then sched_setaffinity() fails) and a stray comma out of bounds:
 * both are malformed here.
 */
int taskset_parse_mask(const char *s, struct cpumask *m)
{
	size_t len = strlen(s);
	const char *ptr;
	unsigned int cpu = 0;

	memset(m, 0, sizeof(*m));
	if (len > 1 && !memcmp(s, "0x", 2)) {
		s += 2;
		len -= 2;
	}
	if (!len || s[0] == ',' || s[len - 1] == ',')
		return -1;
	for (ptr = s + len - 1; ptr >= s; ptr--) {
		int v;

		if (*ptr == ',') {
			if (ptr[-1] == ',')
				return -1;
			continue;
		}
		v = hex_value(*ptr);
		if (v < 0)
			return -1;
		for (int bit = 0; bit < 4; bit++, cpu++)
			if ((v >> bit) & 1 && cpu < NR_CPUS)
				cpumask_set_cpu(cpu, m);
	}
	return 0;
}

static const char *what(const struct bench *b)
{
	return b->taskset_list ? "CPU list" : "mask";
}

struct bench *taskset_parse(int argc, char **argv, char *err, size_t errlen)
{
	struct bench_getopt g;
	struct bench tmp = { 0 }, *b;
	struct cpumask *given;
	const char *arg;
	int c, cmd;

	optind = 0;
	opterr = 0;
	optopt = 0;
	bench_getopt_init(&g, taskset_opts, "+");
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (bench_opt_special("taskset", taskset_opts, c, argc, argv, err, errlen))
			return NULL;
		switch (c) {
		case 'a':
			/* all threads of the -p pid: a command's threads inherit anyway */
			break;
		case 'c':
			tmp.taskset_list = true;
			break;
		default:
			if (optopt && optopt != '?' && strncmp(argv[optind - 1], "--", 2))
				snprintf(err, errlen, "taskset: invalid option '-%c' (usage: %s)",
					 optopt, taskset_usage);
			else
				snprintf(err, errlen, "taskset: unrecognized option '%s' (usage: %s)",
					 argv[optind - 1], taskset_usage);
			return NULL;
		}
	}
	if (argc - optind < 2) {
		if (argc - optind < 1)
			snprintf(err, errlen, "taskset: no %s and no command (usage: %s)", what(&tmp),
				 taskset_usage);
		else
			snprintf(err, errlen, "taskset: no command after the %s '%s' (usage: %s)",
				 what(&tmp), argv[optind], taskset_usage);
		return NULL;
	}
	arg = argv[optind];
	cmd = optind + 1;
	given = xcalloc(1, sizeof(*given));
	if (tmp.taskset_list ? taskset_parse_list(arg, given) : taskset_parse_mask(arg, given)) {
		if (tmp.taskset_list)
			snprintf(err, errlen,
				 "taskset: failed to parse CPU list: '%s' (a list looks like 0,2-5 or 0-7:2)",
				 arg);
		else
			snprintf(err, errlen,
				 "taskset: failed to parse CPU mask: '%s' (a hex mask looks like 0x3; -c takes a CPU list)",
				 arg);
		free(given);
		return NULL;
	}
	if (!strcmp(argv[cmd], "taskset")) {
		snprintf(err, errlen, "taskset: a taskset inside taskset is not modelled: give one");
		free(given);
		return NULL;
	}
	b = bench_parse(argc - cmd, argv + cmd, err, errlen);
	if (!b) {
		free(given);
		return NULL;
	}
	/* one behind a chrt or nice prefix */
	if (b->taskset_arg) {
		snprintf(err, errlen, "taskset: a taskset inside taskset is not modelled: give one");
		free(given);
		bench_free(b);
		return NULL;
	}
	b->taskset_arg = xstrdup(arg);
	b->taskset_inner = b->nr_sched_prefix;
	b->taskset_list = tmp.taskset_list;
	b->taskset_given = given;
	return b;
}

/* @m (NR_CPUS wide) as a CPU list in @buf, cut short with "..." if it does not fit */
static void print_wide_list(char *buf, size_t len, const struct cpumask *m)
{
	size_t pos = 0;
	unsigned int cpu = 0;

	buf[0] = '\0';
	while (cpu < NR_CPUS) {
		unsigned int last;
		char item[32];
		int n;

		if (!cpumask_test_cpu(cpu, m)) {
			cpu++;
			continue;
		}
		for (last = cpu; last + 1 < NR_CPUS && cpumask_test_cpu(last + 1, m); last++)
			;
		if (last == cpu)
			n = snprintf(item, sizeof(item), "%s%u", pos ? "," : "", cpu);
		else
			n = snprintf(item, sizeof(item), "%s%u-%u", pos ? "," : "", cpu, last);
		if (pos + (size_t)n + 4 >= len) {
			snprintf(buf + pos, len - pos, ",...");
			return;
		}
		memcpy(buf + pos, item, (size_t)n + 1);
		pos += (size_t)n;
		cpu = last + 1;
	}
}

int taskset_check_machine(struct bench *b, const char *machine, char *err, size_t errlen)
{
	char given[96], cpus[32];
	unsigned int n = 0;
	int len;

	if (!b->taskset_arg)
		return 0;
	b->taskset_cpus = alloc_cpumask();
	cpumask_setall(b->taskset_cpus);
	cpumask_and(b->taskset_cpus, b->taskset_cpus, b->taskset_given);
	if (cpumask_empty(b->taskset_cpus)) {
		/* sched_setaffinity(): no allowed CPU exists, -EINVAL */
		for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
			n += cpumask_test_cpu(cpu, b->taskset_given);
		if (nr_cpu_ids == 1)
			snprintf(cpus, sizeof(cpus), "CPU 0");
		else
			snprintf(cpus, sizeof(cpus), "CPUs 0-%u", nr_cpu_ids - 1);
		if (!n && b->taskset_list) {
			/* a list of CPUs all dropped at parse time */
			snprintf(err, errlen,
				 "taskset: CPU list '%s': CPUs from NR_CPUS (%u) up do not exist on %s (%s), so sched_setaffinity() fails with EINVAL",
				 b->taskset_arg, NR_CPUS, machine, cpus);
		} else if (!n) {
			snprintf(err, errlen,
				 "taskset: mask '%s' selects no CPU, so sched_setaffinity() fails with EINVAL",
				 b->taskset_arg);
		} else {
			print_wide_list(given, sizeof(given), b->taskset_given);
			snprintf(err, errlen,
				 "taskset: %s '%s': CPU%s %s do%s not exist on %s (%s), so sched_setaffinity() fails with EINVAL",
				 what(b), b->taskset_arg, n > 1 ? "s" : "", given, n > 1 ? "" : "es",
				 machine, cpus);
		}
		return -1;
	}
	len = cpumask_print_list(given, 1, b->taskset_cpus);
	b->taskset_str = xmalloc((size_t)len + 1);
	cpumask_print_list(b->taskset_str, (size_t)len + 1, b->taskset_cpus);
	return 0;
}

void taskset_free(struct bench *b)
{
	free(b->taskset_arg);
	free(b->taskset_given);
	free_cpumask(b->taskset_cpus);
	free(b->taskset_str);
}
