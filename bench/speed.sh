#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The simulator's own speed against a baseline, side by side in one run
# (issue 20, docs/performance.md): simulated events per wall second, their
# ratio, and each process's maximum RSS, for the tracked workloads.
#
#   sh bench/speed.sh [./schedlab] [REPEATS]       (also `make bench`)
#
# The baseline (BASE_REV, default 75b83bc) is checked out into a temporary
# git worktree and built there with `make -j2`; BASE_BIN=path/to/schedlab
# uses a baseline binary built before instead. The two binaries run
# alternately (baseline first, then the other way round), REPEATS times
# each (default 3), and each keeps its best run: host noise only ever makes
# a run slower. `events/s` is the run's sim.events / sim.wall_s from
# --json; RSS is /usr/bin/time's maximum resident set size.
#
# unixbench context1 -i 1 -c 104 is 10 simulated seconds and about 850 M
# events (minutes of wall time): it runs once per binary and is reported by
# wall time. SPEED_UNIXBENCH=0 leaves it out. SPEED_PCT=N scales the loop
# counts and durations of the others to N% (default 100). The baseline cannot parse
# the synthetic machines: their baseline columns read n/a.
set -e
bin=${1:-./schedlab}
reps=${2:-3}
base_rev=${BASE_REV:-75b83bc}
pct=${SPEED_PCT:-100}
root=$(cd "$(dirname "$0")/.." && pwd)
case $bin in
/*) ;;
*) bin=$(pwd)/$bin ;;
esac
[ -x "$bin" ] || { echo "speed.sh: $bin is not an executable (make first)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-speed.XXXXXX")
wt=
cleanup() {
	if [ -n "$wt" ]; then
		git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$BASE_BIN" ]; then
	base=$BASE_BIN
else
	wt=$tmp/base
	echo "building the baseline $base_rev in $wt ..."
	git -C "$root" worktree add --detach "$wt" "$base_rev" >/dev/null 2>&1
	make -C "$wt" -j2 >"$tmp/base-build.log" 2>&1 ||
		{ tail -20 "$tmp/base-build.log" >&2; exit 1; }
	base=$wt/schedlab
fi

timer=
if [ -x /usr/bin/time ]; then
	timer=/usr/bin/time
fi

field() { # field FILE KEY -> the first numeric value of "KEY": in the JSON
	sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1" | head -n 1
}

# one BIN MACHINE TAG COMMAND...: one run into $tmp/TAG.{json,rss}; false if it failed
one() {
	b=$1 m=$2 tag=$3
	shift 3
	rm -f "$tmp/$tag.json" "$tmp/$tag.rss"
	if [ -n "$timer" ]; then
		$timer -f %M -o "$tmp/$tag.rss" "$b" run -m "$m" --json "$tmp/$tag.json" -- "$@" \
			>/dev/null 2>"$tmp/$tag.err" || return 1
	else
		"$b" run -m "$m" --json "$tmp/$tag.json" -- "$@" >/dev/null 2>"$tmp/$tag.err" ||
			return 1
	fi
}

# keep TAG: fold run TAG into best-TAG (the lowest wall time), max RSS over runs
keep() {
	w=$(field "$tmp/$1.json" wall_s)
	r=$(tail -n 1 "$tmp/$1.rss" 2>/dev/null || echo 0)
	if [ ! -f "$tmp/best-$1.json" ] ||
	   awk -v w="$w" -v b="$(field "$tmp/best-$1.json" wall_s)" 'BEGIN { exit !(w < b) }'; then
		cp "$tmp/$1.json" "$tmp/best-$1.json"
	fi
	old=$(cat "$tmp/best-$1.rss" 2>/dev/null || echo 0)
	[ "$r" -gt "$old" ] 2>/dev/null && echo "$r" >"$tmp/best-$1.rss"
	return 0
}

printf '%-36s %-18s %11s %11s %8s %8s %7s %9s %9s\n' workload machine events \
	"events" "base" "this" "ratio" "base RSS" "this RSS"
printf '%-36s %-18s %11s %11s %8s %8s %7s %9s %9s\n' "" "" "(this)" "(base)" "M ev/s" \
	"M ev/s" "" "MB" "MB"

# measure NAME LABEL MACHINE N COMMAND...: N runs of each binary, alternating
measure() {
	name=$1 label=$2 m=$3 n=$4
	shift 4
	rm -f "$tmp"/best-*
	has_base=1
	"$base" topo -m "$m" >/dev/null 2>&1 || has_base=0
	i=0
	while [ "$i" -lt "$n" ]; do
		if [ $((i % 2)) -eq 0 ]; then order="base cur"; else order="cur base"; fi
		for who in $order; do
			if [ "$who" = base ]; then
				[ "$has_base" -eq 1 ] || continue
				b=$base
			else
				b=$bin
			fi
			if ! one "$b" "$m" "$who" "$@"; then
				echo "speed.sh: $who failed: $name on $m:" >&2
				tail -3 "$tmp/$who.err" >&2
				return 1
			fi
			keep "$who"
		done
		i=$((i + 1))
	done
	ev=$(field "$tmp/best-cur.json" events)
	w=$(field "$tmp/best-cur.json" wall_s)
	rss=$(cat "$tmp/best-cur.rss" 2>/dev/null || echo 0)
	if [ "$has_base" -eq 1 ]; then
		bev=$(field "$tmp/best-base.json" events)
		bw=$(field "$tmp/best-base.json" wall_s)
		brss=$(cat "$tmp/best-base.rss" 2>/dev/null || echo 0)
	else
		bev=n/a bw=n/a brss=n/a
	fi
	awk -v name="$name" -v m="$label" -v ev="$ev" -v w="$w" -v rss="$rss" \
	    -v bev="$bev" -v bw="$bw" -v brss="$brss" 'BEGIN {
		r = ev / w / 1e6
		if (bw == "n/a") {
			printf "%-36s %-18s %11d %11s %8s %8.2f %7s %9s %9.1f\n",
			       name, m, ev, "n/a", "n/a", r, "n/a", "n/a", rss / 1024
		} else {
			b = bev / bw / 1e6
			printf "%-36s %-18s %11d %11d %8.2f %8.2f %6.2fx %9.1f %9.1f\n",
			       name, m, ev, bev, b, r, r / b, brss / 1024, rss / 1024
		}
	}'
	# wall times, for the workloads judged by them
	printf '%-36s %-18s wall s: base %s, this %s\n' "" "" "$bw" "$w" >"$tmp/last-wall"
}

l() { # l N: N scaled by SPEED_PCT, at least 1
	v=$(($1 * pct / 100))
	[ "$v" -ge 1 ] || v=1
	echo "$v"
}

xeon=xeon-8269cy-2s
measure "perf bench sched pipe -l $(l 1000000)" smp2 smp2 "$reps" \
	perf bench sched pipe -l "$(l 1000000)"
measure "hackbench -g 10 -l $(l 1000)" $xeon $xeon "$reps" hackbench -g 10 -l "$(l 1000)"
measure "hackbench -g 10 -l $(l 1000)" epyc-milan-2s-256 epyc-milan-2s-256 "$reps" \
	hackbench -g 10 -l "$(l 1000)"
measure "hackbench -g 100 -l $(l 100)" $xeon $xeon "$reps" hackbench -g 100 -l "$(l 100)"
measure "stress-ng --cpu 96 --timeout $(l 20)" power10-96 power10-96 "$reps" \
	stress-ng --cpu 96 --timeout "$(l 20)"
# 1024 and 8192 CPUs in hwloc's synthetic syntax (docs/machines.md)
measure "hackbench -g 10 -l $(l 100)" synthetic-1024 'synthetic:pack:4 l3:16 core:8 pu:2' \
	"$reps" hackbench -g 10 -l "$(l 100)"
measure "hackbench -g 10 -l $(l 20)" synthetic-8192 \
	'synthetic:pack:16 numa:2 l3:8 core:16 pu:2' "$reps" hackbench -g 10 -l "$(l 20)"
if [ "${SPEED_UNIXBENCH:-1}" != 0 ]; then
	measure "unixbench context1 -i 1 -c 104" $xeon $xeon 1 unixbench context1 -i 1 -c 104
	cat "$tmp/last-wall"
fi
echo "synthetic-1024: 'synthetic:pack:4 l3:16 core:8 pu:2'," \
	"synthetic-8192: 'synthetic:pack:16 numa:2 l3:8 core:16 pu:2'"
