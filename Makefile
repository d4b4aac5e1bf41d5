# tagk: build, test, benchmark and install.
#
#   make                 lib/libtagk.a and the commands in bin/
#   make check           cmocka suites under ASan+UBSan (double and float),
#                        the lib/ symbol check, and command-line tests
#   make bench           timing table of every estimator (tagk-bench timing),
#                        the Eigen yardstick (make bench-eigen) and the pipeline
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
DATADIR ?= $(PREFIX)/share/tagk

CC ?= cc
AR ?= ar
# -O3: the kernels' row updates vectorise; no flag changes floating-point
# semantics (no -ffast-math, no FMA contraction on x86-64 without -march),
# so results are those of -O2 and of the Cortex-M7 build.
CFLAGS ?= -O3 -g
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
# The benchmarks' simulators (bench/sim): freestanding C like lib/, built
# into their own archive for tagk-bench and the tests, and into the
# Cortex-M7 image. LIB_HDR, the headers every object depends on, has theirs.
SIM_SRC := $(sort $(wildcard bench/sim/*.c))
SIM_HDR := $(sort $(wildcard bench/sim/*.h))
LIB_HDR := $(sort $(wildcard lib/*.h lib/*.def)) $(SIM_HDR)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
SIM_LIB := $(BUILD)/libtagksim.a
BENCH_SRC := bench/harness.c bench/naive_kaczmarz.c bench/device.c
CMDS := tagk-bench tagk-regress tagk-estimate tagk-filter tagk-report
FMT_SRC := $(sort $(wildcard formats/*.c))
# formats/*.cpp: C shims over C++ libraries (fast_float, header-only; fmt's
# Dragonbox, from libfmt.so), built without exceptions or RTTI so that no
# C++ runtime is linked into tagk itself (libfmt.so brings its own)
FMT_CXX := $(sort $(wildcard formats/*.cpp))
CXX ?= c++
CXXFLAGS_FMT := -std=c++11 -fno-exceptions -fno-rtti -Wall -Wextra
FMT_HDR := $(sort $(wildcard formats/*.h))
# formats/ is compiled once per build into an archive the commands link
FMT_LIB := $(BUILD)/libtagkfmt.a
ASAN_FMT_LIB := build/asan/libtagkfmt.a
# cmd/: one folder per command (cmd/regress/ ...) over cmd/common/ (argument
# parsing, messages, stream I/O, what more than one command shares). The
# sources keep the #include lines they had when cmd/ was one folder ("cli.h",
# "../lib/tagk.h"): CMD_INC finds them in cmd/common/ and from cmd/, so that
# edits made to the old paths merge by git's rename detection.
# tests/include_rules.sh resolves them the same way.
CMD_COMMON := $(sort $(wildcard cmd/common/*.c))
CMD_HDR := $(sort $(wildcard cmd/*/*.h))
CMD_INC := -iquote cmd/common -iquote cmd
# tagk-bench: the paper reproductions, simulators' drivers and benchmarks,
# in bench/ over the pipeline commands' shared code, cmd/common/ (CMD_COMMON)
BENCH_CMD := $(filter-out $(BENCH_SRC) bench/alloc_count.c bench/alloc_none.c bench/codec_speed.c bench/tagk-bench.c,$(sort $(wildcard bench/*.c)))
# Resolved when a recipe uses them (deferred =), not when
# the Makefile is read: `make deps demo` installs HDF5 before asking for it.
# libhdf5 is not linked: formats/h5load.c loads it (its soname from
# scripts/hdf5-soname) when a command first reads or writes HDF5, so that
# its thirty-odd shared libraries are not mapped by every command's start.
DEPS_CFLAGS = $(shell pkg-config --cflags hdf5 2>/dev/null) $(shell pkg-config --cflags cairo 2>/dev/null) \
	$(shell pkg-config --cflags libxml-2.0 2>/dev/null) -DTAGK_HDF5_SONAME='"$(shell sh scripts/hdf5-soname)"'
DEPS_LIBS = $(shell pkg-config --libs cairo 2>/dev/null) -lcsv -lz -lmuparser -lxml2 -lfmt -lxxhash
HDF5_LIBS = $(shell pkg-config --libs hdf5 2>/dev/null)
BINS := $(CMDS:%=bin/%)
TESTS := rng linalg kaczmarz rls rls_ld multibody dmls shake kf outlier pcls estimator regressor signals metrics consistency quad mass arm cnn coordinv uncert excitation changepoint detect baseparam
MAN1 := $(sort $(wildcard man/*.1))
# The vehicle files and robot descriptions tagk ships: --vehicle NAME and
# --robot NAME find them in $(DATADIR) (../share/tagk beside the installed
# commands: DATADIR follows PREFIX).
VEHICLES := $(sort $(wildcard datasets/*.veh datasets/*.model datasets/*.urdf datasets/*.xml))
MAN57 := $(sort $(wildcard man/*.5 man/*.7))
VERSION := $(shell sed -n 's/^\#define TAGK_VERSION "\(.*\)"/\1/p' lib/tagk.h)

include datasets/Makefile.inc

# A missing library is named with its Debian package before any compiler runs.
.DEFAULT_GOAL := all

build-deps:
	@sh scripts/check-deps build
test-deps:
	@sh scripts/check-deps test

# Keep chained targets (the .elf behind each .hex) instead of deleting them.
.SECONDARY:

.PHONY: mutate bench-kdl bench-eigen FORCE train test-fuzz-replay fuzz fuzz-seeds build-deps test-deps teensy qemu-bench all check test-unit test-float test-formats test-cli check-lib check-m7 check-datasets datasets bench bench-pipeline docs-check demo install uninstall deps clean

all: lib/libtagk.a $(BINS)

# Rewritten only when the scalar type changes, so that switching between
# `make` and `make FLOAT=1` relinks the archive, the commands and tagk.pc.
build/config: FORCE
	@mkdir -p build
	@echo '$(DEFS) $(CFLAGS)' | cmp -s - $@ || echo '$(DEFS) $(CFLAGS)' > $@
FORCE:

$(BUILD)/%.o: %.c $(LIB_HDR) build/config
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS_ALL) $(CFLAGS) -c $< -o $@

lib/libtagk.a: $(LIB_OBJ) build/config
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

# formats/ needs the libraries' headers (HDF5, cairo, libxml2) and POSIX
$(BUILD)/formats/%.o: formats/%.c $(FMT_HDR) $(LIB_HDR) build/config | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-conversion $(CPPFLAGS_ALL) -D_DEFAULT_SOURCE $(DEPS_CFLAGS) $(CFLAGS) -c $< -o $@
$(BUILD)/formats/%.o: formats/%.cpp $(FMT_HDR) build/config | build-deps
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_FMT) $(CFLAGS) -c $< -o $@
$(FMT_LIB): $(FMT_SRC:%.c=$(BUILD)/%.o) $(FMT_CXX:%.cpp=$(BUILD)/%.o)
	rm -f $@
	$(AR) rcs $@ $^
build/asan-obj/formats/%.o: formats/%.c $(FMT_HDR) $(LIB_HDR) | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-conversion -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(DEPS_CFLAGS) -O1 -g $(SAN) -c $< -o $@
build/asan-obj/formats/%.o: formats/%.cpp $(FMT_HDR) | build-deps
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_FMT) -O1 -g $(SAN) -fno-sanitize=vptr -c $< -o $@
$(ASAN_FMT_LIB): $(FMT_SRC:%.c=build/asan-obj/%.o) $(FMT_CXX:%.cpp=build/asan-obj/%.o)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(SIM_LIB): $(SIM_SRC:%.c=$(BUILD)/%.o) build/config
	rm -f $@
	$(AR) rcs $@ $(SIM_SRC:%.c=$(BUILD)/%.o)

bin/tagk-bench: bench/tagk-bench.c $(BENCH_CMD) $(CMD_COMMON) $(CMD_HDR) $(BENCH_SRC) bench/alloc_count.c \
		bench/*.h $(FMT_LIB) $(FMT_HDR) $(SIM_LIB) lib/libtagk.a build/config | build-deps
	@mkdir -p bin
	$(CC) $(WARN) -Wno-conversion $(CPPFLAGS_ALL) -D_DEFAULT_SOURCE $(CMD_INC) $(DEPS_CFLAGS) $(CFLAGS) -o $@ \
		bench/tagk-bench.c $(BENCH_CMD) $(CMD_COMMON) $(BENCH_SRC) bench/alloc_count.c $(FMT_LIB) \
		$(SIM_LIB) lib/libtagk.a $(DEPS_LIBS) -lm

# Pipeline commands: tagk-NAME is cmd/NAME/*.c (its main in cmd/NAME/tagk-NAME.c)
# over cmd/common/, formats/ and lib/, with the objects CMD_OBJ_NAME lists.
CMD_SRC = $(sort $(wildcard cmd/$(1)/*.c))
# cmd/filter/filter_expr.cpp: muParser's C++ interface (its C one cannot switch off the
# built-in operators), so with exceptions and RTTI, unlike formats/*.cpp.
CXXFLAGS_EXPR := -std=c++11 -Wall -Wextra
$(BUILD)/cmd/filter/filter_expr.o: cmd/filter/filter_expr.cpp cmd/filter/filter_expr.h build/config | build-deps
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_EXPR) $(CFLAGS) -c $< -o $@
CMD_OBJ_filter = $(BUILD)/cmd/filter/filter_expr.o -lstdc++
bin/tagk-filter: $(BUILD)/cmd/filter/filter_expr.o
build/asan-bin/tagk-filter: CMD_OBJ_filter = build/asan-obj/cmd/filter/filter_expr.o -lstdc++
build/asan-bin/tagk-filter: build/asan-obj/cmd/filter/filter_expr.o
bin/tagk-%: $(CMD_COMMON) $(CMD_HDR) cmd/*/*.c $(FMT_LIB) $(FMT_HDR) lib/libtagk.a build/config | build-deps
	@mkdir -p bin
	$(CC) $(WARN) -Wno-conversion $(CPPFLAGS_ALL) -D_DEFAULT_SOURCE $(CMD_INC) $(DEPS_CFLAGS) $(CFLAGS) -o $@ \
		$(call CMD_SRC,$*) $(CMD_OBJ_$*) $(CMD_COMMON) $(FMT_LIB) lib/libtagk.a $(DEPS_LIBS) -lm

# Unit tests: each driver linked against the library built with sanitizers,
# once in double (build/asan) and once in float (build/asan-float). The
# library is compiled once per scalar type into an archive, not once per
# driver: with some thirty drivers that is most of make check's time.
ASAN_LIB_OBJ := $(LIB_SRC:%.c=build/asan-obj/%.o)
ASANF_LIB_OBJ := $(LIB_SRC:%.c=build/asan-float-obj/%.o)
ASAN_SIM_OBJ := $(SIM_SRC:%.c=build/asan-obj/%.o)
ASANF_SIM_OBJ := $(SIM_SRC:%.c=build/asan-float-obj/%.o)
ASAN_LIB_FLAGS := $(WARN) -Wno-missing-prototypes -Wno-conversion -Wno-double-promotion \
	-D_POSIX_C_SOURCE=200809L -O1 -g $(SAN)
build/asan-obj/%.o: %.c $(LIB_HDR) | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_LIB_FLAGS) -c $< -o $@
build/asan-float-obj/%.o: %.c $(LIB_HDR) | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_LIB_FLAGS) -DTAGK_FLOAT -c $< -o $@
build/asan/libtagk.a: $(ASAN_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $(ASAN_LIB_OBJ)
build/asan-float/libtagk.a: $(ASANF_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $(ASANF_LIB_OBJ)
build/asan/libtagksim.a: $(ASAN_SIM_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $(ASAN_SIM_OBJ)
build/asan-float/libtagksim.a: $(ASANF_SIM_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $(ASANF_SIM_OBJ)
build/asan/test_%: tests/test_%.c tests/testutil.c tests/*.h build/asan/libtagksim.a build/asan/libtagk.a $(BENCH_SRC) \
		| test-deps
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_LIB_FLAGS) -o $@ $< tests/testutil.c bench/naive_kaczmarz.c build/asan/libtagksim.a \
		build/asan/libtagk.a -lcmocka -lm
build/asan-float/test_%: tests/test_%.c tests/testutil.c tests/*.h build/asan-float/libtagksim.a \
		build/asan-float/libtagk.a $(BENCH_SRC) | test-deps
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_LIB_FLAGS) -DTAGK_FLOAT -o $@ $< tests/testutil.c bench/naive_kaczmarz.c \
		build/asan-float/libtagksim.a build/asan-float/libtagk.a -lcmocka -lm

# --- fuzzing ---------------------------------------------------------------
# One harness per reader (tests/fuzz/fuzz_*.c). `make check` replays the
# regression corpus tests/fuzz/corpus/TARGET with the usual compiler and the
# sanitizers; `make fuzz` runs libFuzzer (clang) FUZZ_SECONDS per target,
# two at a time with -j2, and prints executions per target.
FUZZ_TARGETS := csv stream binary hdf5 cfusd model vehicle expr friction robotxml ulog rxwrite
FUZZ_SECONDS ?= 60
FUZZ_SRC := tests/fuzz/fuzz_table.c build/fuzz/cxx/filter_expr.o $(FMT_SRC) $(LIB_SRC)
FUZZ_DEPS := tests/fuzz/*.h tests/fuzz/fuzz_table.c cmd/filter/filter_expr.cpp cmd/filter/filter_expr.h $(FMT_SRC) $(FMT_HDR) $(LIB_SRC) $(LIB_HDR)
build/asan-obj/cmd/filter/filter_expr.o: cmd/filter/filter_expr.cpp cmd/filter/filter_expr.h | build-deps
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_EXPR) -O1 -g $(SAN) -fno-sanitize=vptr -c $< -o $@
build/fuzz-replay/%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_DEPS) build/asan-obj/cmd/filter/filter_expr.o $(ASAN_FMT_LIB) \
		build/asan/libtagk.a | build-deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L $(DEPS_CFLAGS) -O1 -g $(SAN) -o $@ $< \
		tests/fuzz/replay.c tests/fuzz/fuzz_table.c build/asan-obj/cmd/filter/filter_expr.o $(ASAN_FMT_LIB) build/asan/libtagk.a \
		$(DEPS_LIBS) -lstdc++ -lm
test-fuzz-replay: $(FUZZ_TARGETS:%=build/fuzz-replay/%)
	@for t in $(FUZZ_TARGETS); do build/fuzz-replay/$$t tests/fuzz/corpus/$$t || exit 1; done
build/fuzz/cxx/%.o: formats/%.cpp | build-deps
	@command -v clang++ >/dev/null || { echo "make fuzz needs clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev)"; exit 1; }
	@mkdir -p $(dir $@)
	clang++ $(CXXFLAGS_FMT) -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=vptr \
		-fno-sanitize-recover=all -c $< -o $@
build/fuzz/cxx/filter_expr.o: cmd/filter/filter_expr.cpp cmd/filter/filter_expr.h | build-deps
	@command -v clang++ >/dev/null || { echo "make fuzz needs clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev)"; exit 1; }
	@mkdir -p $(dir $@)
	clang++ $(CXXFLAGS_EXPR) -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=vptr -fno-sanitize-recover=all -c $< -o $@
build/fuzz/%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS) build/fuzz/cxx/filter_expr.o $(FMT_CXX:formats/%.cpp=build/fuzz/cxx/%.o) | build-deps
	@command -v clang >/dev/null || { echo "make fuzz needs clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev)"; exit 1; }
	@mkdir -p $(dir $@)
	clang -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L $(DEPS_CFLAGS) -O1 -g \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $< $(FUZZ_SRC) \
		$(FMT_CXX:formats/%.cpp=build/fuzz/cxx/%.o) $(DEPS_LIBS) -lstdc++ -lm
fuzz-seeds: build/mkfixtures $(BINS)
	@sh tests/fuzz/seeds.sh
fuzz-%: build/fuzz/% fuzz-seeds
	@sh tests/fuzz/run $(FUZZ_SECONDS) $*
fuzz: $(FUZZ_TARGETS:%=fuzz-%)
	@echo "fuzz: every target ran $(FUZZ_SECONDS) s without a finding (build/fuzz/summary.txt)"

# test-cli runs last: its closing "N passed, N failed" line ends the output.
check: test-unit test-float test-formats check-lib check-m7 check-datasets test-fuzz-replay
	@$(MAKE) --no-print-directory test-cli

datasets: bin/tagk-bench
	./bin/tagk-bench $(SYNTH_CLEAN) -o datasets/synth-payload.csv
	./bin/tagk-bench $(SYNTH_NOISY) -o datasets/synth-payload-noisy.csv
	./bin/tagk-bench $(SIM_CLEAN) -o datasets/sim-figure8.csv
	./bin/tagk-bench $(SIM_NOISY) -o datasets/sim-figure8-noisy.csv
	./bin/tagk-bench $(UAV_DROP) -o datasets/uav-square-drop.csv
	./bin/tagk-bench $(SHAKE_ONE) --model-out datasets/arm.model -o datasets/shake-4500.csv

check-datasets: bin/tagk-bench
	@mkdir -p build/datasets
	@./bin/tagk-bench $(SYNTH_CLEAN) -o build/datasets/synth-payload.csv
	@./bin/tagk-bench $(SYNTH_NOISY) -o build/datasets/synth-payload-noisy.csv
	@./bin/tagk-bench $(SIM_CLEAN) -o build/datasets/sim-figure8.csv 2>/dev/null
	@./bin/tagk-bench $(SIM_NOISY) -o build/datasets/sim-figure8-noisy.csv 2>/dev/null
	@./bin/tagk-bench $(UAV_DROP) -o build/datasets/uav-square-drop.csv 2>/dev/null
	@./bin/tagk-bench $(SHAKE_ONE) --model-out build/datasets/arm.model -o build/datasets/shake-4500.csv 2>/dev/null
	@for f in $(DATASETS); do cmp $$f build/$$f || { echo "check-datasets: $$f differs from what its command makes now"; exit 1; }; done
	@echo "check-datasets: the bundled logs are what their commands make: ok"

# Paper 004's 1D-CNN (lib/cnn.c): simulate 5000 shaken objects, train on
# 0..3999 with python3-torch (CPU, about a minute on 2 cores), export the
# weights. Not part of check; the shipped header is checked against torch by
# tests/cnn_oracle_test.sh when python3-torch is installed. The shipped
# network is smaller than the paper's (64 filters, 128): tagk-papers(7),
# paper 004's section, says why and what that costs.
CNN_FILTERS := 16
CNN_HIDDEN := 64
train: bin/tagk-bench
	@/usr/bin/python3 -c 'import torch' 2>/dev/null || { echo "train: needs python3-torch (apt-get install python3-torch)"; exit 1; }
	@mkdir -p build
	./bin/tagk-bench shake --objects 5000 --seed 1 -o build/shake-train.h5
	/usr/bin/python3 scripts/train-cnn build/shake-train.h5 lib/cnn_weights.h --filters $(CNN_FILTERS) --hidden $(CNN_HIDDEN)

test-unit: $(TESTS:%=build/asan/test_%)
	@set -e; for t in $^; do echo "== $$t"; ./$$t; done

build/asan/test_numconv: tests/test_numconv.c tests/numconv_exact.c tests/numconv_exact.h formats/numconv.c \
		formats/numconv.h $(FMT_CXX:formats/%.cpp=build/asan-obj/formats/%.o) | test-deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -O1 -g $(SAN) -o $@ $< tests/numconv_exact.c formats/numconv.c \
		$(FMT_CXX:formats/%.cpp=build/asan-obj/formats/%.o) -lcmocka -lfmt -lm

build/asan/test_pipeout: tests/test_pipeout.c formats/pipeout.c formats/pipeout.h | test-deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -O1 -g $(SAN) -o $@ $< formats/pipeout.c -lcmocka -lm

build/asan/test_outfile: tests/test_outfile.c formats/outfile.c formats/outfile.h | test-deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -O1 -g $(SAN) -o $@ $< formats/outfile.c -lcmocka -lm

build/asan/test_binary: tests/test_binary.c formats/binary.h | test-deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -O1 -g $(SAN) -o $@ $< -lcmocka -lm

build/asan/test_binary_enc: tests/test_binary_enc.c formats/binary_enc.c formats/binary_dec.c formats/binary.h | test-deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -O1 -g $(SAN) -o $@ $< formats/binary_enc.c formats/binary_dec.c -lcmocka -lm

test-formats: build/asan/test_numconv build/asan/test_pipeout build/asan/test_outfile build/asan/test_binary \
		build/asan/test_binary_enc
	@set -e; for t in $^; do echo "== $$t"; ./$$t; done

test-float: $(TESTS:%=build/asan-float/test_%)
	@set -e; for t in $^; do echo "== $$t (float)"; ./$$t; done

# lib/ must build for a bare-metal Cortex-M7: the only external symbols its
# objects may use are libm's and a few freestanding string routines.
check-lib: lib/libtagk.a $(SIM_LIB) $(FMT_LIB)
	@sh tests/check_lib_symbols.sh lib/libtagk.a
	@sh tests/check_lib_symbols.sh $(SIM_LIB) lib/libtagk.a
	@sh tests/include_rules.sh $(FMT_LIB)
	@sh tests/function_length.sh lib formats cmd/common cmd/regress cmd/estimate cmd/filter cmd/report bench bench/sim \
		bench/teensy bench/qemu tests tests/fuzz
	@$(MAKE) --no-print-directory FLOAT=1 build/float/lib.stamp

build/float/lib.stamp: $(LIB_SRC:%.c=build/float/%.o) $(SIM_SRC:%.c=build/float/%.o)
	@sh tests/check_lib_symbols.sh $^ && touch $@

# lib/ for the Teensy 4.1's Cortex-M7 (double-precision FPU), in double and
# float: compile warning-free, pass the symbol check, link a bare-metal
# program against newlib. Skipped, with a message, without the cross compiler.
M7_CC := arm-none-eabi-gcc
M7_FLAGS := -mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard -mthumb -O2
M7_LINK = $(M7_CC) -std=c11 $(M7_FLAGS) -Wall -Wextra -ffunction-sections -fdata-sections -Ilib \
	-nostartfiles --specs=nano.specs --specs=nosys.specs -Wl,--gc-sections
DEVICE_SRC := bench/device.c bench/harness.c bench/naive_kaczmarz.c $(SIM_SRC) $(LIB_SRC)
DEVICE_DEPS := $(DEVICE_SRC) bench/*.h $(LIB_HDR)
NOSYS_NOISE := grep -v 'is not implemented and will always fail' || true

# The Teensy 4.1 image (double and float): flash with
#   teensy_loader_cli --mcu=TEENSY41 -w build/teensy-double/tagk-bench.hex
teensy: build/teensy-double/tagk-bench.hex build/teensy-float/tagk-bench.hex
build/teensy-%/tagk-bench.elf: bench/teensy/boot.c bench/teensy/startup.c bench/teensy/imxrt1062.ld $(DEVICE_DEPS)
	@mkdir -p $(dir $@)
	@$(M7_LINK) $(if $(filter float,$*),-DTAGK_FLOAT) -T bench/teensy/imxrt1062.ld \
		bench/teensy/boot.c bench/teensy/startup.c $(DEVICE_SRC) -lm -o $@ 2>&1 | { $(NOSYS_NOISE); }
	@test -s $@ && echo "built $@"
build/teensy-%/tagk-bench.hex: build/teensy-%/tagk-bench.elf
	arm-none-eabi-objcopy -O ihex $< $@

# The same core under QEMU's mps2-an500 (Cortex-M7), instructions counted
# with -icount: the full table, and a small one for the tests.
QEMU_RUN := qemu-system-arm -M mps2-an500 -cpu cortex-m7 -nographic -monitor none -serial none \
	-semihosting-config enable=on,target=native -icount shift=0 -kernel
build/qemu-%/tagk-bench.elf: bench/qemu/startup.c bench/qemu/mps2.ld $(DEVICE_DEPS)
	@mkdir -p $(dir $@)
	@$(M7_LINK) $(if $(filter float,$*),-DTAGK_FLOAT) -T bench/qemu/mps2.ld bench/qemu/startup.c \
		$(DEVICE_SRC) -lm -o $@ 2>&1 | { $(NOSYS_NOISE); }
	@test -s $@ && echo "built $@"
build/qemu-%/tagk-bench-small.elf: bench/qemu/startup.c bench/qemu/mps2.ld $(DEVICE_DEPS) Makefile
	@mkdir -p $(dir $@)
	@$(M7_LINK) $(if $(filter float,$*),-DTAGK_FLOAT) -DBENCH_SIZES=41,42,60 -DBENCH_UPDATES=3 \
		-T bench/qemu/mps2.ld bench/qemu/startup.c $(DEVICE_SRC) -lm -o $@ 2>&1 | { $(NOSYS_NOISE); }
	@test -s $@ && echo "built $@"
build/hostdev-%: tests/hostdev.c $(DEVICE_DEPS)
	@mkdir -p build
	$(CC) -std=c11 -D_DEFAULT_SOURCE -O2 $(if $(filter float,$*),-DTAGK_FLOAT) -o $@ tests/hostdev.c \
		$(DEVICE_SRC) -lm

qemu-bench: build/qemu-double/tagk-bench.elf build/qemu-float/tagk-bench.elf
	@for v in double float; do \
		$(QEMU_RUN) build/qemu-$$v/tagk-bench.elf > build/qemu-$$v/bench.csv 2>&1 || exit 1; \
		sh bench/qemu/table.sh build/qemu-$$v/bench.csv; echo; \
	done
	@sh bench/qemu/targets.sh build/qemu-double/bench.csv build/qemu-float/bench.csv
check-m7:
	@if command -v $(M7_CC) >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory teensy build/qemu-double/tagk-bench-small.elf \
			build/qemu-float/tagk-bench-small.elf build/hostdev-double build/hostdev-float \
			&& sh tests/m7_test.sh || exit 1; \
	fi
	@if ! command -v $(M7_CC) >/dev/null 2>&1; then \
		echo "check-m7: skipped: $(M7_CC) not installed (Debian: gcc-arm-none-eabi libnewlib-arm-none-eabi)"; \
	else \
		set -e; for v in double float; do \
			d=build/m7-$$v; mkdir -p $$d; \
			defs=$$( [ $$v = float ] && echo -DTAGK_FLOAT || true ); \
			for f in $(LIB_SRC) $(SIM_SRC); do \
				$(M7_CC) $(WARN) -Werror $$defs $(M7_FLAGS) -c $$f -o $$d/$$(basename $$f .c).o; \
			done; \
			sh tests/check_lib_symbols.sh $$d/*.o; \
			$(M7_CC) $$defs $(M7_FLAGS) -std=c11 -Ilib --specs=nosys.specs tests/m7_link.c \
				$$d/*.o -lm -o $$d/m7_link.elf 2>&1 | { grep -v 'is not implemented and will always fail' || true; }; \
			test -s $$d/m7_link.elf; \
			echo "check-m7: lib/ and bench/sim/ ($$v) compile and link for Cortex-M7: $$(arm-none-eabi-size $$d/m7_link.elf | awk 'NR == 2 { print $$1 " bytes of code" }')"; \
		done; \
	fi

build/mkfixtures: tests/mkfixtures.c | build-deps
	@mkdir -p build
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra $(DEPS_CFLAGS) -o $@ $< $(HDF5_LIBS) $(DEPS_LIBS) -lm
build/mkh5links: tests/mkh5links.c | build-deps
	@mkdir -p build
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra $(DEPS_CFLAGS) -o $@ $< $(HDF5_LIBS)
build/nosandbox: tests/nosandbox.c
	@mkdir -p build
	$(CC) -std=c11 -Wall -Wextra -o $@ $<

# The version 4 codec alone, ns a row (not a test: binary_enc.c's and
# binary_dec.c's figures; bench/codec_speed.c says how to run it).
build/codec-speed: bench/codec_speed.c formats/binary_enc.c formats/binary_dec.c formats/binary.h formats/binary_avx2.h
	@mkdir -p build
	$(CC) -std=c11 -Wall -Wextra $(CFLAGS) -o $@ $< formats/binary_enc.c formats/binary_dec.c

# The commands again with ASan and UBSan, for the pipeline battery.
ASAN_BINS := $(CMDS:%=build/asan-bin/%)
build/asan-bin/tagk-bench: bench/tagk-bench.c $(BENCH_CMD) $(CMD_COMMON) $(CMD_HDR) $(BENCH_SRC) bench/alloc_none.c \
		bench/*.h $(ASAN_FMT_LIB) $(FMT_HDR) build/asan/libtagksim.a build/asan/libtagk.a $(LIB_HDR) | build-deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-conversion -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(CMD_INC) $(DEPS_CFLAGS) \
		-O1 -g $(SAN) -o $@ $< $(BENCH_CMD) $(CMD_COMMON) $(BENCH_SRC) bench/alloc_none.c $(ASAN_FMT_LIB) \
		build/asan/libtagksim.a build/asan/libtagk.a $(DEPS_LIBS) -lm
build/asan-bin/tagk-%: $(CMD_COMMON) $(CMD_HDR) cmd/*/*.c $(ASAN_FMT_LIB) $(FMT_HDR) build/asan/libtagk.a $(LIB_HDR) \
		| build-deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-conversion -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(CMD_INC) $(DEPS_CFLAGS) \
		-O1 -g $(SAN) -o $@ $(call CMD_SRC,$*) $(CMD_OBJ_$*) $(CMD_COMMON) $(ASAN_FMT_LIB) build/asan/libtagk.a $(DEPS_LIBS) -lm

# Leak detection is off for the commands: they exit after one run, with
# buffers sized once at start still held, on error paths too. Growth per
# row, the leak that matters for a stream, is measured by bench-pipeline.
# The real-data suite may skip, so the pipeline battery's count comes last.
build/pcls_solve: tests/pcls_solve.c build/asan/libtagk.a $(LIB_HDR)
	@mkdir -p build
	$(CC) $(WARN) -D_POSIX_C_SOURCE=200809L -O1 -g $(SAN) -o $@ $< build/asan/libtagk.a -lm

build/dmls_solve: tests/dmls_solve.c build/asan/libtagk.a $(LIB_HDR)
	@mkdir -p build
	$(CC) $(WARN) -D_POSIX_C_SOURCE=200809L -O1 -g $(SAN) -o $@ $< build/asan/libtagk.a -lm

build/armpc_solve: tests/armpc_solve.c build/asan/libtagk.a $(LIB_HDR)
	@mkdir -p build
	$(CC) $(WARN) -D_POSIX_C_SOURCE=200809L -O1 -g $(SAN) -o $@ $< build/asan/libtagk.a -lm

build/rls_ld_run: tests/rls_ld_run.c build/asan/libtagk.a $(LIB_HDR)
	@mkdir -p build
	$(CC) $(WARN) -D_POSIX_C_SOURCE=200809L -O1 -g $(SAN) -o $@ $< build/asan/libtagk.a -lm

# The MuJoCo oracle of lib/multibody.c, built when libmujoco-dev is installed.
MUJOCO_ORACLE := $(if $(wildcard /usr/include/mujoco/mujoco.h),build/mujoco_oracle build/robotxml_oracle build/arm_mujoco \
	build/wholearm_oracle)
EIGEN_YARDSTICK := $(if $(and $(wildcard /usr/include/eigen3/Eigen/Dense),$(shell command -v $(CXX))),build/eigen-yardstick)
EIGEN_YARDSTICK_AVX2 := $(if $(EIGEN_YARDSTICK),$(if $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && echo y),build/eigen-yardstick-avx2 build/eigen-yardstick-libavx2))
build/mujoco_oracle: tests/mujoco_oracle.c build/asan/libtagksim.a build/asan/libtagk.a $(LIB_HDR)
	@mkdir -p build
	$(CC) $(WARN) -Wno-conversion -D_POSIX_C_SOURCE=200809L -O1 -g $(SAN) -o $@ $< build/asan/libtagksim.a \
		build/asan/libtagk.a -lmujoco -lm
build/arm_mujoco: tests/arm_mujoco.c
	@mkdir -p build
	$(CC) $(WARN) -Wno-conversion -D_DEFAULT_SOURCE -O1 -g $(SAN) -o $@ $< -lmujoco -lm
build/robotxml_oracle: tests/robotxml_oracle.c build/asan/libtagk.a $(LIB_HDR) $(ASAN_FMT_LIB) $(FMT_HDR) | build-deps
	@mkdir -p build
	$(CC) $(WARN) -Wno-conversion -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L $(DEPS_CFLAGS) -O1 -g $(SAN) -o $@ $< \
		$(ASAN_FMT_LIB) build/asan/libtagk.a $(DEPS_LIBS) -lmujoco -lm

build/wholearm_oracle: tests/wholearm_oracle.c build/asan/libtagk.a $(LIB_HDR) $(ASAN_FMT_LIB) $(FMT_HDR) | build-deps
	@mkdir -p build
	$(CC) $(WARN) -Wno-conversion -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L $(DEPS_CFLAGS) -O1 -g $(SAN) -o $@ $< \
		$(ASAN_FMT_LIB) build/asan/libtagk.a $(DEPS_LIBS) -lmujoco -lm

# The sanitizer builds of the commands, as the batteries run them: no
# datasets/ beside build/asan-bin, so shipped files (--robot panda, a
# vehicle by name) are found through TAGK_DATADIR, as after an install.
ASAN_RUN := ASAN_OPTIONS=detect_leaks=0 TAGK_DATADIR=$(CURDIR)/datasets BIN=build/asan-bin
test-cli: $(BINS) $(ASAN_BINS) build/mkfixtures build/mkh5links build/nosandbox build/pcls_solve build/armpc_solve build/rls_ld_run build/dmls_solve $(MUJOCO_ORACLE) \
		$(EIGEN_YARDSTICK) $(EIGEN_YARDSTICK_AVX2) $(KDL_YARDSTICK)
	@sh tests/cli_test.sh
	@sh tests/iofloor_test.sh
	@sh tests/h5floor_test.sh
	@sh tests/readme_test.sh
	@sh tests/man_examples_test.sh
	@sh tests/docs_check_test.sh
	@sh tests/install_test.sh
	@sh tests/options_test.sh
	@sh tests/pcls_oracle_test.sh
	@$(ASAN_RUN) sh tests/armio_test.sh
	@sh tests/rls_ld_oracle_test.sh
	@sh tests/dmls_oracle_test.sh
	@sh tests/mujoco_oracle_test.sh
	@sh tests/eigen_yardstick_test.sh
	@sh tests/kdl_yardstick_test.sh
	@sh tests/cnn_oracle_test.sh
	@sh tests/add_method_test.sh
	@$(ASAN_RUN) sh tests/realdata_test.sh
	@$(ASAN_RUN) sh tests/mass_test.sh
	@$(ASAN_RUN) sh tests/flight_test.sh
	@$(ASAN_RUN) sh tests/expr_test.sh
	@$(ASAN_RUN) sh tests/arm_test.sh
	@$(ASAN_RUN) sh tests/arm_mujoco_test.sh
	@$(ASAN_RUN) sh tests/wholearm_test.sh
	@$(ASAN_RUN) sh tests/armfit_test.sh
	@$(ASAN_RUN) sh tests/fitcheck_test.sh
	@$(ASAN_RUN) sh tests/reliability_test.sh
	@$(ASAN_RUN) sh tests/output_safety_test.sh
	@$(ASAN_RUN) sh tests/output_honesty_test.sh
	@$(ASAN_RUN) sh tests/hdf5_safety_test.sh
	@$(ASAN_RUN) sh tests/h5chunk_test.sh
	@sh tests/memory_test.sh
	@sh tests/robot_safety_test.sh
	@sh tests/coverage_test.sh
	@sh tests/intervals_test.sh
	@sh tests/hac_more_test.sh
	@$(ASAN_RUN) sh tests/hac_wide_test.sh
	@sh tests/hac_state_test.sh
	@$(ASAN_RUN) sh tests/pipeline_badinput_test.sh
	@$(ASAN_RUN) sh tests/pipeline_hdf5_test.sh
	@$(ASAN_RUN) sh tests/pipeline_join_test.sh
	@$(ASAN_RUN) sh tests/pipeline_input_test.sh
	@$(ASAN_RUN) sh tests/pipeline_estimate_test.sh
	@$(ASAN_RUN) sh tests/pipeline_report_test.sh
	@$(ASAN_RUN) sh tests/pipeline_filter_test.sh
	@$(ASAN_RUN) sh tests/pipeline_papers_test.sh
	@$(ASAN_RUN) sh tests/stream_test.sh
	@$(ASAN_RUN) sh tests/stream4_test.sh
	@$(ASAN_RUN) sh tests/changes_test.sh
	@$(ASAN_RUN) sh tests/detect_test.sh
	@$(ASAN_RUN) sh tests/changes_real_test.sh
	@sh tests/changes_bench_test.sh
	@$(ASAN_RUN) sh tests/ulog_test.sh
	@$(ASAN_RUN) sh tests/handcheck_test.sh
	@$(ASAN_RUN) sh tests/airborne_test.sh
	@$(ASAN_RUN) sh tests/verdicts_test.sh
	@$(ASAN_RUN) sh tests/newuser_test.sh
	@$(ASAN_RUN) sh tests/attack2_test.sh
	@$(ASAN_RUN) sh tests/stream_notes_test.sh
	@$(ASAN_RUN) sh tests/leaks_test.sh

# Mutation testing (not part of check): each mutant of tests/mutants.txt
# applied to a scratch copy of the tree, rebuilt, and the tests that see its
# file run (tests/mutate.sh; tagk-design(7)). MUTATE_FLAGS e.g. -j 1 -m 90.
MUTATE_FLAGS ?=
mutate:
	@sh tests/mutate.sh $(MUTATE_FLAGS) tests/mutants.txt

bench: $(BINS)
	./bin/tagk-bench timing
	@$(MAKE) -s bench-eigen
	./bin/tagk-bench pipeline

# The yardstick of tagk's speed: TAG-K, KF and RLS written from the paper's
# equations with Eigen, timed against libtagk on the same windows in one
# run, both with $(CFLAGS). Built where g++ and Eigen 3 are.
EIGEN_INC := $(firstword $(wildcard /usr/include/eigen3))
build/eigen-yardstick: bench/eigen_yardstick.cpp lib/libtagk.a $(LIB_HDR) build/config
	@mkdir -p build
	$(CXX) $(CFLAGS) -std=c++14 -Wall -Wextra -I$(EIGEN_INC) -DYARDSTICK_FLAGS='"$(CFLAGS)"' -o $@ $< lib/libtagk.a -lm
# The same yardstick with AVX2 and FMA on its side only (libtagk as built):
# TAG-K's ceiling against a yardstick of that width (bench-eigen runs it
# where the CPU has both).
build/eigen-yardstick-avx2: bench/eigen_yardstick.cpp lib/libtagk.a $(LIB_HDR) build/config
	@mkdir -p build
	$(CXX) $(CFLAGS) -mavx2 -mfma -std=c++14 -Wall -Wextra -isystem $(EIGEN_INC) -DYARDSTICK_FLAGS='"$(CFLAGS) -mavx2 -mfma"' \
		-DYARDSTICK_WIDE='"-mavx2 -mfma"' -o $@ $< lib/libtagk.a -lm
# And the yardstick as built against libtagk compiled with AVX2, FMA and
# contraction (build/avx2): what runtime dispatch to the compiler's AVX2
# code would buy libtagk.
LIB_WIDE := -mavx2 -mfma -ffp-contract=fast
build/avx2/%.o: %.c $(LIB_HDR) build/config
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS_ALL) $(CFLAGS) $(LIB_WIDE) -c $< -o $@
build/avx2/libtagk.a: $(LIB_SRC:%.c=build/avx2/%.o)
	rm -f $@
	$(AR) rcs $@ $^
build/eigen-yardstick-libavx2: bench/eigen_yardstick.cpp build/avx2/libtagk.a $(LIB_HDR) build/config
	@mkdir -p build
	$(CXX) $(CFLAGS) -std=c++14 -Wall -Wextra -I$(EIGEN_INC) -DYARDSTICK_FLAGS='"$(CFLAGS)"' \
		-DLIBTAGK_WIDE='"$(LIB_WIDE)"' -o $@ $< build/avx2/libtagk.a -lm
bench-eigen:
	@if [ -n "$(EIGEN_INC)" ] && command -v $(CXX) >/dev/null 2>&1; then \
		$(MAKE) -s build/eigen-yardstick && ./build/eigen-yardstick; \
		if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo; then \
			echo; $(MAKE) -s build/eigen-yardstick-avx2 && ./build/eigen-yardstick-avx2 --tagk-only; \
			echo; $(MAKE) -s build/eigen-yardstick-libavx2 && ./build/eigen-yardstick-libavx2; \
		else echo "bench-eigen: the AVX2 yardstick skipped: this CPU lacks AVX2 or FMA"; fi; \
	else echo "bench-eigen: skipped: needs g++ and libeigen3-dev (Eigen 3 in /usr/include/eigen3)"; fi

# The yardstick of the arm path: Orocos KDL's recursive Newton-Euler
# beside libtagk's multi-body functions on the same states, after checking
# that both give the same torques (bench/kdl_yardstick.cpp). Built where
# liborocos-kdl-dev is installed.
KDL_LIBS = $(shell pkg-config --libs orocos_kdl 2>/dev/null)
KDL_YARDSTICK := $(if $(wildcard /usr/include/kdl/chainidsolver_recursive_newton_euler.hpp),build/kdl-yardstick)
build/kdl-yardstick: bench/kdl_yardstick.cpp lib/libtagk.a $(FMT_LIB) $(LIB_HDR) build/config | build-deps
	@mkdir -p build
	$(CXX) $(CFLAGS) -std=c++14 -Wall -Wextra $(shell pkg-config --cflags orocos_kdl 2>/dev/null) $(DEPS_CFLAGS) \
		-DYARDSTICK_FLAGS='"$(CFLAGS)"' -o $@ $< $(FMT_LIB) lib/libtagk.a $(KDL_LIBS) $(DEPS_LIBS) -ldl -lm
bench-kdl:
	@if [ -n "$(KDL_YARDSTICK)" ]; then $(MAKE) -s build/kdl-yardstick && \
		./build/kdl-yardstick datasets/panda.model && ./build/kdl-yardstick tests/robots/ur5e.xml; \
	else echo "bench-kdl: skipped: needs liborocos-kdl-dev"; fi

# docs-check re-runs the command behind every figure the README and the
# manuals quote (their docs-check comments) and names each figure that no
# longer comes out; not part of check: some of its commands take minutes
# each. DOCS picks a subset: DOCS=man/tagk-papers.7, DOCS='-g grasp-table'.
docs-check: $(BINS)
	@sh tests/docs_check.sh $(DOCS)

bench-pipeline: $(BINS)
	./bin/tagk-bench pipeline

demo: $(BINS)
	@sh bench/demo.sh datasets/synth-payload-noisy.csv datasets/uav-square-drop.csv

# The install paths, compared on every run like build/config, so that
# tagk.pc follows a new PREFIX, LIBDIR or INCDIR.
build/paths: FORCE
	@mkdir -p build
	@echo '$(PREFIX) $(LIBDIR) $(INCDIR)' | cmp -s - $@ || echo '$(PREFIX) $(LIBDIR) $(INCDIR)' > $@

# Headers: the public API in include/tagk; the benchmarks' simulators
# (bench/sim) and the internals (*_impl.h, methods.def) nowhere.
PUB_HDR := $(filter-out %_impl.h %.def $(SIM_HDR),$(LIB_HDR))

tagk.pc: tagk.pc.in lib/tagk.h build/config build/paths
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' -e 's|@CFLAGS@|$(DEFS)|' tagk.pc.in > $@

install: all tagk.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/tagk \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(PKGDIR) \
		$(DESTDIR)$(DATADIR)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 $(VEHICLES) $(DESTDIR)$(DATADIR)
	install -m 644 lib/libtagk.a $(DESTDIR)$(LIBDIR)
	install -m 644 $(PUB_HDR) $(DESTDIR)$(INCDIR)/tagk
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	for f in $(MAN57); do install -m 644 $$f $(DESTDIR)$(MANDIR)/man$${f##*.}; done
	install -m 644 tagk.pc $(DESTDIR)$(PKGDIR)

uninstall:
	rm -f $(CMDS:%=$(DESTDIR)$(BINDIR)/%) $(DESTDIR)$(LIBDIR)/libtagk.a $(DESTDIR)$(PKGDIR)/tagk.pc
	rm -rf $(DESTDIR)$(INCDIR)/tagk
	rm -f $(VEHICLES:datasets/%=$(DESTDIR)$(DATADIR)/%)
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null
	for f in $(MAN1) $(MAN57); do rm -f $(DESTDIR)$(MANDIR)/man$${f##*.}/$${f##*/}; done

deps:
	@sh scripts/install-deps

clean:
	rm -rf build bin lib/libtagk.a tagk.pc
