/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sweep plans: the axes of a grid of runs, in the style of study files.
 *
 *   name NAME                  the sweep's name (Slurm's job name)
 *   machine NAME...            axis 'machine': presets, one or more per line
 *   workload COMMAND...        axis 'workload': benchmark command lines;
 *                              {AXIS} is replaced by each value of axis AXIS
 *   axis NAME VALUE...         an axis of your own (A..B: the integers A to B)
 *   features NAME LIST|-       axis 'features': a named feature list
 *   settings NAME OPTION...|-  axis 'settings': a named set of run options
 *                              (--sysctl N=V, --cost N=NS, --hz N, --preempt M)
 *   seeds N...                 the seeds (A..B: A to B); 'seed' too
 *   option NAME VALUE          a run option for every point (as in study files);
 *                              {AXIS} in VALUE is replaced as in workloads
 *   metric NAME...             the columns --collect shows (default: all)
 *   time T / mem M / chunk N   Slurm: --time and --mem of an array task, and
 *                              how many points one array task runs
 *   sbatch OPTION...           Slurm: another #SBATCH line (--partition=...)
 *   note TEXT                  printed under the collected table
 *
 * Every machine runs every workload, every workload every combination of
 * the values of the axes it uses (in its command line or in an option), and
 * each of those every feature set, settings set and seed: one point, one
 * `schedlab run`. docs/sweeps.md.
 */
#ifndef SCHEDLAB_CLI_SWEEP_PLAN_H
#define SCHEDLAB_CLI_SWEEP_PLAN_H

#include "cli/session.h"
#include "cli/study_file.h"

#include <stddef.h>

#define SWEEP_MAX_AXES 8	/* axes of the user's own ('axis' lines) */
#define SWEEP_MAX_SEEDS 10000
#define SWEEP_MAX_POINTS 100000
#define SWEEP_HASH_LEN 16	/* hex digits of a point's name */

/* a list of words with the plan line each came from */
struct sweep_list {
	struct strlist names, values;	/* values: unused for plain lists */
	int *lines;
};

struct sweep_plan {
	const char *origin;		/* the plan file, for messages */
	char *name;
	struct sweep_list machines, workloads;
	struct sweep_list features;	/* names, lists ("" = defaults) */
	struct sweep_list settings;	/* names, options ("" = none) */
	int nr_axes;
	char *axis_name[SWEEP_MAX_AXES];
	struct strlist axis_values[SWEEP_MAX_AXES];
	int axis_line[SWEEP_MAX_AXES];
	u64 *seeds;
	int nr_seeds;
	struct sweep_list options;	/* names, values */
	struct strlist metrics, notes, sbatch;
	char *time, *mem;
	int chunk;
};

struct sweep_point {
	char hash[SWEEP_HASH_LEN + 1];
	char *cmd;		/* the run's command line after "schedlab " (shell-quoted) */
	int machine, workload, features, settings, seed;	/* indices into the plan */
	int axis[SWEEP_MAX_AXES];	/* value index, -1 where the workload does not use it */
	int group;		/* the points that differ only in the seed share it */
	/* the run, ready for session_start(); its strings are the point's own */
	struct session_config cfg;
	struct strlist words;	/* strings cfg points into */
	char **argv;
};

/* Parse @text; 0, or -1 with "ORIGIN:LINE: what is wrong" in @err. */
int sweep_plan_parse(const char *origin, const char *text, struct sweep_plan *p, char *err,
		     size_t errlen);
void sweep_plan_free(struct sweep_plan *p);
/* An option for every point, as the plan's "option NAME VALUE" (sweep --costs FILE). */
void sweep_plan_add_option(struct sweep_plan *p, const char *name, const char *value);

/*
 * Every point of the plan, in plan order (machine, workload, axes, features,
 * settings, seed). 0, or EXIT_BAD_INPUT with one message printed (an option
 * value that is wrong for some axis value, too many points).
 */
int sweep_points(const struct sweep_plan *p, struct sweep_point **pts, int *n);
void sweep_points_free(struct sweep_point *pts, int n);

/*
 * Set every distinct setting up without running it, as `run` would, so a
 * mistake costs no run: EXIT_BAD_INPUT with one message naming the plan line.
 */
int sweep_validate(const struct sweep_plan *p, const struct sweep_point *pts, int n);

/* FNV-1a, 64 bits, of @s: names a point by its command line */
u64 sweep_hash(const char *s);

#endif
