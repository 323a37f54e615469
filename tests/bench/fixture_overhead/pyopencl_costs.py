"""What one test_device_ops.py test spends on each step, per PyOpenCL device: the counterpart of
the FixtureOverheadCosts suite of device_tests.cpp, with the same steps and the same output lines:

    fixture-overhead-cost <device> <step> median_us=<m> min_us=<m> max_us=<m> n=<n>

Run by tests/bench/run/fixture-overhead.sh; prints, asserts nothing about time.
"""

import sys
import time

import numpy as np
import pyopencl as cl
from pyopencl.tools import get_test_platforms_and_devices

try:  # the factory that pytest_generate_tests_for_pyopencl hands to tests as ctx_factory (private)
    from pyopencl.tools import _ContextFactory
except ImportError:  # pragma: no cover
    _ContextFactory = None

from test_device_ops import COUNT, SOURCE, build_program

REPETITIONS = 7


def measure(device, label):
    samples = {}

    def add(step, start):
        samples.setdefault(step, []).append((time.perf_counter() - start) * 1e6)

    nonce = time.time_ns()
    for repetition in range(REPETITIONS):
        # ctx_factory(): clear_first_arg_caches(), gc.collect(), cl.Context([device]). The
        # collection costs more under pytest, whose process holds many more objects.
        start = time.perf_counter()
        context = _ContextFactory(device)() if _ContextFactory else cl.Context([device])
        add("context", start)

        start = time.perf_counter()
        queue = cl.CommandQueue(context)
        add("queue", start)

        start = time.perf_counter()
        first = build_program(context, SOURCE)
        add("program_first", start)

        start = time.perf_counter()
        cached = build_program(context, SOURCE)
        add("program_cached", start)
        assert first is cached

        start = time.perf_counter()
        build_program(context, SOURCE + f"// {label} {nonce} {repetition}\n")
        add("program_cold", start)

        binaries = first.get_info(cl.program_info.BINARIES)
        start = time.perf_counter()
        cl.Program(context, [device], binaries).build()
        add("program_from_binary", start)

        host_in = np.full(COUNT, 1.5, dtype=np.float32)
        flags = cl.mem_flags
        start = time.perf_counter()
        device_in = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=host_in)
        device_out = cl.Buffer(context, flags.WRITE_ONLY, host_in.nbytes)
        add("buffers", start)

        start = time.perf_counter()
        kernel = cl.Kernel(first, "twice")
        kernel.set_args(device_in, device_out)
        cl.enqueue_nd_range_kernel(queue, kernel, (COUNT,), None)
        host_out = np.empty_like(host_in)
        cl.enqueue_copy(queue, host_out, device_out, is_blocking=True)
        add("kernel_and_read", start)
        assert host_out[0] == 3.0

    for step in ("context", "queue", "program_first", "program_cached", "program_cold",
                 "program_from_binary", "buffers", "kernel_and_read"):
        values = sorted(samples[step])
        print(f"fixture-overhead-cost {label} {step} median_us={values[len(values) // 2]:.1f} "
              f"min_us={values[0]:.1f} max_us={values[-1]:.1f} n={len(values)}")


def main():
    number = 0
    for _platform, devices in get_test_platforms_and_devices():
        for device in devices:
            measure(device, f"pyopencl_device_{number}_{device.name.replace(' ', '_')}")
            number += 1
    sys.stdout.flush()


if __name__ == "__main__":
    main()
