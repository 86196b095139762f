#!/bin/sh
# Runs every cmocka unit test binary and the CLI/golden tests, then prints one
# summary line "N passed, M failed".
# usage: tests/run-all.sh ./schedlab build/tests/test_a build/tests/test_b ...
bin=$1
shift
pass=0
fail=0
for t in "$@"; do
	echo "== $t"
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
echo "== CLI and golden tests"
if SCHEDLAB=$bin sh tests/cli/run.sh; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: tests/cli/run.sh"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
