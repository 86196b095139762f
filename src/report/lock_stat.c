// SPDX-License-Identifier: GPL-2.0-only
/*
 * --lock-stat and the run JSON's "locks": the statistics of every mutex,
 * rw_semaphore and rt_mutex, and of every class of spinning lock that was
 * taken (struct lock_class_stat), in the columns of `perf lock
 * contention` (tools/perf/builtin-lock.c): contended, total wait, max
 * wait, avg wait, type and the lock's name where perf puts the caller,
 * then schedlab's own split of the wait into spinning and sleeping.
 */
#include "report/lock_stat.h"

#include "kernel/locking.h"
#include "kernel/rtmutex.h"
#include "sim/alloc.h"

#include <stdlib.h>
#include <string.h>

static void collect(const struct lock_class_stat ***out, size_t *nr)
{
	struct mutex *m;
	struct rw_semaphore *s;
	struct rt_mutex *r;
	struct spin_lock_class *c;
	size_t n = 0, cap = 16;
	const struct lock_class_stat **v = xreallocarray(NULL, cap, sizeof(*v));

	list_for_each_entry(m, &all_mutexes, node)
	{
		if (n == cap)
			v = xreallocarray(v, cap *= 2, sizeof(*v));
		v[n++] = &m->stat;
	}
	list_for_each_entry(s, &all_rwsems, node)
	{
		if (n == cap)
			v = xreallocarray(v, cap *= 2, sizeof(*v));
		v[n++] = &s->stat;
	}
	list_for_each_entry(r, &all_rtmutexes, node)
	{
		if (n == cap)
			v = xreallocarray(v, cap *= 2, sizeof(*v));
		v[n++] = &r->stat;
	}
	list_for_each_entry(c, &all_spin_classes, node)
	{
		if (!c->stat.acquisitions)
			continue;
		if (n == cap)
			v = xreallocarray(v, cap *= 2, sizeof(*v));
		v[n++] = &c->stat;
	}
	*out = v;
	*nr = n;
}

/* perf lock contention sorts by contentions, most first; ties by address here */
static int by_contended(const void *a, const void *b)
{
	const struct lock_class_stat *x = *(const struct lock_class_stat *const *)a;
	const struct lock_class_stat *y = *(const struct lock_class_stat *const *)b;

	if (x->contended != y->contended)
		return x->contended > y->contended ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

bool lock_stat_any(void)
{
	struct spin_lock_class *c;

	list_for_each_entry(c, &all_spin_classes, node)
		if (c->stat.acquisitions)
			return true;
	return !list_empty(&all_mutexes) || !list_empty(&all_rwsems) ||
	       !list_empty(&all_rtmutexes);
}

/* a time as perf lock prints one: ns, us, ms or s with two decimals */
static void fmt_time(char *buf, size_t len, u64 ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
}

void lock_stat_print(FILE *out)
{
	const struct lock_class_stat **v;
	size_t n;
	int width = 24;

	collect(&v, &n);
	qsort(v, n, sizeof(*v), by_contended);
	fprintf(out, " contended   total wait     max wait     avg wait         type   caller\n\n");
	for (size_t i = 0; i < n; i++) {
		const struct lock_class_stat *st = v[i];
		char total[32], max[32], avg[32];

		if (!st->contended)
			continue;
		fmt_time(total, sizeof(total), st->wait_ns);
		fmt_time(max, sizeof(max), st->max_wait_ns);
		fmt_time(avg, sizeof(avg), st->wait_ns / st->contended);
		fprintf(out, "%10llu %12s %12s %12s %12s   %s\n", (unsigned long long)st->contended,
			total, max, avg, st->type, st->name);
	}
	/* the name column fits the longest name (mmap_lock:COMM is up to 25) */
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(v[i]->name) > width)
			width = (int)strlen(v[i]->name);
	fprintf(out, "\n%-*s %8s %12s %12s %14s %14s %9s\n", width, "lock", "type", "acquired",
		"contended", "spin ns", "sleep ns", "handoffs");
	for (size_t i = 0; i < n; i++) {
		const struct lock_class_stat *st = v[i];

		fprintf(out, "%-*s %8s %12llu %12llu %14llu %14llu %9llu\n", width, st->name,
			st->type,
			(unsigned long long)st->acquisitions, (unsigned long long)st->contended,
			(unsigned long long)st->spin_ns, (unsigned long long)st->sleep_ns,
			(unsigned long long)st->handoffs);
	}
	if (!n)
		fprintf(out, "(no sleeping lock was taken: the workload uses none)\n");
	free(v);
}

void lock_stat_json(struct json_writer *w)
{
	const struct lock_class_stat **v;
	size_t n;

	collect(&v, &n);
	json_key(w, "locks");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		const struct lock_class_stat *st = v[i];

		json_begin_object(w);
		json_kv_str(w, "name", st->name);
		json_kv_str(w, "type", st->type);
		json_kv_u64(w, "acquisitions", st->acquisitions);
		json_kv_u64(w, "contended", st->contended);
		json_kv_u64(w, "spin_ns", st->spin_ns);
		json_kv_u64(w, "sleep_ns", st->sleep_ns);
		json_kv_u64(w, "wait_ns", st->wait_ns);
		json_kv_u64(w, "max_wait_ns", st->max_wait_ns);
		json_kv_u64(w, "handoffs", st->handoffs);
		json_end_object(w);
	}
	json_end_array(w);
	free(v);
}
