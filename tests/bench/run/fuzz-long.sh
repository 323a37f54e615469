#!/usr/bin/env bash
# The long fuzzing run: every libFuzzer target at once (one process each), each
# until it has run POLYDEV_FUZZ_RUNS inputs (default 10 million) or for POLYDEV_FUZZ_SECONDS
# (default 540), with inputs up to POLYDEV_FUZZ_MAX_LEN bytes (default 4096, as ci/fuzz.sh), on a
# corpus kept in POLYDEV_FUZZ_WORK between calls, so that a run cut by the time limit goes on where
# it stopped when called again. Prints one line per target: executions of this call and of all
# calls together, speed, coverage, corpus and findings. POLYDEV_FUZZ_WORKERS (default 1) runs that
# many processes per target on the one corpus (libFuzzer rereads the corpus folder, so each sees
# what the others find); their executions add up.
#   bash tests/bench/run/fuzz-long.sh [folder with the fuzz_* binaries, default build-fuzz/tests/fuzz]
#   POLYDEV_BENCH_QUICK=1 bash tests/bench/run/fuzz-long.sh [folder]   # quick mode (ci/benchmarks.sh)
# Quick mode: 2000 inputs per target, at most 10 s, on a temporary corpus removed at the end
# (unless POLYDEV_FUZZ_WORK is given); a finding or a failed target fails it as in a long run.
# Built by ci/fuzz.sh (clang, ASan+UBSan); the binaries need only libstdc++ and yaml-cpp, so a
# machine with more cores can run the ones built elsewhere (LD_LIBRARY_PATH for yaml-cpp).
set -euo pipefail
cd "$(dirname "$0")/../../.."
binaries="${1:-build-fuzz/tests/fuzz}"
quick="${POLYDEV_BENCH_QUICK:-0}"
[[ "$quick" == [01] ]] ||
  { echo "fuzz-long.sh: POLYDEV_BENCH_QUICK='$quick'; expected 0 or 1" >&2; exit 2; }
if ((quick)); then
  runs="${POLYDEV_FUZZ_RUNS:-2000}"
  seconds="${POLYDEV_FUZZ_SECONDS:-10}"
  if [[ -n "${POLYDEV_FUZZ_WORK:-}" ]]; then
    work="$POLYDEV_FUZZ_WORK"
  else
    work="$(mktemp -d "${TMPDIR:-/tmp}/polydev-fuzz-quick.XXXXXX")"
    trap 'rm -rf "$work"' EXIT
  fi
else
  runs="${POLYDEV_FUZZ_RUNS:-10000000}"
  seconds="${POLYDEV_FUZZ_SECONDS:-540}"
  work="${POLYDEV_FUZZ_WORK:-/var/tmp/polydev-fuzz-long}"
fi
mkdir -p "$work"

targets=()
for binary in "$binaries"/fuzz_*; do
  [[ -x "$binary" && -f "$binary" ]] && targets+=("$(basename "$binary")")
done
((${#targets[@]} > 0)) || { echo "no fuzz_* binaries in $binaries (run ci/fuzz.sh first)" >&2; exit 1; }

pids=()
for target in "${targets[@]}"; do
  corpus="$work/$target/corpus"
  if [[ ! -d "$corpus" ]]; then
    mkdir -p "$corpus" "$work/$target/artifacts"
    cp tests/fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  fi
  rm -f "$work/$target"/last.*.log
  done_runs=$(cat "$work/$target/total" 2>/dev/null || echo 0)
  left=$((runs - done_runs))
  ((left > 0)) || continue
  workers="${POLYDEV_FUZZ_WORKERS:-1}"
  dictionary=()
  [[ -f tests/fuzz/dict/$target.dict ]] && dictionary=(-dict="tests/fuzz/dict/$target.dict")
  for ((worker = 0; worker < workers; ++worker)); do
    # The same options as ci/fuzz.sh, and every sanitizer report fatal.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      "$binaries/$target" "$corpus" "${dictionary[@]}" -runs=$(((left + workers - 1) / workers)) \
      -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
      -max_len="${POLYDEV_FUZZ_MAX_LEN:-4096}" -print_final_stats=1 \
      -artifact_prefix="$work/$target/artifacts/" >"$work/$target/last.$worker.log" 2>&1 &
    pids+=("$!")
  done
done
# Each process by its id: a bare `wait` returns 0 whatever the processes' statuses were.
status=0
for pid in ${pids[@]+"${pids[@]}"}; do
  wait "$pid" || status=1
done

printf '%-22s %12s %12s %9s %6s %6s %8s %s\n' target "this call" "all calls" "exec/s" cov ft corpus findings
for target in "${targets[@]}"; do
  logs=("$work/$target"/last.*.log)
  if [[ ! -f "${logs[0]}" ]]; then
    printf '%-22s %12s %12s\n' "$target" 0 "$(cat "$work/$target/total")"
    continue
  fi
  executed=0
  rate=0
  cov=-
  ft=-
  for log in "${logs[@]}"; do
    units=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    executed=$((executed + units))
    rate=$((rate + speed))
    # Coverage of the worker that got furthest (they share one corpus).
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    worker_cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo 0)
    worker_ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo 0)
    if [[ $cov == - ]] || ((worker_cov > cov)); then cov=$worker_cov; fi
    if [[ $ft == - ]] || ((worker_ft > ft)); then ft=$worker_ft; fi
  done
  total=$(($(cat "$work/$target/total" 2>/dev/null || echo 0) + executed))
  echo "$total" >"$work/$target/total"
  corpus=$(find "$work/$target/corpus" -type f | wc -l)
  findings=$(find "$work/$target/artifacts" -type f | wc -l)
  ((findings == 0)) || status=1
  printf '%-22s %12s %12s %9s %6s %6s %8s %s\n' "$target" "$executed" "$total" "$rate" "$cov" "$ft" \
    "$corpus" "$findings"
done
exit $status
