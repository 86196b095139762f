# shellcheck shell=sh
# jankbench (docs/benchmarks.md, "jankbench"): a short run on pixel6 under
# schedutil (EAS on), its bad flags, and one seed giving one output.
# Sourced by tests/cli/run.sh.
golden run-jankbench-pixel6 schedlab run -m pixel6 --cpufreq schedutil -- jankbench -t list_view,edit_text -f 60
golden run-jankbench-pixel6-90hz schedlab run -m pixel6 -- jankbench -t shadow_grid -f 45 -r 90
expect_exit 2 "jankbench: -r needs a refresh rate of 60, 90 or 120 (Hz), got '75'" \
	schedlab run -m pixel6 -- jankbench -r 75
expect_exit 2 "jankbench: bad or incomplete option '-x'" schedlab run -m pixel6 -- jankbench -x
expect_exit 2 "jankbench: -f needs an integer in 1..100000, got '0'" \
	schedlab run -m pixel6 -- jankbench -f 0
expect_exit 2 "jankbench: -t: unknown subtest 'bitmap_upload'" \
	schedlab run -m pixel6 -- jankbench -t bitmap_upload
expect_exit 2 "jankbench: unexpected argument 'list_view'" \
	schedlab run -m pixel6 -- jankbench list_view
same_output jankbench-seed schedlab run -m pixel6 --seed 3 --cpufreq schedutil -- jankbench -f 30
# the energy rows join ab's table where the JSON has an energy part, and only there
out=$("$SCHEDLAB" ab -m pixel6 --cpufreq schedutil --base NO_UTIL_RUNNABLE_BOOST --test '' \
	--runs 2 --metric jank_pct --metric energy.total_j -- jankbench -t edit_text -f 20 2>&1)
if printf '%s\n' "$out" | grep -q '^energy.total_j ' && printf '%s\n' "$out" | grep -q '^jank_pct '; then
	ok "ab: jank_pct and energy.total_j rows on pixel6 under schedutil"
else
	not_ok "ab: jank_pct and energy.total_j rows" "$out"
fi
# pixel6 boots schedutil: a copy that boots performance has no energy part
"$SCHEDLAB" machines --export pixel6 | sed 's/^governor = schedutil$/governor = performance/' >"$tmp/p6-perf.machine"
expect_exit 2 "energy.total_j" \
	schedlab ab -m "$tmp/p6-perf.machine" --base NO_UTIL_RUNNABLE_BOOST --test '' --runs 2 --metric energy.total_j -- jankbench -f 5
