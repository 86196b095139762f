/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What build this is: the version (the VERSION file) and the git commit it
 * was built from, with "-dirty" for uncommitted changes ("unknown" without
 * git), both fixed at build time by scripts/version.sh. `schedlab
 * --version` prints them and every JSON record carries them.
 */
#ifndef SCHEDLAB_REPORT_VERSION_H
#define SCHEDLAB_REPORT_VERSION_H

struct json_writer;

extern const char schedlab_version[];
extern const char schedlab_commit[];

/* The "schedlab": {"version": ..., "commit": ...} member of a JSON record. */
void json_kv_schedlab(struct json_writer *w);

#endif
