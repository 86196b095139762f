// SPDX-License-Identifier: GPL-2.0-only
/*
 * The --plot recorder and writer.
 *
 * Samples: every `interval` of simulated time each CPU's cumulative busy
 * time (user + kernel + irq) and its nr_running. The sample buffer holds
 * PLOT_MAX_SAMPLES; when it is full, every other sample is dropped and the
 * interval doubles, so any run length ends with between half and all of
 * PLOT_MAX_SAMPLES evenly spaced samples and memory stays bounded. The
 * sampling event is the machine's observer: the run ends when it is the
 * only event left, so it never keeps a finished (or deadlocked) simulation
 * alive, and it only reads scheduler state, so a run with --plot decides
 * exactly as one without.
 */
#include "report/plot.h"

#include "kernel/cpufreq.h"
#include "kernel/sched.h"
#include "kernel/trace.h"
#include "report/plot_dir.h"
#include "sim/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_MAX_SAMPLES 1024
/* the first sampling interval: fine enough for a few-millisecond run */
#define PLOT_FIRST_INTERVAL_NS (20 * NSEC_PER_USEC)
/* at most this many points on the latency CDF */
#define PLOT_CDF_POINTS 2000

static struct {
	char *dir;
	char *title;		/* "MACHINE: COMMAND" */
	unsigned int nr_cpus;
	u64 interval;
	unsigned int nr; /* samples taken */
	u64 *time; /* [PLOT_MAX_SAMPLES] */
	u64 *busy; /* [PLOT_MAX_SAMPLES][nr_cpus], cumulative ns */
	double *nr_running; /* [PLOT_MAX_SAMPLES][nr_cpus] */
	unsigned int *freq; /* [PLOT_MAX_SAMPLES][nr_cpus] kHz, only with --cpufreq */
	u64 *lat; /* wakeup latencies, ns */
	size_t nr_lat, cap_lat;
	bool failed;
	bool recording; /* the sampling event re-arms itself while set */
	struct sim_event ev;
} pl;

static void record_wakeup_latency(u64 ns)
{
	if (pl.nr_lat == pl.cap_lat) {
		size_t cap = pl.cap_lat ? 2 * pl.cap_lat : 4096;
		u64 *l = realloc(pl.lat, cap * sizeof(*l));

		if (!l) {
			pl.failed = true;
			return;
		}
		pl.lat = l;
		pl.cap_lat = cap;
	}
	pl.lat[pl.nr_lat++] = ns;
}

static u64 cpu_busy_ns(unsigned int cpu, u64 now)
{
	const struct sim_cpu *c = sim_cpu(cpu);
	u64 busy = c->time_in[ACT_USER] + c->time_in[ACT_KERNEL] + c->time_in[ACT_IRQ];

	/* the activity in progress counts up to now (a cursor may be ahead of it) */
	if (c->act != ACT_IDLE && now > c->act_since)
		busy += now - c->act_since;
	return busy;
}

/* keep samples 1, 3, 5, ...: the interval doubles */
static void decimate(void)
{
	unsigned int n = pl.nr / 2;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int from = 2 * i + 1;

		pl.time[i] = pl.time[from];
		for (unsigned int cpu = 0; cpu < pl.nr_cpus; cpu++) {
			pl.busy[i * pl.nr_cpus + cpu] = pl.busy[from * pl.nr_cpus + cpu];
			if (pl.freq)
				pl.freq[i * pl.nr_cpus + cpu] = pl.freq[from * pl.nr_cpus + cpu];
			/* nr_running: the mean of the two samples the new one stands for */
			pl.nr_running[i * pl.nr_cpus + cpu] =
				(pl.nr_running[(from - 1) * pl.nr_cpus + cpu] +
				 pl.nr_running[from * pl.nr_cpus + cpu]) /
				2;
		}
	}
	pl.nr = n;
	pl.interval *= 2;
}

static void sample_event(struct sim_event *ev)
{
	u64 now = ev->time;

	if (pl.nr == PLOT_MAX_SAMPLES)
		decimate();
	pl.time[pl.nr] = now;
	for (unsigned int cpu = 0; cpu < pl.nr_cpus; cpu++) {
		pl.busy[pl.nr * pl.nr_cpus + cpu] = cpu_busy_ns(cpu, now);
		pl.nr_running[pl.nr * pl.nr_cpus + cpu] = cpu_rq(cpu)->nr_running;
		if (pl.freq)
			pl.freq[pl.nr * pl.nr_cpus + cpu] = sim_cpu(cpu)->freq_khz;
	}
	pl.nr++;
	if (pl.recording)
		sim_schedule(&pl.ev, now + pl.interval);
}

static void free_recorder(void)
{
	free(pl.dir);
	free(pl.title);
	free(pl.time);
	free(pl.busy);
	free(pl.nr_running);
	free(pl.freq);
	free(pl.lat);
	memset(&pl, 0, sizeof(pl));
}

int plot_start(const char *dir, const char *title, char *err, size_t errlen)
{
	memset(&pl, 0, sizeof(pl));
	if (plot_dir_prepare(dir, err, errlen))
		return -1;
	pl.dir = xstrdup(dir);
	pl.title = xstrdup(title);
	pl.nr_cpus = machine.nr_cpus;
	pl.interval = PLOT_FIRST_INTERVAL_NS;
	pl.time = xcalloc(PLOT_MAX_SAMPLES, sizeof(*pl.time));
	pl.busy = xcalloc((size_t)PLOT_MAX_SAMPLES * pl.nr_cpus, sizeof(*pl.busy));
	pl.nr_running = xcalloc((size_t)PLOT_MAX_SAMPLES * pl.nr_cpus, sizeof(*pl.nr_running));
	/* the frequency over time only under a governor (performance alone is fixed) */
	if (cpufreq_governed())
		pl.freq = xcalloc((size_t)PLOT_MAX_SAMPLES * pl.nr_cpus, sizeof(*pl.freq));
	ev_init(&pl.ev, sample_event, 0);
	machine.observer = &pl.ev;
	sim_schedule(&pl.ev, machine.now);
	pl.recording = true;
	register_wakeup_latency_hook(record_wakeup_latency);
	return 0;
}

/* ------------------------------------------------------------------ */
/* writing                                                             */

static FILE *open_in_dir(const char *name)
{
	return plot_dir_open(pl.dir, name, &pl.failed);
}

static void close_file(FILE *f)
{
	plot_dir_close(f, &pl.failed);
}

/*
 * A heatmap as gnuplot's "with image" reads it: "t cpu value" lines, one
 * block (blank line) per time bin; t is the bin's middle in milliseconds.
 */
static void write_util(void)
{
	FILE *f = open_in_dir("cpu-util.dat");

	if (!f)
		return;
	fputs("# time_ms cpu utilisation(0..1) per sampling interval\n", f);
	for (unsigned int i = 1; i < pl.nr; i++) {
		double dt = (double)(pl.time[i] - pl.time[i - 1]);
		double mid = (double)(pl.time[i] + pl.time[i - 1]) / 2 / NSEC_PER_MSEC;

		for (unsigned int cpu = 0; cpu < pl.nr_cpus; cpu++) {
			double u = (double)(pl.busy[i * pl.nr_cpus + cpu] -
					    pl.busy[(i - 1) * pl.nr_cpus + cpu]) /
				   dt;

			fprintf(f, "%.6f %u %.4f\n", mid, cpu, u > 1 ? 1 : u);
		}
		fputc('\n', f);
	}
	close_file(f);
}

static void write_nr_running(void)
{
	FILE *f = open_in_dir("nr-running.dat");

	if (!f)
		return;
	fputs("# time_ms cpu nr_running (averaged when samples were merged)\n", f);
	for (unsigned int i = 0; i < pl.nr; i++) {
		for (unsigned int cpu = 0; cpu < pl.nr_cpus; cpu++)
			fprintf(f, "%.6f %u %.3f\n", (double)pl.time[i] / NSEC_PER_MSEC, cpu,
				pl.nr_running[i * pl.nr_cpus + cpu]);
		fputc('\n', f);
	}
	close_file(f);
}

/* each CPU's clock at each sample, in MHz (--cpufreq only) */
static void write_freq(void)
{
	FILE *f;

	if (!pl.freq)
		return;
	f = open_in_dir("cpu-freq.dat");
	if (!f)
		return;
	fputs("# time_ms cpu frequency_mhz at each sample\n", f);
	for (unsigned int i = 0; i < pl.nr; i++) {
		for (unsigned int cpu = 0; cpu < pl.nr_cpus; cpu++)
			fprintf(f, "%.6f %u %.1f\n", (double)pl.time[i] / NSEC_PER_MSEC, cpu,
				pl.freq[i * pl.nr_cpus + cpu] / 1000.0);
		fputc('\n', f);
	}
	close_file(f);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

/* the empirical CDF: "latency_us fraction", at most PLOT_CDF_POINTS rows */
static void write_latency_cdf(void)
{
	FILE *f = open_in_dir("wakeup-latency.dat");
	size_t step;

	if (!f)
		return;
	qsort(pl.lat, pl.nr_lat, sizeof(*pl.lat), cmp_u64);
	fprintf(f, "# wakeup latency (us) and fraction of the %zu wakeups at or below it\n",
		pl.nr_lat);
	step = pl.nr_lat / PLOT_CDF_POINTS + 1;
	for (size_t i = 0; i < pl.nr_lat; i += step)
		fprintf(f, "%.3f %.6f\n", (double)pl.lat[i] / NSEC_PER_USEC,
			(double)(i + 1) / (double)pl.nr_lat);
	if (pl.nr_lat)
		fprintf(f, "%.3f 1.000000\n", (double)pl.lat[pl.nr_lat - 1] / NSEC_PER_USEC);
	close_file(f);
}

static void write_script(void)
{
	FILE *f = open_in_dir("plots.gp");
	static const char *const terms[][2] = {
		{ "png", PLOT_TERM_PNG },
		{ "svg", PLOT_TERM_SVG },
	};

	if (!f)
		return;
	fprintf(f, "# Render with: gnuplot %s/plots.gp (written by schedlab --plot)\n", pl.dir);
	fprintf(f, "cd '%s'\n", pl.dir);
	fprintf(f, "cpus = %u\n", pl.nr_cpus);
	for (size_t t = 0; t < sizeof(terms) / sizeof(terms[0]); t++) {
		fprintf(f, "\n%s\n", terms[t][1]);
		fprintf(f, "set output 'cpu-util.%s'\n", terms[t][0]);
		fputs("reset; set termoption noenhanced; set title 'CPU utilisation: ", f);
		plot_dir_quote(f, pl.title);
		fputs("'\nset xlabel 'simulated time (ms)'\n"
		      "set ylabel 'CPU'; set yrange [-0.5:cpus-0.5]; set cbrange [0:1]\n"
		      "set cblabel 'busy fraction'; set palette defined (0 'white', 1 'dark-blue')\n"
		      "plot 'cpu-util.dat' using 1:2:3 with image notitle\n",
		      f);
		fprintf(f, "set output 'nr-running.%s'\n", terms[t][0]);
		fputs("reset; set termoption noenhanced; set title 'nr_running per CPU: ", f);
		plot_dir_quote(f, pl.title);
		fputs("'\nset xlabel 'simulated time (ms)'\n"
		      "set ylabel 'CPU'; set yrange [-0.5:cpus-0.5]; set cbrange [0:*]\n"
		      "set cblabel 'runnable tasks'; set palette defined (0 'white', 1 'orange', 2 'dark-red')\n"
		      "plot 'nr-running.dat' using 1:2:3 with image notitle\n",
		      f);
		fprintf(f, "set output 'wakeup-latency-cdf.%s'\n", terms[t][0]);
		fputs("reset; set termoption noenhanced\n"
		      "set title 'Wakeup latency (wakeup to running): ", f);
		plot_dir_quote(f, pl.title);
		fputs("'\nset xlabel 'latency (us)'; set ylabel 'fraction of wakeups'; set logscale x\n"
		      "set yrange [0:1]; set grid\n"
		      "plot 'wakeup-latency.dat' using 1:2 with steps lw 2 notitle\n",
		      f);
		if (pl.freq) {
			fprintf(f, "set output 'cpu-freq.%s'\n", terms[t][0]);
			fputs("reset; set termoption noenhanced; set title 'CPU frequency: ", f);
			plot_dir_quote(f, pl.title);
			fputs("'\nset xlabel 'simulated time (ms)'\n"
			      "set ylabel 'CPU'; set yrange [-0.5:cpus-0.5]; set cbrange [0:*]\n"
			      "set cblabel 'MHz'; set palette defined (0 'white', 1 'dark-green')\n"
			      "plot 'cpu-freq.dat' using 1:2:3 with image notitle\n",
			      f);
		}
		fputs("unset output\n", f);
	}
	close_file(f);
}

int plot_finish(void)
{
	int rc;

	if (!pl.dir)
		return 0;
	pl.recording = false;
	register_wakeup_latency_hook(NULL);
	machine.observer = NULL;
	if (ev_queued(&pl.ev))
		sim_cancel(&pl.ev);
	/* a last sample at the end, so the plots reach it */
	if (!pl.nr || pl.time[pl.nr - 1] < machine.now) {
		pl.ev.time = machine.now;
		sample_event(&pl.ev);
	}
	write_util();
	write_nr_running();
	write_freq();
	write_latency_cdf();
	write_script();
	rc = pl.failed ? -1 : 0;
	free_recorder();
	return rc;
}
