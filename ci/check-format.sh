#!/usr/bin/env bash
# Fails when a C++ or CUDA file differs from what the project's .clang-format makes of it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "ci/check-format.sh: clang-format not installed; format not checked"
  exit 0
fi
mapfile -t files < <(git ls-files '*.hpp' '*.cpp' '*.cu' '*.cuh' '*.h')
((${#files[@]} == 0)) || clang-format --dry-run --Werror "${files[@]}"
echo "ci/check-format.sh: ${#files[@]} files formatted"
