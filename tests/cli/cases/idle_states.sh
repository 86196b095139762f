# shellcheck shell=sh
# --idle-states: cpuidle's stateK/disable and intel_idle.max_cstate= (issue
# 21's idle-state control). Sourced by tests/cli/run.sh.

expect_exit 2 "--idle-states 'disable=C7': smt2-2s-16 has no idle state 'C7' (its states, state0 to state3: POLL C1 C1E C6)" \
	schedlab run -m smt2-2s-16 --idle-states disable=C7 -- hackbench -l 5
expect_exit 2 "--idle-states 'max=C1,C6': max= takes one state" \
	schedlab run -m smt2-2s-16 --idle-states max=C1,C6 -- hackbench -l 5
expect_exit 2 "--idle-states 'C6=off': expected disable=STATE" \
	schedlab run -m smt2-2s-16 --idle-states C6=off -- hackbench -l 5
expect_exit 2 "--idle-states 'disable=C6@0-99': cpu list '0-99'" \
	schedlab ab -m smt2-2s-16 --idle-states disable=C6@0-99 --test NO_TTWU_QUEUE -- hackbench -l 5

# idle_usage JSON STATE: the usage of STATE summed over the CPUs, and how many say disabled
idle_usage() {
	awk -v st="\"$2\"" '
	$1 == "\"name\":" && $2 ~ "^" st { want = 1; next }
	want && $1 == "\"usage\":" { sub(/,/, "", $2); u += $2; next }
	want && $1 == "\"disabled\":" { d++ }
	want && /}/ { want = 0 }
	END { print u + 0, d + 0 }' "$1"
}
run_cmd schedlab run -m smt2-2s-16 --check --json "$tmp/idle0.json" -- schbench -m 2 -t 4 -r 1
run_cmd schedlab run -m smt2-2s-16 --check --json "$tmp/idle1.json" --idle-states disable=C6@0-7 \
	--idle-states 'max=C1@4' -- schbench -m 2 -t 4 -r 1
base=$(idle_usage "$tmp/idle0.json" C6)
c6=$(idle_usage "$tmp/idle1.json" C6)
c1e=$(idle_usage "$tmp/idle1.json" C1E)
# the governor never picks a disabled state, and the others still take C6
case "$base $c6 $c1e" in
"0 "*) not_ok "--idle-states: the default run never entered C6" "$base" ;;
*" 0 1") not_ok "--idle-states: disabled states" "C6 usage/disabled $c6, C1E $c1e" ;;
*)
	per_cpu_c6=$(awk '$1 == "\"name\":" && $2 ~ /C6/ { getline; sub(/,/, "", $2); printf "%s ", $2 }' "$tmp/idle1.json")
	# shellcheck disable=SC2086
	set -- $per_cpu_c6
	bad=
	i=0
	for u in "$@"; do
		if [ "$i" -lt 8 ] && [ "$u" -ne 0 ]; then bad="$bad cpu$i=$u"; fi
		i=$((i + 1))
	done
	if [ -z "$bad" ] && [ "$i" -eq 16 ] && [ "${c6#* }" = 8 ] && [ "${c1e#* }" = 1 ]; then
		ok "--idle-states: CPUs 0-7 never enter C6, CPU 4 not C1E either, the JSON says so"
	else
		not_ok "--idle-states: per-CPU C6 usage" "$per_cpu_c6" "C6 $c6, C1E $c1e$bad"
	fi
	;;
esac

# polling only (max=0): the CPUs poll until woken, and the run still ends
expect_exit 0 "" schedlab run -m smp2 --check --idle-states max=0 -- perf bench sched pipe -l 2000
same_output idle-states-max0-twice schedlab run -m smt2-2s-16 --idle-states max=POLL -- hackbench -g 1 -l 20
# shallower idle states shorten schbench's wakeup latency: C6's 133 us exit is gone
p99() { awk '/Wakeup Latencies/ { w = 1 } w && /99.0th/ { print $3; exit }' "$tmp/out"; }
run_cmd schedlab run -m smt2-2s-16 -- schbench -m 2 -t 4 -r 1
deep=$(p99)
run_cmd schedlab run -m smt2-2s-16 --idle-states max=C1 -- schbench -m 2 -t 4 -r 1
shallow=$(p99)
if [ -n "$deep" ] && [ -n "$shallow" ] && [ "$shallow" -lt "$deep" ] && [ "$shallow" -lt 133 ]; then
	ok "--idle-states max=C1: schbench p99 wakeup $deep -> $shallow us"
else
	not_ok "--idle-states max=C1: schbench p99 wakeup" "default '$deep' us, max=C1 '$shallow' us"
fi

# a study's 'option idle-states' line reaches every run of every variant
cat >"$tmp/idle.study" <<'STUDY'
name idle-opt
title a study under --idle-states
machine smt2-2s-16
workload perf bench sched pipe -l 2000
variant base -
variant nowl NO_TTWU_QUEUE
metric usecs_per_op
runs 2
STUDY
mean() { awk '$1 == "usecs_per_op" && $2 == "nowl" { print $3; exit }' "$tmp/out"; }
run_cmd schedlab study --file "$tmp/idle.study"
deep=$(mean)
echo 'option idle-states max=POLL' >>"$tmp/idle.study"
run_cmd schedlab study --file "$tmp/idle.study"
poll=$(mean)
if [ -n "$deep" ] && [ -n "$poll" ] && awk -v d="$deep" -v p="$poll" 'BEGIN { exit !(p < d) }'; then
	ok "study 'option idle-states max=POLL': pipe $deep -> $poll us/op"
else
	not_ok "study 'option idle-states'" "default '$deep', max=POLL '$poll' us/op"
fi
echo 'option idle-state max=POLL' >>"$tmp/idle.study"
expect_exit 2 "idle.study:10: unknown option 'idle-state' (funclatency, sysctl, cost, hz, preempt, probe-overhead, also, cpufreq, costs, idle-states, guest or cpuidle)" \
	schedlab study --file "$tmp/idle.study"
