#!/usr/bin/env bash
# Fixture overhead against PyOpenCL's pytest plugin.
#
# Builds tests/bench/fixture_overhead standalone (polydev's libraries with add_subdirectory, OpenCL
# only), then runs the same 100 trivial device tests with polydev's fixtures and with pytest +
# PyOpenCL, on the same PoCL devices, interleaved, K times each, and prints the median wall time of
# each whole run, the ratio polydev / pytest, the per-test times of both runs, and what one test's
# steps cost (context, queue, program build first / cached / cold / from a binary, buffers, kernel
# and read). Two variants of the polydev suite are timed beside it (device_tests.cpp says what they
# change): no_binary_cache (the same suite with POLYDEV_NO_CACHE=1: every context builds its
# program from source) and shared_context (one context per device for the whole run).
# Nothing here asserts on time: the script fails only when a build, a test or a device check fails.
#
#   bash tests/bench/run/fixture-overhead.sh                          # the figures
#   POLYDEV_BENCH_QUICK=1 POLYDEV_BENCH_BUILD_DIR=build bash tests/bench/run/fixture-overhead.sh
#
# Needs: cmake, ninja, a C++ compiler, PoCL, and Debian's python3-pyopencl and python3-pytest
# (ci/deps.sh installs them).
# Environment:
#   POLYDEV_BENCH_QUICK=1  quick mode, for CI (ci/benchmarks.sh): one timed run of each side, no
#                  warm-up, one PoCL device (the first of POCL_DEVICES unless POCL_DEVICES is set);
#                  every step and check still runs, the times mean nothing
#   POLYDEV_BENCH_BUILD_DIR  an existing build of polydev (ci/build.sh's): the suite is built there,
#                  without configuring, instead of in the standalone Release build; the logs go to
#                  its bench/fixture-overhead folder
#   FO_BUILD_DIR   build directory (default: build-fixture-overhead in the checkout; ignored by git)
#   FO_RUNS        K, timed runs of each side (default 5; 1 in quick mode)
#   FO_JOBS        build jobs (default 2)
#   PYOPENCL_TEST  devices for both sides (default: portable, every PoCL device; see ci/pocl-env.sh)
#   PYTHON         the Python that has pyopencl and pytest (default /usr/bin/python3)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
quick="${POLYDEV_BENCH_QUICK:-0}"
[[ "$quick" == [01] ]] ||
  { echo "fixture-overhead: POLYDEV_BENCH_QUICK='$quick'; expected 0 or 1" >&2; exit 2; }
runs="${FO_RUNS:-$((quick ? 1 : 5))}"
jobs="${FO_JOBS:-2}"
python="${PYTHON:-/usr/bin/python3}"
suite_dir="$root/tests/bench/fixture_overhead"

# build_standalone: the suite as its own Release project (polydev by add_subdirectory) in $build.
build_standalone() {
  echo "== build (standalone, $build)"
  cmake -S "$suite_dir" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOLYDEV_WITH_CUDA=OFF \
    -DPOLYDEV_WITH_OPENCL=ON >"$build/configure.log" || {
    cat "$build/configure.log"
    exit 1
  }
  nice cmake --build "$build" -j "$jobs" --target polydev_fixture_overhead_tests
  binary="$build/polydev_fixture_overhead_tests"
}

# build_in_polydev DIR: the suite's target in an existing build of polydev, as it is configured.
build_in_polydev() {
  local polydev_build
  polydev_build="$(cd "$1" && pwd)"
  [[ -f "$polydev_build/CMakeCache.txt" ]] ||
    { echo "fixture-overhead: $1 is not a configured build (run ci/build.sh)" >&2; exit 1; }
  echo "== build (in polydev's build, $polydev_build)"
  nice cmake --build "$polydev_build" -j "$jobs" --target polydev_fixture_overhead_tests
  binary="$polydev_build/tests/bench/fixture_overhead/polydev_fixture_overhead_tests"
  build="$polydev_build/bench/fixture-overhead"
  mkdir -p "$build"
}

if [[ -n "${POLYDEV_BENCH_BUILD_DIR:-}" ]]; then
  build_in_polydev "$POLYDEV_BENCH_BUILD_DIR"
else
  build="${FO_BUILD_DIR:-$root/build-fixture-overhead}"
  mkdir -p "$build"
  build="$(cd "$build" && pwd)"
  build_standalone
fi

if ! "$python" -c 'import pyopencl, pytest, numpy' 2>/dev/null; then
  echo "fixture-overhead: $python lacks pyopencl, pytest or numpy;" \
    "install Debian's python3-pyopencl and python3-pytest" >&2
  exit 1
fi

# The same devices for both sides; PoCL's kernel cache, polydev's and PyOpenCL's binary caches
# inside the build directory.
export POLYDEV_BUILD_DIR="$build"
one_device=0  # quick mode, POCL_DEVICES not given: the first device of ci/pocl-env.sh's list
if ((quick)) && [[ -z "${POCL_DEVICES:-}" ]]; then one_device=1; fi
# shellcheck source=ci/pocl-env.sh
source "$root/ci/pocl-env.sh"
if ((one_device)); then export POCL_DEVICES="${POCL_DEVICES%% *}"; fi
export PYOPENCL_TEST="${PYOPENCL_TEST:-portable}"
export XDG_CACHE_HOME="$build/xdg-cache"
export POLYDEV_CACHE_DIR="$build/polydev-cache"
unset POLYDEV_NO_CACHE
# No bytecode or pytest cache written into the checkout. Debian's packages bring their bytecode
# precompiled; only this suite's two small files are compiled on every run (no pycache prefix:
# with PYTHONDONTWRITEBYTECODE it would make Python recompile every module it imports).
export PYTHONDONTWRITEBYTECODE=1
unset PYTHONPYCACHEPREFIX
unset POLYDEV_DEVICES POLYDEV_PROFILE POLYDEV_SHARD_BY GTEST_TOTAL_SHARDS GTEST_SHARD_INDEX

polydev_cmd=("$binary" "--gtest_filter=OpenCL/FixtureOverhead.*")
no_binary_cache_cmd=(env POLYDEV_NO_CACHE=1 "$binary" "--gtest_filter=OpenCL/FixtureOverhead.*")
shared_context_cmd=("$binary" "--gtest_filter=OpenCL/FixtureOverheadSharedContext.*")
pytest_cmd=("$python" -m pytest -p no:cacheprovider --rootdir "$suite_dir" "$suite_dir/test_device_ops.py" -q)

echo "== devices (POCL_DEVICES='$POCL_DEVICES', PYOPENCL_TEST='$PYOPENCL_TEST')"
polydev_count=$("${polydev_cmd[@]}" --gtest_list_tests | grep -c '^  Op[0-9][0-9]/opencl_')
pytest_count=$("${pytest_cmd[@]}" --collect-only 2>/dev/null | grep -c '^test_device_ops.py::test_op_')
echo "polydev instances: $polydev_count; pytest instances: $pytest_count"
"${polydev_cmd[@]}" --gtest_list_tests | grep '^  Op00/' | sed 's/^  /  polydev: /'
"${pytest_cmd[@]}" --collect-only 2>/dev/null | grep '^test_device_ops.py::test_op_00' | sed 's/^/  pytest:  /'
if [[ "$polydev_count" -ne "$pytest_count" || "$polydev_count" -eq 0 ||
  $((polydev_count % 100)) -ne 0 ]]; then
  echo "fixture-overhead: the two runs do not cover the same devices" >&2
  exit 1
fi

# One run of a side, wall clock in seconds on stdout; its output goes to a log, a failure aborts.
time_run() {
  local log="$1"
  shift
  local start end
  start=$(date +%s%N)
  if ! "$@" >"$log" 2>&1; then
    echo "fixture-overhead: '$*' failed; its output:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  end=$(date +%s%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }'
}

if ((quick)); then
  echo "== no warm-up (quick mode: the times below mean nothing)"
else
  echo "== warm-up (fills PoCL's, polydev's and PyOpenCL's kernel caches; not counted)"
  time_run "$build/fo-warmup-polydev.log" "${polydev_cmd[@]}" >/dev/null
  time_run "$build/fo-warmup-pytest.log" "${pytest_cmd[@]}" >/dev/null
  time_run "$build/fo-warmup-no-binary-cache.log" "${no_binary_cache_cmd[@]}" >/dev/null
  time_run "$build/fo-warmup-shared-context.log" "${shared_context_cmd[@]}" >/dev/null
fi

echo "== $runs timed runs of each side, interleaved"
: >"$build/fo-times.txt"
for ((run = 1; run <= runs; run++)); do
  p=$(time_run "$build/fo-run-polydev.log" "${polydev_cmd[@]}")
  y=$(time_run "$build/fo-run-pytest.log" "${pytest_cmd[@]}")
  b=$(time_run "$build/fo-run-no-binary-cache.log" "${no_binary_cache_cmd[@]}")
  c=$(time_run "$build/fo-run-shared-context.log" "${shared_context_cmd[@]}")
  echo "run $run: polydev ${p} s, pytest ${y} s; variants: no_binary_cache ${b} s, shared_context ${c} s"
  echo "$p $y $b $c" >>"$build/fo-times.txt"
done

# Listing is GoogleTest's counterpart of pytest's collection: the process starts, enumerates the
# devices and names every instance, and runs none. (A filter that selects nothing is no longer a
# way to run nothing: polydev fails such a run, as it fails every run that tests nothing.)
echo "== fixed cost of a run: start-up, device enumeration, collection; no test runs ($runs runs each)"
: >"$build/fo-startup.txt"
for ((run = 1; run <= runs; run++)); do
  p=$(time_run "$build/fo-startup-polydev.log" "${polydev_cmd[@]}" --gtest_list_tests)
  y=$(time_run "$build/fo-startup-pytest.log" "${pytest_cmd[@]}" --collect-only)
  grep -q "^  Op99/opencl_" "$build/fo-startup-polydev.log" ||
    { echo "fixture-overhead: the listing names no Op99 instance" >&2; exit 1; }
  echo "$p $y" >>"$build/fo-startup.txt"
done

echo "== per-test times (one more run of each side, with reports)"
"${polydev_cmd[@]}" --gtest_output="json:$build/fo-polydev.json" >"$build/fo-report-polydev.log" 2>&1
"${pytest_cmd[@]}" --junitxml="$build/fo-pytest.xml" -o junit_duration_report=total \
  >"$build/fo-report-pytest.log" 2>&1

echo "== where pytest's time goes (one more run under cProfile)"
"$python" -m cProfile -o "$build/fo-pytest.prof" -m pytest -p no:cacheprovider --rootdir "$suite_dir" \
  "$suite_dir/test_device_ops.py" -q >"$build/fo-profile-pytest.log" 2>&1

echo "== per-step costs inside one process (7 repetitions per device)"
"$binary" --gtest_filter='OpenCL/FixtureOverheadCosts.*' >"$build/fo-costs-polydev.log" 2>&1 || {
  cat "$build/fo-costs-polydev.log" >&2
  exit 1
}
(cd "$suite_dir" && "$python" pyopencl_costs.py) >"$build/fo-costs-pyopencl.log" 2>&1 || {
  cat "$build/fo-costs-pyopencl.log" >&2
  exit 1
}

"$python" - "$build" "$polydev_count" <<'EOF'
import json, re, statistics, sys, xml.etree.ElementTree as ET
from pathlib import Path

build, instances = Path(sys.argv[1]), int(sys.argv[2])
times = [tuple(map(float, line.split())) for line in (build / "fo-times.txt").read_text().split("\n") if line]
columns = {"polydev": 0, "pytest": 1, "no_binary_cache": 2, "shared_context": 3}
series = {name: [t[i] for t in times] for name, i in columns.items()}
medians = {name: statistics.median(values) for name, values in series.items()}
mp, my = medians["polydev"], medians["pytest"]
result = {"instances": instances, "runs_s": series, "median_s": medians, "ratio": mp / my,
          "variant_ratios": {name: medians[name] / my for name in ("no_binary_cache", "shared_context")}}

print("\n== whole run, wall clock (%d test instances per run, %d runs each, interleaved)"
      % (instances, len(times)))
for name, values in series.items():
    print("  %-15s median %7.3f s  (min %.3f, max %.3f)  / pytest: %.3f"
          % (name, medians[name], min(values), max(values), medians[name] / my))
print("  ratio polydev/pytest: %.3f  (goal <= 0.1: %s)" % (mp / my, "met" if mp / my <= 0.1 else "NOT met"))
print("  (no_binary_cache and shared_context are variants of the polydev suite, not polydev as it is)")

startup = [tuple(map(float, line.split())) for line in (build / "fo-startup.txt").read_text().split("\n") if line]
result["startup_median_s"] = {"polydev": statistics.median(t[0] for t in startup),
                              "pytest": statistics.median(t[1] for t in startup)}
print("\n== fixed cost per run (start-up + device enumeration + collection, no test run)")
print("  polydev --gtest_list_tests:      median %.3f s" % result["startup_median_s"]["polydev"])
print("  pytest --collect-only:           median %.3f s" % result["startup_median_s"]["pytest"])

def summary(values):
    values = sorted(values)
    return {"n": len(values), "sum_ms": sum(values), "median_ms": statistics.median(values),
            "min_ms": values[0], "max_ms": values[-1]}

# GoogleTest JSON: per-test time in whole milliseconds ("0.002s" style, ms resolution).
report = json.loads((build / "fo-polydev.json").read_text())
gtest_ms = {}
for suite in report["testsuites"]:
    for case in suite["testsuite"]:
        device = case["name"].split("/", 1)[1]
        gtest_ms.setdefault(device, []).append(float(case["time"].rstrip("s")) * 1000)
gtest_total = float(report["time"].rstrip("s")) * 1000
# pytest JUnit XML: per-test time = setup + call + teardown (junit_duration_report=total).
tree = ET.parse(build / "fo-pytest.xml")
pytest_ms = {}
for case in tree.iter("testcase"):
    device = re.sub(r"^test_op_\d\d\[", "[", case.get("name"))
    pytest_ms.setdefault(device, []).append(float(case.get("time")) * 1000)
pytest_suite_s = float(next(tree.iter("testsuite")).get("time"))

print("\n== per-test time by device (report run)")
result["per_test"] = {"polydev": {}, "pytest": {}}
for label, table in (("polydev", gtest_ms), ("pytest", pytest_ms)):
    for device, values in table.items():
        s = summary(values)
        result["per_test"][label][device] = s
        print("  %-7s %-60s n=%d median %.2f ms, min %.2f, max %.2f, sum %.0f ms"
              % (label, device[:60], s["n"], s["median_ms"], s["min_ms"], s["max_ms"], s["sum_ms"]))
print("  polydev: GoogleTest's own total %.0f ms (tests only, ms resolution per test)" % gtest_total)
print("  pytest:  JUnit suite time %.2f s (tests only, without interpreter start-up and collection)"
      % pytest_suite_s)
result["polydev_gtest_total_ms"] = gtest_total
result["pytest_suite_s"] = pytest_suite_s

print("\n== per-step medians inside one process, microseconds")
costs = {}
for label, log in (("polydev", "fo-costs-polydev.log"), ("pyopencl", "fo-costs-pyopencl.log")):
    for line in (build / log).read_text().splitlines():
        m = re.match(r"fixture-overhead-cost (\S+) (\S+) median_us=(\S+) min_us=(\S+) max_us=(\S+)", line)
        if m:
            costs.setdefault(label, {}).setdefault(m[1], {})[m[2]] = float(m[3])
result["step_median_us"] = costs
steps = ["context", "queue", "program_first", "program_cached", "program_cold", "program_from_binary",
         "buffers", "kernel_and_read"]
for label, devices in costs.items():
    for device, values in devices.items():
        print("  %s %s" % (label, device))
        print("    " + ", ".join("%s %.1f" % (s, values.get(s, float("nan"))) for s in steps))

import pstats
profile = pstats.Stats(str(build / "fo-pytest.prof")).stats
def cumulative(predicate):
    return sum(entry[3] for key, entry in profile.items() if predicate(*key))
total = max(entry[3] for entry in profile.values())
shares = {
    "gc.collect (in ctx_factory)": cumulative(lambda f, l, n: n == "<built-in method gc.collect>"),
    "ctx_factory() in all": cumulative(lambda f, l, n: f.endswith("pyopencl/tools.py") and n == "__call__"),
    "program build (memoized)": cumulative(lambda f, l, n: f.endswith("test_device_ops.py") and n == "build_program"),
    "test bodies (run_one)": cumulative(lambda f, l, n: f.endswith("test_device_ops.py") and n == "run_one"),
}
print("\n== pytest under cProfile: %.2f s in all (profiling adds overhead)" % total)
for name, seconds in shares.items():
    print("  %-30s %6.2f s  %5.1f %%" % (name, seconds, 100 * seconds / total))
result["pytest_profile_s"] = dict(shares, total=total)

(build / "fixture-overhead.json").write_text(json.dumps(result, indent=2) + "\n")
print("\nraw numbers: %s" % (build / "fixture-overhead.json"))
EOF
