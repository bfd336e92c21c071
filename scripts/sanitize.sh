#!/usr/bin/env bash
# The sanitizer and fuzzing build (docs/fuzzing.md): isa_spec, golden, workload, waveforms,
# cosim, report, conformance and the moesim CLI compiled with AddressSanitizer and
# UndefinedBehaviorSanitizer in their own build folder, without the Verilated RTL
# (MOESIM_RTL_PRESETS empty: no Verilator run; `--engine rtl` is refused there). Runs the tests
# that need no RTL (unit, workload, golden, waveforms, fuzz replay, the golden conformance
# suite; the bad-input corpus with --badinput); any sanitizer report fails its test
# (-fno-sanitize-recover).
# With clang the fuzz harnesses link libFuzzer and `--fuzz` also runs ctest label `fuzz` (each
# harness --fuzz-seconds, default 60, two at a time with JOBS=2).
#
# Usage: scripts/sanitize.sh [--fuzz] [--fuzz-seconds N] [--badinput] [extra ctest arguments]
# Environment: SAN_CXX (default clang++-14; g++ works without fuzzers), SAN_BUILD_DIR (default
# <repo>/build-sanitize), JOBS (default: number of cores).
set -euo pipefail
MOESIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SAN_CXX="${SAN_CXX:-clang++-14}"
SAN_BUILD_DIR="${SAN_BUILD_DIR:-${MOESIM_ROOT}/build-sanitize}"
JOBS="${JOBS:-$(nproc)}"
fuzz=0
badinput=0
fuzz_seconds=60
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fuzz) fuzz=1 ;;
    --badinput) badinput=1 ;;
    --fuzz-seconds) fuzz=1; fuzz_seconds="$2"; shift ;;
    *) ctest_args+=("$1") ;;
  esac
  shift
done

flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
fuzzer=OFF
suites="unit;workload;golden;waveforms;fuzz;cosim;badinput"
if "${SAN_CXX}" --version | grep -q clang; then
  # Coverage instrumentation for libFuzzer in every library the harnesses link.
  flags="${flags} -fsanitize=fuzzer-no-link"
  fuzzer=ON
elif [ "${fuzz}" = 1 ]; then
  echo "moesim: error: --fuzz needs clang (SAN_CXX=${SAN_CXX} is not clang)" >&2
  exit 2
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

cmake -S "${MOESIM_ROOT}" -B "${SAN_BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="${SAN_CXX}" "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="${flags}" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DMOESIM_RTL_PRESETS= -DMOESIM_PYTHON=OFF -DMOESIM_FUZZ="${fuzzer}" \
  -DMOESIM_FUZZ_SECONDS="${fuzz_seconds}" "-DMOESIM_TEST_SUITES=${suites}" >/dev/null

# Only what the `sanitize` (and `fuzz`) tests run.
targets=(moesim moesim_isa_gen test_numerics test_assembler test_spec test_program test_input_files
         test_drift test_workload test_golden test_waveforms test_vcd_sink
         fuzz_asm fuzz_disasm fuzz_spec fuzz_case fuzz_config fuzz_vcd)
if [ "${fuzzer}" = OFF ]; then
  targets+=(test_bf16_tables)  # GCC's quadmath.h does not compile with clang
fi
cmake --build "${SAN_BUILD_DIR}" -j "${JOBS}" --target "${targets[@]}"

export BOOST_TEST_COLOR_OUTPUT=no
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The tests that need no Verilated RTL (GCC's quadmath.h does not compile with clang). Left out:
# - the cases that run `moesim cosim` (waveforms.moesim_*, the screenshots): they need the RTL;
# - golden.api_load_errors_and_sizes: after SystemC has switched coroutine stacks (QuickThreads
#   in Debian's libsystemc), an exception thrown on the main stack makes ASan warn "ignoring
#   requested __asan_handle_no_return" and then report a stack-buffer-overflow inside its own
#   sigaltstack interceptor (a known false positive: github.com/google/sanitizers/issues/189);
# - the bad-input corpus (badinput.*): ~5 minutes per shard under ASan; it runs in the default
#   suite uninstrumented, and here with --badinput.
tests='^(unit\.|workload$|golden\.|waveforms\.|fuzz_replay\.|conformance\.golden$)'
skip='^waveforms\.(moesim_|screenshots$)|^golden\.api_load_errors_and_sizes$'
if [ "${badinput}" = 1 ]; then
  tests="${tests}|^badinput\."
fi
if [ "${fuzzer}" = ON ]; then
  skip="${skip}|^unit\.test_bf16_tables$"
fi
if [ "${fuzz}" = 1 ]; then
  tests="${tests}|^fuzz\."
fi
ctest --test-dir "${SAN_BUILD_DIR}" --output-on-failure -j "${JOBS}" -R "${tests}" -E "${skip}" \
  "${ctest_args[@]}"
