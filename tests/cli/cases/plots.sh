# shellcheck shell=sh
# --plot's pictures: titled with the machine and the command, as SVG that
# is well-formed XML (xmllint where installed, else the document's frame):
# sourced by tests/cli/run.sh.

# svg_ok FILE: well-formed
svg_ok() {
	if command -v xmllint >/dev/null; then
		xmllint --noout "$1" 2>/dev/null
	else
		head -c 5 "$1" | grep -q '<?xml' && grep -q '<svg' "$1" && tail -3 "$1" | grep -q '</svg>'
	fi
}

if command -v gnuplot >/dev/null; then
	# an --also with quotes in it: the script doubles them, the title shows them
	run_cmd schedlab run -m smp2 --plot "$tmp/tplots" --also 'stress-ng --cpu 1 --timeout 1' \
		-- hackbench -g 1 -l 10
	tp_bad=
	for f in cpu-util nr-running wakeup-latency-cdf; do
		svg_ok "$tmp/tplots/$f.svg" || tp_bad="$tp_bad $f.svg"
	done
	want="smp2: hackbench -g 1 -l 10, with --also 'stress-ng --cpu 1 --timeout 1'"
	for t in "CPU utilisation" "nr_running per CPU" "Wakeup latency (wakeup to running)"; do
		grep -qF "$t: $want" "$tmp/tplots/"*.svg || tp_bad="$tp_bad title:'$t'"
	done
	if [ "$status" -eq 0 ] && [ -z "$tp_bad" ]; then
		ok "plot: SVGs well-formed, titled MACHINE: COMMAND"
	else
		not_ok "plot: SVGs well-formed, titled MACHINE: COMMAND" "status $status, bad:$tp_bad"
		show_stderr
	fi
	run_cmd schedlab ab -m smp2 --test NO_SM_IDLE --runs 2 -j 1 --plot "$tmp/taplots" \
		--also 'stress-ng --cpu 1 --timeout 1' -- hackbench -g 1 -l 10
	ta_bad=
	for f in ab-bars ab-cdf; do
		svg_ok "$tmp/taplots/$f.svg" || ta_bad="$ta_bad $f.svg"
		grep -qF "$want" "$tmp/taplots/$f.svg" || ta_bad="$ta_bad title:$f"
	done
	if [ "$status" -eq 0 ] && [ -z "$ta_bad" ]; then
		ok "ab --plot: SVGs well-formed, titled MACHINE: COMMAND (an --also's quotes kept)"
	else
		not_ok "ab --plot: SVGs well-formed, titled MACHINE: COMMAND" "status $status, bad:$ta_bad"
		show_stderr
	fi
fi
