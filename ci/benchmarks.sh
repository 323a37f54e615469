#!/usr/bin/env bash
# The benchmarks that run without a GPU, each in its quick mode (POLYDEV_BENCH_QUICK=1: one round,
# the smallest sizes), so that a change that breaks one fails CI. Nothing here asserts on time:
# a step fails only when its build, its run or the check of its output fails. Every step runs;
# the status is 1 when one failed.
#
#   bash ci/benchmarks.sh
#
# - polydev_opencl_pool_bench (tests/bench/opencl_pool_bench.cpp) on the PoCL devices: every
#   benchmark once, for 0.01 s, with no error in its JSON;
# - ci/ctest-speed.sh: the device-test binaries directly and through CTest, and the start-up
#   breakdown;
# - tests/bench/run/fixture-overhead.sh: polydev's fixtures against pytest with PyOpenCL's plugin;
# - tests/bench/run/opencl-peer-bench.sh: polydev's OpenCL pools against PyOpenCL's;
# - tests/bench/run/fuzz-long.sh on the fuzzers of ci/fuzz.sh (built by it first when missing).
# The CUDA and multi-GPU ones run on a GPU machine: ci/gpu.sh runs tests/bench/run/peer-bench.sh and
# ci/ctest-speed.sh in quick mode, and ci/gpu-bound-speedup.sh in full (a short measurement whose
# figure it keeps with its results); ci/gpu-multi.sh runs ci/gpu-bound-speedup.sh in quick mode.
#
# The benchmarks are built in POLYDEV_BUILD_DIR (default build) as ci/build.sh configured it (it is
# run first when that folder has no build yet); the fuzzers are read from POLYDEV_FUZZ_BUILD_DIR
# (default build-fuzz). Logs and results: POLYDEV_BUILD_DIR/bench.
# shellcheck disable=SC2317  # the steps' functions are called through step, which shellcheck misses
set -euo pipefail
cd "$(dirname "$0")/.."
export POLYDEV_BUILD_DIR="${POLYDEV_BUILD_DIR:-build}"
export POLYDEV_BENCH_QUICK=1
targets="polydev_tool polydev_opencl_tests polydev_opencl_pool_tests polydev_startup_breakdown
  polydev_opencl_pool_bench polydev_fixture_overhead_tests"
fuzz_dir="${POLYDEV_FUZZ_BUILD_DIR:-build-fuzz}/tests/fuzz"

# build: the benchmarks' targets, in the build folder as it is configured.
build() {
  if [[ -f "$POLYDEV_BUILD_DIR/CMakeCache.txt" ]]; then
    read -r -a names <<<"$(tr '\n' ' ' <<<"$targets")"
    cmake --build "$POLYDEV_BUILD_DIR" --parallel "$(nproc)" --target "${names[@]}"
  else
    POLYDEV_BUILD_TARGETS="$targets" bash ci/build.sh
  fi
}

# step NAME COMMAND...: runs a step with its output in $logs/NAME.log; prints its time and the end
# of its output, more of it when it failed. The step runs in a subshell of its own, in the
# background: in a condition (if, ||) bash would ignore `set -e` inside it.
status=0
step() {
  local name=$1 start=$SECONDS result=0
  shift
  echo "== $name"
  ("$@") >"$logs/$name.log" 2>&1 &
  wait "$!" || result=$?
  if ((result == 0)); then
    tail -n "${summary_lines:-4}" "$logs/$name.log" | sed 's/^/  /'
    echo "$name: passed in $((SECONDS - start)) s"
  else
    tail -n 40 "$logs/$name.log" | sed 's/^/  /'
    echo "$name: FAILED (status $result) in $((SECONDS - start)) s (log: $logs/$name.log)"
    status=1
  fi
}

# pool_bench: every benchmark of polydev_opencl_pool_bench once; none may report an error.
pool_bench() {
  local bench="$POLYDEV_BUILD_DIR/tests/bench/polydev_opencl_pool_bench"
  # shellcheck source=ci/pocl-env.sh
  source ci/pocl-env.sh
  PYOPENCL_TEST="${PYOPENCL_TEST:-portable}" "$bench" --benchmark_min_time=0.01 \
    --benchmark_repetitions=1 --benchmark_out="$results/opencl_pool_bench.json" \
    --benchmark_out_format=json
  python3 - "$results/opencl_pool_bench.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
errors = [run["name"] for run in runs if run.get("error_occurred")]
if not runs or errors:
    sys.exit(f"polydev_opencl_pool_bench: {len(runs)} results, errors in {errors}")
print(f"polydev_opencl_pool_bench: {len(runs)} results, no error")
PY
}

# ctest_speed: the record must have its table.
ctest_speed() {
  bash ci/ctest-speed.sh "$POLYDEV_BUILD_DIR" "$results/ctest-speed"
  grep -q '^| polydev_opencl_tests | [1-9]' "$results/ctest-speed/table.md"
}

# expect_json FILE KEY...: FILE is a JSON object with these keys.
expect_json() {
  python3 - "$@" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
missing = [key for key in sys.argv[2:] if key not in data]
if missing:
    sys.exit(f"{sys.argv[1]}: no {missing}")
PY
}

fixture_overhead() {
  POLYDEV_BENCH_BUILD_DIR="$POLYDEV_BUILD_DIR" bash tests/bench/run/fixture-overhead.sh
  expect_json "$POLYDEV_BUILD_DIR/bench/fixture-overhead/fixture-overhead.json" ratio \
    startup_median_s per_test step_median_us pytest_profile_s
}

opencl_peers() {
  POLYDEV_BENCH_BUILD_DIR="$POLYDEV_BUILD_DIR" OUT="$results/opencl-peers" \
    bash tests/bench/run/opencl-peer-bench.sh
  [[ -s "$results/opencl-peers/summary.json" ]]
}

# fuzz_long: on the fuzzers of the fuzz stage; ci/fuzz.sh builds them (one input each) if absent.
fuzz_long() {
  if ! compgen -G "$fuzz_dir/fuzz_*" >/dev/null; then
    echo "no fuzzers in $fuzz_dir: ci/fuzz.sh builds them"
    POLYDEV_FUZZ_RUNS=1 bash ci/fuzz.sh
  fi
  bash tests/bench/run/fuzz-long.sh "$fuzz_dir"
}

start=$SECONDS
logs="$POLYDEV_BUILD_DIR/bench/logs"
results="$POLYDEV_BUILD_DIR/bench"
mkdir -p "$logs"
logs="$(realpath "$logs")"
results="$(realpath "$results")"
step build build
step opencl-pool-bench pool_bench
summary_lines=8 step ctest-speed ctest_speed
summary_lines=12 step fixture-overhead fixture_overhead
summary_lines=12 step opencl-peer-bench opencl_peers
summary_lines=14 step fuzz-long fuzz_long
echo "ci/benchmarks.sh: $( ((status)) && echo FAILED || echo passed) in $((SECONDS - start)) s"
exit "$status"
