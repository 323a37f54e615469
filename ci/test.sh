#!/usr/bin/env bash
# The CI gate: runs the stages of ci/stages in order, stopping at the first that fails. Every stage
# is a script that also runs alone; the build folder is POLYDEV_BUILD_DIR (default build).
#
#   bash ci/test.sh              every stage
#   bash ci/test.sh NAME...      only the named stages, in the list's order (e.g. format build)
#   bash ci/test.sh --list       the stages
set -euo pipefail
cd "$(dirname "$0")/.."
export POLYDEV_BUILD_DIR="${POLYDEV_BUILD_DIR:-build}"

names=()
scripts=()
descriptions=()
while read -r name script description; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  [[ -f "$script" ]] || { echo "ci/test.sh: ci/stages: $name: no script $script" >&2; exit 1; }
  names+=("$name")
  scripts+=("$script")
  descriptions+=("$description")
done <ci/stages

if [[ "${1:-}" == --list ]]; then
  for i in "${!names[@]}"; do
    printf '%-11s %-19s %s\n' "${names[i]}" "${scripts[i]}" "${descriptions[i]}"
  done
  exit 0
fi
for wanted in "$@"; do
  [[ " ${names[*]} " == *" $wanted "* ]] ||
    { echo "ci/test.sh: no stage '$wanted'; the stages: ${names[*]}" >&2; exit 2; }
done

start=$SECONDS
for i in "${!names[@]}"; do
  (($# == 0)) || [[ " $* " == *" ${names[i]} "* ]] || continue
  echo "=== stage $((i + 1))/${#names[@]} ${names[i]} (${scripts[i]}): ${descriptions[i]}"
  stage_start=$SECONDS
  bash "${scripts[i]}"
  echo "=== ${names[i]} passed in $((SECONDS - stage_start)) s"
done
echo "=== ci/test.sh: ${*:-every stage} passed in $((SECONDS - start)) s"
