// SPDX-License-Identifier: GPL-2.0-only
#include "report/plot_dir.h"

#include "report/outfile.h"

#include <errno.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

extern char **environ;

int plot_dir_prepare(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (!strcmp(dir, "-")) {
		snprintf(err, errlen,
			 "--plot -: the pictures are files in a directory; standard output cannot hold them (give a directory)");
		return -1;
	}
	/* the scripts quote the directory with '...' */
	if (strchr(dir, '\'') || strchr(dir, '\n')) {
		snprintf(err, errlen,
			 "--plot: the directory name must not contain quotes or newlines");
		return -1;
	}
	if (outfile_mkdir(dir) && errno != EEXIST) {
		snprintf(err, errlen, "--plot: cannot create directory '%s': %s", dir,
			 strerror(errno));
		return -1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--plot: '%s' is not a directory", dir);
		return -1;
	}
	return 0;
}

FILE *plot_dir_open(const char *dir, const char *name, bool *failed)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = outfile_open(path);
	if (!f) {
		fprintf(stderr, "schedlab: --plot: cannot write '%s': %s\n", path, strerror(errno));
		*failed = true;
	}
	return f;
}

void plot_dir_close(FILE *f, bool *failed)
{
	if (f && outfile_close(f))
		*failed = true;
}

/* run gnuplot on the script; 1 if it is not installed */
static int run_gnuplot(const char *path)
{
	char *argv[] = { "gnuplot", (char *)path, NULL };
	pid_t pid;
	int status;

	fflush(stdout);
	if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ))
		return 1;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	if (WEXITSTATUS(status) == 127)
		return 1;
	return WEXITSTATUS(status) ? -1 : 0;
}

int plot_dir_render(const char *dir, const char *script)
{
	char path[4096];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, script);
	r = run_gnuplot(path);
	if (r > 0) {
		fprintf(stderr,
			"schedlab: --plot: gnuplot is not installed; the data and the script are in "
			"%s: render with 'gnuplot %s' (Debian: apt-get install gnuplot-nox)\n",
			dir, path);
		return 0;
	}
	if (r < 0) {
		fprintf(stderr, "schedlab: --plot: gnuplot failed on %s\n", path);
		return -1;
	}
	return 0;
}
