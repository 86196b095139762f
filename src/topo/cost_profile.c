// SPDX-License-Identifier: GPL-2.0-only
/*
 * --costs FILE: cost profiles read once, checked against the default
 * model, and described (hash and header) for the run's JSON record.
 */
#include "topo/cost_profile.h"

#include "sim/alloc.h"
#include "topo/machine_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROFILES 16

static struct cost_profile *loaded[MAX_PROFILES];
static int nr_loaded;

/* the value of header line "# @key: VALUE" in @text into @buf ("" if none) */
static void header_field(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	buf[0] = '\0';
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *v, *end;

		if (l[0] != '#')
			continue;
		v = l + 1;
		while (*v == ' ')
			v++;
		if (strncmp(v, key, klen) || v[klen] != ':')
			continue;
		v += klen + 1;
		while (*v == ' ')
			v++;
		end = strchr(v, '\n');
		if (!end)
			end = v + strlen(v);
		while (end > v && (end[-1] == ' ' || end[-1] == '\r'))
			end--;
		snprintf(buf, len, "%.*s", (int)(end - v), v);
		return;
	}
}

void cost_profile_describe(struct cost_profile *p, const char *text)
{
	u64 h = 0xcbf29ce484222325ULL;
	char busy[8];

	for (const unsigned char *s = (const unsigned char *)text; *s; s++)
		h = (h ^ *s) * 0x100000001b3ULL;
	snprintf(p->hash, sizeof(p->hash), "%016llx", (unsigned long long)h);
	header_field(text, "date", p->date, sizeof(p->date));
	header_field(text, "cpu", p->cpu, sizeof(p->cpu));
	header_field(text, "virtualization", p->virt, sizeof(p->virt));
	header_field(text, "busy", busy, sizeof(busy));
	p->busy = busy[0] != '\0';
}

int cost_profile_apply(const struct cost_profile *p, struct cost_model *c, char *err, size_t errlen)
{
	return cost_profile_parse(c, p->text, p->path, err, errlen);
}

const struct cost_profile *cost_profile_load(const char *path, char *err, size_t errlen)
{
	struct cost_profile *p;
	struct cost_model c;
	char *text;

	for (int i = 0; i < nr_loaded; i++)
		if (!strcmp(loaded[i]->path, path))
			return loaded[i];
	if (nr_loaded == MAX_PROFILES) {
		snprintf(err, errlen, "%s: more than %d cost profiles", path, MAX_PROFILES);
		return NULL;
	}
	text = mf_read_file(path, err, errlen);
	if (!text)
		return NULL;
	cost_model_default(&c);
	if (cost_profile_parse(&c, text, path, err, errlen)) {
		free(text);
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	p->path = xstrdup(path);
	p->text = text;
	cost_profile_describe(p, text);
	loaded[nr_loaded++] = p;
	return p;
}

void cost_profile_write_all(FILE *out, const struct cost_model *c)
{
	const char *name;
	bool per_dist;
	u64 max;

	fputs("[costs]\n", out);
	for (size_t i = 0; (name = cost_model_param(i, &per_dist, &max)); i++) {
		if (!per_dist) {
			fprintf(out, "%s = %llu\n", name,
				(unsigned long long)cost_model_value(c, i, 0));
			continue;
		}
		for (int d = 0; d < NR_DIST; d++)
			fprintf(out, "%s.%s = %llu\n", name, cpu_dist_names[d],
				(unsigned long long)cost_model_value(c, i, d));
	}
}
