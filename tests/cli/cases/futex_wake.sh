# shellcheck shell=sh
# perf bench futex wake, hash, requeue, wake-parallel and lock-pi (docs/benchmarks.md): the options they
# refuse, -b's values, and the repeat count of perf bench itself. Sourced
# by tests/cli/run.sh.
expect_exit 2 "perf bench futex wake: --buckets needs an integer, got '16x'" \
	schedlab run -m smp4 -- perf bench futex wake -b 16x
expect_exit 2 "perf bench futex hash: --buckets 3: Requesting 3 hash buckets failed" \
	schedlab run -m smp4 -- perf bench futex hash -b 3
expect_exit 2 "perf bench futex wake: --buckets 1: Requesting 1 hash buckets failed" \
	schedlab run -m smp4 -- perf bench futex wake -b 1
expect_exit 2 "perf bench futex hash: --futexes needs an integer in 1..1048576, got '0'" \
	schedlab run -m smp4 -- perf bench futex hash -f 0
expect_exit 2 "perf bench futex hash: bad or incomplete option '-w'" \
	schedlab run -m smp4 -- perf bench futex hash -w 2
expect_exit 2 "perf bench futex: 'lock-pi2' is not modelled" \
	schedlab run -m smp4 -- perf bench futex lock-pi2
expect_exit 2 "perf bench futex lock-pi: bad or incomplete option '-w'" \
	schedlab run -m smp4 -- perf bench futex lock-pi -w 2
expect_exit 2 "perf bench futex lock-pi: --runtime needs an integer in 0..86400, got '-1'" \
	schedlab run -m smp4 -- perf bench futex lock-pi -r -1
expect_exit 2 "perf bench futex lock-pi: --buckets 3: Requesting 3 hash buckets failed" \
	schedlab run -m smp4 -- perf bench futex lock-pi -b 3
same_output futex-lock-pi-determinism \
	schedlab run -m smp4 --seed 5 --check -- perf bench futex lock-pi -r 1 -t 6
# requeue: PI is not modelled, -q 0 would never end, wake's -w is no option of it
# requeue -p: every thread is woken or requeued to the PI futex, and each gets it in turn
same_output futex-requeue-pi-determinism \
	schedlab run -m smp4 --seed 2 --check -- perf bench -r 2 futex requeue --pi -t 6 -q 2
expect_exit 2 "perf bench futex requeue: --nrequeue 0 requeues nobody" \
	schedlab run -m smp4 -- perf bench futex requeue -q 0
expect_exit 2 "perf bench futex requeue: --nrequeue needs an integer in 0..8192, got 'x'" \
	schedlab run -m smp4 -- perf bench futex requeue -q x
expect_exit 2 "perf bench futex requeue: bad or incomplete option '-w'" \
	schedlab run -m smp4 -- perf bench futex requeue -w 2
expect_exit 2 "perf bench futex requeue: --buckets 6: Requesting 6 hash buckets failed" \
	schedlab run -m smp4 -- perf bench futex requeue -b 6
# -q 0 with -B requeues all at once; -q above the threads is clamped to them
expect_exit 0 "" schedlab run -m smp4 -- perf bench -r 1 futex requeue -q 0 -B -m
same_output futex-requeue-clamped \
	schedlab run -m smp4 --seed 3 -- perf bench -r 2 futex requeue -t 6 -q 100
expect_exit 2 "perf bench: --repeat needs an integer in 1..10000, got '0'" \
	schedlab run -m smp4 -- perf bench -r 0 futex wake
expect_exit 2 "perf bench -r: only with 'futex wake', 'futex hash', 'futex requeue', 'futex wake-parallel' or 'futex lock-pi'" \
	schedlab run -m smp4 -- perf bench -r 2 sched pipe
expect_exit 0 "" schedlab run -m smp4 -- perf bench --repeat=2 futex wake -t 4 -S -m
# a negative -b is perf's "not given"
expect_exit 0 "" schedlab run -m smp4 -- perf bench futex hash -r 0 -f 1 -b -1
same_output futex-hash-determinism \
	schedlab run -m smp4 --seed 7 -- perf bench futex hash -r 1 -t 6 -f 8 -b 4
# every thread is woken in every run, one at a time or several
for w in 1 3 8; do
	out=$("$SCHEDLAB" run -m smp4 -- perf bench -r 2 futex wake -t 8 -w "$w" 2>&1)
	if printf '%s\n' "$out" | grep -q '^Wokeup 8 of 8 threads in '; then
		ok "futex wake -w $w wakes all 8 threads"
	else
		not_ok "futex wake -w $w" "$out"
	fi
done
# every thread is requeued in every run, and all are woken from futex2 (the run ends)
for q in 1 3 8; do
	out=$("$SCHEDLAB" run -m smp4 --check -- perf bench -r 2 futex requeue -t 8 -q "$q" 2>&1)
	if printf '%s\n' "$out" | grep -q '^Requeued 8 of 8 threads in '; then
		ok "futex requeue -q $q requeues all 8 threads"
	else
		not_ok "futex requeue -q $q" "$out"
	fi
done
# wake-parallel: the blocked threads divide over the waking ones (the default
# thread count is the machine's), its -w is --nwakers, requeue's -q no option of it
expect_exit 2 "perf bench futex wake-parallel: Must be perfectly divisible: 8 threads over 3 waking threads" \
	schedlab run -m smp4 -- perf bench futex wake-parallel -t 8 -w 3
expect_exit 2 "perf bench futex wake-parallel: Must be perfectly divisible: 4 threads over 3 waking threads" \
	schedlab run -m smp4 -- perf bench futex wake-parallel -w 3
expect_exit 2 "perf bench futex wake-parallel: --nwakers needs an integer in 0..8192, got '-1'" \
	schedlab run -m smp4 -- perf bench futex wake-parallel -w -1
expect_exit 2 "perf bench futex wake-parallel: bad or incomplete option '-q'" \
	schedlab run -m smp4 -- perf bench futex wake-parallel -q 2
# -w 0 and -w above the threads: one waking thread per blocked one
for w in 0 1 4 100; do
	out=$("$SCHEDLAB" run -m smp4 --check -- perf bench -r 2 futex wake-parallel -w "$w" 2>&1)
	case $w in 1) want='(waking 4/4 threads)' ;; *) want='(waking 1/4 threads)' ;; esac
	if printf '%s\n' "$out" | grep -q "^Avg per-thread latency $want in "; then
		ok "futex wake-parallel -w $w"
	else
		not_ok "futex wake-parallel -w $w" "$out"
	fi
done
