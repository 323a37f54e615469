#!/usr/bin/env python3
"""The peers that exist only in Python, measured with the C++ benchmark's hot-pair pattern.

One call = allocate one block and give it back, at 256 B, 64 KiB, 1 MiB and 16 MiB:
- cupy_pool: cupy.cuda.MemoryPool().malloc(size); the MemoryPointer is dropped at once, which
  returns the block to the pool;
- cupy_pinned_pool: cupy.cuda.PinnedMemoryPool().malloc(size), likewise;
- torch_caching: torch.cuda.caching_allocator_delete(torch.cuda.caching_allocator_alloc(size)).
Each is timed in batches of calls of a lambda, against a baseline lambda with the same number of
Python calls that do nothing; the baseline's median is subtracted. Batches of every (peer, size)
run in a fresh random order in each repetition. Medians are reported in ns per pair.
"""
import argparse
import json
import random
import statistics
import sys

from call_timing import noop, per_call_ns, size_name

SIZES = [256, 64 * 1024, 1 << 20, 16 << 20]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="python_peers.json")
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20000, help="calls per timed batch")
    args = parser.parse_args()

    peers = {}  # name -> (make(size) -> lambda, baseline lambda)
    context = {"python": sys.version.split()[0]}
    try:
        import cupy

        device_pool = cupy.cuda.MemoryPool()
        pinned_pool = cupy.cuda.PinnedMemoryPool()
        peers["cupy_pool"] = (lambda size: (lambda: device_pool.malloc(size)), 1)
        peers["cupy_pinned_pool"] = (lambda size: (lambda: pinned_pool.malloc(size)), 1)
        context["cupy"] = cupy.__version__
    except Exception as failure:  # a missing peer is reported, not fatal
        context["cupy"] = f"unavailable: {failure}"
    try:
        import torch

        torch.cuda.init()
        alloc, delete = torch.cuda.caching_allocator_alloc, torch.cuda.caching_allocator_delete
        peers["torch_caching"] = (lambda size: (lambda: delete(alloc(size))), 2)
        context["torch"] = torch.__version__
        context["cuda_device"] = torch.cuda.get_device_name()
    except Exception as failure:
        context["torch"] = f"unavailable: {failure}"
    if not peers:
        print("python_peers: neither CuPy nor PyTorch could be used", context)
        return 1

    baselines = {1: lambda: noop(0), 2: lambda: noop(noop(0))}  # same number of Python calls
    cells = [(name, size) for name in peers for size in SIZES]
    functions = {(name, size): peers[name][0](size) for name, size in cells}
    for function in functions.values():  # warm-up: every pool holds its blocks
        per_call_ns(function, 100)
    samples = {cell: [] for cell in cells}
    base_samples = {calls: [] for calls in baselines}
    for _ in range(args.repetitions):
        order = cells + [("baseline", calls) for calls in baselines]
        random.shuffle(order)
        for cell in order:
            if cell[0] == "baseline":
                base_samples[cell[1]].append(per_call_ns(baselines[cell[1]], args.calls))
            else:
                samples[cell].append(per_call_ns(functions[cell], args.calls))

    base = {calls: statistics.median(values) for calls, values in base_samples.items()}
    results = []
    for (name, size), values in samples.items():
        offset = base[peers[name][1]]
        net = [value - offset for value in values]
        results.append({
            "name": f"{'host' if 'pinned' in name else 'device'}_pair/{size_name(size)}/{name}",
            "median_ns": statistics.median(net),
            "min_ns": min(net),
            "max_ns": max(net),
            "baseline_ns": offset,
            "repetitions": len(net),
        })
    context["method"] = (f"{args.calls} calls per batch, {args.repetitions} repetitions in random "
                         "order, median of an empty lambda with the same number of calls "
                         "subtracted")
    with open(args.out, "w") as stream:
        json.dump({"context": context, "results": results}, stream, indent=1)
    for result in results:
        print(f"{result['name']:40s} {result['median_ns']:10.1f} ns "
              f"(baseline {result['baseline_ns']:.1f} ns subtracted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
