/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Machine files: a machine described in plain text (docs/machines.md,
 * "Machine files"), read by -m PATH and written by `schedlab machines
 * --export`. The text is `[section]` headers and `name = value` lines; the
 * lexer (machine_lex.c) hands each line to a section's parser, so that the
 * [costs] parser can also read a costs-only file into a cost model without
 * a machine around it (issue 23's calibrate profiles).
 */
#ifndef SCHEDLAB_TOPO_MACHINE_FILE_H
#define SCHEDLAB_TOPO_MACHINE_FILE_H

#include "sim/cost.h"
#include "topo/topology.h"

#include <stdio.h>

/* the largest machine file read (8192 explicit CPUs and a SLIT fit easily) */
#define MACHINE_FILE_MAX_BYTES (4u << 20)

/* The levels of `shape =`, outermost first, and how CPUs are numbered in them. */
enum mf_level { LV_PACK, LV_NUMA, LV_LLC, LV_CLUSTER, LV_CORE, LV_PU, MF_NR_LEVELS };
enum mf_numbering { NUMB_CONSECUTIVE, NUMB_X86, NUMB_FUSED, MF_NR_NUMBERINGS };

/* The words the file uses for levels, numberings and the two span enums. */
extern const char *const mf_level_names[MF_NR_LEVELS];
extern const char *const mf_numbering_names[MF_NR_NUMBERINGS];
extern const char *const mf_cpufreq_span_names[5];
extern const char *const mf_cache_span_names[NR_CACHE_SPANS];

/*
 * Every CPU's ids in a regular machine of @shape (counts per parent,
 * outermost first), numbered as the presets number them: @cpus has the
 * product of the counts entries.
 */
void mf_regular_ids(const unsigned int shape[MF_NR_LEVELS], int numbering, struct cpu_topo *cpus);

/* One `name = value` line, with the section it is in ("" before any). */
struct mf_line {
	const char *file; /* as named in messages */
	unsigned int lineno;
	const char *section;
	const char *key;
	const char *value; /* trimmed, never empty */
};

/*
 * Called for each `[section]` header (key and value NULL) and each
 * `name = value` line. Returns 0, or -1 with a message (without the
 * FILE:LINE prefix, which the lexer adds) in @err.
 */
typedef int (*mf_line_fn)(void *arg, const struct mf_line *l, char *err, size_t errlen);

/*
 * Split @text into lines and hand them to @fn. `#` at the start of a line
 * (after blanks) comments it out. 0, or -1 with "FILE:LINE: message" in @err.
 */
int mf_lex(const char *text, const char *file, mf_line_fn fn, void *arg, char *err, size_t errlen);

/*
 * Read the file at @path (at most MACHINE_FILE_MAX_BYTES, no NUL bytes)
 * into a new NUL-terminated string. NULL with "PATH: problem" in @err.
 */
char *mf_read_file(const char *path, char *err, size_t errlen);

/*
 * The [costs] section: one `NAME = VALUE` line, NAME as `--cost NAME=NS`
 * takes it (src/sim/cost.c), applied to @c. 0, or -1 with a message.
 */
int mf_cost_line(struct cost_model *c, const char *key, const char *value, char *err,
		 size_t errlen);

/*
 * A cost profile: a file of only a [costs] section (what `schedlab
 * calibrate` writes), applied on top of @c. 0, or -1 with "FILE:LINE: ...".
 */
int cost_profile_parse(struct cost_model *c, const char *text, const char *file, char *err,
		       size_t errlen);

/*
 * A machine from the text of a machine file (@file names it in messages).
 * NULL with one line "FILE:LINE: problem" (or "FILE: problem" for what
 * only the whole file shows) in @err.
 */
struct topology *topology_parse_machine(const char *text, const char *file, char *err,
					size_t errlen);

/* -m PATH: read and parse the machine file at @path. */
struct topology *topology_load_machine_file(const char *path, char *err, size_t errlen);

/* True when an -m value names a file rather than a preset: it has a '/' or ends in .machine. */
bool machine_name_is_path(const char *name);

/* Write @t as a machine file that topology_parse_machine() reads back to the same machine. */
void topology_export(const struct topology *t, FILE *out);

/*
 * -m hwloc:FILE.xml (or a path ending in .xml): a machine from hwloc's XML
 * (lstopo --of xml), read with libhwloc. NULL with a message in @err.
 */
struct topology *topology_load_hwloc(const char *path, char *err, size_t errlen);

#endif
