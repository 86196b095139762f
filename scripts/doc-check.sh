#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The documentation checks itself: every command README.md and docs/*.md show
# with their output is run, and its output compared with what the page shows
# (docs/doc-check.md has the markup).
#
#   sh scripts/doc-check.sh [-b BINARY] [-v] [PAGE...]       check (make doc-check)
#   sh scripts/doc-check.sh --update [-b BINARY] [PAGE...]   rewrite the outputs the
#                                                            pages show (read the diff)
#
# PAGE: README.md or docs/NAME.md (default: all). BINARY: the schedlab to run
# (default $SCHEDLAB, else ./schedlab). Commands run in a scratch directory
# per page, in page order, with `schedlab` and `./schedlab` the binary, the
# repository's examples/, tests/, studies/, data/, bench/ and scripts/ beside
# them, LC_ALL=C and TZ=UTC; standard error goes with standard output.
# DOC_CHECK_TIMEOUT (seconds, default 600) bounds each command.
# Exit status: 0 when every block matches, 1 when some do not (or, with
# --update, when some could not be rewritten: the prose figures and the
# elided lines it names), 2 for bad usage.

root=$(cd "$(dirname "$0")/.." && pwd)
here=$root/scripts
update=0
verbose=0
bin=${SCHEDLAB:-./schedlab}
while [ $# -gt 0 ]; do
	case $1 in
	--update) update=1 ;;
	-v) verbose=1 ;;
	-b)
		[ $# -ge 2 ] || { echo "doc-check: -b needs the binary" >&2; exit 2; }
		bin=$2
		shift
		;;
	-h | --help)
		sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*) echo "doc-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
case $bin in
/*) ;;
*) bin=$(pwd)/$bin ;;
esac
if [ ! -x "$bin" ]; then
	echo "doc-check: $bin is not an executable (make, or give -b BINARY)" >&2
	exit 2
fi
if [ $# -eq 0 ]; then
	set -- README.md
	for p in "$root"/docs/*.md; do
		set -- "$@" "docs/${p##*/}"
	done
fi
# a page: its path from the repository root, or an absolute one
pagefile() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$root/$1" ;;
	esac
}
for p in "$@"; do
	if [ ! -f "$(pagefile "$p")" ]; then
		echo "doc-check: no page '$p' (README.md or docs/NAME.md, from the repository root)" >&2
		exit 2
	fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-doc-check.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$work/bin"
ln -s "$bin" "$work/bin/schedlab"
timeout=${DOC_CHECK_TIMEOUT:-600}
t0=$(date +%s)
checked=0
figures=0
skipped=0
failed=0
updated=0
tab=$(printf '\t')

fail() {
	failed=$((failed + 1))
	echo "FAIL $*"
}

# the page lines START..END of block output replaced by a file, indented
# (what --update writes); the replacements of a page go in $pw/repl
rewrite_page() {
	[ -s "$1/repl" ] || return 0
	awk -v repl="$1/repl" '
	BEGIN {
		while ((getline r < repl) > 0) {
			split(r, f, "\t")
			n++
			S[n] = f[1]; E[n] = f[2]; IND[n] = f[3]; F[n] = f[4]; T[n] = f[5]
			at[f[1]] = n
		}
	}
	function emit(k,    line, pad) {
		pad = sprintf("%" IND[k] "s", "")
		while ((getline line < F[k]) > 0)
			print (line == "" ? "" : pad line)
		close(F[k])
		for (t = 0; t < T[k]; t++)
			print ""
	}
	{
		if (NR in at)
			emit(at[NR])
		for (k = 1; k <= n; k++)
			if (NR >= S[k] && NR <= E[k])
				next
		print
	}
	END {
		if ((NR + 1) in at)
			emit(at[NR + 1])
	}' "$2" >"$1/page.new" && cat "$1/page.new" >"$2"
}

npage=0
for page in "$@"; do
	npage=$((npage + 1))
	pw=$work/p$npage
	sc=$work/s$npage
	mkdir "$pw" "$sc"
	pf=$(pagefile "$page")
	if ! awk -v page="$page" -v out="$pw" -f "$here/doc-check-parse.awk" "$pf"; then
		fail "$page: the page could not be read"
		continue
	fi
	if [ -s "$pw/errors" ]; then
		while IFS= read -r e; do fail "$e"; done <"$pw/errors"
		continue
	fi
	[ -s "$pw/manifest" ] || continue
	for e in examples tests studies data bench scripts; do
		ln -s "$root/$e" "$sc/$e"
	done
	ln -s "$bin" "$sc/schedlab"
	while IFS="$tab" read -r n kind mline first _last indent exitspec fname ncmd; do
		where="$page:$first"
		if [ "$kind" = skip ]; then
			skipped=$((skipped + 1))
			[ "$verbose" = 1 ] && echo "skip $where: $(sed -n "${mline}p" "$pf" | sed 's/.*doc-check: skip *//; s/ *-->.*//')"
			continue
		fi
		if [ -s "$pw/$n.setup" ] &&
			! (cd "$sc" && PATH="$work/bin:$PATH" LC_ALL=C TZ=UTC sh -e "$pw/$n.setup") \
				>"$pw/$n.setup.log" 2>&1 </dev/null; then
			fail "$where: the marker's setup failed:"
			sed 's/^/     /' "$pw/$n.setup.log" | head -20
			continue
		fi
		[ "$kind" = file ] && cp "$pw/$n.exp1" "$sc/$fname"
		k=0
		while [ "$k" -lt "$ncmd" ]; do
			k=$((k + 1))
			cmd=$(cat "$pw/$n.cmd$k")
			case $exitspec in
			*,*) want=$(echo "$exitspec" | cut -d, -f"$k") ;;
			*) want=$exitspec ;;
			esac
			status=0
			(cd "$sc" && PATH="$work/bin:$PATH" LC_ALL=C TZ=UTC timeout "$timeout" sh -c "$cmd") \
				>"$pw/$n.out$k" 2>&1 </dev/null || status=$?
			read -r s e <"$pw/$n.pos$k"
			if [ "$status" -ne "$want" ]; then
				fail "$page:$((s - 1)): '$cmd' exited with status $status, the page wants $want:"
				head -20 "$pw/$n.out$k" | sed 's/^/     /'
				continue
			fi
			if [ "$kind" = figures ]; then
				continue
			fi
			checked=$((checked + 1))
			mode=check
			[ "$kind" = rows ] && mode=rows
			if awk -v mode=$mode -v expf="$pw/$n.exp$k" -v act="$pw/$n.out$k" \
				-f "$here/doc-check-match.awk"; then
				[ "$verbose" = 1 ] && echo "ok   $page:$((s - 1)): $cmd"
				continue
			fi
			if [ "$update" = 0 ]; then
				fail "$page:$s: the output of '$cmd' differs from the page (- page, + now):"
				diff -u "$pw/$n.exp$k" "$pw/$n.out$k" | sed '1,2d; s/^/     /'
				continue
			fi
			rc=0
			umode=update
			[ "$kind" = rows ] && umode=rows-update
			awk -v mode=$umode -v expf="$pw/$n.exp$k" -v act="$pw/$n.out$k" \
				-f "$here/doc-check-match.awk" >"$pw/$n.new$k" || rc=$?
			if [ "$rc" = 4 ]; then
				fail "$page:$s: the output of '$cmd' no longer fits the page's elided lines: rewrite them by hand. Now:"
				sed 's/^/     /' "$pw/$n.out$k"
				continue
			fi
			if [ "$rc" = 3 ] && [ "$kind" = rows ]; then
				fail "$page:$s: a row '$cmd' prints has no row in the page's table to replace: add it by hand (the rest is rewritten)"
			elif [ "$rc" = 3 ]; then
				fail "$page:$s: a line with [...] in the output of '$cmd' no longer matches: fix it by hand (the rest is rewritten)"
			fi
			# keep the empty lines that separated it from the next command
			tb=0
			if [ "$e" -ge "$s" ] && [ "$k" -lt "$ncmd" ]; then
				tb=$(sed -n "${s},${e}p" "$pf" | awk '/^[ \t]*$/ { n++; next } { n = 0 } END { print n + 0 }')
			fi
			printf '%s\t%s\t%s\t%s\t%s\n' "$s" "$e" "$indent" "$pw/$n.new$k" "$tb" >>"$pw/repl"
			updated=$((updated + 1))
			echo "updated $page:$s: the output of '$cmd'"
		done
		if [ "$kind" = figures ]; then
			while IFS="$tab" read -r k text; do
				figures=$((figures + 1))
				if msg=$(awk -v text="$text" -v act="$pw/$n.out$k" -v ctx="$pw/$n.ctx" \
					-f "$here/doc-check-figure.awk"); then
					[ "$verbose" = 1 ] && echo "ok   $page:$mline: figure '$text'"
				else
					fail "$page:$mline: $msg (command $k: $(head -1 "$pw/$n.cmd$k"))"
					[ "$update" = 1 ] && echo "     --update does not rewrite prose: state the new figure in the page and in the marker"
				fi
			done <"$pw/$n.fig"
		fi
	done <"$pw/manifest"
	[ "$update" = 1 ] && rewrite_page "$pw" "$pf"
done

t=$(($(date +%s) - t0))
if [ "$update" = 1 ]; then
	echo "doc-check: $updated outputs rewritten, $checked blocks' commands run, $figures figures, $skipped blocks skipped, $failed to fix by hand ($t s)"
else
	echo "doc-check: $checked outputs and $figures figures checked, $skipped blocks skipped, $failed failed ($t s)"
fi
[ "$failed" -eq 0 ]
