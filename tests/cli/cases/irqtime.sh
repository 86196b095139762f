# shellcheck shell=sh
# IRQ time accounting, --sysctl irqtime (issue 23, docs/pelt.md "IRQ time").
# Sourced by tests/cli/run.sh.

expect_exit 2 "--sysctl irqtime: value must be an integer in 0..1, got '2'" \
	schedlab run -m smp4 --sysctl irqtime=2 -- hackbench -l 5
# the wakeups' IPIs on arm64 WFI (no polling idle): their time out of clock_task, capacity lower
golden irqtime-arm64-hackbench schedlab run -m arm64-2x4 --sysctl irqtime=1 -- hackbench -g 4 -l 200

# off by default: the run is the one irqtime=0 gives, and its JSON has no irq time
run_cmd schedlab run -m altra-80 --json "$tmp/irq-default.json" -- perf bench sched messaging -g 2 -l 50
cp "$tmp/out" "$tmp/irq-default.out"
run_cmd schedlab run -m altra-80 --sysctl irqtime=0 -- perf bench sched messaging -g 2 -l 50
if cmp -s "$tmp/irq-default.out" "$tmp/out" && ! grep -q '"irq_time_ns"' "$tmp/irq-default.json"; then
	ok "irqtime is off by default"
else
	not_ok "irqtime is off by default" "$(diff "$tmp/irq-default.out" "$tmp/out" | head -5)"
fi
# on: each CPU's hard and soft irq time, its avg_irq, and the setting
run_cmd schedlab run -m altra-80 --sysctl irqtime=1 --json "$tmp/irq-on.json" -- perf bench sched messaging -g 2 -l 50
if grep -q '"irq_time_ns": [1-9]' "$tmp/irq-on.json" && grep -q '"softirq_time_ns"' "$tmp/irq-on.json" &&
	grep -q '"irq_util_avg"' "$tmp/irq-on.json" && grep -q '"irqtime": 1' "$tmp/irq-on.json"; then
	ok "irqtime=1 reports the irq time"
else
	not_ok "irqtime=1 reports the irq time" "$(grep -c irq_time_ns "$tmp/irq-on.json")"
fi
