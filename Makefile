# Hexe - a UCI chess engine on a 0x88 board.
#   make                 build ./hexe (EXE=name, CC=compiler, ARCH=native|x86-64-v2|..., or ARCH= for none,
#                        NNUE_FILE= or EVALFILE= the network to embed; default nets/hexe.nnue)
#   make test            unit, perft and UCI integration tests
#   make sanitize        the same tests on an AddressSanitizer + UBSan build (./hexe-san)
#   make debug           assertions and a position check after every make/unmake (./hexe-debug)
#   make perft-full      perft at every reference depth
#   make fuzz            libFuzzer targets (tests/fuzz/), each for FUZZ_SECONDS (60)
#   make ci              what CI runs: gcc + clang builds, tests, sanitizer tests, fuzzing
#   make release         the release archives in dist/: Windows and static Linux, checked (docs/release.md)
#   make cross-check     the Windows build compiles (MinGW-w64 and Fathom's source; no Wine needed)
#   make TUNE=1          the tuning build ./hexe-tune (build/tune): the search parameters of
#                        src/tunables.h as UCI options, for scripts/spsa
#   make wasm            the WebAssembly build (emscripten) and the page in web/ (docs/web.md);
#                        make wasm-scalar: the build without WebAssembly SIMD (web/hexe-scalar.*)
#
# The version (`id name Hexe <version>`) is the one line of the VERSION file.
# Optional test data: HEXE_TEST_DATA (see tests/run.sh; default ../shared).
#
# Portable builds (scripts/release):
#   FATHOM_SRC=dir       compile Fathom from dir (tbprobe.c: Debian's source package, which
#                        scripts/fathom-source fetches) instead of linking libfathom-dev's -lfathom
#   STATIC=1             link statically
#   CC=x86_64-w64-mingw32-gcc-posix FATHOM_SRC=dir
#                        a Windows hexe.exe (MinGW-w64), static, without the training tools

# The tuning build: its own binary and objects, the parameters as variables.
ifeq ($(TUNE),1)
  EXE   ?= hexe-tune
  BUILD ?= build/tune
  TUNEFLAGS := -DHEXE_TUNE
endif
CC      ?= cc
WINDOWS := $(if $(findstring mingw,$(shell $(CC) -dumpmachine 2>/dev/null)),1,)
EXE     ?= hexe$(if $(WINDOWS),.exe,)
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
             -DHEXE_NNUE_FILE='"$(NNUE_FILE)"' $(TUNEFLAGS)
ifneq ($(FATHOM_SRC),)
  ALL_CFLAGS += -I$(FATHOM_SRC)
  FATHOM_OBJ = $(BUILD)/fathom/tbprobe.o
else ifneq ($(WINDOWS),)
  $(error a Windows build compiles Fathom from its source: FATHOM_SRC=dir (scripts/fathom-source))
else
  LDLIBS += -lfathom
endif
LDLIBS  += -lm -pthread
ifneq ($(WINDOWS),)
  # 64-bit file sizes, C99 printf formats and localtime_r from MinGW-w64's C library.
  ALL_CFLAGS += -D_FILE_OFFSET_BITS=64 -D__USE_MINGW_ANSI_STDIO=1 -D_POSIX_THREAD_SAFE_FUNCTIONS -DHEXE_NO_TOOLS
  STATIC := 1
endif
ifneq ($(STATIC),)
  LDFLAGS += -static
endif

SRC     := $(wildcard src/*.c src/eval/*.c src/syzygy/*.c $(if $(WINDOWS),,src/tools/*.c))
BUILD   ?= build/release
OBJ     := $(SRC:src/%.c=$(BUILD)/%.o)
LIBOBJ  := $(filter-out $(BUILD)/main.o,$(OBJ))
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
DEP     := $(OBJ:.o=.d) $(TESTS:=.d)

.PHONY: FORCE all test tests sanitize debug perft-full clean check-fathom ci release cross-check fuzz fuzz-build \
        fuzz-bins wasm wasm-engine wasm-scalar wasm-page wasm-data check-emcc

all: $(EXE)

# Fathom (Debian's libfathom-dev) is linked, never copied in; portable
# builds compile Debian's source of it (FATHOM_SRC), fetched outside git.
check-fathom:
ifneq ($(FATHOM_SRC),)
	@test -f '$(FATHOM_SRC)/tbprobe.c' || { \
	  echo "error: no tbprobe.c in FATHOM_SRC=$(FATHOM_SRC); fetch Debian's source: scripts/fathom-source" >&2; exit 1; }
else
	@echo '#include <tbprobe.h>' | $(CC) -E -x c - >/dev/null 2>&1 || { \
	  echo "error: Fathom not found (tbprobe.h). Install it: apt-get install libfathom-dev" >&2; exit 1; }
endif

$(EXE): $(OBJ) $(FATHOM_OBJ) | check-fathom
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# Fathom from source, with the flags of Debian's own build (debian/rules:
# no locks, no hardware popcount); its code is not held to Hexe's warnings.
ifneq ($(FATHOM_SRC),)
$(FATHOM_OBJ): $(FATHOM_SRC)/tbprobe.c | check-fathom
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -std=gnu99 -w -DTB_NO_THREADS -DTB_NO_HW_POP_COUNT -I$(FATHOM_SRC) -c -o $@ $<
endif

$(BUILD)/%.o: src/%.c | check-fathom
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIBOBJ) $(FATHOM_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -MMD -MP -o $@ $< $(LIBOBJ) $(FATHOM_OBJ) $(LDFLAGS) $(LDLIBS)

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
# fuzz target for half a minute (side by side) from its committed corpus.
# The tuning build is built once, at -O1 in its own folder, for
# tests/test_tune_build.py (HEXE_TUNE). The Windows build's
# compile check (tests/test_cross.py) must run there, not be skipped.
TUNE_CI := build/tune-ci/hexe-tune
ci:
	$(MAKE) --no-print-directory -j2 CC=clang EXE=hexe-clang BUILD=build/clang hexe-clang
	$(MAKE) --no-print-directory -j2 CC=gcc TUNE=1 OPT=-O1 EXE=$(TUNE_CI) BUILD=build/tune-ci $(TUNE_CI)
	HEXE_TUNE=$(TUNE_CI) HEXE_REQUIRE_CROSS=1 $(MAKE) --no-print-directory -j2 CC=gcc test
	HEXE_TUNE=$(TUNE_CI) HEXE_REQUIRE_CROSS=1 $(MAKE) --no-print-directory -j2 CC=gcc sanitize
	$(MAKE) --no-print-directory -j2 fuzz FUZZ_SECONDS=30

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

# The release archives (Windows and static Linux) in dist/ with SHA256SUMS,
# each build checked by playing (scripts/release, docs/release.md).
release:
	sh scripts/release

# The Windows build compiles and links (what CI keeps of the release checks).
cross-check:
	sh scripts/cross-check

# ---- WebAssembly: web/hexe.js, hexe.wasm and hexe.worker.js, and the page ----
# Debian's emscripten compiles the engine (less main.c and the training
# tools) with web/engine/main.c as its entry, and Fathom from the source of
# Debian's fathom package (scripts/fathom-source, as for the release: the
# folder it prints is kept in $(WASM_BUILD)/fathom-src). The page's packages
# come from npm (web/package-lock.json). Nothing here is needed by the
# native build or `make ci`.
EMCC        ?= emcc
WASM_BUILD  ?= build/wasm
WASM_FATHOM_DIR := $(WASM_BUILD)/fathom-src
WASM_FATHOM = $(shell cat $(WASM_FATHOM_DIR) 2>/dev/null)
WASM_SIMD   ?= 1
WASM_OUT    ?= web/hexe.js
WASM_OBJDIR := $(WASM_BUILD)/obj-simd$(WASM_SIMD)
WASM_SRC    := $(filter-out src/main.c,$(wildcard src/*.c src/eval/*.c src/syzygy/*.c)) web/engine/main.c
WASM_OBJ    := $(WASM_SRC:%.c=$(WASM_OBJDIR)/%.o) $(WASM_OBJDIR)/fathom/tbprobe.o
WASM_CFLAGS := -O3 -flto $(if $(filter 1,$(WASM_SIMD)),-msimd128) -pthread -DNDEBUG
# One worker per search thread is made before main() (a pthread cannot start
# while the worker that asked for it waits); more threads than that are
# refused (EAGAIN: the engine says so and searches with the threads it has).
WASM_POOL   := Math.max(2,Math.min(32,(typeof navigator=='object'&&navigator.hardwareConcurrency)||4))
WASM_LDFLAGS := -O3 -flto -pthread -sPTHREAD_POOL_SIZE="$(WASM_POOL)" -sPTHREAD_POOL_SIZE_STRICT=2 \
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sMAXIMUM_MEMORY=2GB -sTOTAL_STACK=8MB \
  -sDEFAULT_PTHREAD_STACK_SIZE=8MB -sENVIRONMENT=web,worker,node -sEXPORTED_FUNCTIONS=_main,_hexe_command \
  -sEXPORTED_RUNTIME_METHODS=ccall -sFORCE_FILESYSTEM=1 --pre-js web/engine/pre.js
# Debian's emscripten runs its JS tools with Debian's node-acorn.
WASM_ENV    := NODE_PATH=$${NODE_PATH:+$$NODE_PATH:}/usr/share/nodejs

wasm: wasm-engine wasm-page wasm-data

wasm-scalar:
	$(MAKE) --no-print-directory WASM_SIMD=0 WASM_OUT=web/hexe-scalar.js wasm-engine

wasm-engine: $(WASM_OUT)

$(WASM_OUT): $(WASM_OBJ) web/engine/pre.js
	$(WASM_ENV) $(EMCC) $(WASM_LDFLAGS) -o $@ $(WASM_OBJ)

check-emcc:
	@command -v $(EMCC) >/dev/null || { echo "error: emcc not found: apt-get install emscripten" >&2; exit 1; }

$(WASM_OBJDIR)/%.o: %.c | check-emcc $(WASM_FATHOM_DIR)
	@mkdir -p $(dir $@)
	$(WASM_ENV) $(EMCC) $(WASM_CFLAGS) -std=c17 -D_GNU_SOURCE -DHEXE_VERSION='"$(HEXE_VERSION)"' $(WARN) \
	  -DHEXE_NNUE_FILE='"$(NNUE_FILE)"' -Isrc -I$(WASM_FATHOM) -MMD -MP -c -o $@ $<

# As Debian builds it; __linux__ tells its stdendian.h that <endian.h> is there (musl's).
$(WASM_OBJDIR)/fathom/tbprobe.o: $(WASM_FATHOM_DIR) | check-emcc
	@mkdir -p $(dir $@)
	$(WASM_ENV) $(EMCC) $(WASM_CFLAGS) -std=gnu99 -w -D__linux__ -DTB_NO_THREADS -DTB_NO_HW_POP_COUNT \
	  -I$(WASM_FATHOM) -c -o $@ $(WASM_FATHOM)/tbprobe.c

$(WASM_FATHOM_DIR): | check-emcc
	@mkdir -p $(dir $@)
	sh scripts/fathom-source > $@.new && mv $@.new $@

# LTO's bitcode cannot hold the embedded network (data in module assembly).
$(WASM_OBJDIR)/src/eval/nnue.o: WASM_CFLAGS += -fno-lto
$(WASM_OBJDIR)/src/eval/nnue.o: $(NNUE_FILE) $(BUILD)/nnue-file
$(WASM_OBJDIR)/src/uci.o: $(wildcard VERSION)
-include $(WASM_OBJ:.o=.d)

# The page: web/src/*.js bundled by esbuild with chessground and chessops.
WEB_SRC := $(wildcard web/src/*.js)
wasm-page: web/dist/app.js web/dist/chessground.css
web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
web/dist/app.js: $(WEB_SRC) web/node_modules/.package-lock.json
	@mkdir -p web/dist
	web/node_modules/.bin/esbuild web/src/app.js --bundle --format=esm --target=es2020 --outfile=$@
web/dist/chessground.css: web/node_modules/.package-lock.json
	@mkdir -p web/dist
	cat web/node_modules/chessground/assets/chessground.base.css web/node_modules/chessground/assets/chessground.brown.css \
	  web/node_modules/chessground/assets/chessground.cburnett.css > $@

# The data the page fetches: the book and the 3-4-piece tables, with a list.
wasm-data: web/data/files.json
web/data/files.json: books/book.bin $(wildcard tablebases/*.rtb[wz])
	@mkdir -p web/data/books web/data/tablebases
	cp books/book.bin web/data/books/
	cp tablebases/*.rtb[wz] web/data/tablebases/
	cd web/data && find books tablebases -type f | sort | python3 -c \
	  'import json,sys; print(json.dumps([l.strip() for l in sys.stdin]))' > files.json

perft-full: $(EXE)
	python3 tests/perft.py --engine ./$(EXE) --max-nodes 0

clean:
	rm -rf build hexe hexe-debug hexe-san hexe-clang hexe-tune tests/out dist web/hexe*.js web/hexe*.wasm web/dist \
	  web/data
