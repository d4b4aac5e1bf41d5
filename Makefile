# tagk: build, test, benchmark and install.
#
#   make                 lib/libtagk.a and the commands in bin/
#   make check           cmocka suites under ASan+UBSan (double and float),
#                        the lib/ symbol check, and command-line tests
#   make bench           timing table of every estimator (tagk-bench timing)
#   make demo            the README's first command: a quick benchmark run
#   make install         PREFIX=/usr/local DESTDIR= : commands, library,
#                        headers, man pages, tagk.pc
#   make deps            install the Debian packages (as root) or print the line
#   make FLOAT=1 ...     single-precision build

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGDIR ?= $(LIBDIR)/pkgconfig

CC ?= cc
AR ?= ar
CFLAGS ?= -O2 -g
WARN := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion \
	-Wdouble-promotion -Wstrict-prototypes -Wmissing-prototypes
FLOAT ?= 0
ifeq ($(FLOAT),1)
DEFS := -DTAGK_FLOAT
BUILD := build/float
else
DEFS :=
BUILD := build/host
endif
CPPFLAGS_ALL := -D_POSIX_C_SOURCE=200809L $(DEFS) $(CPPFLAGS)
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

LIB_SRC := $(sort $(wildcard lib/*.c))
LIB_HDR := $(sort $(wildcard lib/*.h))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
BENCH_SRC := bench/harness.c bench/naive_kaczmarz.c
CMDS := tagk-bench
BINS := $(CMDS:%=bin/%)
TESTS := rng linalg kaczmarz rls kf estimator regressor consistency
MAN1 := $(sort $(wildcard man/*.1))
MAN57 := $(sort $(wildcard man/*.5 man/*.7))
VERSION := $(shell sed -n 's/^\#define TAGK_VERSION "\(.*\)"/\1/p' lib/tagk.h)

.PHONY: all check test-unit test-float test-cli check-lib check-m7 bench demo install uninstall deps clean

all: lib/libtagk.a $(BINS)

# Rewritten only when the scalar type changes, so that switching between
# `make` and `make FLOAT=1` relinks the archive, the commands and tagk.pc.
build/config: FORCE
	@mkdir -p build
	@echo '$(DEFS)' | cmp -s - $@ || echo '$(DEFS)' > $@
FORCE:

$(BUILD)/%.o: %.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS_ALL) $(CFLAGS) -c $< -o $@

lib/libtagk.a: $(LIB_OBJ) build/config
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

bin/tagk-bench: cmd/tagk-bench.c cmd/cli.c cmd/cli.h $(BENCH_SRC) bench/alloc_count.c \
		bench/*.h lib/libtagk.a build/config
	@mkdir -p bin
	$(CC) $(WARN) $(CPPFLAGS_ALL) $(CFLAGS) -o $@ \
		cmd/tagk-bench.c cmd/cli.c $(BENCH_SRC) bench/alloc_count.c lib/libtagk.a -lm

# Unit tests: the library sources compiled into each driver with sanitizers,
# once in double (build/asan) and once in float (build/asan-float).
build/asan/test_%: tests/test_%.c tests/testutil.c tests/*.h $(LIB_SRC) $(LIB_HDR) $(BENCH_SRC)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-missing-prototypes -Wno-conversion -Wno-double-promotion \
		-D_POSIX_C_SOURCE=200809L -O1 -g $(SAN) -o $@ $< tests/testutil.c $(LIB_SRC) \
		bench/naive_kaczmarz.c -lcmocka -lm
build/asan-float/test_%: tests/test_%.c tests/testutil.c tests/*.h $(LIB_SRC) $(LIB_HDR) $(BENCH_SRC)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-missing-prototypes -Wno-conversion -Wno-double-promotion \
		-D_POSIX_C_SOURCE=200809L -DTAGK_FLOAT -O1 -g $(SAN) -o $@ $< tests/testutil.c \
		$(LIB_SRC) bench/naive_kaczmarz.c -lcmocka -lm

# test-cli runs last: its closing "N passed, N failed" line ends the output.
check: test-unit test-float check-lib check-m7
	@$(MAKE) --no-print-directory test-cli

test-unit: $(TESTS:%=build/asan/test_%)
	@set -e; for t in $^; do echo "== $$t"; ./$$t; done

test-float: $(TESTS:%=build/asan-float/test_%)
	@set -e; for t in $^; do echo "== $$t (float)"; ./$$t; done

# lib/ must build for a bare-metal Cortex-M7: the only external symbols its
# objects may use are libm's and a few freestanding string routines.
check-lib: lib/libtagk.a
	@sh tests/check_lib_symbols.sh lib/libtagk.a
	@$(MAKE) --no-print-directory FLOAT=1 build/float/lib.stamp

build/float/lib.stamp: $(LIB_SRC:%.c=build/float/%.o)
	@sh tests/check_lib_symbols.sh $^ && touch $@

# lib/ for the Teensy 4.1's Cortex-M7 (double-precision FPU), in double and
# float: compile warning-free, pass the symbol check, link a bare-metal
# program against newlib. Skipped, with a message, without the cross compiler.
M7_CC := arm-none-eabi-gcc
M7_FLAGS := -mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard -mthumb -O2
check-m7:
	@if ! command -v $(M7_CC) >/dev/null 2>&1; then \
		echo "check-m7: skipped: $(M7_CC) not installed (Debian: gcc-arm-none-eabi libnewlib-arm-none-eabi)"; \
	else \
		set -e; for v in double float; do \
			d=build/m7-$$v; mkdir -p $$d; \
			defs=$$( [ $$v = float ] && echo -DTAGK_FLOAT || true ); \
			for f in $(LIB_SRC); do \
				$(M7_CC) $(WARN) -Werror $$defs $(M7_FLAGS) -c $$f -o $$d/$$(basename $$f .c).o; \
			done; \
			sh tests/check_lib_symbols.sh $$d/*.o; \
			$(M7_CC) $$defs $(M7_FLAGS) -std=c11 -Ilib --specs=nosys.specs tests/m7_link.c \
				$$d/*.o -lm -o $$d/m7_link.elf 2>&1 | { grep -v 'is not implemented and will always fail' || true; }; \
			test -s $$d/m7_link.elf; \
			echo "check-m7: lib/ ($$v) compiles and links for Cortex-M7: $$(arm-none-eabi-size $$d/m7_link.elf | awk 'NR == 2 { print $$1 " bytes of code" }')"; \
		done; \
	fi

test-cli: $(BINS)
	@sh tests/cli_test.sh

bench: bin/tagk-bench
	./bin/tagk-bench timing

demo: bin/tagk-bench
	./bin/tagk-bench timing --updates 300 -n 10,40,120 \
		--methods tagk,tagk-naive,grk,rls-low,kf-low

tagk.pc: tagk.pc.in lib/tagk.h build/config
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' -e 's|@CFLAGS@|$(DEFS)|' tagk.pc.in > $@

install: all tagk.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/tagk \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(PKGDIR)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 lib/libtagk.a $(DESTDIR)$(LIBDIR)
	install -m 644 $(LIB_HDR) $(DESTDIR)$(INCDIR)/tagk
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	for f in $(MAN57); do install -m 644 $$f $(DESTDIR)$(MANDIR)/man$${f##*.}; done
	install -m 644 tagk.pc $(DESTDIR)$(PKGDIR)

uninstall:
	rm -f $(CMDS:%=$(DESTDIR)$(BINDIR)/%) $(DESTDIR)$(LIBDIR)/libtagk.a $(DESTDIR)$(PKGDIR)/tagk.pc
	rm -rf $(DESTDIR)$(INCDIR)/tagk
	for f in $(MAN1) $(MAN57); do rm -f $(DESTDIR)$(MANDIR)/man$${f##*.}/$${f##*/}; done

deps:
	@sh scripts/install-deps

clean:
	rm -rf build bin lib/libtagk.a tagk.pc
