// SPDX-License-Identifier: GPL-2.0-only
/*
 * stress-ng --affinity N [--affinity-ops M] [--affinity-procs P]
 * [--affinity-rand] [--affinity-delay NS] [--affinity-sleep NS]
 * (stress-affinity.c stress_affinity(), stress-ng 0.22.00).
 *
 * Each instance forks P - 1 processes (P default 16) and runs the same
 * loop as they do: the next CPU, (cpu + 1) % CPUs from the instance's
 * number, or with --affinity-rand a random one (not the last one again
 * when there are more than two); sched_setaffinity() to that CPU alone,
 * which moves the process there; sched_getaffinity() to check; four calls
 * that fail their argument checks (a pid of -1, mask sizes of 0, an empty
 * mask); one bogo op on the instance's shared counter, under a lock; with
 * --affinity-delay NS, sched_yield() until NS passed, with
 * --affinity-sleep NS a nanosleep(); until the run stops or the counter
 * reaches the budget. The CPUs are all the machine's
 * (stress_cpus_configured_get()), whatever affinity stress-ng started with:
 * sched_setaffinity() may widen it. The forked processes start from the
 * instance's random state, and nothing draws from it before the forks, so
 * with --affinity-rand they all follow one sequence, as without it. When
 * the instance stops (its alarm, or the budget) it sends its processes
 * SIGALRM and waits for them.
 */
#include "work/stress.h"

#include "sim/alloc.h"
#include "topo/cpumask.h"

/* the failing calls after sched_getaffinity(): pid -1, size 0 twice, empty mask */
#define AFFINITY_PROBES 4

struct affinity_proc {
	struct stress_affinity *a;
	struct task_struct *task;
	struct cpumask *mask;
	struct prng rnd; /* the instance's, as it was at the fork */
	unsigned int cpu, last_cpu;
	unsigned int probes;
	u64 spin_end;
	int step;
};

struct stress_affinity {
	struct stress_instance *in;
	unsigned int nr, spawned; /* processes, the instance's own loop included */
	bool stopping; /* the SIGALRM to the forked processes */
	struct affinity_proc proc[];
};

enum { A_MOVE, A_GET, A_PROBE, A_COUNT, A_SPIN, A_SLEPT, A_NEXT };

/*
 * One step of stress_affinity_child(); false when the process is done,
 * with nothing in @op.
 */
static bool affinity_step(struct affinity_proc *ap, struct op_desc *op)
{
	struct stress_affinity *a = ap->a;
	struct stress_instance *in = a->in;
	const struct stressor *s = in->s;
	unsigned int cpus = machine.nr_cpus;

	for (;;) {
		switch (ap->step) {
		case A_MOVE:
			if (s->affinity_rand) {
				ap->cpu = (unsigned int)prng_below(&ap->rnd, cpus);
				/* more than 2 CPUs and the same as last: the next one */
				if (ap->cpu == ap->last_cpu && cpus > 2)
					ap->cpu = (ap->cpu + 1) % cpus;
				ap->last_cpu = ap->cpu;
			} else {
				ap->cpu = (ap->cpu + 1) % cpus;
			}
			cpumask_clear(ap->mask);
			cpumask_set_cpu(ap->cpu, ap->mask);
			ap->step = A_GET;
			*op = (struct op_desc){ .kind = OP_SETAFFINITY, .cpus = ap->mask };
			return true;
		case A_GET:
			/* sched_getaffinity(0, ...) to check the move */
			ap->step = A_PROBE;
			ap->probes = 0;
			stress_op_syscall(op);
			return true;
		case A_PROBE:
			if (ap->probes++ < AFFINITY_PROBES) {
				stress_op_syscall(op);
				return true;
			}
			ap->step = A_COUNT;
			break;
		case A_COUNT:
			/* stress_bogo_inc_lock(): false once the counter reached the budget */
			in->counter++;
			in->b->progress_done++;
			if (s->instance_max_ops && in->counter >= s->instance_max_ops)
				return false;
			ap->spin_end = cpu_now() + s->affinity_delay_ns;
			ap->step = A_SPIN;
			break;
		case A_SPIN:
			/* stress_affinity_spin_delay(): sched_yield() until the delay passed */
			if (s->affinity_delay_ns && cpu_now() < ap->spin_end) {
				*op = (struct op_desc){ .kind = OP_YIELD };
				return true;
			}
			ap->step = A_SLEPT;
			if (s->affinity_sleep_ns) {
				*op = (struct op_desc){ .kind = OP_SLEEP,
							.ns = s->affinity_sleep_ns };
				return true;
			}
			break;
		case A_SLEPT:
			ap->step = A_MOVE;
			/* } while (stress_continue(args)) */
			if (ap == &a->proc[0] ?
				    !stress_continue(in) :
				    (a->stopping ||
				     (s->instance_max_ops && in->counter >= s->instance_max_ops)))
				return false;
			break;
		default:
			return false;
		}
	}
}

static void child_next(struct work_task *wt, struct op_desc *op)
{
	struct affinity_proc *ap = wt->state;

	if (!ap->task) {
		ap->task = wt->task;
		stress_child_started(ap->a->in, wt->task);
	}
	/* the SIGALRM the instance sends clears the flag its loop checks last */
	if (!affinity_step(ap, op))
		*op = (struct op_desc){ .kind = OP_EXIT };
}

static const struct program child_prog = { .next = child_next };

enum { AP_BEGIN, AP_FORK, AP_LOOP, AP_REAP, AP_EXIT };

static void affinity_next(struct work_task *wt, struct op_desc *op)
{
	struct stress_instance *in = wt->state;
	struct stress_affinity *a = in->priv;

	/* SIGALRM: a sleep in progress ends early, the flag is clear */
	wt->signalled = false;
	for (;;) {
		switch (in->phase) {
		case AP_BEGIN:
			if (stress_instance_begin(in, wt, op))
				return;
			in->phase = AP_FORK;
			break;
		case AP_FORK:
			/* the processes 1..P-1; the instance is process 0 */
			if (a->spawned + 1 < a->nr) {
				stress_spawn(in, &child_prog, &a->proc[++a->spawned],
					     FOOTPRINT_TASK, op);
				return;
			}
			a->proc[0].task = wt->task;
			in->phase = AP_LOOP;
			break;
		case AP_LOOP:
			if (affinity_step(&a->proc[0], op))
				return;
			/* stress_affinity_reap(): SIGALRM to them all, and wait */
			a->stopping = true;
			in->phase = AP_REAP;
			*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
			return;
		case AP_REAP:
			if (wt->task->nr_children_alive) {
				*op = (struct op_desc){ .kind = OP_WAIT_CHILDREN, .val = WAIT_PID };
				return;
			}
			in->phase = AP_EXIT;
			break;
		default:
			stress_instance_exit(in, op);
			return;
		}
	}
}

const struct program stress_affinity_prog = { .next = affinity_next };

static void affinity_free(struct stress_instance *in)
{
	struct stress_affinity *a = in->priv;

	for (unsigned int i = 0; i < a->nr; i++)
		free_cpumask(a->proc[i].mask);
}

void stress_affinity_init(struct stress_instance *in)
{
	unsigned int nr = in->s->affinity_procs;
	struct stress_affinity *a = xcalloc(1, sizeof(*a) + nr * sizeof(a->proc[0]));

	a->in = in;
	a->nr = nr;
	for (unsigned int i = 0; i < nr; i++) {
		struct affinity_proc *ap = &a->proc[i];

		ap->a = a;
		ap->mask = alloc_cpumask();
		ap->rnd = in->rnd;
		/* uint32_t cpu = args->instance; last_cpu likewise */
		ap->cpu = ap->last_cpu = in->idx;
	}
	in->priv = a;
	in->free_priv = affinity_free;
}
