#!/usr/bin/env bash
# On a GPU machine (two or more GPUs for all of it), cheaper than ci/gpu.sh: builds the device-test
# binaries, the tool and the start-up benchmark, then
# - runs each device-test binary on every device (ci/gpu-quick.sh);
# - checks CudaTest's isolation, with the other devices running while one refuses a context
#   (ci/gpu-cuda-isolation.sh);
# - checks on the real drivers that a process starts only the backends its tests need
#   (polydev_backend_startup_tests);
# - runs the gpu_bound suite through CTest serially and with -j <GPUs> (ci/gpu-bound-speedup.sh in
#   its quick mode, POLYDEV_BENCH_QUICK=1: the route must work, its speed-up means nothing; the
#   measurement is `bash ci/gpu-bound-speedup.sh BUILD_DIR RESULTS_DIR` without it, as ci/gpu.sh runs
#   it).
# ci/ctest-speed.sh can follow on the same build. Logs go to $OUT where it is set, else to
# <build>/results/multi. Exit status 1 when a step fails; every step runs.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${POLYDEV_BUILD_DIR:-build-gpu}"
logs="${OUT:-$build/results/multi}"
mkdir -p "$logs"
binaries=(polydev_opencl_tests polydev_opencl_pool_tests polydev_cuda_tests polydev_cuda_pool_tests)

# shellcheck source=ci/nvidia-opencl-env.sh
source ci/nvidia-opencl-env.sh
POLYDEV_BUILD_DIR="$build" POLYDEV_BUILD_TARGETS="polydev_tool ${binaries[*]} polydev_gpu_bound_tests
  polydev_startup_breakdown polydev_backend_startup_tests polydev_cuda_isolation_tests" \
  bash ci/build.sh >"$logs/build.log" 2>&1 || {
  grep -E "error|FAILED" "$logs/build.log" | head -n 30
  exit 1
}
status=0
echo "== each device-test binary on every device"
POLYDEV_BUILD_DIR="$build" OUT="$logs/quick" bash ci/gpu-quick.sh "${binaries[@]}" || status=1
echo "== CUDA isolation"
OUT="$logs/isolation" bash ci/gpu-cuda-isolation.sh "$build" || status=1
echo "== the backends a process starts, on the real drivers"
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
"$build/tests/ctest_entries/startup/polydev_backend_startup_tests" >"$logs/backend-startup.log" 2>&1 ||
  status=1
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  SKIPPED \] .*\(" "$logs/backend-startup.log" || true
echo "== the gpu_bound suite through CTest across GPUs (quick mode: no figure)"
POLYDEV_BENCH_QUICK=1 bash ci/gpu-bound-speedup.sh "$build" "$logs/gpu-bound" || status=1
exit "$status"
