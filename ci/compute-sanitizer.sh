#!/usr/bin/env bash
# Runs the CUDA test binaries under NVIDIA's compute-sanitizer (memcheck, then racecheck) on every
# CUDA device of a GPU machine, after ci/gpu.sh (or ci/build.sh) has built them. Fails on any error
# the sanitizer reports. Usage: bash ci/compute-sanitizer.sh [build folder, default build-gpu]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-${POLYDEV_BUILD_DIR:-build-gpu}}"
results="$build_dir/results/compute-sanitizer"
mkdir -p "$results"
rm -f "$results/summary.txt"

sanitizer="$(command -v compute-sanitizer || true)"
[[ -n "$sanitizer" ]] || sanitizer=/usr/local/cuda/bin/compute-sanitizer
[[ -x "$sanitizer" ]] || { echo "compute-sanitizer: not found (CUDA toolkit missing?)" >&2; exit 1; }

# The binaries whose tests launch kernels or touch device memory. The occupancy agreement test
# only queries the driver; it runs too, as it loads every test kernel.
binaries=(
  tests/polydev_cuda_tests
  tests/pools/polydev_cuda_pool_tests
  tests/pools/polydev_cuda_pool_memory_tests
  tests/pools/polydev_cuda_fault_injection_tests
  tests/conformance/polydev_cuda_pool_conformance_tests
  tests/polydev_cuda_occupancy_agreement_tests
)

status=0
for tool in memcheck racecheck; do
  for binary in "${binaries[@]}"; do
    path="$build_dir/$binary"
    [[ -x "$path" ]] || { echo "missing $path: build first" >&2; exit 1; }
    name="$(basename "$binary")"
    log="$results/$tool-$name.log"
    # API errors are not reported: the tests provoke them on purpose and assert them (requests
    # beyond the device's memory, frees after cudaDeviceReset, launches beyond an SM's resources).
    # Memory access errors, races and hazards are what the tools look for here.
    # Leak checking covers the device allocations the pools hand back to the driver at exit;
    # memcheck's --leak-check full needs cudaDeviceReset, which the tests call nowhere, so the
    # pools' own counters (checked by the tests) stand for device leaks.
    api_errors=()
    [[ "$tool" == memcheck ]] && api_errors=(--report-api-errors no)
    if "$sanitizer" --tool "$tool" "${api_errors[@]}" --error-exitcode 99 --print-limit 50 \
      "$path" --gtest_brief=1 >"$log" 2>&1; then
      verdict="0 errors"
    else
      verdict="FAILED (exit $?)"
      status=1
    fi
    summary="$(grep -E '^========= (ERROR SUMMARY|RACECHECK SUMMARY)' "$log" | tail -n 1 || true)"
    tests="$(grep -E '^\[  (PASSED|SKIPPED|FAILED)  \]' "$log" | tr '\n' ' ' || true)"
    printf '%-10s %-45s %s | %s| %s\n' "$tool" "$name" "$verdict" "$tests" "$summary" |
      tee -a "$results/summary.txt"
    [[ "$verdict" == "0 errors" ]] || tail -n 40 "$log"
  done
done
[[ -n "${OUT:-}" ]] && cp "$results/summary.txt" "$OUT/compute-sanitizer.txt"
exit $status
