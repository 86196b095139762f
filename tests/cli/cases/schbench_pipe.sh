# shellcheck shell=sh
# schbench -p, pipe mode (issue 24): the handoff alone, each side writing
# the worker's page. Sourced by tests/cli/run.sh.

golden run-schbench-pipe-smp4 schedlab run -m smp4 -- schbench -m 2 -t 2 -r 2 -p 4096
expect_exit 0 "" schedlab run -m smp4 --check -- schbench -r 1 -p 65536
expect_exit 0 "" schedlab run -m smt2-2s-16 --check -- schbench -m 2 -r 1 -p 1
same_output schbench-pipe-twice schedlab run -m smp4 -- schbench -m 1 -t 3 -r 1 -p 512
# no interval reports, no RPS: the histogram with its 20th percentile and the transfer rate
run_cmd schedlab run -m smp4 --json "$tmp/sbp.json" -- schbench -t 4 -r 2 -i 1 -p 8192
if [ "$status" -eq 0 ] && ! grep -q 'RPS\|Request\|current rps\|sched delay' "$tmp/out" &&
	grep -q '^	  20.0th: ' "$tmp/out" &&
	grep -Eq '^avg worker transfer: [0-9]+\.[0-9]{2} ops/sec [0-9]+\.[0-9]{2}(B|KB|MB|GB)/s$' "$tmp/out" &&
	grep -q '"bytes_per_sec": ' "$tmp/sbp.json" && grep -q '"wakeup_p20_us": ' "$tmp/sbp.json"; then
	ok "schbench -p: the pipe mode's output and metrics"
else
	not_ok "schbench -p: the pipe mode's output and metrics" "status $status" "$(cat "$tmp/out")"
fi
# bytes per second is ops per second times -p (to the byte, integer division)
ops=$(sed -n 's/.*"ops_per_sec": \([0-9.]*\).*/\1/p' "$tmp/sbp.json")
bytes=$(sed -n 's/.*"bytes_per_sec": \([0-9]*\).*/\1/p' "$tmp/sbp.json")
if awk -v o="$ops" -v b="$bytes" 'BEGIN { exit !(b >= o * 8192 - 8192 && b <= o * 8192) }'; then
	ok "schbench -p: bytes_per_sec = ops_per_sec x 8192"
else
	not_ok "schbench -p: bytes_per_sec = ops_per_sec x 8192" "ops $ops bytes $bytes"
fi
# a bigger page takes longer to write: fewer handoffs per second
sbp_ops() {
	"$SCHEDLAB" run -m smp4 --json "$tmp/sbp2.json" -- schbench -t 2 -r 1 -p "$1" >/dev/null 2>&1 &&
		sed -n 's/.*"ops_per_sec": \([0-9]*\).*/\1/p' "$tmp/sbp2.json"
}
small=$(sbp_ops 64)
big=$(sbp_ops 1048576)
if [ -n "$small" ] && [ -n "$big" ] && [ "$big" -lt "$small" ]; then ok "schbench -p: fewer handoffs a second with 1 MiB pages than with 64 bytes ($big < $small)"; else not_ok "schbench -p: page size" "64: $small, 1M: $big"; fi
expect_exit 2 "schbench: -p 1048577 is more than the tool's 1048576-byte pipe buffer (it would use 1048576): give at most 1048576" \
	schedlab run -m smp4 -- schbench -p 1048577
expect_exit 2 "schbench: -p needs an integer" schedlab run -m smp4 -- schbench -p x
