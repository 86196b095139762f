/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SCHEDLAB_TOPO_HOST_FILE_H
#define SCHEDLAB_TOPO_HOST_FILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The first line of the file at @path (a /proc or /sys file of the host,
 * or a test's stand-in) into @buf, without its newline, cut to @size - 1
 * bytes. False, with @buf empty, if @path is NULL or the file cannot be
 * read or is empty: the callers treat an absent file as "not known".
 */
bool host_read_line(const char *path, char *buf, size_t size);

#endif
