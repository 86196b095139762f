// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cost-model defaults. Every value is documented, with its source, in
 * docs/cost-model.md; keep the two in step.
 */
#include "sim/cost.h"
#include "sim/variation.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const cpu_dist_names[NR_DIST] = { "self", "smt", "cluster", "llc", "package", "numa" };

/* work/exec.c's skb_lines(100): the sk_buff's 4 lines, 2 of payload, 1 of skb_shared_info */
#define SKB_LINES_SMALL 7

void cost_model_default(struct cost_model *c)
{
	memset(c, 0, sizeof(*c));
	c->syscall = 100;
	/* measured: docs/cost-model.md (a pipe write+read, single-threaded and threaded) */
	c->cancel_point = 22;
	c->fget_shared = 7;
	c->irq_entry = 300;
	c->schedule = 150;
	c->pick_next = 200;
	c->context_switch = 250;
	c->switch_mm = 250;
	/* measured: docs/cost-model.md (perf stat's counters on a pipe ping-pong) */
	c->perf_ctx_switch = 225;
	c->perf_event_switch = 80;
	c->enqueue = 120;
	c->dequeue = 120;
	c->rt_enqueue = 60;
	c->rt_dequeue = 60;
	c->rt_push = 150;
	c->rt_pull = 150;
	c->setscheduler = 500;
	c->sched_yield = 50;
	c->ttwu = 150;
	c->tick = 800;
	c->rq_lock = 20;
	c->fork = 50000;
	c->fork_thread = 15000;
	c->exit = 20000;
	c->exit_page = 20;
	c->page_fault = 1000;
	c->tasklist_fork = 150;
	c->tasklist_exit = 400;
	c->tasklist_release = 200;
	c->tasklist_wait_child = 30;
	c->mm_mmap = 800;
	c->mm_mprotect = 900;
	c->mm_munmap = 1500;
	c->mm_exit = 100;
	c->softirq = 150;
	c->csd_entry = 50;
	c->idle_enter = 500;
	c->idle_exit = 300;
	c->sugov_update = 300;
	c->cpufreq_switch = 500;
	c->dbs_update = 250;
	/* an MSR write, as the fast switch's; cppc over PCC sets its doorbell round trip */
	c->cpufreq_target = 500;
	/* no PCC turnaround unless the platform's PCCT declares one */
	c->cpufreq_pcc_turnaround = 0;
	/*
	 * Hackenberg et al. (IPDPSW 2015) saw Haswell-EP apply frequency
	 * changes on a fixed ~500 us grid; the turbo limit's re-evaluation is
	 * assumed to run on that grid too (docs/cost-model.md: estimate)
	 */
	c->pcu_interval_ns = 500000;

	c->lb_base = 200;
	c->lb_cpu_visit = 5;
	c->lb_sibling_test = 3;
	c->lb_group = 40;
	c->lb_task = 60;

	c->pipe_write = 450;
	c->pipe_read = 350;
	c->unix_write = 450;
	c->unix_read = 250;
	c->skb_alloc = 300;
	c->skb_queue = 100;
	c->skb_unlink = 50;
	c->skb_free = 300;
	c->wake_walk = 50;
	c->copy_ns_per_kb = 50;
	c->futex_wait = 250;
	c->futex_wake = 200;
	c->lock_atomic = 8;
	c->lock_slowpath = 100;
	c->unix_skb_overhead = 768;

	c->probe_entry = 40;
	c->probe_return = 53;
	c->bpf_map_op = 23;

	static const u64 cacheline[NR_DIST] = { 0, 5, 20, 40, 80, 150 };
	static const u64 ipi_latency[NR_DIST] = { 0, 400, 500, 700, 900, 1500 };
	memcpy(c->cacheline, cacheline, sizeof(cacheline));
	memcpy(c->ipi_latency, ipi_latency, sizeof(ipi_latency));
	c->ipi_send = 150;
	c->llc_hit = 25;
	c->mem_latency = 90;
	c->mem_remote_latency = 140;
	c->line_mlp = 4;
	/*
	 * an skb's lines (skb_lines(): 7 for a 100-byte message) refilled from
	 * the LLC one after another: the slab freelist and the receive queue
	 * are linked lists, each miss needs the previous line's pointer, so
	 * nothing overlaps (docs/cost-model.md)
	 */
	c->skb_refill = SKB_LINES_SMALL * c->llc_hit;

	/* Cascade Lake-SP (Xeon Platinum 8269CY); sources in docs/cost-model.md */
	c->cache_l2_kb = 1024;
	c->cache_llc_kb = 36608;	/* 35.75 MiB per socket */
	/*
	 * Cascade Lake's 32 KiB L1d per core. A switch-in's lines come back
	 * from the L2 at its 14 cycles (Intel's optimization manual) at
	 * 2.7 GHz, 5.2 ns, overlapped as far as calibrate's ring of processes
	 * found them overlap on an Intel guest (1.7 ns a line there against a
	 * 4.7 ns pointer chase from its L2: 0.36): 1.9 ns a line, 30 ns a KiB
	 * (docs/cost-model.md)
	 */
	c->cache_l1_kb = 32;
	c->l1_refill = 30;
	/*
	 * SMT sharing (docs/cost-model.md): an x86 core with two busy
	 * Hyper-Threads does ~1.25x the work of one (Intel: "up to 30%";
	 * AnandTech: 10-20% in many applications), so each thread runs at
	 * 625 permille. Past two threads the default is an estimate that
	 * gains nothing more (1.25x shared by k threads); SMT4/SMT8 presets
	 * set their own. A machine without SMT never uses these.
	 */
	c->smt_speed[0] = SMT_SPEED_FULL;
	for (int k = 2; k <= SMT_MAX_THREADS; k++)
		c->smt_speed[k - 1] = 1250 / (u64)k;
}

struct cost_field {
	const char *name;
	size_t offset;
	bool per_dist;
	u64 max;
	const char *unit;
	u64 min;
};

/*
 * The largest value each parameter takes (docs/cost-model.md, "Ranges").
 * A kernel path is a step on one CPU's cursor: its cost is capped at
 * KPATH_MAX, a tenth of the shortest tick (1 ms at HZ 1000), so one path
 * stays far below a tick; process creation and exit at FORK_MAX; delays that
 * are not a CPU's work (IPI flight) at DELAY_MAX; one cache line's refill
 * latency at LINE_MAX_NS (a refill is lines x latency / line_mlp, so it
 * grows with the task's footprint); a page of an exit's teardown at
 * PAGE_MAX_NS (the exit is that x the pages mapped). Longer paths would
 * model a machine that spends its ticks in the kernel, which the workloads
 * here cannot finish on.
 */
#define KPATH_MAX	100000ULL	/* 100 us */
#define FORK_MAX	10000000ULL	/* 10 ms */
#define DELAY_MAX	1000000ULL	/* 1 ms */
#define COPY_MAX	100000ULL	/* ns per KiB: 10 MB/s */
#define SKB_MAX		65536ULL	/* bytes */
#define CACHE_KB_MAX	1048576ULL	/* KiB: 1 GiB */
#define LINE_MAX_NS	10000ULL	/* one cache line: 10 us, far beyond any machine */
#define PAGE_MAX_NS	10000ULL	/* one page of an exit's teardown: 10 us, far beyond any machine */
#define MLP_MAX		64ULL
/* an idle length: a uint of ns (4.3 s) as the [guest] key, past any state's target residency */
#define IDLE_LEN_MAX	4294967295ULL

#define F(n, m) { #n, offsetof(struct cost_model, n), false, m, "nanoseconds", 0 }
#define FD(n, m) { #n, offsetof(struct cost_model, n), true, m, "nanoseconds", 0 }
/* one busy-thread count of the SMT speed table: a name with a dot, set whole */
#define SMT(k)                                                                               \
	{ "smt_speed." #k, offsetof(struct cost_model, smt_speed) + ((k) - 1) * sizeof(u64), \
	  false, SMT_SPEED_FULL, "permille of a lone thread", 1 }
static const struct cost_field cost_fields[] = {
	F(syscall, KPATH_MAX),
	F(cancel_point, KPATH_MAX),
	F(fget_shared, KPATH_MAX),
	F(irq_entry, KPATH_MAX),
	F(schedule, KPATH_MAX),
	F(pick_next, KPATH_MAX),
	F(context_switch, KPATH_MAX),
	F(switch_mm, KPATH_MAX),
	F(perf_ctx_switch, KPATH_MAX),
	F(perf_event_switch, KPATH_MAX),
	F(enqueue, KPATH_MAX),
	F(dequeue, KPATH_MAX),
	F(rt_enqueue, KPATH_MAX),
	F(rt_dequeue, KPATH_MAX),
	F(rt_push, KPATH_MAX),
	F(rt_pull, KPATH_MAX),
	F(setscheduler, KPATH_MAX),
	F(sched_yield, KPATH_MAX),
	F(ttwu, KPATH_MAX),
	F(tick, KPATH_MAX),
	F(rq_lock, KPATH_MAX),
	F(fork, FORK_MAX),
	F(fork_thread, FORK_MAX),
	F(exit, FORK_MAX),
	F(exit_page, PAGE_MAX_NS),
	F(page_fault, KPATH_MAX),
	F(tasklist_fork, KPATH_MAX),
	F(tasklist_exit, KPATH_MAX),
	F(tasklist_release, KPATH_MAX),
	F(tasklist_wait_child, KPATH_MAX),
	F(mm_mmap, KPATH_MAX),
	F(mm_mprotect, KPATH_MAX),
	F(mm_munmap, KPATH_MAX),
	F(mm_exit, KPATH_MAX),
	F(softirq, KPATH_MAX),
	F(csd_entry, KPATH_MAX),
	F(idle_enter, KPATH_MAX),
	F(idle_exit, KPATH_MAX),
	F(sugov_update, KPATH_MAX),
	F(cpufreq_switch, KPATH_MAX),
	F(dbs_update, KPATH_MAX),
	F(cpufreq_target, KPATH_MAX),
	F(cpufreq_pcc_turnaround, DELAY_MAX),
	F(pcu_interval_ns, DELAY_MAX),
	F(lb_base, KPATH_MAX),
	F(lb_cpu_visit, KPATH_MAX),
	F(lb_sibling_test, KPATH_MAX),
	F(lb_group, KPATH_MAX),
	F(lb_task, KPATH_MAX),
	F(pipe_write, KPATH_MAX),
	F(pipe_read, KPATH_MAX),
	F(unix_write, KPATH_MAX),
	F(unix_read, KPATH_MAX),
	F(skb_alloc, KPATH_MAX),
	F(skb_queue, KPATH_MAX),
	F(skb_unlink, KPATH_MAX),
	F(skb_free, KPATH_MAX),
	F(skb_refill, KPATH_MAX),
	F(wake_walk, KPATH_MAX),
	{ "copy_ns_per_kb", offsetof(struct cost_model, copy_ns_per_kb), false, COPY_MAX,
	  "nanoseconds per KiB", 0 },
	F(futex_wait, KPATH_MAX),
	F(futex_wake, KPATH_MAX),
	F(lock_atomic, KPATH_MAX),
	F(lock_slowpath, KPATH_MAX),
	{ "unix_skb_overhead", offsetof(struct cost_model, unix_skb_overhead), false, SKB_MAX,
	  "bytes", 0 },
	F(probe_entry, KPATH_MAX),
	F(probe_return, KPATH_MAX),
	F(bpf_map_op, KPATH_MAX),
	FD(cacheline, KPATH_MAX),
	F(llc_hit, KPATH_MAX),
	F(mem_latency, KPATH_MAX),
	{ "line_mlp", offsetof(struct cost_model, line_mlp), false, MLP_MAX,
	  "cache lines in flight, 0 counts as 1", 0 },
	F(ipi_send, KPATH_MAX),
	FD(ipi_latency, DELAY_MAX),
	{ "cache_l2_kb", offsetof(struct cost_model, cache_l2_kb), false, CACHE_KB_MAX, "KiB", 0 },
	{ "cache_llc_kb", offsetof(struct cost_model, cache_llc_kb), false, CACHE_KB_MAX, "KiB",
	  0 },
	{ "cache_l1_kb", offsetof(struct cost_model, cache_l1_kb), false, CACHE_KB_MAX, "KiB", 0 },
	{ "l1_refill", offsetof(struct cost_model, l1_refill), false, LINE_MAX_NS,
	  "nanoseconds per KiB", 0 },
	F(mem_remote_latency, LINE_MAX_NS),
	SMT(1),
	SMT(2),
	SMT(3),
	SMT(4),
	SMT(5),
	SMT(6),
	SMT(7),
	SMT(8),
	{ "exec_variation_ppm", offsetof(struct cost_model, exec_variation_ppm), false,
	  VARIATION_PPM_MAX, "ppm of the nominal time, a relative standard deviation", 0 },
	F(guest_ipi_exit, KPATH_MAX),
	F(guest_ipi_recv_exit, KPATH_MAX),
	F(guest_timer_exit, KPATH_MAX),
	F(guest_wakeup_polled, DELAY_MAX),
	F(guest_wakeup, DELAY_MAX),
	F(guest_host_poll_ns, DELAY_MAX),
	F(guest_halt_flush_ns, IDLE_LEN_MAX),
};
#undef F
#undef FD
#undef SMT

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

	/* a parameter whose name has a dot (smt_speed.2) is matched whole */
	for (size_t i = 0; dot && i < ARRAY_SIZE(cost_fields); i++) {
		if (strlen(cost_fields[i].name) == nlen &&
		    !strncmp(cost_fields[i].name, assignment, nlen)) {
			base_len = nlen;
			dot = NULL;
		}
	}
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
		if (errno || end == eq + 1 || *end || eq[1] == '-' || v > f->max || v < f->min) {
			snprintf(err, errlen, "cost parameter '%.*s': bad value '%s' (%s, %llu..%llu)",
				 (int)nlen, assignment, eq + 1, f->unit, (unsigned long long)f->min,
				 (unsigned long long)f->max);
			return -1;
		}
		u64 *p = (u64 *)((char *)c + f->offset) + idx;
		*p = v;
		return 0;
	}
	snprintf(err, errlen, "unknown cost parameter '%.*s'", (int)nlen, assignment);
	return -1;
}

const char *cost_model_param(size_t i, bool *per_dist, u64 *max)
{
	if (i >= ARRAY_SIZE(cost_fields))
		return NULL;
	*per_dist = cost_fields[i].per_dist;
	*max = cost_fields[i].max;
	return cost_fields[i].name;
}

u64 cost_model_value(const struct cost_model *c, size_t i, int dist)
{
	const u64 *p = (const u64 *)((const char *)c + cost_fields[i].offset);

	return cost_fields[i].per_dist ? p[dist] : p[0];
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
