#!/bin/sh
# The simulator's own speed: simulated events per wall second and the ratio
# of simulated to wall time, for the workloads docs/performance.md tracks.
#   sh bench/speed.sh [./schedlab] [REPEATS]
# Prints one line per workload; each figure is the best of REPEATS runs
# (default 3), since host noise only ever makes a run slower.
set -e
bin=${1:-./schedlab}
reps=${2:-3}
out=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-speed.XXXXXX")
trap 'rm -rf "$out"' EXIT

field() { # field FILE KEY -> the first numeric value of "KEY": in the JSON
	sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1" | head -n 1
}

measure() { # measure NAME MACHINE COMMAND...
	name=$1 m=$2
	shift 2
	best=
	i=0
	while [ "$i" -lt "$reps" ]; do
		"$bin" run -m "$m" --json "$out/r.json" -- "$@" >/dev/null
		w=$(field "$out/r.json" wall_s)
		if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then
			best=$w
			cp "$out/r.json" "$out/best.json"
		fi
		i=$((i + 1))
	done
	ev=$(field "$out/best.json" events)
	sim=$(field "$out/best.json" sim_time_ns)
	awk -v n="$name" -v m="$m" -v ev="$ev" -v w="$best" -v sim="$sim" 'BEGIN {
		printf "%-40s %-16s %10d events %8.3f s wall %9.3f s simulated %7.2f M events/s  sim/wall %7.3f\n",
		       n, m, ev, w, sim / 1e9, ev / w / 1e6, sim / 1e9 / w }'
}

measure "perf bench sched pipe -l 1000000" smp2 perf bench sched pipe -l 1000000
measure "hackbench -g 10 -l 1000" xeon-8269cy-2s hackbench -g 10 -l 1000

# ab/study run each simulation in a process of its own: the same four runs
# with one job and with two show what -j buys on this machine.
for j in 1 2; do
	t0=$(date +%s.%N)
	"$bin" ab -m xeon-8269cy-2s --test NO_SM_IDLE --runs 2 -j "$j" -- hackbench -g 10 -l 1000 >/dev/null
	t1=$(date +%s.%N)
	awk -v j="$j" -v t0="$t0" -v t1="$t1" 'BEGIN {
		printf "%-40s %-16s %8.3f s wall for 4 runs\n", "ab hackbench -g 10 -l 1000, -j " j, "xeon-8269cy-2s", t1 - t0 }'
done
