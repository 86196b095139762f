# shellcheck shell=sh
# perf stat's locale rule (docs/benchmarks.md "perf stat", "The locale"):
# sourced by tests/cli/run.sh, which runs everything in LC_ALL=C.

ps_cmd="run -m smp4 -- perf stat -r 3 perf bench sched pipe -l 2000"
# locale_case NAME WANT_LINE ENV...: the context-switches line under ENV
locale_case() {
	name=$1
	want=$2
	shift 2
	# shellcheck disable=SC2086
	got=$(env -u LC_ALL -u LC_NUMERIC -u LANG "$@" "$SCHEDLAB" $ps_cmd 2>&1 | grep 'context-switches')
	case $got in
	*"$want"*) ok "perf stat locale: $name" ;;
	*) not_ok "perf stat locale: $name" "got '$got', want '$want'" ;;
	esac
}
locale_case "C: no grouping" "  4000      context-switches" LC_ALL=C
locale_case "POSIX: no grouping" "  4000      context-switches" LANG=POSIX
locale_case "nothing set: C" "  4000      context-switches"
locale_case "C.UTF-8: no grouping" "  4000      context-switches" LC_ALL=C.UTF-8
locale_case "a locale not installed: C, as perf's setlocale() fails" "  4000      context-switches" LC_ALL=xx_XX.UTF-8
# locales with grouping, built here (skipped where localedef or its sources are missing)
loc=$tmp/locales
mkdir -p "$loc"
if localedef -i en_US -f UTF-8 "$loc/en_US.UTF-8" >/dev/null 2>&1 &&
	localedef -i de_DE -f UTF-8 "$loc/de_DE.UTF-8" >/dev/null 2>&1; then
	locale_case "en_US: 4,000" " 4,000      context-switches" LOCPATH="$loc" LC_ALL=en_US.UTF-8
	locale_case "LC_NUMERIC alone decides" " 4,000      context-switches" LOCPATH="$loc" LC_NUMERIC=en_US.UTF-8
	locale_case "LC_ALL over LANG" "  4000      context-switches" LOCPATH="$loc" LANG=en_US.UTF-8 LC_ALL=C
	locale_case "de_DE: 4.000 and a decimal comma" " 4.000      context-switches                 #  294,121 K/sec" \
		LOCPATH="$loc" LC_ALL=de_DE.UTF-8
	# only perf stat's lines: the benchmark's own and the JSON stay C's
	out=$(env LOCPATH="$loc" LC_ALL=de_DE.UTF-8 "$SCHEDLAB" run -m smp4 --json "$tmp/de.json" -- perf stat -r 2 perf bench sched pipe -l 2000 2>&1)
	if echo "$out" | grep -q 'Total time: 0\.0' && echo "$out" | grep -q 'time elapsed' &&
		grep -q '"time_s": 0\.0' "$tmp/de.json"; then
		ok "perf stat locale: the benchmark's lines and the JSON stay C's"
	else
		not_ok "perf stat locale: the benchmark's lines and the JSON stay C's" "$(echo "$out" | head -8)"
	fi
else
	ok "perf stat locale: grouping locales skipped (localedef cannot build en_US, de_DE)"
fi
