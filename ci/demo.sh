#!/usr/bin/env bash
# Installs what is missing, builds, shows the devices, runs the example device suites on every
# selected device and prints a table test x device.
set -euo pipefail
cd "$(dirname "$0")/.."
export POLYDEV_BUILD_DIR="${POLYDEV_BUILD_DIR:-build}"

bash ci/deps.sh
bash ci/build.sh >/dev/null
# shellcheck source=ci/pocl-env.sh
source ci/pocl-env.sh

echo "== polydev devices"
"$POLYDEV_BUILD_DIR/framework/polydev" devices

results="$POLYDEV_BUILD_DIR/demo-results"
rm -rf "$results" && mkdir -p "$results"
status=0
for suite in polydev_opencl_tests polydev_cuda_tests; do
  binary="$POLYDEV_BUILD_DIR/tests/$suite"
  [[ -x "$binary" ]] || continue
  echo "== $suite"
  "$binary" --gtest_brief=1 --gtest_output="xml:$results/$suite.xml" || status=1
done

echo "== results: test x device"
"$POLYDEV_BUILD_DIR/framework/polydev" report "$results"/*.xml || status=1
exit $status
