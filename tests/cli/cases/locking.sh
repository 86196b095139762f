# shellcheck shell=sh
# Sleeping locks (docs/locking.md, issue 22): the contention view and the
# lock tracepoints. No benchmark model takes a kernel lock yet, so
# --lock-stat prints the empty table and says so, the JSON has no "locks"
# and a trace has no contention lines. Sourced by tests/cli/run.sh.

golden lock-stat-none schedlab run -m smp2 --lock-stat -- hackbench -g 1 -l 10
run_cmd schedlab run -m smp2 --json "$tmp/lk.json" --trace "$tmp/lk.trace" --trace-events lock -- hackbench -g 1 -l 10
if [ "$status" -eq 0 ] && ! grep -q '"locks"' "$tmp/lk.json" && grep -q '"contention_begin": 0' "$tmp/lk.json"; then
	ok "locking: no locks in the JSON of a lock-free run, contention events counted"
else
	not_ok "locking: no locks in the JSON of a lock-free run, contention events counted"
fi
expect_exit 2 "--trace-events: unknown event 'contention'" schedlab run -m smp2 --trace "$tmp/lk2.trace" --trace-events contention -- hackbench -g 1 -l 10
