# shellcheck shell=sh
# hackbench -F/--fifo and -w/--watchdog (issue 24). Sourced by tests/cli/run.sh.

# -F: the main process turns SCHED_FIFO 1 once its workers exist
golden run-hackbench-fifo-smp2 schedlab run -m smp2 -- hackbench -F -g 2 -l 100
expect_exit 0 "" schedlab run -m smp4 --check -- hackbench --fifo -T -g 2 -l 100
run_cmd schedlab run -m smp2 --trace "$tmp/fifo.trace" -- hackbench -F -g 1 -l 20
# the parent (pid 1) forks its 40 workers at nice 0 (prio 120), then runs at
# kernel prio 98 (SCHED_FIFO 1); the workers stay at 120
if [ "$status" -eq 0 ] && grep -q 'prev_comm=hackbench prev_pid=1 prev_prio=98 ' "$tmp/fifo.trace" &&
	! grep -q 'prev_pid=\([2-9]\|[1-4][0-9]\) prev_prio=98' "$tmp/fifo.trace" &&
	grep -q 'prev_pid=2 prev_prio=120 ' "$tmp/fifo.trace"; then
	ok "hackbench -F: the parent runs SCHED_FIFO 1, the workers SCHED_OTHER"
else
	not_ok "hackbench -F: the parent runs SCHED_FIFO 1, the workers SCHED_OTHER" "status $status"
fi
# without -F nothing is FIFO
run_cmd schedlab run -m smp2 --trace "$tmp/nofifo.trace" -- hackbench -g 1 -l 20
if [ "$status" -eq 0 ] && ! grep -q 'prio=98' "$tmp/nofifo.trace"; then ok "hackbench without -F: no FIFO task"; else not_ok "hackbench without -F: no FIFO task"; fi
# -w is not rt-tests hackbench's: refused, saying what guards a hang instead
expect_exit 2 "hackbench: -w is not an option of rt-tests hackbench 2.10 (it prints its usage and exits 1): a run that stops making progress is ended by schedlab's --max-time and --max-events" \
	schedlab run -m smp2 -- hackbench -g 1 -w
expect_exit 2 "hackbench: -w is not an option" schedlab run -m smp2 -- hackbench --watchdog
