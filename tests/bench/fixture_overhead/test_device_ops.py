"""Fixture overhead, pytest side.

The same 100 trivial device tests as device_tests.cpp: two buffers of 256 floats, the one-line
kernel ``out[i] = 2 * in[i]``, a blocking read back and a check. Each test gets a new context from
PyOpenCL's ``ctx_factory`` (which clears the first-argument caches first, as polydev's
``make_context()`` does), makes a queue, and builds its program through a
``first_arg_dependent_memoize`` cache, PyOpenCL's counterpart of ``polydev::opencl::build_program``.
tests/bench/run/fixture-overhead.sh times this run against the polydev one on the same devices.
"""

import numpy as np
import pyopencl as cl
from pyopencl.tools import first_arg_dependent_memoize

COUNT = 256
SOURCE = (
    "__kernel void twice(__global const float* in, __global float* out)\n"
    "{ size_t i = get_global_id(0); out[i] = 2.0f * in[i]; }\n"
)


@first_arg_dependent_memoize
def build_program(context, source):
    return cl.Program(context, source).build()


def run_one(ctx_factory, index):
    context = ctx_factory()
    queue = cl.CommandQueue(context)
    host_in = np.arange(COUNT, dtype=np.float32) + np.float32(index)
    flags = cl.mem_flags
    device_in = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=host_in)
    device_out = cl.Buffer(context, flags.WRITE_ONLY, host_in.nbytes)
    program = build_program(context, SOURCE)
    kernel = cl.Kernel(program, "twice")
    kernel.set_args(device_in, device_out)
    cl.enqueue_nd_range_kernel(queue, kernel, (COUNT,), None)
    host_out = np.full(COUNT, -1.0, dtype=np.float32)
    cl.enqueue_copy(queue, host_out, device_out, is_blocking=True)
    assert np.array_equal(host_out, 2.0 * host_in)


def _make_test(index):
    def test(ctx_factory):
        run_one(ctx_factory, index)

    test.__name__ = test.__qualname__ = f"test_op_{index:02d}"
    return test


# 100 tests, test_op_00 to test_op_99, like Op00 to Op99 of device_tests.cpp.
for _index in range(100):
    globals()[f"test_op_{_index:02d}"] = _make_test(_index)
del _index
