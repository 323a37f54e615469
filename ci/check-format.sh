#!/usr/bin/env bash
# Fails when a C++ or CUDA file differs from what the project's .clang-format makes of it, or when
# a shell script of ci/, tests/ or fixtures/scripts/ does not pass shellcheck. A missing tool is a failure, not a
# pass: ci/deps.sh installs both (Debian: clang-format, shellcheck).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in clang-format shellcheck; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "ci/check-format.sh: $tool is not installed (Debian: apt-get install $tool; ci/deps.sh" \
      "installs it), so nothing was checked" >&2
    exit 1
  fi
done

# Only files that exist: git still lists one deleted or moved away but not yet committed.
existing() {
  local file
  while IFS= read -r file; do
    [[ -f "$file" ]] && printf '%s\n' "$file"
  done
  return 0
}

mapfile -t files < <(git ls-files '*.hpp' '*.cpp' '*.cu' '*.cuh' '*.h' | existing)
((${#files[@]} == 0)) || clang-format --dry-run --Werror "${files[@]}"
echo "ci/check-format.sh: ${#files[@]} files formatted"

# Tracked scripts and new ones not yet added, so that a script is checked before its commit.
mapfile -t scripts < <(git ls-files --cached --others --exclude-standard -- 'ci/*.sh' 'tests/*.sh' 'fixtures/scripts/*' |
  sort -u | existing)
# -x: follows `source` to the files named by `# shellcheck source=` directives.
((${#scripts[@]} == 0)) || shellcheck -x "${scripts[@]}"
echo "ci/check-format.sh: ${#scripts[@]} scripts pass shellcheck"
