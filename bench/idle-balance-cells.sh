#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The full idle-balance study (docs/ab-and-studies.md, "idle-balance"), one
# case at a time: each case (machine x workload of `schedlab study --show
# idle-balance`) becomes a study file of its own with every variant, the
# same runs, seeds and options, so its rows are the whole study's rows for
# that case. A case whose .out is there is skipped: the study can be run
# over several sittings with one binary (its output does not depend on the
# host) and its time summed from the .time files.
#
#   sh bench/idle-balance-cells.sh BIN DIR [JOBS]
#
# DIR gets per case NAME.study, NAME.out (the study's table), NAME.json and
# NAME.time (wall and CPU time). NICE=N runs the studies at that niceness.
set -e
if [ $# -lt 2 ]; then
	echo "usage: sh bench/idle-balance-cells.sh BIN DIR [JOBS]" >&2
	exit 2
fi
bin=$1 dir=$2 jobs=${3:-2}
[ -x "$bin" ] || { echo "idle-balance-cells: $bin is not an executable" >&2; exit 2; }
mkdir -p "$dir"
"$bin" study --show idle-balance > "$dir/idle-balance.study"
hdr=$(grep -v '^workload\|^machine\|^quick-' "$dir/idle-balance.study")
for m in $(sed -n 's/^machine //p' "$dir/idle-balance.study"); do
	grep '^workload' "$dir/idle-balance.study" | while read -r _ w; do
		wf=${w##*workfile.}
		case "$w" in
		"taskset -c 0-9,"*) s=1 ;;
		"taskset -c 0-19,"*) s=2 ;;
		"taskset -c 0-39,"*) s=4 ;;
		"taskset"*) echo "idle-balance-cells: unknown socket count: $w" >&2; exit 2 ;;
		*) s=8 ;;
		esac
		name=$m-$wf-${s}s
		[ -s "$dir/$name.out" ] && continue
		{ echo "$hdr"; echo "machine $m"; echo "workload $w"; } > "$dir/$name.study"
		/usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KB max RSS" -o "$dir/$name.time" \
			nice -n "${NICE:-0}" "$bin" study --file "$dir/$name.study" -j "$jobs" \
			--json "$dir/$name.json" > "$dir/$name.out.tmp"
		mv "$dir/$name.out.tmp" "$dir/$name.out"
		echo "idle-balance-cells: $name: $(cat "$dir/$name.time")"
	done
done
