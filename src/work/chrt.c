// SPDX-License-Identifier: GPL-2.0-only
/*
 * chrt and nice as prefixes of a benchmark command, like taskset
 * (work/taskset.c): the tool changes its own scheduling policy, then execs
 * the command, so the command's first task has it and every task it forks
 * inherits it (fork keeps policy, RT priority and nice).
 *
 *   chrt [-f|-r|-b|-i|-o|-d] [-a] [-R] [-T NS] [-D NS] [-P NS] PRIO COMMAND...
 *     util-linux schedutils/chrt.c: -f SCHED_FIFO, -r SCHED_RR (the
 *     default), -b SCHED_BATCH, -i SCHED_IDLE, -o SCHED_OTHER, -d
 *     SCHED_DEADLINE; PRIO 1..99 for FIFO/RR and 0 for the others
 *     (sched_get_priority_min/max()). chrt calls sched_setattr(), which
 *     keeps the nice value. -d takes the reservation from -T (runtime),
 *     -D (deadline) and -P (period) in ns, the deadline defaulting to the
 *     period and the runtime to the deadline; the kernel checks it
 *     (__checkparam_dl(): EINVAL, chrt's "failed to set pid 0's policy").
 *     -R sets SCHED_FLAG_RESET_ON_FORK: the command's children start
 *     SCHED_OTHER. Without it a SCHED_DEADLINE command cannot fork or
 *     clone (sched_fork(): EAGAIN), and the benchmark fails as its tool
 *     does (work/exec.c).
 *   nice [-n N | --adjustment=N | -N] COMMAND...
 *     coreutils nice: adds N (default 10) to the niceness (0 here),
 *     clamped to -20..19; for an RT task it only sets the nice it will have
 *     back under a fair policy (set_user_nice()).
 *
 * Prefixes nest in any order with taskset; the outermost runs first.
 */
#include "work/bench.h"
#include "work/bench_opts.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char chrt_usage[] = "chrt [-f|-r|-b|-i|-o|-d] [-R] [-T NS] [-D NS] [-P NS] PRIO COMMAND...";
static const char nice_usage[] = "nice [-n N] COMMAND...";

/* a whole decimal int (strtos32_or_err()); -1 if not one */
static int parse_int(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < INT_MIN || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

/*
 * strtou64_or_err(): a whole unsigned decimal; chrt's message names the
 * option ("invalid runtime argument") and, out of range or negative,
 * strerror(ERANGE)
 */
static int parse_ns(const char *s, const char *what, u64 *out, char *err, size_t errlen)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*s || !(isdigit((unsigned char)*s) || *s == '-' || *s == '+')) {
		snprintf(err, errlen, "chrt: invalid %s argument: '%s'", what, s);
		return -1;
	}
	v = strtoull(s, &end, 10);
	if (*end || end == s) {
		snprintf(err, errlen, "chrt: invalid %s argument: '%s'", what, s);
		return -1;
	}
	if (errno == ERANGE || *s == '-') {
		snprintf(err, errlen, "chrt: invalid %s argument: '%s': Result not representable",
			 what, s);
		return -1;
	}
	*out = v;
	return 0;
}

/*
 * The kernel's answer to chrt's sched_setattr() of a reservation that
 * __checkparam_dl() refuses: EINVAL, which chrt reports and exits with;
 * the rule it broke is named after it
 */
static int check_dl(const struct sched_prefix *sp, char *err, size_t errlen)
{
	struct sched_attr attr = { .sched_policy = SCHED_DEADLINE,
				   .sched_runtime = sp->dl_runtime,
				   .sched_deadline = sp->dl_deadline,
				   .sched_period = sp->dl_period };
	const char *why;

	if (__checkparam_dl(&attr))
		return 0;
	if (!sp->dl_deadline && !sp->dl_period)
		why = "no period or deadline (-P or -D) was given";
	else if (sp->dl_runtime < (1ULL << DL_SCALE))
		why = "the runtime is below 1024 ns";
	else if (sp->dl_runtime > sp->dl_deadline)
		why = "the runtime is longer than the deadline";
	else if (sp->dl_period && sp->dl_deadline > sp->dl_period)
		why = "the deadline is longer than the period";
	else
		why = "the period is outside 100 us .. 4194304 us (sched_deadline_period_min/max_us)";
	snprintf(err, errlen,
		 "chrt: failed to set pid 0's policy: Invalid argument (SCHED_DEADLINE runtime %llu, deadline %llu, period %llu ns: %s)",
		 (unsigned long long)sp->dl_runtime, (unsigned long long)sp->dl_deadline,
		 (unsigned long long)sp->dl_period, why);
	return -1;
}

static struct bench *add_prefix(struct bench *b, const struct sched_prefix *sp, const char *tool,
				char *err, size_t errlen)
{
	if (b->nr_sched_prefix == BENCH_MAX_SCHED_PREFIX) {
		snprintf(err, errlen, "%s: more than %d chrt and nice prefixes", tool,
			 BENCH_MAX_SCHED_PREFIX);
		bench_free(b);
		return NULL;
	}
	b->sched_prefix[b->nr_sched_prefix++] = *sp;
	return b;
}

struct bench *chrt_parse(int argc, char **argv, char *err, size_t errlen)
{
	struct bench_getopt g;
	struct sched_prefix sp = { .policy = SCHED_RR };
	struct bench *b;
	int c, lo, hi;

	optind = 0;
	opterr = 0;
	optopt = 0;
	bench_getopt_init(&g, chrt_opts, "+");
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (bench_opt_special("chrt", chrt_opts, c, argc, argv, err, errlen))
			return NULL;
		switch (c) {
		case 'a':
			/* all threads of the -p pid: a command's threads inherit anyway */
			break;
		case 'b':
			sp.policy = SCHED_BATCH;
			break;
		case 'd':
			sp.policy = SCHED_DEADLINE;
			break;
		case 'R':
			sp.reset_on_fork = true;
			break;
		case 'T':
			if (parse_ns(optarg, "runtime", &sp.dl_runtime, err, errlen))
				return NULL;
			break;
		case 'P':
			if (parse_ns(optarg, "period", &sp.dl_period, err, errlen))
				return NULL;
			break;
		case 'D':
			if (parse_ns(optarg, "deadline", &sp.dl_deadline, err, errlen))
				return NULL;
			break;
		case 'f':
			sp.policy = SCHED_FIFO;
			break;
		case 'i':
			sp.policy = SCHED_IDLE;
			break;
		case 'o':
			sp.policy = SCHED_NORMAL;
			break;
		case 'r':
			sp.policy = SCHED_RR;
			break;
		default:
			if (optopt && optopt != '?' && strncmp(argv[optind - 1], "--", 2))
				snprintf(err, errlen, "chrt: invalid option '-%c' (usage: %s)", optopt,
					 chrt_usage);
			else
				snprintf(err, errlen, "chrt: unrecognized option '%s' (usage: %s)",
					 argv[optind - 1], chrt_usage);
			return NULL;
		}
	}
	if (argc - optind < 2) {
		if (argc - optind < 1)
			snprintf(err, errlen, "chrt: too few arguments: no priority and no command (usage: %s)",
				 chrt_usage);
		else
			snprintf(err, errlen, "chrt: too few arguments: no command after the priority '%s' (usage: %s)",
				 argv[optind], chrt_usage);
		return NULL;
	}
	if (parse_int(argv[optind], &sp.prio)) {
		snprintf(err, errlen, "chrt: invalid priority argument: '%s'", argv[optind]);
		return NULL;
	}
	if ((sp.dl_deadline || sp.dl_period) && sp.policy != SCHED_DEADLINE) {
		snprintf(err, errlen,
			 "chrt: --sched-{deadline,period} options are supported for SCHED_DEADLINE only");
		return NULL;
	}
	if (sp.dl_runtime && sp.policy != SCHED_DEADLINE) {
		if (sp.policy == SCHED_NORMAL || sp.policy == SCHED_BATCH)
			snprintf(err, errlen,
				 "chrt: --sched-runtime is not modelled for SCHED_OTHER and SCHED_BATCH (a custom slice, sched_attr.sched_runtime)");
		else
			snprintf(err, errlen,
				 "chrt: --sched-runtime option is supported for SCHED_OTHER, SCHED_BATCH and SCHED_DEADLINE");
		return NULL;
	}
	/* chrt's defaults: the deadline is the period, the runtime the deadline */
	if (sp.policy == SCHED_DEADLINE) {
		if (!sp.dl_deadline)
			sp.dl_deadline = sp.dl_period;
		if (!sp.dl_runtime)
			sp.dl_runtime = sp.dl_deadline;
	}
	/* sched_get_priority_min() / _max() of the policy */
	lo = rt_policy((unsigned int)sp.policy) ? 1 : 0;
	hi = rt_policy((unsigned int)sp.policy) ? MAX_RT_PRIO - 1 : 0;
	if (sp.prio < lo || sp.prio > hi) {
		const char *name = sp.policy == SCHED_FIFO     ? "SCHED_FIFO" :
				   sp.policy == SCHED_RR       ? "SCHED_RR" :
				   sp.policy == SCHED_BATCH    ? "SCHED_BATCH" :
				   sp.policy == SCHED_IDLE     ? "SCHED_IDLE" :
				   sp.policy == SCHED_DEADLINE ? "SCHED_DEADLINE" :
								 "SCHED_OTHER";
		char range[32];

		if (lo == hi)
			snprintf(range, sizeof(range), "only %d", lo);
		else
			snprintf(range, sizeof(range), "%d..%d", lo, hi);
		/*
		 * chrt's "see --max for valid range" cannot be followed here
		 * (--max runs no benchmark): give what --max would list
		 */
		snprintf(err, errlen,
			 "chrt: unsupported priority value for the policy: %d: %s takes %s (what chrt --max lists: SCHED_FIFO and SCHED_RR 1..99, the other policies 0)",
			 sp.prio, name, range);
		return NULL;
	}
	if (sp.policy == SCHED_DEADLINE && check_dl(&sp, err, errlen))
		return NULL;
	b = bench_parse(argc - optind - 1, argv + optind + 1, err, errlen);
	if (!b)
		return NULL;
	return add_prefix(b, &sp, "chrt", err, errlen);
}

struct bench *nice_parse(int argc, char **argv, char *err, size_t errlen)
{
	struct sched_prefix sp = { .is_nice = true, .nice_adj = 10 };
	const char *adj = NULL;
	struct bench *b;
	int i = 1;

	/* coreutils' legacy form first: nice -N / nice --N (N may be negative) */
	if (i < argc && argv[i][0] == '-' &&
	    (isdigit((unsigned char)argv[i][1]) ||
	     (argv[i][1] == '-' && isdigit((unsigned char)argv[i][2])))) {
		adj = argv[i] + 1;
		i++;
	} else if (i < argc && !strcmp(argv[i], "-n")) {
		if (i + 1 >= argc) {
			snprintf(err, errlen, "nice: option requires an argument -- 'n' (usage: %s)",
				 nice_usage);
			return NULL;
		}
		adj = argv[i + 1];
		i += 2;
	} else if (i < argc && !strncmp(argv[i], "-n", 2)) {
		adj = argv[i] + 2;
		i++;
	} else if (i < argc && !strncmp(argv[i], "--adjustment=", 13)) {
		adj = argv[i] + 13;
		i++;
	} else if (i < argc && !strcmp(argv[i], "--adjustment")) {
		if (i + 1 >= argc) {
			snprintf(err, errlen,
				 "nice: option '--adjustment' requires an argument (usage: %s)",
				 nice_usage);
			return NULL;
		}
		adj = argv[i + 1];
		i += 2;
	} else if (i < argc && !strcmp(argv[i], "--")) {
		i++;
	} else if (i < argc && !strncmp(argv[i], "--", 2) &&
		   bench_opt_find_long(nice_opts, argv[i] + 2)) {
		const struct bench_opt *o = bench_opt_find_long(nice_opts, argv[i] + 2);

		/* --help or --version */
		optind = i + 1;
		bench_opt_special("nice", nice_opts, o->code, argc, argv, err, errlen);
		return NULL;
	} else if (i < argc && argv[i][0] == '-' && argv[i][1]) {
		snprintf(err, errlen, "nice: invalid option '%s' (usage: %s)", argv[i], nice_usage);
		return NULL;
	}
	if (adj) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(adj, &end, 10);
		if (!*adj || *end) {
			snprintf(err, errlen, "nice: invalid adjustment '%s'", adj);
			return NULL;
		}
		/* coreutils clamps any integer; so does the range below */
		if (errno || v < 2 * MIN_NICE)
			v = 2 * MIN_NICE;
		if (v > 2 * MAX_NICE + 1)
			v = 2 * MAX_NICE + 1;
		sp.nice_adj = (int)v;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		snprintf(err, errlen,
			 "nice: no command (nice alone prints the niceness and runs no benchmark; usage: %s)",
			 nice_usage);
		return NULL;
	}
	b = bench_parse(argc - i, argv + i, err, errlen);
	if (!b)
		return NULL;
	return add_prefix(b, &sp, "nice", err, errlen);
}

/* chrt's sched_setattr() request in @attr (its nice is the caller's) */
static void chrt_attr(const struct sched_prefix *sp, struct sched_attr *attr)
{
	attr->sched_policy = (u32)sp->policy;
	attr->sched_priority = (u32)sp->prio;
	attr->sched_runtime = sp->dl_runtime;
	attr->sched_deadline = sp->dl_deadline;
	attr->sched_period = sp->dl_period;
	attr->sched_flags = sp->reset_on_fork ? SCHED_FLAG_RESET_ON_FORK : 0;
}

bool bench_sched_attr(const struct bench *b, struct sched_attr *attr)
{
	int nice = 0;

	*attr = (struct sched_attr){ .sched_policy = SCHED_NORMAL };
	if (!b->nr_sched_prefix)
		return false;
	/* the outermost prefix ran first */
	for (unsigned int i = b->nr_sched_prefix; i-- > 0;) {
		const struct sched_prefix *sp = &b->sched_prefix[i];

		if (sp->is_nice)
			nice = clamp(nice + sp->nice_adj, MIN_NICE, MAX_NICE);
		else
			chrt_attr(sp, attr);
	}
	attr->sched_nice = nice;
	return true;
}

bool bench_prefix_fails(const struct bench *b, char *msg, size_t len)
{
	/* a taskset narrower than the root domain, where DL bandwidth is admitted */
	bool narrow = b->taskset_arg && !dl_affinity_covers_root_domain(b->taskset_cpus);
	bool dl = false, pinned = false;
	struct sched_attr attr = { 0 };

	/*
	 * step i: taskset first if the prefixes below i are inside it, then
	 * prefix i - 1; the outermost (the last) ran first
	 */
	for (unsigned int i = b->nr_sched_prefix + 1; i-- > 0;) {
		if (b->taskset_arg && i == b->taskset_inner) {
			/* dl_task_check_affinity() in __sched_setaffinity() */
			if (dl && narrow) {
				snprintf(msg, len,
					 "taskset: failed to set pid 0's affinity: Device or resource busy (the command is SCHED_DEADLINE, and its affinity must cover the root domain's CPUs; %s does not): exit status 1",
					 b->taskset_str);
				return true;
			}
			pinned = narrow;
		}
		if (!i || b->sched_prefix[i - 1].is_nice)
			continue;
		chrt_attr(&b->sched_prefix[i - 1], &attr);
		dl = dl_policy(attr.sched_policy);
		if (!dl)
			continue;
		/* __sched_setscheduler(user): the span check, then sched_dl_overflow() */
		if (pinned) {
			snprintf(msg, len,
				 "chrt: failed to set pid 0's policy: Operation not permitted (a SCHED_DEADLINE task must be allowed on every CPU of its root domain; taskset gave %s): exit status 1",
				 b->taskset_str);
			return true;
		}
		/* none of the benchmark's bandwidth is taken yet: a new reservation */
		if (sched_dl_new_overflows(&attr)) {
			snprintf(msg, len,
				 "chrt: failed to set pid 0's policy: Device or resource busy (SCHED_DEADLINE admission control: %llu/%llu ns does not fit in what the root domain has left): exit status 1",
				 (unsigned long long)attr.sched_runtime,
				 (unsigned long long)(attr.sched_period ? attr.sched_period :
									  attr.sched_deadline));
			return true;
		}
	}
	return false;
}

void bench_sched_attr_str(const struct sched_attr *attr, char *buf, size_t len)
{
	static const char *const names[] = {
		[SCHED_NORMAL] = "SCHED_OTHER", [SCHED_FIFO] = "SCHED_FIFO", [SCHED_RR] = "SCHED_RR",
		[SCHED_BATCH] = "SCHED_BATCH",	[4] = "?",		     [SCHED_IDLE] = "SCHED_IDLE",
	};
	const char *name = attr->sched_policy < ARRAY_SIZE(names) ? names[attr->sched_policy] : "?";
	const char *rof = attr->sched_flags & SCHED_FLAG_RESET_ON_FORK ? "|SCHED_RESET_ON_FORK" : "";

	if (dl_policy(attr->sched_policy))
		/* chrt -v's runtime/deadline/period */
		snprintf(buf, len, "SCHED_DEADLINE%s %llu/%llu/%llu", rof,
			 (unsigned long long)attr->sched_runtime,
			 (unsigned long long)attr->sched_deadline,
			 (unsigned long long)attr->sched_period);
	else if (rt_policy(attr->sched_policy))
		snprintf(buf, len, "%s%s %u", name, rof, attr->sched_priority);
	else
		snprintf(buf, len, "%s%s nice %d", name, rof, attr->sched_nice);
}
