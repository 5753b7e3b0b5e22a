# chessvar -- build, test, benchmark.
#
#   make              build ./chessvar
#   make play         install what is missing, build, start the variant menu
#   make serve        install what is missing, build, start the browser
#                     server (SERVE_ARGS='--host 0.0.0.0' for other devices)
#   make check        install what is missing, run every test, normal and
#                     under AddressSanitizer + UndefinedBehaviorSanitizer
#   make test         build and run the tests (SANITIZE=address,undefined
#                     for the sanitized build, in build-san/)
#   make test-web     the browser tests alone (headless chromium)
#   make bench        benchmarks (perft against Debian's stockfish)
#   make deps         apt-get install the Debian packages that are missing

CC      ?= cc
PKGS    := lua5.4 cmocka libedit libqrencode
DEB_PKGS := build-essential pkg-config liblua5.4-dev libcmocka-dev libedit-dev tmux parallel \
            libcivetweb-dev libqrencode-dev chromium

SANITIZE ?=
ifeq ($(SANITIZE),)
  BUILD := build
  OPT   ?= -O2
else
  BUILD := build-san
  OPT   ?= -O1 -g
  SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

ARCH := $(shell uname -m)
ifeq ($(ARCH),x86_64)
  MARCH ?= -mpopcnt -mbmi
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs lua5.4 libedit libqrencode 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wshadow \
           -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes -Werror \
           $(MARCH) $(SANFLAGS) $(PKG_CFLAGS) -MMD -MP
LDFLAGS += $(SANFLAGS)
# civetweb (chessvar serve) ships no pkg-config file: linked by name.
LDLIBS  := $(PKG_LIBS) -lcivetweb -lpthread -lm

LIB_SRC   := $(filter-out core/cli/main.c,$(wildcard core/*.c core/*/*.c)) \
             $(wildcard variants/*/*.c)
# The page (web/) is built into the program: tools/embed.c writes its
# files' bytes into a C file (issue 21); hidden files (.name) are left out.
WEB_FILES := $(sort $(shell find web -type f ! -name '.*' 2>/dev/null))
WEB_GEN   := $(BUILD)/gen/web_files.c
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/web_files.o
LIB       := $(BUILD)/libchessvar.a
MAIN_OBJ  := $(BUILD)/core/cli/main.o
SUPPORT_SRC := $(wildcard tests/support/*.c)
SUPPORT_OBJ := $(SUPPORT_SRC:%.c=$(BUILD)/%.o)
TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(wildcard tests/bench_*.c)
BENCH_BIN := $(BENCH_SRC:tests/%.c=$(BUILD)/tests/%)

ifeq ($(SANITIZE),)
  PROGRAM := chessvar
else
  PROGRAM := $(BUILD)/chessvar
endif

# Build in parallel by default (make -j1 to override).  Only the top
# make sets it: a sub-make (`make play` runs `make all`) shares its
# parent's job server, and setting -j again there makes GNU make warn
# "-j2 forced in makefile: resetting jobserver mode".
NPROC := $(shell nproc 2>/dev/null || echo 2)
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j%,$(MAKEFLAGS)),)
  MAKEFLAGS += -j$(NPROC)
endif
endif

.PHONY: all play serve check test test-web bench deps deps-bench deps-web deps-oracle clean \
        tests-build FORCE
# Objects made through pattern chains (test and support objects) are kept,
# so a second `make test` with nothing changed rebuilds nothing.
.SECONDARY:

all: $(PROGRAM)

$(PROGRAM): $(MAIN_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(OPT) -std=c11 -Wall -Wextra -Werror -o $@ $<

# The list of web/'s files is rewritten when it changes (a file added or
# removed, web/ made or gone), which remakes the C file.
WEB_LIST := $(BUILD)/gen/web_files.list
$(WEB_LIST): FORCE
	@mkdir -p $(dir $@)
	@echo '$(WEB_FILES)' | cmp -s - $@ || echo '$(WEB_FILES)' > $@

$(WEB_GEN): $(BUILD)/tools/embed $(WEB_FILES) $(WEB_LIST)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed web $(WEB_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/web_files.o: $(WEB_GEN)
	$(CC) $(CFLAGS) -Icore -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(SUPPORT_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(CMOCKA_LIBS)

# The benches are built with the tests: test_bench_docs runs two of them in
# a tiny size (their check of the output docs/EXPERIMENTS.md quotes).
tests-build: $(PROGRAM) $(TEST_BIN) $(BENCH_BIN)

# Every test binary runs, then the browser tests (tests/web/, issue 21);
# tests/run.sh prints one summary line.
# CHESSVAR_ORACLE=required: test_fairy_oracle fails, not skips, when the
# oracle deps-oracle installs is missing.
WEB_TESTS := $(wildcard tests/web/test_*.js)
test: tests-build deps-web deps-oracle
	@CHESSVAR=$(abspath $(PROGRAM)) CHESSVAR_ORACLE=required sh tests/run.sh $(TEST_BIN) $(WEB_TESTS)

# The browser tests alone (headless chromium, puppeteer-core); test_faces
# makes the frames of tests/web/test_faces.js.
test-web: $(PROGRAM) $(BUILD)/tests/test_faces deps-web
	@CHESSVAR=$(abspath $(PROGRAM)) sh tests/run.sh $(WEB_TESTS)

check: deps
	$(MAKE) test
	$(MAKE) SANITIZE=address,undefined test

play: deps
	$(MAKE) all
	./chessvar

serve: deps
	$(MAKE) all
	./chessvar serve $(SERVE_ARGS)

bench: deps-bench deps-web deps-oracle $(PROGRAM) $(BENCH_BIN)
	@for b in $(BENCH_BIN); do ./$$b || exit 1; done

deps:
	@sh tests/deps.sh $(DEB_PKGS)

# chess.js (npm), the reference bench_games measures in the same run; the
# bench says so and uses the issue's figure when npm is not there.
CHESSJS := build/chessjs/node_modules/chess.js/package.json
deps-bench:
	@sh tests/deps.sh $(DEB_PKGS) stockfish fairy-stockfish
	@if [ ! -f $(CHESSJS) ] && command -v npm >/dev/null 2>&1; then \
	  npm install --prefix build/chessjs --no-audit --no-fund --silent chess.js@1.4.0 \
	    || echo "chess.js could not be installed: bench_games uses the issue's figure"; fi

# puppeteer-core (npm) drives Debian's chromium (DEB_PKGS) in the browser
# tests; it never downloads a browser.  Without npm or the network the
# browser tests fail and say what is missing.
PUPPETEER := build/web-test/node_modules/puppeteer-core/package.json
deps-web:
	@if [ ! -f $(PUPPETEER) ] && command -v npm >/dev/null 2>&1; then \
	  PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix build/web-test --no-audit --no-fund --silent \
	    puppeteer-core@24.10.0 || echo "puppeteer-core could not be installed: the browser tests will fail"; fi

# chessops (lichess's rules library) and ffish (Fairy-Stockfish in
# WebAssembly), npm: the references test_fairy_oracle and bench_fairy
# compute in the same run (issue 24, tests/oracle/).  Pinned, and installed
# again when the pins change; without npm or the network test_fairy_oracle
# fails under make test and says what is missing, and bench_fairy says it
# has no reference.
ORACLE_PKGS := chessops@0.15.1 @badrap/result@0.3.1 ffish@0.7.10
deps-oracle:
	@if [ "$$(cat build/oracle/pins 2>/dev/null)" != "$(ORACLE_PKGS)" ] && command -v npm >/dev/null 2>&1; then \
	  mkdir -p build/oracle && npm install --prefix build/oracle --save-exact --no-audit --no-fund --silent $(ORACLE_PKGS) \
	    && echo "$(ORACLE_PKGS)" > build/oracle/pins \
	    || echo "chessops and ffish could not be installed: test_fairy_oracle and bench_fairy have no oracle"; fi

clean:
	rm -rf build build-san build-fuzz chessvar

# Fuzzing (tests/fuzz/): `make fuzz` runs each libFuzzer harness for a while.
-include tests/fuzz/fuzz.mk

-include $(shell find build build-san -name '*.d' 2>/dev/null)
