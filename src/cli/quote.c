// SPDX-License-Identifier: GPL-2.0-only
#include "cli/quote.h"

#include "sim/alloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* @c as shown: itself, \\ or \xNN; its length */
static size_t quote_byte(unsigned char c, char out[4])
{
	static const char hex[] = "0123456789abcdef";

	if (c == '\\') {
		out[0] = out[1] = '\\';
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		return 1;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	return 4;
}

char *cli_quote(char *buf, size_t size, const char *s)
{
	size_t need = 0, room, n = 0;
	char esc[4];
	bool cut;

	for (const char *p = s; *p; p++)
		need += quote_byte((unsigned char)*p, esc);
	/* all of it, or what fits before "..." and the NUL */
	cut = need >= size;
	room = cut ? (size > 4 ? size - 4 : 0) : need;
	for (; *s; s++) {
		size_t len = quote_byte((unsigned char)*s, esc);

		if (n + len > room)
			break;
		memcpy(buf + n, esc, len);
		n += len;
	}
	if (cut && size >= 4) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

char *shell_quote(const char *s)
{
	size_t n = 2;
	char *out, *o;

	for (const char *c = s; *c; c++)
		n += *c == '\'' ? 4 : 1;
	o = out = xmalloc(n + 1);
	*o++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *s;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

char *shell_word(const char *s)
{
	bool plain = *s != '\0';

	for (const char *c = s; *c; c++)
		plain &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			 (*c >= '0' && *c <= '9') || strchr("_-./=,:+@%", *c);
	return plain ? xstrdup(s) : shell_quote(s);
}

void cli_vmessage(const char *fmt, va_list ap)
{
	va_list ap2;
	char *msg, *quoted;
	int len;

	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (len < 0)
		len = 0;
	msg = xmalloc((size_t)len + 1);
	vsnprintf(msg, (size_t)len + 1, fmt, ap);
	quoted = xmalloc(4 * (size_t)len + 1);
	fprintf(stderr, "schedlab: %s\n", cli_quote(quoted, 4 * (size_t)len + 1, msg));
	free(quoted);
	free(msg);
}

void cli_message(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmessage(fmt, ap);
	va_end(ap);
}
