// SPDX-License-Identifier: GPL-2.0-only
/*
 * Study files (cli/study_file.c). The input is the file's text; each
 * workload line of a parsed study is then split and parsed as a benchmark
 * command and each variant's feature list is applied, as `schedlab study`
 * does before it runs anything.
 */
#include "fuzz_util.h"

#include "cli/study_file.h"
#include "kernel/features.h"
#include "topo/cpumask.h"
#include "work/bench.h"

static void parse_workloads(const struct strlist *w)
{
	for (int i = 0; i < w->n; i++) {
		struct strlist words;
		struct bench *b;
		char err[512];

		split_words(w->v[i], &words);
		b = bench_parse(words.n, words.v, err, sizeof(err));
		if (b)
			bench_free(b);
		strlist_free(&words);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), err[512];
	struct study_def d;

	cpumask_setup(8);
	if (!study_parse("fuzz.study", text, &d, err, sizeof(err))) {
		int nr_groups;
		const struct study_group *groups = study_groups(&d, &nr_groups);

		for (int g = 0; g < nr_groups; g++) {
			parse_workloads(&groups[g].workloads);
			parse_workloads(&groups[g].quick_workloads);
		}
		for (int v = 0; v < d.nr_variants; v++) {
			sched_feat_reset();
			sched_feat_apply(d.variant_features[v], err, sizeof(err));
		}
		study_free(&d);
	}
	free(text);
	return 0;
}
