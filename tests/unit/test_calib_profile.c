// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab calibrate's profile writer on made-up measurements: the profile
 * reads back with --costs's parser, every value line follows a comment, and
 * the derivations subtract what docs/calibration.md says they do.
 */
#include "test_util.h"

#include "calib/calib.h"
#include "cli/session.h"
#include "topo/cost_profile.h"
#include "sim/cache.h"
#include "sim/cost.h"
#include "sim/prng.h"
#include "topo/machine_file.h"
#include "topo/machine_guest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct calib_stat st(double v)
{
	return (struct calib_stat){ .med = v, .min = v * 0.9, .max = v * 1.2, .n = 5 };
}

static void fake(struct calib_result *r, bool smt)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->host.date, sizeof(r->host.date), "2026-12-06T00:00:00Z");
	snprintf(r->host.cpu, sizeof(r->host.cpu), "Test CPU");
	snprintf(r->host.virt, sizeof(r->host.virt), "kvm");
	r->host.nr_cpus = 4;
	r->host.busy = true;
	snprintf(r->host.busy_why, sizeof(r->host.busy_why), "load 3");
	r->host.smt = smt ? 2 : 1;
	r->m[M_SYSCALL] = st(70);
	r->m[M_PIPE_MSG_4] = st(317);
	r->m[M_PIPE_MSG_4_MT] = st(365);
	r->m[M_PIPE_MSG_4_LIVE] = st(383);
	r->m[M_PIPE_MSG_4096] = st(377);
	r->m[M_PIPE_WRITE_100] = st(143);
	r->m[M_PIPE_READ_100] = st(145);
	r->m[M_UNIX_MSG_4] = st(610);
	r->m[M_UNIX_MSG_4096] = st(869);
	r->m[M_UNIX_WRITE_100] = st(322);
	r->m[M_UNIX_READ_100] = st(339);
	r->m[M_UNIX_TRUESIZE_100] = st(768);
	r->m[M_UNIX_WRITE_DEEP] = st(1422);
	r->m[M_UNIX_READ_DEEP] = st(1539);
	r->l2_bytes = 2048 * 1024;
	r->deep_sockets = calib_deep_sockets(r->l2_bytes, CALIB_DEEP_L2_TIMES);
	for (int i = 0; i < CALIB_NR_DEEP; i++) {
		r->deep_curve_sockets[i] = calib_deep_sockets(r->l2_bytes, calib_deep_l2_times[i]);
		/* the hot pair's mean is (322 + 339) / 2 = 330.5: refills 120, 220, ... */
		r->deep_curve[i] = st(450.5 + 100 * i);
	}
	r->m[M_YIELD_THREADS] = st(480);
	r->m[M_YIELD_PROCS] = st(619);
	r->m[M_PIPE_RT_THREADS] = st(1886);
	r->m[M_PIPE_RT_BATCH_PREEMPT] = st(0.1);
	r->m[M_PIPE_RT_OTHER] = st(1700);
	r->m[M_PIPE_RT_OTHER_PREEMPT] = st(43.5);
	r->m[M_PIPE_RT_PROCS] = st(2026);
	r->m[M_PIPE_RT_PROCS_DIFF] = st(140);
	r->m[M_PIPE_RT_PERF1] = st(2086);
	r->m[M_PIPE_RT_PERF3] = st(2246);
	r->m[M_PIPE_RT_PERF1_DIFF] = st(200);
	r->m[M_PIPE_RT_PERF3_DIFF] = st(160);
	r->m[M_FUTEX_WAKE_NONE] = st(90);
	r->m[M_FUTEX_WAIT_EAGAIN] = st(100);
	r->m[M_FUTEX_RT] = st(1497);
	r->m[M_FORK_CALL] = st(60000);
	r->m[M_FORK_EXIT_WAIT] = st(94000);
	r->m[M_EXEC] = st(400000);
	r->m[M_EXIT_WAIT_BASE] = st(70000);
	r->m[M_EXIT_WAIT_IMAGE] = st(70000 + 24.0 * CALIB_IMAGE_PAGES);
	r->m[M_FORK_CALL_IMAGE] = st(60000 + 16.0 * CALIB_IMAGE_PAGES);
	r->m[M_COW_FAULT] = st(1650);
	r->probe_pages = 0;
	r->m[M_THREAD_CREATE] = st(6000);
	r->m[M_THREAD_CREATE_JOIN] = st(10000);
	r->m[M_LOCK] = st(6.6);
	r->m[M_VARIATION_WRITE] = st(18000);
	r->m[M_VARIATION_READ] = st(11000);
	r->m[M_RING_2] = st(1160);
	r->m[M_RING_K] = st(1590);
	r->m[M_RING_DIFF] = st(430);
	r->ring_k = 6;
	r->l1d_bytes = 48 * 1024;
	r->exec_what = "/bin/true";
	for (int d = 0; d < NR_DIST; d++)
		r->pair[d].a = r->pair[d].b = -1;
	r->pair[DIST_LLC] = (struct calib_pair){ 0, 1, st(64), st(20000), st(15000) };
	r->pair[DIST_NUMA] = (struct calib_pair){ 0, 3, st(150), st(25000), st(16000) };
	if (smt) {
		r->pair[DIST_SMT] = (struct calib_pair){ 0, 2, st(20), st(9000), st(3000) };
		r->smt_speed[0] = st(1000);
		r->smt_speed[1] = st(620);
	}
}

static char *write_profile(const struct calib_result *r)
{
	struct calib_run run = { .quick = true, .trials = 5 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	calib_write_profile(f, r, &run);
	fclose(f);
	return text;
}

/* the deep-queue probe's sockets: from the L2, within its bounds */
static void test_deep_sockets(void **state)
{
	(void)state;
	/* 2 MiB x 2 / (7 lines x 64 bytes) = 9362 skbs: 47 sockets of 200 */
	assert_int_equal(calib_deep_sockets(2048 * 1024, 2), 47);
	assert_int_equal(calib_deep_sockets(2048 * 1024, 8), 188);
	/* a 256 KiB L2 once: 585 skbs, raised to the floor of 2,000 */
	assert_int_equal(calib_deep_sockets(256 * 1024, 1), CALIB_DEEP_MIN_SOCKETS);
	/* 64 MiB x 8: capped below the descriptor limit */
	assert_int_equal(calib_deep_sockets(64ul << 20, 8), CALIB_DEEP_MAX_SOCKETS);
}

static void test_profile_reads_back(void **state)
{
	static struct calib_result r;
	struct cost_model c;
	char err[256], *text, *prev = NULL, *save = NULL;
	int values = 0;

	(void)state;
	for (int smt = 0; smt < 2; smt++) {
		fake(&r, smt);
		text = write_profile(&r);
		cost_model_default(&c);
		if (cost_profile_parse(&c, text, "calib.costs", err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(c.syscall, 70);
		/* cancel_point = (the pair in a threaded process - single-threaded) / 2 calls */
		assert_int_equal(c.cancel_point, 24);
		/* fget_shared = (with another thread alive - without) / 2 calls */
		assert_int_equal(c.fget_shared, 9);
		/* pipe_write = write - syscall - copy of 100 bytes */
		assert_int_equal(c.pipe_write, 143 - 70 - cost_copy(&c, 100));
		/* switch_mm = (the pairs' processes - threads + the threads' 4 fget_shared) / 2 switches */
		assert_int_equal(c.switch_mm, 88);
		/* from the pairs: (3 counters - 1) / 2 switches / 2 counters; (1 - none) / 2 - that */
		assert_int_equal(c.perf_event_switch, 40);
		assert_int_equal(c.perf_ctx_switch, 60);
		assert_int_equal(c.futex_wake, 20);
		assert_int_equal(c.futex_wait, 30);
		assert_int_equal(c.fork, 60000 - 70);
		assert_int_equal(c.fork_thread, 6000 - 70);
		/* exit_page: the image's extra exit / its pages; page_fault: the probe's */
		assert_int_equal(c.exit_page, 24);
		assert_int_equal(c.page_fault, 1650);
		{
			/* exit: an empty image's, the probe's own pages x exit_page off */
			struct cost_model d;
			char *t2;

			r.probe_pages = 500;
			t2 = write_profile(&r);
			cost_model_default(&d);
			if (cost_profile_parse(&d, t2, "calib.costs", err, sizeof(err)))
				fail_msg("%s", err);
			assert_int_equal(c.exit - d.exit, 500 * 24);
			free(t2);
			r.probe_pages = 0;
		}
		/* l1_refill: the ring of 6 - the ring of 2, per hop, over the default 16 KiB */
		assert_int_equal(c.l1_refill, 27);
		{
			/* a spread that covers 0: commented out, the estimate stays */
			struct cost_model d, def;
			char *t2;

			cost_model_default(&def);
			r.m[M_RING_DIFF].min = -20;
			t2 = write_profile(&r);
			cost_model_default(&d);
			if (cost_profile_parse(&d, t2, "calib.costs", err, sizeof(err)))
				fail_msg("%s", err);
			assert_int_equal(d.l1_refill, def.l1_refill);
			assert_non_null(strstr(t2, "\n# l1_refill = 26.9\n"));
			free(t2);
			/* an L1d smaller than the footprint: per KiB of the L1d */
			r.m[M_RING_DIFF] = st(430);
			r.l1d_bytes = 8 * 1024;
			t2 = write_profile(&r);
			cost_model_default(&d);
			if (cost_profile_parse(&d, t2, "calib.costs", err, sizeof(err)))
				fail_msg("%s", err);
			assert_int_equal(d.l1_refill, 54);
			free(t2);
			r.l1d_bytes = 48 * 1024;
		}
		assert_int_equal(c.unix_skb_overhead, 668);
		/* skb_refill = the deep queue's extra per message, both sides averaged */
		assert_int_equal(c.skb_refill, ((1422 - 322) + (1539 - 339)) / 2);
		/* sized from the L2: 2 x 2 MiB of 7-line skbs, 200 a socket */
		assert_non_null(strstr(text, "to 47 unix sockets in turn, 200 each"));
		assert_non_null(strstr(
			text, "(9400 skbs in flight: their lines 2.0 times the L2's 2048 KiB)"));
		/* the curve, less the hot pair's mean */
		assert_non_null(
			strstr(text, "#   unix.deep.1x 4800 skbs (1.0 L2s): refill 120 ns"));
		assert_non_null(
			strstr(text, "#   unix.deep.8x 37600 skbs (8.0 L2s): refill 420 ns"));
		assert_int_equal(c.cacheline[DIST_LLC], 64);
		assert_int_equal(c.cacheline[DIST_NUMA], 150);
		/* the write's and the read's relative SD, averaged */
		assert_int_equal(c.exec_variation_ppm, 14500);
		assert_true(c.ipi_latency[DIST_NUMA] > c.ipi_latency[DIST_LLC]);
		{
			struct cost_model def;

			cost_model_default(&def);
			/* without SMT the machine's own table stays */
			assert_int_equal(c.smt_speed[1], smt ? 620 : def.smt_speed[1]);
		}
		assert_non_null(strstr(text, "# date: 2026-12-06T00:00:00Z\n"));
		assert_non_null(strstr(text, "# cpu: Test CPU\n"));
		assert_non_null(strstr(text, "# busy: load 3"));
		/* every value line follows a comment line */
		values = 0;
		prev = NULL;
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			if (l[0] != '#' && l[0] != '[' && strchr(l, '=')) {
				assert_non_null(prev);
				if (prev[0] != '#')
					fail_msg("'%s' follows '%s', not a comment", l, prev);
				values++;
			}
			prev = l;
		}
		assert_true(values >= 25);
		free(text);
	}
}

/*
 * The wakeup's parameters are what is left of calibrate's SCHED_BATCH pipe
 * ping-pong once everything else the model charges on that path is taken
 * off, so the simulated ping-pong on the profile takes the measured time
 * (docs/calibration.md): the decomposition closes. The same run as
 * SCHED_OTHER takes v6.18's wakeup preemption, one wakeup a round trip,
 * and is shorter.
 */
static double sim_pipe_elapsed_ns(const struct cost_profile *p, bool batch, const char *loops)
{
	char *argv[] = { "chrt", "-b", "0", "perf", "bench", "sched", "pipe", "-T", "-l", (char *)loops, NULL };
	static const char *const novar[] = { "exec_variation_ppm=0" };
	struct session_config cfg = {
		.machine = "smp1",
		.seed = 1,
		.profile = p,
		.costs = novar,
		.nr_costs = 1,
		.argc = batch ? 10 : 7,
		.argv = batch ? argv : argv + 3,
	};
	struct session s;
	char err[256];
	double ns;

	assert_int_equal(session_start(&s, &cfg, err, sizeof(err)), 0);
	assert_true(session_run(&s, false));
	ns = (double)bench_elapsed_us(s.bench) * 1000.0;
	session_end(&s);
	return ns;
}

/* a round trip's time: the difference of two runs, so the threads' start and exit drop out */
static double sim_pipe_rt_ns(const struct cost_profile *p, bool batch)
{
	return (sim_pipe_elapsed_ns(p, batch, "6000") - sim_pipe_elapsed_ns(p, batch, "2000")) / 4000;
}

static void test_pipe_round_trip_closes(void **state)
{
	static struct calib_result r;
	struct cost_profile p = { .path = "calib.costs" };
	char *text;
	double batch, other;

	(void)state;
	fake(&r, false);
	text = write_profile(&r);
	p.text = text;
	assert_non_null(strstr(text, "the writer was preempted in 43.5% of round trips"));
	batch = sim_pipe_rt_ns(&p, true);
	other = sim_pipe_rt_ns(&p, false);
	printf("  pipe.rt.threads 1886 ns measured; simulated on the profile: %.1f ns as "
	       "SCHED_BATCH, %.1f ns as SCHED_OTHER\n", batch, other);
	assert_true(fabs(batch - 1886) < 1886 * 0.005);
	assert_true(other < batch - 100);
	free(text);
}

/* measurements that make a difference negative or huge: kept in range, and said */
static void test_out_of_range(void **state)
{
	static struct calib_result r;
	struct cost_model c;
	char err[256], *text;

	(void)state;
	fake(&r, false);
	r.m[M_PIPE_RT_PROCS] = st(1000); /* processes faster than threads */
	r.m[M_PIPE_RT_PROCS_DIFF] = st(-886);
	r.pair[DIST_LLC].line = st(1e9);
	text = write_profile(&r);
	cost_model_default(&c);
	if (cost_profile_parse(&c, text, "calib.costs", err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(c.switch_mm, 1);
	assert_non_null(strstr(text, "written as 1, the smallest"));
	assert_int_equal(c.cacheline[DIST_LLC], 100000);
	assert_non_null(strstr(text, "above the parameter's range"));
	free(text);
}

/* @r's profile, parsed back into @c (from the defaults); the text, which the caller frees */
static char *profile_parsed(const struct calib_result *r, struct cost_model *c)
{
	char err[256], *text = write_profile(r);

	cost_model_default(c);
	if (cost_profile_parse(c, text, "guest.costs", err, sizeof(err)))
		fail_msg("%s", err);
	return text;
}

/* KVM's defaults on x86, the guest's polling off (cpuidle = hlt): the host polls */
static const struct kvm_halt_poll kvm_x86 = { .max_ns = 200000,
					      .grow = 2,
					      .grow_start = 10000,
					      .shrink = 2,
					      .allowed = true };

/* "model N" on the profile's line for @gap_us */
static double model_at(const char *text, unsigned int gap_us)
{
	char key[48];
	const char *at;

	snprintf(key, sizeof(key), "wake.gap%uus: measured ", gap_us);
	at = strstr(text, key);
	assert_non_null(at);
	at = strstr(at, "; model ");
	assert_non_null(at);
	return strtod(at + 8, NULL);
}

/*
 * a gap's pairs: busy @busy, idle - busy @diff over trials [@diff - @half,
 * @diff + @half], the wakee's CPU idle before each idle wakeup
 */
static struct calib_wake_pairs wake_pairs(double busy, double diff, double half)
{
	return (struct calib_wake_pairs){ .idle = st(busy + diff),
					  .busy = st(busy),
					  .diff = { diff, diff - half, diff + half, 5 },
					  .halts = 1 };
}

/*
 * In a KVM guest: the paired idle - busy wakeups after the shortest gap
 * (the host's window grown to catch it) give guest_wakeup_polled, after
 * 1 ms (the window shrunk to 0) guest_wakeup, whatever the gaps between
 * do; the waker's call to a busy CPU gives guest_ipi_exit; idle_exit and
 * ipi_latency are left without them. The model's curve, printed beside
 * the measured one, rises with the gap: polled up to the cap, then not.
 * A difference whose spread covers 0 is not written, and the guest's
 * estimate stays in force.
 */
static void test_guest_costs(void **state)
{
	static struct calib_result r, bare;
	/* a gradual rise, as on the development VM: no step to find */
	static const double diff[CALIB_NR_GAPS] = { 2000, 2100, 3000, 6000, 9000, 25000 };
	struct cost_model c, b, def, est, guest;
	char err[256], *text;
	u64 extra, sender;
	double prev = 0;

	(void)state;
	fake(&bare, false);
	text = write_profile(&bare);
	cost_model_default(&b);
	if (cost_profile_parse(&b, text, "bare.costs", err, sizeof(err)))
		fail_msg("%s", err);
	free(text);

	fake(&r, false);
	r.host.steal_pct = 0.25;
	r.guest.kvm = true;
	r.guest.hp = kvm_x86;
	for (int i = 0; i < CALIB_NR_GAPS; i++)
		r.guest.wake_gap[i] = wake_pairs(15000 + 1000 * i, diff[i], 500);
	r.guest.wake_call_busy = st(3000);
	text = profile_parsed(&r, &c);
	cost_model_default(&def);
	est = def;
	guest_default_costs(&est, false);
	/* no idle state: exit latency 0; the machine's idle_exit and the timer's exit */
	extra = def.idle_exit + est.guest_timer_exit;
	assert_int_equal(c.guest_wakeup_polled, 2000 - extra);
	assert_int_equal(c.guest_wakeup, 9000 - extra);
	/* the host's cap is not the guest's to see: KVM's default stays */
	assert_int_equal(c.guest_host_poll_ns, 0);
	sender = c.syscall + c.futex_wake + c.ttwu + c.enqueue + c.wake_walk + def.rq_lock +
		 c.cacheline[DIST_LLC] + def.ipi_send;
	assert_int_equal(c.guest_ipi_exit, 3000 - sender);
	/* idle_exit is the machine's; ipi_latency loses the exit the sender paid */
	assert_int_equal(c.idle_exit, def.idle_exit);
	assert_int_equal(c.ipi_latency[DIST_LLC], b.ipi_latency[DIST_LLC] - c.guest_ipi_exit);
	assert_int_equal(b.guest_wakeup + b.guest_ipi_exit, 0);
	assert_non_null(strstr(text, "# steal: 0.25% of CPU time over the run"));
	/* the model: the measured ends, polled through 100 us, a full wakeup from 300 us */
	for (int i = 0; i < CALIB_NR_GAPS; i++) {
		double m = model_at(text, calib_gap_us[i]);

		assert_true(m >= prev);
		prev = m;
	}
	assert_true(model_at(text, 20) == 2000 && model_at(text, 100) == 2000);
	assert_true(model_at(text, 300) == 9000 && model_at(text, 3000) == 9000);
	assert_non_null(strstr(text, "rises to\n#   25000 ns at 3000 us, 16000 ns over the model"));
	free(text);

	/* a disturbed gap between the ends moves neither cost */
	r.guest.wake_gap[2] = wake_pairs(15000, 12000, 500);
	r.guest.wake_gap[3] = wake_pairs(15000, -1000, 500);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_wakeup_polled, 2000 - extra);
	assert_int_equal(c.guest_wakeup, 9000 - extra);
	free(text);

	/*
	 * the 1 ms gap's difference less what the model charges beside it
	 * (1500 - 800 = 700) within a spread that covers 0 and reaches past
	 * the estimate (5000): guest_wakeup is only a comment with the
	 * difference, and the guest's estimate stays in force when the
	 * profile is loaded on a guest's costs
	 */
	r.guest.wake_gap[4] = wake_pairs(15000, 1500, 6000);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_wakeup_polled, 2000 - extra);
	assert_int_equal(c.guest_wakeup, 0);
	assert_non_null(strstr(text, "spread that covers 0: the host's load"));
	assert_non_null(
		strstr(text, "idle - busy - 800 = 700 ns\n#   [-5300, 6700] over 5 trials"));
	assert_non_null(strstr(text, "\n# guest_wakeup = 700\n"));
	guest = est;
	if (cost_profile_parse(&guest, text, "guest.costs", err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(guest.guest_wakeup, est.guest_wakeup);
	assert_int_equal(guest.guest_wakeup_polled, 2000 - extra);
	/* the model's curve past the window uses the estimate in force */
	assert_true(model_at(text, 3000) == (double)(extra + est.guest_wakeup));
	free(text);
	r.guest.wake_gap[4] = wake_pairs(15000, -3000, 1000);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_wakeup, 0);
	assert_non_null(strstr(text, "a spread below 0: the halted wakeup adds less"));
	free(text);
	/*
	 * a spread that covers 0 but lies below the estimate in force: the
	 * estimate is wrong here, the measured median is written (at least 1)
	 */
	r.guest.wake_gap[4] = wake_pairs(15000, 1500, 2000);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_wakeup, 700);
	assert_non_null(strstr(text, "lies below the estimate in force (5000 ns)"));
	assert_non_null(strstr(text, "[-1300, 2700] over 5 trials\nguest_wakeup = 700\n"));
	free(text);
	r.guest.wake_gap[4] = wake_pairs(15000, 700, 300);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_wakeup, 1);
	assert_non_null(strstr(text, "idle - busy - 800 = -100 ns"));
	free(text);
	/* a clear difference, but the wakee's CPU seldom idled: other work ran there */
	r.guest.wake_gap[4] = wake_pairs(15000, 9000, 500);
	r.guest.wake_gap[4].halts = 0.3;
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_wakeup, 0);
	assert_non_null(strstr(text, "the wakee's CPU idled 0.30 times a pair"));
	free(text);
	/* no cpuidle counters: the pairs are taken as they are, and the profile says so */
	r.guest.wake_gap[4].halts = -1;
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_wakeup, 9000 - extra);
	assert_non_null(strstr(text, "#   wake.gap1000us: idle 24000.0 ns (no cpuidle counters), busy"));
	assert_null(strstr(text, "-1.00 cpuidle entries"));
	free(text);
	r.guest.wake_gap[4] = wake_pairs(15000, 9000, 500);

	/*
	 * cpuidle-haltpoll turned the host's polling off: no wakeup is polled,
	 * the shortest gap's is guest_wakeup, and the model's curve is flat
	 */
	r.guest.hp.allowed = false;
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_wakeup_polled, 0);
	assert_int_equal(c.guest_wakeup, 2000 - extra);
	assert_non_null(strstr(text, "guest_wakeup_polled: not set"));
	for (int i = 0; i < CALIB_NR_GAPS; i++)
		assert_true(model_at(text, calib_gap_us[i]) == 2000);
	free(text);
}

/*
 * The receiving side of an IPI (t_ipi_recv()): in a KVM guest the stretch
 * a running CPU loses to one, less the model's irq_entry + csd_entry, is
 * guest_ipi_recv_exit (no posted interrupts); ipi_latency, from the busy
 * wakeup, is left without it, and the halted wakeups' costs are derived
 * with it added back (the busy wakeup of each pair paid it, the halted one
 * did not). Within the model's own charge (posted interrupts) it is not
 * written; on bare metal it is a comment.
 */
static void test_ipi_recv(void **state)
{
	static struct calib_result r;
	struct cost_model c, base, def, est;
	char *text;
	u64 recv, extra;

	(void)state;
	cost_model_default(&def);
	est = def;
	guest_default_costs(&est, false);
	fake(&r, false);
	r.guest.kvm = true;
	r.guest.hp = kvm_x86;
	for (int i = 0; i < CALIB_NR_GAPS; i++)
		r.guest.wake_gap[i] = wake_pairs(15000, i < 3 ? -1000 : 9000, 300);
	r.guest.wake_call_busy = st(3000);
	/* not measured: the guest's earlier derivation */
	text = profile_parsed(&r, &base);
	assert_non_null(strstr(text, "guest_ipi_recv_exit: not measured"));
	assert_int_equal(base.guest_ipi_recv_exit, 0);
	free(text);

	r.ipi_recv = st(2500);
	text = profile_parsed(&r, &c);
	recv = 2500 - def.irq_entry - def.csd_entry;
	assert_int_equal(c.guest_ipi_recv_exit, recv);
	assert_non_null(strstr(text, "#   ipi.recv 2500.0 ns [2250.0, 3000.0], 5 trials\n"));
	assert_int_equal(c.ipi_latency[DIST_LLC], base.ipi_latency[DIST_LLC] - recv);
	/* idle - busy at the short gap, -1000, plus the busy side's exit */
	extra = def.idle_exit + est.guest_timer_exit;
	assert_int_equal(c.guest_wakeup_polled, (u64)(-1000 - (double)extra + (double)recv));
	assert_int_equal(c.guest_wakeup, 9000 - extra + recv);
	free(text);

	/* no more than the model's own charge: posted interrupts, not written */
	r.ipi_recv = st((double)(def.irq_entry + def.csd_entry));
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_ipi_recv_exit, 0);
	assert_non_null(strstr(text, "not resolved: a spread not above what the model charges"));
	free(text);

	/* bare metal: a comment */
	r.guest.kvm = false;
	r.ipi_recv = st(1000);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_ipi_recv_exit, 0);
	assert_non_null(strstr(text, "# receiving an IPI: a thread spinning on CPU 1"));
	assert_non_null(strstr(text, "over the model's, bare metal: no parameter"));
	free(text);
}

/* the timer probe's curve: @c[i] ns a reprogramming at each distance, HZ 250 */
static void timer_curve(struct calib_result *r, const double *c)
{
	r->timer_hz = 250;
	r->timer_far = st(230);
	for (int i = 0; i < CALIB_NR_TIMER; i++)
		r->timer_reprogram[i] = st(c[i]);
}

/*
 * The timer probe: the mean of its curve over a tick is, in a KVM guest,
 * guest_timer_exit, and the halted wakeups' costs are derived with it in
 * place of the estimate; not resolved, the estimate stays for both; on
 * bare metal it is a comment, not a parameter
 */
static void test_timer_exit(void **state)
{
	static struct calib_result r;
	/* a nested guest's shape: a near deadline costs more (docs/guests.md) */
	static const double curve[CALIB_NR_TIMER] = { 6400, 3200, 1600, 800, 400, 320 };
	static const double spike[CALIB_NR_TIMER] = { 64, 0, 0, 0, 0, 0 };
	static const double flat[CALIB_NR_TIMER] = { 500, 500, 500, 500, 500, 500 };
	struct cost_model c, def, est;
	char *text;
	u64 extra;

	(void)state;
	/*
	 * trapezoids over 64ths of a tick: the first distance's cost from 0,
	 * the last one's to the tick
	 */
	assert_true(calib_timer_mean(flat) == 500);
	assert_true(calib_timer_mean(spike) == (64.0 * 1 + 32.0 * 3) / 64);
	/* 6400 + 4800 * 3 + 2400 * 4 + 1200 * 8 + 600 * 16 + 360 * 16 + 320 * 16 = 60480 */
	assert_true(calib_timer_mean(curve) == 60480.0 / 64);

	cost_model_default(&def);
	est = def;
	guest_default_costs(&est, false);
	fake(&r, false);
	timer_curve(&r, curve);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_timer_exit, 0);
	assert_non_null(strstr(text, "\n# timer reprogramming: timerfd_settime()"));
	assert_non_null(
		strstr(text, "#   timer.reprogram.1/64 (62 us) 6400.0 ns [5760.0, 7680.0]"));
	assert_non_null(strstr(text, "#   timer.reprogram.48/64 (3000 us) 320.0 ns"));
	assert_non_null(strstr(text, "in it): 945 ns,\n#   at least 850 (each distance's least)\n"
				     "#   bare metal: a register write"));
	assert_null(strstr(text, "assumed: no kernel config"));
	free(text);
	/* the tick's length not read from the kernel: the profile says so */
	r.timer_hz_assumed = true;
	text = write_profile(&r);
	assert_non_null(strstr(text, "(HZ 250 assumed: no kernel config says CONFIG_HZ."));
	free(text);
	r.timer_hz_assumed = false;

	r.guest.kvm = true;
	r.guest.hp = kvm_x86;
	for (int i = 0; i < CALIB_NR_GAPS; i++)
		r.guest.wake_gap[i] = wake_pairs(15000, 9000, 500);
	r.guest.wake_call_busy = st(3000);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_timer_exit, 945);
	extra = def.idle_exit + 945;
	assert_int_equal(c.guest_wakeup_polled, 9000 - extra);
	assert_int_equal(c.guest_wakeup, 9000 - extra);
	assert_non_null(strstr(text, "- guest_timer_exit (945, measured above)"));
	/* the model's idle - busy charges the measured exit: the same total */
	assert_true(model_at(text, 3000) == 9000);
	free(text);

	/* the least values' mean not above 0: neither the exit nor the wakeups use it */
	for (int i = 0; i < CALIB_NR_TIMER; i++)
		r.timer_reprogram[i] =
			(struct calib_stat){ .med = 100, .min = -50, .max = 300, .n = 5 };
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_timer_exit, 0);
	assert_non_null(strstr(text, "Not written: the guest\n#   estimate"));
	assert_non_null(strstr(text, "\n# guest_timer_exit = 100\n"));
	extra = def.idle_exit + est.guest_timer_exit;
	assert_int_equal(c.guest_wakeup, 9000 - extra);
	assert_non_null(strstr(text, "the estimate)"));
	free(text);
}

/* the delay from which the wakeups find the sleeper's CPU halted, for good */
static void test_window_onset(void **state)
{
	double h[CALIB_NR_WINDOW] = { 0 };

	(void)state;
	assert_true(calib_window_onset(h) == -1);
	/* 0..6 us not halted, 7 us half, then all: at 7 us */
	h[6] = 0.1;
	h[7] = 0.5;
	for (int i = 8; i < CALIB_NR_WINDOW; i++)
		h[i] = 1;
	assert_true(calib_window_onset(h) == 7000);
	/* a disturbed early delay does not count: halfway from 6 us (0.1) to 7 us (0.9) */
	h[1] = 0.6;
	h[7] = 0.9;
	assert_true(calib_window_onset(h) == 6500);
	for (int i = 0; i < CALIB_NR_WINDOW; i++)
		h[i] = 0.95;
	assert_true(calib_window_onset(h) == 0);
}

/*
 * idle_enter in a guest that halts at once: the onset less the model's
 * block path and the tick's stop; not written unless every trial reached
 * a half and the least onset clears what is subtracted
 */
static void test_idle_enter(void **state)
{
	static struct calib_result r;
	struct cost_model c, est;
	char *text;
	double rest;

	(void)state;
	cost_model_default(&est);
	guest_default_costs(&est, false);
	fake(&r, false);
	r.guest.kvm = true;
	r.guest.hp = kvm_x86;
	for (int i = 0; i < CALIB_NR_GAPS; i++)
		r.guest.wake_gap[i] = wake_pairs(15000, 9000, 500);
	r.guest.wake_call_busy = st(3000);
	r.window.measured = true;
	r.window.cpu = 1;
	r.window.trials = r.window.crossed = 5;
	r.window.onset = st(7000);
	for (int i = 0; i < CALIB_NR_WINDOW; i++) {
		r.window.halted[i] = calib_window_us[i] >= 7 ? 1 : 0;
		r.window.latency[i] = st(calib_window_us[i] >= 7 ? 25000 : 12000);
	}
	text = profile_parsed(&r, &c);
	/* no timer curve in this profile: the guest's estimate for the tick's stop */
	rest = (double)(c.syscall + c.futex_wait + c.dequeue + c.schedule + c.pick_next +
			c.context_switch + est.guest_timer_exit);
	assert_int_equal(c.idle_enter, (u64)llround(7000 - rest));
	assert_non_null(strstr(text, "#   window.7us: halted 1.00 a wakeup, latency 25000 ns"));
	assert_non_null(
		strstr(text, "(5 of 5 trials\n#   reached a half): window.onset 7000.0 ns"));
	free(text);

	/* a trial whose halts never reached a half: only a comment */
	r.window.crossed = 4;
	text = profile_parsed(&r, &c);
	assert_int_equal(c.idle_enter, est.idle_enter);
	assert_non_null(strstr(text, "not every trial's halts reached one half"));
	free(text);
	/* the least onset below what the model charges besides: not resolved */
	r.window.crossed = 5;
	r.window.onset = (struct calib_stat){ .med = 7000, .min = rest - 10, .max = 8000, .n = 5 };
	text = profile_parsed(&r, &c);
	assert_int_equal(c.idle_enter, est.idle_enter);
	assert_non_null(strstr(text, "the least onset is not above what is subtracted"));
	free(text);
	/* not measured (bare metal, or a guest that polls first): no section */
	r.window.measured = false;
	text = profile_parsed(&r, &c);
	assert_null(strstr(text, "# idle_enter: a sleeper"));
	free(text);
}

/*
 * The pairs' derivation on made-up wakeups: a host load that moves both
 * wakeups of a pair by up to 1 ms (and which a busy series measured apart
 * would carry into the difference) leaves a clear 5 us cost at 5 us, and
 * resolved; a 0.5 us cost inside noise of +-5 us per wakeup is not
 * resolved, and neither is a negative difference
 */
#define NPAIRS 400
#define NTRIALS 5
static struct calib_stat pair_trials(struct prng *r, double cost, double load_ns, double noise_ns,
				     long pairs)
{
	static double idle[NPAIRS], busy[NPAIRS], scratch[NPAIRS];
	double med[NTRIALS];

	for (int t = 0; t < NTRIALS; t++) {
		for (long i = 0; i < pairs; i++) {
			double load = (double)prng_below(r, (u64)load_ns + 1);

			/* the load the same for both, each wakeup's own noise drawn apart */
			busy[i] =
				15000 + load + (double)prng_below(r, (u64)noise_ns) - noise_ns / 2;
			idle[i] = 15000 + load + cost + (double)prng_below(r, (u64)noise_ns) -
				  noise_ns / 2;
		}
		med[t] = calib_median_diff(idle, busy, pairs, scratch);
	}
	return calib_stat_of(med, NTRIALS);
}

static void test_pair_derivation(void **state)
{
	struct prng r;
	struct calib_stat d;

	(void)state;
	prng_init(&r, 23, 0);
	d = pair_trials(&r, 5000, 1e6, 2000, NPAIRS);
	assert_true(fabs(d.med - 5000) < 200);
	assert_true(calib_cost_resolved(&d, 800));
	assert_true(fabs((d.med - 800) - 4200) < 200);
	d = pair_trials(&r, 500, 1e6, 10000, 15);
	assert_true(d.min - 800 < 0 && d.max - 800 > 0);
	assert_false(calib_cost_resolved(&d, 800));
	d = pair_trials(&r, -3000, 1e6, 2000, NPAIRS);
	assert_false(calib_cost_resolved(&d, 800));
	/* nothing measured: not resolved */
	d = (struct calib_stat){ 0 };
	assert_false(calib_cost_resolved(&d, 0));
}

/* The model's steady share of polled wakeups: all below KVM's cap, none past it or off */
static void test_steady_share(void **state)
{
	struct kvm_halt_poll hp = kvm_x86;

	(void)state;
	assert_true(kvm_halt_poll_steady_share(&hp, 20000, 5000) == 1.0);
	assert_true(kvm_halt_poll_steady_share(&hp, 150000, 5000) == 1.0);
	/* 196 us + the 5 us miss is past the cap: it never grows to catch it */
	assert_true(kvm_halt_poll_steady_share(&hp, 196000, 5000) == 0.0);
	assert_true(kvm_halt_poll_steady_share(&hp, 300000, 5000) == 0.0);
	hp.allowed = false;
	assert_true(kvm_halt_poll_steady_share(&hp, 20000, 5000) == 0.0);
}

/*
 * calibrate's variation statistic on made-up batch timings: 8 operations
 * of 300 ns, each with a relative SD of 2% (a uniform factor, as the model
 * draws), recovered within 3%; a slow drift between batches, interrupts
 * in 0.5% of them and a 10 ns clock step leave it there
 */
#define NB 20000
static double uniform_batch(struct prng *r, int k, double sd)
{
	double sum = 0;

	for (int i = 0; i < k; i++) {
		double u = (double)(prng_next(r) >> 11) / 9007199254740992.0;

		sum += 300 * (1 + sqrt(3) * sd * (2 * u - 1));
	}
	return sum;
}

static void test_variation_statistic(void **state)
{
	static double b[NB];
	struct prng r;
	double v;

	(void)state;
	prng_init(&r, 1, 1);
	for (int i = 0; i < NB; i++)
		b[i] = uniform_batch(&r, 8, 0.02);
	v = calib_variation_ppm(b, NB, 8, 0);
	assert_true(fabs(v / 20000 - 1) < 0.03);

	/* drift, interrupts, a clock of 10 ns steps */
	for (int i = 0; i < NB; i++) {
		b[i] = uniform_batch(&r, 8, 0.02) * (1 + 0.1 * sin(i / 500.0));
		if (i % 200 == 7)
			b[i] += 5000;
		b[i] = floor((b[i] + (double)prng_below(&r, 10)) / 10) * 10;
	}
	v = calib_variation_ppm(b, NB, 8, 10);
	assert_true(fabs(v / 20000 - 1) < 0.05);

	/* no spread at all: 0 */
	for (int i = 0; i < NB; i++)
		b[i] = 2400;
	assert_true(calib_variation_ppm(b, NB, 8, 0) == 0);
}

/*
 * The idle length past which the private caches come back empty, from the
 * share of the L2 buffer's LLC refill lost after each gap
 * (calib_flush_threshold()): where the share crosses a half for good,
 * log-interpolated between the two gaps around the crossing.
 */
static void test_flush_threshold(void **state)
{
	/* a quiet guest whose loss sets in between 1 and 3 ms */
	static const double rises[CALIB_NR_FLUSH_GAPS] = { 0, 0.02, 0.05, 0.3, 0.9, 1.0 };
	static const double never[CALIB_NR_FLUSH_GAPS] = { 0, 0, 0, 0, 0.1, 0.4 };
	static const double always[CALIB_NR_FLUSH_GAPS] = { 0.7, 0.8, 0.9, 1, 1, 1 };
	/* one disturbed short gap before a rise: the crossing is the last one */
	static const double blip[CALIB_NR_FLUSH_GAPS] = { 0.6, 0.1, 0.2, 0.7, 0.8, 0.9 };
	static const double falls[CALIB_NR_FLUSH_GAPS] = { 0.9, 0.9, 0.9, 0.9, 0.9, 0.4 };
	const unsigned int *g = calib_flush_gap_us;

	(void)state;
	/* 1/3 of the way from 0.3 to 0.9: 1000 us * 3^(1/3) */
	assert_true(fabs(calib_flush_threshold(g, rises, CALIB_NR_FLUSH_GAPS) - 1000000 * cbrt(3)) <
		    1);
	assert_true(calib_flush_threshold(g, never, CALIB_NR_FLUSH_GAPS) == -1);
	assert_true(calib_flush_threshold(g, always, CALIB_NR_FLUSH_GAPS) == 20000);
	/* 0.6 of the way from 0.2 at 300 us to 0.7 at 1 ms */
	assert_true(fabs(calib_flush_threshold(g, blip, CALIB_NR_FLUSH_GAPS) -
			 300000 * pow(1000.0 / 300, 0.6)) < 1);
	assert_true(calib_flush_threshold(g, falls, CALIB_NR_FLUSH_GAPS) == -1);
}

/* a flush measurement whose shares lost are @lost, every trial crossing, CPU 1 halted */
static void fake_flush(struct calib_flush *fl, const double *lost)
{
	memset(fl, 0, sizeof(*fl));
	fl->measured = true;
	fl->cpu = 1;
	fl->l1_bytes = 24 * 1024;
	fl->l2_bytes = 256 * 1024;
	fl->l1_ref = st(3800);
	fl->l2_ref = st(27000);
	fl->l2_mem = st(400000);
	for (int i = 0; i < CALIB_NR_FLUSH_GAPS; i++) {
		fl->lost[i] = st(lost[i]);
		fl->l2_loss[i] = st(lost[i] * 27000);
		fl->l1_loss[i] = st(lost[i] * 3800);
		fl->halts[i] = 1;
	}
	fl->threshold_ns = calib_flush_threshold(calib_flush_gap_us, lost, CALIB_NR_FLUSH_GAPS);
	fl->trials = 5;
	fl->trial_threshold = (struct calib_stat){ fl->threshold_ns, fl->threshold_ns * 0.8,
						   fl->threshold_ns * 1.3, 5 };
}

/*
 * guest_halt_flush_ns in a guest's profile: written when every trial
 * crossed, the LLC's refill is resolved and the wakee's CPU idled; the
 * model's curve then adds the default footprint's refill from the LLC at
 * the gaps past it. Not written otherwise, and never on bare metal.
 */
static void test_flush_profile(void **state)
{
	static const double rises[CALIB_NR_FLUSH_GAPS] = { 0, 0.02, 0.05, 0.3, 0.9, 1.0 };
	static const double never[CALIB_NR_FLUSH_GAPS] = { 0, 0, 0, 0, 0.1, 0.4 };
	static struct calib_result r;
	struct cost_model c, def;
	u64 refill, thr;
	char *text;

	(void)state;
	cost_model_default(&def);
	refill = cache_llc_refill_ns(&def, CACHE_DEFAULT_FOOTPRINT);
	fake(&r, false);
	r.guest.kvm = true;
	r.guest.hp = kvm_x86;
	r.guest.hp.allowed = false;
	for (int i = 0; i < CALIB_NR_GAPS; i++)
		r.guest.wake_gap[i] = wake_pairs(15000, 7000 + 1000 * i, 500);
	r.guest.wake_call_busy = st(3000);
	fake_flush(&r.flush, rises);
	thr = (u64)llround(r.flush.threshold_ns);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_halt_flush_ns, thr);
	assert_int_equal(thr, 1442250);
	/* the model: flat through 1 ms, the refill added at 3 ms */
	assert_true(model_at(text, 1000) == model_at(text, 20));
	assert_true(model_at(text, 3000) == model_at(text, 20) + (double)refill);
	assert_non_null(strstr(text, "12000 ns at 3000 us, 3400 ns over the model"));
	assert_non_null(strstr(text, "#   flush.gap3000us: L1 +3420 ns"));
	free(text);

	/* a trial that never crossed: a comment, the model flat */
	r.flush.trial_threshold.n = 4;
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_halt_flush_ns, 0);
	assert_non_null(strstr(text, "not every trial lost half"));
	assert_non_null(strstr(text, "\n# guest_halt_flush_ns = 1442250\n"));
	assert_true(model_at(text, 3000) == model_at(text, 20));
	free(text);
	/* the wakee's CPU ran other work through the long gaps */
	fake_flush(&r.flush, rises);
	r.flush.halts[5] = 0.2;
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_halt_flush_ns, 0);
	assert_non_null(strstr(text, "did not idle before the wakes"));
	free(text);
	/* no loss */
	fake_flush(&r.flush, never);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_halt_flush_ns, 0);
	assert_non_null(strstr(text, "guest_halt_flush_ns: not set (never)"));
	free(text);

	/* bare metal: printed, not a parameter */
	fake(&r, false);
	fake_flush(&r.flush, rises);
	text = profile_parsed(&r, &c);
	assert_int_equal(c.guest_halt_flush_ns, 0);
	assert_non_null(strstr(text, "# private caches after idle: FUTEX_WAKE"));
	assert_null(strstr(text, "guest_halt_flush_ns"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deep_sockets),
		cmocka_unit_test(test_profile_reads_back),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_pipe_round_trip_closes),
		cmocka_unit_test(test_guest_costs),
		cmocka_unit_test(test_ipi_recv),
		cmocka_unit_test(test_timer_exit),
		cmocka_unit_test(test_window_onset),
		cmocka_unit_test(test_idle_enter),
		cmocka_unit_test(test_pair_derivation),
		cmocka_unit_test(test_steady_share),
		cmocka_unit_test(test_variation_statistic),
		cmocka_unit_test(test_flush_threshold),
		cmocka_unit_test(test_flush_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
