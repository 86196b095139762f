# shellcheck shell=sh
# What the program prints must still be true (issue 24's stale statements):
# sourced by tests/cli/run.sh.

# runnable-boost's note: rt-app is modelled; what the pixel6 half lacks is schedutil
run_cmd schedlab study runnable-boost --quick --runs 2 -j 2
last=$(tail -1 "$tmp/out")
case $last in
*"rt-app and cpufreq"* | *"needs rt-app"*) not_ok "runnable-boost's note: rt-app is modelled" "$last" ;;
*schedutil*) ok "runnable-boost's note: rt-app is modelled, schedutil is what is missing" ;;
*) not_ok "runnable-boost's note names schedutil" "status $status: $last" ;;
esac

# topo's header: a cluster count only where there is a cluster level
bad=
for m in $("$SCHEDLAB" machines | awk '{ print $1 }'); do
	h=$("$SCHEDLAB" topo -m "$m" | sed -n 2p)
	case $h in
	*" clusters, "*"cluster level no"* | *" cluster, "*"cluster level no"*) bad="$bad $m" ;;
	*"cluster level yes"*) case $h in *" cluster"[s,]*) ;; *) bad="$bad $m" ;; esac ;;
	*"cluster level no"*) ;;
	*) bad="$bad $m(no-header)" ;;
	esac
done
if [ -z "$bad" ]; then ok "topo: a cluster count only with a cluster level"; else not_ok "topo header contradicts itself:$bad"; fi
# machines -v: the host's idle states come from sysfs, as topo -m host shows
run_cmd schedlab machines -v
if grep -q 'idle states are the x86 server defaults\|costs and idle states are' "$tmp/out"; then
	not_ok "machines -v: the host's idle states are read from sysfs" "$(grep -A2 '^host' "$tmp/out")"
else
	ok "machines -v: the host's idle states are read from sysfs"
fi

# ab and study refuse perf stat workloads, blaming the workload and saying what to use
expect_exit 2 "ab: perf stat: ab does not take a perf stat workload: it runs the command itself" \
	schedlab ab -m smp2 --test NO_SM_IDLE -- perf stat -r 2 hackbench -l 10
expect_exit 2 "or a study with 'runner perf-stat'" \
	schedlab ab -m smp2 --base NO_SM_IDLE -- nice -n 5 perf stat -r 2 -- hackbench -l 10
printf 'name ps\ntitle t\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload perf stat -r 2 -- hackbench -g 1 -l 5\nmetric time_s\n' >"$tmp/ps.study"
expect_exit 2 "ps.study:6: workload: perf stat: a study runs the command itself" \
	schedlab study --file "$tmp/ps.study"
printf 'name ps\ntitle t\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload hackbench -g 1 -l 5\nquick-workload taskset -c 0 perf  stat hackbench -l 5\nmetric time_s\n' >"$tmp/ps2.study"
expect_exit 2 "ps2.study:7: quick-workload: perf stat: " schedlab study --file "$tmp/ps2.study"
# a word that only starts with perf is not perf stat
printf 'name ps\ntitle t\nvariant a -\nvariant b NO_SM_IDLE\nmachine smp2\nworkload perf bench sched pipe -l 50\nmetric time_s\nruns 2\n' >"$tmp/ps3.study"
expect_exit 0 "" schedlab study --file "$tmp/ps3.study" -j 1

# run --help: every option it explains is in its synopsis (--preempt was not)
run_cmd schedlab run --help
syn=$(awk 'NR == 1, /^$/' "$tmp/out")
missing=
# shellcheck disable=SC2013
for o in $(awk 'NR > 1 && /^$/ { body = 1 } body' "$tmp/out" | grep -o '^  *\(-[a-z], \)\{0,1\}--[a-z-]*' | sed 's/.*--/--/' | sort -u); do
	case $o in --machine) o=-m ;; esac
	case $syn in *"[$o "* | *"[$o]"* | *"[$o="*) ;; *) missing="$missing $o" ;; esac
done
if [ "$status" -eq 0 ] && [ -z "$missing" ]; then ok "run --help: the synopsis names every option"; else
	not_ok "run --help: the synopsis lacks:$missing"; fi

# sweep --emit slurm with nothing left to run writes a script that runs
# nothing, so '--emit slurm && sbatch DIR/slurm/sweep.sbatch' still works
# and an older array's script is not left to be submitted again
sn=$tmp/sweep-nothing
mkdir -p "$sn"
cp "$root/tests/sweep/grid.plan" "$sn/"
(cd "$sn" && "$SCHEDLAB" sweep grid.plan --emit slurm >/dev/null 2>&1 && "$SCHEDLAB" sweep grid.plan -j 2 >/dev/null 2>&1)
grep -q '^#SBATCH --array=' "$sn/grid.sweep/slurm/sweep.sbatch" || not_ok "sweep: the first emit wrote an array"
run_cmd sh -c "cd '$sn' && '$SCHEDLAB' sweep grid.plan --emit slurm"
s=$sn/grid.sweep/slurm/sweep.sbatch
if [ "$status" -eq 0 ] && grep -q "nothing to run (8 points done or failed); wrote .*sweep.sbatch, which runs nothing" "$tmp/out" &&
	! grep -q '^#SBATCH --array=' "$s" && sh -n "$s" && [ -x "$s" ]; then
	ok "sweep --emit slurm, nothing to run: a script that runs nothing, exit 0"
else
	not_ok "sweep --emit slurm, nothing to run" "status $status: $(cat "$tmp/out")" "$(head -3 "$s")"
fi
out=$(sh "$s" 2>&1)
st=$?
case $st:$out in
0:*"nothing to run"*) ok "sweep: the script that runs nothing exits 0 and says so" ;;
*) not_ok "sweep: the script that runs nothing" "status $st: $out" ;;
esac
if [ -w /dev/full ]; then
	rm -f "$s"
	status=0
	(cd "$sn" && "$SCHEDLAB" sweep grid.plan --emit slurm >/dev/full 2>/dev/null) || status=$?
	if [ "$status" -eq 1 ] && [ ! -e "$s" ]; then ok "sweep: nothing to run > /dev/full: exit 1, no script"; else
		not_ok "sweep: nothing to run > /dev/full" "status $status, script: $([ -e "$s" ] && echo yes || echo no)"; fi
fi

# RT_PUSH_IPI is modelled (issue 19): NO_RT_PUSH_IPI runs, and nothing says there is no RT class
expect_exit 0 "" schedlab run -m smp4 --features NO_RT_PUSH_IPI -- chrt -f 10 hackbench -g 1 -l 10
run_cmd schedlab features
if grep -qi 'no RT scheduling class\|no RT class' "$tmp/out" "$root/docs/features.md"; then
	not_ok "features: nothing claims there is no RT class" "$(grep -i 'no RT' "$tmp/out" "$root/docs/features.md")"
else
	ok "features: nothing claims there is no RT class"
fi
# the JSON's sysctl object records the fair server's values in effect, as the README says
run_cmd schedlab run -m smp2 --sysctl fair_server_runtime_ns=40000000 --json "$tmp/fs.json" -- hackbench -g 1 -l 10
if [ "$status" -eq 0 ] && grep -q '"fair_server_runtime_ns": 40000000,' "$tmp/fs.json" &&
	grep -q '"fair_server_period_ns": 1000000000' "$tmp/fs.json"; then
	ok "--sysctl fair_server_runtime_ns: in the JSON's sysctl object"
else
	not_ok "--sysctl fair_server_runtime_ns: in the JSON's sysctl object" "status $status"
fi
