// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/features.h"

#include <string.h>

const struct sched_feat_info sched_feat_info[__SCHED_FEAT_NR] = {
#define SF_INFO(name, def, source, missing, help) { #name, def, source, missing, help },
	SCHED_FEATURES(SF_INFO)
#undef SF_INFO
};

bool sysctl_sched_features[__SCHED_FEAT_NR];

void sched_feat_reset(void)
{
	for (int i = 0; i < __SCHED_FEAT_NR; i++)
		sysctl_sched_features[i] = sched_feat_info[i].def;
}

static int feat_lookup(const char *name, size_t len)
{
	for (int i = 0; i < __SCHED_FEAT_NR; i++)
		if (strlen(sched_feat_info[i].name) == len && !strncmp(sched_feat_info[i].name, name, len))
			return i;
	return -1;
}

int sched_feat_apply(const char *list, char *err, size_t errlen)
{
	const char *s = list;
	size_t total = strlen(list);

	/* "A," too: an empty item is an error wherever it is */
	if (total && list[total - 1] == ',') {
		snprintf(err, errlen, "empty scheduler feature name in '%s'", list);
		return -1;
	}
	while (*s) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		bool val = true;
		const char *name = s;
		size_t nlen = len;

		if (len == 0) {
			snprintf(err, errlen, "empty scheduler feature name in '%s'", list);
			return -1;
		}
		if (len > 3 && !strncmp(s, "NO_", 3)) {
			val = false;
			name += 3;
			nlen -= 3;
		}
		int i = feat_lookup(name, nlen);
		if (i < 0) {
			snprintf(err, errlen, "unknown scheduler feature '%.*s' (see 'schedlab features')",
				 (int)len, s);
			return -1;
		}
		if (sched_feat_info[i].missing) {
			snprintf(err, errlen,
				 "scheduler feature '%.*s' is not modelled: it needs %s, which schedlab does not have",
				 (int)len, s, sched_feat_info[i].missing);
			return -1;
		}
		sysctl_sched_features[i] = val;
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

int sched_feat_check(const char *list, char *err, size_t errlen)
{
	int rc;

	sched_feat_reset();
	rc = sched_feat_apply(list, err, errlen);
	sched_feat_reset();
	return rc;
}

void sched_feat_print(FILE *out, const char *sep)
{
	bool first = true;

	for (int i = 0; i < __SCHED_FEAT_NR; i++) {
		if (sched_feat_info[i].missing)
			continue;
		fprintf(out, "%s%s%s", first ? "" : sep, sysctl_sched_features[i] ? "" : "NO_",
			sched_feat_info[i].name);
		first = false;
	}
}
