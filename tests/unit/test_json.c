// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/report/json.c. Every document is written to a
 * memstream and compared byte for byte with the expected text.
 */
#include "test_util.h"
#include "report/json.h"
#include "report/version.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>

struct doc {
	FILE *f;
	char *buf;
	size_t len;
	struct json_writer w;
};

static void doc_open(struct doc *d)
{
	d->buf = NULL;
	d->len = 0;
	d->f = open_memstream(&d->buf, &d->len);
	assert_non_null(d->f);
	json_init(&d->w, d->f);
}

/* Finish the document, check the result and the text, free everything. */
static void doc_check(struct doc *d, int want_rc, const char *want)
{
	int rc = json_finish(&d->w);

	fclose(d->f);
	if (rc != want_rc)
		fail_msg("json_finish() = %d (%s), want %d; text:\n%s", rc,
			 json_error(&d->w) ? json_error(&d->w) : "no error", want_rc, d->buf);
	if (want)
		assert_string_equal(d->buf, want);
	free(d->buf);
}

/* One scalar written by @fn as the whole document. */
#define SCALAR_DOC(call, want)            \
	do {                              \
		struct doc d;             \
		struct json_writer *w;    \
		doc_open(&d);             \
		w = &d.w;                 \
		call;                     \
		doc_check(&d, 0, want "\n"); \
	} while (0)

/* every record's "schedlab" member: the build's version and commit */
static void test_schedlab_member(void **state)
{
	struct doc d;
	char want[256];

	(void)state;
	assert_true(schedlab_version[0] && schedlab_commit[0]);
	snprintf(want, sizeof(want),
		 "{\n  \"schedlab\": {\n    \"version\": \"%s\",\n    \"commit\": \"%s\"\n  },\n  \"x\": 1\n}\n",
		 schedlab_version, schedlab_commit);
	doc_open(&d);
	json_begin_object(&d.w);
	json_kv_schedlab(&d.w);
	json_kv_u64(&d.w, "x", 1);
	json_end_object(&d.w);
	doc_check(&d, 0, want);
}

static void test_strings(void **state)
{
	(void)state;
	SCALAR_DOC(json_str(w, ""), "\"\"");
	SCALAR_DOC(json_str(w, "plain text"), "\"plain text\"");
	SCALAR_DOC(json_str(w, "say \"hi\""), "\"say \\\"hi\\\"\"");
	SCALAR_DOC(json_str(w, "C:\\dir\\"), "\"C:\\\\dir\\\\\"");
	SCALAR_DOC(json_str(w, "a\nb\tc\rd"), "\"a\\u000Ab\\u0009c\\u000Dd\"");
	SCALAR_DOC(json_str(w, "\x01\x1f\x7f"), "\"\\u0001\\u001F\x7f\"");
	SCALAR_DOC(json_str(w, "\b\f"), "\"\\u0008\\u000C\"");
	/* '/' and UTF-8 pass through unchanged */
	SCALAR_DOC(json_str(w, "a/b \xc2\xb5s"), "\"a/b \xc2\xb5s\"");
	SCALAR_DOC(json_str(w, NULL), "null");
}

static void test_key_escaping(void **state)
{
	struct doc d;

	(void)state;
	doc_open(&d);
	json_begin_object(&d.w);
	json_kv_str(&d.w, "we\"ird\\key\n", "v");
	json_end_object(&d.w);
	doc_check(&d, 0, "{\n  \"we\\\"ird\\\\key\\u000A\": \"v\"\n}\n");
}

static void test_integers(void **state)
{
	(void)state;
	SCALAR_DOC(json_u64(w, 0), "0");
	SCALAR_DOC(json_u64(w, 1), "1");
	SCALAR_DOC(json_u64(w, UINT64_MAX), "18446744073709551615");
	SCALAR_DOC(json_s64(w, 0), "0");
	SCALAR_DOC(json_s64(w, -1), "-1");
	SCALAR_DOC(json_s64(w, -123456789012LL), "-123456789012");
	SCALAR_DOC(json_s64(w, INT64_MAX), "9223372036854775807");
	SCALAR_DOC(json_s64(w, INT64_MIN), "-9223372036854775808");
}

static void test_doubles(void **state)
{
	(void)state;
	SCALAR_DOC(json_double(w, 0.0), "0");
	SCALAR_DOC(json_double(w, -0.0), "-0");
	SCALAR_DOC(json_double(w, 1.0), "1");
	SCALAR_DOC(json_double(w, 0.1), "0.1");
	SCALAR_DOC(json_double(w, 1e-9), "1e-09");
	SCALAR_DOC(json_double(w, 123456.789), "123456.789");
	SCALAR_DOC(json_double(w, -2.5), "-2.5");
	SCALAR_DOC(json_double(w, 1.0 / 3.0), "0.3333333333333333");
	SCALAR_DOC(json_double(w, 0.1 + 0.2), "0.30000000000000004");
	/* whole numbers read as such, not in the shortest form 1e+03 */
	SCALAR_DOC(json_double(w, 1000.0), "1000");
	SCALAR_DOC(json_double(w, -3000000.0), "-3000000");
	SCALAR_DOC(json_double(w, 1e20), "1e+20");
	SCALAR_DOC(json_double(w, 1e21), "1e+21");
	SCALAR_DOC(json_double(w, 6.02214076e23), "6.02214076e+23");
	SCALAR_DOC(json_double(w, 5e-324), "5e-324");
	SCALAR_DOC(json_double(w, 1.7976931348623157e308), "1.7976931348623157e+308");
	SCALAR_DOC(json_double(w, NAN), "null");
	SCALAR_DOC(json_double(w, INFINITY), "null");
	SCALAR_DOC(json_double(w, -INFINITY), "null");
}

/* Every printed double reads back exactly. */
static void test_double_roundtrip(void **state)
{
	unsigned long long x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		double v, back;
		struct doc d;
		u64 bits;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		bits = x;
		memcpy(&v, &bits, sizeof(v));
		if (!isfinite(v))
			continue;
		doc_open(&d);
		json_double(&d.w, v);
		assert_int_equal(json_finish(&d.w), 0);
		fclose(d.f);
		back = strtod(d.buf, NULL);
		if (memcmp(&back, &v, sizeof(v)))
			fail_msg("%.17g printed as %s", v, d.buf);
		free(d.buf);
	}
}

/* A locale with a decimal comma does not change the output. */
static void test_double_locale(void **state)
{
	static const char *const locales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
					       "fr_FR.utf8", "nl_NL.UTF-8", "ru_RU.UTF-8" };
	const char *ok = NULL;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(locales) && !ok; i++)
		ok = setlocale(LC_NUMERIC, locales[i]);
	if (!ok)
		skip();
	SCALAR_DOC(json_double(w, 0.1), "0.1");
	SCALAR_DOC(json_double(w, 123456.789), "123456.789");
	SCALAR_DOC(json_double(w, -2.5e-7), "-2.5e-07");
	setlocale(LC_NUMERIC, "C");
}

static void test_other_scalars(void **state)
{
	(void)state;
	SCALAR_DOC(json_bool(w, true), "true");
	SCALAR_DOC(json_bool(w, false), "false");
	SCALAR_DOC(json_null(w), "null");
}

static void test_empty_containers(void **state)
{
	struct doc d;

	(void)state;
	SCALAR_DOC((json_begin_object(w), json_end_object(w)), "{}");
	SCALAR_DOC((json_begin_array(w), json_end_array(w)), "[]");

	doc_open(&d);
	json_begin_object(&d.w);
	json_key(&d.w, "o");
	json_begin_object(&d.w);
	json_end_object(&d.w);
	json_key(&d.w, "a");
	json_begin_array(&d.w);
	json_end_array(&d.w);
	json_end_object(&d.w);
	doc_check(&d, 0, "{\n  \"o\": {},\n  \"a\": []\n}\n");
}

static void test_nesting(void **state)
{
	struct doc d;

	(void)state;
	doc_open(&d);
	json_begin_array(&d.w);
	json_begin_array(&d.w);
	json_u64(&d.w, 1);
	json_begin_object(&d.w);
	json_key(&d.w, "x");
	json_begin_array(&d.w);
	json_null(&d.w);
	json_end_array(&d.w);
	json_end_object(&d.w);
	json_end_array(&d.w);
	json_u64(&d.w, 2);
	json_end_array(&d.w);
	doc_check(&d, 0,
		  "[\n"
		  "  [\n"
		  "    1,\n"
		  "    {\n"
		  "      \"x\": [\n"
		  "        null\n"
		  "      ]\n"
		  "    }\n"
		  "  ],\n"
		  "  2\n"
		  "]\n");
}

static void test_max_depth(void **state)
{
	struct doc d;

	(void)state;
	/* exactly JSON_MAX_DEPTH levels are fine */
	doc_open(&d);
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		json_begin_array(&d.w);
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		json_end_array(&d.w);
	doc_check(&d, 0, NULL);

	/* one more is an error, and the error sticks */
	doc_open(&d);
	for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
		json_begin_array(&d.w);
	assert_true(d.w.error);
	for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
		json_end_array(&d.w);
	assert_string_equal(json_error(&d.w), "JSON nesting deeper than 32 levels");
	doc_check(&d, -1, NULL);
}

static void test_misuse(void **state)
{
	struct doc d;

	(void)state;
	/* value inside an object without a key */
	doc_open(&d);
	json_begin_object(&d.w);
	json_u64(&d.w, 1);
	json_end_object(&d.w);
	doc_check(&d, -1, NULL);

	/* key inside an array */
	doc_open(&d);
	json_begin_array(&d.w);
	json_key(&d.w, "k");
	doc_check(&d, -1, NULL);

	/* key at top level */
	doc_open(&d);
	json_key(&d.w, "k");
	doc_check(&d, -1, NULL);

	/* mismatched end */
	doc_open(&d);
	json_begin_object(&d.w);
	json_end_array(&d.w);
	doc_check(&d, -1, NULL);

	/* end with nothing open */
	doc_open(&d);
	json_end_object(&d.w);
	doc_check(&d, -1, NULL);

	/* dangling key */
	doc_open(&d);
	json_begin_object(&d.w);
	json_key(&d.w, "k");
	json_end_object(&d.w);
	doc_check(&d, -1, NULL);

	/* unfinished document */
	doc_open(&d);
	json_begin_object(&d.w);
	doc_check(&d, -1, NULL);

	/* empty document */
	doc_open(&d);
	doc_check(&d, -1, "");

	/* two top-level values: the second is not written */
	doc_open(&d);
	json_u64(&d.w, 1);
	json_u64(&d.w, 2);
	doc_check(&d, -1, "1\n");
}

static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct json_writer w;

	(void)state;
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	json_init(&w, f);
	json_begin_object(&w);
	json_kv_str(&w, "k", "v");
	json_end_object(&w);
	assert_int_equal(json_finish(&w), -1);
	assert_true(w.error);
	assert_string_equal(json_error(&w), "write failed");
	fclose(f);
}

static void test_golden_document(void **state)
{
	static const char *const want =
		"{\n"
		"  \"machine\": \"xeon-8269cy-2s\",\n"
		"  \"nr_cpus\": 104,\n"
		"  \"seed\": 18446744073709551615,\n"
		"  \"offset_ns\": -42,\n"
		"  \"features\": [\n"
		"    \"PLACE_LAG\",\n"
		"    \"NO_DELAY_DEQUEUE\"\n"
		"  ],\n"
		"  \"results\": {\n"
		"    \"time_s\": 0.1,\n"
		"    \"latency_s\": 1e-09,\n"
		"    \"ops\": 123456.789,\n"
		"    \"ci\": null,\n"
		"    \"ok\": true,\n"
		"    \"note\": \"line1\\u000Aline2 \\\"q\\\"\",\n"
		"    \"empty\": {},\n"
		"    \"none\": [],\n"
		"    \"missing\": null\n"
		"  },\n"
		"  \"done\": false\n"
		"}\n";
	struct doc d;
	struct json_writer *w;

	(void)state;
	doc_open(&d);
	w = &d.w;
	json_begin_object(w);
	json_kv_str(w, "machine", "xeon-8269cy-2s");
	json_kv_u64(w, "nr_cpus", 104);
	json_kv_u64(w, "seed", UINT64_MAX);
	json_kv_s64(w, "offset_ns", -42);
	json_key(w, "features");
	json_begin_array(w);
	json_str(w, "PLACE_LAG");
	json_str(w, "NO_DELAY_DEQUEUE");
	json_end_array(w);
	json_key(w, "results");
	json_begin_object(w);
	json_kv_double(w, "time_s", 0.1);
	json_kv_double(w, "latency_s", 1e-9);
	json_kv_double(w, "ops", 123456.789);
	json_kv_double(w, "ci", NAN);
	json_kv_bool(w, "ok", true);
	json_kv_str(w, "note", "line1\nline2 \"q\"");
	json_key(w, "empty");
	json_begin_object(w);
	json_end_object(w);
	json_key(w, "none");
	json_begin_array(w);
	json_end_array(w);
	json_key(w, "missing");
	json_null(w);
	json_end_object(w);
	json_kv_bool(w, "done", false);
	json_end_object(w);
	doc_check(&d, 0, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_key_escaping),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_double_roundtrip),
		cmocka_unit_test(test_double_locale),
		cmocka_unit_test(test_other_scalars),
		cmocka_unit_test(test_empty_containers),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_max_depth),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_golden_document),
		cmocka_unit_test(test_schedlab_member),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
