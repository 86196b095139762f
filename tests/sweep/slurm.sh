#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The Slurm path of `schedlab sweep`, for real: a single-node Slurm cluster
# on this machine (munged, slurmctld and slurmd from Debian's munge and
# slurm-wlm, started here with a generated slurm.conf in a temporary
# directory), the job array `--emit slurm` writes submitted and waited
# for, its points collected and compared with the same plan run locally.
# Stops exactly the daemons it started.
#
#   sh tests/sweep/slurm.sh [./schedlab]     (.ci/run runs it; root, Debian 12)
#
# Installs the packages first when they are missing (scripts/deps.sh slurm).
# Where the daemons cannot start (no root, a container that forbids them),
# it says SKIP and why, and exits 0.
SCHEDLAB=${1:-./schedlab}
case $SCHEDLAB in
/*) ;;
*) SCHEDLAB=$(pwd)/$SCHEDLAB ;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd)
plan=$root/tests/sweep/grid.plan
t0=$(date +%s)

skip() {
	echo "sweep slurm: SKIP: $*"
	exit 0
}
fail() {
	echo "sweep slurm: FAIL: $*"
	exit 1
}

[ "$(id -u)" -eq 0 ] || skip "not root: the test starts munged, slurmctld and slurmd itself"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	sh "$root/scripts/deps.sh" slurm || skip "cannot install slurm-wlm and munge (scripts/deps.sh slurm failed)"
fi
for c in munged munge slurmctld slurmd sbatch squeue sinfo; do
	command -v $c >/dev/null || skip "'$c' is not installed"
done

tmp=$(mktemp -d /tmp/schedlab-slurm.XXXXXX) || exit 1
chmod 755 "$tmp"
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		# wait only works for our children; the others (munged) are polled
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$p" 2>/dev/null
	done
	[ -n "$KEEP" ] && echo "sweep slurm: kept $tmp" || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- munge: a key if there is none, and a munged of our own on our own socket
key=/etc/munge/munge.key
if [ ! -s "$key" ]; then
	mkdir -p /etc/munge
	if command -v mungekey >/dev/null; then
		mungekey --create --keyfile="$key" || fail "mungekey could not create $key"
	else
		dd if=/dev/urandom of="$key" bs=1 count=1024 2>/dev/null
	fi
	chown munge:munge "$key" /etc/munge 2>/dev/null
	chmod 0400 "$key"
fi
mkdir -p "$tmp/munge"
chown munge:munge "$tmp/munge" 2>/dev/null
chmod 0755 "$tmp/munge"
sock=$tmp/munge/munge.socket
run_munge() {
	if id munge >/dev/null 2>&1 && command -v runuser >/dev/null; then
		runuser -u munge -- "$@"
	else
		"$@" --force
	fi
}
run_munge munged --socket="$sock" --pid-file="$tmp/munge/munged.pid" \
	--log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" ||
	skip "munged did not start: $(tail -3 "$tmp/munge/munged.log" 2>/dev/null)"
i=0
while [ ! -s "$tmp/munge/munged.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
pids="$(cat "$tmp/munge/munged.pid" 2>/dev/null)"
munge -n -S "$sock" | unmunge -S "$sock" >/dev/null 2>&1 ||
	skip "munged does not answer on $sock: $(tail -3 "$tmp/munge/munged.log" 2>/dev/null)"

# ---- slurm.conf for one node, this machine
node=$(hostname -s)
cpus=$(slurmd -C | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p')
mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
[ -n "$cpus" ] && [ -n "$mem" ] || skip "slurmd -C does not describe this machine"
port=${SLURM_TEST_PORT:-16817}
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log"
conf=$tmp/slurm.conf
cat >"$conf" <<CONF
ClusterName=schedlab
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MaxArraySize=10001
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf
slurmctld -D -f "$conf" >"$tmp/log/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$conf" -N "$node" >"$tmp/log/slurmd.out" 2>&1 &
pids="$pids $!"
why() {
	tail -5 "$tmp/log/slurmctld.log" "$tmp/log/slurmd.log" "$tmp/log/slurmctld.out" \
		"$tmp/log/slurmd.out" 2>/dev/null
}
i=0
until sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'; do
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		echo "sweep slurm: the daemons' last words:"
		why
		skip "slurmctld and slurmd did not bring node $node up in 30 s"
	fi
	sleep 0.5
done
echo "sweep slurm: single-node cluster up: node $node, $cpus CPUs, $mem MB ($(($(date +%s) - t0)) s)"

# ---- the plan locally, then as a job array, into a directory whose name holds
# what a shell or sbatch's #SBATCH parser would act on (a quote, $( ), a blank,
# '#', '%' and a double quote): the script must carry it as it is (issue 18)
"$SCHEDLAB" sweep "$plan" -o "$tmp/local" -j 2 >/dev/null || fail "the local sweep failed"
"$SCHEDLAB" sweep "$plan" -o "$tmp/local" --collect --csv "$tmp/local.csv" >/dev/null ||
	fail "collecting the local sweep failed"
sd="$tmp/it's \"\$(touch INJECTED)\" 50% #slurm"
"$SCHEDLAB" sweep "$plan" -o "$sd" --emit slurm >"$tmp/emit.out" || fail "--emit slurm failed"
cat "$tmp/emit.out"
script=$sd/slurm/sweep.sbatch
grep -q '^#SBATCH --array=0-2$' "$script" || fail "8 points in chunks of 3 should be array 0-2: $(grep array "$script")"
job=$(sbatch --parsable "$script") || fail "sbatch refused the script: $(why)"
echo "sweep slurm: submitted job array $job"
i=0
while squeue -h -j "$job" 2>/dev/null | grep -q .; do
	i=$((i + 1))
	[ $i -gt 240 ] && fail "job $job did not end in 120 s: $(squeue -j "$job"; why)"
	sleep 0.5
done
ls "$sd/slurm/" | grep -q "task-${job}_2.out" || fail "no output file for array task 2: $(ls "$sd/slurm")"
"$SCHEDLAB" sweep "$plan" -o "$sd" --collect --csv "$tmp/slurm.csv" >"$tmp/collect.out" ||
	fail "collecting the Slurm sweep failed: $(cat "$tmp/collect.out"; cat "$sd"/slurm/task-*.err)"
[ -z "$(find "$tmp" "$(pwd)" -maxdepth 3 -name INJECTED)" ] || fail "a quoted path ran as a command"
cmp -s "$tmp/local.csv" "$tmp/slurm.csv" ||
	fail "the Slurm table differs from the local one: $(diff "$tmp/local.csv" "$tmp/slurm.csv")"
echo "sweep slurm: ok: job array $job ran 8 points in 3 tasks; the collected table equals the local run's ($(($(date +%s) - t0)) s)"

# ---- a task cancelled mid-way (scancel, as a time limit would), then resumed
wait_job() {
	i=0
	while squeue -h -j "$1" 2>/dev/null | grep -q .; do
		i=$((i + 1))
		[ $i -gt 240 ] && fail "job $1 did not end in 120 s: $(squeue -j "$1"; why)"
		sleep 0.5
	done
}
json_count() {
	ls "$1/points" 2>/dev/null | grep -c '^[0-9a-f]*\.json$'
}
cat >"$tmp/kill.plan" <<PLAN
name cancelled
machine smp2
workload hackbench -g 1 -l 2000
seeds 1..8
metric time_s
chunk 8
PLAN
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/kl" -j 2 >/dev/null || fail "the local sweep of kill.plan failed"
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/kl" --collect --csv "$tmp/kl.csv" >/dev/null
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/ks" --emit slurm >/dev/null || fail "--emit slurm of kill.plan failed"
job=$(sbatch --parsable "$tmp/ks/slurm/sweep.sbatch") || fail "sbatch refused kill.plan's script: $(why)"
i=0
while [ "$(json_count "$tmp/ks")" -lt 2 ] && [ $i -lt 600 ]; do
	sleep 0.05
	i=$((i + 1))
done
scancel "${job}_0"
wait_job "$job"
done1=$(json_count "$tmp/ks")
[ "$done1" -ge 2 ] && [ "$done1" -lt 8 ] ||
	fail "scancel should have stopped array task ${job}_0 mid-way; $done1 of 8 points are done"
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/ks" --collect >"$tmp/ks.out" 2>&1
[ $? -eq 1 ] || fail "--collect of the cancelled sweep should exit 1"
grep -q "^missing: $((8 - done1)) points" "$tmp/ks.out" || fail "--collect should list $((8 - done1)) missing points: $(cat "$tmp/ks.out")"
grep -q 'corrupt' "$tmp/ks.out" && fail "the cancelled task left a half-written point"
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/ks" --emit slurm >"$tmp/ks-emit.out" || fail "the second --emit slurm failed"
grep -q ": $((8 - done1)) points in 1 array task of up to 8" "$tmp/ks-emit.out" ||
	fail "the second array should hold only the $((8 - done1)) missing points: $(cat "$tmp/ks-emit.out")"
job2=$(sbatch --parsable "$tmp/ks/slurm/sweep.sbatch") || fail "sbatch refused the resume: $(why)"
wait_job "$job2"
"$SCHEDLAB" sweep "$tmp/kill.plan" -o "$tmp/ks" --collect --csv "$tmp/ks.csv" >/dev/null ||
	fail "the resumed Slurm sweep is incomplete: $(cat "$tmp"/ks/slurm/task-*.err)"
cmp -s "$tmp/kl.csv" "$tmp/ks.csv" || fail "the resumed Slurm table differs from the local one: $(diff "$tmp/kl.csv" "$tmp/ks.csv")"
echo "sweep slurm: ok: array task ${job}_0 cancelled after $done1 of 8 points; job $job2 ran the $((8 - done1)) missing ones; the table equals the local run's ($(($(date +%s) - t0)) s)"
