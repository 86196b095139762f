// SPDX-License-Identifier: GPL-2.0-only
#include "report/json_read.h"

#include "report/json.h"
#include "sim/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
	const char *s;
	size_t pos;
	char *err;
	size_t errlen;
	int depth;
};

static int bad(struct reader *r, const char *what)
{
	snprintf(r->err, r->errlen, "offset %zu: %s", r->pos, what);
	return -1;
}

static void skip_ws(struct reader *r)
{
	while (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' || r->s[r->pos] == '\n' ||
	       r->s[r->pos] == '\r')
		r->pos++;
}

static int parse_value(struct reader *r, struct jv *v);

static int parse_string(struct reader *r, char **out)
{
	size_t cap = 16, n = 0;
	char *buf;

	if (r->s[r->pos] != '"')
		return bad(r, "expected a string");
	r->pos++;
	buf = xmalloc(cap);
	for (;;) {
		char c = r->s[r->pos];

		if (!c || (unsigned char)c < 0x20) {
			free(buf);
			return bad(r, "unterminated string");
		}
		r->pos++;
		if (c == '"')
			break;
		if (c == '\\') {
			char e = r->s[r->pos++];
			const char *map = strchr("\"\"\\\\//b\bf\fn\nr\rt\t", e);

			if (e == 'u') {
				unsigned int u = 0;

				for (int i = 0; i < 4; i++) {
					char h = r->s[r->pos];

					if (!strchr("0123456789abcdefABCDEF", h) || !h) {
						free(buf);
						return bad(r, "bad \\u escape");
					}
					u = u * 16 + (unsigned int)(h <= '9' ?
									    h - '0' :
									    (h | 0x20) - 'a' + 10);
					r->pos++;
				}
				c = u < 0x80 ? (char)u : '?';
			} else if (e && map && (map - "\"\"\\\\//b\bf\fn\nr\rt\t") % 2 == 0) {
				c = map[1];
			} else {
				free(buf);
				return bad(r, "bad escape");
			}
		}
		if (n + 2 > cap)
			buf = xrealloc(buf, cap *= 2);
		buf[n++] = c;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

/* a member more; the arrays grow by doubling, so a long array is read in linear time */
static void add_item(struct jv *v, char *key)
{
	if (!(v->n & (v->n - 1))) {
		size_t cap = v->n ? 2 * (size_t)v->n : 1;

		v->items = xreallocarray(v->items, cap, sizeof(*v->items));
		if (v->type == JV_OBJECT)
			v->keys = xreallocarray(v->keys, cap, sizeof(*v->keys));
	}
	memset(&v->items[v->n], 0, sizeof(v->items[v->n]));
	if (v->type == JV_OBJECT)
		v->keys[v->n] = key;
	v->n++;
}

/* the length of JSON's number at @p (-?int frac? exp?), 0 if there is none */
static size_t number_len(const char *p)
{
	const char *s = p;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return 0;
	if (*s == '.') {
		if (s[1] < '0' || s[1] > '9')
			return 0;
		for (s++; *s >= '0' && *s <= '9'; s++)
			;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return (size_t)(s - p);
}

static int parse_container(struct reader *r, struct jv *v, bool object)
{
	char close = object ? '}' : ']';

	v->type = object ? JV_OBJECT : JV_ARRAY;
	if (++r->depth > JSON_MAX_DEPTH)
		return bad(r, "nested too deeply");
	r->pos++;
	skip_ws(r);
	if (r->s[r->pos] == close) {
		r->pos++;
		r->depth--;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(r);
		if (object) {
			if (parse_string(r, &key))
				return -1;
			skip_ws(r);
			if (r->s[r->pos] != ':') {
				free(key);
				return bad(r, "expected ':'");
			}
			r->pos++;
		}
		add_item(v, key);
		if (parse_value(r, &v->items[v->n - 1]))
			return -1;
		skip_ws(r);
		if (r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		if (r->s[r->pos] == close) {
			r->pos++;
			r->depth--;
			return 0;
		}
		return bad(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct reader *r, struct jv *v)
{
	const char *p;
	char *end;
	size_t len;

	skip_ws(r);
	p = r->s + r->pos;
	switch (*p) {
	case '{':
		return parse_container(r, v, true);
	case '[':
		return parse_container(r, v, false);
	case '"':
		v->type = JV_STRING;
		return parse_string(r, &v->str);
	}
	if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
		v->type = JV_BOOL;
		v->b = *p == 't';
		r->pos += v->b ? 4 : 5;
		return 0;
	}
	if (!strncmp(p, "null", 4)) {
		v->type = JV_NULL;
		r->pos += 4;
		return 0;
	}
	if (*p != '-' && (*p < '0' || *p > '9'))
		return bad(r, "expected a value");
	/*
	 * JSON's grammar, not strtod()'s, which also takes "-inf", "-nan" and
	 * hex; and a double, so 1e999 is refused, not read as infinity.
	 */
	len = number_len(p);
	if (!len)
		return bad(r, "bad number");
	v->type = JV_NUMBER;
	v->num = strtod(p, &end);
	if ((size_t)(end - p) != len || !isfinite(v->num))
		return bad(r, "number out of range");
	r->pos += len;
	return 0;
}

int jv_parse(const char *text, struct jv *out, char *err, size_t errlen)
{
	struct reader r = { .s = text, .err = err, .errlen = errlen };

	memset(out, 0, sizeof(*out));
	if (parse_value(&r, out)) {
		jv_free(out);
		return -1;
	}
	skip_ws(&r);
	if (r.s[r.pos]) {
		jv_free(out);
		return bad(&r, "text after the value");
	}
	return 0;
}

void jv_free(struct jv *v)
{
	for (int i = 0; i < v->n; i++) {
		jv_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (v->type != JV_OBJECT)
		return NULL;
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}
