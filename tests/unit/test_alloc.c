// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for sim/alloc.h: a zero size still gives memory (NULL means
 * out of memory only), and running out prints one message and exits with
 * status 1, checked in a child process since it exits.
 */
#include "test_util.h"
#include "sim/alloc.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_zero_sizes(void **state)
{
	void *p;

	(void)state;
	p = xmalloc(0);
	assert_non_null(p);
	free(p);
	p = xcalloc(0, 8);
	assert_non_null(p);
	free(p);
	p = xcalloc(8, 0);
	assert_non_null(p);
	p = xrealloc(p, 0);
	assert_non_null(p);
	free(p);
}

static void test_contents(void **state)
{
	unsigned char *z = xcalloc(64, 1);
	int *a = xreallocarray(NULL, 4, sizeof(*a));
	char *s = xstrdup("hackbench"), *n = xstrndup("hackbench -g 1", 9);

	(void)state;
	for (int i = 0; i < 64; i++)
		assert_int_equal(z[i], 0);
	for (int i = 0; i < 4; i++)
		a[i] = i;
	a = xreallocarray(a, 1000, sizeof(*a));
	assert_int_equal(a[3], 3);
	assert_string_equal(s, "hackbench");
	assert_string_equal(n, "hackbench");
	free(z);
	free(a);
	free(s);
	free(n);
}

/* run @fn in a child with stderr to a pipe: its exit status and first line */
static int child_status(void (*fn)(void), char *line, size_t len)
{
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		fn();
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], line, len - 1);
	line[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void overflowing_array(void)
{
	/* n * size overflows size_t: no allocator could give it */
	(void)xreallocarray(NULL, SIZE_MAX / 2, 4);
}

static void test_out_of_memory_exits(void **state)
{
	char line[256];

	(void)state;
	assert_int_equal(child_status(overflowing_array, line, sizeof(line)), 1);
	assert_non_null(strstr(line, "schedlab: out of memory"));
	/* one line, nothing after it */
	assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_sizes),
		cmocka_unit_test(test_contents),
		cmocka_unit_test(test_out_of_memory_exits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
