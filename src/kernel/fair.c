// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fair class: EEVDF (kernel/sched/fair.c line of thought, v6.18).
 *
 * Entities are kept in a tree ordered by virtual deadline, augmented with
 * the minimum vruntime (and slice) of each subtree, so the earliest-deadline
 * eligible entity is found in O(log n). Eligibility compares an entity's
 * vruntime with the load-weighted average vruntime V, kept as sums relative
 * to min_vruntime so everything stays in 64-bit integers.
 */
#include "kernel/fair_lb.h"
#include "kernel/sched.h"
#include "sim/steal.h"

/* ------------------------------------------------------------------ */
/* weights and virtual time                                            */

static void __update_inv_weight(struct load_weight *lw)
{
	unsigned long w;

	if (likely(lw->inv_weight))
		return;
	w = scale_load_down(lw->weight);
	if (w >= WMULT_CONST)
		lw->inv_weight = 1;
	else if (unlikely(!w))
		lw->inv_weight = WMULT_CONST;
	else
		lw->inv_weight = WMULT_CONST / (u32)w;
}

static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

/*
 * delta_exec * weight / lw->weight, computed as delta * weight * inv_weight
 * >> 32 with the factor kept within 32 bits, as the kernel does it.
 */
u64 __calc_delta(u64 delta_exec, unsigned long weight, struct load_weight *lw)
{
	u64 fact = scale_load_down(weight);
	u32 fact_hi = (u32)(fact >> 32);
	int shift = WMULT_SHIFT;
	int fs;

	__update_inv_weight(lw);
	if (unlikely(fact_hi)) {
		fs = 32 - __builtin_clz(fact_hi);
		shift -= fs;
		fact >>= fs;
	}
	fact = (u64)(u32)fact * lw->inv_weight;
	fact_hi = (u32)(fact >> 32);
	if (fact_hi) {
		fs = 32 - __builtin_clz(fact_hi);
		shift -= fs;
		fact >>= fs;
	}
	return mul_u64_u32_shr(delta_exec, (u32)fact, (unsigned int)shift);
}

u64 calc_delta_fair(u64 delta, struct sched_entity *se)
{
	if (unlikely(se->load.weight != NICE_0_LOAD))
		delta = __calc_delta(delta, NICE_0_LOAD, &se->load);
	return delta;
}

static inline bool entity_before(const struct sched_entity *a, const struct sched_entity *b)
{
	return (s64)(a->deadline - b->deadline) < 0;
}

static inline s64 entity_key(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return (s64)(se->vruntime - cfs_rq->min_vruntime);
}

static inline u64 min_vruntime(u64 a, u64 b)
{
	return (s64)(b - a) < 0 ? b : a;
}

/*
 * V = sum(v_i * w_i) / sum(w_i), tracked as
 *   avg_vruntime = sum((v_i - min_vruntime) * w_i), avg_load = sum(w_i)
 * over the entities in the tree; curr is added in when it is queued.
 */
static void avg_vruntime_add(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned long weight = scale_load_down(se->load.weight);

	cfs_rq->avg_vruntime += entity_key(cfs_rq, se) * (s64)weight;
	cfs_rq->avg_load += weight;
}

static void avg_vruntime_sub(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned long weight = scale_load_down(se->load.weight);

	cfs_rq->avg_vruntime -= entity_key(cfs_rq, se) * (s64)weight;
	cfs_rq->avg_load -= weight;
}

/* min_vruntime moved forward by @delta: re-base the key sum */
static inline void avg_vruntime_update(struct cfs_rq *cfs_rq, s64 delta)
{
	cfs_rq->avg_vruntime -= (s64)cfs_rq->avg_load * delta;
}

/* the tree's sums with a queued curr added in */
static void avg_vruntime_sums(struct cfs_rq *cfs_rq, s64 *avg, long *load)
{
	struct sched_entity *curr = cfs_rq->curr;

	*avg = cfs_rq->avg_vruntime;
	*load = (long)cfs_rq->avg_load;
	if (curr && curr->on_rq) {
		unsigned long weight = scale_load_down(curr->load.weight);

		*avg += entity_key(cfs_rq, curr) * (s64)weight;
		*load += (long)weight;
	}
}

u64 avg_vruntime(struct cfs_rq *cfs_rq)
{
	s64 avg;
	long load;

	avg_vruntime_sums(cfs_rq, &avg, &load);
	if (load) {
		/* round towards -inf so V never overshoots */
		if (avg < 0)
			avg -= (load - 1);
		avg /= load;
	}
	return cfs_rq->min_vruntime + (u64)avg;
}

/* lag_i = w_i * (V - v_i), kept per unit weight in se->vlag and clamped */
static void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	s64 vlag, limit;

	vlag = (s64)(avg_vruntime(cfs_rq) - se->vruntime);
	limit = (s64)calc_delta_fair(max(2 * se->slice, TICK_NSEC), se);
	se->vlag = clamp(vlag, -limit, limit);
}

/*
 * Eligible: lag >= 0, i.e. V >= v_i, i.e.
 *   sum((v_j - min) * w_j) >= (v_i - min) * sum(w_j)
 * without dividing.
 */
static int vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime)
{
	s64 avg;
	long load;

	avg_vruntime_sums(cfs_rq, &avg, &load);
	return avg >= (s64)(vruntime - cfs_rq->min_vruntime) * load;
}

int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return vruntime_eligible(cfs_rq, se->vruntime);
}

static u64 __update_min_vruntime(struct cfs_rq *cfs_rq, u64 vruntime)
{
	u64 min = cfs_rq->min_vruntime;
	s64 delta = (s64)(vruntime - min);

	if (delta > 0) {
		avg_vruntime_update(cfs_rq, delta);
		min = vruntime;
	}
	return min;
}

struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *root = cfs_rq->tasks_timeline.rb_root.node;

	return root ? rb_entry(root, struct sched_entity, run_node) : NULL;
}

struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *left = rb_first_cached(&cfs_rq->tasks_timeline);

	return left ? rb_entry(left, struct sched_entity, run_node) : NULL;
}

static void update_min_vruntime(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	u64 vruntime = cfs_rq->min_vruntime;

	if (curr) {
		if (curr->on_rq)
			vruntime = curr->vruntime;
		else
			curr = NULL;
	}
	if (se) {
		if (!curr)
			vruntime = se->min_vruntime;
		else
			vruntime = min_vruntime(vruntime, se->min_vruntime);
	}
	/* min_vruntime only ever moves forward */
	cfs_rq->min_vruntime = __update_min_vruntime(cfs_rq, vruntime);
}

static u64 cfs_rq_min_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *root = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	u64 min_slice = ~0ULL;

	if (curr && curr->on_rq)
		min_slice = curr->slice;
	if (root)
		min_slice = min(min_slice, root->min_slice);
	return min_slice;
}

/* ------------------------------------------------------------------ */
/* the augmented tree                                                  */

static bool __entity_less(const struct rb_node *a, const struct rb_node *b)
{
	return entity_before(rb_entry(a, struct sched_entity, run_node),
			     rb_entry(b, struct sched_entity, run_node));
}

static inline void __min_update(struct sched_entity *se, struct rb_node *node)
{
	if (node) {
		struct sched_entity *rse = rb_entry(node, struct sched_entity, run_node);

		if ((s64)(se->min_vruntime - rse->min_vruntime) > 0)
			se->min_vruntime = rse->min_vruntime;
		if (se->min_slice > rse->min_slice)
			se->min_slice = rse->min_slice;
	}
}

/* se->min_vruntime = min(se->vruntime, children's min_vruntime); same for slice */
static bool min_vruntime_recompute(struct rb_node *node)
{
	struct sched_entity *se = rb_entry(node, struct sched_entity, run_node);
	u64 old_min_vruntime = se->min_vruntime;
	u64 old_min_slice = se->min_slice;

	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	__min_update(se, node->right);
	__min_update(se, node->left);
	return se->min_vruntime == old_min_vruntime && se->min_slice == old_min_slice;
}

static const struct rb_augment_callbacks min_vruntime_cb = { .recompute = min_vruntime_recompute };

static void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	avg_vruntime_add(cfs_rq, se);
	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	rb_add_augmented_cached(&se->run_node, &cfs_rq->tasks_timeline, __entity_less,
				&min_vruntime_cb);
}

static void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	rb_erase_augmented_cached(&se->run_node, &cfs_rq->tasks_timeline, &min_vruntime_cb);
	avg_vruntime_sub(cfs_rq, se);
}

/* ------------------------------------------------------------------ */
/* slice protection (RUN_TO_PARITY) and the EEVDF pick                 */

/*
 * The protected run of curr: the smallest queued slice with RUN_TO_PARITY,
 * else a minimum quantum of the *normalized* base slice (v6.18 uses
 * normalized_sysctl_sched_base_slice here, not the CPU-count-scaled one).
 */
static void set_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice = sysctl_sched.normalized_base_slice_ns;
	u64 vprot = se->deadline;

	if (sched_feat(RUN_TO_PARITY))
		slice = cfs_rq_min_slice(cfs_rq);
	slice = min(slice, se->slice);
	if (slice != se->slice)
		vprot = min_vruntime(vprot, se->vruntime + calc_delta_fair(slice, se));
	se->vprot = vprot;
}

static void update_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice = cfs_rq_min_slice(cfs_rq);

	se->vprot = min_vruntime(se->vprot, se->vruntime + calc_delta_fair(slice, se));
}

static inline bool protect_slice(struct sched_entity *se)
{
	return (s64)(se->vprot - se->vruntime) > 0;
}

static inline void cancel_protect_slice(struct sched_entity *se)
{
	if (protect_slice(se))
		se->vprot = se->vruntime;
}

/*
 * Earliest eligible virtual deadline first: the leftmost entity if it is
 * eligible, else descend, going left whenever the left subtree holds an
 * eligible entity (its min_vruntime is eligible), since left means earlier
 * deadline. curr competes too, unless it is protected (then it wins).
 */
static struct sched_entity *__pick_eevdf(struct cfs_rq *cfs_rq, bool protect)
{
	struct rb_node *node = cfs_rq->tasks_timeline.rb_root.node;
	struct sched_entity *se = __pick_first_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *best = NULL;

	if (cfs_rq->nr_queued == 1)
		return curr && curr->on_rq ? curr : se;

	/*
	 * v6.19 moved PICK_BUDDY in here from pick_next_entity(), ahead of
	 * curr's slice protection: a wakeup's pick sees the buddy too.
	 */
	if (sched_feat(WAKEUP_PREEMPT_EEVDF) && sched_feat(PICK_BUDDY) && cfs_rq->next &&
	    entity_eligible(cfs_rq, cfs_rq->next))
		return cfs_rq->next;

	if (curr && (!curr->on_rq || !entity_eligible(cfs_rq, curr)))
		curr = NULL;

	if (curr && protect && protect_slice(curr))
		return curr;

	if (se && entity_eligible(cfs_rq, se)) {
		best = se;
		goto found;
	}

	while (node) {
		struct rb_node *left = node->left;

		if (left && vruntime_eligible(cfs_rq, rb_entry(left, struct sched_entity,
							       run_node)->min_vruntime)) {
			node = left;
			continue;
		}
		se = rb_entry(node, struct sched_entity, run_node);
		if (entity_eligible(cfs_rq, se)) {
			best = se;
			break;
		}
		node = node->right;
	}
found:
	if (!best || (curr && entity_before(curr, best)))
		best = curr;
	return best;
}

struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq)
{
	return __pick_eevdf(cfs_rq, true);
}

/* vd_i = ve_i + r_i / w_i once the request is used up; asks for a reschedule */
static bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	(void)cfs_rq;
	if ((s64)(se->vruntime - se->deadline) < 0)
		return false;
	if (!se->custom_slice)
		se->slice = sysctl_sched.base_slice_ns;
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	return true;
}

/* ------------------------------------------------------------------ */
/* PELT glue                                                           */

#define UPDATE_TG 0x0
#define SKIP_AGE_LOAD 0x2
#define DO_ATTACH 0x4
#define DO_DETACH 0x8

static inline u64 cfs_rq_clock_pelt(struct cfs_rq *cfs_rq)
{
	return rq_of(cfs_rq)->clock_pelt;
}

static inline unsigned long se_weight(struct sched_entity *se)
{
	return scale_load_down(se->load.weight);
}

static int update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs_rq)
{
	int decayed = 0;

	if (cfs_rq->removed.nr) {
		pelt_cfs_remove(&cfs_rq->avg, cfs_rq->removed.load_avg, cfs_rq->removed.util_avg,
				cfs_rq->removed.runnable_avg);
		cfs_rq->removed.load_avg = cfs_rq->removed.util_avg = 0;
		cfs_rq->removed.runnable_avg = 0;
		cfs_rq->removed.nr = 0;
		decayed = 1;
	}
	decayed |= pelt_update_cfs(now, &cfs_rq->avg, scale_load_down(cfs_rq->load.weight),
				   cfs_rq->h_nr_runnable, cfs_rq->curr != NULL);
	return decayed;
}

/*
 * Without task groups every cfs_rq is the root one, so cfs_rq_util_change()
 * always kicks cpufreq.
 */
static void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 now = cfs_rq_clock_pelt(cfs_rq);
	int decayed;

	if (se->avg.last_update_time && !(flags & SKIP_AGE_LOAD))
		pelt_update_group_se(now, &se->avg, se_weight(se), se->on_rq,
				     se->on_rq && !se->sched_delayed, cfs_rq->curr == se);
	decayed = update_cfs_rq_load_avg(now, cfs_rq);
	/* attach_entity_load_avg(), detach_entity_load_avg(): cfs_rq_util_change() */
	if (!se->avg.last_update_time && (flags & DO_ATTACH)) {
		pelt_attach(&cfs_rq->avg, &se->avg, se_weight(se));
		cpufreq_update_util(rq_of(cfs_rq), 0);
	} else if (flags & DO_DETACH) {
		pelt_detach(&cfs_rq->avg, &se->avg, se_weight(se));
		cpufreq_update_util(rq_of(cfs_rq), 0);
	} else if (decayed) {
		cpufreq_update_util(rq_of(cfs_rq), 0);
	}
}

/* bring a dequeued entity's averages to its cfs_rq's last update */
static void sync_entity_load_avg(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	pelt_update_blocked_se(cfs_rq->avg.last_update_time, &se->avg, se_weight(se));
}

static void remove_entity_load_avg(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	sync_entity_load_avg(se);
	cfs_rq->removed.nr++;
	cfs_rq->removed.util_avg += se->avg.util_avg;
	cfs_rq->removed.load_avg += se->avg.load_avg;
	cfs_rq->removed.runnable_avg += se->avg.runnable_avg;
}

static void util_est_enqueue(struct cfs_rq *cfs_rq, struct task_struct *p)
{
	if (sched_feat(UTIL_EST))
		util_est_cfs_enqueue(&cfs_rq->avg, &p->se.avg);
}

static void util_est_dequeue(struct cfs_rq *cfs_rq, struct task_struct *p)
{
	if (sched_feat(UTIL_EST))
		util_est_cfs_dequeue(&cfs_rq->avg, &p->se.avg);
}

static void util_est_update(struct cfs_rq *cfs_rq, struct task_struct *p, bool task_sleep)
{
	if (sched_feat(UTIL_EST))
		util_est_update_on_dequeue(&p->se.avg, task_sleep,
					   arch_scale_cpu_capacity(cpu_of(rq_of(cfs_rq))), false);
}

void post_init_entity_util_avg(struct task_struct *p)
{
	struct cfs_rq *cfs_rq = &task_rq(p)->cfs;

	pelt_init_new_task(&p->se.avg, se_weight(&p->se), cfs_rq->avg.util_avg,
			   cfs_rq->avg.load_avg, arch_scale_cpu_capacity(task_cpu(p)));
}

void update_blocked_averages(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	int decayed;

	rq_lock(rq);
	update_rq_clock(rq);
	/* __update_blocked_others(), __update_blocked_fair(): decayed or not */
	decayed = update_cfs_rq_load_avg(cfs_rq_clock_pelt(&rq->cfs), &rq->cfs);
	/* update_other_load_avgs(): the RT average decays (or grows) too */
	decayed |= update_rt_rq_load_avg(rq->clock_pelt, rq,
					 rt_task(rq->curr) && !is_idle_task(rq->curr) &&
						 !rq->curr->is_stopper);
	decayed |= update_dl_rq_load_avg(rq->clock_pelt, rq, dl_task(rq->curr));
	/* and avg_irq, on a guest with steal (0 everywhere else) */
	if (unlikely(sim_steal_enabled()))
		decayed |= update_irq_load_avg(rq, 0);
	if (decayed)
		cpufreq_update_util(rq, 0);
	rq_unlock(rq);
}

unsigned long cpu_util_cfs(unsigned int cpu)
{
	struct cfs_rq *cfs_rq = &cpu_rq(cpu)->cfs;
	unsigned long util = cfs_rq->avg.util_avg;

	if (sched_feat(UTIL_EST))
		util = max(util, (unsigned long)cfs_rq->avg.util_est);
	return min(util, arch_scale_cpu_capacity(cpu));
}

/* ------------------------------------------------------------------ */
/* buddies: cfs_rq->next                                               */

/* without task groups the hierarchy is one level: only the root cfs_rq */
static void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->next == se)
		cfs_rq->next = NULL;
}

static void set_next_buddy(struct sched_entity *se)
{
	/* only a queued entity can be picked (the checker verifies the buddy) */
	if (!se->on_rq)
		return;
	cfs_rq_of(se)->next = se;
}

/* ------------------------------------------------------------------ */
/* accounting the running entity                                       */

static void update_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct rq *rq = rq_of(cfs_rq);
	s64 delta_exec;
	bool resched;

	if (unlikely(!curr))
		return;
	delta_exec = (s64)(rq->clock_task - curr->exec_start);
	if (unlikely(delta_exec <= 0))
		return;
	curr->exec_start = rq->clock_task;
	curr->sum_exec_runtime += (u64)delta_exec;
	rq->stat.rq_cpu_time += (u64)delta_exec;

	/*
	 * The fair server is charged whether or not the task runs on its
	 * behalf: on its behalf the runtime is its budget; in the background
	 * it is time the fair class got anyway, so the server need not run
	 * this period.
	 */
	if (dl_server_active(&rq->fair_server))
		dl_server_update(&rq->fair_server, delta_exec);

	curr->vruntime += calc_delta_fair((u64)delta_exec, curr);
	resched = update_deadline(cfs_rq, curr);
	update_min_vruntime(cfs_rq);

	if (cfs_rq->nr_queued == 1)
		return;
	if (resched || !protect_slice(curr)) {
		resched_curr_lazy(rq);
		clear_buddies(cfs_rq, curr);
	}
}

void update_curr_fair(struct rq *rq)
{
	update_curr(&rq->cfs);
}

/*
 * sched_yield() of a fair task, as v6.18's yield_task_fair(): alone on the
 * runqueue it does nothing; otherwise it drops a next-buddy claim, brings
 * its runtime up to date and, if it is eligible, forfeits the rest of its
 * slice: its vruntime moves to its deadline and it gets a new deadline one
 * slice later ("sched/fair: Forfeit vruntime on yield", in v6.18). An
 * ineligible task keeps its vruntime, so a task that keeps yielding cannot
 * run its vruntime away. The caller then schedules.
 */
void yield_task_fair(struct rq *rq)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &rq->curr->se;

	if (unlikely(rq->nr_running == 1))
		return;
	clear_buddies(cfs_rq, se);
	update_rq_clock(rq);
	update_curr(cfs_rq);
	if (entity_eligible(cfs_rq, se)) {
		se->vruntime = se->deadline;
		se->deadline += calc_delta_fair(se->slice, se);
	}
}

/* ------------------------------------------------------------------ */
/* placement, enqueue, dequeue                                         */

static void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 vslice, vruntime = avg_vruntime(cfs_rq);
	s64 lag = 0;

	if (!se->custom_slice)
		se->slice = sysctl_sched.base_slice_ns;
	vslice = calc_delta_fair(se->slice, se);

	/*
	 * Keep the lag the entity had when it left. Adding it changes V, so
	 * scale it by (W + w_i) / W to land at the same lag relative to the
	 * new average.
	 */
	if (sched_feat(PLACE_LAG) && cfs_rq->nr_queued && se->vlag) {
		struct sched_entity *curr = cfs_rq->curr;
		long load;

		lag = se->vlag;
		load = (long)cfs_rq->avg_load;
		if (curr && curr->on_rq)
			load += (long)scale_load_down(curr->load.weight);
		lag *= load + (long)scale_load_down(se->load.weight);
		if (!load)
			load = 1;
		lag /= load;
	}
	se->vruntime = vruntime - (u64)lag;

	if (se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = 0;
		return;
	}
	/* new tasks ease in with half a slice */
	if (sched_feat(PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

static void account_entity_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_rq->load.weight += se->load.weight;
	cfs_rq->load.inv_weight = 0;
	list_add(&se->group_node, &rq_of(cfs_rq)->cfs_tasks);
	cfs_rq->nr_queued++;
}

static void account_entity_dequeue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_rq->load.weight -= se->load.weight;
	cfs_rq->load.inv_weight = 0;
	list_del_init(&se->group_node);
	cfs_rq->nr_queued--;
}

static void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool curr = cfs_rq->curr == se;

	/* curr must be placed before update_curr() accounts it */
	if (curr)
		place_entity(cfs_rq, se, flags);
	update_curr(cfs_rq);
	update_load_avg(cfs_rq, se, UPDATE_TG | DO_ATTACH);
	if (!curr)
		place_entity(cfs_rq, se, flags);
	account_entity_enqueue(cfs_rq, se);
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;
	if (!curr)
		__enqueue_entity(cfs_rq, se);
	se->on_rq = 1;
}

static void set_delayed(struct sched_entity *se)
{
	se->sched_delayed = 1;
	cfs_rq_of(se)->h_nr_runnable--;
}

static void clear_delayed(struct sched_entity *se)
{
	se->sched_delayed = 0;
	cfs_rq_of(se)->h_nr_runnable++;
}

static void finish_delayed_dequeue_entity(struct sched_entity *se)
{
	clear_delayed(se);
	if (sched_feat(DELAY_ZERO) && se->vlag > 0)
		se->vlag = 0;
}

/* returns false when the entity stays queued as delayed */
static bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool sleep = flags & DEQUEUE_SLEEP;
	int action = UPDATE_TG;

	update_curr(cfs_rq);
	clear_buddies(cfs_rq, se);

	if (!(flags & DEQUEUE_DELAYED)) {
		/*
		 * A sleeper that is not eligible stays in the competition until
		 * it would be picked, burning off its negative lag.
		 */
		if (sched_feat(DELAY_DEQUEUE) && sleep && !(flags & DEQUEUE_SPECIAL) &&
		    !entity_eligible(cfs_rq, se)) {
			update_load_avg(cfs_rq, se, 0);
			set_delayed(se);
			return false;
		}
	}
	if (task_of(se)->on_rq == TASK_ON_RQ_MIGRATING)
		action |= DO_DETACH;
	update_load_avg(cfs_rq, se, action);
	update_entity_lag(cfs_rq, se);
	if (sched_feat(PLACE_REL_DEADLINE) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = 1;
	}
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	se->on_rq = 0;
	account_entity_dequeue(cfs_rq, se);
	if ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime(cfs_rq);
	if (flags & DEQUEUE_DELAYED)
		finish_delayed_dequeue_entity(se);
	return true;
}

/* a delayed entity is woken while still queued */
static void requeue_delayed_entity(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (sched_feat(DELAY_ZERO)) {
		update_entity_lag(cfs_rq, se);
		if (se->vlag > 0) {
			cfs_rq->nr_queued--;
			if (se != cfs_rq->curr)
				__dequeue_entity(cfs_rq, se);
			se->vlag = 0;
			place_entity(cfs_rq, se, 0);
			if (se != cfs_rq->curr)
				__enqueue_entity(cfs_rq, se);
			cfs_rq->nr_queued++;
		}
	}
	update_load_avg(cfs_rq, se, 0);
	clear_delayed(se);
}

void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &p->se;

	if (!se->sched_delayed || (flags & ENQUEUE_DELAYED))
		util_est_enqueue(cfs_rq, p);
	if (flags & ENQUEUE_DELAYED) {
		requeue_delayed_entity(se);
		return;
	}
	/* the updates below may not reach schedutil: tell it of the I/O wakeup */
	if (p->in_iowait)
		cpufreq_update_util(rq, SCHED_CPUFREQ_IOWAIT);
	enqueue_entity(cfs_rq, se, flags);
	/* a delayed task moved by the balancer arrives queued but not runnable */
	if (!se->sched_delayed)
		cfs_rq->h_nr_runnable++;
	/*
	 * The first fair task starts the fair server; on an empty rq the idle
	 * time until now counts against its runtime first.
	 */
	if (!cfs_rq->h_nr_queued++) {
		if (!rq->nr_running)
			dl_server_update_idle_time(rq, rq->curr);
		dl_server_start(&rq->fair_server);
	}
	if (task_has_idle_policy(p))
		cfs_rq->h_nr_idle++;
	/* add_nr_running(): a second task makes the root domain overloaded */
	if (++rq->nr_running == 2)
		cpu_rd(cpu_of(rq))->overloaded = true;
	/*
	 * A new task's initial util (half the spare capacity) is left out:
	 * the first enqueue does not count for the tipping point.
	 */
	if (!(flags & ENQUEUE_INITIAL))
		check_update_overutilized_status(rq);
}

bool dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &p->se;
	bool was_delayed = se->sched_delayed;
	bool was_sched_idle = sched_idle_rq(rq);

	if (!was_delayed)
		util_est_dequeue(cfs_rq, p);
	if (!dequeue_entity(cfs_rq, se, flags)) {
		util_est_update(cfs_rq, p, true);
		return false;
	}
	util_est_update(cfs_rq, p, flags & DEQUEUE_SLEEP);
	/* finishing a delayed dequeue made it runnable again (clear_delayed) first */
	if (!was_delayed || (flags & DEQUEUE_DELAYED))
		cfs_rq->h_nr_runnable--;
	if (task_has_idle_policy(p))
		cfs_rq->h_nr_idle--;
	/* the server stays: only a pick that finds no fair task for it stops it */
	cfs_rq->h_nr_queued--;
	rq->nr_running--;
	/* only SCHED_IDLE work left: balance early to pull better tasks */
	if (unlikely(!was_sched_idle && sched_idle_rq(rq)))
		rq->next_balance = jiffies;
	return true;
}

/* ------------------------------------------------------------------ */
/* picking                                                             */

static void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	clear_buddies(cfs_rq, se);
	if (se->on_rq) {
		__dequeue_entity(cfs_rq, se);
		update_load_avg(cfs_rq, se, UPDATE_TG);
		set_protect_slice(cfs_rq, se);
	}
	se->exec_start = rq_of(cfs_rq)->clock_task;
	cfs_rq->curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

static void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	if (prev->on_rq) {
		update_curr(cfs_rq);
		__enqueue_entity(cfs_rq, prev);
		update_load_avg(cfs_rq, prev, 0);
	}
	cfs_rq->curr = NULL;
}

/* fully dequeue a delayed task that came up for picking */
static void dequeue_delayed_task(struct rq *rq, struct task_struct *p)
{
	dequeue_task_fair(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
	p->on_rq = 0;
}

/*
 * The next buddy, if PICK_BUDDY allows and it is eligible (so picking it
 * costs latency, not fairness); else EEVDF's pick.
 */
static struct sched_entity *pick_next_entity(struct cfs_rq *cfs_rq)
{
	/* a delayed entity is never the next buddy (--check verifies it) */
	if (sched_feat(PICK_BUDDY) && cfs_rq->next && entity_eligible(cfs_rq, cfs_rq->next))
		return cfs_rq->next;
	return pick_eevdf(cfs_rq);
}

/*
 * pick_task_fair(): the task EEVDF picks, without putting prev or setting
 * it as next; a delayed entity that comes up is dequeued for good on the
 * way. NULL when nothing is runnable. The fair server's pick too
 * (fair_server_pick_task()).
 */
struct task_struct *pick_task_fair(struct rq *rq)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se;

again:
	if (!cfs_rq->nr_queued)
		return NULL;
	se = pick_next_entity(cfs_rq);
	if (se->sched_delayed) {
		dequeue_delayed_task(rq, task_of(se));
		goto again;
	}
	return task_of(se);
}

/* the fair side of put_prev_set_next_task(): @prev (fair, or not fair and put already) */
void put_prev_set_next_task_fair(struct rq *rq, struct task_struct *prev, struct task_struct *p)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se = &p->se;

	if (prev != p) {
		if (cfs_rq->curr == &prev->se)
			put_prev_entity(cfs_rq, &prev->se);
		set_next_entity(cfs_rq, se);
	}
	/* most recently picked first: the balancer takes from the cold end */
	list_del_init(&se->group_node);
	list_add(&se->group_node, &rq->cfs_tasks);
	update_misfit_status(p, rq);
}

struct task_struct *pick_next_task_fair(struct rq *rq, struct task_struct *prev)
{
	struct task_struct *p;

again:
	p = pick_task_fair(rq);
	if (!p)
		goto idle;
	put_prev_set_next_task_fair(rq, prev, p);
	return p;

idle:
	if (sched_balance_newidle(rq) > 0)
		goto again;
	return NULL;
}

void put_prev_task_fair(struct rq *rq, struct task_struct *prev)
{
	if (rq->cfs.curr == &prev->se)
		put_prev_entity(&rq->cfs, &prev->se);
}

void set_next_task_fair(struct rq *rq, struct task_struct *p, bool first)
{
	(void)first;
	set_next_entity(&rq->cfs, &p->se);
}

/* ------------------------------------------------------------------ */
/* wakeup preemption, tick, fork, migration                            */

/* v6.19: what a wakeup asks of curr (WAKEUP_PREEMPT_EEVDF) */
enum preempt_wakeup_action {
	PREEMPT_WAKEUP_NONE,	/* no preemption */
	PREEMPT_WAKEUP_SHORT,	/* pick without curr's slice protection */
	PREEMPT_WAKEUP_PICK,	/* preempt if the pick is the wakee */
	PREEMPT_WAKEUP_RESCHED, /* preempt */
};

/*
 * v6.19's NEXT_BUDDY: the wakee becomes the next buddy unless the buddy
 * already set has an earlier deadline.
 */
static bool set_preempt_buddy(struct cfs_rq *cfs_rq, struct sched_entity *pse)
{
	if (cfs_rq->next && entity_before(cfs_rq->next, pse))
		return false;
	set_next_buddy(pse);
	return true;
}

/*
 * v6.19: a WF_SYNC wakee preempts only once the waker has run
 * migration_cost (a quarter of it when select_task_rq() could have put
 * the wakee elsewhere) and only with an earlier deadline. The runtime is
 * read after update_curr() has moved exec_start to now, so it is 0 and a
 * sync wakeup never preempts here: what e837456fdca8 merged (an earlier
 * posting read it before update_curr()); docs/features.md.
 */
static enum preempt_wakeup_action preempt_sync(struct rq *rq, int wake_flags,
					       struct sched_entity *pse, struct sched_entity *se)
{
	u64 threshold = sysctl_sched.migration_cost_ns;
	s64 delta = (s64)(rq->clock_task - se->exec_start);

	if (delta < 0)
		delta = 0;
	if (wake_flags & WF_RQ_SELECTED)
		threshold >>= 2;
	if (entity_before(pse, se) && (u64)delta >= threshold)
		return PREEMPT_WAKEUP_RESCHED;
	return PREEMPT_WAKEUP_NONE;
}

void check_preempt_wakeup_fair(struct rq *rq, struct task_struct *p, int wake_flags)
{
	enum preempt_wakeup_action action = PREEMPT_WAKEUP_PICK;
	bool v619 = sched_feat(WAKEUP_PREEMPT_EEVDF);
	struct task_struct *donor = rq->curr;
	struct sched_entity *se = &donor->se, *pse = &p->se;
	struct cfs_rq *cfs_rq = &rq->cfs;

	if (unlikely(se == pse))
		return;
	/*
	 * v6.18's NEXT_BUDDY: prefer the woken task at the next pick even if
	 * it does not preempt now (it will likely consume data the waker
	 * touched).
	 */
	if (!v619 && sched_feat(NEXT_BUDDY) && !(wake_flags & WF_FORK) && !pse->sched_delayed)
		set_next_buddy(pse);
	if (rq->need_resched)
		return;
	if (!sched_feat(WAKEUP_PREEMPTION))
		return;

	/*
	 * se_is_idle(): a SCHED_IDLE curr is preempted by any other wakee,
	 * without slice protection; a SCHED_IDLE wakee never preempts a
	 * non-idle curr.
	 */
	if (task_has_idle_policy(donor) && !task_has_idle_policy(p)) {
		action = PREEMPT_WAKEUP_SHORT;
		goto preempt;
	}
	if (task_has_idle_policy(donor) != task_has_idle_policy(p))
		return;
	/* BATCH and IDLE tasks do not preempt others */
	if (unlikely(!normal_policy(p->policy)))
		return;

	update_curr(cfs_rq);
	/* a wakee with a shorter slice may override curr's protection */
	if (sched_feat(PREEMPT_SHORT) && pse->slice < se->slice) {
		action = PREEMPT_WAKEUP_SHORT;
		goto pick;
	}
	if (v619) {
		/* fork is often followed by exec; a delayed wakee is not eligible */
		if ((wake_flags & WF_FORK) || pse->sched_delayed)
			return;
		/* the waker is past its share: let the pick decide now */
		if (in_task() && !entity_eligible(cfs_rq, se)) {
			action = PREEMPT_WAKEUP_RESCHED;
			goto preempt;
		}
		/* only a new buddy's WF_SYNC hint is weighed */
		if (sched_feat(NEXT_BUDDY) && set_preempt_buddy(cfs_rq, pse) &&
		    (wake_flags & WF_SYNC))
			action = preempt_sync(rq, wake_flags, pse, se);
		if (action == PREEMPT_WAKEUP_NONE)
			return;
		if (action == PREEMPT_WAKEUP_RESCHED)
			goto preempt;
	}
pick:
	if (__pick_eevdf(cfs_rq, action != PREEMPT_WAKEUP_SHORT) == pse)
		goto preempt;
	/* v6.18 narrows curr's protection only for a shorter wakee; v6.19 always */
	if (sched_feat(RUN_TO_PARITY) && (v619 || action == PREEMPT_WAKEUP_SHORT))
		update_protect_slice(cfs_rq, se);
	return;
preempt:
	if (action == PREEMPT_WAKEUP_SHORT)
		cancel_protect_slice(se);
	resched_curr_lazy(rq);
}

/*
 * A task leaves the fair class (sched_setscheduler() to RT): its PELT
 * averages leave the cfs_rq's (detach_task_cfs_rq()); the next fair
 * enqueue attaches them afresh.
 */
void switched_from_fair(struct rq *rq, struct task_struct *p)
{
	struct sched_entity *se = &p->se;

	if (se->avg.last_update_time)
		update_load_avg(&rq->cfs, se, DO_DETACH);
	se->avg.last_update_time = 0;
}

/* a queued task joins the fair class: it may preempt curr (switched_to_fair()) */
void switched_to_fair(struct rq *rq, struct task_struct *p)
{
	if (!task_on_rq_queued(p))
		return;
	if (rq->curr == p)
		resched_curr(rq);
	else
		wakeup_preempt(rq, p, 0);
}

/* prio_changed_fair(): a nice change of a queued task */
void prio_changed_fair(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p) || p->prio == oldprio)
		return;
	if (rq->curr == p) {
		if (p->prio > oldprio)
			resched_curr(rq);
	} else {
		wakeup_preempt(rq, p, 0);
	}
}

void task_tick_fair(struct rq *rq, struct task_struct *curr)
{
	struct cfs_rq *cfs_rq = &rq->cfs;

	update_curr(cfs_rq);
	update_load_avg(cfs_rq, &curr->se, UPDATE_TG);
	update_misfit_status(curr, rq);
	check_update_overutilized_status(rq);
}

void task_fork_fair(struct task_struct *p)
{
	/* placement happens at the first enqueue (ENQUEUE_INITIAL) */
	(void)p;
}

void migrate_task_rq_fair(struct task_struct *p, unsigned int new_cpu)
{
	struct sched_entity *se = &p->se;

	(void)new_cpu;
	if (p->on_rq != TASK_ON_RQ_MIGRATING && se->avg.last_update_time)
		remove_entity_load_avg(se);
	/* attach afresh on the new CPU */
	se->avg.last_update_time = 0;
}

void init_entity(struct sched_entity *se)
{
	struct load_weight lw = se->load;

	*se = (struct sched_entity){ 0 };
	se->load = lw;
	RB_CLEAR_NODE(&se->run_node);
	INIT_LIST_HEAD(&se->group_node);
	se->slice = sysctl_sched.base_slice_ns;
}

void init_cfs_rq(struct cfs_rq *cfs_rq)
{
	*cfs_rq = (struct cfs_rq){ 0 };
	cfs_rq->tasks_timeline = RB_ROOT_CACHED;
	/* start well away from 0 so wrap-around arithmetic is exercised */
	cfs_rq->min_vruntime = (u64)(-(1LL << 20));
}
