#!/usr/bin/env bash
# polydev as a downstream project gets it: installs polydev into a temporary prefix, probes the
# package's components and version check, then configures, builds and runs through CTest the
# consumer projects of tests/consumer: on the installed package and on the build tree
# (find_package), and on polydev's source through add_subdirectory and FetchContent. Each must pass
# its device test on every selected OpenCL device (and on every CUDA device, where there is one); a
# skipped instance fails.
#
#   ci/consumers.sh [BUILD_DIR]   install from a built polydev build folder (default:
#                                 POLYDEV_BUILD_DIR, which ci/test.sh sets); without one, polydev
#                                 is built first, tests off
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-${POLYDEV_BUILD_DIR:-}}"

work="$(mktemp -d "${TMPDIR:-/tmp}/polydev-consumers.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
export POCL_CACHE_DIR="$work/pocl-cache"
export POLYDEV_REQUIRE_DEVICES=opencl
# Consumers compile polydev's public headers with strict warnings of their own.
consumer_options=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wpedantic -Werror")

fail() {
  echo "ci/consumers.sh: $*" >&2
  exit 1
}

# logged LOG COMMAND...: runs COMMAND with its output in LOG, shown only when it fails.
logged() {
  local log=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "failed: $*"
  fi
}

if [[ -n "$build" ]]; then
  [[ -f "$build/polydevConfig.cmake" ]] || fail "$build is no polydev build folder (build it first)"
  echo "== install polydev from $build"
else
  echo "== build polydev (tests off) and install it"
  build="$work/polydev"
  logged "$work/configure.log" cmake -S . -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOLYDEV_WERROR=ON -DPOLYDEV_BUILD_TESTS=OFF
  logged "$work/build.log" cmake --build "$build" --parallel "$(nproc)"
fi
logged "$work/install.log" cmake --install "$build" --prefix "$prefix"

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
# prefix; it must end as EXPECTED with PATTERN in its output.
probe() {
  local expected=$1 pattern=$2 outcome=ok
  shift 2
  rm -rf "$work/probe"
  cmake -S tests/consumer/package_probe -B "$work/probe" "-DCMAKE_PREFIX_PATH=$prefix" "$@" \
    >"$work/probe.log" 2>&1 || outcome=fail
  if [[ "$outcome" != "$expected" ]] || ! grep -qF -- "$pattern" "$work/probe.log"; then
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

# ran_on LOG SUITE KEY...: LOG (ctest's output) has a passed instance of SUITE on every KEY and no
# skipped or unrun instance of it.
ran_on() {
  local log=$1 suite=$2 key
  shift 2
  for key in "$@"; do
    grep -Eq " ${suite}\.[A-Za-z0-9_]+/${key} \.+ +Passed" "$log" ||
      fail "$log: no passed ${suite} test on device ${key}"
  done
  if grep -E " ${suite}\..*(Skipped|Not Run)" "$log"; then
    fail "$log: ${suite} instances did not run"
  fi
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

# consumer NAME SOURCE OPTION...: configures, builds and runs one consumer project in parallel;
# where its tests ask for devices (it has polydev_discover_device_tests' spec fixture), on the
# resource spec of the installed tool, as docs/ctest.md says to run them with CMake before 3.28.
consumer() {
  local name=$1 source=$2
  shift 2
  local dir="$work/$name"
  local spec=()
  echo "== consumer: $name"
  logged "$dir.configure.log" cmake -S "$source" -B "$dir" "${consumer_options[@]}" "$@"
  logged "$dir.build.log" cmake --build "$dir" --parallel "$(nproc)"
  if ctest --test-dir "$dir" -N -R '^polydev_resource_spec$' | grep -q 'Total Tests: 1'; then
    "$prefix/bin/polydev" resource-spec --output "$dir.spec.json"
    spec=(--resource-spec-file "$dir.spec.json")
  fi
  ctest --test-dir "$dir" --output-on-failure --no-tests=error --timeout 300 \
    --parallel "$(nproc)" "${spec[@]}" | tee "$dir.ctest.log"
  ran_on "$dir.ctest.log" OpenCL/ConsumerOpenCL "${opencl_keys[@]}"
  if ((${#cuda_keys[@]} > 0)); then
    ran_on "$dir.ctest.log" CUDA/ConsumerCuda "${cuda_keys[@]}"
  fi
}

consumer find_package tests/consumer/find_package "-DCMAKE_PREFIX_PATH=$prefix"
allocates_devices "$work/find_package"
# The same project on the build folder's own package (export()), nothing installed.
consumer build_tree tests/consumer/find_package "-Dpolydev_DIR=$(realpath "$build")"
consumer add_subdirectory tests/consumer/add_subdirectory -DPOLYDEV_CONSUMER_VIA=add_subdirectory
consumer FetchContent tests/consumer/add_subdirectory -DPOLYDEV_CONSUMER_VIA=FetchContent \
  -DPOLYDEV_BUILD_TOOLS=ON
allocates_devices "$work/FetchContent"
echo "ci/consumers.sh: the installed package, build tree, add_subdirectory and FetchContent" \
  "consumers passed"
