#!/usr/bin/env python3
"""The record (README.md) and plots of one run of the peer benchmark, in its results folder.

usage: report.py [peer_bench.json] [python_peers.json] [--markdown FILE] [--plots DIR]
                 [--machine TEXT]

Inputs default to tests/bench/results/h100-peers/peer_bench.json and python_peers.json (what
tests/bench/run/peer-bench.sh writes); the Markdown goes to README.md and the plots
(latency-by-size.png, threads-scaling.png) beside the first input. docs/performance.md quotes the
newest figures per machine from these records.
Parsing, medians and ratios are those of summarize.py (imported from this folder): times are real
time per item, 1e9 / items_per_second; a ratio is peer / polydev of the medians over the
repetitions, and the conservative ratio is the peer's fastest repetition over polydev's slowest.
The plots need matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3).
"""
import argparse
import json
import os
import re
import shlex
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summarize  # noqa: E402  (this folder)

from summarize import BASE, allocator_key, fmt_ns, group_key, ns_per_op  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
GOAL_PEERS = ["rmm_pool", "torch_caching"]
LINEAR_GOAL = 0.75
RESERVED_GOAL = 1.10
SPEEDUP_GOAL = 10.0
COMPACT = "polydev_compact"  # CompactDeviceMemoryPool: the pool in front of an arena
COLORS = {"polydev": "#1f77b4", COMPACT: "#17becf", "cudaMalloc": "#7f7f7f", "cudaMallocAsync": "#2ca02c",
          "torch_caching": "#d62728", "rmm_pool": "#ff7f0e", "rmm_arena": "#9467bd",
          "cudaMallocHost": "#7f7f7f", "cupy_pool": "#8c564b", "cupy_pinned_pool": "#8c564b"}
PYTHON_COLORS = {"torch_caching": "#e377c2"}  # told apart from the C++ torch_caching line


# ---------------------------------------------------------------------------------------------
# numbers

def stats(values):
    """(median, min, max) of a list."""
    return statistics.median(values), min(values), max(values)


def cell_times(cells, group, threads=1):
    """allocator -> per-repetition ns per item."""
    return {a: [ns_per_op(e) for e in entries]
            for a, entries in cells.get((group, threads), {}).items()}


def groups_with(cells, prefix, threads=1):
    return sorted((g for g in cells if g[0].startswith(prefix) and g[1] == threads), key=group_key)


def allocators_of(cells, groups):
    return sorted({a for g in groups for a in cells[g]}, key=allocator_key)


def ratios(times, allocator, ours=BASE):
    """(median ratio, conservative ratio) peer / `ours`, as summarize.py computes them."""
    base, values = times.get(ours), times.get(allocator)
    if not base or not values or allocator == ours:
        return None
    return statistics.median(values) / statistics.median(base), min(values) / max(base)


def thread_rates(cells):
    """allocator -> threads -> per-repetition aggregate items/s."""
    rates = {}
    for (group, threads), row in cells.items():
        if group.startswith("threads_pair"):
            for allocator, entries in row.items():
                rates.setdefault(allocator, {})[threads] = [e.get("items_per_second", 0.0)
                                                           for e in entries]
    return rates


def efficiency(rates, n):
    """Median aggregate rate at n threads over n times the median rate at 1 thread."""
    if 1 not in rates or n not in rates:
        return None
    one = statistics.median(rates[1])
    return statistics.median(rates[n]) / (n * one) if one > 0 else None


def memory_rows(cells):
    """(group, peak live blocks, peak requested MiB, {allocator: (reserved MiB, ratio)})."""
    rows = []
    for group in groups_with(cells, "random_allocations"):
        row = cells[group]
        first = next(iter(row.values()))[0]
        reserved = {}
        for allocator, entries in sorted(row.items(), key=lambda kv: allocator_key(kv[0])):
            measured = [e for e in entries if "reserved_per_peak_requested" in e]
            if measured:
                worst = max(measured, key=lambda e: e["reserved_per_peak_requested"])
                reserved[allocator] = (worst.get("reserved_MiB", float("nan")),
                                       worst["reserved_per_peak_requested"])
        rows.append((group[0], first.get("peak_live_blocks", 0), first.get("peak_requested_MiB", 0),
                     reserved))
    return rows


# ---------------------------------------------------------------------------------------------
# Markdown

def table(headers, rows, align=None):
    align = align or ["---"] + ["--:"] * (len(headers) - 1)
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines + [""]


def ns_range(low, high):
    """'49.6–56.6ns', or '944.2ns–1.04us' where the units differ."""
    a, b = fmt_ns(low), fmt_ns(high)
    unit_a, unit_b = a.lstrip("0123456789."), b.lstrip("0123456789.")
    return f"{a[:-len(unit_a)]}–{b}" if unit_a == unit_b else f"{a}–{b}"


def ns_cell(values):
    median, low, high = stats(values)
    return f"{fmt_ns(median)} ({ns_range(low, high)})"


def ratio_cell(pair):
    if pair is None:
        return "–"
    median, worst = pair
    return f"{median:.1f}× ({worst:.1f}×)"


def label(group):
    """A cell's name without the workload: 'allocs:1000/max:1MiB' -> '1 000 allocs, max 1 MiB'."""
    rest = group.split("/", 1)[1] if "/" in group else group
    match = re.fullmatch(r"allocs:(\d+)/max:(\d+)MiB", rest)
    if match:
        count = f"{int(match.group(1)):,}".replace(",", " ")
        return f"{count} allocs, ≤ {match.group(2)} MiB"
    match = re.fullmatch(r"(\d+)(B|KiB|MiB)", rest)
    if match:
        return f"{match.group(1)} {match.group(2)}"
    return rest


def workload_tables(cells, prefix, unit, first_column):
    groups = groups_with(cells, prefix)
    if not groups:
        return ["Not in this run's JSON.", ""]
    allocators = allocators_of(cells, groups)
    names = [g[0].split("/")[0] + " " + label(g[0]) if prefix.endswith("_") else label(g[0])
             for g in groups]
    lines = [f"Median {unit} over the repetitions (min–max):", ""]
    lines += table([first_column] + allocators,
                   [[name] + [ns_cell(cell_times(cells, g[0]).get(a)) if a in cells[g] else "–"
                              for a in allocators] for name, g in zip(names, groups)])
    peers = [a for a in allocators if a != BASE]
    lines += ["Peer / polydev: ratio of the medians (conservative: peer's fastest repetition / "
              "polydev's slowest):", ""]
    lines += table([first_column] + peers,
                   [[name] + [ratio_cell(ratios(cell_times(cells, g[0]), a)) for a in peers]
                    for name, g in zip(names, groups)])
    return lines


def threads_table(cells):
    rates = thread_rates(cells)
    if not rates:
        return ["Not in this run's JSON.", ""]
    counts = sorted({n for r in rates.values() for n in r})
    rows = []
    for allocator in sorted(rates, key=allocator_key):
        row = [allocator]
        for n in counts:
            values = rates[allocator].get(n)
            if values:
                median, low, high = stats([v / 1e6 for v in values])
                row.append(f"{median:.2f} ({low:.2f}–{high:.2f})")
            else:
                row.append("–")
        for n in (8, 16):
            eff = efficiency(rates[allocator], n)
            row.append("–" if eff is None else f"{eff:.2f}")
        rows.append(row)
    lines = table(["allocator"] + [f"{n} thr" for n in counts] + ["eff@8", "eff@16"], rows)
    outliers = []
    for allocator in sorted(rates, key=allocator_key):
        for n in sorted(rates[allocator]):
            values = rates[allocator][n]
            if min(values) < 0.5 * statistics.median(values):
                outliers.append(f"{allocator} at {n} thread{'s' if n > 1 else ''} "
                                f"{min(values) / 1e6:.2f} (median "
                                f"{statistics.median(values) / 1e6:.2f})")
    if outliers:
        lines += ["Repetitions below half of their cell's median Mops/s (the medians above "
                  "do not show them): " + "; ".join(outliers) + ".", ""]
    return lines


def memory_table(cells):
    rows = memory_rows(cells)
    allocators = sorted({a for r in rows for a in r[3]}, key=allocator_key)
    out = []
    for group, live, peak, reserved in rows:
        out.append([label(group), f"{live:.0f}", f"{peak:.1f}"] +
                   [f"{reserved[a][0]:.0f} ({reserved[a][1]:.3f})" if a in reserved else "–"
                    for a in allocators])
    return table(["trace", "peak live blocks", "peak requested MiB"] +
                 [f"{a} MiB (÷ peak)" for a in allocators], out)


def python_section(python, cells, markdown_dir):
    if python is None:
        return ["No Python-level results in this run.", ""]
    context = python["context"]
    lines = [f"From [{os.path.basename(python['path'])}]({python['link']}); "
             f"{', '.join(f'{k} {v}' for k, v in context.items() if k != 'method')}. "
             f"Method: {context.get('method', '?')}. Each call is the hot pair of the C++ "
             "benchmark made from Python; the last column divides by polydev's C++ median for "
             "the same workload and size, so it includes what Python adds beyond an empty call.",
             ""]
    rows = []
    for result in python["results"]:
        group, _, allocator = result["name"].rpartition("/")
        ours = cell_times(cells, group).get(BASE)
        ratio = f"{result['median_ns'] / statistics.median(ours):.1f}×" if ours else "–"
        rows.append([allocator, group.replace("/", " "), fmt_ns(result["median_ns"]),
                     ns_range(result["min_ns"], result["max_ns"]),
                     fmt_ns(result["baseline_ns"]), result.get("repetitions", "?"), ratio])
    lines += table(["peer (Python)", "workload", "median", "min–max", "empty call subtracted",
                    "reps", "÷ polydev C++ median"], rows)
    return lines


def goals_section(cells, ours=BASE):
    """The goals of docs/performance.md, for one of polydev's pools (`ours`), with the numbers
    and a plain verdict."""
    rows = []
    chosen = [g for g in groups_with(cells, "") if (
        g[0].startswith("device_pair") or g[0].startswith("batch_") or
        re.search(r"allocs:(10000|100000)/", g[0]))]

    def live_blocks(group):
        return cells[(group, 1)][ours][0].get("peak_live_blocks", 0)

    # The goal's cells: the hot pair, and churn with >= 10 000 live blocks (the random_allocations
    # traces whose peak of live blocks reaches it). The verdict is on these; the other cells
    # (batches, the traces with 10 000 or 100 000 allocations but fewer live blocks) are reported
    # beside it, so that a pool slower there is not hidden.
    def in_goal(group):
        return group.startswith("device_pair") or (
            group.startswith("random_allocations") and live_blocks(group) >= 10000)

    def describe(results):
        met = [g for g, r in results if r[0] >= SPEEDUP_GOAL]
        low = min(results, key=lambda gr: gr[1][0])
        text = (f"median ratio ≥ {SPEEDUP_GOAL:.0f}× in {len(met)} of {len(results)} cells; "
                f"lowest {low[1][0]:.1f}× at {low[0]}")
        below = [f"{g} {r[0]:.1f}×" for g, r in results if r[0] < SPEEDUP_GOAL]
        if below:
            text += "; below: " + ", ".join(below)
        below_worst = [f"{g} {r[1]:.1f}×" for g, r in results if r[1] < SPEEDUP_GOAL]
        text += (f"; conservative ratio below {SPEEDUP_GOAL:.0f}× in {len(below_worst)} cells"
                 + (": " + ", ".join(below_worst) if below_worst else ""))
        return text, len(met)

    for peer in GOAL_PEERS:
        results = [(g[0], ratios(cell_times(cells, g[0]), peer, ours)) for g in chosen]
        results = [(g, r) for g, r in results if r]
        goal = [(g, r) for g, r in results if in_goal(g)]
        extra = [(g, r) for g, r in results if not in_goal(g)]
        if not goal:
            rows.append([f"≥ {SPEEDUP_GOAL:.0f}× faster than {peer}", "peer not in this run",
                         "not measured"])
            continue
        churn = [f"{g} ({live_blocks(g):.0f} live)" for g, _ in goal
                 if g.startswith("random_allocations")]
        text, met = describe(goal)
        text = (f"The goal's cells (hot pairs; churn with ≥ 10 000 live blocks: "
                f"{', '.join(churn) if churn else 'no trace reached it'}): {text}.")
        if extra:
            extra_text, _ = describe(extra)
            text += (" Beyond the goal's cells (batches; random_allocations with 10 000 and "
                     f"100 000 allocations but fewer live blocks): {extra_text}.")
        verdict = "met" if met == len(goal) else \
            f"**not met** in {len(goal) - met} of {len(goal)} cells"
        rows.append([f"≥ {SPEEDUP_GOAL:.0f}× faster per operation than {peer}", text, verdict])

    rates = thread_rates(cells).get(ours, {})
    eff8 = efficiency(rates, 8)
    if eff8 is None:
        rows.append([f"≥ {LINEAR_GOAL}× linear throughput to 8 threads", "not in this run",
                     "not measured"])
    else:
        one = statistics.median(rates[1])
        per_rep = [r / (8 * one) for r in rates[8]]
        effs = ", ".join(f"{n}: {efficiency(rates, n):.2f}" for n in sorted(rates) if n > 1)
        below = sum(1 for e in per_rep if e < LINEAR_GOAL)
        text = (f"{ours}, median aggregate rate at n threads / (n × median at 1 thread) — {effs}. "
                f"Per repetition at 8 threads (over 8 × the 1-thread median): "
                f"{', '.join(f'{e:.2f}' for e in per_rep)}")
        verdict = "met" if eff8 >= LINEAR_GOAL else "**not met**"
        if below:
            verdict += f" (median; {below} of {len(per_rep)} repetitions below)"
        rows.append([f"≥ {LINEAR_GOAL}× linear throughput to 8 threads", text, verdict])

    memory = [(g, live, r[ours]) for g, live, _, r in memory_rows(cells) if ours in r]
    if memory:
        above = [(g, live, v) for g, live, v in memory if v[1] > RESERVED_GOAL]
        text = f"{ours} reserved / peak requested: " + "; ".join(
            f"{label(g)}: {v[1]:.3f}" for g, _, v in memory)
        torch = [r["torch_caching"][1] for _, _, _, r in memory_rows(cells) if "torch_caching" in r]
        if torch:
            text += (f". PyTorch's allocator on the same traces: {min(torch):.3f}–"
                     f"{max(torch):.3f}")
        verdict = "met" if not above else f"**not met** on {len(above)} of {len(memory)} traces (" \
            + ", ".join(f"{v[1]:.3f}" for _, _, v in above) + ")"
        rows.append([f"reserved ≤ {RESERVED_GOAL:.2f}× peak requested (random_allocations)", text,
                     verdict])
    lines = table(["goal", "measured", "verdict"], rows, ["---", "---", "---"])
    others = sorted({a for g in chosen for a in cells[g]} - set(GOAL_PEERS) - {BASE, COMPACT},
                    key=allocator_key)
    for peer in others:
        results = [(g[0], ratios(cell_times(cells, g[0]), peer, ours)) for g in chosen]
        below = [f"{g} {r[0]:.1f}×" for g, r in results if r and r[0] < SPEEDUP_GOAL]
        if below:
            lines += [f"Not a goal, shown so that nothing is left out: against {peer} "
                      f"the median ratio is below {SPEEDUP_GOAL:.0f}× in {len(below)} of the same "
                      f"cells: {', '.join(below)}.", ""]
    return lines


# ---------------------------------------------------------------------------------------------
# plots

def plot_latency(cells, python, path, title_device):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [("device_pair", "Device memory: allocate + free one block",
               {"cupy_pool", "torch_caching"}),
              ("host_pair", "Page-locked host memory: allocate + free one block",
               {"cupy_pinned_pool"})]
    figure, axes = plt.subplots(1, 2, figsize=(13, 5.2), sharey=True)
    for axis, (prefix, title, python_peers) in zip(axes, panels):
        groups = groups_with(cells, prefix)
        sizes = [summarize.group_key(g)[0][1][1] for g in groups]
        for allocator in allocators_of(cells, groups):
            xs, ys, lows, highs = [], [], [], []
            for size, group in zip(sizes, groups):
                values = cell_times(cells, group[0]).get(allocator)
                if values:
                    median, low, high = stats(values)
                    xs.append(size), ys.append(median)
                    lows.append(median - low), highs.append(high - median)
            axis.errorbar(xs, ys, yerr=[lows, highs], marker="o", capsize=3, linewidth=1.8,
                          color=COLORS.get(allocator), label=f"{allocator} (C++)")
        if python:
            for peer in sorted(python_peers, key=allocator_key):
                points = sorted((summarize.group_key((r["name"].rpartition("/")[0], 1))[0][1][1],
                                 r) for r in python["results"]
                                if r["name"].startswith(prefix + "/") and
                                r["name"].endswith("/" + peer))
                if points:
                    axis.errorbar([p[0] for p in points], [p[1]["median_ns"] for p in points],
                                  yerr=[[p[1]["median_ns"] - p[1]["min_ns"] for p in points],
                                        [p[1]["max_ns"] - p[1]["median_ns"] for p in points]],
                                  marker="s", capsize=3, linestyle="--", linewidth=1.4,
                                  color=PYTHON_COLORS.get(peer, COLORS.get(peer)), alpha=0.85,
                                  label=f"{peer} (Python, empty call subtracted)")
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        axis.set_xticks(sizes, [label(g[0]) for g in groups])
        axis.minorticks_off()
        axis.set_yscale("log")
        axis.set_xlabel("block size")
        axis.set_title(title, fontsize=11)
        axis.grid(True, which="major", alpha=0.3)
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize=8, loc="upper left")
    axes[0].set_ylabel("median ns per allocate+free pair (log scale)")
    figure.suptitle(f"Hot-pair latency by block size and allocator, {title_device}"
                    " (bars: min–max over the repetitions)", fontsize=12)
    figure.tight_layout()
    figure.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(figure)


def plot_threads(cells, path, title_device):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rates = thread_rates(cells)
    figure, axis = plt.subplots(figsize=(10, 5.5))
    counts = sorted({n for r in rates.values() for n in r})
    for allocator in sorted(rates, key=allocator_key):
        xs = sorted(rates[allocator])
        med = [statistics.median(rates[allocator][n]) / 1e6 for n in xs]
        low = [m - min(rates[allocator][n]) / 1e6 for m, n in zip(med, xs)]
        high = [max(rates[allocator][n]) / 1e6 - m for m, n in zip(med, xs)]
        axis.errorbar(xs, med, yerr=[low, high], marker="o", capsize=3, linewidth=1.8,
                      color=COLORS.get(allocator), label=allocator)
    if BASE in rates and 1 in rates[BASE]:
        one = statistics.median(rates[BASE][1]) / 1e6
        axis.plot(counts, [one * n for n in counts], linestyle=":", color=COLORS[BASE],
                  linewidth=1.5, label=f"{BASE}: ideal linear (n × 1-thread median)")
        axis.plot(counts, [LINEAR_GOAL * one * n for n in counts], linestyle="--",
                  color="#aaaaaa", linewidth=1, label=f"{BASE}: goal, {LINEAR_GOAL}× linear")
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    axis.set_xticks(counts, [str(n) for n in counts])
    axis.minorticks_off()
    axis.set_xlabel("threads sharing one allocator (64 KiB hot pair, one stream per thread)")
    axis.set_ylabel("aggregate Mops/s, median (log scale)")
    axis.set_title(f"Thread scaling of the 64 KiB hot pair, {title_device}\n"
                   "(bars: min–max over the repetitions)", fontsize=12)
    axis.grid(True, which="major", alpha=0.3)
    if axis.get_legend_handles_labels()[0]:
        axis.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    figure.tight_layout()
    figure.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(figure)


# ---------------------------------------------------------------------------------------------

def context_table(context, python, machine, bench_link):
    def value(key):
        return context.get(key, "not recorded")

    rows = [["machine", machine]] if machine else []
    rows += [
        ["GPU", f"{value('cuda_device')} (CUDA ordinal {value('cuda_ordinal')}); driver and CUDA "
                "versions were not recorded in the JSON"],
        ["host", f"{value('num_cpus')} CPUs at {value('mhz_per_cpu')} MHz, host name "
                 f"`{value('host_name')}`, CPU scaling {'on' if context.get('cpu_scaling_enabled') else 'off'}, "
                 f"load average at start {', '.join(f'{v:.2f}' for v in context.get('load_avg', []))}"],
        ["date", value("date")],
        ["binary", f"`{value('executable')}` (polydev_cuda_peer_bench, built Release by "
                   f"`tests/bench/run/peer-bench.sh`); Google Benchmark's own library reports "
                   f"`library_build_type: {value('library_build_type')}`"],
        ["peers", f"cudaMalloc/cudaFree; cudaMallocAsync/cudaFreeAsync (release threshold "
                  f"{value('async_release_threshold')}); PyTorch C++ caching allocator "
                  f"(`raw_alloc`/`raw_delete`, backend `{value('torch_allocator')}`); RMM "
                  f"{value('rmm')} (librmm-cu13 wheel); pinned: cudaMallocHost/cudaFreeHost"],
        ["random_allocations", f"live bytes capped at {value('random_allocations_max_usage_MiB')} MiB"],
    ]
    if python:
        rows.append(["Python", ", ".join(f"{k} {v}" for k, v in python["context"].items()
                                         if k != "method")])
    rows.append(["raw numbers", bench_link + (f", {python['markdown']}" if python else "")])
    return table(["", ""], rows, ["---", "---"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", nargs="?", default=os.path.join(ROOT, "tests/bench/results/h100-peers/peer_bench.json"))
    parser.add_argument("python", nargs="?",
                        default=os.path.join(ROOT, "tests/bench/results/h100-peers/python_peers.json"))
    parser.add_argument("--markdown", default="",
                        help="the record to write (default: README.md beside the benchmark JSON)")
    parser.add_argument("--plots", default="",
                        help="folder for latency-by-size.png and threads-scaling.png")
    parser.add_argument("--machine", default="",
                        help="words on the machine and the run, added to what the JSON says")
    parser.add_argument("--companion", default="",
                        help="the page of the same benchmark on another machine, to link to")
    parser.add_argument("--no-plots", action="store_true")
    args = parser.parse_args()
    run_folder = os.path.dirname(os.path.abspath(args.bench))
    args.markdown = args.markdown or os.path.join(run_folder, "README.md")
    args.plots = args.plots or run_folder

    context, cells, errors = summarize.load(args.bench)
    repetitions = sorted({len(v) for row in cells.values() for v in row.values()})
    md_dir = os.path.dirname(os.path.abspath(args.markdown))
    link = lambda path: os.path.relpath(os.path.abspath(path), md_dir)  # noqa: E731
    bench_link = f"[{os.path.basename(args.bench)}]({link(args.bench)})"
    python = None
    if args.python and os.path.exists(args.python):
        with open(args.python) as stream:
            python = json.load(stream)
        python["path"] = args.python
        python["link"] = link(args.python)
        python["markdown"] = f"[{os.path.basename(args.python)}]({python['link']})"

    os.makedirs(args.plots, exist_ok=True)
    latency_png = os.path.join(args.plots, "latency-by-size.png")
    threads_png = os.path.join(args.plots, "threads-scaling.png")
    if not args.no_plots:
        title_device = context.get("cuda_device", "?")
        plot_latency(cells, python, latency_png, title_device)
        plot_threads(cells, threads_png, title_device)

    reps = "/".join(str(r) for r in repetitions)
    def shown(arg):
        full = os.path.abspath(arg)
        inside = os.path.exists(arg) and full.startswith(ROOT + os.sep)
        return os.path.relpath(full, ROOT) if inside else arg

    command = shlex.join(["tests/bench/peers/report.py"] + [shown(a) for a in sys.argv[1:]])
    out = [
        "# Performance: polydev's CUDA pools against their peers",
        "",
        f"Generated by `tests/bench/peers/report.py` from {bench_link}"
        + (f" and {python['markdown']}" if python else "")
        + f" with `{command}`; `tests/bench/run/peer-bench.sh` runs the benchmarks and then this "
        "script. "
        "Edit the script, not this file. docs/performance.md has the goals; "
        "`tests/bench/cuda_peer_bench.cpp` describes every workload."
        + (f" The same benchmark on another machine: [{os.path.basename(args.companion)}]("
           f"{link(args.companion)})." if args.companion else ""),
        "",
        "## Machine and software",
        "",
    ]
    out += context_table(context, python, args.machine, bench_link)
    out += [
        "## Method",
        "",
        f"- One binary, every allocator in it; Google Benchmark with "
        f"`--benchmark_enable_random_interleaving=true` and {reps} repetitions, so the runs of all "
        "allocators of a cell are shuffled together and measured in the same minutes; each run "
        "lasts at least 0.05 s (`min_time`).",
        "- Time is real (wall) time per item: one allocate+free pair for the hot pairs and the "
        "threads, one allocation or one free for batches and random_allocations.",
        "- Tables give the median over the repetitions and the spread as min–max. Ratios are "
        "peer / polydev (> 1: polydev is faster): the ratio of the medians and, in parentheses, "
        "the conservative ratio of the peer's fastest repetition to polydev's slowest.",
        "- random_allocations replays RMM's benchmark script (fixed seed, identical for every "
        "allocator). RMM's resources are pre-sized, so they report no reserved memory; polydev "
        "reports `managed_bytes()`, cudaMallocAsync its pool's reserved high-water mark after a "
        "trim, PyTorch its reserved-bytes peak after `emptyCache()`.",
        "- Thread scaling: 1–16 threads share one allocator (a stream each); efficiency at n = "
        "median aggregate rate / (n × median 1-thread rate).",
        "",
        "## Goals",
        "",
    ]
    out += goals_section(cells)
    if any(COMPACT in row for row in cells.values()):
        out += ["### The same goals for `CompactDeviceMemoryPool` (`polydev_compact`)", "",
                "The pool in front of an arena (docs/pools.md): held blocks of every class go back "
                "to the arena and merge before it grows. The tables below show it as a column of "
                "its own; its ratio there is against `polydev`.", ""]
        out += goals_section(cells, COMPACT)
    out += ["![latency by size](" + link(latency_png) + ")", "",
            "![threads scaling](" + link(threads_png) + ")", ""]
    out += ["## Device hot pair", ""]
    out += workload_tables(cells, "device_pair", "ns per pair", "size")
    out += ["## Batches: 1000 blocks (256 B–1 MiB, log-uniform), allocate all, then free", "",
            "`same`: in allocation order; `reverse`; `shuffled`: a fixed random order.", ""]
    out += workload_tables(cells, "batch_", "ns per operation", "order")
    out += ["## random_allocations (RMM's benchmark)", ""]
    out += workload_tables(cells, "random_allocations", "ns per operation", "trace")
    out += ["### Reserved memory against peak requested", "",
            "Reserved MiB and reserved / peak requested of the repetition with the largest "
            "ratio. RMM's resources (pre-sized) and cudaMalloc report none.", ""]
    out += memory_table(cells)
    out += ["## Pinned host pair", "",
            "polydev's `PageLockedMemoryPool` against `cudaMallocHost`/`cudaFreeHost`; CuPy's "
            "pinned pool is in the Python table below.", ""]
    out += workload_tables(cells, "host_pair", "ns per pair", "size")
    out += ["## Thread scaling (64 KiB hot pair)", "",
            "Aggregate Mops/s, median (min–max) over the repetitions; efficiency from the medians.",
            ""]
    out += threads_table(cells)
    out += ["## Python-level peers", ""]
    out += python_section(python, cells, md_dir)
    out += [
        "## Not in this run",
        "",
        "- OpenCL: polydev's buffer and SVM pools against raw allocation on PoCL and NVIDIA "
        "OpenCL: [pools.md](" + link(os.path.join(ROOT, "docs/pools.md")) + ") (section "
        "\"OpenCL\"); against PyOpenCL's `MemoryPool` and `SVMPool` from Python: "
        "[performance.md](" + link(os.path.join(ROOT, "docs/performance.md")) + ").",
        "- Why reserved memory stays above 1.10× on the long traces, with every bin scheme: "
        "[pools.md](" + link(os.path.join(ROOT, "docs/pools.md")) + ") (section \"Reserved "
        "memory on churn\"), from `polydev_pool_trace_replay`, which replays these traces on the "
        "host.",
        "- Fixture overhead against the PyOpenCL pytest plugin: [performance.md]("
        + link(os.path.join(ROOT, "docs/performance.md")) + "); serial against "
        "`ctest -j2` on two H200s: [ctest.md](" + link(os.path.join(ROOT, "docs/ctest.md")) + ").",
    ] + ([] if args.companion else [
        "- A run on a second machine that confirms these figures: none yet.",
    ]) + [""]
    if errors:
        out += [f"## Errors reported by the benchmark ({len(errors)})", ""]
        out += [f"- {e}" for e in sorted(set(errors))] + [""]
    with open(args.markdown, "w") as stream:
        stream.write("\n".join(out).rstrip("\n") + "\n")
    print(f"wrote {args.markdown}" + ("" if args.no_plots else f", {latency_png}, {threads_png}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
