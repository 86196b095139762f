#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the program with profile-guided and link-time optimisation
# (docs/performance.md, "The program built from a profile"): the whole
# program once instrumented (-fprofile-generate), run on the training
# simulations of scripts/pgo-train.sh, then again from the profile they
# left (-fprofile-use), each time as one unit at link time (-flto). The
# simulation's output does not depend on it (no option that changes
# floating-point or any other semantics is used; the goldens and the
# documentation's examples run on this binary), only its speed does.
# The profile counts come from deterministic simulations run one at a
# time, so the same tree and compiler give the same binary.
#   MAKE=make BUILD=build OPT=-O2 sh scripts/pgo-build.sh   (builds BUILD/pgo/schedlab)
set -e
make=${MAKE:-make}
dir=${BUILD:-build}/pgo
opt=${OPT:--O2}
lto=-flto=auto

# one pass: the whole program into $dir with @2 added to the compiler's
# options and @3 to the linker's, after printing @1
pass() {
	echo "pgo: $1"
	$make -s --no-print-directory PGO=no BUILD="$dir" OPT="$opt $lto $2" \
		SANFLAGS="$lto $3" "$dir/schedlab"
}

# a fresh directory: every object of both passes is compiled here, in the
# same place, so each pass's .gcda is found next to its object
rm -rf "$dir"
pass "the instrumented build, in $dir" "-fprofile-generate -fprofile-update=single" \
	-fprofile-generate
echo "pgo: the training runs (scripts/pgo-train.sh)"
sh scripts/pgo-train.sh "$dir/schedlab"
find "$dir" \( -name '*.o' -o -name '*.a' \) -exec rm -f {} +
rm -f "$dir/schedlab"
# -fprofile-partial-training: code the training did not run is optimised
# as it would be without a profile, not for size (rt-app, reaim, the
# deadline class and the other paths the tracked workloads do not take)
pass "the build from the profile" \
	"-fprofile-use -fprofile-partial-training -Wno-missing-profile" ""
echo "pgo: $dir/schedlab"
