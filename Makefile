# Thin wrapper over CMake. Every target that builds first makes sure the dependencies are there.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local
CMAKE_FLAGS ?=
CTEST_FLAGS ?= --output-on-failure
DEMO_DIR ?= $(BUILD)/demo-registry
QUICK ?= 0

.PHONY: all deps build test test-asan demo bench fuzz fuzz-campaign install clean format

all: build

deps:
	@scripts/setup-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest -j $(JOBS) $(CTEST_FLAGS)

# Every test again in an AddressSanitizer + UndefinedBehaviorSanitizer build (-O1, asserts on,
# leak checking on), except two labels. `big`: the 2^31-sample write asserts its peak RSS, which
# ASan's shadow memory and allocator quarantine change; it runs in `make test`. `asan-skip`:
# checks in which no timef code runs (Python over the sources' text or over JSON files another
# test wrote), so a sanitizer has nothing to add; each says why where it is registered. CI
# (.ci/run) runs it after `make test` (its times: docs/architecture.md, "Tests and CI time").
# `make fuzz` is separate.
# ASan's run-time options there. Leak checking on. malloc_context_size=2: a report names the
# allocating (and freeing) function and the allocator call above it, not 30 frames (the default).
# ASan records that stack at every malloc, most of them DuckDB's (it intercepts the uninstrumented
# library's allocations too), and past two frames its frame-pointer walk goes through DuckDB code
# built without frame pointers, so the stacks it stores are many and distinct: the Payload case of
# bad_input_test took 74-80 s at 1 or 2 frames, 96-148 s at 5 (1.0 GB of memory against 0.68 GB),
# and the whole instrumented ctest 932 s against 1,033 s at 5 (docs/architecture.md). What is
# detected does not change. For deeper stacks: make test-asan TEST_ASAN_OPTIONS=detect_leaks=1
TEST_ASAN_OPTIONS ?= detect_leaks=1:malloc_context_size=2
# The sanitizer tree is compiled by clang: the same units with ASan + UBSan take GCC 12 about 1.7
# times the CPU (a catalog batch at -O1: 24.9 against 15.3 s; a test batch at -O0: 27.6 against
# 14.8 s), so the tree builds in about half the time (507 against ~1,000 s from an empty cache on
# 2 cores), and the two compilers together check more than either (docs/architecture.md).
ASAN_CC ?= clang
ASAN_CXX ?= clang++
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_C_COMPILER=$(ASAN_CC) -DCMAKE_CXX_COMPILER=$(ASAN_CXX) \
		-DCMAKE_BUILD_TYPE=Debug -DTIMEF_SANITIZE=ON -DTIMEF_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=$(TEST_ASAN_OPTIONS) UBSAN_OPTIONS=print_stacktrace=1 \
		ctest -j $(JOBS) -LE '^(big|asan-skip)$$' $(CTEST_FLAGS)

demo: build
	scripts/demo.sh $(BUILD)

# The bench programs no test runs are not part of `make build` (bench/CMakeLists.txt): built here.
bench: build
	@if grep -q '^TIMEF_BUILD_BENCH:BOOL=ON' $(BUILD)/CMakeCache.txt; then \
		cmake --build $(BUILD) -j $(JOBS) --target timef_benches; fi
	QUICK=$(QUICK) scripts/bench.sh $(BUILD)

fuzz: deps
	@if [ -d fuzz ]; then \
		cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
			-DCMAKE_BUILD_TYPE=Debug -DTIMEF_BUILD_FUZZ=ON -DTIMEF_BUILD_TESTS=OFF -DTIMEF_BUILD_BENCH=OFF -DTIMEF_BUILD_PYTHON=OFF && \
		cmake --build build-fuzz -j $(JOBS) --target fuzz_parquet_read fuzz_manifest_parse \
			fuzz_payload_read fuzz_cli_args fuzz_zarr_meta fuzz_legacy_manifest fuzz_edf_header \
			fuzz_wfdb_header fuzz_url_parse fuzz_s3_list && \
			scripts/fuzz.sh build-fuzz; \
	else echo "no fuzz targets yet"; fi

# A long campaign: FUZZ_RUNS executions per target in an -O2 UBSan build (build-fuzz-fast), then
# each kept input replayed under ASan+UBSan (build-fuzz). scripts/fuzz-campaign.sh says more.
FUZZ_RUNS ?= 10000000
FUZZ_TARGETS = fuzz_parquet_read fuzz_manifest_parse fuzz_payload_read fuzz_cli_args \
	fuzz_zarr_meta fuzz_legacy_manifest fuzz_edf_header fuzz_wfdb_header fuzz_url_parse fuzz_s3_list
FUZZ_CMAKE = -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTIMEF_BUILD_FUZZ=ON \
	-DTIMEF_BUILD_TESTS=OFF -DTIMEF_BUILD_BENCH=OFF -DTIMEF_BUILD_PYTHON=OFF

fuzz-campaign: deps
	cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug $(FUZZ_CMAKE) $(CMAKE_FLAGS)
	cmake --build build-fuzz -j $(JOBS) --target $(FUZZ_TARGETS)
	cmake -S . -B build-fuzz-fast -DCMAKE_BUILD_TYPE=Release -DTIMEF_FUZZ_SANITIZERS=undefined \
		-DTIMEF_FUZZ_OPT=-O2 $(FUZZ_CMAKE) $(CMAKE_FLAGS)
	cmake --build build-fuzz-fast -j $(JOBS) --target $(FUZZ_TARGETS)
	scripts/fuzz-campaign.sh build-fuzz-fast build-fuzz $(FUZZ_RUNS)

install: build
	cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --install $(BUILD) --prefix $(PREFIX)

format:
	find include src tools tests bench -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz build-fuzz-fast
