# shellcheck shell=sh
# The progress line moves through long runs (issue 24): sourced by
# tests/cli/run.sh. script(1) gives the run a terminal;
# SCHEDLAB_PROGRESS_AFTER_MS=0 draws the line at every check.

# progress_lines CMD: the progress lines CMD draws, one a line
progress_lines() {
	SCHEDLAB_PROGRESS_AFTER_MS=0 script -qec "$*" /dev/null 2>&1 </dev/null |
		tr '\r' '\n' | grep '^\[schedlab\] '
}
if command -v script >/dev/null 2>&1; then
	# unixbench's passes: 13 simulated seconds each, counted as one unit, sat at 0%
	progress_lines "$SCHEDLAB run -m smp2 -- unixbench context1 -i 1 -c 1" >"$tmp/pl"
	mid=$(grep -c '| *[3-7][0-9]% |' "$tmp/pl")
	if [ "$mid" -gt 0 ] && grep -q 'ETA' "$tmp/pl"; then ok "progress: unixbench moves through a pass, with an ETA"; else
		not_ok "progress: unixbench moves through a pass" "$(sed -n '1p;$p' "$tmp/pl")"; fi
	# context1 alone: its duration
	progress_lines "$SCHEDLAB run -m smp2 -- context1 1" >"$tmp/pl"
	if grep -q '| *[3-7][0-9]% |' "$tmp/pl"; then ok "progress: context1 by its duration"; else
		not_ok "progress: context1 by its duration" "$(sed -n '1p;$p' "$tmp/pl")"; fi
	# ipistorm: its IPIs, not only its 30 s timeout
	progress_lines "$SCHEDLAB run -m smp2 -- ipistorm numipi=50000 single=1 offset=1 cpulist=0 wait=1" >"$tmp/pl"
	if grep -q '| *[3-7][0-9]% |' "$tmp/pl"; then ok "progress: ipistorm by its IPIs"; else
		not_ok "progress: ipistorm by its IPIs" "$(sed -n '1p;$p' "$tmp/pl")"; fi
	# stress-ng with only an op budget
	progress_lines "$SCHEDLAB run -m smp2 -- stress-ng --cpu 2 --cpu-ops 40000" >"$tmp/pl"
	if grep -q '| *[3-7][0-9]% |' "$tmp/pl"; then ok "progress: stress-ng by its op budget"; else
		not_ok "progress: stress-ng by its op budget" "$(sed -n '1p;$p' "$tmp/pl")"; fi
	# perf stat -r N: which run, and the share of all N
	progress_lines "$SCHEDLAB run -m smp2 -- perf stat -r 3 perf bench sched pipe -l 20000" >"$tmp/pl"
	if grep -q '^\[schedlab\] run 2 of 3 | simulated [0-9.]* s | *[3-6][0-9]% |' "$tmp/pl"; then
		ok "progress: perf stat -r 3 says which run, the percentage of all three"
	else
		not_ok "progress: perf stat -r 3 says which run" "$(grep 'run 2 of 3' "$tmp/pl" | sed -n '1p;$p')"
	fi
fi

# bench/fidelity.sh: which measurement of how many, and the time left, on a terminal
if command -v script >/dev/null 2>&1; then
	script -qec "sh '$root/bench/fidelity.sh' --only sm-idle '$SCHEDLAB' >'$tmp/fid.out'" /dev/null 2>&1 </dev/null |
		tr '\r' '\n' >"$tmp/fid.err"
	if grep -q '^\[fidelity\] 2 of 2: SM_IDLE, ipistorm on epyc-milan-2s-256 | [0-9]* s | ETA [0-9]* s' "$tmp/fid.err" &&
		grep -q '^| SM_IDLE: ipistorm, icelake-2s-128' "$tmp/fid.out" && ! grep -q 'fidelity\]' "$tmp/fid.out"; then
		ok "bench/fidelity.sh: progress on stderr, the table alone on stdout"
	else
		not_ok "bench/fidelity.sh: progress on stderr" "$(head -5 "$tmp/fid.err")" "$(grep -c '^|' "$tmp/fid.out") table lines"
	fi
fi
expect_exit 2 "fidelity.sh: --only: unknown group 'nosuch'" sh "$root/bench/fidelity.sh" --only sm-idle,nosuch "$SCHEDLAB"
