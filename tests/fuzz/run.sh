#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs the libFuzzer targets built by `make fuzz-build` (docs/reliability.md).
#
#   sh tests/fuzz/run.sh probe                  0 if $FUZZ_CC (clang) can build a
#                                               libFuzzer target with ASan + UBSan
#   sh tests/fuzz/run.sh fuzz BUILD SECONDS     fuzz each target for SECONDS, starting
#                                               from tests/fuzz/corpus/NAME and
#                                               tests/fuzz/regress/NAME; new inputs go
#                                               to BUILD/fuzz/corpus/NAME, findings to
#                                               BUILD/fuzz/artifacts/NAME/
#   sh tests/fuzz/run.sh regress BUILD          run every input of those two directories
#                                               once through its target
#
# Exits non-zero when any target fails (a crash, a sanitizer report, a leak,
# a timeout) and names the target and the input.
mode=$1
build=$2
secs=${3:-60}
here=tests/fuzz

if [ "$mode" = probe ]; then
	tmp=$(mktemp -d) || exit 1
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$tmp/p.c"
	"${FUZZ_CC:-clang}" -fsanitize=fuzzer,address,undefined "$tmp/p.c" -o "$tmp/p" >/dev/null 2>&1
	rc=$?
	rm -rf "$tmp"
	exit $rc
fi

fail=0
for src in "$here"/fuzz_*.c; do
	target=$(basename "$src" .c)
	name=${target#fuzz_}
	bin=$build/fuzz/$target
	if [ ! -x "$bin" ]; then
		echo "$target: $bin not built (make fuzz-build)"
		fail=1
		continue
	fi
	dirs=
	for d in "$here/corpus/$name" "$here/regress/$name"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	case $mode in
	fuzz)
		work=$build/fuzz/corpus/$name
		art=$build/fuzz/artifacts/$name
		log=$build/fuzz/$name.log
		mkdir -p "$work" "$art"
		dict=
		[ -f "$here/$name.dict" ] && dict=-dict=$here/$name.dict
		start=$(date +%s)
		# -timeout: a single input taking 10 s is a finding (a hang)
		# shellcheck disable=SC2086
		if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$art/" $dict "$work" $dirs >"$log" 2>&1; then
			runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
			cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
			echo "$target: ok, $runs inputs in $(($(date +%s) - start)) s, coverage $cov"
		else
			echo "$target: FINDING (log: $log)"
			grep -E 'ERROR|SUMMARY|runtime error|Test unit written|Deadly signal|timeout' "$log" | head -20
			for a in "$art"/*; do
				[ -f "$a" ] || continue
				echo "--- input $a:"
				od -c "$a" | head -20
			done
			fail=1
		fi
		;;
	regress)
		# every file, dot files (.gitkeep) aside; each runs once
		files=$(find $dirs -type f ! -name '.*' 2>/dev/null | sort)
		if [ -z "$files" ]; then
			echo "$target: no inputs"
			continue
		fi
		n=$(echo "$files" | wc -l)
		log=$build/fuzz/$name.regress.log
		mkdir -p "$build/fuzz"
		# shellcheck disable=SC2086
		if "$bin" -timeout=10 -rss_limit_mb=2048 $files >"$log" 2>&1; then
			echo "$target: $n inputs replayed, ok"
		else
			echo "$target: FAILED replaying $n inputs (log: $log)"
			grep -E 'Running:|ERROR|SUMMARY|runtime error' "$log" | tail -20
			fail=1
		fi
		;;
	*)
		echo "usage: $0 probe | fuzz BUILD SECONDS | regress BUILD" >&2
		exit 2
		;;
	esac
done
exit $fail
