#!/bin/sh
# CLI and golden-output tests.
#
#   SCHEDLAB=./schedlab sh tests/cli/run.sh          (from the repository root;
#                                                     `make cli-test` / `make check`)
#   UPDATE_GOLDEN=1 SCHEDLAB=./schedlab sh tests/cli/run.sh
#                                                    rewrite tests/golden/*.out
#   VERBOSE=1 ...                                    also list the cases that pass
#
# Adding a case: append one line to the right section below. Commands are
# written as they would be typed, with `schedlab` standing for $SCHEDLAB:
#
#   golden NAME CMD...                 stdout must equal tests/golden/NAME.out
#                                      byte for byte, and the exit status be 0
#   expect_exit CODE STDERR_SUBSTR CMD...
#                                      exit status CODE (and no crash); stderr
#                                      contains STDERR_SUBSTR; for CODE 2 stderr
#                                      is exactly one line (DESIGN.md: one clear
#                                      message)
#   same_output NAME CMD...            two runs exit 0 with identical stdout
#                                      (determinism)

SCHEDLAB=${SCHEDLAB:-./schedlab}
case $SCHEDLAB in
/*) ;;
*/*) SCHEDLAB=$(pwd)/$SCHEDLAB ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
golden_dir=$root/tests/golden
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0

if [ ! -x "$SCHEDLAB" ]; then
	echo "cli: $SCHEDLAB is not an executable (set SCHEDLAB)" >&2
	exit 1
fi

# The binary under test, as cases spell it.
schedlab() {
	"$SCHEDLAB" "$@"
}

ok() {
	passed=$((passed + 1))
	[ -n "$VERBOSE" ] && echo "ok   $1"
	return 0
}

not_ok() {
	failed=$((failed + 1))
	echo "FAIL $1"
	shift
	for line in "$@"; do
		echo "     $line"
	done
}

# Run "$@" with stdout to $tmp/out and stderr to $tmp/err; status in $status.
run_cmd() {
	status=0
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null || status=$?
}

show_stderr() {
	if [ -s "$tmp/err" ]; then
		echo "     stderr:"
		sed 's/^/       /' "$tmp/err"
	fi
}

# golden NAME CMD...
golden() {
	name=$1
	shift
	file=$golden_dir/$name.out
	run_cmd "$@"
	if [ "$status" -ne 0 ]; then
		not_ok "$name" "'$*' exited with status $status, want 0"
		show_stderr
		return
	fi
	if [ -n "$UPDATE_GOLDEN" ] && [ "$UPDATE_GOLDEN" != 0 ]; then
		mkdir -p "$golden_dir"
		if [ -f "$file" ] && cmp -s "$tmp/out" "$file"; then
			ok "$name (golden unchanged)"
		else
			cp "$tmp/out" "$file"
			echo "updated $file"
			ok "$name (golden updated)"
		fi
		return
	fi
	if [ ! -f "$file" ]; then
		not_ok "$name" "'$*': no golden file $file" \
			"(create it with UPDATE_GOLDEN=1 and review it)"
		return
	fi
	if cmp -s "$file" "$tmp/out"; then
		ok "$name"
	else
		not_ok "$name" "'$*': stdout differs from $file (- golden, + actual):"
		diff -u "$file" "$tmp/out" | sed 's/^/       /'
	fi
}

# expect_exit CODE STDERR_SUBSTRING CMD...
expect_exit() {
	code=$1
	want=$2
	shift 2
	run_cmd "$@"
	what="'$*'"
	if [ "$status" -ge 128 ]; then
		not_ok "$what" "crashed: status $status (signal $((status - 128)))"
		show_stderr
		return
	fi
	if [ "$status" -ne "$code" ]; then
		not_ok "$what" "exited with status $status, want $code"
		show_stderr
		return
	fi
	if [ -n "$want" ] && ! grep -qF -e "$want" "$tmp/err"; then
		not_ok "$what" "stderr does not contain '$want'"
		show_stderr
		return
	fi
	if [ "$code" -eq 2 ]; then
		lines=$(wc -l <"$tmp/err")
		last=$(tail -c 1 "$tmp/err" | od -An -c | tr -d ' ')
		if [ "$lines" -ne 1 ] || [ "$last" != '\n' ]; then
			not_ok "$what" "stderr must be exactly one line for status 2, got:"
			sed 's/^/       /' "$tmp/err"
			return
		fi
	fi
	ok "$what"
}

# same_output NAME CMD...
same_output() {
	name=$1
	shift
	run_cmd "$@"
	if [ "$status" -ne 0 ]; then
		not_ok "$name" "'$*' exited with status $status, want 0"
		show_stderr
		return
	fi
	mv "$tmp/out" "$tmp/out.first"
	run_cmd "$@"
	if [ "$status" -ne 0 ]; then
		not_ok "$name" "'$*' exited with status $status on the second run"
		show_stderr
		return
	fi
	if cmp -s "$tmp/out.first" "$tmp/out"; then
		ok "$name"
	else
		not_ok "$name" "'$*': two runs print different stdout (- first, + second):"
		diff -u "$tmp/out.first" "$tmp/out" | sed 's/^/       /'
	fi
}

# ---------------------------------------------------------------------------
# machines, topo, features
# ---------------------------------------------------------------------------

golden machines schedlab machines
golden machines-v schedlab machines -v
golden features schedlab features
golden features-applied schedlab features --features NO_DELAY_DEQUEUE,NO_UTIL_EST,UTIL_EST
golden topo-smp2 schedlab topo -m smp2
golden topo-smt2-2s-16 schedlab topo -m smt2-2s-16
golden topo-xeon-8269cy-2s schedlab topo -m xeon-8269cy-2s
golden topo-power10-96 schedlab topo -m power10-96
golden topo-pixel6 schedlab topo -m pixel6

same_output topo-epyc-milan-2s-256 schedlab topo -m epyc-milan-2s-256
same_output machines-v-twice schedlab machines -v

expect_exit 0 "" schedlab machines --help
expect_exit 0 "" schedlab topo -h
expect_exit 0 "" schedlab features --help
expect_exit 0 "" schedlab topo --machine=smp2
expect_exit 0 "" schedlab topo --machine smp2

expect_exit 2 "unknown machine 'nosuchbox'" schedlab topo -m nosuchbox
expect_exit 2 "missing -m" schedlab topo
expect_exit 2 "needs a value" schedlab topo -m
expect_exit 2 "unknown option '--bogus'" schedlab topo -m smp2 --bogus
expect_exit 2 "unknown scheduler feature 'NO_SUCH_FEATURE'" \
	schedlab features --features NO_SUCH_FEATURE
expect_exit 2 "unknown option '--bogus'" schedlab machines --bogus
expect_exit 2 "unknown command 'nosuchcommand'" schedlab nosuchcommand
expect_exit 2 "command" schedlab

# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------

# (run-command cases go here)

# ---------------------------------------------------------------------------

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
