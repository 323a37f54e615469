#!/usr/bin/env bash
# Builds polydev's libFuzzer targets (clang, ASan+UBSan) and runs each, one after another, on a
# copy of its seed corpus (tests/fuzz/corpus/<target>; the repository's corpus is never written).
# Any crash, broken property, sanitizer report, leak, hang (-timeout) or memory blow-up
# (-rss_limit_mb) fails the run; the input that caused it is left in the artifacts folder.
#
#   POLYDEV_FUZZ_SECONDS    seconds per target (default 12: the twelve targets and the build take
#                           about three minutes)
#   POLYDEV_FUZZ_RUNS       executions per target instead of a time (the long run: 10000000)
#   POLYDEV_FUZZ_TARGETS    space-separated subset of targets (default: all)
#   POLYDEV_FUZZ_WORK       folder for the working corpora and logs, kept and reused (default: a
#                           temporary folder, removed at the end)
#   POLYDEV_FUZZ_BUILD_DIR  build folder (default build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${POLYDEV_FUZZ_BUILD_DIR:-build-fuzz}"
seconds="${POLYDEV_FUZZ_SECONDS:-12}"

if ! command -v clang++ >/dev/null 2>&1; then
  echo "ci/fuzz.sh: clang++ is not installed; install Debian's clang (ci/deps.sh does)" >&2
  exit 1
fi
probe="$(mktemp -d)"
echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' >"$probe/p.cpp"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2>"$probe/log"; then
  cat "$probe/log" >&2
  echo "ci/fuzz.sh: clang cannot link libFuzzer; install its runtime (libclang-rt-14-dev)" >&2
  exit 1
fi
rm -rf "$probe"

CC=clang CXX=clang++ cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPOLYDEV_WERROR=ON -DPOLYDEV_BUILD_FUZZERS=ON -DPOLYDEV_WITH_OPENCL=OFF -DPOLYDEV_WITH_CUDA=OFF \
  >/dev/null
# The build's output only where it fails: the fuzz stage's log is the fuzzers' findings.
if ! cmake --build "$build_dir" --parallel "$(nproc)" --target polydev_fuzzers >"$build_dir/fuzz-build.log" 2>&1; then
  grep -E "error|FAILED" "$build_dir/fuzz-build.log" | head -n 30 >&2
  echo "ci/fuzz.sh: building the fuzz targets failed; the whole log is $build_dir/fuzz-build.log" >&2
  exit 1
fi

if [[ -n "${POLYDEV_FUZZ_WORK:-}" ]]; then
  work="$POLYDEV_FUZZ_WORK"
  mkdir -p "$work"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
artifacts="$PWD/$build_dir/artifacts"
mkdir -p "$artifacts"
if [[ -n "${POLYDEV_FUZZ_RUNS:-}" ]]; then
  budget=(-runs="$POLYDEV_FUZZ_RUNS")
  label="$POLYDEV_FUZZ_RUNS runs"
else
  budget=(-max_total_time="$seconds")
  label="${seconds}s"
fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=()
while read -r name binary; do
  if [[ -n "${POLYDEV_FUZZ_TARGETS:-}" && " $POLYDEV_FUZZ_TARGETS " != *" $name "* ]]; then
    continue
  fi
  corpus="$work/$name"
  [[ -d "$corpus" ]] || cp -r "tests/fuzz/corpus/$name" "$corpus"
  options=("${budget[@]}" -timeout=5 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1
    -artifact_prefix="$artifacts/$name-")
  [[ -f "tests/fuzz/dict/$name.dict" ]] && options+=(-dict="tests/fuzz/dict/$name.dict")
  echo "== $name ($label)"
  start=$(date +%s)
  if "$binary" "${options[@]}" "$corpus" >"$work/$name.log" 2>&1; then
    echo "   $(grep -a -E 'DONE' "$work/$name.log" | tail -n 1)"
    grep -a -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' \
      "$work/$name.log" | sed 's/^/   /' || true
    echo "   corpus files: $(find "$corpus" -type f | wc -l), seconds: $(($(date +%s) - start))"
  else
    tail -n 40 "$work/$name.log"
    failed+=("$name")
  fi
done <"$build_dir/fuzz_targets.txt"

if ((${#failed[@]} > 0)); then
  echo "ci/fuzz.sh: FAILED: ${failed[*]} (inputs under $artifacts)" >&2
  exit 1
fi
echo "ci/fuzz.sh: no finding in any fuzz target"
