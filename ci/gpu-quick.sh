#!/usr/bin/env bash
# A focused check on a GPU machine, cheaper than ci/gpu.sh: builds only the named test binaries
# (default: the OpenCL and CUDA tests and the pool tests), registers NVIDIA's OpenCL driver next to
# PoCL, lists the devices, runs each binary on every device and prints its GoogleTest summary.
# For a change that touches a few binaries; ci/gpu.sh stays the full run.
#   bash ci/gpu-quick.sh [binary name ...]
# Logs go to build-gpu/quick (and to $OUT where it is set). Exit status 1 when a binary fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${POLYDEV_BUILD_DIR:-build-gpu}"
binaries=("$@")
if ((${#binaries[@]} == 0)); then
  binaries=(polydev_opencl_tests polydev_cuda_tests polydev_opencl_pool_tests polydev_cuda_pool_tests
    polydev_cuda_pool_memory_tests polydev_cuda_pool_unit_tests polydev_pool_core_tests)
fi
logs="${OUT:-$build/quick}"
mkdir -p "$logs"

# shellcheck source=ci/nvidia-opencl-env.sh
source ci/nvidia-opencl-env.sh
POLYDEV_BUILD_DIR="$build" POLYDEV_BUILD_TARGETS="polydev_tool ${binaries[*]}" bash ci/build.sh \
  >"$logs/build.log" 2>&1 || { grep -E "error|FAILED" "$logs/build.log" | head -n 30; exit 1; }
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
nvidia-smi -L || true
"$build/framework/polydev" devices

status=0
for name in "${binaries[@]}"; do
  binary="$(find "$build/tests" -name "$name" -type f -perm -u+x | head -n 1)"
  if [[ -z "$binary" ]]; then
    echo "$name: not built" >&2
    status=1
    continue
  fi
  if "$binary" >"$logs/$name.log" 2>&1; then result=passed; else result=FAILED; status=1; fi
  echo "$name: $result; $(grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' "$logs/$name.log" |
    tr '\n' ' ')"
done
exit "$status"
