#!/usr/bin/env bash
# Builds the concurrent parts of polydev with ThreadSanitizer and runs their tests: the pool core
# (16-thread stress, with and without memory pressure), the context-keyed caches and memoized
# functions (concurrent lookups and clears), enumeration and the process overview from 16 threads at
# once, and two program binary caches on one folder used from 8 threads. Any report fails the run
# (halt_on_error).
#
# Device tests are left out on purpose: the OpenCL and CUDA drivers are not instrumented, and TSan
# cannot see their internal synchronization, so it would report races inside the drivers.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${POLYDEV_TSAN_BUILD_DIR:-build-tsan}"
targets=(polydev_pool_core_tests polydev_framework_tests)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOLYDEV_WERROR=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)" --target "${targets[@]}"
# Enumeration runs on PoCL's devices, as in the other stages.
# shellcheck source=ci/pocl-env.sh
POLYDEV_BUILD_DIR="$build_dir" source ci/pocl-env.sh
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
for target in "${targets[@]}"; do
  binary="$(find "$build_dir" -type f -name "$target" -perm -u+x | head -n 1)"
  echo "== $target under ThreadSanitizer"
  "$binary" --gtest_brief=1
done
