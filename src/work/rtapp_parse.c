// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app's JSON workload files, read with json-c as rt-app reads them
 * (scheduler-tools/rt-app src/rt-app_parse_config.c, commit 55cb0c0): the
 * tokener's default mode, which takes C and C++ comments and trailing
 * commas; objects are walked in file order (json-c keeps insertion order),
 * so "run0", "sleep0", "run1" are events in that order. Events are known by
 * the prefix of their key, in rt-app's order of tests.
 *
 * Where rt-app would go on with a mistake (an unknown key is ignored, a
 * wrong type becomes a default, a fork of an unknown task fails mid-run, a
 * lock never unlocked deadlocks), this parser stops with exit status 2 and
 * one line naming the file, the line and the key.
 */
/* before kernel/sched.h, whose `current` macro would rename a json-c field */
#include <json-c/json.h>

#include "work/rtapp.h"

#include "sim/alloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Where each object member is written. json-c keeps no positions, so once
 * it has accepted the text, the text is scanned once more (scan_text()),
 * with json-c's leniency (comments, single quotes, trailing commas): every
 * object gets the file offsets of its members' keys, in file order, and the
 * object each member's value is, if it is one. json-c keeps one member per
 * name, the first place and the last value: an object written with a
 * repeated key is matched to json-c's members by the keys' spellings
 * (map_members()). Only messages use positions; the scan and every lookup
 * are linear in the text, or n log n (docs/reliability.md, "Limits").
 */
struct pmember {
	u32 key;		/* its key's opening quote */
	u32 klen;		/* the key as written, between the quotes */
	int obj;		/* the object its value is, -1 if none */
};

enum { POBJ_NEW, POBJ_SAME, POBJ_MAPPED, POBJ_LOST };

struct pobj {
	u32 off;		/* its '{' */
	u32 first, n;		/* its members, mem[first .. first + n), in file order */
	int state;		/* how json-c's members map onto them (map_members()) */
	/*
	 * POBJ_MAPPED: json-c's member i is written first at mem[first +
	 * map[2 * i]], its value last at mem[first + map[2 * i + 1]]
	 */
	u32 *map;
};

/* offsets are u32: a text is at most RTAPP_MAX_FILE bytes */
#define POS_BLOCK 64		/* the line table has a count per block of the text */
#define POS_MAX_DEPTH 64	/* json-c's default nesting limit is 32 */
#define POS_NONE SIZE_MAX	/* no position: a message without a line */

struct ppos {
	struct pmember *mem, *pending;
	size_t nmem, cap_mem, npending, cap_pending;
	struct pobj *obj;
	size_t nobj, cap_obj;
	u32 *nl;		/* nl[b]: newlines before block b */
	bool lost;		/* the scan did not follow the text: no positions */
};

/* names to indexes: resources by name and type, tasks by name */
struct nent {
	const char *name;	/* NULL: empty */
	int kind;
	unsigned int idx;
};

struct ntab {
	struct nent *e;
	size_t cap, n;		/* cap: 0 or a power of two */
};

struct pctx {
	const char *file;
	const char *text;
	size_t len;
	char *err;
	size_t errlen;
	struct rtapp_config *c;
	bool background;
	struct ppos pos;
	struct ntab res_names;
	size_t res_cap;
};

/* ---- lines ---- */

static void lines_init(struct pctx *x)
{
	size_t nb = x->len / POS_BLOCK + 1;
	u32 *nl = xcalloc(nb, sizeof(*nl));

	for (size_t b = 0; b + 1 < nb; b++) {
		u32 k = 0;

		for (size_t i = b * POS_BLOCK; i < (b + 1) * POS_BLOCK; i++)
			k += x->text[i] == '\n';
		nl[b + 1] = nl[b] + k;
	}
	x->pos.nl = nl;
}

/* the line of offset @off, 1-based; 0 for POS_NONE */
static unsigned int line_of(const struct pctx *x, size_t off)
{
	size_t b;
	unsigned int line;

	if (off == POS_NONE)
		return 0;
	if (off > x->len)
		off = x->len;
	b = off / POS_BLOCK;
	line = 1 + x->pos.nl[b];
	for (size_t i = b * POS_BLOCK; i < off; i++)
		line += x->text[i] == '\n';
	return line;
}

static void line_col(const struct pctx *x, size_t off, unsigned int *line, unsigned int *col)
{
	size_t start = off;

	*line = line_of(x, off);
	while (start > 0 && x->text[start - 1] != '\n')
		start--;
	*col = (unsigned int)(off - start + 1);
}

/* ---- the scan ---- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* past blanks and comments from @i; an unterminated comment stops at its start */
static size_t skip_blanks(const struct pctx *x, size_t i)
{
	const char *s = x->text;
	size_t n = x->len;

	while (i < n) {
		if (is_blank(s[i])) {
			i++;
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
			const char *e = memchr(s + i, '\n', n - i);

			i = e ? (size_t)(e - s) + 1 : n;
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);

			if (!e)
				return i;
			i = (size_t)(e - s) + 2;
		} else {
			break;
		}
	}
	return i;
}

/* past the string starting at @i (either quote), or POS_NONE */
static size_t scan_string(const struct pctx *x, size_t i)
{
	char q = x->text[i];

	for (i++; i < x->len; i++) {
		if (x->text[i] == '\\')
			i++;
		else if (x->text[i] == q)
			return i + 1;
	}
	return POS_NONE;
}

/* @p with room for @need elements of @size, growing *@cap by doubling */
static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	if (*cap < need)
		*cap = need;
	return xreallocarray(p, *cap, size);
}

static size_t scan_value(struct pctx *x, size_t i, int depth);

/*
 * The object at @i: its members go to a stack while it is open, and to
 * mem[], together, when it closes (its nested objects have moved theirs
 * by then), so every object's members are contiguous.
 */
static size_t scan_object(struct pctx *x, size_t i, int depth)
{
	struct ppos *p = &x->pos;
	const char *s = x->text;
	size_t o = p->nobj, base = p->npending, n;

	p->obj = grow(p->obj, &p->cap_obj, p->nobj + 1, sizeof(*p->obj));
	p->obj[p->nobj++] = (struct pobj){ .off = (u32)i };
	i = skip_blanks(x, i + 1);
	if (i < x->len && s[i] == '}')
		goto close;
	for (;;) {
		size_t k = i, m;

		if (i >= x->len || (s[i] != '"' && s[i] != '\''))
			return POS_NONE;
		i = scan_string(x, i);
		if (i == POS_NONE)
			return POS_NONE;
		m = p->npending;
		p->pending = grow(p->pending, &p->cap_pending, m + 1, sizeof(*p->pending));
		p->pending[p->npending++] = (struct pmember){ .key = (u32)k,
							      .klen = (u32)(i - k - 2), .obj = -1 };
		i = skip_blanks(x, i);
		if (i >= x->len || s[i] != ':')
			return POS_NONE;
		i = skip_blanks(x, i + 1);
		if (i < x->len && s[i] == '{')
			p->pending[m].obj = (int)p->nobj;
		i = scan_value(x, i, depth + 1);
		if (i == POS_NONE)
			return POS_NONE;
		i = skip_blanks(x, i);
		if (i < x->len && s[i] == ',') {
			i = skip_blanks(x, i + 1);
			if (i < x->len && s[i] == '}')
				break;
			continue;
		}
		if (i < x->len && s[i] == '}')
			break;
		return POS_NONE;
	}
close:
	n = p->npending - base;
	p->mem = grow(p->mem, &p->cap_mem, p->nmem + n, sizeof(*p->mem));
	if (n)
		memcpy(p->mem + p->nmem, p->pending + base, n * sizeof(*p->mem));
	p->obj[o].first = (u32)p->nmem;
	p->obj[o].n = (u32)n;
	p->nmem += n;
	p->npending = base;
	return i + 1;
}

static size_t scan_array(struct pctx *x, size_t i, int depth)
{
	const char *s = x->text;

	i = skip_blanks(x, i + 1);
	if (i < x->len && s[i] == ']')
		return i + 1;
	for (;;) {
		i = scan_value(x, i, depth + 1);
		if (i == POS_NONE)
			return POS_NONE;
		i = skip_blanks(x, i);
		if (i < x->len && s[i] == ',') {
			i = skip_blanks(x, i + 1);
			if (i < x->len && s[i] == ']')
				return i + 1;
			continue;
		}
		if (i < x->len && s[i] == ']')
			return i + 1;
		return POS_NONE;
	}
}

static size_t scan_value(struct pctx *x, size_t i, int depth)
{
	const char *s = x->text;
	size_t start;

	if (depth > POS_MAX_DEPTH)
		return POS_NONE;
	i = skip_blanks(x, i);
	if (i >= x->len)
		return POS_NONE;
	if (s[i] == '{')
		return scan_object(x, i, depth);
	if (s[i] == '[')
		return scan_array(x, i, depth);
	if (s[i] == '"' || s[i] == '\'')
		return scan_string(x, i);
	/* a number or a literal: up to the next delimiter */
	for (start = i; i < x->len && !is_blank(s[i]) && !strchr(",:[]{}/\"'", s[i]); i++)
		;
	return i > start ? i : POS_NONE;
}

/* the scan of the whole text, once json-c has accepted it; the top object is 0 */
static void scan_text(struct pctx *x)
{
	struct ppos *p = &x->pos;
	size_t i = skip_blanks(x, 0);

	p->lost = i >= x->len || x->text[i] != '{' || scan_value(x, i, 0) == POS_NONE;
	free(p->pending);
	p->pending = NULL;
	p->npending = p->cap_pending = 0;
}

static void pos_free(struct ppos *p)
{
	for (size_t o = 0; o < p->nobj; o++)
		free(p->obj[o].map);
	free(p->obj);
	free(p->mem);
	free(p->pending);
	free(p->nl);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* \uXXXX at @s (of @n bytes): the code unit, or -1 */
static long hex4(const char *s, size_t n)
{
	long v = 0;

	if (n < 6 || s[0] != '\\' || s[1] != 'u')
		return -1;
	for (int k = 2; k < 6; k++) {
		int h = hexval(s[k]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/*
 * A key as json-c holds it, from its spelling @s (@n bytes between the
 * quotes), into @out (room for 4 * n + 1): escapes decoded (\uXXXX and
 * surrogate pairs to UTF-8), cut at a NUL as json-c's C-string keys are.
 * Only compared: an escape json-c would refuse never gets here.
 */
static void key_decode(const char *s, size_t n, char *out)
{
	char *o = out;

	for (size_t i = 0; i < n; i++) {
		long u;

		if (s[i] != '\\' || i + 1 >= n) {
			*o++ = s[i];
			continue;
		}
		u = hex4(s + i, n - i);
		if (u < 0) {
			const char *from = "bfnrt", *to = "\b\f\n\r\t";
			const char *e = strchr(from, s[i + 1]);

			*o++ = e && *e ? to[e - from] : s[i + 1];
			i++;
			continue;
		}
		i += 5;
		if (u >= 0xd800 && u < 0xdc00) {
			long lo = hex4(s + i + 1, n - i - 1);

			if (lo >= 0xdc00 && lo < 0xe000) {
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				i += 6;
			}
		}
		if (u < 0x80) {
			*o++ = (char)u;
		} else if (u < 0x800) {
			*o++ = (char)(0xc0 | (u >> 6));
			*o++ = (char)(0x80 | (u & 0x3f));
		} else if (u < 0x10000) {
			*o++ = (char)(0xe0 | (u >> 12));
			*o++ = (char)(0x80 | ((u >> 6) & 0x3f));
			*o++ = (char)(0x80 | (u & 0x3f));
		} else {
			*o++ = (char)(0xf0 | (u >> 18));
			*o++ = (char)(0x80 | ((u >> 12) & 0x3f));
			*o++ = (char)(0x80 | ((u >> 6) & 0x3f));
			*o++ = (char)(0x80 | (u & 0x3f));
		}
	}
	*o = '\0';
}

/* by the key as json-c holds it, then by place */
static int cmp_key(const void *a, const void *b, void *arg)
{
	char *const *keys = arg;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	int r = strcmp(keys[ia], keys[ib]);

	if (r)
		return r;
	return ia < ib ? -1 : ia > ib;
}

/*
 * Object @o as json-c holds it in @j: with as many members as written,
 * member i is the i-th written; with fewer (a repeated key), json-c's
 * member i is the i-th key in the order of their first places, its value
 * the last one written (n log n). Should that not give json-c's count, the
 * members' places are lost and the object's own place stands for theirs.
 */
static struct pobj *map_members(struct pctx *x, int o, struct json_object *j)
{
	struct pobj *ob;
	size_t m, kept = 0;
	char **keys;
	u32 *idx, *last;

	if (o < 0 || x->pos.lost || (size_t)o >= x->pos.nobj)
		return NULL;
	ob = &x->pos.obj[o];
	if (ob->state != POBJ_NEW)
		return ob;
	m = (size_t)json_object_object_length(j);
	if (ob->n == m) {
		ob->state = POBJ_SAME;
		return ob;
	}
	keys = xcalloc(ob->n ? ob->n : 1, sizeof(*keys));
	idx = xcalloc(ob->n ? ob->n : 1, sizeof(*idx));
	/* per member: the last place of its key, if it is the first; else UINT32_MAX */
	last = xcalloc(ob->n ? ob->n : 1, sizeof(*last));
	for (u32 i = 0; i < ob->n; i++) {
		const struct pmember *pm = &x->pos.mem[ob->first + i];

		keys[i] = xmalloc(4 * (size_t)pm->klen + 1);
		key_decode(x->text + pm->key + 1, pm->klen, keys[i]);
		idx[i] = i;
	}
	qsort_r(idx, ob->n, sizeof(*idx), cmp_key, keys);
	for (u32 i = 0, g = 0; i < ob->n; i++) {
		last[idx[i]] = UINT32_MAX;
		if (i && strcmp(keys[idx[i]], keys[idx[i - 1]]))
			g = i;
		/* sorted by key, then place: idx[g] is the group's first, idx[i] its last so far */
		last[idx[g]] = idx[i];
	}
	ob->map = xcalloc(2 * (m ? m : 1), sizeof(*ob->map));
	for (u32 i = 0; i < ob->n; i++) {
		if (last[i] == UINT32_MAX)
			continue;
		if (kept < m) {
			ob->map[2 * kept] = i;
			ob->map[2 * kept + 1] = last[i];
		}
		kept++;
	}
	for (u32 i = 0; i < ob->n; i++)
		free(keys[i]);
	free(keys);
	free(last);
	free(idx);
	ob->state = kept == m ? POBJ_MAPPED : POBJ_LOST;
	return ob;
}

/*
 * The member json-c holds as its @i-th of @j (the scan's object @o), as
 * first written (@value false: its key's place) or last (its value's), or
 * NULL
 */
static const struct pmember *member(struct pctx *x, int o, struct json_object *j, size_t i,
				    bool value)
{
	struct pobj *ob = map_members(x, o, j);

	if (ob && ob->state == POBJ_SAME && i < ob->n)
		return &x->pos.mem[ob->first + i];
	if (ob && ob->state == POBJ_MAPPED && i < (size_t)json_object_object_length(j))
		return &x->pos.mem[ob->first + ob->map[2 * i + value]];
	return NULL;
}

/* where json-c's member @i of @j is written: its key, else its object's place */
static size_t member_at(struct pctx *x, int o, struct json_object *j, size_t i)
{
	const struct pmember *m = member(x, o, j, i, false);
	struct pobj *ob;

	if (m)
		return m->key;
	ob = map_members(x, o, j);
	return ob ? ob->off : POS_NONE;
}

/* the scan's object that json-c's member @i of @j is, or -1 */
static int member_obj(struct pctx *x, int o, struct json_object *j, size_t i)
{
	const struct pmember *m = member(x, o, j, i, true);

	return m ? m->obj : -1;
}

/* json-c's index of member @key of @j, SIZE_MAX if none (O(members)) */
static size_t member_index(struct json_object *j, const char *key)
{
	size_t i = 0;

	json_object_object_foreach(j, k, v) {
		(void)v;
		if (!strcmp(k, key))
			return i;
		i++;
	}
	return SIZE_MAX;
}

/* where member @key of @j is written (its object's place if it has none) */
static size_t named_at(struct pctx *x, int o, struct json_object *j, const char *key)
{
	return member_at(x, o, j, member_index(j, key));
}

static int named_obj(struct pctx *x, int o, struct json_object *j, const char *key)
{
	return member_obj(x, o, j, member_index(j, key));
}

/* ---- names ---- */

static u64 name_hash(const char *s, int kind)
{
	u64 h = 14695981039346656037ULL ^ (u64)(unsigned int)kind;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* the index named @name of @kind, or UINT_MAX */
static unsigned int ntab_find(const struct ntab *t, const char *name, int kind)
{
	if (!t->cap)
		return UINT_MAX;
	for (size_t i = name_hash(name, kind) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		const struct nent *e = &t->e[i];

		if (!e->name)
			return UINT_MAX;
		if (e->kind == kind && !strcmp(e->name, name))
			return e->idx;
	}
}

/* add @name (a string that outlives the table) of @kind as @idx */
static void ntab_add(struct ntab *t, const char *name, int kind, unsigned int idx)
{
	if (2 * (t->n + 1) > t->cap) {
		struct ntab bigger = { .cap = t->cap ? 2 * t->cap : 64 };

		bigger.e = xcalloc(bigger.cap, sizeof(*bigger.e));
		for (size_t i = 0; i < t->cap; i++)
			if (t->e[i].name)
				ntab_add(&bigger, t->e[i].name, t->e[i].kind, t->e[i].idx);
		free(t->e);
		*t = bigger;
	}
	for (size_t i = name_hash(name, kind) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		if (!t->e[i].name) {
			t->e[i] = (struct nent){ .name = name, .kind = kind, .idx = idx };
			t->n++;
			return;
		}
	}
}

static int fail(struct pctx *x, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct pctx *x, unsigned int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(x->err, x->errlen, "rt-app: %s:%u: %s", x->file, line, msg);
	else
		snprintf(x->err, x->errlen, "rt-app: %s: %s", x->file, msg);
	return -1;
}

static const char *type_name(struct json_object *o)
{
	return json_type_to_name(json_object_get_type(o));
}

/*
 * An integer in @lo..@hi (within rt-app's int). json-c reads an integer as
 * JSON writes it (no '+', no blanks; leading zeros are taken, as rt-app's
 * json-c takes them), holds it in 64 bits (beyond: the nearest end, which
 * is out of every range here) and json_object_get_int() would clamp it to
 * an int; rt-app takes that clamped value, schedlab refuses anything out of
 * range instead, so no value wraps or clamps into another.
 */
static int get_int(struct pctx *x, struct json_object *v, const char *key, unsigned int line,
		   s64 lo, s64 hi, s64 *out)
{
	s64 n;

	if (!json_object_is_type(v, json_type_int))
		return fail(x, line, "%s: expected an integer, got %s", key, type_name(v));
	n = json_object_get_int64(v);
	/* get_int64() clamps a value beyond INT64_MAX (held as a u64) to INT64_MAX */
	if (n < lo || n > hi || n < INT_MIN || n > INT_MAX)
		return fail(x, line, "%s: %s is out of range %lld..%lld", key,
			    json_object_to_json_string(v), (long long)lo, (long long)hi);
	*out = n;
	return 0;
}

static int get_bool(struct pctx *x, struct json_object *v, const char *key, unsigned int line,
		    bool *out)
{
	if (!json_object_is_type(v, json_type_boolean))
		return fail(x, line, "%s: expected true or false, got %s", key, type_name(v));
	*out = json_object_get_boolean(v);
	return 0;
}

static int get_str(struct pctx *x, struct json_object *v, const char *key, unsigned int line,
		   const char **out)
{
	if (!json_object_is_type(v, json_type_string))
		return fail(x, line, "%s: expected a string, got %s", key, type_name(v));
	*out = json_object_get_string(v);
	return 0;
}

const char *rtapp_policy_name(enum rtapp_policy policy)
{
	switch (policy) {
	case RTAPP_SCHED_OTHER:
		return "SCHED_OTHER";
	case RTAPP_SCHED_BATCH:
		return "SCHED_BATCH";
	case RTAPP_SCHED_IDLE:
		return "SCHED_IDLE";
	case RTAPP_SCHED_FIFO:
		return "SCHED_FIFO";
	case RTAPP_SCHED_RR:
		return "SCHED_RR";
	case RTAPP_SCHED_DEADLINE:
		return "SCHED_DEADLINE";
	default:
		return "SCHED_OTHER";
	}
}

static int policy_parse(const char *s, enum rtapp_policy *out)
{
	for (int p = RTAPP_SCHED_OTHER; p <= RTAPP_SCHED_DEADLINE; p++) {
		if (!strcmp(s, rtapp_policy_name((enum rtapp_policy)p))) {
			*out = (enum rtapp_policy)p;
			return 0;
		}
	}
	return -1;
}

/* ---- resources: created by name and type as events name them ---- */

static int resource_index(struct pctx *x, const char *name, enum rtapp_res_type type)
{
	struct rtapp_config *c = x->c;
	unsigned int i = ntab_find(&x->res_names, name, (int)type);

	if (i != UINT_MAX)
		return (int)i;
	i = c->nr_res;
	c->res = grow(c->res, &x->res_cap, (size_t)i + 1, sizeof(*c->res));
	c->res[i] = (struct rtapp_resource){ .name = xstrdup(name), .type = type,
					     .barrier_waiting = -1, .relative = true };
	c->nr_res++;
	ntab_add(&x->res_names, c->res[i].name, (int)type, i);
	return (int)i;
}

/* ---- events ---- */

static bool prefix(const char *key, const char *p)
{
	return !strncmp(key, p, strlen(p));
}

/* rt-app's events[] table: a key starting with one of these is an event */
static const char *const event_prefixes[] = {
	"lock", "unlock", "wait", "signal", "broad", "sync", "sleep", "runtime", "run", "timer",
	"suspend", "resume", "memrun", "mem", "iorun", "yield", "barrier", "fork", "sem_post",
	"sem_wait", NULL,
};

static bool is_event(const char *key)
{
	for (const char *const *p = event_prefixes; *p; p++)
		if (prefix(key, *p))
			return true;
	return false;
}

/* a {"ref": ..., "mutex": ...} object of wait and sync: both are required here */
static int get_ref_mutex(struct pctx *x, struct json_object *v, const char *key,
			 unsigned int line, const char **ref, const char **mutex)
{
	struct json_object *r, *m;

	if (!json_object_is_type(v, json_type_object))
		return fail(x, line, "%s: expected an object {\"ref\": COND, \"mutex\": MUTEX}, got %s",
			    key, type_name(v));
	json_object_object_foreach(v, k, val) {
		(void)val;
		if (strcmp(k, "ref") && strcmp(k, "mutex"))
			return fail(x, line, "%s: unknown key \"%s\" (ref, mutex)", key, k);
	}
	if (!json_object_object_get_ex(v, "ref", &r) || !json_object_object_get_ex(v, "mutex", &m))
		return fail(x, line, "%s: needs both \"ref\" (the condition) and \"mutex\"", key);
	if (get_str(x, r, "ref", line, ref) || get_str(x, m, "mutex", line, mutex))
		return -1;
	return 0;
}

static int parse_timer(struct pctx *x, const struct rtapp_task *t, struct json_object *v,
		       const char *key, unsigned int line, struct rtapp_event *e)
{
	const char *ref = "unknown", *mode = "relative";
	bool has_period = false;
	s64 period = 0;
	int r;

	if (!json_object_is_type(v, json_type_object))
		return fail(x, line, "%s: expected an object {\"ref\", \"period\", \"mode\"}, got %s",
			    key, type_name(v));
	json_object_object_foreach(v, k, val) {
		if (!strcmp(k, "ref")) {
			if (get_str(x, val, "ref", line, &ref))
				return -1;
		} else if (!strcmp(k, "period")) {
			if (get_int(x, val, "period", line, 0, INT_MAX, &period))
				return -1;
			has_period = true;
		} else if (!strcmp(k, "mode")) {
			if (get_str(x, val, "mode", line, &mode))
				return -1;
			if (strcmp(mode, "absolute") && strcmp(mode, "relative"))
				return fail(x, line, "%s: mode \"%s\" (absolute, relative)", key, mode);
		} else {
			return fail(x, line, "%s: unknown key \"%s\" (ref, period, mode)", key, k);
		}
	}
	if (!has_period)
		return fail(x, line, "%s: no \"period\" (rt-app would use 0: no period at all)", key);
	e->type = RTAPP_EV_TIMER;
	e->duration = period;
	/*
	 * "unique..." timers are each thread's own (rt-app names them after
	 * the task description and copies them per thread), the others are
	 * shared by name
	 */
	if (prefix(ref, "unique")) {
		char *name = xmalloc(strlen(ref) + strlen(t->name) + 2);

		sprintf(name, "%s@%s", ref, t->name);
		r = resource_index(x, name, RTAPP_RES_TIMER_UNIQUE);
		free(name);
	} else {
		r = resource_index(x, ref, RTAPP_RES_TIMER);
	}
	e->res = r;
	/* rt-app: the mode of the last timer event naming it wins */
	x->c->res[r].relative = strcmp(mode, "absolute") != 0;
	return 0;
}

static int parse_event(struct pctx *x, struct rtapp_task *t, const char *key,
		       struct json_object *v, unsigned int line, struct rtapp_event *e)
{
	struct rtapp_config *c = x->c;
	const char *s, *mutex;
	s64 n;

	*e = (struct rtapp_event){ .key = xstrdup(key), .line = line, .res = -1, .dep = -1,
				   .fork_task = -1 };
	/* in parse_task_event_data()'s order: "runtime" before "run", "memrun" before "mem" */
	if (prefix(key, "run") || prefix(key, "sleep")) {
		if (get_int(x, v, key, line, 0, INT_MAX, &n))
			return -1;
		e->duration = n;
		e->type = prefix(key, "sleep") ? RTAPP_EV_SLEEP :
			  prefix(key, "runtime") ? RTAPP_EV_RUNTIME : RTAPP_EV_RUN;
		return 0;
	}
	if (prefix(key, "memrun") || prefix(key, "mem") || prefix(key, "iorun"))
		return fail(x, line,
			    "task %s: event %s: memory and I/O load (mem, memrun, iorun) is not modelled",
			    t->name, key);
	if (prefix(key, "lock") || prefix(key, "unlock")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = prefix(key, "lock") ? RTAPP_EV_LOCK : RTAPP_EV_UNLOCK;
		e->res = resource_index(x, s, RTAPP_RES_MUTEX);
		return 0;
	}
	if (prefix(key, "signal") || prefix(key, "broad")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = prefix(key, "signal") ? RTAPP_EV_SIGNAL : RTAPP_EV_BROAD;
		e->res = resource_index(x, s, RTAPP_RES_COND);
		return 0;
	}
	if (prefix(key, "wait") || prefix(key, "sync")) {
		if (get_ref_mutex(x, v, key, line, &s, &mutex))
			return -1;
		e->type = prefix(key, "wait") ? RTAPP_EV_WAIT : RTAPP_EV_SYNC;
		e->res = resource_index(x, s, RTAPP_RES_COND);
		e->dep = resource_index(x, mutex, RTAPP_RES_MUTEX);
		return 0;
	}
	if (prefix(key, "barrier")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = RTAPP_EV_BARRIER;
		e->res = resource_index(x, s, RTAPP_RES_BARRIER);
		/* every use counts its task's instances, as in rt-app */
		c->res[e->res].barrier_waiting += t->instances;
		return 0;
	}
	if (prefix(key, "timer"))
		return parse_timer(x, t, v, key, line, e);
	if (prefix(key, "resume") || prefix(key, "suspend")) {
		/* suspend waits on its own task's name; its string is ignored */
		if (prefix(key, "resume")) {
			if (get_str(x, v, key, line, &s))
				return -1;
			e->type = RTAPP_EV_RESUME;
		} else {
			s = t->name;
			e->type = RTAPP_EV_SUSPEND;
		}
		e->res = resource_index(x, s, RTAPP_RES_COND);
		e->dep = resource_index(x, s, RTAPP_RES_MUTEX);
		return 0;
	}
	if (prefix(key, "yield")) {
		e->type = RTAPP_EV_YIELD;
		return 0;
	}
	if (prefix(key, "fork")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = RTAPP_EV_FORK;
		/* resolved once every task is known */
		e->ref = xstrdup(s);
		return 0;
	}
	if (prefix(key, "sem_post") || prefix(key, "sem_wait")) {
		if (get_str(x, v, key, line, &s))
			return -1;
		e->type = prefix(key, "sem_post") ? RTAPP_EV_SEM_POST : RTAPP_EV_SEM_WAIT;
		e->res = resource_index(x, s, RTAPP_RES_SEM);
		return 0;
	}
	return fail(x, line, "task %s: unknown event %s", t->name, key);
}

/* ---- scheduling attributes ---- */

static const char *const dl_keys[] = { "dl-runtime", "dl-period", "dl-deadline" };

/* a SCHED_DEADLINE parameter, parse_sched()'s */
static bool is_dl_key(const char *key)
{
	for (size_t k = 0; k < ARRAY_SIZE(dl_keys); k++)
		if (!strcmp(key, dl_keys[k]))
			return true;
	return false;
}

static const char *const unmodelled_keys[] = {
	"nodes_membind", "taskgroup", NULL,
};

static int unmodelled(struct pctx *x, const struct rtapp_task *t, const char *key,
		      unsigned int line)
{
	for (const char *const *k = unmodelled_keys; *k; k++)
		if (!strcmp(key, *k))
			return fail(
				x, line,
				"task %s: %s is not modelled (no NUMA or cgroups)",
				t->name, key);
	return 0;
}

/*
 * parse_sched_data(): "policy" and "priority" of a task (@def: the default
 * policy) or a phase (@def RTAPP_POLICY_SAME). A task's always applies; a
 * phase's only with one of the two (rt-app's THREAD_PRIORITY_UNCHANGED
 * marks the other case there; here it is sd->set, so no priority value
 * means "unchanged"). The priority is checked against the policy by
 * resolve_sched() once a phase's policy is known.
 */
static int parse_sched(struct pctx *x, const struct rtapp_task *t, struct json_object *obj,
		       size_t at, int o, enum rtapp_policy def, struct rtapp_sched *sd)
{
	struct json_object *v;
	const char *s;
	s64 n;

	sd->policy = def;
	sd->line = line_of(x, at);
	sd->set = def != RTAPP_POLICY_SAME;
	if (json_object_object_get_ex(obj, "policy", &v)) {
		sd->line = line_of(x, named_at(x, o, obj, "policy"));
		if (get_str(x, v, "policy", sd->line, &s))
			return -1;
		if (policy_parse(s, &sd->policy))
			return fail(x, sd->line, "task %s: invalid policy %s (SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE)",
				    t->name, s);
		sd->set = true;
	}
	switch (sd->policy) {
	case RTAPP_SCHED_FIFO:
	case RTAPP_SCHED_RR:
		sd->prio = RTAPP_DEFAULT_RT_PRIO;
		break;
	case RTAPP_SCHED_OTHER:
	case RTAPP_SCHED_BATCH:
	case RTAPP_SCHED_IDLE:
		sd->prio = RTAPP_DEFAULT_NICE;
		break;
	default:
		sd->prio = 0;
	}
	if (json_object_object_get_ex(obj, "priority", &v)) {
		unsigned int pl = line_of(x, named_at(x, o, obj, "priority"));

		/* rtapp_apply_policy() bounds it by the policy */
		if (get_int(x, v, "priority", pl, INT_MIN, INT_MAX, &n))
			return -1;
		sd->prio = (int)n;
		sd->set = true;
		/* a message about the setting is about the priority written */
		sd->line = pl;
	}
	/* uclamp: 0..1024, -1 for the default; the kernel refuses min above max */
	sd->util_min = sd->util_max = RTAPP_UCLAMP_UNSET;
	sd->uclamp_set = false;
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "util_max" : "util_min";
		unsigned int ul;

		if (!json_object_object_get_ex(obj, key, &v))
			continue;
		ul = line_of(x, named_at(x, o, obj, key));
		if (get_int(x, v, key, ul, -1, SCHED_CAPACITY_SCALE, &n))
			return -1;
		*(k ? &sd->util_max : &sd->util_min) = (int)n;
		sd->uclamp_set = true;
		sd->uclamp_line = ul;
	}
	/* rt-app's parse_sched_data(): each defaults to the one before, us to ns */
	{
		s64 dl[3] = { 0, -1, -1 };

		for (int k = 0; k < 3; k++) {
			unsigned int dline;

			if (!json_object_object_get_ex(obj, dl_keys[k], &v)) {
				if (k)
					dl[k] = dl[k - 1];
				continue;
			}
			dline = line_of(x, named_at(x, o, obj, dl_keys[k]));
			if (get_int(x, v, dl_keys[k], dline, 0, INT_MAX, &dl[k]))
				return -1;
			sd->set = true;
		}
		sd->dl = (struct rtapp_dl){ .runtime = (u64)dl[0] * NSEC_PER_USEC,
					    .period = (u64)dl[1] * NSEC_PER_USEC,
					    .deadline = (u64)dl[2] * NSEC_PER_USEC };
	}
	if (sd->util_min >= 0 && sd->util_max >= 0 && sd->util_min > sd->util_max)
		return fail(
			x, sd->uclamp_line,
			"task %s: util_min %d is above util_max %d (sched_setattr() fails with EINVAL)",
			t->name, sd->util_min, sd->util_max);
	return 0;
}

/*
 * The policy each phase's setting applies to, and its priority checked
 * against it. rt-app's set_thread_param() gives a phase without "policy"
 * the policy the thread has when the phase first runs, for good (it writes
 * it into the phase's data): the task's, or that of the last phase before
 * it that set one. Every thread of a task starts with the task's, so this
 * is known from the file.
 */
static int resolve_sched(struct pctx *x, struct rtapp_task *t)
{
	enum rtapp_policy cur = t->sched.policy;
	char perr[256];

	if (rtapp_apply_policy(NULL, cur, t->sched.prio, &t->sched.dl, perr, sizeof(perr)))
		return fail(x, t->sched.line, "task %s: %s", t->name, perr);
	for (unsigned int p = 0; p < t->nr_phases; p++) {
		struct rtapp_sched *sd = &t->phases[p].sched;

		if (!sd->set)
			continue;
		if (sd->policy == RTAPP_POLICY_SAME)
			sd->policy = cur;
		if (rtapp_apply_policy(NULL, sd->policy, sd->prio, &sd->dl, perr, sizeof(perr)))
			return fail(x, sd->line, "task %s: phase %s: %s", t->name,
				    t->phases[p].name, perr);
		cur = sd->policy;
	}
	return 0;
}

/* ---- phases and tasks ---- */

static void free_phase(struct rtapp_phase *ph)
{
	for (unsigned int i = 0; i < ph->nr_events; i++) {
		free(ph->events[i].key);
		free(ph->events[i].ref);
	}
	free(ph->events);
	free(ph->cpus);
	free(ph->name);
}

static int parse_cpus(struct pctx *x, const struct rtapp_task *t, struct json_object *v,
		      unsigned int line, int **cpus, unsigned int *nr, unsigned int *cpus_line);

/*
 * One phase (or a task without "phases": the task object itself, @is_task).
 * Keys that are not events are the phase's attributes; a task's own ones
 * are handled by its caller and skipped here.
 */
static int parse_phase(struct pctx *x, struct rtapp_task *t, const char *name,
		       struct json_object *obj, size_t at, int o, bool is_task,
		       struct rtapp_phase *ph)
{
	size_t i = 0;
	s64 n;

	ph->name = xstrdup(name);
	ph->line = line_of(x, at);
	ph->loop = 1;
	/* at most one event a member */
	ph->events = xcalloc((size_t)json_object_object_length(obj) + 1, sizeof(*ph->events));
	json_object_object_foreach(obj, key, v) {
		unsigned int line = line_of(x, member_at(x, o, obj, i++));

		if (is_event(key)) {
			if (parse_event(x, t, key, v, line, &ph->events[ph->nr_events])) {
				ph->nr_events++;
				return -1;
			}
			ph->nr_events++;
		} else if (!strcmp(key, "loop")) {
			if (get_int(x, v, "loop", line, is_task ? -1 : 1, INT_MAX, &n))
				return -1;
			ph->loop = (int)n;
		} else if (!strcmp(key, "policy") || !strcmp(key, "priority") ||
			   !strcmp(key, "util_min") || !strcmp(key, "util_max") ||
			   is_dl_key(key)) {
			/* parse_sched() below */
		} else if (!strcmp(key, "cpus")) {
			/* a task's own are parsed by parse_task() */
			if (!is_task && parse_cpus(x, t, v, line, &ph->cpus, &ph->nr_cpus,
						   &ph->cpus_line))
				return -1;
		} else if (is_task && (!strcmp(key, "instance") || !strcmp(key, "delay") ||
				       !strcmp(key, "phases"))) {
			/* the task's own */
		} else if (unmodelled(x, t, key, line)) {
			return -1;
		} else {
			return fail(x, line, "task %s: unknown key \"%s\" (not an event or attribute rt-app knows)",
				    t->name, key);
		}
	}
	if (!ph->nr_events)
		return fail(x, ph->line, "task %s: no events found (a task must have events)", t->name);
	if (!is_task && parse_sched(x, t, obj, at, o, RTAPP_POLICY_SAME, &ph->sched))
		return -1;
	return 0;
}

static int parse_cpus(struct pctx *x, const struct rtapp_task *t, struct json_object *v,
		      unsigned int line, int **cpus, unsigned int *nr, unsigned int *cpus_line)
{
	size_t n;

	if (!json_object_is_type(v, json_type_array))
		return fail(x, line, "task %s: cpus: expected an array of CPU numbers, got %s", t->name,
			    type_name(v));
	n = json_object_array_length(v);
	if (!n || n > RTAPP_MAX_CPUS_LISTED)
		return fail(x, line, "task %s: cpus: %zu CPUs listed (1..%d)", t->name, n,
			    RTAPP_MAX_CPUS_LISTED);
	*cpus = xcalloc(n, sizeof(**cpus));
	*nr = (unsigned int)n;
	*cpus_line = line;
	for (size_t i = 0; i < n; i++) {
		s64 cpu;

		if (get_int(x, json_object_array_get_idx(v, i), "cpus", line, 0, INT_MAX, &cpu))
			return -1;
		(*cpus)[i] = (int)cpu;
	}
	return 0;
}

static int parse_task(struct pctx *x, const char *name, struct json_object *obj, size_t at,
		      int o, struct rtapp_task *t)
{
	struct json_object *v, *phases;
	size_t i;
	int po;
	s64 n;

	t->name = xstrdup(name);
	t->line = line_of(x, at);
	t->instances = 1;
	t->loop = -1;
	if (!json_object_is_type(obj, json_type_object))
		return fail(x, t->line, "task %s: expected an object, got %s", name, type_name(obj));
	if (json_object_object_get_ex(obj, "instance", &v)) {
		if (get_int(x, v, "instance", line_of(x, named_at(x, o, obj, "instance")), 0,
			    RTAPP_MAX_THREADS, &n))
			return -1;
		t->instances = (int)n;
	}
	if (json_object_object_get_ex(obj, "delay", &v)) {
		if (get_int(x, v, "delay", line_of(x, named_at(x, o, obj, "delay")), 0, INT_MAX, &n))
			return -1;
		t->delay_us = n;
	}
	if (json_object_object_get_ex(obj, "cpus", &v) &&
	    parse_cpus(x, t, v, line_of(x, named_at(x, o, obj, "cpus")), &t->cpus, &t->nr_cpus,
		       &t->cpus_line))
		return -1;
	if (parse_sched(x, t, obj, at, o, x->c->default_policy, &t->sched))
		return -1;
	if (!json_object_object_get_ex(obj, "phases", &phases)) {
		/* the task is its only phase; "loop" there bounds the phase, the task runs once */
		t->phases = xcalloc(1, sizeof(*t->phases));
		t->nr_phases = 1;
		if (parse_phase(x, t, name, obj, at, o, true, &t->phases[0]))
			return -1;
		t->loop = json_object_object_get_ex(obj, "loop", &v) ? 1 : -1;
		/* rt-app counts a phase's loops up from 1: 0 and -1 are never reached */
		if (t->phases[0].loop <= 0) {
			t->phases[0].loop = 1;
			t->loop = -1;
		}
		return resolve_sched(x, t);
	}
	at = named_at(x, o, obj, "phases");
	po = named_obj(x, o, obj, "phases");
	if (!json_object_is_type(phases, json_type_object))
		return fail(x, line_of(x, at), "task %s: phases: expected an object, got %s", name,
			    type_name(phases));
	/* the task's own keys: anything else but events is unknown here */
	i = 0;
	json_object_object_foreach(obj, key, tv) {
		unsigned int line = line_of(x, member_at(x, o, obj, i++));

		if (!strcmp(key, "loop")) {
			if (get_int(x, tv, "loop", line, -1, INT_MAX, &n))
				return -1;
			t->loop = (int)n;
		} else if (!strcmp(key, "instance") || !strcmp(key, "delay") ||
			   !strcmp(key, "cpus") || !strcmp(key, "phases") ||
			   !strcmp(key, "policy") || !strcmp(key, "priority") ||
			   !strcmp(key, "util_min") || !strcmp(key, "util_max") ||
			   is_dl_key(key)) {
			/* done above */
		} else if (is_event(key)) {
			return fail(x, line, "task %s: event %s beside \"phases\" (events go in a phase)",
				    name, key);
		} else if (unmodelled(x, t, key, line)) {
			return -1;
		} else {
			return fail(x, line, "task %s: unknown key \"%s\"", name, key);
		}
	}
	t->nr_phases = (unsigned int)json_object_object_length(phases);
	if (!t->nr_phases)
		return fail(x, line_of(x, at), "task %s: phases: no phase", name);
	t->phases = xcalloc(t->nr_phases, sizeof(*t->phases));
	i = 0;
	json_object_object_foreach(phases, pname, pv) {
		size_t pat = member_at(x, po, phases, i);

		if (!json_object_is_type(pv, json_type_object))
			return fail(x, line_of(x, pat), "task %s: phase %s: expected an object, got %s",
				    name, pname, type_name(pv));
		if (parse_phase(x, t, pname, pv, pat, member_obj(x, po, phases, i),
				false, &t->phases[i]))
			return -1;
		i++;
	}
	return resolve_sched(x, t);
}

/* ---- checks over the whole file ---- */

/*
 * The mutexes a task holds along its events, phase by phase (a phase run
 * twice when it leaves a lock held, to meet the second lock): locking one
 * it holds deadlocks (a default pthread mutex), unlocking one it does not
 * hold is undefined, waiting on a condition needs its mutex, and every lock
 * must be released before the sequence starts over or the thread ends.
 * @held (one per resource, all false) is shared by the tasks: each clears
 * what it set, so the check is linear in the events.
 */
static int check_locks(struct pctx *x, const struct rtapp_task *t, bool *held)
{
	struct rtapp_config *c = x->c;
	unsigned int *set = NULL, first = UINT_MAX;
	size_t nset = 0, cap = 0;
	int rc = 0;

	for (unsigned int p = 0; p < t->nr_phases && !rc; p++) {
		const struct rtapp_phase *ph = &t->phases[p];
		unsigned int passes = ph->loop > 1 ? 2 : 1;

		for (unsigned int pass = 0; pass < passes && !rc; pass++) {
			for (unsigned int i = 0; i < ph->nr_events && !rc; i++) {
				const struct rtapp_event *e = &ph->events[i];
				const char *m;

				switch (e->type) {
				case RTAPP_EV_LOCK:
					m = c->res[e->res].name;
					if (held[e->res])
						rc = fail(x, e->line, "task %s: %s: mutex %s is already held by this task (no unlock since the last lock): it would deadlock",
							  t->name, e->key, m);
					held[e->res] = true;
					set = grow(set, &cap, nset + 1, sizeof(*set));
					set[nset++] = (unsigned int)e->res;
					break;
				case RTAPP_EV_UNLOCK:
					m = c->res[e->res].name;
					if (!held[e->res])
						rc = fail(x, e->line, "task %s: %s: mutex %s is not held by this task",
							  t->name, e->key, m);
					held[e->res] = false;
					break;
				case RTAPP_EV_WAIT:
				case RTAPP_EV_SYNC:
					m = c->res[e->dep].name;
					if (!held[e->dep])
						rc = fail(x, e->line, "task %s: %s: mutex %s must be locked before waiting (pthread_cond_wait)",
							  t->name, e->key, m);
					break;
				default:
					break;
				}
			}
		}
	}
	/* the first mutex still held, in the order resources were named */
	for (size_t i = 0; i < nset; i++) {
		if (held[set[i]] && set[i] < first)
			first = set[i];
		held[set[i]] = false;
	}
	if (!rc && first != UINT_MAX)
		rc = fail(x, t->line, "task %s: mutex %s is locked and never unlocked: the task would deadlock or end holding it",
			  t->name, c->res[first].name);
	free(set);
	return rc;
}

/* a thread of @t may be SCHED_DEADLINE: the task's policy or a phase's */
static bool may_be_deadline(const struct rtapp_task *t)
{
	if (t->sched.policy == RTAPP_SCHED_DEADLINE)
		return true;
	for (unsigned int p = 0; p < t->nr_phases; p++)
		if (t->phases[p].sched.set && t->phases[p].sched.policy == RTAPP_SCHED_DEADLINE)
			return true;
	return false;
}

/*
 * What a DL thread may not do here: fork (sched_fork() fails a DL task's
 * clone with EAGAIN, and rt-app has no reset-on-fork), or take a
 * pi_enabled mutex (DL priority inheritance, dl_boosted, is not modelled)
 */
static int check_deadline_task(struct pctx *x, const struct rtapp_task *t)
{
	if (!may_be_deadline(t))
		return 0;
	for (unsigned int p = 0; p < t->nr_phases; p++) {
		for (unsigned int k = 0; k < t->phases[p].nr_events; k++) {
			const struct rtapp_event *e = &t->phases[p].events[k];

			if (e->type == RTAPP_EV_FORK)
				return fail(x, e->line,
					    "task %s: %s: a SCHED_DEADLINE thread cannot fork (pthread_create() fails with EAGAIN: sched_fork())",
					    t->name, e->key);
			if (e->type == RTAPP_EV_LOCK && x->c->pi_enabled)
				return fail(x, e->line,
					    "task %s: %s: pi_enabled mutexes of SCHED_DEADLINE threads are not modelled (DL priority inheritance)",
					    t->name, e->key);
		}
	}
	return 0;
}

static int check_file(struct pctx *x)
{
	struct rtapp_config *c = x->c;
	struct ntab tasks = { 0 };
	bool *held = xcalloc(c->nr_res ? c->nr_res : 1, sizeof(*held));
	int rc = -1;

	for (unsigned int i = 0; i < c->nr_tasks; i++)
		ntab_add(&tasks, c->tasks[i].name, 0, i);
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		struct rtapp_task *t = &c->tasks[i];

		for (unsigned int p = 0; p < t->nr_phases; p++) {
			for (unsigned int k = 0; k < t->phases[p].nr_events; k++) {
				struct rtapp_event *e = &t->phases[p].events[k];
				unsigned int j;

				if (e->type != RTAPP_EV_FORK)
					continue;
				j = ntab_find(&tasks, e->ref, 0);
				if (j == UINT_MAX) {
					fail(x, e->line, "task %s: %s: can't fork unknown task %s", t->name,
					     e->key, e->ref);
					goto out;
				}
				e->fork_task = (int)j;
				c->tasks[j].forked = true;
			}
		}
		if (check_locks(x, t, held) || check_deadline_task(x, t))
			goto out;
	}
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		const struct rtapp_task *t = &c->tasks[i];

		if ((t->instances || t->forked) && t->loop == -1 && c->duration_s <= 0 &&
		    !x->background) {
			fail(x, t->line,
			     "task %s loops forever (no \"loop\") and global \"duration\" is not set: the run would never end",
			     t->name);
			goto out;
		}
	}
	rc = 0;
out:
	free(held);
	free(tasks.e);
	return rc;
}

/* ---- global ---- */

/*
 * "CPUn": "CPU" and decimal digits, the number at most INT_MAX (the machine
 * check bounds it by the CPUs). rt-app reads it with sscanf("CPU%d"), which
 * also takes "CPU 1", "CPU+1", "CPU1x" (as CPU1) and wraps a number beyond
 * an int ("CPU4294967299" is CPU 3 there): refused here. 0 or -1.
 */
static int parse_calib_cpu(const char *s, int *cpu)
{
	long long n = 0;

	if (strncmp(s, "CPU", 3) || !s[3])
		return -1;
	for (s += 3; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		n = 10 * n + (*s - '0');
		if (n > INT_MAX)
			return -1;
	}
	*cpu = (int)n;
	return 0;
}

static int parse_global(struct pctx *x, struct json_object *g, size_t at, int o)
{
	struct rtapp_config *c = x->c;
	bool log_disabled = false;
	size_t i = 0;
	const char *s;
	s64 n;

	if (!json_object_is_type(g, json_type_object))
		return fail(x, line_of(x, at), "global: expected an object, got %s", type_name(g));
	json_object_object_foreach(g, key, v) {
		unsigned int line = line_of(x, member_at(x, o, g, i++));

		if (!strcmp(key, "duration")) {
			if (get_int(x, v, key, line, -1, INT_MAX, &n))
				return -1;
			c->duration_s = n;
		} else if (!strcmp(key, "calibration")) {
			c->calib_line = line;
			if (json_object_is_type(v, json_type_int)) {
				if (get_int(x, v, key, line, 1, INT_MAX, &n))
					return -1;
				c->calib_ns_per_loop = (int)n;
			} else {
				if (get_str(x, v, key, line, &s))
					return -1;
				if (parse_calib_cpu(s, &c->calib_cpu))
					return fail(x, line, "calibration: \"%s\" is neither ns per loop nor \"CPUn\" (CPU and a CPU number, 0..%d)",
						    s, INT_MAX);
				c->calib_ns_per_loop = 0;
			}
		} else if (!strcmp(key, "default_policy")) {
			if (get_str(x, v, key, line, &s))
				return -1;
			if (policy_parse(s, &c->default_policy))
				return fail(x, line, "default_policy: invalid policy %s", s);
		} else if (!strcmp(key, "pi_enabled")) {
			if (get_bool(x, v, key, line, &c->pi_enabled))
				return -1;
		} else if (!strcmp(key, "lock_pages")) {
			if (get_bool(x, v, key, line, &c->lock_pages))
				return -1;
		} else if (!strcmp(key, "gnuplot")) {
			if (get_bool(x, v, key, line, &c->gnuplot))
				return -1;
		} else if (!strcmp(key, "cumulative_slack")) {
			if (get_bool(x, v, key, line, &c->cumulative_slack))
				return -1;
		} else if (!strcmp(key, "logdir")) {
			c->logdir_line = line;
			if (get_str(x, v, key, line, &s))
				return -1;
			free(c->logdir);
			c->logdir = xstrdup(s);
		} else if (!strcmp(key, "log_basename")) {
			if (get_str(x, v, key, line, &s))
				return -1;
			free(c->log_basename);
			c->log_basename = xstrdup(s);
		} else if (!strcmp(key, "log_size")) {
			if (json_object_is_type(v, json_type_int)) {
				if (get_int(x, v, key, line, 0, 4095, &n))
					return -1;
				log_disabled = n == 0;
			} else {
				if (get_str(x, v, key, line, &s))
					return -1;
				if (strcmp(s, "disable") && strcmp(s, "file") && strcmp(s, "auto"))
					return fail(x, line, "log_size: \"%s\" (disable, file, auto or MB)", s);
				log_disabled = !strcmp(s, "disable");
			}
		} else if (!strcmp(key, "ftrace")) {
			if (!json_object_is_type(v, json_type_boolean) &&
			    !json_object_is_type(v, json_type_string))
				return fail(x, line, "ftrace: expected a string of categories, got %s",
					    type_name(v));
		} else if (!strcmp(key, "io_device")) {
			if (get_str(x, v, key, line, &s))
				return -1;
		} else if (!strcmp(key, "mem_buffer_size")) {
			if (get_int(x, v, key, line, 0, INT_MAX, &n))
				return -1;
		} else {
			return fail(x, line, "global: unknown key \"%s\"", key);
		}
	}
	if (json_object_object_get_ex(g, "logdir", NULL) && !log_disabled) {
		struct stat sb;

		c->write_logs = true;
		if (stat(c->logdir, &sb) || !S_ISDIR(sb.st_mode))
			return fail(x, line_of(x, named_at(x, o, g, "logdir")),
				    "logdir: log directory %s does not exist", c->logdir);
	}
	return 0;
}

struct rtapp_config *rtapp_parse_text(const char *file, const char *text, size_t len,
				      bool background, char *err, size_t errlen)
{
	struct pctx x = { .file = file, .text = text, .len = len, .err = err, .errlen = errlen,
			  .background = background };
	struct json_tokener *tok;
	struct json_object *root, *v;
	struct rtapp_config *c = NULL;
	size_t cur, i;
	int rc = -1, o;

	if (len > RTAPP_MAX_FILE) {
		snprintf(err, errlen, "rt-app: %s: larger than 16 MiB", file);
		return NULL;
	}
	lines_init(&x);
	if (memchr(text, '\0', len)) {
		fail(&x, line_of(&x, (size_t)((const char *)memchr(text, '\0', len) - text)),
		     "a NUL byte: not a JSON text");
		goto fail;
	}
	tok = json_tokener_new();
	/* rt-app's json_tokener_parse(): default flags (comments, trailing commas) */
	json_tokener_set_flags(tok, 0);
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root) {
		enum json_tokener_error je = json_tokener_get_error(tok);
		size_t off = json_tokener_get_parse_end(tok);
		unsigned int line, col;

		if (je == json_tokener_continue || je == json_tokener_success) {
			off = len;
			line_col(&x, off, &line, &col);
			snprintf(err, errlen, "rt-app: %s:%u:%u: JSON syntax error: unexpected end of file",
				 file, line, col);
		} else {
			line_col(&x, off, &line, &col);
			snprintf(err, errlen, "rt-app: %s:%u:%u: JSON syntax error: %s", file, line,
				 col, json_tokener_error_desc(je));
		}
		json_tokener_free(tok);
		goto fail;
	}
	cur = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);

	c = xcalloc(1, sizeof(*c));
	x.c = c;
	c->file = xstrdup(file);
	c->duration_s = -1;
	c->default_policy = RTAPP_SCHED_OTHER;
	c->lock_pages = true;
	c->logdir = xstrdup("./");
	c->log_basename = xstrdup("rt-app");

	if (skip_blanks(&x, cur) != len) {
		unsigned int line, col;

		line_col(&x, cur, &line, &col);
		snprintf(err, errlen, "rt-app: %s:%u:%u: JSON syntax error: text after the top-level object",
			 file, line, col);
		goto out;
	}
	if (!json_object_is_type(root, json_type_object)) {
		fail(&x, 1, "expected an object with \"tasks\", got %s", type_name(root));
		goto out;
	}
	/* the top-level object is the scan's object 0 */
	scan_text(&x);
	i = 0;
	{
		json_object_object_foreach(root, key, rv) {
			(void)rv;
			if (strcmp(key, "global") && strcmp(key, "tasks") && strcmp(key, "resources")) {
				fail(&x, line_of(&x, member_at(&x, 0, root, i)),
				     "unknown key \"%s\" (global, tasks, resources)", key);
				goto out;
			}
			i++;
		}
	}
	c->has_global = json_object_object_get_ex(root, "global", &v);
	c->has_calibration = c->has_global && json_object_object_get_ex(v, "calibration", NULL);
	if (c->has_global && parse_global(&x, v, named_at(&x, 0, root, "global"),
					  named_obj(&x, 0, root, "global")))
		goto out;
	/* rt-app's "resources" section is optional and changes nothing: events create them */
	if (json_object_object_get_ex(root, "resources", &v) && !json_object_is_type(v, json_type_object)) {
		fail(&x, line_of(&x, named_at(&x, 0, root, "resources")),
		     "resources: expected an object, got %s", type_name(v));
		goto out;
	}
	if (!json_object_object_get_ex(root, "tasks", &v)) {
		fail(&x, 0, "no \"tasks\" object (it is the one rt-app requires)");
		goto out;
	}
	cur = named_at(&x, 0, root, "tasks");
	o = named_obj(&x, 0, root, "tasks");
	if (!json_object_is_type(v, json_type_object) || !json_object_object_length(v)) {
		fail(&x, line_of(&x, cur), "tasks: expected an object with at least one task");
		goto out;
	}
	c->tasks = xcalloc((size_t)json_object_object_length(v), sizeof(*c->tasks));
	i = 0;
	{
		json_object_object_foreach(v, name, tv) {
			struct rtapp_task *t = &c->tasks[c->nr_tasks++];

			if (parse_task(&x, name, tv, member_at(&x, o, v, i), member_obj(&x, o, v, i), t))
				goto out;
			i++;
			c->nthreads += (unsigned int)t->instances;
			if (c->nthreads > RTAPP_MAX_THREADS) {
				fail(&x, t->line, "more than %d threads", RTAPP_MAX_THREADS);
				goto out;
			}
		}
	}
	if (check_file(&x))
		goto out;
	rc = 0;
out:
	json_object_put(root);
fail:
	pos_free(&x.pos);
	free(x.res_names.e);
	if (rc) {
		rtapp_config_free(c);
		return NULL;
	}
	return c;
}

struct rtapp_config *rtapp_parse_file(const char *file, bool background, char *err,
				      size_t errlen)
{
	struct rtapp_config *c;
	FILE *f = fopen(file, "rb");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "rt-app: %s: %s", file, strerror(errno));
		return NULL;
	}
	buf = xmalloc(RTAPP_MAX_FILE + 1);
	n = fread(buf, 1, RTAPP_MAX_FILE + 1, f);
	if (ferror(f) || n > RTAPP_MAX_FILE) {
		snprintf(err, errlen, "rt-app: %s: %s", file,
			 ferror(f) ? strerror(errno) : "larger than 16 MiB");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	c = rtapp_parse_text(file, buf, n, background, err, errlen);
	free(buf);
	return c;
}

void rtapp_config_free(struct rtapp_config *c)
{
	if (!c)
		return;
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		struct rtapp_task *t = &c->tasks[i];

		for (unsigned int p = 0; p < t->nr_phases; p++)
			free_phase(&t->phases[p]);
		free(t->phases);
		free(t->cpus);
		free(t->name);
	}
	free(c->tasks);
	for (unsigned int r = 0; r < c->nr_res; r++)
		free(c->res[r].name);
	free(c->res);
	free(c->logdir);
	free(c->log_basename);
	free(c->file);
	free(c);
}
