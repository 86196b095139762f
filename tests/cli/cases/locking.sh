# shellcheck shell=sh
# Kernel locks (docs/locking.md, issue 22): the contention view and the
# lock tracepoints (and sched_pi_setprio). hackbench's only kernel lock is
# tasklist_lock (its forks and exits); reaim takes the sleeping ones.
# Sourced by tests/cli/run.sh.

golden lock-stat-none schedlab run -m smp2 --lock-stat -- hackbench -g 1 -l 10
# a threaded program's mmap_lock (work/mm_thread.c): schbench's two message
# threads create their workers at once and contend on it; their joins
# munmap() the 8 MiB stacks beyond glibc's cache
golden lock-stat-threads schedlab run -m smp4 --check --lock-stat -- schbench -m 2 -t 8 -r 1
run_cmd schedlab run -m smp2 --json "$tmp/lk.json" --trace "$tmp/lk.trace" --trace-events lock -- hackbench -g 1 -l 10
if [ "$status" -eq 0 ] && python3 - "$tmp/lk.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
locks = {(l["name"], l["type"]): l for l in d["locks"]}
assert list(locks) == [("tasklist_lock", "rwlock:W"), ("tasklist_lock", "rwlock:R")], list(locks)
w, r = locks[("tasklist_lock", "rwlock:W")], locks[("tasklist_lock", "rwlock:R")]
# 40 processes: a fork and two exit sections each; a waitpid() pass for each, more if it slept
assert w["acquisitions"] == 120, locks
assert r["acquisitions"] >= 40, locks
lines = d["trace"]["lines"]
assert lines["contention_begin"] == lines["contention_end"] == w["contended"] + r["contended"], lines
PY
then
	ok "locking: hackbench takes only tasklist_lock, 3 writes and a wait a process, each contention traced"
else
	not_ok "locking: hackbench takes only tasklist_lock, 3 writes and a wait a process, each contention traced"
fi
# every futex bucket's lock counts in one class (perf lock's spinlock)
run_cmd schedlab run -m smp4 --json "$tmp/fh.json" -- perf bench futex hash -r 1 -t 8 -f 1 -b 2 -s
if [ "$status" -eq 0 ] && python3 - "$tmp/fh.json" <<'PY'
import json, sys
locks = {l["name"]: l for l in json.load(open(sys.argv[1]))["locks"]}
hb = locks["futex hash bucket"]
assert hb["type"] == "spinlock" and hb["acquisitions"] > 1000000 and hb["contended"] > 0, hb
assert hb["spin_ns"] == hb["wait_ns"] and hb["max_wait_ns"] > 0, hb
PY
then
	ok "locking: the futex hash bucket locks are one spinlock class in the JSON"
else
	not_ok "locking: the futex hash bucket locks are one spinlock class in the JSON"
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
# the process's mmap_lock (its threads), the rt_mutex, then the spinning classes
assert [l["type"] for l in run["locks"] if not l["type"].startswith("rwlock") and l["type"] != "spinlock"] == ["rwsem", "rtmutex"], run["locks"]
assert run["locks"][0]["name"].startswith("mmap_lock:"), run["locks"]
PY
then
	ok "locking: a PI futex's boost and deboost are traced, its rt_mutex in the JSON"
else
	not_ok "locking: a PI futex's boost and deboost are traced, its rt_mutex in the JSON"
fi
