// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/funclat.h"

#include <string.h>

struct funclat funclat[NR_FUNCLAT];
bool funclat_probe_overhead;

const char *const funclat_names[NR_FUNCLAT] = {
#define FL_NAME(name) #name,
	FUNCLAT_FUNCS(FL_NAME)
#undef FL_NAME
};

void funclat_reset(void)
{
	memset(funclat, 0, sizeof(funclat));
	funclat_probe_overhead = false;
}

int funclat_enable(const char *list, char *err, size_t errlen)
{
	const char *s = list;
	size_t total = strlen(list);

	/* an empty list or item ("", "a,", "a,,b", ",a") is an error, as for --features */
	if (!total || list[0] == ',' || list[total - 1] == ',' || strstr(list, ",,")) {
		snprintf(err, errlen, "--funclatency: empty function name in '%s'", list);
		return -1;
	}
	while (*s) {
		size_t len = strcspn(s, ",");
		int found = -1;

		for (int i = 0; i < NR_FUNCLAT; i++)
			if (strlen(funclat_names[i]) == len && !strncmp(funclat_names[i], s, len))
				found = i;
		if (found < 0) {
			int n = snprintf(err, errlen, "--funclatency: unknown function '%.*s' (traceable:",
					 (int)len, s);
			for (int i = 0; i < NR_FUNCLAT && n > 0 && (size_t)n < errlen; i++)
				n += snprintf(err + n, errlen - (size_t)n, " %s", funclat_names[i]);
			if (n > 0 && (size_t)n < errlen)
				snprintf(err + n, errlen - (size_t)n, ")");
			return -1;
		}
		funclat[found].enabled = true;
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

/* bcc's bpf_log2l(): 0 and 1 share bucket 1, [2^(k-1), 2^k) is bucket k */
static unsigned int log2l_bucket(u64 v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 1;
}

void funclat_record(enum funclat_id id, u64 ns)
{
	struct funclat *f = &funclat[id];

	f->calls++;
	f->total_ns += ns;
	f->hist[log2l_bucket(ns)]++;
}

/*
 * The kprobe fires at the first instruction: its dispatch, the kretprobe's
 * return-address hijack and the entry program up to bpf_ktime_get_ns() come
 * before bcc's start timestamp; start.update() comes after it. Both run
 * before the function's body, whose time the raw figure is.
 */
void funclat_probe_entry(void)
{
	const struct cost_model *c = machine.cost;

	charge(c->probe_entry + c->bpf_map_op);
}

/*
 * The function returns into the kretprobe trampoline: the dispatch and the
 * return program up to its bpf_ktime_get_ns() (start.lookup()) are inside
 * bcc's interval, the rest (start.delete(), the avg and histogram
 * increments, leaving the trampoline) after it.
 */
void funclat_probe_return(enum funclat_id id)
{
	const struct cost_model *c = machine.cost;

	charge(c->probe_return + c->bpf_map_op);
	charge(2 * c->bpf_map_op);
	funclat[id].probe_ns += funclat_probe_in_interval(c);
}
