# shellcheck shell=sh
# Cost profiles (--costs FILE) in run, ab, study and sweep, and calibrate's
# profile read back; docs/calibration.md. Sourced by tests/cli/run.sh.

cp_dir=$tmp/costs
mkdir -p "$cp_dir"
printf '# date: 2026-12-06T00:00:00Z\n# cpu: Test CPU\n[costs]\n# a slower syscall\nsyscall = 900\n' >"$cp_dir/slow.costs"
printf '[costs]\nsyscall = 100\nnope = 1\n' >"$cp_dir/unknown.costs"
printf '[costs]\n\nsyscall = 12abc\n' >"$cp_dir/bad.costs"
printf '[machine]\nname = x\n' >"$cp_dir/machine.costs"

# bad profiles: exit 2, one line naming the file and line
expect_exit 2 "run: --costs: $cp_dir/unknown.costs:3: unknown cost parameter 'nope'" \
	schedlab run -m smp2 --costs "$cp_dir/unknown.costs" -- hackbench -l 5
expect_exit 2 "$cp_dir/bad.costs:3: cost parameter 'syscall': bad value '12abc'" \
	schedlab run -m smp2 --costs "$cp_dir/bad.costs" -- hackbench -l 5
expect_exit 2 "$cp_dir/machine.costs:1: [machine] in a cost profile" \
	schedlab ab -m smp2 --test NO_SM_IDLE --costs "$cp_dir/machine.costs" -- hackbench -l 5
expect_exit 2 "study: --costs: $cp_dir/none.costs: No such file or directory" \
	schedlab study sm-idle --quick --costs "$cp_dir/none.costs"
expect_exit 2 "sweep: --costs: $cp_dir/none.costs: No such file or directory" \
	schedlab sweep "$root/tests/sweep/grid.plan" --list --costs "$cp_dir/none.costs"

# the profile moves the result; --cost goes over it; the JSON names it
base=$("$SCHEDLAB" run -m smp2 -- perf bench sched pipe -l 200 2>&1 | grep usecs/op)
slow=$("$SCHEDLAB" run -m smp2 --costs "$cp_dir/slow.costs" -- perf bench sched pipe -l 200 2>&1 | grep usecs/op)
over=$("$SCHEDLAB" run -m smp2 --costs "$cp_dir/slow.costs" --cost syscall=100 -- perf bench sched pipe -l 200 2>&1 | grep usecs/op)
if [ -n "$base" ] && [ "$base" != "$slow" ] && [ "$base" = "$over" ]; then
	ok "--costs moves the result, --cost overrides it"
else
	not_ok "--costs moves the result, --cost overrides it" "base '$base'" "slow '$slow'" "over '$over'"
fi
"$SCHEDLAB" run -m smp2 --costs "$cp_dir/slow.costs" --json "$cp_dir/r.json" -- hackbench -l 5 >/dev/null 2>&1
if grep -q '"cost_profile": {' "$cp_dir/r.json" && grep -q '"cpu": "Test CPU"' "$cp_dir/r.json" &&
	grep -q '"fnv1a64": "[0-9a-f]\{16\}"' "$cp_dir/r.json"; then
	ok "run --json records the cost profile"
else
	not_ok "run --json records the cost profile" "$(grep -A8 cost_profile "$cp_dir/r.json")"
fi
# sweep: the profile is part of every point's command line (and hash)
"$SCHEDLAB" sweep "$root/tests/sweep/grid.plan" -o "$cp_dir/g.sweep" --list --costs "$cp_dir/slow.costs" >"$cp_dir/list" 2>&1
if grep -q -- "--costs $cp_dir/slow.costs --" "$cp_dir/list"; then ok "sweep --costs: in every point's command"; else
	not_ok "sweep --costs: in every point's command" "$(head -3 "$cp_dir/list")"; fi

# the L1 in front of the private cache (cache_l1_kb, 32 by default): 40
# processes taking turns on one CPU pay their footprints' refill from the
# L2, a pipe pair (two 16 KiB footprints in 32 KiB) nothing; a machine file
# carries it through --export-sysfs and -m sysfs:DIR
hb_off=$("$SCHEDLAB" run -m smp2 --cost cache_l1_kb=0 -- taskset -c 0 hackbench -g 1 -l 100 2>&1 | sed -n 's/^Time: //p')
hb_on=$("$SCHEDLAB" run -m smp2 -- taskset -c 0 hackbench -g 1 -l 100 2>&1 | sed -n 's/^Time: //p')
pp_off=$("$SCHEDLAB" run -m smp2 --cost cache_l1_kb=0 -- taskset -c 0 perf bench sched pipe -l 2000 2>&1 | grep usecs/op)
pp_on=$("$SCHEDLAB" run -m smp2 -- taskset -c 0 perf bench sched pipe -l 2000 2>&1 | grep usecs/op)
if [ -n "$hb_off" ] && awk -v a="$hb_off" -v b="$hb_on" 'BEGIN { exit !(b > a) }' && [ -n "$pp_off" ] && [ "$pp_off" = "$pp_on" ]; then
	ok "cache_l1_kb: 40 processes on a CPU refill, a pipe pair does not"
else
	not_ok "cache_l1_kb: 40 processes on a CPU refill, a pipe pair does not" \
		"hackbench $hb_off -> $hb_on" "pipe '$pp_off' -> '$pp_on'"
fi
"$SCHEDLAB" machines --export smp2 | sed 's/^\[costs\]$/[costs]\ncache_l1_kb = 48/' >"$cp_dir/l1.machine"
rm -rf "$cp_dir/l1-sysfs"
if "$SCHEDLAB" topo -m "$cp_dir/l1.machine" --export-sysfs "$cp_dir/l1-sysfs" >/dev/null 2>&1 &&
	[ "$(cat "$cp_dir/l1-sysfs/cpu/cpu0/cache/index2/type" 2>/dev/null)" = Data ] &&
	"$SCHEDLAB" machines --export "sysfs:$cp_dir/l1-sysfs" | grep -qx 'cache_l1_kb = 48'; then
	ok "cache_l1_kb: --export-sysfs writes the L1d, -m sysfs:DIR reads it"
else
	not_ok "cache_l1_kb: --export-sysfs writes the L1d, -m sysfs:DIR reads it" \
		"$(grep cache_l "$cp_dir/l1.machine")" "$(ls "$cp_dir/l1-sysfs/cpu/cpu0/cache" 2>&1)"
fi

# each preset's L1d (docs/machines.md): the default's 32 KiB or the machine
# files' own
l1s=$(for m in smp2 xeon-8269cy-2s icelake-2s-128 epyc-milan-2s-256 power10-96 altra-80 pixel6 alderlake-i9-12900k westmere-ex-8s-160; do
	printf '%s=%s ' "$m" "$("$SCHEDLAB" topo -m "$m" --costs | sed -n 's/^cache_l1_kb=//p')"
done)
if [ "$l1s" = "smp2=32 xeon-8269cy-2s=32 icelake-2s-128=48 epyc-milan-2s-256=32 power10-96=32 altra-80=64 pixel6=64 alderlake-i9-12900k=48 westmere-ex-8s-160=32 " ]; then
	ok "cache_l1_kb: every preset's L1d"
else
	not_ok "cache_l1_kb: every preset's L1d" "$l1s"
fi

# calibrate --quick on this machine: the profile's format, never its values
# (make check must not depend on the machine's speed or load)
run_cmd schedlab calibrate --quick -o "$cp_dir/host.costs"
if [ "$status" -eq 0 ] && [ -s "$cp_dir/host.costs" ]; then
	ok "calibrate --quick -o FILE"
	bad=$(awk '
		/^\[costs\]$/ { sec = 1; prev = $0; next }
		/^#/ || /^$/ { prev = $0; next }
		{
			if (!sec) print "value before [costs]: " $0
			if (prev !~ /^#/) print "no comment before: " $0
			if ($0 !~ /^[a-z_0-9.]+ = [0-9]+$/) print "not NAME = N: " $0
			else if ($3 + 0 <= 0) print "not positive: " $0
			n++
		}
		{ prev = $0 }
		END { if (n < 20) print "only " n " values" }' "$cp_dir/host.costs")
	for h in date cpu kernel virtualization load; do
		grep -q "^# $h: ." "$cp_dir/host.costs" || bad="$bad no '# $h:' line;"
	done
	if [ -z "$bad" ]; then ok "calibrate: every value commented, positive, the header complete"; else
		not_ok "calibrate: the profile's format" "$bad"; fi
	expect_exit 0 "" schedlab run -m host --costs "$cp_dir/host.costs" -- perf bench sched pipe -l 100
else
	not_ok "calibrate --quick -o FILE" "exited with status $status"
	show_stderr
fi
expect_exit 2 "calibrate: unknown option '--slow'" schedlab calibrate --slow
expect_exit 2 "calibrate: unexpected argument 'x'" schedlab calibrate x

# validate: bad input; then two pinned rows, for the table's shape (the
# values are this machine's; without perf the rows say which package)
expect_exit 2 "validate: --costs: $cp_dir/unknown.costs:3: unknown cost parameter 'nope'" \
	schedlab validate --costs "$cp_dir/unknown.costs"
expect_exit 2 "validate: --only 'no such row' matches no row" schedlab validate --only 'no such row'
expect_exit 2 "validate: unknown option '--slow'" schedlab validate --slow
expect_exit 2 "validate: --seeds '17': give a whole number from 1 to 16" schedlab validate --seeds 17
expect_exit 2 "validate: --features: unknown scheduler feature 'NO_SUCH'" \
	schedlab validate --features WAKEUP_PREEMPT_EEVDF,NO_SUCH
run_cmd schedlab validate --quick --costs "$cp_dir/slow.costs" --only 'taskset -c 0 perf bench sched pipe' \
	--json "$cp_dir/v.json"
if [ "$status" -eq 0 ] && grep -q '^benchmark  *real s, median' "$tmp/out" &&
	[ "$(grep -c '^taskset -c 0 perf bench sched pipe' "$tmp/out")" -eq 2 ] &&
	grep -q '^target (docs/calibration.md)' "$tmp/out" &&
	grep -Eq '^  pinned time within \+-20%: [0-2] of 2 rows' "$tmp/out" &&
	grep -q '^  unpinned time within +-35%: 0 of 0 rows$' "$tmp/out" &&
	grep -q '"kind": "validate"' "$cp_dir/v.json"; then
	ok "validate --only: the table, its target and the JSON"
else
	not_ok "validate --only: the table, its target and the JSON" "status $status" "$(cat "$tmp/out")"
	show_stderr
fi
# --real: the real runs of that JSON simulated again (with another profile):
# the same real medians, no real run
run_cmd schedlab validate --real "$cp_dir/v.json" --only 'taskset -c 0 perf bench sched pipe' \
	--seeds 3 --features WAKEUP_PREEMPT_EEVDF --json "$cp_dir/v2.json"
if [ "$status" -eq 0 ] && grep -q "^validate: 2 rows, the real runs of $cp_dir/v.json, simulated 3 times.* and --features WAKEUP_PREEMPT_EEVDF$" "$tmp/out" &&
	grep -q '"sim_median_s"' "$cp_dir/v2.json" &&
	grep -q '"features": "WAKEUP_PREEMPT_EEVDF"' "$cp_dir/v2.json" &&
	[ "$(grep '"real_median_s"' "$cp_dir/v.json")" = "$(grep '"real_median_s"' "$cp_dir/v2.json")" ]; then
	ok "validate --real --features: the recorded real runs, simulated again"
else
	not_ok "validate --real --features: the recorded real runs, simulated again" "status $status" "$(cat "$tmp/out")"
	show_stderr
fi
expect_exit 2 "validate: --real: cannot read '$cp_dir/none.json': No such file or directory" \
	schedlab validate --real "$cp_dir/none.json"
printf '{"kind": "run"}\n' >"$cp_dir/run.json"
expect_exit 2 "validate: --real: $cp_dir/run.json: not the JSON of 'schedlab validate --json'" \
	schedlab validate --real "$cp_dir/run.json"
printf '{"kind": "validate", "rows": [{"command": "taskset -c 0 perf bench sched pipe -l 20000", "real": 3}]}\n' >"$cp_dir/r.json"
expect_exit 2 "validate: --real: $cp_dir/r.json: row 'taskset -c 0 perf bench sched pipe -l 20000': 'real' is not a list of runs" \
	schedlab validate --real "$cp_dir/r.json"

# execution-time variation (docs/cost-model.md): a width past the range is
# refused; on, a run is the same for the same seed and not the run without it
expect_exit 2 "cost parameter 'exec_variation_ppm': bad value '500001'" \
	schedlab run -m smp2 --cost exec_variation_ppm=500001 -- hackbench -l 5
# an exit charges exit_page for every page at once: at most 10 us a page
expect_exit 2 "cost parameter 'exit_page': bad value '10001' (nanoseconds, 0..10000)" \
	schedlab run -m smp2 --cost exit_page=10001 -- hackbench -l 5
same_output exec-variation-seeded schedlab run -m smp2 --cost exec_variation_ppm=20000 --seed 3 -- \
	hackbench -g 2 -l 50
off=$("$SCHEDLAB" run -m smp2 --seed 3 -- hackbench -g 2 -l 100 2>&1)
zero=$("$SCHEDLAB" run -m smp2 --cost exec_variation_ppm=0 --seed 3 -- hackbench -g 2 -l 100 2>&1)
on=$("$SCHEDLAB" run -m smp2 --cost exec_variation_ppm=20000 --seed 3 -- hackbench -g 2 -l 100 2>&1)
if [ "$off" = "$zero" ] && [ "$off" != "$on" ]; then
	ok "exec_variation_ppm: 0 is the machine without it, 20000 another run"
else
	not_ok "exec_variation_ppm: 0 is the machine without it, 20000 another run" "off: $off" "on: $on"
fi
