// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lines of a machine file: `[section]` headers, `name = value` lines,
 * blank lines and `#` comments. Only the syntax is checked here; what a
 * section's keys mean is its parser's business (machine_file.c,
 * machine_costs.c), so a costs-only profile shares this reader.
 */
#include "topo/machine_file.h"

#include "sim/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* the longest line: a 1024-node SLIT row, or a CPU list of a big machine */
#define MF_MAX_LINE 16384

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

/* Error text quoting input: non-printable bytes become '?', so a message stays one line. */
static void quote_into(char *buf, size_t len, const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && s[i] && k + 1 < len; i++)
		buf[k++] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[k] = '\0';
}

static int lex_line(char *s, const char *file, unsigned int lineno, char *section, size_t seclen,
		    mf_line_fn fn, void *arg, char *err, size_t errlen)
{
	struct mf_line l = { .file = file, .lineno = lineno, .section = section };
	char msg[512], shown[64];
	char *end = s + strlen(s), *eq, *k;

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	if (!*s || *s == '#')
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');
		size_t n;

		if (!close || close[1]) {
			quote_into(shown, sizeof(shown), s, strlen(s));
			snprintf(err, errlen, "%s:%u: '%s': a section header is [NAME] alone", file,
				 lineno, shown);
			return -1;
		}
		n = (size_t)(close - s - 1);
		for (size_t i = 0; i < n; i++) {
			if (!name_char(s[1 + i]) || n >= seclen) {
				quote_into(shown, sizeof(shown), s, strlen(s));
				snprintf(err, errlen, "%s:%u: '%s' is not a section name", file,
					 lineno, shown);
				return -1;
			}
		}
		memcpy(section, s + 1, n);
		section[n] = '\0';
		if (fn(arg, &l, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s:%u: %s", file, lineno, msg);
			return -1;
		}
		return 0;
	}
	eq = strchr(s, '=');
	if (!eq) {
		quote_into(shown, sizeof(shown), s, strlen(s));
		snprintf(err, errlen, "%s:%u: '%s': expected 'name = value' or '[section]'", file,
			 lineno, shown);
		return -1;
	}
	k = eq;
	while (k > s && (k[-1] == ' ' || k[-1] == '\t'))
		k--;
	*k = '\0';
	for (const char *c = s; *c; c++) {
		if (!name_char(*c)) {
			quote_into(shown, sizeof(shown), s, strlen(s));
			snprintf(err, errlen,
				 "%s:%u: '%s' is not a key (lower case, digits, '_', '.', '-')",
				 file, lineno, shown);
			return -1;
		}
	}
	if (!*s) {
		snprintf(err, errlen, "%s:%u: a line with a value but no key", file, lineno);
		return -1;
	}
	eq++;
	while (*eq == ' ' || *eq == '\t')
		eq++;
	if (!*eq) {
		snprintf(err, errlen, "%s:%u: %s has no value", file, lineno, s);
		return -1;
	}
	if (!section[0]) {
		snprintf(err, errlen, "%s:%u: '%s' before any [section]", file, lineno, s);
		return -1;
	}
	l.key = s;
	l.value = eq;
	if (fn(arg, &l, msg, sizeof(msg))) {
		snprintf(err, errlen, "%s:%u: %s", file, lineno, msg);
		return -1;
	}
	return 0;
}

int mf_lex(const char *text, const char *file, mf_line_fn fn, void *arg, char *err, size_t errlen)
{
	char section[64] = "";
	char *line = xmalloc(MF_MAX_LINE + 1);
	unsigned int lineno = 0;
	int ret = 0;

	while (*text && !ret) {
		size_t n = strcspn(text, "\n");

		lineno++;
		if (n > MF_MAX_LINE) {
			snprintf(err, errlen, "%s:%u: line longer than %d characters", file, lineno,
				 MF_MAX_LINE);
			ret = -1;
			break;
		}
		memcpy(line, text, n);
		line[n] = '\0';
		ret = lex_line(line, file, lineno, section, sizeof(section), fn, arg, err, errlen);
		text += n;
		if (*text)
			text++;
	}
	free(line);
	return ret;
}

char *mf_read_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	size_t len = 0, n;
	char *buf;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = xmalloc(MACHINE_FILE_MAX_BYTES + 1);
	while ((n = fread(buf + len, 1, MACHINE_FILE_MAX_BYTES + 1 - len, f)) > 0) {
		len += n;
		if (len > MACHINE_FILE_MAX_BYTES)
			break;
	}
	if (ferror(f) || len > MACHINE_FILE_MAX_BYTES || memchr(buf, '\0', len)) {
		snprintf(err, errlen, "%s: %s", path,
			 ferror(f)		      ? "read error" :
			 len > MACHINE_FILE_MAX_BYTES ? "larger than 4 MiB, not a machine file" :
							"contains a NUL byte, not a text file");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}
