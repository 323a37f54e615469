#!/usr/bin/env bash
# What CTest costs a device suite: each device-test binary of a build run directly, then through
# `ctest -j1` with the resource spec in both granularities of polydev_discover_device_tests (an
# entry per test instance, an entry per device), then all of them through `ctest -j N`; and where a
# test process's start goes (tests/bench/startup_breakdown.cpp). A benchmark, not a test.
#
#   ci/ctest-speed.sh BUILD_DIR [OUT_DIR]
#
# BUILD_DIR holds the built test binaries (polydev_opencl_tests, polydev_opencl_pool_tests,
# polydev_cuda_tests, polydev_cuda_pool_tests: those that exist), the polydev tool and
# polydev_startup_breakdown. The entries are made by a small CTest project per binary and
# granularity that imports the built binaries, so the build needs no reconfiguring. OUT_DIR
# (default tests/bench/results/ctest-speed-<host>) receives every timing (runs.tsv), the table
# (table.md), the start-up breakdown (startup.txt, startup.json), the device table and a README.md
# that records the machine and commit.
#
#   POLYDEV_BENCH_QUICK=1  quick mode, for CI (ci/benchmarks.sh, ci/gpu.sh): one round, a
#                start-up breakdown of one repetition, each binary's own CTest runs with an entry
#                per instance only and the whole suite's with an entry per device only (each
#                granularity runs once, the cheapest way round), OUT_DIR by default
#                BUILD_DIR/bench/ctest-speed (not a record); a run that fails (a test, a CTest
#                entry) fails the script, which otherwise only records its status
#   REPEAT=3     runs of each measurement; the fastest counts (other work on the machine only
#                ever slows a run down); 1 in quick mode
#   TIMEOUT=1800 seconds a binary, or a CTest entry, may run before it is stopped (and fails)
#   JOBS=N       the -j of the whole suite (default: the number of selected devices)
#   POCL_DEVICES as ci/pocl-env.sh sets it unless given
#   LABEL=text   what the build is, for the record (e.g. "before the change")
#   SUITE_GRANULARITIES="instance device"  the granularities of the whole suite's runs ("device"
#                alone leaves out its slowest runs where device time is short)
#   BINARY_GRANULARITIES="instance device"  the same for each binary's own CTest runs (a
#                granularity left out shows as "not measured" in the table)
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir="$PWD"
build="${1:?usage: ci/ctest-speed.sh BUILD_DIR [OUT_DIR]}"
build="$(realpath "$build")"
host="$(uname -n)"
quick="${POLYDEV_BENCH_QUICK:-0}"
[[ "$quick" == [01] ]] ||
  { echo "ci/ctest-speed.sh: POLYDEV_BENCH_QUICK='$quick'; expected 0 or 1" >&2; exit 2; }
if ((quick)); then
  out="${2:-$build/bench/ctest-speed}"
  repeat="${REPEAT:-1}"
  binary_granularities="${BINARY_GRANULARITIES:-instance}"
  suite_granularities="${SUITE_GRANULARITIES:-device}"
  LABEL="${LABEL:-quick mode (POLYDEV_BENCH_QUICK=1), not a measurement}"
else
  out="${2:-tests/bench/results/ctest-speed-${host%%.*}}"
  repeat="${REPEAT:-3}"
fi
mkdir -p "$out"
out="$(realpath "$out")"
suite_granularities="${suite_granularities:-${SUITE_GRANULARITIES:-instance device}}"
binary_granularities="${binary_granularities:-${BINARY_GRANULARITIES:-instance device}}"
for setting in "SUITE_GRANULARITIES=$suite_granularities" \
  "BINARY_GRANULARITIES=$binary_granularities"; do
  value="${setting#*=}"
  [[ "$value" =~ ^(instance|device)(\ (instance|device))?$ ]] || {
    echo "ci/ctest-speed.sh: ${setting%%=*}='$value' is not a list of granularities; expected" \
      "'instance device', 'instance' or 'device'" >&2
    exit 2
  }
done
limit="${TIMEOUT:-1800}"
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || {
  echo "ci/ctest-speed.sh: REPEAT='$repeat' is not a count; expected a number from 1" >&2
  exit 2
}
[[ "$limit" =~ ^[1-9][0-9]*$ ]] || {
  echo "ci/ctest-speed.sh: TIMEOUT='$limit' is not a number of seconds; expected a number from 1" >&2
  exit 2
}
export POLYDEV_BUILD_DIR="$build"
# shellcheck source=ci/nvidia-opencl-env.sh
source ci/nvidia-opencl-env.sh
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh

tool="$build/framework/polydev"
[[ -x "$tool" ]] || {
  echo "ci/ctest-speed.sh: no polydev tool at $tool; build the target polydev_tool" >&2
  exit 2
}
binaries=()
for name in polydev_opencl_tests polydev_opencl_pool_tests polydev_cuda_tests \
  polydev_cuda_pool_tests; do
  path="$(find "$build/tests" -maxdepth 2 -type f -name "$name" -perm -u+x | head -n 1)"
  [[ -n "$path" ]] && binaries+=("$path")
done
((${#binaries[@]} > 0)) || {
  echo "ci/ctest-speed.sh: no device-test binary in $build/tests" >&2
  exit 2
}

# The ctest that is measured. PyPI's cmake package (the CMake 4 of the GPU machines) installs
# `ctest` as a Python script that starts the real program: 0.13 s to 0.21 s of Python per run on
# the H100 machine, no part of CTest's cost and as much as a whole entry of a small binary. The
# program it starts is measured instead, and the record names it.
ctest_program="$(command -v ctest)"
if [[ "$(head -c 2 "$ctest_program")" == "#!" ]]; then
  interpreter="$(head -n 1 "$ctest_program" | cut -c 3-)"
  if [[ "$interpreter" == *python* ]]; then
    real="$($interpreter -c 'import cmake, os; print(os.path.join(cmake.CMAKE_BIN_DIR, "ctest"))' \
      2>/dev/null)" || real=""
    [[ -x "$real" ]] && ctest_program="$real"
  fi
fi
ctest() { "$ctest_program" "$@"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/polydev-ctest-speed.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$tool" devices >"$out/devices.txt"
"$tool" resource-spec --output "$work/spec.json"
devices=$(grep -o '"id"' "$work/spec.json" | wc -l)
cmake_version="$(cmake --version | head -n 1 | cut -d' ' -f3)"
jobs="${JOBS:-$((devices > 0 ? devices : 1))}"

# project DIR GRANULARITY BINARY...: a CTest project whose entries are those of the binaries.
project() {
  local dir=$1 granularity=$2
  shift 2
  mkdir -p "$dir"
  {
    echo "cmake_minimum_required(VERSION 3.25)"
    echo "project(ctest_speed LANGUAGES NONE)"
    echo "enable_testing()"
    echo "include(\"$source_dir/fixtures/cmake/PolydevDeviceTests.cmake\")"
    echo "add_executable(polydev::tool IMPORTED)"
    echo "set_target_properties(polydev::tool PROPERTIES IMPORTED_LOCATION \"$tool\")"
    local binary name
    for binary in "$@"; do
      name="$(basename "$binary")"
      echo "add_executable($name IMPORTED)"
      echo "set_target_properties($name PROPERTIES IMPORTED_LOCATION \"$binary\")"
      echo "polydev_discover_device_tests($name GRANULARITY $granularity DISCOVERY_TIMEOUT 120"
      echo "  WORKING_DIRECTORY \"$(dirname "$binary")\")"
    done
  } >"$dir/CMakeLists.txt"
  cmake -S "$dir" -B "$dir/build" >"$dir/configure.log" 2>&1
  # Discovery happens once per binary change, not per run: done here, untimed.
  ctest --test-dir "$dir/build" --show-only >"$dir/entries.txt" 2>&1
}

# seconds COMMAND...: the wall time of one run (its output in $work/last.log); the status is
# recorded, not fatal: a failing test is part of what is measured.
seconds() {
  local start=$EPOCHREALTIME status=0
  "$@" >"$work/last.log" 2>&1 || status=$?
  local end=$EPOCHREALTIME
  echo "$status" >"$work/last.status"
  python3 -c "print(f'{$end - $start:.3f}')"
}

# measure LABEL COMMAND...: adds a measurement; run_measurements runs them.
labels=()
commands=()
measure() {
  labels+=("$1")
  shift
  commands+=("$(printf '%q ' "$@")")
}

# run_measurements: runs every measurement $repeat times, round by round (so that other work on
# the machine falls on all of them alike), and records each run in runs.tsv.
run_measurements() {
  local round i time
  for ((round = 1; round <= repeat; round++)); do
    for i in "${!labels[@]}"; do
      eval "time=\$(seconds ${commands[$i]})"
      printf '%s\t%s\t%s\t%s\n' "${labels[$i]}" "$round" "$time" "$(cat "$work/last.status")" \
        >>"$out/runs.tsv"
    done
  done
}

printf 'measurement\tround\tseconds\tstatus\n' >"$out/runs.tsv"
breakdown="$build/tests/bench/polydev_startup_breakdown"
if [[ -x "$breakdown" ]]; then
  echo "== the start of a test process"
  "$breakdown" --binary "${binaries[0]}" --repeat "$repeat" | tee "$out/startup.txt"
  "$breakdown" --json --binary "${binaries[0]}" --repeat "$repeat" >"$out/startup.json"
else
  echo "(no polydev_startup_breakdown in this build: no start-up breakdown)" | tee "$out/startup.txt"
fi

echo "== each binary directly and through ctest -j1; every binary through ctest -j1 and -j$jobs"
declare -A instances
names=()
for binary in "${binaries[@]}"; do
  name="$(basename "$binary")"
  names+=("$name")
  instances[$name]=$("$binary" --gtest_list_tests | grep -c '^  ' || true)
  # Untimed: the drivers' kernel caches (PoCL's, NVIDIA's) and polydev's binary cache are filled
  # by a first run; every timed run finds them warm, as a developer's second run does.
  timeout "$limit" "$binary" >"$work/warm-up.log" 2>&1 || true
  measure "$name direct" timeout "$limit" "$binary"
  for granularity in $binary_granularities; do
    project "$work/$name/$granularity" "$granularity" "$binary"
    measure "$name ctest -j1 $granularity" ctest --test-dir "$work/$name/$granularity/build" \
      --timeout "$limit" -j1
  done
done
# The suite's direct runs again, next to its CTest runs in each round: its ratios are taken
# within a round, from runs seconds apart, not minutes.
for binary in "${binaries[@]}"; do
  measure "$(basename "$binary") direct, for the suite" timeout "$limit" "$binary"
done
for granularity in $suite_granularities; do
  project "$work/all/$granularity" "$granularity" "${binaries[@]}"
  measure "all ctest -j1 $granularity" ctest --test-dir "$work/all/$granularity/build" \
    --timeout "$limit" -j1
  measure "all ctest -j$jobs $granularity" ctest --test-dir "$work/all/$granularity/build" \
    --timeout "$limit" -j"$jobs"
done
run_measurements

# The table: the fastest time of each measurement, and each ratio as the median over the rounds
# of the ratio within a round (the machine's other work changes from round to round).
for name in "${names[@]}"; do echo "$name ${instances[$name]}"; done >"$work/instances.txt"
python3 - "$out/runs.tsv" "$work/instances.txt" "$jobs" >"$out/table.md" <<'PY'
import collections, statistics, sys

runs = collections.defaultdict(dict)  # label -> round -> seconds
with open(sys.argv[1]) as tsv:
    next(tsv)
    for line in tsv:
        label, round_, seconds, _ = line.rstrip("\n").split("\t")
        runs[label][round_] = float(seconds)
binaries = [line.split() for line in open(sys.argv[2])]
jobs = sys.argv[3]

def fastest(label):
    if label not in runs:
        return "not measured"
    return f"{min(runs[label].values()):.2f} s"

def ratio(numerator, denominators):
    if numerator not in runs:
        return "not measured"
    rounds = runs[numerator].keys()
    values = [runs[numerator][r] / sum(runs[d][r] for d in denominators) for r in rounds]
    return f"{statistics.median(values):.2f}x"

print("| binary | instances | direct | through CTest, an entry per instance | through CTest, an entry "
      "per device | per instance / direct | per device / direct |")
print("|---|---|---|---|---|---|---|")
for name, count in binaries:
    direct = f"{name} direct"
    print(f"| {name} | {count} | {fastest(direct)} | {fastest(name + ' ctest -j1 instance')} | "
          f"{fastest(name + ' ctest -j1 device')} | {ratio(name + ' ctest -j1 instance', [direct])} | "
          f"{ratio(name + ' ctest -j1 device', [direct])} |")
print()
suite = [f"{name} direct, for the suite" for name, _ in binaries]
serial = min(sum(runs[d][r] for d in suite) for r in runs[suite[0]])
print(f"| every binary, entries per | directly, serially | ctest -j1 | ctest -j{jobs} | "
      f"-j1 / direct | -j{jobs} / direct |")
print("|---|---|---|---|---|---|")
for granularity in ("instance", "device"):
    one, many = f"all ctest -j1 {granularity}", f"all ctest -j{jobs} {granularity}"
    if one not in runs:
        continue
    print(f"| {granularity} | {serial:.2f} s | {fastest(one)} | {fastest(many)} | "
          f"{ratio(one, suite)} | {ratio(many, suite)} |")
PY

# The source the build was made from, and its commit where it is a git checkout.
built_from="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")"
commit="$(git -C "$built_from" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")"
dirty=""
if git -C "$built_from" rev-parse 2>/dev/null && ! git -C "$built_from" diff --quiet HEAD; then
  dirty=", with uncommitted changes"
fi
{
  echo "# CTest overhead: ${host%%.*}"
  echo
  echo "Made by \`ci/ctest-speed.sh\` on $(date -u +%Y-%m-%d) from the build of ${built_from}"
  echo "(commit ${commit}${dirty})${LABEL:+, ${LABEL}}; CMake ${cmake_version} (ctest: ${ctest_program}), $(nproc) cores,"
  echo "POCL_DEVICES='${POCL_DEVICES:-}'. $repeat rounds, each of which runs every measurement once;"
  echo "the times are the fastest of the rounds, the ratios the median of the ratios within a round"
  echo "(every run is in runs.tsv). Devices: devices.txt."
  echo
  cat "$out/table.md"
  echo
  echo "Where a test process's start goes (startup.txt, startup.json):"
  echo
  echo '```'
  cat "$out/startup.txt"
  echo '```'
} >"$out/README.md"
echo
cat "$out/table.md"
echo
echo "results in $out"

# In quick mode a run that failed fails the script: a check that the measurements still run.
if ((quick)); then
  failed="$(awk -F'\t' 'NR > 1 && $4 != 0 { print "  " $1 " (round " $2 ": status " $4 ")" }' \
    "$out/runs.tsv")"
  if [[ -n "$failed" ]]; then
    echo "ci/ctest-speed.sh: these runs failed (quick mode):" >&2
    echo "$failed" >&2
    exit 1
  fi
fi
