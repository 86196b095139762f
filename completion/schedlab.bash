# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2207
# bash completion for schedlab: commands, each command's options, and their
# values (machines, scheduler features, studies, benchmarks and their
# options, files), all asked of the schedlab being completed, so they are
# what that binary accepts. Installed by `make install` as
# share/bash-completion/completions/schedlab; or: source completion/schedlab.bash

# _schedlab_opts BIN ARGS...: the options a --help-style text lists (its
# usage lines and the tags of its option lists)
_schedlab_opts()
{
	local bin=$1
	shift
	"$bin" "$@" 2>/dev/null | awk '
		/^refused/ { exit }
		NR == 1 || (usage && /^ /) { usage = 1; line = $0 }
		usage && /^$/ { usage = 0 }
		!usage && /^  -/ { line = $0; sub(/^  /, "", line); sub(/   *.*/, "", line) }
		!usage && !/^  -/ { line = "" }
		{
			n = split(line, w, /[][ ,|]+/)
			for (i = 1; i <= n; i++)
				if (w[i] ~ /^--?[A-Za-z][A-Za-z0-9-]*$/)
					print w[i]
			line = ""
		}' | sort -u
}

# the benchmark a command line after `--` names: the last of the names
# `schedlab benchmarks --names` lists that its words spell (prefixes like
# taskset and chrt are names too, so the benchmark after them wins)
_schedlab_bench_name()
{
	local bin=$1
	shift
	local IFS=$'\n' name best='' bestpos=-1 i n
	for name in $("$bin" benchmarks --names 2>/dev/null); do
		IFS=' ' read -r -a nw <<<"$name"
		n=${#nw[@]}
		for ((i = 0; i + n <= $#; i++)); do
			local args=("$@") j ok=1
			for ((j = 0; j < n; j++)); do
				[[ ${args[i + j]} == "${nw[j]}" ]] || { ok=0; break; }
			done
			if ((ok && (i > bestpos || (i == bestpos && n > ${#best})))); then
				best=$name
				bestpos=$i
			fi
		done
	done
	printf '%s\n' "$best"
}

# completion of the benchmark command line after `--`
_schedlab_bench()
{
	local bin=$1 cur=$2
	shift 2
	local -a before=("$@")
	local name next=()
	name=$(_schedlab_bench_name "$bin" "${before[@]}")
	# the next word of a name whose first words are the last ones typed
	# ("perf bench sched" -> messaging, pipe); else, where a command may
	# start (first, or after a prefix), the names' first words
	local IFS=$'\n' full first=()
	local nb=${#before[@]}
	for full in $("$bin" benchmarks --names 2>/dev/null); do
		local -a fw
		IFS=' ' read -r -a fw <<<"$full"
		first+=("${fw[0]}")
		local k=${#fw[@]} m p ok
		for ((m = 1; m < k && m <= nb; m++)); do
			ok=1
			for ((p = 0; p < m; p++)); do
				[[ ${before[nb - m + p]} == "${fw[p]}" ]] || { ok=0; break; }
			done
			((ok)) && next+=("${fw[m]}")
		done
	done
	if ((${#next[@]} == 0)) && [[ -z $name || $name == taskset || $name == chrt || $name == nice || $name == "perf stat" ]]; then
		next=("${first[@]}")
	fi
	IFS=$' \t\n'
	if [[ $cur == -* && -n $name ]]; then
		COMPREPLY=($(compgen -W "$(_schedlab_opts "$bin" benchmarks "$name")" -- "$cur"))
	elif ((${#next[@]})); then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "${next[@]}" | sort -u)" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

_schedlab()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} cmd='' i dashdash=-1 machine=''
	bin=${bin/#\~/$HOME}
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--) dashdash=$i; break ;;
		-m | --machine) machine=${COMP_WORDS[i + 1]} ;;
		--machine=*) machine=${COMP_WORDS[i]#--machine=} ;;
		esac
		[[ -z $cmd && ${COMP_WORDS[i]} != -* ]] && cmd=${COMP_WORDS[i]}
	done
	local commands
	commands=$("$bin" --help 2>/dev/null | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$commands help --help --version" -- "$cur"))
		return
	fi
	if ((dashdash > 0)); then
		_schedlab_bench "$bin" "$cur" "${COMP_WORDS[@]:dashdash + 1:COMP_CWORD - dashdash - 1}"
		return
	fi
	case $prev in
	-m | --machine | --export)
		# the presets, and files: a machine file or hwloc XML is a path
		COMPREPLY=($(compgen -W "$("$bin" machines 2>/dev/null | awk '{ print $1 }')" -- "$cur")
			$(compgen -f -X '!*.machine' -- "$cur") $(compgen -f -X '!*.xml' -- "$cur"))
		return
		;;
	--features | --base | --test)
		# a comma-separated list: complete its last entry
		local head='' word=$cur names
		[[ $cur == *,* ]] && head=${cur%,*}, && word=${cur##*,}
		names=$("$bin" features 2>/dev/null | awk 'NR > 1 && $1 ~ /^[A-Z]/ { print $1; print "NO_" $1 }')
		COMPREPLY=($(compgen -P "$head" -W "$names" -- "$word"))
		compopt -o nospace 2>/dev/null
		return
		;;
	--cost)
		COMPREPLY=($("$bin" topo -m "${machine:-smp2}" --costs 2>/dev/null | sed 's/=.*/=/' | grep -F -- "$cur"))
		COMPREPLY=($(compgen -W "${COMPREPLY[*]}" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return
		;;
	--costs)
		# a cost profile (calibrate -o writes one); topo's --costs takes no value
		if [[ $cmd != topo ]]; then
			COMPREPLY=($(compgen -f -X '!*.costs' -- "$cur") $(compgen -d -- "$cur"))
			return
		fi
		;;
	--preempt) COMPREPLY=($(compgen -W "none voluntary full lazy" -- "$cur")); return ;;
	--hz) COMPREPLY=($(compgen -W "100 250 300 1000" -- "$cur")); return ;;
	--cpufreq) COMPREPLY=($(compgen -W "performance powersave userspace: schedutil ondemand conservative" -- "$cur")); return ;;
	--cpuidle) COMPREPLY=($(compgen -W "avg menu teo" -- "$cur")); return ;;
	--probe-overhead) COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
	--guest) COMPREPLY=($(compgen -W "none kvm kvm:hlt kvm:haltpoll kvm,ipiv kvm,steal=" -- "$cur")); return ;;
	--emit) COMPREPLY=($(compgen -W "parallel slurm" -- "$cur")); return ;;
	--show)
		COMPREPLY=($(compgen -W "$("$bin" study --list 2>/dev/null | awk 'NR > 1 { print $1 }')" -- "$cur"))
		return
		;;
	--plot | -o | --out | --export-sysfs)
		# calibrate -o writes a file (a cost profile); the others' -o is a directory
		if [[ $cmd == calibrate ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
		else
			COMPREPLY=($(compgen -d -- "$cur"))
		fi
		return
		;;
	--json | --trace | --schedstat | --file | --csv | --output | --export-hwloc)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--seed | --runs | -j | --jobs | --confidence | --cpu | --max-events | --max-time | \
		--sysctl | --funclatency | --trace-window | --trace-events | --metric | --point | \
		--also)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_schedlab_opts "$bin" "$cmd" --help) --help" -- "$cur"))
		return
	fi
	case $cmd in
	help) COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
	study) COMPREPLY=($(compgen -W "$("$bin" study --list 2>/dev/null | awk 'NR > 1 { print $1 }')" -- "$cur")) ;;
	sweep) COMPREPLY=($(compgen -f -X '!*.plan' -- "$cur") $(compgen -d -- "$cur")) ;;
	benchmarks) COMPREPLY=($(compgen -W "$("$bin" benchmarks --names 2>/dev/null | awk '{ print $1 }' | sort -u)" -- "$cur")) ;;
	esac
}
complete -F _schedlab schedlab
