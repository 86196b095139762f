# shellcheck shell=sh
# rt-app cases of issue 18, sourced by tests/cli/run.sh (its helpers, $tmp,
# $root and the counts).

# ---------------------------------------------------------------------------
# rt-app at scale: a thread's state is its own task's size, not the file's
# ---------------------------------------------------------------------------

# 20,000 tasks, each with its own mutex, cancelled by the duration: each
# thread used to allocate and, cancelled, scan a slot per resource of the
# whole file (63 s on the development VM; now well under a second)
awk 'BEGIN { n = 20000; printf "{\"global\": {\"calibration\": 70, \"duration\": 1}, \"tasks\": {\n";
	for (i = 0; i < n; i++)
		printf "\"t%d\": {\"lock\": \"m%d\", \"run\": 100, \"unlock\": \"m%d\", \"sleep\": 1000}%s\n", i, i, i, (i < n - 1 ? "," : "");
	print "}}" }' >"$tmp/rtapp-20k.json"
expect_exit 0 "" timeout 30 "$SCHEDLAB" run -m smp4 -- rt-app "$tmp/rtapp-20k.json"
