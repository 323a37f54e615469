# shellcheck shell=bash
# Sourced, from the repository root, by the scripts that test polydev as a downstream project
# gets it (ci/consumers.sh, ci/doc-snippets.sh): a scratch folder $work, removed on exit; PoCL's
# devices, which every test must run on; `fail` and `logged`, which name the script; and
# `install_polydev`, which puts polydev into $prefix.

ci_name="ci/$(basename "$0")"
work="$(mktemp -d "${TMPDIR:-/tmp}/polydev-$(basename "$0" .sh).XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh
export POCL_CACHE_DIR="$work/pocl-cache"
export POLYDEV_REQUIRE_DEVICES=opencl

fail() {
  echo "$ci_name: $*" >&2
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

# install_polydev BUILD_DIR: installs polydev into $prefix from a built polydev build folder, or,
# with BUILD_DIR empty, from $work/polydev, where it builds polydev first (tests off, which is
# quicker). Sets polydev_build to the folder it installed from.
install_polydev() {
  polydev_build=$1
  if [[ -n "$polydev_build" ]]; then
    [[ -f "$polydev_build/polydevConfig.cmake" ]] ||
      fail "$polydev_build is no polydev build folder (build it first)"
    echo "== install polydev from $polydev_build"
  else
    echo "== build polydev (tests off) and install it"
    polydev_build="$work/polydev"
    logged "$work/configure.log" cmake -S . -B "$polydev_build" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOLYDEV_WERROR=ON -DPOLYDEV_BUILD_TESTS=OFF
    logged "$work/build.log" cmake --build "$polydev_build" --parallel "$(nproc)"
  fi
  logged "$work/install.log" cmake --install "$polydev_build" --prefix "$prefix"
}
