# shellcheck shell=sh
# bash completion (issue 24): completion/schedlab.bash, sourced in bash,
# completes commands, options, machines, features, studies, benchmarks
# and their options, all asked of the binary. Sourced by tests/cli/run.sh.

# complete WANT WORDS...: the completions of the last word (may be ''),
# space-separated, must be WANT (or, WANT starting with '~', contain it)
complete_is() {
	want=$1
	shift
	got=$(bash -c '. "$1/completion/schedlab.bash"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
		_schedlab; echo "${COMPREPLY[*]}"' sh "$root" "$SCHEDLAB" "$@" 2>&1)
	case $want in
	'~'*) case " $got " in *" ${want#\~} "*) ok "completion of 'schedlab $*' has ${want#\~}" ; return ;; esac ;;
	*) [ "$got" = "$want" ] && { ok "completion of 'schedlab $*': $want"; return; } ;;
	esac
	not_ok "completion of 'schedlab $*'" "want '$want'" "got  '$got'"
}

if command -v bash >/dev/null 2>&1; then
	if bash -n "$root/completion/schedlab.bash" 2>"$tmp/comp.err"; then ok "bash -n completion/schedlab.bash"; else
		not_ok "bash -n completion/schedlab.bash" "$(cat "$tmp/comp.err")"; fi
	all_cmds=$("$SCHEDLAB" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' | tr '\n' ' ')
	complete_is "${all_cmds}help --help --version" ""
	complete_is "study sweep" s
	complete_is "--machine --max-events --max-time" run --m
	complete_is "--domains" topo --do
	complete_is "--export-hwloc --export-sysfs" topo --exp
	complete_is "tests/hwloc" topo -m smp2 --export-sysfs tests/hw
	complete_is "smp1 smp2 smp4 smp8 smt2-2s-16" run -m sm
	complete_is "~host" topo --machine ""
	# machine files and hwloc XML are paths (from the repository root, as make check runs)
	complete_is "tests/hwloc/pack2-l3-core4-pu2.xml" topo -m tests/hwloc/pack2-l3
	complete_is "NO_RUN_TO_PARITY" run --features NO_RUN
	complete_is "UTIL_EST,NO_DELAY_DEQUEUE UTIL_EST,NO_DELAY_ZERO" ab --test UTIL_EST,NO_DELAY
	complete_is "none voluntary full lazy" run --preempt ""
	complete_is "parallel slurm" sweep p.plan --emit ""
	complete_is "sm-idle swb-smt" study s
	complete_is "runnable-boost" study --show r
	complete_is "schbench schbench-2016 stress-ng" benchmarks s
	complete_is "study sweep" help s
	complete_is "--output" calibrate --ou
	complete_is "tests/cli/cases/cost_profiles.sh" calibrate -o tests/cli/cases/cost_p
	complete_is "ipi_send=" run -m smp2 --cost ipi_s
	# the benchmark after --: its name word by word, then its options
	complete_is "~hackbench" run -m smp4 -- ""
	complete_is "bench stat" run -- perf ""
	complete_is "messaging pipe" run -- perf bench sched ""
	complete_is "--loop" run -- perf bench sched pipe --l
	complete_is "--switch --switch-freq --switch-method --switch-ops" run -m smp4 -- stress-ng --sw
	complete_is "--fifo" ab -- taskset -c 0-3 chrt -f 50 hackbench --fi
	complete_is "stress-ng" run -- chrt -f 50 st
	# a refused option is not offered
	complete_is "" run -- perf bench sched pipe --nonb
else
	echo "note: bash not installed: completion/schedlab.bash not checked"
fi
