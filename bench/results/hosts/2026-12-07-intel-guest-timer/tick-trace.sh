#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Trace an unpinned `perf bench sched pipe` with the timer, idle and MSR
# events (as root, tracefs at /sys/kernel/tracing), for tick-classify.py:
#   sh tick-trace.sh [LOOPS] > trace.txt && python3 tick-classify.py trace.txt 250
T=/sys/kernel/tracing
EVENTS="timer/hrtimer_start timer/hrtimer_cancel timer/hrtimer_expire_entry timer/tick_stop
timer/timer_start timer/timer_cancel timer/timer_expire_entry power/cpu_idle msr/write_msr
sched/sched_switch sched/sched_wakeup"
echo 0 > $T/tracing_on
echo > $T/trace
echo 20000 > $T/buffer_size_kb
for e in $EVENTS; do echo 1 > $T/events/$e/enable; done
echo 1 > $T/tracing_on
perf bench sched pipe -l "${1:-3000}" > /dev/null
echo 0 > $T/tracing_on
cat $T/trace
for e in $EVENTS; do echo 0 > $T/events/$e/enable; done
