#!/usr/bin/env bash
# What runs on a GPU machine: builds, registers NVIDIA's OpenCL driver next to PoCL, shows the
# devices, runs the whole suite through CTest, then every test binary with XML reports, and makes
# of them one matrix test x device with `polydev report` (text, JSON and an HTML page), printing its
# summary. Needs no package registry. Results go to build-gpu/results; where $OUT is set (the GPU
# machines of this project's workplace), a summary and an archive of them go there. Last, the GPU
# benchmark scripts in their quick mode (POLYDEV_BENCH_QUICK=1), so that a change that breaks one
# fails here: tests/bench/run/peer-bench.sh and ci/ctest-speed.sh on the GPUs.
# POLYDEV_GPU_BENCHMARKS=0 leaves out every benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
export POLYDEV_BUILD_DIR="${POLYDEV_BUILD_DIR:-build-gpu}"
export POLYDEV_NO_APT=1
results="$POLYDEV_BUILD_DIR/results"
rm -rf "$results" && mkdir -p "$results"

# shellcheck source=ci/nvidia-opencl-env.sh
source ci/nvidia-opencl-env.sh

bash ci/deps.sh
bash ci/build.sh "$@" 2>&1 | tail -n 3
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
nvidia-smi -L || true

echo "== polydev devices (POCL_DEVICES='$POCL_DEVICES')"
"$POLYDEV_BUILD_DIR/framework/polydev" devices | tee "$results/devices.txt"
"$POLYDEV_BUILD_DIR/framework/polydev" devices --json >"$results/devices.json"

echo "== ctest"
status=0
ctest --test-dir "$POLYDEV_BUILD_DIR" --output-on-failure --no-tests=error --timeout 300 \
  --parallel 8 >"$results/ctest.log" 2>&1 || status=1
tail -n 25 "$results/ctest.log"

echo "== CTest across GPUs: the gpu_bound suite serially, then with -j <GPUs> and one GPU per test"
bash ci/gpu-bound-speedup.sh "$POLYDEV_BUILD_DIR" "$results" || status=1

echo "== characterization and occupancy of every device"
"$POLYDEV_BUILD_DIR/framework/polydev" characterize --json >"$results/characterize.json" 2>&1 || true
"$POLYDEV_BUILD_DIR/framework/polydev" occupancy --threads 256 --regs 32 --json \
  >"$results/occupancy.json" 2>&1 || true

echo "== pool benchmarks (one run each; interleaved repetitions; POLYDEV_GPU_BENCHMARKS=0 skips them)"
for bench in "$POLYDEV_BUILD_DIR"/tests/bench/polydev_*_bench; do
  [[ -x "$bench" && "${POLYDEV_GPU_BENCHMARKS:-1}" != 0 ]] || continue
  "$bench" --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true --benchmark_format=json \
    --benchmark_out="$results/$(basename "$bench").json" --benchmark_out_format=json \
    >"$results/$(basename "$bench").log" 2>&1 || { status=1; tail -n 20 "$results/$(basename "$bench").log"; }
done

echo "== every test binary with XML reports"
# Probes fail on purpose; tests/bench holds benchmarks and the trace replay, not test binaries.
mapfile -t binaries < <(find "$POLYDEV_BUILD_DIR/tests" -maxdepth 2 -type f -perm -u+x \
  -name 'polydev_*' ! -name '*_probe' ! -path '*/tests/bench/*' | sort)
for binary in "${binaries[@]}"; do
  suite="$(basename "$binary")"
  "$binary" --gtest_brief=1 --gtest_output="xml:$results/$suite.xml" >"$results/$suite.log" 2>&1 ||
    { status=1; tail -n 40 "$results/$suite.log"; }
done

echo "== the reports as one matrix test x device ($results/matrix.txt, report.json, report.html)"
tool="$POLYDEV_BUILD_DIR/framework/polydev"
# A failed test fails the report too (status 1, its files written). The GPU machines have no
# tinyxml2 (Debian: libtinyxml2-dev) and no registry to install it from: a tool built without it
# says so, and the XML reports in the archive make the matrix elsewhere (`polydev report *.xml`).
if "$tool" report --html "$results/report.html" "$results"/*.xml >"$results/matrix.txt" \
  2>"$results/report.log"; then
  "$tool" report --json "$results"/*.xml >"$results/report.json"
elif grep -q 'built without tinyxml2' "$results/report.log"; then
  echo "no matrix made here: $(cat "$results/report.log")"
else
  cat "$results/report.log"
  "$tool" report --json "$results"/*.xml >"$results/report.json" || true
  status=1
fi
# The matrix has a row for every host test too: its first line and summary are enough here.
grep -E '^(polydev report:|summary:)' "$results/matrix.txt" || true

if [[ "${POLYDEV_GPU_BENCHMARKS:-1}" != 0 ]]; then
  echo "== the GPU benchmark scripts in quick mode (no figures: they must build, run and report)"
  quick="$results/bench-quick"
  mkdir -p "$quick"
  # OUT is where peer-bench.sh writes its results; this script's OUT is the machine's.
  if POLYDEV_BENCH_QUICK=1 POLYDEV_PEER_BUILD_DIR="$POLYDEV_BUILD_DIR/bench/peers" \
    OUT="$quick/peer-bench" bash tests/bench/run/peer-bench.sh >"$quick/peer-bench.log" 2>&1; then
    echo "tests/bench/run/peer-bench.sh: passed"
  else
    status=1
    tail -n 30 "$quick/peer-bench.log"
  fi
  if POLYDEV_BENCH_QUICK=1 bash ci/ctest-speed.sh "$POLYDEV_BUILD_DIR" "$quick/ctest-speed" \
    >"$quick/ctest-speed.log" 2>&1; then
    echo "ci/ctest-speed.sh: passed"
  else
    status=1
    tail -n 30 "$quick/ctest-speed.log"
  fi
fi

if [[ -n "${OUT:-}" ]]; then
  cp "$results/devices.txt" "$results/devices.json" "$results/matrix.txt" "$results/ctest.log" "$OUT/"
  cp "$results"/ctest-speedup.txt "$results"/*bench*.json "$results"/characterize.json \
    "$results"/occupancy.json "$results"/report.json "$results"/report.html "$OUT/" 2>/dev/null || true
  tar -czf "$OUT/results.tar.gz" -C "$results" .
fi
exit $status
