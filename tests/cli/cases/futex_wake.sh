# shellcheck shell=sh
# perf bench futex wake (docs/benchmarks.md): the options it refuses and the
# repeat count of perf bench itself. Sourced by tests/cli/run.sh.
expect_exit 2 "perf bench futex wake: -b is not modelled yet: the futex hash" \
	schedlab run -m smp4 -- perf bench futex wake -b 16
expect_exit 2 "perf bench futex: 'hash' is not modelled" \
	schedlab run -m smp4 -- perf bench futex hash
expect_exit 2 "perf bench: --repeat needs an integer in 1..10000, got '0'" \
	schedlab run -m smp4 -- perf bench -r 0 futex wake
expect_exit 2 "perf bench -r: only with 'futex wake'" \
	schedlab run -m smp4 -- perf bench -r 2 sched pipe
expect_exit 0 "" schedlab run -m smp4 -- perf bench --repeat=2 futex wake -t 4 -S -m
# every thread is woken in every run, one at a time or several
for w in 1 3 8; do
	out=$("$SCHEDLAB" run -m smp4 -- perf bench -r 2 futex wake -t 8 -w "$w" 2>&1)
	if printf '%s\n' "$out" | grep -q '^Wokeup 8 of 8 threads in '; then
		ok "futex wake -w $w wakes all 8 threads"
	else
		not_ok "futex wake -w $w" "$out"
	fi
done
