// SPDX-License-Identifier: GPL-2.0-only
/*
 * The [guest] section of a machine file (docs/guests.md): the machine is a
 * KVM guest on the hardware the rest of the file describes.
 *
 *   hypervisor = kvm
 *   cpuidle = hlt | haltpoll       the guest's idle: no cpuidle driver (HLT), or
 *                                  cpuidle-haltpoll and its governor
 *   ipi_virtualization = yes | no  IPIv / AVIC: IPIs are sent without a VM exit
 *   steal = PCT[:PERIOD_US]        the host deschedules each busy vCPU for PCT
 *                                  percent of its time, once a period (steal.c)
 *   guest_halt_poll_ns = NS        the haltpoll governor's module parameter
 *   guest_halt_flush_ns = NS       a halt this long empties the vCPU's private
 *                                  cache (the cost model's guest_halt_flush_ns)
 *   host_halt_poll_ns_grow, _grow_start, _shrink = N, host_poll_control = yes | no
 *                                  the host's halt polling (sim/halt_poll.c)
 *   host_posted_interrupts = yes | no  APICv / AVIC: a running vCPU takes an
 *                                  IPI without a VM exit (no: guest_ipi_recv_exit)
 *   source = ...
 *
 * The run option --guest says the same in one word (guest_parse_option()):
 * none, or kvm[:hlt|:haltpoll][,ipiv][,steal=PCT[:PERIOD_US]][,guest_halt_poll_ns=NS].
 *
 * A guest does not see the host's C-states: its idle states are HLT (the
 * halt exits to the host) or, with cpuidle-haltpoll, a polling state and
 * HLT; they replace the file's [idle.K]. The hypervisor's costs are the
 * cost model's guest_* parameters; those the file's [costs] leave at 0 get
 * the estimates below (their derivations: docs/guests.md).
 */
#include "topo/machine_guest.h"

#include "topo/machine_section.h"

#include <stdlib.h>
#include <string.h>

const char *const guest_cpuidle_names[2] = { "hlt", "haltpoll" };

/*
 * The host's halt polling, KVM's defaults (virt/kvm/kvm_main.c, v6.18:
 * module parameters halt_poll_ns_grow 2, halt_poll_ns_grow_start 10000,
 * halt_poll_ns_shrink 2), and KVM_FEATURE_POLL_CONTROL, which KVM has
 * offered since v5.4 (arch/x86/kvm/cpuid.c; Documentation/virt/kvm/x86/msr.rst)
 */
const struct guest_host_param_desc guest_host_params[NR_GUEST_HOST_PARAMS] = {
	[GUEST_HOST_POLL_GROW] = { "host_halt_poll_ns_grow", 2, false },
	[GUEST_HOST_POLL_GROW_START] = { "host_halt_poll_ns_grow_start", 10000, false },
	[GUEST_HOST_POLL_SHRINK] = { "host_halt_poll_ns_shrink", 2, false },
	[GUEST_HOST_POLL_CONTROL] = { "host_poll_control", 1, true },
	/* no default: whether and when a host flushes a vCPU's caches is its own (docs/guests.md) */
	[GUEST_HALT_FLUSH] = { "guest_halt_flush_ns", 0, false },
	/* APICv on every Intel server since Ivy Bridge-EP; AVIC is a kvm_amd option */
	[GUEST_POSTED_INTR] = { "host_posted_interrupts", 1, true },
};

/* estimates for a KVM guest on a current x86 server (docs/guests.md) */
#define KVM_IPI_EXIT_NS 500 /* ICR write handled in KVM's exit fastpath */
#define KVM_IPI_RECV_EXIT_NS 700 /* an EXTERNAL_INTERRUPT exit, the injection, the entry */
#define KVM_TIMER_EXIT_NS 500 /* TSC deadline MSR write, the same fastpath */
#define KVM_WAKEUP_POLLED_NS 800 /* woken inside the host's halt-poll window */
#define KVM_WAKEUP_NS 5000 /* the vCPU thread scheduled in again on the host */
#define KVM_HALT_POLL_NS 200000 /* KVM_HALT_POLL_NS_DEFAULT on x86 */

/* cpuidle-haltpoll's halt state: exit latency and target residency 1 us */
#define HALTPOLL_HALT_NS 1000

/*
 * Steal: at most 90%, past which a vCPU makes almost no progress and a run
 * takes ten times its length; the period from 100 us (a host's shortest
 * useful slice, well above a context switch) to 1 s (HZ=1 worth of host
 * ticks). The default period, 10 ms, is about three host EEVDF slices
 * (base_slice 0.75 ms * (1 + ilog2(8)) = 3 ms on a host of 8 or more CPUs):
 * a vCPU sharing its pCPU with other runnable threads is preempted about
 * that often (docs/guests.md, "Steal time").
 */
#define STEAL_MAX_PPM 900000
#define STEAL_PPM_PER_PCT 10000
#define STEAL_PERIOD_MIN_US 100
#define STEAL_PERIOD_MAX_US 1000000
#define STEAL_PERIOD_DEFAULT_US 10000

/* guest_halt_poll_ns is a uint module parameter */
#define HALT_POLL_NS_MAX 4294967295ULL

enum { F_HYPERVISOR, F_CPUIDLE, F_IPIV, F_STEAL, F_HALT_POLL, F_HOST };

/* guest_halt_poll_ns = NS into @d. 0, or -1 with a message. */
static int parse_halt_poll(const char *v, struct guest_desc *d, char *err, size_t errlen)
{
	char *end;
	unsigned long long ns = strtoull(v, &end, 10);

	if (*v < '0' || *v > '9' || *end || ns > HALT_POLL_NS_MAX) {
		snprintf(err, errlen,
			 "guest_halt_poll_ns: '%.40s' is not a number of ns from 0 to %llu", v,
			 HALT_POLL_NS_MAX);
		return -1;
	}
	d->halt_poll_given = true;
	d->halt_poll_ns = ns;
	return 0;
}

/* host parameter @i = @v into @d (KVM's module parameters are uints). 0, or -1 with a message. */
static int parse_host_param(enum guest_host_param i, const char *v, struct guest_desc *d, char *err,
			    size_t errlen)
{
	const struct guest_host_param_desc *p = &guest_host_params[i];
	unsigned long long n;
	char *end;

	if (p->yes_no) {
		bool yes;

		if (mf_yes_no(p->key, v, &yes, err, errlen))
			return -1;
		n = yes;
	} else {
		n = strtoull(v, &end, 10);
		if (*v < '0' || *v > '9' || *end || n > HALT_POLL_NS_MAX) {
			snprintf(err, errlen, "%s: '%.40s' is not a number from 0 to %llu", p->key,
				 v, HALT_POLL_NS_MAX);
			return -1;
		}
	}
	d->host_given |= 1u << i;
	d->host[i] = (u32)n;
	return 0;
}

/* @key=@v if @key is a host parameter's: 0 or -1 as parse_host_param(); 1 if it is not one */
static int host_param_item(const char *key, const char *v, struct guest_desc *d, char *err,
			   size_t errlen)
{
	for (int i = 0; i < NR_GUEST_HOST_PARAMS; i++)
		if (!strcmp(key, guest_host_params[i].key))
			return parse_host_param((enum guest_host_param)i, v, d, err, errlen);
	return 1;
}

/* guest_halt_poll_ns is the haltpoll governor's: without it, it would be said for nothing */
static int check_halt_poll(const struct guest_desc *d, char *err, size_t errlen)
{
	if (d->halt_poll_given && d->cpuidle != GUEST_IDLE_HALTPOLL) {
		snprintf(
			err, errlen,
			"guest_halt_poll_ns is the haltpoll governor's: it needs cpuidle haltpoll");
		return -1;
	}
	return 0;
}

/* PCT with up to four decimals, in ppm; -1 if it is not such a number */
static long long parse_pct_ppm(const char *s, const char **end)
{
	long long ppm = 0;
	int digits = 0, decimals = -1;

	for (; *s; s++) {
		if (*s == '.' && decimals < 0 && digits) {
			decimals = 0;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		if (decimals >= 4 || ++digits > 3)
			return -1;
		ppm = ppm * 10 + (*s - '0');
		if (decimals >= 0)
			decimals++;
	}
	if (!digits || decimals == 0)
		return -1;
	for (int i = decimals < 0 ? 0 : decimals; i < 4; i++)
		ppm *= 10;
	*end = s;
	return ppm;
}

int guest_parse_steal(const char *v, struct guest_desc *d, char *err, size_t errlen)
{
	const char *p = v;
	long long ppm = parse_pct_ppm(v, &p);
	unsigned long long period = STEAL_PERIOD_DEFAULT_US;

	if (ppm < 0 || (*p && *p != ':')) {
		snprintf(
			err, errlen,
			"steal: '%.40s' is not PCT[:PERIOD_US] (a percentage such as 5 or 2.5, then optionally ':' and the period in microseconds)",
			v);
		return -1;
	}
	if (ppm > STEAL_MAX_PPM) {
		snprintf(err, errlen, "steal: %.40s%% is more than %d%% of a vCPU's time", v,
			 STEAL_MAX_PPM / STEAL_PPM_PER_PCT);
		return -1;
	}
	if (*p == ':') {
		char *e;

		period = strtoull(p + 1, &e, 10);
		if (p[1] < '0' || p[1] > '9' || *e || period < STEAL_PERIOD_MIN_US ||
		    period > STEAL_PERIOD_MAX_US) {
			snprintf(err, errlen,
				 "steal: the period '%.40s' is not %d to %d microseconds", p + 1,
				 STEAL_PERIOD_MIN_US, STEAL_PERIOD_MAX_US);
			return -1;
		}
	}
	d->steal_ppm = (u32)ppm;
	d->steal_period_ns = ppm ? period * NSEC_PER_USEC : 0;
	return 0;
}

int mf_guest_line(struct mf_guest *g, struct guest_desc *d, const struct mf_line *l, char *err,
		  size_t errlen)
{
	static const char *const keys[] = { "hypervisor",
					    "cpuidle",
					    "ipi_virtualization",
					    "steal",
					    "guest_halt_poll_ns",
					    "host_halt_poll_ns_grow",
					    "host_halt_poll_ns_grow_start",
					    "host_halt_poll_ns_shrink",
					    "host_poll_control",
					    "guest_halt_flush_ns",
					    "host_posted_interrupts" };
	int f;

	if (!strcmp(l->key, "source"))
		return mf_append_source(d->source, sizeof(d->source), l->value, err, errlen);
	f = mf_section_key(l, keys, F_HOST + NR_GUEST_HOST_PARAMS, &g->fields, err, errlen);
	if (f >= F_HOST)
		return parse_host_param((enum guest_host_param)(f - F_HOST), l->value, d, err,
					errlen);
	switch (f) {
	case F_HYPERVISOR:
		if (strcmp(l->value, "kvm")) {
			snprintf(err, errlen, "hypervisor: '%.40s' is not one of kvm", l->value);
			return -1;
		}
		d->kvm = true;
		return 0;
	case F_CPUIDLE:
		for (int i = 0; i < 2; i++) {
			if (!strcmp(l->value, guest_cpuidle_names[i])) {
				d->cpuidle = (enum guest_cpuidle)i;
				return 0;
			}
		}
		snprintf(err, errlen, "cpuidle: '%.40s' is not one of hlt haltpoll", l->value);
		return -1;
	case F_IPIV:
		return mf_yes_no(l->key, l->value, &d->ipi_virtualization, err, errlen);
	case F_STEAL:
		return guest_parse_steal(l->value, d, err, errlen);
	case F_HALT_POLL:
		return parse_halt_poll(l->value, d, err, errlen);
	default:
		return -1;
	}
}

static void set_state(struct idle_state *st, const char *name, u64 ns, bool polls)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	st->exit_latency_ns = ns;
	st->target_residency_ns = ns;
	st->polls = polls;
}

static void default_cost(u64 *v, u64 estimate)
{
	if (!*v)
		*v = estimate;
}

/* what the machine was before it became a guest, once */
static void save_base(struct topology *t)
{
	struct guest_base *b = &t->guest_base;

	if (b->saved)
		return;
	b->saved = true;
	b->nr_idle_states = t->nr_idle_states;
	memcpy(b->idle_states, t->idle_states, sizeof(b->idle_states));
	b->ipi_exit = t->cost.guest_ipi_exit;
	b->ipi_recv_exit = t->cost.guest_ipi_recv_exit;
	b->timer_exit = t->cost.guest_timer_exit;
	b->wakeup_polled = t->cost.guest_wakeup_polled;
	b->wakeup = t->cost.guest_wakeup;
	b->host_poll_ns = t->cost.guest_host_poll_ns;
	b->halt_flush_ns = t->cost.guest_halt_flush_ns;
}

static void restore_base(struct topology *t)
{
	const struct guest_base *b = &t->guest_base;

	t->nr_idle_states = b->nr_idle_states;
	memcpy(t->idle_states, b->idle_states, sizeof(t->idle_states));
	t->cost.guest_ipi_exit = b->ipi_exit;
	t->cost.guest_ipi_recv_exit = b->ipi_recv_exit;
	t->cost.guest_timer_exit = b->timer_exit;
	t->cost.guest_wakeup_polled = b->wakeup_polled;
	t->cost.guest_wakeup = b->wakeup;
	t->cost.guest_host_poll_ns = b->host_poll_ns;
	t->cost.guest_halt_flush_ns = b->halt_flush_ns;
}

void guest_apply(struct topology *t)
{
	struct cost_model *c = &t->cost;

	save_base(t);
	if (t->guest.cpuidle == GUEST_IDLE_HALTPOLL) {
		set_state(&t->idle_states[0], "POLL", 0, true);
		set_state(&t->idle_states[1], "haltpoll", HALTPOLL_HALT_NS, false);
		t->nr_idle_states = 2;
	} else {
		set_state(&t->idle_states[0], "HLT", 0, false);
		t->nr_idle_states = 1;
	}
	guest_default_costs(c, t->guest.ipi_virtualization);
	/* with posted interrupts a running vCPU takes an IPI in the guest: no estimate */
	if (!guest_host_param(&t->guest, GUEST_POSTED_INTR))
		default_cost(&c->guest_ipi_recv_exit, KVM_IPI_RECV_EXIT_NS);
	if (t->guest.host_given & (1u << GUEST_HALT_FLUSH))
		c->guest_halt_flush_ns = t->guest.host[GUEST_HALT_FLUSH];
}

void guest_default_costs(struct cost_model *c, bool ipi_virtualization)
{
	if (!ipi_virtualization)
		default_cost(&c->guest_ipi_exit, KVM_IPI_EXIT_NS);
	default_cost(&c->guest_timer_exit, KVM_TIMER_EXIT_NS);
	default_cost(&c->guest_wakeup_polled, KVM_WAKEUP_POLLED_NS);
	default_cost(&c->guest_wakeup, KVM_WAKEUP_NS);
	default_cost(&c->guest_host_poll_ns, KVM_HALT_POLL_NS);
}

int guest_parse_option(const char *arg, struct guest_desc *d, char *err, size_t errlen)
{
	char buf[128], msg[256], *item, *save = NULL;
	const char *v = arg;

	memset(d, 0, sizeof(*d));
	if (!strcmp(arg, "none"))
		return 0;
	if (strncmp(v, "kvm", 3) || (v[3] && v[3] != ':' && v[3] != ',')) {
		snprintf(
			err, errlen,
			"--guest: '%.60s' is not none or kvm[:hlt|:haltpoll][,ipiv][,steal=PCT[:PERIOD_US]]",
			arg);
		return -1;
	}
	d->kvm = true;
	v += 3;
	if (*v == ':') {
		size_t n = strcspn(v + 1, ",");
		bool known = false;

		for (int i = 0; i < 2; i++) {
			if (strlen(guest_cpuidle_names[i]) == n &&
			    !strncmp(v + 1, guest_cpuidle_names[i], n)) {
				d->cpuidle = (enum guest_cpuidle)i;
				known = true;
			}
		}
		if (!known) {
			snprintf(err, errlen, "--guest: cpuidle '%.*s' is not one of hlt haltpoll",
				 (int)(n > 40 ? 40 : n), v + 1);
			return -1;
		}
		v += 1 + n;
	}
	if (!*v)
		return 0;
	if (strlen(v) >= sizeof(buf)) {
		snprintf(err, errlen, "--guest: '%.60s...' is too long", arg);
		return -1;
	}
	/* v is ",..." */
	snprintf(buf, sizeof(buf), "%s", v + 1);
	if (!buf[0] || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,")) {
		snprintf(err, errlen, "--guest: '%.60s' has an empty item between commas", arg);
		return -1;
	}
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (!strcmp(item, "ipiv")) {
			d->ipi_virtualization = true;
		} else if (!strncmp(item, "steal=", 6)) {
			if (guest_parse_steal(item + 6, d, msg, sizeof(msg))) {
				snprintf(err, errlen, "--guest: %s", msg);
				return -1;
			}
		} else if (!strncmp(item, "guest_halt_poll_ns=", 19)) {
			if (parse_halt_poll(item + 19, d, msg, sizeof(msg))) {
				snprintf(err, errlen, "--guest: %s", msg);
				return -1;
			}
		} else {
			char *eq = strchr(item, '=');
			int r = 1;

			if (eq) {
				*eq = '\0';
				r = host_param_item(item, eq + 1, d, msg, sizeof(msg));
				*eq = '=';
			}
			if (r < 0) {
				snprintf(err, errlen, "--guest: %s", msg);
				return -1;
			}
			if (r > 0) {
				snprintf(
					err, errlen,
					"--guest: unknown item '%.40s' (ipiv, steal=PCT[:PERIOD_US], guest_halt_poll_ns=NS, guest_halt_flush_ns=NS or host_*=V, docs/guests.md)",
					item);
				return -1;
			}
		}
	}
	if (check_halt_poll(d, msg, sizeof(msg))) {
		snprintf(err, errlen, "--guest: %s", msg);
		return -1;
	}
	return 0;
}

/* -m host's note that the machine is a guest, with its "; " before or after */
static void drop_kvm_approximation(struct topology *t)
{
	char *a = t->approximations, *at = strstr(a, kvm_approximation);
	size_t n = strlen(kvm_approximation);

	if (!at)
		return;
	if (at >= a + 2 && !strncmp(at - 2, "; ", 2)) {
		at -= 2;
		n += 2;
	} else if (!strncmp(at + n, "; ", 2)) {
		n += 2;
	}
	memmove(at, at + n, strlen(at + n) + 1);
}

int topology_set_guest(struct topology *t, const struct guest_desc *d, char *err, size_t errlen)
{
	if (t->guest_base.saved)
		restore_base(t);
	if (!d->kvm && t->guest.kvm && !t->nr_idle_states) {
		snprintf(
			err, errlen,
			"--guest none: machine '%s' has no idle states of its own ([idle.K]) to run as bare metal",
			t->name);
		return -1;
	}
	t->guest = *d;
	if (d->kvm)
		guest_apply(t);
	else
		drop_kvm_approximation(t);
	return 0;
}

int topology_guest_option(struct topology *t, const char *spec, char *err, size_t errlen)
{
	struct guest_desc d;

	if (guest_parse_option(spec, &d, err, errlen))
		return -1;
	return topology_set_guest(t, &d, err, errlen);
}

void guest_format(const struct guest_desc *d, char *buf, size_t len)
{
	int n;

	if (!d->kvm) {
		snprintf(buf, len, "none");
		return;
	}
	n = snprintf(buf, len, "kvm:%s%s", guest_cpuidle_names[d->cpuidle],
		     d->ipi_virtualization ? ",ipiv" : "");
	if (d->steal_ppm && n > 0 && (size_t)n < len) {
		char steal[64];

		guest_format_steal(d, steal, sizeof(steal));
		n += snprintf(buf + n, len - (size_t)n, ",steal=%s", steal);
	}
	if (d->halt_poll_given && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ",guest_halt_poll_ns=%llu",
			      (unsigned long long)d->halt_poll_ns);
	for (int i = 0; i < NR_GUEST_HOST_PARAMS; i++) {
		char v[16];

		if (!(d->host_given & (1u << i)) || n <= 0 || (size_t)n >= len)
			continue;
		guest_format_host_param(d, (enum guest_host_param)i, v, sizeof(v));
		n += snprintf(buf + n, len - (size_t)n, ",%s=%s", guest_host_params[i].key, v);
	}
}

void guest_print_host_params(FILE *out, const struct guest_desc *d, const char *fmt)
{
	for (int i = 0; i < NR_GUEST_HOST_PARAMS; i++) {
		char v[16];

		if (!(d->host_given & (1u << i)))
			continue;
		guest_format_host_param(d, (enum guest_host_param)i, v, sizeof(v));
		fprintf(out, fmt, guest_host_params[i].key, v);
	}
}

void guest_format_host_param(const struct guest_desc *d, enum guest_host_param i, char *buf,
			     size_t len)
{
	u32 v = guest_host_param(d, i);

	if (guest_host_params[i].yes_no)
		snprintf(buf, len, "%s", v ? "yes" : "no");
	else
		snprintf(buf, len, "%u", v);
}

void guest_format_steal(const struct guest_desc *d, char *buf, size_t len)
{
	unsigned int frac = d->steal_ppm % STEAL_PPM_PER_PCT;
	int digits = 4;

	/* the percentage as given: no trailing zeros */
	if (!frac) {
		snprintf(buf, len, "%u:%llu", d->steal_ppm / STEAL_PPM_PER_PCT,
			 (unsigned long long)(d->steal_period_ns / NSEC_PER_USEC));
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%u.%0*u:%llu", d->steal_ppm / STEAL_PPM_PER_PCT, digits, frac,
		 (unsigned long long)(d->steal_period_ns / NSEC_PER_USEC));
}

int mf_guest_finish(struct mf_guest *g, struct topology *t, const char *file, char *err,
		    size_t errlen)
{
	if (!g->line)
		return 0;
	if (!(g->fields & (1u << F_HYPERVISOR))) {
		snprintf(err, errlen, "%s:%u: [guest] needs hypervisor = kvm", file, g->line);
		return -1;
	}
	if (check_halt_poll(&t->guest, err, errlen)) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, errlen, "%s:%u: [guest] %s", file, g->line, msg);
		return -1;
	}
	guest_apply(t);
	return 0;
}
