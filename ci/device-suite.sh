#!/usr/bin/env bash
# Shows the devices, then runs every test of the build through CTest on every PoCL device (and on
# every CUDA device where there is one), each device test holding its device through CTest's
# resource allocation. Builds first when POLYDEV_BUILD_DIR (default build) has no build yet.
set -euo pipefail
cd "$(dirname "$0")/.."
export POLYDEV_BUILD_DIR="${POLYDEV_BUILD_DIR:-build}"
tool="$POLYDEV_BUILD_DIR/framework/polydev"
[[ -x "$tool" ]] || bash ci/build.sh
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh

echo "== polydev devices (POCL_DEVICES='$POCL_DEVICES')"
"$tool" devices

echo "== ctest, each device test holding its device through CTest's resource allocation"
# shellcheck source=ci/resource-spec-option.sh
source ci/resource-spec-option.sh
# Absolute: `ctest --test-dir` changes into the build folder before it reads the file.
resource_spec_option "$tool" "$(realpath "$POLYDEV_BUILD_DIR")/polydev_resource_spec.json"
ctest --test-dir "$POLYDEV_BUILD_DIR" --output-on-failure --no-tests=error \
  --parallel "$(nproc)" --timeout 300 "${spec_option[@]}"
