// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sysfs-tree reader (topo/sysfs.c): topology_load_sysfs(), which builds
 * a machine from /sys leniently, and topology_load_sysfs_dir() (-m
 * sysfs:DIR), which reads a copy of /sys/devices/system taken elsewhere and
 * refuses what a kernel would not write.
 * The input describes such a tree as text:
 *
 *   @cpu/online
 *   0-3
 *   @cpu/cpu0/topology/core_cpus_list
 *   0,2
 *
 * A line starting with '@' names a file under ROOT/devices/system/ and the
 * lines after it, up to the next '@' line, are its contents. The tree is
 * written to a private temporary directory (emptied for every input), read
 * back both ways, and each result goes on as `schedlab topo --domains` takes
 * it: the tree printed, the sched domains built and printed (to /dev/null).
 */
#include "fuzz_util.h"

#include "kernel/domains.h"
#include "report/domains_print.h"
#include "topo/topology.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 512
#define MAX_PATH 200

static char root[256];
static char sys[300];
static FILE *devnull;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level)
		remove(path);
	return 0;
}

static void empty_root(void)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_root(void)
{
	empty_root();
	rmdir(root);
}

static void setup(void)
{
	const char *tmp = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";

	snprintf(root, sizeof(root), "%s/schedlab-fuzz-sysfs-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	snprintf(sys, sizeof(sys), "%s/devices/system", root);
	atexit(remove_root);
	devnull = fopen("/dev/null", "w");
}

/* a relative path of plain names: no "..", no empty component, no odd bytes */
static int path_ok(const char *p)
{
	size_t len = strlen(p);

	if (!len || len > MAX_PATH || p[0] == '/' || p[len - 1] == '/' || strstr(p, "//") ||
	    strstr(p, ".."))
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '/' || *p == '.'))
			return 0;
	return 1;
}

static void write_file(const char *rel, const char *text, size_t len)
{
	char path[512];
	FILE *f;

	if (!*rel) {
		snprintf(path, sizeof(path), "%s/devices", root);
		mkdir(path, 0755);
		mkdir(sys, 0755);
		return;
	}
	if (!path_ok(rel))
		return;
	snprintf(path, sizeof(path), "%s/%s", sys, rel);
	for (char *slash = path + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return;
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return; /* e.g. the name of a directory made before */
	fwrite(text, 1, len, f);
	fclose(f);
}

/* What `schedlab topo --domains` does with a machine it could read. */
static void use(struct topology *t)
{
	char err[512];

	if (!t)
		return;
	topology_print_tree(t, devnull);
	if (!build_sched_domains(t, err, sizeof(err))) {
		sched_domains_print(devnull, -1);
		free_sched_domains();
	}
	topology_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *p = s, err[512];
	int files = 0;

	if (!root[0])
		setup();
	empty_root();
	write_file("", NULL, 0); /* makes ROOT/devices/system */
	/* text before the first '@' line is ignored */
	while (*p && *p != '@') {
		char *nl = strchr(p, '\n');

		p = nl ? nl + 1 : p + strlen(p);
	}
	while (*p == '@' && files++ < MAX_FILES) {
		char *name = p + 1, *body, *end;

		body = strchr(name, '\n');
		if (!body)
			break;
		*body++ = '\0';
		/* the body ends before the next line that starts with '@' */
		for (end = body; *end; end++)
			if (*end == '@' && (end == body || end[-1] == '\n'))
				break;
		write_file(name, body, (size_t)(end - body));
		p = end;
	}

	/* leniently, as -m host reads /sys; strictly, as -m sysfs:DIR reads a copy */
	use(topology_load_sysfs(root, err, sizeof(err)));
	use(topology_load_sysfs_dir(sys, err, sizeof(err)));
	free(s);
	return 0;
}
