// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ftrace writer: comms that would break the line format are cleaned
 * (no spaces, no '='), window and event filters hold, a trace in a
 * constructed run shows the switches it should, and the header is the
 * kernel's, counting the lines that follow it.
 */
#include "test_sched_helpers.h"

#include "report/ftrace.h"
#include "report/outfile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void test_comm_is_cleaned(void **state)
{
	char err[256], path[] = "/tmp/schedlab-test-ftrace-XXXXXX";
	int fd = mkstemp(path);
	char *text;

	(void)state;
	assert_true(fd >= 0);
	tl_setup("smp2", TL_REAL_COST, 0, NULL);
	assert_int_equal(ftrace_open(path, NULL, "sched_switch,sched_wakeup_new", err, sizeof(err)),
			 0);
	tl_work_task("my task=1", &tl_busy_prog, 0);
	tl_work_task("other", &tl_busy_prog, 0);
	tl_run_until(30 * NSEC_PER_MSEC, true);
	assert_int_equal(ftrace_close(), 0);
	assert_int_equal(outfile_commit(), 0);
	text = slurp(path);
	/* the comm appears cleaned in every field and as the line's task */
	assert_non_null(strstr(text, "comm=my_task_1 pid="));
	assert_non_null(strstr(text, "next_comm=my_task_1 next_pid="));
	assert_non_null(strstr(text, "my_task_1-"));
	assert_null(strstr(text, "my task"));
	assert_null(strstr(text, "task=1"));
	/* only the events asked for */
	assert_null(strstr(text, ": cpu_idle:"));
	assert_null(strstr(text, ": sched_waking:"));
	assert_true(ftrace_count(TRACE_SCHED_SWITCH) >= 1);
	assert_int_equal(ftrace_count(TRACE_CPU_IDLE), 0);
	free(text);
	tl_teardown();
	close(fd);
	unlink(path);
}

static void test_window(void **state)
{
	char err[256], path[] = "/tmp/schedlab-test-ftrace-XXXXXX";
	int fd = mkstemp(path);
	char *text, *line, *save;
	unsigned int lines = 0;

	(void)state;
	assert_true(fd >= 0);
	tl_setup("smp1", TL_REAL_COST, 0, NULL);
	/* two hogs on one CPU share it, switching at ticks; keep 10 ms to 20 ms of 40 */
	assert_int_equal(ftrace_open(path, "0.010:0.020", NULL, err, sizeof(err)), 0);
	tl_work_task("a", &tl_busy_prog, 0);
	tl_work_task("b", &tl_busy_prog, 0);
	tl_run_until(40 * NSEC_PER_MSEC, false);
	assert_int_equal(ftrace_close(), 0);
	assert_int_equal(outfile_commit(), 0);
	text = slurp(path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *ts;
		double t;

		if (line[0] == '#')
			continue;
		ts = strstr(line, "] ");
		assert_non_null(ts);
		t = strtod(ts + 2 + 6, NULL); /* past the flags */
		assert_true(t >= 0.010 && t < 0.020);
		lines++;
	}
	assert_true(lines > 0);
	free(text);
	tl_teardown();
	close(fd);
	unlink(path);
}

static void test_bad_options(void **state)
{
	char err[256];

	(void)state;
	tl_setup("smp2", TL_REAL_COST, 0, NULL);
	assert_int_equal(ftrace_open("/dev/null", "1:1", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--trace-window"));
	assert_int_equal(ftrace_open("/dev/null", ":", NULL, err, sizeof(err)), -1);
	assert_int_equal(ftrace_open("/dev/null", NULL, "sched,", err, sizeof(err)), 0);
	assert_int_equal(ftrace_close(), 0);
	assert_int_equal(ftrace_open("/dev/null", NULL, ",", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty"));
	assert_int_equal(ftrace_open("/dev/null", NULL, "power,nope", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown event 'nope'"));
	tl_teardown();
}

/* print_event_info() and print_func_help_header_irq(); the count is the lines' */
static void test_header(void **state)
{
	char err[256], path[] = "/tmp/schedlab-test-ftrace-XXXXXX";
	int fd = mkstemp(path);
	char *text, *line, *save, want[128];
	unsigned int lines = 0;
	static const char columns[] =
		"#\n"
		"#                                _-----=> irqs-off/BH-disabled\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| / _-=> migrate-disable\n"
		"#                              |||| /     delay\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n";

	(void)state;
	assert_true(fd >= 0);
	tl_setup("smp2", TL_REAL_COST, 0, NULL);
	assert_int_equal(ftrace_open(path, NULL, NULL, err, sizeof(err)), 0);
	tl_work_task("a", &tl_busy_prog, 0);
	tl_work_task("b", &tl_busy_prog, 0);
	tl_work_task("c", &tl_busy_prog, 0);
	tl_run_until(10 * NSEC_PER_MSEC, true);
	assert_int_equal(ftrace_close(), 0);
	assert_int_equal(outfile_commit(), 0);
	text = slurp(path);
	assert_true(!strncmp(text, "# tracer: nop\n#\n# entries-in-buffer/entries-written: ",
			     strlen("# tracer: nop\n#\n# entries-in-buffer/entries-written: ")));
	assert_non_null(strstr(text, columns));
	/* the body: every line after the header's nine '#' lines and none before */
	for (line = strtok_r(strchr(text, '\n') + 1, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		lines += line[0] != '#';
	free(text);
	text = slurp(path);
	snprintf(want, sizeof(want), "# entries-in-buffer/entries-written: %u/%u   #P:2\n#\n#  ",
		 lines, lines);
	assert_non_null(strstr(text, want));
	assert_true(lines > 10);
	free(text);
	tl_teardown();
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm_is_cleaned),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
