#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Classify each idle entry of a tick-trace.sh trace: did the tick stop
(timer:tick_stop since the CPU last ran a task, and a TSC-deadline MSR
0x6e0 write outside an interrupt), and if not, which timer-wheel timer on
that CPU was due within a jiffy (tick_nohz_next_event() keeps the tick
for it). Usage: tick-classify.py TRACE [HZ]"""
import collections
import re
import sys

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+):\s+(\w+):\s*(.*)$')
hz = int(sys.argv[2]) if len(sys.argv) > 2 else 250
jiffy = 1.0 / hz
timers = {}  # wheel timer -> (cpu, expiry in jiffies, function)
jiffies = None  # (jiffies, timestamp) from the last expiry seen
since_task = collections.defaultdict(list)  # events of the idle task since a task ran
kinds = collections.Counter()
for line in open(sys.argv[1]):
    m = LINE.match(line)
    if not m:
        continue
    comm, pid, cpu, flags, ts, name, rest = m.groups()
    cpu, pid, ts = int(cpu), int(pid), float(ts)
    if name == 'timer_start':
        t = re.search(r'timer=(\S+) function=(\S+) expires=(\d+).*cpu=(\d+)', rest)
        timers[t.group(1)] = (int(t.group(4)), int(t.group(3)), t.group(2))
    elif name == 'timer_cancel':
        timers.pop(re.search(r'timer=(\S+)', rest).group(1), None)
    elif name == 'timer_expire_entry':
        t = re.search(r'timer=(\S+).*now=(\d+)', rest)
        timers.pop(t.group(1), None)
        jiffies = (int(t.group(2)), ts)
    if pid != 0:
        since_task[cpu] = []
        continue
    since_task[cpu].append((name, flags, rest))
    if name != 'cpu_idle' or not rest.startswith('state=1 '):
        continue
    ev = since_task[cpu]
    stopped = any(e[0] == 'tick_stop' for e in ev)
    msr = any(e[0] == 'write_msr' and e[2].startswith('6e0') and 'h' not in e[1] for e in ev)
    due = None
    if jiffies:
        now = jiffies[0] + int((ts - jiffies[1]) / jiffy)
        near = [f for (c, e, f) in timers.values() if c == cpu and e - now <= 1]
        due = near[0] if near else None
    kinds[(stopped, msr, due)] += 1
    since_task[cpu] = []
print('idle entries:', sum(kinds.values()))
print('tick_stop  deadline_write  wheel_timer_due_within_a_jiffy  entries')
for (stopped, msr, due), n in sorted(kinds.items(), key=lambda x: -x[1]):
    print(f'{str(stopped):9}  {str(msr):14}  {str(due):30}  {n}')
