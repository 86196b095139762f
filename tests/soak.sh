#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Random-scenario soak and determinism check (docs/reliability.md).
#
#   sh tests/soak.sh [-n RUNS] [-s SEED] [-j JOBS] [-d DET] [-b ./schedlab]
#
# Runs RUNS random scenarios under --check (scheduler invariants checked after
# every event): a random preset, benchmark (reaim ramps and rt-app in --also
# among them), chrt/nice policy prefix, feature
# subset, preemption model, HZ and seed. Every scenario is a function of (SEED, its index) only, so a
# failure is replayed by the command it prints, or by `-s SEED -r INDEX`.
# Then DET of the scenarios are run twice more with --json and the two
# records must be the same but for sim.wall_s (the host's time), and the two
# standard outputs the same.
#
# Exit status 0 when every scenario passed; 1 with a "FAIL" line per failing
# command (exit status, stderr's last lines) otherwise.
#
# Defaults: RUNS=1200, SEED=1, JOBS=2, DET=20: under two minutes on two
# cores. SOAK_RUNS, SOAK_SEED, SOAK_JOBS and SOAK_DET set them too.
set -u
bin=./schedlab
runs=${SOAK_RUNS:-1200}
seed=${SOAK_SEED:-1}
jobs=${SOAK_JOBS:-2}
det=${SOAK_DET:-20}
one=
# how long one scenario may take (a hang is a failure)
limit=${SOAK_TIMEOUT:-120}
while getopts n:s:j:d:b:r:x: o; do
	case $o in
	n) runs=$OPTARG ;;
	s) seed=$OPTARG ;;
	j) jobs=$OPTARG ;;
	d) det=$OPTARG ;;
	b) bin=$OPTARG ;;
	r) one=$OPTARG ;;
	x) one=$OPTARG; mode_internal=$OPTARG ;;
	*) sed -n '3,20p' "$0" >&2; exit 2 ;;
	esac
done
: "${mode_internal:=}"

# ---- the generator: a 31-bit LCG (the same in every POSIX shell) ----
rng=0
srand() { rng=$(( ($1 * 7919 + 104729) % 2147483648 )); rand 1 >/dev/null; }
rand() {	# rand N: 0..N-1 in $r
	rng=$(( (rng * 1103515245 + 12345) % 2147483648 ))
	r=$(( (rng / 65536) % $1 ))
}
pick() {	# pick WORD...: one of them in $r
	rand $#
	shift $r
	r=$1
}

# The presets with their CPU counts ("host" is left out: not reproducible).
machines=$("$bin" machines | grep -v '^host ' | while read -r name rest; do
	n=$(echo "$rest" | grep -oE '[0-9]+ CPUs?' | tail -1 | cut -d' ' -f1)
	echo "$name:${n:-1}"
done)
# the features --features accepts (not the ones marked "not modelled")
features=$("$bin" features | awk 'NR > 1 && !/not modelled/ { print $1 }')

# scenario INDEX: sets $opts and $w, and $cmd ("$opts -- $w", what follows
# 'schedlab run')
scenario() {
	srand $((seed * 1000003 + $1))
	# shellcheck disable=SC2086
	pick $machines
	m=${r%%:*}
	ncpu=${r#*:}
	# --check validates every CPU after every event: keep the work small on
	# big machines (a run is 0.1-3 s here)
	if [ "$ncpu" -gt 64 ]; then big=1; else big=0; fi
	also=
	rand 7
	case $r in
	0)	rand 3; g=$((r + 1)); rand 40; l=$((r + 5 - big * 2)); rand 4
		case $r in 0) o= ;; 1) o=-p ;; 2) o=-T ;; 3) o="-p -T" ;; esac
		rand 6; [ $r -lt 2 ] && o="${o:+$o }-s $((r * 900 + 64))"
		[ $big -eq 1 ] && g=1
		w="hackbench ${o:+$o }-g $g -l $l" ;;
	1)	rand 2; g=$((r + 1)); rand 40; l=$((r + 5)); rand 3
		case $r in 0) o= ;; 1) o=-t ;; 2) o=-p ;; esac
		[ $big -eq 1 ] && g=1 && l=$((l / 4 + 2))
		w="perf bench sched messaging ${o:+$o }-g $g -l $l" ;;
	2)	rand 2000; l=$((r + 100)); rand 2
		[ $r -eq 1 ] && o=-T || o=
		w="perf bench sched pipe ${o:+$o }-l $l" ;;
	3)	rand 4; c=$((r * ncpu / 3)); rand 10; load=$((r * 10 + 10))
		if [ $big -eq 1 ]; then c=$((c / 8 + 1)); fi
		w="stress-ng --cpu $c --cpu-load $load --timeout 1" ;;
	4)	# ipistorm in any form: calls to one or all CPUs, waiting or not,
		# with a delay between calls
		rand 1900; n=$((r + 100))
		if [ "$ncpu" -lt 2 ]; then
			w="perf bench sched pipe -l $n"
		else
			rand 2; single=$r; rand 2; wt=$r; rand 4; d=$r
			rand "$ncpu"; t=$r
			[ "$t" -eq 0 ] && t=1
			[ $big -eq 1 ] && n=$((n / 4 + 50))
			# calls to every CPU cost ncpu IPIs each, and --check walks every
			# CPU after every event: keep all-CPU storms short on big machines
			if [ "$single" -eq 0 ] && [ "$ncpu" -gt 16 ]; then
				n=$((n % 20 + 5))
			fi
			if [ "$single" -eq 1 ]; then
				w="ipistorm numipi=$n single=1 offset=$t cpulist=$t wait=$wt delay=$d"
			else
				rand 2
				if [ "$r" -eq 0 ]; then
					w="ipistorm numipi=$n wait=$wt delay=$d"
				else
					w="ipistorm numipi=$n cpulist=0-$t wait=$wt delay=$d"
				fi
			fi
		fi ;;
	5)	# reaim ramps: a workfile, -s..-e by -i (steps past -e end it),
		# the adaptive step or -t, sometimes -y or -r 2
		pick workfile.short workfile.compute workfile.high_systime workfile.shared \
			workfile.fserver workfile.dbase workfile.new_dbase workfile.alltests
		wf=$r
		# (rs..rj: the determinism loop below counts in $i)
		rand 3; rs=$((r + 1)); rand 9; re=$((rs + r)); rand 3; ri=$((r + 1))
		rand 50; rj=$((r + 5)); [ $big -eq 1 ] && rj=$((rj / 4 + 2))
		rand 2; [ $r -eq 0 ] && o=-t || o=
		rand 3; [ $r -eq 0 ] && o="${o:+$o }-y"
		rand 4; [ $r -eq 0 ] && o="${o:+$o }-r 2"
		w="reaim -s $rs -e $re -i $ri -j $rj ${o:+$o }-f $wf" ;;
	6)	# an rt-app example in the background (--also) of a small benchmark;
		# the ones that pin CPUs need at least 4
		if [ "$ncpu" -ge 4 ]; then
			pick affinity barrier condvar fork mutex periodic phases policies sem \
				suspend_resume sync timer_relative yield
		else
			pick barrier condvar fork mutex periodic sem suspend_resume sync yield
		fi
		also="rt-app examples/$r.json"
		rand 2
		if [ $r -eq 0 ]; then
			rand 30; w="hackbench -g 1 -l $((r + 5))"
		else
			rand 2000; w="perf bench sched pipe -l $((r + 100))"
		fi ;;
	esac
	# policy prefixes: FIFO, RR or nice in a third, BATCH or IDLE around it in 2/9
	rand 9
	case $r in
	0) rand 99; w="chrt -f $((r + 1)) $w" ;;
	1) rand 99; w="chrt -r $((r + 1)) $w" ;;
	2) rand 40; w="nice -n $((r - 20)) $w" ;;
	esac
	rand 9
	case $r in
	0) w="chrt -b 0 $w" ;;
	1) w="chrt -i 0 $w" ;;
	esac
	opts="-m $m"
	rand 4
	[ $r -ne 0 ] && { pick none voluntary full lazy; opts="$opts --preempt $r"; }
	rand 3
	[ $r -ne 0 ] && { pick 100 250 300 1000; opts="$opts --hz $r"; }
	# 0-3 features, each on or off (a feature named twice: the last wins)
	rand 4
	k=$r
	f=
	while [ "$k" -gt 0 ]; do
		# shellcheck disable=SC2086
		pick $features
		x=$r
		rand 2
		[ $r -eq 0 ] && x=NO_$x
		f=${f:+$f,}$x
		k=$((k - 1))
	done
	[ -n "$f" ] && opts="$opts --features $f"
	rand 1000
	opts="$opts --seed $((r + 1))"
	# one cost parameter anywhere in its documented range (docs/cost-model.md)
	rand 4
	if [ "$r" -eq 0 ]; then
		pick schedule:100000 enqueue:100000 ttwu:100000 tick:100000 rq_lock:100000 \
			lb_cpu_visit:100000 lb_task:100000 pipe_write:100000 unix_read:100000 \
			cacheline.llc:100000 fork:10000000 exit:10000000 ipi_latency.llc:1000000 \
			mem_latency:10000 cache_l2_kb:1048576 copy_ns_per_kb:100000
		cname=${r%%:*}
		cmax=${r#*:}
		rand 1001
		opts="$opts --cost $cname=$((cmax / 1000 * r))"
	fi
	cmd="$opts -- $w"
	# as typed: the --also command is one argument
	shown="${also:+--also '$also' }$cmd"
}

# run INDEX: one scenario under --check; prints a FAIL line and returns 1 on failure
run_one() {
	scenario "$1"
	err=$(mktemp)
	# shellcheck disable=SC2086
	timeout "$limit" "$bin" run --check ${also:+--also "$also"} $cmd >/dev/null 2>"$err"
	rc=$?
	if [ $rc -ne 0 ]; then
		[ $rc -eq 124 ] && what="timed out after $limit s" || what="exit $rc"
		echo "FAIL ($what, scenario $1 of seed $seed): $bin run --check $shown"
		tail -3 "$err" | sed 's/^/    /'
	fi
	rm -f "$err"
	return $rc
}

if [ -n "$mode_internal" ]; then
	# a worker of the parallel loop below
	run_one "$mode_internal" >"$SOAK_OUT.$mode_internal" || :
	exit 0
fi
if [ -n "$one" ]; then
	scenario "$one"
	echo "$bin run --check $shown"
	run_one "$one"
	exit $?
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "soak: $runs scenarios, seed $seed, $jobs jobs"
SOAK_OUT=$tmp/out
export SOAK_OUT
i=1
while [ $i -le "$runs" ]; do echo $i; i=$((i + 1)); done |
	xargs -P "$jobs" -n 1 sh "$0" -b "$bin" -s "$seed" -x
fail=0
for f in "$tmp"/out.*; do
	[ -s "$f" ] && { cat "$f"; fail=$((fail + 1)); }
done
echo "soak: $runs scenarios, $fail failed, $(($(date +%s) - start)) s"

# ---- determinism: the first DET scenarios, twice, with --json ----
dfail=0
i=1
while [ $i -le "$det" ]; do
	scenario $i
	for k in a b; do
		# shellcheck disable=SC2086
		timeout "$limit" "$bin" run ${also:+--also "$also"} $opts --json "$tmp/$k.json" -- $w \
			>"$tmp/$k.out" 2>&1
		echo "exit $?" >>"$tmp/$k.out"
		grep -v '"wall_s"' "$tmp/$k.json" >"$tmp/$k.cmp" 2>/dev/null
	done
	if ! cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || ! cmp -s "$tmp/a.out" "$tmp/b.out" ||
	   [ ! -s "$tmp/a.cmp" ]; then
		echo "FAIL (not deterministic: the two runs' JSON or output differ): $bin run ${also:+--also '$also' }$opts --json FILE -- $w"
		diff "$tmp/a.cmp" "$tmp/b.cmp" | head -5 | sed 's/^/    /'
		diff "$tmp/a.out" "$tmp/b.out" | head -5 | sed 's/^/    /'
		dfail=$((dfail + 1))
	fi
	i=$((i + 1))
done
echo "determinism: $det scenarios run twice, $dfail differed"
echo "soak total: $(($(date +%s) - start)) s"
[ $fail -eq 0 ] && [ $dfail -eq 0 ]
