// SPDX-License-Identifier: GPL-2.0-only
/* --json of `ab` and `study`: the runs' values and the rows' statistics. */
#include "report/compare.h"
#include "report/json.h"
#include "report/version.h"
#include "sim/alloc.h"

#include <stdlib.h>

static const char *better_name(enum metric_better b)
{
	return b == METRIC_LOWER ? "lower" : b == METRIC_HIGHER ? "higher" : "none";
}

static void write_row(struct json_writer *w, const struct comparison *cmp, int c,
		      const struct cmp_row *row, double *x)
{
	json_begin_object(w);
	json_kv_str(w, "name", row->name);
	json_kv_str(w, "better", better_name(row->better));
	json_kv_bool(w, "constant", row->constant);
	json_key(w, "variants");
	json_begin_array(w);
	for (int v = 0; v < cmp->nr_variants; v++) {
		json_begin_object(w);
		json_kv_str(w, "variant", cmp->variant_name[v]);
		cmp_values(cmp, c, v, row->name, x);
		json_key(w, "values");
		json_begin_array(w);
		for (int r = 0; r < cmp->nr_runs; r++)
			json_double(w, x[r]);
		json_end_array(w);
		json_kv_double(w, "mean", row->s[v].mean);
		json_kv_double(w, "sd", row->s[v].sd);
		json_kv_double(w, "ci_half", row->ci[v]);
		if (v > 0) {
			const struct mean_diff *d = &row->d[v];

			json_key(w, "vs_first");
			json_begin_object(w);
			json_kv_double(w, "diff", d->diff);
			json_kv_double(w, "ci_half", d->half);
			json_kv_double(w, "df", d->df);
			json_kv_double(w, "pct", d->pct);
			json_kv_double(w, "pct_ci_half", d->pct_half);
			json_kv_str(w, "verdict", cmp_verdict(row, v));
			json_end_object(w);
		}
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

int cmp_write_json(FILE *out, const struct comparison *cmp)
{
	struct json_writer w;
	double *x = xcalloc((size_t)cmp->nr_runs, sizeof(*x));

	json_init(&w, out);
	json_begin_object(&w);
	json_kv_str(&w, "kind", cmp->kind);
	json_kv_schedlab(&w);
	if (cmp->name)
		json_kv_str(&w, "study", cmp->name);
	json_kv_str(&w, "title", cmp->title);
	json_kv_double(&w, "confidence", cmp->conf);
	json_kv_u64(&w, "runs", (u64)cmp->nr_runs);
	json_kv_u64(&w, "first_seed", cmp->first_seed);
	json_key(&w, "variants");
	json_begin_array(&w);
	for (int v = 0; v < cmp->nr_variants; v++) {
		json_begin_object(&w);
		json_kv_str(&w, "name", cmp->variant_name[v]);
		json_kv_str(&w, "features", cmp->variant_features[v]);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_key(&w, "cases");
	json_begin_array(&w);
	for (int c = 0; c < cmp->nr_cases; c++) {
		struct cmp_row rows[RUN_MAX_VALUES];
		char err[256];
		int n = cmp_rows(cmp, c, rows, RUN_MAX_VALUES, err, sizeof(err));

		json_begin_object(&w);
		json_kv_str(&w, "machine", cmp->cases[c].machine);
		json_kv_str(&w, "command", cmp->cases[c].command);
		if (cmp->cases[c].options)
			json_kv_str(&w, "options", cmp->cases[c].options);
		json_key(&w, "metrics");
		json_begin_array(&w);
		for (int i = 0; i < n; i++)
			write_row(&w, cmp, c, &rows[i], x);
		json_end_array(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	free(x);
	return json_finish(&w);
}
