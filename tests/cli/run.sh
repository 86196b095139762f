#!/bin/sh
# CLI and golden-output tests.
#
#   SCHEDLAB=./schedlab sh tests/cli/run.sh          (from the repository root;
#                                                     `make cli-test` / `make check`)
#   UPDATE_GOLDEN=1 SCHEDLAB=./schedlab sh tests/cli/run.sh
#                                                    rewrite tests/golden/*.out
#   VERBOSE=1 ...                                    also list the cases that pass
#
# Adding a case: append one line to the right section below, or to a topic's
# file in tests/cli/cases/ (sourced at the end). Commands are
# written as they would be typed, with `schedlab` standing for $SCHEDLAB:
#
#   golden NAME CMD...                 stdout must equal tests/golden/NAME.out
#                                      byte for byte, and the exit status be 0
#   expect_exit CODE STDERR_SUBSTR CMD...
#                                      exit status CODE (and no crash); stderr
#                                      contains STDERR_SUBSTR; for CODE 2 stderr
#                                      is exactly one line (DESIGN.md: one clear
#                                      message)
#   same_output NAME CMD...            two runs exit 0 with identical stdout
#                                      (determinism)

SCHEDLAB=${SCHEDLAB:-./schedlab}
# perf stat prints in the environment's locale, as perf does: the goldens are C's
LC_ALL=C
export LC_ALL
case $SCHEDLAB in
/*) ;;
*/*) SCHEDLAB=$(pwd)/$SCHEDLAB ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
golden_dir=$root/tests/golden
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0

if [ ! -x "$SCHEDLAB" ]; then
	echo "cli: $SCHEDLAB is not an executable (set SCHEDLAB)" >&2
	exit 1
fi

# The binary under test, as cases spell it.
schedlab() {
	"$SCHEDLAB" "$@"
}

ok() {
	passed=$((passed + 1))
	[ -n "$VERBOSE" ] && echo "ok   $1"
	return 0
}

not_ok() {
	failed=$((failed + 1))
	echo "FAIL $1"
	shift
	for line in "$@"; do
		echo "     $line"
	done
}

# Run "$@" with stdout to $tmp/out and stderr to $tmp/err; status in $status.
run_cmd() {
	status=0
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null || status=$?
}

show_stderr() {
	if [ -s "$tmp/err" ]; then
		echo "     stderr:"
		sed 's/^/       /' "$tmp/err"
	fi
}

# golden NAME CMD...
golden() {
	name=$1
	shift
	file=$golden_dir/$name.out
	run_cmd "$@"
	if [ "$status" -ne 0 ]; then
		not_ok "$name" "'$*' exited with status $status, want 0"
		show_stderr
		return
	fi
	if [ -n "$UPDATE_GOLDEN" ] && [ "$UPDATE_GOLDEN" != 0 ]; then
		mkdir -p "$golden_dir"
		if [ -f "$file" ] && cmp -s "$tmp/out" "$file"; then
			ok "$name (golden unchanged)"
		else
			cp "$tmp/out" "$file"
			echo "updated $file"
			ok "$name (golden updated)"
		fi
		return
	fi
	if [ ! -f "$file" ]; then
		not_ok "$name" "'$*': no golden file $file" \
			"(create it with UPDATE_GOLDEN=1 and review it)"
		return
	fi
	if cmp -s "$file" "$tmp/out"; then
		ok "$name"
	else
		not_ok "$name" "'$*': stdout differs from $file (- golden, + actual):"
		diff -u "$file" "$tmp/out" | sed 's/^/       /'
	fi
}

# expect_exit CODE STDERR_SUBSTRING CMD...
expect_exit() {
	code=$1
	want=$2
	shift 2
	run_cmd "$@"
	what="'$*'"
	if [ "$status" -ge 128 ]; then
		not_ok "$what" "crashed: status $status (signal $((status - 128)))"
		show_stderr
		return
	fi
	if [ "$status" -ne "$code" ]; then
		not_ok "$what" "exited with status $status, want $code"
		show_stderr
		return
	fi
	if [ -n "$want" ] && ! grep -qF -e "$want" "$tmp/err"; then
		not_ok "$what" "stderr does not contain '$want'"
		show_stderr
		return
	fi
	if [ "$code" -eq 2 ]; then
		lines=$(wc -l <"$tmp/err")
		last=$(tail -c 1 "$tmp/err" | od -An -c | tr -d ' ')
		if [ "$lines" -ne 1 ] || [ "$last" != '\n' ]; then
			not_ok "$what" "stderr must be exactly one line for status 2, got:"
			sed 's/^/       /' "$tmp/err"
			return
		fi
	fi
	ok "$what"
}

# same_output NAME CMD...
same_output() {
	name=$1
	shift
	run_cmd "$@"
	if [ "$status" -ne 0 ]; then
		not_ok "$name" "'$*' exited with status $status, want 0"
		show_stderr
		return
	fi
	mv "$tmp/out" "$tmp/out.first"
	run_cmd "$@"
	if [ "$status" -ne 0 ]; then
		not_ok "$name" "'$*' exited with status $status on the second run"
		show_stderr
		return
	fi
	if cmp -s "$tmp/out.first" "$tmp/out"; then
		ok "$name"
	else
		not_ok "$name" "'$*': two runs print different stdout (- first, + second):"
		diff -u "$tmp/out.first" "$tmp/out" | sed 's/^/       /'
	fi
}

# ---------------------------------------------------------------------------
# machines, topo, features
# ---------------------------------------------------------------------------

golden machines schedlab machines
golden machines-v schedlab machines -v
golden features schedlab features
golden features-applied schedlab features --features NO_DELAY_DEQUEUE,NO_UTIL_EST,UTIL_EST
golden topo-smp2 schedlab topo -m smp2
golden topo-smt2-2s-16 schedlab topo -m smt2-2s-16
golden topo-xeon-8269cy-2s schedlab topo -m xeon-8269cy-2s
golden topo-power10-96 schedlab topo -m power10-96
golden topo-pixel6 schedlab topo -m pixel6
golden topo-arm64-2x4 schedlab topo -m arm64-2x4

# Sched domains: every CPU of two small machines, CPU 0 of every preset (a
# preset without its golden file fails here until one is made and reviewed).
golden domains-smp4 schedlab topo -m smp4 --domains
golden domains-smt2-2s-16 schedlab topo -m smt2-2s-16 --domains
for m in $("$SCHEDLAB" machines | awk '$1 != "host" { print $1 }'); do
	golden "domains-$m-cpu0" schedlab topo -m "$m" --domains --cpu 0
done
golden domains-pixel6-cpu7 schedlab topo -m pixel6 --domains --cpu 7
# Generated machines in hwloc's synthetic syntax (docs/machines.md): the 1024-
# and 8192-CPU ones of bench/speed.sh, a small one whole, and what is refused
golden domains-synthetic-1024-cpu0 schedlab topo -m 'synthetic:pack:4 l3:16 core:8 pu:2' \
	--domains --cpu 0
golden domains-synthetic-8192-cpu0 schedlab topo -m 'synthetic:pack:16 numa:2 l3:8 core:16 pu:2' \
	--domains --cpu 0
golden topo-synthetic-small schedlab topo -m 'synthetic:Package:2 numa:2 L3:2 core:2 pu:2'
golden domains-synthetic-small schedlab topo -m 'synthetic:pack:2 numa:2 l3:2 core:2 pu:2' --domains
expect_exit 2 "machine 'synthetic:': no levels" schedlab topo -m 'synthetic:'
expect_exit 2 "unknown level 'l2' (this subset of hwloc's synthetic syntax has pack, numa, l3, core, pu)" \
	schedlab topo -m 'synthetic:pack:2 l2:2 pu:2'
expect_exit 2 "'pack' after 'core': the levels go outermost first" \
	schedlab topo -m 'synthetic:core:2 pack:2'
expect_exit 2 "'core' after 'core'" schedlab topo -m 'synthetic:core:2 core:2'
expect_exit 2 "pack: count 0 is not in 1..8192" schedlab run -m 'synthetic:pack:0' -- hackbench
expect_exit 2 "core: count 99999999999999999999 is not in 1..8192" \
	schedlab topo -m 'synthetic:core:99999999999999999999'
expect_exit 2 "core: 'x' is not a count" schedlab topo -m 'synthetic:core:x'
expect_exit 2 "expected TYPE:COUNT (pack, numa, l3, core, pu), got 'pack'" \
	schedlab topo -m 'synthetic:pack core:2'
expect_exit 2 "pu:2: unexpected '(' (attributes in parentheses" \
	schedlab topo -m 'synthetic:core:2 pu:2(indexes=0,1)'
expect_exit 2 "2 x 1 x 1 x 4096 x 2 is more than 8192 CPUs, the most schedlab simulates" \
	schedlab ab -m 'synthetic:pack:2 core:4096 pu:2' --test SM_IDLE -- hackbench
expect_exit 2 "pack:2: unexpected '?'" schedlab topo -m "$(printf 'synthetic:pack:2\ncore:2')"
same_output domains-westmere-ex-8s-160 schedlab topo -m westmere-ex-8s-160 --domains

same_output topo-epyc-milan-2s-256 schedlab topo -m epyc-milan-2s-256
same_output machines-v-twice schedlab machines -v

expect_exit 0 "" schedlab machines --help
expect_exit 0 "" schedlab topo -h
expect_exit 0 "" schedlab features --help
expect_exit 0 "" schedlab topo --machine=smp2
expect_exit 0 "" schedlab topo --machine smp2

expect_exit 2 "unknown machine 'nosuchbox'" schedlab topo -m nosuchbox
expect_exit 2 "missing -m" schedlab topo
expect_exit 2 "needs a value" schedlab topo -m
expect_exit 2 "unknown option '--bogus'" schedlab topo -m smp2 --bogus
expect_exit 0 "" schedlab topo -m smp4 --domains --cpu=3
expect_exit 2 "--cpu 4 is out of range: machine 'smp4' has CPUs 0-3" \
	schedlab topo -m smp4 --domains --cpu 4
expect_exit 2 "--cpu needs a CPU number, not 'x'" schedlab topo -m smp4 --domains --cpu x
expect_exit 2 "--cpu needs a CPU number, not '-1'" schedlab topo -m smp4 --domains --cpu -1
expect_exit 2 "--cpu needs a CPU number, not '1x'" schedlab topo -m smp4 --domains --cpu 1x
expect_exit 2 "needs a value" schedlab topo -m smp4 --domains --cpu
expect_exit 2 "--cpu goes with --domains" schedlab topo -m smp4 --cpu 0
expect_exit 2 "--costs and --domains print different things" schedlab topo -m smp4 --costs --domains
# topo --costs: every line is a --cost assignment, and giving them all back
# changes nothing (the run prints what the defaults print)
run_cmd schedlab topo -m power10-96 --costs
if [ "$status" -eq 0 ] && grep -q '^cacheline.numa=' "$tmp/out" && grep -q '^llc_hit=' "$tmp/out" &&
	! grep -qv '^[a-z_0-9]*\(\.[a-z0-9]*\)*=[0-9][0-9]*$' "$tmp/out"; then
	costs_run() {
		set --
		while read -r a; do set -- "$@" --cost "$a"; done <"$tmp/out"
		"$SCHEDLAB" run -m power10-96 "$@" -- perf bench sched pipe -l 500 >"$tmp/costs.out" 2>&1
	}
	costs_run
	"$SCHEDLAB" run -m power10-96 -- perf bench sched pipe -l 500 >"$tmp/costs.ref" 2>&1
	if cmp -s "$tmp/costs.out" "$tmp/costs.ref"; then ok "topo --costs round-trips through --cost"; else
		not_ok "topo --costs round-trips through --cost" "$(diff "$tmp/costs.out" "$tmp/costs.ref" | head -4)"; fi
else
	not_ok "topo --costs" "status $status" "$(head -3 "$tmp/out")"
fi
expect_exit 2 "unknown scheduler feature 'NO_SUCH_FEATURE'" \
	schedlab features --features NO_SUCH_FEATURE
# v6.18 features whose subsystem the model lacks: rejected, naming it
expect_exit 2 "scheduler feature 'HRTICK' is not modelled: it needs the high-resolution scheduler tick" \
	schedlab features --features HRTICK
expect_exit 2 "'NO_RT_RUNTIME_SHARE' is not modelled: it needs RT throttling" \
	schedlab run -m smp2 --features NO_RT_RUNTIME_SHARE -- hackbench -l 10
expect_exit 2 "'ATTACH_AGE_LOAD' is not modelled" \
	schedlab ab -m smp2 --test ATTACH_AGE_LOAD -- hackbench -l 10
expect_exit 2 "--sysctl tunable_scaling: value must be an integer in 0..2, got '3'" \
	schedlab run -m smp2 --sysctl tunable_scaling=3 -- hackbench -l 10

# the effective base slice in the JSON: v6.18's boot scaling, the policy, a write
base_slice() {
	"$SCHEDLAB" run "$@" --json "$tmp/slice.json" -- hackbench -g 1 -l 10 >/dev/null 2>&1 &&
		sed -n 's/^ *"base_slice_ns": \([0-9]*\),$/\1/p' "$tmp/slice.json"
}
for c in "2800000 -m xeon-8269cy-2s" "2100000 -m smp4" "700000 -m smp1" \
	"700000 -m xeon-8269cy-2s --sysctl tunable_scaling=0" \
	"5600000 -m xeon-8269cy-2s --sysctl tunable_scaling=2" \
	"1000000 -m xeon-8269cy-2s --sysctl base_slice_ns=1000000"; do
	# shellcheck disable=SC2086
	got=$(base_slice ${c#* })
	if [ "$got" = "${c%% *}" ]; then ok "base slice ${c#* }: $got"; else not_ok "base slice ${c#* }" "got '$got', want ${c%% *}"; fi
done
expect_exit 2 "unknown option '--bogus'" schedlab machines --bogus
expect_exit 2 "unknown command 'nosuchcommand'" schedlab nosuchcommand
expect_exit 2 "command" schedlab

# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------

# The benchmarks' own output, on small machines.
golden run-pipe-smp2 schedlab run -m smp2 -- perf bench sched pipe -l 10000
golden run-pipe-threads-smp1 schedlab run -m smp1 -- perf bench sched pipe -T -l 5000
golden run-futex-wake-xeon schedlab run -m xeon-8269cy-2s -- perf bench -r 3 futex wake
golden run-futex-wake-silent schedlab run -m smp4 -- perf bench futex wake -t 8 -w 2 -s
golden run-futex-wake-buckets schedlab run -m smp4 -- perf bench -r 2 futex wake -t 8 -b 64
# perf bench futex requeue: one at a time, -q 3 (the last batch short), -B with shared futexes
golden run-futex-requeue-xeon schedlab run -m xeon-8269cy-2s -- perf bench -r 3 futex requeue
golden run-futex-requeue-smp4 schedlab run -m smp4 -- perf bench -r 3 futex requeue -t 8 -q 3
# perf bench futex wake-parallel: one waking thread per blocked one, two, with -S -b 0
golden run-futex-wake-parallel-xeon schedlab run -m xeon-8269cy-2s -- perf bench -r 2 futex wake-parallel
golden run-futex-wake-parallel-smp4 schedlab run -m smp4 -- perf bench -r 2 futex wake-parallel -t 8 -w 2
golden run-futex-wake-parallel-shared schedlab run -m smp4 -- perf bench -r 2 futex wake-parallel -t 6 -w 3 -S -b 0 -s
golden run-futex-requeue-broadcast schedlab run -m smp4 -- perf bench -r 2 futex requeue -t 8 -B -S -b 0
# requeue -p: FUTEX_WAIT_REQUEUE_PI / FUTEX_CMP_REQUEUE_PI, one at a time and all at once
golden run-futex-requeue-pi-smp4 schedlab run -m smp4 -- perf bench -r 3 futex requeue -p -t 8
golden run-futex-requeue-pi-broadcast schedlab run -m smp4 --lock-stat -- perf bench -r 2 futex requeue -p -B -t 8 -s
# perf bench futex hash: the private hash, a tiny one (threads collide), the global hash
golden run-futex-hash-smp4 schedlab run -m smp4 -- perf bench futex hash -r 1 -f 64
golden run-futex-hash-2buckets schedlab run -m smp4 -- perf bench futex hash -r 1 -t 8 -f 1 -b 2
golden run-futex-hash-global schedlab run -m smp4 -- perf bench futex hash -r 1 -f 16 -b 0 -s -S
# perf bench futex lock-pi: one futex for all (contended: the rt_mutex's waiters, the
# handoff), a futex each (-M: never contended) with the global hash, RT threads (no
# timer slack in usleep(1)) with the contention view
golden run-futex-lock-pi-xeon schedlab run -m xeon-8269cy-2s -- perf bench futex lock-pi -r 1
golden run-futex-lock-pi-multi schedlab run -m smp4 -- perf bench futex lock-pi -r 1 -t 8 -M -b 0
golden run-futex-lock-pi-rt schedlab run -m smp4 --lock-stat -- chrt -f 10 perf bench futex lock-pi -r 1 -t 6 -S -s
golden run-messaging-smp4 schedlab run -m smp4 -- perf bench sched messaging -g 2 -l 100
golden run-messaging-pipe-threads-smp4 schedlab run -m smp4 -- perf bench sched messaging -p -t -g 1 -l 50
golden run-hackbench-smt2 schedlab run -m smt2-2s-16 -- hackbench -g 2 -l 100
golden run-hackbench-pipe-threads schedlab run -m smt2-2s-16 -- hackbench -p -T -g 1 -l 100 -s 512
golden run-hackbench-seed7 schedlab run -m smp4 --seed 7 -- hackbench -g 1 -l 200
golden run-hackbench-features schedlab run -m smp4 --features NO_RUN_TO_PARITY,NO_DELAY_DEQUEUE -- hackbench -g 1 -l 200
golden run-stress-smp4 schedlab run -m smp4 -- stress-ng --cpu 8 --timeout 2 --metrics-brief
golden run-stress-load50 schedlab run -m smp4 -- stress-ng --cpu 4 -l 50 --cpu-ops 100 --metrics-brief
# --cpu-ops is shared, ceil(10 / 4) = 3 each: 12 bogo ops; no --timeout: "defaulting to a 1 day run"
golden run-stress-ops-shared schedlab run -m smp4 -- stress-ng --cpu 4 --cpu-ops 10 --metrics-brief
golden run-stress-slice-ms schedlab run -m smp2 -- stress-ng --cpu 0 --cpu-load 25 --cpu-load-slice 10 --timeout 1 --metrics-brief
expect_exit 0 "" schedlab run -m smt2-2s-16 --check -- stress-ng --cpu 20 -l 30 --timeout 1
expect_exit 0 "" schedlab run -m smp2 --check -- stress-ng --cpu 2 -l 0 --timeout 1
expect_exit 0 "" schedlab run -m smp2 --check -- stress-ng --cpu 2 -l 40 --cpu-load-slice 0 --timeout 2
# UnixBench 6.0.0: context1 alone prints its two COUNT lines (parent, then
# child); Run's context1 prints its heartbeat, score line and partial index
golden run-context1-smp2 schedlab run -m smp2 -- context1 1
golden run-unixbench-context1-smp4 schedlab run -m smp4 -- unixbench context1 -i 2 -c 2
expect_exit 2 "context1: Usage: context duration" schedlab run -m smp2 -- context1
expect_exit 2 "context1: Usage: context duration" schedlab run -m smp2 -- context1 1 2
expect_exit 2 "context1: duration needs an integer in 1..86400, got '0'" schedlab run -m smp2 -- context1 0
expect_exit 2 "context1: duration needs an integer in 1..86400, got 'ten'" schedlab run -m smp2 -- context1 ten
expect_exit 2 "Run: -i (iterations) needs an integer in 1..1000, got '0'" schedlab run -m smp2 -- unixbench context1 -i 0
expect_exit 2 "Run: -i (iterations) needs an integer in 1..1000, got ''" schedlab run -m smp2 -- unixbench context1 -i
expect_exit 2 "Run: -c (copies) needs an integer in 1..10000, got '0'" schedlab run -m smp2 -- unixbench context1 -c 0
expect_exit 2 "Run: -c (copies) needs an integer in 1..10000, got '10001'" schedlab run -m smp2 -- unixbench context1 -c 10001
expect_exit 2 "Run: -c (copies) needs an integer in 1..10000, got 'two'" schedlab run -m smp2 -- Run context1 -c two
expect_exit 2 "Run: unknown option -t" schedlab run -m smp2 -- unixbench context1 -t 1
expect_exit 2 "Run: unknown test \"nosuch\"" schedlab run -m smp2 -- unixbench nosuch
expect_exit 2 "Run: test \"pipe\" is not modelled (only context1)" schedlab run -m smp2 -- ./Run pipe
expect_exit 2 "Run: give the test: context1" schedlab run -m smp2 -- unixbench -i 1
# reaim (AIM7): its table per user count, the standard workfiles compiled in
golden run-reaim-compute-smp4 schedlab run -m smp4 -- reaim -s 2 -e 6 -i 2 -j 20 -f workfile.compute
golden run-reaim-fserver-nosync-smt2 schedlab run -m smt2-2s-16 -- reaim -s 8 -e 8 -y -j 30 -f workfile.fserver
golden run-reaim-short-taskset-smt2 schedlab run -m smt2-2s-16 -- taskset -c 0-3,8-11 reaim -s 16 -e 16 -j 20
same_output run-reaim-twice schedlab run -m smp4 -- reaim -s 3 -e 3 -j 30 -f workfile.alltests
expect_exit 2 "reaim: invalid option -- 'u': reaim has no -u; for N users give -s N -e N" schedlab run -m smp2 -- reaim -u 200
expect_exit 2 "reaim: -s needs an integer in 1..100000, got '0'" schedlab run -m smp2 -- reaim -s 0
expect_exit 2 "reaim: Cannot run backwards (start users 5 > end users 2)" schedlab run -m smp2 -- reaim -s 5 -e 2
expect_exit 2 "reaim: cannot read workfile '/nonexistent/workfile': No such file or directory" schedlab run -m smp2 -- reaim -f /nonexistent/workfile
expect_exit 2 "reaim: -b is not modelled" schedlab run -m smp2 -- reaim -b
mkfifo "$tmp/fifo.wf"
expect_exit 2 "reaim: workfile '$tmp/fifo.wf' is not a regular file" timeout 20 "$SCHEDLAB" run -m smp2 -- reaim -f "$tmp/fifo.wf"
expect_exit 2 "reaim: workfile '$tmp' is not a regular file" schedlab run -m smp2 -- reaim -f "$tmp"
printf '# a mix\n10 add_int\n10 frobnicate\n' >"$tmp/bad.wf"
expect_exit 2 "reaim: bad.wf:3: Test 'frobnicate' has not been registered." sh -c "cd '$tmp' && '$SCHEDLAB' run -m smp2 -- reaim -f bad.wf"
printf '10 add_int\nten sieve\n' >"$tmp/bad2.wf"
expect_exit 2 "bad2.wf:2: bad weight 'ten' in 'ten sieve'" schedlab run -m smp2 -- reaim -f "$tmp/bad2.wf"
printf 'STARTUSERS 2\nQUUX 1\n' >"$tmp/bad.config"
expect_exit 2 "bad.config:2: unknown line in config file: 'QUUX 1'" schedlab run -m smp2 -- reaim -c "$tmp/bad.config"
printf 'FROB 1\n' >"$tmp/bad2.config"
expect_exit 2 "bad2.config:1: bad size in 'FROB 1'" schedlab run -m smp2 -- reaim -c "$tmp/bad2.config"
expect_exit 0 "" schedlab run -m smp4 --check -- context1 1

# schbench as of 2016: message threads and their futex-woken workers
golden run-schbench2016-smp4 schedlab run -m smp4 -- schbench-2016 -m 2 -t 4 -r 1
golden run-schbench2016-nosleep-smp4 schedlab run -m smp4 -- schbench-2016 -m 1 -t 6 -r 1 -s 0 -c 5000
expect_exit 0 "" schedlab run -m smp4 --check -- schbench-2016 -m 2 -t 3 -r 1 -s 2000 -c 1000
expect_exit 0 "" schedlab run -m smt2-2s-16 --check -- schbench-2016 -m 2 -t 8 -r 1
expect_exit 0 "" schedlab run -m smp2 --check -- schbench-2016 -m 1 -t 2 -r 1 -c 0 -s 0
expect_exit 2 "schbench-2016: -r needs an integer in 1..86400, got '0'" schedlab run -m smp4 -- schbench-2016 -r 0
expect_exit 2 "schbench-2016: -t needs an integer" schedlab run -m smp4 -- schbench-2016 -t x
expect_exit 2 "the real tool divides by zero" schedlab run -m smp4 -- schbench-2016 -s 3
expect_exit 2 "schbench-2016: -R is not modelled" schedlab run -m smp4 -- schbench-2016 -R 100
expect_exit 2 "schbench-2016: -p is not modelled" schedlab run -m smp4 -- schbench-2016 -p 4096
expect_exit 2 "schbench-2016: unknown option '--nope'" schedlab run -m smp4 -- schbench-2016 --nope
expect_exit 2 "schbench-2016: unexpected argument 'extra'" schedlab run -m smp4 -- schbench-2016 -r 1 extra
expect_exit 2 "more than 1000000 tasks" schedlab run -m smp4 -- schbench-2016 -m 10000 -t 10000
# the current schbench: workers sleep, take their CPU's lock and multiply matrices
golden run-schbench-smp4 schedlab run -m smp4 -- schbench -r 2 -F 16 -n 2
golden run-schbench-interval-smp4 schedlab run -m smp4 -- schbench -m 2 -t 3 -r 2 -F 64 -n 1 -s 50 -i 1
golden run-schbench-nolock-smp4 schedlab run -m smp4 -- schbench -m 1 -t 8 -r 1 -F 32 -n 3 -L
expect_exit 0 "" schedlab run -m smp4 --check -- schbench -m 2 -t 4 -r 1 -F 32 -n 2
expect_exit 0 "" schedlab run -m smt2-2s-16 --check -- schbench -m 2 -r 1 -F 16 -n 1 -s 0
expect_exit 0 "" schedlab run -m smp2 --check -- schbench -t 3 -r 1 -F 0 -n 0 -s 0 -L
golden run-schbench-altra80 schedlab run -m altra-80 -- schbench -m 2 -r 5
expect_exit 2 "schbench: -r needs an integer in 1..86400, got '0'" schedlab run -m smp4 -- schbench -r 0
expect_exit 2 "schbench: -F needs an integer" schedlab run -m smp4 -- schbench -F x
expect_exit 2 "schbench: -R is not modelled" schedlab run -m smp4 -- schbench -R 100
expect_exit 2 "schbench: -p 2000000 is more than the tool's 1048576-byte pipe buffer" schedlab run -m smp4 -- schbench -p 2000000
expect_exit 2 "schbench: -w is not modelled" schedlab run -m smp4 -- schbench -w 5
expect_exit 2 "schbench: --cache_footprint is ignored by the real tool" schedlab run -m smp4 -- schbench --cache_footprint 64
expect_exit 2 "schbench: unknown option '--nope'" schedlab run -m smp4 -- schbench --nope
expect_exit 2 "schbench: unexpected argument 'extra'" schedlab run -m smp4 -- schbench -r 1 extra
expect_exit 2 "more than 1000000 tasks" schedlab run -m smp4 -- schbench -m 10000 -t 10000
golden run-funclatency schedlab run -m smp2 --funclatency __schedule,try_to_wake_up,sched_tick -- perf bench sched pipe -l 5000

# rt-app FILE.json: the examples, their goldens, and assertions on the
# summary's columns of one thread:
# $2 loops, $3 run_mean, $4 period_mean, $5 util%, $6 slack_min, $7 slack_mean,
# $8 missed, $9 wu_lat_mean, $10 wu_lat_max (us)
rtapp_thread() {
	file=$1
	thread=$2
	cond=$3
	run_cmd "$SCHEDLAB" run -m smp4 -- rt-app "$root/examples/$file"
	if [ "$status" -ne 0 ]; then
		not_ok "rt-app $file: $thread" "exited with status $status"
		show_stderr
		return
	fi
	line=$(grep "^  $thread " "$tmp/out")
	if [ -n "$line" ] && echo "$line" | awk "{ exit !($cond) }"; then
		ok "rt-app $file: $thread: $cond"
	else
		not_ok "rt-app $file: $thread: $cond" "summary line: ${line:-none}"
	fi
}
golden run-rtapp-periodic-smp2 schedlab run -m smp2 -- rt-app examples/periodic.json
golden run-rtapp-condvar-smp2 schedlab run -m smp2 -- rt-app examples/condvar.json
# four SCHED_DEADLINE tasks on smp2: the summary, then where push/pull and
# find_later_rq() moved them (sched_migrate_task, prio -1 once DL)
rtapp_with_migrations() {
	schedlab run -m smp2 --trace "$tmp/mig.trace" --trace-events sched_migrate_task -- rt-app "$1" &&
		grep sched_migrate_task "$tmp/mig.trace"
}
golden run-rtapp-deadline-smp2 rtapp_with_migrations examples/rtapp-deadline.json
# a seventh 0.3 reservation does not fit smp2's 1.8 CPUs: EBUSY, and rt-app exits
expect_exit 1 "sched_setattr: failed to set deadline attributes: Device or resource busy" \
	schedlab run -m smp2 -- rt-app tests/cli/rtapp/deadline-ebusy.json
# a DL thread pinned to one CPU: EPERM at sched_setattr(); a DL thread's
# later phase on one CPU: EBUSY at pthread_setaffinity_np()
expect_exit 1 "sched_setattr: failed to set deadline attributes: Operation not permitted" \
	schedlab run -m smp2 -- rt-app tests/cli/rtapp/deadline-pinned.json
expect_exit 1 "rt-app: thread dl-0: pthread_setaffinity_np: Device or resource busy" \
	schedlab run -m smp2 -- rt-app tests/cli/rtapp/deadline-phase-cpus.json
same_output rtapp-mutex-deterministic schedlab run -m smp4 --seed 3 -- rt-app examples/mutex.json
# 3 ms every 10 ms on an idle CPU: 30%, no period missed, ~7 ms of slack
rtapp_thread rtapp-deadline.json dl-3 '$2 == 100 && $8 == 0 && $3 > 1990 && $3 < 2010'
rtapp_thread periodic.json periodic-0 '$2 == 100 && $5 > 29.5 && $5 < 30.5 && $8 == 0 && $6 > 6900 && $10 < 100'
# the critical section is taken in turns: every loop done, 1 ms of work and 1 ms asleep
rtapp_thread mutex.json locker-0 '$2 == 200 && $3 > 990 && $3 < 1010 && $4 >= 2000 && $4 < 2100'
rtapp_thread mutex.json locker-1 '$2 == 200 && $4 >= 2000 && $4 < 2100'
# PTHREAD_PRIO_INHERIT: the boosted holder runs before the FIFO 10 hog, so the FIFO 50
# task waits at most its 2 ms section (without pi_enabled the hog's 8 ms too: slack ~11 ms)
rtapp_thread pi_mutex.json high-2 '$2 == 49 && $6 > 17000'
rtapp_thread pi_mutex.json mid-1 '$2 == 49 && $3 > 9000'
# a signal every 4 ms and a broadcast every 4 ms keep both consumers going
rtapp_thread condvar.json producer-0 '$2 > 100'
rtapp_thread condvar.json consumer-1 '$2 > 100 && $3 > 490'
rtapp_thread condvar.json consumer-2 '$2 > 100'
# sync hands the turn over: each loop is one thread's 500 us, then the other's
rtapp_thread sync.json pong-1 '$2 == 100 && $4 > 990 && $4 < 1100'
rtapp_thread sync.json ping-0 '$2 == 99'
# the short task waits at the barrier for the long one: both loop at 3 ms
rtapp_thread barrier.json short-0 '$2 == 100 && $3 < 1010 && $4 > 2990 && $4 < 3100'
rtapp_thread barrier.json long-1 '$2 == 100 && $4 > 2990 && $4 < 3100'
# resumed every 5 ms: the sleeper loops as often as the waker
rtapp_thread suspend_resume.json sleeper-0 '$2 >= 195 && $2 <= 201'
rtapp_thread suspend_resume.json waker-1 '$2 >= 195 && $2 <= 201'
# five forks, each a thread named NAME-IND-NNNN running its 10 loops
rtapp_thread fork.json worker-1-0000 '$2 == 10 && $3 > 990'
rtapp_thread fork.json worker-5-0004 '$2 == 10'
# every post is taken, none lost even when the taker is late
rtapp_thread sem.json taker-1 '$2 == 50 && $3 > 490'
# two threads on CPU 0 alternate: each loop is its 500 us and the other's
rtapp_thread yield.json yielder-0 '$2 == 200 && $4 > 990 && $4 < 1100'
run_cmd "$SCHEDLAB" run -m smp4 --schedstat "$tmp/yield.schedstat" -- rt-app "$root/examples/yield.json"
if [ "$status" -eq 0 ] && grep -q '^cpu0 400 ' "$tmp/yield.schedstat"; then
	ok "rt-app yield.json: 400 sched_yield() calls counted in cpu0's yld_count"
else
	not_ok "rt-app yield.json: yld_count" "$(grep '^cpu0' "$tmp/yield.schedstat" 2>/dev/null)"
fi
# 12 ms of work a 10 ms period: the relative timer restarts (each loop
# -2 ms of slack), the absolute one falls further behind each period
rtapp_thread timer_relative.json relative-0 '$6 > -2100 && $7 > -2100 && $8 == $2'
rtapp_thread timer_relative.json absolute-1 '$6 < -100000 && $8 == $2'
# phases: 2 x (20 light + 20 heavy loops), the heavy ones at nice 10 beside a busy neighbour
rtapp_thread phases.json phased-0 '$2 == 80 && $8 > 0'
rtapp_thread phases.json neighbour-1 '$2 == 400'
# cpus per phase: the stopper moves the thread 1 -> 2 and back each pass
# SCHED_FIFO above a fair hog on its CPU: every period met, woken at once;
# SCHED_IDLE beside a nice-0 hog: about 3/1027 of the CPU
rtapp_thread policies.json rt-0 '$2 >= 99 && $8 == 0 && $11 < 20'
rtapp_thread policies.json background-3 '$2 >= 1 && $2 <= 10'
rtapp_thread policies.json normal-2 '$2 > 980'
expect_exit 0 "" schedlab run -m smp4 --check -- rt-app examples/policies.json
rtapp_thread affinity.json mover-0 '$2 == 90 && $3 > 990'
run_cmd "$SCHEDLAB" run -m smp4 --trace "$tmp/aff.trace" -- rt-app "$root/examples/affinity.json"
if [ "$status" -eq 0 ] && [ "$(grep -c 'migration/.*sched_migrate_task: comm=mover-0' "$tmp/aff.trace")" -ge 5 ]; then
	ok "rt-app affinity.json: phase cpus move the thread through the stopper"
else
	not_ok "rt-app affinity.json: phase cpus move the thread through the stopper" "status $status"
fi
expect_exit 0 "" schedlab run -m smp4 --check -- rt-app examples/affinity.json
# a background rt-app may loop forever: the measured benchmark's end stops it
expect_exit 0 "" schedlab run -m smp2 --check --also 'rt-app tests/cli/rtapp/bad-forever.json' -- perf bench sched pipe -l 2000
expect_exit 0 "" schedlab run -m smp4 --check -- rt-app examples/condvar.json
expect_exit 0 "" schedlab run -m smp4 --check -- rt-app examples/yield.json
expect_exit 0 "" schedlab run -m smp4 --check -- rt-app examples/phases.json
expect_exit 0 "" schedlab run -m smp4 --check -- taskset -c 1 rt-app examples/fork.json
# a thread still waiting when the duration ends is cancelled there and named
run_cmd "$SCHEDLAB" run -m smp4 -- rt-app "$root/tests/cli/rtapp/cancelled-wait.json"
if [ "$status" -eq 0 ] && grep -q '^# b-1 was still waiting in wait when the duration ended' "$tmp/out"; then
	ok "rt-app: a thread waiting at the end is reported"
else
	not_ok "rt-app: a thread waiting at the end is reported" "status $status"
fi
# the log files of global logdir, rt-app's header and one line a loop
mkdir -p "$tmp/rtlogs"
sed "s|\"duration\" : 2,|\"duration\" : 2, \"logdir\" : \"$tmp/rtlogs\", \"log_basename\" : \"ex\",|" \
	"$root/examples/periodic.json" > "$tmp/rtlog.json"
run_cmd "$SCHEDLAB" run -m smp4 -- rt-app "$tmp/rtlog.json"
if [ "$status" -eq 0 ] && [ "$(wc -l < "$tmp/rtlogs/ex-periodic-0.log")" -eq 101 ] &&
	head -1 "$tmp/rtlogs/ex-periodic-0.log" | grep -q '^#idx     perf      run   period'; then
	ok "rt-app: logdir gets one log per thread"
else
	not_ok "rt-app: logdir gets one log per thread" "status $status"
	show_stderr
fi
# malformed files: one line naming the file and line, exit 2
rb=tests/cli/rtapp
expect_exit 2 "rt-app: $rb/bad-syntax.json:4:3: JSON syntax error: object value separator ',' expected" schedlab run -m smp4 -- rt-app $rb/bad-syntax.json
expect_exit 2 "rt-app: $rb/bad-truncated.json:1:42: JSON syntax error: unexpected end of file" schedlab run -m smp4 -- rt-app $rb/bad-truncated.json
expect_exit 2 "bad-unknown-key.json:1: task a: unknown key \"slep\"" schedlab run -m smp4 -- rt-app $rb/bad-unknown-key.json
expect_exit 2 "bad-unknown-event.json:1: task a: unknown key \"event\"" schedlab run -m smp4 -- rt-app $rb/bad-unknown-event.json
expect_exit 2 "bad-global-key.json:1: global: unknown key \"duraton\"" schedlab run -m smp4 -- rt-app $rb/bad-global-key.json
expect_exit 2 "bad-negative.json:1: run: -5 is out of range" schedlab run -m smp4 -- rt-app $rb/bad-negative.json
expect_exit 2 "bad-type.json:1: run: expected an integer, got string" schedlab run -m smp4 -- rt-app $rb/bad-type.json
expect_exit 2 "bad-lock-held.json:5: task a: lock: mutex m is already held" schedlab run -m smp4 -- rt-app $rb/bad-lock-held.json
expect_exit 2 "bad-wait-nolock.json:1: task a: wait: mutex m must be locked before waiting" schedlab run -m smp4 -- rt-app $rb/bad-wait-nolock.json
expect_exit 2 "bad-fifo.json:1: task a: SCHED_FIFO priority 100 is out of range (1..99)" schedlab run -m smp4 -- rt-app $rb/bad-fifo.json
# no reservation given (rt-app passes runtime 0 to sched_setattr(), which fails with EINVAL)
expect_exit 2 "bad-deadline.json:1: task a: SCHED_DEADLINE dl-runtime 0 dl-deadline 0 dl-period 0 us: sched_setattr() fails with EINVAL" schedlab run -m smp4 -- rt-app $rb/bad-deadline.json
expect_exit 2 "bad-forever.json:1: task a loops forever" schedlab run -m smp4 -- rt-app $rb/bad-forever.json
expect_exit 2 "bad-fork.json:1: task a: fork: can't fork unknown task zz" schedlab run -m smp4 -- rt-app $rb/bad-fork.json
expect_exit 2 "bad-mem.json:1: task a: event mem: memory and I/O load" schedlab run -m smp4 -- rt-app $rb/bad-mem.json
expect_exit 2 "bad-cpus.json:1: task a: invalid cpu 9 in cpus (4 CPUs)" schedlab run -m smp4 -- rt-app $rb/bad-cpus.json
expect_exit 2 "rt-app: $rb/missing.json: No such file or directory" schedlab run -m smp4 -- rt-app $rb/missing.json
expect_exit 2 "rt-app: no workload file given" schedlab run -m smp4 -- rt-app
expect_exit 2 "rt-app: reading the workload from stdin" schedlab run -m smp4 -- rt-app -
expect_exit 2 "rt-app: -l needs a number" schedlab run -m smp4 -- rt-app -l x examples/periodic.json
# statically fine, stuck at run time: the run ends (exit 1) naming the thread
expect_exit 1 "rt-app: $rb/stuck-barrier.json:1: thread a-0 is blocked forever in barrier (b)" schedlab run -m smp4 -- rt-app $rb/stuck-barrier.json
expect_exit 1 "stuck-abba.json:3: thread a-0 is blocked forever in lock2 (m2)" schedlab run -m smp4 -- rt-app $rb/stuck-abba.json
# with pi_enabled the mutexes are PI futexes: the second lock of the cycle returns
# EDEADLK (the full chain walk of FUTEX_LOCK_PI), rt-app ignores it and both finish
expect_exit 0 "" schedlab run -m smp4 --check -- rt-app $rb/abba-pi.json

# perf stat: the command's own output once per run (seeds 1, 2, 3), then
# perf stat's summary; with --null only the elapsed line.
golden run-perf-stat-null-smp4 schedlab run -m smp4 -- perf stat --null --repeat 3 -- perf bench sched pipe -l 2000
golden run-perf-stat-smp4 schedlab run -m smp4 -- perf stat --repeat 3 -- perf bench sched pipe -l 2000
# one run: no "(N runs)" and no +-, the rusage lines; no '--' before the command
golden run-perf-stat-single-smp4 schedlab run -m smp4 -- perf stat -r 1 hackbench -g 1 -l 50
golden run-perf-stat-table-smp4 schedlab run -m smp4 --seed 5 -- perf stat -n -r3 --table -- perf bench sched messaging -g 1 -l 50
# Run i of perf stat -r N is `run --seed SEED+i` of the command: the mean and
# the standard error of the mean (perf's stddev_stats()) of three single runs
# are what -r 3 prints, with perf's precision; the counters' means too.
ps_cmd="perf bench sched messaging -g 1 -l 100"
ps_ok=yes
for seed in 1 2 3; do
	# shellcheck disable=SC2086
	schedlab run -m smp4 --seed $seed -- perf stat -r 1 -- $ps_cmd >"$tmp/ps-seed$seed" 2>&1 || ps_ok=no
done
# shellcheck disable=SC2086
schedlab run -m smp4 --json "$tmp/ps.json" -- perf stat -r 3 -- $ps_cmd >"$tmp/ps-r3" 2>&1 || ps_ok=no
ps_expect=$(cat "$tmp/ps-seed1" "$tmp/ps-seed2" "$tmp/ps-seed3" | awk '
	/ seconds time elapsed$/ { x[n++] = $1 }
	/ context-switches / { gsub(",", "", $1); cs += $1; ncs++ }
	END {
		if (n != 3 || ncs != 3) exit 1
		m = (x[0] + x[1] + x[2]) / 3
		for (i = 0; i < 3; i++) ss += (x[i] - m) ^ 2
		sd = sqrt(ss / 2 / 3)
		p = sd > 1 ? 0 : (sd > 0 ? -log(sd) / log(10) : 0)
		p = (p == int(p) ? p : int(p) + 1) + 2
		printf("%.0f | " "%." p "f +- %." p "f seconds time elapsed  ( +-%6.2f%% )\n",
		       cs / 3, m, sd, 100 * sd / m)
	}')
ps_got=$(awk '/ context-switches / { gsub(",", "", $1); c = $1 }
	/ seconds time elapsed/ { sub(/^ */, ""); print c " | " $0 }' "$tmp/ps-r3")
if [ "$ps_ok" = yes ] && [ -n "$ps_expect" ] && [ "$ps_expect" = "$ps_got" ] &&
	grep -q '"perf_stat": {' "$tmp/ps.json" && grep -q '"seed": 3,' "$tmp/ps.json" &&
	grep -q '"first_seed": 1,' "$tmp/ps.json"; then
	ok "perf stat -r 3 = the mean and standard error of --seed 1, 2, 3"
else
	not_ok "perf stat -r 3 = the mean and standard error of --seed 1, 2, 3" \
		"expected '$ps_expect'" "got      '$ps_got'"
fi
# json_sans KEY FILE: the run JSON without its top-level object KEY and
# wall_s, commas dropped (the object before KEY may end the record without it)
json_sans() {
	awk -v key="$1" '$0 ~ "^  \"" key "\": \\{" { skip = 1 } skip && /^  \},?$/ { skip = 0; next } !skip' "$2" |
		sed 's/,$//' | grep -v '"wall_s"'
}
# --json under perf stat -r 3 is the last run's record (seed 3) plus
# "perf_stat": a single run under perf stat (its counters cost each switch)
run_cmd schedlab run -m smp4 --seed 3 --json "$tmp/ps-seed3.json" -- perf stat -r 1 -- $ps_cmd
json_sans perf_stat "$tmp/ps.json" >"$tmp/ps.cmp"
json_sans perf_stat "$tmp/ps-seed3.json" >"$tmp/ps-seed3.cmp"
if [ "$status" -eq 0 ] && cmp -s "$tmp/ps.cmp" "$tmp/ps-seed3.cmp"; then
	ok "perf stat -r 3 --json: the last run's record, as perf stat -r 1 with --seed 3"
else
	not_ok "perf stat -r 3 --json: the last run's record, as perf stat -r 1 with --seed 3"
fi
expect_exit 0 "" schedlab run -m smp2 --check -- perf stat -r 2 -- stress-ng --cpu 2 --cpu-ops 4
expect_exit 2 "Run count must be a positive number" schedlab run -m smp2 -- perf stat -r -1 -- perf bench sched pipe
expect_exit 2 "--repeat 0 repeats forever" schedlab run -m smp2 -- perf stat --repeat 0 -- perf bench sched pipe
expect_exit 2 "limit of 1000 runs" schedlab run -m smp2 -- perf stat --repeat=1001 -- perf bench sched pipe
expect_exit 2 "--repeat needs an integer in 1..1000, got '5x'" schedlab run -m smp2 -- perf stat -r 5x -- perf bench sched pipe
expect_exit 2 "option '-r' needs a value" schedlab run -m smp2 -- perf stat -r
expect_exit 2 "perf stat: no command to run" schedlab run -m smp2 -- perf stat --null
expect_exit 2 "a nested 'perf stat'" schedlab run -m smp2 -- perf stat -r 2 -- perf stat -- perf bench sched pipe
expect_exit 2 "option '-I' is not modelled" schedlab run -m smp2 -- perf stat -I 100 -- perf bench sched pipe
expect_exit 2 "option '--per-thread' is not modelled" schedlab run -m smp2 -- perf stat --per-thread -- perf bench sched pipe
expect_exit 2 "--table is only supported with -r" schedlab run -m smp2 -- perf stat --table -- perf bench sched pipe
expect_exit 2 "hackbench: unknown option '--bogus'" schedlab run -m smp2 -- perf stat -r 2 -- hackbench --bogus
expect_exit 2 "not with perf stat --repeat 2" schedlab run -m smp2 --trace "$tmp/ps.trace" -- perf stat -r 2 -- perf bench sched pipe -l 10

# taskset as a prefix (util-linux's taskset): the command's first task gets
# the affinity and every task it forks inherits it; the benchmark prints
# what it prints without taskset.
golden run-taskset-pipe-smp2 schedlab run -m smp2 -- taskset -c 0 perf bench sched pipe -l 10000
# per CPU of a run's JSON: "CPU SWITCHES BUSY_NS"
per_cpu() {
	awk '/^        "cpu": / { c = $2 + 0 } /^        "busy_ns": / { b = $2 + 0 }
	     /^        "nr_switches": / { print c, $2 + 0, b }' "$1"
}
# taskset_cpus NAME JSON WANT-TASKSET IDLE-CPUS...: the JSON says the affinity,
# the CPUs outside it never switched (no task ran there) and stayed ~idle
taskset_cpus() {
	name=$1 json=$2 want=$3
	shift 3
	if [ "$status" -ne 0 ]; then
		not_ok "$name" "status $status"
		show_stderr
		return
	fi
	if ! grep -q "^    \"taskset\": \"$want\"$" "$json"; then
		not_ok "$name" "no benchmark.taskset \"$want\" in the JSON"
		return
	fi
	max=$(per_cpu "$json" | awk '$3 > m { m = $3 } END { print m + 0 }')
	for cpu in "$@"; do
		line=$(per_cpu "$json" | awk -v c="$cpu" '$1 == c')
		# no switch, and busy under 1% of the busiest CPU (ticks, IPIs, nohz balancing)
		if [ -z "$line" ] || ! echo "$line" | awk -v m="$max" '{ exit !($2 == 0 && $3 * 100 < m) }'; then
			not_ok "$name" "CPU $cpu ran tasks: cpu switches busy_ns = '$line', busiest CPU $max ns"
			return
		fi
	done
	ok "$name"
}
run_cmd schedlab run -m smp2 --check --json "$tmp/ts0.json" -- taskset -c 0 perf bench sched pipe -l 10000
taskset_cpus "taskset -c 0: both pipe tasks on CPU 0" "$tmp/ts0.json" 0 1
run_cmd schedlab run -m smp4 --check --json "$tmp/ts13.json" -- taskset -c 1-3 hackbench -g 1 -l 50
taskset_cpus "taskset -c 1-3: no hackbench task on CPU 0" "$tmp/ts13.json" 1-3 0
run_cmd schedlab run -m smp4 --check --json "$tmp/tsx.json" -- taskset 0x3 hackbench -g 1 -l 50
taskset_cpus "taskset 0x3: hackbench on CPUs 0-1 only" "$tmp/tsx.json" 0-1 2 3
run_cmd schedlab run -m smp4 --check --json "$tmp/tss.json" -- taskset -a -c 0-3:2 stress-ng --cpu 4 --cpu-ops 8
taskset_cpus "taskset -a -c 0-3:2: stress-ng on CPUs 0 and 2 only" "$tmp/tss.json" 0,2 1 3
# CPUs the machine lacks are dropped, as sched_setaffinity() drops them
run_cmd schedlab run -m smp2 --json "$tmp/ts15.json" -- taskset -c 1,5 perf bench sched pipe -l 1000
taskset_cpus "taskset -c 1,5 on smp2: CPU 1" "$tmp/ts15.json" 1 0
# every CPU allowed: the run without taskset, to the byte
run_cmd schedlab run -m smp2 -- taskset 0x3 perf bench sched pipe -l 10000
if [ "$status" -eq 0 ] && cmp -s "$tmp/out" "$golden_dir/run-pipe-smp2.out"; then
	ok "taskset of every CPU: the run-pipe-smp2 output"
else
	not_ok "taskset of every CPU: the run-pipe-smp2 output" "status $status"
fi
expect_exit 0 "" schedlab ab -m smp2 --base '' --test NO_SM_IDLE --runs 2 -- taskset -c 1 perf bench sched pipe -l 1000
printf 'name ts\ntitle Ts\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload taskset -c 0 perf bench sched pipe -l 1000\nmetric time_s\nruns 2\n' >"$tmp/ts.study"
expect_exit 0 "" schedlab study --file "$tmp/ts.study"
sed 's/taskset -c 0 /taskset -c 2 /' "$tmp/ts.study" >"$tmp/ts2.study"
expect_exit 2 "taskset: CPU list '2': CPU 2 does not exist on smp2 (CPUs 0-1)" schedlab study --file "$tmp/ts2.study"
expect_exit 2 "taskset: no command after the CPU list '0'" schedlab run -m smp2 -- taskset -c 0
expect_exit 2 "taskset: no mask and no command" schedlab run -m smp2 -- taskset
expect_exit 2 "taskset: CPU list '5': CPU 5 does not exist on smp2 (CPUs 0-1), so sched_setaffinity() fails with EINVAL" \
	schedlab run -m smp2 -- taskset -c 5 perf bench sched pipe -l 10000
expect_exit 2 "taskset: failed to parse CPU list: ''" schedlab run -m smp2 -- taskset -c '' perf bench sched pipe
expect_exit 2 "taskset: failed to parse CPU list: '1-0'" schedlab run -m smp2 -- taskset -c 1-0 perf bench sched pipe
expect_exit 2 "taskset: mask '0' selects no CPU" schedlab run -m smp2 -- taskset 0 perf bench sched pipe
expect_exit 2 "taskset: failed to parse CPU mask: 'zz'" schedlab run -m smp2 -- taskset zz perf bench sched pipe
expect_exit 2 "taskset: -p (an existing pid) is not modelled" schedlab run -m smp2 -- taskset -p 0 1234
expect_exit 2 "taskset: -p (an existing pid) is not modelled" schedlab run -m smp2 -- taskset -pc 0 1234
expect_exit 2 "taskset: invalid option '-x'" schedlab run -m smp2 -- taskset -x 0 hackbench
expect_exit 2 "perf bench sched pipe: bad or incomplete option '-x'" schedlab run -m smp2 -- taskset -c 0 perf bench sched pipe -x
expect_exit 2 "ab: --base: taskset: CPU list '5'" schedlab ab -m smp2 --base '' --test '' --runs 2 -- taskset -c 5 hackbench -g 1 -l 10

# chrt and nice as prefixes (util-linux chrt, coreutils nice): the command's
# first task runs under the policy and its children inherit it.
golden run-chrt-fifo-pipe-smp2 schedlab run -m smp2 -- chrt -f 50 perf bench sched pipe -l 1000
golden run-nice-pipe-smp2 schedlab run -m smp2 -- nice -n 5 perf bench sched pipe -l 1000
golden run-taskset-chrt-pipe-smp2 schedlab run -m smp2 -- taskset -c 0 chrt -f 50 perf bench sched pipe -l 1000
# two FIFO hogs take both CPUs: the fair pipe waits for the fair server (50 ms per 1 s)
golden run-also-chrt-hogs-pipe-smp2 schedlab run -m smp2 --check --also 'chrt -f 50 stress-ng --cpu 2' -- perf bench sched pipe -l 1000
run_cmd schedlab run -m smp2 --json "$tmp/chrt.json" -- chrt -r 10 nice -n 3 perf bench sched pipe -l 100
if [ "$status" -eq 0 ] && grep -q '^    "policy": "SCHED_RR 10"$' "$tmp/chrt.json"; then
	ok "chrt: the JSON names the policy"
else
	not_ok "chrt: the JSON names the policy" "status $status"
fi
run_cmd schedlab run -m smp2 --json "$tmp/alsochrt.json" --also 'chrt -f 5 stress-ng --cpu 1' -- nice perf bench sched pipe -l 100
if [ "$status" -eq 0 ] && grep -q '^    "policy": "SCHED_OTHER nice 10",$' "$tmp/alsochrt.json" &&
   grep -q '^      "policy": "SCHED_FIFO 5",$' "$tmp/alsochrt.json"; then
	ok "chrt, nice: the JSON names each workload's policy"
else
	not_ok "chrt, nice: the JSON names each workload's policy" "status $status"
fi
run_cmd schedlab run -m smp2 --json "$tmp/nochrt.json" -- perf bench sched pipe -l 100
if ! grep -q '"policy"' "$tmp/nochrt.json"; then
	ok "no chrt or nice: no policy in the JSON"
else
	not_ok "no chrt or nice: no policy in the JSON"
fi
expect_exit 0 "" schedlab run -m smp4 --check -- chrt -r 10 hackbench -g 2 -l 50
expect_exit 0 "" schedlab run -m smp4 --check -- chrt -i 0 hackbench -g 1 -l 50
expect_exit 0 "" schedlab run -m smp4 --check --also 'chrt -b 0 stress-ng --cpu 2' -- nice -n -5 hackbench -g 1 -l 50
expect_exit 0 "" schedlab run -m smp4 --check --also 'chrt -f 1 stress-ng --cpu 5 --cpu-ops 10' -- chrt -f 2 hackbench -g 1 -l 20
same_output "chrt: the same output twice" schedlab run -m smp4 -- chrt -r 5 hackbench -g 1 -l 50
expect_exit 2 "chrt: unsupported priority value for the policy: 0: SCHED_FIFO takes 1..99 (what chrt --max lists: SCHED_FIFO and SCHED_RR 1..99, the other policies 0)" \
	schedlab run -m smp2 -- chrt -f 0 perf bench sched pipe
expect_exit 2 "chrt: unsupported priority value for the policy: 100: SCHED_FIFO takes 1..99" \
	schedlab run -m smp2 -- chrt -f 100 perf bench sched pipe
expect_exit 2 "chrt: unsupported priority value for the policy: 5: SCHED_BATCH takes only 0 (" schedlab run -m smp2 -- chrt -b 5 hackbench
expect_exit 2 "chrt: invalid priority argument: 'x'" schedlab run -m smp2 -- chrt -f x hackbench
expect_exit 2 "chrt: too few arguments" schedlab run -m smp2 -- chrt -f 50
expect_exit 2 "chrt: failed to set pid 0's policy: Invalid argument" schedlab run -m smp2 -- chrt -d 0 hackbench
expect_exit 2 "nice: invalid adjustment 'x'" schedlab run -m smp2 -- nice -n x perf bench sched pipe
expect_exit 2 "nice: no command" schedlab run -m smp2 -- nice -n 5
expect_exit 2 "taskset: a taskset inside taskset is not modelled" \
	schedlab run -m smp2 -- taskset -c 0 chrt -f 5 taskset -c 1 hackbench

# --also COMMAND (issue 12): background workloads that start with the
# measured benchmark and stop when it ends; stdout is the measured one's.
golden run-also-stress-pipe-smp4 schedlab run -m smp4 --also 'stress-ng --cpu 1' -- perf bench sched pipe -l 10000
golden run-also-taskset-pipe-smp2 schedlab run -m smp2 --also 'taskset -c 0 stress-ng --cpu 1' -- taskset -c 0 perf bench sched pipe -l 10000
# usecs/op of a run's output
usecs() { awk '/usecs\/op/ { print $1 }' "$tmp/out"; }
# a hog on the pipe's own CPU takes CPU time from it: the pipe gets slower
run_cmd schedlab run -m smp2 -- taskset -c 0 perf bench sched pipe -l 10000
alone=$(usecs)
run_cmd schedlab run -m smp2 --check --also 'taskset -c 0 stress-ng --cpu 1' -- taskset -c 0 perf bench sched pipe -l 10000
hog=$(usecs)
if [ "$status" -eq 0 ] && awk -v a="$alone" -v h="$hog" 'BEGIN { exit !(h > 1.5 * a) }'; then
	ok "--also: a hog on CPU 0 slows the pipe pinned there ($alone -> $hog usecs/op)"
else
	not_ok "--also: a hog on CPU 0 slows the pipe pinned there" "status $status, $alone -> $hog usecs/op"
fi
# more hogs than CPUs: the pipe's tasks wait behind them
run_cmd schedlab run -m smp2 -- perf bench sched pipe -l 10000
alone=$(usecs)
run_cmd schedlab run -m smp2 --also 'stress-ng --cpu 4' -- perf bench sched pipe -l 10000
hog=$(usecs)
if [ "$status" -eq 0 ] && awk -v a="$alone" -v h="$hog" 'BEGIN { exit !(h > a) }'; then
	ok "--also 'stress-ng --cpu 4' on smp2 slows the pipe ($alone -> $hog usecs/op)"
else
	not_ok "--also 'stress-ng --cpu 4' on smp2 slows the pipe" "status $status, $alone -> $hog usecs/op"
fi
# the JSON keeps the workloads apart: the measured one's tasks under
# "benchmark", each background workload's under "also", with CPU time
run_cmd schedlab run -m smp2 --check --json "$tmp/also.json" --also 'stress-ng --cpu 2' \
	--also 'taskset -c 1 hackbench -g 1 -l 20' -- perf bench sched pipe -l 10000
also_json() {
	awk '/^  "benchmark": / { w = "bench" } /^  "also": / { w = "also"; n = 0 }
	     /^  "result": / { w = "" }
	     w == "also" && /^      "command": / { n++ }
	     w && /"(tasks|cpu_time_ns)": / { gsub(/[",:]/, ""); print w n, $1, $2 }' "$1"
}
if [ "$status" -eq 0 ] && also_json "$tmp/also.json" | awk '
	{ v[$1 " " $2] = $3 }
	END { exit !(v["bench tasks"] == 2 && v["bench cpu_time_ns"] > 0 &&
		     v["also1 tasks"] == 3 && v["also1 cpu_time_ns"] > 0 &&
		     v["also2 tasks"] == 41 && v["also2 cpu_time_ns"] > 0) }' &&
   grep -q '^      "command": "stress-ng --cpu 2",$' "$tmp/also.json" &&
   grep -q '^      "taskset": "1",$' "$tmp/also.json"; then
	ok "--also: the JSON splits tasks and CPU time by workload"
else
	not_ok "--also: the JSON splits tasks and CPU time by workload" "status $status" \
		"$(also_json "$tmp/also.json" | tr '\n' ';')"
fi
# deterministic: the same output and JSON (but wall_s) twice
run_cmd schedlab run -m smp2 --json "$tmp/also2.json" --also 'stress-ng --cpu 2' \
	--also 'taskset -c 1 hackbench -g 1 -l 20' -- perf bench sched pipe -l 10000
cp "$tmp/out" "$tmp/also2.out"
run_cmd schedlab run -m smp2 --json "$tmp/also3.json" --also 'stress-ng --cpu 2' \
	--also 'taskset -c 1 hackbench -g 1 -l 20' -- perf bench sched pipe -l 10000
if cmp -s "$tmp/out" "$tmp/also2.out" &&
   [ "$(grep -v wall_s "$tmp/also2.json")" = "$(grep -v wall_s "$tmp/also3.json")" ]; then
	ok "--also: the same output and JSON twice"
else
	not_ok "--also: the same output and JSON twice"
fi
# without --also, no "also" and no split in the JSON
run_cmd schedlab run -m smp2 --json "$tmp/noalso.json" -- perf bench sched pipe -l 1000
if ! grep -q '"also"\|"cpu_time_ns"' "$tmp/noalso.json"; then
	ok "no --also: no also section"
else
	not_ok "no --also: no also section"
fi
# a background stress-ng may lack --timeout: the measured run ends it
expect_exit 0 "" schedlab run -m smp4 --also 'stress-ng --cpu 0' -- stress-ng --cpu 1 --cpu-ops 4
expect_exit 0 "" schedlab run -m smp2 --also 'perf bench sched messaging -g 1' -- perf stat --null --repeat 2 -- perf bench sched pipe -l 1000
expect_exit 0 "" schedlab ab -m smp2 --test NO_WAKEUP_PREEMPTION --runs 2 --also 'stress-ng --cpu 1' -- perf bench sched pipe -l 1000
printf 'name al\ntitle Al\nvariant a -\nvariant b NO_WAKEUP_PREEMPTION\nmachine smp2\nworkload perf bench sched pipe -l 1000\noption also stress-ng --cpu 1\nmetric usecs_per_op\nruns 2\n' >"$tmp/al.study"
expect_exit 0 "" schedlab study --file "$tmp/al.study"
sed 's/option also stress-ng --cpu 1/option also stress-ng --cpu x/' "$tmp/al.study" >"$tmp/al2.study"
expect_exit 2 "--also 'stress-ng --cpu x': stress-ng: --cpu needs an integer" schedlab study --file "$tmp/al2.study"
expect_exit 2 "--also '': no command" schedlab run -m smp2 --also '' -- perf bench sched pipe -l 100
expect_exit 2 "--also '  ': no command" schedlab run -m smp2 --also '  ' -- perf bench sched pipe -l 100
expect_exit 2 "--also 'frob -x': unknown benchmark 'frob'" schedlab run -m smp2 --also 'frob -x' -- perf bench sched pipe -l 100
expect_exit 2 "--also 'perf stat -r 3 hackbench': perf stat cannot run in the background" \
	schedlab run -m smp2 --also 'perf stat -r 3 hackbench' -- perf bench sched pipe -l 100
expect_exit 2 "--also 'taskset -c 7 hackbench': taskset: CPU list '7': CPU 7 does not exist on smp2" \
	schedlab run -m smp2 --also 'taskset -c 7 hackbench' -- perf bench sched pipe -l 100
expect_exit 2 "run: too many --also options (at most 16), at 'hackbench'" schedlab run -m smp2 \
	--also hackbench --also hackbench --also hackbench --also hackbench --also hackbench \
	--also hackbench --also hackbench --also hackbench --also hackbench --also hackbench \
	--also hackbench --also hackbench --also hackbench --also hackbench --also hackbench \
	--also hackbench --also hackbench -- perf bench sched pipe -l 100
expect_exit 2 "ab: --base: --also 'hackbench -x'" schedlab ab -m smp2 --test NO_SM_IDLE --runs 2 --also 'hackbench -x' -- hackbench

# should_we_balance on POWER10, the issue's command: the sibling skip makes
# each call cheaper and changes no decision (the same migration sequence).
# (Decisions on identical states are compared in test_balance_features.)
swb() {
	status=0
	schedlab run -m power10-96 --features "$1" --json "$tmp/swb-$1.json" \
		--funclatency should_we_balance -- stress-ng --cpu 24 -l 100 --timeout 2 \
		>"$tmp/swb-$1.out" 2>&1 || status=$?
	sed -n 's/^avg = \([0-9]*\) nsecs.*/\1/p' "$tmp/swb-$1.out"
}
avg_skip=$(swb SWB_SMT_SKIP)
avg_noskip=$(swb NO_SWB_SMT_SKIP)
dig_skip=$(grep '"migration_digest"' "$tmp/swb-SWB_SMT_SKIP.json")
dig_noskip=$(grep '"migration_digest"' "$tmp/swb-NO_SWB_SMT_SKIP.json")
mig=$(sed -n 's/.*"nr_migrations": \([0-9]*\).*/\1/p' "$tmp/swb-SWB_SMT_SKIP.json")
if [ -n "$avg_skip" ] && [ -n "$avg_noskip" ] && [ "$avg_skip" -lt "$avg_noskip" ] &&
	[ "$dig_skip" = "$dig_noskip" ] && [ -n "$mig" ]; then
	ok "SWB_SMT_SKIP: cheaper should_we_balance ($avg_skip < $avg_noskip ns), same $mig migrations"
else
	not_ok "SWB_SMT_SKIP: cheaper should_we_balance, same migrations" \
		"avg $avg_skip vs $avg_noskip, digests '$dig_skip' '$dig_noskip', migrations $mig"
fi
# The wakelist policy on the Xeon: each of the three settings (and
# NO_TTWU_QUEUE) routes a different share of hackbench's wakeups through the
# wakelist; NO_TTWU_QUEUE routes none.
wakelist() {
	schedlab run -m xeon-8269cy-2s --features "$1" --json "$tmp/wl.json" \
		-- hackbench -l 100 >/dev/null 2>&1 || echo "status $?"
	sed -n 's/^  *"ttwu_queued": \([0-9]*\).*/\1/p' "$tmp/wl.json" | head -1
}
wl_default=$(wakelist TTWU_QUEUE_IDLE)
wl_noidle=$(wakelist NO_TTWU_QUEUE_IDLE)
wl_le1=$(wakelist NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1)
wl_off=$(wakelist NO_TTWU_QUEUE)
if [ -n "$wl_default" ] && [ -n "$wl_noidle" ] && [ -n "$wl_le1" ] && [ "$wl_off" = 0 ] &&
	[ "$wl_default" -gt "$wl_noidle" ] && [ "$wl_noidle" != "$wl_le1" ] && [ "$wl_le1" -gt 0 ]; then
	ok "wakelist settings: queued $wl_default / $wl_noidle / $wl_le1 / $wl_off"
else
	not_ok "wakelist settings change the queued share" \
		"queued default $wl_default, NO_TTWU_QUEUE_IDLE $wl_noidle, +LE1 $wl_le1, NO_TTWU_QUEUE $wl_off"
fi

grep -q '^     nsecs               : count     distribution$' "$tmp/swb-SWB_SMT_SKIP.out" &&
	ok "funclatency prints a histogram" || not_ok "funclatency prints a histogram"

# --probe-overhead (docs/observability.md): off is the default and prints
# the same; on, each traced call pays bcc's probes (x86 default: 40 + 53 +
# 4 x 23 = 185 ns) and the avg line (one, for both functions together, as
# bcc's) adds the figure with the part inside bcc's interval (53 + 2 x 23 =
# 99 ns per call); the benchmark takes longer.
fl_cmd="-m smp1 --funclatency __schedule,try_to_wake_up -- perf bench sched pipe -l 2000"
# shellcheck disable=SC2086
run_cmd schedlab run $fl_cmd
cp "$tmp/out" "$tmp/fl-default.out"
# shellcheck disable=SC2086
run_cmd schedlab run --probe-overhead off $fl_cmd
if [ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/fl-default.out" &&
	! grep -q 'probe overhead' "$tmp/out"; then
	ok "--probe-overhead off prints what the default prints"
else
	not_ok "--probe-overhead off prints what the default prints" "status $status"
fi
# shellcheck disable=SC2086
run_cmd schedlab run --probe-overhead on $fl_cmd
po_bad=$(awk '/^avg = / {
		n++; count = $9; total = $6; with = $18
		if ($10 != "(with" || with - total != count * 99 || count == 0) bad = bad " " $0
	}
	END { if (n != 1) bad = bad " lines:" n; print bad }' "$tmp/out")
t_off=$(sed -n 's/^ *\([0-9.]*\) usecs\/op$/\1/p' "$tmp/fl-default.out")
t_on=$(sed -n 's/^ *\([0-9.]*\) usecs\/op$/\1/p' "$tmp/out")
calls=$(awk '/^avg = / { n += $9 } END { print n }' "$tmp/out")
# on one CPU the run gets longer by calls x 185 ns (to within the ticks added)
if [ "$status" -eq 0 ] && [ -z "$po_bad" ] && [ -n "$t_on" ] &&
	awk -v a="$t_off" -v b="$t_on" -v c="$calls" \
		'BEGIN { d = (b - a) * 2000 * 1e3; w = c * 185; exit !(d > 0.98 * w && d < 1.02 * w) }'; then
	ok "--probe-overhead on: +99 ns per call inside the interval, $t_off -> $t_on usecs/op"
else
	not_ok "--probe-overhead on" "status $status, bad:$po_bad, time $t_off -> $t_on, calls $calls"
fi
run_cmd schedlab ab -m smp2 --base '' --test '' --runs 2 --probe-overhead on --funclatency should_we_balance \
	--json "$tmp/ab-po.json" -- stress-ng --cpu 4 -l 50 --timeout 1
if [ "$status" -eq 0 ] && grep -q '^funclat.should_we_balance_probed_ns ' "$tmp/out" &&
	grep -q '"funclat.should_we_balance_probed_ns"' "$tmp/ab-po.json"; then
	ok "ab --probe-overhead on: funclat.F_probed_ns row and JSON"
else
	not_ok "ab --probe-overhead on: funclat.F_probed_ns row" "status $status" "$(head -20 "$tmp/out")"
fi
expect_exit 2 "run: --probe-overhead must be 'on' or 'off', got 'yes'" schedlab run -m smp2 --probe-overhead yes --funclatency __schedule -- hackbench -g 1 -l 1
expect_exit 2 "--probe-overhead on needs --funclatency" schedlab run -m smp2 --probe-overhead on -- hackbench -g 1 -l 1
expect_exit 2 "--probe-overhead on needs --funclatency" schedlab ab -m smp2 --base '' --test '' --probe-overhead on -- hackbench -g 1 -l 1
printf 'name po\ntitle Po\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload hackbench -g 1 -l 5\nmetric time_s\nruns 2\noption probe-overhead maybe\n' >"$tmp/po.study"
expect_exit 2 "study: --probe-overhead must be 'on' or 'off', got 'maybe'" schedlab study --file "$tmp/po.study"

# ipistorm, as the module's parameters; SM_IDLE takes the full pick off the target
golden run-ipistorm schedlab run -m smt2-2s-16 -- insmod ipistorm.ko numipi=2000 single=1 offset=8 cpulist=0 wait=1
golden run-ipistorm-many schedlab run -m smp4 -- ipistorm numipi=500 single=0 cpulist=0-1 wait=1 delay=2
# issue 10: the module's defaults finish (kthreads spinning in csd_lock_wait() take the
# IPIs they must answer), and wait=0 reuses a call slot only once unlocked; a timeout
# turns the old livelock (a csd linked to itself) into a failure instead of a hang
for m in smp2 smp4 smp8 smt2-2s-16 pixel6; do
	for a in "numipi=500" "numipi=500 wait=0" "numipi=500 wait=0 single=1" "numipi=200 wait=0 delay=3"; do
		run_cmd timeout 60 "$SCHEDLAB" run -m $m --check -- ipistorm $a
		if [ "$status" -eq 0 ] && grep -q '^ipistorm: elapsed ' "$tmp/out"; then
			ok "ipistorm $a on $m"
		else
			not_ok "ipistorm $a on $m finishes" "status $status" "$(head -c 300 "$tmp/err")"
		fi
	done
done
run_cmd timeout 60 "$SCHEDLAB" run -m smp4 -- insmod ipistorm.ko numipi=500
if [ "$status" -eq 0 ] && grep -q '^ipistorm: elapsed ' "$tmp/out"; then ok "insmod ipistorm.ko numipi=500"; else not_ok "insmod ipistorm.ko numipi=500 finishes" "status $status"; fi
run_cmd schedlab run -m icelake-2s-128 --json "$tmp/sm.json" -- insmod ipistorm.ko numipi=100000 single=1 offset=8 cpulist=8 wait=1
if [ "$status" -eq 0 ] && grep -q '^ipistorm: elapsed ' "$tmp/out" && grep -q '"schedule_idle_full_pick": 0,' "$tmp/sm.json"; then
	ok "ipistorm on icelake: elapsed time, no full pick with SM_IDLE"
else
	not_ok "ipistorm on icelake: elapsed time, no full pick with SM_IDLE" "status $status"
fi
run_cmd schedlab run -m icelake-2s-128 --features NO_SM_IDLE --json "$tmp/nosm.json" -- insmod ipistorm.ko numipi=100000 single=1 offset=8 cpulist=8 wait=1
full=$(sed -n 's/^    "schedule_idle_full_pick": \([0-9]*\),/\1/p' "$tmp/nosm.json")
if [ "$status" -eq 0 ] && [ "${full:-0}" -ge 99999 ]; then ok "NO_SM_IDLE: a full pick per IPI ($full)"; else not_ok "NO_SM_IDLE: a full pick per IPI" "got '$full'"; fi
expect_exit 0 "" schedlab run -m smt2-2s-16 --preempt lazy --check -- hackbench -g 1 -l 50
expect_exit 0 "" schedlab run -m smt2-2s-16 --preempt full --check -- hackbench -p -g 1 -l 50

# The acceptance command lines.
run_cmd schedlab run -m xeon-8269cy-2s -- hackbench -g 1 -l 1000
if [ "$status" -eq 0 ] && grep -q '^Time: [0-9]*\.[0-9][0-9][0-9]$' "$tmp/out"; then ok "hackbench on xeon prints Time:"; else not_ok "hackbench on xeon prints Time:" "status $status"; fi
run_cmd schedlab run -m smp2 -- perf bench sched pipe -l 100000
if [ "$status" -eq 0 ] && grep -q ' usecs/op$' "$tmp/out" && grep -q ' ops/sec$' "$tmp/out"; then ok "pipe on smp2 prints usecs/op and ops/sec"; else not_ok "pipe on smp2 prints usecs/op and ops/sec" "status $status"; fi

# --check: the invariant checker runs after every event and finds nothing.
expect_exit 0 "" schedlab run -m smp1 --check -- perf bench sched pipe -l 2000
expect_exit 0 "" schedlab run -m smp2 --check -- perf bench sched pipe -T -l 2000
expect_exit 0 "" schedlab run -m smp4 --check -- perf bench sched messaging -g 2 -l 50
expect_exit 0 "" schedlab run -m smt2-2s-16 --check -- hackbench -g 2 -l 50
expect_exit 0 "" schedlab run -m smt2-2s-16 --check -- hackbench -p -T -g 3 -l 30
expect_exit 0 "" schedlab run -m smp4 --check --features NO_DELAY_DEQUEUE,NO_PLACE_LAG,NO_RUN_TO_PARITY -- hackbench -g 1 -l 100
expect_exit 0 "" schedlab run -m pixel6 --check -- hackbench -g 1 -l 50

# Determinism: the same inputs and seed give the same stdout and JSON (the
# JSON's sim.wall_s is the host's time and the only field allowed to differ).
same_output run-twice schedlab run -m smt2-2s-16 -- hackbench -g 2 -l 200
json_twice() {
	name=$1
	shift
	status=0
	"$@" --json "$tmp/a.json" -- perf bench sched messaging -g 2 -l 100 >/dev/null 2>&1 || status=$?
	"$@" --json "$tmp/b.json" -- perf bench sched messaging -g 2 -l 100 >/dev/null 2>&1 || status=$?
	grep -v '"wall_s"' "$tmp/a.json" >"$tmp/a.stripped"
	grep -v '"wall_s"' "$tmp/b.json" >"$tmp/b.stripped"
	if [ "$status" -eq 0 ] && cmp -s "$tmp/a.stripped" "$tmp/b.stripped"; then ok "$name"; else not_ok "$name" "JSON differs between two identical runs (status $status)"; fi
}
json_twice json-twice schedlab run -m smp4
run_cmd schedlab run -m smp4 --seed 2 --json "$tmp/seed2.json" -- hackbench -g 1 -l 200
run_cmd schedlab run -m smp4 --seed 3 --json "$tmp/seed3.json" -- hackbench -g 1 -l 200
if [ "$(grep '"time_s"' "$tmp/seed2.json")" != "$(grep '"time_s"' "$tmp/seed3.json")" ]; then ok "different seeds give different times"; else not_ok "different seeds give different times"; fi

# The documented JSON keys (docs/json-schema.md).
run_cmd schedlab run -m smp4 --json "$tmp/o.json" -- perf bench sched messaging -g 2 -l 100
missing=
for key in '"machine"' '"name": "smp4"' '"cpus": 4' '"features"' '"PLACE_LAG": true' '"seed": 1' \
	'"benchmark"' '"argv"' '"result"' '"time_s"' '"sched"' '"nr_switches"' '"nr_migrations"' \
	'"ipi_sent"' '"ttwu_count"' '"per_cpu"' '"busy_ns"' '"sim"' '"events"' '"wall_s"' '"sim_time_ns"'; do
	grep -q "$key" "$tmp/o.json" || missing="$missing $key"
done
if [ "$status" -eq 0 ] && [ -z "$missing" ]; then ok "run --json writes the documented keys"; else not_ok "run --json writes the documented keys" "missing:$missing"; fi

# --trace: every line in the ftrace text format Perfetto's systrace
# tokenizer reads (its regex, then each event's own fields), in time order,
# and as many switches, wakings and migrations as the JSON counts.
run_cmd schedlab run -m smt2-2s-16 --json "$tmp/tr.json" --trace "$tmp/tr.txt" -- perf bench sched messaging -g 2 -l 100
tr_status=$status
perfetto_re='-([0-9]+)[[:space:]]+\(?[[:space:]]*([0-9]+|-+)?\)?[[:space:]]?\[([0-9]+)\][[:space:]]*([a-zA-Z.]{3}[0-9a-f.]{1,2}[[:space:]]*)?([0-9]+\.[0-9]+):[[:space:]]+([^[:space:]]+):'
pre='^ *[^ =]+-[0-9]+ +\[[0-9]{3}\] [a-zA-Z.]{3}[0-9a-f.]{1,2} +[0-9]+\.[0-9]{6}: '
comm='[^ =]+'
fields="(sched_switch: prev_comm=$comm prev_pid=[0-9]+ prev_prio=[0-9]+ prev_state=(R|R\+|S|D|Z) ==> next_comm=$comm next_pid=[0-9]+ next_prio=[0-9]+"
fields="$fields|(sched_waking|sched_wakeup|sched_wakeup_new): comm=$comm pid=[0-9]+ prio=[0-9]+ target_cpu=[0-9]{3}"
fields="$fields|sched_migrate_task: comm=$comm pid=[0-9]+ prio=[0-9]+ orig_cpu=[0-9]+ dest_cpu=[0-9]+"
fields="$fields|(cpu_idle|cpu_frequency): state=[0-9]+ cpu_id=[0-9]+"
fields="$fields|ipi_send_cpu: cpu=[0-9]+ callsite=[A-Za-z_]+\\+0x[0-9a-f]+/0x[0-9a-f]+ callback=(0x0|[A-Za-z_]+\\+0x0/0x[0-9a-f]+)"
fields="$fields|(ipi_entry|ipi_exit): \((Rescheduling interrupts|Function call interrupts)\)"
fields="$fields|contention_begin: [0-9a-f]+ \(flags=[A-Z|]+\)|contention_end: [0-9a-f]+ \(ret=-?[0-9]+\))\$"
grep -v '^#' "$tmp/tr.txt" >"$tmp/tr.lines"
nlines=$(wc -l <"$tmp/tr.lines")
bad_perfetto=$(grep -Evc -e "$perfetto_re" "$tmp/tr.lines")
bad_fields=$(grep -Evc -e "$pre$fields" "$tmp/tr.lines")
if [ "$tr_status" -eq 0 ] && [ "$nlines" -gt 1000 ] && [ "$bad_perfetto" = 0 ] && [ "$bad_fields" = 0 ] &&
	head -1 "$tmp/tr.txt" | grep -qx '# tracer: nop'; then
	ok "trace: $nlines lines, all in Perfetto's systrace format"
else
	not_ok "trace lines in Perfetto's systrace format" "status $tr_status, $nlines lines," \
		"$bad_perfetto not matching Perfetto's regex, $bad_fields with bad fields:" \
		"$(grep -Ev -e "$pre$fields" "$tmp/tr.lines" | head -3)"
fi
unordered=$(awk '{ ts = $4; sub(":", "", ts); if (ts + 0 < prev + 0) n++; prev = ts } END { print n + 0 }' "$tmp/tr.lines")
[ "$unordered" = 0 ] && ok "trace: timestamps in order" || not_ok "trace: timestamps in order" "$unordered lines earlier than the one before"
json_count() { sed -n "s/^    \"$1\": \([0-9]*\),*$/\1/p" "${2:-$tmp/tr.json}" | head -1; }
trace_count() { grep -c ": $1: " "$tmp/tr.lines"; }
for pair in sched_switch:nr_switches sched_waking:ttwu_count sched_wakeup:ttwu_count sched_migrate_task:nr_migrations; do
	ev=${pair%%:*}
	key=${pair#*:}
	if [ "$(trace_count "$ev")" = "$(json_count "$key")" ] && [ -n "$(json_count "$key")" ]; then
		ok "trace: $ev lines = JSON $key ($(json_count "$key"))"
	else
		not_ok "trace: $ev lines = JSON $key" "trace $(trace_count "$ev"), JSON '$(json_count "$key")'"
	fi
done
run_cmd schedlab run -m smt2-2s-16 --trace "$tmp/tr2.txt" -- perf bench sched messaging -g 2 -l 100
cmp -s "$tmp/tr.txt" "$tmp/tr2.txt" && ok "trace: identical runs, identical traces" || not_ok "trace: identical runs, identical traces"
run_cmd schedlab run -m smt2-2s-16 --json "$tmp/notr.json" -- perf bench sched messaging -g 2 -l 100
# the JSON without its "trace" object and wall_s must be the same
json_sans trace "$tmp/tr.json" >"$tmp/tr.cmp"
json_sans trace "$tmp/notr.json" >"$tmp/notr.cmp"
if cmp -s "$tmp/tr.cmp" "$tmp/notr.cmp"; then
	ok "trace: the run is unchanged"
else
	not_ok "trace: the run is unchanged" "$(diff "$tmp/tr.cmp" "$tmp/notr.cmp" | head -8)"
fi
run_cmd schedlab run -m smt2-2s-16 --trace "$tmp/trw.txt" --trace-window 0.005:0.010 \
	--trace-events sched_switch,power -- perf bench sched messaging -g 2 -l 100
outside=$(grep -v '^#' "$tmp/trw.txt" | awk '{ ts = $4; sub(":", "", ts); if (ts < 0.005 || ts >= 0.010) n++ } END { print n + 0 }')
others=$(grep -v '^#' "$tmp/trw.txt" | grep -Evc ': (sched_switch|cpu_idle|cpu_frequency): ')
inside=$(grep -c ': sched_switch: ' "$tmp/trw.txt")
if [ "$status" -eq 0 ] && [ "$outside" = 0 ] && [ "$others" = 0 ] && [ "$inside" -gt 0 ]; then
	ok "trace: --trace-window and --trace-events keep only what they name"
else
	not_ok "trace: --trace-window and --trace-events" "status $status, $outside outside, $others other events, $inside switches"
fi
expect_exit 2 "--trace-window: expected START:END" schedlab run -m smp2 --trace "$tmp/x.txt" --trace-window 2:1 -- hackbench
expect_exit 2 "--trace-window: expected START:END" schedlab run -m smp2 --trace "$tmp/x.txt" --trace-window abc -- hackbench
expect_exit 2 "--trace-events: unknown event 'sched_bogus'" schedlab run -m smp2 --trace "$tmp/x.txt" --trace-events sched_switch,sched_bogus -- hackbench
expect_exit 2 "need --trace FILE" schedlab run -m smp2 --trace-window 0:1 -- hackbench
expect_exit 2 "--trace: cannot write '/nonexistent/dir/t.txt'" schedlab run -m smp2 --trace /nonexistent/dir/t.txt -- hackbench

# --schedstat: /proc/schedstat version 17, one cpu line per CPU, and the
# runqueue counters add up to the JSON's (field-by-field checks against the
# kernel structures are in test_schedstat).
run_cmd schedlab run -m smt2-2s-16 --json "$tmp/ss.json" --schedstat "$tmp/ss.txt" -- perf bench sched messaging -g 2 -l 100
ss_status=$status
ss_cpus=$(grep -c '^cpu[0-9]* ' "$tmp/ss.txt")
ss_ttwu=$(awk '/^cpu[0-9]+ / { n += $6 } END { print n + 0 }' "$tmp/ss.txt")
ss_domains=$(grep -Ec '^domain[0-9]+ [A-Z]+ [0-9a-f,]+( [0-9]+){45}$' "$tmp/ss.txt")
if [ "$ss_status" -eq 0 ] && [ "$(head -1 "$tmp/ss.txt")" = "version 17" ] && [ "$ss_cpus" = 16 ] &&
	[ "$ss_ttwu" = "$(json_count ttwu_count "$tmp/ss.json")" ] && [ "$ss_domains" -ge 32 ] &&
	[ "$(wc -l <"$tmp/ss.txt")" = $((2 + ss_cpus + ss_domains)) ]; then
	ok "schedstat: version 17, $ss_cpus CPUs, $ss_domains domain lines, ttwu_count $ss_ttwu as in the JSON"
else
	not_ok "schedstat file" "status $ss_status, $ss_cpus cpu lines, $ss_domains domain lines, ttwu $ss_ttwu vs JSON $(json_count ttwu_count "$tmp/ss.json")"
fi
expect_exit 2 "cannot write --schedstat file '/nonexistent/dir/s'" schedlab run -m smp2 --schedstat /nonexistent/dir/s -- hackbench

# --latency: perf sched latency's table; its TOTAL switches are the times
# tasks were switched in, schedstat's pcount summed over the CPUs.
golden run-latency-smp4 schedlab run -m smp4 --latency -- hackbench -g 1 -l 20
run_cmd schedlab run -m smt2-2s-16 --latency --schedstat "$tmp/lat.ss" -- perf bench sched messaging -g 2 -l 100
lat_total=$(sed -n 's/^  TOTAL: *|.*ms | *\([0-9]*\) |$/\1/p' "$tmp/out")
ss_pcount=$(awk '/^cpu[0-9]+ / { n += $10 } END { print n + 0 }' "$tmp/lat.ss")
if [ "$status" -eq 0 ] && [ -n "$lat_total" ] && [ "$lat_total" = "$ss_pcount" ] &&
	grep -q '^  sched-messaging:(81) *|' "$tmp/out"; then
	ok "latency: TOTAL switches $lat_total = schedstat pcount, tasks merged by comm"
else
	not_ok "latency table" "status $status, TOTAL '$lat_total', schedstat pcount $ss_pcount" "$(head -12 "$tmp/out")"
fi

# --plot: PNG files that open (the signature, an IHDR chunk of 1000x600),
# SVGs, the data files; without gnuplot the data and script with a note.
png_ok() {
	# 8-byte signature, then the IHDR chunk: length 13, "IHDR", width, height
	[ "$(od -An -tx1 -N24 "$1" | tr -d ' \n')" = "89504e470d0a1a0a0000000d49484452000003e800000258" ]
}
run_cmd schedlab run -m smt2-2s-16 --json "$tmp/pl.json" --plot "$tmp/plots" -- perf bench sched messaging -g 2 -l 100
pl_status=$status
pl_bad=
for f in cpu-util nr-running wakeup-latency-cdf; do
	png_ok "$tmp/plots/$f.png" || pl_bad="$pl_bad $f.png"
	[ "$(wc -c <"$tmp/plots/$f.png")" -gt 2000 ] || pl_bad="$pl_bad $f.png(size)"
	head -c 5 "$tmp/plots/$f.svg" | grep -q '<?xml' || pl_bad="$pl_bad $f.svg"
done
for f in cpu-util.dat nr-running.dat wakeup-latency.dat plots.gp; do
	[ -s "$tmp/plots/$f" ] || pl_bad="$pl_bad $f"
done
if [ "$pl_status" -eq 0 ] && [ -z "$pl_bad" ]; then ok "plot: PNG and SVG heatmaps and latency CDF"; else not_ok "plot files" "status $pl_status, bad:$pl_bad"; fi
# a plotted run decides exactly as an unplotted one (only sim.events differs)
run_cmd schedlab run -m smt2-2s-16 --json "$tmp/nopl.json" -- perf bench sched messaging -g 2 -l 100
if diff "$tmp/pl.json" "$tmp/nopl.json" | grep '^[<>]' | grep -Evq '"(events|wall_s)"'; then
	not_ok "plot: the run is unchanged" "$(diff "$tmp/pl.json" "$tmp/nopl.json" | head -6)"
else
	ok "plot: the run is unchanged"
fi
status=0
PATH=/nonexistent "$SCHEDLAB" run -m smp2 --plot "$tmp/plots-nognuplot" -- perf bench sched pipe -l 100 \
	>"$tmp/out" 2>"$tmp/err" </dev/null || status=$?
if [ "$status" -eq 0 ] && grep -q "gnuplot is not installed" "$tmp/err" &&
	[ -s "$tmp/plots-nognuplot/plots.gp" ] && [ -s "$tmp/plots-nognuplot/cpu-util.dat" ]; then
	ok "plot: without gnuplot, data and script and a note"
else
	not_ok "plot without gnuplot" "status $status: $(cat "$tmp/err")"
fi
expect_exit 2 "--plot: cannot create directory '/nonexistent/dir/p'" schedlab run -m smp2 --plot /nonexistent/dir/p -- hackbench

# The progress line: on a terminal only (script(1) gives the run one),
# cleared at the end; never in a pipe or file.
if command -v script >/dev/null 2>&1; then
	SCHEDLAB_PROGRESS_AFTER_MS=0 script -qec "$SCHEDLAB run -m smp4 -- hackbench -g 2 -l 200" /dev/null >"$tmp/tty.out" 2>&1
	if grep -q '\[schedlab\] simulated [0-9.]* s |  *[0-9]*% | [0-9.]* M events/s' "$tmp/tty.out" &&
		grep -q "$(printf '\r\033\\[K')Time:" "$tmp/tty.out"; then
		ok "progress line on a terminal, cleared before the result"
	else
		not_ok "progress line on a terminal" "$(od -c "$tmp/tty.out" | head -8)"
	fi
	SCHEDLAB_PROGRESS_AFTER_MS=0 script -qec "$SCHEDLAB ab -m smp4 --test SM_IDLE --runs 2 -j 2 -- hackbench -g 1 -l 20" /dev/null >"$tmp/tty.out" 2>&1
	if grep -q '\[schedlab\] 4 of 4 runs done | [0-9]* s | ETA 0 s' "$tmp/tty.out" &&
		grep -q "$(printf '\r\033\\[K')schedlab ab: 2 runs" "$tmp/tty.out"; then
		ok "ab: runs-done line on a terminal, cleared before the table"
	else
		not_ok "ab: runs-done line on a terminal" "$(od -c "$tmp/tty.out" | head -8)"
	fi
fi
SCHEDLAB_PROGRESS_AFTER_MS=0 "$SCHEDLAB" run -m smp4 -- hackbench -g 2 -l 200 >/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && not_ok "no progress line when stderr is not a terminal" "$(cat "$tmp/err")" ||
	ok "no progress line when stderr is not a terminal"

# ab: base vs test on the same seeds. The table is golden; the number of
# jobs changes nothing; an A/A comparison finds no difference anywhere;
# SM_IDLE's known effect on ipistorm comes out as "better".
golden ab-hackbench-smt2 schedlab ab -m smt2-2s-16 --base NO_TTWU_QUEUE --test TTWU_QUEUE --runs 3 -j 1 -- hackbench -g 1 -l 50
run_cmd schedlab ab -m smt2-2s-16 --base NO_TTWU_QUEUE --test TTWU_QUEUE --runs 3 -j 2 -- hackbench -g 1 -l 50
if [ "$status" -eq 0 ] && cmp -s "$tmp/out" "$golden_dir/ab-hackbench-smt2.out"; then
	ok "ab: -j 2 prints what -j 1 prints"
else
	not_ok "ab: -j 2 prints what -j 1 prints" "status $status" "$(diff "$tmp/out" "$golden_dir/ab-hackbench-smt2.out" | head -6)"
fi
run_cmd schedlab ab -m smp4 --base '' --test '' --runs 3 -- perf bench sched messaging -g 1 -l 20
aa_rows=$(awk '/^metric/ { t = 1; next } t && NF == 0 { exit } t' "$tmp/out")
if [ "$status" -eq 0 ] && [ -n "$aa_rows" ] && ! echo "$aa_rows" | grep -vq ' +0.00%  \[-[0-9.]*%, +[0-9.]*%\] *~$'; then
	ok "ab: A/A finds no difference in any row"
else
	not_ok "ab: A/A finds no difference" "status $status" "$aa_rows"
fi
run_cmd schedlab ab -m smt2-2s-16 --base NO_SM_IDLE --test SM_IDLE --runs 3 --json "$tmp/ab.json" --plot "$tmp/abplots" -- ipistorm numipi=2000 single=1 offset=8 cpulist=8 wait=1
if [ "$status" -eq 0 ] && grep -q '^time_s .* -[1-9][0-9]\.[0-9][0-9]%  \[.*\] *better$' "$tmp/out" &&
	grep -q '^sched.idle_full_pick  *2000\.0 .* lower$' "$tmp/out"; then
	ok "ab: SM_IDLE makes ipistorm faster, with the full picks gone"
else
	not_ok "ab: SM_IDLE on ipistorm" "status $status" "$(cat "$tmp/out")"
fi
ab_bad=
grep -q '"kind": "ab"' "$tmp/ab.json" || ab_bad="$ab_bad kind"
[ "$(grep -c '"verdict": "better"' "$tmp/ab.json")" -eq 2 ] || ab_bad="$ab_bad verdicts"
for f in ab-bars ab-cdf; do
	png_ok "$tmp/abplots/$f.png" || ab_bad="$ab_bad $f.png"
	head -c 5 "$tmp/abplots/$f.svg" | grep -q '<?xml' || ab_bad="$ab_bad $f.svg"
	[ -s "$tmp/abplots/$f.dat" ] || ab_bad="$ab_bad $f.dat"
done
if [ -z "$ab_bad" ]; then ok "ab: --json and --plot (bars and CDF, PNG and SVG)"; else not_ok "ab: --json and --plot" "bad:$ab_bad"; fi
run_cmd schedlab ab -m smp2 --test NO_WAKEUP_PREEMPTION --runs 2 --metric ops_per_sec --metric time_s -- perf bench sched pipe -l 200
if [ "$status" -eq 0 ] && [ "$(awk '/^metric/ { t = 1; next } t && NF == 0 { exit } t { print $1 }' "$tmp/out" | tr '\n' ' ')" = "ops_per_sec time_s " ]; then
	ok "ab: --metric picks the rows and their order"
else
	not_ok "ab: --metric" "status $status" "$(cat "$tmp/out")"
fi
expect_exit 2 "ab: --runs must be 2 to" schedlab ab --test SM_IDLE --runs 1 -- hackbench
expect_exit 2 "ab: --runs needs a non-negative integer" schedlab ab --test SM_IDLE --runs x -- hackbench
expect_exit 2 "ab: --confidence needs a percentage" schedlab ab --test SM_IDLE --confidence 120 -- hackbench
# bounded where the t quantiles still mean something (issue 10: 99.99999999999 gave 2^40 half widths)
expect_exit 2 "ab: --confidence needs a percentage from 50 to 99.9, got '99.99999999999'" schedlab ab --test SM_IDLE --confidence 99.99999999999 -- hackbench
expect_exit 2 "study: --confidence needs a percentage from 50 to 99.9, got '99.95'" schedlab study sm-idle --confidence 99.95
expect_exit 2 "ab: --confidence needs a percentage from 50 to 99.9, got '49.9'" schedlab ab --test SM_IDLE --confidence 49.9 -- hackbench
run_cmd schedlab ab -m smp2 --test SM_IDLE --runs 2 --confidence 99.9 -- hackbench -g 1 -l 5
if [ "$status" -eq 0 ] && grep -q '99.9% confidence' "$tmp/out"; then ok "ab: --confidence 99.9 is accepted"; else not_ok "ab: --confidence 99.9" "status $status"; fi
expect_exit 2 "ab: --jobs must be 1 to" schedlab ab --test SM_IDLE -j 0 -- hackbench
expect_exit 2 "ab: give --base and/or --test" schedlab ab -m smp2 -- hackbench
expect_exit 2 "ab: --test: unknown scheduler feature 'NO_SUCH'" schedlab ab -m smp2 --test NO_SUCH -- hackbench
expect_exit 2 "ab: --base: unknown machine 'nosuchbox'" schedlab ab -m nosuchbox --test SM_IDLE -- hackbench
expect_exit 2 "ab: --metric: metric 'nosuch' is not one that" schedlab ab -m smp2 --test SM_IDLE --runs 2 --metric nosuch -- hackbench -g 1 -l 5
# ... and before any run (issue 10): 10,000 long runs would take hours, the timeout's 124 fails the case
expect_exit 2 "ab: --metric: metric 'nosuch' is not one that 'hackbench -g 1 -l 100000' reports" timeout 20 "$SCHEDLAB" ab -m smp2 --test SM_IDLE --runs 10000 --metric time_s --metric nosuch -- hackbench -g 1 -l 100000
printf 'name bad\ntitle Bad\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2 smp4\nworkload hackbench -g 1 -l 100000\nworkload perf bench sched pipe -l 1000000\nmetric usecs_per_op nosuch\nruns 10000\n' >"$tmp/bad5.study"
expect_exit 2 "bad5.study: metric 'nosuch' is not one that any workload reports" timeout 20 "$SCHEDLAB" study --file "$tmp/bad5.study"
expect_exit 2 "ab: no benchmark command" schedlab ab --test SM_IDLE
expect_exit 2 "ab: unknown option '--bogus'" schedlab ab --bogus -- hackbench
expect_exit 0 "" schedlab ab --help

# study: the packaged studies, each in its quick form; the list, --show
# (the file itself), --file with its errors, -j independence, --json/--plot.
golden study-list schedlab study --list
golden study-sm-idle-quick schedlab study sm-idle --quick -j 1
if grep -q '^time_s  *after .* better$' "$golden_dir/study-sm-idle-quick.out"; then ok "study sm-idle: SM_IDLE is better"; else not_ok "study sm-idle: SM_IDLE is better"; fi
for st in $("$SCHEDLAB" study --list | awk 'NR > 1 { print $1 }'); do
	run_cmd schedlab study "$st" --quick
	# the rows of the variants after the first: each ends in its verdict
	nrows=$(grep -c ' \(better\|worse\|~\|higher\|lower\)$' "$tmp/out")
	if [ "$status" -eq 0 ] && [ "$nrows" -gt 0 ] && grep -q "^study $st: " "$tmp/out"; then
		ok "study $st --quick: $nrows rows"
	else
		not_ok "study $st --quick" "status $status" "$(cat "$tmp/err" "$tmp/out" | head -8)"
	fi
	run_cmd schedlab study --show "$st"
	if [ "$status" -eq 0 ] && cmp -s "$tmp/out" "$root/studies/$st.study"; then ok "study --show $st is the file"; else not_ok "study --show $st"; fi
done
run_cmd schedlab study wakelist-idle --quick -j 2 --runs 3
cp "$tmp/out" "$tmp/wl-j2.out"
run_cmd schedlab study wakelist-idle --quick -j 1 --runs 3
if [ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/wl-j2.out"; then ok "study: -j 2 prints what -j 1 prints"; else not_ok "study: -j 2 vs -j 1" "$(diff "$tmp/out" "$tmp/wl-j2.out" | head -6)"; fi
# issue 12: wakelist-idle runs schbench-2016 and context1 too; runnable-boost
# prints, per variant, the elapsed line of perf stat --null --repeat RUNS,
# the same as 'run -- perf stat -n -r RUNS' prints for those seeds.
wl_bad=
for pat in '^== smt2-2s-16: schbench-2016 -m 2 -t 8 -r 1$' '^== smt2-2s-16: context1 1$' \
	'^p50_us  *after ' '^p99_us  *after ' '^lps  *after '; do
	grep -q "$pat" "$tmp/wl-j2.out" || wl_bad="$wl_bad '$pat'"
done
if [ -z "$wl_bad" ]; then ok "study wakelist-idle --quick: schbench and context1 rows"; else not_ok "study wakelist-idle --quick: schbench and context1 rows" "missing:$wl_bad"; fi
run_cmd schedlab study runnable-boost --quick -j 2
rb_bad=
grep -q "^perf stat --null --repeat 2, smt2-2s-16, before (NO_UTIL_RUNNABLE_BOOST):$" "$tmp/out" || rb_bad="$rb_bad header"
grep -q "^== smt2-2s-16 --cpufreq schedutil: perf bench sched messaging -t -g 1 -l 100$" "$tmp/out" || rb_bad="$rb_bad altra-case"
grep -q "^== pixel6 --cpufreq schedutil: jankbench -t list_view,edit_text -f 60$" "$tmp/out" || rb_bad="$rb_bad pixel6-case"
[ "$(grep -c ' seconds time elapsed' "$tmp/out")" -eq 4 ] || rb_bad="$rb_bad count"
grep -q "^ Performance counter stats for 'perf bench sched messaging -t -g 1 -l 100' (2 runs):$" "$tmp/out" || rb_bad="$rb_bad banner"
grep ' seconds time elapsed' "$tmp/out" >"$tmp/rb-elapsed"
for feat in NO_UTIL_RUNNABLE_BOOST ''; do
	"$SCHEDLAB" run -m smt2-2s-16 --cpufreq schedutil --features "$feat" -- perf stat --null --repeat 2 -- \
		perf bench sched messaging -t -g 1 -l 100 | grep ' seconds time elapsed'
done >"$tmp/rb-run"
# the Altra case group's two lines (its quick machine, under its --cpufreq schedutil)
# come first; then the 8-CPU box's; the pixel6 group has no runner line
sed -i '3,$d' "$tmp/rb-elapsed"
cmp -s "$tmp/rb-elapsed" "$tmp/rb-run" || rb_bad="$rb_bad not-run's"
if [ "$status" -eq 0 ] && [ -z "$rb_bad" ]; then ok "study runnable-boost: perf stat's elapsed line per variant, as run's"; else not_ok "study runnable-boost: perf stat's elapsed line" "status $status, bad:$rb_bad" "$(cat "$tmp/rb-elapsed" "$tmp/rb-run")"; fi
printf 'name r\ntitle R\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload hackbench -g 1 -l 5\nmetric time_s\nruns 2\nrunner perf\n' >"$tmp/run1.study"
expect_exit 2 "run1.study:9: unknown runner 'perf' (perf-stat)" schedlab study --file "$tmp/run1.study"
sed -i 's/^runner perf$/runner perf-stat/' "$tmp/run1.study"
printf 'runner perf-stat\n' >>"$tmp/run1.study"
expect_exit 2 "run1.study:10: 'runner' given twice" schedlab study --file "$tmp/run1.study"
sed -i '$d' "$tmp/run1.study"
run_cmd schedlab study --file "$tmp/run1.study" -j 1
if [ "$status" -eq 0 ] && grep -q "^ Performance counter stats for 'hackbench -g 1 -l 5' (2 runs):$" "$tmp/out"; then ok "study --file: runner perf-stat"; else not_ok "study --file: runner perf-stat" "status $status" "$(cat "$tmp/err")"; fi
# 'case' groups: their own workloads, options and runner; errors name the line
printf 'name cg\ntitle Cg\nvariant a -\nvariant b NO_SM_IDLE\nmetric time_s\nruns 2\noption hz 1000\ncase smp2\n\toption sysctl base_slice_ns=3000000\n\tworkload hackbench -g 1 -l 5\n\trunner perf-stat\ncase smp4\n\tworkload perf bench sched pipe -l 100\n' >"$tmp/cg.study"
run_cmd schedlab study --file "$tmp/cg.study" -j 1
cg_bad=
grep -q "^== smp2 --hz 1000 --sysctl base_slice_ns=3000000: hackbench -g 1 -l 5$" "$tmp/out" || cg_bad="$cg_bad smp2-heading"
grep -q "^== smp4 --hz 1000: perf bench sched pipe -l 100$" "$tmp/out" || cg_bad="$cg_bad smp4-heading"
[ "$(grep -c '^perf stat --null' "$tmp/out")" -eq 2 ] || cg_bad="$cg_bad runner"
grep -q "^perf stat --null --repeat 2, smp2, a (the defaults):$" "$tmp/out" || cg_bad="$cg_bad runner-smp2"
if [ "$status" -eq 0 ] && [ -z "$cg_bad" ]; then ok "study --file: 'case' groups with their own options and runner"; else not_ok "study --file: 'case' groups" "status $status, bad:$cg_bad" "$(cat "$tmp/err" "$tmp/out" | head -20)"; fi
printf 'case smp2\n\tworkload hackbench -g 1 -l 5\n\tmachine smp4\n' >"$tmp/cg2.study"
expect_exit 2 "cg2.study:3: 'machine' inside the 'case' group of line 1: name a group's machines on its 'case' line" schedlab study --file "$tmp/cg2.study"
sed 's/base_slice_ns=3000000/nosuch=1/' "$tmp/cg.study" >"$tmp/cg3.study"
expect_exit 2 "nosuch" schedlab study --file "$tmp/cg3.study"
run_cmd schedlab study sm-idle --quick --json "$tmp/st.json" --plot "$tmp/stplots"
st_bad=
grep -q '"study": "sm-idle"' "$tmp/st.json" || st_bad="$st_bad json"
png_ok "$tmp/stplots/sm-idle-1-bars.png" || st_bad="$st_bad bars.png"
png_ok "$tmp/stplots/sm-idle-1-cdf.png" || st_bad="$st_bad cdf.png"
if [ "$status" -eq 0 ] && [ -z "$st_bad" ]; then ok "study: --json and --plot"; else not_ok "study: --json and --plot" "status $status, bad:$st_bad"; fi
printf 'name mine\ntitle Mine\nvariant base -\nvariant test NO_SM_IDLE\nmachine smp2\nworkload perf bench sched pipe -l 50\nmetric usecs_per_op\nruns 2\n' >"$tmp/mine.study"
run_cmd schedlab study --file "$tmp/mine.study"
if [ "$status" -eq 0 ] && grep -q '^usecs_per_op  *test ' "$tmp/out"; then ok "study --file runs one's own study"; else not_ok "study --file" "status $status" "$(cat "$tmp/err")"; fi
printf 'name bad\nfrobnicate 3\n' >"$tmp/bad1.study"
expect_exit 2 "bad1.study:2: unknown directive 'frobnicate'" schedlab study --file "$tmp/bad1.study"
printf 'name bad\ntitle Bad\nvariant a -\nvariant b NO_SM_IDLE\nmachine nosuchbox\nworkload hackbench\nmetric time_s\n' >"$tmp/bad2.study"
expect_exit 2 "variant 'a' on nosuchbox, 'hackbench': unknown machine 'nosuchbox'" schedlab study --file "$tmp/bad2.study"
printf 'name bad\ntitle Bad\nvariant a -\nvariant b NO_SUCH\nmachine smp2\nworkload hackbench\nmetric time_s\n' >"$tmp/bad3.study"
expect_exit 2 "variant 'b' on smp2, 'hackbench': unknown scheduler feature 'NO_SUCH'" schedlab study --file "$tmp/bad3.study"
printf 'name bad\ntitle Bad\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload hackbench -g 1 -l 5\nmetric nosuch\nruns 2\n' >"$tmp/bad4.study"
expect_exit 2 "metric 'nosuch' is not one that 'hackbench -g 1 -l 5' reports" schedlab study --file "$tmp/bad4.study"
expect_exit 2 "study: cannot read '/nonexistent.study'" schedlab study --file /nonexistent.study
expect_exit 2 "study: unknown study 'nosuch' (the studies: " schedlab study nosuch
expect_exit 2 "study: unknown study 'nosuch'" schedlab study --show nosuch
expect_exit 2 "study: give a study NAME or --file FILE, not both" schedlab study sm-idle --file "$tmp/mine.study"
expect_exit 2 "study: --runs must be 2 to" schedlab study sm-idle --runs 1
expect_exit 2 "study: one study at a time" schedlab study sm-idle swb-smt
expect_exit 2 "study: unknown option '--bogus'" schedlab study --bogus
expect_exit 0 "" schedlab study --help
# user text in messages is escaped, never echoed raw (issue 10: escape injection); still one line
printf 'name inj\n\033[2J\033[31mfrob 1\n' >"$tmp/inj.study"
expect_exit 2 "inj.study:2: unknown directive '\\x1b[2J\\x1b[31mfrob'" schedlab study --file "$tmp/inj.study"
expect_exit 2 "study: cannot read 'x\\x1b]0;owned\\x07\\x0ay'" schedlab study --file "$(printf 'x\033]0;owned\007\ny')"
expect_exit 2 "ab: unknown option '--bo\\x0d\\x0agus'" schedlab ab "$(printf -- '--bo\r\ngus')" -- hackbench
expect_exit 2 "ab: --base: unknown scheduler feature 'NO_\\x1b[1mX'" schedlab ab --base "$(printf 'NO_\033[1mX')" -- hackbench
expect_exit 2 "study: '$tmp' is a directory, not a study file" schedlab study --file "$tmp"
# quick-* lines are checked whether or not --quick is given, and the full ones under --quick (issue 10)
printf 'name q\ntitle Q\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload hackbench -g 1 -l 5\nquick-machine nosuchbox\nmetric time_s\nruns 2\n' >"$tmp/q1.study"
expect_exit 2 "q1.study: quick form: variant 'a' on nosuchbox, 'hackbench -g 1 -l 5': unknown machine 'nosuchbox'" schedlab study --file "$tmp/q1.study"
printf 'name q\ntitle Q\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload hackbench -g 1 -l 5\nquick-workload hackbench --bogus\nmetric time_s\nruns 2\n' >"$tmp/q2.study"
expect_exit 2 "q2.study: quick form: variant 'a' on smp2, 'hackbench --bogus': hackbench: unknown option '--bogus'" schedlab study --file "$tmp/q2.study"
printf 'name q\ntitle Q\nvariant a -\nvariant b NO_SM_IDLE\nmachine nosuchbox\nworkload hackbench -g 1 -l 5\nquick-machine smp2\nmetric time_s\nruns 2\n' >"$tmp/q3.study"
expect_exit 2 "q3.study: full form: variant 'a' on nosuchbox" schedlab study --file "$tmp/q3.study" --quick
# issue 10 (item 5): a failed run ends ab and study with the same status at
# any -j, and the message names the run. No input trips the invariant
# checker any more (its exit 3 is mapped by run_pool_exit_status(), unit-
# tested in test_runpool.c), so the runs here fail by being killed: every
# child is killed and the lowest run, base seed 1, is the one reported.
# killed_run NAME JOBS WANT CMD...: start CMD in the background, kill its
# JOBS children once they are there, expect exit 1 and WANT on stderr
killed_run() {
	name=$1 jobs=$2 want=$3
	shift 3
	"$SCHEDLAB" "$@" >"$tmp/kill.out" 2>"$tmp/kill.err" &
	pid=$!
	n=0
	while [ "$n" -lt 100 ] && [ "$(pgrep -P "$pid" | wc -l)" -lt "$jobs" ]; do
		sleep 0.1
		n=$((n + 1))
	done
	pkill -KILL -P "$pid"
	wait "$pid"
	status=$?
	if [ "$status" -eq 1 ] && grep -qF -e "$want" "$tmp/kill.err"; then
		ok "$name"
	else
		not_ok "$name" "status $status" "$(cat "$tmp/kill.err")"
	fi
}
printf 'name kill\ntitle Kill\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload hackbench -g 4 -l 20000\nmetric time_s\nruns 2\n' >"$tmp/kill.study"
for j in 1 2; do
	killed_run "ab -j $j: a killed run exits 1 and is named" $j \
		"ab: the base run on smp2 with seed 1 died of signal 9" \
		ab -m smp2 --base '' --test NO_SM_IDLE --runs 2 -j $j -- hackbench -g 4 -l 20000
	killed_run "study -j $j: a killed run exits 1 and is named" $j \
		"kill.study: variant 'a' on smp2, 'hackbench -g 4 -l 20000', seed 1: the run died of signal 9" \
		study --file "$tmp/kill.study" -j $j
done
# 65,537 machines x 8 variants x 8192 runs overflowed an int in plan() (issue 10): refused, naming the product
awk 'BEGIN { printf "name big\ntitle Big\n"; for (v = 0; v < 8; v++) printf "variant v%d -\n", v
	printf "machine"; for (i = 0; i < 65537; i++) printf " smp2"
	printf "\nworkload hackbench -g 1 -l 5\nmetric time_s\nruns 8192\n" }' >"$tmp/big.study"
expect_exit 2 "big.study: 65537 machines x 1 workloads x 8 variants x 8192 runs is 4295032832 runs, more than the 100000 a study may plan" schedlab study --file "$tmp/big.study"
printf 'name big\ntitle Big\nvariant a -\nvariant b -\nmachine smp2 smp2 smp2 smp2 smp2 smp2\nworkload hackbench -g 1 -l 5\nmetric time_s\n' >"$tmp/big2.study"
expect_exit 2 "6 machines x 1 workloads x 2 variants x 10000 runs is 120000 runs, more than" schedlab study --file "$tmp/big2.study" --runs 10000
awk 'BEGIN { printf "name big\ntitle Big\nvariant a -\nvariant b -\nmachine smp2\nworkload hackbench -g 1 -l 5\nmetric time_s\nquick-machine"
	for (i = 0; i < 65537; i++) printf " smp2"; printf "\n" }' >"$tmp/big3.study"
expect_exit 2 "big3.study: quick form: 65537 machines x 1 workloads x 2 variants x 2 runs is 262148 runs, more than the 100000" schedlab study --file "$tmp/big3.study"

# Bad input: exit 2 and one line naming what is wrong.
expect_exit 2 "unknown machine 'nosuchbox'" schedlab run -m nosuchbox -- hackbench
expect_exit 2 "unknown scheduler feature 'NO_SUCH'" schedlab run --features NO_SUCH -- hackbench
expect_exit 2 "hackbench: unknown option '--bogus'" schedlab run -m smp2 -- hackbench --bogus
expect_exit 2 "hackbench: bad or incomplete option '-x'" schedlab run -m smp2 -- hackbench -x
expect_exit 2 "--groups needs an integer" schedlab run -m smp2 -- hackbench -g 0
expect_exit 2 "--groups needs an integer" schedlab run -m smp2 -- hackbench -g abc
expect_exit 2 "--loops needs an integer" schedlab run -m smp2 -- hackbench -l -5
expect_exit 2 "--groups needs an integer" schedlab run -m smp2 -- hackbench -g 99999999999
expect_exit 2 "more than" schedlab run -m smp2 -- hackbench -g 10000 -f 1000
expect_exit 2 "bad or incomplete option '-g'" schedlab run -m smp2 -- hackbench -g
expect_exit 2 "--nr_loops needs an integer" schedlab run -m smp2 -- perf bench sched messaging -l x
expect_exit 2 "unknown option '--bogus'" schedlab run -m smp2 -- perf bench sched pipe --bogus
expect_exit 2 "unknown benchmark 'nosuch'" schedlab run -m smp2 -- perf bench sched nosuch
expect_exit 2 "unknown benchmark 'ls'" schedlab run -m smp2 -- ls
expect_exit 2 "no benchmark command" schedlab run -m smp2
expect_exit 2 "--seed needs" schedlab run --seed -1 -- hackbench
expect_exit 2 "unknown cost parameter 'nosuch'" schedlab run --cost nosuch=1 -- hackbench
expect_exit 2 "bad value" schedlab run --cost syscall=abc -- hackbench
# issue 10: every cost has a range the model represents (kernel paths below a tick)
expect_exit 2 "cost parameter 'schedule': bad value '3000000' (nanoseconds, 0..100000)" schedlab run -m smp2 --cost schedule=3000000 -- hackbench -g 1 -l 10
expect_exit 2 "cost parameter 'ipi_latency.numa': bad value '1000000000000' (nanoseconds, 0..1000000)" schedlab ab -m smp2 --test NO_SM_IDLE --cost ipi_latency.numa=1000000000000 -- hackbench -g 1 -l 10
# issue 10 (item 9): parse errors say what is wrong; one number syntax; no empty list items
expect_exit 2 "ipistorm: cpulist 'a': cpu list 'a': expected a CPU number at 'a'" schedlab run -m smp2 -- ipistorm cpulist=a
expect_exit 2 "ipistorm: cpulist '': no CPU" schedlab run -m smp2 -- ipistorm cpulist=
expect_exit 2 "run: --seed needs a non-negative integer (decimal), got '0x10'" schedlab run -m smp2 --seed 0x10 -- hackbench
expect_exit 2 "ab: --seed needs a non-negative integer (decimal), got '+5'" schedlab ab -m smp2 --test NO_SM_IDLE --seed +5 -- hackbench
run_cmd schedlab run -m smp2 --json "$tmp/seed010.json" --seed 010 -- hackbench -g 1 -l 1
if [ "$status" -eq 0 ] && grep -q '"seed": 10,' "$tmp/seed010.json"; then ok "--seed 010 is ten (decimal)"; else not_ok "--seed 010 is ten" "status $status" "$(grep '"seed"' "$tmp/seed010.json")"; fi
expect_exit 2 "--trace-events: empty event name in 'sched,,'" schedlab run -m smp2 --trace "$tmp/t.trace" --trace-events sched,, -- hackbench -g 1 -l 1
expect_exit 2 "--trace-events: empty event name in ',sched'" schedlab run -m smp2 --trace "$tmp/t.trace" --trace-events ,sched -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: no function pattern in ''" schedlab run -m smp2 --funclatency '' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: empty function name in '__schedule,'" schedlab run -m smp2 --funclatency __schedule, -- hackbench -g 1 -l 1
expect_exit 2 "empty scheduler feature name in 'SM_IDLE,'" schedlab run -m smp2 --features SM_IDLE, -- hackbench -g 1 -l 1
expect_exit 2 "empty scheduler feature name in ','" schedlab run -m smp2 --features , -- hackbench -g 1 -l 1
expect_exit 2 "stress-ng: --cpu needs an integer in 0..8192, got '100000'" schedlab run -m smp2 -- stress-ng --cpu 100000 -t 1
# 8192 workers (stress-ng's limit) with -t 1: bounded, and each worker stops at its timeout
# (the parent's total also holds the fork phase, stretched by sharing a CPU with the workers)
run_cmd schedlab run -m epyc-milan-2s-256 -- stress-ng --cpu 8192 -t 1 --metrics-brief
real=$(sed -n 's/^stress-ng: metrc: \[1\] cpu  *[0-9]*  *\([0-9.]*\) .*/\1/p' "$tmp/out")
total=$(sed -n 's/.*successful run completed in \([0-9.]*\) sec.*/\1/p' "$tmp/out")
if [ "$status" -eq 0 ] && [ -n "$real" ] && [ -n "$total" ] &&
	awk -v r="$real" -v t="$total" 'BEGIN { exit !(r >= 1.0 && r <= 1.1 && t < 10) }'; then
	ok "stress-ng --cpu 8192 -t 1: workers ${real} s, run ${total} s"
else
	not_ok "stress-ng --cpu 8192 -t 1 bounded" "status $status, workers '$real' s, run '$total' s"
fi
# every key of the JSON's machine object is in docs/json-schema.md
run_cmd schedlab run -m smp2 --json "$tmp/keys.json" -- hackbench -g 1 -l 1
undoc=
for k in $(sed -n '/"machine": {/,/}/p' "$tmp/keys.json" | grep -o '"[a-z_]*":' | sed '1d'); do
	sed -n '/"machine": {/,/}/p' "$root/docs/json-schema.md" | grep -q "$k" || undoc="$undoc $k"
done
if [ "$status" -eq 0 ] && [ -z "$undoc" ]; then ok "json-schema.md documents machine.*"; else not_ok "json-schema.md misses machine keys:$undoc"; fi
# issue 10: the event and simulated-time limits stop a run loudly (exit 1, one message)
expect_exit 1 "the run stopped at its event limit: 1000 events" schedlab run -m smp2 --max-events 1000 -- hackbench -g 1 -l 10
expect_exit 1 "the run stopped at its simulated-time limit" schedlab run -m smp2 --max-time 1 -- stress-ng --cpu 2 -t 5
expect_exit 2 "run: --max-events needs an integer in 1..1000000000000000, got '0x10'" schedlab run -m smp2 --max-events 0x10 -- hackbench
expect_exit 2 "run: --max-events needs an integer" schedlab run -m smp2 --max-events 0 -- hackbench
expect_exit 2 "run: --max-time needs an integer in 1..31536000, got '31536001'" schedlab run -m smp2 --max-time 31536001 -- hackbench
printf 'name big\ntitle Big\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload hackbench -g 1 -l 5\nmetric time_s\nruns 2\noption cost schedule=10000000\n' >"$tmp/bigcost.study"
expect_exit 2 "cost parameter 'schedule': bad value '10000000' (nanoseconds, 0..100000)" schedlab study --file "$tmp/bigcost.study"
expect_exit 2 "--hz must be" schedlab run --hz 123 -- hackbench
expect_exit 2 "unknown option '--bogus'" schedlab run --bogus -- hackbench
expect_exit 2 "run: unknown option '-f'" schedlab run -f NO_SM_IDLE -- hackbench
expect_exit 2 "run: option '--features' needs a value" schedlab run --features
expect_exit 2 "cannot write --json file" schedlab run -m smp2 --json /nonexistent/dir/o.json -- hackbench -g 1 -l 1
expect_exit 2 "give --timeout or --cpu-ops" schedlab run -m smp2 -- stress-ng --cpu 2
expect_exit 2 "stress-ng: no stressor: give --cpu, --switch, --yield, --pipe or --affinity N" schedlab run -m smp2 -- stress-ng --timeout 2
expect_exit 2 "--cpu-load needs an integer in 0..100" schedlab run -m smp2 -- stress-ng --cpu 2 -l 101 --timeout 1
expect_exit 2 "--timeout needs a time" schedlab run -m smp2 -- stress-ng --cpu 2 --timeout 0
expect_exit 2 "--timeout needs a time" schedlab run -m smp2 -- stress-ng --cpu 2 --timeout 5x
expect_exit 2 "not modelled" schedlab run -m smp2 -- stress-ng --cpu 2 --cpu-method fft --timeout 1
expect_exit 2 "unknown option '--vm'" schedlab run -m smp2 -- stress-ng --cpu 2 --vm 1 --timeout 1
expect_exit 2 "--cpu needs an integer in 0..8192" schedlab run -m smp2 -- stress-ng --cpu 8193 --timeout 1
expect_exit 2 "--cpu-ops needs an integer in 1..100000000" schedlab run -m smp2 -- stress-ng --cpu 2 --cpu-ops 100000001
expect_exit 2 "--cpu-ops before --cpu is ignored" schedlab run -m smp2 -- stress-ng --cpu-ops 10 --cpu 2
expect_exit 2 "unknown tunable 'foo'" schedlab run --sysctl foo=1 -- hackbench
expect_exit 2 "base_slice_ns: value must be" schedlab run --sysctl base_slice_ns=1 -- hackbench
run_cmd schedlab run -m smp1 --sysctl base_slice_ns=3000000 --json "$tmp/s.json" -- perf bench sched pipe -l 1000
if [ "$status" -eq 0 ] && grep -q '"base_slice_ns": 3000000' "$tmp/s.json"; then ok "--sysctl reaches the run"; else not_ok "--sysctl reaches the run" "status $status"; fi
expect_exit 2 "unknown function 'nosuch'" schedlab run --funclatency nosuch -- hackbench
expect_exit 2 "cpulist '0-999'" schedlab run -m smp4 -- ipistorm numipi=10 cpulist=0-999
expect_exit 2 "unknown parameter 'bogus'" schedlab run -m smp4 -- ipistorm bogus=1
expect_exit 2 "not NAME=VALUE" schedlab run -m smp4 -- ipistorm numipi
expect_exit 2 "single needs an integer in 0..1" schedlab run -m smp4 -- ipistorm single=2
expect_exit 2 "only ipistorm.ko" schedlab run -m smp4 -- insmod other.ko
expect_exit 2 "unknown model 'eager'" schedlab run --preempt eager -- hackbench
expect_exit 0 "" schedlab run --help

# ---------------------------------------------------------------------------
# Outputs and signals (docs/reliability.md): outputs appear complete or not at
# all; a failed write, standard output included, is exit 1; SIGINT/SIGTERM
# stop the run, its children and its temporaries, and exit 128 + the signal.

# full_stdout NAME CMD...: stdout to /dev/full must be exit 1 with one message
full_stdout() {
	name=$1
	shift
	status=0
	"$@" >/dev/full 2>"$tmp/err" </dev/null || status=$?
	if [ "$status" -eq 1 ] && grep -q "writing standard output: No space left on device" "$tmp/err"; then
		ok "$name"
	else
		not_ok "$name" "status $status, want 1 and a message"
		show_stderr
	fi
}
if [ -w /dev/full ]; then
	full_stdout "run > /dev/full fails" schedlab run -m smp2 -- hackbench -g 1 -l 10
	full_stdout "ab > /dev/full fails" schedlab ab -m smp2 --test NO_TTWU_QUEUE --runs 2 -j 2 -- hackbench -g 1 -l 10
	full_stdout "study > /dev/full fails" schedlab study wakelist-idle --quick --runs 2 -j 2
	full_stdout "machines > /dev/full fails" schedlab machines
	# an output is not put in place when stdout failed
	echo good >"$tmp/keep.json"
	"$SCHEDLAB" run -m smp2 --json "$tmp/keep.json" -- hackbench -g 1 -l 10 >/dev/full 2>/dev/null
	[ "$(cat "$tmp/keep.json")" = good ] && ok "stdout failed: the old JSON is kept" ||
		not_ok "stdout failed: the old JSON is kept"
	# a failed output (/dev/full, written in place) leaves the others as they were
	echo good >"$tmp/keep.txt"
	expect_exit 1 "writing '/dev/full' failed" schedlab run -m smp2 --trace "$tmp/keep.txt" --json /dev/full -- hackbench -g 1 -l 10
	[ "$(cat "$tmp/keep.txt")" = good ] && ok "a failed output: the old trace is kept" ||
		not_ok "a failed output: the old trace is kept"
fi

# an output that cannot be opened truncates nothing opened before it
echo good >"$tmp/keep.json"
expect_exit 2 "cannot write --schedstat file" schedlab run -m smp2 --json "$tmp/keep.json" --schedstat /nonexistent/dir/s.txt -- hackbench -g 1 -l 10
[ "$(cat "$tmp/keep.json")" = good ] && ok "a bad --schedstat path leaves the old --json file" ||
	not_ok "a bad --schedstat path leaves the old --json file" "$(head -c 80 "$tmp/keep.json")"
# outputs appear in place, no temporary left beside them
mkdir "$tmp/outs"
run_cmd schedlab run -m smp2 --json "$tmp/outs/o.json" --trace "$tmp/outs/t.txt" --schedstat "$tmp/outs/s.txt" --plot "$tmp/outs/pl" -- hackbench -g 1 -l 10
left=$(find "$tmp/outs" -name '.*' | tr '\n' ' ')
if [ "$status" -eq 0 ] && [ -s "$tmp/outs/o.json" ] && [ -s "$tmp/outs/t.txt" ] && [ -s "$tmp/outs/s.txt" ] &&
	[ -s "$tmp/outs/pl/plots.gp" ] && [ -z "$left" ]; then
	ok "outputs in place, no temporaries"
else
	not_ok "outputs in place, no temporaries" "status $status, left: $left"
fi
# a symbolic link is written through (as /dev/stdout must be), not replaced
: >"$tmp/target.json"
ln -s target.json "$tmp/link.json"
run_cmd schedlab run -m smp2 --json "$tmp/link.json" -- hackbench -g 1 -l 10
if [ "$status" -eq 0 ] && [ -L "$tmp/link.json" ] && grep -q '"machine"' "$tmp/target.json"; then
	ok "--json through a symbolic link"
else
	not_ok "--json through a symbolic link" "status $status"
fi

# the same file for two outputs
expect_exit 2 "run: --json and --trace name the same file" schedlab run -m smp2 --json "$tmp/same" --trace "$tmp/same" -- hackbench -g 1 -l 10
expect_exit 2 "run: --json and --schedstat name the same file" schedlab run -m smp2 --json "$tmp/same" --schedstat "$tmp/./same" -- hackbench -g 1 -l 10
: >"$tmp/same"
ln -s same "$tmp/same-link"
expect_exit 2 "run: --schedstat and --trace name the same file" schedlab run -m smp2 --schedstat "$tmp/same" --trace "$tmp/same-link" -- hackbench -g 1 -l 10
expect_exit 2 "ab: --json and --plot name the same file" schedlab ab -m smp2 --test NO_TTWU_QUEUE --json "$tmp/same" --plot "$tmp/same" -- hackbench -g 1 -l 10

# interrupted SIG WANT NAME CMD...: start CMD (in $tmp/sig, where old.json
# holds "good"), send SIG after a second; the status must be WANT, no child
# it had left running, old.json untouched and no other file left behind
interrupted() {
	sig=$1
	want=$2
	name=$3
	shift 4 # and the word schedlab
	d=$tmp/sig
	rm -rf "$d"
	mkdir "$d"
	echo good >"$d/old.json"
	(cd "$d" && exec "$SCHEDLAB" "$@") >"$tmp/out" 2>"$tmp/err" </dev/null &
	pid=$!
	sleep 1
	kids=$(pgrep -P "$pid" | tr '\n' ' ')
	kill "-$sig" "$pid"
	# a binary that ignores the signal is killed after 20 s, not waited for
	(sleep 20; kill -KILL "$pid" 2>/dev/null) >/dev/null 2>&1 &
	watchdog=$!
	status=0
	wait "$pid" || status=$?
	kill "$watchdog" 2>/dev/null
	left=""
	for k in $kids; do
		kill -0 "$k" 2>/dev/null && left="$left $k"
	done
	files=$(cd "$d" && ls -A | tr '\n' ' ')
	if [ "$status" -eq "$want" ] && [ -z "$left" ] && [ "$files" = "old.json " ] &&
		[ "$(cat "$d/old.json")" = good ]; then
		ok "$name"
	else
		not_ok "$name" "status $status (want $want), children left:${left:- none}, files: $files"
		show_stderr
	fi
	# whatever the outcome, leave no process behind
	for k in $left; do kill -KILL "$k" 2>/dev/null; done
}
interrupted TERM 143 "SIGTERM during ab -j 2: no process, no partial file" \
	schedlab ab -m smp4 --test NO_TTWU_QUEUE --runs 4 -j 2 --json old.json --plot pl -- hackbench -g 4 -l 10000
[ -n "$kids" ] || not_ok "ab -j 2 had children when it was interrupted"
interrupted INT 130 "SIGINT during ab -j 1: no partial file" \
	schedlab ab -m smp4 --test NO_TTWU_QUEUE --runs 4 -j 1 --json old.json -- hackbench -g 4 -l 10000
interrupted INT 130 "SIGINT during study -j 2: no process, no partial file" \
	schedlab study wakelist-idle --runs 4 -j 2 --json old.json
interrupted TERM 143 "SIGTERM during run: no partial file" \
	schedlab run -m smp4 --json old.json --trace t.txt --trace-window 0:0.01 --schedstat s.txt --plot pl -- hackbench -g 4 -l 10000
interrupted INT 130 "SIGINT during run: no partial file" \
	schedlab run -m smp4 --json old.json --trace t.txt --trace-window 0:0.01 -- hackbench -g 4 -l 10000

# bench/fidelity.sh takes minutes (docs/fidelity.md); only its syntax is checked here.
if sh -n "$root/bench/fidelity.sh" 2>"$tmp/fidelity.err"; then
	ok "sh -n bench/fidelity.sh"
else
	not_ok "sh -n bench/fidelity.sh" "$(cat "$tmp/fidelity.err")"
fi

# ---------------------------------------------------------------------------
# more cases, one file per topic (tests/cli/cases/*.sh), sourced here so they
# share the helpers above, $tmp and the counts
# ---------------------------------------------------------------------------

for cases in "$root"/tests/cli/cases/*.sh; do
	[ -f "$cases" ] || continue
	# shellcheck disable=SC1090
	. "$cases"
done

# ---------------------------------------------------------------------------

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
