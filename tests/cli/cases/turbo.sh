# shellcheck shell=sh
# Turbo by active cores: a machine file's turbo_cores/turbo_khz and its
# idle states' deep flag, shown by topo, refused when wrong, exported and
# read back, and the run JSON's cpufreq.turbo and residency
# (docs/cpufreq.md, "Turbo by active cores"). Sourced by tests/cli/run.sh.

# tests/machines/turbo4.machine: 1 package, 4 cores x 2 threads, 1.0-3.0 GHz;
# 3.0 GHz for 1 active core, 2.5 for 2, 2.0 for 3-4 (illustrative); C6 deep
cp "$root/tests/machines/turbo4.machine" "$tmp/turbo4.machine"
turbo_base=$(cat "$tmp/turbo4.machine")
golden topo-turbo schedlab topo -m "$tmp/turbo4.machine"
golden machines-export-turbo schedlab machines --export "$tmp/turbo4.machine"
round_trip "$tmp/turbo4.machine"

# turbo_json [RUN OPTIONS]: a pipe ping-pong's turbo limits and its CPUs' residency
turbo_json() {
	schedlab run -m "$tmp/turbo4.machine" "$@" --json "$tmp/turbo.json" \
		-- perf bench sched pipe -l 2000 >/dev/null || return 1
	sed -n '/"turbo": \[/,/^  }/p' "$tmp/turbo.json" |
		grep -E '"(package|cores|active_cores|limit_khz|limit_changes|cpu|mean_khz|[0-9]+)"'
}
golden run-turbo-json turbo_json
golden run-turbo-json-max-c1 turbo_json --idle-states max=C1

tb() {
	printf '%s\n' "$turbo_base" | sed "$1" >"$tmp/bad.machine"
}
tb 's/^turbo_khz = .*/turbo_khz = 3000000 2500000/'
expect_exit 2 "bad.machine:19: [class.0] turbo_cores has 3 values and turbo_khz 2" schedlab topo -m "$tmp/bad.machine"
tb 's/^turbo_khz = .*/turbo_khz = 3000000 2600000 2000000/'
expect_exit 2 "turbo_khz: 2600000 is not one of the class's frequencies" schedlab topo -m "$tmp/bad.machine"
tb 's/^turbo_cores = .*/turbo_cores = 1 4 2/'
expect_exit 2 "bad.machine:18: turbo_cores: 2 after 4: the core counts must ascend" schedlab topo -m "$tmp/bad.machine"
tb 's/^turbo_khz = .*/turbo_khz = 2000000 2500000 3000000/'
expect_exit 2 "turbo_khz: 2500000 after 2000000: a group with more active cores cannot grant more" schedlab topo -m "$tmp/bad.machine"
tb 's/^deep = yes/deep = sometimes/'
expect_exit 2 "bad.machine:39: deep: 'sometimes' is not one of" schedlab topo -m "$tmp/bad.machine"
