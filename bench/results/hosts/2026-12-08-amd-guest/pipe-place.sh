#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run as root with tracefs at /sys/kernel/tracing (docs/fidelity.md, the thirteenth measurement).
# where the two tasks of an unpinned perf bench sched pipe run: sched_switch lines per task and CPU
T=/sys/kernel/tracing
for mode in "" "-T"; do
	echo 0 > $T/tracing_on; echo > $T/trace
	echo 'sched:sched_switch sched:sched_migrate_task' > $T/set_event
	echo 16384 > $T/buffer_size_kb
	echo 1 > $T/tracing_on
	out=$(perf bench sched pipe $mode -l 20000 2>&1 | grep usecs)
	echo 0 > $T/tracing_on
	echo "mode '$mode': $out"
	grep -E 'sched-pipe|sched_migrate' $T/trace | grep sched_switch | awk '{print $2, $1}' | sort | uniq -c | sort -rn | head -6
	echo "  migrations: $(grep -c 'sched_migrate_task: comm=sched-pipe' $T/trace)"
done
echo > $T/set_event; echo > $T/trace; echo 1408 > $T/buffer_size_kb
