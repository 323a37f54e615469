#!/usr/bin/env bash
# Builds polydev with AddressSanitizer and UndefinedBehaviorSanitizer and runs the whole suite on
# several PoCL devices. Any report fails the run (-fno-sanitize-recover); third-party leaks are
# suppressed in ci/sanitizers/lsan.supp, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
export POLYDEV_BUILD_DIR="${POLYDEV_SANITIZE_BUILD_DIR:-build-asan}"
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# The .cu launcher of the CUDA tests is compiled by nvcc without sanitizers; everything else is.
# The headers were compiled on their own by the build stage already.
bash ci/build.sh -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DPOLYDEV_CHECK_HEADERS=OFF >/dev/null
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
# use_sigaltstack=0: PoCL's LLVM gives every thread that initializes it an alternate signal stack
# from malloc; ASan, which otherwise installs its own, then tries to munmap LLVM's heap block when
# the thread ends and aborts ("unable to unmap"), e.g. when 16 threads build the device overview.
# The cost: a stack overflow is reported as a plain SIGSEGV, not by ASan.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:use_sigaltstack=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/ci/sanitizers/lsan.supp:print_suppressions=0"
ctest --test-dir "$POLYDEV_BUILD_DIR" --output-on-failure --no-tests=error \
  --parallel "$(nproc)" --timeout 600
