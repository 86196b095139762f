# shellcheck shell=sh
# Messages that must say what is true (issue 18): sourced by tests/cli/run.sh.

# perf stat repeats the whole run, so it must be outermost; a prefix in front
# of it once got "only 'perf bench sched ...' are modelled"
expect_exit 2 "perf stat: only as the outermost command of run" \
	schedlab run -m smp4 -- nice -n 5 perf stat -- hackbench -g 1 -l 10
expect_exit 2 "write 'perf stat [OPTIONS] -- nice|chrt|taskset ... COMMAND'" \
	schedlab run -m smp4 -- taskset -c 0 perf stat -r 2 -- hackbench -g 1 -l 10
expect_exit 0 "" schedlab run -m smp4 -- perf stat -r 2 -- nice -n 5 hackbench -g 1 -l 10
# perf sched record likewise records the whole run
expect_exit 2 "perf sched record: only as the outermost command of run" \
	schedlab run -m smp4 -- nice -n 5 perf sched record -- hackbench -g 1 -l 10
expect_exit 2 "--also 'perf sched record -- hackbench': perf sched record: only as the outermost" \
	schedlab run -m smp4 --also 'perf sched record -- hackbench' -- hackbench -g 1 -l 10
# ITMT's sysctl exists only on an ITMT machine (its machine file says so)
expect_exit 2 "--sysctl sched_itmt_enabled: smp4 has no ITMT (its machine file's [asym_packing] does not say itmt = yes)" \
	schedlab run -m smp4 --sysctl sched_itmt_enabled=0 -- hackbench -g 1 -l 10
expect_exit 0 "" schedlab run -m alderlake-i9-12900k --sysctl sched_itmt_enabled=0 -- hackbench -g 1 -l 10
