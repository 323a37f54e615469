#!/usr/bin/env bash
# On a GPU machine: builds and runs the checks of CudaTest's isolation and of the context-keyed
# CUDA caches, and fails unless each ran on a CUDA device and passed.
#   bash ci/gpu-cuda-isolation.sh [build folder, default $POLYDEV_BUILD_DIR or build-gpu]
# - polydev_cuda_isolation_tests runs the probe polydev_cuda_isolation_probe (and, for a device
#   that refuses a context, polydev_cuda_memory_hog): a kernel fault fails its own test and the
#   later tests on the device pass in fresh processes; an unread launch error does not reach the
#   next test; a device faulted outside the fixture is not blamed on the next test; a device that
#   refuses a context fails its own instances with the reason (and, with two or more devices, the
#   others run); and those failures are recorded at the tests' own lines (CudaIsolationPlaces).
# - polydev_cuda_tests, with POLYDEV_REQUIRE_DEVICES=cuda: context_dependent_memoize keyed by the
#   current context (the primary context and a cuCtxCreate context on one device have their own
#   entries; no context is an error), DeviceData::from_device() of the current context, and the
#   fixture's own tests.
# Logs go to <build>/results/cuda-isolation (and to $OUT where it is set).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-${POLYDEV_BUILD_DIR:-build-gpu}}"
logs="${OUT:-$build/results/cuda-isolation}"
mkdir -p "$logs"

POLYDEV_BUILD_DIR="$build" POLYDEV_BUILD_TARGETS="polydev_cuda_tests polydev_cuda_isolation_tests" \
  bash ci/build.sh >"$logs/build.log" 2>&1 || {
  grep -E "error|FAILED" "$logs/build.log" | head -n 30
  exit 1
}
nvidia-smi -L || true

status=0
run() {  # log name, binary, arguments...
  local name="$1"
  shift
  if "$@" >"$logs/$name.log" 2>&1; then echo "$name: passed"; else
    echo "$name: FAILED (see $logs/$name.log)"
    status=1
  fi
  grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' "$logs/$name.log" || true
}

run isolation "$build/tests/fixtures/cuda_isolation/polydev_cuda_isolation_tests"
# Each check must have run on a device, not skipped for want of one.
for check in CudaIsolation.AFaultFailsItsTestAndTheLaterTestsOnTheDevicePass \
  CudaIsolation.AFreshProcessThatFindsItsDeviceFaultedFailsWithTheReason \
  CudaIsolation.AnErrorLeftUnreadDoesNotReachTheNextTest \
  CudaIsolation.ADeviceFaultedOutsideTheFixtureIsNotBlamedOnTheNextTest \
  CudaIsolation.ADeviceThatRefusesAContextFailsEachOfItsInstancesWithTheReason \
  CudaIsolationPlaces.AFaultAndTheFreshProcessesAreRecordedAtTheirTests \
  CudaIsolationPlaces.AFreshProcessThatFindsItsDeviceFaultedFailsAtTheTest \
  CudaIsolationPlaces.ADeviceThatRefusesAContextFailsAtTheTest; do
  if ! grep -q "^\[       OK \] ${check/./\\.} " "$logs/isolation.log"; then
    echo "$check did not pass"
    status=1
  fi
done

POLYDEV_REQUIRE_DEVICES=cuda run cuda "$build/tests/polydev_cuda_tests"
exit "$status"
