// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app's JSON workload files, read with json-c as rt-app reads them
 * (scheduler-tools/rt-app src/rt-app_parse_config.c, commit 55cb0c0): the
 * tokener's default mode, which takes C and C++ comments and trailing
 * commas; objects are walked in file order (json-c keeps insertion order),
 * so "run0", "sleep0", "run1" are events in that order. Events are known by
 * the prefix of their key, in rt-app's order of tests.
 *
 * Where rt-app would go on with a mistake (an unknown key is ignored, a
 * wrong type becomes a default, a fork of an unknown task fails mid-run, a
 * lock never unlocked deadlocks), this parser stops with exit status 2 and
 * one line naming the file, the line and the key.
 */
/* before kernel/sched.h, whose `current` macro would rename a json-c field */
#include <json-c/json.h>

#include "work/rtapp.h"

#include "sim/alloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct pctx {
	const char *file;
	const char *text;
	size_t len;
	char *err;
	size_t errlen;
	struct rtapp_config *c;
	bool background;
};

static unsigned int line_of(const struct pctx *x, size_t off)
{
	unsigned int line = 1;

	for (size_t i = 0; i < off && i < x->len; i++)
		if (x->text[i] == '\n')
			line++;
	return line;
}

static int fail(struct pctx *x, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct pctx *x, unsigned int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(x->err, x->errlen, "rt-app: %s:%u: %s", x->file, line, msg);
	else
		snprintf(x->err, x->errlen, "rt-app: %s: %s", x->file, msg);
	return -1;
}

/*
 * Where the member @key is written, searching from @from: its quoted name
 * followed by a colon. json-c keeps no positions; members are met in file
 * order, so each search starts where the previous member of the same object
 * was found. A name also written inside a comment or string before it can
 * mislead the search: only messages use the result.
 */
static size_t key_pos(const struct pctx *x, size_t from, const char *key)
{
	size_t kl = strlen(key);

	for (size_t i = from; i + kl + 2 <= x->len; i++) {
		size_t j;

		if (x->text[i] != '"' || memcmp(x->text + i + 1, key, kl) || x->text[i + 1 + kl] != '"')
			continue;
		for (j = i + kl + 2; j < x->len && strchr(" \t\r\n", x->text[j]); j++)
			;
		if (j < x->len && x->text[j] == ':')
			return i;
	}
	return from;
}

static const char *type_name(struct json_object *o)
{
	return json_type_to_name(json_object_get_type(o));
}

/* an integer member of rt-app's int (json_object_get_int() range) */
static int get_int(struct pctx *x, struct json_object *v, const char *key, unsigned int line,
		   s64 lo, s64 hi, s64 *out)
{
	s64 n;

	if (!json_object_is_type(v, json_type_int))
		return fail(x, line, "%s: expected an integer, got %s", key, type_name(v));
	errno = 0;
	n = json_object_get_int64(v);
	if (errno || n < lo || n > hi || n < INT_MIN || n > INT_MAX)
		return fail(x, line, "%s: %lld is out of range %lld..%lld", key, (long long)n,
			    (long long)lo, (long long)hi);
	*out = n;
	return 0;
}

static int get_bool(struct pctx *x, struct json_object *v, const char *key, unsigned int line,
		    bool *out)
{
	if (!json_object_is_type(v, json_type_boolean))
		return fail(x, line, "%s: expected true or false, got %s", key, type_name(v));
	*out = json_object_get_boolean(v);
	return 0;
}

static int get_str(struct pctx *x, struct json_object *v, const char *key, unsigned int line,
		   const char **out)
{
	if (!json_object_is_type(v, json_type_string))
		return fail(x, line, "%s: expected a string, got %s", key, type_name(v));
	*out = json_object_get_string(v);
	return 0;
}

const char *rtapp_policy_name(enum rtapp_policy policy)
{
	switch (policy) {
	case RTAPP_SCHED_OTHER:
		return "SCHED_OTHER";
	case RTAPP_SCHED_BATCH:
		return "SCHED_BATCH";
	case RTAPP_SCHED_IDLE:
		return "SCHED_IDLE";
	case RTAPP_SCHED_FIFO:
		return "SCHED_FIFO";
	case RTAPP_SCHED_RR:
		return "SCHED_RR";
	case RTAPP_SCHED_DEADLINE:
		return "SCHED_DEADLINE";
	default:
		return "SCHED_OTHER";
	}
}

static int policy_parse(const char *s, enum rtapp_policy *out)
{
	for (int p = RTAPP_SCHED_OTHER; p <= RTAPP_SCHED_DEADLINE; p++) {
		if (!strcmp(s, rtapp_policy_name((enum rtapp_policy)p))) {
			*out = (enum rtapp_policy)p;
			return 0;
		}
	}
	return -1;
}

/* ---- resources: created by name and type as events name them ---- */

static int resource_index(struct rtapp_config *c, const char *name, enum rtapp_res_type type)
{
	unsigned int i;

	for (i = 0; i < c->nr_res; i++)
		if (c->res[i].type == type && !strcmp(c->res[i].name, name))
			return (int)i;
	c->res = xreallocarray(c->res, c->nr_res + 1, sizeof(*c->res));
	c->res[i] = (struct rtapp_resource){ .name = xstrdup(name), .type = type,
					     .barrier_waiting = -1, .relative = true };
	c->nr_res++;
	return (int)i;
}

/* ---- events ---- */

static bool prefix(const char *key, const char *p)
{
	return !strncmp(key, p, strlen(p));
}

/* rt-app's events[] table: a key starting with one of these is an event */
static const char *const event_prefixes[] = {
	"lock", "unlock", "wait", "signal", "broad", "sync", "sleep", "runtime", "run", "timer",
	"suspend", "resume", "memrun", "mem", "iorun", "yield", "barrier", "fork", "sem_post",
	"sem_wait", NULL,
};

static bool is_event(const char *key)
{
	for (const char *const *p = event_prefixes; *p; p++)
		if (prefix(key, *p))
			return true;
	return false;
}

/* a {"ref": ..., "mutex": ...} object of wait and sync: both are required here */
static int get_ref_mutex(struct pctx *x, struct json_object *v, const char *key,
			 unsigned int line, const char **ref, const char **mutex)
{
	struct json_object *r, *m;

	if (!json_object_is_type(v, json_type_object))
		return fail(x, line, "%s: expected an object {\"ref\": COND, \"mutex\": MUTEX}, got %s",
			    key, type_name(v));
	json_object_object_foreach(v, k, val) {
		(void)val;
		if (strcmp(k, "ref") && strcmp(k, "mutex"))
			return fail(x, line, "%s: unknown key \"%s\" (ref, mutex)", key, k);
	}
	if (!json_object_object_get_ex(v, "ref", &r) || !json_object_object_get_ex(v, "mutex", &m))
		return fail(x, line, "%s: needs both \"ref\" (the condition) and \"mutex\"", key);
	if (get_str(x, r, "ref", line, ref) || get_str(x, m, "mutex", line, mutex))
		return -1;
	return 0;
}

static int parse_timer(struct pctx *x, const struct rtapp_task *t, struct json_object *v,
		       const char *key, unsigned int line, struct rtapp_event *e)
{
	const char *ref = "unknown", *mode = "relative";
	bool has_period = false;
	s64 period = 0;
	int r;

	if (!json_object_is_type(v, json_type_object))
		return fail(x, line, "%s: expected an object {\"ref\", \"period\", \"mode\"}, got %s",
			    key, type_name(v));
	json_object_object_foreach(v, k, val) {
		if (!strcmp(k, "ref")) {
			if (get_str(x, val, "ref", line, &ref))
				return -1;
		} else if (!strcmp(k, "period")) {
			if (get_int(x, val, "period", line, 0, INT_MAX, &period))
				return -1;
			has_period = true;
		} else if (!strcmp(k, "mode")) {
			if (get_str(x, val, "mode", line, &mode))
				return -1;
			if (strcmp(mode, "absolute") && strcmp(mode, "relative"))
				return fail(x, line, "%s: mode \"%s\" (absolute, relative)", key, mode);
		} else {
			return fail(x, line, "%s: unknown key \"%s\" (ref, period, mode)", key, k);
		}
	}
	if (!has_period)
		return fail(x, line, "%s: no \"period\" (rt-app would use 0: no period at all)", key);
	e->type = RTAPP_EV_TIMER;
	e->duration = period;
	/*
	 * "unique..." timers are each thread's own (rt-app names them after
	 * the task description and copies them per thread), the others are
	 * shared by name
	 */
	if (prefix(ref, "unique")) {
		char *name = xmalloc(strlen(ref) + strlen(t->name) + 2);

		sprintf(name, "%s@%s", ref, t->name);
		r = resource_index(x->c, name, RTAPP_RES_TIMER_UNIQUE);
		free(name);
	} else {
		r = resource_index(x->c, ref, RTAPP_RES_TIMER);
	}
	e->res = r;
	/* rt-app: the mode of the last timer event naming it wins */
	x->c->res[r].relative = strcmp(mode, "absolute") != 0;
	return 0;
}

static int parse_event(struct pctx *x, struct rtapp_task *t, const char *key,
		       struct json_object *v, unsigned int line, struct rtapp_event *e)
{
	struct rtapp_config *c = x->c;
	const char *s, *mutex;
	s64 n;

	*e = (struct rtapp_event){ .key = xstrdup(key), .line = line, .res = -1, .dep = -1,
				   .fork_task = -1 };
	/* in parse_task_event_data()'s order: "runtime" before "run", "memrun" before "mem" */
	if (prefix(key, "run") || prefix(key, "sleep")) {
		if (get_int(x, v, key, line, 0, INT_MAX, &n))
			return -1;
		e->duration = n;
		e->type = prefix(key, "sleep") ? RTAPP_EV_SLEEP :
			  prefix(key, "runtime") ? RTAPP_EV_RUNTIME : RTAPP_EV_RUN;
		return 0;
	}
	if (prefix(key, "memrun") || prefix(key, "mem") || prefix(key, "iorun"))
		return fail(x, line,
			    "task %s: event %s: memory and I/O load (mem, memrun, iorun) is not modelled",
			    t->name, key);
	if (prefix(key, "lock") || prefix(key, "unlock")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = prefix(key, "lock") ? RTAPP_EV_LOCK : RTAPP_EV_UNLOCK;
		e->res = resource_index(c, s, RTAPP_RES_MUTEX);
		return 0;
	}
	if (prefix(key, "signal") || prefix(key, "broad")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = prefix(key, "signal") ? RTAPP_EV_SIGNAL : RTAPP_EV_BROAD;
		e->res = resource_index(c, s, RTAPP_RES_COND);
		return 0;
	}
	if (prefix(key, "wait") || prefix(key, "sync")) {
		if (get_ref_mutex(x, v, key, line, &s, &mutex))
			return -1;
		e->type = prefix(key, "wait") ? RTAPP_EV_WAIT : RTAPP_EV_SYNC;
		e->res = resource_index(c, s, RTAPP_RES_COND);
		e->dep = resource_index(c, mutex, RTAPP_RES_MUTEX);
		return 0;
	}
	if (prefix(key, "barrier")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = RTAPP_EV_BARRIER;
		e->res = resource_index(c, s, RTAPP_RES_BARRIER);
		/* every use counts its task's instances, as in rt-app */
		c->res[e->res].barrier_waiting += t->instances;
		return 0;
	}
	if (prefix(key, "timer"))
		return parse_timer(x, t, v, key, line, e);
	if (prefix(key, "resume") || prefix(key, "suspend")) {
		/* suspend waits on its own task's name; its string is ignored */
		if (prefix(key, "resume")) {
			if (get_str(x, v, key, line, &s))
				return -1;
			e->type = RTAPP_EV_RESUME;
		} else {
			s = t->name;
			e->type = RTAPP_EV_SUSPEND;
		}
		e->res = resource_index(c, s, RTAPP_RES_COND);
		e->dep = resource_index(c, s, RTAPP_RES_MUTEX);
		return 0;
	}
	if (prefix(key, "yield")) {
		e->type = RTAPP_EV_YIELD;
		return 0;
	}
	if (prefix(key, "fork")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = RTAPP_EV_FORK;
		/* resolved once every task is known */
		e->ref = xstrdup(s);
		return 0;
	}
	if (prefix(key, "sem_post") || prefix(key, "sem_wait")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = prefix(key, "sem_post") ? RTAPP_EV_SEM_POST : RTAPP_EV_SEM_WAIT;
		e->res = resource_index(c, s, RTAPP_RES_SEM);
		return 0;
	}
	return fail(x, line, "task %s: unknown event %s", t->name, key);
}

/* ---- scheduling attributes ---- */

static const char *const unmodelled_keys[] = {
	"nodes_membind", "taskgroup", "util_min", "util_max", "dl-runtime", "dl-period",
	"dl-deadline", NULL,
};

static int unmodelled(struct pctx *x, const struct rtapp_task *t, const char *key,
		      unsigned int line)
{
	for (const char *const *k = unmodelled_keys; *k; k++)
		if (!strcmp(key, *k))
			return fail(x, line, "task %s: %s is not modelled (no NUMA, cgroups, uclamp or custom slices)",
				    t->name, key);
	return 0;
}

/* parse_sched_data(): "policy" and "priority" of a task (@def: the default) or a phase */
static int parse_sched(struct pctx *x, const struct rtapp_task *t, struct json_object *obj,
		       size_t pos, enum rtapp_policy def, struct rtapp_sched *sd)
{
	struct json_object *v;
	const char *s;
	s64 n;
	char perr[256];

	sd->policy = def;
	sd->line = line_of(x, pos);
	if (json_object_object_get_ex(obj, "policy", &v)) {
		sd->line = line_of(x, key_pos(x, pos, "policy"));
		if (get_str(x, v, "policy", sd->line, &s))
			return -1;
		if (policy_parse(s, &sd->policy))
			return fail(x, sd->line, "task %s: invalid policy %s (SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE)",
				    t->name, s);
	}
	switch (sd->policy) {
	case RTAPP_POLICY_SAME:
		sd->prio = RTAPP_PRIO_UNCHANGED;
		break;
	case RTAPP_SCHED_FIFO:
	case RTAPP_SCHED_RR:
		sd->prio = RTAPP_DEFAULT_RT_PRIO;
		break;
	case RTAPP_SCHED_DEADLINE:
		sd->prio = 0;
		break;
	default:
		sd->prio = RTAPP_DEFAULT_NICE;
	}
	if (json_object_object_get_ex(obj, "priority", &v)) {
		unsigned int pl = line_of(x, key_pos(x, pos, "priority"));

		if (get_int(x, v, "priority", pl, INT_MIN, INT_MAX, &n))
			return -1;
		sd->prio = (int)n;
		if (!sd->line || sd->policy == RTAPP_POLICY_SAME)
			sd->line = pl;
	}
	sd->set = sd->prio != RTAPP_PRIO_UNCHANGED;
	if (!sd->set)
		return 0;
	if (rtapp_apply_policy(NULL,
			       sd->policy == RTAPP_POLICY_SAME ? RTAPP_SCHED_OTHER : sd->policy,
			       sd->prio, perr, sizeof(perr)))
		return fail(x, sd->line, "task %s: %s", t->name, perr);
	return 0;
}

/* ---- phases and tasks ---- */

static void free_phase(struct rtapp_phase *ph)
{
	for (unsigned int i = 0; i < ph->nr_events; i++) {
		free(ph->events[i].key);
		free(ph->events[i].ref);
	}
	free(ph->events);
	free(ph->cpus);
	free(ph->name);
}

static int parse_cpus(struct pctx *x, const struct rtapp_task *t, struct json_object *v,
		      unsigned int line, int **cpus, unsigned int *nr, unsigned int *cpus_line);

/*
 * One phase (or a task without "phases": the task object itself, @is_task).
 * Keys that are not events are the phase's attributes; a task's own ones
 * are handled by its caller and skipped here.
 */
static int parse_phase(struct pctx *x, struct rtapp_task *t, const char *name,
		       struct json_object *obj, size_t pos, bool is_task, struct rtapp_phase *ph)
{
	size_t cur = pos;
	s64 n;

	ph->name = xstrdup(name);
	ph->line = line_of(x, pos);
	ph->loop = 1;
	json_object_object_foreach(obj, key, v) {
		unsigned int line;

		cur = key_pos(x, cur, key);
		line = line_of(x, cur);
		if (is_event(key)) {
			ph->events = xreallocarray(ph->events, ph->nr_events + 1,
						   sizeof(*ph->events));
			if (parse_event(x, t, key, v, line, &ph->events[ph->nr_events])) {
				ph->nr_events++;
				return -1;
			}
			ph->nr_events++;
		} else if (!strcmp(key, "loop")) {
			if (get_int(x, v, "loop", line, is_task ? -1 : 1, INT_MAX, &n))
				return -1;
			ph->loop = (int)n;
		} else if (!strcmp(key, "policy") || !strcmp(key, "priority")) {
			/* parse_sched() below */
		} else if (!strcmp(key, "cpus")) {
			/* a task's own are parsed by parse_task() */
			if (!is_task && parse_cpus(x, t, v, line, &ph->cpus, &ph->nr_cpus,
						   &ph->cpus_line))
				return -1;
		} else if (is_task && (!strcmp(key, "instance") || !strcmp(key, "delay") ||
				       !strcmp(key, "phases"))) {
			/* the task's own */
		} else if (unmodelled(x, t, key, line)) {
			return -1;
		} else {
			return fail(x, line, "task %s: unknown key \"%s\" (not an event or attribute rt-app knows)",
				    t->name, key);
		}
	}
	if (!ph->nr_events)
		return fail(x, ph->line, "task %s: no events found (a task must have events)", t->name);
	if (!is_task && parse_sched(x, t, obj, pos, RTAPP_POLICY_SAME, &ph->sched))
		return -1;
	return 0;
}

static int parse_cpus(struct pctx *x, const struct rtapp_task *t, struct json_object *v,
		      unsigned int line, int **cpus, unsigned int *nr, unsigned int *cpus_line)
{
	size_t n;

	if (!json_object_is_type(v, json_type_array))
		return fail(x, line, "task %s: cpus: expected an array of CPU numbers, got %s", t->name,
			    type_name(v));
	n = json_object_array_length(v);
	if (!n || n > RTAPP_MAX_CPUS_LISTED)
		return fail(x, line, "task %s: cpus: %zu CPUs listed (1..%d)", t->name, n,
			    RTAPP_MAX_CPUS_LISTED);
	*cpus = xcalloc(n, sizeof(**cpus));
	*nr = (unsigned int)n;
	*cpus_line = line;
	for (size_t i = 0; i < n; i++) {
		s64 cpu;

		if (get_int(x, json_object_array_get_idx(v, i), "cpus", line, 0, INT_MAX, &cpu))
			return -1;
		(*cpus)[i] = (int)cpu;
	}
	return 0;
}

static int parse_task(struct pctx *x, const char *name, struct json_object *obj, size_t pos,
		      struct rtapp_task *t)
{
	struct json_object *v, *phases;
	size_t cur;
	s64 n;

	t->name = xstrdup(name);
	t->line = line_of(x, pos);
	t->instances = 1;
	t->loop = -1;
	if (!json_object_is_type(obj, json_type_object))
		return fail(x, t->line, "task %s: expected an object, got %s", name, type_name(obj));
	if (json_object_object_get_ex(obj, "instance", &v)) {
		if (get_int(x, v, "instance", line_of(x, key_pos(x, pos, "instance")), 0,
			    RTAPP_MAX_THREADS, &n))
			return -1;
		t->instances = (int)n;
	}
	if (json_object_object_get_ex(obj, "delay", &v)) {
		if (get_int(x, v, "delay", line_of(x, key_pos(x, pos, "delay")), 0, INT_MAX, &n))
			return -1;
		t->delay_us = n;
	}
	if (json_object_object_get_ex(obj, "cpus", &v) &&
	    parse_cpus(x, t, v, line_of(x, key_pos(x, pos, "cpus")), &t->cpus, &t->nr_cpus,
		       &t->cpus_line))
		return -1;
	if (parse_sched(x, t, obj, pos, x->c->default_policy, &t->sched))
		return -1;
	if (!json_object_object_get_ex(obj, "phases", &phases)) {
		/* the task is its only phase; "loop" there bounds the phase, the task runs once */
		t->phases = xcalloc(1, sizeof(*t->phases));
		t->nr_phases = 1;
		if (parse_phase(x, t, name, obj, pos, true, &t->phases[0]))
			return -1;
		t->loop = json_object_object_get_ex(obj, "loop", &v) ? 1 : -1;
		/* rt-app counts a phase's loops up from 1: 0 and -1 are never reached */
		if (t->phases[0].loop <= 0) {
			t->phases[0].loop = 1;
			t->loop = -1;
		}
		return 0;
	}
	cur = key_pos(x, pos, "phases");
	if (!json_object_is_type(phases, json_type_object))
		return fail(x, line_of(x, cur), "task %s: phases: expected an object, got %s", name,
			    type_name(phases));
	/* the task's own keys: anything else but events is unknown here */
	json_object_object_foreach(obj, key, tv) {
		unsigned int line = line_of(x, key_pos(x, pos, key));

		(void)tv;
		if (!strcmp(key, "loop")) {
			if (get_int(x, tv, "loop", line, -1, INT_MAX, &n))
				return -1;
			t->loop = (int)n;
		} else if (!strcmp(key, "instance") || !strcmp(key, "delay") ||
			   !strcmp(key, "cpus") || !strcmp(key, "phases") ||
			   !strcmp(key, "policy") || !strcmp(key, "priority")) {
			/* done above */
		} else if (is_event(key)) {
			return fail(x, line, "task %s: event %s beside \"phases\" (events go in a phase)",
				    name, key);
		} else if (unmodelled(x, t, key, line)) {
			return -1;
		} else {
			return fail(x, line, "task %s: unknown key \"%s\"", name, key);
		}
	}
	t->nr_phases = (unsigned int)json_object_object_length(phases);
	if (!t->nr_phases)
		return fail(x, line_of(x, cur), "task %s: phases: no phase", name);
	t->phases = xcalloc(t->nr_phases, sizeof(*t->phases));
	{
		unsigned int i = 0;

		json_object_object_foreach(phases, pname, pv) {
			cur = key_pos(x, cur, pname);
			if (!json_object_is_type(pv, json_type_object))
				return fail(x, line_of(x, cur), "task %s: phase %s: expected an object, got %s",
					    name, pname, type_name(pv));
			if (parse_phase(x, t, pname, pv, cur, false, &t->phases[i++]))
				return -1;
		}
	}
	return 0;
}

/* ---- checks over the whole file ---- */

/*
 * The mutexes a task holds along its events, phase by phase (a phase run
 * twice when it leaves a lock held, to meet the second lock): locking one
 * it holds deadlocks (a default pthread mutex), unlocking one it does not
 * hold is undefined, waiting on a condition needs its mutex, and every lock
 * must be released before the sequence starts over or the thread ends.
 */
static int check_locks(struct pctx *x, const struct rtapp_task *t)
{
	struct rtapp_config *c = x->c;
	bool *held = xcalloc(c->nr_res ? c->nr_res : 1, sizeof(*held));
	int rc = 0;

	for (unsigned int p = 0; p < t->nr_phases && !rc; p++) {
		const struct rtapp_phase *ph = &t->phases[p];
		unsigned int passes = ph->loop > 1 ? 2 : 1;

		for (unsigned int pass = 0; pass < passes && !rc; pass++) {
			for (unsigned int i = 0; i < ph->nr_events && !rc; i++) {
				const struct rtapp_event *e = &ph->events[i];
				const char *m;

				switch (e->type) {
				case RTAPP_EV_LOCK:
					m = c->res[e->res].name;
					if (held[e->res])
						rc = fail(x, e->line, "task %s: %s: mutex %s is already held by this task (no unlock since the last lock): it would deadlock",
							  t->name, e->key, m);
					held[e->res] = true;
					break;
				case RTAPP_EV_UNLOCK:
					m = c->res[e->res].name;
					if (!held[e->res])
						rc = fail(x, e->line, "task %s: %s: mutex %s is not held by this task",
							  t->name, e->key, m);
					held[e->res] = false;
					break;
				case RTAPP_EV_WAIT:
				case RTAPP_EV_SYNC:
					m = c->res[e->dep].name;
					if (!held[e->dep])
						rc = fail(x, e->line, "task %s: %s: mutex %s must be locked before waiting (pthread_cond_wait)",
							  t->name, e->key, m);
					break;
				default:
					break;
				}
			}
		}
	}
	for (unsigned int r = 0; r < c->nr_res && !rc; r++)
		if (held[r])
			rc = fail(x, t->line, "task %s: mutex %s is locked and never unlocked: the task would deadlock or end holding it",
				  t->name, c->res[r].name);
	free(held);
	return rc;
}

static int check_file(struct pctx *x)
{
	struct rtapp_config *c = x->c;

	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		struct rtapp_task *t = &c->tasks[i];

		for (unsigned int p = 0; p < t->nr_phases; p++) {
			for (unsigned int k = 0; k < t->phases[p].nr_events; k++) {
				struct rtapp_event *e = &t->phases[p].events[k];
				const char *ref;
				unsigned int j;

				if (e->type != RTAPP_EV_FORK)
					continue;
				ref = e->ref;
				for (j = 0; j < c->nr_tasks; j++)
					if (!strcmp(c->tasks[j].name, ref))
						break;
				if (j == c->nr_tasks)
					return fail(x, e->line, "task %s: %s: can't fork unknown task %s",
						    t->name, e->key, ref);
				e->fork_task = (int)j;
				c->tasks[j].forked = true;
			}
		}
		if (check_locks(x, t))
			return -1;
	}
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		const struct rtapp_task *t = &c->tasks[i];

		if ((t->instances || t->forked) && t->loop == -1 && c->duration_s <= 0 &&
		    !x->background)
			return fail(x, t->line,
				    "task %s loops forever (no \"loop\") and global \"duration\" is not set: the run would never end",
				    t->name);
	}
	return 0;
}

/* ---- global ---- */

static int parse_global(struct pctx *x, struct json_object *g, size_t pos)
{
	struct rtapp_config *c = x->c;
	bool log_disabled = false;
	size_t cur = pos;
	const char *s;
	s64 n;

	if (!json_object_is_type(g, json_type_object))
		return fail(x, line_of(x, pos), "global: expected an object, got %s", type_name(g));
	json_object_object_foreach(g, key, v) {
		unsigned int line;

		cur = key_pos(x, cur, key);
		line = line_of(x, cur);
		if (!strcmp(key, "duration")) {
			if (get_int(x, v, key, line, -1, INT_MAX, &n))
				return -1;
			c->duration_s = n;
		} else if (!strcmp(key, "calibration")) {
			c->calib_line = line;
			if (json_object_is_type(v, json_type_int)) {
				if (get_int(x, v, key, line, 1, INT_MAX, &n))
					return -1;
				c->calib_ns_per_loop = (int)n;
			} else {
				char *end;

				if (get_str(x, v, key, line, &s))
					return -1;
				if (strncmp(s, "CPU", 3) || !s[3] || (c->calib_cpu = (int)strtol(s + 3, &end, 10)) < 0 || *end)
					return fail(x, line, "calibration: \"%s\" is neither ns per loop nor \"CPUn\"", s);
				c->calib_ns_per_loop = 0;
			}
		} else if (!strcmp(key, "default_policy")) {
			if (get_str(x, v, key, line, &s))
				return -1;
			if (policy_parse(s, &c->default_policy))
				return fail(x, line, "default_policy: invalid policy %s", s);
		} else if (!strcmp(key, "pi_enabled")) {
			if (get_bool(x, v, key, line, &c->pi_enabled))
				return -1;
		} else if (!strcmp(key, "lock_pages")) {
			if (get_bool(x, v, key, line, &c->lock_pages))
				return -1;
		} else if (!strcmp(key, "gnuplot")) {
			if (get_bool(x, v, key, line, &c->gnuplot))
				return -1;
		} else if (!strcmp(key, "cumulative_slack")) {
			if (get_bool(x, v, key, line, &c->cumulative_slack))
				return -1;
		} else if (!strcmp(key, "logdir")) {
			if (get_str(x, v, key, line, &s))
				return -1;
			free(c->logdir);
			c->logdir = xstrdup(s);
		} else if (!strcmp(key, "log_basename")) {
			if (get_str(x, v, key, line, &s))
				return -1;
			free(c->log_basename);
			c->log_basename = xstrdup(s);
		} else if (!strcmp(key, "log_size")) {
			if (json_object_is_type(v, json_type_int)) {
				if (get_int(x, v, key, line, 0, 4095, &n))
					return -1;
				log_disabled = n == 0;
			} else {
				if (get_str(x, v, key, line, &s))
					return -1;
				if (strcmp(s, "disable") && strcmp(s, "file") && strcmp(s, "auto"))
					return fail(x, line, "log_size: \"%s\" (disable, file, auto or MB)", s);
				log_disabled = !strcmp(s, "disable");
			}
		} else if (!strcmp(key, "ftrace")) {
			if (!json_object_is_type(v, json_type_boolean) &&
			    !json_object_is_type(v, json_type_string))
				return fail(x, line, "ftrace: expected a string of categories, got %s",
					    type_name(v));
		} else if (!strcmp(key, "io_device")) {
			if (get_str(x, v, key, line, &s))
				return -1;
		} else if (!strcmp(key, "mem_buffer_size")) {
			if (get_int(x, v, key, line, 0, INT_MAX, &n))
				return -1;
		} else {
			return fail(x, line, "global: unknown key \"%s\"", key);
		}
	}
	if (json_object_object_get_ex(g, "logdir", NULL) && !log_disabled) {
		struct stat sb;

		c->write_logs = true;
		if (stat(c->logdir, &sb) || !S_ISDIR(sb.st_mode))
			return fail(x, line_of(x, key_pos(x, pos, "logdir")),
				    "logdir: log directory %s does not exist", c->logdir);
	}
	return 0;
}

/* skip blanks and comments after the top-level value */
static bool only_blanks(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (strchr(" \t\r\n", s[i])) {
			i++;
		} else if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
		} else if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
			const char *e = NULL;

			for (size_t j = i + 2; j + 1 < n; j++)
				if (s[j] == '*' && s[j + 1] == '/') {
					e = s + j;
					break;
				}
			if (!e)
				return false;
			i = (size_t)(e - s) + 2;
		} else {
			return false;
		}
	}
	return true;
}

static void line_col(const struct pctx *x, size_t off, unsigned int *line, unsigned int *col)
{
	size_t start = 0;

	*line = line_of(x, off);
	for (size_t i = 0; i < off && i < x->len; i++)
		if (x->text[i] == '\n')
			start = i + 1;
	*col = (unsigned int)(off - start + 1);
}

struct rtapp_config *rtapp_parse_text(const char *file, const char *text, size_t len,
				      bool background, char *err, size_t errlen)
{
	struct pctx x = { .file = file, .text = text, .len = len, .err = err, .errlen = errlen,
			  .background = background };
	struct json_tokener *tok;
	struct json_object *root, *v;
	struct rtapp_config *c;
	size_t cur;
	int rc = -1;

	if (memchr(text, '\0', len)) {
		fail(&x, line_of(&x, (size_t)((const char *)memchr(text, '\0', len) - text)),
		     "a NUL byte: not a JSON text");
		return NULL;
	}
	tok = json_tokener_new();
	/* rt-app's json_tokener_parse(): default flags (comments, trailing commas) */
	json_tokener_set_flags(tok, 0);
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root) {
		enum json_tokener_error je = json_tokener_get_error(tok);
		size_t off = json_tokener_get_parse_end(tok);
		unsigned int line, col;

		if (je == json_tokener_continue || je == json_tokener_success) {
			off = len;
			line_col(&x, off, &line, &col);
			snprintf(err, errlen, "rt-app: %s:%u:%u: JSON syntax error: unexpected end of file",
				 file, line, col);
		} else {
			line_col(&x, off, &line, &col);
			snprintf(err, errlen, "rt-app: %s:%u:%u: JSON syntax error: %s", file, line,
				 col, json_tokener_error_desc(je));
		}
		json_tokener_free(tok);
		return NULL;
	}
	cur = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);

	c = xcalloc(1, sizeof(*c));
	x.c = c;
	c->file = xstrdup(file);
	c->duration_s = -1;
	c->default_policy = RTAPP_SCHED_OTHER;
	c->lock_pages = true;
	c->logdir = xstrdup("./");
	c->log_basename = xstrdup("rt-app");

	if (!only_blanks(text + cur, len - cur)) {
		unsigned int line, col;

		line_col(&x, cur, &line, &col);
		snprintf(err, errlen, "rt-app: %s:%u:%u: JSON syntax error: text after the top-level object",
			 file, line, col);
		goto out;
	}
	if (!json_object_is_type(root, json_type_object)) {
		fail(&x, 1, "expected an object with \"tasks\", got %s", type_name(root));
		goto out;
	}
	{
		json_object_object_foreach(root, key, rv) {
			(void)rv;
			if (strcmp(key, "global") && strcmp(key, "tasks") && strcmp(key, "resources")) {
				fail(&x, line_of(&x, key_pos(&x, 0, key)), "unknown key \"%s\" (global, tasks, resources)",
				     key);
				goto out;
			}
		}
	}
	c->has_global = json_object_object_get_ex(root, "global", &v);
	c->has_calibration = c->has_global && json_object_object_get_ex(v, "calibration", NULL);
	if (c->has_global && parse_global(&x, v, key_pos(&x, 0, "global")))
		goto out;
	/* rt-app's "resources" section is optional and changes nothing: events create them */
	if (json_object_object_get_ex(root, "resources", &v) && !json_object_is_type(v, json_type_object)) {
		fail(&x, line_of(&x, key_pos(&x, 0, "resources")), "resources: expected an object, got %s",
		     type_name(v));
		goto out;
	}
	if (!json_object_object_get_ex(root, "tasks", &v)) {
		fail(&x, 0, "no \"tasks\" object (it is the one rt-app requires)");
		goto out;
	}
	cur = key_pos(&x, 0, "tasks");
	if (!json_object_is_type(v, json_type_object) || !json_object_object_length(v)) {
		fail(&x, line_of(&x, cur), "tasks: expected an object with at least one task");
		goto out;
	}
	c->tasks = xcalloc((size_t)json_object_object_length(v), sizeof(*c->tasks));
	{
		json_object_object_foreach(v, name, tv) {
			struct rtapp_task *t = &c->tasks[c->nr_tasks++];

			cur = key_pos(&x, cur, name);
			if (parse_task(&x, name, tv, cur, t))
				goto out;
			c->nthreads += (unsigned int)t->instances;
			if (c->nthreads > RTAPP_MAX_THREADS) {
				fail(&x, t->line, "more than %d threads", RTAPP_MAX_THREADS);
				goto out;
			}
		}
	}
	if (check_file(&x))
		goto out;
	rc = 0;
out:
	json_object_put(root);
	if (rc) {
		rtapp_config_free(c);
		return NULL;
	}
	return c;
}

struct rtapp_config *rtapp_parse_file(const char *file, bool background, char *err,
				      size_t errlen)
{
	struct rtapp_config *c;
	FILE *f = fopen(file, "rb");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "rt-app: %s: %s", file, strerror(errno));
		return NULL;
	}
	buf = xmalloc(RTAPP_MAX_FILE + 1);
	n = fread(buf, 1, RTAPP_MAX_FILE + 1, f);
	if (ferror(f) || n > RTAPP_MAX_FILE) {
		snprintf(err, errlen, "rt-app: %s: %s", file,
			 ferror(f) ? strerror(errno) : "larger than 16 MiB");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	c = rtapp_parse_text(file, buf, n, background, err, errlen);
	free(buf);
	return c;
}

void rtapp_config_free(struct rtapp_config *c)
{
	if (!c)
		return;
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		struct rtapp_task *t = &c->tasks[i];

		for (unsigned int p = 0; p < t->nr_phases; p++)
			free_phase(&t->phases[p]);
		free(t->phases);
		free(t->cpus);
		free(t->name);
	}
	free(c->tasks);
	for (unsigned int r = 0; r < c->nr_res; r++)
		free(c->res[r].name);
	free(c->res);
	free(c->logdir);
	free(c->log_basename);
	free(c->file);
	free(c);
}
