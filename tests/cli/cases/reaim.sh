# SPDX-License-Identifier: GPL-2.0-only
# reaim (AIM7), issue 18: sourced by tests/cli/run.sh, whose helpers
# (golden, expect_exit, same_output, ok, not_ok, run_cmd) and $tmp it uses.

# reaim_users NAME WANT CMD...: CMD exits 0 within 60 s and the table's user
# counts (the Num Forked column, all repeats) are WANT, space-separated
reaim_users() {
	name=$1
	want=$2
	shift 2
	# timeout runs programs, not shell functions
	if [ "$1" = schedlab ]; then
		shift
		set -- "$SCHEDLAB" "$@"
	fi
	run_cmd timeout 60 "$@"
	if [ "$status" -ne 0 ]; then
		not_ok "$name" "'$*' exited with status $status, want 0 (124: it did not end)"
		show_stderr
		return
	fi
	got=$(awk '/^Forked/ { t = 1; next } /^Max Jobs/ { t = 0 } t && /^[0-9]/ { printf "%s%s", s, $1; s = " " }' "$tmp/out")
	# want '*': any counts (the caller reads $got)
	if [ "$want" = '*' ] || [ "$got" = "$want" ]; then
		ok "$name"
	else
		not_ok "$name" "'$*': user counts '$got', want '$want'"
	fi
}

printf '10 jmp_test\nFILESIZE: 10K\n' >"$tmp/jmp.wf"
printf 'STARTUSERS 1\nENDUSERS 10\nINCREMENT 5\n' >"$tmp/step5.config"

# finding 1: a step past -e ends the run, as multiuser()'s runnum <= maxusers
reaim_users "reaim: a step past -e ends the run" "1" \
	schedlab run -m smp4 -- reaim -s 1 -e 3 -i 5 -t
reaim_users "reaim: -s 2 -e 9 -i 3 -t" "2 5 8" \
	schedlab run -m smp4 -- reaim -s 2 -e 9 -i 3 -t -j 1 -f "$tmp/jmp.wf"
# the later adaptive steps depend on the model's timings: a run to 40 gives
# them, and a run to one more than the first count from 10 on that the
# timer steps past by more than one must stop at that count
reaim_users "reaim: the adaptive run to 40 ends" '*' schedlab run -m smp4 -- reaim -s 1 -e 40
to40=$got
before=$(echo "$to40" | awk '{ for (i = 1; i < NF; i++) if ($i >= 10 && $(i + 1) > $i + 1) { print $i; exit } }')
if [ -n "$before" ]; then
	cut=$(echo "$to40" | awk -v e="$((before + 1))" '{ s = ""; for (i = 1; i <= NF && $i <= e; i++) { printf "%s%s", s, $i; s = " " } }')
	reaim_users "reaim: the adaptive step past -e ends the run (-e $((before + 1)))" "$cut" \
		schedlab run -m smp4 -- reaim -s 1 -e "$((before + 1))"
else
	not_ok "reaim: the adaptive run to 40 steps by more than one after 10" "got '$to40'"
fi
reaim_users "reaim: the config file's INCREMENT past ENDUSERS" "1 6" \
	schedlab run -m smp4 -- reaim -c "$tmp/step5.config" -j 1 -f "$tmp/jmp.wf"
reaim_users "reaim: -e 100000 -i 100000: one loop" "1" \
	schedlab run -m smp4 -- reaim -s 1 -e 100000 -i 100000 -j 1 -t
if grep -q 'schedlab: stopped' "$tmp/out"; then
	not_ok "reaim: no limit line when -e ends the run" "$(cat "$tmp/out")"
else
	ok "reaim: no limit line when -e ends the run"
fi
# -x (INFINITE end users) stops at schedlab's limit, and says so. Without
# the cost of wait()'s passes over the driver's 99,999 children, which
# alone reaches the crossover first (docs/locking.md, "tasklist_lock").
# (Under menu this run once ended early "with every task blocked": a lock
# spinner on a CPU whose tick was still marked as idle housekeeping.)
reaim_users "reaim: -x stops at the limit of 100000 users" "99999 100000" \
	schedlab run -m smp4 --cost tasklist_wait_child=0 -- reaim -x -s 99999 -t -j 1 -f "$tmp/jmp.wf"
if grep -qx '(schedlab: stopped at its limit of 100000 users)' "$tmp/out"; then
	ok "reaim: the limit line when the limit ends the run"
else
	not_ok "reaim: the limit line when the limit ends the run" "$(cat "$tmp/out")"
fi

# finding 12: a path with a directory is that file; only a bare name may be
# the compiled-in copy of a standard file
expect_exit 2 "reaim: cannot read workfile '/nonexistent/dir/workfile.short': No such file or directory" \
	schedlab run -m smp2 -- reaim -f /nonexistent/dir/workfile.short
expect_exit 2 "reaim: cannot read workfile './workfile.compute': No such file or directory" \
	sh -c "cd '$tmp' && '$SCHEDLAB' run -m smp2 -- reaim -f ./workfile.compute"
expect_exit 2 "reaim: cannot read config file '/nonexistent/reaim.config': No such file or directory" \
	schedlab run -m smp2 -- reaim -c /nonexistent/reaim.config
reaim_users "reaim: a bare standard name missing here is the compiled-in copy" "2" \
	sh -c "cd '$tmp' && '$SCHEDLAB' run -m smp2 -- reaim -s 2 -e 2 -j 5 -f workfile.compute -c reaim.config"

# finding 9: the workfile's weight total fits re-aim's int total_hits, or exit 2
awk 'BEGIN { for (i = 0; i < 4295; i++) print "1000000 add_double" }' >"$tmp/wrap.wf"
expect_exit 2 "reaim: $tmp/wrap.wf:2148: the weights add up to 2148000000, more than 2147483647 (re-aim's int total_hits)" \
	schedlab run -m smp4 -- reaim -s 1 -e 1 -f "$tmp/wrap.wf"
{ cat "$tmp/wrap.wf"; echo "967296 add_int"; } >"$tmp/wrap0.wf"
expect_exit 2 "reaim: $tmp/wrap0.wf:2148: the weights add up to 2148000000" \
	schedlab run -m smp4 -- reaim -s 1 -e 1 -f "$tmp/wrap0.wf"
awk 'BEGIN { for (i = 0; i < 2147; i++) print "1000000 add_double"; print "483647 add_int"; print "FILESIZE: 10K" }' >"$tmp/intmax.wf"
reaim_users "reaim: a weight total of exactly INT_MAX runs" "1" \
	schedlab run -m smp4 -- reaim -s 1 -e 1 -j 1 -f "$tmp/intmax.wf"
# jobs per user = Jobs per Minute x Parent Time / 60: one add_double, one add_int
if awk '/^1 / { j = $5 * $2 / 60; exit !(j > 1.99 && j < 2.01) }' "$tmp/out"; then
	ok "reaim: INT_MAX total: one job of each test"
else
	not_ok "reaim: INT_MAX total: one job of each test" "$(cat "$tmp/out")"
fi
printf '1 add_int\nPOOLSIZE: 1048577M\n' >"$tmp/bigpool.wf"
expect_exit 2 "reaim: $tmp/bigpool.wf:2: bad size in 'POOLSIZE: 1048577M' (FILESIZE: <integer><KkMm>, at most 1048576)" \
	schedlab run -m smp4 -- reaim -f "$tmp/bigpool.wf"
printf 'JOBS 1000001\n' >"$tmp/jobs.config"
expect_exit 2 "reaim: $tmp/jobs.config:1: bad number in 'JOBS 1000001' (an integer in 0..1000000)" \
	schedlab run -m smp4 -- reaim -c "$tmp/jobs.config"
printf 'ENDUSERS 100001\n' >"$tmp/users.config"
expect_exit 2 "reaim: $tmp/users.config:1: bad number in 'ENDUSERS 100001' (an integer in 0..100000)" \
	schedlab run -m smp4 -- reaim -c "$tmp/users.config"
expect_exit 2 "reaim: -j needs an integer in 1..1000000, got '1000001'" schedlab run -m smp4 -- reaim -j 1000001
expect_exit 2 "reaim: -r needs an integer in 1..1000, got '1001'" schedlab run -m smp4 -- reaim -r 1001
expect_exit 2 "reaim: -i needs an integer in 1..100000, got '4294967297'" schedlab run -m smp4 -- reaim -i 4294967297

# finding 2: a run's memory is bounded by what is alive, not by what has
# existed. A ramp of 20100 users (1 to 200) may take little more than one
# loop of its largest count: before the fix each exited user kept ~6.5 KB
# (130 MB for this ramp, 3 MB for the single loop). ASan holds freed memory
# in its quarantine (256 MB by default): keep it small here.
reaim_rss() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1 \
		/usr/bin/time -f %M -o "$tmp/rss" "$SCHEDLAB" run -m smp4 -- reaim "$@" -t -j 5 >/dev/null 2>"$tmp/err" &&
		cat "$tmp/rss"
}
if [ -x /usr/bin/time ]; then
	one=$(reaim_rss -s 200 -e 200)
	ramp=$(reaim_rss -s 1 -e 200)
	if [ -n "$one" ] && [ -n "$ramp" ] && [ "$ramp" -le $((one + 8192)) ]; then
		ok "reaim: a 1..200 ramp's max RSS ($ramp KB) is within 8 MB of one 200-user loop's ($one KB)"
	else
		not_ok "reaim: a 1..200 ramp's max RSS (${ramp:-?} KB) is within 8 MB of one 200-user loop's (${one:-?} KB)"
		show_stderr
	fi
else
	ok "reaim: max RSS check skipped (no /usr/bin/time)"
fi
