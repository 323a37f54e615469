#!/usr/bin/env bash
# CTest across GPUs: the gpu_bound suite of a build (tests/fixtures/gpu_bound_test.cpp) serially,
# then with -j <GPUs> and the resource spec (one GPU per entry), and the speed-up. A benchmark of
# the route the README recommends for multi-GPU machines, not a test: it fails only when an entry
# fails.
#   bash ci/gpu-bound-speedup.sh BUILD_DIR RESULTS_DIR
#   POLYDEV_BENCH_QUICK=1 bash ci/gpu-bound-speedup.sh BUILD_DIR RESULTS_DIR
#   CUDA_VISIBLE_DEVICES=0,1 POLYDEV_GPUS=2 bash ci/gpu-bound-speedup.sh BUILD_DIR RESULTS_DIR
# Writes RESULTS_DIR/ctest-speedup.txt and the CTest logs beside it. Each test keeps its GPU busy
# for POLYDEV_GPU_BOUND_SECONDS (1 here, 0.1 in quick mode). Quick mode (POLYDEV_BENCH_QUICK=1,
# for the GPU scripts of ci/): no warm-up run and 0.1 s tests; the speed-up it prints means
# nothing, the entries must still pass.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:?usage: ci/gpu-bound-speedup.sh BUILD_DIR RESULTS_DIR}"
results="${2:?usage: ci/gpu-bound-speedup.sh BUILD_DIR RESULTS_DIR}"
quick="${POLYDEV_BENCH_QUICK:-0}"
[[ "$quick" == [01] ]] ||
  { echo "ci/gpu-bound-speedup.sh: POLYDEV_BENCH_QUICK='$quick'; expected 0 or 1" >&2; exit 2; }
busy_seconds=1
((quick)) && busy_seconds=0.1
mkdir -p "$results"
# POLYDEV_GPUS: how many of the machine's GPUs the run uses (with CUDA_VISIBLE_DEVICES naming as
# many), for the speed-up at 2, 4 and 8 GPUs on one machine; all of them by default.
gpus="${POLYDEV_GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)}"
if [[ "$gpus" -lt 1 ]]; then
  echo "ci/gpu-bound-speedup.sh: no GPU (nvidia-smi -L lists none): nothing to measure"
  exit 0
fi
status=0
# timed_ctest LABEL PARALLEL_LEVEL ARGUMENTS...: sets elapsed to the wall seconds, and status to 1
# when an entry failed (not called in $(...), whose subshell would lose the status).
timed_ctest() {
  local start end
  start=$(date +%s.%N)
  POLYDEV_GPU_BOUND_SECONDS="$busy_seconds" ctest --test-dir "$build" -L gpu_bound --no-tests=error \
    --parallel "$2" "${@:3}" >"$results/ctest-gpu-bound-$1.log" 2>&1 || status=1
  end=$(date +%s.%N)
  elapsed=$(python3 -c "print(f'{$end - $start:.2f}')")
}
# Untimed first: test discovery (DISCOVERY_MODE PRE_TEST) and the first CUDA context of each
# binary would otherwise count against the serial run only.
((quick)) || timed_ctest warm-up 1
timed_ctest serial 1
serial=$elapsed
timed_ctest parallel "$gpus" -V
parallel=$elapsed
# (Each entry ran on the device CTest allocated: tests/fixtures/ctest_allocation_test.cpp.)
python3 - "$serial" "$parallel" "$gpus" "$quick" <<'PY' | tee "$results/ctest-speedup.txt"
import sys
serial, parallel, gpus = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
speedup = serial / parallel
print(f"gpu_bound suite: serial {serial:.2f} s, -j{gpus} with the resource spec {parallel:.2f} s, "
      f"speed-up {speedup:.2f}x ({speedup / gpus:.2f} of linear)"
      + (" [quick mode: not a measurement]" if sys.argv[4] == "1" else ""))
PY
grep -E "tests passed|Test +#.*(Passed|Failed|Skipped)" "$results/ctest-gpu-bound-parallel.log" || true
exit "$status"
