#!/usr/bin/env bash
# The CTest integration on a GPU machine, with the machine's own CMake (4.x there): builds the
# CTest-integration tests and the CUDA and OpenCL device suites, runs them directly (ci/gpu-quick.sh),
# then runs through CTest the checks of polydev_discover_device_tests' CMake half and the CUDA
# suite's entries (one per device). What it proves there: the entries polydev writes, their skip
# status and the run checks hold with CMake 4's CTest and with NVIDIA's drivers.
#   bash ci/gpu-ctest-entries.sh
# Logs go to build-gpu/quick (and $OUT where it is set). Exit status 1 when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${POLYDEV_BUILD_DIR:-build-gpu}"
logs="${OUT:-$build/quick}"
export POLYDEV_NO_APT=1
cmake --version | head -n 1
status=0
bash ci/gpu-quick.sh polydev_cuda_tests polydev_opencl_tests polydev_run_checks_tests \
  polydev_known_failure_tests polydev_devices_command_tests polydev_resource_spec_command_tests \
  polydev_ctest_entry_tests polydev_policy_tests || status=1
# shellcheck source=ci/nvidia-opencl-env.sh
source ci/nvidia-opencl-env.sh
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
ctest --test-dir "$build" -R 'polydev_discover_device_tests.checks|^polydev_cuda_tests/' \
  --output-on-failure --timeout 300 >"$logs/ctest-entries.log" 2>&1 || status=1
tail -n 12 "$logs/ctest-entries.log"
exit "$status"
