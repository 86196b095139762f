#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build bench/measure-costs.c (standalone, never linked into schedlab) and
# run it on this host: the kernel-path costs that src/sim/cost.c models.
#
#   sh bench/measure-costs.sh [-q]      -q: a quick smoke run (fewer iterations)
#
# The binary goes to $OUT (default bench/out/, which git ignores); the table
# is printed on stdout and also saved as $OUT/measure-costs-<date>.txt.
# Exits non-zero if the build or any measurement fails.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$here/out}
CC=${CC:-gcc}
mkdir -p "$OUT"

$CC -std=gnu17 -O2 -Wall -Wextra -Werror -pthread \
	-o "$OUT/measure-costs" "$here/measure-costs.c"

log="$OUT/measure-costs-$(date -u +%Y%m%d).txt"
tmp="$log.tmp"
{
	echo "# measure-costs $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "# kernel: $(uname -srm)"
	if grep -qw hypervisor /proc/cpuinfo 2>/dev/null; then
		echo "# virtual machine (hypervisor flag set in /proc/cpuinfo)"
	fi
	if [ -r /sys/devices/system/cpu/cpuidle/current_driver ]; then
		echo "# cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver)"
	fi
} >"$tmp"
# the header goes to both; the program's own output after it
cat "$tmp"
if ! "$OUT/measure-costs" "$@" >>"$tmp"; then
	echo "measure-costs.sh: measurement failed" >&2
	rm -f "$tmp"
	exit 1
fi
# cross-check (b) with the real benchmark, when perf is installed
if command -v perf >/dev/null 2>&1 && command -v taskset >/dev/null 2>&1; then
	for flag in "" -T; do
		what="taskset -c 0 perf bench sched pipe${flag:+ $flag} -l 200000"
		name=perf.sched.pipe.same_cpu${flag:+.threads}
		$what 2>/dev/null | awk -v name="$name" -v what="$what" '
			/usecs\/op/ { printf "%-32s %10.1f %10s %10s  %-13s %s\n", name, $1 * 1000,
				       "-", "-", "ns/roundtrip", what }' >>"$tmp"
	done
fi
sed -n '/^# host/,$p' "$tmp"
mv "$tmp" "$log"
echo "# saved to $log" >&2
