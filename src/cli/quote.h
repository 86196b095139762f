/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Messages that quote what a user typed or wrote in a file: bytes that a
 * terminal would act on are shown, not sent. Every message on stderr that
 * may hold user text goes through cli_message() (usage_error() does), so
 * an ESC, CR or newline in an argument or a study file cannot recolour the
 * terminal, overwrite the line or start a line of its own.
 */
#ifndef SCHEDLAB_CLI_QUOTE_H
#define SCHEDLAB_CLI_QUOTE_H

#include <stdarg.h>
#include <stddef.h>

/*
 * @s with every byte outside printable ASCII (0x20..0x7e) written as \xNN
 * (lower-case hex) and a backslash as \\, so the result is one line of
 * plain text that tells the bytes apart. Writes at most @size bytes, the
 * NUL included, to @buf (@size > 0); an escape is never cut in half, and a
 * result that does not fit ends in "...". 4 * strlen(@s) + 1 bytes always
 * suffice. Returns @buf.
 */
char *cli_quote(char *buf, size_t size, const char *s);

/*
 * @s as one word for the POSIX shell, in single quotes ('\'' for a quote
 * inside), which carry every other byte as it is, newlines included: sh
 * reads the result back as exactly @s. A malloc()ed string.
 */
char *shell_quote(const char *s);
/* The same, but @s as it is when it is a word of characters sh leaves alone. */
char *shell_word(const char *s);

/* "schedlab: " and the message, cli_quote()d, and a newline, on stderr. */
void cli_vmessage(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void cli_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
