// SPDX-License-Identifier: GPL-2.0-only
/* Streaming, pretty-printing, deterministic JSON writer. */
#include "report/json.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void fail(struct json_writer *w, const char *msg)
{
	if (!w->error) {
		w->error = true;
		w->errmsg = msg;
	}
}

static void put(struct json_writer *w, const char *s, size_t len)
{
	if (w->error)
		return;
	if (len && fwrite(s, 1, len, w->out) != len)
		fail(w, "write failed");
}

static void put_str(struct json_writer *w, const char *s)
{
	put(w, s, strlen(s));
}

static void newline_indent(struct json_writer *w, unsigned int depth)
{
	static const char spaces[] = "                                ";

	put(w, "\n", 1);
	for (unsigned int n = 2 * depth; n > 0;) {
		unsigned int chunk = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		put(w, spaces, chunk);
		n -= chunk;
	}
}

void json_init(struct json_writer *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

/*
 * Everything that starts a value (a scalar or a container) goes through
 * here: check the value is allowed at this point and write the separator
 * and indentation in front of it. Returns false if nothing may be written.
 */
static bool begin_value(struct json_writer *w)
{
	if (w->error)
		return false;
	if (w->depth == 0) {
		if (w->done) {
			fail(w, "more than one top-level value");
			return false;
		}
		return true;
	}
	if (!w->stack[w->depth - 1].is_array) {
		if (!w->have_key) {
			fail(w, "value inside an object without a key");
			return false;
		}
		w->have_key = false;
		return true;	/* json_key() wrote the separator */
	}
	if (w->stack[w->depth - 1].count++)
		put(w, ",", 1);
	newline_indent(w, w->depth);
	return true;
}

/* A value is complete; a complete top-level value ends the document. */
static void end_value(struct json_writer *w)
{
	if (w->depth == 0 && !w->error) {
		w->done = true;
		put(w, "\n", 1);
	}
}

static void begin_container(struct json_writer *w, bool is_array)
{
	if (!begin_value(w))
		return;
	if (w->depth == JSON_MAX_DEPTH) {
		fail(w, "JSON nesting deeper than 32 levels");
		return;
	}
	w->stack[w->depth].is_array = is_array;
	w->stack[w->depth].count = 0;
	w->depth++;
	put(w, is_array ? "[" : "{", 1);
}

static void end_container(struct json_writer *w, bool is_array)
{
	if (w->error)
		return;
	if (w->depth == 0 || w->stack[w->depth - 1].is_array != is_array) {
		fail(w, is_array ? "json_end_array() without a matching json_begin_array()"
				 : "json_end_object() without a matching json_begin_object()");
		return;
	}
	if (w->have_key) {
		fail(w, "key without a value at the end of an object");
		return;
	}
	w->depth--;
	if (w->stack[w->depth].count)
		newline_indent(w, w->depth);
	put(w, is_array ? "]" : "}", 1);
	end_value(w);
}

void json_begin_object(struct json_writer *w)
{
	begin_container(w, false);
}

void json_end_object(struct json_writer *w)
{
	end_container(w, false);
}

void json_begin_array(struct json_writer *w)
{
	begin_container(w, true);
}

void json_end_array(struct json_writer *w)
{
	end_container(w, true);
}

/* A quoted string: ", \ and control characters escaped; other bytes as is. */
static void write_string(struct json_writer *w, const char *s)
{
	const char *run = s;

	put(w, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		put(w, run, (size_t)(s - run));
		run = s + 1;
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(w, esc, 2);
		} else {
			snprintf(esc, sizeof(esc), "\\u%04X", c);
			put(w, esc, 6);
		}
	}
	put(w, run, (size_t)(s - run));
	put(w, "\"", 1);
}

void json_key(struct json_writer *w, const char *name)
{
	if (w->error)
		return;
	if (w->depth == 0 || w->stack[w->depth - 1].is_array) {
		fail(w, "key outside an object");
		return;
	}
	if (w->have_key) {
		fail(w, "two keys without a value between them");
		return;
	}
	if (!name) {
		fail(w, "NULL key");
		return;
	}
	if (w->stack[w->depth - 1].count++)
		put(w, ",", 1);
	newline_indent(w, w->depth);
	write_string(w, name);
	put(w, ": ", 2);
	w->have_key = true;
}

static void scalar(struct json_writer *w, const char *text)
{
	if (!begin_value(w))
		return;
	put_str(w, text);
	end_value(w);
}

void json_str(struct json_writer *w, const char *s)
{
	if (!s) {
		json_null(w);
		return;
	}
	if (!begin_value(w))
		return;
	write_string(w, s);
	end_value(w);
}

void json_u64(struct json_writer *w, u64 v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	scalar(w, buf);
}

void json_s64(struct json_writer *w, s64 v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	scalar(w, buf);
}

/*
 * The shortest "%.Ng" that reads back as @v. glibc's printf and strtod are
 * correctly rounded, so the text depends only on the value. Both honour
 * LC_NUMERIC, so the round-trip test is done in the current locale and a
 * locale's decimal separator is then turned back into '.'.
 */
void json_double(struct json_writer *w, double v)
{
	char buf[40];
	const char *dp;
	size_t dplen;

	if (!isfinite(v)) {
		json_null(w);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* a whole number reads as one: 1000, not the shortest form 1e+03 */
	if (strchr(buf, 'e') && v == floor(v) && fabs(v) < 1e17)
		snprintf(buf, sizeof(buf), "%.0f", v);
	dp = localeconv()->decimal_point;
	dplen = dp ? strlen(dp) : 0;
	if (dplen && strcmp(dp, ".")) {
		char *p = strstr(buf, dp);

		if (p) {
			*p = '.';
			memmove(p + 1, p + dplen, strlen(p + dplen) + 1);
		}
	}
	scalar(w, buf);
}

void json_bool(struct json_writer *w, bool v)
{
	scalar(w, v ? "true" : "false");
}

void json_null(struct json_writer *w)
{
	scalar(w, "null");
}

int json_finish(struct json_writer *w)
{
	if (!w->error && (w->depth || w->have_key))
		fail(w, "JSON document not finished: a container is still open");
	if (!w->error && !w->done)
		fail(w, "empty JSON document");
	if (fflush(w->out) || ferror(w->out))
		fail(w, "write failed");
	return w->error ? -1 : 0;
}
