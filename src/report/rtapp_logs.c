// SPDX-License-Identifier: GPL-2.0-only
#include "report/rtapp_logs.h"

#include "report/outfile.h"
#include "sim/alloc.h"
#include "work/rtapp.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The logs of the threads started at the beginning (index = thread) that
 * are written through, opened before the run; NULL for the others, which
 * are temporaries opened after it, one at a time (a run may have 100,000).
 */
static FILE **through;
static unsigned int nr_through;

/* a log's name, and outfile.c's temporary ".NAME.XXXXXX", must fit a directory entry */
#define LOG_NAME_MAX (NAME_MAX - 8)

static int log_error(const struct rtapp_config *c, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int log_error(const struct rtapp_config *c, char *err, size_t errlen, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "rt-app: %s:%u: logdir: %s", c->file, c->logdir_line, msg);
	return -1;
}

/* @path names a file in the directory @dir (not necessarily existing) */
static bool in_dir(const char *path, const struct stat *dir)
{
	const char *slash = strrchr(path, '/');
	char *d = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	struct stat st;
	bool in = !stat(d, &st) && st.st_dev == dir->st_dev && st.st_ino == dir->st_ino;

	free(d);
	return in;
}

/* could @path be LOGDIR/BASENAME-TASK-IND-NNNN.log of a thread rt-app forks? */
static const char *forked_log(const struct rtapp_config *c, const struct stat *dir,
			      const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t bl = strlen(c->log_basename), n = strlen(base);

	if (n < 4 || strcmp(base + n - 4, ".log") || strncmp(base, c->log_basename, bl) ||
	    base[bl] != '-' || !in_dir(path, dir))
		return NULL;
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		size_t tl = strlen(c->tasks[i].name);

		if (c->tasks[i].forked && !strncmp(base + bl + 1, c->tasks[i].name, tl) &&
		    base[bl + 1 + tl] == '-')
			return c->tasks[i].name;
	}
	return NULL;
}

int rtapp_logs_prepare(const struct bench *b, const struct output_name *others, int nr_others,
		       char *err, size_t errlen)
{
	const struct rtapp_config *c = b->rtapp;
	struct stat dir;
	unsigned int ind = 0;
	char *probe;
	size_t len;
	int fd;

	rtapp_logs_reset();
	if (b->kind != BENCH_RTAPP || !c->write_logs)
		return 0;
	/* a file can be made there (rt-app fails at its first log otherwise) */
	len = strlen(c->logdir) + strlen(c->log_basename) + 16;
	probe = xmalloc(len);
	snprintf(probe, len, "%s/.%s.XXXXXX", c->logdir, c->log_basename);
	fd = mkstemp(probe);
	if (fd < 0 || stat(c->logdir, &dir)) {
		int e = errno;

		free(probe);
		return log_error(c, err, errlen, "cannot create log files in '%s': %s", c->logdir,
				 strerror(e));
	}
	close(fd);
	unlink(probe);
	free(probe);
	/* the threads started at the beginning: their names are known */
	nr_through = c->nthreads;
	through = xcalloc(nr_through ? nr_through : 1, sizeof(*through));
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		for (int k = 0; k < c->tasks[i].instances; k++, ind++) {
			char *name = rtapp_thread_name(c->tasks[i].name, ind, -1);
			char *path = rtapp_log_path(c, name);
			const char *base = strrchr(path, '/') + 1;
			struct stat st;
			int rc = 0;

			if (strlen(base) > LOG_NAME_MAX) {
				rc = log_error(
					c, err, errlen,
					"thread %s: its log file name is longer than %d bytes",
					name, LOG_NAME_MAX);
			} else if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
				rc = log_error(c, err, errlen, "cannot write log file '%s': %s",
					       path, strerror(EISDIR));
			}
			for (int j = 0; !rc && j < nr_others; j++) {
				if (others[j].path && outfile_same(path, others[j].path)) {
					snprintf(
						err, errlen,
						"run: %s and rt-app's log file name the same file '%s'",
						others[j].opt, path);
					rc = -1;
				}
			}
			/* a link or a device is written through: opened now, as outfile.c does */
			if (!rc && !lstat(path, &st) && !S_ISREG(st.st_mode) &&
			    !(through[ind] = outfile_open(path)))
				rc = log_error(c, err, errlen, "cannot write log file '%s': %s",
					       path, strerror(errno));
			free(path);
			free(name);
			if (rc)
				return -1;
		}
	}
	/* the threads rt-app forks: TASK-IND-NNNN, named as they come */
	for (unsigned int i = 0; i < c->nr_tasks; i++) {
		char *name, *path;
		bool too_long;

		if (!c->tasks[i].forked)
			continue;
		name = rtapp_thread_name(c->tasks[i].name, 999999, 9999);
		path = rtapp_log_path(c, name);
		too_long = strlen(strrchr(path, '/') + 1) > LOG_NAME_MAX;
		free(path);
		if (too_long) {
			log_error(c, err, errlen,
				  "threads %s forks: their log file names are longer than %d bytes",
				  c->tasks[i].name, LOG_NAME_MAX);
			free(name);
			return -1;
		}
		free(name);
	}
	for (int j = 0; j < nr_others; j++) {
		const char *task;

		if (others[j].path && (task = forked_log(c, &dir, others[j].path))) {
			snprintf(
				err, errlen,
				"run: %s '%s' could be the log file of a thread rt-app forks (%s-%s-IND-NNNN.log in logdir %s)",
				others[j].opt, others[j].path, c->log_basename, task, c->logdir);
			return -1;
		}
	}
	return 0;
}

int rtapp_logs_write(const struct bench *b)
{
	const struct rtapp_result *r;
	const struct rtapp_config *c = b->rtapp;

	if (b->kind != BENCH_RTAPP || !c->write_logs || !(r = rtapp_result(b)))
		return 0;
	for (unsigned int i = 0; i < r->nr_threads; i++) {
		char *path = rtapp_log_path(c, r->threads[i].name);
		FILE *f = i < nr_through ? through[i] : NULL;
		int failed;

		if (!f)
			f = outfile_open_unchecked(path);
		if (!f) {
			fprintf(stderr, "schedlab: cannot write rt-app's log file '%s': %s\n", path,
				strerror(errno));
			free(path);
			return -1;
		}
		if (i < nr_through)
			through[i] = NULL;
		failed = rtapp_log_print(f, &r->threads[i]);
		if (outfile_close(f) || failed) {
			fprintf(stderr, "schedlab: writing '%s' failed\n", path);
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

void rtapp_logs_reset(void)
{
	free(through);
	through = NULL;
	nr_through = 0;
}
