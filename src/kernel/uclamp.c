// SPDX-License-Identifier: GPL-2.0-only
/*
 * Utilization clamping (kernel/sched/core.c and sched.h, CONFIG_UCLAMP_TASK,
 * as of v6.18, without cgroups): a task's uclamp_min/uclamp_max requests
 * (sched_setattr() with SCHED_FLAG_UTIL_CLAMP_*, rt-app's util_min and
 * util_max), their max-aggregation over a runqueue's runnable tasks in
 * buckets, and the system defaults (sysctl_sched_util_clamp_min/max 1024,
 * RT tasks' default min 1024). The whole mechanism stays off (the
 * sched_uclamp_used static key) until a task asks for a clamp.
 */
#include "kernel/sched.h"

#include <errno.h>

bool sched_uclamp_used;

/* sysctl_sched_uclamp_util_min/max and _min_rt_default: 1024 each */
static const unsigned int sysctl_sched_uclamp_util_min = SCHED_CAPACITY_SCALE;
static const unsigned int sysctl_sched_uclamp_util_max = SCHED_CAPACITY_SCALE;
static const unsigned int sysctl_sched_uclamp_util_min_rt_default = SCHED_CAPACITY_SCALE;

static unsigned int uclamp_none(enum uclamp_id clamp_id)
{
	return clamp_id == UCLAMP_MIN ? 0 : SCHED_CAPACITY_SCALE;
}

static unsigned int uclamp_bucket_id(unsigned int clamp_value)
{
	return min(clamp_value / UCLAMP_BUCKET_DELTA, UCLAMP_BUCKETS - 1U);
}

static void uclamp_se_set(struct uclamp_se *uc_se, unsigned int value, bool user_defined)
{
	uc_se->value = value;
	uc_se->bucket_id = uclamp_bucket_id(value);
	uc_se->user_defined = user_defined;
}

void init_uclamp_rq(struct rq *rq)
{
	for (int id = 0; id < UCLAMP_CNT; id++) {
		rq->uclamp[id] = (struct uclamp_rq){ .value = uclamp_none((enum uclamp_id)id) };
	}
	rq->uclamp_flags = UCLAMP_FLAG_IDLE;
}

void uclamp_task_init(struct task_struct *p)
{
	for (int id = 0; id < UCLAMP_CNT; id++) {
		uclamp_se_set(&p->uclamp_req[id], uclamp_none((enum uclamp_id)id), false);
		p->uclamp[id] = p->uclamp_req[id];
		p->uclamp[id].active = false;
	}
	/* uclamp_update_util_min_rt_default(): RT tasks run at max unless asked otherwise */
	if (rt_task(p))
		uclamp_se_set(&p->uclamp_req[UCLAMP_MIN], sysctl_sched_uclamp_util_min_rt_default,
			      false);
}

/* uclamp_eff_get(): the request, within the system defaults (no cgroup restriction) */
static struct uclamp_se uclamp_eff_get(const struct task_struct *p, enum uclamp_id clamp_id)
{
	struct uclamp_se uc_req = p->uclamp_req[clamp_id];
	unsigned int max = clamp_id == UCLAMP_MIN ? sysctl_sched_uclamp_util_min :
						    sysctl_sched_uclamp_util_max;

	if (uc_req.value > max)
		uclamp_se_set(&uc_req, max, false);
	return uc_req;
}

unsigned long uclamp_eff_value(const struct task_struct *p, enum uclamp_id clamp_id)
{
	if (p->uclamp[clamp_id].active)
		return p->uclamp[clamp_id].value;
	return uclamp_eff_get(p, clamp_id).value;
}

/* uclamp_idle_reset(): the first task after idle resets the retained max */
static void uclamp_idle_reset(struct rq *rq, enum uclamp_id clamp_id, unsigned int value)
{
	if (!(rq->uclamp_flags & UCLAMP_FLAG_IDLE))
		return;
	rq->uclamp[clamp_id].value = value;
}

/* uclamp_idle_value(): an rq without tasks keeps its last max clamp, min goes to 0 */
static unsigned int uclamp_idle_value(struct rq *rq, enum uclamp_id clamp_id,
				      unsigned int clamp_value)
{
	if (clamp_id == UCLAMP_MAX) {
		rq->uclamp_flags |= UCLAMP_FLAG_IDLE;
		return clamp_value;
	}
	return uclamp_none(UCLAMP_MIN);
}

/* uclamp_rq_max_value(): the highest bucket with tasks */
static unsigned int uclamp_rq_max_value(struct rq *rq, enum uclamp_id clamp_id,
					unsigned int clamp_value)
{
	const struct uclamp_bucket *bucket = rq->uclamp[clamp_id].bucket;

	for (int i = UCLAMP_BUCKETS - 1; i >= 0; i--)
		if (bucket[i].tasks)
			return (unsigned int)bucket[i].value;
	return uclamp_idle_value(rq, clamp_id, clamp_value);
}

static void uclamp_rq_inc_id(struct rq *rq, struct task_struct *p, enum uclamp_id clamp_id)
{
	struct uclamp_rq *uc_rq = &rq->uclamp[clamp_id];
	struct uclamp_se *uc_se = &p->uclamp[clamp_id];
	struct uclamp_bucket *bucket;

	*uc_se = uclamp_eff_get(p, clamp_id);
	bucket = &uc_rq->bucket[uc_se->bucket_id];
	bucket->tasks++;
	uc_se->active = true;
	uclamp_idle_reset(rq, clamp_id, uc_se->value);
	/* the bucket's value is the largest of its tasks' (local max aggregation) */
	if (bucket->tasks == 1 || uc_se->value > bucket->value)
		bucket->value = uc_se->value;
	if (uc_se->value > uc_rq->value)
		uc_rq->value = uc_se->value;
}

static void uclamp_rq_dec_id(struct rq *rq, struct task_struct *p, enum uclamp_id clamp_id)
{
	struct uclamp_rq *uc_rq = &rq->uclamp[clamp_id];
	struct uclamp_se *uc_se = &p->uclamp[clamp_id];
	struct uclamp_bucket *bucket;

	if (!uc_se->active)
		return;
	bucket = &uc_rq->bucket[uc_se->bucket_id];
	if (bucket->tasks)
		bucket->tasks--;
	uc_se->active = false;
	/* the bucket's value stays an over-estimate until it empties */
	if (bucket->tasks)
		return;
	if (uc_se->value == uc_rq->value)
		uc_rq->value = uclamp_rq_max_value(rq, clamp_id, uc_se->value);
}

void __uclamp_rq_inc(struct rq *rq, struct task_struct *p, int flags)
{
	/* the fair and RT classes have uclamp_enabled; idle and stop do not */
	if (is_idle_task(p) || p->is_stopper)
		return;
	/* a delayed task was counted out at its dequeue; back with ENQUEUE_DELAYED */
	if (p->se.sched_delayed && !(flags & ENQUEUE_DELAYED))
		return;
	for (int id = 0; id < UCLAMP_CNT; id++)
		uclamp_rq_inc_id(rq, p, (enum uclamp_id)id);
	rq->uclamp_flags &= ~UCLAMP_FLAG_IDLE;
}

void __uclamp_rq_dec(struct rq *rq, struct task_struct *p)
{
	if (is_idle_task(p) || p->is_stopper)
		return;
	if (p->se.sched_delayed)
		return;
	for (int id = 0; id < UCLAMP_CNT; id++)
		uclamp_rq_dec_id(rq, p, (enum uclamp_id)id);
}

unsigned long uclamp_rq_util_with(struct rq *rq, unsigned long util, struct task_struct *p)
{
	unsigned long min_util = 0, max_util = 0;

	if (!uclamp_is_used())
		return util;
	if (p) {
		min_util = uclamp_eff_value(p, UCLAMP_MIN);
		max_util = uclamp_eff_value(p, UCLAMP_MAX);
		/* the last runnable task's max clamp is ignored: @p will reset it */
		if (uclamp_rq_is_idle(rq))
			goto out;
	}
	min_util = max(min_util, uclamp_rq_get(rq, UCLAMP_MIN));
	max_util = max(max_util, uclamp_rq_get(rq, UCLAMP_MAX));
out:
	if (min_util >= max_util)
		return min_util;
	return clamp(util, min_util, max_util);
}

int uclamp_validate(const struct task_struct *p, const struct sched_attr *attr)
{
	int util_min = (int)p->uclamp_req[UCLAMP_MIN].value;
	int util_max = (int)p->uclamp_req[UCLAMP_MAX].value;

	if (attr->sched_flags & SCHED_FLAG_UTIL_CLAMP_MIN) {
		util_min = (int)attr->sched_util_min;
		if (util_min + 1 > SCHED_CAPACITY_SCALE + 1)
			return -EINVAL;
	}
	if (attr->sched_flags & SCHED_FLAG_UTIL_CLAMP_MAX) {
		util_max = (int)attr->sched_util_max;
		if (util_max + 1 > SCHED_CAPACITY_SCALE + 1)
			return -EINVAL;
	}
	if (util_min != -1 && util_max != -1 && util_min > util_max)
		return -EINVAL;
	/* the static key goes on with the first request (and stays on) */
	if (attr->sched_flags & SCHED_FLAG_UTIL_CLAMP)
		sched_uclamp_used = true;
	return 0;
}

/* uclamp_reset(): a default clamp follows a class change; -1 asks for the default */
static bool uclamp_reset(const struct sched_attr *attr, enum uclamp_id clamp_id,
			 const struct uclamp_se *uc_se)
{
	if (!(attr->sched_flags & SCHED_FLAG_UTIL_CLAMP) && !uc_se->user_defined)
		return true;
	if (clamp_id == UCLAMP_MIN && (attr->sched_flags & SCHED_FLAG_UTIL_CLAMP_MIN) &&
	    attr->sched_util_min == (u32)-1)
		return true;
	if (clamp_id == UCLAMP_MAX && (attr->sched_flags & SCHED_FLAG_UTIL_CLAMP_MAX) &&
	    attr->sched_util_max == (u32)-1)
		return true;
	return false;
}

void __setscheduler_uclamp(struct task_struct *p, const struct sched_attr *attr)
{
	for (int id = 0; id < UCLAMP_CNT; id++) {
		struct uclamp_se *uc_se = &p->uclamp_req[id];
		unsigned int value;

		if (!uclamp_reset(attr, (enum uclamp_id)id, uc_se))
			continue;
		if (rt_task(p) && id == UCLAMP_MIN)
			value = sysctl_sched_uclamp_util_min_rt_default;
		else
			value = uclamp_none((enum uclamp_id)id);
		uclamp_se_set(uc_se, value, false);
	}
	if (!(attr->sched_flags & SCHED_FLAG_UTIL_CLAMP))
		return;
	if ((attr->sched_flags & SCHED_FLAG_UTIL_CLAMP_MIN) && attr->sched_util_min != (u32)-1)
		uclamp_se_set(&p->uclamp_req[UCLAMP_MIN], attr->sched_util_min, true);
	if ((attr->sched_flags & SCHED_FLAG_UTIL_CLAMP_MAX) && attr->sched_util_max != (u32)-1)
		uclamp_se_set(&p->uclamp_req[UCLAMP_MAX], attr->sched_util_max, true);
}
