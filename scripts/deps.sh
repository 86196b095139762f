#!/bin/sh
# Installs what schedlab needs to build and test on Debian (12+):
# a C17 compiler, GNU make, pkg-config, json-c (rt-app's JSON reader, for
# `rt-app FILE.json`), hwloc (libhwloc-dev: -m hwloc:FILE.xml reads
# hwloc's XML with it; hwloc-nox: lstopo, with which the tests check that
# hwloc reads what `topo --export-hwloc` writes), zlib (zlib1g-dev: -m host
# reads the running kernel's /proc/config.gz with it), cmocka for the unit tests, gnuplot (no X) to
# render --plot's pictures, and clang with its libFuzzer and sanitizer
# runtime for the fuzz targets (make fuzz, make fuzz-regress;
# docs/reliability.md), GNU parallel for sweep's parallel path
# (docs/sweeps.md), xmllint (libxml2-utils), with which the tests check
# that --plot's SVGs are well-formed XML, groff-base (man, to check the man
# pages render) and bash (to check the bash completion); and the real
# benchmarks `schedlab validate` runs beside their simulation: perf
# (linux-perf: perf stat, perf bench sched), hackbench (rt-tests) and
# stress-ng (docs/calibration.md); GNU time, for the CPU time of each case
# of bench/idle-balance-cells.sh.
#
#   sh scripts/deps.sh          the packages above
#   sh scripts/deps.sh slurm    also Slurm and munge, for tests/sweep/slurm.sh
#                               (a single-node cluster on this machine)
set -e
pkgs="gcc make pkg-config libcmocka-dev libjson-c-dev libhwloc-dev zlib1g-dev hwloc-nox gnuplot-nox procps clang parallel libxml2-utils groff-base bash linux-perf rt-tests stress-ng time"
for group in "$@"; do
	case $group in
	slurm) pkgs="$pkgs slurm-wlm munge" ;;
	*)
		echo "deps.sh: unknown group '$group' (slurm)" >&2
		exit 2
		;;
	esac
done
if [ "$(id -u)" -eq 0 ]; then
	sudo=
else
	sudo=sudo
fi
missing() {
	m=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || m="$m $p"
	done
	echo "$m"
}
updated=
install() {
	export DEBIAN_FRONTEND=noninteractive
	[ -n "$updated" ] || $sudo apt-get update -qq
	updated=1
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq "$@"
}
m=$(missing $pkgs)
# shellcheck disable=SC2086
[ -z "$m" ] || install $m
# -fsanitize=fuzzer needs the compiler-rt of clang's own version
# (libclang-rt-14-dev on Debian 12), only recommended by the clang package
v=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
m=$(missing "libclang-rt-$v-dev")
# shellcheck disable=SC2086
[ -z "$m" ] || install $m
