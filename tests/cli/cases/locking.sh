# shellcheck shell=sh
# Sleeping locks (docs/locking.md, issue 22): the contention view and the
# lock tracepoints (and sched_pi_setprio). A benchmark without kernel locks (hackbench) gets
# the empty table and a line saying so, no "locks" in the JSON and no
# contention lines; reaim takes them. Sourced by tests/cli/run.sh.

golden lock-stat-none schedlab run -m smp2 --lock-stat -- hackbench -g 1 -l 10
run_cmd schedlab run -m smp2 --json "$tmp/lk.json" --trace "$tmp/lk.trace" --trace-events lock -- hackbench -g 1 -l 10
if [ "$status" -eq 0 ] && ! grep -q '"locks"' "$tmp/lk.json" && grep -q '"contention_begin": 0' "$tmp/lk.json"; then
	ok "locking: no locks in the JSON of a lock-free run, contention events counted"
else
	not_ok "locking: no locks in the JSON of a lock-free run, contention events counted"
fi
expect_exit 2 "--trace-events: unknown event 'contention'" schedlab run -m smp2 --trace "$tmp/lk2.trace" --trace-events contention -- hackbench -g 1 -l 10

# reaim takes the kernel's locks (work/reaim_kernel.c): a fork-heavy mix
# contends on the driver's root anon_vma; with the 3.10-era rwsem (no
# optimistic spinning) the contenders sleep, with v6.18's they spin
printf '10 fork_test\n10 exec_test\n10 link_test\n10 creat_clo\n' >"$tmp/forks.wf"
golden lock-stat-reaim schedlab run -m smp4 --check --lock-stat -- reaim -s 8 -e 8 -j 8 -f "$tmp/forks.wf"
run_cmd schedlab run -m smp4 --features NO_RWSEM_SPIN_ON_OWNER --json "$tmp/rk.json" --trace "$tmp/rk.trace" --trace-events lock -- reaim -s 8 -e 8 -j 8 -f "$tmp/forks.wf"
if [ "$status" -eq 0 ] && python3 - "$tmp/rk.json" <<'PY'
import json, sys
locks = {l["name"]: l for l in json.load(open(sys.argv[1]))["locks"]}
root = locks["anon_vma:reaim"]
assert root["contended"] > 0 and root["sleep_ns"] > 0 and root["spin_ns"] == 0, root
assert locks["i_rwsem:DISKDIR"]["acquisitions"] > 0
PY
then
	ok "locking: reaim's forks contend on the root anon_vma, sleeping without RWSEM_SPIN_ON_OWNER"
else
	not_ok "locking: reaim's forks contend on the root anon_vma, sleeping without RWSEM_SPIN_ON_OWNER"
fi
if grep -q 'contention_begin' "$tmp/rk.trace"; then
	ok "locking: reaim's contended locks are traced"
else
	not_ok "locking: reaim's contended locks are traced"
fi

# PI futexes (rt-app's pi_enabled): the holder's boost and deboost are
# sched_pi_setprio lines, the rt_mutex's contention flags=RT; the JSON counts them
run_cmd schedlab run -m smp2 --json "$tmp/pi.json" --trace "$tmp/pi.trace" --trace-events sched_pi_setprio,lock -- rt-app "$root/examples/pi_mutex.json"
if [ "$status" -eq 0 ] &&
	grep -q 'sched_pi_setprio: comm=low-0 pid=[0-9]* oldprio=120 newprio=49$' "$tmp/pi.trace" &&
	grep -q 'sched_pi_setprio: comm=low-0 pid=[0-9]* oldprio=49 newprio=120$' "$tmp/pi.trace" &&
	grep -q '(flags=RT)$' "$tmp/pi.trace" &&
	python3 - "$tmp/pi.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
lines = run["trace"]["lines"]
assert lines["sched_pi_setprio"] > 0 and lines["sched_pi_setprio"] % 2 == 0, lines
assert [l["type"] for l in run["locks"]] == ["rtmutex"], run["locks"]
PY
then
	ok "locking: a PI futex's boost and deboost are traced, its rt_mutex in the JSON"
else
	not_ok "locking: a PI futex's boost and deboost are traced, its rt_mutex in the JSON"
fi
