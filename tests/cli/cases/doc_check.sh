# shellcheck shell=sh
# scripts/doc-check.sh (docs/doc-check.md) on pages of its own: sourced by
# tests/cli/run.sh. The real pages are checked by `make doc-check`.

dc_dir=$tmp/doccheck
mkdir -p "$dc_dir"

# doc_check NAME WANT_STATUS WANT_SUBSTRING [ARGS...]: run the check (on
# pages in $dc_dir) and look at its status and output
doc_check() {
	name=$1
	want=$2
	substr=$3
	shift 3
	status=0
	sh "$root/scripts/doc-check.sh" -b "$SCHEDLAB" "$@" >"$tmp/dc.out" 2>&1 </dev/null || status=$?
	if [ "$status" -eq "$want" ] && { [ -z "$substr" ] || grep -qF -e "$substr" "$tmp/dc.out"; }; then
		ok "doc-check: $name"
	else
		not_ok "doc-check: $name" "status $status (want $want), output lacks '$substr':" \
			"$(sed 's/^/  /' "$tmp/dc.out" | head -20)"
	fi
}

# a page that matches, with both elisions; a file the next block uses; an exit status
cat >"$dc_dir/good.md" <<'EOF'
# A page

<!-- doc-check: run -->
    $ schedlab run -m smp2 -- context1 1
    COUNT|104870|1|lps
    COUNT|104870|1|lps

Abridged:

<!-- doc-check: run -->
    $ schedlab machines
    ...
    smp2   [...]
    ...

<!-- doc-check: file mine.study -->
    $ cat mine.study
    name mine
    title t
    variant a -
    variant b NO_SM_IDLE
    machine smp2
    workload hackbench -g 1 -l 5
    metric time_s
    runs 2

<!-- doc-check: run exit=2 -->
    $ schedlab study --file mine.study --runs 1
    schedlab: study: --runs must be 2 to 10000 (an interval needs two runs per side), got '1'

No output here, so no marker:

    $ schedlab study --file mine.study > /dev/null
EOF
doc_check "a page that matches" 0 "4 outputs and 0 figures checked" "$dc_dir/good.md"

# a drifted output fails, --update rewrites it (keeping the indentation), and it passes
sed 's/104870/99999/' "$dc_dir/good.md" >"$dc_dir/drift.md"
doc_check "a drifted output fails" 1 "differs from the page" "$dc_dir/drift.md"
doc_check "--update rewrites it" 0 "1 outputs rewritten" --update "$dc_dir/drift.md"
if cmp -s "$dc_dir/drift.md" "$dc_dir/good.md"; then ok "doc-check: --update gives the page back"; else
	not_ok "doc-check: --update gives the page back" "$(diff "$dc_dir/good.md" "$dc_dir/drift.md" | head -5)"; fi

# --update keeps the elisions; a line that lost its partner cannot be placed
printf '# p\n\n<!-- doc-check: run -->\n    $ schedlab run -m smp2 -- perf bench sched pipe -l 1000\n    ...\n         Total time: 9.999 [sec]\n    ...\n' >"$dc_dir/elide.md"
doc_check "an elided block that drifted fails" 1 "differs from the page" "$dc_dir/elide.md"
doc_check "--update keeps the elisions" 0 "1 outputs rewritten" --update "$dc_dir/elide.md"
if grep -q '^    \.\.\.$' "$dc_dir/elide.md" && ! grep -q '9\.999' "$dc_dir/elide.md" &&
	grep -q 'Total time: 0\.0' "$dc_dir/elide.md"; then ok "doc-check: elisions kept, the number rewritten"; else
	not_ok "doc-check: elisions kept, the number rewritten" "$(cat "$dc_dir/elide.md")"; fi
printf '# p\n\n<!-- doc-check: run -->\n    $ schedlab run -m smp2 -- perf bench sched pipe -l 1000\n    ...\n    Nothing like it\n    ...\n' >"$dc_dir/lost.md"
doc_check "--update names what it cannot place" 1 "rewrite them by hand" --update "$dc_dir/lost.md"

# what must be marked
printf '# p\n\n    $ schedlab run -m smp2 -- context1 1\n    COUNT|1|1|lps\n' >"$dc_dir/unmarked.md"
doc_check "an unmarked command with output fails" 1 "no doc-check marker" "$dc_dir/unmarked.md"
printf '# p\n\nIt prints:\n\n    stress-ng: info:  [1] dispatching hogs: 4 cpu\n' >"$dc_dir/looks.md"
doc_check "an unmarked block of tool output fails" 1 "looks like a modelled tool's output" "$dc_dir/looks.md"
printf '# p\n\n<!-- doc-check: skip -->\n    $ schedlab machines\n    x\n' >"$dc_dir/noreason.md"
doc_check "skip needs a reason" 1 "skip needs a reason" "$dc_dir/noreason.md"
printf '# p\n\n<!-- doc-check: run -->\n\nText.\n' >"$dc_dir/nothing.md"
doc_check "a marker before no block fails" 1 "not followed by a code block" "$dc_dir/nothing.md"
printf '# p\n\n<!-- doc-check: skip (the host) -->\n    $ schedlab topo -m host\n    x\n' >"$dc_dir/skip.md"
doc_check "skip (why)" 0 "1 blocks skipped" "$dc_dir/skip.md"
printf '# p\n\n<!-- doc-check: run -->\n    $ schedlab run -m smp2 -- hackbench -g 0\n    x\n' >"$dc_dir/status.md"
doc_check "an exit status the page does not say fails" 1 "exited with status 2, the page wants 0" "$dc_dir/status.md"

# figures in prose: the output's number rounds to the figure, and the text states it
cat >"$dc_dir/fig.md" <<'EOF'
# p

<!-- doc-check: figures
1: 4.8 usecs/op
-->
    schedlab run -m smp1 -- perf bench sched pipe -l 1000

takes 4.8 us a round trip, and context1 counts 104870 in a second.
<!-- doc-check: figures
1: COUNT|104870
cmd: schedlab run -m smp2 -- context1 1
-->
Again: 104870.
EOF
doc_check "figures that hold" 0 "0 outputs and 2 figures checked" "$dc_dir/fig.md"
sed 's/4\.8 us a/4.7 us a/; s/1: 4.8/1: 4.7/' "$dc_dir/fig.md" >"$dc_dir/figbad.md"
doc_check "a figure the output does not give fails" 1 "the output has 4.795" "$dc_dir/figbad.md"
sed 's/takes 4.8 us/takes about 5 us/' "$dc_dir/fig.md" >"$dc_dir/figprose.md"
doc_check "a figure the prose does not state fails" 1 "does not state it" "$dc_dir/figprose.md"
doc_check "--update does not rewrite prose" 1 "does not rewrite prose" --update "$dc_dir/figbad.md"

# rows: the lines a reduced command prints are rows of the page's table
cat >"$dc_dir/rows.md" <<'EOF'
# p

<!-- doc-check: rows
cmd: printf '| a | %s |\n| c | %s |\n' 1 3
-->
| a | 1 |
| b | 2 |
| c | 3 |
EOF
doc_check "rows of a table" 0 "1 outputs" "$dc_dir/rows.md"
sed 's/| c | 3 |/| c | 4 |/' "$dc_dir/rows.md" >"$dc_dir/rowsbad.md"
doc_check "a row that drifted fails" 1 "differs from the page" "$dc_dir/rowsbad.md"
doc_check "--update rewrites the row" 0 "1 outputs rewritten" --update "$dc_dir/rowsbad.md"
if cmp -s "$dc_dir/rows.md" "$dc_dir/rowsbad.md"; then ok "doc-check: the row is back"; else
	not_ok "doc-check: the row is back" "$(cat "$dc_dir/rowsbad.md")"; fi
doc_check "a page that does not exist" 2 "no page" "$dc_dir/none.md"

# reduced: the page shows the long command, the check runs the reduced one it names
cat >"$dc_dir/reduced.md" <<'EOF2'
# p

Shown here for one second (the check runs `context1 1`; `context1 10` takes ten):

<!-- doc-check: reduced
cmd: schedlab run -m smp2 -- context1 1
-->
    $ schedlab run -m smp2 -- context1 10
    COUNT|104870|1|lps
    COUNT|104870|1|lps
EOF2
doc_check "reduced runs the command the marker names" 0 "1 outputs and 0 figures checked" "$dc_dir/reduced.md"
printf '# p\n\n<!-- doc-check: reduced -->\n    $ schedlab run -m smp2 -- context1 10\n    x\n' >"$dc_dir/reduced-bad.md"
doc_check "reduced needs its command" 1 "give the reduced command on a cmd: line" "$dc_dir/reduced-bad.md"
