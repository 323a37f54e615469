# PyOpenCL's pytest plugin: parametrizes every test that takes ctx_factory over the devices that
# PYOPENCL_TEST selects (all devices of all platforms when it is unset).
from pyopencl.tools import pytest_generate_tests_for_pyopencl as pytest_generate_tests  # noqa: F401
