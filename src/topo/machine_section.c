// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the small sections of a machine file ([asym_packing], [guest])
 * share: a set of keys each given once, a repeatable `source` text, and
 * yes/no values (machine_section.h).
 */
#include "topo/machine_section.h"

#include <string.h>

int mf_append_source(char *dst, size_t size, const char *v, char *err, size_t errlen)
{
	size_t have = strlen(dst);

	if (have + 1 + strlen(v) >= size) {
		snprintf(err, errlen, "source: longer than %zu characters", size - 1);
		return -1;
	}
	if (have)
		dst[have++] = ' ';
	strcpy(dst + have, v);
	return 0;
}

int mf_section_key(const struct mf_line *l, const char *const *keys, int nkeys,
		   unsigned int *fields, char *err, size_t errlen)
{
	int len;

	for (int i = 0; i < nkeys; i++) {
		if (strcmp(l->key, keys[i]))
			continue;
		if (*fields & (1u << i)) {
			snprintf(err, errlen, "%s given twice", l->key);
			return -1;
		}
		*fields |= 1u << i;
		return i;
	}
	len = snprintf(err, errlen, "unknown key '%.40s' in [%s] (known:", l->key, l->section);
	for (int i = 0; i < nkeys && len > 0 && (size_t)len < errlen; i++)
		len += snprintf(err + len, errlen - (size_t)len, " %s,", keys[i]);
	if (len > 0 && (size_t)len < errlen)
		snprintf(err + len, errlen - (size_t)len, " source)");
	return -1;
}

int mf_yes_no(const char *key, const char *v, bool *out, char *err, size_t errlen)
{
	if (strcmp(v, "yes") && strcmp(v, "no")) {
		snprintf(err, errlen, "%s: '%.40s' is not one of yes no", key, v);
		return -1;
	}
	*out = !strcmp(v, "yes");
	return 0;
}
