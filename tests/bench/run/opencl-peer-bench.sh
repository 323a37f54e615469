#!/usr/bin/env bash
# polydev's OpenCL pools against PyOpenCL's, driven from Python, on the same OpenCL device (the
# peers that exist only in Python).
#
# Builds polydev_opencl_pool_bench (tests/bench/opencl_pool_bench.cpp) in its own Release build
# directory, then runs, round after round, the C++ benchmark's hot pairs (allocate one block, give
# it back) and tests/bench/peers/opencl_python_peers.py (PyOpenCL's MemoryPool and SVMPool with the
# same pattern at the same sizes, an empty-call baseline to subtract, raw cl.Buffer as reference).
# The two sides alternate, and which one goes first alternates too, so that both are measured in
# the same minutes under the same load. Both take the first device that PYOPENCL_TEST selects; the
# script stops if the two name different devices. Prints Markdown tables of medians and ratios.
# Nothing here asserts on time: it fails only when a build, a run or the device check fails.
#
#   bash tests/bench/run/opencl-peer-bench.sh                          # the figures
#   POLYDEV_BENCH_QUICK=1 POLYDEV_BENCH_BUILD_DIR=build bash tests/bench/run/opencl-peer-bench.sh
#
# Needs: cmake, ninja, a C++ compiler, Google Benchmark (libbenchmark-dev), GoogleTest (the tests
# directory is configured, though only the benchmark is built), an OpenCL driver, and a Python
# with pyopencl and numpy (Debian's python3-pyopencl).
# Environment:
#   POLYDEV_BENCH_QUICK=1    quick mode, for CI (ci/benchmarks.sh): one round, one repetition, a
#                            min time of 0.01 s and Python batches of at most 1000 calls; every
#                            step and check still runs, the figures mean nothing
#   POLYDEV_BENCH_BUILD_DIR  an existing build of polydev (ci/build.sh's): the benchmark is built
#                            there, without configuring, instead of in the Release build below;
#                            the results go to its bench/opencl-peers folder
#   PYOPENCL_TEST            the device for both sides (default: portable, PoCL's first device)
#   OPENCL_PEER_BUILD_DIR    build directory (default build-opencl-peers; ignored by git)
#   OPENCL_PEER_ROUNDS       rounds of (C++, Python) (default 7; 1 in quick mode)
#   OPENCL_PEER_REPETITIONS  repetitions of every benchmark / batch per side in a round (default 3;
#                            1 in quick mode)
#   OPENCL_PEER_MIN_TIME     Google Benchmark's min time per repetition, seconds (default 0.1;
#                            0.01 in quick mode)
#   OPENCL_PEER_JOBS         build jobs (default 1: the build machines are shared)
#   PYTHON                   the Python with pyopencl (default /usr/bin/python3, Debian's)
#   OUT                      where the JSON, logs and tables go (default <build>/results)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
quick="${POLYDEV_BENCH_QUICK:-0}"
[[ "$quick" == [01] ]] ||
  { echo "opencl-peer-bench: POLYDEV_BENCH_QUICK='$quick'; expected 0 or 1" >&2; exit 2; }
polydev_build="${POLYDEV_BENCH_BUILD_DIR:-}"
build="${polydev_build:-${OPENCL_PEER_BUILD_DIR:-build-opencl-peers}}"
if ((quick)); then
  rounds="${OPENCL_PEER_ROUNDS:-1}"
  repetitions="${OPENCL_PEER_REPETITIONS:-1}"
  min_time="${OPENCL_PEER_MIN_TIME:-0.01}"
  python_batch=(--calls 1000 --batch-ms 1)
else
  rounds="${OPENCL_PEER_ROUNDS:-7}"
  repetitions="${OPENCL_PEER_REPETITIONS:-3}"
  min_time="${OPENCL_PEER_MIN_TIME:-0.1}"
  python_batch=()
fi
jobs="${OPENCL_PEER_JOBS:-1}"
python="${PYTHON:-/usr/bin/python3}"
mkdir -p "$build"
build="$(cd "$build" && pwd)"
default_out="$build/results"
[[ -n "$polydev_build" ]] && default_out="$build/bench/opencl-peers"
out="${OUT:-$default_out}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
script="$root/tests/bench/peers/opencl_python_peers.py"

if ! "$python" -c 'import pyopencl, numpy' 2>/dev/null; then
  echo "opencl-peer-bench: $python lacks pyopencl or numpy (Debian: python3-pyopencl)" >&2
  exit 1
fi

# shellcheck source=ci/nvidia-opencl-env.sh
source "$root/ci/nvidia-opencl-env.sh"

# configure: Release, no CUDA: only the OpenCL pools are measured. POLYDEV_BUILD_TESTS is what
# adds tests/bench (ON by default at top level; said here so that an old cache cannot drop it).
# An existing build of polydev (POLYDEV_BENCH_BUILD_DIR) is used as it is configured.
configure() {
  if [[ -n "$polydev_build" ]]; then
    [[ -f "$build/CMakeCache.txt" ]] ||
      { echo "opencl-peer-bench: $build is not a configured build (run ci/build.sh)" >&2; exit 1; }
    return
  fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOLYDEV_WITH_CUDA=OFF \
    -DPOLYDEV_WITH_OPENCL=ON -DPOLYDEV_BUILD_TESTS=ON >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log"
    exit 1
  }
}

echo "== build ($build, -j$jobs)"
configure
# nice: a build should not slow down what others run on the machine (nor a benchmark of theirs).
nice cmake --build "$build" -j "$jobs" --target polydev_opencl_pool_bench \
  >"$out/build.log" 2>&1 || {
  tail -n 60 "$out/build.log"
  exit 1
}
bench="$build/tests/bench/polydev_opencl_pool_bench"
[[ -x "$bench" ]] || { echo "opencl-peer-bench: $bench was not built" >&2; exit 1; }

# The same devices for both sides: PoCL's device list (ci/pocl-env.sh), its kernel cache inside
# the build directory, and one PYOPENCL_TEST read by polydev and by PyOpenCL.
export POLYDEV_BUILD_DIR="$build"
# shellcheck source=ci/pocl-env.sh
source "$root/ci/pocl-env.sh"
export PYOPENCL_TEST="${PYOPENCL_TEST:-portable}"
export PYTHONDONTWRITEBYTECODE=1

echo "== machine"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
# What was built: uncommitted changes under framework/ or pools/ are measured too, and said so.
echo "git: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
  git -C "$root" diff --quiet HEAD -- framework pools 2>/dev/null ||
    echo ' (framework/ or pools/ modified)')"
echo "PYOPENCL_TEST='$PYOPENCL_TEST' POCL_DEVICES='${POCL_DEVICES:-}'"
"$python" -c 'import sys, pyopencl
print(f"python {sys.version.split()[0]}, pyopencl {pyopencl.VERSION_TEXT}")'

# Every file of an earlier run goes, so that the summary reads this run's rounds only.
rm -f "$out"/cpp-round*.json "$out"/cpp-round*.log "$out"/python-round*.json \
  "$out"/python-round*.log

# The load average counts tasks waiting on I/O too; Linux's CPU pressure says how much of the
# time a runnable task waited for a CPU, which is what disturbs a benchmark.
load() {
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg), CPU pressure $(
    head -n 1 /proc/pressure/cpu 2>/dev/null | cut -d' ' -f2-3 || echo 'not available')"
}

run_cpp() {
  local round="$1"
  # Hot pairs only (churn has no PyOpenCL counterpart here); the repetitions of all benchmarks
  # shuffled together within the round.
  "$bench" --benchmark_filter='^pair/' --benchmark_repetitions="$repetitions" \
    --benchmark_enable_random_interleaving=true --benchmark_min_time="$min_time" \
    --benchmark_context=round="$round" --benchmark_context=PYOPENCL_TEST="$PYOPENCL_TEST" \
    --benchmark_out="$out/cpp-round$round.json" --benchmark_out_format=json \
    >"$out/cpp-round$round.log" 2>&1 || {
    echo "opencl-peer-bench: the C++ benchmark failed in round $round; its log ends:" >&2
    tail -n 30 "$out/cpp-round$round.log" >&2
    exit 1
  }
}

run_python() {
  local round="$1"
  "$python" "$script" measure --round "$round" --repetitions "$repetitions" \
    ${python_batch[@]+"${python_batch[@]}"} --out "$out/python-round$round.json" >"$out/python-round$round.log" 2>&1 || {
    echo "opencl-peer-bench: the Python side failed in round $round; its log ends:" >&2
    tail -n 30 "$out/python-round$round.log" >&2
    exit 1
  }
}

echo "at start: $(load)"
echo "== $rounds rounds, $repetitions repetitions per side in each, sides alternating"
for ((round = 1; round <= rounds; round++)); do
  start=$(date +%s)
  # Odd rounds start with C++, even ones with Python: neither side always follows the other.
  if ((round % 2)); then
    run_cpp "$round"
    run_python "$round"
  else
    run_python "$round"
    run_cpp "$round"
  fi
  echo "round $round: $(($(date +%s) - start)) s; $(load)"
done

# Both sides must have measured the same device: the C++ benchmark prints its name first.
cpp_device="$(sed -n 's/^device: //p' "$out/cpp-round1.log" | head -n 1)"
py_device="$("$python" -c 'import json, sys
print(json.load(open(sys.argv[1]))["context"]["device"])' "$out/python-round1.json")"
echo "device: C++ '$cpp_device', Python '$py_device'"
if [[ -z "$cpp_device" || "$cpp_device" != "$py_device" ]]; then
  echo "opencl-peer-bench: the two sides did not use the same device" >&2
  exit 1
fi

echo "== summary"
cpp_files=()
python_files=()
for ((round = 1; round <= rounds; round++)); do
  cpp_files+=("$out/cpp-round$round.json")
  python_files+=("$out/python-round$round.json")
done
"$python" "$script" summarize --cpp "${cpp_files[@]}" --python "${python_files[@]}" \
  --out "$out/summary.json" | tee "$out/summary.md"
echo "at the end: $(load)"
echo "raw results and logs: $out"
