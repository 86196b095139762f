#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/fidelity.sh - the fidelity scoreboard (issue 11): every published
# figure schedlab is compared with, the schedlab command that measures it,
# and whether the two agree.  Prints a markdown table; docs/fidelity.md
# holds its output and explains each row.
#
#   sh bench/fidelity.sh [--quick] [--only GROUP[,GROUP...]] [SCHEDLAB]   (SCHEDLAB: ./schedlab)
#
# --only measures and prints only the rows of the groups named: wakelist,
# power10-hackbench, swb (the should_we_balance() rows, raw and with
# --probe-overhead on), stress-ng, sm-idle, runnable-boost, anon-vma (AIM7's
# fork_test when the anon_vma lock became an rwsem), next-buddy (v6.19's
# wakeup preemption against its posting's hackbench and schbench).  make doc-check
# checks docs/fidelity.md's sm-idle and runnable-boost rows this way.
#
# On a terminal, stderr shows which measurement runs, the time so far and an
# estimate of the time left (from each measurement's share of a full run on
# a 2-core VM, scaled by the pace so far).
#
# Every run is deterministic: fixed seeds (run: --seed 1; ab: seeds 1..N).
# At most two simulations run at once (two `run`s in parallel, or one
# `ab -j 2`).  --quick divides the loop counts of the hackbench runs by 10
# and multiplies their times by 10 (hackbench time is linear in loops);
# every other figure is measured at full size in both forms.
#
# Agreement rule (documented in docs/fidelity.md):
#  - before/after figures: R = before/after (times) or the saving per call
#    (funclatency).  Agree when the effect (R - 1, or the saving) has the
#    published sign and is within 25% of the published effect's size.  When
#    the published change is under 2% (the authors' "no difference"),
#    agree when schedlab's change is under 2% too.
#  - absolute figures: agree when schedlab is within 25% of the published value.

# SC2016: the backquotes in the table's printf formats are markdown.
# SC2154: hb_p, hb_p_b, ... are set through eval.
# shellcheck disable=SC2016,SC2154
set -u

QUICK=0
ONLY=
SL=./schedlab
FGROUPS="wakelist power10-hackbench swb stress-ng sm-idle runnable-boost anon-vma next-buddy"
USAGE="usage: sh bench/fidelity.sh [--quick] [--only GROUP[,GROUP...]] [SCHEDLAB]
groups: $FGROUPS"
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--only)
		ONLY=$(echo "${2:-}" | tr ',' ' ')
		[ -n "$ONLY" ] || { echo "fidelity.sh: --only needs groups: $FGROUPS" >&2; exit 2; }
		for g in $ONLY; do
			case " $FGROUPS " in
			*" $g "*) ;;
			*)
				echo "fidelity.sh: --only: unknown group '$g' ($FGROUPS)" >&2
				exit 2 ;;
			esac
		done
		shift ;;
	-h|--help)
		echo "$USAGE"
		exit 0 ;;
	-*)
		echo "fidelity.sh: unknown option '$1'" >&2
		echo "$USAGE" >&2
		exit 2 ;;
	*) SL=$1 ;;
	esac
	shift
done
if [ ! -x "$SL" ]; then
	echo "fidelity.sh: '$SL' is not an executable schedlab (build with make)" >&2
	exit 2
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/fidelity.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

# want GROUP: is GROUP measured and printed?
want() {
	[ -z "$ONLY" ] && return 0
	case " $ONLY " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# Progress on a terminal: step WHAT SECONDS before each measurement, SECONDS
# its share of a full-size run on the 2-core VM (a tenth of it for the
# hackbench ones under --quick); the estimate of the time left scales the
# shares still to come by the pace of those done.
PROGRESS=0
[ -t 2 ] && PROGRESS=1
P_START=$(date +%s)
P_DONE=0
P_TOTAL=0
P_N=0
P_I=0
plan() { # plan GROUP SECONDS...: add a group's measurements to the total
	want "$1" || return 0
	shift
	for w in "$@"; do
		P_TOTAL=$((P_TOTAL + w))
		P_N=$((P_N + 1))
	done
}
step() { # step WHAT SECONDS
	P_I=$((P_I + 1))
	if [ "$PROGRESS" = 1 ]; then
		el=$(($(date +%s) - P_START))
		if [ "$P_DONE" -gt 0 ] && [ "$el" -gt 0 ]; then
			left=$(((P_TOTAL - P_DONE) * el / P_DONE))
		else
			left=$P_TOTAL
		fi
		printf '\r[fidelity] %d of %d: %s | %d s | ETA %d s\033[K' "$P_I" "$P_N" "$1" "$el" "$left" >&2
	fi
	P_DONE=$((P_DONE + $2))
}
progress_end() {
	[ "$PROGRESS" = 1 ] && printf '\r\033[K' >&2
	return 0
}

if [ "$QUICK" = 1 ]; then
	SCALE=10
else
	SCALE=1
fi
WL_LOOPS=$((100000 / SCALE))
HB_LOOPS=$((50000 / SCALE))

die() {
	echo "fidelity.sh: $*" >&2
	exit 1
}

# runpair OUT1 OUT2 "ARGS1" "ARGS2": two `schedlab run`s at once.
# ARGS are split at blanks (no argument here holds one).
runpair() {
	# shellcheck disable=SC2086
	"$SL" run --seed 1 $3 >"$T/$1" 2>"$T/$1.err" &
	p1=$!
	if [ -n "$4" ]; then
		# shellcheck disable=SC2086
		"$SL" run --seed 1 $4 >"$T/$2" 2>"$T/$2.err" &
		p2=$!
		if ! wait "$p2"; then
			kill "$p1" 2>/dev/null
			wait "$p1"
			die "schedlab run $4 failed: $(cat "$T/$2.err")"
		fi
	fi
	wait "$p1" || die "schedlab run $3 failed: $(cat "$T/$1.err")"
}

# hbtime OUT: hackbench's "Time: S" (times SCALE for a --quick run)
hbtime() {
	awk -v s="$SCALE" '/^Time:/ { printf "%.3f", $2 * s; f = 1 }
		END { if (!f) exit 1 }' "$T/$1" || die "no Time: line in $1"
}

# means AB_OUT METRIC OUT: METRIC's row of the ab table in $T/AB_OUT, as
# "base test verdict CI" in $T/OUT.means
means() {
	awk -v m="$2" '$1 == m {
		b = $2; i = 3; if ($i == "\302\261") i += 2
		ci = ""; if (match($0, /\[[^]]*\]/)) ci = substr($0, RSTART, RLENGTH)
		gsub(/ /, "", ci)
		print b, $i, $NF, ci; f = 1 }
		END { if (!f) exit 1 }' "$T/$1" >"$T/$3.means" ||
		die "no $2 row in ab output $1"
}

# ab OUT METRIC RUNS ARGS...: one `schedlab ab -j 2`, means of METRIC in
# $T/OUT.means as "base test"
ab() {
	out=$1 metric=$2 runs=$3
	shift 3
	"$SL" ab --runs "$runs" --seed 1 -j 2 --metric "$metric" "$@" \
		>"$T/$out" 2>"$T/$out.err" || die "schedlab ab $* failed: $(cat "$T/$out.err")"
	means "$out" "$metric" "$out"
}

# Table rows.  verdict PUB_BEFORE PUB_AFTER SL_BEFORE SL_AFTER KIND
# KIND "time": R = before/after; "saving": the saving per call in ns.
verdict() {
	awk -v pb="$1" -v pa="$2" -v sb="$3" -v sa="$4" -v k="$5" 'BEGIN {
		pc = (pa - pb) / pb; sc = (sa - sb) / sb
		if (k == "time") { pe = pb / pa - 1; se = sb / sa - 1 }
		else { pe = pb - pa; se = sb - sa }
		if (pc < 0.02 && pc > -0.02) {
			ok = (sc < 0.02 && sc > -0.02)
		} else {
			d = se - pe; if (d < 0) d = -d
			a = pe; if (a < 0) a = -a
			ok = (pe * se > 0 && d <= 0.25 * a)
		}
		print ok ? "agrees" : "**differs**" }'
}

# row_ab FIGURE SOURCE PUB_B PUB_A SL_B SL_A UNIT KIND COMMAND [SL_UNIT [AB_OUT]]
# (AB_OUT: the ab run the schedlab figures come from, for its CI and verdict)
row_ab() {
	v=$(verdict "$3" "$4" "$5" "$6" "$8")
	ci=""
	if [ -n "${11:-}" ]; then
		# an ab row: its 95% CI of the change, and whether it holds 0
		ci=", schedlab change 95% CI $(m "${11}" 4)"
		if [ "$(m "${11}" 3)" = "~" ] && [ "$v" = agrees ]; then
			v="mean agrees, but the 95% CI holds 0"
		fi
	fi
	cmp=$(awk -v pb="$3" -v pa="$4" -v sb="$5" -v sa="$6" -v k="$8" 'BEGIN {
		if (k == "time")
			printf "before/after %.3f vs %.3f", sb / sa, pb / pa
		else
			printf "saving %.1f ns vs %.1f ns (%+.1f%% vs %+.1f%%)", sb - sa, pb - pa,
				(sa - sb) * 100 / sb, (pa - pb) * 100 / pb }')
	pub=$(awk -v b="$3" -v a="$4" -v u="$7" -v k="$8" 'BEGIN {
		printf "%s -> %s", b, a; if (u != "") printf " %s", u
		if (k == "time") printf " (%.3f)", b / a }')
	sl=$(awk -v b="$5" -v a="$6" -v u="${10:-$7}" -v k="$8" 'BEGIN {
		printf "%s -> %s", b, a; if (u != "") printf " %s", u
		if (k == "time") printf " (%.3f)", b / a }')
	printf '| %s | %s | %s | %s | %s%s | %s | `%s` |\n' "$1" "$2" "$pub" "$sl" "$cmp" "$ci" "$v" "$9"
}

# row_abs FIGURE SOURCE PUB SL UNIT COMMAND
row_abs() {
	r=$(awk -v p="$3" -v s="$4" 'BEGIN { printf "%.2fx", s / p }')
	v=$(awk -v p="$3" -v s="$4" 'BEGIN { d = s / p - 1; if (d < 0) d = -d
		print (d <= 0.25) ? "agrees" : "**differs**" }')
	printf '| %s | %s | %s %s | %s %s | schedlab/published %s | %s | `%s` |\n' \
		"$1" "$2" "$3" "$5" "$4" "$5" "$r" "$v" "$6"
}

wlnote="" hbnote=""
if [ "$QUICK" = 1 ]; then
	wlnote=" (--quick: -l $WL_LOOPS, time x$SCALE)"
	hbnote=" (--quick: -l $HB_LOOPS, time x$SCALE)"
fi

# ---- measurements ---------------------------------------------------------

plan wakelist $((100 / SCALE))
plan power10-hackbench $((30 / SCALE)) $((30 / SCALE)) $((25 / SCALE)) $((25 / SCALE))
plan swb 6 6 6 6 6 6 6 6 6 6
plan stress-ng 10 12 15 25
plan sm-idle 1 1
plan runnable-boost 20
plan anon-vma 50 50
plan next-buddy 8 8 25 40 35 55 25

if want wakelist; then
# 1. wakelist (f3dd3f674555 + 28156108fecb) on the Xeon: before and after.
WL="-m xeon-8269cy-2s"
WLB="--features NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1"
step "wakelist, hackbench -g 1 -l $WL_LOOPS on xeon-8269cy-2s" $((100 / SCALE))
runpair wl_b wl_a "$WL $WLB -- hackbench -g 1 -l $WL_LOOPS" "$WL -- hackbench -g 1 -l $WL_LOOPS"
wl_b=$(hbtime wl_b) || exit 1
wl_a=$(hbtime wl_a) || exit 1
fi

if want power10-hackbench; then
# 2. POWER10 hackbench, 10 groups, 50000 loops (f8858d96061f's table):
# without (NO_SWB_SMT_SKIP) and with the patch.  Sets hb_p, hb_p_b, ...
HB="-m power10-96 -- hackbench -g 10 -l $HB_LOOPS"
HBB="-m power10-96 --features NO_SWB_SMT_SKIP -- hackbench -g 10 -l $HB_LOOPS"
step "POWER10 hackbench, process" $((30 / SCALE))
runpair hb_p hb_p_b "$HB" "$HBB"
step "POWER10 hackbench, thread" $((30 / SCALE))
runpair hb_t hb_t_b "$HB -T" "$HBB -T"
step "POWER10 hackbench, process, pipe" $((25 / SCALE))
runpair hb_pp hb_pp_b "$HB -p" "$HBB -p"
step "POWER10 hackbench, thread, pipe" $((25 / SCALE))
runpair hb_tp hb_tp_b "$HB -T -p" "$HBB -T -p"
for v in hb_p hb_t hb_pp hb_tp; do
	eval "$v=\$(hbtime $v)" || exit 1
	eval "${v}_b=\$(hbtime ${v}_b)" || exit 1
done
fi

if want swb; then
# 3. should_we_balance() per call on POWER10 (f8858d96061f), as the swb-smt
# study: 3 runs, 10 s; one 10% worker stands for the idle system.
swb() {
	step "should_we_balance, stress-ng --cpu $2 -l $3" 6
	ab "$1" funclat.should_we_balance_avg_ns 3 -m power10-96 --base NO_SWB_SMT_SKIP \
		--test '' --funclatency should_we_balance -- stress-ng --cpu "$2" -l "$3" --timeout 10
}
swb swb_idle 1 10
swb swb_12 12 100
swb swb_24 24 100
swb swb_48 48 100
swb swb_96 96 100
swb swb_96_15 96 15
swb swb_96_25 96 25
swb swb_96_35 96 35
# ... and as bcc saw it: with the probes' cost (--probe-overhead on), for the
# absolute figures (docs/observability.md)
swbp() {
	step "should_we_balance with probe overhead, stress-ng --cpu $2 -l $3" 6
	ab "$1" funclat.should_we_balance_probed_ns 3 -m power10-96 --base NO_SWB_SMT_SKIP \
		--test '' --probe-overhead on --funclatency should_we_balance \
		-- stress-ng --cpu "$2" -l "$3" --timeout 10
}
swbp swbp_idle 1 10
swbp swbp_12 12 100
fi

if want stress-ng; then
# 4. stress-ng time taken with 100000 cpu ops on POWER10 (f8858d96061f),
# 10 runs as the authors' 10 iterations.
sng() {
	step "stress-ng --cpu $2 --cpu-ops 100000 on power10-96" "$3"
	ab "$1" time_s 10 -m power10-96 --base NO_SWB_SMT_SKIP --test '' \
		-- stress-ng --cpu "$2" -l 100 --cpu-ops 100000
}
sng sng_96 96 10
sng sng_48 48 12
sng sng_24 24 15
sng sng_12 12 25
fi

if want sm-idle; then
# 5. SM_IDLE (3dcac251b066): ipistorm, 5 runs as the sm-idle study, which
# pins performance (the commit names no governor; the EPYC boots schedutil).
IPI="ipistorm numipi=100000 single=1 offset=8 cpulist=8 wait=1"
step "SM_IDLE, ipistorm on icelake-2s-128" 1
# shellcheck disable=SC2086
ab smi_icx time_s 5 -m icelake-2s-128 --cpufreq performance --base NO_SM_IDLE --test '' -- $IPI
step "SM_IDLE, ipistorm on epyc-milan-2s-256" 1
# shellcheck disable=SC2086
ab smi_epyc time_s 5 -m epyc-milan-2s-256 --cpufreq performance --base NO_SM_IDLE --test '' -- $IPI

fi

if want runnable-boost; then
# 6. runnable boost (7d0583cf9ec7) on the 2-socket Altra under cppc_cpufreq +
# schedutil, its platform's default (docs/machines.md): the runnable-boost
# study's Altra row, 30 runs a side (seeds 1-30) as the study runs it, so the
# row and the study give one figure (the author ran perf stat --repeat 10).
step "runnable boost, perf bench sched messaging on altra-2s-160, schedutil" 20
ab rb time_s 30 -m altra-2s-160 --cpufreq schedutil --base NO_UTIL_RUNNABLE_BOOST --test '' \
	-- perf bench sched messaging -t -g 1 -l 2000
fi
if want anon-vma; then
# 7. the anon_vma lock as an rwsem (5a505085f043, v3.8) and writer lock
# stealing (ce6711f3d196, v3.9): AIM7 fork_test, as the anon-vma-rwsem study,
# at its pinned performance governor (the Westmere-EX preset boots schedutil),
# with the study's variants: the 3.8 locks, v3.x's menu multiplier and newidle
# balance without v3.17's overload check, and the wakeup and avg_idle of 3.x
# (the waker spins on an on-CPU wakee, no idle wakelist, v3.12's avg_idle).
AVB=NO_NEWIDLE_COST,NEWIDLE_MIGRATION_COST_BAILOUT,NO_RWSEM_SPIN_ON_OWNER,NO_I_MMAP_RWSEM,NO_I_RWSEM,NO_MUTEX_HANDOFF,NO_RWSEM_HANDOFF,NO_RWSEM_WAKE_ALL_READERS,NO_MUTEX_OSQ,MENU_LOAD_MULT,MENU_IOWAIT_MULT,NO_CPU_LOAD_RUNNABLE_AVG,NO_NEWIDLE_OVERLOAD_CHECK,NO_AVG_IDLE_AVG_FIRST,NO_TTWU_QUEUE_ON_CPU,NO_TTWU_QUEUE_IDLE
AVW="taskset -c 0-39,80-119 reaim -s 400 -e 400 -j 20 -f workfile.fork_test"
step "anon_vma mutex -> rwsem, AIM7 fork_test on westmere-ex-8s-160" 50
# shellcheck disable=SC2086
ab av38 parent_time_s 3 -m westmere-ex-8s-160 --cpufreq performance --base "$AVB,NO_ANON_VMA_RWSEM,NO_RWSEM_WRITER_STEAL" \
	--test "$AVB,NO_RWSEM_WRITER_STEAL" -- $AVW
step "anon_vma mutex -> rwsem with writer lock stealing, AIM7 fork_test" 50
# shellcheck disable=SC2086
ab av39 parent_time_s 3 -m westmere-ex-8s-160 --cpufreq performance --base "$AVB,NO_ANON_VMA_RWSEM,NO_RWSEM_WRITER_STEAL" \
	--test "$AVB" -- $AVW
fi
if want next-buddy; then
# 8. v6.19's wakeup preemption, NEXT_BUDDY on as its posting measured it
# (e837456fdca8 + aceccac58ad7) against the defaults: mmtests'
# hackbench-process-{pipes,sockets} (perf bench sched messaging, -l 10000)
# and schbench on a 2-socket machine the posting does not name; its schbench
# rows say 80 threads, mmtests' default of one per CPU, so a synthetic
# 2 x 20 x 2 machine stands for it. 30 and 48 groups at -l 1000 (a tenth:
# the ratio is what is compared), 5 runs a side.
NB="WAKEUP_PREEMPT_EEVDF,NEXT_BUDDY"
NBM="synthetic:pack:2 l3:1 core:20 pu:2"
nb() { # nb OUT GROUPS LOOPS SECONDS [--pipe]
	step "v6.19 wakeup preemption, messaging ${5:-} -g $2 -l $3" "$4"
	# shellcheck disable=SC2086
	ab "$1" time_s 5 -m "$NBM" --base '' --test "$NB" \
		-- perf bench sched messaging ${5:-} -g "$2" -l "$3"
}
nb nb_p1 1 10000 8 --pipe
nb nb_s1 1 10000 8
nb nb_p30 30 1000 25 --pipe
nb nb_p48 48 1000 40 --pipe
nb nb_s30 30 1000 35
nb nb_s48 48 1000 55
step "v6.19 wakeup preemption, schbench -m 1 -t 80" 25
# two metrics of one ab: rps_p50 in nb_sch.means, the latency's read after
ab nb_sch rps_p50 5 -m "$NBM" --base '' --test "$NB" --metric wakeup_p50_us \
	-- schbench -m 1 -t 80 -r 10
means nb_sch wakeup_p50_us nb_sch_wakeup
fi
progress_end

m() { # m OUT N: field N of OUT's means
	awk -v n="$2" '{ print $n }' "$T/$1.means"
}

# ---- the table ------------------------------------------------------------

if [ "$QUICK" = 1 ]; then
	echo "Mode: --quick. hackbench loop counts divided by 10 (-l $WL_LOOPS and -l $HB_LOOPS)"
	echo "and their times multiplied by 10; every other figure at full size."
else
	echo "Mode: full size (the published loop counts)."
fi
echo "Seeds: run --seed 1; ab seeds 1..N (N = runs). Agreement: an A/B effect with the"
echo "published sign within 25% of the published effect (before/after - 1, or the"
echo "saving per call); a published change under 2% needs one under 2%; an absolute"
echo "figure within 25% of the published value."
echo
echo "| figure | source | published | schedlab | comparison | agrees? | command |"
echo "|---|---|---|---|---|---|---|"

if want wakelist; then
C="schedlab run -m xeon-8269cy-2s [--features NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1] -- hackbench -g 1 -l 100000"
S="f3dd3f674555 + 28156108fecb (Tianchen Ding, v6.0; as quoted in issue 11)"
row_ab "wakelist: hackbench -g 1 -l 100000, xeon-8269cy-2s, v5.8 condition -> any idle target$wlnote" \
	"$S" 3.246 2.251 "$wl_b" "$wl_a" s time "$C"
row_abs "wakelist before (v5.8 condition), absolute$wlnote" "$S" 3.246 "$wl_b" s \
	"schedlab run -m xeon-8269cy-2s --features NO_TTWU_QUEUE_IDLE,TTWU_QUEUE_ON_CPU_LE1 -- hackbench -g 1 -l 100000"
row_abs "wakelist after (defaults), absolute$wlnote" "$S" 2.251 "$wl_a" s \
	"schedlab run -m xeon-8269cy-2s -- hackbench -g 1 -l 100000"
fi

if want swb; then
S="f8858d96061f (Shrikanth Hegde, LKML 2023-09-02; bcc funclatency, mean of 3 x 60 s)"
C="schedlab ab -m power10-96 --base NO_SWB_SMT_SKIP --test '' --runs 3 --funclatency should_we_balance -- stress-ng"
swbrow() { # swbrow LABEL OUT PUB_B PUB_A ARGS
	row_ab "should_we_balance() ns per call, power10-96, $1" "$S" "$3" "$4" \
		"$(m "$2" 1)" "$(m "$2" 2)" ns saving "$C $5" ns "$2"
}
swbrow "idle system (stress-ng --cpu 1 -l 10 stands for it)" swb_idle 809.3 695.0 "--cpu 1 -l 10 --timeout 10"
swbrow "stress-ng --cpu 12 -l 100" swb_12 1013.5 893.1 "--cpu 12 -l 100 --timeout 10"
swbrow "stress-ng --cpu 24 -l 100" swb_24 1073.5 980.0 "--cpu 24 -l 100 --timeout 10"
swbrow "stress-ng --cpu 48 -l 100" swb_48 683.0 641.0 "--cpu 48 -l 100 --timeout 10"
swbrow "stress-ng --cpu 96 -l 100" swb_96 2421.0 2300.0 "--cpu 96 -l 100 --timeout 10"
swbrow "stress-ng --cpu 96 -l 15" swb_96_15 375.5 377.5 "--cpu 96 -l 15 --timeout 10"
swbrow "stress-ng --cpu 96 -l 25" swb_96_25 635.5 637.5 "--cpu 96 -l 25 --timeout 10"
swbrow "stress-ng --cpu 96 -l 35" swb_96_35 934.0 891.0 "--cpu 96 -l 35 --timeout 10"
row_abs "should_we_balance() ns per call, idle system, absolute (with the patch)" "$S" 695.0 \
	"$(m swb_idle 2)" ns "$C --cpu 1 -l 10 --timeout 10"
# bcc's figures hold its probes' time: the same runs with --probe-overhead on
C="schedlab ab -m power10-96 --base NO_SWB_SMT_SKIP --test '' --runs 3 --probe-overhead on --funclatency should_we_balance -- stress-ng"
swbp_abs() { # swbp_abs LABEL OUT PUB_B PUB_A ARGS
	row_abs "should_we_balance() ns per call, $1, absolute with probe overhead, without the patch" \
		"$S" "$3" "$(m "$2" 1)" ns "$C $5"
	row_abs "should_we_balance() ns per call, $1, absolute with probe overhead, with the patch" \
		"$S" "$4" "$(m "$2" 2)" ns "$C $5"
}
swbp_abs "idle system" swbp_idle 809.3 695.0 "--cpu 1 -l 10 --timeout 10"
swbp_abs "stress-ng --cpu 12 -l 100" swbp_12 1013.5 893.1 "--cpu 12 -l 100 --timeout 10"
fi

if want stress-ng; then
S="f8858d96061f (stress_ng table: 10 iterations, 100000 cpu_ops, time taken)"
for n in 96 48 24 12; do
	case $n in
	96) pb=5.30 pa=5.01 ;;
	48) pb=7.94 pa=6.73 ;;
	24) pb=11.67 pa=8.75 ;;
	12) pb=15.71 pa=15.02 ;;
	esac
	row_ab "stress-ng --cpu $n -l 100 --cpu-ops 100000, power10-96, time taken" "$S" "$pb" "$pa" \
		"$(m "sng_$n" 1)" "$(m "sng_$n" 2)" s time \
		"schedlab ab -m power10-96 --base NO_SWB_SMT_SKIP --test '' --runs 10 -- stress-ng --cpu $n -l 100 --cpu-ops 100000" \
		s "sng_$n"
done
row_abs "stress-ng --cpu 96 -l 100 --cpu-ops 100000, power10-96, absolute (with the patch)" "$S" 5.01 \
	"$(m sng_96 2)" s "schedlab run -m power10-96 -- stress-ng --cpu 96 -l 100 --cpu-ops 100000"
fi

if want power10-hackbench; then
S="f8858d96061f (hackbench table: 20 iterations, 50000 loops)"
C="schedlab run -m power10-96 [--features NO_SWB_SMT_SKIP] -- hackbench -g 10 -l 50000"
CA="schedlab run -m power10-96 -- hackbench -g 10 -l 50000"
row_ab "POWER10 hackbench -g 10, process, without -> with f8858d96061f$hbnote" "$S" 11.74 11.70 "$hb_p_b" "$hb_p" s time "$C"
row_ab "POWER10 hackbench -g 10, thread, without -> with f8858d96061f$hbnote" "$S" 12.81 12.79 "$hb_t_b" "$hb_t" s time "$C -T"
row_ab "POWER10 hackbench -g 10, process, pipe, without -> with f8858d96061f$hbnote" "$S" 6.40 6.34 "$hb_pp_b" "$hb_pp" s time "$C -p"
row_ab "POWER10 hackbench -g 10, thread, pipe, without -> with f8858d96061f$hbnote" "$S" 6.96 6.87 "$hb_tp_b" "$hb_tp" s time "$C -T -p"
row_abs "POWER10 hackbench -g 10 -l 50000, process, absolute (with the patch)$hbnote" "$S" 11.70 "$hb_p" s "$CA"
row_abs "POWER10 hackbench -g 10 -l 50000, thread, absolute (with the patch)$hbnote" "$S" 12.79 "$hb_t" s "$CA -T"
row_abs "POWER10 hackbench -g 10 -l 50000, process, pipe, absolute (with the patch)$hbnote" "$S" 6.34 "$hb_pp" s "$CA -p"
row_abs "POWER10 hackbench -g 10 -l 50000, thread, pipe, absolute (with the patch)$hbnote" "$S" 6.87 "$hb_tp" s "$CA -T -p"
fi

if want sm-idle; then
S="3dcac251b066 (K Prateek Nayak, v2 2024-08-09; ipistorm runtime normalised to before)"
IPIC="--cpufreq performance --base NO_SM_IDLE --test '' --runs 5 -- ipistorm numipi=100000 single=1 offset=8 cpulist=8 wait=1"
row_ab "SM_IDLE: ipistorm, icelake-2s-128 (published normalised 0.80)" "$S" 1.00 0.80 \
	"$(m smi_icx 1)" "$(m smi_icx 2)" "" time "schedlab ab -m icelake-2s-128 $IPIC" s smi_icx
row_ab "SM_IDLE: ipistorm, epyc-milan-2s-256 (published normalised 0.90)" "$S" 1.00 0.90 \
	"$(m smi_epyc 1)" "$(m smi_epyc 2)" "" time "schedlab ab -m epyc-milan-2s-256 $IPIC" s smi_epyc
fi

if want runnable-boost; then
S="7d0583cf9ec7 (Dietmar Eggemann, v2/v3 cover letters; perf stat --null --repeat 10)"
C="schedlab ab -m altra-2s-160 --cpufreq schedutil --base NO_UTIL_RUNNABLE_BOOST --test '' --runs 30 -- perf bench sched messaging -t -g 1 -l 2000"
row_ab "runnable boost: perf bench sched messaging -t -g 1 -l 2000, altra-2s-160, schedutil" "$S" 0.4869 0.4377 \
	"$(m rb 1)" "$(m rb 2)" s time "$C" s rb
row_abs "runnable boost, absolute (with the patch)" "$S" 0.4377 "$(m rb 2)" s "$C"
fi

if want anon-vma; then
S="5a505085f043 + ce6711f3d196 (Alex Shi's changelog, v3.9: fork_test -50%, then fully recovered; time per job normalised to v3.7)"
C="schedlab study anon-vma-rwsem"
row_ab "AIM7 fork_test, westmere-ex-8s-160 on 4 sockets, anon_vma mutex (v3.7) -> rwsem (v3.8)" "$S" 1.00 2.00 \
	"$(m av38 1)" "$(m av38 2)" "" time "$C" s av38
row_ab "AIM7 fork_test, anon_vma mutex (v3.7) -> rwsem with writer lock stealing (v3.9)" "$S" 1.00 1.00 \
	"$(m av39 1)" "$(m av39 2)" "" time "$C" s av39
fi

if want next-buddy; then
S="e837456fdca8 + aceccac58ad7 (Mel Gorman, v6.19; mmtests on a 2-socket machine, 6.18-rc1 vs sched-preemptnext-v5)"
NBC="schedlab ab -m 'synthetic:pack:2 l3:1 core:20 pu:2' --base '' --test WAKEUP_PREEMPT_EEVDF,NEXT_BUDDY --runs 5 --"
row_ab "v6.19 wakeup preemption: hackbench-process-pipes, 1 group" "$S" 0.2657 0.2150 \
	"$(m nb_p1 1)" "$(m nb_p1 2)" s time "$NBC perf bench sched messaging --pipe -g 1 -l 10000" s nb_p1
row_ab "v6.19 wakeup preemption: hackbench-process-pipes, 30 groups (-l 1000)" "$S" 2.3207 2.5053 \
	"$(m nb_p30 1)" "$(m nb_p30 2)" s time "$NBC perf bench sched messaging --pipe -g 30 -l 1000" s nb_p30
row_ab "v6.19 wakeup preemption: hackbench-process-pipes, 48 groups (-l 1000)" "$S" 3.5023 3.9197 \
	"$(m nb_p48 1)" "$(m nb_p48 2)" s time "$NBC perf bench sched messaging --pipe -g 48 -l 1000" s nb_p48
row_ab "v6.19 wakeup preemption: hackbench-process-sockets, 1 group" "$S" 0.3073 0.3263 \
	"$(m nb_s1 1)" "$(m nb_s1 2)" s time "$NBC perf bench sched messaging -g 1 -l 10000" s nb_s1
row_ab "v6.19 wakeup preemption: hackbench-process-sockets, 30 groups (-l 1000)" "$S" 4.7247 4.8853 \
	"$(m nb_s30 1)" "$(m nb_s30 2)" s time "$NBC perf bench sched messaging -g 30 -l 1000" s nb_s30
row_ab "v6.19 wakeup preemption: hackbench-process-sockets, 48 groups (-l 1000)" "$S" 7.6097 7.8197 \
	"$(m nb_s48 1)" "$(m nb_s48 2)" s time "$NBC perf bench sched messaging -g 48 -l 1000" s nb_s48
row_ab "v6.19 wakeup preemption: schbench RPS, 50th percentile, 80 threads" "$S" 8987.41 9217.89 \
	"$(m nb_sch 1)" "$(m nb_sch 2)" "" time "$NBC schbench -m 1 -t 80 -r 10" "" nb_sch
row_ab "v6.19 wakeup preemption: schbench wakeup latency, 50th percentile, 80 threads" "$S" 7.17 6.00 \
	"$(m nb_sch_wakeup 1)" "$(m nb_sch_wakeup 2)" us time "$NBC schbench -m 1 -t 80 -r 10" us nb_sch_wakeup
fi
