# Hexe - a UCI chess engine on a 0x88 board.
#   make                 build ./hexe (EXE=name, CC=compiler, ARCH=native|x86-64|...)
#   make test            unit, perft and UCI integration tests
#   make sanitize        the same tests on an AddressSanitizer + UBSan build
#   make perft-full      perft at the deepest reference depths
#   make debug           a build with assertions and position checks after every make/unmake

EXE     ?= hexe
CC      ?= cc
ARCH    ?= native
OPT     ?= -O3
WARN    := -Wall -Wextra -Wshadow -Werror
CSTD    := -std=c17
ifeq ($(ARCH),native)
  ARCHFLAGS := -march=native
else ifeq ($(ARCH),)
  ARCHFLAGS :=
else
  ARCHFLAGS := -march=$(ARCH)
endif
CFLAGS  ?= $(OPT) $(ARCHFLAGS)
ALL_CFLAGS = $(CFLAGS) $(CSTD) $(WARN) -pthread
LDLIBS  += -lm -pthread

SRC     := $(wildcard src/*.c)
BUILD   ?= build/release
OBJ     := $(SRC:src/%.c=$(BUILD)/%.o)
DEP     := $(OBJ:.o=.d)

.PHONY: all test sanitize debug perft-full clean

all: $(EXE)

$(EXE): $(OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/%.o: src/%.c | $(BUILD)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD):
	mkdir -p $@

-include $(DEP)

debug:
	$(MAKE) EXE=hexe-debug BUILD=build/debug CFLAGS="-O1 -g -DHEXE_DEBUG"

sanitize:
	$(MAKE) EXE=hexe-san BUILD=build/san \
	  CFLAGS="-O1 -g -DHEXE_DEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined"
	HEXE=./hexe-san PERFT_MAX_NODES=2000000 sh tests/run.sh

test: all
	HEXE=./$(EXE) sh tests/run.sh

perft-full: all
	python3 tests/perft.py --engine ./$(EXE) --max-nodes 0

clean:
	rm -rf build hexe hexe-debug hexe-san
