#!/usr/bin/env bash
# polydev as a downstream project gets it: installs polydev into a temporary prefix, probes the
# package's components, its CUDA runtime and version check, then configures, builds and runs
# through CTest the consumer projects of tests/consumer: on the installed package and on the build
# tree (find_package), on polydev's source through add_subdirectory and FetchContent, on the
# installed package where no CUDA toolkit can be found, and with a GoogleTest of the project's own.
# Each must pass its device test on every selected OpenCL device (and on every CUDA device, where
# there is one); a skipped instance fails.
#
#   ci/consumers.sh [BUILD_DIR]   install from a built polydev build folder (default:
#                                 POLYDEV_BUILD_DIR, which ci/test.sh sets); without one, polydev
#                                 is built first, tests off
#
# The toolchain of the consumers (ci/toolchains.sh sets these; unset, CMake's defaults):
#   CONSUMER_CMAKE          the cmake that installs polydev and configures the projects; the ctest
#                           beside it runs their tests (default: cmake and ctest from PATH)
#   CONSUMER_CXX_COMPILER   their C++ compiler (CMAKE_CXX_COMPILER), e.g. clang++
#   CONSUMER_CXX_STANDARD   their C++ standard (CMAKE_CXX_STANDARD), e.g. 20; add_subdirectory and
#                           FetchContent compile polydev's sources with it too
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-${POLYDEV_BUILD_DIR:-}}"

# shellcheck source=ci/lib/installed-package.sh
source ci/lib/installed-package.sh
if [[ -n "${CONSUMER_CMAKE:-}" ]]; then
  cmake_bin="$(dirname "$(realpath "$CONSUMER_CMAKE")")"
  [[ -x "$cmake_bin/cmake" && -x "$cmake_bin/ctest" ]] ||
    fail "CONSUMER_CMAKE=$CONSUMER_CMAKE: no cmake and ctest in $cmake_bin"
  export PATH="$cmake_bin:$PATH"
fi
toolchain_options=()
if [[ -n "${CONSUMER_CXX_COMPILER:-}" ]]; then
  toolchain_options+=("-DCMAKE_CXX_COMPILER=$CONSUMER_CXX_COMPILER")
fi
if [[ -n "${CONSUMER_CXX_STANDARD:-}" ]]; then
  [[ "$CONSUMER_CXX_STANDARD" =~ ^[0-9]+$ ]] ||
    fail "CONSUMER_CXX_STANDARD is '$CONSUMER_CXX_STANDARD'; expected a number, e.g. 17 or 20"
  toolchain_options+=("-DCMAKE_CXX_STANDARD=$CONSUMER_CXX_STANDARD"
    -DCMAKE_CXX_STANDARD_REQUIRED=ON)
fi
# Consumers compile polydev's public headers with strict warnings of their own.
consumer_options=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wpedantic -Werror"
  ${toolchain_options[@]+"${toolchain_options[@]}"})
cmake_version="$(cmake --version | sed -n '1s/^cmake version \([0-9.]*\).*/\1/p')"
ctest_version="$(ctest --version | sed -n '1s/^ctest version \([0-9.]*\).*/\1/p')"
[[ "$cmake_version" == "$ctest_version" ]] ||
  fail "cmake $cmake_version ($(command -v cmake)) and ctest $ctest_version differ"
echo "   CMake $cmake_version ($(command -v cmake)), C++ compiler" \
  "${CONSUMER_CXX_COMPILER:-(CMake default)}," \
  "C++ standard ${CONSUMER_CXX_STANDARD:-(default, 17 or later)}"

install_polydev "$build"

# The devices the tests must run on, by key, from the installed tool.
"$prefix/bin/polydev" devices --json >"$work/devices.json"
keys() {
  python3 -c '
import json, sys
backend = json.load(open(sys.argv[1]))[sys.argv[2]]
if backend["available"]:
    if sys.argv[2] == "opencl":
        for platform, device in backend["selected"]:
            platform = next(p for p in backend["platforms"] if p["index"] == platform)
            print(next(d for d in platform["devices"] if d["index"] == device)["key"])
    else:
        for ordinal in backend["selected"]:
            print(next(d for d in backend["devices"] if d["ordinal"] == ordinal)["key"])
' "$work/devices.json" "$1"
}
mapfile -t opencl_keys < <(keys opencl)
mapfile -t cuda_keys < <(keys cuda)
((${#opencl_keys[@]} > 0)) || fail "no OpenCL device is selected; the consumers must run on PoCL"
echo "   OpenCL devices: ${opencl_keys[*]}"
echo "   CUDA devices: ${cuda_keys[*]:-none}"

# probe EXPECTED(ok|fail) PATTERN OPTION...: configures tests/consumer/package_probe against the
# prefix; it must end as EXPECTED with PATTERN in its output (where CMake's line breaks and
# indentation count as one space).
probe() {
  local expected=$1 pattern=$2 outcome=ok
  shift 2
  rm -rf "$work/probe"
  cmake -S tests/consumer/package_probe -B "$work/probe" "-DCMAKE_PREFIX_PATH=$prefix" \
    ${toolchain_options[@]+"${toolchain_options[@]}"} "$@" >"$work/probe.log" 2>&1 || outcome=fail
  if [[ "$outcome" != "$expected" ]] || ! tr -s ' \n' '  ' <"$work/probe.log" | grep -qF -- "$pattern"; then
    cat "$work/probe.log" >&2
    fail "package probe $*: expected $expected with '$pattern', got $outcome"
  fi
  echo "   ${*:-no options}: $outcome, '$pattern'"
}

echo "== package probes"
probe ok "targets polydev::framework;polydev::pools;polydev::gtest;polydev::gtest_main;polydev::tool"
probe ok "targets polydev::framework;polydev::tool" -DPROBE_COMPONENTS=framework \
  -DPROBE_HIDE_GTEST=ON
probe fail "Could NOT find GTest" -DPROBE_COMPONENTS=gtest -DPROBE_HIDE_GTEST=ON
probe ok "gtest component found 'FALSE'" -DPROBE_COMPONENTS=pools \
  -DPROBE_OPTIONAL_COMPONENTS=gtest -DPROBE_HIDE_GTEST=ON
probe fail "polydev has no component 'nosuch'" "-DPROBE_COMPONENTS=framework;nosuch"
probe ok "targets polydev::framework;polydev::tool" "-DPROBE_COMPONENTS=framework" \
  "-DPROBE_OPTIONAL_COMPONENTS=nosuch"
probe ok "polydev_HAS_OPENCL 'ON'" -DPROBE_VERSION=0.1
probe fail 'compatible with requested version "1.0"' -DPROBE_VERSION=1.0

# The CUDA runtime that polydev links: the project's toolkit's where it uses CUDA (component
# `cuda`, or a toolkit found before polydev), else the copy installed with polydev.
config="$(find "$prefix" -name polydevConfig.cmake)"
cuda_version="$(sed -n 's/^set(polydev_CUDA_VERSION "\(.*\)")$/\1/p' "$config")"
no_toolkit=-DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON
if [[ -n "$cuda_version" ]]; then
  echo "== package probes: polydev built with CUDA $cuda_version"
  probe ok "CUDA runtime '$prefix/lib/polydev/libcudart_static.a'" -DPROBE_COMPONENTS=pools \
    "$no_toolkit"
  probe ok "cuda component found 'FALSE'" -DPROBE_COMPONENTS=pools \
    -DPROBE_OPTIONAL_COMPONENTS=cuda "$no_toolkit"
  probe fail "CMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit is enabled" "-DPROBE_COMPONENTS=pools;cuda" \
    "$no_toolkit"
  probe ok "CUDA runtime 'CUDA::cudart_static'" "-DPROBE_COMPONENTS=pools;cuda"
  probe ok "CUDA runtime 'CUDA::cudart_static'" -DPROBE_COMPONENTS=pools \
    "-DPROBE_TOOLKIT_VERSION=$cuda_version"
  probe fail "the CUDA toolkit found (12.0, /probe/cuda-12.0/bin)" -DPROBE_COMPONENTS=pools \
    -DPROBE_TOOLKIT_VERSION=12.0
  probe fail "the CUDA toolkit found (99.0, /probe/cuda-99.0/bin)" -DPROBE_COMPONENTS=pools \
    -DPROBE_TOOLKIT_VERSION=99.0
else
  echo "== package probes: polydev built without CUDA"
  probe fail "polydev has no component 'cuda': it was built without its CUDA backend" \
    -DPROBE_COMPONENTS=cuda
  probe ok "cuda component found 'FALSE'" -DPROBE_COMPONENTS=pools -DPROBE_OPTIONAL_COMPONENTS=cuda
fi

# ran_on DIR SUITE KEY...: the project in DIR ran SUITE on every KEY, every instance passed (none
# skipped), as the GoogleTest report of each device's CTest entry says
# (polydev_discover_device_tests: DIR/polydev_results/consumer_tests/<key>.xml).
ran_on() {
  local dir=$1
  shift
  python3 - "$dir/polydev_results/consumer_tests" "$@" <<'PY' || fail "$dir: $1 did not pass on every device"
import os, sys
import xml.etree.ElementTree as ElementTree

folder, suite, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
for key in keys:
    path = os.path.join(folder, key + ".xml")
    if not os.path.isfile(path):
        sys.exit(f"{path}: no GoogleTest report of device {key}")
    cases = [case for case in ElementTree.parse(path).iter("testcase")
             if case.get("classname") == suite and case.get("name", "").endswith("/" + key)]
    if not cases:
        sys.exit(f"{path}: no {suite} test ran on device {key}")
    for case in cases:
        if case.find("failure") is not None or case.find("skipped") is not None or \
                case.get("result") != "completed":
            sys.exit(f"{path}: {suite}.{case.get('name')} did not pass")
    print(f"   {suite}: {len(cases)} passed on {key}")
PY
}

# allocates_devices DIR: every device instance of the project in DIR asks CTest for its own device
# (polydev_discover_device_tests, from the package's PolydevDeviceTests.cmake).
allocates_devices() {
  ctest --test-dir "$1" --show-only=json-v1 >"$1.tests.json"
  python3 -c '
import json, re, sys
checked = 0
for test in json.load(open(sys.argv[1]))["tests"]:
    key = re.search(r"/((opencl|cuda)_[a-z0-9_]+)$", test["name"])
    if not key:
        continue
    properties = {p["name"]: p["value"] for p in test.get("properties", [])}
    wanted = [{"requirements": [{".type": key.group(1), "slots": 1}]}]
    groups = properties.get("RESOURCE_GROUPS")
    if groups != wanted:
        sys.exit("%s: RESOURCE_GROUPS %s, expected %s" % (test["name"], groups, wanted))
    checked += 1
if checked == 0:
    sys.exit("no device test instance found")
print("   %d device test instances ask CTest for their own device" % checked)
' "$1.tests.json" || fail "$1: device tests without their CTest resource"
}

# compiled_with DIR: the project in DIR was compiled by CONSUMER_CXX_COMPILER as
# CONSUMER_CXX_STANDARD, where they are set.
compiled_with() {
  local cache=$1/CMakeCache.txt
  local compiler
  compiler="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")"
  if [[ -n "${CONSUMER_CXX_COMPILER:-}" && "$(basename "$compiler")" != \
    "$(basename "$CONSUMER_CXX_COMPILER")" ]]; then
    fail "$1: configured with the C++ compiler $compiler, not $CONSUMER_CXX_COMPILER"
  fi
  if [[ -n "${CONSUMER_CXX_STANDARD:-}" ]] &&
    ! grep -qE -- "-std=(c|gnu)\+\+$CONSUMER_CXX_STANDARD( |\$)" "$1/build.ninja"; then
    fail "$1: no translation unit was compiled as C++$CONSUMER_CXX_STANDARD"
  fi
}

# consumer NAME SOURCE OPTION...: configures, builds and runs one consumer project in parallel
# with a plain ctest, which allocates the devices to the tests that ask for them, as docs/ctest.md
# says.
consumer() {
  local name=$1 source=$2
  shift 2
  local dir="$work/$name"
  echo "== consumer: $name"
  logged "$dir.configure.log" cmake -S "$source" -B "$dir" "${consumer_options[@]}" "$@"
  logged "$dir.build.log" cmake --build "$dir" --parallel "$(nproc)"
  compiled_with "$dir"
  ctest --test-dir "$dir" --output-on-failure --no-tests=error --timeout 300 \
    --parallel "$(nproc)" | tee "$dir.ctest.log"
  ran_on "$dir" OpenCL/ConsumerOpenCL "${opencl_keys[@]}"
  if ((${#cuda_keys[@]} > 0)); then
    ran_on "$dir" CUDA/ConsumerCuda "${cuda_keys[@]}"
  fi
}

consumer find_package tests/consumer/find_package "-DCMAKE_PREFIX_PATH=$prefix"
allocates_devices "$work/find_package"
# The same project on the build folder's own package (export()), nothing installed.
consumer build_tree tests/consumer/find_package "-Dpolydev_DIR=$(realpath "$polydev_build")"
# polydev's source: its tool is built for the test binary that polydev_discover_device_tests
# registers, which then asks CTest for its device.
consumer add_subdirectory tests/consumer/add_subdirectory -DPOLYDEV_CONSUMER_VIA=add_subdirectory
allocates_devices "$work/add_subdirectory"
consumer FetchContent tests/consumer/add_subdirectory -DPOLYDEV_CONSUMER_VIA=FetchContent
allocates_devices "$work/FetchContent"

# Without the tool the entries keep their resources (CTest writes the spec from the entries); only
# the selection check at CTest's start is left out (configure only).
echo "== consumer: add_subdirectory with POLYDEV_BUILD_TOOLS=OFF (configure)"
logged "$work/no_tool.configure.log" cmake -S tests/consumer/add_subdirectory -B "$work/no_tool" \
  "${consumer_options[@]}" -DPOLYDEV_CONSUMER_VIA=add_subdirectory -DPOLYDEV_BUILD_TOOLS=OFF
! grep -q "CMake Warning" "$work/no_tool.configure.log" ||
  fail "$work/no_tool.configure.log: a warning when configuring without the tool"
[[ ! -e "$work/no_tool/polydev_selection_check.cmake" ]] ||
  fail "$work/no_tool: a selection check that runs a tool that is not built"
echo "   configures without a warning, and without the selection check"

# A project without CUDA code where no CUDA toolkit can be found: PATH without nvcc,
# CUDAToolkit_ROOT naming nothing, and any find_package(CUDAToolkit) refused.
toolkit_roots=(/usr/local/cuda)
if command -v nvcc >/dev/null 2>&1; then
  nvcc_root="$(dirname "$(dirname "$(command -v nvcc)")")"
  toolkit_roots+=("$nvcc_root" "$(realpath "$nvcc_root")")
fi
mapfile -t toolkit_roots < <(printf '%s\n' "${toolkit_roots[@]}" | sort -u)
path_without_nvcc=""
IFS=: read -ra path_entries <<<"$PATH"
for entry in "${path_entries[@]}"; do
  [[ -x "$entry/nvcc" ]] || path_without_nvcc+="${path_without_nvcc:+:}$entry"
done
(
  export PATH="$path_without_nvcc" CUDAToolkit_ROOT="$work/no-cuda-toolkit"
  unset CUDA_PATH CUDACXX
  ! command -v nvcc >/dev/null 2>&1 || fail "nvcc is still on PATH"
  consumer without_cuda_toolkit tests/consumer/without_cuda_toolkit "-DCMAKE_PREFIX_PATH=$prefix" \
    "$no_toolkit"
)
for root in "${toolkit_roots[@]}"; do
  if grep -qF "$root" "$work/without_cuda_toolkit/build.ninja"; then
    fail "the project without a CUDA toolkit builds with $root: $(grep -oF -m1 "$root" \
      "$work/without_cuda_toolkit/build.ninja")"
  fi
done
if [[ -n "$cuda_version" ]]; then
  grep -qF "$prefix/lib/polydev/libcudart_static.a" "$work/without_cuda_toolkit/build.ninja" ||
    fail "the project without a CUDA toolkit does not link polydev's CUDA runtime"
  echo "   links $prefix/lib/polydev/libcudart_static.a, nothing of ${toolkit_roots[*]}"
fi

# A project that builds GoogleTest itself (FetchContent of its source) before it asks polydev for
# the gtest component; any installed GoogleTest package is refused, so polydev must take the
# project's targets.
googletest_source="${CONSUMER_GOOGLETEST_SOURCE_DIR:-/usr/src/googletest}"
[[ -f "$googletest_source/CMakeLists.txt" ]] ||
  fail "no GoogleTest source at $googletest_source (Debian: the googletest package), or set CONSUMER_GOOGLETEST_SOURCE_DIR"
consumer own_googletest tests/consumer/own_googletest "-DCMAKE_PREFIX_PATH=$prefix" \
  "-DCONSUMER_GOOGLETEST_SOURCE_DIR=$googletest_source" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON
if grep -Eo "[^ ]*/libgtest[^ /]*\.(a|so)" "$work/own_googletest/build.ninja" | grep -q '^/'; then
  fail "the project with its own GoogleTest links an installed one: $(grep -Eo \
    "/[^ ]*/libgtest[^ /]*\.(a|so)" "$work/own_googletest/build.ninja" | head -1)"
fi
echo "   links the GoogleTest it built, no installed one"

# A project whose device tests misbehave: no misbehaviour makes a CTest entry pass or skip, in
# either granularity, nor the report of what the entries wrote (their XML alone, and with CTest's
# JUnit file). The runs keep the reports of the run before, as a CI machine's folder would.
echo "== consumer: verdicts of misbehaving tests (CTest and polydev report)"
verdicts="$work/verdicts"
logged "$verdicts.configure.log" cmake -S tests/consumer/verdicts -B "$verdicts" \
  "${consumer_options[@]}" "-DCMAKE_PREFIX_PATH=$prefix"
logged "$verdicts.build.log" cmake --build "$verdicts" --parallel "$(nproc)"
compiled_with "$verdicts"
printf 'version: 1\nexpectations:\n  - test: "Verdicts.Works"\n    xfail: "fails here"\n' \
  >"$verdicts.xfail.yaml"
# misbehaves WHAT EXPECTED REPORT_STATUS [VARIABLE=VALUE...]: the entries run with the tests
# misbehaving as WHAT; EXPECTED is what CTest must say of them (pass; skip; works: the entries that
# run Verdicts.Works fail, the others pass; all: every entry fails); REPORT_STATUS is the status of
# `polydev report` on the entries' XML, and on CTest's JUnit file beside it.
misbehaves() {
  local what=$1 expected=$2 report_status=$3 status=0
  shift 3
  env POLYDEV_CONSUMER_MISBEHAVIOUR="$what" "$@" ctest --test-dir "$verdicts" -R ':' \
    --output-junit "$verdicts.junit.xml" --timeout 120 --parallel "$(nproc)" \
    >"$verdicts.$what.log" 2>&1 || true
  python3 - "$verdicts.junit.xml" "$expected" <<'PY' || { cat "$verdicts.$what.log" >&2; fail "misbehaviour '$what': CTest's verdicts are wrong"; }
import sys
import xml.etree.ElementTree as ElementTree

# (The entries' names hold their granularity and a ':', which no other test's name holds.)
cases = [case for case in ElementTree.parse(sys.argv[1]).iter("testcase") if ":" in case.get("name")]
expected = sys.argv[2]
if len(cases) < 4:
    sys.exit(f"only {len(cases)} entries ran")
for case in cases:
    name, status = case.get("name"), case.get("status")
    runs_works = name.startswith("device:") or ".Works/" in name
    wanted = {"pass": "run", "skip": "notrun", "all": "fail"}.get(expected)
    if expected == "works":
        wanted = "fail" if runs_works else "run"
    if status != wanted:
        sys.exit(f"{name}: CTest says {status}, expected {wanted}")
print(f"   {len(cases)} entries as expected ({expected})")
PY
  for inputs in "$verdicts/results" "$verdicts.junit.xml $verdicts/results"; do
    # shellcheck disable=SC2086 # two inputs in the second case
    "$prefix/bin/polydev" report $inputs >"$verdicts.$what.report" 2>&1 || status=$?
    if ((status != report_status)); then
      cat "$verdicts.$what.report" >&2
      fail "misbehaviour '$what': polydev report $inputs exited $status, expected $report_status"
    fi
    status=0
  done
  echo "   '$what': polydev report exits $report_status"
}
misbehaves "" pass 0
misbehaves exit works 1 # after a run that passed: its reports are still there
misbehaves print_markers works 1
misbehaves suite_setup all 1
misbehaves suite_teardown all 1
misbehaves xfail_and_thread works 1 "POLYDEV_CONFIG=$verdicts.xfail.yaml"
misbehaves xfail_and_teardown works 1 "POLYDEV_CONFIG=$verdicts.xfail.yaml"
misbehaves "" all 1 GTEST_REPEAT=0
misbehaves skip skip 0

echo "ci/consumers.sh: the installed package, build tree, add_subdirectory, FetchContent, no CUDA" \
  "toolkit, own GoogleTest and verdicts consumers passed"
