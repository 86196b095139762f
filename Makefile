# schedlab — GNU make build.
#   make          build ./schedlab
#   make check    build and run the whole test suite (cmocka unit tests, CLI/golden tests,
#                 layer boundaries)
#   make asan     build and run the test suite with AddressSanitizer + UBSan
#   make bench    the simulator's own speed benchmark (bench/speed.sh)

CC      ?= gcc
BUILD   ?= build
OPT     ?= -O2
SANFLAGS ?=
CFLAGS  := -std=c17 -Wall -Wextra -Werror $(OPT) -g -D_GNU_SOURCE -Isrc $(SANFLAGS) $(EXTRA_CFLAGS)
LDFLAGS := $(SANFLAGS)
LDLIBS  := -lm

# Every .c under src/ except the program entry point goes into the library that
# both the binary and the unit tests link against.
SRCS     := $(sort $(wildcard src/*/*.c))
MAIN_SRC := src/cli/main.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(SRCS))
# the packaged studies, compiled in as strings (scripts/embed-studies.sh)
STUDY_FILES := $(sort $(wildcard studies/*.study))
GEN_OBJS := $(BUILD)/gen/studies.o
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_OBJS)
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
DEPS     := $(LIB_OBJS:.o=.d) $(BUILD)/$(MAIN_SRC:.c=.d) $(TEST_BINS:=.d)

BIN := $(if $(filter build,$(BUILD)),schedlab,$(BUILD)/schedlab)

.PHONY: all check unit cli-test layers asan bench clean format
all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/studies.c: $(STUDY_FILES) scripts/embed-studies.sh
	@mkdir -p $(dir $@)
	sh scripts/embed-studies.sh $(STUDY_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/studies.o: $(BUILD)/gen/studies.c
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libschedlab.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/$(MAIN_SRC:.c=.o) $(BUILD)/libschedlab.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libschedlab.a tests/unit/test_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -MMD -MP -MF $@.d $< $(BUILD)/libschedlab.a -o $@ $(LDFLAGS) $(LDLIBS) -lcmocka

unit: $(TEST_BINS)
	@fail=0; for t in $(TEST_BINS); do \
		echo "== $$t"; $$t || fail=1; \
	done; exit $$fail

cli-test: $(BIN)
	@SCHEDLAB=./$(BIN) sh tests/cli/run.sh

# the layer check links $(BUILD)'s objects as they were built, sanitizers and all
check: $(BIN) $(TEST_BINS)
	@BUILD=$(BUILD) CC="$(CC)" LDFLAGS="$(LDFLAGS)" sh tests/run-all.sh ./$(BIN) $(TEST_BINS)

layers: $(BIN)
	@BUILD=$(BUILD) CC="$(CC)" LDFLAGS="$(LDFLAGS)" sh tests/layers/check.sh

asan:
	$(MAKE) BUILD=build-asan OPT=-O1 \
		SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" check

bench: $(BIN)
	sh bench/speed.sh ./$(BIN)

format:
	clang-format -i $(SRCS) $(wildcard src/*/*.h) $(TEST_SRCS)

clean:
	rm -rf build build-asan schedlab

-include $(DEPS)
