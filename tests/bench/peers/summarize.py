#!/usr/bin/env python3
"""Compact tables from polydev_cuda_peer_bench's JSON (and python_peers.py's): medians over the
repetitions, peer/polydev ratios, thread scaling, reserved memory, and the goals.

usage: summarize.py peer_bench.json [python_peers.json]

Benchmarks are named <workload>/<parameters>/<allocator> (Google Benchmark adds /real_time and
/threads:N). Times are real time per operation: 1e9 / items_per_second, where an item is one
allocate+free pair (pairs) or one allocation or free (batch, random_allocations). A ratio is
peer / polydev of the medians; "min" is the most conservative ratio, the fastest repetition of the
peer against the slowest of polydev (a win counts only if it is above 1).
"""
import json
import re
import statistics
import sys
from collections import defaultdict

BASE = "polydev"
ORDER = ["polydev", "polydev_compact", "cudaMalloc", "cudaMallocAsync", "torch_caching", "rmm_pool", "rmm_arena",
         "cudaMallocHost", "cupy_pool", "cupy_pinned_pool"]


def group_key(group):
    """Natural order, sizes by bytes: 256B < 64KiB < 1MiB < 16MiB."""
    key = []
    for part in group[0].split("/"):
        size = re.fullmatch(r"(\d+)(B|KiB|MiB)", part)
        if size:
            key.append((1, int(size.group(1)) << {"B": 0, "KiB": 10, "MiB": 20}[size.group(2)], ""))
        else:
            key.append((0, 0, [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", part)]))
    return key, group[1]


def allocator_key(name):
    return (ORDER.index(name) if name in ORDER else len(ORDER), name)


def fmt_ns(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f}ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f}us"
    return f"{ns:.1f}ns"


SUFFIX = re.compile(r"^(min_time:|min_warmup_time:|repeats:|iterations:|threads:|real_time$|"
                    r"manual_time$|process_time$)")


def read_json(path):
    """The JSON of a run, also of one stopped before its end (the closing brackets missing)."""
    with open(path) as stream:
        text = stream.read()
    try:
        return json.loads(text)
    except ValueError:
        cut = text.rfind("}")
        return json.loads(text[:cut + 1] + "]}")


def load(path):
    data = read_json(path)
    cells = defaultdict(lambda: defaultdict(list))  # (group, threads) -> allocator -> [entries]
    errors = []
    for entry in data.get("benchmarks", []):
        if entry.get("run_type") == "aggregate":
            continue
        parts = entry.get("run_name", entry["name"]).split("/")
        group, _, allocator = "/".join(p for p in parts if not SUFFIX.match(p)).rpartition("/")
        if entry.get("error_occurred") or entry.get("skipped"):  # Google Benchmark 1.7 / 1.8+
            message = entry.get("error_message", entry.get("skip_message", "?"))
            errors.append(f"{entry['name']}: {message}")
            continue
        cells[(group, int(entry.get("threads", 1)))][allocator].append(entry)
    return data.get("context", {}), cells, errors


def ns_per_op(entry):
    rate = entry.get("items_per_second")
    return 1e9 / rate if rate else float("nan")


def ratio_table(cells, prefix, goals):
    groups = sorted((g for g in cells if g[0].startswith(prefix) and g[1] == 1), key=group_key)
    if not groups:
        return
    allocators = sorted({a for g in groups for a in cells[g]}, key=allocator_key)
    label = "median/op (peer/polydev, min)"
    width = max([len(label)] + [len(g[0]) for g in groups])
    print(f"{label:{width}s} | " +
          " | ".join(f"{a:>27s}" for a in allocators))
    for group in groups:
        row = cells[group]
        times = {a: [ns_per_op(e) for e in row[a]] for a in row}
        base = times.get(BASE)
        parts = []
        for allocator in allocators:
            values = times.get(allocator)
            if not values:
                parts.append(f"{'-':>27s}")
                continue
            median = statistics.median(values)
            if base and allocator != BASE:
                ratio = median / statistics.median(base)
                worst = min(values) / max(base)
                parts.append(f"{fmt_ns(median):>9s} ({ratio:.1f}x, {worst:.1f}x)".rjust(27))
                goals.append((group[0], allocator, ratio, worst))
            else:
                parts.append(f"{fmt_ns(median):>27s}")
        print(f"{group[0]:{width}s} | " + " | ".join(parts))
    print()


def threads_table(cells):
    groups = sorted((g for g in cells if g[0].startswith("threads_pair")), key=lambda g: g[1])
    if not groups:
        return {}
    allocators = sorted({a for g in groups for a in cells[g]}, key=allocator_key)
    counts = sorted({g[1] for g in groups})
    print("threads_pair: aggregate Mops/s (median) by threads; efficiency = rate(n) / (n * rate(1))")
    print(f"{'allocator':16s} | " + " | ".join(f"{n:>7d}" for n in counts) + " | eff@8  | eff@16")
    efficiency = {}
    for allocator in allocators:
        rates = {}
        for n in counts:
            entries = cells.get((groups[0][0], n), {}).get(allocator, [])
            if entries:
                rates[n] = statistics.median(e.get("items_per_second", 0.0) for e in entries)
        cols = [f"{rates[n] / 1e6:7.2f}" if n in rates else f"{'-':>7s}" for n in counts]
        eff = {n: rates[n] / (n * rates[1]) for n in rates if 1 in rates and rates[1] > 0}
        efficiency[allocator] = eff
        print(f"{allocator:16s} | " + " | ".join(cols) +
              f" | {eff.get(8, float('nan')):6.2f} | {eff.get(16, float('nan')):6.2f}")
    print()
    return efficiency


def memory_table(cells):
    groups = sorted((g for g in cells if g[0].startswith("random_allocations") and g[1] == 1),
                    key=group_key)
    rows = []
    for group in groups:
        for allocator, entries in sorted(cells[group].items(), key=lambda kv: allocator_key(kv[0])):
            ratios = [e["reserved_per_peak_requested"] for e in entries
                      if "reserved_per_peak_requested" in e]
            if ratios:
                rows.append((group[0], allocator, entries[0].get("peak_live_blocks", 0),
                             entries[0].get("peak_requested_MiB", 0), max(ratios)))
    if rows:
        print("random_allocations memory: reserved / peak requested (max over repetitions)")
        for group, allocator, live, peak, ratio in rows:
            print(f"  {group:44s} {allocator:16s} peak live {live:8.0f}  peak requested "
                  f"{peak:9.1f} MiB  reserved/peak {ratio:5.3f}")
        print()
    return rows


def python_table(path, cells):
    with open(path) as stream:
        data = json.load(stream)
    print("Python-level peers (ns per pair, empty-call baseline subtracted; "
          f"{data['context'].get('method', '')})")
    print("  context: " + ", ".join(f"{k} {v}" for k, v in data["context"].items() if k != "method"))
    for result in data["results"]:
        group, _, allocator = result["name"].rpartition("/")
        ours = cells.get((group, 1), {}).get(BASE)
        ratio = ""
        if ours:
            ratio = f"  ({result['median_ns'] / statistics.median(ns_per_op(e) for e in ours):.1f}x"\
                    " polydev's C++ median)"
        print(f"  {result['name']:40s} {fmt_ns(result['median_ns']):>9s}{ratio}")
    print()


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    context, cells, errors = load(sys.argv[1])
    keys = ["cuda_device", "cuda_ordinal", "torch_allocator", "rmm", "async_release_threshold",
            "random_allocations_max_usage_MiB", "num_cpus", "mhz_per_cpu", "library_build_type",
            "date", "host_name"]
    print("context: " + ", ".join(f"{k}={context[k]}" for k in keys if k in context))
    print()
    goals = []
    for prefix in ["device_pair", "batch_", "random_allocations", "host_pair"]:
        ratio_table(cells, prefix, goals)
    efficiency = threads_table(cells)
    memory = memory_table(cells)
    if len(sys.argv) > 2:
        try:
            python_table(sys.argv[2], cells)
        except (OSError, ValueError, KeyError) as failure:
            print(f"python peers: {failure}\n")

    print("goals: ")
    for peer in ["rmm_pool", "torch_caching"]:
        cells_10x = [(g, r, w) for g, a, r, w in goals if a == peer and (
            g.startswith("device_pair") or g.startswith("batch_") or
            re.search(r"allocs:(10000|100000)/", g))]
        if cells_10x:
            met = sum(1 for _, r, _ in cells_10x if r >= 10)
            low = min(cells_10x, key=lambda c: c[1])
            print(f"  >=10x vs {peer} (pairs, batches, random >=10 000): {met}/{len(cells_10x)} "
                  f"cells; lowest {low[1]:.1f}x at {low[0]}")
        else:
            print(f"  >=10x vs {peer}: not measured (peer not built or skipped)")
    if BASE in efficiency and 8 in efficiency[BASE]:
        print(f"  >=0.75x linear to 8 threads: polydev {efficiency[BASE][8]:.2f}")
    for group, allocator, live, _, ratio in memory:
        if allocator == BASE:
            verdict = "ok" if ratio <= 1.10 else "ABOVE 1.10"
            print(f"  reserved <= 1.10x peak requested: {group} {ratio:.3f} {verdict}"
                  f" ({live:.0f} live blocks at peak)")
    if errors:
        print(f"\n{len(errors)} benchmark runs reported errors:")
        for error in sorted(set(errors))[:20]:
            print("  " + error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
