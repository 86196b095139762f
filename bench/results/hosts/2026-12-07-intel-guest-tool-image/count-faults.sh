#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A benchmark tool's workers' minor faults, split at exit(): what
# src/work/tool_image.c holds. Every fault of one run is sampled
# (perf record -c 1); a worker's faults up to its first sample in exit()
# or __run_exit_handlers() are its start's, the rest its exit's.
#
#   sh count-faults.sh perf bench sched messaging -p -g 1 -l 1
#   sh count-faults.sh hackbench -g 1 -l 1
#   sh count-faults.sh perf bench sched pipe -l 1
set -e
data=$(mktemp)
perf record -q -e minor-faults -c 1 -g -o "$data" -- "$@" >/dev/null 2>&1
perf script -i "$data" -F pid,ip,sym -G 2>/dev/null | awk '
	NR == 1 { parent = $1 }
	$1 != parent {
		if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 }
		if ($3 == "exit" || $3 == "__run_exit_handlers") ex[$1] = 1
		if (ex[$1]) after[$1]++; else before[$1]++
	}
	END {
		print "worker  before-exit  in-exit"
		for (i = 0; i < n; i++) printf "%6s %12d %8d\n", order[i], before[order[i]], after[order[i]]
	}'
rm -f "$data"
