// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng's command line (stress-ng.c stress_opts_parse(), 0.22.00), for
 * the stressors schedlab models: --cpu, --switch, --yield, --pipe and
 * --affinity with their options, --timeout, --sched, --sched-prio,
 * --metrics and --metrics-brief. The options are stress_opts[]
 * (work/bench_tools.c).
 *
 * As in stress-ng, a NAME-ops budget belongs to the stressor named last
 * (g_item_current), whatever NAME says; a stressor's other options are
 * settings read wherever they stand. Where stress-ng would quietly do
 * something surprising with that (a budget before any stressor, or after
 * another stressor), schedlab refuses and says so.
 */
#include "work/stress.h"

#include "sim/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_u64(const char *opt, const char *s, u64 lo, u64 hi, u64 *out, char *err,
		     size_t errlen)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || s[0] == '+' || v < lo || v > hi) {
		snprintf(err, errlen, "stress-ng: %s needs an integer in %llu..%llu, got '%s'", opt,
			 (unsigned long long)lo, (unsigned long long)hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_uint(const char *opt, const char *s, unsigned int lo, unsigned int hi,
		      unsigned int *out, char *err, size_t errlen)
{
	u64 v;

	if (parse_u64(opt, s, lo, hi, &v, err, errlen))
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* stress_get_uint64_byte_memory(): bytes, with a B, K, M or G suffix */
static int parse_bytes(const char *opt, const char *s, u64 lo, u64 hi, unsigned int *out, char *err,
		       size_t errlen)
{
	char *end;
	unsigned long long v;
	u64 mult = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end != s && end[0] && !end[1]) {
		switch (end[0] | 0x20) {
		case 'b':
			mult = 1;
			end++;
			break;
		case 'k':
			mult = 1024;
			end++;
			break;
		case 'm':
			mult = 1024 * 1024;
			end++;
			break;
		case 'g':
			mult = 1024ULL * 1024 * 1024;
			end++;
			break;
		}
	}
	if (!*s || *end || errno || s[0] == '-' || v > hi || v * mult < lo || v * mult > hi) {
		snprintf(
			err, errlen,
			"stress-ng: %s needs a size of %llu to %llu bytes (a K, M or G suffix allowed), got '%s'",
			opt, (unsigned long long)lo, (unsigned long long)hi, s);
		return -1;
	}
	*out = (unsigned int)(v * mult);
	return 0;
}

/* stress-ng time values: plain seconds or with an s/m/h/d suffix */
static int parse_timeout(const char *s, u64 *ns, char *err, size_t errlen)
{
	char *end;
	unsigned long long v;
	u64 mult = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end != s && end[0] && !end[1]) {
		switch (*end) {
		case 's':
			mult = 1;
			end++;
			break;
		case 'm':
			mult = 60;
			end++;
			break;
		case 'h':
			mult = 3600;
			end++;
			break;
		case 'd':
			mult = 86400;
			end++;
			break;
		}
	}
	if (!*s || *end || errno || s[0] == '-' || v == 0 || v * mult > 7ULL * 86400) {
		snprintf(
			err, errlen,
			"stress-ng: --timeout needs a time of 1 s to 7 days (e.g. 10, 30s, 2m), got '%s'",
			s);
		return -1;
	}
	*ns = v * mult * NSEC_PER_SEC;
	return 0;
}

/* core-sched.c stress_sched_types[]: the policies --sched and --yield-sched name */
static int parse_policy(const char *opt, const char *s, int *policy, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		int policy;
	} types[] = {
		{ "batch", SCHED_BATCH }, { "deadline", -2 },	     { "fifo", SCHED_FIFO },
		{ "idle", SCHED_IDLE },	  { "other", SCHED_NORMAL }, { "ext", -2 },
		{ "rr", SCHED_RR },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (strcmp(s, types[i].name))
			continue;
		/* only --sched takes deadline: --yield-sched's is not modelled */
		if (!strcmp(s, "deadline") && !strcmp(opt, "--sched")) {
			*policy = SCHED_DEADLINE;
			return 0;
		}
		if (types[i].policy == -2) {
			snprintf(err, errlen, "stress-ng: %s %s is not modelled: SCHED_%s", opt, s,
				 !strcmp(s, "ext") ? "EXT (sched_ext)" : "DEADLINE");
			return -1;
		}
		*policy = types[i].policy;
		return 0;
	}
	snprintf(
		err, errlen,
		"stress-ng: invalid %s option: %s (available: batch deadline fifo idle other ext rr)",
		opt + 2, s);
	return -1;
}

/* the stressor an option's code starts, or -1 */
static int stressor_of(int code)
{
	switch (code) {
	case SO_CPU:
		return STRESS_CPU;
	case SO_SWITCH:
		return STRESS_SWITCH;
	case SO_YIELD:
		return STRESS_YIELD;
	case SO_PIPE:
		return STRESS_PIPE;
	case SO_AFFINITY:
		return STRESS_AFFINITY;
	}
	return -1;
}

/* the stressor whose NAME-ops @code is, or -1 */
static int ops_of(int code)
{
	switch (code) {
	case SO_CPU_OPS:
		return STRESS_CPU;
	case SO_SWITCH_OPS:
		return STRESS_SWITCH;
	case SO_YIELD_OPS:
		return STRESS_YIELD;
	case SO_PIPE_OPS:
		return STRESS_PIPE;
	case SO_AFFINITY_OPS:
		return STRESS_AFFINITY;
	}
	return -1;
}

/* the stressor a setting belongs to, or -1 for a global option */
static int setting_of(int code)
{
	switch (code) {
	case SO_CPU_LOAD:
	case SO_CPU_LOAD_SLICE:
	case SO_CPU_METHOD:
		return STRESS_CPU;
	case SO_SWITCH_FREQ:
	case SO_SWITCH_METHOD:
		return STRESS_SWITCH;
	case SO_YIELD_PROCS:
	case SO_YIELD_SCHED:
		return STRESS_YIELD;
	case SO_PIPE_DATA_SIZE:
	case SO_PIPE_SIZE:
	case SO_PIPE_READERS:
	case SO_PIPE_WRITERS:
		return STRESS_PIPE;
	case SO_AFFINITY_DELAY:
	case SO_AFFINITY_PROCS:
	case SO_AFFINITY_RAND:
	case SO_AFFINITY_SLEEP:
		return STRESS_AFFINITY;
	}
	return -1;
}

/* each setting's value until the stressors are known (stress_setting_get()) */
struct settings {
	unsigned int cpu_load;
	int cpu_load_slice;
	u64 switch_freq;
	unsigned int yield_procs;
	int yield_sched;
	unsigned int pipe_data_size, pipe_size, pipe_readers, pipe_writers;
	unsigned int affinity_procs;
	u64 affinity_delay, affinity_sleep;
	bool affinity_rand;
	bool given[NR_STRESSOR_KINDS]; /* a setting of that stressor was given */
	char first[NR_STRESSOR_KINDS][64];
};

static int take_setting(struct settings *st, int c, const char *arg, const char *opt, char *err,
			size_t errlen)
{
	int kind = setting_of(c);

	if (kind >= 0 && !st->given[kind]) {
		st->given[kind] = true;
		snprintf(st->first[kind], sizeof(st->first[kind]), "%s", opt);
	}
	switch (c) {
	case SO_CPU_LOAD:
		return parse_uint("--cpu-load", arg, 0, 100, &st->cpu_load, err, errlen);
	case SO_CPU_LOAD_SLICE: {
		char *end;
		long s = strtol(arg, &end, 10);

		if (!*arg || *end || s < -100000 || s > 100000) {
			snprintf(
				err, errlen,
				"stress-ng: --cpu-load-slice needs an integer in -100000..100000, got '%s'",
				arg);
			return -1;
		}
		st->cpu_load_slice = (int)s;
		return 0;
	}
	case SO_CPU_METHOD:
		if (strcmp(arg, "all")) {
			snprintf(err, errlen,
				 "stress-ng: --cpu-method '%s' is not modelled (only 'all')", arg);
			return -1;
		}
		return 0;
	case SO_SWITCH_FREQ:
		return parse_u64("--switch-freq", arg, 0, NSEC_PER_SEC, &st->switch_freq, err,
				 errlen);
	case SO_SWITCH_METHOD:
		if (!strcmp(arg, "pipe"))
			return 0;
		if (!strcmp(arg, "mq") || !strcmp(arg, "sem-sysv"))
			snprintf(err, errlen,
				 "stress-ng: --switch-method %s is not modelled: %s (only pipe)",
				 arg,
				 !strcmp(arg, "mq") ? "POSIX message queues" :
						      "System V semaphores");
		else
			snprintf(
				err, errlen,
				"stress-ng: --switch-method must be one of: mq pipe sem-sysv, got '%s'",
				arg);
		return -1;
	case SO_YIELD_PROCS:
		return parse_uint("--yield-procs", arg, 1, 65536, &st->yield_procs, err, errlen);
	case SO_YIELD_SCHED:
		return parse_policy("--yield-sched", arg, &st->yield_sched, err, errlen);
	case SO_PIPE_DATA_SIZE:
		/* MIN_PIPE_DATA_SIZE to a page */
		return parse_bytes("--pipe-data-size", arg, 8, 4096, &st->pipe_data_size, err,
				   errlen);
	case SO_PIPE_SIZE:
		/* a page to /proc/sys/fs/pipe-max-size (1 MiB) */
		return parse_bytes("--pipe-size", arg, 4096, 1048576, &st->pipe_size, err, errlen);
	case SO_PIPE_READERS:
		return parse_uint("--pipe-readers", arg, 1, 64, &st->pipe_readers, err, errlen);
	case SO_PIPE_WRITERS:
		return parse_uint("--pipe-writers", arg, 1, 64, &st->pipe_writers, err, errlen);
	case SO_AFFINITY_PROCS:
		return parse_uint("--affinity-procs", arg, 2, 1024, &st->affinity_procs, err,
				  errlen);
	case SO_AFFINITY_DELAY:
		return parse_u64("--affinity-delay", arg, 0, NSEC_PER_SEC, &st->affinity_delay, err,
				 errlen);
	case SO_AFFINITY_SLEEP:
		return parse_u64("--affinity-sleep", arg, 0, NSEC_PER_SEC, &st->affinity_sleep, err,
				 errlen);
	case SO_AFFINITY_RAND:
		st->affinity_rand = true;
		return 0;
	}
	return 1;
}

int stress_parse(struct bench *b, int argc, char **argv, bool background, char *err, size_t errlen)
{
	static const char tool[] = "stress-ng";
	struct stress_conf *c = xcalloc(1, sizeof(*c));
	struct settings st = {
		.cpu_load = 100,
		.cpu_load_slice = -64,
		.yield_sched = STRESS_SCHED_NONE,
		.pipe_data_size = 4096,
		.pipe_readers = 1,
		.pipe_writers = 1,
		.affinity_procs = 16,
	};
	struct stressor *last = NULL;
	struct bench_getopt g;
	unsigned int prio;
	int opt;

	b->kind = BENCH_STRESS_NG;
	b->stress = c;
	c->sched_policy = STRESS_SCHED_NONE;
	c->sched_prio = -1;
	c->sched_runtime = 10000;
	bench_getopt_init(&g, stress_opts, "+");
	while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		const struct bench_opt *o = bench_opt_find(stress_opts, opt);
		int kind = stressor_of(opt), ops = ops_of(opt), r;
		char name[64];
		u64 v;

		if (bench_opt_special(tool, stress_opts, opt, argc, argv, err, errlen))
			return -1;
		if (!o) {
			if (optopt && bench_opt_find(stress_opts, optopt))
				snprintf(err, errlen, "stress-ng: option '%s' needs a value",
					 argv[optind - 1]);
			else
				snprintf(
					err, errlen,
					"stress-ng: unknown option '%s' ('schedlab benchmarks stress-ng' lists the options)",
					argv[optind - 1]);
			return -1;
		}
		snprintf(name, sizeof(name), "--%s", o->long_name);
		if (kind >= 0) {
			for (unsigned int i = 0; i < c->nr; i++) {
				if (c->s[i].kind == (enum stressor_kind)kind) {
					snprintf(
						err, errlen,
						"stress-ng: --%s given twice: stress-ng would run two %s stressors; name it once",
						stressor_names[kind], stressor_names[kind]);
					return -1;
				}
			}
			char o[32];

			last = &c->s[c->nr++];
			last->kind = (enum stressor_kind)kind;
			snprintf(o, sizeof(o), "--%s", stressor_names[kind]);
			if (parse_uint(o, optarg, 0, STRESS_PROCS_MAX, &last->instances, err,
				       errlen))
				return -1;
			continue;
		}
		if (ops >= 0) {
			char o[32];

			snprintf(o, sizeof(o), "--%s-ops", stressor_names[ops]);
			if (parse_u64(o, optarg, STRESS_MIN_OPS, STRESS_MAX_OPS, &v, err, errlen))
				return -1;
			/* stress-ng gives the budget to the stressor named last */
			if (!last) {
				snprintf(
					err, errlen,
					"stress-ng: %s before --%s is ignored by stress-ng (it applies to the stressor named before it): put it after --%s",
					o, stressor_names[ops], stressor_names[ops]);
				return -1;
			}
			if (last->kind != (enum stressor_kind)ops) {
				snprintf(
					err, errlen,
					"stress-ng: %s after --%s would set the %s stressor's budget in stress-ng (an -ops option applies to the stressor named last): put it right after --%s",
					o, stressor_names[last->kind], stressor_names[last->kind],
					stressor_names[ops]);
				return -1;
			}
			last->max_ops = v;
			continue;
		}
		r = take_setting(&st, opt, optarg, name, err, errlen);
		if (r <= 0) {
			if (r < 0)
				return -1;
			continue;
		}
		switch (opt) {
		case SO_TIMEOUT:
			if (parse_timeout(optarg, &b->timeout_ns, err, errlen))
				return -1;
			break;
		case SO_METRICS:
			c->metrics = true;
			break;
		case SO_METRICS_BRIEF:
			c->metrics = c->metrics_brief = true;
			break;
		case SO_SCHED:
			if (parse_policy("--sched", optarg, &c->sched_policy, err, errlen))
				return -1;
			break;
		case SO_SCHED_PRIO:
			if (parse_uint("--sched-prio", optarg, 1, 99, &prio, err, errlen))
				return -1;
			c->sched_prio = (int)prio;
			break;
		/* stress_get_uint64(): any u64 */
		case SO_SCHED_PERIOD:
			if (parse_u64("--sched-period", optarg, 0, UINT64_MAX, &c->sched_period, err,
				      errlen))
				return -1;
			break;
		case SO_SCHED_RUNTIME:
			if (parse_u64("--sched-runtime", optarg, 0, UINT64_MAX, &c->sched_runtime, err,
				      errlen))
				return -1;
			break;
		case SO_SCHED_DEADLINE:
			if (parse_u64("--sched-deadline", optarg, 0, UINT64_MAX, &c->sched_deadline,
				      err, errlen))
				return -1;
			break;
		case SO_SCHED_RECLAIM:
			c->sched_reclaim = true;
			break;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "stress-ng: unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!c->nr) {
		snprintf(
			err, errlen,
			"stress-ng: no stressor: give --cpu, --switch, --yield, --pipe or --affinity N ('schedlab benchmarks stress-ng')");
		return -1;
	}
	for (int k = 0; k < NR_STRESSOR_KINDS; k++) {
		bool named = false;

		for (unsigned int i = 0; i < c->nr; i++)
			named |= c->s[i].kind == (enum stressor_kind)k;
		if (st.given[k] && !named) {
			snprintf(
				err, errlen,
				"stress-ng: %s without --%s: stress-ng ignores it; name the stressor",
				st.first[k], stressor_names[k]);
			return -1;
		}
	}
	for (unsigned int i = 0; i < c->nr; i++) {
		struct stressor *s = &c->s[i];

		s->cpu_load = st.cpu_load;
		s->cpu_load_slice = st.cpu_load_slice;
		s->switch_freq = st.switch_freq;
		s->yield_procs = st.yield_procs;
		s->yield_sched = st.yield_sched;
		s->pipe_data_size = st.pipe_data_size;
		s->pipe_size = st.pipe_size;
		s->pipe_readers = st.pipe_readers;
		s->pipe_writers = st.pipe_writers;
		s->affinity_procs = st.affinity_procs;
		s->affinity_delay_ns = st.affinity_delay;
		s->affinity_sleep_ns = st.affinity_sleep;
		s->affinity_rand = st.affinity_rand;
		/*
		 * an admitted DL instance's sched_setaffinity() to one CPU
		 * fails (dl_task_check_affinity(): EBUSY) every loop, and
		 * stress-ng's pr_fail() path is not modelled
		 */
		if (s->kind == STRESS_AFFINITY && c->sched_policy == SCHED_DEADLINE) {
			snprintf(
				err, errlen,
				"stress-ng: --affinity with --sched deadline is not modelled: the instance's sched_setaffinity() to one CPU fails with EBUSY (a SCHED_DEADLINE task's affinity must cover the root domain), and stress-ng's pr_fail() path is not modelled");
			return -1;
		}
		if (background || b->timeout_ns)
			continue;
		/* the yield stressor's parent counts its yielders' ops only at the end */
		if (s->kind == STRESS_YIELD) {
			snprintf(
				err, errlen,
				"stress-ng: --yield runs until --timeout (its parent adds the yielders' bogo ops only at the end, so --yield-ops does not stop it): give --timeout");
			return -1;
		}
		if (!s->max_ops) {
			snprintf(
				err, errlen,
				"stress-ng: give --timeout or --%s-ops (stress-ng's own default runs for a day)",
				stressor_names[s->kind]);
			return -1;
		}
	}
	return 0;
}
