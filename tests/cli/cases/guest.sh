# shellcheck shell=sh
# --guest and steal time (issue 23, docs/guests.md). Sourced by tests/cli/run.sh.

golden guest-smp4-pipe schedlab run -m smp4 --guest kvm:haltpoll,steal=5:2000 -- perf bench sched pipe -l 2000
golden guest-topo-smp4 schedlab topo -m smp4 --guest kvm:haltpoll,ipiv,steal=2.5
expect_exit 2 "run: --guest: 'xen' is not none or kvm[:hlt|:haltpoll][,ipiv][,steal=PCT[:PERIOD_US]]" \
	schedlab run -m smp4 --guest xen -- hackbench -l 5
expect_exit 2 "run: --guest: steal: 95% is more than 90% of a vCPU's time" \
	schedlab run -m smp4 --guest kvm,steal=95 -- hackbench -l 5
expect_exit 2 "ab: --guest: cpuidle 'mwait' is not one of hlt haltpoll" \
	schedlab ab -m smp4 --guest kvm:mwait --test NO_TTWU_QUEUE -- hackbench -l 5
expect_exit 2 "topo: --guest: unknown item 'posted' (ipiv, steal=PCT[:PERIOD_US], guest_halt_poll_ns=NS, guest_halt_flush_ns=NS or host_*=V, docs/guests.md)" \
	schedlab topo -m smp4 --guest kvm,posted
expect_exit 2 "run: --guest: host_halt_poll_ns_grow: 'two' is not a number from 0 to 4294967295" \
	schedlab run -m smp4 --guest kvm,host_halt_poll_ns_grow=two -- hackbench -l 5
expect_exit 2 "run: --guest: host_posted_interrupts: 'maybe' is not one of yes no" \
	schedlab run -m smp4 --guest kvm,host_posted_interrupts=maybe -- hackbench -l 5
golden guest-topo-host-poll schedlab topo -m smp4 --guest kvm:haltpoll,host_halt_poll_ns_grow_start=20000,host_poll_control=no,host_posted_interrupts=no
same_output guest-steal-deterministic schedlab run -m smp4 --seed 3 --guest kvm,steal=10:1000 -- hackbench -l 50

# --guest is the [guest] section: the same run, byte for byte
schedlab machines --export smp4 >"$tmp/guest.machine"
printf '\n[guest]\nhypervisor = kvm\ncpuidle = haltpoll\nsteal = 5:2000\n' >>"$tmp/guest.machine"
run_cmd schedlab run -m "$tmp/guest.machine" -- perf bench sched pipe -l 2000
cp "$tmp/out" "$tmp/guest.file.out"
if cmp -s "$tmp/guest.file.out" "$golden_dir/guest-smp4-pipe.out"; then
	ok "--guest equals the [guest] section"
else
	not_ok "--guest equals the [guest] section" "$(diff "$tmp/guest.file.out" "$golden_dir/guest-smp4-pipe.out" | head -5)"
fi
# and none makes the guest file bare metal again
run_cmd schedlab run -m "$tmp/guest.machine" --guest none -- perf bench sched pipe -l 2000
cp "$tmp/out" "$tmp/guest.none.out"
run_cmd schedlab run -m smp4 -- perf bench sched pipe -l 2000
if cmp -s "$tmp/guest.none.out" "$tmp/out"; then ok "--guest none is bare metal"; else
	not_ok "--guest none is bare metal" "$(diff "$tmp/guest.none.out" "$tmp/out" | head -5)"; fi

# another seed, other stretches: the steal differs
run_cmd schedlab run -m smp4 --seed 4 --json "$tmp/s4.json" --guest kvm,steal=10:1000 -- hackbench -l 50
run_cmd schedlab run -m smp4 --seed 3 --json "$tmp/s3.json" --guest kvm,steal=10:1000 -- hackbench -l 50
s3=$(grep '"steal_ns"' "$tmp/s3.json" | tr -d ' \n')
s4=$(grep '"steal_ns"' "$tmp/s4.json" | tr -d ' \n')
case $s3 in
*'"steal_ns":0,'*'"steal_ns":0,'*'"steal_ns":0,'*'"steal_ns":0,'*) not_ok "--guest steal: every CPU stolen" "$s3" ;;
"$s4") not_ok "--guest steal: seeds 3 and 4 steal alike" "$s3" ;;
*) ok "--guest steal: per-CPU steal_ns, by seed" ;;
esac

# a study takes it as an option, in a case group of its own beside the bare machine
printf 'name g\ntitle bare and guest\nvariant base -\nvariant test NO_TTWU_QUEUE\nmetric usecs_per_op\nruns 2\ncase smp2\nworkload perf bench sched pipe -l 200\ncase smp2\nworkload perf bench sched pipe -l 200\noption guest kvm:hlt,steal=5\n' >"$tmp/g.study"
run_cmd schedlab study --file "$tmp/g.study" -j 1
if [ "$status" = 0 ] && grep -q 'guest kvm:hlt,steal=5' "$tmp/out"; then ok "study: option guest"; else
	not_ok "study: option guest" "status $status" "$(head -5 "$tmp/out")"; show_stderr; fi
printf 'name g\ntitle bad\nvariant base -\nvariant test NO_TTWU_QUEUE\nmetric time_s\nmachine smp2\nworkload hackbench -l 5\noption guest kvm,steal=x\n' >"$tmp/bad.study"
expect_exit 2 "--guest: steal: 'x' is not PCT[:PERIOD_US]" schedlab study --file "$tmp/bad.study"

# a sweep's settings: bare metal and a stealing guest, side by side
printf 'name g\nmachine smp2\nworkload hackbench -l 20\nsettings bare -\nsettings guest --guest kvm,steal=10:1000\n' >"$tmp/g.plan"
run_cmd schedlab sweep "$tmp/g.plan" -o "$tmp/gsweep" -j 1
run_cmd schedlab sweep "$tmp/g.plan" -o "$tmp/gsweep" --collect --csv "$tmp/g.csv"
if [ "$status" = 0 ] && grep -q ',guest,' "$tmp/g.csv" && grep -q ',bare,' "$tmp/g.csv"; then
	ok "sweep: settings --guest"
else
	not_ok "sweep: settings --guest" "status $status" "$(head -3 "$tmp/g.csv" 2>/dev/null)"; show_stderr
fi
printf 'name g\nmachine smp2\nworkload hackbench -l 20\nsettings guest --guest kvm:mwait\n' >"$tmp/gbad.plan"
expect_exit 2 "--guest: cpuidle 'mwait' is not one of hlt haltpoll" schedlab sweep "$tmp/gbad.plan" -o "$tmp/gbad" --list

# a guest has no energy model: no EAS, and the JSON says why there is no figure
run_cmd schedlab run -m pixel6 --guest kvm --cpufreq schedutil --json "$tmp/genergy.json" -- hackbench -l 5
if grep -q '"reason": "a KVM guest has no energy model' "$tmp/genergy.json" &&
	! grep -q '"total_j"' "$tmp/genergy.json"; then
	ok "--guest: no energy model"
else
	not_ok "--guest: no energy model" "$(grep -A4 '"energy"' "$tmp/genergy.json")"
fi
