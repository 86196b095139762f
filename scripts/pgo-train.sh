#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The training runs of the profile-guided build (scripts/pgo-build.sh):
# short simulations that take the paths the tracked workloads of
# bench/speed.sh take (the event queue, the line model, the wakeup, switch,
# tick, idle and balance paths, the workload interpreter) on machines of
# every kind of topology the presets have. What they print is thrown away;
# a failing run fails the build, so a broken instrumented binary is caught.
#   sh scripts/pgo-train.sh BUILD/pgo/schedlab
set -e
b=$1
run() {
	"$b" run "$@" >/dev/null
}
run -m smp2 -- perf bench sched pipe -l 200000
run -m smp2 -- perf bench sched pipe -T -l 50000
run -m xeon-8269cy-2s -- hackbench -g 10 -l 300
run -m xeon-8269cy-2s -- hackbench -g 100 -l 10
run -m xeon-8269cy-2s -- hackbench -g 4 -l 100 -T
run -m epyc-milan-2s-256 -- hackbench -g 10 -l 100
run -m xeon-8269cy-2s -- perf bench sched messaging -t -g 2 -l 100
run -m power10-96 -- stress-ng --cpu 96 --timeout 10
run -m xeon-8269cy-2s -- schbench -m 2 -t 8 -r 10
run -m pixel6 --cpufreq schedutil -- hackbench -g 2 -l 100
run -m westmere-ex-8s-80-noht -- hackbench -g 8 -l 50
