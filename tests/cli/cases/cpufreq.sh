# shellcheck shell=sh
# --cpufreq: governors on the simulated clock (issue 21, Frequency; docs/cpufreq.md).
# Sourced by tests/cli/run.sh.

expect_exit 2 "--cpufreq 'interactive': unknown governor (performance, powersave, userspace:KHZ, schedutil, ondemand or conservative)" \
	schedlab run -m smp2 --cpufreq interactive -- hackbench -g 1 -l 5
expect_exit 2 "--cpufreq 'userspace': userspace needs a frequency in kHz" \
	schedlab run -m smp2 --cpufreq userspace -- hackbench -g 1 -l 5
expect_exit 2 "--cpufreq 'userspace:1.5GHz': userspace needs a frequency in kHz" \
	schedlab run -m smp2 --cpufreq userspace:1.5GHz -- hackbench -g 1 -l 5
expect_exit 2 "--cpufreq 'schedutil:1000': only userspace takes a frequency" \
	schedlab ab -m smp2 --cpufreq schedutil:1000 --test NO_TTWU_QUEUE -- hackbench -g 1 -l 5
expect_exit 2 "--cpufreq schedutil: power10-96 has no cpufreq driver (none); only 'performance'" \
	schedlab run -m power10-96 --cpufreq schedutil -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl schedutil_rate_limit_us: value must be an integer in 0..10000000" \
	schedlab run -m smp2 --cpufreq schedutil --sysctl schedutil_rate_limit_us=-1 -- hackbench -l 5

# the default is performance: --cpufreq performance changes nothing but the JSON's cpufreq part
run_cmd schedlab run -m smp4 -- hackbench -g 1 -l 20
perf_out=$(cat "$tmp/out")
run_cmd schedlab run -m smp4 --cpufreq performance -- hackbench -g 1 -l 20
if [ "$status" -eq 0 ] && [ "$perf_out" = "$(cat "$tmp/out")" ]; then
	ok "--cpufreq performance: the same run as the default"
else
	not_ok "--cpufreq performance: differs from the default run"
fi

same_output cpufreq-schedutil-twice schedlab run -m pixel6 --cpufreq schedutil -- rt-app "$root/examples/periodic.json"

# mean_khz JSON N: CPU N's time-weighted mean frequency
mean_khz() { awk -v n="$2" '$1 == "\"mean_khz\":" { if (i++ == n) { sub(/,/, "", $2); print $2 } }' "$1"; }
run_mean() { awk '$1 == "periodic-0" { print int($3) }' "$tmp/out"; }

# a 30% periodic task on pixel6's little cluster: schedutil runs it slower
# (each 3 ms of work at 1.8 GHz takes longer), performance at 1803 MHz
run_cmd schedlab run -m pixel6 --json "$tmp/cf-perf.json" --cpufreq performance -- rt-app "$root/examples/periodic.json"
perf_run=$(run_mean)
run_cmd schedlab run -m pixel6 --json "$tmp/cf-su.json" --cpufreq schedutil -- rt-app "$root/examples/periodic.json"
su_run=$(run_mean)
su_khz=$(mean_khz "$tmp/cf-su.json" 0)
perf_khz=$(mean_khz "$tmp/cf-perf.json" 0)
if [ -n "$su_run" ] && [ -n "$su_khz" ] && [ "$perf_khz" = 1803000 ] && [ "$su_khz" -lt 1200000 ] &&
	[ "$su_run" -gt $((perf_run * 3 / 2)) ]; then
	ok "--cpufreq schedutil: a 30% task runs at $su_khz kHz (performance $perf_khz), run_mean $su_run us (performance $perf_run)"
else
	not_ok "--cpufreq schedutil on a light task" "mean kHz $su_khz vs $perf_khz, run_mean $su_run vs $perf_run"
fi

# a CPU-bound workload takes every CPU to (almost always) the maximum
run_cmd schedlab run -m smp4 --json "$tmp/cf-busy.json" --cpufreq schedutil -- stress-ng --cpu 4 --timeout 1
low=
for n in 0 1 2 3; do
	k=$(mean_khz "$tmp/cf-busy.json" $n)
	if [ -z "$k" ] || [ "$k" -lt 1950000 ]; then low="$low cpu$n=$k"; fi
done
if [ "$status" -eq 0 ] && [ -z "$low" ]; then ok "--cpufreq schedutil: stress-ng --cpu keeps every CPU near 2 GHz"; else
	not_ok "--cpufreq schedutil: stress-ng --cpu" "below 1.95 GHz:$low"; fi

# powersave and userspace: a fixed clock, and work takes max/cur longer
run_cmd schedlab run -m smp2 --json "$tmp/cf-ps.json" --cpufreq powersave -- stress-ng --cpu 1 --cpu-ops 200
ps_t=$(awk '$1 == "\"sim_time_ns\":" { sub(/,/, "", $2); print $2 }' "$tmp/cf-ps.json")
run_cmd schedlab run -m smp2 --json "$tmp/cf-pf.json" --cpufreq performance -- stress-ng --cpu 1 --cpu-ops 200
pf_t=$(awk '$1 == "\"sim_time_ns\":" { sub(/,/, "", $2); print $2 }' "$tmp/cf-pf.json")
if [ -n "$ps_t" ] && [ -n "$pf_t" ] && [ "$ps_t" -gt $((pf_t * 19 / 10)) ] && [ "$ps_t" -lt $((pf_t * 21 / 10)) ]; then
	ok "--cpufreq powersave: 1 GHz of 2 takes twice as long ($ps_t vs $pf_t ns)"
else
	not_ok "--cpufreq powersave: time" "$ps_t vs $pf_t ns"
fi

# cpu_frequency trace events for each request, for every CPU of the policy
run_cmd schedlab run -m pixel6 --cpufreq schedutil --trace "$tmp/cf.trace" -- rt-app "$root/examples/periodic.json"
nf=$(grep -c 'cpu_frequency: state=[0-9]* cpu_id=[0-3]$' "$tmp/cf.trace")
if [ "$status" -eq 0 ] && [ "$nf" -gt 8 ]; then ok "--cpufreq schedutil: $nf cpu_frequency events on the little cluster"; else
	not_ok "--cpufreq schedutil: cpu_frequency events" "$nf"; fi

# a sweep's settings take --cpufreq
printf 'name cf\nmachine smp2\nworkload hackbench -g 1 -l 5\nsettings perf -\nsettings su --cpufreq schedutil\n' >"$tmp/cf.plan"
expect_exit 0 "" schedlab sweep "$tmp/cf.plan" -o "$tmp/cf.out" -j 1

# --plot adds the frequency heatmap's data only under a governor (pixel6's
# default is schedutil; smp4's performance keeps one fixed clock)
run_cmd schedlab run -m pixel6 --plot "$tmp/cfplot" -- rt-app "$root/examples/periodic.json"
run_cmd schedlab run -m smp4 --plot "$tmp/cfplot0" -- rt-app "$root/examples/periodic.json"
lowf=$(awk '$2 == 0 && $3 < 1000 { n++ } END { print n + 0 }' "$tmp/cfplot/cpu-freq.dat" 2>/dev/null)
if [ -s "$tmp/cfplot/cpu-freq.dat" ] && [ ! -e "$tmp/cfplot0/cpu-freq.dat" ] && [ "$lowf" -gt 0 ] &&
	grep -q "cpu-freq.svg" "$tmp/cfplot/plots.gp"; then
	ok "--plot under pixel6's schedutil: cpu-freq.dat ($lowf samples of CPU 0 below 1 GHz) and its plot"
else
	not_ok "--plot under pixel6's schedutil: cpu-freq.dat" "$(ls "$tmp/cfplot" "$tmp/cfplot0" 2>&1 | tr '\n' ' ')"
fi

# study files and sweep plans take option cpufreq
printf 'name cf\nmachine smp2\nworkload hackbench -g 1 -l 5\noption cpufreq userspace:1000000\n' >"$tmp/cf2.plan"
expect_exit 0 "" schedlab sweep "$tmp/cf2.plan" -o "$tmp/cf2.out" -j 1
printf 'name cf\nmachine smp2\nworkload hackbench -g 1 -l 5\noption cpufreq turbo\n' >"$tmp/cf3.plan"
expect_exit 2 "--cpufreq 'turbo': unknown governor" schedlab sweep "$tmp/cf3.plan" -o "$tmp/cf3.out" -j 1

# EAS (docs/energy.md): kernel.sched_energy_aware is 0 or 1; with it on, the
# small periodic task of examples/periodic.json costs pixel6 less energy
expect_exit 2 "--sysctl energy_aware: value must be an integer in 0..1, got '2'" \
	schedlab run -m pixel6 --sysctl energy_aware=2 -- hackbench -l 5
run_cmd schedlab run -m pixel6 --cpufreq schedutil --json "$tmp/eas-on.json" -- rt-app "$root/examples/periodic.json"
run_cmd schedlab run -m pixel6 --cpufreq schedutil --sysctl energy_aware=0 --json "$tmp/eas-off.json" -- rt-app "$root/examples/periodic.json"
eas_on=$(awk -F'[:,]' '/"total_j"/ { print $2 }' "$tmp/eas-on.json" 2>/dev/null)
eas_off=$(awk -F'[:,]' '/"total_j"/ { print $2 }' "$tmp/eas-off.json" 2>/dev/null)
if grep -q '"eas": true' "$tmp/eas-on.json" && grep -q '"eas": false' "$tmp/eas-off.json" &&
	awk -v a="$eas_on" -v b="$eas_off" 'BEGIN { exit !(a > 0 && a < b) }'; then
	ok "EAS on pixel6: the periodic task's run costs $eas_on J against $eas_off J without"
else
	not_ok "EAS on pixel6: energy" "on: '$eas_on', off: '$eas_off'"
fi
# a machine without an energy model has no energy part
run_cmd schedlab run -m smp4 --cpufreq schedutil --json "$tmp/eas-smp4.json" -- hackbench -l 5
if grep -q '"energy"' "$tmp/eas-smp4.json"; then
	not_ok "no energy part without a model" "smp4's JSON has one"
else
	ok "no energy part without a model (smp4)"
fi

# ondemand and conservative (docs/cpufreq.md): the pipe on smp4, and their
# tunables and the policy limits, checked as the kernel's store functions do
golden cpufreq-ondemand-pipe schedlab run -m smp4 --cpufreq ondemand -- perf bench sched pipe -l 20000
golden cpufreq-conservative-pipe schedlab run -m smp4 --cpufreq conservative -- perf bench sched pipe -l 20000
same_output cpufreq-ondemand-twice schedlab run -m smp4 --cpufreq ondemand -- perf bench sched pipe -l 5000
expect_exit 2 "--sysctl up_threshold: value must be an integer in 1..100, got '101'" \
	schedlab run -m smp4 --cpufreq ondemand --sysctl up_threshold=101 -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl sampling_rate=1000: below two ticks (8000 us at HZ=250)" \
	schedlab run -m smp4 --cpufreq ondemand --sysctl sampling_rate=1000 -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl powersave_bias: a tunable of ondemand, not of the conservative governor" \
	schedlab run -m smp4 --cpufreq conservative --sysctl powersave_bias=100 -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl up_threshold: a tunable of ondemand and conservative, not of the schedutil governor" \
	schedlab run -m smp4 --cpufreq schedutil --sysctl up_threshold=90 -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl: conservative needs down_threshold (50) below up_threshold (40)" \
	schedlab run -m smp4 --cpufreq conservative --sysctl up_threshold=40 --sysctl down_threshold=50 -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl sampling_down_factor=20: conservative takes 1..10" \
	schedlab run -m smp4 --cpufreq conservative --sysctl sampling_down_factor=20 -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl scaling_max_freq=2500000: outside smp4's frequencies, 1000000..2000000 kHz" \
	schedlab run -m smp4 --sysctl scaling_max_freq=2500000 -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl scaling_min_freq=1800000 is above scaling_max_freq=1500000" \
	schedlab run -m smp4 --cpufreq ondemand --sysctl scaling_min_freq=1800000 --sysctl scaling_max_freq=1500000 -- hackbench -g 1 -l 5
expect_exit 2 "--sysctl scaling_max_freq: power10-96 has no cpufreq driver (none), so no policy limits" \
	schedlab run -m power10-96 --sysctl scaling_max_freq=3000000 -- hackbench -g 1 -l 5

# scaling_max_freq 1.5 GHz without --cpufreq: the default performance runs there, the JSON has the cpufreq part, and the stress takes 2.0/1.5 times as long
run_cmd schedlab run -m smp2 --json "$tmp/cf-lim.json" --sysctl scaling_max_freq=1500000 -- stress-ng --cpu 1 --cpu-ops 200
lim_t=$(awk '$1 == "\"sim_time_ns\":" { sub(/,/, "", $2); print $2 }' "$tmp/cf-lim.json")
if [ -n "$lim_t" ] && [ "$(mean_khz "$tmp/cf-lim.json" 0)" = 1500000 ] && grep -q '"scaling_max_freq": 1500000' "$tmp/cf-lim.json" &&
	[ "$lim_t" -gt $((pf_t * 13 / 10)) ] && [ "$lim_t" -lt $((pf_t * 14 / 10)) ]; then
	ok "scaling_max_freq 1.5 GHz under performance: $lim_t ns against $pf_t ns at 2 GHz"
else
	not_ok "scaling_max_freq under performance" "$lim_t vs $pf_t ns, mean $(mean_khz "$tmp/cf-lim.json" 0) kHz"
fi
# ondemand on a CPU-bound load goes to the maximum; on the idle CPU 0 of a taskset run it stays
run_cmd schedlab run -m smp2 --json "$tmp/cf-od.json" --cpufreq ondemand -- stress-ng --cpu 2 --timeout 1
od0=$(mean_khz "$tmp/cf-od.json" 0)
if [ "$status" -eq 0 ] && [ -n "$od0" ] && [ "$od0" -gt 1950000 ] && grep -q '"samples": [1-9]' "$tmp/cf-od.json"; then
	ok "--cpufreq ondemand: stress-ng --cpu keeps the CPUs at the maximum ($od0 kHz)"
else
	not_ok "--cpufreq ondemand on stress-ng --cpu" "mean $od0 kHz"
fi
# every pipe CPU keeps being sampled: an irq_work queued from the wakelist
# flush's enqueue is not lost (flush_smp_call_function_queue() takes its list first).
# A pipe CPU is one that switched over 1000 times (sched.per_cpu[] in CPU order);
# smp4's policies are one per CPU, in CPU order; a CPU left idle may sleep through.
run_cmd schedlab run -m smp4 --json "$tmp/cf-odpipe.json" --cpufreq ondemand -- perf bench sched pipe -l 20000
few=$(awk '/"per_cpu": \[/ { pc = 1 }
	pc && $1 == "\"nr_switches\":" { sub(/,/, "", $2); sw[ns++] = $2 + 0 }
	$1 == "\"samples\":" { sub(/,/, "", $2); if (sw[np++] > 1000 && $2 + 0 < 5) n++ }
	END { print (ns && np ? n + 0 : "none") }' "$tmp/cf-odpipe.json")
if [ "$status" -eq 0 ] && [ "$few" = 0 ]; then
	ok "--cpufreq ondemand: the pipe's 0.16 s take at least 5 samples on every pipe CPU"
else
	not_ok "--cpufreq ondemand: samples per policy" "$(grep '"samples"' "$tmp/cf-odpipe.json" | tr -d ' \n')"
fi
# the slow path: Altra's cppc_cpufreq has no fast switch (CPPC behind PCC), so each
# request wakes sugov:0, a SCHED_DEADLINE kthread that preempts the pipe's tasks
# on CPU 0 and changes the frequency when its ->target() returns
golden cpufreq-sugov-trace schedlab run -m altra-80 --cpufreq schedutil --trace /dev/stdout \
	--trace-events sched_switch,sched_wakeup,cpu_frequency -- taskset -c 0 perf bench sched pipe -l 5
# the machine file's fast_switch takes yes or no
"$SCHEDLAB" machines --export smp2 | sed 's/^span = cpu$/span = cpu\nfast_switch = maybe/' >"$tmp/fs.machine"
expect_exit 2 "fast_switch" schedlab run -m "$tmp/fs.machine" -- hackbench -l 5

# Each machine's default governor (docs/machines.md, "Frequency"): altra-80
# boots schedutil, which the JSON records and --cpufreq overrides;
# --cpufreq performance gives the output altra-80 had before it had a default
# (tests/golden/run-schbench-altra80-performance.out is that output, unchanged)
golden run-schbench-altra80-performance schedlab run -m altra-80 --cpufreq performance -- schbench -m 2 -r 5
run_cmd schedlab run -m altra-80 --json "$tmp/gov-altra.json" -- perf bench sched pipe -l 200
if [ "$status" -eq 0 ] && grep -q '"governor": "schedutil"' "$tmp/gov-altra.json" &&
	grep -q '"rate_limit_us": 110' "$tmp/gov-altra.json"; then
	ok "altra-80 boots schedutil (rate_limit_us 110), as the JSON says"
else
	not_ok "altra-80's default governor in the JSON" "$(grep -m 3 '"governor"\|rate_limit' "$tmp/gov-altra.json" | tr -d '\n')"
fi
run_cmd schedlab run -m smp4 --json "$tmp/gov-smp4.json" -- perf bench sched pipe -l 200
if [ "$status" -eq 0 ] && ! grep -q '"cpufreq"' "$tmp/gov-smp4.json"; then
	ok "smp4 boots performance: no cpufreq part in the JSON"
else
	not_ok "smp4's default governor" "the JSON has a cpufreq part"
fi
# the machine file's governor: a name cpufreq has, and one the driver can run
"$SCHEDLAB" machines --export power10-96 | sed 's/^governor = performance$/governor = schedutil/' >"$tmp/gov-p10.machine"
gl=$(grep -n '^governor = ' "$tmp/gov-p10.machine" | cut -d: -f1)
expect_exit 2 "gov-p10.machine:$gl: governor: schedutil, but the machine has no cpufreq driver (span = none): only performance (its one frequency) applies" \
	schedlab topo -m "$tmp/gov-p10.machine"
"$SCHEDLAB" machines --export smp2 | sed 's/^governor = performance$/governor = interactive/' >"$tmp/gov-bad.machine"
expect_exit 2 "governor: 'interactive' is not a default governor (performance, powersave, schedutil, ondemand or conservative)" \
	schedlab run -m "$tmp/gov-bad.machine" -- hackbench -l 5
# sysfs carries it: --export-sysfs writes scaling_governor, -m sysfs:DIR reads it
expect_exit 0 "" schedlab topo -m altra-80 --export-sysfs "$tmp/gov-sysfs"
run_cmd schedlab topo -m "sysfs:$tmp/gov-sysfs"
if [ "$(cat "$tmp/gov-sysfs/cpu/cpu5/cpufreq/scaling_governor")" = schedutil ] &&
	grep -q 'cpufreq: cppc_cpufreq, a policy per cpu; default governor schedutil' "$tmp/out"; then
	ok "sysfs round trip keeps altra-80's schedutil"
else
	not_ok "sysfs round trip of the governor" "$(grep cpufreq "$tmp/out")"
fi
# intel_pstate's own powersave (HWP picks the frequency) runs as performance, with a note
expect_exit 0 "" schedlab topo -m xeon-8269cy-2s --export-sysfs "$tmp/gov-hwp"
for f in "$tmp"/gov-hwp/cpu/cpu*/cpufreq; do
	echo intel_pstate >"$f/scaling_driver"
	echo powersave >"$f/scaling_governor"
done
run_cmd schedlab topo -m "sysfs:$tmp/gov-hwp"
if grep -q 'default governor performance' "$tmp/out" &&
	grep -q "intel_pstate's own powersave (the hardware picks the frequency) runs as performance" "$tmp/out"; then
	ok "sysfs intel_pstate powersave: performance, noted"
else
	not_ok "sysfs intel_pstate powersave" "$(grep 'cpufreq\|Approx' "$tmp/out")"
fi
