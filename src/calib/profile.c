// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab calibrate: the host's description and load, and the cost
 * profile written from the measurements. Each parameter's line says what
 * was subtracted from what (docs/calibration.md has the same table).
 */
#include "calib/calib.h"

#include "report/version.h"
#include "sim/cache.h"
#include "sim/cost.h"
#include "topo/host_file.h"
#include "topo/machine_guest.h"
#include "work/skb_cache.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* ---- the host ---- */

static void cpu_model(char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu" };
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');
			size_t kl = strlen(keys[k]);

			if (!colon || strncmp(line, keys[k], kl) ||
			    (line[kl] != ' ' && line[kl] != '\t'))
				continue;
			colon++;
			while (*colon == ' ')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			fclose(f);
			return;
		}
	}
	fclose(f);
}

static bool cpuinfo_hypervisor_flag(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool yes = false;

	if (!f)
		return false;
	while (!yes && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor"))
			yes = true;
	fclose(f);
	return yes;
}

/* systemd-detect-virt @flag ("--vm", "--container"): its answer, "" without it or for "none" */
static void detect_virt(const char *flag, char *buf, size_t len)
{
	char cmd[64];
	FILE *p;

	buf[0] = '\0';
	if (access("/usr/bin/systemd-detect-virt", X_OK) &&
	    access("/bin/systemd-detect-virt", X_OK))
		return;
	snprintf(cmd, sizeof(cmd), "systemd-detect-virt %s 2>/dev/null", flag);
	p = popen(cmd, "r");
	if (!p)
		return;
	if (fgets(buf, (int)len, p))
		buf[strcspn(buf, "\n")] = '\0';
	else
		buf[0] = '\0';
	pclose(p);
	if (!strcmp(buf, "none"))
		buf[0] = '\0';
}

/* "kvm (systemd-detect-virt, the hypervisor flag); container docker", or "none" */
static void virt(char *buf, size_t len)
{
	char vm[32], ct[32], hv[32];
	bool flag = cpuinfo_hypervisor_flag();

	detect_virt("--vm", vm, sizeof(vm));
	detect_virt("--container", ct, sizeof(ct));
	host_read_line("/sys/hypervisor/type", hv, sizeof(hv));
	if (vm[0] || flag || hv[0])
		snprintf(buf, len, "%s (%s%s%s%s%s)",
			 vm[0] ? vm :
			 hv[0] ? hv :
				 "a VM",
			 vm[0] ? "systemd-detect-virt" : "", vm[0] && flag ? ", " : "",
			 flag ? "hypervisor flag in /proc/cpuinfo" : "",
			 hv[0] && (vm[0] || flag) ? ", /sys/hypervisor/type " : "", hv);
	else
		snprintf(buf, len, "none");
	if (ct[0])
		snprintf(buf + strlen(buf), len - strlen(buf), "; container %s", ct);
}

/* the "cpu" line of /proc/stat: total and steal jiffies */
static void stat_cpu(unsigned long long *total, unsigned long long *steal)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*total = *steal = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) >= 4) {
		for (int i = 0; i < 8; i++)
			*total += v[i];
		*steal = v[7];
	}
	fclose(f);
}

static double loadavg(void)
{
	double l = 0;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = 0;
		fclose(f);
	}
	return l;
}

static void idle_states(struct calib_host *h, int cpu)
{
	host_read_line("/sys/devices/system/cpu/cpuidle/current_driver", h->idle_driver,
		       sizeof(h->idle_driver));
	h->nr_idle = 0;
	for (int s = 0; s < CALIB_MAX_IDLE; s++) {
		char path[128], v[32];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
			 cpu, s);
		host_read_line(path, h->idle_name[s], sizeof(h->idle_name[s]));
		if (!h->idle_name[s][0])
			break;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu, s);
		host_read_line(path, v, sizeof(v));
		h->idle_exit_us[s] = strtoul(v, NULL, 10);
		h->nr_idle = s + 1;
	}
}

void calib_host_load_sample(struct calib_host *h)
{
	double l = loadavg();

	if (l > h->load_max)
		h->load_max = l;
	h->nr_load_samples++;
}

void calib_host_sample(struct calib_host *h, bool end)
{
	static unsigned long long total0, steal0;
	unsigned long long total, steal;

	if (!end) {
		struct utsname u;
		time_t now = time(NULL);

		memset(h, 0, sizeof(*h));
		strftime(h->date, sizeof(h->date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		cpu_model(h->cpu, sizeof(h->cpu));
		if (!uname(&u))
			snprintf(h->kernel, sizeof(h->kernel), "%.60s %.100s %.60s", u.sysname,
				 u.release, u.machine);
		virt(h->virt, sizeof(h->virt));
		h->nr_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
		idle_states(h, h->nr_cpus > 1 ? 1 : 0);
		h->load_start = h->load_max = loadavg();
		stat_cpu(&total0, &steal0);
		return;
	}
	h->load_end = loadavg();
	calib_host_load_sample(h);
	stat_cpu(&total, &steal);
	h->steal_pct =
		total > total0 ? 100.0 * (double)(steal - steal0) / (double)(total - total0) : 0;
	/*
	 * Busy: other work was running when we started (the 1-minute load,
	 * ours not yet in it), or the hypervisor took CPU time from us.
	 */
	if (h->load_start >= 0.5 * h->nr_cpus || h->steal_pct >= 2.0) {
		h->busy = true;
		snprintf(
			h->busy_why, sizeof(h->busy_why),
			"load average %.2f on %d CPUs at the start, steal %.1f%% of CPU time during the run",
			h->load_start, h->nr_cpus, h->steal_pct);
	}
}

/* ---- the profile ---- */

struct writer {
	FILE *out;
	const struct calib_result *res;
	struct cost_model def; /* the defaults: the splits of the groups follow them */
	struct cost_model cal; /* the values written, for the later derivations */
};

static double med(const struct writer *w, enum calib_meas m)
{
	return w->res->m[m].med;
}

/* "name 69.5 ns [67.9, 73.3], 7 trials" */
static void spread(FILE *out, const char *name, const struct calib_stat *s, const char *unit)
{
	fprintf(out, "%s %.1f %s [%.1f, %.1f], %d trials", name, s->med, unit, s->min, s->max,
		s->n);
}

static void stat_line(const struct writer *w, const char *name, enum calib_meas m)
{
	fputs("#   ", w->out);
	spread(w->out, name, &w->res->m[m], "ns");
	fputc('\n', w->out);
}

/* write "name = value" for @v rounded and kept in the parameter's range */
static u64 param(struct writer *w, const char *name, double v)
{
	const char *pn;
	bool per_dist;
	u64 max, val;
	char assign[96], err[160], base[48];
	const char *dot = strchr(name, '.');

	snprintf(base, sizeof(base), "%.*s", (int)(dot ? dot - name : (long)strlen(name)), name);
	max = 100000;
	for (size_t i = 0; (pn = cost_model_param(i, &per_dist, &max)); i++)
		if (!strcmp(pn, name) || !strcmp(pn, base))
			break;
	if (!isfinite(v) || v < 1) {
		fprintf(w->out,
			"#   (the difference came out at %.0f: written as 1, the smallest)\n",
			isfinite(v) ? v : 0);
		v = 1;
	}
	val = (u64)llround(v);
	if (val > max) {
		fprintf(w->out, "#   (%llu is above the parameter's range: written as %llu)\n",
			(unsigned long long)val, (unsigned long long)max);
		val = max;
	}
	fprintf(w->out, "%s = %llu\n", name, (unsigned long long)val);
	snprintf(assign, sizeof(assign), "%s=%llu", name, (unsigned long long)val);
	cost_model_set(&w->cal, assign, err, sizeof(err));
	return val;
}

/* split @total over @n parameters in the proportions of their defaults */
static void split(struct writer *w, double total, const char *const *names, const u64 *defs, int n)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += (double)defs[i];
	fprintf(w->out, "#   split over");
	for (int i = 0; i < n; i++)
		fprintf(w->out, "%s %s", i ? (i == n - 1 ? " and" : ",") : "", names[i]);
	fprintf(w->out, " in the proportions of their defaults (");
	for (int i = 0; i < n; i++)
		fprintf(w->out, "%s%llu", i ? ":" : "", (unsigned long long)defs[i]);
	fprintf(w->out, "): user space cannot time them apart\n");
	for (int i = 0; i < n; i++) {
		fprintf(w->out, "# %s: %llu/%.0f of %.0f ns\n", names[i],
			(unsigned long long)defs[i], sum, total);
		param(w, names[i], total * (double)defs[i] / sum);
	}
}

/*
 * In a KVM guest: what sending an IPI costs the sender, from the waker's
 * own FUTEX_WAKE call to a busy CPU: the model's sender pays the syscall,
 * futex_wake, ttwu, enqueue, wake_walk, the remote rq_lock and its line,
 * and ipi_send + guest_ipi_exit. Written before ipi_latency, which is then
 * left without it.
 */
static void write_guest_ipi_exit(struct writer *w, const struct calib_pair *p)
{
	const struct calib_guest *g = &w->res->guest;
	const struct cost_model *c = &w->cal;
	double rest;

	rest = (double)(c->syscall + c->futex_wake + c->ttwu + c->enqueue + c->wake_walk +
			w->def.rq_lock + c->cacheline[p - w->res->pair] + w->def.ipi_send);
	fprintf(w->out,
		"\n# guest_ipi_exit: the waker's FUTEX_WAKE call to the wakee on CPU %d kept busy\n"
		"#   by a SCHED_IDLE spinner (the wakeup preempts it: a reschedule IPI, the\n"
		"#   x2APIC ICR write's VM exit) - syscall - futex_wake - ttwu - enqueue -\n"
		"#   wake_walk - rq_lock - its line's transfer - ipi_send = %.0f ns subtracted\n",
		p->b, rest);
	fputs("#   ", w->out);
	spread(w->out, "wake.busy.call", &g->wake_call_busy, "ns");
	fputc('\n', w->out);
	param(w, "guest_ipi_exit", g->wake_call_busy.med - rest);
}

/*
 * What receiving an IPI costs a running CPU (microbench.c, t_ipi_recv():
 * the stretch a spinning thread loses to each of membarrier's IPIs): the
 * model charges irq_entry + csd_entry there, and in a KVM guest without
 * posted interrupts guest_ipi_recv_exit beside them (the host kicks the
 * vCPU out of the guest and injects the interrupt on its way back in).
 * Written in a guest when every trial lost more than the model charges
 * apart; on bare metal a comment (irq_entry is not set from it: the stretch
 * also holds the spinner's clock read around it).
 */
static void write_ipi_recv(struct writer *w, const struct calib_pair *p)
{
	const struct calib_stat *r = &w->res->ipi_recv;
	double rest = (double)(w->def.irq_entry + w->def.csd_entry);

	if (!r->n) {
		fputs("\n# guest_ipi_recv_exit: not measured (no expedited membarrier(2) here)\n",
		      w->out);
		return;
	}
	fprintf(w->out,
		"\n# %s: a thread spinning on CPU %d, reading the clock, loses a\n"
		"#   stretch to each of membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)'s IPIs sent\n"
		"#   from CPU %d, %d us apart (the median stretch inside each call); the model\n"
		"#   charges the receiver irq_entry + csd_entry (%.0f, the machine's)%s\n",
		w->res->guest.kvm ? "guest_ipi_recv_exit" : "receiving an IPI", p->b, p->a,
		CALIB_RECV_PAUSE_US, rest,
		w->res->guest.kvm ?
			", and in a\n#   guest without posted interrupts (APICv, AVIC) the "
			"host's kick out of\n#   the guest and the injection: this" :
			"");
	fputs("#   ", w->out);
	spread(w->out, "ipi.recv", r, "ns");
	fputc('\n', w->out);
	if (!w->res->guest.kvm) {
		fprintf(w->out, "#   %.0f ns over the model's, bare metal: no parameter\n",
			r->med - rest);
		return;
	}
	if (calib_cost_resolved(r, rest)) {
		param(w, "guest_ipi_recv_exit", r->med - rest);
		return;
	}
	fprintf(w->out,
		"#   not resolved: a spread not above what the model charges (posted interrupts:\n"
		"#   the IPI reaches the running vCPU without an exit). Not written: %llu ns stays\n"
		"# guest_ipi_recv_exit = %.0f\n",
		(unsigned long long)w->def.guest_ipi_recv_exit, r->med - rest);
}

/*
 * l1_refill from the rings of processes (microbench.c, ring_rounds()): per
 * hop, ring_k processes - 2, a pair of trials at a time, is the refill of
 * the incoming process's working set into the L1d once the others have
 * overflowed it, taken as the model's default footprint (what a task that
 * declares none brings back, cache_switch_in()), at most the L1d: per
 * KiB of it. Written when every pair's difference is above 0.
 */
static void write_l1_refill(struct writer *w)
{
	const struct calib_result *res = w->res;
	const struct calib_stat *d = &res->m[M_RING_DIFF];
	u64 bytes = min((u64)CACHE_DEFAULT_FOOTPRINT, (u64)res->l1d_bytes);
	double kib = (double)bytes / 1024;

	if (!d->n || !bytes)
		return;
	fprintf(w->out,
		"\n# l1_refill: a token round a ring of %d processes on CPU 0 through pipes, all\n"
		"#   SCHED_BATCH (each hop a write, a wakeup, a blocking read, a switch), per hop,\n"
		"#   - the same round 2 processes, a trial of each in turn: the incoming process's\n"
		"#   working set back from the L2 once %d others have overflowed the %lu KiB L1d;\n"
		"#   / the model's default footprint in KiB (%.0f)\n",
		res->ring_k, res->ring_k - 1, res->l1d_bytes / 1024, kib);
	stat_line(w, "ring.2", M_RING_2);
	stat_line(w, "ring.k", M_RING_K);
	stat_line(w, "ring.k-2", M_RING_DIFF);
	if (calib_cost_resolved(d, 0)) {
		param(w, "l1_refill", d->med / kib);
		return;
	}
	fprintf(w->out,
		"#   not resolved: a spread that covers 0. Not written: the estimate %llu ns a KiB\n"
		"#   stays\n# l1_refill = %.1f\n",
		(unsigned long long)w->def.l1_refill, d->med / kib);
}

/*
 * A guest cost @name from the paired wakeups' difference @d less @extra:
 * written when resolved (calib_cost_resolved()), else commented out with
 * the difference and its spread, which leaves the estimate @in_force in
 * force (a profile without it loads on -m host's guest costs). The value
 * in force is returned.
 */
static double guest_cost(struct writer *w, const char *name, const struct calib_wake_pairs *p,
			 double extra, u64 in_force)
{
	const struct calib_stat *d = &p->diff;
	double v = d->med - extra;

	if (!calib_pairs_halted(p)) {
		fprintf(w->out,
			"#   not resolved: the wakee's CPU idled %.2f times a pair (cpuidle usage), not\n"
			"#   before each idle wakeup: other work kept it running, and the idle wakeups\n"
			"#   were mostly a running vCPU's.",
			p->halts);
	} else if (calib_cost_resolved(d, extra)) {
		return (double)param(w, name, v);
	} else if (d->max - extra < 0) {
		fputs("#   not resolved: a spread below 0: the halted wakeup adds less than the\n"
		      "#   model charges beside this cost, which leaves it nothing to resolve.",
		      w->out);
	} else if (d->max - extra < (double)in_force) {
		/* no cost told from 0, yet every trial below the estimate: that is wrong here */
		fprintf(w->out,
			"#   a spread that covers 0 and lies below the estimate in force (%llu ns):\n"
			"#   the halted wakeup adds next to nothing here. idle - busy %s %.0f = %.0f ns\n"
			"#   [%.0f, %.0f] over %d trials\n",
			(unsigned long long)in_force, extra < 0 ? "+" : "-", fabs(extra), v,
			d->min - extra, d->max - extra, d->n);
		return (double)param(w, name, v);
	} else {
		fputs("#   not resolved: a spread that covers 0: the host's load moves the wakeups\n"
		      "#   by more than the cost (see busy above).",
		      w->out);
	}
	fprintf(w->out,
		" idle - busy %s %.0f = %.0f ns\n#   [%.0f, %.0f] over %d trials. Not written: the guest "
		"estimate %llu ns stays\n# %s = %.0f\n",
		extra < 0 ? "+" : "-", fabs(extra), v, d->min - extra, d->max - extra, d->n,
		(unsigned long long)in_force, name, v);
	return (double)in_force;
}

/* "N.NN cpuidle entries a @per", or that none were counted (@halts < 0: no cpuidle) */
static void halts_text(char *buf, size_t len, double halts, const char *per)
{
	if (halts < 0)
		snprintf(buf, len, "no cpuidle counters");
	else
		snprintf(buf, len, "%.2f cpuidle entries a %s", halts, per);
}

/* whether the halts from the threshold on found the wakee's CPU idle */
static bool flush_halted(const struct calib_flush *fl)
{
	for (int i = 0; i < CALIB_NR_FLUSH_GAPS; i++)
		if ((double)calib_flush_gap_us[i] * 1000 >= fl->threshold_ns && fl->halts[i] >= 0 &&
		    fl->halts[i] < CALIB_MIN_HALTS)
			return false;
	return true;
}

/*
 * The private caches after an idle period (struct calib_flush), printed
 * beside the gap curve. In a guest (@guest) it gives guest_halt_flush_ns:
 * the idle length from which the share of the L2 buffer lost is at least
 * CALIB_FLUSH_LOST, written when every trial crossed it, the reference
 * refill is resolved and the wakee's CPU idled before the wakes from there
 * on. Returns the value in force (0: none). On bare metal the loss is the
 * idle states' own, printed only (docs/calibration.md).
 */
static u64 write_flush(struct writer *w, bool guest)
{
	const struct calib_flush *fl = &w->res->flush;
	const char *why = NULL;

	if (!fl->measured)
		return w->def.guest_halt_flush_ns;
	fprintf(w->out,
		"\n# %s: FUTEX_WAKE to a wakee on CPU %d after its CPU idled for a gap;\n"
		"#   at once the wakee walks a %lu KiB buffer (its L1d's 3/4) and a %lu KiB one\n"
		"#   (its L2's 1/4), each line's pointer to the next in a random order, that it\n"
		"#   walked before it blocked; then the same warm, then after reading twice its\n"
		"#   L2 of other data (the buffers come from the LLC: the private caches\n"
		"#   emptied), then the L2 buffer flushed to memory (clflush). Per trial the\n"
		"#   medians of the wakes' walk - warm, over trials their median [min, max];\n"
		"#   lost: the L2 buffer's walk after the gap - warm as a share of its refill\n"
		"#   from the LLC (above 1: from further than the LLC)\n",
		guest ? "guest_halt_flush_ns" : "private caches after idle", fl->cpu,
		fl->l1_bytes / 1024, fl->l2_bytes / 1024);
	fprintf(w->out,
		"#   from the LLC: L1 buffer +%.0f ns [%.0f, %.0f], L2 buffer +%.0f ns [%.0f, %.0f];\n"
		"#   from memory: L2 buffer +%.0f ns [%.0f, %.0f]\n",
		fl->l1_ref.med, fl->l1_ref.min, fl->l1_ref.max, fl->l2_ref.med, fl->l2_ref.min,
		fl->l2_ref.max, fl->l2_mem.med, fl->l2_mem.min, fl->l2_mem.max);
	for (int i = 0; i < CALIB_NR_FLUSH_GAPS; i++) {
		char halts[48];

		halts_text(halts, sizeof(halts), fl->halts[i], "wake");
		fprintf(w->out,
			"#   flush.gap%uus: L1 +%.0f ns [%.0f, %.0f], L2 +%.0f ns [%.0f, %.0f], lost %.2f [%.2f, %.2f] (%s)\n",
			calib_flush_gap_us[i], fl->l1_loss[i].med, fl->l1_loss[i].min,
			fl->l1_loss[i].max, fl->l2_loss[i].med, fl->l2_loss[i].min,
			fl->l2_loss[i].max, fl->lost[i].med, fl->lost[i].min, fl->lost[i].max,
			halts);
	}
	if (fl->threshold_ns < 0) {
		fprintf(w->out,
			"#   no gap up to %u us lost %.0f%% of the L2 buffer: the private caches survive idling\n",
			calib_flush_gap_us[CALIB_NR_FLUSH_GAPS - 1], CALIB_FLUSH_LOST * 100);
		if (guest)
			fputs("# guest_halt_flush_ns: not set (never)\n", w->out);
		return guest ? w->def.guest_halt_flush_ns : 0;
	}
	fprintf(w->out,
		"#   lost %.0f%% from %.0f ns of idling on (log-interpolated between the gaps around\n"
		"#   the crossing); each trial's own: %.0f ns [%.0f, %.0f], %d of %d trials crossed\n",
		CALIB_FLUSH_LOST * 100, fl->threshold_ns, fl->trial_threshold.med,
		fl->trial_threshold.min, fl->trial_threshold.max, fl->trial_threshold.n,
		fl->trials);
	if (!guest) {
		fputs("#   bare metal: the idle states' own (a deep C-state's flush); not a\n"
		      "#   parameter here (docs/calibration.md)\n",
		      w->out);
		return 0;
	}
	if (fl->l2_ref.n < 1 || fl->l2_ref.min <= 0)
		why = "the refill from the LLC is not resolved (a reference at or below 0)";
	else if (fl->trial_threshold.n < fl->trials)
		why = "not every trial lost half of the buffer by the last gap";
	else if (!flush_halted(fl))
		why = "the wakee's CPU did not idle before the wakes (other work ran there)";
	if (why) {
		fprintf(w->out, "#   not resolved: %s. Not written\n# guest_halt_flush_ns = %.0f\n",
			why, fl->threshold_ns);
		return w->def.guest_halt_flush_ns;
	}
	return param(w, "guest_halt_flush_ns", fl->threshold_ns);
}

/*
 * The timer's reprogramming (microbench.c, timer_rounds()): the curve over
 * the tick, and its mean, what the tick's restart on the way out of idle
 * costs (calib.h). In a KVM guest the mean is guest_timer_exit, which the
 * model charges for each write: the tick's stop and restart around idle,
 * each timer interrupt's end, a CPU's own hrtimer becoming its first
 * (docs/guests.md); on bare metal a comment, a
 * register write inside idle_enter and idle_exit. Returns the value in
 * force in a guest for the wakeups' derivation: the mean when resolved
 * (its lower bound, the mean of each distance's least value, above 0),
 * else the estimate.
 */
static double write_timer(struct writer *w)
{
	const struct calib_result *res = w->res;
	const struct calib_stat *far = &res->timer_far;
	struct cost_model est = w->def;
	double med[CALIB_NR_TIMER], lo[CALIB_NR_TIMER], mean, low;
	unsigned int hz = res->timer_hz;

	guest_default_costs(&est, false);
	if (!far->n || !hz)
		return res->guest.kvm ? (double)est.guest_timer_exit : 0;
	fprintf(w->out,
		"\n# %s: timerfd_settime() on CPU 0 with the expiry a fraction of\n"
		"#   a tick out (HZ %u: %u us; each call a new deadline, the CPU's first timer\n"
		"#   unless the tick comes first) - the same %d s out (queued behind the tick),\n"
		"#   a batch of each in turn per trial, / the share of calls the tick was later\n"
		"#   (1 - fraction): one reprogramming of the clock event device at that distance\n",
		res->guest.kvm ? "guest_timer_exit" : "timer reprogramming", hz, 1000000 / hz,
		CALIB_TIMER_FAR_S);
	if (res->timer_hz_assumed)
		fprintf(w->out,
			"#   (HZ %u assumed: no kernel config says CONFIG_HZ. With a shorter tick the\n"
			"#   tick comes first at the far distances, which then read about 0, and the\n"
			"#   mean low)\n",
			hz);
	fputs("#   ", w->out);
	spread(w->out, "timer.far", far, "ns");
	fputc('\n', w->out);
	for (int i = 0; i < CALIB_NR_TIMER; i++) {
		const struct calib_stat *r = &res->timer_reprogram[i];
		char name[48];

		snprintf(name, sizeof(name), "timer.reprogram.%u/64 (%u us)", calib_timer_64ths[i],
			 1000000 / hz * calib_timer_64ths[i] / 64);
		fputs("#   ", w->out);
		spread(w->out, name, r, "ns");
		fputc('\n', w->out);
		med[i] = r->med;
		lo[i] = r->min;
	}
	mean = calib_timer_mean(med);
	low = calib_timer_mean(lo);
	fprintf(w->out,
		"#   mean over the tick (the restart's deadline falls anywhere in it): %.0f ns,\n"
		"#   at least %.0f (each distance's least)\n",
		mean, low);
	if (!res->guest.kvm) {
		fputs("#   bare metal: a register write, part of idle_enter and idle_exit; not a\n"
		      "#   parameter here\n",
		      w->out);
		return 0;
	}
	if (low > 0)
		return (double)param(w, "guest_timer_exit", mean);
	fprintf(w->out,
		"#   not resolved: the least values' mean is not above 0. Not written: the guest\n"
		"#   estimate %llu ns stays\n# guest_timer_exit = %.0f\n",
		(unsigned long long)est.guest_timer_exit, mean);
	return (double)est.guest_timer_exit;
}

/*
 * The way into idle (microbench.c, measure_window()): in a guest that
 * halts at once, idle_enter is the time from a task's block to its CPU's
 * halt less what the model charges on that way besides: the futex_wait
 * call (syscall, futex_wait), the dequeue, schedule, pick_next and the
 * switch to the idle task, and the tick's stop (@timer_exit). Written when
 * every trial's halts reached one half and the least onset, less those, is
 * above 0.
 */
static void write_window(struct writer *w, double timer_exit)
{
	const struct calib_window *cw = &w->res->window;
	const struct cost_model *c = &w->cal;
	double rest, v;

	if (!cw->measured)
		return;
	rest = (double)(c->syscall + c->futex_wait + c->dequeue + c->schedule + c->pick_next +
			c->context_switch) +
	       timer_exit;
	fprintf(w->out,
		"\n# idle_enter: a sleeper on CPU %d blocks in FUTEX_WAIT; the waker wakes it a delay\n"
		"#   after its last timestamp before the call (%d wakeups a delay and trial, its\n"
		"#   CPU busy between them); the CPU's halts a wakeup (cpuidle usage) and the\n"
		"#   wakeup's latency from the FUTEX_WAKE call, median over trials of each\n"
		"#   trial's median:\n",
		cw->cpu, CALIB_WINDOW_WAKES);
	for (int i = 0; i < CALIB_NR_WINDOW; i++)
		fprintf(w->out,
			"#   window.%uus: halted %.2f a wakeup, latency %.0f ns [%.0f, %.0f]\n",
			calib_window_us[i], cw->halted[i], cw->latency[i].med, cw->latency[i].min,
			cw->latency[i].max);
	fprintf(w->out,
		"#   the delay from which half the wakeups found it halted (%d of %d trials\n"
		"#   reached a half): ",
		cw->crossed, cw->trials);
	if (!cw->crossed) {
		fputs("none. Not written\n", w->out);
		return;
	}
	spread(w->out, "window.onset", &cw->onset, "ns");
	v = cw->onset.med - rest;
	fprintf(w->out,
		"\n#   - syscall - futex_wait - dequeue - schedule - pick_next - context_switch\n"
		"#   - guest_timer_exit (the tick's stop) = %.0f ns subtracted\n",
		rest);
	if (cw->crossed == cw->trials && cw->onset.min - rest > 0) {
		param(w, "idle_enter", v);
		return;
	}
	fprintf(w->out,
		"#   not resolved: %s. Not written: the machine's %llu ns stays\n# idle_enter = %.0f\n",
		cw->crossed < cw->trials ? "not every trial's halts reached one half" :
					   "the least onset is not above what is subtracted",
		(unsigned long long)w->def.idle_enter, v);
}

/*
 * In a KVM guest (docs/guests.md): what the halted vCPU's wakeup adds. The
 * model charges a halted wakeup over a busy one: the host's side
 * (guest_wakeup_polled when the host's adaptive poll window caught the
 * wake, guest_wakeup when it did not), the state's exit latency,
 * idle_exit and the timer's re-arm exit (guest_timer_exit). Each gap was
 * measured in a steady run of that gap, so the window had settled: grown
 * to catch the shortest gap if the host polls at all, shrunk to 0 by
 * CALIB_UNPOLLED_GAP_US. Those two gaps give the two costs, not a step
 * found between the gaps (a latency that rises gradually with the gap
 * moved such a step, and with it both costs, from run to run). Each idle
 * wakeup was paired with a busy one just after it, and the costs come from
 * the pairs' differences: a busy wakeup measured apart, under another
 * moment's load, made the difference negative on a loaded host.
 */
static void write_guest_wakeups(struct writer *w, const struct calib_pair *p, double exit_us,
				double timer_exit)
{
	const struct calib_guest *g = &w->res->guest;
	const struct calib_wake_pairs *v = g->wake_gap;
	struct cost_model est = w->def;
	double extra, polled, unpolled, refill, recv, last = 0;
	u64 flush;
	int far = 0;

	guest_default_costs(&est, false);
	/* the busy wakeup's receiver exit (no posted interrupts) a halted vCPU does not pay */
	recv = (double)w->cal.guest_ipi_recv_exit;
	extra = exit_us * 1000 + (double)w->def.idle_exit + timer_exit - recv;
	while (far < CALIB_NR_GAPS - 1 && calib_gap_us[far] < CALIB_UNPOLLED_GAP_US)
		far++;
	fprintf(w->out,
		"\n# guest_wakeup_polled, guest_wakeup: FUTEX_WAKE to the wakee's vCPU (CPU %d)\n"
		"#   halted for a gap (the waker sleeps it, timer slack 1 ns; each gap after a\n"
		"#   warm-up run of it, so the host's poll window has settled), each paired with\n"
		"#   the same wakeup just after it to that CPU kept busy by a SCHED_IDLE thread\n"
		"#   (the waker sleeping the gap before both), so the host's load falls on both\n"
		"#   alike. Per trial the median of the pairs' differences idle - busy, over\n"
		"#   trials its median [min, max]; the cost: that - the exit latency (%.0f us) -\n"
		"#   idle_exit (%llu, the machine's) - guest_timer_exit (%.0f, %s)\n"
		"#   + guest_ipi_recv_exit (%.0f: the busy wakeup's, a halted vCPU is out of\n"
		"#   the guest) = %.0f ns subtracted, written when the whole spread lies above\n"
		"#   it and the wakee's CPU idled (cpuidle usage, where there is one) at least\n"
		"#   %.1f times a pair.\n"
		"#   model: the difference the model charges with the costs in force, the\n"
		"#   host's window run over a steady series of halts of that gap\n",
		p->b, exit_us, (unsigned long long)w->def.idle_exit, timer_exit,
		w->cal.guest_timer_exit ? "measured above" : "the estimate", recv, extra,
		CALIB_MIN_HALTS);
	for (int i = 0; i < CALIB_NR_GAPS; i++) {
		char halts[48];

		halts_text(halts, sizeof(halts), v[i].halts, "pair");
		fprintf(w->out, "#   wake.gap%uus: idle %.1f ns (%s), busy %.1f ns,\n#     ",
			calib_gap_us[i], v[i].idle.med, halts, v[i].busy.med);
		spread(w->out, "idle - busy", &v[i].diff, "ns");
		fputc('\n', w->out);
	}
	if (g->hp.allowed) {
		fprintf(w->out,
			"# guest_wakeup_polled: the %u us gap (its halts grow the host's window to\n"
			"#   catch them)\n",
			calib_gap_us[0]);
		polled =
			guest_cost(w, "guest_wakeup_polled", &v[0], extra, est.guest_wakeup_polled);
		fprintf(w->out,
			"# guest_wakeup: the %u us gap (past KVM's halt_poll_ns: the window is 0)\n",
			calib_gap_us[far]);
		unpolled = guest_cost(w, "guest_wakeup", &v[far], extra, est.guest_wakeup);
	} else {
		fprintf(w->out,
			"# guest_wakeup_polled: not set: cpuidle-haltpoll turned the host's polling off\n"
			"#   (MSR_KVM_POLL_CONTROL; the host offers KVM_FEATURE_POLL_CONTROL), so no\n"
			"#   wakeup here is polled by the host\n"
			"# guest_wakeup: the %u us gap, the shortest (every gap's wakeup is a full one)\n",
			calib_gap_us[0]);
		unpolled = guest_cost(w, "guest_wakeup", &v[0], extra, est.guest_wakeup);
		polled = unpolled;
	}
	flush = write_flush(w, true);
	/* the wakee's default footprint from the LLC after a flushing halt (cache.c) */
	refill = (double)cache_llc_refill_ns(&w->def, CACHE_DEFAULT_FOOTPRINT);
	fprintf(w->out,
		"# the model's idle - busy at each gap, with the costs in force (a halt of at\n"
		"#   least guest_halt_flush_ns, %llu ns, adds the wakee's %d KiB refill from\n"
		"#   the LLC, %.0f ns):\n",
		(unsigned long long)flush, CACHE_DEFAULT_FOOTPRINT / 1024, refill);
	for (int i = 0; i < CALIB_NR_GAPS; i++) {
		u64 gap = (u64)calib_gap_us[i] * 1000;
		double share = kvm_halt_poll_steady_share(&g->hp, gap, (u64)fmax(unpolled, 0));
		bool flushed = flush && gap >= flush;

		last = extra + share * polled + (1 - share) * unpolled + (flushed ? refill : 0);
		fprintf(w->out,
			"#   wake.gap%uus: measured %.0f ns; model %.0f (%.0f%% polled%s)\n",
			calib_gap_us[i], v[i].diff.med, last, share * 100,
			flushed ? ", cache flushed" : "");
	}
	fprintf(w->out,
		"# the gaps the model does not follow: idle - busy past the %u us gap rises to\n"
		"#   %.0f ns at %u us, %.0f ns over the model (docs/guests.md, \"Measured\")\n"
		"# guest_host_poll_ns: not measured (the guest cannot see the host's\n"
		"#   halt_poll_ns): KVM's default stays\n",
		calib_gap_us[g->hp.allowed ? far : 0], v[CALIB_NR_GAPS - 1].diff.med,
		calib_gap_us[CALIB_NR_GAPS - 1], v[CALIB_NR_GAPS - 1].diff.med - last);
	fprintf(w->out,
		"# steal: %.2f%% of CPU time over the run (/proc/stat); a guest that steals\n"
		"#   runs with --guest kvm,steal=PCT (docs/guests.md), not with a cost\n",
		w->res->host.steal_pct);
}

static void write_host(FILE *out, const struct calib_result *res, const struct calib_run *r)
{
	const struct calib_host *h = &res->host;

	fprintf(out,
		"# A cost profile written by schedlab calibrate%s, %s (docs/calibration.md).\n",
		r->quick ? " --quick" : "", schedlab_version);
	fprintf(out, "# Load it with --costs FILE (run, ab, study, sweep); every value below says\n"
		     "# which microbenchmark it comes from and what was subtracted from what.\n");
	fprintf(out, "# date: %s\n", h->date);
	fprintf(out, "# cpu: %s\n", h->cpu);
	fprintf(out, "# kernel: %s\n", h->kernel);
	fprintf(out, "# virtualization: %s\n", h->virt);
	fprintf(out, "# cpus: %d online; SMT threads per core: %d\n", h->nr_cpus, h->smt);
	if (h->nr_idle) {
		fprintf(out,
			"# cpuidle: driver %s; states of the wakee's CPU (exit latency, entries during\n"
			"#   the idle-wakeup test):",
			h->idle_driver[0] ? h->idle_driver : "?");
		for (int s = 0; s < h->nr_idle; s++)
			fprintf(out, "%s %s %lu us %llu", s ? "," : "", h->idle_name[s],
				h->idle_exit_us[s], h->idle_usage[s]);
		fputc('\n', out);
	} else {
		fprintf(out, "# cpuidle: no idle states in sysfs (a VM often has none): the idle\n"
			     "#   wakeups below wake a CPU in the kernel's default idle loop\n");
	}
	fprintf(out,
		"# load: %.2f at the start, %.2f at the end, at most %.2f over %d samples\n"
		"#   (1-minute average, %d CPUs); steal %.1f%% of CPU time over the run\n",
		h->load_start, h->load_end, h->load_max, h->nr_load_samples, h->nr_cpus,
		h->steal_pct);
	if (h->busy)
		fprintf(out, "# busy: %s; the values are disturbed by other work\n", h->busy_why);
	fprintf(out,
		"# trials: %d per measurement after a warm-up, the median kept, [min, max] shown\n",
		r->trials);
	fprintf(out, "# not measured here, so the machine's own values stay: irq_entry, tick,\n"
		     "#   ipi_send, rq_lock, idle_enter (but in a guest that halts at once),\n"
		     "#   csd_entry, softirq, the rt_*, lb_*, probe_*, sugov/cpufreq costs,\n"
		     "#   llc_hit, mem_*, line_mlp and the cache sizes\n");
	fputs("[costs]\n", out);
}

/* @name from two measurements, both shown: (@a - @b) / @per */
static u64 diff_param(struct writer *w, const char *name, const char *a_name, enum calib_meas a,
		      const char *b_name, enum calib_meas b, double per)
{
	stat_line(w, a_name, a);
	stat_line(w, b_name, b);
	return param(w, name, (med(w, a) - med(w, b)) / per);
}

/* @skbs 100-byte skbs' lines (as the model counts them) in L2s of @r's L2 */
static double l2s(const struct calib_result *r, int skbs)
{
	return r->l2_bytes ? (double)skbs * skb_lines(100) * CL_BYTES / (double)r->l2_bytes : 0;
}

/*
 * skb_refill from the deep-queue probe at CALIB_DEEP_L2_TIMES L2s of skbs,
 * each side against the same side with the queue hot, the two averaged;
 * then the probe at each depth of the curve less the hot sides' mean
 */
static void deep_queue(struct writer *w)
{
	const struct calib_result *r = w->res;
	double hot = (med(w, M_UNIX_WRITE_100) + med(w, M_UNIX_READ_100)) / 2;
	int skbs = r->deep_sockets * CALIB_DEEP_PER_SOCKET;

	fprintf(w->out,
		"\n# skb_refill: 100-byte writes to %d unix sockets in turn, %d each, then\n"
		"#   all read (%d skbs in flight: their lines %.1f times the L2's %lu KiB):\n"
		"#   each side per message - the same side with the queue hot\n"
		"#   (unix.write.100, unix.read.100), the two averaged: one skb's lines\n"
		"#   refilled from beyond the L2, on its allocation or its read\n",
		r->deep_sockets, CALIB_DEEP_PER_SOCKET, skbs, l2s(r, skbs), r->l2_bytes / 1024);
	stat_line(w, "unix.write.deep", M_UNIX_WRITE_DEEP);
	stat_line(w, "unix.read.deep", M_UNIX_READ_DEEP);
	param(w, "skb_refill",
	      (med(w, M_UNIX_WRITE_DEEP) - med(w, M_UNIX_WRITE_100) + med(w, M_UNIX_READ_DEEP) -
	       med(w, M_UNIX_READ_100)) /
		      2);
	fputs("#   the same by depth in L2s (write and read averaged, less the hot pair's\n"
	      "#   mean): flat where the L2 has lost the skbs and the LLC holds them,\n"
	      "#   rising where they come from memory\n",
	      w->out);
	for (int i = 0; i < CALIB_NR_DEEP; i++) {
		const struct calib_stat *s = &r->deep_curve[i];
		int n = r->deep_curve_sockets[i] * CALIB_DEEP_PER_SOCKET;

		if (!s->n)
			continue;
		fprintf(w->out,
			"#   unix.deep.%dx %d skbs (%.1f L2s): refill %.0f ns [%.0f, %.0f], %d trials\n",
			calib_deep_l2_times[i], n, l2s(r, n), s->med - hot, s->min - hot,
			s->max - hot, s->n);
	}
}

void calib_write_profile(FILE *out, const struct calib_result *res, const struct calib_run *r)
{
	struct writer w = { .out = out, .res = res };
	struct cost_model *d = &w.def, *c = &w.cal;
	double s, copy100, x, sw1, msg4, cancel, fget, page;

	cost_model_default(d);
	cost_model_default(c);
	write_host(out, res, r);

	fprintf(out,
		"\n# syscall: getppid() in a loop, entry + exit with this kernel's mitigations\n");
	stat_line(&w, "syscall.getppid", M_SYSCALL);
	s = param(&w, "syscall", med(&w, M_SYSCALL));

	fprintf(out,
		"\n# cancel_point: (pipe write+read of 4 bytes once the process has created a\n"
		"#   thread - the same single-threaded) / 2 calls: glibc's cancellation point\n"
		"#   around each call of a threaded process\n");
	cancel = (double)diff_param(&w, "cancel_point", "pipe.msg.4.threaded", M_PIPE_MSG_4_MT,
				    "pipe.msg.4", M_PIPE_MSG_4, 2);
	fprintf(out,
		"\n# fget_shared: (the pair while another thread of the process lives - once\n"
		"#   it has created one) / 2 calls: fdget() with the files_struct shared takes\n"
		"#   a reference to the file, fdput() drops it\n");
	fget = (double)diff_param(&w, "fget_shared", "pipe.msg.4.live", M_PIPE_MSG_4_LIVE,
				  "pipe.msg.4.threaded", M_PIPE_MSG_4_MT, 2);

	fprintf(out,
		"\n# copy_ns_per_kb: (pipe write+read of 4096 bytes - of 4 bytes) / (2 x 4092 B):\n"
		"#   the kernel's copy in and out of a pipe, per KiB\n");
	diff_param(&w, "copy_ns_per_kb", "pipe.msg.4096", M_PIPE_MSG_4096, "pipe.msg.4",
		   M_PIPE_MSG_4, 2.0 * 4092.0 / 1024.0);
	copy100 = (double)cost_copy(c, 100);

	fprintf(out,
		"\n# pipe_write: one 100-byte write (batches of 16, no reader waiting) - syscall - copy\n");
	stat_line(&w, "pipe.write.100", M_PIPE_WRITE_100);
	param(&w, "pipe_write", med(&w, M_PIPE_WRITE_100) - s - copy100);
	fprintf(out, "\n# pipe_read: one 100-byte read of a non-empty pipe - syscall - copy\n");
	stat_line(&w, "pipe.read.100", M_PIPE_READ_100);
	param(&w, "pipe_read", med(&w, M_PIPE_READ_100) - s - copy100);

	fprintf(out,
		"\n# unix_write, skb_alloc, skb_queue: one 100-byte unix stream write (batches of\n"
		"#   16, no reader waiting) - syscall - copy\n");
	stat_line(&w, "unix.write.100", M_UNIX_WRITE_100);
	{
		static const char *const n[] = { "unix_write", "skb_alloc", "skb_queue" };
		const u64 dv[] = { d->unix_write, d->skb_alloc, d->skb_queue };

		split(&w, med(&w, M_UNIX_WRITE_100) - s - copy100, n, dv, 3);
	}
	fprintf(out,
		"\n# unix_read, skb_unlink, skb_free: one 100-byte read of a queued skb - syscall - copy\n");
	stat_line(&w, "unix.read.100", M_UNIX_READ_100);
	{
		static const char *const n[] = { "unix_read", "skb_unlink", "skb_free" };
		const u64 dv[] = { d->unix_read, d->skb_unlink, d->skb_free };

		split(&w, med(&w, M_UNIX_READ_100) - s - copy100, n, dv, 3);
	}
	fprintf(out,
		"\n# unix_skb_overhead (bytes): SIOCOUTQ after one unread 100-byte write (the\n"
		"#   skb's truesize, charged to the sender) - 100\n");
	fprintf(out, "#   unix.truesize.100 %.0f bytes\n", med(&w, M_UNIX_TRUESIZE_100));
	param(&w, "unix_skb_overhead", med(&w, M_UNIX_TRUESIZE_100) - 100);

	deep_queue(&w);

	fprintf(out,
		"\n# schedule, pick_next, context_switch, sched_yield: sched_yield() between two\n"
		"#   threads pinned to one CPU, time per context switch - syscall - rq_lock (%llu,\n"
		"#   the machine's: a user-space lock is not the kernel's irqsave one)\n",
		(unsigned long long)d->rq_lock);
	stat_line(&w, "yield.threads", M_YIELD_THREADS);
	{
		static const char *const n[] = { "schedule", "pick_next", "context_switch",
						 "sched_yield" };
		const u64 dv[] = { d->schedule, d->pick_next, d->context_switch, d->sched_yield };

		split(&w, med(&w, M_YIELD_THREADS) - s - (double)d->rq_lock, n, dv, 4);
	}
	sw1 = (double)(c->schedule + c->pick_next + c->context_switch + d->rq_lock);

	fprintf(out,
		"\n# switch_mm: (pipe ping-pong round trip on one CPU, two processes - two threads\n"
		"#   + the threads' 4 calls' fget_shared) / 2 switches (both pay cancel_point: the\n"
		"#   process is threaded and its child inherits glibc's flag); sched_yield() gives\n"
		"#   %.0f (processes - threads, per switch)\n",
		med(&w, M_YIELD_PROCS) - med(&w, M_YIELD_THREADS));
	stat_line(&w, "pipe.rt.processes", M_PIPE_RT_PROCS);
	stat_line(&w, "pipe.rt.threads", M_PIPE_RT_THREADS);
	fprintf(out, "#   a trial of each in turn, the pairs' differences:\n");
	stat_line(&w, "pipe.rt.processes-threads", M_PIPE_RT_PROCS_DIFF);
	stat_line(&w, "yield.processes", M_YIELD_PROCS);
	param(&w, "switch_mm", (med(&w, M_PIPE_RT_PROCS_DIFF) + 4 * fget) / 2);
	write_l1_refill(&w);

	if (med(&w, M_PIPE_RT_PERF3) > 0) {
		double one = med(&w, M_PIPE_RT_PERF1_DIFF) / 2;
		double each = med(&w, M_PIPE_RT_PERF3_DIFF) / 2 / 2;

		fprintf(out,
			"\n# perf_event_switch: pipe ping-pong round trip on one CPU, two threads, under\n"
			"#   perf stat's 3 inherited software counters - under 1, / 2 switches / 2 more\n"
			"#   counters\n");
		stat_line(&w, "pipe.rt.threads.perf3", M_PIPE_RT_PERF3);
		stat_line(&w, "pipe.rt.threads.perf1", M_PIPE_RT_PERF1);
		stat_line(&w, "pipe.rt.threads.perf3-perf1", M_PIPE_RT_PERF3_DIFF);
		param(&w, "perf_event_switch", each);
		fprintf(out,
			"\n# perf_ctx_switch: the same under 1 counter - without, / 2 switches - one\n"
			"#   perf_event_switch (%.0f per switch with 1 counter)\n",
			one);
		stat_line(&w, "pipe.rt.threads.perf1", M_PIPE_RT_PERF1);
		stat_line(&w, "pipe.rt.threads", M_PIPE_RT_THREADS);
		stat_line(&w, "pipe.rt.threads.perf1-none", M_PIPE_RT_PERF1_DIFF);
		param(&w, "perf_ctx_switch", one - each);
	} else {
		fprintf(out, "\n# perf_ctx_switch, perf_event_switch: not measured (perf_event_open()\n"
			     "#   refused: perf_event_paranoid, or no perf support)\n");
	}

	/* a write and a read of 4 bytes as the model charges them, between two live threads */
	msg4 = 2 * (s + cancel + fget) + (double)(c->pipe_write + c->pipe_read) +
	       2 * (double)cost_copy(c, 4);
	fprintf(out,
		"\n# ttwu, enqueue, dequeue, wake_walk: half a pipe round trip of two SCHED_BATCH\n"
		"#   threads on one CPU (write, wake the reader, block in read, switch; BATCH\n"
		"#   wakeups never preempt, so every round trip takes this path: the writer was\n"
		"#   preempted in %.1f%% of them) - the write and the read as modelled (2 x\n"
		"#   (syscall + cancel_point + fget_shared) + pipe_write + pipe_read + copies =\n"
		"#   %.0f; a pair that never blocks took %.0f) - one switch (schedule + pick_next +\n"
		"#   context_switch + rq_lock = %.0f) - the read that finds the pipe empty\n"
		"#   (pipe_read) - rq_lock: so the model's round trip of that path is the one\n"
		"#   measured\n",
		med(&w, M_PIPE_RT_BATCH_PREEMPT), msg4, med(&w, M_PIPE_MSG_4_LIVE), sw1);
	stat_line(&w, "pipe.rt.threads", M_PIPE_RT_THREADS);
	{
		static const char *const n[] = { "ttwu", "enqueue", "dequeue", "wake_walk" };
		const u64 dv[] = { d->ttwu, d->enqueue, d->dequeue, d->wake_walk };

		x = med(&w, M_PIPE_RT_THREADS) / 2 - msg4 - sw1 - (double)c->pipe_read -
		    (double)d->rq_lock;
		split(&w, x, n, dv, 4);
	}
	if (w.res->m[M_PIPE_RT_OTHER].n) {
		fprintf(out,
			"#   the same ping-pong as SCHED_OTHER, for comparison: the kernel's wakeup\n"
			"#   preemption; a preempted writer finds its reply waiting and does not block,\n"
			"#   so such a round trip has one wakeup and one empty read instead of two\n"
			"#   (docs/calibration.md); the writer was preempted in %.1f%% of round trips:\n",
			med(&w, M_PIPE_RT_OTHER_PREEMPT));
		stat_line(&w, "pipe.rt.threads.other", M_PIPE_RT_OTHER);
	}

	fprintf(out,
		"\n# futex_wake: FUTEX_WAKE with no waiter (key, hash bucket, no match) - syscall\n");
	stat_line(&w, "futex.wake.nowaiter", M_FUTEX_WAKE_NONE);
	param(&w, "futex_wake", med(&w, M_FUTEX_WAKE_NONE) - s);
	fprintf(out,
		"\n# futex_wait: FUTEX_WAIT on a word that no longer holds the value (key, hash\n"
		"#   bucket lock, value check; returns EAGAIN before queueing) - syscall\n");
	stat_line(&w, "futex.wait.eagain", M_FUTEX_WAIT_EAGAIN);
	param(&w, "futex_wait", med(&w, M_FUTEX_WAIT_EAGAIN) - s);
	fprintf(out, "#   futex ping-pong on one CPU for comparison: ");
	spread(out, "futex.rt", &res->m[M_FUTEX_RT], "ns per round trip");
	fputc('\n', out);

	fprintf(out, "\n# fork: fork() in the parent, from the call to its return (copy_process,\n"
		     "#   wake_up_new_task) - syscall\n");
	stat_line(&w, "fork.call", M_FORK_CALL);
	param(&w, "fork", med(&w, M_FORK_CALL) - s);
	fprintf(out,
		"\n# exit: fork + child _exit(0) + waitpid - the fork() call - syscall and\n"
		"#   cancel_point (waitpid, in this threaded process) - two switches (with\n"
		"#   switch_mm) - the parent's wakeup (ttwu, enqueue, dequeue, wake_walk)\n");
	stat_line(&w, "fork.exit.wait", M_FORK_EXIT_WAIT);
	x = med(&w, M_FORK_EXIT_WAIT) - med(&w, M_FORK_CALL) - s - cancel -
	    2 * (sw1 + (double)c->switch_mm) -
	    (double)(c->ttwu + c->enqueue + c->dequeue + c->wake_walk);
	page = (med(&w, M_EXIT_WAIT_IMAGE) - med(&w, M_EXIT_WAIT_BASE)) / CALIB_IMAGE_PAGES;
	if (res->probe_pages > 0 && page > 0) {
		fprintf(out,
			"#   - exit_page x the %ld anonymous pages this process had resident (its\n"
			"#   child's image): %.0f ns, so that exit is a process with no image of its own\n",
			res->probe_pages, page * (double)res->probe_pages);
		x -= page * (double)res->probe_pages;
	}
	param(&w, "exit", x);
	fprintf(out,
		"\n# exit_page: a forked child's exit by the pages it maps (zap_pte_range(), the\n"
		"#   rmap and reference drops of pages shared with its parent, page tables):\n"
		"#   a child blocked on a pipe, released and reaped, with %d more anonymous pages\n"
		"#   its parent wrote before the fork and without; the difference / %d\n",
		CALIB_IMAGE_PAGES, CALIB_IMAGE_PAGES);
	stat_line(&w, "exit.wait.base", M_EXIT_WAIT_BASE);
	stat_line(&w, "exit.wait.image", M_EXIT_WAIT_IMAGE);
	param(&w, "exit_page", page);
	fprintf(out,
		"# fork() of that image (fork.call.image - fork.call) / %d: %.1f ns a page;\n"
		"#   no parameter: the modelled tools fork before their timed part\n",
		CALIB_IMAGE_PAGES,
		(med(&w, M_FORK_CALL_IMAGE) - med(&w, M_FORK_CALL)) / CALIB_IMAGE_PAGES);
	stat_line(&w, "fork.call.image", M_FORK_CALL_IMAGE);
	fprintf(out,
		"\n# page_fault: a forked child's first write to one of those pages (a\n"
		"#   copy-on-write fault: a page allocated and copied, the PTE made writable),\n"
		"#   %d pages a trial on the child's own CPU clock\n",
		CALIB_COW_PAGES);
	stat_line(&w, "cow.fault", M_COW_FAULT);
	param(&w, "page_fault", med(&w, M_COW_FAULT));
	fprintf(out,
		"\n# fork_thread: pthread_create() in the creator, to its return (clone of a thread;\n"
		"#   glibc reuses the stack) - syscall\n");
	stat_line(&w, "thread.create", M_THREAD_CREATE);
	stat_line(&w, "thread.create.join", M_THREAD_CREATE_JOIN);
	param(&w, "fork_thread", med(&w, M_THREAD_CREATE) - s);
	fprintf(out,
		"# exec of %s (fork + exec + exit + waitpid - fork + exit + waitpid): %.0f ns;\n"
		"#   no parameter: the modelled benchmarks do not exec\n",
		res->exec_what, med(&w, M_EXEC) - med(&w, M_FORK_EXIT_WAIT));
	stat_line(&w, "fork.exec.wait", M_EXEC);
	fprintf(out,
		"# lock.uncontended %.1f ns (a user-space spinlock in L1; rq_lock adds the IRQ\n"
		"#   flag save/restore user space cannot execute, so it is not set from this)\n",
		med(&w, M_LOCK));

	fprintf(out,
		"\n# exec_variation_ppm: one 1-byte pipe write (and one read) on CPU 0, timed in\n"
		"#   batches of 8: the batches' Allan deviation (root of half the mean square of\n"
		"#   consecutive batches' differences, the largest 1%% trimmed and made up for,\n"
		"#   the clock step's share off) x sqrt 8 / the median batch: one operation's\n"
		"#   relative SD in ppm; write and read averaged\n");
	fputs("#   ", out);
	spread(out, "variation.pipe.write", &res->m[M_VARIATION_WRITE], "ppm");
	fputs("\n#   ", out);
	spread(out, "variation.pipe.read", &res->m[M_VARIATION_READ], "ppm");
	fputc('\n', out);
	param(&w, "exec_variation_ppm",
	      (med(&w, M_VARIATION_WRITE) + med(&w, M_VARIATION_READ)) / 2);

	for (int dd = DIST_SMT; dd < NR_DIST; dd++) {
		const struct calib_pair *p = &res->pair[dd];
		char name[48];
		double rest;

		if (p->a < 0)
			continue;
		fprintf(out,
			"\n# cacheline.%s: compare-and-swap ping-pong between CPUs %d and %d (%s),\n"
			"#   round trip / 2: one modified line's transfer\n",
			cpu_dist_names[dd], p->a, p->b, cpu_dist_names[dd]);
		fputs("#   ", out);
		spread(out, "cas", &p->line, "ns");
		fputc('\n', out);
		snprintf(name, sizeof(name), "cacheline.%s", cpu_dist_names[dd]);
		param(&w, name, p->line.med);

		/*
		 * in a guest, the first pair's IPI also pays its VM exits
		 * (measured once): the sender's, and the receiver's without
		 * posted interrupts; on bare metal the receiver's stretch is a
		 * comment
		 */
		if (p == calib_first_pair(res)) {
			if (res->guest.kvm)
				write_guest_ipi_exit(&w, p);
			write_ipi_recv(&w, p);
		}
		rest = (double)(c->futex_wake + c->ttwu + c->enqueue + d->rq_lock + c->wake_walk +
				d->ipi_send + c->guest_ipi_exit + d->irq_entry +
				c->guest_ipi_recv_exit) +
		       sw1 - (double)d->rq_lock;
		fprintf(out,
			"\n# ipi_latency.%s: FUTEX_WAKE on CPU %d to the wakee running on CPU %d, which a\n"
			"#   SCHED_IDLE spinner keeps busy (an IPI, no idle exit), median of the\n"
			"#   wakeups - futex_wake - ttwu - enqueue - rq_lock - wake_walk - ipi_send -\n"
			"#   guest_ipi_exit and guest_ipi_recv_exit (in a guest) - irq_entry - one\n"
			"#   switch = %.0f ns subtracted\n",
			cpu_dist_names[dd], p->a, p->b, rest);
		fputs("#   ", out);
		spread(out, "wake.busy", &p->wake_busy, "ns");
		fputc('\n', out);
		snprintf(name, sizeof(name), "ipi_latency.%s", cpu_dist_names[dd]);
		param(&w, name, p->wake_busy.med - rest);
	}
	{
		const struct calib_pair *p = calib_first_pair(res);
		const struct calib_host *h = &res->host;
		unsigned long long most = 0;
		double exit_us = 0, timer_exit;
		int st = -1;

		for (int i = 0; i < h->nr_idle; i++)
			if (h->idle_usage[i] > most) {
				most = h->idle_usage[i];
				st = i;
			}
		if (st >= 0)
			exit_us = (double)h->idle_exit_us[st];
		timer_exit = write_timer(&w);
		if (p && res->guest.kvm) {
			fprintf(out,
				"\n# idle_exit: not set in a KVM guest, the machine's stays: the idle wakeup's\n"
				"#   VM part is guest_wakeup and guest_wakeup_polled below, which -m host\n"
				"#   charges beside it\n");
			fputs("#   ", out);
			spread(out, "wake.idle", &p->wake_idle, "ns");
			fputc('\n', out);
			write_window(&w, timer_exit);
			write_guest_wakeups(&w, p, exit_us, timer_exit);
		} else if (p) {
			fprintf(out,
				"\n# idle_exit: the same wakeup to an idle CPU - to a busy one - the exit\n"
				"#   latency of the idle state entered most during the test (%s, %.0f us,\n"
				"#   which -m host charges from sysfs apart from this): the way out of idle\n"
				"#   as seen, on a VM with the halt's VM exit and the vCPU's wakeup in it\n",
				st >= 0 ? h->idle_name[st] :
				h->nr_idle ?
					  "none entered: the CPU did not go idle, a busy machine" :
					  "no cpuidle states",
				exit_us);
			fputs("#   ", out);
			spread(out, "wake.idle", &p->wake_idle, "ns");
			fputc('\n', out);
			param(&w, "idle_exit",
			      p->wake_idle.med - p->wake_busy.med - exit_us * 1000);
			write_flush(&w, false);
		} else {
			fprintf(out,
				"\n# one CPU: no cache-line transfer, IPI or idle wakeup to measure\n");
		}
	}
	if (res->host.smt > 1) {
		fprintf(out,
			"\n# smt_speed.K: K threads of one core (CPU 0's siblings) each running an integer\n"
			"#   loop for a fixed time: iterations per thread against one thread alone, permille\n");
		for (int k = 1; k <= res->host.smt && k <= CALIB_MAX_SMT; k++) {
			char name[32];

			snprintf(name, sizeof(name), "smt_speed.%d", k);
			fputs("#   ", out);
			spread(out, name, &res->smt_speed[k - 1], "permille");
			fputc('\n', out);
			param(&w, name, k == 1 ? 1000 : res->smt_speed[k - 1].med);
		}
	} else {
		fprintf(out,
			"\n# no SMT on this host (one thread per core): smt_speed.* not measured\n");
	}
}
