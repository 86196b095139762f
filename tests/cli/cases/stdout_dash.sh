# shellcheck shell=sh
# "-" names standard output for every output option (docs/reliability.md,
# "An output that is standard output's file"): sourced by tests/cli/run.sh.

dash_dir=$tmp/dash
mkdir -p "$dash_dir"
# dash_case NAME FIRST_LINE_AFTER_TEXT CMD...: run CMD in $dash_dir; its
# output must end with the output, starting at a line FIRST, and no file
# named '-' may appear
dash_case() {
	name=$1
	first=$2
	shift 2
	status=0
	(cd "$dash_dir" && "$@") >"$tmp/out" 2>"$tmp/err" </dev/null || status=$?
	if [ "$status" -eq 0 ] && [ ! -e "$dash_dir/-" ] && grep -qx -e "$first" "$tmp/out"; then
		ok "'-' is standard output: $name"
	else
		not_ok "'-' is standard output: $name" "status $status; a file '-': $([ -e "$dash_dir/-" ] && echo yes || echo no)"
		show_stderr
	fi
	rm -f "$dash_dir/-"
}
dash_case "run --json -" "{" "$SCHEDLAB" run -m smp2 --json - -- hackbench -g 1 -l 10
# the JSON comes after the benchmark's lines, whole
if [ "$(sed -n 4p "$tmp/out")" = "{" ] && tail -1 "$tmp/out" | grep -qx '}'; then ok "run --json -: after the text, whole"; else
	not_ok "run --json -: after the text, whole" "$(head -5 "$tmp/out")"; fi
dash_case "run --trace -" "# tracer: nop" "$SCHEDLAB" run -m smp2 --trace - -- hackbench -g 1 -l 10
dash_case "run --schedstat -" "version 17" "$SCHEDLAB" run -m smp2 --schedstat - -- hackbench -g 1 -l 10
dash_case "ab --json -" "{" "$SCHEDLAB" ab -m smp2 --test NO_SM_IDLE --runs 2 -j 1 --json - -- hackbench -g 1 -l 10
dash_case "study --json -" "{" "$SCHEDLAB" study wakelist-idle --quick --runs 2 -j 2 --json -
cp "$root/tests/sweep/grid.plan" "$dash_dir/"
(cd "$dash_dir" && "$SCHEDLAB" sweep grid.plan -j 2 >/dev/null 2>&1)
dash_case "sweep --collect --csv -" "machine,workload,groups,features,done,failed,missing,time_s_mean,time_s_ci95,sched.nr_migrations_mean,sched.nr_migrations_ci95" \
	"$SCHEDLAB" sweep grid.plan --collect --csv -
dash_case "sweep --collect --json -" "{" "$SCHEDLAB" sweep grid.plan --collect --json -
# two outputs on standard output are one file named twice
expect_exit 2 "run: --json and --trace name the same file '-'" schedlab run -m smp2 --json - --trace - -- hackbench -g 1 -l 10
expect_exit 2 "run: --json and --schedstat name the same file '/dev/stdout'" schedlab run -m smp2 --json - --schedstat /dev/stdout -- hackbench -g 1 -l 10
expect_exit 2 "sweep: --csv and --json name the same file '-'" sh -c "cd '$dash_dir' && '$SCHEDLAB' sweep grid.plan --collect --csv - --json -"
# directories cannot be standard output
expect_exit 2 "run: --plot -: the pictures are files in a directory" schedlab run -m smp2 --plot - -- hackbench -g 1 -l 10
expect_exit 2 "ab: --plot -: the pictures are files in a directory" schedlab ab -m smp2 --test NO_SM_IDLE --plot - -- hackbench -g 1 -l 10
expect_exit 2 "sweep: -o -: a sweep's points are files in a directory" schedlab sweep "$dash_dir/grid.plan" -o - --list
# standard output that cannot be written: exit 1, as for the text
if [ -w /dev/full ]; then
	status=0
	"$SCHEDLAB" run -m smp2 --json - -- hackbench -g 1 -l 10 >/dev/full 2>"$tmp/err" || status=$?
	if [ "$status" -eq 1 ] && grep -q "writing standard output" "$tmp/err"; then ok "--json - > /dev/full: exit 1"; else
		not_ok "--json - > /dev/full: exit 1" "status $status"; show_stderr; fi
fi
