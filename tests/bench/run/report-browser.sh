#!/usr/bin/env bash
# Checks `polydev report --html` in a real browser: runs real polydev test binaries on the PoCL
# devices (the OpenCL suites in two device shards, the capability-requirement probe, the
# configuration probe under a polydev.yaml with a skip and an xfail entry, the CUDA suites, a few
# host tests, and a run with a selector that matches nothing, as a misconfigured CI job would
# have), merges their GoogleTest XML into one page, takes a screenshot with headless Chromium and
# checks that the page was drawn with the report's colors and that its reasons section is there
# for a reader: laid out, visible, with every skip and xfail counted under its reason.
#
# Chromium is large, so it is not in ci/deps.sh: this script installs Debian's `chromium` itself
# when it is missing (as root, with a package registry). POLYDEV_BUILD_DIR picks the build folder
# (default build), POLYDEV_JOBS the build's parallelism, REPORT_OPENCL_FILTER and REPORT_CUDA_FILTER
# a --gtest_filter for the OpenCL and the CUDA suites, REPORT_WINDOW=W,H a second screenshot of the
# page's top (report-window.png).
# Results: $POLYDEV_BUILD_DIR/report-browser. docs/images/report.png is the report-window-small.png of
#   REPORT_OPENCL_FILTER='OpenCL/Saxpy.*:OpenCL/ContextFactory.*' REPORT_CUDA_FILTER='CUDA/VectorAdd.*'
#   REPORT_WINDOW=1200,2000
set -euo pipefail
cd "$(dirname "$0")/../../.."
export POLYDEV_BUILD_DIR="${POLYDEV_BUILD_DIR:-build}"
build_dir="$POLYDEV_BUILD_DIR"
out="$build_dir/report-browser"

bash ci/deps.sh
if ! command -v chromium >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]] && [[ -z "${POLYDEV_NO_APT:-}" ]]; then
    echo "report-browser.sh: installing chromium"
    timeout 120 apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    echo "report-browser.sh: chromium is missing and cannot be installed here (Debian: chromium)" >&2
    exit 1
  fi
fi

[[ -f "$build_dir/CMakeCache.txt" ]] ||
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOLYDEV_WERROR=ON >/dev/null
targets=(polydev_tool polydev_requirements_probe polydev_policy_probe polydev_config_probe
         polydev_framework_tests)
available=$(cmake --build "$build_dir" --target help)
for optional in polydev_opencl_tests polydev_cuda_tests; do
  grep -q "^$optional:" <<<"$available" && targets+=("$optional")
done
cmake --build "$build_dir" --parallel "${POLYDEV_JOBS:-$(nproc)}" --target "${targets[@]}" >/dev/null
source ci/pocl-env.sh

rm -rf "$out" && mkdir -p "$out"
run() {  # run NAME BINARY [ARGS...]: one GoogleTest XML report; a failing run is the report's to show
  local name=$1 binary=$2
  shift 2
  "$binary" --gtest_brief=1 --gtest_output="xml:$out/$name.xml" "$@" >"$out/$name.log" 2>&1 || true
  [[ -s "$out/$name.xml" ]] || { echo "report-browser.sh: $binary wrote no report" >&2; exit 1; }
}
tests="$build_dir/tests"
if [[ -x "$tests/polydev_opencl_tests" ]]; then
  for shard in 0 1; do
    POLYDEV_SHARD_BY=device GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard \
      run "opencl-shard$shard" "$tests/polydev_opencl_tests" --gtest_filter="${REPORT_OPENCL_FILTER:-*}"
  done
fi
[[ -x "$tests/polydev_cuda_tests" ]] &&
  run cuda "$tests/polydev_cuda_tests" --gtest_filter="${REPORT_CUDA_FILTER:-*}"
run requirements "$tests/polydev_requirements_probe"
# Known problems of the configuration probe: their skips and expected failures are recorded at
# these lines, which the page links (relative to the page: both lie in $out; the report links an
# absolute path only, not knowing the folder a relative one was relative to).
cat >"$out/polydev.yaml" <<'YAML'
expectations:
  - test: ConfigProbe.FailsOnPurpose
    xfail: the fill pattern is checked against the wrong value
  - test: ConfigProbe.ThrowsOnPurpose
    skip: throws on purpose; too slow to run on every commit
YAML
POLYDEV_CONFIG="$(realpath "$out")/polydev.yaml" run config "$tests/polydev_config_probe" \
  --gtest_filter='OpenCL/ConfigProbe.*'
PYOPENCL_TEST=no_such_platform CUDA_DEVICE=no_such_device \
  run misconfigured "$tests/polydev_policy_probe"
run host "$tests/framework/polydev_framework_tests" --gtest_filter='CTestResourceSpec.*'
# Rows appear in the order first read: device suites first, host tests last.
reports=()
for name in opencl-shard0 opencl-shard1 config requirements misconfigured cuda host; do
  [[ -f "$out/$name.xml" ]] && reports+=("$out/$name.xml")
done

status=0
"$build_dir/framework/polydev" report --html "$out/report.html" "${reports[@]}" >"$out/report.txt" ||
  status=$?
"$build_dir/framework/polydev" report --json "${reports[@]}" >"$out/report.json" || true
cat "$out/report.txt"
# The misconfigured run fails on purpose (status 1); a failure from any other file is a real one.
[[ $status -eq 1 ]] || { echo "report-browser.sh: polydev report exited with $status, expected 1" >&2; exit 1; }
python3 - "$out/report.json" <<'EOF'
import json, os, sys
report = json.load(open(sys.argv[1]))
failed = {os.path.basename(result["file"])
          for test in report["tests"] for cell in test["cells"] for result in cell["results"]
          if result["outcome"] in ("fail", "xpass")}
if failed != {"misconfigured.xml"}:
    sys.exit(f"report-browser.sh: failures in {sorted(failed)}; expected only misconfigured.xml")
EOF

page="$(realpath "$out/report.html")"
screenshot() {  # screenshot PNG WIDTH,HEIGHT; a profile of its own leaves nothing in the home dir
  timeout 120 chromium --headless --disable-gpu --no-sandbox --hide-scrollbars \
    --user-data-dir="$out/chromium-profile" --window-size="$2" --screenshot="$1" "file://$page" \
    >"$out/chromium.log" 2>&1 || { cat "$out/chromium.log" >&2; exit 1; }
}
# Tall enough for the whole page (about 28 pixels a row, the sections below the matrix), so that
# the check sees every kind of cell.
rows=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["tests"]))' "$out/report.json")
height=$((rows * 28 + 2500))
screenshot "$out/report.png" "1400,$((height > 4096 ? 4096 : height))"  # Chromium stops at 4096
if [[ -n "${REPORT_WINDOW:-}" ]]; then
  screenshot "$out/report-window.png" "$REPORT_WINDOW"
  # A copy small enough for the docs (a palette of up to 256 colors; the checks below read the
  # full-color report.png), where pngquant is installed (Debian: pngquant).
  if command -v pngquant >/dev/null 2>&1; then
    pngquant --quality=70-95 --speed 1 --force --output "$out/report-window-small.png" \
      "$out/report-window.png"
  fi
fi

# The screenshot must show the page as styled: pixels of the pass, failure, skip, xfail and
# flagged-row colors (html.cpp), and many colors overall (text is antialiased), not a blank or
# error page.
python3 - "$out/report.png" <<'EOF'
import struct, sys, zlib

def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    chunks, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunks.setdefault(kind, []).append(data[at + 8:at + 8 + length])
        at += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"][0])
    if depth != 8 or color not in (2, 6) or interlace:
        sys.exit(f"{path}: unexpected PNG format (depth {depth}, color type {color})")
    step = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
    stride, previous, rows = width * step, bytearray(width * step), []
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - step] if x >= step else 0
            b, c = previous[x], previous[x - step] if x >= step else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return width, height, {bytes(row[x:x + 3]) for row in rows for x in range(0, stride, step)}

path = sys.argv[1]
width, height, colors = pixels(path)
expected = {"pass": (0xda, 0xfb, 0xe1), "fail": (0xcf, 0x22, 0x2e), "skip": (0xea, 0xee, 0xf2),
            "xfail": (0xe9, 0xdd, 0xff), "flagged row": (0xff, 0xf8, 0xc5)}
missing = [name for name, rgb in expected.items() if bytes(rgb) not in colors]
print(f"report-browser.sh: {path}: {width}x{height}, {len(colors)} colors")
if missing or len(colors) < 50:
    sys.exit(f"report-browser.sh: the page was not drawn as styled (missing {missing})")
EOF

# The reasons must be on the page for a reader, not only in tooltips: Chromium lays out a copy of
# the page with a script that measures the reasons section (the page itself has no scripts), and
# its DOM after the script says whether the section is displayed within the screenshot's height,
# which reasons it lists with which counts, and whether the polydev.yaml lines are links.
cat >"$out/report-check.js" <<'EOF'
const heading = [...document.querySelectorAll("h2")].find(h => h.textContent.startsWith("Reasons"));
const table = heading && heading.nextElementSibling;
const box = table ? table.getBoundingClientRect() : null;
const style = table ? getComputedStyle(table) : null;
document.body.setAttribute("data-check", JSON.stringify({
  top: box ? box.top + window.scrollY : -1,
  height: box ? box.height : 0,
  visible: !!style && style.display !== "none" && style.visibility === "visible",
  reasons: table ? [...table.querySelectorAll(":scope > tbody > tr")].map(row => ({
    outcome: row.cells[0].textContent,
    count: Number(row.cells[1].textContent),
    reason: row.querySelector("pre").textContent,
    links: [...row.querySelectorAll(".where a")].map(a => a.getAttribute("href"))})) : []}));
EOF
python3 - "$out/report.html" "$out/report-check.js" "$out/report-check.html" <<'EOF'
import sys
page, script = open(sys.argv[1]).read(), open(sys.argv[2]).read()
open(sys.argv[3], "w").write(page.replace("</body>", "<script>" + script + "</script></body>"))
EOF
shown_height=$((height > 4096 ? 4096 : height))
timeout 120 chromium --headless --disable-gpu --no-sandbox --user-data-dir="$out/chromium-profile" \
  --window-size="1400,$shown_height" --dump-dom "file://$(realpath "$out/report-check.html")" \
  >"$out/report-check.dom" 2>"$out/chromium-dom.log" || { cat "$out/chromium-dom.log" >&2; exit 1; }
python3 - "$out/report-check.dom" "$out/report.json" "$shown_height" <<'EOF'
import html, json, re, sys
dom, report, shown_height = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), int(sys.argv[3])
found = re.search(r'data-check="([^"]*)"', dom)
if not found:
    sys.exit("report-browser.sh: Chromium did not run the check on the page")
check = json.loads(html.unescape(found.group(1)))
if not check["visible"] or check["height"] <= 0 or check["top"] < 0:
    sys.exit(f"report-browser.sh: the reasons section is not displayed: {check}")
if check["top"] >= shown_height:
    sys.exit(f"report-browser.sh: the reasons section starts at {check['top']:.0f}px, below the "
             f"screenshot's {shown_height}px")
reasons = check["reasons"]
# Every skip and xfail of the report is counted under its reason, once.
results = [r for test in report["tests"] for cell in test["cells"] for r in cell["results"]
           if r["outcome"] in ("skip", "xfail")]
counted = sum(reason["count"] for reason in reasons)
if counted != len(results):
    sys.exit(f"report-browser.sh: the reasons count {counted} results; the report has "
             f"{len(results)} skips and xfails")
linked = {r["outcome"] for r in reasons if "polydev.yaml" in r["links"]}
if linked != {"skip", "xfail"}:
    sys.exit(f"report-browser.sh: the polydev.yaml entries' reasons do not link the file: {reasons}")
print(f"report-browser.sh: {len(reasons)} reasons for {len(results)} skips and xfails, drawn at "
      f"{check['top']:.0f}px ({check['height']:.0f}px high)")
EOF
echo "report-browser.sh: $out/report.html and its screenshot $out/report.png look right"
