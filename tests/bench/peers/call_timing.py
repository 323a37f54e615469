"""What the Python-side peer benchmarks share: timing a batch of calls, the do-nothing call of the
baseline, and size names. Imported by python_peers.py and opencl_python_peers.py, which run as
scripts from this folder."""
import time


def size_name(size, separator=""):
    """256B, 64KiB, 1MiB (with `separator` between number and unit)."""
    if size % (1 << 20) == 0:
        return f"{size >> 20}{separator}MiB"
    if size % 1024 == 0:
        return f"{size >> 10}{separator}KiB"
    return f"{size}{separator}B"


def per_call_ns(function, calls):
    """Nanoseconds per call of `function` over `calls` calls in a row."""
    start = time.perf_counter_ns()
    for _ in range(calls):
        function()
    return (time.perf_counter_ns() - start) / calls


def noop(value=None):
    """The baseline's call: a Python call that does nothing."""
    return value
