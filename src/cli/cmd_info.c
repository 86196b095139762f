// SPDX-License-Identifier: GPL-2.0-only
/*
 * The information subcommands: `schedlab machines`, `schedlab topo` and
 * `schedlab features`. They print tables of what the simulator offers; all
 * output is on stdout and depends only on the arguments.
 */
#include "cli/cli.h"
#include "kernel/domains.h"
#include "kernel/features.h"
#include "report/domains_print.h"
#include "report/outfile.h"
#include "topo/machine_file.h"
#include "topo/machine_guest.h"
#include "topo/topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRAP_COLUMNS 100

/* ---- option parsing shared by the three commands ---- */

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/*
 * Match argv[*i] against an option that takes a value: "-s VAL", "-sVAL",
 * "--long VAL" or "--long=VAL" (@shortopt may be NULL). Returns 1 and sets
 * @val (advancing *i past a separate value), 0 if argv[*i] is not this
 * option, or -1 (after printing the error) if the value is missing.
 */
static int opt_value(const char *cmd, int argc, char **argv, int *i, const char *shortopt,
		     const char *longopt, const char **val)
{
	const char *arg = argv[*i];
	size_t llen = strlen(longopt);

	if (!strncmp(arg, longopt, llen) && arg[llen] == '=') {
		*val = arg + llen + 1;
		return 1;
	}
	if (shortopt && !strncmp(arg, shortopt, 2) && arg[2]) {
		*val = arg + 2;
		return 1;
	}
	if (strcmp(arg, longopt) && (!shortopt || strcmp(arg, shortopt)))
		return 0;
	if (*i + 1 >= argc) {
		usage_error("%s: option '%s' needs a value (see 'schedlab %s --help')", cmd, arg,
			    cmd);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

static int bad_arg(const char *cmd, const char *arg)
{
	if (arg[0] == '-')
		return usage_error("%s: unknown option '%s' (see 'schedlab %s --help')", cmd, arg,
				   cmd);
	return usage_error("%s: unexpected argument '%s' (see 'schedlab %s --help')", cmd, arg,
			   cmd);
}

/* Everything went to stdout; 0, or 1 with a message if it could not be written. */
static int finish_stdout(void)
{
	return outfile_check_stdout() ? 1 : 0;
}

/*
 * Print @text word-wrapped to WRAP_COLUMNS, every line indented by @indent
 * columns. Words are separated by single or multiple spaces; a word longer
 * than a line gets a line of its own.
 */
static void print_wrapped(FILE *out, const char *text, int indent)
{
	int col = 0;

	while (*text) {
		size_t len;

		while (*text == ' ')
			text++;
		if (!*text)
			break;
		len = strcspn(text, " ");
		if (col && col + 1 + (int)len > WRAP_COLUMNS) {
			fputc('\n', out);
			col = 0;
		}
		if (!col)
			col = fprintf(out, "%*s%.*s", indent, "", (int)len, text);
		else
			col += fprintf(out, " %.*s", (int)len, text);
		text += len;
	}
	if (col)
		fputc('\n', out);
}

/* ---- schedlab machines ---- */

static void machines_usage(FILE *out)
{
	fputs("usage: schedlab machines [-v]\n"
	      "       schedlab machines --export MACHINE [-o FILE]\n"
	      "\n"
	      "List the machine presets, one per line: the name to give to -m, and a\n"
	      "description. -m also takes 'host' (this machine's sysfs), generated\n"
	      "machines in hwloc's synthetic syntax, e.g. 'synthetic:pack:4 l3:16 core:8 pu:2',\n"
	      "a machine file (a path with a '/' or ending in .machine), hwloc XML\n"
	      "('hwloc:FILE.xml', or a path ending in .xml) and a copy of another\n"
	      "machine's /sys/devices/system ('sysfs:DIR') (docs/machines.md).\n"
	      "\n"
	      "  -v, --verbose        also say what about each preset is approximate\n"
	      "  --export MACHINE     print MACHINE (anything -m takes) as a machine file,\n"
	      "                       which -m PATH reads back to the same machine\n"
	      "                       (docs/machines.md, \"Machine files\")\n"
	      "  -o, --output FILE    with --export: write to FILE instead ('-': stdout)\n"
	      "  -h, --help           show this help\n",
	      out);
}

/* machines --export MACHINE [-o FILE]: the file is written whole or not at all */
static int export_machine(const char *machine, const char *output)
{
	char err[512];
	struct topology *t = topology_load(machine, err, sizeof(err));
	FILE *f;

	if (!t)
		return usage_error("%s", err);
	if (!output || !strcmp(output, "-")) {
		topology_export(t, stdout);
		topology_free(t);
		return finish_stdout();
	}
	f = outfile_open(output);
	if (!f) {
		topology_free(t);
		return usage_error("machines: cannot write '%s': %s", output, strerror(errno));
	}
	topology_export(t, f);
	topology_free(t);
	if (outfile_close(f) || outfile_commit())
		return 1;
	return finish_stdout();
}

int cmd_machines(int argc, char **argv)
{
	const char *export = NULL, *output = NULL;
	bool verbose = false;
	int width = 0;

	for (int i = 1; i < argc; i++) {
		int r;

		if (is_help(argv[i])) {
			machines_usage(stdout);
			return finish_stdout();
		}
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = true;
			continue;
		}
		r = opt_value("machines", argc, argv, &i, NULL, "--export", &export);
		if (!r)
			r = opt_value("machines", argc, argv, &i, "-o", "--output", &output);
		if (r < 0)
			return EXIT_BAD_INPUT;
		if (!r)
			return bad_arg("machines", argv[i]);
	}
	if (output && !export)
		return usage_error("machines: -o goes with --export");
	if (export && verbose)
		return usage_error("machines: -v lists the presets; --export prints one machine: give one");
	if (export)
		return export_machine(export, output);

	for (unsigned int i = 0; i < nr_machine_presets; i++) {
		int len = (int)strlen(machine_presets[i].name);

		if (len > width)
			width = len;
	}
	width += 2;

	for (unsigned int i = 0; i < nr_machine_presets; i++) {
		const struct machine_preset *p = &machine_presets[i];
		char err[256];
		char line[sizeof(((struct topology *)0)->approximations) + 32];
		struct topology *t;

		printf("%-*s%s\n", width, p->name, p->description);
		if (!verbose)
			continue;
		t = topology_load(p->name, err, sizeof(err));
		if (!t) {
			/* a preset that does not build is a bug, not bad input */
			fprintf(stderr, "schedlab: machines: preset '%s': %s\n", p->name, err);
			return 1;
		}
		topology_format_cpufreq(t, line, sizeof(line));
		print_wrapped(stdout, line, width);
		snprintf(line, sizeof(line), "Approximations: %s",
			 t->approximations[0] ? t->approximations : "none noted");
		print_wrapped(stdout, line, width);
		topology_free(t);
	}
	/* not a table entry: topology_load() reads it from this machine's sysfs */
	printf("%-*s%s\n", width, "host",
	       "this machine, read from /sys/devices/system/cpu and /sys/devices/system/node");
	if (verbose)
		print_wrapped(stdout,
			      "Approximations: costs are the x86 server defaults; idle states, capacities, frequencies and caches are read from sysfs where it has them ('schedlab topo -m host' names what was assumed instead)",
			      width);
	return finish_stdout();
}

/* ---- schedlab topo ---- */

static void topo_usage(FILE *out)
{
	fputs("usage: schedlab topo -m MACHINE [--guest SPEC] [--domains [--cpu N] | --costs]\n"
	      "       schedlab topo -m MACHINE [--guest SPEC] [--export-sysfs DIR] [--export-hwloc FILE]\n"
	      "\n"
	      "Print a machine's topology as a tree: packages, NUMA nodes, LLCs, clusters,\n"
	      "cores and CPUs, then CPU capacities and frequencies, the cpufreq driver and\n"
	      "its default governor, idle states, node distances and what about the machine\n"
	      "is approximate.\n"
	      "\n"
	      "  -m, --machine MACHINE   a preset from 'schedlab machines', 'host', a\n"
	      "                          generated machine in hwloc's synthetic syntax,\n"
	      "                          'synthetic:pack:N numa:N l3:N core:N pu:N', a\n"
	      "                          machine file (a path with a '/' or ending in\n"
	      "                          .machine), hwloc XML ('hwloc:FILE.xml') or a\n"
	      "                          copy of another machine's /sys/devices/system\n"
	      "                          ('sysfs:DIR', DIR holding cpu/ and node/)\n"
	      "  --guest SPEC            the machine as a KVM guest, as run's --guest:\n"
	      "                          kvm[:hlt|:haltpoll][,ipiv][,steal=PCT[:PERIOD_US]]\n"
	      "                          [,guest_halt_poll_ns=NS][,host_*=V][,guest_halt_flush_ns=NS],\n"
	      "                          or none (bare metal)\n"
	      "                          (docs/guests.md)\n"
	      "  --domains               print the sched domains the kernel builds on the\n"
	      "                          machine instead: per CPU each level with its span,\n"
	      "                          flags, tunables and groups, as sched_verbose logs\n"
	      "                          them (docs/domains.md)\n"
	      "  --cpu N                 with --domains: only CPU N\n"
	      "  --costs                 print the machine's cost model instead, one\n"
	      "                          NAME=VALUE per line as --cost takes it\n"
	      "                          (docs/cost-model.md)\n"
	      "  --export-sysfs DIR      write the machine as the sysfs files -m sysfs:DIR\n"
	      "                          reads (DIR/cpu/..., DIR/node/...) instead; DIR\n"
	      "                          must be new or empty\n"
	      "  --export-hwloc FILE     write the machine as hwloc 2.x XML instead, which\n"
	      "                          lstopo --input and -m hwloc:FILE read ('-':\n"
	      "                          stdout)\n"
	      "  -h, --help              show this help\n",
	      out);
}

/* A CPU number: digits only, below @nr_cpus. */
static int parse_cpu(const char *s, const struct topology *t, int *cpu)
{
	char *end;
	unsigned long v;

	if (s[0] < '0' || s[0] > '9')
		return usage_error("topo: --cpu needs a CPU number, not '%s'", s);
	v = strtoul(s, &end, 10);
	if (*end)
		return usage_error("topo: --cpu needs a CPU number, not '%s'", s);
	if (v >= t->nr_cpus)
		return usage_error("topo: --cpu %s is out of range: machine '%s' has CPUs 0-%u", s,
				   t->name, t->nr_cpus - 1);
	*cpu = (int)v;
	return 0;
}

static int print_domains(const struct topology *t, const char *cpu_arg)
{
	char err[256];
	int cpu = -1;

	if (cpu_arg && parse_cpu(cpu_arg, t, &cpu))
		return EXIT_BAD_INPUT;
	if (build_sched_domains(t, err, sizeof(err)))
		return usage_error("%s", err);
	sched_domains_print(stdout, cpu);
	free_sched_domains();
	return 0;
}

/* --export-hwloc FILE ('-': stdout; a file is written whole or not at all), --export-sysfs DIR */
static int export_topo(const struct topology *t, const char *sysfs_dir, const char *hwloc_file)
{
	char err[512];

	if (hwloc_file && !strcmp(hwloc_file, "-")) {
		if (topology_export_hwloc(t, stdout, err, sizeof(err)))
			return usage_error("%s", err);
	} else if (hwloc_file) {
		FILE *f = outfile_open(hwloc_file);

		if (!f)
			return usage_error("topo: cannot write '%s': %s", hwloc_file,
					   strerror(errno));
		if (topology_export_hwloc(t, f, err, sizeof(err))) {
			outfile_close(f);
			outfile_discard();
			return usage_error("%s", err);
		}
		if (outfile_close(f) || outfile_commit())
			return 1;
	}
	if (sysfs_dir && topology_export_sysfs(t, sysfs_dir, err, sizeof(err)))
		return usage_error("topo: %s", err);
	return 0;
}

int cmd_topo(int argc, char **argv)
{
	const char *machine = NULL, *cpu_arg = NULL, *sysfs_dir = NULL, *hwloc_file = NULL;
	const char *guest = NULL;
	bool domains = false, costs = false;
	struct topology *t;
	char err[256];
	int ret;

	for (int i = 1; i < argc; i++) {
		int r;

		if (is_help(argv[i])) {
			topo_usage(stdout);
			return finish_stdout();
		}
		if (!strcmp(argv[i], "--domains")) {
			domains = true;
			continue;
		}
		if (!strcmp(argv[i], "--costs")) {
			costs = true;
			continue;
		}
		r = opt_value("topo", argc, argv, &i, "-m", "--machine", &machine);
		if (!r)
			r = opt_value("topo", argc, argv, &i, NULL, "--cpu", &cpu_arg);
		if (!r)
			r = opt_value("topo", argc, argv, &i, NULL, "--export-sysfs", &sysfs_dir);
		if (!r)
			r = opt_value("topo", argc, argv, &i, NULL, "--export-hwloc", &hwloc_file);
		if (!r)
			r = opt_value("topo", argc, argv, &i, NULL, "--guest", &guest);
		if (r < 0)
			return EXIT_BAD_INPUT;
		if (!r)
			return bad_arg("topo", argv[i]);
	}
	if (!machine)
		return usage_error("topo: missing -m MACHINE (see 'schedlab machines')");
	if (cpu_arg && !domains)
		return usage_error("topo: --cpu goes with --domains");
	if (costs && domains)
		return usage_error("topo: --costs and --domains print different things: give one");

	if (sysfs_dir && !strcmp(sysfs_dir, "-"))
		return usage_error("topo: --export-sysfs writes a directory of files: '-' "
				   "(standard output) does not apply");
	if ((sysfs_dir || hwloc_file) && (domains || costs))
		return usage_error("topo: --export-sysfs and --export-hwloc write the machine; "
				   "--domains and --costs print it: give one kind");

	if (guest) {
		struct guest_desc d;

		if (guest_parse_option(guest, &d, err, sizeof(err)))
			return usage_error("topo: %s", err);
	}
	t = topology_load(machine, err, sizeof(err));
	if (!t)
		return usage_error("%s", err);
	if (guest && topology_guest_option(t, guest, err, sizeof(err))) {
		topology_free(t);
		return usage_error("topo: %s", err);
	}
	if (sysfs_dir || hwloc_file) {
		ret = export_topo(t, sysfs_dir, hwloc_file);
		topology_free(t);
		return ret ? ret : finish_stdout();
	}
	if (domains) {
		ret = print_domains(t, cpu_arg);
	} else if (costs) {
		cost_model_print(&t->cost, stdout);
		ret = 0;
	} else {
		topology_print_tree(t, stdout);
		ret = 0;
	}
	topology_free(t);
	return ret ? ret : finish_stdout();
}

/* ---- schedlab features ---- */

static void features_usage(FILE *out)
{
	fputs("usage: schedlab features [--features LIST]\n"
	      "\n"
	      "List the scheduler features: every entry of Linux v6.18's\n"
	      "kernel/sched/features.h in kernel order (SOURCE v6.18), then the toggles\n"
	      "schedlab adds for older or proposed behaviours (SOURCE names the commit\n"
	      "each stands for). An entry marked 'not modelled' belongs to a subsystem\n"
	      "schedlab does not have; --features rejects it.\n"
	      "\n"
	      "  --features LIST   first apply LIST, e.g. 'NO_DELAY_DEQUEUE,UTIL_EST', the\n"
	      "                    way a write to /sys/kernel/debug/sched/features does,\n"
	      "                    and show the resulting value in a NOW column (may be\n"
	      "                    given more than once; applied in order)\n"
	      "  -h, --help        show this help\n",
	      out);
}

static const char *on_off(bool v)
{
	return v ? "on" : "off";
}

int cmd_features(int argc, char **argv)
{
	bool applied = false;
	int width = (int)strlen("FEATURE");
	char err[256];

	sched_feat_reset();
	for (int i = 1; i < argc; i++) {
		const char *list;
		int r;

		if (is_help(argv[i])) {
			features_usage(stdout);
			return finish_stdout();
		}
		r = opt_value("features", argc, argv, &i, NULL, "--features", &list);
		if (r < 0)
			return EXIT_BAD_INPUT;
		if (!r)
			return bad_arg("features", argv[i]);
		if (sched_feat_apply(list, err, sizeof(err)))
			return usage_error("%s", err);
		applied = true;
	}

	int swidth = (int)strlen("SOURCE");

	for (int i = 0; i < __SCHED_FEAT_NR; i++) {
		int len = (int)strlen(sched_feat_info[i].name);
		int slen = (int)strlen(sched_feat_info[i].source);

		if (len > width)
			width = len;
		if (slen > swidth)
			swidth = slen;
	}
	width += 2;
	swidth += 2;

	printf("%-*s%-9s%s%-*s%s\n", width, "FEATURE", "DEFAULT", applied ? "NOW  " : "", swidth,
	       "SOURCE", "HELP");
	for (int i = 0; i < __SCHED_FEAT_NR; i++) {
		const struct sched_feat_info *f = &sched_feat_info[i];

		printf("%-*s%-9s", width, f->name, on_off(f->def));
		if (applied)
			printf("%-5s", f->missing ? "-" : on_off(sysctl_sched_features[i]));
		printf("%-*s%s", swidth, f->source, f->help);
		if (f->missing)
			printf(" [not modelled: needs %s]", f->missing);
		printf("\n");
	}
	return finish_stdout();
}
