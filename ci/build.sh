#!/usr/bin/env bash
# Configures and builds polydev with warnings as errors. POLYDEV_BUILD_DIR picks the build folder;
# POLYDEV_BUILD_TARGETS (separated by spaces or newlines) builds only those targets instead of
# everything.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${POLYDEV_BUILD_DIR:-build}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" \
  -DPOLYDEV_WERROR=ON "$@"
# -d '': a list that goes on over several lines is read whole, not up to its first newline.
read -r -d '' -a targets <<<"${POLYDEV_BUILD_TARGETS:-}" || true
cmake --build "$build_dir" --parallel "$(nproc)" ${targets[@]+--target "${targets[@]}"}
