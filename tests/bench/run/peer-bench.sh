#!/usr/bin/env bash
# polydev's CUDA pools against their peers, on a GPU machine, in one run:
# unpacks the RMM wheels carried in .whl/ (librmm-cu13, rapids-logger; see tests/bench/peers/),
# builds tests/bench/peers (polydev from this checkout, the installed torch's c10, RMM), runs
# polydev_cuda_peer_bench with random interleaving and repetitions, runs the Python-only peers
# (CuPy, torch's Python API), and prints medians and peer/polydev ratios.
# Needs no package registry; Google Benchmark, yaml-cpp, CMake >= 4 (for RMM's package), ninja
# and python3 with torch and cupy must be installed.
#   bash tests/bench/run/peer-bench.sh     # results in $OUT, else build-peers/results
#   POLYDEV_BENCH_QUICK=1 bash tests/bench/run/peer-bench.sh   # quick mode (ci/gpu.sh)
# Quick mode: one repetition of 0.01 s per benchmark, the Python peers with one repetition of
# batches of 1000 calls; every step still runs and a failed build, run or summary fails the
# script, the figures mean nothing. Nothing here asserts on time.
# Environment: POLYDEV_PEER_REPETITIONS (default 5; 1 in quick mode), POLYDEV_PEER_MIN_TIME
# (seconds per run, default 0.05; 0.01 in quick mode), POLYDEV_PEER_FILTER (a --benchmark_filter), POLYDEV_PEER_BENCH_LIMIT_S (default
# 330: the benchmark is stopped then and the summary made of what it wrote), POLYDEV_PEER_BUILD_DIR
# (default build-peers), POLYDEV_PEER_SITE (where wheels are unpacked, default /tmp/polydev-peers).
set -euo pipefail
cd "$(dirname "$0")/../../.."
start=$(date +%s)
build="${POLYDEV_PEER_BUILD_DIR:-build-peers}"
out="${OUT:-$build/results}"
mkdir -p "$out"
site="${POLYDEV_PEER_SITE:-/tmp/polydev-peers}"
quick="${POLYDEV_BENCH_QUICK:-0}"
[[ "$quick" == [01] ]] ||
  { echo "peer-bench.sh: POLYDEV_BENCH_QUICK='$quick'; expected 0 or 1" >&2; exit 2; }
if ((quick)); then
  repetitions="${POLYDEV_PEER_REPETITIONS:-1}"
  export POLYDEV_PEER_MIN_TIME="${POLYDEV_PEER_MIN_TIME:-0.01}"  # read by polydev_cuda_peer_bench
  python_options=(--repetitions 1 --calls 1000)
else
  repetitions="${POLYDEV_PEER_REPETITIONS:-5}"
  python_options=()
fi
elapsed() { echo "$(($(date +%s) - start)) s"; }

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader || true
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"

echo "== wheels (.whl) -> $site"
mkdir -p "$site"
shopt -s nullglob
wheels=(.whl/librmm_cu13-*.whl .whl/rapids_logger-*.whl)
shopt -u nullglob
if ((${#wheels[@]} == 0)); then
  echo "no librmm-cu13 / rapids-logger wheels in .whl: the RMM peers are not built"
fi
for wheel in "${wheels[@]}"; do
  python3 -m zipfile -e "$wheel" "$site"
  echo "unpacked $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"
done

echo "== configure and build ($(elapsed))"
torch_dir="$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))' 2>/dev/null || true)"
cmake_args=(-S tests/bench/peers -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_CUDA_ARCHITECTURES=90 -DPOLYDEV_PEER_SITE="$(realpath "$site")"
  -DPOLYDEV_PEER_TORCH_DIR="$torch_dir" --no-warn-unused-cli)
cmake "${cmake_args[@]}" >"$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
grep "polydev peer bench" "$out/build.log" || true
cmake --build "$build" --parallel "$(nproc)" --target polydev_cuda_peer_bench >>"$out/build.log" 2>&1 ||
  { tail -n 60 "$out/build.log"; exit 1; }
echo "built ($(elapsed))"

# libc10_cuda.so finds the torch wheel's CUDA runtime through its RUNPATH; the nvidia/*/lib
# folders of the Python environment are a fallback (what 'import torch' preloads).
nvidia_libs="$(python3 - <<'PY' 2>/dev/null || true
import glob, os, site
folders = set()
for root in site.getsitepackages():
    for library in glob.glob(os.path.join(root, "nvidia", "**", "lib*.so*"), recursive=True):
        folders.add(os.path.dirname(library))
print(":".join(sorted(folders)))
PY
)"
[[ -n "$nvidia_libs" ]] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$nvidia_libs"

echo "== polydev_cuda_peer_bench: $repetitions repetitions, random interleaving ($(elapsed))"
echo "assumption (PyTorch peer): c10::cuda::CUDACachingAllocator::init(device_count) is called from"
echo "C++ before raw_alloc (Python's torch.cuda init does it otherwise); raw_alloc uses the"
echo "default stream; its CUDA runtime is the torch wheel's libcudart, the rest of the binary"
echo "uses the static runtime and librmm its own static copy (one driver context for all)."
status=0
timeout --signal=TERM "${POLYDEV_PEER_BENCH_LIMIT_S:-330}" \
  "$build/polydev_cuda_peer_bench" --benchmark_repetitions="$repetitions" \
  --benchmark_enable_random_interleaving=true --benchmark_display_aggregates_only=true \
  --benchmark_filter="${POLYDEV_PEER_FILTER:-.}" \
  --benchmark_out="$out/peer_bench.json" --benchmark_out_format=json >"$out/peer_bench.log" 2>&1 ||
  status=$?
if ((status != 0)); then
  echo "polydev_cuda_peer_bench exited with $status (124: stopped at the time limit); its log ends:"
  tail -n 30 "$out/peer_bench.log"
fi
echo "benchmark done ($(elapsed))"

echo "== Python-only peers ($(elapsed))"
PYTHONUNBUFFERED=1 python3 tests/bench/peers/python_peers.py --out "$out/python_peers.json" \
  ${python_options[@]+"${python_options[@]}"} >"$out/python_peers.log" 2>&1 ||
  { echo "python_peers.py failed:"; tail -n 20 "$out/python_peers.log"; }

echo "== summary ($(elapsed))"
[[ -s "$out/peer_bench.json" ]] || { echo "no benchmark results"; exit 1; }
python3 tests/bench/peers/summarize.py "$out/peer_bench.json" "$out/python_peers.json" |
  tee "$out/summary.txt"
echo "raw results: $out/peer_bench.json, $out/python_peers.json; logs next to them ($(elapsed))"

# performance.md and its plots (tests/bench/peers/report.py) in $out, where matplotlib can be
# imported (Debian's python3-matplotlib: /usr/bin/python3 first). To publish a run, copy the two
# JSON files to tests/bench/results/ under the machine's name and run report.py on them there.
report_python=""
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import matplotlib' >/dev/null 2>&1; then
    report_python="$candidate"
    break
  fi
done
if [[ -n "$report_python" ]]; then
  echo "== report ($(elapsed))"
  "$report_python" tests/bench/peers/report.py "$out/peer_bench.json" "$out/python_peers.json" \
    --markdown "$out/performance.md" --plots "$out" ||
    echo "report.py failed; the summary above and the JSON are complete"
else
  echo "no matplotlib (apt-get install python3-matplotlib): performance.md and its plots not made"
fi
exit "$status"
