# shellcheck shell=sh
# The build's version and commit (issue 24): `schedlab --version` and the
# "schedlab" member of every JSON record. Sourced by tests/cli/run.sh.

want_version=$(sed -n 1p "$root/VERSION")
run_cmd schedlab --version
line=$(cat "$tmp/out")
if [ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
	echo "$line" | grep -Eq "^schedlab $want_version \\(commit ([0-9a-f]{12}(-dirty)?|unknown)\\)\$"; then
	ok "--version: $line"
else
	not_ok "--version" "status $status, printed '$line'"
fi
version_commit=$(echo "$line" | sed -n 's/.*(commit \(.*\))$/\1/p')
run_cmd schedlab -V
if [ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = "$line" ]; then ok "-V is --version"; else not_ok "-V is --version" "$(cat "$tmp/out")"; fi
expect_exit 2 "--version takes no arguments, got 'run'" schedlab --version run
run_cmd schedlab --help
if grep -q '^       schedlab --version$' "$tmp/out"; then ok "--help names --version"; else not_ok "--help names --version"; fi

# every record carries the same two strings
has_schedlab() {
	what=$1 file=$2
	if grep -q "^ *\"version\": \"$want_version\",\$" "$file" &&
		grep -q "^ *\"commit\": \"$version_commit\"\$" "$file" &&
		grep -q '^ *"schedlab": {$' "$file"; then
		ok "$what: schedlab.version and .commit"
	else
		not_ok "$what: schedlab.version and .commit" "$(head -8 "$file" 2>/dev/null)"
	fi
}
run_cmd schedlab run -m smp2 --json "$tmp/ver-run.json" -- hackbench -g 1 -l 10
has_schedlab "run --json" "$tmp/ver-run.json"
if [ "$(sed -n 2p "$tmp/ver-run.json")" = '  "schedlab": {' ]; then ok "run --json: schedlab comes first"; else not_ok "run --json: schedlab comes first"; fi
run_cmd schedlab ab -m smp2 --runs 2 --test NO_TTWU_QUEUE --json "$tmp/ver-ab.json" -- hackbench -g 1 -l 10
has_schedlab "ab --json" "$tmp/ver-ab.json"
run_cmd schedlab study sm-idle --quick --runs 2 --json "$tmp/ver-study.json"
has_schedlab "study --json" "$tmp/ver-study.json"
mkdir -p "$tmp/ver-sweep"
printf 'machine smp2\nworkload hackbench -g 1 -l 10\nseeds 1\n' >"$tmp/ver-sweep/v.plan"
run_cmd schedlab sweep "$tmp/ver-sweep/v.plan" -j 1
for p in "$tmp"/ver-sweep/v.sweep/points/*.json; do
	has_schedlab "sweep point" "$p"
	break
done
run_cmd schedlab sweep "$tmp/ver-sweep/v.plan" --collect --json "$tmp/ver-collect.json"
has_schedlab "sweep --collect --json" "$tmp/ver-collect.json"

# scripts/version.sh: outside git "unknown", SCHEDLAB_COMMIT wins
mkdir -p "$tmp/ver-tarball"
printf '9.8\n' >"$tmp/ver-tarball/VERSION"
out=$(GIT_CEILING_DIRECTORIES=$tmp sh "$root/scripts/version.sh" "$tmp/ver-tarball/VERSION")
case $out in
*'schedlab_version[] = "9.8";'*'schedlab_commit[] = "unknown";'*) ok "version.sh without git: unknown" ;;
*) not_ok "version.sh without git: unknown" "$out" ;;
esac
out=$(SCHEDLAB_COMMIT='v9.8 "x"' sh "$root/scripts/version.sh" "$tmp/ver-tarball/VERSION")
case $out in
*'schedlab_commit[] = "v9.8x";'*) ok "version.sh: SCHEDLAB_COMMIT, stripped to a safe string" ;;
*) not_ok "version.sh: SCHEDLAB_COMMIT" "$out" ;;
esac
