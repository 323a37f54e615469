#!/usr/bin/env bash
# The runs that need several GPUs, in one command on a machine of 2, 4 or 8 GPUs (the device
# tool's nvidia-h200-x2, -x4, -x8):
# - the suites over device sets on CUDA (ci/gpu-device-sets.sh): every ordered pair of GPUs runs
#   (2 pairs on two GPUs, 12 on four), peer access is turned on or its reason reported, a pooled
#   allocation copied with cudaMemcpyPeer arrives intact; through ctest -j4 with the resource spec,
#   no two entries held one GPU at once;
# - CudaTest's isolation with the other GPUs running while one is faulted (ci/gpu-cuda-isolation.sh);
# - the gpu_bound suite through CTest at 2, 4 and 8 GPUs (as many as the machine has), each against
#   -j1 (ci/gpu-bound-speedup.sh, full measurement: goal 0.9 of linear), with the reports of its
#   entries checked for two entries on one GPU at once.
#   bash ci/gpu-several.sh
# Logs and figures go to $OUT (or build-gpu/several). Exit status 1 when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${POLYDEV_BUILD_DIR:-build-gpu}"
out="${OUT:-$build/several}"
mkdir -p "$out"
gpus="$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)"
echo "GPUs: $gpus"
status=0
OUT="$out/sets" bash ci/gpu-device-sets.sh || status=1
OUT="$out/isolation" bash ci/gpu-cuda-isolation.sh "$build" || status=1
POLYDEV_BUILD_DIR="$build" POLYDEV_BUILD_TARGETS="polydev_tool polydev_gpu_bound_tests" \
  bash ci/build.sh >"$out/build-gpu-bound.log" 2>&1 || status=1
for count in 2 4 8; do
  ((count <= gpus)) || continue
  rm -rf "$build/tests/polydev_results"
  CUDA_VISIBLE_DEVICES="$(seq -s, 0 $((count - 1)))" POLYDEV_GPUS="$count" \
    bash ci/gpu-bound-speedup.sh "$build" "$out/gpu-bound-$count" || status=1
  python3 ci/lib/check_device_overlap.py "$build/tests/polydev_results" |
    tee "$out/gpu-bound-$count/overlap.txt" || status=1
done
exit "$status"
