// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cost-model defaults. Every value is documented, with its source, in
 * docs/cost-model.md; keep the two in step.
 */
#include "sim/cost.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const cpu_dist_names[NR_DIST] = { "self", "smt", "cluster", "llc", "package", "numa" };

void cost_model_default(struct cost_model *c)
{
	memset(c, 0, sizeof(*c));
	c->syscall = 100;
	c->irq_entry = 300;
	c->schedule = 350;
	c->context_switch = 250;
	c->switch_mm = 250;
	c->enqueue = 120;
	c->dequeue = 120;
	c->ttwu = 200;
	c->tick = 800;
	c->rq_lock = 20;
	c->fork = 50000;
	c->fork_thread = 15000;
	c->exit = 20000;
	c->softirq = 150;
	c->csd_entry = 50;
	c->idle_loop = 800;

	c->lb_base = 200;
	c->lb_cpu_visit = 25;
	c->lb_sibling_test = 15;
	c->lb_group = 40;
	c->lb_task = 60;

	c->pipe_write = 450;
	c->pipe_read = 350;
	c->unix_write = 900;
	c->unix_read = 600;
	c->copy_ns_per_kb = 50;
	c->futex_wait = 250;
	c->futex_wake = 200;
	c->unix_skb_overhead = 768;

	static const u64 cacheline[NR_DIST] = { 0, 5, 20, 40, 80, 150 };
	static const u64 ipi_latency[NR_DIST] = { 0, 400, 500, 700, 900, 1500 };
	static const u64 refill[NR_DIST] = { 0, 0, 500, 1000, 3000, 6000 };
	memcpy(c->cacheline, cacheline, sizeof(cacheline));
	memcpy(c->ipi_latency, ipi_latency, sizeof(ipi_latency));
	memcpy(c->migration_refill, refill, sizeof(refill));
	c->ipi_send = 150;
}

struct cost_field {
	const char *name;
	size_t offset;
	bool per_dist;
};

#define F(n) { #n, offsetof(struct cost_model, n), false }
#define FD(n) { #n, offsetof(struct cost_model, n), true }
static const struct cost_field cost_fields[] = {
	F(syscall),	   F(irq_entry),      F(schedule),	F(context_switch),
	F(switch_mm),	   F(enqueue),	      F(dequeue),	F(ttwu),
	F(tick),	   F(rq_lock),	      F(fork),		F(fork_thread),
	F(exit),	   F(softirq),	      F(csd_entry),	      F(idle_loop),	      F(lb_base),	F(lb_cpu_visit),
	F(lb_sibling_test), F(lb_group),      F(lb_task),	F(pipe_write),     F(pipe_read),	F(unix_write),
	F(unix_read),	   F(copy_ns_per_kb), F(futex_wait),	F(futex_wake),
	F(unix_skb_overhead), FD(cacheline),  F(ipi_send),	FD(ipi_latency),
	FD(migration_refill),
};
#undef F
#undef FD

int cost_model_set(struct cost_model *c, const char *assignment, char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	if (!eq) {
		snprintf(err, errlen, "cost parameter '%s': expected NAME=VALUE", assignment);
		return -1;
	}
	size_t nlen = (size_t)(eq - assignment);
	const char *dot = memchr(assignment, '.', nlen);
	size_t base_len = dot ? (size_t)(dot - assignment) : nlen;

	for (size_t i = 0; i < ARRAY_SIZE(cost_fields); i++) {
		const struct cost_field *f = &cost_fields[i];
		if (strlen(f->name) != base_len || strncmp(f->name, assignment, base_len))
			continue;
		int idx = 0;
		if (f->per_dist) {
			if (!dot) {
				snprintf(err, errlen, "cost parameter '%s' needs a distance: %s.{self,smt,cluster,llc,package,numa}",
					 f->name, f->name);
				return -1;
			}
			size_t dlen = nlen - base_len - 1;
			idx = -1;
			for (int d = 0; d < NR_DIST; d++)
				if (strlen(cpu_dist_names[d]) == dlen &&
				    !strncmp(cpu_dist_names[d], dot + 1, dlen))
					idx = d;
			if (idx < 0) {
				snprintf(err, errlen, "cost parameter '%.*s': unknown distance", (int)nlen,
					 assignment);
				return -1;
			}
		} else if (dot) {
			snprintf(err, errlen, "cost parameter '%s' takes no distance", f->name);
			return -1;
		}
		char *end;
		errno = 0;
		unsigned long long v = strtoull(eq + 1, &end, 10);
		if (errno || end == eq + 1 || *end || eq[1] == '-' || v > 1000000000000ULL) {
			snprintf(err, errlen, "cost parameter '%.*s': bad value '%s' (nanoseconds, 0..10^12)",
				 (int)nlen, assignment, eq + 1);
			return -1;
		}
		u64 *p = (u64 *)((char *)c + f->offset) + idx;
		*p = v;
		return 0;
	}
	snprintf(err, errlen, "unknown cost parameter '%.*s'", (int)nlen, assignment);
	return -1;
}

void cost_model_print(const struct cost_model *c, FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(cost_fields); i++) {
		const struct cost_field *f = &cost_fields[i];
		const u64 *p = (const u64 *)((const char *)c + f->offset);
		if (!f->per_dist) {
			fprintf(out, "%s=%llu\n", f->name, (unsigned long long)*p);
			continue;
		}
		for (int d = 0; d < NR_DIST; d++)
			fprintf(out, "%s.%s=%llu\n", f->name, cpu_dist_names[d],
				(unsigned long long)p[d]);
	}
}
