# shellcheck shell=sh
# `schedlab benchmarks` (issue 24): the modelled command lines and their
# options, from the parsers' own tables. Sourced by tests/cli/run.sh.

golden benchmarks-list schedlab benchmarks
golden benchmarks-hackbench schedlab benchmarks hackbench
golden benchmarks-stress-ng schedlab benchmarks stress-ng
golden benchmarks-schbench schedlab benchmarks schbench
golden benchmarks-perf-pipe schedlab benchmarks perf bench sched pipe
# a name of several words, as one argument or as words; an alias
run_cmd schedlab benchmarks 'perf bench sched pipe'
cp "$tmp/out" "$tmp/bm-one"
run_cmd schedlab benchmarks perf bench sched pipe
if cmp -s "$tmp/out" "$tmp/bm-one"; then ok "benchmarks: a name as one argument or as words"; else not_ok "benchmarks: a name as one argument or as words"; fi
run_cmd schedlab benchmarks ./schbench
if grep -q '^schbench: ' "$tmp/out"; then ok "benchmarks: an alias (./schbench)"; else not_ok "benchmarks: an alias (./schbench)"; fi
expect_exit 0 "" schedlab benchmarks --help
expect_exit 2 "benchmarks: unknown benchmark 'nosuch' (see 'schedlab benchmarks')" schedlab benchmarks nosuch
expect_exit 2 "benchmarks: unknown option '--bogus'" schedlab benchmarks --bogus
expect_exit 2 "benchmarks: --names goes alone" schedlab benchmarks --names hackbench
# every name --names gives is described, and the list shows each one
run_cmd schedlab benchmarks --names
names_ok=yes
while IFS= read -r n; do
	"$SCHEDLAB" benchmarks "$n" >"$tmp/bm-one" 2>&1 || names_ok="no: '$n'"
	grep -q "^$n: " "$tmp/bm-one" || names_ok="no: '$n' not described"
	"$SCHEDLAB" benchmarks | grep -q "^$n  " || names_ok="no: '$n' not listed"
done <"$tmp/out"
if [ "$names_ok" = yes ] && [ "$(wc -l <"$tmp/out")" -ge 15 ]; then ok "benchmarks --names: each described and listed"; else not_ok "benchmarks --names" "$names_ok"; fi
# every refused option the listing names is refused by run, with that reason
run_cmd schedlab benchmarks hackbench
expect_exit 2 "hackbench: -w is not an option of rt-tests hackbench 2.10" schedlab run -m smp2 -- hackbench -w
expect_exit 2 "hackbench: -i is not modelled: TCP connections over loopback" schedlab run -m smp2 -- hackbench --inet
expect_exit 2 "perf bench sched pipe: -G is not modelled: cgroups" schedlab run -m smp2 -- perf bench sched pipe -G a,b
expect_exit 2 "perf bench sched pipe: -n is not modelled" schedlab run -m smp2 -- perf bench sched pipe --nonblocking
expect_exit 2 "chrt: -e is not modelled: SCHED_EXT" schedlab run -m smp2 -- chrt -e 0 hackbench
# chrt -d: with -R the children are SCHED_OTHER; without it the tool's first fork() fails (EAGAIN)
golden run-chrt-deadline-reset-on-fork schedlab run -m smp2 -- chrt -d -R -T 1000000 -P 10000000 0 hackbench -g 1 -l 10
expect_exit 1 "hackbench: fork() (error: Resource temporarily unavailable); 0 children started.  Expected 40" \
	schedlab run -m smp2 -- chrt -d -T 1000000 -P 10000000 0 hackbench -g 1 -l 10
expect_exit 1 "hackbench: pthread_create failed() (error: Resource temporarily unavailable)" \
	schedlab run -m smp2 -- chrt -d -T 1000000 -P 10000000 0 hackbench -T -g 1 -l 10
expect_exit 1 "perf: fork(): Resource temporarily unavailable" \
	schedlab run -m smp2 -- chrt -d -T 1000000 -P 10000000 0 perf bench sched messaging -g 1 -l 10
expect_exit 1 "chrt: failed to set pid 0's policy: Device or resource busy" \
	schedlab run -m smp1 -- chrt -d -T 9600000 -P 10000000 0 hackbench
# chrt failed before the exec: hackbench printed nothing
if [ ! -s "$tmp/out" ]; then ok "chrt -d refused: no benchmark output"; else not_ok "chrt -d refused: no benchmark output" "stdout: $(head -1 "$tmp/out")"; fi
# rt-tests' reap_workers(): signal_workers()'s line on stdout before barf()
run_cmd schedlab run -m smp2 -- chrt -d -T 1000000 -P 10000000 0 hackbench -g 1 -l 10
if [ "$(tail -1 "$tmp/out")" = "signaling 0 worker threads to terminate" ] && [ "$(wc -l <"$tmp/out")" -eq 3 ]; then
	ok "hackbench fork failure: its stdout lines"
else
	not_ok "hackbench fork failure: its stdout lines" "$(cat "$tmp/out")"
fi
# a DL task's affinity must cover the root domain: chrt after taskset gets
# EPERM, taskset after chrt EBUSY; a taskset of every CPU is no narrowing
expect_exit 1 "chrt: failed to set pid 0's policy: Operation not permitted" \
	schedlab run -m smp2 -- taskset -c 0 chrt -d -R -T 600000 -P 1000000 0 hackbench -g 1 -l 10
if [ ! -s "$tmp/out" ]; then ok "chrt -d EPERM: no benchmark output"; else not_ok "chrt -d EPERM: no benchmark output"; fi
expect_exit 1 "taskset: failed to set pid 0's affinity: Device or resource busy" \
	schedlab run -m smp2 -- chrt -d -R -T 600000 -P 1000000 0 taskset -c 0 hackbench -g 1 -l 10
expect_exit 0 "" schedlab run -m smp2 -- chrt -d -R -T 600000 -P 1000000 0 taskset -c 0-1 hackbench -g 1 -l 10
expect_exit 0 "" schedlab run -m smp2 -- taskset -c 0 chrt -f 1 hackbench -g 1 -l 10
# fair servers at 0.9 each leave no room for a 0.6 reservation
expect_exit 1 "chrt: failed to set pid 0's policy: Device or resource busy" \
	schedlab run -m smp2 --sysctl fair_server_runtime_ns=900000000 -- chrt -d -R -T 600000 -P 1000000 0 hackbench -g 1 -l 10
# a second chrt -d workload (--also) that no longer fits: its chrt fails
expect_exit 1 "failed at t=1697582 ns: chrt: failed to set pid 0's policy: Device or resource busy" \
	schedlab run -m smp1 --also 'chrt -d -T 600000 -P 1000000 0 stress-ng --cpu 1 -t 1s' -- chrt -d -T 600000 -P 1000000 0 hackbench -g 1 -l 10
# insmod's kthreads are forked by kthreadd: a DL insmod without -R loads the module
expect_exit 0 "" schedlab run -m smp2 -- chrt -d -T 100000 -P 1000000 0 ipistorm timeout=1
# ipistorm.ko's parameters are insmod's NAME=VALUE, and its usage says so
expect_exit 2 "ipistorm: unknown parameter 'foo' (usage: ipistorm [numipi=N] [single=0|1] [offset=K] [cpulist=LIST] [wait=0|1] [delay=US] [timeout=S])" \
	schedlab run -m smp2 -- ipistorm foo=1
expect_exit 2 "chrt: failed to set pid 0's policy: Invalid argument (SCHED_DEADLINE runtime 5000000, deadline 1000000, period 10000000 ns: the runtime is longer than the deadline)" \
	schedlab run -m smp2 -- chrt -d -T 5000000 -D 1000000 -P 10000000 0 hackbench
expect_exit 2 "no period or deadline (-P or -D) was given" schedlab run -m smp2 -- chrt -d -T 1000000 0 hackbench
expect_exit 2 "chrt: --sched-{deadline,period} options are supported for SCHED_DEADLINE only" \
	schedlab run -m smp2 -- chrt -f -P 10000000 1 hackbench
expect_exit 2 "chrt: --sched-runtime option is supported for SCHED_OTHER, SCHED_BATCH and SCHED_DEADLINE" \
	schedlab run -m smp2 -- chrt -f -T 5 1 hackbench
expect_exit 2 "chrt: invalid runtime argument: 'x'" schedlab run -m smp2 -- chrt -d -T x -P 10000000 0 hackbench
expect_exit 2 "chrt: unsupported priority value for the policy: 1: SCHED_DEADLINE takes only 0" \
	schedlab run -m smp2 -- chrt -d -P 10000000 1 hackbench
expect_exit 2 "rt-app: -v is not modelled" schedlab run -m smp2 -- rt-app -v examples/periodic.json
expect_exit 2 "Run: -q is not modelled (-i N, -c N)" schedlab run -m smp2 -- unixbench context1 -q
expect_exit 2 "nice: --version prints nice's version and runs no benchmark" schedlab run -m smp2 -- nice --version
# getopt takes an unambiguous prefix of a long option, as the tools' getopt does
expect_exit 0 "" schedlab run -m smp2 -- hackbench --process -g 1 -l 10
