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

# A plain ctest: polydev_discover_device_tests makes CTest write and read the resource spec.
echo "== ctest, each device test holding its device through CTest's resource allocation"
ctest --test-dir "$POLYDEV_BUILD_DIR" --output-on-failure --no-tests=error \
  --parallel "$(nproc)" --timeout 300

# The entries of devices and device sets that this ctest ran at overlapping times held disjoint
# devices. (The folders of tests/ctest_entries hold the entries of ctest runs of their own.)
echo "== no two entries held one device at once"
python3 ci/lib/check_device_overlap.py "$POLYDEV_BUILD_DIR/tests/polydev_results"
