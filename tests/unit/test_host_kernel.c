// SPDX-License-Identifier: GPL-2.0-only
/*
 * -m host's kernel: the preemption model and CONFIG_HZ read from the running
 * kernel (host_kernel.c), in the kernel's order (debugfs sched/preempt, then
 * preempt= on a PREEMPT_DYNAMIC command line, then the configuration, plain
 * or gzipped, then uname -v), and a machine's [machine] preempt setting the
 * simulated kernel's model unless --preempt names one.
 */
#include "test_util.h"

#include "cli/session.h"
#include "kernel/sched.h"
#include "topo/host_file.h"
#include "topo/host_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static char paths[5][64];

/* a temporary file holding @text; its path in paths[@i] */
static const char *tmp_file(int i, const char *text)
{
	FILE *f;
	int fd;

	snprintf(paths[i], sizeof(paths[i]), "/tmp/schedlab-hostk-XXXXXX");
	fd = mkstemp(paths[i]);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return paths[i];
}

static const char *tmp_gz(int i, const char *text)
{
	gzFile g;
	int fd;

	snprintf(paths[i], sizeof(paths[i]), "/tmp/schedlab-hostk-XXXXXX");
	fd = mkstemp(paths[i]);
	assert_true(fd >= 0);
	close(fd);
	g = gzopen(paths[i], "wb");
	assert_non_null(g);
	gzputs(g, text);
	gzclose(g);
	return paths[i];
}

static void cleanup(void)
{
	for (unsigned int i = 0; i < 5; i++) {
		if (paths[i][0])
			unlink(paths[i]);
		paths[i][0] = '\0';
	}
}

static struct topology *blank(void)
{
	struct topology *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->hz = 250;
	return t;
}

/* this VM's kernel: PREEMPT_DYNAMIC with CONFIG_PREEMPT_NONE, HZ 250 */
static const char dynamic_none[] = "# comment\n"
				   "CONFIG_PREEMPT_BUILD=y\n"
				   "CONFIG_PREEMPT_NONE=y\n"
				   "# CONFIG_PREEMPT_VOLUNTARY is not set\n"
				   "# CONFIG_PREEMPT is not set\n"
				   "CONFIG_PREEMPT_DYNAMIC=y\n"
				   "CONFIG_PREEMPTION=y\n"
				   "CONFIG_HZ_300=y\n"
				   "CONFIG_HZ=300\n";

static void test_config_gz(void **state)
{
	struct topology *t = blank();
	struct host_kernel_files f = {
		.config = "/nonexistent/config",
		.config_gz = tmp_gz(0, dynamic_none),
		.cmdline = tmp_file(1, "console=ttyS0 quiet\n"),
		.debugfs_preempt = "/nonexistent/preempt",
	};

	(void)state;
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "none");
	assert_int_equal(t->hz, 300);
	assert_true(t->hz_from_kernel);
	assert_non_null(strstr(t->kernel_source, "CONFIG_PREEMPT_NONE=y"));
	assert_non_null(strstr(t->kernel_source, "PREEMPT_DYNAMIC's default"));
	free(t);
	cleanup();
}

/* a plain /boot/config-RELEASE is read before /proc/config.gz */
static void test_config_text_first(void **state)
{
	struct topology *t = blank();
	struct host_kernel_files f = {
		.config = tmp_file(0, "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_HZ=1000\n"),
		.config_gz = tmp_gz(1, dynamic_none),
	};

	(void)state;
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "voluntary");
	assert_int_equal(t->hz, 1000);
	free(t);
	cleanup();
}

/* PREEMPT_DYNAMIC: preempt= on the command line overrides the config's default */
static void test_cmdline_overrides_default(void **state)
{
	struct topology *t = blank();
	struct host_kernel_files f = {
		.config_gz = tmp_gz(0, dynamic_none),
		.cmdline = tmp_file(1, "root=/dev/vda preempt=full quiet\n"),
	};

	(void)state;
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "full");
	assert_int_equal(t->hz, 300);
	free(t);
	cleanup();
}

/* without PREEMPT_DYNAMIC the boot parameter does nothing: the config decides */
static void test_cmdline_ignored_without_dynamic(void **state)
{
	struct topology *t = blank();
	struct host_kernel_files f = {
		.config = tmp_file(0, "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_HZ=250\n"),
		.cmdline = tmp_file(1, "preempt=full\n"),
	};

	(void)state;
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "voluntary");
	free(t);
	cleanup();
}

/* debugfs says what is in force, whatever the boot choice was */
static void test_debugfs_first(void **state)
{
	struct topology *t = blank();
	struct host_kernel_files f = {
		.debugfs_preempt = tmp_file(0, "none voluntary full (lazy)\n"),
		.config_gz = tmp_gz(1, dynamic_none),
		.cmdline = tmp_file(2, "preempt=full\n"),
	};

	(void)state;
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "lazy");
	/* HZ still from the config */
	assert_int_equal(t->hz, 300);
	free(t);
	cleanup();
}

/* PREEMPT_RT is its own choice and is taken as full */
static void test_rt_config(void **state)
{
	struct topology *t = blank();
	struct host_kernel_files f = {
		.config = tmp_file(0, "CONFIG_PREEMPT=y\nCONFIG_PREEMPT_RT=y\nCONFIG_HZ=100\n"),
	};

	(void)state;
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "full");
	assert_non_null(strstr(t->kernel_source, "CONFIG_PREEMPT_RT=y"));
	free(t);
	cleanup();
}

/* nothing readable: uname -v tells full apart, and nothing else is guessed */
static void test_uname_fallback(void **state)
{
	struct topology *t = blank();
	struct host_kernel_files f = { .uname_version = "#1 SMP PREEMPT Mon Jan 1" };

	(void)state;
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "full");
	assert_int_equal(t->hz, 250);
	/* no config: the default stays, and calibrate says it assumed it */
	assert_false(t->hz_from_kernel);
	free(t);

	t = blank();
	f.uname_version = "#1 SMP PREEMPT_DYNAMIC @0";
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "");
	assert_non_null(strstr(t->kernel_source, "not found"));
	free(t);
}

/* a malformed preempt= or debugfs line is not taken */
static void test_bad_values_ignored(void **state)
{
	struct topology *t = blank();
	struct host_kernel_files f = {
		.debugfs_preempt = tmp_file(0, "none voluntary full lazy\n"),
		.cmdline = tmp_file(1, "preempt=bogus\n"),
		.config_gz = tmp_gz(2, dynamic_none),
	};

	(void)state;
	host_kernel_read(t, &f);
	assert_string_equal(t->preempt, "none");
	free(t);
	cleanup();
}

/* the rest of a two-CPU machine file after its [machine] section */
#define BOX_REST                                                                       \
	"[topology]\nshape = core:2\n[class.0]\ncapacity = 1024\nopps_khz = 2000000\n" \
	"[idle.0]\nname = C1\nexit_latency_ns = 2000\ntarget_residency_ns = 2000\npolls = no\n"

/* a BTF file whose string section holds @names (NUL-separated, @len bytes) */
static const char *tmp_btf(int i, const char *names, size_t len, unsigned int magic)
{
	unsigned char hdr[24] = { 0 };
	FILE *f;
	int fd;

	hdr[0] = magic & 0xff;
	hdr[1] = magic >> 8;
	hdr[2] = 1; /* version */
	hdr[4] = sizeof(hdr); /* hdr_len */
	hdr[20] = (unsigned char)len; /* str_len; type_off, type_len, str_off 0 */
	snprintf(paths[i], sizeof(paths[i]), "/tmp/schedlab-hostk-XXXXXX");
	fd = mkstemp(paths[i]);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(hdr, 1, sizeof(hdr), f), sizeof(hdr));
	assert_int_equal(fwrite(names, 1, len, f), len);
	fclose(f);
	return paths[i];
}

/* BTF names v6.18 lacks are reported, v6.18's own features are not */
static void test_btf_scheduler(void **state)
{
	static const char names[] = "\0__SCHED_FEAT_PLACE_LAG\0__SCHED_FEAT_SYNC_WAKEE_STAYS\0"
				    "PREEMPT_WAKEUP_PICK\0__SCHED_FEAT_NR\0__SCHED_FEAT_NI_RANDOM";
	struct topology *t = blank();
	struct host_kernel_files f = { .btf = tmp_btf(0, names, sizeof(names), 0xeB9F) };

	(void)state;
	host_kernel_read(t, &f);
	assert_non_null(strstr(t->kernel_source,
			       "v6.19's wakeup preemption: --features WAKEUP_PREEMPT_EEVDF"));
	assert_non_null(strstr(t->kernel_source, "lacks: SYNC_WAKEE_STAYS NI_RANDOM"));
	assert_null(strstr(t->kernel_source, "PLACE_LAG"));
	assert_null(strstr(t->kernel_source, " NR"));
	assert_non_null(strstr(t->approximations, "not v6.18's"));
	free(t);
	cleanup();
}

/* v6.18's names only, or not BTF at all: nothing is said */
static void test_btf_v618(void **state)
{
	static const char names[] = "\0__SCHED_FEAT_PLACE_LAG\0__SCHED_FEAT_NR\0avg_vruntime";
	struct topology *t = blank();
	struct host_kernel_files f = { .btf = tmp_btf(0, names, sizeof(names), 0xeB9F) };

	(void)state;
	host_kernel_read(t, &f);
	assert_null(strstr(t->kernel_source, "BTF"));
	assert_string_equal(t->approximations, "");
	free(t);
	cleanup();

	t = blank();
	f.btf = tmp_btf(0, "\0PREEMPT_WAKEUP_PICK", 21, 0x1234);
	host_kernel_read(t, &f);
	assert_null(strstr(t->kernel_source, "BTF"));
	free(t);
	cleanup();
}

/* [machine] preempt sets the simulated kernel's model; --preempt wins over it */
static void run_machine(const char *preempt_opt, int want)
{
	char *argv[] = { "hackbench", "-g", "1", "-l", "2", NULL };
	struct session_config cfg = {
		.machine = paths[0],
		.seed = 1,
		.preempt = preempt_opt,
		.argc = 5,
		.argv = argv,
	};
	struct session s;
	char err[256];

	if (session_start(&s, &cfg, err, sizeof(err)))
		fail_msg("session_start: %s", err);
	assert_int_equal(sysctl_sched.preempt, want);
	session_end(&s);
}

static void test_machine_preempt(void **state)
{
	(void)state;
	/* a path ending in .machine is a machine file */
	snprintf(paths[0], sizeof(paths[0]), "/tmp/schedlab-hostk-%d.machine", (int)getpid());
	FILE *f = fopen(paths[0], "w");

	assert_non_null(f);
	fputs("[machine]\nname = box\npreempt = none\n" BOX_REST, f);
	fclose(f);
	run_machine(NULL, PREEMPT_NONE_MODEL);
	run_machine("full", PREEMPT_FULL_MODEL);
	cleanup();
	/* without the key: the simulated kernel's default */
	snprintf(paths[0], sizeof(paths[0]), "/tmp/schedlab-hostk-%d.machine", (int)getpid());
	f = fopen(paths[0], "w");
	assert_non_null(f);
	fputs("[machine]\nname = box\n" BOX_REST, f);
	fclose(f);
	run_machine(NULL, PREEMPT_VOLUNTARY_MODEL);
	cleanup();
}

static void test_machine_preempt_bad(void **state)
{
	char err[256];
	struct topology *t;

	(void)state;
	snprintf(paths[0], sizeof(paths[0]), "/tmp/schedlab-hostk-%d.machine", (int)getpid());
	FILE *f = fopen(paths[0], "w");

	assert_non_null(f);
	fputs("[machine]\nname = box\npreempt = rt\n[topology]\nshape = core:2\n", f);
	fclose(f);
	t = topology_load(paths[0], err, sizeof(err));
	assert_null(t);
	assert_non_null(strstr(err, ":3: preempt: 'rt' is not one of none voluntary full lazy"));
	cleanup();
}

/* host_read_line(): the first line without its newline; absent, empty or NULL is false and "" */
static void test_read_line(void **state)
{
	char buf[8];

	(void)state;
	assert_true(host_read_line(tmp_file(0, "haltpoll\nsecond\n"), buf, sizeof(buf)));
	assert_string_equal(buf, "haltpol"); /* cut to the buffer */
	assert_true(host_read_line(tmp_file(1, "kvm"), buf, sizeof(buf)));
	assert_string_equal(buf, "kvm"); /* no newline at the end */
	assert_false(host_read_line(tmp_file(2, ""), buf, sizeof(buf)));
	assert_string_equal(buf, "");
	strcpy(buf, "old");
	assert_false(host_read_line("/nonexistent/schedlab-test", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	strcpy(buf, "old");
	assert_false(host_read_line(NULL, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_gz),
		cmocka_unit_test(test_config_text_first),
		cmocka_unit_test(test_cmdline_overrides_default),
		cmocka_unit_test(test_cmdline_ignored_without_dynamic),
		cmocka_unit_test(test_debugfs_first),
		cmocka_unit_test(test_rt_config),
		cmocka_unit_test(test_uname_fallback),
		cmocka_unit_test(test_bad_values_ignored),
		cmocka_unit_test(test_btf_scheduler),
		cmocka_unit_test(test_btf_v618),
		cmocka_unit_test(test_machine_preempt),
		cmocka_unit_test(test_machine_preempt_bad),
		cmocka_unit_test(test_read_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
