#!/usr/bin/env bash
# On a GPU machine: builds what ci/ctest-speed.sh measures (the four device-test binaries, the
# tool and the start-up breakdown) and runs it with NVIDIA's OpenCL next to PoCL and CUDA.
#
#   ci/gpu-ctest-speed.sh [OUT_DIR]
#
# OUT_DIR (default build-gpu/results/ctest-speed) receives the record; build.log and speed.log go
# beside it, and a file DONE (holding the exit status) when everything has finished, so that a
# run started in the background on a machine lent for limited calls can be polled. REPEAT,
# SUITE_GRANULARITIES, BINARY_GRANULARITIES, TIMEOUT, JOBS and LABEL pass through to
# ci/ctest-speed.sh.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
build="${POLYDEV_BUILD_DIR:-build-gpu}"
out="${1:-$build/results/ctest-speed}"
mkdir -p "$out"
rm -f "$out/DONE"
finish() {
  echo "$1" >"$out/DONE"
  exit "$1"
}

# shellcheck source=ci/nvidia-opencl-env.sh
source ci/nvidia-opencl-env.sh
POLYDEV_BUILD_DIR="$build" POLYDEV_BUILD_TARGETS="polydev_tool polydev_opencl_tests
  polydev_opencl_pool_tests polydev_cuda_tests polydev_cuda_pool_tests polydev_startup_breakdown" \
  bash ci/build.sh >"$out/build.log" 2>&1 || {
  grep -E "error|FAILED" "$out/build.log" | head -n 30
  finish 1
}
bash ci/ctest-speed.sh "$build" "$out/record" >"$out/speed.log" 2>&1
finish $?
