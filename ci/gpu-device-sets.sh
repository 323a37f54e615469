#!/usr/bin/env bash
# The one device model and the suites over device sets on a GPU machine, with the machine's CMake:
# builds the device suites of both backends and the set-entry tests, runs them directly on every
# device (ci/gpu-quick.sh: CUDA fixtures in every form, OpenCL pairs across NVIDIA's OpenCL and
# PoCL, the multi-device context on PoCL, the CUDA pool pairs, which need two GPUs and show their
# too_few_cuda_devices placeholder on one), then runs the OpenCL suites and the CUDA pools through
# ctest -j4 with the resource spec and checks that no two entries held one device at once.
#   bash ci/gpu-device-sets.sh
# Logs go to build-gpu/quick (and $OUT where it is set). Exit status 1 when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${POLYDEV_BUILD_DIR:-build-gpu}"
logs="${OUT:-$build/quick}"
export POLYDEV_NO_APT=1
cmake --version | head -n 1
status=0
bash ci/gpu-quick.sh polydev_opencl_tests polydev_cuda_tests polydev_cuda_pool_tests \
  polydev_instance_name_tests polydev_requirements_tests polydev_device_set_entry_tests \
  polydev_device_sets_probe || status=1
# shellcheck source=ci/nvidia-opencl-env.sh
source ci/nvidia-opencl-env.sh
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
"$build/tests/polydev_opencl_tests" --gtest_filter='OpenCL/OpenCLDevicePairs.*:OpenCL/OpenCLPlatformSets.*' \
  >"$logs/opencl-sets.log" 2>&1 || status=1
grep -c '^\[       OK \] .*_AND_' "$logs/opencl-sets.log" | sed 's/^/OpenCL set instances passed: /' || true
grep -E '^\[  (PASSED|FAILED|SKIPPED) +\]' "$logs/opencl-sets.log" || true
rm -rf "$build/tests/polydev_results"
ctest --test-dir "$build" -j4 -R '^polydev_opencl_tests/|^polydev_cuda_pool_tests/|DeviceSetEntries|polydev_discover_device_tests.checks' \
  --output-on-failure --timeout 300 >"$logs/ctest-sets.log" 2>&1 || status=1
tail -n 15 "$logs/ctest-sets.log"
python3 ci/lib/check_device_overlap.py "$build/tests/polydev_results" || status=1
exit "$status"
