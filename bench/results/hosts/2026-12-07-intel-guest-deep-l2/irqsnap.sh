#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Around one command: the halts of CPUs 0 and 1 (cpuidle state1 usage,
# haltpoll's halt on the development VM) and the local timer (LOC),
# rescheduling (RES) and call-function (CAL) interrupts of both, from
# /proc/interrupts; docs/fidelity.md ("The eleventh measurement").
#
#   ./irqsnap.sh perf bench sched pipe -l 20000
snap(){ echo "$(cat /sys/devices/system/cpu/cpu0/cpuidle/state1/usage) $(cat /sys/devices/system/cpu/cpu1/cpuidle/state1/usage) $(awk '/CAL:/{print $2+$3} /RES:/{print $2+$3} /LOC:/{print $2+$3}' /proc/interrupts | tr '\n' ' ')"; }
a=($(snap)); out=$("$@" 2>&1 | grep -E "usecs/op|Total time" | tr -s ' ' | tr '\n' ' '); b=($(snap))
echo "$out | halts cpu0 $((b[0]-a[0])) cpu1 $((b[1]-a[1])) LOC $((b[2]-a[2])) RES $((b[3]-a[3])) CAL $((b[4]-a[4]))"
