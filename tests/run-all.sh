#!/bin/sh
# Runs every cmocka unit test binary, the CLI/golden tests, `make install`
# into a scratch DESTDIR (tests/install/check.sh) and the layer boundary
# check, then prints one summary line "N passed, M failed".
# usage: tests/run-all.sh ./schedlab build/tests/test_a build/tests/test_b ...
# (BUILD, CC and LDFLAGS, as `make check` sets them, tell the layer check
# which objects to link and how; FUZZ_IN_CHECK=yes adds `$MAKE fuzz-regress`,
# the fuzz targets' corpus and regression inputs replayed, when FUZZ_CC can
# build libFuzzer targets; DOC_CHECK_IN_CHECK=yes adds scripts/doc-check.sh,
# every example of README.md and docs/ run and compared, docs/doc-check.md)
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
echo "== sweep tests"
if sh tests/sweep/run.sh "$bin"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: tests/sweep/run.sh"; fi
echo "== make install and uninstall"
if sh tests/install/check.sh; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: tests/install/check.sh"; fi
echo "== layer boundaries"
if sh tests/layers/check.sh; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: tests/layers/check.sh"; fi
if [ "${DOC_CHECK_IN_CHECK:-no}" = yes ]; then
	echo "== documentation examples (scripts/doc-check.sh)"
	if sh scripts/doc-check.sh -b "$bin"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: scripts/doc-check.sh (sh scripts/doc-check.sh --update rewrites the outputs; read the diff)"; fi
fi
if [ "${FUZZ_IN_CHECK:-no}" = yes ]; then
	echo "== fuzz regressions"
	if ! FUZZ_CC=${FUZZ_CC:-clang} sh tests/fuzz/run.sh probe; then
		echo "skipped: clang not installed (or no libFuzzer runtime: sh scripts/deps.sh)"
	elif ${MAKE:-make} --no-print-directory fuzz-regress; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAILED: make fuzz-regress"
	fi
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
