# Hexe - a UCI chess engine on a 0x88 board.
#   make                 build ./hexe (EXE=name, CC=compiler, ARCH=native|x86-64-v2|..., or ARCH= for none,
#                        NNUE_FILE= or EVALFILE= the network to embed; default nets/hexe.nnue)
#   make test            unit, perft and UCI integration tests
#   make sanitize        the same tests on an AddressSanitizer + UBSan build (./hexe-san)
#   make debug           assertions and a position check after every make/unmake (./hexe-debug)
#   make perft-full      perft at every reference depth
#   make fuzz            libFuzzer targets (tests/fuzz/), each for FUZZ_SECONDS (60)
#   make ci              what CI runs: gcc + clang builds, tests, sanitizer tests, fuzzing
#   make release         portable binaries for x86-64 (v1-v4) in dist/, with SHA256SUMS
#
# The version (`id name Hexe <version>`) is the one line of the VERSION file.
# Optional test data: HEXE_TEST_DATA (see tests/run.sh; default ../shared).

EXE     ?= hexe
CC      ?= cc
ARCH    ?= native
OPT     ?= -O3 -flto=auto
WARN    := -Wall -Wextra -Wshadow -Wmissing-declarations -Wcast-qual -Werror
ifeq ($(ARCH),native)
  ARCHFLAGS := -march=native
else ifeq ($(ARCH),)
  ARCHFLAGS :=
else
  ARCHFLAGS := -march=$(ARCH)
endif
CFLAGS  ?= $(OPT) $(ARCHFLAGS) -DNDEBUG
HEXE_VERSION := $(or $(shell cat VERSION 2>/dev/null),unknown)
# The network embedded in the binary (the nnue evaluator's default);
# EVALFILE= (OpenBench's name) sets it too.
NNUE_FILE ?= $(or $(EVALFILE),nets/hexe.nnue)
ALL_CFLAGS = $(CFLAGS) -std=c17 -D_GNU_SOURCE -DHEXE_VERSION='"$(HEXE_VERSION)"' $(WARN) -pthread \
             -DHEXE_NNUE_FILE='"$(NNUE_FILE)"'
LDLIBS  += -lfathom -lm -pthread

SRC     := $(wildcard src/*.c src/eval/*.c src/syzygy/*.c src/tools/*.c)
BUILD   ?= build/release
OBJ     := $(SRC:src/%.c=$(BUILD)/%.o)
LIBOBJ  := $(filter-out $(BUILD)/main.o,$(OBJ))
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
DEP     := $(OBJ:.o=.d) $(TESTS:=.d)

.PHONY: FORCE all test tests sanitize debug perft-full clean check-fathom ci release fuzz fuzz-build fuzz-bins

all: $(EXE)

# Fathom (Debian's libfathom-dev) is linked, never copied in.
check-fathom:
	@echo '#include <tbprobe.h>' | $(CC) -E -x c - >/dev/null 2>&1 || { \
	  echo "error: Fathom not found (tbprobe.h). Install it: apt-get install libfathom-dev" >&2; exit 1; }

$(EXE): $(OBJ) | check-fathom
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/%.o: src/%.c | check-fathom
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -MMD -MP -o $@ $< $(LIBOBJ) $(LDFLAGS) $(LDLIBS)

# nnue.o is rebuilt when the network's path or contents change, even to an
# older file (git mv, cp -p): the stamp holds the path and a checksum and is
# rewritten only when they differ.
$(BUILD)/eval/nnue.o: $(NNUE_FILE) $(BUILD)/nnue-file
$(BUILD)/nnue-file: FORCE
	@mkdir -p $(dir $@)
	@{ echo '$(NNUE_FILE)'; cksum < '$(NNUE_FILE)' 2>/dev/null; } > $@.new; \
	 cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@
FORCE:
# The files that print the version are rebuilt when it changes.
$(BUILD)/uci.o $(BUILD)/play.o: $(wildcard VERSION)
# The commit a build comes from (-dirty: with changes not committed), which
# datagen records beside the games it plays (tools/pool.c); the stamp
# rebuilds pool.o when it changes.
HEXE_COMMIT := $(shell c=$$(git rev-parse --short=7 HEAD 2>/dev/null) || c=unknown; \
  [ -z "$$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || c=$$c-dirty; echo $$c)
$(BUILD)/tools/pool.o: ALL_CFLAGS += -DHEXE_COMMIT='"$(HEXE_COMMIT)"'
$(BUILD)/tools/pool.o: $(BUILD)/commit
$(BUILD)/commit: FORCE
	@mkdir -p $(dir $@)
	@echo '$(HEXE_COMMIT)' > $@.new; cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@

-include $(DEP)

tests: $(TESTS)

test: $(EXE) $(TESTS)
	HEXE=./$(EXE) TEST_BIN=$(BUILD)/tests sh tests/run.sh

debug:
	$(MAKE) EXE=hexe-debug BUILD=build/debug CFLAGS="-O1 -g -DHEXE_DEBUG" test

SANFLAGS := -O1 -g -DHEXE_DEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sanitize:
	$(MAKE) --no-print-directory EXE=hexe-san BUILD=build/san CFLAGS="$(SANFLAGS)" LDFLAGS="-fsanitize=address,undefined" \
	  PERFT_MAX_NODES=300000 HEXE_SANITIZED=1 test

# What CI runs: warning-free gcc and clang builds, every test on the release
# build, then every test again under AddressSanitizer + UBSan, then each
# fuzz target for a minute.
ci:
	$(MAKE) --no-print-directory -j2 CC=clang EXE=hexe-clang BUILD=build/clang hexe-clang
	$(MAKE) --no-print-directory -j2 CC=gcc test
	$(MAKE) --no-print-directory -j2 CC=gcc sanitize
	$(MAKE) --no-print-directory -j2 fuzz FUZZ_SECONDS=60

# libFuzzer targets (clang, with AddressSanitizer and UBSan): the FEN
# parser, `position ... moves`, and whole UCI lines against a live engine.
# Each runs FUZZ_SECONDS from its seed corpus and regression inputs in
# tests/fuzz/corpus/<target>/ (new inputs go to build/fuzz/corpus/, findings
# to build/fuzz/artifacts/); any finding fails the run.
FUZZ_TARGETS := fuzz_fen fuzz_moves fuzz_uci
FUZZ_SECONDS ?= 60
FUZZCFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
fuzz-build:
	$(MAKE) --no-print-directory CC=clang BUILD=build/fuzz CFLAGS="$(FUZZCFLAGS)" fuzz-bins

fuzz-bins: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIBOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -fsanitize=fuzzer -o $@ $< $(LIBOBJ) $(LDFLAGS) $(LDLIBS)

# The targets run side by side (FUZZ_JOBS=1: one after another).
FUZZ_JOBS ?= 3
fuzz: fuzz-build
	@mkdir -p build/fuzz/artifacts
	@run() { \
	  mkdir -p build/fuzz/corpus/$$1; \
	  build/fuzz/fuzz/$$1 -max_total_time=$(FUZZ_SECONDS) -timeout=20 -print_final_stats=1 -dict=tests/fuzz/uci.dict \
	    -artifact_prefix=build/fuzz/artifacts/$$1- build/fuzz/corpus/$$1 tests/fuzz/corpus/$$1 \
	    >build/fuzz/$$1.log 2>&1; echo $$? >build/fuzz/$$1.rc; }; \
	echo "fuzzing $(FUZZ_TARGETS) for $(FUZZ_SECONDS) s each"; \
	if [ "$(FUZZ_JOBS)" -gt 1 ]; then \
	  for t in $(FUZZ_TARGETS); do run $$t & done; wait; \
	else \
	  for t in $(FUZZ_TARGETS); do run $$t; done; \
	fi; \
	bad=0; \
	for t in $(FUZZ_TARGETS); do \
	  if [ "$$(cat build/fuzz/$$t.rc)" != 0 ]; then \
	    tail -50 build/fuzz/$$t.log; echo "$$t: FINDING (log build/fuzz/$$t.log, input in build/fuzz/artifacts/)"; bad=1; \
	  else \
	    echo "$$t: $$(grep -E '^#[0-9]+.*DONE' build/fuzz/$$t.log | tail -1)"; \
	  fi; \
	done; \
	exit $$bad

# Portable binaries for each x86-64 level in dist/, their SHA256SUMS, and a
# short self-check game by each one the CPU can run (scripts/release).
release:
	sh scripts/release

perft-full: $(EXE)
	python3 tests/perft.py --engine ./$(EXE) --max-nodes 0

clean:
	rm -rf build hexe hexe-debug hexe-san hexe-clang tests/out dist
