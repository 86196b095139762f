#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The layer boundaries of docs/architecture.md, checked so they cannot
# quietly regress: dependencies point one way, cli -> report -> work ->
# kernel -> sim/topo.
#
#   BUILD=build CC=cc LDFLAGS= sh tests/layers/check.sh   (`make check` runs it)
#
# Two checks, because either alone can be fooled:
#   includes  every #include "LAYER/..." under src/L/ names a layer L may use
#   links     each layer's objects, with only the objects of the layers below
#             it and a stub main(), link into a program: a call into a layer
#             above (a tracepoint defined in src/report, say) is an undefined
#             reference, which the linker reports with the calling file
#
# sim and topo are one base layer here: topo's presets carry cost-model
# overrides (sim/cost.h) and the machine asks the topology for distances, so
# each uses the other; neither may reach above them.
BUILD=${BUILD:-build}
CC=${CC:-cc}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1

# the layers each layer may include or call, itself included
allowed() {
	case $1 in
	topo | sim) echo "topo sim" ;;
	kernel) echo "kernel sim topo" ;;
	work) echo "work kernel sim topo" ;;
	report) echo "report work kernel sim topo" ;;
	calib) echo "calib report work kernel sim topo" ;;
	cli) echo "cli calib report work kernel sim topo" ;;
	*) echo "" ;;
	esac
}

fail=0

for dir in src/*/; do
	layer=$(basename "$dir")
	if [ -z "$(allowed "$layer")" ]; then
		echo "layers: src/$layer is not a known layer: add it to allowed() in $0" >&2
		fail=1
		continue
	fi
	# "file:line:#include "dir/name.h"" for every project include of the layer
	grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"/]*/' "$dir"*.[ch] 2>/dev/null |
		while IFS= read -r hit; do
			inc=$(printf '%s\n' "$hit" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"/]*\)\/.*/\1/')
			case " $(allowed "$layer") " in
			*" $inc "*) ;;
			*)
				echo "layers: ${hit%%:#*} includes src/$inc from src/$layer, which may use only: $(allowed "$layer")"
				;;
			esac
		done | grep . && fail=1
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-layers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
echo 'int main(void) { return 0; }' > "$tmp/stub.c"

for layer in topo kernel work report calib; do
	objs=
	for l in $(allowed "$layer"); do
		objs="$objs $(ls "$BUILD"/src/"$l"/*.o 2>/dev/null)"
	done
	if [ -z "$(ls "$BUILD"/src/"$layer"/*.o 2>/dev/null)" ]; then
		echo "layers: no objects in $BUILD/src/$layer (build first)" >&2
		fail=1
		continue
	fi
	# shellcheck disable=SC2086 # $objs is a list of paths without spaces
	if ! $CC $LDFLAGS -o "$tmp/$layer" "$tmp/stub.c" $objs ${LDLIBS:--lm} 2> "$tmp/ld.err"; then
		echo "layers: src/$layer does not link with only $(allowed "$layer"):"
		grep -E 'undefined reference|multiple definition' "$tmp/ld.err" ||
			cat "$tmp/ld.err"
		fail=1
	fi
done

if [ "$fail" -eq 0 ]; then
	echo "layers: includes and links follow cli -> calib -> report -> work -> kernel -> sim/topo"
fi
exit $fail
