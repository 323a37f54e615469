#!/usr/bin/env python3
"""PyOpenCL's memory pools from Python against polydev's OpenCL pools, on the same device.

Two subcommands; tests/bench/run/opencl-peer-bench.sh runs them, alternating `measure` with the C++
benchmark (tests/bench/opencl_pool_bench.cpp) round by round, then `summarize` on every file of both.

measure: one process, one round. The device is the first that PYOPENCL_TEST selects (PyOpenCL's
own get_test_platforms_and_devices, the selection polydev's benchmark reproduces), one context and
one in-order queue on it. One call is the C++ benchmark's hot pair made from Python, at the C++
benchmark's sizes (256 B, 64 KiB, 1 MiB):
- pool_immediate: MemoryPool(ImmediateAllocator(queue)).allocate(size), the PooledBuffer dropped
  when the call returns: CPython's reference count frees it at once and its destructor gives the
  block back to the pool, as the C++ PooledBuffer's destructor does at the end of each iteration;
- pool_deferred: the same with MemoryPool(DeferredAllocator(context));
- svm_pool: SVMPool(SVMAllocator(context))(size), dropped likewise: no queue, as in the C++
  benchmark's SVMPool;
- svm_pool_queue: SVMPool(SVMAllocator(context, queue=queue))(size), dropped likewise;
- raw_buffer: cl.Buffer(context, READ_WRITE, size).release() (clCreateBuffer + clReleaseMemObject);
- raw_immediate: ImmediateAllocator(queue)(size).release() (PyOpenCL enqueues a migration and does
  not wait; polydev's ImmediateAllocator waits for its residency command: not the same work);
- raw_svm: cl.SVMAllocation(context, size, 0, READ_WRITE).release() (clSVMAlloc + clSVMFree);
- binding_floor: MemoryPool.bin_number(size), a PyOpenCL call that computes a bin number and
  allocates nothing: what any call through PyOpenCL's bindings costs beyond an empty Python call.
Each is timed in batches of calls of a lambda, against a baseline lambda that makes the same
number of calls to a Python function that does nothing (the lambda's own call and the loop
included in both); the baseline's median is subtracted when summarizing. Batches of every
(peer, size) and of the baselines run in a fresh random order in each repetition. Every sample is
written (ns per call, before subtraction), with the load average and CPU pressure around it.

summarize: reads the C++ benchmark's JSON files (every repetition, real time) and this script's
JSON files, subtracts from each Python sample the median of all baseline samples with the same
number of calls, and prints Markdown tables of medians (min-max over every sample) and ratios
PyOpenCL / polydev; writes them with every sample to --out. Nothing here asserts on time.
"""
import argparse
import json
import os
import platform
import random
import statistics
import sys
import time

from call_timing import noop, per_call_ns, size_name

SIZES = [256, 64 * 1024, 1 << 20]  # opencl_pool_bench.cpp's hot-pair sizes

# Python peer -> the C++ benchmark measuring the same work on polydev's side.
POLYDEV_MATCH = {
    "pool_immediate": "pair/MemoryPool(immediate)",
    "pool_deferred": "pair/MemoryPool(deferred)",
    "svm_pool": "pair/SVMPool",
    "svm_pool_queue": "pair/SVMPool",
    "raw_buffer": "pair/clCreateBuffer+release",
    "raw_immediate": "pair/ImmediateAllocator(raw)",
    "raw_svm": "pair/clSVMAlloc+clSVMFree",
    "binding_floor": None,
}
PYTHON_LABEL = {
    "pool_immediate": "MemoryPool(ImmediateAllocator(queue)).allocate(size), dropped",
    "pool_deferred": "MemoryPool(DeferredAllocator(ctx)).allocate(size), dropped",
    "svm_pool": "SVMPool(SVMAllocator(ctx))(size), dropped",
    "svm_pool_queue": "SVMPool(SVMAllocator(ctx, queue=queue))(size), dropped",
    "raw_buffer": "cl.Buffer(ctx, READ_WRITE, size).release()",
    "raw_immediate": "ImmediateAllocator(queue)(size).release()",
    "raw_svm": "cl.SVMAllocation(ctx, size, 0, READ_WRITE).release()",
    "binding_floor": "MemoryPool(...).bin_number(size): no allocation",
}


def load_average():
    try:
        return list(os.getloadavg())
    except OSError:
        return None


def cpu_pressure():
    """Linux's CPU pressure line ('some avg10=... avg60=...'): the share of time in which some
    runnable task waited for a CPU. Unlike the load average it leaves out tasks waiting on I/O."""
    try:
        with open("/proc/pressure/cpu") as stream:
            return stream.readline().strip()
    except OSError:
        return None


# ---------------------------------------------------------------------------------------- measure


def make_peers(cl, tools, context, queue, device):
    """name -> (make(size) -> lambda, Python calls the lambda makes besides its own)."""
    # Bound methods and classes are looked up once, here: the batches time the calls themselves,
    # as the baselines time calls of a function held in a closure.
    read_write = cl.mem_flags.READ_WRITE
    immediate_pool = tools.MemoryPool(tools.ImmediateAllocator(queue))
    immediate_allocate, bin_number = immediate_pool.allocate, immediate_pool.bin_number
    deferred_allocate = tools.MemoryPool(tools.DeferredAllocator(context)).allocate
    immediate = tools.ImmediateAllocator(queue)
    Buffer = cl.Buffer
    peers = {
        "pool_immediate": (lambda size: lambda: immediate_allocate(size), 1),
        "pool_deferred": (lambda size: lambda: deferred_allocate(size), 1),
        "raw_buffer": (lambda size: lambda: Buffer(context, read_write, size).release(), 2),
        "raw_immediate": (lambda size: lambda: immediate(size).release(), 2),
        "binding_floor": (lambda size: lambda: bin_number(size), 1),
    }
    coarse_svm = cl.device_svm_capabilities.COARSE_GRAIN_BUFFER
    if getattr(tools, "SVMPool", None) and device.svm_capabilities & coarse_svm:
        svm_pool = tools.SVMPool(tools.SVMAllocator(context))
        svm_pool_queue = tools.SVMPool(tools.SVMAllocator(context, queue=queue))
        SVMAllocation = cl.SVMAllocation
        peers["svm_pool"] = (lambda size: lambda: svm_pool(size), 1)
        peers["svm_pool_queue"] = (lambda size: lambda: svm_pool_queue(size), 1)
        peers["raw_svm"] = (
            lambda size: lambda: SVMAllocation(context, size, 0, read_write).release(), 2)
    return peers


def measure(args):
    import pyopencl as cl
    import pyopencl.tools as tools

    selection = tools.get_test_platforms_and_devices()
    if not selection or not selection[0][1]:
        print("opencl_python_peers: PYOPENCL_TEST selects no device", file=sys.stderr)
        return 1
    device = selection[0][1][0]
    context = cl.Context([device])
    queue = cl.CommandQueue(context, device)
    peers = make_peers(cl, tools, context, queue, device)
    empty, argument = noop, SIZES[0]
    baselines = {1: lambda: empty(argument), 2: lambda: empty(empty(argument))}

    cells = [(name, size) for name in peers for size in SIZES]
    functions = {(name, size): peers[name][0](size) for name, size in cells}
    # Warm-up: every pool holds its block, the allocators' first calls are done. Then a batch
    # length per cell from a short trial: about --batch-ms, at most --calls calls (the raw
    # immediate path takes microseconds, the pools a fraction of one).
    calls = {}
    for cell, function in functions.items():
        per_call_ns(function, 100)
        trial = per_call_ns(function, 200)
        calls[cell] = max(100, min(args.calls, int(args.batch_ms * 1e6 / max(trial, 1.0))))
    for base in baselines.values():
        per_call_ns(base, 1000)

    load_before, pressure_before = load_average(), cpu_pressure()
    samples = {cell: [] for cell in cells}
    base_samples = {count: [] for count in baselines}
    for _ in range(args.repetitions):
        order = cells + [("baseline", count) for count in baselines]
        random.shuffle(order)
        for cell in order:
            if cell[0] == "baseline":
                base_samples[cell[1]].append(per_call_ns(baselines[cell[1]], args.calls))
            else:
                samples[cell].append(per_call_ns(functions[cell], calls[cell]))
    load_after, pressure_after = load_average(), cpu_pressure()

    context_info = {
        "round": args.round,
        "python": sys.version.split()[0],
        "pyopencl": cl.VERSION_TEXT,
        "numpy": __import__("numpy").__version__,
        "platform": device.platform.name,
        "platform_version": device.platform.version,
        "device": device.name,
        "device_version": device.version,
        "driver_version": device.driver_version,
        "svm_capabilities": int(device.svm_capabilities),
        "PYOPENCL_TEST": os.environ.get("PYOPENCL_TEST", ""),
        "POCL_DEVICES": os.environ.get("POCL_DEVICES", ""),
        "host": platform.node(),
        "load_average_before": load_before,
        "load_average_after": load_after,
        "cpu_pressure_before": pressure_before,
        "cpu_pressure_after": pressure_after,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "method": (f"{args.repetitions} repetitions in random order; batches of about "
                   f"{args.batch_ms} ms (at most {args.calls} calls); baselines of "
                   f"{args.calls} calls of a lambda calling an empty Python function once or "
                   "twice; samples in ns per call, baseline not yet subtracted"),
    }
    results = [{
        "peer": name,
        "size": size,
        "calls_per_batch": calls[(name, size)],
        "python_calls": peers[name][1],
        "samples_ns": samples[(name, size)],
    } for name, size in cells]
    baseline = [{"python_calls": count, "calls_per_batch": args.calls, "samples_ns": values}
                for count, values in base_samples.items()]
    with open(args.out, "w") as stream:
        json.dump({"context": context_info, "results": results, "baselines": baseline}, stream,
                  indent=1)
    base = {count: statistics.median(values) for count, values in base_samples.items()}
    print(f"round {args.round}: {device.name}, load {load_before} -> {load_after}; "
          f"baselines {', '.join(f'{c} call(s) {v:.1f} ns' for c, v in base.items())}")
    for (name, size), values in samples.items():
        net = statistics.median(values) - base[peers[name][1]]
        print(f"  {name:16s} {size_name(size, ' '):>7s} {net:12.1f} ns net")
    return 0


# -------------------------------------------------------------------------------------- summarize


def cpp_samples(paths):
    """benchmark name without the size -> size -> real ns of every repetition; plus contexts."""
    to_ns = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    found, contexts = {}, []
    for path in paths:
        with open(path) as stream:
            data = json.load(stream)
        contexts.append(data.get("context", {}))
        for entry in data.get("benchmarks", []):
            if entry.get("run_type") != "iteration" or entry.get("error_occurred"):
                continue
            name, _, size = entry["run_name"].rpartition("/")
            if not name.startswith("pair/"):
                continue
            value = entry["real_time"] * to_ns[entry.get("time_unit", "ns")]
            found.setdefault(name, {}).setdefault(int(size), []).append(value)
    return found, contexts


def python_samples(paths):
    """peer -> size -> net ns (median baseline subtracted); baseline medians; contexts."""
    raw, base, contexts, calls_of = {}, {}, [], {}
    for path in paths:
        with open(path) as stream:
            data = json.load(stream)
        contexts.append(data["context"])
        for entry in data["baselines"]:
            base.setdefault(entry["python_calls"], []).extend(entry["samples_ns"])
        for entry in data["results"]:
            raw.setdefault(entry["peer"], {}).setdefault(entry["size"], []).extend(
                entry["samples_ns"])
            calls_of[entry["peer"]] = entry["python_calls"]
    base_median = {count: statistics.median(values) for count, values in base.items()}
    net = {peer: {size: [v - base_median[calls_of[peer]] for v in values]
                  for size, values in sizes.items()} for peer, sizes in raw.items()}
    return net, raw, base, base_median, calls_of, contexts


def stats(values):
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "n": len(values)}


def show(cell):
    if cell is None:
        return "n/a"
    return f"{cell['median']:.1f} ({cell['min']:.1f}-{cell['max']:.1f})"


def ratio(peer, polydev):
    """Median ratio and, in parentheses, the conservative one (peer's min / polydev's max)."""
    if peer is None or polydev is None or polydev["median"] <= 0 or polydev["max"] <= 0:
        return "n/a"
    return f"{peer['median'] / polydev['median']:.1f}x ({peer['min'] / polydev['max']:.1f}x)"


def markdown_table(columns):
    """columns: (header, size -> text) pairs after the size column; one row per size."""
    lines = ["| size | " + " | ".join(header for header, _ in columns) + " |",
             "|---|" + "--:|" * len(columns)]
    for size in SIZES:
        lines.append(f"| {size_name(size, ' ')} | "
                     + " | ".join(cell(size) for _, cell in columns) + " |")
    return lines


def saved(raw_cell, pool_cell):
    """raw / pooled, ratio of the medians."""
    if raw_cell is None or pool_cell is None or pool_cell["median"] <= 0:
        return "n/a"
    return f"{raw_cell['median'] / pool_cell['median']:.1f}x"


def summarize(args):
    cpp, cpp_contexts = cpp_samples(args.cpp)
    net, raw, base, base_median, calls_of, py_contexts = python_samples(args.python)
    c = {name: {size: stats(values) for size, values in sizes.items()}
         for name, sizes in cpp.items()}
    p = {peer: {size: stats(values) for size, values in sizes.items()}
         for peer, sizes in net.items()}

    def cpp_cell(name):  # a polydev benchmark: size -> stats
        return lambda size: c.get(f"pair/{name}", {}).get(size)

    def py_cell(peer):  # a Python peer, empty calls subtracted: size -> stats
        return lambda size: p.get(peer, {}).get(size)

    def shown(cell):
        return lambda size: show(cell(size))

    def ratio_of(peer_cell, polydev_cell):
        return lambda size: ratio(peer_cell(size), polydev_cell(size))

    def saved_by(raw_cell, pool_cell):
        return lambda size: saved(raw_cell(size), pool_cell(size))

    immediate, deferred = cpp_cell("MemoryPool(immediate)"), cpp_cell("MemoryPool(deferred)")
    svm, create = cpp_cell("SVMPool"), cpp_cell("clCreateBuffer+release")
    svm_alloc, resident = cpp_cell("clSVMAlloc+clSVMFree"), cpp_cell("ImmediateAllocator(raw)")
    py = {peer: py_cell(peer) for peer in POLYDEV_MATCH}

    lines = ["Buffer pools, hot pair (allocate one block, give it back), ns per pair: median "
             "(min-max over every repetition). Python columns: the median empty call "
             "subtracted. Ratio = PyOpenCL / polydev: ratio of the medians (conservative: "
             "PyOpenCL's fastest / polydev's slowest).", ""]
    lines += markdown_table([
        ("polydev MemoryPool(immediate), C++", shown(immediate)),
        ("PyOpenCL MemoryPool(ImmediateAllocator), Python", shown(py["pool_immediate"])),
        ("ratio", ratio_of(py["pool_immediate"], immediate)),
        ("clCreateBuffer+release, C++", shown(create)),
        ("cl.Buffer(...).release(), Python", shown(py["raw_buffer"])),
    ])
    lines += ["", "Deferred-allocator buffer pools and SVM pools, same pattern:", ""]
    lines += markdown_table([
        ("polydev MemoryPool(deferred)", shown(deferred)),
        ("PyOpenCL MemoryPool(DeferredAllocator)", shown(py["pool_deferred"])),
        ("ratio", ratio_of(py["pool_deferred"], deferred)),
        ("polydev SVMPool (no queue)", shown(svm)),
        ("PyOpenCL SVMPool(SVMAllocator(ctx))", shown(py["svm_pool"])),
        ("ratio", ratio_of(py["svm_pool"], svm)),
        ("PyOpenCL SVMPool(SVMAllocator(ctx, queue=queue))", shown(py["svm_pool_queue"])),
        ("ratio", ratio_of(py["svm_pool_queue"], svm)),
    ])
    lines += ["", "Raw allocation and the cost of a PyOpenCL call, for reference:", ""]
    lines += markdown_table([
        ("clSVMAlloc+clSVMFree, C++", shown(svm_alloc)),
        ("cl.SVMAllocation(...).release(), Python", shown(py["raw_svm"])),
        ("polydev ImmediateAllocator raw (waits), C++", shown(resident)),
        ("PyOpenCL ImmediateAllocator(queue)(size).release() (no wait), Python",
         shown(py["raw_immediate"])),
        ("PyOpenCL MemoryPool.bin_number(size) (allocates nothing), Python",
         shown(py["binding_floor"])),
    ])
    lines += ["", "What the pool saves on each side (raw / pooled, ratio of the medians):", ""]
    lines += markdown_table([
        ("polydev: clCreateBuffer / MemoryPool(deferred)", saved_by(create, deferred)),
        ("PyOpenCL: cl.Buffer / MemoryPool(DeferredAllocator)",
         saved_by(py["raw_buffer"], py["pool_deferred"])),
        ("polydev: clSVMAlloc / SVMPool", saved_by(svm_alloc, svm)),
        ("PyOpenCL: SVMAllocation / SVMPool", saved_by(py["raw_svm"], py["svm_pool"])),
    ])
    lines.append("")
    base_text = ", ".join(
        f"{count} empty call(s): {statistics.median(values):.1f} ns "
        f"({min(values):.1f}-{max(values):.1f}, {len(values)} batches)"
        for count, values in sorted(base.items()))
    lines.append("Subtracted from every Python sample (median of all baseline batches): "
                 f"{base_text}.")
    loads = [ctx.get(key) for ctx in py_contexts
             for key in ("load_average_before", "load_average_after")]
    loads = [load[0] for load in loads if load]
    if loads:
        lines.append(f"1-minute load average seen by the Python rounds: {min(loads):.2f} to "
                     f"{max(loads):.2f}.")
    pressures = [ctx.get(key) for ctx in py_contexts
                 for key in ("cpu_pressure_before", "cpu_pressure_after")]
    avg10 = [float(text.split("avg10=")[1].split()[0]) for text in pressures
             if text and "avg10=" in text]
    if avg10:
        lines.append(f"CPU pressure (some, avg10: % of time a runnable task waited for a CPU) "
                     f"around the Python rounds: {min(avg10):.1f} to {max(avg10):.1f} %.")
    cpp_loads = [ctx["load_avg"][0] for ctx in cpp_contexts if ctx.get("load_avg")]
    if cpp_loads:
        lines.append(f"1-minute load average at the start of the C++ rounds: "
                     f"{min(cpp_loads):.2f} to {max(cpp_loads):.2f}.")
    text = "\n".join(lines)
    print(text)

    if args.out:
        summary = {
            "cpp_files": [os.path.basename(path) for path in args.cpp],
            "python_files": [os.path.basename(path) for path in args.python],
            "cpp_context": cpp_contexts[0] if cpp_contexts else {},
            "python_context": py_contexts[0] if py_contexts else {},
            "baseline_median_ns": {str(k): v for k, v in base_median.items()},
            "polydev_cpp": {name: {str(size): cell for size, cell in sizes.items()}
                            for name, sizes in c.items()},
            "pyopencl_python_net": {peer: {str(size): cell for size, cell in sizes.items()}
                                    for peer, sizes in p.items()},
            "pyopencl_python_raw_samples_ns": {
                peer: {str(size): values for size, values in sizes.items()}
                for peer, sizes in raw.items()},
            "python_labels": PYTHON_LABEL,
            "polydev_match": POLYDEV_MATCH,
            "python_calls_besides_the_lambda": calls_of,
            "tables_markdown": text,
        }
        with open(args.out, "w") as stream:
            json.dump(summary, stream, indent=1)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("measure", help="one round of Python measurements")
    run.add_argument("--out", required=True)
    run.add_argument("--round", type=int, default=1, help="recorded in the JSON")
    run.add_argument("--repetitions", type=int, default=3, help="batches of each cell")
    run.add_argument("--calls", type=int, default=20000,
                     help="calls per baseline batch, and the most per peer batch")
    run.add_argument("--batch-ms", type=float, default=20.0,
                     help="target length of a peer batch in ms")
    both = commands.add_parser("summarize", help="tables from the C++ and Python JSON files")
    both.add_argument("--cpp", nargs="+", required=True, help="Google Benchmark JSON files")
    both.add_argument("--python", nargs="+", required=True, help="JSON files of measure")
    both.add_argument("--out", help="summary JSON to write")
    args = parser.parse_args()
    return measure(args) if args.command == "measure" else summarize(args)


if __name__ == "__main__":
    sys.exit(main())
