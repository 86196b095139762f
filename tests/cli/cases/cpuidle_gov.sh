# shellcheck shell=sh
# --cpuidle: the menu and teo idle governors as v6.18 has them, beside
# schedlab's own avg (issue 21). Sourced by tests/cli/run.sh.

expect_exit 2 "--cpuidle 'ladder': unknown idle governor (menu, the default, teo, or avg, schedlab's own" \
	schedlab run -m smt2-2s-16 --cpuidle ladder -- hackbench -l 5
expect_exit 2 "--cpuidle 'ladder': unknown idle governor" \
	schedlab ab -m smt2-2s-16 --cpuidle ladder --test NO_TTWU_QUEUE -- hackbench -l 5

# ticks JSON: the run's sched.nr_ticks
ticks() { awk '$1 == "\"nr_ticks\":" { sub(/,/, "", $2); print $2; exit }' "$1"; }
# schbench under each governor, invariants checked after every event
for gov in avg menu teo; do
	expect_exit 0 "" schedlab run -m smt2-2s-16 --check --cpuidle "$gov" --json "$tmp/gov-$gov.json" \
		-- schbench -m 2 -t 4 -r 1
	mv "$tmp/out" "$tmp/gov-$gov.out"
done
if cmp -s "$tmp/gov-avg.out" "$tmp/gov-menu.out" || cmp -s "$tmp/gov-avg.out" "$tmp/gov-teo.out" ||
	cmp -s "$tmp/gov-menu.out" "$tmp/gov-teo.out"; then
	not_ok "--cpuidle: avg, menu and teo give three different schbench runs"
else
	ok "--cpuidle: avg, menu and teo give three different schbench runs"
fi
# menu keeps the tick for short predicted idle periods: idle CPUs take ticks that avg never does
t_avg=$(ticks "$tmp/gov-avg.json")
t_menu=$(ticks "$tmp/gov-menu.json")
if [ -n "$t_avg" ] && [ -n "$t_menu" ] && [ "$t_menu" -gt "$t_avg" ]; then
	ok "--cpuidle menu: the kept tick ticks in idle ($t_avg -> $t_menu ticks)"
else
	not_ok "--cpuidle menu: the kept tick" "avg '$t_avg' ticks, menu '$t_menu'"
fi
same_output cpuidle-menu-twice schedlab run -m smt2-2s-16 --cpuidle menu -- hackbench -g 1 -l 20
# a finished run ends although idle CPUs keep their ticks
expect_exit 0 "" schedlab run -m smp2 --check --cpuidle teo -- perf bench sched pipe -l 2000
