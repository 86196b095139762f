# shellcheck shell=sh
# --funclatency '[OPTIONS] PATTERN': bcc funclatency's command line and its
# output (docs/observability.md): sourced by tests/cli/run.sh.

# the pattern's functions together, -F one histogram each, -u/-m units,
# -i/-d/-T the summaries per interval of simulated time
golden run-funclatency-F-usecs schedlab run -m smp2 --funclatency '-uF __schedule,try_to_wake_up,sched_tick' -- perf bench sched pipe -l 5000
golden run-funclatency-msecs schedlab run -m smp2 --funclatency '-m __schedule' -- hackbench -g 1 -l 20
golden run-funclatency-interval schedlab run -m smp4 --funclatency '-T -i 1 -d 2 sched_balance_*' -- stress-ng --cpu 4 --timeout 3
golden run-funclatency-ctrlc schedlab run -m smp4 --funclatency '-Fi 0.4 -r sched_(tick|balance_rq)' -- stress-ng --cpu 4 --timeout 1

# the output's frame: the header with the count of matched functions, one
# summary (no -i), "Detaching..." last, and -F's sections only with -F
run_cmd schedlab run -m smp2 --funclatency 'sched_balance_*' -- hackbench -g 1 -l 20
if [ "$status" -eq 0 ] &&
	grep -qx 'Tracing 3 functions for "sched_balance_\*"... Hit Ctrl-C to end.' "$tmp/out" &&
	[ "$(tail -1 "$tmp/out")" = "Detaching..." ] && ! grep -q '^Function = ' "$tmp/out" &&
	[ "$(grep -c '^avg = .* nsecs, total: .* nsecs, count: ' "$tmp/out")" = 1 ]; then
	ok "funclatency: header, one combined summary, Detaching..."
else
	not_ok "funclatency: header, one combined summary, Detaching..." "status $status" "$(head -3 "$tmp/out")"
fi
# -d ends the tracing: the counts before it are the same as without -d
run_cmd schedlab run -m smp4 --funclatency '-i 1 sched_tick' -- stress-ng --cpu 4 --timeout 3
c_all=$(sed -n 's/^avg = .*count: //p' "$tmp/out" | head -2 | tr '\n' ' ')
run_cmd schedlab run -m smp4 --funclatency '-d 2 -i 1 sched_tick' -- stress-ng --cpu 4 --timeout 3
c_d2=$(sed -n 's/^avg = .*count: //p' "$tmp/out" | tr '\n' ' ')
if [ "$status" -eq 0 ] && [ -n "$c_d2" ] && [ "$c_all" = "$c_d2" ]; then
	ok "funclatency -d 2: the first two summaries of -i 1 ($c_d2)"
else
	not_ok "funclatency -d 2: the first two summaries of -i 1" "'$c_all' vs '$c_d2'"
fi
same_output funclatency-interval-twice schedlab run -m smp4 --funclatency '-uTi 0.5 __schedule' -- stress-ng --cpu 6 --timeout 1

expect_exit 2 "--funclatency: no function pattern in '-u'" schedlab run -m smp2 --funclatency -u -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: unknown option '-x'" schedlab run -m smp2 --funclatency '-x __schedule' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: unknown option '--bogus'" schedlab run -m smp2 --funclatency '--bogus __schedule' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: -p is not modelled" schedlab run -m smp2 --funclatency '-p 1 __schedule' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: -i needs a number of seconds above 0, got '0'" schedlab run -m smp2 --funclatency '-i 0 __schedule' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: -i: at least 0.001 seconds, got '0.0001'" schedlab run -m smp2 --funclatency '-i 0.0001 __schedule' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: -d needs a number of seconds above 0, got 'x'" schedlab run -m smp2 --funclatency '-d x __schedule' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: -i needs a number of seconds above 0, got ''" schedlab run -m smp2 --funclatency '__schedule -i' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: one pattern only, got '__schedule' and 'sched_tick'" schedlab run -m smp2 --funclatency '__schedule sched_tick' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: bad regular expression '('" schedlab run -m smp2 --funclatency '-r (' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: 0 functions matched by \"vfs_.*\"" schedlab run -m smp2 --funclatency '-r vfs_.*' -- hackbench -g 1 -l 1
expect_exit 2 "--funclatency: unknown function 'vfs_*'" schedlab run -m smp2 --funclatency 'vfs_*' -- hackbench -g 1 -l 1
