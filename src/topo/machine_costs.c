// SPDX-License-Identifier: GPL-2.0-only
/*
 * The [costs] section of a machine file, and cost profiles: files holding
 * only that section. The names and ranges are --cost's (cost_model_set()),
 * so a line of a profile and a --cost argument mean the same thing.
 */
#include "topo/machine_file.h"

#include <string.h>

int mf_cost_line(struct cost_model *c, const char *key, const char *value, char *err, size_t errlen)
{
	size_t klen = strlen(key), vlen = strlen(value);
	char assignment[160];

	if (klen + vlen + 2 > sizeof(assignment)) {
		snprintf(err, errlen, "cost parameter '%.40s': value too long", key);
		return -1;
	}
	memcpy(assignment, key, klen);
	assignment[klen] = '=';
	memcpy(assignment + klen + 1, value, vlen + 1);
	return cost_model_set(c, assignment, err, errlen);
}

static int profile_line(void *arg, const struct mf_line *l, char *err, size_t errlen)
{
	if (strcmp(l->section, "costs")) {
		snprintf(err, errlen, "[%s] in a cost profile, which has only a [costs] section",
			 l->section);
		return -1;
	}
	if (!l->key)
		return 0;
	return mf_cost_line(arg, l->key, l->value, err, errlen);
}

int cost_profile_parse(struct cost_model *c, const char *text, const char *file, char *err,
		       size_t errlen)
{
	return mf_lex(text, file, profile_line, c, err, errlen);
}
