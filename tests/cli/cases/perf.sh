# shellcheck shell=sh
# perf stat -e/-a/-C/-x and perf sched record/latency/timehist/map (issue 24;
# docs/benchmarks.md "perf stat", docs/observability.md "perf sched"):
# sourced by tests/cli/run.sh.

# perf stat -e: the software events and the sched tracepoints' counts
golden run-perf-stat-events-smp4 schedlab run -m smp4 -- perf stat -e task-clock,cs,migrations,sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_migrate_task,sched:sched_process_fork,sched:sched_process_exit,page-faults -- hackbench -g 1 -l 20
# -a: every CPU, idle time in the clocks; -C: those CPUs; -x: perf's CSV, with -r the noise column
golden run-perf-stat-a-smp4 schedlab run -m smp4 -- perf stat -a -e cpu-clock -e context-switches,cpu-migrations,sched:sched_switch -- hackbench -g 1 -l 20
golden run-perf-stat-C-smp4 schedlab run -m smp4 -- perf stat -C 1,3 -e task-clock,cs -- hackbench -g 1 -l 20
golden run-perf-stat-x-smp4 schedlab run -m smp4 -- perf stat -x, -r 3 -- perf bench sched pipe -l 2000
golden run-perf-stat-x-events-smp2 schedlab run -m smp2 -- perf stat -x ';' -e cs,task-clock,cycles -- hackbench -g 1 -l 10

# the counters perf stat opens cost each switch of the command's tasks
# (perf_event_task_sched_out/_in): 2 counters at 1000 + 2 x 500 ns, two
# switches a round trip on one CPU, 4 us more per op than --null; none with
# --null, whatever the costs
pc_op() {
	run_cmd schedlab run -m smp2 --cost perf_ctx_switch=1000 --cost perf_event_switch=500 -- "$@"
	sed -n 's/^ *\([0-9.]*\) usecs\/op$/\1/p' "$tmp/out"
}
pc_null=$(pc_op perf stat --null taskset -c 0 perf bench sched pipe -l 1000)
pc_two=$(pc_op perf stat -x, -e task-clock,cs taskset -c 0 perf bench sched pipe -l 1000)
pc_plain=$(pc_op taskset -c 0 perf bench sched pipe -l 1000)
if [ -n "$pc_null" ] && [ "$pc_null" = "$pc_plain" ] &&
	awk -v a="$pc_null" -v b="$pc_two" 'BEGIN { d = b - a; exit !(d > 3.99 && d < 4.02) }'; then
	ok "perf stat: each counter costs every switch of the command's tasks, --null none"
else
	not_ok "perf stat: each counter costs every switch of the command's tasks, --null none" \
		"--null $pc_null, 2 counters $pc_two, no perf stat $pc_plain (us/op)"
fi

# the tracepoint counts agree with the capture and the trace of the same run
ps_dir=$tmp/perf-sched
mkdir -p "$ps_dir"
run_cmd schedlab run -m smp4 --trace "$ps_dir/trace" -- perf sched record -o "$ps_dir/a.data" -- hackbench -g 2 -l 10
if [ "$status" -eq 0 ] && grep -q '^\[ perf record: Captured and wrote [0-9.]* MB .*a.data ([0-9]* samples) \]$' "$tmp/err" &&
	[ "$(grep -c ' sched_switch: ' "$ps_dir/trace")" -eq "$(grep -c '^S ' "$ps_dir/a.data")" ] &&
	[ "$(grep -c ' sched_waking: ' "$ps_dir/trace")" -eq "$(grep -c '^W ' "$ps_dir/a.data")" ]; then
	ok "perf sched record: the trace written alongside has the same switches and wakings"
else
	not_ok "perf sched record: the trace written alongside has the same switches and wakings" "status $status"
	show_stderr
fi
# determinism: the same run records the same bytes
run_cmd schedlab run -m smp4 -- perf sched record -o "$ps_dir/b.data" -- hackbench -g 2 -l 10
if [ "$status" -eq 0 ] && cmp -s "$ps_dir/a.data" "$ps_dir/b.data"; then
	ok "perf sched record: byte-identical captures of the same run"
else
	not_ok "perf sched record: byte-identical captures of the same run"
fi
# perf.data in the current directory by default, as perf's
if (cd "$ps_dir" && "$SCHEDLAB" run -m smp2 -- perf sched record hackbench -g 1 -l 5 >/dev/null 2>&1 &&
	"$SCHEDLAB" perf sched latency >/dev/null 2>&1) && [ -f "$ps_dir/perf.data" ]; then
	ok "perf sched record: perf.data by default"
else
	not_ok "perf sched record: perf.data by default"
fi

golden perf-sched-latency-smp4 schedlab perf sched latency -i "$ps_dir/a.data"
golden perf-sched-latency-sort-p-smp4 schedlab perf sched -i "$ps_dir/a.data" latency -s max,pid -p
golden perf-sched-latency-C1-smp4 schedlab perf sched latency -i "$ps_dir/a.data" -C 1 --sort switch
golden perf-sched-timehist-smp4 schedlab perf sched timehist -i "$ps_dir/a.data"
golden perf-sched-timehist-w-M-smp4 schedlab perf sched timehist -i "$ps_dir/a.data" -w --migrations
golden perf-sched-map-smp4 schedlab perf sched map -i "$ps_dir/a.data"
golden perf-sched-map-compact-smp4 schedlab perf sched map -i "$ps_dir/a.data" --compact --cpus 1-2
# timehist's note on stderr, as perf's pr_info()
expect_exit 0 "Samples of sched_switch event do not have callchains." schedlab perf sched timehist -i "$ps_dir/a.data"

# bad input: exit 2, one line naming it
expect_exit 2 "event syntax error: 'bogus'" schedlab run -m smp2 -- perf stat -e cs,bogus -- hackbench -l 5
expect_exit 2 "empty event name" schedlab run -m smp2 -- perf stat -e cs, -- hackbench -l 5
expect_exit 2 "-C 4: CPU 4 is not on this machine (CPUs 0-3)" schedlab run -m smp4 -- perf stat -C 4 -- hackbench -l 5
expect_exit 2 "-C: expected a CPU list" schedlab run -m smp4 -- perf stat -C 1-x -- hackbench -l 5
expect_exit 2 "option '-x' needs a value" schedlab run -m smp4 -- perf stat -x
expect_exit 2 "perf sched record: no command to run" schedlab run -m smp2 -- perf sched record
expect_exit 2 "perf sched record: option '-g' is not modelled" schedlab run -m smp2 -- perf sched record -g -- hackbench
expect_exit 2 "a nested 'perf stat'" schedlab run -m smp2 -- perf sched record -- perf stat hackbench
expect_exit 2 "cannot write '$ps_dir/nodir/x.data'" schedlab run -m smp2 -- perf sched record -o "$ps_dir/nodir/x.data" -- hackbench
expect_exit 2 "failed to open $ps_dir/none.data: No such file or directory" schedlab perf sched latency -i "$ps_dir/none.data"
expect_exit 2 "is not a perf sched capture" schedlab perf sched latency -i "$ps_dir/trace"
printf '# schedlab perf sched capture 1\n# machine smp2 cpus 2 events 1\nS 5 7 0 0 120 swapper/0 R 1 1 120 x\n' >"$ps_dir/bad.data"
expect_exit 2 "bad.data:3: not an event of a perf sched capture" schedlab perf sched map -i "$ps_dir/bad.data"
expect_exit 2 "Unknown --sort key: \`bogus'" schedlab perf sched latency -i "$ps_dir/a.data" -s avg,bogus
expect_exit 2 "-C needs a CPU of the capture's machine (0..3), got '4'" schedlab perf sched latency -i "$ps_dir/a.data" -C 4
expect_exit 2 "--cpus needs a list of the capture's CPUs (0-3), got '9'" schedlab perf sched map -i "$ps_dir/a.data" --cpus 9
expect_exit 2 "perf sched timehist: option '-s' is not modelled" schedlab perf sched timehist -i "$ps_dir/a.data" -s
expect_exit 2 "perf sched: 'replay' is not modelled" schedlab perf sched replay
expect_exit 2 "perf sched record: runs a command, so under run" schedlab perf sched record
expect_exit 2 "perf: only 'perf sched latency|timehist|map'" schedlab perf stat
expect_exit 0 "" schedlab perf --help

# perf stat -a counts the stream --trace writes: the same switches and wakings
run_cmd schedlab run -m smp2 --trace "$ps_dir/stat.trace" -- perf stat -a -e sched:sched_switch,sched:sched_waking -- hackbench -l 5
ps_sw=$(awk '$2 == "sched:sched_switch" { print $1 }' "$tmp/out")
ps_wk=$(awk '$2 == "sched:sched_waking" { print $1 }' "$tmp/out")
if [ "$status" -eq 0 ] && [ -n "$ps_sw" ] && [ "$ps_sw" -eq "$(grep -c ' sched_switch: ' "$ps_dir/stat.trace")" ] &&
	[ "$ps_wk" -eq "$(grep -c ' sched_waking: ' "$ps_dir/stat.trace")" ]; then
	ok "perf stat -a -e sched:...: the counts of the trace written alongside"
else
	not_ok "perf stat -a -e sched:...: the counts of the trace written alongside" "status $status, switches '$ps_sw', wakings '$ps_wk'"
fi
expect_exit 2 "--json and perf sched record -o name the same file" schedlab run -m smp2 --json "$ps_dir/same" -- perf sched record -o "$ps_dir/same" -- hackbench -l 5
# -a without -e: perf's defaults with cpu-clock in place of task-clock
golden run-perf-stat-a-default-smp2 schedlab run -m smp2 -- perf stat -a -r 2 -- hackbench -g 1 -l 10
