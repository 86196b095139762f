#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make install` into a scratch DESTDIR with a PREFIX of its own: the
# binary runs and knows its version, a man page for every command (each
# renders without a warning when groff is installed), the bash completion,
# the docs and examples; then `make uninstall` leaves nothing behind.
#   MAKE=make BUILD=build sh tests/install/check.sh   (make check runs it)
root=$(cd "$(dirname "$0")/../.." && pwd)
make=${MAKE:-make}
build=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
prefix=/opt/schedlab
fail=0
bad() {
	echo "FAIL install: $*"
	fail=1
}

# (MAKEFLAGS: a make of its own, not a sub-make of `make check`'s jobs)
if ! MAKEFLAGS='' $make -C "$root" --no-print-directory -s BUILD="$build" PREFIX=$prefix DESTDIR="$dest" \
	install >"$tmp/log" 2>&1; then
	bad "make install failed:"
	sed 's/^/     /' "$tmp/log"
	exit 1
fi
p=$dest$prefix
[ -x "$p/bin/schedlab" ] || bad "no executable $prefix/bin/schedlab"
v=$("$p/bin/schedlab" --version 2>&1)
case $v in
"schedlab $(sed -n 1p "$root/VERSION") (commit "*) ;;
*) bad "installed schedlab --version: '$v'" ;;
esac
# every command has its page, and a page for nothing else
cmds=$("$p/bin/schedlab" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
want="schedlab.1"
for c in $cmds; do want="$want schedlab-$c.1"; done
have=$(cd "$p/share/man/man1" 2>/dev/null && ls | tr '\n' ' ')
[ "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" = "$have" ] ||
	bad "man pages: have '$have', want '$want'"
if command -v groff >/dev/null 2>&1; then
	for f in "$p"/share/man/man1/*.1; do
		out=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
		[ -z "$out" ] || bad "groff warns on $(basename "$f"): $out"
	done
	if ! groff -man -Tutf8 -P-cbou "$p/share/man/man1/schedlab-run.1" 2>/dev/null | grep -q 'SYNOPSIS'; then
		bad "schedlab-run.1 renders no SYNOPSIS"
	fi
else
	echo "note: groff not installed, the pages' rendering is not checked (sh scripts/deps.sh)"
fi
[ -f "$p/share/bash-completion/completions/schedlab" ] || bad "no bash completion"
for f in README.md COPYING docs/benchmarks.md docs/json-schema.md examples/README.md examples/periodic.json; do
	[ -f "$p/share/doc/schedlab/$f" ] || bad "no $prefix/share/doc/schedlab/$f"
done
# nothing outside DESTDIR/PREFIX
extra=$(cd "$dest" && find . -mindepth 1 -maxdepth 2 | grep -v "^\.$prefix\$" | grep -v '^\./opt$')
[ -z "$extra" ] || bad "files outside PREFIX: $extra"

if ! MAKEFLAGS='' $make -C "$root" --no-print-directory -s BUILD="$build" PREFIX=$prefix DESTDIR="$dest" \
	uninstall >"$tmp/log" 2>&1; then
	bad "make uninstall failed: $(cat "$tmp/log")"
fi
left=$(find "$dest" -type f)
[ -z "$left" ] || bad "left after uninstall: $left"

[ "$fail" -eq 0 ] && echo "install: make install and uninstall under DESTDIR/PREFIX ok"
exit $fail
