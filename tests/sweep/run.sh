#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `schedlab sweep` without a cluster: the local runner (-j 1 and -j 2 give
# the same points byte for byte), GNU parallel on the emitted command lines
# (the same table), a sweep killed mid-way and resumed (no half point, only
# the missing ones run, the same table), a failed point and --retry-failed,
# --plot, and bad plans (exit 2, one line naming the plan and line).
#
#   sh tests/sweep/run.sh [./schedlab]          (`make check` runs it)
SCHEDLAB=${1:-./schedlab}
case $SCHEDLAB in
/*) ;;
*) SCHEDLAB=$(pwd)/$SCHEDLAB ;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd)
plan=$root/tests/sweep/grid.plan
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-sweep.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
passed=0
failed=0
ok() {
	passed=$((passed + 1))
	[ -n "$VERBOSE" ] && echo "ok   $1"
	return 0
}
not_ok() {
	failed=$((failed + 1))
	echo "FAIL $*"
}
check() {
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
sweep() {
	"$SCHEDLAB" sweep "$@"
}
json_count() {
	ls "$1/points" 2>/dev/null | grep -c '^[0-9a-f]*\.json$'
}

# ---- the local runner: -j 1 and -j 2 give the same points and the same table
sweep "$plan" -o "$tmp/j1" -j 1 >"$tmp/j1.out" 2>&1
check "local -j 1 runs the 8 points" grep -q "ran 8 points: 8 done, 0 failed" "$tmp/j1.out"
sweep "$plan" -o "$tmp/j2" -j 2 >/dev/null 2>&1
check "-j 1 and -j 2 write the same points" diff -r "$tmp/j1/points" "$tmp/j2/points"
sweep "$plan" -o "$tmp/j1" --collect --csv "$tmp/j1.csv" --json "$tmp/j1.json" >"$tmp/collect.out"
check "--collect of a complete sweep exits 0" [ $? -eq 0 ]
check "the table has a row per point but the seed" [ "$(grep -c '^smp2' "$tmp/collect.out")" -eq 4 ]
check "the CSV has a header and 4 rows" [ "$(wc -l <"$tmp/j1.csv")" -eq 5 ]
check "the CSV names each axis and metric" grep -q '^machine,workload,groups,features,done,failed,missing,time_s_mean,time_s_ci95,' "$tmp/j1.csv"
check "the JSON table keeps every seed's value" grep -q '"values"' "$tmp/j1.json"
sweep "$plan" -o "$tmp/j1" >"$tmp/again.out" 2>&1
check "a finished sweep runs nothing again" grep -q "8 done, 0 failed, 0 to run" "$tmp/again.out"

# ---- GNU parallel on the emitted command lines: the same table
if command -v parallel >/dev/null; then
	sweep "$plan" -o "$tmp/par" --emit parallel >"$tmp/par.cmds"
	check "--emit parallel prints one line per point" [ "$(wc -l <"$tmp/par.cmds")" -eq 8 ]
	parallel -j 2 <"$tmp/par.cmds" >/dev/null 2>"$tmp/par.err"
	check "GNU parallel ran every point" [ "$(json_count "$tmp/par")" -eq 8 ]
	sweep "$plan" -o "$tmp/par" --collect --csv "$tmp/par.csv" >/dev/null
	check "GNU parallel's table equals the local one" cmp -s "$tmp/j1.csv" "$tmp/par.csv"
	check "GNU parallel's points equal the local ones" diff -r "$tmp/j1/points" "$tmp/par/points"
	check "--emit parallel has nothing left to print" [ -z "$(sweep "$plan" -o "$tmp/par" --emit parallel)" ]
else
	echo "sweep: SKIP the GNU parallel path: 'parallel' is not installed (sh scripts/deps.sh)"
fi

# ---- killed mid-way, then resumed
cat >"$tmp/kill.plan" <<PLAN
workload hackbench -g 1 -l 1000
machine smp2
seeds 1..10
metric time_s
PLAN
sweep "$tmp/kill.plan" -o "$tmp/whole" -j 1 >/dev/null 2>&1
sweep "$tmp/kill.plan" -o "$tmp/whole" --collect --csv "$tmp/whole.csv" >/dev/null
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/killed" -j 1 >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(json_count "$tmp/killed")" -lt 3 ] && [ $i -lt 300 ]; do
	sleep 0.05
	i=$((i + 1))
done
kids=$(pgrep -P $pid)
kill -KILL $pid $kids 2>/dev/null
wait $pid 2>/dev/null
done_before=$(json_count "$tmp/killed")
check "the kill came mid-way ($done_before of 10 done)" [ "$done_before" -ge 3 ] && [ "$done_before" -lt 10 ]
sweep "$tmp/kill.plan" -o "$tmp/killed" --collect >"$tmp/killed.out" 2>&1
check "a killed sweep's table says what is missing" grep -q "^missing: $((10 - done_before)) points" "$tmp/killed.out"
check "no point of a killed sweep is half written" [ "$(grep -c 'corrupt' "$tmp/killed.out")" -eq 0 ]
sweep "$tmp/kill.plan" -o "$tmp/killed" -j 2 >"$tmp/resume.out" 2>&1
check "the resume runs only the missing points" grep -q "$done_before done, 0 failed, $((10 - done_before)) to run" "$tmp/resume.out"
sweep "$tmp/kill.plan" -o "$tmp/killed" --collect --csv "$tmp/resumed.csv" >/dev/null
check "the resumed table equals an uninterrupted run's" cmp -s "$tmp/whole.csv" "$tmp/resumed.csv"

# ---- corrupt result files (issue 18): cut short, garbage, a null metric, a metric
# missing: each counts as failed, is named on stderr, is marked in the table, and
# --retry-failed runs it again; --collect exits 4
cp -R "$tmp/j1" "$tmp/cor"
pts=$(sweep "$plan" -o "$tmp/cor" --list | cut -c1-16)
c1=$(echo "$pts" | sed -n 1p)
c2=$(echo "$pts" | sed -n 3p)
c3=$(echo "$pts" | sed -n 6p)
c4=$(echo "$pts" | sed -n 8p)
# cut inside the command string (where that is depends on the build's commit)
cut=$(($(grep -bo '"command": "' "$tmp/j1/points/$c1.json" | cut -d: -f1) + 30))
head -c "$cut" "$tmp/j1/points/$c1.json" >"$tmp/cor/points/$c1.json"
echo garbage >"$tmp/cor/points/$c2.json"
sed '0,/"time_s": [0-9]/s/"time_s": [0-9.e+-]*/"time_s": null/' "$tmp/j1/points/$c3.json" >"$tmp/cor/points/$c3.json"
sed '0,/"sched.nr_switches": [0-9]/{/"sched.nr_switches": [0-9]/d}' "$tmp/j1/points/$c4.json" >"$tmp/cor/points/$c4.json"
sweep "$plan" -o "$tmp/cor" >"$tmp/cor.out" 2>"$tmp/cor.err"
check "a rerun counts corrupt results as failed and leaves them" \
	grep -q "4 done, 4 failed (4 corrupt) (--retry-failed runs them again), 0 to run" "$tmp/cor.out"
check "a rerun names each corrupt result on stderr" [ "$(grep -c 'corrupt result of point' "$tmp/cor.err")" -eq 4 ]
check "... a file cut short" grep -q "$c1.json: corrupt result of point $c1: not JSON (offset $cut: unterminated string)" "$tmp/cor.err"
check "... a null metric" grep -q "$c3.*: metric 'time_s' is null" "$tmp/cor.err"
check "... a metric missing" grep -q "$c4.*: 9 metrics where seed 1's result has 10" "$tmp/cor.err"
check "--list shows them as corrupt" [ "$(sweep "$plan" -o "$tmp/cor" --list | grep -c '^[0-9a-f]*  corrupt  ')" -eq 4 ]
sweep "$plan" -o "$tmp/cor" --collect --csv "$tmp/cor.csv" >"$tmp/cor.out" 2>"$tmp/cor.err"
check "--collect with corrupt results exits 4" [ $? -eq 4 ]
check "--collect names each on stderr, one line each" [ "$(wc -l <"$tmp/cor.err")" -eq 4 ]
check "--collect still prints the table" [ "$(grep -c '^smp2' "$tmp/cor.out")" -eq 4 ]
check "--collect marks the rows, the seeds counted without them" [ "$(grep -c '^smp2 .* 1/2! ' "$tmp/cor.out")" -eq 4 ]
check "--collect lists them under the table" grep -q "^corrupt: 4 points" "$tmp/cor.out"
check "--collect counts them as failed in the CSV" [ "$(cut -d, -f5-7 "$tmp/cor.csv" | grep -c '^1,1,0$')" -eq 4 ]
sweep "$plan" -o "$tmp/cor" --retry-failed >"$tmp/cor.out" 2>&1
check "--retry-failed runs the corrupt points again" grep -q "ran 4 points: 4 done, 0 failed" "$tmp/cor.out"
sweep "$plan" -o "$tmp/cor" --collect --csv "$tmp/cor.csv" >/dev/null 2>&1
check "... and the table is whole again" cmp -s "$tmp/j1.csv" "$tmp/cor.csv"

# ---- SIGTERM (Ctrl-C, scancel): the sweep stops, its unfinished points stay missing, not failed
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/term" -j 2 >/dev/null 2>"$tmp/term.err" &
pid=$!
i=0
while [ "$(json_count "$tmp/term")" -lt 2 ] && [ $i -lt 300 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
check "SIGTERM ends a sweep with 143" [ $? -eq 143 ]
n=$(json_count "$tmp/term")
check "SIGTERM: the sweep says what it wrote ($n points)" grep -qxF \
	"schedlab: sweep: interrupted by SIGTERM; $n of the 10 points to run written to $tmp/term/points; the same command runs the rest" \
	"$tmp/term.err"
check "SIGTERM leaves no failed point" [ -z "$(ls "$tmp/term/points" | grep '\.failed$')" ]
check "SIGTERM leaves no run behind" [ -z "$(pgrep -f "$tmp/term")" ]

# ---- a point killed while it runs (as a cluster would): failed, then retried
h=$(sweep "$tmp/kill.plan" -o "$tmp/whole" --list | sed -n 1p | cut -c1-16)
rm "$tmp/whole/points/$h.json"
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/whole" --point "$h" >/dev/null 2>&1 &
pid=$!
i=0
until kids=$(pgrep -P $pid) || [ $i -gt 200 ]; do
	sleep 0.01
	i=$((i + 1))
done
kill -KILL $kids 2>/dev/null
wait $pid
check "--point whose run is killed exits 1" [ $? -eq 1 ]
check "a killed run leaves no result" [ ! -e "$tmp/whole/points/$h.json" ]
check "a killed run leaves a .failed saying why" grep -q "signal 9" "$tmp/whole/points/$h.failed"
sweep "$tmp/kill.plan" -o "$tmp/whole" --collect >"$tmp/failed.out" 2>&1
check "--collect of a sweep with a failed point exits 1" [ $? -eq 1 ]
check "--collect lists the failed point and why" grep -q "^  $h .*signal 9" "$tmp/failed.out"
sweep "$tmp/kill.plan" -o "$tmp/whole" >"$tmp/nofix.out" 2>&1
check "a rerun leaves failed points alone" grep -q "1 failed (--retry-failed runs them again), 0 to run" "$tmp/nofix.out"
sweep "$tmp/kill.plan" -o "$tmp/whole" --retry-failed >/dev/null 2>&1
check "--retry-failed runs it again" [ -e "$tmp/whole/points/$h.json" ] && [ ! -e "$tmp/whole/points/$h.failed" ]
sweep "$tmp/kill.plan" -o "$tmp/whole" --collect --csv "$tmp/retried.csv" >/dev/null
check "the retried table equals the first" cmp -s "$tmp/whole.csv" "$tmp/retried.csv"

sweep "$tmp/kill.plan" -o "$tmp/whole" --point "$h" >"$tmp/again.out" 2>&1
check "--point of a done point runs nothing" grep -q "point $h is done already" "$tmp/again.out"

# ---- --emit slurm writes the array script from the plan
sweep "$plan" -o "$tmp/sl" --emit slurm >"$tmp/sl.out"
s=$tmp/sl/slurm/sweep.sbatch
check "--emit slurm: 8 points in chunks of 3 are array tasks 0-2" grep -q '^#SBATCH --array=0-2$' "$s"
check "--emit slurm: time and memory from the plan" grep -q '^#SBATCH --time=0:05:00$' "$s" && grep -q '^#SBATCH --mem=200M$' "$s"
check "--emit slurm: output and error files per task" grep -q '^#SBATCH --error=".*/task-%A_%a.err"$' "$s"
check "--emit slurm: the script is valid sh" sh -n "$s"

# ---- hostile paths (issue 18): every path is quoted for sh and for sbatch's #SBATCH
# lines, running an array task by hand runs its points and nothing else, a task
# that finds no point exits 1, and a path no line can carry is refused
hw=$tmp/hostile
mkdir -p "$hw/sw"
hd1="$hw/it's \"\$(touch INJ1)\" 50% #dir"
sweep "$plan" -o "$hd1" --emit slurm >/dev/null 2>"$tmp/h.err"
check "--emit slurm into a directory named with ' \" \$( ) % #" [ $? -eq 0 ]
s=$hd1/slurm/sweep.sbatch
check "the script for that directory is valid sh" sh -n "$s"
check "the script for that directory is valid bash" bash -n "$s"
check "#SBATCH lines quote the directory, '\"' as \\\" and '%' as %%" \
	grep -qF "#SBATCH --output=\"$hw/it's \\\"\$(touch INJ1)\\\" 50%% #dir/slurm/task-%A_%a.out\"" "$s"
(cd "$hw" && SLURM_ARRAY_TASK_ID=1 sh "$s") >/dev/null 2>"$tmp/h.err"
check "array task 1, run by hand, exits 0" [ $? -eq 0 ]
want=$(sed -n '4,6p' "$hd1"/slurm/points-*.txt | sed 's/$/.json/' | sort | tr '\n' ' ')
got=$(ls "$hd1/points" | grep '\.json$' | sort | tr '\n' ' ')
check "array task 1 ran lines 4-6 of its list, and only those" [ "$got" = "$want" ]
(cd "$hw" && SLURM_ARRAY_TASK_ID=3 sh "$s") >/dev/null 2>"$tmp/h.err"
check "an array task with no point exits 1" [ $? -eq 1 ]
check "... saying so" grep -q "array task 3: no point on lines 10-12" "$tmp/h.err"
(cd "$hw" && SLURM_ARRAY_TASK_ID= sh "$s") >/dev/null 2>"$tmp/h.err"
check "an array task without SLURM_ARRAY_TASK_ID exits 1" [ $? -eq 1 ]
hd2="sw/x'\$(touch INJ2)'y"
(cd "$hw" && sweep "$plan" -o "$hd2" --emit slurm >/dev/null 2>&1 &&
	SLURM_ARRAY_TASK_ID=0 sh "$hd2/slurm/sweep.sbatch" >/dev/null 2>&1)
check "a relative -o with ' and \$( ): array task 0 runs its 3 points" \
	[ "$(json_count "$hw/$hd2")" -eq 3 ]
(cd "$hw" && sweep "$plan" -o "$hd1" --emit parallel) >"$tmp/h.cmds"
check "--emit parallel for that directory: a line per point still to run" [ "$(wc -l <"$tmp/h.cmds")" -eq 5 ]
(cd "$hw" && while IFS= read -r line; do sh -c "$line" || exit 1; done) <"$tmp/h.cmds" >/dev/null 2>&1
check "the emitted lines run through sh" [ $? -eq 0 ]
check "the emitted lines ran every point" [ "$(json_count "$hd1")" -eq 8 ]
check "no quoted path ran as a command" [ -z "$(find "$tmp" -name 'INJ*')" ]
sweep "$plan" -o "$hw/new
line" --emit parallel >/dev/null 2>"$tmp/h.err"
rc=$?
check "--emit parallel refuses a directory with a newline (exit 2, one line)" \
	[ $rc -eq 2 -a "$(wc -l <"$tmp/h.err")" -eq 1 ]
check "... before creating it" [ ! -e "$hw/new
line" ]
sweep "$plan" -o "$hw/back\\slash" --emit slurm >/dev/null 2>"$tmp/h.err"
check "--emit slurm refuses a directory with a backslash (exit 2)" [ $? -eq 2 ]
check "... saying why" grep -q "holds a backslash, which the emitted script cannot carry" "$tmp/h.err"
sweep "$plan" -o "$hw/full" --emit slurm >/dev/full 2>"$tmp/h.err"
check "--emit slurm > /dev/full exits 1" [ $? -eq 1 ]
check "... and writes neither the list nor the script" [ -z "$(ls -A "$hw/full/slurm")" ]

# ---- --plot: each metric against the numeric axis, lines per feature set
if command -v gnuplot >/dev/null; then
	sweep "$plan" -o "$tmp/j1" --collect --plot "$tmp/plots" >/dev/null 2>&1
	check "--plot draws time_s against groups" [ -s "$tmp/plots/sweep-time_s-vs-groups.png" ]
	check "--plot: a line per feature set" [ "$(grep -c '^# base$\|^# nowakeup$' "$tmp/plots/sweep-time_s-vs-groups.dat")" -eq 2 ]
	# the same pictures as SVG, well-formed XML (xmllint where installed)
	svg=$tmp/plots/sweep-time_s-vs-groups.svg
	check "--plot draws the SVG too" [ -s "$svg" ]
	if command -v xmllint >/dev/null; then
		check "--plot: the SVG is well-formed XML" xmllint --noout "$svg"
	else
		check "--plot: the SVG is an <svg> document" \
			sh -c 'head -c 5 "$1" | grep -q "<?xml" && grep -q "<svg" "$1" && tail -3 "$1" | grep -q "</svg>"' sh "$svg"
	fi
	# titled with the machine and the command every point shares
	check "--plot: titled with the machine and the command" \
		grep -q "on smp2: hackbench -g {groups} -l 50" "$svg"
fi

# ---- --list of a big grid is linear (issue 18: a 1..99999 axis took 12.6 s of CPU,
# now 1 s, 1.5 s with AddressSanitizer). CPU time, not wall time: two other
# builds may share the machine.
printf 'machine smp2\nworkload hackbench -g 1 -l {n}\naxis n 1..99999\n' >"$tmp/big.plan"
cpu=$( (timeout 120 "$SCHEDLAB" sweep "$tmp/big.plan" -o "$tmp/big" --list >"$tmp/big.out" 2>&1
	echo "rc $?"
	times) | awk '/^rc / { rc = $2 } /s .*s$/ { t = $0 } END {
		n = split(t, f, /[ms ]+/); print rc, f[1] * 60 + f[2] + f[3] * 60 + f[4] }')
check "--list of 99999 points exits 0 (rc, CPU s: $cpu)" [ "${cpu% *}" = 0 ]
check "--list of 99999 points takes under 6 s of CPU ($cpu)" awk "BEGIN { exit !(${cpu#* } < 6) }"
check "--list of 99999 points lists them all" [ "$(wc -l <"$tmp/big.out")" -eq 99999 ]

# ---- bad plans: exit 2, one line naming the plan file and line
bad() {
	name=$1
	want=$2
	printf '%b' "$3" >"$tmp/bad.plan"
	sweep "$tmp/bad.plan" -o "$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && grep -qF "$want" "$tmp/bad.err"; then
		ok "$name"
	else
		not_ok "$name: exit $rc, want 2 and '$want'; stderr: $(cat "$tmp/bad.err")"
	fi
}
m='machine smp2\n'
bad "unknown axis" "bad.plan:2: unknown axis 'grups'" "${m}workload hackbench -g {grups}\n"
bad "empty axis" "bad.plan:2: axis 'groups' has no values" "${m}axis groups\nworkload hackbench -g {groups}\n"
bad "unused axis" "bad.plan:2: axis 'x' is used by no workload" "${m}axis x 1 2\nworkload hackbench\n"
bad "unknown directive" "bad.plan:2: unknown directive 'workloads'" "${m}workloads hackbench\n"
bad "unknown machine" "bad.plan:1: unknown machine" "machine nosuch\nworkload hackbench\n"
bad "unknown benchmark" "bad.plan:3: 'frobnicate -x' on smp2" "${m}\nworkload frobnicate -x\n"
bad "bad benchmark option in one axis value" "bad.plan:3: 'hackbench -g 0' on smp2" "${m}axis g 1 0\nworkload hackbench -g {g}\n"
bad "unknown feature" "bad.plan:3: features 'x'" "${m}workload hackbench\nfeatures x NO_SUCH_FEATURE\n"
bad "unknown settings option" "bad.plan:3: settings: unknown option '--nice'" "${m}workload hackbench\nsettings s --nice 3\n"
bad "bad option value" "bad.plan:3: --hz must be" "${m}workload hackbench\noption hz 123\n"
bad "bad seeds" "bad.plan:3: seed 'x'" "${m}workload hackbench\nseeds x\n"
bad "no workload" "bad.plan: the plan has no 'workload'" "${m}"
bad "unknown metric" "metric 'nosuch' is not one that any workload reports" "${m}workload hackbench\nmetric nosuch\n"
bad "bad time" "bad.plan:3: 'time' takes Slurm's form" "${m}workload hackbench\ntime soon\n"
sweep "$tmp/nosuch.plan" >/dev/null 2>"$tmp/bad.err"
check "a missing plan exits 2" [ $? -eq 2 ]
sweep "$plan" --point 123 >/dev/null 2>"$tmp/bad.err"
check "--point with a bad hash exits 2" [ $? -eq 2 ]
sweep "$plan" -o "$tmp/j1" --point 0123456789abcdef >/dev/null 2>"$tmp/bad.err"
check "--point of another plan exits 2" [ $? -eq 2 ]

echo "sweep: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
