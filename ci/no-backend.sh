#!/usr/bin/env bash
# Builds polydev without its OpenCL and CUDA backends (in build-nobackend, or
# POLYDEV_NOBACKEND_BUILD_DIR) and runs the whole suite through CTest: the backends' suites skip
# with the reason, and every binary still loads and runs.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${POLYDEV_NOBACKEND_BUILD_DIR:-build-nobackend}"
POLYDEV_BUILD_DIR="$build_dir" bash ci/build.sh -DPOLYDEV_WITH_OPENCL=OFF -DPOLYDEV_WITH_CUDA=OFF \
  >/dev/null
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error --parallel "$(nproc)"
