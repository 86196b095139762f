/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Study files: a packaged before/after study in a few lines of text.
 *
 *   name NAME                     the study's name (`schedlab study NAME`)
 *   title TEXT                    what it studies, with the commit it is about
 *   variant NAME FEATURES|-       a feature list ("-": the defaults); the first
 *                                 variant is what the others are compared with
 *   machine NAME...               machines (presets), one or more per line
 *   workload COMMAND...           benchmark command lines; every machine runs
 *                                 every workload
 *   quick-machine / quick-workload
 *                                 the same for --quick, a reduced form for tests
 *   metric NAME                   the rows to print, in order
 *   runs N                        runs per variant and case (seeds S..S+N-1)
 *   option NAME VALUE             a session option for every run: funclatency,
 *                                 sysctl, cost, hz, preempt, probe-overhead or
 *                                 also (VALUE: a background command line)
 *   runner perf-stat              also print, per case and variant, what
 *                                 perf stat --null --repeat RUNS prints for
 *                                 the same runs (the elapsed-time line)
 *   note TEXT                     printed under the tables
 *   case MACHINE...               a group of cases of their own: the
 *                                 workload, quick-machine, quick-workload,
 *                                 option and runner lines up to the next
 *                                 'case' are its own (its machines run its
 *                                 workloads, with the study-wide options
 *                                 and then its own); a study has either
 *                                 'case' groups or machine/workload lines
 *
 * '#' starts a comment line; blank lines are ignored. docs/ab-and-studies.md.
 */
#ifndef SCHEDLAB_CLI_STUDY_FILE_H
#define SCHEDLAB_CLI_STUDY_FILE_H

#include "report/compare.h"

#include <stddef.h>

struct embedded_study {
	const char *name;
	const char *path;	/* where it lives in the source tree */
	const char *text;
};

/* the packaged studies (generated from the files in studies/) */
extern const struct embedded_study embedded_studies[];
extern const int nr_embedded_studies;

struct strlist {
	char **v;
	int n;
};

/* machines that run workloads with options: the study's lines, or one 'case' group's */
struct study_group {
	int line;		/* its 'case' line; 0 for the study-wide lines */
	struct strlist machines, quick_machines;
	struct strlist workloads, quick_workloads;
	struct strlist opt_names, opt_values;
	bool perf_stat_runner;	/* 'runner perf-stat' */
};

struct study_def {
	char *name;
	char *title;
	int nr_variants;
	char *variant_name[CMP_MAX_VARIANTS];
	char *variant_features[CMP_MAX_VARIANTS]; /* "" = defaults */
	int runs;
	struct strlist metrics;
	struct study_group top;		/* the lines outside 'case' groups */
	struct study_group *groups;	/* the 'case' groups, in order */
	int nr_groups;
	struct strlist notes;
};

/*
 * Parse @text (from @origin, for messages). 0, or -1 with
 * "ORIGIN:LINE: what is wrong" in @err.
 */
int study_parse(const char *origin, const char *text, struct study_def *d, char *err,
		size_t errlen);
void study_free(struct study_def *d);
/*
 * The groups of cases to run, @n of them: the 'case' groups, or the
 * study-wide lines as one group when there are none. Study-wide option and
 * runner lines (d->top) apply to every 'case' group as well.
 */
const struct study_group *study_groups(const struct study_def *d, int *n);

/* Split a command line at blanks into a NULL-terminated argv; free with strlist_free. */
void split_words(const char *line, struct strlist *out);
void strlist_free(struct strlist *l);

/*
 * The line format study and plan files share: "DIRECTIVE VALUE...", '#'
 * comment lines and blank lines skipped, messages "ORIGIN:LINE: ...".
 */
struct directive_parser {
	const char *origin;
	int line;		/* the line being parsed */
	char *err;
	size_t errlen;
};

/* "ORIGIN:LINE: message" into @ps->err; returns -1 */
int directive_fail(struct directive_parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* the first word of @rest (its length in @len) and what follows it, blanks skipped */
const char *directive_next_word(const char *rest, size_t *len);
/* a copy of @rest into *@slot, once: a second time, or an empty value, fails */
int directive_set_once(struct directive_parser *ps, char **slot, const char *key,
		       const char *rest);
/* each word of @rest appended to @l (kept NULL-terminated); an empty @rest fails */
int directive_add_words(struct directive_parser *ps, struct strlist *l, const char *key,
			const char *rest);
typedef int (*directive_fn)(struct directive_parser *ps, void *arg, const char *key,
			    size_t klen, const char *rest);
/* @fn on each directive line of @text (trimmed); 0, or -1 at the first that fails */
int directive_each(struct directive_parser *ps, const char *text, directive_fn fn, void *arg);

/*
 * The session_opt() code of an 'option NAME VALUE' line of a study or plan
 * (study_option_list() names them), 0 if NAME is none of them.
 */
int study_option_code(const char *name);
/* those names, for messages: "funclatency, sysctl, ... or idle-states" */
const char *study_option_list(void);

/* the largest study or plan file */
#define TEXT_FILE_MAX (1 << 20)

/*
 * A whole text file (a study or a plan), NUL-terminated; NULL with one
 * message ("CMD: ...") for a missing, huge or binary file, or a directory
 * (not WHAT, "a study file").
 */
char *read_text_file(const char *cmd, const char *path, const char *what);

#endif
