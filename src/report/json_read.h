/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small JSON reader for the files schedlab writes itself (a sweep's
 * point records, docs/sweeps.md): the whole document parsed into a tree.
 * Strings keep their bytes (the escapes \" \\ \/ \b \f \n \r \t and \uXXXX
 * below 0x80 are decoded; other \u escapes are kept as '?'); numbers are
 * JSON's (no "inf", "nan" or hex), read as finite doubles. Nesting is bounded by JSON_MAX_DEPTH, like the writer's.
 */
#ifndef SCHEDLAB_REPORT_JSON_READ_H
#define SCHEDLAB_REPORT_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
	enum jv_type type;
	bool b;
	double num;
	char *str;		/* JV_STRING */
	int n;			/* JV_ARRAY, JV_OBJECT: members */
	struct jv *items;	/* their values */
	char **keys;		/* JV_OBJECT: their names */
};

/* Parse @text; 0, or -1 with "offset N: what is wrong" in @err. Free with jv_free(). */
int jv_parse(const char *text, struct jv *out, char *err, size_t errlen);
void jv_free(struct jv *v);
/* The member @key of object @v (the first, if several), or NULL. */
const struct jv *jv_get(const struct jv *v, const char *key);

#endif
