# infragate: build, test and install.
#
# `make` builds build/infragate and the five program-name links beside it.
# `make run` and `make check` install missing Debian packages first (make deps),
# so both work on a fresh machine. The project's own flags live apart from the
# user's CFLAGS, so `make CFLAGS=-O0` keeps warnings and include paths.

VERSION := 0.1.0

CC         ?= cc
CFLAGS     ?= -O2 -g
LDFLAGS    ?=
PKG_CONFIG ?= pkg-config
PREFIX     ?= /usr/local
DESTDIR    ?=
WERROR     ?= 1
SANITIZE   ?=
FUZZ_SECONDS ?= 30
FUZZ_ROUNDS ?= 200
FUZZ_SEED ?= $(shell date +%s)

DEP_PKGS   := yaml-0.1 libpcre2-8 lua5.4 libcrypto
DEP_CFLAGS  = $(shell $(PKG_CONFIG) --cflags $(DEP_PKGS) 2>/dev/null)
# STATIC_DEPS=1 (the default) links libyaml, PCRE2, Lua and libcrypto
# statically: dynamic linking of the four costs about 0.7 ms of every run's
# start-up, half of a one-file lint. Packagers set STATIC_DEPS=0.
STATIC_DEPS ?= 1
ifeq ($(STATIC_DEPS),1)
DEP_LIBS    = -Wl,-Bstatic $(shell $(PKG_CONFIG) --libs $(DEP_PKGS) 2>/dev/null) \
              -Wl,-Bdynamic -lm -lpthread -ldl
else
DEP_LIBS    = $(shell $(PKG_CONFIG) --libs $(DEP_PKGS) 2>/dev/null) -lm -lpthread
endif
TEST_CFLAGS = $(shell $(PKG_CONFIG) --cflags criterion 2>/dev/null)
TEST_LIBS   = $(shell $(PKG_CONFIG) --libs criterion 2>/dev/null)

# -Wno-format-truncation: snprintf into bounded buffers is how we cut on
# purpose; gcc's guesses about path lengths are not findings.
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wwrite-strings -Wformat=2 -Wvla -Wundef -Wpointer-arith -Wcast-qual \
        -Wno-format-truncation
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -ffp-contract=off \
             -pthread -I. $(WARN) $(if $(filter 1,$(WERROR)),-Werror) \
             -DINFRAGATE_VERSION='"$(VERSION)"' $(DEP_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = -pthread $(LDFLAGS)
ifneq ($(SANITIZE),)
ALL_CFLAGS  += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif
# STATIC_EXE=1 (the default beside STATIC_DEPS=1) links the program itself
# as a static PIE, the C library too: with no dynamic loader to run, a
# one-verb run starts about 0.3 ms sooner, a seventh of `reliability
# simulate` (tests/bench), and the binary keeps its address randomisation
# (a plain -static would save 0.1 ms more without it). Never under a
# sanitizer (its runtime is dynamic) nor for valgrind (check-valgrind
# builds its own dynamic copy: memcheck cannot see malloc in a static
# program). Unit tests link dynamically either way.
STATIC_EXE ?= $(if $(SANITIZE),0,$(STATIC_DEPS))
ifeq ($(STATIC_EXE),1)
BIN_LIBS = -static-pie $(shell $(PKG_CONFIG) --libs $(DEP_PKGS) 2>/dev/null) -lm -lpthread -ldl
else
BIN_LIBS = $(DEP_LIBS)
endif
comma := ,
B := build$(if $(SANITIZE),-$(subst $(comma),-,$(SANITIZE)))

PROGRAM_LINKS := chaos-fidelity promotion-gate edge-placement airan-resiliency pue-ladder

CORE_SRC  := $(sort $(wildcard core/*/*.c))
MAIN_SRC  := core/cli/main.c
LIB_SRC   := $(filter-out $(MAIN_SRC),$(CORE_SRC))
LIB_OBJ   := $(LIB_SRC:%.c=$(B)/%.o)
MAIN_OBJ  := $(MAIN_SRC:%.c=$(B)/%.o)
LIB       := $(B)/libinfragate.a
BIN       := $(B)/infragate

UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN  := $(UNIT_SRC:%.c=$(B)/%)
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
REPLAY    := $(B)/tests/fuzz/replay

.PHONY: all deps run check check-unit check-cli check-replay check-structured check-packs \
        check-validate check-layers hdr-check check-man check-help check-asan check-valgrind \
        lint format-check fuzz fuzz-structured coverage bench install clean

all: $(BIN) $(PROGRAM_LINKS:%=$(B)/%)

$(B)/%.o: %.c Makefile
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(MAIN_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(LIB) $(BIN_LIBS)

$(PROGRAM_LINKS:%=$(B)/%): $(BIN)
	@ln -sf infragate $@

# Unit tests: one Criterion binary per tests/unit/test_<module>.c.
$(B)/tests/unit/%.o: tests/unit/%.c Makefile
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -Wno-missing-prototypes -MMD -MP -c -o $@ $<

$(B)/tests/unit/test_%: $(B)/tests/unit/test_%.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(DEP_LIBS) $(TEST_LIBS)

$(REPLAY): tests/fuzz/replay.c $(B)/tests/fuzz/fuzz_yaml.o $(LIB) Makefile
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ tests/fuzz/replay.c $(B)/tests/fuzz/fuzz_yaml.o $(LIB) $(DEP_LIBS)

$(B)/tests/fuzz/%.o: tests/fuzz/%.c Makefile
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -MMD -MP -c -o $@ $<

-include $(shell find $(B) -name '*.d' 2>/dev/null)

deps:
	@sh tests/deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	$(BIN) lint fixtures/*/good
	-$(BIN) lint fixtures/*/bad; echo "(exit $$? expected: 1 or 2)"
	$(BIN) test

check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -k check-unit check-cli check-replay check-structured \
	  check-packs check-validate check-layers hdr-check check-man check-help

check-unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

check-cli: all
	@sh tests/gen-yaml-fixtures.sh build/fixtures-yaml
	@/usr/bin/python3 tests/cli/runcases.py --bin $(B) tests/cli/cases

check-replay: $(REPLAY)
	@sh tests/gen-yaml-fixtures.sh build/fixtures-yaml
	@$(REPLAY) tests/fuzz/corpus fixtures/yaml build/fixtures-yaml

# A short fixed-seed pass of the structured fuzzer (tests/fuzz/structured.py):
# mutated real documents through lint, odd --set values through the
# programs; `make fuzz-structured` runs a long one.
check-structured: all
	@/usr/bin/python3 tests/fuzz/structured.py --bin $(B) --rounds 3 --set-runs 100 \
	  --compat-runs 100 --sweep --seed 1

check-packs: all
	@$(BIN) test

check-validate: all
	@$(BIN) validate

check-layers:
	@sh tests/check-layers.sh

hdr-check:
	@sh tests/hdr-check.sh "$(CC)" "$(ALL_CFLAGS)"

check-man: all
	@sh tests/check-man.sh $(BIN) core/cli/infragate.1

check-help: all
	@sh tests/check-help.sh $(BIN)

SANLOG = $(CURDIR)/build-address-undefined/sanlogs
check-asan:
	rm -rf $(SANLOG) && mkdir -p $(SANLOG)
	ASAN_OPTIONS=log_path=$(SANLOG)/asan:detect_leaks=1 \
	UBSAN_OPTIONS=log_path=$(SANLOG)/ubsan:print_stacktrace=1 \
	  $(MAKE) --no-print-directory SANITIZE=address,undefined CFLAGS="-O1 -g" check
	@if ls $(SANLOG)/* >/dev/null 2>&1; then cat $(SANLOG)/*; exit 1; fi
	@echo "check-asan: no sanitizer reports"

VGLOG = $(CURDIR)/build/vglogs
VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
           --trace-children=yes --log-file=$(VGLOG)/vg.%p.log
VG_B = build-dynamic
check-valgrind: all $(UNIT_BIN) $(REPLAY)
	@$(MAKE) --no-print-directory B=$(VG_B) STATIC_EXE=0 $(VG_B)/infragate \
	  $(PROGRAM_LINKS:%=$(VG_B)/%)
	rm -rf $(VGLOG) && mkdir -p $(VGLOG)
	VALGRIND="$(VALGRIND)" sh tests/run-unit.sh $(UNIT_BIN)
	$(VALGRIND) $(REPLAY) tests/fuzz/corpus fixtures/yaml
	/usr/bin/python3 tests/cli/runcases.py --wrap "$(VALGRIND)" --timeout-factor 20 --bin $(VG_B) tests/cli/cases
	@if grep -l 'ERROR SUMMARY: [1-9]' $(VGLOG)/*.log 2>/dev/null; then exit 1; fi
	@echo "check-valgrind: no valgrind errors"

lint:
	@sh tests/lint.sh

format-check:
	@clang-format --dry-run --Werror $(CORE_SRC) $(wildcard core/*/*.h)

fuzz:
	@mkdir -p build-fuzz
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -ffp-contract=off -I. \
	  -g -O1 -fsanitize=fuzzer,address,undefined -DINFRAGATE_VERSION='"$(VERSION)"' \
	  $(DEP_CFLAGS) -o build-fuzz/fuzz_yaml tests/fuzz/fuzz_yaml.c $(LIB_SRC) $(DEP_LIBS)
	mkdir -p build-fuzz/corpus && cp tests/fuzz/corpus/* build-fuzz/corpus/
	build-fuzz/fuzz_yaml -max_len=4096 -max_total_time=$(FUZZ_SECONDS) build-fuzz/corpus

fuzz-structured: all
	/usr/bin/python3 tests/fuzz/structured.py --bin $(B) --rounds $(FUZZ_ROUNDS) \
	  --set-runs $$(($(FUZZ_ROUNDS) * 20)) --compat-runs $$(($(FUZZ_ROUNDS) * 20)) \
	  --sweep --seed $(FUZZ_SEED)

coverage:
	$(MAKE) --no-print-directory B=build-cov CFLAGS="-O0 -g --coverage" LDFLAGS=--coverage check
	gcovr --root . --filter core/ --object-directory build-cov --fail-under-line 60

BARE := $(B)/tests/bench/bare_parse
$(BARE): tests/bench/bare_parse.c Makefile
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $< $(shell $(PKG_CONFIG) --libs yaml-0.1)

# run.sh is the engine's own; every other tests/bench/<pack>.sh is a pack's.
bench: all $(BARE)
	@sh tests/bench/run.sh $(BIN) $(BARE)
	@for s in $(filter-out tests/bench/run.sh,$(wildcard tests/bench/*.sh)); do \
	  echo; echo "== $$s"; sh $$s $(B) || exit 1; done

install: all
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	  "$(DESTDIR)$(PREFIX)/share/infragate"
	install -m 0755 "$(BIN)" "$(DESTDIR)$(PREFIX)/bin/infragate"
	for n in $(PROGRAM_LINKS); do ln -sf infragate "$(DESTDIR)$(PREFIX)/bin/$$n"; done
	install -m 0644 core/cli/infragate.1 "$(DESTDIR)$(PREFIX)/share/man/man1/infragate.1"
	sh tests/install-data.sh "$(DESTDIR)$(PREFIX)/share/infragate"

clean:
	rm -rf build build-* 
