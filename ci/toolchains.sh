#!/usr/bin/env bash
# The far end of the supported toolchains (README.md, "Requirements"). The other stages build and
# test with Debian 12's CMake 3.25 and GCC 12, consumers compiled as C++17; this one takes the
# newest CMake 4 (PyPI's `cmake`, in a private virtual environment), Debian 12's Clang 14 and C++20
# together, and builds only what that needs, not the whole suite again:
#
#   1. CMake 4: a venv with the newest cmake 4.x from PyPI, made when missing and reused after
#      (POLYDEV_CMAKE4_VENV, default ~/.cache/polydev/cmake4-venv; remove it to get a newer one),
#      or POLYDEV_CMAKE4=<a cmake 4 binary>, whose ctest is the one beside it.
#   2. polydev configured by CMake 4 with Clang, warnings as errors (nvcc, where there is one, with
#      Clang as its host compiler): the libraries, the tool and the CTest-integration tests built
#      (tests/ctest_entries, polydev_ctest_entry_tests) and run by CMake 4's ctest; polydev's CUDA
#      kernels compiled, not linked (they need a GPU to run).
#   3. ci/consumers.sh with CMake 4, Clang and C++20 on that build: every consumer project against
#      the installed package and the build tree, and polydev's own sources compiled as C++20 through
#      add_subdirectory and FetchContent.
#
#   ci/toolchains.sh   alone or as a stage of ci/test.sh; its build folder is
#                      POLYDEV_TOOLCHAINS_BUILD_DIR (default build-toolchains)
#
# POLYDEV_TOOLCHAINS_CXX (default clang++) and POLYDEV_TOOLCHAINS_CXX_STANDARD (default 20) choose
# another compiler and consumer standard, e.g. g++ and 17 for CMake 4 alone.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${POLYDEV_TOOLCHAINS_BUILD_DIR:-build-toolchains}"
cxx="${POLYDEV_TOOLCHAINS_CXX:-clang++}"
standard="${POLYDEV_TOOLCHAINS_CXX_STANDARD:-20}"
venv="${POLYDEV_CMAKE4_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/polydev/cmake4-venv}"

fail() {
  echo "ci/toolchains.sh: $*" >&2
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
part_start=$SECONDS
# part N TEXT: starts part N, saying what it proves.
part() {
  local number=$1
  shift
  echo "== part $number/3: $*"
  part_start=$SECONDS
}
part_passed() {
  echo "   part passed in $((SECONDS - part_start)) s"
}

command -v "$cxx" >/dev/null 2>&1 || fail "no C++ compiler '$cxx' (Debian: apt-get install clang)"
[[ "$standard" =~ ^[0-9]+$ ]] ||
  fail "POLYDEV_TOOLCHAINS_CXX_STANDARD is '$standard'; expected a number, e.g. 20"
mkdir -p "$build"
build="$(realpath "$build")"

part 1 "CMake 4 (the newest 4.x) in a private environment"
if [[ -n "${POLYDEV_CMAKE4:-}" ]]; then
  cmake4="$POLYDEV_CMAKE4"
else
  # The marker is written last: a venv that an interrupted run left half made is made again.
  if [[ ! -f "$venv/.polydev-complete" ]]; then
    echo "   making $venv: python3 -m venv, pip install 'cmake>=4,<5'"
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    logged "$build/venv.log" python3 -m venv "$venv"
    logged "$build/pip.log" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      --timeout 60 'cmake>=4,<5'
    touch "$venv/.polydev-complete"
  else
    echo "   reusing $venv (remove it for a newer CMake)"
  fi
  # The package's own binaries, not the Python wrappers in the venv's bin folder.
  cmake4="$("$venv/bin/python" -c \
    'import cmake, os; print(os.path.join(cmake.CMAKE_BIN_DIR, "cmake"))')"
fi
cmake4_bin="$(dirname "$(realpath "$cmake4")")"
[[ -x "$cmake4_bin/cmake" && -x "$cmake4_bin/ctest" ]] || fail "no cmake and ctest in $cmake4_bin"
cmake4_version="$("$cmake4_bin/cmake" --version | sed -n '1s/^cmake version \([0-9.]*\).*/\1/p')"
ctest4_version="$("$cmake4_bin/ctest" --version | sed -n '1s/^ctest version \([0-9.]*\).*/\1/p')"
[[ "$cmake4_version" == 4.* ]] || fail "$cmake4_bin/cmake is CMake '$cmake4_version', not 4.x"
[[ "$ctest4_version" == "$cmake4_version" ]] ||
  fail "$cmake4_bin: cmake $cmake4_version but ctest $ctest4_version"
# Every cmake and ctest from here on, including those that tests and consumers start, is CMake 4's.
export PATH="$cmake4_bin:$PATH"
echo "   cmake and ctest $cmake4_version: $cmake4_bin"
part_passed

cxx_version="$("$cxx" --version | head -1)"
part 2 "CMake $cmake4_version and $cxx_version build polydev; CMake 4's ctest runs the" \
  "CTest-integration tests"
# CUDAHOSTCXX, not -DCMAKE_CUDA_HOST_COMPILER: check_language(CUDA) overwrites that variable unless
# CMAKE_CUDA_COMPILER is given too (CMake's CheckLanguage documentation).
logged "$build/configure.log" env CUDAHOSTCXX="$cxx" cmake -S . -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOLYDEV_WERROR=ON "-DCMAKE_CXX_COMPILER=$cxx"
grep -F -- "-- polydev: " "$build/configure.log" | tail -1 | sed 's/^-- /   /'
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
compiler_id="$(sed -n 's/^set(CMAKE_CXX_COMPILER_ID "\(.*\)")$/\1/p' \
  "$build/CMakeFiles/$cmake4_version/CMakeCXXCompiler.cmake")"
echo "   C++ compiler: $(cache_value CMAKE_CXX_COMPILER) ($compiler_id)"
logged "$build/build.log" cmake --build "$build" --parallel "$(nproc)" --target polydev_framework \
  polydev_pools polydev_gtest polydev_gtest_main polydev_tool polydev_policy_probe \
  polydev_ctest_entry_tests
echo "   built the libraries, the tool, the policy probe and polydev_ctest_entry_tests"

# polydev's CUDA kernels, compiled by nvcc with this compiler as its host compiler.
mapfile -t cuda_objects < <(ninja -C "$build" -t targets all | grep -o '^[^:]*\.cu\.o' |
  sort -u)
if ((${#cuda_objects[@]} > 0)); then
  cuda_compiler="$build/CMakeFiles/$cmake4_version/CMakeCUDACompiler.cmake"
  host="$(sed -n 's/^set(CMAKE_CUDA_HOST_COMPILER_\(ID\|VERSION\) "\(.*\)")$/\2/p' \
    "$cuda_compiler" | paste -sd ' ')"
  [[ "$host" == "$compiler_id "* ]] || fail "nvcc's host compiler is $host, not $compiler_id"
  logged "$build/cuda.log" cmake --build "$build" --parallel "$(nproc)" \
    --target "${cuda_objects[@]}"
  echo "   nvcc $(cache_value CMAKE_CUDA_COMPILER) with host compiler $host: compiled" \
    "${#cuda_objects[@]} CUDA files"
else
  echo "   no CUDA compiler found: polydev's CUDA kernels not compiled"
fi

# The CTest-integration tests: the CMake checks of polydev_discover_device_tests, the tests that run
# ctest on the policy probe's entries (polydev_ctest_entry_tests), and those entries themselves.
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
export POCL_CACHE_DIR="$build/pocl-cache"
ctest --test-dir "$build" --show-only=json-v1 >"$build/tests.json" 2>"$build/tests.log" ||
  { cat "$build/tests.log" >&2; fail "ctest --show-only failed"; }
regex="$(python3 - "$build/tests.json" "$cmake4_bin/cmake" <<'PY'
import json, os, re, sys

names = []
for test in json.load(open(sys.argv[1]))["tests"]:
    command = test.get("command") or [""]
    if test["name"] == "polydev_discover_device_tests.checks":
        if os.path.realpath(command[0]) != os.path.realpath(sys.argv[2]):
            sys.exit(f"the checks run {command[0]}, not {sys.argv[2]}")
    elif os.path.basename(command[0]) not in ("polydev_ctest_entry_tests", "polydev_policy_probe"):
        continue
    names.append(re.sub(r"([][.*+?^$()|\\])", r"\\\1", test["name"]))
if "polydev_discover_device_tests.checks" not in [name.replace("\\", "") for name in names] or \
        len(names) < 20:
    sys.exit(f"only {len(names)} CTest-integration tests found")
print("^(" + "|".join(names) + ")$")
PY
)" || fail "$build: the CTest-integration tests are not all there"
logged "$build/ctest.log" ctest --test-dir "$build" --output-on-failure --no-tests=error \
  --parallel "$(nproc)" --timeout 600 -R "$regex"
echo "   ctest $ctest4_version: $(grep -E '^[0-9]+% tests passed' "$build/ctest.log")" \
  "(the device entries of the probe, the stale-list and entry tests, the helper's CMake checks)"
part_passed

part 3 "ci/consumers.sh with CMake $cmake4_version, $cxx and C++$standard on that build"
CONSUMER_CMAKE="$cmake4_bin/cmake" CONSUMER_CXX_COMPILER="$cxx" CONSUMER_CXX_STANDARD="$standard" \
  bash ci/consumers.sh "$build"
part_passed

echo "ci/toolchains.sh: CMake $cmake4_version, $cxx_version and C++$standard consumers passed" \
  "(CMake 3.25, GCC and C++17: the other stages)"
