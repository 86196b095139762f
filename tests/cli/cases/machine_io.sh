# shellcheck shell=sh
# Machines in and out: -m sysfs:DIR, topo --export-sysfs and --export-hwloc,
# their round trips for every preset, the acceptance machines of issue 21
# (lstopo's "pack:2 l3:2 core:4 pu:2" as XML, the 1024-CPU synthetic machine
# running hackbench); docs/machines.md, "sysfs trees", "Exporting a machine".
# Sourced by tests/cli/run.sh.

# What a sysfs or hwloc copy cannot carry, and what the comparisons
# therefore leave out (docs/machines.md lists the same):
#   both:  asym packing's levels and priorities ([asym_packing]; x86 keeps
#          ITMT priorities in debugfs) and a class's hardware speed,
#          the name, description and approximations (line 1 and the
#          Approximations line of `topo`), HZ, the cost model (`topo
#          --costs`) but sysfs's cache sizes, node_reclaim_distance
#          (the reference machine is the preset without it), cpufreq's
#          transition_delay_us, idle-state powers (not modelled anyway)
#   sysfs: the frequency and the driver of a machine without cpufreq
#          (power10-96: sysfs has no cpufreq directory, the reader assumes
#          2 GHz and an unnamed driver)
#   hwloc: the frequencies but the maximum (cpukinds' FrequencyMaxMHz), the
#          idle states (hwloc has none: the importer's POLL and C1) and the
#          cpufreq driver, span, transition latency and default governor

# norm_topo: `topo` output without what neither copy carries
norm_topo() {
	sed '1d; s/; HZ [0-9]*$//; /^  Approximations:/d'
}
# norm_freq: CPU classes by capacity and maximum frequency only, no idle
# states or cpufreq
norm_freq() {
	sed 's/\(capacity [0-9]*\), \([0-9.]*-\)\{0,1\}\([0-9.]*\) MHz.*/\1, \3 MHz/; /^  Idle states/d; /^  cpufreq:/d'
}

# Every preset's tree is some 10,000 small files: on tmpfs where there is
# one (seconds on a disk)
io=$(mktemp -d /dev/shm/schedlab-io.XXXXXX 2>/dev/null) || io=$tmp/io.d
mkdir -p "$io"

# norm_nofreq: CPU classes by capacity only, no cpufreq (a machine without it)
norm_nofreq() {
	sed 's/\(capacity [0-9]*\), .*/\1/; /^  cpufreq:/d'
}

# io_cpufreq: a machine file's cpufreq driver, span, transition latency and governor
io_cpufreq() {
	sed -n '/^\[cpufreq\]/,/^\[/p' | grep -E '^(driver|span|transition_latency_ns|governor) = '
}

# io_idle: a machine file's idle states
io_idle() {
	sed -n '/^\[idle\./,/^\[/p' | grep -E '^(name|exit_latency_ns|target_residency_ns|polls) = '
}

# io_round_trip MACHINE: export-sysfs and export-hwloc, read back, compare
io_round_trip() {
	m=$1
	bad=
	# the reference: MACHINE as a machine file without node_reclaim_distance,
	# asym packing and a class's hardware speed (neither copy carries them)
	schedlab machines --export "$m" | grep -v '^reclaim_distance = \|^speed = ' |
		sed '/^\[asym_packing\]/,/^$/d' >"$tmp/io.machine"
	rm -rf "$io/sysfs"
	if ! schedlab topo -m "$m" --export-sysfs "$io/sysfs" 2>"$tmp/io.err" ||
		! schedlab topo -m "$m" --export-hwloc "$tmp/io.xml" 2>>"$tmp/io.err"; then
		not_ok "machine I/O round trip $m" "export failed: $(cat "$tmp/io.err")"
		return
	fi
	schedlab topo -m "$tmp/io.machine" | norm_topo >"$tmp/io.a"
	schedlab topo -m "sysfs:$io/sysfs" | norm_topo >"$tmp/io.b"
	if [ ! -d "$io/sysfs/cpu/cpu0/cpufreq" ]; then
		norm_nofreq <"$tmp/io.a" >"$tmp/io.a2"
		norm_nofreq <"$tmp/io.b" >"$tmp/io.b2"
		mv "$tmp/io.a2" "$tmp/io.a"
		mv "$tmp/io.b2" "$tmp/io.b"
	fi
	cmp -s "$tmp/io.a" "$tmp/io.b" || bad="$bad sysfs:topo($(diff "$tmp/io.a" "$tmp/io.b" | sed -n 2p))"
	schedlab topo -m "$tmp/io.machine" --domains >"$tmp/io.a"
	schedlab topo -m "sysfs:$io/sysfs" --domains >"$tmp/io.b"
	cmp -s "$tmp/io.a" "$tmp/io.b" || bad="$bad sysfs:domains"
	# the idle states: names, latencies, whether each polls (from its desc)
	schedlab machines --export "$m" | io_idle >"$tmp/io.a"
	schedlab machines --export "sysfs:$io/sysfs" | io_idle >"$tmp/io.b"
	cmp -s "$tmp/io.a" "$tmp/io.b" || bad="$bad sysfs:idle($(diff "$tmp/io.a" "$tmp/io.b" | sed -n 2p))"
	# the footprint model's cache sizes: the L2 and the LLC's size files
	schedlab topo -m "$m" --costs | grep '^cache_' >"$tmp/io.a"
	schedlab topo -m "sysfs:$io/sysfs" --costs | grep '^cache_' >"$tmp/io.b"
	cmp -s "$tmp/io.a" "$tmp/io.b" || bad="$bad sysfs:caches($(tr '\n' ' ' <"$tmp/io.b"))"
	# which CPUs share the L2: the first CPU's shared_cpu_list gives l2_span back
	schedlab machines --export "$m" | grep '^l2_span' >"$tmp/io.a"
	schedlab machines --export "sysfs:$io/sysfs" | grep '^l2_span' >"$tmp/io.b"
	cmp -s "$tmp/io.a" "$tmp/io.b" || bad="$bad sysfs:l2_span($(cat "$tmp/io.b"))"
	# the cpufreq driver, policy span, transition latency and governor, where there is cpufreq
	if [ -d "$io/sysfs/cpu/cpu0/cpufreq" ]; then
		schedlab machines --export "$m" | io_cpufreq >"$tmp/io.a"
		schedlab machines --export "sysfs:$io/sysfs" | io_cpufreq >"$tmp/io.b"
		cmp -s "$tmp/io.a" "$tmp/io.b" || bad="$bad sysfs:cpufreq($(tr '\n' ' ' <"$tmp/io.b"))"
	fi
	schedlab topo -m "$tmp/io.machine" | norm_topo | norm_freq >"$tmp/io.a"
	schedlab topo -m "hwloc:$tmp/io.xml" | norm_topo | norm_freq >"$tmp/io.b"
	cmp -s "$tmp/io.a" "$tmp/io.b" || bad="$bad hwloc:topo($(diff "$tmp/io.a" "$tmp/io.b" | sed -n 2p))"
	schedlab topo -m "$tmp/io.machine" --domains >"$tmp/io.a"
	schedlab topo -m "hwloc:$tmp/io.xml" --domains >"$tmp/io.b"
	cmp -s "$tmp/io.a" "$tmp/io.b" || bad="$bad hwloc:domains"
	if [ -z "$bad" ]; then
		ok "machine I/O round trip $m (sysfs, hwloc)"
	else
		not_ok "machine I/O round trip $m" "differs:$bad"
	fi
}

for m in $(schedlab machines | awk '$1 != "host" { print $1 }') \
	'synthetic:pack:2 numa:2 l3:2 core:3 pu:2'; do
	io_round_trip "$m"
done

# an L2 shared by a cluster (l2_span = cluster) comes back from sysfs as the cluster
schedlab machines --export pixel6 | sed 's/^l2_span = .*/l2_span = cluster/' >"$tmp/l2c.machine"
rm -rf "$tmp/l2c"
schedlab topo -m "$tmp/l2c.machine" --export-sysfs "$tmp/l2c"
if [ "$(cat "$tmp/l2c/cpu/cpu0/cache/index0/shared_cpu_list")" = "0-3" ] &&
	schedlab machines --export "sysfs:$tmp/l2c" | grep -qx 'l2_span = cluster'; then
	ok "an L2 shared by a cluster round-trips through sysfs"
else
	not_ok "l2_span = cluster through sysfs" "$(schedlab machines --export "sysfs:$tmp/l2c" | grep l2_span)"
fi

# the kernel's formats: lists as %*pbl, masks as %*pb over nr_cpu_ids bits
rm -rf "$tmp/fmt"
schedlab topo -m xeon-8269cy-2s --export-sysfs "$tmp/fmt"
fmt_ok=
[ "$(cat "$tmp/fmt/cpu/cpu0/topology/core_cpus_list")" = "0,52" ] &&
	[ "$(cat "$tmp/fmt/cpu/cpu0/topology/package_cpus")" = "00,00003fff,fff00000,03ffffff" ] &&
	[ "$(cat "$tmp/fmt/node/node1/cpulist")" = "26-51,78-103" ] &&
	[ "$(cat "$tmp/fmt/node/node0/distance")" = "10 21" ] && fmt_ok=yes
if [ -n "$fmt_ok" ]; then
	ok "--export-sysfs writes lists and masks as the kernel prints them"
else
	not_ok "--export-sysfs formats" "$(cat "$tmp/fmt/cpu/cpu0/topology/core_cpus_list" \
		"$tmp/fmt/cpu/cpu0/topology/package_cpus" "$tmp/fmt/node/node1/cpulist" \
		"$tmp/fmt/node/node0/distance")"
fi

# the layouts -m sysfs:DIR takes: DIR/cpu (cp -r /sys/devices/system DIR),
# DIR/devices/system/cpu (a copy of /sys), DIR/sys/devices/system/cpu (a tar)
mkdir -p "$tmp/lay/devices/system" "$tmp/tar/sys/devices/system"
schedlab topo -m smt2-2s-16 --export-sysfs "$tmp/lay/devices/system/x"
mv "$tmp/lay/devices/system/x/cpu" "$tmp/lay/devices/system/x/node" "$tmp/lay/devices/system/"
rmdir "$tmp/lay/devices/system/x"
cp -r "$tmp/lay/devices/system/cpu" "$tmp/lay/devices/system/node" "$tmp/tar/sys/devices/system/"
schedlab topo -m "sysfs:$tmp/lay" --domains >"$tmp/lay.a" 2>&1
schedlab topo -m "sysfs:$tmp/tar" --domains >"$tmp/lay.b" 2>&1
schedlab topo -m smt2-2s-16 --domains >"$tmp/lay.c" 2>&1
if cmp -s "$tmp/lay.a" "$tmp/lay.c" && cmp -s "$tmp/lay.b" "$tmp/lay.c"; then
	ok "-m sysfs:DIR reads a /sys copy and an unpacked tar of sys/devices/system"
else
	not_ok "-m sysfs:DIR layouts" "$(head -3 "$tmp/lay.a" "$tmp/lay.b")"
fi
golden topo-sysfs-pixel6 sh -c "cd '$tmp' && rm -rf p6 && '$SCHEDLAB' topo -m pixel6 --export-sysfs p6 && '$SCHEDLAB' topo -m sysfs:p6"
# the XML is libhwloc's (its exact text depends on the hwloc version): look
# for the parts schedlab puts in
schedlab topo -m pixel6 --export-hwloc - >"$tmp/p6.xml"
schedlab topo -m xeon-8269cy-2s --export-hwloc - >"$tmp/xe.xml"
if grep -q '<info name="LinuxCapacity" value="160"/>' "$tmp/p6.xml" &&
	grep -q '<object type="L3Cache" .*cache_size="37486592"' "$tmp/xe.xml" &&
	grep -q '<u64values length="[0-9]*">10 21 21 10 *</u64values>' "$tmp/xe.xml" &&
	grep -q '<object type="PU" os_index="52" ' "$tmp/xe.xml"; then
	ok "--export-hwloc writes cpukinds, cache sizes, the SLIT and PU numbers"
else
	not_ok "--export-hwloc contents" "$(grep -c . "$tmp/p6.xml" "$tmp/xe.xml")"
fi

# bad trees: exit 2, one line naming the file and what is wrong; each case
# is the good tree of smt2-2s-16 (packages 0-3,8-11 and 4-7,12-15; SLIT
# 10/21) with one file changed
schedlab topo -m smt2-2s-16 --export-sysfs "$io/good"
b=$io/bad
bad_tree() {
	rm -rf "$b"
	cp -r "$io/good" "$b"
	printf '%s\n' "$2" >"$b/$1"
}
expect_exit 0 "" schedlab topo -m "sysfs:$io/good"
bad_tree cpu/cpu4/topology/package_cpus_list 0-7
expect_exit 2 "bad/cpu/cpu0/topology/package_cpus_list: 0-3,8-11, but cpu4's package is 0-7,12: a CPU in two packages" \
	schedlab topo -m "sysfs:$b"
bad_tree cpu/cpu1/topology/physical_package_id 1
expect_exit 2 "bad/cpu/cpu1/topology/physical_package_id: 1, but cpu0 (in the same package) has 0: a CPU in two packages" \
	schedlab topo -m "sysfs:$b"
bad_tree node/node0/distance '10 30'
expect_exit 2 "bad/node/node0/distance: distance 30 to node 1, but node1/distance has 21 back: distances are not symmetric" \
	schedlab topo -m "sysfs:$b"
bad_tree node/node1/distance '21 11 30'
expect_exit 2 "bad/node/node1/distance: '21 11 30' is not 2 distances, one per online node" \
	schedlab topo -m "sysfs:$b"
bad_tree node/node1/distance '21 12'
expect_exit 2 "bad/node/node1/distance: distance 12 to node 1 (must be 10 to itself)" \
	schedlab topo -m "sysfs:$b"
bad_tree cpu/cpu2/topology/core_cpus_list '2,x'
expect_exit 2 "bad/cpu/cpu2/topology/core_cpus_list: '2,x' is not a CPU list such as 0-3,8-11" \
	schedlab topo -m "sysfs:$b"
bad_tree cpu/cpu2/topology/core_cpus_list '2-3,10'
expect_exit 2 "bad/cpu/cpu2/topology/core_cpus_list: 2-3,10, but cpu3's core is 3,11: a CPU in two cores" \
	schedlab topo -m "sysfs:$b"
bad_tree node/node1/cpulist '0,4-7,12-15'
expect_exit 2 "bad/node/node1/cpulist: CPU 0 is in node0's cpulist too: a CPU in two nodes" \
	schedlab topo -m "sysfs:$b"
bad_tree cpu/online '0-15,x'
expect_exit 2 "bad/cpu/online: " schedlab topo -m "sysfs:$b"
bad_tree cpu/cpu3/cpufreq/cpuinfo_max_freq '-2000000'
expect_exit 2 "bad/cpu/cpu3/cpufreq/cpuinfo_max_freq: '-2000000' is not a non-negative decimal integer" \
	schedlab topo -m "sysfs:$b"
# missing files are fallbacks, noted, as for the host
bad_tree cpu/online 0-15
rm -rf "$b/node"
schedlab topo -m "sysfs:$b" >"$tmp/out" 2>&1
if grep -q "Approximations: no NUMA information: one node" "$tmp/out"; then
	ok "-m sysfs:DIR without node/: one node, noted"
else
	not_ok "-m sysfs:DIR without node/" "$(tail -2 "$tmp/out")"
fi
expect_exit 2 "nosuch: No such file or directory" schedlab topo -m "sysfs:$tmp/nosuch"
mkdir -p "$tmp/nocpu"
expect_exit 2 "nocpu: no cpu directory" schedlab topo -m "sysfs:$tmp/nocpu"
expect_exit 2 "machine_io.sh: not a directory" schedlab run -m "sysfs:$root/tests/cli/cases/machine_io.sh" -- hackbench -l 5

# export errors: exit 2, one line; a non-empty DIR is never written into
expect_exit 2 "--export-sysfs: '$io/good' is not empty" schedlab topo -m smp2 --export-sysfs "$io/good"
expect_exit 2 "--export-sysfs: cannot create directory '$tmp/no/such': No such file or directory" \
	schedlab topo -m smp2 --export-sysfs "$tmp/no/such"
expect_exit 2 "topo: cannot write '$tmp/no/such.xml'" schedlab topo -m smp2 --export-hwloc "$tmp/no/such.xml"
expect_exit 2 "topo: --export-sysfs and --export-hwloc write the machine" \
	schedlab topo -m smp2 --domains --export-hwloc -
expect_exit 2 "topo: --export-sysfs writes a directory of files: '-' (standard output) does not apply" \
	schedlab topo -m smp2 --export-sysfs -
mkdir -p "$tmp/empty"
expect_exit 0 "" schedlab topo -m smp2 --export-sysfs "$tmp/empty" --export-hwloc "$tmp/empty.xml"

# issue 21's acceptance: lstopo's "pack:2 l3:2 core:4 pu:2" as XML (the
# fixture; lstopo 2.9 wrote it) has one NUMA node over both packages, so its
# domains are SMT, MC (the L3, 8 CPUs), PKG (the package, 2 LLCs) and no NUMA
# level: those of the machine file with that shape and one node
in_root_io() {
	(cd "$root" && "$@")
}
in_root_io schedlab topo -m hwloc:tests/hwloc/pack2-2xl3-core4-pu2.xml --domains >"$tmp/acc.a" 2>&1
golden domains-hwloc-pack2-2xl3-cpu0 in_root_io schedlab topo -m hwloc:tests/hwloc/pack2-2xl3-core4-pu2.xml --domains --cpu 0
if command -v lstopo-no-graphics >/dev/null 2>&1; then
	lstopo-no-graphics --input "pack:2 l3:2 core:4 pu:2" --of xml "$tmp/lst.xml" >/dev/null 2>&1
	schedlab topo -m "hwloc:$tmp/lst.xml" --domains >"$tmp/acc.b" 2>&1
	if cmp -s "$tmp/acc.a" "$tmp/acc.b"; then
		ok "this host's lstopo writes what the fixture holds"
	else
		not_ok "lstopo's pack:2 l3:2 core:4 pu:2" "$(diff "$tmp/acc.a" "$tmp/acc.b" | head -5)"
	fi
	# and lstopo reads what --export-hwloc writes
	schedlab topo -m epyc-milan-2s-256 --export-hwloc "$tmp/ep.xml"
	if lstopo-no-graphics --input "$tmp/ep.xml" --of synthetic 2>"$tmp/lst.err" >"$tmp/lst.out" &&
		grep -qF "Package:2 [NUMANode] L3Cache:8(size=33554432) L2Cache:8(size=524288) Core:1 PU:2" "$tmp/lst.out"; then
		ok "lstopo reads --export-hwloc's XML"
	else
		not_ok "lstopo --input on --export-hwloc's XML" "$(cat "$tmp/lst.out" "$tmp/lst.err")"
	fi
fi
# the 1024-CPU synthetic machine runs hackbench with its defaults (10
# groups of 20 tasks; half a second here)
schedlab run -m 'synthetic:pack:4 l3:16 core:8 pu:2' --json "$tmp/hb1024.json" -- hackbench >"$tmp/out" 2>&1
if grep -q '^Time: [0-9.]*$' "$tmp/out" && grep -q '"cpus": 1024,' "$tmp/hb1024.json"; then
	ok "hackbench runs on synthetic:pack:4 l3:16 core:8 pu:2 (1024 CPUs)"
else
	not_ok "hackbench on the 1024-CPU synthetic machine" "$(tail -3 "$tmp/out")"
fi
rm -rf "$io"
