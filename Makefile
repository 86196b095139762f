# schedlab — GNU make build.
#   make          build ./schedlab (from a profile of training runs: PGO=no to skip that)
#   make check    build and run the whole test suite (cmocka unit tests, CLI/golden tests,
#                 layer boundaries, the documentation's examples)
#   make asan     build and run the test suite with AddressSanitizer + UBSan
#   make doc-check  run every command README.md and docs/*.md show with their
#                 output and compare (scripts/doc-check.sh, docs/doc-check.md)
#   make bench    the simulator's own speed benchmark (bench/speed.sh)
#   make fuzz     build the libFuzzer targets (clang) and run each for FUZZ_SECONDS
#   make fuzz-regress  replay each target's corpus and regression inputs once
#                 (part of `make check` when clang can build them)
#   make man      the man pages, BUILD/man/*.1, rendered from each command's --help
#                 (scripts/mkman.sh; part of `make`)
#   make install  the binary, man pages, bash completion and docs under
#                 DESTDIR/PREFIX (default /usr/local); `make uninstall` removes them

CC      ?= gcc
BUILD   ?= build
OPT     ?= -O2
SANFLAGS ?=
# rt-app's JSON files are read with json-c, as rt-app reads them (scripts/deps.sh installs it)
JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
JSONC_LIBS   := $(or $(shell pkg-config --libs json-c 2>/dev/null),-ljson-c)
# hwloc XML machines (-m hwloc:FILE.xml) are read with libhwloc (scripts/deps.sh installs it)
HWLOC_CFLAGS := $(shell pkg-config --cflags hwloc 2>/dev/null)
HWLOC_LIBS   := $(or $(shell pkg-config --libs hwloc 2>/dev/null),-lhwloc)
# -m host reads the running kernel's /proc/config.gz with zlib (scripts/deps.sh installs it)
ZLIB_CFLAGS  := $(shell pkg-config --cflags zlib 2>/dev/null)
ZLIB_LIBS    := $(or $(shell pkg-config --libs zlib 2>/dev/null),-lz)
CFLAGS  := -std=c17 -Wall -Wextra -Werror $(OPT) -g -D_GNU_SOURCE -Isrc $(JSONC_CFLAGS) $(HWLOC_CFLAGS) $(ZLIB_CFLAGS) \
	$(SANFLAGS) $(EXTRA_CFLAGS)
LDFLAGS := $(SANFLAGS)
LDLIBS  := -lm $(JSONC_LIBS) $(HWLOC_LIBS) $(ZLIB_LIBS)
# the program from a profile (below) when the compiler is gcc and nothing is sanitized
CC_IS_GCC := $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo yes)
PGO ?= $(if $(and $(CC_IS_GCC),$(if $(strip $(SANFLAGS)),,yes)),yes,no)

# Every .c under src/ except the program entry point goes into the library that
# both the binary and the unit tests link against.
SRCS     := $(sort $(wildcard src/*/*.c))
MAIN_SRC := src/cli/main.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(SRCS))
# the packaged studies, compiled in as strings (scripts/embed-studies.sh)
STUDY_FILES := $(sort $(wildcard studies/*.study))
# reaim's workfiles (data/reaim/), compiled in as strings (scripts/embed-reaim.sh);
# the object sits with src/work's so the layer check links it with them
REAIM_FILES := $(sort $(wildcard data/reaim/*))
# the machine presets (data/machines/NAME.machine), compiled in as strings
# (scripts/embed-machines.sh) in the order `schedlab machines` lists them;
# the object sits with src/topo's for the layer check
PRESETS := smp1 smp2 smp4 smp8 smt2-2s-16 power10-96 xeon-8269cy-2s altra-80 altra-2s-160 \
	icelake-2s-128 epyc-milan-2s-256 westmere-ex-8s-160 westmere-ex-8s-80-noht pixel6 alderlake-i9-12900k arm64-2x4
MACHINE_FILES := $(PRESETS:%=data/machines/%.machine)
# the version and commit (scripts/version.sh), with src/report's objects for
# the same reason
GEN_OBJS := $(BUILD)/gen/studies.o $(BUILD)/src/work/reaim_files_gen.o \
	$(BUILD)/src/topo/machines_gen.o $(BUILD)/src/report/version_gen.o
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_OBJS)
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# fuzz targets (tests/fuzz/fuzz_NAME.c), built in their own tree with clang
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
DEPS     := $(LIB_OBJS:.o=.d) $(BUILD)/$(MAIN_SRC:.c=.d) $(TEST_BINS:=.d) $(FUZZ_BINS:=.d)

BIN := $(if $(filter build,$(BUILD)),schedlab,$(BUILD)/schedlab)
# how a recipe runs it: ./BIN for a relative BUILD, BIN itself for an absolute one
RUN_BIN := $(if $(filter /%,$(BIN)),$(BIN),./$(BIN))

.PHONY: all check unit cli-test layers asan bench clean format fuzz fuzz-build fuzz-bins fuzz-regress \
	man install uninstall doc-check FORCE
all: $(BIN) man

# one page per command, from its --help (scripts/mkman.sh), whenever the binary changes
MAN_DIR := $(BUILD)/man
man: $(MAN_DIR)/.stamp
$(MAN_DIR)/.stamp: $(BIN) scripts/mkman.sh
	@sh scripts/mkman.sh $(RUN_BIN) $(MAN_DIR) && touch $@

# make install [PREFIX=/usr/local] [DESTDIR=]: GNU's directory variables
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
DATAROOTDIR ?= $(PREFIX)/share
MANDIR     ?= $(DATAROOTDIR)/man
DOCDIR     ?= $(DATAROOTDIR)/doc/schedlab
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
INSTALL    ?= install

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 755 $(BIN) $(DESTDIR)$(BINDIR)/schedlab
	$(INSTALL) -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 completion/schedlab.bash $(DESTDIR)$(BASHCOMPDIR)/schedlab
	$(INSTALL) -m 644 README.md COPYING $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	$(INSTALL) -m 644 examples/* $(DESTDIR)$(DOCDIR)/examples/

# what install wrote (the man pages: every schedlab*.1 there), then the
# directories of its own that are left empty
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/schedlab $(DESTDIR)$(MANDIR)/man1/schedlab.1 \
		$(DESTDIR)$(MANDIR)/man1/schedlab-*.1 $(DESTDIR)$(BASHCOMPDIR)/schedlab
	rm -rf $(DESTDIR)$(DOCDIR)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/studies.c: $(STUDY_FILES) scripts/embed-studies.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-studies.sh $(STUDY_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/studies.o: $(BUILD)/gen/studies.c
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/reaim_files.c: $(REAIM_FILES) scripts/embed-reaim.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-reaim.sh $(REAIM_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/src/work/reaim_files_gen.o: $(BUILD)/gen/reaim_files.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/machines.c: $(MACHINE_FILES) scripts/embed-machines.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-machines.sh $(MACHINE_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/src/topo/machines_gen.o: $(BUILD)/gen/machines.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# asked of git on every make, but rewritten only when it changes, so that a
# new commit (or a change to a tracked file) relinks and nothing else does
$(BUILD)/gen/version.c: VERSION scripts/version.sh FORCE
	@mkdir -p $(dir $@)
	@sh scripts/version.sh VERSION > $@.tmp && \
		if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/src/report/version_gen.o: $(BUILD)/gen/version.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

FORCE:

$(BUILD)/libschedlab.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# PGO=yes (the default with gcc and no sanitizers): the program is built from a
# profile of training runs, with link-time optimisation, by scripts/pgo-build.sh
# in $(BUILD)/pgo (docs/performance.md, "The program built from a profile": about
# a fifth less time a pipe round trip, the same output), whenever a source, a
# header or an embedded file changes; the unit tests link the plain objects.
# PGO=no links it from those objects, the quick way while editing.
# $(BUILD)/bin-kind says which of the two ./schedlab is, so that switching
# PGO relinks it even where the other kind is newer than every source.
ifeq ($(PGO),yes)
PGO_INPUTS := $(SRCS) $(wildcard src/*/*.h) $(STUDY_FILES) $(REAIM_FILES) $(MACHINE_FILES) \
	$(BUILD)/gen/version.c scripts/embed-studies.sh scripts/embed-reaim.sh \
	scripts/embed-machines.sh scripts/pgo-build.sh scripts/pgo-train.sh Makefile
$(BUILD)/pgo/schedlab: $(PGO_INPUTS)
	+MAKE="$(MAKE)" BUILD="$(BUILD)" OPT="$(OPT)" sh scripts/pgo-build.sh
$(BIN): $(BUILD)/pgo/schedlab $(BUILD)/bin-kind
	cp $< $@.tmp && mv $@.tmp $@
else
$(BIN): $(BUILD)/$(MAIN_SRC:.c=.o) $(BUILD)/libschedlab.a $(BUILD)/bin-kind
	$(CC) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LDLIBS)
endif

$(BUILD)/bin-kind: FORCE
	@mkdir -p $(dir $@)
	@echo "PGO=$(PGO)" > $@.tmp && if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libschedlab.a tests/unit/test_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -MMD -MP -MF $@.d $< $(BUILD)/libschedlab.a -o $@ $(LDFLAGS) $(LDLIBS) -lcmocka

unit: $(TEST_BINS)
	@fail=0; for t in $(TEST_BINS); do \
		echo "== $$t"; $$t || fail=1; \
	done; exit $$fail

cli-test: $(BIN)
	@SCHEDLAB=$(RUN_BIN) sh tests/cli/run.sh

# the layer check links $(BUILD)'s objects as they were built, sanitizers and all;
# FUZZ_IN_CHECK=yes adds the fuzz regression replay (skipped without clang);
# DOC_CHECK_IN_CHECK=yes the documentation's examples (scripts/doc-check.sh)
FUZZ_IN_CHECK ?= yes
DOC_CHECK_IN_CHECK ?= yes
check: $(BIN) man $(TEST_BINS) $(BUILD)/$(MAIN_SRC:.c=.o)
	@BUILD=$(BUILD) CC="$(CC)" LDFLAGS="$(LDFLAGS)" LDLIBS="$(LDLIBS)" FUZZ_IN_CHECK=$(FUZZ_IN_CHECK) \
		DOC_CHECK_IN_CHECK=$(DOC_CHECK_IN_CHECK) \
		FUZZ_CC="$(FUZZ_CC)" MAKE="$(MAKE)" sh tests/run-all.sh $(RUN_BIN) $(TEST_BINS)

doc-check: $(BIN)
	@SCHEDLAB=$(RUN_BIN) sh scripts/doc-check.sh

layers: $(BIN) $(BUILD)/libschedlab.a $(BUILD)/$(MAIN_SRC:.c=.o)
	@BUILD=$(BUILD) CC="$(CC)" LDFLAGS="$(LDFLAGS)" LDLIBS="$(LDLIBS)" sh tests/layers/check.sh

# (the documentation's examples are checked by make check, not again here)
asan:
	$(MAKE) BUILD=build-asan OPT=-O1 FUZZ_IN_CHECK=no DOC_CHECK_IN_CHECK=no \
		SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" check

# ---- fuzzing (docs/reliability.md) ----
# The library is compiled again with clang, instrumented for libFuzzer and
# with ASan + UBSan, into FUZZ_BUILD; each target links it with -fsanitize=fuzzer.
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
		-fno-sanitize-recover=all

fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPT=-O1 \
		SANFLAGS="$(FUZZ_SAN)" fuzz-bins

fuzz-bins: $(FUZZ_BINS)

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_util.h $(BUILD)/libschedlab.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -MF $@.d -fsanitize=fuzzer $< $(BUILD)/libschedlab.a -o $@ \
		$(LDFLAGS) $(LDLIBS)

# run every target for FUZZ_SECONDS; fails on a finding (kept in FUZZ_BUILD/fuzz/artifacts)
fuzz: fuzz-build
	@sh tests/fuzz/run.sh fuzz $(FUZZ_BUILD) $(FUZZ_SECONDS)

# replay tests/fuzz/corpus/NAME and tests/fuzz/regress/NAME once through each target
fuzz-regress: fuzz-build
	@sh tests/fuzz/run.sh regress $(FUZZ_BUILD)

bench: $(BIN)
	sh bench/speed.sh $(RUN_BIN)

format:
	clang-format -i $(SRCS) $(wildcard src/*/*.h) $(TEST_SRCS)

clean:
	rm -rf build build-asan $(FUZZ_BUILD) schedlab

-include $(DEPS)
