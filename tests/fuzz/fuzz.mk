# tests/fuzz/fuzz.mk -- libFuzzer harnesses (docs/FUZZING.md), included by
# the Makefile.  Never part of `make check` (the replay of the committed
# corpora is: tests/test_fuzz_replay.c).
#
#   make fuzz                        every harness, FUZZ_SECONDS each, in
#                                    parallel, then one line of figures each
#   make fuzz FUZZ_TARGETS=batch FUZZ_SECONDS=600
#   make fuzz-merge                  minimize corpus + findings into
#                                    build-fuzz/merged/TARGET (to pick from)
#   make fuzz-clean
#
# Everything is built with Debian's clang into build-fuzz/: the library
# sources (core/*.c but main.c, variants/*/*.c) and
# tests/support/fuzz_targets.c with -fsanitize=fuzzer-no-link,address,
# undefined, each tests/fuzz/fuzz_TARGET.c linked with -fsanitize=fuzzer.
# A run works on a copy of the committed corpus (build-fuzz/corpus/TARGET,
# which keeps what earlier runs found); crashes go to build-fuzz/crashes/.

FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_TARGETS  ?= batch record position house
FUZZ_FLAGS    ?=
FUZZ_DIR      := build-fuzz
FUZZ_DEB_PKGS := clang libclang-rt-14-dev
FUZZ_SAN      := address,undefined
FUZZ_CFLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
                 -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -fno-sanitize-recover=all \
                 $(MARCH) $(PKG_CFLAGS) -MMD -MP
FUZZ_LIB_OBJ  := $(LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o) \
                 $(FUZZ_DIR)/obj/tests/support/fuzz_targets.o
FUZZ_BINS     := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-deps fuzz-merge fuzz-clean

fuzz-deps:
	@sh tests/deps.sh $(FUZZ_DEB_PKGS)

$(FUZZ_DIR)/obj/%.o: %.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $^ $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

# One run per target (in parallel under make -j), its log in
# build-fuzz/TARGET.log; the figures are printed at the end.
fuzz-run-%: $(FUZZ_DIR)/fuzz_%
	@mkdir -p $(FUZZ_DIR)/corpus/$* $(FUZZ_DIR)/crashes/$*
	@rm -f $(FUZZ_DIR)/$*.rc
	@cp -n tests/fuzz/corpus/$*/* $(FUZZ_DIR)/corpus/$*/ 2>/dev/null || true
	@echo "fuzz: $* for $(FUZZ_SECONDS) s (log: $(FUZZ_DIR)/$*.log)"
	@./$< -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_DIR)/crashes/$*/ $(FUZZ_FLAGS) \
	    $(FUZZ_DIR)/corpus/$* > $(FUZZ_DIR)/$*.log 2>&1; \
	  echo $$? > $(FUZZ_DIR)/$*.rc

fuzz: $(FUZZ_TARGETS:%=fuzz-run-%)
	@fail=0; for t in $(FUZZ_TARGETS); do \
	  log=$(FUZZ_DIR)/$$t.log; \
	  execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log | tail -n1); \
	  secs=$$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' $$log | tail -n1); \
	  speed=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $$log | tail -n1); \
	  cov=$$(grep -o 'cov: [0-9]*' $$log | tail -n1); \
	  crashes=$$(ls $(FUZZ_DIR)/crashes/$$t | wc -l); \
	  corpus=$$(ls $(FUZZ_DIR)/corpus/$$t | wc -l); \
	  echo "fuzz $$t: $${execs:-?} inputs in $${secs:-?} s ($${speed:-?}/s), $$cov," \
	       "corpus $$corpus, crash files $$crashes, exit $$(cat $(FUZZ_DIR)/$$t.rc)"; \
	  [ "$$(cat $(FUZZ_DIR)/$$t.rc)" = 0 ] || { fail=1; grep -m3 -A3 '^fuzz: \|ERROR:' $$log; }; \
	done; exit $$fail

# Minimize the committed corpus plus what runs found into a fresh
# directory; copy a handful of the results into tests/fuzz/corpus/ by hand.
fuzz-merge: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  rm -rf $(FUZZ_DIR)/merged/$$t; mkdir -p $(FUZZ_DIR)/merged/$$t; \
	  ./$(FUZZ_DIR)/fuzz_$$t -merge=1 $(FUZZ_DIR)/merged/$$t tests/fuzz/corpus/$$t \
	    $(FUZZ_DIR)/corpus/$$t > $(FUZZ_DIR)/$$t.merge.log 2>&1 || exit 1; \
	  echo "fuzz-merge $$t: $$(ls $(FUZZ_DIR)/merged/$$t | wc -l) files"; \
	done

fuzz-clean:
	rm -rf $(FUZZ_DIR)

-include $(shell find $(FUZZ_DIR) -name '*.d' 2>/dev/null)
