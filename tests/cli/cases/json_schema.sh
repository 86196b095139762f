# shellcheck shell=sh
# docs/json-schema.md documents every key the program writes, and only
# those (issue 24): sourced by tests/cli/run.sh.

js=$tmp/json-schema
mkdir -p "$js"
schema=$root/docs/json-schema.md
keys() { awk -f "$root/tests/cli/json_keys.awk" "$@"; }
# fenced block N (1-based) of the schema page
schema_block() { awk -v want="$1" '/^```/ { n++; next } n == 2 * want - 1' "$schema"; }

# js_compare NAME PROGRAM_KEYS DOC_KEYS: both ways; a doc key PATH.* stands for any PATH.x...
js_compare() {
	awk -v name="$1" '
	FNR == NR { doc[$0] = 1; next }
	{ prog[$0] = 1 }
	END {
		for (k in prog) {
			if (k in doc)
				continue
			a = k
			found = 0
			while ((i = match(a, /\.[^.]*$/)) > 0) {
				a = substr(a, 1, i - 1)
				if ((a ".*") in doc) { found = 1; break }
			}
			if (!found && !((k ".*") in doc)) { print "not in the schema: " k; bad = 1 }
		}
		for (d in doc) {
			if (d ~ /\.\*$/) {
				p = substr(d, 1, length(d) - 2)
				found = 0
				for (k in prog)
					if (index(k, p ".") == 1) { found = 1; break }
				if (!found) { print "in the schema, never written: " d; bad = 1 }
			} else if (!(d in prog)) {
				print "in the schema, never written: " d
				bad = 1
			}
		}
		exit bad
	}' "$3" "$2" >"$js/$1.diff" && return 0
	return 1
}
js_check() {
	if js_compare "$@"; then ok "json-schema.md: $1, both ways"; else
		not_ok "json-schema.md: $1" "$(sort "$js/$1.diff")"; fi
}

# run --json: runs that between them write every optional part
(
	cd "$js" || exit 1
	"$SCHEDLAB" run -m smp2 --json a.json -- hackbench -g 1 -l 10
	"$SCHEDLAB" run -m smp4 --trace t.trace --json b.json --idle-states 'max=0@1' --also 'taskset -c 0 chrt -f 50 stress-ng --cpu 2' \
		-- taskset -c 0-3 chrt -f 50 hackbench -g 1 -l 10
	"$SCHEDLAB" run -m smp4 --json c.json --also "rt-app $root/tests/cli/rtapp/fork-limit.json" -- hackbench -g 1 -l 10
	"$SCHEDLAB" run -m smp4 --json d.json -- perf stat -r 2 -e task-clock,cs perf bench sched pipe -l 100
	"$SCHEDLAB" run -m smp4 --json e.json -- rt-app "$root/examples/periodic.json"
	"$SCHEDLAB" run -m smp2 --json f.json -- stress-ng --cpu 1 --cpu-ops 10 --switch 1 --switch-ops 100
	"$SCHEDLAB" run -m pixel6 --cpufreq schedutil --json g.json -- rt-app "$root/examples/periodic.json"
	"$SCHEDLAB" run -m smp2 --cpufreq userspace:1500000 --json h.json -- hackbench -g 1 -l 10
	"$SCHEDLAB" run -m smp2 --cpufreq ondemand --sysctl scaling_max_freq=1800000 --json j.json -- hackbench -g 1 -l 10
	"$SCHEDLAB" run -m smp2 --cpufreq conservative --json k.json -- hackbench -g 1 -l 10
	printf '# date: 2026-12-06T00:00:00Z\n[costs]\nsyscall = 200\n' >i.costs
	"$SCHEDLAB" run -m smp2 --costs i.costs --json i.json -- hackbench -g 1 -l 10
	"$SCHEDLAB" run -m smp2 --guest kvm,steal=5 --sysctl irqtime=1 --json l.json -- hackbench -g 1 -l 10
	# an x86 ITMT machine: sysctl.sched_itmt_enabled
	"$SCHEDLAB" run -m alderlake-i9-12900k --json n.json -- hackbench -g 1 -l 10
	# a turbo table: cpufreq.turbo under the default governor
	printf '%s\n' '[machine]' 'name = t' '[topology]' 'shape = core:2' '[class.0]' 'capacity = 1024' \
		'opps_khz = 1000000 2000000' 'turbo_cores = 1 2' 'turbo_khz = 2000000 1000000' \
		'[idle.0]' 'name = C6' 'exit_latency_ns = 1000' 'target_residency_ns = 1000' 'polls = no' \
		'deep = yes' >m.machine
	"$SCHEDLAB" run -m ./m.machine --json m.json -- hackbench -g 1 -l 10
) >/dev/null 2>&1
keys "$js/a.json" "$js/b.json" "$js/c.json" "$js/d.json" "$js/e.json" "$js/f.json" "$js/g.json" "$js/h.json" "$js/i.json" \
	"$js/j.json" "$js/k.json" "$js/l.json" "$js/m.json" "$js/n.json" |
	sort -u >"$js/run.prog"
schema_block 1 | keys | sort -u >"$js/run.doc"
if [ -s "$js/a.json" ] && [ -s "$js/c.json" ] && grep -q '"failure"' "$js/c.json" && grep -q '"rtapp"' "$js/e.json"; then
	js_check "run --json" "$js/run.prog" "$js/run.doc"
else
	not_ok "json-schema.md: the runs for run --json" "$(ls "$js")"
fi
# every benchmark's result keys are in the result table
missing=
for c in "hackbench -g 1 -l 5" "perf bench sched messaging -g 1 -l 5" "perf bench sched pipe -l 100" \
	"stress-ng --cpu 2 -t 1" "ipistorm numipi=100" "schbench-2016 -m 1 -t 2 -r 1" "schbench -m 1 -t 2 -r 1" \
	"context1 1" "unixbench context1 -i 1 -c 1" "reaim -s 2 -e 2 -j 5" "rt-app $root/examples/periodic.json"; do
	# shellcheck disable=SC2086
	"$SCHEDLAB" run -m smp2 --json "$js/r.json" -- $c >/dev/null 2>&1
	for k in $(keys "$js/r.json" | sed -n 's/^result\.//p'); do
		# shellcheck disable=SC2016
		sed -n '/^`result` by benchmark/,/^Which way/p' "$schema" | grep -qF "\`$k\`" || missing="$missing ${c%% *}:$k"
	done
done
if [ -z "$missing" ]; then ok "json-schema.md: every benchmark's result keys"; else
	not_ok "json-schema.md: result keys missing from the table:$missing"; fi

# ab and study --json
(
	cd "$js" || exit 1
	"$SCHEDLAB" ab -m smp2 --test NO_SM_IDLE --runs 2 -j 1 --funclatency __schedule --probe-overhead on \
		--json ab.json -- hackbench -g 1 -l 10
	"$SCHEDLAB" study sm-idle --quick --runs 2 -j 1 --json study.json
	"$SCHEDLAB" study runnable-boost --quick --runs 2 -j 1 --json study-cases.json
) >/dev/null 2>&1
keys "$js/ab.json" "$js/study.json" "$js/study-cases.json" | sort -u >"$js/ab.prog"
schema_block 2 | keys | sort -u >"$js/ab.doc"
js_check "ab and study --json" "$js/ab.prog" "$js/ab.doc"

# sweep: a point's keys and --collect --json's, in their tables
cp "$root/tests/sweep/grid.plan" "$js/"
(cd "$js" && "$SCHEDLAB" sweep grid.plan -j 2 && "$SCHEDLAB" sweep grid.plan --collect --json col.json) >/dev/null 2>&1
missing=
for k in $(keys "$js"/grid.sweep/points/*.json "$js/col.json" | sed 's/^\(rows\[\]\.\)\{0,1\}\([^.]*\).*/\2/' | sort -u); do
	# shellcheck disable=SC2016
	sed -n '/^# `schedlab sweep`/,$p' "$schema" | grep -qF -e "\`$k\`" -e "\`${k}[]\`" -e "\`.$k\`" -e "\`rows[].$k\`" || missing="$missing $k"
done
if [ -n "$(ls "$js"/grid.sweep/points/*.json 2>/dev/null)" ] && [ -z "$missing" ]; then ok "json-schema.md: sweep's point and --collect keys"; else
	not_ok "json-schema.md: sweep keys missing:$missing"; fi
