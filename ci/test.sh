#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test through CTest on every PoCL device (and on
# every CUDA device where there is one).
set -euo pipefail
cd "$(dirname "$0")/.."
export POLYDEV_BUILD_DIR="${POLYDEV_BUILD_DIR:-build}"

bash ci/deps.sh
bash ci/check-format.sh
bash ci/build.sh
source ci/pocl-env.sh

echo "== polydev devices (POCL_DEVICES='$POCL_DEVICES')"
"$POLYDEV_BUILD_DIR/framework/polydev" devices

echo "== ctest, each device test holding its device through CTest's resource allocation"
# Absolute: `ctest --test-dir` changes into the build folder before it reads the file.
spec="$(realpath "$POLYDEV_BUILD_DIR")/polydev_resource_spec.json"
"$POLYDEV_BUILD_DIR/framework/polydev" resource-spec --output "$spec"
ctest --test-dir "$POLYDEV_BUILD_DIR" --output-on-failure --no-tests=error \
  --parallel "$(nproc)" --timeout 300 --resource-spec-file "$spec"
bash ci/consumers.sh "$POLYDEV_BUILD_DIR"

echo "== the same suite under AddressSanitizer and UndefinedBehaviorSanitizer"
bash ci/sanitize.sh

echo "== the concurrent tests (pool stress, caches) under ThreadSanitizer"
bash ci/tsan.sh

echo "== the parsers' libFuzzer targets, ${POLYDEV_FUZZ_SECONDS:-12}s each" && bash ci/fuzz.sh

echo "== a build without the OpenCL and CUDA backends: their suites skip with the reason"
POLYDEV_BUILD_DIR=build-nobackend bash ci/build.sh -DPOLYDEV_WITH_OPENCL=OFF -DPOLYDEV_WITH_CUDA=OFF \
  >/dev/null
ctest --test-dir build-nobackend --output-on-failure --no-tests=error --parallel "$(nproc)"
