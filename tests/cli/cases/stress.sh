# shellcheck shell=sh
# stress-ng's scheduler stressors (issue 24): --switch, --yield, --pipe,
# --affinity beside --cpu, --sched, and the metrics as stress-ng prints
# them. Sourced by tests/cli/run.sh.

golden run-stress-switch-smp4 schedlab run -m smp4 -- stress-ng --switch 2 --timeout 1 --metrics
golden run-stress-switch-freq-smp2 schedlab run -m smp2 -- stress-ng --switch 1 --switch-freq 2000 --timeout 1 --metrics-brief
golden run-stress-yield-smp4 schedlab run -m smp4 -- stress-ng --yield 3 --timeout 1 --metrics
golden run-stress-pipe-smp4 schedlab run -m smp4 -- stress-ng --pipe 2 --timeout 1 --metrics
golden run-stress-affinity-smp4 schedlab run -m smp4 -- stress-ng --affinity 1 --affinity-procs 4 --timeout 1 --metrics-brief
golden run-stress-mix-sched-smp4 schedlab run -m smp4 -- stress-ng --cpu 2 --switch 1 --sched fifo --timeout 1 --metrics
golden run-stress-nometrics-smp2 schedlab run -m smp2 -- stress-ng --pipe 1 --pipe-ops 1000
same_output stress-mix-twice schedlab run -m smp4 -- stress-ng --yield 1 --affinity 1 --pipe 1 --switch 1 -t 1 --metrics
for c in "--switch 2 --timeout 1" "--yield 2 --yield-sched rr --timeout 1" "--yield 1 --yield-procs 3 --yield-sched idle --timeout 1" \
	"--pipe 1 --pipe-data-size 8 --pipe-readers 2 --pipe-writers 3 --timeout 1" "--pipe 1 --pipe-size 8K --pipe-ops 500" \
	"--affinity 2 --affinity-rand --affinity-sleep 10000 --timeout 1" "--affinity 1 --affinity-delay 50000 --affinity-ops 200" \
	"--switch 1 --switch-ops 3000" "--cpu 1 -l 50 --yield 1 --sched batch --timeout 1"; do
	# shellcheck disable=SC2086
	expect_exit 0 "" schedlab run -m smp4 --check -- stress-ng $c
done
expect_exit 0 "" schedlab run -m smt2-2s-16 --check -- taskset -c 0-3 stress-ng --yield 2 --affinity 1 --timeout 1
expect_exit 0 "" schedlab run -m smp4 --check --also 'stress-ng --switch 2' --also 'stress-ng --yield 1' -- perf bench sched pipe -l 2000

# the budget: --switch-ops N writes exactly, shared by the instances
run_cmd schedlab run -m smp4 --json "$tmp/sw.json" -- stress-ng --switch 3 --switch-ops 3000 --metrics-brief
if grep -q '^stress-ng: metrc: \[1\] switch  *3000 ' "$tmp/out" && grep -q '"bogo_ops": 3000,' "$tmp/sw.json"; then
	ok "stress-ng --switch-ops: 3000 writes, 1000 each"
else
	not_ok "stress-ng --switch-ops" "$(cat "$tmp/out")"
fi
# --switch-freq holds the rate: 2000 writes in 1 s, within 1% (each
# nanosleep ends up to its 50 us of timer slack late, and the delay is
# corrected only every 20 writes)
run_cmd schedlab run -m smp2 -- stress-ng --switch 1 --switch-freq 2000 --timeout 1 --metrics-brief
if grep -Eq '^stress-ng: metrc: \[1\] switch  *(19[89][0-9]|20[01][0-9]|2020) ' "$tmp/out"; then ok "stress-ng --switch-freq 2000: about 2000 writes in 1 s"; else not_ok "stress-ng --switch-freq 2000" "$(grep switch "$tmp/out")"; fi
# the yield stressor's default: two yielders per CPU over the instances (8 on smp4)
run_cmd schedlab run -m smp4 --latency -- stress-ng --yield 3 --timeout 1
if grep -q 'stress-ng-yield:(11)' "$tmp/out"; then ok "stress-ng --yield 3 on 4 CPUs: 3 instances and 8 yielders"; else not_ok "stress-ng --yield 3: yielders" "$(grep yield "$tmp/out")"; fi
# affinity: every bogo op moves the process to another CPU
run_cmd schedlab run -m smp4 --json "$tmp/af.json" -- stress-ng --affinity 1 --affinity-procs 2 --affinity-ops 400
ops=$(sed -n 's/.*"bogo_ops": \([0-9]*\),/\1/p' "$tmp/af.json" | head -1)
mig=$(sed -n 's/^    "nr_migrations": \([0-9]*\),/\1/p' "$tmp/af.json" | head -1)
# (less the processes' first moves, which may find them on that CPU already)
if [ -n "$ops" ] && [ -n "$mig" ] && [ "$mig" -ge $((ops - 2)) ]; then ok "stress-ng --affinity: $mig migrations for $ops moves"; else not_ok "stress-ng --affinity: migrations" "ops '$ops' migrations '$mig'"; fi
# the JSON has every stressor's row
run_cmd schedlab run -m smp2 --json "$tmp/mix.json" -- stress-ng --cpu 1 --pipe 1 -t 1
if grep -q '"stress": {' "$tmp/mix.json" && grep -q '"name": "pipe",' "$tmp/mix.json" &&
	grep -q '"metric": "MB per sec pipe write rate",' "$tmp/mix.json" && grep -q '"metric_value": null' "$tmp/mix.json"; then
	ok "stress-ng --json: the stressors' rows"
else
	not_ok "stress-ng --json: the stressors' rows"
fi
# no --metrics: no table, as stress-ng; -M is --metrics
run_cmd schedlab run -m smp2 -- stress-ng --cpu 1 -t 1
if ! grep -q metrc "$tmp/out" && grep -q '^stress-ng: info:  \[1\] passed: 1: cpu (1)$' "$tmp/out"; then ok "stress-ng without --metrics: no table"; else not_ok "stress-ng without --metrics: no table"; fi
run_cmd schedlab run -m smp2 -- stress-ng --cpu 1 -t 1 -M
if grep -q 'CPU used per' "$tmp/out"; then ok "stress-ng -M: the full table"; else not_ok "stress-ng -M: the full table"; fi

expect_exit 2 "stress-ng: --futex is not modelled yet: needs futexes with timeouts (its waits are FUTEX_WAIT of 5 us and futex_waitv(); issue 22)" \
	schedlab run -m smp2 -- stress-ng --futex 2 -t 1
expect_exit 2 "stress-ng: --yield runs until --timeout" schedlab run -m smp2 -- stress-ng --yield 1 --yield-ops 100
expect_exit 2 "stress-ng: give --timeout or --switch-ops" schedlab run -m smp2 -- stress-ng --switch 1
expect_exit 2 "stress-ng: --switch-ops after --cpu would set the cpu stressor's budget in stress-ng" \
	schedlab run -m smp2 -- stress-ng --switch 1 --cpu 1 --switch-ops 10
expect_exit 2 "stress-ng: --pipe-ops before --pipe is ignored by stress-ng" schedlab run -m smp2 -- stress-ng --pipe-ops 10 --pipe 1
expect_exit 2 "stress-ng: --cpu given twice" schedlab run -m smp2 -- stress-ng --cpu 1 --cpu 2 -t 1
expect_exit 2 "stress-ng: --switch-freq without --switch: stress-ng ignores it" schedlab run -m smp2 -- stress-ng --cpu 1 --switch-freq 10 -t 1
expect_exit 2 "stress-ng: --switch-method mq is not modelled: POSIX message queues (only pipe)" \
	schedlab run -m smp2 -- stress-ng --switch 1 --switch-method mq -t 1
# --sched deadline: stress_set_sched()'s 90000/100000 ns each; the third instance on smp2 is refused (EBUSY)
golden run-stress-deadline-smp2 schedlab run -m smp2 -- stress-ng --cpu 3 --sched deadline --timeout 1 --metrics-brief
golden run-stress-deadline-params-smp2 schedlab run -m smp2 -- stress-ng --cpu 2 --sched deadline \
	--sched-deadline 10000000 --sched-runtime 2000000 --sched-period 20000000 --sched-reclaim --timeout 1 --metrics-brief
expect_exit 2 "stress-ng: --yield-sched deadline is not modelled: SCHED_DEADLINE" schedlab run -m smp2 -- stress-ng --yield 1 --yield-sched deadline -t 1
expect_exit 2 "stress-ng: --sched-runtime needs an integer" schedlab run -m smp2 -- stress-ng --cpu 1 --sched deadline --sched-runtime -5 -t 1
expect_exit 2 "stress-ng: --affinity with --sched deadline is not modelled" schedlab run -m smp2 -- stress-ng --affinity 1 --sched deadline -t 1
# instances on one CPU: sched_setattr() refuses SCHED_DEADLINE (EPERM) and they run as SCHED_OTHER
run_cmd schedlab run -m smp2 -- taskset -c 0 stress-ng --cpu 2 --sched deadline -t 1s
if [ "$status" -eq 0 ] && [ "$(grep -c "cannot set scheduler 'deadline', errno=1 (Operation not permitted)" "$tmp/out")" -eq 2 ]; then
	ok "stress-ng --sched deadline under taskset -c 0: EPERM per instance"
else
	not_ok "stress-ng --sched deadline under taskset -c 0: EPERM per instance" "status $status"
fi
expect_exit 2 "stress-ng: --yield-sched ext is not modelled: SCHED_EXT" schedlab run -m smp2 -- stress-ng --yield 1 --yield-sched ext -t 1
expect_exit 2 "stress-ng: invalid sched option: rt" schedlab run -m smp2 -- stress-ng --cpu 1 --sched rt -t 1
expect_exit 2 "stress-ng: --sched-prio needs an integer in 1..99, got '0'" schedlab run -m smp2 -- stress-ng --cpu 1 --sched fifo --sched-prio 0 -t 1
expect_exit 2 "stress-ng: --pipe-data-size needs a size of 8 to 4096 bytes" schedlab run -m smp2 -- stress-ng --pipe 1 --pipe-data-size 8K -t 1
expect_exit 2 "stress-ng: --pipe-size needs a size of 4096 to 1048576 bytes" schedlab run -m smp2 -- stress-ng --pipe 1 --pipe-size 2M -t 1
expect_exit 2 "stress-ng: --pipe-vmsplice is not modelled: vmsplice()" schedlab run -m smp2 -- stress-ng --pipe 1 --pipe-vmsplice -t 1
expect_exit 2 "stress-ng: --affinity-pin is not modelled" schedlab run -m smp2 -- stress-ng --affinity 1 --affinity-pin -t 1
expect_exit 2 "stress-ng: --affinity-procs needs an integer in 2..1024, got '1'" schedlab run -m smp2 -- stress-ng --affinity 1 --affinity-procs 1 -t 1
expect_exit 2 "stress-ng: option '--cpu' needs a value" schedlab run -m smp2 -- stress-ng --cpu
