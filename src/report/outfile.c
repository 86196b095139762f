// SPDX-License-Identifier: GPL-2.0-only
#include "report/outfile.h"

#include "sim/alloc.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct outfile {
	char *path;	/* where it goes */
	char *tmp;	/* the temporary, NULL when written directly */
	FILE *f;	/* NULL once closed */
	int err;	/* errno of the first failed write, -1 if unknown, 0 none */
	/*
	 * the path is standard output's file: @f is an anonymous temporary,
	 * copied to standard output by the commit, after everything printed
	 * there; once @f is closed, @fd (a duplicate) keeps it in existence
	 */
	bool to_stdout;
	int fd;
};

static struct outfile *outs;
static int nr_outs;
/* directories made for outputs (--plot DIR), removed again on a discard */
static char **dirs;
static int nr_dirs;
static pid_t owner;	/* the process that may remove the temporaries */

/* @path's directory part ("." if none) and its last component */
static void split_path(const char *path, char **dir, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		*dir = xstrdup(".");
		*base = path;
	} else {
		*dir = slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
		*base = slash + 1;
	}
}

static int create_temp(const char *path, char **tmp)
{
	const char *base;
	char *dir, *name;
	size_t len;
	mode_t mask;
	int fd;

	split_path(path, &dir, &base);
	if (!*base) {
		free(dir);
		errno = EISDIR;
		return -1;
	}
	len = strlen(dir) + strlen(base) + 10;
	name = xmalloc(len);
	snprintf(name, len, "%s/.%s.XXXXXX", dir, base);
	free(dir);
	fd = mkstemp(name);
	if (fd < 0) {
		int e = errno;

		free(name);
		errno = e;
		return -1;
	}
	/* the mode fopen() would have given the file: 0666 less the umask */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask); /* on failure it keeps mkstemp's 0600: harmless */
	*tmp = name;
	return fd;
}

static void discard_at_exit(void)
{
	outfile_discard();
}

static void set_owner(void)
{
	if (!owner) {
		owner = getpid();
		atexit(discard_at_exit);
	}
}

int outfile_mkdir(const char *dir)
{
	if (mkdir(dir, 0777))
		return -1;
	set_owner();
	dirs = xreallocarray(dirs, (size_t)nr_dirs + 1, sizeof(*dirs));
	dirs[nr_dirs++] = xstrdup(dir);
	return 0;
}

/* "-": standard output, as the real tools read it (perf record -o -, tee -) */
static bool is_dash(const char *path)
{
	return !strcmp(path, "-");
}

/*
 * @path is "-", or (links followed: /dev/stdout, /proc/self/fd/1, or the
 * file the shell redirected to) the file standard output writes to
 */
static bool is_stdout(const char *path)
{
	struct stat so, st;

	if (is_dash(path))
		return true;
	return !fstat(STDOUT_FILENO, &so) && !stat(path, &st) && so.st_dev == st.st_dev &&
	       so.st_ino == st.st_ino;
}

static FILE *open_one(const char *path, bool check_same)
{
	struct outfile *o;
	struct stat st;
	char *tmp = NULL;
	bool to_stdout = false;
	FILE *f;
	int fd;

	for (int i = 0; check_same && i < nr_outs; i++)
		if (outfile_same(outs[i].path, path)) {
			errno = EEXIST;
			return NULL;
		}
	if (!is_dash(path) && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return NULL;
	}
	/*
	 * Standard output's own file goes there after what the command prints,
	 * whole: written through, it would interleave with that text (and a
	 * rename would put it in place of the redirected file stdout writes).
	 * Another symbolic link or anything but a regular file (a device, a
	 * FIFO) is written through, in place: a rename would replace the link
	 * or the device instead of writing to it.
	 */
	if (is_stdout(path)) {
		f = tmpfile();
		to_stdout = true;
	} else if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		f = fopen(path, "w");
	} else {
		fd = create_temp(path, &tmp);
		if (fd < 0)
			return NULL;
		f = fdopen(fd, "w");
		if (!f) {
			int e = errno;

			close(fd);
			unlink(tmp);
			free(tmp);
			errno = e;
			return NULL;
		}
	}
	if (!f)
		return NULL;
	set_owner();
	outs = xreallocarray(outs, (size_t)nr_outs + 1, sizeof(*outs));
	o = &outs[nr_outs++];
	*o = (struct outfile){ .path = xstrdup(path), .tmp = tmp, .f = f, .to_stdout = to_stdout,
			       .fd = -1 };
	if (to_stdout && (o->fd = dup(fileno(f))) < 0) {
		int e = errno;

		nr_outs--;
		free(o->path);
		fclose(f);
		errno = e;
		return NULL;
	}
	return f;
}

FILE *outfile_open(const char *path)
{
	return open_one(path, true);
}

FILE *outfile_open_unchecked(const char *path)
{
	return open_one(path, false);
}

static void close_one(struct outfile *o)
{
	int e = 0;

	if (!o->f)
		return;
	if (ferror(o->f))
		e = -1; /* the errno is gone: "write error" */
	errno = 0;
	if (fclose(o->f))
		e = errno ? errno : -1;
	if (e && !o->err)
		o->err = e;
	o->f = NULL;
}

int outfile_close(FILE *f)
{
	for (int i = 0; i < nr_outs; i++)
		if (outs[i].f == f) {
			close_one(&outs[i]);
			return outs[i].err ? -1 : 0;
		}
	/* not one of ours: close it all the same */
	return (ferror(f) | fclose(f)) ? -1 : 0;
}

static void forget_all(void)
{
	for (int i = 0; i < nr_outs; i++) {
		free(outs[i].path);
		free(outs[i].tmp);
	}
	free(outs);
	outs = NULL;
	nr_outs = 0;
	for (int i = 0; i < nr_dirs; i++)
		free(dirs[i]);
	free(dirs);
	dirs = NULL;
	nr_dirs = 0;
}

int outfile_commit(void)
{
	int rc = 0;

	for (int i = 0; i < nr_outs && !rc; i++) {
		close_one(&outs[i]);
		if (outs[i].err) {
			fprintf(stderr, "schedlab: writing '%s' failed: %s\n", outs[i].path,
				outs[i].err > 0 ? strerror(outs[i].err) : "write error");
			rc = -1;
		}
	}
	/* after what the command printed, which the caller has flushed */
	for (int i = 0; i < nr_outs && !rc; i++) {
		char buf[65536];
		ssize_t n;

		if (!outs[i].to_stdout)
			continue;
		if (lseek(outs[i].fd, 0, SEEK_SET))
			n = -1;
		else
			while ((n = read(outs[i].fd, buf, sizeof(buf))) > 0)
				fwrite(buf, 1, (size_t)n, stdout);
		if (n < 0) {
			fprintf(stderr, "schedlab: writing '%s' failed: %s\n", outs[i].path,
				strerror(errno));
			rc = -1;
		}
		close(outs[i].fd);
		outs[i].fd = -1;
		if (!rc && outfile_check_stdout())
			rc = -1;
	}
	for (int i = 0; i < nr_outs && !rc; i++) {
		if (!outs[i].tmp)
			continue;
		if (rename(outs[i].tmp, outs[i].path)) {
			fprintf(stderr, "schedlab: cannot put '%s' in place: %s\n", outs[i].path,
				strerror(errno));
			rc = -1;
			break;
		}
		free(outs[i].tmp);
		outs[i].tmp = NULL;
	}
	if (rc) {
		outfile_discard();
		return rc;
	}
	forget_all();
	return 0;
}

void outfile_discard(void)
{
	if (owner != getpid()) {
		/* a child of the pool: the temporaries are its parent's */
		return;
	}
	for (int i = 0; i < nr_outs; i++) {
		if (outs[i].f) {
			fclose(outs[i].f);
			outs[i].f = NULL;
		}
		if (outs[i].tmp)
			unlink(outs[i].tmp);
		if (outs[i].fd >= 0)
			close(outs[i].fd);
		outs[i].fd = -1;
	}
	/* the newest first; one the user filled in meanwhile stays (rmdir fails) */
	for (int i = nr_dirs - 1; i >= 0; i--)
		rmdir(dirs[i]);
	forget_all();
}

/* @path with its directory resolved (symbolic links, "..", "./"); NULL if it does not exist */
static char *canonical(const char *path)
{
	char *dir, *real, *out;
	const char *base;
	size_t len;

	split_path(path, &dir, &base);
	real = realpath(dir, NULL);
	free(dir);
	if (!real)
		return NULL;
	len = strlen(real) + strlen(base) + 2;
	out = xmalloc(len);
	snprintf(out, len, "%s/%s", real, base);
	free(real);
	return out;
}

bool outfile_same(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	bool same;

	if (!strcmp(a, b))
		return true;
	/* "-" is standard output, whatever file that is */
	if (is_dash(a) || is_dash(b))
		return is_stdout(is_dash(a) ? b : a);
	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = canonical(a);
	cb = canonical(b);
	same = ca && cb && !strcmp(ca, cb);
	free(ca);
	free(cb);
	return same;
}

int outfile_check_stdout(void)
{
	static bool reported;
	int e = 0;

	errno = 0;
	if (fflush(stdout))
		e = errno ? errno : -1;
	else if (ferror(stdout))
		e = -1;
	if (!e)
		return 0;
	if (!reported)
		fprintf(stderr, "schedlab: writing standard output: %s\n",
			e > 0 ? strerror(e) : "write error");
	reported = true;
	return -1;
}
