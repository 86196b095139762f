/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cost model: every nanosecond a simulated CPU spends in a kernel path
 * comes from one of these named parameters. Defaults and their sources are
 * in cost.c and docs/cost-model.md; machine presets override some of them.
 */
#ifndef SCHEDLAB_SIM_COST_H
#define SCHEDLAB_SIM_COST_H

#include "sim/types.h"
#include <stdio.h>

/* How far apart two CPUs are, for cache-line transfers and IPI latency. */
enum cpu_dist {
	DIST_SELF,	/* the same CPU */
	DIST_SMT,	/* SMT siblings: share L1/L2 */
	DIST_CLUSTER,	/* same cluster: share L2 (arm64 clusters, POWER10 big core) */
	DIST_LLC,	/* same last-level cache */
	DIST_PACKAGE,	/* same package, different LLC (e.g. EPYC CCXs) */
	DIST_NUMA,	/* different package or NUMA node */
	NR_DIST,
};

extern const char *const cpu_dist_names[NR_DIST];

/* the most hardware threads a core has (POWER SMT8) */
#define SMT_MAX_THREADS 8
/* smt_speed[] is in permille of a lone thread's speed */
#define SMT_SPEED_FULL 1000

struct cost_model {
	/* entering and leaving the kernel */
	u64 syscall;		/* syscall entry + exit (incl. mitigations) */
	/*
	 * glibc's cancellation point around a blocking-capable call (read,
	 * write, poll, nanosleep, waitpid, pthread_join) in a process that has
	 * created a thread: __pthread_enable_asynccancel() before the system
	 * call and __pthread_disable_asynccancel() after it, each an atomic
	 * compare-and-swap loop on the thread's cancelhandling word; a
	 * single-threaded process makes the call directly (SINGLE_THREAD_P)
	 */
	u64 cancel_point;
	/*
	 * fdget() of a process whose files_struct another live thread shares:
	 * __fget_light() cannot skip the file's reference count, so the call
	 * takes one (an atomic increment) and fdput() drops it
	 */
	u64 fget_shared;
	u64 irq_entry;		/* interrupt entry + exit on the receiving CPU */

	/* the scheduler core */
	u64 schedule;		/* __schedule() bookkeeping every call: clock, checks, sched_info */
	u64 pick_next;		/* pick_next_task(): class walk, EEVDF pick, put_prev/set_next */
	u64 context_switch;	/* register/stack/FPU switch between two tasks */
	u64 switch_mm;		/* extra when switching address space (process to process) */
	u64 perf_ctx_switch;	/* switching the per-task perf context (perf stat's counters) */
	u64 perf_event_switch;	/* and each counter in it */
	u64 enqueue;		/* enqueue_task_fair() for one task */
	u64 dequeue;		/* dequeue_task_fair() for one task */
	u64 rt_enqueue;		/* enqueue_task_rt(): list add, bitmap, counts, pushable set */
	u64 rt_dequeue;		/* dequeue_task_rt(): update_curr_rt(), list del, bitmap */
	u64 rt_push;		/* push_rt_task() fixed part (the cpupri scan is per CPU) */
	u64 rt_pull;		/* pull_rt_task() fixed part (per overloaded CPU: lb_cpu_visit) */
	u64 setscheduler;	/* __sched_setscheduler(): checks, policy and class change */
	u64 sched_yield;	/* do_sched_yield(): the class's yield_task(), before schedule() */
	u64 ttwu;		/* try_to_wake_up() fixed part: state checks, CPU selection */
	u64 tick;		/* sched_tick() + timer interrupt handler body */
	u64 rq_lock;		/* uncontended rq lock acquire + release */
	u64 fork;		/* fork()/clone() of a process: copy_process, wake_up_new_task */
	u64 fork_thread;	/* clone() of a thread (shares mm) */
	u64 exit;		/* do_exit() + reaping */
	/*
	 * of a process's exit, per page it maps (get_mm_rss()): exit_mmap()'s
	 * zap_pte_range() (rmap and reference drops of pages it shares with
	 * its parent), its page tables freed; exit above is an empty image's
	 */
	u64 exit_page;
	/*
	 * a minor fault that copies a page: a forked child's first write to a
	 * page it shares copy-on-write with its parent (entry, a page allocated
	 * and copied, the PTE made writable, return); a tool's children take
	 * them in their own start and in exit()'s handlers (work/tool_image.c)
	 */
	u64 page_fault;
	u64 tasklist_fork;	/* of fork/fork_thread: copy_process()'s tasklist_lock section */
	u64 tasklist_exit;	/* of exit: exit_notify()'s tasklist_lock section */
	u64 tasklist_release;	/* of exit: release_task()'s tasklist_lock section */
	u64 tasklist_wait_child; /* do_wait(): a child looked at under read_lock(&tasklist_lock) */
	/* a threaded program's mmap_lock sections (work/mm_thread.c) */
	u64 mm_mmap;		/* mmap() of a thread stack: do_mmap() under mmap_write_lock() */
	u64 mm_mprotect;	/* mprotect() of a stack but its guard: mprotect_fixup(), a split */
	u64 mm_munmap;		/* munmap() of a cached stack beyond glibc's 40 MiB */
	u64 mm_exit;		/* of exit: exit_mm()'s mmap_read_lock() section, a thread's */
	u64 softirq;		/* entering and leaving the SCHED softirq */
	u64 csd_entry;		/* one call-single queue entry handled by the target */
	u64 idle_enter;		/* entering idle: governor, nohz tick stop, RCU, state entry */
	u64 idle_exit;		/* leaving idle: tick restart, RCU exit, governor reflect */
	u64 sugov_update;	/* schedutil's update hook past its rate limit: utils, get_next_freq() */
	u64 cpufreq_switch;	/* cpufreq_driver_fast_switch(): the driver's request to the hardware */
	u64 dbs_update;		/* ondemand/conservative sample, per CPU of the policy */
	/*
	 * __cpufreq_driver_target() from schedutil's kthread (no fast switch):
	 * the driver's ->target() until the platform has taken the request
	 * (cppc_cpufreq over PCC: the doorbell's round trip, polled)
	 */
	u64 cpufreq_target;
	/*
	 * cppc_cpufreq over PCC: send_pcc_cmd() udelay()s until this long
	 * after the channel's last command completed (the PCC subspace's
	 * minimum request turnaround, pcc_mrtt) before ringing the doorbell
	 */
	u64 cpufreq_pcc_turnaround;
	/*
	 * The package's power control unit re-evaluates its turbo limit by
	 * active cores on a grid of this period (sim/turbo.c): a delay, not a
	 * CPU's work
	 */
	u64 pcu_interval_ns;

	/* load balancing: so that a patch that does less work shows as less time */
	u64 lb_base;		/* sched_balance_rq() fixed part: lb_env setup, bookkeeping */
	u64 lb_cpu_visit;	/* reading one CPU's rq state in a balance scan */
	u64 lb_sibling_test;	/* one SMT sibling tested in is_core_idle() */
	u64 lb_group;		/* one group's statistics summed and classified */
	u64 lb_task;		/* one task examined by detach_tasks()/can_migrate_task() */

	/* IPC */
	u64 pipe_write;		/* pipe_write() for one small message, excluding the copy */
	u64 pipe_read;		/* pipe_read() for one small message, excluding the copy */
	u64 unix_write;		/* unix_stream_sendmsg() outside the skb and queue work */
	u64 unix_read;		/* unix_stream_recvmsg() outside the dequeue and free */
	u64 skb_alloc;		/* sock_alloc_send_pskb(): slab objects, memcg charge, skb init */
	u64 skb_queue;		/* peer checks and skb_queue_tail() under unix_state_lock */
	u64 skb_unlink;		/* skb_unlink() under the receive-queue lock */
	u64 skb_free;		/* consume_skb(): sock_wfree, slab free, memcg uncharge */
	/*
	 * an skb whose lines have left the CPU's private cache since they were
	 * last touched there: its allocation (the slab object freed long ago)
	 * or its read (written long ago) pays this, per skb (work/skb_cache.c)
	 */
	u64 skb_refill;
	u64 wake_walk;		/* __wake_up_common() per waiter, under the wait-queue lock */
	u64 copy_ns_per_kb;	/* copy_to/from_user per KiB */
	u64 futex_wait;		/* futex_wait() until the task blocks */
	u64 futex_wake;		/* futex_wake() excluding try_to_wake_up() */
	/* sleeping locks (kernel/locking.h) */
	u64 lock_atomic;	/* one locked read-modify-write of a lock word held in this cache */
	u64 lock_slowpath;	/* mutex/rwsem slowpath bookkeeping: waiter, list, flags, task state */
	u64 unix_skb_overhead;	/* bytes (not ns): skb truesize beyond the payload */

	/* --probe-overhead: bcc funclatency's kprobe + kretprobe on a traced function */
	u64 probe_entry;	/* kprobe hit at entry, kretprobe hijack, entry program to its timestamp */
	u64 probe_return;	/* return trampoline, kretprobe dispatch, return program to its timestamp */
	u64 bpf_map_op;		/* one BPF hash-map helper call (update, lookup, delete) */

	/* the machine */
	u64 cacheline[NR_DIST];	/* moving a modified cache line from a CPU this far away */
	u64 llc_hit;		/* reading a clean line another core of the LLC holds */
	u64 mem_latency;	/* a line no CPU holds, from local memory */
	u64 line_mlp;		/* misses a core overlaps on lines touched together */
	u64 ipi_send;		/* sender side of an IPI (APIC/GIC/doorbell write) */
	u64 ipi_latency[NR_DIST]; /* send to handler start */

	/* cache footprints (sim/cache.h): capacities and refill latencies */
	u64 cache_l2_kb;	/* KiB (not ns): a private cache (per core, or as the preset says) */
	u64 cache_llc_kb;	/* KiB (not ns): a shared cache (per LLC, or as the preset says) */
	/*
	 * KiB (not ns): the first-level data cache of a private cache's CPUs;
	 * 0: not modelled (the private cache is the first level a switch-in
	 * refills)
	 */
	u64 cache_l1_kb;
	/*
	 * ns per KiB (16 lines) of a footprint a switch-in brings back into
	 * the L1 from the private cache, as the switch path reads them
	 * (calibrate's ring of processes)
	 */
	u64 l1_refill;
	/*
	 * Refill latencies are the memory system's: llc_hit (the shared cache),
	 * cacheline[package] and cacheline[numa] (another shared cache of the
	 * package, a cache in another package), mem_latency and, below,
	 * mem_remote_latency (memory on another node); line_mlp lines in flight.
	 */
	u64 mem_remote_latency;	/* a line from memory on another node */
	/*
	 * SMT sharing: smt_speed[k - 1] is the speed of each busy hardware
	 * thread of a core while k of its threads are busy, in permille of a
	 * lone thread (parameters smt_speed.1 .. smt_speed.8). Applies to user
	 * work and to charge(), not to charge_stall().
	 */
	u64 smt_speed[SMT_MAX_THREADS];
	/*
	 * Execution-time variation (sim/variation.h): the relative standard
	 * deviation, in parts per million, of each stretch of work a CPU does
	 * (a charge(), a charge_stall(), a user compute segment) around its
	 * nominal time; 0: every operation takes exactly its nominal time.
	 */
	u64 exec_variation_ppm;

	/*
	 * A KVM guest (a machine file's [guest], docs/guests.md): what the
	 * hypervisor adds. 0 on bare metal; a guest machine without its own
	 * figures gets the estimates of guest.c.
	 */
	u64 guest_ipi_exit;	/* sending an IPI: the x2APIC ICR write's VM exit and re-entry */
	/*
	 * receiving an IPI while the vCPU runs, without posted interrupts
	 * (APICv, AVIC): the host kicks its pCPU out of the guest to inject it
	 */
	u64 guest_ipi_recv_exit;
	u64 guest_timer_exit; /* programming the timer (TSC deadline MSR): a VM exit, each write */
	u64 guest_wakeup_polled; /* a halted vCPU woken while the host still halt-polls it */
	u64 guest_wakeup;	/* a halted vCPU woken after the host scheduled its thread out */
	u64 guest_host_poll_ns;	/* the host's halt-poll window (kvm halt_poll_ns) */
	/*
	 * A halted vCPU whose halt lasted at least this long runs again with
	 * its private cache empty (the host's pCPU reached a C-state that
	 * flushes the core's L1/L2, or other host work evicted it); 0: never
	 */
	u64 guest_halt_flush_ns;
};

/* The defaults (a modern x86 server); presets start from these. */
void cost_model_default(struct cost_model *c);

/*
 * The part of a path's cost @total outside a section that costs @part (a
 * lock's critical section charged on its own): never below zero when a
 * user's --cost makes the total the smaller.
 */
static inline u64 cost_outside(u64 total, u64 part)
{
	return total > part ? total - part : 0;
}

/* Set one parameter by name ("ipi_latency.llc=900"); 0 or -1 with a message. */
int cost_model_set(struct cost_model *c, const char *assignment, char *err, size_t errlen);

/*
 * Parameter @i of the table (0 up), for listing and tests: its name, whether
 * it takes a distance suffix, and the largest value it accepts. NULL past
 * the end.
 */
const char *cost_model_param(size_t i, bool *per_dist, u64 *max);

/* The value of parameter @i (cost_model_param()), at distance @dist if it takes one. */
u64 cost_model_value(const struct cost_model *c, size_t i, int dist);

/* Print every parameter as name=value lines. */
void cost_model_print(const struct cost_model *c, FILE *out);

/* Copy time for @bytes of user data. */
static inline u64 cost_copy(const struct cost_model *c, u64 bytes)
{
	return (bytes * c->copy_ns_per_kb + 1023) / 1024;
}

#endif
