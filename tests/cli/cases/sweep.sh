# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests/cli/run.sh (its helpers, $tmp and counts): issue 18's
# cases for sweep's outputs and for the process pool that sweep, ab and
# study share. tests/sweep/run.sh has the rest of sweep's tests.

# ---------------------------------------------------------------------------
# the pool's runs die with their parent (docs/reliability.md, "Outputs and
# signals"): kill -9 of the parent leaves no run behind
# ---------------------------------------------------------------------------

# a process that exists and is not a zombie
pool_alive() {
	st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	case $st in
	Z* | "") return 1 ;;
	esac
	return 0
}

# parent_killed NAME MARK CMD...: run CMD (whose arguments contain MARK) in
# the background, wait for its two runs, kill -9 it, and check within 3 s
# that no process with MARK in its command line is left
parent_killed() {
	name=$1
	mark=$2
	shift 3 # and the word schedlab
	"$SCHEDLAB" "$@" >/dev/null 2>&1 </dev/null &
	pid=$!
	i=0
	while [ "$(pgrep -P "$pid" | wc -l)" -lt 2 ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kids=$(pgrep -P "$pid" | tr '\n' ' ')
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	i=0
	left=x
	while [ -n "$left" ] && [ $i -lt 30 ]; do
		left=""
		for k in $(echo $kids $(pgrep -f -- "$mark") | tr ' ' '\n' | sort -u); do
			pool_alive "$k" && left="$left $k"
		done
		[ -n "$left" ] && sleep 0.1
		i=$((i + 1))
	done
	if [ "$(echo $kids | wc -w)" -eq 2 ] && [ -z "$left" ]; then
		ok "$name"
	else
		not_ok "$name" "runs before the kill: ${kids:-none}; still running 3 s after it:${left:- none}"
	fi
	for k in $left; do kill -KILL "$k" 2>/dev/null; done
}

mkdir -p "$tmp/pool"
printf 'machine smp2\nworkload hackbench -g 2 -l {n}\naxis n 200000 250000\n' >"$tmp/pool/vlong.plan"
parent_killed "kill -9 of sweep -j 2 leaves no run behind" "$tmp/pool/vlong" \
	schedlab sweep "$tmp/pool/vlong.plan" -o "$tmp/pool/vlong.sweep" -j 2
parent_killed "kill -9 of ab -j 2 leaves no run behind" "$tmp/pool/ab.json" \
	schedlab ab -m smp2 --test NO_TTWU_QUEUE --runs 2 -j 2 --json "$tmp/pool/ab.json" -- hackbench -g 2 -l 200000
parent_killed "kill -9 of study -j 2 leaves no run behind" "$tmp/pool/study.json" \
	schedlab study wakelist-idle --runs 2 -j 2 --json "$tmp/pool/study.json"

# ---------------------------------------------------------------------------
# sweep --collect's outputs follow run's rules (docs/reliability.md): opened
# before anything is written, put in place only once everything, standard
# output included, succeeded; the same path twice refused
# ---------------------------------------------------------------------------

cs=$tmp/collect
mkdir -p "$cs"
cp "$root/tests/sweep/grid.plan" "$cs/grid.plan"
"$SCHEDLAB" sweep "$cs/grid.plan" -j 2 >/dev/null 2>&1
echo old >"$cs/old.csv"
# old.csv must still say "old", and no temporary be left
collect_untouched() {
	name=$1
	if [ "$(cat "$cs/old.csv")" = old ] && [ -z "$(ls -A "$cs" | grep '^\.')" ] &&
		[ ! -e "$cs/new.json" ] && [ ! -e "$cs/plots" ]; then
		ok "$name"
	else
		not_ok "$name" "old.csv: $(head -c 40 "$cs/old.csv"); files: $(ls -A "$cs" | tr '\n' ' ')"
	fi
}
expect_exit 2 "sweep: cannot write --json file '/nonexistent/x.json'" \
	schedlab sweep "$cs/grid.plan" --collect --csv "$cs/old.csv" --json /nonexistent/x.json
collect_untouched "--collect with a bad --json path leaves --csv's old file"
expect_exit 2 "sweep: --plot: cannot create directory" \
	schedlab sweep "$cs/grid.plan" --collect --csv "$cs/old.csv" --json "$cs/new.json" --plot /nonexistent/plots
collect_untouched "--collect with a bad --plot path writes nothing"
"$SCHEDLAB" sweep "$cs/grid.plan" --collect --csv "$cs/old.csv" --json "$cs/new.json" \
	--plot "$cs/plots" >/dev/full 2>"$tmp/err"
status=$?
if [ $status -eq 1 ] && grep -q "writing standard output: No space left on device" "$tmp/err"; then
	ok "--collect > /dev/full exits 1"
else
	not_ok "--collect > /dev/full exits 1" "status $status"
	show_stderr
fi
collect_untouched "--collect > /dev/full writes nothing"
expect_exit 2 "sweep: --csv and --json name the same file" \
	schedlab sweep "$cs/grid.plan" --collect --csv "$cs/old.csv" --json "$cs/old.csv"
expect_exit 2 "sweep: --csv and --json name the same file" \
	schedlab sweep "$cs/grid.plan" --collect --csv "$cs/same.x" --json "$cs/./same.x"
mkdir -p "$cs/sub"
ln -s "$cs" "$cs/link"
expect_exit 2 "sweep: --csv and --json name the same file" \
	schedlab sweep "$cs/grid.plan" --collect --csv "$cs/sub/../same.x" --json "$cs/link/same.x"
expect_exit 2 "sweep: --json and --plot name the same file" \
	schedlab sweep "$cs/grid.plan" --collect --json "$cs/p" --plot "$cs/p"
rm "$cs/link"
rmdir "$cs/sub"
collect_untouched "--collect refusing the same path twice writes nothing"
expect_exit 0 "" schedlab sweep "$cs/grid.plan" --collect --csv "$cs/old.csv" --json "$cs/new.json"
if grep -q '^machine,workload,groups' "$cs/old.csv" && grep -q '"kind": "sweep"' "$cs/new.json"; then
	ok "--collect replaces --csv's old file and writes --json"
else
	not_ok "--collect replaces --csv's old file and writes --json"
fi

# a point whose background workload fails keeps the cause run prints, not
# "all tasks blocked" (issue 18, 8)
mkdir -p "$cs/bgfail"
printf '%s\n' '{"tasks":{"a":{"instance":0,"loop":1,"fork":"a","fork1":"a","run":1},"l":{"loop":1,"fork":"a"}},"global":{"calibration":70}}' \
	>"$cs/bgfail/F.json"
printf 'machine smp4\nworkload hackbench -g 1 -l 10\noption also rt-app %s\n' "$cs/bgfail/F.json" \
	>"$cs/bgfail/f.plan"
expect_exit 1 "failed: the background workload --also 'rt-app" \
	schedlab sweep "$cs/bgfail/f.plan" -o "$cs/bgfail/out"
if grep -q "fork limit" "$cs"/bgfail/out/points/*.failed 2>/dev/null; then
	ok "a point's .failed names the background workload's cause"
else
	not_ok "a point's .failed names the background workload's cause"
fi
