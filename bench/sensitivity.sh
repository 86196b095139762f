#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/sensitivity.sh - how much the hardware model's parameters move the
# two figures issue 11 asks about: the wakelist before/after ratio
# (hackbench -g 1 on xeon-8269cy-2s, NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1
# against the defaults) and POWER10's hackbench -g 10 time (power10-96).
# Each parameter is set to 50% and 150% of the preset's own value (read with
# `schedlab topo -m M --costs`), one at a time; the table is markdown and
# docs/fidelity.md holds its output.
#
#   sh bench/sensitivity.sh [--quick] [SCHEDLAB] [PARAM...]
#
# Loop counts: the wakelist runs use -l 10000 and POWER10 -l 1000 (x50 for
# the -l 50000 figure); --quick uses -l 2000 and -l 200. hackbench's time is
# linear in its loop count (docs/fidelity.md). Runs are deterministic
# (--seed 1); at most two run at once.
set -u

QUICK=0
SL=./schedlab
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1; shift ;;
	-h|--help)
		echo "usage: sh bench/sensitivity.sh [--quick] [SCHEDLAB] [PARAM...]"
		exit 0 ;;
	-*)
		echo "sensitivity.sh: unknown option '$1'" >&2
		exit 2 ;;
	*)
		if [ -x "$1" ] && [ ! -d "$1" ]; then SL=$1; shift; fi
		break ;;
	esac
done
if [ ! -x "$SL" ]; then
	echo "sensitivity.sh: '$SL' is not an executable schedlab (build with make)" >&2
	exit 2
fi

# The parameters issue 11 added (their docs: docs/cost-model.md), the line
# transfer costs they are priced with, and the L1 in front of the private
# cache (issue 23). smt_speed.2 at 150% is capped at
# 1000 (a thread cannot run faster than alone).
PARAMS=${*:-"cacheline.smt cacheline.llc cacheline.package cacheline.numa llc_hit mem_latency mem_remote_latency line_mlp cache_l2_kb cache_llc_kb cache_l1_kb l1_refill smt_speed.2 schedule pick_next skb_alloc skb_queue skb_unlink skb_free wake_walk idle_enter idle_exit"}

if [ "$QUICK" = 1 ]; then WL=2000; P10=200; else WL=10000; P10=1000; fi
WLX=$((100000 / WL))
P10X=$((50000 / P10))
BEFORE=NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# value of @2 on machine @1 ("" if the machine does not have it)
value() {
	"$SL" topo -m "$1" --costs | sed -n "s/^$2=//p"
}

# time printed by a hackbench run: $1 output file
htime() {
	sed -n 's/^Time: //p' "$1"
}

# one job per line: KEY MACHINE COST FEATURES LOOPS GROUPS
jobs="$tmp/jobs"
: >"$jobs"
add() {
	echo "$1 $2 ${3:--} ${4:--} $5 $6" >>"$jobs"
}
add base-wb xeon-8269cy-2s - "$BEFORE" "$WL" 1
add base-wa xeon-8269cy-2s - - "$WL" 1
add base-p10 power10-96 - - "$P10" 10
for p in $PARAMS; do
	xv=$(value xeon-8269cy-2s "$p")
	pv=$(value power10-96 "$p")
	if [ -z "$xv" ] || [ -z "$pv" ]; then
		echo "sensitivity.sh: no cost parameter '$p' (see 'schedlab topo -m M --costs')" >&2
		exit 2
	fi
	for f in 50 150; do
		x=$((xv * f / 100))
		y=$((pv * f / 100))
		case $p in smt_speed.*)
			[ "$x" -gt 1000 ] && x=1000
			[ "$y" -gt 1000 ] && y=1000 ;;
		esac
		add "$p-$f-wb" xeon-8269cy-2s "$p=$x" "$BEFORE" "$WL" 1
		add "$p-$f-wa" xeon-8269cy-2s "$p=$x" - "$WL" 1
		add "$p-$f-p10" power10-96 "$p=$y" - "$P10" 10
	done
done

# shellcheck disable=SC2016
xargs -P 2 -L 1 sh -c '
	key=$1 m=$2 cost=$3 feat=$4 l=$5 g=$6
	set -- run -m "$m" --seed 1
	[ "$cost" != - ] && set -- "$@" --cost "$cost"
	[ "$feat" != - ] && set -- "$@" --features "$feat"
	"$0" "$@" -- hackbench -g "$g" -l "$l" >"'"$tmp"'/$key.out" 2>&1 ||
		echo "sensitivity.sh: $key failed" >&2
' "$SL" <"$jobs"

ratio() {
	b=$(htime "$tmp/$1-wb.out")
	a=$(htime "$tmp/$1-wa.out")
	awk -v b="$b" -v a="$a" 'BEGIN { if (a > 0) printf "%.3f", b / a; else printf "-" }'
}

p10() {
	awk -v t="$(htime "$tmp/$1-p10.out")" -v x="$P10X" 'BEGIN { printf "%.2f", t * x }'
}

echo "Wakelist ratio: hackbench -g 1 -l $WL on xeon-8269cy-2s, before ($BEFORE) / after"
echo "(the defaults); published 1.442. POWER10: hackbench -g 10 -l $P10 on power10-96, time x$P10X"
echo "(the -l 50000 figure); published 11.70 s. Each parameter at 50% and 150% of the preset's"
echo "value, the others unchanged; --seed 1."
echo
echo "| parameter | xeon value | wakelist ratio at 50% | at 150% | power10 value | POWER10 time (s) at 50% | at 150% |"
echo "|---|---:|---:|---:|---:|---:|---:|"
echo "| (the defaults) | | $(ratio base) | | | $(p10 base) | |"
for p in $PARAMS; do
	echo "| \`$p\` | $(value xeon-8269cy-2s "$p") | $(ratio "$p-50") | $(ratio "$p-150") |" \
		"$(value power10-96 "$p") | $(p10 "$p-50") | $(p10 "$p-150") |"
done
echo
echo "(wakelist times x$WLX give the -l 100000 figures.)"
