#!/usr/bin/env bash
# Installs what polydev needs from Debian's packages, when something is missing. On machines
# without a package registry (the GPU machines) it only checks that the build's tools are there:
# the checking tools (clang-format, shellcheck, clang for the fuzzers and ci/toolchains.sh,
# python3-venv for the latter's CMake 4) are not required there, and the stages that use them
# (ci/check-format.sh, ci/fuzz.sh, ci/toolchains.sh) fail on their own when they are missing.
# python3-pyopencl and python3-pytest are the peers of the benchmark scripts (ci/benchmarks.sh);
# slurmctld, slurmd, slurm-client and munge the one-node cluster of ci/slurm.sh.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 python3-venv clang-format shellcheck clang libclang-rt-14-dev
  googletest libgtest-dev libbenchmark-dev libyaml-cpp-dev libtinyxml2-dev
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd clinfo
  python3-pyopencl python3-pytest slurmctld slurmd slurm-client munge
)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
  done
fi

if ((${#missing[@]} > 0)); then
  if command -v apt-get >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]] &&
    [[ -z "${POLYDEV_NO_APT:-}" ]] && timeout 60 apt-get update -qq >/dev/null 2>&1; then
    echo "ci/deps.sh: installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    # No registry (or not root): carry on if the tools themselves are present, e.g. a CMake from pip.
    echo "ci/deps.sh: cannot install ${missing[*]} here; checking that the tools exist"
  fi
fi

for tool in cmake ninja c++ clinfo python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "ci/deps.sh: '$tool' is missing" >&2; exit 1; }
done
for header in /usr/include/CL/opencl.hpp /usr/include/gtest/gtest.h; do
  [[ -f "$header" ]] || { echo "ci/deps.sh: $header is missing" >&2; exit 1; }
done
