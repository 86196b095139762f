# shellcheck shell=sh
# Machine files (-m PATH, machines --export) and hwloc XML import (-m
# hwloc:FILE.xml); docs/machines.md, "Machine files" and "hwloc XML".
# Sourced by tests/cli/run.sh.

# strip_wall FILE: the JSON without its wall-clock field, the one thing two runs may differ in
strip_wall() {
	grep -v '"wall_s":' "$1"
}

# round_trip MACHINE: export, then the file must give what MACHINE gives, byte for byte
round_trip() {
	f=$tmp/rt.machine
	run_cmd schedlab machines --export "$1" -o "$f"
	if [ "$status" -ne 0 ]; then
		not_ok "round trip $1: export" "exited with status $status"
		show_stderr
		return
	fi
	bad=
	for what in "topo --domains" "topo" "topo --costs"; do
		# shellcheck disable=SC2086 # $what is the subcommand and its flag
		schedlab $what -m "$1" >"$tmp/rt.a" 2>&1
		# shellcheck disable=SC2086
		schedlab $what -m "$f" >"$tmp/rt.b" 2>&1
		cmp -s "$tmp/rt.a" "$tmp/rt.b" || bad="$bad '$what'"
	done
	schedlab run -m "$1" --json "$tmp/rt.a.json" -- hackbench -g 2 -l 20 >"$tmp/rt.a" 2>&1
	schedlab run -m "$f" --json "$tmp/rt.b.json" -- hackbench -g 2 -l 20 >"$tmp/rt.b" 2>&1
	cmp -s "$tmp/rt.a" "$tmp/rt.b" || bad="$bad 'run' output"
	strip_wall "$tmp/rt.a.json" >"$tmp/rt.a"
	strip_wall "$tmp/rt.b.json" >"$tmp/rt.b"
	cmp -s "$tmp/rt.a" "$tmp/rt.b" || bad="$bad 'run --json'"
	if [ -z "$bad" ]; then
		ok "round trip $1"
	else
		not_ok "round trip $1" "the exported file differs in:$bad"
	fi
}

for m in $(schedlab machines | awk '{ print $1 }') 'synthetic:pack:2 numa:2 l3:2 core:3 pu:2'; do
	round_trip "$m"
done

# the preset's file, as --export writes it (also the documented example)
golden machines-export-smt2-2s-16 schedlab machines --export smt2-2s-16
golden machines-export-pixel6 schedlab machines --export pixel6 -o -
expect_exit 2 "machines: -o goes with --export" schedlab machines -o x.machine
expect_exit 2 "unknown machine 'nosuch'" schedlab machines --export nosuch

# a file is read wherever -m is: ab as well as run and topo
schedlab machines --export smp4 -o "$tmp/smp4.machine"
expect_exit 0 "" schedlab ab -m "$tmp/smp4.machine" --test NO_TTWU_QUEUE -- hackbench -g 1 -l 5

# bad files: exit 2, one line naming the file and line
mf() {
	printf '%s\n' "$@" >"$tmp/bad.machine"
}
base='[machine]
name = t
[topology]
shape = core:2
[class.0]
capacity = 1024
opps_khz = 2000000
[idle.0]
name = WFI
exit_latency_ns = 1000
target_residency_ns = 1000
polls = no'
mf "$base"
expect_exit 0 "" schedlab topo -m "$tmp/bad.machine"
mf "$base" "color = red"
expect_exit 2 "bad.machine:13: unknown key 'color' in [idle.0]" schedlab topo -m "$tmp/bad.machine"
mf "$base" "[costs]" "ipi_send = 12x"
expect_exit 2 "bad.machine:14: cost parameter 'ipi_send': bad value '12x'" schedlab topo -m "$tmp/bad.machine"
mf "$base" "[costs]" "no_such_cost = 1"
expect_exit 2 "bad.machine:14: unknown cost parameter 'no_such_cost'" schedlab topo -m "$tmp/bad.machine"
mf "$base" "[gpu]"
expect_exit 2 "bad.machine:13: unknown section [gpu]" schedlab topo -m "$tmp/bad.machine"
mf "name = x"
expect_exit 2 "bad.machine:1: 'name' before any [section]" schedlab topo -m "$tmp/bad.machine"
mf "[machine]" "name"
expect_exit 2 "bad.machine:2: 'name': expected 'name = value' or '[section]'" schedlab topo -m "$tmp/bad.machine"
mf "[topology]" "shape = pack:2 core:8192"
expect_exit 2 "bad.machine:2: shape: more than 8192 CPUs" schedlab topo -m "$tmp/bad.machine"
mf "[topology]" "nr_cpus = 9000"
expect_exit 2 "bad.machine:2: nr_cpus: 9000 is out of range (1..8192)" schedlab topo -m "$tmp/bad.machine"
mf "[machine]" "hz = 99999999999999999999999"
expect_exit 2 "bad.machine:2: hz: 99999999999999999999999 is out of range (1..10000)" schedlab topo -m "$tmp/bad.machine"
# an impossible shape: a core split across two LLCs
mf "$base" "[topology]" "nr_cpus = 2" "cpu.0 = 0 0 0 0 0" "cpu.1 = 0 0 1 1 0"
expect_exit 2 "bad.machine:14: nr_cpus: the CPUs are already given" schedlab topo -m "$tmp/bad.machine"
printf '%s\n' "$base" | sed 's/^shape = core:2$/nr_cpus = 2\ncpu.0 = 0 0 0 0 0\ncpu.1 = 0 0 1 1 0/' >"$tmp/split.machine"
expect_exit 2 "split.machine: machine 't': core 0" schedlab topo -m "$tmp/split.machine"
printf '%s\n' "$base" | sed 's/^shape = core:2$/nr_cpus = 2\ncpu.0 = 0 0 0 0 0/' >"$tmp/short.machine"
expect_exit 2 "short.machine:4: nr_cpus is 2 but cpu.1 is not given" schedlab topo -m "$tmp/short.machine"
printf '%s\n' "$base" | sed '/^\[idle.0\]/,$d' >"$tmp/noidle.machine"
expect_exit 2 "noidle.machine: no [idle.0]" schedlab topo -m "$tmp/noidle.machine"
# the energy model: one figure per OPP, every class or none, idle power for existing states
embase=$(printf '%s\n' "$base" | sed 's/^opps_khz = 2000000$/opps_khz = 1000000 2000000/')
mf "$(printf '%s\n' "$embase" | sed 's/^opps_khz = .*/&\nem_power_uw = 100000 300000/')"
expect_exit 0 "" schedlab topo -m "$tmp/bad.machine"
mf "$(printf '%s\n' "$embase" | sed 's/^opps_khz = .*/&\nem_power_uw = 100000/')"
expect_exit 2 "bad.machine:8: em_power_uw: 1 figures for 2 OPPs" schedlab topo -m "$tmp/bad.machine"
mf "$(printf '%s\n' "$embase" | sed 's/^opps_khz = .*/&\nem_power_uw = 0 300000/')"
expect_exit 2 "bad.machine:8: em_power_uw: 0 is out of range (1..64000000)" schedlab topo -m "$tmp/bad.machine"
mf "$(printf '%s\n' "$embase" | sed 's/^opps_khz = .*/&\nem_power_uw = 1 2\nidle_power_uw.3 = 0 0/')"
expect_exit 2 "bad.machine:9: idle_power_uw.3: there is no [idle.3]" schedlab topo -m "$tmp/bad.machine"
mf "$embase" "[energy]" "source = nowhere"
expect_exit 2 "bad.machine:13: [energy] without em_power_uw in the classes" schedlab topo -m "$tmp/bad.machine"
expect_exit 2 "$tmp/none.machine: No such file or directory" schedlab run -m "$tmp/none.machine" -- hackbench -l 5
expect_exit 2 "./nodir/x: No such file or directory" schedlab topo -m ./nodir/x

# hwloc XML: the synthetic fixture is the synthetic machine
in_root() {
	(cd "$root" && "$@")
}
in_root schedlab topo -m tests/hwloc/pack2-numa1-l3-core4-pu2.xml --domains >"$tmp/hw.a" 2>&1
schedlab topo -m 'synthetic:pack:2 l3:1 core:4 pu:2' --domains >"$tmp/hw.b" 2>&1
if cmp -s "$tmp/hw.a" "$tmp/hw.b"; then
	ok "hwloc XML of lstopo's 'pack:2 numa:1 l3:1 core:4 pu:2' = synthetic:pack:2 l3:1 core:4 pu:2"
else
	not_ok "hwloc XML import" "topo --domains differs from the synthetic machine's:" \
		"$(diff "$tmp/hw.b" "$tmp/hw.a" | head -20)"
fi
golden topo-hwloc-one-node in_root schedlab topo -m hwloc:tests/hwloc/pack2-l3-core4-pu2.xml
golden topo-hwloc-kinds in_root schedlab topo -m tests/hwloc/pack2-l2-kinds-distances.xml
golden domains-hwloc-kinds-cpu0 in_root schedlab topo -m tests/hwloc/pack2-l2-kinds-distances.xml --domains --cpu 0
printf '<topology>\n' >"$tmp/bad.xml"
expect_exit 2 "bad.xml: hwloc cannot read it as topology XML" schedlab topo -m "$tmp/bad.xml"
expect_exit 2 "nosuch.xml: No such file or directory" schedlab topo -m hwloc:nosuch.xml
