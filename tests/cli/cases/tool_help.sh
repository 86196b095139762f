# shellcheck shell=sh
# `schedlab run -- TOOL --help` (issue 24): the tool's own usage, on the
# stream it uses, with its exit status, then schedlab's one-line note on
# stderr. Sourced by tests/cli/run.sh.

# tool_usage NAME STATUS CMD...: stdout equals tests/golden/NAME.out and
# stderr tests/golden/NAME.err (UPDATE_GOLDEN=1 rewrites them), the exit
# status is STATUS
tool_usage() {
	name=$1 want=$2
	shift 2
	run_cmd "$@"
	if [ "$status" -ne "$want" ]; then
		not_ok "$name" "'$*' exited with status $status, want $want"
		show_stderr
		return
	fi
	for s in out err; do
		f=$golden_dir/$name.$s
		if [ -n "$UPDATE_GOLDEN" ] && [ "$UPDATE_GOLDEN" != 0 ]; then
			cmp -s "$tmp/$s" "$f" 2>/dev/null || { cp "$tmp/$s" "$f" && echo "updated $f"; }
		elif ! cmp -s "$f" "$tmp/$s"; then
			not_ok "$name" "'$*': std$s differs from $f:"
			diff -u "$f" "$tmp/$s" | sed 's/^/       /'
			return
		fi
	done
	ok "$name"
}

tool_usage help-hackbench 0 schedlab run -m smp2 -- hackbench --help
tool_usage help-perf-messaging 129 schedlab run -m smp2 -- perf bench sched messaging --help
tool_usage help-perf-pipe 129 schedlab run -m smp2 -- perf bench sched pipe -h
tool_usage help-perf-futex-wake-parallel 129 schedlab run -m smp2 -- perf bench futex wake-parallel --help
tool_usage help-perf-futex-requeue 129 schedlab run -m smp2 -- perf bench futex requeue -h
tool_usage help-perf-futex-wake 129 schedlab run -m smp2 -- perf bench futex wake -h
tool_usage help-perf-futex-hash 129 schedlab run -m smp2 -- perf bench futex hash --help
tool_usage help-perf-futex-lock-pi 129 schedlab run -m smp2 -- perf bench futex lock-pi -h
# perf: with arguments after -h, only the options they name (option__in_argv())
tool_usage help-perf-messaging-filtered 129 schedlab run -m smp2 -- perf bench sched messaging -h -g loops
tool_usage help-schbench 1 schedlab run -m smp2 -- schbench --help
tool_usage help-schbench-2016 1 schedlab run -m smp2 -- schbench-2016 --help
tool_usage help-rt-app 0 schedlab run -m smp2 -- rt-app --help
tool_usage help-reaim 1 schedlab run -m smp2 -- reaim -h
tool_usage help-stress-ng 0 schedlab run -m smp2 -- stress-ng --help
tool_usage help-taskset 0 schedlab run -m smp2 -- taskset --help
tool_usage help-chrt 0 schedlab run -m smp2 -- chrt --help
tool_usage help-nice 0 schedlab run -m smp2 -- nice --help
tool_usage help-jankbench 0 schedlab run -m pixel6 -- jankbench -h
# behind prefixes and perf stat: still the tool's usage
tool_usage help-hackbench 0 schedlab run -m smp2 -- taskset -c 0 nice -n 3 hackbench --help
tool_usage help-hackbench 0 schedlab run -m smp2 -- perf stat -r 2 -- hackbench -h
# a help option after an error is not reached, as in the tool
expect_exit 2 "hackbench: --groups needs an integer" schedlab run -m smp2 -- hackbench -g x --help
# the commands that only compare runs say so, in one line
expect_exit 2 "hackbench: --help prints the tool's usage and runs no benchmark ('schedlab run -- hackbench --help' shows it)" \
	schedlab ab -m smp2 --runs 2 --test NO_TTWU_QUEUE -- hackbench --help
expect_exit 2 "--also 'hackbench --help': hackbench: --help prints the tool's usage: not in a background workload" \
	schedlab run -m smp2 --also 'hackbench --help' -- perf bench sched pipe -l 10
