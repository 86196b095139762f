/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small streaming JSON writer for deterministic machine-readable output
 * (`--json FILE`).
 *
 * Output is pretty-printed with 2-space indentation, keys appear in the
 * order they are written, and a complete document ends with a newline.
 * Commas are inserted automatically. Empty containers print as {} and [].
 *
 *	struct json_writer w;
 *
 *	json_init(&w, f);
 *	json_begin_object(&w);
 *	json_kv_str(&w, "machine", "smp2");
 *	json_key(&w, "runs");
 *	json_begin_array(&w);
 *	json_u64(&w, 42);
 *	json_end_array(&w);
 *	json_end_object(&w);
 *	if (json_finish(&w))
 *		... json_error(&w) says what went wrong ...
 *
 * Numbers: integers are printed exactly; doubles are printed with the
 * shortest "%.Ng" (N = 1..17) that reads back as the same double, so the
 * output is byte-identical across runs and independent of the locale.
 * NaN and infinities print as null.
 *
 * Errors are sticky: the first misuse (nesting deeper than JSON_MAX_DEPTH,
 * a key outside an object, a value without a key inside an object, an end
 * that does not match, a second top-level value) or failed write sets the
 * error flag, records a message, and makes every later call a no-op.
 */
#ifndef SCHEDLAB_REPORT_JSON_H
#define SCHEDLAB_REPORT_JSON_H

#include "sim/types.h"
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	bool error;		/* a write failed or the writer was misused */
	const char *errmsg;	/* first error, static string; NULL if none */
	bool have_key;		/* json_key() written, value pending */
	bool done;		/* the top-level value is complete */
	unsigned int depth;	/* open containers */
	struct {
		bool is_array;
		unsigned int count;	/* members/elements written so far */
	} stack[JSON_MAX_DEPTH];
};

void json_init(struct json_writer *w, FILE *out);

/*
 * Check the document is complete (one top-level value, every container
 * closed) and flush. Returns 0, or -1 with the error flag set.
 */
int json_finish(struct json_writer *w);

/* The first error's message, or NULL. */
static inline const char *json_error(const struct json_writer *w)
{
	return w->error ? w->errmsg : NULL;
}

void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);

/* The next member's name; must be followed by exactly one value. */
void json_key(struct json_writer *w, const char *name);

void json_str(struct json_writer *w, const char *s);	/* NULL -> null */
void json_u64(struct json_writer *w, u64 v);
void json_s64(struct json_writer *w, s64 v);
void json_double(struct json_writer *w, double v);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

static inline void json_kv_str(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_str(w, s);
}

static inline void json_kv_u64(struct json_writer *w, const char *key, u64 v)
{
	json_key(w, key);
	json_u64(w, v);
}

static inline void json_kv_s64(struct json_writer *w, const char *key, s64 v)
{
	json_key(w, key);
	json_s64(w, v);
}

static inline void json_kv_double(struct json_writer *w, const char *key, double v)
{
	json_key(w, key);
	json_double(w, v);
}

static inline void json_kv_bool(struct json_writer *w, const char *key, bool v)
{
	json_key(w, key);
	json_bool(w, v);
}

#endif
