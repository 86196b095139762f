// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON reader `sweep --collect` reads point files with
 * (report/json_read.c): the input is the file's text. A document that
 * parses is walked whole, and its "metrics" looked up as --collect does.
 */
#include "fuzz_util.h"

#include "report/json_read.h"

/* every node, so a tree the parser built wrong shows up under ASan */
static size_t walk(const struct jv *v)
{
	size_t n = 1;

	if (v->type == JV_STRING)
		n += strlen(v->str);
	for (int i = 0; i < v->n; i++) {
		if (v->type == JV_OBJECT)
			n += strlen(v->keys[i]);
		n += walk(&v->items[i]);
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), err[256];
	struct jv doc;

	if (!jv_parse(text, &doc, err, sizeof(err))) {
		const struct jv *m = jv_get(&doc, "metrics");

		walk(&doc);
		if (m && m->type == JV_OBJECT)
			for (int i = 0; i < m->n; i++)
				jv_get(m, m->keys[i]);
		jv_free(&doc);
	} else if (strncmp(err, "offset ", 7)) {
		abort(); /* every error names where it is */
	}
	free(text);
	return 0;
}
