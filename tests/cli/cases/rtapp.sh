# shellcheck shell=sh
# rt-app cases of issue 18, sourced by tests/cli/run.sh (its helpers, $tmp,
# $root and the counts).

# ---------------------------------------------------------------------------
# rt-app at scale: a thread's state is its own task's size, not the file's
# ---------------------------------------------------------------------------

# 20,000 tasks, each with its own mutex, cancelled by the duration: each
# thread used to allocate and, cancelled, scan a slot per resource of the
# whole file (63 s on the development VM; now well under a second)
awk 'BEGIN { n = 20000; printf "{\"global\": {\"calibration\": 70, \"duration\": 1}, \"tasks\": {\n";
	for (i = 0; i < n; i++)
		printf "\"t%d\": {\"lock\": \"m%d\", \"run\": 100, \"unlock\": \"m%d\", \"sleep\": 1000}%s\n", i, i, i, (i < n - 1 ? "," : "");
	print "}}" }' >"$tmp/rtapp-20k.json"
expect_exit 0 "" timeout 30 "$SCHEDLAB" run -m smp4 -- rt-app "$tmp/rtapp-20k.json"

# ---------------------------------------------------------------------------
# rt-app integers: strict, in range, no internal marker a value can hit
# ---------------------------------------------------------------------------

rb=tests/cli/rtapp
# rt-app's sscanf("CPU%d") wraps this to CPU 3 and takes "CPU 1"; refused here
expect_exit 2 "rt-app: $rb/bad-calibration-wrap.json:1: calibration: \"CPU4294967299\" is neither ns per loop nor \"CPUn\" (CPU and a CPU number, 0..2147483647)" \
	schedlab run -m smp4 -- rt-app $rb/bad-calibration-wrap.json
sed 's/CPU4294967299/CPU 1/' $rb/bad-calibration-wrap.json >"$tmp/calib-space.json"
expect_exit 2 "calibration: \"CPU 1\" is neither ns per loop" schedlab run -m smp4 -- rt-app "$tmp/calib-space.json"
# rt-app's THREAD_PRIORITY_UNCHANGED (INT_MAX) used to leave nice 0 and print 2147483647
expect_exit 2 "rt-app: $rb/bad-priority-max.json:3: task t: SCHED_OTHER priority 2147483647 is not a nice value (-20..19)" \
	schedlab run -m smp4 -- rt-app $rb/bad-priority-max.json
# a phase's priority without policy is the thread's policy's (SCHED_FIFO): it
# used to reach the run as "no policy" and abort()
run_cmd "$SCHEDLAB" run -m smp2 --check --json "$tmp/phase-prio.json" -- rt-app "$root/$rb/phase-priority.json"
if [ "$status" -eq 0 ] && grep -q '"policy": "SCHED_FIFO"' "$tmp/phase-prio.json" &&
	grep -q '"priority": 6,' "$tmp/phase-prio.json"; then
	ok "rt-app: a phase's priority applies to the thread's SCHED_FIFO"
else
	not_ok "rt-app: a phase's priority applies to the thread's SCHED_FIFO" "status $status"
	show_stderr
fi
sed 's/"priority": 6/"priority": 0/' $rb/phase-priority.json >"$tmp/phase-prio0.json"
expect_exit 2 "phase-prio0.json:8: task t: phase p1: SCHED_FIFO priority 0 is out of range (1..99)" \
	schedlab run -m smp2 -- rt-app "$tmp/phase-prio0.json"

# ---------------------------------------------------------------------------
# an output that is standard output's file comes after the printed text, whole
# ---------------------------------------------------------------------------

# stdout_then NAME SUBCOMMAND OPTION PATH ARGS...: `schedlab SUBCOMMAND OPTION
# PATH ARGS...` prints what it prints with OPTION FILE, then FILE, whole (the
# host's time, sim.wall_s, left out); PATH "FILE": stdout redirected to the file
# the option names
stdout_then() {
	name=$1
	sub=$2
	opt=$3
	path=$4
	shift 4
	"$SCHEDLAB" "$sub" "$opt" "$tmp/st.file" "$@" >"$tmp/st.ref" 2>/dev/null
	cat "$tmp/st.file" >>"$tmp/st.ref"
	status=0
	if [ "$path" = FILE ]; then
		"$SCHEDLAB" "$sub" "$opt" "$tmp/st.out" "$@" >"$tmp/st.out" 2>"$tmp/err" || status=$?
	else
		"$SCHEDLAB" "$sub" "$opt" "$path" "$@" >"$tmp/st.out" 2>"$tmp/err" || status=$?
	fi
	grep -v '"wall_s"' "$tmp/st.ref" >"$tmp/st.a"
	grep -v '"wall_s"' "$tmp/st.out" >"$tmp/st.b"
	if [ "$status" -eq 0 ] && [ -s "$tmp/st.file" ] && cmp -s "$tmp/st.a" "$tmp/st.b"; then
		ok "$name"
	else
		not_ok "$name" "status $status; stdout is not the text, then the file (- want, + got):"
		diff -u "$tmp/st.a" "$tmp/st.b" | head -12 | sed 's/^/       /'
		show_stderr
	fi
}
stdout_then "run --json /dev/stdout: after the text, whole" \
	run --json /dev/stdout -m smp2 -- hackbench -g 1 -l 10
stdout_then "run --json /proc/self/fd/1: after the text, whole" \
	run --json /proc/self/fd/1 -m smp2 -- hackbench -g 1 -l 10
stdout_then "run --trace /dev/stdout: after the text, whole" \
	run --trace /dev/stdout -m smp2 -- hackbench -g 1 -l 10
stdout_then "run --json FILE > FILE: the text, then the JSON" \
	run --json FILE -m smp2 -- hackbench -g 1 -l 10
stdout_then "run --schedstat /dev/stdout: after the text, whole" \
	run --schedstat /dev/stdout -m smp2 -- rt-app examples/periodic.json
stdout_then "ab --json /dev/stdout: after the table, whole" \
	ab --json /dev/stdout -m smp2 --test NO_TTWU_QUEUE --runs 2 -- hackbench -g 1 -l 10
expect_exit 2 "run: --json and --trace name the same file '/proc/self/fd/1'" \
	schedlab run -m smp2 --json /dev/stdout --trace /proc/self/fd/1 -- hackbench -g 1 -l 10
# a failed standard output: neither the text nor the JSON, exit 1
expect_exit 1 "schedlab: writing standard output: No space left on device" \
	sh -c "'$SCHEDLAB' run -m smp2 --json /dev/stdout -- hackbench -g 1 -l 10 >/dev/full"

# ---------------------------------------------------------------------------
# rt-app's log files are outputs: checked before the run, put in place with
# the others or not at all
# ---------------------------------------------------------------------------

rl=$tmp/rtl
mkdir -p "$rl"
printf '{"global": {"calibration": 70,\n "logdir": "%s"},\n "tasks": {"a": {"loop": 3, "run": 100}, "b": {"loop": 3, "run": 100}}}\n' \
	"$rl" >"$tmp/rtl.json"
# no files but these in the logdir (no temporary left behind)
rtl_files() {
	got=$(cd "$rl" && ls -A | tr '\n' ' ')
	if [ "$got" = "$1" ]; then ok "$2"; else not_ok "$2" "files in the logdir: '$got', want '$1'"; fi
}
# a log that is a link to a full device: exit 1 naming it; nothing in place
ln -s /dev/full "$rl/rt-app-a-0.log"
expect_exit 1 "schedlab: writing '$rl/rt-app-a-0.log' failed" \
	schedlab run -m smp2 --json "$tmp/rtl-out.json" -- rt-app "$tmp/rtl.json"
rtl_files "rt-app-a-0.log " "rt-app logs: a failed log puts nothing in place (rt-app-b-1.log)"
if [ -e "$tmp/rtl-out.json" ]; then not_ok "rt-app logs: a failed log puts nothing in place (--json)"; else
	ok "rt-app logs: a failed log puts nothing in place (--json)"; fi
rm -f "$rl/rt-app-a-0.log"
# standard output full: old logs untouched, no new ones
echo old >"$rl/rt-app-a-0.log"
expect_exit 1 "schedlab: writing standard output: No space left on device" \
	sh -c "'$SCHEDLAB' run -m smp2 -- rt-app '$tmp/rtl.json' >/dev/full"
if [ "$(cat "$rl/rt-app-a-0.log")" = old ]; then ok "rt-app logs: an old log survives a failed run"; else
	not_ok "rt-app logs: an old log survives a failed run" "$(head -2 "$rl/rt-app-a-0.log")"; fi
rtl_files "rt-app-a-0.log " "rt-app logs: a failed run writes no log"
# a good run: both logs whole, nothing else
expect_exit 0 "" schedlab run -m smp2 -- rt-app "$tmp/rtl.json"
if [ "$(wc -l <"$rl/rt-app-a-0.log")" -eq 4 ] && [ "$(wc -l <"$rl/rt-app-b-1.log")" -eq 4 ]; then
	ok "rt-app logs: a header and a line a loop"; else not_ok "rt-app logs: a header and a line a loop"; fi
rtl_files "rt-app-a-0.log rt-app-b-1.log " "rt-app logs: no temporary left"
# a logdir that cannot hold them: exit 2 before the run, one line
sed 's|"logdir": "[^"]*"|"logdir": "/proc"|' "$tmp/rtl.json" >"$tmp/rtl-proc.json"
expect_exit 2 "rt-app: $tmp/rtl-proc.json:2: logdir: cannot create log files in '/proc'" \
	schedlab run -m smp2 -- rt-app "$tmp/rtl-proc.json"
mkdir "$rl/rt-app-b-1.log.d" && rm "$rl/rt-app-b-1.log" && mv "$rl/rt-app-b-1.log.d" "$rl/rt-app-b-1.log"
expect_exit 2 "logdir: cannot write log file '$rl/rt-app-b-1.log': Is a directory" \
	schedlab run -m smp2 -- rt-app "$tmp/rtl.json"
rmdir "$rl/rt-app-b-1.log"
# the same file as another output, also through a link, or as a forked thread's log
expect_exit 2 "run: --json and rt-app's log file name the same file '$rl/rt-app-a-0.log'" \
	schedlab run -m smp2 --json "$rl/rt-app-a-0.log" -- rt-app "$tmp/rtl.json"
ln -s "$rl/rt-app-b-1.log" "$tmp/rtl-alias"
expect_exit 2 "run: --trace and rt-app's log file name the same file '$rl/rt-app-b-1.log'" \
	schedlab run -m smp2 --trace "$tmp/rtl-alias" -- rt-app "$tmp/rtl.json"
printf '{"global": {"calibration": 70, "logdir": "%s"},\n "tasks": {"a": {"loop": 1, "fork": "w", "run": 10}, "w": {"instance": 0, "loop": 1, "run": 10}}}\n' \
	"$rl" >"$tmp/rtl-fork.json"
expect_exit 2 "run: --json '$rl/rt-app-w-1-0000.log' could be the log file of a thread rt-app forks" \
	schedlab run -m smp2 --json "$rl/rt-app-w-1-0000.log" -- rt-app "$tmp/rtl-fork.json"
expect_exit 0 "" schedlab run -m smp2 -- rt-app "$tmp/rtl-fork.json"
rtl_files "rt-app-a-0.log rt-app-b-1.log rt-app-w-1-0000.log " "rt-app logs: a forked thread's log"

# ---------------------------------------------------------------------------
# a workload that fails mid-run: named, with its cause and time, exit 1
# ---------------------------------------------------------------------------

fl=tests/cli/rtapp/fork-limit.json
# in the background: the run ends (no result without the interference asked
# for), the message names the --also command as typed; the JSON and trace
# are still written, the JSON saying which workload failed and why
expect_exit 1 "schedlab: the background workload --also 'rt-app $fl' failed at t=10075658 ns: rt-app: $fl:4: thread a-529-0528: fork: task a reached rt-app's fork limit (1024 forks of it): rt-app exits; the run ends there, without a result" \
	schedlab run -m smp4 --json "$tmp/fl.json" --trace "$tmp/fl.trace" --also "rt-app $fl" -- hackbench -g 1 -l 10
if grep -q '"workload": "also",' "$tmp/fl.json" && grep -q '"also_index": 0,' "$tmp/fl.json" &&
	grep -q "\"command\": \"rt-app $fl\"," "$tmp/fl.json" && grep -q '"t_ns": 10075658,' "$tmp/fl.json" &&
	grep -q '"message": "rt-app: .*fork limit (1024' "$tmp/fl.json" && [ -s "$tmp/fl.trace" ]; then
	ok "--also failure: the JSON names the workload and the cause, the trace is written"
else
	not_ok "--also failure: the JSON names the workload and the cause, the trace is written" \
		"$(grep -A6 '"failure"' "$tmp/fl.json" 2>/dev/null)"
fi
# as the measured benchmark: its cause, not "all tasks blocked"
expect_exit 1 "schedlab: the benchmark failed at t=9325538 ns: rt-app: $fl:4: thread a-497-0496: fork1: task a reached rt-app's fork limit (1024 forks of it)" \
	schedlab run -m smp4 --json "$tmp/fl2.json" -- rt-app $fl
if grep -q '"workload": "benchmark",' "$tmp/fl2.json" && ! grep -q '"also_index"' "$tmp/fl2.json"; then
	ok "benchmark failure: the JSON names it"
else
	not_ok "benchmark failure: the JSON names it" "$(grep -A6 '"failure"' "$tmp/fl2.json" 2>/dev/null)"
fi
# a stuck benchmark and a limit are recorded too
run_cmd "$SCHEDLAB" run -m smp4 --json "$tmp/stuck.json" -- rt-app "$root/tests/cli/rtapp/stuck-barrier.json"
if [ "$status" -eq 1 ] && grep -q '"message": "rt-app: .*blocked forever in barrier (b)' "$tmp/stuck.json"; then
	ok "a stuck benchmark: the JSON says where"; else not_ok "a stuck benchmark: the JSON says where" "status $status"; fi
run_cmd "$SCHEDLAB" run -m smp2 --max-events 1000 --json "$tmp/limit.json" -- hackbench -g 1 -l 100
if [ "$status" -eq 1 ] && grep -q '"workload": null,' "$tmp/limit.json" &&
	grep -q '"message": "the run stopped at its event limit' "$tmp/limit.json"; then
	ok "a limit: the JSON names no workload"; else not_ok "a limit: the JSON names no workload" "status $status"; fi
# ab and study say why a run did not finish
expect_exit 1 "schedlab: ab: the base run with seed 1 did not finish: the background workload --also 'rt-app $fl' failed at t=10075658 ns: rt-app: $fl:4:" \
	schedlab ab -m smp4 --test NO_TTWU_QUEUE --runs 2 -j 2 --also "rt-app $fl" -- hackbench -g 1 -l 10
expect_exit 1 "schedlab: ab: the base run with seed 1 did not finish: the benchmark failed at t=9325538 ns: rt-app: $fl:4:" \
	schedlab ab -m smp4 --test NO_TTWU_QUEUE --runs 2 -- rt-app $fl
printf 'name fl\ntitle a background fork bomb\nvariant a -\nvariant b NO_TTWU_QUEUE\nmachine smp4\nworkload hackbench -g 1 -l 10\nmetric time_s\nruns 2\noption also rt-app %s\n' \
	"$fl" >"$tmp/fl.study"
expect_exit 1 "schedlab: study: a run of 'hackbench -g 1 -l 10' on smp4 with seed 1 did not finish: the background workload --also 'rt-app $fl' failed at t=10075658 ns" \
	schedlab study --file "$tmp/fl.study"
# a background workload that ends before the benchmark is no failure
printf '{"global": {"calibration": 70}, "tasks": {"t": {"loop": 1, "run": 10}}}\n' >"$tmp/short.json"
expect_exit 0 "" schedlab run -m smp4 --also "rt-app $tmp/short.json" -- hackbench -g 1 -l 10

# ---------------------------------------------------------------------------
# rt-app's util_min/util_max: sched_setattr()'s uclamp requests (docs/energy.md)
# ---------------------------------------------------------------------------

expect_exit 0 "" schedlab run -m pixel6 -- rt-app examples/uclamp.json
same_output rtapp-uclamp schedlab run -m pixel6 --cpufreq schedutil -- rt-app examples/uclamp.json
sed 's/"util_min" : 614,/"util_min" : 700, "util_max" : 600,/' examples/uclamp.json >"$tmp/uclamp-minmax.json"
expect_exit 2 "rt-app: $tmp/uclamp-minmax.json:13: task boosted: util_min 700 is above util_max 600 (sched_setattr() fails with EINVAL)" \
	schedlab run -m pixel6 -- rt-app "$tmp/uclamp-minmax.json"
sed 's/"util_min" : 614,/"util_min" : 1025,/' examples/uclamp.json >"$tmp/uclamp-range.json"
expect_exit 2 "util_min" schedlab run -m pixel6 -- rt-app "$tmp/uclamp-range.json"
